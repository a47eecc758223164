//! Parts of the `type = "amputation"` schema (RULES.md §3): the creature
//! and its limb, the cutters, the venom and the reattachment supplies, each
//! validated key by key with a variant's table overriding `[options]`.

use serde::Deserialize;
use toml::Spanned;

use super::{Locator, ScenarioError, pick};
use crate::dice::{DiceExpr, RollMode};
use crate::rules::amputation::{AtZeroHp, Creature, Cutter, Poison};
use crate::rules::limbs::{
    ArmorPiece, DamageModifiers, DamageType, DamageTypes, Limb, Size, table_limb_hp,
};

use super::limits::{MAX_ARMOR_PIECES, MAX_LABEL_CHARS};
pub use super::values::{Opt, Picked, dice, int, number};
use super::values::{at_most, opt_text};

/// A whole number or a dice expression (`3` or `"1d4+1"`), with its range.
pub fn dice_or_int(
    loc: &Locator,
    v: &Spanned<toml::Value>,
    field: &str,
    low: i64,
    high: i64,
    what: &str,
) -> Result<DiceExpr, ScenarioError> {
    let at = v.span().start;
    let expr = match v.get_ref() {
        toml::Value::Integer(i) if (low..=high).contains(i) => DiceExpr::constant(*i as i32),
        toml::Value::Integer(i) => {
            return Err(loc.error(
                at,
                field,
                format!("{what} must be between {low} and {high}, got {i}"),
            ));
        }
        toml::Value::String(s) => s
            .parse::<DiceExpr>()
            .map_err(|e| loc.error(at, field, e.to_string()))?,
        other => {
            return Err(loc.error(
                at,
                field,
                format!(
                    "{what} must be a whole number or a dice expression like \"1d4+1\", got {}",
                    other.type_str()
                ),
            ));
        }
    };
    if expr.min() < low || expr.max() > high {
        return Err(loc.error(
            at,
            field,
            format!(
                "{what} `{expr}` ranges {}..={}, outside {low}..={high}",
                expr.min(),
                expr.max()
            ),
        ));
    }
    Ok(expr)
}

fn types(list: Option<(&Spanned<Vec<DamageType>>, String)>) -> DamageTypes {
    list.map_or(DamageTypes::NONE, |(l, _)| {
        DamageTypes::of(l.get_ref().iter().copied())
    })
}

/// `[options.creature]`: the creature and the limb at stake.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCreature {
    size: Opt<Size>,
    limb: Opt<Limb>,
    head_amputable: Opt<bool>,
    arm_hp: Opt<i64>,
    leg_hp: Opt<i64>,
    head_hp: Opt<i64>,
    hp: Opt<i64>,
    max_hp: Opt<i64>,
    con_save: Opt<i64>,
    ac: Opt<i64>,
    resistances: Opt<Vec<DamageType>>,
    immunities: Opt<Vec<DamageType>>,
    vulnerabilities: Opt<Vec<DamageType>>,
    damage_reduction: Opt<i64>,
    at_zero_hp: Opt<AtZeroHp>,
    armor: Opt<Vec<RawArmor>>,
}

/// One armor piece and the limbs it covers.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawArmor {
    name: Opt<String>,
    covers: Spanned<Vec<Limb>>,
    ac_bonus: Opt<i64>,
    damage_reduction: Opt<i64>,
    resistances: Option<Vec<DamageType>>,
    immunities: Option<Vec<DamageType>>,
}

/// Largest limb HP a scenario may give.
pub const MAX_LIMB_HP: i64 = 10_000;

