//! Schema of `type = "combat"` scenarios: a party, monsters (listed, or
//! built for a `difficulty` from `monster_pool`) and the encounter options
//! (see `docs/combat.md`). The injury table is the
//! built-in one unless `table` replaces it or `override` changes entries,
//! validated as for `type = "injuries"`.

use serde::Deserialize;
use toml::Spanned;

use super::CombatVariant;
use super::difficulty::{EncounterXp, build_monsters, copies, party_levels};
use crate::combat::creature::CreatureSpec;
use crate::combat::encounter::{Encounter, MAX_PCS, MAX_SIDE};
use crate::combat::policy::{
    AidWhen, AttackDowned, Between, CalledShooters, CalledShots, CombatInjuries, DrinkWhen,
    EncounterRules, HealWhen, LimbAim, Positions, RangedInMelee, SlotChoice, Spending,
    SpreadingVenom, Stabilize, Targeting, WhenPartyFalls,
};
use crate::dice::RollMode;
use crate::model::Catalog;
use crate::rules::death_saves::DeathSaveRules;
use crate::rules::lingering::{AppliesTo, MissTrigger};
use crate::rules::permanent_wounds::{Severity, WoundPolicy};
use crate::scenario::ScenarioError;
use crate::scenario::data::creature::RawCreature;
use crate::scenario::data::injury_table::RawEntry;
use crate::scenario::groups::{Lingering, existing_wounds, impl_injury_keys, lingering};
use crate::scenario::layers::{Layers, Setting, get};
use crate::scenario::values::{self, keyed_int, or};

/// `attack_downed` as written.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawAttackDowned {
    /// Never.
    Never,
    /// With probability `attack_downed_chance`.
    Sometimes,
    /// Always.
    Always,
}

/// One `[options]` or `[[variant]]` table, as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSettings {
    name: Option<Spanned<String>>,
    description: Option<Spanned<String>>,
    party: Option<Spanned<Vec<Spanned<RawCreature>>>>,
    monsters: Option<Spanned<Vec<Spanned<RawCreature>>>>,
    difficulty: Option<Spanned<toml::Value>>,
    monster_pool: Option<Spanned<Vec<Spanned<String>>>>,
    targeting: Option<Spanned<Targeting>>,
    attack_downed: Option<Spanned<RawAttackDowned>>,
    attack_downed_chance: Option<Spanned<f64>>,
    when_party_falls: Option<Spanned<WhenPartyFalls>>,
    heal_when: Option<Spanned<HealWhen>>,
    stabilize: Option<Spanned<Stabilize>>,
    massive_damage: Option<Spanned<bool>>,
    round_cap: Option<Spanned<i64>>,
    crit_range: Option<Spanned<i64>>,
    critical_hits: Option<Spanned<bool>>,
    monsters_flee_below: Option<Spanned<f64>>,
    pub(crate) encounters: Option<Spanned<i64>>,
    pub(crate) between_encounters: Option<Spanned<Between>>,
    wound_effects: Option<Spanned<bool>>,
    wound_policy: Option<Spanned<WoundPolicy>>,
    existing_wounds: Option<Spanned<Vec<Spanned<Severity>>>>,
    death_save_dc: Option<Spanned<i64>>,
    death_save_roll: Option<Spanned<RollMode>>,
    lingering_injuries: Option<Spanned<bool>>,
    injury_chance: Option<Spanned<f64>>,
    table: Option<Spanned<Vec<Spanned<RawEntry>>>>,
    #[serde(rename = "override")]
    overrides: Option<Spanned<Vec<Spanned<RawEntry>>>>,
    miss_trigger: Option<Spanned<MissTrigger>>,
    on_crit_hit: Option<Spanned<bool>>,
    on_crit_miss: Option<Spanned<bool>>,
    applies_to: Option<Spanned<AppliesTo>>,
    bad_weather: Option<Spanned<bool>>,
    spell_slot: Option<Spanned<SlotChoice>>,
    slot_reserve: Option<Spanned<i64>>,
    revivify: Option<Spanned<bool>>,
    aid: Option<Spanned<AidWhen>>,
    drink_potions: Option<Spanned<DrinkWhen>>,
    called_shots: Option<Spanned<CalledShooters>>,
    called_shot_penalty: Option<Spanned<i64>>,
    called_shot_limb: Option<Spanned<LimbAim>>,
    piercing_severs: Option<Spanned<bool>>,
    positions: Option<Spanned<bool>>,
    start_distance: Option<Spanned<i64>>,
    back_line_distance: Option<Spanned<i64>>,
    move_past_front: Option<Spanned<bool>>,
    ranged_in_melee: Option<Spanned<RangedInMelee>>,
    pub(crate) spreading_venom: Option<Spanned<Vec<Spanned<String>>>>,
    venom_clock: Option<Spanned<toml::Value>>,
    venom_amputate: Option<Spanned<bool>>,
    venom_piercing_severs: Option<Spanned<bool>>,
    venom_reattach_minutes: Option<Spanned<i64>>,
}

