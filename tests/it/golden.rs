//! Golden outputs: every shipped scenario of the default suite (and the
//! calibration, reduced), run by the binary at a fixed
//! seed and a small trial count, must write exactly the CSV files committed
//! under `tests/golden/` — `summary.csv` and every distribution CSV, byte
//! for byte, for Monte Carlo (`mc/`) and exact mode (`exact/`).
//!
//! A refactor moves none of them. A deliberate model change updates them
//! in a commit of its own whose message says why:
//!
//! ```text
//! WOUNDSIM_BLESS=1 cargo test --test it golden
//! ```
//!
//! The trial count spans two chunks of the engine (the second one
//! partial), so chunk merging is pinned too.

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Two chunks of 2^16 trials, the second one partial.
const TRIALS: &str = "69632";

fn golden_dir(mode: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(mode)
}

/// Every `.csv` below `dir`, as paths relative to it.
fn csv_files(dir: &Path) -> BTreeSet<PathBuf> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeSet<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(root, &path, out);
            } else if path.extension().is_some_and(|e| e == "csv") {
                out.insert(path.strip_prefix(root).unwrap().to_path_buf());
            }
        }
    }
    let mut out = BTreeSet::new();
    walk(dir, dir, &mut out);
    out
}

/// Compares the CSVs written to `written` with `tests/golden/<mode>`, or
/// replaces the golden files with them under `WOUNDSIM_BLESS=1`.
fn compare(mode: &str, written: &Path) {
    let golden = golden_dir(mode);
    let got = csv_files(written);
    assert!(got.len() > 1, "the run wrote no distribution CSVs");
    if std::env::var_os("WOUNDSIM_BLESS").is_some() {
        let _ = std::fs::remove_dir_all(&golden);
        for file in &got {
            let to = golden.join(file);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(written.join(file), to).unwrap();
        }
        return;
    }
    let want = csv_files(&golden);
    assert_eq!(
        got, want,
        "the set of CSV files differs from tests/golden/{mode} (bless with WOUNDSIM_BLESS=1 if the change is deliberate)"
    );
    for file in &want {
        let a = std::fs::read(written.join(file)).unwrap();
        let b = std::fs::read(golden.join(file)).unwrap();
        if a != b {
            let (a, b) = (String::from_utf8_lossy(&a), String::from_utf8_lossy(&b));
            let first = a
                .lines()
                .zip(b.lines())
                .enumerate()
                .find(|(_, (x, y))| x != y)
                .map(|(i, (x, y))| format!("line {}:\n  now:    {x}\n  golden: {y}", i + 1))
                .unwrap_or_else(|| "the files differ in length".into());
            panic!("tests/golden/{mode}/{} changed at {first}", file.display());
        }
    }
}

/// `woundsim run ARGS --threads 2 --quiet --out DIR` into a new folder.
fn run_into(args: &[&str]) -> tempfile::TempDir {
    let out = tempfile::tempdir().unwrap();
    common::cli::woundsim()
        .arg("run")
        .args(args)
        .args(["--threads", "2", "--quiet", "--out"])
        .arg(out.path())
        .assert()
        .success();
    out
}

#[test]
fn every_shipped_scenario_writes_its_golden_monte_carlo_csvs() {
    let out = run_into(&["--trials", TRIALS]);
    compare("mc", out.path());
}

#[test]
fn every_shipped_scenario_writes_its_golden_exact_csvs() {
    let out = tempfile::tempdir().unwrap();
    // Every built-in scenario whose type has an exact solver.
    let names = [
        "death-saves",
        "permanent-wounds",
        "lingering-injuries",
        "festering-wounds",
        "injury-costs",
        "amputation",
        "reattachment",
    ];
    common::cli::woundsim()
        .arg("exact")
        .args(names)
        .args(["--quiet", "--out"])
        .arg(out.path())
        .assert()
        .success();
    compare("exact", out.path());
}

/// The calibration (`combat-calibration`, run on request, not in the
/// default suite) reduced to four levels, one per tier, at its seed: a
/// change to the combat model moves these figures (docs/calibration.md).
#[test]
fn the_reduced_calibration_writes_its_golden_csvs() {
    let out = run_into(&[
        "combat-calibration",
        "--scan",
        "party_level=1,5,11,17",
        "--trials",
        "4000",
    ]);
    compare("calibration", out.path());
}
