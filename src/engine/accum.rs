//! Mergeable, O(1)-memory accumulators: Welford moments with Chan's merge,
//! exact integer moments and fixed-bin histograms. Integer counters are
//! plain `u64`s: they merge exactly by addition ([`super::merge`]). All are
//! serialisable, so a run's accumulators can be saved and merged later.
//!
//! Per-chunk accumulators are merged in chunk order by the runner, so even
//! the floating-point merges here give bit-identical results for any thread
//! count.

use serde::{Deserialize, Serialize};

use super::checked::{Checked, Misfit};
use super::stats::{Estimate, mean_interval, wilson};

/// Largest magnitude of a mean a state file may hold: `2^53`, beyond which
/// a double no longer holds every whole number. Every amount woundsim
/// averages (days, HP, gold, minutes, rounds) stays far below it; a mean
/// above it is a crafted or damaged file, not a run.
pub const MAX_ABS_MEAN: f64 = 9_007_199_254_740_992.0;

/// Running count, mean and sum of squared deviations (Welford 1962), with the
/// pairwise merge of Chan, Golub and LeVeque (1979).
///
/// ```
/// use woundsim::engine::accum::Moments;
/// let mut a = Moments::default();
/// for x in [1.0, 2.0, 3.0] { a.push(x); }
/// let mut b = Moments::default();
/// b.push(10.0);
/// a.merge(&b);
/// assert_eq!(a.count(), 4);
/// assert!((a.mean() - 4.0).abs() < 1e-12);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Moments {
    count: u64,
    mean: f64,
    m2: f64,
}

impl Moments {
    /// Adds one observation.
    #[inline]
    pub fn push(&mut self, x: f64) {
        self.count += 1;
        let delta = x - self.mean;
        self.mean += delta / self.count as f64;
        self.m2 += delta * (x - self.mean);
    }

    /// Adds `weight` copies of the value `x` at once.
    pub fn push_repeated(&mut self, x: f64, weight: u64) {
        if weight > 0 {
            self.merge(&Moments {
                count: weight,
                mean: x,
                m2: 0.0,
            });
        }
    }

    /// Merges another accumulator into this one (Chan et al.).
    pub fn merge(&mut self, other: &Moments) {
        if other.count == 0 {
            return;
        }
        if self.count == 0 {
            *self = *other;
            return;
        }
        let count = self.count + other.count;
        let delta = other.mean - self.mean;
        let (na, nb, n) = (self.count as f64, other.count as f64, count as f64);
        self.mean += delta * nb / n;
        self.m2 += other.m2 + delta * delta * na * nb / n;
        self.count = count;
    }

    /// Number of observations.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Sample mean (NaN when empty).
    pub fn mean(&self) -> f64 {
        if self.count == 0 { f64::NAN } else { self.mean }
    }

    /// Unbiased sample variance (0 with fewer than two observations).
    pub fn variance(&self) -> f64 {
        if self.count < 2 {
            0.0
        } else {
            self.m2 / (self.count - 1) as f64
        }
    }

    /// The mean with its normal-approximation interval.
    pub fn estimate(&self, z: f64) -> Estimate {
        mean_interval(self.mean(), self.variance(), self.count, z)
    }
}

impl Checked for Moments {
    fn layout(out: &mut String) {
        out.push_str("Moments{count:u64,mean:f64,m2:f64}");
    }

    fn check_like(&self, _fresh: &Self) -> Result<(), Misfit> {
        let Moments { count, mean, m2 } = *self;
        if count == 0 {
            if mean != 0.0 || m2 != 0.0 {
                return Err(Misfit::new(format!(
                    "no observations, yet a mean of {mean} and a sum of squares of {m2}"
                )));
            }
        } else if !(mean.is_finite() && mean.abs() <= MAX_ABS_MEAN) {
            return Err(Misfit::new(format!(
                "a mean of {mean}: a mean must be a finite number of magnitude at most 2^53"
            )));
        } else if !(m2.is_finite() && m2 >= 0.0) || (count == 1 && m2 != 0.0) {
            return Err(Misfit::new(format!(
                "a sum of squared deviations of {m2} over {count} observations: it must be finite, not negative, and 0 for one observation"
            )));
        }
        Ok(())
    }

    fn try_merge(&mut self, later: Self) -> Result<(), Misfit> {
        self.count
            .checked_add(later.count)
            .ok_or_else(Misfit::overflow)?;
        Moments::merge(self, &later);
        if self.mean.is_finite() && self.m2.is_finite() {
            Ok(())
        } else {
            Err(Misfit::new(
                "the shards' moments merge into a mean or variance that is not finite",
            ))
        }
    }
}