/// Most rounds a venom's clock may give.
pub const MAX_VENOM_CLOCK: i64 = 1_000;

/// Most attack names `spreading_venom` lists.
pub const MAX_VENOM_ATTACKS: usize = 16;

crate::scenario::impl_named!(RawSettings);
impl_injury_keys!(RawSettings);

/// A share in `[0, 1]` named by its key, or `default`.
fn share(v: Option<Setting<'_, f64>>, default: f64) -> Result<f64, ScenarioError> {
    let what = v.as_ref().map_or(String::new(), |v| v.key().to_string());
    values::probability(v, &what, default)
}

/// One side's creatures as validated: each with whether its entry states
/// its level, the `count name` groups of the entries, and the side's XP
/// (or why it is not available).
pub(crate) struct Side {
    pub(crate) creatures: Vec<(CreatureSpec, bool)>,
    pub(crate) groups: Vec<(usize, String)>,
    pub(crate) xp: Result<u64, String>,
}

/// One side's creatures: `party` or `monsters`, each entry counted and
/// validated against the catalog.
fn creatures(
    l: &Layers<RawSettings>,
    list: Option<Setting<'_, Vec<Spanned<RawCreature>>>>,
    party: bool,
    anchor: usize,
    catalog: &Catalog,
) -> Result<Side, ScenarioError> {
    let key = if party { "party" } else { "monsters" };
    let Some(list) = list else {
        let also = if party {
            ""
        } else {
            " (or `difficulty` with `monster_pool`)"
        };
        return Err(l.loc().error(
            anchor,
            key,
            format!(
                "a combat scenario needs `{key} = [...]`{also} in [options] or in every variant"
            ),
        ));
    };
    side(&list, party, catalog)
}

