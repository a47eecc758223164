//! The steps of a commit and their on-disk journal. Every change a commit
//! makes to the output folder is one [`Step`]; the commit writes its whole
//! plan to `journal` in its staging folder (one JSON object a line,
//! synced) before the first change, and the line `"committed"` at its
//! commit point. Undoing a step checks first that it was done (the file is
//! where the step put it, the way back is free), so the plan of a killed
//! run can be undone whatever step it died at; every path is looked up
//! inside the folder without following a link ([`crate::files::inside`]),
//! so a crafted journal cannot reach outside it.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::files::inside::{Entry, lookup};
use crate::files::lock;

/// The journal's file name in the staging folder.
pub const JOURNAL: &str = "journal";

/// One change to the output folder; paths relative to it, `/`-separated.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// A folder the run created inside the output folder.
    MadeDir(String),
    /// `from` renamed to `to`: a staged file moved into place, or a
    /// replaced or stale file moved to its backup in the staging folder.
    Moved {
        /// Where it was.
        from: String,
        /// Where it went.
        to: String,
    },
    /// An empty folder removed, and its permission bits.
    RemovedDir {
        /// The folder.
        path: String,
        /// Its mode (Unix permission bits).
        mode: u32,
    },
    /// The commit point: the run's files stay (journal only).
    Committed,
    /// The output folder or a parent of it, created by the run (in
    /// memory only: absolute).
    #[serde(skip)]
    MadeOuter(PathBuf),
    /// The staging folder, with everything in it (in memory only).
    #[serde(skip)]
    Staging(String),
    /// The lock file and its identity (in memory only).
    #[serde(skip)]
    Locked(PathBuf, (u64, u64)),
}

/// The mode of a folder, to restore it.
pub fn mode(m: &fs::Metadata) -> u32 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        m.permissions().mode()
    }
    #[cfg(not(unix))]
    {
        let _ = m;
        0o755
    }
}

fn set_mode(path: &Path, mode: u32) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(path, fs::Permissions::from_mode(mode))
    }
    #[cfg(not(unix))]
    {
        let _ = (path, mode);
        Ok(())
    }
}

fn not_done(what: &str) -> io::Error {
    io::Error::other(format!("{what} is not where the run left it"))
}

impl Step {
    /// Undoes the step in the output folder `dir`. `strict`: the step is
    /// known to have been done (this process did it), so finding it not
    /// done is an error; otherwise (a killed run's plan) a step not done
    /// is left as it is.
    pub fn undo(&self, dir: &Path, strict: bool) -> io::Result<()> {
        let at = |p: &str| lookup(dir, Path::new(p));
        match self {
            Step::MadeDir(path) => {
                if at(path)? != Entry::Dir {
                    return if strict { Err(not_done(path)) } else { Ok(()) };
                }
                // A folder a killed run made may hold what it moved there
                // only if that move was not undone: then it stays.
                match fs::remove_dir(dir.join(path)) {
                    Err(e) if strict => Err(e),
                    _ => Ok(()),
                }
            }
            Step::Moved { from, to } => {
                let done =
                    matches!(at(to)?, Entry::File | Entry::Other) && at(from)? == Entry::Missing;
                if done {
                    fs::rename(dir.join(to), dir.join(from))
                } else if strict {
                    Err(not_done(to))
                } else {
                    Ok(())
                }
            }
            Step::RemovedDir { path, mode } => match at(path)? {
                Entry::Missing => {
                    let path = dir.join(path);
                    fs::create_dir(&path)?;
                    set_mode(&path, *mode)
                }
                _ if strict => Err(not_done(path)),
                _ => Ok(()),
            },
            Step::Committed => Ok(()),
            Step::MadeOuter(path) => fs::remove_dir(path),
            Step::Staging(path) => match at(path)? {
                Entry::Dir => fs::remove_dir_all(dir.join(path)),
                _ => Ok(()),
            },
            Step::Locked(path, id) => {
                lock::remove_if_mine(path, *id);
                Ok(())
            }
        }
    }

