//! Move generation: legal moves ([`Board::legal_moves`]), pseudo-legal
//! captures and quiet moves (separately, for a search), and a
//! pseudo-legality test for moves from elsewhere (a transposition table,
//! killer slots): [`Board::is_pseudo_legal`].
//!
//! A pseudo-legal move follows the piece's movement rules (right piece,
//! right geometry, path clear, target empty or enemy) but may leave the
//! mover's king attacked; a legal move does not.

use super::geometry::{
    ADVISOR_STEPS, ELEPHANT_STEPS, FILE_VIEW, HORSE_STEPS, KING_STEPS, PAWN_STEPS, RANK_VIEW, Steps,
};
use super::{Board, CELL_PIECE, EMPTY, NO_SQUARE, SLOT_RANGE, color_bit, id_base};
use crate::types::{FILES, Move, PieceKind, Square};

/// Enough for any position: the most pseudo-legal moves one side can have is
/// below 120 (2 rooks 34, 2 cannons 34, 2 horses 16, 5 pawns 15, advisors,
/// elephants and king 20).
pub const MAX_MOVES: usize = 128;

/// A fixed-capacity list of moves (at most [`MAX_MOVES`]), kept on the stack.
///
/// ```
/// use xiangqi::Board;
///
/// let board = Board::startpos();
/// let moves = board.legal_moves();
/// assert_eq!(moves.len(), 44);
/// assert!(moves.iter().any(|m| m.to_string() == "h2e2"));
/// ```
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    /// An empty list.
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move::NONE; MAX_MOVES],
            len: 0,
        }
    }

    /// Add a move at the end; ignored if the list is full (which move
    /// generation never makes it for a valid position).
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        // The capacity bound above makes this never overflow for a valid position.
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Is the list empty?
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Remove all moves.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The moves, in order.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves, in order, by value.
    pub fn iter(&self) -> impl Iterator<Item = Move> + '_ {
        self.as_slice().iter().copied()
    }

    /// Is `m` in the list?
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    /// Keep only the moves for which `f` is true (order kept).
    #[inline(always)]
    pub fn retain(&mut self, mut f: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if f(m) {
                self.moves[j] = m;
                j += 1;
            }
        }
        self.len = j;
    }
}

impl IntoIterator for MoveList {
    type Item = Move;
    type IntoIter = MoveListIntoIter;

    /// The moves, in order, by value.
    ///
    /// ```
    /// use xiangqi::{Board, Move};
    ///
    /// let board = Board::startpos();
    /// let mut count = 0;
    /// for mv in board.legal_moves() {
    ///     assert!(board.is_legal_move(mv));
    ///     count += 1;
    /// }
    /// assert_eq!(count, 44);
    /// let moves: Vec<Move> = board.legal_moves().into_iter().collect();
    /// assert_eq!(moves.len(), 44);
    /// ```
    fn into_iter(self) -> MoveListIntoIter {
        MoveListIntoIter {
            list: self,
            next: 0,
        }
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = Move;
    type IntoIter = std::iter::Copied<std::slice::Iter<'a, Move>>;

    /// The moves, in order, by value (as [`MoveList::iter`]).
    ///
    /// ```
    /// use xiangqi::Board;
    ///
    /// let board = Board::startpos();
    /// let moves = board.legal_moves();
    /// let mut captures = 0;
    /// for mv in &moves {
    ///     captures += usize::from(board.piece_at(mv.to()).is_some());
    /// }
    /// assert_eq!(captures, 2); // the cannons take the horses
    /// assert_eq!(moves.len(), 44); // still there
    /// ```
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter().copied()
    }
}

/// The moves of a [`MoveList`] taken by value (`for mv in board.legal_moves()`).
#[derive(Clone)]
pub struct MoveListIntoIter {
    list: MoveList,
    next: usize,
}

impl Iterator for MoveListIntoIter {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        let mv = self.list.as_slice().get(self.next).copied()?;
        self.next += 1;
        Some(mv)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.list.len() - self.next;
        (left, Some(left))
    }
}

