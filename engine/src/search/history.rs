//! Move-ordering statistics learnt during the search: a butterfly history
//! (side, origin, target), continuation histories (the previous moves'
//! piece and target against this move's piece and target), a capture
//! history (piece, target, captured kind) and counter-moves. All are
//! updated with a gravity formula that keeps values bounded and lets old
//! information fade.

use crate::large_pages::LargeBuf;
use xiangqi::board::Board;
use xiangqi::types::{Color, Move, Piece, SQUARES};

pub(crate) const MAX_HISTORY: i32 = 16384;

const PIECES: usize = Piece::COUNT;
/// Size of one continuation sub-table: (piece, target) of the current move.
pub(crate) const CONT_SIZE: usize = PIECES * SQUARES;

/// Index of a (piece, target) pair.
#[inline(always)]
pub(crate) fn piece_to(piece: Piece, to: usize) -> usize {
    piece.index() * SQUARES + to
}

pub(crate) struct Histories {
    butterfly: Vec<i16>,
    capture: Vec<i16>,
    /// `continuation[prev * CONT_SIZE + cur]` where prev and cur are (piece, to) indices;
    /// 3 MB read at random, so in huge pages where possible.
    continuation: LargeBuf<i16>,
    counter: Vec<Move>,
}

impl Default for Histories {
    fn default() -> Self {
        Self::new()
    }
}

#[inline(always)]
fn butterfly_index(side: Color, m: Move) -> usize {
    (side.index() * SQUARES + m.from().index()) * SQUARES + m.to().index()
}

/// Move `entry` toward `bonus` (positive or negative), saturating at the maximum.
#[inline(always)]
fn gravity(entry: &mut i16, bonus: i32) {
    let e = *entry as i32;
    let b = bonus.clamp(-MAX_HISTORY, MAX_HISTORY);
    *entry = (e + b - e * b.abs() / MAX_HISTORY) as i16;
}

/// The previous moves a quiet move is judged against: continuation
/// sub-table offsets of the moves one and two plies back (if any).
#[derive(Clone, Copy, Default)]
pub(crate) struct Context {
    pub cont: [Option<usize>; 2],
}

impl Histories {
    pub(crate) fn new() -> Histories {
        Histories {
            butterfly: vec![0; 2 * SQUARES * SQUARES],
            capture: vec![0; PIECES * SQUARES * 7],
            continuation: LargeBuf::zeros(CONT_SIZE * CONT_SIZE),
            counter: vec![Move::NONE; CONT_SIZE],
        }
    }

    pub(crate) fn clear(&mut self) {
        self.butterfly.fill(0);
        self.capture.fill(0);
        self.continuation.fill(0);
        self.counter.fill(Move::NONE);
    }

    /// Ordering score of a quiet move.
    #[inline]
    pub(crate) fn quiet_score(&self, board: &Board, ctx: &Context, m: Move) -> i32 {
        let side = board.side_to_move();
        let mut s = self.butterfly[butterfly_index(side, m)] as i32;
        if let Some(p) = board.piece_at(m.from()) {
            let cur = piece_to(p, m.to().index());
            for c in ctx.cont.iter().flatten() {
                s += self.continuation[c * CONT_SIZE + cur] as i32;
            }
        }
        s
    }

    #[inline]
    fn capture_index(board: &Board, m: Move) -> Option<usize> {
        let p = board.piece_at(m.from())?;
        let v = board.piece_at(m.to())?;
        Some((p.index() * SQUARES + m.to().index()) * 7 + v.kind().index())
    }

    /// History part of a capture's ordering score.
    #[inline]
    pub(crate) fn capture_score(&self, board: &Board, m: Move) -> i32 {
        Self::capture_index(board, m).map_or(0, |i| self.capture[i] as i32)
    }

    pub(crate) fn counter_move(&self, prev: Option<usize>) -> Move {
        prev.map_or(Move::NONE, |p| self.counter[p])
    }

    /// A quiet move caused a cutoff: reward it by `bonus`, punish the quiet
    /// moves tried before it by `malus` (both from `SearchParams`, by depth).
    pub(crate) fn update_quiets(
        &mut self,
        board: &Board,
        ctx: &Context,
        best: Move,
        tried: &[Move],
        bonus: i32,
        malus: i32,
    ) {
        let side = board.side_to_move();
        let mut apply = |m: Move, delta: i32| {
            gravity(&mut self.butterfly[butterfly_index(side, m)], delta);
            if let Some(p) = board.piece_at(m.from()) {
                let cur = piece_to(p, m.to().index());
                for c in ctx.cont.iter().flatten() {
                    gravity(&mut self.continuation[c * CONT_SIZE + cur], delta);
                }
            }
        };
        apply(best, bonus);
        for &m in tried {
            if m != best {
                apply(m, -malus);
            }
        }
        if let Some(prev) = ctx.cont[0] {
            self.counter[prev] = best;
        }
    }

