//! The accumulator's part for the input block a feature set keeps apart
//! from the piece-square rows (`InputBlock::kept_apart`; one kind so far,
//! the attacks). Its inputs follow from the squares alone, the same in every
//! king view, and a move changes some that are not the mover's (a cannon's
//! screen, a horse's leg, a rook's line): the part keeps the position's
//! squares and the block's sorted entry list, and after a move takes the
//! list of the squares after it and applies the rows of the entries that
//! came and went (usually a few). It is kept without bias, so that each
//! part keeps its own `i16` bound, and summed with the piece-square part
//! (saturating, which is exact inside SCReLU's clamp) into what evaluation
//! reads; piece-square updates and king-bucket refreshes never touch it.

use super::block::{EntryList, InputBlock, Squares, diff};
use super::features::Block;
use super::network::Network;
use super::rows::{MAX_ROWS, apply_rows, by_width, width};
use super::simd;
use xiangqi::{Color, Move};

/// `dst += rows of the entries only in new − rows of those only in old`,
/// for both perspectives (Red's `L1` values, then Black's), `block`'s
/// inputs numbered from `offset`: the rows are gathered, then summed a tile
/// at a time (`apply_rows`).
#[inline(always)]
fn apply_entries_n<const N: usize>(
    dst: &mut [i16],
    net: &Network,
    (block, offset): (Block, usize),
    old: &[u16],
    new: &[u16],
) {
    let l1 = net.l1();
    // Each list holds at most MAX_BLOCK_ACTIVE (= MAX_ROWS) entries, so at
    // most that many came and that many went.
    let mut added = [0u16; MAX_ROWS];
    let mut removed = [0u16; MAX_ROWS];
    let (mut na, mut nr) = (0, 0);
    diff(old, new, |entry, is_added| {
        if is_added {
            added[na] = entry;
            na += 1;
        } else {
            removed[nr] = entry;
            nr += 1;
        }
    });
    let (red, black) = dst.split_at_mut(l1);
    for (p, half) in [(Color::Red, red), (Color::Black, black)] {
        let mut add: [&[i16]; MAX_ROWS] = [&[]; MAX_ROWS];
        let mut sub: [&[i16]; MAX_ROWS] = [&[]; MAX_ROWS];
        for (row, &e) in add.iter_mut().zip(&added[..na]) {
            *row = net.l1_row(offset + block.entry_index(p, e));
        }
        for (row, &e) in sub.iter_mut().zip(&removed[..nr]) {
            *row = net.l1_row(offset + block.entry_index(p, e));
        }
        apply_rows::<N>(half, &add[..na], &sub[..nr]);
    }
}

/// The part of an accumulator for the block kept apart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct ApartPart {
    /// The block and its first input in the set.
    block: (Block, usize),
    /// Σ rows of the block's active inputs: Red's `L1`, then Black's (no bias).
    values: Vec<i16>,
    /// The piece-square values plus `values`, saturating: what evaluation reads.
    sum: Vec<i16>,
    /// The position's squares and the block's entries there.
    squares: Squares,
    list: EntryList,
}

impl ApartPart {
    /// A part to be filled by [`ApartPart::refresh`] or [`ApartPart::update_from`].
    pub(super) fn empty(block: (Block, usize)) -> Box<ApartPart> {
        Box::new(ApartPart {
            block,
            values: Vec::new(),
            sum: Vec::new(),
            squares: [0; xiangqi::SQUARES],
            list: EntryList::default(),
        })
    }

    /// The block and its first input in the set.
    #[inline(always)]
    pub(super) fn block(&self) -> (Block, usize) {
        self.block
    }

    /// What evaluation reads: Red's `L1` values, then Black's.
    #[inline(always)]
    pub(super) fn sum(&self) -> &[i16] {
        &self.sum
    }

    /// Recompute for `block` (with its first input) on the position
    /// `squares`, and the sum with the piece-square values `psq`.
    pub(super) fn refresh(
        &mut self,
        net: &Network,
        block: (Block, usize),
        squares: &Squares,
        psq: &[i16],
    ) {
        self.block = block;
        self.squares = *squares;
        self.list = block.0.entries(squares);
        self.values.clear();
        self.values.resize(2 * net.l1(), 0);
        let (values, list) = (&mut self.values, self.list.as_slice());
        simd::dispatch(
            #[inline(always)]
            || by_width!(net.l1(), apply_entries_n, values, net, block, &[], list),
        );
        simd::dispatch(
            #[inline(always)]
            || by_width!(net.l1(), Self::sum_n, self, psq),
        );
    }

    /// Become `old` after `mv`, the piece-square values after it being
    /// `psq`: the squares after the move, their entries, and the rows of
    /// the entries that came and went.
    #[inline(always)]
    pub(super) fn update_from(&mut self, old: &ApartPart, net: &Network, mv: Move, psq: &[i16]) {
        self.block = old.block;
        self.squares = old.squares;
        self.squares[mv.to().index()] = self.squares[mv.from().index()];
        self.squares[mv.from().index()] = 0;
        self.list = old.block.0.entries(&self.squares);
        self.values.clear();
        self.values.extend_from_slice(&old.values);
        let (values, list) = (&mut self.values, self.list.as_slice());
        simd::dispatch(
            #[inline(always)]
            || {
                by_width!(
                    net.l1(),
                    apply_entries_n,
                    values,
                    net,
                    old.block,
                    old.list.as_slice(),
                    list
                );
            },
        );
        simd::dispatch(
            #[inline(always)]
            || by_width!(net.l1(), Self::sum_n, self, psq),
        );
    }

    /// `sum = psq + values`.
    #[inline(always)]
    fn sum_n<const N: usize>(&mut self, psq: &[i16]) {
        self.sum.resize(psq.len(), 0);
        for half in 0..2 {
            let n = width::<N>(psq.len() / 2);
            let r = half * n..(half + 1) * n;
            let (dst, a, b) = (&mut self.sum[r.clone()], &psq[r.clone()], &self.values[r]);
            for i in 0..n {
                dst[i] = a[i].saturating_add(b[i]);
            }
        }
    }
}
