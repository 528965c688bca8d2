//! Threat squares: inputs that name the attacker's square, read by a
//! narrow accumulator of their own beside the first layer (`Arch::side`).
//!
//! # Inputs
//!
//! One input per (attacker, the square it stands on, attacked piece, the
//! square that piece stands on), for every attack in the sense of
//! [`threats`](super::threats) (friend or foe, a cannon through its
//! screen). Only the (attacker, from, to) *pairs* some position can hold
//! are counted: each piece on the squares it may stand on (an elephant on
//! its seven, an advisor on its five, a king in its palace, a pawn on the
//! squares ahead of its start), towards the squares its move geometry
//! reaches from there (a cannon never attacks a neighbouring square: its
//! screen stands between). That gives [`SIDE_PAIRS`] pairs, times 14
//! attacked pieces:
//!
//! ```text
//! SIDE_INPUTS = 6,840 pairs × 14 attacked pieces = 95,760 inputs
//! index = pair(attacker, from, to) · 14 + attacked piece
//! ```
//!
//! Each perspective reads the board as the piece-square inputs do: Red's as
//! it is, Black's with the colours swapped and the ranks flipped.
//!
//! # Why a separate accumulator
//!
//! Into net 9's 1,024 units, as `i16`, these inputs would take 187 MiB; the
//! repository takes no network over 8 MiB. A side accumulator of 16 units
//! per perspective takes 2.9 MiB. Its units go through SCReLU into the
//! same output as the first layer's (the side to move's half, then the
//! other's, per output bucket), added to its sum before the one rounding
//! (`nnue`'s formula), so a net grown with the side output weights at zero
//! evaluates exactly as the net it grew from.
//!
//! # Keeping it up to date
//!
//! An accumulator keeps the squares, how many attacks there are and the
//! side values (`i32`: no bound on how many attacks add up); a move applies
//! the rows of the attacks that its two squares change (found without the
//! whole list: [`attack_change`](super::attack_change)). A position from a FEN may put a piece
//! where no game can (a pawn behind its start): its attacks that are no
//! pair are no input, in the engine and the trainer alike.

use super::attack_change::{AttackBoard, attack_count, for_each_changed_attack};
use super::block::SortedList;
use super::simd;
use super::threats::{MAX_THREATS, Squares, diff, flip_rank, for_each_attack, swap_colour};
use xiangqi::{Color, FILES, PieceKind, RANKS, SQUARES};

/// Pairs (attacker, from, to) of one colour's attackers.
pub const PAIRS_PER_COLOUR: usize = 3_420;
/// Pairs of both colours.
pub const SIDE_PAIRS: usize = 2 * PAIRS_PER_COLOUR;
/// Side inputs per perspective: every pair times the 14 attacked pieces.
pub const SIDE_INPUTS: usize = SIDE_PAIRS * 14;
/// Side accumulator widths are multiples of this ...
pub const SIDE_STEP: usize = 16;
/// ... up to this.
pub const MAX_SIDE: usize = 64;

const NONE: u16 = u16::MAX;

/// `index[piece][from][to]`: the pair's number, or `NONE`.
struct Pairs {
    index: [[[u16; SQUARES]; SQUARES]; 14],
    /// Each pair's attacker, its square and its target.
    parts: [[u8; 3]; SIDE_PAIRS],
    count: usize,
}

/// Rank `r` seen from colour `c`'s side: 0 its back rank.
const fn own_rank(c: usize, r: usize) -> usize {
    if c == 0 { r } else { RANKS - 1 - r }
}

/// Can a piece of colour `c` and kind `k` stand on (`file`, `rank`)?
const fn can_stand(c: usize, k: usize, file: usize, rank: usize) -> bool {
    let r = own_rank(c, rank);
    match PieceKind::from_index(k) {
        PieceKind::King => file >= 3 && file <= 5 && r <= 2,
        PieceKind::Advisor => {
            (file == 4 && r == 1) || ((file == 3 || file == 5) && (r == 0 || r == 2))
        }
        PieceKind::Elephant => {
            ((file == 2 || file == 6) && (r == 0 || r == 4))
                || ((file == 0 || file == 4 || file == 8) && r == 2)
        }
        PieceKind::Pawn => r >= 5 || ((r == 3 || r == 4) && file.is_multiple_of(2)),
        _ => true,
    }
}

/// Can that piece on (`f`, `r`) attack (`tf`, `tr`) on some board?
const fn reaches(c: usize, k: usize, (f, r): (i32, i32), (tf, tr): (i32, i32)) -> bool {
    let (df, dr) = (tf - f, tr - r);
    let (af, ar) = (df.abs(), dr.abs());
    let in_palace = tf >= 3 && tf <= 5 && own_rank(c, tr as usize) <= 2;
    let own_side = own_rank(c, tr as usize) <= 4;
    match PieceKind::from_index(k) {
        PieceKind::King => af + ar == 1 && in_palace,
        PieceKind::Advisor => af == 1 && ar == 1 && in_palace,
        PieceKind::Elephant => af == 2 && ar == 2 && own_side,
        PieceKind::Horse => (af == 1 && ar == 2) || (af == 2 && ar == 1),
        PieceKind::Rook => (df == 0) != (dr == 0),
        PieceKind::Cannon => (df == 0) != (dr == 0) && af + ar >= 2,
        PieceKind::Pawn => {
            // Forward one, or sideways once across the river.
            let ahead = if c == 0 { 1 } else { -1 };
            let crossed = own_rank(c, r as usize) >= 5;
            (df == 0 && dr == ahead) || (crossed && dr == 0 && af == 1)
        }
    }
}