impl ExactSizeIterator for MoveListIntoIter {}

impl std::fmt::Debug for MoveList {
    /// The moves as a list, `[h2e2, h9g7]`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// Which moves to generate.
const CAPTURES: u8 = 1;
const QUIETS: u8 = 2;
const ALL: u8 = CAPTURES | QUIETS;

#[inline(always)]
fn for_bits(mut m: u16, mut f: impl FnMut(usize)) {
    while m != 0 {
        f(m.trailing_zeros() as usize);
        m &= m - 1;
    }
}

impl Board {
    #[inline(always)]
    fn gen_steps<const MODE: u8>(
        &self,
        list: &mut impl FnMut(Move),
        from: usize,
        steps: &Steps,
        blockable: bool,
        opp: u8,
    ) {
        let f = Square::from_index_unchecked(from);
        for (to, via) in steps.iter() {
            if blockable && self.cell(via) != EMPTY {
                continue;
            }
            let c = self.cell(to);
            if c == EMPTY {
                if MODE & QUIETS != 0 {
                    list(Move::new(f, Square::from_index_unchecked(to)));
                }
            } else if c & opp != 0 && MODE & CAPTURES != 0 {
                list(Move::new(f, Square::from_index_unchecked(to)));
            }
        }
    }

    #[inline(always)]
    fn gen_slider<const MODE: u8>(
        &self,
        list: &mut impl FnMut(Move),
        from: usize,
        cannon: bool,
        opp: u8,
    ) {
        let (ff, fr) = (from % FILES, from / FILES);
        let f = Square::from_index_unchecked(from);
        let rv = &RANK_VIEW[ff][self.rank_occ(fr) as usize];
        let fv = &FILE_VIEW[fr][self.file_occ(ff) as usize];
        if MODE & CAPTURES != 0 {
            let (rc, fc) = if cannon {
                (rv.second, fv.second)
            } else {
                (rv.first, fv.first)
            };
            for_bits(rc, |x| {
                let to = fr * FILES + x;
                if self.cell(to) & opp != 0 {
                    list(Move::new(f, Square::from_index_unchecked(to)));
                }
            });
            for_bits(fc, |x| {
                let to = x * FILES + ff;
                if self.cell(to) & opp != 0 {
                    list(Move::new(f, Square::from_index_unchecked(to)));
                }
            });
        }
        if MODE & QUIETS != 0 {
            for_bits(rv.quiet, |x| {
                list(Move::new(f, Square::from_index_unchecked(fr * FILES + x)));
            });
            for_bits(fv.quiet, |x| {
                list(Move::new(f, Square::from_index_unchecked(x * FILES + ff)));
            });
        }
    }

    fn generate<const MODE: u8>(&self, list: &mut impl FnMut(Move)) {
        let us = self.side_to_move();
        let opp = color_bit(us.flip());
        let base = id_base(us);
        let squares = |kind: PieceKind| {
            let (lo, hi) = SLOT_RANGE[kind.index()];
            (base + lo..base + hi)
                .map(|id| self.piece_square_of_id(id))
                .filter(|&s| s != NO_SQUARE)
                .map(|s| s as usize)
        };
        for s in squares(PieceKind::Rook) {
            self.gen_slider::<MODE>(list, s, false, opp);
        }
        for s in squares(PieceKind::Cannon) {
            self.gen_slider::<MODE>(list, s, true, opp);
        }
        for s in squares(PieceKind::Horse) {
            self.gen_steps::<MODE>(list, s, &HORSE_STEPS[s], true, opp);
        }
        let pawn_steps = &PAWN_STEPS[us.index()];
        for s in squares(PieceKind::Pawn) {
            self.gen_steps::<MODE>(list, s, &pawn_steps[s], false, opp);
        }
        for s in squares(PieceKind::Advisor) {
            self.gen_steps::<MODE>(list, s, &ADVISOR_STEPS[s], false, opp);
        }
        for s in squares(PieceKind::Elephant) {
            self.gen_steps::<MODE>(list, s, &ELEPHANT_STEPS[s], true, opp);
        }
        for s in squares(PieceKind::King) {
            self.gen_steps::<MODE>(list, s, &KING_STEPS[s], false, opp);
        }
    }

