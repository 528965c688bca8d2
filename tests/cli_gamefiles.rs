//! The tools that take games take Chinese game files, told by their
//! extension: `book build` from XQF files and a CCBridge library, `judge
//! --game`; a bad file is an error naming it, and the book already written
//! stays as it was.

// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]

mod common;

use common::run_jiangjun_code as run;
use std::path::{Path, PathBuf};
use xiangqi::Board;
use xiangqi_gamefile::{Game, GameResult, write_xqf};

fn dir() -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-gamefiles");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A game of `moves` from the start, with a result and a variation at
/// the first move (which no tool takes: the main line is the game).
fn game(moves: &str, result: GameResult) -> Game {
    let mut board = Board::startpos();
    let mut g = Game::new(board.clone());
    g.headers.result = result;
    let mut at = 0;
    for (i, text) in moves.split(' ').enumerate() {
        let mv = board.parse_move(text).unwrap();
        if i == 0 {
            let side = board.parse_move("b2e2").unwrap();
            let main = g.add(at, mv, None);
            g.add(at, side, Some("另一变".into()));
            at = main;
        } else {
            at = g.add(at, mv, None);
        }
        board.make_move(mv);
    }
    g
}

fn write(name: &str, g: &Game) -> PathBuf {
    let p = dir().join(name);
    std::fs::write(&p, write_xqf(g)).unwrap();
    p
}

fn build(inputs: &[&Path], out: &Path) -> (i32, String, String) {
    let mut args = vec!["book", "build", "--min-games", "1", "--verify-depth", "0"];
    for i in inputs {
        args.extend(["--pgn", i.to_str().unwrap()]);
    }
    args.extend(["-o", out.to_str().unwrap()]);
    run(&args)
}

#[test]
fn a_book_from_xqf_files_and_a_bad_one_leaves_the_book_written() {
    let a = write("a.xqf", &game("h2e2 h9g7 h0g2", GameResult::RedWins));
    let b = write("b.XQF", &game("h2e2 h7e7", GameResult::Draw));
    let book = dir().join("games.book");
    let (code, out, err) = build(&[&a, &b], &book);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("2 games, 3 positions"), "{out}");
    let (_, probe, _) = run(&["book", "probe", "--book", book.to_str().unwrap()]);
    assert!(probe.starts_with("h2e2 "), "{probe}");
    assert!(!probe.contains("b2e2"), "a variation went in: {probe}");

    // Cut short, the file is an error that names it; the book stays.
    let before = std::fs::read(&book).unwrap();
    let bytes = std::fs::read(&a).unwrap();
    let cut = dir().join("cut.xqf");
    std::fs::write(&cut, &bytes[..bytes.len() - 3]).unwrap();
    let (code, _, err) = build(&[&b, &cut], &book);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!("{}: cut short", cut.display())),
        "{err}"
    );
    assert_eq!(std::fs::read(&book).unwrap(), before);
}

#[test]
fn judge_rules_on_a_game_file() {
    // A rook to the back rank mates: the other rook holds rank 1, the
    // black king the d-file.
    let mut board = Board::from_fen("3k5/9/9/9/9/9/9/9/r7r/4K4 b").unwrap();
    let mut g = Game::new(board.clone());
    let mv = board.parse_move("a1a0").unwrap();
    g.add(0, mv, None);
    board.make_move(mv);
    let path = write("mate.xqf", &g);
    let (code, out, err) = run(&["judge", "--game", path.to_str().unwrap()]);
    assert_eq!((code, out.trim()), (0, "black (checkmate)"), "{err}");
    let (code, _, err) = run(&["judge", "--game", "no-such.cbl"]);
    assert_eq!(code, 2);
    assert!(err.contains("no-such.cbl"), "{err}");
}

/// The 1956 championship's library: its 93 games become a book.
#[test]
fn a_book_from_a_ccbridge_library() {
    let Some(cbl) = common::shared_path("data/gamefiles/cbl/1956年全国象棋锦标赛93局.CBL")
    else {
        return;
    };
    let book = dir().join("1956.book");
    let (code, out, err) = build(&[&cbl], &book);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("93 games, "), "{out}");
}
