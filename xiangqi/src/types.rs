//! Basic value types: colours, piece kinds, squares, moves and scores.

use std::fmt;

/// Number of files (a..i) and ranks (0..9) of the Xiangqi board.
pub const FILES: usize = 9;
pub const RANKS: usize = 10;
pub const SQUARES: usize = FILES * RANKS;

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum Color {
    Red = 0,
    Black = 1,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::Red, Color::Black];

    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn from_index(i: usize) -> Color {
        if i == 0 { Color::Red } else { Color::Black }
    }

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

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceKind {
    King = 0,
    Advisor = 1,
    Elephant = 2,
    Horse = 3,
    Rook = 4,
    Cannon = 5,
    Pawn = 6,
}

impl PieceKind {
    pub const ALL: [PieceKind; 7] = [
        PieceKind::King,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Rook,
        PieceKind::Cannon,
        PieceKind::Pawn,
    ];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

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

/// A coloured piece, `color * 7 + kind` (0..14): the index of Zobrist and piece-square tables.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Piece(u8);

impl Piece {
    pub const COUNT: usize = 14;

    #[inline(always)]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece(color as u8 * 7 + kind as u8)
    }

    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 < 7 { Color::Red } else { Color::Black }
    }

    #[inline(always)]
    pub const fn kind(self) -> PieceKind {
        PieceKind::from_index((self.0 % 7) as usize)
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub fn fen_char(self) -> char {
        let c = self.kind().letter();
        match self.color() {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }
}

/// A square of the 9x10 board: `rank * 9 + file`, rank 0 is Red's back rank.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
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

    /// The square with this index; the caller guarantees `i < 90`.
    #[inline(always)]
    pub const fn from_index_unchecked(i: usize) -> Square {
        debug_assert!(i < SQUARES);
        Square(i as u8)
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline(always)]
    pub const fn file(self) -> usize {
        self.0 as usize % FILES
    }

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

    /// Parse `e0`-style coordinates.
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
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file() as u8) as char,
            (b'0' + self.rank() as u8) as char
        )
    }
}

/// A move in 16 bits: `from | to << 7`. `Move::NONE` (0) is "no move"; it never
/// collides with a real move because a real move has `from != to`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub struct Move(u16);

impl Move {
    pub const NONE: Move = Move(0);

    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.0 as u16 | (to.0 as u16) << 7)
    }

    #[inline(always)]
    pub const fn from(self) -> Square {
        Square((self.0 & 0x7f) as u8)
    }

    #[inline(always)]
    pub const fn to(self) -> Square {
        Square((self.0 >> 7) as u8)
    }

    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    pub const fn is_some(self) -> bool {
        self.0 != 0
    }

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

    /// Parse ICCS coordinates such as `h2e2`. Syntax only; legality is the board's job.
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
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_none() {
            write!(f, "0000")
        } else {
            write!(f, "{}{}", self.from(), self.to())
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
