//! The `encounters` pool: weighted monster groups, each for a range of
//! character levels, one drawn per day (or fight) of a level.

use serde::Deserialize;
use toml::Spanned;

use crate::combat::creature::CreatureSpec;
use crate::model::Catalog;
use crate::scenario::ScenarioError;
use crate::scenario::data::creature::RawCreature;
use crate::scenario::fights::sides::side;
use crate::scenario::layers::Setting;
use crate::scenario::values::{self, at_most};

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
pub(super) struct PoolEntry {
    pub(super) weight: u32,
    pub(super) levels: std::ops::RangeInclusive<u8>,
    pub(super) monsters: Vec<CreatureSpec>,
    pub(super) groups: Vec<(usize, String)>,
    pub(super) xp: Result<u64, String>,
}

/// The entries of `encounters`, each validated (every entry's errors).
pub(super) fn encounter_pool(
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
    let side = side(&list, false, None, catalog)?;
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
