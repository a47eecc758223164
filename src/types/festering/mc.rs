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

use super::{FesteringScenario, Measure, catalogue, result};
use crate::dice::uniform_below;
use crate::engine::Stop;
use crate::engine::accum::{Histogram, Moments};
use crate::engine::merge::mergeable;
use crate::engine::paired::Baseline;
use crate::engine::quantile;
use crate::engine::rng::TrialSeeds;
use crate::engine::stats::z_for_level;
use crate::model::{ScenarioHeader, Variant};
use crate::results::catalogue::{MetricDef, Observed, Reading, figures};
use crate::results::{DistributionRow, ScenarioResult};
use crate::rules::festering::{Ending, FesteringRules, MagicArrival};
use crate::rules::injury_cures::tending_day;

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
/// The trials each variant counted.
pub fn trials_counted(acc: &FesteringAcc) -> Vec<u64> {
    acc.variants.iter().map(|a| a.n).collect()
}

/// No counts yet.
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
    trials: TrialSeeds,
    acc: &mut FesteringAcc,
    stop: Stop<'_>,
) {
    let (variants, checks) = (prepared.variants, &prepared.checks);
    let mut baseline = Baseline::default();
    for seed in trials {
        if stop.requested() {
            return;
        }
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
    // Each figure with the trials it is taken over; the days until closed
    // among the wounds that closed (absent if none closed).
    let read = |v: usize, _: usize, def: &MetricDef<Measure>| {
        let a = &acc.variants[v];
        let closed = a.closed.total();
        let quantile = |h: &Histogram, i: usize| Reading::Quantile {
            first: 0,
            counts: h.bins().map(|(_, c)| c).collect(),
            q: quantile::LEVELS[i].0,
        };
        let events = |hits| Reading::Events { hits, of: a.n };
        match def.measure {
            Measure::Death => Observed::over(events(a.deaths), a.n),
            Measure::ClosedByTending => Observed::over(events(a.tended), a.n),
            Measure::ClosedByMagic => Observed::over(events(a.magic), a.n),
            Measure::MaxHpLost => Observed::over(Reading::Moments(a.lost), a.n),
            Measure::MaxHpLostQuantile(i) => Observed::over(quantile(&a.loss, i), a.n),
            Measure::Lasting => Observed::over(Reading::Moments(a.lasting), a.n),
            Measure::DaysOpen => Observed::over(Reading::Moments(a.open), a.n),
            Measure::DeathAtMaxHp(k) => Observed::over(events(a.curve_deaths[k]), a.n),
            _ if closed == 0 => Observed::ABSENT,
            Measure::DaysUntilClosed => {
                Observed::over(Reading::Moments(a.closed.moments()), closed)
            }
            Measure::DaysUntilClosedQuantile(i) => Observed::over(quantile(&a.closed, i), closed),
        }
    };
    let read_diff = |v: usize, _: usize, def: &MetricDef<Measure>| {
        let k = match def.measure {
            Measure::Death => 0,
            Measure::MaxHpLost => 1,
            _ => 2,
        };
        Observed::of_trials(Reading::Moments(acc.variants[v].diffs[k]))
    };
    let figures = figures(
        &Variant::names(variants),
        &catalogue(variants),
        z,
        read,
        read_diff,
    );
    let mut rows = Vec::new();
    for (variant, a) in variants.iter().zip(&acc.variants) {
        // Days until closed: among closed wounds only (absent if none closed).
        let closed_rows = Some(("days_until_closed", &a.closed)).filter(|_| a.closed.total() > 0);
        for (name, hist) in std::iter::once(("max_hp_lost", &a.loss)).chain(closed_rows) {
            // Once per histogram, not per bin: the rows are linear in the bins.
            let total = hist.total();
            rows.extend(
                hist.shares(z)
                    .into_iter()
                    .map(|(bin, count, share)| DistributionRow {
                        variant: variant.name.clone(),
                        distribution: name.into(),
                        bin,
                        count,
                        share,
                        trials: Some(total),
                    }),
            );
        }
    }
    result(header, variants, figures, rows)
}
