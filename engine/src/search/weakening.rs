//! What weakens a search, as the search is told it: the [`Handicap`] of one
//! `go` (a level's node budget, lines and pick, the evaluation noise, the
//! `pruning` and `knowledge` grades), and the draws and term choices that
//! apply it. Plain data and functions: `crate::play::strength` works a
//! handicap out from the options and the ladder, so the search reads
//! nothing of `play`. A leaf of the search (the worker applies it in
//! `handicap.rs`).

use crate::eval::params::*;
use crate::score::{SCORE_MATE_IN_MAX, Score};
use xiangqi::rng::{GAMMA, SplitMix64};

/// Largest random push of the skill pick (about a pawn).
const SKILL_PAWN: i64 = 100;

/// A level of the UCCI `pruning` and `knowledge` options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Grade {
    None,
    Small,
    Medium,
    #[default]
    Large,
}

impl Grade {
    pub const NAMES: [&'static str; 4] = ["none", "small", "medium", "large"];

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// Parse a grade name (any case).
    pub fn parse(s: &str) -> Option<Grade> {
        match s.trim().to_ascii_lowercase().as_str() {
            "none" => Some(Grade::None),
            "small" => Some(Grade::Small),
            "medium" => Some(Grade::Medium),
            "large" => Some(Grade::Large),
            _ => None,
        }
    }
}

/// A level below full strength, as the search plays it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// Nodes searched per move, at most.
    pub nodes: u64,
    /// Lines searched (MultiPV) for the skill pick; 1: no pick.
    pub lines: usize,
    /// The pick's random bonus, out of 128 of the lines' spread (0: always
    /// the best line).
    pub weakness: u64,
}

/// The handicap of one search. The default is none: full strength, and
/// the search then takes exactly its usual path.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Handicap {
    /// A level below full strength; `None` at full strength.
    pub level: Option<Level>,
    /// The evaluation noise: up to `±noise_mask` on every static evaluation
    /// (0: none).
    pub noise_mask: Score,
    pub pruning: Grade,
    pub knowledge: Grade,
    /// Seeds the skill pick and the evaluation noise of one search.
    pub seed: u64,
}

impl Handicap {
    /// Is a level below full strength set?
    pub fn limited(&self) -> bool {
        self.level.is_some()
    }

    /// Nodes a search may visit at this level (`None`: no budget).
    pub(crate) fn node_budget(&self) -> Option<u64> {
        self.level.map(|l| l.nodes)
    }

    /// Does the level pick among lines after each iteration?
    pub(crate) fn picks(&self) -> bool {
        self.level.is_some_and(|l| l.lines > 1 && l.weakness > 0)
    }

    /// The pick's weakness (0: always the best line).
    pub(crate) fn weakness(&self) -> u64 {
        self.level.map_or(0, |l| l.weakness)
    }

    /// Lines to search when `requested` are asked for.
    pub(crate) fn multipv(&self, requested: usize) -> usize {
        requested.max(self.level.map_or(1, |l| l.lines))
    }

    /// Does the evaluation differ from the full one?
    pub(crate) fn custom_eval(&self) -> bool {
        self.knowledge != Grade::Large || self.noise_mask > 0
    }
}

/// Which evaluation terms a knowledge grade keeps (by weight index;
/// material and piece-square values are always kept).
pub(crate) fn keeps_term(knowledge: Grade, index: usize) -> bool {
    let needs = match index {
        _ if index < MOB_ROOK => Grade::None,
        _ if index < ROOK_OPEN_FILE => Grade::Small,
        ROOK_OPEN_FILE => Grade::Small,
        CANNON_HOLLOW | CANNON_CENTRAL | CANNON_BOTTOM => Grade::Medium,
        PAWN_CONNECTED | ELEPHANTS_LINKED => Grade::Medium,
        // Attackers, missing defenders, the attacker table, horse and cannon.
        _ => Grade::Large,
    };
    knowledge >= needs
}

/// The evaluation noise of a position: `a - b` with `a`, `b` in `0..=mask`,
/// from a hash of the position key and the search's salt.
#[inline]
pub(crate) fn noise(key: u64, salt: u64, mask: Score) -> Score {
    let h = SplitMix64::new(key ^ salt).next_u64();
    let m = mask as u64;
    ((h & m) as Score) - (((h >> 32) & m) as Score)
}

/// The random stream of seed `seed` for the weak levels' choices and the
/// book's seeding (and the trainer's): the workspace's SplitMix64 seeded
/// with `seed + GAMMA`, i.e. one draw ahead of the standard sequence of
/// `seed`, as these streams have always been drawn. Changing it would change
/// every seeded game and the trainer's pinned outputs.
pub fn rng(seed: u64) -> SplitMix64 {
    SplitMix64::new(seed.wrapping_add(GAMMA))
}

