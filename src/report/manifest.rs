//! The run manifest, `DIR/run.json`: which files of the output folder the
//! last run wrote, and which of their folders it owns (folders a woundsim
//! run created). The next run into the folder removes, in the same
//! all-or-nothing commit as its own files ([`super::atomic`]), the files
//! of the previous manifest that it does not rewrite, then the owned
//! folders left empty — and nothing that no manifest lists. A missing or
//! unreadable manifest owns nothing; a `run.json` that is not a regular
//! file (a FIFO, a device) or is larger than [`MAX_BYTES`] is refused
//! rather than read ([`crate::files::read`]). Each listed path is looked
//! up without following links when it is removed ([`super::atomic`]).
//!
//! The manifest is meant to grow: add fields to [`Manifest`] with
//! `#[serde(default)]`, so that a manifest written by an older version
//! still reads. The run metadata ([`RunInfo`]: commit, start, wall time,
//! threads, scenarios) is such a field, flattened into the same object.

use std::collections::BTreeSet;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::run_info::RunInfo;
use crate::files::read::{ReadError, read_regular};

/// The manifest's file name in the output folder.
pub const FILE: &str = "run.json";

/// The largest manifest read (16 MiB; a run of every shipped scenario
/// writes a few kilobytes).
pub const MAX_BYTES: u64 = 16 << 20;

/// What one run wrote into its output folder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// The woundsim version that wrote the folder.
    pub woundsim_version: String,
    /// The run's metadata (empty in manifests older than it).
    #[serde(default, flatten)]
    pub run: RunInfo,
    /// Files written, relative to the folder, `/`-separated, sorted (the
    /// manifest itself is not listed).
    pub files: Vec<String>,
    /// Folders among the files' folders that a woundsim run created.
    #[serde(default)]
    pub dirs: Vec<String>,
}

