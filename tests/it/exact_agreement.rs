//! Statistical tests: Monte Carlo against exact mode, and exact mode against
//! an independent oracle. Fixed seeds, so deterministic: a failure means a
//! real disagreement beyond 4.5 standard errors, never bad luck.

use crate::common;

use common::{Tolerance, binomial_sigma, interval_sigma};
use woundsim::builtin;
use woundsim::dice::RollMode;
use woundsim::results::ScenarioResult;
use woundsim::rules::death_saves::{DeathSaveRules, Tally};
use woundsim::rules::permanent_wounds::{Severity, WoundPolicy, WoundSlots};
use woundsim::types::Scenario;

/// Proportions: the binomial σ at the exact value; means and paired
/// differences: the interval's own σ; a floor of 1e-12 for rounding.
fn assert_agree(mc: &ScenarioResult, exact: &ScenarioResult) {
    let n = mc.trials as f64;
    common::assert_agree(
        mc,
        exact,
        &Tolerance {
            sigma: &|f, e| {
                Some(
                    if f.metric.starts_with("p_") && !f.metric.ends_with("_diff") {
                        binomial_sigma(e, n)
                    } else {
                        interval_sigma(mc, f)
                    },
                )
            },
            floor: &|_| 1e-12,
            bin_trials: &|_| n,
            bin_floor: 1e-12,
            missing_bin_is_zero: false,
        },
    );
}

fn run(scenario: &Scenario, trials: u64) -> ScenarioResult {
    common::run(scenario, trials, 2)
}

#[test]
fn builtin_scenarios_agree_with_exact_mode() {
    // Death-save scenarios; the injury types have their own agreement tests
    // (tests/it/injury_agreement.rs), with quantile-aware comparisons.
    for s in builtin::all(common::catalog())
        .unwrap()
        .into_iter()
        .filter(|s| s.kind() == "death_saves")
    {
        let mc = run(&s, 10_000_000);
        let exact = woundsim::types::solve(&s).unwrap();
        assert!(exact.is_exact());
        assert_agree(&mc, &exact);
    }
}

#[test]
#[should_panic(expected = "death-saves/raw/p_dead: Monte Carlo")]
fn the_shared_check_catches_a_disagreement() {
    // The exact p_dead off by 0.002, about 13 σ at 10^7 trials (4.5 σ = 0.0007).
    let s = builtin::find(common::catalog(), "death-saves")
        .unwrap()
        .unwrap();
    let mut exact = woundsim::types::solve(&s).unwrap();
    let dead = exact
        .figures
        .iter_mut()
        .find(|f| f.variant == "raw" && f.metric == "p_dead")
        .unwrap();
    dead.estimate.value += 0.002;
    assert_agree(&run(&s, 10_000_000), &exact);
}

#[test]
fn unusual_rule_sets_agree_with_exact_mode() {
    let text = r#"
        version = 1
        name = "odd"
        type = "death_saves"
        trials = 1
        seed = 77
        [options]
        wound_policy = "accept_least_severe"
        [[variant]]
        name = "easy-dc5-advantage"
        dc = 5
        roll = "advantage"
        [[variant]]
        name = "dc20-disadvantage-moderate-taken"
        dc = 20
        roll = "disadvantage"
        existing_wounds = ["moderate"]
        [[variant]]
        name = "bonus-minus3-start-1-1"
        save_bonus = -3
        start_successes = 1
        start_failures = 1
        [[variant]]
        name = "start-2-2-severe-taken"
        start_successes = 2
        start_failures = 2
        existing_wounds = ["severe", "minor"]
        [[variant]]
        name = "raw-dc30"
        dc = 30
        wound_policy = "never"
    "#;
    let s = woundsim::types::parse(common::catalog(), "odd.toml", text).unwrap();
    assert_agree(&run(&s, 5_000_000), &woundsim::types::solve(&s).unwrap());
}

/// An independent oracle: plain recursion over exact fractions, written
/// without the crate's rule code, for RAW and the permanent-wound rule.
fn oracle(successes: u8, failures: u8, dc: i32, wounds_allowed: bool) -> [f64; 3] {
    // [dead, stable, revived] (wounds count as not dead, stable = 3 successes)
    let mut out = [0.0; 3];
    for d20 in 1..=20 {
        let p = 1.0 / 20.0;
        if d20 == 20 {
            out[2] += p;
            continue;
        }
        let fails = if d20 == 1 {
            2
        } else if d20 < dc {
            1
        } else {
            0
        };
        if fails == 0 {
            if successes == 2 {
                out[1] += p;
            } else {
                let sub = oracle(successes + 1, failures, dc, wounds_allowed);
                (0..3).for_each(|i| out[i] += p * sub[i]);
            }
        } else if failures + fails >= 3 {
            if !wounds_allowed {
                out[0] += p;
            }
        } else {
            let sub = oracle(successes, failures + fails, dc, wounds_allowed);
            (0..3).for_each(|i| out[i] += p * sub[i]);
        }
    }
    out
}

