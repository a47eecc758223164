//! Schema of `type = "injuries"` scenarios (RULES.md §1 trigger and table,
//! §2 prices): a creature that makes A attack rolls and receives B attacks
//! per encounter over E encounters, the injuries it collects, and what
//! curing them costs under the party's resources.
//!
//! ```toml
//! [options]                      # shared by all variants; each key optional
//! side = "pc"                    # pc | monster: the creature studied
//! attacks_made = 3               # attack rolls it makes per encounter, 0..=1000
//! attacks_received = 3           # attacks it receives per encounter, 0..=1000
//! encounters = 20                # campaign length E, 1..=100000
//! crit_range = 20                # lowest natural that crits against it, 2..=20
//! hit_chance = 0.6               # one d20's chance to hit it, 0.05..=0.95 in steps of 0.05
//! crit_needs_hit = false         # true: a natural in the crit range must also hit
//! miss_trigger = "natural_1"     # natural_1 (a critical miss) | any_miss (the seed's other reading)
//! own_hit_chance = 0.6           # its own attacks' d20 chance to hit (for any_miss)
//! attack_roll = "normal"         # its own attack rolls: normal | advantage | disadvantage
//! attacked_with = "normal"       # attacks it receives
//! on_crit_hit = true             # a critical hit taken can injure it
//! on_crit_miss = true            # its own natural 1 can injure it
//! applies_to = "both"            # both | pcs | monsters
//! injury_chance = 0.05           # per triggering event, 0..=1
//! table = [ { id = ..., name = ..., d100 = [1, 2], effects = [...], cures = [...] }, ... ]
//! override = [ { id = "festering_wound", d100 = [56, 60], cures = [...] } ]
//! # resources
//! healer_level = 0               # the party healer's full-caster level, 0 (none)..=20
//! healer_spells = ["cure_wounds", "lesser_restoration", "greater_restoration", "heal", "regenerate"]
//! spell_slots = [4, 3, 3, 3, 2, 1, 1, 1, 1]   # overrides the slots of healer_level
//! potions = 0                    # potions of healing carried
//! temple = false                 # a temple sells casting services
//! market = true                  # potions and replacement items can be bought
//! medicine_bonus = 2             # best Medicine modifier, -10..=20
//! medicine_check = true          # false: nobody makes Medicine checks
//! max_hp = 25                    # of the injured creature (tending a festering wound)
//! day_value_gp = 0               # gold a downtime day is worth when choosing a cure
//! restoration_reading = "greater_restoration"  # lesser_restoration | greater_restoration | regenerate
//! # prices (gp; maps override key by key)
//! potion_price_gp = 50
//! services = { cure_wounds = 10, lesser_restoration = 40, greater_restoration = 450 }
//! materials = { lesser_restoration = 100, greater_restoration = 500 }
//! item_prices = { weapon = 15, armor_or_shield = 10, other = 2 }
//! ```

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use super::injury_table::{self, RawEntry};
use super::values::int as ranged;
use super::{Locator, ScenarioError, pick};
use crate::dice::RollMode;
use crate::rules::attack::{AttackOutcome, AttackRoll};
use crate::rules::healing::{
    PriceList, Resources, RestorationReading, SPELLS, full_caster_slots, spell_index,
};
use crate::rules::lingering::{AppliesTo, InjuryTable, Side, Trigger};

/// The `type` value of this schema.
pub const TYPE_NAME: &str = "injuries";

/// The spells a cleric heals with, the default `healer_spells`.
pub const CLERIC_SPELLS: [&str; 5] = [
    "cure_wounds",
    "lesser_restoration",
    "greater_restoration",
    "heal",
    "regenerate",
];

pub use crate::rules::lingering::MissTrigger;

/// One variant's validated model.
#[derive(Clone, Debug, PartialEq)]
pub struct InjuryScenario {
    /// The table and injury chance.
    pub table: InjuryTable,
    /// Which events roll on the table.
    pub trigger: Trigger,
    /// The creature's side.
    pub side: Side,
    /// Attack rolls it makes per encounter.
    pub attacks_made: u32,
    /// Attacks it receives per encounter.
    pub attacks_received: u32,
    /// Encounters per campaign.
    pub encounters: u32,
    /// Lowest natural that crits against it.
    pub crit_range: u8,
    /// Natural an attack against it needs to hit (2..=20).
    pub hit_need: u8,
    /// Whether a crit must also be a hit.
    pub crit_needs_hit: bool,
    /// Natural its own attacks need to hit (2..=20).
    pub own_hit_need: u8,
    /// Which of its own attack rolls trigger the miss side.
    pub miss_trigger: MissTrigger,
    /// Its own attack rolls.
    pub attack_roll: RollMode,
    /// Attacks against it.
    pub attacked_with: RollMode,
    /// Party resources.
    pub resources: Resources,
    /// Prices.
    pub prices: PriceList,
}

