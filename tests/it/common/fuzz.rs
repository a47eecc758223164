//! Parser robustness: mutations of a valid scenario must parse or fail with
//! an error naming the file, never panic.

use proptest::prelude::*;

/// `valid` with `cut` bytes from byte `at` (moved back to a character
/// boundary) replaced by `insert`.
pub fn mutate(valid: &str, at: usize, cut: usize, insert: &str) -> String {
    let mut text = valid.to_string();
    let at = (0..=at.min(text.len()))
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    let end = (at + cut).min(text.len());
    text.replace_range(at..end, insert);
    text
}

/// `text` parses into a scenario with variants, or fails with an error
/// that starts with its file name (`fuzz.toml:`).
pub fn parses_or_names_the_file(text: &str) -> Result<(), TestCaseError> {
    match woundsim::types::parse(crate::common::catalog(), "fuzz.toml", text) {
        Ok(s) => prop_assert!(!s.variant_names().is_empty()),
        Err(e) => prop_assert!(e.to_string().starts_with("fuzz.toml:")),
    }
    Ok(())
}
