//! Every margin, threshold, reduction and extension constant of the search,
//! in one table: its name, its default (the value the engine plays with),
//! the range a tuner may move it in, and the SPSA step (`c_end`, the
//! perturbation at the end of a run) and learning-rate hint (`r_end`), in
//! the style of Stockfish's tuning sessions.
//!
//! The search reads these through a [`SearchParams`] value. In the normal
//! build that value is the constant [`SearchParams::DEFAULT`], so every
//! read folds to an immediate; in a tuning build (the `tune` feature) it is
//! the one the `go` carries, set through a UCI option per entry.
//!
//! `jiangjun spsa --write-back` rewrites the default column of the table
//! below in place: keep each entry on one line, `name: default, min, max,
//! c_end, r_end;`, so that it can find them.

use std::borrow::Cow;
use std::sync::OnceLock;

/// Late-move reductions, `[depth][move number]`, in plies.
pub type LmrTable = [[u8; 64]; 64];

/// One entry of the table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamSpec {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// SPSA perturbation size at the end of a run.
    pub c_end: f64,
    /// SPSA learning rate at the end of a run (`a_end / c_end^2`).
    pub r_end: f64,
}

macro_rules! search_params {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident: $default:literal, $min:literal, $max:literal, $c_end:literal, $r_end:literal;
    )*) => {
        /// The values the search prunes, reduces and extends with.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $( $(#[doc = $doc])* pub $name: i32, )*
        }

        impl SearchParams {
            /// The values the engine plays with.
            pub const DEFAULT: SearchParams = SearchParams { $( $name: $default, )* };

            /// Each field, in table order.
            fn fields_mut(&mut self) -> [&mut i32; PARAMS.len()] {
                [$( &mut self.$name, )*]
            }

            /// Each value, in table order.
            pub fn values(&self) -> [i32; PARAMS.len()] {
                [$( self.$name, )*]
            }
        }

        /// The table, in declaration order.
        pub const PARAMS: &[ParamSpec] = &[$(
            ParamSpec {
                name: stringify!($name),
                default: $default,
                min: $min,
                max: $max,
                c_end: $c_end,
                r_end: $r_end,
            },
        )*];
    };
}

