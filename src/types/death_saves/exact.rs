//! Exact death-save figures: every metric and the `rolls` distribution of
//! the `death_saves` type from the exact chain
//! ([`crate::rules::death_save_chain`]).

use super::{CODES, Metric, decode};
use crate::engine::stats::Estimate;
use crate::model::Variant;
use crate::results::catalogue::{self, MetricDef, Observed};
use crate::results::{DistributionRow, Figure};
pub use crate::rules::death_save_chain::{ExactDistribution, solve};
use crate::rules::death_saves::{DeathSaveRules, MAX_SAVES};

/// Builds figures from exact outcome distributions (one per variant).
///
/// Every figure is a ratio of integers computed exactly and rounded to
/// `f64` once, so probabilities that must be 0 or 1 are exactly 0 or 1.
pub fn figures(
    variants: &[Variant<DeathSaveRules>],
    distributions: &[ExactDistribution],
) -> (Vec<Figure>, Vec<DistributionRow>) {
    // Σ numerator · value: the metric's expectation over the denominator.
    let numerator = |d: &ExactDistribution, metric: &Metric| -> i128 {
        d.numerators
            .iter()
            .enumerate()
            .map(|(c, &n)| i128::from(n) * i128::from(metric.count(c)))
            .sum()
    };
    let read = |v: usize, _: usize, def: &MetricDef<&Metric>| {
        let d = &distributions[v];
        Observed::exact(numerator(d, def.measure) as f64 / d.denominator as f64)
    };
    let read_diff = |v: usize, _: usize, def: &MetricDef<&Metric>| {
        let (d, base) = (&distributions[v], &distributions[0]);
        // a/da - b/db = (a·db - b·da) / (da·db), exact in i128.
        let (da, db) = (i128::from(d.denominator), i128::from(base.denominator));
        let diff = numerator(d, def.measure) * db - numerator(base, def.measure) * da;
        Observed::exact(diff as f64 / (da * db) as f64)
    };
    let figures = catalogue::figures(
        &Variant::names(variants),
        &super::catalogue(variants.len()),
        0.0,
        read,
        read_diff,
    );
    let mut rows = Vec::new();
    for (variant, d) in variants.iter().zip(distributions) {
        for rolls in 1..=MAX_SAVES {
            let n: u64 = (0..CODES)
                .filter(|&c| decode(c).1 == rolls)
                .map(|c| d.numerators[c])
                .sum();
            rows.push(DistributionRow {
                variant: variant.name.clone(),
                distribution: "rolls".into(),
                bin: i64::from(rolls),
                count: 0,
                share: Estimate::exact(n as f64 / d.denominator as f64),
                trials: None,
            });
        }
    }
    (figures, rows)
}
