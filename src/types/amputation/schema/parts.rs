//! Parts of the `type = "amputation"` schema (docs/rules.md, limb damage): the creature
//! and its limb, the cutters, the venom and the reattachment supplies, each
//! validated key by key with a variant's table overriding `[options]`.

use serde::Deserialize;
use toml::Spanned;

use crate::dice::RollMode;
use crate::rules::amputation::{AtZeroHp, Creature, Cutter, Poison};
use crate::rules::limbs::{
    ArmorPiece, DamageModifiers, DamageType, DamageTypes, Limb, Size, table_limb_hp,
};
use crate::scenario::ScenarioError;
use crate::scenario::layers::{Layers, Setting, get};
use crate::scenario::limits::{MAX_ARMOR_PIECES, MAX_LABEL_CHARS};
use crate::scenario::values::{Opt, at_most, dice, int, opt_at, opt_text, or};

fn types(list: Option<Setting<'_, Vec<DamageType>>>) -> DamageTypes {
    list.map_or(DamageTypes::NONE, |l| {
        DamageTypes::of(l.get().iter().copied())
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

/// Validates the creature, key by key from the highest table that gives it.
pub fn creature(c: &Layers<RawCreature>) -> Result<Creature, ScenarioError> {
    let size = or(get!(c, size), Size::Medium);
    let limb_pick = get!(c, limb);
    let limb = or(limb_pick.clone(), Limb::Arm);
    let head_amputable = or(get!(c, head_amputable), false);
    let arm = int(get!(c, arm_hp), 1..=MAX_LIMB_HP, "limb HP", 0)?;
    let leg = int(get!(c, leg_hp), 1..=MAX_LIMB_HP, "limb HP", 0)?;
    let head = int(get!(c, head_hp), 1..=MAX_LIMB_HP, "limb HP", 0)?;
    let limb_hp = match limb {
        Limb::Head => {
            let error = |message: &str| match &limb_pick {
                Some(l) => l.error(message),
                None => c.error(0, "limb", message),
            };
            if !head_amputable {
                return Err(error(
                    "the head is not an amputable limb unless the scenario says so: set `creature.head_amputable = true` and `creature.head_hp` (docs/rules.md, limb damage)",
                ));
            }
            if head == 0 {
                return Err(error(
                    "an amputable head needs `creature.head_hp`: the size table has no head HP",
                ));
            }
            head
        }
        Limb::Arm if arm > 0 => arm,
        Limb::Leg if leg > 0 => leg,
        _ => i64::from(table_limb_hp(size, limb).unwrap_or(1)),
    } as u32;
    let hp = int(get!(c, hp), 1..=1_000_000, "the creature's hp", 30)?;
    let max_hp = int(get!(c, max_hp), hp..=1_000_000, "max_hp (at least hp)", hp)?;
    let con_save = int(get!(c, con_save), -10..=20, "con_save", 0)?;
    let ac = int(get!(c, ac), 0..=40, "ac", 10)?;
    let reduction = int(get!(c, damage_reduction), 0..=1000, "damage_reduction", 0)?;
    let modifiers = DamageModifiers {
        resistances: types(get!(c, resistances)),
        immunities: types(get!(c, immunities)),
        vulnerabilities: types(get!(c, vulnerabilities)),
        reduction: reduction as u32,
    };
    let mut armor = Vec::new();
    if let Some(list) = get!(c, armor) {
        at_most(&list, "armor pieces", MAX_ARMOR_PIECES)?;
        let loc = &list.loc;
        for (i, a) in list.get().iter().enumerate() {
            let f = format!("{}[{i}]", list.field);
            let name = opt_text(
                opt_at(loc, &a.name, format!("{f}.name")),
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
                opt_at(loc, &a.ac_bonus, format!("{f}.ac_bonus")),
                0..=20,
                "ac_bonus",
                0,
            )?;
            let dr = int(
                opt_at(loc, &a.damage_reduction, format!("{f}.damage_reduction")),
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
        at_zero_hp: or(get!(c, at_zero_hp), AtZeroHp::Dies),
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
pub fn cutters(list: &Setting<'_, Vec<RawCutter>>) -> Result<Vec<(Cutter, usize)>, ScenarioError> {
    if list.get().is_empty() {
        return Err(
            list.error("give at least one cutter (weapon dice, damage type, attacks per round)")
        );
    }
    let loc = &list.loc;
    let mut out = Vec::new();
    let mut slots = 0;
    for (i, c) in list.get().iter().enumerate() {
        let f = format!("{}[{i}]", list.field);
        let name = opt_text(
            opt_at(loc, &c.name, format!("{f}.name")),
            "a cutter name",
            MAX_LABEL_CHARS,
        )?;
        let damage = dice(Setting::new(*loc, &c.damage, format!("{f}.damage")))?;
        let attacks = int(
            opt_at(loc, &c.attacks, format!("{f}.attacks")),
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
            opt_at(loc, &c.attack_bonus, format!("{f}.attack_bonus")),
            -20..=30,
            "attack_bonus",
            0,
        )?;
        let crit_on = int(
            opt_at(loc, &c.crit_on, format!("{f}.crit_on")),
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

/// Validates the venom; `at` is the poison table to blame for a missing key.
pub fn poison(p: &Layers<RawPoison>, at: usize) -> Result<Poison, ScenarioError> {
    let damage = match get!(p, damage) {
        Some(d) => dice(d)?,
        None => {
            return Err(p.error(
                at,
                "damage",
                "a [poison] table needs `damage`, e.g. \"7d6\" for a wyvern's sting",
            ));
        }
    };
    let save_dc = match get!(p, save_dc) {
        Some(save) => Some(int(Some(save), 1..=30, "the save DC", 15)? as i32),
        None => None,
    };
    Ok(Poison {
        damage,
        damage_type: or(get!(p, damage_type), DamageType::Poison),
        save_dc,
    })
}
