//! The strength ladder: the rungs a weakened engine plays on, and how
//! `Skill Level` and `UCI_Elo` choose one.
//!
//! A rung below the top is a node budget for each move (searched on one
//! thread, so the same seed gives the same game), and at the low rungs
//! also a skill pick among several lines and a noise on the evaluation
//! (`crate::play::strength`). The budget, not the clock, is what weakens: a rung
//! plays the same moves at 1 s and at 10 minutes a game whenever the clock
//! leaves time for its budget. The top rung is full strength, whose
//! strength does grow with the clock, so its rating holds for the
//! calibration's time control only.
//!
//! The rungs' ratings are measured by `scripts/calibrate_levels.py`, which
//! writes them to `crate::play::ladder_ratings`; until it has run they are
//! [`RatingSource::Nominal`]: [`NOMINAL_STEP`] a rung, not measurements.

use super::ladder_ratings::{self, RungRating};
use crate::score::Score;

/// One rung below full strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rung {
    /// Nodes searched per move, at most.
    pub nodes: u64,
    /// Lines searched (MultiPV) for the skill pick; 1: no pick.
    pub lines: usize,
    /// The pick's random bonus, out of 128 of the lines' spread (at most
    /// a pawn): 0 always plays the best line, 128 may play one a pawn worse.
    pub weakness: u64,
    /// Noise of up to ±`noise` on every static evaluation (as UCCI's
    /// `randomness`); 0: none.
    pub noise: Score,
}

const fn rung(nodes: u64, lines: usize, weakness: u64, noise: Score) -> Rung {
    Rung {
        nodes,
        lines,
        weakness,
        noise,
    }
}

/// The rungs below full strength, weakest first, one for each `Skill
/// Level` below 20 (level N is rung N). From rung 4 up a rung is a node
/// budget and nothing else: a level misses what lies deeper than its budget
/// reaches. In self-play a doubling of a pure budget measured 200 to 310
/// Elo from 256 to 16 384 nodes, falling to 120 at 65 536 (and 81 from 128
/// to 256, where the first iterations complete whatever the budget), so
/// the budgets grow by factors read off that curve for steps of some 100
/// to 150 Elo, up to a top budget a step below what full strength searches at the
/// calibration's control (10 s + 0.1 s: some 300 000 to 500 000 nodes a
/// move on one core, by the move times of the net 3 match's games). Under about 500 nodes a budget alone cannot make the
/// steps (it barely binds), so rungs 0 to 3 search four lines on a shared
/// budget, pick among them and blur their evaluation, less at each rung:
/// they play plausible moves up to about a pawn worse than their best.
/// The budgets of rungs 0 to 3 are totals over the four lines, so they
/// exceed rung 4's: what rises is the budget of each line. The matches
/// behind each choice are in `notes/2026-11-25-ladder-budgets.md`.
pub const RUNGS: [Rung; 20] = [
    rung(200, 4, 112, 63),
    rung(400, 4, 96, 31),
    rung(800, 4, 80, 15),
    rung(1_200, 4, 68, 15),
    rung(520, 1, 0, 0),
    rung(780, 1, 0, 0),
    rung(1_120, 1, 0, 0),
    rung(1_530, 1, 0, 0),
    rung(2_080, 1, 0, 0),
    rung(2_900, 1, 0, 0),
    rung(4_000, 1, 0, 0),
    rung(5_600, 1, 0, 0),
    rung(7_800, 1, 0, 0),
    rung(11_600, 1, 0, 0),
    rung(17_400, 1, 0, 0),
    rung(27_700, 1, 0, 0),
    rung(45_000, 1, 0, 0),
    rung(75_000, 1, 0, 0),
    rung(128_000, 1, 0, 0),
    rung(224_000, 1, 0, 0),
];

/// The top rung: full strength (no budget, no pick, no noise).
pub const TOP: usize = RUNGS.len();

/// The highest `Skill Level`: full strength.
pub const MAX_SKILL_LEVEL: i64 = 20;

/// Rating step between rungs while they are not measured: UCI_Elo then
/// chooses a rung by its index, at this many points a rung.
pub const NOMINAL_STEP: i32 = 100;
/// The nominal rating of rung 0 while the rungs are not measured.
pub const NOMINAL_BASE: i32 = 1000;

/// The engine the ladder is anchored to: the top rungs play it in the
/// calibration, at [`CALIBRATION_TC`], and its rating is assumed to be
/// [`ANCHOR_ELO`] (an assumption, not a measurement: it fixes the scale's
/// zero point; every difference on the scale is measured).
pub const ANCHOR_NAME: &str =
    "Fairy-Stockfish 11.1 (Debian's fairy-stockfish, UCCI, 1 thread, 16 MB hash, full strength)";
/// The anchor's assumed rating.
pub const ANCHOR_ELO: i32 = 2500;
/// The calibration's time control (seconds + increment a move).
pub const CALIBRATION_TC: &str = "10+0.1";

/// Where the ladder's ratings come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RatingSource {
    /// Measured by the calibration (`crate::play::ladder_ratings`).
    Measured,
    /// Not measured yet: [`NOMINAL_BASE`] plus [`NOMINAL_STEP`] a rung.
    Nominal,
}

