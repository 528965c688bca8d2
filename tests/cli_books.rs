//! `jiangjun book` with the books and game records players have: PGN in
//! Chinese, WXF and ICCS notation, books written as `.obk` and `BOOK.DAT`
//! and read back, conversion between the formats.

// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]

mod common;

use common::run_jiangjun as run;
use jiangjun_engine::play::book::Book;
use jiangjun_engine::play::book::walk::walk;
use std::path::{Path, PathBuf};
use xiangqi::Board;
use xiangqi::notation::{chinese, wxf};

const LINES: [(&str, &str); 4] = [
    ("h2e2 h9g7 h0g2 i9h9 i0h0", "1-0"),
    ("h2e2 h9g7 h0g2 g6g5", "1/2-1/2"),
    ("c3c4 b9c7 b0c2", "0-1"),
    ("c3c4 g6g5 b0c2", "1-0"),
];

fn dir() -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-books");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The games as PGN, each move written by `write`.
fn pgn(write: impl Fn(&Board, xiangqi::types::Move) -> String) -> String {
    let mut out = String::new();
    for (i, (moves, result)) in LINES.iter().enumerate() {
        out.push_str(&format!("[Event \"game {i}\"]\n[Result \"{result}\"]\n\n"));
        let mut b = Board::startpos();
        for (ply, text) in moves.split(' ').enumerate() {
            let m = b.parse_move(text).unwrap();
            if ply % 2 == 0 {
                out.push_str(&format!("{}. ", ply / 2 + 1));
            }
            out.push_str(&write(&b, m));
            out.push(' ');
            b.make_move(m);
        }
        out.push_str(&format!("{result}\n\n"));
    }
    out
}

fn build(args: &[&str], out: &Path) -> (bool, String, String) {
    let mut all = vec!["book", "build", "--min-games", "1", "--verify-depth", "0"];
    all.extend_from_slice(args);
    all.extend(["-o", out.to_str().unwrap()]);
    run(&all)
}

fn probe(book: &Path, moves: &str) -> String {
    let (ok, out, err) = run(&[
        "book",
        "probe",
        "--book",
        book.to_str().unwrap(),
        "--moves",
        moves,
    ]);
    assert!(ok, "{err}");
    out
}

/// The same games in Chinese, WXF and ICCS notation give the same book.
#[test]
fn pgn_in_chinese_wxf_and_iccs_notation() {
    let d = dir();
    let mut books = Vec::new();
    for (name, text) in [
        ("chinese", pgn(chinese)),
        ("wxf", pgn(wxf)),
        ("iccs", pgn(|_, m| m.to_string())),
    ] {
        let file = d.join(format!("{name}.pgn"));
        std::fs::write(&file, &text).unwrap();
        let book = d.join(format!("{name}.book"));
        let (ok, out, err) = build(&["--pgn", file.to_str().unwrap()], &book);
        assert!(ok, "{name}: {err}");
        assert!(out.starts_with("4 games, "), "{name}: {out}");
        books.push(book);
    }
    assert!(pgn(chinese).contains("1. 炮二平五 马8进7"));
    assert!(pgn(wxf).contains("1. C2.5 H8+7"));
    let first = probe(&books[0], "");
    assert!(first.starts_with("h2e2  weight     3"), "{first}");
    for b in &books[1..] {
        assert_eq!(probe(b, ""), first);
        assert_eq!(probe(b, "h2e2 h9g7"), probe(&books[0], "h2e2 h9g7"));
    }
}

/// A file from which no move could be read is an error that says why,
/// not an empty book.
#[test]
fn a_pgn_with_nothing_readable_fails() {
    let d = dir();
    let file = d.join("unreadable.pgn");
    std::fs::write(&file, "[Event \"x\"]\n[Result \"1-0\"]\n\n1. Q2.5 zz 1-0\n").unwrap();
    let out = d.join("unreadable.book");
    let _ = std::fs::remove_file(&out);
    let (ok, _, err) = build(&["--pgn", file.to_str().unwrap()], &out);
    assert!(!ok);
    assert!(
        err.contains("no move could be read from the 1 games")
            && err.contains("move 1 'Q2.5'")
            && err.contains("not a move in ICCS, WXF or Chinese notation"),
        "{err}"
    );
    assert!(!out.exists());
}

