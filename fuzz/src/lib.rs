//! What the fuzz targets assert, in one place, so that the in-memory and
//! the on-disk scenario targets hold the parser to the same promise.
//!
//! The promise (README, "Errors" and "Limits"; DESIGN.md, interface
//! contract): any input either parses into a scenario within the limits —
//! a name of 1–64 ASCII letters, digits, `-` and `_`, 1–32 uniquely named
//! variants whose names have 1–64 characters and no control character — or
//! fails with one message on one line, with no control character at all
//! (what it repeats is escaped), that starts with `FILE:LINE:COLUMN: `,
//! where LINE and COLUMN (1-based, the column counted in characters) are a
//! place that exists in the file. No input panics: libFuzzer reports a
//! panic as a crash.
//!
//! For dice expressions (`woundsim::dice::DiceExpr`): every expression that
//! parses has `min() <= max()`, an exact distribution that covers exactly
//! `min()..=max()` and sums to 1, a `Display` that parses back to the same
//! expression, and samples that stay in range.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use woundsim::dice::DiceExpr;
use woundsim::model::Catalog;
use woundsim::scenario::ScenarioError;
use woundsim::scenario::limits::{MAX_NAME_CHARS, MAX_VARIANTS};
use woundsim::types::Scenario;

/// The file name the in-memory target gives the parser.
pub const FILE: &str = "fuzz.toml";

/// The built-in game data, parsed once.
pub static CATALOG: std::sync::LazyLock<Catalog> = std::sync::LazyLock::new(|| {
    woundsim::scenario::data::builtin_catalog().expect("the shipped data are valid")
});

/// Largest convolution (about `count² · sides² / 2` multiply-adds) whose
/// distribution [`check_dice`] computes; larger expressions (up to
/// 100d1000) get every check but the distribution's, so that one input
/// never stalls the fuzzer for seconds.
pub const MAX_PMF_WORK: u64 = 50_000_000;

/// Samples drawn from each expression, at a fixed seed.
const SAMPLES: usize = 64;

/// Panics unless `result`, what the parser made of `text` named `file`,
/// keeps the promise in the module docs.
pub fn check_scenario(file: &str, text: &str, result: &Result<Scenario, ScenarioError>) {
    match result {
        Ok(s) => {
            assert_eq!(s.source, file, "a scenario names where it came from");
            let name = &s.header.name;
            assert!(
                (1..=MAX_NAME_CHARS).contains(&name.len())
                    && name
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'),
                "scenario name {name:?} accepted"
            );
            let names = s.variant_names();
            assert!(
                (1..=MAX_VARIANTS).contains(&names.len()),
                "{} variants accepted",
                names.len()
            );
            for (i, name) in names.iter().enumerate() {
                assert!(
                    (1..=MAX_NAME_CHARS).contains(&name.chars().count())
                        && !name.chars().any(char::is_control),
                    "variant name {name:?} accepted"
                );
                assert!(
                    !names[..i].contains(name),
                    "variant name {name:?} accepted twice"
                );
            }
        }
        Err(e) => {
            let message = e.to_string();
            if let Err(why) = check_message(file, text, &message) {
                panic!("{why}\n  message: {message:?}\n  error:   {e:?}");
            }
            if let ScenarioError::Invalid(at) = e {
                let prefix = format!("{}:{}:{}: ", at.file, at.line, at.column);
                assert!(
                    message.starts_with(&prefix),
                    "the message does not start with its own place {prefix:?}: {message:?}"
                );
            }
        }
    }
}

/// `Ok` when `message` is one line `FILE:LINE:COLUMN: what` with a place
/// inside `text`; otherwise what is wrong with it.
pub fn check_message(file: &str, text: &str, message: &str) -> Result<(), String> {
    if let Some(c) = message.chars().find(|c| c.is_control()) {
        return Err(format!(
            "the message holds the control character {c:?} (a line break, or raw text from the input)"
        ));
    }
    let rest = message
        .strip_prefix(file)
        .and_then(|r| r.strip_prefix(':'))
        .ok_or_else(|| format!("the message does not start with `{file}:`"))?;
    let (line, rest) = number(rest).ok_or("no line number after the file name")?;
    let rest = rest.strip_prefix(':').ok_or("no `:` after the line")?;
    let (column, rest) = number(rest).ok_or("no column number after the line")?;
    let what = rest.strip_prefix(": ").ok_or("no `: ` after line:column")?;
    if what.trim().is_empty() {
        return Err("the message says nothing after its place".into());
    }
    let lines: Vec<&str> = text.split('\n').collect();
    let Some(line_text) = lines.get(line - 1) else {
        return Err(format!(
            "line {line} is past the end of the file ({} lines)",
            lines.len()
        ));
    };
    let width = line_text.chars().count();
    if column > width + 1 {
        return Err(format!(
            "column {column} is past the end of line {line} ({width} characters)"
        ));
    }
    Ok(())
}

