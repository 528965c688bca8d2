//! The transposition table, shared by all search threads without locks.
//!
//! Each entry is two `AtomicU64`s: the packed data and the key XOR the data.
//! A reader accepts an entry only if the two agree with its key, so an entry
//! torn by two threads writing at once reads as a miss instead of as wrong
//! data. Four entries make a 64-byte bucket; replacement prefers the same key,
//! then the shallowest entry, entries from older searches counting as shallower.

use xiangqi::types::Move;

use crate::large_pages::{LargeBuf, Zeroable};
use crate::score::{MAX_PLY, SCORE_TB_WIN_MIN, Score, is_loss, is_win};
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Bound {
    None = 0,
    Upper = 1,
    Lower = 2,
    Exact = 3,
}

/// What a probe returns.
#[derive(Clone, Copy, Debug)]
pub struct TtEntry {
    pub mv: Move,
    pub score: Score,
    pub eval: Score,
    pub depth: i32,
    pub bound: Bound,
    pub pv: bool,
}

impl TtEntry {
    /// The stored score settles a node searched with the window
    /// (`alpha`, `beta`): exact, or a bound on the side of the window.
    #[inline]
    pub fn cuts(&self, alpha: Score, beta: Score) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
            Bound::None => false,
        }
    }
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

const BUCKET: usize = 4;

#[repr(align(64))]
#[derive(Default)]
struct Bucket {
    slots: [Slot; BUCKET],
}

// SAFETY: a bucket is atomic integers only; all zero is the empty bucket
// (`Bucket::default()`).
unsafe impl Zeroable for Bucket {}

// data layout: move 16 | score 16 | eval 16 | depth 8 | bound 2, pv 1, age 5
fn pack(mv: Move, score: Score, eval: Score, depth: i32, bound: Bound, pv: bool, age: u8) -> u64 {
    (mv.raw() as u64)
        | ((score as i16 as u16 as u64) << 16)
        | ((eval as i16 as u16 as u64) << 32)
        | (((depth + 8).clamp(0, 255) as u64) << 48)
        | ((bound as u64) << 56)
        | ((pv as u64) << 58)
        | (((age & 31) as u64) << 59)
}

fn unpack(d: u64) -> (TtEntry, u8) {
    let bound = match (d >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => Bound::None,
    };
    (
        TtEntry {
            mv: Move::from_raw(d as u16),
            score: (d >> 16) as u16 as i16 as Score,
            eval: (d >> 32) as u16 as i16 as Score,
            depth: ((d >> 48) & 0xff) as i32 - 8,
            bound,
            pv: (d >> 58) & 1 != 0,
        },
        ((d >> 59) & 31) as u8,
    )
}

