//! Front-end faults a new user hit (through XBoard with uci2wb, the PyPI
//! `cchess` clients and piped scripts). Sessions against the real binary;
//! each test failed before its fix.

mod common;

use common::{EngineProcess, assert_legal_bestmove, board_after};
use std::time::{Duration, Instant};

fn engine(dialect: &str) -> EngineProcess {
    let mut e = EngineProcess::start();
    e.send(dialect);
    e.until_prefix(if dialect == "ucci" { "ucciok" } else { "uciok" });
    e
}

/// The book off, so that a `go` searches.
fn engine_without_book(dialect: &str) -> EngineProcess {
    let mut e = engine(dialect);
    e.send(if dialect == "ucci" {
        "setoption usebook false"
    } else {
        "setoption name OwnBook value false"
    });
    e
}

fn is_answer(l: &str) -> bool {
    l.starts_with("bestmove") || l == "nobestmove"
}

/// A clock beyond the largest one is dropped with an error, like any bad
/// value of a `go`: no search starts that could never end, the `go` is
/// answered, and `stop`, `quit` and the end of input are answered at once.
/// Before the fix, the search ran "forever", `position` waited for it,
/// `stop` waited behind `position`, and the process never exited.
#[test]
fn an_absurd_clock_is_dropped_and_never_hangs_the_engine() {
    for (dialect, go) in [
        ("uci", "go wtime 99999999999999999999 btime 1000"),
        ("ucci", "go time 1e300"),
        ("uci", "go movetime 1e12"),
    ] {
        let mut e = engine_without_book(dialect);
        e.send(go);
        let lines = e.read_until(is_answer);
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string error: go: ")
                    && l.contains("beyond the largest clock")),
            "{dialect} {go}: {lines:#?}"
        );
        assert!(!e.sync().iter().any(|l| is_answer(l)), "{lines:#?}");
        e.send("position startpos moves h2e2");
        e.send("stop");
        e.send("quit");
        let start = Instant::now();
        assert!(e.wait_exit(), "{dialect}: exit status");
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{dialect} {go}: quit took {:?}",
            start.elapsed()
        );
    }
    // The end of input alone ends the session too.
    let mut e = engine_without_book("uci");
    e.send("go wtime 99999999999999999999 btime 1000");
    e.close_stdin();
    assert!(e.wait_exit());
}

/// A clock at the largest value still plays: the limit is a stated
/// maximum, not a refusal of long games.
#[test]
fn the_largest_clock_is_accepted() {
    let mut e = engine_without_book("uci");
    e.send("go wtime 2147483647 btime 2147483647");
    let early = e.drain(Duration::from_millis(300));
    assert!(
        !early.iter().any(|l| l.contains("error")),
        "the largest clock is refused: {early:#?}"
    );
    e.send("stop");
    let lines = e.read_until(is_answer);
    assert_legal_bestmove(lines.last().unwrap(), &board_after(None, &[]));
}

/// `stop`, `isready` and `quit` are not held back by a command that waits
/// for the search (`position` does, as in Stockfish): `stop` ends the
/// search at once, then `position` takes effect. Before the fix, `stop`
/// waited until the search ended by itself (7.6 s with a 10-minute clock).
#[test]
fn controls_are_not_held_back_behind_a_waiting_command() {
    for dialect in ["uci", "ucci"] {
        let mut e = engine_without_book(dialect);
        e.send("position startpos");
        // A clock of 100 minutes each: this move would take minutes.
        e.send(if dialect == "uci" {
            "go wtime 6000000 btime 6000000"
        } else {
            "go time 6000000 opptime 6000000"
        });
        e.drain(Duration::from_millis(300));
        e.send("position startpos moves h2e2");
        e.send("isready");
        let start = Instant::now();
        let lines = e.until_prefix("readyok");
        assert!(
            start.elapsed() < Duration::from_secs(3),
            "{dialect}: readyok behind a waiting position took {:?}",
            start.elapsed()
        );
        assert!(!lines.iter().any(|l| is_answer(l)), "{lines:#?}");
        e.send("stop");
        let start = Instant::now();
        let lines = e.read_until(is_answer);
        assert!(
            start.elapsed() < Duration::from_secs(3),
            "{dialect}: stop behind a waiting position took {:?}",
            start.elapsed()
        );
        // The answer is for the position searched, the start position.
        assert_legal_bestmove(lines.last().unwrap(), &board_after(None, &[]));
        // Then the waiting `position` was applied.
        e.send("d");
        let lines = e.until_prefix("Checkers");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("Fen: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/")),
            "{dialect}: {lines:#?}"
        );
        // Exactly one answer for the one `go`.
        let after = e.sync();
        assert!(!after.iter().any(|l| is_answer(l)), "{after:#?}");
    }
}

