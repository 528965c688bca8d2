//! The contract of an input block: one kind of network input (the pieces
//! on their squares, the attacks between them, ...) described once, for the
//! engine and the trainer alike.
//!
//! A feature set is a declared list of blocks (`features::FeatureSet::DECLARED`),
//! their inputs laid end to end in the list's order: a block's inputs are
//! numbered from 0 here, and the set adds the sizes of the blocks before
//! it. What reads a set (the reference inputs of a position, the trainer's
//! inputs, the network file's weight limits, the trainer's clipping and
//! quantisation, growth into a richer set) loops over the list through
//! this contract, so a new kind is one implementation of [`InputBlock`]
//! and its place in the lists. The accumulator keeps a fast path of its own
//! for each kind it updates (the piece-square rows with their king views
//! and refresh cache, the attack list's difference), tested against this
//! contract's indices.
//!
//! The contract is static: each block is a concrete type, and the set's
//! list is an enum of them (`features::Block`) matched, never a trait
//! object, so nothing here costs a call through a pointer.

use xiangqi::{Color, Piece, SQUARES, Square};

/// What each square holds: `Piece::index() + 1`, 0 for an empty square (as
/// the blocks, the refresh cache and the accumulator read a board).
pub type Squares = [u8; SQUARES];

/// A position as the blocks read it: its pieces in the order the caller
/// gives them (square order for a board; a mirrored training record keeps
/// its record's order, which fixes the order of the trainer's float sums),
/// and what each square holds.
#[derive(Clone, Copy, Debug)]
pub struct Placement<'a> {
    pub pieces: &'a [(Piece, Square)],
    pub squares: &'a Squares,
}

impl Placement<'_> {
    /// The square of `color`'s king, if it has one.
    pub fn king(&self, color: Color) -> Option<Square> {
        self.pieces
            .iter()
            .find(|(p, _)| p.kind() == xiangqi::PieceKind::King && p.color() == color)
            .map(|&(_, sq)| sq)
    }
}

/// A move as the blocks see it: the piece that moves, from where to where,
/// and what it captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockMove {
    pub piece: Piece,
    pub from: Square,
    pub to: Square,
    pub captured: Option<Piece>,
}

/// One block of inputs. Indices are the block's own, `0..size()`, for one
/// perspective (Red's sees the board as it is, Black's flipped top to
/// bottom with the colours swapped, so that colour-flipped twins have the
/// same inputs).
pub trait InputBlock {
    /// Its name in a feature set's name (`kingbucket6+threats` is the
    /// blocks `kingbucket6` and `threats`), which is how `--features` and
    /// messages name a set; a network file names the set by its id.
    fn tag(&self) -> &'static str;

    /// Inputs per perspective.
    fn size(&self) -> usize;

    /// The largest weight magnitude of its rows in a network file: as many
    /// rows as can be active at once, plus the bias, must fit an `i16`.
    fn weight_bound(&self) -> i16;

    /// What a network file's error calls its rows.
    fn rows_name(&self) -> &'static str;

    /// Calls `f(index)` for each active input of `position` from
    /// `perspective`, in the block's order (an input active twice is
    /// given twice).
    fn for_each_active(&self, perspective: Color, position: &Placement, f: impl FnMut(usize));

    /// [`InputBlock::for_each_active`] for two perspectives at once, as
    /// `f(first's index, second's index)`: every block has the same active
    /// count in both, entry by entry. A block whose active list costs
    /// something to find (the attacks) finds it once here.
    fn for_each_active_pair(
        &self,
        perspectives: [Color; 2],
        position: &Placement,
        mut f: impl FnMut(usize, usize),
    ) {
        let mut first = [0usize; MAX_BLOCK_ACTIVE];
        let mut n = 0;
        self.for_each_active(perspectives[0], position, |i| {
            first[n] = i;
            n += 1;
        });
        let mut k = 0;
        self.for_each_active(perspectives[1], position, |i| {
            f(first[k], i);
            k += 1;
        });
    }

    /// Whether `mv` (made on `before`) changes so much of `perspective`'s
    /// inputs that its half is recomputed rather than updated (a king
    /// entering another bucket).
    fn forces_refresh(&self, perspective: Color, before: &Placement, mv: &BlockMove) -> bool;

