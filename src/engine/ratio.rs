//! Ratio estimators: a ratio of two means, `Σx / Σy` over the trials (such
//! as gold spent as a share of treasure found, where a career's share
//! alone is undefined when it found nothing), with its delta-method
//! interval, and the paired difference of two such ratios on common random
//! numbers.
//!
//! For `R = x̄ / ȳ` the linearized per-trial value is
//! `(x − R·y) / ȳ`; its variance over `n` gives `R`'s. The difference
//! `R − R₀` of a variant's ratio and the baseline's on the same trials is
//! linearized the same way, `(x − R·y) / ȳ − (x₀ − R₀·y₀) / ȳ₀`, so the
//! covariance of the two variants' values enters and the interval is that
//! of a paired difference (Cochran, *Sampling Techniques*, §6.3–6.4).
//!
//! The moments are exact integer sums, so merging chunks in any order gives
//! the same figures.
//!
//! ```
//! use woundsim::engine::ratio::PairedRatio;
//!
//! let mut m = PairedRatio::default();
//! // (x, y) of a variant and (x₀, y₀) of the baseline, per trial.
//! m.push([1, 4], [2, 4]);
//! m.push([3, 4], [2, 4]);
//! let (ratio, diff) = (m.ratio(1.96), m.diff(1.96));
//! assert_eq!(ratio.value, 0.5);
//! assert_eq!(diff.value, 0.0);
//! ```

use serde::{Deserialize, Serialize};

use super::checked::{Checked, Misfit};
use super::merge::Merge;
use super::stats::Estimate;

/// Sums of `(x, y, x₀, y₀)` and of their pairwise products over the trials.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairedRatio {
    count: u64,
    sums: [i128; 4],
    /// Products `i·j` for `i ≤ j`, row by row (00, 01, 02, 03, 11, 12, ...).
    products: [i128; 10],
}

/// The index of the product of variables `i ≤ j` in [`PairedRatio::products`].
fn product_index(i: usize, j: usize) -> usize {
    let (i, j) = if i <= j { (i, j) } else { (j, i) };
    i * 4 - i * (i + 1) / 2 + j
}

impl PairedRatio {
    /// Adds one trial: the variant's `(x, y)` and the baseline's `(x₀, y₀)`
    /// (the same values for the baseline itself).
    #[inline]
    pub fn push(&mut self, [x, y]: [i64; 2], [x0, y0]: [i64; 2]) {
        let v = [x, y, x0, y0].map(i128::from);
        self.count += 1;
        for i in 0..4 {
            self.sums[i] += v[i];
            for j in i..4 {
                self.products[product_index(i, j)] += v[i] * v[j];
            }
        }
    }

    /// Trials added.
    pub fn count(&self) -> u64 {
        self.count
    }

    fn mean(&self, i: usize) -> f64 {
        self.sums[i] as f64 / self.count as f64
    }

    /// The sample covariance of variables `i` and `j`.
    fn covariance(&self, i: usize, j: usize) -> f64 {
        let n = i128::from(self.count);
        let centred = n * self.products[product_index(i, j)] - self.sums[i] * self.sums[j];
        centred as f64 / (n * (n - 1)) as f64
    }

    /// `value ± z·√(wᵀ C w / n)` for weights `w` on `(x, y, x₀, y₀)`.
    fn interval(&self, value: f64, w: [f64; 4], z: f64) -> Estimate {
        let half = if self.count >= 2 && value.is_finite() {
            let mut var = 0.0;
            for i in 0..4 {
                for j in 0..4 {
                    var += w[i] * w[j] * self.covariance(i, j);
                }
            }
            z * (var.max(0.0) / self.count as f64).sqrt()
        } else {
            f64::NAN
        };
        Estimate {
            value,
            low: value - half,
            high: value + half,
        }
    }

    /// The variant's ratio `Σx / Σy`; undefined (NaN) when `Σy` is 0.
    pub fn ratio(&self, z: f64) -> Estimate {
        let (r, y) = self.ratio_of(0);
        self.interval(r, [1.0 / y, -r / y, 0.0, 0.0], z)
    }

    /// The variant's ratio less the baseline's, on the same trials.
    pub fn diff(&self, z: f64) -> Estimate {
        let (r, y) = self.ratio_of(0);
        let (r0, y0) = self.ratio_of(2);
        self.interval(r - r0, [1.0 / y, -r / y, -1.0 / y0, r0 / y0], z)
    }

    /// `(Σx / Σy, ȳ)` of the pair starting at variable `first`.
    fn ratio_of(&self, first: usize) -> (f64, f64) {
        if self.count == 0 || self.sums[first + 1] == 0 {
            return (f64::NAN, f64::NAN);
        }
        (
            self.sums[first] as f64 / self.sums[first + 1] as f64,
            self.mean(first + 1),
        )
    }
}

impl Merge for PairedRatio {
    fn merge(&mut self, later: Self) {
        self.count += later.count;
        for (a, b) in self.sums.iter_mut().zip(later.sums) {
            *a += b;
        }
        for (a, b) in self.products.iter_mut().zip(later.products) {
            *a += b;
        }
    }
}

impl Checked for PairedRatio {
    fn layout(out: &mut String) {
        out.push_str("PairedRatio{count:u64,sums:[i128;4],products:[i128;10]}");
    }

