//! Monte Carlo death-save sequences (docs/rules.md, death saves, §2) on common random numbers.
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

use super::{CODES, Metric, MetricKind, catalogue, decode, result};
use crate::dice::{D20Block, RollMode};
use crate::engine::accum::{Histogram, Moments};
use crate::engine::stats::z_for_level;
use serde::{Deserialize, Serialize};

use crate::engine::Stop;
use crate::engine::merge::mergeable;
use crate::model::{ScenarioHeader, Variant};
use crate::results::catalogue::{MetricDef, Observed, Reading, figures};
use crate::results::{DistributionRow, ScenarioResult};
use crate::rules::death_saves::{DeathSaveRules, MAX_SAVES, Resolution, SaveStep, Tally};

/// Live states: `successes * 3 + failures`.
const LIVE_STATES: usize = 9;
/// Live states plus one absorbing state per resolution.
const STATES: usize = LIVE_STATES + Resolution::COUNT;
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
    /// No counts yet for `variants` variants.
    pub fn new(variants: usize) -> Self {
        JointCounts {
            counts: vec![0; variants * CODES * CODES],
        }
    }

    fn variant(&self, v: usize) -> &[u64] {
        &self.counts[v * CODES * CODES..(v + 1) * CODES * CODES]
    }

    /// The trials each variant counted (the sum of its joint counts,
    /// saturating: a state read from a file is checked with it).
    pub fn trials_counted(&self) -> Vec<u64> {
        self.counts
            .chunks(CODES * CODES)
            .map(|block| block.iter().fold(0u64, |n, &c| n.saturating_add(c)))
            .collect()
    }

    /// Variant `v`'s count of each outcome code.
    fn marginal(&self, v: usize) -> [u64; CODES] {
        let mut marginal = [0u64; CODES];
        for (i, &c) in self.variant(v).iter().enumerate() {
            marginal[i / CODES] += c;
        }
        marginal
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

/// Turns joint counts into figures, distributions and charts.
pub fn monte_carlo_result(
    header: &ScenarioHeader,
    variants: &[Variant<DeathSaveRules>],
    joint: &JointCounts,
) -> ScenarioResult {
    let z = z_for_level(header.confidence);
    let marginals: Vec<[u64; CODES]> = (0..variants.len()).map(|v| joint.marginal(v)).collect();
    let read = |v: usize, _: usize, def: &MetricDef<&Metric>| {
        let marginal = &marginals[v];
        Observed::of_trials(match def.measure.kind {
            MetricKind::Proportion(_) => Reading::Events {
                hits: (0..CODES)
                    .filter(|&c| def.measure.value(c) == 1.0)
                    .map(|c| marginal[c])
                    .sum(),
                of: marginal.iter().sum(),
            },
            MetricKind::Rolls => {
                let mut m = Moments::default();
                for (c, &count) in marginal.iter().enumerate() {
                    m.push_repeated(def.measure.value(c), count);
                }
                Reading::Moments(m)
            }
        })
    };
    // Paired differences to the baseline, from the joint counts.
    let read_diff = |v: usize, _: usize, def: &MetricDef<&Metric>| {
        let mut diff = Moments::default();
        for (i, &count) in joint.variant(v).iter().enumerate() {
            diff.push_repeated(
                def.measure.value(i / CODES) - def.measure.value(i % CODES),
                count,
            );
        }
        Observed::of_trials(Reading::Moments(diff))
    };
    let figures = figures(
        &Variant::names(variants),
        &catalogue(variants.len()),
        z,
        read,
        read_diff,
    );
    let mut distributions = Vec::new();
    for (variant, marginal) in variants.iter().zip(&marginals) {
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
                trials: None,
            }
        }));
    }
    result(header, variants, figures, distributions)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn codes_round_trip() {
        use super::super::code;
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
                assert_eq!(
                    compiled.run(block),
                    super::super::code(resolution, rolls),
                    "{rules:?}"
                );
            }
        }
    }
}
