//! The `woundsim` binary and fixture paths for the end-to-end tests.

use std::path::Path;

/// A command running the built `woundsim` binary.
pub fn woundsim() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("woundsim").unwrap()
}

/// Runs `woundsim ARGS`, which must succeed, and returns its stdout.
pub fn stdout(args: &[&str]) -> String {
    let out = woundsim()
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

/// The absolute path of `path`, relative to the crate root.
pub fn fixture(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(path)
        .display()
        .to_string()
}

/// Runs `woundsim ARGS --out TMP` and returns its stdout and the folder.
pub fn stdout_of(args: &[&str]) -> (String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let out = woundsim()
        .args(args)
        .arg("--out")
        .arg(dir.path())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    (String::from_utf8(out).unwrap(), dir)
}
