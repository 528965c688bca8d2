//! The search obeys the repetition rulings: it stops checking when the next
//! check would complete a perpetual, claims the win when the opponent
//! completes one, and, chased, repeats so that the chaser must break off.

// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]

mod common;

use common::{EngineProcess, bestmove_of};

fn uci() -> EngineProcess {
    let mut e = EngineProcess::start();
    e.send("uci");
    e.until_prefix("uciok");
    e
}

/// (bestmove, score of the last full depth line) for a search.
fn search(e: &mut EngineProcess, position: &str, depth: u32) -> (String, String) {
    e.send(position);
    e.send(&format!("go depth {depth}"));
    let lines = e.until_prefix("bestmove");
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with(&format!("info depth {depth} ")))
        .unwrap_or_else(|| panic!("no depth {depth} line: {lines:#?}"));
    let score = last
        .split(" score ")
        .nth(1)
        .unwrap()
        .split(" nodes")
        .next()
        .unwrap()
        .to_string();
    (bestmove_of(lines.last().unwrap()).unwrap(), score)
}

fn cp(score: &str) -> i32 {
    let t: Vec<&str> = score.split_whitespace().collect();
    match t[0] {
        "cp" => t[1].parse().unwrap(),
        "mate" if t[1].starts_with('-') => -30000,
        "mate" => 30000,
        _ => panic!("{score}"),
    }
}

const CHECKS: &str =
    "position fen 4k4/7R1/9/p8/9/9/9/9/9/3K5 w - - 0 1 moves h8h9 e9e8 h9h8 e8e9 h8h9 e9e8";

#[test]
fn stops_checking_before_the_perpetual() {
    let mut e = uci();
    // h9h8 would give the same check a third time around: a perpetual.
    let (m, score) = search(&mut e, CHECKS, 8);
    assert_ne!(m, "h9h8", "{score}");
    assert!(
        cp(&score) > 500,
        "Red is a rook up and stays winning: {score}"
    );
}

#[test]
fn claims_the_win_when_the_opponent_checks_perpetually() {
    let mut e = uci();
    // Red did play h9h8: Black completes the cycle and wins by the rule.
    let (m, score) = search(&mut e, &format!("{CHECKS} h9h8"), 6);
    assert_eq!(m, "e8e9");
    assert!(score.starts_with("mate "), "{score}");
}

const CHASE: &str = "position fen 2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1 \
                     moves c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2";

#[test]
fn chased_side_repeats_and_keeps_its_material() {
    let mut e = uci();
    // The red cannon chases the black rook, which has one safe square. Black
    // repeats: Red must break off the chase, so Black stays a rook up for a
    // cannon instead of settling for a draw by repetition.
    let (m, score) = search(&mut e, CHASE, 7);
    assert_eq!(m, "b7a7");
    assert!(cp(&score) > 200, "{score}");
}

#[test]
fn chaser_breaks_off_instead_of_losing_by_the_rule() {
    let mut e = uci();
    let (m, score) = search(&mut e, &format!("{CHASE} b7a7"), 7);
    assert_ne!(m, "b2a2", "b2a2 completes a perpetual chase: {score}");
    assert!(cp(&score) > -30000, "{score}");
}

#[test]
fn rulings_do_not_poison_the_table() {
    use jiangjun_engine::Bound;
    use jiangjun_engine::Engine;
    use jiangjun_engine::SCORE_MATE_IN_MAX;
    use jiangjun_engine::{GoRequest, Limits};
    use xiangqi::board::Board;

    // Search the checking side's position with its history: after h9h8
    // Black wins by the rule (e8e9 completes Red's perpetual), a score that
    // belongs to this path only.
    let mut board = Board::from_fen("4k4/7R1/9/p8/9/9/9/9/9/3K5 w - - 0 1").unwrap();
    for m in "h8h9 e9e8 h9h8 e8e9 h8h9 e9e8".split_whitespace() {
        let mv = board.parse_move(m).unwrap();
        board.make_move(mv);
    }
    let mut engine = Engine::new(16, 1);
    let limits = Limits::of(GoRequest {
        depth: Some(6),
        ..GoRequest::default()
    });
    engine.search(&board, limits);
    // The position after h9h8 must not be stored as won for Black: reached
    // another way it is an ordinary position where Red is a rook up.
    let mv = board.parse_move("h9h8").unwrap();
    board.make_move(mv);
    if let Some(e) = engine.hash_entry(board.key()) {
        assert!(
            e.bound == Bound::None || e.score < SCORE_MATE_IN_MAX,
            "the table says Black wins after h9h8: {e:?}"
        );
    }
}
