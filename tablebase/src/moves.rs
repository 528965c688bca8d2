//! Legal moves and predecessors of table positions on the generator's own
//! board ([`crate::geometry`]).
//!
//! Two forms: the plain one ([`for_each_legal`], [`for_each_pred`]) hands
//! out a copy of the board after each (un-)move, for a caller to read the
//! position from; the generator's ([`for_each_move_while`],
//! [`for_each_unmove`]) makes each (un-)move on the caller's board and
//! takes it back, and names the piece and squares, so the caller can
//! compute the next index from the current one ([`Indexer::moved`])
//! instead of reading a position from 90 squares and encoding it. The
//! plain form stays as the reference the tests hold the fast one to.

use crate::geometry::{
    EMPTY, SQUARES, color_of, kind_of, king_attacked, may_attack, on_line, piece_moves,
    piece_unmoves, touch_diagonally,
};
use crate::index::{Indexer, Pos};
use xiangqi::{Color, PieceKind};

/// The most squares one piece can move to (a rook or cannon in the open:
/// 8 along its rank, 9 along its file).
const MAX_TARGETS: usize = 17;

/// One legal move of a position (see [`for_each_move_while`]).
#[derive(Clone, Copy, Debug)]
pub struct Move {
    /// The moving piece's place in the [`Pos`].
    pub piece: usize,
    /// Its square before.
    pub from: usize,
    /// Its square after.
    pub to: usize,
    /// The code of the piece taken, or [`EMPTY`].
    pub captured: u8,
    /// Whether it checks (only when asked for; else `false`).
    pub check: bool,
}

/// Calls `f(m, board)` for each legal move `m` of the side to move, with
/// `board` the mailbox after it, until `f` returns `false`. `pos` must be
/// legal (the side not to move not in check); `b` is its mailbox: each
/// move is made on it and taken back (it is as before when this returns).
/// `Move::check` is computed only if `want_check`.
pub fn for_each_move_while(
    pos: &Pos,
    b: &mut [u8; SQUARES],
    want_check: bool,
    mut f: impl FnMut(&Move, &[u8; SQUARES]) -> bool,
) {
    let us = pos.side;
    let our_king = pos.king(us);
    let their_king = pos.king(!us);
    // A move of a piece other than the king leaves its king attacked only
    // through its two squares: a line through `from` opened, a cannon's
    // screen put on `to`, a horse's leg freed on `from`. With the king not
    // in check now and neither square so placed, it is legal unlooked.
    let in_check = king_attacked(b, our_king, us);
    for i in 0..pos.n {
        if color_of(pos.code[i]) != us {
            continue;
        }
        let from = usize::from(pos.sq[i]);
        let kind = kind_of(pos.code[i]);
        let is_king = kind == PieceKind::King;
        let mut targets = [0u8; MAX_TARGETS];
        let mut k = 0;
        piece_moves(b, from, |to| {
            targets[k] = to as u8;
            k += 1;
        });
        let from_exposes =
            in_check || is_king || on_line(our_king, from) || touch_diagonally(our_king, from);
        // Likewise the other king (not in check now: `pos` is legal) is
        // checked only by the piece on `to`, or through `from` or `to`.
        let from_checks = on_line(their_king, from) || touch_diagonally(their_king, from);
        for &to in &targets[..k] {
            let to = usize::from(to);
            let captured = b[to];
            b[to] = b[from];
            b[from] = EMPTY;
            let ks = if is_king { to } else { our_king };
            let exposed = from_exposes || on_line(our_king, to);
            let go = if exposed && king_attacked(b, ks, us) {
                true
            } else {
                let check = want_check
                    && (from_checks || on_line(their_king, to) || may_attack(kind, to, their_king))
                    && king_attacked(b, their_king, !us);
                let m = Move {
                    piece: i,
                    from,
                    to,
                    captured,
                    check,
                };
                f(&m, b)
            };
            b[from] = b[to];
            b[to] = captured;
            if !go {
                return;
            }
        }
    }
}

/// The position after move `m` of `pos` (the other side to move).
pub fn after(pos: &Pos, m: &Move) -> Pos {
    let mut p = *pos;
    p.side = !pos.side;
    p.sq[m.piece] = m.to as u8;
    if m.captured != EMPTY
        && let Some(j) = (0..p.n).find(|&j| j != m.piece && usize::from(p.sq[j]) == m.to)
    {
        p.code.copy_within(j + 1..p.n, j);
        p.sq.copy_within(j + 1..p.n, j);
        p.n -= 1;
    }
    p
}

/// The index after a quiet move `m` of the position `pos` decoded from
/// `idx`: one group ranked again, or (Red's king moving, which may need
/// the mirror) the whole position encoded.
#[inline]
pub fn quiet_successor(ix: &Indexer, idx: u64, pos: &Pos, m: &Move) -> Option<u64> {
    // A decoded position starts with Red's king (see `Indexer::decode`).
    if m.piece == 0 {
        ix.encode(&after(pos, m))
    } else {
        ix.moved(idx, pos, m.piece, m.to)
    }
}

