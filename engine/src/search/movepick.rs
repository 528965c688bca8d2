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

pub(crate) struct MovePicker {
    stage: Stage,
    tt_move: Move,
    killers: [Move; 2],
    counter: Move,
    /// Only captures (quiescence search out of check).
    captures_only: bool,
    /// The moves of the current stage; the losing captures, once put off,
    /// are kept at its front (`..bad_len`), and the quiet moves after them.
    /// One array rather than two: every node builds a picker, and
    /// initialising a second array for the few losing captures was a
    /// measurable part of the node's cost.
    moves: [Scored; xiangqi::board::movegen::MAX_MOVES],
    len: usize,
    idx: usize,
    bad_len: usize,
    bad_idx: usize,
}

/// A move and its ordering score. Every byte is a field (`_filler` where a
/// `(Move, i32)` had padding), so the compiler clears the picker's array
/// with one memset rather than a loop of two stores per move; a picker is
/// built at every node, and that loop was over 1% of datagen's time.
#[derive(Clone, Copy)]
struct Scored {
    mv: Move,
    _filler: u16,
    score: i32,
}

impl Scored {
    const NONE: Scored = Scored::new(Move::NONE, 0);

    const fn new(mv: Move, score: i32) -> Scored {
        Scored {
            mv,
            _filler: 0,
            score,
        }
    }
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
    pub(crate) fn new(
        board: &Position,
        tt_move: Move,
        killers: [Move; 2],
        counter: Move,
    ) -> MovePicker {
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
            moves: [Scored::NONE; xiangqi::board::movegen::MAX_MOVES],
            len: 0,
            idx: 0,
            bad_len: 0,
            bad_idx: 0,
        }
    }

    /// For quiescence: captures only, or every evasion when in check.
    pub(crate) fn new_qsearch(board: &Position, tt_move: Move, in_check: bool) -> MovePicker {
        let mut p = MovePicker::new(board, tt_move, [Move::NONE; 2], Move::NONE);
        p.captures_only = !in_check;
        if p.captures_only && board.piece_at(p.tt_move.to()).is_none() {
            p.tt_move = Move::NONE;
        }
        p
    }

    /// The next pseudo-legal move, or `None` when all have been given.
    /// `skip_quiets` ends the quiet stages early (for move-count pruning).
    pub(crate) fn next(
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
                            self.moves[self.len] = Scored::new(m, capture_score(board, hist, m));
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
                        // Every slot before `idx` has been picked, so the
                        // front can hold the losing captures, in order.
                        self.moves[self.bad_len] = self.moves[self.idx - 1];
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
                    self.len = self.bad_len;
                    self.idx = self.bad_len;
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
                        self.moves[self.len] = Scored::new(m, hist.quiet_score(board, ctx, m));
                        self.len += 1;
                    }
                    // Sorted once: most nodes try only a few quiet moves, but
                    // selecting each one from all of them costs more than this.
                    self.moves[self.bad_len..self.len]
                        .sort_unstable_by_key(|s| std::cmp::Reverse(s.score));
                }
                Stage::Quiets => {
                    if !skip_quiets && self.idx < self.len {
                        self.idx += 1;
                        return Some(self.moves[self.idx - 1].mv);
                    }
                    self.stage = Stage::BadCaptures;
                }
                Stage::BadCaptures => {
                    if self.bad_idx < self.bad_len {
                        self.bad_idx += 1;
                        return Some(self.moves[self.bad_idx - 1].mv);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }

    /// The ordering score of the move `next` returned last (history for quiets).
    #[inline]
    pub(crate) fn last_score(&self) -> i32 {
        if self.stage == Stage::Quiets && self.idx > self.bad_len {
            self.moves[self.idx - 1].score
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
            if self.moves[i].score > self.moves[best].score {
                best = i;
            }
        }
        self.moves.swap(self.idx, best);
        self.idx += 1;
        Some(self.moves[self.idx - 1].mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    const FENS: [&str; 5] = [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 0 1",
        "2bak4/4a4/4b1n2/p1p1p3p/9/2P3p2/P3P3P/4B1N2/4A4/2BAK4 w - - 0 1",
        // Captures for both sides, some of them losing.
        "4kab2/4a4/2n1b4/p3p1r1p/2p3c2/4R1P2/P1P1P3P/2C3N2/9/2BAKAB2 w - - 0 1",
        // Red in check from the rook on e5; the horse can block.
        "3k5/9/9/9/4r4/9/9/2H6/9/4K4 w - - 0 1",
    ];

    fn stage_of(board: &Position, picker: &MovePicker, m: Move, tt: Move) -> u8 {
        if m == tt {
            0
        } else if board.piece_at(m.to()).is_some() {
            match picker.stage {
                Stage::BadCaptures | Stage::Done if !picker.captures_only => 3,
                _ => 1,
            }
        } else {
            2
        }
    }

    /// Every pseudo-legal move comes exactly once, in stage order: the hash
    /// move, then captures that do not lose material (best MVV-LVA first),
    /// then the quiet moves, then the losing captures.
    #[test]
    fn every_move_once_in_stage_order() {
        let hist = Histories::default();
        let ctx = Context::default();
        let mut stages_seen = [0; 4];
        for fen in FENS {
            let board = Position::from_fen(fen).unwrap();
            let mut all = MoveList::new();
            board.gen_pseudo_legal(&mut all);
            // With no hash move, and with a quiet and a capture as hash move.
            let quiet = all.iter().find(|m| board.piece_at(m.to()).is_none());
            let capture = all.iter().find(|m| board.piece_at(m.to()).is_some());
            for tt in [Some(Move::NONE), quiet, capture].into_iter().flatten() {
                let mut picker = MovePicker::new(&board, tt, [Move::NONE; 2], Move::NONE);
                let mut seen = HashSet::new();
                let mut last_stage = 0;
                let mut last_capture_score = i32::MAX;
                while let Some(m) = picker.next(&board, &hist, &ctx, false) {
                    assert!(seen.insert(m), "{m} twice in {fen}");
                    assert!(all.contains(m), "{m} not pseudo-legal in {fen}");
                    let stage = stage_of(&board, &picker, m, tt);
                    assert!(stage >= last_stage, "{m} out of stage order in {fen}");
                    if stage == 1 {
                        assert!(board.see_ge(m, 0), "losing capture {m} among the good ones");
                        let s = capture_score(&board, &hist, m);
                        if last_stage == 1 {
                            assert!(s <= last_capture_score, "{m} out of MVV-LVA order");
                        }
                        last_capture_score = s;
                    }
                    if stage == 3 {
                        assert!(!board.see_ge(m, 0), "{m} is not a losing capture");
                    }
                    last_stage = stage;
                    stages_seen[stage as usize] += 1;
                }
                assert_eq!(seen.len(), all.len(), "moves missing in {fen}");
            }
        }
        // The positions exercise every stage.
        assert!(stages_seen.iter().all(|&n| n > 0), "{stages_seen:?}");
    }

    /// Killer and counter moves come right after the good captures, once,
    /// and only when they are pseudo-legal quiet moves in this position.
    #[test]
    fn killers_and_counter_after_good_captures() {
        let board = Position::from_fen(FENS[3]).unwrap();
        let hist = Histories::default();
        let ctx = Context::default();
        let mut quiets = MoveList::new();
        board.gen_quiets(&mut quiets);
        let q = quiets.as_slice();
        let (killers, counter) = ([q[5], q[9]], q[12]);
        let mut picker = MovePicker::new(&board, Move::NONE, killers, counter);
        let order: Vec<Move> =
            std::iter::from_fn(|| picker.next(&board, &hist, &ctx, false)).collect();
        let first_quiet = order
            .iter()
            .position(|m| board.piece_at(m.to()).is_none())
            .unwrap();
        assert_eq!(
            &order[first_quiet..first_quiet + 3],
            &[killers[0], killers[1], counter]
        );
        for m in [killers[0], killers[1], counter] {
            assert_eq!(order.iter().filter(|&&x| x == m).count(), 1);
        }
        // A capture is no quiet killer (it comes once, with the captures);
        // a move of a piece that is not there is never given.
        let mut caps = MoveList::new();
        board.gen_captures(&mut caps);
        let capture = caps.as_slice()[0];
        let absent = Move::parse("a5a6").unwrap();
        assert!(board.piece_at(absent.from()).is_none());
        let mut picker = MovePicker::new(&board, Move::NONE, [capture, absent], Move::NONE);
        let order: Vec<Move> =
            std::iter::from_fn(|| picker.next(&board, &hist, &ctx, false)).collect();
        assert_eq!(order.iter().filter(|&&m| m == capture).count(), 1);
        assert!(!order.contains(&absent));
    }

    /// Quiescence out of check gives the captures only; in check every move.
    #[test]
    fn qsearch_picker() {
        let hist = Histories::default();
        let ctx = Context::default();
        for fen in FENS {
            let board = Position::from_fen(fen).unwrap();
            let in_check = board.in_check();
            let mut picker = MovePicker::new_qsearch(&board, Move::NONE, in_check);
            let got: HashSet<Move> =
                std::iter::from_fn(|| picker.next(&board, &hist, &ctx, false)).collect();
            let mut want = MoveList::new();
            if in_check {
                board.gen_pseudo_legal(&mut want);
            } else {
                board.gen_captures(&mut want);
            }
            assert_eq!(got, want.iter().collect::<HashSet<_>>(), "{fen}");
        }
    }

    /// `skip_quiets` leaves out the killers and quiet moves but not the captures.
    #[test]
    fn skip_quiets_keeps_captures() {
        let board = Position::from_fen(FENS[3]).unwrap();
        let hist = Histories::default();
        let ctx = Context::default();
        let mut picker = MovePicker::new(&board, Move::NONE, [Move::NONE; 2], Move::NONE);
        let got: Vec<Move> =
            std::iter::from_fn(|| picker.next(&board, &hist, &ctx, true)).collect();
        let mut caps = MoveList::new();
        board.gen_captures(&mut caps);
        assert_eq!(got.len(), caps.len());
        assert!(got.iter().all(|m| board.piece_at(m.to()).is_some()));
    }

    /// Quiet moves come in history order.
    #[test]
    fn quiets_follow_the_history() {
        let board = Position::startpos();
        let mut hist = Histories::default();
        let ctx = Context::default();
        let favourite = board.parse_move("g3g4").unwrap();
        let tried = [board.parse_move("a3a4").unwrap()];
        hist.update_quiets(&board, &ctx, favourite, &tried, 1200, 1200);
        let mut picker = MovePicker::new(&board, Move::NONE, [Move::NONE; 2], Move::NONE);
        let quiets: Vec<Move> = std::iter::from_fn(|| picker.next(&board, &hist, &ctx, false))
            .filter(|m| board.piece_at(m.to()).is_none())
            .collect();
        assert_eq!(quiets.first(), Some(&favourite));
        assert_eq!(quiets.last(), Some(&tried[0]));
    }
}
