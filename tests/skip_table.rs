//! docs/testing.md's table of what skips without an optional tool is the
//! whole list, and every skip goes through the one helper that fails under
//! CI (`common::skip`, `xiangqi/tests/common/mod.rs`).
//!
//! A test that returns early on its own (printing `SKIPPED` by hand) passes
//! under CI without running, which the helper exists to prevent; and a table
//! that misses a skipping test tells a reader that everything else always
//! runs. Both went wrong unseen before this check (2026-12-04): one book test
//! skipped by hand, and six skipping tests were not in the table. So the
//! test files are read as text: a function "can skip" if it calls a skip
//! helper, or a function of its own file or of a `common` module that can;
//! every `#[test]` that can skip must be named in the table, and every name
//! in the table must be such a test.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The helpers of `xiangqi/tests/common/mod.rs` that skip, the roots of the
/// search.
const SKIP_HELPERS: [&str; 4] = ["skip", "shared_file", "shared_path", "skip_without_shared"];

/// Every `.rs` file under a `tests` folder of the workspace.
fn test_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, in_tests: bool, out: &mut Vec<PathBuf>) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            let name = e.file_name().to_string_lossy().into_owned();
            if p.is_dir() {
                if !(name.starts_with('.') || name == "target" || name == "node_modules") {
                    walk(&p, in_tests || name == "tests", out);
                }
            } else if in_tests && name.ends_with(".rs") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(Path::new(ROOT), false, &mut out);
    out.sort();
    out
}

/// `src` with comments, string and character literals blanked out (each
/// byte replaced by a space, so offsets stay), so that braces and names in
/// them are not read as code.
fn code_only(src: &str) -> Vec<u8> {
    let b = src.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut out[from..to.min(b.len())] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    while i < b.len() {
        let next = b.get(i + 1).copied();
        if b[i] == b'/' && next == Some(b'/') {
            let end = src[i..].find('\n').map_or(b.len(), |n| i + n);
            blank(&mut out, i, end);
            i = end;
        } else if b[i] == b'/' && next == Some(b'*') {
            let end = src[i + 2..].find("*/").map_or(b.len(), |n| i + 2 + n + 2);
            blank(&mut out, i, end);
            i = end;
        } else if b[i] == b'r' && (next == Some(b'"') || next == Some(b'#')) && !ident(b, i) {
            // A raw string: r"..." or r#"..."#.
            let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
            if b.get(i + 1 + hashes) != Some(&b'"') {
                i += 1;
                continue;
            }
            let close = format!("\"{}", "#".repeat(hashes));
            let body = i + 2 + hashes;
            let end = src[body..]
                .find(&close)
                .map_or(b.len(), |n| body + n + close.len());
            blank(&mut out, i, end);
            i = end;
        } else if b[i] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            blank(&mut out, i, j + 1);
            i = j + 1;
        } else if b[i] == b'\'' {
            // A character literal ('x', '\n', '\u{..}'), not a lifetime ('a).
            let end = if next == Some(b'\\') {
                src[i + 3..].find('\'').map(|n| i + 3 + n + 1)
            } else {
                let ch = src[i + 1..].chars().next().map_or(1, char::len_utf8);
                (b.get(i + 1 + ch) == Some(&b'\'')).then_some(i + 2 + ch)
            };
            match end {
                Some(end) => {
                    blank(&mut out, i, end);
                    i = end;
                }
                None => i += 1,
            }
        } else {
            i += 1;
        }
    }
    out
}

/// Whether the byte before `i` continues an identifier.
fn ident(b: &[u8], i: usize) -> bool {
    i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')
}