impl Manifest {
    /// The manifest in `dir`, if there is a readable one; an error if
    /// `run.json` is not a regular file or is too large to be one.
    pub fn read(dir: &Path) -> Result<Option<Manifest>, ReadError> {
        match read_regular(&dir.join(FILE), MAX_BYTES) {
            Ok(bytes) => Ok(serde_json::from_slice(&bytes).ok()),
            Err(ReadError::Io(_)) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The manifest as a JSON document.
    pub fn to_json(&self) -> Vec<u8> {
        // Serialising strings and lists cannot fail.
        let mut bytes = serde_json::to_vec_pretty(self).unwrap_or_default();
        bytes.push(b'\n');
        bytes
    }
}

/// What a run owns and what it removes.
#[derive(Debug, PartialEq)]
pub struct Ownership {
    /// The manifest this run writes.
    pub manifest: Manifest,
    /// Files of the previous run not rewritten by this one.
    pub stale_files: Vec<String>,
    /// Owned folders this run has no file in, deepest first (removed if
    /// empty once the stale files are gone).
    pub stale_dirs: Vec<String>,
}

/// Whether a path read from a manifest names something inside the folder:
/// relative, plain components only, and not the manifest itself.
fn inside(path: &str) -> bool {
    path != FILE
        && path
            .split('/')
            .all(|c| !c.is_empty() && c != "." && c != ".." && !c.contains(['\\', ':', '\0']))
}

/// The folders `a` and `a/b` of the file `a/b/c.csv`.
fn folders(file: &str) -> impl Iterator<Item = &str> {
    file.match_indices('/').map(|(k, _)| &file[..k])
}

/// Plans a run that writes `files` after the run of `previous`; `exists`
/// says whether a folder (relative) exists now.
pub fn plan(
    previous: Option<&Manifest>,
    files: &[String],
    exists: impl Fn(&str) -> bool,
) -> Ownership {
    let empty = Vec::new();
    let (old_files, old_dirs) = previous.map_or((&empty, &empty), |m| (&m.files, &m.dirs));
    let new: BTreeSet<&str> = files.iter().map(String::as_str).collect();
    let used: BTreeSet<&str> = files.iter().flat_map(|f| folders(f)).collect();
    let was_owned = |d: &str| old_dirs.iter().any(|o| o == d);
    let dirs = used
        .iter()
        .filter(|d| !exists(d) || was_owned(d))
        .map(|d| d.to_string())
        .collect();
    let stale_files = old_files
        .iter()
        .filter(|f| inside(f) && !new.contains(f.as_str()))
        .cloned()
        .collect();
    let mut stale_dirs: Vec<String> = old_dirs
        .iter()
        .filter(|d| inside(d) && !used.contains(d.as_str()))
        .cloned()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    stale_dirs.sort_by_key(|d| std::cmp::Reverse(d.matches('/').count()));
    let mut files = files.to_vec();
    files.sort();
    Ownership {
        manifest: Manifest {
            woundsim_version: env!("CARGO_PKG_VERSION").to_string(),
            run: RunInfo::default(),
            files,
            dirs,
        },
        stale_files,
        stale_dirs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(s: &[&str]) -> Vec<String> {
        s.iter().map(|s| s.to_string()).collect()
    }

    fn manifest(files: &[&str], dirs: &[&str]) -> Manifest {
        Manifest {
            woundsim_version: "0".into(),
            run: RunInfo::default(),
            files: strings(files),
            dirs: strings(dirs),
        }
    }

    #[test]
    fn files_of_the_previous_run_not_rewritten_are_stale_with_their_folders() {
        let old = manifest(
            &["summary.csv", "a/x.csv", "b/y.csv", "b/z.png"],
            &["a", "b"],
        );
        let plan = plan(Some(&old), &strings(&["summary.csv", "a/x.csv"]), |_| true);
        assert_eq!(plan.stale_files, strings(&["b/y.csv", "b/z.png"]));
        assert_eq!(plan.stale_dirs, strings(&["b"]));
        assert_eq!(plan.manifest.dirs, strings(&["a"]));
    }

    #[test]
    fn a_folder_is_owned_when_the_run_creates_it_or_a_previous_run_did() {
        let old = manifest(&["a/x.csv"], &["a"]);
        let files = strings(&["a/x.csv", "mine/y.csv", "new/z.csv"]);
        // `mine` exists and no manifest claims it: the user made it.
        let plan = plan(Some(&old), &files, |d| d != "new");
        assert_eq!(plan.manifest.dirs, strings(&["a", "new"]));
        assert!(plan.stale_files.is_empty() && plan.stale_dirs.is_empty());
    }

    #[test]
    fn only_paths_inside_the_folder_are_ever_stale() {
        let old = manifest(
            &[
                "../up.csv",
                "/etc/passwd",
                "a/../b",
                "./c",
                "run.json",
                "",
                "ok.csv",
            ],
            &["..", "/tmp", "a//b"],
        );
        let plan = plan(Some(&old), &[], |_| true);
        assert_eq!(plan.stale_files, strings(&["ok.csv"]));
        assert!(plan.stale_dirs.is_empty());
    }

    #[test]
    fn the_deepest_stale_folders_go_first() {
        let old = manifest(&[], &["a", "a/b", "c", "a/b/c"]);
        let plan = plan(Some(&old), &[], |_| true);
        assert_eq!(plan.stale_dirs, strings(&["a/b/c", "a/b", "a", "c"]));
    }

    #[test]
    fn without_a_previous_manifest_nothing_is_stale() {
        let plan = plan(None, &strings(&["s.csv", "x/y.csv"]), |_| false);
        assert!(plan.stale_files.is_empty() && plan.stale_dirs.is_empty());
        assert_eq!(plan.manifest.files, strings(&["s.csv", "x/y.csv"]));
        assert_eq!(plan.manifest.dirs, strings(&["x"]));
    }

    #[test]
    fn a_manifest_reads_back_and_tolerates_fields_it_does_not_know() {
        let m = manifest(&["a/x.csv"], &["a"]);
        let back: Manifest = serde_json::from_slice(&m.to_json()).unwrap();
        assert_eq!(back, m);
        let newer = br#"{"woundsim_version": "9", "files": ["s.csv"], "seed": 4}"#;
        let back: Manifest = serde_json::from_slice(newer).unwrap();
        assert_eq!(back.files, strings(&["s.csv"]));
        assert!(back.dirs.is_empty());
    }
}
