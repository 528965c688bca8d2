//! The move geometry of every piece, computed at compile time. Private:
//! users see it through [`Board::targets`](crate::Board::targets) and the
//! move generator.
//!
//! Step pieces (king, advisor, elephant, horse, pawn) get per-square target
//! lists with their blocking square (elephant eye, horse leg). Sliders (rook,
//! cannon) use per-line occupancy tables: for a piece on a rank or file and
//! the occupancy bits of that line, the table gives the empty squares it
//! reaches, the first blocker in each direction (rook capture) and the second
//! blocker (cannon capture).
//!
//! Everything here speaks in raw numbers: squares are indices
//! `rank * 9 + file` ([`Square::index`](crate::Square::index)), colours are
//! 0 (Red) and 1 (Black) ([`Color::index`](crate::Color::index)), and line
//! masks have bit `file` (on a rank) or bit `rank` (on a file) set, as
//! [`Board::rank_occ`](crate::Board::rank_occ) and
//! [`Board::file_occ`](crate::Board::file_occ) give them. The tables do not
//! look at the board: blocking squares are for the caller to test.

use crate::types::{FILES, RANKS, SQUARES};

/// Up to eight target squares, each with the square that must be empty for the
/// step (the horse's leg, the elephant's eye; the target itself otherwise).
/// [`Steps::iter`] gives them as `(target, via)` square indices.
#[derive(Clone, Copy)]
pub struct Steps {
    len: u8,
    to: [u8; 8],
    via: [u8; 8],
}

impl Steps {
    const EMPTY: Steps = Steps {
        len: 0,
        to: [0; 8],
        via: [0; 8],
    };

    const fn push(mut self, to: usize, via: usize) -> Steps {
        self.to[self.len as usize] = to as u8;
        self.via[self.len as usize] = via as u8;
        self.len += 1;
        self
    }

    /// Number of steps (the tests check the tables with it).
    #[cfg(test)]
    fn len(&self) -> usize {
        self.len as usize
    }

    /// The steps as `(target, via)` square indices: `via` must be empty for
    /// the step (the horse's leg, the elephant's eye); for pieces that
    /// cannot be blocked it is the target itself.
    #[inline(always)]
    pub fn iter(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.len as usize).map(move |i| (self.to[i] as usize, self.via[i] as usize))
    }
}

const fn sq(file: i32, rank: i32) -> usize {
    (rank * FILES as i32 + file) as usize
}

const fn on_board(file: i32, rank: i32) -> bool {
    file >= 0 && file < FILES as i32 && rank >= 0 && rank < RANKS as i32
}

/// Is the square (an index) inside either palace (files d..f, ranks 0..2 or
/// 7..9)?
pub const fn in_palace(s: usize) -> bool {
    let f = s % FILES;
    let r = s / FILES;
    f >= 3 && f <= 5 && (r <= 2 || r >= 7)
}

/// Which side of the river the square (an index) is on: 0 for Red's half
/// (ranks 0..4), 1 for Black's (ranks 5..9).
pub const fn half(s: usize) -> usize {
    if s / FILES <= 4 { 0 } else { 1 }
}

const fn king_steps() -> [Steps; SQUARES] {
    let mut t = [Steps::EMPTY; SQUARES];
    let d: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    let mut s = 0;
    while s < SQUARES {
        if in_palace(s) {
            let (f, r) = ((s % FILES) as i32, (s / FILES) as i32);
            let mut i = 0;
            while i < 4 {
                let (nf, nr) = (f + d[i].0, r + d[i].1);
                if on_board(nf, nr) && in_palace(sq(nf, nr)) && half(sq(nf, nr)) == half(s) {
                    t[s] = t[s].push(sq(nf, nr), sq(nf, nr));
                }
                i += 1;
            }
        }
        s += 1;
    }
    t
}

const fn advisor_steps() -> [Steps; SQUARES] {
    let mut t = [Steps::EMPTY; SQUARES];
    let d: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
    let mut s = 0;
    while s < SQUARES {
        if in_palace(s) {
            let (f, r) = ((s % FILES) as i32, (s / FILES) as i32);
            let mut i = 0;
            while i < 4 {
                let (nf, nr) = (f + d[i].0, r + d[i].1);
                if on_board(nf, nr) && in_palace(sq(nf, nr)) && half(sq(nf, nr)) == half(s) {
                    t[s] = t[s].push(sq(nf, nr), sq(nf, nr));
                }
                i += 1;
            }
        }
        s += 1;
    }
    t
}

