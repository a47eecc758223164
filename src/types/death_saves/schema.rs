//! Schema of `type = "death_saves"` scenarios (docs/rules.md, death saves, §2).
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

use crate::dice::RollMode;
use crate::model::Catalog;
use crate::rules::death_saves::{DeathSaveRules, Tally};
use crate::rules::permanent_wounds::{Severity, WoundPolicy};
use crate::scenario::ScenarioError;
use crate::scenario::groups::existing_wounds;
use crate::scenario::layers::{Layers, get};
use crate::scenario::values::{int, or};

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

crate::scenario::impl_named!(RawSettings);

/// Validates one variant's settings; what no table gives is the rules as
/// written ([`DeathSaveRules::default`]).
pub fn build(l: &Layers<RawSettings>, _: &Catalog) -> Result<DeathSaveRules, ScenarioError> {
    let d = DeathSaveRules::default();
    let dc = int(get!(l, dc), 1..=30, "the save DC", d.dc.into())?;
    let bonus = int(
        get!(l, save_bonus),
        -20..=20,
        "save_bonus",
        d.save_bonus.into(),
    )?;
    let successes = int(
        get!(l, start_successes),
        0..=2,
        "start_successes",
        d.start.successes.into(),
    )?;
    let failures = int(
        get!(l, start_failures),
        0..=2,
        "start_failures",
        d.start.failures.into(),
    )?;
    Ok(DeathSaveRules {
        dc: dc as u8,
        save_bonus: bonus as i8,
        roll: or(get!(l, roll), d.roll),
        start: Tally {
            successes: successes as u8,
            failures: failures as u8,
        },
        wound_policy: or(get!(l, wound_policy), d.wound_policy),
        existing_wounds: existing_wounds(get!(l, existing_wounds))?,
    })
}
