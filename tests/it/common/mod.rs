//! Helpers shared by the integration tests. Here: running a scenario by
//! Monte Carlo, and checking every figure and distribution bin of that run
//! against exact mode within `SIGMAS` standard errors ([`assert_agree`]).
//! Each model says how to compute the standard error of its figures and
//! bins, and which absolute floor absorbs float rounding, in a
//! [`Tolerance`]; the comparison itself is the same for all of them.
//! [`cli`]: the binary and fixture paths; [`folder`]: a folder's contents;
//! [`fuzz`]: parser robustness.

// Every test crate compiles this module and uses a part of it.
#![allow(dead_code)]

pub mod cli;
pub mod folder;
pub mod fuzz;

use woundsim::engine::stats::z_for_level;
use woundsim::engine::{Engine, NoProgress};
use woundsim::results::{DistributionRow, Figure, ScenarioResult};
use woundsim::types::Scenario;

/// The built-in catalog (the shipped data files), parsed once.
pub fn catalog() -> &'static woundsim::model::Catalog {
    static CATALOG: std::sync::OnceLock<woundsim::model::Catalog> = std::sync::OnceLock::new();
    CATALOG.get_or_init(|| woundsim::scenario::data::builtin_catalog().unwrap())
}

/// Whether `metric` is taken over something other than the trials
/// (encounters, triggering events, injuries, one entry's injuries, closed
/// wounds), so that its `trials` column counts those instead.
pub fn counts_other_observations(metric: &str) -> bool {
    [
        "_per_encounter",
        "_per_event",
        "_per_injury",
        "_entry_",
        "days_until_closed",
        "p_remedy_",
        "p_cure_class_",
    ]
    .iter()
    .any(|part| metric.contains(part))
}

/// How many standard errors a Monte Carlo figure may be off its exact value.
/// The seeds are fixed, so a failure is a real disagreement, never bad luck.
pub const SIGMAS: f64 = 4.5;

/// Runs `scenario` by Monte Carlo with `trials` per variant on `threads`.
pub fn run(scenario: &Scenario, trials: u64, threads: usize) -> ScenarioResult {
    let mut s = scenario.clone();
    s.header.trials = trials;
    let engine = Engine::new(threads).unwrap();
    woundsim::types::simulate(&s, &engine, &NoProgress).unwrap()
}

/// The standard error of a proportion `p` estimated from `n` trials.
pub fn binomial_sigma(p: f64, n: f64) -> f64 {
    (p * (1.0 - p) / n).sqrt()
}

/// The standard error implied by a Monte Carlo figure's own interval.
pub fn interval_sigma(mc: &ScenarioResult, f: &Figure) -> f64 {
    (f.estimate.high - f.estimate.low) / (2.0 * z_for_level(mc.confidence))
}

/// How one test compares Monte Carlo with exact mode.
pub struct Tolerance<'a> {
    /// The standard error of a figure given its exact value, or `None` for
    /// a figure this closure has checked itself (a quantile, say).
    pub sigma: &'a dyn Fn(&Figure, f64) -> Option<f64>,
    /// Absolute slack added to `SIGMAS` σ of a figure with this exact value.
    pub floor: &'a dyn Fn(f64) -> f64,
    /// The trials behind a bin's share (the binomial denominator).
    pub bin_trials: &'a dyn Fn(&DistributionRow) -> f64,
    /// Absolute slack added to `SIGMAS` σ of a bin.
    pub bin_floor: f64,
    /// A bin exact mode lacks counts as share 0 (else the test fails).
    pub missing_bin_is_zero: bool,
}

/// Every Monte Carlo figure and bin of `mc` is within `SIGMAS` σ (plus the
/// floor) of its exact counterpart in `exact`; exact mode must have every
/// figure. Returns how many figures were checked (at least one).
pub fn assert_agree(mc: &ScenarioResult, exact: &ScenarioResult, tol: &Tolerance) -> usize {
    let mut checked = 0;
    for f in &mc.figures {
        let e = exact
            .figure(&f.variant, &f.metric)
            .unwrap_or_else(|| panic!("exact lacks {}/{}", f.variant, f.metric))
            .estimate
            .value;
        if let Some(sigma) = (tol.sigma)(f, e) {
            let tolerance = SIGMAS * sigma + (tol.floor)(e);
            assert!(
                (f.estimate.value - e).abs() <= tolerance,
                "{}/{}/{}: Monte Carlo {} vs exact {e} (tolerance {tolerance})",
                mc.scenario,
                f.variant,
                f.metric,
                f.estimate.value,
            );
        }
        checked += 1;
    }
    for row in &mc.distributions {
        let found = exact.distributions.iter().find(|r| {
            r.variant == row.variant && r.distribution == row.distribution && r.bin == row.bin
        });
        let e = match found {
            Some(r) => r.share.value,
            None if tol.missing_bin_is_zero => 0.0,
            None => panic!(
                "exact lacks {}/{}/{} bin {}",
                mc.scenario, row.variant, row.distribution, row.bin
            ),
        };
        let tolerance = SIGMAS * binomial_sigma(e, (tol.bin_trials)(row)) + tol.bin_floor;
        assert!(
            (row.share.value - e).abs() <= tolerance,
            "{}/{}/{} bin {}: Monte Carlo {} vs exact {e} (tolerance {tolerance})",
            mc.scenario,
            row.variant,
            row.distribution,
            row.bin,
            row.share.value
        );
    }
    assert!(checked > 0, "{}: no figure to check", mc.scenario);
    checked
}

/// Two runs of the same scenario give bit-identical figures (estimates and
/// interval ends) in the same order.
pub fn assert_bit_identical(a: &ScenarioResult, b: &ScenarioResult) {
    assert_eq!(a.figures.len(), b.figures.len());
    for (x, y) in a.figures.iter().zip(&b.figures) {
        assert_eq!(x.metric, y.metric);
        assert_eq!(
            x.estimate.value.to_bits(),
            y.estimate.value.to_bits(),
            "{}",
            x.metric
        );
        assert_eq!(
            x.estimate.low.to_bits(),
            y.estimate.low.to_bits(),
            "{}",
            x.metric
        );
    }
}
