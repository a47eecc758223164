//! Schema of `type = "campaign"` scenarios (docs/campaign.md): the party
//! by class ([`party`]), the level range and its calendar, the encounters
//! built for a difficulty at each level from a monster pool or drawn from
//! an `encounters` pool ([`pool`]), the healing setting, the temple, the
//! purse and the spending policies; the fights' own rules in a nested
//! `fights` table of the fight keys ([`crate::scenario::fights`]).

mod injuries;
mod party;
mod pool;

use serde::Deserialize;
use toml::Spanned;

use super::{
    Calendar, CampaignVariant, Caster, Downtime, Draw, First, HealWounds, InjurySpells, LevelFight,
    LevelPlan, ReplaceDead, ReturnPenalty,
};
use crate::combat::creature::CreatureSpec;
use crate::combat::encounter::Encounter;
use crate::combat::policy::{Between, EncounterRules};
use crate::model::Catalog;
use crate::rules::encounter_difficulty::EncounterXp;
use crate::rules::festering::LostHp;
use crate::rules::prices::PriceList;
use crate::rules::wound_healing::HealingSetting;
use crate::scenario::ScenarioError;
use crate::scenario::data::creature::{RawPotions, potions};
use crate::scenario::fights::budget::build_monsters;
use crate::scenario::fights::sides::check_venom_attacks;
use crate::scenario::fights::{RawFights, rules as fight_rules};
use crate::scenario::layers::{Layers, Setting, get};
use crate::scenario::prices::{PriceKeys, PriceMap};
use crate::scenario::values::{keyed_int, or};
use crate::types::campaign::spending::HealingCache;
use party::{Member, party};
use pool::{PoolEntry, encounter_pool};

pub use party::RawMember;
pub use pool::{MAX_POOL_ENTRIES, RawPoolEntry};

/// Most fights in one career (levels × days × fights per day): a trial's
/// length is bounded.
pub const MAX_CAREER_FIGHTS: i64 = 2_000;

/// Most gold a purse starts with or a fight yields (gp).
pub const MAX_GOLD: i64 = 1_000_000_000;

/// Gold found per fight won, by character level 1 to 20 (gp; **ours**, a
/// documented default by tier of play: 100 gp a fight at levels 1–4, 500
/// at 5–10, 5,000 at 11–16, 25,000 at 17–20; `treasure` replaces it).
pub const DEFAULT_TREASURE: [u64; 20] = [
    100, 100, 100, 100, 500, 500, 500, 500, 500, 500, 5_000, 5_000, 5_000, 5_000, 5_000, 5_000,
    25_000, 25_000, 25_000, 25_000,
];

/// The temple's highest spell level by default: a city temple whose
/// priests cast up to 5th-level spells (**ours**; `temple_spell_level`).
pub const DEFAULT_TEMPLE_SPELL_LEVEL: u8 = 5;

/// One `[options]` or `[[variant]]` table, as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSettings {
    name: Option<Spanned<String>>,
    description: Option<Spanned<String>>,
    party: Option<Spanned<Vec<Spanned<RawMember>>>>,
    start_level: Option<Spanned<i64>>,
    end_level: Option<Spanned<i64>>,
    days_per_level: Option<Spanned<i64>>,
    adventures_per_level: Option<Spanned<i64>>,
    fights_per_day: Option<Spanned<i64>>,
    short_rests: Option<Spanned<i64>>,
    travel_days: Option<Spanned<i64>>,
    downtime_days: Option<Spanned<toml::Value>>,
    draw: Option<Spanned<Draw>>,
    difficulty: Option<Spanned<toml::Value>>,
    monster_pool: Option<Spanned<Vec<Spanned<String>>>>,
    encounters: Option<Spanned<Vec<Spanned<RawPoolEntry>>>>,
    healing: Option<Spanned<HealingSetting>>,
    temple_spell_level: Option<Spanned<i64>>,
    starting_gold: Option<Spanned<i64>>,
    treasure: Option<Spanned<Vec<Spanned<i64>>>>,
    heal_wounds: Option<Spanned<HealWounds>>,
    first: Option<Spanned<First>>,
    replace_dead: Option<Spanned<ReplaceDead>>,
    raise_dead: Option<Spanned<bool>>,
    return_penalty: Option<Spanned<ReturnPenalty>>,
    cure_injuries: Option<Spanned<bool>>,
    injury_spells: Option<Spanned<InjurySpells>>,
    rest_cures: Option<Spanned<bool>>,
    festering_lost_hp: Option<Spanned<LostHp>>,
    restock_potions: Option<Spanned<RawPotions>>,
    potion_prices: Option<PriceMap>,
    services: Option<PriceMap>,
    materials: Option<PriceMap>,
    item_prices: Option<PriceMap>,
    fights: Option<Spanned<RawFights>>,
}

