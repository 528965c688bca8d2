//! The real binary on a short clock: self-play through `jiangjun match` at
//! 0.3 s + 3 ms (the clock of the hundred-times-the-time match against
//! Fairy-Stockfish) and at 50 ms + 3 ms (where half the clock is the whole
//! reserve), one game at a time, with no crash, no hang and no game lost
//! on time.
//!
//! The bound is a second past the clock, not the runner's default 100 ms:
//! run at normal priority while other jobs ran at `nice -n -10` (load 10
//! on two cores), games of this test went 331 ms past the clock and ended
//! normally only by the runner's grace; with two games at a time there,
//! the old 100 ms reserve lost games on time as the new one did (see
//! notes/2026-12-01-short-clock.md). The stall is the machine's, which no
//! reserve on a 50 ms clock can hold. So
//! this catches what a loaded machine cannot excuse: a search that does
//! not stop near its deadline at a tiny clock. Whether the clock itself is
//! kept (the 100 ms rule) is for the real matches, on quiet cores.

// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]

mod common;

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_jiangjun");

/// Plays `games` self-play games at `tc` (`BASE+INC` in seconds);
/// returns each game's (Termination tag, plies).
fn self_play(tc: &str, games: u32) -> Vec<(String, u32)> {
    let dir = std::env::temp_dir().join(format!("jj-short-clock-{}-{tc}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("games.pgn");
    let engine = format!("cmd={BIN},proto=uci,option.OwnBook=false");
    let mut args = vec![
        "match".to_string(),
        "--engine".into(),
        format!("name=A,{engine}"),
        "--engine".into(),
        format!("name=B,{engine}"),
        "--games".into(),
        games.to_string(),
        "--tc".into(),
        tc.into(),
        "--tolerance-ms".into(),
        "1000".into(),
        "--pgn".into(),
        pgn.to_string_lossy().to_string(),
        "--quiet".into(),
    ];
    let openings = common::shared_dir().join("data/openings/openings.epd");
    if openings.exists() {
        args.push("--openings".into());
        args.push(openings.to_string_lossy().to_string());
    }
    let out = Command::new(BIN).args(&args).output().unwrap();
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    let tag = |block: &str, name: &str| {
        let start = format!("[{name} \"");
        block
            .lines()
            .find_map(|l| l.strip_prefix(start.as_str()))
            .map(|v| v.trim_end_matches("\"]").to_string())
    };
    text.split("[Event ")
        .filter(|b| !b.trim().is_empty())
        .map(|b| {
            (
                tag(b, "Termination").unwrap(),
                tag(b, "PlyCount").unwrap().parse().unwrap(),
            )
        })
        .collect()
}

fn no_game_lost_on_time(tc: &str) {
    let games = self_play(tc, 4);
    assert_eq!(games.len(), 4, "{games:?}");
    for (termination, _) in &games {
        assert_eq!(termination, "normal", "{tc}: {games:?}");
    }
    // The clocks ran down: the games went on for many moves each (a
    // game's first 40 plies at 3 ms a move would not touch the reserve).
    let plies: u32 = games.iter().map(|g| g.1).sum();
    assert!(plies >= 4 * 40, "{tc}: {games:?}");
}

/// One test, so that the two matches do not run at once (two games at a
/// time on a loaded machine are what made the stalls above).
#[test]
fn no_game_is_lost_on_time_at_short_clocks() {
    no_game_lost_on_time("0.3+0.003");
    no_game_lost_on_time("0.05+0.003");
}
