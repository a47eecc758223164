//! Schema of `type = "combat"` scenarios: a party, monsters and the
//! encounter options (see `README.md`, "Combat"). The injury table is the
//! built-in one unless `table` replaces it or `override` changes entries,
//! validated as for `type = "injuries"`.

use serde::Deserialize;
use toml::Spanned;

use super::creature::RawCreature;
use super::injury_table::RawEntry;
use super::{Locator, ScenarioError, injury_table, pick, values};
use crate::combat::creature::CreatureSpec;
use crate::combat::encounter::{Encounter, MAX_PCS, MAX_SIDE};
use crate::combat::policy::{
    AttackDowned, Between, CombatInjuries, EncounterRules, HealWhen, Stabilize, Targeting,
    WhenPartyFalls,
};
use crate::dice::RollMode;
use crate::rules::death_saves::DeathSaveRules;
use crate::rules::lingering::{AppliesTo, MissTrigger, Trigger};
use crate::rules::permanent_wounds::{Severity, WoundPolicy, WoundSlots};

/// The `type` value of this schema.
pub const TYPE_NAME: &str = "combat";

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
    encounters: Option<Spanned<i64>>,
    between_encounters: Option<Spanned<Between>>,
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
}

super::impl_named!(RawSettings);

fn int(
    loc: &Locator,
    v: Option<(&Spanned<i64>, String)>,
    range: std::ops::RangeInclusive<i64>,
    default: i64,
) -> Result<i64, ScenarioError> {
    let what = v
        .as_ref()
        .map_or(String::new(), |(_, f)| values::key_of(f).to_string());
    values::int(loc, v, range, &what, default)
}

fn probability(
    loc: &Locator,
    v: Option<(&Spanned<f64>, String)>,
    default: f64,
) -> Result<f64, ScenarioError> {
    let what = v
        .as_ref()
        .map_or(String::new(), |(_, f)| values::key_of(f).to_string());
    values::probability(loc, v, &what, default)
}

fn creatures(
    loc: &Locator,
    list: Option<(&Spanned<Vec<Spanned<RawCreature>>>, String)>,
    party: bool,
    anchor: usize,
) -> Result<Vec<CreatureSpec>, ScenarioError> {
    let key = if party { "party" } else { "monsters" };
    let Some((list, field)) = list else {
        return Err(loc.error(
            anchor,
            key,
            format!("a combat scenario needs `{key} = [...]` in [options] or in every variant"),
        ));
    };
    // Count first, so that no oversized side is ever built.
    let mut counts = Vec::with_capacity(list.get_ref().len());
    for (i, raw) in list.get_ref().iter().enumerate() {
        counts.push(raw.get_ref().count(loc, &format!("{field}[{i}]"))?);
    }
    let total: usize = counts.iter().sum();
    if total == 0 {
        return Err(loc.error(list.span().start, &field, format!("`{key}` is empty")));
    }
    if !party && total > MAX_SIDE {
        return Err(loc.error(
            list.span().start,
            &field,
            format!("an encounter has at most {MAX_SIDE} monsters, got {total}"),
        ));
    }
    if party && total > MAX_PCS {
        return Err(loc.error(
            list.span().start,
            &field,
            format!("a party has at most {MAX_PCS} members, got {total}"),
        ));
    }
    let mut out = Vec::with_capacity(total);
    for (i, (raw, &count)) in list.get_ref().iter().zip(&counts).enumerate() {
        let spec = raw.get_ref().build(loc, &format!("{field}[{i}]"), party)?;
        for k in 0..count {
            let mut copy = spec.clone();
            if count > 1 {
                copy.name = format!("{}-{}", spec.name, k + 1);
            }
            out.push(copy);
        }
    }
    if party {
        for (i, a) in out.iter().enumerate() {
            if out[..i].iter().any(|b| b.name == a.name) {
                return Err(loc.error(
                    list.span().start,
                    &field,
                    format!(
                        "two party members are named `{}`: give each a `name`",
                        a.name
                    ),
                ));
            }
        }
    }
    Ok(out)
}

