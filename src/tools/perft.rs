//! The Pikafish-style perft report (`go perft`, `jiangjun perft --divide`).

use std::sync::atomic::AtomicBool;
use xiangqi::perft::divide_until;
use xiangqi::{Board, Move};

/// The Pikafish `go perft` report: one `move: count` line per root move, a
/// blank line, `Nodes searched: N`. Returns the text and the total, or `None`
/// if stopped.
pub fn report_until(board: &mut Board, depth: u32, stop: &AtomicBool) -> Option<(String, u64)> {
    Some(report_of(&divide_until(board, depth.max(1), stop)?))
}

/// The report of per-move counts (from `divide_until`), and the total.
pub fn report_of(counts: &[(Move, u64)]) -> (String, u64) {
    let mut out = String::new();
    let mut total = 0;
    for (m, n) in counts {
        out.push_str(&format!("{m}: {n}\n"));
        total += n;
    }
    out.push_str(&format!("\nNodes searched: {total}\n"));
    (out, total)
}

/// `report_until` without a stop flag.
pub fn report(board: &mut Board, depth: u32) -> (String, u64) {
    let never = AtomicBool::new(false);
    report_until(board, depth, &never).unwrap_or_default()
}
