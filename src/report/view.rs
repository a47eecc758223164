//! What the human-readable reports (the stdout table, Markdown, the HTML
//! report) show of a result, decided once for all of them: which variants
//! and metrics (`--variants`, `--metrics`), each figure as text, which
//! rows are folded away for being 0 in every variant, and which items of a
//! long per-item list ([`ItemRows`]) are shown, in what order.
//!
//! Items are ranked by their exact odds where the result gives them (an
//! injury-table entry's d100 range, the same for every variant), so
//! entries of equal true probability keep table order instead of being
//! ordered by noise; otherwise by their first metric's estimate averaged
//! over the variants (every variant runs the same number of trials, so the
//! average is the pooled share).

use crate::engine::stats::Estimate;
use crate::report::glob::Filter;
use crate::results::{Figure, ItemRows, Kind, ScenarioResult};

/// The reader's choice of figures: `None` shows every one.
#[derive(Clone, Debug, Default)]
pub struct View {
    /// `--metrics`: only the metrics it matches. Asking for metrics also
    /// shows them when they are 0 in every variant, and shows every
    /// matching item of a per-item list.
    pub metrics: Option<Filter>,
    /// `--variants`: only the variants it matches.
    pub variants: Option<Filter>,
}

/// How many items of a per-item list to show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Items {
    /// The list's own count ([`ItemRows::shown`]), top-ranked first.
    Shortened,
    /// Every item, ranked (the HTML report).
    All,
}

/// One figure as the reports print it.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// The estimate (`40.69%`, `3.636`), `n/a` where undefined, or the
    /// reason it is not available.
    pub value: String,
    /// The interval (`40.32..41.05`), `n/a` where undefined; `None` for
    /// exact figures and figures that are not available.
    pub interval: Option<String>,
    /// The value is a reason ("no cure available"), not a number.
    pub not_available: bool,
}

impl Cell {
    /// The cell on one line: `40.69% (40.32..41.05)`.
    pub fn text(&self) -> String {
        match &self.interval {
            Some(interval) => format!("{} ({interval})", self.value),
            None => self.value.clone(),
        }
    }
}

/// One metric across the shown variants (`None` where a variant has no
/// such figure, e.g. the baseline's `_diff`).
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Metric name.
    pub metric: String,
    /// Its kind (`None`: a constant of each variant, not a figure).
    pub kind: Option<Kind>,
    /// One cell per shown variant.
    pub cells: Vec<Option<Cell>>,
}

/// A per-item list as shown: a heading, the shown items' rows, and a line
/// naming what was left out.
#[derive(Clone, Debug, PartialEq)]
pub struct ItemBlock {
    /// E.g. `injury-table entries: the 5 of 23 most likely (...)`.
    pub heading: String,
    /// The rows of the shown items, ranked.
    pub rows: Vec<Row>,
    /// How many items (and metrics) were left out, if any.
    pub more: Option<(usize, usize)>,
    /// What the items are, plural.
    pub items: String,
    /// How many items the list has rows for, shown or not.
    pub total: usize,
}

/// What a report shows of one result.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// The shown variants, in scenario order.
    pub variants: Vec<String>,
    /// The headline rows, in figure order.
    pub rows: Vec<Row>,
    /// The per-item lists that have rows to show.
    pub lists: Vec<ItemBlock>,
    /// Metrics left out for being 0 in every shown variant.
    pub folded: Vec<String>,
    /// Metrics left out for not being among the type's headline metrics
    /// ([`ScenarioResult::headline`]): in `summary.csv`, the charts and
    /// the HTML report's folded table.
    pub hidden: usize,
    /// The baseline of `_diff` metrics (the first variant, shown or not).
    pub baseline: String,
    /// The first rows that are constants of each variant (a
    /// [`crate::results::ConstantTable`]'s shown columns), not figures:
    /// `(row name, the table's file stem)`.
    pub constants: Vec<(String, String)>,
}

/// Whether a figure reads in percent: a proportion, or the paired
/// difference of one.
fn in_percent(result: &ScenarioResult, f: &Figure) -> bool {
    match f.kind {
        Kind::Proportion => true,
        Kind::Difference => f
            .metric
            .strip_suffix("_diff")
            .and_then(|base| result.figures.iter().find(|g| g.metric == base))
            .is_some_and(|g| g.kind == Kind::Proportion),
        _ => false,
    }
}

