//! Perpetual check in the tables.
//!
//! Under our rules a side that gives check with every move of a repetition
//! loses, unless the other side also checks with every move (then it is a
//! draw). A plain retrograde counts every cycle as a draw, so a defender
//! whose only way to avoid mate is to check forever would be given a draw
//! it does not have.
//!
//! Among the undecided positions (every position here has a move that
//! keeps the draw, and its other moves lose), we look, for each side `s`,
//! for the largest set `R` of positions where:
//!
//! - with `s` to move, every move that does not lose is a check leading
//!   into `R` (a capture into a drawn smaller table is a way out);
//! - with the other side `o` to move, `o` has a move into `R` that is not
//!   a check.
//!
//! In `R`, `o` answers every check quietly and stays in `R`; `s` must check
//! forever (it loses by rule) or play a losing move. So `s` to move in `R`
//! is lost. This is sound; it is not complete: a position where `o` must
//! itself check now and then to keep `s` checking stays a draw here (see
//! docs/tablebases.md).

use crate::index::{Indexer, Pos};
use crate::moves::for_each_legal_while;
use crate::table::TableSet;
use crate::value::{DRAW, INVALID, is_win};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering::Relaxed};

/// `s` to move is forced to check (bit 0); `o` to move can keep the
/// opponent checking without checking itself (bit 1).
const S_FLAG: u8 = 1;
const O_FLAG: u8 = 2;

/// The undecided indices (of a table's values after a retrograde pass)
/// whose side to move can only check forever: lost by rule.
pub fn forced_checkers(ix: &Indexer, subs: &TableSet, values: &[u16]) -> Vec<usize> {
    let flags: Vec<AtomicU8> = values
        .par_iter()
        .map(|&v| AtomicU8::new(if v == DRAW { S_FLAG | O_FLAG } else { 0 }))
        .collect();
    loop {
        let changed = AtomicBool::new(false);
        (0..values.len()).into_par_iter().for_each(|i| {
            let f = flags[i].load(Relaxed);
            if f == 0 {
                return;
            }
            let keep = sweep_one(ix, subs, values, &flags, i as u64, f);
            if keep != f {
                flags[i].store(keep, Relaxed);
                changed.store(true, Relaxed);
            }
        });
        if !changed.load(Relaxed) {
            break;
        }
    }
    flags
        .iter()
        .enumerate()
        .filter(|(_, f)| f.load(Relaxed) & S_FLAG != 0)
        .map(|(i, _)| i)
        .collect()
}

/// The flags position `i` keeps, given its successors' flags.
fn sweep_one(
    ix: &Indexer,
    subs: &TableSet,
    values: &[u16],
    flags: &[AtomicU8],
    i: u64,
    f: u8,
) -> u8 {
    let Some(pos) = ix.decode(i) else { return 0 };
    let b = pos.board();
    let mut s_ok = f & S_FLAG != 0;
    let mut o_ok = false;
    // Once both flags are settled the other moves cannot change them.
    let o_open = |o_ok: bool| f & O_FLAG != 0 && !o_ok;
    for_each_legal_while(&pos, &b, |m| {
        // What this move could still change: `s` (any move), `o` (a quiet
        // move without check). Skip the look-ups otherwise.
        let o_move = !m.capture && !m.check && o_open(o_ok);
        if !s_ok && !o_move {
            return s_ok || o_open(o_ok);
        }
        let next = Pos::from_board(&m.board, !pos.side).expect("a position");
        let (v, flag) = if m.capture {
            (subs.lookup(&next).unwrap_or(INVALID), 0)
        } else {
            match ix.encode(&next) {
                Some(j) => (values[j as usize], flags[j as usize].load(Relaxed)),
                None => (INVALID, 0),
            }
        };
        if is_win(v) {
            // A losing move: neither a way out nor a way to keep the cycle.
            return true;
        }
        if v != DRAW {
            // A winning move cannot exist in an undecided position.
            s_ok = false;
            return o_open(o_ok);
        }
        // A move that keeps the draw. For `s` it must be a check into the
        // region; for `o` one quiet move into the region is enough.
        if m.capture || !m.check || flag & O_FLAG == 0 {
            s_ok = false;
        }
        if !m.capture && !m.check && flag & S_FLAG != 0 {
            o_ok = true;
        }
        s_ok || o_open(o_ok)
    });
    let mut keep = 0;
    if s_ok {
        keep |= S_FLAG;
    }
    if o_ok && f & O_FLAG != 0 {
        keep |= O_FLAG;
    }
    keep
}
