//! Tables held in memory, values unpacked: what the generator builds and
//! reads its captures from, and what `tb verify` checks.

use crate::index::{Indexer, Pos};
use crate::material::Material;
use std::collections::HashMap;
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
    tables: HashMap<Material, Arc<Table>>,
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
