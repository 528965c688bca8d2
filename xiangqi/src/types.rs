//! Basic value types: colours, piece kinds, pieces, squares and moves.
//!
//! Coordinates: files `a`..`i` (0..8) run from Red's left to Red's right,
//! ranks `0`..`9` from Red's back rank to Black's. Red's king starts on `e0`,
//! Black's on `e9`; the river lies between ranks 4 and 5.

use std::fmt;
use std::str::FromStr;

/// Number of files (`a`..`i`) of the board.
pub const FILES: usize = 9;
/// Number of ranks (`0`..`9`) of the board.
pub const RANKS: usize = 10;
/// Number of squares of the board (90).
pub const SQUARES: usize = FILES * RANKS;

/// A side. Red moves first; its pieces start on ranks 0..3 (its half of the
/// board is ranks 0..4), Black's on ranks 6..9 (its half 5..9).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum Color {
    /// Red (called White by some programs and in FEN: `w`).
    Red = 0,
    /// Black.
    Black = 1,
}

impl Color {
    /// Both sides, Red first.
    pub const BOTH: [Color; 2] = [Color::Red, Color::Black];

    /// The other side (also `!color`).
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// 0 for Red, 1 for Black: the index of per-side arrays.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The side with this index: 0 is Red, anything else Black.
    pub const fn from_index(i: usize) -> Color {
        if i == 0 { Color::Red } else { Color::Black }
    }

    /// `"red"` or `"black"`.
    pub fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Black => "black",
        }
    }
}

impl fmt::Display for Color {
    /// `red` or `black`, as [`Color::name`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        self.flip()
    }
}

/// The seven kinds of pieces. Each side starts with one king, two each of
/// advisors, elephants, horses, rooks and cannons, and five pawns.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceKind {
    /// The king (general; 帅/将), confined to its palace.
    King = 0,
    /// An advisor (guard; 仕/士), moving one step diagonally in the palace.
    Advisor = 1,
    /// An elephant (minister; 相/象), moving two steps diagonally, never
    /// across the river, blocked by a piece on the point between (its eye).
    Elephant = 2,
    /// A horse (knight; 马), moving one step straight then one diagonally
    /// outward, blocked by a piece on the first step (its leg).
    Horse = 3,
    /// A rook (chariot; 车), moving any distance along a rank or file.
    Rook = 4,
    /// A cannon (炮), moving like a rook but capturing by jumping over
    /// exactly one piece (its screen).
    Cannon = 5,
    /// A pawn (soldier; 兵/卒), moving one step forward, and also sideways
    /// once across the river.
    Pawn = 6,
}

impl PieceKind {
    /// All kinds, in index order (king first).
    pub const ALL: [PieceKind; 7] = [
        PieceKind::King,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Rook,
        PieceKind::Cannon,
        PieceKind::Pawn,
    ];

    /// 0 (king) to 6 (pawn), in the order of the variants.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind with this index; indices above 6 give `Pawn`.
    pub const fn from_index(i: usize) -> PieceKind {
        match i {
            0 => PieceKind::King,
            1 => PieceKind::Advisor,
            2 => PieceKind::Elephant,
            3 => PieceKind::Horse,
            4 => PieceKind::Rook,
            5 => PieceKind::Cannon,
            _ => PieceKind::Pawn,
        }
    }

    /// Most pieces of this kind one side can have.
    pub const fn max_count(self) -> usize {
        match self {
            PieceKind::King => 1,
            PieceKind::Pawn => 5,
            _ => 2,
        }
    }

    /// FEN letter (upper case, Pikafish letters).
    pub const fn letter(self) -> char {
        match self {
            PieceKind::King => 'K',
            PieceKind::Advisor => 'A',
            PieceKind::Elephant => 'B',
            PieceKind::Horse => 'N',
            PieceKind::Rook => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Pawn => 'P',
        }
    }

