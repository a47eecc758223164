//! `woundsim run --precision NAME=HALF_WIDTH [--max-trials N]`: a run that
//! stops once its intervals are narrow enough.
//!
//! The run goes in fixed blocks of [`BLOCK_CHUNKS`] chunks (of the
//! scenario type's size: 16 × 65,536 death-save sequences, 16 × 128
//! campaign careers). After each block the frontiers of the blocks
//! so far are appended (exactly the frontier one run of those chunks
//! computes, [`crate::engine::frontier`]) and finished into figures; the run
//! stops once every figure whose metric matches a target's glob has a
//! half-width (the larger of estimate − low and high − estimate) of at most
//! the target's, in every variant, or once the maximum is reached. The
//! decision reads only the figures after whole blocks, so where the run
//! stops, and its output, are the same for any thread count.

use crate::cli::Precision;
use crate::engine::{Engine, Progress};
use crate::model::ScenarioHeader;
use crate::report::glob::Glob;
use crate::report::run_info::{MissedTarget, PrecisionStop, PrecisionTarget};
use crate::results::ScenarioResult;
use crate::types::{Scenario, State};

use super::AppError;

/// Chunks per block.
pub const BLOCK_CHUNKS: u64 = 16;

/// A target not met: the figure furthest from its target.
#[derive(Clone, Debug, PartialEq)]
pub struct Unmet {
    /// The figure's metric.
    pub metric: String,
    /// Its variant.
    pub variant: String,
    /// Its half-width (NaN where the interval is undefined).
    pub half_width: f64,
    /// The target half-width.
    pub target: f64,
}

/// Where a precision run stopped.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Trials per variant run.
    pub trials: u64,
    /// `None`: every target was met; else the worst figure.
    pub unmet: Option<Unmet>,
}

impl Outcome {
    /// The record of this outcome in `run.json`, for the run's `targets`
    /// and `max_trials`.
    pub fn record(&self, targets: &[Precision], max_trials: u64) -> PrecisionStop {
        PrecisionStop {
            targets: targets
                .iter()
                .map(|t| PrecisionTarget {
                    metrics: t.metrics.clone(),
                    half_width: t.half_width,
                })
                .collect(),
            max_trials,
            reached: self.unmet.is_none(),
            furthest: self.unmet.as_ref().map(|u| MissedTarget {
                metric: u.metric.clone(),
                variant: u.variant.clone(),
                half_width: u.half_width.is_finite().then_some(u.half_width),
                target: u.target,
            }),
        }
    }

    /// The line stdout shows for scenario `name`.
    pub fn line(&self, name: &str) -> String {
        match &self.unmet {
            None => format!("{name}: precision reached after {} trials\n", self.trials),
            Some(u) => format!(
                "{name}: precision not reached after {} trials (max): {} of variant {} half-width {} > {}\n",
                self.trials,
                u.metric,
                u.variant,
                significant(u.half_width),
                u.target
            ),
        }
    }
}

/// `x` to 3 significant digits.
fn significant(x: f64) -> String {
    if !x.is_finite() || x == 0.0 {
        return if x.is_nan() {
            "undefined".into()
        } else {
            x.to_string()
        };
    }
    let decimals = (2 - x.abs().log10().floor() as i64).clamp(0, 17) as usize;
    format!("{x:.decimals$}")
}

/// The figure of `result` furthest from its target, if any misses it.
pub fn unmet(result: &ScenarioResult, targets: &[(Glob, f64)]) -> Option<Unmet> {
    let mut worst: Option<(f64, Unmet)> = None;
    for f in &result.figures {
        for (glob, target) in targets {
            if !glob.matches(&f.metric) {
                continue;
            }
            let e = &f.estimate;
            let half = (e.value - e.low).max(e.high - e.value);
            if half <= *target {
                continue;
            }
            let ratio = if half.is_nan() {
                f64::INFINITY
            } else {
                half / target
            };
            if worst.as_ref().is_none_or(|(r, _)| ratio > *r) {
                let unmet = Unmet {
                    metric: f.metric.clone(),
                    variant: f.variant.clone(),
                    half_width: half,
                    target: *target,
                };
                worst = Some((ratio, unmet));
            }
        }
    }
    worst.map(|(_, u)| u)
}

