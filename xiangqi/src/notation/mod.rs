//! Move notation, written and read: ICCS coordinates, the Chinese notation
//! of game records (炮二平五, 马8进7) and its WXF transcription (`C2.5`,
//! `H8+7`).
//!
//! **ICCS coordinates** are what [`Move`]'s `Display` and [`Move::parse`] use,
//! and what UCI and UCCI send: the origin and target squares as file letter
//! `a`..`i` (from Red's left) and rank digit `0`..`9` (from Red's side), e.g.
//! `h2e2`. [`iccs`] writes the record form `H2-E2`, and [`parse_iccs`] reads
//! both forms.
//!
//! **Chinese and WXF notation** name the piece, the file it stands on, the
//! direction and the target: each side numbers the files 1 to 9 from its own
//! right, so Red's file 1 is file `i` and Black's file 1 is file `a`. A
//! straight mover (king, rook, cannon, pawn) going forward or backward gives
//! the number of ranks moved; any other move gives the target file. When two
//! or more pieces of the same kind stand on one file, a position word
//! (前/中/后, or `+`/`-` in WXF) takes the place of the file number, except for
//! advisors and elephants: the front one can only go back and the rear one
//! only forward, so the file number is kept.
//!
//! [`chinese`] and [`wxf`] write a move; [`parse_chinese`] and [`parse_wxf`]
//! read one back, and give the same move for every text the writers
//! produce. The readers also take the common variants of hand-written
//! records (traditional characters, full-width digits, `=` for sideways in
//! WXF; see each function), and find the legal move the text describes, so
//! they need the board.
//!
//! ```
//! use xiangqi::Board;
//! use xiangqi::notation::{chinese, iccs, parse_chinese, parse_wxf, wxf};
//!
//! let board = Board::startpos();
//! let mv = board.parse_move("h2e2")?;
//! assert_eq!(chinese(&board, mv), "炮二平五");
//! assert_eq!(wxf(&board, mv), "C2.5");
//! assert_eq!(iccs(mv), "H2-E2");
//! assert_eq!(parse_chinese(&board, "炮二平五")?, mv);
//! assert_eq!(parse_wxf(&board, "C2=5")?, mv);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod chinese;
#[cfg(test)]
mod tests;
mod wxf;

pub use chinese::{chinese, parse_chinese};
pub use wxf::{parse_wxf, wxf};

use crate::board::Board;
use crate::types::{Color, Move, PieceKind, Square};
use std::fmt;

/// The notations [`parse_chinese`] and [`parse_wxf`] read, named in their
/// errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// Chinese notation (炮二平五).
    Chinese,
    /// WXF notation (`C2.5`).
    Wxf,
}

impl fmt::Display for Notation {
    /// `Chinese` or `WXF`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Notation::Chinese => "Chinese",
            Notation::Wxf => "WXF",
        })
    }
}

/// Why [`parse_chinese`] or [`parse_wxf`] could not read a move. Texts are
/// given back cut to their first 16 characters.
///
/// ```
/// use xiangqi::Board;
/// use xiangqi::notation::{Notation, ParseNotationError, parse_wxf};
///
/// let board = Board::startpos();
/// let err = parse_wxf(&board, "C2.5!").unwrap_err();
/// assert_eq!(
///     err,
///     ParseNotationError::Syntax { notation: Notation::Wxf, text: "C2.5!".into() }
/// );
/// assert_eq!(err.to_string(), "'C2.5!' is not a move in WXF notation");
/// let err = parse_wxf(&board, "C2+9").unwrap_err(); // off the board
/// assert!(matches!(err, ParseNotationError::NoSuchMove { .. }));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseNotationError {
    /// The text does not have the shape of a move in this notation.
    #[error("'{text}' is not a move in {notation} notation")]
    Syntax {
        /// The notation that was expected.
        notation: Notation,
        /// The text.
        text: String,
    },
    /// A well-formed text, but no legal move of the position is written so.
    #[error("no legal move is written '{text}' in {fen}")]
    NoSuchMove {
        /// The text.
        text: String,
        /// The position (as FEN).
        fen: String,
    },
    /// More than one legal move fits the text. The writers never produce
    /// such a text; a hand-written one may leave out what tells two pieces
    /// apart.
    #[error("'{text}' could be any of {moves:?} in {fen}")]
    Ambiguous {
        /// The text.
        text: String,
        /// The legal moves that fit it.
        moves: Vec<Move>,
        /// The position (as FEN).
        fen: String,
    },
}

/// The first 16 characters of `text`, to quote in an error.
fn quoted(text: &str) -> String {
    text.chars().take(16).collect()
}

/// The file number a side uses: Red counts 一..九 from its right (file i
/// is 一), Black 1..9 from its right (file a is 1).
fn file_number(color: Color, file: usize) -> usize {
    match color {
        Color::Red => 9 - file,
        Color::Black => file + 1,
    }
}

