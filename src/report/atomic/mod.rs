//! All-or-nothing output: a [`Transaction`] stages every file of a run in
//! one hidden folder inside the output folder (`DIR/.woundsim-XXXXXX.tmp/`)
//! and only then moves them into place, holding the folder's lock
//! ([`crate::files::lock`]) from its start to its end, so that two runs
//! into one folder commit one after the other, each over the other's
//! whole run. Every change it makes to the output folder — a folder
//! created, a file moved in, a replaced or stale file moved out to a
//! backup in the staging folder, an empty folder removed — is a
//! [`step::Step`]:
//!
//! * the whole plan of the commit is written to the staging folder's
//!   journal and synced before the first change, and the commit point is
//!   recorded there too, so a run killed mid-commit (SIGKILL, power loss)
//!   is finished or rolled back by the next run into the folder
//!   ([`recover`]), which says which on stderr;
//! * in memory, each change is recorded as it is made, so that a failure
//!   (full disk, a name too long, an injected error) or a requested
//!   [`Stop`] (a first SIGINT or SIGTERM), checked before every step,
//!   rolls every step back and removes the staging folder;
//! * [`abandon_all`], for a process that exits at once (a second signal),
//!   does the same for every open transaction from the signal thread;
//! * the commit point is one check of the stop, under the journal lock,
//!   after the last step: from then on the run's files stay, and the
//!   staging folder with its backups is deleted.
//!
//! So the folder ends either exactly as it was (same files, same bytes,
//! the replaced files even the same inodes, no temporary, no new folder)
//! or with every file of the run. The journal lock is held for one step
//! at a time (one rename, one file created), never while a file's bytes
//! are written, so a forced exit waits at most for one such step.
//!
//! Nothing outside the folder is touched: every path below it is looked
//! up without following a link ([`crate::files::inside`]); only regular
//! files are removed as stale; a link or a file where a folder of the run
//! must go stops the commit. Messages name the folder's own paths, never
//! the staging folder.

pub mod recover;
pub mod step;

use std::collections::BTreeSet;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::engine::Stop;
use crate::files::inside::{Entry, lookup};
use crate::files::lock::{self, FolderLock, LockError};
use crate::testhook;
use recover::{Recovered, STAGING_PREFIX, STAGING_SUFFIX};
use step::{Journal as DiskJournal, Step};

