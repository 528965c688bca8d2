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

use super::finny::Squares;
use xiangqi::{Color, FILES, RANKS, SQUARES};

/// Threat inputs per perspective: 14 attacking pieces × 14 attacked × 90 squares.
pub const THREAT_FEATURES: usize = 14 * 14 * SQUARES;

/// Most attacks in a position with the standard material (see the module docs).
pub const MAX_THREATS: usize = 134;

/// Largest threat weight magnitude: [`MAX_THREATS`] of them fit an `i16`.
pub const MAX_THREAT_WEIGHT: i16 = (i16::MAX as i32 / MAX_THREATS as i32) as i16;

const KING: usize = 0;
const ADVISOR: usize = 1;
const ELEPHANT: usize = 2;
const HORSE: usize = 3;
const ROOK: usize = 4;
const CANNON: usize = 5;

const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const JUMPS: [(i32, i32); 8] = [
    (1, 2),
    (-1, 2),
    (1, -2),
    (-1, -2),
    (2, 1),
    (2, -1),
    (-2, 1),
    (-2, -1),
];

/// The square at (file, rank), if on the board.
#[inline(always)]
fn at(file: i32, rank: i32) -> Option<usize> {
    if (0..FILES as i32).contains(&file) && (0..RANKS as i32).contains(&rank) {
        Some(file as usize + FILES * rank as usize)
    } else {
        None
    }
}

/// Is `s` in the palace of the side `red` says?
#[inline(always)]
fn in_palace(s: usize, red: bool) -> bool {
    let (file, rank) = (s % FILES, s / FILES);
    (3..=5).contains(&file) && if red { rank <= 2 } else { rank >= 7 }
}

/// Calls `f(from, to)` for every attack of the piece on `from` on the
/// piece on `to`, attackers in square order.
#[inline]
pub fn for_each_attack(squares: &Squares, mut f: impl FnMut(usize, usize)) {
    let occupied = |s: usize| squares[s] != 0;
    for from in 0..SQUARES {
        let code = squares[from];
        if code == 0 {
            continue;
        }
        let piece = code as usize - 1;
        let red = piece < 7;
        let (file, rank) = ((from % FILES) as i32, (from / FILES) as i32);
        match piece % 7 {
            KING | ADVISOR => {
                let steps = if piece % 7 == KING {
                    &ORTHOGONAL
                } else {
                    &DIAGONAL
                };
                for &(df, dr) in steps {
                    if let Some(t) = at(file + df, rank + dr) {
                        if in_palace(t, red) && occupied(t) {
                            f(from, t);
                        }
                    }
                }
            }
            ELEPHANT => {
                for &(df, dr) in &DIAGONAL {
                    let (Some(eye), Some(t)) =
                        (at(file + df, rank + dr), at(file + 2 * df, rank + 2 * dr))
                    else {
                        continue;
                    };
                    let own_side = if red { t / FILES <= 4 } else { t / FILES >= 5 };
                    if own_side && !occupied(eye) && occupied(t) {
                        f(from, t);
                    }
                }
            }
            HORSE => {
                for &(df, dr) in &JUMPS {
                    let Some(t) = at(file + df, rank + dr) else {
                        continue;
                    };
                    // The leg: one step along the jump's long direction.
                    let leg = if dr.abs() == 2 {
                        at(file, rank + dr / 2)
                    } else {
                        at(file + df / 2, rank)
                    };
                    if leg.is_some_and(|l| !occupied(l)) && occupied(t) {
                        f(from, t);
                    }
                }
            }
            ROOK | CANNON => {
                let screens = (piece % 7 == CANNON) as u32;
                for &(df, dr) in &ORTHOGONAL {
                    let mut passed = 0;
                    let (mut fl, mut rk) = (file + df, rank + dr);
                    while let Some(t) = at(fl, rk) {
                        if occupied(t) {
                            if passed == screens {
                                f(from, t);
                                break;
                            }
                            passed += 1;
                        }
                        fl += df;
                        rk += dr;
                    }
                }
            }
            _ => {
                // Pawn: ahead, and beside once across the river.
                let (ahead, crossed) = if red { (1, rank >= 5) } else { (-1, rank <= 4) };
                let sideways: &[(i32, i32)] = if crossed { &[(1, 0), (-1, 0)] } else { &[] };
                for &(df, dr) in std::iter::once(&(0, ahead)).chain(sideways) {
                    if let Some(t) = at(file + df, rank + dr) {
                        if occupied(t) {
                            f(from, t);
                        }
                    }
                }
            }
        }
    }
}

/// The attacks of a position as sorted entries (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreatList {
    len: u8,
    entries: [u16; MAX_THREATS],
}

impl Default for ThreatList {
    fn default() -> ThreatList {
        ThreatList {
            len: 0,
            entries: [0; MAX_THREATS],
        }
    }
}

impl ThreatList {
    /// The attacks on the board `squares` describes.
    #[inline]
    pub fn of(squares: &Squares) -> ThreatList {
        let mut list = ThreatList::default();
        let mut n = 0;
        for_each_attack(squares, |from, to| {
            if n < MAX_THREATS {
                let (a, v) = (squares[from] as usize - 1, squares[to] as usize - 1);
                list.entries[n] = ((a * 14 + v) * SQUARES + to) as u16;
                n += 1;
            }
        });
        list.len = n as u8;
        list.entries[..n].sort_unstable();
        list
    }

    /// The entries, in increasing order (repeated when two attackers of one
    /// kind attack the same piece).
    #[inline(always)]
    pub fn as_slice(&self) -> &[u16] {
        &self.entries[..self.len as usize]
    }
}

/// The threat input (0..[`THREAT_FEATURES`]) of `entry` from `perspective`.
#[inline(always)]
pub fn threat_index(perspective: Color, entry: u16) -> usize {
    let e = entry as usize;
    match perspective {
        Color::Red => e,
        Color::Black => {
            let (pair, s) = (e / SQUARES, e % SQUARES);
            let swap = |p: usize| if p < 7 { p + 7 } else { p - 7 };
            let flipped = s % FILES + FILES * (RANKS - 1 - s / FILES);
            (swap(pair / 14) * 14 + swap(pair % 14)) * SQUARES + flipped
        }
    }
}

/// Walks two sorted entry lists (multisets) and calls `f(entry, added)`
/// for each entry only in `new` (`added`) or only in `old`.
#[inline]
pub fn diff(old: &[u16], new: &[u16], mut f: impl FnMut(u16, bool)) {
    let (mut i, mut j) = (0, 0);
    while i < old.len() && j < new.len() {
        match old[i].cmp(&new[j]) {
            std::cmp::Ordering::Less => {
                f(old[i], false);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                f(new[j], true);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                i += 1;
                j += 1;
            }
        }
    }
    old[i..].iter().for_each(|&e| f(e, false));
    new[j..].iter().for_each(|&e| f(e, true));
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
        let list = ThreatList::of(&squares_of(&b));
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