/// The creatures of the list `list` (a party's when `party`), each entry
/// counted and validated against the catalog: every entry's error, a side
/// of at most [`MAX_SIDE`] monsters or [`MAX_PCS`] party members, party
/// members with distinct metric names.
pub(crate) fn side(
    list: &Setting<'_, Vec<Spanned<RawCreature>>>,
    party: bool,
    catalog: &Catalog,
) -> Result<Side, ScenarioError> {
    let key = if party { "party" } else { "monsters" };
    let (loc, field) = (&list.loc, &list.field);
    // Count first, so that no oversized side is ever built. Every entry's
    // error is reported, not only the first.
    let mut errors = Vec::new();
    let mut counts = Vec::with_capacity(list.get().len());
    for (i, raw) in list.get().iter().enumerate() {
        counts.push(
            raw.get_ref()
                .count(loc, &format!("{field}[{i}]"))
                .unwrap_or_else(|e| {
                    errors.push(e);
                    1
                }),
        );
    }
    let total: usize = counts.iter().sum();
    if total == 0 {
        return Err(list.error(format!("`{key}` is empty")));
    }
    if !party && total > MAX_SIDE {
        return Err(list.error(format!(
            "an encounter has at most {MAX_SIDE} monsters, got {total}"
        )));
    }
    if party && total > MAX_PCS {
        return Err(list.error(format!(
            "a party has at most {MAX_PCS} members, got {total}"
        )));
    }
    let mut out = Vec::with_capacity(total);
    let mut stated = Vec::with_capacity(total);
    let mut groups = Vec::with_capacity(counts.len());
    let mut xp = Ok(0);
    for (i, (raw, &count)) in list.get().iter().zip(&counts).enumerate() {
        let (raw, path) = (raw.get_ref(), format!("{field}[{i}]"));
        let built = raw
            .build(loc, &path, party, &catalog.bestiary, &catalog.templates)
            .and_then(|spec| Ok((raw.xp(loc, &path, &catalog.bestiary)?, spec)));
        let (worth, spec) = match built {
            Ok(built) => built,
            Err(e) => {
                // Every entry's error, not only the first.
                errors.push(e);
                continue;
            }
        };
        xp = match (xp, worth) {
            (Ok(sum), Some(x)) => Ok(sum + x * count as u64),
            (Ok(_), None) => Err(format!(
                "monster `{}` has no XP (give it `xp = N`)",
                spec.name
            )),
            (why, _) => why,
        };
        groups.push((count, spec.name.clone()));
        stated.extend(std::iter::repeat_n(raw.states_level(), count));
        copies(&spec, count, &mut out);
    }
    if let Some(e) = ScenarioError::from_all(errors) {
        return Err(e);
    }
    if party {
        for (i, a) in out.iter().enumerate() {
            if out[..i].iter().any(|b| b.name == a.name) {
                return Err(list.error(format!(
                    "two party members are named `{}`: give each a `name`",
                    a.name
                )));
            }
            let part = crate::results::metric_part(&a.name);
            if part.is_empty() {
                return Err(list.error(format!(
                    "party member `{}` needs a name with a letter or digit: it names metrics such as `p_pc_death_NAME`",
                    a.name
                )));
            }
            if let Some(b) = out[..i]
                .iter()
                .find(|b| crate::results::metric_part(&b.name) == part)
            {
                return Err(list.error(format!(
                    "party members `{}` and `{}` would both name the metrics `p_pc_death_{part}`, ...: rename one",
                    b.name, a.name
                )));
            }
        }
    }
    Ok(Side {
        creatures: out.into_iter().zip(stated).collect(),
        groups,
        xp,
    })
}

/// The monster side: the explicit `monsters` list, or the one `difficulty`
/// builds from `monster_pool`, whichever the highest table giving either
/// gives (both in one table is an error); with its XP against the party's
/// budgets.
fn monster_side(
    l: &Layers<RawSettings>,
    party: &[(CreatureSpec, bool)],
    anchor: usize,
    catalog: &Catalog,
) -> Result<(Vec<CreatureSpec>, EncounterXp), ScenarioError> {
    let levels = party_levels(party);
    // Only the keys of the way taken are read, so that the other way's
    // keys in a variant's table are named as having no effect.
    let top = l
        .group(|t| t.monsters.is_some() || t.difficulty.is_some())
        .filter(|top| top.tables().any(|t| t.table.difficulty.is_some()));
    if let Some(difficulty) = top.as_ref().and_then(|top| get!(top, difficulty)) {
        if let Some(monsters) = top.as_ref().and_then(|top| get!(top, monsters)) {
            return Err(monsters.error(format!(
                "give either `monsters` or `difficulty` here, not both: `{}` builds the monsters from `monster_pool`",
                difficulty.field
            )));
        }
        return build_monsters(difficulty, get!(l, monster_pool), levels, &catalog.bestiary);
    }
    let side = creatures(l, get!(l, monsters), false, anchor, catalog)?;
    Ok((
        side.creatures.into_iter().map(|(c, _)| c).collect(),
        EncounterXp {
            xp: side.xp,
            monsters: side.groups,
            levels,
            built_for: None,
        },
    ))
}

