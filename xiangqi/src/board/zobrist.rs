//! Zobrist keys, generated at compile time from a fixed seed so that keys (and
//! therefore opening book files and benchmark signatures) are the same in
//! every build. [`Board::key`](crate::Board::key) is the XOR of
//! `PIECE_KEYS[piece][square]` over the pieces on the board, and of
//! [`SIDE_KEY`] when Black is to move.

use crate::rng::SplitMix64;
use crate::types::{Piece, SQUARES};

const fn piece_keys() -> [[u64; SQUARES]; Piece::COUNT] {
    let mut t = [[0u64; SQUARES]; Piece::COUNT];
    let mut rng = SplitMix64::new(0x4A49_414E_474A_554E); // "JIANGJUN"
    let mut p = 0;
    while p < Piece::COUNT {
        let mut s = 0;
        while s < SQUARES {
            t[p][s] = rng.next_u64();
            s += 1;
        }
        p += 1;
    }
    t
}

/// One key per piece and square, indexed `[Piece::index()][Square::index()]`.
pub static PIECE_KEYS: [[u64; SQUARES]; Piece::COUNT] = piece_keys();
/// XORed in when Black is to move.
pub const SIDE_KEY: u64 = SplitMix64::new(0x5349_4445).next_u64();