/// `book build --format obk` (and `eleeye`) read back equal to our own
/// book: every position of our book's tree answers the same moves,
/// weights and games.
#[test]
fn built_obk_and_book_dat_read_back_equal() {
    let d = dir();
    let file = d.join("games.pgn");
    std::fs::write(&file, pgn(|_, m| m.to_string())).unwrap();
    let ours = d.join("built.book");
    assert!(build(&["--pgn", file.to_str().unwrap()], &ours).0);
    let ours = Book::load(&ours).unwrap();
    for (format, name) in [("obk", "built.obk"), ("eleeye", "built.dat")] {
        let out = d.join(name);
        let (ok, text, err) = build(&["--pgn", file.to_str().unwrap(), "--format", format], &out);
        assert!(ok, "{err}");
        assert!(text.contains("moves written"), "{text}");
        let theirs = Book::load(&out).unwrap();
        let w = walk(&ours, &Board::startpos(), 50);
        assert!(w.positions.len() >= 8, "{}", w.positions.len());
        for (b, entries) in &w.positions {
            let mut got = theirs.probe(b);
            let mut want = entries.clone();
            if format == "eleeye" {
                // BOOK.DAT has weights only.
                for e in want.iter_mut() {
                    (e.games, e.score) = (0, 0);
                }
            }
            got.sort_by_key(|e| e.mv.raw());
            want.sort_by_key(|e| e.mv.raw());
            assert_eq!(got, want, "{format}: {}", b.to_fen());
        }
    }
}

/// `book convert` between the three formats, with BOOK.DAT, and `probe`
/// of each.
#[test]
fn convert_book_dat_to_obk_and_ours() {
    let Some(dat) = common::shared_path("data/books/BOOK.DAT") else {
        return;
    };
    let d = dir();
    let (obk, ours) = (d.join("ee.obk"), d.join("ee.book"));
    let (ok, out, err) = run(&[
        "book",
        "convert",
        dat.to_str().unwrap(),
        obk.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(
        out.contains("12081 records; 3932 reached from the start position and 8149 unreachable; 5759 positions, 7848 moves written"),
        "{out}"
    );
    let (ok, out, err) = run(&[
        "book",
        "convert",
        obk.to_str().unwrap(),
        ours.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(
        out.contains("7848 records; 7848 reached from the start position and 0 unreachable"),
        "{out}"
    );
    let want = probe(&dat, "h2e2");
    assert!(want.starts_with("h9g7  weight   761 ( 73.8%)\n"), "{want}");
    // A BOOK.DAT record has only a weight: no games or score columns.
    assert!(!want.contains("games") && !want.contains("score"), "{want}");
    assert!(probe(&obk, "h2e2").contains("  games "));
    for book in [&obk, &ours] {
        let got = probe(book, "h2e2");
        let strip = |s: &str| -> Vec<String> {
            s.lines()
                .map(|l| l.split("  games").next().unwrap().to_string())
                .collect()
        };
        assert_eq!(strip(&got), strip(&want), "{}", book.display());
    }
}

/// The `.obk` key table in the engine is what `scripts/obk_table.py` writes
/// from the shared table of VinXiangQi's keys: regenerated, it comes out the
/// same, so an edit by hand to either shows here.
#[test]
fn the_obk_key_table_is_what_its_script_writes() {
    let Some(tsv) = common::shared_path("data/books/obk_zobrist.tsv") else {
        return;
    };
    let Some(out) = common::python_script("obk_table.py", &[tsv]) else {
        return;
    };
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("engine/src/play/book/obk_table.rs");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        std::fs::read_to_string(file).unwrap()
    );
}