const fn elephant_steps() -> [Steps; SQUARES] {
    let mut t = [Steps::EMPTY; SQUARES];
    let d: [(i32, i32); 4] = [(2, 2), (-2, 2), (2, -2), (-2, -2)];
    let mut s = 0;
    while s < SQUARES {
        let (f, r) = ((s % FILES) as i32, (s / FILES) as i32);
        let mut i = 0;
        while i < 4 {
            let (nf, nr) = (f + d[i].0, r + d[i].1);
            // Elephants never cross the river: target on the same half.
            if on_board(nf, nr) && half(sq(nf, nr)) == half(s) {
                t[s] = t[s].push(sq(nf, nr), sq(f + d[i].0 / 2, r + d[i].1 / 2));
            }
            i += 1;
        }
        s += 1;
    }
    t
}

/// Horse moves from a square: (target, leg).
const fn horse_steps() -> [Steps; SQUARES] {
    let mut t = [Steps::EMPTY; SQUARES];
    // (df, dr, leg df, leg dr)
    let d: [(i32, i32, i32, i32); 8] = [
        (1, 2, 0, 1),
        (-1, 2, 0, 1),
        (1, -2, 0, -1),
        (-1, -2, 0, -1),
        (2, 1, 1, 0),
        (2, -1, 1, 0),
        (-2, 1, -1, 0),
        (-2, -1, -1, 0),
    ];
    let mut s = 0;
    while s < SQUARES {
        let (f, r) = ((s % FILES) as i32, (s / FILES) as i32);
        let mut i = 0;
        while i < 8 {
            let (nf, nr) = (f + d[i].0, r + d[i].1);
            if on_board(nf, nr) {
                t[s] = t[s].push(sq(nf, nr), sq(f + d[i].2, r + d[i].3));
            }
            i += 1;
        }
        s += 1;
    }
    t
}

/// Squares from which a horse attacks a square: (horse square, leg). The leg is
/// next to the horse, so it is diagonally adjacent to the attacked square.
const fn horse_attackers() -> [Steps; SQUARES] {
    let steps = horse_steps();
    let mut t = [Steps::EMPTY; SQUARES];
    let mut from = 0;
    while from < SQUARES {
        let mut i = 0;
        while i < steps[from].len as usize {
            let to = steps[from].to[i] as usize;
            t[to] = t[to].push(from, steps[from].via[i] as usize);
            i += 1;
        }
        from += 1;
    }
    t
}

const fn step_sets(steps: &[Steps; SQUARES]) -> [u128; SQUARES] {
    let mut t = [0u128; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let mut i = 0;
        while i < steps[s].len as usize {
            t[s] |= 1 << steps[s].to[i];
            i += 1;
        }
        s += 1;
    }
    t
}

const fn pawn_steps(color: usize) -> [Steps; SQUARES] {
    let mut t = [Steps::EMPTY; SQUARES];
    let fwd: i32 = if color == 0 { 1 } else { -1 };
    let mut s = 0;
    while s < SQUARES {
        let (f, r) = ((s % FILES) as i32, (s / FILES) as i32);
        if on_board(f, r + fwd) {
            t[s] = t[s].push(sq(f, r + fwd), sq(f, r + fwd));
        }
        // Sideways only once across the river.
        if half(s) != color {
            if f > 0 {
                t[s] = t[s].push(sq(f - 1, r), sq(f - 1, r));
            }
            if f < FILES as i32 - 1 {
                t[s] = t[s].push(sq(f + 1, r), sq(f + 1, r));
            }
        }
        s += 1;
    }
    t
}

/// Squares from which a pawn of `color` attacks a square.
const fn pawn_attackers(color: usize) -> [Steps; SQUARES] {
    let steps = pawn_steps(color);
    let mut t = [Steps::EMPTY; SQUARES];
    let mut from = 0;
    while from < SQUARES {
        let mut i = 0;
        while i < steps[from].len as usize {
            let to = steps[from].to[i] as usize;
            t[to] = t[to].push(from, from);
            i += 1;
        }
        from += 1;
    }
    t
}

