//! CSV exporters: `summary.csv` (one row per figure) and one tidy CSV per
//! distribution, through serde row structs.

use serde::Serialize;

use crate::results::ScenarioResult;

/// The exact column list of `summary.csv` (an interface contract).
pub const SUMMARY_COLUMNS: [&str; 8] = [
    "scenario", "variant", "metric", "estimate", "ci_low", "ci_high", "trials", "seed",
];

#[derive(Serialize)]
struct SummaryRow<'a> {
    scenario: &'a str,
    variant: &'a str,
    metric: &'a str,
    estimate: f64,
    ci_low: f64,
    ci_high: f64,
    trials: u64,
    seed: u64,
}

#[derive(Serialize)]
struct DistributionCsvRow<'a> {
    scenario: &'a str,
    variant: &'a str,
    distribution: &'a str,
    bin: i64,
    count: u64,
    share: f64,
    ci_low: f64,
    ci_high: f64,
    trials: u64,
    seed: u64,
}

/// `summary.csv` for all results, in order.
pub fn summary(results: &[ScenarioResult]) -> Result<Vec<u8>, csv::Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in results {
        for f in &r.figures {
            w.serialize(SummaryRow {
                scenario: &r.scenario,
                variant: &f.variant,
                metric: &f.metric,
                estimate: f.estimate.value,
                ci_low: f.estimate.low,
                ci_high: f.estimate.high,
                trials: r.trials,
                seed: r.seed,
            })?;
        }
    }
    if results.iter().all(|r| r.figures.is_empty()) {
        w.write_record(SUMMARY_COLUMNS)?;
    }
    w.into_inner().map_err(|e| e.into_error().into())
}

/// The distributions of one result: `(name, csv bytes)` for each.
pub fn distributions(result: &ScenarioResult) -> Result<Vec<(String, Vec<u8>)>, csv::Error> {
    let mut names: Vec<&str> = Vec::new();
    for row in &result.distributions {
        if !names.contains(&row.distribution.as_str()) {
            names.push(&row.distribution);
        }
    }
    let mut out = Vec::new();
    for name in names {
        let mut w = csv::Writer::from_writer(Vec::new());
        for row in result
            .distributions
            .iter()
            .filter(|r| r.distribution == name)
        {
            w.serialize(DistributionCsvRow {
                scenario: &result.scenario,
                variant: &row.variant,
                distribution: name,
                bin: row.bin,
                count: row.count,
                share: row.share.value,
                ci_low: row.share.low,
                ci_high: row.share.high,
                trials: result.trials,
                seed: result.seed,
            })?;
        }
        out.push((
            name.to_string(),
            w.into_inner().map_err(|e| e.into_error())?,
        ));
    }
    Ok(out)
}
