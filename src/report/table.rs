//! The human-readable table printed on stdout: one block per scenario, one
//! row per metric, one column per variant. Proportions are shown in percent;
//! every Monte Carlo figure carries its interval.
//!
//! A long per-item list of figures ([`ItemRows`], e.g. five metrics for each
//! of the 23 injury-table entries) is shortened to the items ranked first,
//! with a line saying how many more are in `summary.csv`; the headline
//! metrics are always printed in full.

use std::fmt::Write;
use std::path::Path;

use crate::engine::stats::Estimate;
use crate::results::{ItemRows, ScenarioResult};

fn is_proportion(metric: &str) -> bool {
    metric.starts_with("p_")
}

/// One figure as printed; an undefined value or interval (NaN) reads `n/a`.
fn cell(metric: &str, e: &Estimate, exact: bool) -> String {
    let (scale, digits, unit) = if is_proportion(metric) {
        (100.0, 2, "%")
    } else {
        (1.0, 3, "")
    };
    let v = e.value * scale;
    if v.is_nan() {
        return "n/a".into();
    }
    let value = if exact {
        format!("{v:.prec$}{unit}", prec = digits + 2)
    } else {
        format!("{v:.prec$}{unit}", prec = digits)
    };
    if exact {
        value
    } else if e.has_interval() {
        format!(
            "{value} ({:.prec$}..{:.prec$})",
            e.low * scale,
            e.high * scale,
            prec = digits
        )
    } else {
        format!("{value} (n/a)")
    }
}

/// One printed line of the block: a row of cells, or a note across them.
enum Line {
    Cells(Vec<String>),
    Note(String),
}

/// The items of `list` to print, ranked (their indices), and the count of
/// metrics (rows) of those left out. Items with no figure are skipped.
fn pick(result: &ScenarioResult, list: &ItemRows, present: &[&str]) -> (Vec<usize>, usize, usize) {
    let baseline = ranking_variant(result, list);
    let rows_of = |i: usize| {
        list.metrics[i]
            .iter()
            .filter(|m| present.contains(&m.as_str()))
            .count()
    };
    let mut ranked: Vec<(usize, f64)> = (0..list.metrics.len())
        .filter(|&i| rows_of(i) > 0)
        .map(|i| {
            let key = list.metrics[i]
                .first()
                .and_then(|m| result.figure(baseline, m))
                .map_or(f64::NEG_INFINITY, |f| f.estimate.value);
            (i, if key.is_nan() { f64::NEG_INFINITY } else { key })
        })
        .collect();
    // Stable: ties keep table order.
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    let shown: Vec<usize> = ranked.iter().take(list.shown).map(|r| r.0).collect();
    let hidden_items = ranked.len() - shown.len();
    let hidden_rows = ranked.iter().skip(list.shown).map(|r| rows_of(r.0)).sum();
    (shown, hidden_items, hidden_rows)
}

/// The variant whose figures rank a list's items: the first one in which
/// any of them is above zero (a rule-set comparison often starts with a
/// variant that has the rule, and so the items, turned off).
fn ranking_variant<'a>(result: &'a ScenarioResult, list: &ItemRows) -> &'a str {
    result
        .variants
        .iter()
        .find(|v| {
            list.metrics
                .iter()
                .filter_map(|m| m.first())
                .any(|m| result.figure(v, m).is_some_and(|f| f.estimate.value > 0.0))
        })
        .or(result.variants.first())
        .map_or("", String::as_str)
}

