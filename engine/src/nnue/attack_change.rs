//! The attacks a move changes, found from the two squares it touches.
//!
//! Making a position's whole attack list again after each move and
//! comparing it with the last (what a refresh does) walks every piece's
//! lines and jumps twice: in a search with threat inputs that was a fifth
//! of the time (`perf`, 2026-12-08). A move changes only the occupants of
//! its two squares, so only a piece whose attacks read one of them can
//! attack differently after it:
//!
//! - the pieces on the two squares themselves (the mover, and what it
//!   captures);
//! - a piece that may step or jump onto one of them, or whose horse's leg
//!   or elephant's eye is one of them: every piece an orthogonal step, a
//!   diagonal step, two diagonal steps or a horse's jump away, of a kind
//!   that reads that square ([`NEAR`]);
//! - a rook or cannon whose line reaches one of them: along each line from
//!   the square, the first two pieces. (A rook's attack changes only if no
//!   piece stands between it and the nearest changed square on its line, a
//!   cannon's only if at most one does; those squares are the same before
//!   and after the move, so the walk from that changed square meets the
//!   rook first, the cannon first or second, on either board.)
//!
//! Those pieces' attacks are made on both boards and compared, piece by
//! piece (an attack names its attacker's square, so no other piece's can
//! match them); every other piece attacks the same pieces on the same
//! squares before and after. A test checks the changes against the two
//! whole lists after every move of random games and of random moves on
//! random crowded boards.

use super::block::Squares;
use super::threats::{DIAGONAL, JUMPS, ORTHOGONAL, at, steps};
use xiangqi::{FILES, PieceKind, RANKS, SQUARES};

/// A board as the attack code reads it: what each square holds (one more
/// square, always empty, that a step with nothing to pass through names),
/// and each rank's and file's occupied squares as bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct AttackBoard {
    cells: [u8; SQUARES + 1],
    /// Bit `f` of `ranks[r]`: the square on file `f`, rank `r` is occupied.
    ranks: [u16; RANKS],
    /// Bit `r` of `files[f]`: the same square.
    files: [u16; FILES],
    /// The squares of each kind's pieces (by `PieceKind` order, both
    /// colours; the eighth set is a place to put "no piece").
    kinds: [SquareSet; 8],
}

/// The set [`AttackBoard::kinds`] keeps a square code's piece in.
#[inline(always)]
const fn kind_of(code: u8) -> usize {
    if code == 0 {
        7
    } else {
        (code as usize - 1) % 7
    }
}

impl AttackBoard {
    pub(super) fn new(squares: &Squares) -> AttackBoard {
        let mut b = AttackBoard {
            cells: [0; SQUARES + 1],
            ranks: [0; RANKS],
            files: [0; FILES],
            kinds: [SquareSet::default(); 8],
        };
        b.cells[..SQUARES].copy_from_slice(squares);
        for (s, &c) in squares.iter().enumerate() {
            if c != 0 {
                b.ranks[s / FILES] |= 1 << (s % FILES);
                b.files[s % FILES] |= 1 << (s / FILES);
                b.kinds[kind_of(c)].insert_if(s, true);
            }
        }
        b
    }

    /// What each square holds.
    #[inline(always)]
    pub(super) fn squares(&self) -> &Squares {
        self.cells[..SQUARES].try_into().expect("SQUARES cells")
    }

    /// This board with the piece on `from` moved to `to`.
    #[inline(always)]
    pub(super) fn moved(&self, from: usize, to: usize) -> AttackBoard {
        let mut b = *self;
        let (mover, captured) = (kind_of(b.cells[from]), kind_of(b.cells[to]));
        b.kinds[mover].toggle(from);
        b.kinds[mover].toggle(to);
        b.kinds[captured].toggle(to);
        b.kinds[7] = SquareSet::default();
        b.cells[to] = b.cells[from];
        b.cells[from] = 0;
        b.ranks[from / FILES] &= !(1 << (from % FILES));
        b.files[from % FILES] &= !(1 << (from / FILES));
        b.ranks[to / FILES] |= 1 << (to % FILES);
        b.files[to % FILES] |= 1 << (to / FILES);
        b
    }

