//! The engine as the protocol and the tools drive it: one object that owns
//! the transposition table and the threads, starts searches and perft runs
//! on them, stops them, and hands their answers to a `Reporter`.
//!
//! The evaluation is the hand-made one, or a network (`set_network`,
//! `load_network_file`, `load_network_bytes`) that every search thread
//! reads through one shared `Arc`.
//!
//! A job (search or perft) is running from `go`/`perft` until it has given
//! its answer. The answer is given under a lock that `stop` takes too, so a
//! `stop` either comes before the answer (and causes it) or after it (and
//! finds the engine idle).

use crate::eval::hook::{EvalHook, Grade};
use crate::nnue::{self, Network, NnueError};
use crate::play::book::Book;
use crate::play::strength::Strength;
use crate::play::{Play, PlaySettings, Prepared};
use crate::position::Position;
use crate::score::Score;
use crate::search::job::SearchJob;
use crate::search::smp;
use crate::search::{
    GoRequest, InterruptHook, IterationInfo, Limits, Reporter, SearchResult, Shared,
};
use crate::sync::{CountDown, lock};
use crate::thread::ThreadPool;
use crate::tt::{TranspositionTable, TtEntry};
use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::ThreadId;
use xiangqi::board::Board;
use xiangqi::perft::divide_until;
use xiangqi::types::Move;

/// The search engine: table, threads and the job they run.
pub struct Engine {
    pool: ThreadPool,
    tt: Arc<TranspositionTable>,
    hash_mb: usize,
    /// The evaluation's network; `None`: the hand-made evaluation.
    network: Option<Arc<Network>>,
    /// Endgame tables the search probes; `None`: none.
    tablebases: Option<Arc<crate::tb::Tablebases>>,
    /// Stop and ponder flags and the node count of the current job.
    shared: Arc<Shared>,
    status: Arc<Status>,
    /// The book, the choices' random source, the node clock and the
    /// options that shape a `go`.
    play: Play,
}

/// Whether a job is running (started and not yet answered).
struct Status {
    running: Mutex<bool>,
    idle: Condvar,
}

/// The end of a job: gives the answer under the status lock and marks the
/// engine idle. Dropped without answering (a task that panicked, in builds
/// that unwind), it still marks the engine idle, so that nobody waits forever.
struct JobEnd(Option<Arc<Status>>);

impl JobEnd {
    fn answer(mut self, give: impl FnOnce()) {
        if let Some(status) = self.0.take() {
            let mut running = lock(&status.running);
            give();
            *running = false;
            status.idle.notify_all();
        }
    }
}

impl Drop for JobEnd {
    fn drop(&mut self) {
        if let Some(status) = self.0.take() {
            *lock(&status.running) = false;
            status.idle.notify_all();
        }
    }
}

/// Keeps the answer of a blocking search.
struct Answer(Mutex<Option<SearchResult>>);

impl Reporter for Answer {
    fn iteration(&self, _: &IterationInfo) {}
    fn currmove(&self, _: i32, _: Move, _: usize) {}
    fn wants_lines(&self) -> bool {
        false
    }
    fn best_move(&self, result: &SearchResult) {
        *lock(&self.0) = Some(result.clone());
    }
}

impl Engine {
    /// An engine with a table of `hash_mb` MB and `threads` search threads.
    /// Panics if the threads cannot be started (like `std::thread::spawn`);
    /// see `try_new`.
    pub fn new(hash_mb: usize, threads: usize) -> Engine {
        Self::try_new(hash_mb, threads).expect("cannot start the engine threads")
    }

    /// An engine, or the error that kept its threads from starting.
    pub fn try_new(hash_mb: usize, threads: usize) -> std::io::Result<Engine> {
        Ok(Engine {
            pool: ThreadPool::new(threads)?,
            tt: Arc::new(TranspositionTable::new(hash_mb)),
            hash_mb,
            network: nnue::default_network(),
            tablebases: None,
            shared: Arc::new(Shared::new()),
            play: Play::default(),
            status: Arc::new(Status {
                running: Mutex::new(false),
                idle: Condvar::new(),
            }),
        })
    }

    /// What the transposition table holds for a position's key (read it
    /// any time, even while searching: UCCI's `probe`).
    pub fn hash_entry(&self, key: u64) -> Option<TtEntry> {
        self.tt.probe(key, 0)
    }

    pub fn threads(&self) -> usize {
        self.pool.len()
    }

    /// The ids of the engine's threads, main thread first. They stay the
    /// same from one search to the next; only `set_threads` changes them.
    pub fn thread_ids(&self) -> Vec<ThreadId> {
        self.pool.thread_ids()
    }

    /// Search with `n` threads from now on (at least one). Waits for a
    /// running job; re-creates the threads if the number changes (each new
    /// thread gets the tables the thread of its number had).
    pub fn set_threads(&mut self, n: usize) -> std::io::Result<()> {
        self.wait();
        self.pool.resize(n)
    }

