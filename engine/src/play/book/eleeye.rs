//! ElephantEye's opening book, `BOOK.DAT`: 8-byte records (`u32` lock, `u16`
//! move, `u16` weight, little-endian) sorted by the lock, with no header.
//!
//! The lock is ElephantEye's `dwLock1`: a Zobrist key whose numbers come
//! from an RC4 keystream keyed with four zero bytes, drawn as ElephantEye's
//! `PreGen` does (the side key first, then the 14 × 256 piece-square table,
//! each entry three `u32`: key, lock0, lock1). The side key is XORed in when
//! Black is to move. Squares are on ElephantEye's 16 × 16 board (`0x33 +
//! file + 16 * (9 - rank)`), and a move is `src + dst * 256`.
//!
//! A probe binary-searches the position's lock; only when it is absent is
//! the left-right mirror tried, its moves mirrored back (ElephantEye's
//! `GetBookMoves`). Moves that are not legal in the position are dropped.

use super::entry::{Entry, Found};
use std::sync::OnceLock;
use xiangqi::board::Board;
use xiangqi::types::{Color, Move, SQUARES, Square};

/// Size of a record.
pub const RECORD: usize = 8;

/// ElephantEye's RC4 generator (`base/rc4prng.h`).
struct Rc4 {
    s: [u8; 256],
    x: u8,
    y: u8,
}

impl Rc4 {
    /// Keyed with `key` (ElephantEye's `InitZero` passes four zero bytes).
    fn new(key: &[u8]) -> Rc4 {
        let mut s = [0u8; 256];
        for (i, v) in s.iter_mut().enumerate() {
            *v = i as u8;
        }
        let mut j = 0u8;
        for i in 0..256 {
            j = j.wrapping_add(s[i]).wrapping_add(key[i % key.len()]);
            s.swap(i, j as usize);
        }
        Rc4 { s, x: 0, y: 0 }
    }

    fn next_byte(&mut self) -> u8 {
        self.x = self.x.wrapping_add(1);
        self.y = self.y.wrapping_add(self.s[self.x as usize]);
        self.s.swap(self.x as usize, self.y as usize);
        let t = self.s[self.x as usize].wrapping_add(self.s[self.y as usize]);
        self.s[t as usize]
    }

    /// Four bytes, the first the lowest (the `union` of `NextLong`).
    fn next_u32(&mut self) -> u32 {
        u32::from_le_bytes([
            self.next_byte(),
            self.next_byte(),
            self.next_byte(),
            self.next_byte(),
        ])
    }
}

/// The `dwLock1` numbers: the side key and `[piece][engine square]`.
struct Locks {
    black: u32,
    pieces: [[u32; SQUARES]; 14],
}

fn locks() -> &'static Locks {
    static LOCKS: OnceLock<Locks> = OnceLock::new();
    LOCKS.get_or_init(|| {
        let mut rc4 = Rc4::new(&[0; 4]);
        // Each Zobrist entry draws key, lock0, lock1; only lock1 is kept.
        let mut lock1 = || {
            rc4.next_u32();
            rc4.next_u32();
            rc4.next_u32()
        };
        let black = lock1();
        let mut pieces = [[0u32; SQUARES]; 14];
        for piece in pieces.iter_mut() {
            for sq16 in 0..256 {
                let v = lock1();
                if let Some(sq) = square_of(sq16) {
                    piece[sq.index()] = v;
                }
            }
        }
        Locks { black, pieces }
    })
}

/// ElephantEye's square of an engine square.
pub fn square16(sq: Square) -> u16 {
    (0x33 + sq.file() + 16 * (9 - sq.rank())) as u16
}

/// The engine square of an ElephantEye square, if it is on the board.
pub fn square_of(sq16: usize) -> Option<Square> {
    let (x, y) = (sq16 & 15, sq16 >> 4);
    ((3..=11).contains(&x) && (3..=12).contains(&y)).then(|| Square::new(x - 3, 12 - y))
}

/// ElephantEye's move (`src + dst * 256`).
pub fn move16(mv: Move) -> u16 {
    square16(mv.from()) | square16(mv.to()) << 8
}

/// The engine move of an ElephantEye move, if both squares are on the board.
pub fn move_of(mv16: u16) -> Option<Move> {
    let from = square_of((mv16 & 255) as usize)?;
    let to = square_of((mv16 >> 8) as usize)?;
    Some(Move::new(from, to))
}

/// ElephantEye's lock of the position, or of its left-right mirror.
pub fn lock(board: &Board, mirror: bool) -> u32 {
    let t = locks();
    let mut key = if board.side_to_move() == Color::Black {
        t.black
    } else {
        0
    };
    for i in 0..SQUARES {
        let sq = Square::from_index_unchecked(i);
        if let Some(p) = board.piece_at(sq) {
            let at = if mirror { sq.mirror() } else { sq };
            key ^= t.pieces[p.index()][at.index()];
        }
    }
    key
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    pub lock: u32,
    pub mv: u16,
    pub weight: u16,
}

#[derive(Default)]
pub struct EleeyeBook {
    records: Vec<Record>,
}

