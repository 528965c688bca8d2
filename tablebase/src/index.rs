//! The index of a table: a one-to-one map between the positions of a
//! material set (with a side to move) and `0..size`.
//!
//! Each group of like pieces is placed as a combination of its allowed
//! squares (9 for a king, 5 for an advisor, 7 for an elephant, 55 for a
//! pawn, 90 for the others), so two advisors take `C(5,2) = 10` slots and
//! not 90². Left-right mirror symmetry puts Red's king on the `d` or `e`
//! file (6 squares instead of 9): a position with it on the `f` file is
//! mirrored first. Indices whose squares collide are invalid (and so are
//! illegal positions; see [`crate::generate`]).

use crate::geometry::{EMPTY, SQUARES, allowed_squares, code};
use crate::material::Material;
use xiangqi::{Color, PieceKind};

/// At most this many pieces in a table position: one attacker with both
/// advisors and both elephants against a king with the same (`KCAABBvKAABB`)
/// is eleven.
pub const MAX_PIECES: usize = 11;

/// A position of a table: the side to move and each piece's square, pieces
/// in the material's index order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    /// The side to move.
    pub side: Color,
    /// The number of pieces.
    pub n: usize,
    /// Piece codes.
    pub code: [u8; MAX_PIECES],
    /// Their squares.
    pub sq: [u8; MAX_PIECES],
}

impl Pos {
    /// The mailbox of this position.
    pub fn board(&self) -> [u8; SQUARES] {
        let mut b = [EMPTY; SQUARES];
        for i in 0..self.n {
            b[usize::from(self.sq[i])] = self.code[i];
        }
        b
    }

    /// The square of `color`'s king.
    pub fn king(&self, color: Color) -> usize {
        let k = code(color, PieceKind::King);
        (0..self.n)
            .find(|&i| self.code[i] == k)
            .map_or(0, |i| usize::from(self.sq[i]))
    }

    /// The material of this position.
    pub fn material(&self) -> Material {
        Material::from_codes(self.code[..self.n].iter().copied())
    }

    /// Colours swapped and the board turned round (the same game).
    pub fn flipped(&self) -> Pos {
        let mut p = *self;
        p.side = !self.side;
        for i in 0..self.n {
            p.code[i] = crate::geometry::flip_code(self.code[i]);
            p.sq[i] = (SQUARES - 1) as u8 - self.sq[i];
        }
        p
    }

    /// A position from a mailbox and the side to move.
    pub fn from_board(b: &[u8; SQUARES], side: Color) -> Option<Pos> {
        let mut p = Pos {
            side,
            n: 0,
            code: [0; MAX_PIECES],
            sq: [0; MAX_PIECES],
        };
        for (s, &c) in b.iter().enumerate() {
            if c != EMPTY {
                if p.n == MAX_PIECES {
                    return None;
                }
                p.code[p.n] = c;
                p.sq[p.n] = s as u8;
                p.n += 1;
            }
        }
        Some(p)
    }
}

/// One group of like pieces.
#[derive(Clone, Debug)]
struct Group {
    code: u8,
    count: usize,
    /// The allowed squares, in order.
    squares: Vec<u8>,
    /// Square -> position in `squares`, or `u8::MAX`.
    slot: [u8; SQUARES],
    /// `C(squares.len(), count)`.
    size: u64,
    /// What one step of this group's rank adds to the index (the product
    /// of the later groups' sizes).
    stride: u64,
    /// The position of its first piece in a decoded [`Pos`].
    first: usize,
    /// For two or more pieces (and not too many combinations): the squares
    /// of each rank's combination, ascending, so that decoding needs no
    /// search.
    combos: Vec<[u8; 5]>,
}

/// Groups with more combinations than this unrank by search.
const MAX_COMBO_TABLE: u64 = 1 << 16;

/// The slots (ascending) of the combination of `count` out of `len` with
/// rank `rank` in the combinatorial number system (rank = the sum of
/// `C(slot_k, k + 1)`).
fn unrank(len: usize, count: usize, mut rank: u64) -> [u8; 5] {
    let mut out = [0u8; 5];
    let mut top = len;
    for k in (1..=count).rev() {
        let mut s = top - 1;
        while binom(s, k) > rank {
            s -= 1;
        }
        rank -= binom(s, k);
        top = s;
        out[k - 1] = s as u8;
    }
    out
}

/// `C(n, k)` for small arguments.
fn binom(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u64, |acc, i| acc * (n - i) as u64 / (i as u64 + 1))
}

/// The index of one material set.
#[derive(Clone, Debug)]
pub struct Indexer {
    material: Material,
    groups: Vec<Group>,
    per_side: u64,
    binoms: Vec<[u64; 4]>,
    /// The group of each piece of a decoded [`Pos`].
    group_of: [u8; MAX_PIECES],
}

