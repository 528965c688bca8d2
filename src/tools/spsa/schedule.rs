//! The SPSA arithmetic, apart from any game: the gain sequences, the
//! perturbation of each iteration, and the update of theta from a match
//! result. Everything here is a pure function of its arguments (and the
//! seed), so that a run is repeatable and can be resumed at any iteration.
//!
//! The gains follow the usual parametrisation of Stockfish's tuning
//! sessions: each parameter gives its perturbation `c_end` and learning
//! rate `r_end` at the last iteration `N`, and
//!
//! - `c_k = c / (k + 1)^gamma`, with `c = c_end * N^gamma`;
//! - `a_k = a / (A + k + 1)^alpha`, with `a = r_end * c_end^2 * (A + N)^alpha`
//!   and `A = N / 10`;
//! - `alpha = 0.602`, `gamma = 0.101`;
//!
//! for iterations `k = 0 .. N - 1`. One iteration plays theta + c_k delta
//! against theta - c_k delta (delta a random ±1 per parameter) and moves
//! theta by `a_k * (wins - losses) * delta / c_k`, the result counted from
//! the plus side's view.

use jiangjun_engine::search_params::ParamSpec;
use xiangqi::rng::SplitMix64;

pub const ALPHA: f64 = 0.602;
pub const GAMMA: f64 = 0.101;
/// The stability constant `A` as a fraction of the run's iterations.
pub const A_FRACTION: f64 = 0.1;

/// The gains of one parameter over a run of `iterations`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gains {
    pub a: f64,
    pub c: f64,
    pub big_a: f64,
}

impl Gains {
    pub fn new(spec: &ParamSpec, iterations: u64) -> Gains {
        let n = iterations.max(1) as f64;
        let big_a = A_FRACTION * n;
        let a_end = spec.r_end * spec.c_end * spec.c_end;
        Gains {
            a: a_end * (big_a + n).powf(ALPHA),
            c: spec.c_end * n.powf(GAMMA),
            big_a,
        }
    }

    /// The perturbation size at iteration `k` (from 0).
    pub fn c_k(&self, k: u64) -> f64 {
        self.c / ((k + 1) as f64).powf(GAMMA)
    }

    /// The step size at iteration `k` (from 0).
    pub fn a_k(&self, k: u64) -> f64 {
        self.a / (self.big_a + (k + 1) as f64).powf(ALPHA)
    }
}

/// The generator of iteration `k` of the run seeded `seed`: drawn afresh
/// for each iteration, so that no generator state needs saving. SplitMix64,
/// whose sequence never changes: a resumed run must draw what the first run
/// would have.
fn generator(seed: u64, k: u64, stream: u64) -> SplitMix64 {
    let mut g = SplitMix64::new(seed ^ k.wrapping_mul(0xD1B5_4A32_D192_ED03) ^ (stream << 56));
    g.next_u64();
    g
}

/// The Rademacher perturbation (each entry +1 or -1) of iteration `k`.
pub fn perturbation(seed: u64, k: u64, len: usize) -> Vec<f64> {
    let mut g = generator(seed, k, 1);
    (0..len)
        .map(|_| if g.next_u64() & 1 == 0 { 1.0 } else { -1.0 })
        .collect()
}

/// The openings iteration `k` plays, `pairs` of them (each twice, colours
/// swapped): consecutive slots of one seeded shuffle of the `count`
/// openings, so that a run goes through the whole list before repeating.
pub fn openings_for(seed: u64, k: u64, pairs: usize, count: usize) -> Vec<usize> {
    if count == 0 {
        return Vec::new();
    }
    let mut order: Vec<usize> = (0..count).collect();
    let mut g = generator(seed, 0, 2);
    for i in (1..count).rev() {
        let j = (g.next_u64() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    (0..pairs)
        .map(|p| order[((k as usize).wrapping_mul(pairs) + p) % count])
        .collect()
}

/// The values one side of iteration `k` plays with: theta moved by
/// `sign` c_k delta, kept in range, rounded to the engine's integers.
pub fn side_values(
    specs: &[ParamSpec],
    theta: &[f64],
    gains: &[Gains],
    delta: &[f64],
    k: u64,
    sign: f64,
) -> Vec<i32> {
    specs
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let v = theta[i] + sign * gains[i].c_k(k) * delta[i];
            v.clamp(s.min as f64, s.max as f64).round() as i32
        })
        .collect()
}

