//! Creature tables as written in the bestiary and in combat scenarios, and
//! their validation into [`CreatureSpec`]s.
//!
//! An entry either starts from a base — `creature = "hobgoblin"` (the
//! bestiary) or `template = "fighter-5"` (the PC templates) — and overrides
//! fields one by one, or defines a creature from scratch (then `hp`, `ac`
//! and `attacks` are required).
//!
//! The keys of the SRD bestiary (`tools/srd/README.md`, "The schema") that
//! the round loop does not use — `slug`, `srd`, `type`, `cr`, `xp`,
//! `proficiency_bonus`, `speed`, `condition_immune`, `not_modelled` — are
//! validated and carried as [`Lore`] for `woundsim show`; the loop has no
//! positions and no conditions a monster could be immune to. `xp` also
//! counts towards an encounter's XP ([`RawCreature::xp`]: a scenario
//! entry's own `xp`, else its bestiary monster's).

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use crate::combat::bestiary::{Bestiary, Lore, Monster, Speed, Unresolved, hyphenated};
use crate::combat::creature::{
    Ability, Attack, Breath, CreatureSpec, Heal, HealTarget, OncePerTurn, POTIONS, Rage, Reach,
    Regeneration, Rider,
};
use crate::combat::templates::Templates;
use crate::rules::damage::{DamageType, DamageTypes, Size};
use crate::scenario::limits::{MAX_CREATURE_ATTACKS, MAX_LABEL_CHARS};
use crate::scenario::values::{self, at, at_most, dice, opt_at, text};
use crate::scenario::{Locator, ScenarioError};

/// Saving-throw modifiers as written (`saves = { str = 1, dex = 2 }`).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSaves {
    str: Option<Spanned<i64>>,
    dex: Option<Spanned<i64>>,
    con: Option<Spanned<i64>>,
    int: Option<Spanned<i64>>,
    wis: Option<Spanned<i64>>,
    cha: Option<Spanned<i64>>,
}

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
    to_hit: Spanned<i64>,
    damage: Spanned<String>,
    #[serde(rename = "type")]
    kind: DamageType,
    #[serde(default = "melee")]
    reach: Reach,
    #[serde(default)]
    two_handed: bool,
    rider: Option<Spanned<RawRider>>,
    #[serde(default)]
    spell: bool,
}

fn melee() -> Reach {
    Reach::Melee
}

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

/// Speeds as written (`speed = { walk = 30, fly = 60 }`), feet.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSpeed {
    walk: Option<Spanned<i64>>,
    fly: Option<Spanned<i64>>,
    swim: Option<Spanned<i64>>,
    climb: Option<Spanned<i64>>,
    burrow: Option<Spanned<i64>>,
    #[serde(default)]
    hover: bool,
}

/// The SRD version of a statblock.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
pub enum SrdVersion {
    /// SRD 5.1.
    #[serde(rename = "5.1")]
    V51,
    /// SRD 5.2.
    #[serde(rename = "5.2")]
    V52,
}

/// A creature type, as the SRD names them.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum CreatureType {
    Aberration,
    Beast,
    Celestial,
    Construct,
    Dragon,
    Elemental,
    Fey,
    Fiend,
    Giant,
    Humanoid,
    Monstrosity,
    Ooze,
    Plant,
    Undead,
}

/// A condition a creature can be immune to (SRD words).
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum Condition {
    Blinded,
    Charmed,
    Deafened,
    Exhaustion,
    Frightened,
    Grappled,
    Incapacitated,
    Invisible,
    Paralyzed,
    Petrified,
    Poisoned,
    Prone,
    Restrained,
    Stunned,
    Unconscious,
}

/// Challenge ratings as the SRD writes them.
const CHALLENGE_RATINGS: [&str; 34] = [
    "0", "1/8", "1/4", "1/2", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13",
    "14", "15", "16", "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28", "29",
    "30",
];

/// The most XP an entry may be worth (the SRD's highest is 155,000, CR 30).
const MAX_XP: i64 = 1_000_000;

/// Most `not_modelled` items of one entry, and most characters of one.
const MAX_NOT_MODELLED: usize = 64;
const MAX_NOT_MODELLED_CHARS: usize = 200;

/// Rage, as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRage {
    damage_bonus: Spanned<i64>,
    uses: Spanned<i64>,
}

