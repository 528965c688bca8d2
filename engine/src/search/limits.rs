//! What the search is asked: the limits of one `go` in engine terms, and
//! the poll through which a host without threads passes on `stop` and
//! `ponderhit`.

use super::params;
use super::time::Clock;
use super::weakening::Handicap;
use xiangqi::types::Move;

/// What a `go` asks for, in engine terms: what the engine searches with.
///
/// A `go` has two shapes, and only two: the protocol's words
/// (`jiangjun_protocol::command::GoParams`: each dialect's keywords, its
/// clock units, both sides' clocks, `perft`) and this. The protocol reads
/// the words, which differ between the dialects, and fills in here what the
/// GUI asked, in milliseconds and for the side to move (`depth`, `nodes`,
/// `clock`, `infinite`, `ponder`, `mate`, `searchmoves`, `banmoves`);
/// `Engine::go` then bounds those and sets the rest from the engine's
/// settings (`crate::play::go`: the book, `multipv`, `move_overhead`,
/// `wait_for_stop`, `strength`, `params`, `nodestime`'s budget). A third
/// shape between the two, the request in engine units, would hold nothing
/// these fields do not.
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
    /// The handicap of a weakened engine: none (full strength) by default
    /// (`crate::play::strength` works it out from the options).
    pub strength: Handicap,
    /// The search's margins and reductions. Read only by a tuning build
    /// (feature `tune`); the normal build searches with the defaults.
    pub params: params::SearchParams,
}

impl Limits {
    /// No depth, node, mate, clock or move-time limit: such a `go` searches
    /// until told to stop, `infinite` or not.
    pub fn has_no_limit(&self) -> bool {
        self.depth.is_none()
            && self.nodes.is_none()
            && self.mate.is_none()
            && self.clock.time.is_none()
            && self.clock.movetime.is_none()
    }

    /// The search ends only when told (`stop`, or `ponderhit` for a ponder
    /// search): infinite, pondering, or without any limit.
    pub fn ends_only_when_told(&self) -> bool {
        self.infinite || self.ponder || self.has_no_limit()
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
