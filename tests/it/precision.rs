//! End-to-end tests of `woundsim run --precision NAME=HALF_WIDTH
//! --max-trials N`: fixed blocks of 1,048,576 trials, a stop that depends
//! only on the figures after each block, and errors naming the flag.

use crate::common;

use common::cli::woundsim;

/// Runs `woundsim run death-saves ARGS` and returns stdout and summary.csv.
fn run(args: &[&str]) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let out = woundsim()
        .args(["run", "death-saves", "--metrics", "p_dead", "--out"])
        .arg(dir.path())
        .args(args)
        .assert()
        .success()
        .stderr("")
        .get_output()
        .stdout
        .clone();
    let summary = std::fs::read_to_string(dir.path().join("summary.csv")).unwrap();
    (String::from_utf8(out).unwrap(), summary)
}

/// The `trials` column of every row.
fn trials(summary: &str) -> Vec<&str> {
    summary
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(6).unwrap())
        .collect()
}

#[test]
fn a_loose_target_stops_after_the_first_block() {
    let (stdout, summary) = run(&["--precision", "p_dead=0.5", "--threads", "2"]);
    assert!(
        stdout.starts_with("death-saves: precision reached after 1048576 trials\n"),
        "{stdout}"
    );
    assert!(
        trials(&summary).iter().all(|t| *t == "1048576"),
        "{summary}"
    );
}

#[test]
fn a_tight_target_runs_to_max_trials_and_names_the_worst_figure() {
    let (stdout, summary) = run(&[
        "--precision",
        "p_*=0.00001",
        "--precision",
        "mean_rolls=10",
        "--max-trials",
        "1_100_000",
    ]);
    let first = stdout.lines().next().unwrap();
    assert!(
        first.starts_with("death-saves: precision not reached after 1100000 trials (max): p_")
            && first.ends_with(" > 0.00001"),
        "{stdout}"
    );
    assert!(
        trials(&summary).iter().all(|t| *t == "1100000"),
        "{summary}"
    );
    // A maximum under one block is run as it is.
    let (stdout, summary) = run(&["--precision", "p_*=0.00001", "--max-trials", "1e5"]);
    assert!(stdout.starts_with("death-saves: precision not reached after 100000 trials (max)"));
    assert!(trials(&summary).iter().all(|t| *t == "100000"));
}

#[test]
fn where_a_precision_run_stops_does_not_depend_on_the_threads() {
    // A target met after the second block (the interval shrinks as 1/sqrt(n)).
    let args = ["--precision", "p_dead=0.0007", "--max-trials", "5e6", "-q"];
    let (_, one) = run(&[&args[..], &["--threads", "1"]].concat());
    let (_, two) = run(&[&args[..], &["--threads", "2"]].concat());
    assert_eq!(one, two);
    assert!(trials(&one).iter().all(|t| *t == "2097152"), "{one}");
    let (stdout, _) = run(&[&args[..4], &["--threads", "2"]].concat());
    assert!(stdout.starts_with("death-saves: precision reached after 2097152 trials\n"));
}

#[test]
fn the_result_is_the_run_of_the_trials_it_used() {
    let (_, precise) = run(&["--precision", "p_dead=0.5", "-q"]);
    let (_, plain) = run(&["--trials", "1048576", "-q"]);
    assert_eq!(precise, plain);
}

/// `woundsim run death-saves ARGS` fails with exit 2, nothing written.
fn fails(args: &[&str], stderr: &str) {
    let dir = tempfile::tempdir().unwrap();
    woundsim()
        .current_dir(dir.path())
        .args(["run", "death-saves", "--out", "o"])
        .args(args)
        .assert()
        .code(2)
        .stdout("")
        .stderr(format!("woundsim: {stderr}\n"));
    assert!(!dir.path().join("o").exists());
}

#[test]
fn bad_targets_are_errors_naming_the_flag() {
    fails(
        &["--precision", "q_*=0.1"],
        "--precision q_*=0.1: `q_*` matches no metric of scenario `death-saves` (see summary.csv or the README for its metrics)",
    );
    fails(
        &["--precision", "p_dead=0"],
        "invalid value 'p_dead=0' for '--precision <NAME=HALF_WIDTH>': `0` is not a half-width above 0 (e.g. 0.001) (see --help)",
    );
    fails(
        &["--precision", "p_dead"],
        "invalid value 'p_dead' for '--precision <NAME=HALF_WIDTH>': expected NAME=HALF_WIDTH, e.g. p_dead=0.001 (see --help)",
    );
    fails(
        &["--max-trials", "5"],
        "the following required arguments were not provided: --precision <NAME=HALF_WIDTH> (see --help)",
    );
    fails(
        &["--precision", "p_dead=0.1", "--max-trials", "1.5"],
        "invalid value '1.5' for '--max-trials <N>': `1.5` is not a whole number of trials from 1 to 10000000000000 (e.g. 100000, 100_000 or 1e5) (see --help)",
    );
}

/// `run.json` records each scenario's targets, maximum, whether they were
/// met and, where not, the figure furthest from its target.
#[test]
fn run_json_records_where_a_precision_run_stopped() {
    let dir = tempfile::tempdir().unwrap();
    woundsim()
        .args(["run", "death-saves", "--metrics", "p_dead", "-q", "--out"])
        .arg(dir.path())
        .args(["--precision", "p_dead=0.5", "--max-trials", "2e6"])
        .assert()
        .success();
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("run.json")).unwrap())
            .unwrap();
    let s = &json["scenarios"][0];
    assert_eq!(s["trials"], 1_048_576);
    assert_eq!(
        s["precision"],
        serde_json::json!({
            "targets": [{ "metrics": "p_dead", "half_width": 0.5 }],
            "max_trials": 2_000_000,
            "reached": true,
        })
    );
    let dir = tempfile::tempdir().unwrap();
    woundsim()
        .args(["run", "death-saves", "--metrics", "p_dead", "-q", "--out"])
        .arg(dir.path())
        .args(["--precision", "p_dead=0.00001", "--max-trials", "1e5"])
        .assert()
        .success();
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("run.json")).unwrap())
            .unwrap();
    let p = &json["scenarios"][0]["precision"];
    assert_eq!(p["reached"], false);
    assert_eq!(p["furthest"]["metric"], "p_dead");
    assert!(
        p["furthest"]["half_width"].as_f64().unwrap() > 0.00001,
        "{p}"
    );
    // A run of fixed trials has no such record.
    let dir = tempfile::tempdir().unwrap();
    woundsim()
        .args(["run", "death-saves", "--trials", "1000", "-q", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let text = std::fs::read_to_string(dir.path().join("run.json")).unwrap();
    assert!(!text.contains("precision"), "{text}");
}
