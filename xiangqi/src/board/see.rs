//! Static exchange evaluation ([`Board::see`]): the material outcome of the capture sequence on
//! one square, each side recapturing with its least valuable attacker.
//!
//! Xiangqi attacks depend on the pieces in between: a cannon needs exactly one
//! screen, a horse a free leg, an elephant a free eye. So the exchange is
//! played out on local copies of the rank and file occupancy, removing each
//! capturer from its square; attackers are found afresh after every capture,
//! which makes cannons that gain or lose a screen, and horses whose leg is
//! freed, come out right.

use super::geometry::{
    ADVISOR_STEPS, ELEPHANT_STEPS, FILE_VIEW, HORSE_ATTACKER_SET, HORSE_ATTACKERS, KING_STEPS,
    PAWN_ATTACKERS, RANK_VIEW, line_bits,
};
use super::{Board, CELL_PIECE, EMPTY, NO_SQUARE, SLOT_RANGE, color_bit, id_base};

/// The value of each piece kind for the exchange, indexed by
/// `PieceKind::index()` (king first). The king's value should exceed the
/// rest together, so that it is only ever the last to capture.
pub type PieceValues = [i32; 7];
use crate::types::{Color, FILES, Move, Piece, PieceKind, RANKS};

struct Exchange<'a> {
    board: &'a Board,
    rank_occ: [u16; RANKS],
    file_occ: [u16; FILES],
    /// Squares whose piece has already gone to the target square.
    gone: u128,
}

impl Exchange<'_> {
    #[inline(always)]
    fn cell(&self, s: usize) -> u8 {
        if self.gone >> s & 1 != 0 {
            EMPTY
        } else {
            self.board.cell(s)
        }
    }

    #[inline(always)]
    fn occupied(&self, s: usize) -> bool {
        self.rank_occ[s / FILES] >> (s % FILES) & 1 != 0
    }

    /// The least valuable piece of `color` attacking `to`, with its kind.
    fn least_attacker(&self, to: usize, color: Color) -> Option<(usize, PieceKind)> {
        let own = color_bit(color);
        // The board's piece first, whether it has gone to the target second:
        // most squares looked at hold no such piece, and the board is cheaper
        // to read than the set of gone squares.
        let is = |s: usize, kind: PieceKind| {
            CELL_PIECE[self.board.cell(s) as usize] == Piece::new(color, kind).index() as u8
                && self.gone >> s & 1 == 0
        };
        for (s, _) in PAWN_ATTACKERS[color.index()][to].iter() {
            if is(s, PieceKind::Pawn) {
                return Some((s, PieceKind::Pawn));
            }
        }
        for (s, _) in ADVISOR_STEPS[to].iter() {
            if is(s, PieceKind::Advisor) {
                return Some((s, PieceKind::Advisor));
            }
        }
        for (s, eye) in ELEPHANT_STEPS[to].iter() {
            if is(s, PieceKind::Elephant) && !self.occupied(eye) {
                return Some((s, PieceKind::Elephant));
            }
        }
        // The scans below are walked only when the piece list says a piece
        // of that kind stands where the scan looks (most squares a quiet move
        // goes to are attacked by no horse, rook, cannon or king); the scans
        // themselves, and so which attacker is found first, are unchanged.
        let (tf, tr) = (to % FILES, to / FILES);
        let horse_set = HORSE_ATTACKER_SET[to];
        if self.any_of(color, PieceKind::Horse, |s| horse_set >> s & 1 != 0) {
            for (s, leg) in HORSE_ATTACKERS[to].iter() {
                if is(s, PieceKind::Horse) && !self.occupied(leg) {
                    return Some((s, PieceKind::Horse));
                }
            }
        }
        let on_line = |s: usize| s / FILES == tr || s % FILES == tf;
        let cannon = self.any_of(color, PieceKind::Cannon, on_line);
        let rook = self.any_of(color, PieceKind::Rook, on_line);
        if cannon || rook {
            let rv = &RANK_VIEW[tf][self.rank_occ[tr] as usize];
            let fv = &FILE_VIEW[tr][self.file_occ[tf] as usize];
            let line_squares = |rank_mask: u16, file_mask: u16| {
                line_bits(rank_mask)
                    .map(move |f| tr * FILES + f)
                    .chain(line_bits(file_mask).map(move |r| r * FILES + tf))
            };
            if cannon {
                for s in line_squares(rv.second, fv.second) {
                    if is(s, PieceKind::Cannon) {
                        return Some((s, PieceKind::Cannon));
                    }
                }
            }
            if rook {
                for s in line_squares(rv.first, fv.first) {
                    if is(s, PieceKind::Rook) {
                        return Some((s, PieceKind::Rook));
                    }
                }
            }
        }
        let next_to = |s: usize| (s / FILES).abs_diff(tr) + (s % FILES).abs_diff(tf) == 1;
        if self.any_of(color, PieceKind::King, next_to) {
            for (s, _) in KING_STEPS[to].iter() {
                if is(s, PieceKind::King) && self.cell(s) & own != 0 {
                    return Some((s, PieceKind::King));
                }
            }
        }
        None
    }

    /// Does the board's piece list put a piece of `color` and `kind` on a
    /// square where `near` holds? Pieces already gone to the target square
    /// may still be counted: this only decides whether a scan is needed.
    #[inline(always)]
    fn any_of(&self, color: Color, kind: PieceKind, near: impl Fn(usize) -> bool) -> bool {
        let (lo, hi) = SLOT_RANGE[kind.index()];
        let base = id_base(color);
        (base + lo..base + hi).any(|id| {
            let s = self.board.piece_square_of_id(id);
            s != NO_SQUARE && near(s as usize)
        })
    }

    fn remove(&mut self, s: usize) {
        self.gone |= 1 << s;
        self.rank_occ[s / FILES] &= !(1 << (s % FILES));
        self.file_occ[s % FILES] &= !(1 << (s / FILES));
    }
}

