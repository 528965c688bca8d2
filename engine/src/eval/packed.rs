//! Packed scores: a middlegame and an endgame value in one `i32`, so that
//! sums of both are kept with one addition (the piece-square sums of
//! `Position`, the weight sums of the evaluation).

use crate::score::Score;

/// Pack a middlegame and an endgame value.
pub(super) const fn s(mg: i32, eg: i32) -> Score {
    (eg << 16).wrapping_add(mg)
}

/// Middlegame half of a packed score.
#[inline(always)]
pub(super) const fn mg(v: Score) -> i32 {
    v as i16 as i32
}

/// Endgame half of a packed score.
#[inline(always)]
pub(super) const fn eg(v: Score) -> i32 {
    ((v.wrapping_add(0x8000)) >> 16) as i16 as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing() {
        for (a, b) in [(0, 0), (100, -50), (-300, 1200), (-1, -1), (32000, -32000)] {
            let v = s(a, b);
            assert_eq!((mg(v), eg(v)), (a, b));
        }
        let v = s(10, 20) + s(-30, 5) - s(1, -1);
        assert_eq!((mg(v), eg(v)), (-21, 26));
    }
}
