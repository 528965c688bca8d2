//! Material and piece-square values, kept incrementally by the board.
//!
//! A score here is a packed pair (middlegame, endgame) in one `i32`, so the
//! board adds and subtracts one number per move; `eval` splits and tapers it
//! by the game phase.

use crate::types::{FILES, Piece, PieceKind, RANKS, SQUARES, Score, Square};

/// Pack a middlegame and an endgame value.
pub const fn s(mg: i32, eg: i32) -> Score {
    (eg << 16).wrapping_add(mg)
}

/// Middlegame half of a packed score.
#[inline(always)]
pub const fn mg(v: Score) -> i32 {
    v as i16 as i32
}

/// Endgame half of a packed score.
#[inline(always)]
pub const fn eg(v: Score) -> i32 {
    ((v.wrapping_add(0x8000)) >> 16) as i16 as i32
}

/// Phase weight of each kind (king, advisor, elephant, horse, rook, cannon, pawn).
pub const PHASE_WEIGHT: [i32; 7] = [0, 1, 1, 3, 6, 3, 0];
/// Phase material of the start position.
pub const MAX_PHASE: i32 = 2 * (2 + 2 + 2 * 3 + 2 * 6 + 2 * 3);

/// Material of each kind as (middlegame, endgame).
pub const MATERIAL: [(i32, i32); 7] = [
    (0, 0),
    (200, 200),
    (200, 190),
    (420, 470),
    (1000, 1050),
    (450, 420),
    (90, 110),
];

/// Piece-square bonuses from Red's side, rank 0 first (a0..i0, a1..i1, ...),
/// as (middlegame, endgame) pairs collapsed to one table per phase.
type Table = [[i32; FILES]; RANKS];

const ZERO: Table = [[0; FILES]; RANKS];

const PAWN_MG: Table = [
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, -5, 0, 8, 0, -5, 0, 0],
    [0, 0, 2, 0, 12, 0, 2, 0, 0],
    [10, 18, 22, 35, 40, 35, 22, 18, 10],
    [20, 27, 30, 40, 42, 40, 30, 27, 20],
    [20, 30, 45, 55, 55, 55, 45, 30, 20],
    [20, 30, 50, 65, 70, 65, 50, 30, 20],
    [0, 3, 6, 9, 12, 9, 6, 3, 0],
];

const PAWN_EG: Table = [
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 5, 0, 0, 0, 0],
    [5, 0, 8, 0, 12, 0, 8, 0, 5],
    [40, 45, 50, 55, 60, 55, 50, 45, 40],
    [50, 55, 60, 70, 75, 70, 60, 55, 50],
    [55, 60, 70, 80, 85, 80, 70, 60, 55],
    [50, 60, 70, 85, 90, 85, 70, 60, 50],
    [10, 15, 20, 30, 35, 30, 20, 15, 10],
];

const HORSE_MG: Table = [
    [0, -5, 0, 0, 0, 0, 0, -5, 0],
    [0, 0, 0, 0, -10, 0, 0, 0, 0],
    [4, 2, 10, 8, 4, 8, 10, 2, 4],
    [2, 8, 10, 12, 10, 12, 10, 8, 2],
    [4, 10, 15, 16, 14, 16, 15, 10, 4],
    [6, 16, 16, 20, 16, 20, 16, 16, 6],
    [8, 20, 22, 24, 22, 24, 22, 20, 8],
    [10, 16, 24, 20, 22, 20, 24, 16, 10],
    [4, 20, 18, 28, 12, 28, 18, 20, 4],
    [4, 4, 4, 12, 4, 12, 4, 4, 4],
];

