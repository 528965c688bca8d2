//! The two scripts the short-clock notes measure with: `scripts/pgn_time_use.py`
//! reads a match PGN's clocks as the runner keeps them (checked against figures
//! worked out by hand for a small PGN), and `scripts/go_latency.py` times real
//! `go` commands of this build (every figure it reports is present and
//! consistent with the others). And `scripts/calibrate_levels.py`, as far as
//! it decides what a run needs before any game.

// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]

mod common;

use std::process::Output;

/// Runs `python3 scripts/NAME ARGS` and asserts that it succeeded, or
/// gives None without python3.
fn script(name: &str, args: &[&str]) -> Option<Output> {
    let out = common::python_script(name, args)?;
    assert!(out.status.success(), "{out:?}");
    Some(out)
}

/// Two games in the runner's format. Game 1 (1 s + 0.1 s, White to move):
/// A spends 0.2 s at depth 5 and 0.4 s at depth 6, B 0.3 s at depth 7. Game 2
/// (Black to move first, so its first comment is B's; lost on time): B 0.5 s
/// at depth 9, A 0.1 s at depth 4, B 0.7 s at depth 3.
const PGN: &str = r#"[Event "jiangjun match"]
[Round "1"]
[White "A"]
[Black "B"]
[Result "1-0"]
[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"]
[TimeControl "1+0.1"]
[Termination "normal"]

1. h2e2 {+0.10/5 0.200s} h9g7 {-0.20/7 0.300s} 2. h0g2
{+0.30/6 0.400s} {A wins by checkmate} 1-0

[Event "jiangjun match"]
[Round "2"]
[White "A"]
[Black "B"]
[Result "1-0"]
[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1"]
[TimeControl "1+0.1"]
[Termination "time forfeit"]

1... h9g7 {+0.50/9 0.500s} 2. h2e2 {-0.10/4 0.100s} b9c7 {+0.20/3 0.700s}
{B loses on time} 1-0
"#;

/// Every figure of the summary, as worked out by hand from [`PGN`]:
/// A's clock 1.0 → 0.8 → 0.9 → 0.5 → 0.6 in game 1 (end 60 %), 1.0 → 0.9 →
/// 1.0 in game 2 (end 100 %); B's 1.0 → 0.7 → 0.8 (80 %) and 1.0 → 0.5 →
/// 0.6 → -0.1 → 0.0 (0 %), so B's lowest clock is -100 ms. Times: A 0.7 s
/// in 3 moves, B 1.5 s in 3.
#[test]
fn pgn_time_use_replays_the_clocks_as_the_runner_keeps_them() {
    let dir = common::scratch_dir("pgn-time-use");
    let pgn = dir.join("two.pgn");
    std::fs::write(&pgn, PGN).unwrap();
    let Some(out) = script("pgn_time_use.py", &[pgn.to_str().unwrap()]) else {
        return;
    };
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            "A: 3 moves, 233.33 ms a move (longest 400 ms), median depth 5 (mean 5.00), \
             clock left at the end 80 % of the base (median), lowest clock after a move 500 ms",
            "B: 3 moves, 500.00 ms a move (longest 700 ms), median depth 7 (mean 6.33), \
             clock left at the end 40 % of the base (median), lowest clock after a move -100 ms",
            "time ratio A/B: 0.47",
            "games not ended normally: 1 [('2', 'time forfeit', '1-0')]",
        ],
        "{text}"
    );

    // `--moves 1`: the time and depth figures count each engine's first move
    // of a game only (A: 0.2 s and 0.1 s; B: 0.3 s and 0.5 s); the clocks
    // still run over the whole game.
    let Some(out) = script("pgn_time_use.py", &["--moves", "1", pgn.to_str().unwrap()]) else {
        return;
    };
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with(
            "A: 2 moves, 150.00 ms a move (longest 200 ms), median depth 4.5 (mean 4.50), \
             clock left at the end 80 % of the base (median), lowest clock after a move 500 ms\n\
             B: 2 moves, 400.00 ms a move (longest 500 ms), median depth 8 (mean 8.00), \
             clock left at the end 40 % of the base (median), lowest clock after a move -100 ms\n\
             time ratio A/B: 0.38\n"
        ),
        "{text}"
    );

    // A file that is not there is named in one line, not a traceback.
    let missing = dir.join("missing.pgn");
    let out = common::python_script("pgn_time_use.py", &[missing.to_str().unwrap()]).unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.starts_with("pgn_time_use: ") && err.contains("missing.pgn"),
        "{err}"
    );
    assert!(!err.contains("Traceback"), "{err}");
}

