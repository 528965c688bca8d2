//! The accumulator: the first layer's output for both perspectives,
//! `bias + Σ row[feature]` over the active features, kept up to date as
//! pieces move instead of being recomputed.
//!
//! A quiet move subtracts the moving piece's old feature and adds its new
//! one; a capture also subtracts the captured piece. [`Accumulator::update_from`]
//! does that while copying the parent's values into the child's slot in one
//! pass. The search's [`AccumulatorStack`] (one accumulator per ply) does the
//! same, lazily: push on make notes the move, evaluation applies what is
//! owed, pop on unmake, nothing to undo.
//!
//! With king buckets, a king move that changes its side's [`View`] (bucket
//! or mirror) changes every feature of that side's perspective: that half
//! alone is recomputed from the pieces after the move, the other half is
//! updated as usual.
//!
//! A feature set's block kept apart (see `apart`) has its own part,
//! summed with this one into what evaluation reads.
//!
//! The arithmetic wraps (`wrapping_add`/`wrapping_sub`): the final values are
//! exact because every network keeps bias + 32 pieces within `i16` (see
//! `MAX_L1_WEIGHT`), whatever the order of the updates. The loops are
//! compiled for the common widths (256, 512, 768, 1024) with a constant
//! trip count, which the compiler vectorises whole (see `simd`), and once
//! more for any other width.

use super::apart::ApartPart;
use super::block::Squares;
use super::features::{MAX_ACTIVE, View, for_each_piece, output_bucket};
use super::finny::RefreshCache;
use super::network::Network;
use super::output;
use super::quant::QA;
use super::rows::{MAX_ROWS, apply_rows, by_width, width};
use super::side::{self, SidePart};
use super::simd;
use xiangqi::{Board, Color, Move, Piece, PieceKind, Square};

/// `dst = src + add - sub`.
#[inline(always)]
fn add_sub<const N: usize>(dst: &mut [i16], src: &[i16], add: &[i16], sub: &[i16]) {
    let n = width::<N>(dst.len());
    let (dst, src, add, sub) = (&mut dst[..n], &src[..n], &add[..n], &sub[..n]);
    for i in 0..n {
        dst[i] = src[i].wrapping_add(add[i]).wrapping_sub(sub[i]);
    }
}

/// `dst = src + add - sub1 - sub2`.
#[inline(always)]
fn add_sub_sub<const N: usize>(
    dst: &mut [i16],
    src: &[i16],
    add: &[i16],
    sub1: &[i16],
    sub2: &[i16],
) {
    let n = width::<N>(dst.len());
    let (dst, src, add) = (&mut dst[..n], &src[..n], &add[..n]);
    let (sub1, sub2) = (&sub1[..n], &sub2[..n]);
    for i in 0..n {
        dst[i] = src[i]
            .wrapping_add(add[i])
            .wrapping_sub(sub1[i])
            .wrapping_sub(sub2[i]);
    }
}

/// The first-layer output of one position from both perspectives, the
/// views they were computed in, and the number of pieces (for the output
/// bucket).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    /// Red's `L1` values, then Black's (by `Color::index()`): the
    /// piece-square inputs' part.
    values: Vec<i16>,
    views: [View; 2],
    pieces: u32,
    /// The part of the block kept apart (see `apart`), for a feature set
    /// that has one.
    apart: Option<Box<ApartPart>>,
    /// The side accumulator of threat squares, for a network that has one.
    side: Option<Box<SidePart>>,
}

impl Accumulator {
    /// The accumulator of an empty board: the biases.
    pub fn new(net: &Network) -> Accumulator {
        Accumulator {
            values: [net.l1_bias(), net.l1_bias()].concat(),
            views: [View::default(); 2],
            pieces: 0,
            apart: None,
            side: None,
        }
    }

    /// The accumulator of `board`, computed from scratch.
    pub fn from_board(net: &Network, board: &Board) -> Accumulator {
        let mut acc = Accumulator::new(net);
        acc.refresh(net, board);
        acc
    }

    /// Recompute from scratch for `board`.
    pub fn refresh(&mut self, net: &Network, board: &Board) {
        let mut list = [(
            Piece::new(Color::Red, PieceKind::King),
            Square::from_index_unchecked(0),
        ); MAX_ACTIVE];
        let mut n = 0;
        for_each_piece(board, |p, sq| {
            if n < MAX_ACTIVE {
                list[n] = (p, sq);
                n += 1;
            }
        });
        self.refresh_pieces(net, &list[..n]);
    }

