//! `type = "death_saves"`: death-save sequences (docs/rules.md, death saves) with the
//! permanent-wound option (docs/rules.md, permanent wounds), by Monte Carlo on common random
//! numbers ([`mc`]) and exactly as an absorbing Markov chain ([`exact`]).
//!
//! The metric catalogue ([`METRICS`]) is the contract both modes share:
//! each metric is a function of one sequence's outcome code (resolution ×
//! saves rolled), so Monte Carlo counts and exact probabilities of the
//! codes give every figure by name.

pub mod exact;
pub mod mc;
pub mod schema;

use rand_xoshiro::Xoshiro256PlusPlus;

use super::ScenarioType;
use crate::engine::Stop;
use crate::engine::rng::TrialSeeds;
use crate::model::{Catalog, ScenarioHeader, Variant};
use crate::results::catalogue::{Catalogue, MetricDef};
use crate::results::{ChartSpec, DistributionRow, Figure, ScenarioResult, Unit};
pub use crate::rules::death_save_chain::{CODES, code, decode};
use crate::rules::death_saves::{DeathSaveRules, Resolution};
use crate::scenario::ScenarioError;
use crate::scenario::layers::Layers;

/// The `death_saves` scenario type.
pub struct DeathSaves;

impl ScenarioType for DeathSaves {
    const NAME: &'static str = "death_saves";
    /// 65,536 death-save sequences: about 2.5 ms of one thread for the
    /// shipped `death-saves` (6 variants, 38 ns a trial). Below the other
    /// types' 10–50 ms on purpose: a death-save chunk reads its d20s from
    /// the chunk's own stream, so its size is part of every published
    /// figure (65,536 since the first release); a chunk's task and merge
    /// cost nothing measurable (the shipped run took 0.77 s on one thread
    /// both in chunks of 2^16 and of 2^19); and the shipped 20 million
    /// trials make 306 chunks, which share out evenly over 16 threads.
    const CHUNK_TRIALS: u64 = 1 << 16;
    type Raw = schema::RawSettings;
    type Rules = DeathSaveRules;
    type Prepared<'a> = Vec<mc::CompiledRules>;
    type Acc = mc::JointCounts;

    fn build(
        layers: &Layers<Self::Raw>,
        catalog: &Catalog,
    ) -> Result<DeathSaveRules, ScenarioError> {
        schema::build(layers, catalog)
    }

    fn prepare(variants: &[Variant<DeathSaveRules>]) -> Vec<mc::CompiledRules> {
        variants
            .iter()
            .map(|v| mc::CompiledRules::new(&v.rules))
            .collect()
    }

    fn new_acc(prepared: &Vec<mc::CompiledRules>) -> mc::JointCounts {
        mc::JointCounts::new(prepared.len())
    }

    fn trials_counted(acc: &mc::JointCounts) -> Vec<u64> {
        acc.trials_counted()
    }

    fn simulate_chunk(
        prepared: &Vec<mc::CompiledRules>,
        rng: &mut Xoshiro256PlusPlus,
        trials: TrialSeeds,
        acc: &mut mc::JointCounts,
        stop: Stop<'_>,
    ) {
        mc::simulate_chunk(prepared, rng, trials.len() as u64, acc, stop);
    }

    fn finish(
        header: &ScenarioHeader,
        variants: &[Variant<DeathSaveRules>],
        _prepared: &Vec<mc::CompiledRules>,
        acc: &mc::JointCounts,
    ) -> ScenarioResult {
        mc::monte_carlo_result(header, variants, acc).with_headline(HEADLINE)
    }

    fn solve(
        header: &ScenarioHeader,
        variants: &[Variant<DeathSaveRules>],
    ) -> Option<ScenarioResult> {
        let solved: Vec<_> = variants.iter().map(|v| exact::solve(&v.rules)).collect();
        let (figures, distributions) = exact::figures(variants, &solved);
        Some(result(header, variants, figures, distributions))
    }
}

/// What a metric measures on one sequence.
#[derive(Clone, Copy, Debug)]
pub enum MetricKind {
    /// A 0/1 indicator: reported as a proportion with a Wilson interval.
    Proportion(fn(Resolution) -> bool),
    /// A number of saves: reported as a mean with a normal interval.
    Rolls,
}

/// One death-save metric: its name in `summary.csv` and what it measures.
#[derive(Clone, Copy, Debug)]
pub struct Metric {
    /// Metric name (a contract: documented in the README).
    pub name: &'static str,
    /// Label for charts.
    pub label: &'static str,
    /// What it measures.
    pub kind: MetricKind,
}

impl Metric {
    /// The metric's value on one sequence: 0 or 1 for a proportion, the
    /// number of saves for [`MetricKind::Rolls`].
    pub fn count(&self, code: usize) -> u64 {
        let (resolution, rolls) = decode(code);
        match self.kind {
            MetricKind::Proportion(indicator) => u64::from(indicator(resolution)),
            MetricKind::Rolls => u64::from(rolls),
        }
    }

