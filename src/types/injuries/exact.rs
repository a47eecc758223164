//! Exact lingering-injury figures (docs/rules.md, lingering injuries) and healing costs (§2).
//!
//! Each attack made triggers with probability `a` (a natural 1, if critical
//! misses count) and each attack received with `b` (a natural in the crit
//! range, if critical hits count), independently; a triggering event injures
//! with the injury chance `c` and picks entry `i` with probability
//! `w_i / 100`. So the injuries of entry `i` over `n₁` attacks made and `n₂`
//! received are a sum of two binomials, `Bin(n₁, a·c·w_i/100) +
//! Bin(n₂, b·c·w_i/100)`, and "at least one" is one minus a product. Costs
//! are independent of how many injuries there are, so campaign totals are
//! the expected count times the expected cost per injury (Wald's identity).

use super::mc::Compiled;
use std::collections::HashMap;

use super::{
    CAMPAIGN_BINS, CAMPAIGN_COUNTS, CAMPAIGN_MEANS, InjuryScenario, PER_ENCOUNTER, applicable,
    catalogue, entry_metrics, result,
};
use crate::engine::stats::Estimate;
use crate::model::{ScenarioHeader, Variant};
use crate::results::catalogue::{Observed, figures};
use crate::results::{DistributionRow, ScenarioResult};
use crate::rules::attack::AttackOutcome;
use crate::rules::injury_cures::{Expected, Remedy};
use crate::rules::lingering::CureClass;

/// `1 - Π (1 - x_k)^{n_k}`, accurate when the product is near 1.
pub fn at_least_one(parts: &[(f64, f64)]) -> f64 {
    let log: f64 = parts.iter().map(|&(x, n)| n * (-x).ln_1p()).sum();
    -log.exp_m1()
}

/// `P(X = k)` for `k` in `0..=m` of `X ~ Bin(n, p)`.
pub fn binomial_head(n: u64, p: f64, m: usize) -> Vec<f64> {
    let mut out = vec![0.0; m + 1];
    if p <= 0.0 {
        out[0] = 1.0;
        return out;
    }
    if p >= 1.0 {
        if (n as usize) <= m {
            out[n as usize] = 1.0;
        }
        return out;
    }
    let mut at = (n as f64 * (-p).ln_1p()).exp();
    for (k, slot) in out.iter_mut().enumerate() {
        if k as u64 > n {
            break;
        }
        *slot = at;
        at *= (n - k as u64) as f64 / (k as f64 + 1.0) * p / (1.0 - p);
    }
    out
}

/// `P(X = k)` for `k` in `0..=m` of a sum of two independent binomials.
pub fn two_binomials_head(n1: u64, p1: f64, n2: u64, p2: f64, m: usize) -> Vec<f64> {
    let (x, y) = (binomial_head(n1, p1, m), binomial_head(n2, p2, m));
    (0..=m)
        .map(|k| (0..=k).map(|i| x[i] * y[k - i]).sum())
        .collect()
}

/// The per-attack trigger probabilities `(a, b)` and the raw crit, fumble and hit chances.
pub fn rates(m: &InjuryScenario) -> [f64; 5] {
    let (made, received) = (m.made(), m.received());
    let fumble = m
        .attack_roll
        .chance_of(|n| made.resolve(n) == AttackOutcome::NaturalOne);
    let crit = m
        .attacked_with
        .chance_of(|n| received.resolve(n).is_critical());
    let hit = m.attacked_with.chance_of(|n| received.resolve(n).is_hit());
    let trigger_miss = m
        .attack_roll
        .chance_of(|n| m.is_trigger_miss(made.resolve(n)));
    let a = if m.applies() && m.trigger.on_crit_miss {
        trigger_miss
    } else {
        0.0
    };
    let b = if m.applies() && m.trigger.on_crit_hit {
        crit
    } else {
        0.0
    };
    [a, b, crit, fumble, hit]
}

