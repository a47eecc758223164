//! `woundsim check`'s baseline reader ([`Folder::read`]) on crafted
//! folders: the fuzz input, cut at its first two NUL bytes, becomes the
//! folder's `summary.csv`, `metrics.csv` (when a second part exists) and
//! `run.json` (when a third does), written into
//! `woundsim-fuzz-baseline-<pid>/` in the temporary directory (`TMPDIR`;
//! `/dev/shm` keeps it off the disk).
//!
//! Asserts: no panic; a refusal is one line without control characters
//! naming the file it is about.

#![no_main]

use std::path::PathBuf;
use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use woundsim::gate::folder::{Folder, Side};
use woundsim_fuzz::check_one_line;

/// Inputs longer than this are skipped (a baseline's files are capped at
/// a few MiB; the shipped suite's are under 64 KiB).
const MAX_INPUT: usize = 256 * 1024;

static DIR: LazyLock<PathBuf> = LazyLock::new(|| {
    let dir = std::env::temp_dir().join(format!("woundsim-fuzz-baseline-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("make the baseline folder");
    // SAFETY: `atexit` from the C library the fuzzer links, given a
    // function that takes nothing, returns nothing and never unwinds.
    unsafe { atexit(remove_dir) };
    dir
});

unsafe extern "C" {
    fn atexit(f: extern "C" fn()) -> i32;
}

/// Removes the folder; libFuzzer ends with `exit`, which runs it.
extern "C" fn remove_dir() {
    let _ = std::fs::remove_dir_all(&*DIR);
}

fuzz_target!(|data: &[u8]| {
    if data.len() > MAX_INPUT {
        return;
    }
    let mut parts = data.splitn(3, |&b| b == 0);
    let files = ["summary.csv", "metrics.csv", "run.json"];
    for name in files {
        let path = DIR.join(name);
        match parts.next() {
            Some(bytes) => std::fs::write(&path, bytes).expect("write a baseline file"),
            None => {
                let _ = std::fs::remove_file(&path);
            }
        }
    }
    if let Err(e) = Folder::read(&DIR, Side::Baseline) {
        check_one_line(&e.to_string(), &files);
    }
});
