//! `type = "amputation"`: limb damage and amputation against the clock,
//! and reattaching a severed limb (docs/rules.md, limb damage), by Monte Carlo on common
//! random numbers ([`mc`]) and by small dynamic programs ([`exact`]), in
//! one result shape ([`result`]) and one metric catalogue
//! ([`PROPORTIONS`] and the means named in both modes).

pub mod exact;
pub mod mc;
pub mod schema;

use rand_xoshiro::Xoshiro256PlusPlus;

use super::ScenarioType;
use crate::engine::Stop;
use crate::engine::rng::TrialSeeds;
use crate::model::{Catalog, ScenarioHeader, Variant};
use crate::results::catalogue::{Catalogue, MetricDef};
use crate::results::{ChartSpec, DistributionRow, Figure, LinePoints, ScenarioResult, Unit};
use crate::rules::amputation::{AmputationRules, AttackSlot, Outcome, TrialOutcome};
use crate::rules::limbs::Purpose;
use crate::scenario::ScenarioError;
use crate::scenario::layers::Layers;

/// The `amputation` scenario type.
pub struct Amputation;

impl ScenarioType for Amputation {
    const NAME: &'static str = "amputation";
    /// 32,768 limb fights: about 17 ms of one thread for the shipped
    /// `amputation` (12 variants, 0.53 µs a trial) and 27 ms for
    /// `reattachment` (9 variants).
    const CHUNK_TRIALS: u64 = 1 << 15;
    type Raw = schema::RawSettings;
    type Rules = AmputationRules;
    type Prepared<'a> = Vec<(&'a AmputationRules, Vec<AttackSlot>)>;
    type Acc = Vec<mc::VariantCounts>;

    fn build(
        layers: &Layers<Self::Raw>,
        catalog: &Catalog,
    ) -> Result<AmputationRules, ScenarioError> {
        schema::build(layers, catalog)
    }

    fn prepare(variants: &[Variant<AmputationRules>]) -> Self::Prepared<'_> {
        variants
            .iter()
            .map(|v| (&v.rules, v.rules.slots()))
            .collect()
    }

    fn new_acc(prepared: &Self::Prepared<'_>) -> Vec<mc::VariantCounts> {
        prepared
            .iter()
            .map(|(r, s)| mc::VariantCounts::new(r, s.len()))
            .collect()
    }

    fn trials_counted(acc: &Vec<mc::VariantCounts>) -> Vec<u64> {
        acc.iter().map(mc::VariantCounts::trials).collect()
    }

    fn simulate_chunk(
        prepared: &Self::Prepared<'_>,
        _rng: &mut Xoshiro256PlusPlus,
        trials: TrialSeeds,
        acc: &mut Vec<mc::VariantCounts>,
        stop: Stop<'_>,
    ) {
        mc::simulate_chunk(prepared, trials, acc, stop);
    }

    fn finish(
        header: &ScenarioHeader,
        variants: &[Variant<AmputationRules>],
        _prepared: &Self::Prepared<'_>,
        acc: &Vec<mc::VariantCounts>,
    ) -> ScenarioResult {
        mc::monte_carlo_result(header, variants, acc).with_headline(HEADLINE)
    }

    fn solve(
        header: &ScenarioHeader,
        variants: &[Variant<AmputationRules>],
    ) -> Option<ScenarioResult> {
        Some(exact::solve(header, variants))
    }
}

/// A proportion metric: its name, chart label, where it applies, and its
/// indicator on one trial.
#[derive(Clone, Copy, Debug)]
pub struct Proportion {
    /// Metric name in `summary.csv`.
    pub name: &'static str,
    /// Label for charts.
    pub label: &'static str,
    /// Whether the metric is reported for a variant.
    pub applies: fn(&AmputationRules) -> bool,
    /// The 0/1 value on one trial.
    pub indicator: fn(&TrialOutcome) -> bool,
}

fn always(_: &AmputationRules) -> bool {
    true
}

fn reattached(t: &TrialOutcome) -> bool {
    t.reattach.is_some_and(|r| r.reattached)
}

