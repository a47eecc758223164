//! Crafted state files (issue 30, items 6–8): a state with a valid
//! checksum whose header or accumulators no run writes is refused by
//! `merge` with exit 2, one line naming the file and the field, nothing
//! written; never a crash, never a wrong figure, never work out of
//! proportion to the run's.
//!
//! The states are real shards' states, decoded, edited and encoded again
//! with a fresh checksum; the accumulators are edited through JSON (the
//! state's serde form), so a test can reach any field.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use common::cli::woundsim;
use serde_json::{Value, json};
use woundsim::app::shard::{ScenarioState, StateFile};

/// Shard `k` of `n` of the shipped scenario `name` at `trials`, into `dir`.
fn shard(dir: &Path, name: &str, trials: u64, k: u64, n: u64) -> PathBuf {
    let state = dir.join(format!("{name}-{k}-of-{n}.state"));
    woundsim()
        .args([
            "run",
            name,
            "--trials",
            &trials.to_string(),
            "--threads",
            "1",
        ])
        .args(["--shard", &format!("{k}/{n}"), "--state-out"])
        .arg(&state)
        .assert()
        .success();
    state
}

fn read(path: &Path) -> StateFile {
    StateFile::read(path).unwrap()
}

/// Writes `scenarios` as a state file (fresh checksum) to `dir/name`.
fn write(dir: &Path, name: &str, scenarios: &[ScenarioState]) -> PathBuf {
    let path = dir.join(name);
    fs::write(&path, StateFile::encode(scenarios)).unwrap();
    path
}

/// The state's accumulators edited as JSON by `edit`.
fn edit_acc(s: &mut ScenarioState, edit: impl FnOnce(&mut Value)) {
    let mut v = serde_json::to_value(&s.state).unwrap();
    edit(&mut v);
    s.state = serde_json::from_value(v).unwrap();
}

/// `merge` of `states` exits 2 with one line naming `file` and holding
/// every one of `says`, and writes nothing.
fn refused(states: &[&Path], file: &Path, says: &[&str]) {
    let out = states[0].parent().unwrap().join("reports");
    let assert = woundsim()
        .arg("merge")
        .args(states)
        .arg("--out")
        .arg(&out)
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).to_string();
    assert!(
        stderr.starts_with(&format!("error: {}", file.display()))
            || stderr.contains(&file.display().to_string()),
        "{} not named: {stderr}",
        file.display()
    );
    for s in says {
        assert!(stderr.contains(s), "{s:?} not in {stderr}");
    }
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(!out.exists(), "a refused merge wrote {}", out.display());
}

#[test]
fn accumulators_that_do_not_fit_their_scenario_are_refused_not_a_crash() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let ds = read(&shard(dir, "death-saves", 1000, 0, 1));
    // A short, an empty counts vector (exit 101 before: a slice range).
    for (name, counts) in [("short", json!([1, 2, 3])), ("empty", json!([]))] {
        let mut s = ds.scenarios[0].clone();
        edit_acc(&mut s, |v| {
            v["DeathSaves"]["nodes"][0]["acc"]["counts"] = counts
        });
        let path = write(dir, &format!("{name}.state"), &[s]);
        refused(
            &[&path],
            &path,
            &[
                "scenario `death-saves`",
                "field `counts`",
                "entries where the scenario has",
            ],
        );
    }
    // A scenario text with one more variant than the counts hold.
    let mut s = ds.scenarios[0].clone();
    s.text.push_str("\n[[variant]]\nname = \"one-more\"\n");
    s.sha256 = woundsim::scenario::digest::sha256_hex(s.text.as_bytes());
    let path = write(dir, "more-variants.state", &[s]);
    refused(&[&path], &path, &["field `counts`"]);

    let fw = read(&shard(dir, "festering-wounds", 1000, 0, 1));
    // An empty festering curve.
    let mut s = fw.scenarios[0].clone();
    edit_acc(&mut s, |v| {
        v["Festering"]["nodes"][0]["acc"]["variants"][1]["curve_deaths"] = json!([])
    });
    let path = write(dir, "curve.state", &[s]);
    refused(&[&path], &path, &["field `variants[1].curve_deaths`"]);
    // Another state type than the scenario's.
    // (with the chunk size of the state's type, which the header checks
    // first: a state of another chunk size is refused before its type).
    let mut s = fw.scenarios[0].clone();
    s.state = ds.scenarios[0].state.clone();
    s.chunk_trials = ds.scenarios[0].chunk_trials;
    s.chunks = s.trials.div_ceil(s.chunk_trials);
    s.end = s.chunks;
    let path = write(dir, "type.state", &[s]);
    refused(&[&path], &path, &["another scenario type"]);
}

#[test]
fn a_state_of_a_build_with_another_accumulator_layout_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let ds = read(&shard(dir, "death-saves", 1000, 0, 1));
    let path = dir.join("layout.state");
    let bytes = StateFile::encode_as(
        woundsim::app::shard::FORMAT,
        env!("CARGO_PKG_VERSION"),
        &woundsim::scenario::digest::sha256_hex(b"JointCounts{counts:[u32],}"),
        &ds.scenarios,
    );
    fs::write(&path, bytes).unwrap();
    refused(&[&path], &path, &["field `layout`", "laid out differently"]);
}

