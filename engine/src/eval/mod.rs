//! Static evaluation, from the side to move's point of view.
//!
//! The evaluation is linear in its weights (`WEIGHTS`, each a
//! middlegame/endgame pair) so that they can be tuned from game results
//! (`jiangjun tune`): `terms` visits every feature of a position and hands
//! (weight index, colour, count) to an accumulator, which either sums the
//! weights (the engine) or records the features (the tuner). Material and
//! piece-square values are kept incrementally by the board.
//!
//! Terms: material (one value per piece in every phase) and piece-square
//! tables (tapered); mobility of rooks, horses and cannons; king safety
//! (missing advisors and elephants against enemy attackers, cannons on the
//! king's file with no or one screen, cannons on the back rank, attackers
//! near the palace); connected crossed pawns; rooks on open files. Then
//! hand-set endgame knowledge (`endgame`): a scale for material that cannot
//! win, and a bonus for known wins.

mod endgame;
pub mod hook;
mod packed;
pub mod params;
pub mod psq;
mod weights;

/// A board with the evaluation's incremental sums (what `evaluate` reads).
use crate::score::Score;
pub use endgame::{KNOWN_WIN, known_win, scale};
use params::*;
pub use weights::WEIGHTS;
use xiangqi::board::Board;
use xiangqi::types::{Color, PieceKind};

// Material is one value in every phase (see `params::MATERIAL`). Here,
// not in `params`, which `weights` reads: the layout and the weights would
// import each other.
const _: () = {
    let mut k = 0;
    while k < 7 {
        assert!(WEIGHTS[MATERIAL + k].0 == WEIGHTS[MATERIAL + k].1);
        k += 1;
    }
};

const fn pack_all() -> [Score; NUM_WEIGHTS] {
    let mut t = [0; NUM_WEIGHTS];
    let mut i = 0;
    while i < NUM_WEIGHTS {
        t[i] = packed::s(WEIGHTS[i].0, WEIGHTS[i].1);
        i += 1;
    }
    t
}

/// The weights packed as the board and the evaluation add them.
pub static WEIGHTS_PACKED: [Score; NUM_WEIGHTS] = pack_all();

/// What the evaluation reads of a position: the board, and the piece-square
/// sums and game phase kept incrementally as moves are made (by
/// `crate::position::Position`, which evaluates through this module).
pub trait Evaluated: std::ops::Deref<Target = Board> {
    /// The piece-square sum of `color` (packed middlegame/endgame score).
    fn psq(&self, color: Color) -> Score;
    /// Phase material on the board (see `psq::PHASE_WEIGHT`).
    fn phase(&self) -> i32;
}

/// Receives the features of a position.
pub trait Accumulator {
    /// `count` times weight `index`, for `color` (Black's terms are subtracted).
    fn add(&mut self, index: usize, color: Color, count: i32);
}

/// Sums the packed weights: Red's total minus Black's.
struct Sum(Score);

impl Accumulator for Sum {
    #[inline(always)]
    fn add(&mut self, index: usize, color: Color, count: i32) {
        let w = WEIGHTS_PACKED[index].wrapping_mul(count);
        match color {
            Color::Red => self.0 = self.0.wrapping_add(w),
            Color::Black => self.0 = self.0.wrapping_sub(w),
        }
    }
}

/// Bonus for having the move.
const TEMPO: Score = 10;

/// Taper a packed score by the game phase of the board.
#[inline(always)]
fn taper(board: &impl Evaluated, packed: Score) -> Score {
    let phase = board.phase().min(psq::MAX_PHASE);
    (packed::mg(packed) * phase + packed::eg(packed) * (psq::MAX_PHASE - phase)) / psq::MAX_PHASE
}

