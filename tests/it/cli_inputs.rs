//! End-to-end tests of how the binary treats its inputs: scenario
//! arguments that are folders, an output folder that is a file, messages
//! that stay on one line, standard output that cannot be written, and runs
//! of a single trial.

use crate::common;

use std::process::{Command, Stdio};

use common::cli::{fixture, woundsim};
use predicates::prelude::*;

/// The binary as a plain `std` command, for redirections assert_cmd lacks.
fn plain() -> Command {
    Command::new(env!("CARGO_BIN_EXE_woundsim"))
}

#[test]
fn a_folder_named_like_a_builtin_scenario_does_not_shadow_it() {
    // After `--out .`, the working directory holds `festering-wounds/`.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("festering-wounds")).unwrap();
    std::fs::create_dir(dir.path().join("death-saves")).unwrap();
    woundsim()
        .current_dir(dir.path())
        .args(["exact", "festering-wounds", "--out", "exact", "--quiet"])
        .assert()
        .success()
        .stderr("");
    woundsim()
        .current_dir(dir.path())
        .args(["run", "death-saves", "--trials", "100", "--out", "mc", "-q"])
        .assert()
        .success();
    let summary = std::fs::read_to_string(dir.path().join("exact/summary.csv")).unwrap();
    assert!(summary.contains("\nfestering-wounds,"), "{summary}");
    assert!(dir.path().join("mc/death-saves/outcomes.png").is_file());
}

#[test]
fn a_folder_that_is_no_builtin_scenario_is_named_as_a_folder() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("mine")).unwrap();
    woundsim()
        .current_dir(dir.path())
        .args(["run", "mine", "--out", "o"])
        .assert()
        .code(2)
        .stdout("")
        .stderr("woundsim: `mine` is a directory, not a scenario file\n");
    assert!(!dir.path().join("o").exists());
}

#[test]
fn an_output_folder_that_is_a_file_is_named_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("afile"), "x").unwrap();
    for out in ["afile", "afile/sub"] {
        woundsim()
            .current_dir(dir.path())
            .args(["run", "combat-hobgoblins", "--quiet", "--out", out])
            .assert()
            .code(1)
            .stderr(predicate::str::ends_with("`afile` is not a directory\n"));
    }
    assert_eq!(std::fs::read(dir.path().join("afile")).unwrap(), b"x");
}

#[test]
fn every_error_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("afile"), "x").unwrap();
    let long_out = "x/".repeat(2100);
    let cases: Vec<Vec<String>> = [
        vec!["run", "--threads", "18446744073709551615"],
        vec!["run", "--threads", "10000"],
        vec!["run", "--bogus"],
        vec!["run", "--trials", "0"],
        vec!["run", "--confidence", "1.5"],
        vec!["run", "no\nsuch\u{1b}[31mfile"],
        vec!["run", "death-saves", "--out", &long_out],
        vec!["exact", "combat-ogres"],
        vec!["run", "death-saves", "--out", "afile/\nsub"],
    ]
    .iter()
    .map(|a| a.iter().map(|s| s.to_string()).collect())
    .chain(
        std::fs::read_dir(fixture("tests/scenarios/bad"))
            .unwrap()
            .map(|e| vec!["run".into(), e.unwrap().path().display().to_string()]),
    )
    .collect();
    for args in cases {
        let output = plain()
            .current_dir(dir.path())
            .args(&args)
            .args(["--quiet"].iter().filter(|_| args[0] == "run"))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{args:?}");
        assert!(
            stderr.starts_with("woundsim: ") && stderr.ends_with('\n'),
            "{args:?}: {stderr:?}"
        );
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr:?}");
        assert!(!stderr.contains('\u{1b}'), "{args:?}: {stderr:?}");
    }
}

#[test]
fn the_thread_cap_is_named_with_the_flag() {
    woundsim()
        .args(["run", "--threads", "18446744073709551615"])
        .assert()
        .code(2)
        .stderr(
            "woundsim: invalid value '18446744073709551615' for '--threads <T>': 18446744073709551615 is not in 0..=256 (see --help)\n",
        );
}