/// Solves every variant exactly.
pub fn solve(header: &ScenarioHeader, variants: &[Variant<InjuryScenario>]) -> ScenarioResult {
    let mut values: Vec<HashMap<String, f64>> = Vec::new();
    let mut rows = Vec::new();
    let compiled: Vec<Compiled> = variants.iter().map(|v| Compiled::new(&v.rules)).collect();
    for (variant, c) in variants.iter().zip(&compiled) {
        let m = &c.model;
        let t = &m.table;
        let [a, b, crit, fumble, hit] = rates(m);
        let ch = t.chance.p();
        let (na, nb, ne) = (
            f64::from(m.attacks_made),
            f64::from(m.attacks_received),
            f64::from(m.encounters),
        );
        let (n1, n2) = (
            u64::from(m.attacks_made) * u64::from(m.encounters),
            u64::from(m.attacks_received) * u64::from(m.encounters),
        );
        let events = na * a + nb * b;
        let share = |f: &dyn Fn(usize) -> f64| -> f64 {
            t.entries
                .iter()
                .enumerate()
                .map(|(i, e)| f64::from(e.width()) / 100.0 * f(i))
                .sum()
        };
        let expected: Vec<Expected> = c.plans.iter().map(|p| p.expected()).collect();
        let gold = share(&|i| expected[i].gold);
        let days = share(&|i| expected[i].days);
        let uncurable = share(&|i| expected[i].uncurable);
        let perm = share(&|i| f64::from(u8::from(c.permanent[i])));
        // The variant's exact values by metric name; the catalogue orders them.
        let mut named = HashMap::new();
        let mut push = |metric: String, value: f64| {
            named.insert(metric, value);
        };
        let per_encounter = [events, nb * crit, na * fumble, nb * hit, events * ch];
        for (name, v) in PER_ENCOUNTER.iter().zip(per_encounter) {
            push(name.to_string(), v);
        }
        let may_trigger = events > 0.0;
        let may_injure = may_trigger && ch > 0.0;
        if may_trigger {
            push("p_injury_per_event".into(), ch);
        }
        push(
            "p_injury_per_encounter".into(),
            at_least_one(&[(a * ch, na), (b * ch, nb)]),
        );
        for &e in &c.second {
            let q = ch * f64::from(t.entries[e].width()) / 100.0;
            let head = two_binomials_head(
                u64::from(m.attacks_made),
                a * q,
                u64::from(m.attacks_received),
                b * q,
                1,
            );
            push(
                format!("p_second_{}_per_encounter", t.entries[e].id),
                (1.0 - head[0] - head[1]).max(0.0),
            );
        }
        if may_injure {
            for (k, kind) in Remedy::KINDS.iter().enumerate() {
                push(
                    format!("p_remedy_{kind}"),
                    share(&|i| f64::from(u8::from(c.plans[i].remedy().kind() == k))),
                );
            }
            for class in CureClass::ALL {
                push(
                    format!("p_cure_class_{}", class.name()),
                    share(&|i| f64::from(u8::from(t.entries[i].cure_class() == class))),
                );
            }
        }
        let threshold_prob = |i: usize, count: u32| {
            let q = ch * f64::from(t.entries[i].width()) / 100.0;
            let head = two_binomials_head(n1, a * q, n2, b * q, count as usize);
            (head, q)
        };
        let counts = [
            at_least_one(&[(a * ch, n1 as f64), (b * ch, n2 as f64)]),
            at_least_one(&[(a * ch * perm, n1 as f64), (b * ch * perm, n2 as f64)]),
            c.blinding.map_or(0.0, |(i, n)| {
                let (head, _) = threshold_prob(i, n);
                (1.0 - head[..n as usize].iter().sum::<f64>()).max(0.0)
            }),
            c.fingers.map_or(0.0, |(i, n)| {
                // Both hands keep fewer than n lost fingers: k <= 2n - 2 split L + R.
                let top = 2 * n as usize - 2;
                let (head, _) = threshold_prob(i, top as u32);
                let kept: f64 = (0..=top)
                    .map(|k| {
                        let split = binomial_head(k as u64, 0.5, k);
                        let ok: f64 = (0..=k)
                            .filter(|&l| l < n as usize && k - l < n as usize)
                            .map(|l| split[l])
                            .sum();
                        head[k] * ok
                    })
                    .sum();
                (1.0 - kept).max(0.0)
            }),
            at_least_one(&[
                (a * ch * uncurable, n1 as f64),
                (b * ch * uncurable, n2 as f64),
            ]),
        ];
        for (k, (name, v)) in CAMPAIGN_COUNTS.iter().zip(counts).enumerate() {
            if applicable(c, k) {
                push(name.to_string(), v);
            }
        }
        let injuries = ne * events * ch;
        let means = [
            injuries,
            ne * events * ch * perm,
            injuries * gold,
            injuries * days,
        ];
        for (name, v) in CAMPAIGN_MEANS.iter().zip(means) {
            push(name.to_string(), v);
        }
        if may_injure {
            push("mean_heal_gp_per_injury".into(), gold);
            push("mean_downtime_days_per_injury".into(), days);
            push("p_uncurable_per_injury".into(), uncurable);
        }
        if may_trigger {
            push("mean_heal_gp_per_event".into(), ch * gold);
            push("mean_downtime_days_per_event".into(), ch * days);
            push("p_uncurable_per_event".into(), ch * uncurable);
        }
        for (i, e) in t.entries.iter().enumerate() {
            let q = ch * f64::from(e.width()) / 100.0;
            let [m_event, m_encounter, m_gold, m_days, m_uncurable] = entry_metrics(&e.id);
            if may_trigger {
                push(m_event, q);
            }
            push(m_encounter, at_least_one(&[(a * q, na), (b * q, nb)]));
            push(m_gold, expected[i].gold);
            push(m_days, expected[i].days);
            push(m_uncurable, expected[i].uncurable);
        }
        let per_campaign = two_binomials_head(n1, a * ch, n2, b * ch, CAMPAIGN_BINS - 1);
        rows.extend(
            per_campaign
                .into_iter()
                .enumerate()
                .map(|(bin, p)| DistributionRow {
                    variant: variant.name.clone(),
                    distribution: "injuries_per_campaign".into(),
                    bin: bin as i64,
                    count: 0,
                    share: Estimate::exact(p),
                    trials: None,
                }),
        );
        values.push(named);
    }
    let exact = |v: usize, name: &str| values[v].get(name).copied();
    let figures = figures(
        &Variant::names(variants),
        &catalogue(&compiled),
        0.0,
        |v, _, def| exact(v, &def.name).map_or(Observed::ABSENT, Observed::exact),
        |v, _, def| match (exact(v, &def.name), exact(0, &def.name)) {
            (Some(x), Some(base)) => Observed::exact(x - base),
            _ => Observed::ABSENT,
        },
    );
    result(header, variants, figures, rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomial_heads_are_the_binomial() {
        let h = binomial_head(4, 0.5, 4);
        assert_eq!(h, vec![0.0625, 0.25, 0.375, 0.25, 0.0625]);
        let two = two_binomials_head(1, 0.5, 1, 0.5, 2);
        assert_eq!(two, vec![0.25, 0.5, 0.25]);
        assert!((at_least_one(&[(0.5, 2.0)]) - 0.75).abs() < 1e-15);
    }
}