const fn build() -> Pairs {
    let mut p = Pairs {
        index: [[[NONE; SQUARES]; SQUARES]; 14],
        parts: [[0; 3]; SIDE_PAIRS],
        count: 0,
    };
    let mut piece = 0;
    while piece < 14 {
        let (c, k) = (piece / 7, piece % 7);
        let mut from = 0;
        while from < SQUARES {
            let (f, r) = (from % FILES, from / FILES);
            if can_stand(c, k, f, r) {
                let mut to = 0;
                while to < SQUARES {
                    let (tf, tr) = ((to % FILES) as i32, (to / FILES) as i32);
                    if reaches(c, k, (f as i32, r as i32), (tf, tr)) && p.count < SIDE_PAIRS {
                        p.index[piece][from][to] = p.count as u16;
                        p.parts[p.count] = [piece as u8, from as u8, to as u8];
                        p.count += 1;
                    }
                    to += 1;
                }
            }
            from += 1;
        }
        piece += 1;
    }
    p
}

static PAIRS: Pairs = build();

/// The number of pairs the table holds (a test checks it is [`SIDE_PAIRS`]).
pub fn pair_count() -> usize {
    PAIRS.count
}

/// What side input `index` names, as its perspective sees the board:
/// (attacker, its square, attacked piece, its square), pieces by
/// `Piece::index` (the trainer's factors share weights along them).
#[inline(always)]
pub fn input_parts(index: usize) -> (usize, usize, usize, usize) {
    let [a, from, to] = PAIRS.parts[index / 14];
    (a as usize, from as usize, index % 14, to as usize)
}

/// An attack as the list keeps it: `((from · 90 + to) · 14 + attacker) ·
/// 14 + attacked`, pieces by `Piece::index`, squares as on the board. The
/// attacker's square comes first, so the attacks of the pieces in square
/// order are sorted once each piece's own few are.
pub type Attack = u32;

/// The attack of the piece on `from` on the piece on `to`, on `squares`.
#[inline(always)]
fn attack(squares: &Squares, from: usize, to: usize) -> Attack {
    let (a, v) = (squares[from] as u32 - 1, squares[to] as u32 - 1);
    ((from * SQUARES + to) as u32 * 14 + a) * 14 + v
}

/// The side input of `attack` from `perspective`, or `None` when its
/// attacker could not stand there in a game.
#[inline(always)]
pub fn side_index(perspective: Color, attack: Attack) -> Option<usize> {
    let a = attack as usize;
    let (squares, pieces) = (a / 196, a % 196);
    let (mut att, mut vic) = (pieces / 14, pieces % 14);
    let (mut from, mut to) = (squares / SQUARES, squares % SQUARES);
    if perspective == Color::Black {
        (att, vic) = (swap_colour(att), swap_colour(vic));
        (from, to) = (flip_rank(from), flip_rank(to));
    }
    match PAIRS.index[att][from][to] {
        NONE => None,
        pair => Some(pair as usize * 14 + vic),
    }
}

/// The attacks of a position, sorted (each is one attacker on one square,
/// so none repeats).
pub type AttackList = SortedList<Attack>;

impl SortedList<Attack> {
    /// The attacks on the board `squares` describes (the first
    /// `MAX_THREATS`, as the threat inputs keep them), sorted.
    #[inline]
    pub fn of(squares: &Squares) -> AttackList {
        let mut list = AttackList::default();
        for_each_attack(squares, |from, to| list.push(attack(squares, from, to)));
        list.sort();
        list
    }
}

/// The side accumulator of one position: its squares, how many attacks
/// it has and the side values of both perspectives (Red's `width`, then
/// Black's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SidePart {
    board: AttackBoard,
    /// The position's attacks, all of them: past [`MAX_THREATS`] the
    /// inputs are the first ones, which a move's changes alone do not
    /// follow.
    attacks: usize,
    values: Vec<i32>,
}

/// What the side accumulator reads of a network: its width, the rows of
/// its inputs and its biases.
pub trait SideWeights {
    /// Units per perspective.
    fn side_width(&self) -> usize;
    /// The `width` weights of side input `index`.
    fn side_row(&self, index: usize) -> &[i16];
    /// The `width` biases.
    fn side_bias(&self) -> &[i16];
}