/// Most days on the road to an adventure (and back).
pub const MAX_TRAVEL_DAYS: i64 = 60;

/// Most days of one downtime given as a number.
pub const MAX_DOWNTIME_DAYS: i64 = super::career::MAX_DOWNTIME_DAYS as i64;

/// `downtime_days`: `"as_needed"` or a number of days.
fn downtime(v: Option<Setting<'_, toml::Value>>) -> Result<Downtime, ScenarioError> {
    let Some(v) = v else {
        return Ok(Downtime::AsNeeded);
    };
    match v.get() {
        toml::Value::String(s) if s == "as_needed" => Ok(Downtime::AsNeeded),
        toml::Value::Integer(n) if (0..=MAX_DOWNTIME_DAYS).contains(n) => {
            Ok(Downtime::Days(*n as u32))
        }
        other => Err(v.error(format!(
            "`downtime_days` is \"as_needed\" or a number of days from 0 to {MAX_DOWNTIME_DAYS}, got {other}"
        ))),
    }
}

crate::scenario::impl_named!(RawSettings);

/// The character levels of the career, first to last.
fn level_range(l: &Layers<RawSettings>, anchor: usize) -> Result<(u8, u8), ScenarioError> {
    let start = keyed_int(get!(l, start_level), 1..=20, 1)? as u8;
    let end_setting = get!(l, end_level);
    let end = keyed_int(end_setting.clone(), 1..=20, i64::from(start))? as u8;
    if end < start {
        let at = end_setting.map_or_else(
            || {
                l.loc()
                    .error(anchor, "end_level", "`end_level` is before `start_level`")
            },
            |e| e.error(format!("end_level ({end}) is before start_level ({start})")),
        );
        return Err(at);
    }
    Ok((start, end))
}

/// The calendar keys (the gaps of a day's fights are the fights' own:
/// `between`), with the career's fights bounded.
fn calendar(
    l: &Layers<RawSettings>,
    anchor: usize,
    (start, end): (u8, u8),
    between: Between,
) -> Result<Calendar, ScenarioError> {
    let days = keyed_int(get!(l, days_per_level), 1..=100, 2)? as u32;
    let adventures = keyed_int(get!(l, adventures_per_level), 1..=i64::from(days), 1)? as u32;
    let fights_per_day = keyed_int(get!(l, fights_per_day), 1..=20, 2)? as u32;
    let short_rests = keyed_int(get!(l, short_rests), 0..=i64::from(fights_per_day) - 1, 0)? as u32;
    let travel_days = keyed_int(get!(l, travel_days), 0..=MAX_TRAVEL_DAYS, 0)? as u32;
    let downtime = downtime(get!(l, downtime_days))?;
    let career_fights = i64::from(end - start + 1) * i64::from(days) * i64::from(fights_per_day);
    if career_fights > MAX_CAREER_FIGHTS {
        return Err(l.loc().error(
            anchor,
            "days_per_level",
            format!(
                "the career has {career_fights} fights (levels × days_per_level × fights_per_day), more than the {MAX_CAREER_FIGHTS} a campaign may have"
            ),
        ));
    }
    Ok(Calendar {
        days_per_level: days,
        adventures_per_level: adventures,
        fights_per_day,
        short_rests,
        between,
        travel_days,
        downtime,
        draw: or(get!(l, draw), Draw::default()),
    })
}

/// What the purse starts with and finds: the temple's spell level, the
/// starting gold and the treasure per fight won at each level 1 to 20.
fn purse(l: &Layers<RawSettings>) -> Result<(u8, u64, [u64; 20]), ScenarioError> {
    let temple_spell_level = keyed_int(
        get!(l, temple_spell_level),
        0..=9,
        DEFAULT_TEMPLE_SPELL_LEVEL.into(),
    )? as u8;
    let starting_gold = keyed_int(get!(l, starting_gold), 0..=MAX_GOLD, 0)? as u64;
    let mut treasure = DEFAULT_TREASURE;
    if let Some(list) = get!(l, treasure) {
        if list.get().len() != 20 {
            return Err(list.error(format!(
                "`treasure` gives the gold per fight won at each level 1 to 20: 20 numbers, got {}",
                list.get().len()
            )));
        }
        for (i, gp) in list.get().iter().enumerate() {
            treasure[i] = keyed_int(Some(list.item(i, gp)), 0..=MAX_GOLD, 0)? as u64;
        }
    }
    Ok((temple_spell_level, starting_gold, treasure))
}

