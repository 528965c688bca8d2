//! Endgame knowledge that the tuner cannot learn: the games it learns from
//! hold few bare-king endings, and their results do not tell a won ending
//! from a lucky one. Two hand-set rules, applied after the tuned sum:
//!
//! - [`scale`]: material that cannot (or can rarely) win keeps only part
//!   of its score (no attackers at all; a lone horse or cannon against
//!   defenders; a lone rook against a defended king; a lone pawn);
//! - [`known_win`]: a rook against nothing but advisors and elephants,
//!   few enough that the rook mates by force, is a won game whatever the
//!   tables say: a fixed bonus, plus a small push towards the mating
//!   pattern so that the search makes progress (as Stockfish's KXK).

use crate::score::Score;
use xiangqi::board::Board;
use xiangqi::types::{Color, FILES, PieceKind};

/// Bonus of a known win, on top of the material the side is ahead.
pub const KNOWN_WIN: Score = 400;
/// A known win with the defending king off the centre file: with the
/// attacking king holding the centre file (the kings may not face each
/// other), a rook check along the defender's file mates.
const KING_OFF_CENTRE: Score = 40;
/// A known win with the attacking king on the centre file.
const KING_ON_CENTRE: Score = 20;

/// Pieces of `color` that can cross the river or give check from afar:
/// rooks, horses, cannons, pawns.
#[inline]
fn attackers(board: &Board, color: Color) -> i32 {
    (board.count(color, PieceKind::Rook)
        + board.count(color, PieceKind::Horse)
        + board.count(color, PieceKind::Cannon)
        + board.count(color, PieceKind::Pawn)) as i32
}

/// How much of a winning score the stronger side keeps, in 64ths, for
/// material that cannot (or can rarely) win.
pub fn scale(board: &Board, strong: Color) -> i32 {
    let weak = strong.flip();
    let c = |col: Color, k: PieceKind| board.count(col, k) as i32;
    let majors =
        c(strong, PieceKind::Rook) + c(strong, PieceKind::Horse) + c(strong, PieceKind::Cannon);
    let pawns = c(strong, PieceKind::Pawn);
    if majors == 0 && pawns == 0 {
        return 0;
    }
    let defenders = c(weak, PieceKind::Advisor) + c(weak, PieceKind::Elephant);
    if pawns == 0 && majors == 1 {
        // A lone horse or cannon rarely beats defenders; a lone rook beats
        // few (see `known_win`) but not both advisors and both elephants
        // (单车难胜士象全), nor a defended king with a piece of its own.
        if c(strong, PieceKind::Rook) == 0 {
            return if defenders >= 2 { 6 } else { 24 };
        }
        let weak_majors =
            c(weak, PieceKind::Rook) + c(weak, PieceKind::Horse) + c(weak, PieceKind::Cannon);
        if (weak_majors >= 1 && defenders >= 2) || defenders == 4 {
            return 16;
        }
    }
    if majors == 0 && pawns == 1 && defenders >= 1 {
        return 12;
    }
    64
}

/// The known-win bonus from Red's point of view (0 in all but a few
/// endgames): one side has nothing but advisors and elephants, the other
/// a rook, and either at most two defenders stand against it (单车胜双士,
/// 单车胜双象, 单车胜单士象) or the rook has a rook, horse or cannon beside
/// it (车马、车炮 vs 士象全).
#[inline]
pub fn known_win(board: &Board) -> Score {
    for strong in Color::BOTH {
        let weak = strong.flip();
        if attackers(board, weak) != 0 {
            continue;
        }
        let rooks = board.count(strong, PieceKind::Rook) as i32;
        if rooks == 0 {
            continue;
        }
        let helpers = rooks - 1
            + (board.count(strong, PieceKind::Horse) + board.count(strong, PieceKind::Cannon))
                as i32;
        let defenders =
            (board.count(weak, PieceKind::Advisor) + board.count(weak, PieceKind::Elephant)) as i32;
        if helpers == 0 && defenders > 2 {
            continue;
        }
        let centre = FILES / 2;
        let mut bonus = KNOWN_WIN;
        if board.king_square(weak).file() != centre {
            bonus += KING_OFF_CENTRE;
        }
        if board.king_square(strong).file() == centre {
            bonus += KING_ON_CENTRE;
        }
        return match strong {
            Color::Red => bonus,
            Color::Black => -bonus,
        };
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> Board {
        Board::from_fen(fen).unwrap()
    }

    #[test]
    fn known_wins_are_recognised() {
        // A rook against a bare king, for either colour.
        assert!(known_win(&board("3k5/9/9/9/9/9/9/9/9/R3K4 w")) >= KNOWN_WIN);
        assert!(known_win(&board("r3k4/9/9/9/9/9/9/9/9/3K5 w")) <= -KNOWN_WIN);
        // Against two defenders; against full defenders only with help.
        assert!(known_win(&board("3ak4/4a4/9/9/9/9/9/9/9/R3K4 w")) > 0);
        assert_eq!(known_win(&board("2bakab2/9/9/9/9/9/9/9/3R5/3K5 w")), 0);
        assert!(known_win(&board("2bakab2/9/9/9/9/9/9/9/3R5/3K1N3 w")) > 0);
        // Not when the defender has anything that attacks, pawns included.
        assert_eq!(known_win(&board("3k5/9/9/9/9/9/p8/9/9/R3K4 w")), 0);
        // Not without a rook.
        assert_eq!(known_win(&board("3k5/9/9/9/9/9/9/9/4N4/4K4 w")), 0);
        assert_eq!(known_win(&board("3k5/9/9/9/9/9/9/9/9/3AK4 w")), 0);
    }

    #[test]
    fn the_push_prefers_the_mating_pattern() {
        // Defending king off the centre file, attacking king on it.
        let good = known_win(&board("3k5/9/9/9/9/9/9/9/9/R3K4 w"));
        let worse = known_win(&board("4k4/9/9/9/9/9/9/9/9/R2K5 w"));
        assert!(good > worse, "{good} {worse}");
    }

    #[test]
    fn drawn_material_is_scaled() {
        // A lone rook against full defenders.
        assert_eq!(
            scale(&board("2bakab2/9/9/9/9/9/9/9/3R5/3K5 w"), Color::Red),
            16
        );
        // ...but not against fewer, nor with a horse beside it.
        assert_eq!(
            scale(&board("3ak4/4a4/9/9/9/9/9/9/9/R3K4 w"), Color::Red),
            64
        );
        assert_eq!(
            scale(&board("2bakab2/9/9/9/9/9/9/9/3R5/3K1N3 w"), Color::Red),
            64
        );
        // Nothing that attacks: no win.
        assert_eq!(scale(&board("3k5/9/9/9/9/9/9/9/9/3AK4 w"), Color::Red), 0);
    }
}
