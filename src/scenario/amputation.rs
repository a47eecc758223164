//! Schema of `type = "amputation"` scenarios (RULES.md §3,
//! `seeds/amputation.ru.txt`): the race to cut off a limb before a venom
//! spreads (or to stop a possessed limb), and the reattachment of a severed
//! limb. Every key is optional in `[options]` and may be overridden per
//! `[[variant]]`; nested tables (`creature`, `poison`, `reattach`) are
//! overridden key by key, lists (`cutters`, `armor`, `healing`) as a whole.
//!
//! ```toml
//! [options]
//! purpose = "stop_poison"          # stop_poison | stop_possession
//! allowed_types = ["slashing"]     # slashing severs; fire, bludgeoning, psychic disable
//! piercing_severs = false          # the seed's "sharp damage" reading
//! target = "willing"               # willing | helpless | unwilling (extension)
//! called_shots = false             # our called-shot extension (needed for unwilling)
//! called_shot_penalty = 5          # attack penalty of a called shot, 0..=20
//! clock = 3                        # rounds before the venom spreads: 0..=max_rounds, or "1d4+1"
//! max_rounds = 20                  # horizon, 1..=100
//! [options.creature]
//! size = "medium"                  # tiny small medium large huge gargantuan
//! limb = "arm"                     # arm | leg | head (needs head_amputable and head_hp)
//! arm_hp = 5                       # overrides of the size table (also leg_hp, head_hp)
//! hp = 30                          # the creature's HP (the venom's target)
//! max_hp = 30
//! con_save = 0
//! ac = 10                          # without the armor pieces below
//! resistances = []                 # also immunities, vulnerabilities
//! damage_reduction = 0             # flat, per hit
//! at_zero_hp = "dies"              # dies | death_saves
//! armor = [{ name = "chain shirt", covers = ["arm"], ac_bonus = 3, damage_reduction = 0, resistances = [] }]
//! [[options.cutters]]
//! name = "longsword"
//! damage = "1d8+3"
//! damage_type = "slashing"
//! attacks = 1                      # per round
//! attack_bonus = 5                 # when attacks roll
//! roll = "normal"                  # normal | advantage | disadvantage
//! crit_on = 20
//! [options.poison]                 # only with stop_poison
//! damage = "7d6"
//! damage_type = "poison"
//! save_dc = 15                     # Constitution save for half; omit for no save
//! [options.reattach]
//! window_minutes = 60
//! delay_minutes = 1                # or dice, e.g. "2d10"
//! healing = [{ kind = "cure_wounds", slot = 1, modifier = 3, uses = 2, target = "limb" }]
//! ```

use serde::Deserialize;
use toml::Spanned;

use super::amputation_healing::{RawReattach, reattach};
use super::amputation_parts::{
    Opt, RawCreature, RawCutter, RawPoison, creature, cutters, dice_or_int, int, poison,
};
use super::{Locator, ScenarioError, pick};
use crate::rules::amputation::{AmputationRules, Target};
use crate::rules::limbs::{DamageType, DamageTypes, LimbEffect, Purpose, limb_effect};

/// The `type` value of this schema.
pub const TYPE_NAME: &str = "amputation";

/// One `[options]` or `[[variant]]` table, as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSettings {
    name: Opt<String>,
    description: Option<Spanned<String>>,
    purpose: Opt<Purpose>,
    allowed_types: Opt<Vec<Spanned<DamageType>>>,
    piercing_severs: Opt<bool>,
    target: Opt<Target>,
    called_shots: Opt<bool>,
    called_shot_penalty: Opt<i64>,
    clock: Opt<toml::Value>,
    max_rounds: Opt<i64>,
    creature: Opt<RawCreature>,
    cutters: Opt<Vec<RawCutter>>,
    poison: Opt<RawPoison>,
    reattach: Opt<RawReattach>,
}

super::impl_named!(RawSettings);

/// Where a table starts (or the start of the file), and the table itself.
fn table<'a, T: Default>(t: &'a Opt<T>, empty: &'a T) -> (usize, &'a T) {
    t.as_ref()
        .map_or((0, empty), |s| (s.span().start, s.get_ref()))
}

