//! The documentation holds together: every relative Markdown link in the
//! README, CONTRIBUTING.md, `docs/`, `notes/`, `archive/README.md` and
//! `engine/nets/README.md` points at a file that exists (and, for a link
//! into a Markdown file with `#anchor`, at one of its headings); the README
//! stays a short map; the ladder table's markers are where
//! `scripts/calibrate_levels.py` writes, with the ratings of this engine.
//!
//! The figures of the README and `docs/` are kept by linking to the notes
//! that measured them, so a broken link loses a figure's evidence: hence a
//! test rather than a one-off check.

use jiangjun_engine::play::ladder_ratings::CALIBRATION;
use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The Markdown files whose links are checked.
fn documents() -> Vec<PathBuf> {
    let root = Path::new(ROOT);
    let mut files = vec![
        root.join("README.md"),
        root.join("CONTRIBUTING.md"),
        root.join("archive/README.md"),
        root.join("engine/nets/README.md"),
    ];
    for dir in ["docs", "notes"] {
        let mut found: Vec<PathBuf> = fs::read_dir(root.join(dir))
            .unwrap_or_else(|e| panic!("{dir}/ is readable: {e}"))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "md"))
            .collect();
        found.sort();
        files.extend(found);
    }
    files
}

/// The text with inline code spans removed (a link's target is never inside
/// one; a code span may hold text that looks like a link).
fn without_code_spans(line: &str) -> String {
    let mut out = String::new();
    let mut in_code = false;
    for c in line.chars() {
        if c == '`' {
            in_code = !in_code;
        } else if !in_code {
            out.push(c);
        }
    }
    out
}

/// Every `[text](target)` link target outside fenced code blocks, with its
/// line number.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut fenced = false;
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let line = without_code_spans(line);
        let mut rest = line.as_str();
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let Some(end) = after.find(')') else { break };
            found.push((n + 1, after[..end].trim().to_string()));
            rest = &after[end..];
        }
    }
    found
}

/// GitHub's anchor for a heading: lower case, punctuation dropped (but
/// `-` and `_`), spaces to `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown file's headings (a repeated heading gets
/// `-1`, `-2`, ... as on GitHub).
fn anchors(text: &str) -> HashSet<String> {
    let mut seen = HashSet::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let base = slug(line.trim_start_matches('#'));
        let mut name = base.clone();
        let mut k = 0;
        while seen.contains(&name) {
            k += 1;
            name = format!("{base}-{k}");
        }
        seen.insert(name);
    }
    seen
}

/// What is wrong with one link of `doc`, if anything.
fn check(doc: &Path, target: &str) -> Option<String> {
    if target.is_empty() {
        return Some("an empty link".into());
    }
    if target.contains("://") || target.starts_with("mailto:") {
        return None;
    }
    let (path, anchor) = match target.split_once('#') {
        Some((p, a)) => (p, Some(a)),
        None => (target, None),
    };
    let file = if path.is_empty() {
        doc.to_path_buf()
    } else {
        doc.parent().expect("a document's folder").join(path)
    };
    if !file.exists() {
        return Some(format!("{target}: no such file"));
    }
    let anchor = anchor?;
    if file.extension().is_none_or(|x| x != "md") {
        return None;
    }
    let text = fs::read_to_string(&file).ok()?;
    (!anchors(&text).contains(anchor)).then(|| format!("{target}: no heading #{anchor}"))
}

#[test]
fn every_relative_link_in_the_documentation_resolves() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for doc in documents() {
        let text = fs::read_to_string(&doc).unwrap_or_else(|e| panic!("{doc:?}: {e}"));
        for (line, target) in links(&text) {
            checked += 1;
            if let Some(problem) = check(&doc, &target) {
                let name = doc.strip_prefix(ROOT).unwrap_or(&doc);
                broken.push(format!("{}:{line}: {problem}", name.display()));
            }
        }
    }
    assert!(
        checked > 100,
        "only {checked} links found: is the parser blind?"
    );
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_link_checker_sees_broken_links_and_anchors() {
    let doc = Path::new(ROOT).join("README.md");
    assert_eq!(check(&doc, "docs/levels.md"), None);
    assert_eq!(check(&doc, "docs/levels.md#the-ratings"), None);
    assert_eq!(check(&doc, "https://example.org/x"), None);
    assert!(check(&doc, "docs/no-such-page.md").is_some());
    assert!(check(&doc, "docs/levels.md#no-such-heading").is_some());
    assert!(check(&doc, "#no-such-heading").is_some());
    assert_eq!(
        links("a [`x`](y.md) and `[not](a link)`\n```\n[z](w)\n```\n[b](c#d)"),
        vec![(1, "y.md".to_string()), (5, "c#d".to_string())]
    );
    assert_eq!(
        slug(" The references of `verify`'s clock check"),
        "the-references-of-verifys-clock-check"
    );
}