/// Validates the creature: `v` overrides `b` key by key.
pub fn creature(
    loc: &Locator,
    b: &RawCreature,
    v: &RawCreature,
    path: &str,
) -> Result<Creature, ScenarioError> {
    macro_rules! get {
        ($k:ident) => {
            pick(&v.$k, &b.$k, path, concat!("creature.", stringify!($k)))
        };
    }
    let size = get!(size).map_or(Size::Medium, |(s, _)| *s.get_ref());
    let limb_pick = get!(limb);
    let limb = limb_pick.as_ref().map_or(Limb::Arm, |(l, _)| *l.get_ref());
    let head_amputable = get!(head_amputable).is_some_and(|(h, _)| *h.get_ref());
    let arm = int(loc, get!(arm_hp), 1..=MAX_LIMB_HP, "limb HP", 0)?;
    let leg = int(loc, get!(leg_hp), 1..=MAX_LIMB_HP, "limb HP", 0)?;
    let head = int(loc, get!(head_hp), 1..=MAX_LIMB_HP, "limb HP", 0)?;
    let limb_hp = match limb {
        Limb::Head => {
            let (at, field) = limb_pick
                .as_ref()
                .map_or((0, format!("{path}.creature.limb")), |(l, f)| {
                    (l.span().start, f.clone())
                });
            if !head_amputable {
                return Err(loc.error(
                    at,
                    &field,
                    "the head is not an amputable limb unless the scenario says so: set `creature.head_amputable = true` and `creature.head_hp` (RULES.md §3)",
                ));
            }
            if head == 0 {
                return Err(loc.error(
                    at,
                    &field,
                    "an amputable head needs `creature.head_hp`: the size table has no head HP",
                ));
            }
            head
        }
        Limb::Arm if arm > 0 => arm,
        Limb::Leg if leg > 0 => leg,
        _ => i64::from(table_limb_hp(size, limb).unwrap_or(1)),
    } as u32;
    let hp = int(loc, get!(hp), 1..=1_000_000, "the creature's hp", 30)?;
    let max_hp = int(
        loc,
        get!(max_hp),
        hp..=1_000_000,
        "max_hp (at least hp)",
        hp,
    )?;
    let con_save = int(loc, get!(con_save), -10..=20, "con_save", 0)?;
    let ac = int(loc, get!(ac), 0..=40, "ac", 10)?;
    let reduction = int(loc, get!(damage_reduction), 0..=1000, "damage_reduction", 0)?;
    let modifiers = DamageModifiers {
        resistances: types(get!(resistances)),
        immunities: types(get!(immunities)),
        vulnerabilities: types(get!(vulnerabilities)),
        reduction: reduction as u32,
    };
    let mut armor = Vec::new();
    if let Some((list, field)) = get!(armor) {
        at_most(loc, list, &field, "armor pieces", MAX_ARMOR_PIECES)?;
        for (i, a) in list.get_ref().iter().enumerate() {
            let f = format!("{field}[{i}]");
            let name = opt_text(
                loc,
                a.name.as_ref(),
                &format!("{f}.name"),
                "an armor name",
                MAX_LABEL_CHARS,
            )?;
            if a.covers.get_ref().is_empty() {
                return Err(loc.error(
                    a.covers.span().start,
                    &format!("{f}.covers"),
                    "an armor piece must cover at least one limb (`arm`, `leg`, `head`)",
                ));
            }
            let ac_bonus = int(
                loc,
                a.ac_bonus.as_ref().map(|x| (x, format!("{f}.ac_bonus"))),
                0..=20,
                "ac_bonus",
                0,
            )?;
            let dr = int(
                loc,
                a.damage_reduction
                    .as_ref()
                    .map(|x| (x, format!("{f}.damage_reduction"))),
                0..=1000,
                "damage_reduction",
                0,
            )?;
            armor.push(ArmorPiece {
                name: if name.is_empty() {
                    format!("armor {}", i + 1)
                } else {
                    name.to_string()
                },
                covers: a.covers.get_ref().clone(),
                ac_bonus: ac_bonus as i32,
                modifiers: DamageModifiers {
                    resistances: DamageTypes::of(a.resistances.iter().flatten().copied()),
                    immunities: DamageTypes::of(a.immunities.iter().flatten().copied()),
                    vulnerabilities: DamageTypes::NONE,
                    reduction: dr as u32,
                },
            });
        }
    }
    Ok(Creature {
        size,
        limb,
        limb_hp,
        hp: hp as u32,
        max_hp: max_hp as u32,
        con_save: con_save as i32,
        ac: ac as i32,
        modifiers,
        armor,
        at_zero_hp: get!(at_zero_hp).map_or(AtZeroHp::Dies, |(a, _)| *a.get_ref()),
    })
}

