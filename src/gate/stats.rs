//! The statistics of the regression gate, as pure functions: two-sample
//! tests of one figure from two runs, from nothing but each figure's
//! estimate, interval and confidence level (what `summary.csv` and
//! `run.json` hold), and the Holm–Bonferroni step-down correction.
//!
//! * A proportion (`p_*`) has a Wilson interval, which is asymmetric: its
//!   width is not `2·z·SE`. Its ends `w` solve `(w - p)² = z²·w(1-w)/n`,
//!   so the trials behind it are `n = z²·w(1-w)/(w - p)²` exactly
//!   ([`wilson_trials`]) — for a per-trial rate that is the run's trial
//!   count, for a conditional one (per event, per attempt) its own
//!   denominator, which no column holds. Two proportions are compared by
//!   the two-proportion z-test with the pooled share
//!   ([`two_proportions`]); their difference gets Newcombe's hybrid
//!   score interval (Newcombe 1998, method 10), built from the two Wilson
//!   intervals.
//! * A mean (`mean_*`) or a paired difference (`*_diff`) has a normal
//!   interval `estimate ± z·SE`: `SE = half-width / z`, and two of them
//!   are compared by Welch's z ([`welch`]; with these trial counts the
//!   t and normal distributions agree to many digits).
//! * An exact figure (trials = 0) has no error: its SE is 0, so a Monte
//!   Carlo figure is tested against it as a one-sample test.

use crate::engine::stats::wilson_bounds;

/// The two-sided p-value of a standard-normal statistic `z`:
/// `P(|Z| >= |z|) = erfc(|z|/√2)`.
///
/// ```
/// use woundsim::gate::stats::two_sided_p;
/// assert!((two_sided_p(1.959_963_984_540_054) - 0.05).abs() < 1e-12);
/// ```
pub fn two_sided_p(z: f64) -> f64 {
    libm::erfc(z.abs() / std::f64::consts::SQRT_2)
}

/// A proportion read back from a report: the share and the trials behind
/// it (`f64::INFINITY` for an exact figure).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Share {
    /// The estimated share.
    pub p: f64,
    /// Trials behind it.
    pub n: f64,
}

/// The trials `n` behind a Wilson interval `(low, high)` of the share `p`
/// at the normal quantile `z`, or `None` when the interval does not
/// determine it (undefined, or both ends on `p` or on 0 and 1).
///
/// Uses the end farther from `p` that lies strictly inside (0, 1) — an end
/// clamped to 0 or 1 carries no information.
///
/// ```
/// use woundsim::gate::stats::wilson_trials;
/// use woundsim::engine::stats::{wilson, z_for_level};
/// let z = z_for_level(0.95);
/// let e = wilson(81, 263, z);
/// let n = wilson_trials(e.value, e.low, e.high, z).unwrap();
/// assert!((n - 263.0).abs() < 1e-6);
/// ```
pub fn wilson_trials(p: f64, low: f64, high: f64, z: f64) -> Option<f64> {
    let usable = |w: f64| w.is_finite() && w > 0.0 && w < 1.0 && w != p;
    let w = [low, high]
        .into_iter()
        .filter(|w| usable(*w))
        .max_by(|a, b| (a - p).abs().total_cmp(&(b - p).abs()))?;
    let n = z * z * w * (1.0 - w) / ((w - p) * (w - p));
    (n.is_finite() && n > 0.0).then_some(n)
}

/// A test's outcome: the statistic (current minus baseline, in standard
/// errors), its two-sided p-value, and the difference's interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Test {
    /// The z statistic; infinite when the standard error is 0 and the
    /// figures differ, 0 when they are equal.
    pub z: f64,
    /// Two-sided p-value.
    pub p: f64,
    /// Interval of `current - baseline` at the requested level.
    pub interval: (f64, f64),
}

