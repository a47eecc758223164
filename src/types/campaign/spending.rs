//! What the party's purse buys between days (docs/campaign.md, "Raising
//! and healing"): for a dead PC, the cheapest castings that raise it; in
//! downtime, the cheapest castings that heal a living PC's permanent wounds
//! as the purchase policy allows. The castings are those of
//! [`crate::rules::wound_healing::plan`] under the variant's healing
//! setting, from the party's living casters at their level (paying the
//! materials) and the temple (up to its highest spell level, its fee on
//! top of the materials).
//! Every decision here is the scenario's policy ([`HealWounds`],
//! [`First`], [`ReplaceDead`]); none is hard-coded.

use super::{CampaignVariant, Caster, First, HealWounds};
use crate::combat::encounter::PartyState;
use crate::rules::permanent_wounds::{Severity, WoundSlots};
use crate::rules::prices::PriceList;
use crate::rules::prices::SPELLS;
use crate::rules::wound_healing::{
    CastingPurpose, DeadFor, Goal, HealingPlan, HealingSetting, PcState, Provider, Target, plan,
};

/// Gold of a plan, whole gold pieces (the price list's prices are whole).
pub fn gold(plan: &HealingPlan) -> u64 {
    plan.gold().max(0.0).round() as u64
}

/// Who can cast for the party in town: each living caster at its level,
/// then the temple when there is one.
pub fn providers(v: &CampaignVariant, party: &PartyState) -> Vec<Provider> {
    providers_in(v, party, true)
}

/// Who can cast for the party: each living caster at its level, then the
/// temple when there is one and the party can reach it (`temple`: in
/// town, or on an adventure a day's trip from it).
pub fn providers_in(v: &CampaignVariant, party: &PartyState, temple: bool) -> Vec<Provider> {
    providers_of(
        &v.casters,
        |c| (!party.is_dead(c.pc)).then(|| party.level(c.pc)),
        if temple { v.temple_spell_level } else { 0 },
        &v.prices,
    )
}

/// The providers of `casters` that `level` gives a level (the living),
/// then a temple of `temple_spell_level` (0: none).
fn providers_of(
    casters: &[Caster],
    level: impl Fn(&Caster) -> Option<u8>,
    temple_spell_level: u8,
    prices: &PriceList,
) -> Vec<Provider> {
    let mut out: Vec<Provider> = casters
        .iter()
        .filter_map(|c| {
            Some(Provider::Party {
                level: level(c)?,
                progression: c.progression,
                spells: c.spells.clone(),
            })
        })
        .collect();
    if temple_spell_level > 0 {
        out.push(Provider::temple(temple_spell_level, prices));
    }
    out
}

/// Index of a set of wounds (minor 1, moderate 2, severe 4).
fn wound_set(wounds: WoundSlots) -> usize {
    Severity::ALL
        .iter()
        .enumerate()
        .filter(|(_, s)| wounds.has(**s))
        .map(|(i, _)| 1 << i)
        .sum()
}

/// Most casters whose living subsets a [`HealingCache`] tabulates; beyond
/// them the planner runs each time.
pub const MAX_CACHED_CASTERS: usize = 6;

/// The planner's answers at one level, tabulated once per scenario: for
/// each subset of living casters, the cheapest castings that heal each set
/// of wounds, and the price of the cheapest raising (the reserve).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HealingCache {
    /// `[living-caster mask][wound set]`.
    heal: Vec<[Option<HealingPlan>; 8]>,
    /// `[living-caster mask]`: gold of the cheapest raising of a PC with
    /// no wound, dead for half a day (0: none possible).
    reserve: Vec<u64>,
}

impl HealingCache {
    /// Tabulates the plans of a party whose casters are `casters`, at
    /// character `level` (empty beyond [`MAX_CACHED_CASTERS`]).
    pub fn new(
        setting: HealingSetting,
        casters: &[Caster],
        level: u8,
        temple_spell_level: u8,
        prices: &PriceList,
    ) -> Self {
        if casters.len() > MAX_CACHED_CASTERS {
            return HealingCache::default();
        }
        let mut cache = HealingCache::default();
        for mask in 0..1usize << casters.len() {
            let alive = |c: &Caster| {
                let k = casters.iter().position(|x| x.pc == c.pc)?;
                (mask & (1 << k) != 0).then_some(level)
            };
            let providers = providers_of(casters, alive, temple_spell_level, prices);
            let heal = std::array::from_fn(|set| {
                let wounds = WoundSlots::from_wounds(
                    Severity::ALL
                        .into_iter()
                        .filter(|&s| set & (1 << s as usize) != 0),
                );
                let state = PcState {
                    wounds,
                    ..PcState::default()
                };
                if set == 0 {
                    return None;
                }
                plan(setting, &state, Goal::HealWounds, &providers, prices)
            });
            cache.heal.push(heal);
            cache.reserve.push(reserve(setting, &providers, prices));
        }
        cache
    }