/// Validates one variant: `variant` overrides `base` key by key.
pub fn build(
    loc: &Locator,
    base: &RawSettings,
    variant: &RawSettings,
    path: &str,
) -> Result<AmputationRules, ScenarioError> {
    macro_rules! get {
        ($k:ident) => {
            pick(&variant.$k, &base.$k, path, stringify!($k))
        };
    }
    let max_rounds = int(loc, get!(max_rounds), 1..=100, "max_rounds", 20)? as u32;
    let piercing_severs = get!(piercing_severs).is_some_and(|(p, _)| *p.get_ref());
    let mut allowed = DamageTypes::NONE;
    let mut allowed_span = 0;
    match get!(allowed_types) {
        None => allowed = allowed.with(DamageType::Slashing),
        Some((list, field)) => {
            allowed_span = list.span().start;
            if list.get_ref().is_empty() {
                return Err(loc.error(
                    list.span().start,
                    &field,
                    "allow at least one damage type against the limb (default: [\"slashing\"])",
                ));
            }
            for (i, t) in list.get_ref().iter().enumerate() {
                if limb_effect(*t.get_ref(), piercing_severs) == LimbEffect::Nothing {
                    return Err(loc.error(
                        t.span().start,
                        &format!("{field}[{i}]"),
                        format!(
                            "`{}` damage can neither sever nor disable a limb: slashing severs (piercing too with piercing_severs = true); fire, bludgeoning and psychic disable",
                            t.get_ref().name()
                        ),
                    ));
                }
                allowed = allowed.with(*t.get_ref());
            }
        }
    }
    let severing = |t: DamageType| limb_effect(t, piercing_severs) == LimbEffect::Sever;
    let purpose_pick = get!(purpose);
    let purpose = purpose_pick
        .as_ref()
        .map_or(Purpose::StopPoison, |(p, _)| *p.get_ref());
    let (purpose_at, purpose_field) = purpose_pick
        .as_ref()
        .map_or((allowed_span, format!("{path}.purpose")), |(p, f)| {
            (p.span().start, f.clone())
        });
    if purpose == Purpose::StopPoison && !allowed.iter().any(severing) {
        return Err(loc.error(
            purpose_at,
            &purpose_field,
            format!(
                "purpose `stop_poison` contradicts allowed_types = [{}]: only a severed limb stops a poison, and none of these severs (slashing does; fire, bludgeoning and psychic only disable)",
                allowed.names()
            ),
        ));
    }
    let empty_creature = RawCreature::default();
    let creature = creature(
        loc,
        table(&base.creature, &empty_creature).1,
        table(&variant.creature, &empty_creature).1,
        path,
    )?;
    let Some((list, field)) = get!(cutters) else {
        return Err(loc.error(
            0,
            &format!("{path}.cutters"),
            "missing `cutters`: who cuts, with what (e.g. cutters = [{ name = \"longsword\", damage = \"1d8+3\", damage_type = \"slashing\" }])",
        ));
    };
    let cutters = cutters(loc, list, &field)?;
    for (i, (c, at)) in cutters.iter().enumerate() {
        if !allowed.has(c.damage_type) {
            return Err(loc.error(
                *at,
                &format!("{field}[{i}].damage_type"),
                format!(
                    "`{}` damage is not allowed against the limb: allowed_types = [{}]",
                    c.damage_type.name(),
                    allowed.names()
                ),
            ));
        }
    }
    if purpose == Purpose::StopPoison && !cutters.iter().any(|(c, _)| severing(c.damage_type)) {
        return Err(loc.error(
            list.span().start,
            &field,
            "purpose `stop_poison` needs a cutter whose damage severs (slashing by default): a disabled limb does not stop a poison",
        ));
    }
    let target_pick = get!(target);
    let target = target_pick
        .as_ref()
        .map_or(Target::Willing, |(t, _)| *t.get_ref());
    let called_shots = get!(called_shots).is_some_and(|(c, _)| *c.get_ref());
    if let (Target::Unwilling, Some((t, f)), false) = (target, &target_pick, called_shots) {
        return Err(loc.error(
            t.span().start,
            f,
            "by the seed only a willing (or helpless) creature's limb can be damaged; an unwilling target needs our called-shot extension: set `called_shots = true`",
        ));
    }
    let penalty = int(
        loc,
        get!(called_shot_penalty),
        0..=20,
        "called_shot_penalty",
        5,
    )? as i32;
    let clock = match get!(clock) {
        Some((c, f)) => Some(dice_or_int(
            loc,
            c,
            &f,
            0,
            i64::from(max_rounds),
            "the clock (rounds, at most max_rounds)",
        )?),
        None if purpose == Purpose::StopPoison => {
            return Err(loc.error(
                purpose_at,
                &format!("{path}.clock"),
                "purpose `stop_poison` needs a `clock`: the rounds before the venom spreads past the limb (e.g. 3 or \"1d4+1\")",
            ));
        }
        None => None,
    };
    let empty_poison = RawPoison::default();
    let (base_at, base_poison) = table(&base.poison, &empty_poison);
    let (var_at, var_poison) = table(&variant.poison, &empty_poison);
    // The venom resolves only when the limb is cut to stop it: a
    // `stop_possession` variant leaves an inherited [options.poison] aside,
    // and may not set one of its own.
    let poison = if purpose != Purpose::StopPoison {
        if var_poison.is_set() {
            return Err(loc.error(
                var_at,
                &format!("{path}.poison"),
                "a [poison] table only resolves with purpose = \"stop_poison\"",
            ));
        }
        None
    } else if base_poison.is_set() || var_poison.is_set() {
        let at = if var_poison.is_set() { var_at } else { base_at };
        Some(poison(loc, at, base_poison, var_poison, path)?)
    } else {
        None
    };
    let empty_reattach = RawReattach::default();
    let (base_at, base_re) = table(&base.reattach, &empty_reattach);
    let (var_at, var_re) = table(&variant.reattach, &empty_reattach);
    let reattach = if base_re.is_set() || var_re.is_set() {
        let at = if var_re.is_set() { var_at } else { base_at };
        Some(reattach(loc, at, base_re, var_re, path)?)
    } else {
        None
    };
    Ok(AmputationRules {
        creature,
        cutters: cutters.into_iter().map(|(c, _)| c).collect(),
        purpose,
        allowed_types: allowed,
        piercing_severs,
        target,
        called_shot_penalty: penalty,
        clock,
        max_rounds,
        poison,
        reattach,
    })
}
