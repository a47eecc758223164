//! Interrupted and failed runs leave the output folder exactly as it was:
//! SIGINT and SIGTERM at every stage of a run (the binary stops at a named
//! point through `WOUNDSIM_TEST_HOOK`, so each signal lands at a known
//! moment), a second signal, injected I/O errors, and cancellation inside a
//! campaign that would take hours. Unix only: the tests send signals with
//! `kill(2)`.

#![cfg(unix)]

use crate::common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use common::cli::woundsim;
use common::folder::snapshot;

/// A running `woundsim` whose stderr is read line by line.
struct Running {
    child: Child,
    lines: Receiver<String>,
    stderr: Vec<String>,
}

impl Running {
    fn start(hooks: &str, args: &[&str], out: &Path) -> Running {
        let mut child = Command::new(env!("CARGO_BIN_EXE_woundsim"))
            .args(args)
            .arg("--out")
            .arg(out)
            .env("WOUNDSIM_TEST_HOOK", hooks)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stderr = child.stderr.take().unwrap();
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Running {
            child,
            lines,
            stderr: Vec::new(),
        }
    }

    /// Waits for the stderr line `line`.
    fn expect(&mut self, line: &str) {
        let deadline = Instant::now() + Duration::from_secs(120);
        while Instant::now() < deadline {
            match self.lines.recv_timeout(Duration::from_millis(100)) {
                Ok(l) => {
                    let found = l == line;
                    self.stderr.push(l);
                    if found {
                        return;
                    }
                }
                Err(_) => {
                    if let Ok(Some(status)) = self.child.try_wait() {
                        panic!("exited ({status}) before `{line}`: {:?}", self.stderr);
                    }
                }
            }
        }
        let _ = self.child.kill();
        panic!("no `{line}` on stderr: {:?}", self.stderr);
    }

    fn signal(&self, signal: i32) {
        let pid = libc::pid_t::try_from(self.child.id()).unwrap();
        // SAFETY: `kill` has no memory-safety preconditions; the child is
        // ours and not yet reaped, so the pid is still its own.
        assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
    }

    /// Waits for the exit, at most `limit`; the status and the stderr lines
    /// that are not test markers.
    fn finish(mut self, limit: Duration) -> (ExitStatus, Vec<String>) {
        let start = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if start.elapsed() > limit {
                let _ = self.child.kill();
                panic!("still running after {limit:?}: {:?}", self.stderr);
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        // The reader thread ends at the child's end of stderr.
        while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(10)) {
            self.stderr.push(line);
        }
        let messages = self
            .stderr
            .into_iter()
            .filter(|l| !l.starts_with("woundsim-test: "))
            .collect();
        (status, messages)
    }
}

/// The run under test. Into [`previous_run`]'s folder, it stages 7 files
/// (`summary.csv`, 5 in `death-saves/`, `run.json`), and its commit makes
/// 14 renames: `summary.csv` to a backup and the new one in (1, 2), the
/// 5 new files in a new folder (3 to 7), `run.json` out and in (8, 9), the
/// previous run's 5 files of `permanent-wounds/` out (10 to 14); then it
/// removes `permanent-wounds/`.
const RUN: [&str; 4] = ["run", "death-saves", "--trials=3000", "--quiet"];

/// An output folder holding a previous run of `permanent-wounds` and a
/// file of the user's.
fn previous_run() -> (tempfile::TempDir, PathBuf) {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("out");
    woundsim()
        .args(["run", "permanent-wounds", "--trials=2000", "--quiet"])
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    (root, out)
}

