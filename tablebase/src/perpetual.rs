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

use crate::geometry::EMPTY;
use crate::index::Indexer;
use crate::moves::{after, for_each_move_while, quiet_successor};
use crate::table::Captures;
use crate::value::{DRAW, INVALID, is_win};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering::Relaxed};

/// `s` to move is forced to check (bit 0); `o` to move can keep the
/// opponent checking without checking itself (bit 1).
const S_FLAG: u8 = 1;
const O_FLAG: u8 = 2;

/// The undecided indices (`value(i)` being a table's values after a
/// retrograde pass) whose side to move can only check forever: lost by
/// rule.
pub fn forced_checkers(
    ix: &Indexer,
    caps: &Captures,
    value: impl Fn(usize) -> u16 + Sync,
) -> Vec<usize> {
    let n = ix.size() as usize;
    let flags: Vec<AtomicU8> = (0..n)
        .into_par_iter()
        .map(|i| AtomicU8::new(if value(i) == DRAW { S_FLAG | O_FLAG } else { 0 }))
        .collect();
    loop {
        let changed = AtomicBool::new(false);
        let checkers_left = AtomicBool::new(false);
        (0..n).into_par_iter().for_each(|i| {
            let f = flags[i].load(Relaxed);
            if f == 0 {
                return;
            }
            let keep = sweep_one(ix, caps, &value, &flags, i as u64, f);
            if keep != f {
                flags[i].store(keep, Relaxed);
                changed.store(true, Relaxed);
            }
            if keep & S_FLAG != 0 {
                checkers_left.store(true, Relaxed);
            }
        });
        // Flags only fall, and the answer is the positions still flagged
        // `s`: with none left it is empty, whatever the `o` flags would
        // still do (in most tables the first sweep gets here).
        if !changed.load(Relaxed) || !checkers_left.load(Relaxed) {
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
    caps: &Captures,
    value: &impl Fn(usize) -> u16,
    flags: &[AtomicU8],
    i: u64,
    f: u8,
) -> u8 {
    let Some(pos) = ix.decode(i) else { return 0 };
    let mut b = pos.board();
    let mut s_ok = f & S_FLAG != 0;
    let mut o_ok = false;
    // Once both flags are settled the other moves cannot change them.
    let o_open = |o_ok: bool| f & O_FLAG != 0 && !o_ok;
    for_each_move_while(&pos, &mut b, true, |m, _| {
        let capture = m.captured != EMPTY;
        // What this move could still change: `s` (any move), `o` (a quiet
        // move without check). Skip the look-ups otherwise.
        let o_move = !capture && !m.check && o_open(o_ok);
        if !s_ok && !o_move {
            return s_ok || o_open(o_ok);
        }
        let (v, flag) = if capture {
            let next = after(&pos, m);
            (caps.lookup(m.captured, &next).unwrap_or(INVALID), 0)
        } else {
            match quiet_successor(ix, i, &pos, m) {
                Some(j) => (value(j as usize), flags[j as usize].load(Relaxed)),
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
        if capture || !m.check || flag & O_FLAG == 0 {
            s_ok = false;
        }
        if !capture && !m.check && flag & S_FLAG != 0 {
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
