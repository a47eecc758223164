//! An attack as written in a creature entry (`attacks = [{ name, to_hit,
//! damage, type, ... }]`), with its optional rider, validated into an
//! [`Attack`]: each raw table turns itself into its value, so an attack
//! is its keys' checks and nothing else.

use serde::Deserialize;
use toml::Spanned;

use crate::combat::creature::{
    Ability, Attack, AttackSave, BloodiedDamage, BloodiedWho, Charge, Grapple, HitCondition, Reach,
    Rider,
};
use crate::combat::spell::Condition;
use crate::rules::damage::DamageType;
use crate::scenario::limits::MAX_LABEL_CHARS;
use crate::scenario::values::{at, dice, text};
use crate::scenario::{Locator, ScenarioError};

use super::ranged;

/// Extra damage on a hit, as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRider {
    dice: Spanned<String>,
    #[serde(rename = "type")]
    kind: DamageType,
    save: Option<Ability>,
    dc: Option<Spanned<i64>>,
}

/// One attack, as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawAttack {
    name: Spanned<String>,
    to_hit: Option<Spanned<i64>>,
    /// Resolved by a saving throw instead of an attack roll.
    save: Option<Spanned<RawAttackSave>>,
    damage: Spanned<String>,
    #[serde(rename = "type")]
    kind: DamageType,
    #[serde(default = "melee")]
    reach: Reach,
    #[serde(default)]
    two_handed: bool,
    rider: Option<Spanned<RawRider>>,
    /// A hit knocks a target of this size or smaller prone.
    knocks_prone: Option<crate::rules::damage::Size>,
    /// A hit poisons the target until the end of the attacker's next turn.
    #[serde(default)]
    poisons_on_hit: bool,
    /// A hit's save against a condition until the end of the target's
    /// next turn.
    hit_condition: Option<Spanned<RawHitCondition>>,
    /// A hit grapples the target.
    grapples: Option<Spanned<RawGrapple>>,
    /// It can't target a creature its attacker grapples.
    #[serde(default)]
    spares_grappled: bool,
    /// A charge: more on a hit right after a move toward the target.
    charge: Option<Spanned<RawCharge>>,
    /// Advantage against a creature it grapples, or one that has lost hit
    /// points.
    advantage: Option<crate::combat::creature::AttackAdvantage>,
    /// Its damage when the attacker or the target is Bloodied.
    bloodied: Option<RawBloodied>,
    /// Extra damage on a hit whose roll had Advantage.
    advantage_damage: Option<RawExtraDamage>,
    #[serde(default)]
    spell: bool,
}

/// Extra damage under a condition, as written: `{ dice = "1d4", type =
/// "slashing" }`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawExtraDamage {
    dice: Spanned<String>,
    #[serde(rename = "type")]
    kind: DamageType,
}

/// A hit's save against a condition, as written: `{ save = "con", dc =
/// 10, condition = "paralyzed" }` (until the end of the target's next
/// turn).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawHitCondition {
    save: Ability,
    dc: Spanned<i64>,
    condition: Spanned<String>,
}

impl RawHitCondition {
    /// The save at `path` (`....hit_condition`): a DC of 1 to 30 and a
    /// condition the round loop knows.
    fn build(&self, loc: &Locator, path: &str) -> Result<HitCondition, ScenarioError> {
        let name = self.condition.get_ref();
        let Some(condition) = Condition::parse(name) else {
            let known: Vec<&str> = Condition::ALL.iter().map(|c| c.name()).collect();
            return Err(loc.error(
                self.condition.span().start,
                &format!("{path}.condition"),
                format!("unknown condition `{name}` (one of: {})", known.join(", ")),
            ));
        };
        Ok(HitCondition {
            ability: self.save,
            dc: ranged(loc, &self.dc, &format!("{path}.dc"), 1..=30)?,
            condition,
        })
    }
}

/// An action resolved by a saving throw, as written: `{ ability = "str",
/// dc = 16, on_success = "none" | "half" }`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawAttackSave {
    ability: Ability,
    dc: Spanned<i64>,
    #[serde(default)]
    on_success: super::legendary::OnSuccess,
}

/// A charge, as written: `{ feet = 20, size = "large", damage = "1d6",
/// type = "bludgeoning", prone = true }` (damage and type together, or
/// neither; at least one of damage and prone).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCharge {
    feet: Spanned<i64>,
    size: crate::rules::damage::Size,
    damage: Option<Spanned<String>>,
    #[serde(rename = "type")]
    kind: Option<DamageType>,
    #[serde(default)]
    prone: bool,
}

impl RawCharge {
    /// The charge at `path` (`....charge`).
    fn build(&self, loc: &Locator, path: &str) -> Result<Charge, ScenarioError> {
        let feet = ranged(loc, &self.feet, &format!("{path}.feet"), 5..=120)?;
        let damage = match (&self.damage, self.kind) {
            (Some(d), Some(kind)) => Some((dice(at(loc, d, format!("{path}.damage")))?, kind)),
            (None, None) => None,
            _ => {
                return Err(loc.error(
                    self.feet.span().start,
                    path,
                    "a charge's extra damage needs both `damage` and `type`",
                ));
            }
        };
        if damage.is_none() && !self.prone {
            return Err(loc.error(
                self.feet.span().start,
                path,
                "a charge does something: extra `damage` (with its `type`), `prone = true`, or both",
            ));
        }
        Ok(Charge {
            feet,
            size: self.size,
            damage,
            prone: self.prone,
        })
    }
}

