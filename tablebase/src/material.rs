//! Material sets: which pieces each side has, their names (`KRvKAABB`),
//! the canonical orientation a table is stored in, and the smaller sets a
//! capture leads to.

use std::fmt;
use xiangqi::{Color, PieceKind};

/// The kinds in the order names write them: king, attackers, defenders.
const NAME_ORDER: [PieceKind; 7] = [
    PieceKind::King,
    PieceKind::Rook,
    PieceKind::Horse,
    PieceKind::Cannon,
    PieceKind::Pawn,
    PieceKind::Advisor,
    PieceKind::Elephant,
];

/// How many pieces of each kind each side has, `[color][kind]` with
/// `xiangqi`'s kind indices. Each side has exactly one king.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Material {
    counts: [[u8; 7]; 2],
}

/// A material name that cannot be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("'{0}' is not a material name (like KRvKAABB: each side's king and pieces, 'v' between)")]
pub struct MaterialError(pub String);

impl Material {
    /// The material of a list of piece codes (see [`crate::geometry::code`]).
    pub fn from_codes(codes: impl IntoIterator<Item = u8>) -> Material {
        let mut counts = [[0u8; 7]; 2];
        for c in codes {
            let (color, kind) = (crate::geometry::color_of(c), crate::geometry::kind_of(c));
            counts[color.index()][kind.index()] += 1;
        }
        Material { counts }
    }

    /// How many pieces of `color` and `kind`.
    pub fn count(&self, color: Color, kind: PieceKind) -> usize {
        usize::from(self.counts[color.index()][kind.index()])
    }

    /// The pieces of both sides as codes, Red's first, each side in the
    /// order king, advisors, elephants, then the others (the index order).
    pub fn codes(&self) -> Vec<u8> {
        let mut v = Vec::new();
        for color in [Color::Red, Color::Black] {
            for kind in PieceKind::ALL {
                for _ in 0..self.count(color, kind) {
                    v.push(crate::geometry::code(color, kind));
                }
            }
        }
        v
    }

    /// The same material with the colours swapped.
    pub fn flipped(&self) -> Material {
        Material {
            counts: [self.counts[1], self.counts[0]],
        }
    }

    /// The strength order that decides which side a table calls Red:
    /// attackers first (rooks, horses, cannons, pawns), then defenders.
    fn side_key(&self, color: Color) -> [u8; 6] {
        let c = &self.counts[color.index()];
        let k = |kind: PieceKind| c[kind.index()];
        [
            k(PieceKind::Rook),
            k(PieceKind::Horse),
            k(PieceKind::Cannon),
            k(PieceKind::Pawn),
            k(PieceKind::Advisor),
            k(PieceKind::Elephant),
        ]
    }

    /// Whether this material is stored as it is (Red the stronger side, or
    /// both sides alike); if not, its table is that of [`Material::flipped`].
    pub fn is_canonical(&self) -> bool {
        self.side_key(Color::Red) >= self.side_key(Color::Black)
    }

    /// The stored orientation, and whether the colours were swapped.
    pub fn canonical(&self) -> (Material, bool) {
        if self.is_canonical() {
            (*self, false)
        } else {
            (self.flipped(), true)
        }
    }

    /// The canonical materials one capture away.
    pub fn captures(&self) -> Vec<Material> {
        let mut out = Vec::new();
        for color in [Color::Red, Color::Black] {
            for kind in PieceKind::ALL.into_iter().skip(1) {
                if self.count(color, kind) > 0 {
                    let mut m = *self;
                    m.counts[color.index()][kind.index()] -= 1;
                    let c = m.canonical().0;
                    if !out.contains(&c) {
                        out.push(c);
                    }
                }
            }
        }
        out
    }

    /// This material and every material captures can lead to, smallest
    /// first (each after the tables its captures need).
    pub fn closure(&self) -> Vec<Material> {
        let mut order = Vec::new();
        fn visit(m: Material, order: &mut Vec<Material>) {
            if order.contains(&m) {
                return;
            }
            for c in m.captures() {
                visit(c, order);
            }
            order.push(m);
        }
        visit(self.canonical().0, &mut order);
        order
    }

    /// Total number of pieces, kings included.
    pub fn pieces(&self) -> usize {
        self.counts.iter().flatten().map(|&c| usize::from(c)).sum()
    }

    fn side_name(&self, color: Color) -> String {
        NAME_ORDER
            .iter()
            .map(|&k| k.letter().to_string().repeat(self.count(color, k)))
            .collect()
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}v{}",
            self.side_name(Color::Red),
            self.side_name(Color::Black)
        )
    }
}

impl std::str::FromStr for Material {
    type Err = MaterialError;
    /// Reads `KRvKAABB` (any order of letters within a side, upper case):
    /// one king a side, at most the pieces a side starts with.
    fn from_str(s: &str) -> Result<Material, MaterialError> {
        let err = || MaterialError(s.to_string());
        let (red, black) = s.split_once('v').ok_or_else(err)?;
        let mut counts = [[0u8; 7]; 2];
        for (i, side) in [red, black].into_iter().enumerate() {
            for ch in side.chars() {
                if !ch.is_ascii_uppercase() {
                    return Err(err());
                }
                let kind = PieceKind::from_letter(ch).ok_or_else(err)?;
                counts[i][kind.index()] += 1;
                if usize::from(counts[i][kind.index()]) > kind.max_count() {
                    return Err(err());
                }
            }
            if counts[i][PieceKind::King.index()] != 1 {
                return Err(err());
            }
        }
        Ok(Material { counts })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_canonical_side() {
        let m: Material = "KRvKAABB".parse().unwrap();
        assert_eq!(m.to_string(), "KRvKAABB");
        assert!(m.is_canonical());
        let f: Material = "KAABBvKR".parse().unwrap();
        assert!(!f.is_canonical());
        assert_eq!(f.canonical(), (m, true));
        assert!("KRvKRv".parse::<Material>().is_err());
        assert!("KKRvK".parse::<Material>().is_err());
        assert!("KRRRvK".parse::<Material>().is_err());
        assert!("krvk".parse::<Material>().is_err());
        let c: Vec<String> = m.closure().iter().map(|m| m.to_string()).collect();
        assert_eq!(c.last().unwrap(), "KRvKAABB");
        assert!(c.contains(&"KvK".to_string()) && c.contains(&"KRvK".to_string()));
        assert!(c.contains(&"KAABBvK".to_string()), "{c:?}");
    }
}
