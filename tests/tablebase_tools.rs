//! Endgame tables in `jiangjun judge` and `jiangjun datagen`
//! (`--tablebase DIR`), through the real binary, with tables built by
//! `jiangjun tb gen` in a temporary directory.

// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]

mod common;

use common::run_jiangjun_code as jiangjun;
use jiangjun_trainer::data::{self, GameResult};
use std::path::{Path, PathBuf};

/// A fresh directory whose `tb` holds the tables of `materials` and those
/// their captures lead to (`built` of them in all).
fn tables(name: &str, materials: &[&str], built: usize) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jjtb-tools-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let tb = dir.join("tb");
    let mut args = vec!["tb", "gen", "--out", s(&tb)];
    args.extend(materials);
    let (code, out, err) = jiangjun(&args);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&format!("built {built} tables")), "{out}");
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn judge_rules_with_the_tables_when_given_them() {
    // KRvKA, KRvK, KAvK, KvK; KPvK; KRvKN, KNvK (a few seconds).
    let dir = tables("judge", &["KRvKA", "KPvK", "KRvKN"], 7);
    let tb = dir.join("tb");
    let judge = |fen: &str, moves: &[&str], with: bool| {
        let mut args = vec!["judge", "--fen", fen];
        if with {
            args.extend(["--tablebase", s(&tb)]);
        }
        if !moves.is_empty() {
            args.push("--moves");
            args.extend(moves);
        }
        let (code, out, err) = jiangjun(&args);
        assert_eq!(code, 0, "{fen}: {err}");
        out
    };
    // (position, moves, ruling without tables, ruling with them)
    let cases: &[(&str, &[&str], &str, &str)] = &[
        // A rook against a bare king wins (the tables: mate in 3 with Red
        // to move, in 4 with Black to move, as `tb probe` says).
        (
            "9/4k4/9/9/9/9/9/9/9/R2K5 w",
            &[],
            "ongoing",
            "red (tablebase win, mate in 3 plies)",
        ),
        (
            "9/4k4/9/9/9/9/9/9/9/R2K5 b",
            &[],
            "ongoing",
            "red (tablebase win, mate in 4 plies)",
        ),
        // The same with colours swapped: Black's rook wins.
        (
            "3k5/9/9/9/9/9/9/9/4K4/r8 b",
            &[],
            "ongoing",
            "black (tablebase win, mate in 3 plies)",
        ),
        // A rook against one advisor wins too (`KRvKA`).
        (
            "3a5/4k4/9/9/9/9/9/9/9/R2K5 w",
            &[],
            "ongoing",
            "red (tablebase win, mate in 7 plies)",
        ),
        // Only the final position counts: after a move the win is shorter.
        (
            "9/4k4/9/9/9/9/9/9/9/R2K5 w",
            &["a0a8"],
            "ongoing",
            "red (tablebase win, mate in 2 plies)",
        ),
        // A pawn on the last rank cannot win against a bare king (the rules
        // see a pawn and play on; the tables know it is drawn).
        (
            "P3k4/9/9/9/9/9/9/9/9/3K5 w",
            &[],
            "ongoing",
            "draw (tablebase draw)",
        ),
        // The king takes the undefended rook: drawn.
        (
            "4k4/4R4/9/9/9/9/9/9/9/3K5 b",
            &[],
            "ongoing",
            "draw (tablebase draw)",
        ),
        // The horse can only avoid mate by checking forever: lost by the
        // perpetual-check rule (`tb probe`: `wdl loss dtm 0` with a move).
        (
            "9/9/4k4/9/9/9/9/3n5/9/R2K5 b",
            &[],
            "ongoing",
            "red (tablebase win, perpetual check)",
        ),
        // A game the rules have ended keeps their ruling.
        (
            "4k4/5R3/9/9/9/9/9/9/9/3K5 b",
            &[],
            "red (stalemate)",
            "red (stalemate)",
        ),
        (
            "4k4/9/9/9/9/9/9/9/9/3K1A3 w",
            &[],
            "draw (insufficient material)",
            "draw (insufficient material)",
        ),
        // Outside the tables (no KRNvK table): the rules' ruling.
        ("4k4/9/9/9/9/9/9/9/9/3KNR3 w", &[], "ongoing", "ongoing"),
        (xiangqi::board::START_FEN, &[], "ongoing", "ongoing"),
        // A win the natural-move limit cuts short is no ruling: 118 plies
        // without a capture plus mate in 3 passes 120; 117 plus 3 does not.
        (
            "9/4k4/9/9/9/9/9/9/9/R2K5 w - - 118 80",
            &[],
            "ongoing",
            "ongoing",
        ),
        (
            "9/4k4/9/9/9/9/9/9/9/R2K5 w - - 117 80",
            &[],
            "ongoing",
            "red (tablebase win, mate in 3 plies)",
        ),
    ];
    for &(fen, moves, without, with) in cases {
        assert_eq!(judge(fen, moves, false), format!("{without}\n"), "{fen}");
        assert_eq!(judge(fen, moves, true), format!("{with}\n"), "{fen}");
    }
    // A bad directory is a usage error with a message, never a panic.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    for bad in ["/nonexistent/jjtb", s(&empty)] {
        let (code, out, err) = jiangjun(&["judge", "--tablebase", bad]);
        assert_eq!((code, out.as_str()), (2, ""), "{bad}");
        assert!(err.starts_with("error: ") && err.contains(bad), "{err}");
    }
    // A damaged table is refused, naming the file.
    let krk = tb.join("KRvK.jtb");
    let bytes = std::fs::read(&krk).unwrap();
    std::fs::write(&krk, &bytes[..bytes.len() / 2]).unwrap();
    let (code, _, err) = jiangjun(&["judge", "--tablebase", s(&tb)]);
    assert_eq!(code, 2);
    assert!(err.contains("KRvK.jtb"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn datagen_ends_games_that_enter_the_tables() {
    // KRvKA, KRvK, KAvK, KvK; KPvK: well under a second.
    let dir = tables("datagen", &["KRvKA", "KPvK"], 5);
    let tb = dir.join("tb");
    // Rook against two advisors: outside the tables (no KRvKAA table) and a
    // win for Red; a capture of an advisor enters `KRvKA`.
    let openings = dir.join("openings.epd");
    std::fs::write(
        &openings,
        "3aka3/9/9/9/9/9/9/9/9/R2K5 w\n\
         4k4/4a4/5a3/9/9/9/9/9/9/R2K5 w\n\
         3ak4/4a4/9/9/9/9/9/9/9/4K3R w\n",
    )
    .unwrap();
    let run = |name: &str, extra: &[&str]| {
        let out = dir.join(name);
        let mut args = vec![
            "datagen",
            "--out",
            s(&out),
            "--games",
            "6",
            "--threads",
            "1",
            "--seed",
            "3",
            "--openings",
            s(&openings),
            "--random-plies",
            "2",
            "--max-start-score",
            "100000",
            // No win adjudication on scores, and short games: without the
            // tables a game not mated within 8 plies is drawn at the cap.
            "--win-score",
            "30000",
            "--max-plies",
            "8",
        ];
        args.extend(extra);
        let (code, _, err) = jiangjun(&args);
        assert_eq!(code, 0, "{err}");
        (data::read_records(&out).unwrap(), err)
    };
    let (plain, plain_err) = run("plain", &[]);
    let (with, with_err) = run("with", &["--tablebase", s(&tb)]);
    assert!(!plain_err.contains("endgame tables"), "{plain_err}");
    let ended: u64 = with_err
        .lines()
        .find_map(|l| l.strip_suffix(" games ended by the endgame tables"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{with_err}"));
    assert!(ended >= 1, "{with_err}");
    // The same games up to the table position (same seeds, same searches),
    // so the same positions; games the cap drew without the tables are
    // Red's wins with them.
    assert_eq!(plain.len(), with.len());
    assert!(!with.is_empty());
    let wins = |r: &[data::Record]| r.iter().filter(|r| r.result == GameResult::RedWins).count();
    assert!(
        wins(&with) > wins(&plain),
        "{} {}",
        wins(&with),
        wins(&plain)
    );
    assert!(with.iter().all(|r| r.result != GameResult::BlackWins));
    // A bad directory is a usage error before any game.
    let bad = dir.join("bad");
    let (code, _, err) = jiangjun(&[
        "datagen",
        "--out",
        s(&bad),
        "--games",
        "1",
        "--tablebase",
        "/nonexistent/jjtb",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("/nonexistent/jjtb"), "{err}");
    assert!(!bad.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
