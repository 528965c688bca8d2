//! FEN in and out.
//!
//! Accepts 1 to 6 fields (board, side, two ignored fields, the natural-move
//! counter and the move number), side `w`/`r` for Red or `b` for Black, and
//! `E`/`H` as elephant/horse letters (and an empty `[]` holdings suffix, as
//! Fairy-Stockfish writes it). Rejects positions that cannot arise in
//! a game, saying why.

use super::geometry::{advisor_square, elephant_square, king_square};
use super::zobrist::SIDE_KEY;
use super::{Board, EMPTY};
use crate::types::{Color, FILES, Piece, PieceKind, RANKS, Square};
use std::fmt;

pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    Empty,
    TooManyFields(usize),
    RankCount(usize),
    RankWidth {
        rank: usize,
        files: usize,
    },
    UnknownLetter(char),
    MissingKing(Color),
    TooMany {
        color: Color,
        kind: PieceKind,
    },
    BadSquare {
        color: Color,
        kind: PieceKind,
        square: Square,
    },
    BadSide(String),
    BadNumber {
        field: &'static str,
        text: String,
    },
    SideNotToMoveInCheck(Color),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::TooManyFields(n) => write!(f, "FEN has {n} fields, at most 6 allowed"),
            FenError::RankCount(n) => write!(f, "FEN board has {n} ranks, expected 10"),
            FenError::RankWidth { rank, files } => {
                write!(f, "FEN rank {rank} has {files} files, expected 9")
            }
            FenError::UnknownLetter(c) => {
                write!(f, "unknown piece letter '{}'", c.escape_default())
            }
            FenError::MissingKing(c) => write!(f, "{} has no king", c.name()),
            FenError::TooMany { color, kind } => write!(
                f,
                "{} has more than {} {}{}",
                color.name(),
                kind.max_count(),
                kind.name(),
                if kind.max_count() > 1 { "s" } else { "" }
            ),
            FenError::BadSquare {
                color,
                kind,
                square,
            } => write!(
                f,
                "{} {} on {square}, a square it can never reach",
                color.name(),
                kind.name()
            ),
            FenError::BadSide(s) => write!(f, "side to move '{s}' is not w, r or b"),
            FenError::BadNumber { field, text } => {
                write!(f, "{field} '{text}' is not a number in range")
            }
            FenError::SideNotToMoveInCheck(c) => write!(
                f,
                "{} is not to move but its king is attacked (or the kings face each other)",
                c.name()
            ),
        }
    }
}

impl std::error::Error for FenError {}

