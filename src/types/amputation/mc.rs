//! Monte Carlo amputation races and reattachments (docs/rules.md, limb damage) on common
//! random numbers.
//!
//! Trial `t` draws one `u64` from its chunk's stream; every variant resolves
//! the trial from that same seed ([`AmputationRules::resolve`] splits it
//! into separate clock, attack, venom and healing streams), so variants are
//! compared on the same clock and venom rolls, and paired `_diff` figures
//! come from per-trial joint counts. Accumulators hold integer counts,
//! fixed-bin histograms and Welford moments only: O(1) memory in trials.

use serde::{Deserialize, Serialize};

use super::{Measure, PROPORTIONS, catalogue, max_hits, result, trim, trim_each};
use crate::engine::Stop;
use crate::engine::accum::{Histogram, Moments};
use crate::engine::merge::mergeable;
use crate::engine::rng::TrialSeeds;
use crate::engine::stats::{wilson, z_for_level};
use crate::model::{ScenarioHeader, Variant};
use crate::results::catalogue::{MetricDef, Observed, Reading, figures};
use crate::results::{DistributionRow, ScenarioResult};
use crate::rules::amputation::{AmputationRules, AttackSlot, TrialOutcome};

mergeable! {
    /// One variant's counts.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    pub struct VariantCounts {
        trials: u64,
        hits: [u64; PROPORTIONS.len()],
        /// `[v=1 & base=0, v=0 & base=1]` per proportion, against variant 0.
        discordant: [[u64; 2]; PROPORTIONS.len()],
        /// Round the purpose was served (severed, or disabled where that serves).
        rounds: Histogram,
        /// Hits landed until then.
        hit_count: Histogram,
        /// Reattachment attempts (limb severed in time, reattach rules given).
        attempts: u64,
        /// Attempts that reattached.
        reattached: u64,
        /// Healing uses spent per attempt.
        uses: Histogram,
        /// Healing uses of attempts that reattached.
        uses_reattached: Histogram,
        /// Spell uses per attempt.
        spells: Histogram,
        /// Potion uses per attempt.
        potions: Histogram,
        gp: Moments,
        minutes: Moments,
    }
}

impl VariantCounts {
    /// No counts yet for a variant with `slots` attack slots per round.
    pub fn new(rules: &AmputationRules, slots: usize) -> Self {
        let uses = rules.reattach.as_ref().map_or(0, |r| r.total_uses()) as usize;
        VariantCounts {
            trials: 0,
            hits: [0; PROPORTIONS.len()],
            discordant: [[0; 2]; PROPORTIONS.len()],
            rounds: Histogram::new(1, rules.max_rounds as usize),
            hit_count: Histogram::new(0, max_hits(rules, slots) + 1),
            attempts: 0,
            reattached: 0,
            uses: Histogram::new(0, uses + 1),
            uses_reattached: Histogram::new(0, uses + 1),
            spells: Histogram::new(0, uses + 1),
            potions: Histogram::new(0, uses + 1),
            gp: Moments::default(),
            minutes: Moments::default(),
        }
    }

    /// The trials counted.
    pub fn trials(&self) -> u64 {
        self.trials
    }

    fn record(&mut self, t: &TrialOutcome, base: &[bool; PROPORTIONS.len()]) {
        self.trials += 1;
        for (i, m) in PROPORTIONS.iter().enumerate() {
            let x = (m.indicator)(t);
            self.hits[i] += u64::from(x);
            if x != base[i] {
                self.discordant[i][usize::from(base[i])] += 1;
            }
        }
        if let Some(r) = t.served_round {
            self.rounds.add(i64::from(r), 1);
            self.hit_count.add(i64::from(t.hits), 1);
        }
        if let Some(r) = t.reattach {
            self.attempts += 1;
            self.reattached += u64::from(r.reattached);
            self.uses.add(i64::from(r.uses), 1);
            if r.reattached {
                self.uses_reattached.add(i64::from(r.uses), 1);
            }
            self.spells.add(i64::from(r.spells), 1);
            self.potions.add(i64::from(r.potions), 1);
            self.gp.push(r.gp);
            self.minutes.push(r.minutes);
        }
    }
}

/// Simulates `count` trials from `rng` for every variant.
pub fn simulate_chunk(
    variants: &[(&AmputationRules, Vec<AttackSlot>)],
    trials: TrialSeeds,
    acc: &mut [VariantCounts],
    stop: Stop<'_>,
) {
    for seed in trials {
        if stop.requested() {
            return;
        }
        let mut base = [false; PROPORTIONS.len()];
        for (v, (rules, slots)) in variants.iter().enumerate() {
            let t = rules.resolve(slots, seed);
            if v == 0 {
                base = PROPORTIONS.map(|m| (m.indicator)(&t));
            }
            acc[v].record(&t, &base);
        }
    }
}

