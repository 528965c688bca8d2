//! The piece-square block: one input per (own/their piece kind, square)
//! from each perspective, once per bucket of the perspective's own king
//! square (see `features` for the sets that use it and their layouts).
//!
//! ```text
//! feature_index = (relative_colour · 7 + kind) · 90 + square'
//! relative_colour = 0 for the perspective's own pieces, 1 for the opponent's
//! kind            = King 0, Advisor 1, Elephant 2, Horse 3, Rook 4, Cannon 5, Pawn 6
//! square'         = file + 9 · rank        for Red's perspective (the board as it is)
//!                 = file + 9 · (9 − rank)  for Black's (flipped top to bottom)
//! index           = bucket · 1260 + feature_index(piece, square mirrored or not)
//! ```
//!
//! A [`View`] is a perspective's (bucket, mirror) pair: it changes only when
//! that side's own king moves, and then the perspective's half is
//! recomputed (through the refresh cache) rather than updated.

use super::block::{BlockMove, InputBlock, Placement};
use super::quant::MAX_L1_WEIGHT;
use xiangqi::{Color, FILES, Piece, PieceKind, RANKS, SQUARES, Square};

/// Piece-square inputs per perspective: own/their × 7 kinds × 90 squares.
pub const FEATURES: usize = 2 * PieceKind::ALL.len() * SQUARES;

/// Most king buckets of any feature set (the refresh cache's slots).
pub const MAX_KING_BUCKETS: usize = 9;

/// Buckets of the own king's square in `kingbucket6` ([`KingLayout::Six`]).
pub const KING_BUCKETS: usize = 6;

/// How a piece-square block depends on the perspective's own
/// king: which block of 1260 inputs it reads, and whether it sees the board
/// mirrored left to right ([`View`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KingLayout {
    /// One block whatever the king's square.
    None,
    /// `kingbucket6`: the palace square, d and f files merged by mirroring
    /// (a king on the f file sees the board mirrored), 9 squares in 6
    /// buckets. Mirrored and unmirrored kings share a bucket, so a net
    /// without buckets (which is not left-right symmetric) cannot be
    /// copied into it exactly.
    Six,
    /// `kingbucket9`: one bucket per palace square, and the three f-file
    /// buckets mirrored, so that each bucket is either always mirrored or
    /// never. A net without buckets grows into it exactly (each bucket a
    /// copy, the f-file ones with the squares mirrored, so that they read
    /// the same weight for the same piece on the same square), and the
    /// f-file buckets see the board as the d-file ones do, so the trainer
    /// can tie a d bucket to its f twin (`--tie-mirrored`) and keep
    /// mirroring's data sharing. See docs/nnue.md, "Growing a net".
    Nine,
    /// `kingbucket3`: one bucket per file of the palace (d, e, f), the
    /// f-file one mirrored: `kingbucket9` with its ranks merged. Grows from
    /// a net without buckets exactly, its d and f buckets can be tied, and
    /// at a 1024 accumulator it stays under the 8 MiB a built-in net may have.
    Three,
}

impl KingLayout {
    /// Buckets of the layout.
    pub const fn buckets(self) -> usize {
        match self {
            KingLayout::None => 1,
            KingLayout::Six => KING_BUCKETS,
            KingLayout::Nine => MAX_KING_BUCKETS,
            KingLayout::Three => 3,
        }
    }

    /// The view of `perspective` when its own king stands on `king`. A king
    /// outside the palace (not a legal position) counts as on its nearest
    /// palace square, so that no input is ever out of range.
    #[inline(always)]
    pub fn view(self, perspective: Color, king: Square) -> View {
        if self == KingLayout::None {
            return View::default();
        }
        let s = king.index();
        let (file, rank) = (s % FILES, s / FILES);
        let rank = match perspective {
            Color::Red => rank,
            Color::Black => RANKS - 1 - rank,
        };
        let bucket = match self {
            KingLayout::Nine => rank.min(2) * 3 + file.clamp(3, 5) - 3,
            KingLayout::Three => file.clamp(3, 5) - 3,
            _ => rank.min(2) * 2 + (file != 4) as usize,
        };
        View::new(bucket, file > 4)
    }

    /// The view of `perspective` in `position` (the default view for a
    /// side without a king).
    #[inline]
    pub fn view_of(self, perspective: Color, position: &Placement) -> View {
        match position.king(perspective) {
            Some(king) => self.view(perspective, king),
            None => View::default(),
        }
    }
}

