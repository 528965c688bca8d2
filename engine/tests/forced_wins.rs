//! A rook more against a bare or lightly defended king is a forced win in
//! Xiangqi (the king cannot leave its palace). The static evaluation scores
//! it as a known win (`eval::endgame::known_win`; the bar is
//! `eval::tests::extra_rook_is_winning`); the search must also prove the
//! win: a mate score for the side with the rook, at a modest depth.

use jiangjun_engine::Engine;
use jiangjun_engine::SCORE_MATE_IN_MAX;
use jiangjun_engine::{GoRequest, Limits};
use xiangqi::{Board, Color};

#[test]
fn rook_against_a_defended_king_is_a_proven_win() {
    let mut engine = Engine::new(16, 1);
    for fen in [
        "9/4k4/9/9/9/9/9/9/9/R2K5 w - - 0 1",
        "9/4k4/9/9/9/9/9/9/9/R2K5 b - - 0 1",
        "9/3k5/9/9/9/9/9/9/4R4/5K3 b - - 0 1",
        "4k4/4a4/4b4/9/9/9/9/9/9/R2K5 w - - 0 1",
        "3k5/4a4/4b4/9/9/9/9/9/9/R3K4 b - - 0 1",
    ] {
        let board = Board::from_fen(fen).unwrap();
        engine.new_game();
        let r = engine.search(
            &board,
            Limits::of(GoRequest {
                depth: Some(16),
                ..GoRequest::default()
            }),
        );
        let red_score = if board.side_to_move() == Color::Red {
            r.score
        } else {
            -r.score
        };
        assert!(red_score >= SCORE_MATE_IN_MAX, "{fen}: score {}", r.score);
        assert!(r.best.is_some_and(|m| board.is_legal_move(m)), "{fen}");
    }
}
