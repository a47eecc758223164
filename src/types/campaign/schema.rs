//! Schema of `type = "campaign"` scenarios (docs/campaign.md): the party
//! by class, the level range and its calendar, the encounters built for a
//! difficulty at each level from a monster pool, the healing setting, the
//! temple, the purse and the spending policies; the fights' own rules in a
//! nested `fights` table with the keys of `type = "combat"` (validated by
//! the combat schema).

use serde::Deserialize;
use toml::Spanned;

use super::{
    Calendar, CampaignVariant, Caster, Downtime, Draw, FesterRule, First, HealWounds, InjuryCures,
    InjurySpells, LevelFight, LevelPlan, ReplaceDead, ReturnPenalty,
};
use crate::combat::creature::CreatureSpec;
use crate::combat::encounter::{Encounter, MAX_PCS};
use crate::combat::policy::Between;
use crate::model::Catalog;
use crate::rules::encounter_difficulty::EncounterXp;
use crate::rules::festering::LostHp;
use crate::rules::healing::{Plan, Resources};
use crate::rules::lingering::{Cure, Effect, InjuryTable};
use crate::rules::prices::PriceList;
use crate::rules::wound_healing::{HealingSetting, Progression};
use crate::scenario::ScenarioError;
use crate::scenario::data::creature::{RawCreature, RawPotions, potions};
use crate::scenario::fights::budget::build_monsters;
use crate::scenario::fights::sides::{check_venom_attacks, side};
use crate::scenario::fights::{RawFights, rules as fight_rules};
use crate::scenario::layers::{Layers, Setting, get};
use crate::scenario::prices::{PriceKeys, PriceMap};
use crate::scenario::values::{self, at_most, keyed_int, or};
use crate::scenario::wording::did_you_mean;
use crate::types::campaign::spending::HealingCache;

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

/// One party member as written: its class (levelled with the party) or a
/// fixed creature (the same at every level), and its name.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawMember {
    class: Option<Spanned<String>>,
    fixed: Option<Spanned<RawCreature>>,
    name: Option<Spanned<String>>,
}

/// A validated party member.
#[derive(Clone, Debug)]
enum Member {
    /// A PC of an SRD class, its template at the party's level.
    Class {
        /// The class.
        class: String,
        /// Its name.
        name: String,
    },
    /// A creature the same at every level (a hireling, a companion, a PC
    /// built by hand); it casts nothing out of combat.
    Fixed(Box<CreatureSpec>),
}

impl Member {
    fn name(&self) -> &str {
        match self {
            Member::Class { name, .. } => name,
            Member::Fixed(spec) => &spec.name,
        }
    }

    fn class(&self) -> Option<&str> {
        match self {
            Member::Class { class, .. } => Some(class),
            Member::Fixed(_) => None,
        }
    }

    /// Its creature at character `level`.
    fn at(&self, level: u8, catalog: &Catalog) -> CreatureSpec {
        match self {
            Member::Class { class, name } => {
                let mut spec = catalog
                    .templates
                    .template(&format!("{class}-{level}"))
                    .expect("validated: every class has templates to the end level");
                spec.name = name.clone();
                spec
            }
            Member::Fixed(spec) => (**spec).clone(),
        }
    }
}

/// One entry of `encounters` as written: its monsters, weight and levels.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPoolEntry {
    monsters: Spanned<Vec<Spanned<RawCreature>>>,
    weight: Option<Spanned<i64>>,
    levels: Option<Spanned<Vec<Spanned<i64>>>>,
}

/// Most entries in `encounters`.
pub const MAX_POOL_ENTRIES: usize = 64;

/// A validated entry of `encounters`.
struct PoolEntry {
    weight: u32,
    levels: std::ops::RangeInclusive<u8>,
    monsters: Vec<CreatureSpec>,
    groups: Vec<(usize, String)>,
    xp: Result<u64, String>,
}

