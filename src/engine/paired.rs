//! Paired differences on common random numbers: trial `t` of every variant
//! starts from the same random stream, so the per-trial difference of a
//! metric between a variant and the first one (the baseline) has a much
//! smaller variance than the difference of two independent estimates. The
//! `_diff` figures are the moments of those per-trial differences.
//!
//! A trial visits the variants in order; [`Baseline::record`] keeps the
//! first variant's values and accumulates every later variant's difference
//! to them.
//!
//! ```
//! use woundsim::engine::accum::Moments;
//! use woundsim::engine::paired::Baseline;
//!
//! let mut base = Baseline::default();
//! let mut diffs = [Moments::default(); 2];
//! base.record(0, &[1.0, 5.0], &mut diffs); // the baseline: nothing recorded
//! base.record(1, &[2.0, 3.0], &mut diffs);
//! assert_eq!((diffs[0].mean(), diffs[1].mean()), (1.0, -2.0));
//! ```

use std::ops::Sub;

use super::accum::{IntMoments, Moments};

/// An accumulator of single observations.
pub trait Observe<T> {
    /// Adds one observation.
    fn observe(&mut self, x: T);
}

impl Observe<f64> for Moments {
    #[inline]
    fn observe(&mut self, x: f64) {
        self.push(x);
    }
}

impl Observe<i64> for IntMoments {
    #[inline]
    fn observe(&mut self, x: i64) {
        self.push(x);
    }
}

/// The baseline variant's values of the current trial.
#[derive(Clone, Debug, Default)]
pub struct Baseline<T> {
    values: Vec<T>,
}

impl<T: Copy + Sub<Output = T>> Baseline<T> {
    /// Records variant `variant`'s `values` of the current trial: those of
    /// variant 0 become the baseline; for a later variant, `values[k]`
    /// minus the baseline's goes into `diffs[k]`.
    #[inline]
    pub fn record<M: Observe<T>>(&mut self, variant: usize, values: &[T], diffs: &mut [M]) {
        if variant == 0 {
            self.values.clear();
            self.values.extend_from_slice(values);
            return;
        }
        for ((d, &x), &b) in diffs.iter_mut().zip(values).zip(&self.values) {
            d.observe(x - b);
        }
    }

    /// The baseline's value of metric `k` in the current trial, if any.
    #[inline]
    pub fn get(&self, k: usize) -> Option<T> {
        self.values.get(k).copied()
    }
}
