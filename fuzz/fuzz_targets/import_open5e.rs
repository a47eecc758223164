//! An Open5e monster file on arbitrary text, converted as
//! `woundsim import --format open5e` does: `woundsim_fuzz::check_import` says what is asserted.

#![no_main]

use libfuzzer_sys::fuzz_target;
use woundsim::scenario::import::Format;

fuzz_target!(|data: &[u8]| woundsim_fuzz::check_import(data, Format::Open5e));
