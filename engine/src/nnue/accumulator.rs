//! The accumulator: the first layer's output for both perspectives,
//! `bias + Σ row[feature]` over the active features, kept up to date as
//! pieces move instead of being recomputed.
//!
//! A quiet move subtracts the moving piece's old feature and adds its new
//! one; a capture also subtracts the captured piece. [`Accumulator::update_from`]
//! does that while copying the parent's values into the child's slot in one
//! pass, which is how the search's [`AccumulatorStack`] (one accumulator per
//! ply) uses it: push on make, pop on unmake, nothing to undo.
//!
//! With king buckets, a king move that changes its side's [`View`] (bucket
//! or mirror) changes every feature of that side's perspective: that half
//! alone is recomputed from the pieces after the move, the other half is
//! updated as usual.
//!
//! The arithmetic wraps (`wrapping_add`/`wrapping_sub`): the final values are
//! exact because every network keeps bias + 32 pieces within `i16` (see
//! `MAX_L1_WEIGHT`), whatever the order of the updates. The loops run over
//! blocks of [`L1_STEP`] values, which the compiler vectorises whole
//! (see `simd`), for any L1.

use super::arch::L1_STEP;
use super::features::{MAX_ACTIVE, View, for_each_piece, output_bucket};
use super::network::Network;
use super::{evaluate, simd};
use xiangqi::{Board, Color, Move, Piece, PieceKind, Square};

const B: usize = L1_STEP;

#[inline(always)]
fn blocks(s: &[i16]) -> &[[i16; B]] {
    s.as_chunks::<B>().0
}

#[inline(always)]
fn blocks_mut(s: &mut [i16]) -> &mut [[i16; B]] {
    s.as_chunks_mut::<B>().0
}

#[inline(always)]
fn add_row(dst: &mut [i16], w: &[i16]) {
    for (d, w) in blocks_mut(dst).iter_mut().zip(blocks(w)) {
        for i in 0..B {
            d[i] = d[i].wrapping_add(w[i]);
        }
    }
}

/// `dst = src + add - sub`.
#[inline(always)]
fn add_sub(dst: &mut [i16], src: &[i16], add: &[i16], sub: &[i16]) {
    for (((d, s), a), b) in blocks_mut(dst)
        .iter_mut()
        .zip(blocks(src))
        .zip(blocks(add))
        .zip(blocks(sub))
    {
        for i in 0..B {
            d[i] = s[i].wrapping_add(a[i]).wrapping_sub(b[i]);
        }
    }
}

/// `dst = src + add - sub1 - sub2`.
#[inline(always)]
fn add_sub_sub(dst: &mut [i16], src: &[i16], add: &[i16], sub1: &[i16], sub2: &[i16]) {
    for ((((d, s), a), b), c) in blocks_mut(dst)
        .iter_mut()
        .zip(blocks(src))
        .zip(blocks(add))
        .zip(blocks(sub1))
        .zip(blocks(sub2))
    {
        for i in 0..B {
            d[i] = s[i]
                .wrapping_add(a[i])
                .wrapping_sub(b[i])
                .wrapping_sub(c[i]);
        }
    }
}

/// The first-layer output of one position from both perspectives, the
/// views they were computed in, and the number of pieces (for the output
/// bucket).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    /// Red's `L1` values, then Black's (by `Color::index()`).
    values: Vec<i16>,
    views: [View; 2],
    pieces: u32,
}

