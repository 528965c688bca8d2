//! Jiangjun, a Xiangqi (Chinese chess) engine speaking UCCI and UCI: the
//! offline tools of the `jiangjun` binary. The rules are the `xiangqi`
//! crate, the search and evaluation `jiangjun-engine`, the UCCI/UCI front
//! end `jiangjun-protocol`, the match runner `xiangqi-match`.

pub mod tools;

pub use jiangjun_protocol::{RELEASE, VERSION};
