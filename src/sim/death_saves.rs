//! Monte Carlo death-save sequences (RULES.md §0, §2) on common random numbers.
//!
//! Each variant's rules are compiled into a transition table: 9 live states
//! (successes × failures, each 0..=2) plus 6 absorbing resolutions, indexed
//! by a pair of d20s (two saves with one d20 each, or one save with
//! advantage or disadvantage). The table is built from
//! [`DeathSaveRules::resolve_save`], so the hot loop holds no rule of its
//! own: it takes a fixed number of table steps with no data-dependent
//! branch (absorbing states map to themselves), eight trials in lockstep.
//!
//! Trial `t` draws one [`D20Block`] (fourteen exact d20s) and *every*
//! variant reads its saves from that same block: variants are compared on
//! common random numbers, and each variant's figures do not depend on which
//! other variants share the scenario. Per variant the accumulator keeps the
//! joint counts of (its outcome code, the baseline's outcome code), from
//! which marginals and paired differences follow exactly.

use crate::dice::{D20Block, RollMode};
use crate::engine::accum::{Histogram, Moments};
use crate::engine::stats::{Estimate, wilson, z_for_level};
use serde::{Deserialize, Serialize};

use crate::engine::merge::mergeable;
use crate::engine::{Engine, EngineError, Progress, RunShape, Stop};
use crate::exact::death_saves::ExactDistribution;
use crate::results::{ChartSpec, DistributionRow, Figure, ScenarioResult};
use crate::rules::death_saves::{DeathSaveRules, MAX_SAVES, Resolution, SaveStep, Tally};
use crate::scenario::{ScenarioHeader, Variant};

/// Live states: `successes * 3 + failures`.
const LIVE_STATES: usize = 9;
/// Live states plus one absorbing state per resolution.
const STATES: usize = LIVE_STATES + Resolution::COUNT;
/// Outcome codes: resolution × number of saves rolled (1..=5).
pub const CODES: usize = Resolution::COUNT * MAX_SAVES as usize;

/// An outcome code: which resolution, after how many saves.
pub fn code(resolution: Resolution, rolls: u32) -> usize {
    resolution.index() * MAX_SAVES as usize + (rolls as usize - 1)
}

