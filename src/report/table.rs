//! The human-readable table printed on stdout: one block per scenario, one
//! row per metric, one column per variant. Proportions are shown in percent;
//! every Monte Carlo figure carries its interval.

use std::fmt::Write;

use crate::engine::stats::Estimate;
use crate::results::ScenarioResult;

fn is_proportion(metric: &str) -> bool {
    metric.starts_with("p_")
}

fn cell(metric: &str, e: &Estimate, exact: bool) -> String {
    let (scale, digits, unit) = if is_proportion(metric) {
        (100.0, 2, "%")
    } else {
        (1.0, 3, "")
    };
    let v = e.value * scale;
    if exact {
        format!("{v:.prec$}{unit}", prec = digits + 2)
    } else {
        format!(
            "{v:.prec$}{unit} ({:.prec$}..{:.prec$})",
            e.low * scale,
            e.high * scale,
            prec = digits
        )
    }
}

/// Renders the table of one result.
pub fn render(result: &ScenarioResult) -> String {
    let exact = result.is_exact();
    let mut metrics: Vec<&str> = Vec::new();
    for f in &result.figures {
        if !metrics.contains(&f.metric.as_str()) {
            metrics.push(&f.metric);
        }
    }
    let mut rows: Vec<Vec<String>> = vec![
        std::iter::once("metric".to_string())
            .chain(result.variants.iter().cloned())
            .collect(),
    ];
    for metric in &metrics {
        let mut row = vec![metric.to_string()];
        for variant in &result.variants {
            row.push(match result.figure(variant, metric) {
                Some(f) => cell(metric, &f.estimate, exact),
                None => "-".into(),
            });
        }
        rows.push(row);
    }
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    let how = if exact {
        "exact".to_string()
    } else {
        format!(
            "{} trials per variant, seed {}, {}% intervals",
            result.trials,
            result.seed,
            result.confidence * 100.0
        )
    };
    let _ = writeln!(out, "== {} ({how})", result.scenario);
    if !result.description.is_empty() {
        let _ = writeln!(out, "   {}", result.description);
    }
    for row in &rows {
        let line: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (text, w))| {
                if i == 0 {
                    format!("{text:<w$}")
                } else {
                    format!("{text:>w$}")
                }
            })
            .collect();
        let _ = writeln!(out, "{}", line.join("  ").trim_end());
    }
    let _ = writeln!(
        out,
        "   p_* in percent; *_diff = variant minus `{}` on the same random rolls",
        result.variants.first().map_or("", String::as_str)
    );
    out
}
