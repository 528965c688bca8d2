//! The `bench` node count, the search's signature, is one fact written in
//! one place: `engine/bench-nodes.txt`. The Rust tests read it through
//! `jiangjun_engine::bench::PINNED_NODES`, the scripts and workflows read the
//! file; the pages that state the count are listed here and checked to
//! state that one, and no other file may write it down.

// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]

use jiangjun_engine::bench::PINNED_NODES;
use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The count's one source.
const SOURCE: &str = "engine/bench-nodes.txt";

/// Pages that state the current count, each with the text just before it.
const PAGES: &[(&str, &str)] = &[
    ("README.md", "built in (`bench` "),
    ("docs/install.md", "`bench`'s node count ("),
    ("engine/nets/README.md", "| `bench` with it built in | "),
    // Written by scripts/calibrate_levels.py with the count it measured
    // with, which must be this one (as for `ladder_ratings.rs` below).
    ("docs/levels.md", "with the engine whose `bench` is "),
];

/// Generated files that record the count they were made with, checked
/// against the pin by their own test.
const CHECKED_ELSEWHERE: &[(&str, &str)] = &[(
    "engine/src/play/ladder_ratings.rs",
    "engine/tests/bench_signature.rs: ladder_calibration_is_of_this_engine",
)];

/// Folders whose files may quote old counts: dated notes and archived
/// games are history, not statements of the current count.
const HISTORY: &[&str] = &["notes", "archive"];

#[test]
fn the_source_holds_one_count() {
    let text = std::fs::read_to_string(Path::new(ROOT).join(SOURCE)).unwrap();
    assert_eq!(text, format!("{PINNED_NODES}\n"), "{SOURCE}");
}

/// The number written right after `before` in `text`, if any.
fn number_after(text: &str, before: &str) -> Option<u64> {
    let at = text.find(before)? + before.len();
    let digits: String = text[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

#[test]
fn every_page_that_states_the_count_states_the_pinned_one() {
    for (page, before) in PAGES {
        let text = std::fs::read_to_string(Path::new(ROOT).join(page)).unwrap();
        assert_eq!(
            number_after(&text, before),
            Some(PINNED_NODES),
            "{page} states another bench count after {before:?} than {SOURCE}'s {PINNED_NODES}"
        );
    }
}

/// Every file under `dir` (but build output, history and hidden folders).
fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let rel = path
            .strip_prefix(ROOT)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if name.starts_with('.') && name != ".github" && name != ".ci" {
            continue;
        }
        if path.is_dir() {
            if !matches!(name.as_str(), "target" | "node_modules" | "pkg")
                && !HISTORY.contains(&rel.as_str())
            {
                files(&path, out);
            }
        } else {
            out.push(path);
        }
    }
}

/// `grep -rl` of the count finds the source, the pages above and the files
/// checked elsewhere, nothing more: a test or script that needs the count
/// reads the source instead of copying it.
#[test]
fn the_count_is_written_nowhere_else() {
    let mut all = Vec::new();
    files(Path::new(ROOT), &mut all);
    let count = PINNED_NODES.to_string();
    let mut stray = Vec::new();
    for path in all {
        // Networks and books are large and not text.
        if std::fs::metadata(&path).unwrap().len() > 4 << 20 {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue; // not text
        };
        let rel = path
            .strip_prefix(ROOT)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let known = rel == SOURCE
            || PAGES.iter().any(|(p, _)| *p == rel)
            || CHECKED_ELSEWHERE.iter().any(|(p, _)| *p == rel);
        if !known && text.contains(&count) {
            stray.push(rel);
        }
    }
    assert!(
        stray.is_empty(),
        "the bench count {count} is written in {stray:?}: read it from {SOURCE} \
         (Rust: jiangjun_engine::bench::PINNED_NODES), or list a page that must state \
         it in PAGES"
    );
}
