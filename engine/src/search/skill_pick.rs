//! A skill level's choice: the line it plays instead of the best one, kept
//! by the main thread (`Worker::skill_pick`, filled in `handicap.rs`) and
//! played when the search ends (`smp.rs`).

use super::SearchResult;
use super::root_moves::RootMove;
use xiangqi::types::Move;

/// The line a skill level chose, and the reply to ponder on.
pub(crate) struct SkillPick {
    pub(super) line: RootMove,
    pub(super) ponder: Option<Move>,
}

/// Play the skill level's choice instead of the best move.
pub(super) fn play_pick(result: &mut SearchResult, pick: SkillPick) {
    result.best = Some(pick.line.mv);
    result.ponder = pick.ponder;
    result.score = pick.line.score;
    result.pv = pick.line.pv;
}
