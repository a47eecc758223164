//! Exact death-save distributions: the absorbing Markov chain over
//! (successes, failures) with the wound slots fixed (docs/rules.md, death saves, §2).
//!
//! Every save moves the chain to a state with more successes or failures, or
//! absorbs it, so after at most [`MAX_SAVES`] saves all mass is absorbed.
//! The solver propagates integer weights save by save: with `D = 20` (one
//! d20) or `D = 400` (two), a state reached after `k` saves has weight
//! `w / D^k`, and all weights are kept over the common denominator `D^5`
//! (at most `400^5 ≈ 10^13`, exact in `u64` and in `f64`). Each probability
//! is therefore exact up to one final rounding to `f64`.

use super::{CODES, Metric, code, decode};
use crate::engine::stats::Estimate;
use crate::model::Variant;
use crate::results::catalogue::{self, MetricDef, Observed};
use crate::results::{DistributionRow, Figure};
use crate::rules::death_saves::{DeathSaveRules, MAX_SAVES, SaveStep, Tally};

/// Exact outcome distribution as numerators over a common denominator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExactDistribution {
    /// `numerators[code] / denominator` is the probability of each outcome code.
    pub numerators: [u64; CODES],
    /// `20^(5·dice)`.
    pub denominator: u64,
}

impl ExactDistribution {
    /// The probabilities as `f64`.
    pub fn probabilities(&self) -> [f64; CODES] {
        self.numerators.map(|n| n as f64 / self.denominator as f64)
    }
}

/// Solves one rule set exactly.
///
/// ```
/// use woundsim::types::death_saves::exact::solve;
/// use woundsim::rules::death_saves::DeathSaveRules;
/// let d = solve(&DeathSaveRules::default());
/// assert_eq!(d.numerators.iter().sum::<u64>(), d.denominator);
/// ```
pub fn solve(rules: &DeathSaveRules) -> ExactDistribution {
    let per_save = 20u64.pow(rules.roll.dice_per_roll());
    let denominator = per_save.pow(MAX_SAVES);
    let weights: Vec<(u8, u64)> = (1..=20)
        .map(|n| (n, rules.roll.natural_weight(n)))
        .collect();
    let mut numerators = [0u64; CODES];
    // live[(s, f)] = weight over per_save^k after k saves.
    let mut live = vec![(rules.start, 1u64)];
    for save in 1..=MAX_SAVES {
        let mut next: Vec<(Tally, u64)> = Vec::new();
        for &(tally, w) in &live {
            for &(natural, nw) in &weights {
                let weight = w * nw;
                match rules.resolve_save(tally, natural) {
                    SaveStep::Continue(t) => match next.iter_mut().find(|(x, _)| *x == t) {
                        Some((_, acc)) => *acc += weight,
                        None => next.push((t, weight)),
                    },
                    SaveStep::Resolved(r) => {
                        numerators[code(r, save)] += weight * per_save.pow(MAX_SAVES - save);
                    }
                }
            }
        }
        live = next;
    }
    debug_assert!(
        live.is_empty(),
        "death-save chain must absorb within {MAX_SAVES} saves"
    );
    ExactDistribution {
        numerators,
        denominator,
    }
}

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
