//! Threat inputs: one input per (attacker, attacked piece, attacked square),
//! for every piece that attacks another, friend or foe.
//!
//! # Definition
//!
//! A piece *attacks* an occupied square if it could move there were the
//! piece on it an enemy (so a defended friend counts): a rook the first
//! piece along each line; a cannon the first piece beyond the first
//! (the screen); a horse the end of each of its 8 jumps whose leg (the
//! orthogonal neighbour towards the jump) is empty; an elephant the end
//! of each diagonal 2-step whose eye is empty, on its own side of the
//! river; an advisor or a king a diagonal or orthogonal neighbour inside
//! its palace (the kings facing each other is not counted); a pawn the
//! square ahead and, across the river, those beside it.
//!
//! Each attack is an *entry* `(a · 14 + v) · 90 + t` (`a`, `v` the
//! attacker's and the attacked piece's `Piece::index`, `t` the attacked
//! square). From a perspective the entry is read like the piece-square
//! inputs: Red's sees it as it is, Black's with the colours swapped and the
//! ranks flipped, so colour-flipped twins have the same inputs. This gives
//!
//! ```text
//! THREAT_FEATURES = 14 attackers × 14 attacked pieces × 90 squares = 17,640 inputs
//! index = ((rel(attacker) · 7 + kind) · 14 + rel(attacked) · 7 + kind) · 90 + square'
//! ```
//!
//! after the feature set's piece-square inputs. The attacker's square is
//! left out (Pikafish's "FullThreats" keeps it, 45,547 inputs after
//! removing impossible pairs): the victim's square and the two pieces carry
//! most of it at 2.6 times fewer inputs, and two attackers of one kind on
//! the same victim make that input 2. The inputs do not depend on the king
//! buckets or their mirror, so a king changing buckets never recomputes
//! them.
//!
//! # Bounds
//!
//! At most [`MAX_THREATS`] attacks exist in a position with the standard
//! material (per side: 2 rooks × 4, 2 cannons × 4, 2 horses × 8,
//! 2 elephants × 4, 2 advisors × 4, king 4, 5 pawns × 3 = 67), so threat
//! weights of at most [`MAX_THREAT_WEIGHT`] keep the threat part of an
//! accumulator inside an `i16` (positions with more material, which no game
//! reaches, keep the first `MAX_THREATS` attacks).

use super::block::{BlockMove, EntryList, InputBlock, MAX_BLOCK_ACTIVE, Placement, squares_after};
pub use super::block::{Squares, diff};
use xiangqi::{Color, FILES, PieceKind, RANKS, SQUARES};

/// Threat inputs per perspective: 14 attacking pieces × 14 attacked × 90 squares.
pub const THREAT_FEATURES: usize = 14 * 14 * SQUARES;

/// Most attacks in a position with the standard material (see the module docs).
pub const MAX_THREATS: usize = 134;

/// Largest threat weight magnitude: [`MAX_THREATS`] of them fit an `i16`.
pub const MAX_THREAT_WEIGHT: i16 = (i16::MAX as i32 / MAX_THREATS as i32) as i16;

// A block's entry list keeps the first MAX_BLOCK_ACTIVE entries: the
// first MAX_THREATS attacks.
const _: () = assert!(MAX_THREATS == MAX_BLOCK_ACTIVE);

/// The threat block: an input per attack (see the module docs), the same
/// in every king view, kept apart in the accumulator with its own bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Threats;