/// The rules of the fights (the nested `fights` table), one day's chain
/// at a time, and what the gaps between a day's fights are.
fn day_fights(
    fights: &Layers<RawFights>,
    catalog: &Catalog,
) -> Result<(EncounterRules, Between), ScenarioError> {
    if let Some(e) = get!(fights, encounters) {
        return Err(e.error(
            "a campaign sets the fights of a day with `fights_per_day`, not `fights.encounters`",
        ));
    }
    let between_given = get!(fights, between_encounters).is_some();
    let mut rules = fight_rules(fights, catalog)?;
    // The campaign plays a day's fights one at a time (the rests between
    // them are the calendar's): each encounter is one fight.
    rules.encounters = 1;
    // The fights of one adventuring day follow each other without a long
    // rest (one comes after the day), unless the fights say otherwise.
    let between = if between_given {
        rules.between
    } else {
        Between::NoRest
    };
    Ok((rules, between))
}

/// Where a level's encounters come from.
enum Encounters<'a> {
    /// Drawn from the `encounters` pool.
    Drawn(Vec<PoolEntry>),
    /// Built for `difficulty` from `monster_pool`.
    Built(Setting<'a, toml::Value>),
}

/// The encounters: built for a difficulty at each level, or drawn from the
/// `encounters` pool (not both), covering every level of the career.
fn encounters<'a>(
    l: &'a Layers<RawSettings>,
    anchor: usize,
    catalog: &Catalog,
    (start, end): (u8, u8),
) -> Result<Encounters<'a>, ScenarioError> {
    let built = get!(l, difficulty);
    match (get!(l, encounters), built) {
        (Some(_), Some(d)) => Err(d.error(
            "give either `difficulty` (with `monster_pool`) or `encounters`, not both",
        )),
        (Some(list), None) => {
            let entries = encounter_pool(&list, catalog)?;
            if let Some(level) =
                (start..=end).find(|l| !entries.iter().any(|e| e.levels.contains(l)))
            {
                return Err(list.error(format!(
                    "no entry of `encounters` covers level {level} of the career (give entries `levels = [lowest, highest]` that cover {start} to {end})"
                )));
            }
            Ok(Encounters::Drawn(entries))
        }
        (None, Some(d)) => Ok(Encounters::Built(d)),
        (None, None) => Err(l.loc().error(
            anchor,
            "difficulty",
            "a campaign needs `difficulty` (e.g. \"moderate\") with `monster_pool`, or an `encounters` pool: its encounters are built for, or drawn at, the party's level",
        )),
    }
}

/// The price list: the defaults with the scenario's overrides.
fn prices(l: &Layers<RawSettings>) -> Result<PriceList, ScenarioError> {
    PriceKeys {
        potions: get!(l, potion_prices),
        services: get!(l, services),
        materials: get!(l, materials),
        items: get!(l, item_prices),
        ..PriceKeys::default()
    }
    .apply(&PriceList::default())
}

/// What every level of the career shares.
struct Career<'a> {
    members: &'a [Member],
    rules: &'a EncounterRules,
    encounters: &'a Encounters<'a>,
    pool: Option<Setting<'a, Vec<Spanned<String>>>>,
    replace_dead: ReplaceDead,
    /// The injury healer's spells that cure injuries, and its progression.
    healer: Option<(&'a [usize], crate::rules::wound_healing::Progression)>,
    temple: bool,
    prices: &'a PriceList,
    treasure: [u64; 20],
}

/// Level `level` of the career: the party's templates at that level
/// against its encounters, the cures of its injuries, its treasure (the
/// healing planner's answers are filled in later).
fn level_plan(c: &Career<'_>, level: u8, catalog: &Catalog) -> Result<LevelPlan, ScenarioError> {
    let templates_at = |level: u8| -> Vec<CreatureSpec> {
        c.members.iter().map(|m| m.at(level, catalog)).collect()
    };
    let templates = templates_at(level);
    // Replacements a level behind fight with the templates one level
    // below (none below level 1).
    let bench =
        (c.replace_dead == ReplaceDead::LevelBelow && level > 1).then(|| templates_at(level - 1));
    let mut fights = Vec::new();
    let fight = |weight, monsters, difficulty| {
        let encounter = Encounter::new(
            templates.clone(),
            monsters,
            c.rules.clone(),
            catalog.wound_examples.clone(),
        );
        LevelFight {
            weight,
            encounter: match &bench {
                Some(below) => encounter.with_bench(below.clone()),
                None => encounter,
            },
            difficulty,
        }
    };
    match c.encounters {
        Encounters::Drawn(entries) => {
            for e in entries.iter().filter(|e| e.levels.contains(&level)) {
                let xp = EncounterXp {
                    xp: e.xp.clone(),
                    monsters: e.groups.clone(),
                    levels: Ok(vec![level; c.members.len()]),
                    built_for: None,
                };
                fights.push(fight(e.weight, e.monsters.clone(), xp));
            }
        }
        Encounters::Built(difficulty) => {
            let (monsters, xp) = build_monsters(
                difficulty.clone(),
                c.pool.clone(),
                Ok(vec![level; c.members.len()]),
                &catalog.bestiary,
            )?;
            fights.push(fight(1, monsters, xp));
        }
    }
    let cures = c
        .rules
        .injuries
        .as_ref()
        .map(|i| injuries::injury_cures(&i.table, &templates, c.healer, c.temple, c.prices));
    Ok(LevelPlan {
        level,
        cures,
        healing: HealingCache::default(),
        fights,
        treasure: c.treasure[usize::from(level) - 1],
    })
}

