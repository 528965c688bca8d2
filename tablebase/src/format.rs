//! The table file format (`.jtb`), written by `tb gen` and read through
//! memory mapping (or from bytes, for the web build).
//!
//! A file is a 128-byte header, a block offset table and the blocks; all
//! integers little-endian:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `JJXQTB\x1a\n` |
//! | 8 | 4 | format version (1) |
//! | 12 | 4 | bytes per value (1 or 2) |
//! | 16 | 32 | material name, ASCII, NUL-padded (`KRvKAABB`) |
//! | 48 | 8 | indices |
//! | 56 | 4 | values per block |
//! | 60 | 4 | blocks |
//! | 64 | 8×4 | wins, draws, losses, legal positions |
//! | 96 | 4 | longest distance to mate |
//! | 100 | 4 | zero |
//! | 104 | 8 | bytes of blocks |
//! | 112 | 8 | FNV-1a 64 checksum of the whole file, these 8 bytes as zero |
//! | 120 | 8 | zero |
//!
//! Then `blocks + 1` offsets (u64, from the first block's start), then the
//! blocks: each the values of `values per block` indices (the last may be
//! shorter), packed (1 byte: 0 a draw, `d + 1` a result `d` plies from mate,
//! 255 no legal position; 2 bytes: the same in a `u16`, `u16::MAX` for no
//! position) and compressed with LZ4 (block format).

use crate::checksum::{FNV_START, fnv};
use crate::material::Material;
#[cfg(feature = "generate")]
use crate::stats::Stats;
#[cfg(feature = "generate")]
use crate::table::Table;
use crate::value::INVALID;
use std::path::Path;
use std::sync::Mutex;

/// The magic bytes a table file starts with.
pub const MAGIC: &[u8; 8] = b"JJXQTB\x1a\n";
/// The format version this code writes and reads.
pub const VERSION: u32 = 1;
const HEADER: usize = 128;
/// Values per compressed block: small enough that a probe decompresses
/// little, large enough that LZ4 finds runs.
pub const BLOCK: usize = 8192;

/// Why a table file was refused.
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// Not a table file, or damaged.
    #[error("{path}: {what}")]
    Bad {
        /// The file.
        path: String,
        /// What is wrong.
        what: String,
    },
}

/// The checksum of a file's bytes (the checksum field counted as zero).
fn checksum(bytes: &[u8]) -> u64 {
    let h = fnv(FNV_START, &bytes[..112]);
    let h = fnv(h, &[0; 8]);
    fnv(h, &bytes[120..])
}

/// The bytes of a table file for `table`.
#[cfg(feature = "generate")]
pub fn encode(table: &Table, stats: &Stats) -> Vec<u8> {
    let wide = stats.max_dtm >= 254;
    let mut blocks = Vec::new();
    let mut offsets = vec![0u64];
    let mut raw = Vec::with_capacity(BLOCK * 2);
    for chunk in table.values.chunks(BLOCK) {
        raw.clear();
        for &v in chunk {
            if wide {
                raw.extend_from_slice(&v.to_le_bytes());
            } else {
                raw.push(if v == INVALID { 255 } else { v as u8 });
            }
        }
        blocks.extend_from_slice(&lz4_flex::block::compress(&raw));
        offsets.push(blocks.len() as u64);
    }
    let mut out = Vec::with_capacity(HEADER + offsets.len() * 8 + blocks.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(if wide { 2u32 } else { 1 }).to_le_bytes());
    let mut name = [0u8; 32];
    let m = table.indexer.material().to_string();
    name[..m.len()].copy_from_slice(m.as_bytes());
    out.extend_from_slice(&name);
    out.extend_from_slice(&(table.values.len() as u64).to_le_bytes());
    out.extend_from_slice(&(BLOCK as u32).to_le_bytes());
    out.extend_from_slice(&((offsets.len() - 1) as u32).to_le_bytes());
    for x in [stats.wins, stats.draws, stats.losses, stats.legal] {
        out.extend_from_slice(&x.to_le_bytes());
    }
    out.extend_from_slice(&u32::from(stats.max_dtm).to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&(blocks.len() as u64).to_le_bytes());
    out.extend_from_slice(&0u64.to_le_bytes());
    out.extend_from_slice(&0u64.to_le_bytes());
    debug_assert_eq!(out.len(), HEADER);
    for o in offsets {
        out.extend_from_slice(&o.to_le_bytes());
    }
    out.extend_from_slice(&blocks);
    let sum = checksum(&out);
    out[112..120].copy_from_slice(&sum.to_le_bytes());
    out
}

/// Write `table` to `dir/<material>.jtb` (through a temporary file, so a
/// reader never sees half a table).
#[cfg(feature = "generate")]
pub fn write(dir: &Path, table: &Table, stats: &Stats) -> std::io::Result<u64> {
    let bytes = encode(table, stats);
    let name = format!("{}.jtb", table.indexer.material());
    let tmp = dir.join(format!("{name}.tmp"));
    std::fs::write(&tmp, &bytes)?;
    std::fs::rename(&tmp, dir.join(name))?;
    Ok(bytes.len() as u64)
}

/// The bytes of a file: mapped, or owned.
enum Bytes {
    Mapped(memmap2::Mmap),
    Owned(Vec<u8>),
}

impl std::ops::Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Mapped(m) => m,
            Bytes::Owned(v) => v,
        }
    }
}

