//! The output folder's guarantees at its edges (issue 30, items 1–5): a
//! crafted `run.json` and a link delete nothing outside the folder;
//! `--junit`, `--json` and `--state-out` never replace a folder, a link or
//! a special file, nor land in the baseline; two runs into one folder
//! commit one after the other and lose no file; a run killed at any step
//! of its commit is finished or rolled back by the next run; FIFOs and
//! devices among the inputs are refused at once. Unix only: links, FIFOs,
//! signals.

#![cfg(unix)]

use crate::common;

use std::io::{BufRead, BufReader};
use std::os::unix::fs::{FileTypeExt, symlink};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::cli::woundsim;
use common::folder::snapshot;

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: `c` is a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

/// Runs the binary with `hooks` (may be empty) and `args`, at most a
/// minute (a blocked open would hang it): its output.
fn run_with(hooks: &str, args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_woundsim"))
        .args(args)
        .env("WOUNDSIM_TEST_HOOK", hooks)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("still running after a minute: {args:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    child.wait_with_output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The stderr lines that are not test markers.
fn messages(o: &Output) -> Vec<String> {
    stderr(o)
        .lines()
        .filter(|l| !l.starts_with("woundsim-test: "))
        .map(str::to_string)
        .collect()
}

// ---- 1. Nothing outside the folder is removed ----

#[test]
fn a_crafted_manifest_and_a_link_remove_nothing_outside_the_folder() {
    // The reproduction of the issue, word for word.
    let root = tempfile::tempdir().unwrap();
    let home = root.path().join("home");
    std::fs::create_dir_all(home.join(".ssh")).unwrap();
    std::fs::create_dir_all(home.join("keepme")).unwrap();
    std::fs::write(home.join(".ssh/id_rsa"), "SECRET").unwrap();
    let reports = root.path().join("repo/reports");
    std::fs::create_dir_all(&reports).unwrap();
    symlink(&home, reports.join("link")).unwrap();
    std::fs::write(
        reports.join("run.json"),
        r#"{"woundsim_version":"0.1.0","files":["link/.ssh/id_rsa","link"],"dirs":["link/keepme","link/.ssh","link"]}"#,
    )
    .unwrap();
    let before = snapshot(&home);
    woundsim()
        .args(["run", "death-saves", "--trials=1000", "-q", "--out"])
        .arg(&reports)
        .assert()
        .success();
    assert_eq!(snapshot(&home), before);
    assert_eq!(
        std::fs::read_to_string(home.join(".ssh/id_rsa")).unwrap(),
        "SECRET"
    );
    // The link is not a regular file of a run either: it stays.
    assert!(reports.join("link").is_symlink());
    assert!(reports.join("death-saves/rolls.csv").is_file());
}

#[test]
fn a_scenario_folder_that_is_a_link_out_of_the_folder_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let elsewhere = root.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    std::fs::write(elsewhere.join("rolls.csv"), "mine").unwrap();
    let out = root.path().join("out");
    std::fs::create_dir(&out).unwrap();
    symlink(&elsewhere, out.join("death-saves")).unwrap();
    let o = run_with(
        "",
        &[
            "run",
            "death-saves",
            "--trials=1000",
            "-q",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let m = messages(&o);
    assert_eq!(m.len(), 1, "{m:?}");
    assert!(m[0].contains("is a symbolic link"), "{m:?}");
    assert_eq!(
        std::fs::read_to_string(elsewhere.join("rolls.csv")).unwrap(),
        "mine"
    );
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 1);
}

// ---- 2. Report files given on the command line ----

/// A baseline folder (a fresh run) in `root`.
fn baseline(root: &Path) -> PathBuf {
    let base = root.join("base");
    woundsim()
        .args(["run", "death-saves", "--trials=2000", "-q", "--out"])
        .arg(&base)
        .assert()
        .success();
    base
}

/// `woundsim check` of `base` against itself with `extra`: its output.
fn check(base: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "check",
        "--baseline",
        base.to_str().unwrap(),
        "--current",
        base.to_str().unwrap(),
        "-q",
    ];
    args.extend_from_slice(extra);
    run_with("", &args)
}

fn refused(o: &Output, says: &str) {
    assert_eq!(o.status.code(), Some(2), "{}", stderr(o));
    let m = messages(o);
    assert_eq!(m.len(), 1, "{m:?}");
    assert!(m[0].contains(says), "{says:?} not in {m:?}");
}

#[test]
fn report_files_never_replace_a_folder_a_link_or_the_baseline() {
    let root = tempfile::tempdir().unwrap();
    let base = baseline(root.path());
    let summary = base.join("summary.csv");
    let before = snapshot(&base);
    // The baseline's own summary, and a new file inside the baseline.
    refused(
        &check(&base, &["--junit", summary.to_str().unwrap()]),
        "is inside the baseline folder",
    );
    let inside = base.join("junit.xml");
    refused(
        &check(&base, &["--json", inside.to_str().unwrap()]),
        "is inside the baseline folder",
    );
    assert_eq!(snapshot(&base), before);
    // A folder.
    let dir = root.path().join("adir");
    std::fs::create_dir(&dir).unwrap();
    refused(
        &check(&base, &["--junit", dir.to_str().unwrap()]),
        "is a directory, not a file",
    );
    // A link to a file: neither the link nor its target changes.
    let target = root.path().join("target.xml");
    std::fs::write(&target, "mine").unwrap();
    let link = root.path().join("link.xml");
    symlink(&target, &link).unwrap();
    refused(
        &check(&base, &["--json", link.to_str().unwrap()]),
        "is a symbolic link to a regular file",
    );
    assert!(link.is_symlink());
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "mine");
    // A regular file or nothing: written.
    let ok = root.path().join("ok.xml");
    let o = check(&base, &["--junit", ok.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        std::fs::read_to_string(&ok)
            .unwrap()
            .contains("<testsuites")
    );
}

#[test]
fn state_out_never_replaces_a_fifo_a_folder_or_a_device() {
    let root = tempfile::tempdir().unwrap();
    let shard = |path: &Path| {
        run_with(
            "",
            &[
                "run",
                "death-saves",
                "--trials=1000",
                "-q",
                "--shard=0/2",
                "--state-out",
                path.to_str().unwrap(),
            ],
        )
    };
    // A FIFO nobody reads: refused at once, and still a FIFO.
    let fifo = root.path().join("state.fifo");
    mkfifo(&fifo);
    refused(&shard(&fifo), "is a FIFO that no process is reading");
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo()
    );
    // A folder.
    refused(&shard(root.path()), "is a directory, not a file");
    // A character device is written through, never replaced (as root,
    // replacing /dev/null would have been possible).
    let o = shard(Path::new("/dev/null"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let null = std::fs::symlink_metadata("/dev/null").unwrap();
    assert!(null.file_type().is_char_device());
}

// ---- 3. Two runs into one folder ----

/// `root/out` holding a finished run of `permanent-wounds`, and its path
/// as text.
fn finished_run(root: &Path) -> (PathBuf, String) {
    let out = root.join("out");
    let out_s = out.to_str().unwrap().to_string();
    woundsim()
        .args([
            "run",
            "permanent-wounds",
            "--trials=1000",
            "-q",
            "--out",
            &out_s,
        ])
        .assert()
        .success();
    (out, out_s)
}

#[test]
fn two_runs_committing_into_one_folder_take_turns_and_lose_no_file() {
    let root = tempfile::tempdir().unwrap();
    let (out, out_s) = finished_run(root.path());
    // The first run holds the lock from its plan on, its renames slowed
    // as on a network file system.
    let mut first = Command::new(env!("CARGO_BIN_EXE_woundsim"))
        .args([
            "run",
            "death-saves",
            "amputation",
            "--trials=1000",
            "-q",
            "--out",
            &out_s,
        ])
        .env("WOUNDSIM_TEST_HOOK", "mark@planned,slow@rename:*")
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(first.stderr.take().unwrap()).lines();
    let marker = lines.next().unwrap().unwrap();
    assert_eq!(marker, "woundsim-test: at planned");
    let second = run_with(
        "slow@rename:*",
        &["run", "death-saves", "--trials=1000", "-q", "--out", &out_s],
    );
    let first_status = first.wait().unwrap();
    let first_rest: Vec<String> = lines.map_while(Result::ok).collect();
    assert!(first_status.success(), "{first_rest:?}");
    assert!(second.status.success(), "{}", stderr(&second));
    assert_eq!(
        messages(&second),
        [format!(
            "woundsim: another woundsim run is writing into `{out_s}`: waiting for it to finish"
        )]
    );
    // The second run committed last, over the first's whole run: the
    // folder is its run, every listed file is there, nothing else.
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    let mut listed: Vec<PathBuf> = json["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| PathBuf::from(f.as_str().unwrap()))
        .collect();
    listed.push("run.json".into());
    listed.sort();
    let files: Vec<PathBuf> = snapshot(&out)
        .into_iter()
        .filter(|(_, e)| matches!(e, common::folder::Entry::File(_)))
        .map(|(p, _)| p)
        .collect();
    assert_eq!(files, listed);
    assert!(listed.iter().all(|f| !f.starts_with("amputation")));
    assert!(!out.join("permanent-wounds").exists());
}

/// A running binary whose stderr lines arrive on a channel.
struct Spawned {
    child: std::process::Child,
    lines: std::sync::mpsc::Receiver<String>,
}

impl Spawned {
    fn start(hooks: &str, args: &[&str]) -> Spawned {
        let mut child = Command::new(env!("CARGO_BIN_EXE_woundsim"))
            .args(args)
            .env("WOUNDSIM_TEST_HOOK", hooks)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stderr = child.stderr.take().unwrap();
        let (send, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Spawned { child, lines }
    }

    fn expect(&self, line: &str) {
        let got = self.lines.recv_timeout(Duration::from_secs(60)).unwrap();
        assert_eq!(got, line);
    }

    /// Sends SIGINT; the exit code, which must come within `limit`.
    fn interrupt(mut self, limit: Duration) -> Option<i32> {
        let pid = libc::pid_t::try_from(self.child.id()).unwrap();
        // SAFETY: `kill` has no memory-safety preconditions; the child is
        // ours and not yet reaped.
        assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            assert!(start.elapsed() < limit, "still running after {limit:?}");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

#[test]
fn a_run_waiting_for_the_lock_stops_at_once_on_a_signal() {
    let root = tempfile::tempdir().unwrap();
    let (_, out_s) = finished_run(root.path());
    let before = snapshot(root.path());
    let run = ["run", "death-saves", "--trials=1000", "-q", "--out", &out_s];
    // The first run holds the lock, paused inside its commit.
    let first = Spawned::start("pause@rename:1", &run);
    first.expect("woundsim-test: at rename:1");
    let second = Spawned::start("", &run);
    second.expect(&format!(
        "woundsim: another woundsim run is writing into `{out_s}`: waiting for it to finish"
    ));
    assert_eq!(second.interrupt(Duration::from_secs(5)), Some(130));
    assert_eq!(first.interrupt(Duration::from_secs(30)), Some(130));
    assert_eq!(snapshot(root.path()), before);
}

// ---- 4. A run killed mid-commit ----

/// The killed run: into `previous`'s folder it stages 7 files and makes
/// 14 renames (see tests/it/interrupt.rs), reproducibly.
const RUN: [&str; 5] = [
    "run",
    "death-saves",
    "--trials=3000",
    "--quiet",
    "--reproducible",
];

/// A folder with a previous run of `permanent-wounds` and a user's file.
fn previous(root: &Path) -> PathBuf {
    let out = root.join("out");
    woundsim()
        .args([
            "run",
            "permanent-wounds",
            "--trials=2000",
            "-q",
            "--reproducible",
            "--out",
        ])
        .arg(&out)
        .assert()
        .success();
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    out
}

fn args_into<'a>(args: &[&'a str], out: &'a str) -> Vec<&'a str> {
    let mut all = args.to_vec();
    all.extend(["--out", out]);
    all
}

#[test]
fn a_run_killed_at_any_step_of_its_commit_is_recovered_by_the_next() {
    // What the folder holds after the killed run, had it finished.
    let done = tempfile::tempdir().unwrap();
    let done_out = previous(done.path());
    let o = run_with("", &args_into(&RUN, done_out.to_str().unwrap()));
    assert!(o.status.success());
    let finished = snapshot(done.path());
    let rolled_back = "rolled it back (the folder holds the run before it)";
    let finished_line = "finished it (the folder holds that run)";
    for (point, said) in [
        ("staged", None),
        ("planned", Some(rolled_back)),
        ("rename:1", Some(rolled_back)),
        ("rename:2", Some(rolled_back)),
        ("rename:5", Some(rolled_back)),
        ("rename:9", Some(rolled_back)),
        ("rename:14", Some(rolled_back)),
        ("renamed", Some(rolled_back)),
        ("marked", Some(finished_line)),
        ("committed", None),
    ] {
        let root = tempfile::tempdir().unwrap();
        let out = previous(root.path());
        let out_s = out.to_str().unwrap();
        let before = snapshot(root.path());
        let killed = run_with(&format!("kill@{point}"), &args_into(&RUN, out_s));
        assert_eq!(
            std::os::unix::process::ExitStatusExt::signal(&killed.status),
            Some(libc::SIGKILL),
            "{point}: {}",
            stderr(&killed)
        );
        // The next run recovers, then fails on its own first file and
        // undoes only its own changes: what is left is the recovery.
        let next = run_with("fail@stage:1", &args_into(&RUN, out_s));
        assert_eq!(next.status.code(), Some(1), "{point}: {}", stderr(&next));
        let m = messages(&next);
        match said {
            Some(text) => {
                assert_eq!(m.len(), 2, "{point}: {m:?}");
                assert_eq!(
                    m[0],
                    format!(
                        "woundsim: an earlier run into `{out_s}` was killed {} {text}",
                        if text == finished_line {
                            "after its commit point:"
                        } else {
                            "while it moved its files into place:"
                        }
                    ),
                    "{point}"
                );
            }
            None => assert_eq!(m.len(), 1, "{point}: {m:?}"),
        }
        assert!(
            m.last().unwrap().contains("injected failure"),
            "{point}: {m:?}"
        );
        assert!(
            !m.iter().any(|l| l.contains(".woundsim-")),
            "{point}: {m:?}"
        );
        let expect = if matches!(point, "marked" | "committed") {
            &finished
        } else {
            &before
        };
        assert_eq!(&snapshot(root.path()), expect, "{point}");
    }
}

// ---- 5. Inputs that are not regular files ----

#[test]
fn a_fifo_or_a_device_as_run_json_is_refused_at_once() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let run_into = || {
        let args = ["run", "death-saves", "--trials=1000", "-q", "--out"];
        run_with("", &[&args[..], &[out.to_str().unwrap()]].concat())
    };
    mkfifo(&out.join("run.json"));
    let o = run_into();
    refused(&o, "it is a FIFO, not a regular file");
    assert!(messages(&o)[0].contains("run.json"));
    std::fs::remove_file(out.join("run.json")).unwrap();
    symlink("/dev/zero", out.join("run.json")).unwrap();
    let o = run_into();
    refused(&o, "it is a character device, not a regular file");
    std::fs::remove_file(out.join("run.json")).unwrap();
    // Larger than any manifest: refused without reading it all.
    let f = std::fs::File::create(out.join("run.json")).unwrap();
    f.set_len((16 << 20) + 1).unwrap();
    let o = run_into();
    refused(&o, "larger than 16777216 bytes");
}

#[test]
fn a_fifo_as_a_bestiary_file_or_a_baseline_summary_is_refused_at_once() {
    let root = tempfile::tempdir().unwrap();
    mkfifo(&root.path().join("monsters.toml"));
    std::fs::write(
        root.path().join("s.toml"),
        "version = 1\nname = \"s\"\ntype = \"combat\"\ntrials = 100\nseed = 1\n\
         bestiary = [\"monsters.toml\"]\n[options]\n\
         party = [{ template = \"fighter-5\", name = \"fighter\" }]\n\
         monsters = [{ creature = \"hobgoblin\" }]\n[[variant]]\nname = \"a\"\n",
    )
    .unwrap();
    let scenario = root.path().join("s.toml");
    let out = root.path().join("out");
    let o = run_with(
        "",
        &[
            "run",
            scenario.to_str().unwrap(),
            "-q",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    refused(&o, "it is a FIFO, not a regular file");
    assert!(messages(&o)[0].contains("s.toml:6:"), "{:?}", messages(&o));
    assert!(!out.exists());
    let base = root.path().join("base");
    std::fs::create_dir(&base).unwrap();
    mkfifo(&base.join("summary.csv"));
    let o = run_with(
        "",
        &[
            "check",
            "--baseline",
            base.to_str().unwrap(),
            "--current",
            base.to_str().unwrap(),
            "-q",
        ],
    );
    refused(&o, "it is a FIFO, not a regular file");
}