/// Panics unless `message` is one line without a control character that
/// starts with one of `files` (the error names the file it is about).
pub fn check_one_line(message: &str, files: &[&str]) {
    if let Some(c) = message.chars().find(|c| c.is_control()) {
        panic!("the message holds the control character {c:?}: {message:?}");
    }
    assert!(
        files.iter().any(|f| message.contains(f)),
        "the message names none of {files:?}: {message:?}"
    );
    assert!(!message.trim().is_empty(), "an empty message");
}

/// A decimal number of at least 1 without leading zeros at the start of
/// `text`, and what follows it.
fn number(text: &str) -> Option<(usize, &str)> {
    let end = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let digits = &text[..end];
    if digits.is_empty() || digits.starts_with('0') {
        return None;
    }
    Some((digits.parse().ok()?, &text[end..]))
}

/// Multiply-adds [`DiceExpr::pmf`] does for `e`: step `k` spreads
/// `k·(sides−1)+1` totals over `sides` faces.
pub fn pmf_work(e: &DiceExpr) -> u64 {
    let (n, s) = (u64::from(e.count), u64::from(e.sides));
    if s <= 1 {
        return 1;
    }
    s * (n + (s - 1) * n * n.saturating_sub(1) / 2)
}

/// Panics unless the parsed expression `e` (from `text`) keeps the
/// invariants in the module docs.
pub fn check_dice(text: &str, e: &DiceExpr) {
    let (min, max) = (e.min(), e.max());
    assert!(min <= max, "{text:?} → {e:?}: min {min} > max {max}");
    assert_eq!(
        e.is_constant(),
        min == max,
        "{text:?} → {e:?}: constant iff min = max"
    );
    let mean = e.mean();
    assert!(
        (min as f64) <= mean && mean <= max as f64,
        "{text:?} → {e:?}: mean {mean} outside {min}..={max}"
    );

    let shown = e.to_string();
    assert_eq!(
        shown.parse::<DiceExpr>(),
        Ok(*e),
        "{text:?} → {e:?} is shown as {shown:?}, which does not parse back"
    );

    let doubled = e.doubled_dice();
    assert_eq!(
        (
            doubled.min() - e.modifier as i64,
            doubled.max() - e.modifier as i64
        ),
        (2 * (min - e.modifier as i64), 2 * (max - e.modifier as i64)),
        "{text:?} → {e:?}: doubling the dice doubles the dice's range"
    );

    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x5EED);
    for x in [e, &doubled] {
        for _ in 0..SAMPLES {
            let v = x.sample(&mut rng);
            assert!(
                (x.min()..=x.max()).contains(&v),
                "{text:?} → {x:?}: sampled {v} outside {}..={}",
                x.min(),
                x.max()
            );
        }
    }

    if pmf_work(e) <= MAX_PMF_WORK {
        check_pmf(text, e);
    }
}

