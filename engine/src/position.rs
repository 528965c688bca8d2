//! The search's position: a rules-library board plus what the evaluation
//! keeps incrementally over it (material and piece-square sums, the game
//! phase, and with a network the NNUE accumulators). The rules library
//! knows nothing of evaluation, so the engine wraps its board and updates
//! these on every make and unmake.
//!
//! [`Position::evaluate`] is the one static evaluation the search uses: the
//! network's when the position was built with one, else the hand-made one.
//! Without a network the only extra work is one `Option` test per make,
//! unmake and evaluation.

use crate::eval::hook::EvalHook;
use crate::eval::{self, psq};
use crate::nnue::{AccumulatorStack, Network};
use crate::score::{SCORE_TB_WIN_MIN, Score};
use std::ops::Deref;
use std::sync::Arc;
use xiangqi::board::PieceValues;
use xiangqi::{Board, Color, FenError, Move, PieceKind, SQUARES, Square};

/// Piece values for static exchange evaluation (`eval::psq::see_value`):
/// the tuned material, defenders with their share of king safety, and a
/// king worth more than everything else.
pub(crate) const SEE_VALUES: PieceValues = {
    let mut v = [0; 7];
    let mut k = 0;
    while k < 7 {
        v[k] = psq::see_value(PieceKind::from_index(k));
        k += 1;
    }
    v
};

/// The network's scores are clamped to this, below the mate range and the
/// endgame tables' wins: the search and the table read scores beyond
/// `SCORE_MATE_IN_MAX` as mates, a table win must beat every evaluation,
/// and an untrained (or random) network can produce anything. The
/// hand-made evaluation stays far inside it by construction.
pub(crate) const NNUE_EVAL_LIMIT: Score = SCORE_TB_WIN_MIN - 1;

/// The network and one accumulator per ply since the position was set.
#[derive(Clone)]
struct Nnue {
    net: Arc<Network>,
    stack: AccumulatorStack,
}

// Out of line, so that the hand-made evaluation's search keeps only an
// `Option` test of this in its make, unmake and evaluation.
impl Nnue {
    #[inline(never)]
    fn push_move(&mut self, board: &Board, mv: Move) {
        self.stack.push_move(&self.net, board, mv);
    }

    #[inline(never)]
    fn push_null(&mut self) {
        self.stack.push_null();
    }

    /// The network's score with the endgame scale (`eval::endgame_scale`).
    #[inline(never)]
    fn evaluate(&mut self, board: &Board) -> Score {
        let v = self.stack.evaluate(&self.net, board.side_to_move());
        eval::endgame_scale(board, v).clamp(-NNUE_EVAL_LIMIT, NNUE_EVAL_LIMIT)
    }
}

/// Evaluation sums saved before a move, restored by its unmake.
#[derive(Clone, Copy)]
struct Saved {
    psq: [Score; 2],
    phase: i32,
}

/// A board with incrementally kept evaluation sums. Read the board through
/// `Deref`; change it only through `make_move`/`unmake_move` (and the null
/// move pair) so that the sums follow.
#[derive(Clone)]
pub struct Position {
    board: Board,
    /// Piece-square sums (material included), per side, packed mg/eg.
    psq: [Score; 2],
    /// Sum of the phase weights of the pieces on the board.
    phase: i32,
    saved: Vec<Saved>,
    /// The network evaluation's state, if the evaluation is a network.
    nnue: Option<Nnue>,
    /// How the evaluation differs from the full one, if it does (set by
    /// the play layer around the search: `eval::hook`).
    hook: Option<EvalHook>,
}

impl Position {
    /// Wrap a board, computing the sums from scratch; the hand-made
    /// evaluation.
    pub fn new(board: Board) -> Position {
        Position::with_network(board, None)
    }

    /// Wrap a board, evaluated by `net` if given (its accumulators computed
    /// from scratch here, then kept by make and unmake), else by the
    /// hand-made evaluation.
    pub fn with_network(board: Board, net: Option<Arc<Network>>) -> Position {
        let (psq, phase) = sums(&board);
        let nnue = net.map(|net| Nnue {
            stack: AccumulatorStack::new(&net, &board),
            net,
        });
        Position {
            board,
            psq,
            phase,
            saved: Vec::with_capacity(256),
            nnue,
            hook: None,
        }
    }