/// Renders the table of one result; `summary` is where the full set of
/// figures is written (named where the table leaves rows out).
pub fn render(result: &ScenarioResult, summary: &Path) -> String {
    let exact = result.is_exact();
    let mut metrics: Vec<&str> = Vec::new();
    for f in &result.figures {
        if !metrics.contains(&f.metric.as_str()) {
            metrics.push(&f.metric);
        }
    }
    let row = |metric: &str| {
        let mut cells = vec![metric.to_string()];
        for variant in &result.variants {
            cells.push(match result.figure(variant, metric) {
                Some(f) => cell(metric, &f.estimate, exact),
                None => "-".into(),
            });
        }
        Line::Cells(cells)
    };
    let in_a_list = |m: &str| {
        result
            .item_rows
            .iter()
            .any(|l| l.metrics.iter().flatten().any(|x| x == m))
    };
    let header = std::iter::once("metric".to_string())
        .chain(result.variants.iter().cloned())
        .collect();
    let mut lines = vec![Line::Cells(header)];
    lines.extend(metrics.iter().filter(|m| !in_a_list(m)).map(|m| row(m)));
    let baseline = result.variants.first().map_or("", String::as_str);
    for list in &result.item_rows {
        let ranked_for = ranking_variant(result, list);
        let (shown, hidden_items, hidden_rows) = pick(result, list, &metrics);
        if shown.is_empty() {
            continue;
        }
        let total = shown.len() + hidden_items;
        lines.push(Line::Note(if hidden_items == 0 {
            format!("{} ({total}):", list.items)
        } else {
            format!(
                "{}: the {} of {total} with the highest {} for `{ranked_for}`:",
                list.items,
                shown.len(),
                list.ranked_by
            )
        }));
        for &i in &shown {
            lines.extend(
                list.metrics[i]
                    .iter()
                    .filter(|m| metrics.contains(&m.as_str()))
                    .map(|m| row(m)),
            );
        }
        if hidden_items > 0 {
            lines.push(Line::Note(format!(
                "... {hidden_items} more {} ({hidden_rows} metrics) in {}",
                list.items,
                summary.display()
            )));
        }
    }
    let columns = result.variants.len() + 1;
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            lines
                .iter()
                .filter_map(|l| match l {
                    Line::Cells(cells) => Some(cells[c].chars().count()),
                    Line::Note(_) => None,
                })
                .max()
                .unwrap_or(0)
        })
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
    for line in &lines {
        match line {
            Line::Note(text) => {
                let _ = writeln!(out, "   {text}");
            }
            Line::Cells(cells) => {
                let line: Vec<String> = cells
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
        }
    }
    let _ = writeln!(
        out,
        "   p_* in percent; *_diff = variant minus `{baseline}` on the same random rolls",
    );
    out
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::render;
    use crate::engine::stats::Estimate;
    use crate::model::ScenarioHeader;
    use crate::results::{Figure, ItemRows, ScenarioResult};

    /// An exact result of two variants: a headline metric and a list of
    /// `items` items with two metrics each (`p_item_<k>`, `mean_cost_<k>`);
    /// item `k` has probability `k / 100`, so the last items rank first.
    fn result(items: usize, shown: usize) -> ScenarioResult {
        let header = ScenarioHeader {
            name: "s".into(),
            description: "a test".into(),
            trials: 0,
            seed: 0,
            confidence: 0.95,
        };
        let variants = vec!["base".to_string(), "other".to_string()];
        let mut figures = Vec::new();
        for v in &variants {
            let mut push = |metric: String, value: f64| {
                figures.push(Figure {
                    variant: v.clone(),
                    metric,
                    estimate: Estimate::exact(value),
                })
            };
            push("p_headline".into(), 0.5);
            for k in 0..items {
                push(format!("p_item_{k}"), k as f64 / 100.0);
                push(format!("mean_cost_{k}"), 10.0 * k as f64);
            }
        }
        ScenarioResult {
            figures,
            item_rows: vec![ItemRows {
                items: "table entries".into(),
                ranked_by: "probability".into(),
                metrics: (0..items)
                    .map(|k| vec![format!("p_item_{k}"), format!("mean_cost_{k}")])
                    .collect(),
                shown,
            }],
            ..ScenarioResult::for_header(&header, variants)
        }
    }

    #[test]
    fn long_item_lists_show_the_top_items_and_count_the_rest() {
        let text = render(&result(23, 5), Path::new("out/summary.csv"));
        assert!(text.contains("\np_headline "), "{text}");
        // The five most probable items, highest first, each with its rows.
        let order: Vec<&str> = text
            .lines()
            .filter_map(|l| l.split_whitespace().next())
            .filter(|m| m.starts_with("p_item_") || m.starts_with("mean_cost_"))
            .collect();
        let expected: Vec<String> = (18..23)
            .rev()
            .flat_map(|k| [format!("p_item_{k}"), format!("mean_cost_{k}")])
            .collect();
        assert_eq!(order, expected, "{text}");
        assert!(
            text.contains(
                "   table entries: the 5 of 23 with the highest probability for `base`:\n"
            ),
            "{text}"
        );
        assert!(
            text.contains("   ... 18 more table entries (36 metrics) in out/summary.csv\n"),
            "{text}"
        );
        // Header, description, column row, headline, list note, 10 item rows, note, footer.
        assert_eq!(text.lines().count(), 17, "{text}");
    }

    #[test]
    fn short_item_lists_are_printed_in_full() {
        let text = render(&result(3, 5), Path::new("summary.csv"));
        assert!(text.contains("   table entries (3):\n"), "{text}");
        assert!(!text.contains("more table entries"), "{text}");
        for k in 0..3 {
            assert!(text.contains(&format!("\np_item_{k} ")), "{text}");
        }
    }

    #[test]
    fn undefined_values_and_intervals_read_n_a() {
        let nan = f64::NAN;
        let one = Estimate {
            value: 2.0,
            low: nan,
            high: nan,
        };
        assert_eq!(super::cell("mean_rolls", &one, false), "2.000 (n/a)");
        let none = Estimate {
            value: nan,
            low: nan,
            high: nan,
        };
        assert_eq!(super::cell("mean_rolls", &none, false), "n/a");
        assert_eq!(super::cell("mean_rolls", &none, true), "n/a");
        let p = Estimate {
            value: 0.5,
            low: 0.25,
            high: 0.75,
        };
        assert_eq!(super::cell("p_dead", &p, false), "50.00% (25.00..75.00)");
    }

    #[test]
    fn results_without_item_lists_print_every_metric_in_order() {
        let mut r = result(23, 5);
        r.item_rows.clear();
        let text = render(&r, Path::new("summary.csv"));
        assert_eq!(text.lines().count(), 3 + 1 + 46 + 1, "{text}");
        assert!(text.contains("\np_item_0 ") && text.contains("\nmean_cost_22 "));
        assert!(!text.contains("summary.csv"), "{text}");
    }
}
