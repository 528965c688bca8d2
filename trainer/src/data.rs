//! The training-data format: fixed 48-byte chunks, so files can be
//! appended to, concatenated with `cat`, and read at any record boundary.
//!
//! # Record (48 bytes)
//!
//! | bytes  | content                                                                  |
//! |--------|--------------------------------------------------------------------------|
//! | 0..45  | 90 squares × 4 bits: square `i` in byte `i / 2`, low nibble for even `i`; |
//! |        | 0 = empty, otherwise `1 + Piece::index()` (1..=14)                        |
//! | 45     | bit 0: side to move (0 Red, 1 Black); bits 1-2: game result from Red's   |
//! |        | side (0 Black wins, 1 draw, 2 Red wins); bits 3-7: 0                     |
//! | 46..48 | search score, `i16` little-endian, from the side to move's point of view |
//!
//! Squares are numbered as in the rules library (`file + 9 · rank`, rank 0
//! on Red's side).
//!
//! # Header chunk (48 bytes)
//!
//! Bytes 0..6 `JJDATA`, 6..8 format version (`u16` LE, 1), 8..10 record
//! size (`u16` LE, 48), 10..45 zero, byte 45 = `0xFF` (no record has it: a
//! record's byte 45 is at most 5), 46..48 zero. Every file starts with one;
//! the reader skips header chunks wherever they are (after `cat a b > c`
//! the second file's header sits in the middle) and rejects versions it
//! does not know. The writer appends, writing a header only to an empty
//! file.

use std::fs::{File, OpenOptions};
use std::io::{BufReader, BufWriter, ErrorKind, Read, Write};
use std::path::{Path, PathBuf};
use xiangqi::{Board, Color, FILES, Piece, PieceKind, RANKS, SQUARES, Square};

/// Size of a record and of a header chunk.
pub const RECORD_SIZE: usize = 48;
/// The first bytes of a header chunk.
pub const MAGIC: [u8; 6] = *b"JJDATA";
/// The format version written and read.
pub const VERSION: u16 = 1;
/// Byte 45 of a header chunk.
pub const HEADER_MARK: u8 = 0xFF;

/// A packed record or header chunk.
pub type Chunk = [u8; RECORD_SIZE];

/// The game's result, from Red's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum GameResult {
    BlackWins = 0,
    Draw = 1,
    RedWins = 2,
}

impl GameResult {
    /// The result as a score for `color`: 1 win, 0.5 draw, 0 loss.
    pub fn score_for(self, color: Color) -> f32 {
        let red = self as u8 as f32 / 2.0;
        match color {
            Color::Red => red,
            Color::Black => 1.0 - red,
        }
    }
}

/// A training position: the pieces, the side to move, the game's result
/// and the search score.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Record {
    /// Per square: 0 empty, `1 + Piece::index()` otherwise.
    pub cells: [u8; SQUARES],
    pub side_to_move: Color,
    pub result: GameResult,
    /// Search score from the side to move's point of view.
    pub score: i16,
}

/// What is wrong with a data file.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error(
        "{path}: length {len} is not a multiple of {RECORD_SIZE} bytes (truncated or not a data file)"
    )]
    BadLength { path: String, len: u64 },
    #[error("chunk at byte {offset}: {reason}")]
    BadHeader { offset: u64, reason: String },
    #[error(
        "chunk at byte {offset}: data format version {version} is not supported (this build reads version {VERSION})"
    )]
    UnsupportedVersion { offset: u64, version: u16 },
    #[error("record at byte {offset}: {reason}")]
    BadRecord { offset: u64, reason: String },
    #[error("data ends inside a chunk at byte {offset} (truncated file)")]
    Truncated { offset: u64 },
    #[error("{path}: {source}")]
    InFile {
        path: String,
        #[source]
        source: Box<DataError>,
    },
}

impl DataError {
    /// The error without the file name around it.
    pub fn inner(&self) -> &DataError {
        match self {
            DataError::InFile { source, .. } => source.inner(),
            other => other,
        }
    }
}

/// The header chunk.
pub fn header_chunk() -> Chunk {
    let mut h = [0u8; RECORD_SIZE];
    h[0..6].copy_from_slice(&MAGIC);
    h[6..8].copy_from_slice(&VERSION.to_le_bytes());
    h[8..10].copy_from_slice(&(RECORD_SIZE as u16).to_le_bytes());
    h[45] = HEADER_MARK;
    h
}

/// Is this chunk a header (byte 45 = 0xFF)?
#[inline]
pub fn is_header(chunk: &Chunk) -> bool {
    chunk[45] == HEADER_MARK
}

