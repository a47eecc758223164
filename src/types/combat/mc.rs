//! Monte Carlo combat: chains of encounters on common random numbers.
//!
//! Trial `t` takes one 64-bit seed from its chunk's stream and every variant
//! replays a generator seeded with it, so variants that differ only in a
//! rule see the same dice until the rule changes the course of the fight.
//! Each metric is accumulated as exact integer moments per variant, plus the
//! moments of its per-trial difference to the first variant (`_diff`).

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use serde::{Deserialize, Serialize};

use crate::combat::encounter::{Arena, Encounter, TrialOutcome};
use crate::engine::Stop;
use crate::engine::accum::{Histogram, IntMoments};
use crate::engine::merge::mergeable;
use crate::engine::paired::Baseline;
use crate::engine::stats::{wilson, z_for_level};
use crate::model::{ScenarioHeader, Variant};
use crate::results::{ChartSpec, DistributionRow, Figure, ItemRows, ScenarioResult, thousands};

/// Rounds beyond this share the last bin of the `rounds` distribution.
pub const ROUNDS_BINS: i64 = 30;

/// A metric of one trial: name and whether it is a 0/1 proportion.
#[derive(Clone, Debug, PartialEq)]
struct MetricDef {
    name: String,
    proportion: bool,
}

/// The metric list for a party (per-PC metrics use the PCs' names) and, when
/// lingering injuries are on, the injury table's entry ids.
fn metric_defs(pcs: &[String], injuries: &[String]) -> Vec<MetricDef> {
    let p = |name: String| MetricDef {
        name,
        proportion: true,
    };
    let m = |name: &str| MetricDef {
        name: name.into(),
        proportion: false,
    };
    let mut defs = vec![
        p("p_party_win".into()),
        p("p_timeout".into()),
        p("p_pc_death".into()),
        p("p_pc_down".into()),
        p("p_permanent_wound".into()),
        p("p_permanent_wound_minor".into()),
        p("p_permanent_wound_moderate".into()),
        p("p_permanent_wound_severe".into()),
        m("mean_pc_deaths"),
        m("mean_rounds"),
        m("mean_crits_taken"),
        m("mean_pc_hp_lost"),
    ];
    for pc in pcs {
        defs.push(p(format!("p_pc_death_{pc}")));
    }
    for pc in pcs {
        defs.push(p(format!("p_pc_down_{pc}")));
    }
    if !injuries.is_empty() {
        defs.push(p("p_injury".into()));
        defs.push(m("mean_injuries"));
        for id in injuries {
            defs.push(p(format!("p_injury_{id}")));
        }
        for pc in pcs {
            defs.push(p(format!("p_injured_{pc}")));
        }
    }
    defs
}

/// Metric values of one trial, in [`metric_defs`] order (`entries`: the
/// injury table's size, 0 when injuries are off).
fn values(o: &TrialOutcome, pcs: usize, entries: usize, out: &mut Vec<i64>) {
    out.clear();
    let dead = o.pc_dead[..pcs].iter().filter(|&&d| d).count() as i64;
    let wounds: u32 = o.wounds.iter().sum();
    out.extend([
        i64::from(o.party_win),
        i64::from(o.timed_out),
        i64::from(dead > 0),
        i64::from(o.pc_down[..pcs].iter().any(|&d| d)),
        i64::from(wounds > 0),
        i64::from(o.wounds[0] > 0),
        i64::from(o.wounds[1] > 0),
        i64::from(o.wounds[2] > 0),
        dead,
        i64::from(o.rounds),
        o.pc_crits_taken[..pcs].iter().map(|&c| i64::from(c)).sum(),
        o.pc_hp_lost[..pcs].iter().sum(),
    ]);
    out.extend(o.pc_dead[..pcs].iter().map(|&d| i64::from(d)));
    out.extend(o.pc_down[..pcs].iter().map(|&d| i64::from(d)));
    if entries > 0 {
        out.push(i64::from(o.injuries > 0));
        out.push(i64::from(o.injuries));
        out.extend(
            o.pc_injury_entries[..entries.min(100)]
                .iter()
                .map(|&c| i64::from(c > 0)),
        );
        out.extend(o.pc_injuries[..pcs].iter().map(|&c| i64::from(c > 0)));
    }
}

