//! The alpha-beta search of one node, for every kind of node: the root,
//! PV nodes (searched with an open window) and non-PV nodes (null-window
//! searches, where most pruning happens). One function serves all three;
//! the kind is a type parameter, so each kind is compiled on its own and the
//! branches of the other kinds fold away.
//!
//! The root differs from the nodes below it in a few ways: its moves come
//! from the root move list (legal, searched in that order, each counted as a
//! node), it is not counted itself, judged by the rules, looked up in the
//! table, pruned or extended, it reduces only late quiet moves by one ply,
//! and it records every move's score and line in the list instead of
//! storing the node in the table or learning move-ordering statistics.

use super::movepick::MovePicker;
use super::worker::{PV_SIZE, Worker};
use crate::score::{MAX_PLY, SCORE_INFINITE, Score, is_decisive, is_loss, is_win};
use crate::score::{mate_in, mated_in};
use crate::tt::Bound;
use xiangqi::types::Move;

/// The kind of a node: whether it is the root, and whether it is searched
/// with an open window.
pub(super) trait NodeKind {
    const ROOT: bool;
    const PV: bool;
}

/// The root of the search (a PV node).
pub(super) struct Root;
/// A node searched with an open window, below the root.
pub(super) struct Pv;
/// A node searched with a null window.
pub(super) struct NonPv;

impl NodeKind for Root {
    const ROOT: bool = true;
    const PV: bool = true;
}

impl NodeKind for Pv {
    const ROOT: bool = false;
    const PV: bool = true;
}

impl NodeKind for NonPv {
    const ROOT: bool = false;
    const PV: bool = false;
}

