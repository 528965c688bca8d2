//! Static evaluation, from the side to move's point of view.
//!
//! The board keeps material plus piece-square sums incrementally as packed
//! (middlegame, endgame) pairs; the evaluation tapers them by the phase.

pub mod psq;

use crate::board::Board;
use crate::types::{Color, Score};

/// Bonus for having the move.
const TEMPO: Score = 10;

/// Taper a packed score by the game phase of the board.
#[inline(always)]
fn taper(board: &Board, packed: Score) -> Score {
    let phase = board.phase().min(psq::MAX_PHASE);
    (psq::mg(packed) * phase + psq::eg(packed) * (psq::MAX_PHASE - phase)) / psq::MAX_PHASE
}

/// Evaluation from Red's point of view, without the tempo bonus.
pub fn evaluate_red(board: &Board) -> Score {
    let packed = board.psq(Color::Red).wrapping_sub(board.psq(Color::Black));
    taper(board, packed)
}

/// Evaluation from the side to move's point of view.
#[inline]
pub fn evaluate(board: &Board) -> Score {
    let v = evaluate_red(board);
    let v = if board.side_to_move() == Color::Red {
        v
    } else {
        -v
    };
    v + TEMPO
}

/// A human-readable breakdown for the `eval` command.
pub fn trace(board: &Board) -> String {
    let mut out = String::new();
    for c in Color::BOTH {
        let p = board.psq(c);
        out.push_str(&format!(
            "{:<6} material+psq  mg {:>6}  eg {:>6}\n",
            c.name(),
            psq::mg(p),
            psq::eg(p)
        ));
    }
    out.push_str(&format!(
        "phase {} of {}\nfinal evaluation {} (red side), {} (side to move)\n",
        board.phase(),
        psq::MAX_PHASE,
        evaluate_red(board),
        evaluate(board)
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced() {
        let b = Board::startpos();
        assert_eq!(evaluate_red(&b), 0);
        assert_eq!(evaluate(&b), TEMPO);
    }

    #[test]
    fn mirrored_and_colour_flipped_positions_agree() {
        let b = Board::from_fen("2bak4/4a4/4b1n2/p1p1p3p/9/2P3p2/P3P3P/4B1N2/4A4/2BAK4 w").unwrap();
        assert_eq!(evaluate_red(&b), evaluate_red(&b.mirrored()));
    }

    #[test]
    fn extra_rook_is_winning() {
        let b = Board::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w").unwrap();
        assert!(evaluate(&b) > 800);
    }
}
