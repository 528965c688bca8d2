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
//! - `params`: the search's margins and reductions, in one table;
//! - `rules`: repetition and move-limit rulings inside the tree;
//! - `root_moves`: the root move list;
//! - `smp`: the main and helper jobs, and which thread's move is played;
//! - `handicap`: the evaluation and the move choice of a weakened engine
//!   (`skill_pick`: the line it chose)
//!   (`crate::strength`).

mod alphabeta;
mod handicap;
mod skill_pick;
pub(crate) use handicap::evaluate_with_knowledge;
pub mod history;
mod iterate;
pub(crate) mod job;
pub mod movepick;
pub mod params;
mod qsearch;
mod root_moves;
mod rules;
pub(crate) mod smp;
mod worker;

use crate::score::{SCORE_MATE, Score};
use crate::strength::Strength;
use crate::sync::lock;
use crate::time::Clock;
use crate::tt::Bound;
use history::Histories;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};
use xiangqi::types::Move;

/// What a `go` asks for, in engine terms.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub clock: Clock,
    /// No limit: search until stopped, or to the maximum depth.
    pub infinite: bool,
    /// Pondering: the clock (which runs from the `go`) applies only from
    /// `ponderhit` on, and no answer comes before `ponderhit` or `stop`,
    /// however soon the search ends.
    pub ponder: bool,
    /// Stop when a mate in this many moves is found.
    pub mate: Option<u32>,
    /// Only these root moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// Never these root moves.
    pub banmoves: Vec<Move>,
    pub multipv: usize,
    pub move_overhead: u64,
    /// Give the answer only once told to stop (`go infinite` in both
    /// protocols), however soon the search ends: at the maximum depth, in a
    /// mated or dead-drawn position, or with no move to search. The thread
    /// that answers is parked meanwhile (see `Shared::wait_for_release`).
    pub wait_for_stop: bool,
    /// Playing strength: full by default (`crate::strength`).
    pub strength: Strength,
    /// The search's margins and reductions. Read only by a tuning build
    /// (feature `tune`); the normal build searches with the defaults.
    pub params: params::SearchParams,
}

/// What a host without threads answers when the search polls it (see
/// `Engine::set_interrupt`): the `stop` or `ponderhit` it was sent meanwhile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interrupt {
    None,
    Stop,
    PonderHit,
}

/// A host's poll. Its argument is how long (ms) it may block waiting for
/// news: 0 inside the search, more while a finished search waits for `stop`
/// or `ponderhit` (so that the wait does not spin).
pub type InterruptHook = fn(u32) -> Interrupt;

/// How long a finished search that waits for `stop` lets the host block
/// per poll.
const RELEASE_POLL_MS: u32 = 20;

/// The flags and counters the search threads share with the controller.
/// One set serves every search of an engine; `reset` starts a new one.
pub(crate) struct Shared {
    /// The search threads stop: set by `stop`, by a limit, and by the main
    /// thread as it ends (to stop the helpers).
    pub stop: AtomicBool,
    /// True while pondering; `ponderhit` clears it and the clock applies.
    pub pondering: AtomicBool,
    /// Nodes of all threads, flushed in batches.
    pub nodes: AtomicU64,
    /// Endgame table hits of all threads.
    pub tbhits: AtomicU64,
    /// The controller said `stop` (unlike `stop`, which the search sets
    /// itself as it ends). Guards the wake-ups of `released`.
    told_to_stop: Mutex<bool>,
    /// Signalled on `stop` and `ponderhit`.
    released: Condvar,
    /// Polled by the main search thread, where nothing else can set the
    /// flags while the search runs (a wasm build, whose search runs inside
    /// the call that started it).
    interrupt: Option<InterruptHook>,
}

impl Shared {
    pub fn new() -> Shared {
        Shared::with_interrupt(None)
    }

    pub fn with_interrupt(interrupt: Option<InterruptHook>) -> Shared {
        Shared {
            interrupt,
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            tbhits: AtomicU64::new(0),
            told_to_stop: Mutex::new(false),
            released: Condvar::new(),
        }
    }

