//! The layers hold: the WebAssembly crate depends on the protocol crate and
//! nothing of the tools (no clap, rayon, trainer or match runner), and no
//! file of the protocol crate or of the engine's search imports from a
//! module above it (`scripts/import_arrows.py`). Both were true once by
//! hand and are cheap to lose, hence tests.

use std::path::Path;
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The crates `jiangjun-web` builds with (normal dependencies).
#[test]
fn the_web_crate_builds_without_the_tools() {
    let Ok(cargo) = std::env::var("CARGO") else {
        eprintln!("SKIPPED: not run by cargo (no CARGO in the environment)");
        return;
    };
    let out = Command::new(cargo)
        .args([
            "tree",
            "--offline",
            "-p",
            "jiangjun-web",
            "-e",
            "normal",
            "--prefix",
            "none",
        ])
        .current_dir(ROOT)
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tree = String::from_utf8_lossy(&out.stdout);
    let crates: Vec<&str> = tree
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(crates.contains(&"jiangjun-protocol"), "{tree}");
    for banned in [
        "jiangjun",
        "clap",
        "rayon",
        "jiangjun-trainer",
        "xiangqi-match",
        "env_logger",
    ] {
        assert!(
            !crates.contains(&banned),
            "jiangjun-web depends on {banned}:\n{tree}"
        );
    }
}

/// `scripts/import_arrows.py`'s count for a tree.
fn arrows(args: &[&str]) -> Option<String> {
    let out = Command::new("python3")
        .arg(Path::new(ROOT).join("scripts/import_arrows.py"))
        .args(args)
        .current_dir(ROOT)
        .output()
        .ok()?;
    assert!(out.status.success(), "import_arrows.py {args:?} failed");
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn no_import_runs_back_up_in_the_protocol_or_the_search() {
    for args in [&["protocol/src"][..], &["engine/src", "search"][..]] {
        let Some(report) = arrows(args) else {
            eprintln!("SKIPPED: python3 is needed for scripts/import_arrows.py");
            return;
        };
        assert!(
            report.trim_end().ends_with("0 arrow(s) back up (0 names)"),
            "imports running back up in {args:?}:\n{report}"
        );
    }
}

/// The script sees an arrow when there is one: a child importing its
/// parent's item, beside a sibling import and a parent's re-export, which
/// are not arrows.
#[test]
fn the_arrow_script_finds_a_child_importing_its_parent() {
    let dir = std::env::temp_dir().join(format!("jiangjun-arrows-{}", std::process::id()));
    let src = dir.join("src");
    std::fs::create_dir_all(src.join("a")).expect("temp dir");
    let files = [
        (
            "lib.rs",
            "mod a;\npub use a::b::Thing;\npub const TOP: u8 = 1;\n",
        ),
        ("a.rs", "mod b;\nmod c;\npub struct Parent;\n"),
        (
            "a/b.rs",
            "use super::Parent;\nuse super::c::Sibling;\nuse crate::TOP;\npub struct Thing;\n",
        ),
        ("a/c.rs", "use crate::Thing;\npub struct Sibling;\n"),
    ];
    for (name, text) in files {
        std::fs::write(src.join(name), text).expect("write");
    }
    let src_arg = src.to_string_lossy().into_owned();
    let Some(report) = arrows(&[&src_arg]) else {
        eprintln!("SKIPPED: python3 is needed for scripts/import_arrows.py");
        return;
    };
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        report.contains("b.rs -> a: Parent"),
        "child to parent not found:\n{report}"
    );
    assert!(
        report.contains("b.rs -> crate: TOP"),
        "child to crate root not found:\n{report}"
    );
    assert!(
        report.trim_end().ends_with("2 arrow(s) back up (2 names)"),
        "{report}"
    );
}

/// The engine's door stays narrow: `engine/src/lib.rs` makes public these
/// modules only (the tools' needs: `play`, `nnue`, `eval`, `tb`, `bench`),
/// beside the items it re-exports (`Engine`, `GoRequest`, `Reporter` ...).
/// Everything else is the crate's own; `unreachable_pub` keeps the items
/// of its private modules from claiming to be public.
#[test]
fn the_engine_has_a_narrow_door() {
    let lib = std::fs::read_to_string(Path::new(ROOT).join("engine/src/lib.rs"))
        .expect("engine/src/lib.rs is readable");
    let public: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod "))
        .map(|l| l.trim_end_matches(';'))
        .collect();
    assert_eq!(public, ["bench", "eval", "nnue", "play", "tb"], "{lib}");
    assert!(lib.contains("#![warn(unreachable_pub)]"), "{lib}");
}

// ---------------------------------------------------------------------------
// No circles among the modules of one directory: the NNUE's layers
// (`engine/src/nnue`: threats, features, quant, arch, network, grow, finny,
// stack, output, accumulator) and the trainer's modules (`trainer/src`).
// A circle there once joined eight files, and `import_arrows.py` sees only
// imports that run up to a parent, not round between siblings.

use std::collections::{BTreeMap, BTreeSet};

