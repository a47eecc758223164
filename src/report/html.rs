//! `DIR/index.html`: the whole run in one self-contained page for a game
//! master — the run's metadata, a table of contents, and per scenario the
//! question it answers, its variants, the headline figures with their
//! intervals, the paired differences, the per-item lists, every chart
//! (inline SVG) and links to its files.
//!
//! Self-contained: inline CSS, the charts' SVG inline, no script, no
//! font, image or style sheet to fetch; links are relative, to the CSV,
//! PNG and SVG files next to the page, so the folder can be moved or
//! zipped as it is. Readable on a phone (the layout is one column; wide
//! tables scroll sideways inside their box rather than widen the page; a
//! chart is never drawn so small that its smallest text is under
//! [`MIN_TEXT_PX`] CSS pixels — narrower than that it keeps its width and
//! scrolls sideways in its own box, [`chart_min_width`]) and in print
//! (each scenario starts a page; no chart is split; charts fit the page).
//!
//! Every piece of user text — scenario and variant names, descriptions,
//! item labels, chart titles — is escaped ([`escape`]). The figures shown
//! are those of [`super::view`], as in the terminal: the same cells, the
//! same "not available" reasons, the same ranking of items.

use std::fmt::Write;
use std::time::Duration;

use super::charts::RenderedChart;
use super::view::{self, Block, Cell, Items, Row, View};
use crate::report::run_info::RunInfo;
use crate::results::{ChartSpec, Kind, ScenarioResult, thousands};

/// Text for HTML: `&`, `<`, `>`, `"` and `'` as character references, so
/// user text can neither open a tag nor end an attribute.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The page's style sheet: one readable column, tables that scroll inside
/// their box, charts as wide as the column, a print layout.
const STYLE: &str = r#"
:root { --ink: #1b1b1b; --muted: #5a5a5a; --rule: #d8d8d8; --band: #f4f6f8; --link: #0b5cad; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { margin: 0; color: var(--ink); background: #fff;
  font: 16px/1.5 "DejaVu Sans", "Segoe UI", Roboto, Helvetica, Arial, sans-serif; }