/// One figure as printed (in percent where `percent`); an undefined value
/// or interval (NaN) reads `n/a`.
pub fn cell(percent: bool, e: &Estimate, exact: bool) -> Cell {
    let (scale, digits, unit) = if percent {
        (100.0, 2, "%")
    } else {
        (1.0, 3, "")
    };
    let v = e.value * scale;
    if v.is_nan() {
        return Cell {
            value: "n/a".into(),
            interval: None,
            not_available: false,
        };
    }
    let prec = if exact { digits + 2 } else { digits };
    let value = format!("{v:.prec$}{unit}");
    let interval = if exact {
        None
    } else if e.has_interval() {
        Some(format!(
            "{:.digits$}..{:.digits$}",
            e.low * scale,
            e.high * scale
        ))
    } else {
        Some("n/a".into())
    };
    Cell {
        value,
        interval,
        not_available: false,
    }
}

/// Whether a row has nothing but zeros: every shown variant's figure is
/// missing or exactly 0, and at least one is there.
fn all_zero(result: &ScenarioResult, variants: &[String], metric: &str) -> bool {
    let figures: Vec<f64> = variants
        .iter()
        .filter_map(|v| result.figure(v, metric))
        .map(|f| f.estimate.value)
        .collect();
    !figures.is_empty()
        && figures.iter().all(|&x| x == 0.0)
        && variants
            .iter()
            .all(|v| result.not_available(v, metric).is_none())
}

/// The order in which to show the items of `list` (indices), best first:
/// by [`ItemRows::odds`] if given, else by the first metric averaged over
/// every variant that has it; ties (and items with neither) keep table
/// order.
pub fn rank(result: &ScenarioResult, list: &ItemRows) -> Vec<usize> {
    let key = |i: usize| -> f64 {
        if let Some(odds) = &list.odds {
            return odds.get(i).copied().unwrap_or(f64::NEG_INFINITY);
        }
        let Some(metric) = list.metrics[i].first() else {
            return f64::NEG_INFINITY;
        };
        let values: Vec<f64> = result
            .variants
            .iter()
            .filter_map(|v| result.figure(v, metric))
            .map(|f| f.estimate.value)
            .filter(|x| x.is_finite())
            .collect();
        if values.is_empty() {
            f64::NEG_INFINITY
        } else {
            values.iter().sum::<f64>() / values.len() as f64
        }
    };
    let mut order: Vec<(usize, f64)> = (0..list.metrics.len()).map(|i| (i, key(i))).collect();
    // Stable: ties keep table order.
    order.sort_by(|a, b| b.1.total_cmp(&a.1));
    order.into_iter().map(|(i, _)| i).collect()
}

/// The shown columns of the result's constant tables, as rows (an empty
/// cell reads `n/a`) with their table's file stem, filtered by
/// `--metrics` like figures.
fn constant_rows(result: &ScenarioResult, view: &View, variants: &[String]) -> Vec<(Row, String)> {
    let mut rows = Vec::new();
    for table in &result.tables {
        for name in &table.shown {
            let Some(k) = table.columns.iter().position(|c| c == name) else {
                continue;
            };
            if view.metrics.as_ref().is_some_and(|m| !m.matches(name)) {
                continue;
            }
            let cells = variants
                .iter()
                .map(|v| {
                    let row = table.rows.iter().find(|r| r.first() == Some(v))?;
                    let value = row.get(k).filter(|c| !c.is_empty());
                    Some(Cell {
                        value: value.map_or("n/a".into(), Clone::clone),
                        interval: None,
                        not_available: false,
                    })
                })
                .collect();
            rows.push((
                Row {
                    metric: name.clone(),
                    kind: None,
                    cells,
                },
                table.file.clone(),
            ));
        }
    }
    rows
}

