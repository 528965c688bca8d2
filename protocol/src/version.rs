//! The version the binary announces (`--version`, `id name`): a release
//! build's tag, else the package version. Shared with `build.rs`, which
//! resolves it once at build time from the `JIANGJUN_VERSION` variable the
//! release workflow sets from its `v*` tag.

/// The announced version: `tag` without a leading `v` (`v1.2.0` -> `1.2.0`),
/// or `package` when there is no tag or it is blank.
pub fn release_version(tag: Option<&str>, package: &str) -> String {
    match tag.map(str::trim) {
        Some(t) if !t.is_empty() && t != "v" => t.strip_prefix('v').unwrap_or(t).to_string(),
        _ => package.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::release_version;

    #[test]
    fn without_a_tag_the_package_version_is_announced() {
        assert_eq!(release_version(None, "0.1.0"), "0.1.0");
        assert_eq!(release_version(Some(""), "0.1.0"), "0.1.0");
        assert_eq!(release_version(Some("  "), "0.1.0"), "0.1.0");
        assert_eq!(release_version(Some("v"), "0.1.0"), "0.1.0");
    }

    #[test]
    fn a_tag_is_announced_without_its_v() {
        assert_eq!(release_version(Some("v1.2.0"), "0.1.0"), "1.2.0");
        assert_eq!(release_version(Some("1.2.0-rc1"), "0.1.0"), "1.2.0-rc1");
    }

    /// This build announces what its environment asked for: the package
    /// version unless `JIANGJUN_VERSION` was set (as the release workflow
    /// does), which is the fallback every ordinary build takes.
    #[test]
    fn this_build_announces_the_tag_or_the_package_version() {
        let want = release_version(option_env!("JIANGJUN_VERSION"), env!("CARGO_PKG_VERSION"));
        assert_eq!(crate::identity::RELEASE, want);
        assert!(
            crate::identity::VERSION.starts_with(&format!("{want} (")),
            "{}",
            crate::identity::VERSION
        );
        if option_env!("JIANGJUN_VERSION").is_none() {
            assert_eq!(crate::identity::RELEASE, env!("CARGO_PKG_VERSION"));
        }
    }
}