    /// A move caused a cutoff: reward it by `bonus` if a capture, and
    /// punish the captures tried before it by `malus`.
    pub(crate) fn update_captures(
        &mut self,
        board: &Board,
        best: Option<Move>,
        tried: &[Move],
        bonus: i32,
        malus: i32,
    ) {
        if let Some(m) = best
            && let Some(i) = Self::capture_index(board, m)
        {
            gravity(&mut self.capture[i], bonus);
        }
        for &m in tried {
            if Some(m) != best
                && let Some(i) = Self::capture_index(board, m)
            {
                gravity(&mut self.capture[i], -malus);
            }
        }
    }
}

/// Per-thread tables kept from one search to the next.
#[derive(Default)]
pub(crate) struct ThreadData {
    pub hist: Histories,
}

impl ThreadData {
    pub(crate) fn clear(&mut self) {
        self.hist.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_stays_within_bounds() {
        let mut e = 0i16;
        for _ in 0..1000 {
            gravity(&mut e, 1600);
            assert!((e as i32) <= MAX_HISTORY);
        }
        assert!(e as i32 > MAX_HISTORY - 200, "{e}");
        for _ in 0..1000 {
            gravity(&mut e, -1_000_000);
            assert!((e as i32) >= -MAX_HISTORY);
        }
        assert_eq!(e as i32, -MAX_HISTORY);
        // A bonus moves an entry less the closer it already is to the bound.
        let (mut low, mut high) = (0i16, 12000i16);
        gravity(&mut low, 1000);
        gravity(&mut high, 1000);
        assert!(low > high - 12000);
    }

    /// The bonus and malus of a cutoff at `depth`, as the search gives them.
    fn deltas(depth: i32) -> (i32, i32) {
        let p = super::super::params::SearchParams::DEFAULT;
        (p.history_bonus(depth), p.history_malus(depth))
    }

    #[test]
    fn bonus_grows_with_depth_and_is_capped() {
        assert_eq!(deltas(0).0, 0);
        assert!(deltas(2).0 < deltas(3).0);
        assert_eq!(deltas(50), (1600, 1600));
    }

    #[test]
    fn quiet_update_rewards_the_cutoff_and_punishes_the_rest() {
        let board = Board::startpos();
        let mut h = Histories::new();
        let ctx = Context {
            cont: [
                Some(piece_to(
                    Piece::new(Color::Black, xiangqi::PieceKind::Horse),
                    42,
                )),
                None,
            ],
        };
        let best = board.parse_move("h2e2").unwrap();
        let worse = board.parse_move("a3a4").unwrap();
        let other = board.parse_move("c3c4").unwrap();
        let (bonus, malus) = deltas(6);
        h.update_quiets(&board, &ctx, best, &[worse, best], bonus, malus);
        assert!(h.quiet_score(&board, &ctx, best) > 0);
        assert!(h.quiet_score(&board, &ctx, worse) < 0);
        assert_eq!(h.quiet_score(&board, &ctx, other), 0);
        // The continuation part counts only after the same previous move.
        let fresh = Context::default();
        assert!(h.quiet_score(&board, &fresh, best) < h.quiet_score(&board, &ctx, best));
        // The counter-move table remembers the reply to the previous move.
        assert_eq!(h.counter_move(ctx.cont[0]), best);
        assert_eq!(h.counter_move(None), Move::NONE);
        // The tables are per side: Black's score of the same squares is untouched.
        let mut black = board.clone();
        black.make_move(other);
        assert_eq!(
            h.quiet_score(&black, &fresh, Move::parse("h2e2").unwrap()),
            0
        );
        h.clear();
        assert_eq!(h.quiet_score(&board, &ctx, best), 0);
        assert_eq!(h.counter_move(ctx.cont[0]), Move::NONE);
    }

    #[test]
    fn capture_update_by_piece_target_and_victim() {
        let board = Board::from_fen("4k4/9/9/4p4/4R4/9/9/9/9/3K5 w - - 0 1").unwrap();
        let take = board.parse_move("e5e6").unwrap();
        let quiet = board.parse_move("e5a5").unwrap();
        let mut h = Histories::new();
        let (bonus, malus) = deltas(8);
        h.update_captures(&board, Some(take), &[take], bonus, malus);
        assert!(h.capture_score(&board, take) > 0);
        // Quiet moves have no capture history.
        assert_eq!(h.capture_score(&board, quiet), 0);
        let rewarded = h.capture_score(&board, take);
        h.update_captures(&board, Some(quiet), &[take], bonus, malus);
        assert!(
            h.capture_score(&board, take) < rewarded,
            "tried before a cutoff: punished"
        );
    }
}
