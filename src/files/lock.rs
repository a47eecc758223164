//! The exclusive lock on an output folder: a lock file `DIR/.woundsim.lock`
//! locked with `flock` (emulated with POSIX locks on NFS, so the file is
//! opened for writing), held while a run commits. A second run into the
//! same folder waits for it, polling so that a signal still stops the
//! waiting run at once. Releasing the lock removes the file; a run that
//! took the lock on a file some other run had removed meanwhile (it waited
//! on the old file) sees that the path no longer names its file and takes
//! the lock again on the new one, so two runs never both hold it. A lock
//! file left by a killed run is unlocked (the system released its lock)
//! and is simply taken over.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The lock file's name in the output folder.
pub const FILE: &str = ".woundsim.lock";

/// How often a waiting run tries again (and looks at its stop).
const POLL: Duration = Duration::from_millis(20);

/// Why the lock was not taken.
#[derive(Debug)]
pub enum LockError {
    /// The stop was requested while waiting.
    Stopped,
    /// The lock file cannot be made or locked.
    Io(io::Error),
}

/// The held lock; dropping it releases it (see [`FolderLock::release`]).
#[derive(Debug)]
pub struct FolderLock {
    file: Option<File>,
    path: PathBuf,
    id: (u64, u64),
}

/// The (device, inode) of an open file or a path.
fn identity(m: &std::fs::Metadata) -> (u64, u64) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        (m.dev(), m.ino())
    }
    #[cfg(not(unix))]
    {
        let _ = m;
        (0, 0)
    }
}

/// Opens (creating it) the lock file at `path`, never through a link.
fn open(path: &Path) -> io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options
            .mode(0o644)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let file = options.open(path)?;
    let t = file.metadata()?.file_type();
    if !t.is_file() {
        return Err(io::Error::other(format!(
            "`{}` is {}, not a lock file",
            path.display(),
            super::kind(t)
        )));
    }
    Ok(file)
}

/// Tries to lock `file` exclusively without waiting: whether it did.
fn try_lock(file: &File) -> io::Result<bool> {
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd;
        // SAFETY: `flock` on a file descriptor we own; no memory involved.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
            return Ok(true);
        }
        let e = io::Error::last_os_error();
        if e.kind() == io::ErrorKind::WouldBlock {
            return Ok(false);
        }
        Err(e)
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        Ok(true)
    }
}

/// Takes the lock on `dir` (which must exist), waiting while another run
/// holds it: `waiting` is called once when the wait starts, `stopped` is
/// polled while it lasts.
pub fn acquire(
    dir: &Path,
    waiting: impl FnOnce(),
    stopped: impl Fn() -> bool,
) -> Result<FolderLock, LockError> {
    let path = dir.join(FILE);
    let mut waiting = Some(waiting);
    loop {
        let file = open(&path).map_err(LockError::Io)?;
        loop {
            if try_lock(&file).map_err(LockError::Io)? {
                break;
            }
            if let Some(tell) = waiting.take() {
                tell();
            }
            if stopped() {
                return Err(LockError::Stopped);
            }
            std::thread::sleep(POLL);
        }
        let mine = identity(&file.metadata().map_err(LockError::Io)?);
        // The holder before us may have removed the file we waited on.
        match std::fs::symlink_metadata(&path) {
            Ok(m) if identity(&m) == mine => {
                return Ok(FolderLock {
                    file: Some(file),
                    path,
                    id: mine,
                });
            }
            _ => continue,
        }
    }
}

impl FolderLock {
    /// The lock file and its (device, inode), so that a rollback running
    /// on another thread can remove it ([`remove_if_mine`]).
    pub fn identity(&self) -> (PathBuf, (u64, u64)) {
        (self.path.clone(), self.id)
    }

    /// Removes the lock file, then unlocks it.
    pub fn release(&mut self) {
        remove_if_mine(&self.path, self.id);
        self.file = None;
    }
}

impl Drop for FolderLock {
    fn drop(&mut self) {
        if self.file.is_some() {
            self.release();
        }
    }
}

/// Removes the lock file at `path` if it is still the file `id`.
pub fn remove_if_mine(path: &Path, id: (u64, u64)) {
    if std::fs::symlink_metadata(path).is_ok_and(|m| identity(&m) == id) {
        let _ = std::fs::remove_file(path);
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, Mutex};

    #[test]
    fn a_second_holder_waits_until_the_first_releases_and_the_file_goes() {
        let dir = tempfile::tempdir().unwrap();
        let first = acquire(dir.path(), || {}, || false).unwrap();
        assert!(dir.path().join(FILE).is_file());
        let order = Arc::new(Mutex::new(Vec::new()));
        let waited = Arc::new(AtomicBool::new(false));
        let path = dir.path().to_path_buf();
        let (o, w) = (order.clone(), waited.clone());
        let second = std::thread::spawn(move || {
            let lock = acquire(&path, || w.store(true, Ordering::SeqCst), || false).unwrap();
            o.lock().unwrap().push("second");
            drop(lock);
        });
        while !waited.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(5));
        }
        order.lock().unwrap().push("first released");
        drop(first);
        second.join().unwrap();
        assert_eq!(*order.lock().unwrap(), ["first released", "second"]);
        assert!(!dir.path().join(FILE).exists());
    }

    #[test]
    fn a_waiting_run_gives_up_when_stopped_and_a_stale_file_is_taken_over() {
        let dir = tempfile::tempdir().unwrap();
        let held = acquire(dir.path(), || {}, || false).unwrap();
        let e = acquire(dir.path(), || {}, || true).unwrap_err();
        assert!(matches!(e, LockError::Stopped));
        drop(held);
        // A file no process locks (its run was killed) is no obstacle.
        std::fs::write(dir.path().join(FILE), "").unwrap();
        drop(acquire(dir.path(), || panic!("no wait"), || false).unwrap());
        // A link in its place is not followed.
        let target = dir.path().join("target");
        std::os::unix::fs::symlink(&target, dir.path().join(FILE)).unwrap();
        assert!(matches!(
            acquire(dir.path(), || {}, || false),
            Err(LockError::Io(_))
        ));
        assert!(!target.exists());
    }
}
