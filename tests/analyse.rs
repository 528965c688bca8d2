//! `jiangjun analyse` against the real binary: a master game searched at a
//! fixed depth (the same on every machine), its annotated PGN read back,
//! its marks with their better moves, its score graph.
#![allow(clippy::unwrap_used)]

mod common;

use common::{run_jiangjun, run_jiangjun_code, scratch_dir};
use xiangqi::board::Board;

/// A master game Red won (`../shared/data/games/games.txt`'s first `1-0`).
const GAME: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 h2e2 h9g7 h0g2 i9h9 i0h0 g6g5 c3c4 b9c7 b0c2 c9e7 b2b4 h7h5 g3g4 d9e8 g4g5 e7g5 g2f4 c6c5 c4c5 h5c5 h0h9 g7h9 f4e6 c7e6 e2e6 g5e7 b4g4 a9d9 a0b0 b7c7 c2e1 c7c9 e1g2 d9d6 g2f4 c5f5 e6e5 e9d9 d0e1 h9g7 e5d5 d9e9 d5e5 e9d9 b0b4 f5f7 b4d4 d6d4 g4d4 c9c5 d4d2 d9e9 f4e6 g7f5 e6c5 1-0";

#[test]
fn a_game_is_analysed_marked_and_drawn() {
    let dir = scratch_dir("analyse");
    let game = dir.join("game.txt");
    std::fs::write(&game, format!("{GAME}\n")).unwrap();
    let (pgn, svg) = (dir.join("a.pgn"), dir.join("a.svg"));
    let (ok, _, err) = run_jiangjun(&[
        "analyse",
        game.to_str().unwrap(),
        "--depth",
        "8",
        "--out",
        pgn.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let words: Vec<&str> = GAME.split_whitespace().collect();
    let played: Vec<&str> = words[6..words.len() - 1].to_vec();
    let done = format!("game 1/1: {} moves analysed", played.len());
    assert!(err.contains(&done), "progress: {err}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    // The moves and the comment after each, from the PGN's movetext.
    let body: String = text
        .lines()
        .filter(|l| !l.starts_with('['))
        .collect::<Vec<_>>()
        .join(" ");
    let mut moves: Vec<(String, String)> = Vec::new();
    let mut rest = body.as_str();
    while let Some(open) = rest.find('{') {
        let close = rest[open..].find('}').unwrap() + open;
        let word = rest[..open].split_whitespace().last().unwrap();
        moves.push((word.to_string(), rest[open + 1..close].to_string()));
        rest = &rest[close + 1..];
    }
    assert_eq!(moves.len(), played.len(), "{text}");
    let mut board = Board::from_fen(&words[..6].join(" ")).unwrap();
    let mut marked = 0;
    for (i, ((word, comment), mv)) in moves.iter().zip(&played).enumerate() {
        let bare = word.trim_end_matches(['?', '!']);
        assert_eq!(bare, *mv, "move {}", i + 1);
        if bare.len() < word.len() {
            marked += 1;
            // A marked move names a better one, legal in its position.
            let better = comment
                .split("better ")
                .nth(1)
                .unwrap()
                .split_whitespace()
                .next()
                .unwrap();
            assert_ne!(better, *mv, "move {}", i + 1);
            assert!(
                board.is_legal_move(board.parse_move(better).unwrap()),
                "{better}"
            );
        }
        board.make_move(board.parse_move(mv).unwrap());
    }
    // The game turned on mistakes: the analysis finds some, and the header
    // counts what the moves show.
    assert!(marked > 0, "{text}");
    let counts = text
        .split("[Marks \"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    let n: Vec<usize> = counts
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    assert_eq!(n.iter().sum::<usize>(), marked, "{counts}");
    let graph = std::fs::read_to_string(&svg).unwrap();
    assert!(graph.starts_with("<svg") && graph.trim_end().ends_with("</svg>"));
    assert_eq!(graph.matches("<circle").count(), marked);
    assert_eq!(graph.matches("<polyline").count(), 1);
}

#[test]
fn a_file_with_no_game_is_an_error_naming_it() {
    let dir = scratch_dir("analyse-bad");
    let bad = dir.join("bad.pgn");
    std::fs::write(&bad, "[Event \"x\"]\n[Result \"1-0\"]\n1. h2e2 z9z9 1-0\n").unwrap();
    let (code, out, err) = run_jiangjun_code(&["analyse", bad.to_str().unwrap(), "--depth", "2"]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "stdout is for the PGN only: {out}");
    assert!(err.contains("error"), "{err}");
    let missing = dir.join("missing.pgn");
    let (code, _, err) = run_jiangjun_code(&["analyse", missing.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("missing.pgn"), "{err}");
}
