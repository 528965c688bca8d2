//! The [`Board`]: a position with its move history.
//!
//! Most users need only [`Board::from_fen`] (or `str::parse`),
//! [`Board::legal_moves`], [`Board::parse_move`], [`Board::play`] (or the
//! unchecked [`Board::make_move`]) / [`Board::unmake_move`],
//! [`Board::outcome`] and the accessors such as [`Board::piece_at`],
//! [`Board::side_to_move`] and [`Board::in_check`]; the submodules hold the
//! parts of `Board`'s implementation (their methods are on `Board`) and the
//! few types they bring.
//!
//! # For engines
//!
//! The board is a 90-square mailbox plus a square for every piece (the
//! piece lists), rank and file occupancy bits for the sliders, and the
//! Zobrist key, all updated incrementally by `make_move` / `unmake_move`.
//! The mailbox encoding and the precomputed move geometry are private; a
//! search engine reads the position through typed queries that cost about
//! what a table lookup does: [`Board::targets`] and
//! [`Board::quiet_targets`] (what a piece reaches, as a
//! [`SquareSet`](crate::SquareSet)), [`Board::squares_of`],
//! [`Board::count`], [`Board::pins`] with [`Board::is_legal_with`], and the
//! occupancy bits [`Board::rank_occ`]`(rank)` (bit `file` set for each
//! occupied square of the rank) and [`Board::file_occ`]`(file)` (bit `rank`
//! set for each occupied square of the file).

pub mod attacks;
pub mod fen;
mod geometry;
mod history;
pub mod movegen;
pub mod see;
mod targets;
pub mod zobrist;

pub use attacks::Pins;
pub use fen::{FenError, START_FEN};
pub use history::Undo;
pub use movegen::{MoveList, MoveListIntoIter};
pub use see::PieceValues;

use crate::types::{Color, FILES, Move, Piece, PieceKind, RANKS, SQUARES, Square};
use zobrist::{PIECE_KEYS, SIDE_KEY};

pub(crate) const NO_SQUARE: u8 = 0xff;
pub(crate) const EMPTY: u8 = 0;

/// Slot ranges of each kind within a side's 16 ids.
pub(crate) const SLOT_RANGE: [(usize, usize); 7] = [
    (0, 1),   // king
    (1, 3),   // advisors
    (3, 5),   // elephants
    (5, 7),   // horses
    (7, 9),   // rooks
    (9, 11),  // cannons
    (11, 16), // pawns
];