/// A creature entry of a bestiary or a `party` / `monsters` list.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCreature {
    creature: Option<Spanned<String>>,
    template: Option<Spanned<String>>,
    count: Option<Spanned<i64>>,
    name: Option<Spanned<String>>,
    is_pc: Option<bool>,
    level: Option<Spanned<i64>>,
    size: Option<Size>,
    hp: Option<Spanned<i64>>,
    start_hp: Option<Spanned<i64>>,
    ac: Option<Spanned<i64>>,
    initiative: Option<Spanned<i64>>,
    saves: Option<RawSaves>,
    medicine: Option<Spanned<i64>>,
    resistant: Option<Vec<DamageType>>,
    immune: Option<Vec<DamageType>>,
    vulnerable: Option<Vec<DamageType>>,
    attacks: Option<Spanned<Vec<Spanned<RawAttack>>>>,
    multiattack: Option<Spanned<Vec<Spanned<String>>>>,
    crit_range: Option<Spanned<i64>>,
    once_per_turn: Option<Spanned<RawOnce>>,
    heal: Option<Spanned<RawHeal>>,
    /// A count of potions of healing, or `{ healing = 2, greater_healing = 1 }`.
    potions: Option<Spanned<RawPotions>>,
    /// Spells it casts in a fight, by name (`SPELLS` with a use in a fight).
    spells: Option<Spanned<Vec<Spanned<String>>>>,
    /// Its spell slots of 1st, 2nd, ... level (a caster template has its own).
    spell_slots: Option<Spanned<Vec<Spanned<i64>>>>,
    /// Its spellcasting ability modifier (a template has its own).
    spellcasting_modifier: Option<Spanned<i64>>,
    /// 300 gp diamonds carried for *revivify*.
    diamonds: Option<Spanned<i64>>,
    breath: Option<Spanned<RawBreath>>,
    regeneration: Option<Spanned<RawRegen>>,
    rage: Option<Spanned<RawRage>>,
    reckless: Option<bool>,
    slug: Option<Spanned<String>>,
    srd: Option<SrdVersion>,
    #[serde(rename = "type")]
    kind: Option<CreatureType>,
    cr: Option<Spanned<String>>,
    xp: Option<Spanned<i64>>,
    proficiency_bonus: Option<Spanned<i64>>,
    speed: Option<RawSpeed>,
    /// The line it starts in with positions.
    line: Option<crate::combat::creature::Line>,
    condition_immune: Option<Vec<Condition>>,
    not_modelled: Option<Spanned<Vec<Spanned<String>>>>,
}

/// The keys of `saves = { ... }`, in ability order.
const SAVE_KEYS: [&str; 6] = ["str", "dex", "con", "int", "wis", "cha"];

fn ranged(
    loc: &Locator,
    v: &Spanned<i64>,
    field: &str,
    range: std::ops::RangeInclusive<i64>,
) -> Result<i32, ScenarioError> {
    Ok(values::keyed_int(Some(at(loc, v, field)), range, 0)? as i32)
}

/// The bestiary entry `name` (written at `name` in `loc`, field `field`)
/// means, or the located "unknown monster" error with the nearest names.
pub fn monster<'b>(
    bestiary: &'b Bestiary,
    loc: &Locator,
    name: &Spanned<String>,
    field: &str,
) -> Result<&'b Monster, ScenarioError> {
    bestiary.resolve(name.get_ref()).map_err(|miss| {
        loc.error(
            name.span().start,
            field,
            unknown_monster(name.get_ref(), miss, bestiary),
        )
    })
}

impl RawCreature {
    /// The XP the entry is worth (encounter difficulty): its own `xp`, else
    /// that of the bestiary monster it starts from; `None` for an entry
    /// from a template or from scratch without `xp`.
    pub fn xp(
        &self,
        loc: &Locator,
        path: &str,
        bestiary: &Bestiary,
    ) -> Result<Option<u64>, ScenarioError> {
        if let Some(v) = &self.xp {
            return Ok(Some(
                ranged(loc, v, &format!("{path}.xp"), 0..=MAX_XP)? as u64
            ));
        }
        match &self.creature {
            Some(c) => Ok(monster(bestiary, loc, c, &format!("{path}.creature"))?
                .lore
                .xp
                .map(u64::from)),
            None => Ok(None),
        }
    }

    /// Whether the entry says its character level: a `template` or a
    /// `level` key (a bestiary monster or a creature from scratch has none
    /// of its own, whatever the round loop assumes).
    pub fn states_level(&self) -> bool {
        self.template.is_some() || self.level.is_some()
    }

    /// How many copies of this creature the entry adds (default 1).
    pub fn count(&self, loc: &Locator, path: &str) -> Result<usize, ScenarioError> {
        match &self.count {
            None => Ok(1),
            Some(c) => Ok(ranged(loc, c, &format!("{path}.count"), 1..=50)? as usize),
        }
    }

