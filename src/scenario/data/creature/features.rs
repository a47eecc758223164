//! A creature entry's features beyond its attacks, as written — extra
//! damage once per turn, a healing feature, a breath weapon, regeneration
//! and rage — each validated into its value by its own `build`, with the
//! field path of the feature's table (`....heal.uses`).

use serde::Deserialize;
use toml::Spanned;

use crate::combat::creature::{Ability, Breath, Heal, HealTarget, OncePerTurn, Rage, Regeneration};
use crate::rules::damage::{DamageType, DamageTypes};
use crate::scenario::values::{at, dice};
use crate::scenario::{Locator, ScenarioError};

use super::ranged;

/// Once-per-turn extra damage, as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawOnce {
    dice: Spanned<String>,
    #[serde(rename = "type")]
    kind: DamageType,
    uses: Option<Spanned<i64>>,
}

/// A healing feature, as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawHeal {
    dice: Spanned<String>,
    uses: Spanned<i64>,
    #[serde(default)]
    bonus_action: bool,
    #[serde(default = "ally")]
    target: HealTarget,
    #[serde(default)]
    spell: bool,
    #[serde(default)]
    short_rest: bool,
}

fn ally() -> HealTarget {
    HealTarget::Ally
}

/// A breath weapon, as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawBreath {
    dice: Spanned<String>,
    #[serde(rename = "type")]
    kind: DamageType,
    save: Ability,
    dc: Spanned<i64>,
    recharge: Spanned<i64>,
    targets: Spanned<i64>,
}

/// Regeneration, as written (`revives` defaults to the troll's rule).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRegen {
    hp: Spanned<i64>,
    #[serde(default)]
    stopped_by: Vec<DamageType>,
    #[serde(default = "yes")]
    revives: bool,
}

fn yes() -> bool {
    true
}

/// Rage, as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRage {
    damage_bonus: Spanned<i64>,
    uses: Spanned<i64>,
}

impl RawOnce {
    /// The extra damage at `path` (`....once_per_turn`); no `uses` is
    /// every turn.
    pub(super) fn build(&self, loc: &Locator, path: &str) -> Result<OncePerTurn, ScenarioError> {
        Ok(OncePerTurn {
            dice: dice(at(loc, &self.dice, format!("{path}.dice")))?,
            kind: self.kind,
            uses: self
                .uses
                .as_ref()
                .map(|u| ranged(loc, u, &format!("{path}.uses"), 0..=100))
                .transpose()?
                .map(|u| u as u8),
        })
    }
}

impl RawHeal {
    /// The healing feature at `path` (`....heal`).
    pub(super) fn build(&self, loc: &Locator, path: &str) -> Result<Heal, ScenarioError> {
        Ok(Heal {
            dice: dice(at(loc, &self.dice, format!("{path}.dice")))?,
            uses: ranged(loc, &self.uses, &format!("{path}.uses"), 0..=100)? as u8,
            bonus_action: self.bonus_action,
            target: self.target,
            spell: self.spell,
            short_rest: self.short_rest,
        })
    }
}

impl RawBreath {
    /// The breath weapon at `path` (`....breath`).
    pub(super) fn build(&self, loc: &Locator, path: &str) -> Result<Breath, ScenarioError> {
        let field = |key: &str| format!("{path}.{key}");
        Ok(Breath {
            dice: dice(at(loc, &self.dice, field("dice")))?,
            kind: self.kind,
            save: (self.save, ranged(loc, &self.dc, &field("dc"), 1..=30)?),
            recharge: ranged(loc, &self.recharge, &field("recharge"), 1..=6)? as u8,
            targets: ranged(loc, &self.targets, &field("targets"), 1..=20)? as u8,
        })
    }
}

impl RawRegen {
    /// Regeneration at `path` (`....regeneration`).
    pub(super) fn build(&self, loc: &Locator, path: &str) -> Result<Regeneration, ScenarioError> {
        Ok(Regeneration {
            hp: ranged(loc, &self.hp, &format!("{path}.hp"), 1..=1000)?,
            stopped_by: DamageTypes::of(self.stopped_by.iter().copied()),
            revives: self.revives,
        })
    }
}

impl RawRage {
    /// Rage at `path` (`....rage`).
    pub(super) fn build(&self, loc: &Locator, path: &str) -> Result<Rage, ScenarioError> {
        Ok(Rage {
            damage_bonus: ranged(
                loc,
                &self.damage_bonus,
                &format!("{path}.damage_bonus"),
                0..=10,
            )?,
            uses: ranged(loc, &self.uses, &format!("{path}.uses"), 0..=20)? as u8,
        })
    }
}