/// The outcome of a statistic `diff / se`, where a zero standard error
/// means the figures are certain: equal (p = 1) or different (p = 0).
fn outcome(diff: f64, se: f64, interval: (f64, f64)) -> Test {
    let z = if se > 0.0 {
        diff / se
    } else if diff == 0.0 {
        0.0
    } else {
        diff.signum() * f64::INFINITY
    };
    Test {
        z,
        p: two_sided_p(z),
        interval,
    }
}

/// The two-proportion z-test of `current` against `baseline`: under the
/// null hypothesis both share one `p`, estimated by pooling the two
/// samples, so `SE = √(p(1-p)(1/n₁ + 1/n₂))`. Against an exact baseline
/// (`n = ∞`) that is the one-sample test `SE = √(p₀(1-p₀)/n)`. The
/// interval of the difference, at the normal quantile `z`, is
/// Newcombe's: `d - √((p₂-l₂)² + (u₁-p₁)²)` to `d + √((u₂-p₂)² + (p₁-l₁)²)`
/// with each share's Wilson interval `(l, u)` at `z`.
///
/// ```
/// use woundsim::gate::stats::{Share, two_proportions};
/// // 45 of 100 against 56 of 100: R's prop.test(c(56, 45), c(100, 100),
/// // correct = FALSE) gives X-squared = 2.4203, p-value = 0.1198.
/// let t = two_proportions(
///     Share { p: 0.45, n: 100.0 },
///     Share { p: 0.56, n: 100.0 },
///     1.959_963_984_540_054,
/// );
/// assert!((t.z * t.z - 2.4203).abs() < 1e-4);
/// assert!((t.p - 0.1198).abs() < 1e-4);
/// ```
pub fn two_proportions(baseline: Share, current: Share, z: f64) -> Test {
    let diff = current.p - baseline.p;
    let weight = |s: Share| if s.n.is_finite() { 1.0 / s.n } else { 0.0 };
    let pooled = match (baseline.n.is_finite(), current.n.is_finite()) {
        (true, true) => {
            (baseline.p * baseline.n + current.p * current.n) / (baseline.n + current.n)
        }
        (false, _) => baseline.p,
        (true, false) => current.p,
    };
    let se = (pooled * (1.0 - pooled) * (weight(baseline) + weight(current)))
        .max(0.0)
        .sqrt();
    let bounds = |s: Share| {
        if s.n.is_finite() {
            wilson_bounds(s.p, s.n, z)
        } else {
            (s.p, s.p)
        }
    };
    let (l1, u1) = bounds(baseline);
    let (l2, u2) = bounds(current);
    let interval = (
        diff - ((current.p - l2).powi(2) + (u1 - baseline.p).powi(2)).sqrt(),
        diff + ((u2 - current.p).powi(2) + (baseline.p - l1).powi(2)).sqrt(),
    );
    outcome(diff, se, interval)
}

/// A figure with a normal interval read back from a report: the estimate
/// and its standard error (0 for an exact figure).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Normal {
    /// The estimate.
    pub mean: f64,
    /// Its standard error.
    pub se: f64,
}

impl Normal {
    /// From an interval `(low, high)` at the normal quantile `z`: the
    /// standard error is the half-width over `z`.
    pub fn from_interval(mean: f64, low: f64, high: f64, z: f64) -> Normal {
        Normal {
            mean,
            se: (high - low) / (2.0 * z),
        }
    }
}

/// Welch's z for two independent normal estimates:
/// `z = (m₂ - m₁) / √(se₁² + se₂²)`; the difference's interval at the
/// normal quantile `z` is `d ± z·√(se₁² + se₂²)`.
///
/// ```
/// use woundsim::gate::stats::{Normal, welch};
/// let t = welch(Normal { mean: 10.0, se: 1.0 }, Normal { mean: 13.0, se: 1.0 }, 1.96);
/// assert!((t.z - 3.0 / 2f64.sqrt()).abs() < 1e-12);
/// ```
pub fn welch(baseline: Normal, current: Normal, z: f64) -> Test {
    let diff = current.mean - baseline.mean;
    let se = (baseline.se * baseline.se + current.se * current.se).sqrt();
    outcome(diff, se, (diff - z * se, diff + z * se))
}