// name: default, min, max, c_end, r_end;
search_params! {
    /// Razoring applies up to this depth.
    razor_depth: 3, 1, 6, 0.5, 0.002;
    /// Razoring margin: base ...
    razor_base: 200, 0, 600, 20.0, 0.002;
    /// ... plus this per ply of depth.
    razor_mult: 180, 50, 400, 15.0, 0.002;
    /// Reverse futility pruning applies up to this depth.
    rfp_depth: 8, 3, 14, 0.5, 0.002;
    /// Reverse futility margin per ply of depth ...
    rfp_mult: 85, 30, 200, 6.0, 0.002;
    /// ... less this when the position improves.
    rfp_improving: 60, 0, 160, 6.0, 0.002;
    /// Null move from this depth on.
    nmp_min_depth: 3, 1, 6, 0.5, 0.002;
    /// Null-move reduction: base ...
    nmp_base: 3, 1, 6, 0.5, 0.002;
    /// ... plus one ply per this many plies of depth ...
    nmp_depth_div: 4, 2, 8, 0.5, 0.002;
    /// ... plus one ply per this much eval above beta ...
    nmp_eval_div: 200, 60, 500, 15.0, 0.002;
    /// ... but at most this many plies for the eval.
    nmp_eval_max: 3, 0, 6, 0.5, 0.002;
    /// Internal iterative reduction from this depth on.
    iir_depth: 4, 2, 10, 0.5, 0.002;
    /// Late-move pruning: quiet moves searched before the rest are pruned,
    /// base + depth^2 * scale / 100 (not improving) ...
    lmp_base: 2, 0, 8, 0.5, 0.002;
    lmp_scale: 50, 20, 150, 5.0, 0.002;
    /// ... and when improving.
    lmp_improving_base: 4, 0, 12, 0.5, 0.002;
    lmp_improving_scale: 100, 40, 250, 8.0, 0.002;
    /// Futility pruning of quiet moves up to this reduced depth ...
    fp_depth: 8, 3, 14, 0.5, 0.002;
    /// ... with margin base + mult * reduced depth.
    fp_base: 110, 0, 300, 10.0, 0.002;
    fp_mult: 100, 30, 250, 8.0, 0.002;
    /// SEE pruning of quiet moves up to this reduced depth, with threshold
    /// -mult * depth^2.
    see_quiet_depth: 6, 2, 12, 0.5, 0.002;
    see_quiet_mult: 30, 5, 100, 3.0, 0.002;
    /// SEE pruning of captures up to this depth, threshold -mult * depth.
    see_capture_depth: 6, 2, 12, 0.5, 0.002;
    see_capture_mult: 100, 30, 250, 8.0, 0.002;
    /// Singular extension from this depth on ...
    se_depth: 7, 4, 12, 0.5, 0.002;
    /// ... when the hash entry is at most this much shallower ...
    se_tt_depth: 3, 1, 6, 0.5, 0.002;
    /// ... with the singular beta this much per ply below its score.
    se_margin: 2, 1, 8, 0.5, 0.002;
    /// LMR table: reduction = base / 100 + ln(depth) ln(moves) * 100 / divisor.
    lmr_base: 80, 0, 200, 8.0, 0.002;
    lmr_divisor: 220, 120, 400, 12.0, 0.002;
    /// Late moves are reduced from this depth on ...
    lmr_min_depth: 3, 2, 6, 0.5, 0.002;
    /// ... one ply less per this much quiet history.
    lmr_history_div: 6000, 2000, 16000, 400.0, 0.002;
    /// Quiet root moves after this many are searched a ply shallower first.
    lmr_root_moves: 4, 1, 10, 0.5, 0.002;
    /// Aspiration windows from this depth on ...
    asp_min_depth: 4, 2, 8, 0.5, 0.002;
    /// ... this wide each side at first ...
    asp_delta: 18, 5, 60, 2.0, 0.002;
    /// ... growing by this percent of itself plus `asp_widen_add` after
    /// each fail ...
    asp_widen: 50, 10, 150, 5.0, 0.002;
    asp_widen_add: 5, 0, 30, 1.0, 0.002;
    /// ... and opened fully once wider than this.
    asp_max_delta: 1500, 300, 5000, 100.0, 0.002;
    /// Quiescence futility (delta) margin over the static evaluation.
    qs_futility: 150, 0, 400, 12.0, 0.002;
    /// History bonus of a cutoff move: depth * mult - offset, up to max.
    hist_bonus_mult: 170, 50, 400, 12.0, 0.002;
    hist_bonus_offset: 80, 0, 300, 10.0, 0.002;
    hist_bonus_max: 1600, 400, 4000, 100.0, 0.002;
    /// History malus of the moves tried before it, likewise.
    hist_malus_mult: 170, 50, 400, 12.0, 0.002;
    hist_malus_offset: 80, 0, 300, 10.0, 0.002;
    hist_malus_max: 1600, 400, 4000, 100.0, 0.002;
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams::DEFAULT
    }
}

impl SearchParams {
    /// The index of the entry called `name` (exact spelling).
    pub fn index_of(name: &str) -> Option<usize> {
        PARAMS.iter().position(|p| p.name == name)
    }

    /// Set entry `index` to `value`, clamped to its range. False if there
    /// is no such entry.
    pub fn set(&mut self, index: usize, value: i32) -> bool {
        let (Some(spec), Some(field)) =
            (PARAMS.get(index), self.fields_mut().into_iter().nth(index))
        else {
            return false;
        };
        *field = value.clamp(spec.min, spec.max);
        true
    }

    /// The value of entry `index`.
    pub fn get(&self, index: usize) -> Option<i32> {
        self.values().get(index).copied()
    }

    /// History bonus of the move that cut off at `depth`.
    #[inline(always)]
    pub fn history_bonus(&self, depth: i32) -> i32 {
        (depth * self.hist_bonus_mult - self.hist_bonus_offset).clamp(0, self.hist_bonus_max)
    }

    /// History malus of a move tried before the cutoff at `depth`.
    #[inline(always)]
    pub fn history_malus(&self, depth: i32) -> i32 {
        (depth * self.hist_malus_mult - self.hist_malus_offset).clamp(0, self.hist_malus_max)
    }

