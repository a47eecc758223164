//! `woundsim check`, end to end: the exit codes (0 nothing moved, 1 a
//! figure moved or a slowdown with `--fail-on-slowdown`, 2 bad input), a
//! deliberate one-sided rule change (the death-save DC from 10 to 11)
//! caught at another seed, unchanged reruns passing, and the JUnit and
//! JSON reports.

use crate::common;

use std::path::{Path, PathBuf};

use common::cli::woundsim;
use predicates::prelude::*;

/// A small death-save scenario named `gate` at save DC `dc`.
fn scenario(dc: u32, extra_variant: bool) -> String {
    let mut text = format!(
        r#"version = 1
name = "gate"
type = "death_saves"
description = "the gate's test scenario"
trials = 100_000
seed = 1

[options]
dc = {dc}

[[variant]]
name = "raw"

[[variant]]
name = "advantage"
roll = "advantage"
"#
    );
    if extra_variant {
        text.push_str("\n[[variant]]\nname = \"bonus\"\nsave_bonus = 2\n");
    }
    text
}

/// A temporary folder with `base.toml` (DC 10), `harder.toml` (DC 11) and
/// `wider.toml` (DC 10 and a third variant), and a baseline run of
/// `base.toml` at its own seed in `baseline/`.
struct Setup {
    root: tempfile::TempDir,
}

impl Setup {
    fn new() -> Setup {
        let root = tempfile::tempdir().unwrap();
        let write =
            |name: &str, text: String| std::fs::write(root.path().join(name), text).unwrap();
        write("base.toml", scenario(10, false));
        write("harder.toml", scenario(11, false));
        write("wider.toml", scenario(10, true));
        let setup = Setup { root };
        woundsim()
            .arg("run")
            .arg(setup.path("base.toml"))
            .args(["--quiet", "--out"])
            .arg(setup.path("baseline"))
            .assert()
            .success();
        setup
    }

    fn path(&self, name: &str) -> PathBuf {
        self.root.path().join(name)
    }

