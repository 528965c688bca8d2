//! What a level plays instead of the search's best move: its skill pick,
//! kept by the main thread (`Worker::skill_pick`, filled in `handicap.rs`),
//! or a mate in one it must not miss (`SearchJob::mate_in_one`); played
//! when the search ends (`smp.rs`).

use super::report::SearchResult;
use super::root_moves::RootMove;
use crate::score::mate_in;
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

/// Play the mate in one, unless the search already plays it.
pub(super) fn play_mate(result: &mut SearchResult, mv: Move) {
    if result.best == Some(mv) {
        return;
    }
    result.best = Some(mv);
    result.ponder = None;
    result.score = mate_in(1);
    result.pv = vec![mv];
}
