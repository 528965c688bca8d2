//! What the search is asked, in two named parts: the GUI's `go`
//! ([`GoRequest`], bounded in `request`) and what the engine adds to it
//! ([`SearchSettings`]); and the poll through which a host without threads
//! passes on `stop` and `ponderhit`.

use super::params;
use super::request::GoRequest;
use crate::eval::hook::EvalHook;

/// What the engine adds to a `go` before searching it: its options (lines,
/// overhead), and what the play layer around the search decides (a node
/// cap, the node clock of `nodestime`, the pruning left on, the
/// evaluation's hook). The default is the full search with nothing added.
#[derive(Clone, Debug)]
pub struct SearchSettings {
    /// Lines searched (MultiPV), at least 1.
    pub multipv: usize,
    pub move_overhead: u64,
    /// Give the answer only once told to stop (`go infinite` in both
    /// protocols), however soon the search ends: at the maximum depth, in a
    /// mated or dead-drawn position, or with no move to search. The thread
    /// that answers is parked meanwhile (see `Shared::wait_for_release`).
    pub wait_for_stop: bool,
    /// A hard cap on the nodes: the search stops the node it reaches it,
    /// even inside its first iteration, and never passes it; it is searched
    /// on one thread (so that a seed always gives the same move), and the
    /// clock's soft stops do not apply (its hard limit still does).
    pub node_cap: Option<u64>,
    /// The clock counts nodes (`nodestime`): this many for the move, in
    /// place of the time the request's clock would give; the wall clock is
    /// not looked at.
    pub clock_nodes: Option<u64>,
    pub pruning: Pruning,
    /// The evaluation's hook, if the evaluation is not the full one.
    pub eval_hook: Option<EvalHook>,
    /// The search's margins and reductions. Read only by a tuning build
    /// (feature `tune`); the normal build searches with the defaults.
    pub params: params::SearchParams,
}

impl Default for SearchSettings {
    fn default() -> Self {
        SearchSettings {
            multipv: 1,
            move_overhead: 0,
            wait_for_stop: false,
            node_cap: None,
            clock_nodes: None,
            pruning: Pruning::ALL,
            eval_hook: None,
            params: params::SearchParams::default(),
        }
    }
}

/// The prunings the search does (all of them by default; the UCCI
/// `pruning` option turns some off).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pruning {
    /// The null move.
    pub null_move: bool,
    /// Razoring and reverse futility.
    pub static_eval: bool,
    /// Late, futile and losing moves.
    pub moves: bool,
}

impl Pruning {
    pub const ALL: Pruning = Pruning {
        null_move: true,
        static_eval: true,
        moves: true,
    };
}

/// One search's orders: what the GUI asked, and what the engine added.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub request: GoRequest,
    pub settings: SearchSettings,
}

impl Limits {
    /// The request searched with the default settings (tools, tests).
    pub fn of(request: GoRequest) -> Limits {
        Limits {
            request,
            settings: SearchSettings::default(),
        }
    }

    /// The node limit the search keeps: the request's, or the node clock's
    /// if smaller.
    pub(crate) fn node_limit(&self) -> Option<u64> {
        match (self.request.nodes, self.settings.clock_nodes) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
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
