//! FEN in and out: [`Board::from_fen`], [`Board::to_fen`] and [`FenError`].
//!
//! A Xiangqi FEN lists the ranks from Black's back rank (9) down to Red's
//! (0), each from file `a` to `i`, with Red's pieces in upper case and
//! Black's in lower case, digits for runs of empty squares: `K` king, `A`
//! advisor, `B` elephant, `N` horse, `R` rook, `C` cannon, `P` pawn. Then
//! the side to move, two unused fields (`- -`), the natural-move counter
//! and the move number.
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

/// The start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Why [`Board::from_fen`] rejected a FEN. The `Display` text says it in
/// words, e.g. `red king on a0, a square it can never reach`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The text has no fields at all.
    #[error("empty FEN")]
    Empty,
    /// More than six whitespace-separated fields (the count is given).
    #[error("FEN has {0} fields, at most 6 allowed")]
    TooManyFields(usize),
    /// The board field does not have 10 ranks (the count is given).
    #[error("FEN board has {0} ranks, expected 10")]
    RankCount(usize),
    /// A rank does not describe exactly 9 files.
    #[error("FEN rank {rank} has {files} files, expected 9")]
    RankWidth {
        /// The rank (0 is Red's back rank).
        rank: usize,
        /// How many files the rank text covers.
        files: usize,
    },
    /// A character that is neither a digit nor a piece letter.
    #[error("unknown piece letter '{}'", .0.escape_default())]
    UnknownLetter(char),
    /// This side has no king.
    #[error("{0} has no king")]
    MissingKing(Color),
    /// This side has more pieces of this kind than a game can have
    /// (see [`PieceKind::max_count`]).
    #[error(
        "{color} has more than {} {kind}{}",
        .kind.max_count(),
        if .kind.max_count() > 1 { "s" } else { "" }
    )]
    TooMany {
        /// The side.
        color: Color,
        /// The piece kind.
        kind: PieceKind,
    },
    /// A king, advisor or elephant on a square it can never reach.
    #[error("{color} {kind} on {square}, a square it can never reach")]
    BadSquare {
        /// The side.
        color: Color,
        /// The piece kind.
        kind: PieceKind,
        /// Where the piece stands.
        square: Square,
    },
    /// The side-to-move field is not `w`, `r` or `b` (its first 16 characters).
    #[error("side to move '{0}' is not w, r or b")]
    BadSide(String),
    /// The natural-move counter or the move number is not a number in range.
    #[error("{field} '{text}' is not a number in range")]
    BadNumber {
        /// `"halfmove clock"` or `"move number"`.
        field: &'static str,
        /// The field's text (its first 16 characters).
        text: String,
    },
    /// The side not to move is in check (or the kings face each other on an
    /// open file): the side to move could capture the king.
    #[error("{0} is not to move but its king is attacked (or the kings face each other)")]
    SideNotToMoveInCheck(Color),
}

impl Board {
    /// Parse a FEN string (see the [module docs](self) for the format).
    /// Never panics.
    ///
    /// Missing fields default to Red to move, counter 0, move 1. Besides
    /// malformed text, rejects positions that cannot arise in a game: a
    /// missing king, too many pieces of a kind, a king, advisor or elephant
    /// off its squares, or the side not to move in check.
    ///
    /// ```
    /// use xiangqi::{Board, Color, FenError};
    ///
    /// let board = Board::from_fen("3k5/9/9/9/9/9/9/9/4R4/4K4 b - - 12 40")?;
    /// assert_eq!(board.side_to_move(), Color::Black);
    /// assert_eq!(board.rule60(), 12);
    /// assert_eq!(board.to_fen(), "3k5/9/9/9/9/9/9/9/4R4/4K4 b - - 12 40");
    ///
    /// let err = Board::from_fen("9/9/9/9/9/9/9/9/9/4K4 w").unwrap_err();
    /// assert_eq!(err, FenError::MissingKing(Color::Black));
    /// assert_eq!(err.to_string(), "black has no king");
    /// # Ok::<(), FenError>(())
    /// ```
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

    /// The position as a 6-field FEN with Pikafish letters (`B` elephant,
    /// `N` horse, side `w` or `b`); the counter field is [`Board::rule60`].
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
        let texts = [
            ("", "empty FEN"),
            (
                "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 x",
                "FEN has 7 fields, at most 6 allowed",
            ),
            (
                "4k4/9/9/9/9/9/9/9/4K4 w",
                "FEN board has 9 ranks, expected 10",
            ),
            (
                "4k4/9/9/9/9/9/9/9/9/4K3 w",
                "FEN rank 0 has 8 files, expected 9",
            ),
            ("4k4/9/9/9/9/9/9/9/9/4X4 w", "unknown piece letter 'X'"),
            ("3kk4/9/9/9/9/9/9/9/9/4K4 w", "black has more than 1 king"),
            ("4k4/9/9/9/9/9/9/9/RRR6/3K5 w", "red has more than 2 rooks"),
            (
                "4k4/9/9/9/9/9/9/9/9/3K5 x",
                "side to move 'x' is not w, r or b",
            ),
            (
                "4k4/9/9/9/9/9/9/9/9/3K5 w - - x 1",
                "halfmove clock 'x' is not a number in range",
            ),
            (
                "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 y",
                "move number 'y' is not a number in range",
            ),
            (
                "4k4/9/9/9/9/9/9/9/9/4K4 w",
                "black is not to move but its king is attacked (or the kings face each other)",
            ),
        ];
        for (fen, text) in texts {
            assert_eq!(err(fen).to_string(), text, "{fen}");
        }
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/9/4\u{7}4 w").to_string(),
            "unknown piece letter '\\u{7}'"
        );
    }

    #[test]
    fn move_errors() {
        let b = Board::startpos();
        let e = b.parse_move("h2e").unwrap_err();
        assert_eq!(e, crate::board::MoveError::Syntax("h2e".into()));
        assert_eq!(e.to_string(), "'h2e' is not a move");
        let e = b.parse_move("e0e2").unwrap_err();
        assert_eq!(e.to_string(), format!("illegal move e0e2 in {START_FEN}"));
        assert!(b.parse_move("h2e2").is_ok());
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
