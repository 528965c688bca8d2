//! Time management: how long to think, from whatever clock the protocol sent.
//!
//! Two budgets come out: the optimum (no new iteration starts after a share
//! of it is used, and the search may stop early when the best move is stable)
//! and the maximum (a hard deadline checked inside the search). Both keep the
//! move overhead in reserve so that the engine never loses on time.
//!
//! The whole policy lives here: the search only reports each completed
//! iteration to its `TimeManager` and asks whether to go on.

use crate::now::Instant;
use crate::score::{SCORE_MATE, SCORE_MATE_IN_MAX, Score};
use std::time::Duration;
use xiangqi::types::Move;

/// No new iteration starts once this share of the optimum is used (before
/// the factors below stretch or shrink it).
const ITERATION_CUTOFF: f64 = 0.7;
/// With a single legal move, the share of the optimum spent (it only
/// finds a score and a ponder move).
const SINGLE_MOVE_SHARE: f64 = 0.05;
/// After this many iterations with the same best move the search is stable...
const STABLE_ITERATIONS: u32 = 6;
/// ...and uses this share of its usual time.
const STABLE_FACTOR: f64 = 0.65;
/// Every change of the best move (after depth 1) adds one to the
/// instability, which decays by this factor each iteration; the time grows
/// by `1 + instability`.
const INSTABILITY_DECAY: f64 = 0.6;
/// A score that fell by this much since the last iteration doubles the time
/// (`1 + drop / SCORE_DROP_SCALE`, within `FALLING_MIN..=FALLING_MAX`); a
/// rise shortens it.
const SCORE_DROP_SCALE: f64 = 150.0;
const FALLING_MIN: f64 = 0.8;
const FALLING_MAX: f64 = 1.6;

/// A mate this many plies away (or closer) for the side to move ends a
/// timed search at once: no better line can exist (a mate in one or two
/// moves, as Stockfish and Pikafish stop for). Being mated this close too.
const MATE_FINAL_PLIES: Score = 3;
const MATED_FINAL_PLIES: Score = 2;
/// Other mates end it once the completed depth is this many times the
/// plies to mate: a deeper search would hardly find a shorter one.
const MATE_DEPTH_FACTOR: i32 = 2;

/// Is a line scoring `score` after an iteration of `depth` a proven mate
/// (either way) that deeper searches would not change?
fn mate_is_settled(depth: i32, score: Score) -> bool {
    let (plies, last) = if score >= SCORE_MATE_IN_MAX {
        (SCORE_MATE - score, MATE_FINAL_PLIES)
    } else if score <= -SCORE_MATE_IN_MAX {
        (SCORE_MATE + score, MATED_FINAL_PLIES)
    } else {
        return false;
    };
    plies <= last || depth >= MATE_DEPTH_FACTOR * plies
}

/// On a low clock, up to this many milliseconds (and at most half the
/// clock) stay in reserve beyond the overhead, against the stalls that bring
/// `bestmove` past the engine's own deadline. Derived, not chosen: twice the
/// largest such overshoot measured on a loaded two-core machine (6.41 ms
/// over 820 searches on one thread, right after the opponent's move and
/// after a second idle, clocks of 20 ms to 300 ms), rounded up to 5 ms; the
/// command and the figures are in notes/2026-12-01-short-clock.md
/// (`scripts/go_latency.py`). The overhead covers the overshoot once, this
/// covers it again. More search threads than free cores stall for hundreds
/// of milliseconds, which no reserve on such a clock can hold. With an increment a
/// clock below about 105 ms at 1 s + 10 ms plans less than the increment and
/// grows back (see the test `a_low_clock_grows_back`).
const LOW_CLOCK_RESERVE: u64 = 15;

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
    // Keep the overhead plus a safety margin: a share of the clock, and on a
    // low clock the measured stall margin (at most half the clock), so that
    // the clock settles above the stalls (see LOW_CLOCK_RESERVE).
    let reserve = overhead_ms + (time / 50).min(200).max((time / 2).min(LOW_CLOCK_RESERVE));
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
    log::debug!(
        "time: clock {time} ms, increment {} ms, moves to go {:?}: optimum {optimum} ms, maximum {maximum} ms",
        clock.inc,
        clock.movestogo
    );
    Some(Budget {
        optimum: Duration::from_millis(optimum.max(1)),
        maximum: Duration::from_millis(maximum.max(1)),
        fixed: false,
    })
}

/// The running search's view of its budget. The clock runs from the
/// `go`, pondering included: time spent pondering on a move that is then
/// played counts as thought about this move (as in Stockfish and
/// ElephantEye), so after a long ponder `ponderhit` answers at once.
struct Timer {
    start: Instant,
    budget: Option<Budget>,
}

impl Timer {
    fn new(budget: Option<Budget>, start: Instant) -> Timer {
        Timer { start, budget }
    }

    fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Past the hard deadline?
    fn out_of_time(&self) -> bool {
        self.budget
            .is_some_and(|b| self.start.elapsed() >= b.maximum)
    }

