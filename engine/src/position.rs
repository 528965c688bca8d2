//! The search's position: a rules-library board plus what the evaluation
//! keeps incrementally over it (material and piece-square sums, the game
//! phase). The rules library knows nothing of evaluation, so the engine
//! wraps its board and updates these sums on every make and unmake.

use crate::eval::psq;
use crate::score::Score;
use std::ops::Deref;
use xiangqi::board::PieceValues;
use xiangqi::{Board, Color, FenError, Move, PieceKind, SQUARES, Square};

/// Piece values for static exchange evaluation (`eval::psq::see_value`):
/// the tuned material, defenders with their share of king safety, and a
/// king worth more than everything else.
pub const SEE_VALUES: PieceValues = {
    let mut v = [0; 7];
    let mut k = 0;
    while k < 7 {
        v[k] = psq::see_value(PieceKind::from_index(k));
        k += 1;
    }
    v
};

/// Evaluation sums saved before a move, restored by its unmake.
#[derive(Clone, Copy)]
struct Saved {
    psq: [Score; 2],
    phase: i32,
}

/// A board with incrementally kept evaluation sums. Read the board through
/// `Deref`; change it only through `make_move`/`unmake_move` (and the null
/// move pair) so that the sums follow.
#[derive(Clone)]
pub struct Position {
    board: Board,
    /// Piece-square sums (material included), per side, packed mg/eg.
    psq: [Score; 2],
    /// Sum of the phase weights of the pieces on the board.
    phase: i32,
    saved: Vec<Saved>,
}

impl Position {
    /// Wrap a board, computing the sums from scratch.
    pub fn new(board: Board) -> Position {
        let (psq, phase) = sums(&board);
        Position {
            board,
            psq,
            phase,
            saved: Vec::with_capacity(256),
        }
    }

    /// The start position.
    pub fn startpos() -> Position {
        Position::new(Board::startpos())
    }

    /// Parse a FEN (see `Board::from_fen`).
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Board::from_fen(fen).map(Position::new)
    }

    /// The board.
    #[inline(always)]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Incremental piece-square sum of `color` (packed middlegame/endgame score).
    #[inline(always)]
    pub fn psq(&self, color: Color) -> Score {
        self.psq[color.index()]
    }

    /// Phase material on the board (see `eval::psq::PHASE_WEIGHT`).
    #[inline(always)]
    pub fn phase(&self) -> i32 {
        self.phase
    }

    /// Make a pseudo-legal move.
    #[inline]
    pub fn make_move(&mut self, mv: Move) {
        self.saved.push(Saved {
            psq: self.psq,
            phase: self.phase,
        });
        if let Some(piece) = self.board.piece_at(mv.from()) {
            let us = piece.color().index();
            self.psq[us] += psq::delta(piece.index(), mv.from().index(), mv.to().index());
        }
        if let Some(cp) = self.board.piece_at(mv.to()) {
            self.psq[cp.color().index()] -= psq::value(cp, mv.to());
            self.phase -= psq::PHASE_WEIGHT[cp.kind().index()];
        }
        self.board.make_move(mv);
    }

    /// Take back the last `make_move`.
    #[inline]
    pub fn unmake_move(&mut self) {
        self.board.unmake_move();
        if let Some(s) = self.saved.pop() {
            self.psq = s.psq;
            self.phase = s.phase;
        }
    }

    /// Pass (null-move pruning); the sums do not change.
    #[inline]
    pub fn make_null(&mut self) {
        self.board.make_null();
    }

    /// Take back `make_null`.
    #[inline]
    pub fn unmake_null(&mut self) {
        self.board.unmake_null();
    }

    /// Mutable access to the board for rules code that makes and takes back
    /// moves of its own (chase and dead-draw tests): it must leave the board
    /// as it found it, or the sums no longer match.
    pub fn board_mut(&mut self) -> &mut Board {
        &mut self.board
    }

    /// Static exchange evaluation with the engine's piece values.
    #[inline]
    pub fn see_ge(&self, mv: Move, threshold: i32) -> bool {
        self.board.see_ge(mv, threshold, &SEE_VALUES)
    }

    /// Static exchange evaluation with the engine's piece values.
    pub fn see(&self, mv: Move) -> i32 {
        self.board.see(mv, &SEE_VALUES)
    }

    /// The incremental sums equal sums computed from scratch. For tests.
    pub fn sums_are_consistent(&self) -> bool {
        sums(&self.board) == (self.psq, self.phase)
    }
}

impl Deref for Position {
    type Target = Board;

    #[inline(always)]
    fn deref(&self) -> &Board {
        &self.board
    }
}

impl From<Board> for Position {
    fn from(board: Board) -> Position {
        Position::new(board)
    }
}

fn sums(board: &Board) -> ([Score; 2], i32) {
    let mut psq_sum = [0; 2];
    let mut phase = 0;
    for i in 0..SQUARES {
        let sq = Square::from_index(i).expect("index below SQUARES");
        if let Some(p) = board.piece_at(sq) {
            psq_sum[p.color().index()] += psq::value(p, sq);
            phase += psq::PHASE_WEIGHT[p.kind().index()];
        }
    }
    (psq_sum, phase)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Walk random legal games (a fixed linear congruential sequence picks
    /// the moves), checking the sums after every make and every unmake.
    #[test]
    fn sums_follow_make_and_unmake() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) as usize % n
        };
        for _ in 0..40 {
            let mut pos = Position::startpos();
            let mut sums_before = Vec::new();
            for _ in 0..150 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves.as_slice()[next(moves.len())];
                sums_before.push((pos.psq, pos.phase));
                pos.make_move(m);
                assert!(pos.sums_are_consistent(), "after {m}");
                if !pos.in_check() && next(4) == 0 {
                    pos.make_null();
                    assert!(pos.sums_are_consistent());
                    pos.unmake_null();
                }
            }
            while let Some(before) = sums_before.pop() {
                pos.unmake_move();
                assert_eq!((pos.psq, pos.phase), before);
                assert!(pos.sums_are_consistent());
            }
            assert_eq!(pos.key(), Board::startpos().key());
        }
    }
}