/// Visit every non-material feature of the position.
pub fn terms<A: Accumulator>(board: &Board, acc: &mut A) {
    for us in Color::BOTH {
        let them = us.flip();
        let their_king = board.king_square(them);
        // Their king's square and its steps inside their palace: where attacks hurt.
        let mut palace_zone = board.targets(their_king);
        palace_zone.insert(their_king);
        let mut attackers = 0;
        let (mut horse_attacks, mut cannon_attacks) = (false, false);

        for s in board.squares_of(us, PieceKind::Rook) {
            let (f, r) = (s.file(), s.rank());
            let attacked = board.targets(s);
            acc.add(MOB_ROOK + attacked.len().min(MOB_ROOK_N - 1), us, 1);
            // An open file: nothing of ours in front of the rook.
            let ahead = if us == Color::Red {
                board.file_occ(f) >> (r + 1)
            } else {
                board.file_occ(f) & ((1u16 << r) - 1)
            };
            if ahead == 0 {
                acc.add(ROOK_OPEN_FILE, us, 1);
            }
            if !(attacked & palace_zone).is_empty() {
                attackers += 1;
                acc.add(ATTACKER_ROOK, us, 1);
            }
        }
        for s in board.squares_of(us, PieceKind::Cannon) {
            let (f, r) = (s.file(), s.rank());
            let captures = board.targets(s);
            let reach = board.quiet_targets(s).len() + captures.len();
            acc.add(MOB_CANNON + reach.min(MOB_CANNON_N - 1), us, 1);
            if f == their_king.file() {
                // Pieces between the cannon and their king.
                let (lo, hi) = (r.min(their_king.rank()), r.max(their_king.rank()));
                let between = board.file_occ(f) & ((1u16 << hi) - 1) & !((2u16 << lo) - 1);
                match between.count_ones() {
                    0 => acc.add(CANNON_HOLLOW, us, 1),
                    1 => acc.add(CANNON_CENTRAL, us, 1),
                    _ => {}
                }
            }
            if s.relative_rank(us) == 9 {
                acc.add(CANNON_BOTTOM, us, 1);
            }
            if !(captures & palace_zone).is_empty() {
                attackers += 1;
                cannon_attacks = true;
                acc.add(ATTACKER_CANNON, us, 1);
            }
        }
        for s in board.squares_of(us, PieceKind::Horse) {
            let jumps = board.targets(s);
            // Empty squares and enemy pieces count.
            let reach = jumps
                .iter()
                .filter(|&to| board.piece_at(to).is_none_or(|p| p.color() != us))
                .count();
            acc.add(MOB_HORSE + reach.min(MOB_HORSE_N - 1), us, 1);
            if !(jumps & palace_zone).is_empty() {
                attackers += 1;
                horse_attacks = true;
                acc.add(ATTACKER_HORSE, us, 1);
            }
        }
        // Crossed pawns: side by side, and near their palace.
        let mut pawn_ranks = [0u16; 10];
        for s in board.squares_of(us, PieceKind::Pawn) {
            if s.relative_rank(us) >= 5 {
                pawn_ranks[s.rank()] |= 1 << s.file();
                if !(board.targets(s) & palace_zone).is_empty() {
                    attackers += 1;
                    acc.add(ATTACKER_PAWN, us, 1);
                }
            }
        }
        for row in pawn_ranks {
            acc.add(PAWN_CONNECTED, us, (row & (row >> 1)).count_ones() as i32);
        }
        // Their missing defenders count against them in proportion to our attackers.
        let majors = (board.count(us, PieceKind::Rook)
            + board.count(us, PieceKind::Horse)
            + board.count(us, PieceKind::Cannon)) as i32;
        let missing_advisors = 2 - board.count(them, PieceKind::Advisor) as i32;
        let missing_elephants = 2 - board.count(them, PieceKind::Elephant) as i32;
        acc.add(ADVISOR_MISSING, us, missing_advisors * majors);
        acc.add(ELEPHANT_MISSING, us, missing_elephants * majors);
        acc.add(ATTACKERS + (attackers as usize).min(ATTACKERS_N - 1), us, 1);
        if horse_attacks && cannon_attacks {
            acc.add(HORSE_CANNON, us, 1);
        }
        // Elephants that guard each other.
        let mut el = board.squares_of(us, PieceKind::Elephant);
        if let (Some(a), Some(b)) = (el.next(), el.next())
            && board.targets(a).contains(b)
        {
            acc.add(ELEPHANTS_LINKED, us, 1);
        }
    }
}

