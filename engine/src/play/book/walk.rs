//! The positions a book answers, found by walking its tree of moves.
//!
//! A book keyed by hashes (all three formats) does not hold its positions,
//! so converting one means replaying it: from the start position, every
//! book move (the mirrors' included, as each format probes them) is played
//! and the position reached probed in turn. Records that no such line
//! reaches (other openings' positions, hash collisions, illegal moves) are
//! counted as unreachable.

use super::{Book, Entry};
use std::collections::{HashSet, VecDeque};
use xiangqi::board::Board;

/// What a walk found.
pub struct Walk {
    /// Every position with book moves, and its legal moves as the book
    /// answers them, in the order they were reached (breadth first).
    pub positions: Vec<(Board, Vec<Entry>)>,
    /// Distinct records of the source that some position's answer used.
    pub reached: usize,
    /// Records in the source.
    pub total: usize,
}

impl Walk {
    pub fn unreachable(&self) -> usize {
        self.total - self.reached
    }

    /// Book moves over all positions.
    pub fn moves(&self) -> usize {
        self.positions.iter().map(|(_, e)| e.len()).sum()
    }
}

/// Walk `book` from `start`, at most `max_plies` deep.
pub fn walk(book: &Book, start: &Board, max_plies: usize) -> Walk {
    let mut seen = HashSet::new();
    let mut used = HashSet::new();
    let mut positions = Vec::new();
    let mut queue = VecDeque::new();
    let mut root = start.clone();
    root.clear_history();
    seen.insert(root.key());
    queue.push_back((root, 0usize));
    while let Some((board, ply)) = queue.pop_front() {
        let found = book.probe_found(&board, true);
        if found.is_empty() {
            continue;
        }
        for f in &found {
            used.extend(f.records.iter().copied());
            if ply < max_plies {
                let mut next = board.clone();
                next.make_move(f.entry.mv);
                next.clear_history();
                if seen.insert(next.key()) {
                    queue.push_back((next, ply + 1));
                }
            }
        }
        positions.push((board, found.into_iter().map(|f| f.entry).collect()));
    }
    Walk {
        positions,
        reached: used.len(),
        total: book.len(),
    }
}