/// The proportion metrics (unconditional: over all trials), in report order.
pub const PROPORTIONS: [Proportion; 9] = [
    Proportion {
        name: "p_severed_in_time",
        label: "severed in time",
        applies: always,
        indicator: |t| t.outcome == Outcome::Severed,
    },
    Proportion {
        name: "p_disabled_in_time",
        label: "disabled, not severed",
        applies: always,
        indicator: |t| t.outcome == Outcome::Disabled,
    },
    Proportion {
        name: "p_neither_in_time",
        label: "neither in time",
        applies: always,
        indicator: |t| t.outcome == Outcome::Neither,
    },
    Proportion {
        name: "p_purpose_met",
        label: "purpose met",
        applies: always,
        indicator: |t| t.purpose_met,
    },
    Proportion {
        name: "p_poison_spread",
        label: "venom spread",
        applies: |r| r.purpose == Purpose::StopPoison,
        indicator: |t| t.poison_spread,
    },
    Proportion {
        name: "p_zero_hp",
        label: "venom: 0 HP",
        applies: |r| r.poison.is_some(),
        indicator: |t| t.zero_hp,
    },
    Proportion {
        name: "p_death",
        label: "venom: dead",
        applies: |r| r.poison.is_some(),
        indicator: |t| t.dead,
    },
    Proportion {
        name: "p_reattached",
        label: "reattached",
        applies: |r| r.reattach.is_some(),
        indicator: reattached,
    },
    Proportion {
        name: "p_tragic_injury",
        label: "limb lost (tragic injury)",
        applies: |r| r.creature.limb.tragic_injury().is_some(),
        indicator: |t| t.outcome == Outcome::Severed && !reattached(t),
    },
];

/// What an amputation metric measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// A proportion of [`PROPORTIONS`].
    Share(usize),
    /// Rounds until the purpose was served.
    RoundsToSever,
    /// Hits landed until then.
    HitsToSever,
    /// Reattached, among the reattachments tried.
    ReattachedIfSevered,
    /// Healing uses spent per attempt.
    HealUses,
    /// Spell uses per attempt.
    SpellsUsed,
    /// Potion uses per attempt.
    PotionsUsed,
    /// Gold per attempt.
    HealGp,
    /// Minutes per attempt.
    HealMinutes,
}

/// The catalogue: each variant's proportions that apply to it (each with
/// its paired difference), the race's means, and with reattachment its
/// figures.
pub fn catalogue(variants: &[Variant<AmputationRules>]) -> Catalogue<Measure> {
    Catalogue::new(variants.iter().map(|v| metrics(&v.rules)).collect())
}

fn metrics(rules: &AmputationRules) -> Vec<MetricDef<Measure>> {
    let mut defs: Vec<MetricDef<Measure>> = PROPORTIONS
        .iter()
        .enumerate()
        .filter(|(_, m)| (m.applies)(rules))
        .map(|(i, m)| MetricDef::proportion(m.name, Measure::Share(i)).with_diff())
        .collect();
    let count = |name, unit, m| MetricDef::count(name, unit, m);
    defs.push(count(
        "mean_rounds_to_sever",
        Unit::Rounds,
        Measure::RoundsToSever,
    ));
    defs.push(count(
        "mean_hits_to_sever",
        Unit::Count,
        Measure::HitsToSever,
    ));
    if rules.reattach.is_some() {
        defs.extend([
            MetricDef::proportion("p_reattached_if_severed", Measure::ReattachedIfSevered),
            count("mean_heal_uses", Unit::Count, Measure::HealUses),
            count("mean_spells_used", Unit::Count, Measure::SpellsUsed),
            count("mean_potions_used", Unit::Count, Measure::PotionsUsed),
            MetricDef::mean("mean_heal_gp", Unit::Gp, Measure::HealGp),
            MetricDef::mean("mean_heal_minutes", Unit::Minutes, Measure::HealMinutes),
        ]);
    }
    defs
}

/// Shares drawn on the outcome chart.
const OUTCOME_CHART: [&str; 6] = [
    "p_severed_in_time",
    "p_disabled_in_time",
    "p_neither_in_time",
    "p_death",
    "p_reattached",
    "p_tragic_injury",
];

/// Number of hit bins: every attack of the horizon could hit.
pub fn max_hits(rules: &AmputationRules, slots: usize) -> usize {
    rules.max_rounds as usize * slots
}

/// Distribution rows up to the last bin any variant reaches (so charts do
/// not trail empty bins), at least `min_last`.
pub fn trim(rows: Vec<DistributionRow>, min_last: i64) -> Vec<DistributionRow> {
    let last = rows
        .iter()
        .filter(|r| r.share.value > 1e-12 || r.count > 0)
        .map(|r| r.bin)
        .max()
        .unwrap_or(min_last)
        .max(min_last);
    rows.into_iter().filter(|r| r.bin <= last).collect()
}

