//! The quiescence search: at the leaves, only captures (or every evasion
//! when in check) until the position is quiet, with stand-pat on the
//! static evaluation.

use super::history::Context;
use super::movepick::MovePicker;
use super::worker::Worker;
use crate::score::mated_in;
use crate::score::{MAX_PLY, SCORE_INFINITE, Score};
use crate::tt::Bound;
use xiangqi::types::Move;

impl Worker<'_> {
    pub(super) fn qsearch<const PV: bool>(
        &mut self,
        mut alpha: Score,
        beta: Score,
        ply: usize,
        quiet_checks: bool,
    ) -> Score {
        self.pv_len[ply] = 0;
        self.count_node();
        if self.stopped {
            return 0;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if let Some(s) = self.rule_score(ply) {
            return s;
        }
        let in_check = self.board.in_check();
        if ply >= MAX_PLY - 4 {
            return if in_check { 0 } else { self.board.evaluate() };
        }
        let key = self.board.key();
        let tt = self.tt.probe(key, ply);
        if !PV
            && self.board.rule60() < 110
            && let Some(e) = tt
            && e.cuts(alpha, beta)
        {
            return e.score;
        }
        let mut best = -SCORE_INFINITE;
        let old_alpha = alpha;
        let mut eval = 0;
        let mut futility_base = -SCORE_INFINITE;
        if !in_check {
            eval = match tt {
                Some(e) if e.bound != Bound::None || e.mv.is_some() => e.eval,
                _ => self.board.evaluate(),
            };
            if eval >= beta {
                return eval;
            }
            alpha = alpha.max(eval);
            best = eval;
            futility_base = eval + self.params().qs_futility;
        }
        let hits_at_entry = self.rule_hits;
        let pins = self.board.pins();
        let ctx = Context::default();
        let mut picker =
            MovePicker::new_qsearch(&self.board, tt.map_or(Move::NONE, |e| e.mv), in_check);
        let mut best_move = Move::NONE;
        let mut legal = 0;
        while let Some(m) = picker.next(&self.board, &self.data.hist, &ctx, false) {
            if !self.board.is_legal_with(m, &pins) {
                continue;
            }
            legal += 1;
            if !in_check {
                // Losing captures and captures that cannot reach alpha are skipped.
                if !self.board.see_ge(m, 0) {
                    continue;
                }
                let gain = self
                    .board
                    .piece_at(m.to())
                    .map_or(0, |p| crate::eval::psq::see_value(p.kind()));
                if futility_base + gain <= alpha && !self.board.gives_check(m) {
                    best = best.max(futility_base + gain);
                    continue;
                }
            }
            match self.qsearch_child::<PV>(m, beta, ply, &mut alpha, &mut best, &mut best_move) {
                Child::Stopped => return 0,
                Child::Cutoff => break,
                Child::Searched => {}
            }
        }
        if in_check && legal == 0 {
            return mated_in(ply);
        }
        // Asked for (razoring's entry), the quiet checks after the captures.
        if quiet_checks && !in_check && best < beta && !self.stopped {
            let mut list = xiangqi::board::MoveList::new();
            self.board.gen_quiets(&mut list);
            for m in list.iter() {
                if !self.board.is_legal_with(m, &pins) || !self.board.gives_check(m) {
                    continue;
                }
                match self.qsearch_child::<PV>(m, beta, ply, &mut alpha, &mut best, &mut best_move)
                {
                    Child::Stopped => return 0,
                    Child::Cutoff => break,
                    Child::Searched => {}
                }
            }
        }
        let bound = if self.rule_hits != hits_at_entry {
            Bound::None
        } else if best >= beta {
            Bound::Lower
        } else if PV && alpha > old_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, ply, best_move, best, eval, 0, bound, false);
        best
    }
    /// Searches `m` one ply deeper and folds its score into the node's
    /// `best`, `alpha` and `best_move` (and the PV): one step shared by the
    /// captures and by razoring's quiet checks.
    fn qsearch_child<const PV: bool>(
        &mut self,
        m: Move,
        beta: Score,
        ply: usize,
        alpha: &mut Score,
        best: &mut Score,
        best_move: &mut Move,
    ) -> Child {
        self.board.make_move(m);
        let score = -self.qsearch::<PV>(-beta, -*alpha, ply + 1, false);
        self.board.unmake_move();
        if self.stopped {
            return Child::Stopped;
        }
        if score > *best {
            *best = score;
            if score > *alpha {
                *alpha = score;
                *best_move = m;
                if PV {
                    self.update_pv(ply, m);
                }
                if score >= beta {
                    return Child::Cutoff;
                }
            }
        }
        Child::Searched
    }
}

/// What one child's search left its quiescence node to do.
enum Child {
    /// The search was stopped: the node returns at once.
    Stopped,
    /// A beta cutoff: no more moves.
    Cutoff,
    /// Go on with the next move.
    Searched,
}