/// One `cutters` entry.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCutter {
    name: Opt<String>,
    damage: Spanned<String>,
    damage_type: Spanned<DamageType>,
    attacks: Opt<i64>,
    attack_bonus: Opt<i64>,
    roll: Option<RollMode>,
    crit_on: Opt<i64>,
}

/// Most attack slots per round, all cutters together.
pub const MAX_ATTACKS_PER_ROUND: u32 = 20;

/// Validates the cutters list; returns each cutter with the span of its
/// damage type (for the scenario-level checks).
pub fn cutters(
    loc: &Locator,
    list: &Spanned<Vec<RawCutter>>,
    field: &str,
) -> Result<Vec<(Cutter, usize)>, ScenarioError> {
    if list.get_ref().is_empty() {
        return Err(loc.error(
            list.span().start,
            field,
            "give at least one cutter (weapon dice, damage type, attacks per round)",
        ));
    }
    let mut out = Vec::new();
    let mut slots = 0;
    for (i, c) in list.get_ref().iter().enumerate() {
        let f = format!("{field}[{i}]");
        let name = opt_text(
            loc,
            c.name.as_ref(),
            &format!("{f}.name"),
            "a cutter name",
            MAX_LABEL_CHARS,
        )?;
        let damage = dice(loc, &c.damage, &format!("{f}.damage"))?;
        let attacks = int(
            loc,
            c.attacks.as_ref().map(|x| (x, format!("{f}.attacks"))),
            1..=10,
            "attacks per round",
            1,
        )? as u32;
        slots += attacks;
        if slots > MAX_ATTACKS_PER_ROUND {
            let at = c
                .attacks
                .as_ref()
                .map_or(c.damage.span().start, |a| a.span().start);
            return Err(loc.error(
                at,
                &format!("{f}.attacks"),
                format!("at most {MAX_ATTACKS_PER_ROUND} attacks per round in all"),
            ));
        }
        let bonus = int(
            loc,
            c.attack_bonus
                .as_ref()
                .map(|x| (x, format!("{f}.attack_bonus"))),
            -20..=30,
            "attack_bonus",
            0,
        )?;
        let crit_on = int(
            loc,
            c.crit_on.as_ref().map(|x| (x, format!("{f}.crit_on"))),
            2..=20,
            "crit_on (lowest natural d20 that crits)",
            20,
        )?;
        out.push((
            Cutter {
                name: if name.is_empty() {
                    format!("cutter {}", i + 1)
                } else {
                    name.to_string()
                },
                damage,
                damage_type: *c.damage_type.get_ref(),
                attacks,
                attack_bonus: bonus as i32,
                roll: c.roll.unwrap_or_default(),
                crit_on: crit_on as u8,
            },
            c.damage_type.span().start,
        ));
    }
    Ok(out)
}

/// `[options.poison]`: what the venom does when it spreads.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPoison {
    damage: Opt<String>,
    damage_type: Opt<DamageType>,
    save_dc: Opt<i64>,
}

impl RawPoison {
    /// Whether the table sets anything.
    pub fn is_set(&self) -> bool {
        self.damage.is_some() || self.damage_type.is_some() || self.save_dc.is_some()
    }
}

/// Validates the venom.
pub fn poison(
    loc: &Locator,
    at: usize,
    b: &RawPoison,
    v: &RawPoison,
    path: &str,
) -> Result<Poison, ScenarioError> {
    let damage = match pick(&v.damage, &b.damage, path, "poison.damage") {
        Some((d, f)) => dice(loc, d, &f)?,
        None => {
            return Err(loc.error(
                at,
                &format!("{path}.poison.damage"),
                "a [poison] table needs `damage`, e.g. \"7d6\" for a wyvern's sting",
            ));
        }
    };
    let save = pick(&v.save_dc, &b.save_dc, path, "poison.save_dc");
    let save_dc = match save {
        Some(_) => Some(int(loc, save, 1..=30, "the save DC", 15)? as i32),
        None => None,
    };
    Ok(Poison {
        damage,
        damage_type: pick(&v.damage_type, &b.damage_type, path, "poison.damage_type")
            .map_or(DamageType::Poison, |(t, _)| *t.get_ref()),
        save_dc,
    })
}
