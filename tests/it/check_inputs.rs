//! The gate never passes on nothing: every shipped figure is tested at
//! another seed by its recorded kind (the untested ones named on stdout),
//! a comparison that tested nothing fails with exit 2, a confidence level
//! is bounded so that every interval is finite and informative, and a
//! baseline with numbers no run writes (NaN, infinite, a share above 1, an
//! inverted interval) is bad input naming its line.

use crate::common;

use std::path::{Path, PathBuf};

use common::cli::woundsim;
use predicates::prelude::*;
use woundsim::gate::compare::{Method, Options, Verdict, compare};
use woundsim::gate::folder::Folder;
use woundsim::report::run_info::{RunInfo, ScenarioRun};

/// A small death-save scenario, at death-save DC `dc`.
fn scenario(dc: u32) -> String {
    format!(
        "version = 1\nname = \"gate\"\ntype = \"death_saves\"\ntrials = 20_000\nseed = 1\n\n\
         [options]\ndc = {dc}\n\n[[variant]]\nname = \"raw\"\n"
    )
}

/// A folder with `base.toml` (DC 10), `harder.toml` (DC 16) and a
/// baseline run of `base.toml` in `baseline/`.
fn setup() -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    std::fs::write(root.path().join("base.toml"), scenario(10)).unwrap();
    std::fs::write(root.path().join("harder.toml"), scenario(16)).unwrap();
    woundsim()
        .current_dir(root.path())
        .args(["run", "base.toml", "--quiet", "--out", "baseline"])
        .assert()
        .success();
    root
}

fn check(root: &Path, args: &[&str]) -> assert_cmd::assert::Assert {
    woundsim()
        .current_dir(root)
        .args(["check", "--baseline", "baseline"])
        .args(args)
        .assert()
}

/// `baseline/summary.csv` with `edit` applied to the row of `metric`;
/// returns that row's line number.
fn edit_row(root: &Path, metric: &str, edit: impl Fn(&mut Vec<String>)) -> usize {
    let path: PathBuf = root.join("baseline/summary.csv");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut line = 0;
    let rows: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            let mut cells: Vec<String> = l.split(',').map(String::from).collect();
            if cells.get(2).is_some_and(|m| m == metric) {
                edit(&mut cells);
                line = i + 1;
            }
            cells.join(",")
        })
        .collect();
    std::fs::write(&path, rows.join("\n") + "\n").unwrap();
    assert!(line > 0, "no row {metric}");
    line
}

/// Every figure of every shipped scenario is tested at another seed by
/// its recorded kind — proportions, mean shares, counts, means, ratios,
/// differences — and only quantiles (the documented exception) are not.
#[test]
fn every_shipped_figure_but_the_quantiles_is_tested_at_another_seed() {
    let catalog = woundsim::scenario::data::builtin_catalog().unwrap();
    let folder = |seed: u64| {
        let results: Vec<_> = woundsim::builtin::all(&catalog)
            .unwrap()
            .iter()
            .map(|s| {
                let mut s = s.clone();
                s.header.seed = seed;
                common::run(&s, 1_000, 2)
            })
            .collect();
        let run = RunInfo {
            scenarios: results
                .iter()
                .map(|r| ScenarioRun {
                    name: r.scenario.clone(),
                    seed,
                    trials: r.trials,
                    confidence: r.confidence,
                    ..ScenarioRun::default()
                })
                .collect(),
            ..RunInfo::default()
        };
        Folder::from_results("d", &results, run)
    };
    let (base, current) = (folder(1), folder(2));
    let options = Options {
        alpha: 0.001,
        min_effect: None,
        max_slowdown: None,
        named: false,
    };
    let c = compare(&base, &current, &options);
    let kind =
        |m: &woundsim::gate::compare::MetricCheck| current.kind_of(&m.scenario, &m.metric).unwrap();
    let mut by_kind = std::collections::BTreeMap::new();
    for m in &c.metrics {
        let name = format!("{}/{}/{}", m.scenario, m.variant, m.metric);
        if m.verdict == Verdict::Untested {
            let note = m.note.as_deref().unwrap_or("");
            // A quantile, or a figure with no interval at 1,000 trials.
            assert!(
                kind(m) == woundsim::results::Kind::Quantile || note.contains("no interval"),
                "{name} untested: {note}"
            );
        } else if m.method != Method::None {
            *by_kind.entry(kind(m).name()).or_insert(0) += 1;
        }
    }
    for k in [
        "proportion",
        "mean_share",
        "count",
        "mean",
        "ratio",
        "difference",
    ] {
        assert!(by_kind.get(k).copied().unwrap_or(0) > 0, "{k}: {by_kind:?}");
    }
    assert!(c.tests > 7_000, "{} tests: {by_kind:?}", c.tests);
}

