//! The one hook the evaluation offers to what plays around the search: an
//! evaluation with fewer hand-made terms (the UCCI `knowledge` option) and
//! a noise on every score (`randomness`, and the low levels' blur). The
//! play layer sets it (`crate::play::strength`); the search only calls
//! `Position::evaluate`, which applies it, and never knows it is there.

use super::params::*;
use super::{Evaluated, evaluate_partial};
use crate::score::Score;
use xiangqi::rng::SplitMix64;

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

/// How the evaluation differs from the full one. A position without a
/// hook is evaluated in full; with one, by [`EvalHook::evaluate`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalHook {
    /// The hand-made terms kept (`Large`: the position's own evaluation,
    /// network or hand-made, whole).
    pub knowledge: Grade,
    /// Up to `±noise_mask` added to every evaluation (0: none).
    pub noise_mask: Score,
    /// Salts the noise: one search sees one consistent evaluation (and its
    /// table stays coherent); each search has a new salt.
    pub seed: u64,
}

impl EvalHook {
    /// The hook for these settings, `None` when the evaluation is the full
    /// one (so that a full-strength search takes exactly its usual path).
    pub fn new(knowledge: Grade, noise_mask: Score, seed: u64) -> Option<EvalHook> {
        (knowledge != Grade::Large || noise_mask > 0).then_some(EvalHook {
            knowledge,
            noise_mask,
            seed,
        })
    }

    /// The evaluation with the hand-made terms this hook keeps, if it
    /// keeps fewer than all (`None`: the position's own, whole), from the
    /// side to move's point of view. Less knowledge means the hand-made
    /// evaluation even when a network is loaded: a network has no terms to
    /// leave out.
    pub(crate) fn partial(&self, board: &impl Evaluated) -> Option<Score> {
        let k = self.knowledge;
        (k != Grade::Large).then(|| evaluate_partial(board, |i| keeps_term(k, i), k != Grade::None))
    }

    /// The noise added to the evaluation of the position with `key`.
    #[inline]
    pub(crate) fn noise(&self, key: u64) -> Score {
        if self.noise_mask == 0 {
            0
        } else {
            noise(key, self.seed, self.noise_mask)
        }
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
    fn no_hook_at_full_knowledge_without_noise() {
        assert_eq!(EvalHook::new(Grade::Large, 0, 9), None);
        assert!(EvalHook::new(Grade::Medium, 0, 9).is_some());
        assert!(EvalHook::new(Grade::Large, 7, 9).is_some());
    }
}
