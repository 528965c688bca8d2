//! The Jiangjun engine: evaluation, search, transposition table, time
//! management and the opening book, on top of the `xiangqi` rules library.

pub mod bench;
pub mod book;
pub mod eval;
pub mod nnue;
pub mod position;
pub mod score;
pub mod search;
pub mod time;
pub mod tt;
