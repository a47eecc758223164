//! Exact festering-wound figures (docs/rules.md, lingering injuries): every metric and
//! distribution of the `festering` scenario type, with `ci_low = ci_high =
//! estimate`, from the closed-form distribution of one wound (a negative
//! binomial tending day against an independent day of magical healing,
//! [`crate::rules::festering::distribution`]).

use super::{FesteringScenario, Measure, catalogue, result};
use crate::engine::quantile;
use crate::engine::stats::Estimate;
use crate::model::{ScenarioHeader, Variant};
use crate::results::catalogue::{Observed, figures};
use crate::results::{DistributionRow, ScenarioResult};
use crate::rules::festering::WoundDistribution;

/// Exact figures and distributions of every variant, in the Monte Carlo
/// result's shape.
pub fn solve(header: &ScenarioHeader, variants: &[Variant<FesteringScenario>]) -> ScenarioResult {
    let solved: Vec<WoundDistribution> = variants
        .iter()
        .map(|v| v.rules.rules.distribution(v.rules.rules.max_hp))
        .collect();
    let value = |v: usize, measure: Measure| -> Option<f64> {
        let e = &solved[v];
        let closed_mass: f64 = e.closed.iter().sum();
        Some(match measure {
            Measure::Death => e.p_death,
            Measure::ClosedByTending => e.p_tended,
            Measure::ClosedByMagic => e.p_magic,
            Measure::MaxHpLost => mean(&e.loss),
            Measure::MaxHpLostQuantile(i) => quantile::from_pmf(0, &e.loss, quantile::LEVELS[i].0)?,
            Measure::Lasting => e.mean_lasting,
            Measure::DaysOpen => e.mean_days_open,
            Measure::DeathAtMaxHp(k) => {
                let rules = &variants[v].rules;
                rules.rules.distribution(rules.curve[k]).p_death
            }
            _ if closed_mass <= 0.0 => return None,
            Measure::DaysUntilClosed => mean(&e.closed) / closed_mass,
            Measure::DaysUntilClosedQuantile(i) => {
                quantile::from_pmf(0, &e.closed, quantile::LEVELS[i].0)?
            }
        })
    };
    let exact = |x: Option<f64>| x.map_or(Observed::ABSENT, Observed::exact);
    let figures = figures(
        &Variant::names(variants),
        &catalogue(variants),
        0.0,
        |v, _, def| exact(value(v, def.measure)),
        |v, _, def| {
            exact(
                value(v, def.measure)
                    .zip(value(0, def.measure))
                    .map(|(a, b)| a - b),
            )
        },
    );
    let mut rows = Vec::new();
    for (variant, e) in variants.iter().zip(&solved) {
        let closed_mass: f64 = e.closed.iter().sum();
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
    result(header, variants, figures, rows)
}

fn mean(pmf: &[f64]) -> f64 {
    pmf.iter().enumerate().map(|(k, p)| k as f64 * p).sum()
}