/// The README is a newcomer's map; the detail lives in `docs/`.
#[test]
fn the_readme_stays_short() {
    let readme = fs::read_to_string(Path::new(ROOT).join("README.md")).expect("README.md");
    let lines = readme.lines().count();
    assert!(
        lines <= 250,
        "README.md has {lines} lines; move detail to docs/"
    );
}

/// `scripts/calibrate_levels.py` rewrites the ladder table between these
/// markers in `docs/levels.md`, and the table it wrote is of the engine
/// whose ratings `engine/src/play/ladder_ratings.rs` holds.
#[test]
fn the_ladder_table_is_in_docs_levels_and_of_this_calibration() {
    let text = fs::read_to_string(Path::new(ROOT).join("docs/levels.md")).expect("levels.md");
    let begin = "<!-- ladder-table:begin (written by scripts/calibrate_levels.py) -->";
    let end = "<!-- ladder-table:end -->";
    assert_eq!(text.matches(begin).count(), 1, "one begin marker");
    assert_eq!(text.matches(end).count(), 1, "one end marker");
    let (i, j) = (text.find(begin).unwrap_or(0), text.find(end).unwrap_or(0));
    assert!(i < j, "the begin marker comes first");
    let script = fs::read_to_string(Path::new(ROOT).join("scripts/calibrate_levels.py"))
        .expect("calibrate_levels.py");
    assert!(script.contains(begin) && script.contains(end));
    assert!(
        script.contains(r#""docs", "levels.md""#),
        "the script writes docs/levels.md"
    );
    if let Some(c) = CALIBRATION {
        let table = &text[i..j];
        let signed = format!("with the engine whose `bench` is {}", c.bench);
        assert!(table.contains(&signed), "the table should say {signed}");
        let top = c.rungs.last().expect("rungs");
        assert!(
            table.contains(&format!("| {} ± {} |", top.elo, top.err)),
            "full strength's rating {} ± {} in the table",
            top.elo,
            top.err
        );
    }
}

/// The README's example sessions show what the engine prints: every `info`
/// line of the example is a line of the real sessions, and every `info`
/// line of theirs is in the example (the book moves are fixed; the move
/// played is drawn at random, and is not checked).
#[test]
fn the_readme_sessions_are_what_the_engine_prints() {
    use std::io::Write;
    let readme = fs::read_to_string(Path::new(ROOT).join("README.md")).expect("README.md");
    let start = readme
        .find("```\nuci ")
        .expect("the README's example sessions");
    let block = &readme[start + 4..];
    let block = &block[..block.find("```").expect("the block's end")];
    let mut shown: Vec<&str> = block
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("info "))
        .collect();
    let mut printed = Vec::new();
    for (hello, go) in [
        ("uci", "go wtime 60000 btime 60000"),
        ("ucci", "go time 60000 opptime 60000"),
    ] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_jiangjun"))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("start the engine");
        let input = format!("{hello}\nposition startpos moves h2e2\n{go}\nquit\n");
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(input.as_bytes()).expect("write");
        drop(stdin);
        let out = child.wait_with_output().expect("the engine's output");
        let out = String::from_utf8(out.stdout).expect("UTF-8");
        assert!(out.contains("\nbestmove "), "{out}");
        printed.extend(
            out.lines()
                .filter(|l| l.starts_with("info "))
                .map(String::from),
        );
    }
    let mut printed: Vec<&str> = printed.iter().map(String::as_str).collect();
    shown.sort_unstable();
    printed.sort_unstable();
    assert_eq!(shown, printed, "README.md's example against the engine");
}