/// [`trim`] applied to the rows of `first` and of every other distribution
/// in `rows` separately (spells and potions spent).
pub fn trim_each(rows: Vec<DistributionRow>, first: &str) -> Vec<DistributionRow> {
    let (a, b): (Vec<_>, Vec<_>) = rows.into_iter().partition(|r| r.distribution == first);
    let mut out = trim(a, 0);
    out.extend(trim(b, 0));
    out
}

/// Assembles a result with its charts (shared by Monte Carlo and exact mode).
pub fn result(
    header: &ScenarioHeader,
    variants: &[Variant<AmputationRules>],
    figures: Vec<Figure>,
    distributions: Vec<DistributionRow>,
) -> ScenarioResult {
    let how = if header.trials == 0 {
        "exact".to_string()
    } else {
        format!(
            "{} trials per variant",
            crate::results::thousands(header.trials)
        )
    };
    let applies = |metric: &str| {
        PROPORTIONS
            .iter()
            .find(|m| m.name == metric)
            .is_some_and(|m| variants.iter().any(|v| (m.applies)(&v.rules)))
    };
    // Draw only the outcomes these variants can reach: disabling needs a
    // disabling cutter, a lost limb differs from a severed one only when
    // reattachment is tried.
    let can_disable = variants.iter().any(|v| {
        v.rules
            .slots()
            .iter()
            .any(|s| s.effect == crate::rules::limbs::LimbEffect::Disable)
    });
    let reattaches = variants.iter().any(|v| v.rules.reattach.is_some());
    let categories = OUTCOME_CHART
        .iter()
        .filter(|m| applies(m))
        .filter(|m| can_disable || **m != "p_disabled_in_time")
        .filter(|m| reattaches || (**m != "p_tragic_injury" && **m != "p_reattached"))
        .filter_map(|m| PROPORTIONS.iter().find(|p| p.name == *m))
        .map(|m| (m.name.to_string(), m.label.to_string()))
        .collect();
    let all_variants = Variant::names(variants);
    let mut charts = vec![
        ChartSpec::Lines {
            file: "severed_by_round".into(),
            title: format!(
                "{}: probability of severing within N rounds ({how})",
                header.name
            ),
            x_label: "Rounds of cutting, N".into(),
            y_label: "Limb severed within N rounds (% of trials)".into(),
            variants: all_variants.clone(),
            points: LinePoints::Distribution("severed_by_round".into()),
            percent: true,
        },
        ChartSpec::Distribution {
            file: "hits_to_sever".into(),
            title: format!("{}: hits needed to sever the limb ({how})", header.name),
            distribution: "hits_to_sever".into(),
            x_label: "Hits landed until the limb is severed (count)".into(),
        },
        ChartSpec::Shares {
            file: "outcomes".into(),
            title: format!(
                "{}: how the race against the clock ends ({how})",
                header.name
            ),
            x_label: "Outcome when the clock runs out".into(),
            categories,
        },
    ];
    if reattaches {
        charts.push(ChartSpec::Lines {
            file: "reattached_within_uses".into(),
            title: format!(
                "{}: reattachment probability against healing spent ({how})",
                header.name
            ),
            x_label: "Healing uses available, spent in the listed order (count)".into(),
            y_label: "Limb reattached, given severed (%)".into(),
            variants: all_variants,
            points: LinePoints::Distribution("reattached_within_uses".into()),
            percent: true,
        });
    }
    ScenarioResult {
        figures,
        distributions,
        charts,
        ..ScenarioResult::for_header(header, Variant::names(variants))
    }
}

/// The headline metrics of a Monte Carlo run
/// ([`ScenarioResult::headline`]): the rows the terminal table shows by
/// default, the figures that answer the scenario's question (whether the
/// limb comes off before the venom spreads, whether the creature dies of
/// it, whether the limb is reattached and at what cost), with the paired
/// differences a reader needs to compare variants on them. The rest stay in
/// `summary.csv`, the charts, the HTML report's folded table and
/// `--metrics`. Exact mode (`woundsim exact`) shows every figure.
pub const HEADLINE: &[&str] = &[
    "p_purpose_met",
    "p_poison_spread",
    "p_death",
    "p_tragic_injury",
    "p_reattached",
    "mean_rounds_to_sever",
    "mean_heal_gp",
    "p_purpose_met_diff",
    "p_death_diff",
    "p_reattached_diff",
];
