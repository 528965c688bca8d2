//! Endgame tables in the search: the exact score of a table position, and
//! the root moves that keep the table's value.
//!
//! A table win `d` plies from mate, probed `ply` plies below the root,
//! scores `SCORE_TB_WIN - (ply + d)`, a loss the negation, a draw 0: as
//! mates score `SCORE_MATE - ply`, the score counts the plies from the
//! root, so the search prefers the shortest total win wherever the table
//! is entered (a quick capture into a long table win does not beat a
//! longer walk into a short one). Below the mate range (the search's own
//! mates stay exact and preferred), above every evaluation
//! (`NNUE_EVAL_LIMIT` is below `SCORE_TB_WIN_MIN`). The transposition
//! table stores such scores relative to the node, as it does mates
//! (`crate::tt`). The root keeps only the moves that keep the value (the
//! fastest win, the slowest loss), so the game is won in the promised
//! plies.
//!
//! When the tables decide the root, a root move's line to mate
//! ([`mate_line`]) is what the search reports for it: the mate score of
//! the tables' distance and the whole line, read from the tables.
//!
//! Also the tables' ruling on a game ([`verdict`]), which `jiangjun judge`
//! and datagen use to end games that enter the tables.

use crate::score::{MAX_PLY, SCORE_DRAW, SCORE_TB_WIN, Score, TB_DTM_CAP, mate_in, mated_in};
use jiangjun_tablebase::value::{dtm, is_loss, is_win};
pub use jiangjun_tablebase::{Probe, Tablebases};
use std::fmt;
use xiangqi::board::Board;
use xiangqi::types::{Color, Move, PieceKind};

/// Plies without a capture at which the rules draw (60 moves each; see
/// `xiangqi::rules`). A mate delivered on that ply still wins.
const MOVE_LIMIT_PLIES: u32 = 120;

/// The search score of a table value (from the side to move's view) at
/// `ply` plies below the root. A loss in `d` at `ply` is the negation of
/// the win in `d + 1` its parent has at `ply - 1`, so a probe one ply
/// down agrees with a probe here.
fn score_of(p: &Probe, ply: usize) -> Score {
    // (A draw has no distance: `dtm` is only asked of a win or a loss.)
    let total = |v| (Score::from(dtm(v)) + ply as Score).min(TB_DTM_CAP - 1);
    if is_win(p.value) {
        SCORE_TB_WIN - total(p.value)
    } else if is_loss(p.value) {
        -(SCORE_TB_WIN - total(p.value))
    } else {
        SCORE_DRAW
    }
}

/// Pieces on the board, kings included (counted only when tables are
/// loaded, so a search without them pays nothing).
fn pieces(board: &Board) -> usize {
    [Color::Red, Color::Black]
        .iter()
        .flat_map(|&c| PieceKind::ALL.iter().map(move |&k| board.count(c, k)))
        .sum()
}

/// The score of `board`, `ply` plies below the root, if it is in the
/// tables. A damaged block reads as not in the tables (the damage was
/// checked for when the tables were opened; this is only a guard).
pub(crate) fn probe(tb: &Tablebases, board: &Board, ply: usize) -> Option<Score> {
    if pieces(board) > tb.max_pieces() {
        return None;
    }
    match tb.probe(board)? {
        Ok(p) => Some(score_of(&p, ply)),
        Err(_) => None,
    }
}

/// The moves of `board` a root may keep, if it is in the tables: every
/// move as good as the best by the tables.
pub(crate) fn root_moves(tb: &Tablebases, board: &Board) -> Option<Vec<Move>> {
    if pieces(board) > tb.max_pieces() {
        return None;
    }
    match tb.best_moves(board)? {
        Ok((_, moves)) if !moves.is_empty() => Some(moves),
        _ => None,
    }
}

/// A root move's line to mate, as the tables know it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MateLine {
    /// The score the search gives the move: the table's score a ply down.
    pub table_score: Score,
    /// The same result as the mate score it is: mate (or mated) in the
    /// plies of `pv`.
    pub mate_score: Score,
    /// The move, then at each step the tables' best move, to the mate.
    pub pv: Vec<Move>,
}

/// The line to mate of the root move `mv` of `board`, if the tables decide
/// it: the position after `mv` is in the tables and won or lost, the mate
/// comes within `MAX_PLY` plies (so that its score reads as a mate) and
/// before the move limit could draw the game, and the tables' best moves
/// reach a mate (not a loss by the perpetual-check rule) in the plies the
/// tables promise.
pub(crate) fn mate_line(tb: &Tablebases, board: &Board, mv: Move) -> Option<MateLine> {
    let mut b = board.clone();
    b.make_move(mv);
    if pieces(&b) > tb.max_pieces() {
        return None;
    }
    let p = tb.probe(&b)?.ok()?;
    if !is_win(p.value) && !is_loss(p.value) {
        return None;
    }
    let plies = 1 + usize::from(dtm(p.value));
    if plies >= MAX_PLY || usize::from(board.rule60()) + plies > MOVE_LIMIT_PLIES as usize {
        return None;
    }
    let mut pv = vec![mv];
    while b.has_legal_move() && pv.len() < plies {
        let (_, moves) = tb.best_moves(&b)?.ok()?;
        let next = *moves.first()?;
        b.make_move(next);
        pv.push(next);
    }
    if pv.len() != plies || b.has_legal_move() {
        return None;
    }
    // The opponent's loss after `mv` is the root's win.
    let mate_score = if is_loss(p.value) {
        mate_in(plies)
    } else {
        mated_in(plies)
    };
    Some(MateLine {
        table_score: -score_of(&p, 1),
        mate_score,
        pv,
    })
}