    /// `woundsim check --baseline baseline` plus `args`.
    fn check(&self, args: &[&str]) -> assert_cmd::assert::Assert {
        woundsim()
            .current_dir(self.root.path())
            .args(["check", "--baseline", "baseline"])
            .args(args)
            .assert()
    }
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The verdict and method of `variant`/`metric` in a `--json` report.
fn verdict(report: &serde_json::Value, variant: &str, metric: &str) -> (String, String) {
    let m = report["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["variant"] == variant && m["metric"] == metric)
        .unwrap_or_else(|| panic!("no {variant}/{metric}"));
    (
        m["verdict"].as_str().unwrap().to_string(),
        m["method"].as_str().unwrap().to_string(),
    )
}

#[test]
fn a_same_seed_rerun_passes_with_zero_moved_metrics_compared_bit_for_bit() {
    let s = Setup::new();
    s.check(&["base.toml", "--json", "r.json"])
        .success()
        .stdout(predicate::str::starts_with(
            "0 of 27 metrics moved (0 tested at alpha 0.001 with Holm, 27 compared exactly",
        ));
    let report = json(&s.path("r.json"));
    for m in report["metrics"].as_array().unwrap() {
        assert_eq!(m["method"], "identical", "{m}");
        assert_eq!(m["verdict"], "no_change", "{m}");
    }
}

#[test]
fn an_unchanged_rerun_with_another_seed_passes_the_tests() {
    let s = Setup::new();
    s.check(&["base.toml", "--seed", "2", "--json", "r.json"])
        .success()
        .stdout(predicate::str::contains("0 of 27 metrics moved (27 tested"));
    let report = json(&s.path("r.json"));
    assert_eq!(
        verdict(&report, "raw", "p_dead"),
        ("no_change".into(), "two_proportions".into())
    );
    assert_eq!(
        verdict(&report, "raw", "mean_rolls"),
        ("no_change".into(), "welch".into())
    );
    assert_eq!(
        verdict(&report, "advantage", "p_dead_diff"),
        ("no_change".into(), "welch".into())
    );
}

#[test]
fn a_harder_death_save_dc_moves_the_death_rate_at_another_seed() {
    let s = Setup::new();
    let out = s
        .check(&[
            "harder.toml",
            "--seed",
            "2",
            "--junit",
            "r.xml",
            "--json",
            "r.json",
        ])
        .code(1)
        .stderr(predicate::str::starts_with("woundsim: "))
        .stderr(predicate::str::contains(
            "metrics moved beyond noise: gate/raw/p_dead",
        ))
        .get_output()
        .stdout
        .clone();
    let stdout = String::from_utf8(out).unwrap();
    assert!(stdout.starts_with("moved beyond noise:\n"), "{stdout}");
    // The table fits 120 columns: its rows under a line naming the
    // scenario and variant where a row with them would not.
    let widest = stdout.lines().map(|l| l.chars().count()).max().unwrap();
    assert!(widest <= 120, "{stdout}");
    let mut group = "";
    let p_dead = stdout
        .lines()
        .find(|l| {
            if l.trim_end().ends_with(':') {
                group = l;
            }
            (l.contains(" raw ") || group.ends_with("/ raw:")) && l.contains(" p_dead ")
        })
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(p_dead.trim_end().ends_with("moved up"), "{p_dead}");
    let report = json(&s.path("r.json"));
    for (variant, metric, expected) in [
        ("raw", "p_dead", "moved_up"),
        ("raw", "p_stable", "moved_down"),
        ("raw", "p_survive", "moved_down"),
        ("advantage", "p_dead", "moved_up"),
    ] {
        assert_eq!(
            verdict(&report, variant, metric).0,
            expected,
            "{variant}/{metric}"
        );
    }
    // A natural 20 revives whatever the DC: not moved.
    assert_eq!(verdict(&report, "raw", "p_revive").0, "no_change");

    let xml = std::fs::read_to_string(s.path("r.xml")).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let failed: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("failure"))
        .map(|n| n.parent().unwrap().attribute("name").unwrap())
        .collect();
    assert!(failed.contains(&"raw/p_dead"), "{failed:?}");
    assert!(!failed.contains(&"raw/p_revive"), "{failed:?}");
    assert_eq!(
        doc.root_element().attribute("failures").unwrap(),
        failed.len().to_string()
    );

    // The same change found from an existing output folder.
    woundsim()
        .arg("run")
        .arg(s.path("harder.toml"))
        .args(["--seed", "2", "--quiet", "--out"])
        .arg(s.path("current"))
        .assert()
        .success();
    s.check(&["--current", "current"])
        .code(1)
        .stdout(predicate::str::contains("p_dead"));
}

#[test]
fn min_effect_ignores_a_change_smaller_than_it() {
    let s = Setup::new();
    // DC 11 moves p_dead by about 0.05; nothing moves by 0.5.
    s.check(&["harder.toml", "--seed", "2", "--min-effect", "0.5"])
        .success()
        .stdout(predicate::str::contains("below --min-effect 0.5"));
}

#[test]
fn a_missing_baseline_or_unreadable_report_is_bad_input_naming_the_file() {
    let s = Setup::new();
    woundsim()
        .current_dir(s.root.path())
        .args(["check", "--baseline", "nope", "base.toml"])
        .assert()
        .code(2)
        .stdout("")
        .stderr("woundsim: baseline folder `nope` does not exist\n");
    std::fs::create_dir(s.path("empty")).unwrap();
    woundsim()
        .current_dir(s.root.path())
        .args(["check", "--baseline", "empty", "base.toml"])
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with(
            "woundsim: cannot read `empty/summary.csv`: ",
        ));
    std::fs::create_dir(s.path("bad")).unwrap();
    std::fs::copy(s.path("baseline/summary.csv"), s.path("bad/summary.csv")).unwrap();
    let mut text = std::fs::read_to_string(s.path("bad/summary.csv")).unwrap();
    text.push_str("gate,raw,p_extra,lots,0,1,10,1\n");
    std::fs::write(s.path("bad/summary.csv"), text).unwrap();
    woundsim()
        .current_dir(s.root.path())
        .args(["check", "--baseline", "bad", "base.toml"])
        .assert()
        .code(2)
        .stderr(predicate::str::is_match("^woundsim: `bad/summary.csv` line 29: .*float").unwrap());
    std::fs::copy(s.path("baseline/summary.csv"), s.path("bad/summary.csv")).unwrap();
    std::fs::write(s.path("bad/run.json"), "{ not json").unwrap();
    woundsim()
        .current_dir(s.root.path())
        .args(["check", "--baseline", "bad", "base.toml"])
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with(
            "woundsim: `bad/run.json` is not a woundsim run manifest: ",
        ));
}