/// King steps from each square of the palaces (none elsewhere): one step
/// along a rank or file, within the palace. The facing kings rule is not
/// geometry: see [`Board::is_legal`](crate::Board::is_legal).
pub static KING_STEPS: [Steps; SQUARES] = king_steps();
/// Advisor steps from each palace square: one step diagonally, within the palace.
pub static ADVISOR_STEPS: [Steps; SQUARES] = advisor_steps();
/// Elephant steps from each square: two steps diagonally, not across the
/// river; `via` is the eye (the point between).
pub static ELEPHANT_STEPS: [Steps; SQUARES] = elephant_steps();
/// Horse moves from each square; `via` is the leg (the square next to the
/// horse, in the direction of the long step).
pub static HORSE_STEPS: [Steps; SQUARES] = horse_steps();
/// The reverse of [`HORSE_STEPS`]: for each square, the squares from which a
/// horse attacks it, with the leg of that move as `via`.
pub static HORSE_ATTACKERS: [Steps; SQUARES] = horse_attackers();
/// For each square, the squares of [`HORSE_ATTACKERS`] as a bit set (bit
/// `s` for square `s`, legs aside): one test says whether a horse standing
/// somewhere could attack the square, before its list is walked.
pub static HORSE_ATTACKER_SET: [u128; SQUARES] = step_sets(&horse_attackers());
/// Pawn steps, indexed `[color][square]`: forward, and sideways once across
/// the river (a pawn on the last rank only goes sideways).
pub static PAWN_STEPS: [[Steps; SQUARES]; 2] = [pawn_steps(0), pawn_steps(1)];
/// The reverse of [`PAWN_STEPS`], indexed `[color][square]`: the squares
/// from which a pawn of `color` attacks the square (`via` is the pawn's
/// square).
pub static PAWN_ATTACKERS: [[Steps; SQUARES]; 2] = [pawn_attackers(0), pawn_attackers(1)];

/// The positions of the set bits of a line mask, lowest first: the files
/// (for a rank mask) or ranks (for a file mask) of the squares it holds.
///
#[inline(always)]
pub fn line_bits(mut m: u16) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let b = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(b)
        }
    })
}

/// What a slider standing on one line (rank or file) sees for one occupancy
/// of that line. Each field is a line mask (bit `file` on a rank, bit `rank`
/// on a file), both directions together; see [`line_bits`].
#[derive(Clone, Copy)]
pub struct LineView {
    /// Empty squares reachable in both directions.
    pub quiet: u16,
    /// The first occupied square in each direction (rook captures).
    pub first: u16,
    /// The second occupied square in each direction (cannon captures).
    pub second: u16,
}

const fn line_view(len: usize, pos: usize, occ: usize) -> LineView {
    let mut v = LineView {
        quiet: 0,
        first: 0,
        second: 0,
    };
    let mut dir = 0;
    while dir < 2 {
        let mut found = 0;
        let mut p = pos as i32;
        loop {
            p += if dir == 0 { 1 } else { -1 };
            if p < 0 || p >= len as i32 {
                break;
            }
            if occ & (1 << p) == 0 {
                if found == 0 {
                    v.quiet |= 1 << p;
                }
            } else {
                found += 1;
                if found == 1 {
                    v.first |= 1 << p;
                } else {
                    v.second |= 1 << p;
                    break;
                }
            }
        }
        dir += 1;
    }
    v
}

const fn rank_views() -> [[LineView; 1 << FILES]; FILES] {
    let mut t = [[LineView {
        quiet: 0,
        first: 0,
        second: 0,
    }; 1 << FILES]; FILES];
    let mut pos = 0;
    while pos < FILES {
        let mut occ = 0;
        while occ < 1 << FILES {
            t[pos][occ] = line_view(FILES, pos, occ);
            occ += 1;
        }
        pos += 1;
    }
    t
}

const fn file_views() -> [[LineView; 1 << RANKS]; RANKS] {
    let mut t = [[LineView {
        quiet: 0,
        first: 0,
        second: 0,
    }; 1 << RANKS]; RANKS];
    let mut pos = 0;
    while pos < RANKS {
        let mut occ = 0;
        while occ < 1 << RANKS {
            t[pos][occ] = line_view(RANKS, pos, occ);
            occ += 1;
        }
        pos += 1;
    }
    t
}

/// What a slider sees along its rank, indexed by `[file of the
/// slider][rank occupancy]` ([`Board::rank_occ`](crate::Board::rank_occ)).
/// The slider's own bit may be set or not: the view is the same.
pub static RANK_VIEW: [[LineView; 1 << FILES]; FILES] = rank_views();
/// What a slider sees along its file, indexed by `[rank of the
/// slider][file occupancy]` ([`Board::file_occ`](crate::Board::file_occ)).
/// The slider's own bit may be set or not: the view is the same.
pub static FILE_VIEW: [[LineView; 1 << RANKS]; RANKS] = file_views();

/// Can an advisor of `color` (0 Red, 1 Black) ever stand on square `s`
/// (an index)? The five points of the palace's diagonals.
pub const fn advisor_square(color: usize, s: usize) -> bool {
    in_palace(s)
        && half(s) == color
        && (s % FILES + s / FILES) % 2 == if color == 0 { 1 } else { 0 }
}

