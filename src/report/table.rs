//! The human-readable table printed on stdout, and its Markdown form: one
//! block per scenario, one row per metric, one column per variant.
//! Proportions are shown in percent; every Monte Carlo figure carries its
//! interval. What is shown is decided by [`super::view`]: filters, rows
//! folded for being 0 in every variant, long per-item lists shortened to
//! their top-ranked items.
//!
//! The text table fits its width (the terminal's, else 120 columns), so
//! nothing wraps: a table too wide is transposed (variants as rows) if
//! that fits, else split into parts of as many variant columns as fit,
//! each with the metric column; in a window too narrow even for one
//! variant column, each figure gets a line of its own. Notes are wrapped
//! between words.

use std::fmt::Write;
#[cfg(feature = "cli")]
use std::io::IsTerminal;
use std::path::Path;

use super::view::{self, Block, Items, Row, View};
use crate::results::ScenarioResult;

/// The width for output that is not a terminal (a file, a pipe).
pub const DEFAULT_WIDTH: usize = 120;

/// Narrowest width the table lays itself out for.
const MIN_WIDTH: usize = 40;

/// Columns between two table columns.
const GAP: usize = 2;

/// Indentation of notes.
const INDENT: &str = "   ";

/// Indentation of a verdict line's continuation (under its text, after
/// `INDENT` and `- `).
const VERDICT_INDENT: &str = "     ";

/// The width of standard output: the terminal's columns when it is one,
/// else [`DEFAULT_WIDTH`].
#[cfg(feature = "cli")]
pub fn stdout_width() -> usize {
    let out = std::io::stdout();
    if !out.is_terminal() {
        return DEFAULT_WIDTH;
    }
    terminal_size::terminal_size_of(&out).map_or(DEFAULT_WIDTH, |(w, _)| usize::from(w.0))
}

/// One printed line of a table part: a row of cells, or a note across them.
enum Line {
    Cells(Vec<String>),
    Note(String),
}

fn chars(s: &str) -> usize {
    s.chars().count()
}

/// Each line of `text` longer than `width` columns wrapped at its last
/// space that fits (the spacing within a line kept), its continuation
/// lines indented four columns deeper than it; a word longer than a line
/// is cut.
///
/// ```
/// use woundsim::report::table::wrap_hanging;
/// assert_eq!(wrap_hanging("  a  bb cc dd\nx\n", 11), "  a  bb cc\n      dd\nx\n");
/// ```
pub fn wrap_hanging(text: &str, width: usize) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let lead = &line[..line.len() - line.trim_start().len()];
        let deeper = format!("{lead}    ");
        let mut rest: Vec<char> = line.chars().collect();
        let mut indent = "";
        loop {
            let room = width.saturating_sub(chars(indent)).max(1);
            if rest.len() <= room {
                out.push_str(indent);
                out.extend(rest.iter());
                out.push('\n');
                break;
            }
            // The last space within the room that has text before it.
            let cut = (1..=room)
                .rev()
                .find(|&i| rest[i] == ' ' && rest[..i].iter().any(|c| *c != ' '))
                .unwrap_or(room);
            out.push_str(indent);
            out.extend(rest[..cut].iter());
            let trimmed = out.trim_end_matches(' ').len();
            out.truncate(trimmed);
            out.push('\n');
            rest = rest[cut..]
                .iter()
                .copied()
                .skip_while(|c| *c == ' ')
                .collect();
            indent = &deeper;
            if rest.is_empty() {
                break;
            }
        }
    }
    out
}