/// Which block of a king-bucketed feature set a perspective reads, and
/// whether it sees the board mirrored left to right.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct View {
    /// `bucket · FEATURES`.
    offset: u16,
    mirror: bool,
}

impl View {
    /// The view of block `bucket`, mirrored or not.
    pub const fn new(bucket: usize, mirror: bool) -> View {
        View {
            offset: (bucket * FEATURES) as u16,
            mirror,
        }
    }

    /// The king bucket (0 for a feature set without buckets).
    pub fn bucket(self) -> usize {
        self.offset as usize / FEATURES
    }

    /// Whether the perspective sees the board mirrored left to right.
    pub fn mirrored(self) -> bool {
        self.mirror
    }

    /// The input of `piece` on `square` for `perspective` in this view.
    #[inline(always)]
    pub fn index(self, perspective: Color, piece: Piece, square: Square) -> usize {
        let s = if self.mirror {
            Square::from_index_unchecked(mirror_square(square.index()))
        } else {
            square
        };
        self.offset as usize + feature_index(perspective, piece, s)
    }
}

/// `sq` mirrored left to right (file `f` to `8 − f`).
#[inline(always)]
pub const fn mirror_square(sq: usize) -> usize {
    sq - sq % FILES + (FILES - 1 - sq % FILES)
}

/// The piece-square input of `piece` on `square` as seen from `perspective`
/// (feature set 0; the other sets add a bucket offset and maybe a mirror).
#[inline(always)]
pub const fn feature_index(perspective: Color, piece: Piece, square: Square) -> usize {
    let s = square.index();
    let (relative, s) = match perspective {
        Color::Red => (piece.color() as usize, s),
        Color::Black => (
            1 - piece.color() as usize,
            s % FILES + FILES * (RANKS - 1 - s / FILES),
        ),
    };
    (relative * 7 + piece.kind() as usize) * SQUARES + s
}

/// The piece-square block in one king layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PieceSquare(pub KingLayout);

impl PieceSquare {
    /// Inputs per perspective: a block of [`FEATURES`] per king bucket.
    pub const fn inputs(self) -> usize {
        self.0.buckets() * FEATURES
    }
}

impl InputBlock for PieceSquare {
    fn tag(&self) -> &'static str {
        match self.0 {
            KingLayout::None => "psq",
            KingLayout::Six => "kingbucket6",
            KingLayout::Nine => "kingbucket9",
            KingLayout::Three => "kingbucket3",
        }
    }

    fn size(&self) -> usize {
        self.inputs()
    }

    /// Bias plus 32 pieces fit an `i16`.
    fn weight_bound(&self) -> i16 {
        MAX_L1_WEIGHT
    }

    fn rows_name(&self) -> &'static str {
        "first-layer weights"
    }

    /// The pieces in the position's order.
    #[inline]
    fn for_each_active(&self, perspective: Color, position: &Placement, mut f: impl FnMut(usize)) {
        let view = self.0.view_of(perspective, position);
        for &(piece, sq) in position.pieces {
            f(view.index(perspective, piece, sq));
        }
    }

    #[inline]
    fn for_each_active_pair(
        &self,
        [first, second]: [Color; 2],
        position: &Placement,
        mut f: impl FnMut(usize, usize),
    ) {
        let views = [first, second].map(|p| self.0.view_of(p, position));
        for &(piece, sq) in position.pieces {
            f(
                views[0].index(first, piece, sq),
                views[1].index(second, piece, sq),
            );
        }
    }

    /// The perspective's own king changing view (bucket or mirror).
    fn forces_refresh(&self, perspective: Color, _before: &Placement, mv: &BlockMove) -> bool {
        mv.piece.kind() == PieceKind::King
            && mv.piece.color() == perspective
            && self.0.view(perspective, mv.from) != self.0.view(perspective, mv.to)
    }

    /// The mover off its square and onto its target, the captured piece off.
    fn for_each_change(
        &self,
        perspective: Color,
        before: &Placement,
        mv: &BlockMove,
        mut f: impl FnMut(usize, bool),
    ) {
        let view = self.0.view_of(perspective, before);
        f(view.index(perspective, mv.piece, mv.from), false);
        f(view.index(perspective, mv.piece, mv.to), true);
        if let Some(captured) = mv.captured {
            f(view.index(perspective, captured, mv.to), false);
        }
    }
}
