//! [`Undo`]: one move of a board's history.

use super::{EMPTY, piece_of_id};
use crate::types::{Move, Piece};

/// One move of the history ([`Board::history`](crate::Board::history)): what `unmake_move` needs,
/// and what the rules need of the game so far.
///
/// Its fields are the board's bookkeeping; the accessors give what a user
/// can rely on.
///
/// ```
/// use xiangqi::{Board, Color, PieceKind};
///
/// let mut board = Board::startpos();
/// let start_key = board.key();
/// for text in ["h2e2", "h9g7", "e2e6"] {
///     board.play(text.parse()?)?;
/// }
/// let last = board.history()[2];
/// assert_eq!(last.mv().to_string(), "e2e6");
/// let taken = last.captured().map(|p| (p.color(), p.kind()));
/// assert_eq!(taken, Some((Color::Black, PieceKind::Pawn)));
/// assert!(last.is_capture());
/// assert!(!last.gave_check()); // no screen between the cannon and the king
/// assert!(!board.history()[0].is_capture());
/// assert_eq!(board.history()[0].key_before(), start_key);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    /// The move made (`Move::NONE` for a null move).
    pub(super) mv: Move,
    /// Id of the captured piece (as `Board::cell` gives them), 0 if none.
    pub(super) captured: u8,
    /// The move gave check (the side to move after it is in check).
    pub(super) check: bool,
    /// Key of the position before the move.
    pub(super) key: u64,
    /// [`Board::rule60`](crate::Board::rule60) before the move.
    pub(super) rule60: u16,
    /// [`Board::since_capture`](crate::Board::since_capture) before the move.
    pub(super) since_capture: u16,
    /// Plies since the last null move, before the move.
    pub(super) since_null: u16,
    /// Checks given by Red and by Black since the last capture, before the
    /// move (the natural-move counter stops counting after each side's tenth).
    pub(super) check10: [u8; 2],
}

impl Undo {
    /// The move made (`Move::NONE` for a null move, see [`Board::make_null`](crate::Board::make_null)).
    #[inline(always)]
    pub fn mv(&self) -> Move {
        self.mv
    }

    /// The piece the move captured, if any.
    #[inline]
    pub fn captured(&self) -> Option<Piece> {
        (self.captured != EMPTY).then(|| piece_of_id(self.captured))
    }

    /// Did the move capture?
    #[inline(always)]
    pub fn is_capture(&self) -> bool {
        self.captured != EMPTY
    }

    /// Did the move give check (is the side to move after it in check)?
    #[inline(always)]
    pub fn gave_check(&self) -> bool {
        self.check
    }

    /// The Zobrist key ([`Board::key`](crate::Board::key)) of the position before the move: a
    /// position recurs where a later key equals it.
    #[inline(always)]
    pub fn key_before(&self) -> u64 {
        self.key
    }
}