#[test]
fn figures_only_one_side_has_are_bad_input_unless_allowed() {
    let s = Setup::new();
    s.check(&["wider.toml", "--junit", "r.xml"])
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(
            "variant `bonus` of scenario `gate` is only in the current; pass --allow-missing",
        ));
    assert!(!s.path("r.xml").exists(), "bad input writes no report");
    s.check(&["wider.toml", "--allow-missing", "--junit", "r.xml"])
        .success()
        .stdout(predicate::str::contains(
            "missing: variant `bonus` of scenario `gate` is only in the current\n",
        ));
    let xml = std::fs::read_to_string(s.path("r.xml")).unwrap();
    assert!(xml.contains(
        "<skipped message=\"variant `bonus` of scenario `gate` is only in the current\"/>"
    ));
    // A baseline scenario that was not named is not missing.
    s.check(&["death-saves", "--trials", "1000", "--allow-missing"])
        .code(2)
        .stderr(predicate::str::contains("nothing to compare"));
}

#[test]
fn a_slowdown_warns_and_fails_only_when_asked() {
    let s = Setup::new();
    // Pretend the baseline ran a million times faster.
    let path = s.path("baseline/run.json");
    let mut manifest = json(&path);
    let rate = manifest["scenarios"][0]["trials_per_second"]
        .as_f64()
        .unwrap();
    manifest["scenarios"][0]["trials_per_second"] = (rate * 1e6).into();
    std::fs::write(&path, serde_json::to_string(&manifest).unwrap()).unwrap();
    s.check(&["base.toml", "--max-slowdown", "2"])
        .success()
        .stdout(predicate::str::is_match("^slower: gate at .* trials/s against the baseline's .* trials/s, .*x slower; threads [0-9]+ vs [0-9]+ \\(limit 2x\\)\nthroughput: 0 of 1 scenarios within 2x of the baseline's trials per second\n").unwrap());
    s.check(&["base.toml", "--max-slowdown", "2", "--fail-on-slowdown"])
        .code(1)
        .stderr(predicate::str::starts_with(
            "woundsim: slower than --max-slowdown 2x allows: gate ",
        ));
    s.check(&["base.toml", "--fail-on-slowdown"])
        .code(2)
        .stderr(predicate::str::contains("--max-slowdown"));
}

/// A baseline without timings (`--reproducible`) gives `--max-slowdown`
/// nothing to compare: the check says so instead of passing silently.
#[test]
fn max_slowdown_says_when_the_baseline_has_no_timings() {
    let s = Setup::new();
    woundsim()
        .arg("run")
        .arg(s.path("base.toml"))
        .args(["--quiet", "--reproducible", "--out"])
        .arg(s.path("untimed"))
        .assert()
        .success();
    woundsim()
        .current_dir(s.root.path())
        .args(["check", "--baseline", "untimed", "base.toml", "--max-slowdown", "2"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "--max-slowdown: no throughput to compare for `gate` (the baseline): no trials per second in run.json",
        ));
}

#[test]
fn bad_options_are_usage_errors() {
    let s = Setup::new();
    s.check(&["base.toml", "--alpha", "1.5"])
        .code(2)
        .stderr(predicate::str::contains("not a significance level"));
    s.check(&["base.toml", "--out", "baseline"])
        .code(2)
        .stderr(predicate::str::contains("is the baseline folder"));
    s.check(&["--current", "baseline", "base.toml"])
        .code(2)
        .stderr(predicate::str::contains("cannot be used with"));
    // Quiet: nothing on stdout, the verdict on stderr and in the exit code.
    s.check(&["harder.toml", "--seed", "2", "--quiet"])
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("moved beyond noise"));
}