impl Board {
    /// Parse a FEN string. Never panics.
    pub fn from_fen(fen: &str) -> Result<Board, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        if fields.len() > 6 {
            return Err(FenError::TooManyFields(fields.len()));
        }
        let mut b = Board::empty();
        // Fairy-Stockfish may append an empty holdings field `[]` to the board.
        let board_text = fields[0].strip_suffix("[]").unwrap_or(fields[0]);
        let ranks: Vec<&str> = board_text.split('/').collect();
        if ranks.len() != RANKS {
            return Err(FenError::RankCount(ranks.len()));
        }
        for (i, text) in ranks.iter().enumerate() {
            let rank = RANKS - 1 - i;
            let mut file = 0usize;
            for c in text.chars() {
                if let Some(d) = c.to_digit(10) {
                    file += d as usize;
                    continue;
                }
                let kind = PieceKind::from_letter(c).ok_or(FenError::UnknownLetter(c))?;
                if file >= FILES {
                    file += 1;
                    continue; // reported as a width error below
                }
                let color = if c.is_ascii_uppercase() {
                    Color::Red
                } else {
                    Color::Black
                };
                let sq = Square::new(file, rank);
                let ok = match kind {
                    PieceKind::King => king_square(color.index(), sq.index()),
                    PieceKind::Advisor => advisor_square(color.index(), sq.index()),
                    PieceKind::Elephant => elephant_square(color.index(), sq.index()),
                    _ => true,
                };
                if !ok {
                    return Err(FenError::BadSquare {
                        color,
                        kind,
                        square: sq,
                    });
                }
                if !b.put(Piece::new(color, kind), sq) {
                    return Err(FenError::TooMany { color, kind });
                }
                file += 1;
            }
            if file != FILES {
                return Err(FenError::RankWidth { rank, files: file });
            }
        }
        for color in Color::BOTH {
            if b.count(color, PieceKind::King) == 0 {
                return Err(FenError::MissingKing(color));
            }
        }
        if let Some(side) = fields.get(1) {
            b.side = match *side {
                "w" | "W" | "r" | "R" => Color::Red,
                "b" | "B" => Color::Black,
                other => return Err(FenError::BadSide(other.chars().take(16).collect())),
            };
        }
        if b.side == Color::Black {
            b.key ^= SIDE_KEY;
        }
        let number = |field: &'static str, text: &str, max: u32| -> Result<u32, FenError> {
            text.parse::<u32>()
                .ok()
                .filter(|&n| n <= max)
                .ok_or_else(|| FenError::BadNumber {
                    field,
                    text: text.chars().take(16).collect(),
                })
        };
        if let Some(t) = fields.get(4) {
            b.rule60 = number("halfmove clock", t, u16::MAX as u32)? as u16;
            b.since_capture = b.rule60;
        }
        if let Some(t) = fields.get(5) {
            b.fullmove = number("move number", t, 1_000_000_000)?.max(1);
        }
        let them = b.side.flip();
        if b.is_in_check(them) {
            return Err(FenError::SideNotToMoveInCheck(them));
        }
        Ok(b)
    }

    /// The position as a 6-field FEN with Pikafish letters.
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(96);
        for rank in (0..RANKS).rev() {
            let mut empty = 0;
            for file in 0..FILES {
                let sq = Square::new(file, rank);
                if self.cell(sq.index()) == EMPTY {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    s.push(char::from(b'0' + empty));
                    empty = 0;
                }
                if let Some(p) = self.piece_at(sq) {
                    s.push(p.fen_char());
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let side = match self.side_to_move() {
            Color::Red => 'w',
            Color::Black => 'b',
        };
        format!("{s} {side} - - {} {}", self.rule60(), self.fullmove())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(fen: &str) -> FenError {
        match Board::from_fen(fen) {
            Err(e) => e,
            Ok(_) => panic!("{fen} should be rejected"),
        }
    }

    #[test]
    fn start_position_round_trip() {
        let b = Board::from_fen(START_FEN).unwrap();
        assert_eq!(b.to_fen(), START_FEN);
        assert!(b.is_consistent());
    }

    #[test]
    fn short_fens_and_letters() {
        let b =
            Board::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR").unwrap();
        assert_eq!(b.to_fen(), START_FEN);
        let b = Board::from_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r")
            .unwrap();
        assert_eq!(b.to_fen(), START_FEN);
        let b =
            Board::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 7")
                .unwrap();
        assert_eq!(b.side_to_move(), Color::Black);
        assert_eq!(b.rule60(), 7);
        assert_eq!(b.fullmove(), 1);
    }

    #[test]
    fn rejects_impossible_positions() {
        assert_eq!(err(""), FenError::Empty);
        assert_eq!(err("   "), FenError::Empty);
        assert_eq!(err("4k4/9/9/9/9/9/9/9/4K4 w"), FenError::RankCount(9));
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/9/4K5 w"),
            FenError::RankWidth { rank: 0, files: 10 }
        );
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/9/4K3 w"),
            FenError::RankWidth { rank: 0, files: 8 }
        );
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/9/4X4 w"),
            FenError::UnknownLetter('X')
        );
        assert_eq!(
            err("9/9/9/9/9/9/9/9/9/4K4 w"),
            FenError::MissingKing(Color::Black)
        );
        assert_eq!(
            err("3kk4/9/9/9/9/9/9/9/9/4K4 w"),
            FenError::TooMany {
                color: Color::Black,
                kind: PieceKind::King
            }
        );
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/9/K8 w"),
            FenError::BadSquare {
                color: Color::Red,
                kind: PieceKind::King,
                square: Square::parse("a0").unwrap()
            }
        );
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/9/3KA4 w"),
            FenError::BadSquare { .. }
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/4B4/9/9/9/3K5 w"),
            FenError::BadSquare { .. }
        ));
        // Pawns behind their starting rank occur in composed problems (the
        // shared mate suite has one), so they are accepted.
        assert!(Board::from_fen("4k4/9/9/9/9/9/9/9/P8/3K5 w").is_ok());
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/RRR6/3K5 w"),
            FenError::TooMany {
                color: Color::Red,
                kind: PieceKind::Rook
            }
        );
        assert_eq!(
            err("PPPPPP3/4k4/9/9/9/9/9/9/9/3K5 w"),
            FenError::TooMany {
                color: Color::Red,
                kind: PieceKind::Pawn
            }
        );
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/9/3K5 x"),
            FenError::BadSide(_)
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/9/3K5 w - - x 1"),
            FenError::BadNumber { .. }
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 extra"),
            FenError::TooManyFields(7)
        ));
        // Kings facing each other: the side not to move is "in check".
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/9/4K4 w"),
            FenError::SideNotToMoveInCheck(Color::Black)
        );
        // The red rook checks the black king with Red to move.
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/9/3KR4 w"),
            FenError::SideNotToMoveInCheck(Color::Black)
        );
        assert!(Board::from_fen("4k4/9/9/9/9/9/9/9/9/3KR4 b").is_ok());
    }

    #[test]
    fn error_messages_say_what_is_wrong() {
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/9/K8 w").to_string(),
            "red king on a0, a square it can never reach"
        );
        assert_eq!(
            err("9/9/9/9/9/9/9/9/9/4K4").to_string(),
            "black has no king"
        );
    }

    #[test]
    fn garbage_never_panics() {
        for s in [
            "/",
            "//////////",
            "99999/9/9/9/9/9/9/9/9/9 w",
            "\u{0}\u{1}",
            "ü/ö",
            "4k4/9/9/9/9/9/9/9/9/3K5 w - - 99999999999 1",
            "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 -1",
            "k/9/9/9/9/9/9/9/9/9",
            "4k4/9/9/9/9/9/9/9/9/3K42",
        ] {
            assert!(Board::from_fen(s).is_err(), "{s}");
        }
    }
}
