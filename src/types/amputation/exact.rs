//! Exact amputation races and reattachments (docs/rules.md, limb damage): small dynamic
//! programs that back the Monte Carlo of [`super::mc`].
//!
//! * **The race.** The limb's state after each attack is (remaining limb
//!   HP, disabled or not, hits landed); one attack slot at a time, the
//!   exact distribution of a slot ([`AttackSlot::distribution`]: miss, or
//!   limb damage after crits and modifiers) moves the probability mass, and
//!   mass that severs the limb (or disables it, where that serves the
//!   purpose) is absorbed at its round and hit count. Against a fixed or
//!   dice clock, independent of the attacks, the in-time outcomes follow by
//!   mixing over the clock's distribution.
//! * **The venom.** Damage dice, a Constitution save for half, and the
//!   creature's modifiers against its HP; a PC at 0 HP rolls RAW death
//!   saves, whose exact death probability comes from
//!   [`crate::rules::death_save_chain`].
//! * **Reattachment.** Healing uses in spending order: a DP over the limb's
//!   restored HP gives the probability that the limb is first full at each
//!   use; the delay and the window decide how many uses fit.
//!
//! Every figure of the Monte Carlo has an exact counterpart here, and a
//! paired `_diff` is exact as the difference of the exact values. Only when
//! the hit-count dimension would make the race DP too large (more than
//! [`MAX_DP_WORK`] steps) are `mean_hits_to_sever` and the `hits_to_sever`
//! distribution left out of the exact output (never approximated).

use super::{PROPORTIONS, catalogue, max_hits, result, trim, trim_each};
use crate::engine::stats::Estimate;
use crate::model::{ScenarioHeader, Variant};
use crate::results::catalogue::{Observed, figures};
use crate::results::{DistributionRow, ScenarioResult};
use crate::rules::amputation::{AmputationRules, AtZeroHp, AttackSlot, Poison};
use crate::rules::death_saves::{DeathSaveRules, MAX_SAVES};
use crate::rules::limbs::{DamageModifiers, LimbEffect, Purpose};
use crate::rules::reattachment::{HealTarget, ReattachRules};

/// Largest race DP (states × attacks × damage values) solved with hit counts.
pub const MAX_DP_WORK: u64 = 2_000_000_000;

/// The exact race: absorbed mass by round (1-based index `r - 1`) and hits.
#[derive(Clone, Debug, PartialEq)]
pub struct Race {
    /// `severed[r][h]`: severed in round `r + 1` with `h` hits.
    pub severed: Vec<Vec<f64>>,
    /// `disabled_served[r][h]`: disabled in round `r + 1` where disabling serves.
    pub disabled_served: Vec<Vec<f64>>,
    /// `disabled_live[r]`: disabled, not severed, still being cut at the end of round `r + 1`.
    pub disabled_live: Vec<f64>,
    /// Whether hit counts were tracked.
    pub hits_tracked: bool,
}

/// Solves the race of one variant.
pub fn race(rules: &AmputationRules) -> Race {
    let slots: Vec<AttackSlot> = rules.slots();
    let hp_max = rules.creature.limb_hp as usize;
    // Any damage of at least the limb's maximum HP acts alike: merge it.
    let dists: Vec<(f64, Vec<(u32, f64)>)> = slots
        .iter()
        .map(|slot| {
            let (miss, hits) = slot.distribution();
            let mut merged: Vec<(u32, f64)> = Vec::with_capacity(hits.len());
            for (d, p) in hits {
                let d = d.min(hp_max as u32);
                match merged.last_mut() {
                    Some((last, q)) if *last == d => *q += p,
                    _ => merged.push((d, p)),
                }
            }
            (miss, merged)
        })
        .collect();
    let rounds = rules.max_rounds as usize;
    let widest = dists.iter().map(|d| d.1.len() + 1).max().unwrap_or(1) as u64;
    let full_hits = max_hits(rules, slots.len()) + 1;
    let work =
        (full_hits as u64) * (hp_max as u64 + 1) * 2 * (rounds * slots.len()) as u64 * widest;
    let hits_tracked = work <= MAX_DP_WORK;
    let hit_bins = if hits_tracked { full_hits } else { 1 };
    let index = |hits: usize, hp: usize, dis: usize| (hits * (hp_max + 1) + hp) * 2 + dis;
    let mut live = vec![0.0f64; hit_bins * (hp_max + 1) * 2];
    live[index(0, hp_max, 0)] = 1.0;
    let mut out = Race {
        severed: vec![vec![0.0; hit_bins]; rounds],
        disabled_served: vec![vec![0.0; hit_bins]; rounds],
        disabled_live: vec![0.0; rounds],
        hits_tracked,
    };
    let possession_served = rules.purpose.served_by(LimbEffect::Disable);
    for r in 0..rounds {
        for (slot, (miss, hits)) in slots.iter().zip(&dists) {
            let mut next = vec![0.0f64; live.len()];
            for h in 0..hit_bins {
                let nh = if hits_tracked {
                    (h + 1).min(hit_bins - 1)
                } else {
                    0
                };
                for hp in 0..=hp_max {
                    for dis in 0..2 {
                        let m = live[index(h, hp, dis)];
                        if m == 0.0 {
                            continue;
                        }
                        next[index(h, hp, dis)] += m * miss;
                        for &(d, p) in hits {
                            let w = m * p;
                            if d == 0 || slot.effect == LimbEffect::Nothing {
                                next[index(nh, hp, dis)] += w;
                                continue;
                            }
                            let left = hp.saturating_sub(d as usize);
                            if left > 0 {
                                next[index(nh, left, dis)] += w;
                            } else if slot.effect == LimbEffect::Sever {
                                out.severed[r][nh] += w;
                            } else if possession_served {
                                out.disabled_served[r][nh] += w;
                            } else {
                                next[index(nh, 0, 1)] += w;
                            }
                        }
                    }
                }
            }
            live = next;
        }
        out.disabled_live[r] = (0..hit_bins).map(|h| live[index(h, 0, 1)]).sum();
    }
    out
}

