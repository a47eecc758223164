//! `woundsim::types::load_file`, the path the binary reads a scenario
//! by, on arbitrary bytes (invalid UTF-8 included) written to a file: the
//! same promise as the `scenario` target, and for UTF-8 input the same
//! answer as `types::parse` on the text.
//!
//! The file is `woundsim-fuzz-<pid>.toml` in the temporary directory
//! (`TMPDIR`; `/dev/shm` keeps it off the disk), rewritten for each input
//! and removed when the fuzzer exits (a crash leaves it behind).

#![no_main]

use std::path::PathBuf;
use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use woundsim_fuzz::{CATALOG, check_scenario};

/// Inputs longer than this are skipped: far larger than any scenario, and
/// far below any limit on the size of a scenario file.
const MAX_INPUT: usize = 64 * 1024;

static PATH: LazyLock<PathBuf> = LazyLock::new(|| {
    // SAFETY: `atexit` from the C library the fuzzer links, given a
    // function that takes nothing, returns nothing and never unwinds.
    unsafe { atexit(remove_file) };
    std::env::temp_dir().join(format!("woundsim-fuzz-{}.toml", std::process::id()))
});

unsafe extern "C" {
    fn atexit(f: extern "C" fn()) -> i32;
}

/// Removes the scenario file; libFuzzer ends with `exit`, which runs it.
extern "C" fn remove_file() {
    let _ = std::fs::remove_file(&*PATH);
}

fuzz_target!(|data: &[u8]| {
    if data.len() > MAX_INPUT {
        return;
    }
    std::fs::write(&*PATH, data).expect("write the scenario file");
    let file = PATH.display().to_string();
    let result = woundsim::types::load_file(&CATALOG, &PATH);
    check_scenario(&file, &String::from_utf8_lossy(data), &result);
    match std::str::from_utf8(data) {
        Ok(text) => assert_eq!(
            format!("{result:?}"),
            format!("{:?}", woundsim::types::parse(&CATALOG, &file, text)),
            "load_file and parse disagree"
        ),
        Err(_) => assert!(result.is_err(), "a file that is not UTF-8 was accepted"),
    }
});