/// What to show of `result`.
pub fn block(result: &ScenarioResult, view: &View, items: Items) -> Block {
    let exact = result.is_exact();
    let variants: Vec<String> = result
        .variants
        .iter()
        .filter(|v| view.variants.as_ref().is_none_or(|f| f.matches(v)))
        .cloned()
        .collect();
    let asked = view.metrics.is_some();
    // The type's headline metrics unless the reader asked for some.
    let headline = |m: &str| {
        asked
            || result
                .headline
                .as_ref()
                .is_none_or(|h| h.iter().any(|x| x == m))
    };
    let mut metrics: Vec<&str> = Vec::new();
    let mut hidden: Vec<&str> = Vec::new();
    for f in &result.figures {
        if metrics.contains(&f.metric.as_str()) || hidden.contains(&f.metric.as_str()) {
            continue;
        }
        if !view.metrics.as_ref().is_none_or(|m| m.matches(&f.metric)) {
            continue;
        }
        if headline(&f.metric) {
            metrics.push(&f.metric);
        } else {
            hidden.push(&f.metric);
        }
    }
    let mut folded = Vec::new();
    let mut row = |metric: &str| -> Option<Row> {
        if !asked && all_zero(result, &variants, metric) {
            folded.push(metric.to_string());
            return None;
        }
        let cells = variants
            .iter()
            .map(|v| {
                if let Some(reason) = result.not_available(v, metric) {
                    return Some(Cell {
                        value: reason.to_string(),
                        interval: None,
                        not_available: true,
                    });
                }
                result
                    .figure(v, metric)
                    .map(|f| cell(in_percent(result, f), &f.estimate, exact))
            })
            .collect();
        Some(Row {
            metric: metric.to_string(),
            kind: result
                .figures
                .iter()
                .find(|f| f.metric == metric)
                .map(|f| f.kind),
            cells,
        })
    };
    let in_a_list = |m: &str| {
        result
            .item_rows
            .iter()
            .any(|l| l.metrics.iter().flatten().any(|x| x == m))
    };
    let (mut rows, files): (Vec<Row>, Vec<String>) =
        constant_rows(result, view, &variants).into_iter().unzip();
    let constants = rows.iter().map(|r| r.metric.clone()).zip(files).collect();
    rows.extend(
        metrics
            .iter()
            .filter(|m| !in_a_list(m))
            .filter_map(|m| row(m)),
    );
    let mut lists = Vec::new();
    for list in &result.item_rows {
        let present = |i: usize| {
            list.metrics[i]
                .iter()
                .any(|m| metrics.contains(&m.as_str()))
        };
        let ranked: Vec<usize> = rank(result, list)
            .into_iter()
            .filter(|&i| present(i))
            .collect();
        if ranked.is_empty() {
            continue;
        }
        let shown = match items {
            Items::All => ranked.len(),
            Items::Shortened if asked => ranked.len(),
            Items::Shortened => list.shown.min(ranked.len()),
        };
        let metrics_of = |i: usize| {
            list.metrics[i]
                .iter()
                .filter(|m| metrics.contains(&m.as_str()))
                .count()
        };
        let hidden_rows: usize = ranked[shown..].iter().map(|&i| metrics_of(i)).sum();
        let total = ranked.len();
        let order = if list.odds.is_some() {
            "ranked by their exact odds; equal odds in table order"
        } else {
            "ranked by the mean over the variants"
        };
        let heading = if shown == total {
            format!("{} ({total}, {order}):", list.items)
        } else {
            format!(
                "{}: the {shown} of {total} with the highest {} ({order}):",
                list.items, list.ranked_by
            )
        };
        let mut item_rows = Vec::new();
        for &i in &ranked[..shown] {
            for m in &list.metrics[i] {
                if metrics.contains(&m.as_str()) {
                    item_rows.extend(row(m));
                }
            }
        }
        lists.push(ItemBlock {
            heading,
            rows: item_rows,
            more: (shown < total).then_some((total - shown, hidden_rows)),
            items: list.items.clone(),
            total,
        });
    }
    Block {
        constants,
        variants,
        rows,
        lists,
        folded,
        hidden: hidden.len(),
        baseline: result.variants.first().cloned().unwrap_or_default(),
    }
}

/// How the figures were made, for headers: `exact`, or `69,632 trials per
/// variant, seed 5, 95% intervals`.
pub fn how(result: &ScenarioResult) -> String {
    if result.is_exact() {
        "exact".to_string()
    } else {
        format!(
            "{} trials per variant, seed {}, {}% intervals",
            crate::results::thousands(result.trials),
            result.seed,
            result.confidence * 100.0
        )
    }
}