/// The resolution and number of saves of an outcome code.
pub fn decode(code: usize) -> (Resolution, u32) {
    let per = MAX_SAVES as usize;
    (Resolution::ALL[code / per], (code % per) as u32 + 1)
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

/// The metrics drawn as the outcome-share chart: the partition of outcomes.
const OUTCOME_CHART_METRICS: [&str; 6] = [
    "p_dead",
    "p_stable",
    "p_revive",
    "p_wound_minor",
    "p_wound_moderate",
    "p_wound_severe",
];

/// Base-20 digits read by one table step: two d20s.
const STEP_RADIX: usize = 400;
/// Packed table entries: the next state in the low bits, the saves rolled
/// during the step above [`ROLLS_SHIFT`].
const ROLLS_SHIFT: u8 = 4;
const STATE_MASK: u8 = (1 << ROLLS_SHIFT) - 1;

/// One variant's rules compiled into a transition table.
///
/// Every step reads two d20s (one base-400 digit of the block): with
/// advantage or disadvantage that is one save; with a single d20 it is *two*
/// saves, so a whole sequence takes three steps instead of five. Entries
/// pack the next state with the number of saves rolled in the step.
#[derive(Clone, Debug)]
pub struct CompiledRules {
    /// `table[state * 400 + pair]`: packed next state and saves rolled.
    table: Vec<u8>,
    /// The start state.
    start: u8,
    /// Whether each save reads two d20s (advantage or disadvantage).
    pairs: bool,
}

fn state_of(tally: Tally) -> u8 {
    tally.successes * 3 + tally.failures
}

fn tally_of(state: usize) -> Tally {
    Tally {
        successes: (state / 3) as u8,
        failures: (state % 3) as u8,
    }
}

impl CompiledRules {
    /// Builds the table from the rule's single-save transition.
    pub fn new(rules: &DeathSaveRules) -> Self {
        let pairs = rules.roll != RollMode::Normal;
        let save = |state: usize, natural: u8| -> usize {
            match rules.resolve_save(tally_of(state), natural) {
                SaveStep::Continue(t) => usize::from(state_of(t)),
                SaveStep::Resolved(res) => LIVE_STATES + res.index(),
            }
        };
        let mut table = vec![0u8; STATES * STEP_RADIX];
        for state in 0..STATES {
            for pair in 0..STEP_RADIX {
                // Digit order: the first die is the lower base-20 digit.
                let (first, second) = ((pair % 20) as u8 + 1, (pair / 20) as u8 + 1);
                let (next, rolled) = if state >= LIVE_STATES {
                    (state, 0)
                } else if pairs {
                    (save(state, rules.roll.keep(first, second)), 1)
                } else {
                    match save(state, first) {
                        done if done >= LIVE_STATES => (done, 1),
                        live => (save(live, second), 2),
                    }
                };
                table[state * STEP_RADIX + pair] = next as u8 | (rolled << ROLLS_SHIFT);
            }
        }
        CompiledRules {
            table,
            start: state_of(rules.start),
            pairs,
        }
    }

    /// Runs one sequence on a block and returns its outcome code.
    #[inline]
    pub fn run(&self, block: D20Block) -> usize {
        let [code] = self.run_lanes([block]);
        code
    }

    /// Runs one sequence on each of `LANES` blocks in lockstep. The lanes
    /// are independent dependency chains, so the CPU overlaps their table
    /// loads instead of waiting on one chain at a time.
    #[inline]
    pub fn run_lanes<const LANES: usize>(&self, blocks: [D20Block; LANES]) -> [usize; LANES] {
        if self.pairs {
            self.run_steps::<{ MAX_SAVES as usize }, LANES>(blocks)
        } else {
            self.run_steps::<{ (MAX_SAVES as usize).div_ceil(2) }, LANES>(blocks)
        }
    }

    #[inline(always)]
    fn run_steps<const STEPS: usize, const LANES: usize>(
        &self,
        blocks: [D20Block; LANES],
    ) -> [usize; LANES] {
        let mut digits = blocks.map(D20Block::raw);
        let mut state = [self.start; LANES];
        let mut rolls = [0u8; LANES];
        for _ in 0..STEPS {
            for lane in 0..LANES {
                let pair = (digits[lane] % STEP_RADIX as u64) as usize;
                let entry = self.table[usize::from(state[lane]) * STEP_RADIX + pair];
                state[lane] = entry & STATE_MASK;
                rolls[lane] += entry >> ROLLS_SHIFT;
                digits[lane] /= STEP_RADIX as u64;
            }
        }
        std::array::from_fn(|lane| {
            (usize::from(state[lane]) - LIVE_STATES) * MAX_SAVES as usize + usize::from(rolls[lane])
                - 1
        })
    }
}

mergeable! {
    /// Per-chunk counts: for each variant, `joint[code_v * CODES + code_baseline]`.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub struct JointCounts {
        counts: Vec<u64>,
    }
}

impl JointCounts {
    fn new(variants: usize) -> Self {
        JointCounts {
            counts: vec![0; variants * CODES * CODES],
        }
    }

    fn variant(&self, v: usize) -> &[u64] {
        &self.counts[v * CODES * CODES..(v + 1) * CODES * CODES]
    }
}

/// Trials run in lockstep by [`simulate_chunk`].
const LANES: usize = 8;