/// Validates one variant: `variant` overrides `base` key by key.
pub fn build(
    loc: &Locator,
    base: &RawSettings,
    variant: &RawSettings,
    path: &str,
) -> Result<Encounter, ScenarioError> {
    let anchor = variant.name.as_ref().map_or(0, |n| n.span().start);
    let party = creatures(
        loc,
        pick(&variant.party, &base.party, path, "party"),
        true,
        anchor,
    )?;
    let monsters = creatures(
        loc,
        pick(&variant.monsters, &base.monsters, path, "monsters"),
        false,
        anchor,
    )?;
    let get = |v: &Option<Spanned<Targeting>>, b: &Option<Spanned<Targeting>>, k: &str| {
        pick(v, b, path, k).map_or(Targeting::default(), |(t, _)| *t.get_ref())
    };
    let targeting = get(&variant.targeting, &base.targeting, "targeting");
    let chance = {
        let v = pick(
            &variant.attack_downed_chance,
            &base.attack_downed_chance,
            path,
            "attack_downed_chance",
        );
        let what = v
            .as_ref()
            .map_or(String::new(), |(_, f)| values::key_of(f).to_string());
        values::chance(loc, v, &what, AttackDowned::DEFAULT_CHANCE)?
    };
    let attack_downed = match pick(
        &variant.attack_downed,
        &base.attack_downed,
        path,
        "attack_downed",
    )
    .map(|(a, _)| *a.get_ref())
    {
        None | Some(RawAttackDowned::Never) => AttackDowned::Never,
        Some(RawAttackDowned::Sometimes) => AttackDowned::Sometimes(chance),
        Some(RawAttackDowned::Always) => AttackDowned::Always,
    };
    let mut existing = WoundSlots::EMPTY;
    if let Some((list, field)) = pick(
        &variant.existing_wounds,
        &base.existing_wounds,
        path,
        "existing_wounds",
    ) {
        for (i, w) in list.get_ref().iter().enumerate() {
            if existing.has(*w.get_ref()) {
                return Err(loc.error(
                    w.span().start,
                    &format!("{field}[{i}]"),
                    format!(
                        "`{}` is listed twice: a PC carries at most one wound of each severity",
                        w.get_ref().name()
                    ),
                ));
            }
            existing = existing.with(*w.get_ref());
        }
    }
    let defaults = EncounterRules::default();
    let death_saves = DeathSaveRules {
        dc: int(
            loc,
            pick(
                &variant.death_save_dc,
                &base.death_save_dc,
                path,
                "death_save_dc",
            ),
            1..=30,
            10,
        )? as u8,
        roll: pick(
            &variant.death_save_roll,
            &base.death_save_roll,
            path,
            "death_save_roll",
        )
        .map_or(RollMode::Normal, |(r, _)| *r.get_ref()),
        wound_policy: pick(
            &variant.wound_policy,
            &base.wound_policy,
            path,
            "wound_policy",
        )
        .map_or(WoundPolicy::Never, |(w, _)| *w.get_ref()),
        existing_wounds: existing,
        ..DeathSaveRules::default()
    };
    let flag = |v: &Option<Spanned<bool>>, b: &Option<Spanned<bool>>, k: &str, d: bool| {
        pick(v, b, path, k).map_or(d, |(x, _)| *x.get_ref())
    };
    let injuries = if flag(
        &variant.lingering_injuries,
        &base.lingering_injuries,
        "lingering_injuries",
        false,
    ) {
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
        Some(CombatInjuries {
            table,
            miss_trigger: pick(
                &variant.miss_trigger,
                &base.miss_trigger,
                path,
                "miss_trigger",
            )
            .map_or(MissTrigger::Natural1, |(m, _)| *m.get_ref()),
            trigger: Trigger {
                on_crit_hit: flag(&variant.on_crit_hit, &base.on_crit_hit, "on_crit_hit", true),
                on_crit_miss: flag(
                    &variant.on_crit_miss,
                    &base.on_crit_miss,
                    "on_crit_miss",
                    true,
                ),
                applies_to: pick(&variant.applies_to, &base.applies_to, path, "applies_to")
                    .map_or(AppliesTo::Both, |(a, _)| *a.get_ref()),
            },
            bad_weather: flag(
                &variant.bad_weather,
                &base.bad_weather,
                "bad_weather",
                false,
            ),
        })
    } else {
        None
    };
    let rules = EncounterRules {
        injuries,
        death_saves,
        targeting,
        attack_downed,
        when_party_falls: pick(
            &variant.when_party_falls,
            &base.when_party_falls,
            path,
            "when_party_falls",
        )
        .map_or(defaults.when_party_falls, |(w, _)| *w.get_ref()),
        heal_when: pick(&variant.heal_when, &base.heal_when, path, "heal_when")
            .map_or(defaults.heal_when, |(h, _)| *h.get_ref()),
        stabilize: pick(&variant.stabilize, &base.stabilize, path, "stabilize")
            .map_or(defaults.stabilize, |(h, _)| *h.get_ref()),
        massive_damage: flag(
            &variant.massive_damage,
            &base.massive_damage,
            "massive_damage",
            true,
        ),
        round_cap: int(
            loc,
            pick(&variant.round_cap, &base.round_cap, path, "round_cap"),
            1..=1000,
            50,
        )? as u32,
        crit_range: match pick(&variant.crit_range, &base.crit_range, path, "crit_range") {
            None => None,
            some => Some(int(loc, some, 2..=20, 20)? as u8),
        },
        critical_hits: flag(
            &variant.critical_hits,
            &base.critical_hits,
            "critical_hits",
            true,
        ),
        monsters_flee_below: probability(
            loc,
            pick(
                &variant.monsters_flee_below,
                &base.monsters_flee_below,
                path,
                "monsters_flee_below",
            ),
            0.0,
        )?,
        encounters: int(
            loc,
            pick(&variant.encounters, &base.encounters, path, "encounters"),
            1..=100,
            1,
        )? as u32,
        between: pick(
            &variant.between_encounters,
            &base.between_encounters,
            path,
            "between_encounters",
        )
        .map_or(defaults.between, |(b, _)| *b.get_ref()),
        wound_effects: flag(
            &variant.wound_effects,
            &base.wound_effects,
            "wound_effects",
            true,
        ),
    };
    Ok(Encounter::new(party, monsters, rules))
}
