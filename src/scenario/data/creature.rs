//! Creature tables as written in the bestiary and in combat scenarios, and
//! their validation into [`CreatureSpec`]s.
//!
//! An entry either starts from a base — `creature = "hobgoblin"` (the
//! bestiary) or `template = "fighter-5"` (the PC templates) — and overrides
//! fields one by one, or defines a creature from scratch (then `hp`, `ac`
//! and `attacks` are required). [`RawCreature::build`] validates the keys
//! group by group, each group a short function here or its raw tables'
//! own `build` in a file of this folder: [`attack`] (attacks and riders),
//! [`features`] (once-per-turn damage, healing, breath, regeneration,
//! rage), [`spells`] (the spellbook), [`potions`] (potions by rarity).
//!
//! The keys of the SRD bestiary (`tools/srd/README.md`, "The schema") that
//! the round loop does not use — `slug`, `srd`, `type`, `cr`, `xp`,
//! `proficiency_bonus`, `speed`, `condition_immune`, `not_modelled`, `no_fight_effect` — are
//! validated and carried as [`Lore`](crate::combat::bestiary::Lore) for `woundsim show` ([`lore`]).
//! `condition_immune` also sets the conditions nothing puts on the
//! creature ([`CreatureSpec::condition_immune`]). `xp` also counts
//! towards an encounter's XP ([`RawCreature::xp`]: a scenario entry's own
//! `xp`, else its bestiary monster's). [`monster`] resolves a
//! `creature = NAME`.

mod attack;
mod features;
mod legendary;
mod lore;
mod monster;
mod potions;
mod spellcasting;
mod spells;

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

pub use attack::{RawAttack, RawRider};
pub use features::{RawBreath, RawHeal, RawOnce, RawRage, RawRegen};
pub use lore::{Condition, CreatureType, RawSpeed, SrdVersion};
pub use monster::{monster, nearest_monsters};
pub use potions::RawPotions;
pub(crate) use potions::potions;

use crate::combat::bestiary::{Bestiary, Monster};
use crate::combat::creature::{Ability, CreatureSpec};
use crate::combat::templates::Templates;
use crate::rules::damage::{DamageType, DamageTypes, Size};
use crate::scenario::limits::{MAX_CREATURE_ATTACKS, MAX_LABEL_CHARS};
use crate::scenario::values::{self, at, at_most, opt_at, text};
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

/// War Cry, as written: `{ temp_hp = "2d10+5", recharge = 5 }`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawWarCry {
    temp_hp: Spanned<String>,
    recharge: Spanned<i64>,
}

/// A damage aura, as written: `{ dice = "3d8", type = "fire", targets = 1,
/// unless_incapacitated = false }`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawDamageAura {
    dice: Spanned<String>,
    #[serde(rename = "type")]
    kind: DamageType,
    targets: Spanned<i64>,
    #[serde(default)]
    unless_incapacitated: bool,
}

impl RawDamageAura {
    /// The aura at `path` (`....damage_aura`): 1 to 20 targets.
    fn build(
        &self,
        loc: &Locator,
        path: &str,
    ) -> Result<crate::combat::creature::DamageAura, ScenarioError> {
        let field = |key: &str| format!("{path}.{key}");
        Ok(crate::combat::creature::DamageAura {
            dice: values::dice(values::at(loc, &self.dice, field("dice")))?,
            kind: self.kind,
            targets: ranged(loc, &self.targets, &field("targets"), 1..=20)? as u8,
            unless_incapacitated: self.unless_incapacitated,
        })
    }
}

/// What a check of a group of keys gives: the keys set on the creature,
/// or the first bad one's error.
type Checked = Result<(), ScenarioError>;

/// The bestiary key an imported character file is kept under.
pub fn imported_key(file: &str) -> String {
    format!("import:{file}")
}

/// The most XP an entry may be worth (the SRD's highest is 155,000, CR 30).
const MAX_XP: i64 = 1_000_000;

