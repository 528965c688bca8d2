//! Attacks on the king: check detection ([`Board::in_check`],
//! [`Board::checkers`]), legality of pseudo-legal moves ([`Board::is_legal`],
//! [`Board::pins`]) and whether a move gives check ([`Board::gives_check`]).
//!
//! All tests look outward from the king, reading the mailbox through a
//! closure, so a move can be tested without making it: the closure shows the
//! moved piece on its target and an empty origin, and the occupancy bits of
//! the king's rank and file are adjusted the same way.

use super::geometry::{FILE_VIEW, HORSE_ATTACKERS, PAWN_ATTACKERS, RANK_VIEW, line_bits};
use super::{Board, CELL_PIECE, EMPTY};
use crate::types::{Color, FILES, Move, Piece, PieceKind, Square};

#[inline(always)]
fn code(color: Color, kind: PieceKind) -> u8 {
    Piece::new(color, kind).index() as u8
}

/// Low-level: what [`Board::pins`] found in one position, which pseudo-legal
/// moves need the full legality test. Pass it to [`Board::is_legal_with`] to
/// test many moves of that position. Opaque: valid only for the position it
/// was computed in (the same board, no move made since).
pub struct Pins {
    ksq: usize,
    /// Origins that need the test (bit per square).
    from_mask: u128,
    /// Targets that need the test.
    to_mask: u128,
}

/// Positions of the lowest three set bits.
#[inline(always)]
fn lowest3(mut m: u32) -> [Option<usize>; 3] {
    let mut out = [None; 3];
    for slot in out.iter_mut() {
        if m == 0 {
            break;
        }
        *slot = Some(m.trailing_zeros() as usize);
        m &= m - 1;
    }
    out
}

/// Positions of the highest three set bits.
#[inline(always)]
fn highest3(mut m: u32) -> [Option<usize>; 3] {
    let mut out = [None; 3];
    for slot in out.iter_mut() {
        if m == 0 {
            break;
        }
        let b = 31 - m.leading_zeros() as usize;
        *slot = Some(b);
        m &= !(1 << b);
    }
    out
}

impl Board {
    /// Is the king on `ksq` attacked by `them`? `rank_bits` and `file_bits`
    /// are the occupancy of the king's rank and file, `cell` reads the board.
    /// Kings facing each other on an open file count as an attack.
    #[inline(always)]
    fn king_attacked_view(
        ksq: usize,
        them: Color,
        rank_bits: u16,
        file_bits: u16,
        cell: impl Fn(usize) -> u8,
    ) -> bool {
        let (kf, kr) = (ksq % FILES, ksq / FILES);
        let rook = code(them, PieceKind::Rook);
        let cannon = code(them, PieceKind::Cannon);
        let king = code(them, PieceKind::King);
        let piece = |s: usize| CELL_PIECE[cell(s) as usize];

        let fv = &FILE_VIEW[kr][file_bits as usize];
        for r in line_bits(fv.first) {
            let p = piece(r * FILES + kf);
            if p == rook || p == king {
                return true;
            }
        }
        for r in line_bits(fv.second) {
            if piece(r * FILES + kf) == cannon {
                return true;
            }
        }
        let rv = &RANK_VIEW[kf][rank_bits as usize];
        for f in line_bits(rv.first) {
            if piece(kr * FILES + f) == rook {
                return true;
            }
        }
        for f in line_bits(rv.second) {
            if piece(kr * FILES + f) == cannon {
                return true;
            }
        }
        let horse = code(them, PieceKind::Horse);
        for (from, leg) in HORSE_ATTACKERS[ksq].iter() {
            if piece(from) == horse && cell(leg) == EMPTY {
                return true;
            }
        }
        let pawn = code(them, PieceKind::Pawn);
        for (from, _) in PAWN_ATTACKERS[them.index()][ksq].iter() {
            if piece(from) == pawn {
                return true;
            }
        }
        false
    }

    /// Is `color`'s king attacked (including by the facing enemy king)?
    /// Computed afresh; [`Board::in_check`] is the cheap test for the side to
    /// move.
    pub fn is_in_check(&self, color: Color) -> bool {
        let ksq = self.king_square(color);
        Self::king_attacked_view(
            ksq.index(),
            color.flip(),
            self.rank_occ(ksq.rank()),
            self.file_occ(ksq.file()),
            |s| self.cell(s),
        )
    }

    /// Would `color`'s king be attacked if the piece on `sq` were removed?
    /// (Pieces for which this is true shield the king: pinned pieces of its
    /// own side, pieces of the other side that can give discovered check.)
    pub fn king_exposed_without(&self, color: Color, sq: Square) -> bool {
        let ksq = self.king_square(color);
        let s = sq.index();
        let mut rank_bits = self.rank_occ(ksq.rank());
        let mut file_bits = self.file_occ(ksq.file());
        if sq.rank() == ksq.rank() {
            rank_bits &= !(1 << sq.file());
        }
        if sq.file() == ksq.file() {
            file_bits &= !(1 << sq.rank());
        }
        Self::king_attacked_view(ksq.index(), color.flip(), rank_bits, file_bits, |x| {
            if x == s { EMPTY } else { self.cell(x) }
        })
    }