    /// Parse a FEN letter of either case; `E`/`H` are accepted for elephant/horse.
    pub fn from_letter(c: char) -> Option<PieceKind> {
        Some(match c.to_ascii_uppercase() {
            'K' => PieceKind::King,
            'A' => PieceKind::Advisor,
            'B' | 'E' => PieceKind::Elephant,
            'N' | 'H' => PieceKind::Horse,
            'R' => PieceKind::Rook,
            'C' => PieceKind::Cannon,
            'P' => PieceKind::Pawn,
            _ => return None,
        })
    }

    /// The English name in lower case: `"king"`, `"advisor"`, `"elephant"`,
    /// `"horse"`, `"rook"`, `"cannon"`, `"pawn"`.
    pub fn name(self) -> &'static str {
        match self {
            PieceKind::King => "king",
            PieceKind::Advisor => "advisor",
            PieceKind::Elephant => "elephant",
            PieceKind::Horse => "horse",
            PieceKind::Rook => "rook",
            PieceKind::Cannon => "cannon",
            PieceKind::Pawn => "pawn",
        }
    }
}

impl fmt::Display for PieceKind {
    /// The English name, as [`PieceKind::name`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece of one side: a colour and a kind.
///
/// Stored as its index `color * 7 + kind` (0..14), the index of Zobrist and
/// piece-square tables.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Piece(u8);

impl Piece {
    /// Number of distinct pieces (2 colours × 7 kinds): the bound of [`Piece::index`].
    pub const COUNT: usize = 14;

    /// The piece of this colour and kind.
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece(color as u8 * 7 + kind as u8)
    }

    /// Whose piece it is.
    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 < 7 { Color::Red } else { Color::Black }
    }

    /// What kind of piece it is.
    #[inline(always)]
    pub const fn kind(self) -> PieceKind {
        PieceKind::from_index((self.0 % 7) as usize)
    }

    /// `color * 7 + kind`, in 0..14.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The FEN letter: upper case for Red, lower case for Black (`R`, `n`).
    pub fn fen_char(self) -> char {
        let c = self.kind().letter();
        match self.color() {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }
}