/// Why output could not be committed.
#[derive(Debug, thiserror::Error)]
pub enum CommitError {
    /// The stop was requested before the commit point; nothing changed.
    #[error("interrupted")]
    Interrupted,
    /// A file or folder could not be written; nothing changed.
    #[error("cannot write {}: {source}{}", path.display(), why(source))]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// Undoing a failed run failed too: the folder is not as it was.
    #[error("{cause}; restoring the output folder failed too, at {}: {source}", path.display())]
    NotRestored {
        /// Why the run was undone.
        cause: Box<CommitError>,
        /// The file or folder that could not be restored.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
}

/// What an operating system's reason means for a run's output, where it
/// is not plain: files are staged inside the output folder and moved into
/// place by rename, which cannot cross filesystems.
fn why(source: &io::Error) -> &'static str {
    match source.kind() {
        io::ErrorKind::CrossesDevices => {
            "; a folder of the report (the scenario's folder, or a folder in it) is on another \
             filesystem than the output folder, and a run moves its files into place from \
             there by rename: give --out a folder whose report folders are on its filesystem"
        }
        _ => "",
    }
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> CommitError + '_ {
    move |source| CommitError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The steps of one open transaction.
struct Journal {
    id: u64,
    dir: PathBuf,
    /// The staging folder's name (empty before it exists).
    staging: String,
    steps: Vec<Step>,
}

impl Journal {
    /// Undoes every step, last first; carries on past a failure and
    /// returns the first one. After a failure the staging folder, with
    /// the replaced files and the journal, stays for the next run's
    /// recovery.
    fn roll_back(&mut self) -> Result<(), (PathBuf, io::Error)> {
        let mut first = None;
        for step in self.steps.drain(..).rev() {
            if first.is_some() && matches!(step, Step::Staging(_)) {
                continue;
            }
            if let Err(e) = step.undo(&self.dir, true) {
                first.get_or_insert((step.shown(&self.dir, &self.staging), e));
            }
        }
        first.map_or(Ok(()), Err)
    }
}

/// Every open transaction of the process (tests run several at once).
static JOURNALS: Mutex<Vec<Journal>> = Mutex::new(Vec::new());
static NEXT_ID: AtomicU64 = AtomicU64::new(0);
/// Whether a transaction of the process passed its commit point.
static COMMITTED: AtomicBool = AtomicBool::new(false);

fn journals() -> MutexGuard<'static, Vec<Journal>> {
    JOURNALS.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Removes transaction `id` from `all`, rolling it back.
fn roll_back(all: &mut Vec<Journal>, id: u64) -> Result<(), (PathBuf, io::Error)> {
    match all.iter().position(|j| j.id == id) {
        Some(k) => all.swap_remove(k).roll_back(),
        None => Ok(()),
    }
}

/// Rolls back every open transaction and keeps the journal locked for
/// good, so that no thread stages or renames anything afterwards. For a
/// process about to exit at once (a second SIGINT or SIGTERM): call it,
/// then exit. Returns whether a transaction of the process had already
/// passed its commit point (its files stay).
pub fn abandon_all() -> bool {
    let mut all = journals();
    for journal in all.iter_mut() {
        let _ = journal.roll_back();
    }
    all.clear();
    let committed = COMMITTED.load(Ordering::Relaxed);
    std::mem::forget(all);
    committed
}

/// `path` as the `/`-separated text a journal records.
fn text(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

/// The folders `a` and `a/b` of the file `a/b/c.csv`, shallowest first.
fn folders(file: &str) -> impl Iterator<Item = &str> {
    file.match_indices('/').map(|(k, _)| &file[..k])
}

/// What a recovery of a killed run says on stderr.
fn tell(dir: &Path, name: &str, what: Recovered) {
    let dir = dir.display();
    match what {
        Recovered::Finished => eprintln!(
            "woundsim: an earlier run into `{dir}` was killed after its commit point: finished it (the folder holds that run)"
        ),
        Recovered::RolledBack => eprintln!(
            "woundsim: an earlier run into `{dir}` was killed while it moved its files into place: rolled it back (the folder holds the run before it)"
        ),
        Recovered::Cleaned => {}
        Recovered::Unknown => eprintln!(
            "woundsim: warning: `{dir}/{name}` was left by an older woundsim stopped while it wrote its files; it holds that run's replaced files and is left as it is"
        ),
    }
}

/// Output being written into one folder, all or nothing.
pub struct Transaction<'a> {
    id: u64,
    dir: PathBuf,
    /// The staging folder's name in `dir`.
    staging: String,
    journal: Option<DiskJournal>,
    lock: Option<FolderLock>,
    stop: Stop<'a>,
    /// Staged files and their destinations, relative to `dir`.
    staged: Vec<(String, String)>,
    stale_files: Vec<String>,
    stale_dirs: Vec<String>,
    renames: usize,
    /// Whether the journal is still open (neither committed nor undone).
    open: bool,
}

impl<'a> Transaction<'a> {
    /// Starts writing into `dir`: creates it (and any missing parent),
    /// takes its lock (waiting, with a line on stderr, while another run
    /// holds it), finishes or rolls back any commit a killed run left
    /// there, and makes the staging folder inside it.
    pub fn begin(dir: &Path, stop: Stop<'a>) -> Result<Self, CommitError> {
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        journals().push(Journal {
            id,
            dir: dir.to_path_buf(),
            staging: String::new(),
            steps: Vec::new(),
        });
        let mut t = Transaction {
            id,
            dir: dir.to_path_buf(),
            staging: String::new(),
            journal: None,
            lock: None,
            stop,
            staged: Vec::new(),
            stale_files: Vec::new(),
            stale_dirs: Vec::new(),
            renames: 0,
            open: true,
        };
        let started = t
            .make_dirs(dir)
            .and_then(|()| t.take_lock())
            .and_then(|()| t.recover())
            .and_then(|()| t.make_staging());
        match started {
            Ok(()) => Ok(t),
            Err(e) => Err(t.abort(e)),
        }
    }

    /// Takes the folder's lock, recorded so that a rollback removes it.
    fn take_lock(&mut self) -> Result<(), CommitError> {
        let dir = self.dir.clone();
        let stop = self.stop;
        let lock = lock::acquire(
            &dir,
            || {
                eprintln!(
                    "woundsim: another woundsim run is writing into `{}`: waiting for it to finish",
                    dir.display()
                )
            },
            || stop.requested(),
        )
        .map_err(|e| match e {
            LockError::Stopped => CommitError::Interrupted,
            LockError::Io(e) => io_error(&dir.join(lock::FILE))(e),
        })?;
        let (path, identity) = lock.identity();
        self.lock = Some(lock);
        self.record(&dir, || Ok(((), Some(Step::Locked(path, identity)))))
    }