/// The entries of `encounters`, each validated (every entry's errors).
fn encounter_pool(
    list: &Setting<'_, Vec<Spanned<RawPoolEntry>>>,
    catalog: &Catalog,
) -> Result<Vec<PoolEntry>, ScenarioError> {
    at_most(list, "entries in `encounters`", MAX_POOL_ENTRIES)?;
    if list.get().is_empty() {
        return Err(list.error("`encounters` is empty: give at least one `{ monsters = [...] }`"));
    }
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for (i, entry) in list.get().iter().enumerate() {
        match pool_entry(&list.item(i, entry), catalog) {
            Ok(e) => out.push(e),
            Err(e) => errors.push(e),
        }
    }
    match ScenarioError::from_all(errors) {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// One entry of `encounters`.
fn pool_entry(
    item: &Setting<'_, RawPoolEntry>,
    catalog: &Catalog,
) -> Result<PoolEntry, ScenarioError> {
    let e = item.get();
    let list = item.child("monsters", &e.monsters);
    if list.get().is_empty() {
        return Err(list.error("an `encounters` entry needs at least one monster"));
    }
    let side = side(&list, false, catalog)?;
    let weight = match &e.weight {
        None => 1,
        Some(w) => values::int(Some(item.child("weight", w)), 1..=1000, "weight", 1)? as u32,
    };
    let levels = match &e.levels {
        None => 1..=20,
        Some(range) => {
            let at = item.child("levels", range);
            let bounds: Vec<i64> = range.get_ref().iter().map(|v| *v.get_ref()).collect();
            match bounds[..] {
                [lo, hi] if (1..=20).contains(&lo) && (lo..=20).contains(&hi) => {
                    lo as u8..=hi as u8
                }
                _ => {
                    return Err(at.error(
                        "`levels` is `[lowest, highest]`, two character levels from 1 to 20, the lowest first",
                    ));
                }
            }
        }
    };
    Ok(PoolEntry {
        weight,
        levels,
        monsters: side.creatures.into_iter().map(|(c, _)| c).collect(),
        groups: side.groups,
        xp: side.xp,
    })
}

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

/// The festering process of each entry of `table` that festers (a tending
/// cure and a daily max-HP loss).
fn festering_rules(table: &InjuryTable) -> Vec<Option<FesterRule>> {
    table
        .entries
        .iter()
        .map(|entry| {
            let (dc, successes) = entry.cures.iter().find_map(|c| match c {
                Cure::Tending { dc, successes } => Some((*dc, *successes)),
                _ => None,
            })?;
            let hp_per_day = entry.effects.iter().find_map(|e| match e {
                Effect::MaxHpLossPerDay { amount } => Some(*amount),
                _ => None,
            })?;
            Some(FesterRule {
                dc,
                successes: successes.min(255) as u8,
                hp_per_day: hp_per_day.min(1_000) as i32,
            })
        })
        .collect()
}

crate::scenario::impl_named!(RawSettings);

/// The cheapest cure of each injury-table entry for each PC of `party`
/// (templates at one level), with the healer `healer` (its spells that
/// cure injuries, its progression) alive and without it, and the cheapest without the temple
/// and the market (for a purse that cannot pay).
fn injury_cures(
    table: &crate::rules::lingering::InjuryTable,
    party: &[crate::combat::creature::CreatureSpec],
    healer: Option<(&[usize], Progression)>,
    temple: bool,
    prices: &PriceList,
) -> InjuryCures {
    let medicine = party.iter().map(|c| c.medicine).max().unwrap_or(0);
    let level = party.first().map_or(1, |c| c.level);
    let resources = |alive: bool, max_hp: i32, paid: bool| {
        let mut r = Resources {
            temple: temple && paid,
            market: paid,
            medicine_bonus: Some(medicine.clamp(-20, 40) as i8),
            max_hp: max_hp.max(1) as u32,
            ..Resources::default()
        };
        if let (true, Some((spells, progression))) = (alive, healer) {
            r.healer_spells = spells.to_vec();
            let top = usize::from(progression.max_spell_level(level)).min(9);
            r.spell_slots[..top].fill(1);
        }
        r
    };
    let plans = |paid: bool| {
        [false, true].map(|alive| {
            party
                .iter()
                .map(|pc| {
                    let r = resources(alive, pc.max_hp, paid);
                    table
                        .entries
                        .iter()
                        .map(|entry| Plan::cheapest(entry, &r, prices))
                        .collect()
                })
                .collect()
        })
    };
    InjuryCures {
        plans: plans(true),
        unpaid: plans(false),
    }
}

/// The party as validated: each member's class or creature, and name.
fn party(
    l: &Layers<RawSettings>,
    anchor: usize,
    catalog: &Catalog,
    levels: std::ops::RangeInclusive<u8>,
) -> Result<Vec<Member>, ScenarioError> {
    let Some(list) = get!(l, party) else {
        return Err(l.loc().error(
            anchor,
            "party",
            "a campaign needs `party = [{ class = \"fighter\", name = \"...\" }, ...]` in [options] or in every variant",
        ));
    };
    if list.get().is_empty() {
        return Err(list.error("`party` is empty"));
    }
    if list.get().len() > MAX_PCS {
        return Err(list.error(format!(
            "a party has at most {MAX_PCS} members, got {}",
            list.get().len()
        )));
    }
    let mut out: Vec<Member> = Vec::new();
    let mut errors = Vec::new();
    for (i, member) in list.get().iter().enumerate() {
        let item = list.item(i, member);
        let built = match member_of(&item, i, levels.clone(), catalog) {
            Ok(m) => m,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        let name = built.name().to_string();
        let part = crate::results::metric_part(&name);
        if part.is_empty() {
            errors.push(item.error(format!(
                "party member `{name}` needs a name with a letter or digit: it names metrics"
            )));
            continue;
        }
        if out
            .iter()
            .any(|other| crate::results::metric_part(other.name()) == part)
        {
            errors.push(item.error(format!(
                "two party members are named `{name}`: give each its own `name`"
            )));
            continue;
        }
        out.push(built);
    }
    match ScenarioError::from_all(errors) {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// Party member `i` as written at `item`: a class with templates over the
/// career's `levels`, or one fixed creature.
fn member_of(
    item: &Setting<'_, RawMember>,
    i: usize,
    levels: std::ops::RangeInclusive<u8>,
    catalog: &Catalog,
) -> Result<Member, ScenarioError> {
    let m = item.get();
    let name = match &m.name {
        Some(n) => {
            Some(values::text(&item.child("name", n), "a party member's name", 64)?.to_string())
        }
        None => None,
    };
    match (&m.class, &m.fixed) {
        (Some(class), None) => {
            let class_at = item.child("class", class);
            let class = class.get_ref().trim().to_ascii_lowercase();
            let classes: Vec<&str> = catalog
                .templates
                .classes
                .iter()
                .map(|c| c.name.as_str())
                .collect();
            let Some(template) = catalog.templates.classes.iter().find(|c| c.name == class)
            else {
                return Err(class_at.error(format!(
                    "unknown class `{}`{}; the classes are {}",
                    class_at.get(),
                    did_you_mean(&class, &classes),
                    classes.join(", ")
                )));
            };
            if *levels.end() > template.levels {
                return Err(class_at.error(format!(
                    "class `{class}` has templates up to level {}, and the career goes to level {}",
                    template.levels,
                    levels.end()
                )));
            }
            let name = name.unwrap_or_else(|| format!("{class}-{}", i + 1));
            Ok(Member::Class { class, name })
        }
        (None, Some(raw)) => {
            let at = item.child("fixed", raw);
            let path = at.field.clone();
            if raw.get_ref().count(&at.loc, &path)? != 1 {
                return Err(at.error("a fixed party member is one creature: leave `count` out"));
            }
            let mut spec = raw.get_ref().build(
                &at.loc,
                &path,
                true,
                &catalog.bestiary,
                &catalog.templates,
            )?;
            if let Some(name) = name {
                spec.name = name;
            }
            Ok(Member::Fixed(Box::new(spec)))
        }
        (Some(class), Some(_)) => Err(item.child("class", class).error(
            "give a party member either `class` (levelled with the party) or `fixed` (a creature the same at every level), not both",
        )),
        (None, None) => Err(item.error(
            "a party member needs `class = \"fighter\"` or `fixed = { template = \"...\" }` (a creature entry)",
        )),
    }
}

/// Validates one variant's settings.
pub fn build(l: &Layers<RawSettings>, catalog: &Catalog) -> Result<CampaignVariant, ScenarioError> {
    let anchor = l
        .own()
        .and_then(|t| t.table.name.as_ref())
        .map_or(0, |n| n.span().start);
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
    let members = party(l, anchor, catalog, start..=end)?;
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
    // The fights: the combat schema's rules, one day's chain at a time.
    let fights = l.nested("fights", |r| &r.fights);
    if let Some(e) = get!(fights, encounters) {
        return Err(e.error(
            "a campaign sets the fights of a day with `fights_per_day`, not `fights.encounters`",
        ));
    }
    let between_given = get!(fights, between_encounters).is_some();
    let mut rules = fight_rules(&fights, catalog)?;
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
    // The encounters: built for a difficulty at each level, or drawn
    // from the `encounters` pool (not both).
    let built = get!(l, difficulty);
    let drawn = match get!(l, encounters) {
        Some(list) => {
            if let Some(d) = &built {
                return Err(d.error(
                    "give either `difficulty` (with `monster_pool`) or `encounters`, not both",
                ));
            }
            let entries = encounter_pool(&list, catalog)?;
            if let Some(level) =
                (start..=end).find(|l| !entries.iter().any(|e| e.levels.contains(l)))
            {
                return Err(list.error(format!(
                    "no entry of `encounters` covers level {level} of the career (give entries `levels = [lowest, highest]` that cover {start} to {end})"
                )));
            }
            Some(entries)
        }
        None if built.is_none() => {
            return Err(l.loc().error(
                anchor,
                "difficulty",
                "a campaign needs `difficulty` (e.g. \"moderate\") with `monster_pool`, or an `encounters` pool: its encounters are built for, or drawn at, the party's level",
            ));
        }
        None => None,
    };
    let pool = get!(l, monster_pool);
    let prices = PriceKeys {
        potions: get!(l, potion_prices),
        services: get!(l, services),
        materials: get!(l, materials),
        items: get!(l, item_prices),
        ..PriceKeys::default()
    }
    .apply(&PriceList::default())?;
    let replace_dead = or(get!(l, replace_dead), ReplaceDead::default());
    let injury_spells = or(get!(l, injury_spells), InjurySpells::default());
    // The first member whose class casts spells that heal wounds or raise
    // the dead (the class lists of the PC templates, SRD 5.1).
    let caster_class = |m: &Member| catalog.templates.class(m.class()?);
    let healer = members.iter().enumerate().find_map(|(pc, m)| {
        let class = caster_class(m)?;
        class.healing_caster().map(|(p, _)| (pc, class, p))
    });
    let templates_at =
        |level: u8| -> Vec<CreatureSpec> { members.iter().map(|m| m.at(level, catalog)).collect() };
    let mut levels = Vec::new();
    for level in start..=end {
        let templates = templates_at(level);
        // Replacements a level behind fight with the templates one level
        // below (none below level 1).
        let bench =
            (replace_dead == ReplaceDead::LevelBelow && level > 1).then(|| templates_at(level - 1));
        let mut fights = Vec::new();
        let fight = |weight, monsters, difficulty| {
            let encounter = Encounter::new(
                templates.clone(),
                monsters,
                rules.clone(),
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
        match (&drawn, &built) {
            (Some(entries), _) => {
                for e in entries.iter().filter(|e| e.levels.contains(&level)) {
                    let xp = EncounterXp {
                        xp: e.xp.clone(),
                        monsters: e.groups.clone(),
                        levels: Ok(vec![level; members.len()]),
                        built_for: None,
                    };
                    fights.push(fight(e.weight, e.monsters.clone(), xp));
                }
            }
            (None, Some(difficulty)) => {
                let (monsters, xp) = build_monsters(
                    difficulty.clone(),
                    pool.clone(),
                    Ok(vec![level; members.len()]),
                    &catalog.bestiary,
                )?;
                fights.push(fight(1, monsters, xp));
            }
            (None, None) => unreachable!("checked above: one way or the other"),
        }
        let cures = rules.injuries.as_ref().map(|i| {
            injury_cures(
                &i.table,
                &templates,
                healer
                    .filter(|_| injury_spells != InjurySpells::Never)
                    .map(|(_, class, p)| (class.injury_spells(), p)),
                temple_spell_level > 0,
                &prices,
            )
        });
        levels.push(LevelPlan {
            level,
            cures,
            healing: HealingCache::default(),
            fights,
            treasure: treasure[usize::from(level) - 1],
        });
    }
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
            let (progression, spells) = caster_class(m)?.healing_caster()?;
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
        (Some((_, class, _)), InjurySpells::AfterEachDay | InjurySpells::Downtime) => {
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
        calendar: Calendar {
            days_per_level: days,
            adventures_per_level: adventures,
            fights_per_day,
            short_rests,
            between,
            travel_days,
            downtime,
            draw: or(get!(l, draw), Draw::default()),
        },
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
        healer: healer.map(|(pc, _, _)| pc),
        healer_spells,
        cure_injuries: or(get!(l, cure_injuries), true),
        injury_spells,
        rest_cures: or(get!(l, rest_cures), true),
        festering_lost_hp: or(get!(l, festering_lost_hp), LostHp::default()),
        festering: injuries.as_ref().map(festering_rules).unwrap_or_default(),
        injuries,
        restock_potions,
        pc_names: members.iter().map(|m| m.name().to_string()).collect(),
    })
}