    /// Recompute from scratch for a list of pieces (a position that is not
    /// a `Board`, such as a training record).
    pub fn refresh_pieces(&mut self, net: &Network, pieces: &[(Piece, Square)]) {
        let views = net.features().views_of(pieces);
        self.values.resize(2 * net.l1(), 0);
        for p in Color::BOTH {
            self.refresh_half(net, p, views[p.index()], pieces);
        }
        self.pieces = pieces.len() as u32;
        let mut squares: Squares = [0; xiangqi::SQUARES];
        for &(p, sq) in pieces {
            squares[sq.index()] = p.index() as u8 + 1;
        }
        match net.features().apart_block() {
            Some((offset, block)) => {
                let part = self
                    .apart
                    .get_or_insert_with(|| ApartPart::empty((block, offset)));
                part.refresh(net, (block, offset), &squares, &self.values);
            }
            None => self.apart = None,
        }
        self.side = (net.arch().side != 0).then(|| Box::new(SidePart::new(net, &squares)));
    }

    /// Become `parent`'s side accumulator after `mv`. Nothing without one.
    #[inline(always)]
    fn update_side(&mut self, parent: &Accumulator, net: &Network, mv: Move) {
        match (parent.side.as_deref(), &mut self.side) {
            (None, mine) => *mine = None,
            (Some(old), Some(mine)) => {
                mine.update_from(old, net, mv.from().index(), mv.to().index())
            }
            (Some(old), mine @ None) => {
                let mut part = Box::new(old.clone());
                part.update_from(old, net, mv.from().index(), mv.to().index());
                *mine = Some(part);
            }
        }
    }

    /// Become `parent`'s part for the block kept apart after `mv` (whose
    /// piece-square part is already done). Nothing without one.
    #[inline(always)]
    fn update_apart(&mut self, parent: &Accumulator, net: &Network, mv: Move) {
        let Some(old) = parent.apart.as_deref() else {
            if self.apart.is_some() {
                self.apart = None;
            }
            return;
        };
        self.update_apart_from(old, net, mv);
    }

    /// [`Accumulator::update_apart`] for a set that has the part: out of
    /// line, so that a set without one pays only the check.
    #[inline(never)]
    fn update_apart_from(&mut self, old: &ApartPart, net: &Network, mv: Move) {
        let part = self
            .apart
            .get_or_insert_with(|| ApartPart::empty(old.block()));
        part.update_from(old, net, mv, &self.values);
    }

    /// Recompute `perspective`'s half in `view` for `pieces`.
    fn refresh_half(
        &mut self,
        net: &Network,
        perspective: Color,
        view: View,
        pieces: &[(Piece, Square)],
    ) {
        simd::dispatch(
            #[inline(always)]
            || {
                by_width!(
                    net.l1(),
                    Self::refresh_half_n,
                    self,
                    net,
                    perspective,
                    view,
                    pieces
                )
            },
        )
    }

    #[inline(always)]
    fn refresh_half_n<const N: usize>(
        &mut self,
        net: &Network,
        perspective: Color,
        view: View,
        pieces: &[(Piece, Square)],
    ) {
        let set = net.features();
        let l1 = net.l1();
        let half = &mut self.values[perspective.index() * l1..(perspective.index() + 1) * l1];
        half.copy_from_slice(net.l1_bias());
        let mut rows: [&[i16]; MAX_ROWS] = [&[]; MAX_ROWS];
        let n = pieces.len().min(MAX_ROWS);
        for (row, &(piece, sq)) in rows.iter_mut().zip(&pieces[..n]) {
            *row = net.l1_row(set.index(perspective, view, piece, sq));
        }
        apply_rows::<N>(half, &rows[..n], &[]);
        self.views[perspective.index()] = view;
    }

