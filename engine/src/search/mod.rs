//! The search: iterative deepening over a principal-variation alpha-beta
//! search with a quiescence search at the leaves, one shared transposition
//! table, and helper threads (lazy SMP) that search the same root.
//!
//! This module holds what the search is asked (`Limits`), what it answers
//! (`SearchResult`, and `Reporter` for the lines on the way) and the state
//! its threads share. The threads themselves live in `crate::thread` and are
//! driven by `crate::controller::Engine`; the jobs they run are in `smp`.
//!
//! - `worker`: one thread's search state and its bookkeeping;
//! - `iterate`: iterative deepening with aspiration windows;
//! - `alphabeta`: the node search (root, PV and non-PV nodes);
//! - `qsearch`: the quiescence search;
//! - `rules`: repetition and move-limit rulings inside the tree;
//! - `root_moves`: the root move list;
//! - `smp`: the main and helper jobs, and which thread's move is played;
//! - `handicap`: the evaluation and the move choice of a weakened engine
//!   (`crate::strength`).

mod alphabeta;
mod handicap;
pub mod history;
mod iterate;
pub mod movepick;
mod qsearch;
mod root_moves;
mod rules;
pub(crate) mod smp;
mod worker;

use crate::score::{SCORE_MATE, Score};
use crate::strength::Strength;
use crate::time::Clock;
use crate::tt::Bound;
use history::Histories;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use xiangqi::types::Move;

/// What a `go` asks for, in engine terms.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub clock: Clock,
    /// Search until stopped.
    pub infinite: bool,
    /// Pondering: no clock until `ponderhit`.
    pub ponder: bool,
    /// Stop when a mate in this many moves is found.
    pub mate: Option<u32>,
    /// Only these root moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// Never these root moves.
    pub banmoves: Vec<Move>,
    pub multipv: usize,
    pub move_overhead: u64,
    /// Give the answer only once told to stop (UCI `go infinite`). A search
    /// that ran sets `stop` itself as it ends, so this holds back only the
    /// answer of a search that had no move to search (see `Engine::go`).
    pub wait_for_stop: bool,
    /// Playing strength: full by default (`crate::strength`).
    pub strength: Strength,
}

/// The flags and counters the search threads share with the controller.
/// One set serves every search of an engine; `reset` starts a new one.
pub(crate) struct Shared {
    pub stop: AtomicBool,
    /// True while pondering; `ponderhit` clears it and the clock starts.
    pub pondering: AtomicBool,
    /// Nodes of all threads, flushed in batches.
    pub nodes: AtomicU64,
}

impl Shared {
    pub fn new() -> Shared {
        Shared {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
        }
    }

    /// Ready for a new search (or perft): not stopped, no nodes yet.
    pub fn reset(&self, ponder: bool) {
        self.stop.store(false, Ordering::Relaxed);
        self.pondering.store(ponder, Ordering::Relaxed);
        self.nodes.store(0, Ordering::Relaxed);
    }
}

/// One line of search output.
pub struct IterationInfo<'a> {
    pub depth: i32,
    pub seldepth: usize,
    /// 1-based index of the line (MultiPV).
    pub multipv: usize,
    pub score: Score,
    pub bound: Bound,
    pub nodes: u64,
    pub time_ms: u64,
    pub hashfull: usize,
    pub pv: &'a [Move],
}

/// Where search output goes (the protocol's printer). Called from the
/// engine's main search thread.
pub trait Reporter: Send + Sync {
    fn iteration(&self, info: &IterationInfo);
    fn currmove(&self, depth: i32, mv: Move, number: usize);
    /// The answer, once per search, as the search ends. The engine holds its
    /// answer lock meanwhile: a `stop` either comes before the answer (and
    /// causes it) or after it (and finds the engine idle).
    fn best_move(&self, _result: &SearchResult) {}
}

/// A reporter that prints nothing (bench, tests, tools).
pub struct Silent;

impl Reporter for Silent {
    fn iteration(&self, _: &IterationInfo) {}
    fn currmove(&self, _: i32, _: Move, _: usize) {}
}

#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: Score,
    pub depth: i32,
    pub nodes: u64,
    pub pv: Vec<Move>,
}

/// Per-thread tables kept from one search to the next.
#[derive(Default)]
pub struct ThreadData {
    pub hist: Histories,
}

impl ThreadData {
    pub fn clear(&mut self) {
        self.hist.clear();
    }
}

pub const fn mate_in(ply: usize) -> Score {
    SCORE_MATE - ply as Score
}

pub const fn mated_in(ply: usize) -> Score {
    -SCORE_MATE + ply as Score
}
