//! The root move list: the legal moves the `go` allows, each with its score
//! and line from the last iterations.

use super::request::GoRequest;
use crate::score::{SCORE_INFINITE, Score};
use xiangqi::board::Board;
use xiangqi::types::Move;

#[derive(Clone)]
pub(crate) struct RootMove {
    pub mv: Move,
    /// Score in the current iteration (`-SCORE_INFINITE` until searched).
    pub score: Score,
    /// Score in the previous iteration.
    pub prev_score: Score,
    pub seldepth: usize,
    pub pv: Vec<Move>,
}

/// The legal moves of `board`, less those `request` leaves out
/// (`searchmoves`, `banmoves`), in generation order.
pub(crate) fn root_moves(board: &Board, request: &GoRequest) -> Vec<RootMove> {
    let legal = board.legal_moves();
    legal
        .iter()
        .filter(|&m| request.allows(m))
        .map(|m| RootMove {
            mv: m,
            score: -SCORE_INFINITE,
            prev_score: -SCORE_INFINITE,
            seldepth: 0,
            pv: vec![m],
        })
        .collect()
}