#[test]
fn header_fields_no_run_writes_are_refused_naming_the_field() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let ds = read(&shard(dir, "death-saves", 1000, 0, 1));
    type Edit = fn(&mut ScenarioState);
    let cases: [(&str, Edit, &str); 7] = [
        ("confidence-0", |s| s.confidence = 0.0, "field `confidence`"),
        ("confidence-2", |s| s.confidence = 2.0, "field `confidence`"),
        (
            "confidence-nan",
            |s| s.confidence = f64::NAN,
            "field `confidence`",
        ),
        ("trials-0", |s| s.trials = 0, "field `trials`"),
        ("trials-max", |s| s.trials = u64::MAX, "field `trials`"),
        ("seconds-neg", |s| s.seconds = -1.0, "field `seconds`"),
        ("seconds-nan", |s| s.seconds = f64::NAN, "field `seconds`"),
    ];
    for (name, edit, field) in cases {
        let mut s = ds.scenarios[0].clone();
        edit(&mut s);
        let path = write(dir, &format!("{name}.state"), &[s]);
        refused(&[&path], &path, &["scenario `death-saves`", field]);
    }
    let s = ds.scenarios[0].clone();
    let path = write(dir, "twice.state", &[s.clone(), s]);
    refused(&[&path], &path, &["holds scenario `death-saves` twice"]);
}

#[test]
fn counts_above_the_trials_or_that_wrap_or_no_run_gives_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // A variant that counted more trials than its chunks hold.
    let ds = read(&shard(dir, "death-saves", 1000, 0, 1));
    let mut s = ds.scenarios[0].clone();
    edit_acc(&mut s, |v| {
        v["DeathSaves"]["nodes"][0]["acc"]["counts"][0] = json!(1_000_000_000_000u64)
    });
    let path = write(dir, "trials.state", &[s]);
    refused(
        &[&path],
        &path,
        &[
            "scenario `death-saves`",
            "trials in chunks 0..1, which hold 1000 trials",
        ],
    );
    // Deaths far above the trials: p_death = 1e12 before.
    let fw = read(&shard(dir, "festering-wounds", 1000, 0, 1));
    let mut s = fw.scenarios[0].clone();
    edit_acc(&mut s, |v| {
        v["Festering"]["nodes"][0]["acc"]["variants"][0]["deaths"] = json!(1_000_000_000_000_000u64)
    });
    let path = write(dir, "deaths.state", &[s]);
    refused(
        &[&path],
        &path,
        &["scenario `festering-wounds`", "not a share between 0 and 1"],
    );
    // Counters that wrap when two shards are added.
    let trials = 70_000;
    let (a, b) = (
        read(&shard(dir, "festering-wounds", trials, 0, 2)),
        read(&shard(dir, "festering-wounds", trials, 1, 2)),
    );
    let wrap = |s: &ScenarioState| {
        let mut s = s.clone();
        edit_acc(&mut s, |v| {
            v["Festering"]["nodes"][0]["acc"]["variants"][2]["tended"] = json!(u64::MAX - 1)
        });
        s
    };
    let (wa, wb) = (
        write(dir, "wrap-a.state", &[wrap(&a.scenarios[0])]),
        write(dir, "wrap-b.state", &[wrap(&b.scenarios[0])]),
    );
    refused(
        &[&wa, &wb],
        &wb,
        &["field `variants[2].tended`", "more than a count can hold"],
    );

    // A mean no run gives, and a negative sum of squares.
    for (name, field, value) in [("mean", "mean", json!(1e308)), ("m2", "m2", json!(-1.0))] {
        let mut s = fw.scenarios[0].clone();
        edit_acc(&mut s, |v| {
            v["Festering"]["nodes"][0]["acc"]["variants"][0]["lost"][field] = value
        });
        let path = write(dir, &format!("{name}.state"), &[s]);
        refused(&[&path], &path, &["field `variants[0].lost`"]);
    }
}

#[test]
fn the_work_of_a_merge_is_bounded_by_the_scenario_not_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let fw = read(&shard(dir, "festering-wounds", 1000, 0, 1));
    // 2,000,000 histogram bins (518 s before, the rows quadratic in them).
    let mut s = fw.scenarios[0].clone();
    edit_acc(&mut s, |v| {
        v["Festering"]["nodes"][0]["acc"]["variants"][0]["loss"]["bins"] =
            json!(vec![1u64; 2_000_000])
    });
    let path = write(dir, "bins.state", &[s]);
    let started = std::time::Instant::now();
    refused(&[&path], &path, &["field `variants[0].loss`", "bins from"]);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    // One chunk as a tree of leaves no run builds: refused before any work.
    let ds = read(&shard(dir, "death-saves", 200_000, 0, 1));
    let mut s = ds.scenarios[0].clone();
    edit_acc(&mut s, |v| {
        let node = v["DeathSaves"]["nodes"][0].clone();
        let leaves: Vec<Value> = (0..4u64)
            .map(|i| {
                let mut leaf = node.clone();
                leaf["level"] = json!(0);
                leaf["index"] = json!(i);
                leaf
            })
            .collect();
        let rest: Vec<Value> = v["DeathSaves"]["nodes"].as_array().unwrap()[1..].to_vec();
        v["DeathSaves"]["nodes"] = Value::Array(leaves.into_iter().chain(rest).collect());
    });
    let path = write(dir, "leaves.state", &[s]);
    refused(&[&path], &path, &["field `state`", "merge tree"]);
}
