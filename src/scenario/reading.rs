//! Reading TOML text into a typed value with every error located (file,
//! line:column, field path): [`deserialize`] for a value or its errors,
//! [`deserialize_all`] for as many errors as one file holds, reading on
//! past each bad setting with its lines blanked out. The TOML parser's
//! messages are reworded here ([`toml_error`]) so that every file of
//! woundsim — scenarios, data files, overrides — says the same thing the
//! same way.

use serde::de::DeserializeOwned;

use super::{Locator, ScenarioError, limits, wording};

/// Deserializes with the field path of any error and its place in the file;
/// every error [`deserialize_all`] finds, not only the first.
pub(crate) fn deserialize<T: DeserializeOwned>(
    loc: &Locator,
    text: &str,
) -> Result<T, ScenarioError> {
    let reading = deserialize_all(loc, text);
    match reading.value {
        Some(value) if reading.errors.is_empty() => Ok(value),
        _ => Err(loc.errors(reading.errors)),
    }
}

/// What [`deserialize_all`] read.
pub(crate) struct Reading<T> {
    /// The value of the text with every bad setting left out, for the
    /// checks that follow to report theirs; `None` if that did not read.
    pub value: Option<T>,
    /// The errors, in the order found (at most
    /// [`limits::MAX_ERRORS_PER_FILE`]).
    pub errors: Vec<ScenarioError>,
    /// The keys of the settings blanked out (the last segment of each
    /// blanked `key = value` line's key), whose absence later checks must
    /// not report.
    pub blanked: Vec<String>,
}

/// Deserializes `text`, and after an error goes on: the lines of the
/// setting at fault are blanked out (spaces, so every later offset, line
/// and column stays where it was) and the text is read again, until it
/// reads or an error cannot be stepped over (a TOML syntax error, a
/// missing key, a table header).
pub(crate) fn deserialize_all<T: DeserializeOwned>(loc: &Locator, text: &str) -> Reading<T> {
    let mut reading = Reading {
        value: None,
        errors: Vec::new(),
        blanked: Vec::new(),
    };
    let mut current = std::borrow::Cow::Borrowed(text);
    let mut rereads = limits::MAX_REREADS_PER_FILE;
    loop {
        let (span, error) = match deserialize_once(loc, &current) {
            Ok(value) => {
                reading.value = Some(value);
                return reading;
            }
            Err(found) => found,
        };
        // A missing key's span is its table: nothing to blank out.
        let missing = span.is_none();
        if missing && reading.errors.iter().any(|e| e.field() == error.field()) {
            // The key at fault was blanked out: nothing new.
            return reading;
        }
        reading.errors.push(error);
        if missing || reading.errors.len() >= limits::MAX_ERRORS_PER_FILE {
            return reading;
        }
        match without_setting_at(&current, span, &mut rereads) {
            Some((next, key)) => {
                current = std::borrow::Cow::Owned(next);
                reading.blanked.extend(key);
            }
            None => return reading,
        }
    }
}

/// The key under which the TOML parser hands a date to a deserializer.
const TOML_DATE_KEY: &str = ".$__toml_private_datetime";

/// One reading of `text`: the value, or the first error and the byte span
/// of the setting at fault (none for a syntax error or a missing key).
fn deserialize_once<T: DeserializeOwned>(
    loc: &Locator,
    text: &str,
) -> Result<T, (Option<std::ops::Range<usize>>, ScenarioError)> {
    let de = toml::de::Deserializer::parse(text).map_err(|e| (None, toml_error(loc, "", &e)))?;
    serde_path_to_error::deserialize(de).map_err(|e| {
        // A date is read as a table with one private key: the field is
        // the setting itself.
        let field = e.path().to_string();
        let field = field.strip_suffix(TOML_DATE_KEY).unwrap_or(&field);
        let missing = e.inner().message().starts_with("missing field");
        let span = e.inner().span().filter(|_| !missing);
        (
            span,
            toml_error(loc, if field == "." { "" } else { field }, e.inner()),
        )
    })
}

/// Most lines one blanked-out setting may span (a long array).
const MAX_SETTING_LINES: usize = 64;

/// `text` with the setting at `span` blanked out: its lines from the one
/// `span` starts on, as few as still leave valid TOML, and the key of
/// the first of them if it is a `key = value` line. `None` where that is
/// not a setting (a table header), no such cut reads, or `rereads` (the
/// readings left for the file) runs out.
fn without_setting_at(
    text: &str,
    span: Option<std::ops::Range<usize>>,
    rereads: &mut usize,
) -> Option<(String, Option<String>)> {
    let span = span?;
    let start = text.get(..span.start)?.rfind('\n').map_or(0, |i| i + 1);
    let first_line = text[start..]
        .lines()
        .next()
        .unwrap_or_default()
        .trim_start();
    if first_line.starts_with('[') || first_line.is_empty() {
        return None;
    }
    let key = first_line.split_once('=').map(|(key, _)| {
        let last = key.rsplit('.').next().unwrap_or(key);
        last.trim()
            .trim_matches(|c| c == '"' || c == '\'')
            .to_string()
    });
    let mut end = start;
    for _ in 0..MAX_SETTING_LINES {
        end = text[end..].find('\n').map_or(text.len(), |i| end + i + 1);
        if end < span.end.min(text.len()) {
            continue;
        }
        let mut bytes = text.as_bytes().to_vec();
        for b in &mut bytes[start..end] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
        // Whole lines became ASCII spaces: still UTF-8.
        let next = String::from_utf8(bytes).ok()?;
        *rereads = rereads.checked_sub(1)?;
        if toml::de::Deserializer::parse(&next).is_ok() {
            return Some((next, key));
        }
        if end == text.len() {
            break;
        }
    }
    None
}