/// Every function of a file: its name, body (code only) and whether it is a
/// `#[test]`.
fn functions(src: &str) -> Vec<(String, String, bool)> {
    let code = code_only(src);
    let text = String::from_utf8_lossy(&code).into_owned();
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(n) = text[at..].find("fn ") {
        let start = at + n;
        at = start + 3;
        if ident(b, start) {
            continue;
        }
        let name: String = text[at..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let Some(open) = text[at..].find(['{', ';']).map(|n| at + n) else {
            break;
        };
        if name.is_empty() || b[open] == b';' {
            continue;
        }
        let mut depth = 0;
        let mut close = b.len();
        for (k, &c) in b.iter().enumerate().skip(open) {
            depth += i32::from(c == b'{') - i32::from(c == b'}');
            if depth == 0 {
                close = k;
                break;
            }
        }
        // The attributes above `fn`: the lines just before it that start with `#[`.
        let before = &src[..start];
        let is_test = before
            .lines()
            .rev()
            .skip(usize::from(!before.ends_with('\n')))
            .map(str::trim)
            .take_while(|l| l.starts_with("#[") || l.is_empty())
            .any(|l| l == "#[test]");
        out.push((name, text[open..close].to_string(), is_test));
    }
    out
}

/// Whether `body` calls `name` as a function (`name(` or `path::name(`,
/// not a method `.name(`).
fn calls(body: &str, name: &str) -> bool {
    let b = body.as_bytes();
    let pattern = format!("{name}(");
    body.match_indices(&pattern)
        .any(|(i, _)| !ident(b, i) && (i == 0 || b[i - 1] != b'.'))
}

/// The names among `fns` that can skip: those calling one of `roots`, and
/// so on to a fixed point.
fn can_skip(fns: &[(String, String, bool)], roots: &BTreeSet<String>) -> BTreeSet<String> {
    let mut skipping = roots.clone();
    loop {
        let more: Vec<String> = fns
            .iter()
            .filter(|(n, body, _)| !skipping.contains(n) && skipping.iter().any(|h| calls(body, h)))
            .map(|(n, _, _)| n.clone())
            .collect();
        if more.is_empty() {
            return skipping;
        }
        skipping.extend(more);
    }
}

/// The `#[test]`s, by file, that can skip.
fn skipping_tests(files: &[(PathBuf, String)]) -> Vec<(PathBuf, String)> {
    let roots: BTreeSet<String> = SKIP_HELPERS.iter().map(|s| s.to_string()).collect();
    let common: Vec<_> = files
        .iter()
        .filter(|(p, _)| p.ends_with("common/mod.rs"))
        .flat_map(|(_, src)| functions(src))
        .collect();
    let helpers = can_skip(&common, &roots);
    let mut out = Vec::new();
    for (path, src) in files {
        let fns = functions(src);
        let skipping = can_skip(&fns, &helpers);
        for (name, _, is_test) in &fns {
            if *is_test && skipping.contains(name) {
                out.push((path.clone(), name.clone()));
            }
        }
    }
    out
}

/// The test names (a backquoted `snake_case` word) in the table's second
/// column.
fn listed(doc: &str) -> BTreeSet<String> {
    let section = doc
        .split("### What skips without an optional tool")
        .nth(1)
        .expect("docs/testing.md has its section on skipping tests");
    let mut names = BTreeSet::new();
    for row in section.lines().skip(1).take_while(|l| !l.starts_with('#')) {
        let Some(cell) = row.strip_prefix('|').and_then(|r| r.split('|').nth(1)) else {
            continue;
        };
        for (k, word) in cell.split('`').enumerate() {
            let is_name = word.contains('_')
                && word
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
            if k % 2 == 1 && is_name {
                names.insert(word.to_string());
            }
        }
    }
    names
}

fn read(files: Vec<PathBuf>) -> Vec<(PathBuf, String)> {
    files
        .into_iter()
        .map(|p| {
            let src = fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p, src)
        })
        .collect()
}

#[test]
fn every_skipping_test_is_in_the_table_and_skips_through_the_helper() {
    let files = read(test_files());
    assert!(
        files.len() > 30,
        "the test files are found: {}",
        files.len()
    );
    let by_hand: Vec<_> = files
        .iter()
        .filter(|(p, src)| !p.ends_with("common/mod.rs") && src.contains("SKIPPED"))
        .map(|(p, _)| p.display().to_string())
        .filter(|p| !p.ends_with("skip_table.rs"))
        .collect();
    assert!(
        by_hand.is_empty(),
        "these print SKIPPED themselves instead of calling common::skip, so CI cannot fail them: {by_hand:?}"
    );
    let skipping = skipping_tests(&files);
    let found: BTreeSet<String> = skipping.iter().map(|(_, n)| n.clone()).collect();
    let doc = fs::read_to_string(Path::new(ROOT).join("docs/testing.md")).expect("docs/testing.md");
    let table = listed(&doc);
    let missing: Vec<_> = skipping
        .iter()
        .filter(|(_, n)| !table.contains(n))
        .map(|(p, n)| format!("{n} ({})", p.display()))
        .collect();
    assert!(
        missing.is_empty(),
        "tests that can skip but are not in docs/testing.md's table: {missing:?}"
    );
    let stale: Vec<_> = table.difference(&found).collect();
    assert!(
        stale.is_empty(),
        "named in docs/testing.md's table but not a test that can skip: {stale:?}"
    );
}

#[test]
fn the_reader_sees_skips_through_helpers_and_not_in_literals() {
    let common = "pub fn python_script() -> Option<u8> {\n    skip(\"no python\");\n    None\n}\n";
    let tests = r#"
fn helper() -> Option<u8> {
    let s = "} { not code";
    let c = '{';
    common::python_script()?; // a comment with shared_file( in it
    Some(1)
}
#[test]
#[cfg(unix)]
fn uses_the_helper() {
    let Some(_) = helper() else { return };
}
#[test]
fn only_names_it_in_a_string() {
    let s = "skip(";
    let v = [1].iter().skip(1);
}
fn not_a_test() { common::skip("x"); }
#[test]
fn straight_to_shared<'a>() { let _ = common::shared_path("x"); }
"#;
    let files = vec![
        (PathBuf::from("t/common/mod.rs"), common.to_string()),
        (PathBuf::from("t/a.rs"), tests.to_string()),
    ];
    let found: Vec<String> = skipping_tests(&files).into_iter().map(|(_, n)| n).collect();
    assert_eq!(found, ["uses_the_helper", "straight_to_shared"]);
    let doc = "### What skips without an optional tool\n\n| Without | These tests skip |\n|---|---|\n\
               | `python3` | `uses_the_helper` (`t/a.rs`), `python3` |\n\n### Next\n| x | `not_listed_here` |\n";
    assert_eq!(listed(doc), BTreeSet::from(["uses_the_helper".to_string()]));
}
