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
//!
//! All of it happens around the search, which only searches: a level is a
//! node cap and more lines in the search's settings, and its picks and its
//! mate in one are made from what the search reports
//! (`super::skill::LevelReporter`); `randomness` and `knowledge` are the
//! evaluation's hook (`crate::eval::hook`); `pruning` is the search's
//! switches of which prunings it does.

use super::ladder::{self, Rung};
use super::skill::LevelReporter;
use crate::eval::hook::EvalHook;
use crate::score::Score;
use crate::search::{GoRequest, Pruning, Reporter, SearchSettings};
use std::sync::Arc;
use xiangqi::board::Board;

pub use super::ladder::{ELO_MAX, ELO_MIN};
/// The grades (the evaluation's, `eval::hook`) and the seeded stream (the
/// skill pick's): their names here are where the options, the book and
/// the trainer find them.
pub use super::skill::rng;
pub use crate::eval::hook::Grade;

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

    /// Add this strength to a search's settings: a level's node cap and
    /// lines, the pruning left on, the evaluation's hook. At full strength
    /// nothing changes.
    pub fn apply(&self, settings: &mut SearchSettings) {
        if let Some(r) = self.level() {
            settings.node_cap = Some(r.nodes);
            settings.multipv = settings.multipv.max(r.lines);
        }
        settings.pruning = Pruning {
            null_move: self.pruning > Grade::None,
            static_eval: self.pruning > Grade::Small,
            moves: self.pruning > Grade::Medium,
        };
        settings.eval_hook = EvalHook::new(self.knowledge, self.noise_mask(), self.seed);
    }

    /// The reporter a search at this strength answers through: `gui`'s own
    /// at full strength; at a level, one that picks among the lines the
    /// search reports and never misses a mate in one (`shown`: the lines
    /// the GUI asked to see; `settings`: the search's, after
    /// [`apply`](Self::apply)).
    pub fn reporter(
        &self,
        gui: Arc<dyn Reporter>,
        board: &Board,
        request: &GoRequest,
        shown: usize,
        settings: &SearchSettings,
    ) -> Arc<dyn Reporter> {
        match self.level() {
            None => gui,
            Some(r) => Arc::new(LevelReporter::new(
                gui,
                board,
                request,
                shown,
                settings.multipv,
                r.weakness,
                self.seed,
            )),
        }
    }

    /// The evaluation noise: the larger of `randomness` and the level's.
    pub(crate) fn noise_mask(&self) -> Score {
        self.randomness
            .mask()
            .max(self.level().map_or(0, |r| r.noise))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(s: &Strength) -> SearchSettings {
        let mut settings = SearchSettings::default();
        s.apply(&mut settings);
        settings
    }

    #[test]
    fn default_is_full_strength() {
        let s = Strength::default();
        assert!(!s.limited());
        let set = settings(&s);
        assert_eq!(set.node_cap, None);
        assert_eq!(set.multipv, 1);
        assert_eq!(set.pruning, Pruning::ALL);
        assert_eq!(set.eval_hook, None);
        assert_eq!(s.noise_mask(), 0);
    }

    #[test]
    fn a_level_is_its_rung() {
        let s = Strength {
            rung: 0,
            ..Strength::default()
        };
        let r = ladder::RUNGS[0];
        let set = settings(&s);
        assert!(s.limited() && r.lines > 1 && r.weakness > 0);
        assert_eq!(set.node_cap, Some(r.nodes));
        assert_eq!(set.multipv, r.lines);
        assert_eq!(set.eval_hook.map(|h| h.noise_mask), Some(r.noise));
        let mut wide = SearchSettings {
            multipv: 9,
            ..SearchSettings::default()
        };
        s.apply(&mut wide);
        assert_eq!(wide.multipv, 9);
        // `randomness` larger than the rung's noise wins.
        let loud = Strength {
            randomness: Randomness::Huge,
            ..s
        };
        assert_eq!(
            settings(&loud).eval_hook.map(|h| h.noise_mask),
            Some(Randomness::Huge.mask())
        );
        // The highest rung below the top: a cap, nothing else.
        let s = Strength {
            rung: ladder::TOP - 1,
            ..Strength::default()
        };
        let set = settings(&s);
        assert!(s.limited() && set.eval_hook.is_none());
        assert_eq!(set.multipv, 1);
        assert!(set.node_cap.is_some());
    }

    #[test]
    fn pruning_grades_switch_prunings_off() {
        let at = |pruning| {
            settings(&Strength {
                pruning,
                ..Strength::default()
            })
            .pruning
        };
        assert_eq!(at(Grade::Large), Pruning::ALL);
        let medium = at(Grade::Medium);
        assert!(medium.null_move && medium.static_eval && !medium.moves);
        let small = at(Grade::Small);
        assert!(small.null_move && !small.static_eval && !small.moves);
        let none = at(Grade::None);
        assert!(!none.null_move && !none.static_eval && !none.moves);
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
