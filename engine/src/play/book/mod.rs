//! Opening books, in the three formats players have, behind one interface:
//! Jiangjun's own ([`JjBook`], `JJBOOK1`), ElephantEye's `BOOK.DAT` ([`eleeye`])
//! and BHGUI's `.obk` ([`obk`], SQLite). [`Book::load`] tells them apart by
//! their content: the magic `JJBOOK1\0`, SQLite's `SQLite format 3\0`, or
//! else 8-byte records sorted by key with every move on the board. Anything
//! else is refused, naming the file and what was wrong.
//!
//! A probe gives the legal book moves of a position, heaviest first, each
//! format looking at the mirror images its own program looks at.

pub mod eleeye;
mod entry;
mod jj;
pub mod obk;
pub mod obk_file;
#[cfg(feature = "obk")]
mod obk_sqlite;
mod obk_table;
pub mod walk;

pub use entry::{Entry, Found};
pub use jj::{DEFAULT_BOOK, JjBook, MAGIC, MAX_FILE_LEN, Record};

use eleeye::EleeyeBook;
use obk::ObkBook;
use std::path::Path;
use xiangqi::board::Board;

/// The file formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Jiangjun,
    ElephantEye,
    Obk,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Jiangjun => "Jiangjun book (JJBOOK1)",
            Format::ElephantEye => "ElephantEye BOOK.DAT",
            Format::Obk => "BHGUI .obk",
        }
    }
}

enum Kind {
    Jj(JjBook),
    Eleeye(EleeyeBook),
    Obk(ObkBook),
}

/// An opening book of any format.
pub struct Book {
    kind: Kind,
}

impl Default for Book {
    fn default() -> Book {
        Book::from(JjBook::default())
    }
}

impl From<JjBook> for Book {
    fn from(b: JjBook) -> Book {
        Book { kind: Kind::Jj(b) }
    }
}

impl From<EleeyeBook> for Book {
    fn from(b: EleeyeBook) -> Book {
        Book {
            kind: Kind::Eleeye(b),
        }
    }
}

impl From<ObkBook> for Book {
    fn from(b: ObkBook) -> Book {
        Book { kind: Kind::Obk(b) }
    }
}

impl Book {
    /// A Jiangjun book of built records.
    pub fn from_records(records: Vec<Record>) -> Book {
        Book::from(JjBook::from_records(records))
    }

    pub fn format(&self) -> Format {
        match self.kind {
            Kind::Jj(_) => Format::Jiangjun,
            Kind::Eleeye(_) => Format::ElephantEye,
            Kind::Obk(_) => Format::Obk,
        }
    }