/// Can an elephant of `color` (0 Red, 1 Black) ever stand on square `s`
/// (an index)? Seven points on its side of the river.
pub const fn elephant_square(color: usize, s: usize) -> bool {
    let (f, r) = (s % FILES, s / FILES);
    let rr = if color == 0 { r } else { RANKS - 1 - r };
    half(s) == color && ((rr % 4 == 0 && (f == 2 || f == 6)) || (rr == 2 && f % 4 == 0))
}

/// Can the king of `color` (0 Red, 1 Black) ever stand on square `s` (an
/// index)? The nine points of its palace.
pub const fn king_square(color: usize, s: usize) -> bool {
    in_palace(s) && half(s) == color
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(name: &str) -> usize {
        crate::types::Square::parse(name).unwrap().index()
    }

    #[test]
    fn palace_and_fixed_squares() {
        let red_adv: Vec<usize> = (0..SQUARES).filter(|&x| advisor_square(0, x)).collect();
        assert_eq!(red_adv, vec![s("d0"), s("f0"), s("e1"), s("d2"), s("f2")]);
        let black_adv: Vec<usize> = (0..SQUARES).filter(|&x| advisor_square(1, x)).collect();
        assert_eq!(black_adv, vec![s("d7"), s("f7"), s("e8"), s("d9"), s("f9")]);
        let red_el: Vec<usize> = (0..SQUARES).filter(|&x| elephant_square(0, x)).collect();
        assert_eq!(
            red_el,
            vec![
                s("c0"),
                s("g0"),
                s("a2"),
                s("e2"),
                s("i2"),
                s("c4"),
                s("g4")
            ]
        );
        let black_el: Vec<usize> = (0..SQUARES).filter(|&x| elephant_square(1, x)).collect();
        assert_eq!(
            black_el,
            vec![
                s("c5"),
                s("g5"),
                s("a7"),
                s("e7"),
                s("i7"),
                s("c9"),
                s("g9")
            ]
        );
        assert_eq!((0..SQUARES).filter(|&x| king_square(0, x)).count(), 9);
    }

    #[test]
    fn step_tables() {
        assert_eq!(KING_STEPS[s("e1")].len(), 4);
        assert_eq!(KING_STEPS[s("d0")].len(), 2);
        assert_eq!(ADVISOR_STEPS[s("e1")].len(), 4);
        assert_eq!(ADVISOR_STEPS[s("d0")].len(), 1);
        assert_eq!(ELEPHANT_STEPS[s("e2")].len(), 4);
        assert_eq!(ELEPHANT_STEPS[s("c4")].len(), 2); // cannot cross the river
        assert_eq!(HORSE_STEPS[s("e4")].len(), 8);
        assert_eq!(HORSE_STEPS[s("a0")].len(), 2);
        assert_eq!(PAWN_STEPS[0][s("e3")].len(), 1);
        assert_eq!(PAWN_STEPS[0][s("e5")].len(), 3);
        assert_eq!(PAWN_STEPS[0][s("e9")].len(), 2);
        assert_eq!(PAWN_STEPS[1][s("e6")].len(), 1);
        assert_eq!(PAWN_STEPS[1][s("e4")].len(), 3);
        // A horse on g2 reaches e1 via leg f2... (leg is next to the horse).
        let h = HORSE_STEPS[s("g2")];
        assert!(h.iter().any(|(to, leg)| to == s("e1") && leg == s("f2")));
        let a = HORSE_ATTACKERS[s("e1")];
        assert!(
            a.iter()
                .any(|(from, leg)| from == s("g2") && leg == s("f2"))
        );
    }

    #[test]
    fn horse_attacker_sets_hold_exactly_the_attackers() {
        for to in 0..SQUARES {
            let listed: u128 = HORSE_ATTACKERS[to]
                .iter()
                .fold(0, |m, (from, _)| m | 1 << from);
            assert_eq!(HORSE_ATTACKER_SET[to], listed, "square {to}");
        }
        assert_eq!(HORSE_ATTACKER_SET[s("e4")].count_ones(), 8);
        assert_eq!(HORSE_ATTACKER_SET[s("a0")], 1 << s("b2") | 1 << s("c1"));
    }

    #[test]
    fn line_views() {
        // Rook on file e (index 4) of a rank with pieces on b, c, g, h.
        let occ = 0b1_1100_0110 & !(1 << 8) | (1 << 4);
        let v = RANK_VIEW[4][occ];
        assert_eq!(v.quiet, (1 << 3) | (1 << 5));
        assert_eq!(v.first, (1 << 2) | (1 << 6));
        assert_eq!(v.second, (1 << 1) | (1 << 7));
    }
}