/// Exact moments of integer observations: count, sum and sum of squares in
/// `i128`, so merging is exact addition and no rounding happens until the
/// final estimate.
///
/// ```
/// use woundsim::engine::accum::IntMoments;
/// let mut m = IntMoments::default();
/// for x in [1, 2, 3, 4] { m.push(x); }
/// assert_eq!(m.mean(), 2.5);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IntMoments {
    count: u64,
    sum: i128,
    sum_sq: i128,
}

impl IntMoments {
    /// Adds one observation.
    #[inline]
    pub fn push(&mut self, x: i64) {
        self.count += 1;
        self.sum += i128::from(x);
        self.sum_sq += i128::from(x) * i128::from(x);
    }

    /// Adds another accumulator.
    pub fn merge(&mut self, other: &IntMoments) {
        self.count += other.count;
        self.sum += other.sum;
        self.sum_sq += other.sum_sq;
    }

    /// Number of observations.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Sum of the observations.
    pub fn sum(&self) -> i128 {
        self.sum
    }

    /// Sample mean (NaN when empty).
    pub fn mean(&self) -> f64 {
        if self.count == 0 {
            f64::NAN
        } else {
            self.sum as f64 / self.count as f64
        }
    }

    /// Unbiased sample variance (0 with fewer than two observations).
    pub fn variance(&self) -> f64 {
        if self.count < 2 {
            return 0.0;
        }
        let n = i128::from(self.count);
        // n·Σx² − (Σx)² is exact in i128; one rounding at the end.
        let centred = n * self.sum_sq - self.sum * self.sum;
        centred as f64 / (n as f64 * (n - 1) as f64)
    }

    /// The mean with its normal-approximation interval.
    pub fn estimate(&self, z: f64) -> Estimate {
        mean_interval(self.mean(), self.variance(), self.count, z)
    }
}

impl Checked for IntMoments {
    fn layout(out: &mut String) {
        out.push_str("IntMoments{count:u64,sum:i128,sum_sq:i128}");
    }

    fn check_like(&self, _fresh: &Self) -> Result<(), Misfit> {
        let IntMoments { count, sum, sum_sq } = *self;
        let n = i128::from(count);
        // Cauchy–Schwarz: n·Σx² ≥ (Σx)², and both products must fit the
        // variance's arithmetic.
        let consistent = sum_sq >= 0
            && (count > 0 || (sum == 0 && sum_sq == 0))
            && match (n.checked_mul(sum_sq), sum.checked_mul(sum)) {
                (Some(a), Some(b)) => a >= b,
                _ => false,
            };
        if consistent {
            Ok(())
        } else {
            Err(Misfit::new(format!(
                "{count} observations with a sum of {sum} and a sum of squares of {sum_sq}: no integers have these sums"
            )))
        }
    }

    fn try_merge(&mut self, later: Self) -> Result<(), Misfit> {
        let (Some(count), Some(sum), Some(sum_sq)) = (
            self.count.checked_add(later.count),
            self.sum.checked_add(later.sum),
            self.sum_sq.checked_add(later.sum_sq),
        ) else {
            return Err(Misfit::overflow());
        };
        *self = IntMoments { count, sum, sum_sq };
        Ok(())
    }
}

/// Counts of integer observations in fixed bins `first..first + bins.len()`,
/// with an underflow and an overflow bin.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Histogram {
    first: i64,
    bins: Vec<u64>,
    underflow: u64,
    overflow: u64,
}

impl Histogram {
    /// A histogram of `count` unit bins starting at `first`.
    pub fn new(first: i64, count: usize) -> Self {
        Histogram {
            first,
            bins: vec![0; count],
            underflow: 0,
            overflow: 0,
        }
    }

    /// Records `weight` observations of `value`.
    #[inline]
    pub fn add(&mut self, value: i64, weight: u64) {
        let offset = value - self.first;
        if offset < 0 {
            self.underflow += weight;
        } else if let Some(bin) = self.bins.get_mut(offset as usize) {
            *bin += weight;
        } else {
            self.overflow += weight;
        }
    }

    /// Adds another histogram with the same bins.
    pub fn merge(&mut self, other: &Histogram) {
        debug_assert_eq!(
            (self.first, self.bins.len()),
            (other.first, other.bins.len())
        );
        for (a, b) in self.bins.iter_mut().zip(&other.bins) {
            *a += b;
        }
        self.underflow += other.underflow;
        self.overflow += other.overflow;
    }

    /// Total number of observations, under- and overflow included.
    pub fn total(&self) -> u64 {
        self.bins.iter().sum::<u64>() + self.underflow + self.overflow
    }

    /// [`Self::total`], or `None` where it does not fit a `u64`.
    pub fn checked_total(&self) -> Option<u64> {
        self.bins
            .iter()
            .chain([&self.underflow, &self.overflow])
            .try_fold(0u64, |sum, &c| sum.checked_add(c))
    }

