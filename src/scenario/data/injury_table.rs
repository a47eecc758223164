//! The injury table as data (docs/rules.md, lingering injuries): the TOML schema of
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

use serde::Deserialize;
use toml::Spanned;

use crate::dice::Chance;
use crate::rules::lingering::{Cure, Effect, Injury, InjuryTable};
use crate::scenario::layers::Setting;
use crate::scenario::limits::{MAX_ENTRY_TAGS, MAX_LABEL_CHARS, MAX_TABLE_ENTRIES};
use crate::scenario::values::{at, at_most, opt_at, text};
use crate::scenario::{Locator, ScenarioError};

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

/// Parses and validates an injury-table file (`file` names it in errors).
pub fn parse_file(file: &str, text: &str) -> Result<InjuryTable, ScenarioError> {
    let loc = Locator { file, text };
    let raw: RawTableFile = crate::scenario::deserialize(&loc, text)?;
    let chance = chance(&at(&loc, &raw.injury_chance, "injury_chance"))?;
    let entries = raw
        .entry
        .get_ref()
        .iter()
        .enumerate()
        .map(|(i, e)| convert(&loc, e, &format!("entry[{i}]"), None))
        .collect::<Result<Vec<_>, _>>()?;
    let whole = Blame {
        loc,
        at: raw.entry.span().start,
        field: "entry".into(),
    };
    check_cover(entries, &whole).map(|e| InjuryTable::new(chance, e))
}

/// Validates an injury chance.
pub fn chance(v: &Setting<'_, f64>) -> Result<Chance, ScenarioError> {
    Chance::new(*v.get()).map_err(|e| {
        v.error(format!(
            "the injury chance must be a probability between 0 and 1, got {}",
            e.0
        ))
    })
}