/// A square of the 9×10 board, stored as its index `rank * 9 + file`
/// (0..90): `a0` is 0, `i0` is 8, `a1` is 9, `i9` is 89.
///
/// Files `a`..`i` (0..8) run from Red's left to Red's right, ranks `0`..`9`
/// from Red's back rank to Black's. `Display` and [`Square::parse`] use the
/// coordinates `e0`, and so does `Debug`; `str::parse` ([`FromStr`]) reads
/// them with a typed error.
///
/// ```
/// use xiangqi::{ParseSquareError, Square};
///
/// let sq = Square::parse("h2").unwrap();
/// assert_eq!((sq.file(), sq.rank(), sq.index()), (7, 2, 25));
/// assert_eq!(Square::new(7, 2), sq);
/// assert_eq!(sq.to_string(), "h2");
/// assert_eq!(format!("{sq:?}"), "h2");
///
/// let sq: Square = "e9".parse()?;
/// assert_eq!((sq.file(), sq.rank()), (4, 9));
/// let err = "j0".parse::<Square>().unwrap_err();
/// assert_eq!(err.to_string(), "'j0' is not a square (a file a-i then a rank 0-9, like e0)");
/// # Ok::<(), ParseSquareError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square on `file` (0..9, `a` is 0) and `rank` (0..10).
    ///
    /// With debug assertions on, panics if either is off the board. Without
    /// them it does not check: the result has the index
    /// `(rank * 9 + file) as u8`, which may be off the board (see
    /// [`Square::from_index_unchecked`]) or, for a file of 9 or more, the
    /// index of another square.
    #[inline(always)]
    pub const fn new(file: usize, rank: usize) -> Square {
        debug_assert!(file < FILES && rank < RANKS);
        Square((rank * FILES + file) as u8)
    }

    /// The square with this index, if it is on the board.
    pub const fn from_index(i: usize) -> Option<Square> {
        if i < SQUARES {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// The square with index `i`, without the check of [`Square::from_index`]:
    /// for the hot loops of move generation, where `i` comes from the board
    /// and is known to be below 90.
    ///
    /// This is safe code. With debug assertions on (as in this workspace's
    /// dev and test builds) an index of 90 or more panics. Without them it is
    /// not checked: the result is `Square(i as u8)`, a square whose
    /// [`index`](Square::index) is `i % 256`. If that is 90 or more, indexing
    /// the board or any per-square table with it panics on the bounds check,
    /// and its [`file`](Square::file) and [`rank`](Square::rank) are
    /// meaningless; never undefined behaviour.
    #[inline(always)]
    pub const fn from_index_unchecked(i: usize) -> Square {
        debug_assert!(i < SQUARES);
        Square(i as u8)
    }

    /// `rank * 9 + file`, in 0..90 for a square on the board.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 (`a`, Red's left) to 8 (`i`).
    #[inline(always)]
    pub const fn file(self) -> usize {
        self.0 as usize % FILES
    }

    /// The rank, 0 (Red's back rank) to 9 (Black's back rank).
    #[inline(always)]
    pub const fn rank(self) -> usize {
        self.0 as usize / FILES
    }

    /// The same square seen from the other side (rank 9 - r, file 8 - f).
    pub const fn rotate(self) -> Square {
        Square((SQUARES - 1 - self.0 as usize) as u8)
    }

    /// Mirror left-right (file 8 - f).
    pub const fn mirror(self) -> Square {
        Square::new(FILES - 1 - self.file(), self.rank())
    }

    /// Rank counted from `color`'s own back rank.
    pub const fn relative_rank(self, color: Color) -> usize {
        match color {
            Color::Red => self.rank(),
            Color::Black => RANKS - 1 - self.rank(),
        }
    }

    /// Parse `e0`-style coordinates: a file letter `a`..`i` and a rank digit
    /// `0`..`9`, lower case only.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].wrapping_sub(b'a') as usize;
        let rank = b[1].wrapping_sub(b'0') as usize;
        if file < FILES && rank < RANKS {
            Some(Square::new(file, rank))
        } else {
            None
        }
    }
}

impl fmt::Display for Square {
    /// Coordinates, `e0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file() as u8) as char,
            (b'0' + self.rank() as u8) as char
        )
    }
}

impl fmt::Debug for Square {
    /// Coordinates, `e0`, as `Display`: shorter to read in assertions and
    /// logs than the index.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a text is not a [`Square`]: it is given back, cut to its first 16
/// characters.
///
/// ```
/// use xiangqi::Square;
///
/// let err = "E0".parse::<Square>().unwrap_err(); // upper case is not read
/// assert_eq!(err.text(), "E0");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{text}' is not a square (a file a-i then a rank 0-9, like e0)")]
pub struct ParseSquareError {
    text: String,
}

impl ParseSquareError {
    fn new(text: &str) -> ParseSquareError {
        ParseSquareError {
            text: text.chars().take(16).collect(),
        }
    }

    /// The rejected text (its first 16 characters).
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// As [`Square::parse`], with a typed error.
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::parse(s).ok_or_else(|| ParseSquareError::new(s))
    }
}

