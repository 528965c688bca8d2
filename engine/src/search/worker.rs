//! One thread's search: its position, stack, principal variations, root
//! moves and counters, and the bookkeeping every node uses (node counting
//! and polling, the PV table, the per-ply frames).

use super::history::ThreadData;
use super::history::{self, Context};
use super::job::SearchJob;
use super::limits::Limits;
use super::params::{LmrTable, SearchParams};
use super::report::{IterationInfo, Reporter};
use super::root_moves::RootMove;
use super::shared::Shared;
use super::time::TimeManager;
use crate::position::Position;
use crate::score::{MAX_PLY, SCORE_INFINITE, Score};
use crate::tt::{Bound, TranspositionTable};
use std::borrow::Cow;
use std::sync::atomic::Ordering;
use xiangqi::rules::Outcome;
use xiangqi::types::Move;

pub(super) const PV_SIZE: usize = MAX_PLY + 2;
/// The stack is indexed by ply + 2 so that ply - 1 and ply - 2 always exist.
const STACK_OFFSET: usize = 2;
pub(super) const RULE_CACHE: usize = 1024;

/// Per-ply search state.
#[derive(Clone, Copy, Default)]
pub(super) struct Frame {
    pub static_eval: Score,
    pub in_check: bool,
    /// Continuation-history index (piece, target) of the move made at this
    /// ply; `None` for a null move or before the move is known.
    pub cont: Option<usize>,
    /// A move left out of this node (singular-extension search).
    pub excluded: Move,
    pub killers: [Move; 2],
    /// The move made at this ply was a null move.
    pub null: bool,
}

pub(super) struct Worker<'a> {
    pub id: usize,
    pub board: Position,
    pub shared: &'a Shared,
    pub tt: &'a TranspositionTable,
    /// Endgame tables to probe below the root, if loaded.
    pub tablebases: Option<&'a crate::tb::Tablebases>,
    /// The root moves' lines to mate, when the tables decide the root.
    pub mate_lines: &'a [crate::tb::MateLine],
    pub data: &'a mut ThreadData,
    pub limits: &'a Limits,
    pub reporter: &'a dyn Reporter,
    pub time: TimeManager,
    pub nodes: u64,
    pub flushed: u64,
    poll_mask: u64,
    /// From this node count on, every node polls (see `new`).
    poll_from: u64,
    pub seldepth: usize,
    pub stopped: bool,
    /// Internal stops (time, nodes) are ignored until depth 1 is complete.
    pub can_stop: bool,
    pub pv: Vec<Move>,
    pub pv_len: [usize; PV_SIZE],
    pub stack: Vec<Frame>,
    pub lmr: Cow<'static, LmrTable>,
    pub root_moves: Vec<RootMove>,
    pub root_depth: i32,
    pub pv_idx: usize,
    pub completed_depth: i32,
    /// Rulings that ended a line with a win or loss (perpetual check or
    /// chase). Their scores depend on the path, so a node whose subtree met
    /// one does not store its score in the shared table.
    pub rule_hits: u64,
    pub rule_cache: Vec<Option<(u64, Outcome)>>,
}