    /// Finishes or rolls back the commits of killed runs in the folder.
    fn recover(&self) -> Result<(), CommitError> {
        let found = recover::recover(&self.dir).map_err(io_error(&self.dir))?;
        for (name, what) in found {
            tell(&self.dir, &name, what);
        }
        Ok(())
    }

    /// Makes the staging folder and its journal.
    fn make_staging(&mut self) -> Result<(), CommitError> {
        let dir = self.dir.clone();
        let staging = self.record(&dir, || {
            let staging = tempfile::Builder::new()
                .prefix(STAGING_PREFIX)
                .suffix(STAGING_SUFFIX)
                .tempdir_in(&dir)?
                .keep();
            let name = staging
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            Ok((name.clone(), Some(Step::Staging(name))))
        })?;
        if let Some(j) = journals().iter_mut().find(|j| j.id == self.id) {
            j.staging = staging.clone();
        }
        self.journal = Some(DiskJournal::create(&dir.join(&staging)).map_err(io_error(&dir))?);
        self.staging = staging;
        Ok(())
    }

    /// Runs one change to the folder under the journal lock, unless the
    /// stop is requested, and records it.
    fn record<T>(
        &self,
        path: &Path,
        change: impl FnOnce() -> io::Result<(T, Option<Step>)>,
    ) -> Result<T, CommitError> {
        let mut all = journals();
        if self.stop.requested() {
            return Err(CommitError::Interrupted);
        }
        let (value, step) = change().map_err(io_error(path))?;
        if let Some(step) = step {
            if let Some(journal) = all.iter_mut().find(|j| j.id == self.id) {
                journal.steps.push(step);
            }
        }
        Ok(value)
    }

    /// Creates `dir` (the output folder) and its missing parents, one
    /// recorded step each.
    fn make_dirs(&self, dir: &Path) -> Result<(), CommitError> {
        let mut missing = Vec::new();
        let mut at = dir;
        loop {
            match fs::metadata(at) {
                Ok(m) if m.is_dir() => break,
                Ok(_) => {
                    let e = io::Error::new(io::ErrorKind::NotADirectory, "not a directory");
                    return Err(io_error(at)(e));
                }
                // A file further up says so when its turn comes.
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
                    ) =>
                {
                    // A link to nothing is there, but cannot be created.
                    if let Ok(target) = fs::read_link(at) {
                        let e = io::Error::new(
                            io::ErrorKind::NotFound,
                            format!(
                                "it is a symbolic link to `{}`, which does not exist: create that folder, or remove the link",
                                target.display()
                            ),
                        );
                        return Err(io_error(at)(e));
                    }
                    missing.push(at)
                }
                Err(e) => return Err(io_error(at)(e)),
            }
            match at.parent() {
                Some(parent) if !parent.as_os_str().is_empty() => at = parent,
                _ => break,
            }
        }
        for dir in missing.into_iter().rev() {
            self.record(dir, || {
                fs::create_dir(dir)?;
                Ok(((), Some(Step::MadeOuter(dir.to_path_buf()))))
            })?;
        }
        Ok(())
    }

    /// Writes `bytes` to a staged file that will become `DIR/relative`.
    pub fn stage(&mut self, relative: &Path, bytes: &[u8]) -> Result<(), CommitError> {
        let n = self.staged.len() + 1;
        let tmp = format!("{}/{n}", self.staging);
        let dest = self.dir.join(relative);
        testhook::at(format_args!("stage:{n}"), self.stop);
        let written = self
            .record(&dest, || {
                Ok((fs::File::create_new(self.dir.join(&tmp))?, None))
            })
            .and_then(|mut file| {
                testhook::fail(format_args!("stage:{n}"))
                    .and_then(|()| file.write_all(bytes))
                    .and_then(|()| file.sync_all())
                    .map_err(io_error(&dest))
            });
        match written {
            Ok(()) => {
                self.staged.push((tmp, text(relative)));
                Ok(())
            }
            Err(e) => Err(self.abort(e)),
        }
    }