/// Validates one variant's settings.
pub fn build(l: &Layers<RawSettings>, catalog: &Catalog) -> Result<CampaignVariant, ScenarioError> {
    let anchor = l
        .own()
        .and_then(|t| t.table.name.as_ref())
        .map_or(0, |n| n.span().start);
    let (start, end) = level_range(l, anchor)?;
    // The calendar's keys are read before the party and the fights (so
    // errors come in that order); its gaps come from the fights.
    let mut calendar = calendar(l, anchor, (start, end), Between::NoRest)?;
    let members = party(l, anchor, catalog, start..=end)?;
    let (temple_spell_level, starting_gold, treasure) = purse(l)?;
    let fights = l.nested("fights", |r| &r.fights);
    let (rules, between) = day_fights(&fights, catalog)?;
    calendar.between = between;
    let encounters = encounters(l, anchor, catalog, (start, end))?;
    let pool = get!(l, monster_pool);
    let prices = prices(l)?;
    let replace_dead = or(get!(l, replace_dead), ReplaceDead::default());
    let injury_spells = or(get!(l, injury_spells), InjurySpells::default());
    // The first member whose class casts spells that heal wounds or raise
    // the dead (the class lists of the PC templates).
    let healer = members
        .iter()
        .enumerate()
        .find_map(|(pc, m)| Some((pc, m.healing_class(catalog)?)));
    let career = Career {
        members: &members,
        rules: &rules,
        encounters: &encounters,
        pool,
        replace_dead,
        healer: healer
            .filter(|_| injury_spells != InjurySpells::Never)
            .and_then(|(_, class)| Some((class.injury_spells(), class.progression()?))),
        temple: temple_spell_level > 0,
        prices: &prices,
        treasure,
    };
    let mut levels = (start..=end)
        .map(|level| level_plan(&career, level, catalog))
        .collect::<Result<Vec<_>, _>>()?;
    // Spreading venom (our extension): the attacks it names must be some
    // level's monsters'.
    if let Some(list) = get!(fights, spreading_venom) {
        check_venom_attacks(
            &list,
            levels
                .iter()
                .flat_map(|p| p.fights.iter().flat_map(|f| &f.encounter.monsters)),
        )?;
    }
    let casters: Vec<Caster> = members
        .iter()
        .enumerate()
        .filter_map(|(pc, m)| {
            let (progression, spells) = m.healing_class(catalog)?.healing_caster()?;
            Some(Caster {
                pc,
                progression,
                spells: spells.to_vec(),
            })
        })
        .collect();
    let healing = or(get!(l, healing), HealingSetting::Standard);
    for plan in &mut levels {
        plan.healing =
            HealingCache::new(healing, &casters, plan.level, temple_spell_level, &prices);
    }
    let healer_spells = match (healer, injury_spells) {
        (Some((_, class)), InjurySpells::AfterEachDay | InjurySpells::Downtime) => {
            class.injury_spells().to_vec()
        }
        _ => Vec::new(),
    };
    let injuries = rules.injuries.as_ref().map(|i| i.table.clone());
    let restock_potions = match get!(l, restock_potions) {
        Some(v) => potions(&v.loc, v.value, &v.field)?,
        None => [0; 4],
    };
    Ok(CampaignVariant {
        levels,
        calendar,
        healing,
        temple_spell_level,
        prices,
        starting_gold,
        heal_wounds: or(get!(l, heal_wounds), HealWounds::default()),
        first: or(get!(l, first), First::default()),
        replace_dead,
        raise_dead: or(get!(l, raise_dead), true),
        return_penalty: or(get!(l, return_penalty), ReturnPenalty::default()),
        casters,
        healer: healer.map(|(pc, _)| pc),
        healer_spells,
        cure_injuries: or(get!(l, cure_injuries), true),
        injury_spells,
        rest_cures: or(get!(l, rest_cures), true),
        festering_lost_hp: or(get!(l, festering_lost_hp), LostHp::default()),
        festering: injuries
            .as_ref()
            .map(injuries::festering_rules)
            .unwrap_or_default(),
        injuries,
        restock_potions,
        pc_names: members.iter().map(|m| m.name().to_string()).collect(),
    })
}
