//! The run metadata in `DIR/run.json` (commit, start, wall time, threads,
//! and per scenario its text's hash, seed, trials, level, variants, time
//! and rate) and the last line of a run's stdout (wall time and rate).

use crate::common;

use std::path::Path;

use common::cli::{fixture, woundsim};
use woundsim::report::run_info::sha256_hex;

fn manifest(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("run.json")).unwrap()).unwrap()
}

/// `2026-12-01T09:30:00Z`.
fn is_rfc3339_utc(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 20
        && b.iter().enumerate().all(|(i, c)| match i {
            4 | 7 => *c == b'-',
            10 => *c == b'T',
            13 | 16 => *c == b':',
            19 => *c == b'Z',
            _ => c.is_ascii_digit(),
        })
}

#[test]
fn run_json_records_the_build_the_run_and_each_scenario() {
    let dir = tempfile::tempdir().unwrap();
    let file = fixture("scenarios/death-saves.toml");
    let out = woundsim()
        .args([
            "run",
            &file,
            "permanent-wounds",
            "--trials",
            "20000",
            "--seed",
            "9",
        ])
        .args(["--threads", "2", "--out"])
        .arg(dir.path())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let stdout = String::from_utf8(out).unwrap();
    let last = stdout.lines().last().unwrap();
    let prefix = format!("wrote 14 files to {} in ", dir.path().display());
    assert!(last.starts_with(&prefix), "{last}");
    assert!(
        last.ends_with(&format!(
            " trials/s); the report: {}",
            dir.path().join("index.html").display()
        )),
        "the last line names index.html: {last}"
    );
    assert!(last.contains(" s ("), "{last}");

    let m = manifest(dir.path());
    assert_eq!(m["woundsim_version"], env!("CARGO_PKG_VERSION"));
    assert!(
        is_rfc3339_utc(m["started"].as_str().unwrap()),
        "{}",
        m["started"]
    );
    assert_eq!(m["threads"], 2);
    let wall = m["wall_seconds"].as_f64().unwrap();
    assert!(wall > 0.0);
    let scenarios = m["scenarios"].as_array().unwrap();
    assert_eq!(scenarios.len(), 2);
    let mut work = 0.0;
    let mut seconds = 0.0;
    for (s, text) in scenarios.iter().zip([
        std::fs::read(&file).unwrap(),
        std::fs::read(fixture("scenarios/permanent-wounds.toml")).unwrap(),
    ]) {
        assert_eq!(s["sha256"], sha256_hex(&text), "{s}");
        assert_eq!(
            (s["seed"].as_u64(), s["trials"].as_u64()),
            (Some(9), Some(20_000))
        );
        assert_eq!(s["confidence"], 0.95);
        assert_eq!(s["type"], "death_saves");
        let variants = s["variants"].as_array().unwrap().len() as f64;
        let t = s["wall_seconds"].as_f64().unwrap();
        let rate = s["trials_per_second"].as_f64().unwrap();
        assert!((rate - 20_000.0 * variants / t).abs() <= 1e-9 * rate, "{s}");
        work += 20_000.0 * variants;
        seconds += t;
        assert!(t <= wall);
    }
    assert_eq!(scenarios[0]["source"], file.as_str());
    assert_eq!(scenarios[0]["name"], "death-saves");
    assert_eq!(
        scenarios[1]["source"],
        "scenarios/permanent-wounds.toml (built-in)"
    );
    let rate = m["trials_per_second"].as_f64().unwrap();
    assert!((rate - work / seconds).abs() <= 1e-9 * rate);
}

#[test]
fn the_commit_is_the_checkouts_head_when_built_from_git() {
    let dir = tempfile::tempdir().unwrap();
    woundsim()
        .args(["run", "death-saves", "--trials", "100", "--quiet", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let m = manifest(dir.path());
    let head = std::process::Command::new("git")
        .args(["-C", env!("CARGO_MANIFEST_DIR"), "rev-parse", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8(o.stdout).unwrap().trim().to_string());
    match head {
        Some(head) => {
            let commit = m["commit"].as_str().unwrap();
            assert!(
                commit == head || commit == format!("{head}-dirty"),
                "{commit} vs {head}"
            );
        }
        // Not a checkout (a packaged crate): no commit is claimed.
        None => assert!(m.get("commit").is_none()),
    }
}

#[test]
fn quiet_prints_nothing_and_exact_runs_have_no_rate() {
    let dir = tempfile::tempdir().unwrap();
    woundsim()
        .args(["exact", "death-saves", "--out"])
        .arg(dir.path())
        .assert()
        .success()
        .stdout(
            predicates::str::is_match(
                "\nwrote 9 files to .* in [0-9.]+ s; the report: .*index.html\n$",
            )
            .unwrap(),
        );
    let m = manifest(dir.path());
    assert!(m.get("threads").is_none() && m.get("trials_per_second").is_none());
    let s = &m["scenarios"][0];
    assert_eq!(
        (s["trials"].as_u64(), s["seed"].as_u64()),
        (Some(0), Some(0))
    );
    assert!(s.get("trials_per_second").is_none());
    woundsim()
        .args(["run", "death-saves", "--trials", "100", "--quiet", "--out"])
        .arg(dir.path())
        .assert()
        .success()
        .stdout("");
}