    /// Append the pseudo-legal captures (they may leave the king attacked).
    pub fn gen_captures(&self, list: &mut MoveList) {
        self.generate::<CAPTURES>(&mut |m| list.push(m));
    }

    /// Append the pseudo-legal non-captures.
    pub fn gen_quiets(&self, list: &mut MoveList) {
        self.generate::<QUIETS>(&mut |m| list.push(m));
    }

    /// Append all pseudo-legal moves.
    pub fn gen_pseudo_legal(&self, list: &mut MoveList) {
        self.generate::<ALL>(&mut |m| list.push(m));
    }

    /// All legal moves, captures first. Empty when the side to move is
    /// mated or stalemated (both lose in Xiangqi).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        let pins = self.pins();
        let mut sink = |m| {
            if self.is_legal_with(m, &pins) {
                list.push(m)
            }
        };
        self.generate::<CAPTURES>(&mut sink);
        self.generate::<QUIETS>(&mut sink);
        list
    }

    /// Legal captures only.
    pub fn legal_captures(&self) -> MoveList {
        let mut list = MoveList::new();
        let pins = self.pins();
        self.generate::<CAPTURES>(&mut |m| {
            if self.is_legal_with(m, &pins) {
                list.push(m)
            }
        });
        list
    }

    /// Does the side to move have any legal move?
    pub fn has_legal_move(&self) -> bool {
        self.count_legal() > 0
    }

    /// Number of legal moves, counted without storing them.
    pub fn count_legal(&self) -> usize {
        let pins = self.pins();
        let mut n = 0;
        self.generate::<ALL>(&mut |m| n += self.is_legal_with(m, &pins) as usize);
        n
    }

    /// Is `mv` a pseudo-legal move here (right piece, right geometry, path
    /// clear, target empty or enemy)? Any move value is accepted.
    pub fn is_pseudo_legal(&self, mv: Move) -> bool {
        if mv.is_none() {
            return false;
        }
        let from = mv.from().index();
        let to = mv.to().index();
        let us = self.side_to_move();
        let id = self.cell(from);
        if id & color_bit(us) == 0 {
            return false;
        }
        let target = self.cell(to);
        if target & color_bit(us) != 0 {
            return false;
        }
        let kind = PieceKind::from_index(CELL_PIECE[id as usize] as usize % 7);
        let step = |steps: &Steps, blockable: bool| {
            steps
                .iter()
                .any(|(t, via)| t == to && (!blockable || self.cell(via) == EMPTY))
        };
        match kind {
            PieceKind::King => step(&KING_STEPS[from], false),
            PieceKind::Advisor => step(&ADVISOR_STEPS[from], false),
            PieceKind::Elephant => step(&ELEPHANT_STEPS[from], true),
            PieceKind::Horse => step(&HORSE_STEPS[from], true),
            PieceKind::Pawn => step(&PAWN_STEPS[us.index()][from], false),
            PieceKind::Rook | PieceKind::Cannon => {
                let (ff, fr, tf, tr) = (from % FILES, from / FILES, to % FILES, to / FILES);
                let view = if fr == tr {
                    let v = &RANK_VIEW[ff][self.rank_occ(fr) as usize];
                    (v.quiet >> tf & 1, v.first >> tf & 1, v.second >> tf & 1)
                } else if ff == tf {
                    let v = &FILE_VIEW[fr][self.file_occ(ff) as usize];
                    (v.quiet >> tr & 1, v.first >> tr & 1, v.second >> tr & 1)
                } else {
                    return false;
                };
                if target == EMPTY {
                    view.0 == 1
                } else if kind == PieceKind::Rook {
                    view.1 == 1
                } else {
                    view.2 == 1
                }
            }
        }
    }
}
