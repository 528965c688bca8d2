//! Building a set of tables into a directory: each target and everything
//! its captures lead to, smallest first, reusing tables already there.

use crate::format::TableFile;
use crate::generate::generate;
use crate::index::Indexer;
use crate::material::Material;
use crate::stats::Stats;
use crate::table::{Table, TableSet};
use std::path::Path;
use std::time::Instant;

/// What building one table did.
#[derive(Debug, Clone)]
pub struct Built {
    /// The material.
    pub material: Material,
    /// Its figures.
    pub stats: Stats,
    /// Seconds to generate.
    pub seconds: f64,
    /// Bytes of the file.
    pub bytes: u64,
}

/// Build `targets` (and their captures' tables) into `dir`. Tables already
/// in `dir` are read, not built again. `report` hears of each table built.
pub fn build(
    dir: &Path,
    targets: &[Material],
    mut report: impl FnMut(&Built),
) -> Result<Vec<Built>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut order: Vec<Material> = Vec::new();
    for t in targets {
        for m in t.closure() {
            if !order.contains(&m) {
                order.push(m);
            }
        }
    }
    let mut set = TableSet::new();
    let mut built = Vec::new();
    for m in order {
        let path = dir.join(format!("{m}.jtb"));
        if path.exists() {
            let file = TableFile::open(&path).map_err(|e| e.to_string())?;
            set.insert(Table {
                indexer: Indexer::new(m),
                values: file.values()?,
            });
            continue;
        }
        let start = Instant::now();
        let (table, stats) = generate(m, &set);
        let seconds = start.elapsed().as_secs_f64();
        let bytes = crate::format::write(dir, &table, &stats)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let b = Built {
            material: m,
            stats,
            seconds,
            bytes,
        };
        report(&b);
        built.push(b);
        set.insert(table);
    }
    Ok(built)
}