    /// Validates the entry into a creature (`party`: PCs by default);
    /// `creature = "..."` names a monster of `bestiary`.
    pub fn build(
        &self,
        loc: &Locator,
        path: &str,
        party: bool,
        bestiary: &Bestiary,
        templates: &Templates,
    ) -> Result<CreatureSpec, ScenarioError> {
        let at = |key: &str| format!("{path}.{key}");
        let mut spec = match (&self.template, &self.creature) {
            (Some(_), Some(c)) => {
                return Err(loc.error(
                    c.span().start,
                    &at("creature"),
                    "give either `template` or `creature`, not both",
                ));
            }
            (Some(t), None) => templates.template(t.get_ref()).ok_or_else(|| {
                loc.error(
                    t.span().start,
                    &at("template"),
                    super::templates::unknown(templates, t.get_ref()),
                )
            })?,
            (None, Some(c)) => monster(bestiary, loc, c, &at("creature"))?.spec.clone(),
            (None, None) => {
                let required = [
                    ("hp", self.hp.is_some()),
                    ("ac", self.ac.is_some()),
                    ("attacks", self.attacks.is_some()),
                ];
                if let Some((key, _)) = required.iter().find(|(_, present)| !present) {
                    let offset = self.name.as_ref().map_or(0, |n| n.span().start);
                    return Err(loc.error(
                        offset,
                        &at(key),
                        format!(
                            "a creature without `creature = ...` or `template = ...` needs `{key}`"
                        ),
                    ));
                }
                CreatureSpec::blank("", party, 1)
            }
        };
        if let Some(n) = opt_at(loc, &self.name, at("name")) {
            spec.name = text(&n, "a creature name", MAX_LABEL_CHARS)?.to_string();
        }
        if let Some(v) = self.is_pc {
            spec.is_pc = v;
        }
        if let Some(v) = &self.level {
            spec.level = ranged(loc, v, &at("level"), 1..=20)? as u8;
        }
        if let Some(v) = self.size {
            spec.size = v;
        }
        if let Some(v) = &self.hp {
            spec.max_hp = ranged(loc, v, &at("hp"), 1..=100_000)?;
        }
        if let Some(v) = &self.start_hp {
            let hp = ranged(loc, v, &at("start_hp"), 0..=100_000)?;
            if hp > spec.max_hp {
                return Err(loc.error(
                    v.span().start,
                    &at("start_hp"),
                    format!("start_hp {hp} is above the creature's hp {}", spec.max_hp),
                ));
            }
            spec.start_hp = Some(hp);
        }
        if let Some(v) = &self.ac {
            spec.ac = ranged(loc, v, &at("ac"), 0..=40)?;
        }
        if let Some(v) = &self.initiative {
            spec.initiative = ranged(loc, v, &at("initiative"), -10..=20)?;
        }
        if let Some(v) = &self.medicine {
            spec.medicine = ranged(loc, v, &at("medicine"), -10..=20)?;
        }
        if let Some(s) = &self.saves {
            let saves = [&s.str, &s.dex, &s.con, &s.int, &s.wis, &s.cha];
            for (i, (v, key)) in saves.into_iter().zip(SAVE_KEYS).enumerate() {
                if let Some(v) = v {
                    spec.saves[i] = ranged(loc, v, &at(&format!("saves.{key}")), -10..=30)?;
                }
            }
        }
        if let Some(v) = &self.resistant {
            spec.defenses.resistances = DamageTypes::of(v.iter().copied());
        }
        if let Some(v) = &self.immune {
            spec.defenses.immunities = DamageTypes::of(v.iter().copied());
        }
        if let Some(v) = &self.vulnerable {
            spec.defenses.vulnerabilities = DamageTypes::of(v.iter().copied());
        }
        if let Some(list) = &self.attacks {
            at_most(
                &values::at(loc, list, at("attacks")),
                "attacks",
                MAX_CREATURE_ATTACKS,
            )?;
            spec.attacks = list
                .get_ref()
                .iter()
                .enumerate()
                .map(|(i, a)| build_attack(loc, a.get_ref(), &format!("{path}.attacks[{i}]")))
                .collect::<Result<_, _>>()?;
            spec.multiattack = if spec.attacks.is_empty() {
                Vec::new()
            } else {
                vec![0]
            };
        }
        if let Some(names) = &self.multiattack {
            at_most(
                &values::at(loc, names, at("multiattack")),
                "attacks in a multiattack",
                MAX_CREATURE_ATTACKS,
            )?;
            spec.multiattack = names
                .get_ref()
                .iter()
                .enumerate()
                .map(|(i, n)| {
                    spec.attacks
                        .iter()
                        .position(|a| a.name == *n.get_ref())
                        .ok_or_else(|| {
                            loc.error(
                                n.span().start,
                                &format!("{path}.multiattack[{i}]"),
                                format!("`{}` is not one of this creature's attacks", n.get_ref()),
                            )
                        })
                })
                .collect::<Result<_, _>>()?;
        }
        if let Some(v) = &self.crit_range {
            spec.crit_range = ranged(loc, v, &at("crit_range"), 2..=20)? as u8;
        }
        if let Some(v) = &self.potions {
            spec.potions = potions(loc, v, &at("potions"))?;
        }
        self.spells_of(loc, path, &mut spec)?;
        if let Some(o) = &self.once_per_turn {
            let o = o.get_ref();
            spec.once_per_turn = Some(OncePerTurn {
                dice: dice(values::at(loc, &o.dice, at("once_per_turn.dice")))?,
                kind: o.kind,
                uses: o
                    .uses
                    .as_ref()
                    .map(|u| ranged(loc, u, &at("once_per_turn.uses"), 0..=100))
                    .transpose()?
                    .map(|u| u as u8),
            });
        }
        if let Some(h) = &self.heal {
            let h = h.get_ref();
            spec.heal = Some(Heal {
                dice: dice(values::at(loc, &h.dice, at("heal.dice")))?,
                uses: ranged(loc, &h.uses, &at("heal.uses"), 0..=100)? as u8,
                bonus_action: h.bonus_action,
                target: h.target,
                spell: h.spell,
                short_rest: h.short_rest,
            });
        }
        if let Some(b) = &self.breath {
            let b = b.get_ref();
            spec.breath = Some(Breath {
                dice: dice(values::at(loc, &b.dice, at("breath.dice")))?,
                kind: b.kind,
                save: (b.save, ranged(loc, &b.dc, &at("breath.dc"), 1..=30)?),
                recharge: ranged(loc, &b.recharge, &at("breath.recharge"), 1..=6)? as u8,
                targets: ranged(loc, &b.targets, &at("breath.targets"), 1..=20)? as u8,
            });
        }
        if let Some(r) = &self.regeneration {
            let r = r.get_ref();
            spec.regeneration = Some(Regeneration {
                hp: ranged(loc, &r.hp, &at("regeneration.hp"), 1..=1000)?,
                stopped_by: DamageTypes::of(r.stopped_by.iter().copied()),
                revives: r.revives,
            });
        }
        if let Some(r) = &self.rage {
            let r = r.get_ref();
            spec.rage = Some(Rage {
                damage_bonus: ranged(loc, &r.damage_bonus, &at("rage.damage_bonus"), 0..=10)?,
                uses: ranged(loc, &r.uses, &at("rage.uses"), 0..=20)? as u8,
            });
        }
        if let Some(v) = self.reckless {
            spec.reckless = v;
        }
        // Positions: it moves at its walking speed, or flies when faster.
        if let Some(s) = self.speeds(loc, path)? {
            spec.speed = s.walk.max(s.fly) as i32;
        }
        if let Some(line) = self.line {
            spec.line = Some(line);
        }
        if spec.name.is_empty() {
            spec.name = path.to_string();
        }
        Ok(spec)
    }
}