/// An attack's damage when a creature is Bloodied, as written: `{ damage
/// = "1d4", of = "attacker" | "target" }`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawBloodied {
    damage: Spanned<String>,
    of: BloodiedWho,
}

/// A hit's grapple, as written: `{ escape = 13, size = "large", restrains
/// = true, holds = 2 }`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawGrapple {
    escape: Spanned<i64>,
    size: crate::rules::damage::Size,
    #[serde(default)]
    restrains: bool,
    holds: Option<Spanned<i64>>,
}

fn melee() -> Reach {
    Reach::Melee
}

impl RawAttack {
    /// The attack at `path` (`....attacks[i]`): its rider first, then its
    /// name, to-hit bonus and damage dice.
    pub(super) fn build(&self, loc: &Locator, path: &str) -> Result<Attack, ScenarioError> {
        let rider = match &self.rider {
            None => None,
            Some(r) => Some(r.get_ref().build(loc, &format!("{path}.rider"))?),
        };
        Ok(Attack {
            name: text(
                &at(loc, &self.name, format!("{path}.name")),
                "an attack name",
                MAX_LABEL_CHARS,
            )?
            .to_string(),
            to_hit: match (&self.to_hit, &self.save) {
                (Some(v), None) => ranged(loc, v, &format!("{path}.to_hit"), -10..=30)?,
                (None, Some(_)) => 0,
                (Some(v), Some(_)) => {
                    return Err(loc.error(
                        v.span().start,
                        &format!("{path}.to_hit"),
                        "an attack has a `to_hit` or a `save`, not both",
                    ));
                }
                (None, None) => {
                    return Err(loc.error(
                        self.name.span().start,
                        &format!("{path}.to_hit"),
                        "an attack needs a `to_hit` (or a `save`)",
                    ));
                }
            },
            save: match &self.save {
                None => None,
                Some(s) => {
                    let s = s.get_ref();
                    Some(AttackSave {
                        ability: s.ability,
                        dc: ranged(loc, &s.dc, &format!("{path}.save.dc"), 1..=30)?,
                        half: s.on_success == super::legendary::OnSuccess::Half,
                    })
                }
            },
            damage: dice(at(loc, &self.damage, format!("{path}.damage")))?,
            kind: self.kind,
            reach: self.reach,
            two_handed: self.two_handed,
            rider,
            knocks_prone: self.knocks_prone,
            poisons_on_hit: self.poisons_on_hit,
            hit_condition: match &self.hit_condition {
                None => None,
                Some(h) => Some(h.get_ref().build(loc, &format!("{path}.hit_condition"))?),
            },
            grapples: match &self.grapples {
                None => None,
                Some(g) => Some(g.get_ref().build(loc, &format!("{path}.grapples"))?),
            },
            spares_grappled: self.spares_grappled,
            charge: match &self.charge {
                None => None,
                Some(c) => Some(c.get_ref().build(loc, &format!("{path}.charge"))?),
            },
            advantage: self.advantage,
            bloodied: match &self.bloodied {
                None => None,
                Some(b) => Some(BloodiedDamage {
                    damage: dice(at(loc, &b.damage, format!("{path}.bloodied.damage")))?,
                    of: b.of,
                }),
            },
            advantage_damage: match &self.advantage_damage {
                None => None,
                Some(x) => Some((
                    dice(at(loc, &x.dice, format!("{path}.advantage_damage.dice")))?,
                    x.kind,
                )),
            },
            spell: self.spell,
            ability: None,
        })
    }
}

impl RawGrapple {
    /// The grapple at `path` (`....grapples`): an escape DC of 1 to 30,
    /// holding 1 to 10 creatures (1 when not given).
    fn build(&self, loc: &Locator, path: &str) -> Result<Grapple, ScenarioError> {
        Ok(Grapple {
            escape: ranged(loc, &self.escape, &format!("{path}.escape"), 1..=30)?,
            size: self.size,
            restrains: self.restrains,
            holds: match &self.holds {
                None => 1,
                Some(h) => ranged(loc, h, &format!("{path}.holds"), 1..=10)? as u8,
            },
        })
    }
}

impl RawRider {
    /// The rider at `path` (`....rider`): a saving throw needs both `save`
    /// and `dc`, or neither.
    fn build(&self, loc: &Locator, path: &str) -> Result<Rider, ScenarioError> {
        let save = match (self.save, &self.dc) {
            (Some(ability), Some(dc)) => {
                Some((ability, ranged(loc, dc, &format!("{path}.dc"), 1..=30)?))
            }
            (None, None) => None,
            (_, Some(dc)) => {
                return Err(loc.error(
                    dc.span().start,
                    &format!("{path}.save"),
                    "a rider `dc` needs a `save` ability",
                ));
            }
            (Some(_), None) => {
                return Err(loc.error(
                    self.dice.span().start,
                    &format!("{path}.dc"),
                    "a rider `save` needs a `dc`",
                ));
            }
        };
        Ok(Rider {
            dice: dice(at(loc, &self.dice, format!("{path}.dice")))?,
            kind: self.kind,
            save,
            spreads: false,
        })
    }
}