/// What the notations share about a move: the mover, its file number, its
/// place among the pieces of its kind on its file, direction and target.
/// Both notations are written from these, and read by matching them.
struct Parts {
    color: Color,
    kind: PieceKind,
    /// The file number (1..9, the mover's own count) of the origin.
    file: usize,
    /// How many pieces of the mover's kind stand on its file (1 if the
    /// position word is not used: a lone piece, an advisor or an elephant).
    tandem: usize,
    /// The mover's place among them, 0 for the most advanced.
    place: usize,
    /// For a pawn: another file also holds two or more of the mover's
    /// pawns, so a position word alone would not say which file is meant.
    other_tandem_file: bool,
    /// Forward (1), sideways (0) or backward (-1), from the mover's side.
    dir: i8,
    /// Ranks moved (straight movers going forward or backward) or the target
    /// file number (all other moves).
    n: usize,
}

fn parts(board: &Board, m: Move) -> Option<Parts> {
    let p = board.piece_at(m.from())?;
    let (color, kind) = (p.color(), p.kind());
    let (from, to) = (m.from(), m.to());
    let mut same: Vec<usize> = if matches!(kind, PieceKind::Advisor | PieceKind::Elephant) {
        Vec::new()
    } else {
        board
            .squares_of(color, kind)
            .filter(|s| s.file() == from.file())
            .map(|s| s.relative_rank(color))
            .collect()
    };
    same.sort_unstable_by(|a, b| b.cmp(a));
    let other_tandem_file = kind == PieceKind::Pawn && {
        let mut per_file = [0usize; 9];
        for s in board.squares_of(color, PieceKind::Pawn) {
            per_file[s.file()] += 1;
        }
        (0..9).any(|f| f != from.file() && per_file[f] >= 2)
    };
    let (r0, r1) = (from.relative_rank(color), to.relative_rank(color));
    let dir = (r1 as isize - r0 as isize).signum() as i8;
    let straight = matches!(
        kind,
        PieceKind::King | PieceKind::Rook | PieceKind::Cannon | PieceKind::Pawn
    );
    Some(Parts {
        color,
        kind,
        file: file_number(color, from.file()),
        tandem: same.len().max(1),
        place: same.iter().position(|&r| r == r0).unwrap_or(0),
        other_tandem_file,
        dir,
        n: if straight && dir != 0 {
            r0.abs_diff(r1)
        } else {
            file_number(color, to.file())
        },
    })
}

/// The legal move of `kind` whose parts `exact` accepts; if there is none,
/// the one `loose` accepts (a hand-written text may leave out a position
/// word where the writers put one). `text` is for the errors.
fn resolve(
    board: &Board,
    text: &str,
    kind: PieceKind,
    exact: impl Fn(&Parts) -> bool,
    loose: impl Fn(&Parts) -> bool,
) -> Result<Move, ParseNotationError> {
    let candidates: Vec<(Move, Parts)> = board
        .legal_moves()
        .into_iter()
        .filter(|m| board.piece_at(m.from()).is_some_and(|p| p.kind() == kind))
        .filter_map(|m| parts(board, m).map(|p| (m, p)))
        .collect();
    let fitting = |accept: &dyn Fn(&Parts) -> bool| -> Vec<Move> {
        candidates
            .iter()
            .filter(|(_, p)| accept(p))
            .map(|&(m, _)| m)
            .collect()
    };
    let mut moves = fitting(&exact);
    if moves.is_empty() {
        moves = fitting(&loose);
    }
    match moves[..] {
        [mv] => Ok(mv),
        [] => Err(ParseNotationError::NoSuchMove {
            text: quoted(text),
            fen: board.to_fen(),
        }),
        _ => Err(ParseNotationError::Ambiguous {
            text: quoted(text),
            moves,
            fen: board.to_fen(),
        }),
    }
}

/// A move in the ICCS record form, upper case with a dash: `H2-E2` for the
/// move that [`Move`]'s `Display` writes `h2e2`. `Move::NONE` gives `0000`.
pub fn iccs(m: Move) -> String {
    if m.is_none() {
        return m.to_string();
    }
    format!("{}-{}", m.from(), m.to()).to_ascii_uppercase()
}

/// Read ICCS coordinates in either form, `h2e2` or `H2-E2` (any case, the
/// dash optional). Syntax only, like [`Move::parse`]: legality is the
/// board's job ([`Board::parse_move`], [`Board::is_legal_move`]).
///
/// ```
/// use xiangqi::Move;
/// use xiangqi::notation::parse_iccs;
///
/// assert_eq!(parse_iccs("H2-E2"), Move::parse("h2e2"));
/// assert_eq!(parse_iccs("h2e2").map(|m| m.to_string()).as_deref(), Some("h2e2"));
/// assert_eq!(parse_iccs("H2-E"), None);
/// ```
pub fn parse_iccs(text: &str) -> Option<Move> {
    let t = text.trim().to_ascii_lowercase();
    let (from, to) = match t.len() {
        4 if t.is_char_boundary(2) => t.split_at(2),
        5 if t.as_bytes()[2] == b'-' => (&t[..2], &t[3..]),
        _ => return None,
    };
    let (from, to) = (Square::parse(from)?, Square::parse(to)?);
    (from != to).then(|| Move::new(from, to))
}
