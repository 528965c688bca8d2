//! An engine ended by a signal from outside (a cluster requeueing the job,
//! a user's Ctrl-C) is not an engine that lost: the game it was in is not
//! written or counted, the match stops with an error, and `--resume` plays
//! it again, so that the match comes out as if nothing had happened. A
//! crash (SIGSEGV) is still a loss. Against the real binary behind
//! tests/clients/proxy_engine.py, at fixed nodes (deterministic games).

// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_jiangjun");

/// One game of a PGN: its tags of interest and its moves (no comments).
#[derive(Debug, PartialEq)]
struct Game {
    round: String,
    result: String,
    termination: String,
    moves: Vec<String>,
}

fn games(pgn: &Path) -> Vec<Game> {
    let mut out: Vec<Game> = common::pgn::read_pgn(pgn)
        .into_iter()
        .map(|g| Game {
            round: g.tag("Round").to_string(),
            result: g.tag("Result").to_string(),
            termination: g.tag("Termination").to_string(),
            moves: g.moves,
        })
        .collect();
    out.sort_by_key(|g| g.round.parse::<usize>().unwrap_or(0));
    out
}

/// The match: A (behind the proxy when `proxy` names its options) against
/// B, 4 games at fixed nodes, one thread each, no book.
fn run(pgn: &Path, proxy: Option<&[&str]>, resume: bool) -> (Option<i32>, String, String) {
    let tail = "proto=uci,option.OwnBook=false,option.Threads=1";
    let a = match proxy {
        Some(args) => {
            let mut spec = format!(
                "name=A,cmd=python3,arg={}/tests/clients/proxy_engine.py",
                env!("CARGO_MANIFEST_DIR")
            );
            for x in args {
                spec.push_str(&format!(",arg={x}"));
            }
            format!("{spec},arg=--,arg={BIN},{tail},tc=nodes=1500")
        }
        None => format!("name=A,cmd={BIN},{tail},tc=nodes=1500"),
    };
    let b = format!("name=B,cmd={BIN},{tail},tc=nodes=1000");
    let mut cmd = Command::new(BIN);
    cmd.args(["match", "--engine", &a, "--engine", &b, "--games", "4"])
        .args(["--hang-timeout", "5", "--quiet", "--pgn"])
        .arg(pgn);
    if resume {
        cmd.arg("--resume");
    }
    let out = cmd.output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn an_engine_stopped_from_outside_cuts_the_match_and_resume_replays_its_game() {
    if !common::python3_available() {
        return common::skip("python3 is needed for the proxy");
    }
    let dir = common::scratch_dir("match-signals-stopped");
    let whole = dir.join("whole.pgn");
    let (code, summary, err) = run(&whole, None, false);
    assert_eq!(code, Some(0), "{summary}{err}");
    let reference = games(&whole);
    assert_eq!(reference.len(), 4, "{summary}");

    // A's third search in game 2 (A has Red in game 1, from the start).
    let at = reference[0].moves.len().div_ceil(2) + 3;
    assert!(reference[1].moves.len() / 2 > 3, "{:?}", reference[1]);
    let at = at.to_string();
    for sig in ["SIGTERM", "SIGINT", "SIGHUP", "SIGKILL"] {
        let pgn = dir.join(format!("{sig}.pgn"));
        let counter = dir.join(format!("{sig}.count"));
        let counter = counter.to_string_lossy();
        let proxy = ["--counter", &counter, "--signal-at", &at, "--signal", sig];
        let (code, out, err) = run(&pgn, Some(&proxy), false);
        assert_eq!(code, Some(1), "{sig}: {out}{err}");
        assert!(
            err.contains("was cut off (A was stopped from outside (")
                && err.contains(&format!("({sig}) while "))
                && err.contains("--resume plays the rest"),
            "{sig}: {err}"
        );
        assert!(out.is_empty(), "{sig}: no summary for a cut match: {out}");
        // Only the games played out are written: the cut one is not.
        assert_eq!(games(&pgn), reference[..1], "{sig}");
        let (code, out, err) = run(&pgn, Some(&proxy), true);
        assert_eq!(code, Some(0), "{sig}: {out}{err}");
        assert!(
            out.contains("(1 of them from the PGN resumed)"),
            "{sig}: {out}"
        );
        assert_eq!(games(&pgn), reference, "{sig}: the match as if never cut");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_that_crashes_by_a_signal_still_loses() {
    if !common::python3_available() {
        return common::skip("python3 is needed for the proxy");
    }
    let dir = common::scratch_dir("match-signals-crash");
    let pgn = dir.join("games.pgn");
    let counter = dir.join("count");
    let counter = counter.to_string_lossy();
    let proxy = [
        "--counter",
        &counter,
        "--signal-at",
        "12",
        "--signal",
        "SIGSEGV",
    ];
    let (code, out, err) = run(&pgn, Some(&proxy), false);
    assert_eq!(code, Some(0), "{out}{err}");
    let all = games(&pgn);
    assert_eq!(all.len(), 4, "{out}");
    let lost: Vec<&Game> = all
        .iter()
        .filter(|g| g.termination == "abandoned")
        .collect();
    assert_eq!(lost.len(), 1, "{all:?}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(
        text.contains("A crashed while thinking: exited (signal: 11 (SIGSEGV)"),
        "{text}"
    );
    assert!(out.contains("crashed: 1"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