impl InputBlock for Threats {
    fn tag(&self) -> &'static str {
        "threats"
    }

    fn size(&self) -> usize {
        THREAT_FEATURES
    }

    fn weight_bound(&self) -> i16 {
        MAX_THREAT_WEIGHT
    }

    fn rows_name(&self) -> &'static str {
        "threat weights"
    }

    /// The attacks in entry order.
    fn for_each_active(&self, perspective: Color, position: &Placement, mut f: impl FnMut(usize)) {
        for &e in threat_list(position.squares).as_slice() {
            f(threat_index(perspective, e));
        }
    }

    /// The attack list found once for both perspectives.
    fn for_each_active_pair(
        &self,
        [first, second]: [Color; 2],
        position: &Placement,
        mut f: impl FnMut(usize, usize),
    ) {
        for &e in threat_list(position.squares).as_slice() {
            f(threat_index(first, e), threat_index(second, e));
        }
    }

    /// Kept apart, with its own bound: up to 134 rows at once.
    fn kept_apart(&self) -> bool {
        true
    }

    #[inline]
    fn entries(&self, squares: &Squares) -> EntryList {
        threat_list(squares)
    }

    #[inline(always)]
    fn entry_index(&self, perspective: Color, entry: u16) -> usize {
        threat_index(perspective, entry)
    }

    fn entries_are_attacks(&self) -> bool {
        true
    }

    #[inline(always)]
    fn attack_entry(&self, squares: &Squares, from: usize, to: usize) -> u16 {
        threat_entry(squares, from, to)
    }

    /// Never: a move changes a few attacks, whatever the kings do.
    fn forces_refresh(&self, _perspective: Color, _before: &Placement, _mv: &BlockMove) -> bool {
        false
    }

    /// The attacks that came and went.
    fn for_each_change(
        &self,
        perspective: Color,
        before: &Placement,
        mv: &BlockMove,
        mut f: impl FnMut(usize, bool),
    ) {
        let old = threat_list(before.squares);
        let new = threat_list(&squares_after(before.squares, mv));
        diff(old.as_slice(), new.as_slice(), |e, added| {
            f(threat_index(perspective, e), added)
        });
    }
}

/// Up to `N` target squares of a piece on one square, each with the square
/// that must be empty for it (a horse's leg, an elephant's eye; `SQUARES`,
/// none, for the others). Built at compile time.
#[derive(Clone, Copy)]
struct Steps<const N: usize> {
    n: u8,
    to: [u8; N],
    via: [u8; N],
}

impl<const N: usize> Steps<N> {
    const EMPTY: Steps<N> = Steps {
        n: 0,
        to: [0; N],
        via: [0; N],
    };

    const fn push(mut self, to: usize, via: usize) -> Steps<N> {
        self.to[self.n as usize] = to as u8;
        self.via[self.n as usize] = via as u8;
        self.n += 1;
        self
    }

    #[inline(always)]
    fn pairs(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let n = self.n as usize;
        self.to[..n]
            .iter()
            .zip(&self.via[..n])
            .map(|(&t, &v)| (t as usize, v as usize))
    }
}

/// Every piece's geometry, per square (and per colour where it matters).
struct Tables {
    king: [[Steps<8>; SQUARES]; 2],
    advisor: [[Steps<8>; SQUARES]; 2],
    elephant: [[Steps<8>; SQUARES]; 2],
    horse: [Steps<8>; SQUARES],
    pawn: [[Steps<8>; SQUARES]; 2],
    /// The squares along each orthogonal line, nearest first.
    rays: [[Steps<9>; 4]; SQUARES],
}

/// The square at (file, rank), or `SQUARES` off the board.
pub(super) const fn at(file: i32, rank: i32) -> usize {
    if file >= 0 && file < FILES as i32 && rank >= 0 && rank < RANKS as i32 {
        file as usize + FILES * rank as usize
    } else {
        SQUARES
    }
}

/// Is `s` in the palace of colour `c` (0 Red, 1 Black)?
const fn in_palace(s: usize, c: usize) -> bool {
    let (file, rank) = (s % FILES, s / FILES);
    file >= 3 && file <= 5 && if c == 0 { rank <= 2 } else { rank >= 7 }
}

pub(super) const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
pub(super) const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
pub(super) const JUMPS: [(i32, i32); 8] = [
    (1, 2),
    (-1, 2),
    (1, -2),
    (-1, -2),
    (2, 1),
    (2, -1),
    (-2, 1),
    (-2, -1),
];