    /// [`Metric::count`] as a float.
    pub fn value(&self, code: usize) -> f64 {
        self.count(code) as f64
    }
}

fn wounded(resolution: Resolution, severity: usize) -> bool {
    matches!(resolution, Resolution::Wounded(s) if s as usize == severity)
}

/// The death-save metrics, in report order.
pub const METRICS: [Metric; 9] = [
    Metric {
        name: "p_dead",
        label: "dead",
        kind: MetricKind::Proportion(|r| r == Resolution::Dead),
    },
    Metric {
        name: "p_stable",
        label: "stable (3 successes)",
        kind: MetricKind::Proportion(|r| r == Resolution::Stable),
    },
    Metric {
        name: "p_revive",
        label: "revived (natural 20)",
        kind: MetricKind::Proportion(|r| r == Resolution::Revived),
    },
    Metric {
        name: "p_wound_minor",
        label: "minor wound",
        kind: MetricKind::Proportion(|r| wounded(r, 0)),
    },
    Metric {
        name: "p_wound_moderate",
        label: "moderate wound",
        kind: MetricKind::Proportion(|r| wounded(r, 1)),
    },
    Metric {
        name: "p_wound_severe",
        label: "severe wound",
        kind: MetricKind::Proportion(|r| wounded(r, 2)),
    },
    Metric {
        name: "p_wound_any",
        label: "any wound",
        kind: MetricKind::Proportion(|r| matches!(r, Resolution::Wounded(_))),
    },
    Metric {
        name: "p_survive",
        label: "survived",
        kind: MetricKind::Proportion(|r| r != Resolution::Dead),
    },
    Metric {
        name: "mean_rolls",
        label: "death saves rolled",
        kind: MetricKind::Rolls,
    },
];

/// The catalogue of `variants` variants: every metric, each with its
/// paired difference.
pub fn catalogue(variants: usize) -> Catalogue<&'static Metric> {
    let defs = METRICS
        .iter()
        .map(|m| match m.kind {
            MetricKind::Proportion(_) => MetricDef::proportion(m.name, m),
            MetricKind::Rolls => MetricDef::count(m.name, Unit::Count, m),
        })
        .map(MetricDef::with_diff)
        .collect();
    Catalogue::same_for_all(variants, defs)
}

/// The metrics drawn as the outcome-share chart: the partition of outcomes.
const OUTCOME_CHART_METRICS: [&str; 6] = [
    "p_dead",
    "p_stable",
    "p_revive",
    "p_wound_minor",
    "p_wound_moderate",
    "p_wound_severe",
];

/// Assembles a result (shared by Monte Carlo and exact mode).
pub fn result(
    header: &ScenarioHeader,
    variants: &[Variant<DeathSaveRules>],
    figures: Vec<Figure>,
    distributions: Vec<DistributionRow>,
) -> ScenarioResult {
    let exact = header.trials == 0;
    let any_wound_policy = variants
        .iter()
        .any(|v| v.rules.wound_policy != crate::rules::permanent_wounds::WoundPolicy::Never);
    let categories = OUTCOME_CHART_METRICS
        .iter()
        .filter(|m| any_wound_policy || !m.starts_with("p_wound"))
        .map(|m| {
            let label = METRICS
                .iter()
                .find(|x| x.name == *m)
                .map_or(*m, |x| x.label);
            (m.to_string(), label.to_string())
        })
        .collect();
    let how = if exact {
        "exact".to_string()
    } else {
        format!(
            "{} sequences per variant",
            crate::results::thousands(header.trials)
        )
    };
    ScenarioResult {
        figures,
        distributions,
        charts: vec![
            ChartSpec::Shares {
                file: "outcomes".into(),
                title: format!("{}: how death-save sequences end ({how})", header.name),
                x_label: "Outcome of the death-save sequence".into(),
                categories,
            },
            ChartSpec::Distribution {
                file: "rolls".into(),
                title: format!(
                    "{}: death saves rolled until resolution ({how})",
                    header.name
                ),
                distribution: "rolls".into(),
                x_label: "Death saves rolled (count)".into(),
            },
        ],
        ..ScenarioResult::for_header(header, Variant::names(variants))
    }
}

/// The headline metrics of a Monte Carlo run
/// ([`ScenarioResult::headline`]): the rows the terminal table shows by
/// default, the figures that answer the scenario's question (how a dying PC
/// ends: dead, stable, or up with a permanent wound by severity; how many
/// saves it takes), with the paired differences a reader needs to compare
/// variants on them. The rest stay in `summary.csv`, the charts, the HTML
/// report's folded table and `--metrics`. Exact mode (`woundsim exact`)
/// shows every figure.
pub const HEADLINE: &[&str] = &[
    "p_dead",
    "p_stable",
    "p_wound_minor",
    "p_wound_moderate",
    "p_wound_severe",
    "p_wound_any",
    "mean_rolls",
    "p_dead_diff",
    "p_wound_any_diff",
];