    /// At the commit, moves `DIR/relative` out of the folder if it is a
    /// regular file reached without going through a link (a file of the
    /// previous run that this run does not rewrite).
    pub fn remove_file(&mut self, relative: &Path) {
        self.stale_files.push(text(relative));
    }

    /// At the commit, after the stale files, removes `DIR/relative` if it
    /// is an empty folder (not a link). Give the deepest folders first.
    pub fn remove_empty_dir(&mut self, relative: &Path) {
        self.stale_dirs.push(text(relative));
    }

    /// Moves every staged file into place and every stale file out, then
    /// passes the commit point, unless the stop was requested first.
    pub fn commit(mut self) -> Result<(), CommitError> {
        testhook::at("staged", self.stop);
        match self.apply() {
            Ok(()) => self.pass_commit_point(),
            Err(e) => Err(self.abort(e)),
        }
    }

    /// Every step of the commit, decided before the first is made.
    fn plan(&mut self) -> Result<Vec<Step>, CommitError> {
        let dir = self.dir.clone();
        let at = |p: &str| lookup(&dir, Path::new(p)).map_err(io_error(&dir.join(p)));
        let mut steps = Vec::new();
        let mut made = BTreeSet::new();
        let mut backups = 0;
        let mut backup = |from: &str| {
            backups += 1;
            Step::Moved {
                from: from.to_string(),
                to: format!("{}/backup-{backups}", self.staging),
            }
        };
        for (tmp, dest) in &self.staged {
            for folder in folders(dest) {
                match at(folder)? {
                    Entry::Dir => {}
                    Entry::Missing => {
                        if made.insert(folder.to_string()) {
                            steps.push(Step::MadeDir(folder.to_string()));
                        }
                    }
                    _ => {
                        let e = io::Error::new(
                            io::ErrorKind::NotADirectory,
                            "not a folder (a link or a file): a run writes only inside its folder",
                        );
                        return Err(io_error(&dir.join(folder))(e));
                    }
                }
            }
            match at(dest)? {
                Entry::Missing => {}
                Entry::File | Entry::Other => steps.push(backup(dest)),
                Entry::Dir | Entry::Outside => {
                    let e = io::Error::new(io::ErrorKind::IsADirectory, "a folder is in the way");
                    return Err(io_error(&dir.join(dest))(e));
                }
            }
            steps.push(Step::Moved {
                from: tmp.clone(),
                to: dest.clone(),
            });
        }
        for file in &self.stale_files {
            if matches!(lookup(&dir, Path::new(file)), Ok(Entry::File)) {
                steps.push(backup(file));
            }
        }
        for folder in &self.stale_dirs {
            if matches!(lookup(&dir, Path::new(folder)), Ok(Entry::Dir)) {
                let mode = fs::symlink_metadata(dir.join(folder))
                    .map(|m| step::mode(&m))
                    .unwrap_or(0o755);
                steps.push(Step::RemovedDir {
                    path: folder.clone(),
                    mode,
                });
            }
        }
        Ok(steps)
    }