/// Variant `c`'s figure of `measure`, over the observations it is taken
/// over (the trials, the severed limbs, or the reattachments tried); absent
/// where it has none.
fn read(c: &VariantCounts, measure: Measure) -> Observed<'_> {
    let over = |n: u64, reading| match n {
        0 => Observed::ABSENT,
        n => Observed::over(reading, n),
    };
    let tried = |reading| over(c.attempts, reading);
    let histogram = |h: &Histogram| Reading::Moments(h.moments());
    match measure {
        Measure::Share(i) => over(
            c.trials,
            Reading::Events {
                hits: c.hits[i],
                of: c.trials,
            },
        ),
        Measure::RoundsToSever => over(c.rounds.total(), histogram(&c.rounds)),
        Measure::HitsToSever => over(c.hit_count.total(), histogram(&c.hit_count)),
        Measure::ReattachedIfSevered => tried(Reading::Events {
            hits: c.reattached,
            of: c.attempts,
        }),
        Measure::HealUses => tried(histogram(&c.uses)),
        Measure::SpellsUsed => tried(histogram(&c.spells)),
        Measure::PotionsUsed => tried(histogram(&c.potions)),
        Measure::HealGp => tried(Reading::Moments(c.gp)),
        Measure::HealMinutes => tried(Reading::Moments(c.minutes)),
    }
}

/// A bin of `count` among `of` observations (the trials, or the severed
/// limbs a reattachment was tried on).
fn row(
    variant: &str,
    distribution: &str,
    bin: i64,
    count: u64,
    of: u64,
    z: f64,
) -> DistributionRow {
    DistributionRow {
        variant: variant.to_string(),
        distribution: distribution.to_string(),
        bin,
        count,
        share: wilson(count, of, z),
        trials: Some(of),
    }
}

/// Turns counts into figures, distributions and charts.
pub fn monte_carlo_result(
    header: &ScenarioHeader,
    variants: &[Variant<AmputationRules>],
    counts: &[VariantCounts],
) -> ScenarioResult {
    let z = z_for_level(header.confidence);
    // Paired differences to the baseline, from discordant counts: x_v - x_0
    // is +1, -1 or 0 per trial; where the proportion applies to both.
    let read_diff = |v: usize, _: usize, def: &MetricDef<Measure>| {
        let (Measure::Share(i), Some(base)) = (def.measure, counts.first()) else {
            return Observed::ABSENT;
        };
        if !(PROPORTIONS[i].applies)(&variants[0].rules) || base.trials == 0 {
            return Observed::ABSENT;
        }
        let [up, down] = counts[v].discordant[i];
        let mut d = Moments::default();
        d.push_repeated(1.0, up);
        d.push_repeated(-1.0, down);
        d.push_repeated(0.0, base.trials - up - down);
        Observed::over(Reading::Moments(d), base.trials)
    };
    let figures = figures(
        &Variant::names(variants),
        &catalogue(variants),
        z,
        |v, _, def| read(&counts[v], def.measure),
        read_diff,
    );
    let (mut rounds, mut cumulative, mut hits) = (Vec::new(), Vec::new(), Vec::new());
    let (mut uses, mut by_uses, mut spent) = (Vec::new(), Vec::new(), Vec::new());
    for (variant, c) in variants.iter().zip(counts) {
        let name = variant.name.as_str();
        let mut served = 0;
        for (bin, count) in c.rounds.bins() {
            served += count;
            rounds.push(row(name, "rounds_to_sever", bin, count, c.trials, z));
            cumulative.push(row(name, "severed_by_round", bin, served, c.trials, z));
        }
        for (bin, count) in c.hit_count.bins().filter(|(b, _)| *b > 0) {
            hits.push(row(name, "hits_to_sever", bin, count, c.trials, z));
        }
        if variant.rules.reattach.is_some() && c.attempts > 0 {
            let mut done = 0;
            for ((bin, count), (_, ok)) in c.uses.bins().zip(c.uses_reattached.bins()) {
                done += ok;
                uses.push(row(name, "heals_used", bin, count, c.attempts, z));
                by_uses.push(row(
                    name,
                    "reattached_within_uses",
                    bin,
                    done,
                    c.attempts,
                    z,
                ));
            }
            for (kind, h) in [("spells_used", &c.spells), ("potions_used", &c.potions)] {
                for (bin, count) in h.bins() {
                    spent.push(row(name, kind, bin, count, c.attempts, z));
                }
            }
        }
    }
    let mut distributions = trim(rounds, 1);
    let last_round = distributions.iter().map(|r| r.bin).max().unwrap_or(1);
    distributions.extend(cumulative.into_iter().filter(|r| r.bin <= last_round));
    distributions.extend(trim(hits, 1));
    distributions.extend(uses);
    distributions.extend(by_uses);
    distributions.extend(trim_each(spent, "spells_used"));
    result(header, variants, figures, distributions)
}