/// One `[options]` or `[[variant]]` table, as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSettings {
    name: Option<Spanned<String>>,
    description: Option<Spanned<String>>,
    side: Option<Spanned<Side>>,
    attacks_made: Option<Spanned<i64>>,
    attacks_received: Option<Spanned<i64>>,
    encounters: Option<Spanned<i64>>,
    crit_range: Option<Spanned<i64>>,
    hit_chance: Option<Spanned<f64>>,
    crit_needs_hit: Option<Spanned<bool>>,
    own_hit_chance: Option<Spanned<f64>>,
    miss_trigger: Option<Spanned<MissTrigger>>,
    attack_roll: Option<Spanned<RollMode>>,
    attacked_with: Option<Spanned<RollMode>>,
    on_crit_hit: Option<Spanned<bool>>,
    on_crit_miss: Option<Spanned<bool>>,
    applies_to: Option<Spanned<AppliesTo>>,
    injury_chance: Option<Spanned<f64>>,
    table: Option<Spanned<Vec<Spanned<RawEntry>>>>,
    #[serde(rename = "override")]
    overrides: Option<Spanned<Vec<Spanned<RawEntry>>>>,
    healer_level: Option<Spanned<i64>>,
    healer_spells: Option<Spanned<Vec<Spanned<String>>>>,
    spell_slots: Option<Spanned<Vec<Spanned<i64>>>>,
    potions: Option<Spanned<i64>>,
    temple: Option<Spanned<bool>>,
    market: Option<Spanned<bool>>,
    medicine_bonus: Option<Spanned<i64>>,
    medicine_check: Option<Spanned<bool>>,
    max_hp: Option<Spanned<i64>>,
    day_value_gp: Option<Spanned<f64>>,
    restoration_reading: Option<Spanned<RestorationReading>>,
    potion_price_gp: Option<Spanned<f64>>,
    services: Option<PriceMap>,
    materials: Option<PriceMap>,
    item_prices: Option<PriceMap>,
}

super::impl_named!(RawSettings);

fn flag(v: Option<(&Spanned<bool>, String)>, default: bool) -> bool {
    v.map_or(default, |(b, _)| *b.get_ref())
}

fn price(loc: &Locator, v: &Spanned<f64>, field: &str) -> Result<f64, ScenarioError> {
    let p = *v.get_ref();
    if p.is_finite() && (0.0..=1e9).contains(&p) {
        Ok(p)
    } else {
        Err(loc.error(
            v.span().start,
            field,
            format!("a price must be between 0 and 1e9 gp, got {p}"),
        ))
    }
}

fn spell_named(loc: &Locator, name: &str, at: usize, field: &str) -> Result<usize, ScenarioError> {
    spell_index(name).ok_or_else(|| {
        loc.error(
            at,
            field,
            format!(
                "unknown spell `{name}`; known: {}",
                SPELLS.iter().map(|s| s.name).collect::<Vec<_>>().join(", ")
            ),
        )
    })
}

/// A `{ name = gp }` table as written.
type PriceMap = Spanned<BTreeMap<String, Spanned<f64>>>;

/// Applies a `{ spell = gp }` map over a price list.
fn spell_prices(
    loc: &Locator,
    map: Option<(&PriceMap, String)>,
    list: &mut Vec<(usize, f64)>,
) -> Result<(), ScenarioError> {
    let Some((map, field)) = map else {
        return Ok(());
    };
    for (name, gp) in map.get_ref() {
        let f = format!("{field}.{name}");
        let spell = spell_named(loc, name, gp.span().start, &f)?;
        let gp = price(loc, gp, &f)?;
        match list.iter_mut().find(|(s, _)| *s == spell) {
            Some(slot) => slot.1 = gp,
            None => list.push((spell, gp)),
        }
    }
    Ok(())
}