impl SidePart {
    /// The side accumulator of `squares`, computed from scratch.
    pub fn new(net: &impl SideWeights, squares: &Squares) -> SidePart {
        let w = net.side_width();
        let mut part = SidePart {
            board: AttackBoard::new(squares),
            attacks: attack_count(squares),
            values: Vec::with_capacity(2 * w),
        };
        for _ in Color::BOTH {
            part.values
                .extend(net.side_bias().iter().map(|&b| b as i32));
        }
        for &a in AttackList::of(squares).as_slice() {
            apply(&mut part.values, net, a, 1);
        }
        part
    }

    /// Become `old` after the piece on `from` moved to `to`: the rows of
    /// the attacks the move's two squares change
    /// ([`attack_change`](super::attack_change)), or, when either position
    /// has more attacks than the inputs keep, of the difference between
    /// the two capped lists.
    #[inline]
    pub fn update_from(&mut self, old: &SidePart, net: &impl SideWeights, from: usize, to: usize) {
        self.board = old.board.moved(from, to);
        self.values.clear();
        self.values.extend_from_slice(&old.values);
        if old.attacks <= MAX_THREATS {
            let (values, board) = (&mut self.values, &self.board);
            let counts = simd::dispatch(
                #[inline(always)]
                || {
                    for_each_changed_attack(&old.board, board, [from, to], |b, f, t, added| {
                        apply(values, net, attack(b, f, t), if added { 1 } else { -1 })
                    })
                },
            );
            self.attacks = old.attacks + counts.after - counts.before;
            if self.attacks <= MAX_THREATS {
                return;
            }
        }
        self.attacks = attack_count(self.board.squares());
        self.values.clear();
        self.values.extend_from_slice(&old.values);
        let (was, is) = (
            AttackList::of(old.board.squares()),
            AttackList::of(self.board.squares()),
        );
        let values = &mut self.values;
        diff(was.as_slice(), is.as_slice(), |a, added| {
            apply(values, net, a, if added { 1 } else { -1 })
        });
    }

    /// `perspective`'s side values.
    #[inline(always)]
    pub fn values(&self, perspective: Color) -> &[i32] {
        let w = self.values.len() / 2;
        &self.values[perspective.index() * w..(perspective.index() + 1) * w]
    }
}

/// Add (`sign` 1) or take away (−1) the rows of attack `a` in both
/// perspectives of `values` (Red's half, then Black's); compiled for the
/// common widths.
#[inline(always)]
fn apply(values: &mut [i32], net: &impl SideWeights, a: Attack, sign: i32) {
    match net.side_width() {
        16 => apply_n::<16>(values, net, a, sign),
        32 => apply_n::<32>(values, net, a, sign),
        _ => apply_n::<0>(values, net, a, sign),
    }
}

/// [`apply`] for width `N` (0: any, read from the network).
#[inline(always)]
fn apply_n<const N: usize>(values: &mut [i32], net: &impl SideWeights, a: Attack, sign: i32) {
    let w = if N == 0 { net.side_width() } else { N };
    for p in Color::BOTH {
        if let Some(i) = side_index(p, a) {
            let half = &mut values[p.index() * w..(p.index() + 1) * w];
            let row = &net.side_row(i)[..w];
            if N != 0 {
                add_row::<N>(
                    half.try_into().expect("N"),
                    row.try_into().expect("N"),
                    sign,
                );
                continue;
            }
            // Adding and subtracting in two loops: a multiply by the sign
            // would keep the compiler from vectorising for SSE2 (which has
            // no 32-bit vector multiply).
            if sign > 0 {
                for (v, &r) in half.iter_mut().zip(row) {
                    *v += r as i32;
                }
            } else {
                for (v, &r) in half.iter_mut().zip(row) {
                    *v -= r as i32;
                }
            }
        }
    }
}

/// `half += sign · row` for a known width, through a copy in registers:
/// written in place, the compiler could not tell the values from the row
/// and added them one at a time.
#[inline(always)]
fn add_row<const N: usize>(half: &mut [i32; N], row: &[i16; N], sign: i32) {
    let mut acc = *half;
    if sign > 0 {
        for k in 0..N {
            acc[k] += row[k] as i32;
        }
    } else {
        for k in 0..N {
            acc[k] -= row[k] as i32;
        }
    }
    *half = acc;
}

/// `Σ c · c · w` over both halves, `c = clamp(v, 0, qa)`: the side
/// accumulator's part of the output sum (`w`: the side to move's half's
/// weights, then the other's).
#[inline]
pub fn screlu_sum(part: &SidePart, side_to_move: Color, weights: &[i16], qa: i32) -> i64 {
    let mut total = 0i64;
    let w = weights.len() / 2;
    for (half, p) in [side_to_move, side_to_move.flip()].into_iter().enumerate() {
        for (&v, &wt) in part
            .values(p)
            .iter()
            .zip(&weights[half * w..(half + 1) * w])
        {
            let c = v.clamp(0, qa) as i64;
            total += c * c * wt as i64;
        }
    }
    total
}

#[cfg(test)]
#[path = "side_tests.rs"]
mod tests;
