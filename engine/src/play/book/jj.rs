//! Jiangjun's own book format (`JJBOOK1`): a sorted array of records keyed
//! by the engine's own position key, read once into memory and searched by
//! bisection.
//!
//! File format (all integers little-endian):
//!
//! ```text
//! offset 0   8 bytes  magic "JJBOOK1\0"
//! offset 8   u32      number of records N
//! offset 12  u32      flags: bit 0 set = a position's mirror image is
//!                     probed only when it has no records itself (books
//!                     converted from other formats); clear = both merged
//! offset 16  N records of 16 bytes, sorted by (key, move):
//!            u64 key     Zobrist key of the position (side to move included)
//!            u16 move    from | to << 7 (the engine's move encoding)
//!            u16 weight  relative frequency, results weighted (2 per win, 1 per draw)
//!            i16 score   verification score of the move in centipawns, mover's view
//!            u16 games   games that played the move (capped at 65535)
//! ```
//!
//! Xiangqi is left-right symmetric: a probe also looks up the mirrored
//! position and mirrors the moves it finds there, so one side's lines serve
//! the other. A book built from games merges both (flags 0); a book
//! converted from ElephantEye's or BHGUI's takes the mirror only when the
//! position itself is absent, as they do, so that it answers as its source.

use super::entry::{Entry, Found};
use xiangqi::board::Board;
use xiangqi::types::Move;

pub const MAGIC: &[u8; 8] = b"JJBOOK1\0";
const HEADER: usize = 16;
/// Flag bit: the mirror only when the position is absent.
pub(super) const FLAG_MIRROR_IF_ABSENT: u32 = 1;
const RECORD: usize = 16;

/// The largest book file [`Book::load`](super::Book::load) reads: 16 Mi records (256 MiB),
/// far more than any book built from games.
pub const MAX_FILE_LEN: u64 = (HEADER + (1 << 24) * RECORD) as u64;

/// The default book, built into the binary so that it needs no file.
pub static DEFAULT_BOOK: &[u8] = include_bytes!("../../../book/jiangjun.book");

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Record {
    pub key: u64,
    pub mv: u16,
    pub weight: u16,
    pub score: i16,
    pub games: u16,
}

#[derive(Clone, Default)]
pub struct JjBook {
    records: Vec<Record>,
    flags: u32,
}

impl JjBook {
    /// A book of built records (flags 0: a position and its mirror merged).
    pub fn from_records(mut records: Vec<Record>) -> JjBook {
        records.sort();
        JjBook { records, flags: 0 }
    }

