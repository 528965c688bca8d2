//! Xiangqi (Chinese chess) rules: the board, FEN, legal moves, perft, game
//! rulings (checkmate, stalemate, perpetual check and chase, repetition, the
//! natural-move limit, dead draws) and move notation.

pub mod board;
pub mod notation;
pub mod perft;
pub mod rules;
pub mod types;

pub use board::{Board, FenError, MoveError, MoveList, START_FEN};
pub use rules::{Outcome, Reason};
pub use types::{Color, FILES, Move, Piece, PieceKind, RANKS, SQUARES, Square};
