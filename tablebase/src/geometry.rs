//! The small board the generator works on: a mailbox of piece codes, the
//! squares each kind may stand on, pseudo-legal moves, non-capturing
//! un-moves (for the retrograde) and attack tests.
//!
//! It is separate from the `xiangqi` crate's board on purpose: the
//! generator needs un-moves, which that board does not offer, and
//! `tb verify` checks the tables with the `xiangqi` crate's own moves, so
//! a slip here cannot hide itself.
//!
//! A piece code is `xiangqi::Piece::index() + 1` (0 is an empty square);
//! squares are `rank * 9 + file` as in the `xiangqi` crate.

use xiangqi::{Color, PieceKind};

/// Squares on the board.
pub const SQUARES: usize = 90;
/// An empty square in a mailbox.
pub const EMPTY: u8 = 0;

/// The code of a piece of `color` and `kind`.
pub const fn code(color: Color, kind: PieceKind) -> u8 {
    color as u8 * 7 + kind as u8 + 1
}

/// The colour of a (non-empty) piece code.
pub const fn color_of(code: u8) -> Color {
    if code <= 7 { Color::Red } else { Color::Black }
}

/// The kind of a (non-empty) piece code.
pub const fn kind_of(code: u8) -> PieceKind {
    PieceKind::from_index(((code - 1) % 7) as usize)
}

/// The same piece with the other colour.
pub const fn flip_code(code: u8) -> u8 {
    if code <= 7 { code + 7 } else { code - 7 }
}

const fn file(s: usize) -> i32 {
    (s % 9) as i32
}
const fn rank(s: usize) -> i32 {
    (s / 9) as i32
}

/// The square `(file, rank)` if it is on the board.
#[inline]
fn at(f: i32, r: i32) -> Option<usize> {
    if (0..9).contains(&f) && (0..10).contains(&r) {
        Some((r * 9 + f) as usize)
    } else {
        None
    }
}

/// Whether a piece of `color` and `kind` may ever stand on square `s`
/// (kings and advisors in their palace, elephants on their seven points,
/// pawns on their files before the river and anywhere beyond it).
pub fn allowed(color: Color, kind: PieceKind, s: usize) -> bool {
    let f = file(s);
    // Ranks counted from `color`'s own side.
    let r = if color == Color::Red {
        rank(s)
    } else {
        9 - rank(s)
    };
    match kind {
        PieceKind::King => (3..=5).contains(&f) && r <= 2,
        PieceKind::Advisor => {
            matches!((f, r), (3, 0) | (5, 0) | (4, 1) | (3, 2) | (5, 2))
        }
        PieceKind::Elephant => matches!(
            (f, r),
            (2, 0) | (6, 0) | (0, 2) | (4, 2) | (8, 2) | (2, 4) | (6, 4)
        ),
        PieceKind::Pawn => r >= 5 || ((r == 3 || r == 4) && f % 2 == 0),
        _ => true,
    }
}

/// The squares a piece of `color` and `kind` may stand on, in order.
pub fn allowed_squares(color: Color, kind: PieceKind) -> Vec<u8> {
    (0..SQUARES)
        .filter(|&s| allowed(color, kind, s))
        .map(|s| s as u8)
        .collect()
}

const ORTHO: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
/// Horse jumps as (df, dr), with the leg's offset from the horse.
const HORSE: [(i32, i32, i32, i32); 8] = [
    (1, 2, 0, 1),
    (-1, 2, 0, 1),
    (1, -2, 0, -1),
    (-1, -2, 0, -1),
    (2, 1, 1, 0),
    (2, -1, 1, 0),
    (-2, 1, -1, 0),
    (-2, -1, -1, 0),
];

/// Pseudo-legal moves of the piece on `from` (captures of own pieces
/// excluded; whether the mover's king is left attacked is not checked).
/// Calls `out(to)` for each.
pub fn piece_moves(b: &[u8; SQUARES], from: usize, mut out: impl FnMut(usize)) {
    let pc = b[from];
    let color = color_of(pc);
    let kind = kind_of(pc);
    let (f, r) = (file(from), rank(from));
    let mut push = |to: usize| {
        if b[to] == EMPTY || color_of(b[to]) != color {
            out(to);
        }
    };
    match kind {
        PieceKind::King => {
            for (df, dr) in ORTHO {
                if let Some(t) = at(f + df, r + dr).filter(|&t| allowed(color, kind, t)) {
                    push(t);
                }
            }
        }
        PieceKind::Advisor => {
            for (df, dr) in DIAG {
                if let Some(t) = at(f + df, r + dr).filter(|&t| allowed(color, kind, t)) {
                    push(t);
                }
            }
        }
        PieceKind::Elephant => {
            for (df, dr) in DIAG {
                let Some(t) = at(f + 2 * df, r + 2 * dr).filter(|&t| allowed(color, kind, t))
                else {
                    continue;
                };
                if b[(r + dr) as usize * 9 + (f + df) as usize] == EMPTY {
                    push(t);
                }
            }
        }
        PieceKind::Horse => {
            for (df, dr, lf, lr) in HORSE {
                if let Some(t) = at(f + df, r + dr)
                    && b[((r + lr) * 9 + f + lf) as usize] == EMPTY
                {
                    push(t);
                }
            }
        }
        PieceKind::Rook | PieceKind::Cannon => {
            let rook = kind == PieceKind::Rook;
            for (df, dr) in ORTHO {
                let (mut cf, mut cr) = (f + df, r + dr);
                let mut screened = false;
                while let Some(t) = at(cf, cr) {
                    if !screened {
                        if b[t] == EMPTY {
                            push(t);
                        } else if rook {
                            push(t);
                            break;
                        } else {
                            screened = true;
                        }
                    } else if b[t] != EMPTY {
                        push(t);
                        break;
                    }
                    cf += df;
                    cr += dr;
                }
            }
        }
        PieceKind::Pawn => {
            let fwd = if color == Color::Red { 1 } else { -1 };
            if let Some(t) = at(f, r + fwd) {
                push(t);
            }
            let crossed = if color == Color::Red { r >= 5 } else { r <= 4 };
            if crossed {
                for df in [-1, 1] {
                    if let Some(t) = at(f + df, r) {
                        push(t);
                    }
                }
            }
        }
    }
}