/// Theta after iteration `k`, whose match the plus side won by `score`
/// (wins - losses): each value moves by a_k score delta / c_k, and is kept
/// in its range.
pub fn update(
    specs: &[ParamSpec],
    theta: &[f64],
    gains: &[Gains],
    delta: &[f64],
    k: u64,
    score: i64,
) -> Vec<f64> {
    specs
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let g = &gains[i];
            let step = g.a_k(k) * score as f64 * delta[i] / g.c_k(k);
            (theta[i] + step).clamp(s.min as f64, s.max as f64)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(default: i32, min: i32, max: i32, c_end: f64, r_end: f64) -> ParamSpec {
        ParamSpec {
            name: "x",
            default,
            min,
            max,
            c_end,
            r_end,
        }
    }

    #[test]
    fn gains_end_at_c_end_and_r_end() {
        let s = spec(100, 0, 200, 10.0, 0.002);
        let n = 1000;
        let g = Gains::new(&s, n);
        assert!((g.c_k(n - 1) - 10.0).abs() < 1e-9, "{}", g.c_k(n - 1));
        let r_end = g.a_k(n - 1) / (g.c_k(n - 1) * g.c_k(n - 1));
        assert!((r_end - 0.002).abs() < 1e-12, "{r_end}");
        // Both shrink as the run goes on, c more slowly than a.
        assert!(g.c_k(0) > g.c_k(10) && g.a_k(0) > g.a_k(10));
        assert!(g.c_k(0) / g.c_k(n - 1) < g.a_k(0) / g.a_k(n - 1));
        assert!((g.c_k(0) - 10.0 * 1000f64.powf(GAMMA)).abs() < 1e-9);
        assert!((g.big_a - 100.0).abs() < 1e-12);
    }

    #[test]
    fn perturbation_is_rademacher_and_seeded() {
        let d = perturbation(7, 3, 1000);
        assert!(d.iter().all(|&x| x == 1.0 || x == -1.0));
        let plus = d.iter().filter(|&&x| x > 0.0).count();
        assert!((400..600).contains(&plus), "{plus}");
        assert_eq!(d, perturbation(7, 3, 1000));
        assert_ne!(d, perturbation(7, 4, 1000));
        assert_ne!(d, perturbation(8, 3, 1000));
    }

    #[test]
    fn openings_go_through_the_list_before_repeating() {
        let count = 10;
        let mut seen = Vec::new();
        for k in 0..5 {
            let o = openings_for(1, k, 2, count);
            assert_eq!(o.len(), 2);
            seen.extend(o);
        }
        seen.sort();
        assert_eq!(seen, (0..count).collect::<Vec<_>>());
        assert_eq!(openings_for(1, 3, 2, count), openings_for(1, 3, 2, count));
        assert_eq!(openings_for(1, 5, 2, count), openings_for(1, 0, 2, count));
        assert!(openings_for(1, 0, 2, 0).is_empty());
    }

    #[test]
    fn update_moves_toward_the_winning_side() {
        let specs = [spec(100, 0, 200, 10.0, 0.002), spec(5, 0, 10, 1.0, 0.002)];
        let theta = [100.0, 5.0];
        let gains: Vec<Gains> = specs.iter().map(|s| Gains::new(s, 100)).collect();
        let delta = [1.0, -1.0];
        let k = 4;
        let plus = side_values(&specs, &theta, &gains, &delta, k, 1.0);
        let minus = side_values(&specs, &theta, &gains, &delta, k, -1.0);
        assert!(plus[0] > 100 && minus[0] < 100, "{plus:?} {minus:?}");
        assert!(plus[1] < 5 && minus[1] > 5, "{plus:?} {minus:?}");
        // The plus side won by 2: theta moves toward it, by a_k * 2 / c_k.
        let next = update(&specs, &theta, &gains, &delta, k, 2);
        let step0 = gains[0].a_k(k) * 2.0 / gains[0].c_k(k);
        assert!((next[0] - (100.0 + step0)).abs() < 1e-12);
        let step1 = gains[1].a_k(k) * 2.0 / gains[1].c_k(k);
        assert!((next[1] - (5.0 - step1)).abs() < 1e-12);
        // A draw leaves it; a loss moves it the other way.
        assert_eq!(update(&specs, &theta, &gains, &delta, k, 0), theta.to_vec());
        let back = update(&specs, &theta, &gains, &delta, k, -2);
        assert!((back[0] - (100.0 - step0)).abs() < 1e-12);
        // Never out of range.
        let far = update(&specs, &[199.9, 0.1], &gains, &delta, 0, 1000);
        assert_eq!(far, vec![200.0, 0.0]);
        let edge = side_values(&specs, &[200.0, 0.0], &gains, &delta, 0, 1.0);
        assert_eq!(edge, vec![200, 0]);
    }
}
