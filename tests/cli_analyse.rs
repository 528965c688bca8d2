//! `jiangjun analyse` over whole games: a game of random moves from an XQF
//! file (blunders certain) marked move by move with the better move and its
//! line, the PGN's moves the game's, the SVG graph one point a position; a
//! library's game picked with --only; a bad file named.

// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]

mod common;

use common::run_jiangjun_code as run;
use std::path::PathBuf;
use xiangqi::Board;
use xiangqi::types::Move;
use xiangqi_gamefile::{Game, GameResult, write_xqf};

fn dir() -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-analyse");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// 24 plies of random legal moves from the start (seed 107), as an XQF file.
fn random_game() -> (PathBuf, Vec<Move>) {
    let mut rng = common::Rng::new(107);
    let mut board = Board::startpos();
    let mut g = Game::new(board.clone());
    g.headers.red = "红".into();
    g.headers.black = "黑".into();
    g.headers.result = GameResult::Draw;
    let (mut at, mut moves) = (0, Vec::new());
    for _ in 0..24 {
        let Some(mv) = common::random_move(&board, &mut rng) else {
            break;
        };
        at = g.add(at, mv, None);
        moves.push(mv);
        board.make_move(mv);
    }
    let path = dir().join("random.xqf");
    std::fs::write(&path, write_xqf(&g)).unwrap();
    (path, moves)
}

/// The moves of the PGN's text in ICCS, marks taken off, comments and
/// numbers and the result left out.
fn pgn_moves(pgn: &str) -> Vec<(String, String)> {
    let body: String = pgn
        .lines()
        .filter(|l| !l.starts_with('['))
        .collect::<Vec<_>>()
        .join(" ");
    let mut out = Vec::new();
    let mut depth = 0;
    let mut word = String::new();
    for c in body.chars().chain(std::iter::once(' ')) {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            c if depth == 0 && c.is_whitespace() => {
                let w = std::mem::take(&mut word);
                let bare = w.trim_end_matches(['?', '!']);
                if bare.len() == 4 && bare.chars().all(|c| c.is_ascii_alphanumeric()) {
                    out.push((bare.to_string(), w[bare.len()..].to_string()));
                }
            }
            c if depth == 0 => word.push(c),
            _ => {}
        }
    }
    out
}