main, header.run, nav.toc { max-width: 1100px; margin: 0 auto; padding: 0 16px; }
a { color: var(--link); }
h1 { font-size: 1.7rem; margin: 1.2rem 0 .4rem; }
h2 { font-size: 1.35rem; margin: 0 0 .3rem; overflow-wrap: anywhere; }
h3 { font-size: 1.05rem; margin: 1.4rem 0 .4rem; }
p, li, dd, dt { overflow-wrap: anywhere; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; margin: .6rem 0; }
dl.meta dt { color: var(--muted); }
dl.meta dd { margin: 0; }
dl.variants dt { font-weight: bold; margin-top: .3rem; }
dl.variants dd { margin: 0 0 0 1rem; color: var(--muted); }
nav.toc ol { padding-left: 1.4rem; }
nav.toc li { margin: .2rem 0; }
nav.toc .desc { color: var(--muted); }
section.scenario { border-top: 3px solid var(--ink); margin: 2rem 0; padding-top: .8rem; }
.question { font-size: 1.08rem; margin: .2rem 0; }
.how, .note { color: var(--muted); font-size: .9rem; }
.scroll { overflow-x: auto; max-width: 100%; border: 1px solid var(--rule); border-radius: 4px; }
table { border-collapse: collapse; font-size: .9rem; }
th, td { padding: .25rem .6rem; border-bottom: 1px solid var(--rule); white-space: nowrap; vertical-align: top; }
thead th { background: var(--band); text-align: right; position: sticky; top: 0; }
thead th:first-child, tbody th { text-align: left; }
tbody th { position: sticky; left: 0; background: #fff; font-weight: normal; }
tbody th code { font-size: .85rem; }
td { text-align: right; font-variant-numeric: tabular-nums; }
td .ci { display: block; color: var(--muted); font-size: .8rem; }
td.na { color: #8a1c1c; font-style: italic; }
td.none { color: var(--muted); }
.verdict { background: var(--band); border-left: 4px solid var(--ink); padding: .4rem .9rem; margin: .8rem 0; }
.verdict ul { margin: .2rem 0 .6rem; padding-left: 1.2rem; }
.warning { color: #8a1c1c; font-weight: bold; }
details { margin: .6rem 0; }
summary { cursor: pointer; }
figure.chart { margin: 1rem 0; }
.chart-box { border: none; border-radius: 0; }
figure.chart svg { display: block; width: 100%; height: auto; max-width: 1280px; min-width: var(--min-width, 0); }
figcaption { font-size: .85rem; color: var(--muted); margin-top: .3rem; }
ul.files { padding-left: 1.2rem; }
.top { font-size: .85rem; }
@media (max-width: 600px) {
  body { font-size: 15px; }
  main, header.run, nav.toc { padding: 0 10px; }
  th, td { padding: .2rem .4rem; }
}
@media print {
  body { font-size: 10pt; }
  main, header.run, nav.toc { max-width: none; padding: 0; }
  nav.toc { break-after: page; }
  section.scenario { break-before: page; border-top: none; margin: 0; }
  .scroll { overflow: visible; border: none; }
  table { font-size: 7.5pt; }
  th, td { padding: 1px 4px; }
  thead th, tbody th { position: static; }
  h2, h3 { break-after: avoid; }
  figure.chart { break-inside: avoid; }
  figure.chart svg { max-height: 24cm; min-width: 0; }
  details > summary, .top { display: none; }
  a { color: inherit; text-decoration: none; }
}
"#;

/// An RFC 3339 UTC time (`2026-05-01T19:24:45Z`, as in `run.json`) as
/// `2026-05-01 19:24:45 UTC`.
pub fn utc(rfc3339: &str) -> String {
    match rfc3339.strip_suffix('Z') {
        Some(t) => format!("{} UTC", t.replacen('T', " ", 1)),
        None => rfc3339.to_string(),
    }
}

/// Seconds as `0.8 s`, `42 s`, `3 min 12 s`, `2 h 5 min`.
pub fn duration(seconds: f64) -> String {
    if !seconds.is_finite() || seconds < 0.0 {
        return "n/a".into();
    }
    if seconds < 10.0 {
        return format!("{seconds:.1} s");
    }
    let d = Duration::from_secs_f64(seconds.round());
    let s = d.as_secs();
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {} s", s / 60, s % 60),
        _ => format!("{} h {} min", s / 3600, s / 60 % 60),
    }
}

/// The id of a scenario's section (names are letters, digits, `-`, `_`).
fn section_id(result: &ScenarioResult) -> String {
    format!("sc-{}", result.scenario)
}

/// The smallest size, in CSS pixels, chart text may be drawn at on any
/// screen (WCAG gives no minimum; 11 px is the common floor for legible
/// secondary text on a phone).
pub const MIN_TEXT_PX: f64 = 11.0;

/// The width, in CSS pixels, under which `svg` (a chart as plotters
/// writes it: a `viewBox` and `font-size` attributes in its units) would
/// draw its smallest text under [`MIN_TEXT_PX`]: the `viewBox` width
/// times [`MIN_TEXT_PX`] over the smallest font size, rounded up. `None`
/// without a `viewBox` width or any text.
pub fn chart_min_width(svg: &str) -> Option<u32> {
    let view_box = *attribute_values(svg, "viewBox").first()?;
    let width: f64 = view_box.split_whitespace().nth(2)?.parse().ok()?;
    let smallest = attribute_values(svg, "font-size")
        .into_iter()
        .filter_map(|v| v.trim_end_matches("px").parse::<f64>().ok())
        .filter(|size| *size > 0.0 && size.is_finite())
        .reduce(f64::min)?;
    let min = (width * MIN_TEXT_PX / smallest).ceil();
    (min.is_finite() && width > 0.0).then_some(min as u32)
}

/// Every value of the attribute `name` in `xml` (`name="value"`).
fn attribute_values<'a>(xml: &'a str, name: &str) -> Vec<&'a str> {
    let key = format!(" {name}=\"");
    xml.match_indices(&key)
        .filter_map(|(i, _)| {
            let rest = &xml[i + key.len()..];
            rest.find('"').map(|end| &rest[..end])
        })
        .collect()
}