#[test]
fn exact_mode_matches_an_independent_recursion() {
    for dc in [2, 10, 13, 19] {
        let rules = DeathSaveRules {
            dc: dc as u8,
            ..Default::default()
        };
        let p = woundsim::rules::death_save_chain::solve(&rules).probabilities();
        let dead: f64 = (0..5).map(|r| p[r]).sum();
        let stable: f64 = (5..10).map(|r| p[r]).sum();
        let revived: f64 = (10..15).map(|r| p[r]).sum();
        let o = oracle(0, 0, dc, false);
        assert!((dead - o[0]).abs() < 1e-14, "dc {dc}: {dead} vs {}", o[0]);
        assert!((stable - o[1]).abs() < 1e-14);
        assert!((revived - o[2]).abs() < 1e-14);
    }
    // With permanent wounds and free slots, nobody dies.
    let pw = DeathSaveRules {
        wound_policy: WoundPolicy::AcceptLeastSevere,
        ..Default::default()
    };
    let p = woundsim::rules::death_save_chain::solve(&pw).probabilities();
    assert_eq!((0..5).map(|r| p[r]).sum::<f64>(), 0.0);
    assert_eq!(oracle(0, 0, 10, true)[0], 0.0);
}

#[test]
fn raw_figures_match_the_well_known_values() {
    // P(dead) under RAW is exactly 0.404875 (3,239,000 / 8,000,000), P(stable) 0.41375, P(revive) 0.181375.
    let p = woundsim::rules::death_save_chain::solve(&DeathSaveRules::default()).probabilities();
    let dead: f64 = (0..5).map(|r| p[r]).sum();
    let o = oracle(0, 0, 10, false);
    assert!((dead - o[0]).abs() < 1e-15);
    assert_eq!(dead, 0.404875);
    let stable: f64 = (5..10).map(|r| p[r]).sum();
    assert!((stable - 0.41375).abs() < 1e-15, "{stable}");
}

#[test]
fn wound_severity_shares_follow_successes_exactly() {
    // With every slot free, a wound's severity is the successes before the
    // last failure: the exact split must equal the oracle's split of deaths
    // by successes at the moment of death.
    fn deaths_by_successes(s: u8, f: u8) -> [f64; 3] {
        let mut out = [0.0; 3];
        for d20 in 1..=20 {
            let p = 1.0 / 20.0;
            if d20 == 20 {
                continue;
            }
            let fails = if d20 == 1 {
                2
            } else if d20 < 10 {
                1
            } else {
                0
            };
            if fails == 0 {
                if s < 2 {
                    let sub = deaths_by_successes(s + 1, f);
                    (0..3).for_each(|i| out[i] += p * sub[i]);
                }
            } else if f + fails >= 3 {
                out[usize::from(s)] += p;
            } else {
                let sub = deaths_by_successes(s, f + fails);
                (0..3).for_each(|i| out[i] += p * sub[i]);
            }
        }
        out
    }
    let by = deaths_by_successes(0, 0);
    let pw = DeathSaveRules {
        wound_policy: WoundPolicy::AcceptLeastSevere,
        ..Default::default()
    };
    let p = woundsim::rules::death_save_chain::solve(&pw).probabilities();
    let share =
        |resolution: usize| -> f64 { (resolution * 5..resolution * 5 + 5).map(|c| p[c]).sum() };
    assert!((share(3) - by[2]).abs() < 1e-14, "minor = two successes");
    assert!((share(4) - by[1]).abs() < 1e-14, "moderate = one success");
    assert!((share(5) - by[0]).abs() < 1e-14, "severe = no success");
    // With the minor slot taken, two-success deaths escalate to moderate.
    let taken = DeathSaveRules {
        existing_wounds: WoundSlots::from_wounds([Severity::Minor]),
        ..pw
    };
    let q = woundsim::rules::death_save_chain::solve(&taken).probabilities();
    let q_share = |r: usize| -> f64 { (r * 5..r * 5 + 5).map(|c| q[c]).sum() };
    assert_eq!(q_share(3), 0.0);
    assert!((q_share(4) - (by[1] + by[2])).abs() < 1e-14);
    let _ = (RollMode::Normal, Tally::default());
}