/// Holm–Bonferroni adjusted p-values, in the input order: with the
/// p-values sorted ascending, the `k`-th (from 0) of `m` is adjusted to
/// `max over j <= k of min(1, (m - j)·p_(j))`. Rejecting every hypothesis
/// whose adjusted p-value is at most `alpha` is Holm's step-down
/// procedure, which keeps the family-wise error rate at most `alpha` for
/// any dependence between the tests (Holm 1979).
///
/// ```
/// use woundsim::gate::stats::holm;
/// let adjusted = holm(&[0.01, 0.04, 0.03, 0.005]);
/// assert_eq!(adjusted, [0.03, 0.06, 0.06, 0.02]);
/// ```
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let mut adjusted = vec![0.0; m];
    let mut running: f64 = 0.0;
    for (k, &i) in order.iter().enumerate() {
        running = running.max(((m - k) as f64 * p[i]).min(1.0));
        adjusted[i] = running;
    }
    adjusted
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::stats::{mean_interval, wilson, z_for_level};

    #[test]
    fn two_sided_p_values_match_the_normal_table() {
        for (z, p) in [
            (0.0, 1.0),
            (1.644_853_626_951_472, 0.10),
            (1.959_963_984_540_054, 0.05),
            (2.575_829_303_548_901, 0.01),
            (3.290_526_731_491_926, 0.001),
            (-3.290_526_731_491_926, 0.001),
        ] {
            assert!((two_sided_p(z) - p).abs() < 1e-12, "z = {z}");
        }
        assert_eq!(two_sided_p(f64::INFINITY), 0.0);
    }

    #[test]
    fn the_trials_behind_a_wilson_interval_are_recovered_from_either_end() {
        for level in [0.9, 0.95, 0.99] {
            let z = z_for_level(level);
            for (k, n) in [(81, 263), (1, 1_000), (999, 1_000), (404_875, 1_000_000)] {
                let e = wilson(k, n, z);
                let from = |w: f64| z * z * w * (1.0 - w) / ((w - e.value) * (w - e.value));
                let nf = n as f64;
                assert!((from(e.low) - nf).abs() < 1e-6 * nf, "{k}/{n} low");
                assert!((from(e.high) - nf).abs() < 1e-6 * nf, "{k}/{n} high");
                let got = wilson_trials(e.value, e.low, e.high, z).unwrap();
                assert!((got - nf).abs() < 1e-6 * nf, "{k}/{n}: {got}");
            }
            // No successes or all: one end is clamped, the other tells.
            for k in [0, 50] {
                let e = wilson(k, 50, z);
                let got = wilson_trials(e.value, e.low, e.high, z).unwrap();
                assert!((got - 50.0).abs() < 1e-9, "{k}/50: {got}");
            }
        }
        assert_eq!(wilson_trials(0.5, f64::NAN, f64::NAN, 1.96), None);
        assert_eq!(wilson_trials(0.5, 0.5, 0.5, 1.96), None);
    }

    #[test]
    fn the_standard_error_of_a_proportion_comes_from_its_trials_not_its_width() {
        // 1 in 1,000: the Wilson interval is far from symmetric, and half
        // its width over z overstates the SE by about a third.
        let z = z_for_level(0.95);
        let e = wilson(1, 1_000, z);
        let n = wilson_trials(e.value, e.low, e.high, z).unwrap();
        let se = (e.value * (1.0 - e.value) / n).sqrt();
        assert!((se - (0.001f64 * 0.999 / 1_000.0).sqrt()).abs() < 1e-12);
        let from_width = (e.high - e.low) / (2.0 * z);
        assert!(from_width > 1.3 * se, "{from_width} vs {se}");
    }

    #[test]
    fn the_two_proportion_test_pools_the_shares() {
        // Hand computation: pooled p = 0.505, SE = √(0.505·0.495·0.02)
        // = 0.0707071, z = 0.11 / SE = 1.555713.
        let t = two_proportions(
            Share { p: 0.45, n: 100.0 },
            Share { p: 0.56, n: 100.0 },
            1.96,
        );
        assert!((t.z - 1.555_713).abs() < 1e-6, "{t:?}");
        // Against an exact 0.5, 560 of 1,000: z = 0.06 / √(0.25/1000) = 3.7947.
        let t = two_proportions(
            Share {
                p: 0.5,
                n: f64::INFINITY,
            },
            Share {
                p: 0.56,
                n: 1_000.0,
            },
            1.96,
        );
        assert!((t.z - 3.794_733).abs() < 1e-6, "{t:?}");
        assert!(t.interval.0 > 0.0 && t.interval.1 < 0.12, "{t:?}");
        // Both certain: equal shares are no evidence, different ones are.
        let none = Share { p: 0.0, n: 100.0 };
        assert_eq!(two_proportions(none, none, 1.96).p, 1.0);
        let exact = Share {
            p: 0.0,
            n: f64::INFINITY,
        };
        assert_eq!(
            two_proportions(exact, Share { p: 0.1, n: 10.0 }, 1.96).p,
            0.0
        );
    }

    #[test]
    fn newcombes_interval_matches_his_example() {
        // Newcombe (1998), table II, example (a): 56/70 - 48/80, method 10:
        // 0.0524 to 0.3339.
        let z = z_for_level(0.95);
        let t = two_proportions(
            Share {
                p: 48.0 / 80.0,
                n: 80.0,
            },
            Share {
                p: 56.0 / 70.0,
                n: 70.0,
            },
            z,
        );
        assert!((t.interval.0 - 0.0524).abs() < 5e-5, "{t:?}");
        assert!((t.interval.1 - 0.3339).abs() < 5e-5, "{t:?}");
    }

    #[test]
    fn welch_reads_the_standard_error_from_the_half_width() {
        let z = z_for_level(0.99);
        // Variance 4 over 100 observations: SE = 0.2.
        let e = mean_interval(3.0, 4.0, 100, z);
        let n = Normal::from_interval(e.value, e.low, e.high, z);
        assert!((n.se - 0.2).abs() < 1e-12);
        // 3.0 ± 0.2 against 3.5 ± 0.15: z = 0.5 / 0.25 = 2.
        let t = welch(
            n,
            Normal {
                mean: 3.5,
                se: 0.15,
            },
            1.96,
        );
        assert!((t.z - 2.0).abs() < 1e-12);
        assert!((t.p - 0.045_500_263_896_358_4).abs() < 1e-12);
        assert!((t.interval.0 - (0.5 - 1.96 * 0.25)).abs() < 1e-12);
        // Against an exact value the SE is the Monte Carlo one alone.
        let t = welch(Normal { mean: 3.0, se: 0.0 }, n, 1.96);
        assert_eq!(t.z, 0.0);
    }

    #[test]
    fn holm_matches_a_worked_example() {
        // Sorted: 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, then
        // 0.04·1 = 0.04 raised to 0.06 (step-down monotonicity). At alpha
        // 0.05 the first two are rejected and the procedure stops.
        let adjusted = holm(&[0.01, 0.04, 0.03, 0.005]);
        assert_eq!(adjusted, [0.03, 0.06, 0.06, 0.02]);
        let rejected: Vec<bool> = adjusted.iter().map(|p| *p <= 0.05).collect();
        assert_eq!(rejected, [true, false, false, true]);
        assert_eq!(holm(&[0.5, 0.9]), [1.0, 1.0]);
        assert!(holm(&[]).is_empty());
    }
}