impl Indexer {
    /// The index of `material` (at most [`MAX_PIECES`] pieces).
    pub fn new(material: Material) -> Indexer {
        let mut groups = Vec::new();
        for color in [Color::Red, Color::Black] {
            for kind in PieceKind::ALL {
                let count = material.count(color, kind);
                if count == 0 {
                    continue;
                }
                let mut squares = allowed_squares(color, kind);
                if color == Color::Red && kind == PieceKind::King {
                    // Mirror symmetry: Red's king on the d or e file.
                    squares.retain(|&s| s % 9 <= 4);
                }
                let mut slot = [u8::MAX; SQUARES];
                for (i, &s) in squares.iter().enumerate() {
                    slot[usize::from(s)] = i as u8;
                }
                let size = binom(squares.len(), count);
                let combos = if count >= 2 && size <= MAX_COMBO_TABLE {
                    (0..size)
                        .map(|r| unrank(squares.len(), count, r).map(|x| squares[usize::from(x)]))
                        .collect()
                } else {
                    Vec::new()
                };
                groups.push(Group {
                    code: code(color, kind),
                    count,
                    size,
                    squares,
                    slot,
                    stride: 0,
                    first: 0,
                    combos,
                });
            }
        }
        // Red's king is first: code order puts Red before Black, kings first.
        let per_side = groups.iter().map(|g| g.size).product();
        let mut stride = 1;
        for g in groups.iter_mut().rev() {
            g.stride = stride;
            stride *= g.size;
        }
        let mut group_of = [0u8; MAX_PIECES];
        let mut first = 0;
        for (gi, g) in groups.iter_mut().enumerate() {
            g.first = first;
            for slot in group_of.iter_mut().skip(first).take(g.count) {
                *slot = gi as u8;
            }
            first += g.count;
        }
        let binoms = (0..=SQUARES)
            .map(|n| [1, binom(n, 1), binom(n, 2), binom(n, 3)])
            .collect();
        Indexer {
            material,
            groups,
            per_side,
            binoms,
            group_of,
        }
    }

    /// The material this index is for.
    pub fn material(&self) -> Material {
        self.material
    }

    /// The number of indices (both sides to move).
    pub fn size(&self) -> u64 {
        2 * self.per_side
    }

    /// The index of a position of this material, or `None` if a piece
    /// stands where its kind never can.
    pub fn encode(&self, pos: &Pos) -> Option<u64> {
        let mirror = pos.king(Color::Red) % 9 > 4;
        let mut idx = 0u64;
        for g in &self.groups {
            let mut slots = [0u8; 5];
            let mut k = 0;
            for i in 0..pos.n {
                if pos.code[i] == g.code {
                    let mut s = usize::from(pos.sq[i]);
                    if mirror {
                        s = s - s % 9 + 8 - s % 9;
                    }
                    let slot = g.slot[s];
                    if slot == u8::MAX || k == g.count {
                        return None;
                    }
                    slots[k] = slot;
                    k += 1;
                }
            }
            if k != g.count {
                return None;
            }
            idx = idx * g.size + self.rank(&mut slots[..k]);
        }
        Some(pos.side as u64 * self.per_side + idx)
    }

    /// The index after one piece of a decoded position moves without
    /// capturing and the turn passes (a move or an un-move): `pos` is
    /// [`Indexer::decode`]`(idx)` (so its pieces are in the index's order)
    /// and piece `i` goes to the empty square `to`. Only that piece's group
    /// is ranked again: much cheaper than [`Indexer::encode`], which the
    /// generator's inner loops would otherwise call for every (un-)move.
    /// `None` if `to` is not a square of the piece's kind; in particular
    /// Red's king on the f file, which needs the mirror (the caller uses
    /// [`Indexer::encode`] then, or skips it).
    #[inline]
    pub fn moved(&self, idx: u64, pos: &Pos, i: usize, to: usize) -> Option<u64> {
        let g = &self.groups[usize::from(self.group_of[i])];
        let new_slot = g.slot[to];
        if new_slot == u8::MAX {
            return None;
        }
        let (old, new) = if g.count == 1 {
            (
                u64::from(g.slot[usize::from(pos.sq[i])]),
                u64::from(new_slot),
            )
        } else {
            let mut before = [0u8; 5];
            let mut after = [0u8; 5];
            let pairs = before.iter_mut().zip(after.iter_mut()).take(g.count);
            for (j, (b, a)) in (g.first..).zip(pairs) {
                let s = g.slot[usize::from(pos.sq[j])];
                *b = s;
                *a = if j == i { new_slot } else { s };
            }
            (
                self.rank(&mut before[..g.count]),
                self.rank(&mut after[..g.count]),
            )
        };
        let turned = if idx >= self.per_side {
            idx - self.per_side
        } else {
            idx + self.per_side
        };
        Some(turned - old * g.stride + new * g.stride)
    }