/// Check a header chunk found at `offset`.
pub fn check_header(chunk: &Chunk, offset: u64) -> Result<(), DataError> {
    let bad = |reason: String| DataError::BadHeader { offset, reason };
    if chunk[0..6] != MAGIC {
        return Err(bad(format!(
            "byte 45 marks a header but the magic is {:?}, not \"JJDATA\"",
            String::from_utf8_lossy(&chunk[0..6])
        )));
    }
    let version = u16::from_le_bytes([chunk[6], chunk[7]]);
    if version != VERSION {
        return Err(DataError::UnsupportedVersion { offset, version });
    }
    let size = u16::from_le_bytes([chunk[8], chunk[9]]);
    if size as usize != RECORD_SIZE {
        return Err(bad(format!("record size {size}, expected {RECORD_SIZE}")));
    }
    Ok(())
}

impl Record {
    /// The record of `board` with its game result and search score.
    pub fn from_board(board: &Board, result: GameResult, score: i16) -> Record {
        let mut cells = [0u8; SQUARES];
        for (s, c) in cells.iter_mut().enumerate() {
            if let Some(p) = board.piece_at(Square::from_index_unchecked(s)) {
                *c = 1 + p.index() as u8;
            }
        }
        Record {
            cells,
            side_to_move: board.side_to_move(),
            result,
            score,
        }
    }

    /// The piece on square `s`.
    #[inline]
    pub fn piece_at(&self, s: usize) -> Option<Piece> {
        match self.cells[s] {
            0 => None,
            c => {
                let i = c as usize - 1;
                Some(Piece::new(
                    Color::from_index(i / 7),
                    PieceKind::from_index(i % 7),
                ))
            }
        }
    }

    /// Calls `f(piece, square)` for every piece, in square order.
    #[inline]
    pub fn for_each_piece(&self, mut f: impl FnMut(Piece, Square)) {
        for s in 0..SQUARES {
            if let Some(p) = self.piece_at(s) {
                f(p, Square::from_index_unchecked(s));
            }
        }
    }

    /// The position as a FEN (board and side; counters zero).
    pub fn to_fen(&self) -> String {
        let mut fen = String::new();
        for rank in (0..RANKS).rev() {
            let mut empty = 0;
            for file in 0..FILES {
                match self.piece_at(rank * FILES + file) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(p.fen_char());
                    }
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        let side = if self.side_to_move == Color::Red {
            'w'
        } else {
            'b'
        };
        format!("{fen} {side} - - 0 1")
    }

    /// The position as a board (fails for positions the rules reject).
    pub fn to_board(&self) -> Result<Board, xiangqi::FenError> {
        Board::from_fen(&self.to_fen())
    }

    /// The 48-byte packed form.
    pub fn pack(&self) -> Chunk {
        let mut b = [0u8; RECORD_SIZE];
        for (s, &c) in self.cells.iter().enumerate() {
            b[s / 2] |= (c & 0x0f) << (4 * (s % 2));
        }
        b[45] = self.side_to_move as u8 | (self.result as u8) << 1;
        b[46..48].copy_from_slice(&self.score.to_le_bytes());
        b
    }

    /// Unpack a record chunk (not a header), checking it: piece codes 0..=14,
    /// one king of each colour, a known result, reserved bits clear.
    pub fn unpack(b: &Chunk, offset: u64) -> Result<Record, DataError> {
        let bad = |reason: String| DataError::BadRecord { offset, reason };
        let flags = b[45];
        if flags >> 3 != 0 {
            return Err(bad(format!(
                "flags byte {flags:#04x} has reserved bits set"
            )));
        }
        let result = match (flags >> 1) & 3 {
            0 => GameResult::BlackWins,
            1 => GameResult::Draw,
            2 => GameResult::RedWins,
            r => return Err(bad(format!("game result {r} is not 0, 1 or 2"))),
        };
        let mut cells = [0u8; SQUARES];
        let mut kings = [0; 2];
        for (s, c) in cells.iter_mut().enumerate() {
            *c = (b[s / 2] >> (4 * (s % 2))) & 0x0f;
            if *c as usize > Piece::COUNT {
                return Err(bad(format!("square {s} has piece code {c}, beyond 14")));
            }
            if *c != 0 && (*c as usize - 1) % 7 == PieceKind::King.index() {
                kings[(*c as usize - 1) / 7] += 1;
            }
        }
        if kings != [1, 1] {
            return Err(bad(format!(
                "{} red and {} black kings, expected one each",
                kings[0], kings[1]
            )));
        }
        Ok(Record {
            cells,
            side_to_move: Color::from_index((flags & 1) as usize),
            result,
            score: i16::from_le_bytes([b[46], b[47]]),
        })
    }
}

/// Reads records from any byte stream, skipping header chunks.
pub struct DataReader<R: Read> {
    inner: R,
    offset: u64,
    seen_header: bool,
}

impl<R: Read> DataReader<R> {
    pub fn new(inner: R) -> DataReader<R> {
        DataReader {
            inner,
            offset: 0,
            seen_header: false,
        }
    }

