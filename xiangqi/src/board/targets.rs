//! What a piece reaches from where it stands, as [`SquareSet`]s:
//! [`Board::targets`] (the squares it attacks) and
//! [`Board::quiet_targets`] (the empty squares it can move to). The typed
//! face of the private geometry tables, for evaluation terms such as
//! mobility and king attacks.

use super::geometry::{
    ADVISOR_STEPS, ELEPHANT_STEPS, FILE_VIEW, HORSE_STEPS, KING_STEPS, LineView, PAWN_STEPS,
    RANK_VIEW, Steps,
};
use super::{Board, EMPTY};
use crate::square_set::SquareSet;
use crate::types::{FILES, PieceKind, RANKS, Square};

/// For each file occupancy mask (bit `rank` set), the same squares as bits
/// of a [`SquareSet`] on file `a`; shift left by the file for another file.
static FILE_SPREAD: [u128; 1 << RANKS] = file_spread();

const fn file_spread() -> [u128; 1 << RANKS] {
    let mut table = [0u128; 1 << RANKS];
    let mut mask = 0;
    while mask < 1 << RANKS {
        let mut rank = 0;
        while rank < RANKS {
            if mask >> rank & 1 != 0 {
                table[mask] |= 1 << (rank * FILES);
            }
            rank += 1;
        }
        mask += 1;
    }
    table
}

/// The squares of a rank mask (bit `file`) on `sq`'s rank and of a file
/// mask (bit `rank`) on `sq`'s file.
#[inline(always)]
fn line_squares(sq: Square, rank_mask: u16, file_mask: u16) -> SquareSet {
    let rank_bits = (rank_mask as u128) << (sq.rank() * FILES);
    let file_bits = FILE_SPREAD[file_mask as usize] << sq.file();
    SquareSet::from_bits(rank_bits | file_bits)
}

impl Board {
    /// What a slider on `sq` sees along its rank and its file.
    #[inline(always)]
    fn line_views(&self, sq: Square) -> (&'static LineView, &'static LineView) {
        let (file, rank) = (sq.file(), sq.rank());
        (
            &RANK_VIEW[file][self.rank_occ(rank) as usize],
            &FILE_VIEW[rank][self.file_occ(file) as usize],
        )
    }

    /// The targets of `steps` whose blocking square is empty (or that have
    /// none), whatever stands on them.
    #[inline(always)]
    fn open_steps(&self, steps: &Steps) -> SquareSet {
        let mut bits = 0u128;
        for (to, via) in steps.iter() {
            if via == to || self.cell(via) == EMPTY {
                bits |= 1 << to;
            }
        }
        SquareSet::from_bits(bits)
    }

    /// The squares the piece on `sq` attacks: where it would capture an
    /// enemy piece, with the squares of its own side's pieces included (the
    /// pieces it defends). Empty if `sq` is empty.
    ///
    /// A rook attacks along its rank and file up to and including the
    /// first piece each way; a cannon only the piece beyond the first (its
    /// screen) each way; a horse and an elephant the steps whose leg or eye
    /// is empty; king, advisor and pawn their steps. Pins, checks and the
    /// kings' facing rule are not looked at (see [`Board::legal_moves`]).
    ///
    /// ```
    /// use xiangqi::{Board, Square, SquareSet};
    ///
    /// let board = Board::startpos();
    /// let sq = |s: &str| s.parse::<Square>().unwrap();
    /// let set = |v: &[&str]| v.iter().map(|s| sq(s)).collect::<SquareSet>();
    ///
    /// // The horse on b0: its leg towards d1 is blocked by the elephant on c0.
    /// assert_eq!(board.targets(sq("b0")), set(&["a2", "c2"]));
    /// // The cannon on h2 attacks the horse on h9 over the cannon on h7,
    /// // and the horse on h0 behind it is not a capture (no screen).
    /// assert_eq!(board.targets(sq("h2")), set(&["h9"]));
    /// // The rook on a0 defends its horse and pawn.
    /// assert_eq!(board.targets(sq("a0")), set(&["a1", "a2", "a3", "b0"]));
    /// assert!(board.targets(sq("e5")).is_empty());
    /// ```
    pub fn targets(&self, sq: Square) -> SquareSet {
        let Some(piece) = self.piece_at(sq) else {
            return SquareSet::EMPTY;
        };
        let s = sq.index();
        match piece.kind() {
            PieceKind::Rook => {
                let (rank, file) = self.line_views(sq);
                line_squares(sq, rank.quiet | rank.first, file.quiet | file.first)
            }
            PieceKind::Cannon => {
                let (rank, file) = self.line_views(sq);
                line_squares(sq, rank.second, file.second)
            }
            PieceKind::Horse => self.open_steps(&HORSE_STEPS[s]),
            PieceKind::Elephant => self.open_steps(&ELEPHANT_STEPS[s]),
            PieceKind::Advisor => self.open_steps(&ADVISOR_STEPS[s]),
            PieceKind::King => self.open_steps(&KING_STEPS[s]),
            PieceKind::Pawn => self.open_steps(&PAWN_STEPS[piece.color().index()][s]),
        }
    }

