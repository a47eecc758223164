//! `DiceExpr`'s `FromStr` on arbitrary text (bytes that are not UTF-8 as
//! `String::from_utf8_lossy` makes them): never a panic, and every
//! expression that parses keeps the invariants `woundsim_fuzz::check_dice`
//! lists (range, exact distribution, `Display` round trip, sampling).

#![no_main]

use libfuzzer_sys::fuzz_target;
use woundsim::dice::DiceExpr;
use woundsim_fuzz::check_dice;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match text.parse::<DiceExpr>() {
        Ok(e) => check_dice(&text, &e),
        // An error is a message, never a panic.
        Err(e) => assert!(!e.to_string().is_empty()),
    }
});