    /// `perspective`'s half after `mv` (on `board`, before the move), in
    /// the new `view` of a king that moved, through `cache` if given: out
    /// of line, as it is rare.
    #[cold]
    #[inline(never)]
    fn refresh_after_move(
        &mut self,
        net: &Network,
        board: &Board,
        mv: Move,
        (perspective, view): (Color, View),
        cache: Option<&mut RefreshCache>,
    ) {
        // The pieces after the move: the mover on `to`, whatever stood
        // there gone.
        let mut after: Squares = [0; xiangqi::SQUARES];
        for_each_piece(board, |p, sq| {
            if sq != mv.to() {
                let s = if sq == mv.from() { mv.to() } else { sq };
                after[s.index()] = p.index() as u8 + 1;
            }
        });
        match cache {
            Some(cache) => {
                let l1 = net.l1();
                let i = perspective.index();
                let half = &mut self.values[i * l1..(i + 1) * l1];
                cache.refresh(net, perspective, view, &after, half);
                self.views[i] = view;
            }
            None => {
                let mut list = [(
                    Piece::new(Color::Red, PieceKind::King),
                    Square::from_index_unchecked(0),
                ); MAX_ACTIVE];
                let mut n = 0;
                for (s, &code) in after.iter().enumerate() {
                    if code != 0 && n < MAX_ACTIVE {
                        let k = code as usize - 1;
                        let p = Piece::new(Color::from_index(k / 7), PieceKind::from_index(k % 7));
                        list[n] = (p, Square::from_index_unchecked(s));
                        n += 1;
                    }
                }
                self.refresh_half(net, perspective, view, &list[..n]);
            }
        }
    }

    /// The values of `perspective`'s half (with a block kept apart, both parts
    /// summed).
    #[inline(always)]
    pub fn values(&self, perspective: Color) -> &[i16] {
        let l1 = self.values.len() / 2;
        let all = match &self.apart {
            Some(part) => part.sum(),
            None => &self.values,
        };
        &all[perspective.index() * l1..(perspective.index() + 1) * l1]
    }

    /// The side accumulator of threat squares, for a network that has one.
    #[inline(always)]
    pub fn side_part(&self) -> Option<&SidePart> {
        self.side.as_deref()
    }

    /// The view `perspective`'s half was computed in.
    #[inline(always)]
    pub fn view(&self, perspective: Color) -> View {
        self.views[perspective.index()]
    }

    /// Pieces on the board.
    #[inline(always)]
    pub fn piece_count(&self) -> usize {
        self.pieces as usize
    }

    /// The output bucket of the position for `net`.
    #[inline(always)]
    pub fn output_bucket(&self, net: &Network) -> usize {
        output_bucket(self.piece_count(), net.arch().output_buckets)
    }

    /// Become `parent` after `mv`, where `board` is the position `parent`
    /// holds, before `mv` is made: the copy and the update in one pass (or,
    /// for the perspective of a king that changes view, a refresh).
    #[inline]
    pub fn update_from(&mut self, parent: &Accumulator, net: &Network, board: &Board, mv: Move) {
        self.update_with(parent, net, board, mv, None);
    }

    /// [`Accumulator::update_from`], refreshing through `cache` (see
    /// `finny`) when a king changes view.
    #[inline]
    pub fn update_from_cached(
        &mut self,
        parent: &Accumulator,
        net: &Network,
        board: &Board,
        mv: Move,
        cache: &mut RefreshCache,
    ) {
        self.update_with(parent, net, board, mv, Some(cache));
    }

    #[inline(always)]
    fn update_with(
        &mut self,
        parent: &Accumulator,
        net: &Network,
        board: &Board,
        mv: Move,
        mut cache: Option<&mut RefreshCache>,
    ) {
        let piece = board
            .piece_at(mv.from())
            .expect("update_from: the move's from-square holds a piece");
        let captured = board.piece_at(mv.to());
        self.values.resize(2 * net.l1(), 0);
        for p in Color::BOTH {
            let i = p.index();
            let view = if piece.kind() == PieceKind::King && piece.color() == p {
                net.features().view(p, mv.to())
            } else {
                parent.views[i]
            };
            if view != parent.views[i] {
                self.refresh_after_move(net, board, mv, (p, view), cache.as_deref_mut());
            } else {
                self.views[i] = view;
                self.update_half(parent, net, p, (piece, mv), captured);
            }
        }
        self.pieces = parent.pieces - captured.is_some() as u32;
        self.update_apart(parent, net, mv);
        self.update_side(parent, net, mv);
    }

    /// Become `parent` after `piece` moved by `mv` (capturing `captured`),
    /// a move that changes neither view: what the stack applies when it
    /// catches up with its pending moves, where the board of the time is gone.
    #[inline]
    fn update_in_views(
        &mut self,
        parent: &Accumulator,
        net: &Network,
        (piece, mv): (Piece, Move),
        captured: Option<Piece>,
    ) {
        self.values.resize(2 * net.l1(), 0);
        self.views = parent.views;
        for p in Color::BOTH {
            self.update_half(parent, net, p, (piece, mv), captured);
        }
        self.pieces = parent.pieces - captured.is_some() as u32;
        self.update_apart(parent, net, mv);
        self.update_side(parent, net, mv);
    }