    /// Evaluate through `hook` from now on (`None`: the full evaluation).
    pub fn with_eval_hook(mut self, hook: Option<EvalHook>) -> Position {
        self.hook = hook;
        self
    }

    /// The start position.
    pub fn startpos() -> Position {
        Position::new(Board::startpos())
    }

    /// Parse a FEN (see `Board::from_fen`).
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Board::from_fen(fen).map(Position::new)
    }

    /// The board.
    #[inline(always)]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Phase material on the board (see `eval::psq::PHASE_WEIGHT`).
    #[inline(always)]
    pub fn phase(&self) -> i32 {
        self.phase
    }

    /// The network that evaluates this position, if any.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.nnue.as_ref().map(|n| &n.net)
    }

    /// The static evaluation from the side to move's point of view: the
    /// network's after the endgame scale (`eval::endgame_scale`; clamped to
    /// ±`NNUE_EVAL_LIMIT`) if the position has one, else (and in known
    /// wins) the hand-made `eval::evaluate`.
    /// With an evaluation hook, the hook's evaluation instead.
    #[inline]
    pub fn evaluate(&mut self) -> Score {
        match self.hook {
            None => self.evaluate_in_full(),
            Some(hook) => {
                let v = match hook.partial(self) {
                    Some(v) => v,
                    None => self.evaluate_in_full(),
                };
                v + hook.noise(self.board.key())
            }
        }
    }

    /// The full evaluation, whatever the hook.
    #[inline]
    fn evaluate_in_full(&mut self) -> Score {
        match &mut self.nnue {
            // Not in a known win (a rook against a king with at most two
            // defenders, and the like), where the hand-made evaluation's
            // push towards the mating pattern lets the search prove the
            // win; the network saw too few such endings to lead it there.
            Some(n) if eval::known_win(&self.board) == 0 => n.evaluate(&self.board),
            _ => eval::evaluate(self),
        }
    }

    /// Make a pseudo-legal move.
    #[inline]
    pub fn make_move(&mut self, mv: Move) {
        if let Some(n) = &mut self.nnue {
            // The update reads the board before the move.
            n.push_move(&self.board, mv);
        }
        self.saved.push(Saved {
            psq: self.psq,
            phase: self.phase,
        });
        if let Some(piece) = self.board.piece_at(mv.from()) {
            let us = piece.color().index();
            self.psq[us] += psq::delta(piece.index(), mv.from().index(), mv.to().index());
        }
        if let Some(cp) = self.board.piece_at(mv.to()) {
            self.psq[cp.color().index()] -= psq::value(cp, mv.to());
            self.phase -= psq::PHASE_WEIGHT[cp.kind().index()];
        }
        self.board.make_move(mv);
    }

    /// Take back the last `make_move`.
    #[inline]
    pub fn unmake_move(&mut self) {
        self.board.unmake_move();
        if let Some(s) = self.saved.pop() {
            self.psq = s.psq;
            self.phase = s.phase;
        }
        if let Some(n) = &mut self.nnue {
            n.stack.pop();
        }
    }

    /// Pass (null-move pruning); the sums do not change.
    #[inline]
    pub(crate) fn make_null(&mut self) {
        self.board.make_null();
        if let Some(n) = &mut self.nnue {
            // A ply of its own, so that every unmake pops one.
            n.push_null();
        }
    }

    /// Take back `make_null`.
    #[inline]
    pub(crate) fn unmake_null(&mut self) {
        self.board.unmake_null();
        if let Some(n) = &mut self.nnue {
            n.stack.pop();
        }
    }

    /// Mutable access to the board for rules code that makes and takes back
    /// moves of its own (chase and dead-draw tests): it must leave the board
    /// as it found it, or the sums and accumulators no longer match.
    pub(crate) fn board_mut(&mut self) -> &mut Board {
        &mut self.board
    }

    /// Static exchange evaluation with the engine's piece values.
    #[inline]
    pub(crate) fn see_ge(&self, mv: Move, threshold: i32) -> bool {
        self.board.see_ge(mv, threshold, &SEE_VALUES)
    }

    /// The incremental sums equal sums computed from scratch. For tests.
    #[cfg(test)]
    pub(crate) fn sums_are_consistent(&self) -> bool {
        sums(&self.board) == (self.psq, self.phase)
    }

    /// Plies whose accumulator updates are still pending (0 without a
    /// network). For tests.
    #[cfg(test)]
    pub(crate) fn owed_plies(&self) -> usize {
        self.nnue.as_ref().map_or(0, |n| n.stack.owed_plies())
    }

    /// The network's accumulator equals one computed from scratch (true
    /// without a network). For tests.
    /// (It brings the accumulator up to date first, as an evaluation would.)
    #[cfg(test)]
    pub(crate) fn accumulator_is_consistent(&mut self) -> bool {
        self.nnue.as_mut().is_none_or(|n| {
            let fresh = crate::nnue::Accumulator::from_board(&n.net, &self.board);
            n.stack.current(&n.net) == &fresh
        })
    }
}