/// Checks that every attack `spreading_venom` names is an attack of one of
/// `monsters` with a rider (the damage that spreads).
pub(crate) fn check_venom_attacks<'m>(
    list: &Setting<'_, Vec<Spanned<String>>>,
    monsters: impl IntoIterator<Item = &'m CreatureSpec>,
) -> Result<(), ScenarioError> {
    let mut with_rider: Vec<&str> = Vec::new();
    for a in monsters
        .into_iter()
        .flat_map(|m| &m.attacks)
        .filter(|a| a.rider.is_some())
    {
        if !with_rider.contains(&a.name.as_str()) {
            with_rider.push(&a.name);
        }
    }
    for (i, name) in list.get().iter().enumerate() {
        if with_rider.contains(&name.get_ref().as_str()) {
            continue;
        }
        let item = list.item(i, name);
        return Err(item.error(if with_rider.is_empty() {
            format!(
                "`{}`: no monster here has an attack with a rider (extra damage on a hit) to spread",
                name.get_ref()
            )
        } else {
            format!(
                "no monster here has an attack `{}` with a rider to spread{}; attacks with riders: {}",
                name.get_ref(),
                crate::scenario::wording::did_you_mean(name.get_ref(), &with_rider),
                with_rider.join(", ")
            )
        }));
    }
    Ok(())
}

/// Validates one variant's settings; what no table gives is
/// [`EncounterRules::default`].
pub fn build(l: &Layers<RawSettings>, catalog: &Catalog) -> Result<CombatVariant, ScenarioError> {
    let anchor = l
        .own()
        .and_then(|t| t.table.name.as_ref())
        .map_or(0, |n| n.span().start);
    // Each side's errors and those of the rules, together.
    let party = creatures(l, get!(l, party), true, anchor, catalog);
    let monsters = match &party {
        Ok(side) => Some(monster_side(l, &side.creatures, anchor, catalog)),
        // Without a party there is no budget: a `difficulty` would only
        // say so, so only a monster list is checked.
        Err(_) if get!(l, difficulty).is_some() => None,
        Err(_) => Some(monster_side(l, &[], anchor, catalog)),
    };
    match (party, monsters, rules(l, catalog)) {
        (Ok(party), Some(Ok((monsters, difficulty))), Ok(rules)) => {
            if let Some(list) = get!(l, spreading_venom) {
                check_venom_attacks(&list, &monsters)?;
            }
            let party: Vec<CreatureSpec> = party.creatures.into_iter().map(|(c, _)| c).collect();
            Ok(CombatVariant {
                encounter: Encounter::new(party, monsters, rules, catalog.wound_examples.clone()),
                difficulty,
            })
        }
        (party, monsters, rules) => {
            let errors = [party.err(), monsters.and_then(Result::err), rules.err()];
            Err(l.loc().errors(errors.into_iter().flatten().collect()))
        }
    }
}