    /// The rank of a combination of slots (sorted here).
    fn rank(&self, slots: &mut [u8]) -> u64 {
        slots.sort_unstable();
        slots
            .iter()
            .enumerate()
            .map(|(i, &s)| self.choose(usize::from(s), i + 1))
            .sum()
    }

    fn choose(&self, n: usize, k: usize) -> u64 {
        if k < 4 {
            self.binoms[n][k]
        } else {
            binom(n, k)
        }
    }

    /// The position of an index, or `None` if two pieces share a square.
    pub fn decode(&self, idx: u64) -> Option<Pos> {
        let side = if idx >= self.per_side {
            Color::Black
        } else {
            Color::Red
        };
        let mut rest = idx % self.per_side;
        let mut pos = Pos {
            side,
            n: 0,
            code: [0; MAX_PIECES],
            sq: [0; MAX_PIECES],
        };
        let mut used = [false; SQUARES];
        let mut n = self.groups.iter().map(|g| g.count).sum::<usize>();
        pos.n = n;
        // Pieces are placed from the last slot down; `false` if the square
        // is taken (two pieces on one square: no position).
        let mut place = |sq: usize, code: u8| {
            if used[sq] {
                return false;
            }
            used[sq] = true;
            n -= 1;
            pos.code[n] = code;
            pos.sq[n] = sq as u8;
            true
        };
        for g in self.groups.iter().rev() {
            let mut rank = rest % g.size;
            rest /= g.size;
            if g.count == 1 {
                // A single piece: the rank is its slot.
                if !place(usize::from(g.squares[rank as usize]), g.code) {
                    return None;
                }
                continue;
            }
            if !g.combos.is_empty() {
                // Largest first, as below.
                for &sq in g.combos[rank as usize][..g.count].iter().rev() {
                    if !place(usize::from(sq), g.code) {
                        return None;
                    }
                }
                continue;
            }
            // Unrank the combination: largest element first.
            let mut top = g.squares.len();
            for k in (1..=g.count).rev() {
                let mut s = top - 1;
                while self.choose(s, k) > rank {
                    s -= 1;
                }
                rank -= self.choose(s, k);
                top = s;
                if !place(usize::from(g.squares[s]), g.code) {
                    return None;
                }
            }
        }
        Some(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_then_encode_is_identity() {
        for name in ["KRvKAABB", "KPPvKA", "KRNvKR", "KvK"] {
            let ix = Indexer::new(name.parse().unwrap());
            let step = (ix.size() / 20011).max(1);
            let mut valid = 0;
            for idx in (0..ix.size()).step_by(step as usize) {
                if let Some(p) = ix.decode(idx) {
                    valid += 1;
                    assert_eq!(ix.encode(&p), Some(idx), "{name} {idx}");
                    assert_eq!(p.material(), ix.material());
                    // The mirror image has the same index unless Red's
                    // king is on the e file (then both images are stored).
                    let mut m = p;
                    for s in &mut m.sq[..m.n] {
                        *s = *s - *s % 9 + 8 - *s % 9;
                    }
                    if p.king(Color::Red) % 9 == 3 {
                        assert_eq!(ix.encode(&m), Some(idx));
                    }
                }
            }
            assert!(valid > 0);
        }
        let ix = Indexer::new("KRvKAABB".parse().unwrap());
        assert_eq!(ix.size(), 2 * 6 * 9 * 90 * 10 * 21);
    }

    /// The generator's cheap index of a moved piece is the full encoding
    /// (groups of one and of two pieces, pawns, Red's king; a move of
    /// Red's king onto the f file is left to the caller).
    #[test]
    fn moved_equals_encode() {
        for name in ["KRvKAABB", "KPPvKA", "KCAABBvKAABB", "KNvKR"] {
            let ix = Indexer::new(name.parse().unwrap());
            let step = (ix.size() / 997).max(1);
            let mut checked = 0;
            for idx in (0..ix.size()).step_by(step as usize) {
                let Some(p) = ix.decode(idx) else { continue };
                let b = p.board();
                for i in 0..p.n {
                    for (to, &c) in b.iter().enumerate() {
                        if c != EMPTY {
                            continue;
                        }
                        let mut q = p;
                        q.sq[i] = to as u8;
                        q.side = !p.side;
                        let want = if q.king(Color::Red) % 9 > 4 {
                            None
                        } else {
                            ix.encode(&q)
                        };
                        assert_eq!(ix.moved(idx, &p, i, to), want, "{name} {idx} {i} {to}");
                        checked += usize::from(want.is_some());
                    }
                }
            }
            assert!(checked > 1000, "{name}: {checked}");
        }
    }
}
