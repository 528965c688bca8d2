//! The rules inside the search tree: a repeated position is ruled like in
//! a game (a perpetual check or chase loses, other repetitions draw), and
//! the natural-move limit draws.

use super::worker::{RULE_CACHE, Worker};
use crate::score::{SCORE_DRAW, Score};
use crate::score::{mate_in, mated_in};
use xiangqi::rules::{self, Outcome};

impl Worker<'_> {
    /// The score the rules give this node if the game ends here: a
    /// repetition (ruled for perpetual check and chase), or the natural-move
    /// limit. A repetition counts once its earlier occurrence is inside the
    /// search, or when the position occurred twice before the root.
    pub(super) fn rule_score(&mut self, ply: usize) -> Option<Score> {
        let hist = self.board.history();
        let key = self.board.key();
        let mut before_root = 0;
        let mut cycle = None;
        for i in (4..=self.board.repetition_window()).step_by(2) {
            if hist[hist.len() - i].key_before() == key {
                if i < ply {
                    cycle = Some(i);
                    break;
                }
                before_root += 1;
                if before_root == 2 {
                    cycle = Some(i);
                    break;
                }
            }
        }
        if let Some(plies) = cycle {
            let outcome = self.cycle_outcome(plies);
            return Some(match outcome {
                Outcome::Win(c, _) => {
                    self.rule_hits += 1;
                    if c == self.board.side_to_move() {
                        mate_in(ply)
                    } else {
                        mated_in(ply)
                    }
                }
                _ => SCORE_DRAW,
            });
        }
        if self.board.rule60() >= 120 {
            return Some(if self.board.has_legal_move() {
                SCORE_DRAW
            } else {
                mated_in(ply)
            });
        }
        None
    }

    /// The ruling of the last `plies` moves, cached by the positions they pass.
    fn cycle_outcome(&mut self, plies: usize) -> Outcome {
        let hist = self.board.history();
        let tag = hist[hist.len() - plies..]
            .iter()
            .fold(self.board.key() ^ plies as u64, |t, u| {
                t.rotate_left(7) ^ u.key_before()
            });
        let slot = (tag as usize) % RULE_CACHE;
        if let Some((t, o)) = self.rule_cache[slot]
            && t == tag
        {
            return o;
        }
        let o = rules::judge_cycle(self.board.board_mut(), plies).outcome();
        self.rule_cache[slot] = Some((tag, o));
        o
    }
}
