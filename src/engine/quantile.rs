//! Quantiles of integer-valued outcomes from histogram counts (Monte Carlo)
//! or probability mass functions (exact mode), with one definition for both:
//! the `q`-quantile is the smallest value whose CDF reaches `q`.
//!
//! Monte Carlo intervals are distribution-free: the order statistics at
//! ranks `n·q ± z·sqrt(n·q·(1-q))` (the normal approximation to the
//! binomial count below the true quantile), so they need no density
//! estimate and stay valid for discrete outcomes.

use crate::engine::stats::Estimate;

/// The quantile levels reported, with their metric prefixes.
pub const LEVELS: [(f64, &str); 3] = [(0.5, "q50"), (0.9, "q90"), (0.99, "q99")];

/// Smallest value `first + i` whose cumulative count reaches `rank` (1-based).
fn value_at_rank(first: i64, counts: &[u64], rank: u64) -> i64 {
    let mut cum = 0u64;
    for (i, &c) in counts.iter().enumerate() {
        cum += c;
        if cum >= rank {
            return first + i as i64;
        }
    }
    first + counts.len().saturating_sub(1) as i64
}

/// The `q`-quantile of counts in unit bins from `first`, with its interval;
/// `None` without observations.
///
/// ```
/// use woundsim::engine::quantile::from_counts;
/// let e = from_counts(0, &[10, 80, 10], 0.5, 1.96).unwrap();
/// assert_eq!((e.value, e.low, e.high), (1.0, 1.0, 1.0));
/// ```
pub fn from_counts(first: i64, counts: &[u64], q: f64, z: f64) -> Option<Estimate> {
    let n: u64 = counts.iter().sum();
    if n == 0 {
        return None;
    }
    let nf = n as f64;
    // Smallest x with cum/n >= q, i.e. cum >= ceil(n·q) (at least 1).
    let point_rank = ((nf * q).ceil() as u64).clamp(1, n);
    let half = z * (nf * q * (1.0 - q)).sqrt();
    let low_rank = ((nf * q - half).floor().max(1.0) as u64).min(n);
    let high_rank = ((nf * q + half).ceil() + 1.0).min(nf) as u64;
    Some(Estimate {
        value: value_at_rank(first, counts, point_rank) as f64,
        low: value_at_rank(first, counts, low_rank) as f64,
        high: value_at_rank(first, counts, high_rank.max(1)) as f64,
    })
}

/// The exact `q`-quantile of a probability mass function over `first..`.
/// A small tolerance absorbs rounding of the cumulative sum.
pub fn from_pmf(first: i64, pmf: &[f64], q: f64) -> Option<f64> {
    let total: f64 = pmf.iter().sum();
    if total <= 0.0 {
        return None;
    }
    let mut cum = 0.0;
    for (i, &p) in pmf.iter().enumerate() {
        cum += p / total;
        if cum >= q - 1e-12 {
            return Some((first + i as i64) as f64);
        }
    }
    Some((first + pmf.len() as i64 - 1) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_pmf_agree_on_the_definition() {
        let counts = [1u64, 2, 3, 4];
        let pmf: Vec<f64> = counts.iter().map(|&c| c as f64 / 10.0).collect();
        for q in [0.1, 0.3, 0.5, 0.6, 0.9, 0.99] {
            let mc = from_counts(5, &counts, q, 0.0).unwrap().value;
            assert_eq!(Some(mc), from_pmf(5, &pmf, q), "q = {q}");
        }
        assert!(from_counts(0, &[0, 0], 0.5, 1.96).is_none());
    }

    #[test]
    fn the_interval_brackets_the_point() {
        let counts: Vec<u64> = (0..50).map(|i| 100 + i).collect();
        let e = from_counts(0, &counts, 0.9, 1.96).unwrap();
        assert!(e.low <= e.value && e.value <= e.high && e.low < e.high);
    }
}
