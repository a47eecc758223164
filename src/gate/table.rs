//! The gate's text report on stdout: a table of the figures that moved,
//! what only one side has, throughput, notes, and one summary line; and
//! the number formats it shares with the JUnit report.

use crate::gate::compare::{Comparison, Method, MetricCheck, Verdict};
use crate::report::run_info::si;
use crate::results::thousands;

/// A figure with six significant digits (`0.404875`, `1234.57`,
/// `3.20000e-7`); `n/a` when undefined.
pub fn number(x: f64) -> String {
    if x.is_nan() {
        return "n/a".into();
    }
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let magnitude = x.abs().log10().floor() as i32;
    if (-4..9).contains(&magnitude) {
        let decimals = (5 - magnitude).max(0) as usize;
        format!("{x:.decimals$}")
    } else {
        format!("{x:.5e}")
    }
}

/// [`number`] with a sign (`+0.0451`, `-3.00000`).
pub fn signed(x: f64) -> String {
    if x > 0.0 {
        format!("+{}", number(x))
    } else {
        number(x)
    }
}

/// A test's p-value: three significant digits, `< 1e-300` below that (a
/// p-value that underflows to 0 included).
pub fn p_value(p: f64) -> String {
    if p < 1e-300 {
        "< 1e-300".into()
    } else if p < 1e-3 {
        format!("{p:.2e}")
    } else {
        format!("{p:.3}")
    }
}

/// The difference with its interval: `+0.0451 [+0.0438, +0.0465]`.
pub fn difference(m: &MetricCheck) -> String {
    match m.interval {
        Some((low, high)) => format!(
            "{} [{}, {}]",
            signed(m.difference),
            signed(low),
            signed(high)
        ),
        None => signed(m.difference),
    }
}

/// How a figure was compared, with its p-value.
pub fn evidence(m: &MetricCheck) -> String {
    match (m.method, m.p_holm, m.p) {
        (Method::Identical, _, _) => "identical runs differ".into(),
        (Method::Exact, _, _) => "exact figures differ".into(),
        (_, Some(holm), _) => p_value(holm),
        _ => String::new(),
    }
}

/// One line about a figure, for a JUnit failure message: `moved up:
/// 0.404875 -> 0.450010, difference +0.0451 [+0.0438, +0.0465] (95%),
/// p = 1.20e-40 after Holm (raw p = 4.00e-41)`.
pub fn describe(m: &MetricCheck) -> String {
    let mut text = format!(
        "{}: {} -> {}, difference {}",
        m.verdict.text(),
        number(m.baseline),
        number(m.current),
        difference(m)
    );
    if m.interval.is_some() {
        text.push_str(&format!(" ({}%)", m.level * 100.0));
    }
    match (m.method, m.p_holm) {
        (Method::Identical, _) => {
            text.push_str(", same seed, trials and scenario: any difference is a change")
        }
        (Method::Exact, _) => text.push_str(", exact figures"),
        (_, Some(holm)) => {
            let p = |p: f64| match p_value(p) {
                tiny if tiny.starts_with('<') => format!("p {tiny}"),
                value => format!("p = {value}"),
            };
            text.push_str(&format!(
                ", {} after Holm (raw {})",
                p(holm),
                p(m.p.unwrap_or(1.0))
            ));
        }
        _ => {}
    }
    if let Some(note) = &m.note {
        text.push_str(&format!("; {note}"));
    }
    text
}

/// A slowdown ratio (baseline rate over current) in words: `2.10x
/// slower`, `1.25x faster`.
pub fn speed(slowdown: f64) -> String {
    if slowdown >= 1.0 {
        format!("{slowdown:.2}x slower")
    } else {
        format!("{:.2}x faster", 1.0 / slowdown)
    }
}