const fn cell_pieces() -> [u8; 48] {
    let mut t = [Piece::COUNT as u8; 48];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 7 {
            let (lo, hi) = SLOT_RANGE[k];
            let mut s = lo;
            while s < hi {
                t[16 + 16 * c + s] = (c * 7 + k) as u8;
                s += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
}

/// Piece code (`color * 7 + kind`) of each id; `Piece::COUNT` for empty.
pub(crate) static CELL_PIECE: [u8; 48] = cell_pieces();

/// The id bit that marks pieces of `color`: 16 for Red, 32 for Black. A
/// [`Board::cell`] value `c` holds a piece of `color` if
/// `c & color_bit(color) != 0` (an empty square, 0, has neither bit).
#[inline(always)]
pub(crate) const fn color_bit(color: Color) -> u8 {
    16 << color as u8
}

/// The first id of `color`'s pieces.
#[inline(always)]
pub(crate) const fn id_base(color: Color) -> usize {
    16 + 16 * color as usize
}

/// Why [`Board::parse_move`] or [`Board::play`] rejected a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not ICCS coordinates of a move (`h2e2`): it is given back.
    #[error("'{0}' is not a move")]
    Syntax(String),
    /// A well-formed move that is not legal in the position (given as FEN).
    #[error("illegal move {mv} in {fen}")]
    Illegal {
        /// The move.
        mv: Move,
        /// The position it was tried in.
        fen: String,
    },
}

/// A Xiangqi position and the moves that led to it.
///
/// Build one with [`Board::from_fen`] or [`Board::startpos`]; list moves
/// with [`Board::legal_moves`]; play them with [`Board::make_move`] and take
/// them back with [`Board::unmake_move`]. The board keeps its history (see
/// [`Board::history`]), which the repetition rules of [`crate::rules`] read.
///
/// ```
/// use xiangqi::{Board, Color, PieceKind, Square};
///
/// let mut board = Board::startpos();
/// assert_eq!(board.legal_moves().len(), 44);
/// let mv = board.parse_move("h2e2")?; // central cannon
/// board.make_move(mv);
/// assert_eq!(board.side_to_move(), Color::Black);
/// let cannon = board.piece_at(Square::parse("e2").unwrap()).unwrap();
/// assert_eq!((cannon.color(), cannon.kind()), (Color::Red, PieceKind::Cannon));
/// board.unmake_move();
/// assert_eq!(board.to_fen(), xiangqi::START_FEN);
/// # Ok::<(), xiangqi::MoveError>(())
/// ```
#[derive(Clone)]
pub struct Board {
    cells: [u8; SQUARES],
    piece_sq: [u8; 48],
    rank_occ: [u16; RANKS],
    file_occ: [u16; FILES],
    side: Color,
    key: u64,
    /// The natural-move counter as Pikafish keeps it: plies since the last
    /// capture, except that checks beyond each side's tenth (and the replies
    /// to them) do not count.
    rule60: u16,
    /// Plies since the last capture (the window in which positions can repeat).
    since_capture: u16,
    /// Checks given by each side since the last capture.
    check10: [u8; 2],
    /// Plies since the last null move (positions never repeat across one).
    since_null: u16,
    fullmove: u32,
    history: Vec<Undo>,
}

impl Board {
    fn empty() -> Board {
        Board {
            cells: [EMPTY; SQUARES],
            piece_sq: [NO_SQUARE; 48],
            rank_occ: [0; RANKS],
            file_occ: [0; FILES],
            side: Color::Red,
            key: 0,
            rule60: 0,
            since_capture: 0,
            check10: [0; 2],
            since_null: 0,
            fullmove: 1,
            history: Vec::with_capacity(256),
        }
    }

    /// The start position ([`START_FEN`]).
    pub fn startpos() -> Board {
        Board::from_fen(START_FEN).expect("the start position is valid")
    }

    // ----- accessors -----

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The Zobrist key of the position (pieces and side to move; not the
    /// counters), the same in every build (see [`zobrist`]).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The natural-move counter: plies since the last capture, not counting
    /// checks beyond each side's tenth nor the replies to them (Pikafish's
    /// rule). The game is drawn when it reaches 120.
    #[inline(always)]
    pub fn rule60(&self) -> u16 {
        self.rule60
    }

    /// Plies since the last capture (or since the position was set up with
    /// its halfmove clock): the window in which a position can repeat.
    #[inline(always)]
    pub fn since_capture(&self) -> u16 {
        self.since_capture
    }

    /// How many plies back a position can repeat: since the last capture
    /// and the last null move, within the recorded history.
    #[inline(always)]
    pub fn repetition_window(&self) -> usize {
        (self.since_capture.min(self.since_null) as usize).min(self.history.len())
    }

    /// The move number: 1 at the start, incremented after each Black move.
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }

    /// Moves made since the position was set up (or since
    /// [`Board::clear_history`]), oldest first, null moves included.
    pub fn history(&self) -> &[Undo] {
        &self.history
    }

    /// Forget the move history (the current position becomes the root of the record).
    pub fn clear_history(&mut self) {
        self.history.clear();
    }

    /// The piece on `sq`, if any.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let c = self.cells[sq.index()];
        if c == EMPTY {
            None
        } else {
            Some(piece_of_id(c))
        }
    }

    /// The raw mailbox entry of the square with index `sq`
    /// ([`Square::index`]): the piece id. Ids are the board's own: 0 for an
    /// empty square, 16..32 for a Red piece and 32..48 for a Black one (see
    /// [`color_bit`]); within a side the low four bits are a slot: 0 king,
    /// 1-2 advisors, 3-4 elephants, 5-6 horses, 7-8 rooks, 9-10 cannons,
    /// 11-15 pawns. An id stays with its piece while it moves, which is how
    /// the chase rules follow a piece through a cycle. Panics if `sq` is 90
    /// or more. [`Board::piece_at`] is the public, typed view.
    #[inline(always)]
    pub(crate) fn cell(&self, sq: usize) -> u8 {
        self.cells[sq]
    }

    /// Where `color`'s king stands.
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        Square::from_index_unchecked(self.piece_sq[id_base(color)] as usize)
    }

    /// Squares of `color`'s pieces of `kind`.
    pub fn squares_of(&self, color: Color, kind: PieceKind) -> impl Iterator<Item = Square> + '_ {
        let (lo, hi) = SLOT_RANGE[kind.index()];
        let base = id_base(color);
        (base + lo..base + hi).filter_map(move |id| {
            let s = self.piece_sq[id];
            (s != NO_SQUARE).then(|| Square::from_index_unchecked(s as usize))
        })
    }

    /// Number of `color`'s pieces of `kind`.
    pub fn count(&self, color: Color, kind: PieceKind) -> usize {
        let (lo, hi) = SLOT_RANGE[kind.index()];
        let base = id_base(color);
        (base + lo..base + hi)
            .filter(|&id| self.piece_sq[id] != NO_SQUARE)
            .count()
    }

    /// Does `color` have a rook, horse or cannon (a piece that can attack
    /// across the board)? A search's null-move pruning needs one: without
    /// them zugzwang is common.
    #[inline]
    pub fn has_major(&self, color: Color) -> bool {
        let base = id_base(color);
        (base + 5..base + 11).any(|id| self.piece_sq[id] != NO_SQUARE)
    }

    /// Low-level: the occupancy bits of `rank` (0..10): bit `f` is set when
    /// the square on file `f` of that rank holds a piece (9 bits used).
    /// Panics if `rank` is 10 or more.
    #[inline(always)]
    pub fn rank_occ(&self, rank: usize) -> u16 {
        self.rank_occ[rank]
    }

    /// Low-level: the occupancy bits of `file` (0..9): bit `r` is set when
    /// the square on rank `r` of that file holds a piece (10 bits used).
    /// Panics if `file` is 9 or more.
    #[inline(always)]
    pub fn file_occ(&self, file: usize) -> u16 {
        self.file_occ[file]
    }

    #[inline(always)]
    pub(crate) fn piece_square_of_id(&self, id: usize) -> u8 {
        self.piece_sq[id]
    }

    // ----- building -----

    /// Put a piece on an empty square, using the next free id of its kind.
    /// Returns false when the side already has the most pieces of that kind.
    fn put(&mut self, piece: Piece, sq: Square) -> bool {
        let (lo, hi) = SLOT_RANGE[piece.kind().index()];
        let base = id_base(piece.color());
        let Some(id) = (base + lo..base + hi).find(|&id| self.piece_sq[id] == NO_SQUARE) else {
            return false;
        };
        let s = sq.index();
        self.cells[s] = id as u8;
        self.piece_sq[id] = s as u8;
        self.rank_occ[sq.rank()] |= 1 << sq.file();
        self.file_occ[sq.file()] |= 1 << sq.rank();
        self.key ^= PIECE_KEYS[piece.index()][s];
        true
    }

    /// The key computed from scratch (for tests of the incremental key).
    pub fn compute_key(&self) -> u64 {
        let mut k = 0;
        for (s, &c) in self.cells.iter().enumerate() {
            if c != EMPTY {
                k ^= PIECE_KEYS[CELL_PIECE[c as usize] as usize][s];
            }
        }
        if self.side == Color::Black {
            k ^= SIDE_KEY;
        }
        k
    }

    /// Check every incremental structure against the mailbox. For tests.
    pub fn is_consistent(&self) -> bool {
        let mut rank_occ = [0u16; RANKS];
        let mut file_occ = [0u16; FILES];
        for s in 0..SQUARES {
            let c = self.cells[s];
            if c == EMPTY {
                continue;
            }
            if self.piece_sq[c as usize] as usize != s {
                return false;
            }
            let sq = Square::from_index_unchecked(s);
            rank_occ[sq.rank()] |= 1 << sq.file();
            file_occ[sq.file()] |= 1 << sq.rank();
        }
        for id in 16..48 {
            let s = self.piece_sq[id];
            if s != NO_SQUARE && self.cells[s as usize] as usize != id {
                return false;
            }
        }
        rank_occ == self.rank_occ && file_occ == self.file_occ && self.key == self.compute_key()
    }

    // ----- making moves -----

    /// Make a move that is at least pseudo-legal in this position (any move
    /// of [`Board::legal_moves`], or one that [`Board::is_pseudo_legal`]
    /// accepts), recording it in the history.
    ///
    /// A pseudo-legal move that leaves the mover's king attacked is made all
    /// the same: check [`Board::is_legal`] first if that matters. A move that
    /// is not even pseudo-legal corrupts the board or panics.
    pub fn make_move(&mut self, mv: Move) {
        let from = mv.from().index();
        let to = mv.to().index();
        let id = self.cells[from];
        let captured = self.cells[to];
        debug_assert!(id != EMPTY, "make_move {mv} from an empty square");
        let was_in_check = self.history.last().is_some_and(|u| u.check);
        self.history.push(Undo {
            mv,
            captured,
            check: false,
            key: self.key,
            rule60: self.rule60,
            since_capture: self.since_capture,
            since_null: self.since_null,
            check10: self.check10,
        });
        let piece = CELL_PIECE[id as usize] as usize;
        let us = self.side.index();
        if captured != EMPTY {
            let cp = piece_of_id(captured);
            self.piece_sq[captured as usize] = NO_SQUARE;
            self.key ^= PIECE_KEYS[cp.index()][to];
        } else {
            let (tf, tr) = (to % FILES, to / FILES);
            self.rank_occ[tr] |= 1 << tf;
            self.file_occ[tf] |= 1 << tr;
        }
        let (ff, fr) = (from % FILES, from / FILES);
        self.rank_occ[fr] &= !(1 << ff);
        self.file_occ[ff] &= !(1 << fr);
        self.cells[from] = EMPTY;
        self.cells[to] = id;
        self.piece_sq[id as usize] = to as u8;
        self.key ^= PIECE_KEYS[piece][from] ^ PIECE_KEYS[piece][to] ^ SIDE_KEY;
        if self.side == Color::Black {
            self.fullmove = self.fullmove.wrapping_add(1);
        }
        self.side = self.side.flip();
        let check = self.is_in_check(self.side);
        if let Some(u) = self.history.last_mut() {
            u.check = check;
        }
        self.since_null = self.since_null.saturating_add(1);
        if captured != EMPTY {
            self.rule60 = 0;
            self.since_capture = 0;
            self.check10 = [0; 2];
        } else {
            self.since_capture = self.since_capture.saturating_add(1);
            // Checks beyond a side's tenth do not count, nor the replies to them.
            let them = self.side.index();
            if !check || {
                self.check10[us] = self.check10[us].saturating_add(1);
                self.check10[us] <= 10
            } {
                if self.check10[them] > 10 && was_in_check {
                    self.check10[them] = self.check10[them].saturating_add(1);
                } else {
                    self.rule60 = self.rule60.saturating_add(1);
                }
            }
        }
    }

    /// The key of the position after the pseudo-legal move `mv`, without making it.
    #[inline]
    pub fn key_after(&self, mv: Move) -> u64 {
        let from = mv.from().index();
        let to = mv.to().index();
        let piece = CELL_PIECE[self.cells[from] as usize] as usize;
        let captured = self.cells[to];
        let mut k = self.key ^ SIDE_KEY ^ PIECE_KEYS[piece][from] ^ PIECE_KEYS[piece][to];
        if captured != EMPTY {
            k ^= PIECE_KEYS[CELL_PIECE[captured as usize] as usize][to];
        }
        k
    }

    /// Take back the last `make_move`. Does nothing (with debug assertions
    /// on, panics) if there is no history; must not follow a `make_null`.
    pub fn unmake_move(&mut self) {
        let Some(u) = self.history.pop() else {
            debug_assert!(false, "unmake_move with no history");
            return;
        };
        debug_assert!(u.mv.is_some(), "unmake_move after a null move");
        self.side = self.side.flip();
        if self.side == Color::Black {
            self.fullmove = self.fullmove.wrapping_sub(1);
        }
        let from = u.mv.from().index();
        let to = u.mv.to().index();
        let id = self.cells[to];
        self.cells[from] = id;
        self.piece_sq[id as usize] = from as u8;
        self.cells[to] = u.captured;
        let (ff, fr) = (from % FILES, from / FILES);
        self.rank_occ[fr] |= 1 << ff;
        self.file_occ[ff] |= 1 << fr;
        if u.captured != EMPTY {
            self.piece_sq[u.captured as usize] = to as u8;
        } else {
            let (tf, tr) = (to % FILES, to / FILES);
            self.rank_occ[tr] &= !(1 << tf);
            self.file_occ[tf] &= !(1 << tr);
        }
        self.key = u.key;
        self.rule60 = u.rule60;
        self.since_capture = u.since_capture;
        self.since_null = u.since_null;
        self.check10 = u.check10;
    }

    /// Pass the move (for a search's null-move pruning): the other side is to
    /// move, in the same position. Meant for positions not in check: passing
    /// in check leaves the side not to move in check, a position that cannot
    /// arise in a game. Repetitions are never looked for across a null move.
    pub fn make_null(&mut self) {
        self.history.push(Undo {
            mv: Move::NONE,
            captured: EMPTY,
            check: false,
            key: self.key,
            rule60: self.rule60,
            since_capture: self.since_capture,
            since_null: self.since_null,
            check10: self.check10,
        });
        self.key ^= SIDE_KEY;
        self.side = self.side.flip();
        self.since_null = 0;
    }

    /// Take back the last `make_null`.
    pub fn unmake_null(&mut self) {
        if let Some(u) = self.history.pop() {
            debug_assert!(u.mv.is_none());
            self.key = u.key;
            self.rule60 = u.rule60;
            self.since_capture = u.since_capture;
            self.since_null = u.since_null;
            self.check10 = u.check10;
            self.side = self.side.flip();
        }
    }

    /// Parse a move in ICCS coordinates (`h2e2`) and check that it is legal
    /// here.
    ///
    /// ```
    /// use xiangqi::{Board, MoveError};
    ///
    /// let board = Board::startpos();
    /// assert!(board.parse_move("h2e2").is_ok());
    /// assert!(matches!(board.parse_move("h2e"), Err(MoveError::Syntax(_))));
    /// let err = board.parse_move("e0e2").unwrap_err();
    /// assert!(matches!(err, MoveError::Illegal { .. }));
    /// assert!(err.to_string().starts_with("illegal move e0e2 in rnbakabnr/"));
    /// ```
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let mv = Move::parse(text).ok_or_else(|| MoveError::Syntax(text.to_string()))?;
        if self.is_legal_move(mv) {
            Ok(mv)
        } else {
            Err(MoveError::Illegal {
                mv,
                fen: self.to_fen(),
            })
        }
    }

    /// Play `mv` if it is legal here, recording it in the history; otherwise
    /// leave the board as it was and say why. The checked counterpart of
    /// [`Board::make_move`], for moves from outside (a user, a file, another
    /// program); take it back with [`Board::unmake_move`].
    ///
    /// ```
    /// use xiangqi::{Board, Move, MoveError};
    ///
    /// let mut board = Board::startpos();
    /// board.play("h2e2".parse()?)?;
    /// assert_eq!(board.history().len(), 1);
    ///
    /// // Red's cannon cannot move again: it is Black's turn.
    /// let err = board.play("e2e6".parse()?).unwrap_err();
    /// assert!(matches!(err, MoveError::Illegal { .. }));
    /// assert_eq!(board.history().len(), 1);
    /// assert!(board.play(Move::NONE).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn play(&mut self, mv: Move) -> Result<(), MoveError> {
        if !self.is_legal_move(mv) {
            return Err(MoveError::Illegal {
                mv,
                fen: self.to_fen(),
            });
        }
        self.make_move(mv);
        Ok(())
    }

    /// Is `mv` (any move value) a legal move in this position?
    pub fn is_legal_move(&self, mv: Move) -> bool {
        self.is_pseudo_legal(mv) && self.is_legal(mv)
    }

    /// The same position mirrored left-right (file `a` ↔ `i`), with the same
    /// side to move and counters but no history (for symmetry tests and
    /// opening books).
    pub fn mirrored(&self) -> Board {
        let mut b = Board::empty();
        for s in 0..SQUARES {
            let c = self.cells[s];
            if c != EMPTY {
                let sq = Square::from_index_unchecked(s);
                b.put(piece_of_id(c), sq.mirror());
            }
        }
        b.side = self.side;
        if b.side == Color::Black {
            b.key ^= SIDE_KEY;
        }
        b.rule60 = self.rule60;
        b.since_capture = self.since_capture;
        b.fullmove = self.fullmove;
        b
    }
}

