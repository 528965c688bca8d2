//! The readers against the independent reader `cchess` 1.25.5: for each of
//! the 356 games of `../shared/data/gamefiles/expected.tsv`, the start
//! position (board and side) and the main line.
#![allow(clippy::unwrap_used)]

#[path = "../../xiangqi/tests/common/mod.rs"]
mod common;

use std::collections::HashMap;
use std::path::Path;
use xiangqi::Board;
use xiangqi_gamefile::{Format, FormatError, Game, read_bytes};

/// The games where cchess and we differ, each with the ply (from 1) of
/// cchess's main line that our rules refuse, and why. The test plays
/// cchess's line on our board to show it.
const CCHESS_WRONG: &[(&str, usize, &str)] = &[(
    // After 16. ... e1f1 Black's pawn on f1 checks Red's king on f0;
    // cchess lets Red answer h4e4, a cannon move that leaves the king in
    // check, and reads five more moves. We end the line at e1f1 (the file's
    // own record of that branch is illegal from there on).
    "xqf/烂柯神机_玉●无当.xqf",
    17,
    "Red is in check from the pawn on f1",
)];

/// Plays cchess's `moves` from `fen` on our board: the ply (from 1) of the
/// first move our rules refuse, and whether the side to move was in check.
fn first_illegal(fen: &str, moves: &str) -> Option<(usize, bool)> {
    let mut board = Board::from_fen(fen).unwrap();
    for (i, text) in moves.split_whitespace().enumerate() {
        match board.parse_move(text) {
            Ok(mv) => board.make_move(mv),
            Err(_) => return Some((i + 1, board.in_check())),
        }
    }
    None
}

/// The start FEN's first two fields and the main line in ICCS.
fn summary(g: &Game) -> (String, String) {
    let full = g.start_fen();
    let fen: Vec<&str> = full.split(' ').take(2).collect();
    let line: Vec<String> = g.main_line().iter().map(|m| m.to_string()).collect();
    (fen.join(" "), line.join(" "))
}

#[test]
fn agreement_with_cchess() {
    let Some(table) = common::shared_file("data/gamefiles/expected.tsv") else {
        return;
    };
    let dir = common::shared_dir().join("data/gamefiles");
    let mut files: HashMap<String, Vec<Result<Game, FormatError>>> = HashMap::new();
    let (mut rows, mut agree, mut explained) = (0, 0, 0);
    let mut disagree = Vec::new();
    for line in table.lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (file, index, fen, moves) = (
            cols[0],
            cols[1],
            cols[2],
            cols.get(3).copied().unwrap_or(""),
        );
        rows += 1;
        let entries = files.entry(file.to_string()).or_insert_with(|| {
            let path = dir.join(file);
            let data = std::fs::read(&path).unwrap();
            read_bytes(Format::of_path(Path::new(file)).unwrap(), &data).unwrap()
        });
        let k: usize = index.parse().unwrap_or(0);
        let ours = match &entries[k] {
            Ok(g) => summary(g),
            // An entry with no piece: cchess gives the empty board and no move.
            Err(FormatError::EmptyBoard) => ("9/9/9/9/9/9/9/9/9/9 w".to_string(), String::new()),
            Err(e) => (format!("error: {e}"), String::new()),
        };
        if ours.0 == fen && ours.1 == moves {
            agree += 1;
        } else if let Some(&(_, ply, why)) = CCHESS_WRONG.iter().find(|w| w.0 == file) {
            // Our line is cchess's up to the refused move, and that move is
            // illegal under the rules.
            let expected: Vec<&str> = moves.split_whitespace().collect();
            assert_eq!(ours.0, fen, "{file}: start positions differ");
            assert_eq!(ours.1, expected[..ply - 1].join(" "), "{file}");
            assert_eq!(
                first_illegal(fen, moves),
                Some((ply, true)),
                "{file}: {why}"
            );
            explained += 1;
        } else {
            disagree.push(format!(
                "{file} #{index}\n  ours:   {} | {}\n  cchess: {fen} | {moves}",
                ours.0, ours.1
            ));
        }
    }
    for d in &disagree {
        eprintln!("{d}");
    }
    eprintln!("agreement: {agree} of {rows}; {explained} where cchess breaks the rules");
    assert_eq!(rows, 356);
    assert!(
        disagree.is_empty(),
        "{} disagreements not explained",
        disagree.len()
    );
    assert_eq!(explained, CCHESS_WRONG.len());
    // The two empty entries of the 1989 library (a cover page and an empty
    // slot: no piece, no move) count as agreeing.
    assert_eq!(agree, 355);
}