    /// `perspective`'s half: `parent`'s, `piece` moved by `mv` (capturing
    /// `captured`), in an unchanged view; compiled for the net's width.
    #[inline(always)]
    fn update_half(
        &mut self,
        parent: &Accumulator,
        net: &Network,
        perspective: Color,
        (piece, mv): (Piece, Move),
        captured: Option<Piece>,
    ) {
        simd::dispatch(
            #[inline(always)]
            || {
                by_width!(
                    net.l1(),
                    Self::update_half_n,
                    self,
                    parent,
                    net,
                    perspective,
                    (piece, mv),
                    captured
                )
            },
        );
    }

    /// [`Accumulator::update_half`] for `N`.
    #[inline(always)]
    fn update_half_n<const N: usize>(
        &mut self,
        parent: &Accumulator,
        net: &Network,
        perspective: Color,
        (piece, mv): (Piece, Move),
        captured: Option<Piece>,
    ) {
        let (set, l1, i) = (net.features(), net.l1(), perspective.index());
        let view = parent.views[i];
        let dst = &mut self.values[i * l1..(i + 1) * l1];
        let src = &parent.values[i * l1..(i + 1) * l1];
        let add = net.l1_row(set.index(perspective, view, piece, mv.to()));
        let sub = net.l1_row(set.index(perspective, view, piece, mv.from()));
        match captured {
            None => add_sub::<N>(dst, src, add, sub),
            Some(cp) => add_sub_sub::<N>(
                dst,
                src,
                add,
                sub,
                net.l1_row(set.index(perspective, view, cp, mv.to())),
            ),
        }
    }
}

/// What a slot of the stack still owes to be its position's accumulator.
#[derive(Clone, Copy, Debug)]
enum Pending {
    /// Nothing: its values are its position's.
    Done,
    /// Its parent's values after this move (which changes neither view).
    Move(Piece, Move, Option<Piece>),
    /// Its parent's values (a null move).
    Null,
}

/// One accumulator per ply: the search pushes on make and pops on unmake.
/// Slots are kept between uses, so a search allocates only on its first
/// visit to a new depth.
///
/// Updates are lazy: a push notes the move, and the values are brought up
/// to date only when the position is evaluated (walking back to the last
/// slot that is, then forward). Many nodes are never evaluated (a table
/// cutoff, a static evaluation from the table, a check, a repetition), and
/// their updates are never made. A king move that changes its side's view
/// is applied at once, as it needs the board of its time. A slot's views
/// and piece count are always its position's, even while its values wait.
#[derive(Clone, Debug)]
pub struct AccumulatorStack {
    stack: Vec<Accumulator>,
    /// `pending[i]`: what slot `i` owes (slot 0 never owes anything).
    pending: Vec<Pending>,
    ply: usize,
    cache: RefreshCache,
}

impl AccumulatorStack {
    /// A stack holding `board`'s accumulator at ply 0.
    pub fn new(net: &Network, board: &Board) -> AccumulatorStack {
        let mut stack = Vec::with_capacity(crate::score::MAX_PLY + 8);
        stack.push(Accumulator::from_board(net, board));
        let mut pending = Vec::with_capacity(crate::score::MAX_PLY + 8);
        pending.push(Pending::Done);
        AccumulatorStack {
            stack,
            pending,
            ply: 0,
            cache: RefreshCache::new(),
        }
    }

    /// Start again from `board` at ply 0 (the network may be another).
    pub fn refresh(&mut self, net: &Network, board: &Board) {
        self.ply = 0;
        self.stack[0].refresh(net, board);
        self.pending[0] = Pending::Done;
        self.cache.clear();
    }

    /// The current ply (pushes not yet popped).
    #[inline(always)]
    pub fn ply(&self) -> usize {
        self.ply
    }

    /// The accumulator of the current position, brought up to date.
    #[inline]
    pub fn current(&mut self, net: &Network) -> &Accumulator {
        self.catch_up(net);
        &self.stack[self.ply]
    }

    /// The view the current position's `perspective` half is (or will be,
    /// once brought up to date) computed in.
    #[inline(always)]
    pub fn view(&self, perspective: Color) -> View {
        self.stack[self.ply].view(perspective)
    }

    /// How many plies up to the current one owe their updates.
    pub fn owed_plies(&self) -> usize {
        self.pending[..=self.ply]
            .iter()
            .rev()
            .take_while(|p| !matches!(p, Pending::Done))
            .count()
    }

