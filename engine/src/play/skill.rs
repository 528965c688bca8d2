//! What a level plays instead of the search's best move, decided around
//! the search from what it reports: after each completed iteration the
//! level picks among the lines (MultiPV) the search just reported, and
//! when the search answers, the last pick is played, or a mate in one that
//! the level must never miss. [`LevelReporter`] sits between the search
//! and the GUI's reporter and does both; the search knows nothing of it.

use crate::score::{SCORE_MATE_IN_MAX, Score, mate_in};
use crate::search::{BookEntry, GoRequest, IterationInfo, Reporter, SearchResult};
use std::sync::{Arc, Mutex};
use xiangqi::board::Board;
use xiangqi::rng::{GAMMA, SplitMix64};
use xiangqi::types::Move;

/// Largest random push of the skill pick (about a pawn).
const SKILL_PAWN: i64 = 100;

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

/// A reported line: its score and moves.
#[derive(Clone)]
struct Line {
    score: Score,
    pv: Vec<Move>,
}

/// What the reporter learns as the search goes.
struct Picks {
    rng: SplitMix64,
    /// The lines of the iteration being reported, best first.
    current: Vec<Line>,
    /// The pick after the last completed iteration.
    chosen: Option<Line>,
}

/// A level's reporter (see the module docs), in front of the GUI's.
pub(crate) struct LevelReporter {
    inner: Arc<dyn Reporter>,
    /// Lines the GUI asked to see (the search may search more).
    shown: usize,
    /// Lines an iteration reports: the search's MultiPV, at most the root
    /// moves. 1, or a weakness of 0: no pick.
    lines: usize,
    weakness: u64,
    /// A root move that mates at once, if any.
    mate_in_one: Option<Move>,
    picks: Mutex<Picks>,
}

impl LevelReporter {
    /// In front of `inner`, for a search of `board` under `request` that
    /// searches `searched` lines of which the GUI sees `shown`, picking
    /// with `weakness` from the stream of `seed`.
    pub(crate) fn new(
        inner: Arc<dyn Reporter>,
        board: &Board,
        request: &GoRequest,
        shown: usize,
        searched: usize,
        weakness: u64,
        seed: u64,
    ) -> LevelReporter {
        let allowed: Vec<Move> = board
            .legal_moves()
            .iter()
            .filter(|&m| request.allows(m))
            .collect();
        LevelReporter {
            inner,
            shown: shown.max(1),
            lines: searched.clamp(1, allowed.len().max(1)),
            weakness,
            mate_in_one: mate_in_one(board, &allowed),
            picks: Mutex::new(Picks {
                rng: rng(seed),
                current: Vec::new(),
                chosen: None,
            }),
        }
    }

    fn picks(&self) -> bool {
        self.lines > 1 && self.weakness > 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Picks> {
        self.picks.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// What the level plays instead of the search's `result`: the last
    /// pick, if it picked, then the mate in one if the move is not it.
    fn played(&self, result: &SearchResult) -> SearchResult {
        let mut result = result.clone();
        if let Some(line) = self.lock().chosen.clone()
            && let Some(&mv) = line.pv.first()
        {
            // The line's reply; else, for the search's own move, its
            // ponder move (from the table).
            let same = result.best == Some(mv);
            result.ponder = line.pv.get(1).copied().or(result.ponder.filter(|_| same));
            result.best = Some(mv);
            result.score = line.score;
            result.pv = line.pv;
        }
        if let Some(mv) = self.mate_in_one
            && result.best != Some(mv)
        {
            result.best = Some(mv);
            result.ponder = None;
            result.score = mate_in(1);
            result.pv = vec![mv];
        }
        result
    }
}

/// A move of `moves` (in generation order) that leaves the opponent without
/// a legal move (mated or stalemated: both lose in Xiangqi), if any.
fn mate_in_one(board: &Board, moves: &[Move]) -> Option<Move> {
    let mut after = board.clone();
    moves.iter().copied().find(|&m| {
        after.make_move(m);
        let mates = !after.has_legal_move();
        after.unmake_move();
        mates
    })
}

impl Reporter for LevelReporter {
    fn iteration(&self, info: &IterationInfo) {
        if self.picks() {
            let mut p = self.lock();
            if info.multipv == 1 {
                p.current.clear();
            }
            p.current.push(Line {
                score: info.score,
                pv: info.pv.to_vec(),
            });
            // The iteration's last line: pick among them.
            if info.multipv == self.lines && p.current.len() == self.lines {
                let scores: Vec<Score> = p.current.iter().map(|l| l.score).collect();
                let i = pick(&scores, self.weakness, &mut p.rng);
                p.chosen = Some(p.current[i].clone());
            }
        }
        if info.multipv <= self.shown && self.inner.wants_lines() {
            self.inner.iteration(info);
        }
    }

    fn currmove(&self, depth: i32, mv: Move, number: usize) {
        self.inner.currmove(depth, mv, number);
    }

    /// The line of the move played: the pick's, if the level picked.
    fn final_line(&self, info: &IterationInfo) {
        if !self.inner.wants_lines() {
            return;
        }
        let played = self.played(&SearchResult {
            best: info.pv.first().copied(),
            score: info.score,
            pv: info.pv.to_vec(),
            ..SearchResult::default()
        });
        self.inner.final_line(&IterationInfo {
            score: played.score,
            pv: &played.pv,
            ..*info
        });
    }

    fn best_move(&self, result: &SearchResult) {
        let played = self.played(result);
        self.lock().chosen = None;
        self.inner.best_move(&played);
    }

    fn wants_lines(&self) -> bool {
        self.picks() || self.inner.wants_lines()
    }

    fn book_moves(&self, entries: &[BookEntry], total: u32) {
        self.inner.book_moves(entries, total);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
