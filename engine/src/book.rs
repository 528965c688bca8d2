//! The opening book: a sorted array of records keyed by the engine's own
//! position key, read once into memory and searched by bisection.
//!
//! File format (all integers little-endian):
//!
//! ```text
//! offset 0   8 bytes  magic "JJBOOK1\0"
//! offset 8   u32      number of records N
//! offset 12  u32      reserved (0)
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
//! the other.

use xiangqi::board::Board;
use xiangqi::types::Move;

pub const MAGIC: &[u8; 8] = b"JJBOOK1\0";
const HEADER: usize = 16;
const RECORD: usize = 16;

/// The largest book file [`Book::load`] reads: 16 Mi records (256 MiB),
/// far more than any book built from games.
pub const MAX_FILE_LEN: u64 = (HEADER + (1 << 24) * RECORD) as u64;

/// The default book, built into the binary so that it needs no file.
pub static DEFAULT_BOOK: &[u8] = include_bytes!("../../book/jiangjun.book");

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Record {
    pub key: u64,
    pub mv: u16,
    pub weight: u16,
    pub score: i16,
    pub games: u16,
}

/// A book move found for a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub mv: Move,
    pub weight: u32,
    pub score: i16,
    pub games: u32,
}

#[derive(Default)]
pub struct Book {
    records: Vec<Record>,
}

impl Book {
    pub fn from_records(mut records: Vec<Record>) -> Book {
        records.sort();
        Book { records }
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
    pub fn parse(bytes: &[u8]) -> Result<Book, String> {
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return Err("not a Jiangjun book (bad magic)".into());
        }
        let n = u32::from_le_bytes(bytes[8..12].try_into().map_err(|_| "short header")?) as usize;
        if bytes.len() != HEADER + n * RECORD {
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
        Ok(Book { records })
    }

    /// Read a book file. Only a regular file of at most [`MAX_FILE_LEN`]
    /// bytes is read: a FIFO would block, a device such as `/dev/zero`
    /// would never end, and a huge file would fill the memory. Errors name
    /// the file.
    pub fn load(path: &std::path::Path) -> Result<Book, String> {
        let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
        let too_large = |len: u64| {
            err(&format!(
                "{len} bytes is too large for a book (at most {MAX_FILE_LEN})"
            ))
        };
        // Refused before reading, so a huge file costs nothing.
        if let Ok(meta) = std::fs::metadata(path)
            && meta.len() > MAX_FILE_LEN
        {
            return Err(too_large(meta.len()));
        }
        let bytes = crate::files::read_regular_file(path, MAX_FILE_LEN).map_err(|e| err(&e))?;
        // Only one byte past the limit is read, should the file have grown.
        if bytes.len() as u64 > MAX_FILE_LEN {
            return Err(too_large(bytes.len() as u64));
        }
        Book::parse(&bytes).map_err(|e| err(&e))
    }

    /// The built-in default book.
    pub fn default_book() -> Book {
        Book::parse(DEFAULT_BOOK).unwrap_or_default()
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + self.records.len() * RECORD);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(self.records.len() as u32).to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        for r in &self.records {
            out.extend_from_slice(&r.key.to_le_bytes());
            out.extend_from_slice(&r.mv.to_le_bytes());
            out.extend_from_slice(&r.weight.to_le_bytes());
            out.extend_from_slice(&r.score.to_le_bytes());
            out.extend_from_slice(&r.games.to_le_bytes());
        }
        out
    }

    fn lookup(&self, key: u64) -> &[Record] {
        let lo = self.records.partition_point(|r| r.key < key);
        let hi = self.records.partition_point(|r| r.key <= key);
        &self.records[lo..hi]
    }

    /// Legal book moves of a position (its own entries and its mirror
    /// image's, merged), heaviest first.
    pub fn probe(&self, board: &Board) -> Vec<Entry> {
        let mut out: Vec<Entry> = Vec::new();
        let mut add = |mv: Move, r: &Record| {
            if !board.is_legal_move(mv) {
                return;
            }
            match out.iter_mut().find(|e| e.mv == mv) {
                Some(e) => {
                    e.weight += r.weight as u32;
                    e.games += r.games as u32;
                }
                None => out.push(Entry {
                    mv,
                    weight: r.weight as u32,
                    score: r.score,
                    games: r.games as u32,
                }),
            }
        };
        for r in self.lookup(board.key()) {
            add(Move::from_raw(r.mv), r);
        }
        let mirrored = board.mirrored();
        // A symmetric position is its own mirror: do not count it twice.
        if mirrored.key() != board.key() {
            for r in self.lookup(mirrored.key()) {
                add(Move::from_raw(r.mv).mirror(), r);
            }
        }
        out.sort_by(|a, b| b.weight.cmp(&a.weight).then(a.mv.raw().cmp(&b.mv.raw())));
        out
    }

    /// A move chosen at random in proportion to the weights (`random` in 0..1).
    pub fn choose(&self, board: &Board, random: f64) -> Option<Entry> {
        let entries: Vec<Entry> = self
            .probe(board)
            .into_iter()
            .filter(|e| e.weight > 0)
            .collect();
        let total: u32 = entries.iter().map(|e| e.weight).sum();
        if total == 0 {
            return None;
        }
        let mut pick = (random.clamp(0.0, 0.999_999) * total as f64) as u32;
        for e in &entries {
            if pick < e.weight {
                return Some(*e);
            }
            pick -= e.weight;
        }
        entries.last().copied()
    }
}

