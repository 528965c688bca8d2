//! Tables held in memory, values unpacked: what the generator builds and
//! reads its captures from, and what `tb verify` checks.

use crate::index::{Indexer, Pos};
use crate::material::Material;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

/// One material set's values, by index (see [`crate::value`]).
pub struct Table {
    /// The index.
    pub indexer: Indexer,
    /// The packed values.
    pub values: Vec<u16>,
}

/// Tables by (canonical) material.
#[derive(Default, Clone)]
pub struct TableSet {
    tables: HashMap<Material, Arc<Table>, BuildHasherDefault<MaterialHasher>>,
}

/// FNV-1a (the files' checksum, [`crate::checksum::fnv`]) over a material's
/// few count bytes. `tb verify` looks a table up for every move of every
/// position, and the default SipHash was 6 % of its time; a set's keys are
/// our own files' materials, so a hash that resists chosen keys buys
/// nothing here.
pub(crate) struct MaterialHasher(u64);

impl Default for MaterialHasher {
    fn default() -> MaterialHasher {
        MaterialHasher(crate::checksum::FNV_START)
    }
}

impl Hasher for MaterialHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        self.0 = crate::checksum::fnv(self.0, bytes);
    }
}

impl TableSet {
    /// An empty set.
    pub fn new() -> TableSet {
        TableSet::default()
    }

    /// Add (or replace) a table.
    pub fn insert(&mut self, table: Table) {
        self.tables
            .insert(table.indexer.material(), Arc::new(table));
    }

    /// The table of a canonical material.
    pub fn get(&self, m: &Material) -> Option<&Arc<Table>> {
        self.tables.get(m)
    }

    /// The value of a position (any orientation) from its side to move's
    /// view, if its material is here.
    pub fn lookup(&self, pos: &Pos) -> Option<u16> {
        let (m, flip) = pos.material().canonical();
        let t = self.tables.get(&m)?;
        let p = if flip { pos.flipped() } else { *pos };
        let idx = t.indexer.encode(&p)?;
        t.values.get(idx as usize).copied()
    }
}

/// The tables one material's captures lead to, found once by the captured
/// piece's code: the generator looks a capture up without working out and
/// hashing the successor's material each time ([`TableSet::lookup`]).
pub struct Captures<'a> {
    /// By captured code: the table and whether its colours are swapped.
    by_code: [Option<(&'a Table, bool)>; 15],
}

impl<'a> Captures<'a> {
    /// The capture tables of `material` that `subs` holds.
    pub fn new(material: Material, subs: &'a TableSet) -> Captures<'a> {
        let mut by_code = [None; 15];
        let codes = material.codes();
        for (c, slot) in by_code.iter_mut().enumerate() {
            let Some(at) = codes.iter().position(|&x| usize::from(x) == c) else {
                continue;
            };
            let mut rest = codes.clone();
            rest.remove(at);
            let (m, flip) = Material::from_codes(rest).canonical();
            *slot = subs.get(&m).map(|t| (&**t, flip));
        }
        Captures { by_code }
    }

    /// The value of `next` (a position after a capture of a piece coded
    /// `captured`) from its side to move's view; `None` if that table is
    /// missing. The same as [`TableSet::lookup`].
    #[inline]
    pub fn lookup(&self, captured: u8, next: &Pos) -> Option<u16> {
        let (t, flip) = (*self.by_code.get(usize::from(captured))?)?;
        let p = if flip { next.flipped() } else { *next };
        let idx = t.indexer.encode(&p)?;
        t.values.get(idx as usize).copied()
    }
}
