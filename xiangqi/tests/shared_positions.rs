//! Every position in the shared reference data parses, and every recorded game
//! move is legal in the engine.

// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]

mod common;

use xiangqi::board::Board;

fn epd_fens(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split(';').next().unwrap().trim().to_string())
        .collect()
}

#[test]
fn epd_and_tsv_positions_parse() {
    let mut n = 0;
    for rel in ["data/tactics/mate_suite.epd", "data/openings/openings.epd"] {
        let Some(text) = common::shared_file(rel) else {
            return;
        };
        for fen in epd_fens(&text) {
            let b = Board::from_fen(&fen).unwrap_or_else(|e| panic!("{rel}: {fen}: {e}"));
            assert!(b.is_consistent());
            n += 1;
        }
    }
    for rel in [
        "data/repetition/fsf_repetition_cases.tsv",
        "data/repetition/orange_xiangqi_repetition_cases.tsv",
    ] {
        let Some(text) = common::shared_file(rel) else {
            return;
        };
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with("id\t"))
        {
            let f: Vec<&str> = line.split('\t').collect();
            if f.len() < 3 {
                continue;
            }
            let mut b = Board::from_fen(f[1]).unwrap_or_else(|e| panic!("{rel}: {}: {e}", f[1]));
            for m in f[2].split_whitespace() {
                match b.parse_move(m) {
                    Ok(mv) => b.make_move(mv),
                    Err(e) => panic!("{rel} {}: {e}", f[0]),
                }
            }
            n += 1;
        }
    }
    assert!(n > 500, "{n}");
}

#[test]
fn every_game_move_is_legal() {
    let Some(text) = common::shared_file("data/games/games.txt") else {
        return;
    };
    let mut games = 0;
    let mut moves = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        let mut b = Board::from_fen(&f[..6].join(" ")).unwrap_or_else(|e| panic!("{line}: {e}"));
        for m in &f[6..f.len() - 1] {
            let mv = b
                .parse_move(m)
                .unwrap_or_else(|e| panic!("game {games}: {e}"));
            b.make_move(mv);
            moves += 1;
        }
        games += 1;
    }
    assert_eq!(games, 711);
    assert!(moves > 50_000, "{moves}");
}