/// Simulates `count` trials from `rng` for all compiled variants.
///
/// Trials are drawn in order, `LANES` at a time; every variant reads the
/// same blocks, so trial `t` of each variant uses the same d20s. Returns
/// early (with `acc` incomplete) once `stop` is requested.
pub fn simulate_chunk<R: rand::Rng + ?Sized>(
    variants: &[CompiledRules],
    rng: &mut R,
    count: u64,
    acc: &mut JointCounts,
    stop: Stop<'_>,
) {
    for _ in 0..count / LANES as u64 {
        if stop.requested() {
            return;
        }
        let blocks: [D20Block; LANES] = std::array::from_fn(|_| D20Block::draw(rng));
        record_lanes(variants, blocks, acc);
    }
    for _ in 0..count % LANES as u64 {
        record_lanes(variants, [D20Block::draw(rng)], acc);
    }
}

/// Runs every variant on the same `L` blocks and counts the joint outcomes.
#[inline]
fn record_lanes<const L: usize>(
    variants: &[CompiledRules],
    blocks: [D20Block; L],
    acc: &mut JointCounts,
) {
    let Some(baseline) = variants.first() else {
        return;
    };
    let base = baseline.run_lanes(blocks);
    for b in base {
        acc.counts[b * CODES + b] += 1;
    }
    for (v, rules) in variants.iter().enumerate().skip(1) {
        let codes = rules.run_lanes(blocks);
        for (code, b) in codes.into_iter().zip(base) {
            acc.counts[v * CODES * CODES + code * CODES + b] += 1;
        }
    }
}

/// Runs the scenario's variants by Monte Carlo.
pub fn simulate(
    header: &ScenarioHeader,
    variants: &[Variant<DeathSaveRules>],
    engine: &Engine,
    progress: &dyn Progress,
) -> Result<ScenarioResult, EngineError> {
    let compiled: Vec<CompiledRules> = variants
        .iter()
        .map(|v| CompiledRules::new(&v.rules))
        .collect();
    let shape = RunShape {
        trials: header.trials,
        seed: header.seed,
    };
    let joint = engine.run(
        shape,
        progress,
        || JointCounts::new(compiled.len()),
        |rng, _, n, acc, stop| simulate_chunk(&compiled, rng, n, acc, stop),
    )?;
    Ok(monte_carlo_result(header, variants, &joint))
}

/// Turns joint counts into figures, distributions and charts.
pub fn monte_carlo_result(
    header: &ScenarioHeader,
    variants: &[Variant<DeathSaveRules>],
    joint: &JointCounts,
) -> ScenarioResult {
    let z = z_for_level(header.confidence);
    let mut figures = Vec::new();
    let mut distributions = Vec::new();
    for (v, variant) in variants.iter().enumerate() {
        let cells = joint.variant(v);
        let mut marginal = [0u64; CODES];
        for (i, &c) in cells.iter().enumerate() {
            marginal[i / CODES] += c;
        }
        let n: u64 = marginal.iter().sum();
        for metric in &METRICS {
            let estimate = match metric.kind {
                MetricKind::Proportion(_) => {
                    let hits = (0..CODES)
                        .filter(|&c| metric.value(c) == 1.0)
                        .map(|c| marginal[c])
                        .sum();
                    wilson(hits, n, z)
                }
                MetricKind::Rolls => {
                    let mut m = Moments::default();
                    for (c, &count) in marginal.iter().enumerate() {
                        m.push_repeated(metric.value(c), count);
                    }
                    m.estimate(z)
                }
            };
            figures.push(Figure {
                variant: variant.name.clone(),
                metric: metric.name.into(),
                estimate,
            });
        }
        let mut rolls = Histogram::new(1, MAX_SAVES as usize);
        for (c, &count) in marginal.iter().enumerate() {
            rolls.add(i64::from(decode(c).1), count);
        }
        distributions.extend(rolls.shares(z).into_iter().map(|(bin, count, share)| {
            DistributionRow {
                variant: variant.name.clone(),
                distribution: "rolls".into(),
                bin,
                count,
                share,
            }
        }));
    }
    // Paired differences to the baseline, from the joint counts.
    for (v, variant) in variants.iter().enumerate().skip(1) {
        let cells = joint.variant(v);
        for metric in &METRICS {
            let mut diff = Moments::default();
            for (i, &count) in cells.iter().enumerate() {
                diff.push_repeated(metric.value(i / CODES) - metric.value(i % CODES), count);
            }
            figures.push(Figure {
                variant: variant.name.clone(),
                metric: format!("{}_diff", metric.name),
                estimate: diff.estimate(z),
            });
        }
    }
    finish(header, variants, figures, distributions)
}

