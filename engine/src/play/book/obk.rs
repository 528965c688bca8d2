//! BHGUI's `.obk` opening books: an SQLite database with a table
//! `bhobk(vkey, vmove, vscore, vwin, vdraw, vlost, vvalid, vmemo, vindex)`.
//!
//! `vkey` is a 64-bit Zobrist key (the numbers in [`super::obk_table`], the
//! side key XORed in when Red is to move); keys with the top bit set are
//! stored as REAL, the double with the key's 64 bits. `vmove` is `from << 8
//! | to` on the 16 × 16 board (`0x33 + file + 16 * (9 - rank)`). Only rows
//! with `vvalid = 1` are used.
//!
//! A probe tries the position, then its red-black mirror (ranks turned,
//! colours and the side to move swapped), then its left-right mirror, then
//! both, and takes the first that has rows, mirroring the moves back, as
//! VinXiangQi's `OpenBookHelper.QueryAll` does.
//!
//! Weights: VinXiangQi picks either uniformly among the moves found or by
//! `vscore`. The engine picks in proportion to the weight, here `2 * vwin +
//! vdraw` (as its own books count results), or 1 for a row without results,
//! so that a book of scores alone is picked uniformly; at most 65535. `vscore` is the
//! entry's score.
//!
//! The SQLite part ([`read`], [`write`]) needs the cargo feature `obk`
//! (SQLite's C code does not build for wasm32); without it they refuse.

use super::entry::{Entry, Found};
use super::obk_table::{PIECES, PLAYER};
use xiangqi::board::Board;
use xiangqi::types::{Color, Move, Piece, SQUARES, Square};

/// The first 16 bytes of every SQLite 3 database.
pub const SQLITE_MAGIC: &[u8; 16] = b"SQLite format 3\0";

/// One valid row of `bhobk`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    pub key: u64,
    pub vmove: u16,
    pub score: i32,
    pub win: u32,
    pub draw: u32,
    pub lost: u32,
}

impl Row {
    /// The weight the engine picks by (see the module doc), at most 65535
    /// as in the other formats.
    pub fn weight(&self) -> u32 {
        if self.win == 0 && self.draw == 0 && self.lost == 0 {
            1
        } else {
            self.win
                .saturating_mul(2)
                .saturating_add(self.draw)
                .min(65535)
        }
    }
}

/// The mirror images a probe tries, in VinXiangQi's order: (red-black,
/// left-right).
const MIRRORS: [(bool, bool); 4] = [(false, false), (true, false), (false, true), (true, true)];

/// An engine square seen through the mirrors.
fn transform(sq: Square, flip: bool, mirror: bool) -> Square {
    let file = if mirror { 8 - sq.file() } else { sq.file() };
    let rank = if flip { 9 - sq.rank() } else { sq.rank() };
    Square::new(file, rank)
}

/// The `.obk` square of an engine square.
pub fn square16(sq: Square) -> u16 {
    (0x33 + sq.file() + 16 * (9 - sq.rank())) as u16
}

fn square_of(sq16: u16) -> Option<Square> {
    let (x, y) = ((sq16 & 15) as usize, (sq16 >> 4) as usize);
    ((3..=11).contains(&x) && (3..=12).contains(&y)).then(|| Square::new(x - 3, 12 - y))
}

/// `from << 8 | to`.
pub fn vmove(mv: Move) -> u16 {
    square16(mv.from()) << 8 | square16(mv.to())
}

/// The engine move of a `vmove`, if both squares are on the board.
pub fn move_of(vmove: u16) -> Option<Move> {
    Some(Move::new(square_of(vmove >> 8)?, square_of(vmove & 255)?))
}

/// The key of the position seen through the mirrors (`flip`: red-black,
/// `mirror`: left-right).
pub fn key_of(board: &Board, flip: bool, mirror: bool) -> u64 {
    let mut side = board.side_to_move();
    if flip {
        side = side.flip();
    }
    let mut key = if side == Color::Red { PLAYER } else { 0 };
    for i in 0..SQUARES {
        let sq = Square::from_index_unchecked(i);
        if let Some(p) = board.piece_at(sq) {
            let p = if flip {
                Piece::new(p.color().flip(), p.kind())
            } else {
                p
            };
            key ^= PIECES[p.index()][transform(sq, flip, mirror).index()];
        }
    }
    key
}

