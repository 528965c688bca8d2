//! The accumulator: the first layer's output for both perspectives,
//! `bias + Σ row[feature]` over the active features, kept up to date as
//! pieces move instead of being recomputed.
//!
//! A quiet move subtracts the moving piece's old feature and adds its new
//! one; a capture also subtracts the captured piece. [`Accumulator::update_from`]
//! does that while copying the parent's values into the child's slot in one
//! pass, which is how the search's [`AccumulatorStack`] (one accumulator per
//! ply) will use it: push on make, pop on unmake, nothing to undo.
//!
//! The arithmetic wraps (`wrapping_add`/`wrapping_sub`): the final values are
//! exact because every network keeps bias + 32 pieces within `i16` (see
//! `MAX_L1_WEIGHT`), whatever the order of the updates.

use super::features::{MAX_ACTIVE, feature_index, for_each_piece};
use super::network::Network;
use super::{L1, evaluate, simd};
use xiangqi::{Board, Color, Move, Piece, PieceKind, Square};

/// The first-layer output of one position from both perspectives, and the
/// number of pieces (for the output bucket).
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator {
    /// Indexed by the perspective's `Color::index()`.
    values: [[i16; L1]; 2],
    pieces: u32,
}

#[inline(always)]
fn add_row(dst: &mut [i16; L1], w: &[i16; L1]) {
    for (d, &w) in dst.iter_mut().zip(w) {
        *d = d.wrapping_add(w);
    }
}

#[inline(always)]
fn sub_row(dst: &mut [i16; L1], w: &[i16; L1]) {
    for (d, &w) in dst.iter_mut().zip(w) {
        *d = d.wrapping_sub(w);
    }
}

/// `dst = src + add - sub`.
#[inline(always)]
fn add_sub(dst: &mut [i16; L1], src: &[i16; L1], add: &[i16; L1], sub: &[i16; L1]) {
    for i in 0..L1 {
        dst[i] = src[i].wrapping_add(add[i]).wrapping_sub(sub[i]);
    }
}

/// `dst = src + add - sub1 - sub2`.
#[inline(always)]
fn add_sub_sub(
    dst: &mut [i16; L1],
    src: &[i16; L1],
    add: &[i16; L1],
    sub1: &[i16; L1],
    sub2: &[i16; L1],
) {
    for i in 0..L1 {
        dst[i] = src[i]
            .wrapping_add(add[i])
            .wrapping_sub(sub1[i])
            .wrapping_sub(sub2[i]);
    }
}

