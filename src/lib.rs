//! Jiangjun, a Xiangqi (Chinese chess) engine speaking UCCI and UCI.

pub mod board;
pub mod eval;
pub mod tools;
pub mod types;