/// A creature entry of a bestiary or a `party` / `monsters` list.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCreature {
    creature: Option<Spanned<String>>,
    /// `import = "my-paladin.json"`: a character sheet read with the
    /// scenario (`user_characters`), kept in the catalog's bestiary under
    /// [`imported_key`].
    import: Option<Spanned<String>>,
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
    /// Its check to escape a grapple (Athletics or Acrobatics).
    escape: Option<Spanned<i64>>,
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
    /// A monster's Spellcasting: spells cast without slots, at will or a
    /// number of times a day.
    spellcasting: Option<Spanned<spellcasting::RawSpellcasting>>,
    breath: Option<Spanned<RawBreath>>,
    regeneration: Option<Spanned<RawRegen>>,
    /// Legendary Resistance: failed saves turned into successes a day.
    legendary_resistance: Option<Spanned<i64>>,
    /// Legendary actions: `{ uses = 3, options = [...] }`.
    legendary_actions: Option<Spanned<legendary::RawLegendary>>,
    rage: Option<Spanned<RawRage>>,
    reckless: Option<bool>,
    /// Magic Resistance: advantage on saves against spells and magical effects.
    magic_resistance: Option<bool>,
    /// Pack Tactics: advantage on attacks at a creature an ally is next to.
    pack_tactics: Option<bool>,
    /// Sunlight Sensitivity or Weakness: `"sensitivity"` or `"weakness"`.
    sunlight: Option<crate::combat::creature::Sunlight>,
    /// War Cry: `{ temp_hp = "2d10+5", recharge = 5 }`.
    war_cry: Option<Spanned<RawWarCry>>,
    /// Fire or Lightning Absorption: damage types that heal it.
    absorbs: Option<Vec<DamageType>>,
    /// Bloodied Fury / Frenzy: `"attacks"` or `"attacks_and_saves"`.
    bloodied_advantage: Option<crate::combat::creature::BloodiedAdvantage>,
    /// Flyby, Nimble Escape: its moves provoke no opportunity attacks.
    avoids_opportunity_attacks: Option<bool>,
    /// Undead Fortitude: a Constitution save to stay at 1 HP.
    undead_fortitude: Option<bool>,
    /// Death Burst: `{ dice, type, save, dc, targets, on_success }`.
    death_burst: Option<Spanned<legendary::RawAreaSave>>,
    /// A damage aura: `{ dice, type, targets, unless_incapacitated }`.
    damage_aura: Option<Spanned<RawDamageAura>>,
    /// Parry: armour class added against one melee hit with the reaction.
    parry: Option<Spanned<i64>>,
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
    /// Statblock features that change nothing in a woundsim fight.
    no_fight_effect: Option<Spanned<Vec<Spanned<String>>>>,
    /// Magic items: `"none"`, `"typical"` (for its level) or
    /// `{ weapon = 1, armor = 0, focus = 1 }`.
    magic_items: Option<Spanned<RawMagicItems>>,
}

/// Magic items as written: a keyword or the bonuses.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum RawMagicItems {
    /// `"none"` or `"typical"`.
    Keyword(String),
    /// `{ weapon = 1, armor = 0, focus = 1 }`.
    Bonuses {
        /// Weapon +N.
        #[serde(default)]
        weapon: i64,
        /// Armour +N.
        #[serde(default)]
        armor: i64,
        /// Focus +N.
        #[serde(default)]
        focus: i64,
    },
}

/// `magic_items` (field `field`) for a creature of character `level`.
pub fn magic_items(
    loc: &Locator,
    raw: &Spanned<RawMagicItems>,
    field: &str,
    level: u8,
) -> Result<crate::combat::magic_items::MagicItems, ScenarioError> {
    use crate::combat::magic_items::{MagicItems, typical};
    let error = |m: String| loc.error(raw.span().start, field, m);
    match raw.get_ref() {
        RawMagicItems::Keyword(k) if k == "none" => Ok(MagicItems::default()),
        RawMagicItems::Keyword(k) if k == "typical" => Ok(typical(level)),
        RawMagicItems::Keyword(k) => Err(error(format!(
            "unknown value `{k}`{}; magic_items is \"none\", \"typical\" or {{ weapon = N, armor = N, focus = N }} with N from 0 to 3",
            crate::scenario::wording::did_you_mean(k, &["none", "typical"])
        ))),
        RawMagicItems::Bonuses {
            weapon,
            armor,
            focus,
        } => {
            for (name, v) in [("weapon", weapon), ("armor", armor), ("focus", focus)] {
                if !(0..=3).contains(v) {
                    return Err(error(format!(
                        "a magic item's bonus is 0 to 3 (+1 to +3 items), got {name} = {v}"
                    )));
                }
            }
            Ok(MagicItems {
                weapon: *weapon as u8,
                armor: *armor as u8,
                focus: *focus as u8,
            })
        }
    }
}

