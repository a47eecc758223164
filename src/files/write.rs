//! A single output file named on the command line (`--junit`, `--json`,
//! `--state-out`), written so that it never replaces what is not a
//! regular file:
//!
//! * nothing at the path, or a regular file: a temporary file beside it,
//!   synced, renamed over it — readers see the old file or the new one;
//! * a FIFO or a character device (`/dev/null`, `/dev/stdout`, a named
//!   pipe), directly or through a link: written through, never replaced;
//!   a FIFO no process reads is refused instead of waited on;
//! * anything else — a folder, a link to anything but a FIFO or a
//!   character device, a socket, a block device — is refused.
//!
//! [`check`] says, before a run spends any time, whether a path will be
//! refused; [`write`] checks again when it writes.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;

/// Why an output file was not written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The path names something woundsim does not replace (`what`: `is a
    /// directory`).
    #[error("it {what}")]
    Refused {
        /// What it is, in words.
        what: String,
    },
    /// The system refused (no space, no permission).
    #[error("{0}")]
    Io(#[from] io::Error),
}

impl WriteError {
    /// Whether the path itself is refused (bad input), not the write.
    pub fn refused(&self) -> bool {
        matches!(self, WriteError::Refused { .. })
    }
}

/// How a path will be written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Way {
    /// Atomically: nothing there yet, or a regular file to replace.
    Replace,
    /// Through it, without replacing it: a FIFO or a character device.
    Through,
}

fn refused(what: impl Into<String>) -> WriteError {
    WriteError::Refused { what: what.into() }
}

/// Whether a file type is written through rather than replaced.
fn through(t: std::fs::FileType) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        t.is_fifo() || t.is_char_device()
    }
    #[cfg(not(unix))]
    {
        let _ = t;
        false
    }
}

/// How `path` would be written, or why it is refused.
pub fn check(path: &Path) -> Result<Way, WriteError> {
    let example = || path.join("FILE").display().to_string();
    if path
        .as_os_str()
        .to_string_lossy()
        .ends_with(std::path::MAIN_SEPARATOR)
    {
        return Err(refused(format!(
            "names a folder; give the name of a file (e.g. `{}`)",
            example()
        )));
    }
    let t = match std::fs::symlink_metadata(path) {
        Ok(m) => m.file_type(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Way::Replace),
        Err(e) => return Err(e.into()),
    };
    if t.is_file() {
        return Ok(Way::Replace);
    }
    if t.is_symlink() {
        return match std::fs::metadata(path) {
            Ok(m) if through(m.file_type()) => Ok(Way::Through),
            Ok(m) => Err(refused(format!(
                "is a symbolic link to {}: give the path it points to",
                super::kind(m.file_type())
            ))),
            Err(_) => Err(refused("is a symbolic link to nothing")),
        };
    }
    if through(t) {
        return Ok(Way::Through);
    }
    if t.is_dir() {
        return Err(refused(format!(
            "is a directory, not a file; give the name of a file (e.g. `{}`)",
            example()
        )));
    }
    Err(refused(format!("is {}, not a file", super::kind(t))))
}

/// Writes `bytes` to `path` (see the module documentation).
pub fn write(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    match check(path)? {
        Way::Replace => replace(path, bytes),
        Way::Through => write_through(path, bytes),
    }
}

/// A temporary file beside `path`, renamed over it.
fn replace(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut file = tempfile::NamedTempFile::new_in(parent)?;
    file.write_all(bytes)?;
    file.flush()?;
    file.as_file().sync_all()?;
    // A temporary file is private (0600); a report or a state is read by
    // others (a merge job, a CI step): the permissions of a new file.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(file.path(), std::fs::Permissions::from_mode(0o644))?;
    }
    // Something other than a regular file may have appeared meanwhile.
    if check(path)? != Way::Replace {
        return Err(refused("changed while it was written"));
    }
    file.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Writes into the FIFO or device at `path` without replacing it.
fn write_through(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    let mut options = OpenOptions::new();
    options.write(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // A FIFO without a reader fails with ENXIO instead of blocking.
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let mut file: File = match options.open(path) {
        Ok(f) => f,
        #[cfg(unix)]
        Err(e) if e.raw_os_error() == Some(libc::ENXIO) => {
            return Err(refused("is a FIFO that no process is reading"));
        }
        Err(e) => return Err(e.into()),
    };
    let t = file.metadata()?.file_type();
    if !through(t) {
        return Err(refused("changed while it was written"));
    }
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd;
        let fd = file.as_raw_fd();
        // SAFETY: fcntl on a descriptor we own; no memory involved.
        unsafe {
            let flags = libc::fcntl(fd, libc::F_GETFL);
            if flags >= 0 {
                libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK);
            }
        }
    }
    file.write_all(bytes)?;
    file.flush()?;
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::files::mkfifo;
    use std::io::Read;
    use std::os::unix::fs::{FileTypeExt, symlink};

    #[test]
    fn a_regular_file_or_nothing_is_replaced_atomically() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.xml");
        write(&path, b"one").unwrap();
        write(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_folder_a_link_to_a_file_and_a_dangling_link_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let e = write(dir.path(), b"x").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("it is a directory, not a file; give the name of a file"),
            "{e}"
        );
        let target = dir.path().join("target");
        std::fs::write(&target, "keep").unwrap();
        let link = dir.path().join("link");
        symlink(&target, &link).unwrap();
        let e = write(&link, b"x").unwrap_err();
        assert!(e.refused(), "{e}");
        assert!(
            e.to_string().contains("symbolic link to a regular file"),
            "{e}"
        );
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(std::fs::read(&target).unwrap(), b"keep");
        let dangling = dir.path().join("dangling");
        symlink(dir.path().join("none"), &dangling).unwrap();
        assert_eq!(
            write(&dangling, b"x").unwrap_err().to_string(),
            "it is a symbolic link to nothing"
        );
    }

    #[test]
    fn a_fifo_is_written_through_when_read_and_refused_when_not() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe");
        mkfifo(&fifo);
        let e = write(&fifo, b"x").unwrap_err();
        assert_eq!(e.to_string(), "it is a FIFO that no process is reading");
        let reader_path = fifo.clone();
        let reader = std::thread::spawn(move || {
            let mut text = String::new();
            File::open(&reader_path)
                .unwrap()
                .read_to_string(&mut text)
                .unwrap();
            text
        });
        // The reader opens the FIFO when it is scheduled.
        let mut written = write(&fifo, b"hello");
        for _ in 0..500 {
            if written.is_ok() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
            written = write(&fifo, b"hello");
        }
        written.unwrap();
        assert_eq!(reader.join().unwrap(), "hello");
        assert!(
            std::fs::symlink_metadata(&fifo)
                .unwrap()
                .file_type()
                .is_fifo()
        );
    }

    #[test]
    fn dev_null_is_written_through_and_stays_a_device() {
        let null = Path::new("/dev/null");
        write(null, b"x").unwrap();
        assert!(
            std::fs::symlink_metadata(null)
                .unwrap()
                .file_type()
                .is_char_device()
        );
    }
}