    /// Whether the accumulator keeps the block apart from the piece-square
    /// rows: in a part of its own, without bias, with its own weight bound,
    /// updated by the difference of its entry lists
    /// ([`InputBlock::entries`]) before and after a move. Such a block's
    /// inputs follow from the squares alone, the same in every king view
    /// (not so the piece-square block's). A set has at most one: the
    /// accumulator sums the two parts with saturation, exact for two.
    fn kept_apart(&self) -> bool {
        false
    }

    /// For a block kept apart: its active inputs on `squares` as entries
    /// that do not depend on the perspective, sorted.
    fn entries(&self, _squares: &Squares) -> EntryList {
        EntryList::default()
    }

    /// For a block kept apart: whether its entries are the board's
    /// attacks, one each in the sense of `threats::for_each_attack` (the
    /// first [`MAX_BLOCK_ACTIVE`] of them), as [`InputBlock::attack_entry`]
    /// names them. Such a block's part follows a move from the attacks
    /// its two squares change (`attack_change`), not from two whole lists.
    fn entries_are_attacks(&self) -> bool {
        false
    }

    /// For a block whose entries are attacks: the entry of the attack of
    /// the piece on `from` on the piece on `to` of `squares` (not called
    /// for other blocks).
    fn attack_entry(&self, _squares: &Squares, _from: usize, _to: usize) -> u16 {
        0
    }

    /// For a block kept apart: the input of `entry` from `perspective`.
    fn entry_index(&self, _perspective: Color, entry: u16) -> usize {
        entry as usize
    }

    /// For a move that does not force a refresh: calls `f(index, added)`
    /// for each input of `perspective` that `mv` (made on `before`) adds
    /// (`true`) or removes (`false`).
    fn for_each_change(
        &self,
        perspective: Color,
        before: &Placement,
        mv: &BlockMove,
        f: impl FnMut(usize, bool),
    );
}

/// Most active inputs of one block in one position (the attacks; the
/// pieces are at most 32).
pub const MAX_BLOCK_ACTIVE: usize = 134;

/// A sorted list of at most [`MAX_BLOCK_ACTIVE`] values: a block's active
/// entries in a position ([`EntryList`], a multiset: an entry active twice
/// is there twice), or the attacks of the threat squares (`side::AttackList`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SortedList<T> {
    len: u8,
    entries: [T; MAX_BLOCK_ACTIVE],
}

/// A block's active entries in a position, sorted.
pub type EntryList = SortedList<u16>;

impl<T: Copy + Default> Default for SortedList<T> {
    fn default() -> SortedList<T> {
        SortedList {
            len: 0,
            entries: [T::default(); MAX_BLOCK_ACTIVE],
        }
    }
}

impl<T: Copy + Ord> SortedList<T> {
    /// Add `value` (nothing once the list is full); [`SortedList::sort`]
    /// when all are in.
    #[inline(always)]
    pub fn push(&mut self, value: T) {
        let n = self.len as usize;
        if n < MAX_BLOCK_ACTIVE {
            self.entries[n] = value;
            self.len += 1;
        }
    }

    /// Put the values in increasing order.
    #[inline]
    pub fn sort(&mut self) {
        self.entries[..self.len as usize].sort_unstable();
    }

    /// The values, in increasing order.
    #[inline(always)]
    pub fn as_slice(&self) -> &[T] {
        &self.entries[..self.len as usize]
    }
}

// The list's length is a byte.
const _: () = assert!(MAX_BLOCK_ACTIVE <= u8::MAX as usize);

/// `before`'s squares after `mv`: the mover on its target, its square empty.
pub fn squares_after(before: &Squares, mv: &BlockMove) -> Squares {
    let mut after = *before;
    after[mv.to.index()] = after[mv.from.index()];
    after[mv.from.index()] = 0;
    after
}

/// Walks two sorted entry lists (multisets) and calls `f(entry, added)`
/// for each entry only in `new` (`added`) or only in `old`.
#[inline]
pub fn diff<T: Copy + Ord>(old: &[T], new: &[T], mut f: impl FnMut(T, bool)) {
    let (mut i, mut j) = (0, 0);
    while i < old.len() && j < new.len() {
        match old[i].cmp(&new[j]) {
            std::cmp::Ordering::Less => {
                f(old[i], false);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                f(new[j], true);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                i += 1;
                j += 1;
            }
        }
    }
    old[i..].iter().for_each(|&e| f(e, false));
    new[j..].iter().for_each(|&e| f(e, true));
}