/// `SVG` text ready to sit inside the page: no XML prolog, no fixed size
/// (it scales with its column; the `viewBox` keeps the proportions), fonts
/// that the page has, and every `id` (and reference to one) prefixed with
/// `prefix`, so two charts never share an id.
pub fn inline_svg(svg: &str, prefix: &str, label: &str) -> String {
    let body = match svg.find("<svg") {
        Some(i) => &svg[i..],
        None => svg,
    };
    let end = body.find('>').unwrap_or(0);
    let (open, rest) = body.split_at(end);
    // Keep the root's attributes but width and height.
    let mut attrs = String::new();
    let mut s = open.trim_start_matches("<svg");
    while let Some(eq) = s.find("=\"") {
        let name = s[..eq].trim();
        let after = &s[eq + 2..];
        let Some(close) = after.find('"') else { break };
        let value = &after[..close];
        if name != "width" && name != "height" {
            let _ = write!(attrs, " {name}=\"{value}\"");
        }
        s = &after[close + 1..];
    }
    let rest = rest
        .replace(
            "font-family=\"sans-serif\"",
            "font-family=\"DejaVu Sans, Arial, Helvetica, sans-serif\"",
        )
        .replace(" id=\"", &format!(" id=\"{prefix}-"))
        .replace("url(#", &format!("url(#{prefix}-"))
        .replace("href=\"#", &format!("href=\"#{prefix}-"));
    let style = chart_min_width(svg)
        .map(|w| format!(" style=\"--min-width:{w}px\""))
        .unwrap_or_default();
    format!(
        "<svg{attrs}{style} role=\"img\" aria-label=\"{}\"{rest}",
        escape(label)
    )
}

fn cell_html(out: &mut String, cell: Option<&Cell>) {
    match cell {
        None => out.push_str("<td class=\"none\">–</td>"),
        Some(c) if c.not_available => {
            let _ = write!(out, "<td class=\"na\">{}</td>", escape(&c.value));
        }
        Some(c) => {
            let _ = write!(out, "<td>{}", escape(&c.value));
            if let Some(interval) = &c.interval {
                let _ = write!(out, "<span class=\"ci\">{}</span>", escape(interval));
            }
            out.push_str("</td>");
        }
    }
}

