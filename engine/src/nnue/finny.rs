//! The refresh cache ("Finny tables"): for each perspective and king view,
//! the accumulator half of the last position refreshed in that view and
//! the pieces it holds.
//!
//! A king move into another bucket changes every input of its side, so the
//! half must be rebuilt; from scratch that is 32 rows of a large weight
//! matrix, mostly cache misses. The cache starts instead from what the half
//! was the last time the king stood in that view, and adds and removes only
//! the pieces that differ since, usually a handful (`examples/nnue_bench.rs`
//! measures the gain). Entries are filled on first use and stay valid
//! whatever position comes next, since each remembers its own pieces.

pub use super::block::Squares;
use super::features::{MAX_KING_BUCKETS, View};
use super::network::Network;
use super::rows::{MAX_ROWS, apply_rows, by_width};
use super::simd;
use xiangqi::{Color, Piece, PieceKind, SQUARES, Square};

/// Views per perspective: bucket × mirrored.
const SLOTS: usize = 2 * MAX_KING_BUCKETS;

#[derive(Clone, Debug)]
struct Entry {
    /// The half's values for `pieces`; empty until first filled.
    values: Vec<i16>,
    pieces: Squares,
}

/// The cache of one search thread (one `AccumulatorStack`), for one network.
#[derive(Clone, Debug, Default)]
pub struct RefreshCache {
    /// `perspective · SLOTS + slot`; allocated on first use.
    entries: Vec<Entry>,
}

impl RefreshCache {
    /// An empty cache.
    pub fn new() -> RefreshCache {
        RefreshCache::default()
    }

    /// Forget every entry (for another network).
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// Write into `dst` the half of `perspective` in `view` for the
    /// position whose squares are `after`, updating the view's entry.
    pub fn refresh(
        &mut self,
        net: &Network,
        perspective: Color,
        view: View,
        after: &Squares,
        dst: &mut [i16],
    ) {
        if self.entries.is_empty() {
            let empty = Entry {
                values: Vec::new(),
                pieces: [0; SQUARES],
            };
            self.entries = vec![empty; 2 * SLOTS];
        }
        let slot = view.bucket() * 2 + view.mirrored() as usize;
        let entry = &mut self.entries[perspective.index() * SLOTS + slot.min(SLOTS - 1)];
        if entry.values.len() != net.l1() {
            entry.values = net.l1_bias().to_vec();
            entry.pieces = [0; SQUARES];
        }
        simd::dispatch(
            #[inline(always)]
            || by_width!(net.l1(), apply_n, entry, net, perspective, view, after),
        );
        dst.copy_from_slice(&entry.values);
    }
}

/// Bring `entry` to the pieces `after`: a row out and a row in per changed
/// square, summed a tile at a time (`apply_rows`).
#[inline(always)]
fn apply_n<const N: usize>(
    entry: &mut Entry,
    net: &Network,
    perspective: Color,
    view: View,
    after: &Squares,
) {
    let set = net.features();
    let row = |code: u8, s: usize| {
        let i = code as usize - 1;
        let piece = Piece::new(Color::from_index(i / 7), PieceKind::from_index(i % 7));
        net.l1_row(set.index(perspective, view, piece, Square::from_index_unchecked(s)))
    };
    // At most one row in and one out per square: SQUARES < MAX_ROWS.
    let mut add: [&[i16]; MAX_ROWS] = [&[]; MAX_ROWS];
    let mut sub: [&[i16]; MAX_ROWS] = [&[]; MAX_ROWS];
    let (mut na, mut ns) = (0, 0);
    for (s, &new) in after.iter().enumerate() {
        let old = entry.pieces[s];
        if old != new {
            if old != 0 {
                sub[ns] = row(old, s);
                ns += 1;
            }
            if new != 0 {
                add[na] = row(new, s);
                na += 1;
            }
            entry.pieces[s] = new;
        }
    }
    apply_rows::<N>(&mut entry.values, &add[..na], &sub[..ns]);
}
