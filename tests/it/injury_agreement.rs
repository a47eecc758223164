//! Statistical tests of the lingering-injury and festering-wound models:
//! Monte Carlo against exact mode at fixed seeds (deterministic: a failure
//! is a real disagreement beyond 4.5 standard errors), every table entry
//! reached with its d100 share, exact-mode shape, and bit-identical output
//! for any thread count.

use std::path::Path;

use crate::common;

use common::{SIGMAS, Tolerance, binomial_sigma, interval_sigma, run};
use woundsim::builtin;
use woundsim::engine::stats::z_for_level;
use woundsim::results::ScenarioResult;
use woundsim::types::Scenario;

/// The exact CDF of a distribution of a variant at `x` (normalised, so
/// conditional distributions such as days until closed work too).
fn exact_cdf(exact: &ScenarioResult, variant: &str, distribution: &str, x: f64) -> f64 {
    let rows: Vec<_> = exact
        .distributions
        .iter()
        .filter(|r| r.variant == variant && r.distribution == distribution)
        .collect();
    let total: f64 = rows.iter().map(|r| r.share.value).sum();
    rows.iter()
        .filter(|r| r.bin as f64 <= x)
        .map(|r| r.share.value)
        .sum::<f64>()
        / total
}

/// Quantiles (`q50_`, `q90_`, `q99_`): the exact CDF at the Monte Carlo
/// quantile must reach the level, and stay below it one step earlier,
/// within the sampling error of the level. Other figures: the interval's
/// own σ, with a relative floor of 1e-9. Bins: the binomial σ over all
/// trials, or over the closed wounds for days until closed.
fn assert_agree(mc: &ScenarioResult, exact: &ScenarioResult) -> usize {
    let quantile = |f: &woundsim::results::Figure, e: f64| {
        let est = f.estimate;
        let what = format!("{}/{}/{}", mc.scenario, f.variant, f.metric);
        let (level, dist) = ["q50_", "q90_", "q99_"]
            .iter()
            .find_map(|p| f.metric.strip_prefix(p).map(|rest| (p, rest)))?;
        let q: f64 = level[1..3].parse::<f64>().unwrap() / 100.0;
        let share_closed = if dist == "days_until_closed" {
            1.0 - exact.figure(&f.variant, "p_death").unwrap().estimate.value
        } else {
            1.0
        };
        let n = mc.trials as f64 * share_closed;
        let tol = SIGMAS * binomial_sigma(q, n) + 1e-9;
        let at = exact_cdf(exact, &f.variant, dist, est.value);
        let before = exact_cdf(exact, &f.variant, dist, est.value - 1.0);
        assert!(
            at >= q - tol && before <= q + tol,
            "{what}: Monte Carlo quantile {} has exact CDF {before}..{at} around level {q} (tolerance {tol}); exact quantile {e}",
            est.value
        );
        assert!(
            est.low <= est.value && est.value <= est.high,
            "{what}: {est:?}"
        );
        Some(())
    };
    common::assert_agree(
        mc,
        exact,
        &Tolerance {
            sigma: &|f, e| match quantile(f, e) {
                Some(()) => None,
                None => Some(interval_sigma(mc, f)),
            },
            floor: &|e| 1e-9 * e.abs().max(1.0),
            bin_trials: &|row| {
                // Shares are of all trials, except days until closed: of closed wounds.
                let n: u64 = if row.distribution == "days_until_closed" {
                    mc.distributions
                        .iter()
                        .filter(|r| r.variant == row.variant && r.distribution == row.distribution)
                        .map(|r| r.count)
                        .sum()
                } else {
                    mc.trials
                };
                n.max(1) as f64
            },
            bin_floor: 1e-9,
            missing_bin_is_zero: false,
        },
    )
}

fn builtin_named(name: &str) -> Scenario {
    builtin::find(common::catalog(), name).unwrap().unwrap()
}

fn fixture(name: &str) -> Scenario {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/scenarios/good")
        .join(name);
    woundsim::types::load_file(common::catalog(), &path).unwrap()
}

#[test]
fn lingering_injuries_agree_with_exact_mode() {
    let s = builtin_named("lingering-injuries");
    let checked = assert_agree(
        &run(&s, 300_000, 2),
        &woundsim::types::solve(&s).expect("exact solution"),
    );
    assert!(checked > 7 * 100, "{checked}");
}

#[test]
fn injury_costs_agree_with_exact_mode() {
    let s = builtin_named("injury-costs");
    assert_agree(
        &run(&s, 300_000, 2),
        &woundsim::types::solve(&s).expect("exact solution"),
    );
}

#[test]
fn festering_wounds_agree_with_exact_mode() {
    let s = builtin_named("festering-wounds");
    assert_agree(
        &run(&s, 200_000, 2),
        &woundsim::types::solve(&s).expect("exact solution"),
    );
}

#[test]
fn unusual_tables_and_resources_agree_with_exact_mode() {
    for name in ["injuries-own-table.toml", "festering-full.toml"] {
        let s = fixture(name);
        assert_agree(
            &run(&s, 200_000, 2),
            &woundsim::types::solve(&s).expect("exact solution"),
        );
    }
}

