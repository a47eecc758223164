//! Exact festering-wound figures (docs/rules.md, lingering injuries): every metric and
//! distribution of the `festering` scenario type, with `ci_low = ci_high =
//! estimate`, from the closed-form distribution of one wound (a negative
//! binomial tending day against an independent day of magical healing,
//! [`crate::rules::festering::distribution`]).

use super::{DIFF_METRICS, FesteringScenario, result};
use crate::engine::quantile;
use crate::engine::stats::Estimate;
use crate::model::{ScenarioHeader, Variant};
use crate::results::{DistributionRow, Figure, ScenarioResult};
use crate::rules::festering::WoundDistribution;

/// Exact figures and distributions of every variant, in the Monte Carlo
/// result's shape.
pub fn solve(header: &ScenarioHeader, variants: &[Variant<FesteringScenario>]) -> ScenarioResult {
    let mut figures = Vec::new();
    let mut rows = Vec::new();
    let solved: Vec<WoundDistribution> = variants
        .iter()
        .map(|v| v.rules.rules.distribution(v.rules.rules.max_hp))
        .collect();
    for (variant, e) in variants.iter().zip(&solved) {
        let mut push = |metric: String, value: f64| {
            figures.push(Figure {
                variant: variant.name.clone(),
                metric,
                estimate: Estimate::exact(value),
                trials: None,
            });
        };
        push("p_death".into(), e.p_death);
        push("p_closed_by_tending".into(), e.p_tended);
        push("p_closed_by_magic".into(), e.p_magic);
        push("mean_max_hp_lost".into(), mean(&e.loss));
        for (q, prefix) in quantile::LEVELS {
            if let Some(v) = quantile::from_pmf(0, &e.loss, q) {
                push(format!("{prefix}_max_hp_lost"), v);
            }
        }
        push("mean_max_hp_lost_lasting".into(), e.mean_lasting);
        push("mean_days_open".into(), e.mean_days_open);
        let closed_mass: f64 = e.closed.iter().sum();
        if closed_mass > 0.0 {
            push(
                "mean_days_until_closed".into(),
                mean(&e.closed) / closed_mass,
            );
            for (q, prefix) in quantile::LEVELS {
                if let Some(v) = quantile::from_pmf(0, &e.closed, q) {
                    push(format!("{prefix}_days_until_closed"), v);
                }
            }
        }
        for &h in &variant.rules.curve {
            push(
                format!("p_death_max_hp_{h}"),
                variant.rules.rules.distribution(h).p_death,
            );
        }
        let conditional: Vec<f64> = e.closed.iter().map(|p| p / closed_mass).collect();
        let closed_rows = Some(("days_until_closed", &conditional)).filter(|_| closed_mass > 0.0);
        for (name, pmf) in std::iter::once(("max_hp_lost", &e.loss)).chain(closed_rows) {
            rows.extend(pmf.iter().enumerate().map(|(bin, &p)| DistributionRow {
                variant: variant.name.clone(),
                distribution: name.into(),
                bin: bin as i64,
                count: 0,
                share: Estimate::exact(p),
                trials: None,
            }));
        }
    }
    if let Some(base) = solved.first() {
        for (variant, e) in variants.iter().zip(&solved).skip(1) {
            let values = [
                e.p_death - base.p_death,
                mean(&e.loss) - mean(&base.loss),
                e.mean_days_open - base.mean_days_open,
            ];
            for (name, value) in DIFF_METRICS.iter().zip(values) {
                figures.push(Figure {
                    variant: variant.name.clone(),
                    metric: format!("{name}_diff"),
                    estimate: Estimate::exact(value),
                    trials: None,
                });
            }
        }
    }
    result(header, variants, figures, rows)
}

fn mean(pmf: &[f64]) -> f64 {
    pmf.iter().enumerate().map(|(k, p)| k as f64 * p).sum()
}
