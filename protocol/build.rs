//! Records the commit the binary is built from and the version it
//! announces, for `--version` and the protocol's `id name`. Outside a git
//! checkout the commit is `unknown`; the version is the release tag given in
//! `JIANGJUN_VERSION` (set by the release workflow), else the package's.

use std::process::Command;

#[path = "src/version.rs"]
mod version;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
}

fn main() {
    let commit = git(&["rev-parse", "--short=8", "HEAD"]).unwrap_or_else(|| "unknown".into());
    let dirty =
        git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    let commit = if dirty {
        format!("{commit}-dirty")
    } else {
        commit
    };
    println!("cargo:rustc-env=JIANGJUN_COMMIT={commit}");
    let tag = std::env::var("JIANGJUN_VERSION").ok();
    let package = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let release = version::release_version(tag.as_deref(), &package);
    println!("cargo:rustc-env=JIANGJUN_RELEASE={release}");
    println!("cargo:rerun-if-env-changed=JIANGJUN_VERSION");
    println!("cargo:rerun-if-changed=src/version.rs");
    // Rebuild when HEAD moves (a commit, a checkout) or the index changes.
    for path in ["HEAD", "index"] {
        if let Some(p) = git(&["rev-parse", "--git-path", path]) {
            println!("cargo:rerun-if-changed={p}");
        }
    }
    if let Some(r) = git(&["symbolic-ref", "-q", "HEAD"])
        && let Some(p) = git(&["rev-parse", "--git-path", &r])
    {
        println!("cargo:rerun-if-changed={p}");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