    /// Number of records (rows used, for an `.obk`).
    pub fn len(&self) -> usize {
        match &self.kind {
            Kind::Jj(b) => b.len(),
            Kind::Eleeye(b) => b.len(),
            Kind::Obk(b) => b.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The Jiangjun book inside, if it is one.
    pub fn as_jj(&self) -> Option<&JjBook> {
        match &self.kind {
            Kind::Jj(b) => Some(b),
            _ => None,
        }
    }

    /// A book from a file's bytes: Jiangjun's or ElephantEye's (an `.obk`
    /// is an SQLite file and needs [`Book::load`]).
    pub fn parse(bytes: &[u8]) -> Result<Book, String> {
        if bytes.starts_with(MAGIC) {
            return JjBook::parse(bytes).map(Book::from);
        }
        if bytes.starts_with(obk::SQLITE_MAGIC) {
            return Err("an SQLite file (.obk) must be read from a file".into());
        }
        EleeyeBook::parse(bytes).map(Book::from).map_err(|e| {
            format!(
                "not a book: neither Jiangjun's (no JJBOOK1 magic), BHGUI's .obk (not SQLite) \
                 nor ElephantEye's BOOK.DAT ({e})"
            )
        })
    }

    /// Read a book file of any format. Only a regular file of at most
    /// [`MAX_FILE_LEN`] bytes is read: a FIFO would block, a device such
    /// as `/dev/zero` would never end, and a huge file would fill the
    /// memory. Errors name the file.
    pub fn load(path: &Path) -> Result<Book, String> {
        let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
        let too_large = |len: u64| {
            err(&format!(
                "{len} bytes is too large for a book (at most {MAX_FILE_LEN})"
            ))
        };
        // A game file is no book, though XQF's bytes could pass for
        // ElephantEye's BOOK.DAT, which has no mark: told by its name.
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        if let Some(ext @ ("xqf" | "cbl" | "cbr" | "cbf")) = ext.as_deref() {
            return Err(err(&format!(
                "a game file (.{ext}), not a book: make a book of its games with `jiangjun book build --pgn FILE`"
            )));
        }
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
        if bytes.starts_with(obk::SQLITE_MAGIC) {
            return obk_file::read(path).map(Book::from).map_err(|e| err(&e));
        }
        Book::parse(&bytes).map_err(|e| err(&e))
    }

    /// The built-in default book.
    pub fn default_book() -> Book {
        Book::from(JjBook::parse(DEFAULT_BOOK).unwrap_or_default())
    }

    /// The book's moves of a position, with the records they came from;
    /// `legal_only` false keeps illegal ones too (for checking a book).
    pub fn probe_found(&self, board: &Board, legal_only: bool) -> Vec<Found> {
        match &self.kind {
            Kind::Jj(b) => b.probe(board, legal_only),
            Kind::Eleeye(b) => b.probe(board, legal_only),
            Kind::Obk(b) => b.probe(board, legal_only),
        }
    }

    /// Legal book moves of a position, heaviest first.
    pub fn probe(&self, board: &Board) -> Vec<Entry> {
        self.probe_found(board, true)
            .into_iter()
            .map(|f| f.entry)
            .collect()
    }

    /// A move chosen at random in proportion to the weights (`random` in
    /// 0..1), as ElephantEye picks: a move of weight 0 is never chosen.
    pub fn choose(&self, board: &Board, random: f64) -> Option<Entry> {
        let entries: Vec<Entry> = self
            .probe(board)
            .into_iter()
            .filter(|e| e.weight > 0)
            .collect();
        let total: u64 = entries.iter().map(|e| e.weight as u64).sum();
        if total == 0 {
            return None;
        }
        let mut pick = (random.clamp(0.0, 0.999_999) * total as f64) as u64;
        for e in &entries {
            if pick < e.weight as u64 {
                return Some(*e);
            }
            pick -= e.weight as u64;
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
    use super::jj::tests::rec;
    use super::*;

    /// Without SQLite (the wasm32 build) an `.obk` is refused, saying why.
    #[cfg(not(feature = "obk"))]
    #[test]
    fn obk_without_sqlite_is_refused() {
        let path = std::env::temp_dir().join(format!("jj-nosqlite-{}.obk", std::process::id()));
        std::fs::write(&path, b"SQLite format 3\0rest").unwrap();
        let e = load_err(&path);
        assert!(e.contains("which this build cannot read"), "{e}");
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn weighted_choice() {
        let mut b = Board::startpos();
        b.make_move(b.parse_move("h2e2").unwrap());
        let book = Book::from_records(vec![rec(&b, "h9g7", 3), rec(&b, "b9c7", 1)]);
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

    fn load_err(path: &Path) -> String {
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
        let book = JjBook::from_records(vec![rec(&b, "h2e2", 3)]);
        let path = dir.join("small.book");
        std::fs::write(&path, book.to_bytes()).unwrap();
        let loaded = Book::load(&path).unwrap();
        assert_eq!(loaded.format(), Format::Jiangjun);
        assert_eq!(loaded.as_jj().unwrap().records(), book.records());
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

        // Foreign and truncated files: refused, saying what they are not.
        let text = dir.join("notes.txt");
        std::fs::write(&text, "1. h2e2 h9g7\n").unwrap();
        let e = load_err(&text);
        assert!(e.contains("notes.txt: not a book"), "{e}");
        let cut = dir.join("cut.book");
        let bytes = book.to_bytes();
        std::fs::write(&cut, &bytes[..bytes.len() - 3]).unwrap();
        let e = load_err(&cut);
        assert!(e.contains("does not hold"), "{e}");
        let sqlite = dir.join("fake.obk");
        std::fs::write(&sqlite, b"SQLite format 3\0 and then nothing").unwrap();
        let e = load_err(&sqlite);
        assert!(e.contains("fake.obk"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
