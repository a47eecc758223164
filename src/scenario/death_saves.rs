//! Schema of `type = "death_saves"` scenarios (RULES.md §0, §2).
//!
//! ```toml
//! [options]                 # shared by all variants; each key optional
//! dc = 10                   # 1..=30
//! roll = "normal"           # normal | advantage | disadvantage
//! save_bonus = 0            # -20..=20, added to the d20
//! start_successes = 0       # 0..=2
//! start_failures = 0        # 0..=2
//! wound_policy = "never"    # never (RAW) | accept_least_severe
//! existing_wounds = []      # any of "minor", "moderate", "severe", once each
//! ```

use serde::Deserialize;
use toml::Spanned;

use super::values::int;
use super::{Locator, ScenarioError, pick};
use crate::dice::RollMode;
use crate::rules::death_saves::{DeathSaveRules, Tally};
use crate::rules::permanent_wounds::{Severity, WoundPolicy, WoundSlots};

/// The `type` value of this schema.
pub const TYPE_NAME: &str = "death_saves";

/// One `[options]` or `[[variant]]` table, as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSettings {
    name: Option<Spanned<String>>,
    description: Option<Spanned<String>>,
    dc: Option<Spanned<i64>>,
    roll: Option<Spanned<RollMode>>,
    save_bonus: Option<Spanned<i64>>,
    start_successes: Option<Spanned<i64>>,
    start_failures: Option<Spanned<i64>>,
    wound_policy: Option<Spanned<WoundPolicy>>,
    existing_wounds: Option<Spanned<Vec<Spanned<Severity>>>>,
}

super::impl_named!(RawSettings);

/// Validates one variant: `variant` overrides `base` key by key.
pub fn build(
    loc: &Locator,
    base: &RawSettings,
    variant: &RawSettings,
    path: &str,
) -> Result<DeathSaveRules, ScenarioError> {
    let raw = DeathSaveRules::default();
    let dc = int(
        loc,
        pick(&variant.dc, &base.dc, path, "dc"),
        1..=30,
        "the save DC",
        10,
    )?;
    let bonus = int(
        loc,
        pick(&variant.save_bonus, &base.save_bonus, path, "save_bonus"),
        -20..=20,
        "save_bonus",
        0,
    )?;
    let successes = int(
        loc,
        pick(
            &variant.start_successes,
            &base.start_successes,
            path,
            "start_successes",
        ),
        0..=2,
        "start_successes",
        0,
    )?;
    let failures = int(
        loc,
        pick(
            &variant.start_failures,
            &base.start_failures,
            path,
            "start_failures",
        ),
        0..=2,
        "start_failures",
        0,
    )?;
    let roll =
        pick(&variant.roll, &base.roll, path, "roll").map_or(raw.roll, |(r, _)| *r.get_ref());
    let wound_policy = pick(
        &variant.wound_policy,
        &base.wound_policy,
        path,
        "wound_policy",
    )
    .map_or(raw.wound_policy, |(p, _)| *p.get_ref());
    let mut existing = WoundSlots::EMPTY;
    if let Some((list, field)) = pick(
        &variant.existing_wounds,
        &base.existing_wounds,
        path,
        "existing_wounds",
    ) {
        for (i, wound) in list.get_ref().iter().enumerate() {
            let severity = *wound.get_ref();
            if existing.has(severity) {
                return Err(loc.error(
                    wound.span().start,
                    &format!("{field}[{i}]"),
                    format!(
                        "`{}` is listed twice: a PC carries at most one wound of each severity",
                        severity.name()
                    ),
                ));
            }
            existing = existing.with(severity);
        }
    }
    Ok(DeathSaveRules {
        dc: dc as u8,
        save_bonus: bonus as i8,
        roll,
        start: Tally {
            successes: successes as u8,
            failures: failures as u8,
        },
        wound_policy,
        existing_wounds: existing,
    })
}