    /// Replace the table with one of `mb` MB. On failure the table keeps
    /// its old size (emptied) and the error is returned.
    pub fn resize_hash(&mut self, mb: usize) -> Result<(), String> {
        self.wait();
        let old = self.hash_mb;
        // Free the old table first so that both need not fit at once.
        self.tt = Arc::new(TranspositionTable::new(1));
        match TranspositionTable::try_new(mb) {
            Ok(t) => {
                self.tt = Arc::new(t);
                self.hash_mb = mb;
                Ok(())
            }
            Err(e) => {
                self.tt = Arc::new(TranspositionTable::new(old));
                Err(e)
            }
        }
    }

    /// Empty the table.
    pub fn clear_hash(&mut self) {
        self.wait();
        self.tt.clear();
    }

    /// Forget everything learnt: the table and every thread's tables.
    pub fn new_game(&mut self) {
        self.wait();
        self.tt.clear();
        self.pool.clear();
        self.play.node_clock.reset();
    }

    /// The options that shape a `go` (book, strength, MultiPV, overhead,
    /// `nodestime`). A change of `nodestime` starts its node clock again.
    pub fn set_play_settings(&mut self, settings: PlaySettings) {
        if settings.nodestime != self.play.settings.nodestime {
            self.play.node_clock.reset();
        }
        self.play.settings = settings;
    }

    /// The opening book a game `go` plays from.
    pub fn set_book(&mut self, book: Book) {
        self.play.book = book;
    }

    /// Seed the book choices, skill picks and `randomness` (0: from the clock).
    pub fn reseed(&mut self, seed: u64) {
        self.play.reseed(seed);
    }

    /// `go`: what the GUI said, and the engine decides the rest: a book
    /// move (answered at once through `reporter`), or a search with the
    /// time allocation, node clock and strength the settings call for.
    /// Returns true if a search started (it answers through `reporter`).
    pub fn go(&mut self, board: &Board, request: GoRequest, reporter: Arc<dyn Reporter>) -> bool {
        self.wait();
        self.settle_node_clock();
        match self.play.prepare(board, request.bounded(), reporter) {
            Prepared::Answered => false,
            Prepared::Search(limits, reporter) => {
                self.go_with_limits(board, *limits, reporter);
                true
            }
        }
    }