/// A `stop` queued behind a later `go` belongs to that search, not to the
/// running one: the running search is not cut short by it.
#[test]
fn a_stop_after_a_later_go_waits_for_that_go() {
    let mut e = engine_without_book("uci");
    e.send("go depth 3");
    e.send("position startpos moves h2e2");
    e.send("go infinite");
    e.send("stop");
    let first = e.read_until(is_answer);
    assert!(
        first.iter().any(|l| l.starts_with("info depth 3 ")),
        "the first search was stopped before depth 3: {first:#?}"
    );
    let second = e.read_until(is_answer);
    assert_legal_bestmove(second.last().unwrap(), &board_after(None, &["h2e2"]));
}

/// The options' announced lines, as (name, type, default, first var).
fn combos(dialect: &str) -> Vec<(String, String, String)> {
    let mut e = EngineProcess::start();
    e.send(dialect);
    let lines = e.until_prefix(if dialect == "ucci" { "ucciok" } else { "uciok" });
    lines
        .iter()
        .filter(|l| l.contains(" type combo "))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let after = |key: &str| {
                words
                    .iter()
                    .position(|w| *w == key)
                    .and_then(|i| words.get(i + 1))
                    .map_or(String::new(), |w| w.to_string())
            };
            (l.clone(), after("default"), after("var"))
        })
        .collect()
}

/// XBoard (through uci2wb) takes a combo's first entry as its value, so
/// the first entry is the default: the engine a GUI starts plays at full
/// strength. Before the fix, UCCI's `pruning` and `knowledge` listed
/// `none` first and XBoard set both to `none`.
#[test]
fn every_combo_lists_its_default_first() {
    for dialect in ["uci", "ucci"] {
        let found = combos(dialect);
        assert!(!found.is_empty(), "{dialect}: no combo announced");
        for (line, default, first) in found {
            assert_eq!(first, default, "{dialect}: {line}");
        }
    }
}

fn final_evaluation(lines: &[String]) -> i32 {
    let l = lines
        .iter()
        .find(|l| l.starts_with("final evaluation "))
        .unwrap_or_else(|| panic!("no final evaluation: {lines:#?}"));
    l.split_whitespace()
        .nth(2)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("{l}"))
}

/// `eval` prints what the search evaluates with: below `knowledge large`
/// that is the hand-made evaluation with fewer terms, network or not.
/// Before the fix, `eval` ignored `knowledge` and printed the network's
/// score.
#[test]
fn eval_follows_knowledge() {
    let mut e = engine("ucci");
    e.send("position startpos moves h2e2 h9g7 h0g2");
    let mut finals = Vec::new();
    for grade in ["large", "medium", "small", "none"] {
        e.send(&format!("setoption knowledge {grade}"));
        e.send("eval");
        let lines = e.sync();
        let network_line = lines.iter().any(|l| l.starts_with("network evaluation"));
        if grade == "large" {
            let built_in = jiangjun_engine::nnue::EMBEDDED_NETWORK.is_some();
            assert_eq!(network_line, built_in, "{lines:#?}");
        } else {
            assert!(!network_line, "knowledge {grade}: {lines:#?}");
            assert!(
                lines
                    .iter()
                    .any(|l| l.starts_with(&format!("knowledge {grade}: "))),
                "{lines:#?}"
            );
        }
        finals.push(final_evaluation(&lines));
    }
    // `none` keeps only material and piece-square values: it must differ
    // from the full evaluation in this developed position.
    assert_ne!(finals[0], finals[3], "{finals:?}");
}

