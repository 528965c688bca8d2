//! Playing below full strength, on purpose: the knobs a user sets to get a
//! weaker (or more varied) opponent, in one place.
//!
//! - **Skill level** (UCI `Skill Level` 0-20, or `UCI_LimitStrength` with
//!   `UCI_Elo`, which maps onto a fractional level through [`LEVEL_ELO`]).
//!   Below 20 the search is capped at depth `1 + level`, looks at four
//!   lines at least (MultiPV), and after each completed iteration picks
//!   among them much as Stockfish does: each line's score gets a random
//!   bonus, larger for weaker levels and never above a pawn, and the
//!   highest total is played ([`pick`]). A weak level so misses what lies
//!   beyond its depth and now and then prefers a slightly worse move; it
//!   never plays a random one.
//! - **Randomness** (UCCI `randomness`, as ElephantEye has it): noise of up
//!   to `±mask` added to every static evaluation. The noise is a function of
//!   the position and the search's seed, so one search sees a consistent
//!   evaluation (and its table stays coherent); each search has a new seed.
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

use crate::eval::params::*;
use crate::score::{SCORE_MATE_IN_MAX, Score};

/// The skill level that means full strength.
pub const MAX_SKILL: f64 = 20.0;
/// Lines a skill level below 20 looks at, at least.
pub const SKILL_MULTIPV: usize = 4;
/// Largest random push of the skill pick (about a pawn).
const SKILL_PAWN: i64 = 100;

/// Elo of each skill level 0..=20, rising, on the scale of
/// `scripts/calibrate_levels.sh` (full-strength Jiangjun at its calibration
/// time control is the top figure). `UCI_Elo` is mapped onto a fractional
/// level by interpolation between these points, and its range is theirs.
/// Measured by `scripts/calibrate_levels.sh` at 2+0.02 (80 games a match,
/// levels 0 4 8 12 16 19; the others interpolated, and the flat stretch
/// from 8 to 19 made to rise by a point a level): see the README's table.
pub const LEVEL_ELO: [i32; 21] = [
    1231, 1451, 1671, 1891, 2111, 2245, 2379, 2513, 2647, 2649, 2652, 2654, 2656, 2657, 2658, 2659,
    2660, 2661, 2662, 2663, 2850,
];

/// The lowest and highest `UCI_Elo`: those of levels 0 and 20.
pub const ELO_MIN: i64 = LEVEL_ELO[0] as i64;
pub const ELO_MAX: i64 = LEVEL_ELO[20] as i64;

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
    /// Skill level, 0.0 to 20.0 (fractional from `UCI_Elo`); 20 is full strength.
    pub skill: f64,
    pub randomness: Randomness,
    pub pruning: Grade,
    pub knowledge: Grade,
    /// Seeds the skill pick and the evaluation noise of one search.
    pub seed: u64,
}

impl Default for Strength {
    fn default() -> Self {
        Strength {
            skill: MAX_SKILL,
            randomness: Randomness::None,
            pruning: Grade::Large,
            knowledge: Grade::Large,
            seed: 0,
        }
    }
}

impl Strength {
    /// Is a skill level below full strength set?
    pub fn skill_enabled(&self) -> bool {
        self.skill < MAX_SKILL
    }

    /// The deepest iteration the skill level allows.
    pub fn depth_cap(&self) -> i32 {
        if self.skill_enabled() {
            1 + self.skill.max(0.0) as i32
        } else {
            i32::MAX
        }
    }

    /// Lines to search when `requested` are asked for.
    pub fn multipv(&self, requested: usize) -> usize {
        if self.skill_enabled() {
            requested.max(SKILL_MULTIPV)
        } else {
            requested
        }
    }

    /// Does the evaluation differ from the full one?
    pub fn custom_eval(&self) -> bool {
        self.knowledge != Grade::Large || self.randomness != Randomness::None
    }
}

/// The skill level of an `UCI_Elo`, by interpolation in [`LEVEL_ELO`]
/// (clamped to its range).
pub fn level_from_elo(elo: i64) -> f64 {
    let elo = elo as f64;
    if elo <= LEVEL_ELO[0] as f64 {
        return 0.0;
    }
    for (i, w) in LEVEL_ELO.windows(2).enumerate() {
        let (lo, hi) = (w[0] as f64, w[1] as f64);
        if elo <= hi {
            return i as f64 + (elo - lo) / (hi - lo).max(1.0);
        }
    }
    MAX_SKILL
}