/// Builds a scenario's table from `default` (the catalog's): `table`
/// replaces it whole, then `overrides` change entries by id, then
/// `chance_value` sets the chance.
pub fn build(
    default: &InjuryTable,
    chance_value: Option<Setting<'_, f64>>,
    table: Option<Setting<'_, Vec<Spanned<RawEntry>>>>,
    overrides: Option<Setting<'_, Vec<Spanned<RawEntry>>>>,
) -> Result<InjuryTable, ScenarioError> {
    for list in [&table, &overrides].into_iter().flatten() {
        at_most(list, "entries", MAX_TABLE_ENTRIES)?;
    }
    let chance = match &chance_value {
        Some(v) => chance(v)?,
        None => default.chance,
    };
    if table.is_none() && overrides.is_none() {
        let mut table = default.clone();
        table.chance = chance;
        return Ok(table);
    }
    // The list to blame for a gap: the overrides if any, else the table.
    let Some(blame) = overrides.as_ref().or(table.as_ref()) else {
        unreachable!("a table or overrides were given");
    };
    let blame = Blame {
        loc: blame.loc,
        at: blame.at(),
        field: blame.field.clone(),
    };
    let mut entries: Vec<(Injury, Blame)> = match &table {
        // Built-in entries are blamed on the list that collides with them.
        None => default
            .entries
            .iter()
            .map(|e| {
                let unnamed = Blame {
                    field: String::new(),
                    ..blame.clone()
                };
                (e.clone(), unnamed)
            })
            .collect(),
        Some(list) => list
            .get()
            .iter()
            .enumerate()
            .map(|(i, e)| convert(&list.loc, e, &format!("{}[{i}]", list.field), None))
            .collect::<Result<Vec<_>, _>>()?,
    };
    if let Some(list) = &overrides {
        for (i, raw) in list.get().iter().enumerate() {
            let field = format!("{}[{i}]", list.field);
            let id = raw.get_ref().id.get_ref();
            let Some(slot) = entries.iter().position(|(e, _)| &e.id == id) else {
                return Err(list.loc.error(
                    raw.get_ref().id.span().start,
                    &format!("{field}.id"),
                    format!(
                        "no entry `{id}` to override; the table has: {}",
                        entries
                            .iter()
                            .map(|(e, _)| e.id.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            };
            let base = entries[slot].0.clone();
            entries[slot] = convert(&list.loc, raw, &field, Some(&base))?;
        }
    }
    let entries = check_cover(entries, &blame)?;
    Ok(InjuryTable::new(chance, entries))
}

/// Where to report a problem with an entry: its text, offset and field
/// (empty for a built-in entry, which is never blamed itself).
#[derive(Clone, Debug)]
struct Blame<'a> {
    loc: Locator<'a>,
    at: usize,
    field: String,
}

impl Blame<'_> {
    fn error(&self, message: String) -> ScenarioError {
        self.loc.error(self.at, &self.field, message)
    }
}

fn is_snake(id: &str) -> bool {
    !id.is_empty()
        && id.starts_with(|c: char| c.is_ascii_lowercase())
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// Converts one raw entry (over `base` for an override), with the place
/// to blame if its range collides.
fn convert<'a>(
    loc: &Locator<'a>,
    raw: &'a Spanned<RawEntry>,
    field: &str,
    base: Option<&Injury>,
) -> Result<(Injury, Blame<'a>), ScenarioError> {
    let r = raw.get_ref();
    let entry_at = raw.span().start;
    let id = r.id.get_ref();
    if !is_snake(id) {
        return Err(loc.error(
            r.id.span().start,
            &format!("{field}.id"),
            format!("entry id `{id}` must be lower_snake_case (it names metrics)"),
        ));
    }
    text(
        &at(loc, &r.id, format!("{field}.id")),
        "an entry id",
        MAX_LABEL_CHARS,
    )?;
    let missing = |key: &str| {
        loc.error(
            entry_at,
            &format!("{field}.{key}"),
            format!("entry `{id}` needs `{key}`"),
        )
    };
    let name = match (opt_at(loc, &r.name, format!("{field}.name")), base) {
        (Some(n), _) => text(&n, "an entry name", MAX_LABEL_CHARS)?.to_string(),
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
        (None, Some(b)) => (b.low, b.high, entry_at, field.to_string()),
        (None, None) => return Err(missing("d100")),
    };
    let effects = match (&r.effects, base) {
        (Some(e), _) => {
            at_most(
                &at(loc, e, format!("{field}.effects")),
                "effects per entry",
                MAX_ENTRY_TAGS,
            )?;
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
            at_most(
                &at(loc, c, format!("{field}.cures")),
                "cures per entry",
                MAX_ENTRY_TAGS,
            )?;
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
        Blame {
            loc: *loc,
            at: range_at,
            field: range_field,
        },
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

/// Checks unique ids and that the ranges cover 1..=100 exactly once;
/// a gap is blamed on `table`.
fn check_cover(
    entries: Vec<(Injury, Blame<'_>)>,
    table: &Blame<'_>,
) -> Result<Vec<Injury>, ScenarioError> {
    let mut owner: [Option<usize>; 100] = [None; 100];
    for (i, (e, place)) in entries.iter().enumerate() {
        if let Some((first, _)) = entries[..i].iter().find(|(o, _)| o.id == e.id) {
            return Err(place.error(format!("entry id `{}` is used twice", first.id)));
        }
        for d in e.low..=e.high {
            let slot = &mut owner[usize::from(d) - 1];
            if let Some(other) = *slot {
                // Blame the entry the scenario wrote (an override), not a built-in one.
                let (blamed, place, by) = if place.field.is_empty() {
                    let (o, o_place) = &entries[other];
                    (o, o_place, &e.id)
                } else {
                    (e, place, &entries[other].0.id)
                };
                return Err(place.error(format!(
                    "d100 result {d} of `{}` is also covered by `{by}`: the ranges must cover 1-100 exactly once",
                    blamed.id
                )));
            }
            *slot = Some(i);
        }
    }
    if let Some(gap) = owner.iter().position(Option::is_none) {
        let end = owner[gap..]
            .iter()
            .position(Option::is_some)
            .map_or(100, |n| gap + n);
        return Err(table.error(format!(
            "d100 {} not covered by any entry: the ranges must cover 1-100 exactly once",
            if gap + 1 == end {
                format!("result {end} is")
            } else {
                format!("results {}-{end} are", gap + 1)
            }
        )));
    }
    Ok(entries.into_iter().map(|(e, _)| e).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_table_is_valid() {
        let t = parse_file("injuries", crate::scenario::data::INJURY_TABLE_TOML).expect("valid");
        assert_eq!(t.entries.len(), 23);
    }

    #[test]
    fn a_broken_table_file_is_a_located_error() {
        let text = "injury_chance = 0.05\n[[entry]]\nid = \"a\"\nname = \"A\"\nd100 = [1, 50]\ncures = []\n";
        let e = parse_file("mine.toml", text).unwrap_err().to_string();
        assert_eq!(
            e,
            "mine.toml:2:1: field `entry`: d100 results 51-100 are not covered by any entry: the ranges must cover 1-100 exactly once"
        );
    }
}
