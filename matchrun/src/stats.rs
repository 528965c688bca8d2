//! Match statistics: Elo with a 95% interval, LOS, draw ratio, pentanomial
//! counts over game pairs, and the SPRT log-likelihood ratio.
//!
//! The SPRT uses the generalized log-likelihood ratio of Michel Van den
//! Bergh: the maximum-likelihood distributions of the outcomes under each
//! hypothesis, given the observed frequencies ("logistic" Elo constrains the
//! mean score; "normalized" Elo constrains the mean over the standard
//! deviation).

use crate::kv::{KeyValueError, KeyValues};
use thiserror::Error;

/// 97.5% quantile of the standard normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// Game results from the first engine's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

/// Pair outcomes from the first engine's view: index = points scored in the
/// pair times two (0 = LL, 1 = LD, 2 = WL or DD, 3 = WD, 4 = WW).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Penta {
    pub counts: [u64; 5],
}

impl Wdl {
    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Mean score per game (1 a win, 1/2 a draw).
    pub fn score(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games().max(1) as f64
    }

    /// Variance of one game's score.
    fn variance(&self) -> f64 {
        let n = self.games().max(1) as f64;
        let s = self.score();
        (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n
    }

    /// Share of draws.
    pub fn draw_ratio(&self) -> f64 {
        self.draws as f64 / self.games().max(1) as f64
    }

    /// Elo difference and the half-width of its 95% interval.
    pub fn elo(&self) -> (f64, f64) {
        interval(self.score(), self.variance() / self.games().max(1) as f64)
    }

    /// Likelihood of superiority.
    pub fn los(&self) -> f64 {
        los(self.score(), self.variance() / self.games().max(1) as f64)
    }
}

impl Penta {
    /// Pairs counted.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Mean score per game over the pairs.
    pub fn score(&self) -> f64 {
        let n = self.pairs().max(1) as f64;
        self.counts
            .iter()
            .enumerate()
            .map(|(i, &c)| c as f64 * i as f64 / 4.0)
            .sum::<f64>()
            / n
    }

    /// Variance of one pair's mean score.
    fn variance(&self) -> f64 {
        let n = self.pairs().max(1) as f64;
        let s = self.score();
        self.counts
            .iter()
            .enumerate()
            .map(|(i, &c)| c as f64 * (i as f64 / 4.0 - s).powi(2))
            .sum::<f64>()
            / n
    }

    /// Elo difference and the half-width of its 95% interval, from the pairs.
    pub fn elo(&self) -> (f64, f64) {
        interval(self.score(), self.variance() / self.pairs().max(1) as f64)
    }
}

/// Logistic Elo difference of a mean score.
pub fn score_to_elo(s: f64) -> f64 {
    let s = s.clamp(1e-9, 1.0 - 1e-9);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Mean score of a logistic Elo difference.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

fn interval(s: f64, var_of_mean: f64) -> (f64, f64) {
    let d = Z95 * var_of_mean.sqrt();
    let elo = score_to_elo(s);
    (elo, (score_to_elo(s + d) - score_to_elo(s - d)) / 2.0)
}

/// An Elo figure and its 95% interval as the match runner prints them, from
/// the mean score and `interval`'s result. Where games cannot give an
/// interval — every game won or every game lost (the Elo is infinite), or
/// all scored alike (no spread) — it says so instead of a made-up `+/- 0`.
pub fn elo_text(score: f64, elo: (f64, f64), games: u64) -> String {
    let (e, err) = elo;
    // An even score is +0.0, not the -0.0 the logarithm gives.
    let e = if e == 0.0 { 0.0 } else { e };
    if games == 0 {
        "Elo: no games yet".to_string()
    } else if score >= 1.0 {
        format!("Elo +inf (every game won, {games} games: no estimate or interval)")
    } else if score <= 0.0 {
        format!("Elo -inf (every game lost, {games} games: no estimate or interval)")
    } else if err <= 0.0 || !err.is_finite() {
        format!("Elo {e:+.1} (every game scored alike, {games} games: no interval)")
    } else {
        format!("Elo {e:+.1} +/- {err:.1}")
    }
}

fn los(s: f64, var_of_mean: f64) -> f64 {
    if var_of_mean <= 0.0 {
        return if s > 0.5 {
            1.0
        } else if s < 0.5 {
            0.0
        } else {
            0.5
        };
    }
    0.5 * (1.0 + libm::erf((s - 0.5) / (2.0 * var_of_mean).sqrt()))
}

/// What the SPRT's Elo bounds measure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SprtModel {
    /// Logistic Elo: the expected score.
    Logistic,
    /// Normalized Elo: the expected score over its standard deviation
    /// (independent of the draw ratio).
    Normalized,
}

/// A sequential probability ratio test of H0: Elo <= `elo0` against
/// H1: Elo >= `elo1`, with error rates `alpha` (false H1) and `beta` (false H0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: SprtModel,
}