/// Evaluation from Red's point of view, without the tempo bonus.
pub fn evaluate_red(board: &impl Evaluated) -> Score {
    let mut sum = Sum(board.psq(Color::Red).wrapping_sub(board.psq(Color::Black)));
    terms(board, &mut sum);
    endgame_knowledge(board, taper(board, sum.0))
}

/// The tapered sum `v` (Red's view) after the endgame rules: scaled down
/// for material that cannot win, and with the known-win bonus.
#[inline(always)]
fn endgame_knowledge(board: &Board, v: Score) -> Score {
    let strong = if v >= 0 { Color::Red } else { Color::Black };
    let s = scale(board, strong);
    let v = if s == 64 { v } else { v * s / 64 };
    v + known_win(board)
}

/// The endgame scale applied to another evaluation's score `v` (side to
/// move's view): the network's. A net learns little of bare-king endings
/// from self-play (few games reach them, and their results do not tell a
/// won ending from a lucky one), so material that cannot win is scaled
/// down as in the hand-made evaluation. Known wins never get here:
/// `Position::evaluate` uses the hand-made evaluation for them, whose push
/// towards the mating pattern lets the search prove the win.
#[inline]
pub(crate) fn endgame_scale(board: &Board, v: Score) -> Score {
    let us = board.side_to_move();
    let strong = if v >= 0 { us } else { us.flip() };
    let s = scale(board, strong);
    if s == 64 { v } else { v * s / 64 }
}

/// Evaluation from the side to move's point of view.
#[inline]
pub fn evaluate(board: &impl Evaluated) -> Score {
    let v = evaluate_red(board);
    let v = if board.side_to_move() == Color::Red {
        v
    } else {
        -v
    };
    v + TEMPO
}

/// The evaluation from the side to move's point of view with, besides
/// material and piece-square values, only the terms whose weight index
/// `keep` accepts, and the endgame rules (the scale for material that
/// cannot win, known wins) only if `scaled`: the UCCI `knowledge` option
/// (see `crate::play::strength`).
pub fn evaluate_partial(
    board: &impl Evaluated,
    keep: impl Fn(usize) -> bool,
    scaled: bool,
) -> Score {
    struct Kept<F>(Sum, F);
    impl<F: Fn(usize) -> bool> Accumulator for Kept<F> {
        #[inline(always)]
        fn add(&mut self, index: usize, color: Color, count: i32) {
            if (self.1)(index) {
                self.0.add(index, color, count);
            }
        }
    }
    let psq = board.psq(Color::Red).wrapping_sub(board.psq(Color::Black));
    let mut acc = Kept(Sum(psq), keep);
    terms(board, &mut acc);
    let mut v = taper(board, acc.0.0);
    if scaled {
        v = endgame_knowledge(board, v);
    }
    let v = if board.side_to_move() == Color::Red {
        v
    } else {
        -v
    };
    v + TEMPO
}

/// A human-readable breakdown for the `eval` command, ending with
/// `final evaluation R (red side), S (side to move)`.
pub fn trace(board: &impl Evaluated) -> String {
    trace_as(board, "final evaluation")
}