    /// Is the side to move in check? Known without a test after `make_move`
    /// (which records it) and after a null move (never made in check).
    #[inline]
    pub fn in_check(&self) -> bool {
        match self.history().last() {
            Some(u) => u.gave_check(),
            None => self.is_in_check(self.side_to_move()),
        }
    }

    /// Squares of the pieces giving check to the side to move (the facing
    /// enemy king included). Not for hot paths.
    pub fn checkers(&self) -> Vec<Square> {
        let us = self.side_to_move();
        let ksq = self.king_square(us).index();
        (0..crate::types::SQUARES)
            .filter(|&s| {
                let c = self.cell(s);
                c != EMPTY && c & super::color_bit(us) == 0 && self.piece_attacks_king(s, ksq)
            })
            .map(Square::from_index_unchecked)
            .collect()
    }

    /// Does the piece on `s` attack the king on `ksq` right now?
    fn piece_attacks_king(&self, s: usize, ksq: usize) -> bool {
        let c = self.cell(s);
        if c == EMPTY {
            return false;
        }
        let p = super::piece_of_id(c);
        let between = |a: usize, b: usize| -> Option<u32> {
            let (af, ar, bf, br) = (a % FILES, a / FILES, b % FILES, b / FILES);
            if ar == br {
                let (lo, hi) = (af.min(bf), af.max(bf));
                let mask = ((1u16 << hi) - 1) & !((1u16 << (lo + 1)) - 1);
                Some((self.rank_occ(ar) & mask).count_ones())
            } else if af == bf {
                let (lo, hi) = (ar.min(br), ar.max(br));
                let mask = ((1u16 << hi) - 1) & !((1u16 << (lo + 1)) - 1);
                Some((self.file_occ(af) & mask).count_ones())
            } else {
                None
            }
        };
        match p.kind() {
            PieceKind::Rook => between(s, ksq) == Some(0),
            PieceKind::King => s % FILES == ksq % FILES && between(s, ksq) == Some(0),
            PieceKind::Cannon => between(s, ksq) == Some(1),
            PieceKind::Horse => HORSE_ATTACKERS[ksq]
                .iter()
                .any(|(from, leg)| from == s && self.cell(leg) == EMPTY),
            PieceKind::Pawn => PAWN_ATTACKERS[p.color().index()][ksq]
                .iter()
                .any(|(from, _)| from == s),
            _ => false,
        }
    }

    /// Would the king on `ksq` be attacked by `attacker` after the
    /// pseudo-legal move `from -> to`? Reads the board as it would be after
    /// the move.
    #[inline(always)]
    fn attacked_after(&self, from: usize, to: usize, ksq: usize, attacker: Color) -> bool {
        let mover = self.cell(from);
        let (kf, kr) = (ksq % FILES, ksq / FILES);
        let mut rank_bits = self.rank_occ(kr);
        let mut file_bits = self.file_occ(kf);
        if from / FILES == kr {
            rank_bits &= !(1 << (from % FILES));
        }
        if from % FILES == kf {
            file_bits &= !(1 << (from / FILES));
        }
        if to / FILES == kr {
            rank_bits |= 1 << (to % FILES);
        }
        if to % FILES == kf {
            file_bits |= 1 << (to / FILES);
        }
        Self::king_attacked_view(ksq, attacker, rank_bits, file_bits, |s| {
            if s == from {
                EMPTY
            } else if s == to {
                mover
            } else {
                self.cell(s)
            }
        })
    }

    /// Is the pseudo-legal move `mv` legal (does it keep the mover's king
    /// out of attack, the facing kings rule included)? Only for moves that
    /// [`Board::is_pseudo_legal`] accepts; [`Board::is_legal_move`] takes any
    /// move.
    #[inline]
    pub fn is_legal(&self, mv: Move) -> bool {
        self.is_legal_with(mv, &self.pins())
    }