/// Calls `f(i, from)` for each legal non-capturing un-move: piece `i` of
/// the side that just moved (not `pos.side`), among `pieces`, back from
/// its square to the empty square `from`, the predecessor legal (the side
/// to move in `pos` not in check there, nor its king facing the other).
/// `b` is `pos`'s mailbox: each un-move is made on it and taken back.
pub fn for_each_unmove(
    pos: &Pos,
    b: &mut [u8; SQUARES],
    pieces: std::ops::Range<usize>,
    mut f: impl FnMut(usize, usize),
) {
    let mover: Color = !pos.side;
    let other = pos.side;
    let other_king = pos.king(other);
    // The predecessor has the piece on `from` instead of `to`. If the
    // other king is not attacked now, it is there only by that piece from
    // `from`, or through `from` (a cannon's screen) or `to` (a line or a
    // horse's leg freed): elsewhere no look is needed.
    let attacked_now = king_attacked(b, other_king, other);
    for i in pieces {
        if color_of(pos.code[i]) != mover {
            continue;
        }
        let to = usize::from(pos.sq[i]);
        let kind = kind_of(pos.code[i]);
        let mut sources = [0u8; MAX_TARGETS];
        let mut k = 0;
        piece_unmoves(b, to, |from| {
            sources[k] = from as u8;
            k += 1;
        });
        let to_exposes =
            attacked_now || on_line(other_king, to) || touch_diagonally(other_king, to);
        for &from in &sources[..k] {
            let from = usize::from(from);
            let exposed =
                to_exposes || on_line(other_king, from) || may_attack(kind, from, other_king);
            let legal = if exposed {
                b[from] = b[to];
                b[to] = EMPTY;
                let legal = !king_attacked(b, other_king, other);
                b[to] = b[from];
                b[from] = EMPTY;
                legal
            } else {
                true
            };
            if legal {
                f(i, from);
            }
        }
    }
}

/// One legal move of a position in the plain form: the board after it,
/// and what it did.
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

#[cfg(test)]
mod tests {
    //! The generator's moves and un-moves against the plain ones.

    use super::*;

    /// For legal positions sampled over several tables: the same moves
    /// (boards, captures, checks) and predecessors, the positions after
    /// them and their indices.
    #[test]
    fn fast_moves_and_unmoves_equal_the_plain_ones() {
        for name in ["KRvKAABB", "KCAvKAB", "KNPvKB", "KRNvKR", "KPPvKA", "KCvKC"] {
            let ix = Indexer::new(name.parse().unwrap());
            let step = (ix.size() / 4001).max(1);
            let mut seen = 0;
            for idx in (0..ix.size()).step_by(step as usize) {
                let Some(pos) = ix.decode(idx) else { continue };
                let mut b = pos.board();
                if !is_legal(&pos, &b) {
                    continue;
                }
                seen += 1;
                let mut plain = Vec::new();
                for_each_legal(&pos, &b, |s| plain.push((s.board, s.capture, s.check)));
                let mut fast = Vec::new();
                for_each_move_while(&pos, &mut b, true, |m, nb| {
                    let next = after(&pos, m);
                    assert_eq!(next.board(), *nb, "{name} {idx} {m:?}");
                    assert_eq!(next.side, !pos.side);
                    if m.captured == EMPTY {
                        let want = Pos::from_board(nb, !pos.side).and_then(|p| ix.encode(&p));
                        assert_eq!(quiet_successor(&ix, idx, &pos, m), want, "{name} {idx}");
                    }
                    fast.push((*nb, m.captured != EMPTY, m.check));
                    true
                });
                assert_eq!(b, pos.board(), "{name} {idx}: board restored");
                plain.sort_unstable();
                fast.sort_unstable();
                assert_eq!(plain, fast, "{name} {idx}: moves");

                let mut plain = Vec::new();
                for_each_pred(&pos, &b, |pb| plain.push(*pb));
                let mut fast = Vec::new();
                for_each_unmove(&pos, &mut b, 0..pos.n, |i, from| {
                    let mut p = pos;
                    p.sq[i] = from as u8;
                    p.side = !pos.side;
                    let want = if p.king(Color::Red) % 9 > 4 {
                        None
                    } else {
                        ix.encode(&p)
                    };
                    assert_eq!(ix.moved(idx, &pos, i, from), want, "{name} {idx}");
                    fast.push(p.board());
                });
                assert_eq!(b, pos.board(), "{name} {idx}: board restored");
                plain.sort_unstable();
                fast.sort_unstable();
                assert_eq!(plain, fast, "{name} {idx}: un-moves");
            }
            assert!(seen > 500, "{name}: {seen}");
        }
    }
}
