//! [`SquareSet`]: a set of squares, as [`Board::targets`](crate::Board::targets)
//! returns them.

use crate::types::{SQUARES, Square};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Sub};

/// A set of squares of the board, one bit per square ([`Square::index`]).
/// Copy, 16 bytes; union `|`, intersection `&` and difference `-` are single
/// operations, and iteration goes from `a0` to `i9`. `Debug` lists the
/// squares, `{a0, e1}`.
///
/// ```
/// use xiangqi::{Square, SquareSet};
///
/// let sq = |s: &str| s.parse::<Square>().unwrap();
/// let palace_corners: SquareSet = ["d0", "f0", "d2", "f2"].into_iter().map(sq).collect();
/// let mut centre = SquareSet::EMPTY;
/// centre.insert(sq("e1"));
/// let palace = palace_corners | centre;
/// assert_eq!(palace.len(), 5);
/// assert!(palace.contains(sq("e1")));
/// assert_eq!((palace - centre), palace_corners);
/// assert!((palace_corners & centre).is_empty());
/// assert_eq!(format!("{centre:?}"), "{e1}");
/// let files: Vec<usize> = palace.iter().map(|s| s.file()).collect();
/// assert_eq!(files, [3, 5, 4, 3, 5]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SquareSet(u128);

impl SquareSet {
    /// No square.
    pub const EMPTY: SquareSet = SquareSet(0);

    /// All 90 squares.
    pub const ALL: SquareSet = SquareSet((1u128 << SQUARES) - 1);

    /// The set with bit `Square::index` set for each square; bits 90 and up
    /// must be clear.
    #[inline(always)]
    pub(crate) const fn from_bits(bits: u128) -> SquareSet {
        debug_assert!(bits >> SQUARES == 0);
        SquareSet(bits)
    }

    /// Is `sq` in the set?
    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// Add `sq`.
    #[inline(always)]
    pub fn insert(&mut self, sq: Square) {
        self.0 |= 1 << sq.index();
    }

    /// Take `sq` out.
    #[inline(always)]
    pub fn remove(&mut self, sq: Square) {
        self.0 &= !(1 << sq.index());
    }

    /// Number of squares in the set.
    #[inline(always)]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Is the set empty?
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The squares, from `a0` (index 0) up.
    #[inline(always)]
    pub fn iter(self) -> SquareSetIter {
        SquareSetIter(self.0)
    }
}

/// The squares of a [`SquareSet`], lowest index first.
#[derive(Clone)]
pub struct SquareSetIter(u128);

impl Iterator for SquareSetIter {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(Square::from_index_unchecked(index))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for SquareSetIter {}

impl IntoIterator for SquareSet {
    type Item = Square;
    type IntoIter = SquareSetIter;

    fn into_iter(self) -> SquareSetIter {
        self.iter()
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<I: IntoIterator<Item = Square>>(squares: I) -> SquareSet {
        let mut set = SquareSet::EMPTY;
        for sq in squares {
            set.insert(sq);
        }
        set
    }
}

impl From<Square> for SquareSet {
    /// The set of this one square.
    fn from(sq: Square) -> SquareSet {
        SquareSet(1 << sq.index())
    }
}

impl BitOr for SquareSet {
    type Output = SquareSet;
    #[inline(always)]
    fn bitor(self, other: SquareSet) -> SquareSet {
        SquareSet(self.0 | other.0)
    }
}

impl BitOrAssign for SquareSet {
    #[inline(always)]
    fn bitor_assign(&mut self, other: SquareSet) {
        self.0 |= other.0;
    }
}

impl BitAnd for SquareSet {
    type Output = SquareSet;
    #[inline(always)]
    fn bitand(self, other: SquareSet) -> SquareSet {
        SquareSet(self.0 & other.0)
    }
}

impl BitAndAssign for SquareSet {
    #[inline(always)]
    fn bitand_assign(&mut self, other: SquareSet) {
        self.0 &= other.0;
    }
}

impl Sub for SquareSet {
    type Output = SquareSet;
    /// The squares of `self` that are not in `other`.
    #[inline(always)]
    fn sub(self, other: SquareSet) -> SquareSet {
        SquareSet(self.0 & !other.0)
    }
}

impl fmt::Debug for SquareSet {
    /// The squares, `{a0, e1}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let all: SquareSet = (0..SQUARES).filter_map(Square::from_index).collect();
        assert_eq!(all, SquareSet::ALL);
        assert_eq!(all.len(), 90);
        assert_eq!(all.iter().len(), 90);
        assert!(all.iter().map(|s| s.index()).eq(0..SQUARES));
        let mut set = SquareSet::EMPTY;
        let e0 = Square::new(4, 0);
        set.insert(e0);
        set.insert(e0);
        assert_eq!(set, SquareSet::from(e0));
        assert_eq!(all - set, {
            let mut rest = all;
            rest.remove(e0);
            rest
        });
        assert!((all - all).is_empty());
        assert_eq!(format!("{:?}", SquareSet::EMPTY), "{}");
    }
}
