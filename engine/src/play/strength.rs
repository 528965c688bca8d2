//! Playing below full strength, on purpose: the knobs a user sets to get a
//! weaker (or more varied) opponent, in one place.
//!
//! - **Level** (UCI `Skill Level` 0-20, or `UCI_LimitStrength` with
//!   `UCI_Elo`): a rung of the ladder (`crate::play::ladder`). Below the top the
//!   search stops at the rung's node budget (on one thread), whatever the
//!   clock; the low rungs also search a few lines (MultiPV) and after each
//!   completed iteration pick among them (`pick`: each line's score gets a
//!   random bonus, never above a pawn, and the highest total is played),
//!   and blur their evaluation with a noise. A weak level so misses the
//!   tactics deeper than its budget reaches and now and then prefers a
//!   plausible, slightly worse move; it never plays a random one, and it
//!   always plays a mate in one (`search::job`).
//! - **Randomness** (UCCI `randomness`, as ElephantEye has it): noise of up
//!   to `±mask` added to every static evaluation. The noise is a function of
//!   the position and the search's seed, so one search sees a consistent
//!   evaluation (and its table stays coherent); each search has a new seed.
//!   With a level's own noise, the larger of the two applies.
//! - **Pruning** (UCCI `pruning`): `large` is the full search; `medium`
//!   switches off the pruning of late, futile and losing moves; `small` also
//!   razoring and reverse futility pruning; `none` also the null move
//!   (ElephantEye's `none`: no null move).
//! - **Knowledge** (UCCI `knowledge`): `large` is the full evaluation;
//!   `medium` drops king safety (attackers, missing defenders, horse and
//!   cannon together); `small` also the cannon formations and the pawn and
//!   elephant structure; `none` keeps material and piece-square values only
//!   (ElephantEye's `none`: material and position tables).
//!
//! The default [`Strength`] is full strength, and the search then takes
//! exactly its usual path.

use super::ladder::{self, Rung};
use crate::eval::params::*;
use crate::score::{SCORE_MATE_IN_MAX, Score};
use xiangqi::rng::{GAMMA, SplitMix64};

pub use super::ladder::{ELO_MAX, ELO_MIN};

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

/// The UCCI `randomness` option.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Randomness {
    #[default]
    None,
    Tiny,
    Small,
    Medium,
    Large,
    Huge,
}

impl Randomness {
    pub const NAMES: [&'static str; 6] = ["none", "tiny", "small", "medium", "large", "huge"];

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    pub fn parse(s: &str) -> Option<Randomness> {
        match s.trim().to_ascii_lowercase().as_str() {
            "none" => Some(Randomness::None),
            "tiny" => Some(Randomness::Tiny),
            "small" => Some(Randomness::Small),
            "medium" => Some(Randomness::Medium),
            "large" => Some(Randomness::Large),
            "huge" => Some(Randomness::Huge),
            _ => None,
        }
    }

    /// The noise mask: the evaluation moves by `a - b`, `a` and `b` uniform
    /// in `0..=mask`. ElephantEye's masks (1 to 31 on its scale, where a
    /// rook is about 200) times four, for our scale (a rook is about 900).
    pub fn mask(self) -> Score {
        match self {
            Randomness::None => 0,
            Randomness::Tiny => 7,
            Randomness::Small => 15,
            Randomness::Medium => 31,
            Randomness::Large => 63,
            Randomness::Huge => 127,
        }
    }
}

/// How strongly the engine plays (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct Strength {
    /// The ladder's rung, `ladder::TOP` for full strength.
    pub rung: usize,
    pub randomness: Randomness,
    pub pruning: Grade,
    pub knowledge: Grade,
    /// Seeds the skill pick and the evaluation noise of one search.
    pub seed: u64,
}

impl Default for Strength {
    fn default() -> Self {
        Strength {
            rung: ladder::TOP,
            randomness: Randomness::None,
            pruning: Grade::Large,
            knowledge: Grade::Large,
            seed: 0,
        }
    }
}

impl Strength {
    /// The rung below full strength this plays on, if any.
    pub fn level(&self) -> Option<Rung> {
        ladder::RUNGS.get(self.rung).copied()
    }

    /// Is a level below full strength set?
    pub fn limited(&self) -> bool {
        self.level().is_some()
    }

    /// Nodes a search may visit at this level (`None`: no budget).
    pub(crate) fn node_budget(&self) -> Option<u64> {
        self.level().map(|r| r.nodes)
    }

    /// Does the level pick among lines after each iteration?
    pub(crate) fn picks(&self) -> bool {
        self.level().is_some_and(|r| r.lines > 1 && r.weakness > 0)
    }

    /// The pick's weakness (0: always the best line).
    pub(crate) fn weakness(&self) -> u64 {
        self.level().map_or(0, |r| r.weakness)
    }

    /// Lines to search when `requested` are asked for.
    pub(crate) fn multipv(&self, requested: usize) -> usize {
        requested.max(self.level().map_or(1, |r| r.lines))
    }

    /// The evaluation noise: the larger of `randomness` and the level's.
    pub(crate) fn noise_mask(&self) -> Score {
        self.randomness
            .mask()
            .max(self.level().map_or(0, |r| r.noise))
    }

    /// Does the evaluation differ from the full one?
    pub(crate) fn custom_eval(&self) -> bool {
        self.knowledge != Grade::Large || self.noise_mask() > 0
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
    fn default_is_full_strength() {
        let s = Strength::default();
        assert!(!s.limited());
        assert!(!s.custom_eval() && !s.picks());
        assert_eq!(s.node_budget(), None);
        assert_eq!(s.multipv(1), 1);
        assert_eq!(s.noise_mask(), 0);
    }

    #[test]
    fn a_level_is_its_rung() {
        let s = Strength {
            rung: 0,
            ..Strength::default()
        };
        let r = ladder::RUNGS[0];
        assert!(s.limited() && s.picks() && s.custom_eval());
        assert_eq!(s.node_budget(), Some(r.nodes));
        assert_eq!(s.multipv(1), r.lines);
        assert_eq!(s.multipv(9), 9);
        assert_eq!(s.noise_mask(), r.noise);
        // `randomness` larger than the rung's noise wins.
        let loud = Strength {
            randomness: Randomness::Huge,
            ..s
        };
        assert_eq!(loud.noise_mask(), Randomness::Huge.mask());
        // The highest rung below the top: a budget, nothing else.
        let s = Strength {
            rung: ladder::TOP - 1,
            ..Strength::default()
        };
        assert!(s.limited() && !s.picks() && !s.custom_eval());
        assert_eq!(s.multipv(1), 1);
    }

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

    #[test]
    fn names_parse() {
        for (i, n) in Grade::NAMES.iter().enumerate() {
            assert_eq!(Grade::parse(n).map(|g| g as usize), Some(i));
            assert_eq!(Grade::parse(n).map(Grade::name), Some(*n));
        }
        for (i, n) in Randomness::NAMES.iter().enumerate() {
            assert_eq!(Randomness::parse(n).map(|g| g as usize), Some(i));
        }
        assert_eq!(Grade::parse("LARGE"), Some(Grade::Large));
        assert_eq!(Grade::parse("huge"), None);
        assert_eq!(Randomness::parse("x"), None);
        let masks: Vec<Score> = Randomness::NAMES
            .iter()
            .filter_map(|n| Randomness::parse(n))
            .map(Randomness::mask)
            .collect();
        assert!(masks.windows(2).all(|w| w[0] < w[1]));
    }
}
