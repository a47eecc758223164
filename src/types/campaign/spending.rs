//! What the party's purse buys between days (docs/campaign.md, "Raising
//! and healing"): for a dead PC, the cheapest castings that raise it; in
//! downtime, the cheapest castings that heal a living PC's permanent wounds
//! as the purchase policy allows. The castings are those of
//! [`crate::rules::wound_healing::plan`] under the variant's healing
//! setting, from the party's living casters at their level (paying the
//! materials) and the temple (its fees, up to its highest spell level).
//! Every decision here is the scenario's policy ([`HealWounds`],
//! [`First`], [`ReplaceDead`]); none is hard-coded.

use super::{CampaignVariant, First, HealWounds};
use crate::combat::encounter::PartyState;
use crate::rules::permanent_wounds::{Severity, WoundSlots};
use crate::rules::prices::SPELLS;
use crate::rules::wound_healing::{
    CastingPurpose, DeadFor, Goal, HealingPlan, HealingSetting, PcState, Provider, Target, plan,
};

/// Gold of a plan, whole gold pieces (the price list's prices are whole).
pub fn gold(plan: &HealingPlan) -> u64 {
    plan.gold().max(0.0).round() as u64
}

/// Who can cast for the party now: each living caster at its level, then
/// the temple when there is one.
pub fn providers(v: &CampaignVariant, party: &PartyState) -> Vec<Provider> {
    let mut out: Vec<Provider> = v
        .casters
        .iter()
        .filter(|c| !party.is_dead(c.pc))
        .map(|c| Provider::Party {
            level: party.level(c.pc),
            progression: c.progression,
            spells: c.spells.clone(),
        })
        .collect();
    if v.temple_spell_level > 0 {
        out.push(Provider::temple(v.temple_spell_level, &v.prices));
    }
    out
}

/// The cheapest castings that raise dead PC `pc`, dead for `dead_for`
/// (a PC killed in a day's fights is raised after the day: past
/// *revivify*'s minute), when a purse of `gold_left` pays for them; `None`
/// when the party does not raise, nobody can cast a raising spell in
/// time, or it costs too much.
pub fn raising(
    v: &CampaignVariant,
    party: &PartyState,
    pc: usize,
    providers: &[Provider],
    gold_left: u64,
    dead_for: DeadFor,
) -> Option<HealingPlan> {
    if !v.raise_dead {
        return None;
    }
    let state = PcState {
        wounds: party.wounds(pc),
        dead_for: Some(dead_for),
        missing_vital_part: false,
    };
    plan(v.healing, &state, Goal::Raise, providers, &v.prices).filter(|p| gold(p) <= gold_left)
}

/// The wounds of a PC carrying `wounds` that the policy lets the party heal.
pub fn wounds_to_heal(policy: HealWounds, wounds: WoundSlots) -> WoundSlots {
    match policy {
        HealWounds::Never => WoundSlots::EMPTY,
        HealWounds::SevereOnly => {
            WoundSlots::from_wounds(wounds.wounds().filter(|&s| s == Severity::Severe))
        }
        HealWounds::WhenAffordable => wounds,
    }
}

/// The castings that heal living PC `pc`'s wounds in downtime within a
/// purse of `gold_left` less the reserve the policy keeps (`reserve`: the
/// price of one raising when raising comes first): all the wounds the
/// policy lets it heal if affordable, else the largest affordable part,
/// most severe first; `None` when nothing is affordable or to heal.
pub fn wound_healing(
    v: &CampaignVariant,
    party: &PartyState,
    pc: usize,
    providers: &[Provider],
    gold_left: u64,
    reserve: u64,
) -> Option<HealingPlan> {
    let wanted = wounds_to_heal(v.heal_wounds, party.wounds(pc));
    if wanted == WoundSlots::EMPTY || party.is_dead(pc) {
        return None;
    }
    let budget = match v.first {
        First::Raise => gold_left.saturating_sub(reserve),
        First::Heal => gold_left,
    };
    let cheapest = |wounds: WoundSlots| {
        let state = PcState {
            wounds,
            dead_for: None,
            missing_vital_part: false,
        };
        plan(v.healing, &state, Goal::HealWounds, providers, &v.prices)
            .filter(|p| gold(p) <= budget)
    };
    if let Some(p) = cheapest(wanted) {
        return Some(p);
    }
    // Part of them: the most severe wound the purse can heal alone.
    Severity::ALL
        .iter()
        .rev()
        .filter(|&&s| wanted.has(s))
        .find_map(|&s| cheapest(WoundSlots::from_wounds([s])))
}

/// The wounds of a PC carrying `carried` that a plan's castings heal
/// under `setting`: what each casting's rule heals of all it carries (a
/// plan found for part of the wounds heals more when its spell does, as
/// the standard setting's *resurrection* heals every wound).
pub fn healed_by(setting: HealingSetting, plan: &HealingPlan, carried: WoundSlots) -> WoundSlots {
    let mut healed = WoundSlots::EMPTY;
    for c in &plan.castings {
        for s in c.heals.wounds() {
            healed = healed.with(s);
        }
        let Some(spell) = SPELLS.get(c.spell) else {
            continue;
        };
        let alive = c.purpose == CastingPurpose::PermanentWounds;
        for rule in setting.rules() {
            if rule.spell == spell.name && matches!(rule.target, Target::Alive) == alive {
                for s in carried.wounds().filter(|s| rule.heals.contains(s)) {
                    healed = healed.with(s);
                }
            }
        }
    }
    healed
}

#[cfg(test)]
mod tests;
