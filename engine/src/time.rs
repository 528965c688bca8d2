//! Time management: how long to think, from whatever clock the protocol sent.
//!
//! Two budgets come out: the optimum (no new iteration starts after a share
//! of it is used, and the search may stop early when the best move is stable)
//! and the maximum (a hard deadline checked inside the search). Both keep the
//! move overhead in reserve so that the engine never loses on time.

use std::time::{Duration, Instant};

/// The clock part of a `go` command, in milliseconds, for the side to move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on our clock.
    pub time: Option<u64>,
    /// Increment per move.
    pub inc: u64,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Fixed time for this move.
    pub movetime: Option<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub optimum: Duration,
    pub maximum: Duration,
    /// A fixed move time: think until the deadline, no early stop.
    pub fixed: bool,
}

/// The budget for one move, or `None` when the clock sets no limit.
pub fn allocate(clock: &Clock, overhead_ms: u64) -> Option<Budget> {
    if let Some(mt) = clock.movetime {
        // A fixed move time is a deadline: the overhead comes off it.
        let t = mt.saturating_sub(overhead_ms).max(1);
        return Some(Budget {
            optimum: Duration::from_millis(t),
            maximum: Duration::from_millis(t),
            fixed: true,
        });
    }
    let time = clock.time?;
    // Keep the overhead plus a small safety margin that grows with the clock.
    let reserve = overhead_ms + (time / 50).min(200);
    let avail = time.saturating_sub(reserve).max(1);
    let (optimum, maximum) = match clock.movestogo {
        Some(mtg) if mtg <= 1 => {
            // The last move before the control: use much of it, but not all.
            (avail * 6 / 10, avail * 8 / 10)
        }
        mtg => {
            let mtg = mtg.map_or(if clock.inc > 0 { 28 } else { 36 }, |m| m.min(50)) as u64;
            let base = avail / mtg + clock.inc * 3 / 4;
            let optimum = base.min(avail / 2);
            let maximum = (optimum * 4).min(avail * 3 / 10).max(optimum);
            (optimum, maximum)
        }
    };
    Some(Budget {
        optimum: Duration::from_millis(optimum.max(1)),
        maximum: Duration::from_millis(maximum.max(1)),
        fixed: false,
    })
}

/// The running search's view of its budget.
pub struct Timer {
    start: Instant,
    budget: Option<Budget>,
}

impl Timer {
    pub fn new(budget: Option<Budget>) -> Timer {
        Timer {
            start: Instant::now(),
            budget,
        }
    }

    /// Restart the clock (on `ponderhit`, when our clock starts running).
    pub fn restart(&mut self) {
        self.start = Instant::now();
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    pub fn budget(&self) -> Option<Budget> {
        self.budget
    }

    /// Past the hard deadline?
    pub fn out_of_time(&self) -> bool {
        self.budget
            .is_some_and(|b| self.start.elapsed() >= b.maximum)
    }

    /// Should no new iteration start? `scale` stretches the optimum (1.0 = as
    /// allocated). A fixed move time runs to its deadline.
    pub fn stop_iterating(&self, scale: f64) -> bool {
        self.budget.is_some_and(|b| {
            !b.fixed
                && self.start.elapsed().as_secs_f64()
                    >= b.optimum.as_secs_f64() * scale.clamp(0.02, 3.0)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(d: Duration) -> u64 {
        d.as_millis() as u64
    }

    #[test]
    fn movetime_is_a_deadline_minus_overhead() {
        let b = allocate(
            &Clock {
                movetime: Some(500),
                ..Clock::default()
            },
            10,
        )
        .unwrap();
        assert_eq!((ms(b.optimum), ms(b.maximum)), (490, 490));
    }

    #[test]
    fn no_clock_no_budget() {
        assert_eq!(allocate(&Clock::default(), 10), None);
    }

    #[test]
    fn sudden_death_keeps_a_reserve() {
        for time in [10u64, 100, 1000, 10_000, 60_000, 3_600_000] {
            for inc in [0u64, 10, 100, 1000] {
                let b = allocate(
                    &Clock {
                        time: Some(time),
                        inc,
                        ..Clock::default()
                    },
                    10,
                )
                .unwrap();
                assert!(b.optimum <= b.maximum);
                // Never plan to use more than what is left after the overhead.
                assert!(ms(b.maximum) + 10 <= time.max(11), "{time}+{inc}: {b:?}");
            }
        }
    }

    #[test]
    fn one_second_plus_ten_ms_gives_short_thinks() {
        let b = allocate(
            &Clock {
                time: Some(1000),
                inc: 10,
                ..Clock::default()
            },
            10,
        )
        .unwrap();
        assert!(ms(b.optimum) >= 20 && ms(b.optimum) <= 60, "{b:?}");
        assert!(ms(b.maximum) <= 300);
    }

    #[test]
    fn moves_to_go_divides_the_clock() {
        let b = allocate(
            &Clock {
                time: Some(300_000),
                movestogo: Some(40),
                ..Clock::default()
            },
            10,
        )
        .unwrap();
        assert!((7000..=7600).contains(&ms(b.optimum)), "{b:?}");
        let last = allocate(
            &Clock {
                time: Some(5000),
                movestogo: Some(1),
                ..Clock::default()
            },
            10,
        )
        .unwrap();
        assert!(ms(last.maximum) < 5000 - 10);
    }
}