/// The gate reads standard errors back from intervals by each figure's
/// recorded kind (Wilson for proportions and mean shares, normal for the
/// rest), and by the naming contract (`p_*` a proportion, `*_diff` a
/// difference) for a folder without `metrics.csv`: every shipped
/// scenario's figures must keep it, or the gate's tests would be wrong.
/// And no interval of a proportion or a mean share leaves `[0, 1]`.
#[test]
fn every_shipped_figure_has_the_interval_its_kind_promises() {
    use woundsim::engine::stats::z_for_level;
    use woundsim::gate::stats::wilson_trials;
    use woundsim::results::{Kind, Unit};
    let (mut proportions, mut shares) = (0, 0);
    let catalog = woundsim::scenario::data::builtin_catalog().unwrap();
    for scenario in woundsim::builtin::all(&catalog).unwrap() {
        let result = common::run(&scenario, 2_000, 2);
        let z = z_for_level(result.confidence);
        for f in &result.figures {
            let e = f.estimate;
            let name = format!("{}/{}/{}", result.scenario, f.variant, f.metric);
            // The naming convention (what `check` falls back on for a
            // folder without metrics.csv) agrees with the recorded kind.
            if f.metric.ends_with("_diff") {
                assert_eq!(f.kind, Kind::Difference, "{name}");
            } else if f.metric.starts_with("p_") {
                assert_eq!(f.kind, Kind::Proportion, "{name}");
            }
            if matches!(f.kind, Kind::Proportion | Kind::MeanShare) {
                assert_eq!(f.unit, Unit::Share, "{name}");
                let inside = |x: f64| x.is_nan() || (0.0..=1.0).contains(&x);
                assert!(
                    inside(e.value) && inside(e.low) && inside(e.high),
                    "{name}: {e:?} leaves [0, 1]"
                );
            }
            if !e.has_interval() || e.value.is_nan() {
                continue;
            }
            assert!(e.low <= e.value && e.value <= e.high, "{name}: {e:?}");
            match f.kind {
                Kind::Proportion | Kind::MeanShare => {
                    // Both ends of a Wilson interval give the same trials.
                    let usable = |w: f64| w > 0.0 && w < 1.0 && w != e.value;
                    if usable(e.low) && usable(e.high) {
                        let lo = wilson_trials(e.value, e.low, e.low, z).unwrap();
                        let hi = wilson_trials(e.value, e.high, e.high, z).unwrap();
                        assert!((lo - hi).abs() <= 1e-6 * hi, "{name}: {lo} vs {hi}");
                        match f.kind {
                            Kind::Proportion => proportions += 1,
                            _ => shares += 1,
                        }
                    }
                }
                Kind::Count | Kind::Mean | Kind::Ratio | Kind::Difference => {
                    let (below, above) = (e.value - e.low, e.high - e.value);
                    let scale = e.value.abs().max(e.high - e.low).max(1e-300);
                    assert!((below - above).abs() <= 1e-9 * scale, "{name}: {e:?}");
                }
                Kind::Quantile => {}
            }
        }
    }
    assert!(proportions > 1_000, "{proportions}");
    assert!(shares > 100, "{shares}");
}

#[test]
fn a_report_file_that_names_a_folder_says_so() {
    let s = Setup::new();
    std::fs::create_dir(s.path("reports")).unwrap();
    for (flag, path) in [
        ("--junit", "out/"),
        ("--junit", "reports"),
        ("--json", "reports/"),
    ] {
        let out = s.check(&["base.toml", flag, path]).failure();
        let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert!(
            err.contains(&format!("cannot write `{path}`: it "))
                && err.contains("; give the name of a file (e.g. `"),
            "{flag} {path}: {err}"
        );
        assert!(!err.contains("os error"), "{err}");
    }
    assert!(!s.path("out").exists());
}
