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

/// The metrics a scan would chart, in figure order, before the cap of
/// [`MAX_SCAN_CHARTS`].
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
    // Each key's values as the legend shows them: a list only where the
    // values differ.
    let shown: Vec<Vec<(String, String)>> = (0..scan.keys.len())
        .map(|i| {
            let mut labels: Vec<String> = Vec::new();
            for r in &scan.rows {
                if let Some((l, _)) = r.values.get(i) {
                    if !labels.contains(l) {
                        labels.push(l.clone());
                    }
                }
            }
            let parts = differing(&labels);
            labels.into_iter().zip(parts).collect()
        })
        .collect();
    for row in &scan.rows {
        let x = row.values.first()?.1?;
        let rest: Vec<String> = scan
            .keys
            .iter()
            .zip(&row.values)
            .zip(&shown)
            .skip(1)
            .map(|((k, (label, _)), shown)| {
                let part = shown
                    .iter()
                    .find(|(l, _)| l == label)
                    .map_or(label, |(_, p)| p);
                format!("{k} = {part}")
            })
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

/// List values (`[a, b, c]`) shortened to the items where they differ
/// from each other (`[…, b, …]`), for a legend; other values as they are.
///
/// ```
/// use woundsim::types::scan::differing;
/// let values = ["[fighter-5, cleric-5, rogue-5]".to_string(), "[fighter-5, wizard-5, rogue-5]".to_string()];
/// assert_eq!(differing(&values), ["[…, cleric-5, …]", "[…, wizard-5, …]"]);
/// assert_eq!(differing(&["1".to_string(), "2".to_string()]), ["1", "2"]);
/// // Items are split at commas outside braces and quotes, as a scan writes tables.
/// let tables = ["[{t=\"a\"},{t=\"b, c\"}]".to_string(), "[{t=\"a\"},{t=\"d\"}]".to_string()];
/// assert_eq!(differing(&tables), ["[…, {t=\"b, c\"}]", "[…, {t=\"d\"}]"]);
/// ```
pub fn differing(values: &[String]) -> Vec<String> {
    let items = |v: &str| -> Option<Vec<String>> {
        let inner = v.strip_prefix('[')?.strip_suffix(']')?;
        Some(top_level_items(inner))
    };
    let Some(lists) = values.iter().map(|v| items(v)).collect::<Option<Vec<_>>>() else {
        return values.to_vec();
    };
    if lists.len() < 2 {
        return values.to_vec();
    }
    let shortest = lists.iter().map(Vec::len).min().unwrap_or(0);
    let same = |at: &dyn Fn(&Vec<String>) -> &String| lists.iter().all(|l| at(l) == at(&lists[0]));
    let head = (0..shortest).take_while(|&i| same(&|l| &l[i])).count();
    let tail = (0..shortest - head)
        .take_while(|&i| same(&|l| &l[l.len() - 1 - i]))
        .count();
    if head + tail == 0 {
        return values.to_vec();
    }
    lists
        .iter()
        .map(|l| {
            let mut parts: Vec<&str> = Vec::new();
            if head > 0 {
                parts.push("…");
            }
            parts.extend(l[head..l.len() - tail].iter().map(String::as_str));
            if tail > 0 {
                parts.push("…");
            }
            format!("[{}]", parts.join(", "))
        })
        .collect()
}

/// The items of a list's inside, split at the commas outside brackets,
/// braces and quotes (`{template="a"},{template="b"}` is two items), each
/// trimmed.
fn top_level_items(inner: &str) -> Vec<String> {
    let mut items = Vec::new();
    let (mut depth, mut quote, mut start) = (0usize, None, 0);
    let mut chars = inner.char_indices();
    while let Some((i, c)) = chars.next() {
        match (quote, c) {
            (Some(_), '\\') => {
                chars.next();
            }
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '[' | '{') => depth += 1,
            (None, ']' | '}') => depth = depth.saturating_sub(1),
            (None, ',') if depth == 0 => {
                items.push(inner[start..i].trim().to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(inner[start..].trim().to_string());
    items
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
    let mut metrics = headline_metrics(result);
    // A capped scan says so in each chart's note (a title that long would
    // run off the canvas): the others are in scan.csv.
    let capped = match metrics.len() {
        n if n > MAX_SCAN_CHARTS => {
            format!("{MAX_SCAN_CHARTS} of {n} metrics charted; all are in scan.csv.")
        }
        _ => String::new(),
    };
    metrics.truncate(MAX_SCAN_CHARTS);
    Some(
        metrics
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
                        note: capped.clone(),
                    },
                    percent,
                }
            })
            .collect(),
    )
}
