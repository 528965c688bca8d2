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

/// At most this many pieces in a table position.
pub const MAX_PIECES: usize = 10;

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
                groups.push(Group {
                    code: code(color, kind),
                    count,
                    size: binom(squares.len(), count),
                    squares,
                    slot,
                });
            }
        }
        // Red's king is first: code order puts Red before Black, kings first.
        let per_side = groups.iter().map(|g| g.size).product();
        let binoms = (0..=SQUARES)
            .map(|n| [1, binom(n, 1), binom(n, 2), binom(n, 3)])
            .collect();
        Indexer {
            material,
            groups,
            per_side,
            binoms,
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
            let slots = &mut slots[..k];
            slots.sort_unstable();
            let rank: u64 = slots
                .iter()
                .enumerate()
                .map(|(i, &s)| self.choose(usize::from(s), i + 1))
                .sum();
            idx = idx * g.size + rank;
        }
        Some(pos.side as u64 * self.per_side + idx)
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
        for g in self.groups.iter().rev() {
            let mut rank = rest % g.size;
            rest /= g.size;
            // Unrank the combination: largest element first.
            let mut top = g.squares.len();
            for k in (1..=g.count).rev() {
                let mut s = top - 1;
                while self.choose(s, k) > rank {
                    s -= 1;
                }
                rank -= self.choose(s, k);
                top = s;
                let sq = usize::from(g.squares[s]);
                if used[sq] {
                    return None;
                }
                used[sq] = true;
                n -= 1;
                pos.code[n] = g.code;
                pos.sq[n] = sq as u8;
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
}