/// A table of `rows`, one column per shown variant.
fn table(out: &mut String, block: &Block, rows: &[Row], caption: &str) {
    out.push_str("<div class=\"scroll\"><table>");
    if !caption.is_empty() {
        let _ = write!(out, "<caption class=\"note\">{}</caption>", escape(caption));
    }
    out.push_str("<thead><tr><th scope=\"col\">metric</th>");
    for v in &block.variants {
        let _ = write!(out, "<th scope=\"col\">{}</th>", escape(v));
    }
    out.push_str("</tr></thead><tbody>");
    for row in rows {
        let _ = write!(
            out,
            "<tr><th scope=\"row\"><code>{}</code></th>",
            escape(&row.metric)
        );
        for c in &row.cells {
            cell_html(out, c.as_ref());
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table></div>\n");
}

/// The answer first: the warnings, then each verdict's paired
/// differences in plain words.
fn answer(out: &mut String, result: &ScenarioResult) {
    if result.warnings.is_empty() && result.verdicts.is_empty() {
        return;
    }
    out.push_str("<div class=\"verdict\">\n<h3>The answer</h3>\n");
    for w in &result.warnings {
        let _ = writeln!(out, "<p class=\"warning\">Warning: {}</p>", escape(w));
    }
    for v in &result.verdicts {
        let _ = writeln!(out, "<p><strong>{}</strong></p>\n<ul>", escape(&v.heading));
        for line in &v.lines {
            let _ = writeln!(out, "<li>{}</li>", escape(line));
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</div>\n");
}

/// The title and file stem of a chart spec.
fn chart_title(spec: &ChartSpec) -> (&str, &str) {
    match spec {
        ChartSpec::Shares { file, title, .. }
        | ChartSpec::Distribution { file, title, .. }
        | ChartSpec::Bars { file, title, .. }
        | ChartSpec::Lines { file, title, .. }
        | ChartSpec::Stacked { file, title, .. } => (file, title),
    }
}

fn scenario_section(
    out: &mut String,
    result: &ScenarioResult,
    charts: &[RenderedChart],
    files: &[&str],
) {
    let id = section_id(result);
    let _ = writeln!(out, "<section class=\"scenario\" id=\"{id}\">");
    let _ = writeln!(out, "<h2>{}</h2>", escape(&result.scenario));
    if !result.description.is_empty() {
        let _ = writeln!(
            out,
            "<p class=\"question\">{}</p>",
            escape(&result.description)
        );
    }
    let how = if result.is_exact() {
        "Exact figures (no sampling: intervals are the points themselves)".to_string()
    } else {
        format!(
            "{} trials per variant · seed {} · {}% intervals (Wilson for shares, normal for means)",
            thousands(result.trials),
            result.seed,
            result.confidence * 100.0
        )
    };
    let _ = writeln!(out, "<p class=\"how\">{}</p>", escape(&how));
    answer(out, result);
    let described = result.variant_descriptions.iter().any(|d| !d.is_empty());
    out.push_str("<h3>Variants</h3>\n<dl class=\"variants\">");
    for (j, v) in result.variants.iter().enumerate() {
        let _ = write!(out, "<dt>{}</dt>", escape(v));
        let desc = result
            .variant_descriptions
            .get(j)
            .map_or("", String::as_str);
        let role = if j == 0 {
            " (baseline of the differences)"
        } else {
            ""
        };
        if described || j == 0 {
            let _ = write!(out, "<dd>{}{}</dd>", escape(desc), role);
        }
    }
    out.push_str("</dl>\n");

    let block = view::block(result, &View::default(), Items::Shortened);
    let (levels, diffs): (Vec<Row>, Vec<Row>) = block
        .rows
        .iter()
        .cloned()
        .partition(|r| r.kind != Some(Kind::Difference));
    out.push_str("<h3>Figures</h3>\n");
    if levels.is_empty() && diffs.is_empty() && block.lists.is_empty() {
        out.push_str("<p class=\"note\">No figure to show.</p>\n");
    }
    if !levels.is_empty() {
        table(out, &block, &levels, "");
    }
    if let Some(note) = view::constants_note(&block) {
        let _ = writeln!(out, "<p class=\"note\">{}</p>", escape(&note));
    }
    if !diffs.is_empty() {
        let _ = writeln!(
            out,
            "<h3>Differences to {}</h3>\n<p class=\"note\">Each variant minus {} on the same random rolls, with paired intervals.</p>",
            escape(&block.baseline),
            escape(&block.baseline)
        );
        table(out, &block, &diffs, "");
    }
    let full = view::block(result, &View::default(), Items::All);
    for (list, all) in block.lists.iter().zip(&full.lists) {
        let _ = writeln!(out, "<h3>{}</h3>", escape(&list.items));
        let _ = writeln!(out, "<p class=\"note\">{}</p>", escape(&list.heading));
        table(out, &block, &list.rows, "");
        if let Some((more, _)) = list.more {
            let _ = writeln!(
                out,
                "<details><summary>All {} {} ({more} more)</summary>",
                list.total,
                escape(&list.items),
            );
            table(out, &full, &all.rows, "");
            out.push_str("</details>\n");
        }
    }
    let mut notes = vec![
        "Shares (p_*) in percent; intervals under each figure; n/a: undefined (no observation, or an interval of fewer than two)."
            .to_string(),
    ];
    if !block.folded.is_empty() {
        notes.push(format!(
            "0 in every variant, not shown: {}.",
            block.folded.join(", ")
        ));
    }
    for note in notes {
        let _ = writeln!(out, "<p class=\"note\">{}</p>", escape(&note));
    }

    if !charts.is_empty() {
        out.push_str("<h3>Charts</h3>\n");
    }
    for (spec, chart) in result.charts.iter().zip(charts) {
        let (file, title) = chart_title(spec);
        let fig = format!("{id}-{file}");
        let _ = writeln!(
            out,
            "<figure class=\"chart\" id=\"{fig}\"><div class=\"scroll chart-box\">"
        );
        out.push_str(&inline_svg(&chart.svg, &fig, title));
        out.push_str("</div>");
        let sub = &result.scenario;
        let _ = writeln!(
            out,
            "<figcaption>{} · <a href=\"{sub}/{file}.png\">PNG</a> · <a href=\"{sub}/{file}.svg\">SVG</a></figcaption>\n</figure>",
            escape(title)
        );
    }
    if block.hidden > 0 {
        // Every figure, the headline and the rest, folded.
        let every = ScenarioResult {
            headline: None,
            ..result.clone()
        };
        let all = view::block(&every, &View::default(), Items::All);
        let _ = writeln!(
            out,
            "<details><summary>Every figure ({} more than above)</summary>",
            block.hidden
        );
        table(out, &all, &all.rows, "");
        for list in &all.lists {
            table(out, &all, &list.rows, &list.heading);
        }
        out.push_str("</details>\n");
    }
    let own: Vec<&&str> = files
        .iter()
        .filter(|f| {
            f.strip_prefix(result.scenario.as_str())
                .is_some_and(|rest| rest.starts_with('/') && rest.ends_with(".csv"))
        })
        .collect();
    out.push_str("<h3>Data</h3>\n<ul class=\"files\">");
    let _ = write!(
        out,
        "<li><a href=\"summary.csv\">summary.csv</a> (every figure of every scenario; rows <code>scenario = {}</code>)</li>",
        escape(&result.scenario)
    );
    for f in own {
        let _ = write!(out, "<li><a href=\"{f}\">{}</a></li>", escape(f));
    }
    out.push_str(
        "</ul>\n<p class=\"top\"><a href=\"#contents\">Back to the contents</a></p>\n</section>\n",
    );
}

/// The page for `results`, with `charts[i]` the rendered charts of
/// `results[i]` (in spec order) and `files` every file of the run,
/// relative to the folder (for the links).
pub fn render(
    results: &[ScenarioResult],
    charts: &[Vec<RenderedChart>],
    meta: &RunInfo,
    files: &[&str],
) -> String {
    let mut out = String::with_capacity(1 << 20);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"woundsim {}\">\n<title>woundsim report: {}</title>\n\
         <style>{STYLE}</style>\n</head>\n<body>\n",
        escape(env!("CARGO_PKG_VERSION")),
        escape(
            &results
                .iter()
                .map(|r| r.scenario.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )
    );
    out.push_str("<header class=\"run\">\n<h1>woundsim report</h1>\n<dl class=\"meta\">");
    let mut meta_row = |k: &str, v: String| {
        let _ = write!(out, "<dt>{}</dt><dd>{}</dd>", escape(k), escape(&v));
    };
    meta_row("woundsim", env!("CARGO_PKG_VERSION").to_string());
    if let Some(c) = &meta.commit {
        meta_row("commit", c.clone());
    }
    if let Some(t) = &meta.started {
        meta_row("run started", utc(t));
    }
    if let Some(s) = meta.wall_seconds {
        meta_row("wall time", duration(s));
    }
    if let Some(t) = meta.threads {
        meta_row("threads", format!("{t} (never changes a figure)"));
    }
    meta_row("scenarios", results.len().to_string());
    let mut trials: Vec<u64> = results.iter().map(|r| r.trials).collect();
    trials.sort_unstable();
    trials.dedup();
    meta_row(
        "trials per variant",
        trials
            .iter()
            .map(|&t| {
                if t == 0 {
                    "exact".to_string()
                } else {
                    thousands(t)
                }
            })
            .collect::<Vec<_>>()
            .join(", "),
    );
    let mut seeds: Vec<u64> = Vec::new();
    for r in results.iter().filter(|r| !r.is_exact()) {
        if !seeds.contains(&r.seed) {
            seeds.push(r.seed);
        }
    }
    if !seeds.is_empty() {
        meta_row(
            if seeds.len() == 1 { "seed" } else { "seeds" },
            seeds
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", "),
        );
    }
    out.push_str("</dl>\n<p>Every figure is in <a href=\"summary.csv\">summary.csv</a>; the run's manifest is <a href=\"run.json\">run.json</a>. Variants of a scenario run on the same random rolls, so their differences are sharper than their separate intervals suggest.</p>\n</header>\n");
    out.push_str("<nav class=\"toc\" id=\"contents\">\n<h2>Contents</h2>\n<ol>\n");
    for r in results {
        let _ = write!(
            out,
            "<li><a href=\"#{}\">{}</a>",
            section_id(r),
            escape(&r.scenario)
        );
        if !r.description.is_empty() {
            let _ = write!(
                out,
                " <span class=\"desc\">{}</span>",
                escape(&r.description)
            );
        }
        out.push_str("</li>\n");
    }
    out.push_str("</ol>\n</nav>\n<main>\n");
    for (i, r) in results.iter().enumerate() {
        let none = Vec::new();
        scenario_section(&mut out, r, charts.get(i).unwrap_or(&none), files);
    }
    out.push_str("</main>\n</body>\n</html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::{chart_min_width, duration, escape, inline_svg, render, utc};
    use crate::engine::stats::Estimate;
    use crate::model::ScenarioHeader;
    use crate::report::charts::render_one;
    use crate::report::run_info::RunInfo;
    use crate::results::{ChartSpec, Figure, ItemRows, NotAvailable, ScenarioResult};

    /// A Monte Carlo result named `name` whose variant names and
    /// descriptions carry markup, with a chart, a `_diff` row, a per-item
    /// list of 8 items, an undefined interval and a figure not available.
    fn result(name: &str) -> ScenarioResult {
        let header = ScenarioHeader {
            name: name.into(),
            description: "Does <b>this</b> & \"that\" survive?".into(),
            trials: 20_000,
            seed: 42,
            confidence: 0.95,
        };
        let variants = vec!["raw".to_string(), "<script>alert(1)</script>".to_string()];
        let mut figures = Vec::new();
        for v in &variants {
            let mut push = |metric: &str, estimate: Estimate| {
                figures.push(Figure {
                    kind: crate::results::fixture_kind(metric),
                    variant: v.clone(),
                    metric: metric.into(),
                    estimate,
                    trials: None,
                    unit: crate::results::Unit::Share,
                })
            };
            push(
                "p_dead",
                Estimate {
                    value: 0.4069,
                    low: 0.4032,
                    high: 0.4105,
                },
            );
            push(
                "mean_gold",
                Estimate {
                    value: 12.0,
                    low: f64::NAN,
                    high: f64::NAN,
                },
            );
            for k in 0..8 {
                push(
                    &format!("p_item_{k}"),
                    Estimate::exact(0.01 * f64::from(k + 1)),
                );
            }
        }
        figures.push(Figure {
            kind: crate::results::fixture_kind("p_dead_diff"),
            variant: variants[1].clone(),
            metric: "p_dead_diff".into(),
            estimate: Estimate {
                value: -0.1,
                low: -0.12,
                high: -0.08,
            },
            trials: None,
            unit: crate::results::Unit::Share,
        });
        ScenarioResult {
            figures,
            charts: vec![ChartSpec::Shares {
                file: "outcomes".into(),
                title: format!("{name}: outcomes of <b>"),
                x_label: "x".into(),
                categories: vec![("p_dead".into(), "dead & gone".into())],
            }],
            item_rows: vec![ItemRows {
                items: "entries".into(),
                ranked_by: "probability".into(),
                metrics: (0..8).map(|k| vec![format!("p_item_{k}")]).collect(),
                shown: 3,
                odds: None,
            }],
            not_available: vec![NotAvailable {
                variant: "raw".into(),
                metric: "mean_gold".into(),
                reason: "no cure available".into(),
            }],
            variant_descriptions: vec!["RAW".into(), "a 'quoted' <i>variant</i>".into()],
            scan: None,
            ..ScenarioResult::for_header(&header, variants)
        }
    }

    fn page(results: &[ScenarioResult]) -> String {
        let charts: Vec<_> = results
            .iter()
            .map(|r| r.charts.iter().map(|s| render_one(r, s).unwrap()).collect())
            .collect();
        let meta = RunInfo {
            started: Some("2025-12-01T19:44:45Z".into()),
            threads: Some(2),
            wall_seconds: Some(75.4),
            ..RunInfo::default()
        };
        let files = [
            "summary.csv",
            "alpha/outcomes.png",
            "alpha/outcomes.svg",
            "alpha/rolls.csv",
            "beta/rolls.csv",
        ];
        render(results, &charts, &meta, &files)
    }

    #[test]
    fn every_scenario_has_a_section_in_the_contents_with_its_figures_and_charts() {
        let html = page(&[result("alpha"), result("beta")]);
        for name in ["alpha", "beta"] {
            assert_eq!(
                html.matches(&format!("<section class=\"scenario\" id=\"sc-{name}\">"))
                    .count(),
                1
            );
            assert!(
                html.contains(&format!("<li><a href=\"#sc-{name}\">{name}</a>")),
                "contents"
            );
            assert_eq!(
                html.matches(&format!(
                    "<figure class=\"chart\" id=\"sc-{name}-outcomes\">"
                ))
                .count(),
                1
            );
            assert!(html.contains(&format!("<a href=\"{name}/outcomes.png\">PNG</a>")));
        }
        // Each chart's SVG is inlined, once, without its fixed size.
        assert_eq!(html.matches("<svg").count(), 2);
        assert!(
            !html.contains("<svg width="),
            "the charts scale with the page"
        );
        assert!(html.contains("viewBox=\"0 0 1280 760\""));
        // The figures, their intervals, "n/a", the reason, the differences.
        assert!(html.contains("<td>40.69%<span class=\"ci\">40.32..41.05</span></td>"));
        assert!(html.contains("<td>12.000<span class=\"ci\">n/a</span></td>"));
        assert!(html.contains("<td class=\"na\">no cure available</td>"));
        assert!(html.contains("<h3>Differences to raw</h3>"));
        assert!(html.contains("<td>-10.00%<span class=\"ci\">-12.00..-8.00</span></td>"));
        // The item list: the top 3 in a table, all 8 behind a summary.
        assert!(html.contains("<details><summary>All 8 entries (5 more)</summary>"));
        assert!(
            html.contains("<td class=\"none\">–</td>"),
            "the baseline has no _diff"
        );
        // Each scenario's own CSV only.
        assert!(html.contains("<a href=\"alpha/rolls.csv\">alpha/rolls.csv</a>"));
        assert_eq!(html.matches("<a href=\"beta/rolls.csv\">").count(), 1);
        // Metadata.
        for text in [
            "<dd>2025-12-01 19:44:45 UTC</dd>",
            "<dd>1 min 15 s</dd>",
            "<dd>2 (never changes a figure)</dd>",
            "<dd>20,000</dd>",
            "<dd>42</dd>",
        ] {
            assert!(html.contains(text), "{text}");
        }
    }

    #[test]
    fn user_text_is_escaped_everywhere() {
        let html = page(&[result("alpha")]);
        assert!(!html.contains("<script"), "a variant name opened a tag");
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(
            !html.contains("<b>this</b>")
                && html.contains("Does &lt;b&gt;this&lt;/b&gt; &amp; &quot;that&quot; survive?")
        );
        assert!(html.contains("a &#39;quoted&#39; &lt;i&gt;variant&lt;/i&gt;"));
        assert!(html.contains("aria-label=\"alpha: outcomes of &lt;b&gt;\""));
        assert!(!html.contains("outcomes of <b>"));
    }

    #[test]
    fn the_page_needs_nothing_from_outside_its_folder() {
        let html = page(&[result("alpha")]);
        assert!(html.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
        assert!(
            html.contains(
                "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            )
        );
        assert!(html.contains("@media print"));
        for banned in ["<script", "<link", "<img", "<iframe", "@import", "src="] {
            assert!(!html.contains(banned), "{banned}");
        }
        // The only absolute URL is the SVG namespace, which is a name, not a fetch.
        let namespace = "xmlns=\"http://www.w3.org/2000/svg\"";
        let urls = html.matches("://").count();
        assert_eq!(urls, html.matches(namespace).count(), "an absolute URL");
        assert!(!html.contains("url(http") && !html.contains("url(\"http"));
    }

    #[test]
    fn inline_charts_get_their_own_ids() {
        let svg = "<?xml version=\"1.0\"?>\n<svg width=\"10\" height=\"5\" viewBox=\"0 0 10 5\" xmlns=\"http://www.w3.org/2000/svg\">\n<defs><clipPath id=\"c\"/></defs><rect clip-path=\"url(#c)\" font-family=\"sans-serif\"/><use href=\"#c\"/></svg>";
        let a = inline_svg(svg, "sc-a-x", "t");
        assert!(a.starts_with("<svg viewBox=\"0 0 10 5\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"t\">"), "{a}");
        assert!(
            a.contains("id=\"sc-a-x-c\"")
                && a.contains("url(#sc-a-x-c)")
                && a.contains("href=\"#sc-a-x-c\"")
        );
        assert!(a.contains("font-family=\"DejaVu Sans, Arial, Helvetica, sans-serif\""));
        assert_ne!(a, inline_svg(svg, "sc-b-x", "t"));
    }

    #[test]
    fn a_chart_keeps_the_width_at_which_its_smallest_text_is_11_pixels() {
        // 1280 units wide, smallest text 8 units: 11 px text needs 1760 px.
        let svg = "<svg width=\"1280\" height=\"760\" viewBox=\"0 0 1280 760\"><text font-size=\"16\">a</text><text font-size=\"8\">b</text></svg>";
        assert_eq!(chart_min_width(svg), Some(1760));
        let a = inline_svg(svg, "p", "t");
        assert!(a.contains(" style=\"--min-width:1760px\""), "{a}");
        // Text at 14.5 units: 1280 × 11 / 14.5 = 971.03…, rounded up.
        let svg = "<svg viewBox=\"0 0 1280 760\"><text font-size=\"14.5\">a</text></svg>";
        assert_eq!(chart_min_width(svg), Some(972));
        // No text, or no viewBox: no minimum.
        assert_eq!(
            chart_min_width("<svg viewBox=\"0 0 10 5\"><rect/></svg>"),
            None
        );
        assert_eq!(
            chart_min_width("<svg><text font-size=\"9\">a</text></svg>"),
            None
        );
        // The page scrolls such a chart inside its own box, and prints it to fit.
        let html = page(&[result("alpha")]);
        assert!(html.contains("<div class=\"scroll chart-box\">\n<svg"));
        assert!(html.contains("min-width: var(--min-width, 0)"));
    }

    #[test]
    fn times_and_durations_read_plainly() {
        assert_eq!(utc("1970-01-01T00:00:00Z"), "1970-01-01 00:00:00 UTC");
        assert_eq!(utc("2000-02-29T12:34:56Z"), "2000-02-29 12:34:56 UTC");
        assert_eq!(duration(0.84), "0.8 s");
        assert_eq!(duration(42.0), "42 s");
        assert_eq!(duration(192.0), "3 min 12 s");
        assert_eq!(duration(7500.0), "2 h 5 min");
        assert_eq!(duration(f64::NAN), "n/a");
        assert_eq!(
            escape("<a href='x'>&</a>"),
            "&lt;a href=&#39;x&#39;&gt;&amp;&lt;/a&gt;"
        );
    }
}