const fn build() -> Tables {
    let mut t = Tables {
        king: [[Steps::EMPTY; SQUARES]; 2],
        advisor: [[Steps::EMPTY; SQUARES]; 2],
        elephant: [[Steps::EMPTY; SQUARES]; 2],
        horse: [Steps::EMPTY; SQUARES],
        pawn: [[Steps::EMPTY; SQUARES]; 2],
        rays: [[Steps::EMPTY; 4]; SQUARES],
    };
    let mut s = 0;
    while s < SQUARES {
        let (file, rank) = ((s % FILES) as i32, (s / FILES) as i32);
        let mut d = 0;
        while d < 4 {
            let (df, dr) = ORTHOGONAL[d];
            let (ef, er) = DIAGONAL[d];
            let mut c = 0;
            while c < 2 {
                let step = at(file + df, rank + dr);
                if step < SQUARES && in_palace(step, c) {
                    t.king[c][s] = t.king[c][s].push(step, SQUARES);
                }
                let diag = at(file + ef, rank + er);
                if diag < SQUARES && in_palace(diag, c) {
                    t.advisor[c][s] = t.advisor[c][s].push(diag, SQUARES);
                }
                let far = at(file + 2 * ef, rank + 2 * er);
                let own_side = if c == 0 {
                    far / FILES <= 4
                } else {
                    far / FILES >= 5
                };
                if far < SQUARES && own_side {
                    t.elephant[c][s] = t.elephant[c][s].push(far, diag);
                }
                c += 1;
            }
            let (mut f, mut r) = (file + df, rank + dr);
            while at(f, r) < SQUARES {
                t.rays[s][d] = t.rays[s][d].push(at(f, r), 0);
                f += df;
                r += dr;
            }
            d += 1;
        }
        let mut j = 0;
        while j < 8 {
            let (df, dr) = JUMPS[j];
            let to = at(file + df, rank + dr);
            // The leg: one step along the jump's long direction.
            let leg = if dr == 2 || dr == -2 {
                at(file, rank + dr / 2)
            } else {
                at(file + df / 2, rank)
            };
            if to < SQUARES {
                t.horse[s] = t.horse[s].push(to, leg);
            }
            j += 1;
        }
        // Pawns: ahead, and beside once across the river.
        let mut c = 0;
        while c < 2 {
            let (ahead, crossed) = if c == 0 {
                (1, rank >= 5)
            } else {
                (-1, rank <= 4)
            };
            let fwd = at(file, rank + ahead);
            if fwd < SQUARES {
                t.pawn[c][s] = t.pawn[c][s].push(fwd, SQUARES);
            }
            if crossed {
                let (l, r) = (at(file - 1, rank), at(file + 1, rank));
                if l < SQUARES {
                    t.pawn[c][s] = t.pawn[c][s].push(l, SQUARES);
                }
                if r < SQUARES {
                    t.pawn[c][s] = t.pawn[c][s].push(r, SQUARES);
                }
            }
            c += 1;
        }
        s += 1;
    }
    t
}

static TABLES: Tables = build();

/// Calls `f(from, to)` for every attack of the piece on `from` on the
/// piece on `to`, attackers in square order.
#[inline]
pub fn for_each_attack(squares: &Squares, mut f: impl FnMut(usize, usize)) {
    for (from, &code) in squares.iter().enumerate() {
        if code != 0 {
            for_each_attack_of(squares, from, code, |to| f(from, to));
        }
    }
}

/// Calls `f(to)` for every attack of the piece `code` (`Piece::index() +
/// 1`, not 0) standing on `from` on the board `squares`, in the order
/// [`for_each_attack`] gives them.
#[inline(always)]
pub(super) fn for_each_attack_of(
    squares: &Squares,
    from: usize,
    code: u8,
    mut f: impl FnMut(usize),
) {
    let occupied = |s: usize| squares[s] != 0;
    let piece = code as usize - 1;
    let kind = PieceKind::from_index(piece % 7);
    if let PieceKind::Rook | PieceKind::Cannon = kind {
        let screens = (kind == PieceKind::Cannon) as u32;
        for ray in &TABLES.rays[from] {
            let mut passed = 0;
            for (to, _) in ray.pairs() {
                if occupied(to) {
                    if passed == screens {
                        f(to);
                        break;
                    }
                    passed += 1;
                }
            }
        }
        return;
    }
    let (to, via) = steps(piece, from);
    for (&to, &via) in to.iter().zip(via) {
        let (to, via) = (to as usize, via as usize);
        if occupied(to) && (via == SQUARES || !occupied(via)) {
            f(to);
        }
    }
}

/// The steps of a piece that is not a rook or cannon, `piece` its
/// `Piece::index`, standing on `from`: its targets, and for each the square
/// that must be empty (`SQUARES`: none).
#[inline(always)]
pub(super) fn steps(piece: usize, from: usize) -> (&'static [u8], &'static [u8]) {
    let t = &TABLES;
    let c = piece / 7;
    let steps = match PieceKind::from_index(piece % 7) {
        PieceKind::King => &t.king[c][from],
        PieceKind::Advisor => &t.advisor[c][from],
        PieceKind::Elephant => &t.elephant[c][from],
        PieceKind::Horse => &t.horse[from],
        _ => &t.pawn[c][from],
    };
    let n = steps.n as usize;
    (&steps.to[..n], &steps.via[..n])
}

