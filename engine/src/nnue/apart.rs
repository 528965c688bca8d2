//! The accumulator's part for the input block a feature set keeps apart
//! from the piece-square rows (`InputBlock::kept_apart`; one kind so far,
//! the attacks). Its inputs follow from the squares alone, the same in every
//! king view, and a move changes some that are not the mover's (a cannon's
//! screen, a horse's leg, a rook's line): the part keeps the position and
//! after a move applies the rows of the entries that came and went (usually
//! a few). For a block whose entries are the attacks, they are the attacks
//! the move's two squares change (`attack_change`); for another, or when
//! a position has more attacks than a list keeps, the difference of the
//! sorted entry lists before and after. It is kept without bias, so that each
//! part keeps its own `i16` bound, and summed with the piece-square part
//! (saturating, which is exact inside SCReLU's clamp) into what evaluation
//! reads; piece-square updates and king-bucket refreshes never touch it.

use super::attack_change::{AttackBoard, attack_count, for_each_changed_attack};
use super::block::{EntryList, InputBlock, MAX_BLOCK_ACTIVE, Squares, diff};
use super::features::Block;
use super::network::Network;
use super::rows::{MAX_ROWS, apply_rows, by_width, width};
use super::simd;
use xiangqi::{Color, Move};

/// `dst += rows of the entries only in new − rows of those only in old`,
/// for both perspectives (Red's `L1` values, then Black's), `block`'s
/// inputs numbered from `offset`.
#[inline(always)]
fn apply_entries_n<const N: usize>(
    dst: &mut [i16],
    net: &Network,
    block: (Block, usize),
    old: &[u16],
    new: &[u16],
) {
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
    apply_changes_n::<N>(dst, net, block, &added[..na], &removed[..nr]);
}

/// `dst += rows of added − rows of removed` (entries, at most [`MAX_ROWS`]
/// each), for both perspectives: the rows are gathered, then summed a tile
/// at a time (`apply_rows`).
#[inline(always)]
fn apply_changes_n<const N: usize>(
    dst: &mut [i16],
    net: &Network,
    (block, offset): (Block, usize),
    added: &[u16],
    removed: &[u16],
) {
    let l1 = net.l1();
    let (red, black) = dst.split_at_mut(l1);
    for (p, half) in [(Color::Red, red), (Color::Black, black)] {
        let mut add: [&[i16]; MAX_ROWS] = [&[]; MAX_ROWS];
        let mut sub: [&[i16]; MAX_ROWS] = [&[]; MAX_ROWS];
        for (row, &e) in add.iter_mut().zip(added) {
            *row = net.l1_row(offset + block.entry_index(p, e));
        }
        for (row, &e) in sub.iter_mut().zip(removed) {
            *row = net.l1_row(offset + block.entry_index(p, e));
        }
        apply_rows::<N>(half, &add[..added.len()], &sub[..removed.len()]);
    }
}

/// What a part follows a move from.
// The part is boxed and updated in place; a list in a box of its own would
// be one more allocation for the blocks that are not attacks (none yet).
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
enum Tracked {
    /// A block of attacks: how many the position has, all of them (past
    /// [`MAX_BLOCK_ACTIVE`] the entries are the first ones, which a move's
    /// changes alone do not follow).
    Attacks(usize),
    /// Another block: its entries.
    Entries(EntryList),
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
    /// The position, with each line's pieces.
    board: AttackBoard,
    tracked: Tracked,
}