/// Most potions of one rarity a creature carries.
const MAX_POTIONS: i64 = 100;

/// `potions` as written: a count of potions of healing (any other value
/// than a table, judged by [`potions`]), or counts by rarity with the
/// places of their keys and values (a [`toml::Value`] has no places, so an
/// error names the key it is about).
#[derive(Debug)]
pub enum RawPotions {
    /// `potions = N`: potions of healing.
    Count(toml::Value),
    /// `potions = { healing = N, ... }`: each key with its count.
    ByRarity(Vec<(Spanned<String>, Spanned<toml::Value>)>),
}

impl<'de> Deserialize<'de> for RawPotions {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = RawPotions;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a number of potions, or a table of them by rarity")
            }
            fn visit_bool<E>(self, v: bool) -> Result<RawPotions, E> {
                Ok(RawPotions::Count(v.into()))
            }
            fn visit_i64<E>(self, v: i64) -> Result<RawPotions, E> {
                Ok(RawPotions::Count(v.into()))
            }
            fn visit_u64<E>(self, v: u64) -> Result<RawPotions, E> {
                Ok(RawPotions::Count(
                    i64::try_from(v).map_or_else(|_| (v as f64).into(), toml::Value::from),
                ))
            }
            fn visit_f64<E>(self, v: f64) -> Result<RawPotions, E> {
                Ok(RawPotions::Count(v.into()))
            }
            fn visit_str<E>(self, v: &str) -> Result<RawPotions, E> {
                Ok(RawPotions::Count(v.into()))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<RawPotions, A::Error> {
                let mut entries = Vec::new();
                // Every key of a TOML table has a place; only a date (a
                // map of one unplaced key inside the parser) has not.
                let not_a_table = |_| {
                    serde::de::Error::invalid_type(serde::de::Unexpected::Other("a date"), &Visitor)
                };
                while let Some(key) = map.next_key::<Spanned<String>>().map_err(not_a_table)? {
                    entries.push((key, map.next_value::<Spanned<toml::Value>>()?));
                }
                Ok(RawPotions::ByRarity(entries))
            }
        }
        d.deserialize_any(Visitor)
    }
}

/// `potions = N` (potions of healing) or `potions = { healing = N,
/// greater_healing = N, superior_healing = N, supreme_healing = N }`; an
/// error points at the bad key (`field.key`) or at its bad count.
pub(crate) fn potions(
    loc: &Locator,
    v: &Spanned<RawPotions>,
    field: &str,
) -> Result<crate::combat::creature::Potions, ScenarioError> {
    let count = |value: &toml::Value, at: usize, field: &str| -> Result<u8, ScenarioError> {
        match value.as_integer() {
            Some(n) if (0..=MAX_POTIONS).contains(&n) => Ok(n as u8),
            _ => Err(loc.error(
                at,
                field,
                format!("a number of potions from 0 to {MAX_POTIONS}, got {value}"),
            )),
        }
    };
    let mut out = [0; 4];
    match v.get_ref() {
        RawPotions::ByRarity(entries) => {
            let names: Vec<&str> = POTIONS.iter().map(|(n, _)| *n).collect();
            for (key, value) in entries {
                let field = format!("{field}.{}", key.get_ref());
                let Some(i) = names.iter().position(|n| n == key.get_ref()) else {
                    let hint = crate::scenario::wording::did_you_mean(key.get_ref(), &names);
                    return Err(loc.error(
                        key.span().start,
                        &field,
                        format!(
                            "unknown potion `{}`{hint}; potions are {}",
                            key.get_ref(),
                            names.join(", ")
                        ),
                    ));
                };
                out[i] = count(value.get_ref(), value.span().start, &field)?;
            }
        }
        RawPotions::Count(value) => out[0] = count(value, v.span().start, field)?,
    }
    Ok(out)
}