impl Accumulator {
    /// The accumulator of an empty board: the biases.
    pub fn new(net: &Network) -> Accumulator {
        Accumulator {
            values: [*net.l1_bias(); 2],
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
        simd::dispatch(
            #[inline(always)]
            || {
                self.values = [*net.l1_bias(); 2];
                self.pieces = 0;
                for &(piece, sq) in pieces {
                    self.add_portable(net, piece, sq);
                }
            },
        )
    }

    /// The values of `perspective`'s half.
    #[inline(always)]
    pub fn values(&self, perspective: Color) -> &[i16; L1] {
        &self.values[perspective.index()]
    }

    /// Pieces on the board.
    #[inline(always)]
    pub fn piece_count(&self) -> usize {
        self.pieces as usize
    }

    /// A piece appears on `sq`.
    #[inline]
    pub fn add(&mut self, net: &Network, piece: Piece, sq: Square) {
        simd::dispatch(
            #[inline(always)]
            || self.add_portable(net, piece, sq),
        )
    }

    #[inline(always)]
    fn add_portable(&mut self, net: &Network, piece: Piece, sq: Square) {
        for p in Color::BOTH {
            add_row(
                &mut self.values[p.index()],
                net.l1_row(feature_index(p, piece, sq)),
            );
        }
        self.pieces += 1;
    }

    /// A piece leaves `sq`.
    #[inline]
    pub fn sub(&mut self, net: &Network, piece: Piece, sq: Square) {
        simd::dispatch(
            #[inline(always)]
            || {
                for p in Color::BOTH {
                    sub_row(
                        &mut self.values[p.index()],
                        net.l1_row(feature_index(p, piece, sq)),
                    );
                }
                self.pieces -= 1;
            },
        )
    }

    /// A piece goes from `from` to `to` (an empty square), in one pass.
    #[inline]
    pub fn move_piece(&mut self, net: &Network, piece: Piece, from: Square, to: Square) {
        simd::dispatch(
            #[inline(always)]
            || {
                for p in Color::BOTH {
                    let v = &mut self.values[p.index()];
                    let src = *v;
                    add_sub(
                        v,
                        &src,
                        net.l1_row(feature_index(p, piece, to)),
                        net.l1_row(feature_index(p, piece, from)),
                    );
                }
            },
        )
    }

    /// Become `parent` after `mv`, where `board` is the position `parent`
    /// holds, before `mv` is made: the copy and the update in one pass.
    #[inline]
    pub fn update_from(&mut self, parent: &Accumulator, net: &Network, board: &Board, mv: Move) {
        let (from, to) = (mv.from(), mv.to());
        let piece = board
            .piece_at(from)
            .expect("update_from: the move's from-square holds a piece");
        let captured = board.piece_at(to);
        simd::dispatch(
            #[inline(always)]
            || {
                for p in Color::BOTH {
                    let i = p.index();
                    let add = net.l1_row(feature_index(p, piece, to));
                    let sub = net.l1_row(feature_index(p, piece, from));
                    match captured {
                        None => add_sub(&mut self.values[i], &parent.values[i], add, sub),
                        Some(cp) => add_sub_sub(
                            &mut self.values[i],
                            &parent.values[i],
                            add,
                            sub,
                            net.l1_row(feature_index(p, cp, to)),
                        ),
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
mod tests {
    use super::*;

    fn rng(mut seed: u64) -> impl FnMut(usize) -> usize {
        move |n| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) as usize % n
        }
    }

    /// Random games, made and unmade in random runs: after every push and
    /// every pop the stack's accumulator equals one computed from scratch.
    #[test]
    fn incremental_updates_equal_a_refresh() {
        let net = Network::random(1);
        let mut next = rng(0x5eed);
        for game in 0..12 {
            let mut board = Board::startpos();
            let mut stack = AccumulatorStack::new(&net, &board);
            let mut nulls = Vec::new();
            for _ in 0..160 {
                // Mostly forward, sometimes back a few plies.
                if !board.history().is_empty() && next(5) == 0 {
                    for _ in 0..1 + next(3) {
                        if board.history().is_empty() {
                            break;
                        }
                        if nulls.pop() == Some(true) {
                            board.unmake_null();
                        } else {
                            board.unmake_move();
                        }
                        stack.pop();
                        assert_eq!(stack.current(), &Accumulator::from_board(&net, &board));
                    }
                    continue;
                }
                if !board.in_check() && next(8) == 0 {
                    board.make_null();
                    stack.push_null();
                    nulls.push(true);
                } else {
                    let moves = board.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let mv = moves.as_slice()[next(moves.len())];
                    stack.push_move(&net, &board, mv);
                    board.make_move(mv);
                    nulls.push(false);
                }
                assert_eq!(stack.ply(), board.history().len(), "game {game}");
                let fresh = Accumulator::from_board(&net, &board);
                assert_eq!(stack.current(), &fresh, "game {game}: {}", board.to_fen());
                assert_eq!(
                    stack.evaluate(&net, board.side_to_move()),
                    evaluate(&net, &fresh, board.side_to_move())
                );
            }
        }
    }

    #[test]
    fn add_sub_and_move_piece_agree_with_refresh() {
        let net = Network::random(2);
        let board = Board::startpos();
        let mut acc = Accumulator::from_board(&net, &board);
        assert_eq!(acc.piece_count(), 32);
        // h2e2 as a move of the cannon.
        let cannon = board.piece_at(Square::parse("h2").unwrap()).unwrap();
        let (h2, e2) = (Square::parse("h2").unwrap(), Square::parse("e2").unwrap());
        let mut moved = acc.clone();
        moved.move_piece(&net, cannon, h2, e2);
        let mut after = board.clone();
        after.make_move(Move::new(h2, e2));
        assert_eq!(moved, Accumulator::from_board(&net, &after));
        // Remove and put back a piece.
        acc.sub(&net, cannon, h2);
        assert_eq!(acc.piece_count(), 31);
        acc.add(&net, cannon, h2);
        assert_eq!(acc, Accumulator::from_board(&net, &board));
        // The empty board holds the biases.
        assert_eq!(Accumulator::new(&net).values(Color::Black), net.l1_bias());
    }

    #[test]
    fn refresh_resets_the_stack() {
        let net = Network::random(9);
        let mut board = Board::startpos();
        let mut stack = AccumulatorStack::new(&net, &board);
        let mv = board.parse_move("h2e2").unwrap();
        stack.push_move(&net, &board, mv);
        board.make_move(mv);
        stack.refresh(&net, &board);
        assert_eq!(stack.ply(), 0);
        assert_eq!(stack.current(), &Accumulator::from_board(&net, &board));
    }
}
