//! Zobrist keys, generated at compile time from a fixed seed so that keys (and
//! therefore opening book files and benchmark signatures) are the same in
//! every build. [`Board::key`](crate::Board::key) is the XOR of
//! `PIECE_KEYS[piece][square]` over the pieces on the board, and of
//! [`SIDE_KEY`] when Black is to move.

use crate::types::{Piece, SQUARES};

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn piece_keys() -> [[u64; SQUARES]; Piece::COUNT] {
    let mut t = [[0u64; SQUARES]; Piece::COUNT];
    let mut state = 0x4A49_414E_474A_554E; // "JIANGJUN"
    let mut p = 0;
    while p < Piece::COUNT {
        let mut s = 0;
        while s < SQUARES {
            let (ns, k) = splitmix64(state);
            state = ns;
            t[p][s] = k;
            s += 1;
        }
        p += 1;
    }
    t
}

/// One key per piece and square, indexed `[Piece::index()][Square::index()]`.
pub static PIECE_KEYS: [[u64; SQUARES]; Piece::COUNT] = piece_keys();
/// XORed in when Black is to move.
pub const SIDE_KEY: u64 = splitmix64(0x5349_4445).1;
