//! The injury table as data (RULES.md §1): the TOML schema of
//! `data/lingering-injuries.toml` and of a scenario's `table = [...]`
//! (a whole replacement) and `override = [...]` (entries changed by `id`),
//! validated once into an [`InjuryTable`].
//!
//! Validation: ids are unique lower_snake_case; each d100 range lies in
//! 1..=100 with low <= high; the ranges cover 1..=100 exactly once; the
//! injury chance is a probability; effect and cure parameters are in range
//! (a broken-item sub-table covers its die exactly once). Unknown effect
//! tags and cure classes are refused by the deserializer with the list of
//! known ones.

use std::sync::OnceLock;

use serde::Deserialize;
use toml::Spanned;

use super::limits::{MAX_ENTRY_TAGS, MAX_LABEL_CHARS, MAX_TABLE_ENTRIES};
use super::values::{at_most, text};
use super::{Locator, ScenarioError};
use crate::dice::Chance;
use crate::rules::lingering::{
    Cure, DEFAULT_TABLE_FILE, DEFAULT_TABLE_TOML, Effect, Injury, InjuryTable,
};

/// One `[[entry]]` as written; in an override only `id` is required.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEntry {
    id: Spanned<String>,
    name: Option<Spanned<String>>,
    d100: Option<Spanned<Vec<Spanned<i64>>>>,
    effects: Option<Spanned<Vec<Effect>>>,
    cures: Option<Spanned<Vec<Cure>>>,
}

/// The data file: the chance and the entries.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTableFile {
    injury_chance: Spanned<f64>,
    entry: Spanned<Vec<Spanned<RawEntry>>>,
}

/// The built-in table, parsed and validated once.
pub fn default_table_result() -> Result<InjuryTable, ScenarioError> {
    static TABLE: OnceLock<Result<InjuryTable, ScenarioError>> = OnceLock::new();
    TABLE
        .get_or_init(|| {
            let loc = Locator {
                file: DEFAULT_TABLE_FILE,
                text: DEFAULT_TABLE_TOML,
            };
            let raw: RawTableFile = super::deserialize(&loc, DEFAULT_TABLE_TOML)?;
            let chance = chance(&loc, &raw.injury_chance, "injury_chance")?;
            let entries = raw
                .entry
                .get_ref()
                .iter()
                .enumerate()
                .map(|(i, e)| convert(&loc, e, &format!("entry[{i}]"), None))
                .collect::<Result<Vec<_>, _>>()?;
            check_cover(&loc, entries, raw.entry.span().start, "entry")
                .map(|e| InjuryTable::new(chance, e))
        })
        .clone()
}

/// The built-in table (its validity is a unit test of this module).
pub fn default_table() -> InjuryTable {
    match default_table_result() {
        Ok(t) => t,
        Err(e) => panic!("the embedded injury table is invalid: {e}"),
    }
}

/// Validates an injury chance.
pub fn chance(loc: &Locator, v: &Spanned<f64>, field: &str) -> Result<Chance, ScenarioError> {
    Chance::new(*v.get_ref()).map_err(|e| {
        loc.error(
            v.span().start,
            field,
            format!(
                "the injury chance must be a probability between 0 and 1, got {}",
                e.0
            ),
        )
    })
}

