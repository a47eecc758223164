//! Monte Carlo combat: chains of encounters on common random numbers.
//!
//! Trial `t` takes one 64-bit seed from its chunk's stream and every variant
//! replays a generator seeded with it, so variants that differ only in a
//! rule see the same dice until the rule changes the course of the fight.
//! Each metric is accumulated as exact integer moments per variant, plus the
//! moments of its per-trial difference to the first variant (`_diff`).

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use serde::{Deserialize, Serialize};

use super::CombatVariant;
use crate::combat::encounter::{Arena, TrialOutcome};
use crate::engine::Stop;
use crate::engine::accum::{Histogram, IntMoments};
use crate::engine::merge::mergeable;
use crate::engine::paired::Baseline;
use crate::engine::rng::TrialSeeds;
use crate::engine::stats::z_for_level;
use crate::engine::variant_groups::VariantGroups;
use crate::model::{ScenarioHeader, Variant};
use crate::results::catalogue::{Catalogue, MetricDef, Observed, Reading, figures};
use crate::results::{ChartSpec, DistributionRow, ItemRows, ScenarioResult, Unit, thousands};

/// Rounds beyond this share the last bin of the `rounds` distribution.
pub const ROUNDS_BINS: i64 = 30;

/// What a metric measures of one trial (PCs and injury entries by index).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Measure {
    PartyWin,
    Timeout,
    AnyPcDeath,
    AnyPcDown,
    AnyWound,
    Wound(usize),
    PcDeaths,
    Rounds,
    CritsTaken,
    HpLost,
    SlotLevelsSpent,
    PcDeath(usize),
    PcDown(usize),
    AnyInjury,
    Injuries,
    Entry(usize),
    Injured(usize),
    LimbsSevered,
    PcLimbsSevered,
    AnyPcLimbSevered,
    PcLimbSevered(usize),
    VenomSpread,
    AnyVenomSpread,
    LimbsAmputated,
    AnyLimbAmputated,
    LimbsReattached,
}

impl Measure {
    /// Its value in trial outcome `o` of a party of `pcs`.
    #[inline]
    fn value(self, o: &TrialOutcome, pcs: usize) -> i64 {
        let flag = |b: bool| i64::from(b);
        let sum = |counts: &[u8]| counts.iter().map(|&c| i64::from(c)).sum::<i64>();
        match self {
            Measure::PartyWin => flag(o.party_win),
            Measure::Timeout => flag(o.timed_out),
            Measure::AnyPcDeath => flag(o.pc_dead[..pcs].iter().any(|&d| d)),
            Measure::AnyPcDown => flag(o.pc_down[..pcs].iter().any(|&d| d)),
            Measure::AnyWound => flag(o.wounds.iter().any(|&w| w > 0)),
            Measure::Wound(s) => flag(o.wounds[s] > 0),
            Measure::PcDeaths => o.pc_dead[..pcs].iter().filter(|&&d| d).count() as i64,
            Measure::Rounds => i64::from(o.rounds),
            Measure::CritsTaken => o.pc_crits_taken[..pcs].iter().map(|&c| i64::from(c)).sum(),
            Measure::HpLost => o.pc_hp_lost[..pcs].iter().sum(),
            Measure::SlotLevelsSpent => o.pc_slot_levels_spent[..pcs]
                .iter()
                .map(|&l| i64::from(l))
                .sum(),
            Measure::PcDeath(i) => flag(o.pc_dead[i]),
            Measure::PcDown(i) => flag(o.pc_down[i]),
            Measure::AnyInjury => flag(o.injuries > 0),
            Measure::Injuries => i64::from(o.injuries),
            Measure::Entry(e) => flag(o.pc_injury_entries.get(e).is_some_and(|&c| c > 0)),
            Measure::Injured(i) => flag(o.pc_injuries[i] > 0),
            Measure::LimbsSevered => i64::from(o.limbs_severed),
            Measure::PcLimbsSevered => o.pc_limbs_severed[..pcs]
                .iter()
                .map(|&c| i64::from(c))
                .sum(),
            Measure::AnyPcLimbSevered => flag(o.pc_limbs_severed[..pcs].iter().any(|&c| c > 0)),
            Measure::PcLimbSevered(i) => flag(o.pc_limbs_severed[i] > 0),
            Measure::VenomSpread => sum(&o.pc_venom_spread[..pcs]),
            Measure::AnyVenomSpread => flag(o.pc_venom_spread[..pcs].iter().any(|&c| c > 0)),
            Measure::LimbsAmputated => sum(&o.pc_limbs_amputated[..pcs]),
            Measure::AnyLimbAmputated => flag(o.pc_limbs_amputated[..pcs].iter().any(|&c| c > 0)),
            Measure::LimbsReattached => sum(&o.pc_limbs_reattached[..pcs]),
        }
    }
}

