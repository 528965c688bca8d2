//! CBR, CCBridge's (象棋桥) single game, read; also each game of a CBL library.
//!
//! A 2214-byte header: the mark `CCBridge Record\0`, UTF-16LE strings ended
//! by a zero unit (title at 180, event at 692, Red at 1076, Black at 1300),
//! the result at 2076 (1 Red won, 2 Black won, 3 or 4 a draw), the side to
//! move at 2116 (1 Red), and the board at 2120: 90 bytes, row by row from
//! Black's back rank, `0x11`..`0x17` Red's rook, knight, elephant, advisor,
//! king, cannon, pawn and `0x21`..`0x27` Black's.
//!
//! Then the root record at 2214 and the moves, each four bytes: a flag
//! byte (1: no continuation, 2: an alternative follows, 4: a comment
//! follows, as a 32-bit byte count and UTF-16LE text), a spare byte and the
//! two squares (`row * 9 + file`, row 0 Black's back rank), in XQF's
//! preorder (a move, its continuation, then its alternative). A record of
//! four zero bytes ends the moves.
//!
//! Facts from the `cchess` package's reader and the sample files; the code is ours.

use crate::bytes::{Cursor, field};
use crate::error::FormatError;
use crate::game::{Game, GameResult, Headers};
use crate::text::utf16z;
use crate::tree::{self, Record, Shape};
use crate::xqf::{fen_board, start_board};
use xiangqi::{Color, Square};

/// The mark a CBR file (and each game of a library) starts with.
pub const MAGIC: &[u8; 16] = b"CCBridge Record\0";
const HEADER_LEN: usize = 2214;
const BOARD: usize = 2120;

/// A square of the file, if on the board.
fn square(code: u8) -> Option<Square> {
    let code = usize::from(code);
    (code < 90).then(|| Square::new(code % 9, 9 - code / 9))
}

/// The comment after a record whose flags say one follows.
fn comment(c: &mut Cursor<'_>, flags: u8) -> Result<Option<String>, FormatError> {
    if flags & 4 == 0 {
        return Ok(None);
    }
    let len = c.i32("a comment length")?;
    if len <= 0 {
        return Ok(None);
    }
    let n = usize::try_from(len).unwrap_or(usize::MAX);
    let text = utf16z(c.take(n, "a comment")?);
    Ok(Some(text).filter(|t| !t.is_empty()))
}

/// Reads a CBR game's bytes.
pub fn read(data: &[u8]) -> Result<Game, FormatError> {
    if field(data, 0, 16, "the CBR mark")? != MAGIC {
        return Err(FormatError::BadMagic("CBR"));
    }
    let header = field(data, 0, HEADER_LEN, "the CBR header")?;
    let text = |at: usize, n: usize| header.get(at..at + n).map(utf16z).unwrap_or_default();
    let result = match header.get(2076) {
        Some(1) => GameResult::RedWins,
        Some(2) => GameResult::BlackWins,
        Some(3 | 4) => GameResult::Draw,
        _ => GameResult::Unknown,
    };
    let headers = Headers {
        title: text(180, 128),
        event: text(692, 64),
        red: text(1076, 64),
        black: text(1300, 64),
        result,
        ..Headers::default()
    };
    let side = match header.get(2116) {
        Some(1) => Color::Red,
        _ => Color::Black,
    };
    let mut cells: [Option<char>; 90] = [None; 90];
    for (i, &code) in field(header, BOARD, 90, "the board")?.iter().enumerate() {
        if code == 0 {
            continue;
        }
        let letter = match code & 0x0F {
            1 => 'r',
            2 => 'n',
            3 => 'b',
            4 => 'a',
            5 => 'k',
            6 => 'c',
            7 => 'p',
            _ => 'x',
        };
        let letter = match code >> 4 {
            1 if letter != 'x' => letter.to_ascii_uppercase(),
            2 if letter != 'x' => letter,
            _ => {
                return Err(FormatError::Corrupt(format!(
                    "unknown piece code {code:#04x} at board byte {i}"
                )));
            }
        };
        if let Some(sq) = u8::try_from(i).ok().and_then(square) {
            cells[sq.index()] = Some(letter);
        }
    }
    let start = start_board(&fen_board(&cells), side)?;

    let mut c = Cursor::new(data);
    let _ = c.take(HEADER_LEN, "the CBR header")?;
    let root = c.take4("the root record")?;
    let root_comment = comment(&mut c, root[0])?;
    let mut records = Vec::new();
    if root[0] & 1 == 0 {
        let mut shape = Shape::default();
        loop {
            let raw = c.take4("a move record")?;
            if raw == [0; 4] {
                break;
            }
            let flags = raw[0];
            let rec = Record {
                from: square(raw[2]),
                to: square(raw[3]),
                next: flags & 1 == 0,
                var: flags & 2 != 0,
                comment: comment(&mut c, flags)?,
            };
            let done = shape.push(rec.next, rec.var);
            records.push(rec);
            if done {
                break;
            }
        }
    }
    let mut game = tree::build(start, root_comment, records);
    game.headers = headers;
    Ok(game)
}