impl Accumulator {
    /// The accumulator of an empty board: the biases.
    pub fn new(net: &Network) -> Accumulator {
        Accumulator {
            values: [net.l1_bias(), net.l1_bias()].concat(),
            views: [View::default(); 2],
            pieces: 0,
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
        simd::dispatch(
            #[inline(always)]
            || {
                for p in Color::BOTH {
                    self.refresh_half(net, p, views[p.index()], pieces.iter().copied());
                }
            },
        );
        self.pieces = pieces.len() as u32;
    }

    /// Recompute `perspective`'s half in `view` for `pieces`.
    #[inline(always)]
    fn refresh_half(
        &mut self,
        net: &Network,
        perspective: Color,
        view: View,
        pieces: impl Iterator<Item = (Piece, Square)>,
    ) {
        let set = net.features();
        let l1 = net.l1();
        let half = &mut self.values[perspective.index() * l1..(perspective.index() + 1) * l1];
        half.copy_from_slice(net.l1_bias());
        for (piece, sq) in pieces {
            add_row(half, net.l1_row(set.index(perspective, view, piece, sq)));
        }
        self.views[perspective.index()] = view;
    }

    /// The values of `perspective`'s half.
    #[inline(always)]
    pub fn values(&self, perspective: Color) -> &[i16] {
        let l1 = self.values.len() / 2;
        &self.values[perspective.index() * l1..(perspective.index() + 1) * l1]
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
        let (from, to) = (mv.from(), mv.to());
        let piece = board
            .piece_at(from)
            .expect("update_from: the move's from-square holds a piece");
        let captured = board.piece_at(to);
        let set = net.features();
        let l1 = net.l1();
        self.values.resize(2 * l1, 0);
        simd::dispatch(
            #[inline(always)]
            || {
                for p in Color::BOTH {
                    let i = p.index();
                    let view = if piece.kind() == PieceKind::King && piece.color() == p {
                        set.view(p, to)
                    } else {
                        parent.views[i]
                    };
                    if view != parent.views[i] {
                        // The pieces after the move: the mover on `to`,
                        // whatever stood there gone.
                        let after = (0..xiangqi::SQUARES).filter_map(|s| {
                            let sq = Square::from_index_unchecked(s);
                            if sq == from {
                                Some((piece, to))
                            } else if sq == to {
                                None
                            } else {
                                board.piece_at(sq).map(|p| (p, sq))
                            }
                        });
                        self.refresh_half(net, p, view, after);
                        continue;
                    }
                    self.views[i] = view;
                    let dst = &mut self.values[i * l1..(i + 1) * l1];
                    let src = &parent.values[i * l1..(i + 1) * l1];
                    let add = net.l1_row(set.index(p, view, piece, to));
                    let sub = net.l1_row(set.index(p, view, piece, from));
                    match captured {
                        None => add_sub(dst, src, add, sub),
                        Some(cp) => {
                            add_sub_sub(dst, src, add, sub, net.l1_row(set.index(p, view, cp, to)))
                        }
                    }
                }
            },
        );
        self.pieces = parent.pieces - captured.is_some() as u32;
    }
}

/// One accumulator per ply: the search pushes on make and pops on unmake.
/// Slots are kept between uses, so a search allocates only on its first
/// visit to a new depth.
#[derive(Clone, Debug)]
pub struct AccumulatorStack {
    stack: Vec<Accumulator>,
    ply: usize,
}

impl AccumulatorStack {
    /// A stack holding `board`'s accumulator at ply 0.
    pub fn new(net: &Network, board: &Board) -> AccumulatorStack {
        let mut stack = Vec::with_capacity(crate::score::MAX_PLY + 8);
        stack.push(Accumulator::from_board(net, board));
        AccumulatorStack { stack, ply: 0 }
    }

    /// Start again from `board` at ply 0.
    pub fn refresh(&mut self, net: &Network, board: &Board) {
        self.ply = 0;
        self.stack[0].refresh(net, board);
    }

    /// The current ply (pushes not yet popped).
    #[inline(always)]
    pub fn ply(&self) -> usize {
        self.ply
    }

    /// The accumulator of the current position.
    #[inline(always)]
    pub fn current(&self) -> &Accumulator {
        &self.stack[self.ply]
    }

    /// Push the accumulator after `mv`; `board` is the position before it.
    #[inline]
    pub fn push_move(&mut self, net: &Network, board: &Board, mv: Move) {
        let next = self.ply + 1;
        if self.stack.len() <= next {
            self.stack.push(self.stack[self.ply].clone());
        }
        let (done, rest) = self.stack.split_at_mut(next);
        rest[0].update_from(&done[self.ply], net, board, mv);
        self.ply = next;
    }

    /// Push the accumulator after a null move (the same pieces).
    #[inline]
    pub fn push_null(&mut self) {
        let next = self.ply + 1;
        if self.stack.len() <= next {
            self.stack.push(self.stack[self.ply].clone());
        } else {
            let (done, rest) = self.stack.split_at_mut(next);
            rest[0].clone_from(&done[self.ply]);
        }
        self.ply = next;
    }

    /// Back to the previous ply.
    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.ply > 0, "AccumulatorStack::pop at ply 0");
        self.ply -= 1;
    }

    /// The network's evaluation of the current position for `side_to_move`.
    #[inline]
    pub fn evaluate(&self, net: &Network, side_to_move: Color) -> i32 {
        evaluate(net, self.current(), side_to_move)
    }
}

#[cfg(test)]
#[path = "accumulator_tests.rs"]
mod tests;
