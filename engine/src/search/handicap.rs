//! How the search applies its [`Handicap`](super::weakening::Handicap): the
//! evaluation a weakened engine uses, and a skill level's choice of move. At full strength neither does
//! anything: `evaluate` is the position's evaluation (the network's, or the
//! hand-made one) behind one flag, and no pick is made.

use super::skill_pick::SkillPick;
use super::weakening::{Grade, keeps_term, noise, pick};
use super::worker::Worker;
use crate::eval::evaluate_partial;
use crate::position::Position;
use crate::score::Score;

impl Worker<'_> {
    /// The static evaluation of the current position, as the `knowledge`
    /// and `randomness` options have it.
    #[inline(always)]
    pub(super) fn evaluate(&mut self) -> Score {
        if self.custom_eval {
            self.handicapped_evaluate()
        } else {
            self.board.evaluate()
        }
    }

    /// Less `knowledge` means the hand-made evaluation with fewer terms,
    /// even when a network is loaded: a network has no terms to leave out.
    fn handicapped_evaluate(&mut self) -> Score {
        let s = &self.limits.strength;
        let v = evaluate_with_knowledge(&mut self.board, s.knowledge);
        let mask = s.noise_mask;
        if mask == 0 {
            v
        } else {
            v + noise(self.board.key(), s.seed, mask)
        }
    }

    /// After a completed iteration of the main thread: a level that picks
    /// chooses the line it will play among the best `lines` (if it stops
    /// here).
    pub(super) fn skill_iteration_done(&mut self, lines: usize) {
        if !self.limits.strength.picks() {
            return;
        }
        let lines = lines.clamp(1, self.root_moves.len());
        let scores: Vec<Score> = self.root_moves[..lines].iter().map(|r| r.score).collect();
        let i = pick(&scores, self.limits.strength.weakness(), &mut self.rng);
        let line = self.root_moves[i].clone();
        let ponder = match line.pv.get(1) {
            Some(&m) => Some(m),
            None => self.ponder_from_tt(line.mv),
        };
        self.skill_pick = Some(SkillPick { line, ponder });
    }
}

/// The static evaluation under a `knowledge` grade, from the side to move's
/// point of view: the position's own (network or hand-made) at `large`,
/// else the hand-made evaluation with the grade's terms only.
pub(crate) fn evaluate_with_knowledge(pos: &mut Position, knowledge: Grade) -> Score {
    match knowledge {
        Grade::Large => pos.evaluate(),
        k => evaluate_partial(pos, |i| keeps_term(k, i), k != Grade::None),
    }
}