impl RawCreature {
    /// `spells`, `spell_slots`, `spellcasting_modifier` and `diamonds`
    /// into the creature's spellbook: a caster template brings its slots
    /// and modifier; each spell must have a use in a fight and a slot of
    /// its level.
    fn spells_of(
        &self,
        loc: &Locator,
        path: &str,
        spec: &mut CreatureSpec,
    ) -> Result<(), ScenarioError> {
        use crate::rules::healing::{SPELLS, spell_index};
        let at = |key: &str| format!("{path}.{key}");
        let given = self.spells.is_some()
            || self.spell_slots.is_some()
            || self.spellcasting_modifier.is_some()
            || self.diamonds.is_some();
        if !given {
            return Ok(());
        }
        let mut book = spec.spellbook.clone().unwrap_or_default();
        if let Some(list) = &self.spell_slots {
            at_most(&values::at(loc, list, at("spell_slots")), "slot levels", 9)?;
            book.slots = [0; 9];
            for (i, n) in list.get_ref().iter().enumerate() {
                book.slots[i] = ranged(loc, n, &format!("{path}.spell_slots[{i}]"), 0..=10)? as u8;
            }
        }
        if let Some(v) = &self.spellcasting_modifier {
            book.modifier = ranged(loc, v, &at("spellcasting_modifier"), -5..=10)?;
        }
        if let Some(v) = &self.diamonds {
            book.diamonds = ranged(loc, v, &at("diamonds"), 0..=100)? as u8;
        }
        let castable: Vec<&str> = SPELLS
            .iter()
            .filter(|s| s.in_fight.is_some())
            .map(|s| s.name)
            .collect();
        book.spells.clear();
        if let Some(list) = &self.spells {
            at_most(
                &values::at(loc, list, at("spells")),
                "spells",
                castable.len(),
            )?;
            for (i, name) in list.get_ref().iter().enumerate() {
                let field = format!("{path}.spells[{i}]");
                let wanted = name.get_ref().replace('-', "_");
                let index = spell_index(&wanted).filter(|&k| SPELLS[k].in_fight.is_some());
                let Some(index) = index else {
                    let hint = crate::scenario::wording::did_you_mean(&wanted, &castable);
                    return Err(loc.error(
                        name.span().start,
                        &field,
                        format!(
                            "unknown spell `{}`{hint}; spells cast in a fight: {}",
                            name.get_ref(),
                            castable.join(", ")
                        ),
                    ));
                };
                let level = SPELLS[index].level;
                if level > book.highest_slot() {
                    let has = match book.highest_slot() {
                        0 => "no spell slots".to_string(),
                        n => format!("spell slots up to level {n}"),
                    };
                    return Err(loc.error(
                        name.span().start,
                        &field,
                        format!(
                            "`{}` is a level-{level} spell, but `{}` has {has} (a higher-level caster, or `spell_slots`)",
                            SPELLS[index].name, spec.name
                        ),
                    ));
                }
                if book.spells.contains(&index) {
                    return Err(loc.error(
                        name.span().start,
                        &field,
                        format!("`{}` is listed twice", SPELLS[index].name),
                    ));
                }
                book.spells.push(index);
            }
            // The spells replace a spell-slot healing feature (healing word
            // of a template), which would spend the same slots.
            if spec.heal.is_some_and(|h| h.spell) {
                spec.heal = None;
            }
        }
        spec.spellbook = Some(book);
        Ok(())
    }
}

