//! A D&D Beyond character file on arbitrary text (bytes that are not UTF-8 become
//! U+FFFD), converted as `woundsim import --format dndbeyond` and a
//! scenario's `bestiary = [{ file = "i.json", format = "dndbeyond" }]` do:
//! `woundsim::scenario::data::user_bestiary::import`.
//!
//! Asserts: no panic; either a bestiary text (which the bestiary reader
//! has already accepted) with its one character, or an error that keeps
//! the scenario parser's promise: one line, `i.json:LINE:COLUMN: what`, at
//! a place that exists in the text.

#![no_main]

use libfuzzer_sys::fuzz_target;
use woundsim::scenario::import::Format;
use woundsim_fuzz::{CATALOG, check_message};

/// Inputs longer than this are skipped (an imported file may have 1 MiB).
const MAX_INPUT: usize = 64 * 1024;

fuzz_target!(|data: &[u8]| {
    if data.len() > MAX_INPUT {
        return;
    }
    let text = String::from_utf8_lossy(data);
    match woundsim::scenario::data::user_bestiary::import("i.json", &text, Some(Format::DndBeyond), &CATALOG) {
        Ok((_, monsters, toml_text)) => {
            assert!(!monsters.is_empty(), "an import without a monster");
            assert!(toml_text.contains('['), "{toml_text}");
        }
        Err(e) => {
            let message = e.to_string();
            if let Err(why) = check_message("i.json", &text, &message) {
                panic!("{why}\n  message: {message:?}");
            }
        }
    }
});