#[test]
fn a_scenario_path_too_long_for_the_system_is_refused_at_the_name() {
    let dir = tempfile::tempdir().unwrap();
    woundsim()
        .current_dir(dir.path())
        .args(["run", "death-saves", "--out", &"x/".repeat(2100)])
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with(
            "woundsim: scenarios/death-saves.toml (built-in):5:8: field `name`: the reports of `death-saves` in",
        ));
    assert!(!dir.path().join("x").exists());
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_standard_output_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        vec!["list"],
        vec!["run", "death-saves", "--trials", "100", "--out", "o"],
        vec!["exact", "death-saves", "--out", "e"],
    ] {
        let full = std::fs::File::create("/dev/full").unwrap();
        let output = plain()
            .current_dir(dir.path())
            .args(&args)
            .stdout(Stdio::from(full))
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&output.stderr),
            "woundsim: cannot write to standard output: No space left on device (os error 28)\n",
            "{args:?}"
        );
    }
}

#[cfg(unix)]
#[test]
fn a_closed_pipe_is_a_quiet_success() {
    // `woundsim list | head -0`: the reader is gone before anything is written.
    let mut child = plain()
        .arg("list")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{output:?}");
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
}

#[test]
fn one_trial_runs_every_shipped_scenario_with_undefined_mean_intervals() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("one");
    woundsim()
        .args(["run", "--trials", "1", "--out"])
        .arg(&out)
        .assert()
        .success()
        .stdout(predicate::str::contains("mean_rolls").and(predicate::str::contains("(n/a)")));
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    let mut means = 0;
    for line in summary.lines().skip(1) {
        let cells: Vec<&str> = line.split(',').collect();
        assert_eq!(cells.len(), 8, "{line}");
        // Figures taken over encounters, events, injuries or closed
        // wounds count those; every other figure is over the one trial.
        let over_other = common::counts_other_observations(cells[2]);
        if !over_other {
            assert_eq!(cells[6], "1", "{line}");
        }
        let (metric, low, high) = (cells[2], cells[4], cells[5]);
        // A mean or a difference of means over one trial has no variance.
        if metric == "mean_rolls" || metric.ends_with("_diff") {
            means += 1;
            assert_eq!((low, high), ("", ""), "{line}");
        }
        // Proportions keep their Wilson interval; nothing is written as NaN.
        if metric.starts_with("p_") && !metric.ends_with("_diff") {
            assert!(!low.is_empty() && !high.is_empty(), "{line}");
        }
    }
    assert!(means > 100, "{means}");
    for entry in walk(&out) {
        // Every report file name fits the bound the output-folder check assumes.
        let file_name = entry.file_name().unwrap().len();
        assert!(
            file_name <= woundsim::scenario::limits::MAX_REPORT_FILE_NAME,
            "{}",
            entry.display()
        );
        let text = std::fs::read(&entry).unwrap();
        assert!(!text.is_empty(), "{}", entry.display());
        if entry.extension().is_some_and(|e| e == "csv") {
            let text = String::from_utf8(text).unwrap();
            assert!(!text.contains("NaN"), "{}", entry.display());
        }
    }
    for name in [
        "death-saves",
        "festering-wounds",
        "combat-hobgoblins",
        "reattachment",
    ] {
        assert!(out.join(name).is_dir(), "{name}");
    }
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}

#[cfg(unix)]
#[test]
fn a_scenario_argument_that_is_not_a_regular_file_says_what_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.toml");
    let c_path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path; mkfifo only creates the node.
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
    let fifo = fifo.display().to_string();
    for (arg, reason) in [
        (
            fifo.as_str(),
            "not a regular file (a pipe, a device or a socket)",
        ),
        (
            "/dev/zero",
            "not a regular file (a pipe, a device or a socket)",
        ),
        (
            "-",
            "standard input is not read: give the scenario file's path",
        ),
    ] {
        let output = plain()
            .current_dir(dir.path())
            .args(["validate", arg])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{arg}");
        let text = String::from_utf8_lossy(&output.stdout).to_string()
            + &String::from_utf8_lossy(&output.stderr);
        assert!(
            text.contains(&format!("{arg}: cannot read scenario: {reason}")),
            "{arg}: {text}"
        );
        assert!(!text.contains("no such file"), "{arg}: {text}");
    }
}
