//! The positions tuned on: the quiet positions of game records and the
//! records of JJDATA files, each turned into its features (weight index,
//! Red minus Black count) with what the evaluation adds to them, and the
//! use of every weight over the data (which `optimise` keeps tables
//! centred by).

use crate::tools::records::Game;
use jiangjun_engine::Position;
use jiangjun_engine::eval::params::{MATERIAL, NUM_WEIGHTS, pst_index};
use jiangjun_engine::eval::{Accumulator, known_win, psq, scale, terms};
use jiangjun_trainer::data;
use xiangqi::board::{Board, PieceValues};
use xiangqi::types::{Color, PieceKind};

/// Keep about `n` of the samples, evenly spaced.
pub(super) fn evenly_spaced(v: Vec<Sample>, n: usize) -> Vec<Sample> {
    let len = v.len();
    if n >= len {
        return v;
    }
    v.into_iter()
        .enumerate()
        .filter(|(i, _)| i * n % len < n)
        .map(|(_, s)| s)
        .collect()
}

/// One position: its features (weight index, Red minus Black count), phase,
/// the scale for each stronger side, the fixed part of the evaluation (the
/// tempo and the known-win bonus, from Red's side), the game result from
/// Red's side (1, 0.5, 0), the search score from Red's side if the data
/// has one, and the target the tuner fits.
pub struct Sample {
    pub(super) features: Vec<(u16, i16)>,
    pub(super) phase: f64,
    pub(super) scale: [f64; 2],
    pub(super) fixed: f64,
    pub(super) result: f64,
    pub(super) score: Option<f64>,
    pub(super) target: f64,
}

struct Collect(Vec<i32>);

impl Accumulator for Collect {
    fn add(&mut self, index: usize, color: Color, count: i32) {
        match color {
            Color::Red => self.0[index] += count,
            Color::Black => self.0[index] -= count,
        }
    }
}

/// Calls `f(weight, count)` for the material, the piece-square entries and
/// the terms of the position, for both sides (Black's counts negated).
fn visit(board: &Board, f: impl FnMut(usize, Color, i32)) {
    struct Visit<F>(F);
    impl<F: FnMut(usize, Color, i32)> Accumulator for Visit<F> {
        fn add(&mut self, index: usize, color: Color, count: i32) {
            (self.0)(index, color, count)
        }
    }
    let mut v = Visit(f);
    for color in Color::BOTH {
        for kind in PieceKind::ALL {
            for sq in board.squares_of(color, kind) {
                v.add(MATERIAL + kind.index(), color, 1);
                v.add(pst_index(color, kind, sq), color, 1);
            }
        }
    }
    terms(board, &mut v);
}

/// The features of a position, material and piece-square values included.
pub fn features(board: &Board) -> Vec<(u16, i16)> {
    let mut c = Collect(vec![0; NUM_WEIGHTS]);
    visit(board, |i, color, n| c.add(i, color, n));
    c.0.iter()
        .enumerate()
        .filter(|(_, v)| **v != 0)
        .map(|(i, v)| (i as u16, *v as i16))
        .collect()
}

/// Piece values of the quiet test (king, advisor, elephant, horse, rook,
/// cannon, pawn): fixed, so that the positions tuned on do not depend on
/// the weights being tuned.
const QUIET_VALUES: PieceValues = [10_000, 200, 200, 400, 900, 450, 100];

fn quiet(board: &Position) -> bool {
    if board.in_check() {
        return false;
    }
    if board.history().last().is_some_and(|u| u.is_capture()) {
        return false;
    }
    !board
        .legal_captures()
        .iter()
        .any(|m| board.board().see(m, &QUIET_VALUES) > 0)
}

fn phase_of(board: &Position) -> f64 {
    board.phase().min(psq::MAX_PHASE) as f64 / psq::MAX_PHASE as f64
}

pub(super) fn sample(board: &Position, result: f64, score: Option<f64>) -> Sample {
    let tempo = if board.side_to_move() == Color::Red {
        10.0
    } else {
        -10.0
    };
    Sample {
        features: features(board),
        phase: phase_of(board),
        scale: [
            scale(board, Color::Red) as f64 / 64.0,
            scale(board, Color::Black) as f64 / 64.0,
        ],
        fixed: tempo + known_win(board) as f64,
        result,
        score,
        target: result,
    }
}

