//! The books players own, checked against the real files in `../shared`:
//! ElephantEye's `BOOK.DAT` (its start-position moves as ElephantEye prints
//! them, legal moves along master games and over its whole tree), BHGUI's
//! `.obk` key (computed here straight from `obk_zobrist.tsv`, independently
//! of the engine's table), and conversions that keep every move and weight.
//! Each test skips with a message when `../shared` is missing.

// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]

#[path = "../../xiangqi/tests/common/mod.rs"]
mod common;

use jiangjun_engine::play::book::walk::walk;
use jiangjun_engine::play::book::{Book, Entry, obk, obk_file};
use std::collections::HashMap;
use std::path::PathBuf;
use xiangqi::board::Board;
use xiangqi::types::{Color, SQUARES, Square};

fn shared(rel: &str) -> Option<PathBuf> {
    common::shared_path(rel)
}

fn book_dat() -> Option<Book> {
    let p = shared("data/books/BOOK.DAT")?;
    Some(Book::load(&p).expect("BOOK.DAT loads"))
}

fn moves(entries: &[Entry]) -> Vec<(String, u32)> {
    let mut v: Vec<_> = entries
        .iter()
        .map(|e| (e.mv.to_string(), e.weight))
        .collect();
    v.sort();
    v
}

/// The 16 moves ElephantEye itself prints for the start position with
/// this file (`info depth 0 score WEIGHT pv MOVE`).
#[test]
fn book_dat_start_position_is_what_elephanteye_prints() {
    let Some(book) = book_dat() else { return };
    assert_eq!(
        book.format(),
        jiangjun_engine::play::book::Format::ElephantEye
    );
    assert_eq!(book.len(), 12081);
    let mut want: Vec<(String, u32)> = [
        ("b2e2", 1473),
        ("h2e2", 1473),
        ("c3c4", 546),
        ("g3g4", 546),
        ("c0e2", 311),
        ("g0e2", 311),
        ("b0c2", 89),
        ("h0g2", 89),
        ("h2d2", 42),
        ("b2f2", 42),
        ("b2d2", 37),
        ("h2f2", 37),
        ("b0a2", 18),
        ("h0i2", 18),
        ("h2c2", 2),
        ("b2g2", 2),
    ]
    .iter()
    .map(|(m, w)| (m.to_string(), *w))
    .collect();
    want.sort();
    let found = book.probe(&Board::startpos());
    assert_eq!(moves(&found), want);
    // Heaviest first.
    assert!(found.windows(2).all(|w| w[0].weight >= w[1].weight));
}

/// Every position of the first 20 plies of the master games: how many the
/// book answers, and every record found there (legal or not, before the
/// probe's filter) is a legal move of the position.
#[test]
fn book_dat_moves_along_master_games_are_legal() {
    let (Some(book), Some(games)) = (book_dat(), shared("data/games/games.txt")) else {
        return;
    };
    let text = std::fs::read_to_string(games).unwrap();
    let (mut positions, mut hits, mut found_moves) = (0, 0, 0);
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let mut b = Board::from_fen(&f[..6].join(" ")).unwrap();
        for text in f[6..f.len() - 1].iter().take(20) {
            positions += 1;
            let found = book.probe_found(&b, false);
            hits += !found.is_empty() as usize;
            found_moves += found.len();
            for x in &found {
                assert!(
                    b.is_legal_move(x.entry.mv),
                    "{} in {}",
                    x.entry.mv,
                    b.to_fen()
                );
            }
            let m = b.parse_move(text).unwrap();
            b.make_move(m);
        }
    }
    eprintln!("{positions} positions, {hits} in BOOK.DAT, {found_moves} book moves, all legal");
    assert_eq!(positions, 14220);
    assert_eq!(hits, 8498);
}

/// The whole tree of BOOK.DAT from the start position: every record found
/// is legal where it is found.
#[test]
fn book_dat_tree_is_legal_everywhere() {
    let Some(book) = book_dat() else { return };
    let w = walk(&book, &Board::startpos(), 200);
    for (b, _) in &w.positions {
        for x in book.probe_found(b, false) {
            assert!(
                b.is_legal_move(x.entry.mv),
                "{} in {}",
                x.entry.mv,
                b.to_fen()
            );
        }
    }
    eprintln!(
        "walk: {} positions, {} moves, {} of {} records reached",
        w.positions.len(),
        w.moves(),
        w.reached,
        w.total
    );
    assert_eq!(w.total, 12081);
    assert!(w.reached > 3000 && w.positions.len() > 5000);
}