    /// The empty squares the piece on `sq` can move to (pins and checks
    /// aside): with [`Board::targets`] less its own side's squares, its
    /// pseudo-legal moves. For every piece but the cannon these are the
    /// empty squares of `targets`; a cannon moves like a rook but attacks
    /// only over a screen. Empty if `sq` is empty.
    ///
    /// ```
    /// use xiangqi::{Board, Square};
    ///
    /// let board = Board::startpos();
    /// let sq = |s: &str| s.parse::<Square>().unwrap();
    /// // The cannon on h2: six squares along its rank, and h1, h3..h6.
    /// assert_eq!(board.quiet_targets(sq("h2")).len(), 11);
    /// let moves = board.legal_moves();
    /// let from_h2 = moves.iter().filter(|m| m.from() == sq("h2")).count();
    /// assert_eq!(from_h2, 11 + board.targets(sq("h2")).len());
    /// ```
    pub fn quiet_targets(&self, sq: Square) -> SquareSet {
        match self.piece_at(sq).map(|p| p.kind()) {
            None => SquareSet::EMPTY,
            Some(PieceKind::Rook | PieceKind::Cannon) => {
                let (rank, file) = self.line_views(sq);
                line_squares(sq, rank.quiet, file.quiet)
            }
            Some(_) => {
                let mut empty = SquareSet::EMPTY;
                for to in self.targets(sq) {
                    if self.cell(to.index()) == EMPTY {
                        empty.insert(to);
                    }
                }
                empty
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::SQUARES;

    /// Against move generation: the pseudo-legal moves of every piece are
    /// its quiet targets and the targets that hold an enemy piece.
    #[test]
    fn targets_agree_with_move_generation() {
        let fens = [
            crate::START_FEN,
            "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R w",
            "3k5/4P4/2P6/9/4c4/2R1n4/9/3A5/4A4/3K1C3 w",
            "3k5/4P4/2P6/9/4c4/2R1n4/9/3A5/4A4/3K1C3 b",
        ];
        for fen in fens {
            let board = Board::from_fen(fen).unwrap();
            let mut pseudo = crate::MoveList::new();
            board.gen_pseudo_legal(&mut pseudo);
            for s in 0..SQUARES {
                let sq = Square::from_index_unchecked(s);
                let Some(piece) = board.piece_at(sq) else {
                    assert!(board.targets(sq).is_empty() && board.quiet_targets(sq).is_empty());
                    continue;
                };
                if piece.color() != board.side_to_move() {
                    continue;
                }
                let enemy = board.targets(sq).iter().filter(|&t| {
                    board
                        .piece_at(t)
                        .is_some_and(|p| p.color() != piece.color())
                });
                let expected: SquareSet = enemy.chain(board.quiet_targets(sq)).collect();
                let generated: SquareSet = pseudo
                    .iter()
                    .filter(|m| m.from() == sq)
                    .map(|m| m.to())
                    .collect();
                assert_eq!(generated, expected, "{fen} {sq}");
            }
        }
    }
}
