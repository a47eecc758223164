//! What a folder holds, to compare a folder before and after a run.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A folder entry: a folder, or a file and its bytes.
#[derive(Debug, PartialEq, Eq)]
pub enum Entry {
    /// A folder.
    Dir,
    /// A file (or a link) and its contents.
    File(Vec<u8>),
}

/// Every entry under `dir`, by path relative to it; empty if `dir` is missing.
pub fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Entry> {
    let mut out = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            let relative = path.strip_prefix(dir).unwrap().to_path_buf();
            if path.is_dir() {
                todo.push(path);
                out.insert(relative, Entry::Dir);
            } else {
                out.insert(relative, Entry::File(std::fs::read(&path).unwrap()));
            }
        }
    }
    out
}
