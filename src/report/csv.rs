//! CSV exporters: `summary.csv` (one row per figure), one tidy CSV per
//! distribution, through serde row structs, and one CSV per table of
//! constants (`encounter.csv`). An undefined number (NaN: the
//! interval of a mean of fewer than two observations, the mean of none) is
//! an empty cell.

use serde::Serialize;

use crate::results::ScenarioResult;

/// The exact column list of `summary.csv` (an interface contract).
pub const SUMMARY_COLUMNS: [&str; 8] = [
    "scenario", "variant", "metric", "estimate", "ci_low", "ci_high", "trials", "seed",
];

/// One row of `summary.csv` (and of `--format json`).
#[derive(Serialize)]
pub struct SummaryRow<'a> {
    scenario: &'a str,
    variant: &'a str,
    metric: &'a str,
    estimate: Option<f64>,
    ci_low: Option<f64>,
    ci_high: Option<f64>,
    trials: u64,
    seed: u64,
}

/// A number, or nothing (an empty cell) where it is undefined.
fn defined(x: f64) -> Option<f64> {
    (!x.is_nan()).then_some(x)
}

#[derive(Serialize)]
struct DistributionCsvRow<'a> {
    scenario: &'a str,
    variant: &'a str,
    distribution: &'a str,
    bin: i64,
    count: u64,
    share: Option<f64>,
    ci_low: Option<f64>,
    ci_high: Option<f64>,
    trials: u64,
    seed: u64,
}

/// The rows of `summary.csv` for all results, in order.
pub fn summary_rows(results: &[ScenarioResult]) -> impl Iterator<Item = SummaryRow<'_>> {
    results.iter().flat_map(|r| {
        r.figures.iter().map(move |f| SummaryRow {
            scenario: &r.scenario,
            variant: &f.variant,
            metric: &f.metric,
            estimate: defined(f.estimate.value),
            ci_low: defined(f.estimate.low),
            ci_high: defined(f.estimate.high),
            trials: f.trials.unwrap_or(r.trials),
            seed: r.seed,
        })
    })
}

/// `summary.csv` for all results, in order.
pub fn summary(results: &[ScenarioResult]) -> Result<Vec<u8>, csv::Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for row in summary_rows(results) {
        w.serialize(row)?;
    }
    if results.iter().all(|r| r.figures.is_empty()) {
        w.write_record(SUMMARY_COLUMNS)?;
    }
    w.into_inner().map_err(|e| e.into_error().into())
}

/// The exact column list of `metrics.csv`.
pub const METRICS_COLUMNS: [&str; 4] = ["scenario", "metric", "kind", "unit"];

/// One row of `metrics.csv`: a metric of a scenario, its kind and unit.
#[derive(Serialize)]
struct MetricRow<'a> {
    scenario: &'a str,
    metric: &'a str,
    kind: &'static str,
    unit: &'static str,
}

/// `metrics.csv`: each metric of each scenario once (in `summary.csv`
/// order), with its kind and unit, so that a reader of `summary.csv`
/// (`woundsim check`, a notebook) knows how each figure was estimated
/// without guessing from its name.
pub fn metrics(results: &[ScenarioResult]) -> Result<Vec<u8>, csv::Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut rows = 0;
    for r in results {
        let mut seen = std::collections::HashSet::new();
        for f in r.figures.iter().filter(|f| seen.insert(f.metric.as_str())) {
            w.serialize(MetricRow {
                scenario: &r.scenario,
                metric: &f.metric,
                kind: f.kind.name(),
                unit: f.unit.name(),
            })?;
            rows += 1;
        }
    }
    if rows == 0 {
        w.write_record(METRICS_COLUMNS)?;
    }
    w.into_inner().map_err(|e| e.into_error().into())
}

/// `scan.csv` of a scanned result: one row per figure of a scanned
/// variant, with its base variant and one column per scanned key (the
/// value as written) before the summary columns; `None` without a scan.
pub fn scan(result: &ScenarioResult) -> Result<Option<Vec<u8>>, csv::Error> {
    let Some(scan) = &result.scan else {
        return Ok(None);
    };
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut header = vec!["scenario", "variant", "base_variant"];
    header.extend(scan.keys.iter().map(String::as_str));
    header.extend(&SUMMARY_COLUMNS[2..]);
    w.write_record(&header)?;
    let number = |x: f64| {
        if x.is_nan() {
            String::new()
        } else {
            x.to_string()
        }
    };
    for row in &scan.rows {
        for f in result.figures.iter().filter(|f| f.variant == row.variant) {
            let mut record = vec![
                result.scenario.clone(),
                row.variant.clone(),
                row.base.clone(),
            ];
            record.extend(row.values.iter().map(|(label, _)| label.clone()));
            record.extend([
                f.metric.clone(),
                number(f.estimate.value),
                number(f.estimate.low),
                number(f.estimate.high),
                f.trials.unwrap_or(result.trials).to_string(),
                result.seed.to_string(),
            ]);
            w.write_record(&record)?;
        }
    }
    Ok(Some(w.into_inner().map_err(|e| e.into_error())?))
}

/// The constant tables of one result (`encounter.csv`): `(file stem, csv
/// bytes)` for each, its columns as the header row.
pub fn tables(result: &ScenarioResult) -> Result<Vec<(String, Vec<u8>)>, csv::Error> {
    let mut out = Vec::new();
    for table in &result.tables {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(&table.columns)?;
        for row in &table.rows {
            w.write_record(row)?;
        }
        out.push((
            table.file.clone(),
            w.into_inner().map_err(|e| e.into_error())?,
        ));
    }
    Ok(out)
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
                share: defined(row.share.value),
                ci_low: defined(row.share.low),
                ci_high: defined(row.share.high),
                trials: row.trials.unwrap_or(result.trials),
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

#[cfg(test)]
mod tests {
    use crate::engine::stats::Estimate;
    use crate::model::ScenarioHeader;
    use crate::results::{Figure, ScenarioResult};

    #[test]
    fn undefined_numbers_are_empty_cells() {
        let header = ScenarioHeader {
            name: "s".into(),
            description: String::new(),
            trials: 1,
            seed: 3,
            confidence: 0.95,
        };
        let nan = f64::NAN;
        let figure = |metric: &str, value, low, high| Figure {
            kind: crate::results::fixture_kind(metric),
            variant: "a".into(),
            metric: metric.into(),
            estimate: Estimate { value, low, high },
            trials: None,
            unit: crate::results::Unit::Share,
        };
        let result = ScenarioResult {
            figures: vec![
                figure("mean_one", 2.0, nan, nan),
                figure("mean_none", nan, nan, nan),
                figure("p_x", 0.5, 0.25, 0.75),
            ],
            ..ScenarioResult::for_header(&header, vec!["a".into()])
        };
        let text = String::from_utf8(super::summary(&[result]).unwrap()).unwrap();
        assert_eq!(
            text,
            "scenario,variant,metric,estimate,ci_low,ci_high,trials,seed\n\
             s,a,mean_one,2.0,,,1,3\n\
             s,a,mean_none,,,,1,3\n\
             s,a,p_x,0.5,0.25,0.75,1,3\n"
        );
    }
}