/// The injury table's entry ids when any variant turns injuries on.
fn injury_ids(variants: &[Variant<Encounter>]) -> Vec<(String, String)> {
    variants
        .iter()
        .find_map(|v| v.rules.rules.injuries.as_ref())
        .map(|i| {
            i.table
                .entries
                .iter()
                .map(|e| (e.id.clone(), e.name.clone()))
                .collect()
        })
        .unwrap_or_default()
}

mergeable! {
    /// Per-chunk accumulator: per variant, moments of each metric and of its
    /// difference to the first variant, and the rounds histogram.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    pub struct CombatAcc {
        metrics: Vec<Vec<IntMoments>>,
        diffs: Vec<Vec<IntMoments>>,
        rounds: Vec<Histogram>,
    }
}

impl CombatAcc {
    /// No counts yet for `variants` variants of at most `metrics` metrics.
    pub fn new(variants: usize, metrics: usize) -> Self {
        CombatAcc {
            metrics: vec![vec![IntMoments::default(); metrics]; variants],
            diffs: vec![vec![IntMoments::default(); metrics]; variants],
            rounds: vec![Histogram::new(1, ROUNDS_BINS as usize); variants],
        }
    }
}

/// The variants and their metric lists, compiled for the hot loop.
pub struct Prepared<'a> {
    variants: &'a [Variant<Encounter>],
    /// The injury table's entry ids and names when any variant turns
    /// injuries on.
    injuries: Vec<(String, String)>,
    /// Each variant's metrics.
    defs: Vec<Vec<MetricDef>>,
}

impl<'a> Prepared<'a> {
    /// Compiles the variants.
    pub fn new(variants: &'a [Variant<Encounter>]) -> Self {
        let names = |v: &Variant<Encounter>| -> Vec<String> {
            v.rules
                .party
                .iter()
                .map(|c| crate::results::metric_part(&c.name))
                .collect()
        };
        let injuries = injury_ids(variants);
        let ids: Vec<String> = injuries.iter().map(|(id, _)| id.clone()).collect();
        let defs = variants
            .iter()
            .map(|v| metric_defs(&names(v), &ids))
            .collect();
        Prepared {
            variants,
            injuries,
            defs,
        }
    }

    /// An empty accumulator.
    pub fn new_acc(&self) -> CombatAcc {
        let widest = self.defs.iter().map(Vec::len).max().unwrap_or(0);
        CombatAcc::new(self.variants.len(), widest)
    }
}

/// Runs one chunk of trials for every variant. Returns early (with `acc`
/// incomplete) once `stop` is requested; it is polled before each
/// variant's trial, whose length the round cap and the chain of
/// encounters bound.
pub fn simulate_chunk<R: Rng + ?Sized>(
    prepared: &Prepared<'_>,
    rng: &mut R,
    count: u64,
    acc: &mut CombatAcc,
    stop: Stop<'_>,
) {
    let (variants, entries) = (prepared.variants, prepared.injuries.len());
    let mut arena = Arena::default();
    let mut baseline = Baseline::default();
    let mut vals = Vec::new();
    for _ in 0..count {
        let seed = rng.next_u64();
        for (v, variant) in variants.iter().enumerate() {
            if stop.requested() {
                return;
            }
            let mut trial_rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let outcome = variant.rules.run(&mut trial_rng, &mut arena);
            values(&outcome, variant.rules.party.len(), entries, &mut vals);
            for (m, &x) in acc.metrics[v].iter_mut().zip(&vals) {
                m.push(x);
            }
            baseline.record(v, &vals, &mut acc.diffs[v]);
            acc.rounds[v].add(i64::from(outcome.rounds).clamp(1, ROUNDS_BINS), 1);
        }
    }
}