    /// The first two occupied squares from `s` along each orthogonal line,
    /// `SQUARES` where there is none: `[first, second]` right, left, up,
    /// down. From bits, with no branch: a line's pieces are a search for
    /// the lowest (or highest) bit.
    #[inline(always)]
    fn line_hits(&self, s: usize) -> [[usize; 2]; 4] {
        let (f, r) = (s % FILES, s / FILES);
        let [right, left] = scan(self.ranks[r], f, FILES);
        let [up, down] = scan(self.files[f], r, RANKS);
        let on_rank = |i: usize| if i < FILES { r * FILES + i } else { SQUARES };
        let on_file = |i: usize| if i < RANKS { i * FILES + f } else { SQUARES };
        [
            right.map(on_rank),
            left.map(on_rank),
            up.map(on_file),
            down.map(on_file),
        ]
    }

    /// The squares the piece `code` (`Piece::index() + 1`, not 0) on `s`
    /// attacks: the targets of [`threats::for_each_attack`]'s sense, found
    /// without a branch on what the squares hold.
    #[inline(always)]
    fn targets(&self, s: usize, code: u8) -> Targets {
        let mut t = Targets::default();
        let piece = code as usize - 1;
        match PieceKind::from_index(piece % 7) {
            kind @ (PieceKind::Rook | PieceKind::Cannon) => {
                let second = (kind == PieceKind::Cannon) as usize;
                for hits in self.line_hits(s) {
                    let to = hits[second];
                    t.to[t.n] = to as u8;
                    t.n += (to < SQUARES) as usize;
                }
            }
            _ => {
                let (to, via) = steps(piece, s);
                for (&to, &via) in to.iter().zip(via) {
                    t.to[t.n] = to;
                    let open = self.cells[via as usize] == 0;
                    t.n += (self.cells[to as usize] != 0 && open) as usize;
                }
            }
        }
        t
    }
}

/// The first two set bits of the `len`-bit `word` above bit `at` and the
/// first two below it, nearest first, as positions (`len` or more: none).
#[inline(always)]
fn scan(word: u16, at: usize, len: usize) -> [[usize; 2]; 2] {
    // Upwards: a guard bit at 16 keeps the shifted word non-zero.
    let up = (word as u32 >> (at + 1)) | 1 << 16;
    let up2 = up & (up - 1);
    let above = |rest: u32| at + 1 + rest.trailing_zeros() as usize;
    // Downwards: the bits below `at`, one place up over a guard bit at 0.
    let down = ((word as u32 & ((1 << at) - 1)) << 1) | 1;
    let top = 31 - down.leading_zeros() as usize;
    let down2 = (down ^ (1 << top)) | 1;
    let top2 = 31 - down2.leading_zeros() as usize;
    // Position `t - 1`, or none for the guard (`t` = 0).
    let below = |t: usize| if t >= 1 { t - 1 } else { len };
    [[above(up), above(up2)], [below(top), below(top2)]]
}

/// Up to eight attacked squares of one piece.
#[derive(Clone, Copy, Default)]
struct Targets {
    n: usize,
    to: [u8; 8],
}

impl Targets {
    #[inline(always)]
    fn as_slice(&self) -> &[u8] {
        &self.to[..self.n]
    }
}

/// The squares near each square, by how far: an orthogonal step, a
/// diagonal step, two diagonal steps, a horse's jump.
static NEAR: [[SquareSet; 4]; SQUARES] = near();

