//! The death-save chain solved exactly: the absorbing Markov chain over
//! (successes, failures) with the wound slots fixed (docs/rules.md, death
//! saves, §2), as the probability of each outcome code (resolution × saves
//! rolled).
//!
//! Every save moves the chain to a state with more successes or failures, or
//! absorbs it, so after at most [`MAX_SAVES`] saves all mass is absorbed.
//! The solver propagates integer weights save by save: with `D = 20` (one
//! d20) or `D = 400` (two), a state reached after `k` saves has weight
//! `w / D^k`, and all weights are kept over the common denominator `D^5`
//! (at most `400^5 ≈ 10^13`, exact in `u64` and in `f64`). Each probability
//! is therefore exact up to one final rounding to `f64`.
//!
//! The `death_saves` scenario type reports it; the `amputation` type's
//! exact mode and the campaign's exact tests use it too.

use crate::rules::death_saves::{DeathSaveRules, MAX_SAVES, Resolution, SaveStep, Tally};

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

/// Exact outcome distribution as numerators over a common denominator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExactDistribution {
    /// `numerators[code] / denominator` is the probability of each outcome code.
    pub numerators: [u64; CODES],
    /// `20^(5·dice)`.
    pub denominator: u64,
}

impl ExactDistribution {
    /// The probabilities as `f64`.
    pub fn probabilities(&self) -> [f64; CODES] {
        self.numerators.map(|n| n as f64 / self.denominator as f64)
    }
}

/// Solves one rule set exactly.
///
/// ```
/// use woundsim::rules::death_save_chain::solve;
/// use woundsim::rules::death_saves::DeathSaveRules;
/// let d = solve(&DeathSaveRules::default());
/// assert_eq!(d.numerators.iter().sum::<u64>(), d.denominator);
/// ```
pub fn solve(rules: &DeathSaveRules) -> ExactDistribution {
    let per_save = 20u64.pow(rules.roll.dice_per_roll());
    let denominator = per_save.pow(MAX_SAVES);
    let weights: Vec<(u8, u64)> = (1..=20)
        .map(|n| (n, rules.roll.natural_weight(n)))
        .collect();
    let mut numerators = [0u64; CODES];
    // live[(s, f)] = weight over per_save^k after k saves.
    let mut live = vec![(rules.start, 1u64)];
    for save in 1..=MAX_SAVES {
        let mut next: Vec<(Tally, u64)> = Vec::new();
        for &(tally, w) in &live {
            for &(natural, nw) in &weights {
                let weight = w * nw;
                match rules.resolve_save(tally, natural) {
                    SaveStep::Continue(t) => match next.iter_mut().find(|(x, _)| *x == t) {
                        Some((_, acc)) => *acc += weight,
                        None => next.push((t, weight)),
                    },
                    SaveStep::Resolved(r) => {
                        numerators[code(r, save)] += weight * per_save.pow(MAX_SAVES - save);
                    }
                }
            }
        }
        live = next;
    }
    debug_assert!(
        live.is_empty(),
        "death-save chain must absorb within {MAX_SAVES} saves"
    );
    ExactDistribution {
        numerators,
        denominator,
    }
}
