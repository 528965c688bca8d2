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
//!
//! Speed: (un-)moves are made on one board per position and taken back,
//! and the index of each predecessor or successor is the current index
//! with one group ranked again ([`Indexer::moved`]); captures find their
//! table by the captured piece ([`Captures`]). Each index's value, open
//! count and start count share four bytes, so the retrograde's
//! predecessor updates touch one cache line each, and each ply's frontier
//! is sorted so that neighbouring positions' predecessors are near in
//! memory. `crate::reference` (tests only) keeps the plain generator this one must
//! equal.

use crate::geometry::EMPTY;
use crate::index::Indexer;
use crate::material::Material;
use crate::moves::{after, for_each_move_while, for_each_unmove, is_legal};
use crate::stats::Stats;
use crate::table::{Captures, Table, TableSet};
use crate::value::{DRAW, INVALID, back, better, dtm, is_loss, is_win, mate_in};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU8, AtomicU16, Ordering::Relaxed};
use std::time::Instant;

/// The best capture of a position is a draw (in `cap`).
const CAP_DRAW: u16 = u16::MAX - 1;
/// No capture (in `cap`).
const CAP_NONE: u16 = 0;

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
///
/// With the environment variable `JIANGJUN_TB_TIMES` set, the time of
/// each phase goes to stderr.
pub fn generate(material: Material, subs: &TableSet) -> (Table, Stats) {
    let ix = Indexer::new(material);
    let caps = Captures::new(material, subs);
    let timer = Timer::new(material);
    let mut st = State::start(&ix, &caps);
    timer.lap("start");
    st.run(&ix, st.starts());
    timer.lap("retrograde");
    let mut forced: Vec<u64> = Vec::new();
    let mut passes = 1;
    loop {
        let t1 = Instant::now();
        let entries = &st.entries;
        let found =
            crate::perpetual::forced_checkers(&ix, &caps, |i| entries[i].value.load(Relaxed));
        timer.lap("perpetual");
        if found.is_empty() {
            break;
        }
        passes += 1;
        log_line(&format!(
            "{material}: {} positions lost by perpetual check; going on from them ({:.1}s, perpetual {:.1}s)",
            found.len(),
            timer.start.elapsed().as_secs_f64(),
            t1.elapsed().as_secs_f64(),
        ));
        let new: Vec<u64> = found.into_iter().map(|i| i as u64).collect();
        forced.extend_from_slice(&new);
        // Distances from here on are not exact; only win/draw/loss counts.
        st.run(&ix, BTreeMap::from([(0, new)]));
        timer.lap("retrograde");
    }
    if !forced.is_empty() {
        // Exact distances: from the start state, rule losses in 0.
        st.reset();
        let mut pending = st.starts();
        pending.entry(0).or_default().extend_from_slice(&forced);
        st.run(&ix, pending);
        timer.lap("exact pass");
    }
    let State { entries, cap } = st;
    drop(cap);
    let values = entries.par_iter().map(|c| c.value.load(Relaxed)).collect();
    drop(entries);
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

/// Phase times to stderr when `JIANGJUN_TB_TIMES` is set: where a
/// table's time goes.
struct Timer {
    material: Material,
    on: bool,
    start: Instant,
    last: std::cell::Cell<Instant>,
}

impl Timer {
    fn new(material: Material) -> Timer {
        let now = Instant::now();
        Timer {
            material,
            on: std::env::var_os("JIANGJUN_TB_TIMES").is_some(),
            start: now,
            last: std::cell::Cell::new(now),
        }
    }

    fn lap(&self, what: &str) {
        let now = Instant::now();
        if self.on {
            let s = (now - self.last.get()).as_secs_f64();
            log_line(&format!("{}: {what} {s:.2}s", self.material));
        }
        self.last.set(now);
    }
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

/// One index's working state, four bytes (one cache line, whichever
/// field the retrograde touches): its value, its count of quiet moves not
/// yet known to lose, and that count as the start left it (for the last
/// exact pass).
#[repr(C, align(4))]
struct Entry {
    value: AtomicU16,
    count: AtomicU8,
    start: AtomicU8,
}

/// The generator's working state: an entry and the best capture per index
/// (six bytes).
struct State {
    entries: Vec<Entry>,
    cap: Vec<u16>,
}

impl State {
    /// Every index started (see [`start`]).
    fn start(ix: &Indexer, caps: &Captures) -> State {
        let n = ix.size() as usize;
        let entries: Vec<Entry> = (0..n)
            .into_par_iter()
            .map(|_| Entry {
                value: AtomicU16::new(DRAW),
                count: AtomicU8::new(0),
                start: AtomicU8::new(0),
            })
            .collect();
        let mut cap = vec![CAP_NONE; n];
        cap.par_iter_mut()
            .zip(entries.par_iter())
            .enumerate()
            .for_each(|(i, (c, entry))| start(ix, caps, i as u64, c, entry));
        State { entries, cap }
    }

    /// Back to the state [`State::start`] left.
    fn reset(&mut self) {
        self.entries.par_iter().for_each(|c| {
            if c.value.load(Relaxed) != INVALID {
                c.value.store(DRAW, Relaxed);
            }
            c.count.store(c.start.load(Relaxed), Relaxed);
        });
    }

    /// The results known at the start, by ply: no legal move (lost in 0),
    /// a capture that wins, or only captures, all losing (lost at the
    /// longest). Read from the started state, so that a later pass need
    /// not start again.
    fn starts(&self) -> BTreeMap<u16, Vec<u64>> {
        let found: Vec<(u16, u64)> = (0..self.cap.len())
            .into_par_iter()
            .filter_map(|i| {
                if self.entries[i].value.load(Relaxed) == INVALID {
                    return None;
                }
                let c = self.cap[i];
                let quiet = self.entries[i].count.load(Relaxed);
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
        let (entries, cap) = (&self.entries, &self.cap);
        let mut frontier: Vec<u64> = Vec::new();
        let mut level: u16 = 0;
        loop {
            // Pending results of this ply join the frontier unless decided.
            if let Some(list) = pending.remove(&level) {
                // An odd ply is a win, an even one a loss (see `value`).
                let fresh = list.into_par_iter().filter(|&i| {
                    entries[i as usize]
                        .value
                        .compare_exchange(DRAW, mate_in(level), Relaxed, Relaxed)
                        .is_ok()
                });
                frontier.par_extend(fresh);
            }
            if frontier.is_empty() && pending.is_empty() {
                break;
            }
            // In index order, consecutive positions differ in their last
            // groups, so their predecessors fall near one another.
            frontier.par_sort_unstable();
            let next_level = level + 1;
            let results: Vec<(u16, u64)> = frontier
                .par_iter()
                .fold(Vec::new, |mut out, &q| {
                    step(ix, entries, cap, q, next_level, &mut out);
                    out
                })
                .reduce(Vec::new, |mut a, mut b| {
                    if a.len() < b.len() {
                        std::mem::swap(&mut a, &mut b);
                    }
                    a.extend_from_slice(&b);
                    a
                });
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

/// Start one index: mark it illegal, or count its quiet moves and keep its
/// best capture ([`State::starts`] reads what is then known: mate, a
/// capture win, a position whose only moves are captures).
fn start(ix: &Indexer, caps: &Captures, idx: u64, cap: &mut u16, entry: &Entry) {
    let Some(pos) = ix.decode(idx) else {
        entry.value.store(INVALID, Relaxed);
        return;
    };
    let mut b = pos.board();
    if !is_legal(&pos, &b) {
        entry.value.store(INVALID, Relaxed);
        return;
    }
    let mut quiet = 0u8;
    let mut best = CAP_NONE;
    for_each_move_while(&pos, &mut b, false, |m, _| {
        if m.captured == EMPTY {
            quiet += 1;
            return true;
        }
        let v = caps
            .lookup(m.captured, &after(&pos, m))
            .unwrap_or_else(|| panic!("missing a capture table of {}", ix.material()));
        let mine = if v == DRAW { CAP_DRAW } else { back(v) };
        if best == CAP_NONE || better(cap_value(mine), cap_value(best)) {
            best = mine;
        }
        true
    });
    *cap = best;
    entry.count.store(quiet, Relaxed);
    entry.start.store(quiet, Relaxed);
}

/// A capture result as a value (a draw is a draw).
fn cap_value(c: u16) -> u16 {
    if c == CAP_DRAW { DRAW } else { c }
}

/// Un-move one position decided at `level - 1`; pushes (ply, index) of
/// the predecessors it decides onto `out`: those at `level` already
/// stored, later ones (a loss held longer by a capture) for the caller to
/// keep.
fn step(
    ix: &Indexer,
    entries: &[Entry],
    cap: &[u16],
    q: u64,
    level: u16,
    out: &mut Vec<(u16, u64)>,
) {
    let Some(pos) = ix.decode(q) else {
        return;
    };
    let lost = is_loss(entries[q as usize].value.load(Relaxed));
    let mut visit = |pi: u64| {
        let entry = &entries[pi as usize];
        if lost {
            if entry
                .value
                .compare_exchange(DRAW, mate_in(level), Relaxed, Relaxed)
                .is_ok()
            {
                out.push((level, pi));
            }
        } else if entry.count.fetch_sub(1, Relaxed) == 1 && entry.value.load(Relaxed) == DRAW {
            let c = cap[pi as usize];
            let at = if c == CAP_NONE {
                level
            } else if c != CAP_DRAW && is_loss(c) {
                level.max(dtm(c))
            } else {
                // A capture wins (decided at its ply) or draws: not lost.
                return;
            };
            if at > level {
                out.push((at, pi));
            } else if entry
                .value
                .compare_exchange(DRAW, mate_in(level), Relaxed, Relaxed)
                .is_ok()
            {
                out.push((level, pi));
            }
        }
    };
    // The predecessors stored as they are: Red's king stays on the d or e
    // file (`moved` refuses it on the f file; that predecessor is stored
    // as its mirror image, reached from this position's mirror image).
    let mut b = pos.board();
    for_each_unmove(&pos, &mut b, 0..pos.n, |i, from| {
        if let Some(pi) = ix.moved(q, &pos, i, from) {
            visit(pi);
        }
    });
    // With Red's king on the d file the mirror image (king on f) is not
    // stored; its predecessors with Red's king back on the e file are.
    // Only an un-move of that king (Red having just moved) gets there.
    if pos.side == xiangqi::Color::Black && pos.king(xiangqi::Color::Red) % 9 == 3 {
        let mut m = pos;
        for s in &mut m.sq[..m.n] {
            *s = *s - *s % 9 + 8 - *s % 9;
        }
        let mut mb = m.board();
        // A decoded position starts with Red's king.
        for_each_unmove(&m, &mut mb, 0..1, |_, from| {
            if from % 9 > 4 {
                return;
            }
            let mut p = m;
            p.sq[0] = from as u8;
            p.side = !pos.side;
            if let Some(pi) = ix.encode(&p) {
                visit(pi);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    //! The fast generator against the plain one it replaced
    //! ([`crate::reference`]), which also built the whole table again
    //! after each round of perpetual-check losses.

    use super::*;

    /// `names` built in order, each by the fast generator and compared
    /// with the plain one on the same smaller tables.
    fn build_and_compare(names: &[&str]) -> TableSet {
        let mut set = TableSet::new();
        for name in names {
            let m: Material = name.parse().expect("a material");
            let (old, old_passes) = crate::reference::generate(m, &set);
            let (new, stats) = generate(m, &set);
            assert_eq!(stats.passes, old_passes, "{name}");
            assert_eq!(old.len(), new.values.len());
            let differ = old.iter().zip(&new.values).filter(|(a, b)| a != b).count();
            assert_eq!(
                differ, 0,
                "{name}: {differ} values differ from the plain generator"
            );
            set.insert(new);
        }
        set
    }

    #[test]
    fn incremental_rounds_equal_rebuilding() {
        let set = build_and_compare(&["KvK", "KRvK", "KNvK"]);
        let m: Material = "KRvKN".parse().expect("a material");
        let (old, old_passes) = crate::reference::generate(m, &set);
        let (new, stats) = generate(m, &set);
        assert_eq!(old_passes, 2, "KRvKN takes one round of rule losses");
        assert_eq!(stats.passes, old_passes);
        assert_eq!(stats.rule_losses, 1291);
        assert_eq!(old.len(), new.values.len());
        let differ = old.iter().zip(&new.values).filter(|(a, b)| a != b).count();
        assert_eq!(differ, 0, "{differ} values differ from the rebuild");
    }

    /// Both sides' advisors and elephants, a pawn, a cannon: captures into
    /// tables stored with the colours swapped, groups of two, the mirror.
    #[test]
    fn fast_generator_equals_the_plain_one() {
        let m: Material = "KCAvKA".parse().expect("a material");
        let mut names: Vec<String> = m.closure().iter().map(|m| m.to_string()).collect();
        for extra in [
            "KPvK", "KPvKB", "KPAvK", "KAvKB", "KPAvKB", "KAAvK", "KRvKAA",
        ] {
            let e: Material = extra.parse().expect("a material");
            for c in e.closure() {
                let c = c.to_string();
                if !names.contains(&c) {
                    names.push(c);
                }
            }
        }
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        build_and_compare(&refs);
    }
}