const fn near() -> [[SquareSet; 4]; SQUARES] {
    let mut t = [[SquareSet([0; 2]); 4]; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let (f, r) = ((s % FILES) as i32, (s / FILES) as i32);
        let mut k = 0;
        while k < 20 {
            let ((df, dr), class) = match k {
                0..4 => (ORTHOGONAL[k], 0),
                4..8 => (DIAGONAL[k - 4], 1),
                8..12 => ((2 * DIAGONAL[k - 8].0, 2 * DIAGONAL[k - 8].1), 2),
                _ => (JUMPS[k - 12], 3),
            };
            let q = at(f + df, r + dr);
            if q < SQUARES {
                t[s][class].0[q >> 6] |= 1 << (q & 63);
            }
            k += 1;
        }
        s += 1;
    }
    t
}

/// A set of squares, as two 64-bit words (no 128-bit shifts, which the
/// browser build pays for as calls); bits from `SQUARES` up stand for no
/// square and are never listed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct SquareSet([u64; 2]);

impl SquareSet {
    /// Adds `s` if `yes`, without a branch.
    #[inline(always)]
    fn insert_if(&mut self, s: usize, yes: bool) {
        self.0[(s >> 6) & 1] |= (yes as u64) << (s & 63);
    }

    /// Whether `s` is in the set (never for `SQUARES`, which stands for no
    /// square).
    #[inline(always)]
    fn contains(&self, s: usize) -> bool {
        self.0[(s >> 6) & 1] >> (s & 63) & 1 != 0
    }

    /// Adds `s` if it is not in the set, takes it away if it is.
    #[inline(always)]
    fn toggle(&mut self, s: usize) {
        self.0[s >> 6] ^= 1 << (s & 63);
    }