/// Lays out rows in left-aligned columns two spaces apart.
fn columns(rows: &[Vec<String>]) -> String {
    let n = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..n)
        .map(|i| {
            rows.iter()
                .filter_map(|r| r.get(i))
                .map(|c| c.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for r in rows {
        let cells: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{c:<w$}", w = widths[i]))
            .collect();
        out.push_str("  ");
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// The widest the table of moved figures may be.
pub const TABLE_WIDTH: usize = 120;

/// The widest line of `text`, in characters.
fn widest(text: &str) -> usize {
    text.lines().map(|l| l.chars().count()).max().unwrap_or(0)
}

/// The moved figures in at most [`TABLE_WIDTH`] columns: one table with
/// every column if it fits; else one table whose rows are grouped under
/// a line naming their scenario and variant; else each figure on lines of
/// its own, wrapped.
fn moved_table(moved: &[&MetricCheck]) -> String {
    let level = moved[0].level * 100.0;
    let heading = [
        "metric",
        "baseline",
        "current",
        &format!("difference [{level}% interval]"),
        "p (Holm)",
        "verdict",
    ]
    .map(String::from);
    let figures = |m: &MetricCheck| {
        vec![
            m.metric.clone(),
            number(m.baseline),
            number(m.current),
            difference(m),
            evidence(m),
            m.verdict.text().to_string(),
        ]
    };
    let place = |m: &MetricCheck| vec![m.scenario.clone(), m.variant.clone()];
    let mut rows = vec![
        ["scenario".to_string(), "variant".to_string()]
            .into_iter()
            .chain(heading.clone())
            .collect::<Vec<_>>(),
    ];
    rows.extend(moved.iter().map(|m| [place(m), figures(m)].concat()));
    let table = columns(&rows);
    if widest(&table) <= TABLE_WIDTH {
        return table;
    }
    let mut rows = vec![heading.to_vec()];
    rows.extend(moved.iter().map(|m| figures(m)));
    let table = columns(&rows);
    if widest(&table) <= TABLE_WIDTH {
        let mut lines = table.lines();
        let mut out = format!("{}\n", lines.next().unwrap_or_default());
        let mut group: Option<Vec<String>> = None;
        for (m, line) in moved.iter().zip(lines) {
            if group.as_ref() != Some(&place(m)) {
                out.push_str(&format!("  {} / {}:\n", m.scenario, m.variant));
                group = Some(place(m));
            }
            out.push_str(&format!("  {line}\n"));
        }
        if widest(&out) <= TABLE_WIDTH {
            return out;
        }
    }
    let mut text = String::new();
    for m in moved {
        text.push_str(&format!(
            "  {} / {} / {}: {}\n",
            m.scenario,
            m.variant,
            m.metric,
            describe(m)
        ));
    }
    crate::report::table::wrap_hanging(&text, TABLE_WIDTH)
}

/// The summary line: `3 of 1,234 metrics moved (1,180 tested at alpha
/// 0.001 with Holm, 5 compared exactly, 49 untested) against baseline `b``.
pub fn summary_line(c: &Comparison) -> String {
    let exactly = c.by_method(Method::Identical) + c.by_method(Method::Exact);
    let mut parts = vec![
        format!(
            "{} tested at alpha {} with Holm",
            thousands(c.tests as u64),
            c.alpha
        ),
        format!("{} compared exactly", thousands(exactly as u64)),
        format!("{} untested", thousands(c.count(Verdict::Untested) as u64)),
    ];
    if let Some(min) = c.min_effect {
        parts.push(format!(
            "{} below --min-effect {min}",
            thousands(c.count(Verdict::BelowMinEffect) as u64)
        ));
    }
    format!(
        "{} of {} metrics moved ({}) against baseline `{}`\n",
        thousands(c.moved().count() as u64),
        thousands(c.metrics.len() as u64),
        parts.join(", "),
        c.baseline
    )
}

/// The whole text report.
pub fn render(c: &Comparison) -> String {
    let mut out = String::new();
    let moved: Vec<&MetricCheck> = c.moved().collect();
    if !moved.is_empty() {
        out.push_str("moved beyond noise:\n");
        out.push_str(&moved_table(&moved));
    }
    for m in &c.missing {
        out.push_str(&format!("missing: {}\n", m.describe()));
    }
    if !c.not_run.is_empty() {
        out.push_str(&format!("not run (not named): {}\n", c.not_run.join(", ")));
    }
    if let Some(limit) = c.max_slowdown {
        for t in c.slower() {
            let threads = |n: Option<usize>| n.map_or("?".into(), |n| n.to_string());
            out.push_str(&format!(
                "slower: {} at {} trials/s against the baseline's {} trials/s, {}; threads {} vs {} (limit {limit}x)\n",
                t.scenario,
                si(t.current),
                si(t.baseline),
                speed(t.slowdown),
                threads(t.current_threads),
                threads(t.baseline_threads),
            ));
        }
        out.push_str(&format!(
            "throughput: {} of {} scenarios within {limit}x of the baseline's trials per second\n",
            c.throughput.len() - c.slower().count(),
            c.throughput.len(),
        ));
    }
    for note in &c.notes {
        out.push_str(&format!("note: {note}\n"));
    }
    out.push_str(&super::untested::render(c));
    out.push_str(&summary_line(c));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moved(scenario: &str, variant: &str, metric: &str) -> MetricCheck {
        MetricCheck {
            scenario: scenario.into(),
            variant: variant.into(),
            metric: metric.into(),
            baseline: 0.404875,
            current: 0.450010,
            difference: 0.0451,
            interval: Some((0.0438, 0.0465)),
            level: 0.95,
            method: Method::TwoProportions,
            z: Some(10.0),
            p: Some(4e-41),
            p_holm: Some(1.2e-40),
            verdict: Verdict::MovedUp,
            note: None,
        }
    }

    #[test]
    fn the_moved_table_fits_120_columns() {
        let short = [moved("death-saves", "raw", "p_dead")];
        let table = moved_table(&short.iter().collect::<Vec<_>>());
        assert!(table.starts_with("  scenario"), "{table}");
        let long = [
            moved(
                "campaign-healing-settings",
                "standard-temple-5",
                "share_severe_wound_by_level_20",
            ),
            moved(
                "campaign-healing-settings",
                "standard-temple-5",
                "gold_raising_per_pc_level_20",
            ),
            moved("campaign-career", "harsh", "deaths_per_pc_by_level_20"),
        ];
        let table = moved_table(&long.iter().collect::<Vec<_>>());
        assert!(widest(&table) <= TABLE_WIDTH, "{table}");
        assert!(table.contains("  campaign-career / harsh:\n"), "{table}");
        let longest = [moved(&"s".repeat(60), &"v".repeat(60), &"m".repeat(60))];
        let text = moved_table(&longest.iter().collect::<Vec<_>>());
        assert!(widest(&text) <= TABLE_WIDTH, "{text}");
        assert!(text.contains("moved up"), "{text}");
    }

    #[test]
    fn numbers_keep_six_significant_digits() {
        assert_eq!(number(0.404875), "0.404875");
        assert_eq!(number(1234.5678), "1234.57");
        assert_eq!(number(3.2e-7), "3.20000e-7");
        assert_eq!(number(0.0), "0");
        assert_eq!(number(f64::NAN), "n/a");
        assert_eq!(signed(0.0451), "+0.0451000");
        assert_eq!(signed(-3.0), "-3.00000");
        assert_eq!(p_value(0.0), "< 1e-300");
        assert_eq!(p_value(0.0123), "0.012");
        assert_eq!(p_value(1.2e-40), "1.20e-40");
        assert_eq!(speed(2.1), "2.10x slower");
        assert_eq!(speed(0.8), "1.25x faster");
    }
}