impl<'a> Worker<'a> {
    /// Thread `id` (0: the main thread) of `job`, with its tables `data`.
    pub(super) fn new(
        id: usize,
        job: &'a SearchJob,
        data: &'a mut ThreadData,
        reporter: &'a dyn Reporter,
    ) -> Worker<'a> {
        let limits = &job.limits;
        let cap = limits.settings.node_cap;
        // A node cap is counted node by node, so that no search
        // overshoots it. A small node limit is kept exactly: the main thread
        // stops at the first node where the total reaches it. With helpers
        // the total moves with every thread's nodes, so every node polls
        // (and publishes its count). Alone, the total is this thread's own
        // count: polling every 1024 nodes, and at every node once the limit
        // is reached (until the stop is allowed), stops at the same node
        // without an atomic add per node (1% of a datagen search).
        let (poll_mask, poll_from) = match (limits.node_limit(), cap) {
            (_, Some(_)) => (0, u64::MAX),
            (Some(n), None) if n < 100_000 && job.helpers() == 0 => (1023, n),
            (Some(n), None) if n < 100_000 => (0, u64::MAX),
            _ => (1023, u64::MAX),
        };
        // A clock that counts nodes is a node limit: the wall clock is not
        // looked at.
        let no_clock = super::time::Clock::default();
        let clock = match limits.settings.clock_nodes {
            Some(_) => &no_clock,
            None => &limits.request.clock,
        };
        Worker {
            id,
            // With a network, its accumulators are computed from scratch
            // here, once per search and thread, then kept incrementally.
            board: Position::with_network(job.board.clone(), job.network.clone())
                .with_eval_hook(limits.settings.eval_hook),
            shared: &job.shared,
            tt: &job.tt,
            tablebases: job.tablebases.as_deref(),
            mate_lines: &job.mate_lines,
            data,
            limits,
            reporter,
            time: TimeManager::new(clock, limits.settings.move_overhead, job.start),
            nodes: 0,
            flushed: 0,
            poll_mask,
            poll_from,
            seldepth: 0,
            stopped: false,
            can_stop: false,
            pv: vec![Move::NONE; PV_SIZE * PV_SIZE],
            pv_len: [0; PV_SIZE],
            stack: vec![Frame::default(); PV_SIZE + STACK_OFFSET + 2],
            // Built from the params of this search (a tuning build's may
            // change between searches).
            lmr: Self::params_of(limits).lmr(),
            root_moves: job.root_moves.clone(),
            root_depth: 0,
            pv_idx: 0,
            completed_depth: 0,
            rule_hits: 0,
            rule_cache: vec![None; RULE_CACHE],
        }
    }

    /// The search's margins and reductions: the constant defaults in the
    /// normal build (every read folds to an immediate), the `go`'s in a
    /// tuning build.
    #[inline(always)]
    pub(super) fn params(&self) -> &'a SearchParams {
        Self::params_of(self.limits)
    }

    #[inline(always)]
    #[cfg_attr(not(feature = "tune"), allow(unused_variables))]
    fn params_of(limits: &'a Limits) -> &'a SearchParams {
        #[cfg(feature = "tune")]
        {
            &limits.settings.params
        }
        #[cfg(not(feature = "tune"))]
        {
            &SearchParams::DEFAULT
        }
    }

    pub(super) fn is_main(&self) -> bool {
        self.id == 0
    }

    #[inline(always)]
    pub(super) fn frame(&mut self, ply: usize) -> &mut Frame {
        &mut self.stack[ply + STACK_OFFSET]
    }

    #[inline(always)]
    pub(super) fn frame_at(&self, ply: usize) -> &Frame {
        &self.stack[ply + STACK_OFFSET]
    }

    /// The frame `back` plies before `ply` (the stack has room for two before the root).
    #[inline(always)]
    pub(super) fn frame_back(&self, ply: usize, back: usize) -> &Frame {
        &self.stack[ply + STACK_OFFSET - back]
    }

    pub(super) fn context(&self, ply: usize) -> Context {
        Context {
            cont: [self.frame_back(ply, 1).cont, self.frame_back(ply, 2).cont],
        }
    }

    pub(super) fn pondering(&self) -> bool {
        self.shared.pondering.load(Ordering::Relaxed)
    }

    /// The reply to `best` that the table suggests, if legal.
    pub(super) fn ponder_from_tt(&mut self, best: Move) -> Option<Move> {
        self.board.make_move(best);
        let m = self
            .tt
            .probe(self.board.key(), 0)
            .map(|e| e.mv)
            .filter(|&m| self.board.is_legal_move(m));
        self.board.unmake_move();
        m
    }

    /// Send the lines of a completed iteration to the reporter.
    pub(super) fn report(&self, depth: i32, multipv: usize) {
        if !self.reporter.wants_lines() {
            return;
        }
        let time_ms = self.time.elapsed().as_millis() as u64;
        let nodes = self.shared.nodes.load(Ordering::Relaxed) + (self.nodes - self.flushed);
        let hashfull = self.tt.hashfull();
        for (i, rm) in self.root_moves.iter().take(multipv).enumerate() {
            let score = if rm.score == -SCORE_INFINITE {
                rm.prev_score
            } else {
                rm.score
            };
            // In the tables: the move's mate and its line to it.
            let (score, pv) = match crate::tb::mate_line_of(self.mate_lines, rm.mv, score) {
                Some(line) => (line.mate_score, &line.pv[..]),
                None => (score, &rm.pv[..]),
            };
            self.reporter.iteration(&IterationInfo {
                depth,
                // Never below the depth: a line that ends sooner (a mate,
                // a draw by the rules) was still searched to it.
                seldepth: rm.seldepth.max(depth.max(1) as usize),
                multipv: i + 1,
                score,
                bound: Bound::Exact,
                nodes,
                time_ms,
                hashfull,
                tbhits: self
                    .tablebases
                    .map(|_| self.shared.tbhits.load(Ordering::Relaxed)),
                pv,
            });
        }
    }

    /// Count a node and, every so often, look at the clock and the stop flag.
    #[inline(always)]
    pub(super) fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes & self.poll_mask == 0 || self.nodes >= self.poll_from {
            self.poll();
        }
    }

    fn poll(&mut self) {
        let cap = self.limits.settings.node_cap;
        if let Some(cap) = cap {
            let total = self.shared.nodes.load(Ordering::Relaxed) + (self.nodes - self.flushed);
            if self.stopped || total > cap {
                // A node entered past the cap (a root move counts one
                // without a poll) or after its stop does no work: it
                // returns at once. Not counted, the cap is never exceeded.
                self.nodes -= 1;
                self.stop_all();
                return;
            }
        }
        let total = self
            .shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed)
            + (self.nodes - self.flushed);
        self.flushed = self.nodes;
        if self.is_main() {
            self.shared.poll_interrupt(0);
        }
        if self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        if cap.is_some_and(|b| total >= b) {
            self.stop_all();
            return;
        }
        if !self.is_main() || !self.can_stop {
            return;
        }
        if let Some(n) = self.limits.node_limit()
            && total >= n
        {
            self.stop_all();
        }
        if self.pondering() {
            // The clock is ours once the ponder move is played.
            return;
        }
        if self.time.out_of_time() {
            self.stop_all();
        }
    }

    fn stop_all(&mut self) {
        self.stopped = true;
        self.shared.stop.store(true, Ordering::Relaxed);
    }

    /// Add the last nodes to the shared count, so that totals are exact.
    pub(super) fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    #[inline(always)]
    pub(super) fn update_pv(&mut self, ply: usize, m: Move) {
        let child = ply + 1;
        let n = self.pv_len[child];
        self.pv[ply * PV_SIZE] = m;
        for i in 0..n {
            self.pv[ply * PV_SIZE + 1 + i] = self.pv[child * PV_SIZE + i];
        }
        self.pv_len[ply] = n + 1;
    }

    /// Set the frame of `ply` for the move about to be made there.
    #[inline(always)]
    pub(super) fn note_move(&mut self, ply: usize, m: Move) {
        let cont = self
            .board
            .piece_at(m.from())
            .map(|p| history::piece_to(p, m.to().index()));
        let f = self.frame(ply);
        f.cont = cont;
        f.null = false;
    }
}