/// The line a level plays, out of `scores` (the lines' scores, best
/// first, as many as were searched). Each line gets a random bonus of
/// `delta * random(0..weakness) / 128` (`delta`: the spread of the lines,
/// at most a pawn) and the highest total is played: at weakness 128 a
/// line up to a pawn worse may be played, at 16 an eighth of a pawn. This
/// is Stockfish's random term; Stockfish also adds `weakness * (top -
/// score) / 128`, which at its low levels all but cancels the gaps between
/// the lines, so that they play a line a piece worse about as often as the
/// best one. Left out here: a line more than a pawn worse is never played,
/// and the weak levels lose by what their budget does not see rather than
/// by random blunders.
pub(crate) fn pick(scores: &[Score], weakness: u64, rng: &mut SplitMix64) -> usize {
    let Some(&top) = scores.first() else {
        return 0;
    };
    // A mate found is played.
    if top >= SCORE_MATE_IN_MAX {
        return 0;
    }
    let last = scores[scores.len() - 1];
    let delta = (top as i64 - last as i64).clamp(0, SKILL_PAWN);
    let weakness = weakness.max(1);
    let mut best = 0;
    let mut max = i64::MIN;
    for (i, &s) in scores.iter().enumerate() {
        let bonus = delta * rng.below(weakness) as i64 / 128;
        let total = s as i64 + bonus;
        if total >= max {
            max = total;
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_stays_in_its_mask_and_depends_on_the_salt() {
        let mut seen = std::collections::HashSet::new();
        for k in 0..2000u64 {
            let n = noise(k.wrapping_mul(0x1234_5678_9ABC_DEF1), 77, 15);
            assert!((-15..=15).contains(&n));
            seen.insert(n);
        }
        assert!(seen.len() > 20, "spread: {seen:?}");
        assert_eq!(noise(5, 1, 0), 0);
        assert_eq!(noise(5, 1, 31), noise(5, 1, 31));
        assert!((0..50).any(|k| noise(k, 1, 31) != noise(k, 2, 31)));
    }

    #[test]
    fn the_pick_is_weaker_at_lower_levels() {
        // Four lines: worse than the best by 30, 60 and 300.
        let scores = [100, 70, 40, -200];
        let share_best = |weakness: u64| {
            let mut rng = super::rng(42);
            (0..2000)
                .filter(|_| pick(&scores, weakness, &mut rng) == 0)
                .count()
        };
        let (weak, mid, strong) = (share_best(128), share_best(64), share_best(8));
        assert!(weak < mid && mid < strong, "{weak} {mid} {strong}");
        assert_eq!(strong, 2000, "weakness 8 keeps within 30/100 of a pawn");
        assert!(weak > 700, "{weak}");
        // The far worse line is never played, even at level 0.
        let mut rng = super::rng(7);
        assert!((0..2000).all(|_| pick(&scores, 128, &mut rng) != 3));
        // The same seed picks the same lines.
        let run = |seed| {
            let mut rng = super::rng(seed);
            (0..50)
                .map(|_| pick(&scores, 100, &mut rng))
                .collect::<Vec<_>>()
        };
        assert_eq!(run(9), run(9));
        // A mate is always played; one line is the only choice.
        let mut rng = super::rng(1);
        assert_eq!(pick(&[SCORE_MATE_IN_MAX + 5, 0, 0, 0], 128, &mut rng), 0);
        assert_eq!(pick(&[-50], 128, &mut rng), 0);
    }

    #[test]
    fn knowledge_grades_nest() {
        for i in 0..NUM_WEIGHTS {
            assert!(keeps_term(Grade::Large, i));
            for (lo, hi) in [
                (Grade::None, Grade::Small),
                (Grade::Small, Grade::Medium),
                (Grade::Medium, Grade::Large),
            ] {
                assert!(!keeps_term(lo, i) || keeps_term(hi, i));
            }
        }
        assert!(keeps_term(Grade::None, MATERIAL + 3));
        assert!(!keeps_term(Grade::None, MOB_ROOK));
        assert!(keeps_term(Grade::Small, MOB_HORSE));
        assert!(!keeps_term(Grade::Small, CANNON_CENTRAL));
        assert!(keeps_term(Grade::Medium, CANNON_CENTRAL));
        assert!(!keeps_term(Grade::Medium, HORSE_CANNON));
        assert!(!keeps_term(Grade::Medium, ATTACKERS + 2));
    }
}
