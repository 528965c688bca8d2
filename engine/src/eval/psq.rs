//! Material and piece-square values, kept incrementally by the board.
//!
//! A score here is a packed pair (middlegame, endgame) in one `i32`, so the
//! board adds and subtracts one number per move; `eval` splits and tapers it
//! by the game phase. The values come from the tuned weights (`params`).

use super::packed::s;
use super::params::{ADVISOR_MISSING, ELEPHANT_MISSING, MATERIAL, pst_index};
use super::weights::WEIGHTS;
use crate::score::Score;
use xiangqi::types::{Color, Piece, PieceKind, SQUARES, Square};

/// Phase weight of each kind (king, advisor, elephant, horse, rook, cannon, pawn).
pub const PHASE_WEIGHT: [i32; 7] = [0, 1, 1, 3, 6, 3, 0];
/// Phase material of the start position.
pub const MAX_PHASE: i32 = 2 * (2 + 2 + 2 * 3 + 2 * 6 + 2 * 3);

const fn build() -> [[Score; SQUARES]; Piece::COUNT] {
    let mut t = [[0; SQUARES]; Piece::COUNT];
    let mut c = 0;
    while c < 2 {
        let color = Color::from_index(c);
        let mut k = 0;
        while k < 7 {
            let kind = PieceKind::from_index(k);
            let mut sq = 0;
            while sq < SQUARES {
                let m = WEIGHTS[MATERIAL + k];
                let p = WEIGHTS[pst_index(color, kind, Square::from_index_unchecked(sq))];
                t[c * 7 + k][sq] = s(m.0 + p.0, m.1 + p.1);
                sq += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
}

static PSQ: [[Score; SQUARES]; Piece::COUNT] = build();

/// Material plus square bonus of a piece on a square (packed).
#[inline(always)]
pub fn value(piece: Piece, sq: Square) -> Score {
    PSQ[piece.index()][sq.index()]
}

/// Change of the packed value when piece code `piece` moves `from` -> `to`.
#[inline(always)]
pub(crate) fn delta(piece: usize, from: usize, to: usize) -> Score {
    PSQ[piece][to].wrapping_sub(PSQ[piece][from])
}

/// Enemy rooks, horses and cannons a defender's SEE value counts on.
const SEE_ATTACKERS: i32 = 3;

/// Value of a kind for move ordering and SEE: its material and, for an
/// advisor or an elephant, the king safety its loss costs against
/// `SEE_ATTACKERS` enemy rooks, horses and cannons (middlegame weights of
/// the missing-defender terms). Material alone prices a defender below a
/// pawn, as the rest of its worth is king safety, and SEE would then throw
/// away a pawn's capture of a guarded advisor.
pub const fn see_value(kind: PieceKind) -> i32 {
    let material = WEIGHTS[MATERIAL + kind as usize].0;
    match kind {
        PieceKind::King => 10000,
        PieceKind::Advisor => material + SEE_ATTACKERS * WEIGHTS[ADVISOR_MISSING].0,
        PieceKind::Elephant => material + SEE_ATTACKERS * WEIGHTS[ELEPHANT_MISSING].0,
        _ => material,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn see_values_are_ordered() {
        let v = see_value;
        assert!(
            v(PieceKind::Rook) > v(PieceKind::Horse) && v(PieceKind::Rook) > v(PieceKind::Cannon)
        );
        for d in [PieceKind::Advisor, PieceKind::Elephant] {
            assert!(
                v(d) > v(PieceKind::Pawn) && v(d) < v(PieceKind::Horse),
                "{d:?}"
            );
        }
        assert!(v(PieceKind::Pawn) > 0);
    }

    #[test]
    fn tables_are_colour_and_mirror_symmetric() {
        for k in PieceKind::ALL {
            for i in 0..SQUARES {
                let sq = Square::from_index(i).unwrap();
                let red = value(Piece::new(Color::Red, k), sq);
                assert_eq!(red, value(Piece::new(Color::Black, k), sq.rotate()));
                assert_eq!(red, value(Piece::new(Color::Red, k), sq.mirror()));
            }
        }
    }
}
