//! Staged move ordering: the hash move first, then good captures (by MVV-LVA,
//! kept only if the static exchange does not lose material), the killer
//! moves, quiet moves by history, and the losing captures last. Moves are
//! generated only when their stage comes, so a cutoff by the hash move or a
//! capture saves generating the quiet moves.

use super::history::{Context, Histories};
use crate::eval::psq::see_value;
use crate::position::Position;
use xiangqi::board::MoveList;
use xiangqi::types::{Move, PieceKind};

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Stage {
    TtMove,
    GenCaptures,
    GoodCaptures,
    Killer0,
    Killer1,
    Counter,
    GenQuiets,
    Quiets,
    BadCaptures,
    Done,
}

pub struct MovePicker {
    stage: Stage,
    tt_move: Move,
    killers: [Move; 2],
    counter: Move,
    /// Only captures (quiescence search out of check).
    captures_only: bool,
    moves: [(Move, i32); xiangqi::board::movegen::MAX_MOVES],
    len: usize,
    idx: usize,
    bad: [Move; xiangqi::board::movegen::MAX_MOVES],
    bad_len: usize,
    bad_idx: usize,
}

/// MVV-LVA: most valuable victim first, then least valuable attacker,
/// adjusted by the capture history.
#[inline]
fn capture_score(board: &Position, hist: &Histories, m: Move) -> i32 {
    let victim = board.piece_at(m.to()).map_or(0, |p| see_value(p.kind()));
    let attacker = board.piece_at(m.from()).map_or(0, |p| match p.kind() {
        PieceKind::King => 1500,
        k => see_value(k),
    });
    victim * 16 - attacker + hist.capture_score(board, m) / 8
}

/// A killer or counter move is tried only if it is still a pseudo-legal quiet move here.
#[inline]
fn quiet_ok(board: &Position, m: Move) -> bool {
    m.is_some() && board.piece_at(m.to()).is_none() && board.is_pseudo_legal(m)
}

impl MovePicker {
    /// For the main search.
    pub fn new(board: &Position, tt_move: Move, killers: [Move; 2], counter: Move) -> MovePicker {
        let tt_move = if board.is_pseudo_legal(tt_move) {
            tt_move
        } else {
            Move::NONE
        };
        MovePicker {
            stage: Stage::TtMove,
            tt_move,
            killers,
            counter,
            captures_only: false,
            moves: [(Move::NONE, 0); xiangqi::board::movegen::MAX_MOVES],
            len: 0,
            idx: 0,
            bad: [Move::NONE; xiangqi::board::movegen::MAX_MOVES],
            bad_len: 0,
            bad_idx: 0,
        }
    }

    /// For quiescence: captures only, or every evasion when in check.
    pub fn new_qsearch(board: &Position, tt_move: Move, in_check: bool) -> MovePicker {
        let mut p = MovePicker::new(board, tt_move, [Move::NONE; 2], Move::NONE);
        p.captures_only = !in_check;
        if p.captures_only && board.piece_at(p.tt_move.to()).is_none() {
            p.tt_move = Move::NONE;
        }
        p
    }

    /// The next pseudo-legal move, or `None` when all have been given.
    /// `skip_quiets` ends the quiet stages early (for move-count pruning).
    pub fn next(
        &mut self,
        board: &Position,
        hist: &Histories,
        ctx: &Context,
        skip_quiets: bool,
    ) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenCaptures;
                    if self.tt_move.is_some() {
                        return Some(self.tt_move);
                    }
                }
                Stage::GenCaptures => {
                    let mut list = MoveList::new();
                    board.gen_captures(&mut list);
                    self.len = 0;
                    for m in list.iter() {
                        if m != self.tt_move {
                            self.moves[self.len] = (m, capture_score(board, hist, m));
                            self.len += 1;
                        }
                    }
                    self.idx = 0;
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => {
                    if let Some(m) = self.pick_best() {
                        // Quiescence keeps every capture in MVV-LVA order; the
                        // main search defers the losing ones.
                        if self.captures_only || board.see_ge(m, 0) {
                            return Some(m);
                        }
                        self.bad[self.bad_len] = m;
                        self.bad_len += 1;
                        continue;
                    }
                    self.stage = if self.captures_only {
                        Stage::Done
                    } else {
                        Stage::Killer0
                    };
                }
                Stage::Killer0 => {
                    self.stage = Stage::Killer1;
                    let m = self.killers[0];
                    if !skip_quiets && m != self.tt_move && quiet_ok(board, m) {
                        return Some(m);
                    }
                }
                Stage::Killer1 => {
                    self.stage = Stage::Counter;
                    let m = self.killers[1];
                    if !skip_quiets
                        && m != self.tt_move
                        && m != self.killers[0]
                        && quiet_ok(board, m)
                    {
                        return Some(m);
                    }
                }
                Stage::Counter => {
                    self.stage = Stage::GenQuiets;
                    let m = self.counter;
                    if !skip_quiets
                        && m != self.tt_move
                        && m != self.killers[0]
                        && m != self.killers[1]
                        && quiet_ok(board, m)
                    {
                        return Some(m);
                    }
                }
                Stage::GenQuiets => {
                    self.stage = Stage::Quiets;
                    self.len = 0;
                    self.idx = 0;
                    if skip_quiets {
                        continue;
                    }
                    let mut list = MoveList::new();
                    board.gen_quiets(&mut list);
                    for m in list.iter() {
                        if m == self.tt_move
                            || m == self.killers[0]
                            || m == self.killers[1]
                            || m == self.counter
                        {
                            continue;
                        }
                        self.moves[self.len] = (m, hist.quiet_score(board, ctx, m));
                        self.len += 1;
                    }
                    // Sorted once: most nodes try only a few quiet moves, but
                    // selecting each one from all of them costs more than this.
                    self.moves[..self.len].sort_unstable_by_key(|&(_, s)| std::cmp::Reverse(s));
                }
                Stage::Quiets => {
                    if !skip_quiets && self.idx < self.len {
                        self.idx += 1;
                        return Some(self.moves[self.idx - 1].0);
                    }
                    self.stage = Stage::BadCaptures;
                }
                Stage::BadCaptures => {
                    if self.bad_idx < self.bad_len {
                        self.bad_idx += 1;
                        return Some(self.bad[self.bad_idx - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }

    /// The ordering score of the move `next` returned last (history for quiets).
    #[inline]
    pub fn last_score(&self) -> i32 {
        if self.stage == Stage::Quiets && self.idx > 0 {
            self.moves[self.idx - 1].1
        } else {
            0
        }
    }

    /// Selection sort step: move the best remaining move to the front.
    #[inline]
    fn pick_best(&mut self) -> Option<Move> {
        if self.idx >= self.len {
            return None;
        }
        let mut best = self.idx;
        for i in self.idx + 1..self.len {
            if self.moves[i].1 > self.moves[best].1 {
                best = i;
            }
        }
        self.moves.swap(self.idx, best);
        self.idx += 1;
        Some(self.moves[self.idx - 1].0)
    }
}