/// The rules of one variant's fight (all but who fights).
pub(crate) fn rules(
    l: &Layers<RawSettings>,
    catalog: &Catalog,
) -> Result<EncounterRules, ScenarioError> {
    let d = EncounterRules::default();
    let targeting = or(get!(l, targeting), d.targeting);
    let chance = {
        let v = get!(l, attack_downed_chance);
        let what = v.as_ref().map_or(String::new(), |v| v.key().to_string());
        values::chance(v, &what, AttackDowned::DEFAULT_CHANCE)?
    };
    let attack_downed = match get!(l, attack_downed).map(|a| a.copied()) {
        None => d.attack_downed,
        Some(RawAttackDowned::Never) => AttackDowned::Never,
        Some(RawAttackDowned::Sometimes) => AttackDowned::Sometimes(chance),
        Some(RawAttackDowned::Always) => AttackDowned::Always,
    };
    let existing = existing_wounds(get!(l, existing_wounds))?;
    let death_saves = DeathSaveRules {
        dc: keyed_int(get!(l, death_save_dc), 1..=30, d.death_saves.dc.into())? as u8,
        roll: or(get!(l, death_save_roll), d.death_saves.roll),
        wound_policy: or(get!(l, wound_policy), d.death_saves.wound_policy),
        existing_wounds: existing,
        ..d.death_saves
    };
    let injuries = if or(get!(l, lingering_injuries), d.injuries.is_some()) {
        let Lingering {
            table,
            trigger,
            miss_trigger,
        } = lingering(l, catalog)?;
        Some(CombatInjuries {
            table,
            trigger,
            miss_trigger,
            bad_weather: or(get!(l, bad_weather), false),
        })
    } else {
        None
    };
    // Called shots at limbs (our extension): their keys are read only when
    // some side makes them (otherwise they are named as having no effect).
    let called_shots = match or(get!(l, called_shots), CalledShooters::Never) {
        CalledShooters::Never => None,
        by => Some(CalledShots {
            by,
            penalty: keyed_int(
                get!(l, called_shot_penalty),
                0..=20,
                CalledShots::DEFAULT_PENALTY.into(),
            )? as i32,
            aim: or(get!(l, called_shot_limb), LimbAim::default()),
            piercing_severs: or(get!(l, piercing_severs), false),
        }),
    };
    // Positions (our approximation): their keys are read only when on.
    let positions = if or(get!(l, positions), false) {
        let d = Positions::DEFAULT;
        Some(Positions {
            start_distance: keyed_int(get!(l, start_distance), 0..=1000, d.start_distance.into())?
                as i32,
            back_line: keyed_int(get!(l, back_line_distance), 0..=1000, d.back_line.into())? as i32,
            move_past_front: or(get!(l, move_past_front), d.move_past_front),
            ranged_in_melee: or(get!(l, ranged_in_melee), d.ranged_in_melee),
        })
    } else {
        None
    };
    // Spreading venom (our extension): its keys are read only when on.
    let venom = match get!(l, spreading_venom) {
        None => None,
        Some(list) => {
            values::at_most(&list, "attacks in `spreading_venom`", MAX_VENOM_ATTACKS)?;
            if list.get().is_empty() {
                return Err(list.error(
                    "`spreading_venom` lists the monster attacks whose rider spreads, e.g. [\"stinger\"]",
                ));
            }
            let clock = match get!(l, venom_clock) {
                None => SpreadingVenom::DEFAULT_CLOCK,
                Some(v) => values::dice_or_int(v, 0, MAX_VENOM_CLOCK, "venom_clock")?,
            };
            Some(SpreadingVenom {
                attacks: list.get().iter().map(|a| a.get_ref().clone()).collect(),
                clock,
                amputate: or(get!(l, venom_amputate), true),
                piercing_severs: or(get!(l, venom_piercing_severs), false),
                reattach_minutes: keyed_int(
                    get!(l, venom_reattach_minutes),
                    0..=10_000,
                    SpreadingVenom::DEFAULT_REATTACH_MINUTES.into(),
                )? as u32,
            })
        }
    };
    let rules = EncounterRules {
        venom,
        positions,
        called_shots,
        injuries,
        death_saves,
        targeting,
        attack_downed,
        when_party_falls: or(get!(l, when_party_falls), d.when_party_falls),
        heal_when: or(get!(l, heal_when), d.heal_when),
        stabilize: or(get!(l, stabilize), d.stabilize),
        massive_damage: or(get!(l, massive_damage), d.massive_damage),
        round_cap: keyed_int(get!(l, round_cap), 1..=1000, d.round_cap.into())? as u32,
        crit_range: match get!(l, crit_range) {
            None => d.crit_range,
            some => Some(keyed_int(some, 2..=20, 20)? as u8),
        },
        critical_hits: or(get!(l, critical_hits), d.critical_hits),
        monsters_flee_below: share(get!(l, monsters_flee_below), d.monsters_flee_below)?,
        encounters: keyed_int(get!(l, encounters), 1..=100, d.encounters.into())? as u32,
        between: or(get!(l, between_encounters), d.between),
        wound_effects: or(get!(l, wound_effects), d.wound_effects),
        spending: Spending {
            slot: or(get!(l, spell_slot), d.spending.slot),
            slot_reserve: keyed_int(
                get!(l, slot_reserve),
                0..=40,
                d.spending.slot_reserve.into(),
            )? as u8,
            revivify: or(get!(l, revivify), d.spending.revivify),
            aid: or(get!(l, aid), d.spending.aid),
            drink_potions: or(get!(l, drink_potions), d.spending.drink_potions),
        },
    };
    Ok(rules)
}