pub(crate) struct TranspositionTable {
    buckets: LargeBuf<Bucket>,
    age: AtomicU8,
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket).
    pub(crate) fn new(mb: usize) -> TranspositionTable {
        Self::try_new(mb).unwrap_or_else(|_| Self::try_new(1).expect("1 MB table"))
    }

    /// A table of about `mb` megabytes, or an error if the memory cannot be
    /// had (more than the machine has available, or the allocation fails).
    pub(crate) fn try_new(mb: usize) -> Result<TranspositionTable, String> {
        if let Some(avail) = available_memory_mb()
            && mb > avail
        {
            return Err(format!(
                "{mb} MB is more than the {avail} MB of memory available"
            ));
        }
        let n = (mb.max(1) * 1024 * 1024 / std::mem::size_of::<Bucket>()).max(1);
        let buckets = LargeBuf::zeroed(n).ok_or_else(|| format!("cannot allocate {mb} MB"))?;
        Ok(TranspositionTable {
            buckets,
            age: AtomicU8::new(0),
        })
    }

    pub(crate) fn clear(&self) {
        for b in self.buckets.iter() {
            for s in &b.slots {
                s.check.store(0, Ordering::Relaxed);
                s.data.store(0, Ordering::Relaxed);
            }
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Called at the start of every search: older entries become easier to replace.
    pub(crate) fn new_search(&self) {
        let a = self.age.load(Ordering::Relaxed);
        self.age.store((a + 1) & 31, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Hint the CPU to fetch the bucket of `key` into the cache, so that
    /// the probe after the next move finds it there.
    #[inline(always)]
    pub(crate) fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let b: *const Bucket = self.bucket(key);
            // SAFETY: a prefetch is only a hint to the cache; it never faults
            // and has no effect on memory, and `sse` is part of the x86_64
            // baseline this crate is built for.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(b.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Look up `key`; the score is converted from "mate in N from here" to
    /// "mate in N from the root" with `ply`.
    pub(crate) fn probe(&self, key: u64, ply: usize) -> Option<TtEntry> {
        for s in &self.bucket(key).slots {
            let data = s.data.load(Ordering::Relaxed);
            if data != 0 && s.check.load(Ordering::Relaxed) ^ data == key {
                let (mut e, _) = unpack(data);
                e.score = score_from_tt(e.score, ply);
                return Some(e);
            }
        }
        None
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn store(
        &self,
        key: u64,
        ply: usize,
        mv: Move,
        score: Score,
        eval: Score,
        depth: i32,
        bound: Bound,
        pv: bool,
    ) {
        let age = self.age.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = &bucket.slots[0];
        let mut victim_worth = i32::MAX;
        for s in &bucket.slots {
            let data = s.data.load(Ordering::Relaxed);
            if data == 0 || s.check.load(Ordering::Relaxed) ^ data == key {
                victim = s;
                // Keep the old move when the new store has none.
                if data != 0 && mv.is_none() {
                    let (old, _) = unpack(data);
                    return self
                        .write(victim, key, old.mv, score, eval, depth, bound, pv, age, ply);
                }
                break;
            }
            let (e, a) = unpack(data);
            let stale = (age.wrapping_sub(a) & 31) as i32;
            let worth = e.depth - 8 * stale;
            if worth < victim_worth {
                victim_worth = worth;
                victim = s;
            }
        }
        self.write(victim, key, mv, score, eval, depth, bound, pv, age, ply);
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn write(
        &self,
        slot: &Slot,
        key: u64,
        mv: Move,
        score: Score,
        eval: Score,
        depth: i32,
        bound: Bound,
        pv: bool,
        age: u8,
        ply: usize,
    ) {
        let data = pack(mv, score_to_tt(score, ply), eval, depth, bound, pv, age);
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of the first thousand buckets' entries written in this search.
    pub(crate) fn hashfull(&self) -> usize {
        let age = self.age.load(Ordering::Relaxed);
        let n = self.buckets.len().min(1000);
        let mut used = 0;
        for b in &self.buckets[..n] {
            for s in &b.slots {
                let d = s.data.load(Ordering::Relaxed);
                if d != 0 && unpack(d).1 == age {
                    used += 1;
                }
            }
        }
        used * 1000 / (n * BUCKET)
    }
}

/// MemAvailable from /proc/meminfo (Linux); `None` where it cannot be read.
fn available_memory_mb() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// Mate and table scores (both count plies from the root) are stored
/// relative to the node: the distance from here, whatever the ply.
fn score_to_tt(score: Score, ply: usize) -> Score {
    if is_win(score) {
        score + ply as Score
    } else if is_loss(score) {
        score - ply as Score
    } else {
        score
    }
}

/// Back from node-relative to root-relative at `ply`. A table result read
/// far below where it was found could fall out of the decisive range into
/// the evaluations'; it stays a result at the weakest (a mate read that far
/// down becomes a table-range win, as before tables were added).
fn score_from_tt(score: Score, ply: usize) -> Score {
    if is_win(score) {
        (score - ply as Score).max(SCORE_TB_WIN_MIN)
    } else if is_loss(score) {
        (score + ply as Score).min(-SCORE_TB_WIN_MIN)
    } else {
        score
    }
}

const _: () = assert!(MAX_PLY < 200);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{SCORE_MATE, SCORE_TB_WIN};

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1);
        let m = Move::parse("h2e2").unwrap();
        tt.store(0x1234_5678_9abc_def0, 0, m, -57, 12, 9, Bound::Lower, true);
        let e = tt.probe(0x1234_5678_9abc_def0, 0).unwrap();
        assert_eq!(
            (e.mv, e.score, e.eval, e.depth, e.bound, e.pv),
            (m, -57, 12, 9, Bound::Lower, true)
        );
        assert!(tt.probe(0x1234_5678_9abc_def1, 0).is_none());
        // Negative depths (quiescence) survive packing.
        tt.store(42, 0, Move::NONE, 5, 5, -1, Bound::Upper, false);
        assert_eq!(tt.probe(42, 0).unwrap().depth, -1);
    }

    #[test]
    fn mate_scores_are_ply_relative() {
        let tt = TranspositionTable::new(1);
        // Mate in 5 plies from the root found at ply 3: 2 plies from the node.
        tt.store(7, 3, Move::NONE, SCORE_MATE - 5, 0, 4, Bound::Exact, false);
        assert_eq!(tt.probe(7, 3).unwrap().score, SCORE_MATE - 5);
        assert_eq!(tt.probe(7, 1).unwrap().score, SCORE_MATE - 3);
    }

    #[test]
    fn table_scores_are_ply_relative() {
        let tt = TranspositionTable::new(1);
        // A table win 20 plies from the root found at ply 6 (14 from the
        // node), read back at ply 2: 16 plies from the root.
        tt.store(
            9,
            6,
            Move::NONE,
            SCORE_TB_WIN - 20,
            0,
            4,
            Bound::Exact,
            false,
        );
        assert_eq!(tt.probe(9, 6).unwrap().score, SCORE_TB_WIN - 20);
        assert_eq!(tt.probe(9, 2).unwrap().score, SCORE_TB_WIN - 16);
        tt.store(
            10,
            3,
            Move::NONE,
            -(SCORE_TB_WIN - 11),
            0,
            4,
            Bound::Upper,
            false,
        );
        assert_eq!(tt.probe(10, 5).unwrap().score, -(SCORE_TB_WIN - 13));
        // Read far down, a result stays a result, never an evaluation.
        tt.store(
            11,
            0,
            Move::NONE,
            SCORE_TB_WIN_MIN + 3,
            0,
            4,
            Bound::Exact,
            false,
        );
        assert_eq!(tt.probe(11, 100).unwrap().score, SCORE_TB_WIN_MIN);
        tt.store(
            12,
            0,
            Move::NONE,
            -SCORE_TB_WIN_MIN - 3,
            0,
            4,
            Bound::Exact,
            false,
        );
        assert_eq!(tt.probe(12, 100).unwrap().score, -SCORE_TB_WIN_MIN);
        // Evaluations are stored as they are.
        tt.store(
            13,
            9,
            Move::NONE,
            SCORE_TB_WIN_MIN - 1,
            0,
            4,
            Bound::Exact,
            false,
        );
        assert_eq!(tt.probe(13, 1).unwrap().score, SCORE_TB_WIN_MIN - 1);
    }

    #[test]
    fn hashfull_counts_this_search() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.hashfull(), 0);
        for k in 0..100_000u64 {
            tt.store(
                k.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                0,
                Move::NONE,
                0,
                0,
                1,
                Bound::Exact,
                false,
            );
        }
        assert!(tt.hashfull() > 500);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
        tt.clear();
        assert!(tt.probe(0, 0).is_none());
    }
}
