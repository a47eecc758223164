//! File-system primitives every command shares, with the guarantees the
//! output folder and the inputs promise (docs/output.md, "A run owns the
//! files it writes"; docs/cluster.md, "Refusals"):
//!
//! * [`read`]: an input file opened without blocking (a FIFO never hangs a
//!   run) and read with a cap; anything but a regular file is refused;
//! * [`inside`]: what is at a path inside a folder, looked up without
//!   following a symbolic link, so a run never reaches outside its folder;
//! * [`write`]: a single output file (`--junit`, `--json`, `--state-out`)
//!   replaced atomically when it is a regular file, written through when it
//!   is a FIFO or a character device, refused when it is anything else;
//! * [`lock`]: the exclusive lock a run holds on its output folder while
//!   it commits.

#[cfg(feature = "cli")]
pub mod inside;
#[cfg(feature = "cli")]
pub mod lock;
pub mod read;
#[cfg(feature = "cli")]
pub mod write;

use std::fs::FileType;

/// What a file that is not a regular file is, in words: `a FIFO`.
pub fn kind(t: FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a directory"
    } else if t.is_symlink() {
        "a symbolic link"
    } else if t.is_file() {
        "a regular file"
    } else {
        "a special file"
    }
}

/// Makes a FIFO at `path` (for the tests of reading and writing one).
#[cfg(all(test, unix))]
fn mkfifo(path: &std::path::Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: `c` is a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}
