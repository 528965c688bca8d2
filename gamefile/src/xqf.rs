//! XQF, XQStudio's game file (象棋演播室), versions 10 to 18, read.
//!
//! A 1024-byte header, then the move records. The header holds the version
//! (byte 2), four key bytes and their masks (bytes 3 to 15), the 32 pieces'
//! squares (bytes 16 to 47: Red's rook, knight, elephant, advisor, king,
//! advisor, elephant, knight, rook, two cannons, five pawns, then Black's;
//! a square is `file * 10 + rank`, rank 0 Red's back rank, 90 or more for
//! a piece off the board), the result (byte 51: 1 Red won, 2 Black won, 3
//! or 4 a draw) and length-prefixed GBK strings (title at 0x50, event 0xD0,
//! date 0x110, site 0x120, Red 0x130, Black 0x140, annotator 0x1D0).
//!
//! A move record is four bytes, source and destination squares (plus 24
//! and 32) and a flag byte, in preorder (a move, its continuation, then
//! its alternative); the first record is the root, carrying the game's
//! comment. Up to version 10 the flags say
//! "continuation" in the high nibble and "variation" in the low one, and a
//! 32-bit comment length follows every record. From version 11 the file is
//! encrypted: the squares of the pieces and of the moves are offset by
//! values derived from the key bytes (the pieces' order is also rotated
//! from version 12), everything after the header is offset byte by byte by
//! a 32-byte key stream, and the flags are 0x80 continuation, 0x40
//! variation, 0x20 "a comment length follows" (itself offset).
//!
//! Facts from ElephantEye's `XQFTOOLS` and the `cchess` package; the code is ours.

use crate::bytes::{Cursor, field};
use crate::error::FormatError;
use crate::game::{Game, GameResult, Headers};
use crate::text::{from_gbk, pascal};
use crate::tree::{self, Record, Shape};
use xiangqi::{Board, Color, Square};

/// Where the move records start.
pub(crate) const HEADER_LEN: usize = 0x400;

/// The pieces of the 32 slots of the header, as FEN letters of Red's.
pub(crate) const SLOT_LETTERS: [char; 16] = [
    'R', 'N', 'B', 'A', 'K', 'A', 'B', 'N', 'R', 'C', 'C', 'P', 'P', 'P', 'P', 'P',
];

/// The header's string fields: offset and room (length byte included).
pub(crate) const TITLE: (usize, usize) = (0x50, 64);
pub(crate) const EVENT: (usize, usize) = (0xD0, 64);
pub(crate) const DATE: (usize, usize) = (0x110, 16);
pub(crate) const SITE: (usize, usize) = (0x120, 16);
pub(crate) const RED: (usize, usize) = (0x130, 16);
pub(crate) const BLACK: (usize, usize) = (0x140, 16);
pub(crate) const ANNOTATOR: (usize, usize) = (0x1D0, 16);
/// The result byte.
pub(crate) const RESULT: usize = 0x33;

/// The offsets an encrypted file's data carries (all zero up to version 10).
struct Keys {
    piece: u8,
    src: u8,
    dst: u8,
    comment: i32,
    stream: [u8; 32],
}

/// XQStudio's key schedule: `54 x^2 + 221`, in bytes.
fn square54(x: u8) -> u8 {
    let x = u32::from(x);
    (x * x * 54 + 221) as u8
}

impl Keys {
    fn new(version: u8, tag: &[u8; 16]) -> Keys {
        if version < 11 {
            return Keys {
                piece: 0,
                src: 0,
                dst: 0,
                comment: 0,
                stream: [0; 32],
            };
        }
        // Each offset is the schedule of its key byte times the one before.
        let piece = square54(tag[13]).wrapping_mul(tag[13]);
        let src = square54(tag[14]).wrapping_mul(piece);
        let dst = square54(tag[15]).wrapping_mul(src);
        let comment = (i32::from(tag[12]) * 256 + i32::from(tag[13])) % 32000 + 767;
        let mask = b"[(C) Copyright Mr. Dong Shiwei.]";
        let mut stream = [0u8; 32];
        for (i, s) in stream.iter_mut().enumerate() {
            let key = tag[8 + i % 4] | (tag[12 + i % 4] & tag[3]);
            *s = key & mask[i];
        }
        Keys {
            piece,
            src,
            dst,
            comment,
            stream,
        }
    }
}

/// The data after the header, decrypted.
fn decrypt(data: &[u8], keys: &Keys) -> Vec<u8> {
    // The key stream is aligned on the file's offsets; the header's 1024
    // bytes are a multiple of 32, so the body's first byte takes key 0.
    data.iter()
        .enumerate()
        .map(|(i, b)| b.wrapping_sub(keys.stream[i % 32]))
        .collect()
}

/// A square of the file (`file * 10 + rank`), if on the board.
fn square(code: u8) -> Option<Square> {
    let code = usize::from(code);
    (code < 90).then(|| Square::new(code / 10, code % 10))
}

