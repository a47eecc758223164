//! What is at a path inside a folder, looked up one component at a time
//! with `lstat`, never following a symbolic link: a manifest's, a
//! journal's or a run's path `a/b/c.csv` under `DIR` is `DIR/a`, then
//! `DIR/a/b`, then `DIR/a/b/c.csv`, and a link (or a file) where a folder
//! must be means the path leads nowhere a run may go. This is the one
//! check behind "a run touches nothing outside its folder" (docs/output.md):
//! a crafted `run.json` listing `link/.ssh/id_rsa`, with `link` a link to
//! a home folder, names nothing the run can remove.

use std::io;
use std::path::{Component, Path};

/// What a path inside a folder names, links not followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// Nothing (or a folder on the way is missing).
    Missing,
    /// A regular file.
    File,
    /// A folder (not a link to one).
    Dir,
    /// Something else: a symbolic link, a FIFO, a device, a socket.
    Other,
    /// The way there is blocked: a component before the last is a link, a
    /// file or a special file, or the path is not plain relative parts.
    Outside,
}

/// What `dir/relative` is, without following a symbolic link below `dir`
/// (`dir` itself may be one: the user chose it).
pub fn lookup(dir: &Path, relative: &Path) -> io::Result<Entry> {
    let parts: Vec<&std::ffi::OsStr> = relative
        .components()
        .map(|c| match c {
            Component::Normal(part) => Some(part),
            _ => None,
        })
        .collect::<Option<_>>()
        .unwrap_or_default();
    if parts.is_empty() {
        return Ok(Entry::Outside);
    }
    let mut at = dir.to_path_buf();
    for (k, part) in parts.iter().enumerate() {
        at.push(part);
        let last = k + 1 == parts.len();
        let t = match std::fs::symlink_metadata(&at) {
            Ok(m) => m.file_type(),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Entry::Missing),
            Err(e) => return Err(e),
        };
        if !last && !t.is_dir() {
            return Ok(Entry::Outside);
        }
        if last {
            return Ok(if t.is_file() {
                Entry::File
            } else if t.is_dir() {
                Entry::Dir
            } else {
                Entry::Other
            });
        }
    }
    unreachable!("the last part returns")
}

/// Whether `dir/relative` can be written without going through a link or
/// a file: every folder on the way is a real folder or missing.
pub fn reachable(dir: &Path, relative: &Path) -> io::Result<bool> {
    Ok(lookup(dir, relative)? != Entry::Outside)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn a_link_on_the_way_is_never_followed() {
        let root = tempfile::tempdir().unwrap();
        let home = root.path().join("home");
        fs::create_dir_all(home.join(".ssh")).unwrap();
        fs::write(home.join(".ssh/id_rsa"), "SECRET").unwrap();
        let dir = root.path().join("reports");
        fs::create_dir_all(dir.join("real")).unwrap();
        fs::write(dir.join("real/x.csv"), "x").unwrap();
        std::os::unix::fs::symlink(&home, dir.join("link")).unwrap();
        let at = |p: &str| lookup(&dir, Path::new(p)).unwrap();
        assert_eq!(at("link/.ssh/id_rsa"), Entry::Outside);
        assert_eq!(at("link/.ssh"), Entry::Outside);
        assert_eq!(at("link"), Entry::Other);
        assert_eq!(at("real/x.csv"), Entry::File);
        assert_eq!(at("real"), Entry::Dir);
        assert_eq!(at("real/x.csv/y"), Entry::Outside);
        assert_eq!(at("real/none/y"), Entry::Missing);
        assert_eq!(at("../home"), Entry::Outside);
        assert_eq!(at(""), Entry::Outside);
        assert!(!reachable(&dir, Path::new("link/new.csv")).unwrap());
        assert!(reachable(&dir, Path::new("new/new.csv")).unwrap());
    }
}
