//! Recovery of a commit that was killed (SIGKILL, out of memory, power
//! loss) before it finished: the next run into the folder, holding its
//! lock, finds the killed run's staging folder (`.woundsim-*.tmp`, a real
//! folder, never a link) and reads its journal ([`super::step`]):
//!
//! * the journal reaches its commit point: the run's files are all in
//!   place, so it is **finished** — its staging folder (the replaced
//!   files) goes;
//! * it does not: every step of its plan that was done is undone, last
//!   first, so the folder is again the run before it — **rolled back** —
//!   and its staging folder goes;
//! * its journal is empty (the run died before its plan was written,
//!   having changed nothing): the staging folder goes, silently;
//! * it has no journal: the same, unless it holds replaced files of a
//!   woundsim from before journals, which is left as it is.
//!
//! A staging folder whose rollback fails stays, for the next run to try.

use std::fs;
use std::io;
use std::path::Path;

use super::step::{self, JOURNAL, Step};
use crate::files::read::{ReadError, read_regular};

/// The prefix and suffix of a staging folder's name.
pub const STAGING_PREFIX: &str = ".woundsim-";
/// See [`STAGING_PREFIX`].
pub const STAGING_SUFFIX: &str = ".tmp";

/// The largest journal read (a plan of a million steps).
const MAX_JOURNAL_BYTES: u64 = 256 << 20;

/// What recovery did with one staging folder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recovered {
    /// Past its commit point: the staging folder removed.
    Finished,
    /// Before it: the plan undone, the staging folder removed.
    RolledBack,
    /// No journal: nothing had changed; the staging folder removed.
    Cleaned,
    /// Replaced files with no journal (an older woundsim): left alone.
    Unknown,
}

/// Recovers every killed commit in `dir`, oldest name first.
pub fn recover(dir: &Path) -> io::Result<Vec<(String, Recovered)>> {
    let mut names = Vec::new();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let Some(name) = entry.file_name().to_str().map(str::to_string) else {
            continue;
        };
        // `file_type` does not follow a link.
        if name.starts_with(STAGING_PREFIX)
            && name.ends_with(STAGING_SUFFIX)
            && entry.file_type()?.is_dir()
        {
            names.push(name);
        }
    }
    names.sort();
    names
        .into_iter()
        .map(|name| Ok((name.clone(), recover_one(dir, &name)?)))
        .collect()
}

/// Whether `path` names something in the staging folder `staging`.
fn in_staging(staging: &str, path: &str) -> bool {
    path.strip_prefix(staging)
        .is_some_and(|rest| rest.starts_with('/'))
}

/// Whether a journal step may be undone by this recovery: a move must
/// have one end in the staging folder being recovered (a crafted journal
/// cannot move files between places the run never used).
fn trusted(staging: &str, step: &Step) -> bool {
    match step {
        Step::Moved { from, to } => in_staging(staging, from) != in_staging(staging, to),
        Step::MadeDir(p) | Step::RemovedDir { path: p, .. } => !in_staging(staging, p),
        _ => false,
    }
}

fn recover_one(dir: &Path, staging: &str) -> io::Result<Recovered> {
    let folder = dir.join(staging);
    let journal = match read_regular(&folder.join(JOURNAL), MAX_JOURNAL_BYTES) {
        Ok(bytes) => Some(step::parse(&bytes)),
        Err(ReadError::Io(e)) if e.kind() == io::ErrorKind::NotFound => None,
        Err(ReadError::Io(e)) => return Err(e),
        Err(e) => return Err(io::Error::other(format!("its journal: {e}"))),
    };
    let outcome = match journal {
        None => {
            let backups = fs::read_dir(&folder)?
                .flatten()
                .any(|e| e.file_name().to_string_lossy().starts_with("backup-"));
            if backups {
                return Ok(Recovered::Unknown);
            }
            Recovered::Cleaned
        }
        // Killed before its plan was on disk: nothing was changed.
        Some(steps) if steps.is_empty() => Recovered::Cleaned,
        Some(steps) if steps.last() == Some(&Step::Committed) => Recovered::Finished,
        Some(steps) => {
            for step in steps.iter().rev().filter(|s| trusted(staging, s)) {
                step.undo(dir, false)?;
            }
            Recovered::RolledBack
        }
    };
    fs::remove_dir_all(&folder)?;
    Ok(outcome)
}

#[cfg(test)]
mod tests {
    use super::*;
    use step::Journal;