/// Which evaluation terms a knowledge grade keeps (by weight index;
/// material and piece-square values are always kept).
pub fn keeps_term(knowledge: Grade, index: usize) -> bool {
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
pub fn noise(key: u64, salt: u64, mask: Score) -> Score {
    let h = mix(key ^ salt);
    let m = mask as u64;
    ((h & m) as Score) - (((h >> 32) & m) as Score)
}

/// SplitMix64's finaliser: a well-spread 64-bit hash.
#[inline]
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A small seeded random generator (SplitMix64).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.0)
    }

    /// Uniform in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
}

/// The line a skill level plays, out of `scores` (the lines' scores, best
/// first, as many as were searched). Each line gets a random bonus of
/// `delta * random(0..weakness) / 128` (`delta`: the spread of the lines,
/// at most a pawn; `weakness = 120 - 6 * level`) and the highest total is
/// played: level 0 may play a line up to 94% of a pawn worse, level 10 up
/// to 47%, level 19 up to 5%. This is Stockfish's random term; Stockfish
/// also adds `weakness * (top - score) / 128`, which at its low levels
/// all but cancels the gaps between the lines, so that they play a line a
/// piece worse about as often as the best one. Left out here: a line more
/// than a pawn worse is never played, and the weak levels lose by what
/// their depth does not see rather than by random blunders.
pub fn pick(scores: &[Score], level: f64, rng: &mut Rng) -> usize {
    let Some(&top) = scores.first() else {
        return 0;
    };
    // A mate found is played.
    if top >= SCORE_MATE_IN_MAX {
        return 0;
    }
    let last = scores[scores.len() - 1];
    let delta = (top as i64 - last as i64).clamp(0, SKILL_PAWN);
    let weakness = (120.0 - 6.0 * level).max(1.0) as u64;
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
        assert!(!s.skill_enabled());
        assert!(!s.custom_eval());
        assert_eq!(s.depth_cap(), i32::MAX);
        assert_eq!(s.multipv(1), 1);
    }

    #[test]
    fn levels_cap_depth_and_widen_the_search() {
        let s = Strength {
            skill: 0.0,
            ..Strength::default()
        };
        assert_eq!(s.depth_cap(), 1);
        assert_eq!(s.multipv(1), 4);
        assert_eq!(s.multipv(6), 6);
        let s = Strength {
            skill: 12.7,
            ..Strength::default()
        };
        assert_eq!(s.depth_cap(), 13);
    }

    #[test]
    fn elo_maps_onto_levels() {
        assert_eq!(level_from_elo(ELO_MIN), 0.0);
        assert_eq!(level_from_elo(0), 0.0);
        assert_eq!(level_from_elo(ELO_MAX), MAX_SKILL);
        assert_eq!(level_from_elo(9999), MAX_SKILL);
        for (i, &e) in LEVEL_ELO.iter().enumerate() {
            assert!((level_from_elo(e as i64) - i as f64).abs() < 1e-9, "{i}");
        }
        let mid = level_from_elo(((LEVEL_ELO[5] + LEVEL_ELO[6]) / 2) as i64);
        assert!(mid > 5.0 && mid < 6.0, "{mid}");
        // Rising: more Elo is never a lower level.
        let mut last = -1.0;
        for elo in (ELO_MIN..=ELO_MAX).step_by(7) {
            let l = level_from_elo(elo);
            assert!(l >= last);
            last = l;
        }
        assert!(LEVEL_ELO.windows(2).all(|w| w[0] < w[1]));
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
        let share_best = |level: f64| {
            let mut rng = Rng::new(42);
            (0..2000)
                .filter(|_| pick(&scores, level, &mut rng) == 0)
                .count()
        };
        let (weak, mid, strong) = (share_best(0.0), share_best(10.0), share_best(19.0));
        assert!(weak < mid && mid < strong, "{weak} {mid} {strong}");
        assert_eq!(strong, 2000, "level 19 keeps within 5% of a pawn");
        assert!(weak > 700, "{weak}");
        // The far worse line is never played, even at level 0.
        let mut rng = Rng::new(7);
        assert!((0..2000).all(|_| pick(&scores, 0.0, &mut rng) != 3));
        // The same seed picks the same lines.
        let run = |seed| {
            let mut rng = Rng::new(seed);
            (0..50)
                .map(|_| pick(&scores, 3.0, &mut rng))
                .collect::<Vec<_>>()
        };
        assert_eq!(run(9), run(9));
        // A mate is always played; one line is the only choice.
        let mut rng = Rng::new(1);
        assert_eq!(pick(&[SCORE_MATE_IN_MAX + 5, 0, 0, 0], 0.0, &mut rng), 0);
        assert_eq!(pick(&[-50], 0.0, &mut rng), 0);
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