    /// The path a message names for the step: never one in the staging
    /// folder (`staging`), which the user has no use for.
    pub fn shown(&self, dir: &Path, staging: &str) -> PathBuf {
        let in_staging = |p: &str| p.starts_with(staging) && p[staging.len()..].starts_with('/');
        match self {
            Step::MadeDir(p) | Step::RemovedDir { path: p, .. } => dir.join(p),
            Step::Moved { from, to } => dir.join(if in_staging(from) { to } else { from }),
            Step::MadeOuter(p) | Step::Locked(p, _) => p.clone(),
            Step::Committed | Step::Staging(_) => dir.to_path_buf(),
        }
    }
}

/// The journal file of a commit, appended to and synced.
#[derive(Debug)]
pub struct Journal(File);

impl Journal {
    /// Creates the journal in the staging folder `staging`.
    pub fn create(staging: &Path) -> io::Result<Journal> {
        File::create_new(staging.join(JOURNAL)).map(Journal)
    }

    /// Appends `steps` and syncs them to disk.
    pub fn append(&mut self, steps: &[Step]) -> io::Result<()> {
        let mut text = Vec::new();
        for step in steps {
            serde_json::to_writer(&mut text, step).map_err(io::Error::other)?;
            text.push(b'\n');
        }
        self.0.write_all(&text)?;
        self.0.sync_data()
    }
}

/// The steps of a journal's text, up to its first line that does not
/// read (a line torn by a crash: its step was never started).
pub fn parse(text: &[u8]) -> Vec<Step> {
    text.split(|b| *b == b'\n')
        .map(serde_json::from_slice::<Step>)
        .take_while(Result::is_ok)
        .flatten()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_journal_reads_back_up_to_a_torn_line() {
        let steps = vec![
            Step::MadeDir("a".into()),
            Step::Moved {
                from: "s/1".into(),
                to: "a/x.csv".into(),
            },
            Step::RemovedDir {
                path: "b".into(),
                mode: 0o755,
            },
            Step::Committed,
        ];
        let dir = tempfile::tempdir().unwrap();
        Journal::create(dir.path()).unwrap().append(&steps).unwrap();
        let mut text = fs::read(dir.path().join(JOURNAL)).unwrap();
        assert_eq!(parse(&text), steps);
        text.truncate(text.len() - 5);
        assert_eq!(parse(&text), steps[..3]);
    }

    #[test]
    fn a_step_not_done_is_left_alone_unless_strict() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("s")).unwrap();
        fs::write(dir.path().join("s/1"), "new").unwrap();
        let moved = Step::Moved {
            from: "s/1".into(),
            to: "x.csv".into(),
        };
        moved.undo(dir.path(), false).unwrap();
        assert!(moved.undo(dir.path(), true).is_err());
        fs::rename(dir.path().join("s/1"), dir.path().join("x.csv")).unwrap();
        moved.undo(dir.path(), false).unwrap();
        assert_eq!(fs::read(dir.path().join("s/1")).unwrap(), b"new");
    }

    #[cfg(unix)]
    #[test]
    fn undoing_never_goes_through_a_link() {
        let root = tempfile::tempdir().unwrap();
        let outside = root.path().join("home");
        fs::create_dir(&outside).unwrap();
        fs::write(outside.join("id_rsa"), "SECRET").unwrap();
        let dir = root.path().join("out");
        fs::create_dir_all(dir.join("s")).unwrap();
        std::os::unix::fs::symlink(&outside, dir.join("link")).unwrap();
        // A crafted journal: "undo" moving the secret into the staging folder.
        let crafted = Step::Moved {
            from: "s/1".into(),
            to: "link/id_rsa".into(),
        };
        crafted.undo(&dir, false).unwrap();
        assert!(crafted.undo(&dir, true).is_err());
        assert_eq!(fs::read(outside.join("id_rsa")).unwrap(), b"SECRET");
        assert!(!dir.join("s/1").exists());
    }
}
