//! Perft: count the leaves of the legal move tree, the standard test of a
//! move generator. The last ply is counted without making the moves.
//!
//! ```
//! use xiangqi::Board;
//! use xiangqi::perft::{divide, perft};
//!
//! let mut board = Board::startpos();
//! assert_eq!(perft(&mut board, 1), 44);
//! assert_eq!(perft(&mut board, 2), 1_920);
//! assert_eq!(perft(&mut board, 3), 79_666);
//! let per_move = divide(&mut board, 2);
//! assert_eq!(per_move.len(), 44);
//! assert_eq!(per_move.iter().map(|&(_, n)| n).sum::<u64>(), 1_920);
//! ```

use crate::board::Board;
use crate::types::Move;
use std::sync::atomic::{AtomicBool, Ordering};

/// Leaf count of the legal move tree of `depth` plies (1 for depth 0). The
/// board is left as it was.
pub fn perft(board: &mut Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return board.count_legal() as u64;
    }
    let moves = board.legal_moves();
    let mut nodes = 0;
    for m in moves.iter() {
        board.make_move(m);
        nodes += perft(board, depth - 1);
        board.unmake_move();
    }
    nodes
}

/// [`perft`] that gives up (returns `None`) soon after `stop` is set, e.g.
/// by another thread. The board is left as it was.
pub fn perft_until(board: &mut Board, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= 3 {
        return (!stop.load(Ordering::Relaxed)).then(|| perft(board, depth));
    }
    let moves = board.legal_moves();
    let mut nodes = 0;
    for m in moves.iter() {
        board.make_move(m);
        let n = perft_until(board, depth - 1, stop);
        board.unmake_move();
        nodes += n?;
    }
    Some(nodes)
}

/// Leaf counts below each legal root move (of `depth - 1` plies after it),
/// in generation order. The board is left as it was.
pub fn divide(board: &mut Board, depth: u32) -> Vec<(Move, u64)> {
    let never = AtomicBool::new(false);
    divide_until(board, depth, &never).unwrap_or_default()
}

/// [`divide`] that gives up (returns `None`) soon after `stop` is set.
pub fn divide_until(board: &mut Board, depth: u32, stop: &AtomicBool) -> Option<Vec<(Move, u64)>> {
    let moves = board.legal_moves();
    let mut out = Vec::with_capacity(moves.len());
    for m in moves.iter() {
        board.make_move(m);
        let n = perft_until(board, depth.saturating_sub(1), stop);
        board.unmake_move();
        out.push((m, n?));
    }
    Some(out)
}