    /// The gold of the cheapest castings that heal some set of permanent
    /// wounds with every caster alive: `Some(None)` when nobody can heal
    /// any wound, `None` when the level is not tabulated.
    pub fn cheapest_heal(&self) -> Option<Option<u64>> {
        let row = self.heal.last()?;
        Some(row.iter().flatten().map(gold).min())
    }

    /// The row of the casters of `v` living in `party`, if tabulated.
    fn row(&self, v: &CampaignVariant, party: &PartyState) -> Option<usize> {
        let mask = v
            .casters
            .iter()
            .enumerate()
            .filter(|(_, c)| !party.is_dead(c.pc))
            .map(|(k, _)| 1 << k)
            .sum();
        (mask < self.heal.len()).then_some(mask)
    }
}

/// Gold of the cheapest raising of a PC with no wound dead for half a day
/// by `providers` (0: none can).
fn reserve(setting: HealingSetting, providers: &[Provider], prices: &PriceList) -> u64 {
    let state = PcState {
        dead_for: Some(DeadFor(crate::rules::wound_healing::SECONDS_PER_DAY / 2)),
        ..PcState::default()
    };
    plan(setting, &state, Goal::Raise, providers, prices).map_or(0, |p| gold(&p))
}

/// The reserve the policy keeps for raising, and [`wound_healing`] of PC
/// `pc`, from the level's tabulated plans (the planner itself when the
/// party has more casters than are tabulated).
pub fn cached_reserve(v: &CampaignVariant, cache: &HealingCache, party: &PartyState) -> u64 {
    if v.first == First::Heal {
        return 0;
    }
    match cache.row(v, party) {
        Some(row) => cache.reserve[row],
        None => reserve(v.healing, &providers(v, party), &v.prices),
    }
}

/// [`wound_healing`] from the level's tabulated plans.
pub fn cached_wound_healing(
    v: &CampaignVariant,
    cache: &HealingCache,
    party: &PartyState,
    pc: usize,
    gold_left: u64,
    reserve: u64,
) -> Option<HealingPlan> {
    let Some(row) = cache.row(v, party) else {
        return wound_healing(v, party, pc, &providers(v, party), gold_left, reserve);
    };
    healing_within(v, party, pc, gold_left, reserve, |wounds| {
        cache.heal[row][wound_set(wounds)].clone()
    })
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
    healing_within(v, party, pc, gold_left, reserve, |wounds| {
        let state = PcState {
            wounds,
            dead_for: None,
            missing_vital_part: false,
        };
        plan(v.healing, &state, Goal::HealWounds, providers, &v.prices)
    })
}

/// [`wound_healing`] with `cheapest` giving the cheapest castings that heal
/// a set of wounds.
fn healing_within(
    v: &CampaignVariant,
    party: &PartyState,
    pc: usize,
    gold_left: u64,
    reserve: u64,
    cheapest: impl Fn(WoundSlots) -> Option<HealingPlan>,
) -> Option<HealingPlan> {
    let wanted = wounds_to_heal(v.heal_wounds, party.wounds(pc));
    if wanted == WoundSlots::EMPTY || party.is_dead(pc) {
        return None;
    }
    let budget = match v.first {
        First::Raise => gold_left.saturating_sub(reserve),
        First::Heal => gold_left,
    };
    let cheapest = |wounds: WoundSlots| cheapest(wounds).filter(|p| gold(p) <= budget);
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

/// The penalty the raising in `plan` leaves under `setting` (the spell's
/// [`crate::rules::wound_healing::Revival::penalty`]: 4 for *raise dead* and *resurrection*, 0 for
/// *revivify* and *true resurrection*).
pub fn return_penalty(setting: HealingSetting, plan: &HealingPlan) -> u8 {
    plan.castings
        .iter()
        .filter(|c| c.purpose == CastingPurpose::Raising)
        .filter_map(|c| SPELLS.get(c.spell))
        .flat_map(|spell| {
            setting
                .rules()
                .iter()
                .filter(move |r| r.spell == spell.name)
        })
        .filter_map(|r| match r.target {
            Target::Dead(revival) => Some(revival.penalty),
            Target::Alive => None,
        })
        .max()
        .unwrap_or(0)
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
pub(crate) mod tests;