/// Validates one variant: `variant` overrides `base` key by key.
pub fn build(
    loc: &Locator,
    base: &RawSettings,
    variant: &RawSettings,
    path: &str,
) -> Result<InjuryScenario, ScenarioError> {
    let table = injury_table::build(
        loc,
        pick(
            &variant.injury_chance,
            &base.injury_chance,
            path,
            "injury_chance",
        ),
        pick(&variant.table, &base.table, path, "table"),
        pick(&variant.overrides, &base.overrides, path, "override"),
    )?;
    let int = |v: Option<(&Spanned<i64>, String)>, r, what, d| ranged(loc, v, r, what, d);
    let attacks_made = int(
        pick(
            &variant.attacks_made,
            &base.attacks_made,
            path,
            "attacks_made",
        ),
        0..=1000,
        "attacks_made",
        3,
    )?;
    let attacks_received = int(
        pick(
            &variant.attacks_received,
            &base.attacks_received,
            path,
            "attacks_received",
        ),
        0..=1000,
        "attacks_received",
        3,
    )?;
    let encounters = int(
        pick(&variant.encounters, &base.encounters, path, "encounters"),
        1..=100_000,
        "encounters",
        20,
    )?;
    let crit_range = int(
        pick(&variant.crit_range, &base.crit_range, path, "crit_range"),
        2..=20,
        "crit_range",
        20,
    )?;
    let need = |value: Option<(&Spanned<f64>, String)>, key: &str| match value {
        None => Ok(9),
        Some((h, field)) => {
            let v = *h.get_ref();
            let twentieths = v * 20.0;
            if !(0.05 - 1e-9..=0.95 + 1e-9).contains(&v)
                || (twentieths - twentieths.round()).abs() > 1e-9
            {
                return Err(loc.error(
                    h.span().start,
                    &field,
                    format!(
                        "{key} is one d20's chance to hit, 0.05 to 0.95 in steps of 0.05, got {v}"
                    ),
                ));
            }
            Ok(21 - twentieths.round() as u8)
        }
    };
    let hit_need = need(
        pick(&variant.hit_chance, &base.hit_chance, path, "hit_chance"),
        "hit_chance",
    )?;
    let own_hit_need = need(
        pick(
            &variant.own_hit_chance,
            &base.own_hit_chance,
            path,
            "own_hit_chance",
        ),
        "own_hit_chance",
    )?;
    let mut resources = Resources::default();
    let level = int(
        pick(
            &variant.healer_level,
            &base.healer_level,
            path,
            "healer_level",
        ),
        0..=20,
        "healer_level",
        0,
    )?;
    resources.spell_slots = full_caster_slots(level as u8);
    if let Some((slots, field)) = pick(&variant.spell_slots, &base.spell_slots, path, "spell_slots")
    {
        if slots.get_ref().len() != 9 {
            return Err(loc.error(
                slots.span().start,
                &field,
                "spell_slots lists 9 counts, 1st to 9th level",
            ));
        }
        for (i, n) in slots.get_ref().iter().enumerate() {
            resources.spell_slots[i] = ranged(
                loc,
                Some((n, format!("{field}[{i}]"))),
                0..=20,
                "a slot count",
                0,
            )? as u8;
        }
    }
    resources.healer_spells = match pick(
        &variant.healer_spells,
        &base.healer_spells,
        path,
        "healer_spells",
    ) {
        None => CLERIC_SPELLS
            .iter()
            .filter_map(|n| spell_index(n))
            .collect(),
        Some((list, field)) => {
            let mut spells = Vec::new();
            for (i, s) in list.get_ref().iter().enumerate() {
                let f = format!("{field}[{i}]");
                let spell = spell_named(loc, s.get_ref(), s.span().start, &f)?;
                if spells.contains(&spell) {
                    return Err(loc.error(
                        s.span().start,
                        &f,
                        format!("`{}` is listed twice", s.get_ref()),
                    ));
                }
                spells.push(spell);
            }
            spells
        }
    };
    resources.potions = int(
        pick(&variant.potions, &base.potions, path, "potions"),
        0..=1000,
        "potions",
        0,
    )? as u32;
    resources.temple = flag(pick(&variant.temple, &base.temple, path, "temple"), false);
    resources.market = flag(pick(&variant.market, &base.market, path, "market"), true);
    let medicine = int(
        pick(
            &variant.medicine_bonus,
            &base.medicine_bonus,
            path,
            "medicine_bonus",
        ),
        -10..=20,
        "medicine_bonus",
        2,
    )?;
    resources.medicine_bonus = flag(
        pick(
            &variant.medicine_check,
            &base.medicine_check,
            path,
            "medicine_check",
        ),
        true,
    )
    .then_some(medicine as i8);
    resources.max_hp = int(
        pick(&variant.max_hp, &base.max_hp, path, "max_hp"),
        1..=1000,
        "max_hp",
        25,
    )? as u32;
    if let Some((v, field)) = pick(
        &variant.day_value_gp,
        &base.day_value_gp,
        path,
        "day_value_gp",
    ) {
        resources.day_value_gp = price(loc, v, &field)?;
    }
    if let Some((r, _)) = pick(
        &variant.restoration_reading,
        &base.restoration_reading,
        path,
        "restoration_reading",
    ) {
        resources.restoration_reading = *r.get_ref();
    }
    let mut prices = PriceList::default();
    if let Some((v, field)) = pick(
        &variant.potion_price_gp,
        &base.potion_price_gp,
        path,
        "potion_price_gp",
    ) {
        prices.potion_of_healing = price(loc, v, &field)?;
    }
    spell_prices(
        loc,
        pick(&variant.services, &base.services, path, "services"),
        &mut prices.services,
    )?;
    spell_prices(
        loc,
        pick(&variant.materials, &base.materials, path, "materials"),
        &mut prices.materials,
    )?;
    if let Some((map, field)) = pick(&variant.item_prices, &base.item_prices, path, "item_prices") {
        for (name, gp) in map.get_ref() {
            let f = format!("{field}.{name}");
            let slot = match name.as_str() {
                "weapon" => 0,
                "armor_or_shield" => 1,
                "other" => 2,
                _ => {
                    return Err(loc.error(
                        gp.span().start,
                        &f,
                        format!(
                            "unknown item kind `{name}`; known: weapon, armor_or_shield, other"
                        ),
                    ));
                }
            };
            prices.items[slot] = price(loc, gp, &f)?;
        }
    }
    let d = Trigger::default();
    Ok(InjuryScenario {
        table,
        trigger: Trigger {
            on_crit_hit: flag(
                pick(&variant.on_crit_hit, &base.on_crit_hit, path, "on_crit_hit"),
                d.on_crit_hit,
            ),
            on_crit_miss: flag(
                pick(
                    &variant.on_crit_miss,
                    &base.on_crit_miss,
                    path,
                    "on_crit_miss",
                ),
                d.on_crit_miss,
            ),
            applies_to: pick(&variant.applies_to, &base.applies_to, path, "applies_to")
                .map_or(d.applies_to, |(a, _)| *a.get_ref()),
        },
        side: pick(&variant.side, &base.side, path, "side").map_or(Side::Pc, |(s, _)| *s.get_ref()),
        attacks_made: attacks_made as u32,
        attacks_received: attacks_received as u32,
        encounters: encounters as u32,
        crit_range: crit_range as u8,
        hit_need,
        own_hit_need,
        miss_trigger: pick(
            &variant.miss_trigger,
            &base.miss_trigger,
            path,
            "miss_trigger",
        )
        .map_or(MissTrigger::Natural1, |(m, _)| *m.get_ref()),
        crit_needs_hit: flag(
            pick(
                &variant.crit_needs_hit,
                &base.crit_needs_hit,
                path,
                "crit_needs_hit",
            ),
            false,
        ),
        attack_roll: pick(&variant.attack_roll, &base.attack_roll, path, "attack_roll")
            .map_or(RollMode::Normal, |(r, _)| *r.get_ref()),
        attacked_with: pick(
            &variant.attacked_with,
            &base.attacked_with,
            path,
            "attacked_with",
        )
        .map_or(RollMode::Normal, |(r, _)| *r.get_ref()),
        resources,
        prices,
    })
}

impl InjuryScenario {
    /// The roll of an attack it receives: the natural it needs is an AC
    /// against no bonus; under `crit_needs_hit` a natural in the crit
    /// range must also hit to crit.
    pub fn received(&self) -> AttackRoll {
        AttackRoll {
            crit_range: self.crit_range,
            crit_range_hits: !self.crit_needs_hit,
            ..AttackRoll::against(0, i32::from(self.hit_need))
        }
    }

    /// The roll of one of its own attacks (a natural 20 crits).
    pub fn made(&self) -> AttackRoll {
        AttackRoll::against(0, i32::from(self.own_hit_need))
    }

    /// Whether its own attack roll ending in `outcome` triggers the miss side.
    #[inline]
    pub fn is_trigger_miss(&self, outcome: AttackOutcome) -> bool {
        match outcome {
            AttackOutcome::NaturalOne => true,
            AttackOutcome::Miss => self.miss_trigger == MissTrigger::AnyMiss,
            AttackOutcome::Hit | AttackOutcome::Critical => false,
        }
    }

    /// Whether the injury rules apply to this creature at all.
    pub fn applies(&self) -> bool {
        self.trigger.applies_to.covers(self.side)
    }
}
