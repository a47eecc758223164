//! Validated setting values shared by every scenario schema: whole numbers
//! and numbers in a range, probabilities, dice expressions, names and texts
//! of bounded length, lists of bounded length. Each takes a [`Setting`]
//! (the value, its field path and its text), so each error names the file,
//! line:column and field of the offending value, whichever layer gave it.

use toml::Spanned;

use super::layers::Setting;
use super::{Locator, ScenarioError};
use crate::dice::{Chance, DiceExpr};

/// Most trials a run may ask for (10^13).
const MAX_TRIALS: u64 = super::MAX_TRIALS;

/// A trial count: digits with optional `_` separators (`100_000`), or a
/// decimal in scientific notation whose value is a whole number (`1e5`,
/// `1.5e5`), 1 to 10^13: what `--trials` reads, and a scenario's `trials`
/// written as text or as a TOML float (`trials = 1e6`).
pub fn trials_text(text: &str) -> Result<u64, String> {
    let bad = || {
        format!(
            "`{text}` is not a whole number of trials from 1 to {MAX_TRIALS} (e.g. 100000, 100_000 or 1e5)"
        )
    };
    let plain = text.replace('_', "");
    let digits_ok = |d: &str| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit());
    if text.starts_with('_') || text.ends_with('_') || text.contains("__") {
        return Err(bad());
    }
    let (mantissa, exponent) = match plain.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.strip_prefix('+').unwrap_or(e)),
        None => (plain.as_str(), "0"),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if !digits_ok(int) || !(frac.is_empty() || digits_ok(frac)) || !digits_ok(exponent) {
        return Err(bad());
    }
    // value = int.frac × 10^exponent, whole only if the fraction's digits
    // are covered by the exponent (trailing zeros aside).
    let frac = frac.trim_end_matches('0');
    let exponent: u32 = exponent.parse().map_err(|_| bad())?;
    let shift = exponent.checked_sub(frac.len() as u32).ok_or_else(bad)?;
    let digits = format!("{int}{frac}");
    let value = digits
        .parse::<u128>()
        .ok()
        .and_then(|d| 10u128.checked_pow(shift).and_then(|p| d.checked_mul(p)))
        .ok_or_else(bad)?;
    if value < 1 || value > u128::from(MAX_TRIALS) {
        return Err(bad());
    }
    Ok(value as u64)
}

/// A scenario's `trials` as written: a whole number, a TOML float whose
/// value is whole (`1e6`, read as `--trials 1e6` reads it), or the text
/// `--trials` takes (`"1e6"`).
pub fn trials_value(value: &toml::Value) -> Result<u64, String> {
    match value {
        toml::Value::Integer(n) => u64::try_from(*n)
            .ok()
            .filter(|n| (1..=MAX_TRIALS).contains(n))
            .ok_or_else(|| format!("trials must be between 1 and {MAX_TRIALS}, got {n}")),
        // A float's shortest decimal form (`1000000`, `1e20`) read as text.
        toml::Value::Float(x) if x.is_finite() => trials_text(&format!("{x:?}"))
            .map_err(|_| format!("trials must be a whole number from 1 to {MAX_TRIALS}, got {x}")),
        toml::Value::String(text) => trials_text(text),
        other => Err(format!(
            "expected a whole number of trials (e.g. 100_000 or 1e5), found {}",
            other.type_str()
        )),
    }
}

/// An optional spanned setting.
pub type Opt<T> = Option<Spanned<T>>;

/// A whole number in `range`, or `default`.
pub fn int(
    value: Option<Setting<'_, i64>>,
    range: std::ops::RangeInclusive<i64>,
    what: &str,
    default: i64,
) -> Result<i64, ScenarioError> {
    let Some(v) = value else {
        return Ok(default);
    };
    if range.contains(v.get()) {
        return Ok(*v.get());
    }
    Err(v.error(format!(
        "{what} must be between {} and {}, got {}",
        range.start(),
        range.end(),
        v.get()
    )))
}

/// An [`int`] named in messages by its own key (`round_cap must be ...`).
pub fn keyed_int(
    value: Option<Setting<'_, i64>>,
    range: std::ops::RangeInclusive<i64>,
    default: i64,
) -> Result<i64, ScenarioError> {
    let what = value
        .as_ref()
        .map_or(String::new(), |v| v.key().to_string());
    int(value, range, &what, default)
}

/// A number (integer or float) in `[low, high]`, or `default`.
pub fn number(
    value: Option<Setting<'_, toml::Value>>,
    low: f64,
    high: f64,
    what: &str,
    default: f64,
) -> Result<f64, ScenarioError> {
    let Some(v) = value else {
        return Ok(default);
    };
    let x = match v.get() {
        toml::Value::Integer(i) => *i as f64,
        toml::Value::Float(f) => *f,
        other => {
            return Err(v.error(format!("{what} must be a number, got {}", other.type_str())));
        }
    };
    if x.is_finite() && x >= low && x <= high {
        Ok(x)
    } else {
        Err(v.error(format!("{what} must be between {low} and {high}, got {x}")))
    }
}