/// Builds a scenario's table: the default, or `table` (whole replacement),
/// then `overrides` by id, then `chance`.
pub fn build(
    loc: &Locator,
    chance_value: Option<(&Spanned<f64>, String)>,
    table: Option<(&Spanned<Vec<Spanned<RawEntry>>>, String)>,
    overrides: Option<(&Spanned<Vec<Spanned<RawEntry>>>, String)>,
) -> Result<InjuryTable, ScenarioError> {
    let default = default_table_result()?;
    for (list, path) in [&table, &overrides].into_iter().flatten() {
        at_most(loc, list, path, "entries", MAX_TABLE_ENTRIES)?;
    }
    let chance = match chance_value {
        Some((v, f)) => chance(loc, v, &f)?,
        None => default.chance,
    };
    if table.is_none() && overrides.is_none() {
        let mut table = default;
        table.chance = chance;
        return Ok(table);
    }
    // (entry, offset, field) — the place to blame if its range collides.
    let mut entries: Vec<(Injury, usize, String)> = match &table {
        None => default
            .entries
            .iter()
            .map(|e| (e.clone(), 0, String::new()))
            .collect(),
        Some((list, path)) => list
            .get_ref()
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let field = format!("{path}[{i}]");
                convert(loc, e, &field, None)
            })
            .collect::<Result<Vec<_>, _>>()?,
    };
    let mut blame = table
        .as_ref()
        .map_or((0, String::new()), |(l, p)| (l.span().start, p.clone()));
    if let Some((list, path)) = &overrides {
        blame = (list.span().start, path.clone());
        for (i, raw) in list.get_ref().iter().enumerate() {
            let field = format!("{path}[{i}]");
            let id = raw.get_ref().id.get_ref();
            let Some(slot) = entries.iter().position(|(e, _, _)| &e.id == id) else {
                return Err(loc.error(
                    raw.get_ref().id.span().start,
                    &format!("{field}.id"),
                    format!(
                        "no entry `{id}` to override; the table has: {}",
                        entries
                            .iter()
                            .map(|(e, _, _)| e.id.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            };
            let base = entries[slot].0.clone();
            entries[slot] = convert(loc, raw, &field, Some(&base))?;
        }
    }
    let entries = check_cover(loc, entries, blame.0, &blame.1)?;
    Ok(InjuryTable::new(chance, entries))
}

fn is_snake(id: &str) -> bool {
    !id.is_empty()
        && id.starts_with(|c: char| c.is_ascii_lowercase())
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// Converts one raw entry (over `base` for an override).
fn convert(
    loc: &Locator,
    raw: &Spanned<RawEntry>,
    field: &str,
    base: Option<&Injury>,
) -> Result<(Injury, usize, String), ScenarioError> {
    let r = raw.get_ref();
    let at = raw.span().start;
    let id = r.id.get_ref();
    if !is_snake(id) {
        return Err(loc.error(
            r.id.span().start,
            &format!("{field}.id"),
            format!("entry id `{id}` must be lower_snake_case (it names metrics)"),
        ));
    }
    text(
        loc,
        &r.id,
        &format!("{field}.id"),
        "an entry id",
        MAX_LABEL_CHARS,
    )?;
    let missing = |key: &str| {
        loc.error(
            at,
            &format!("{field}.{key}"),
            format!("entry `{id}` needs `{key}`"),
        )
    };
    let name = match (&r.name, base) {
        (Some(n), _) => text(
            loc,
            n,
            &format!("{field}.name"),
            "an entry name",
            MAX_LABEL_CHARS,
        )?
        .to_string(),
        (None, Some(b)) => b.name.clone(),
        (None, None) => return Err(missing("name")),
    };
    let (low, high, range_at, range_field) = match (&r.d100, base) {
        (Some(d), _) => {
            let f = format!("{field}.d100");
            let [lo, hi] = d.get_ref().as_slice() else {
                return Err(loc.error(
                    d.span().start,
                    &f,
                    "a d100 range is two numbers, `[low, high]`",
                ));
            };
            for v in [lo, hi] {
                if !(1..=100).contains(v.get_ref()) {
                    return Err(loc.error(
                        v.span().start,
                        &f,
                        format!("d100 results run from 1 to 100 (00), got {}", v.get_ref()),
                    ));
                }
            }
            if lo.get_ref() > hi.get_ref() {
                return Err(loc.error(
                    d.span().start,
                    &f,
                    format!(
                        "the range [{}, {}] runs backwards",
                        lo.get_ref(),
                        hi.get_ref()
                    ),
                ));
            }
            (*lo.get_ref() as u8, *hi.get_ref() as u8, d.span().start, f)
        }
        (None, Some(b)) => (b.low, b.high, at, field.to_string()),
        (None, None) => return Err(missing("d100")),
    };
    let effects = match (&r.effects, base) {
        (Some(e), _) => {
            let f = format!("{field}.effects");
            at_most(loc, e, &f, "effects per entry", MAX_ENTRY_TAGS)?;
            for (i, effect) in e.get_ref().iter().enumerate() {
                check_effect(
                    loc,
                    effect,
                    e.span().start,
                    &format!("{field}.effects[{i}]"),
                )?;
            }
            e.get_ref().clone()
        }
        (None, Some(b)) => b.effects.clone(),
        (None, None) => Vec::new(),
    };
    let cures = match (&r.cures, base) {
        (Some(c), _) => {
            let f = format!("{field}.cures");
            at_most(loc, c, &f, "cures per entry", MAX_ENTRY_TAGS)?;
            for (i, cure) in c.get_ref().iter().enumerate() {
                check_cure(loc, cure, c.span().start, &format!("{field}.cures[{i}]"))?;
            }
            c.get_ref().clone()
        }
        (None, Some(b)) => b.cures.clone(),
        (None, None) => return Err(missing("cures")),
    };
    Ok((
        Injury {
            id: id.clone(),
            name,
            low,
            high,
            effects,
            cures,
        },
        range_at,
        range_field,
    ))
}

fn dc_ok(loc: &Locator, dc: u8, at: usize, field: &str) -> Result<(), ScenarioError> {
    if (1..=30).contains(&dc) {
        Ok(())
    } else {
        Err(loc.error(
            at,
            field,
            format!("a DC must be between 1 and 30, got {dc}"),
        ))
    }
}

fn check_effect(loc: &Locator, e: &Effect, at: usize, field: &str) -> Result<(), ScenarioError> {
    match e {
        Effect::Disadvantage { on } | Effect::Advantage { on } if on.len() > MAX_ENTRY_TAGS => {
            Err(loc.error(
                at,
                field,
                format!("at most {MAX_ENTRY_TAGS} rolls in `on`, got {}", on.len()),
            ))
        }
        Effect::SpeedChange { feet } if !(-1000..=1000).contains(feet) => Err(loc.error(
            at,
            field,
            format!("a speed change must be between -1000 and 1000 feet, got {feet}"),
        )),
        Effect::MaxHpLossPerDay { amount } if !(1..=100).contains(amount) => Err(loc.error(
            at,
            field,
            format!("max HP lost per day must be between 1 and 100, got {amount}"),
        )),
        Effect::ActionLossSave { dc, .. } => dc_ok(loc, *dc, at, field),
        Effect::ProneAfterDash { save_dc: Some(dc) } => dc_ok(loc, *dc, at, field),
        Effect::SpellFailure { die, fails_on, .. } if *die == 0 || fails_on > die => Err(loc
            .error(
                at,
                field,
                format!(
                    "a spell-failure roll needs 1 <= fails_on <= die, got {fails_on} on a d{die}"
                ),
            )),
        Effect::BlindedWhenAllLost { count: 0 } | Effect::HandLostWhenAllLost { count: 0 } => {
            Err(loc.error(at, field, "count must be at least 1"))
        }
        Effect::BrokenItem { die, items } => {
            let mut seen = vec![false; usize::from(*die)];
            for row in items {
                let [lo, hi] = row.d;
                if lo == 0 || lo > hi || hi > *die {
                    return Err(loc.error(
                        at,
                        field,
                        format!("sub-table range [{lo}, {hi}] is not inside 1..={die}"),
                    ));
                }
                for d in lo..=hi {
                    if std::mem::replace(&mut seen[usize::from(d) - 1], true) {
                        return Err(loc.error(
                            at,
                            field,
                            format!("sub-table result {d} is covered twice"),
                        ));
                    }
                }
            }
            match seen.iter().position(|s| !s) {
                _ if *die == 0 => {
                    Err(loc.error(at, field, "the sub-table die needs at least 1 side"))
                }
                Some(d) => Err(loc.error(
                    at,
                    field,
                    format!("sub-table result {} of the d{die} is not covered", d + 1),
                )),
                None => Ok(()),
            }
        }
        _ => Ok(()),
    }
}

fn check_cure(loc: &Locator, c: &Cure, at: usize, field: &str) -> Result<(), ScenarioError> {
    match c {
        Cure::Rest { days } | Cure::MedicineAndRest { days, .. } if *days > 3650 => Err(loc.error(
            at,
            field,
            format!("rest days must be at most 3650, got {days}"),
        )),
        Cure::MedicineAndRest { dc, .. } => dc_ok(loc, *dc, at, field),
        Cure::Tending { dc, successes } => {
            dc_ok(loc, *dc, at, field)?;
            if (1..=100).contains(successes) {
                Ok(())
            } else {
                Err(loc.error(
                    at,
                    field,
                    format!("tending needs 1 to 100 successes, got {successes}"),
                ))
            }
        }
        _ => Ok(()),
    }
}

/// Checks unique ids and that the ranges cover 1..=100 exactly once.
fn check_cover(
    loc: &Locator,
    entries: Vec<(Injury, usize, String)>,
    table_at: usize,
    table_field: &str,
) -> Result<Vec<Injury>, ScenarioError> {
    let mut owner: [Option<usize>; 100] = [None; 100];
    for (i, (e, at, field)) in entries.iter().enumerate() {
        if let Some((first, ..)) = entries[..i].iter().find(|(o, ..)| o.id == e.id) {
            return Err(loc.error(*at, field, format!("entry id `{}` is used twice", first.id)));
        }
        for d in e.low..=e.high {
            let slot = &mut owner[usize::from(d) - 1];
            if let Some(other) = *slot {
                // Blame the entry the scenario wrote (an override), not a built-in one.
                let (blamed, at, field, by) = if field.is_empty() {
                    let (o, o_at, o_field) = &entries[other];
                    (o, *o_at, o_field.as_str(), &e.id)
                } else {
                    (e, *at, field.as_str(), &entries[other].0.id)
                };
                return Err(loc.error(
                    at,
                    field,
                    format!(
                        "d100 result {d} of `{}` is also covered by `{by}`: the ranges must cover 1-100 exactly once",
                        blamed.id
                    ),
                ));
            }
            *slot = Some(i);
        }
    }
    if let Some(gap) = owner.iter().position(Option::is_none) {
        let end = owner[gap..]
            .iter()
            .position(Option::is_some)
            .map_or(100, |n| gap + n);
        return Err(loc.error(
            table_at,
            table_field,
            format!(
                "d100 {} not covered by any entry: the ranges must cover 1-100 exactly once",
                if gap + 1 == end {
                    format!("result {end} is")
                } else {
                    format!("results {}-{end} are", gap + 1)
                }
            ),
        ));
    }
    Ok(entries.into_iter().map(|(e, ..)| e).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_table_is_valid() {
        let t = default_table_result().expect("valid");
        assert_eq!(t.entries.len(), 23);
    }
}
