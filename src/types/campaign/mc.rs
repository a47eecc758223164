//! Monte Carlo campaigns: one career per trial and variant
//! ([`super::career`]), on common random numbers (trial `t` takes one seed
//! from its chunk's stream and every variant replays a generator seeded
//! with it, so `standard` and `harsh` differ only where their healing
//! does; a variant with an earlier variant's fights takes over its fights
//! until the two diverge, [`super::shared_fights`]). Metrics are exact
//! integer moments per variant, with their paired differences to the
//! first variant (`_diff`), a ratio estimator for gold as a share of
//! treasure and a histogram of the max HP festering wounds took; per-level
//! and per-day metrics are vectors of counters, so memory stays flat in
//! trials.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

use super::CampaignVariant;
use super::career::{CareerOutcome, career};
use super::charts::{charts, encounters_table};
use super::metrics::{
    FESTERING_BIN, FESTERING_BINS, FESTERING_DISTRIBUTION, MAIMED_LEVELS, Measure,
    ORIGINALS_BY_LEVEL, Reads, SHARE_LEVELS_MAIMED, Shown, metric_defs,
};
use super::shared_fights::{FightLog, Sharing};
use super::verdict::{self, HEALING_DIFF};
use crate::combat::encounter::Arena;
use crate::engine::Stop;
use crate::engine::accum::{Histogram, IntMoments};
use crate::engine::merge::mergeable;
use crate::engine::paired::Baseline;
use crate::engine::ratio::PairedRatio;
use crate::engine::rng::TrialSeeds;
use crate::engine::stats::z_for_level;
use crate::engine::variant_groups::VariantGroups;
use crate::model::{ScenarioHeader, Variant};
use crate::results::catalogue::figures as figures_of;
use crate::results::catalogue::{Catalogue, Kind, MetricDef, Observed, Reading};
use crate::results::{DistributionRow, ScenarioResult, Unit};

mergeable! {
    /// Per-chunk accumulator: per variant, the moments of each metric and
    /// of its difference to the first variant.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    pub struct CampaignAcc {
        metrics: Vec<Vec<IntMoments>>,
        diffs: Vec<Vec<IntMoments>>,
        /// Per variant: gold spent and treasure found, with the first
        /// variant's on the same careers.
        share_of_treasure: Vec<PairedRatio>,
        /// Per variant: max HP each PC lost to festering wounds, over the
        /// PCs that lost any, in bins of [`FESTERING_BIN`] HP.
        festering: Vec<Histogram>,
        /// Per variant: character-levels played maimed and played, with
        /// the first variant's on the same careers.
        maimed_share: Vec<PairedRatio>,
        /// Per variant with a healing partner: the differences of the
        /// verdict's metrics to the partner on the same careers.
        pair_diffs: Vec<Vec<IntMoments>>,
        /// Per variant with a healing partner: character-levels played
        /// maimed and played, with the partner's.
        pair_maimed: Vec<PairedRatio>,
    }
}

impl CampaignAcc {
    /// The observations of each variant's first metric (every variant has
    /// one) and of its gold pair: each is one per career.
    pub fn trials_counted(&self) -> Vec<u64> {
        let metrics = self.metrics.iter().filter_map(|m| m.first());
        metrics
            .map(|m| m.count())
            .chain(self.share_of_treasure.iter().map(PairedRatio::count))
            .collect()
    }
}

/// The variants and their metric lists, compiled for the hot loop.
pub struct Prepared<'a> {
    variants: &'a [Variant<CampaignVariant>],
    defs: Vec<Vec<MetricDef<Reads>>>,
    /// What the metric lists show because some variant has it.
    shown: Shown,
    /// Per variant: the earlier variant whose fights it takes over while
    /// the two have not diverged ([`super::shared_fights`]), the first
    /// with the same fights.
    fights_from: Vec<Option<usize>>,
    /// Per variant: a later variant takes over its fights.
    fights_shared: Vec<bool>,
    /// The groups of variants that share no fights.
    groups: VariantGroups,
    /// Per variant: the earlier variant that differs only in `healing`.
    partners: Vec<Option<usize>>,
    /// Per variant: the verdict's metrics ([`verdict::paired_metrics`])
    /// and their indices in its metric list.
    stated: Vec<Vec<(Stated, usize)>>,
}

