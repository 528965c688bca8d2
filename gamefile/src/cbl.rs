//! CBL, CCBridge's library: many CBR games in one file, read.
//!
//! The mark `CCBridgeLibrary\0`, the library's name (UTF-16LE at 64), an
//! index whose layout is not public, and from byte 101952 on the games,
//! each a CBR record starting on a 4096-byte boundary (a long game runs on
//! into the blocks after it). A game is read from its block up to the next
//! game's, so a corrupt game cannot spill into the next one.
//!
//! Facts from the `cchess` package's reader and the sample files; the code is ours.

use crate::bytes::field;
use crate::cbr;
use crate::error::FormatError;
use crate::game::Game;
use crate::text::utf16z;

const MAGIC: &[u8; 16] = b"CCBridgeLibrary\0";
/// Where the games of a library of up to 128 games start.
const GAMES_FROM: usize = 101_952;
const BLOCK: usize = 4096;

/// A library: its name and every entry, each a game or why it is not one
/// (an entry with an empty board is a cover page or a deleted slot:
/// [`FormatError::EmptyBoard`]).
#[derive(Debug)]
pub struct Library {
    /// The library's name.
    pub name: String,
    /// Every entry in file order.
    pub entries: Vec<Result<Game, FormatError>>,
}

/// Reads a CBL library's bytes.
pub fn read(data: &[u8]) -> Result<Library, FormatError> {
    if field(data, 0, 16, "the CBL mark")? != MAGIC {
        return Err(FormatError::BadMagic("CBL"));
    }
    let name = utf16z(field(data, 64, 512, "the library's name")?);
    let starts = game_starts(data);
    let mut entries = Vec::with_capacity(starts.len());
    for (k, &at) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(data.len());
        let block = data.get(at..end).unwrap_or_default();
        entries.push(cbr::read(block));
    }
    Ok(Library { name, entries })
}

/// The offsets of the games: the first CBR mark from [`GAMES_FROM`] on,
/// then every block boundary after it that starts with the mark.
fn game_starts(data: &[u8]) -> Vec<usize> {
    let rest = data.get(GAMES_FROM..).unwrap_or_default();
    let Some(first) = rest
        .windows(cbr::MAGIC.len())
        .position(|w| w == cbr::MAGIC)
        .map(|p| p + GAMES_FROM)
    else {
        return Vec::new();
    };
    (first..data.len())
        .step_by(BLOCK)
        .filter(|&at| data.get(at..at + cbr::MAGIC.len()) == Some(cbr::MAGIC.as_slice()))
        .collect()
}
