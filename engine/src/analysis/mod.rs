//! Going over a finished game: each move judged by the expected score it
//! lost, from the searches of the positions before and after it. The
//! command line's `jiangjun analyse` and the browser page's "Analyse game"
//! both judge with this module, and draw with [`graph`].
//!
//! The loss is measured in expected score (win + half the draws), from the
//! logistic WDL model the protocols print with `UCI_ShowWDL` ([`wdl`]), so
//! that a 300-point slip in an even position counts and the same slip when
//! the game is long won does not. A move loses what the mover's expected
//! score before it (the search of the position) exceeds the expected score
//! after it (one minus the opponent's, from the search of the next
//! position). The marks follow the drops analysis tools commonly use: `??`
//! (blunder) from 0.30, `?` (mistake) from 0.20, `?!` (inaccuracy) from
//! 0.10; the engine's own choice is never marked. Each marked move keeps
//! the better move and its line.

pub mod graph;

use crate::score::{SCORE_MATE, SCORE_MATE_IN_MAX, Score};
use xiangqi::board::Board;
use xiangqi::types::{Color, Move};

/// Mate distance in moves (positive: side to move mates), if the score is a mate.
pub fn mate_moves(score: Score) -> Option<i32> {
    if score >= SCORE_MATE_IN_MAX {
        Some((SCORE_MATE - score + 1) / 2)
    } else if score <= -SCORE_MATE_IN_MAX {
        Some(-(SCORE_MATE + score) / 2)
    } else {
        None
    }
}

/// Win/draw/loss per mille for a score, from a logistic model.
pub fn wdl(score: Score) -> (u32, u32, u32) {
    if let Some(m) = mate_moves(score) {
        return if m > 0 { (1000, 0, 0) } else { (0, 0, 1000) };
    }
    let x = score as f64;
    let w = 1000.0 / (1.0 + ((200.0 - x) / 60.0).exp());
    let l = 1000.0 / (1.0 + ((200.0 + x) / 60.0).exp());
    let (w, l) = (w.round() as u32, l.round() as u32);
    (w, 1000 - w - l, l)
}

/// Expected-score drops from which a move is marked, largest first.
pub const MARKS: [(f64, &str, &str); 3] = [
    (0.30, "??", "blunder"),
    (0.20, "?", "mistake"),
    (0.10, "?!", "inaccuracy"),
];

/// Moves of a better line kept beside a marked move.
pub const LINE_MOVES: usize = 6;

/// The search of one position of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// The side to move's score (centipawn-like, or a mate score).
    pub score: Score,
    pub best: Option<Move>,
    pub pv: Vec<Move>,
    pub depth: i32,
}

/// One move of a game as the analysis judges it.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    pub mv: Move,
    pub mover: Color,
    /// The mover's expected score before the move and after it.
    pub before: f64,
    pub after: f64,
    /// Red's score after the move, for the graph (mates as ±`SCORE_MATE`).
    pub red_score: Score,
    /// The mark, if the move lost enough: `??`, `?` or `?!`.
    pub mark: Option<&'static str>,
    /// The position's best move and line (of the position before the move).
    pub better: Option<Move>,
    pub line: Vec<Move>,
}

impl Judged {
    pub fn loss(&self) -> f64 {
        (self.before - self.after).max(0.0)
    }
}

/// The side to move's expected score for `score`: win + half the draws.
pub fn expected(score: Score) -> f64 {
    let (w, d, _) = wdl(score);
    (w as f64 + d as f64 / 2.0) / 1000.0
}

/// The mark a move losing `loss` of expected score gets.
pub fn mark_for(loss: f64) -> Option<&'static str> {
    MARKS.iter().find(|(at, ..)| loss >= *at).map(|m| m.1)
}

/// Judge every move from the verdicts of the positions before and after
/// it (`verdicts[i]`: the position before move `i`; one more at the end).
pub fn judge_moves(start: &Board, moves: &[Move], verdicts: &[Verdict]) -> Vec<Judged> {
    let mut board = start.clone();
    let mut out = Vec::with_capacity(moves.len());
    for (i, &mv) in moves.iter().enumerate() {
        let mover = board.side_to_move();
        let (now, next) = (&verdicts[i], &verdicts[i + 1]);
        let before = expected(now.score);
        let after = 1.0 - expected(next.score);
        let red = |s: Score, stm: Color| if stm == Color::Red { s } else { -s };
        let played_best = now.best == Some(mv);
        let loss = (before - after).max(0.0);
        let mark = if played_best { None } else { mark_for(loss) };
        out.push(Judged {
            mv,
            mover,
            before,
            after,
            red_score: red(next.score, mover.flip()),
            mark,
            better: now.best.filter(|&b| b != mv),
            line: now.pv.iter().take(LINE_MOVES).copied().collect(),
        });
        board.make_move(mv);
    }
    out
}

#[cfg(test)]
mod tests;