    /// The evaluation's network, if the evaluation is a network.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.network.as_ref()
    }

    /// Probe these endgame tables from the next search on (`None`: none).
    /// Waits for a running job; the table is emptied, as its scores were
    /// found with the other tables.
    pub fn set_tablebases(&mut self, tb: Option<Arc<crate::tb::Tablebases>>) {
        self.wait();
        self.tablebases = tb;
        self.tt.clear();
    }

    /// Whether endgame tables are loaded.
    pub fn has_tablebases(&self) -> bool {
        self.tablebases.is_some()
    }

    /// Table hits of the last search (0 without tables).
    pub fn tbhits(&self) -> u64 {
        self.shared
            .tbhits
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Evaluate with `net` from now on, or with the hand-made evaluation
    /// (`None`). Waits for a running job. A change empties the table: its
    /// entries hold the other evaluation's scores.
    pub fn set_network(&mut self, net: Option<Arc<Network>>) {
        self.wait();
        let same = match (&self.network, &net) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b) || a == b,
            _ => false,
        };
        self.network = net;
        if !same {
            self.tt.clear();
        }
    }

    /// Read a network file and evaluate with it. On error the evaluation
    /// stays as it was.
    pub fn load_network_file(&mut self, path: impl AsRef<Path>) -> Result<(), NnueError> {
        let net = Network::load(path)?;
        self.set_network(Some(Arc::new(net)));
        Ok(())
    }

    /// Evaluate with the network file `bytes` (an embedded net, say). On
    /// error the evaluation stays as it was.
    pub fn load_network_bytes(&mut self, bytes: &[u8]) -> Result<(), NnueError> {
        let net = Network::from_bytes(bytes)?;
        self.set_network(Some(Arc::new(net)));
        Ok(())
    }

    /// The static evaluation the search uses for `board`, from the side to
    /// move's point of view (at full strength: no `knowledge` or
    /// `randomness` handicap).
    pub fn evaluate(&self, board: &Board) -> Score {
        Position::with_network(board.clone(), self.network.clone()).evaluate()
    }

    /// The static evaluation the search uses under the UCCI `knowledge`
    /// grade: below `large`, the hand-made evaluation with fewer terms, even
    /// when a network is loaded (a network has no terms to leave out).
    pub fn evaluate_with_knowledge(&self, board: &Board, knowledge: Grade) -> Score {
        Position::with_network(board.clone(), self.network.clone())
            .with_eval_hook(EvalHook::new(knowledge, 0, 0))
            .evaluate()
    }

    /// Start searching `board` (waiting first for a running job). Lines go
    /// to `reporter` as the search goes; its `best_move` gets the answer,
    /// exactly once. A pondering search (`limits.ponder`) answers only after
    /// `ponderhit` or `stop`, one with `limits.wait_for_stop` only after
    /// `stop`, however soon their search ends.
    pub fn go_with_limits(&mut self, board: &Board, limits: Limits, reporter: Arc<dyn Reporter>) {
        self.wait();
        let end = self.start(limits.request.ponder);
        let wait_for_stop = limits.settings.wait_for_stop;
        let job = Arc::new(
            SearchJob::new(
                board,
                limits,
                self.tt.clone(),
                self.network.clone(),
                self.shared.clone(),
                reporter,
                self.pool.len(),
            )
            .with_tablebases(self.tablebases.clone()),
        );
        for id in 1..=job.helpers() {
            let job = job.clone();
            let done = CountDown(job.helpers_left.clone());
            self.pool.run(
                id,
                Box::new(move |data| {
                    smp::helper_search(&job, id, data);
                    // Let go of the job (and its table) before saying so.
                    drop(job);
                    drop(done);
                }),
            );
        }
        self.pool.run(
            0,
            Box::new(move |data| {
                let result = smp::main_search(&job, data);
                // Infinite and pondering searches answer only when told,
                // even when their search has ended by itself.
                job.shared.wait_for_release(wait_for_stop);
                let reporter = job.reporter.clone();
                drop(job);
                end.answer(|| reporter.best_move(&result));
            }),
        );
    }

    /// Count the leaf nodes `depth` plies below `board`, per root move, on
    /// the main engine thread; `stop` ends it. `done` gets the counts (in
    /// move generation order), or `None` if stopped.
    pub fn perft(
        &mut self,
        board: &Board,
        depth: u32,
        done: impl FnOnce(Option<Vec<(Move, u64)>>) + Send + 'static,
    ) {
        self.wait();
        self.settle_node_clock();
        let end = self.start(false);
        let shared = self.shared.clone();
        let mut board = board.clone();
        self.pool.run(
            0,
            Box::new(move |_| {
                let counts = divide_until(&mut board, depth.max(1), &shared.stop);
                drop(shared);
                end.answer(|| done(counts));
            }),
        );
    }

    /// Search `board` on the engine's threads and return the answer (for
    /// tools and tests: nothing is reported on the way).
    pub fn search(&mut self, board: &Board, limits: Limits) -> SearchResult {
        let answer = Arc::new(Answer(Mutex::new(None)));
        self.go_with_limits(board, limits, answer.clone());
        self.wait();
        lock(&answer.0).take().unwrap_or_default()
    }

    /// [`search`](Self::search) at `strength` (its seed included): the
    /// settings it adds to `limits`, and its picks around the search.
    pub fn search_at(
        &mut self,
        board: &Board,
        mut limits: Limits,
        strength: &Strength,
    ) -> SearchResult {
        let answer = Arc::new(Answer(Mutex::new(None)));
        let shown = limits.settings.multipv;
        strength.apply(&mut limits.settings);
        let reporter = strength.reporter(
            answer.clone(),
            board,
            &limits.request,
            shown,
            &limits.settings,
        );
        self.go_with_limits(board, limits, reporter);
        self.wait();
        lock(&answer.0).take().unwrap_or_default()
    }

    /// Stop the running job. True if it was running; false if there was
    /// none, or it had already answered.
    pub fn stop(&self) -> bool {
        let running = lock(&self.status.running);
        if *running {
            self.shared.request_stop();
        }
        *running
    }

    /// The ponder move was played: the search goes on as a timed one (or
    /// answers, if it has ended).
    pub fn ponderhit(&self) {
        self.shared.ponderhit();
    }

    /// Have the main search thread poll `hook` for `stop` and `ponderhit`
    /// (as the search polls the clock) from the next job on; `None`: no
    /// hook. For hosts where nothing can call `stop` while a search runs:
    /// in a wasm build `go` only returns with the answer.
    pub fn set_interrupt(&mut self, hook: Option<InterruptHook>) {
        self.wait();
        self.shared = Arc::new(Shared::with_interrupt(hook));
    }

    /// Nodes searched by the running or last search.
    pub fn nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed)
    }

    /// Is a job running (started and not yet answered)?
    pub fn is_searching(&self) -> bool {
        *lock(&self.status.running)
    }

    /// Wait until the running job, if any, has answered.
    pub fn wait(&self) {
        let mut running = lock(&self.status.running);
        while *running {
            running = self
                .status
                .idle
                .wait(running)
                .unwrap_or_else(|p| p.into_inner());
        }
    }

    /// Mark a job as started (new flags and node count) and return its end.
    /// The finished job's nodes come off the node clock, if it was a
    /// search that used it (before the next job counts nodes afresh).
    fn settle_node_clock(&mut self) {
        let used = self.nodes();
        self.play.node_clock.search_done(used);
    }

    fn start(&mut self, ponder: bool) -> JobEnd {
        self.shared.reset(ponder);
        *lock(&self.status.running) = true;
        JobEnd(Some(self.status.clone()))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}

#[cfg(test)]
mod tests;