/// `text` wrapped between words to lines of at most `width` columns, each
/// starting with `indent`; a word longer than a line is cut into pieces.
fn wrap(text: &str, width: usize, indent: &str) -> Vec<String> {
    let room = width.saturating_sub(chars(indent)).max(1);
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    let pieces = text.split_whitespace().flat_map(|word| {
        let cs: Vec<char> = word.chars().collect();
        cs.chunks(room)
            .map(|c| c.iter().collect::<String>())
            .collect::<Vec<_>>()
    });
    for word in pieces {
        let word = word.as_str();
        if !line.is_empty() && chars(&line) + 1 + chars(word) > room {
            lines.push(format!("{indent}{line}"));
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(format!("{indent}{line}"));
    }
    lines
}

fn cells_of(row: &Row) -> Vec<String> {
    std::iter::once(row.metric.clone())
        .chain(
            row.cells
                .iter()
                .map(|c| c.as_ref().map_or_else(|| "-".to_string(), view::Cell::text)),
        )
        .collect()
}

/// The lines of a block before layout: header, headline rows, each list's
/// heading, rows and "more" note.
fn lines_of(block: &Block, summary: &Path) -> Vec<Line> {
    let header = std::iter::once("metric".to_string())
        .chain(block.variants.iter().cloned())
        .collect();
    let mut lines = vec![Line::Cells(header)];
    lines.extend(block.rows.iter().map(|r| Line::Cells(cells_of(r))));
    for list in &block.lists {
        lines.push(Line::Note(list.heading.clone()));
        lines.extend(list.rows.iter().map(|r| Line::Cells(cells_of(r))));
        if let Some((items, metrics)) = list.more {
            lines.push(Line::Note(format!(
                "... {items} more {} ({metrics} metrics) in {}",
                list.items,
                summary.display()
            )));
        }
    }
    lines
}

/// The widest cell of each column.
fn widths(lines: &[Line], columns: usize) -> Vec<usize> {
    (0..columns)
        .map(|c| {
            lines
                .iter()
                .filter_map(|l| match l {
                    Line::Cells(cells) => cells.get(c).map(|s| chars(s)),
                    Line::Note(_) => None,
                })
                .max()
                .unwrap_or(0)
        })
        .collect()
}

fn total(widths: &[usize]) -> usize {
    widths.iter().sum::<usize>() + GAP * widths.len().saturating_sub(1)
}

/// Prints the lines with columns `cols` (0 is the metric column), padded to
/// `widths`; notes wrapped to `width`.
fn print_part(out: &mut String, lines: &[Line], cols: &[usize], widths: &[usize], width: usize) {
    for line in lines {
        match line {
            Line::Note(text) => {
                for l in wrap(text, width, INDENT) {
                    let _ = writeln!(out, "{l}");
                }
            }
            Line::Cells(cells) => {
                let text: Vec<String> = cols
                    .iter()
                    .map(|&c| {
                        let (t, w) = (&cells[c], widths[c]);
                        if c == 0 {
                            format!("{t:<w$}")
                        } else {
                            format!("{t:>w$}")
                        }
                    })
                    .collect();
                let _ = writeln!(out, "{}", text.join(&" ".repeat(GAP)).trim_end());
            }
        }
    }
}

/// The block transposed (variants as rows, metrics as columns), if it has
/// no per-item lists and fits `width`.
fn transposed(block: &Block, width: usize) -> Option<Vec<Line>> {
    if !block.lists.is_empty() || block.rows.is_empty() {
        return None;
    }
    let mut lines = vec![Line::Cells(
        std::iter::once("variant".to_string())
            .chain(block.rows.iter().map(|r| r.metric.clone()))
            .collect(),
    )];
    for (j, variant) in block.variants.iter().enumerate() {
        lines.push(Line::Cells(
            std::iter::once(variant.clone())
                .chain(block.rows.iter().map(|r| cells_of(r)[j + 1].clone()))
                .collect(),
        ));
    }
    let w = widths(&lines, block.rows.len() + 1);
    (total(&w) <= width).then_some(lines)
}

/// Columns `1..=n` in `k` consecutive parts whose sizes differ by at most
/// one, the larger first.
fn even_parts(n: usize, k: usize) -> Vec<Vec<usize>> {
    let k = k.clamp(1, n.max(1));
    let mut parts = Vec::with_capacity(k);
    let mut next = 1;
    for i in 0..k {
        let size = n / k + usize::from(i < n % k);
        parts.push((next..next + size).collect());
        next += size;
    }
    parts
}

/// Lays out `block` in `width` columns.
fn layout(out: &mut String, block: &Block, summary: &Path, width: usize) {
    let lines = lines_of(block, summary);
    let columns = block.variants.len() + 1;
    let w = widths(&lines, columns);
    let all: Vec<usize> = (0..columns).collect();
    if total(&w) <= width {
        return print_part(out, &lines, &all, &w, width);
    }
    if let Some(t) = transposed(block, width) {
        let tw = widths(&t, block.rows.len() + 1);
        let cols: Vec<usize> = (0..tw.len()).collect();
        return print_part(out, &t, &cols, &tw, width);
    }
    // Parts of consecutive variant columns beside the metric column: as
    // few parts as fit, and of even sizes where that fits too.
    let fits = |part: &[usize]| w[0] + part.iter().map(|&p| GAP + w[p]).sum::<usize>() <= width;
    let mut parts: Vec<Vec<usize>> = Vec::new();
    for c in 1..columns {
        match parts.last_mut() {
            Some(part) if fits(&[part.as_slice(), &[c]].concat()) => part.push(c),
            _ => parts.push(vec![c]),
        }
    }
    let even = even_parts(columns - 1, parts.len());
    if even.iter().all(|p| fits(p)) {
        parts = even;
    }
    if parts.iter().all(|p| fits(p)) {
        let n = columns - 1;
        for part in &parts {
            let (first, last) = (part[0], part[part.len() - 1]);
            let _ = writeln!(out, "{INDENT}[variants {first}-{last} of {n}]");
            let cols: Vec<usize> = std::iter::once(0).chain(part.iter().copied()).collect();
            print_part(out, &lines, &cols, &w, width);
        }
        return;
    }
    // Too narrow for even one variant column: a line per figure.
    for line in &lines[1..] {
        match line {
            Line::Note(text) => {
                for l in wrap(text, width, INDENT) {
                    let _ = writeln!(out, "{l}");
                }
            }
            Line::Cells(cells) => {
                let _ = writeln!(out, "{}", cells[0]);
                for (variant, cell) in block.variants.iter().zip(&cells[1..]) {
                    for l in wrap(&format!("{variant}: {cell}"), width, "  ") {
                        let _ = writeln!(out, "{l}");
                    }
                }
            }
        }
    }
}

/// The footer lines: metrics left out, the units and the `_diff` baseline.
fn footer(block: &Block, summary: &Path) -> Vec<String> {
    let mut notes = Vec::new();
    if let Some(note) = view::hidden_note(block, summary) {
        notes.push(note);
    }
    if !block.folded.is_empty() {
        notes.push(format!(
            "0 in every variant (not shown): {}",
            block.folded.join(", ")
        ));
    }
    notes.push(format!(
        "p_* in percent; *_diff = variant minus `{}` on the same random rolls",
        block.baseline
    ));
    notes.extend(view::constants_note(block));
    notes
}

/// Renders the table of one result to fit `width` columns; `summary` is
/// where the full set of figures is written (named where the table leaves
/// rows out).
pub fn render(result: &ScenarioResult, summary: &Path, view: &View, width: usize) -> String {
    let width = width.max(MIN_WIDTH);
    let block = view::block(result, view, Items::Shortened);
    let mut out = String::new();
    for l in wrap(
        &format!("== {} ({})", result.scenario, view::how(result)),
        width,
        "",
    ) {
        let _ = writeln!(out, "{l}");
    }
    for l in wrap(&result.description, width, INDENT) {
        let _ = writeln!(out, "{l}");
    }
    for w in &result.warnings {
        for l in wrap(&format!("warning: {w}"), width, INDENT) {
            let _ = writeln!(out, "{l}");
        }
    }
    for v in &result.verdicts {
        for l in wrap(&v.heading, width, INDENT) {
            let _ = writeln!(out, "{l}");
        }
        for line in &v.lines {
            // A hanging indent: the continuation under the text.
            let wrapped = wrap(line, width, VERDICT_INDENT);
            for (k, l) in wrapped.iter().enumerate() {
                let l = if k == 0 {
                    format!("{INDENT}- {}", l.trim_start())
                } else {
                    l.clone()
                };
                let _ = writeln!(out, "{l}");
            }
        }
    }
    if block.variants.is_empty() {
        let _ = writeln!(out, "{INDENT}no variant matches --variants");
    } else if block.rows.is_empty() && block.lists.is_empty() {
        let _ = writeln!(out, "{INDENT}no metric to show");
    } else {
        layout(&mut out, &block, summary, width);
    }
    for note in footer(&block, summary) {
        for l in wrap(&note, width, INDENT) {
            let _ = writeln!(out, "{l}");
        }
    }
    out
}

/// User text (names, descriptions) for Markdown: every character that
/// could end a table cell, start emphasis, a link or HTML is escaped.
fn md(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn md_table(out: &mut String, block: &Block, rows: &[Row]) {
    let _ = writeln!(
        out,
        "| metric | {} |",
        block
            .variants
            .iter()
            .map(|v| md(v))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    let _ = writeln!(out, "|---|{}", "--:|".repeat(block.variants.len()));
    for row in rows {
        let cells = cells_of(row);
        let _ = writeln!(
            out,
            "| `{}` | {} |",
            row.metric,
            cells[1..]
                .iter()
                .map(|c| md(c))
                .collect::<Vec<_>>()
                .join(" | ")
        );
    }
}

/// The Markdown form of one result: a heading, the description, a table of
/// the headline rows, one table per shortened per-item list, the notes.
pub fn markdown(result: &ScenarioResult, summary: &Path, view: &View) -> String {
    let block = view::block(result, view, Items::Shortened);
    let mut out = String::new();
    let _ = writeln!(out, "## {}\n", md(&result.scenario));
    let _ = writeln!(out, "_{}_\n", view::how(result));
    if !result.description.is_empty() {
        let _ = writeln!(out, "{}\n", md(&result.description));
    }
    for w in &result.warnings {
        let _ = writeln!(out, "**Warning:** {}\n", md(w));
    }
    for v in &result.verdicts {
        let _ = writeln!(out, "{}\n", md(&v.heading));
        for line in &v.lines {
            let _ = writeln!(out, "- {}", md(line));
        }
        out.push('\n');
    }
    if block.variants.is_empty() {
        let _ = writeln!(out, "No variant matches --variants.\n");
        return out;
    }
    if !block.rows.is_empty() {
        md_table(&mut out, &block, &block.rows);
        out.push('\n');
    }
    for list in &block.lists {
        let _ = writeln!(out, "{}\n", md(&list.heading));
        md_table(&mut out, &block, &list.rows);
        out.push('\n');
        if let Some((items, metrics)) = list.more {
            let _ = writeln!(
                out,
                "… {items} more {} ({metrics} metrics) in `{}`.\n",
                md(&list.items),
                summary.display()
            );
        }
    }
    if let Some(note) = view::hidden_note(&block, summary) {
        let _ = writeln!(out, "{}\n", md(&note));
    }
    if !block.folded.is_empty() {
        let names: Vec<String> = block.folded.iter().map(|m| format!("`{m}`")).collect();
        let _ = writeln!(
            out,
            "0 in every variant (not shown): {}\n",
            names.join(", ")
        );
    }
    let _ = writeln!(
        out,
        "`p_*` in percent; `*_diff` = variant minus {} on the same random rolls\n",
        md(&block.baseline)
    );
    if let Some(note) = view::constants_note(&block) {
        let _ = writeln!(out, "{note}\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::{View, markdown, render, wrap};
    use crate::engine::stats::Estimate;
    use crate::model::ScenarioHeader;
    use crate::results::{Figure, ItemRows, ScenarioResult};

    /// A result of `variants` variants (`v0`, `v1`, ...): a headline
    /// metric, one that is 0 everywhere, and a list of `items` items with
    /// two metrics each (`p_item_<k>`, `mean_cost_<k>`); item `k` has
    /// probability `k / 100` and odds in proportion, so the last items rank
    /// first. Monte Carlo (1,000 trials, seed 7) unless `exact`.
    fn result(variants: usize, items: usize, shown: usize, exact: bool) -> ScenarioResult {
        let header = ScenarioHeader {
            name: "s".into(),
            description: "a test".into(),
            trials: if exact { 0 } else { 1000 },
            seed: 7,
            confidence: 0.95,
        };
        let names: Vec<String> = (0..variants).map(|j| format!("v{j}")).collect();
        let mut figures = Vec::new();
        for v in &names {
            let mut push = |metric: String, value: f64| {
                let estimate = if exact {
                    Estimate::exact(value)
                } else {
                    Estimate {
                        value,
                        low: value * 0.9,
                        high: value * 1.1,
                    }
                };
                figures.push(Figure {
                    kind: crate::results::fixture_kind(&metric),
                    variant: v.clone(),
                    metric,
                    estimate,
                    trials: None,
                    unit: crate::results::Unit::Share,
                })
            };
            push("p_headline".into(), 0.5);
            push("p_never".into(), 0.0);
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
                odds: Some((0..items).map(|k| k as f64).collect()),
            }],
            ..ScenarioResult::for_header(&header, names)
        }
    }

    fn widest(text: &str) -> usize {
        text.lines().map(|l| l.chars().count()).max().unwrap_or(0)
    }

    #[test]
    fn a_small_table_is_printed_as_it_is() {
        let text = render(
            &result(2, 3, 5, true),
            Path::new("summary.csv"),
            &View::default(),
            120,
        );
        let expected = "\
== s (exact)
   a test
metric             v0        v1
p_headline   50.0000%  50.0000%
   table entries (3, ranked by their exact odds; equal odds in table order):
p_item_2      2.0000%   2.0000%
mean_cost_2  20.00000  20.00000
p_item_1      1.0000%   1.0000%
mean_cost_1  10.00000  10.00000
   0 in every variant (not shown): p_never, p_item_0, mean_cost_0
   p_* in percent; *_diff = variant minus `v0` on the same random rolls
";
        assert_eq!(text, expected, "\n{text}");
    }

    #[test]
    fn long_item_lists_show_the_top_items_and_count_the_rest() {
        let text = render(
            &result(2, 23, 5, false),
            Path::new("out/summary.csv"),
            &View::default(),
            120,
        );
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
                "   table entries: the 5 of 23 with the highest probability (ranked by their exact odds; equal odds in table order):\n"
            ),
            "{text}"
        );
        assert!(
            text.contains("   ... 18 more table entries (36 metrics) in out/summary.csv\n"),
            "{text}"
        );
        assert!(text.contains("== s (1,000 trials per variant, seed 7, 95% intervals)\n"));
    }

    #[test]
    fn a_wide_table_is_split_into_parts_that_fit() {
        let r = result(8, 3, 5, false);
        for width in [120, 80, 60] {
            let text = render(&r, Path::new("summary.csv"), &View::default(), width);
            assert!(widest(&text) <= width, "{width}:\n{text}");
            // Every variant's column is there, in order.
            let headers: Vec<&str> = text
                .lines()
                .filter(|l| l.starts_with("metric "))
                .flat_map(|l| l.split_whitespace().skip(1))
                .collect();
            let want: Vec<String> = (0..8).map(|j| format!("v{j}")).collect();
            assert_eq!(headers, want, "{width}:\n{text}");
            assert!(text.contains("[variants 1-"), "{text}");
        }
    }

    #[test]
    fn a_wide_table_of_few_metrics_is_transposed() {
        let mut r = result(12, 0, 5, false);
        r.item_rows.clear();
        let text = render(&r, Path::new("summary.csv"), &View::default(), 80);
        assert!(widest(&text) <= 80, "{text}");
        assert!(text.contains("\nvariant "), "{text}");
        assert!(text.contains("\nv11 "), "{text}");
        assert!(!text.contains("[variants"), "{text}");
    }

    #[test]
    fn a_window_too_narrow_for_a_column_gets_a_line_per_figure() {
        let mut r = result(2, 0, 5, false);
        r.item_rows.clear();
        r.variants = vec![
            "a-rather-long-variant-name-for-a-narrow-window".into(),
            "v1".into(),
        ];
        for f in &mut r.figures {
            if f.variant == "v0" {
                f.variant = r.variants[0].clone();
            }
        }
        let text = render(&r, Path::new("summary.csv"), &View::default(), 40);
        assert!(widest(&text) <= 40, "{text}");
        assert!(text.contains("\np_headline\n  a-rather-long-variant-name-for-a-narro\n  w-window: 50.00% (45.00..55.00)\n  v1: 50.00% (45.00..55.00)\n"), "{text}");
    }

    #[test]
    fn filters_pick_metrics_and_variants_and_show_asked_zeros() {
        let view = View {
            metrics: Some(crate::report::glob::Filter::new(&["p_never,p_item_1?"])),
            variants: Some(crate::report::glob::Filter::new(&["v1"])),
        };
        let text = render(
            &result(3, 23, 5, false),
            Path::new("summary.csv"),
            &view,
            120,
        );
        let rows: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("p_"))
            .map(|l| l.split_whitespace().next().unwrap())
            .collect();
        // Asked for: every match, the zero row too, no "more" line.
        assert_eq!(
            rows,
            [
                "p_never",
                "p_item_19",
                "p_item_18",
                "p_item_17",
                "p_item_16",
                "p_item_15",
                "p_item_14",
                "p_item_13",
                "p_item_12",
                "p_item_11",
                "p_item_10"
            ],
            "{text}"
        );
        let header = text.lines().find(|l| l.starts_with("metric")).unwrap();
        assert_eq!(
            header.split_whitespace().collect::<Vec<_>>(),
            ["metric", "v1"]
        );
        assert!(!text.contains("more table entries"), "{text}");
    }

    #[test]
    fn parts_are_even() {
        assert_eq!(super::even_parts(6, 2), [vec![1, 2, 3], vec![4, 5, 6]]);
        assert_eq!(
            super::even_parts(8, 3),
            [vec![1, 2, 3], vec![4, 5, 6], vec![7, 8]]
        );
        assert_eq!(super::even_parts(2, 5), [vec![1], vec![2]]);
    }

    #[test]
    fn notes_wrap_between_words() {
        assert_eq!(wrap("aa bb cc", 8, "  "), ["  aa bb", "  cc"]);
        assert_eq!(wrap("", 8, "  "), Vec::<String>::new());
        assert_eq!(
            wrap("abcdefghij", 5, ""),
            ["abcde", "fghij"],
            "a long word is cut"
        );
    }

    #[test]
    fn markdown_tables_escape_user_text() {
        let mut r = result(2, 2, 5, true);
        r.variants[1] = "a|b".into();
        for f in &mut r.figures {
            if f.variant == "v1" {
                f.variant = "a|b".into();
            }
        }
        let text = markdown(&r, Path::new("summary.csv"), &View::default());
        let expected = "\
## s

_exact_

a test

| metric | v0 | a\\|b |
|---|--:|--:|
| `p_headline` | 50.0000% | 50.0000% |

table entries (2, ranked by their exact odds; equal odds in table order):

| metric | v0 | a\\|b |
|---|--:|--:|
| `p_item_1` | 1.0000% | 1.0000% |
| `mean_cost_1` | 10.00000 | 10.00000 |

0 in every variant (not shown): `p_never`, `p_item_0`, `mean_cost_0`

`p_*` in percent; `*_diff` = variant minus v0 on the same random rolls

";
        assert_eq!(text, expected, "\n{text}");
    }
}
