//! `type = "festering"`: the festering-wound tending process (docs/rules.md, lingering injuries,
//! festering and open wounds), by Monte Carlo on common random numbers
//! ([`mc`]) and exactly from the closed-form distribution of one wound
//! ([`exact`]), in one result shape ([`result`]).

pub mod exact;
pub mod mc;
pub mod schema;

use rand_xoshiro::Xoshiro256PlusPlus;

use super::ScenarioType;
use crate::engine::Stop;
use crate::engine::quantile;
use crate::engine::rng::TrialSeeds;
use crate::model::{Catalog, ScenarioHeader, Variant};
use crate::results::catalogue::{Catalogue, Kind, MetricDef};
use crate::results::{ChartSpec, DistributionRow, Figure, LinePoints, ScenarioResult, Unit};
use crate::rules::festering::FesteringRules;
use crate::scenario::ScenarioError;
use crate::scenario::layers::Layers;

/// One variant's festering model.
#[derive(Clone, Debug, PartialEq)]
pub struct FesteringScenario {
    /// The process.
    pub rules: FesteringRules,
    /// Max HP values of the `p_death_max_hp_<H>` curve.
    pub curve: Vec<u32>,
}

impl FesteringScenario {
    /// Default max-HP curve: 5, 10, ..., 100.
    pub const DEFAULT_CURVE: [u32; 20] = [
        5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 65, 70, 75, 80, 85, 90, 95, 100,
    ];
}

/// The `festering` scenario type.
pub struct Festering;

impl ScenarioType for Festering {
    const NAME: &'static str = "festering";
    /// 8,192 festering wounds: about 15 ms of one thread for the shipped
    /// `festering-wounds` (12 variants, 1.8 µs a trial).
    const CHUNK_TRIALS: u64 = 1 << 13;
    type Raw = schema::RawSettings;
    type Rules = FesteringScenario;
    type Prepared<'a> = mc::Prepared<'a>;
    type Acc = mc::FesteringAcc;

    fn build(
        layers: &Layers<Self::Raw>,
        catalog: &Catalog,
    ) -> Result<FesteringScenario, ScenarioError> {
        schema::build(layers, catalog)
    }

    fn prepare(variants: &[Variant<FesteringScenario>]) -> mc::Prepared<'_> {
        mc::prepare(variants)
    }

    fn new_acc(prepared: &mc::Prepared<'_>) -> mc::FesteringAcc {
        mc::new_acc(prepared)
    }

    fn trials_counted(acc: &mc::FesteringAcc) -> Vec<u64> {
        mc::trials_counted(acc)
    }

    fn simulate_chunk(
        prepared: &mc::Prepared<'_>,
        _rng: &mut Xoshiro256PlusPlus,
        trials: TrialSeeds,
        acc: &mut mc::FesteringAcc,
        stop: Stop<'_>,
    ) {
        mc::simulate_chunk(prepared, trials, acc, stop);
    }

    fn finish(
        header: &ScenarioHeader,
        variants: &[Variant<FesteringScenario>],
        _prepared: &mc::Prepared<'_>,
        acc: &mc::FesteringAcc,
    ) -> ScenarioResult {
        mc::finish(header, variants, acc).with_headline(HEADLINE)
    }

    fn solve(
        header: &ScenarioHeader,
        variants: &[Variant<FesteringScenario>],
    ) -> Option<ScenarioResult> {
        Some(exact::solve(header, variants))
    }
}

/// What a festering metric measures of a wound (quantiles by their index
/// in [`quantile::LEVELS`], curve points by their index in the curve).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// It killed (max HP reached 0).
    Death,
    /// Tending closed it.
    ClosedByTending,
    /// Magical healing closed it.
    ClosedByMagic,
    /// Max HP lost.
    MaxHpLost,
    /// A quantile of the max HP lost.
    MaxHpLostQuantile(usize),
    /// Max HP still lost after the next long rest.
    Lasting,
    /// Days it stayed open.
    DaysOpen,
    /// Days until it closed, among those that closed.
    DaysUntilClosed,
    /// A quantile of the days until it closed.
    DaysUntilClosedQuantile(usize),
    /// Death at the curve's `k`-th max HP.
    DeathAtMaxHp(usize),
}

/// The catalogue: each variant's metrics (its own death curve); death, max
/// HP lost and days open with their paired differences.
pub fn catalogue(variants: &[Variant<FesteringScenario>]) -> Catalogue<Measure> {
    Catalogue::new(variants.iter().map(|v| metrics(&v.rules)).collect())
}