/// A module file's code without line comments and without its test
/// modules (cut at the first `#[cfg(test)]` that opens a module).
fn code_without_tests(text: &str) -> String {
    let code: String = text
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let mut cut = code.len();
    for (at, _) in code.match_indices("#[cfg(test)]") {
        let rest = code[at + "#[cfg(test)]".len()..].trim_start();
        let rest = rest.strip_prefix("pub(crate) ").unwrap_or(rest);
        if rest.starts_with("mod ") || rest.starts_with("#[path") {
            cut = at;
            break;
        }
    }
    code[..cut].to_string()
}

/// The names a path prefix such as `super::` leads to in `code`:
/// `super::a::X` gives `a`, `super::{a, b::Y}` gives `a` and `b`.
fn names_after(code: &str, prefix: &str) -> BTreeSet<String> {
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut names = BTreeSet::new();
    for (at, _) in code.match_indices(prefix) {
        // `self::super::` or `x_super::` is not the prefix.
        if code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let rest = &code[at + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let (mut depth, mut part) = (0, String::new());
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        names.insert(ident(&part));
                        part.clear();
                        continue;
                    }
                    _ => {}
                }
                part.push(c);
            }
            names.insert(ident(&part));
        } else {
            names.insert(ident(rest));
        }
    }
    names
}

/// For each module file directly in `dir` (not the parent's `mod.rs` or
/// `lib.rs`, not `tests.rs` or `x_tests.rs`), the sibling modules it names
/// through `prefixes` (`super::`, and `crate::PATH::` for the directory's
/// module path).
fn sibling_imports(dir: &Path, prefixes: &[&str]) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = BTreeMap::new();
    for entry in std::fs::read_dir(dir).expect("the directory is readable") {
        let path = entry.expect("a directory entry").path();
        let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        let is_module = path.extension().is_some_and(|e| e == "rs")
            && !["mod", "lib", "main", "tests"].contains(&stem)
            && !stem.ends_with("_tests");
        if is_module {
            let text = std::fs::read_to_string(&path).expect("a readable module file");
            files.insert(stem.to_string(), code_without_tests(&text));
        }
    }
    let modules: BTreeSet<String> = files.keys().cloned().collect();
    files
        .iter()
        .map(|(name, code)| {
            let named = prefixes
                .iter()
                .flat_map(|p| names_after(code, p))
                .filter(|n| modules.contains(n) && n != name)
                .collect();
            (name.clone(), named)
        })
        .collect()
}

/// The modules that reach themselves again through their imports.
fn modules_in_circles(graph: &BTreeMap<String, BTreeSet<String>>) -> BTreeSet<String> {
    let reaches = |from: &str, to: &str| {
        let (mut seen, mut todo) = (BTreeSet::new(), vec![from.to_string()]);
        while let Some(m) = todo.pop() {
            for next in graph.get(&m).into_iter().flatten() {
                if next == to {
                    return true;
                }
                if seen.insert(next.clone()) {
                    todo.push(next.clone());
                }
            }
        }
        false
    };
    graph.keys().filter(|m| reaches(m, m)).cloned().collect()
}

#[test]
fn no_circles_in_the_nnue_or_the_trainer() {
    for (dir, prefixes) in [
        ("engine/src/nnue", &["super::", "crate::nnue::"][..]),
        ("trainer/src", &["super::", "crate::"][..]),
    ] {
        let graph = sibling_imports(&Path::new(ROOT).join(dir), prefixes);
        assert!(graph.len() > 5, "{dir}: {graph:?}");
        let circles = modules_in_circles(&graph);
        assert!(
            circles.is_empty(),
            "{dir}: modules in import circles: {circles:?}\nimports: {graph:#?}"
        );
    }
}

/// The check finds a circle when there is one (`a` and `b` naming each
/// other), and not a one-way import or a test module's.
#[test]
fn the_circle_check_finds_a_circle() {
    let dir = std::env::temp_dir().join(format!("jiangjun-circles-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for (name, text) in [
        ("mod.rs", "mod a;\nmod b;\nmod c;\nmod d;\n"),
        ("a.rs", "use super::{b::B, c};\npub struct A;\n"),
        (
            "b.rs",
            "pub struct B;\nfn f() -> crate::m::a::A { todo!() }\n",
        ),
        ("c.rs", "use super::d::D; // super::a\n"),
        (
            "d.rs",
            "pub struct D;\n#[cfg(test)]\nmod tests {\n    use super::super::c;\n    use crate::m::c::C;\n}\n",
        ),
    ] {
        std::fs::write(dir.join(name), text).expect("write");
    }
    let graph = sibling_imports(&dir, &["super::", "crate::m::"]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(graph["a"], ["b", "c"].map(String::from).into());
    let circles = modules_in_circles(&graph);
    assert_eq!(circles, ["a", "b"].map(String::from).into(), "{graph:?}");
}

/// No import runs back up to `nnue/mod.rs` (or higher) from its layers.
#[test]
fn no_import_runs_back_up_in_the_nnue() {
    let Some(report) = arrows(&["engine/src", "nnue"]) else {
        eprintln!("SKIPPED: python3 is needed for scripts/import_arrows.py");
        return;
    };
    assert!(
        report.trim_end().ends_with("0 arrow(s) back up (0 names)"),
        "imports running back up in engine/src/nnue:\n{report}"
    );
}
