//! The encounter rules of a table of fight keys: every rule of a fight but
//! who fights (docs/combat.md); what no table gives is
//! [`EncounterRules::default`].

use super::{MAX_VENOM_ATTACKS, MAX_VENOM_CLOCK, RawAttackDowned, RawFights};
use crate::combat::policy::{
    AttackDowned, CalledShooters, CalledShots, CombatInjuries, EncounterRules, LimbAim, Positions,
    Spending, SpreadingVenom,
};
use crate::model::Catalog;
use crate::rules::death_saves::DeathSaveRules;
use crate::scenario::ScenarioError;
use crate::scenario::groups::{Lingering, existing_wounds, lingering};
use crate::scenario::layers::{Layers, Setting, get};
use crate::scenario::values::{self, keyed_int, or};

/// A share in `[0, 1]` named by its key, or `default`.
fn share(v: Option<Setting<'_, f64>>, default: f64) -> Result<f64, ScenarioError> {
    let what = v.as_ref().map_or(String::new(), |v| v.key().to_string());
    values::probability(v, &what, default)
}

/// The rules of one variant's fight (all but who fights).
pub fn rules(l: &Layers<RawFights>, catalog: &Catalog) -> Result<EncounterRules, ScenarioError> {
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
        sunlight: or(get!(l, sunlight), d.sunlight),
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
        wound_attack_disadvantage: or(
            get!(l, wound_attack_disadvantage),
            d.wound_attack_disadvantage,
        ),
        lost_leg_prosthesis: or(get!(l, lost_leg_prosthesis), d.lost_leg_prosthesis),
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
            spell_policy: or(get!(l, spell_policy), d.spending.spell_policy),
        },
    };
    Ok(rules)
}
