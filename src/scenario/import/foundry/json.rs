//! JSON access for the Foundry VTT reader: paths for error messages,
//! lenient lookups (`at`, `number`, `whole`) and the strict ones that turn a
//! wrong type into an [`ImportError`] at its path.

use super::*;

/// `path.key`, or `key` at the top.
pub(super) fn child(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// The value at nested `keys`, if present and not null.
pub(super) fn at<'a>(v: &'a Value, keys: &[&str]) -> Option<&'a Value> {
    let mut cur = v;
    for k in keys {
        cur = cur.get(*k)?;
    }
    (!cur.is_null()).then_some(cur)
}

/// The text at nested `keys`, trimmed; "" when absent or not text.
pub(super) fn str_at<'a>(v: &'a Value, keys: &[&str]) -> &'a str {
    at(v, keys).and_then(Value::as_str).map_or("", str::trim)
}

/// A number given as a number or as numeric text ("5", "+2").
pub(super) fn number(v: Option<&Value>) -> Option<f64> {
    let f = match v? {
        Value::Number(n) => n.as_f64()?,
        Value::String(s) => s.trim().trim_start_matches('+').parse::<f64>().ok()?,
        _ => return None,
    };
    (f.is_finite() && f.abs() <= 1e9).then_some(f)
}

/// [`number`], rounded down to a whole number.
pub(super) fn whole(v: Option<&Value>) -> Option<i64> {
    number(v).map(|f| f.floor() as i64)
}

/// The list at nested `keys` (empty when absent or not a list).
pub(super) fn list_at<'a>(v: &'a Value, keys: &[&str]) -> &'a [Value] {
    at(v, keys)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// Whether a Foundry property set (a list, or an old `{key: true}` object)
/// holds `key`.
pub(super) fn has_property(sys: &Value, key: &str) -> bool {
    match sys.get("properties") {
        Some(Value::Array(a)) => a.iter().any(|p| p.as_str() == Some(key)),
        Some(Value::Object(o)) => o.get(key).and_then(Value::as_bool) == Some(true),
        _ => false,
    }
}

/// `o[key]` as an object: absent or null is None, another kind an error.
pub(super) fn object<'a>(
    o: &'a Value,
    key: &str,
    path: &str,
) -> Result<Option<&'a Value>, ImportError> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v @ Value::Object(_)) => Ok(Some(v)),
        Some(v) => Err(ImportError::at(
            child(path, key),
            format!("`{key}` must be an object, not {}", access::kind(v)),
        )),
    }
}

/// `o[key]` as a whole number: absent, null or empty text is None; any
/// other value must be a whole number (strictly, with the path).
pub(super) fn opt_whole(
    o: &Value,
    key: &str,
    path: &str,
    what: &str,
) -> Result<Option<i64>, ImportError> {
    match o.get(key) {
        Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
        _ => access::opt_int(o, key, path, what),
    }
}

/// The index of an ability key ("str") or name ("strength").
pub(super) fn ability_index(key: &str) -> Option<usize> {
    let k = key.trim().to_ascii_lowercase();
    ABILITIES.iter().position(|a| *a == k).or_else(|| {
        ABILITY_NAMES
            .iter()
            .position(|n| n.eq_ignore_ascii_case(&k))
    })
}

/// The modifier of an ability score.
pub(super) fn modifier(score: i64) -> i64 {
    (score - 10).div_euclid(2)
}

/// The proficiency bonus of a challenge rating.
pub(super) fn proficiency_for_cr(cr: f64) -> i64 {
    i64::from(crate::rules::encounter_difficulty::proficiency_by_cr(cr))
}

/// A challenge rating as a statblock writes it, if it is one.
pub(super) fn cr_text(cr: f64) -> Option<String> {
    if !(0.0..=100.0).contains(&cr) {
        return None;
    }
    if cr.fract() == 0.0 {
        return Some(format!("{}", cr as i64));
    }
    [(0.125, "1/8"), (0.25, "1/4"), (0.5, "1/2")]
        .iter()
        .find(|(f, _)| (cr - f).abs() < 1e-6)
        .map(|(_, t)| (*t).to_string())
}

/// The first letter in upper case.
pub(super) fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// Each word's first letter in upper case.
pub(super) fn title(s: &str) -> String {
    s.split(' ').map(capitalize).collect::<Vec<_>>().join(" ")
}

/// "1st", "2nd", "3rd", "4th".
pub(super) fn ordinal(n: i64) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Case-insensitive (ASCII) find.
pub(super) fn find_ci(hay: &str, needle: &str) -> Option<usize> {
    hay.to_ascii_lowercase().find(&needle.to_ascii_lowercase())
}
