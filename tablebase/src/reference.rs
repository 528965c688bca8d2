//! The plain generator the fast one replaced, kept for the tests only: it
//! reads each successor and predecessor as a whole position from a copied
//! board and encodes it, looks captures up by material, and builds the
//! whole table again after each round of perpetual-check losses. The
//! fast generator ([`crate::generate`]) must give the same values, byte
//! for byte.

use crate::index::{Indexer, Pos};
use crate::material::Material;
use crate::moves::{for_each_legal, for_each_legal_while, for_each_pred, is_legal};
use crate::table::TableSet;
use crate::value::{DRAW, INVALID, back, better, dtm, is_loss, is_win, mate_in};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU16, Ordering::Relaxed};

/// The best capture of a position is a draw (in `cap`).
const CAP_DRAW: u16 = u16::MAX - 1;
/// No capture (in `cap`).
const CAP_NONE: u16 = 0;

struct State {
    values: Vec<AtomicU16>,
    counts: Vec<AtomicU8>,
    cap: Vec<u16>,
}

impl State {
    /// The retrograde, ply by ply, from the results in `pending` (by ply)
    /// until nothing more is decided.
    fn run(&self, ix: &Indexer, mut pending: BTreeMap<u16, Vec<u64>>) {
        let (values, counts, cap) = (&self.values, &self.counts, &self.cap);
        let mut frontier: Vec<u64> = Vec::new();
        let mut level: u16 = 0;
        loop {
            // Pending results of this ply join the frontier unless decided.
            if let Some(list) = pending.remove(&level) {
                for i in list {
                    // An odd ply is a win, an even one a loss (see `value`).
                    if values[i as usize]
                        .compare_exchange(DRAW, mate_in(level), Relaxed, Relaxed)
                        .is_ok()
                    {
                        frontier.push(i);
                    }
                }
            }
            if frontier.is_empty() && pending.is_empty() {
                break;
            }
            let next_level = level + 1;
            let results: Vec<(u16, u64)> = frontier
                .par_iter()
                .flat_map_iter(|&q| step(ix, values, counts, cap, q, next_level))
                .collect();
            frontier.clear();
            for (lvl, i) in results {
                if lvl == next_level {
                    frontier.push(i);
                } else {
                    pending.entry(lvl).or_default().push(i);
                }
            }
            level = next_level;
            assert!(level < u16::MAX - 2, "distance to mate out of range");
        }
    }
}

/// Start one index: mark it illegal, lost (no move, or by rule), or count
/// its quiet moves and keep its best capture. Returns the ply at which a
/// result is already known (mate, a capture win, or a position whose only
/// moves are captures that lose or draw).
fn start(
    ix: &Indexer,
    subs: &TableSet,
    idx: u64,
    forced: bool,
    cap: &mut u16,
    value: &AtomicU16,
    count: &AtomicU8,
) -> Option<u16> {
    let Some(pos) = ix.decode(idx) else {
        value.store(INVALID, Relaxed);
        return None;
    };
    let b = pos.board();
    if !is_legal(&pos, &b) {
        value.store(INVALID, Relaxed);
        return None;
    }
    if forced {
        return Some(0);
    }
    let mut quiet = 0u32;
    let mut any = false;
    let mut best = CAP_NONE;
    for_each_legal(&pos, &b, |s| {
        any = true;
        if !s.capture {
            quiet += 1;
            return;
        }
        let next = Pos::from_board(&s.board, !pos.side).expect("fewer pieces after a capture");
        let v = subs
            .lookup(&next)
            .unwrap_or_else(|| panic!("missing table {}", next.material().canonical().0));
        let mine = if v == DRAW { CAP_DRAW } else { back(v) };
        if best == CAP_NONE || better(cap_value(mine), cap_value(best)) {
            best = mine;
        }
    });
    *cap = best;
    count.store(quiet as u8, Relaxed);
    if !any {
        return Some(0);
    }
    if best != CAP_NONE && best != CAP_DRAW && is_win(best) {
        return Some(dtm(best));
    }
    if quiet == 0 && best != CAP_DRAW {
        // Only captures, all losing: lost at the longest of them.
        return Some(dtm(best));
    }
    None
}

/// A capture result as a value (a draw is a draw).
fn cap_value(c: u16) -> u16 {
    if c == CAP_DRAW { DRAW } else { c }
}