    /// The next record chunk and its byte offset, headers checked and
    /// skipped; the record itself is not checked.
    fn read_chunk(&mut self) -> Result<Option<(u64, Chunk)>, DataError> {
        loop {
            let mut b = [0u8; RECORD_SIZE];
            let mut got = 0;
            while got < RECORD_SIZE {
                match self.inner.read(&mut b[got..]) {
                    Ok(0) => break,
                    Ok(n) => got += n,
                    Err(e) if e.kind() == ErrorKind::Interrupted => {}
                    Err(source) => {
                        return Err(DataError::Io {
                            path: format!("byte {}", self.offset),
                            source,
                        });
                    }
                }
            }
            if got == 0 {
                return Ok(None);
            }
            let offset = self.offset;
            if got < RECORD_SIZE {
                return Err(DataError::Truncated { offset });
            }
            self.offset += RECORD_SIZE as u64;
            if is_header(&b) {
                check_header(&b, offset)?;
                self.seen_header = true;
                continue;
            }
            if !self.seen_header {
                return Err(DataError::BadHeader {
                    offset,
                    reason: "the data does not start with a JJDATA header".into(),
                });
            }
            return Ok(Some((offset, b)));
        }
    }

    /// The next record, checked but kept packed, or `None` at the end.
    pub fn next_chunk(&mut self) -> Result<Option<Chunk>, DataError> {
        match self.read_chunk()? {
            Some((offset, b)) => {
                Record::unpack(&b, offset)?;
                Ok(Some(b))
            }
            None => Ok(None),
        }
    }
}

impl<R: Read> Iterator for DataReader<R> {
    type Item = Result<Record, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        match self.read_chunk() {
            Ok(Some((offset, b))) => Some(Record::unpack(&b, offset)),
            Ok(None) => None,
            Err(e) => Some(Err(e)),
        }
    }
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> DataError + '_ {
    move |source| DataError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// Open a data file for reading.
pub fn open(path: impl AsRef<Path>) -> Result<DataReader<BufReader<File>>, DataError> {
    let path = path.as_ref();
    let file = File::open(path).map_err(io_error(path))?;
    let len = file.metadata().map_err(io_error(path))?.len();
    if len % RECORD_SIZE as u64 != 0 {
        return Err(DataError::BadLength {
            path: path.display().to_string(),
            len,
        });
    }
    Ok(DataReader::new(BufReader::with_capacity(1 << 20, file)))
}

/// Every record of a file, checked, in packed form (how the trainer keeps
/// data in memory: 48 bytes a position).
pub fn load_chunks(path: impl AsRef<Path>) -> Result<Vec<Chunk>, DataError> {
    let path = path.as_ref();
    let mut reader = open(path)?;
    let mut out = Vec::new();
    while let Some(c) = reader.next_chunk().map_err(in_file(path))? {
        out.push(c);
    }
    Ok(out)
}

/// Every record of a file, unpacked.
pub fn read_records(path: impl AsRef<Path>) -> Result<Vec<Record>, DataError> {
    let path = path.as_ref();
    open(path)?.collect::<Result<_, _>>().map_err(in_file(path))
}

fn in_file(path: &Path) -> impl FnOnce(DataError) -> DataError + '_ {
    move |e| DataError::InFile {
        path: path.display().to_string(),
        source: Box::new(e),
    }
}

/// Appends records to a data file.
pub struct DataWriter {
    out: BufWriter<File>,
    path: PathBuf,
    written: u64,
}

impl DataWriter {
    /// Open `path` for appending, creating it with a header if it is empty
    /// or missing. Refuses a file whose length is not whole chunks.
    pub fn append(path: impl AsRef<Path>) -> Result<DataWriter, DataError> {
        let path = path.as_ref();
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(io_error(path))?;
        let len = file.metadata().map_err(io_error(path))?.len();
        if len % RECORD_SIZE as u64 != 0 {
            return Err(DataError::BadLength {
                path: path.display().to_string(),
                len,
            });
        }
        let mut w = DataWriter {
            out: BufWriter::with_capacity(1 << 16, file),
            path: path.to_path_buf(),
            written: 0,
        };
        if len == 0 {
            w.out.write_all(&header_chunk()).map_err(io_error(path))?;
        }
        Ok(w)
    }

    /// Append one record.
    pub fn write(&mut self, record: &Record) -> Result<(), DataError> {
        self.written += 1;
        self.out
            .write_all(&record.pack())
            .map_err(io_error(&self.path))
    }

    /// Push what has been written so far to the file (one `write` call
    /// when it fits the 64 KiB buffer), so that a process killed later
    /// loses nothing written before.
    pub fn flush(&mut self) -> Result<(), DataError> {
        self.out.flush().map_err(io_error(&self.path))
    }

    /// Records written by this writer.
    pub fn written(&self) -> u64 {
        self.written
    }

    /// Flush to the file (also done, errors ignored, on drop).
    pub fn finish(mut self) -> Result<(), DataError> {
        self.out.flush().map_err(io_error(&self.path))
    }
}

#[cfg(test)]
mod tests;
