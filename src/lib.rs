//! Jiangjun, a Xiangqi (Chinese chess) engine speaking UCCI and UCI.

pub mod board;
pub mod book;
pub mod eval;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod time;
pub mod tools;
pub mod tt;
pub mod types;