/// The clock's distribution over `0..=max_rounds`.
pub fn clock_pmf(rules: &AmputationRules) -> Vec<f64> {
    let rounds = rules.max_rounds as usize;
    let mut out = vec![0.0; rounds + 1];
    match &rules.clock {
        None => out[rounds] = 1.0,
        Some(c) => {
            for (i, p) in c.pmf().into_iter().enumerate() {
                let v = (c.min() + i as i64).clamp(0, rounds as i64) as usize;
                out[v] += p;
            }
        }
    }
    out
}

/// Exact probability that a PC at 0 HP with no help dies on its death saves.
pub fn p_dead_on_death_saves() -> f64 {
    let p = crate::rules::death_save_chain::solve(&DeathSaveRules::default()).probabilities();
    p[..MAX_SAVES as usize].iter().sum()
}

/// `(P(0 HP), P(death))` given that the venom spreads.
pub fn venom(rules: &AmputationRules, poison: &Poison) -> (f64, f64) {
    let c = &rules.creature;
    let p_save = poison.save_dc.map_or(0.0, |dc| {
        (1..=20).filter(|n| n + c.con_save >= dc).count() as f64 / 20.0
    });
    let modifiers = DamageModifiers {
        reduction: 0,
        ..c.modifiers
    };
    let dying_death = p_dead_on_death_saves();
    let (mut zero, mut dead) = (0.0, 0.0);
    for (i, p) in poison.damage.pmf().into_iter().enumerate() {
        let raw = (poison.damage.min() + i as i64).max(0);
        for (x, w) in [(raw, 1.0 - p_save), (raw / 2, p_save)] {
            let dmg = modifiers.apply(x, poison.damage_type);
            if dmg < c.hp {
                continue;
            }
            zero += p * w;
            dead += p
                * w
                * match c.at_zero_hp {
                    AtZeroHp::Dies => 1.0,
                    AtZeroHp::DeathSaves if dmg - c.hp >= c.max_hp => 1.0,
                    AtZeroHp::DeathSaves => dying_death,
                };
        }
    }
    (zero, dead)
}

/// Exact reattachment of a severed limb.
#[derive(Clone, Debug, PartialEq)]
pub struct Reattachment {
    /// P(reattached).
    pub p_reattached: f64,
    /// `uses[k]`: P(k healing uses spent).
    pub uses: Vec<f64>,
    /// `within[k]`: P(reattached with at most k uses).
    pub within: Vec<f64>,
    /// `spells[k]`: P(k spell uses spent).
    pub spells: Vec<f64>,
    /// `potions[k]`: P(k potion uses spent).
    pub potions: Vec<f64>,
    /// Mean gold spent.
    pub mean_gp: f64,
    /// Mean minutes from severing to the end of the last use.
    pub mean_minutes: f64,
}