    /// A slot for the next ply, and what it owes.
    #[inline(always)]
    fn next_slot(&mut self) -> usize {
        let next = self.ply + 1;
        if self.stack.len() <= next {
            self.stack.push(self.stack[self.ply].clone());
            self.pending.push(Pending::Done);
        }
        next
    }

    /// Push the accumulator after `mv`; `board` is the position before it.
    #[inline]
    pub fn push_move(&mut self, net: &Network, board: &Board, mv: Move) {
        let piece = board
            .piece_at(mv.from())
            .expect("push_move: the move's from-square holds a piece");
        let captured = board.piece_at(mv.to());
        let changes_view = piece.kind() == PieceKind::King
            && net.features().view(piece.color(), mv.to())
                != self.stack[self.ply].views[piece.color().index()];
        if changes_view {
            self.catch_up(net);
        }
        let next = self.next_slot();
        let (done, rest) = self.stack.split_at_mut(next);
        let (parent, child) = (&done[self.ply], &mut rest[0]);
        if changes_view {
            child.update_from_cached(parent, net, board, mv, &mut self.cache);
            self.pending[next] = Pending::Done;
        } else {
            child.views = parent.views;
            child.pieces = parent.pieces - captured.is_some() as u32;
            self.pending[next] = Pending::Move(piece, mv, captured);
        }
        self.ply = next;
    }

    /// Push the accumulator after a null move (the same pieces).
    #[inline]
    pub fn push_null(&mut self) {
        let next = self.next_slot();
        let (done, rest) = self.stack.split_at_mut(next);
        rest[0].views = done[self.ply].views;
        rest[0].pieces = done[self.ply].pieces;
        self.pending[next] = Pending::Null;
        self.ply = next;
    }

    /// Back to the previous ply.
    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.ply > 0, "AccumulatorStack::pop at ply 0");
        self.ply -= 1;
    }

    /// Bring the current slot's values up to date: from the last slot
    /// below it that is, apply what each slot above owes.
    #[inline]
    fn catch_up(&mut self, net: &Network) {
        if matches!(self.pending[self.ply], Pending::Done) {
            return;
        }
        let mut from = self.ply;
        while !matches!(self.pending[from], Pending::Done) {
            from -= 1;
        }
        for i in from + 1..=self.ply {
            let (done, rest) = self.stack.split_at_mut(i);
            let (parent, child) = (&done[i - 1], &mut rest[0]);
            match self.pending[i] {
                // (Every slot above `from` owes something.)
                Pending::Done => {}
                Pending::Move(piece, mv, captured) => {
                    child.update_in_views(parent, net, (piece, mv), captured)
                }
                Pending::Null => {
                    // In place: the slot keeps its allocation.
                    child.values.resize(parent.values.len(), 0);
                    child.values.copy_from_slice(&parent.values);
                    child.apart.clone_from(&parent.apart);
                    child.side.clone_from(&parent.side);
                }
            }
            self.pending[i] = Pending::Done;
        }
    }

    /// The network's evaluation of the current position for `side_to_move`.
    #[inline]
    pub fn evaluate(&mut self, net: &Network, side_to_move: Color) -> i32 {
        self.catch_up(net);
        evaluate(net, &self.stack[self.ply], side_to_move)
    }
}

/// The network's evaluation of the position `acc` holds, from the point of
/// view of `side_to_move`, in centipawn-like units (see the module docs of
/// `nnue` for the exact formula).
#[inline]
pub fn evaluate(net: &Network, acc: &Accumulator, side_to_move: Color) -> i32 {
    simd::dispatch(
        #[inline(always)]
        || evaluate_portable(net, acc, side_to_move),
    )
}

/// [`evaluate`] as the build target compiles it, without the AVX2 copy:
/// the portable fallback (the same integers, tested).
#[inline(always)]
pub(crate) fn evaluate_portable(net: &Network, acc: &Accumulator, side_to_move: Color) -> i32 {
    let (us, them) = (acc.values(side_to_move), acc.values(side_to_move.flip()));
    let bucket = acc.output_bucket(net);
    let side = match acc.side.as_deref() {
        Some(part) => side::screlu_sum(part, side_to_move, net.side_output(bucket), QA),
        None => 0,
    };
    by_width!(net.l1(), output::evaluate_n, net, us, them, bucket, side)
}

#[cfg(test)]
#[path = "accumulator_tests.rs"]
mod tests;
