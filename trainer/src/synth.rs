//! Synthetic training data for tests and benchmarks: positions from random
//! games, labelled by a plain material count. A network trained on them
//! must learn the material values from nothing.

use crate::data::{DataError, DataWriter, GameResult, Record};
use crate::rng::Rng;
use std::path::Path;
use xiangqi::{Board, Color, PieceKind};

/// Material values of the synthetic labels (king 0).
pub const VALUES: [i32; 7] = [0, 200, 200, 400, 900, 450, 100];

/// Material of `color` minus its opponent's.
pub fn material(board: &Board, color: Color) -> i32 {
    let side = |c: Color| -> i32 {
        PieceKind::ALL
            .iter()
            .map(|&k| VALUES[k.index()] * board.count(c, k) as i32)
            .sum()
    };
    side(color) - side(color.flip())
}

/// The synthetic record of `board`: score = material balance for the side
/// to move; result = a win for the side more than 150 ahead, else a draw.
pub fn label(board: &Board) -> Record {
    let red = material(board, Color::Red);
    let result = if red > 150 {
        GameResult::RedWins
    } else if red < -150 {
        GameResult::BlackWins
    } else {
        GameResult::Draw
    };
    let score = material(board, board.side_to_move());
    Record::from_board(board, result, score.clamp(-32000, 32000) as i16)
}

/// `count` positions from random games (captures taken half the time they
/// are possible, so material varies; one position in three kept; games end
/// at mate, stalemate or 200 plies).
pub fn generate(count: usize, seed: u64, mut sink: impl FnMut(Record)) {
    let mut rng = Rng::new(seed);
    let mut board = Board::startpos();
    let mut made = 0;
    while made < count {
        let moves = board.legal_moves();
        if moves.is_empty() || board.history().len() >= 200 {
            board = Board::startpos();
            continue;
        }
        let captures: Vec<_> = moves
            .iter()
            .filter(|m| board.piece_at(m.to()).is_some())
            .collect();
        let mv = if !captures.is_empty() && rng.below(2) == 0 {
            captures[rng.below(captures.len())]
        } else {
            moves.as_slice()[rng.below(moves.len())]
        };
        board.make_move(mv);
        if rng.below(3) == 0 {
            sink(label(&board));
            made += 1;
        }
    }
}

/// Append `count` synthetic positions to the data file `path`.
pub fn write_file(path: &Path, count: usize, seed: u64) -> Result<(), DataError> {
    let mut w = DataWriter::append(path)?;
    let mut err = None;
    generate(count, seed, |r| {
        if err.is_none() {
            err = w.write(&r).err();
        }
    });
    if let Some(e) = err {
        return Err(e);
    }
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_follow_material() {
        let b = Board::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 b - - 0 1").unwrap();
        let r = label(&b);
        assert_eq!(r.score, -900);
        assert_eq!(r.result, GameResult::RedWins);
        let mut n = 0;
        let mut varied = false;
        generate(300, 1, |r| {
            n += 1;
            varied |= r.score != 0;
            assert!(r.to_board().is_ok(), "{}", r.to_fen());
        });
        assert_eq!(n, 300);
        assert!(varied);
    }
}
