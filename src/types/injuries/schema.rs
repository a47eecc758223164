//! Schema of `type = "injuries"` scenarios (docs/rules.md, lingering injuries trigger and table,
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
//! services = { cure_wounds = 10, lesser_restoration = 40, greater_restoration = 350 }  # fees on top of materials
//! materials = { lesser_restoration = 100, greater_restoration = 500 }
//! item_prices = { weapon = 15, armor_or_shield = 10, other = 2 }
//! ```

use serde::Deserialize;
use toml::Spanned;

use super::InjuryScenario;
use crate::dice::RollMode;
use crate::model::Catalog;
use crate::rules::injury_cures::{RestorationReading, full_caster_slots};
use crate::rules::lingering::{AppliesTo, MissTrigger, Side};
use crate::scenario::ScenarioError;
use crate::scenario::data::injury_table::RawEntry;
use crate::scenario::groups::{Lingering, impl_injury_keys, lingering, medicine_bonus};
use crate::scenario::layers::{Layers, Setting, get};
use crate::scenario::prices::{PriceKeys, PriceMap, price, spell_named};
use crate::scenario::values::{int, or};

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

crate::scenario::impl_named!(RawSettings);
impl_injury_keys!(RawSettings);

/// The natural d20 an attack needs for one d20's chance to hit `chance`
/// (0.05 to 0.95 in steps of 0.05), or `default`.
fn need(chance: Option<Setting<'_, f64>>, default: u8) -> Result<u8, ScenarioError> {
    let Some(h) = chance else {
        return Ok(default);
    };
    let v = h.copied();
    let twentieths = v * 20.0;
    if !(0.05 - 1e-9..=0.95 + 1e-9).contains(&v) || (twentieths - twentieths.round()).abs() > 1e-9 {
        return Err(h.error(format!(
            "{} is one d20's chance to hit, 0.05 to 0.95 in steps of 0.05, got {v}",
            h.key()
        )));
    }
    Ok(21 - twentieths.round() as u8)
}

/// Validates one variant's settings; what no table gives is the model's
/// default ([`InjuryScenario::defaults`]).
pub fn build(l: &Layers<RawSettings>, catalog: &Catalog) -> Result<InjuryScenario, ScenarioError> {
    let Lingering {
        table,
        trigger,
        miss_trigger,
    } = lingering(l, catalog)?;
    let d = InjuryScenario::defaults(table);
    let attacks_made = int(
        get!(l, attacks_made),
        0..=1000,
        "attacks_made",
        d.attacks_made.into(),
    )?;
    let attacks_received = int(
        get!(l, attacks_received),
        0..=1000,
        "attacks_received",
        d.attacks_received.into(),
    )?;
    let encounters = int(
        get!(l, encounters),
        1..=100_000,
        "encounters",
        d.encounters.into(),
    )?;
    let crit_range = int(
        get!(l, crit_range),
        2..=20,
        "crit_range",
        d.crit_range.into(),
    )?;
    let hit_need = need(get!(l, hit_chance), d.hit_need)?;
    let own_hit_need = need(get!(l, own_hit_chance), d.own_hit_need)?;
    let mut resources = d.resources.clone();
    let level = int(get!(l, healer_level), 0..=20, "healer_level", 0)?;
    resources.spell_slots = full_caster_slots(level as u8);
    if let Some(slots) = get!(l, spell_slots) {
        if slots.get().len() != 9 {
            return Err(slots.error("spell_slots lists 9 counts, 1st to 9th level"));
        }
        for (i, n) in slots.get().iter().enumerate() {
            resources.spell_slots[i] =
                int(Some(slots.item(i, n)), 0..=20, "a slot count", 0)? as u8;
        }
    }
    if let Some(list) = get!(l, healer_spells) {
        let mut spells = Vec::new();
        for (i, s) in list.get().iter().enumerate() {
            let item = list.item(i, s);
            let spell = spell_named(&item, s.get_ref())?;
            if spells.contains(&spell) {
                return Err(item.error(format!("`{}` is listed twice", s.get_ref())));
            }
            spells.push(spell);
        }
        resources.healer_spells = spells;
    }
    resources.potions = int(
        get!(l, potions),
        0..=1000,
        "potions",
        d.resources.potions.into(),
    )? as u32;
    resources.temple = or(get!(l, temple), d.resources.temple);
    resources.market = or(get!(l, market), d.resources.market);
    let medicine = medicine_bonus(
        get!(l, medicine_bonus),
        d.resources.medicine_bonus.unwrap_or_default(),
    )?;
    resources.medicine_bonus = or(
        get!(l, medicine_check),
        d.resources.medicine_bonus.is_some(),
    )
    .then_some(medicine);
    resources.max_hp = int(
        get!(l, max_hp),
        1..=1000,
        "max_hp",
        d.resources.max_hp.into(),
    )? as u32;
    if let Some(v) = get!(l, day_value_gp) {
        resources.day_value_gp = price(&v)?;
    }
    resources.restoration_reading = or(
        get!(l, restoration_reading),
        d.resources.restoration_reading,
    );
    let prices = PriceKeys {
        potion: get!(l, potion_price_gp),
        services: get!(l, services),
        materials: get!(l, materials),
        items: get!(l, item_prices),
        ..PriceKeys::default()
    }
    .apply(&d.prices)?;
    Ok(InjuryScenario {
        trigger,
        side: or(get!(l, side), d.side),
        attacks_made: attacks_made as u32,
        attacks_received: attacks_received as u32,
        encounters: encounters as u32,
        crit_range: crit_range as u8,
        hit_need,
        own_hit_need,
        miss_trigger,
        crit_needs_hit: or(get!(l, crit_needs_hit), d.crit_needs_hit),
        attack_roll: or(get!(l, attack_roll), d.attack_roll),
        attacked_with: or(get!(l, attacked_with), d.attacked_with),
        resources,
        prices,
        ..d
    })
}