/// The pieces of the header on a board, as a FEN board field.
fn piece_fen(
    pieces: &[u8],
    keys: &Keys,
    version: u8,
) -> Result<(String, [Option<char>; 90]), FormatError> {
    let mut slots = [0u8; 32];
    for (i, &b) in pieces.iter().take(32).enumerate() {
        // From version 12 the slots are also rotated by the piece key.
        let at = if version >= 12 {
            (usize::from(keys.piece) + 1 + i) % 32
        } else {
            i
        };
        slots[at] = b.wrapping_sub(keys.piece);
    }
    let mut board: [Option<char>; 90] = [None; 90];
    for (i, &code) in slots.iter().enumerate() {
        let Some(sq) = square(code) else { continue };
        let red = SLOT_LETTERS[i % 16];
        let letter = if i < 16 {
            red
        } else {
            red.to_ascii_lowercase()
        };
        let cell = &mut board[sq.index()];
        if cell.is_some() {
            return Err(FormatError::Corrupt(format!("two pieces on {sq}")));
        }
        *cell = Some(letter);
    }
    Ok((fen_board(&board), board))
}

/// The FEN board field of 90 cells (index `rank * 9 + file`).
pub(crate) fn fen_board(cells: &[Option<char>; 90]) -> String {
    let mut out = String::new();
    for rank in (0..10).rev() {
        let mut empty = 0;
        for file in 0..9 {
            match cells[rank * 9 + file] {
                Some(c) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    out.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

/// The board of a FEN board field with `side` to move.
pub(crate) fn start_board(board: &str, side: Color) -> Result<Board, FormatError> {
    if board.chars().all(|c| c == '9' || c == '/') {
        return Err(FormatError::EmptyBoard);
    }
    let fen = format!("{board} {}", if side == Color::Red { 'w' } else { 'b' });
    Board::from_fen(&fen).map_err(|why| FormatError::Position { fen, why })
}

/// Reads one record (and its comment) of the body.
fn record(c: &mut Cursor<'_>, version: u8, keys: &Keys) -> Result<(Record, [u8; 4]), FormatError> {
    let raw = c.take4("a move record")?;
    let (next, var, comment_len) = if version < 11 {
        let len = c.i32("a comment length")?;
        (raw[2] & 0xF0 != 0, raw[2] & 0x0F != 0, len)
    } else {
        let len = if raw[2] & 0x20 != 0 {
            c.i32("a comment length")?.wrapping_sub(keys.comment)
        } else {
            0
        };
        (raw[2] & 0x80 != 0, raw[2] & 0x40 != 0, len)
    };
    let comment = if comment_len > 0 {
        let n = usize::try_from(comment_len).unwrap_or(usize::MAX);
        let text = from_gbk(c.take(n, "a comment")?);
        Some(text).filter(|t| !t.trim().is_empty())
    } else {
        None
    };
    let rec = Record {
        from: square(raw[0].wrapping_sub(24).wrapping_sub(keys.src)),
        to: square(raw[1].wrapping_sub(32).wrapping_sub(keys.dst)),
        next,
        var,
        comment,
    };
    Ok((rec, raw))
}

/// Reads an XQF file's bytes.
pub fn read(data: &[u8]) -> Result<Game, FormatError> {
    let tag_bytes = field(data, 0, 16, "the XQF header")?;
    if tag_bytes.get(..2) != Some(b"XQ".as_slice()) {
        return Err(FormatError::BadMagic("XQF"));
    }
    let mut tag = [0u8; 16];
    tag.copy_from_slice(tag_bytes);
    let version = tag[2];
    if version > 18 {
        return Err(FormatError::Version(version));
    }
    let header = field(data, 0, HEADER_LEN, "the XQF header")?;
    let keys = Keys::new(version, &tag);
    let (board_field, cells) = piece_fen(field(header, 0x10, 32, "the pieces")?, &keys, version)?;

    let body = data.get(HEADER_LEN..).unwrap_or_default();
    let body = if version < 11 {
        body.to_vec()
    } else {
        decrypt(body, &keys)
    };
    let mut c = Cursor::new(&body);
    let (root, _) = record(&mut c, version, &keys).map_err(|e| shift(e, HEADER_LEN))?;
    let mut records = Vec::new();
    if root.next {
        let mut shape = Shape::default();
        loop {
            let (rec, _) = record(&mut c, version, &keys).map_err(|e| shift(e, HEADER_LEN))?;
            let done = shape.push(rec.next, rec.var);
            records.push(rec);
            if done {
                break;
            }
        }
    }
    // No side-to-move field: the side of the first move's piece moves first.
    let side = records
        .first()
        .and_then(|r| r.from)
        .and_then(|sq| cells[sq.index()])
        .map_or(Color::Red, |c| {
            if c.is_ascii_lowercase() {
                Color::Black
            } else {
                Color::Red
            }
        });
    let start = start_board(&board_field, side)?;
    let mut game = tree::build(start, root.comment, records);
    game.headers = headers(header);
    Ok(game)
}

/// A truncation inside the body, given as an offset in the file.
fn shift(e: FormatError, by: usize) -> FormatError {
    match e {
        FormatError::Truncated {
            what,
            at,
            need,
            len,
        } => FormatError::Truncated {
            what,
            at: at.saturating_add(by),
            need,
            len: len.saturating_add(by),
        },
        other => other,
    }
}

fn headers(h: &[u8]) -> Headers {
    let text = |(at, n): (usize, usize)| h.get(at..at + n).map(pascal).unwrap_or_default();
    let result = match h.get(RESULT) {
        Some(1) => GameResult::RedWins,
        Some(2) => GameResult::BlackWins,
        Some(3 | 4) => GameResult::Draw,
        _ => GameResult::Unknown,
    };
    Headers {
        title: text(TITLE),
        event: text(EVENT),
        date: text(DATE),
        site: text(SITE),
        red: text(RED),
        black: text(BLACK),
        result,
        annotator: text(ANNOTATOR),
    }
}
