//! End-to-end tests of the `woundsim` binary on temporary folders.

use crate::common;

use common::cli::{fixture, woundsim};
use predicates::prelude::*;

#[test]
fn run_without_scenarios_writes_the_default_suite() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("reports");
    woundsim()
        .current_dir(dir.path())
        .args(["run", "--trials", "5000", "--quiet"])
        .assert()
        .success()
        .stdout("");
    // The default output folder is `reports/` in the working directory.
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    assert!(summary.starts_with("scenario,variant,metric,estimate,ci_low,ci_high,trials,seed\n"));
    for scenario in ["death-saves", "permanent-wounds"] {
        assert!(summary.contains(&format!("\n{scenario},")));
        for file in [
            "rolls.csv",
            "outcomes.png",
            "outcomes.svg",
            "rolls.png",
            "rolls.svg",
        ] {
            let path = out.join(scenario).join(file);
            assert!(
                std::fs::metadata(&path).unwrap().len() > 100,
                "{}",
                path.display()
            );
        }
    }
    let png = std::fs::read(out.join("death-saves/outcomes.png")).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    let svg = std::fs::read_to_string(out.join("death-saves/outcomes.svg")).unwrap();
    assert!(svg.contains("<svg") && svg.contains("Share of trials (%)"));
    // No temporary file is left behind.
    let leftovers: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with(".woundsim-"))
        .collect();
    assert!(leftovers.is_empty());
}

#[test]
fn summary_has_every_metric_and_paired_differences() {
    let dir = tempfile::tempdir().unwrap();
    woundsim()
        .args([
            "run",
            "permanent-wounds",
            "--trials",
            "30000",
            "--seed",
            "5",
            "--out",
        ])
        .arg(dir.path())
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "== permanent-wounds (30,000 trials per variant, seed 5",
        ));
    let summary = std::fs::read_to_string(dir.path().join("summary.csv")).unwrap();
    for metric in [
        "p_dead",
        "p_stable",
        "p_revive",
        "p_wound_minor",
        "p_wound_moderate",
        "p_wound_severe",
        "p_survive",
        "mean_rolls",
    ] {
        assert!(summary.contains(&format!(",raw,{metric},")), "{metric}");
        assert!(
            summary.contains(&format!(",no-wounds,{metric}_diff,")),
            "{metric}_diff"
        );
    }
    assert!(
        !summary.contains(",raw,p_dead_diff,"),
        "the baseline has no difference to itself"
    );
    assert!(summary.lines().skip(1).all(|l| l.ends_with(",30000,5")));
    let rolls = std::fs::read_to_string(dir.path().join("permanent-wounds/rolls.csv")).unwrap();
    assert!(
        rolls.starts_with(
            "scenario,variant,distribution,bin,count,share,ci_low,ci_high,trials,seed\n"
        )
    );
    assert_eq!(rolls.lines().count(), 1 + 5 * 5);
}

#[test]
fn thread_count_never_changes_the_output() {
    let mut outputs = Vec::new();
    for threads in ["1", "2", "7"] {
        let dir = tempfile::tempdir().unwrap();
        woundsim()
            .args([
                "run",
                "death-saves",
                "combat-goblin-ambush",
                "--trials",
                "140001",
                "--quiet",
                "--threads",
                threads,
                "--out",
            ])
            .arg(dir.path())
            .assert()
            .success();
        let summary = std::fs::read(dir.path().join("summary.csv")).unwrap();
        let rolls = std::fs::read(dir.path().join("death-saves/rolls.csv")).unwrap();
        let rounds = std::fs::read(dir.path().join("combat-goblin-ambush/rounds.csv")).unwrap();
        outputs.push((summary, rolls, rounds));
    }
    assert!(
        outputs.windows(2).all(|w| w[0] == w[1]),
        "--threads changed the output"
    );
}

#[test]
fn a_different_seed_changes_the_output() {
    let run = |seed: &str| {
        let dir = tempfile::tempdir().unwrap();
        woundsim()
            .args([
                "run",
                "death-saves",
                "--trials",
                "100000",
                "--quiet",
                "--seed",
                seed,
                "--out",
            ])
            .arg(dir.path())
            .assert()
            .success();
        std::fs::read_to_string(dir.path().join("summary.csv")).unwrap()
    };
    assert_ne!(run("1"), run("2"));
}

#[test]
fn exact_writes_point_intervals_and_zero_trials() {
    let dir = tempfile::tempdir().unwrap();
    woundsim()
        .args(["exact", &fixture("scenarios/death-saves.toml"), "--out"])
        .arg(dir.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("== death-saves (exact)"));
    let summary = std::fs::read_to_string(dir.path().join("summary.csv")).unwrap();
    let mut rows = 0;
    for line in summary.lines().skip(1) {
        let cols: Vec<&str> = line.split(',').collect();
        assert_eq!(cols.len(), 8);
        assert_eq!(cols[3], cols[4], "{line}");
        assert_eq!(cols[3], cols[5], "{line}");
        assert_eq!(cols[6], "0");
        rows += 1;
    }
    assert!(rows > 50);
    let dead: f64 = summary
        .lines()
        .find(|l| l.starts_with("death-saves,raw,p_dead,"))
        .and_then(|l| l.split(',').nth(3))
        .unwrap()
        .parse()
        .unwrap();
    assert!((dead - 0.405_4).abs() < 0.001, "{dead}");
}

