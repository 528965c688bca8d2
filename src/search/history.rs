//! History tables for quiet-move ordering: a butterfly table indexed by side,
//! origin and target, updated with a gravity formula so that values stay
//! bounded and old information fades.

use crate::board::Board;
use crate::types::{Color, Move, SQUARES};

const MAX_HISTORY: i32 = 16384;

pub struct Histories {
    butterfly: Vec<i16>,
}

impl Default for Histories {
    fn default() -> Self {
        Self::new()
    }
}

#[inline(always)]
fn butterfly_index(side: Color, m: Move) -> usize {
    (side.index() * SQUARES + m.from().index()) * SQUARES + m.to().index()
}

/// Move `entry` toward `bonus` (positive or negative), saturating at the maximum.
#[inline(always)]
fn gravity(entry: &mut i16, bonus: i32) {
    let e = *entry as i32;
    let b = bonus.clamp(-MAX_HISTORY, MAX_HISTORY);
    *entry = (e + b - e * b.abs() / MAX_HISTORY) as i16;
}

impl Histories {
    pub fn new() -> Histories {
        Histories {
            butterfly: vec![0; 2 * SQUARES * SQUARES],
        }
    }

    pub fn clear(&mut self) {
        self.butterfly.iter_mut().for_each(|x| *x = 0);
    }

    /// Ordering score of a quiet move.
    #[inline]
    pub fn quiet_score(&self, _board: &Board, side: Color, m: Move, _ply: usize) -> i32 {
        self.butterfly[butterfly_index(side, m)] as i32
    }

    /// Reward the quiet move that caused a cutoff and punish the quiet moves tried before it.
    pub fn update_quiets(&mut self, side: Color, best: Move, tried: &[Move], depth: i32) {
        let bonus = (depth * depth * 16).min(1600);
        gravity(&mut self.butterfly[butterfly_index(side, best)], bonus);
        for &m in tried {
            if m != best {
                gravity(&mut self.butterfly[butterfly_index(side, m)], -bonus);
            }
        }
    }
}