/// A metric a verdict states: name, label, how it reads.
type Stated = (String, &'static str, verdict::Reads);

impl<'a> Prepared<'a> {
    /// Compiles the variants.
    pub fn new(variants: &'a [Variant<CampaignVariant>]) -> Self {
        // The injury metrics for every variant when some variant has them.
        let injuries = variants
            .iter()
            .any(|v| v.rules.levels.iter().any(|l| l.cures.is_some()));
        // The potion metric for every variant when some variant buys them.
        let potions = variants.iter().any(|v| v.rules.restock_potions != [0; 4]);
        // The limb metrics for every variant when some variant's fights
        // can take limbs.
        let limbs = variants.iter().any(|v| {
            v.rules.levels.iter().any(|l| {
                let rules = &l.party().rules;
                rules.venom.is_some() || rules.called_shots.is_some()
            })
        });
        let shown = Shown {
            injuries,
            potions,
            limbs,
        };
        let defs = variants
            .iter()
            .map(|v| {
                let levels: Vec<u8> = v.rules.levels.iter().map(|l| l.level).collect();
                let calendar = (
                    v.rules.calendar.days_per_level,
                    v.rules.calendar.fights_per_day,
                );
                metric_defs(v.rules.pc_names.len(), &levels, calendar, shown)
            })
            .collect();
        let fights_from: Vec<Option<usize>> = variants
            .iter()
            .enumerate()
            .map(|(v, later)| {
                variants[..v]
                    .iter()
                    .position(|earlier| earlier.rules.same_fights(&later.rules))
            })
            .collect();
        let fights_shared = (0..variants.len())
            .map(|v| fights_from.contains(&Some(v)))
            .collect();
        let partners = verdict::healing_partners(variants);
        let stated = variants
            .iter()
            .zip(&defs)
            .map(|(v, defs): (_, &Vec<MetricDef<Reads>>)| {
                let last = v.rules.levels.last().map_or(0, |l| l.level);
                verdict::paired_metrics(last, shown)
                    .into_iter()
                    .filter_map(|m| {
                        let i = defs.iter().position(|d| d.name == m.0)?;
                        Some((m, i))
                    })
                    .collect()
            })
            .collect();
        let groups = VariantGroups::by_root(variants.len(), |v| fights_from[v].unwrap_or(v));
        Prepared {
            variants,
            defs,
            shown,
            fights_from,
            fights_shared,
            groups,
            partners,
            stated,
        }
    }

    /// An empty accumulator.
    /// No counts yet.
    pub fn new_acc(&self) -> CampaignAcc {
        let widest = self.defs.iter().map(Vec::len).max().unwrap_or(0);
        let n = self.variants.len();
        CampaignAcc {
            metrics: vec![vec![IntMoments::default(); widest]; n],
            diffs: vec![vec![IntMoments::default(); widest]; n],
            share_of_treasure: vec![PairedRatio::default(); n],
            festering: vec![Histogram::new(0, FESTERING_BINS); n],
            maimed_share: vec![PairedRatio::default(); n],
            pair_diffs: self
                .stated
                .iter()
                .map(|s| vec![IntMoments::default(); s.len()])
                .collect(),
            pair_maimed: vec![PairedRatio::default(); n],
        }
    }
}

/// One career's readings, recorded after the chunk's variants have run.
struct CareerReadings {
    vals: Vec<i64>,
    /// Gold spent and treasure found.
    gold: [i64; 2],
    /// Character-levels played maimed and played.
    maimed: [i64; 2],
    /// Max HP lost to festering wounds by each PC that lost any.
    festering: Vec<i64>,
}

/// A group's scratch state: the combat arena, the career being run and
/// each variant's fight log for the variants that replay its fights.
type Scratch = (Arena, CareerOutcome, Vec<FightLog<Xoshiro256PlusPlus>>);

/// Runs one chunk of careers for every variant: the groups of variants
/// that share no fights in parallel ([`VariantGroups`]), the variants of a
/// group in order on each career (a later one replays the first one's
/// fights until they diverge), then recorded in (career, variant) order.
/// Returns early (with `acc` incomplete) once `stop` is requested.
pub fn simulate_chunk(
    prepared: &Prepared<'_>,
    trials: TrialSeeds,
    acc: &mut CampaignAcc,
    stop: Stop<'_>,
) {
    let n = prepared.variants.len();
    let seeds: Vec<u64> = trials.collect();
    let scratch = || -> Scratch {
        (
            Arena::default(),
            CareerOutcome::default(),
            vec![FightLog::default(); n],
        )
    };
    let trial = |(arena, outcome, logs): &mut Scratch, v: usize, seed: u64| {
        let rules = &prepared.variants[v].rules;
        let mut trial_rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let (earlier, this) = logs.split_at_mut(v);
        let sharing = Sharing::new(
            prepared.fights_from[v].map(|u| &earlier[u]),
            this.first_mut().filter(|_| prepared.fights_shared[v]),
        );
        if !career(rules, &mut trial_rng, arena, sharing, outcome, stop) {
            return None;
        }
        let sum = |xs: &[u8]| xs.iter().map(|&x| i64::from(x)).sum::<i64>();
        let festering = match prepared.shown.injuries {
            true => outcome.festering_by_pc[..rules.pc_names.len()]
                .iter()
                .filter(|&&hp| hp > 0)
                .map(|&hp| (hp / FESTERING_BIN) as i64)
                .collect(),
            false => Vec::new(),
        };
        Some(CareerReadings {
            vals: prepared.defs[v]
                .iter()
                .map(|d| d.measure.measure.value(outcome))
                .collect(),
            gold: [outcome.spent_total() as i64, outcome.treasure as i64],
            maimed: [sum(&outcome.maimed), sum(&outcome.alive)],
            festering,
        })
    };
    let Some(results) = prepared.groups.run(&seeds, scratch, trial) else {
        return;
    };
    let mut baseline = Baseline::default();
    for t in 0..seeds.len() {
        let first = results.get(t, 0);
        for v in 0..n {
            let r = results.get(t, v);
            for (m, &x) in acc.metrics[v].iter_mut().zip(&r.vals) {
                m.push(x);
            }
            baseline.record(v, &r.vals, &mut acc.diffs[v]);
            acc.share_of_treasure[v].push(r.gold, first.gold);
            acc.maimed_share[v].push(r.maimed, first.maimed);
            if let Some(u) = prepared.partners[v] {
                let partner = results.get(t, u);
                for (m, &(_, i)) in acc.pair_diffs[v].iter_mut().zip(&prepared.stated[v]) {
                    m.push(r.vals[i] - partner.vals[i]);
                }
                acc.pair_maimed[v].push(r.maimed, partner.maimed);
            }
            for &bin in &r.festering {
                acc.festering[v].add(bin, 1);
            }
        }
    }
}

/// The figures and charts of the merged counts.
pub fn finish(
    header: &ScenarioHeader,
    variants: &[Variant<CampaignVariant>],
    prepared: &Prepared<'_>,
    acc: &CampaignAcc,
) -> ScenarioResult {
    let defs = &prepared.defs;
    let z = z_for_level(header.confidence);
    let names = Variant::names(variants);
    // Paired differences where a metric means the same in both variants.
    let mut figures = figures_of(
        &names,
        &Catalogue::new(defs.clone()),
        z,
        |v, i, def| {
            Observed::of_trials(Reading::IntMoments(&acc.metrics[v][i])).per(def.measure.per)
        },
        |v, i, def| match defs[0].get(i) == Some(def) {
            true => Observed::of_trials(Reading::IntMoments(&acc.diffs[v][i])).per(def.measure.per),
            false => Observed::ABSENT,
        },
    );
    // Gold spent as a share of treasure found: a ratio of means over the
    // careers, with the paired difference of the ratios.
    let ratio = MetricDef::new(SHARE_OF_TREASURE, Kind::Ratio, Unit::Share, ()).with_diff();
    let read = |v: usize, _: usize, _: &MetricDef<()>| {
        Observed::of_trials(Reading::Ratio(&acc.share_of_treasure[v]))
    };
    figures.extend(figures_of(
        &names,
        &Catalogue::same_for_all(variants.len(), vec![ratio]).diffs_after_each_variant(),
        z,
        read,
        read,
    ));
    // Character-levels played maimed, of those played: a ratio of means
    // over the careers, with its paired difference.
    let maimed = MetricDef::new(SHARE_LEVELS_MAIMED, Kind::Ratio, Unit::Share, ()).with_diff();
    let read = |v: usize, _: usize, _: &MetricDef<()>| {
        Observed::of_trials(Reading::Ratio(&acc.maimed_share[v]))
    };
    figures.extend(figures_of(
        &names,
        &Catalogue::same_for_all(variants.len(), vec![maimed]).diffs_after_each_variant(),
        z,
        read,
        read,
    ));
    // The verdict's paired differences to each variant's healing partner.
    let pair_defs: Vec<Vec<MetricDef<Option<usize>>>> = (0..variants.len())
        .map(|v| {
            if prepared.partners[v].is_none() {
                return Vec::new();
            }
            let mut list: Vec<MetricDef<Option<usize>>> = prepared.stated[v]
                .iter()
                .enumerate()
                .map(|(k, ((name, _, _), i))| {
                    let def = &defs[v][*i];
                    MetricDef::new(
                        format!("{name}{HEALING_DIFF}"),
                        Kind::Difference,
                        def.unit,
                        Some(k),
                    )
                })
                .collect();
            list.push(MetricDef::new(
                format!("{SHARE_LEVELS_MAIMED}{HEALING_DIFF}"),
                Kind::Difference,
                Unit::Share,
                None,
            ));
            list
        })
        .collect();
    let read_pair = |v: usize, _: usize, def: &MetricDef<Option<usize>>| match def.measure {
        Some(k) => {
            let per = defs[v][prepared.stated[v][k].1].measure.per;
            Observed::of_trials(Reading::IntMoments(&acc.pair_diffs[v][k])).per(per)
        }
        None => Observed::of_trials(Reading::Ratio(&acc.pair_maimed[v])),
    };
    figures.extend(figures_of(
        &names,
        &Catalogue::new(pair_defs),
        z,
        read_pair,
        read_pair,
    ));
    // The festering distribution of the variants whose PCs lost max HP to
    // festering wounds, up to the last bin any of them reached (a variant
    // without any has no distribution, not one of zeros).
    let festered: Vec<usize> = (0..variants.len())
        .filter(|&v| prepared.shown.injuries && acc.festering[v].total() > 0)
        .collect();
    let last_bin = festered
        .iter()
        .flat_map(|&v| acc.festering[v].bins())
        .filter(|&(_, count)| count > 0)
        .map(|(bin, _)| bin)
        .max()
        .unwrap_or(0);
    let mut distributions = Vec::new();
    for &v in &festered {
        let h = &acc.festering[v];
        let total = h.total();
        distributions.extend(
            h.shares(z)
                .into_iter()
                .filter(|&(bin, _, _)| bin <= last_bin)
                .map(|(bin, count, share)| DistributionRow {
                    variant: variants[v].name.clone(),
                    distribution: FESTERING_DISTRIBUTION.into(),
                    bin: bin * FESTERING_BIN as i64,
                    count,
                    share,
                    trials: Some(total),
                }),
        );
    }
    let festered_names: Vec<String> = festered.iter().map(|&v| variants[v].name.clone()).collect();
    let tpks: Vec<u64> = acc
        .metrics
        .iter()
        .zip(defs)
        .map(|(m, d)| {
            d.iter()
                .position(|d| d.measure.measure == Measure::Tpk)
                .map_or(0, |i| m[i].sum().max(0) as u64)
        })
        .collect();
    let mut result = ScenarioResult {
        figures,
        distributions,
        tables: vec![encounters_table(variants)],
        charts: charts(header, variants, prepared.shown, &festered_names, &tpks),
        headline: Some(headline(variants, prepared.shown)),
        ..ScenarioResult::for_header(header, names)
    };
    let warned = verdict::warnings(variants);
    let cannot_differ: Vec<bool> = warned.iter().map(Option::is_some).collect();
    let mut stated: Vec<_> = prepared
        .stated
        .iter()
        .find(|s| !s.is_empty())
        .map(|s| s.iter().map(|(m, _)| m.clone()).collect())
        .unwrap_or_default();
    stated.push(verdict::paired_ratio());
    result.verdicts = verdict::verdicts(
        &result,
        variants,
        &prepared.partners,
        &stated,
        &cannot_differ,
    );
    result.warnings = warned.into_iter().flatten().collect();
    result
}

/// The metrics the reports show by default: the figures behind the
/// verdict and what they come from (every variant's last level's name for
/// the original PCs).
fn headline(variants: &[Variant<CampaignVariant>], shown: Shown) -> Vec<String> {
    let mut h: Vec<String> = [
        "p_tpk",
        "p_pc_death",
        "deaths_per_pc",
        "raises_per_pc",
        "replacements_per_pc",
        MAIMED_LEVELS,
        SHARE_LEVELS_MAIMED,
        "treasure_per_pc",
        "gold_wounds_per_pc",
        "gold_raising_per_pc",
    ]
    .iter()
    .map(|m| m.to_string())
    .collect();
    if shown.injuries {
        h.push("gold_injuries_per_pc".into());
        h.push("downtime_days_per_pc".into());
    }
    for v in variants {
        if let Some(l) = v.rules.levels.last() {
            let m = format!("{ORIGINALS_BY_LEVEL}{}", l.level);
            if !h.contains(&m) {
                h.insert(5, m);
            }
        }
    }
    h
}

/// The metric of gold spent as a share of treasure found.
pub(super) const SHARE_OF_TREASURE: &str = "gold_spent_share_of_treasure";

#[cfg(test)]
mod tests;