/// The metric list for a party (per-PC metrics use the PCs' names), when
/// lingering injuries are on the injury table's entry ids, when called
/// shots are (`limbs`) the limbs severed, and when a venom spreads
/// (`venom`) the venoms and the limbs cut off and put back: each metric
/// named together with what it measures, so no value is matched by
/// position. Every metric has its paired difference.
fn metric_defs(
    pcs: &[String],
    injuries: &[String],
    limbs: bool,
    venom: bool,
) -> Vec<MetricDef<Measure>> {
    let p = |name: String, measure| MetricDef::proportion(name, measure);
    let count = |name: &str, measure| MetricDef::count(name, Unit::Count, measure);
    let mut defs = vec![
        p("p_party_win".into(), Measure::PartyWin),
        p("p_timeout".into(), Measure::Timeout),
        p("p_pc_death".into(), Measure::AnyPcDeath),
        p("p_pc_down".into(), Measure::AnyPcDown),
        p("p_permanent_wound".into(), Measure::AnyWound),
        p("p_permanent_wound_minor".into(), Measure::Wound(0)),
        p("p_permanent_wound_moderate".into(), Measure::Wound(1)),
        p("p_permanent_wound_severe".into(), Measure::Wound(2)),
        count("mean_pc_deaths", Measure::PcDeaths),
        MetricDef::count("mean_rounds", Unit::Rounds, Measure::Rounds),
        count("mean_crits_taken", Measure::CritsTaken),
        MetricDef::mean("mean_pc_hp_lost", Unit::Hp, Measure::HpLost),
        count("mean_slot_levels_spent", Measure::SlotLevelsSpent),
    ];
    for (i, pc) in pcs.iter().enumerate() {
        defs.push(p(format!("p_pc_death_{pc}"), Measure::PcDeath(i)));
    }
    for (i, pc) in pcs.iter().enumerate() {
        defs.push(p(format!("p_pc_down_{pc}"), Measure::PcDown(i)));
    }
    if !injuries.is_empty() {
        defs.push(p("p_injury".into(), Measure::AnyInjury));
        defs.push(count("mean_injuries", Measure::Injuries));
        for (e, id) in injuries.iter().enumerate() {
            defs.push(p(format!("p_injury_{id}"), Measure::Entry(e)));
        }
        for (i, pc) in pcs.iter().enumerate() {
            defs.push(p(format!("p_injured_{pc}"), Measure::Injured(i)));
        }
    }
    if limbs {
        defs.push(count("mean_limbs_severed", Measure::LimbsSevered));
        defs.push(count("mean_pc_limbs_severed", Measure::PcLimbsSevered));
        defs.push(p("p_pc_limb_severed".into(), Measure::AnyPcLimbSevered));
        for (i, pc) in pcs.iter().enumerate() {
            defs.push(p(
                format!("p_pc_limb_severed_{pc}"),
                Measure::PcLimbSevered(i),
            ));
        }
    }
    if venom {
        defs.push(p("p_venom_spread".into(), Measure::AnyVenomSpread));
        defs.push(count("mean_venom_spread", Measure::VenomSpread));
        defs.push(p("p_limb_amputated".into(), Measure::AnyLimbAmputated));
        defs.push(count("mean_limbs_amputated", Measure::LimbsAmputated));
        defs.push(count("mean_limbs_reattached", Measure::LimbsReattached));
    }
    defs.into_iter().map(MetricDef::with_diff).collect()
}

/// The values of `defs` in one trial.
#[inline]
fn values(o: &TrialOutcome, pcs: usize, defs: &[MetricDef<Measure>], out: &mut Vec<i64>) {
    out.clear();
    out.extend(defs.iter().map(|d| d.measure.value(o, pcs)));
}

/// The injury table's entry ids when any variant turns injuries on.
fn injury_ids(variants: &[Variant<CombatVariant>]) -> Vec<(String, String)> {
    variants
        .iter()
        .find_map(|v| v.rules.encounter.rules.injuries.as_ref())
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
    /// The observations of each variant's first metric (every variant
    /// has one) and of its rounds histogram: each is one per trial.
    pub fn trials_counted(&self) -> Vec<u64> {
        let metrics = self.metrics.iter().filter_map(|m| m.first());
        metrics
            .map(|m| m.count())
            .chain(
                self.rounds
                    .iter()
                    .map(|h| h.checked_total().unwrap_or(u64::MAX)),
            )
            .collect()
    }

    /// No counts yet.
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
    variants: &'a [Variant<CombatVariant>],
    /// The injury table's entry ids and names when any variant turns
    /// injuries on.
    injuries: Vec<(String, String)>,
    /// Each variant's metrics.
    defs: Vec<Vec<MetricDef<Measure>>>,
    /// The variants, each a group of its own: they share no work.
    groups: VariantGroups,
}