/// Are the ratings measured or nominal?
pub const fn rating_source() -> RatingSource {
    match ladder_ratings::CALIBRATION {
        Some(_) => RatingSource::Measured,
        None => RatingSource::Nominal,
    }
}

/// The measured rating of `rung` (0..=TOP), if the ladder is calibrated.
pub const fn measured(rung: usize) -> Option<RungRating> {
    match ladder_ratings::CALIBRATION {
        Some(c) => Some(c.rungs[rung]),
        None => None,
    }
}

/// The rating `UCI_Elo` uses for `rung` (0..=TOP): measured, or nominal.
pub const fn rung_elo(rung: usize) -> i32 {
    match measured(rung) {
        Some(r) => r.elo,
        None => NOMINAL_BASE + NOMINAL_STEP * rung as i32,
    }
}

/// The lowest and highest `UCI_Elo`: those of rung 0 and of the top.
pub const ELO_MIN: i64 = rung_elo(0) as i64;
pub const ELO_MAX: i64 = rung_elo(TOP) as i64;

/// The rung of a `Skill Level` (clamped to 0..=20): the 21 levels spread
/// evenly over the rungs (rounding down, so that only 20 is full
/// strength), 0 the lowest.
pub fn rung_from_skill(level: i64) -> usize {
    let level = level.clamp(0, MAX_SKILL_LEVEL) as usize;
    level * TOP / MAX_SKILL_LEVEL as usize
}

/// The lowest `Skill Level` that plays on `rung` (for the tools that set a
/// rung through the option).
pub fn skill_for_rung(rung: usize) -> i64 {
    (0..=MAX_SKILL_LEVEL)
        .find(|&l| rung_from_skill(l) >= rung.min(TOP))
        .unwrap_or(MAX_SKILL_LEVEL)
}

/// The rung of an `UCI_Elo`: the one whose rating is nearest (the lower of
/// two as near), clamped to the ladder.
pub fn rung_from_elo(elo: i64) -> usize {
    let mut best = 0;
    for r in 1..=TOP {
        let here = (rung_elo(r) as i64 - elo).abs();
        let there = (rung_elo(best) as i64 - elo).abs();
        if here < there {
            best = r;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rungs_rise() {
        for w in RUNGS.windows(2) {
            let (lo, hi) = (w[0], w[1]);
            // The budget is shared by the lines searched: each line's share
            // rises (a pick rung's total may be above the next rung's).
            assert!(
                hi.nodes / hi.lines as u64 > lo.nodes / lo.lines as u64,
                "{lo:?} {hi:?}"
            );
            assert!(hi.lines <= lo.lines && hi.weakness <= lo.weakness && hi.noise <= lo.noise);
        }
        for r in RUNGS {
            assert!(r.lines >= 1 && r.weakness <= 128);
            // Masks are all ones: the noise is uniform over its range.
            assert_eq!(r.noise & (r.noise + 1), 0, "{r:?}");
            assert_eq!(r.lines == 1, r.weakness == 0, "{r:?}");
        }
    }

    #[test]
    fn skill_levels_cover_the_ladder_in_order() {
        assert_eq!(rung_from_skill(0), 0);
        assert_eq!(rung_from_skill(MAX_SKILL_LEVEL), TOP);
        assert_eq!(rung_from_skill(-5), 0);
        assert_eq!(rung_from_skill(99), TOP);
        let rungs: Vec<usize> = (0..=MAX_SKILL_LEVEL).map(rung_from_skill).collect();
        assert!(rungs.windows(2).all(|w| w[1] >= w[0] && w[1] <= w[0] + 1));
        for r in 0..=TOP {
            assert_eq!(rung_from_skill(skill_for_rung(r)), r, "rung {r}");
        }
        // Only the top level is full strength.
        assert!((0..MAX_SKILL_LEVEL).all(|l| rung_from_skill(l) < TOP));
    }

    #[test]
    fn elo_maps_onto_the_rungs_monotonically() {
        assert!((0..TOP).all(|r| rung_elo(r) < rung_elo(r + 1)));
        assert_eq!(rung_from_elo(ELO_MIN), 0);
        assert_eq!(rung_from_elo(ELO_MAX), TOP);
        assert_eq!(rung_from_elo(i64::MIN / 2), 0);
        assert_eq!(rung_from_elo(i64::MAX / 2), TOP);
        for r in 0..=TOP {
            assert_eq!(rung_from_elo(rung_elo(r) as i64), r);
        }
        // Over the whole range (and beyond), more Elo is never a lower rung.
        let mut last = 0;
        for elo in ELO_MIN - 500..=ELO_MAX + 500 {
            let r = rung_from_elo(elo);
            assert!(r >= last, "{elo}: {r} after {last}");
            last = r;
        }
    }

    #[test]
    fn a_calibration_matches_the_ladder_it_measured() {
        if let Some(c) = ladder_ratings::CALIBRATION {
            assert_eq!(c.rungs.len(), TOP + 1, "one rating a rung");
            for (r, rating) in c.rungs.iter().enumerate() {
                let nodes = RUNGS.get(r).map_or(0, |x| x.nodes);
                assert_eq!(
                    rating.nodes, nodes,
                    "rung {r} was measured with other nodes"
                );
                assert!(rating.games > 0 && rating.err >= 0);
            }
        } else {
            assert_eq!(rating_source(), RatingSource::Nominal);
        }
    }
}