/// The keys of `saves = { ... }`, in ability order.
const SAVE_KEYS: [&str; 6] = ["str", "dex", "con", "int", "wis", "cha"];

/// The whole number `v` (field `field`) within `range`.
fn ranged(
    loc: &Locator,
    v: &Spanned<i64>,
    field: &str,
    range: std::ops::RangeInclusive<i64>,
) -> Result<i32, ScenarioError> {
    Ok(values::keyed_int(Some(at(loc, v, field)), range, 0)? as i32)
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
        self.template.is_some() || self.level.is_some() || self.import.is_some()
    }

    /// Whether the entry starts from a PC template.
    pub fn from_template(&self) -> bool {
        self.template.is_some()
    }

    /// How many copies of this creature the entry adds (default 1).
    pub fn count(&self, loc: &Locator, path: &str) -> Result<usize, ScenarioError> {
        match &self.count {
            None => Ok(1),
            Some(c) => Ok(ranged(loc, c, &format!("{path}.count"), 1..=50)? as usize),
        }
    }

    /// Validates the entry into a creature (`party`: PCs by default);
    /// `creature = "..."` names a monster of `bestiary`. The keys are
    /// checked group by group in this order, so the first bad key of the
    /// entry is the error.
    pub fn build(
        &self,
        loc: &Locator,
        path: &str,
        party: bool,
        bestiary: &Bestiary,
        templates: &Templates,
    ) -> Result<CreatureSpec, ScenarioError> {
        self.build_at_level(loc, path, party, bestiary, templates, None)
    }

    /// [`RawCreature::build`], with a class template built at
    /// `party_level` when one is given (a combat scenario's `party_level`:
    /// `template = "cleric-3"` or `"cleric"` becomes `cleric-LEVEL`).
    pub fn build_at_level(
        &self,
        loc: &Locator,
        path: &str,
        party: bool,
        bestiary: &Bestiary,
        templates: &Templates,
        party_level: Option<u8>,
    ) -> Result<CreatureSpec, ScenarioError> {
        let base = self.base(loc, path, bestiary, templates, party_level)?;
        let mut spec = base.unwrap_or_else(|| CreatureSpec::blank("", party, 1));
        self.identity_of(loc, path, &mut spec)?;
        self.numbers_of(loc, path, &mut spec)?;
        self.attacks_of(loc, path, &mut spec)?;
        if let Some(v) = &self.potions {
            spec.potions = potions(loc, v, &format!("{path}.potions"))?;
        }
        self.spells_of(loc, path, &mut spec, templates)?;
        self.spellcasting_of(loc, path, &mut spec, &templates.spells)?;
        self.features_of(loc, path, &mut spec)?;
        self.legendary_of(loc, path, &mut spec)?;
        // Positions: it moves at its walking speed, or flies when faster.
        if let Some(s) = self.speeds(loc, path)? {
            spec.speed = s.walk.max(s.fly) as i32;
        }
        if let Some(line) = self.line {
            spec.line = Some(line);
        }
        if let Some(m) = &self.magic_items {
            magic_items(loc, m, &format!("{path}.magic_items"), spec.level)?.apply(&mut spec);
        }
        if spec.name.is_empty() {
            spec.name = path.to_string();
        }
        Ok(spec)
    }

    /// The creature the entry starts from: a PC template or a bestiary
    /// monster; `None` for a creature from scratch (then `hp`, `ac` and
    /// `attacks` are needed).
    fn base(
        &self,
        loc: &Locator,
        path: &str,
        bestiary: &Bestiary,
        templates: &Templates,
        party_level: Option<u8>,
    ) -> Result<Option<CreatureSpec>, ScenarioError> {
        let at = |key: &str| format!("{path}.{key}");
        if let Some(file) = &self.import {
            if self.template.is_some() || self.creature.is_some() {
                return Err(loc.error(
                    file.span().start,
                    &at("import"),
                    "give one of `import`, `template` and `creature`",
                ));
            }
            if party_level.is_some() {
                return Err(loc.error(
                    file.span().start,
                    &at("import"),
                    "an imported character keeps the level of its sheet: it cannot be built at a `party_level` or a campaign's levels",
                ));
            }
            return match bestiary.entry(&imported_key(file.get_ref())) {
                Some(m) => Ok(Some(m.spec.clone())),
                None => Err(loc.error(
                    file.span().start,
                    &at("import"),
                    "a character file is read when the scenario file names it in a `party` list (`party = [{ import = \"my-paladin.json\" }]`), not from `--set`",
                )),
            };
        }
        match (&self.template, &self.creature) {
            (Some(_), Some(c)) => Err(loc.error(
                c.span().start,
                &at("creature"),
                "give either `template` or `creature`, not both",
            )),
            (Some(t), None) => {
                let name = match party_level {
                    Some(level) => templates.at_level(t.get_ref(), level),
                    None => t.get_ref().clone(),
                };
                match templates.template(&name) {
                    Some(spec) => Ok(Some(spec)),
                    None => Err(loc.error(
                        t.span().start,
                        &at("template"),
                        super::templates::unknown(templates, &name),
                    )),
                }
            }
            (None, Some(c)) => Ok(Some(
                monster(bestiary, loc, c, &at("creature"))?.spec.clone(),
            )),
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
                Ok(None)
            }
        }
    }

    /// `name`, `is_pc`, `level` and `size`.
    fn identity_of(&self, loc: &Locator, path: &str, spec: &mut CreatureSpec) -> Checked {
        if let Some(n) = opt_at(loc, &self.name, format!("{path}.name")) {
            spec.name = text(&n, "a creature name", MAX_LABEL_CHARS)?.to_string();
        }
        if let Some(v) = self.is_pc {
            spec.is_pc = v;
        }
        if let Some(v) = &self.level {
            spec.level = ranged(loc, v, &format!("{path}.level"), 1..=20)? as u8;
        }
        if let Some(v) = self.size {
            spec.size = v;
        }
        Ok(())
    }

    /// Hit points (and those it starts with), armour class, initiative,
    /// Medicine, saving throws, and resistances, immunities and
    /// vulnerabilities.
    fn numbers_of(&self, loc: &Locator, path: &str, spec: &mut CreatureSpec) -> Checked {
        let at = |key: &str| format!("{path}.{key}");
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
        // Condition immunities: those the loop imposes (exhaustion is not
        // one of them).
        if let Some(list) = &self.condition_immune {
            spec.condition_immune = list
                .iter()
                .filter_map(|c| {
                    crate::combat::spell::Condition::parse(&format!("{c:?}").to_lowercase())
                })
                .fold(0, |bits, c| bits | 1 << c as u16);
        }
        // Escaping a grapple: the key, else a template's skills, else the
        // better of the Strength and Dexterity saves the entry gives (an
        // entry lists no skills), else what it starts from.
        if let Some(v) = &self.escape {
            spec.escape = ranged(loc, v, &at("escape"), -10..=30)?;
        } else if self.saves.is_some() && self.template.is_none() {
            spec.escape = spec.save(Ability::Str).max(spec.save(Ability::Dex));
        }
        let types = |v: &Vec<DamageType>| DamageTypes::of(v.iter().copied());
        let d = &mut spec.defenses;
        d.resistances = self.resistant.as_ref().map_or(d.resistances, types);
        d.immunities = self.immune.as_ref().map_or(d.immunities, types);
        d.vulnerabilities = self.vulnerable.as_ref().map_or(d.vulnerabilities, types);
        spec.absorbs = self.absorbs.as_ref().map_or(spec.absorbs, types);
        Ok(())
    }

    /// `attacks` (one attack per action unless `multiattack` says more),
    /// `multiattack` by attack name, and `crit_range`.
    fn attacks_of(&self, loc: &Locator, path: &str, spec: &mut CreatureSpec) -> Checked {
        if let Some(list) = &self.attacks {
            at_most(
                &values::at(loc, list, format!("{path}.attacks")),
                "attacks",
                MAX_CREATURE_ATTACKS,
            )?;
            spec.attacks = list
                .get_ref()
                .iter()
                .enumerate()
                .map(|(i, a)| a.get_ref().build(loc, &format!("{path}.attacks[{i}]")))
                .collect::<Result<_, _>>()?;
            spec.multiattack = if spec.attacks.is_empty() {
                Vec::new()
            } else {
                vec![0]
            };
        }
        if let Some(names) = &self.multiattack {
            spec.multiattack = multiattack(loc, path, names, spec)?;
        }
        if let Some(v) = &self.crit_range {
            spec.crit_range = ranged(loc, v, &format!("{path}.crit_range"), 2..=20)? as u8;
        }
        Ok(())
    }

    /// Once-per-turn damage, a healing feature, a breath weapon,
    /// regeneration, rage, Reckless Attack, Magic Resistance, Pack Tactics
    /// and Parry.
    fn features_of(&self, loc: &Locator, path: &str, spec: &mut CreatureSpec) -> Checked {
        let at = |key: &str| format!("{path}.{key}");
        if let Some(o) = &self.once_per_turn {
            spec.once_per_turn = Some(o.get_ref().build(loc, &at("once_per_turn"))?);
        }
        if let Some(h) = &self.heal {
            spec.heal = Some(h.get_ref().build(loc, &at("heal"))?);
        }
        if let Some(b) = &self.breath {
            spec.breath = Some(b.get_ref().build(loc, &at("breath"))?);
        }
        if let Some(r) = &self.regeneration {
            spec.regeneration = Some(r.get_ref().build(loc, &at("regeneration"))?);
        }
        if let Some(r) = &self.rage {
            spec.rage = Some(r.get_ref().build(loc, &at("rage"))?);
        }
        if let Some(v) = self.reckless {
            spec.reckless = v;
        }
        if let Some(v) = self.magic_resistance {
            spec.magic_resistance = v;
        }
        if let Some(v) = self.pack_tactics {
            spec.pack_tactics = v;
        }
        if let Some(v) = self.sunlight {
            spec.sunlight = Some(v);
        }
        if let Some(c) = &self.war_cry {
            let c = c.get_ref();
            spec.war_cry = Some(crate::combat::creature::WarCry {
                temp_hp: crate::scenario::values::dice(crate::scenario::values::at(
                    loc,
                    &c.temp_hp,
                    at("war_cry.temp_hp"),
                ))?,
                recharge: ranged(loc, &c.recharge, &at("war_cry.recharge"), 2..=6)? as u8,
            });
        }
        if let Some(v) = self.bloodied_advantage {
            spec.bloodied_advantage = Some(v);
        }
        if let Some(v) = self.avoids_opportunity_attacks {
            spec.avoids_opportunity_attacks = v;
        }
        if let Some(v) = self.undead_fortitude {
            spec.undead_fortitude = v;
        }
        if let Some(b) = &self.death_burst {
            let burst = b.get_ref().build(loc, &at("death_burst"))?;
            // Its "until the end of the target's next turn" would end with
            // the turn in which the burst may come: a legendary option's only.
            if burst.on_failure.any() {
                return Err(loc.error(
                    b.span().start,
                    &at("death_burst.on_failure"),
                    "a death burst's save leaves nothing until the target's next turn (`on_failure` is for legendary options)",
                ));
            }
            spec.death_burst = Some(burst);
        }
        if let Some(a) = &self.damage_aura {
            spec.damage_aura = Some(a.get_ref().build(loc, &at("damage_aura"))?);
        }
        if let Some(v) = &self.parry {
            spec.parry = ranged(loc, v, &at("parry"), 0..=10)? as u8;
        }
        Ok(())
    }
}

