//! The network's input features.
//!
//! Each perspective (Red's and Black's) has [`FEATURES`] = 2 × 7 × 90 = 1260
//! binary inputs, one per (relative colour, kind, square):
//!
//! ```text
//! feature_index = (relative_colour · 7 + kind) · 90 + square'
//! relative_colour = 0 for the perspective's own pieces, 1 for the opponent's
//! kind            = King 0, Advisor 1, Elephant 2, Horse 3, Rook 4, Cannon 5, Pawn 6
//! square'         = file + 9 · rank        for Red's perspective (the board as it is)
//!                 = file + 9 · (9 − rank)  for Black's (flipped top to bottom)
//! ```
//!
//! Flipping the ranks (not rotating: files stay) and swapping the colours
//! makes the two perspectives symmetric: a position and its colour-flipped
//! twin (ranks mirrored, colours swapped, the other side to move) have the
//! same inputs for the side to move and for the other side.
//!
//! Everything, the engine's accumulator and the trainer alike, goes through
//! [`feature_index`], so a king-bucketed feature set later changes this file
//! (and makes a king move refresh its perspective) and nothing else's maths.

use xiangqi::{Board, Color, FILES, Piece, PieceKind, RANKS, SQUARES, Square};

/// Inputs per perspective: own/their × 7 kinds × 90 squares.
pub const FEATURES: usize = 2 * PieceKind::ALL.len() * SQUARES;

/// Identifies this feature set in network files (see `network`).
pub const FEATURE_SET_ID: u16 = 0;

/// Most pieces on a Xiangqi board (and so most active features per perspective).
pub const MAX_ACTIVE: usize = 32;

/// The input of `piece` on `square` as seen from `perspective`.
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

/// The output bucket for a board with `piece_count` pieces (2..=32, kings
/// included): the range is cut into [`OUTPUT_BUCKETS`](super::OUTPUT_BUCKETS)
/// equal parts, fewest pieces first.
#[inline(always)]
pub const fn output_bucket(piece_count: usize) -> usize {
    let buckets = super::OUTPUT_BUCKETS;
    if buckets == 1 {
        return 0;
    }
    let b = piece_count.saturating_sub(2) * buckets / (MAX_ACTIVE - 1);
    if b < buckets { b } else { buckets - 1 }
}

/// Calls `f(piece, square)` for every piece on the board, in square order.
#[inline]
pub fn for_each_piece(board: &Board, mut f: impl FnMut(Piece, Square)) {
    for s in 0..SQUARES {
        let sq = Square::from_index_unchecked(s);
        if let Some(p) = board.piece_at(sq) {
            f(p, sq);
        }
    }
}

/// The active inputs of `board` from `perspective`, in square order.
pub fn active_features(board: &Board, perspective: Color) -> Vec<usize> {
    let mut v = Vec::with_capacity(MAX_ACTIVE);
    for_each_piece(board, |p, sq| v.push(feature_index(perspective, p, sq)));
    v
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The FEN of the colour-flipped twin: ranks in reverse order, letter
    /// cases swapped, the other side to move (other fields dropped).
    pub(crate) fn colour_flipped_fen(fen: &str) -> String {
        let mut fields = fen.split_whitespace();
        let board = fields.next().unwrap();
        let side = fields.next().unwrap_or("w");
        let ranks: Vec<String> = board
            .split('/')
            .rev()
            .map(|r| {
                r.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        let side = if side == "b" { "w" } else { "b" };
        format!("{} {side}", ranks.join("/"))
    }

    #[test]
    fn indices_are_distinct_and_in_range() {
        for persp in Color::BOTH {
            let mut seen = vec![false; FEATURES];
            for c in Color::BOTH {
                for k in PieceKind::ALL {
                    for s in 0..SQUARES {
                        let f =
                            feature_index(persp, Piece::new(c, k), Square::from_index_unchecked(s));
                        assert!(f < FEATURES);
                        assert!(!seen[f], "feature {f} twice");
                        seen[f] = true;
                    }
                }
            }
        }
        assert_eq!(FEATURES, 1260);
    }

    #[test]
    fn documented_examples() {
        let red_king = Piece::new(Color::Red, PieceKind::King);
        let e0 = Square::parse("e0").unwrap();
        // Red's own king on e0: kind 0, square 4.
        assert_eq!(feature_index(Color::Red, red_king, e0), 4);
        // Black sees it as the opponent's king on e9 (4 + 81).
        assert_eq!(feature_index(Color::Black, red_king, e0), 7 * 90 + 85);
        let black_pawn = Piece::new(Color::Black, PieceKind::Pawn);
        let c6 = Square::parse("c6").unwrap();
        // Black's own pawn on c6 appears on c3 from Black's side.
        assert_eq!(feature_index(Color::Black, black_pawn, c6), 6 * 90 + 2 + 27);
        assert_eq!(feature_index(Color::Red, black_pawn, c6), 13 * 90 + 2 + 54);
    }

    #[test]
    fn colour_flipped_twins_have_the_same_inputs() {
        for fen in [
            xiangqi::START_FEN,
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
        ] {
            let a = Board::from_fen(fen).unwrap();
            let b = Board::from_fen(&colour_flipped_fen(fen)).unwrap();
            let sorted = |board: &Board, p: Color| {
                let mut v = active_features(board, p);
                v.sort_unstable();
                v
            };
            let (sa, sb) = (a.side_to_move(), b.side_to_move());
            assert_ne!(sa, sb);
            assert_eq!(sorted(&a, sa), sorted(&b, sb), "{fen}");
            assert_eq!(sorted(&a, sa.flip()), sorted(&b, sb.flip()), "{fen}");
        }
    }

    #[test]
    fn buckets_cover_the_piece_counts() {
        for n in 0..=40 {
            assert!(output_bucket(n) < crate::nnue::OUTPUT_BUCKETS);
        }
        assert_eq!(output_bucket(2), 0);
    }
}