impl Worker<'_> {
    pub(super) fn search<N: NodeKind>(
        &mut self,
        mut alpha: Score,
        mut beta: Score,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Score {
        if depth <= 0 {
            return if N::PV {
                self.qsearch::<true>(alpha, beta, ply, false)
            } else {
                self.qsearch::<false>(alpha, beta, ply, false)
            };
        }
        if N::ROOT {
            // The root is not counted (its moves are), judged by the rules
            // or cut by mate distance. No move is excluded anywhere yet.
            self.stack.iter_mut().for_each(|f| f.excluded = Move::NONE);
        } else {
            self.pv_len[ply] = 0;
            self.count_node();
            if self.stopped {
                return 0;
            }
            if N::PV && ply > self.seldepth {
                self.seldepth = ply;
            }
            if let Some(s) = self.rule_score(ply) {
                return s;
            }
            // An endgame table's exact score (only with tables loaded).
            if let Some(tb) = self.tablebases
                && let Some(s) = crate::tb::probe(tb, &self.board, ply)
            {
                self.shared
                    .tbhits
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                return s;
            }
        }
        let p = self.params();
        let in_check = self.board.in_check();
        if !N::ROOT {
            if ply >= MAX_PLY - 4 {
                return if in_check { 0 } else { self.board.evaluate() };
            }
            // Mate distance pruning: no score here can beat a shorter mate.
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }
        let excluded = self.frame_at(ply).excluded;
        let key = self.board.key();
        // The root has no table entry to use: its moves and their order are
        // the root move list's, and it is stored once an iteration completes.
        let tt = if !N::ROOT && excluded.is_none() {
            self.tt.probe(key, ply)
        } else {
            None
        };
        let tt_move = tt.map_or(Move::NONE, |e| e.mv);
        // Near the move limit the table's scores may be from before it.
        let rule60_safe = self.board.rule60() < 110;
        if !N::PV
            && rule60_safe
            && let Some(e) = tt
            && e.depth >= depth
            && e.cuts(alpha, beta)
        {
            return e.score;
        }
        let eval = if in_check {
            -SCORE_INFINITE
        } else if let Some(e) = tt.filter(|e| e.bound != Bound::None || e.mv.is_some()) {
            e.eval
        } else {
            self.board.evaluate()
        };
        {
            let f = self.frame(ply);
            f.static_eval = eval;
            f.in_check = in_check;
        }
        if !N::ROOT {
            // (The killers of ply 1 carry over from one root move, and one
            // iteration, to the next.)
            self.frame(ply + 1).killers = [Move::NONE; 2];
        }
        let improving = !in_check
            && ply >= 2
            && !self.frame_back(ply, 2).in_check
            && eval > self.frame_back(ply, 2).static_eval;
        let us = self.board.side_to_move();

        if !N::PV && !in_check && excluded.is_none() {
            // Razoring: far below alpha, only captures could save it.
            if depth <= p.razor_depth
                && eval + p.razor_base + p.razor_mult * depth < alpha
                && self.limits.settings.pruning.static_eval
            {
                // Quiet checks too: a mating attack is mostly quiet checks,
                // and it is far below alpha until the mate.
                let v = self.qsearch::<false>(alpha, alpha + 1, ply, true);
                if v <= alpha {
                    return v;
                }
            }
            // Reverse futility: far above beta, a shallow search would not fall back.
            if depth <= p.rfp_depth
                && !is_win(eval)
                && eval - (p.rfp_mult * depth - p.rfp_improving * improving as i32) >= beta
                && self.limits.settings.pruning.static_eval
            {
                return (eval + beta) / 2;
            }
            // Null move: if passing still beats beta, a real move will.
            if depth >= p.nmp_min_depth
                && eval >= beta
                && !self.frame_back(ply, 1).null
                && self.board.has_major(us)
                && !is_loss(beta)
                && self.limits.settings.pruning.null_move
            {
                let r = p.nmp_base
                    + depth / p.nmp_depth_div
                    + ((eval - beta) / p.nmp_eval_div).min(p.nmp_eval_max);
                {
                    let f = self.frame(ply);
                    f.cont = None;
                    f.null = true;
                }
                self.board.make_null();
                let v = -self.search::<NonPv>(-beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.board.unmake_null();
                self.frame(ply).null = false;
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    // A win found by passing is not proven: beta only.
                    return if is_win(v) { beta } else { v };
                }
            }
        }
        // Internal iterative reduction: no hash move, search shallower first.
        if !N::ROOT && depth >= p.iir_depth && tt_move.is_none() && (N::PV || cut_node) {
            depth -= 1;
        }

        let ctx = self.context(ply);
        let counter = self.data.hist.counter_move(ctx.cont[0]);
        let killers = self.frame_at(ply).killers;
        let mut picker = MovePicker::new(&self.board, tt_move, killers, counter);
        let pins = self.board.pins();
        let old_alpha = alpha;
        let hits_at_entry = self.rule_hits;
        let mut best = -SCORE_INFINITE;
        let mut best_move = Move::NONE;
        let mut move_count = 0;
        let mut quiets = [Move::NONE; 64];
        let mut n_quiets = 0;
        let mut captures = [Move::NONE; 32];
        let mut n_captures = 0;
        // Moves may be pruned (non-PV nodes) only with a rook, horse or cannon.
        let may_prune_moves =
            !N::PV && self.limits.settings.pruning.moves && self.board.has_major(us);
        // Quiet moves searched before the rest are pruned (non-PV nodes).
        let lmp_limit = if improving {
            p.lmp_improving_base + depth * depth * p.lmp_improving_scale / 100
        } else {
            p.lmp_base + depth * depth * p.lmp_scale / 100
        };
        loop {
            // The root's moves come from its list, in the list's order
            // (best first from the last iteration).
            let m = if N::ROOT {
                match self.root_moves.get(self.pv_idx + move_count) {
                    Some(rm) => rm.mv,
                    None => break,
                }
            } else {
                match picker.next(&self.board, &self.data.hist, &ctx, false) {
                    Some(m) => m,
                    None => break,
                }
            };
            if !N::ROOT && (m == excluded || !self.board.is_legal_with(m, &pins)) {
                continue;
            }
            move_count += 1;
            let capture = self.board.piece_at(m.to()).is_some();
            let hist_score = if capture { 0 } else { picker.last_score() };
            let r_base = self.lmr[depth.min(63) as usize][move_count.min(63)] as i32;
            if N::ROOT && self.is_main() && self.time.elapsed().as_millis() > 3000 {
                self.reporter.currmove(depth, m, self.pv_idx + move_count);
            }

            // Shallow-depth pruning in non-PV nodes, once a move has been found
            // that is not mated. Checking moves are exempt (tested only when a
            // prune would fire).
            if !N::PV && !is_loss(best) && may_prune_moves {
                let lmr_depth = (depth - 1 - r_base).max(0);
                if !capture {
                    // Late quiet moves are pruned, checks excepted (checks
                    // decide too many Xiangqi tactics to skip).
                    if move_count as i32 >= lmp_limit && !self.board.gives_check(m) {
                        continue;
                    }
                    if !in_check
                        && lmr_depth <= p.fp_depth
                        && eval + p.fp_base + p.fp_mult * lmr_depth <= alpha
                        && !self.board.gives_check(m)
                    {
                        continue;
                    }
                    if lmr_depth <= p.see_quiet_depth
                        && move_count > 2
                        && !self
                            .board
                            .see_ge(m, -p.see_quiet_mult * lmr_depth * lmr_depth)
                        && !self.board.gives_check(m)
                    {
                        continue;
                    }
                } else if depth <= p.see_capture_depth
                    && !self.board.see_ge(m, -p.see_capture_mult * depth)
                {
                    continue;
                }
            }

            // Singular extension: is the hash move much better than every other?
            let mut extension = 0;
            let may_extend = ply < 2 * self.root_depth as usize;
            if may_extend
                && m == tt_move
                && excluded.is_none()
                && depth >= p.se_depth
                && let Some(e) = tt
                && e.depth >= depth - p.se_tt_depth
                && matches!(e.bound, Bound::Lower | Bound::Exact)
                && !is_decisive(e.score)
            {
                let sbeta = e.score - p.se_margin * depth;
                self.frame(ply).excluded = m;
                let v = self.search::<NonPv>(sbeta - 1, sbeta, (depth - 1) / 2, ply, cut_node);
                self.frame(ply).excluded = Move::NONE;
                if self.stopped {
                    return 0;
                }
                if v < sbeta {
                    extension = 1;
                } else if sbeta >= beta {
                    // Several moves beat beta: cut here.
                    return sbeta;
                } else if e.score >= beta {
                    extension = -1;
                }
            }

            // Fetched only for a move that is searched: the prunes above
            // skip most late moves, and the key costs a little to compute.
            self.tt.prefetch(self.board.key_after(m));
            self.note_move(ply, m);
            self.board.make_move(m);
            if N::ROOT {
                // Each root move counts as a node (without a poll).
                self.nodes += 1;
            }
            // The board knows after the move whether it checks.
            let gives_check = self.board.in_check();
            if !N::ROOT && extension == 0 && gives_check && may_extend {
                extension = 1;
            }
            let new_depth = depth - 1 + extension;
            let mut score;
            if N::ROOT {
                if move_count > 1 {
                    // Late quiet root moves are searched a ply shallower first.
                    let r = (depth >= p.lmr_min_depth
                        && !capture
                        && !gives_check
                        && move_count as i32 > p.lmr_root_moves) as i32;
                    score = -self.search::<NonPv>(-alpha - 1, -alpha, new_depth - r, ply + 1, true);
                    if score > alpha && r > 0 {
                        score = -self.search::<NonPv>(-alpha - 1, -alpha, new_depth, ply + 1, true);
                    }
                } else {
                    score = -SCORE_INFINITE;
                }
            } else if depth >= p.lmr_min_depth
                && move_count > 1 + N::PV as usize
                && (!capture || cut_node)
            {
                let mut r = r_base;
                r += (!N::PV) as i32 + cut_node as i32;
                r -= improving as i32;
                r -= gives_check as i32;
                if m == killers[0] || m == killers[1] || m == counter {
                    r -= 1;
                }
                r -= hist_score / p.lmr_history_div;
                let d = (new_depth - r).clamp(1, new_depth.max(1));
                score = -self.search::<NonPv>(-alpha - 1, -alpha, d, ply + 1, true);
                if score > alpha && d < new_depth {
                    score =
                        -self.search::<NonPv>(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                }
            } else if !N::PV || move_count > 1 {
                score = -self.search::<NonPv>(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
            } else {
                score = -SCORE_INFINITE;
            }
            if N::PV && (move_count == 1 || (score > alpha && score < beta)) {
                score = -self.search::<Pv>(-beta, -alpha, new_depth, ply + 1, false);
            }
            self.board.unmake_move();
            if self.stopped {
                return 0;
            }
            if N::ROOT && (move_count == 1 || score > alpha) {
                // The root move keeps its score and line (the first move's
                // even when it fails low).
                let mut pv = vec![m];
                pv.extend_from_slice(&self.pv[PV_SIZE..PV_SIZE + self.pv_len[1]]);
                let seldepth = self.seldepth;
                let rm = &mut self.root_moves[self.pv_idx + move_count - 1];
                rm.score = score;
                rm.seldepth = seldepth;
                rm.pv = pv;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    if N::PV && !N::ROOT {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        let (bonus, malus) = (p.history_bonus(depth), p.history_malus(depth));
                        if N::ROOT {
                            // No move-ordering statistics at the root.
                        } else if capture {
                            self.data.hist.update_captures(
                                &self.board,
                                Some(m),
                                &captures[..n_captures],
                                bonus,
                                malus,
                            );
                        } else {
                            let f = self.frame(ply);
                            if f.killers[0] != m {
                                f.killers[1] = f.killers[0];
                                f.killers[0] = m;
                            }
                            self.data.hist.update_quiets(
                                &self.board,
                                &ctx,
                                m,
                                &quiets[..n_quiets],
                                bonus,
                                malus,
                            );
                            self.data.hist.update_captures(
                                &self.board,
                                None,
                                &captures[..n_captures],
                                bonus,
                                malus,
                            );
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if capture {
                if n_captures < captures.len() {
                    captures[n_captures] = m;
                    n_captures += 1;
                }
            } else if n_quiets < quiets.len() {
                quiets[n_quiets] = m;
                n_quiets += 1;
            }
        }
        if move_count == 0 {
            // Checkmate or stalemate: both lose. With a move excluded, the
            // node just failed low.
            return if excluded.is_some() {
                alpha
            } else {
                mated_in(ply)
            };
        }
        if !N::ROOT && excluded.is_none() {
            let bound = if self.rule_hits != hits_at_entry {
                // Only the move: the score rests on a ruling of this path.
                Bound::None
            } else if best >= beta {
                Bound::Lower
            } else if N::PV && alpha > old_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt.store(
                key,
                ply,
                best_move,
                best,
                if in_check { 0 } else { eval },
                depth,
                bound,
                N::PV,
            );
        }
        best
    }
}