    /// Ready for a new search (or perft): not stopped, no nodes yet.
    pub fn reset(&self, ponder: bool) {
        self.stop.store(false, Ordering::Relaxed);
        self.pondering.store(ponder, Ordering::Relaxed);
        self.nodes.store(0, Ordering::Relaxed);
        self.tbhits.store(0, Ordering::Relaxed);
        *lock(&self.told_to_stop) = false;
    }

    /// `stop`: the threads stop, pondering ends, and an answer held back
    /// by `wait_for_release` is given.
    pub fn request_stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
        self.pondering.store(false, Ordering::Relaxed);
        *lock(&self.told_to_stop) = true;
        self.released.notify_all();
    }

    /// `ponderhit`: pondering ends (the clock applies from now on), and an
    /// answer held back only because of pondering is given.
    pub fn ponderhit(&self) {
        self.pondering.store(false, Ordering::Relaxed);
        // Taking the lock orders this with a waiter's check of `pondering`.
        let _guard = lock(&self.told_to_stop);
        self.released.notify_all();
    }

    /// Ask the interrupt hook, if any, what the host was sent, and act on
    /// it as `stop` or `ponderhit` would.
    pub fn poll_interrupt(&self, block_ms: u32) {
        if let Some(poll) = self.interrupt {
            match poll(block_ms) {
                Interrupt::None => {}
                Interrupt::Stop => self.request_stop(),
                Interrupt::PonderHit => self.ponderhit(),
            }
        }
    }

    /// Wait, parked, until the answer of a finished search may be given:
    /// at once, unless `wait_for_stop` (until `stop`) or pondering (until
    /// `ponderhit` or `stop`). With an interrupt hook nobody else can wake
    /// this thread, so it polls the hook instead.
    pub fn wait_for_release(&self, wait_for_stop: bool) {
        let mut told = lock(&self.told_to_stop);
        while !*told && (wait_for_stop || self.pondering.load(Ordering::Relaxed)) {
            if self.interrupt.is_some() {
                // Unlocked while polling: `stop` and `ponderhit` take the lock.
                drop(told);
                self.poll_interrupt(RELEASE_POLL_MS);
                told = lock(&self.told_to_stop);
            } else {
                told = self.released.wait(told).unwrap_or_else(|p| p.into_inner());
            }
        }
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
    /// Endgame table hits, when tables are loaded.
    pub tbhits: Option<u64>,
    pub pv: &'a [Move],
}

/// Where search output goes (the protocol's printer). Called from the
/// engine's main search thread.
pub trait Reporter: Send + Sync {
    fn iteration(&self, info: &IterationInfo);
    fn currmove(&self, depth: i32, mv: Move, number: usize);
    /// The line the answer comes from, when the last line reported is not
    /// already that (the search was stopped inside an iteration, or a
    /// helper thread's move is played). Printed like an iteration's line
    /// unless the protocol wants it otherwise.
    fn final_line(&self, info: &IterationInfo) {
        self.iteration(info);
    }
    /// The answer, once per search, as the search ends. The engine holds its
    /// answer lock meanwhile: a `stop` either comes before the answer (and
    /// causes it) or after it (and finds the engine idle).
    fn best_move(&self, _result: &SearchResult) {}
    /// Does it use the lines (`iteration`, `final_line`)? A reporter that
    /// drops them says no, and the search skips making them: a line samples
    /// the table for `hashfull` and reads the clock, which was 0.6% of
    /// datagen's short searches.
    fn wants_lines(&self) -> bool {
        true
    }
    /// The book moves a `go` chose among (`total`: their summed weight),
    /// before the book move's `best_move`.
    fn book_moves(&self, _entries: &[crate::book::Entry], _total: u32) {}
}

/// A reporter that prints nothing (bench, tests, tools).
pub struct Silent;

impl Reporter for Silent {
    fn iteration(&self, _: &IterationInfo) {}
    fn currmove(&self, _: i32, _: Move, _: usize) {}
    fn wants_lines(&self) -> bool {
        false
    }
}

#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: Score,
    /// The iteration that the score and line come from: the last completed
    /// one, or a stopped one that had already scored the move played.
    pub depth: i32,
    /// Selective depth of the line played.
    pub seldepth: usize,
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