/// Runs `scenario` block by block until `targets` are met or `max_trials`
/// are run; sets its header's trials to the trials run.
pub fn run(
    scenario: &mut Scenario,
    targets: &[Precision],
    max_trials: u64,
    engine: &Engine,
    progress: &dyn Progress,
) -> Result<(ScenarioResult, Outcome), AppError> {
    let globs: Vec<(Glob, f64)> = targets
        .iter()
        .map(|t| (Glob::new(&t.metrics), t.half_width))
        .collect();
    scenario.header.trials = max_trials;
    let chunks = scenario.chunks();
    let mut total: Option<State> = None;
    let mut end = 0;
    loop {
        let start = end;
        end = (start + BLOCK_CHUNKS).min(chunks);
        let block = scenario.simulate_chunks(engine, start..end, progress)?;
        let state = match total.take() {
            None => block,
            Some(mut so_far) => {
                if let Err(e) = so_far.append(block) {
                    return Err(AppError::Usage(format!(
                        "internal error: block {start}..{end} of `{}` does not follow on: {e}",
                        scenario.header.name
                    )));
                }
                so_far
            }
        };
        let trials = scenario.shape().trials_in(0..end);
        let header = ScenarioHeader {
            trials,
            ..scenario.header.clone()
        };
        let result = match scenario.variants.finish(&header, state.clone()) {
            Ok(r) => scenario.scanned(r),
            Err(e) => {
                return Err(AppError::Usage(format!(
                    "internal error: the state of `{}` does not fit: {e}",
                    scenario.header.name
                )));
            }
        };
        if start == 0 {
            for (t, (glob, _)) in targets.iter().zip(&globs) {
                if !result.figures.iter().any(|f| glob.matches(&f.metric)) {
                    return Err(AppError::Usage(format!(
                        "--precision {}: `{}` matches no metric of scenario `{}` (see summary.csv or the README for its metrics)",
                        crate::scenario::error::one_line(&t.arg),
                        crate::scenario::error::one_line(&t.metrics),
                        scenario.header.name
                    )));
                }
            }
        }
        let missed = unmet(&result, &globs);
        if missed.is_none() || end >= chunks {
            scenario.header.trials = trials;
            let outcome = Outcome {
                trials,
                unmet: missed,
            };
            return Ok((result, outcome));
        }
        total = Some(state);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::stats::Estimate;
    use crate::results::Figure;

    fn result(figures: &[(&str, &str, f64, f64, f64)]) -> ScenarioResult {
        ScenarioResult {
            scenario: "s".into(),
            description: String::new(),
            seed: 1,
            trials: 1,
            confidence: 0.95,
            variants: vec!["a".into(), "b".into()],
            distributions: Vec::new(),
            charts: Vec::new(),
            item_rows: Vec::new(),
            not_available: Vec::new(),
            variant_descriptions: Vec::new(),
            scan: None,
            tables: Vec::new(),
            verdicts: Vec::new(),
            warnings: Vec::new(),
            headline: None,
            figures: figures
                .iter()
                .map(|(v, m, value, low, high)| Figure {
                    kind: crate::results::fixture_kind(m),
                    variant: v.to_string(),
                    metric: m.to_string(),
                    estimate: Estimate {
                        value: *value,
                        low: *low,
                        high: *high,
                    },
                    trials: None,
                    unit: crate::results::Unit::Share,
                })
                .collect(),
        }
    }

    #[test]
    fn the_worst_matching_figure_is_the_one_reported() {
        let r = result(&[
            ("a", "p_dead", 0.5, 0.4375, 0.53125),
            ("b", "p_dead", 0.5, 0.375, 0.5078125),
            ("a", "mean_rolls", 3.0, 1.0, 5.0),
        ]);
        let p = |g: &str, w: f64| vec![(Glob::new(g), w)];
        assert_eq!(
            unmet(&r, &p("p_*", 0.125)),
            None,
            "half-widths 0.0625 and 0.125"
        );
        let worst = unmet(&r, &p("p_*", 0.1)).unwrap();
        assert_eq!((worst.variant.as_str(), worst.half_width), ("b", 0.125));
        assert_eq!(
            unmet(&r, &p("p_*", 0.05)).unwrap().variant,
            "b",
            "the furthest, not the first"
        );
        assert_eq!(unmet(&r, &p("mean_*", 2.0)), None);
        assert!(unmet(&r, &p("mean_*", 1.9)).is_some());
        let undefined = result(&[("a", "m", f64::NAN, f64::NAN, f64::NAN)]);
        assert!(
            unmet(&undefined, &p("m", 1.0)).is_some(),
            "an undefined interval is not narrow"
        );
    }

    #[test]
    fn outcome_lines_name_the_figure_that_missed() {
        let done = Outcome {
            trials: 1_048_576,
            unmet: None,
        };
        assert_eq!(
            done.line("s"),
            "s: precision reached after 1048576 trials\n"
        );
        let missed = Outcome {
            trials: 100,
            unmet: Some(Unmet {
                metric: "p_x".into(),
                variant: "v".into(),
                half_width: 0.0021345,
                target: 0.001,
            }),
        };
        assert_eq!(
            missed.line("s"),
            "s: precision not reached after 100 trials (max): p_x of variant v half-width 0.00213 > 0.001\n"
        );
    }
}