/// Assembles a result (shared by Monte Carlo and exact mode).
pub fn finish(
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
        ..ScenarioResult::for_header(header, variants.iter().map(|v| v.name.clone()).collect())
    }
}

/// Builds figures from exact outcome distributions (one per variant).
///
/// Every figure is a ratio of integers computed exactly and rounded to
/// `f64` once, so probabilities that must be 0 or 1 are exactly 0 or 1.
pub fn exact_figures(
    variants: &[Variant<DeathSaveRules>],
    distributions: &[ExactDistribution],
) -> (Vec<Figure>, Vec<DistributionRow>) {
    // Σ numerator · value: the metric's expectation over the denominator.
    let numerator = |d: &ExactDistribution, metric: &Metric| -> i128 {
        d.numerators
            .iter()
            .enumerate()
            .map(|(c, &n)| i128::from(n) * i128::from(metric.count(c)))
            .sum()
    };
    let mut figures = Vec::new();
    let mut rows = Vec::new();
    for (variant, d) in variants.iter().zip(distributions) {
        for metric in &METRICS {
            let value = numerator(d, metric) as f64 / d.denominator as f64;
            figures.push(Figure {
                variant: variant.name.clone(),
                metric: metric.name.into(),
                estimate: Estimate::exact(value),
            });
        }
        for rolls in 1..=MAX_SAVES {
            let n: u64 = (0..CODES)
                .filter(|&c| decode(c).1 == rolls)
                .map(|c| d.numerators[c])
                .sum();
            rows.push(DistributionRow {
                variant: variant.name.clone(),
                distribution: "rolls".into(),
                bin: i64::from(rolls),
                count: 0,
                share: Estimate::exact(n as f64 / d.denominator as f64),
            });
        }
    }
    if let Some((base, _)) = distributions.split_first() {
        for (variant, d) in variants.iter().zip(distributions).skip(1) {
            for metric in &METRICS {
                // a/da - b/db = (a·db - b·da) / (da·db), exact in i128.
                let (da, db) = (i128::from(d.denominator), i128::from(base.denominator));
                let diff = numerator(d, metric) * db - numerator(base, metric) * da;
                figures.push(Figure {
                    variant: variant.name.clone(),
                    metric: format!("{}_diff", metric.name),
                    estimate: Estimate::exact(diff as f64 / (da * db) as f64),
                });
            }
        }
    }
    (figures, rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn codes_round_trip() {
        for c in 0..CODES {
            let (r, rolls) = decode(c);
            assert_eq!(code(r, rolls), c);
        }
    }

    #[test]
    fn table_run_agrees_with_the_reference_loop_on_every_block() {
        use crate::rules::permanent_wounds::{Severity, WoundPolicy, WoundSlots};
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(17);
        let rule_sets = [
            DeathSaveRules::default(),
            DeathSaveRules {
                roll: RollMode::Advantage,
                ..Default::default()
            },
            DeathSaveRules {
                roll: RollMode::Disadvantage,
                dc: 13,
                save_bonus: 2,
                ..Default::default()
            },
            DeathSaveRules {
                wound_policy: WoundPolicy::AcceptLeastSevere,
                existing_wounds: WoundSlots::from_wounds([Severity::Minor]),
                start: Tally {
                    successes: 1,
                    failures: 1,
                },
                ..Default::default()
            },
        ];
        for rules in &rule_sets {
            let compiled = CompiledRules::new(rules);
            for _ in 0..20_000 {
                let block = D20Block::draw(&mut rng);
                let mut reference = block;
                let (resolution, rolls) = rules.roll_sequence(&mut reference);
                assert_eq!(compiled.run(block), code(resolution, rolls), "{rules:?}");
            }
        }
    }
}
