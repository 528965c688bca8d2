//! `nodestime`, as Stockfish has it: when it is above 0, the clock of a
//! `go` counts nodes, not milliseconds, so that time-control games can be
//! replayed exactly on any machine. The engine keeps its own clock in
//! nodes for the game: the first clock `go` after `ucinewgame` (or after
//! the option is set) gives `nodestime` nodes per millisecond left, and
//! from then on each search takes off the nodes it used and adds the
//! increment. A move is given `nodestime` times the milliseconds the time
//! policy allocates (its optimum), as a node limit; the wall clock is not
//! looked at. Fixed move times, infinite and ponder searches are left as
//! they are.

use crate::search::time::{self, Clock};
use crate::search::{GoRequest, SearchSettings};

#[derive(Default)]
pub(crate) struct NodeClock {
    /// Nodes left on our clock for the game, once a clock `go` has been seen.
    available: Option<i64>,
    /// The increment (in nodes) of the search under way, if it used the node clock.
    pending_inc: Option<i64>,
}

impl NodeClock {
    /// Forget the game's node clock (new game, or `nodestime` changed).
    pub(crate) fn reset(&mut self) {
        self.available = None;
        self.pending_inc = None;
    }

    /// The node clock's budget for a search of `request` (if `nodestime`
    /// applies), set in `settings` as its `clock_nodes`: the request itself
    /// is left as the GUI sent it. Returns the budget.
    pub(crate) fn apply(
        &mut self,
        request: &GoRequest,
        settings: &mut SearchSettings,
        nodestime: u64,
    ) -> Option<u64> {
        self.pending_inc = None;
        settings.clock_nodes = None;
        let clock = &request.clock;
        if nodestime == 0 || clock.movetime.is_some() || request.infinite || request.ponder {
            return None;
        }
        let time = clock.time?;
        let npms = nodestime as i64;
        let available = *self
            .available
            .get_or_insert((time as i64).saturating_mul(npms));
        // The node clock in milliseconds, for the time policy.
        let as_clock = Clock {
            time: Some((available / npms).max(1) as u64),
            inc: clock.inc,
            movestogo: clock.movestogo,
            movetime: None,
        };
        let budget = time::allocate(&as_clock, settings.move_overhead)?;
        let nodes = (budget.optimum.as_millis() as u64)
            .saturating_mul(nodestime)
            .max(1);
        settings.clock_nodes = Some(nodes);
        self.pending_inc = Some((clock.inc as i64).saturating_mul(npms));
        Some(nodes)
    }

    /// The search that used the node clock has ended, having searched `nodes`.
    pub(crate) fn search_done(&mut self, nodes: u64) {
        if let (Some(inc), Some(available)) = (self.pending_inc.take(), self.available.as_mut()) {
            *available = available
                .saturating_sub(nodes as i64)
                .saturating_add(inc)
                .max(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Limits;

    fn clock_request(time: u64, inc: u64) -> GoRequest {
        GoRequest {
            clock: Clock {
                time: Some(time),
                inc,
                ..Clock::default()
            },
            ..GoRequest::default()
        }
    }

    fn settings() -> SearchSettings {
        SearchSettings {
            move_overhead: 10,
            ..SearchSettings::default()
        }
    }

    #[test]
    fn clock_times_become_nodes() {
        let mut nc = NodeClock::default();
        let req = clock_request(10_000, 0);
        let mut set = settings();
        let nodes = nc.apply(&req, &mut set, 100).unwrap();
        let budget = time::allocate(&req.clock, 10).unwrap();
        assert_eq!(nodes, budget.optimum.as_millis() as u64 * 100);
        assert_eq!(
            set.clock_nodes,
            Some(nodes),
            "the node clock, not the wall clock"
        );
        assert_eq!(req, clock_request(10_000, 0), "the request as sent");
        // The game's clock goes on in nodes, whatever the GUI's clock says.
        nc.search_done(nodes);
        let second = nc
            .apply(&clock_request(1, 0), &mut settings(), 100)
            .unwrap();
        assert!(second > 0 && second <= nodes, "{second} {nodes}");
        nc.reset();
        assert_eq!(
            nc.apply(&clock_request(10_000, 0), &mut settings(), 100),
            Some(nodes)
        );
    }

    #[test]
    fn only_clock_searches_use_it() {
        let mut nc = NodeClock::default();
        let mut set = settings();
        assert_eq!(nc.apply(&clock_request(10_000, 0), &mut set, 0), None);
        assert_eq!(set.clock_nodes, None);
        let movetime = GoRequest {
            clock: Clock {
                movetime: Some(500),
                ..Clock::default()
            },
            ..GoRequest::default()
        };
        assert_eq!(nc.apply(&movetime, &mut settings(), 100), None);
        let ponder = GoRequest {
            ponder: true,
            ..clock_request(10_000, 0)
        };
        assert_eq!(nc.apply(&ponder, &mut settings(), 100), None);
        assert_eq!(nc.apply(&GoRequest::default(), &mut settings(), 100), None);
        // A `nodes` limit that is lower stays the search's limit.
        let counted = GoRequest {
            nodes: Some(5),
            ..clock_request(10_000, 0)
        };
        let mut set = settings();
        nc.apply(&counted, &mut set, 100);
        let limits = Limits {
            request: counted,
            settings: set,
        };
        assert_eq!(limits.node_limit(), Some(5));
    }

    #[test]
    fn increments_add_to_the_node_clock() {
        let mut nc = NodeClock::default();
        let first = nc
            .apply(&clock_request(1000, 100), &mut settings(), 10)
            .unwrap();
        // Used nothing and got 100 ms: more than before.
        nc.search_done(0);
        assert!(
            nc.apply(&clock_request(1000, 100), &mut settings(), 10)
                .unwrap()
                > first
        );
    }
}
