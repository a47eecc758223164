//! The charts of a parameter scan (`--scan`, `[scan]`): one chart per
//! headline metric against the first scanned key, one curve per base
//! variant (and per value of the other scanned keys), with interval bands.
//! They replace a scanned scenario's per-variant charts, which would hold
//! one bar per scanned value. A scan whose first key has values that are
//! not numbers keeps the type's own charts (there is no x axis to draw).
//!
//! Headline metrics: every metric of the first variant except paired
//! differences (`_diff`), quantiles (`q50_...`), the per-item lists the
//! table shortens (the 23 injury-table entries) and metrics that are the
//! same in every variant of each base variant (a flat line says nothing);
//! where the type names its headline metrics
//! ([`ScenarioResult::headline`]), only those; at most
//! [`MAX_SCAN_CHARTS`], in figure order.

use crate::results::{ChartSpec, Kind, LinePoints, ScanTable, ScenarioResult};

/// Most charts a scan draws.
pub const MAX_SCAN_CHARTS: usize = 24;

/// The metrics a scan charts, in figure order.
pub fn headline_metrics(result: &ScenarioResult) -> Vec<String> {
    let Some(first) = result.variants.first() else {
        return Vec::new();
    };
    let listed = |m: &str| {
        result
            .item_rows
            .iter()
            .any(|l| l.metrics.iter().flatten().any(|x| x == m))
    };
    let mut out: Vec<String> = Vec::new();
    for f in result.figures.iter().filter(|f| &f.variant == first) {
        let m = f.metric.as_str();
        let skipped = matches!(f.kind, Kind::Difference | Kind::Quantile);
        if skipped || listed(m) || out.iter().any(|o| o == m) {
            continue;
        }
        if result
            .headline
            .as_ref()
            .is_some_and(|h| !h.iter().any(|x| x == m))
        {
            continue;
        }
        if flat(result, m) {
            continue;
        }
        out.push(m.to_string());
        if out.len() == MAX_SCAN_CHARTS {
            break;
        }
    }
    out
}

/// Whether `metric` has one value along every curve of the scan (the same
/// in every variant of each base variant): a flat line says nothing.
fn flat(result: &ScenarioResult, metric: &str) -> bool {
    let value = |v: &str| result.figure(v, metric).map(|f| f.estimate.value.to_bits());
    let Some(scan) = &result.scan else {
        return true;
    };
    scan.rows.iter().all(|row| {
        let first = scan.rows.iter().find(|r| r.base == row.base);
        first.is_none_or(|f| value(&f.variant) == value(&row.variant))
    })
}

/// A chart file stem from a metric name: `scan-p_pc_death`.
fn file_of(metric: &str) -> String {
    format!("scan-{metric}")
}

/// The curves of a scan: `(label, points (x, variant))`, and whether they
/// are ordered values of a second key (a sequential palette).
#[allow(clippy::type_complexity)]
fn curves(scan: &ScanTable) -> Option<(Vec<(String, Vec<(f64, String)>)>, bool)> {
    let mut curves: Vec<(String, Vec<(f64, String)>)> = Vec::new();
    let bases: Vec<&str> = {
        let mut b: Vec<&str> = Vec::new();
        for r in &scan.rows {
            if !b.contains(&r.base.as_str()) {
                b.push(&r.base);
            }
        }
        b
    };
    for row in &scan.rows {
        let x = row.values.first()?.1?;
        let rest: Vec<String> = scan
            .keys
            .iter()
            .zip(&row.values)
            .skip(1)
            .map(|(k, (label, _))| format!("{k} = {label}"))
            .collect();
        let label = match (bases.len(), rest.is_empty()) {
            (_, true) => row.base.clone(),
            (1, false) => rest.join(", "),
            _ => format!("{}, {}", row.base, rest.join(", ")),
        };
        match curves.iter_mut().find(|(l, _)| *l == label) {
            Some((_, pts)) => pts.push((x, row.variant.clone())),
            None => curves.push((label, vec![(x, row.variant.clone())])),
        }
    }
    // Curves of a second key's numeric values are ordered: dark to light.
    let ordered = bases.len() == 1
        && scan.keys.len() == 2
        && scan
            .rows
            .iter()
            .all(|r| r.values.get(1).is_some_and(|v| v.1.is_some()));
    Some((curves, ordered))
}

/// The scan's charts of `result`, or `None` to keep the type's own (no
/// scan, or a first key whose values are not numbers).
pub fn charts(result: &ScenarioResult) -> Option<Vec<ChartSpec>> {
    let scan = result.scan.as_ref()?;
    let (curves, ordered) = curves(scan)?;
    let key = scan.keys.first()?;
    let how = if result.is_exact() {
        "exact".to_string()
    } else {
        format!(
            "{} trials per variant",
            crate::results::thousands(result.trials)
        )
    };
    let (labels, series): (Vec<String>, Vec<Vec<(f64, String)>>) = curves.into_iter().unzip();
    Some(
        headline_metrics(result)
            .into_iter()
            .map(|metric| {
                let percent = result
                    .figures
                    .iter()
                    .any(|f| f.metric == metric && f.kind == Kind::Proportion);
                ChartSpec::Lines {
                    file: file_of(&metric),
                    title: format!("{}: {metric} against {key} ({how})", result.scenario),
                    x_label: format!("{key} (scanned value)"),
                    y_label: if percent {
                        format!("{metric} (%)")
                    } else {
                        metric.clone()
                    },
                    variants: labels.clone(),
                    points: LinePoints::Scan {
                        metric,
                        series: series.clone(),
                        sequential: ordered,
                    },
                    percent,
                }
            })
            .collect(),
    )
}