/// The position's key.
pub fn key(board: &Board) -> u64 {
    key_of(board, false, false)
}

/// A `.obk` book read into memory, its rows sorted by key.
#[derive(Default)]
pub struct ObkBook {
    rows: Vec<Row>,
    /// Rows left out: `vvalid` not 1, or a key or move that is not a number.
    pub skipped: usize,
}

impl ObkBook {
    pub fn from_rows(mut rows: Vec<Row>, skipped: usize) -> ObkBook {
        rows.sort_by_key(|r| r.key);
        ObkBook { rows, skipped }
    }

    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    pub fn probe(&self, board: &Board, legal_only: bool) -> Vec<Found> {
        for (flip, mirror) in MIRRORS {
            let key = key_of(board, flip, mirror);
            let lo = self.rows.partition_point(|r| r.key < key);
            let hi = self.rows.partition_point(|r| r.key <= key);
            if lo == hi {
                continue;
            }
            let mut out = Vec::new();
            for i in lo..hi {
                let r = self.rows[i];
                let Some(m) = move_of(r.vmove) else {
                    continue;
                };
                let mv = Move::new(
                    transform(m.from(), flip, mirror),
                    transform(m.to(), flip, mirror),
                );
                if legal_only && !board.is_legal_move(mv) {
                    continue;
                }
                let entry = Entry {
                    mv,
                    weight: r.weight(),
                    score: r.score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
                    games: r.win.saturating_add(r.draw).saturating_add(r.lost),
                };
                out.push(Found {
                    entry,
                    records: vec![i],
                });
            }
            out.sort_by(|a, b| {
                b.entry
                    .weight
                    .cmp(&a.entry.weight)
                    .then(b.entry.score.cmp(&a.entry.score))
            });
            return out;
        }
        Vec::new()
    }
}

/// Rows for each position's moves. A weight `w` is written as `w / 2` wins
/// and `w % 2` draws, the other games as losses, so that it reads back
/// equal; a weight of 0 as one loss.
pub fn rows_of(positions: &[(Board, Vec<Entry>)]) -> Vec<Row> {
    let mut out = Vec::new();
    for (board, entries) in positions {
        let key = key(board);
        for e in entries {
            let (win, draw) = (e.weight / 2, e.weight % 2);
            let mut lost = e.games.saturating_sub(win + draw);
            if e.weight == 0 && lost == 0 {
                lost = 1;
            }
            out.push(Row {
                key,
                vmove: vmove(e.mv),
                score: e.score as i32,
                win,
                draw,
                lost,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_round_trip_and_vmove_is_from_high() {
        let mv = Move::parse("h2e2").unwrap();
        assert_eq!(move_of(vmove(mv)), Some(mv));
        // h2 is 0x33 + 7 + 16 * 7 = 0xaa, e2 is 0xa7.
        assert_eq!(vmove(mv), 0xaaa7);
    }

    #[test]
    fn mirrors_are_probed_in_order_and_moves_mirrored_back() {
        // A book with only the red-black mirror of the position after h2e2
        // (Black's cannon on the centre file, Red to move).
        let mut after = Board::startpos();
        after.make_move(after.parse_move("h2e2").unwrap());
        let flipped = Board::from_fen(
            "rnbakabnr/9/1c2c4/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        )
        .unwrap();
        assert_eq!(key_of(&after, true, false), key(&flipped));
        let rows = rows_of(&[(
            flipped.clone(),
            vec![Entry {
                mv: flipped.parse_move("h0g2").unwrap(),
                weight: 7,
                score: 12,
                games: 9,
            }],
        )]);
        let book = ObkBook::from_rows(rows, 0);
        let found = book.probe(&after, true);
        assert_eq!(found.len(), 1);
        // h0g2 seen from the other side: h9g7.
        assert_eq!(found[0].entry.mv.to_string(), "h9g7");
        assert_eq!(
            (
                found[0].entry.weight,
                found[0].entry.games,
                found[0].entry.score
            ),
            (7, 9, 12)
        );
        // And the left-right mirror of that: b9c7 after b2e2.
        let mut other = Board::startpos();
        other.make_move(other.parse_move("b2e2").unwrap());
        assert_eq!(book.probe(&other, true)[0].entry.mv.to_string(), "b9c7");
    }
}