/// Of `lines`, the one to report for root move `mv`, if the search scored
/// the move as the tables do (`score`: not a draw by repetition, nor a
/// first iteration's evaluation).
pub(crate) fn mate_line_of(lines: &[MateLine], mv: Move, score: Score) -> Option<&MateLine> {
    lines
        .iter()
        .find(|l| l.pv.first() == Some(&mv) && l.table_score == score)
}

/// The tables' ruling on a game that the rules leave going on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// This side wins: mated in so many plies under best play (counted as
    /// the tables count, to mate or to a position lost by the
    /// perpetual-check rule).
    Win(Color, u16),
    /// The side to move is lost by the perpetual-check rule: it can only
    /// avoid mate by checking forever (the other side wins).
    RuleLoss(Color),
    /// Drawn under best play.
    Draw,
}

impl Verdict {
    /// The winner, or `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            Verdict::Win(c, _) => Some(c),
            Verdict::RuleLoss(loser) => Some(loser.flip()),
            Verdict::Draw => None,
        }
    }
}

impl fmt::Display for Verdict {
    /// As `jiangjun judge` prints a ruling: `red (tablebase win, mate in 3
    /// plies)`, `black (tablebase win, perpetual check)`, `draw
    /// (tablebase draw)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Win(c, d) => write!(f, "{} (tablebase win, mate in {d} plies)", c.name()),
            Verdict::RuleLoss(loser) => {
                write!(
                    f,
                    "{} (tablebase win, perpetual check)",
                    loser.flip().name()
                )
            }
            Verdict::Draw => write!(f, "draw (tablebase draw)"),
        }
    }
}

/// The tables' ruling on `board`, if it is in the tables. Meant for a
/// game the rules (`xiangqi::rules::judge`) leave going on: the rules rule
/// first. A win the natural-move limit would cut short (the plies without
/// a capture so far plus the distance pass 120) is no ruling (`None`): the
/// tables ignore that limit, so the game may yet be drawn. `Err` if a
/// table is damaged.
pub fn verdict(tb: &Tablebases, board: &Board) -> Option<Result<Verdict, String>> {
    if pieces(board) > tb.max_pieces() {
        return None;
    }
    let p = match tb.probe(board)? {
        Ok(p) => p,
        Err(e) => return Some(Err(e)),
    };
    let us = board.side_to_move();
    let v = match (is_win(p.value), is_loss(p.value)) {
        (false, false) => return Some(Ok(Verdict::Draw)),
        // Lost in 0 with a legal move left: lost by the perpetual-check
        // rule (no legal move is the rules' checkmate or stalemate).
        (false, true) if dtm(p.value) == 0 && board.has_legal_move() => Verdict::RuleLoss(us),
        (true, _) => Verdict::Win(us, dtm(p.value)),
        (false, true) => Verdict::Win(us.flip(), dtm(p.value)),
    };
    if u32::from(board.rule60()) + u32::from(dtm(p.value)) > MOVE_LIMIT_PLIES {
        return None;
    }
    Some(Ok(v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{MAX_PLY, SCORE_MATE_IN_MAX, SCORE_TB_WIN_MIN};
    use jiangjun_tablebase::Wdl;
    use jiangjun_tablebase::value::mate_in;

    fn probe_of(d: u16) -> Probe {
        let value = mate_in(d);
        let (wdl, dtm) = jiangjun_tablebase::value::unpack(value);
        Probe { wdl, dtm, value }
    }

    #[test]
    fn scores_lie_between_evaluations_and_mates() {
        for ply in [0, 1, 7, MAX_PLY] {
            for d in 0..600 {
                let p = probe_of(d);
                let s = score_of(&p, ply);
                assert!(
                    s.abs() < SCORE_MATE_IN_MAX && s.abs() > SCORE_TB_WIN_MIN,
                    "{d} at {ply}: {s}"
                );
                assert_eq!(s > 0, p.wdl == Wdl::Win);
                if d % 2 == 0 && d < 300 && ply > 0 {
                    // The parent (a ply up) of a loss in d is a win in d + 1.
                    assert_eq!(-s, score_of(&probe_of(d + 1), ply - 1));
                }
            }
        }
        assert!(score_of(&probe_of(1), 0) > score_of(&probe_of(3), 0));
        // A draw is 0 at any ply.
        let draw = Probe {
            wdl: Wdl::Draw,
            dtm: None,
            value: jiangjun_tablebase::value::DRAW,
        };
        assert_eq!(score_of(&draw, 0), SCORE_DRAW);
        assert_eq!(score_of(&draw, 40), SCORE_DRAW);
        assert!(score_of(&probe_of(2), 0) > score_of(&probe_of(0), 0));
        const { assert!(crate::position::NNUE_EVAL_LIMIT < SCORE_TB_WIN_MIN) };
    }

    #[test]
    fn the_shorter_total_win_scores_higher() {
        // Entering a mate in 9 at ply 1 (10 plies from the root) beats
        // entering a mate in 3 at ply 9 (12) and a mate in 1 at ply 11
        // (12), however short the table's own distance.
        let (a, b, c) = (
            score_of(&probe_of(9), 1),
            score_of(&probe_of(3), 9),
            score_of(&probe_of(1), 11),
        );
        assert!(a > b && b == c, "{a} {b} {c}");
        // The same total ties, wherever the table is entered.
        assert_eq!(score_of(&probe_of(5), 4), score_of(&probe_of(7), 2));
        // Losses: the longer total loss is the better one.
        assert!(score_of(&probe_of(8), 3) > score_of(&probe_of(2), 3));
        assert!(score_of(&probe_of(2), 9) > score_of(&probe_of(6), 1));
        // The search's own mates beat every table win, even at the root.
        assert!(crate::score::mate_in(MAX_PLY) > score_of(&probe_of(1), 0));
    }
}
