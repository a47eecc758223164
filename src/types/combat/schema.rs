//! Schema of `type = "combat"` scenarios: a party and monsters (listed, or
//! built for a `difficulty` from `monster_pool`) under the fight keys of
//! [`crate::scenario::fights`] (docs/combat.md).

use toml::Spanned;

use super::CombatVariant;
use crate::combat::creature::CreatureSpec;
use crate::combat::encounter::Encounter;
use crate::model::Catalog;
use crate::rules::encounter_difficulty::EncounterXp;
use crate::scenario::ScenarioError;
use crate::scenario::data::creature::RawCreature;
use crate::scenario::fights::budget::{build_monsters, party_levels};
use crate::scenario::fights::sides::{Side, check_venom_attacks, side};
use crate::scenario::fights::{RawFights, rules};
use crate::scenario::layers::{Layers, Setting, get};

/// One `[options]` or `[[variant]]` table, as written: the fight keys.
pub type RawSettings = RawFights;

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
    let side = side(
        &list,
        party,
        party_level(l, &list, party, catalog)?,
        catalog,
    )?;
    if party {
        named_for_metrics(&list, &side)?;
    }
    Ok(side)
}

/// `party_level`, read for the party side only: the level every
/// class-template member is built at, which needs a member from a template.
fn party_level(
    l: &Layers<RawSettings>,
    list: &Setting<'_, Vec<Spanned<RawCreature>>>,
    party: bool,
    catalog: &Catalog,
) -> Result<Option<u8>, ScenarioError> {
    let Some(level) = party.then(|| get!(l, party_level)).flatten() else {
        return Ok(None);
    };
    if !list.get().iter().any(|e| e.get_ref().from_template()) {
        return Err(level.error(
            "`party_level` sets the level of the party's class templates, and no member of `party` is built from a `template`",
        ));
    }
    let max = i64::from(catalog.templates.max_level());
    let value = crate::scenario::values::int(Some(level), 1..=max, "a level", 1)?;
    Ok(Some(value as u8))
}

/// Checks that the party's members have distinct names, each with a
/// letter or digit and each its own metric name (`p_pc_death_NAME`).
fn named_for_metrics(
    list: &Setting<'_, Vec<Spanned<RawCreature>>>,
    side: &Side,
) -> Result<(), ScenarioError> {
    let out: Vec<&CreatureSpec> = side.creatures.iter().map(|(c, _)| c).collect();
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
    Ok(())
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