/// A dice expression written as a string.
pub fn dice(v: Setting<'_, String>) -> Result<DiceExpr, ScenarioError> {
    v.get()
        .parse::<DiceExpr>()
        .map_err(|e| v.error(e.to_string()))
}

/// A whole number or a dice expression (`3` or `"1d4+1"`) whose every
/// result lies in `low..=high`.
pub fn dice_or_int(
    v: Setting<'_, toml::Value>,
    low: i64,
    high: i64,
    what: &str,
) -> Result<DiceExpr, ScenarioError> {
    let expr = match v.get() {
        toml::Value::Integer(i) if (low..=high).contains(i) => DiceExpr::constant(*i as i32),
        toml::Value::Integer(i) => {
            return Err(v.error(format!("{what} must be between {low} and {high}, got {i}")));
        }
        toml::Value::String(s) => s.parse::<DiceExpr>().map_err(|e| v.error(e.to_string()))?,
        other => {
            return Err(v.error(format!(
                "{what} must be a whole number or a dice expression like \"1d4+1\", got {}",
                other.type_str()
            )));
        }
    };
    if expr.min() < low || expr.max() > high {
        return Err(v.error(format!(
            "{what} `{expr}` ranges {}..={}, outside {low}..={high}",
            expr.min(),
            expr.max()
        )));
    }
    Ok(expr)
}

/// A probability in `[0, 1]` as a [`Chance`], or `default`.
pub fn chance(
    value: Option<Setting<'_, f64>>,
    what: &str,
    default: Chance,
) -> Result<Chance, ScenarioError> {
    let Some(v) = value else {
        return Ok(default);
    };
    Chance::new(*v.get()).map_err(|e| {
        v.error(format!(
            "{what} is a probability and must be between 0 and 1, got {}",
            e.0
        ))
    })
}

/// A share in `[0, 1]` (validated as a [`chance`], kept as written), or `default`.
pub fn probability(
    value: Option<Setting<'_, f64>>,
    what: &str,
    default: f64,
) -> Result<f64, ScenarioError> {
    let Some(v) = value else {
        return Ok(default);
    };
    let p = *v.get();
    chance(Some(v), what, Chance::NEVER)?;
    Ok(p)
}

/// A setting that needs no check (a switch, a choice among named values):
/// its value, or `default`.
pub fn or<T: Copy>(value: Option<Setting<'_, T>>, default: T) -> T {
    value.map_or(default, |v| v.copied())
}

/// A name or description: at most `max` characters and no control
/// characters (it is printed in one line of a table, a legend, a message).
pub fn text<'a>(v: &Setting<'a, String>, what: &str, max: usize) -> Result<&'a str, ScenarioError> {
    let s = v.get();
    let chars = s.chars().count();
    if chars > max {
        return Err(v.error(format!(
            "{what} has {chars} characters; at most {max} are allowed"
        )));
    }
    if let Some(c) = s.chars().find(|c| c.is_control()) {
        return Err(v.error(format!(
            "{what} contains the control character U+{:04X}; it must be one line of printable text",
            u32::from(c)
        )));
    }
    Ok(s)
}

/// An optional [`text`], or `""`.
pub fn opt_text<'a>(
    v: Option<Setting<'a, String>>,
    what: &str,
    max: usize,
) -> Result<&'a str, ScenarioError> {
    v.map_or(Ok(""), |v| text(&v, what, max))
}

/// Refuses a list longer than `max` entries (`what` names them, plural).
pub fn at_most<T>(list: &Setting<'_, Vec<T>>, what: &str, max: usize) -> Result<(), ScenarioError> {
    let n = list.get().len();
    if n > max {
        return Err(list.error(format!("at most {max} {what}, got {n}")));
    }
    Ok(())
}

/// The value `value` of `loc` named `field`, as a [`Setting`] (for values
/// that no layering applies to: list elements, entries of a data file).
pub fn at<'a, T>(
    loc: &Locator<'a>,
    value: &'a Spanned<T>,
    field: impl Into<String>,
) -> Setting<'a, T> {
    Setting::new(*loc, value, field)
}

/// An optional value of `loc` named `field`, as an optional [`Setting`].
pub fn opt_at<'a, T>(
    loc: &Locator<'a>,
    value: &'a Opt<T>,
    field: impl Into<String>,
) -> Option<Setting<'a, T>> {
    value.as_ref().map(|v| Setting::new(*loc, v, field))
}
