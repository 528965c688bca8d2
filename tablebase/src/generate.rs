//! The retrograde generator.
//!
//! For one material set, with the tables its captures lead to already
//! built:
//!
//! 1. **Start**: every index is decoded; illegal ones are marked. Each
//!    position's legal moves are generated: captures are looked up in the
//!    smaller tables (the best of them kept), quiet moves counted. No legal
//!    move: lost in 0 (mate and stalemate alike).
//! 2. **Retrograde, ply by ply**: the positions decided at ply `n` are
//!    un-moved. A predecessor of a loss in `n` is a win in `n + 1`; each
//!    predecessor of a win has its count of open moves lowered, and when
//!    it reaches zero (every quiet move loses) it is a loss at the longer
//!    of `n + 1` and its best capture's loss. Capture results enter at the
//!    ply they give.
//! 3. **Perpetual check** ([`crate::perpetual`]): among the positions left
//!    undecided (plain draws by repetition), those where the side to move
//!    can avoid a loss only by checking forever, while the other side
//!    answers without checks, are lost under our rules. They are made
//!    losses in 0 ("lost by rule") and the retrograde goes on from them
//!    (win/draw/loss only), until no new one is found; then one last pass
//!    from the state of step 1, with every rule loss in 0, sets the exact
//!    distances. The result is the same as building the whole table again
//!    after each round (a test keeps that former way to compare).
//!
//! What remains undecided is a draw. Wins and losses carry plies to mate,
//! or to a position lost by rule (see docs/tablebases.md).

use crate::index::{Indexer, Pos};
use crate::material::Material;
use crate::moves::{for_each_legal, for_each_pred, is_legal};
use crate::table::{Table, TableSet};
use crate::value::{DRAW, INVALID, back, better, dtm, is_loss, is_win, mate_in};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU8, AtomicU16, Ordering::Relaxed};

/// The best capture of a position is a draw (in `cap`).
const CAP_DRAW: u16 = u16::MAX - 1;
/// No capture (in `cap`).
const CAP_NONE: u16 = 0;

/// Figures of one generation, for the log and the docs.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Indices.
    pub size: u64,
    /// Legal positions.
    pub legal: u64,
    /// Wins, draws and losses for the side to move.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// Positions lost by the perpetual-check rule (the side to move can
    /// only check forever).
    pub rule_losses: u64,
    /// The longest distance to mate.
    pub max_dtm: u16,
    /// Passes of the retrograde (1 + rounds of perpetual check found).
    pub passes: u32,
}

/// Build the table of `material` (canonical), its captures' tables being
/// in `subs`.
///
/// The perpetual-check rounds are incremental: the start (every index's
/// moves and captures) is done once; after a round finds new rule losses,
/// the retrograde goes on from them alone, which decides the same
/// positions as building again would (the win/draw/loss of a retrograde is
/// its least fixed point, reached from any state that already holds part
/// of it) but not the same distances (a rule loss in 0 can shorten a win
/// found earlier). The perpetual search reads only win/draw/loss, so the
/// rounds find the same rule losses as rebuilding each time; once no new
/// one is found, one last pass from the start state, with every rule loss
/// in 0, gives the exact distances.
pub fn generate(material: Material, subs: &TableSet) -> (Table, Stats) {
    let ix = Indexer::new(material);
    let t0 = std::time::Instant::now();
    let mut st = State::start(&ix, subs);
    let start_counts: Vec<u8> = st.counts.iter().map(|c| c.load(Relaxed)).collect();
    st.run(&ix, st.starts());
    let mut forced: Vec<u64> = Vec::new();
    let mut passes = 1;
    loop {
        let t1 = std::time::Instant::now();
        let values: Vec<u16> = st.values.iter().map(|v| v.load(Relaxed)).collect();
        let found = crate::perpetual::forced_checkers(&ix, subs, &values);
        drop(values);
        if found.is_empty() {
            break;
        }
        passes += 1;
        log_line(&format!(
            "{material}: {} positions lost by perpetual check; going on from them ({:.1}s, perpetual {:.1}s)",
            found.len(),
            t0.elapsed().as_secs_f64(),
            t1.elapsed().as_secs_f64(),
        ));
        let new: Vec<u64> = found.into_iter().map(|i| i as u64).collect();
        forced.extend_from_slice(&new);
        // Distances from here on are not exact; only win/draw/loss counts.
        st.run(&ix, BTreeMap::from([(0, new)]));
    }
    if !forced.is_empty() {
        // Exact distances: from the start state, rule losses in 0.
        st.reset(start_counts);
        let mut pending = st.starts();
        pending.entry(0).or_default().extend_from_slice(&forced);
        st.run(&ix, pending);
    }
    let values = st.values.into_iter().map(AtomicU16::into_inner).collect();
    let table = Table {
        indexer: ix,
        values,
    };
    let mut stats = stats_of(&table);
    stats.rule_losses = forced.len() as u64;
    stats.passes = passes;
    (table, stats)
}