/// The figures, distributions and charts of the merged counts.
pub fn finish(
    header: &ScenarioHeader,
    variants: &[Variant<Encounter>],
    prepared: &Prepared<'_>,
    acc: &CombatAcc,
) -> ScenarioResult {
    let (injuries, defs) = (&prepared.injuries, &prepared.defs);
    let z = z_for_level(header.confidence);
    let mut figures = Vec::new();
    let mut distributions = Vec::new();
    for (v, variant) in variants.iter().enumerate() {
        for (i, def) in defs[v].iter().enumerate() {
            let m = &acc.metrics[v][i];
            let estimate = if def.proportion {
                wilson(m.sum() as u64, m.count(), z)
            } else {
                m.estimate(z)
            };
            figures.push(Figure {
                variant: variant.name.clone(),
                metric: def.name.clone(),
                estimate,
            });
        }
        distributions.extend(
            acc.rounds[v]
                .shares(z)
                .into_iter()
                .map(|(bin, count, share)| DistributionRow {
                    variant: variant.name.clone(),
                    distribution: "rounds".into(),
                    bin,
                    count,
                    share,
                }),
        );
    }
    // Paired differences are defined where a metric means the same in both
    // variants: always for party-wide metrics, and for per-PC metrics only
    // when the PC has the same name in the first variant.
    for (v, variant) in variants.iter().enumerate().skip(1) {
        for (i, def) in defs[v].iter().enumerate() {
            if defs[0].get(i) != Some(def) {
                continue;
            }
            figures.push(Figure {
                variant: variant.name.clone(),
                metric: format!("{}_diff", def.name),
                estimate: acc.diffs[v][i].estimate(z),
            });
        }
    }
    let how = format!("{} trials per variant", thousands(header.trials));
    let mut per_pc: Vec<(String, String)> = vec![("p_pc_death".into(), "any PC".into())];
    if let Some(first) = variants.first() {
        per_pc.extend(
            first
                .rules
                .party
                .iter()
                .map(|c| (format!("p_pc_death_{}", c.name), c.name.clone())),
        );
    }
    let mut charts = vec![
        ChartSpec::Shares {
            file: "outcomes".into(),
            title: format!("{}: fight outcomes ({how})", header.name),
            x_label: "Outcome of the encounter chain".into(),
            categories: vec![
                ("p_party_win".into(), "party wins".into()),
                ("p_pc_down".into(), "a PC drops".into()),
                ("p_pc_death".into(), "a PC dies".into()),
                ("p_permanent_wound".into(), "a permanent wound".into()),
            ],
        },
        ChartSpec::Shares {
            file: "pc-deaths".into(),
            title: format!("{}: death rate per PC ({how})", header.name),
            x_label: "Party member".into(),
            categories: per_pc,
        },
        ChartSpec::Distribution {
            file: "rounds".into(),
            title: format!("{}: rounds until the fight is decided ({how})", header.name),
            distribution: "rounds".into(),
            x_label: format!("Rounds (count; the last bin is {ROUNDS_BINS} or more)"),
        },
    ];
    if !injuries.is_empty() {
        let mut per_pc: Vec<(String, String)> = vec![("p_injury".into(), "any PC".into())];
        if let Some(first) = variants.first() {
            per_pc.extend(
                first
                    .rules
                    .party
                    .iter()
                    .map(|c| (format!("p_injured_{}", c.name), c.name.clone())),
            );
        }
        charts.push(ChartSpec::Shares {
            file: "pc-injuries".into(),
            title: format!("{}: lingering-injury rate per PC ({how})", header.name),
            x_label: "Party member".into(),
            categories: per_pc,
        });
        charts.push(ChartSpec::Bars {
            file: "injuries".into(),
            title: format!("{}: lingering injuries by table entry ({how})", header.name),
            value_label: "Trials in which some PC takes the injury (%)".into(),
            categories: injuries
                .iter()
                .map(|(id, name)| (format!("p_injury_{id}"), name.clone()))
                .collect(),
            percent: true,
        });
    }
    let item_rows = if injuries.is_empty() {
        Vec::new()
    } else {
        vec![ItemRows {
            items: "injury-table entries".into(),
            ranked_by: "probability that some PC takes it".into(),
            metrics: injuries
                .iter()
                .map(|(id, _)| {
                    let p = format!("p_injury_{id}");
                    vec![p.clone(), format!("{p}_diff")]
                })
                .collect(),
            shown: 5,
            odds: crate::rules::lingering::InjuryTable::shared_odds(
                variants
                    .iter()
                    .filter_map(|v| v.rules.rules.injuries.as_ref().map(|i| &i.table)),
            ),
        }]
    };
    ScenarioResult {
        figures,
        distributions,
        charts,
        item_rows,
        ..ScenarioResult::for_header(header, variants.iter().map(|v| v.name.clone()).collect())
    }
}