/// A small random number source for book choices (not for anything that
/// needs to be unpredictable).
pub struct Random(u64);

impl Random {
    #[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
    pub fn from_time() -> Random {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        Random((t ^ (std::process::id() as u64) << 32) | 1)
    }

    /// Seeded from the host's clock: a wasm32-unknown-unknown build has no
    /// wall clock or process id (std's panic there).
    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    pub fn from_time() -> Random {
        let ms = crate::now::Instant::now().duration_since(crate::now::Instant::default());
        Random(ms.as_nanos() as u64 | 1)
    }

    pub fn seeded(seed: u64) -> Random {
        Random(seed | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in [0, 1).
    pub fn next_f64(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(board: &Board, mv: &str, weight: u16) -> Record {
        Record {
            key: board.key(),
            mv: board.parse_move(mv).unwrap().raw(),
            weight,
            score: 0,
            games: weight,
        }
    }

    #[test]
    fn round_trip_and_probe() {
        let b = Board::startpos();
        let book = Book::from_records(vec![rec(&b, "h2e2", 30), rec(&b, "c3c4", 10)]);
        let again = Book::parse(&book.to_bytes()).unwrap();
        assert_eq!(again.len(), 2);
        let entries = again.probe(&b);
        // The start position is its own mirror image: its entries are not doubled.
        let names: Vec<String> = entries.iter().map(|e| e.mv.to_string()).collect();
        assert_eq!(names, vec!["h2e2", "c3c4"]);
        assert_eq!(entries[0].weight, 30);
    }

    #[test]
    fn mirrored_position_is_found() {
        let mut b = Board::startpos();
        b.make_move(b.parse_move("h2e2").unwrap());
        let book = Book::from_records(vec![rec(&b, "h9g7", 5)]);
        let mut m = Board::startpos();
        m.make_move(m.parse_move("b2e2").unwrap());
        let entries = book.probe(&m);
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].mv.to_string(), "b9c7");
    }

    #[test]
    fn weighted_choice() {
        let mut b = Board::startpos();
        b.make_move(b.parse_move("h2e2").unwrap());
        let book = Book::from_records(vec![rec(&b, "h9g7", 3), rec(&b, "b9c7", 1)]);
        // Entries: h9g7 (3), b9c7 (1) plus mirrors from the mirrored key
        // (a different position here, so none).
        assert_eq!(book.choose(&b, 0.0).unwrap().mv.to_string(), "h9g7");
        assert_eq!(book.choose(&b, 0.99).unwrap().mv.to_string(), "b9c7");
        let mut rng = Random::seeded(1);
        let mut counts = [0; 2];
        for _ in 0..4000 {
            let e = book.choose(&b, rng.next_f64()).unwrap();
            counts[(e.mv.to_string() == "b9c7") as usize] += 1;
        }
        assert!((2700..3300).contains(&counts[0]), "{counts:?}");
    }

    #[test]
    fn bad_files_are_rejected() {
        assert!(Book::parse(b"nonsense").is_err());
        let mut bytes = Book::from_records(vec![]).to_bytes();
        bytes[8] = 3;
        assert!(Book::parse(&bytes).is_err());
        assert!(
            Book::parse(&Book::from_records(vec![]).to_bytes())
                .unwrap()
                .is_empty()
        );
    }

    fn load_err(path: &std::path::Path) -> String {
        Book::load(path)
            .err()
            .unwrap_or_else(|| panic!("{} loaded", path.display()))
    }

    /// Only regular files of a sane size are read; the others are refused
    /// before a byte is read (`/dev/zero` or a FIFO would never end).
    #[test]
    fn load_reads_only_regular_files_of_a_sane_size() {
        let dir = std::env::temp_dir().join(format!("jj-book-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let b = Board::startpos();
        let book = Book::from_records(vec![rec(&b, "h2e2", 3)]);
        let path = dir.join("small.book");
        std::fs::write(&path, book.to_bytes()).unwrap();
        assert_eq!(Book::load(&path).unwrap().records(), book.records());
        let e = load_err(&dir.join("missing.book"));
        assert!(e.contains("missing.book"), "{e}");

        let fifo = dir.join("fifo");
        let made_fifo = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success());
        let mut others = vec![dir.clone(), "/dev/zero".into()];
        if made_fifo {
            others.push(fifo);
        }
        for other in others {
            if other.exists() {
                let e = load_err(&other);
                assert!(
                    e.contains("not a regular file") && e.contains(&*other.to_string_lossy()),
                    "{e}"
                );
            }
        }

        // A sparse file one byte over the limit: refused by its size.
        let huge = dir.join("huge.book");
        std::fs::File::create(&huge)
            .unwrap()
            .set_len(MAX_FILE_LEN + 1)
            .unwrap();
        let e = load_err(&huge);
        assert!(e.contains("too large for a book"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn default_book_parses() {
        assert!(Book::parse(DEFAULT_BOOK).is_ok());
    }
}