/// A move: an origin and a target square, packed in 16 bits as
/// `from | to << 7`.
///
/// A move says nothing of the piece it moves or captures: that is the
/// board's. `Display` writes ICCS coordinates (`h2e2`, as UCI and UCCI send
/// them) and [`Move::parse`] reads them; see [`crate::notation`] for the
/// Chinese, WXF and `H2-E2` forms.
///
/// `Move::NONE` (0, shown as `0000`) is "no move"; it never collides with a
/// real move because a real move has `from != to`. It is also the
/// `Default`.
///
/// `Debug` prints the coordinates too, so a failed `assert_eq!` on moves
/// reads `h2e2`. `str::parse` ([`FromStr`]) reads them with a typed error.
///
/// ```
/// use xiangqi::{Move, ParseMoveError, Square};
///
/// let mv = Move::parse("h2e2").unwrap();
/// assert_eq!(mv.from(), Square::parse("h2").unwrap());
/// assert_eq!(mv.to(), Square::parse("e2").unwrap());
/// assert_eq!(mv.to_string(), "h2e2");
/// assert_eq!(format!("{mv:?}"), "h2e2");
/// assert_eq!(format!("{:?}", [mv, Move::NONE]), "[h2e2, 0000]");
/// assert_eq!(Move::parse("h2h2"), None);
///
/// let mv: Move = "b0c2".parse()?;
/// assert_eq!(mv.to(), "c2".parse::<Square>()?);
/// assert!(matches!("h2h2".parse::<Move>(), Err(ParseMoveError::SameSquare(_))));
/// assert_eq!(
///     "h2-e2".parse::<Move>().unwrap_err().to_string(),
///     "'h2-e2' is not a move (two squares in coordinates, like h2e2)"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    /// "No move" (shown as `0000`).
    pub const NONE: Move = Move(0);

    /// The move from `from` to `to` (not checked for `from != to`).
    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.0 as u16 | (to.0 as u16) << 7)
    }

    /// The origin square.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square((self.0 & 0x7f) as u8)
    }

    /// The target square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square((self.0 >> 7) as u8)
    }

    /// Is this `Move::NONE`?
    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// Is this a real move (not `Move::NONE`)?
    #[inline(always)]
    pub const fn is_some(self) -> bool {
        self.0 != 0
    }

    /// The packed 16 bits `from | to << 7` (0 for `NONE`), e.g. for storing
    /// a move in a hash table or a file; [`Move::from_raw`] reads them back.
    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// Rebuild from `raw()`; returns `NONE` for values that are not a move
    /// between two board squares.
    pub const fn from_raw(raw: u16) -> Move {
        let from = (raw & 0x7f) as usize;
        let to = ((raw >> 7) & 0x7f) as usize;
        if raw >> 14 != 0 || from >= SQUARES || to >= SQUARES || from == to {
            Move::NONE
        } else {
            Move(raw)
        }
    }

    /// Parse ICCS coordinates such as `h2e2` (lower case, no dash). Syntax
    /// only: legality is the board's job ([`crate::Board::parse_move`] does
    /// both).
    pub fn parse(s: &str) -> Option<Move> {
        if s.len() != 4 || !s.is_ascii() {
            return None;
        }
        let from = Square::parse(&s[0..2])?;
        let to = Square::parse(&s[2..4])?;
        if from == to {
            return None;
        }
        Some(Move::new(from, to))
    }

    /// The move seen in the left-right mirrored board.
    pub const fn mirror(self) -> Move {
        Move::new(self.from().mirror(), self.to().mirror())
    }
}

impl fmt::Display for Move {
    /// ICCS coordinates, `h2e2`; `0000` for `Move::NONE`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_none() {
            write!(f, "0000")
        } else {
            write!(f, "{}{}", self.from(), self.to())
        }
    }
}