/// One row of `go_latency.py --raw`: info1, best, max, over, nodes, depth.
fn raw_row(line: &str) -> [f64; 6] {
    let cols: Vec<f64> = line
        .split('\t')
        .skip(3)
        .map(|c| c.parse().unwrap())
        .collect();
    cols.try_into()
        .unwrap_or_else(|c| panic!("six figures: {c:?} in {line}"))
}

/// Three `go` commands of this build at 200 ms + 3 ms: each has its first
/// `info depth 1` before its `bestmove`, a deadline read from the engine's
/// own log, the overshoot as their difference, and the nodes and depth its
/// search reported; the summary line counts the three.
#[test]
fn go_latency_times_real_searches_and_reports_what_they_bought() {
    let dir = common::scratch_dir("go-latency");
    let raw = dir.join("raw.tsv");
    let engine = env!("CARGO_BIN_EXE_jiangjun");
    let Some(out) = script(
        "go_latency.py",
        &[
            "--engine",
            engine,
            "--clock",
            "200",
            "--gap",
            "0",
            "--moves",
            "3",
            "--raw",
            raw.to_str().unwrap(),
        ],
    ) else {
        return;
    };
    let text = String::from_utf8(out.stdout).unwrap();
    let summary: Vec<&str> = text.lines().nth(1).unwrap().split('\t').collect();
    assert_eq!(summary[1..4], ["200+3", "0", "3"], "{text}");
    let rows: Vec<[f64; 6]> = std::fs::read_to_string(&raw)
        .unwrap()
        .lines()
        .map(raw_row)
        .collect();
    assert_eq!(rows.len(), 3, "{rows:?}");
    for [info1, best, max, over, nodes, depth] in rows {
        assert!(info1 > 0.0 && info1 <= best, "{info1} {best}");
        // The deadline of a 200 ms clock with a 3 ms increment: above zero,
        // below the clock.
        assert!(max > 0.0 && max < 200.0, "{max}");
        assert!((over - (best - max)).abs() < 0.02, "{over} {best} {max}");
        assert!(nodes >= 1.0 && depth >= 1.0, "{nodes} {depth}");
    }
}

/// The level script wants Fairy-Stockfish only when the run plays the
/// anchor: with none installed, a run of the anchor's match stops before any
/// game and says what to install, and a run of a match between two rungs
/// (`--tiny`: 4 games at 2,000 nodes) plays it all the same.
#[test]
fn the_level_script_needs_the_anchor_only_for_the_anchor_s_match() {
    let dir = common::scratch_dir("levels-anchor");
    let out = dir.join("calib");
    let engine = env!("CARGO_BIN_EXE_jiangjun");
    let missing = dir.join("no-fairy-stockfish");
    let run = |only: &str| {
        common::python_script(
            "calibrate_levels.py",
            &[
                "calibrate",
                "--jj",
                engine,
                "--fsf",
                missing.to_str().unwrap(),
                "--only",
                only,
                "--tiny",
                "--out",
                out.to_str().unwrap(),
            ],
        )
    };
    let Some(anchor) = run("rung14-vs-anchor") else {
        return;
    };
    let err = String::from_utf8_lossy(&anchor.stderr);
    assert!(!anchor.status.success(), "{anchor:?}");
    assert!(err.contains("no Fairy-Stockfish at"), "{err}");
    assert!(!out.join("rung14-vs-anchor.pgn").exists());
    let rungs = run("rung0-vs-rung1").unwrap();
    let summary = std::fs::read_to_string(out.join("rung0-vs-rung1.txt"))
        .unwrap_or_else(|e| panic!("{e}: {rungs:?}"));
    assert!(
        summary.starts_with("Results of Rung0 vs Rung1"),
        "{summary}"
    );
    assert!(summary.contains("4 games"), "{summary}");
}
