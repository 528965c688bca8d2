//! `jiangjun spsa` and the tuning build, through the binary. The normal
//! build has no search-parameter options, so against it the command must
//! refuse to start (and touch nothing); under `--features tune` the binary
//! is a tuning build and a tiny run goes end to end: two iterations of two
//! games at a node count, paused and resumed, written back into a copy of
//! the parameter table.

// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]

mod common;

#[cfg(feature = "tune")]
use jiangjun_engine::search_params::PARAMS;
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_jiangjun");
const TABLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/engine/src/search/params.rs");

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    common::scratch_dir(&format!("spsa-{name}"))
}

/// Run `jiangjun spsa` with `args`: (exit code, stdout, stderr).
fn spsa(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN)
        .arg("spsa")
        .args(args)
        .output()
        .expect("run jiangjun spsa");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn bad_arguments_are_refused_before_any_game() {
    let dir = scratch("args");
    let state = dir.join("run.state");
    let base = ["--engine-cmd", BIN, "--state", s(&state)];
    for extra in [
        &["--games-per-iteration", "3"][..],
        &["--iterations", "0"],
        &["--params", "razor_base,no_such_param"],
        &["--tc", "fast"],
        &["--option", "Hash"],
        &["--rate-scale", "0"],
        &["--rate-scale", "NaN"],
        &["--rate-scale", "-3"],
    ] {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        let (code, out, err) = spsa(&args);
        assert_eq!(code, 2, "{extra:?}: {err}");
        assert!(err.contains("error"), "{extra:?}: {err}");
        assert!(out.is_empty(), "{out}");
        assert!(!state.exists(), "{extra:?}");
    }
    let (code, _, err) = spsa(&["--engine-cmd", "/nonexistent/engine", "--state", s(&state)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("/nonexistent/engine"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The normal binary is not a tuning build: no run starts, no file is
/// written, and the error says how to build one.
#[cfg(not(feature = "tune"))]
#[test]
fn a_normal_build_is_refused() {
    let dir = scratch("normal");
    let state = dir.join("run.state");
    let table = dir.join("params.rs");
    std::fs::copy(TABLE, &table).unwrap();
    let (code, out, err) = spsa(&[
        "--engine-cmd",
        BIN,
        "--iterations",
        "2",
        "--tc",
        "nodes=2000",
        "--state",
        s(&state),
        "--write-back",
        s(&table),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--features tune"), "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(!state.exists() && !dir.join("run.log").exists());
    assert_eq!(
        std::fs::read_to_string(&table).unwrap(),
        std::fs::read_to_string(TABLE).unwrap()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Each entry line of a table source, as (name, default, the rest).
#[cfg(feature = "tune")]
fn entries(source: &str) -> Vec<(String, i32, String)> {
    source
        .lines()
        .filter_map(|l| {
            let (name, rest) = l.trim().split_once(':')?;
            let p = PARAMS.iter().find(|p| p.name == name)?;
            let (default, tail) = rest.trim().split_once(',')?;
            Some((p.name.to_string(), default.parse().ok()?, tail.to_string()))
        })
        .collect()
}

#[cfg(feature = "tune")]
#[test]
fn a_tiny_run_goes_end_to_end_and_resumes() {
    let dir = scratch("run");
    let state = dir.join("run.state");
    let log = dir.join("run.log");
    let table = dir.join("params.rs");
    let openings = dir.join("openings.epd");
    std::fs::copy(TABLE, &table).unwrap();
    std::fs::write(
        &openings,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n\
         r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 4 3\n",
    )
    .unwrap();
    let args = |extra: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = [
            "--engine-cmd",
            BIN,
            "--iterations",
            "2",
            "--games-per-iteration",
            "2",
            "--tc",
            "nodes=2000",
            "--openings",
            s(&openings),
            "--concurrency",
            "2",
            "--seed",
            "7",
            "--state",
            s(&state),
            "--write-back",
            s(&table),
        ]
        .iter()
        .map(|a| a.to_string())
        .collect();
        v.extend(extra.iter().map(|a| a.to_string()));
        v
    };
    let run = |extra: &[&str]| {
        let a = args(extra);
        spsa(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };

    // One iteration, then a pause: the state says so, nothing written back.
    let (code, out, err) = run(&["--pause-after", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.is_empty(), "{out}");
    let text = std::fs::read_to_string(&state).unwrap();
    assert!(text.contains("\nnext 1\n"), "{text}");
    assert_eq!(
        std::fs::read_to_string(&table).unwrap(),
        std::fs::read_to_string(TABLE).unwrap()
    );
    // Starting again over the state needs --resume.
    let (code, _, err) = run(&[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--resume"), "{err}");
    // A resumed run keeps its learning rates: another scale is refused.
    let (code, _, err) = run(&["--resume", "--rate-scale", "10"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("rate scale 1"), "{err}");
    assert!(
        std::fs::read_to_string(&state)
            .unwrap()
            .contains("\nnext 1\n")
    );

    // Resumed: the second iteration, then the write-back.
    let (code, out, err) = run(&["--resume"]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&state).unwrap();
    assert!(text.contains("\nnext 2\n"), "{text}");
    let wdl: Vec<u64> = text
        .lines()
        .find_map(|l| l.strip_prefix("wdl "))
        .unwrap()
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    assert_eq!(wdl.iter().sum::<u64>(), 4, "two iterations of two games");
    // Every game's ending is counted, and none is a fault at 2000 nodes.
    let endings: Vec<(u64, &str)> = text
        .lines()
        .filter_map(|l| l.strip_prefix("ending "))
        .map(|l| {
            let (n, kind) = l.split_once(' ').unwrap();
            (n.parse().unwrap(), kind)
        })
        .collect();
    assert_eq!(endings.iter().map(|e| e.0).sum::<u64>(), 4, "{text}");
    for (_, kind) in &endings {
        assert!(
            !["lost on time", "crashed", "hung", "illegal move"].contains(kind),
            "{text}"
        );
    }
    let log_text = std::fs::read_to_string(&log).unwrap();
    let iterations: Vec<&str> = log_text
        .lines()
        .filter(|l| l.starts_with("iteration "))
        .collect();
    assert_eq!(iterations.len(), 2, "{log_text}");
    assert!(iterations[0].starts_with("iteration 0 "));
    assert!(iterations[1].starts_with("iteration 1 "));
    assert!(
        iterations.iter().all(|l| l.contains(" | ends ")),
        "{log_text}"
    );
    assert_eq!(out.lines().count(), PARAMS.len(), "{out}");

    // The copy differs from the table in defaults only, each in its range,
    // and holds the values the run printed.
    let before = std::fs::read_to_string(TABLE).unwrap();
    let after = std::fs::read_to_string(&table).unwrap();
    assert_eq!(before.lines().count(), after.lines().count());
    for (b, a) in before.lines().zip(after.lines()) {
        if b != a {
            assert!(
                PARAMS.iter().any(|p| b.trim_start().starts_with(p.name)),
                "{a}"
            );
        }
    }
    let (old, new) = (entries(&before), entries(&after));
    assert_eq!(old.len(), PARAMS.len());
    assert_eq!(new.len(), PARAMS.len());
    for (p, ((name, _, tail), (name2, v, tail2))) in PARAMS.iter().zip(old.iter().zip(&new)) {
        assert_eq!((name, tail), (name2, tail2));
        assert!((p.min..=p.max).contains(v), "{name} {v}");
        assert!(
            out.contains(&format!("{name} {v} (default {})", p.default)),
            "{out}"
        );
    }

    // The same seed draws the same perturbation: a second run's first
    // iteration plays the same values.
    let state2 = dir.join("again.state");
    let mut again = args(&["--pause-after", "1"]);
    let at = again.iter().position(|a| a == s(&state)).unwrap();
    again[at] = s(&state2).to_string();
    let (code, _, err) = spsa(&again.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 0, "{err}");
    let sides = |line: &str| {
        line.split(" | theta")
            .next()
            .unwrap()
            .split_once(" | plus ")
            .unwrap()
            .1
            .to_string()
    };
    let log2 = std::fs::read_to_string(dir.join("again.log")).unwrap();
    let first2 = log2
        .lines()
        .find(|l| l.starts_with("iteration 0 "))
        .unwrap();
    assert_eq!(sides(first2), sides(iterations[0]));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A tuning build searches with the values set: a fixed-depth search takes
/// other nodes once a margin moves, and the same ones again at the default.
#[cfg(feature = "tune")]
#[test]
fn a_tuning_build_searches_with_the_values_set() {
    use common::EngineProcess;
    let nodes = |e: &mut EngineProcess| {
        e.send("ucinewgame");
        e.send("position startpos moves h2e2 h9g7");
        e.send("go depth 9");
        let lines = e.read_until(|l| l.starts_with("bestmove"));
        lines
            .iter()
            .rev()
            .find_map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                w.iter()
                    .position(|&x| x == "nodes")
                    .and_then(|i| w.get(i + 1)?.parse::<u64>().ok())
            })
            .expect("a nodes count")
    };
    let mut e = EngineProcess::start();
    e.send("uci");
    e.until_prefix("uciok");
    e.send("setoption name OwnBook value false");
    let default = nodes(&mut e);
    e.send("setoption name lmr_divisor value 120");
    e.send("setoption name fp_base value 0");
    let tuned = nodes(&mut e);
    assert_ne!(default, tuned);
    e.send("setoption name lmr_divisor value 220");
    e.send("setoption name fp_base value 110");
    assert_eq!(nodes(&mut e), default);
}