impl Board {
    /// Static exchange evaluation: the material balance of the exchange on
    /// the target square started by `mv` (a capture or a quiet move into
    /// attack), from the mover's point of view, with piece values given by
    /// the caller. Each side may stop recapturing when that is better for it.
    /// `mv` should be pseudo-legal; a move from an empty square gives 0.
    ///
    /// ```
    /// use xiangqi::Board;
    /// use xiangqi::board::PieceValues;
    ///
    /// // King, advisor, elephant, horse, rook, cannon, pawn.
    /// const VALUES: PieceValues = [10_000, 200, 200, 400, 900, 450, 100];
    /// // The rook takes an undefended horse, then a defended one.
    /// let board = Board::from_fen("4k4/9/9/9/5n3/9/9/9/9/3K1R3 w")?;
    /// assert_eq!(board.see(board.parse_move("f0f5")?, &VALUES), 400);
    /// let board = Board::from_fen("4k4/9/9/5r3/5n3/9/9/9/9/3K1R3 w")?;
    /// assert_eq!(board.see(board.parse_move("f0f5")?, &VALUES), 400 - 900);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn see(&self, mv: Move, values: &PieceValues) -> i32 {
        match self.first_capture(mv, values) {
            Some(captured) => self.exchange(mv, captured, values),
            None => 0,
        }
    }

    /// The value `mv` captures (0 for a quiet move), or `None` when its
    /// origin is empty.
    #[inline(always)]
    fn first_capture(&self, mv: Move, values: &PieceValues) -> Option<i32> {
        if self.cell(mv.from().index()) == EMPTY {
            return None;
        }
        let target = self.cell(mv.to().index());
        Some(if target == EMPTY {
            0
        } else {
            values[super::piece_of_id(target).kind().index()]
        })
    }

    /// [`Board::see`] of `mv`, whose origin holds a piece and which captures
    /// `captured`.
    fn exchange(&self, mv: Move, captured: i32, values: &PieceValues) -> i32 {
        let see_value = |kind: PieceKind| values[kind.index()];
        let from = mv.from().index();
        let to = mv.to().index();
        let mover = self.cell(from);
        let mut ex = Exchange {
            board: self,
            rank_occ: std::array::from_fn(|r| self.rank_occ(r)),
            file_occ: std::array::from_fn(|f| self.file_occ(f)),
            gone: 0,
        };
        let mut gains = [0i32; 34];
        gains[0] = captured;
        // The target square is now occupied by the mover.
        ex.remove(from);
        ex.rank_occ[to / FILES] |= 1 << (to % FILES);
        ex.file_occ[to % FILES] |= 1 << (to / FILES);
        let mut on_square = super::piece_of_id(mover).kind();
        let mut side = self.side_to_move().flip();
        let mut n = 1;
        while n < gains.len() {
            let Some((s, kind)) = ex.least_attacker(to, side) else {
                break;
            };
            // A king may only recapture if nothing can take it back.
            if kind == PieceKind::King {
                let mut probe = Exchange {
                    board: ex.board,
                    rank_occ: ex.rank_occ,
                    file_occ: ex.file_occ,
                    gone: ex.gone,
                };
                probe.remove(s);
                if probe.least_attacker(to, side.flip()).is_some() {
                    break;
                }
            }
            gains[n] = see_value(on_square) - gains[n - 1];
            on_square = kind;
            ex.remove(s);
            side = side.flip();
            n += 1;
        }
        while n > 1 {
            n -= 1;
            gains[n - 1] = -(-gains[n - 1]).max(gains[n]);
        }
        gains[0]
    }

    /// Is [`Board::see`]`(mv) >= threshold`?
    #[inline]
    pub fn see_ge(&self, mv: Move, threshold: i32, values: &PieceValues) -> bool {
        // The exchange is worth at most the captured piece (the other side
        // may stop at once) and at least that minus the mover (the mover may
        // stop after losing itself), so a threshold outside those bounds is
        // answered without playing the exchange out; the answer is the same.
        let Some(captured) = self.first_capture(mv, values) else {
            return 0 >= threshold;
        };
        if captured < threshold {
            return false;
        }
        let mover = super::piece_of_id(self.cell(mv.from().index())).kind();
        if captured - values[mover.index()] >= threshold {
            return true;
        }
        self.exchange(mv, captured, values) >= threshold
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;
    use crate::types::SQUARES;

    /// King, advisor, elephant, horse, rook, cannon, pawn.
    const VALUES: PieceValues = [10000, 200, 200, 400, 900, 450, 100];

    const fn see_value(kind: PieceKind) -> i32 {
        VALUES[kind as usize]
    }

    fn see(fen: &str, mv: &str) -> i32 {
        let b = Board::from_fen(fen).unwrap();
        let m = b.parse_move(mv).unwrap();
        b.see(m, &VALUES)
    }

    const P: i32 = see_value(PieceKind::Pawn);
    const N: i32 = see_value(PieceKind::Horse);
    const R: i32 = see_value(PieceKind::Rook);
    const C: i32 = see_value(PieceKind::Cannon);

    #[test]
    fn undefended_capture_wins_the_piece() {
        assert_eq!(see("4k4/9/9/9/4n4/9/9/9/9/3K1R3 w", "f0f5"), 0);
        assert_eq!(see("4k4/9/9/9/5n3/9/9/9/9/3K1R3 w", "f0f5"), N);
    }

    #[test]
    fn defended_piece_costs_the_rook() {
        assert_eq!(see("4k4/9/9/5r3/5n3/9/9/9/9/3K1R3 w", "f0f5"), N - R);
        // A second rook behind the first wins the exchange back.
        assert_eq!(see("4k4/9/9/5r3/5n3/9/9/9/5R3/3K1R3 w", "f1f5"), N);
    }

    #[test]
    fn cannon_needs_a_screen_during_the_exchange() {
        // After the rook leaves e2 the cannon on e0 has no screen: it cannot recapture.
        assert_eq!(see("5k3/4r4/9/9/4p4/9/9/4R4/9/3KC4 w", "e2e5"), P - R);
        // With the advisor on e1 as a screen it recaptures the black rook.
        assert_eq!(see("5k3/4r4/9/9/4p4/9/9/4R4/4A4/3KC4 w", "e2e5"), P);
        // The capturing cannon jumps its screen; the black rook retakes.
        assert_eq!(see("5k3/4r4/9/9/4p4/9/4N4/9/9/3KC4 w", "e0e5"), P - C);
        // With the screen a pawn that recaptures, Black does not retake.
        assert_eq!(see("5k3/4r4/9/9/4p4/4P4/9/9/9/3KC4 w", "e0e5"), P);
    }

    /// `least_attacker` as it was before the piece-list filters: every
    /// scan walked, in the same order.
    fn least_attacker_by_scan(
        ex: &Exchange,
        to: usize,
        color: Color,
    ) -> Option<(usize, PieceKind)> {
        let is = |s: usize, kind: PieceKind| {
            CELL_PIECE[ex.cell(s) as usize] == Piece::new(color, kind).index() as u8
        };
        let steps = [
            (PieceKind::Pawn, &PAWN_ATTACKERS[color.index()][to]),
            (PieceKind::Advisor, &ADVISOR_STEPS[to]),
            (PieceKind::Elephant, &ELEPHANT_STEPS[to]),
            (PieceKind::Horse, &HORSE_ATTACKERS[to]),
        ];
        for (kind, list) in steps {
            for (s, via) in list.iter() {
                let blocked =
                    matches!(kind, PieceKind::Elephant | PieceKind::Horse) && ex.occupied(via);
                if is(s, kind) && !blocked {
                    return Some((s, kind));
                }
            }
        }
        let (tf, tr) = (to % FILES, to / FILES);
        let rv = &RANK_VIEW[tf][ex.rank_occ[tr] as usize];
        let fv = &FILE_VIEW[tr][ex.file_occ[tf] as usize];
        for (kind, rank_mask, file_mask) in [
            (PieceKind::Cannon, rv.second, fv.second),
            (PieceKind::Rook, rv.first, fv.first),
        ] {
            let squares = line_bits(rank_mask)
                .map(|f| tr * FILES + f)
                .chain(line_bits(file_mask).map(|r| r * FILES + tf));
            for s in squares {
                if is(s, kind) {
                    return Some((s, kind));
                }
            }
        }
        KING_STEPS[to]
            .iter()
            .find(|&(s, _)| is(s, PieceKind::King))
            .map(|(s, _)| (s, PieceKind::King))
    }

    #[test]
    fn least_attacker_agrees_with_the_plain_scan() {
        // Random games; in each position, every square as the target, for
        // both colours, with up to six pieces already gone to it.
        let mut rng = SplitMix64::new(7);
        let mut compared = 0;
        let mut found = 0;
        for game in 0..40 {
            let mut board = Board::startpos();
            for _ in 0..(40 + game * 3) {
                let moves = board.legal_moves();
                if moves.is_empty() {
                    break;
                }
                board.make_move(moves.as_slice()[rng.below(moves.len() as u64) as usize]);
                for to in 0..SQUARES {
                    let mut ex = Exchange {
                        board: &board,
                        rank_occ: std::array::from_fn(|r| board.rank_occ(r)),
                        file_occ: std::array::from_fn(|f| board.file_occ(f)),
                        gone: 0,
                    };
                    for _ in 0..rng.below(7) {
                        let s = rng.below(SQUARES as u64) as usize;
                        if s != to && ex.occupied(s) {
                            ex.remove(s);
                        }
                    }
                    for color in [Color::Red, Color::Black] {
                        let got = ex.least_attacker(to, color);
                        assert_eq!(got, least_attacker_by_scan(&ex, to, color), "{board} {to}");
                        compared += 1;
                        found += got.is_some() as usize;
                    }
                }
            }
        }
        // The comparison covers both answers, often.
        assert!(
            found > compared / 10 && found < compared / 2,
            "{found} of {compared}"
        );
    }

    #[test]
    fn horse_needs_a_free_leg() {
        assert_eq!(see("5k3/9/2n6/9/4p4/9/9/9/9/3KR4 w", "e0e5"), P);
        assert_eq!(see("5k3/9/9/2n6/4p4/9/9/9/9/3KR4 w", "e0e5"), P - R);
        assert_eq!(see("5k3/9/9/2nn5/4p4/9/9/9/9/3KR4 w", "e0e5"), P);
    }
}