impl<'a> Prepared<'a> {
    /// Compiles the variants.
    pub fn new(variants: &'a [Variant<CombatVariant>]) -> Self {
        let names = |v: &Variant<CombatVariant>| -> Vec<String> {
            v.rules
                .encounter
                .party
                .iter()
                .map(|c| crate::results::metric_part(&c.name))
                .collect()
        };
        let injuries = injury_ids(variants);
        let ids: Vec<String> = injuries.iter().map(|(id, _)| id.clone()).collect();
        // The limb metrics for every variant when some variant makes called shots.
        let limbs = variants
            .iter()
            .any(|v| v.rules.encounter.rules.called_shots.is_some());
        // The venom metrics for every variant when some variant has one.
        let venom = variants
            .iter()
            .any(|v| v.rules.encounter.rules.venom.is_some());
        let defs = variants
            .iter()
            .map(|v| metric_defs(&names(v), &ids, limbs, venom))
            .collect();
        Prepared {
            variants,
            injuries,
            defs,
            groups: VariantGroups::independent(variants.len()),
        }
    }

    /// An empty accumulator.
    pub fn new_acc(&self) -> CombatAcc {
        let widest = self.defs.iter().map(Vec::len).max().unwrap_or(0);
        CombatAcc::new(self.variants.len(), widest)
    }
}

/// Runs one chunk of trials for every variant, the variants in parallel
/// ([`VariantGroups`]: they share no work) and recorded in (trial,
/// variant) order. Returns early (with `acc` incomplete) once `stop` is
/// requested; it is polled before each variant's trial, whose length the
/// round cap and the chain of encounters bound.
pub fn simulate_chunk(
    prepared: &Prepared<'_>,
    trials: TrialSeeds,
    acc: &mut CombatAcc,
    stop: Stop<'_>,
) {
    let variants = prepared.variants;
    let seeds: Vec<u64> = trials.collect();
    let trial = |arena: &mut Arena, v: usize, seed: u64| {
        if stop.requested() {
            return None;
        }
        let rules = &variants[v].rules;
        let mut trial_rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let outcome = rules.encounter.run(&mut trial_rng, arena);
        let mut vals = Vec::new();
        values(
            &outcome,
            rules.encounter.party.len(),
            &prepared.defs[v],
            &mut vals,
        );
        Some((vals, outcome.rounds))
    };
    let Some(results) = prepared.groups.run(&seeds, Arena::default, trial) else {
        return;
    };
    let mut baseline = Baseline::default();
    for t in 0..seeds.len() {
        for v in 0..variants.len() {
            let (vals, rounds) = results.get(t, v);
            for (m, &x) in acc.metrics[v].iter_mut().zip(vals) {
                m.push(x);
            }
            baseline.record(v, vals, &mut acc.diffs[v]);
            acc.rounds[v].add(i64::from(*rounds).clamp(1, ROUNDS_BINS), 1);
        }
    }
}

/// The figures, distributions and charts of the merged counts.
pub fn finish(
    header: &ScenarioHeader,
    variants: &[Variant<CombatVariant>],
    prepared: &Prepared<'_>,
    acc: &CombatAcc,
) -> ScenarioResult {
    let (injuries, defs) = (&prepared.injuries, &prepared.defs);
    let z = z_for_level(header.confidence);
    // Paired differences are defined where a metric means the same in both
    // variants: always for party-wide metrics, and for per-PC metrics only
    // when the PC has the same name in the first variant.
    let figures = figures(
        &Variant::names(variants),
        &Catalogue::new(defs.clone()),
        z,
        |v, i, _| Observed::of_trials(Reading::IntMoments(&acc.metrics[v][i])),
        |v, i, def| match defs[0].get(i) == Some(def) {
            true => Observed::of_trials(Reading::IntMoments(&acc.diffs[v][i])),
            false => Observed::ABSENT,
        },
    );
    let mut distributions = Vec::new();
    for (v, variant) in variants.iter().enumerate() {
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
                    trials: None,
                }),
        );
    }
    let how = format!("{} trials per variant", thousands(header.trials));
    let mut per_pc: Vec<(String, String)> = vec![("p_pc_death".into(), "any PC".into())];
    if let Some(first) = variants.first() {
        per_pc.extend(
            first
                .rules
                .encounter
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
                    .encounter
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
    charts.extend(super::difficulty::chart(
        header,
        variants,
        !injuries.is_empty(),
    ));
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
                    .filter_map(|v| v.rules.encounter.rules.injuries.as_ref().map(|i| &i.table)),
            ),
        }]
    };
    ScenarioResult {
        figures,
        distributions,
        charts,
        item_rows,
        tables: vec![super::difficulty::table(variants)],
        ..ScenarioResult::for_header(header, Variant::names(variants))
    }
}