impl ApartPart {
    /// A part to be filled by [`ApartPart::refresh`] or [`ApartPart::update_from`].
    pub(super) fn empty(block: (Block, usize)) -> Box<ApartPart> {
        Box::new(ApartPart {
            block,
            values: Vec::new(),
            sum: Vec::new(),
            board: AttackBoard::new(&[0; xiangqi::SQUARES]),
            tracked: Tracked::Attacks(0),
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
        self.board = AttackBoard::new(squares);
        self.values.clear();
        self.values.resize(2 * net.l1(), 0);
        self.apply_lists(net, &EntryList::default());
        simd::dispatch(
            #[inline(always)]
            || by_width!(net.l1(), Self::sum_n, self, psq),
        );
    }

    /// Become `old` after `mv`, the piece-square values after it being
    /// `psq`: the board after the move and the rows of the entries that
    /// came and went.
    #[inline(always)]
    pub(super) fn update_from(&mut self, old: &ApartPart, net: &Network, mv: Move, psq: &[i16]) {
        let (from, to) = (mv.from().index(), mv.to().index());
        self.block = old.block;
        self.board = old.board.moved(from, to);
        self.values.clear();
        self.values.extend_from_slice(&old.values);
        if !self.update_by_attacks(old, net, [from, to]) {
            self.update_by_lists(old, net);
        }
        simd::dispatch(
            #[inline(always)]
            || by_width!(net.l1(), Self::sum_n, self, psq),
        );
    }

    /// For a block of attacks with no list cut short: apply the rows of
    /// the attacks the move's two squares change. False (nothing applied)
    /// otherwise.
    #[inline(always)]
    fn update_by_attacks(&mut self, old: &ApartPart, net: &Network, squares: [usize; 2]) -> bool {
        let Tracked::Attacks(before) = old.tracked else {
            return false;
        };
        if before > MAX_BLOCK_ACTIVE {
            return false;
        }
        let block = old.block;
        let mut added = [0u16; MAX_ROWS];
        let mut removed = [0u16; MAX_ROWS];
        let (mut na, mut nr, mut overflow) = (0, 0, false);
        let counts =
            for_each_changed_attack(&old.board, &self.board, squares, |b, f, t, is_added| {
                let (list, n) = if is_added {
                    (&mut added, &mut na)
                } else {
                    (&mut removed, &mut nr)
                };
                if *n < MAX_ROWS {
                    list[*n] = block.0.attack_entry(b, f, t);
                    *n += 1;
                } else {
                    overflow = true;
                }
            });
        let after = before + counts.after - counts.before;
        if overflow || after > MAX_BLOCK_ACTIVE {
            return false;
        }
        self.tracked = Tracked::Attacks(after);
        let values = &mut self.values;
        let (added, removed) = (&added[..na], &removed[..nr]);
        simd::dispatch(
            #[inline(always)]
            || {
                by_width!(
                    net.l1(),
                    apply_changes_n,
                    values,
                    net,
                    block,
                    added,
                    removed
                )
            },
        );
        true
    }

    /// The difference of the block's sorted entry lists before and after.
    fn update_by_lists(&mut self, old: &ApartPart, net: &Network) {
        let was = match &old.tracked {
            Tracked::Entries(list) => *list,
            Tracked::Attacks(_) => old.block.0.entries(old.board.squares()),
        };
        self.apply_lists(net, &was);
    }

    /// Add the rows of the difference between the entry list `was` and
    /// this part's board's own, and keep what the next move follows from.
    fn apply_lists(&mut self, net: &Network, was: &EntryList) {
        let (block, squares) = (self.block, self.board.squares());
        let is = block.0.entries(squares);
        self.tracked = match block.0.entries_are_attacks() {
            true => Tracked::Attacks(attack_count(squares)),
            false => Tracked::Entries(is),
        };
        let values = &mut self.values;
        simd::dispatch(
            #[inline(always)]
            || {
                by_width!(
                    net.l1(),
                    apply_entries_n,
                    values,
                    net,
                    block,
                    was.as_slice(),
                    is.as_slice()
                );
            },
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::attack_change::random::{board_and_move, rng};
    use crate::nnue::{Arch, FeatureSet};
    use xiangqi::Square;

    /// On random boards up to crowded past any game's material (more
    /// attacks than a list keeps, before or after, or a move crossing
    /// that number), a random move (any
    /// piece to any other square) updates the threat part to what a fresh
    /// one computes; the games' moves are `threat_inputs_update_incrementally`'s.
    #[test]
    fn crowded_boards_update_as_they_refresh() {
        let features = FeatureSet::from_name("psq+threats").expect("a set");
        let net = Network::random_arch(Arch::new(features, 256, 8).expect("an arch"), 7);
        let block = net
            .features()
            .apart_block()
            .map(|(o, b)| (b, o))
            .expect("apart");
        let psq = vec![0i16; 2 * net.l1()];
        let mut next = rng(41);
        let (mut crowded, mut crossing) = (0, 0);
        for round in 0..1_500 {
            let Some((squares, from, to)) = board_and_move(round, MAX_BLOCK_ACTIVE, &mut next)
            else {
                continue;
            };
            let mut part = ApartPart::empty(block);
            part.refresh(&net, block, &squares, &psq);
            let mv = Move::new(
                Square::from_index_unchecked(from),
                Square::from_index_unchecked(to),
            );
            let mut child = ApartPart::empty(block);
            child.update_from(&part, &net, mv, &psq);
            let mut after = squares;
            after[to] = after[from];
            after[from] = 0;
            let (was, is) = (attack_count(&squares), attack_count(&after));
            crowded += (was > MAX_BLOCK_ACTIVE) as usize;
            crossing += ((was > MAX_BLOCK_ACTIVE) != (is > MAX_BLOCK_ACTIVE)) as usize;
            let mut fresh = ApartPart::empty(block);
            fresh.refresh(&net, block, &after, &psq);
            assert_eq!(child, fresh, "{from} -> {to} on {squares:?}");
        }
        assert!(crossing > 20, "{crossing} moves across the cap");
        assert!(crowded > 150, "{crowded} crowded boards");
    }
}
