//! A user's bestiary file on arbitrary bytes: the fuzz input, less its
//! first byte, is written as `b.toml` (first byte even) or `b.json` (odd)
//! beside a combat scenario that names it (`bestiary = ["b.toml"]`), and
//! the scenario is read with `woundsim::types::load_file`, the path the
//! binary takes. Both files are in `woundsim-fuzz-bestiary-<pid>/` in the
//! temporary directory (`TMPDIR`; `/dev/shm` keeps it off the disk).
//!
//! Asserts: no panic; either a scenario, or an error that keeps the
//! scenario parser's promise (the `scenario` target's) about the file it
//! names: one line, `FILE:LINE:COLUMN: what`, at a place that exists in
//! that file, the scenario or the bestiary.

#![no_main]

use std::path::PathBuf;
use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use woundsim_fuzz::{CATALOG, check_message};

/// Inputs longer than this are skipped (the limit on a bestiary file is
/// 1 MiB; the shipped SRD bestiary is larger than any user's).
const MAX_INPUT: usize = 64 * 1024;

/// The combat scenario that names the bestiary (`{}`: its file name).
const SCENARIO: &str = "version = 1\nname = \"b\"\ntype = \"combat\"\ntrials = 1000\nseed = 1\nbestiary = [\"{}\"]\n\
[options]\nparty = [{ template = \"fighter-3\" }]\nmonsters = [{ creature = \"cave-gremlin\", count = 2 }]\n";

static DIR: LazyLock<PathBuf> = LazyLock::new(|| {
    let dir = std::env::temp_dir().join(format!("woundsim-fuzz-bestiary-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("make the fuzz folder");
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
    if data.len() > MAX_INPUT || data.is_empty() {
        return;
    }
    let name = if data[0].is_multiple_of(2) {
        "b.toml"
    } else {
        "b.json"
    };
    let bestiary = DIR.join(name);
    std::fs::write(&bestiary, &data[1..]).expect("write the bestiary file");
    let scenario = DIR.join("s.toml");
    let text = SCENARIO.replace("{}", name);
    std::fs::write(&scenario, &text).expect("write the scenario file");
    let Err(e) = woundsim::types::load_file(&CATALOG, &scenario) else {
        return;
    };
    let message = e.to_string();
    let (bestiary_file, scenario_file) = (
        bestiary.display().to_string(),
        scenario.display().to_string(),
    );
    let checked = if message.starts_with(&format!("{bestiary_file}:")) {
        check_message(
            &bestiary_file,
            &String::from_utf8_lossy(&data[1..]),
            &message,
        )
    } else {
        check_message(&scenario_file, &text, &message)
    };
    if let Err(why) = checked {
        panic!("{why}\n  message: {message:?}");
    }
});
