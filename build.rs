//! Records the source commit the binary is built from, for `run.json`:
//! `WOUNDSIM_GIT_COMMIT` = `git rev-parse HEAD`, with `-dirty` when the
//! sources that go into the binary (`src/`, `data/`, `scenarios/`,
//! `build.rs`, `Cargo.toml`, `Cargo.lock`) differ from that commit or have
//! untracked files. Nothing is set when the crate is not the top of a git
//! checkout (a crates.io download, a crate vendored into another
//! repository) or git is missing: this script never fails the build.
//!
//! It reruns when those sources change and when HEAD, the branch it points
//! to or the index move, so the mark follows commits and edits.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The paths the binary is built from, relative to the crate root.
const SOURCES: [&str; 6] = [
    "src",
    "data",
    "scenarios",
    "build.rs",
    "Cargo.toml",
    "Cargo.lock",
];

fn main() {
    let Some(root) = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from) else {
        return;
    };
    for source in SOURCES {
        if root.join(source).exists() {
            println!("cargo:rerun-if-changed={source}");
        }
    }
    if let Some(commit) = commit(&root) {
        println!("cargo:rustc-env=WOUNDSIM_GIT_COMMIT={commit}");
    }
}

/// `git -C root ARGS`, trimmed, if it ran and succeeded.
fn git(root: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(args)
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    Some(String::from_utf8(out.stdout).ok()?.trim().to_string())
}

/// A path git printed, relative to `root` unless absolute.
fn resolved(root: &Path, path: &str) -> PathBuf {
    let path = Path::new(path);
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        root.join(path)
    }
}

fn commit(root: &Path) -> Option<String> {
    // Only our own checkout: a crate unpacked inside another repository
    // must not report that repository's commit.
    let top = git(root, &["rev-parse", "--show-toplevel"])?;
    if std::fs::canonicalize(&top).ok()? != std::fs::canonicalize(root).ok()? {
        return None;
    }
    let git_dir = resolved(root, &git(root, &["rev-parse", "--git-dir"])?);
    let common = resolved(root, &git(root, &["rev-parse", "--git-common-dir"])?);
    let mut watched = vec![
        git_dir.join("HEAD"),
        git_dir.join("index"),
        common.join("packed-refs"),
    ];
    if let Some(branch) = git(root, &["symbolic-ref", "-q", "HEAD"]) {
        watched.push(common.join(branch));
    }
    for path in watched.iter().filter(|p| p.exists()) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
    let head = git(root, &["rev-parse", "HEAD"])?;
    if head.len() != 40 || !head.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mut status = vec!["status", "--porcelain", "--"];
    status.extend(SOURCES);
    let dirty = git(root, &status).is_some_and(|s| !s.is_empty());
    Some(if dirty { format!("{head}-dirty") } else { head })
}
