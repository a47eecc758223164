//! Monte Carlo festering wounds (docs/rules.md, lingering injuries) on common random numbers, and
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

use serde::{Deserialize, Serialize};

use super::{DIFF_METRICS, FesteringScenario, result};
use crate::dice::uniform_below;
use crate::engine::Stop;
use crate::engine::accum::{Histogram, Moments};
use crate::engine::merge::mergeable;
use crate::engine::paired::Baseline;
use crate::engine::quantile;
use crate::engine::stats::{Estimate, wilson, z_for_level};
use crate::model::{ScenarioHeader, Variant};
use crate::results::{DistributionRow, Figure, ScenarioResult};
use crate::rules::festering::{Ending, FesteringRules, MagicArrival};
use crate::rules::healing::tending_day;

/// The variants compiled for the hot loop: each with the checks one trial
/// rolls (enough to settle every max HP of its curve).
pub struct Prepared<'a> {
    variants: &'a [Variant<FesteringScenario>],
    checks: Vec<u32>,
}

/// Compiles the variants.
pub fn prepare(variants: &[Variant<FesteringScenario>]) -> Prepared<'_> {
    Prepared {
        variants,
        checks: variants.iter().map(|v| max_checks(&v.rules)).collect(),
    }
}

mergeable! {
    /// One variant's counts.
    #[derive(Clone, Debug, Serialize, Deserialize)]
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
}

mergeable! {
    /// Per-chunk accumulator of every variant.
    #[derive(Clone, Debug, Serialize, Deserialize)]
    pub struct FesteringAcc {
        variants: Vec<VariantAcc>,
    }
}

/// An empty accumulator.
pub fn new_acc(prepared: &Prepared<'_>) -> FesteringAcc {
    FesteringAcc {
        variants: prepared
            .variants
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
        MagicArrival::Daily(chance) => (1..=horizon).find(|_| chance.sample(rng)),
    }
}

/// Simulates `count` trials of every variant.
pub fn simulate_chunk(
    prepared: &Prepared<'_>,
    rng: &mut Xoshiro256PlusPlus,
    count: u64,
    acc: &mut FesteringAcc,
    stop: Stop<'_>,
) {
    let (variants, checks) = (prepared.variants, &prepared.checks);
    let mut baseline = Baseline::default();
    for _ in 0..count {
        if stop.requested() {
            return;
        }
        let seed = rng.next_u64();
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
            baseline.record(v, &x, &mut a.diffs);
        }
    }
}

/// The figures, distributions and charts of the merged counts.
pub fn finish(
    header: &ScenarioHeader,
    variants: &[Variant<FesteringScenario>],
    acc: &FesteringAcc,
) -> ScenarioResult {
    let z = z_for_level(header.confidence);
    let mut figures = Vec::new();
    let mut rows = Vec::new();
    for (variant, a) in variants.iter().zip(&acc.variants) {
        // Each figure with the trials it is taken over.
        let mut push = |metric: String, estimate: Estimate, of: u64| {
            figures.push(Figure {
                variant: variant.name.clone(),
                metric,
                estimate,
                trials: Some(of),
            });
        };
        push("p_death".into(), wilson(a.deaths, a.n, z), a.n);
        push("p_closed_by_tending".into(), wilson(a.tended, a.n, z), a.n);
        push("p_closed_by_magic".into(), wilson(a.magic, a.n, z), a.n);
        push("mean_max_hp_lost".into(), a.lost.estimate(z), a.n);
        let loss: Vec<u64> = a.loss.bins().map(|(_, c)| c).collect();
        for (q, prefix) in quantile::LEVELS {
            if let Some(e) = quantile::from_counts(0, &loss, q, z) {
                push(format!("{prefix}_max_hp_lost"), e, a.n);
            }
        }
        push(
            "mean_max_hp_lost_lasting".into(),
            a.lasting.estimate(z),
            a.n,
        );
        push("mean_days_open".into(), a.open.estimate(z), a.n);
        let closed: Vec<u64> = a.closed.bins().map(|(_, c)| c).collect();
        if a.closed.total() > 0 {
            // Among the wounds that closed: the trials behind these figures.
            let of = a.closed.total();
            push(
                "mean_days_until_closed".into(),
                a.closed.moments().estimate(z),
                of,
            );
            for (q, prefix) in quantile::LEVELS {
                if let Some(e) = quantile::from_counts(0, &closed, q, z) {
                    push(format!("{prefix}_days_until_closed"), e, of);
                }
            }
        }
        for (k, &h) in variant.rules.curve.iter().enumerate() {
            push(
                format!("p_death_max_hp_{h}"),
                wilson(a.curve_deaths[k], a.n, z),
                a.n,
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
                        trials: Some(hist.total()),
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
                trials: None,
            });
        }
    }
    result(header, variants, figures, rows)
}