#[test]
fn bad_scenario_exits_2_names_the_place_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let bad = fixture("tests/scenarios/bad/dc-out-of-range.toml");
    woundsim()
        .args(["run", &fixture("scenarios/death-saves.toml"), &bad, "--out"])
        .arg(dir.path().join("out"))
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(format!(
            "{bad}:9:6: field `variant[0].dc`: the save DC must be between 1 and 30, got 31"
        )));
    assert!(!dir.path().join("out").exists(), "nothing may be written");
}

#[test]
fn missing_scenario_exits_2() {
    woundsim()
        .args(["run", "no-such-scenario.toml", "--quiet"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "no-such-scenario.toml: cannot read scenario",
        ));
    woundsim().args(["exact", "nope"]).assert().code(2);
}

#[test]
fn two_scenarios_with_one_name_are_refused() {
    let path = fixture("scenarios/death-saves.toml");
    woundsim()
        .args(["run", &path, "death-saves", "--quiet"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("are both named `death-saves`"));
}

#[test]
fn bad_options_are_usage_errors() {
    woundsim().args(["run", "--trials", "0"]).assert().code(2);
    woundsim()
        .args(["run", "--confidence", "1.5"])
        .assert()
        .code(2);
    woundsim()
        .args(["run", "--threads", "many"])
        .assert()
        .code(2);
}

#[test]
fn list_names_the_builtin_scenarios() {
    woundsim().arg("list").assert().success().stdout(
        predicate::str::contains("death-saves").and(predicate::str::contains("permanent-wounds")),
    );
}

#[test]
fn list_wraps_to_120_columns_off_a_terminal() {
    let out = woundsim().arg("list").assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let widest = text.lines().map(|l| l.chars().count()).max().unwrap();
    assert!(widest <= 120, "a line of {widest} columns");
    assert!(
        text.contains("goblin-warrior"),
        "the bestiary is still listed"
    );
}

#[test]
fn help_wraps_to_the_terminal_width() {
    for columns in ["60", "100"] {
        let out = woundsim()
            .args(["run", "--help"])
            .env("COLUMNS", columns)
            .assert()
            .success();
        let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        let widest = text.lines().map(|l| l.chars().count()).max().unwrap();
        assert!(
            widest <= columns.parse().unwrap(),
            "COLUMNS={columns}: a line of {widest} columns"
        );
    }
}

#[test]
fn help_explains_every_option_with_defaults() {
    woundsim()
        .args(["run", "--help"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("--trials <N>")
                .and(predicate::str::contains("--seed <S>"))
                .and(predicate::str::contains("--threads <T>"))
                .and(predicate::str::contains("--out <DIR>"))
                .and(predicate::str::contains("[default: reports]"))
                .and(predicate::str::contains("--quiet")),
        );
}

#[test]
fn an_unwritable_output_folder_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    woundsim()
        .args(["run", "death-saves", "--trials", "1000", "--quiet", "--out"])
        .arg(file.join("sub"))
        .assert()
        .code(1)
        .stderr(predicate::str::contains("cannot write"));
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_the_run_and_writes_nothing() {
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("woundsim"))
        .args([
            "run",
            "--trials",
            "10000000000",
            "--threads",
            "1",
            "--quiet",
            "--out",
        ])
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(400));
    let killed = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the run did not stop"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(130));
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(
        stderr.contains("interrupted by SIGINT: no report was written"),
        "{stderr}"
    );
    assert!(!out.exists(), "an interrupted run must not write");
}

#[test]
fn amputation_scenarios_write_their_curves_and_exact_figures() {
    let dir = tempfile::tempdir().unwrap();
    woundsim()
        .args(["exact", "amputation", "reattachment", "--quiet", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let summary = std::fs::read_to_string(dir.path().join("summary.csv")).unwrap();
    let line = summary
        .lines()
        .find(|l| l.starts_with("amputation,medium-leg-longsword,p_severed_in_time,"))
        .unwrap();
    assert!(line.ends_with(",0,0"), "{line}");
    assert!(summary.contains("reattachment,cure-wounds-x2,p_reattached,"));
    for file in [
        "amputation/severed_by_round.png",
        "amputation/severed_by_round.svg",
        "amputation/hits_to_sever.csv",
        "reattachment/reattached_within_uses.png",
        "reattachment/heals_used.csv",
    ] {
        let path = dir.path().join(file);
        assert!(std::fs::metadata(&path).unwrap().len() > 100, "{file}");
    }
    let svg = std::fs::read_to_string(dir.path().join("amputation/severed_by_round.svg")).unwrap();
    assert!(svg.contains("Limb severed within N rounds"));
}

#[test]
fn a_bad_amputation_scenario_exits_2_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let bad = fixture("tests/scenarios/bad/purpose-contradicts-types.toml");
    woundsim()
        .args(["run", &bad, "--out"])
        .arg(dir.path().join("out"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "purpose-contradicts-types.toml:8:11: field `options.purpose`",
        ));
    assert!(!dir.path().join("out").exists());
}