#[test]
fn every_entry_is_reached_with_its_d100_share() {
    // Every received attack but a natural 1 crits, and every crit injures:
    // the entries' shares per event are their d100 widths over 100.
    let text = r#"
        version = 1
        name = "every-entry"
        type = "injuries"
        trials = 1
        seed = 99
        [options]
        attacks_made = 0
        attacks_received = 1
        encounters = 1
        crit_range = 2
        injury_chance = 1.0
    "#;
    let s = woundsim::types::parse(common::catalog(), "every-entry.toml", text).unwrap();
    let mc = run(&s, 400_000, 2);
    let exact = woundsim::types::solve(&s).expect("exact solution");
    assert_agree(&mc, &exact);
    let table = common::catalog().injury_table.clone();
    let z = z_for_level(0.95);
    for e in &table.entries {
        let f = mc
            .figure("base", &format!("p_entry_{}_per_event", e.id))
            .unwrap()
            .estimate;
        let share = f64::from(e.width()) / 100.0;
        assert!(f.value > 0.0, "{} never rolled", e.id);
        let sigma = (share * (1.0 - share) / (400_000.0 * 0.95)).sqrt();
        assert!(
            (f.value - share).abs() < SIGMAS * sigma,
            "{}: {} vs {share}",
            e.id,
            f.value
        );
        assert!(f.low <= share && share <= f.high || (f.value - share).abs() < z * 2.0 * sigma);
    }
    let crit = mc
        .figure("base", "mean_events_per_encounter")
        .unwrap()
        .estimate
        .value;
    assert!((crit - 0.95).abs() < 0.005, "{crit}");
}

#[test]
fn exact_mode_has_point_intervals_and_zero_trials() {
    for name in ["lingering-injuries", "festering-wounds", "injury-costs"] {
        let exact = woundsim::types::solve(&builtin_named(name)).expect("exact solution");
        assert!(exact.is_exact());
        assert_eq!(exact.seed, 0);
        for f in &exact.figures {
            assert!(
                f.estimate.value.is_finite(),
                "{name}/{}/{}",
                f.variant,
                f.metric
            );
            assert_eq!(
                (f.estimate.low, f.estimate.high),
                (f.estimate.value, f.estimate.value)
            );
        }
    }
    let e = woundsim::types::solve(&builtin_named("lingering-injuries")).expect("exact solution");
    // docs/rules.md, lingering injuries: 5% per event; 1-2 on the d100 is a lost eye.
    assert_eq!(
        e.figure("seed-rule", "p_injury_per_event")
            .unwrap()
            .estimate
            .value,
        0.05
    );
    let eye = e
        .figure("seed-rule", "p_entry_lose_an_eye_per_event")
        .unwrap()
        .estimate
        .value;
    assert!((eye - 0.001).abs() < 1e-15);
    let share = e
        .figure("seed-rule", "p_cure_class_regenerate")
        .unwrap()
        .estimate
        .value;
    assert!((share - 0.10).abs() < 1e-15);
}

#[test]
fn thread_count_never_changes_injury_or_festering_figures() {
    let text = r#"
        version = 1
        name = "threads"
        type = "injuries"
        trials = 1
        seed = 4
        [options]
        encounters = 3
        injury_chance = 0.5
        [[variant]]
        name = "a"
        [[variant]]
        name = "b"
        on_crit_miss = false
    "#;
    let fester = builtin_named("festering-wounds");
    for s in [
        woundsim::types::parse(common::catalog(), "t.toml", text).unwrap(),
        fester,
    ] {
        let trials = 2 * s.shape().chunk_trials + 17;
        let one = run(&s, trials, 1);
        for threads in [2, 3] {
            let many = run(&s, trials, threads);
            common::assert_bit_identical(&one, &many);
        }
    }
}

#[test]
fn variants_share_random_numbers() {
    // Doubling the injury chance on common random numbers: the paired
    // difference is far sharper than that of two independent estimates.
    let s = builtin_named("lingering-injuries");
    let mc = run(&s, 100_000, 2);
    let diff = mc
        .figure("harsh-10pct", "mean_injuries_per_campaign_diff")
        .unwrap()
        .estimate;
    let a = mc
        .figure("seed-rule", "mean_injuries_per_campaign")
        .unwrap()
        .estimate;
    let b = mc
        .figure("harsh-10pct", "mean_injuries_per_campaign")
        .unwrap()
        .estimate;
    let independent = ((a.high - a.low).powi(2) + (b.high - b.low).powi(2)).sqrt();
    assert!(
        diff.high - diff.low < 0.8 * independent,
        "{diff:?} vs {independent}"
    );
    // Same seed, same rolls: a variant identical to the baseline differs by exactly 0.
    let same = mc
        .figure("restoration-regrows", "mean_injuries_per_campaign_diff")
        .unwrap()
        .estimate;
    assert_eq!((same.value, same.low, same.high), (0.0, 0.0, 0.0));
}
