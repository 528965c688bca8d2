//! Xiangqi (Chinese chess) rules: the board, FEN, legal moves, perft, game
//! rulings (checkmate, stalemate, perpetual check and chase, repetition, the
//! natural-move limit, dead draws) and move notation (ICCS, Chinese, WXF).
//!
//! The centre of the crate is [`Board`]: a position and the moves that led to
//! it, with fast legal move generation and make/unmake. [`rules::judge`]
//! rules on a game, [`notation`] writes moves for people, [`perft`] counts
//! move trees.
//!
//! # Coordinates
//!
//! Files `a`..`i` run from Red's left to Red's right, ranks `0`..`9` from
//! Red's side (Red's king starts on `e0`, Black's on `e9`; the river lies
//! between ranks 4 and 5). A [`Square`] prints as `e0`; a [`Move`] prints as
//! its two squares in ICCS coordinates, `h2e2`, the form UCI and UCCI
//! engines use. FEN follows Pikafish and Fairy-Stockfish: Red in upper case,
//! `w` for Red to move (see [`board::fen`]).
//!
//! # Parse a FEN and list the legal moves
//!
//! ```
//! use xiangqi::{Board, Color};
//!
//! let board = Board::from_fen(
//!     "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
//! )?;
//! assert_eq!(board.side_to_move(), Color::Red);
//! let moves = board.legal_moves();
//! assert_eq!(moves.len(), 44);
//! let texts: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
//! assert!(texts.contains(&"h2e2".to_string()));
//! # Ok::<(), xiangqi::FenError>(())
//! ```
//!
//! # Play moves
//!
//! [`Board::parse_move`] reads ICCS coordinates and checks legality;
//! [`Board::make_move`] plays a move and [`Board::unmake_move`] takes it back.
//!
//! ```
//! use xiangqi::notation::{chinese, wxf};
//! use xiangqi::{Board, MoveError};
//!
//! let mut board = Board::startpos();
//! let mut record = Vec::new();
//! for text in ["h2e2", "h9g7", "h0g2", "i9h9"] {
//!     let mv = board.parse_move(text)?;
//!     record.push(format!("{mv} {} {}", chinese(&board, mv), wxf(&board, mv)));
//!     board.make_move(mv);
//! }
//! assert_eq!(record[0], "h2e2 炮二平五 C2.5");
//! assert_eq!(record[1], "h9g7 马8进7 H8+7");
//! assert_eq!(
//!     board.to_fen(),
//!     "rnbakabr1/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3"
//! );
//!
//! // Illegal and malformed moves are errors, with the reason in words.
//! let err = board.parse_move("e0e2").unwrap_err();
//! assert!(matches!(err, MoveError::Illegal { .. }));
//! assert_eq!(
//!     board.parse_move("e0").unwrap_err().to_string(),
//!     "'e0' is not a move"
//! );
//!
//! board.unmake_move();
//! assert_eq!(board.history().len(), 3);
//! # Ok::<(), MoveError>(())
//! ```
//!
//! # Ask for a ruling
//!
//! [`rules::judge`] looks at the position and its history and returns an
//! [`Outcome`]: mate and stalemate (both lose), perpetual check and chase
//! (the offender loses), other repetitions, the natural-move limit and dead
//! draws.
//!
//! ```
//! use xiangqi::rules::{judge, Outcome, Reason};
//! use xiangqi::{Board, Color};
//!
//! // Black to move, in check from the rook on a9, no way out.
//! let board = Board::from_fen("R2k5/1R7/9/9/9/9/9/9/9/5K3 b")?;
//! assert!(board.in_check());
//! assert!(board.legal_moves().is_empty());
//! let outcome = judge(&board, 3);
//! assert_eq!(outcome, Outcome::Win(Color::Red, Reason::Checkmate));
//! assert_eq!(outcome.to_string(), "red (checkmate)");
//!
//! // Two kings and nothing else: neither side can mate.
//! let board = Board::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w")?;
//! assert_eq!(judge(&board, 3), Outcome::Draw(Reason::DeadDraw));
//! # Ok::<(), xiangqi::FenError>(())
//! ```
//!
//! # Perft
//!
//! ```
//! use xiangqi::Board;
//! use xiangqi::perft::perft;
//!
//! let mut board = Board::startpos();
//! assert_eq!(perft(&mut board, 3), 79_666);
//! ```
//!
//! # Parse, play and rule, the checked way
//!
//! [`Square`], [`Move`] and [`Board`] (from FEN) implement `FromStr` with
//! typed errors; [`Board::play`] plays a move only if it is legal, where
//! [`Board::make_move`] trusts its caller; [`Board::outcome`] rules on the
//! game played on the board; the notation readers take Chinese and WXF
//! records.
//!
//! ```
//! use xiangqi::notation::{parse_chinese, parse_wxf};
//! use xiangqi::{Board, Move, Outcome};
//!
//! let mut board: Board = xiangqi::START_FEN.parse()?;
//! board.play("h2e2".parse::<Move>()?)?;
//! board.play(parse_chinese(&board, "马８进７")?)?;
//! board.play(parse_wxf(&board, "H2+3")?)?;
//! assert!(board.play("h9h0".parse()?).is_err()); // no such rook move
//! assert_eq!(board.outcome(), Outcome::Ongoing);
//! for mv in board.legal_moves() {
//!     assert!(board.is_legal_move(mv));
//! }
//! assert_eq!(format!("{:?}", board.history()[0].mv()), "h2e2");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # For engines
//!
//! Besides the typed API the board offers what a search needs, at the cost
//! of a table lookup: what each piece attacks ([`Board::targets`],
//! [`Board::quiet_targets`], as a [`SquareSet`]), pin masks
//! ([`Board::pins`]), pseudo-legal generation, static exchange evaluation
//! ([`Board::see`]) and null moves (see [`board`]). Its internals (the
//! mailbox encoding, the geometry tables, the history's bookkeeping) are
//! private. The example `random_game` (`cargo run -p xiangqi --example
//! random_game`) plays a whole game.

#![deny(missing_docs)]

pub mod board;
pub mod notation;
pub mod perft;
pub mod rng;
pub mod rules;
mod square_set;
pub mod types;

pub use board::{Board, FenError, MoveError, MoveList, START_FEN, Undo};
pub use rules::{OUTCOME_FOLD, Outcome, Reason};
pub use square_set::{SquareSet, SquareSetIter};
pub use types::{
    Color, FILES, Move, ParseMoveError, ParseSquareError, Piece, PieceKind, RANKS, SQUARES, Square,
};

/// The examples of `README.md`, run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