    /// `(value, count)` for each regular bin.
    pub fn bins(&self) -> impl Iterator<Item = (i64, u64)> + '_ {
        self.bins
            .iter()
            .enumerate()
            .map(|(i, &c)| (self.first + i as i64, c))
    }

    /// Observations below the first bin and above the last.
    pub fn outside(&self) -> (u64, u64) {
        (self.underflow, self.overflow)
    }

    /// Share of each bin with its Wilson interval.
    pub fn shares(&self, z: f64) -> Vec<(i64, u64, Estimate)> {
        let n = self.total();
        self.bins().map(|(v, c)| (v, c, wilson(c, n, z))).collect()
    }

    /// Moments of the binned values (exact integer sums; under/overflow excluded).
    pub fn moments(&self) -> Moments {
        let mut m = Moments::default();
        for (v, c) in self.bins() {
            m.push_repeated(v as f64, c);
        }
        m
    }
}

impl Checked for Histogram {
    fn layout(out: &mut String) {
        out.push_str("Histogram{first:i64,bins:[u64],underflow:u64,overflow:u64}");
    }

    fn check_like(&self, fresh: &Self) -> Result<(), Misfit> {
        if (self.first, self.bins.len()) != (fresh.first, fresh.bins.len()) {
            return Err(Misfit::new(format!(
                "{} bins from {} where the scenario's histogram has {} bins from {}",
                self.bins.len(),
                self.first,
                fresh.bins.len(),
                fresh.first
            )));
        }
        self.checked_total().map(|_| ()).ok_or_else(|| {
            Misfit::new("its bins add up to more observations than a count can hold")
        })
    }