#[test]
fn a_game_of_random_moves_is_marked_with_better_moves() {
    let (xqf, moves) = random_game();
    let pgn = dir().join("random.pgn");
    let svg = dir().join("random.svg");
    let (code, out, err) = run(&[
        "analyse",
        xqf.to_str().unwrap(),
        "--depth",
        "4",
        "--notation",
        "iccs",
        "-o",
        pgn.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        err.contains("game 1 of 1: position 25 of 25"),
        "progress: {err}"
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(
        text.contains("[White \"红\"]") && text.contains("[Result \"1/2-1/2\"]"),
        "{text}"
    );
    let read = pgn_moves(&text);
    let played: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    assert_eq!(
        read.iter().map(|(m, _)| m.clone()).collect::<Vec<_>>(),
        played,
        "{text}"
    );
    let marked = read.iter().filter(|(_, mark)| !mark.is_empty()).count();
    assert!(
        read.iter().any(|(_, mark)| mark == "??"),
        "random moves and no blunder: {text}"
    );
    // Each marked move's comment names a better move, another than it.
    let comments: Vec<&str> = text
        .split('{')
        .skip(2)
        .map(|c| c.split('}').next().unwrap())
        .collect();
    assert_eq!(comments.len(), marked, "{text}");
    for (c, (mv, _)) in comments
        .iter()
        .zip(read.iter().filter(|(_, m)| !m.is_empty()))
    {
        let better = c
            .split("better ")
            .nth(1)
            .unwrap()
            .split(':')
            .next()
            .unwrap();
        assert_ne!(better, mv, "{c}");
        assert!(c.contains("% of the expected score lost"), "{c}");
    }
    // The graph: one point a position, one dot a marked move.
    let graph = std::fs::read_to_string(&svg).unwrap();
    assert!(graph.starts_with("<svg ") && graph.trim_end().ends_with("</svg>"));
    let points = graph
        .split("points=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    assert_eq!(points.split(' ').count(), moves.len() + 1);
    assert_eq!(graph.matches("<circle ").count(), marked);

    // Chinese notation is the default.
    let (code, out, _) = run(&["analyse", xqf.to_str().unwrap(), "--depth", "1"]);
    assert_eq!(code, 0);
    let first = xiangqi::notation::chinese(&Board::startpos(), moves[0]);
    assert!(out.contains(&format!("1. {first}")), "{out}");
    // Our own tools read the annotated PGN back, marks and all: every move
    // of the game is a position of the book.
    let chinese_pgn = dir().join("random-chinese.pgn");
    std::fs::write(&chinese_pgn, &out).unwrap();
    for p in [&pgn, &chinese_pgn] {
        let book = dir().join("random.book");
        let (code, built, err) = run(&[
            "book",
            "build",
            "--pgn",
            p.to_str().unwrap(),
            "--max-ply",
            "99",
            "--min-games",
            "1",
            "--verify-depth",
            "0",
            "-o",
            book.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        assert!(
            built.starts_with(&format!("1 games, {} positions", moves.len())),
            "{built}{err}"
        );
        assert!(!err.contains("cut"), "{err}");
    }
}

#[test]
fn a_bad_file_is_named() {
    let cut = dir().join("cut.cbr");
    std::fs::write(&cut, b"CCBridge Record\0 short").unwrap();
    let (code, _, err) = run(&["analyse", cut.to_str().unwrap(), "--depth", "1"]);
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!("{}: cut short", cut.display())),
        "{err}"
    );
}

/// A game of the 1956 library, picked from its 93 by --only.
#[test]
fn one_game_of_a_library() {
    let Some(cbl) = common::shared_path("data/gamefiles/cbl/1956年全国象棋锦标赛93局.CBL")
    else {
        return;
    };
    let (code, out, err) = run(&[
        "analyse",
        cbl.to_str().unwrap(),
        "--only",
        "2",
        "--depth",
        "2",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("[White \"保定邓裕如\"]") && out.contains("[Black \"长沙李定一\"]"),
        "{out}"
    );
    assert!(out.trim_end().ends_with("1-0"), "{out}");
    assert!(err.contains("(game 2)"), "{err}");
    let (code, _, err) = run(&["analyse", cbl.to_str().unwrap(), "--only", "94"]);
    assert_eq!(code, 2);
    assert!(err.contains("93 games"), "{err}");
}

/// `--xqf`: the analysed game as XQF, read back by our reader: the game's
/// moves as the main line, a comment on every marked move (its mark first)
/// and the better line beside each as a variation.
#[test]
fn the_analysed_game_is_written_as_xqf() {
    let (xqf, moves) = random_game();
    let out_xqf = dir().join("analysed.xqf");
    let pgn = dir().join("analysed.pgn");
    let (code, _, err) = run(&[
        "analyse",
        xqf.to_str().unwrap(),
        "--depth",
        "4",
        "--notation",
        "iccs",
        "-o",
        pgn.to_str().unwrap(),
        "--xqf",
        out_xqf.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let marked = pgn_moves(&std::fs::read_to_string(&pgn).unwrap())
        .iter()
        .filter(|(_, mark)| !mark.is_empty())
        .count();
    assert!(marked > 0);
    let games = xiangqi_gamefile::read_path(&out_xqf).unwrap();
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!(g.main_line(), moves);
    assert_eq!(g.headers.red, "红");
    assert_eq!(g.headers.annotator, "Jiangjun");
    assert!(
        g.comment()
            .unwrap()
            .starts_with("jiangjun analyse, depth 4 a position: "),
        "{:?}",
        g.comment()
    );
    let comments: Vec<&str> = g
        .main_line_nodes()
        .iter()
        .filter_map(|&i| g.nodes[i].comment.as_deref())
        .collect();
    assert_eq!(comments.len(), marked, "{comments:?}");
    for c in &comments {
        assert!(c.starts_with('?'), "{c}");
        assert!(c.contains("% of the expected score lost; better "), "{c}");
    }
    // A variation beside every marked move: its first move the better one.
    assert_eq!(g.branch_points(), marked);
}
