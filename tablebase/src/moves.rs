//! Legal moves and predecessors of table positions on the generator's own
//! board ([`crate::geometry`]).

use crate::geometry::{
    EMPTY, SQUARES, color_of, kind_of, king_attacked, piece_moves, piece_unmoves,
};
use crate::index::Pos;
use xiangqi::{Color, PieceKind};

/// One legal move of a position: the board after it, and what it did.
pub struct Succ {
    /// The mailbox after the move.
    pub board: [u8; SQUARES],
    /// Whether it captured.
    pub capture: bool,
    /// Whether it checks the opponent.
    pub check: bool,
}

/// Whether the position is legal: the side not to move is not in check and
/// the kings do not face each other.
pub fn is_legal(pos: &Pos, b: &[u8; SQUARES]) -> bool {
    let them = !pos.side;
    !king_attacked(b, pos.king(them), them)
}

/// Calls `f` for each legal move of the side to move.
pub fn for_each_legal(pos: &Pos, b: &[u8; SQUARES], mut f: impl FnMut(&Succ)) {
    for_each_legal_while(pos, b, |s| {
        f(s);
        true
    });
}

/// Calls `f` for each legal move of the side to move until it returns
/// `false` (the rest of the moves are then not made).
pub fn for_each_legal_while(pos: &Pos, b: &[u8; SQUARES], mut f: impl FnMut(&Succ) -> bool) {
    let mut go = true;
    let us = pos.side;
    let our_king = pos.king(us);
    let their_king = pos.king(!us);
    for i in 0..pos.n {
        if !go {
            return;
        }
        if color_of(pos.code[i]) != us {
            continue;
        }
        let from = usize::from(pos.sq[i]);
        let is_king = kind_of(pos.code[i]) == PieceKind::King;
        piece_moves(b, from, |to| {
            if !go {
                return;
            }
            let mut nb = *b;
            let capture = nb[to] != EMPTY;
            nb[to] = nb[from];
            nb[from] = EMPTY;
            let ks = if is_king { to } else { our_king };
            if king_attacked(&nb, ks, us) {
                return;
            }
            let check = king_attacked(&nb, their_king, !us);
            go = f(&Succ {
                board: nb,
                capture,
                check,
            });
        });
    }
}

/// Calls `f(board)` for each position (with the other side to move than
/// `pos`) from which a legal non-capturing move leads to `pos`.
pub fn for_each_pred(pos: &Pos, b: &[u8; SQUARES], mut f: impl FnMut(&[u8; SQUARES])) {
    let mover: Color = !pos.side;
    let other = pos.side;
    let other_king = pos.king(other);
    for i in 0..pos.n {
        if color_of(pos.code[i]) != mover {
            continue;
        }
        let to = usize::from(pos.sq[i]);
        piece_unmoves(b, to, |from| {
            let mut pb = *b;
            pb[from] = pb[to];
            pb[to] = EMPTY;
            // In the predecessor the side that did not move must not be in
            // check (nor its king face the other).
            if !king_attacked(&pb, other_king, other) {
                f(&pb);
            }
        });
    }
}
