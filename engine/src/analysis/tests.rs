use super::*;
use crate::score::SCORE_MATE;

fn verdict(score: Score, best: Option<&str>) -> Verdict {
    let best = best.map(|m| xiangqi::notation::parse_iccs(m).unwrap());
    Verdict {
        score,
        best,
        pv: best.into_iter().collect(),
        depth: 1,
    }
}

#[test]
fn marks_follow_the_expected_score_lost() {
    assert_eq!(mark_for(0.05), None);
    assert_eq!(mark_for(0.10), Some("?!"));
    assert_eq!(mark_for(0.25), Some("?"));
    assert_eq!(mark_for(0.30), Some("??"));
    assert_eq!(mark_for(0.9), Some("??"));
    // Even is half; a mate for the side to move is all.
    assert!((expected(0) - 0.5).abs() < 1e-9);
    assert_eq!(expected(SCORE_MATE - 3), 1.0);
    assert_eq!(expected(-(SCORE_MATE - 3)), 0.0);
}

#[test]
fn a_move_is_judged_by_the_searches_before_and_after_it() {
    let start = Board::from_fen(xiangqi::START_FEN).unwrap();
    let moves: Vec<Move> = ["h2e2", "h9g7", "b0c2"]
        .iter()
        .map(|m| xiangqi::notation::parse_iccs(m).unwrap())
        .collect();
    // Red even, then Black (to move) even, then Red suddenly 600 down
    // after Black's move (a blunder by Black? no: by Black's view Red is
    // losing, so Black's move gained); then Black 600 down after b0c2.
    let verdicts = [
        verdict(20, Some("h2e2")),
        verdict(-20, Some("h9g7")),
        verdict(-600, Some("b0c2")),
        verdict(-600, None),
    ];
    let judged = judge_moves(&start, &moves, &verdicts);
    // h2e2: the engine's own move, never marked.
    assert_eq!(judged[0].mark, None);
    // h9g7 (the engine's choice) took Black from even to +600: no loss.
    assert_eq!(judged[1].mark, None);
    assert_eq!(judged[1].loss(), 0.0);
    // b0c2 was the best move, though Red was already lost: not marked.
    assert_eq!(judged[2].mark, None);
    // The same move when another was best, dropping from +600 to −600: a blunder.
    let verdicts = [
        verdict(20, Some("h2e2")),
        verdict(-20, Some("h9g7")),
        verdict(600, Some("h0g2")),
        verdict(600, None),
    ];
    let judged = judge_moves(&start, &moves, &verdicts);
    assert_eq!(judged[2].mark, Some("??"));
    assert_eq!(judged[2].better.map(|m| m.to_string()), Some("h0g2".into()));
    assert_eq!(judged[2].red_score, -600);
}
