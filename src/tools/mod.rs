//! Tools beside the engine: perft reports, the test-suite solver, the tuner,
//! the book builder and the game-record reader they share.

pub mod book_build;
pub mod perft;
pub mod records;
pub mod solve;
pub mod tune;