/// The hand-made evaluation reads the incremental sums through this.
impl eval::Evaluated for Position {
    /// Incremental piece-square sum of `color` (packed middlegame/endgame score).
    #[inline(always)]
    fn psq(&self, color: Color) -> Score {
        self.psq[color.index()]
    }

    #[inline(always)]
    fn phase(&self) -> i32 {
        self.phase
    }
}

impl Deref for Position {
    type Target = Board;

    #[inline(always)]
    fn deref(&self) -> &Board {
        &self.board
    }
}

impl From<Board> for Position {
    fn from(board: Board) -> Position {
        Position::new(board)
    }
}

fn sums(board: &Board) -> ([Score; 2], i32) {
    let mut psq_sum = [0; 2];
    let mut phase = 0;
    for i in 0..SQUARES {
        let sq = Square::from_index(i).expect("index below SQUARES");
        if let Some(p) = board.piece_at(sq) {
            psq_sum[p.color().index()] += psq::value(p, sq);
            phase += psq::PHASE_WEIGHT[p.kind().index()];
        }
    }
    (psq_sum, phase)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::Accumulator;

    /// A fixed linear congruential sequence: `next(n)` is below `n`.
    fn picker(mut seed: u64) -> impl FnMut(usize) -> usize {
        move |n| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) as usize % n
        }
    }

    /// Walk random legal games (a fixed linear congruential sequence picks
    /// the moves), checking the sums after every make and every unmake.
    #[test]
    fn sums_follow_make_and_unmake() {
        let mut next = picker(0x9e37_79b9_7f4a_7c15);
        for _ in 0..40 {
            let mut pos = Position::startpos();
            let mut sums_before = Vec::new();
            for _ in 0..150 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves.as_slice()[next(moves.len())];
                sums_before.push((pos.psq, pos.phase));
                pos.make_move(m);
                assert!(pos.sums_are_consistent(), "after {m}");
                if !pos.in_check() && next(4) == 0 {
                    pos.make_null();
                    assert!(pos.sums_are_consistent());
                    pos.unmake_null();
                }
            }
            while let Some(before) = sums_before.pop() {
                pos.unmake_move();
                assert_eq!((pos.psq, pos.phase), before);
                assert!(pos.sums_are_consistent());
            }
            assert_eq!(pos.key(), Board::startpos().key());
        }
    }

    /// Random games with null moves, made and unmade in random runs through
    /// `Position` with a random network: after a step the incremental
    /// accumulator and evaluation equal those of a position built from
    /// scratch, and the hand-made sums still follow. Half the runs check
    /// after every step; the others after one step in three, so that the
    /// lazy updates catch up over several plies, moves and null moves
    /// mixed, and across unmakes.
    #[test]
    fn network_evaluation_follows_make_unmake_and_null() {
        let net = Arc::new(Network::random(0x51));
        let mut next = picker(0x2545_f491_4f6c_dd1d);
        let fresh = |pos: &Position| {
            Position::with_network(pos.board().clone(), Some(net.clone())).evaluate()
        };
        let mut lazy_catch_ups = 0;
        for game in 0..32 {
            let every_step = game % 2 == 0;
            let mut pos = Position::with_network(Board::startpos(), Some(net.clone()));
            // What each step made: true for a null move.
            let mut made: Vec<bool> = Vec::new();
            for step in 0..200 {
                if !made.is_empty() && next(5) == 0 {
                    // Back a few plies.
                    for _ in 0..1 + next(4) {
                        match made.pop() {
                            Some(true) => pos.unmake_null(),
                            Some(false) => pos.unmake_move(),
                            None => break,
                        }
                        if every_step || next(3) == 0 {
                            assert_eq!(pos.evaluate(), fresh(&pos), "game {game} step {step}");
                            assert!(pos.accumulator_is_consistent(), "game {game} step {step}");
                        }
                    }
                    continue;
                }
                let null_ok = !pos.in_check() && made.last() != Some(&true);
                if null_ok && next(6) == 0 {
                    pos.make_null();
                    made.push(true);
                } else {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    pos.make_move(moves.as_slice()[next(moves.len())]);
                    made.push(false);
                }
                let fen = pos.to_fen();
                assert!(pos.sums_are_consistent(), "game {game}: {fen}");
                if every_step || next(3) == 0 {
                    lazy_catch_ups += (!every_step && pos.owed_plies() > 1) as usize;
                    assert_eq!(pos.evaluate(), fresh(&pos), "game {game}: {fen}");
                    assert!(pos.accumulator_is_consistent(), "game {game}: {fen}");
                    assert_eq!(pos.owed_plies(), 0);
                }
            }
        }
        assert!(
            lazy_catch_ups > 100,
            "{lazy_catch_ups} catch-ups over several plies"
        );
    }

    /// The network's score is the side to move's `nnue::evaluate` of a
    /// fresh accumulator; without a network it is the hand-made evaluation.
    #[test]
    fn evaluate_is_the_network_or_the_hand_made_evaluation() {
        let net = Arc::new(Network::random(3));
        for fen in [
            xiangqi::START_FEN,
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 b - - 0 1",
        ] {
            let board = Board::from_fen(fen).unwrap();
            let hce = Position::new(board.clone());
            assert!(hce.network().is_none());
            let mut hce = hce;
            assert_eq!(hce.evaluate(), eval::evaluate(&hce), "{fen}");
            let mut pos = Position::with_network(board.clone(), Some(net.clone()));
            let acc = Accumulator::from_board(&net, &board);
            let want = crate::nnue::evaluate(&net, &acc, board.side_to_move());
            assert_eq!(pos.evaluate(), eval::endgame_scale(&board, want), "{fen}");
            assert!(Arc::ptr_eq(pos.network().unwrap(), &net));
        }
    }

    /// A network whose every output is huge is kept out of the mate range.
    #[test]
    fn network_scores_stay_below_the_mate_range() {
        use crate::nnue::{Arch, MAX_L1_WEIGHT, MAX_OUT_WEIGHT};
        let a = Arch::NET2;
        for sign in [1, -1] {
            let net = Network::new(
                a,
                &vec![0; a.inputs() * a.l1],
                &vec![MAX_L1_WEIGHT; a.l1],
                &vec![sign * MAX_OUT_WEIGHT; a.output_buckets * 2 * a.l1],
                &vec![0; a.output_buckets],
            )
            .unwrap();
            let net = Arc::new(net);
            let board = Board::startpos();
            let raw =
                crate::nnue::evaluate(&net, &Accumulator::from_board(&net, &board), Color::Red);
            assert!(raw.abs() > NNUE_EVAL_LIMIT, "{raw}");
            let mut pos = Position::with_network(board, Some(net));
            assert_eq!(pos.evaluate(), sign as Score * NNUE_EVAL_LIMIT);
        }
    }
}