/// The squares `from` that the piece now on `to` could have come from with
/// a non-capturing move: `from` empty, the move legal for the piece on the
/// board with `to` emptied. Calls `out(from)` for each.
pub fn piece_unmoves(b: &[u8; SQUARES], to: usize, mut out: impl FnMut(usize)) {
    let pc = b[to];
    let color = color_of(pc);
    let kind = kind_of(pc);
    let (f, r) = (file(to), rank(to));
    match kind {
        // Kings, advisors, elephants and quiet rook and cannon moves are
        // their own reverses.
        PieceKind::King | PieceKind::Advisor | PieceKind::Elephant => {
            piece_moves(b, to, |s| {
                if b[s] == EMPTY {
                    out(s)
                }
            });
        }
        PieceKind::Rook | PieceKind::Cannon => {
            for (df, dr) in ORTHO {
                let (mut cf, mut cr) = (f + df, r + dr);
                while let Some(t) = at(cf, cr) {
                    if b[t] != EMPTY {
                        break;
                    }
                    out(t);
                    cf += df;
                    cr += dr;
                }
            }
        }
        PieceKind::Horse => {
            // The leg is next to the square the horse left.
            for (df, dr, lf, lr) in HORSE {
                if let Some(s) = at(f - df, r - dr)
                    && b[s] == EMPTY
                    && b[((r - dr + lr) * 9 + f - df + lf) as usize] == EMPTY
                {
                    out(s);
                }
            }
        }
        PieceKind::Pawn => {
            let fwd = if color == Color::Red { 1 } else { -1 };
            if let Some(s) = at(f, r - fwd)
                && b[s] == EMPTY
                && allowed(color, kind, s)
            {
                out(s);
            }
            let crossed = if color == Color::Red { r >= 5 } else { r <= 4 };
            if crossed {
                for df in [-1, 1] {
                    if let Some(s) = at(f + df, r)
                        && b[s] == EMPTY
                    {
                        out(s);
                    }
                }
            }
        }
    }
}

/// Whether the king of `color` on `ks` is attacked by an enemy piece, or
/// faces the enemy king on an open file (which makes a position illegal
/// just as a check on the side not to move does).
pub fn king_attacked(b: &[u8; SQUARES], ks: usize, color: Color) -> bool {
    let them = !color;
    let (f, r) = (file(ks), rank(ks));
    let rook = code(them, PieceKind::Rook);
    let cannon = code(them, PieceKind::Cannon);
    let king = code(them, PieceKind::King);
    for (df, dr) in ORTHO {
        let (mut cf, mut cr) = (f + df, r + dr);
        let mut screened = false;
        while let Some(t) = at(cf, cr) {
            let p = b[t];
            if p != EMPTY {
                if screened {
                    if p == cannon {
                        return true;
                    }
                    break;
                }
                if p == rook || (p == king && df == 0) {
                    return true;
                }
                screened = true;
            }
            cf += df;
            cr += dr;
        }
    }
    let horse = code(them, PieceKind::Horse);
    for (df, dr, lf, lr) in HORSE {
        // A horse at ks - (df, dr) jumps onto ks if its leg is empty.
        if let Some(s) = at(f - df, r - dr)
            && b[s] == horse
            && b[((r - dr + lr) * 9 + f - df + lf) as usize] == EMPTY
        {
            return true;
        }
    }
    let pawn = code(them, PieceKind::Pawn);
    // An enemy pawn attacks from one step ahead of the king (its forward
    // move) or beside it (kings stand in their own half, which enemy pawns
    // have crossed into).
    let ahead = if color == Color::Red { 1 } else { -1 };
    [(0, ahead), (1, 0), (-1, 0)]
        .iter()
        .any(|&(df, dr)| at(f + df, r + dr).is_some_and(|s| b[s] == pawn))
}

/// Whether squares `a` and `b` share a file or a rank.
#[inline]
pub fn on_line(a: usize, b: usize) -> bool {
    a % 9 == b % 9 || a / 9 == b / 9
}

/// Whether `a` and `b` touch diagonally: the legs of every horse jump
/// onto `a` are the squares touching it so.
#[inline]
pub fn touch_diagonally(a: usize, b: usize) -> bool {
    file(a).abs_diff(file(b)) == 1 && rank(a).abs_diff(rank(b)) == 1
}

/// Whether a piece of `kind` on `s` might attack a king on `k` on some
/// board (true when unsure): kings, rooks and cannons along a line,
/// horses a jump away, pawns next to it; advisors and elephants never.
#[inline]
pub fn may_attack(kind: PieceKind, s: usize, k: usize) -> bool {
    let (df, dr) = (file(s).abs_diff(file(k)), rank(s).abs_diff(rank(k)));
    match kind {
        PieceKind::King | PieceKind::Rook | PieceKind::Cannon => df == 0 || dr == 0,
        PieceKind::Horse => (df == 1 && dr == 2) || (df == 2 && dr == 1),
        PieceKind::Pawn => df + dr == 1,
        PieceKind::Advisor | PieceKind::Elephant => false,
    }
}