/// The message for a `creature = NAME` the bestiary cannot resolve.
fn unknown_monster(name: &str, miss: Unresolved, bestiary: &Bestiary) -> String {
    let entries = bestiary.names().len();
    let quote = |names: &[String]| {
        names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match miss {
        Unresolved::Ambiguous(names) => format!(
            "monster `{name}` could be any of {}: write its exact name",
            quote(&names)
        ),
        Unresolved::Unknown => {
            let near = nearest_monsters(bestiary, name);
            let hint = match near.len() {
                0 => String::new(),
                1 => format!(" (did you mean `{}`?)", near[0]),
                _ => format!(" (did you mean one of {}?)", quote(&near)),
            };
            format!(
                "unknown monster `{name}`{hint}; names are SRD 5.2 slugs such as `adult-red-dragon`, the SRD 5.1 names of data/bestiary.toml, or your `bestiary` files' (`woundsim list` shows all {entries})"
            )
        }
    }
}

/// How many names a miss suggests at most.
const MAX_SUGGESTIONS: usize = 5;

/// The bestiary names nearest to `name`: the nearest by edit distance
/// ([`crate::scenario::wording::nearest`]), else (up to five) those that
/// contain its lower-case, hyphenated form.
pub fn nearest_monsters(bestiary: &Bestiary, name: &str) -> Vec<String> {
    let form = hyphenated(&name.trim().to_lowercase());
    let names = bestiary.names();
    if let Some(n) = crate::scenario::wording::nearest(&form, &names) {
        return vec![n.to_string()];
    }
    if form.chars().count() < 3 {
        return Vec::new();
    }
    names
        .iter()
        .filter(|n| n.contains(form.as_str()))
        .take(MAX_SUGGESTIONS)
        .map(|n| n.to_string())
        .collect()
}

impl RawCreature {
    /// Its `speed = { walk = ..., fly = ... }`, validated.
    fn speeds(&self, loc: &Locator, path: &str) -> Result<Option<Speed>, ScenarioError> {
        let Some(s) = &self.speed else {
            return Ok(None);
        };
        let feet = |v: &Option<Spanned<i64>>, key: &str| -> Result<u32, ScenarioError> {
            v.as_ref()
                .map_or(Ok(0), |v| {
                    ranged(loc, v, &format!("{path}.speed.{key}"), 0..=1000)
                })
                .map(|f| f as u32)
        };
        Ok(Some(Speed {
            walk: feet(&s.walk, "walk")?,
            fly: feet(&s.fly, "fly")?,
            swim: feet(&s.swim, "swim")?,
            climb: feet(&s.climb, "climb")?,
            burrow: feet(&s.burrow, "burrow")?,
            hover: s.hover,
        }))
    }

    /// What the entry says beyond what a fight uses, validated.
    pub fn lore(&self, loc: &Locator, path: &str) -> Result<Lore, ScenarioError> {
        let at = |key: &str| format!("{path}.{key}");
        let cr = match &self.cr {
            None => None,
            Some(cr) if CHALLENGE_RATINGS.contains(&cr.get_ref().as_str()) => {
                Some(cr.get_ref().clone())
            }
            Some(cr) => {
                return Err(loc.error(
                    cr.span().start,
                    &at("cr"),
                    format!(
                        "`{}` is no challenge rating: one of \"0\", \"1/8\", \"1/4\", \"1/2\", \"1\" ... \"30\" (a string)",
                        cr.get_ref()
                    ),
                ));
            }
        };
        let speed = self.speeds(loc, path)?;
        let not_modelled = match &self.not_modelled {
            None => Vec::new(),
            Some(list) => {
                at_most(
                    &values::at(loc, list, at("not_modelled")),
                    "`not_modelled` items",
                    MAX_NOT_MODELLED,
                )?;
                list.get_ref()
                    .iter()
                    .enumerate()
                    .map(|(i, n)| {
                        text(
                            &values::at(loc, n, format!("{path}.not_modelled[{i}]")),
                            "a `not_modelled` item",
                            MAX_NOT_MODELLED_CHARS,
                        )
                        .map(str::to_string)
                    })
                    .collect::<Result<_, _>>()?
            }
        };
        if let Some(slug) = &self.slug {
            let s = slug.get_ref();
            let valid = !s.is_empty()
                && s.split('-').all(|part| {
                    !part.is_empty()
                        && part
                            .chars()
                            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
                });
            if !valid {
                return Err(loc.error(
                    slug.span().start,
                    &at("slug"),
                    format!(
                        "`{s}` is no slug: lower-case letters and digits in words joined by `-`"
                    ),
                ));
            }
        }
        Ok(Lore {
            srd: self.srd.map(|v| match v {
                SrdVersion::V51 => "5.1".to_string(),
                SrdVersion::V52 => "5.2".to_string(),
            }),
            slug: self.slug.as_ref().map(|s| s.get_ref().clone()),
            kind: self.kind.map(|k| format!("{k:?}").to_lowercase()),
            cr,
            xp: self
                .xp
                .as_ref()
                .map(|v| ranged(loc, v, &at("xp"), 0..=MAX_XP))
                .transpose()?
                .map(|v| v as u32),
            proficiency_bonus: self
                .proficiency_bonus
                .as_ref()
                .map(|v| ranged(loc, v, &at("proficiency_bonus"), 2..=9))
                .transpose()?
                .map(|v| v as u8),
            speed,
            condition_immunities: self
                .condition_immune
                .iter()
                .flatten()
                .map(|c| format!("{c:?}").to_lowercase())
                .collect(),
            not_modelled,
        })
    }
}

fn build_attack(loc: &Locator, a: &RawAttack, path: &str) -> Result<Attack, ScenarioError> {
    let rider = match &a.rider {
        None => None,
        Some(r) => {
            let r = r.get_ref();
            let save = match (r.save, &r.dc) {
                (Some(ability), Some(dc)) => Some((
                    ability,
                    ranged(loc, dc, &format!("{path}.rider.dc"), 1..=30)?,
                )),
                (None, None) => None,
                (_, Some(dc)) => {
                    return Err(loc.error(
                        dc.span().start,
                        &format!("{path}.rider.save"),
                        "a rider `dc` needs a `save` ability",
                    ));
                }
                (Some(_), None) => {
                    return Err(loc.error(
                        r.dice.span().start,
                        &format!("{path}.rider.dc"),
                        "a rider `save` needs a `dc`",
                    ));
                }
            };
            Some(Rider {
                dice: dice(at(loc, &r.dice, format!("{path}.rider.dice")))?,
                kind: r.kind,
                save,
                spreads: false,
            })
        }
    };
    Ok(Attack {
        name: text(
            &at(loc, &a.name, format!("{path}.name")),
            "an attack name",
            MAX_LABEL_CHARS,
        )?
        .to_string(),
        to_hit: ranged(loc, &a.to_hit, &format!("{path}.to_hit"), -10..=30)?,
        damage: dice(at(loc, &a.damage, format!("{path}.damage")))?,
        kind: a.kind,
        reach: a.reach,
        two_handed: a.two_handed,
        rider,
        spell: a.spell,
    })
}

/// Parses a bestiary file: one table per creature, keyed by its name
/// (an entry starts from a template or from scratch, not from another
/// monster; a `slug` must be its key).
pub fn parse_bestiary(
    file: &str,
    text: &str,
    templates: &Templates,
) -> Result<Bestiary, ScenarioError> {
    let loc = Locator { file, text };
    let raw: BTreeMap<String, RawCreature> = crate::scenario::deserialize(&loc, text)?;
    let none = Bestiary::default();
    let monsters = raw
        .iter()
        .map(|(key, c)| {
            if key.is_empty() || key.chars().count() > MAX_LABEL_CHARS || key.chars().any(char::is_control) {
                return Err(loc.error(
                    text.find(key.as_str()).unwrap_or(0),
                    key,
                    format!("a monster name must be 1 to {MAX_LABEL_CHARS} characters, without control characters"),
                ));
            }
            if let Some(base) = &c.creature {
                return Err(loc.error(
                    base.span().start,
                    &format!("{key}.creature"),
                    "a bestiary entry cannot start from another monster: copy its keys, or start from a `template`",
                ));
            }
            let mut spec = c.build(&loc, key, false, &none, templates)?;
            if c.name.is_none() {
                spec.name = key.clone();
            }
            let lore = c.lore(&loc, key)?;
            if let Some(slug) = c.slug.as_ref().filter(|s| s.get_ref() != key) {
                return Err(loc.error(
                    slug.span().start,
                    &format!("{key}.slug"),
                    format!("the slug `{}` is not the entry's name `{key}`", slug.get_ref()),
                ));
            }
            Ok(Monster {
                key: key.clone(),
                spec,
                lore,
            })
        })
        .collect::<Result<Vec<_>, ScenarioError>>()?;
    Ok(Bestiary::of(monsters))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn templates() -> Templates {
        crate::scenario::data::templates::parse_file("t", crate::scenario::data::PC_TEMPLATES_TOML)
            .unwrap()
    }

    fn bestiary() -> Bestiary {
        parse_bestiary(
            "bestiary",
            crate::scenario::data::BESTIARY_TOML,
            &templates(),
        )
        .unwrap()
    }

    #[test]
    fn the_shipped_bestiary_parses_and_has_the_srd_monsters() {
        let bestiary = bestiary();
        for name in [
            "goblin",
            "kobold",
            "wolf",
            "orc",
            "hobgoblin",
            "bugbear",
            "gnoll",
            "ogre",
            "owlbear",
            "troll",
            "young_red_dragon",
            "wyvern",
        ] {
            let m = bestiary.lookup(name).unwrap_or_else(|| panic!("{name}"));
            assert!(!m.is_pc && m.max_hp > 0 && !m.attacks.is_empty(), "{name}");
        }
    }

    #[test]
    fn srd_values_are_transcribed() {
        let bestiary = bestiary();
        let hob = bestiary.lookup("hobgoblin").unwrap();
        assert_eq!((hob.max_hp, hob.ac, hob.attacks[0].to_hit), (11, 18, 3));
        let troll = bestiary.lookup("troll").unwrap();
        assert_eq!(troll.multiattack.len(), 3);
        assert!(troll.regeneration.is_some());
        let dragon = bestiary.lookup("young_red_dragon").unwrap();
        assert_eq!(dragon.breath.unwrap().dice.count, 16);
        assert!(dragon.defenses.immunities.has(DamageType::Fire));
        let wyvern = bestiary.lookup("wyvern").unwrap();
        assert_eq!(wyvern.attacks[1].rider.unwrap().dice.count, 7);
    }

    fn srd() -> Bestiary {
        parse_bestiary(
            "srd",
            crate::scenario::data::SRD_BESTIARY_TOML,
            &templates(),
        )
        .unwrap()
    }

    #[test]
    fn every_srd_52_entry_parses_with_its_lore() {
        let srd = srd();
        assert_eq!(srd.names().len(), 330);
        for m in srd.monsters() {
            let l = &m.lore;
            assert_eq!(l.slug.as_deref(), Some(m.key.as_str()));
            assert_eq!(l.srd.as_deref(), Some("5.2"), "{}", m.key);
            assert!(
                l.kind.is_some() && l.cr.is_some() && l.xp.is_some(),
                "{}",
                m.key
            );
            assert!(
                l.proficiency_bonus.is_some() && l.speed.is_some(),
                "{}",
                m.key
            );
            assert_eq!(m.spec.name, m.key);
        }
        let dragon = srd.entry("adult-red-dragon").unwrap();
        assert_eq!((dragon.spec.max_hp, dragon.spec.ac), (256, 19));
        assert_eq!(dragon.lore.cr.as_deref(), Some("17"));
        assert_eq!(
            (dragon.lore.xp, dragon.lore.proficiency_bonus),
            (Some(18000), Some(6))
        );
        assert_eq!(dragon.lore.speed.unwrap().fly, 80);
        assert_eq!(dragon.lore.not_modelled[0], "Legendary Resistance (3/Day)");
        assert_eq!(dragon.spec.breath.unwrap().targets, 6);
        let oni = srd.entry("oni").unwrap();
        assert!(!oni.spec.regeneration.unwrap().revives);
        assert!(
            srd.entry("troll")
                .unwrap()
                .spec
                .regeneration
                .unwrap()
                .revives
        );
        let ghoul = srd.entry("ghoul").unwrap();
        assert!(
            ghoul
                .lore
                .condition_immunities
                .contains(&"charmed".to_string())
        );
    }

    #[test]
    fn a_miss_names_the_nearest_entries() {
        let b = Bestiary::of(
            ["adult-red-dragon", "young-red-dragon", "goblin"]
                .map(|k| Monster {
                    key: k.to_string(),
                    spec: crate::combat::creature::CreatureSpec::blank(k, false, 0),
                    lore: Lore::default(),
                })
                .to_vec(),
        );
        assert_eq!(
            nearest_monsters(&b, "adult red dragn"),
            ["adult-red-dragon"]
        );
        assert_eq!(
            nearest_monsters(&b, "Red Dragon"),
            ["adult-red-dragon", "young-red-dragon"]
        );
        assert!(nearest_monsters(&b, "lich").is_empty());
    }

    #[test]
    fn regeneration_revives_unless_told_otherwise() {
        let b = parse_bestiary(
            "mine.toml",
            "[a]\nhp = 5\nac = 10\nattacks = []\nregeneration = { hp = 3 }\n[b]\nhp = 5\nac = 10\nattacks = []\nregeneration = { hp = 3, revives = false }\n",
            &templates(),
        )
        .unwrap();
        assert!(b.lookup("a").unwrap().regeneration.unwrap().revives);
        assert!(!b.lookup("b").unwrap().regeneration.unwrap().revives);
    }

    #[test]
    fn lore_keys_are_validated_where_written() {
        let err = |text: &str| {
            parse_bestiary("mine.toml", text, &templates())
                .unwrap_err()
                .to_string()
        };
        let base = "hp = 5\nac = 10\nattacks = []\n";
        assert_eq!(
            err(&format!("[imp]\n{base}slug = \"devil\"\n")),
            "mine.toml:5:8: field `imp.slug`: the slug `devil` is not the entry's name `imp`"
        );
        assert_eq!(
            err(&format!("[imp]\n{base}cr = \"1/3\"\n")),
            "mine.toml:5:6: field `imp.cr`: `1/3` is no challenge rating: one of \"0\", \"1/8\", \"1/4\", \"1/2\", \"1\" ... \"30\" (a string)"
        );
        assert!(
            err(&format!("[imp]\n{base}condition_immune = [\"sleepy\"]\n"))
                .starts_with("mine.toml:5:")
        );
        assert!(
            err(&format!("[imp]\n{base}speed = {{ walk = -5 }}\n"))
                .contains("field `imp.speed.walk`")
        );
        assert!(err(&format!("[imp]\n{base}srd = \"5.0\"\n")).contains("field `imp.srd`"));
        assert!(
            err("[imp]\ncreature = \"goblin\"\n").contains(
                "field `imp.creature`: a bestiary entry cannot start from another monster"
            )
        );
    }

    #[test]
    fn a_broken_bestiary_is_a_located_error() {
        let e = parse_bestiary(
            "mine.toml",
            "[ogre]\nhp = 0\nac = 11\nattacks = []\n",
            &templates(),
        )
        .unwrap_err()
        .to_string();
        assert_eq!(
            e,
            "mine.toml:2:6: field `ogre.hp`: hp must be between 1 and 100000, got 0"
        );
    }
}