/// How much each weight is used: pieces (of both sides) or term counts,
/// summed over the positions, weighted by the phase for the middlegame half
/// and by the rest for the endgame half.
pub struct Usage {
    pub(super) mg: Vec<f64>,
    pub(super) eg: Vec<f64>,
}

impl Default for Usage {
    fn default() -> Usage {
        Usage {
            mg: vec![0.0; NUM_WEIGHTS],
            eg: vec![0.0; NUM_WEIGHTS],
        }
    }
}

impl Usage {
    fn add(&mut self, board: &Position) {
        let phase = phase_of(board);
        visit(board, |i, _, n| {
            self.mg[i] += phase * n.abs() as f64;
            self.eg[i] += (1.0 - phase) * n.abs() as f64;
        });
    }
}

/// Positions to tune on, positions held out, and the use of the weights
/// over all of them.
#[derive(Default)]
pub struct Data {
    pub train: Vec<Sample>,
    pub valid: Vec<Sample>,
    pub usage: Usage,
}

impl Data {
    pub(super) fn push(
        &mut self,
        board: &Position,
        result: f64,
        score: Option<f64>,
        held_out: bool,
    ) {
        self.usage.add(board);
        let s = sample(board, result, score);
        if held_out {
            self.valid.push(s);
        } else {
            self.train.push(s);
        }
    }

    /// The quiet positions of a game, from ply `skip` on, with its result.
    pub fn add_game(&mut self, g: &Game, skip: usize, held_out: bool) {
        let Ok(mut b) = Position::from_fen(&g.fen) else {
            return;
        };
        for (i, &mv) in g.moves.iter().enumerate() {
            b.make_move(mv);
            if i + 1 >= skip && quiet(&b) {
                self.push(&b, g.result, None, held_out);
            }
        }
    }

    /// A JJDATA record, if the rules accept it and it is not in check.
    pub fn add_record(&mut self, r: &data::Record, held_out: bool) {
        // Datagen kept only positions out of check whose best move is
        // quiet: they are taken as they are (a capture that wins by SEE
        // may be on the board, but the search preferred a quiet move).
        let Ok(board) = r.to_board() else {
            return;
        };
        let b = Position::new(board);
        if b.in_check() {
            return;
        }
        let score = match r.side_to_move {
            Color::Red => r.score as f64,
            Color::Black => -(r.score as f64),
        };
        self.push(
            &b,
            r.result.score_for(Color::Red) as f64,
            Some(score),
            held_out,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::records;

    #[test]
    fn samples_are_quiet_positions_with_results() {
        // No captures anywhere: every position is quiet.
        let games = records::games_from_lines(
            "3k5/9/9/9/9/9/4P4/9/9/4K4 w - - 0 1 e3e4 d9d8 e4e5 d8d9 1-0\n",
        )
        .games;
        let mut d = Data::default();
        d.add_game(&games[0], 0, false);
        assert_eq!(d.train.len(), 4);
        assert!(d.train.iter().all(|x| x.result == 1.0));
        // Skipping the first plies leaves the later positions; held-out
        // games go to the other set.
        let mut d = Data::default();
        d.add_game(&games[0], 3, true);
        assert_eq!((d.train.len(), d.valid.len()), (0, 2));
    }

    #[test]
    fn jjdata_records_become_samples_with_red_scores() {
        let b = Board::from_fen("3k5/9/9/9/9/9/4P4/9/9/4K4 b").unwrap();
        let r = data::Record::from_board(&b, data::GameResult::RedWins, -150);
        let mut d = Data::default();
        d.add_record(&r, false);
        assert_eq!(d.train.len(), 1);
        // The record's score is Black's; the sample keeps Red's.
        assert_eq!(d.train[0].score, Some(150.0));
        assert_eq!(d.train[0].result, 1.0);
        // A position in check is left out.
        let b = Board::from_fen("4k4/9/9/9/9/9/9/9/4R4/3K5 b").unwrap();
        d.add_record(
            &data::Record::from_board(&b, data::GameResult::Draw, 0),
            false,
        );
        assert_eq!(d.train.len(), 1);
    }
}