#[inline(always)]
pub(crate) fn piece_of_id(id: u8) -> Piece {
    let code = CELL_PIECE[id as usize] as usize;
    Piece::new(Color::from_index(code / 7), PieceKind::from_index(code % 7))
}

impl std::str::FromStr for Board {
    type Err = FenError;

    /// As [`Board::from_fen`].
    ///
    /// ```
    /// use xiangqi::{Board, Color, FenError};
    ///
    /// let board: Board = "3k5/9/9/9/9/9/9/9/4R4/4K4 b".parse()?;
    /// assert_eq!(board.side_to_move(), Color::Black);
    /// assert_eq!("9/9/9/9/9/9/9/9/9/4K4 w".parse::<Board>().unwrap_err(),
    ///            FenError::MissingKing(Color::Black));
    /// # Ok::<(), FenError>(())
    /// ```
    fn from_str(fen: &str) -> Result<Board, FenError> {
        Board::from_fen(fen)
    }
}

impl std::fmt::Debug for Board {
    /// The FEN and the length of the history.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Board")
            .field("fen", &self.to_fen())
            .field("history", &self.history.len())
            .finish()
    }
}

impl std::fmt::Display for Board {
    /// The board as text: Red's pieces in upper case, Black's in lower case
    /// and `.` for an empty square, Black at the top, with the ranks and
    /// files labelled and the river marked.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "  +-------------------+")?;
        for r in (0..RANKS).rev() {
            write!(f, "{r} |")?;
            for file in 0..FILES {
                let c = match self.piece_at(Square::new(file, r)) {
                    Some(p) => p.fen_char(),
                    None => '.',
                };
                write!(f, " {c}")?;
            }
            writeln!(f, " |")?;
            if r == 5 {
                writeln!(f, "  |~~~~~~~~~~~~~~~~~~~|")?;
            }
        }
        writeln!(f, "  +-------------------+")?;
        writeln!(f, "    a b c d e f g h i")?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_draws_the_board() {
        let text = Board::startpos().to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "  +-------------------+");
        assert_eq!(lines[1], "9 | r n b a k a b n r |");
        assert_eq!(lines[6], "  |~~~~~~~~~~~~~~~~~~~|");
        assert_eq!(lines[11], "0 | R N B A K A B N R |");
        assert_eq!(lines[13], "    a b c d e f g h i");
        assert!(lines[..13].iter().all(|l| l.chars().count() == 23));
        assert_eq!(
            format!("{:?}", Board::startpos()),
            format!("Board {{ fen: {START_FEN:?}, history: 0 }}")
        );
    }
}
