//! Lazy SMP: every thread searches the same root and shares the table; the
//! main thread reports, decides when to stop and answers, the helpers
//! (which skip some depths, see `iterate`) fill the table. Here: a search as
//! its threads see it, each thread's part, and which thread's move is played.

use super::root_moves::{RootMove, root_moves};
use super::worker::Worker;
use super::{Limits, Reporter, SearchResult, Shared, Silent, ThreadData, mated_in};
use crate::score::SCORE_MATE_IN_MAX;
use crate::thread::{Latch, lock};
use crate::tt::TranspositionTable;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use xiangqi::board::Board;

/// One search, shared by the threads that run it.
pub(crate) struct SearchJob {
    pub board: Board,
    pub limits: Limits,
    pub root_moves: Vec<RootMove>,
    pub tt: Arc<TranspositionTable>,
    pub shared: Arc<Shared>,
    pub reporter: Arc<dyn Reporter>,
    /// What each helper found (helper `id` at `id - 1`).
    helper_results: Vec<Mutex<Option<ThreadResult>>>,
    /// Helpers still searching; each counts down once it has let go of the job.
    pub helpers_left: Arc<Latch>,
}

/// What one thread found.
struct ThreadResult {
    result: SearchResult,
    /// Its deepest completed iteration.
    depth: i32,
}

impl SearchJob {
    /// A search of `board` on `threads` threads (helpers only if there is a
    /// move to search). The table starts a new search.
    pub fn new(
        board: &Board,
        limits: Limits,
        tt: Arc<TranspositionTable>,
        shared: Arc<Shared>,
        reporter: Arc<dyn Reporter>,
        threads: usize,
    ) -> SearchJob {
        tt.new_search();
        let root_moves = root_moves(board, &limits);
        let helpers = if root_moves.is_empty() {
            0
        } else {
            threads.max(1) - 1
        };
        SearchJob {
            board: board.clone(),
            limits,
            root_moves,
            tt,
            shared,
            reporter,
            helper_results: (0..helpers).map(|_| Mutex::new(None)).collect(),
            helpers_left: Arc::new(Latch::new(helpers)),
        }
    }

    /// Helper threads the search uses (ids 1 to this).
    pub fn helpers(&self) -> usize {
        self.helper_results.len()
    }
}

/// Helper `id`'s part: search until the main thread stops it.
pub(crate) fn helper_search(job: &SearchJob, id: usize, data: &mut ThreadData) {
    let mut w = Worker::new(id, job, data, &Silent);
    let result = w.iterate();
    let depth = w.completed_depth;
    *lock(&job.helper_results[id - 1]) = Some(ThreadResult { result, depth });
}

/// The main thread's part: search until a limit is reached or `stop` is
/// set, then stop the helpers, wait for them and choose the move to play.
pub(crate) fn main_search(job: &SearchJob, data: &mut ThreadData) -> SearchResult {
    if job.root_moves.is_empty() {
        return SearchResult {
            best: None,
            ponder: None,
            score: mated_in(0),
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
        };
    }
    let mut main = Worker::new(0, job, data, &*job.reporter);
    let result = main.iterate();
    let mut all = vec![ThreadResult {
        result,
        depth: main.completed_depth,
    }];
    // Helpers stop when the main thread is done.
    job.shared.stop.store(true, Ordering::Relaxed);
    job.helpers_left.wait();
    all.extend(job.helper_results.iter().filter_map(|r| lock(r).take()));
    let mut result = choose(all);
    // A skill level plays its own choice (the main thread's).
    if let Some(pick) = main.skill_pick.take() {
        super::handicap::play_pick(&mut result, pick);
    }
    result.nodes = job.shared.nodes.load(Ordering::Relaxed);
    result
}

/// The move played: the main thread's (the first result), unless a helper
/// beats it. Helpers are taken in order, each against the result chosen so
/// far, and a helper is chosen only if it completed a deeper iteration AND
/// has a better score AND that score is not a mate score.
fn choose(results: Vec<ThreadResult>) -> SearchResult {
    let mut best = 0;
    for (i, r) in results.iter().enumerate().skip(1) {
        let b = &results[best];
        if r.result.best.is_some()
            && r.depth > b.depth
            && r.result.score > b.result.score
            && r.result.score.abs() < SCORE_MATE_IN_MAX
        {
            best = i;
        }
    }
    results
        .into_iter()
        .nth(best)
        .map(|r| r.result)
        .unwrap_or_default()
}
