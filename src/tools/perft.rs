//! Perft: count the leaves of the legal move tree, the standard test of a
//! move generator. The last ply is counted without making the moves.

use crate::board::Board;
use crate::types::Move;

/// Leaf count of the legal move tree of `depth` plies.
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

/// Leaf counts below each legal root move, in generation order.
pub fn divide(board: &mut Board, depth: u32) -> Vec<(Move, u64)> {
    let moves = board.legal_moves();
    moves
        .iter()
        .map(|m| {
            board.make_move(m);
            let n = perft(board, depth.saturating_sub(1));
            board.unmake_move();
            (m, n)
        })
        .collect()
}

/// The Pikafish `go perft` report: one `move: count` line per root move, a
/// blank line, `Nodes searched: N`, a blank line. Returns the text and the total.
pub fn report(board: &mut Board, depth: u32) -> (String, u64) {
    let mut out = String::new();
    let mut total = 0;
    for (m, n) in divide(board, depth.max(1)) {
        out.push_str(&format!("{m}: {n}\n"));
        total += n;
    }
    out.push_str(&format!("\nNodes searched: {total}\n"));
    (out, total)
}
