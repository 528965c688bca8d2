//! Reading and writing `.obk` files through SQLite (`rusqlite`, the cargo
//! feature `obk`). The rows are read into memory once; the keys' two forms
//! are handled here: INTEGER below 2^63, and REAL holding the key's 64 bits
//! when its top bit is set (so an `i64` would be negative).

use super::obk::{ObkBook, Row};
use rusqlite::types::Value;
use rusqlite::{Connection, OpenFlags};
use std::path::Path;

/// The rows of `bhobk` with `vvalid = 1`. Errors say what is wrong without
/// the file name (the caller adds it).
pub fn read(path: &Path) -> Result<ObkBook, String> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let db = Connection::open_with_flags(path, flags).map_err(|e| format!("SQLite: {e}"))?;
    let has_table: bool = db
        .query_row(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'bhobk'",
            [],
            |r| r.get::<_, i64>(0),
        )
        .map(|n| n > 0)
        .map_err(|e| format!("SQLite: {e}"))?;
    if !has_table {
        return Err("an SQLite database without a table bhobk: not a BHGUI .obk book".into());
    }
    let mut stmt = db
        .prepare("SELECT vkey, vmove, vscore, vwin, vdraw, vlost, vvalid FROM bhobk")
        .map_err(|e| format!("SQLite: {e}"))?;
    let mut rows = Vec::new();
    let mut skipped = 0;
    let mut query = stmt.query([]).map_err(|e| format!("SQLite: {e}"))?;
    while let Some(r) = query.next().map_err(|e| format!("SQLite: {e}"))? {
        let get = |i: usize| r.get::<_, Value>(i).unwrap_or(Value::Null);
        let key = match get(0) {
            Value::Integer(i) => Some(i as u64),
            Value::Real(f) => Some(f.to_bits()),
            Value::Text(t) => t.trim().parse::<u64>().ok(),
            _ => None,
        };
        let int = |i: usize| match get(i) {
            Value::Integer(v) => Some(v),
            Value::Real(f) if f.fract() == 0.0 => Some(f as i64),
            Value::Text(t) => t.trim().parse::<i64>().ok(),
            _ => None,
        };
        let count = |i: usize| int(i).unwrap_or(0).clamp(0, u32::MAX as i64) as u32;
        let vmove = int(1).and_then(|m| u16::try_from(m).ok());
        match (key, vmove, int(6)) {
            (Some(key), Some(vmove), Some(1)) => rows.push(Row {
                key,
                vmove,
                score: int(2).unwrap_or(0).clamp(i32::MIN as i64, i32::MAX as i64) as i32,
                win: count(3),
                draw: count(4),
                lost: count(5),
            }),
            _ => skipped += 1,
        }
    }
    Ok(ObkBook::from_rows(rows, skipped))
}

/// A new `.obk` at `path` (an existing file is replaced) with `rows`, all
/// valid. Returns how many were written.
pub fn write(path: &Path, rows: &[Row]) -> Result<usize, String> {
    let err = |e: rusqlite::Error| format!("SQLite: {e}");
    if path.exists() {
        std::fs::remove_file(path).map_err(|e| e.to_string())?;
    }
    let mut db = Connection::open(path).map_err(err)?;
    let tx = db.transaction().map_err(err)?;
    tx.execute_batch(
        // `vkey` has no declared type: with INTEGER affinity SQLite would
        // turn a REAL key that happens to be a whole number below 2^63
        // into that INTEGER, and its bits would be lost.
        "CREATE TABLE bhobk (id INTEGER PRIMARY KEY AUTOINCREMENT, vkey, \
         vmove INTEGER, vscore INTEGER, vwin INTEGER, vdraw INTEGER, vlost INTEGER, \
         vvalid INTEGER, vmemo TEXT, vindex INTEGER);
         CREATE INDEX bhobk_vkey ON bhobk (vkey);",
    )
    .map_err(err)?;
    let mut written = 0;
    {
        let mut insert = tx
            .prepare(
                "INSERT INTO bhobk (vkey, vmove, vscore, vwin, vdraw, vlost, vvalid, vmemo, vindex) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, 1, NULL, 0)",
            )
            .map_err(err)?;
        for r in rows {
            let f = f64::from_bits(r.key);
            // SQLite would keep a NaN as NULL: such a key (1 in 2048 of
            // the top-bit ones) goes in as the INTEGER of its bits, which
            // this reader reads back (VinXiangQi could not find it either
            // way: its query compares the text "NaN").
            let key = if r.key >> 63 == 0 || f.is_nan() {
                Value::Integer(r.key as i64)
            } else {
                Value::Real(f)
            };
            insert
                .execute(rusqlite::params![
                    key, r.vmove, r.score, r.win, r.draw, r.lost
                ])
                .map_err(err)?;
            written += 1;
        }
    }
    tx.commit().map_err(err)?;
    Ok(written)
}
