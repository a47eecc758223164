//! What a campaign's lingering injuries need at each level, compiled once:
//! the cheapest cure of each table entry for each PC, and the festering
//! process of the entries that fester.

use super::super::{FesterRule, InjuryCures};
use crate::combat::creature::CreatureSpec;
use crate::rules::injury_cures::{Plan, Resources};
use crate::rules::lingering::{Cure, Effect, InjuryTable};
use crate::rules::prices::PriceList;
use crate::rules::wound_healing::Progression;

/// The festering process of each entry of `table` that festers (a tending
/// cure and a daily max-HP loss).
pub(super) fn festering_rules(table: &InjuryTable) -> Vec<Option<FesterRule>> {
    table
        .entries
        .iter()
        .map(|entry| {
            let (dc, successes) = entry.cures.iter().find_map(|c| match c {
                Cure::Tending { dc, successes } => Some((*dc, *successes)),
                _ => None,
            })?;
            let hp_per_day = entry.effects.iter().find_map(|e| match e {
                Effect::MaxHpLossPerDay { amount } => Some(*amount),
                _ => None,
            })?;
            Some(FesterRule {
                dc,
                successes: successes.min(255) as u8,
                hp_per_day: hp_per_day.min(1_000) as i32,
            })
        })
        .collect()
}

/// The cheapest cure of each injury-table entry for each PC of `party`
/// (templates at one level), with the healer `healer` (its spells that
/// cure injuries, its progression) alive and without it, and the cheapest without the temple
/// and the market (for a purse that cannot pay).
pub(super) fn injury_cures(
    table: &InjuryTable,
    party: &[CreatureSpec],
    healer: Option<(&[usize], Progression)>,
    temple: bool,
    prices: &PriceList,
) -> InjuryCures {
    let medicine = party.iter().map(|c| c.medicine).max().unwrap_or(0);
    let level = party.first().map_or(1, |c| c.level);
    let resources = |alive: bool, max_hp: i32, paid: bool| {
        let mut r = Resources {
            temple: temple && paid,
            market: paid,
            medicine_bonus: Some(medicine.clamp(-20, 40) as i8),
            max_hp: max_hp.max(1) as u32,
            ..Resources::default()
        };
        if let (true, Some((spells, progression))) = (alive, healer) {
            r.healer_spells = spells.to_vec();
            let top = usize::from(progression.max_spell_level(level)).min(9);
            r.spell_slots[..top].fill(1);
        }
        r
    };
    let plans = |paid: bool| {
        [false, true].map(|alive| {
            party
                .iter()
                .map(|pc| {
                    let r = resources(alive, pc.max_hp, paid);
                    table
                        .entries
                        .iter()
                        .map(|entry| Plan::cheapest(entry, &r, prices))
                        .collect()
                })
                .collect()
        })
    };
    InjuryCures {
        plans: plans(true),
        unpaid: plans(false),
    }
}