const ROOK_MG: Table = [
    [-6, 6, 4, 12, 0, 12, 4, 6, -6],
    [5, 8, 6, 12, 0, 12, 6, 8, 5],
    [-2, 8, 4, 12, 12, 12, 4, 8, -2],
    [4, 9, 4, 12, 14, 12, 4, 9, 4],
    [8, 12, 12, 14, 15, 14, 12, 12, 8],
    [8, 11, 11, 14, 15, 14, 11, 11, 8],
    [6, 13, 13, 16, 16, 16, 13, 13, 6],
    [6, 8, 7, 14, 16, 14, 7, 8, 6],
    [6, 12, 9, 16, 33, 16, 9, 12, 6],
    [6, 8, 7, 13, 14, 13, 7, 8, 6],
];

const CANNON_MG: Table = [
    [0, 0, 1, 3, 3, 3, 1, 0, 0],
    [0, 1, 2, 2, 2, 2, 2, 1, 0],
    [1, 0, 4, 3, 5, 3, 4, 0, 1],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [-1, 0, 3, 0, 4, 0, 3, 0, -1],
    [0, 0, 0, 0, 4, 0, 0, 0, 0],
    [0, 3, 3, 2, 4, 2, 3, 3, 0],
    [1, 1, 0, -5, -4, -5, 0, 1, 1],
    [2, 2, 0, -4, -7, -4, 0, 2, 2],
    [4, 4, 0, -5, -6, -5, 0, 4, 4],
];

const KING_MG: Table = {
    let mut t = ZERO;
    t[0] = [0, 0, 0, 8, 10, 8, 0, 0, 0];
    t[1] = [0, 0, 0, -8, -10, -8, 0, 0, 0];
    t[2] = [0, 0, 0, -20, -25, -20, 0, 0, 0];
    t
};

const ADVISOR_MG: Table = {
    let mut t = ZERO;
    t[0] = [0, 0, 0, 0, 0, 0, 0, 0, 0];
    t[1] = [0, 0, 0, 0, 3, 0, 0, 0, 0];
    t
};

const ELEPHANT_MG: Table = {
    let mut t = ZERO;
    t[0] = [0, 0, 0, 0, 0, 0, 0, 0, 0];
    t[2] = [-2, 0, 0, 0, 3, 0, 0, 0, -2];
    t
};

/// Tables per kind as (middlegame, endgame).
const TABLES: [(Table, Table); 7] = [
    (KING_MG, ZERO),
    (ADVISOR_MG, ZERO),
    (ELEPHANT_MG, ZERO),
    (HORSE_MG, HORSE_MG),
    (ROOK_MG, ZERO),
    (CANNON_MG, ZERO),
    (PAWN_MG, PAWN_EG),
];

const fn build() -> [[Score; SQUARES]; Piece::COUNT] {
    let mut t = [[0; SQUARES]; Piece::COUNT];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 7 {
            let mut sq = 0;
            while sq < SQUARES {
                // Black's tables are Red's seen from the other side.
                let (f, r) = if c == 0 {
                    (sq % FILES, sq / FILES)
                } else {
                    (FILES - 1 - sq % FILES, RANKS - 1 - sq / FILES)
                };
                let (mgt, egt) = &TABLES[k];
                t[c * 7 + k][sq] = s(MATERIAL[k].0 + mgt[r][f], MATERIAL[k].1 + egt[r][f]);
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

/// Material value of a kind in the middlegame, for move ordering and SEE.
pub const fn see_value(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::King => 10000,
        _ => MATERIAL[kind as usize].0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Color;

    #[test]
    fn packing() {
        for (a, b) in [(0, 0), (100, -50), (-300, 1200), (-1, -1), (32000, -32000)] {
            let v = s(a, b);
            assert_eq!((mg(v), eg(v)), (a, b));
        }
        let v = s(10, 20) + s(-30, 5) - s(1, -1);
        assert_eq!((mg(v), eg(v)), (-21, 26));
    }

    #[test]
    fn tables_are_colour_symmetric() {
        for k in PieceKind::ALL {
            for i in 0..SQUARES {
                let sq = Square::from_index(i).unwrap();
                assert_eq!(
                    value(Piece::new(Color::Red, k), sq),
                    value(Piece::new(Color::Black, k), sq.rotate())
                );
            }
        }
    }
}
