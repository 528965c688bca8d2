//! Chinese Xiangqi game files: XQF (XQStudio, versions 10 to 18, the
//! encrypted ones included) read and written, CCBridge's CBL libraries, CBR
//! games and CBF (XML) games read. Every reader gives a [`Game`]: the start
//! position, the moves as a tree with the variations and comments kept, and
//! the header fields decoded (GBK in XQF, UTF-16 in CCBridge's files).
//! Moves are checked by the rules of the [`xiangqi`] crate; a move that is
//! not legal is left out with the rest of its branch, and the game says so.
//!
//! A short or corrupt file gives a [`FormatError`] (a [`GameFileError`]
//! naming the file, from [`read_path`]); no input makes a reader panic.
//!
//! ```no_run
//! let games = xiangqi_gamefile::read_path("games.cbl".as_ref())?;
//! for g in &games {
//!     println!("{} - {}: {} moves", g.headers.red, g.headers.black, g.main_line().len());
//! }
//! # Ok::<(), xiangqi_gamefile::GameFileError>(())
//! ```

#![deny(missing_docs)]

mod bytes;
pub mod cbf;
pub mod cbl;
pub mod cbr;
mod error;
mod game;
mod text;
mod tree;
pub mod xqf;
mod xqf_write;

pub use error::{FormatError, GameFileError};
pub use game::{Game, GameResult, Headers, Node};
pub use text::{from_gbk, to_gbk};
pub use xqf_write::write as write_xqf;

use std::path::Path;

/// The formats, told apart by a file's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// XQStudio's `.xqf`.
    Xqf,
    /// CCBridge's single game, `.cbr`.
    Cbr,
    /// CCBridge's library, `.cbl`.
    Cbl,
    /// CCBridge's XML game, `.cbf`.
    Cbf,
}

impl Format {
    /// The format of a path's extension (any case), if it is one of these.
    pub fn of_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "xqf" => Some(Format::Xqf),
            "cbr" => Some(Format::Cbr),
            "cbl" => Some(Format::Cbl),
            "cbf" => Some(Format::Cbf),
            _ => None,
        }
    }
}

/// Every entry of a file's bytes: one for a game file, one per game for a
/// library.
pub fn read_bytes(
    format: Format,
    data: &[u8],
) -> Result<Vec<Result<Game, FormatError>>, FormatError> {
    Ok(match format {
        Format::Xqf => vec![xqf::read(data)],
        Format::Cbr => vec![cbr::read(data)],
        Format::Cbf => vec![cbf::read(data)],
        Format::Cbl => cbl::read(data)?.entries,
    })
}

/// The games of a file, told by its extension. An entry of a library with
/// an empty board (a cover page, a deleted slot) is passed over; any other
/// bad entry, or a bad file, is an error naming the file (and the entry).
pub fn read_path(path: &Path) -> Result<Vec<Game>, GameFileError> {
    let err = |kind| GameFileError {
        path: path.to_path_buf(),
        entry: None,
        kind,
    };
    // At most one byte past the limit is read: a huge file (or a device
    // given a game file's name) is refused rather than filling the memory.
    let mut data = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| {
            std::io::Read::read_to_end(&mut std::io::Read::take(f, MAX_FILE_LEN + 1), &mut data)
        })
        .map_err(|e| err(FormatError::Io(e)))?;
    if data.len() as u64 > MAX_FILE_LEN {
        return Err(err(FormatError::Corrupt(format!(
            "larger than {MAX_FILE_LEN} bytes, more than any game file or library"
        ))));
    }
    read_named(path, &data)
}

/// The largest file [`read_path`] reads: 256 MiB, a library of 65,000
/// games of 4 KiB.
pub const MAX_FILE_LEN: u64 = 256 << 20;

/// As [`read_path`], for bytes already read from `path` (its extension
/// says the format; errors name it).
pub fn read_named(path: &Path, data: &[u8]) -> Result<Vec<Game>, GameFileError> {
    let err = |entry, kind| GameFileError {
        path: path.to_path_buf(),
        entry,
        kind,
    };
    let format = Format::of_path(path).ok_or_else(|| err(None, FormatError::UnknownFormat))?;
    let entries = read_bytes(format, data).map_err(|e| err(None, e))?;
    let library = format == Format::Cbl;
    let mut games = Vec::with_capacity(entries.len());
    for (i, entry) in entries.into_iter().enumerate() {
        match entry {
            Ok(g) => games.push(g),
            Err(FormatError::EmptyBoard) if library => {}
            Err(e) => return Err(err(library.then_some(i), e)),
        }
    }
    Ok(games)
}
