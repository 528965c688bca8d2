//! Jiangjun, a Xiangqi (Chinese chess) engine speaking UCCI and UCI: the
//! protocol front end and the offline tools. The rules are the `xiangqi`
//! crate, the search and evaluation `jiangjun-engine`, the match runner
//! `xiangqi-match`.

pub mod protocol;
pub mod tools;
