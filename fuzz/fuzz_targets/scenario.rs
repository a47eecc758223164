//! `woundsim::types::parse` on arbitrary text: never a panic; a scenario
//! with uniquely named variants, or one located message on one line.
//!
//! Bytes that are not UTF-8 reach the parser as `String::from_utf8_lossy`
//! makes them (U+FFFD in their place), so every input exercises the parser;
//! the `scenario_file` target feeds the raw bytes through `load_file`.

#![no_main]

use libfuzzer_sys::fuzz_target;
use woundsim_fuzz::{CATALOG, FILE, check_scenario};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let result = woundsim::types::parse(&CATALOG, FILE, &text);
    check_scenario(FILE, &text, &result);
});