/// A signal, its exit code and its name.
#[derive(Clone, Copy)]
struct Sig(i32, i32, &'static str);
const SIGINT: Sig = Sig(libc::SIGINT, 130, "SIGINT");
const SIGTERM: Sig = Sig(libc::SIGTERM, 143, "SIGTERM");

/// Runs `RUN` into a previous run's folder, stops it at `point` and sends
/// it `sig` once (the run is paused there until the signal) or twice (it
/// is held there a minute, so only the second signal can end it); checks
/// that it exits with the signal's code and one line on stderr, and
/// leaves the folder (and its parent) as before.
fn signalled(point: &str, sig: Sig, twice: bool) {
    let Sig(number, code, name) = sig;
    let (root, out) = previous_run();
    let before = snapshot(root.path());
    let action = if twice { "hold" } else { "pause" };
    let mut run = Running::start(&format!("{action}@{point}"), &RUN, &out);
    run.expect(&format!("woundsim-test: at {point}"));
    run.signal(number);
    let message = if twice {
        run.expect(&format!("woundsim-test: signal {name}"));
        run.signal(number);
        format!("woundsim: {name} again: stopped at once, no report was written")
    } else {
        format!("woundsim: interrupted by {name}: no report was written")
    };
    // A hold lasts a minute: exiting well before it is exiting at once.
    let (status, stderr) = run.finish(Duration::from_secs(30));
    assert_eq!(status.code(), Some(code), "{point}: {stderr:?}");
    assert_eq!(stderr, [message]);
    assert_eq!(snapshot(root.path()), before, "{point}");
}

#[test]
fn sigint_at_any_point_of_a_run_exits_130_and_changes_nothing() {
    for point in [
        "simulating",
        "simulated",
        "stage:1",
        "staged",
        "rename:1",
        "rename:2",
        "rename:5",
        "rename:9",
        "rename:10",
        "rename:14",
        "renamed",
    ] {
        signalled(point, SIGINT, false);
    }
}

#[test]
fn sigterm_at_any_point_of_a_run_exits_143_and_changes_nothing() {
    // `started`: the first moment of the process, before the command line
    // is read (the signal used to end it silently, by the default action).
    for point in [
        "started",
        "simulated",
        "stage:7",
        "staged",
        "rename:3",
        "renamed",
    ] {
        signalled(point, SIGTERM, false);
    }
}

#[test]
fn sigint_after_the_last_batch_of_a_combat_writes_nothing() {
    // The reproduction: 200,000 combat trials are one batch, and a signal
    // after it used to be ignored (exit 0, 12 files).
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("d");
    let args = ["run", "combat-hobgoblins", "--trials=20000", "--quiet"];
    let mut run = Running::start("pause@simulated", &args, &out);
    run.expect("woundsim-test: at simulated");
    run.signal(libc::SIGINT);
    let (status, _) = run.finish(Duration::from_secs(60));
    assert_eq!(status.code(), Some(130));
    assert!(snapshot(root.path()).is_empty());
}

#[test]
fn a_signal_after_the_commit_point_is_too_late_to_undo_the_run() {
    let (_root, out) = previous_run();
    let mut run = Running::start("pause@committed", &RUN, &out);
    run.expect("woundsim-test: at committed");
    run.signal(libc::SIGINT);
    let (status, stderr) = run.finish(Duration::from_secs(60));
    assert_eq!(status.code(), Some(0), "{stderr:?}");
    assert!(out.join("death-saves/rolls.csv").is_file());
    assert!(!out.join("permanent-wounds").exists());
    let temporaries = snapshot(&out)
        .into_keys()
        .filter(|p| p.to_string_lossy().contains(".woundsim-"))
        .count();
    assert_eq!(temporaries, 0);
}

#[test]
fn a_second_signal_exits_at_once_and_still_changes_nothing() {
    signalled("simulating", SIGTERM, true);
    signalled("stage:4", SIGINT, true);
    signalled("rename:2", SIGINT, true);
    signalled("rename:12", SIGTERM, true);
    signalled("renamed", SIGINT, true);
}

#[test]
fn sigint_inside_a_campaign_of_hours_acts_within_seconds() {
    // 2,000 campaigns of 100,000 encounters of 2,000 attacks fit in one
    // chunk, about an hour and a half of work, about 3 s per campaign.
    let root = tempfile::tempdir().unwrap();
    let scenario = root.path().join("long.toml");
    std::fs::write(
        &scenario,
        "version = 1\nname = \"long\"\ntype = \"injuries\"\ntrials = 2000\nseed = 1\n\
         [options]\nattacks_made = 1000\nattacks_received = 1000\nencounters = 100000\n\
         [[variant]]\nname = \"base\"\n",
    )
    .unwrap();
    let out = root.path().join("out");
    let args = ["run", scenario.to_str().unwrap(), "--quiet", "--threads=2"];
    let mut run = Running::start("mark@simulating", &args, &out);
    run.expect("woundsim-test: at simulating");
    // Well inside the first campaigns.
    std::thread::sleep(Duration::from_millis(500));
    run.signal(libc::SIGINT);
    // The bound is loose for a loaded machine; without polling inside the
    // campaign, this took over an hour.
    let (status, _) = run.finish(Duration::from_secs(20));
    assert_eq!(status.code(), Some(130));
    assert!(!out.exists());
}

/// Runs `RUN` with `hook` into a previous run's folder: it must fail with
/// exit code 1 and one message, and leave everything as it was.
fn failure_at(hook: &str) {
    let (root, out) = previous_run();
    let before = snapshot(root.path());
    let run = Running::start(hook, &RUN, &out);
    let (status, stderr) = run.finish(Duration::from_secs(60));
    assert_eq!(status.code(), Some(1), "{hook}: {stderr:?}");
    assert_eq!(stderr.len(), 1, "{stderr:?}");
    assert!(stderr[0].contains("injected failure"), "{stderr:?}");
    assert_eq!(snapshot(root.path()), before, "{hook}");
}

#[test]
fn an_io_error_while_staging_or_renaming_changes_nothing() {
    for hook in [
        "fail@stage:1",
        "fail@stage:7",
        "fail@rename:1",
        "fail@rename:2",
        "fail@rename:8",
        "fail@rename:14",
    ] {
        failure_at(hook);
    }
}

#[test]
fn a_failed_run_into_a_new_folder_leaves_no_folder() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("o/nested");
    let run = Running::start("fail@stage:3", &RUN, &out);
    let (status, _) = run.finish(Duration::from_secs(60));
    assert_eq!(status.code(), Some(1));
    assert!(snapshot(root.path()).is_empty());
}

#[test]
fn a_scenario_name_too_long_for_the_folder_leaves_no_folder() {
    let root = tempfile::tempdir().unwrap();
    let scenario = root.path().join("long-name.toml");
    std::fs::write(
        &scenario,
        format!(
            "version = 1\nname = \"{}\"\ntype = \"death_saves\"\ntrials = 100\nseed = 1\n",
            "n".repeat(256)
        ),
    )
    .unwrap();
    let out = root.path().join("out");
    let status = woundsim()
        .args(["run", scenario.to_str().unwrap(), "--quiet", "--out"])
        .arg(&out)
        .assert()
        .failure()
        .get_output()
        .status;
    assert!(status.code().is_some_and(|c| c == 1 || c == 2));
    assert_eq!(snapshot(root.path()).len(), 1, "only the scenario file");
}
