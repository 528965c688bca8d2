//! From a file's stream of move records to a [`Game`]. XQF and CCBridge
//! store the tree the same way, in preorder: a move, then (if its "next"
//! flag is set) its continuation, then (if its "variation" flag is set) an
//! alternative to it from the same position. [`Shape`] tells when that
//! stream is complete; [`build`] plays it on the board, checking every move
//! against the rules. All of it runs on explicit stacks, not recursion, so
//! that no file can overflow the stack.

use crate::game::Game;
use xiangqi::{Board, Move, Square};

/// One move record as a file stores it.
#[derive(Clone, Debug)]
pub(crate) struct Record {
    /// The squares, if the file's coordinates are on the board.
    pub from: Option<Square>,
    pub to: Option<Square>,
    /// A continuation follows.
    pub next: bool,
    /// An alternative to this move follows its continuation.
    pub var: bool,
    pub comment: Option<String>,
}

/// Counts the open branches of a preorder stream: the stream is complete
/// when a record without continuation leaves no alternative pending.
#[derive(Default)]
pub(crate) struct Shape {
    pending: usize,
    done: bool,
}

impl Shape {
    /// Notes a record; returns whether the stream is complete after it.
    pub(crate) fn push(&mut self, next: bool, var: bool) -> bool {
        if var {
            self.pending = self.pending.saturating_add(1);
        }
        if !next {
            if self.pending == 0 {
                self.done = true;
            } else {
                self.pending -= 1;
            }
        }
        self.done
    }
}

/// The game of `records` (in preorder, as [`Shape`] accepted them) from
/// `start`. A move that is not legal where it stands is dropped with every
/// move after it in its branch, and the game says so in its warnings.
pub(crate) fn build(start: Board, root_comment: Option<String>, records: Vec<Record>) -> Game {
    let mut game = Game::new(start.clone());
    game.nodes[0].comment = root_comment;
    let mut board = start;
    board.clear_history();
    // Per record: its parent in the stream (an index into `slots`, 0 the
    // root), and whether it was played on the board (`Some(node)`).
    let mut slots: Vec<(usize, Option<usize>)> = vec![(0, Some(0))];
    let mut attach = 0; // the slot the next record continues
    let mut pending: Vec<usize> = Vec::new(); // slots waiting for an alternative
    for (i, rec) in records.into_iter().enumerate() {
        let slot = slots.len();
        let (_, parent_node) = slots.get(attach).copied().unwrap_or((0, None));
        let mut played = None;
        if let Some(parent) = parent_node {
            let mv = match (rec.from, rec.to) {
                (Some(f), Some(t)) if f != t => Some(Move::new(f, t)),
                _ => None,
            };
            match mv {
                Some(mv) if board.is_legal_move(mv) => {
                    board.make_move(mv);
                    played = Some(game.add(parent, mv, rec.comment));
                }
                _ => game.warnings.push(format!(
                    "move record {} ({}) is not legal in {}: it and the rest of its branch are left out",
                    i + 1,
                    describe(rec.from, rec.to),
                    board.to_fen()
                )),
            }
        }
        slots.push((attach, played));
        if rec.var {
            pending.push(attach);
        }
        if rec.next {
            attach = slot;
            continue;
        }
        let Some(target) = pending.pop() else { break };
        // Back up the board from this record to `target`, an ancestor.
        let mut at = slot;
        while at != target {
            let Some(&(parent, played)) = slots.get(at) else {
                break;
            };
            if played.is_some() {
                board.unmake_move();
            }
            at = parent;
        }
        attach = target;
    }
    game
}

fn describe(from: Option<Square>, to: Option<Square>) -> String {
    let sq = |s: Option<Square>| s.map_or("off the board".to_string(), |s| s.to_string());
    format!("{} to {}", sq(from), sq(to))
}
