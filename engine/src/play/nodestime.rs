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

use crate::search::Limits;
use crate::search::time::{self, Clock};

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

    /// Turn the clock of `limits` into a node limit, if `nodestime` applies.
    /// Returns the node budget given to the search.
    pub(crate) fn apply(&mut self, limits: &mut Limits, nodestime: u64) -> Option<u64> {
        self.pending_inc = None;
        let clock = &limits.clock;
        if nodestime == 0 || clock.movetime.is_some() || limits.infinite || limits.ponder {
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
        let budget = time::allocate(&as_clock, limits.move_overhead)?;
        let nodes = (budget.optimum.as_millis() as u64)
            .saturating_mul(nodestime)
            .max(1);
        limits.nodes = Some(limits.nodes.map_or(nodes, |n| n.min(nodes)));
        self.pending_inc = Some((clock.inc as i64).saturating_mul(npms));
        limits.clock = Clock::default();
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

    fn clock_limits(time: u64, inc: u64) -> Limits {
        Limits {
            clock: Clock {
                time: Some(time),
                inc,
                ..Clock::default()
            },
            multipv: 1,
            move_overhead: 10,
            ..Limits::default()
        }
    }

    #[test]
    fn clock_times_become_nodes() {
        let mut nc = NodeClock::default();
        let mut l = clock_limits(10_000, 0);
        let nodes = nc.apply(&mut l, 100).unwrap();
        let budget = time::allocate(&clock_limits(10_000, 0).clock, 10).unwrap();
        assert_eq!(nodes, budget.optimum.as_millis() as u64 * 100);
        assert_eq!(l.nodes, Some(nodes));
        assert_eq!(l.clock, Clock::default(), "no wall clock");
        // The game's clock goes on in nodes, whatever the GUI's clock says.
        nc.search_done(nodes);
        let mut l2 = clock_limits(1, 0);
        let second = nc.apply(&mut l2, 100).unwrap();
        assert!(second > 0 && second <= nodes, "{second} {nodes}");
        nc.reset();
        let mut l3 = clock_limits(10_000, 0);
        assert_eq!(nc.apply(&mut l3, 100), Some(nodes));
    }

    #[test]
    fn only_clock_searches_use_it() {
        let mut nc = NodeClock::default();
        let mut l = clock_limits(10_000, 0);
        assert_eq!(nc.apply(&mut l, 0), None);
        assert_eq!(l.nodes, None);
        let mut l = Limits {
            clock: Clock {
                movetime: Some(500),
                ..Clock::default()
            },
            ..Limits::default()
        };
        assert_eq!(nc.apply(&mut l, 100), None);
        let mut l = clock_limits(10_000, 0);
        l.ponder = true;
        assert_eq!(nc.apply(&mut l, 100), None);
        let mut l = Limits::default();
        assert_eq!(nc.apply(&mut l, 100), None);
        // A `nodes` limit that is lower stays.
        let mut l = clock_limits(10_000, 0);
        l.nodes = Some(5);
        nc.apply(&mut l, 100);
        assert_eq!(l.nodes, Some(5));
    }

    #[test]
    fn increments_add_to_the_node_clock() {
        let mut nc = NodeClock::default();
        let mut l = clock_limits(1000, 100);
        let first = nc.apply(&mut l, 10).unwrap();
        // Used nothing and got 100 ms: more than before.
        nc.search_done(0);
        let mut l = clock_limits(1000, 100);
        assert!(nc.apply(&mut l, 10).unwrap() > first);
    }
}
