//! Records the commit the binary is built from and the version it
//! announces, for `--version` and the protocol's `id name`. Outside a git
//! checkout the commit is `unknown`; the version is the release tag given in
//! `JIANGJUN_VERSION` (set by the release workflow), else the package's.

use std::process::Command;

#[path = "src/version.rs"]
mod version;

/// Runs git and returns its trimmed output, if any. Optional locks are off
/// (`GIT_OPTIONAL_LOCKS=0`): otherwise `git status` refreshes and rewrites
/// `.git/index` (on a fresh clone it always does), and since the index is
/// watched below, the next `cargo build` or `cargo run` would run this
/// script and rebuild the crate again, for nothing.
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .env("GIT_OPTIONAL_LOCKS", "0")
        .output()
        .ok()?;
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
    // Rerun when HEAD moves (a commit, a checkout, the branch's ref, loose
    // or packed) or the index changes (`git add`; an edit alone does not
    // rerun this, so `-dirty` can lag until the next of these).
    // Only files that exist are watched: cargo reruns a build script on
    // every build while a watched file is missing.
    let mut watched = vec!["HEAD".to_string(), "index".into(), "packed-refs".into()];
    watched.extend(git(&["symbolic-ref", "-q", "HEAD"]));
    for path in watched {
        if let Some(p) = git(&["rev-parse", "--git-path", &path])
            && std::path::Path::new(&p).exists()
        {
            println!("cargo:rerun-if-changed={p}");
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