fn log_line(s: &str) {
    eprintln!("{s}");
}

/// Counts of a built table.
pub fn stats_of(t: &Table) -> Stats {
    let mut s = Stats {
        size: t.values.len() as u64,
        ..Stats::default()
    };
    for &v in &t.values {
        if v == INVALID {
            continue;
        }
        s.legal += 1;
        if is_win(v) {
            s.wins += 1;
        } else if is_loss(v) {
            s.losses += 1;
        } else {
            s.draws += 1;
        }
        if v != DRAW {
            s.max_dtm = s.max_dtm.max(dtm(v));
        }
    }
    s
}

/// The generator's working state: a value, an open-move count and the
/// best capture per index.
struct State {
    values: Vec<AtomicU16>,
    counts: Vec<AtomicU8>,
    cap: Vec<u16>,
}

impl State {
    /// Every index started (see [`start`]).
    fn start(ix: &Indexer, subs: &TableSet) -> State {
        let n = ix.size() as usize;
        let values: Vec<AtomicU16> = (0..n)
            .into_par_iter()
            .map(|_| AtomicU16::new(DRAW))
            .collect();
        let counts: Vec<AtomicU8> = (0..n).into_par_iter().map(|_| AtomicU8::new(0)).collect();
        let mut cap = vec![CAP_NONE; n];
        cap.par_iter_mut().enumerate().for_each(|(i, c)| {
            // What it returns, `starts` reads back from the state.
            let _ = start(ix, subs, i as u64, false, c, &values[i], &counts[i]);
        });
        State {
            values,
            counts,
            cap,
        }
    }

    /// Back to the state [`State::start`] left, `counts` being its counts.
    fn reset(&mut self, counts: Vec<u8>) {
        self.values.par_iter().for_each(|v| {
            if v.load(Relaxed) != INVALID {
                v.store(DRAW, Relaxed);
            }
        });
        self.counts = counts.into_iter().map(AtomicU8::new).collect();
    }

    /// The results known at the start, by ply: no legal move (lost in 0),
    /// a capture that wins, or only captures, all losing (lost at the
    /// longest). Read from the started state, so that a later pass need
    /// not start again.
    fn starts(&self) -> BTreeMap<u16, Vec<u64>> {
        let found: Vec<(u16, u64)> = (0..self.cap.len())
            .into_par_iter()
            .filter_map(|i| {
                if self.values[i].load(Relaxed) == INVALID {
                    return None;
                }
                let c = self.cap[i];
                let quiet = self.counts[i].load(Relaxed);
                let lvl = if c != CAP_NONE && c != CAP_DRAW && is_win(c) {
                    dtm(c)
                } else if quiet == 0 && c == CAP_NONE {
                    0
                } else if quiet == 0 && c != CAP_DRAW {
                    dtm(c)
                } else {
                    return None;
                };
                Some((lvl, i as u64))
            })
            .collect();
        let mut pending: BTreeMap<u16, Vec<u64>> = BTreeMap::new();
        for (lvl, i) in found {
            pending.entry(lvl).or_default().push(i);
        }
        pending
    }

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

#[cfg(test)]
mod tests {
    //! The incremental perpetual-check rounds against the generator they
    //! replaced, which built the whole table again after each round.

    use super::*;

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
            let found = crate::perpetual::forced_checkers(&indexer, subs, &values);
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

    fn set_of(names: &[&str]) -> TableSet {
        let mut set = TableSet::new();
        for name in names {
            let m: Material = name.parse().expect("a material");
            let (t, _) = generate(m, &set);
            set.insert(t);
        }
        set
    }

    #[test]
    fn incremental_rounds_equal_rebuilding() {
        let set = set_of(&["KvK", "KRvK", "KNvK"]);
        let m: Material = "KRvKN".parse().expect("a material");
        let (old, old_passes) = generate_by_rebuilding(m, &set);
        let (new, stats) = generate(m, &set);
        assert_eq!(old_passes, 2, "KRvKN takes one round of rule losses");
        assert_eq!(stats.passes, old_passes);
        assert_eq!(stats.rule_losses, 1291);
        assert_eq!(old.len(), new.values.len());
        let differ = old.iter().zip(&new.values).filter(|(a, b)| a != b).count();
        assert_eq!(differ, 0, "{differ} values differ from the rebuild");
    }
}