/// The `.obk` key as `obk_zobrist.tsv` documents it, computed from the
/// file's own numbering, equals the engine's for positions of both sides
/// to move; keys with the top bit set are among them.
#[test]
fn obk_key_matches_the_documented_key() {
    let Some(tsv) = shared("data/books/obk_zobrist.tsv") else {
        return;
    };
    let text = std::fs::read_to_string(tsv).unwrap();
    let mut player = 0u64;
    let mut table: HashMap<(usize, usize), u64> = HashMap::new();
    let hex = |s: &str| u64::from_str_radix(s.trim_start_matches("0x"), 16).unwrap();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        if f[0] == "player" {
            player = hex(f[1]);
        } else {
            table.insert((f[0].parse().unwrap(), hex(f[2]) as usize), hex(f[3]));
        }
    }
    let letters = "KABNRCPkabnrcp";
    let documented = |b: &Board| {
        let mut key = if b.side_to_move() == Color::Red {
            player
        } else {
            0
        };
        for i in 0..SQUARES {
            let sq = Square::from_index(i).unwrap();
            if let Some(p) = b.piece_at(sq) {
                let piece = letters.find(p.fen_char()).unwrap();
                let sq16 = 0x33 + sq.file() + 16 * (9 - sq.rank());
                key ^= table[&(piece, sq16)];
            }
        }
        key
    };
    let mut b = Board::startpos();
    let mut top_bit = 0;
    let line = "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 h0h6 c6c5 b0c2 b7a7 c3c4 a9b9 a0a1 g6g5";
    for (i, mv) in std::iter::once("").chain(line.split(' ')).enumerate() {
        if i > 0 {
            b.make_move(b.parse_move(mv).unwrap());
        }
        for pos in [b.clone(), b.mirrored()] {
            let key = documented(&pos);
            assert_eq!(obk::key(&pos), key, "{}", pos.to_fen());
            top_bit += (key >> 63) as usize;
        }
    }
    assert!(
        top_bit > 0,
        "no key with the top bit set among the positions"
    );
}

#[cfg(feature = "obk")]
fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jj-books-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// BOOK.DAT -> .obk -> ours: every position the walk reaches answers the
/// same moves with the same weights in all three.
#[cfg(feature = "obk")]
#[test]
fn book_dat_to_obk_to_ours_keeps_every_move_and_weight() {
    let Some(source) = book_dat() else { return };
    let w = walk(&source, &Board::startpos(), 200);
    let obk_path = temp("round.obk");
    let rows = obk::rows_of(&w.positions);
    assert_eq!(obk_file::write(&obk_path, &rows).unwrap(), w.moves());
    let obk_book = Book::load(&obk_path).unwrap();
    assert_eq!(obk_book.format(), jiangjun_engine::play::book::Format::Obk);
    let w2 = walk(&obk_book, &Board::startpos(), 200);
    let ours = jiangjun_engine::play::book::JjBook::from_positions(&w2.positions);
    let ours = Book::parse(&ours.to_bytes()).unwrap();
    let mut top_bit = 0;
    for (b, entries) in &w.positions {
        top_bit += (obk::key(b) >> 63) as usize;
        assert_eq!(moves(&obk_book.probe(b)), moves(entries), "{}", b.to_fen());
        assert_eq!(moves(&ours.probe(b)), moves(entries), "{}", b.to_fen());
    }
    assert!(top_bit > 1000, "{top_bit}");
    assert_eq!(w2.positions.len(), w.positions.len());
    assert_eq!(w2.reached, w2.total, "every .obk row is reached again");
    // And ElephantEye's format written back answers the same.
    use jiangjun_engine::play::book::eleeye::{EleeyeBook, records_of};
    let back =
        Book::parse(&EleeyeBook::from_records(records_of(&w2.positions)).to_bytes()).unwrap();
    for (b, entries) in &w.positions {
        assert_eq!(moves(&back.probe(b)), moves(entries), "{}", b.to_fen());
    }
    let _ = std::fs::remove_file(obk_path);
}