    /// Which moves need the full legality test in this position.
    ///
    /// Out of check, a move can expose the king only if it moves the king,
    /// moves a piece that shields the king (the first piece on a line with an
    /// enemy rook or king behind it, either of the two pieces in front of an
    /// enemy cannon, a piece on the leg of an enemy horse aimed at the king),
    /// or moves onto the empty stretch between the king and an enemy cannon.
    /// In check every move gets the full test.
    pub fn pins(&self) -> Pins {
        let us = self.side_to_move();
        let ksq = self.king_square(us).index();
        if self.in_check() {
            return Pins {
                ksq,
                from_mask: !0,
                to_mask: 0,
            };
        }
        let them = us.flip();
        let ours = super::color_bit(us);
        let rook = code(them, PieceKind::Rook);
        let cannon = code(them, PieceKind::Cannon);
        let king = code(them, PieceKind::King);
        let mut from_mask: u128 = 1 << ksq;
        let mut to_mask: u128 = 0;
        let (kf, kr) = (ksq % FILES, ksq / FILES);

        // One ray: squares of the first three pieces outward from the king.
        let mut ray = |hits: [Option<usize>; 3], on_file: bool, step: isize| {
            let [f1, f2, f3] = hits;
            let Some(f1) = f1 else { return };
            let piece = |s: Option<usize>| {
                s.map_or(Piece::COUNT as u8, |s| CELL_PIECE[self.cell(s) as usize])
            };
            let mine = |s: usize| self.cell(s) & ours != 0;
            let (p2, p3) = (piece(f2), piece(f3));
            if mine(f1) && (p2 == rook || (on_file && p2 == king) || p3 == cannon) {
                from_mask |= 1 << f1;
            }
            if let Some(f2) = f2
                && mine(f2)
                && p3 == cannon
            {
                from_mask |= 1 << f2;
            }
            if piece(Some(f1)) == cannon {
                let mut s = ksq as isize + step;
                while s != f1 as isize {
                    to_mask |= 1 << s;
                    s += step;
                }
            }
        };
        let file_occ = self.file_occ(kf) as u32;
        let rank_occ = self.rank_occ(kr) as u32;
        let up = file_occ & !((2u32 << kr) - 1);
        let down = file_occ & ((1u32 << kr) - 1);
        let right = rank_occ & !((2u32 << kf) - 1);
        let left = rank_occ & ((1u32 << kf) - 1);
        ray(
            lowest3(up).map(|r| r.map(|r| r * FILES + kf)),
            true,
            FILES as isize,
        );
        ray(
            highest3(down).map(|r| r.map(|r| r * FILES + kf)),
            true,
            -(FILES as isize),
        );
        ray(lowest3(right).map(|f| f.map(|f| kr * FILES + f)), false, 1);
        ray(highest3(left).map(|f| f.map(|f| kr * FILES + f)), false, -1);

        // Our pieces on the legs of enemy horses aimed at the king.
        let horse = code(them, PieceKind::Horse);
        for (from, leg) in HORSE_ATTACKERS[ksq].iter() {
            if CELL_PIECE[self.cell(from) as usize] == horse && self.cell(leg) & ours != 0 {
                from_mask |= 1 << leg;
            }
        }
        Pins {
            ksq,
            from_mask,
            to_mask,
        }
    }

    /// Low-level: [`Board::is_legal`] with the position's [`Board::pins`]
    /// already computed, for testing many moves of one position (as
    /// [`Board::legal_moves`] does). `pins` must come from this position;
    /// `mv` must be pseudo-legal in it.
    #[inline(always)]
    pub fn is_legal_with(&self, mv: Move, pins: &Pins) -> bool {
        let from = mv.from().index();
        let to = mv.to().index();
        if (pins.from_mask >> from | pins.to_mask >> to) & 1 == 0 {
            return true;
        }
        let ksq = if from == pins.ksq { to } else { pins.ksq };
        !self.attacked_after(from, to, ksq, self.side_to_move().flip())
    }

    /// Does the legal move `mv` give check (the facing kings included)?
    pub fn gives_check(&self, mv: Move) -> bool {
        let us = self.side_to_move();
        let ksq = self.king_square(us.flip()).index();
        let (from, to) = (mv.from().index(), mv.to().index());
        self.may_give_check(from, to, ksq, us) && self.attacked_after(from, to, ksq, us)
    }

    /// A necessary condition for `from -> to` to check the king on `ksq`,
    /// cheap enough to spare most moves the full test (the search asks it of
    /// nearly every late quiet move). A check needs a piece to arrive on or
    /// leave the king's rank or file (a rook, cannon, pawn or the other king
    /// arriving; a screen arriving or leaving; a blocker leaving), to leave a
    /// square diagonally next to the king (the leg of a horse aimed at it), or
    /// a horse to arrive where it attacks the king. Advisors and elephants
    /// never attack the other king.
    #[inline(always)]
    fn may_give_check(&self, from: usize, to: usize, ksq: usize, us: Color) -> bool {
        let (kf, kr) = (ksq % FILES, ksq / FILES);
        let on_line = |s: usize| s % FILES == kf || s / FILES == kr;
        if on_line(from) || on_line(to) {
            return true;
        }
        if (from % FILES).abs_diff(kf) == 1 && (from / FILES).abs_diff(kr) == 1 {
            return true;
        }
        let (df, dr) = ((to % FILES).abs_diff(kf), (to / FILES).abs_diff(kr));
        df + dr == 3
            && df != 0
            && dr != 0
            && CELL_PIECE[self.cell(from) as usize] == code(us, PieceKind::Horse)
    }
}
