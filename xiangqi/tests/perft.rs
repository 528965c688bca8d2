//! Perft against published counts and counts from real game positions.

// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]

mod common;

use xiangqi::board::{Board, START_FEN};
use xiangqi::perft::{divide, perft};

/// Node counts above this are left to the ignored test (they take seconds each).
const QUICK_LIMIT: u64 = 20_000_000;

fn check_rows(rows: &[(String, u32, u64)], limit: u64) -> usize {
    let mut checked = 0;
    for (fen, depth, nodes) in rows {
        if *nodes > limit {
            continue;
        }
        let mut b = Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let got = perft(&mut b, *depth);
        assert_eq!(got, *nodes, "perft({depth}) of {fen}");
        checked += 1;
    }
    checked
}

fn published() -> Option<Vec<(String, u32, u64)>> {
    let text = common::shared_file("data/perft/published_perft.tsv")?;
    Some(
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                (
                    f[1].to_string(),
                    f[2].parse().unwrap(),
                    f[3].parse().unwrap(),
                )
            })
            .collect(),
    )
}

fn game_positions() -> Option<Vec<(String, u32, u64)>> {
    let text = common::shared_file("data/perft/game_positions_perft.tsv")?;
    Some(
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                (
                    f[0].to_string(),
                    f[1].parse().unwrap(),
                    f[2].parse().unwrap(),
                )
            })
            .collect(),
    )
}

#[test]
fn start_position_depth_1_to_5() {
    let mut b = Board::from_fen(START_FEN).unwrap();
    let expected = [44u64, 1_920, 79_666, 3_290_240, 133_312_995];
    for (d, n) in expected.iter().enumerate() {
        assert_eq!(perft(&mut b, d as u32 + 1), *n, "depth {}", d + 1);
    }
    assert_eq!(
        b.to_fen(),
        START_FEN,
        "perft must leave the board as it found it"
    );
}

#[test]
#[ignore = "depth 6 takes about a minute; run with --ignored"]
fn start_position_depth_6() {
    let mut b = Board::from_fen(START_FEN).unwrap();
    assert_eq!(perft(&mut b, 6), 5_392_831_844);
}

#[test]
fn published_table_quick_rows() {
    let Some(rows) = published() else { return };
    let n = check_rows(&rows, QUICK_LIMIT);
    assert!(n >= 50, "only {n} rows checked");
}

#[test]
#[ignore = "the large rows take a few minutes; run with --ignored"]
fn published_table_all_rows() {
    let Some(rows) = published() else { return };
    let n = check_rows(&rows, u64::MAX);
    assert_eq!(n, rows.len());
}

#[test]
fn published_table_large_rows() {
    // Rows above the quick limit but below 200M nodes run in the normal suite too.
    let Some(rows) = published() else { return };
    let rows: Vec<_> = rows
        .into_iter()
        .filter(|r| r.2 > QUICK_LIMIT && r.2 < 200_000_000)
        .collect();
    check_rows(&rows, u64::MAX);
}

#[test]
fn game_positions_all_rows() {
    let Some(rows) = game_positions() else { return };
    let n = check_rows(&rows, u64::MAX);
    assert_eq!(n, rows.len());
    assert_eq!(n, 50);
}

#[test]
fn divide_sums_to_perft() {
    let mut b = Board::from_fen(START_FEN).unwrap();
    let d = divide(&mut b, 3);
    assert_eq!(d.len(), 44);
    assert_eq!(d.iter().map(|x| x.1).sum::<u64>(), 79_666);
    let h2e2 = d.iter().find(|(m, _)| m.to_string() == "h2e2").unwrap();
    assert_eq!(h2e2.1, perft_after(&mut b, "h2e2", 2));
}

fn perft_after(b: &mut Board, mv: &str, depth: u32) -> u64 {
    let m = b.parse_move(mv).unwrap();
    b.make_move(m);
    let n = perft(b, depth);
    b.unmake_move();
    n
}
