//! Monte Carlo festering wounds (RULES.md §1) on common random numbers, and
//! the result shape (metrics, charts) that exact mode fills in too.
//!
//! Trial `t` draws one `u64` from the chunk stream; it seeds two per-trial
//! generators, one for the daily Medicine checks and one for the day magical
//! healing arrives, so every variant replays the same d20s and the same
//! arrival draws. One trial rolls enough checks to settle every max HP of
//! the variant's curve, so the `p_death_max_hp_<H>` points share their
//! random numbers too.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::dice::uniform_below;
use crate::engine::accum::{Histogram, Moments};
use crate::engine::stats::{Estimate, wilson, z_for_level};
use crate::engine::{Engine, EngineError, Merge, Progress, RunShape, Stop};
use crate::results::{ChartSpec, DistributionRow, Figure, LinePoints, ScenarioResult};
use crate::rules::festering::{Ending, FesteringRules, MagicArrival};
use crate::rules::healing::tending_day;
use crate::scenario::festering::FesteringScenario;
use crate::scenario::{ScenarioHeader, Variant};
use crate::sim::quantile;

/// Paired metrics: reported as `<name>_diff` against the first variant.
pub const DIFF_METRICS: [&str; 3] = ["p_death", "mean_max_hp_lost", "mean_days_open"];

/// One variant's counts.
#[derive(Clone, Debug)]
struct VariantAcc {
    n: u64,
    deaths: u64,
    tended: u64,
    magic: u64,
    loss: Histogram,
    closed: Histogram,
    lost: Moments,
    lasting: Moments,
    open: Moments,
    curve_deaths: Vec<u64>,
    diffs: [Moments; 3],
}

/// Per-chunk accumulator of every variant.
#[derive(Clone, Debug)]
pub struct FesteringAcc {
    variants: Vec<VariantAcc>,
}

impl Merge for FesteringAcc {
    fn merge(&mut self, later: Self) {
        for (a, b) in self.variants.iter_mut().zip(later.variants) {
            a.n += b.n;
            a.deaths += b.deaths;
            a.tended += b.tended;
            a.magic += b.magic;
            a.loss.merge(&b.loss);
            a.closed.merge(&b.closed);
            a.lost.merge(&b.lost);
            a.lasting.merge(&b.lasting);
            a.open.merge(&b.open);
            for (x, y) in a.curve_deaths.iter_mut().zip(&b.curve_deaths) {
                *x += y;
            }
            for (x, y) in a.diffs.iter_mut().zip(&b.diffs) {
                x.merge(y);
            }
        }
    }
}

fn new_acc(variants: &[Variant<FesteringScenario>]) -> FesteringAcc {
    FesteringAcc {
        variants: variants
            .iter()
            .map(|v| {
                let r = &v.rules.rules;
                VariantAcc {
                    n: 0,
                    deaths: 0,
                    tended: 0,
                    magic: 0,
                    loss: Histogram::new(0, r.max_hp as usize + 1),
                    closed: Histogram::new(0, r.death_day(r.max_hp) as usize),
                    lost: Moments::default(),
                    lasting: Moments::default(),
                    open: Moments::default(),
                    curve_deaths: vec![0; v.rules.curve.len()],
                    diffs: Default::default(),
                }
            })
            .collect(),
    }
}

/// Checks needed to settle every max HP the variant asks about.
fn max_checks(s: &FesteringScenario) -> u32 {
    let top = s
        .curve
        .iter()
        .copied()
        .chain([s.rules.max_hp])
        .max()
        .unwrap_or(1);
    s.rules.death_day(top) + 1
}

