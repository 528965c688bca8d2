//! Differential test against the independent rules oracle
//! (`../shared/tools/oracle.py`, on pyffish): at every position reached by
//! random playouts, the engine's legal moves must equal the oracle's.

// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]

mod common;

use common::{Rng, legal_strings, random_move, random_position};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use xiangqi::board::{Board, START_FEN};

fn oracle_available() -> Option<std::path::PathBuf> {
    let path = common::shared_path("tools/oracle.py")?;
    if !common::python_has("pyffish") {
        common::skip("python3 with pyffish is not installed (pip install pyffish)");
        return None;
    }
    Some(path)
}

/// Ask the oracle for the legal moves of every FEN: one oracle process per
/// core, each given a consecutive slice (pyffish is the slow side, and one
/// process keeps one core busy while the other idles).
fn oracle_legal(oracle: &std::path::Path, fens: &[String]) -> Vec<Vec<String>> {
    let processes = std::thread::available_parallelism().map_or(2, |n| n.get());
    let slice = fens.len().div_ceil(processes).max(1);
    std::thread::scope(|s| {
        let workers: Vec<_> = fens
            .chunks(slice)
            .map(|part| s.spawn(move || oracle_legal_in_one_process(oracle, part)))
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    })
}

/// Ask one oracle process for the legal moves of every FEN, in order.
fn oracle_legal_in_one_process(oracle: &std::path::Path, fens: &[String]) -> Vec<Vec<String>> {
    let mut child = Command::new("python3")
        .arg(oracle)
        .arg("batch-legal")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start oracle");
    let mut stdin = child.stdin.take().unwrap();
    let input: String = fens.iter().map(|f| format!("{f}|\n")).collect();
    let writer = std::thread::spawn(move || {
        stdin.write_all(input.as_bytes()).unwrap();
    });
    let out: Vec<Vec<String>> = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map(|l| {
            let mut v: Vec<String> = l.unwrap().split_whitespace().map(String::from).collect();
            v.sort();
            v
        })
        .collect();
    writer.join().unwrap();
    assert!(child.wait().unwrap().success(), "oracle failed");
    assert_eq!(
        out.len(),
        fens.len(),
        "oracle answered {} of {} lines",
        out.len(),
        fens.len()
    );
    out
}

fn collect_positions(rng: &mut Rng, starts: &[Board], plies: usize, out: &mut Vec<Board>) {
    for start in starts {
        let mut b = start.clone();
        out.push(b.clone());
        for _ in 0..plies {
            let Some(m) = random_move(&b, rng) else { break };
            b.make_move(m);
            out.push(b.clone());
        }
    }
}

#[test]
fn legal_moves_match_the_oracle() {
    let Some(oracle) = oracle_available() else {
        return;
    };
    let mut rng = Rng::new(20261122);
    let mut positions = Vec::new();
    // Full games from the start position: openings through bare endgames.
    let start = Board::from_fen(START_FEN).unwrap();
    collect_positions(&mut rng, &vec![start; 40], 200, &mut positions);
    // Random sparse positions: checks, pins and few pieces.
    let randoms: Vec<Board> = (0..600).map(|_| random_position(&mut rng)).collect();
    collect_positions(&mut rng, &randoms, 12, &mut positions);
    // Master games from the shared data, a few plies past a random point.
    if let Some(games) = common::shared_file("data/games/games.txt") {
        let mut starts = Vec::new();
        for line in games.lines().step_by(7) {
            let f: Vec<&str> = line.split_whitespace().collect();
            if f.len() < 7 {
                continue;
            }
            let Ok(mut b) = Board::from_fen(&f[..6].join(" ")) else {
                continue;
            };
            let moves = &f[6..f.len() - 1];
            let upto = rng.below(moves.len().max(1));
            for m in &moves[..upto] {
                let mv = b.parse_move(m).unwrap();
                b.make_move(mv);
            }
            starts.push(b);
        }
        collect_positions(&mut rng, &starts, 20, &mut positions);
    }
    let fens: Vec<String> = positions.iter().map(|b| b.to_fen()).collect();
    let expected = oracle_legal(&oracle, &fens);
    assert_eq!(
        expected.len(),
        fens.len(),
        "the oracle's answers, all slices"
    );
    let mut checks = 0;
    let mut few_pieces = 0;
    for (b, want) in positions.iter().zip(&expected) {
        let got = legal_strings(b);
        assert_eq!(&got, want, "legal moves differ in {}", b.to_fen());
        checks += b.in_check() as usize;
        few_pieces += (b
            .to_fen()
            .split(' ')
            .next()
            .unwrap()
            .chars()
            .filter(|c| c.is_alphabetic())
            .count()
            <= 10) as usize;
    }
    eprintln!(
        "{} positions agree with the oracle ({} in check, {} with at most 10 pieces)",
        positions.len(),
        checks,
        few_pieces
    );
    assert!(positions.len() > 10_000);
    assert!(checks > 1_000, "too few positions in check: {checks}");
    assert!(few_pieces > 1_000, "too few sparse positions: {few_pieces}");
}