/// Unknown UCCI options are still no error (the spec says so), but the GUI
/// is told; `threads 0` means one thread per core, and says so.
#[test]
fn ucci_reports_unknown_options_and_threads_zero() {
    let mut e = engine("ucci");
    e.send("setoption frobnicate 1");
    let lines = e.sync();
    assert_eq!(
        lines,
        vec!["info string unknown option 'frobnicate' ignored".to_string()]
    );
    e.send("setoption threads 0");
    let lines = e.sync();
    let cores = std::thread::available_parallelism().map_or(1, |p| p.get());
    assert_eq!(
        lines,
        vec![format!(
            "info string threads 0: {cores} search threads, one per core"
        )]
    );
    e.send("go depth 3");
    let lines = e.read_until(is_answer);
    assert_legal_bestmove(lines.last().unwrap(), &board_after(None, &[]));
}

/// A file of another kind given as a network is named for what it is, not
/// shown as a byte array.
#[test]
fn a_file_of_another_kind_is_named_not_dumped() {
    let dir = std::env::temp_dir().join(format!("jj-front-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        (
            "ckpt.bin",
            &b"JJCKPT\0\0 a checkpoint's weights follow......................................"[..],
            "trainer checkpoint",
        ),
        (
            "data.jjdata",
            &b"JJDATA\x01\0 records follow ..............................................."[..],
            "training data",
        ),
        (
            "a.book",
            &b"JJBOOK1\0 entries follow ..............................................."[..],
            "opening book",
        ),
    ];
    let mut e = engine("uci");
    for (name, bytes, want) in cases {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        e.send(&format!("setoption name EvalFile value {}", path.display()));
        let lines = e.sync();
        assert!(
            lines.len() == 1 && lines[0].contains(want) && !lines[0].contains('['),
            "{name}: {lines:#?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Driven by the option table through the binary: every option each
/// dialect announces takes its own announced default (buttons are pressed)
/// without an error, and the engine still plays.
#[test]
fn every_announced_option_takes_its_default() {
    for dialect in ["uci", "ucci"] {
        let mut e = EngineProcess::start();
        e.send(dialect);
        let lines = e.until_prefix(if dialect == "ucci" { "ucciok" } else { "uciok" });
        let mut set = 0;
        for l in lines.iter().filter(|l| l.starts_with("option ")) {
            let words: Vec<&str> = l.split_whitespace().collect();
            let type_at = words.iter().position(|w| *w == "type").unwrap();
            let name = if dialect == "uci" {
                words[2..type_at].join(" ")
            } else {
                words[1..type_at].join(" ")
            };
            let default = words
                .iter()
                .position(|w| *w == "default")
                .and_then(|i| words.get(i + 1))
                .copied();
            let line = match (dialect, default) {
                ("uci", Some(v)) => format!("setoption name {name} value {v}"),
                ("uci", None) => format!("setoption name {name}"),
                (_, Some(v)) => format!("setoption {name} {v}"),
                (_, None) => format!("setoption {name}"),
            };
            e.send(&line);
            let out = e.sync();
            assert!(
                !out.iter()
                    .any(|o| o.contains("error") || o.contains("unknown")),
                "{dialect}: {line}: {out:#?}"
            );
            set += 1;
        }
        assert!(set >= 15, "{dialect}: only {set} options announced");
        e.send("go depth 3");
        let lines = e.read_until(is_answer);
        assert_legal_bestmove(lines.last().unwrap(), &board_after(None, &[]));
    }
}