fn magic_day<R: Rng + ?Sized>(magic: MagicArrival, horizon: u32, rng: &mut R) -> Option<u32> {
    match magic {
        MagicArrival::Never => None,
        MagicArrival::Fixed(d) => Some(d),
        MagicArrival::Uniform(lo, hi) => {
            Some(lo + uniform_below(rng, u64::from(hi - lo) + 1) as u32)
        }
        MagicArrival::Daily(p) => (1..=horizon).find(|_| {
            let u = (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
            u < p
        }),
    }
}

/// Simulates `count` trials of every variant.
fn simulate_chunk(
    variants: &[Variant<FesteringScenario>],
    checks: &[u32],
    rng: &mut Xoshiro256PlusPlus,
    count: u64,
    acc: &mut FesteringAcc,
    stop: Stop<'_>,
) {
    for _ in 0..count {
        if stop.requested() {
            return;
        }
        let seed = rng.next_u64();
        let mut base = [0.0f64; 3];
        for (v, variant) in variants.iter().enumerate() {
            let s = &variant.rules;
            let r: &FesteringRules = &s.rules;
            let mut check_rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut magic_rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x5851_f42d_4c95_7f2d);
            let d = magic_day(r.magic, checks[v], &mut magic_rng);
            let t = if r.tended {
                tending_day(r, checks[v], &mut check_rng)
            } else {
                None
            };
            let o = r.resolve(r.max_hp, t, d);
            let a = &mut acc.variants[v];
            a.n += 1;
            match o.ending {
                Ending::Dead => a.deaths += 1,
                Ending::Tended => a.tended += 1,
                Ending::Magic => a.magic += 1,
            }
            a.loss.add(i64::from(o.max_hp_lost), 1);
            if o.ending != Ending::Dead {
                a.closed.add(i64::from(o.days_open), 1);
            }
            a.lost.push(f64::from(o.max_hp_lost));
            a.lasting.push(f64::from(o.lasting_loss));
            a.open.push(f64::from(o.days_open));
            for (k, &h) in s.curve.iter().enumerate() {
                a.curve_deaths[k] += u64::from(r.resolve(h, t, d).ending == Ending::Dead);
            }
            let x = [
                f64::from(u8::from(o.ending == Ending::Dead)),
                f64::from(o.max_hp_lost),
                f64::from(o.days_open),
            ];
            if v == 0 {
                base = x;
            } else {
                for k in 0..3 {
                    a.diffs[k].push(x[k] - base[k]);
                }
            }
        }
    }
}

/// Runs the scenario's variants by Monte Carlo.
pub fn simulate(
    header: &ScenarioHeader,
    variants: &[Variant<FesteringScenario>],
    engine: &Engine,
    progress: &dyn Progress,
) -> Result<ScenarioResult, EngineError> {
    let checks: Vec<u32> = variants.iter().map(|v| max_checks(&v.rules)).collect();
    let shape = RunShape {
        trials: header.trials,
        seed: header.seed,
    };
    let acc = engine.run(
        shape,
        progress,
        || new_acc(variants),
        |rng, _, n, acc, stop| simulate_chunk(variants, &checks, rng, n, acc, stop),
    )?;
    let z = z_for_level(header.confidence);
    let mut figures = Vec::new();
    let mut rows = Vec::new();
    for (variant, a) in variants.iter().zip(&acc.variants) {
        let mut push = |metric: String, estimate: Estimate| {
            figures.push(Figure {
                variant: variant.name.clone(),
                metric,
                estimate,
            });
        };
        push("p_death".into(), wilson(a.deaths, a.n, z));
        push("p_closed_by_tending".into(), wilson(a.tended, a.n, z));
        push("p_closed_by_magic".into(), wilson(a.magic, a.n, z));
        push("mean_max_hp_lost".into(), a.lost.estimate(z));
        let loss: Vec<u64> = a.loss.bins().map(|(_, c)| c).collect();
        for (q, prefix) in quantile::LEVELS {
            if let Some(e) = quantile::from_counts(0, &loss, q, z) {
                push(format!("{prefix}_max_hp_lost"), e);
            }
        }
        push("mean_max_hp_lost_lasting".into(), a.lasting.estimate(z));
        push("mean_days_open".into(), a.open.estimate(z));
        let closed: Vec<u64> = a.closed.bins().map(|(_, c)| c).collect();
        if a.closed.total() > 0 {
            push(
                "mean_days_until_closed".into(),
                a.closed.moments().estimate(z),
            );
            for (q, prefix) in quantile::LEVELS {
                if let Some(e) = quantile::from_counts(0, &closed, q, z) {
                    push(format!("{prefix}_days_until_closed"), e);
                }
            }
        }
        for (k, &h) in variant.rules.curve.iter().enumerate() {
            push(
                format!("p_death_max_hp_{h}"),
                wilson(a.curve_deaths[k], a.n, z),
            );
        }
        // Days until closed: among closed wounds only (absent if none closed).
        let closed_rows = Some(("days_until_closed", &a.closed)).filter(|_| a.closed.total() > 0);
        for (name, hist) in std::iter::once(("max_hp_lost", &a.loss)).chain(closed_rows) {
            rows.extend(
                hist.shares(z)
                    .into_iter()
                    .map(|(bin, count, share)| DistributionRow {
                        variant: variant.name.clone(),
                        distribution: name.into(),
                        bin,
                        count,
                        share,
                    }),
            );
        }
    }
    for (variant, a) in variants.iter().zip(&acc.variants).skip(1) {
        for (k, name) in DIFF_METRICS.iter().enumerate() {
            figures.push(Figure {
                variant: variant.name.clone(),
                metric: format!("{name}_diff"),
                estimate: a.diffs[k].estimate(z),
            });
        }
    }
    Ok(finish(header, variants, figures, rows))
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
pub fn finish(
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
        ..ScenarioResult::for_header(header, variants.iter().map(|v| v.name.clone()).collect())
    }
}
