//! Schema of `type = "amputation"` scenarios (docs/rules.md, limb damage,
//!): the race to cut off a limb before a venom
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

mod parts;
mod reattach;

use parts::{RawCreature, RawCutter, RawPoison, creature, cutters, poison};
use reattach::{RawReattach, reattach};

use crate::model::Catalog;
use crate::rules::amputation::{AmputationRules, Target};
use crate::rules::limbs::{DamageType, DamageTypes, LimbEffect, Purpose, limb_effect};
use crate::scenario::ScenarioError;
use crate::scenario::layers::{Layers, get};
use crate::scenario::values::{Opt, dice_or_int, int, or};

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

crate::scenario::impl_named!(RawSettings);

/// Validates one variant's settings.
pub fn build(l: &Layers<RawSettings>, _: &Catalog) -> Result<AmputationRules, ScenarioError> {
    let max_rounds = int(get!(l, max_rounds), 1..=100, "max_rounds", 20)? as u32;
    let piercing_severs = or(get!(l, piercing_severs), false);
    let mut allowed = DamageTypes::NONE;
    let mut allowed_span = 0;
    match get!(l, allowed_types) {
        None => allowed = allowed.with(DamageType::Slashing),
        Some(list) => {
            allowed_span = list.at();
            if list.get().is_empty() {
                return Err(list.error(
                    "allow at least one damage type against the limb (default: [\"slashing\"])",
                ));
            }
            for (i, t) in list.get().iter().enumerate() {
                if limb_effect(*t.get_ref(), piercing_severs) == LimbEffect::Nothing {
                    return Err(list.item(i, t).error(format!(
                        "`{}` damage can neither sever nor disable a limb: slashing severs (piercing too with piercing_severs = true); fire, bludgeoning and psychic disable",
                        t.get_ref().name()
                    )));
                }
                allowed = allowed.with(*t.get_ref());
            }
        }
    }
    let severing = |t: DamageType| limb_effect(t, piercing_severs) == LimbEffect::Sever;
    let purpose_pick = get!(l, purpose);
    let purpose = or(purpose_pick.clone(), Purpose::StopPoison);
    // A problem of the purpose is reported at it, or where it would go.
    let purpose_error = |message: &str| match &purpose_pick {
        Some(p) => p.error(message),
        None => l.error(allowed_span, "purpose", message),
    };
    if purpose == Purpose::StopPoison && !allowed.iter().any(severing) {
        return Err(purpose_error(&format!(
            "purpose `stop_poison` contradicts allowed_types = [{}]: only a severed limb stops a poison, and none of these severs (slashing does; fire, bludgeoning and psychic only disable)",
            allowed.names()
        )));
    }
    let creature = creature(&l.nested("creature", |s| &s.creature))?;
    let Some(list) = get!(l, cutters) else {
        return Err(l.error(
            0,
            "cutters",
            "missing `cutters`: who cuts, with what (e.g. cutters = [{ name = \"longsword\", damage = \"1d8+3\", damage_type = \"slashing\" }])",
        ));
    };
    let cutters = cutters(&list)?;
    for (i, (c, at)) in cutters.iter().enumerate() {
        if !allowed.has(c.damage_type) {
            return Err(list.loc.error(
                *at,
                &format!("{}[{i}].damage_type", list.field),
                format!(
                    "`{}` damage is not allowed against the limb: allowed_types = [{}]",
                    c.damage_type.name(),
                    allowed.names()
                ),
            ));
        }
    }
    if purpose == Purpose::StopPoison && !cutters.iter().any(|(c, _)| severing(c.damage_type)) {
        return Err(list.error(
            "purpose `stop_poison` needs a cutter whose damage severs (slashing by default): a disabled limb does not stop a poison",
        ));
    }
    let target_pick = get!(l, target);
    let target = or(target_pick.clone(), Target::Willing);
    let called_shots = or(get!(l, called_shots), false);
    if let (Target::Unwilling, Some(t), false) = (target, &target_pick, called_shots) {
        return Err(t.error(
            "by the seed only a willing (or helpless) creature's limb can be damaged; an unwilling target needs our called-shot extension: set `called_shots = true`",
        ));
    }
    let penalty = int(
        get!(l, called_shot_penalty),
        0..=20,
        "called_shot_penalty",
        5,
    )? as i32;
    let clock = match get!(l, clock) {
        Some(c) => Some(dice_or_int(
            c,
            0,
            i64::from(max_rounds),
            "the clock (rounds, at most max_rounds)",
        )?),
        None if purpose == Purpose::StopPoison => {
            let at = purpose_pick.as_ref().map_or(allowed_span, |p| p.at());
            return Err(l.error(
                at,
                "clock",
                "purpose `stop_poison` needs a `clock`: the rounds before the venom spreads past the limb (e.g. 3 or \"1d4+1\")",
            ));
        }
        None => None,
    };
    // The venom resolves only when the limb is cut to stop it: a
    // `stop_possession` variant leaves an inherited [options.poison] aside,
    // and may not set one of its own.
    let venom = l.nested("poison", |s| &s.poison);
    let own_venom = venom.own().filter(|t| t.table.is_set());
    let poison = if purpose != Purpose::StopPoison {
        if let Some(own) = own_venom {
            return Err(own.loc.error(
                own.at,
                &own.path,
                "a [poison] table only resolves with purpose = \"stop_poison\"",
            ));
        }
        None
    } else {
        match venom.tables().find(|t| t.table.is_set()) {
            Some(first) => Some(poison(&venom, own_venom.map_or(first.at, |o| o.at))?),
            None => None,
        }
    };
    let healing = l.nested("reattach", |s| &s.reattach);
    let reattach = match healing.tables().find(|t| t.table.is_set()) {
        Some(first) => {
            let at = healing
                .own()
                .filter(|t| t.table.is_set())
                .map_or(first.at, |o| o.at);
            Some(reattach(&healing, at)?)
        }
        None => None,
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