fn metrics(s: &FesteringScenario) -> Vec<MetricDef<Measure>> {
    let quantiles = |what: &str, unit, measure: fn(usize) -> Measure| {
        quantile::LEVELS
            .iter()
            .enumerate()
            .map(move |(i, (_, prefix))| {
                MetricDef::new(format!("{prefix}_{what}"), Kind::Quantile, unit, measure(i))
            })
            .collect::<Vec<_>>()
    };
    let mut defs = vec![
        MetricDef::proportion("p_death", Measure::Death).with_diff(),
        MetricDef::proportion("p_closed_by_tending", Measure::ClosedByTending),
        MetricDef::proportion("p_closed_by_magic", Measure::ClosedByMagic),
        MetricDef::mean("mean_max_hp_lost", Unit::Hp, Measure::MaxHpLost).with_diff(),
    ];
    defs.extend(quantiles(
        "max_hp_lost",
        Unit::Hp,
        Measure::MaxHpLostQuantile,
    ));
    defs.push(MetricDef::mean(
        "mean_max_hp_lost_lasting",
        Unit::Hp,
        Measure::Lasting,
    ));
    defs.push(MetricDef::mean("mean_days_open", Unit::Days, Measure::DaysOpen).with_diff());
    defs.push(MetricDef::mean(
        "mean_days_until_closed",
        Unit::Days,
        Measure::DaysUntilClosed,
    ));
    defs.extend(quantiles(
        "days_until_closed",
        Unit::Days,
        Measure::DaysUntilClosedQuantile,
    ));
    defs.extend(s.curve.iter().enumerate().map(|(k, h)| {
        MetricDef::proportion(format!("p_death_max_hp_{h}"), Measure::DeathAtMaxHp(k))
    }));
    defs
}

/// Variants that differ from the first only in the tender's Medicine
/// modifier (and its roll): the "one curve per Medicine modifier" set.
fn medicine_series(variants: &[Variant<FesteringScenario>]) -> Vec<String> {
    let Some(first) = variants.first() else {
        return Vec::new();
    };
    let key = |s: &FesteringScenario| FesteringScenario {
        rules: FesteringRules {
            medicine_bonus: 0,
            roll: crate::dice::RollMode::Normal,
            ..s.rules
        },
        curve: s.curve.clone(),
    };
    let base = key(&first.rules);
    variants
        .iter()
        .filter(|v| key(&v.rules) == base)
        .map(|v| v.name.clone())
        .collect()
}

/// Assembles a result with its charts (shared by Monte Carlo and exact mode).
pub fn result(
    header: &ScenarioHeader,
    variants: &[Variant<FesteringScenario>],
    figures: Vec<Figure>,
    distributions: Vec<DistributionRow>,
) -> ScenarioResult {
    let exact = header.trials == 0;
    let how = if exact {
        "exact".to_string()
    } else {
        format!(
            "{} wounds per variant",
            crate::results::thousands(header.trials)
        )
    };
    let series = medicine_series(variants);
    let curve = variants
        .first()
        .map(|v| v.rules.curve.clone())
        .unwrap_or_default();
    let max_hp = variants.first().map_or(0, |v| v.rules.rules.max_hp);
    ScenarioResult {
        figures,
        distributions,
        charts: vec![
            ChartSpec::Shares {
                file: "outcomes".into(),
                title: format!("{}: how a festering wound ends ({how})", header.name),
                x_label: "Outcome of the wound".into(),
                categories: vec![
                    ("p_death".into(), "dead (max HP 0)".into()),
                    ("p_closed_by_tending".into(), "closed by tending".into()),
                    ("p_closed_by_magic".into(), "closed by magic".into()),
                ],
            },
            ChartSpec::Lines {
                file: "death-by-max-hp".into(),
                title: format!(
                    "{}: death from a festering wound against max HP, by Medicine modifier ({how})",
                    header.name
                ),
                x_label: "Max HP of the wounded creature (hit points)".into(),
                y_label: "Probability of death (%)".into(),
                variants: series.clone(),
                points: LinePoints::Metrics(
                    curve
                        .iter()
                        .map(|&h| (f64::from(h), format!("p_death_max_hp_{h}")))
                        .collect(),
                ),
                percent: true,
            },
            ChartSpec::Lines {
                file: "max-hp-lost".into(),
                title: format!(
                    "{}: max HP lost to a festering wound (max HP {max_hp}), by Medicine modifier ({how})",
                    header.name
                ),
                x_label: "Max HP lost before the wound closes (hit points; a death loses all)"
                    .into(),
                y_label: "Share of wounds (%)".into(),
                variants: series,
                points: LinePoints::Distribution("max_hp_lost".into()),
                percent: true,
            },
        ],
        ..ScenarioResult::for_header(header, Variant::names(variants))
    }
}

/// The headline metrics of a Monte Carlo run
/// ([`ScenarioResult::headline`]): the rows the terminal table shows by
/// default, the figures that answer the scenario's question (how a
/// festering wound ends, and the max HP it costs), with the paired
/// differences a reader needs to compare variants on them. The rest stay in
/// `summary.csv`, the charts, the HTML report's folded table and
/// `--metrics`. Exact mode (`woundsim exact`) shows every figure.
pub const HEADLINE: &[&str] = &[
    "p_death",
    "p_closed_by_tending",
    "p_closed_by_magic",
    "mean_max_hp_lost",
    "mean_max_hp_lost_lasting",
    "p_death_diff",
    "mean_max_hp_lost_diff",
];
