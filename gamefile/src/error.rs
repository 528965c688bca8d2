//! The errors of the readers: what is wrong inside a file ([`FormatError`]),
//! and the same with the file (and the game of a library) it was found in
//! ([`GameFileError`]), which is what a tool shows.

use std::path::PathBuf;

/// What is wrong with the bytes of a game file. Never a panic: every reader
/// turns a short, corrupt or unknown file into one of these.
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    /// The file could not be read at all.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The extension names none of the formats read here.
    #[error("not a game file this reader knows (.xqf, .cbr, .cbl, .cbf)")]
    UnknownFormat,
    /// The file does not start as the format must.
    #[error("not a {0} file: its first bytes are not the format's mark")]
    BadMagic(&'static str),
    /// An XQF version newer than this reader knows (versions up to 10
    /// are read as plain data, 11 to 18 decrypted).
    #[error("XQF version {0} is newer than 18, the last this reader knows")]
    Version(u8),
    /// The file ends before the data it announces.
    #[error("cut short: {what} needs {need} bytes at byte {at}, the data has {len}")]
    Truncated {
        /// What was being read.
        what: &'static str,
        /// Where it starts (an offset in the file, or in the game's block of a library).
        at: usize,
        /// How many bytes it needs.
        need: usize,
        /// How long the data is.
        len: usize,
    },
    /// A library entry (or a game) with no piece on its board: a cover page
    /// or a deleted slot, not a game.
    #[error("no piece on the board: not a game")]
    EmptyBoard,
    /// The start position is not one the rules allow.
    #[error("bad start position {fen}: {why}")]
    Position {
        /// The position as read.
        fen: String,
        /// What the rules crate says.
        why: xiangqi::FenError,
    },
    /// Anything else the bytes say that cannot be.
    #[error("{0}")]
    Corrupt(String),
}

/// A [`FormatError`] with the file it was found in, and the game's index
/// for a library: `games.cbl, game 3: cut short: ...`.
#[derive(Debug, thiserror::Error)]
#[error("{}{}: {kind}", path.display(), entry.map(|e| format!(", game {e}")).unwrap_or_default())]
pub struct GameFileError {
    /// The file.
    pub path: PathBuf,
    /// The game of a library (from 0, counting every entry).
    pub entry: Option<usize>,
    /// What is wrong.
    pub kind: FormatError,
}