    /// Should no new iteration start? `scale` stretches the optimum (1.0 = as
    /// allocated). A fixed move time runs to its deadline.
    fn stop_iterating(&self, scale: f64) -> bool {
        self.budget.is_some_and(|b| {
            !b.fixed
                && self.start.elapsed().as_secs_f64()
                    >= b.optimum.as_secs_f64() * scale.clamp(0.02, 3.0)
        })
    }
}

/// The time policy of one search: the clock and budget, and what the
/// completed iterations say about how long to go on.
pub(crate) struct TimeManager {
    timer: Timer,
    last_best: Move,
    /// Iterations in a row with the same best move.
    stable: u32,
    instability: f64,
    last_score: Score,
    /// An iteration ended past the time to stop while pondering: the
    /// search stops as soon as the ponder move is played.
    stop_on_ponderhit: bool,
}

impl TimeManager {
    /// The policy of a search whose `go` came at `start`.
    pub(crate) fn new(clock: &Clock, overhead_ms: u64, start: Instant) -> TimeManager {
        TimeManager {
            timer: Timer::new(allocate(clock, overhead_ms), start),
            last_best: Move::NONE,
            stable: 0,
            instability: 0.0,
            last_score: 0,
            stop_on_ponderhit: false,
        }
    }

    /// Wall time since the `go`, in every mode (pondering included).
    pub(crate) fn elapsed(&self) -> Duration {
        self.timer.elapsed()
    }

    /// Time to stop: past the hard deadline, or (once the clock is ours)
    /// an iteration ended while pondering found the time used up. Not
    /// asked while pondering.
    pub(crate) fn out_of_time(&self) -> bool {
        self.stop_on_ponderhit || self.timer.out_of_time()
    }

    /// After iteration `depth`, whose lines (best first; several with
    /// MultiPV) score `lines`: does a proven mate end the iterations? Only
    /// those of a timed search (a clock or a move time) or an `infinite`
    /// one (which then waits for `stop`, printing nothing more): a search
    /// to a given depth or node count runs to its limit.
    pub(crate) fn mate_found(&self, depth: i32, lines: &[Score], infinite: bool) -> bool {
        (infinite || self.timer.budget.is_some())
            && !lines.is_empty()
            && lines.iter().all(|&s| mate_is_settled(depth, s))
    }

    /// Iteration `depth` is complete with `best` scoring `score`. Returns true
    /// if no new iteration should start. `single_move`: the root has one
    /// move; `pondering`: the clock is not ours yet: never stop, but if it
    /// is time to, stop as soon as it is ours (see `out_of_time`).
    pub(crate) fn iteration_done(
        &mut self,
        depth: i32,
        best: Move,
        score: Score,
        single_move: bool,
        pondering: bool,
    ) -> bool {
        let stop = self.time_to_stop(depth, best, score, single_move);
        if pondering {
            self.stop_on_ponderhit |= stop;
            return false;
        }
        stop
    }