/// A table file, checked and ready to probe.
pub struct TableFile {
    bytes: Bytes,
    material: Material,
    size: u64,
    wide: bool,
    blocks: usize,
    /// Header figures: wins, draws, losses, legal positions, longest mate.
    pub counts: [u64; 4],
    /// The longest distance to mate.
    pub max_dtm: u32,
    /// The last block decompressed (probes of one search tend to stay near).
    cache: Mutex<Option<(usize, Vec<u16>)>>,
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}
fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

impl TableFile {
    /// Open and check a file through memory mapping.
    pub fn open(path: &Path) -> Result<TableFile, FormatError> {
        let io = |source| FormatError::Io {
            path: path.display().to_string(),
            source,
        };
        let file = std::fs::File::open(path).map_err(io)?;
        // SAFETY: the map is read-only and table files are written once
        // (through a rename) and never changed in place; a file truncated
        // or rewritten under a running engine is the one case this cannot
        // guard against, as with any mapped file.
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(io)?;
        TableFile::check(Bytes::Mapped(map), &path.display().to_string())
    }

    /// Check and use bytes already in memory (for the web build).
    pub fn from_bytes(bytes: Vec<u8>, name: &str) -> Result<TableFile, FormatError> {
        TableFile::check(Bytes::Owned(bytes), name)
    }

    fn check(bytes: Bytes, path: &str) -> Result<TableFile, FormatError> {
        let bad = |what: String| FormatError::Bad {
            path: path.to_string(),
            what,
        };
        let b = &bytes[..];
        if b.len() < HEADER || &b[..8] != MAGIC {
            return Err(bad(
                "not a Jiangjun tablebase file (wrong magic or too short)".into(),
            ));
        }
        let version = u32_at(b, 8);
        if version != VERSION {
            return Err(bad(format!(
                "format version {version}, this program reads version {VERSION}"
            )));
        }
        let width = u32_at(b, 12);
        let name = &b[16..48];
        let name = std::str::from_utf8(&name[..name.iter().position(|&c| c == 0).unwrap_or(32)])
            .map_err(|_| bad("material name is not text".into()))?;
        let material: Material = name.parse().map_err(|e| bad(format!("material: {e}")))?;
        let size = u64_at(b, 48);
        let block = u32_at(b, 56) as usize;
        let blocks = u32_at(b, 60) as usize;
        let payload = u64_at(b, 104);
        if (width != 1 && width != 2)
            || block != BLOCK
            || size != crate::index::Indexer::new(material).size()
        {
            return Err(bad("header does not match the material's table".into()));
        }
        if blocks as u64 != size.div_ceil(BLOCK as u64) {
            return Err(bad("wrong number of blocks".into()));
        }
        let want = HEADER as u64 + (blocks as u64 + 1) * 8 + payload;
        if b.len() as u64 != want {
            return Err(bad(format!(
                "{} bytes where the header promises {want}: truncated or damaged",
                b.len()
            )));
        }
        if checksum(b) != u64_at(b, 112) {
            return Err(bad("checksum mismatch: the file is damaged".into()));
        }
        let offsets = HEADER;
        let mut last = 0;
        for i in 0..=blocks {
            let o = u64_at(b, offsets + 8 * i);
            if o < last || o > payload || (i == 0 && o != 0) {
                return Err(bad("block offsets out of order".into()));
            }
            last = o;
        }
        let counts = [u64_at(b, 64), u64_at(b, 72), u64_at(b, 80), u64_at(b, 88)];
        let max_dtm = u32_at(b, 96);
        Ok(TableFile {
            bytes,
            material,
            size,
            wide: width == 2,
            blocks,
            counts,
            max_dtm,
            cache: Mutex::new(None),
        })
    }

    /// The material of the table.
    pub fn material(&self) -> Material {
        self.material
    }

    /// The number of indices.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The bytes of the file.
    pub fn file_len(&self) -> usize {
        self.bytes.len()
    }

    /// The values of block `i`, or a message if it does not decompress to
    /// its length (damage the checksum missed).
    fn block(&self, i: usize) -> Result<Vec<u16>, String> {
        let b = &self.bytes[..];
        let base = HEADER + (self.blocks + 1) * 8;
        let (lo, hi) = (u64_at(b, HEADER + 8 * i), u64_at(b, HEADER + 8 * (i + 1)));
        let n = (self.size as usize - i * BLOCK).min(BLOCK);
        let raw_len = if self.wide { 2 * n } else { n };
        let raw = lz4_flex::block::decompress(&b[base + lo as usize..base + hi as usize], raw_len)
            .map_err(|e| format!("{}: block {i}: {e}", self.material))?;
        if raw.len() != raw_len {
            return Err(format!("{}: block {i} has the wrong length", self.material));
        }
        Ok(if self.wide {
            raw.chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .collect()
        } else {
            raw.iter()
                .map(|&v| if v == 255 { INVALID } else { u16::from(v) })
                .collect()
        })
    }

    /// The packed value of index `idx` (see [`crate::value`]).
    pub fn get(&self, idx: u64) -> Result<u16, String> {
        if idx >= self.size {
            return Err(format!("{}: index {idx} out of range", self.material));
        }
        let (bi, off) = ((idx as usize) / BLOCK, (idx as usize) % BLOCK);
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((i, v)) = cache.as_ref()
            && *i == bi
        {
            return Ok(v[off]);
        }
        let v = self.block(bi)?;
        let r = v[off];
        *cache = Some((bi, v));
        Ok(r)
    }

    /// Every value, unpacked (for the generator's captures and `tb verify`).
    pub fn values(&self) -> Result<Vec<u16>, String> {
        let mut out = Vec::with_capacity(self.size as usize);
        for i in 0..self.blocks {
            out.extend(self.block(i)?);
        }
        Ok(out)
    }
}
