//! One search as its threads see it: the position, the limits, the root
//! moves, the shared table and flags, and where the helpers leave what they
//! found. The threads' parts are in `smp`, one thread's search in `worker`.

use super::limits::Limits;
use super::report::{Reporter, SearchResult};
use super::root_moves::{RootMove, root_moves};
use super::shared::Shared;
use crate::nnue::Network;
use crate::now::Instant;
use crate::score::Score;
use crate::sync::Latch;
use crate::tb::{MateLine, Tablebases};
use crate::tt::TranspositionTable;
use std::sync::{Arc, Mutex};
use xiangqi::board::Board;
use xiangqi::types::Move;

/// One search, shared by the threads that run it.
pub(crate) struct SearchJob {
    pub board: Board,
    pub limits: Limits,
    pub root_moves: Vec<RootMove>,
    pub tt: Arc<TranspositionTable>,
    /// The evaluation's network, shared read-only by the threads; `None`:
    /// the hand-made evaluation.
    pub network: Option<Arc<Network>>,
    /// Endgame tables to probe; `None`: none loaded.
    pub tablebases: Option<Arc<Tablebases>>,
    /// When the tables decide the root: each root move's line to mate
    /// (those the tables decide), reported for it in place of the search's
    /// table score and one-move line.
    pub mate_lines: Vec<MateLine>,
    pub shared: Arc<Shared>,
    pub reporter: Arc<dyn Reporter>,
    /// When the search was asked for: its clock, and the times it reports,
    /// run from here.
    pub start: Instant,
    /// What each helper found (helper `id` at `id - 1`).
    pub(super) helper_results: Vec<Mutex<Option<ThreadResult>>>,
    /// Helpers still searching; each counts down once it has let go of the job.
    pub helpers_left: Arc<Latch>,
}

/// What one thread found.
pub(crate) struct ThreadResult {
    pub result: SearchResult,
    /// Its deepest completed iteration.
    pub depth: i32,
}

impl SearchJob {
    /// A search of `board` on `threads` threads (helpers only if there is a
    /// move to search, and not under a node cap: it is searched on one
    /// thread, so that a seed always gives the same move). The table
    /// starts a new search.
    pub(crate) fn new(
        board: &Board,
        limits: Limits,
        tt: Arc<TranspositionTable>,
        network: Option<Arc<Network>>,
        shared: Arc<Shared>,
        reporter: Arc<dyn Reporter>,
        threads: usize,
    ) -> SearchJob {
        let start = Instant::now();
        tt.new_search();
        let root_moves = root_moves(board, &limits.request);
        let helpers = if root_moves.is_empty() || limits.settings.node_cap.is_some() {
            0
        } else {
            threads.max(1) - 1
        };
        SearchJob {
            board: board.clone(),
            limits,
            root_moves,
            tt,
            network,
            tablebases: None,
            mate_lines: Vec::new(),
            shared,
            reporter,
            start,
            helper_results: (0..helpers).map(|_| Mutex::new(None)).collect(),
            helpers_left: Arc::new(Latch::new(helpers)),
        }
    }

    /// Probe `tablebases` (if any) in this search. In the tables, the root
    /// keeps only the moves that keep the value (unless that would leave
    /// none of the moves the `go` allows); a mate in one, being the fastest
    /// win, is among them, and no list is left empty. Each kept move's line
    /// to mate is read from the tables then.
    pub(crate) fn with_tablebases(mut self, tablebases: Option<Arc<Tablebases>>) -> SearchJob {
        if let Some(tb) = tablebases.as_deref()
            && let Some(keep) = crate::tb::root_moves(tb, &self.board)
            && self.root_moves.iter().any(|rm| keep.contains(&rm.mv))
        {
            self.root_moves.retain(|rm| keep.contains(&rm.mv));
            self.mate_lines = (self.root_moves.iter())
                .filter_map(|rm| crate::tb::mate_line(tb, &self.board, rm.mv))
                .collect();
        }
        self.tablebases = tablebases;
        self
    }

    /// The line to mate to report for root move `mv` scored `score`
    /// ([`crate::tb::mate_line_of`]).
    pub(crate) fn mate_line(&self, mv: Move, score: Score) -> Option<&MateLine> {
        crate::tb::mate_line_of(&self.mate_lines, mv, score)
    }

    /// Helper threads the search uses (ids 1 to this).
    pub(crate) fn helpers(&self) -> usize {
        self.helper_results.len()
    }
}
