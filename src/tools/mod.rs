//! Tools built on the engine: perft, bench, judge, match runner, book.

pub mod bench;
pub mod book_build;
pub mod matchrun;
pub mod perft;
pub mod records;
pub mod solve;
pub mod tune;
