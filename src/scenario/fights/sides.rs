//! The creatures of one side of a fight (`party`, `monsters`, or an entry
//! of a campaign's `encounters` pool) as validated against the catalog,
//! and the attacks a spreading venom names (our extension).

use toml::Spanned;

use crate::combat::creature::CreatureSpec;
use crate::combat::encounter::{MAX_PCS, MAX_SIDE};
use crate::model::Catalog;
use crate::scenario::ScenarioError;
use crate::scenario::data::creature::RawCreature;
use crate::scenario::layers::Setting;

/// One side's creatures as validated: each with whether its entry states
/// its level, the `count name` groups of the entries, and the side's XP
/// (or why it is not available).
pub struct Side {
    /// Each creature, with whether its entry states its level.
    pub creatures: Vec<(CreatureSpec, bool)>,
    /// The `count name` groups of the entries.
    pub groups: Vec<(usize, String)>,
    /// The side's XP, or why it is not available.
    pub xp: Result<u64, String>,
}

/// The creatures of the list `list` (a party's when `party`), each entry
/// counted and validated against the catalog: every entry's error, a side
/// of at most [`MAX_SIDE`] monsters or [`MAX_PCS`] party members. (A
/// scenario type that names metrics after party members checks their
/// names itself.) `party_level` builds every class-template entry at that
/// level (a combat scenario's `party_level`).
pub fn side(
    list: &Setting<'_, Vec<Spanned<RawCreature>>>,
    party: bool,
    party_level: Option<u8>,
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
            .build_at_level(
                loc,
                &path,
                party,
                &catalog.bestiary,
                &catalog.templates,
                party_level,
            )
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
    Ok(Side {
        creatures: out.into_iter().zip(stated).collect(),
        groups,
        xp,
    })
}

/// Checks that every attack `spreading_venom` names is an attack of one of
/// `monsters` with a rider (the damage that spreads).
pub fn check_venom_attacks<'m>(
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

/// `count` copies of `spec` onto `out`, numbered (`hobgoblin-1`, ...) when
/// there are several.
pub fn copies(spec: &CreatureSpec, count: usize, out: &mut Vec<CreatureSpec>) {
    for k in 0..count {
        let mut copy = spec.clone();
        if count > 1 {
            copy.name = format!("{}-{}", spec.name, k + 1);
        }
        out.push(copy);
    }
}
