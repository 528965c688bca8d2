//! SplitMix64, the one small seeded generator of the workspace (Steele, Lea
//! and Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014,
//! with the finaliser constants of Vigna's reference `splitmix64.c`).
//!
//! It is here, in the lowest crate, so that every user draws the same
//! sequence from one copy: the Zobrist keys (and so book files and the
//! engine's bench), the training data's games, the weak levels' choices,
//! random networks, the trainer's weights and shuffles, SPSA's
//! perturbations. Those outputs are pinned by tests, so the sequence for a
//! given seed must never change. Not for cryptography.
//!
//! ```
//! use xiangqi::rng::SplitMix64;
//!
//! let mut a = SplitMix64::new(7);
//! let mut b = SplitMix64::new(7);
//! assert_eq!(a.next_u64(), b.next_u64());
//! assert!(a.below(6) < 6);
//! ```

/// The golden-ratio increment SplitMix64 adds to its state at each draw
/// (2^64 / φ, odd).
pub const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's finaliser: a bijection of `u64` that scatters nearby inputs
/// over the whole range. Also a good hash of a seed and an index.
#[inline]
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The generator: a 64-bit state that advances by [`GAMMA`] and is
/// finalised by [`mix64`] at each draw. Usable in `const` code (the Zobrist
/// keys are made at compile time).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// The generator seeded with `seed` (any value, 0 included).
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    #[inline]
    pub const fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GAMMA);
        mix64(self.state)
    }

    /// A number in `0..n` (`0` when `n` is 0). Taken modulo `n`: the bias,
    /// below `n / 2^64`, does not matter for games and shuffles.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// Shuffles `v` in place (Fisher-Yates, drawing from the last slot down).
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            v.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first outputs for seed 1234567, as printed by Vigna's reference
    /// `splitmix64.c` (and Java's `SplittableRandom`): the sequence is the
    /// published one, and stays so.
    #[test]
    fn matches_the_reference_sequence() {
        let mut g = SplitMix64::new(1_234_567);
        let got: Vec<u64> = (0..5).map(|_| g.next_u64()).collect();
        assert_eq!(
            got,
            [
                6_457_827_717_110_365_317,
                3_203_168_211_198_807_973,
                9_817_491_932_198_370_423,
                4_593_380_528_125_082_431,
                16_408_922_859_458_223_821,
            ]
        );
    }

    #[test]
    fn below_stays_in_range_and_shuffle_permutes() {
        let mut g = SplitMix64::new(5);
        for n in [1, 2, 3, 7, 1000] {
            for _ in 0..100 {
                assert!(g.below(n) < n);
            }
        }
        assert_eq!(g.below(0), 0);
        let mut v: Vec<u32> = (0..100).collect();
        g.shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..100).collect::<Vec<_>>());
        assert_ne!(v, sorted);
    }

    #[test]
    fn usable_in_const_code() {
        const FIRST: u64 = SplitMix64::new(0).next_u64();
        assert_eq!(FIRST, mix64(GAMMA));
    }
}