impl EleeyeBook {
    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Whether `bytes` looks like a `BOOK.DAT`: whole records, sorted by
    /// the lock, every move's squares on the board. `Err` says why not.
    pub fn parse(bytes: &[u8]) -> Result<EleeyeBook, String> {
        if bytes.is_empty() {
            return Err("empty file".into());
        }
        if !bytes.len().is_multiple_of(RECORD) {
            return Err(format!(
                "{} bytes is not a whole number of ElephantEye's 8-byte records (truncated?)",
                bytes.len()
            ));
        }
        let mut records = Vec::with_capacity(bytes.len() / RECORD);
        for (i, r) in bytes.chunks_exact(RECORD).enumerate() {
            let rec = Record {
                lock: u32::from_le_bytes([r[0], r[1], r[2], r[3]]),
                mv: u16::from_le_bytes([r[4], r[5]]),
                weight: u16::from_le_bytes([r[6], r[7]]),
            };
            if move_of(rec.mv).is_none() {
                return Err(format!(
                    "record {i}: move 0x{:04x} is not on ElephantEye's board",
                    rec.mv
                ));
            }
            if records.last().is_some_and(|p: &Record| p.lock > rec.lock) {
                return Err(format!("record {i}: records are not sorted by their key"));
            }
            records.push(rec);
        }
        Ok(EleeyeBook { records })
    }

    /// The records' bytes, sorted by lock (stable: the order of moves of
    /// one position is kept).
    pub fn from_records(mut records: Vec<Record>) -> EleeyeBook {
        records.sort_by_key(|r| r.lock);
        EleeyeBook { records }
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.records.len() * RECORD);
        for r in &self.records {
            out.extend_from_slice(&r.lock.to_le_bytes());
            out.extend_from_slice(&r.mv.to_le_bytes());
            out.extend_from_slice(&r.weight.to_le_bytes());
        }
        out
    }

    fn range(&self, lock: u32) -> std::ops::Range<usize> {
        let lo = self.records.partition_point(|r| r.lock < lock);
        let hi = self.records.partition_point(|r| r.lock <= lock);
        lo..hi
    }

    /// The position's moves, else its mirror's mirrored back: heaviest
    /// first, ties in file order (ElephantEye's bubble sort is stable).
    pub fn probe(&self, board: &Board, legal_only: bool) -> Vec<Found> {
        for mirror in [false, true] {
            let range = self.range(lock(board, mirror));
            if range.is_empty() {
                continue;
            }
            let mut out = Vec::new();
            for i in range {
                let r = self.records[i];
                let Some(mut mv) = move_of(r.mv) else {
                    continue;
                };
                if mirror {
                    mv = mv.mirror();
                }
                if legal_only && !board.is_legal_move(mv) {
                    continue;
                }
                let entry = Entry {
                    mv,
                    weight: r.weight as u32,
                    score: 0,
                    games: 0,
                };
                out.push(Found {
                    entry,
                    records: vec![i],
                });
            }
            out.sort_by_key(|f| std::cmp::Reverse(f.entry.weight));
            // Found: ElephantEye does not look at the mirror then, even if
            // no move was legal.
            return out;
        }
        Vec::new()
    }
}

/// Records for each position's moves (the weights capped at 65535).
pub fn records_of(positions: &[(Board, Vec<Entry>)]) -> Vec<Record> {
    let mut out = Vec::new();
    for (board, entries) in positions {
        let lock = lock(board, false);
        for e in entries {
            out.push(Record {
                lock,
                mv: move16(e.mv),
                weight: e.weight.min(65535) as u16,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_and_moves_round_trip() {
        for i in 0..SQUARES {
            let sq = Square::from_index_unchecked(i);
            assert_eq!(square_of(square16(sq) as usize), Some(sq));
        }
        // a0 is ElephantEye's 0xc3, i9 its 0x3b.
        assert_eq!(square16(Square::new(0, 0)), 0xc3);
        assert_eq!(square16(Square::new(8, 9)), 0x3b);
        assert_eq!(square_of(0x32), None);
        let mv = Move::parse("h2e2").unwrap();
        assert_eq!(move_of(move16(mv)), Some(mv));
    }

    #[test]
    fn the_mirror_is_found_when_the_position_is_absent() {
        let mut b = Board::startpos();
        b.make_move(b.parse_move("h2e2").unwrap());
        let book = EleeyeBook::from_records(vec![Record {
            lock: lock(&b, false),
            mv: move16(Move::parse("h9g7").unwrap()),
            weight: 5,
        }]);
        let again = EleeyeBook::parse(&book.to_bytes()).unwrap();
        let mut m = Board::startpos();
        m.make_move(m.parse_move("b2e2").unwrap());
        let found = again.probe(&m, true);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].entry.mv.to_string(), "b9c7");
        assert_eq!(found[0].entry.weight, 5);
    }

    #[test]
    fn foreign_bytes_are_refused() {
        assert!(EleeyeBook::parse(b"").is_err());
        assert!(EleeyeBook::parse(b"1234567").is_err());
        // Off-board squares.
        assert!(EleeyeBook::parse(&[0, 0, 0, 0, 0, 0, 1, 0]).is_err());
        // Unsorted.
        let mv = move16(Move::parse("h2e2").unwrap()).to_le_bytes();
        let rec = |lock: u32| [&lock.to_le_bytes()[..], &mv, &[1, 0]].concat();
        assert!(EleeyeBook::parse(&[rec(2), rec(1)].concat()).is_err());
        assert!(EleeyeBook::parse(&[rec(1), rec(2)].concat()).is_ok());
    }
}