/// Deepest nesting of arrays, inline tables and dotted keys the TOML
/// parser accepts.
const MAX_NESTING: usize = 80;

fn toml_error(loc: &Locator, field: &str, e: &toml::de::Error) -> ScenarioError {
    let span = e.span().unwrap_or(0..0);
    let offset = span.start;
    let mut message = e.message().trim_end().to_string();
    if message == "duplicate key" {
        // The parser's span is the repeated key itself: name it.
        let key = loc.text.get(span).unwrap_or_default().trim();
        let key = key.trim_matches(|c| c == '"' || c == '\'');
        return loc.error(
            offset,
            key,
            format!(
                "`{key}` is defined twice; a key or table may be given only once{}",
                list_of_tables_hint(loc.text, offset)
            ),
        );
    }
    let mut offset = offset;
    if message.starts_with("cannot recurse further") || message == "recursion limit" {
        message = format!(
            "values are nested too deeply: at most {MAX_NESTING} levels of arrays, inline tables or dotted keys"
        );
        // A parser that gives no place (a dotted key of 5,000 parts): the
        // first line that nests too deeply.
        if e.span().is_none_or(|s| s.start == 0) {
            offset = too_deep_at(loc.text).unwrap_or(offset);
        }
    }
    // `Spanned` values show up as a private wrapper segment: drop it.
    let mut field = field
        .replace(".$__serde_spanned_private_value", "")
        .replace("$__serde_spanned_private_value", "");
    // Name an unknown or missing key itself, not only the table holding it.
    let key = ["unknown field `", "missing field `"]
        .iter()
        .find_map(|prefix| message.strip_prefix(prefix))
        .and_then(|m| m.split('`').next());
    if let Some(key) = key {
        if field.is_empty() {
            field = key.to_string();
        } else if field.rsplit('.').next() != Some(key) {
            field = format!("{field}.{key}");
        }
    }
    let mut message = wording::humane(&message);
    if message.ends_with("found a table") {
        message.push_str(&list_of_tables_hint(loc.text, offset));
    }
    if field.is_empty() {
        message.push_str(&digit_group_hint(loc.text, offset));
    }
    loc.error(offset, &field, message)
}

/// The start of the first line of `text` whose key has more than
/// [`MAX_NESTING`] dotted parts, or where arrays and inline tables open
/// more than [`MAX_NESTING`] deep (quoted text aside, roughly: it only
/// places an error the parser found).
fn too_deep_at(text: &str) -> Option<usize> {
    let mut depth: usize = 0;
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let mut quoted: Option<char> = None;
        let mut dots = 0;
        let mut in_key = !line.trim_start().starts_with('[');
        for c in line.chars() {
            match (quoted, c) {
                (Some(q), c) if c == q => quoted = None,
                (Some(_), _) => {}
                (None, '"' | '\'') => quoted = Some(c),
                (None, '#') => break,
                (None, '=') => in_key = false,
                (None, '.') if in_key => dots += 1,
                (None, '[' | '{') if !in_key => depth += 1,
                (None, ']' | '}') if !in_key => depth = depth.saturating_sub(1),
                _ => {}
            }
            if dots >= MAX_NESTING || depth > MAX_NESTING {
                return Some(start);
            }
        }
        start += line.len();
    }
    None
}

/// The line of `text` that holds byte `offset`.
fn line_at(text: &str, offset: usize) -> &str {
    let offset = offset.min(text.len());
    let start = text
        .get(..offset)
        .and_then(|t| t.rfind('\n'))
        .map_or(0, |i| i + 1);
    text.get(start..)
        .unwrap_or_default()
        .lines()
        .next()
        .unwrap_or_default()
}

/// ` (write `[[variant]]` ...)` where the line at `offset` is a `[variant]`
/// table header, which a list of tables takes as `[[variant]]`.
fn list_of_tables_hint(text: &str, offset: usize) -> String {
    let line = line_at(text, offset).trim();
    let Some(name) = line
        .strip_prefix('[')
        .filter(|l| !l.starts_with('['))
        .and_then(|l| l.split_once(']'))
        .map(|(name, _)| name.trim())
    else {
        return String::new();
    };
    format!(
        " (for a list of tables write `[[{name}]]`: each `[[{name}]]` header adds one table to the list)"
    )
}

/// `; write `100_000`` where the syntax error at `offset` is a comma
/// between the digit groups of a number (`trials = 100,000`), which TOML
/// separates with `_`.
fn digit_group_hint(text: &str, offset: usize) -> String {
    let line = line_at(text, offset);
    let Some((_, value)) = line.split_once('=') else {
        return String::new();
    };
    let value = value.split('#').next().unwrap_or_default().trim();
    let groups: Vec<&str> = value.split(',').collect();
    let digits = |g: &str| !g.is_empty() && g.bytes().all(|b| b.is_ascii_digit());
    if groups.len() < 2 || !groups.iter().all(|g| digits(g)) {
        return String::new();
    }
    format!(
        "; write `{}`: TOML separates groups of digits with `_`, not `,`",
        groups.join("_")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dotted_key_too_deep_is_placed_on_its_line() {
        let text = format!("a = 1\n{}c = 1\n", "b.".repeat(5000));
        let loc = Locator {
            file: "b.toml",
            text: &text,
        };
        let e = deserialize::<toml::Table>(&loc, &text)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("b.toml:2:1: "), "{e}");
        assert!(e.contains("nested too deeply"), "{e}");
        let inline = format!(
            "a = 1\nb = 2\nc = {}1{}\n",
            "[".repeat(200),
            "]".repeat(200)
        );
        let loc = Locator {
            file: "b.toml",
            text: &inline,
        };
        let e = deserialize::<toml::Table>(&loc, &inline)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("b.toml:3:"), "{e}");
    }
}
