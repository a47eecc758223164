//! Validated setting values shared by every scenario schema: whole numbers
//! and numbers in a range, probabilities, dice expressions, names and texts
//! of bounded length, lists of bounded length. Each error names the file,
//! line:column and field of the offending value.

use toml::Spanned;

use super::{Locator, ScenarioError};
use crate::dice::{Chance, DiceExpr};

/// An optional spanned setting.
pub type Opt<T> = Option<Spanned<T>>;

/// A setting and the field path to name in errors.
pub type Picked<'a, T> = Option<(&'a Spanned<T>, String)>;

/// A whole number in `range`, or `default`.
pub fn int(
    loc: &Locator,
    value: Picked<'_, i64>,
    range: std::ops::RangeInclusive<i64>,
    what: &str,
    default: i64,
) -> Result<i64, ScenarioError> {
    let Some((v, field)) = value else {
        return Ok(default);
    };
    if range.contains(v.get_ref()) {
        return Ok(*v.get_ref());
    }
    Err(loc.error(
        v.span().start,
        &field,
        format!(
            "{what} must be between {} and {}, got {}",
            range.start(),
            range.end(),
            v.get_ref()
        ),
    ))
}

/// A number (integer or float) in `[low, high]`, or `default`.
pub fn number(
    loc: &Locator,
    value: Picked<'_, toml::Value>,
    low: f64,
    high: f64,
    what: &str,
    default: f64,
) -> Result<f64, ScenarioError> {
    let Some((v, field)) = value else {
        return Ok(default);
    };
    let x = match v.get_ref() {
        toml::Value::Integer(i) => *i as f64,
        toml::Value::Float(f) => *f,
        other => {
            return Err(loc.error(
                v.span().start,
                &field,
                format!("{what} must be a number, got {}", other.type_str()),
            ));
        }
    };
    if x.is_finite() && x >= low && x <= high {
        Ok(x)
    } else {
        Err(loc.error(
            v.span().start,
            &field,
            format!("{what} must be between {low} and {high}, got {x}"),
        ))
    }
}

/// A dice expression written as a string.
pub fn dice(loc: &Locator, v: &Spanned<String>, field: &str) -> Result<DiceExpr, ScenarioError> {
    v.get_ref()
        .parse::<DiceExpr>()
        .map_err(|e| loc.error(v.span().start, field, e.to_string()))
}

/// A probability in `[0, 1]` as a [`Chance`], or `default`.
pub fn chance(
    loc: &Locator,
    value: Picked<'_, f64>,
    what: &str,
    default: Chance,
) -> Result<Chance, ScenarioError> {
    let Some((v, field)) = value else {
        return Ok(default);
    };
    Chance::new(*v.get_ref()).map_err(|e| {
        loc.error(
            v.span().start,
            &field,
            format!(
                "{what} is a probability and must be between 0 and 1, got {}",
                e.0
            ),
        )
    })
}

/// A share in `[0, 1]` (validated as a [`chance`], kept as written), or `default`.
pub fn probability(
    loc: &Locator,
    value: Picked<'_, f64>,
    what: &str,
    default: f64,
) -> Result<f64, ScenarioError> {
    let Some((v, field)) = value else {
        return Ok(default);
    };
    chance(loc, Some((v, field)), what, Chance::NEVER)?;
    Ok(*v.get_ref())
}

/// A name or description: at most `max` characters and no control
/// characters (it is printed in one line of a table, a legend, a message).
pub fn text<'a>(
    loc: &Locator,
    v: &'a Spanned<String>,
    field: &str,
    what: &str,
    max: usize,
) -> Result<&'a str, ScenarioError> {
    let s = v.get_ref();
    let chars = s.chars().count();
    if chars > max {
        return Err(loc.error(
            v.span().start,
            field,
            format!("{what} has {chars} characters; at most {max} are allowed"),
        ));
    }
    if let Some(c) = s.chars().find(|c| c.is_control()) {
        return Err(loc.error(
            v.span().start,
            field,
            format!(
                "{what} contains the control character U+{:04X}; it must be one line of printable text",
                u32::from(c)
            ),
        ));
    }
    Ok(s)
}

/// An optional [`text`], or `""`.
pub fn opt_text<'a>(
    loc: &Locator,
    v: Option<&'a Spanned<String>>,
    field: &str,
    what: &str,
    max: usize,
) -> Result<&'a str, ScenarioError> {
    v.map_or(Ok(""), |v| text(loc, v, field, what, max))
}

/// Refuses a list longer than `max` entries (`what` names them, plural).
pub fn at_most<T>(
    loc: &Locator,
    list: &Spanned<Vec<T>>,
    field: &str,
    what: &str,
    max: usize,
) -> Result<(), ScenarioError> {
    let n = list.get_ref().len();
    if n > max {
        return Err(loc.error(
            list.span().start,
            field,
            format!("at most {max} {what}, got {n}"),
        ));
    }
    Ok(())
}

/// The last segment of a field path (`variant[1].dc` → `dc`), for messages.
pub fn key_of(field: &str) -> &str {
    field.rsplit('.').next().unwrap_or(field)
}
