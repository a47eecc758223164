//! The monster side a `difficulty` builds from `monster_pool` for a party,
//! by the SRD 5.2 encounter budgets ([`crate::rules::encounter_difficulty`]:
//! greedy from the highest XP down), with what the encounter is worth
//! ([`EncounterXp`]).
//!
//! What counts: the party's PCs (`is_pc`; a hireling with `is_pc = false`
//! is no character and adds no budget) at the level their entry states (a
//! `template`, or `level = N`). A PC without a stated level (a bestiary
//! creature, one written from scratch) leaves the budget not available,
//! never 0. A monster's XP is its entry's `xp`, else its bestiary
//! monster's; one without either leaves the encounter's XP not available.

use toml::Spanned;

use super::sides::copies;
use crate::combat::bestiary::Bestiary;
use crate::combat::creature::CreatureSpec;
use crate::combat::encounter::MAX_SIDE;
use crate::rules::encounter_difficulty::{
    Budget, Difficulty, EncounterXp, FillError, budget_of, fill,
};
use crate::scenario::ScenarioError;
use crate::scenario::data::creature::monster;
use crate::scenario::layers::Setting;
use crate::scenario::limits::{MAX_MONSTER_POOL, MAX_XP_BUDGET};
use crate::scenario::values::at_most;

/// The characters' levels of a party: `(creature, whether its entry
/// states its level)`; an error names a PC without one.
pub fn party_levels(party: &[(CreatureSpec, bool)]) -> Result<Vec<u8>, String> {
    let mut levels = Vec::new();
    for (pc, stated) in party.iter().filter(|(c, _)| c.is_pc) {
        if !stated {
            return Err(format!(
                "PC `{}` has no level (give it `level = N` or a `template`)",
                pc.name
            ));
        }
        levels.push(pc.level);
    }
    if levels.is_empty() {
        return Err("no PC in the party".into());
    }
    Ok(levels)
}

/// The XP budget `difficulty` gives: a named difficulty of the party's
/// budget, or a whole number of XP; with a label for reports.
fn asked_budget(
    difficulty: &Setting<'_, toml::Value>,
    party: &Result<Budget, String>,
) -> Result<(u64, String), ScenarioError> {
    let words: Vec<&str> = Difficulty::ALL.iter().map(|(_, w)| *w).collect();
    match difficulty.get() {
        toml::Value::String(word) => {
            let Some(d) = Difficulty::named(word) else {
                let hint = crate::scenario::wording::did_you_mean(word, &words);
                return Err(difficulty.error(format!(
                    "unknown difficulty `{word}`{hint}: one of `low`, `moderate`, `high` (SRD 5.2), or an XP budget as a whole number"
                )));
            };
            let budget = party.as_ref().map_err(|why| {
                difficulty.error(format!(
                    "difficulty `{word}` needs the party's XP budget, which is not available: {why}; or give the budget in XP (`difficulty = 3000`)"
                ))
            })?;
            let xp = budget.of(d);
            Ok((xp, format!("{xp} XP ({word})")))
        }
        toml::Value::Integer(xp) if (1..=MAX_XP_BUDGET).contains(xp) => {
            Ok((*xp as u64, format!("{xp} XP")))
        }
        toml::Value::Integer(xp) => Err(difficulty.error(format!(
            "an XP budget must be between 1 and {MAX_XP_BUDGET}, got {xp}"
        ))),
        other => Err(difficulty.error(format!(
            "difficulty must be `low`, `moderate`, `high` or an XP budget (a whole number), got {}",
            other.type_str()
        ))),
    }
}

/// The monster side `difficulty` builds from `pool` for a party of
/// characters of `levels` (SRD 5.2 budgets, [`fill`]: greedy from the
/// highest XP down), with what it is worth.
pub fn build_monsters(
    difficulty: Setting<'_, toml::Value>,
    pool: Option<Setting<'_, Vec<Spanned<String>>>>,
    levels: Result<Vec<u8>, String>,
    bestiary: &Bestiary,
) -> Result<(Vec<CreatureSpec>, EncounterXp), ScenarioError> {
    let (budget, asked) = asked_budget(&difficulty, &budget_of(&levels))?;
    let Some(pool) = pool else {
        return Err(difficulty.error(
            "`difficulty` needs `monster_pool = [\"NAME\", ...]`: the bestiary monsters to build the encounter from",
        ));
    };
    at_most(&pool, "monsters in `monster_pool`", MAX_MONSTER_POOL)?;
    if pool.get().is_empty() {
        return Err(pool.error("`monster_pool` is empty: name at least one bestiary monster"));
    }
    let mut monsters = Vec::with_capacity(pool.get().len());
    for (i, name) in pool.get().iter().enumerate() {
        let item = pool.item(i, name);
        let m = monster(bestiary, &item.loc, name, &item.field)?;
        if monsters.iter().any(|(k, _, _)| *k == m.key) {
            return Err(item.error(format!("`{}` is in `monster_pool` twice", m.key)));
        }
        let Some(xp) = m.lore.xp else {
            return Err(item.error(format!(
                "`{}` has no XP in the bestiary, so it cannot count against a budget",
                m.key
            )));
        };
        monsters.push((m.key.clone(), &m.spec, u64::from(xp)));
    }
    let xp: Vec<u64> = monsters.iter().map(|(_, _, x)| *x).collect();
    let counts = fill(&xp, budget, MAX_SIDE).map_err(|e| match e {
        FillError::ZeroXp(i) => pool.item(i, &pool.get()[i]).error(format!(
            "`{}` is worth 0 XP: any number of it fits a budget",
            monsters[i].0
        )),
        FillError::NoneFits { cheapest } => difficulty.error(format!(
            "a budget of {asked} fits no monster of `monster_pool`: the cheapest is worth {cheapest} XP"
        )),
        FillError::TooMany { count } => difficulty.error(format!(
            "a budget of {asked} buys {count} monsters of `monster_pool`, more than the {MAX_SIDE} an encounter may have: add a monster worth more XP, or lower the budget"
        )),
    })?;
    let mut specs = Vec::new();
    let mut groups = Vec::new();
    for ((_, spec, _), &count) in monsters.iter().zip(&counts) {
        if count > 0 {
            copies(spec, count as usize, &mut specs);
            groups.push((count as usize, spec.name.clone()));
        }
    }
    let total = xp.iter().zip(&counts).map(|(x, c)| x * c).sum();
    Ok((
        specs,
        EncounterXp {
            xp: Ok(total),
            monsters: groups,
            levels,
            built_for: Some(asked),
        },
    ))
}
