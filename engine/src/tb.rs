//! Endgame tables in the search: the exact score of a table position, and
//! the root moves that keep the table's value.
//!
//! A table win `d` plies from mate scores `SCORE_TB_WIN - d`, a loss the
//! negation, a draw 0: below the mate range (the search's own mates stay
//! exact and preferred), above every evaluation (`NNUE_EVAL_LIMIT` is
//! below `SCORE_TB_WIN_MIN`), and a shorter mate scores higher. The score
//! does not depend on the ply, so the transposition table stores it as it
//! is; the root keeps only the moves that keep the value (the fastest win,
//! the slowest loss), so the game is won in the promised plies even where
//! scores from different plies tie.

use crate::score::{SCORE_DRAW, SCORE_TB_WIN, Score, TB_DTM_CAP};
use jiangjun_tablebase::value::{dtm, is_loss, is_win};
pub use jiangjun_tablebase::{Probe, Tablebases};
use xiangqi::board::Board;
use xiangqi::types::{Color, Move, PieceKind};

/// The search score of a table value (from the side to move's view). A
/// loss in `d` is the negation of the win in `d + 1` its parent has, so a
/// probe one ply down agrees with a probe here.
pub fn score_of(p: &Probe) -> Score {
    let d = |v| Score::from(dtm(v)).min(TB_DTM_CAP - 1);
    if is_win(p.value) {
        SCORE_TB_WIN - d(p.value)
    } else if is_loss(p.value) {
        -(SCORE_TB_WIN - d(p.value) - 1)
    } else {
        SCORE_DRAW
    }
}

/// Pieces on the board, kings included (counted only when tables are
/// loaded, so a search without them pays nothing).
fn pieces(board: &Board) -> usize {
    [Color::Red, Color::Black]
        .iter()
        .flat_map(|&c| PieceKind::ALL.iter().map(move |&k| board.count(c, k)))
        .sum()
}

/// The score of `board` if it is in the tables. A damaged block reads as
/// not in the tables (the damage was checked for when the tables were
/// opened; this is only a guard).
pub fn probe(tb: &Tablebases, board: &Board) -> Option<Score> {
    if pieces(board) > tb.max_pieces() {
        return None;
    }
    match tb.probe(board)? {
        Ok(p) => Some(score_of(&p)),
        Err(_) => None,
    }
}

/// The moves of `board` a root may keep, if it is in the tables: every
/// move as good as the best by the tables.
pub fn root_moves(tb: &Tablebases, board: &Board) -> Option<Vec<Move>> {
    if pieces(board) > tb.max_pieces() {
        return None;
    }
    match tb.best_moves(board)? {
        Ok((_, moves)) if !moves.is_empty() => Some(moves),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{SCORE_MATE_IN_MAX, SCORE_TB_WIN_MIN};
    use jiangjun_tablebase::Wdl;
    use jiangjun_tablebase::value::mate_in;

    fn probe_of(d: u16) -> Probe {
        let value = mate_in(d);
        let (wdl, dtm) = jiangjun_tablebase::value::unpack(value);
        Probe { wdl, dtm, value }
    }

    #[test]
    fn scores_lie_between_evaluations_and_mates() {
        for d in 0..600 {
            let p = probe_of(d);
            let s = score_of(&p);
            assert!(
                s.abs() < SCORE_MATE_IN_MAX && s.abs() >= SCORE_TB_WIN_MIN,
                "{d}: {s}"
            );
            assert_eq!(s > 0, p.wdl == Wdl::Win);
            if d % 2 == 0 && d < 400 {
                // The parent of a loss in d is a win in d + 1.
                assert_eq!(-s, score_of(&probe_of(d + 1)));
            }
        }
        assert!(score_of(&probe_of(1)) > score_of(&probe_of(3)));
        assert!(score_of(&probe_of(2)) > score_of(&probe_of(0)));
        const { assert!(crate::position::NNUE_EVAL_LIMIT < SCORE_TB_WIN_MIN) };
    }
}