impl fmt::Debug for Move {
    /// As `Display`: `h2e2`, `0000` for `Move::NONE`. The packed bits would
    /// say nothing to a reader.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a text is not a [`Move`] in coordinates (the text is given back, cut
/// to its first 16 characters).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseMoveError {
    /// Not two squares such as `h2e2` (four characters, lower case, no dash).
    #[error("'{0}' is not a move (two squares in coordinates, like h2e2)")]
    Syntax(String),
    /// Two squares, but the same one twice: no piece moves to where it stands.
    #[error("'{0}' is not a move (it starts and ends on the same square)")]
    SameSquare(String),
}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// As [`Move::parse`], with a typed error. Syntax only: legality is the
    /// board's job ([`crate::Board::parse_move`]).
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let shown = || s.chars().take(16).collect::<String>();
        match Move::parse(s) {
            Some(mv) => Ok(mv),
            None if s.len() == 4 && s.is_char_boundary(2) && s[..2] == s[2..] => {
                match Square::parse(&s[..2]) {
                    Some(_) => Err(ParseMoveError::SameSquare(shown())),
                    None => Err(ParseMoveError::Syntax(shown())),
                }
            }
            None => Err(ParseMoveError::Syntax(shown())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_coordinates_round_trip() {
        for i in 0..SQUARES {
            let s = Square::from_index(i).unwrap();
            assert_eq!(Square::parse(&s.to_string()), Some(s));
            assert_eq!(Square::new(s.file(), s.rank()), s);
            assert_eq!(s.mirror().mirror(), s);
            assert_eq!(s.rotate().rotate(), s);
        }
        assert_eq!(Square::parse("a0").unwrap().index(), 0);
        assert_eq!(Square::parse("i9").unwrap().index(), 89);
        assert_eq!(Square::parse("j0"), None);
        assert_eq!(Square::parse("a10"), None);
    }

    #[test]
    fn move_packs_in_16_bits() {
        let m = Move::parse("h2e2").unwrap();
        assert_eq!(m.from(), Square::new(7, 2));
        assert_eq!(m.to(), Square::new(4, 2));
        assert_eq!(m.to_string(), "h2e2");
        assert_eq!(Move::from_raw(m.raw()), m);
        assert_eq!(std::mem::size_of::<Move>(), 2);
        assert!(Move::parse("h2h2").is_none());
        assert!(Move::parse("h2e").is_none());
        assert!(Move::parse("z2e2").is_none());
        assert_eq!(Move::from_raw(0xffff), Move::NONE);
        assert_eq!(m.mirror().to_string(), "b2e2");
    }

    #[test]
    fn from_str_gives_typed_errors() {
        for i in 0..SQUARES {
            let s = Square::from_index(i).unwrap();
            assert_eq!(s.to_string().parse::<Square>(), Ok(s));
            assert_eq!(format!("{s:?}"), s.to_string());
        }
        for bad in ["", "e", "j0", "e10", "E0", "e0 ", "ü0"] {
            let err = bad.parse::<Square>().unwrap_err();
            assert_eq!(err.text(), bad);
        }
        let long = "x".repeat(100);
        assert_eq!(long.parse::<Square>().unwrap_err().text().len(), 16);

        assert_eq!(
            "h2e2".parse::<Move>(),
            Ok(Move::new(Square::new(7, 2), Square::new(4, 2)))
        );
        assert_eq!(
            "h2h2".parse::<Move>(),
            Err(ParseMoveError::SameSquare("h2h2".into()))
        );
        for bad in [
            "", "h2e", "h2-e2", "H2E2", "j2e2", "h2e2 ", "0000", "ü2e2", "jjjj",
        ] {
            assert_eq!(
                bad.parse::<Move>(),
                Err(ParseMoveError::Syntax(bad.into())),
                "{bad}"
            );
        }
    }

    #[test]
    fn debug_prints_coordinates() {
        let m = Move::parse("b0c2").unwrap();
        assert_eq!(format!("{m:?}"), "b0c2");
        assert_eq!(format!("{:?}", Move::NONE), "0000");
        assert_eq!(format!("{:?}", Some(m.from())), "Some(b0)");
    }

    #[test]
    fn piece_codes() {
        for c in Color::BOTH {
            for k in PieceKind::ALL {
                let p = Piece::new(c, k);
                assert_eq!(p.color(), c);
                assert_eq!(p.kind(), k);
                assert!(p.index() < Piece::COUNT);
            }
        }
        assert_eq!(Piece::new(Color::Black, PieceKind::Horse).fen_char(), 'n');
        assert_eq!(PieceKind::from_letter('e'), Some(PieceKind::Elephant));
        assert_eq!(PieceKind::from_letter('H'), Some(PieceKind::Horse));
        assert_eq!(PieceKind::from_letter('x'), None);
    }
}