    /// A book answering every position as `positions` say (converted from
    /// another book): the mirror is taken only for absent positions.
    pub fn from_positions(positions: &[(Board, Vec<Entry>)]) -> JjBook {
        let mut records = Vec::new();
        for (board, entries) in positions {
            for e in entries {
                records.push(Record {
                    key: board.key(),
                    mv: e.mv.raw(),
                    weight: e.weight.min(65535) as u16,
                    score: e.score,
                    games: e.games.min(65535) as u16,
                });
            }
        }
        records.sort();
        JjBook {
            records,
            flags: FLAG_MIRROR_IF_ABSENT,
        }
    }

    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// Parse a book file's bytes, checking its structure.
    pub fn parse(bytes: &[u8]) -> Result<JjBook, String> {
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return Err("not a Jiangjun book (bad magic)".into());
        }
        let n = u32::from_le_bytes(bytes[8..12].try_into().map_err(|_| "short header")?) as usize;
        let flags = u32::from_le_bytes(bytes[12..16].try_into().map_err(|_| "short header")?);
        if flags & !FLAG_MIRROR_IF_ABSENT != 0 {
            return Err(format!("unknown flags 0x{flags:x} in the header"));
        }
        if bytes.len() as u64 != HEADER as u64 + n as u64 * RECORD as u64 {
            return Err(format!(
                "book of {} bytes does not hold the {n} records its header announces",
                bytes.len()
            ));
        }
        let mut records = Vec::with_capacity(n);
        for r in bytes[HEADER..].chunks_exact(RECORD) {
            let u16_at = |i: usize| u16::from_le_bytes([r[i], r[i + 1]]);
            records.push(Record {
                key: u64::from_le_bytes(r[0..8].try_into().map_err(|_| "short record")?),
                mv: u16_at(8),
                weight: u16_at(10),
                score: u16_at(12) as i16,
                games: u16_at(14),
            });
        }
        if !records.windows(2).all(|w| w[0] <= w[1]) {
            return Err("book records are not sorted".into());
        }
        Ok(JjBook { records, flags })
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + self.records.len() * RECORD);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(self.records.len() as u32).to_le_bytes());
        out.extend_from_slice(&self.flags.to_le_bytes());
        for r in &self.records {
            out.extend_from_slice(&r.key.to_le_bytes());
            out.extend_from_slice(&r.mv.to_le_bytes());
            out.extend_from_slice(&r.weight.to_le_bytes());
            out.extend_from_slice(&r.score.to_le_bytes());
            out.extend_from_slice(&r.games.to_le_bytes());
        }
        out
    }
    pub fn flags(&self) -> u32 {
        self.flags
    }

    fn range(&self, key: u64) -> std::ops::Range<usize> {
        let lo = self.records.partition_point(|r| r.key < key);
        let hi = self.records.partition_point(|r| r.key <= key);
        lo..hi
    }

    /// Book moves of a position (its own entries and its mirror image's,
    /// merged; or the mirror's only when the position has none, per the
    /// flags), heaviest first.
    pub fn probe(&self, board: &Board, legal_only: bool) -> Vec<Found> {
        let mut out: Vec<Found> = Vec::new();
        let mut add = |mv: Move, i: usize| {
            if legal_only && !board.is_legal_move(mv) {
                return;
            }
            let r = &self.records[i];
            match out.iter_mut().find(|f| f.entry.mv == mv) {
                Some(f) => {
                    f.entry.weight += r.weight as u32;
                    f.entry.games += r.games as u32;
                    f.records.push(i);
                }
                None => out.push(Found {
                    entry: Entry {
                        mv,
                        weight: r.weight as u32,
                        score: r.score,
                        games: r.games as u32,
                    },
                    records: vec![i],
                }),
            }
        };
        let own = self.range(board.key());
        let found_own = !own.is_empty();
        for i in own {
            add(Move::from_raw(self.records[i].mv), i);
        }
        let mirrored = board.mirrored();
        // A symmetric position is its own mirror: do not count it twice.
        let want_mirror = self.flags & FLAG_MIRROR_IF_ABSENT == 0 || !found_own;
        if want_mirror && mirrored.key() != board.key() {
            for i in self.range(mirrored.key()) {
                add(Move::from_raw(self.records[i].mv).mirror(), i);
            }
        }
        out.sort_by(|a, b| {
            b.entry
                .weight
                .cmp(&a.entry.weight)
                .then(a.entry.mv.raw().cmp(&b.entry.mv.raw()))
        });
        out
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A book record of `mv` from `board` (shared with the book's other tests).
    pub(crate) fn rec(board: &Board, mv: &str, weight: u16) -> Record {
        Record {
            key: board.key(),
            mv: board.parse_move(mv).unwrap().raw(),
            weight,
            score: 0,
            games: weight,
        }
    }

    fn moves(book: &JjBook, b: &Board) -> Vec<(String, u32)> {
        book.probe(b, true)
            .iter()
            .map(|f| (f.entry.mv.to_string(), f.entry.weight))
            .collect()
    }

    #[test]
    fn round_trip_and_probe() {
        let b = Board::startpos();
        let book = JjBook::from_records(vec![rec(&b, "h2e2", 30), rec(&b, "c3c4", 10)]);
        let again = JjBook::parse(&book.to_bytes()).unwrap();
        assert_eq!(again.len(), 2);
        // The start position is its own mirror image: its entries are not doubled.
        assert_eq!(
            moves(&again, &b),
            vec![("h2e2".into(), 30), ("c3c4".into(), 10)]
        );
    }

    #[test]
    fn mirrored_position_is_found() {
        let mut b = Board::startpos();
        b.make_move(b.parse_move("h2e2").unwrap());
        let book = JjBook::from_records(vec![rec(&b, "h9g7", 5)]);
        let mut m = Board::startpos();
        m.make_move(m.parse_move("b2e2").unwrap());
        assert_eq!(moves(&book, &m), vec![("b9c7".into(), 5)]);
    }

    /// Built books merge a position with its mirror; converted ones take
    /// the mirror only when the position has nothing, and say so in the
    /// header.
    #[test]
    fn the_flag_decides_whether_the_mirror_is_merged() {
        let mut b = Board::startpos();
        b.make_move(b.parse_move("h2e2").unwrap());
        let mut m = Board::startpos();
        m.make_move(m.parse_move("b2e2").unwrap());
        let built = JjBook::from_records(vec![rec(&b, "h9g7", 5), rec(&m, "b9c7", 2)]);
        assert_eq!(moves(&built, &b), vec![("h9g7".into(), 7)]);
        let entry = |board: &Board, mv: &str, weight: u32| Entry {
            mv: board.parse_move(mv).unwrap(),
            weight,
            score: 0,
            games: 0,
        };
        let converted = JjBook::from_positions(&[
            (b.clone(), vec![entry(&b, "h9g7", 5)]),
            (m.clone(), vec![entry(&m, "b9c7", 2)]),
        ]);
        let again = JjBook::parse(&converted.to_bytes()).unwrap();
        assert_eq!(again.flags(), FLAG_MIRROR_IF_ABSENT);
        assert_eq!(moves(&again, &b), vec![("h9g7".into(), 5)]);
        assert_eq!(moves(&again, &m), vec![("b9c7".into(), 2)]);
    }

    #[test]
    fn bad_files_are_rejected() {
        assert!(JjBook::parse(b"nonsense").is_err());
        let mut bytes = JjBook::from_records(vec![]).to_bytes();
        bytes[8] = 3;
        assert!(JjBook::parse(&bytes).is_err());
        let mut bytes = JjBook::from_records(vec![]).to_bytes();
        bytes[12] = 2;
        assert!(JjBook::parse(&bytes).is_err());
        assert_eq!(
            JjBook::parse(&JjBook::from_records(vec![]).to_bytes())
                .unwrap()
                .len(),
            0
        );
    }

    #[test]
    fn default_book_parses() {
        assert!(JjBook::parse(DEFAULT_BOOK).is_ok());
    }
}
