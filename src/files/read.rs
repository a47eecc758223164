//! Reading an input — a scenario or bestiary file, a baseline's
//! `summary.csv`, an output folder's `run.json`, a shard state — so that
//! it can neither hang nor exhaust a run: the file is opened with
//! `O_NONBLOCK` (opening a FIFO with no writer would otherwise block
//! forever, deaf to the first signal), then what was opened is checked
//! with `fstat` (not the path, which may have changed): anything but a
//! regular file is refused; and at most `max` bytes are read, a larger
//! file refused (a link to `/dev/zero` is refused before its first byte).

use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::path::Path;

/// Why an input could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The path is not a regular file (`kind`: `a FIFO`).
    #[error("it is {kind}, not a regular file")]
    NotRegular {
        /// What it is, in words.
        kind: &'static str,
    },
    /// The file has more than `max` bytes.
    #[error("it is larger than {max} bytes")]
    TooLarge {
        /// The cap.
        max: u64,
    },
    /// The system refused (missing, no permission).
    #[error("{0}")]
    Io(#[from] io::Error),
}

/// Opens `path` for reading without blocking; an error unless what was
/// opened is a regular file.
pub fn open_regular(path: &Path) -> Result<File, ReadError> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let file = options.open(path)?;
    let t = file.metadata()?.file_type();
    if !t.is_file() {
        return Err(ReadError::NotRegular {
            kind: super::kind(t),
        });
    }
    Ok(file)
}

/// The bytes of the regular file `path`, at most `max` of them.
pub fn read_regular(path: &Path, max: u64) -> Result<Vec<u8>, ReadError> {
    let file = open_regular(path)?;
    let mut bytes = Vec::new();
    file.take(max.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(ReadError::TooLarge { max });
    }
    Ok(bytes)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::files::mkfifo;
    use std::time::{Duration, Instant};

    #[test]
    fn a_fifo_is_refused_at_once_instead_of_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("summary.csv");
        mkfifo(&fifo);
        let start = Instant::now();
        let e = read_regular(&fifo, 100).unwrap_err();
        assert!(start.elapsed() < Duration::from_secs(5));
        assert_eq!(e.to_string(), "it is a FIFO, not a regular file");
    }

    #[test]
    fn a_directory_and_a_device_are_not_regular_files() {
        let dir = tempfile::tempdir().unwrap();
        let e = read_regular(dir.path(), 100).unwrap_err();
        assert_eq!(e.to_string(), "it is a directory, not a regular file");
        let e = read_regular(Path::new("/dev/zero"), 100).unwrap_err();
        assert_eq!(
            e.to_string(),
            "it is a character device, not a regular file"
        );
    }

    #[test]
    fn a_link_to_a_regular_file_reads_and_the_cap_holds() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a");
        std::fs::write(&file, "12345").unwrap();
        let link = dir.path().join("l");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        assert_eq!(read_regular(&link, 5).unwrap(), b"12345");
        let e = read_regular(&file, 4).unwrap_err();
        assert!(matches!(e, ReadError::TooLarge { max: 4 }), "{e}");
        let e = read_regular(&dir.path().join("missing"), 4).unwrap_err();
        assert!(matches!(e, ReadError::Io(_)), "{e}");
    }
}