/// Solves reattachment for a limb of `limb_max` HP.
pub fn reattachment(rules: &ReattachRules, limb_max: u32) -> Reattachment {
    let plan = rules.plan();
    let n = plan.len();
    let top = limb_max as usize;
    // first_full[k]: the limb is first back to full at use k (1-based).
    let mut first_full = vec![0.0; n + 1];
    let mut hp = vec![0.0; top + 1];
    hp[0] = 1.0;
    for (k, used) in plan.iter().enumerate() {
        let source = &rules.sources[used.source];
        if source.target == HealTarget::Creature {
            continue;
        }
        let heal = source.heal.pmf();
        let mut next = vec![0.0; top + 1];
        for (h, &m) in hp.iter().enumerate().take(top) {
            if m == 0.0 {
                continue;
            }
            for (i, &p) in heal.iter().enumerate() {
                let amount = (source.heal.min() + i as i64).max(0) as usize;
                next[(h + amount).min(top)] += m * p;
            }
        }
        first_full[k + 1] = next[top];
        next[top] = 0.0;
        hp = next;
    }
    let mut out = Reattachment {
        p_reattached: 0.0,
        uses: vec![0.0; n + 1],
        within: vec![0.0; n + 1],
        spells: vec![0.0; n + 1],
        potions: vec![0.0; n + 1],
        mean_gp: 0.0,
        mean_minutes: 0.0,
    };
    let delay = rules.delay_minutes;
    for (i, w) in delay.pmf().into_iter().enumerate() {
        let d = (delay.min() + i as i64).max(0) as f64;
        let allowed = rules.uses_in_time(&plan, d);
        let mut full = 0.0;
        for k in 1..=allowed {
            let p = w * first_full[k];
            full += first_full[k];
            out.uses[k] += p;
            out.mean_gp += p * plan[k - 1].gp;
            out.mean_minutes += p * (d + plan[k - 1].minutes);
            for slot in &mut out.within[k..] {
                *slot += p;
            }
        }
        let rest = w * (1.0 - full);
        out.p_reattached += w * full;
        out.uses[allowed] += rest;
        let (gp, minutes) = match allowed {
            0 => (0.0, d),
            k => (plan[k - 1].gp, d + plan[k - 1].minutes),
        };
        out.mean_gp += rest * gp;
        out.mean_minutes += rest * minutes;
    }
    // Uses are spent in plan order, so k uses fix the spells and potions.
    for (k, &p) in out.uses.iter().enumerate() {
        let (spells, potions) = match k {
            0 => (0, 0),
            k => (plan[k - 1].spells as usize, plan[k - 1].potions as usize),
        };
        out.spells[spells] += p;
        out.potions[potions] += p;
    }
    out
}

fn row(variant: &str, distribution: &str, bin: i64, share: f64) -> DistributionRow {
    DistributionRow {
        variant: variant.to_string(),
        distribution: distribution.to_string(),
        bin,
        count: 0,
        share: Estimate::exact(share.clamp(0.0, 1.0)),
        trials: None,
    }
}

