//! Lazy SMP: every thread searches the same root and shares the table; the
//! main thread reports, decides when to stop and answers, the helpers
//! (which skip some depths, see `iterate`) fill the table. Here: each
//! thread's part, and which thread's move is played (the search as the
//! threads share it is `job`).

use super::history::ThreadData;
use super::job::{SearchJob, ThreadResult};
use super::report::{IterationInfo, SearchResult, Silent};
use super::worker::Worker;
use crate::score::SCORE_MATE_IN_MAX;
use crate::score::mated_in;
use crate::sync::lock;
use crate::tt::Bound;
use std::sync::atomic::Ordering;

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
            ..SearchResult::default()
        };
    }
    let mut main = Worker::new(0, job, data, &*job.reporter);
    let result = main.iterate();
    // Stopped inside an iteration: its last line is not the answer's.
    let interrupted = main.stopped;
    let mut all = vec![ThreadResult {
        result,
        depth: main.completed_depth,
    }];
    // Helpers stop when the main thread is done.
    job.shared.stop.store(true, Ordering::Relaxed);
    job.helpers_left.wait();
    all.extend(job.helper_results.iter().filter_map(|r| lock(r).take()));
    let chosen = choose(&all);
    let mut result = all.swap_remove(chosen).result;
    // In the tables, the move's mate and its line to it, with a ponder move.
    if let Some(line) = result.best.and_then(|mv| job.mate_line(mv, result.score)) {
        result.score = line.mate_score;
        result.pv = line.pv.clone();
        result.ponder = line.pv.get(1).copied();
    }
    result.nodes = job.shared.nodes.load(Ordering::Relaxed);
    if (interrupted || chosen != 0) && job.reporter.wants_lines() {
        job.reporter.final_line(&IterationInfo {
            depth: result.depth.max(1),
            seldepth: result.seldepth.max(result.depth.max(1) as usize),
            multipv: 1,
            score: result.score,
            bound: Bound::Exact,
            nodes: result.nodes,
            time_ms: main.time.elapsed().as_millis() as u64,
            hashfull: job.tt.hashfull(),
            tbhits: job
                .tablebases
                .as_ref()
                .map(|_| job.shared.tbhits.load(Ordering::Relaxed)),
            pv: &result.pv,
        });
    }
    result
}

/// The index of the result played: the main thread's (the first result),
/// unless a helper beats it. Helpers are taken in order, each against the
/// result chosen so far, and a helper is chosen only if it completed a
/// deeper iteration AND has a better score AND that score is not a mate
/// score.
fn choose(results: &[ThreadResult]) -> usize {
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
    best
}