/// The attacks on the board `squares` describes, as sorted entries (see
/// the module docs; an entry is there twice when two attackers of one
/// kind attack the same piece).
#[inline]
pub fn threat_list(squares: &Squares) -> EntryList {
    let mut list = EntryList::default();
    for_each_attack(squares, |from, to| {
        list.push(threat_entry(squares, from, to))
    });
    list.sort();
    list
}

/// The entry of the attack of the piece on `from` on the piece on `to`.
#[inline(always)]
fn threat_entry(squares: &Squares, from: usize, to: usize) -> u16 {
    let (a, v) = (squares[from] as usize - 1, squares[to] as usize - 1);
    ((a * 14 + v) * SQUARES + to) as u16
}

/// The threat input (0..[`THREAT_FEATURES`]) of `entry` from `perspective`.
#[inline(always)]
pub fn threat_index(perspective: Color, entry: u16) -> usize {
    let e = entry as usize;
    match perspective {
        Color::Red => e,
        Color::Black => {
            let (pair, s) = (e / SQUARES, e % SQUARES);
            (swap_colour(pair / 14) * 14 + swap_colour(pair % 14)) * SQUARES + flip_rank(s)
        }
    }
}

/// Piece index `p` (`Piece::index`) with its colour swapped: how Black's
/// perspective sees the pieces.
#[inline(always)]
pub const fn swap_colour(p: usize) -> usize {
    if p < 7 { p + 7 } else { p - 7 }
}