    fn try_merge(&mut self, later: Self) -> Result<(), Misfit> {
        if (self.first, self.bins.len()) != (later.first, later.bins.len()) {
            return Err(Misfit::new("the shards' histograms have other bins"));
        }
        for (a, b) in self.bins.iter_mut().zip(&later.bins) {
            *a = a.checked_add(*b).ok_or_else(Misfit::overflow)?;
        }
        self.underflow.try_merge(later.underflow)?;
        self.overflow.try_merge(later.overflow)?;
        self.checked_total()
            .map(|_| ())
            .ok_or_else(Misfit::overflow)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn welford_matches_the_two_pass_formula() {
        let xs: Vec<f64> = (0..1000)
            .map(|i| ((i * 37) % 101) as f64 * 0.25 + 1e6)
            .collect();
        let mut m = Moments::default();
        xs.iter().for_each(|&x| m.push(x));
        let mean = xs.iter().sum::<f64>() / xs.len() as f64;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (xs.len() - 1) as f64;
        assert!((m.mean() - mean).abs() < 1e-6);
        assert!((m.variance() - var).abs() / var < 1e-9);
    }

    #[test]
    fn chan_merge_equals_one_pass() {
        let xs: Vec<f64> = (0..500).map(|i| (i as f64).sin() * 10.0).collect();
        let mut whole = Moments::default();
        xs.iter().for_each(|&x| whole.push(x));
        let mut left = Moments::default();
        let mut right = Moments::default();
        xs[..123].iter().for_each(|&x| left.push(x));
        xs[123..].iter().for_each(|&x| right.push(x));
        left.merge(&right);
        assert_eq!(left.count(), whole.count());
        assert!((left.mean() - whole.mean()).abs() < 1e-12);
        assert!((left.variance() - whole.variance()).abs() < 1e-9);
        let mut empty = Moments::default();
        empty.merge(&whole);
        assert_eq!(empty, whole);
    }

    #[test]
    fn push_repeated_equals_repeated_pushes() {
        let mut a = Moments::default();
        let mut b = Moments::default();
        for (x, w) in [(1.0, 3u64), (4.0, 2), (2.5, 5)] {
            a.push_repeated(x, w);
            (0..w).for_each(|_| b.push(x));
        }
        assert!((a.mean() - b.mean()).abs() < 1e-12);
        assert!((a.variance() - b.variance()).abs() < 1e-12);
    }

    #[test]
    fn integer_moments_match_float_moments() {
        let mut i = IntMoments::default();
        let mut f = Moments::default();
        for x in [3i64, -1, 4, 1, -5, 9, 2, 6] {
            i.push(x);
            f.push(x as f64);
        }
        assert!((i.mean() - f.mean()).abs() < 1e-12);
        assert!((i.variance() - f.variance()).abs() < 1e-12);
        let mut j = IntMoments::default();
        j.merge(&i);
        j.merge(&i);
        assert_eq!(j.count(), 16);
        assert_eq!(j.sum(), 2 * i.sum());
    }

    #[test]
    fn accumulators_survive_serialisation_bit_for_bit() {
        let mut m = Moments::default();
        let mut i = IntMoments::default();
        let mut h = Histogram::new(-2, 4);
        for x in [0.1, 2.5, -7.25, 1e300] {
            m.push(x);
        }
        for x in [i64::MAX, -3, i64::MIN] {
            i.push(x);
        }
        for v in [-5, 0, 1, 9] {
            h.add(v, 3);
        }
        let m2: Moments = postcard::from_bytes(&postcard::to_allocvec(&m).unwrap()).unwrap();
        assert_eq!(
            (m2.count(), m2.mean().to_bits(), m2.variance().to_bits()),
            (m.count(), m.mean().to_bits(), m.variance().to_bits())
        );
        let i2: IntMoments = postcard::from_bytes(&postcard::to_allocvec(&i).unwrap()).unwrap();
        assert_eq!(i2, i);
        let h2: Histogram = postcard::from_bytes(&postcard::to_allocvec(&h).unwrap()).unwrap();
        assert_eq!(h2, h);
    }

    #[test]
    fn moments_no_observations_give_are_misfits() {
        let fresh = Moments::default();
        let mut ok = Moments::default();
        [1.0, 2.5].iter().for_each(|&x| ok.push(x));
        assert!(ok.check_like(&fresh).is_ok());
        let bad = |count, mean, m2| Moments { count, mean, m2 }.check_like(&fresh).is_err();
        assert!(bad(0, 1.0, 0.0), "a mean without observations");
        assert!(bad(2, f64::NAN, 0.0));
        assert!(bad(2, 1e308, 0.0), "a mean beyond 2^53");
        assert!(bad(2, 1.0, -1.0));
        assert!(bad(2, 1.0, f64::INFINITY));
        assert!(bad(1, 1.0, 0.5), "spread with one observation");
        assert!(!bad(2, MAX_ABS_MEAN, 0.0));
        let mut huge = Moments {
            count: 2,
            mean: -MAX_ABS_MEAN,
            m2: 0.0,
        };
        assert!(
            huge.try_merge(Moments {
                count: u64::MAX,
                mean: 0.0,
                m2: 0.0
            })
            .is_err(),
            "the count wraps"
        );
    }

    #[test]
    fn integer_sums_no_integers_have_are_misfits() {
        let fresh = IntMoments::default();
        let mut ok = IntMoments::default();
        [3, -4, 7].iter().for_each(|&x| ok.push(x));
        assert!(ok.check_like(&fresh).is_ok());
        let bad = |count, sum, sum_sq| {
            IntMoments { count, sum, sum_sq }
                .check_like(&fresh)
                .is_err()
        };
        assert!(bad(0, 1, 1), "sums without observations");
        assert!(bad(2, 0, -1), "a negative sum of squares");
        assert!(bad(2, 10, 1), "n·Σx² < (Σx)²");
        assert!(bad(u64::MAX, 1, i128::MAX), "n·Σx² overflows the variance");
        let mut a = IntMoments {
            count: 1,
            sum: i128::MAX,
            sum_sq: 0,
        };
        assert!(
            a.try_merge(IntMoments {
                count: 1,
                sum: 1,
                sum_sq: 0
            })
            .is_err()
        );
    }

    #[test]
    fn histograms_of_other_bins_or_too_many_counts_are_misfits() {
        let fresh = Histogram::new(0, 3);
        let mut h = Histogram::new(0, 3);
        h.add(1, 5);
        assert!(h.check_like(&fresh).is_ok());
        assert!(Histogram::new(1, 3).check_like(&fresh).is_err());
        assert!(Histogram::new(0, 2_000_000).check_like(&fresh).is_err());
        let mut full = Histogram::new(0, 3);
        full.add(0, u64::MAX);
        full.add(2, 0);
        assert!(full.check_like(&fresh).is_ok());
        let mut over = full.clone();
        over.add(-1, 1);
        assert_eq!(over.checked_total(), None);
        assert!(over.check_like(&fresh).is_err(), "the total wraps");
        assert!(full.clone().try_merge(h.clone()).is_err());
        assert!(h.clone().try_merge(Histogram::new(0, 4)).is_err());
    }

    #[test]
    fn histogram_counts_and_spills() {
        let mut h = Histogram::new(1, 3);
        for v in [0, 1, 1, 2, 3, 4, 9] {
            h.add(v, 1);
        }
        assert_eq!(h.bins().collect::<Vec<_>>(), vec![(1, 2), (2, 1), (3, 1)]);
        assert_eq!(h.outside(), (1, 2));
        assert_eq!(h.total(), 7);
        let mut g = h.clone();
        g.merge(&h);
        assert_eq!(g.total(), 14);
        let m = Histogram::new(1, 3).moments();
        assert_eq!(m.count(), 0);
    }
}