    /// The policy proper: is it time to stop after this iteration?
    fn time_to_stop(&mut self, depth: i32, best: Move, score: Score, single_move: bool) -> bool {
        if best == self.last_best {
            self.stable += 1;
        } else {
            self.stable = 0;
            if depth > 1 {
                self.instability += 1.0;
            }
            self.last_best = best;
        }
        self.instability *= INSTABILITY_DECAY;
        let falling = if depth > 1 {
            (1.0 + (self.last_score - score) as f64 / SCORE_DROP_SCALE)
                .clamp(FALLING_MIN, FALLING_MAX)
        } else {
            1.0
        };
        self.last_score = score;
        let scale = if single_move {
            SINGLE_MOVE_SHARE
        } else {
            let stability = if self.stable >= STABLE_ITERATIONS {
                STABLE_FACTOR
            } else {
                1.0
            };
            ITERATION_CUTOFF * falling * (1.0 + self.instability) * stability
        };
        self.timer.stop_iterating(scale)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(d: Duration) -> u64 {
        d.as_millis() as u64
    }

    /// The budget for `time` ms left and `inc` ms a move, with `overhead`.
    fn plan(time: u64, inc: u64, overhead: u64) -> Budget {
        allocate(
            &Clock {
                time: Some(time),
                inc,
                ..Clock::default()
            },
            overhead,
        )
        .unwrap()
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
        let b = plan(1000, 10, 10);
        assert!(ms(b.optimum) >= 20 && ms(b.optimum) <= 60, "{b:?}");
        assert!(ms(b.maximum) <= 300);
    }

    /// Below about 100 ms at 1 s + 10 ms the plan is to spend less than the
    /// increment, so the clock grows back instead of running down; above
    /// the reserve and overhead, it is more than the increment, so the
    /// clock is used.
    #[test]
    fn a_low_clock_grows_back() {
        for time in (20..=100).step_by(10) {
            let b = plan(time, 10, 10);
            assert!(ms(b.optimum) < 10, "{time}+10: {b:?}");
        }
        for time in (120..=300).step_by(20) {
            let b = plan(time, 10, 10);
            assert!(ms(b.optimum) >= 10, "{time}+10: {b:?}");
        }
    }

    /// At 0.3 s + 3 ms only the overhead and the measured stall margin are
    /// kept back: the first move may plan more than a twenty-eighth of the
    /// rest, and the hard deadline stays that margin short of the clock.
    #[test]
    fn a_short_clock_keeps_only_the_stall_margin() {
        let b = plan(300, 3, 10);
        let rest = 300 - 10 - LOW_CLOCK_RESERVE;
        assert!(ms(b.optimum) >= rest / 28, "{b:?}");
        assert!(ms(b.maximum) + 10 + LOW_CLOCK_RESERVE <= 300, "{b:?}");
        // A clock of 20 ms keeps half of it (10 ms) beyond the overhead:
        // the search gets its 1 ms minimum.
        let b = plan(20, 3, 10);
        assert_eq!(ms(b.maximum), 1, "{b:?}");
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

    fn manager(time_ms: u64) -> TimeManager {
        TimeManager::new(
            &Clock {
                time: Some(time_ms),
                ..Clock::default()
            },
            0,
            Instant::now(),
        )
    }

    #[test]
    fn no_clock_never_stops_iterating() {
        let mut t = TimeManager::new(&Clock::default(), 10, Instant::now());
        std::thread::sleep(Duration::from_millis(2));
        for depth in 1..20 {
            assert!(!t.iteration_done(depth, Move::NONE, 0, true, false));
        }
        assert!(!t.out_of_time());
    }

    #[test]
    fn proven_mates_end_timed_searches() {
        use crate::score::{mate_in, mated_in};
        // Mate in one or two moves, or mated at once: final at any depth.
        assert!(mate_is_settled(1, mate_in(1)));
        assert!(mate_is_settled(3, mate_in(3)));
        assert!(mate_is_settled(2, mated_in(2)));
        // Longer mates once the depth is twice their plies.
        assert!(!mate_is_settled(8, mate_in(5)));
        assert!(mate_is_settled(10, mate_in(5)));
        assert!(!mate_is_settled(7, mated_in(4)));
        assert!(mate_is_settled(8, mated_in(4)));
        assert!(!mate_is_settled(60, 500));
        // Only timed searches stop, and only when every line is settled.
        let t = manager(60_000);
        assert!(t.mate_found(3, &[mate_in(3)], false));
        assert!(!t.mate_found(3, &[mate_in(3), 40], false));
        assert!(!t.mate_found(3, &[], false));
        let movetime = Clock {
            movetime: Some(5000),
            ..Clock::default()
        };
        let t = TimeManager::new(&movetime, 0, Instant::now());
        assert!(t.mate_found(3, &[mate_in(3)], false));
        // No clock: a depth or node limit runs to the limit, an infinite
        // search stops deepening.
        let untimed = TimeManager::new(&Clock::default(), 0, Instant::now());
        assert!(!untimed.mate_found(100, &[mate_in(1)], false));
        assert!(untimed.mate_found(1, &[mate_in(1)], true));
    }

    #[test]
    fn pondering_never_stops_iterating() {
        // A 10 ms clock: its optimum is long gone after 5 ms of a single move.
        let mut t = manager(10);
        std::thread::sleep(Duration::from_millis(5));
        assert!(!t.iteration_done(1, Move::NONE, 0, true, true));
        assert!(t.iteration_done(2, Move::NONE, 0, true, false));
    }

    #[test]
    fn the_clock_runs_from_go_and_ponderhit_stops_when_time_is_up() {
        // The `go` came 50 ms ago: that time counts, pondering or not.
        let go = Instant::now() - Duration::from_millis(50);
        let clock = Clock {
            time: Some(60_000),
            ..Clock::default()
        };
        let t = TimeManager::new(&clock, 0, go);
        assert!(t.elapsed() >= Duration::from_millis(50));
        assert!(!t.out_of_time());
        // One minute: optimum about 1.6 s, maximum about 6.6 s. Two seconds
        // after the `go`, no new iteration should start, but the deadline
        // is still far.
        let go = Instant::now() - Duration::from_millis(2000);
        let mut t = TimeManager::new(&clock, 0, go);
        assert!(!t.out_of_time());
        // Pondering goes on, but the search stops on `ponderhit`.
        assert!(!t.iteration_done(1, Move::NONE, 0, false, true));
        assert!(t.out_of_time());
        // Not pondering, it stops at once.
        let mut t = TimeManager::new(&clock, 0, go);
        assert!(t.iteration_done(1, Move::NONE, 0, false, false));
    }

    #[test]
    fn a_single_move_stops_early() {
        // One minute: optimum about 1.6 s, so 5% of it is about 80 ms.
        let mut t = manager(60_000);
        assert!(!t.iteration_done(1, Move::NONE, 0, true, false));
        std::thread::sleep(Duration::from_millis(150));
        assert!(t.iteration_done(2, Move::NONE, 0, true, false));
        // With several moves the same time is far from the cut-off.
        let mut t = manager(60_000);
        std::thread::sleep(Duration::from_millis(150));
        assert!(!t.iteration_done(1, Move::NONE, 0, false, false));
    }
}