    fn apply(&mut self) -> Result<(), CommitError> {
        let steps = self.plan()?;
        let dir = self.dir.clone();
        if let Some(journal) = &mut self.journal {
            journal.append(&steps).map_err(io_error(&dir))?;
        }
        testhook::at("planned", self.stop);
        for step in steps {
            match &step {
                Step::MadeDir(path) => {
                    let path = dir.join(path);
                    self.record(&path, || fs::create_dir(&path).map(|()| ((), Some(step))))?;
                }
                Step::Moved { from, to } => {
                    let shown = step.shown(&dir, &self.staging);
                    let (from, to) = (dir.join(from), dir.join(to));
                    self.rename(&from, &to, &shown, step)?;
                }
                Step::RemovedDir { path, .. } => {
                    let path = dir.join(path);
                    let removed =
                        self.record(&path, || fs::remove_dir(&path).map(|()| ((), Some(step))));
                    // A folder that is not empty (or is gone) stays as it is.
                    if let Err(CommitError::Interrupted) = removed {
                        return removed;
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// One recorded rename, with its test hooks; errors name `shown`.
    fn rename(
        &mut self,
        from: &Path,
        to: &Path,
        shown: &Path,
        step: Step,
    ) -> Result<(), CommitError> {
        self.renames += 1;
        let n = self.renames;
        testhook::at(format_args!("rename:{n}"), self.stop);
        self.record(shown, || {
            testhook::fail(format_args!("rename:{n}"))?;
            fs::rename(from, to)?;
            Ok(((), Some(step)))
        })
    }

    /// Syncs the folders the commit changed, so that the renames are on
    /// disk before the commit point is.
    fn sync_folders(&self) {
        let mut folders: BTreeSet<PathBuf> = [self.dir.clone()].into();
        for (_, dest) in &self.staged {
            if let Some(parent) = self.dir.join(dest).parent() {
                folders.insert(parent.to_path_buf());
            }
        }
        for folder in folders {
            if let Ok(f) = fs::File::open(&folder) {
                let _ = f.sync_all();
            }
        }
    }

    /// The commit point: the last check of the stop, under the lock, and
    /// its mark in the journal.
    fn pass_commit_point(mut self) -> Result<(), CommitError> {
        testhook::at("renamed", self.stop);
        self.sync_folders();
        let mut all = journals();
        if self.stop.requested() {
            self.open = false;
            return Err(restored(
                CommitError::Interrupted,
                roll_back(&mut all, self.id),
            ));
        }
        let marked = match &mut self.journal {
            Some(journal) => journal.append(&[Step::Committed]),
            None => Ok(()),
        };
        if let Err(e) = marked {
            self.open = false;
            return Err(restored(
                io_error(&self.dir)(e),
                roll_back(&mut all, self.id),
            ));
        }
        if let Some(k) = all.iter().position(|j| j.id == self.id) {
            all.swap_remove(k);
        }
        COMMITTED.store(true, Ordering::Relaxed);
        self.open = false;
        testhook::at("marked", self.stop);
        // The backups go; if that fails, the run still stands (and the
        // next run into the folder removes them).
        self.journal = None;
        let _ = fs::remove_dir_all(self.dir.join(&self.staging));
        if let Some(mut lock) = self.lock.take() {
            lock.release();
        }
        drop(all);
        testhook::at("committed", self.stop);
        Ok(())
    }

    /// Undoes every step so far; returns `cause`, or why undoing failed.
    fn abort(&mut self, cause: CommitError) -> CommitError {
        self.open = false;
        self.journal = None;
        restored(cause, roll_back(&mut journals(), self.id))
    }
}

fn restored(cause: CommitError, undo: Result<(), (PathBuf, io::Error)>) -> CommitError {
    match undo {
        Ok(()) => cause,
        Err((path, source)) => CommitError::NotRestored {
            cause: Box::new(cause),
            path,
            source,
        },
    }
}

impl Drop for Transaction<'_> {
    fn drop(&mut self) {
        if self.open {
            let _ = self.abort(CommitError::Interrupted);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    /// Every file and folder under `dir`, with file contents.
    fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Option<Vec<u8>>> {
        let mut out = BTreeMap::new();
        let mut todo = vec![dir.to_path_buf()];
        while let Some(d) = todo.pop() {
            for entry in fs::read_dir(&d).unwrap() {
                let path = entry.unwrap().path();
                let rel = path.strip_prefix(dir).unwrap().to_path_buf();
                if path.is_dir() {
                    todo.push(path);
                    out.insert(rel, None);
                } else {
                    out.insert(rel, Some(fs::read(&path).unwrap()));
                }
            }
        }
        out
    }

    #[test]
    fn a_move_across_filesystems_is_explained() {
        let e = io_error(Path::new("reports/death-saves/summary.csv"))(io::Error::from(
            io::ErrorKind::CrossesDevices,
        ));
        let text = e.to_string();
        assert!(
            text.starts_with("cannot write reports/death-saves/summary.csv: "),
            "{text}"
        );
        assert!(text.contains("on another filesystem"), "{text}");
        assert!(text.contains("--out"), "{text}");
        let e = io_error(Path::new("x"))(io::Error::from(io::ErrorKind::PermissionDenied));
        assert!(!e.to_string().contains("filesystem"));
    }

    #[cfg(unix)]
    #[test]
    fn an_output_folder_that_is_a_link_to_nothing_is_named() {
        let root = tempfile::tempdir().unwrap();
        let link = root.path().join("reports");
        std::os::unix::fs::symlink(root.path().join("gone"), &link).unwrap();
        let Err(err) = Transaction::begin(&link.join("death-saves"), Stop::never()) else {
            panic!("a dangling link is no folder");
        };
        let text = err.to_string();
        assert!(text.contains("is a symbolic link to"), "{text}");
        assert!(text.contains("gone`, which does not exist"), "{text}");
        assert!(!text.contains("os error"), "{text}");
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert!(!root.path().join("gone").exists());
    }

    /// A folder with a previous run's files and a user's file.
    fn previous_run() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("old")).unwrap();
        fs::write(dir.path().join("summary.csv"), "old summary").unwrap();
        fs::write(dir.path().join("old/a.csv"), "old a").unwrap();
        fs::write(dir.path().join("notes.txt"), "the user's").unwrap();
        dir
    }

    fn plan<'a>(dir: &Path, stop: Stop<'a>) -> Transaction<'a> {
        let mut t = Transaction::begin(dir, stop).unwrap();
        t.stage(Path::new("summary.csv"), b"new summary").unwrap();
        t.stage(Path::new("new/b.csv"), b"new b").unwrap();
        t.remove_file(Path::new("old/a.csv"));
        t.remove_empty_dir(Path::new("old"));
        t
    }

    #[test]
    fn nothing_appears_until_commit_and_the_commit_does_everything() {
        let dir = previous_run();
        let before = snapshot(dir.path());
        let t = plan(dir.path(), Stop::never());
        // Staged, not committed: only the hidden staging folder is new.
        let staged = snapshot(dir.path());
        // The staging folder, its journal, two staged files, the lock file.
        assert_eq!(staged.len(), before.len() + 5, "{staged:?}");
        t.commit().unwrap();
        let after = snapshot(dir.path());
        let expect: BTreeMap<PathBuf, Option<Vec<u8>>> = [
            ("summary.csv", Some(&b"new summary"[..])),
            ("new", None),
            ("new/b.csv", Some(&b"new b"[..])),
            ("notes.txt", Some(&b"the user's"[..])),
        ]
        .into_iter()
        .map(|(p, b)| (PathBuf::from(p), b.map(<[u8]>::to_vec)))
        .collect();
        assert_eq!(after, expect);
    }

    #[test]
    fn dropping_an_uncommitted_transaction_undoes_everything() {
        let dir = previous_run();
        let before = snapshot(dir.path());
        drop(plan(dir.path(), Stop::never()));
        assert_eq!(snapshot(dir.path()), before);
    }

    #[test]
    fn a_stop_requested_before_the_commit_leaves_the_folder_as_it_was() {
        let dir = previous_run();
        let before = snapshot(dir.path());
        let flag = AtomicBool::new(false);
        let t = plan(dir.path(), Stop::on(&flag));
        flag.store(true, Ordering::Relaxed);
        assert!(matches!(t.commit(), Err(CommitError::Interrupted)));
        assert_eq!(snapshot(dir.path()), before);
    }

    #[test]
    fn a_failed_rename_half_way_rolls_back_the_renames_before_it() {
        let dir = previous_run();
        let before = snapshot(dir.path());
        let mut t = plan(dir.path(), Stop::never());
        // `summary.csv` is backed up and replaced, then a folder stands
        // where the second file must go.
        t.stage(Path::new("notes.txt/c.csv"), b"c").unwrap();
        let err = t.commit().unwrap_err();
        assert!(matches!(err, CommitError::Io { .. }), "{err}");
        assert_eq!(snapshot(dir.path()), before);
    }

    #[test]
    fn a_failed_run_into_a_new_folder_removes_every_folder_it_made() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("a/b/out");
        let mut t = Transaction::begin(&dir, Stop::never()).unwrap();
        t.stage(Path::new("x.csv"), b"x").unwrap();
        assert!(dir.is_dir());
        drop(t);
        assert_eq!(fs::read_dir(root.path()).unwrap().count(), 0);
    }

    #[test]
    fn an_output_path_through_a_file_is_not_a_directory() {
        let root = tempfile::tempdir().unwrap();
        fs::write(root.path().join("afile"), "x").unwrap();
        let err = Transaction::begin(&root.path().join("afile/out"), Stop::never())
            .err()
            .unwrap();
        let afile = root.path().join("afile");
        assert_eq!(
            err.to_string(),
            format!("cannot write {}: not a directory", afile.display())
        );
        assert_eq!(fs::read_dir(root.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_stale_folder_that_is_not_empty_stays() {
        let dir = previous_run();
        fs::write(dir.path().join("old/mine.txt"), "the user's").unwrap();
        plan(dir.path(), Stop::never()).commit().unwrap();
        assert!(!dir.path().join("old/a.csv").exists());
        assert!(dir.path().join("old/mine.txt").exists());
    }
}