/// `multiattack = ["bite", "claw", ...]`: each name one of `spec`'s
/// attacks, as its index.
fn multiattack(
    loc: &Locator,
    path: &str,
    names: &Spanned<Vec<Spanned<String>>>,
    spec: &CreatureSpec,
) -> Result<Vec<usize>, ScenarioError> {
    at_most(
        &values::at(loc, names, format!("{path}.multiattack")),
        "attacks in a multiattack",
        MAX_CREATURE_ATTACKS,
    )?;
    let index = |(i, n): (usize, &Spanned<String>)| {
        let position = spec.attacks.iter().position(|a| a.name == *n.get_ref());
        position.ok_or_else(|| {
            loc.error(
                n.span().start,
                &format!("{path}.multiattack[{i}]"),
                format!("`{}` is not one of this creature's attacks", n.get_ref()),
            )
        })
    };
    names.get_ref().iter().enumerate().map(index).collect()
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
    let monsters = raw
        .iter()
        .map(|(key, c)| bestiary_entry(&loc, key, c, templates))
        .collect::<Result<Vec<_>, ScenarioError>>()?;
    Ok(Bestiary::of(monsters))
}

/// The bestiary entry `key`: a name of 1 to [`MAX_LABEL_CHARS`] printable
/// characters, not starting from another monster, its `slug` (if any)
/// its key.
fn bestiary_entry(
    loc: &Locator,
    key: &str,
    c: &RawCreature,
    templates: &Templates,
) -> Result<Monster, ScenarioError> {
    if key.is_empty() || key.chars().count() > MAX_LABEL_CHARS || key.chars().any(char::is_control)
    {
        return Err(loc.error(
            loc.text.find(key).unwrap_or(0),
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
    let mut spec = c.build(loc, key, false, &Bestiary::default(), templates)?;
    if c.name.is_none() {
        spec.name = key.to_string();
    }
    let lore = c.lore(loc, key)?;
    spec.undead = lore.kind.as_deref() == Some("undead");
    spec.extraplanar = matches!(
        lore.kind.as_deref(),
        Some("aberration" | "celestial" | "elemental" | "fey" | "fiend")
    );
    spec.challenge = lore.cr.as_deref().map_or(0.0, challenge);
    if let Some(slug) = c.slug.as_ref().filter(|s| s.get_ref() != key) {
        return Err(loc.error(
            slug.span().start,
            &format!("{key}.slug"),
            format!(
                "the slug `{}` is not the entry's name `{key}`",
                slug.get_ref()
            ),
        ));
    }
    Ok(Monster {
        key: key.to_string(),
        spec,
        lore,
    })
}

/// A challenge rating as written (`1/4`, `17`: validated by the lore) as a
/// number.
pub(crate) fn challenge(cr: &str) -> f32 {
    match cr.split_once('/') {
        Some((n, d)) => n.parse::<f32>().unwrap_or(0.0) / d.parse::<f32>().unwrap_or(1.0),
        None => cr.parse().unwrap_or(0.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combat::bestiary::Lore;

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
        assert_eq!(dragon.spec.legendary_resistance, 3);
        // Pounce, and Commanding Presence and Fiery Rays, which cast
        // spells of its Spellcasting (command, scorching ray, fireball).
        assert_eq!(dragon.spec.legendary.as_ref().unwrap().options.len(), 3);
        let spells: Vec<&str> = dragon
            .spec
            .known_spells
            .iter()
            .map(|k| k.spell.name.as_str())
            .collect();
        assert_eq!(spells, ["command", "scorching_ray", "fireball"]);
        assert!(
            dragon.lore.not_modelled.is_empty(),
            "{:?}",
            dragon.lore.not_modelled
        );
        assert!(
            !dragon
                .lore
                .not_modelled
                .iter()
                .any(|n| n.starts_with("Legendary Resistance") || n.starts_with("Pounce")),
            "{:?}",
            dragon.lore.not_modelled
        );
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
    fn a_hits_condition_is_read_and_checked_where_written() {
        let parse = |hc: &str| {
            parse_bestiary(
                "mine.toml",
                &format!(
                    "[g]\nhp = 5\nac = 10\nattacks = [{{ name = \"claw\", to_hit = 4, damage = \"1d4\", type = \"slashing\", hit_condition = {hc} }}]\n"
                ),
                &templates(),
            )
        };
        let b = parse("{ save = \"con\", dc = 10, condition = \"paralyzed\" }").unwrap();
        let h = b.lookup("g").unwrap().attacks[0].hit_condition.unwrap();
        assert_eq!(
            (h.ability, h.dc, h.condition),
            (
                crate::combat::creature::Ability::Con,
                10,
                crate::combat::spell::Condition::Paralyzed
            )
        );
        let err = parse("{ save = \"con\", dc = 10, condition = \"sleepy\" }")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("mine.toml:4:")
                && err.contains("field `g.attacks[0].hit_condition.condition`")
                && err.contains("unknown condition `sleepy`"),
            "{err}"
        );
        let err = parse("{ save = \"con\", dc = 40, condition = \"stunned\" }")
            .unwrap_err()
            .to_string();
        assert!(err.contains("hit_condition.dc"), "{err}");
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
    fn spellcasting_is_spells_without_slots_at_their_level_and_uses_a_day() {
        let text = "[hag]\nhp = 40\nac = 14\nattacks = [{ name = \"claw\", to_hit = 5, damage = \"1d8+3\", type = \"slashing\" }]\nmultiattack = [\"claw\", \"claw\"]\nspellcasting = { dc = 15, to_hit = 7, spells = [{ spell = \"fireball\", level = 4, per_day = 2 }, { spell = \"scorching_ray\", replaces_attack = true }] }\nlegendary_actions = { uses = 1, options = [{ name = \"rays\", spell = \"scorching_ray\" }] }\n";
        let b = parse_bestiary("mine.toml", text, &templates()).unwrap();
        let hag = b.lookup("hag").unwrap();
        let [fireball, ray] = &hag.known_spells[..] else {
            panic!("two spells: {:?}", hag.known_spells);
        };
        assert_eq!((fireball.dc, fireball.to_hit), (15, 7));
        let i = fireball.innate.unwrap();
        assert_eq!(
            (i.level, i.per_day, i.counter, i.replaces_attack),
            (4, 2, 0, false)
        );
        let i = ray.innate.unwrap();
        assert_eq!(
            (i.level, i.per_day, i.replaces_attack),
            (2, 0, true),
            "at will, its own level"
        );
        assert!(hag.spell_slots().iter().all(|&n| n == 0), "no slots");
        let legendary = hag.legendary.as_ref().unwrap();
        assert!(matches!(
            legendary.options[0].effect,
            crate::combat::creature::LegendaryEffect::Spell { known: 1, .. }
        ));
        let err = |spells: &str| {
            let text = format!(
                "[hag]\nhp = 40\nac = 14\nattacks = []\nspellcasting = {{ dc = 15, to_hit = 7, spells = [{spells}] }}\n"
            );
            parse_bestiary("mine.toml", &text, &templates())
                .unwrap_err()
                .to_string()
        };
        assert!(err("{ spell = \"fireball\", level = 2 }").contains(
            "field `hag.spellcasting.spells[0].level`: Fireball is a level-3 spell: it cannot be cast at level 2"
        ));
        assert!(
            err("{ spell = \"detect_magic\" }").contains("is not a spell the round loop casts")
        );
        assert!(err("{ spell = \"fireball\", per_day = 0 }").contains("per_day"));
        assert!(err("{ spell = \"fireball\" }, { spell = \"fireball\" }").contains("listed twice"));
        let text = "[hag]\nhp = 40\nac = 14\nattacks = []\nlegendary_actions = { uses = 1, options = [{ name = \"rays\", spell = \"scorching_ray\" }] }\n";
        assert!(
            parse_bestiary("mine.toml", text, &templates())
                .unwrap_err()
                .to_string()
                .contains("`scorching_ray` is not a spell of this creature's `spellcasting`")
        );
    }

    #[test]
    fn a_saves_lasting_effects_are_a_legendary_options_and_never_a_death_bursts() {
        let burst = |on_failure: &str| {
            format!(
                "[mephit]\nhp = 20\nac = 11\nattacks = []\ndeath_burst = {{ dice = \"2d4\", type = \"fire\", save = \"dex\", dc = 10, targets = 1{on_failure} }}\n"
            )
        };
        assert!(parse_bestiary("mine.toml", &burst(""), &templates()).is_ok());
        let e = parse_bestiary(
            "mine.toml",
            &burst(", on_failure = { ac_penalty = 2 }"),
            &templates(),
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.starts_with("mine.toml:5:") && e.contains("field `mephit.death_burst.on_failure`"),
            "{e}"
        );
        let option = |on_failure: &str| {
            format!(
                "[dragon]\nhp = 200\nac = 18\nattacks = [{{ name = \"rend\", to_hit = 10, damage = \"2d8+6\", type = \"slashing\" }}]\nlegendary_actions = {{ uses = 3, options = [{{ name = \"miasma\", save = {{ dice = \"2d6\", type = \"poison\", save = \"con\", dc = 17, targets = 4{on_failure} }} }}] }}\n"
            )
        };
        let b = parse_bestiary(
            "mine.toml",
            &option(", on_failure = { ac_penalty = 2, speed_zero = true }"),
            &templates(),
        )
        .unwrap();
        let dragon = b.lookup("dragon").unwrap();
        let crate::combat::creature::LegendaryEffect::Save(a) =
            dragon.legendary.as_ref().unwrap().options[0].effect
        else {
            panic!("a save option")
        };
        assert_eq!(
            (a.on_failure.ac_penalty, a.on_failure.speed_zero),
            (2, true)
        );
        let e = parse_bestiary(
            "mine.toml",
            &option(", on_failure = { ac_penalty = 11 }"),
            &templates(),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("on_failure.ac_penalty"), "{e}");
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
