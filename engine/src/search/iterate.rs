//! Iterative deepening: one search per depth, each in an aspiration window
//! around the previous score, one window per MultiPV line. The main thread
//! reports each completed iteration and asks the time policy whether to go
//! on; helper threads skip some depths so that they spread over several.

use super::alphabeta::Root;
use super::report::SearchResult;
use super::worker::Worker;
use crate::score::{MAX_PLY, SCORE_INFINITE, SCORE_MATE, SCORE_MATE_IN_MAX, Score};
use crate::tt::Bound;

/// Lazy SMP: helper threads skip some iterations so that they spread over
/// different depths (sizes and phases of the skipped blocks).
const SKIP_SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

impl Worker<'_> {
    /// Iterative deepening with aspiration windows. Returns the best move found.
    pub(super) fn iterate(&mut self) -> SearchResult {
        let max_depth = self
            .limits
            .request
            .depth
            .unwrap_or(MAX_PLY as i32 - 8)
            .clamp(1, MAX_PLY as i32 - 8);
        // A capped search stops on its node cap, not when the time policy
        // would: the clock only keeps it from losing on time (its hard
        // limit).
        let capped = self.limits.settings.node_cap.is_some();
        let multipv = self.limits.settings.multipv.clamp(1, self.root_moves.len());
        for depth in 1..=max_depth {
            if !self.is_main() && depth > 1 {
                let i = (self.id - 1) % 20;
                if ((depth + SKIP_PHASE[i]) / SKIP_SIZE[i]) % 2 != 0 {
                    continue;
                }
            }
            self.root_depth = depth;
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
                rm.score = -SCORE_INFINITE;
            }
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                self.aspiration(depth);
                if self.stopped {
                    break;
                }
                // Lines best first: a later line can score above an earlier
                // one (its search sees another table and other cuts), and
                // then it is the better line. Only the lines completed this
                // iteration are ordered, each with its exact score (the
                // window is widened until the score falls inside); a
                // stopped line keeps its place. Stable, so a single line
                // (`bench`) is left as it is.
                self.root_moves[..=pv_idx].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            }
            if self.stopped {
                break;
            }
            self.completed_depth = depth;
            self.can_stop = true;
            // Keep the root in the table too (for `probe` and the next search).
            let best = &self.root_moves[0];
            self.tt.store(
                self.board.key(),
                0,
                best.mv,
                best.score,
                0,
                depth,
                Bound::Exact,
                true,
            );
            if !self.is_main() {
                continue;
            }
            self.report(depth, multipv);
            let best = &self.root_moves[0];
            let (mv, score) = (best.mv, best.score);
            if let Some(n) = self.limits.request.mate
                && score >= SCORE_MATE_IN_MAX
                && (SCORE_MATE - score + 1) / 2 <= n as Score
            {
                break;
            }
            // A proven mate ends a timed search, and the deepening of an
            // infinite one (whose answer still waits for `stop`, as a
            // pondering one's waits for `ponderhit`).
            let lines: Vec<Score> = self.root_moves[..multipv]
                .iter()
                .map(|rm| rm.score)
                .collect();
            if self
                .time
                .mate_found(depth, &lines, self.limits.settings.wait_for_stop)
            {
                break;
            }
            let single_move = self.root_moves.len() == 1;
            let pondering = self.pondering();
            if !capped
                && self
                    .time
                    .iteration_done(depth, mv, score, single_move, pondering)
            {
                break;
            }
        }
        self.flush_nodes();
        let best = self.root_moves[0].clone();
        let ponder = match best.pv.get(1) {
            Some(&m) => Some(m),
            None => self.ponder_from_tt(best.mv),
        };
        // A move not searched yet keeps its last score; one stopped before
        // any score (inside the first iteration) has none to tell.
        let score = [best.score, best.prev_score]
            .into_iter()
            .find(|&s| s != -SCORE_INFINITE)
            .unwrap_or(0);
        SearchResult {
            best: Some(best.mv),
            ponder,
            score,
            // The iteration the score and line come from: a stopped one
            // if it had scored the best move already.
            depth: if self.stopped && best.score != -SCORE_INFINITE {
                self.root_depth
            } else {
                self.completed_depth
            },
            // The line was searched to the depth at least, even when it
            // ends sooner (a mate, a draw by the rules).
            seldepth: best.seldepth.max(self.completed_depth.max(1) as usize),
            nodes: self.nodes,
            pv: best.pv,
        }
    }

    /// Search the line `self.pv_idx` at `depth`, widening the window around
    /// the previous score until the score falls inside it (or the search
    /// is stopped).
    fn aspiration(&mut self, depth: i32) {
        let pv_idx = self.pv_idx;
        let prev = self.root_moves[pv_idx].prev_score;
        let p = self.params();
        let mut delta: Score = p.asp_delta;
        let (mut alpha, mut beta) = if depth >= p.asp_min_depth && prev.abs() < SCORE_MATE_IN_MAX {
            (
                (prev - delta).max(-SCORE_INFINITE),
                (prev + delta).min(SCORE_INFINITE),
            )
        } else {
            (-SCORE_INFINITE, SCORE_INFINITE)
        };
        loop {
            let score = self.search::<Root>(alpha, beta, depth, 0, false);
            // Best first; unsearched moves keep the previous iteration's order.
            self.root_moves[pv_idx..]
                .sort_by_key(|rm| std::cmp::Reverse((rm.score, rm.prev_score)));
            if self.stopped {
                break;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-SCORE_INFINITE);
            } else if score >= beta {
                beta = (score + delta).min(SCORE_INFINITE);
            } else {
                break;
            }
            delta += delta * p.asp_widen / 100 + p.asp_widen_add;
            if delta > p.asp_max_delta {
                alpha = -SCORE_INFINITE;
                beta = SCORE_INFINITE;
            }
        }
    }
}
