//! Jiangjun, a Xiangqi (Chinese chess) engine speaking UCCI and UCI: the
//! protocol front end and the offline tools. The rules are the `xiangqi`
//! crate, the search and evaluation `jiangjun-engine`, the match runner
//! `xiangqi-match`.

pub mod protocol;
pub mod tools;

/// The package version and the commit it was built from, e.g. `0.1.0 (1a2b3c4d)`.
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("JIANGJUN_COMMIT"),
    ")"
);