    /// Each square once, in increasing order.
    #[inline(always)]
    fn for_each(self, mut f: impl FnMut(usize)) {
        let words = [self.0[0], self.0[1] & ((1 << (SQUARES - 64)) - 1)];
        for (w, mut bits) in words.into_iter().enumerate() {
            while bits != 0 {
                f(w * 64 + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
    }
}

/// The squares of the pieces whose attacks may differ between `after` and
/// the board before it, which differed on `squares` alone (see the module
/// docs): the
/// two squares; near them, a king, pawn or horse an orthogonal step away
/// (the king's or pawn's target, the horse's leg), an advisor or elephant
/// a diagonal step away (the advisor's target, the elephant's eye), an
/// elephant two, a horse a jump; and along each line the first piece if a
/// rook or cannon, the second if a cannon. Every square but the two holds
/// the same piece on both boards, so `after`'s pieces say which.
#[inline(always)]
fn touched(after: &AttackBoard, squares: [usize; 2]) -> SquareSet {
    let mut set = SquareSet::default();
    let kinds = |kind: PieceKind| after.kinds[kind.index()];
    let (king, advisor, elephant) = (
        kinds(PieceKind::King),
        kinds(PieceKind::Advisor),
        kinds(PieceKind::Elephant),
    );
    let (horse, rook, cannon) = (
        kinds(PieceKind::Horse),
        kinds(PieceKind::Rook),
        kinds(PieceKind::Cannon),
    );
    let pawn = kinds(PieceKind::Pawn);
    for s in squares {
        set.insert_if(s, true);
        let near = &NEAR[s];
        for w in 0..2 {
            set.0[w] |= near[0].0[w] & (king.0[w] | horse.0[w] | pawn.0[w])
                | near[1].0[w] & (advisor.0[w] | elephant.0[w])
                | near[2].0[w] & elephant.0[w]
                | near[3].0[w] & horse.0[w];
        }
        for [first, second] in after.line_hits(s) {
            set.insert_if(first, rook.contains(first) || cannon.contains(first));
            set.insert_if(second, cannon.contains(second));
        }
    }
    set
}

/// How many attacks the board `squares` has (all of them).
pub(super) fn attack_count(squares: &Squares) -> usize {
    let mut n = 0;
    super::threats::for_each_attack(squares, |_, _| n += 1);
    n
}

/// The number of attacks each side of a change counted, so that a caller
/// can tell whether a list capped at its length would have differed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct ChangeCounts {
    /// Attacks the touched pieces had on `before`.
    pub(super) before: usize,
    /// Attacks they have on `after`.
    pub(super) after: usize,
}

/// Calls `f(board, from, to, added)` for each attack of the piece on
/// `from` on the piece on `to` that is on one board and not on the other:
/// `board` is `after`'s squares for an attack that came (`added`),
/// `before`'s for one that went. `after` is `before` with only `squares`
/// changed (a move's two squares). The counts returned say how many
/// attacks the touched pieces had on each board (the whole lists' lengths
/// differ by `after − before`).
#[inline(always)]
pub(super) fn for_each_changed_attack(
    before: &AttackBoard,
    after: &AttackBoard,
    squares: [usize; 2],
    mut f: impl FnMut(&Squares, usize, usize, bool),
) -> ChangeCounts {
    let mut counts = ChangeCounts::default();
    let (was_board, is_board) = (before.squares(), after.squares());
    touched(after, squares).for_each(|s| {
        let (was, is) = (before.cells[s], after.cells[s]);
        let old = if was != 0 {
            before.targets(s, was)
        } else {
            Targets::default()
        };
        let new = if is != 0 {
            after.targets(s, is)
        } else {
            Targets::default()
        };
        counts.before += old.n;
        counts.after += new.n;
        if was != is {
            for &t in old.as_slice() {
                f(was_board, s, t as usize, false);
            }
            for &t in new.as_slice() {
                f(is_board, s, t as usize, true);
            }
            return;
        }
        // The same piece on both boards: an attack stays if it reaches the
        // same square holding the same piece.
        let mut kept = 0u8;
        for &t in new.as_slice() {
            let t = t as usize;
            match old.as_slice().iter().position(|&o| o as usize == t) {
                Some(i) if before.cells[t] == after.cells[t] => kept |= 1 << i,
                _ => f(is_board, s, t, true),
            }
        }
        for (i, &t) in old.as_slice().iter().enumerate() {
            if kept & (1 << i) == 0 {
                f(was_board, s, t as usize, false);
            }
        }
    });
    counts
}

/// Random boards and moves for the tests of what follows attacks.
#[cfg(test)]
pub(super) mod random {
    use crate::nnue::attack_change::attack_count;
    use crate::nnue::block::Squares;
    use xiangqi::SQUARES;

    /// `next(n)`: a number in `0..n`, the same series for the same seed.
    pub(in crate::nnue) fn rng(seed: u64) -> impl FnMut(usize) -> usize {
        let mut r = xiangqi::rng::SplitMix64::new(seed);
        move |n| r.below(n as u64) as usize
    }

    /// Board `round` of a series and a random move on it (any piece to any
    /// other square; `None` when the square drawn is its own). Every other
    /// board holds 2 to 89 random pieces, the others rooks and cannons
    /// alone, which crowd past the attacks a list keeps (four each on a
    /// full board); every third, sliders added until near `cap` attacks,
    /// where a move may cross it.
    pub(in crate::nnue) fn board_and_move(
        round: usize,
        cap: usize,
        next: &mut impl FnMut(usize) -> usize,
    ) -> Option<(Squares, usize, usize)> {
        let sliders = [5, 6, 12, 13];
        let mut squares: Squares = [0; SQUARES];
        if round.is_multiple_of(3) {
            let near = cap - 6 + next(12);
            while attack_count(&squares) < near {
                squares[next(SQUARES)] = sliders[next(4)];
            }
        } else {
            for _ in 0..2 + round % 88 {
                squares[next(SQUARES)] = match round % 2 {
                    0 => 1 + next(14) as u8,
                    _ => sliders[next(4)],
                };
            }
        }
        let occupied: Vec<usize> = (0..SQUARES).filter(|&q| squares[q] != 0).collect();
        let (from, to) = (occupied[next(occupied.len())], next(SQUARES));
        (from != to).then_some((squares, from, to))
    }
}

#[cfg(test)]
#[path = "attack_change_tests.rs"]
mod tests;