/// Square `s` with its rank flipped: how Black's perspective sees the board.
#[inline(always)]
pub const fn flip_rank(s: usize) -> usize {
    s % FILES + FILES * (RANKS - 1 - s / FILES)
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi::{Board, Piece, Square};

    fn squares_of(board: &Board) -> Squares {
        let mut s = [0u8; SQUARES];
        for (i, c) in s.iter_mut().enumerate() {
            if let Some(p) = board.piece_at(Square::from_index_unchecked(i)) {
                *c = p.index() as u8 + 1;
            }
        }
        s
    }

    /// (attacker square, attacked square) pairs by name, sorted.
    fn attacks(fen: &str) -> Vec<String> {
        let b = Board::from_fen(fen).unwrap();
        let mut v = Vec::new();
        for_each_attack(&squares_of(&b), |f, t| {
            v.push(format!(
                "{}{}",
                Square::from_index_unchecked(f),
                Square::from_index_unchecked(t)
            ))
        });
        v.sort();
        v
    }

    #[test]
    fn sizes() {
        assert_eq!(THREAT_FEATURES, 17_640);
        assert_eq!(MAX_THREAT_WEIGHT, 244);
        assert!(MAX_THREATS as i32 * MAX_THREAT_WEIGHT as i32 <= i16::MAX as i32);
    }

    /// Each kind's rule, blocked and not.
    #[test]
    fn attacks_by_kind() {
        // Cannon e2 with a screen on e5 attacks e7; the rook a0 attacks a3
        // (first piece), not a6.
        let v = attacks("4k4/9/4p4/9/4p4/p8/9/p3C4/9/R3K4 w");
        assert!(v.contains(&"e2e7".to_string()), "{v:?}");
        assert!(v.contains(&"a0a2".to_string()), "{v:?}");
        assert!(!v.iter().any(|a| a.starts_with("a0a4")), "{v:?}");
        assert!(
            !v.contains(&"e2e5".to_string()),
            "a cannon does not take its screen"
        );
        // Horse b0: c2 blocked by a piece on b1 (its leg), a2 blocked too;
        // d1 open.
        let v = attacks("3k5/9/9/9/9/9/9/P1P6/1P1P5/1N2K4 w");
        assert!(v.contains(&"b0d1".to_string()), "{v:?}");
        assert!(!v.contains(&"b0c2".to_string()), "{v:?}");
        assert!(!v.contains(&"b0a2".to_string()), "{v:?}");
        // Elephant c0: e2 open, a2 blocked by its eye on b1.
        let v = attacks("4k4/9/9/9/9/9/9/P3P4/1P7/2B1K4 w");
        assert!(v.contains(&"c0e2".to_string()), "{v:?}");
        assert!(!v.contains(&"c0a2".to_string()), "{v:?}");
        // Pawns: before the river only ahead; across it beside as well.
        let v = attacks("4k4/9/4p4/3pPp3/4p4/9/9/9/9/4K4 w");
        for a in ["e6d6", "e6f6", "e6e7", "e7e6"] {
            assert!(v.contains(&a.to_string()), "{a} {v:?}");
        }
        // Not backwards, and not beside before the river.
        for a in ["e6e5", "e5e6", "d6e6", "f6e6"] {
            assert!(!v.contains(&a.to_string()), "{a} {v:?}");
        }
        // Advisors and kings inside their palace only.
        let v = attacks("4k4/9/9/9/9/9/9/5A3/4A4/3K5 w");
        assert_eq!(v, ["e1d0", "e1f2", "f2e1"]);
    }

    #[test]
    fn the_start_position_list_is_sorted_and_in_range() {
        let b = Board::startpos();
        let list = threat_list(&squares_of(&b));
        assert!(list.as_slice().windows(2).all(|w| w[0] <= w[1]));
        // Per side: each rook its horse and its pawn, each cannon the
        // horse behind the other cannon, the king its two advisors.
        assert_eq!(list.as_slice().len(), 16);
        assert!(
            list.as_slice()
                .iter()
                .all(|&e| (e as usize) < THREAT_FEATURES)
        );
    }

    #[test]
    fn perspectives_are_symmetric() {
        let red_rook = Piece::new(Color::Red, xiangqi::PieceKind::Rook).index();
        let black_pawn = Piece::new(Color::Black, xiangqi::PieceKind::Pawn).index();
        // Red's rook attacks a black pawn on c6 (square 2 + 54).
        let e = ((red_rook * 14 + black_pawn) * SQUARES + 56) as u16;
        assert_eq!(threat_index(Color::Red, e), e as usize);
        // Black sees its own pawn on c3 attacked by the opponent's rook.
        let black_rook = Piece::new(Color::Black, xiangqi::PieceKind::Rook).index();
        let red_pawn = Piece::new(Color::Red, xiangqi::PieceKind::Pawn).index();
        assert_eq!(
            threat_index(Color::Black, e),
            (black_rook * 14 + red_pawn) * SQUARES + 2 + 27
        );
        let mut seen = vec![false; THREAT_FEATURES];
        for e in 0..THREAT_FEATURES as u16 {
            let i = threat_index(Color::Black, e);
            assert!(!seen[i]);
            seen[i] = true;
            assert_eq!(threat_index(Color::Black, i as u16), e as usize);
        }
    }

    /// On positions of random games, the attacks on enemy pieces of the
    /// side to move are exactly the rules library's pseudo-legal captures,
    /// and a friend is attacked wherever an enemy piece there would be.
    #[test]
    fn attacks_on_enemies_are_the_pseudo_legal_captures() {
        let mut seed = 0x7417u64;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) as usize % n
        };
        let mut positions = 0;
        for _ in 0..30 {
            let mut board = Board::startpos();
            for _ in 0..120 {
                let moves = board.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let stm = board.side_to_move();
                let squares = squares_of(&board);
                let mut ours = Vec::new();
                for_each_attack(&squares, |f, t| {
                    let (a, v) = (squares[f] as usize - 1, squares[t] as usize - 1);
                    if a / 7 == stm.index() && v / 7 != stm.index() {
                        ours.push((f, t));
                    }
                });
                let mut list = xiangqi::MoveList::new();
                board.gen_captures(&mut list);
                let mut theirs: Vec<(usize, usize)> = list
                    .iter()
                    .map(|m| (m.from().index(), m.to().index()))
                    .collect();
                ours.sort_unstable();
                theirs.sort_unstable();
                assert_eq!(ours, theirs, "{}", board.to_fen());
                positions += 1;
                let mv = moves.as_slice()[next(moves.len())];
                board.make_move(mv);
            }
        }
        assert!(positions > 1000);
    }

    #[test]
    fn diff_of_multisets() {
        let mut got = Vec::new();
        diff(&[1, 2, 2, 5, 9], &[2, 3, 5, 5, 10], |e, added| {
            got.push((e, added))
        });
        assert_eq!(
            got,
            [
                (1, false),
                (2, false),
                (3, true),
                (5, true),
                (9, false),
                (10, true)
            ]
        );
    }
}
