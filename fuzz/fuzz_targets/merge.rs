//! `woundsim merge` on crafted state files: the fuzz input is a state's
//! payload (or two, see below), given the magic and a valid checksum
//! ([`StateFile::with_header`]) so that every input reaches the checks of
//! the payload: the header fields, the accumulator layout, the scenario
//! parsed again from its text, every accumulator against it, the merge's
//! checked arithmetic and the figures of the whole run.
//!
//! The first byte picks the shape: even, one state file `a.state` (the
//! rest of the input); odd, two files, `a.state` and `b.state`, split
//! where the next two bytes (big-endian) say.
//!
//! Asserts: no panic (a crash, an overflow, a slice out of range); every
//! refusal is one line without control characters naming a state file or
//! the scenario's source; every merged whole run has only figures a run
//! can give (shares in 0..1, finite intervals that hold their estimate).
//! The seed corpus is real shards' payloads (`fuzz/seed-corpus.sh`).

#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use woundsim::app::merge::{Merged, finish_states, implausible, merge_states};
use woundsim::app::shard::StateFile;
use woundsim::engine::Stop;
use woundsim_fuzz::{CATALOG, check_one_line};

/// Inputs longer than this are skipped: the shipped scenarios' states are
/// a few KiB.
const MAX_INPUT: usize = 1 << 20;

fuzz_target!(|data: &[u8]| {
    if data.len() > MAX_INPUT || data.is_empty() {
        return;
    }
    let (mode, rest) = data.split_first().expect("not empty");
    let payloads: Vec<&[u8]> = if mode % 2 == 0 || rest.len() < 2 {
        vec![rest]
    } else {
        let at = usize::from(u16::from_be_bytes([rest[0], rest[1]]));
        let rest = &rest[2..];
        let (a, b) = rest.split_at(at.min(rest.len()));
        vec![a, b]
    };
    let names = ["a.state", "b.state"];
    let mut files = Vec::new();
    for (payload, name) in payloads.iter().zip(names) {
        let path = Path::new(name);
        match StateFile::from_bytes(path, &StateFile::with_header(payload)) {
            Ok(file) => files.push((path, file)),
            Err(e) => {
                check_one_line(&e.to_string(), &[name]);
                return;
            }
        }
    }
    // The scenarios' sources, which errors about their text name.
    let mut named: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    for (_, f) in &files {
        named.extend(f.scenarios.iter().map(|s| s.source.clone()));
    }
    let named: Vec<&str> = named.iter().map(String::as_str).collect();
    let outcome = merge_states(&CATALOG, files).and_then(|merged| match merged {
        Merged::Part(..) => Ok(Vec::new()),
        Merged::Whole(scenarios, states) => {
            finish_states(&scenarios, states, "a.state, b.state", Stop::never())
        }
    });
    match outcome {
        Ok(results) => {
            for (result, seconds) in &results {
                assert!(seconds.is_finite() && *seconds >= 0.0, "{seconds} seconds");
                assert_eq!(implausible(result), None, "a merged figure no run gives");
            }
        }
        Err(e) => check_one_line(&e.to_string(), &named),
    }
});