/// `trace` with another label for its last line (`hand-made evaluation`
/// when a network has the final word).
pub fn trace_as(board: &impl Evaluated, label: &str) -> String {
    struct Named(Vec<(usize, Color, i32)>);
    impl Accumulator for Named {
        fn add(&mut self, index: usize, color: Color, count: i32) {
            if count != 0 {
                self.0.push((index, color, count));
            }
        }
    }
    let mut named = Named(Vec::new());
    terms(board, &mut named);
    let mut out = String::new();
    for c in Color::BOTH {
        let p = board.psq(c);
        out.push_str(&format!(
            "{:<6} material+psq  mg {:>6}  eg {:>6}\n",
            c.name(),
            packed::mg(p),
            packed::eg(p)
        ));
    }
    let mut by_term: std::collections::BTreeMap<&str, [(i32, i32); 2]> = Default::default();
    for (i, c, n) in named.0 {
        let (mg, eg) = WEIGHTS[i];
        let e = by_term.entry(term_name(i)).or_default();
        e[c.index()].0 += mg * n;
        e[c.index()].1 += eg * n;
    }
    for (name, [r, b]) in by_term {
        out.push_str(&format!(
            "{name:<18} red mg {:>5} eg {:>5}   black mg {:>5} eg {:>5}\n",
            r.0, r.1, b.0, b.1
        ));
    }
    let known = known_win(board);
    if known != 0 {
        out.push_str(&format!("known win          {known:+} (red side)\n"));
    }
    out.push_str(&format!(
        "phase {} of {}\n{label} {} (red side), {} (side to move)\n",
        board.phase(),
        psq::MAX_PHASE,
        evaluate_red(board),
        evaluate(board)
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    #[test]
    fn start_position_is_balanced() {
        let b = Position::startpos();
        assert_eq!(evaluate_red(&b), 0);
        assert_eq!(evaluate(&b), TEMPO);
    }

    #[test]
    fn mirrored_and_colour_flipped_positions_agree() {
        for fen in [
            "2bak4/4a4/4b1n2/p1p1p3p/9/2P3p2/P3P3P/4B1N2/4A4/2BAK4 w",
            "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w",
            "3ak1b2/4a4/4b4/p3p3p/9/2P3P2/P3P3P/4B4/4A4/2BAK4 w",
        ] {
            let b = Position::from_fen(fen).unwrap();
            assert_eq!(
                evaluate_red(&b),
                evaluate_red(&Position::new(b.mirrored())),
                "{fen}"
            );
            // The same position with colours swapped scores the negation.
            let flipped = colour_flip(&b);
            assert_eq!(evaluate_red(&b), -evaluate_red(&flipped), "{fen}");
        }
    }

    /// The position seen from the other side: ranks reversed, colours swapped.
    fn colour_flip(b: &Position) -> Position {
        let fen = b.to_fen();
        let mut parts = fen.split(' ');
        let board: Vec<String> = parts
            .next()
            .unwrap()
            .split('/')
            .rev()
            .map(|r| {
                r.chars()
                    .rev()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        let side = if parts.next() == Some("w") { "b" } else { "w" };
        Position::from_fen(&format!("{} {side}", board.join("/"))).unwrap()
    }

    #[test]
    fn extra_rook_is_winning() {
        // A rook up against a bare king is a forced win (tests/forced_wins.rs
        // proves it by search): the static score says so, for either colour
        // and either side to move.
        for (fen, red_wins) in [
            ("3k5/9/9/9/9/9/9/9/9/R3K4 w", true),
            ("3k5/9/9/9/9/9/9/9/9/R3K4 b", true),
            ("4k4/9/9/9/9/9/9/9/4R4/3K5 b", true),
            ("r3k4/9/9/9/9/9/9/9/9/3K5 w", false),
            ("r3k4/9/9/9/9/9/9/9/9/3K5 b", false),
        ] {
            let b = Position::from_fen(fen).unwrap();
            let red = evaluate_red(&b);
            assert!(
                if red_wins { red > 800 } else { red < -800 },
                "{fen}: {red}"
            );
            let winner_to_move = (b.side_to_move() == Color::Red) == red_wins;
            let stm = evaluate(&b);
            assert!(
                if winner_to_move {
                    stm > 800
                } else {
                    stm < -800
                },
                "{fen}: {stm}"
            );
        }
        // More material is better.
        let two = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K3R w").unwrap();
        assert!(
            evaluate(&two) > evaluate(&Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w").unwrap())
        );
    }

    #[test]
    fn known_draws_are_near_zero() {
        // Bare kings, and kings with defenders only: nothing can mate.
        for fen in [
            "3k5/9/9/9/9/9/9/9/9/4K4 w",
            "3ak4/4a4/9/9/9/9/9/9/9/2B1K1B2 b",
            "2bakab2/9/9/9/9/9/9/9/9/3K1A3 w",
        ] {
            let b = Position::from_fen(fen).unwrap();
            assert_eq!(evaluate_red(&b), 0, "{fen}");
        }
        // A lone rook against both advisors and both elephants holds
        // (单车难胜士象全): far less than against two advisors (a win).
        let full = evaluate_red(&Position::from_fen("2bakab2/9/9/9/9/9/9/9/3R5/3K5 w").unwrap());
        let two = evaluate_red(&Position::from_fen("3ak4/4a4/9/9/9/9/9/9/3R5/3K5 w").unwrap());
        assert!((0..400).contains(&full) && two > 3 * full, "{full} {two}");
    }

    /// What a piece adds to the evaluation (Red's view): `with` minus
    /// `without`, with everything, or with material and tables only.
    fn worth(with: &str, without: &str, everything: bool) -> i32 {
        let eval = |fen: &str| {
            let b = Position::from_fen(fen).unwrap();
            if everything {
                evaluate(&b)
            } else {
                evaluate_partial(&b, |_| false, false)
            }
        };
        eval(with) - eval(without)
    }

    #[test]
    fn piece_values_are_sane_in_every_phase() {
        // Red pieces taken from the start position (the opening), and added
        // to (or taken from) kings, defenders and pawns (an endgame): what
        // each is worth there. Kinds: advisor, elephant, horse, rook, cannon,
        // pawn.
        let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
        let opening = |all| {
            [
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNB1KABNR w",
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RN1AKABNR w",
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/R1BAKABNR w",
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR w",
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/7C1/9/RNBAKABNR w",
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P3P1P/1C5C1/9/RNBAKABNR w",
            ]
            .map(|without| worth(start, without, all))
        };
        let base = "2bakab2/9/9/p3p3p/9/9/P3P3P/9/9/2BAKAB2 w";
        let endgame = |all| {
            [
                worth(base, "2bakab2/9/9/p3p3p/9/9/P3P3P/9/9/2B1KAB2 w", all),
                worth(base, "2bakab2/9/9/p3p3p/9/9/P3P3P/9/9/3AKAB2 w", all),
                worth("2bakab2/9/9/p3p3p/9/9/P3P3P/2N6/9/2BAKAB2 w", base, all),
                worth("2bakab2/9/9/p3p3p/9/9/P3P3P/9/R8/2BAKAB2 w", base, all),
                worth("2bakab2/9/9/p3p3p/9/9/P3P3P/1C7/9/2BAKAB2 w", base, all),
                worth(base, "2bakab2/9/9/p3p3p/9/9/P7P/9/9/2BAKAB2 w", all),
            ]
        };
        // Material and tables: the order every player knows.
        for v in [opening(false), endgame(false)] {
            let [advisor, elephant, horse, rook, cannon, pawn] = v;
            let msg = format!("{v:?}");
            assert!(advisor > 0 && elephant > 0 && pawn > 0, "{msg}");
            assert!(rook > horse && rook > cannon, "{msg}");
            assert!(3 * horse > 2 * cannon && 3 * cannon > 2 * horse, "{msg}");
            assert!(horse.min(cannon) > advisor.max(elephant), "{msg}");
        }
        // With everything (king safety makes a defender worth more against
        // many attackers), every piece is still worth having.
        for v in [opening(true), endgame(true)] {
            assert!(v.iter().all(|&x| x > 0), "{v:?}");
        }
    }

    #[test]
    fn material_that_cannot_win_scales_down() {
        // A lone horse against full defenders.
        let b = Position::from_fen("2bakab2/9/9/9/9/9/9/9/4N4/4K4 w").unwrap();
        assert!(evaluate(&b).abs() < 150, "{}", evaluate(&b));
        // Advisors only: nothing can win.
        let b = Position::from_fen("3ak4/9/9/9/9/9/9/9/4A4/3AK4 w").unwrap();
        assert_eq!(evaluate_red(&b), 0);
    }
}
