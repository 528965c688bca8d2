//! Known results of endgame theory, checked against tables this test
//! builds itself (sources in docs/tablebases.md), and a table win played
//! out move by move to mate in exactly the promised plies, judged by the
//! rules crate.

// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]

use jiangjun_tablebase::build::build;
use jiangjun_tablebase::index::Pos;
use jiangjun_tablebase::table::TableSet;
use jiangjun_tablebase::value::{INVALID, is_loss, is_win};
use jiangjun_tablebase::verify::{fen_of, load_all};
use jiangjun_tablebase::{Material, Tablebases, Wdl};
use std::path::PathBuf;
use xiangqi::rules::{Outcome, Reason, judge};
use xiangqi::{Board, Color};

fn built(name: &str, materials: &[&str]) -> (PathBuf, TableSet) {
    let dir = std::env::temp_dir().join(format!("jjtb-theory-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let ms: Vec<Material> = materials.iter().map(|m| m.parse().unwrap()).collect();
    build(&dir, &ms, |_| {}).unwrap();
    let set = load_all(&dir).unwrap();
    (dir, set)
}

/// (wins, draws, losses) for Red to move over the legal positions of a
/// table that pass `keep`.
fn red_to_move(set: &TableSet, m: &str, keep: impl Fn(&Pos) -> bool) -> (u64, u64, u64) {
    let t = set.get(&m.parse().unwrap()).unwrap();
    let mut c = (0, 0, 0);
    for (i, &v) in t.values.iter().enumerate() {
        if v == INVALID {
            continue;
        }
        let p = t.indexer.decode(i as u64).unwrap();
        if p.side != Color::Red || !keep(&p) {
            continue;
        }
        if is_win(v) {
            c.0 += 1;
        } else if is_loss(v) {
            c.2 += 1;
        } else {
            c.1 += 1;
        }
    }
    c
}

fn probe(tb: &Tablebases, fen: &str) -> Wdl {
    tb.probe(&Board::from_fen(fen).unwrap())
        .unwrap()
        .unwrap()
        .wdl
}

#[test]
fn minor_piece_endings_match_theory() {
    let (dir, set) = built("minor", &["KCvK", "KPvK", "KNvKA", "KNvKBB"]);
    // A lone cannon cannot mate a bare king: it has no screen.
    let (w, _, l) = red_to_move(&set, "KCvK", |_| true);
    assert_eq!((w, l), (0, 0), "KCvK must be drawn everywhere");
    // A horse beats a bare king; it only fails where it is lost at once.
    let (w, d, _) = red_to_move(&set, "KNvK", |_| true);
    assert!(w > 0 && d * 50 < w, "KNvK: {w} wins, {d} draws");
    // Horse against one advisor: a sure win.
    let (w, d, _) = red_to_move(&set, "KNvKA", |_| true);
    assert!(d * 20 < w, "KNvKA: {w} wins, {d} draws");
    // Horse against two elephants: a sure draw (wins only where an
    // elephant or the king is caught at once).
    let (w, d, _) = red_to_move(&set, "KNvKBB", |_| true);
    assert!(w * 100 < d, "KNvKBB: {w} wins, {d} draws");
    // A pawn on the last rank (an "old pawn") cannot win against a bare
    // king; one that has just crossed the river can.
    let on_last_rank = |p: &Pos| (0..p.n).any(|i| p.code[i] == 7 && p.sq[i] / 9 == 9);
    let (w, _, _) = red_to_move(&set, "KPvK", on_last_rank);
    assert_eq!(w, 0, "KPvK: a pawn on rank 9 wins");
    let tb = Tablebases::open(&dir).unwrap();
    assert_eq!(probe(&tb, "4k4/9/9/9/4P4/9/9/9/9/3K5 w"), Wdl::Win);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rook_cannot_beat_full_defence() {
    let (dir, _set) = built("rook", &["KRvKAABB"]);
    let tb = Tablebases::open(&dir).unwrap();
    // The full defence in its home formation, and with the elephants
    // linked in front of the king: drawn with either side to move.
    for fen in [
        "2bakab2/9/9/9/9/9/9/9/9/3K1R3 w",
        "2bakab2/9/9/9/9/9/9/9/9/3K1R3 b",
        "3aka3/9/4b4/9/2b6/9/9/9/9/3K1R3 w",
    ] {
        assert_eq!(probe(&tb, fen), Wdl::Draw, "{fen}");
    }
    // Without one elephant, or without the advisors, the rook wins.
    assert_eq!(probe(&tb, "3akab2/9/9/9/9/9/9/9/9/3K1R3 w"), Wdl::Win);
    assert_eq!(probe(&tb, "2b1k1b2/9/9/9/9/9/9/9/9/3K1R3 w"), Wdl::Win);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Play the probe's best moves for both sides from `fen` and check the
/// game ends in mate (judged by the rules crate) after exactly the
/// promised plies.
fn play_out(tb: &Tablebases, fen: &str) {
    let mut board = Board::from_fen(fen).unwrap();
    let first = tb.probe(&board).unwrap().unwrap();
    assert_eq!(first.wdl, Wdl::Win, "{fen}");
    let promised = first.dtm.unwrap();
    let winner = board.side_to_move();
    for ply in 0..promised {
        let (p, mv) = tb.best_move(&board).unwrap().unwrap();
        assert_eq!(p.dtm, Some(promised - ply), "{}", board.to_fen());
        let mv = mv.expect("a move before mate");
        assert!(board.is_legal_move(mv));
        assert_eq!(judge(&board, 3), Outcome::Ongoing, "{}", board.to_fen());
        board.make_move(mv);
    }
    // Mate or stalemate: no legal move, and the side to move loses.
    let end = judge(&board, 3);
    assert!(
        matches!(end, Outcome::Win(c, Reason::Checkmate | Reason::Stalemate) if c == winner),
        "{} after {promised} plies: {end:?}",
        board.to_fen()
    );
}

#[test]
fn longest_wins_play_out_to_mate_in_the_promised_plies() {
    let (dir, set) = built("play", &["KNvKA", "KRvKAB"]);
    let tb = Tablebases::open(&dir).unwrap();
    for m in ["KNvKA", "KRvKAB"] {
        // The longest win of the table, Red to move.
        let t = set.get(&m.parse().unwrap()).unwrap();
        let (i, _) = t
            .values
            .iter()
            .enumerate()
            .filter(|&(i, &v)| is_win(v) && t.indexer.decode(i as u64).unwrap().side == Color::Red)
            .max_by_key(|&(_, &v)| v)
            .unwrap();
        let fen = fen_of(&t.indexer.decode(i as u64).unwrap());
        play_out(&tb, &fen);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn perpetual_check_does_not_save_the_checker() {
    // Rook against horse: where the horse's side can only check forever,
    // it loses (our rules), and the tables say so.
    let (dir, set) = built("perpetual", &["KRvKN"]);
    let tb = Tablebases::open(&dir).unwrap();
    let t = set.get(&"KRvKN".parse().unwrap()).unwrap();
    let mut found = 0;
    for (i, &v) in t.values.iter().enumerate() {
        if v != 1 {
            continue;
        }
        let mut board = Board::from_fen(&fen_of(&t.indexer.decode(i as u64).unwrap())).unwrap();
        if !board.has_legal_move() {
            continue;
        }
        // Lost in 0 with legal moves: lost by the perpetual-check rule.
        found += 1;
        if found > 20 {
            continue;
        }
        let loser = board.side_to_move();
        // Every move loses by the table, and some check.
        let mut checks = 0;
        for mv in board.legal_moves() {
            checks += usize::from(board.gives_check(mv));
            board.make_move(mv);
            let p = tb.probe(&board).unwrap().unwrap();
            board.unmake_move();
            assert!(p.wdl == Wdl::Win, "{} {mv}", board.to_fen());
        }
        assert!(checks > 0);
        // Play it out: the loser follows the table (slowest loss), the
        // winner too; the rules crate must give the game to the winner,
        // by mate or by perpetual check.
        let mut outcome = Outcome::Ongoing;
        for _ in 0..200 {
            outcome = judge(&board, 3);
            if outcome != Outcome::Ongoing {
                break;
            }
            let (_, mv) = tb.best_move(&board).unwrap().unwrap();
            board.make_move(mv.unwrap());
        }
        match outcome {
            Outcome::Win(c, Reason::Checkmate | Reason::Stalemate | Reason::PerpetualCheck) => {
                assert_eq!(c, !loser)
            }
            o => panic!("{}: {o:?}", board.to_fen()),
        }
    }
    assert!(found > 0, "no position lost by perpetual check in KRvKN");
    let _ = std::fs::remove_dir_all(&dir);
}