    /// The sums must be those of some integers: all zero without trials,
    /// squares not negative, `n·Σx² ≥ (Σx)²`, and every product the
    /// covariances compute must fit.
    fn check_like(&self, _fresh: &Self) -> Result<(), Misfit> {
        let n = i128::from(self.count);
        let fits = (self.count > 0 || (self.sums == [0; 4] && self.products == [0; 10]))
            && (0..4).all(|i| {
                (i..4).all(|j| {
                    let p = self.products[product_index(i, j)];
                    match (n.checked_mul(p), self.sums[i].checked_mul(self.sums[j])) {
                        (Some(a), Some(b)) => a.checked_sub(b).is_some() && (i != j || a >= b),
                        _ => false,
                    }
                })
            })
            && n.checked_mul(n - 1).is_some();
        if fits {
            Ok(())
        } else {
            Err(Misfit::new(format!(
                "{} trials whose sums and products no integers have",
                self.count
            )))
        }
    }

    fn try_merge(&mut self, later: Self) -> Result<(), Misfit> {
        self.count.try_merge(later.count)?;
        self.sums.try_merge(later.sums)?;
        self.products.try_merge(later.products)
    }
}

#[cfg(test)]
mod tests {
    use super::PairedRatio;
    use crate::engine::Merge;

    /// The delta-method variance written out for the ratio alone: the
    /// sample variance of `x − R·y` over `n ȳ²`.
    #[test]
    fn the_ratio_interval_is_the_delta_method() {
        let data: [(i32, i32); 5] = [(3, 10), (0, 5), (7, 20), (2, 0), (9, 15)];
        let mut m = PairedRatio::default();
        for &(x, y) in &data {
            m.push([x.into(), y.into()], [x.into(), y.into()]);
        }
        let n = data.len() as f64;
        let sx: f64 = data.iter().map(|d| f64::from(d.0)).sum();
        let sy: f64 = data.iter().map(|d| f64::from(d.1)).sum();
        let r = sx / sy;
        let resid: Vec<f64> = data
            .iter()
            .map(|&(x, y)| f64::from(x) - r * f64::from(y))
            .collect();
        let mean_resid = resid.iter().sum::<f64>() / n;
        let var = resid.iter().map(|e| (e - mean_resid).powi(2)).sum::<f64>() / (n - 1.0);
        let se = (var / n).sqrt() / (sy / n);
        let e = m.ratio(2.0);
        assert!((e.value - r).abs() < 1e-15);
        assert!((e.high - e.value - 2.0 * se).abs() < 1e-12, "{e:?} {se}");
        // The baseline against itself differs by exactly 0.
        let d = m.diff(2.0);
        assert_eq!(d.value, 0.0);
        assert!(d.high.abs() < 1e-9 && d.low.abs() < 1e-9, "{d:?}");
    }

    /// A variant whose x is the baseline's plus a constant share of the
    /// same y differs by that share with no spread at all: the pairing
    /// takes the trials' common noise out.
    #[test]
    fn a_paired_difference_cancels_the_common_noise() {
        let mut m = PairedRatio::default();
        for (x0, y) in [(5, 10), (1, 30), (12, 20), (0, 40)] {
            m.push([x0 + y / 10, y], [x0, y]);
        }
        let d = m.diff(3.0);
        assert!((d.value - 0.1).abs() < 1e-12, "{d:?}");
        assert!((d.high - d.low).abs() < 1e-6, "{d:?}");
        assert!(m.ratio(3.0).high - m.ratio(3.0).low > 0.01);
    }

    #[test]
    fn no_treasure_is_undefined_not_zero() {
        let mut m = PairedRatio::default();
        m.push([5, 0], [5, 0]);
        m.push([1, 0], [1, 0]);
        assert!(m.ratio(1.96).value.is_nan());
        assert!(m.diff(1.96).value.is_nan());
        assert!(PairedRatio::default().ratio(1.96).value.is_nan());
    }

    #[test]
    fn sums_no_trials_have_are_misfits() {
        use crate::engine::checked::Checked;
        let fresh = PairedRatio::default();
        let mut m = PairedRatio::default();
        m.push([3, 4], [1, 2]);
        m.push([5, 6], [7, 8]);
        assert!(m.check_like(&fresh).is_ok());
        let mut negative = m;
        negative.products[0] = -1;
        assert!(negative.check_like(&fresh).is_err());
        let mut empty = PairedRatio::default();
        empty.sums[1] = 1;
        assert!(empty.check_like(&fresh).is_err(), "sums without trials");
        let mut huge = m;
        huge.products[4] = i128::MAX;
        assert!(huge.check_like(&fresh).is_err(), "n·Σy² overflows");
        let mut wrap = m;
        wrap.sums[0] = i128::MAX;
        assert!(wrap.try_merge(m).is_err());
    }

    #[test]
    fn merging_is_adding_the_trials() {
        let trials = [([1, 2], [3, 4]), ([5, 6], [7, 8]), ([9, 1], [2, 3])];
        let mut whole = PairedRatio::default();
        let mut first = PairedRatio::default();
        let mut later = PairedRatio::default();
        for (k, &(a, b)) in trials.iter().enumerate() {
            whole.push(a, b);
            if k == 0 { &mut first } else { &mut later }.push(a, b);
        }
        first.merge(later);
        assert_eq!(first, whole);
    }
}
