//! Who the engine says it is: the name, author and version of the `id`
//! lines both dialects print (and of the binary's `--version`). A leaf, so
//! that the dialects read it without importing from the crate root.

/// The name in `id name`.
pub const ENGINE_NAME: &str = "Jiangjun";

/// The author in `id author`.
pub const ENGINE_AUTHOR: &str = "the Jiangjun developers";

/// The version announced: the release tag the engine was built for
/// (`JIANGJUN_VERSION` at build time, e.g. `1.2.0` for tag `v1.2.0`), else
/// the package version. Set by this crate's `build.rs`.
pub const RELEASE: &str = env!("JIANGJUN_RELEASE");

/// [`RELEASE`] and the commit it was built from, e.g. `0.1.0 (1a2b3c4d)`.
pub const VERSION: &str = concat!(env!("JIANGJUN_RELEASE"), " (", env!("JIANGJUN_COMMIT"), ")");
