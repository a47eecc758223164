//! Monte Carlo amputation races and reattachments (RULES.md §3) on common
//! random numbers.
//!
//! Trial `t` draws one `u64` from its chunk's stream; every variant resolves
//! the trial from that same seed ([`AmputationRules::resolve`] splits it
//! into separate clock, attack, venom and healing streams), so variants are
//! compared on the same clock and venom rolls, and paired `_diff` figures
//! come from per-trial joint counts. Accumulators hold integer counts,
//! fixed-bin histograms and Welford moments only: O(1) memory in trials.

use crate::engine::accum::{Histogram, Moments};
use crate::engine::stats::{Estimate, wilson, z_for_level};
use crate::engine::{Engine, EngineError, Merge, Progress, RunShape, Stop};
use crate::results::{ChartSpec, DistributionRow, Figure, LinePoints, ScenarioResult};
use crate::rules::amputation::{AmputationRules, AttackSlot, Outcome, TrialOutcome};
use crate::rules::limbs::Purpose;
use crate::scenario::{ScenarioHeader, Variant};

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

/// One variant's counts.
#[derive(Clone, Debug, PartialEq)]
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

impl VariantCounts {
    fn new(rules: &AmputationRules, slots: usize) -> Self {
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

impl Merge for Vec<VariantCounts> {
    fn merge(&mut self, later: Self) {
        for (a, b) in self.iter_mut().zip(later) {
            a.trials += b.trials;
            for i in 0..PROPORTIONS.len() {
                a.hits[i] += b.hits[i];
                a.discordant[i][0] += b.discordant[i][0];
                a.discordant[i][1] += b.discordant[i][1];
            }
            a.rounds.merge(&b.rounds);
            a.hit_count.merge(&b.hit_count);
            a.attempts += b.attempts;
            a.reattached += b.reattached;
            a.uses.merge(&b.uses);
            a.uses_reattached.merge(&b.uses_reattached);
            a.spells.merge(&b.spells);
            a.potions.merge(&b.potions);
            a.gp.merge(&b.gp);
            a.minutes.merge(&b.minutes);
        }
    }
}

/// Simulates `count` trials from `rng` for every variant.
pub fn simulate_chunk<R: rand::Rng + ?Sized>(
    variants: &[(&AmputationRules, Vec<AttackSlot>)],
    rng: &mut R,
    count: u64,
    acc: &mut [VariantCounts],
    stop: Stop<'_>,
) {
    for _ in 0..count {
        if stop.requested() {
            return;
        }
        let seed = rng.next_u64();
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

/// Runs the scenario's variants by Monte Carlo.
pub fn simulate(
    header: &ScenarioHeader,
    variants: &[Variant<AmputationRules>],
    engine: &Engine,
    progress: &dyn Progress,
) -> Result<ScenarioResult, EngineError> {
    let compiled: Vec<(&AmputationRules, Vec<AttackSlot>)> = variants
        .iter()
        .map(|v| (&v.rules, v.rules.slots()))
        .collect();
    let shape = RunShape {
        trials: header.trials,
        seed: header.seed,
    };
    let counts = engine.run(
        shape,
        progress,
        || {
            compiled
                .iter()
                .map(|(r, s)| VariantCounts::new(r, s.len()))
                .collect::<Vec<_>>()
        },
        |rng, _, n, acc, stop| simulate_chunk(&compiled, rng, n, acc, stop),
    )?;
    Ok(monte_carlo_result(header, variants, &counts))
}

fn push(figures: &mut Vec<Figure>, variant: &str, metric: &str, estimate: Estimate) {
    if estimate.value.is_finite() {
        figures.push(Figure {
            variant: variant.to_string(),
            metric: metric.to_string(),
            estimate,
        });
    }
}

fn row(
    variant: &str,
    distribution: &str,
    bin: i64,
    count: u64,
    share: Estimate,
) -> DistributionRow {
    DistributionRow {
        variant: variant.to_string(),
        distribution: distribution.to_string(),
        bin,
        count,
        share,
    }
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

/// Turns counts into figures, distributions and charts.
pub fn monte_carlo_result(
    header: &ScenarioHeader,
    variants: &[Variant<AmputationRules>],
    counts: &[VariantCounts],
) -> ScenarioResult {
    let z = z_for_level(header.confidence);
    let mut figures = Vec::new();
    let (mut rounds, mut cumulative, mut hits) = (Vec::new(), Vec::new(), Vec::new());
    let (mut uses, mut by_uses, mut spent) = (Vec::new(), Vec::new(), Vec::new());
    for (variant, c) in variants.iter().zip(counts) {
        let name = variant.name.as_str();
        for (i, m) in PROPORTIONS.iter().enumerate() {
            if (m.applies)(&variant.rules) {
                push(&mut figures, name, m.name, wilson(c.hits[i], c.trials, z));
            }
        }
        push(
            &mut figures,
            name,
            "mean_rounds_to_sever",
            c.rounds.moments().estimate(z),
        );
        push(
            &mut figures,
            name,
            "mean_hits_to_sever",
            c.hit_count.moments().estimate(z),
        );
        if variant.rules.reattach.is_some() && c.attempts > 0 {
            let rate = wilson(c.reattached, c.attempts, z);
            push(&mut figures, name, "p_reattached_if_severed", rate);
            push(
                &mut figures,
                name,
                "mean_heal_uses",
                c.uses.moments().estimate(z),
            );
            let spells = c.spells.moments().estimate(z);
            push(&mut figures, name, "mean_spells_used", spells);
            let potions = c.potions.moments().estimate(z);
            push(&mut figures, name, "mean_potions_used", potions);
            push(&mut figures, name, "mean_heal_gp", c.gp.estimate(z));
            push(
                &mut figures,
                name,
                "mean_heal_minutes",
                c.minutes.estimate(z),
            );
        }
        let mut served = 0;
        for (bin, count) in c.rounds.bins() {
            served += count;
            rounds.push(row(
                name,
                "rounds_to_sever",
                bin,
                count,
                wilson(count, c.trials, z),
            ));
            cumulative.push(row(
                name,
                "severed_by_round",
                bin,
                served,
                wilson(served, c.trials, z),
            ));
        }
        for (bin, count) in c.hit_count.bins().filter(|(b, _)| *b > 0) {
            hits.push(row(
                name,
                "hits_to_sever",
                bin,
                count,
                wilson(count, c.trials, z),
            ));
        }
        if variant.rules.reattach.is_some() && c.attempts > 0 {
            let mut done = 0;
            for ((bin, count), (_, ok)) in c.uses.bins().zip(c.uses_reattached.bins()) {
                done += ok;
                uses.push(row(
                    name,
                    "heals_used",
                    bin,
                    count,
                    wilson(count, c.attempts, z),
                ));
                by_uses.push(row(
                    name,
                    "reattached_within_uses",
                    bin,
                    done,
                    wilson(done, c.attempts, z),
                ));
            }
            for (kind, h) in [("spells_used", &c.spells), ("potions_used", &c.potions)] {
                for (bin, count) in h.bins() {
                    spent.push(row(name, kind, bin, count, wilson(count, c.attempts, z)));
                }
            }
        }
    }
    // Paired differences to the baseline, from discordant counts:
    // x_v - x_0 is +1, -1 or 0 per trial.
    if let Some((base, base_counts)) = variants.first().zip(counts.first()) {
        for (variant, c) in variants.iter().zip(counts).skip(1) {
            for (i, m) in PROPORTIONS.iter().enumerate() {
                if !((m.applies)(&variant.rules) && (m.applies)(&base.rules)) {
                    continue;
                }
                let [up, down] = c.discordant[i];
                let mut d = Moments::default();
                d.push_repeated(1.0, up);
                d.push_repeated(-1.0, down);
                d.push_repeated(0.0, base_counts.trials - up - down);
                push(
                    &mut figures,
                    &variant.name,
                    &format!("{}_diff", m.name),
                    d.estimate(z),
                );
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
    finish(header, variants, figures, distributions)
}

/// Assembles a result with its charts (shared by Monte Carlo and exact mode).
pub fn finish(
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
    let all_variants: Vec<String> = variants.iter().map(|v| v.name.clone()).collect();
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
        ..ScenarioResult::for_header(header, variants.iter().map(|v| v.name.clone()).collect())
    }
}