    /// Late-move reductions: `[depth][move number]`, in plies. The default
    /// table is computed once per process, not per search: its 8192
    /// logarithms were 0.4% of the time of datagen's 5000-node searches.
    pub fn lmr(&self) -> Cow<'static, LmrTable> {
        static DEFAULT_TABLE: OnceLock<LmrTable> = OnceLock::new();
        if *self == SearchParams::DEFAULT {
            Cow::Borrowed(DEFAULT_TABLE.get_or_init(|| SearchParams::DEFAULT.lmr_table()))
        } else {
            Cow::Owned(self.lmr_table())
        }
    }

    /// The reduction table these parameters give, computed.
    pub fn lmr_table(&self) -> LmrTable {
        // Hundredths as floats: 80 / 100.0 is exactly the double nearest
        // 0.8 (division is correctly rounded), so defaults give the table
        // the literal constants gave.
        let base = self.lmr_base as f64 / 100.0;
        let divisor = self.lmr_divisor.max(1) as f64 / 100.0;
        let mut t = [[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (base + (d as f64).ln() * (m as f64).ln() / divisor) as u8;
            }
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_lie_in_their_ranges_and_names_are_unique() {
        let mut names = std::collections::HashSet::new();
        for p in PARAMS {
            assert!(p.min <= p.default && p.default <= p.max, "{p:?}");
            assert!(p.c_end > 0.0 && p.r_end > 0.0, "{p:?}");
            assert!(names.insert(p.name), "{} twice", p.name);
        }
        assert_eq!(SearchParams::DEFAULT.values().len(), PARAMS.len());
        let defaults: Vec<i32> = PARAMS.iter().map(|p| p.default).collect();
        assert_eq!(SearchParams::DEFAULT.values().to_vec(), defaults);
    }

    #[test]
    fn divisors_cannot_reach_zero() {
        for name in [
            "nmp_depth_div",
            "nmp_eval_div",
            "lmr_divisor",
            "lmr_history_div",
        ] {
            let i = SearchParams::index_of(name).unwrap();
            assert!(PARAMS[i].min >= 1, "{name}");
        }
    }

    #[test]
    fn set_and_get_round_trip_within_the_range() {
        for (i, spec) in PARAMS.iter().enumerate() {
            let mut p = SearchParams::DEFAULT;
            assert!(p.set(i, spec.max));
            assert_eq!(p.get(i), Some(spec.max));
            assert!(p.set(i, spec.max + 1000));
            assert_eq!(p.get(i), Some(spec.max), "clamped");
            assert!(p.set(i, spec.min - 1000));
            assert_eq!(p.get(i), Some(spec.min), "clamped");
            // Only that entry moved.
            let moved = (0..PARAMS.len())
                .filter(|&k| p.get(k) != SearchParams::DEFAULT.get(k))
                .count();
            assert!(moved <= 1);
        }
        let mut p = SearchParams::DEFAULT;
        assert!(!p.set(PARAMS.len(), 1));
        assert_eq!(p.get(PARAMS.len()), None);
        let i = SearchParams::index_of("qs_futility").unwrap();
        p.set(i, 99);
        assert_eq!(p.qs_futility, 99);
    }

    #[test]
    fn default_lmr_table_is_the_literal_formula() {
        let t = SearchParams::DEFAULT.lmr_table();
        for (d, row) in t.iter().enumerate().skip(1) {
            for (m, &r) in row.iter().enumerate().skip(1) {
                let want = (0.8 + (d as f64).ln() * (m as f64).ln() / 2.2) as u8;
                assert_eq!(r, want, "depth {d} move {m}");
            }
        }
        assert_eq!(t[0], [0; 64]);
        // The search's copy: the default one is shared, others computed.
        assert!(matches!(SearchParams::DEFAULT.lmr(), Cow::Borrowed(b) if *b == t));
        let mut p = SearchParams::DEFAULT;
        p.lmr_divisor = 120;
        assert!(p.lmr_table()[20][20] > t[20][20], "rebuilt from the params");
        assert!(matches!(p.lmr(), Cow::Owned(o) if o == p.lmr_table()));
    }

    #[test]
    fn default_history_bonus_is_the_old_formula() {
        let p = SearchParams::DEFAULT;
        for depth in 0..60 {
            let old = (depth * 170 - 80).clamp(0, 1600);
            assert_eq!(p.history_bonus(depth), old);
            assert_eq!(p.history_malus(depth), old);
        }
    }
}