/// Exact values of one variant: `(metric, value)` and distribution rows.
pub fn variant_figures(
    name: &str,
    rules: &AmputationRules,
) -> (Vec<(String, f64)>, Vec<DistributionRow>) {
    let race = race(rules);
    let clock = clock_pmf(rules);
    let rounds = rules.max_rounds as usize;
    let by_round =
        |table: &[Vec<f64>]| -> Vec<f64> { table.iter().map(|h| h.iter().sum()).collect() };
    let severed = by_round(&race.severed);
    let disabled_served = by_round(&race.disabled_served);
    let (mut p_sev, mut p_dis) = (0.0, 0.0);
    let (mut cum_sev, mut cum_dis) = (0.0, 0.0);
    for (c, &q) in clock.iter().enumerate() {
        if c > 0 {
            cum_sev += severed[c - 1];
            cum_dis += disabled_served[c - 1];
        }
        let live = if c > 0 {
            race.disabled_live[c - 1]
        } else {
            0.0
        };
        p_sev += q * cum_sev;
        p_dis += q * (cum_dis + live);
    }
    let possession = rules.purpose == Purpose::StopPossession;
    let spread = if possession { 0.0 } else { 1.0 - p_sev };
    let (zero, dead) = rules
        .poison
        .as_ref()
        .map_or((0.0, 0.0), |p| venom(rules, p));
    let re = rules
        .reattach
        .as_ref()
        .map(|r| reattachment(r, rules.creature.limb_hp));
    let q = re.as_ref().map_or(0.0, |r| r.p_reattached);
    let values = [
        p_sev,
        p_dis,
        1.0 - p_sev - p_dis,
        p_sev + if possession { p_dis } else { 0.0 },
        spread,
        spread * zero,
        spread * dead,
        p_sev * q,
        p_sev * (1.0 - q),
    ];
    let mut figures: Vec<(String, f64)> = PROPORTIONS
        .iter()
        .zip(values)
        .filter(|(m, _)| (m.applies)(rules))
        // Sums of float products can stray past 0 or 1 by an ulp or two.
        .map(|(m, v)| (m.name.to_string(), v.clamp(0.0, 1.0)))
        .collect();
    let served: Vec<f64> = (0..rounds)
        .map(|r| severed[r] + disabled_served[r])
        .collect();
    let total: f64 = served.iter().sum();
    let mut hits = vec![0.0; race.severed[0].len()];
    for r in 0..rounds {
        for (h, slot) in hits.iter_mut().enumerate() {
            *slot += race.severed[r][h] + race.disabled_served[r][h];
        }
    }
    if total > 0.0 {
        let mean_rounds = served
            .iter()
            .enumerate()
            .map(|(r, p)| (r + 1) as f64 * p)
            .sum::<f64>();
        figures.push(("mean_rounds_to_sever".into(), mean_rounds / total));
        if race.hits_tracked {
            let mean_hits = hits
                .iter()
                .enumerate()
                .map(|(h, p)| h as f64 * p)
                .sum::<f64>();
            figures.push(("mean_hits_to_sever".into(), mean_hits / total));
        }
    }
    let mut rows_rounds = Vec::new();
    let mut cumulative = Vec::new();
    let mut acc = 0.0;
    for (r, &p) in served.iter().enumerate() {
        acc += p;
        rows_rounds.push(row(name, "rounds_to_sever", r as i64 + 1, p));
        cumulative.push(row(name, "severed_by_round", r as i64 + 1, acc));
    }
    let mut rows = rows_rounds;
    rows.extend(cumulative);
    if race.hits_tracked {
        rows.extend(
            hits.iter()
                .enumerate()
                .skip(1)
                .map(|(h, &p)| row(name, "hits_to_sever", h as i64, p)),
        );
    }
    if let Some(re) = re.filter(|_| p_sev > 0.0) {
        figures.push((
            "p_reattached_if_severed".into(),
            re.p_reattached.clamp(0.0, 1.0),
        ));
        let mean_uses = re.uses.iter().enumerate().map(|(k, p)| k as f64 * p).sum();
        figures.push(("mean_heal_uses".into(), mean_uses));
        let mean = |d: &[f64]| d.iter().enumerate().map(|(k, p)| k as f64 * p).sum::<f64>();
        figures.push(("mean_spells_used".into(), mean(&re.spells)));
        figures.push(("mean_potions_used".into(), mean(&re.potions)));
        figures.push(("mean_heal_gp".into(), re.mean_gp));
        figures.push(("mean_heal_minutes".into(), re.mean_minutes));
        for (k, &p) in re.uses.iter().enumerate() {
            rows.push(row(name, "heals_used", k as i64, p));
        }
        for (k, &p) in re.within.iter().enumerate() {
            rows.push(row(name, "reattached_within_uses", k as i64, p));
        }
        for (kind, d) in [("spells_used", &re.spells), ("potions_used", &re.potions)] {
            for (k, &p) in d.iter().enumerate() {
                rows.push(row(name, kind, k as i64, p));
            }
        }
    }
    (figures, rows)
}

/// Solves every variant and assembles the result (`header.trials` is 0).
pub fn solve(header: &ScenarioHeader, variants: &[Variant<AmputationRules>]) -> ScenarioResult {
    let solved: Vec<_> = variants
        .iter()
        .map(|v| variant_figures(&v.name, &v.rules))
        .collect();
    let mut by_kind: [Vec<DistributionRow>; 6] = Default::default();
    let kinds = [
        "rounds_to_sever",
        "severed_by_round",
        "hits_to_sever",
        "heals_used",
        "reattached_within_uses",
        "spells_used",
    ];
    for (_, rows) in &solved {
        for r in rows {
            // `spells_used` and `potions_used` share the last bucket.
            let k = kinds
                .iter()
                .position(|k| *k == r.distribution)
                .unwrap_or(kinds.len() - 1);
            by_kind[k].push(r.clone());
        }
    }
    let exact = |v: usize, name: &str| {
        let values: &[(String, f64)] = &solved[v].0;
        values.iter().find(|(n, _)| n == name).map(|(_, x)| *x)
    };
    let figures = figures(
        &Variant::names(variants),
        &catalogue(variants),
        0.0,
        |v, _, def| exact(v, &def.name).map_or(Observed::ABSENT, Observed::exact),
        |v, _, def| match (exact(v, &def.name), exact(0, &def.name)) {
            (Some(a), Some(b)) => Observed::exact(a - b),
            _ => Observed::ABSENT,
        },
    );
    let [rounds, cumulative, hits, uses, within, spent] = by_kind;
    let mut distributions = trim(rounds, 1);
    let last = distributions.iter().map(|r| r.bin).max().unwrap_or(1);
    distributions.extend(cumulative.into_iter().filter(|r| r.bin <= last));
    distributions.extend(trim(hits, 1));
    distributions.extend(uses);
    distributions.extend(within);
    distributions.extend(trim_each(spent, "spells_used"));
    result(header, variants, figures, distributions)
}