    /// A folder with a previous run, and a killed commit's plan for it:
    /// `summary.csv` replaced, `new/b.csv` added, `old/a.csv` removed.
    fn killed(done: usize, committed: bool) -> (tempfile::TempDir, String) {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        fs::create_dir(d.join("old")).unwrap();
        fs::write(d.join("summary.csv"), "old summary").unwrap();
        fs::write(d.join("old/a.csv"), "old a").unwrap();
        let s = ".woundsim-abc.tmp".to_string();
        fs::create_dir(d.join(&s)).unwrap();
        fs::write(d.join(&s).join("1"), "new summary").unwrap();
        fs::write(d.join(&s).join("2"), "new b").unwrap();
        let mv = |from: &str, to: &str| Step::Moved {
            from: from.replace('S', &s),
            to: to.replace('S', &s),
        };
        let plan = vec![
            Step::MadeDir("new".into()),
            mv("summary.csv", "S/backup-1"),
            mv("S/1", "summary.csv"),
            mv("S/2", "new/b.csv"),
            mv("old/a.csv", "S/backup-2"),
            Step::RemovedDir {
                path: "old".into(),
                mode: 0o755,
            },
        ];
        let mut journal = Journal::create(&d.join(&s)).unwrap();
        journal.append(&plan).unwrap();
        for step in &plan[..done] {
            match step {
                Step::MadeDir(p) => fs::create_dir(d.join(p)).unwrap(),
                Step::Moved { from, to } => fs::rename(d.join(from), d.join(to)).unwrap(),
                Step::RemovedDir { path, .. } => fs::remove_dir(d.join(path)).unwrap(),
                _ => unreachable!(),
            }
        }
        if committed {
            journal.append(&[Step::Committed]).unwrap();
        }
        (dir, s)
    }

    fn files(d: &Path) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let mut todo = vec![d.to_path_buf()];
        while let Some(at) = todo.pop() {
            for e in fs::read_dir(&at).unwrap().flatten() {
                let rel = e.path().strip_prefix(d).unwrap().display().to_string();
                if e.path().is_dir() {
                    todo.push(e.path());
                    out.push((rel, String::new()));
                } else {
                    out.push((rel, fs::read_to_string(e.path()).unwrap()));
                }
            }
        }
        out.sort();
        out
    }

    #[test]
    fn a_commit_killed_at_any_step_is_rolled_back_to_the_run_before() {
        let (before, _) = killed(0, false);
        let expect = files(before.path())
            .into_iter()
            .filter(|(p, _)| !p.starts_with(".woundsim-"))
            .collect::<Vec<_>>();
        for done in 0..=6 {
            let (dir, s) = killed(done, false);
            let got = recover(dir.path()).unwrap();
            assert_eq!(got, [(s, Recovered::RolledBack)], "{done}");
            assert_eq!(files(dir.path()), expect, "{done}");
        }
    }

    #[test]
    fn a_commit_killed_past_its_commit_point_is_finished() {
        let (dir, s) = killed(6, true);
        assert_eq!(recover(dir.path()).unwrap(), [(s, Recovered::Finished)]);
        let expect = [
            ("new", ""),
            ("new/b.csv", "new b"),
            ("summary.csv", "new summary"),
        ]
        .map(|(p, t)| (p.to_string(), t.to_string()));
        assert_eq!(files(dir.path()), expect);
    }

    #[test]
    fn a_staging_folder_without_a_journal_goes_unless_it_holds_backups() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join(".woundsim-a.tmp")).unwrap();
        fs::write(dir.path().join(".woundsim-a.tmp/1"), "staged").unwrap();
        fs::create_dir(dir.path().join(".woundsim-b.tmp")).unwrap();
        fs::write(dir.path().join(".woundsim-b.tmp/backup-1"), "old").unwrap();
        let got = recover(dir.path()).unwrap();
        assert_eq!(
            got,
            [
                (".woundsim-a.tmp".to_string(), Recovered::Cleaned),
                (".woundsim-b.tmp".to_string(), Recovered::Unknown)
            ]
        );
        assert!(!dir.path().join(".woundsim-a.tmp").exists());
        assert!(dir.path().join(".woundsim-b.tmp/backup-1").exists());
    }

    #[cfg(unix)]
    #[test]
    fn a_crafted_journal_reaches_nothing_outside_the_folder() {
        let root = tempfile::tempdir().unwrap();
        let home = root.path().join("home");
        fs::create_dir(&home).unwrap();
        fs::write(home.join("id_rsa"), "SECRET").unwrap();
        let dir = root.path().join("out");
        let s = ".woundsim-x.tmp";
        fs::create_dir_all(dir.join(s)).unwrap();
        std::os::unix::fs::symlink(&home, dir.join("link")).unwrap();
        // A staging folder that is a link is never entered either.
        std::os::unix::fs::symlink(&home, dir.join(".woundsim-y.tmp")).unwrap();
        let plan = [
            Step::Moved {
                from: format!("{s}/1"),
                to: "link/id_rsa".into(),
            },
            Step::MadeDir("link".into()),
        ];
        Journal::create(&dir.join(s))
            .unwrap()
            .append(&plan)
            .unwrap();
        recover(&dir).unwrap();
        assert_eq!(fs::read(home.join("id_rsa")).unwrap(), b"SECRET");
        assert!(dir.join(".woundsim-y.tmp").is_symlink());
    }
}
