//! Jiangjun, a Xiangqi (Chinese chess) engine speaking UCCI and UCI: the
//! protocol front end and the offline tools. The rules are the `xiangqi`
//! crate, the search and evaluation `jiangjun-engine`, the match runner
//! `xiangqi-match`.

pub mod protocol;
pub mod tools;
// build.rs resolves the version with it; here only its tests run.
#[cfg(test)]
mod version;

/// The version announced: the release tag the binary was built for
/// (`JIANGJUN_VERSION` at build time, e.g. `1.2.0` for tag `v1.2.0`), else
/// the package version.
pub const RELEASE: &str = env!("JIANGJUN_RELEASE");

/// [`RELEASE`] and the commit it was built from, e.g. `0.1.0 (1a2b3c4d)`.
pub const VERSION: &str = concat!(env!("JIANGJUN_RELEASE"), " (", env!("JIANGJUN_COMMIT"), ")");