/// Un-move one position decided at `level - 1`; returns (ply, index) of
/// the predecessors it decides: those at `level` already stored, later
/// ones (a loss held longer by a capture) for the caller to keep.
fn step(
    ix: &Indexer,
    values: &[AtomicU16],
    counts: &[AtomicU8],
    cap: &[u16],
    q: u64,
    level: u16,
) -> Vec<(u16, u64)> {
    let mut out = Vec::new();
    let Some(pos) = ix.decode(q) else {
        return out;
    };
    let v = values[q as usize].load(Relaxed);
    let lost = is_loss(v);
    let mut visit = |pb: &[u8; 90]| {
        // Predecessors with Red's king on the f file are stored as their
        // mirror images, which the mirror of this position's un-moves
        // reach (see `preds_of_class`).
        let Some(p) = Pos::from_board(pb, !pos.side) else {
            return;
        };
        if p.king(xiangqi::Color::Red) % 9 > 4 {
            return;
        }
        let Some(pi) = ix.encode(&p) else { return };
        let pi = pi as usize;
        if lost {
            if values[pi]
                .compare_exchange(DRAW, mate_in(level), Relaxed, Relaxed)
                .is_ok()
            {
                out.push((level, pi as u64));
            }
        } else if counts[pi].fetch_sub(1, Relaxed) == 1 && values[pi].load(Relaxed) == DRAW {
            let c = cap[pi];
            let at = if c == CAP_NONE {
                level
            } else if c != CAP_DRAW && is_loss(c) {
                level.max(dtm(c))
            } else {
                // A capture wins (decided at its ply) or draws: not lost.
                return;
            };
            if at > level {
                out.push((at, pi as u64));
            } else if values[pi]
                .compare_exchange(DRAW, mate_in(level), Relaxed, Relaxed)
                .is_ok()
            {
                out.push((level, pi as u64));
            }
        }
    };
    preds_of_class(&pos, &mut visit);
    out
}

/// Each (predecessor, move) into the class of `pos` under the mirror: the
/// predecessors of `pos`, and of its mirror image when that one is stored
/// as `pos` (Red's king on the d file). Callers keep only predecessors
/// stored as they are, so each move is seen once.
pub fn preds_of_class(pos: &Pos, visit: &mut impl FnMut(&[u8; 90])) {
    let b = pos.board();
    for_each_pred(pos, &b, &mut *visit);
    if pos.king(xiangqi::Color::Red) % 9 == 3 {
        let mut m = *pos;
        for s in &mut m.sq[..m.n] {
            *s = *s - *s % 9 + 8 - *s % 9;
        }
        let mb = m.board();
        for_each_pred(&m, &mb, &mut *visit);
    }
}

/// The values of `material` by the plain generator, and its passes.
pub fn generate(material: Material, subs: &TableSet) -> (Vec<u16>, u32) {
    generate_by_rebuilding(material, subs)
}

/// The former generator: every round of rule losses, a whole pass
/// again from the start.
fn generate_by_rebuilding(material: Material, subs: &TableSet) -> (Vec<u16>, u32) {
    let indexer = Indexer::new(material);
    let n = indexer.size() as usize;
    let mut forced = vec![false; n];
    let mut passes = 0;
    loop {
        passes += 1;
        let values = retrograde(&indexer, subs, &forced);
        let found = forced_checkers(&indexer, subs, &values);
        let new: Vec<usize> = found.into_iter().filter(|&i| !forced[i]).collect();
        if new.is_empty() {
            return (values, passes);
        }
        for i in new {
            forced[i] = true;
        }
    }
}

/// One full pass of the former generator, rule losses from `forced`.
fn retrograde(ix: &Indexer, subs: &TableSet, forced: &[bool]) -> Vec<u16> {
    let n = ix.size() as usize;
    let values: Vec<AtomicU16> = (0..n).map(|_| AtomicU16::new(DRAW)).collect();
    let counts: Vec<AtomicU8> = (0..n).map(|_| AtomicU8::new(0)).collect();
    let mut cap = vec![CAP_NONE; n];
    let mut pending: BTreeMap<u16, Vec<u64>> = BTreeMap::new();
    for (i, c) in cap.iter_mut().enumerate() {
        if let Some(lvl) = start(ix, subs, i as u64, forced[i], c, &values[i], &counts[i]) {
            pending.entry(lvl).or_default().push(i as u64);
        }
    }
    let st = State {
        values,
        counts,
        cap,
    };
    st.run(ix, pending);
    st.values.into_iter().map(AtomicU16::into_inner).collect()
}

// The perpetual-check search as it was.

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