/// The untested figures are named on stdout, by scenario and reason.
#[test]
fn untested_figures_are_named_on_stdout() {
    let root = tempfile::tempdir().unwrap();
    let run = |seed: &str, out: &str| {
        woundsim()
            .current_dir(root.path())
            .args(["run", "festering-wounds", "--trials", "2000", "--quiet"])
            .args(["--seed", seed, "--out", out])
            .assert()
            .success();
    };
    run("1", "baseline");
    run("2", "current");
    let out = check(root.path(), &["--current", "current"])
        .success()
        .get_output()
        .stdout
        .clone();
    let stdout = String::from_utf8(out).unwrap();
    let line = stdout
        .lines()
        .find(|l| l.starts_with("untested: "))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(
        line.contains(" figures of festering-wounds: q50_max_hp_lost (")
            && line.contains("q99_days_until_closed (")
            && line.ends_with(
                "why: a quantile of integer outcomes has no standard error: compared only between identical runs"
            ),
        "{line}"
    );
}

/// A comparison in which nothing could move fails with exit code 2: here
/// every interval of the baseline is undefined (empty cells), so no
/// figure can be tested at another seed.
#[test]
fn a_check_that_tested_nothing_is_bad_input() {
    let root = setup();
    let path = root.path().join("baseline/summary.csv");
    let text = std::fs::read_to_string(&path).unwrap();
    let blank: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            let mut c: Vec<&str> = l.split(',').collect();
            if i > 0 {
                c[4] = "";
                c[5] = "";
            }
            c.join(",")
        })
        .collect();
    std::fs::write(&path, blank.join("\n") + "\n").unwrap();
    check(
        root.path(),
        &["harder.toml", "--seed", "2", "--junit", "r.xml"],
    )
    .code(2)
    .stdout("")
    .stderr(predicate::str::starts_with(
        "woundsim: nothing was tested that could move: none of the ",
    ))
    .stderr(predicate::str::contains(
        "no interval (fewer than two observations) in one run",
    ));
    assert!(!root.path().join("r.xml").exists());
}

/// `run` accepts only levels whose intervals are finite and say
/// something; a scenario file too.
#[test]
fn confidence_is_bounded_so_every_interval_is_finite() {
    for level in ["1e-300", "0.4", "0.9999999999999999", "1", "NaN"] {
        woundsim()
            .args([
                "run",
                "death-saves",
                "--trials",
                "1000",
                "--confidence",
                level,
            ])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!(
                "`{level}` is not a confidence level from 0.5 to 0.999999"
            )));
    }
    let root = tempfile::tempdir().unwrap();
    let text = scenario(10).replace("seed = 1\n", "seed = 1\nconfidence = 1e-300\n");
    std::fs::write(root.path().join("tiny.toml"), text).unwrap();
    woundsim()
        .current_dir(root.path())
        .args(["run", "tiny.toml", "--quiet"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "field `confidence`: confidence must be a level from 0.5 to 0.999999, got 1e-300",
        ));
    // The highest level: every interval finite.
    woundsim()
        .current_dir(root.path())
        .args(["run", "death-saves", "--trials", "1000", "--quiet"])
        .args(["--confidence", "0.999999", "--out", "high"])
        .assert()
        .success();
    let summary = std::fs::read_to_string(root.path().join("high/summary.csv")).unwrap();
    assert!(
        !summary.contains("inf") && !summary.contains("NaN"),
        "{summary}"
    );
}

/// A baseline whose run.json records a level no run writes (1e-300: every
/// interval a point) would leave nothing testable, and a moved death rate
/// would pass: bad input instead.
#[test]
fn a_baseline_at_a_level_no_run_writes_is_bad_input() {
    let root = setup();
    let path = root.path().join("baseline/run.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let edited = text.replace("\"confidence\": 0.95", "\"confidence\": 1e-300");
    assert_ne!(text, edited);
    std::fs::write(&path, edited).unwrap();
    check(root.path(), &["harder.toml", "--seed", "2"])
        .code(2)
        .stderr(predicate::str::contains(
            "`baseline/run.json` is not a woundsim run manifest: scenario `gate`: field `confidence` is 1e-300, not a level from 0.5 to 0.999999",
        ));
}

/// NaN, an infinite end, a share above 1 and an inverted interval are bad
/// input naming the file and the line, not `no change`.
#[test]
fn a_baseline_with_numbers_no_run_writes_is_bad_input_naming_the_line() {
    type Edit = fn(&mut Vec<String>);
    let cases: [(Edit, &str); 5] = [
        (|c| c[3] = "NaN".into(), "`estimate` is `NaN`"),
        (
            |c| {
                c[4] = "-inf".into();
                c[5] = "inf".into()
            },
            "`ci_low` is `-inf`",
        ),
        (
            |c| {
                c[3] = "1.5".into();
                c[5] = "1.6".into()
            },
            "`estimate` 1.5 of a share (`p_dead`, a proportion) is outside [0, 1]",
        ),
        (|c| c.swap(4, 5), "the interval is inverted: `ci_low` 0."),
        (
            |c| c[3] = "0.9".into(),
            "the estimate 0.9 lies outside its interval",
        ),
    ];
    for (edit, says) in cases {
        let root = setup();
        let line = edit_row(root.path(), "p_dead", edit);
        check(root.path(), &["base.toml", "--seed", "2"])
            .code(2)
            .stderr(predicate::str::starts_with(format!(
                "woundsim: `baseline/summary.csv` line {line}: `p_dead` of variant `raw` of scenario `gate`: "
            )))
            .stderr(predicate::str::contains(says));
    }
}