/// An SPRT settings text that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SprtError {
    #[error(transparent)]
    Syntax(#[from] KeyValueError),
    #[error("sprt: model '{0}' is not normalized or logistic")]
    Model(String),
    #[error("sprt: need elo0 < elo1 and 0 < alpha, beta < 0.5")]
    Bounds,
}

/// The SPRT's verdict so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    Continue,
    /// H1 accepted: the gain is at least elo1.
    AcceptH1,
    /// H0 accepted: the gain is at most elo0.
    AcceptH0,
}

impl Sprt {
    /// Parse `elo0=0,elo1=5,alpha=0.05,beta=0.05,model=normalized|logistic`
    /// (those are the defaults of the keys left out).
    pub fn parse(text: &str) -> Result<Sprt, SprtError> {
        let kv = KeyValues::parse(text, &["elo0", "elo1", "alpha", "beta", "model"])?;
        let model = match kv.get("model") {
            None | Some("normalized") => SprtModel::Normalized,
            Some("logistic") => SprtModel::Logistic,
            Some(x) => return Err(SprtError::Model(x.to_string())),
        };
        let s = Sprt {
            elo0: kv.number_or("elo0", 0.0)?,
            elo1: kv.number_or("elo1", 5.0)?,
            alpha: kv.number_or("alpha", 0.05)?,
            beta: kv.number_or("beta", 0.05)?,
            model,
        };
        let rate = |p: f64| p > 0.0 && p < 0.5;
        if !(s.elo0 < s.elo1 && rate(s.alpha) && rate(s.beta)) {
            return Err(SprtError::Bounds);
        }
        Ok(s)
    }

    /// (lower, upper) bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The verdict for a log-likelihood ratio.
    pub fn decide(&self, llr: f64) -> SprtDecision {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtDecision::AcceptH1
        } else if llr <= lo {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }

    /// LLR from game results (trinomial).
    pub fn llr_wdl(&self, r: &Wdl) -> f64 {
        let counts = [r.losses, r.draws, r.wins];
        self.llr(&[0.0, 0.5, 1.0], &counts, 1.0)
    }

    /// LLR from game pairs (pentanomial).
    pub fn llr_penta(&self, p: &Penta) -> f64 {
        // WL and DD pairs both score one point: one outcome class.
        self.llr(
            &[0.0, 0.25, 0.5, 0.75, 1.0],
            &p.counts,
            std::f64::consts::SQRT_2,
        )
    }

    fn llr(&self, scores: &[f64], counts: &[u64], t_scale: f64) -> f64 {
        if counts.iter().sum::<u64>() == 0 {
            return 0.0;
        }
        // Empty classes get a small count so that logarithms stay finite.
        let reg: Vec<f64> = counts
            .iter()
            .map(|&c| if c == 0 { 1e-3 } else { c as f64 })
            .collect();
        let total: f64 = reg.iter().sum();
        let phat: Vec<f64> = reg.iter().map(|c| c / total).collect();
        let (p0, p1) = match self.model {
            SprtModel::Logistic => (
                mle_mean(scores, &phat, elo_to_score(self.elo0)),
                mle_mean(scores, &phat, elo_to_score(self.elo1)),
            ),
            SprtModel::Normalized => {
                let k = t_scale / (800.0 / std::f64::consts::LN_10);
                (
                    mle_normalized(scores, &phat, self.elo0 * k),
                    mle_normalized(scores, &phat, self.elo1 * k),
                )
            }
        };
        total
            * phat
                .iter()
                .zip(p0.iter().zip(&p1))
                .map(|(&w, (&a, &b))| w * (b.ln() - a.ln()))
                .sum::<f64>()
    }
}

