//! What `run` prints on stdout: the table fitted to 120 columns when
//! stdout is not a terminal, `--metrics` and `--variants` filters, and
//! `--format markdown|csv|json`; `index.html` is written and owned like
//! every other report file.

use crate::common;

use common::cli::stdout_of as stdout;

/// Most lines `woundsim run` may print for the whole default suite (it
/// printed about 1,650 when only the campaigns named headline metrics).
const MOST_DEFAULT_SUITE_LINES: usize = 640;

#[test]
fn the_default_suite_prints_at_most_640_lines_and_ends_naming_index_html() {
    let (text, dir) = stdout(&["run", "--trials", "2000"]);
    let lines = text.lines().count();
    assert!(
        lines <= MOST_DEFAULT_SUITE_LINES,
        "{lines} lines on stdout:\n{text}"
    );
    let last = text.lines().last().unwrap();
    let index = dir.path().join("index.html");
    assert!(last.ends_with(&index.display().to_string()), "{last}");
    // Every scenario shows its type's headline metrics only, and says
    // where the rest are and how to print them.
    let blocks = text.lines().filter(|l| l.starts_with("== ")).count();
    let notes = text
        .lines()
        .filter(|l| l.contains(" more figures in "))
        .count();
    assert!(blocks > 0, "{text}");
    assert_eq!(notes, blocks, "{text}");
    assert!(text.contains("--metrics"), "{text}");
    for secondary in [
        "\np_pc_death_cleric ",
        "\np_death_max_hp_",
        "\np_entry_",
        "\np_revive ",
    ] {
        assert!(!text.contains(secondary), "{secondary} shown:\n{text}");
    }
}

#[test]
fn the_default_suite_fits_120_columns_and_names_the_folded_rows() {
    let (text, dir) = stdout(&["run", "--trials", "3000"]);
    let widest = text.lines().map(|l| l.chars().count()).max().unwrap();
    assert!(widest <= 120, "a line of {widest} columns");
    // RAW death saves have no permanent wounds: one line names those rows.
    assert!(
        text.contains("   0 in every variant (not shown): p_wound_minor, p_wound_moderate,"),
        "{text}"
    );
    let death_saves = text.split("\n== permanent-wounds").next().unwrap();
    assert!(
        !death_saves.contains("\np_wound_minor "),
        "a zero row is printed"
    );
    // The report and its manifest entry; the last line names it.
    assert!(dir.path().join("index.html").is_file());
    let manifest = std::fs::read_to_string(dir.path().join("run.json")).unwrap();
    assert!(manifest.contains("\"index.html\""), "{manifest}");
    let last = text.lines().last().unwrap();
    assert!(last.ends_with("index.html"), "{last}");
    // Each campaign leads with its verdict, prints its headline figures
    // only, and the HTML report's campaign sections reach their first
    // chart within 40 table rows.
    let html = std::fs::read_to_string(dir.path().join("index.html")).unwrap();
    for campaign in ["campaign-healing-settings", "campaign-career"] {
        let block = text
            .split(&format!("\n== {campaign} "))
            .nth(1)
            .unwrap()
            .split("\n== ")
            .next()
            .unwrap();
        let verdict = block
            .find("harsh against standard (only healing differs")
            .unwrap();
        let table = block.find("\nmetric ").unwrap();
        assert!(verdict < table, "the verdict comes first:\n{block}");
        assert!(block.lines().count() <= 80, "{campaign}: {block}");
        assert!(!block.contains("_level_1 "), "no per-level row:\n{block}");
        let section = html
            .split(&format!(
                "<section class=\"scenario\" id=\"sc-{campaign}\">"
            ))
            .nth(1)
            .unwrap();
        let before_chart = section.split("<figure").next().unwrap();
        let rows = before_chart.matches("<tr>").count();
        assert!(
            rows <= 40,
            "{campaign}: {rows} table rows before the first chart"
        );
        assert!(before_chart.contains("<h3>The answer</h3>"));
    }
}

#[test]
fn csv_on_stdout_is_the_filtered_rows_of_summary_csv() {
    let (text, dir) = stdout(&[
        "run",
        "death-saves",
        "--trials",
        "5000",
        "--format",
        "csv",
        "--metrics",
        "p_dead*,mean_rolls",
        "--variants",
        "raw",
        "--variants",
        "dc-?5",
    ]);
    let summary = std::fs::read_to_string(dir.path().join("summary.csv")).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("scenario,variant,metric,estimate,ci_low,ci_high,trials,seed")
    );
    let rows: Vec<&str> = lines.collect();
    // raw: p_dead, mean_rolls; dc-15: those and p_dead_diff.
    assert_eq!(rows.len(), 5, "{text}");
    for row in &rows {
        assert!(
            summary.lines().any(|l| l == *row),
            "{row} is not in summary.csv"
        );
        let variant = row.split(',').nth(1).unwrap();
        assert!(variant == "raw" || variant == "dc-15", "{row}");
    }
    assert!(!text.contains("wrote"), "only data on stdout");
}

#[test]
fn json_on_stdout_has_the_same_figures() {
    let (text, _dir) = stdout(&[
        "run",
        "death-saves",
        "--trials",
        "5000",
        "--format",
        "json",
        "--metrics",
        "p_dead",
    ]);
    let rows: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    assert_eq!(rows.len(), 6, "p_dead of six variants");
    let raw = &rows[0];
    assert_eq!(raw["scenario"], "death-saves");
    assert_eq!(raw["variant"], "raw");
    assert_eq!(raw["metric"], "p_dead");
    assert_eq!(raw["trials"], 5000);
    let (p, low, high) = (
        raw["estimate"].as_f64().unwrap(),
        raw["ci_low"].as_f64().unwrap(),
        raw["ci_high"].as_f64().unwrap(),
    );
    assert!(low < p && p < high && p > 0.3 && p < 0.5, "{raw}");
}

#[test]
fn markdown_on_stdout_is_a_table_per_scenario() {
    let (text, _dir) = stdout(&[
        "run",
        "permanent-wounds",
        "--trials",
        "5000",
        "--format",
        "markdown",
        "--variants",
        "raw,no-wounds",
    ]);
    assert!(text.starts_with("## permanent-wounds\n\n_5,000 trials per variant, seed "));
    assert!(
        text.contains("\n| metric | raw | no-wounds |\n|---|--:|--:|\n"),
        "{text}"
    );
    assert!(text.contains("\n| `p_dead` | "), "{text}");
    assert!(
        text.contains("\nwrote "),
        "the table formats say where the files went"
    );
}

#[test]
fn asking_for_a_metric_shows_it_even_when_zero() {
    let (text, _dir) = stdout(&[
        "run",
        "death-saves",
        "--trials",
        "5000",
        "--metrics",
        "p_wound_minor",
    ]);
    // One metric of six variants: transposed, a row per variant.
    assert!(
        text.contains("\nvariant                   p_wound_minor\nraw "),
        "{text}"
    );
    assert!(!text.contains("not shown"), "{text}");
    assert!(!text.contains("p_dead"), "{text}");
}