/// The exact distribution covers exactly `min..=max`, every total with a
/// positive probability, sums to 1 within 1e-9 and has the stated mean.
fn check_pmf(text: &str, e: &DiceExpr) {
    let pmf = e.pmf();
    let width = e.max() - e.min() + 1;
    assert_eq!(
        pmf.len() as i64,
        width,
        "{text:?} → {e:?}: pmf has {} entries for {width} totals",
        pmf.len()
    );
    if let Some((i, p)) = pmf
        .iter()
        .enumerate()
        .find(|(_, p)| !(p.is_finite() && **p > 0.0))
    {
        panic!(
            "{text:?} → {e:?}: total {} has probability {p}",
            e.min() + i as i64
        );
    }
    let total: f64 = pmf.iter().sum();
    assert!(
        (total - 1.0).abs() <= 1e-9,
        "{text:?} → {e:?}: pmf sums to {total}"
    );
    let mean: f64 = pmf
        .iter()
        .enumerate()
        .map(|(i, p)| (e.min() + i as i64) as f64 * p)
        .sum();
    let scale = 1.0 + e.min().abs().max(e.max().abs()) as f64;
    assert!(
        (mean - e.mean()).abs() <= 1e-9 * scale,
        "{text:?} → {e:?}: pmf mean {mean}, mean() {}",
        e.mean()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_promised_message_format_passes() {
        let text = "version = 1\ndc = 31\n";
        let ok = "fuzz.toml:2:6: field `options.dc`: the save DC must be between 1 and 30";
        assert_eq!(check_message(FILE, text, ok), Ok(()));
        assert_eq!(check_message(FILE, "", "fuzz.toml:1:1: empty"), Ok(()));
    }

    #[test]
    fn messages_that_break_the_format_are_caught() {
        let text = "a = 1\nbb = 2";
        for bad in [
            "fuzz.toml:1:1: two\nlines",
            "fuzz.toml:1:1: carriage\rreturn",
            "fuzz.toml:1:1: an \u{1b}[31mescape",
            "fuzz.toml: cannot read scenario: stream did not contain valid UTF-8",
            "other.toml:1:1: wrong file",
            "fuzz.toml:0:1: line zero",
            "fuzz.toml:1:01: leading zero",
            "fuzz.toml:3:1: past the last line",
            "fuzz.toml:2:8: past the end of the line",
            "fuzz.toml:1:1:",
            "fuzz.toml:1:1: ",
        ] {
            assert!(check_message(FILE, text, bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            check_message(FILE, text, "fuzz.toml:2:7: at the end"),
            Ok(())
        );
    }

    #[test]
    fn a_message_on_two_lines_or_naming_no_file_is_caught() {
        check_one_line("a.state: corrupt", &["a.state"]);
        for bad in [
            "a.state: two\nlines",
            "b.state: other file",
            "a.state \u{1b}[31m",
        ] {
            let caught = std::panic::catch_unwind(|| check_one_line(bad, &["a.state"]));
            assert!(caught.is_err(), "{bad:?}");
        }
    }

    #[test]
    fn pmf_work_counts_the_convolution() {
        let e: DiceExpr = "3d4".parse().unwrap();
        // Steps of 1, 4 and 7 totals, each spread over 4 faces.
        assert_eq!(pmf_work(&e), 4 * (1 + 4 + 7));
        assert_eq!(pmf_work(&DiceExpr::constant(3)), 1);
        assert!(pmf_work(&"100d100".parse().unwrap()) <= MAX_PMF_WORK);
    }

    #[test]
    #[should_panic(expected = "min 2 > max 0")]
    fn a_broken_expression_is_caught() {
        let faceless = DiceExpr {
            count: 2,
            sides: 0,
            modifier: 0,
        };
        check_dice("2d0", &faceless);
    }

    #[test]
    #[should_panic(expected = "does not parse back")]
    fn an_expression_that_does_not_round_trip_is_caught() {
        // `DiceExpr::constant` keeps `sides = 1`; a constant with other sides
        // is shown as the same number and parses back as a different value.
        let odd = DiceExpr {
            count: 0,
            sides: 6,
            modifier: 3,
        };
        check_dice("3", &odd);
    }

    #[test]
    fn the_usual_dice_forms_keep_the_invariants() {
        for text in ["1d8+3", "d20", "-2", "5d1+2", "100d1000-10000", " 2D6 + 1 "] {
            check_dice(text, &text.parse().unwrap());
        }
    }
}

/// Inputs of an import target longer than this are skipped (an imported
/// file may have 1 MiB; libFuzzer's mutations stay far below it).
pub const MAX_IMPORT_INPUT: usize = 64 * 1024;

/// An import target's check: arbitrary text (bytes that are not UTF-8
/// become U+FFFD) converted as `woundsim import --format F` and a
/// scenario's `bestiary = [{ file = "i.json", format = F }]` do, by
/// `woundsim::scenario::data::user_bestiary::import`. Either a bestiary
/// text (which the bestiary reader has already accepted) with at least one
/// creature, or an error that keeps the scenario parser's promise: one
/// line, `i.json:LINE:COLUMN: what`, at a place that exists in the text.
pub fn check_import(data: &[u8], format: woundsim::scenario::import::Format) {
    if data.len() > MAX_IMPORT_INPUT {
        return;
    }
    let text = String::from_utf8_lossy(data);
    match woundsim::scenario::data::user_bestiary::import("i.json", &text, Some(format), &CATALOG) {
        Ok((_, creatures, toml_text)) => {
            assert!(!creatures.is_empty(), "an import without a creature");
            assert!(toml_text.contains('['), "{toml_text}");
        }
        Err(e) => {
            let message = e.to_string();
            if let Err(why) = check_message("i.json", &text, &message) {
                panic!("{why}\n  message: {message:?}");
            }
        }
    }
}