/// Find the root of a function that is increasing... or decreasing: plain
/// bisection on a bracket whose end values have opposite signs.
fn bisect(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    let flo = f(lo);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        let fm = f(mid);
        if fm == 0.0 {
            return mid;
        }
        if (fm < 0.0) == (flo < 0.0) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The distribution closest (maximum likelihood) to `phat` with mean `s`:
/// p_i = phat_i / (1 + theta (a_i - s)) with theta solving sum p_i (a_i - s) = 0.
fn mle_mean(scores: &[f64], phat: &[f64], s: f64) -> Vec<f64> {
    let n = scores.len();
    let lo = -1.0 / (scores[n - 1] - s);
    let hi = -1.0 / (scores[0] - s);
    let eps = 1e-12 * (hi - lo);
    let g = |theta: f64| {
        scores
            .iter()
            .zip(phat)
            .map(|(&a, &p)| p * (a - s) / (1.0 + theta * (a - s)))
            .sum::<f64>()
    };
    let theta = bisect(g, lo + eps, hi - eps);
    scores
        .iter()
        .zip(phat)
        .map(|(&a, &p)| p / (1.0 + theta * (a - s)))
        .collect()
}

/// The distribution closest to `phat` with (mean - 1/2) / stddev = `t`, by
/// the fixed-point iteration of Van den Bergh's "normalized Elo" note.
fn mle_normalized(scores: &[f64], phat: &[f64], t: f64) -> Vec<f64> {
    let n = scores.len();
    let mut p = vec![1.0 / n as f64; n];
    for _ in 0..20 {
        let mu: f64 = scores.iter().zip(&p).map(|(a, q)| a * q).sum();
        let var: f64 = scores
            .iter()
            .zip(&p)
            .map(|(a, q)| q * (a - mu).powi(2))
            .sum();
        let sigma = var.sqrt();
        let phi: Vec<f64> = scores
            .iter()
            .map(|&a| a - 0.5 - 0.5 * t * sigma * (1.0 + ((a - mu) / sigma).powi(2)))
            .collect();
        let u = phi.iter().cloned().fold(f64::INFINITY, f64::min);
        let v = phi.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let (lo, hi) = (-1.0 / v, -1.0 / u);
        let eps = 1e-12 * (hi - lo);
        let g = |theta: f64| {
            phi.iter()
                .zip(phat)
                .map(|(&f, &q)| q * f / (1.0 + theta * f))
                .sum::<f64>()
        };
        let theta = bisect(g, lo + eps, hi - eps);
        let mut diff: f64 = 0.0;
        for i in 0..n {
            let new = phat[i] / (1.0 + theta * phi[i]);
            diff = diff.max((new - p[i]).abs());
            p[i] = new;
        }
        if diff < 1e-9 {
            break;
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, rel: f64) -> bool {
        (a - b).abs() <= rel * b.abs().max(1e-9)
    }

    fn wdl(w: u64, l: u64, d: u64) -> Wdl {
        Wdl {
            wins: w,
            draws: d,
            losses: l,
        }
    }

    /// `Penta` from fastchess's argument order (LL, LD, WL, DD, WD, WW).
    fn penta(ll: u64, ld: u64, wl: u64, dd: u64, wd: u64, ww: u64) -> Penta {
        Penta {
            counts: [ll, ld, wl + dd, wd, ww],
        }
    }

    // Expected figures are the ones fastchess prints for the same counts
    // (its tests app/tests/elo_test.cpp and sprt_test.cpp), to 1%.
    #[test]
    fn elo_and_error_from_wdl() {
        let r = wdl(136, 96, 111);
        let (e, err) = r.elo();
        assert!(close(e, 40.70, 0.01), "{e}");
        assert!(close(err, 30.43, 0.01), "{err}");
        assert!(close(r.los(), 0.9960, 0.001), "{}", r.los());
        assert!(close(r.score(), 0.558, 0.01));
        let r = wdl(76, 89, 123);
        assert!(close(r.los(), 0.1553, 0.01), "{}", r.los());
        assert!(close(r.score(), 0.477, 0.01));
    }

    #[test]
    fn no_interval_where_none_can_be_computed() {
        let won = wdl(2, 0, 0);
        let text = elo_text(won.score(), won.elo(), won.games());
        assert!(text.starts_with("Elo +inf (every game won"), "{text}");
        assert!(!text.contains("+/-"), "{text}");
        // (wins, losses, draws), as fastchess orders them.
        let lost = wdl(0, 3, 0);
        let text = elo_text(lost.score(), lost.elo(), lost.games());
        assert!(text.starts_with("Elo -inf (every game lost"), "{text}");
        let drawn = wdl(0, 0, 4);
        let text = elo_text(drawn.score(), drawn.elo(), drawn.games());
        assert_eq!(
            text,
            "Elo +0.0 (every game scored alike, 4 games: no interval)"
        );
        let r = wdl(136, 96, 111);
        assert_eq!(
            elo_text(r.score(), r.elo(), r.games()),
            "Elo +40.7 +/- 30.4"
        );
    }

    #[test]
    fn elo_and_error_from_pairs() {
        let p = penta(34, 54, 31, 32, 64, 75);
        let (e, err) = p.elo();
        assert!(close(e, 55.58, 0.01), "{e}");
        assert!(close(err, 27.65, 0.01), "{err}");
        let p = penta(332, 433, 457, 41, 333, 334);
        let (e, err) = p.elo();
        assert!(close(e, -8.64, 0.01), "{e}");
        assert!(close(err, 10.33, 0.01), "{err}");
        let p = penta(7895, 8757, 5485, 200, 568, 9999);
        let (e, err) = p.elo();
        assert!(close(e, -21.04, 0.01), "{e}");
        assert!(close(err, 2.95, 0.01), "{err}");
    }

    fn sprt(elo0: f64, elo1: f64, model: SprtModel) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
            model,
        }
    }

    #[test]
    fn sprt_llr_trinomial() {
        let n = SprtModel::Normalized;
        let l = SprtModel::Logistic;
        assert!(close(
            sprt(0.0, 2.0, n).llr_wdl(&wdl(36433, 36027, 68692)),
            0.92,
            0.01
        ));
        assert!(close(
            sprt(-1.75, 0.25, n).llr_wdl(&wdl(10871, 10650, 20431)),
            2.30,
            0.01
        ));
        assert!(close(
            sprt(0.0, 10.0, n).llr_wdl(&wdl(4250, 0, 0)),
            120.56,
            0.01
        ));
        assert!(close(
            sprt(0.5, 2.5, l).llr_wdl(&wdl(21404, 21184, 40708)),
            -1.57,
            0.01
        ));
        assert!(close(
            sprt(0.0, 2.0, l).llr_wdl(&wdl(57433, 57030, 106593)),
            -2.59,
            0.01
        ));
    }

    #[test]
    fn sprt_llr_pentanomial() {
        let n = SprtModel::Normalized;
        let l = SprtModel::Logistic;
        let v = sprt(0.0, 2.0, n).llr_penta(&penta(365, 16618, 36029, 200, 16974, 390));
        assert!(close(v, 2.25, 0.01), "{v}");
        let v = sprt(-1.75, 0.25, n).llr_penta(&penta(127, 4883, 10311, 401, 5150, 104));
        assert!(close(v, 3.01, 0.01), "{v}");
        let v = sprt(0.0, 5.0, n).llr_penta(&penta(0, 0, 0, 0, 0, 5550));
        assert!(close(v, 111.82, 0.01), "{v}");
        let v = sprt(0.5, 2.5, l).llr_penta(&penta(223, 9863, 20279, 1000, 10037, 246));
        assert!(close(v, -3.07, 0.01), "{v}");
        let v = sprt(0.0, 2.0, l).llr_penta(&penta(871, 26175, 55003, 980, 26678, 821));
        assert!(close(v, -4.98, 0.01), "{v}");
    }

    #[test]
    fn sprt_bounds_and_decisions() {
        let s = sprt(0.0, 5.0, SprtModel::Normalized);
        let (lo, hi) = s.bounds();
        assert!(close(lo, -2.944, 0.001) && close(hi, 2.944, 0.001));
        assert_eq!(s.decide(3.0), SprtDecision::AcceptH1);
        assert_eq!(s.decide(-3.0), SprtDecision::AcceptH0);
        assert_eq!(s.decide(0.0), SprtDecision::Continue);
    }

    #[test]
    fn erf_values() {
        use libm::erf;
        assert!((erf(0.0)).abs() < 1e-15);
        assert!((erf(0.5) - 0.520_499_877_813_046_5).abs() < 1e-12);
        assert!((erf(1.0) - 0.842_700_792_949_714_9).abs() < 1e-12);
        assert!((erf(-2.0) + 0.995_322_265_018_952_7).abs() < 1e-12);
        assert!((erf(3.0) - 0.999_977_909_503_001_4).abs() < 1e-12);
    }

    #[test]
    fn sprt_settings() {
        let s = Sprt::parse("elo0=-1,elo1=4,model=logistic").unwrap();
        assert_eq!(
            s,
            Sprt {
                elo0: -1.0,
                elo1: 4.0,
                alpha: 0.05,
                beta: 0.05,
                model: SprtModel::Logistic
            }
        );
        assert_eq!(Sprt::parse("").unwrap().model, SprtModel::Normalized);
        for (bad, why) in [
            (
                "elo0=5,elo1=5",
                "sprt: need elo0 < elo1 and 0 < alpha, beta < 0.5",
            ),
            (
                "alpha=0",
                "sprt: need elo0 < elo1 and 0 < alpha, beta < 0.5",
            ),
            (
                "beta=0.5",
                "sprt: need elo0 < elo1 and 0 < alpha, beta < 0.5",
            ),
            (
                "model=bayes",
                "sprt: model 'bayes' is not normalized or logistic",
            ),
            (
                "elo=3",
                "unknown key 'elo' (expected one of elo0, elo1, alpha, beta, model)",
            ),
            ("elo1=x", "elo1: 'x' is not a number"),
        ] {
            assert_eq!(Sprt::parse(bad).unwrap_err().to_string(), why, "{bad}");
        }
    }

    #[test]
    fn elo_conversions() {
        assert!((score_to_elo(0.5)).abs() < 1e-9);
        assert!((score_to_elo(elo_to_score(123.0)) - 123.0).abs() < 1e-9);
        assert!((score_to_elo(0.75) - 190.848).abs() < 0.01);
    }
}