/// The note on the metrics `block` leaves out for not being headline
/// metrics, if any: where they are and how to print them.
pub fn hidden_note(block: &Block, summary: &std::path::Path) -> Option<String> {
    (block.hidden > 0).then(|| {
        let index = summary.with_file_name("index.html");
        format!(
            "{} more figures in {} and {} (charts, a folded table); --metrics GLOB prints them",
            block.hidden,
            summary.display(),
            index.display()
        )
    })
}

/// The note on the constant rows of `block`, if any: ``encounter_xp`,
/// `difficulty`: constants of each variant, not simulated (every column in
/// encounter.csv)`.
pub fn constants_note(block: &Block) -> Option<String> {
    let (names, files): (Vec<&str>, Vec<&str>) = block
        .constants
        .iter()
        .map(|(n, f)| (n.as_str(), f.as_str()))
        .unzip();
    if names.is_empty() {
        return None;
    }
    let mut files = files;
    files.dedup();
    let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    let files: Vec<String> = files.iter().map(|f| format!("{f}.csv")).collect();
    Some(format!(
        "{}: constants of each variant, not simulated (every column in {})",
        names.join(", "),
        files.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::{Items, View, block, cell, rank};
    use crate::engine::stats::Estimate;
    use crate::model::ScenarioHeader;
    use crate::report::glob::Filter;
    use crate::results::{Figure, ItemRows, ScenarioResult};

    /// Monte Carlo figures of variants `a`, `b`: `p_x` varies, `p_zero` is
    /// 0 in both, `mean_y` is defined.
    fn result() -> ScenarioResult {
        let header = ScenarioHeader {
            name: "s".into(),
            description: String::new(),
            trials: 1000,
            seed: 1,
            confidence: 0.95,
        };
        let mut figures = Vec::new();
        for (v, x) in [("a", 0.5), ("b", 0.25)] {
            for (metric, value) in [("p_x", x), ("p_zero", 0.0), ("mean_y", 2.0)] {
                figures.push(Figure {
                    kind: crate::results::fixture_kind(metric),
                    variant: v.into(),
                    metric: metric.into(),
                    estimate: Estimate {
                        value,
                        low: value / 2.0,
                        high: value * 1.5,
                    },
                    trials: None,
                    unit: crate::results::Unit::Share,
                });
            }
        }
        ScenarioResult {
            figures,
            ..ScenarioResult::for_header(&header, vec!["a".into(), "b".into()])
        }
    }

    #[test]
    fn rows_zero_in_every_variant_are_folded_unless_asked_for() {
        let b = block(&result(), &View::default(), Items::Shortened);
        let metrics: Vec<&str> = b.rows.iter().map(|r| r.metric.as_str()).collect();
        assert_eq!(metrics, ["p_x", "mean_y"]);
        assert_eq!(b.folded, ["p_zero"]);
        let asked = View {
            metrics: Some(Filter::new(&["p_*"])),
            variants: None,
        };
        let b = block(&result(), &asked, Items::Shortened);
        let metrics: Vec<&str> = b.rows.iter().map(|r| r.metric.as_str()).collect();
        assert_eq!(metrics, ["p_x", "p_zero"]);
        assert!(b.folded.is_empty());
    }

    #[test]
    fn only_the_headline_metrics_show_unless_metrics_are_asked_for() {
        let mut r = result();
        r.headline = Some(vec!["mean_y".into()]);
        let b = block(&r, &View::default(), Items::Shortened);
        let metrics: Vec<&str> = b.rows.iter().map(|r| r.metric.as_str()).collect();
        assert_eq!(metrics, ["mean_y"]);
        assert_eq!(b.hidden, 2, "p_x and p_zero left out");
        assert!(b.folded.is_empty());
        let note = super::hidden_note(&b, std::path::Path::new("d/summary.csv")).unwrap();
        assert!(note.starts_with("2 more figures in d/summary.csv and d/index.html"));
        let asked = View {
            metrics: Some(Filter::new(&["p_*"])),
            variants: None,
        };
        let b = block(&r, &asked, Items::Shortened);
        let metrics: Vec<&str> = b.rows.iter().map(|r| r.metric.as_str()).collect();
        assert_eq!(metrics, ["p_x", "p_zero"]);
        assert_eq!(b.hidden, 0);
    }

    #[test]
    fn a_row_is_folded_only_if_zero_in_every_shown_variant() {
        let mut r = result();
        r.figures[1].estimate.value = 0.001;
        let b = block(&r, &View::default(), Items::Shortened);
        assert!(b.rows.iter().any(|row| row.metric == "p_zero"));
        // Showing only `b`, where it is 0, folds it again.
        let only_b = View {
            metrics: None,
            variants: Some(Filter::new(&["b"])),
        };
        let b = block(&r, &only_b, Items::Shortened);
        assert_eq!(b.variants, ["b"]);
        assert_eq!(b.folded, ["p_zero"]);
        assert_eq!(b.baseline, "a", "the baseline stays the first variant");
    }

    #[test]
    fn not_available_figures_show_their_reason_and_are_never_folded() {
        let mut r = result();
        r.not_available.push(crate::results::NotAvailable {
            variant: "a".into(),
            metric: "p_zero".into(),
            reason: "no cure available".into(),
        });
        let b = block(&r, &View::default(), Items::Shortened);
        let row = b.rows.iter().find(|row| row.metric == "p_zero").unwrap();
        let a = row.cells[0].as_ref().unwrap();
        assert!(a.not_available);
        assert_eq!(a.text(), "no cure available");
        assert_eq!(row.cells[1].as_ref().unwrap().text(), "0.00% (0.00..0.00)");
    }

    #[test]
    fn items_rank_by_exact_odds_with_ties_in_table_order() {
        let mut r = result();
        // Noisy estimates would put item 2 first; the odds say items 0 and
        // 2 are equally likely and item 1 the likeliest.
        for (i, x) in [0.049, 0.101, 0.052].iter().enumerate() {
            r.figures.push(Figure {
                kind: crate::results::fixture_kind(&format!("p_item_{i}")),
                variant: "a".into(),
                metric: format!("p_item_{i}"),
                estimate: Estimate::exact(*x),
                trials: None,
                unit: crate::results::Unit::Share,
            });
        }
        let mut list = ItemRows {
            items: "entries".into(),
            ranked_by: "probability".into(),
            metrics: (0..3).map(|i| vec![format!("p_item_{i}")]).collect(),
            shown: 2,
            odds: Some(vec![0.05, 0.10, 0.05]),
        };
        assert_eq!(rank(&r, &list), [1, 0, 2]);
        list.odds = None;
        assert_eq!(rank(&r, &list), [1, 2, 0], "by the estimates");
        r.item_rows.push(list);
        let b = block(&r, &View::default(), Items::Shortened);
        assert_eq!(b.lists[0].rows.len(), 2);
        assert_eq!(b.lists[0].more, Some((1, 1)));
        let all = block(&r, &View::default(), Items::All);
        assert_eq!(all.lists[0].rows.len(), 3);
        assert_eq!(all.lists[0].more, None);
    }

    #[test]
    fn pooled_ranking_averages_over_the_variants() {
        let mut r = result();
        // Item 0 is high in `a` only; item 1 is high on average.
        for (v, xs) in [("a", [0.3, 0.2]), ("b", [0.0, 0.2])] {
            for (i, x) in xs.iter().enumerate() {
                r.figures.push(Figure {
                    kind: crate::results::fixture_kind(&format!("p_item_{i}")),
                    variant: v.into(),
                    metric: format!("p_item_{i}"),
                    estimate: Estimate::exact(*x),
                    trials: None,
                    unit: crate::results::Unit::Share,
                });
            }
        }
        let list = ItemRows {
            items: "entries".into(),
            ranked_by: "probability".into(),
            metrics: (0..2).map(|i| vec![format!("p_item_{i}")]).collect(),
            shown: 1,
            odds: None,
        };
        assert_eq!(rank(&r, &list), [1, 0]);
    }

    #[test]
    fn undefined_values_and_intervals_read_n_a() {
        let nan = f64::NAN;
        let one = Estimate {
            value: 2.0,
            low: nan,
            high: nan,
        };
        assert_eq!(cell(false, &one, false).text(), "2.000 (n/a)");
        let none = Estimate {
            value: nan,
            low: nan,
            high: nan,
        };
        assert_eq!(cell(false, &none, false).text(), "n/a");
        assert_eq!(cell(false, &none, true).text(), "n/a");
        let p = Estimate {
            value: 0.5,
            low: 0.25,
            high: 0.75,
        };
        assert_eq!(cell(true, &p, false).text(), "50.00% (25.00..75.00)");
        assert_eq!(cell(true, &p, true).text(), "50.0000%");
    }
}
