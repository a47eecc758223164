//! Pairs the figures of a baseline and a current folder, judges each (the
//! rules are in the [`super`] module docs), and compares throughput.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use super::folder::{Folder, Row, Side};
use super::rule::{self, How};
use super::stats;
use crate::report::run_info::ScenarioRun;

/// The level assumed for a folder without run metadata: woundsim's default.
pub const ASSUMED_LEVEL: f64 = 0.95;

/// How the gate judges.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Family-wise significance level of all tests together (Holm).
    pub alpha: f64,
    /// A moved figure whose difference is smaller than this (absolute)
    /// does not count.
    pub min_effect: Option<f64>,
    /// A scenario more than this many times slower than in the baseline
    /// (trials per second) is flagged.
    pub max_slowdown: Option<f64>,
    /// The current run's scenarios were named on the command line: a
    /// baseline scenario not among them was not run, not missing.
    pub named: bool,
}

pub use super::rule::Method;

/// What the gate concluded about one figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// No change detected.
    NoChange,
    /// The current figure is higher beyond noise.
    MovedUp,
    /// The current figure is lower beyond noise.
    MovedDown,
    /// Changed with no direction: only the interval, or undefined on one side.
    Moved,
    /// Significant, but smaller than `--min-effect`: ignored.
    BelowMinEffect,
    /// Not compared (a quantile across seeds, an undefined interval).
    Untested,
}

impl Verdict {
    /// Whether this fails the gate.
    pub fn is_moved(self) -> bool {
        matches!(self, Verdict::MovedUp | Verdict::MovedDown | Verdict::Moved)
    }

    /// The verdict in words, for tables and reports.
    pub fn text(self) -> &'static str {
        match self {
            Verdict::NoChange => "no change",
            Verdict::MovedUp => "moved up",
            Verdict::MovedDown => "moved down",
            Verdict::Moved => "moved",
            Verdict::BelowMinEffect => "below min-effect",
            Verdict::Untested => "untested",
        }
    }
}

/// One figure compared.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MetricCheck {
    /// Scenario name.
    pub scenario: String,
    /// Variant name.
    pub variant: String,
    /// Metric name.
    pub metric: String,
    /// The baseline's estimate.
    pub baseline: f64,
    /// The current estimate.
    pub current: f64,
    /// `current - baseline`.
    pub difference: f64,
    /// Interval of the difference at `level` (tests only).
    pub interval: Option<(f64, f64)>,
    /// Confidence level of `interval`: the current run's.
    pub level: f64,
    /// How it was compared.
    pub method: Method,
    /// The test statistic (tests only).
    pub z: Option<f64>,
    /// The raw p-value (0 for a changed identical or exact figure).
    pub p: Option<f64>,
    /// The Holm-adjusted p-value (tests only).
    pub p_holm: Option<f64>,
    /// The conclusion.
    pub verdict: Verdict,
    /// Why it was not tested, or what else is worth knowing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Something only one side has.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Missing {
    /// The side that has it.
    pub only_in: Side,
    /// Scenario name.
    pub scenario: String,
    /// Variant name, unless the whole scenario is missing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// Metric name, unless the whole variant is missing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metric: Option<String>,
}

impl Missing {
    /// `metric `p_x` of variant `raw` of scenario `s` is only in the baseline`.
    pub fn describe(&self) -> String {
        let what = match (&self.variant, &self.metric) {
            (None, _) => format!("scenario `{}`", self.scenario),
            (Some(v), None) => format!("variant `{v}` of scenario `{}`", self.scenario),
            (Some(v), Some(m)) => {
                format!(
                    "metric `{m}` of variant `{v}` of scenario `{}`",
                    self.scenario
                )
            }
        };
        format!("{what} is only in the {}", self.only_in.name())
    }
}

/// Throughput of one scenario in both runs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Throughput {
    /// Scenario name.
    pub scenario: String,
    /// Baseline trials × variants per second.
    pub baseline: f64,
    /// Current trials × variants per second.
    pub current: f64,
    /// `baseline / current`: 2 means twice as slow.
    pub slowdown: f64,
    /// Worker threads of the baseline run.
    pub baseline_threads: Option<usize>,
    /// Worker threads of the current run.
    pub current_threads: Option<usize>,
    /// Slower than `--max-slowdown` allows.
    pub beyond_limit: bool,
}

/// The whole comparison.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison {
    /// The baseline folder.
    pub baseline: String,
    /// The current folder.
    pub current: String,
    /// Family-wise significance level.
    pub alpha: f64,
    /// `--min-effect`.
    pub min_effect: Option<f64>,
    /// `--max-slowdown`.
    pub max_slowdown: Option<f64>,
    /// Number of significance tests (the size of Holm's family).
    pub tests: usize,
    /// Every figure in both folders, in the current folder's order.
    pub metrics: Vec<MetricCheck>,
    /// What only one side has.
    pub missing: Vec<Missing>,
    /// Baseline scenarios not named on the command line.
    pub not_run: Vec<String>,
    /// Throughput per scenario where both runs recorded it.
    pub throughput: Vec<Throughput>,
    /// Assumptions the gate had to make.
    pub notes: Vec<String>,
}

impl Comparison {
    /// The figures that moved (fail the gate).
    pub fn moved(&self) -> impl Iterator<Item = &MetricCheck> {
        self.metrics.iter().filter(|m| m.verdict.is_moved())
    }

    /// How many figures got `verdict`.
    pub fn count(&self, verdict: Verdict) -> usize {
        self.metrics.iter().filter(|m| m.verdict == verdict).count()
    }

    /// How many figures were compared by `method`.
    pub fn by_method(&self, method: Method) -> usize {
        self.metrics.iter().filter(|m| m.method == method).count()
    }

    /// Scenarios slower than `--max-slowdown` allows.
    pub fn slower(&self) -> impl Iterator<Item = &Throughput> {
        self.throughput.iter().filter(|t| t.beyond_limit)
    }
}

/// One side's metadata for a scenario.
struct Meta<'a> {
    level: f64,
    run: Option<&'a ScenarioRun>,
}

fn meta<'a>(folder: &'a Folder, scenario: &str) -> Meta<'a> {
    let run = folder.run.as_ref().and_then(|r| r.scenario(scenario));
    let level = run
        .map(|r| r.confidence)
        .filter(|l| *l > 0.0 && *l < 1.0)
        .unwrap_or(ASSUMED_LEVEL);
    Meta { level, run }
}

/// Equal as figures: the same bits, or both undefined.
fn same(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

/// The direction of a change of `difference`.
fn moved(difference: f64) -> Verdict {
    if difference > 0.0 {
        Verdict::MovedUp
    } else if difference < 0.0 {
        Verdict::MovedDown
    } else {
        Verdict::Moved
    }
}

/// A figure whose comparison needs no test: identical runs or exact figures.
fn compare_exactly(check: &mut MetricCheck, b: &Row, c: &Row, same_level: bool) {
    let unchanged = same(b.estimate.value, c.estimate.value)
        && (!same_level
            || (same(b.estimate.low, c.estimate.low) && same(b.estimate.high, c.estimate.high)));
    if unchanged {
        check.verdict = Verdict::NoChange;
    } else {
        check.p = Some(0.0);
        check.verdict = moved(check.difference);
        if check.difference == 0.0 {
            check.note = Some("the estimate is the same; its interval changed".into());
        }
    }
}

/// Judges one figure present on both sides (Holm comes later).
fn judge(b: &Row, c: &Row, bm: &Meta, cm: &Meta, how: How) -> MetricCheck {
    let mut check = MetricCheck {
        scenario: c.scenario.clone(),
        variant: c.variant.clone(),
        metric: c.metric.clone(),
        baseline: b.estimate.value,
        current: c.estimate.value,
        difference: c.estimate.value - b.estimate.value,
        interval: None,
        level: cm.level,
        method: Method::None,
        z: None,
        p: None,
        p_holm: None,
        verdict: Verdict::Untested,
        note: None,
    };
    let hashes = (
        bm.run.and_then(|r| r.sha256.as_deref()),
        cm.run.and_then(|r| r.sha256.as_deref()),
    );
    // A conditional figure's `trials` are the observations behind it, so
    // the runs' own trial counts (run.json) must match too, and so must
    // the --set/--scan arguments laid over the same text.
    let identical = b.trials > 0
        && b.trials == c.trials
        && b.seed == c.seed
        && matches!(hashes, (Some(x), Some(y)) if x == y)
        && matches!((bm.run, cm.run), (Some(x), Some(y)) if x.trials == y.trials && x.layers == y.layers);
    let same_level = bm.level == cm.level;
    if identical {
        check.method = Method::Identical;
        compare_exactly(&mut check, b, c, same_level);
    } else if b.trials == 0 && c.trials == 0 {
        check.method = Method::Exact;
        compare_exactly(&mut check, b, c, same_level);
    } else if b.estimate.value.is_nan() && c.estimate.value.is_nan() {
        check.verdict = Verdict::NoChange;
        check.note = Some("undefined in both runs".into());
    } else {
        match rule::test(b, c, (bm.level, cm.level), how) {
            Ok((method, t)) => {
                check.method = method;
                check.z = Some(t.z);
                check.p = Some(t.p);
                check.interval = Some(t.interval);
            }
            Err(why) => check.note = Some(why),
        }
    }
    check
}

/// Records `m` once.
fn note_missing(missing: &mut Vec<Missing>, seen: &mut HashSet<Missing>, m: Missing) {
    if seen.insert(m.clone()) {
        missing.push(m);
    }
}

/// Whether `row` of `side` has a counterpart on the other side, and if not,
/// what is missing (the coarsest level: scenario, variant, metric).
fn counterpart(
    row: &Row,
    side: Side,
    other: &HashMap<(&str, &str, &str), &Row>,
    scenarios: &HashSet<&str>,
    variants: &HashSet<(&str, &str)>,
) -> Option<Missing> {
    let key = (
        row.scenario.as_str(),
        row.variant.as_str(),
        row.metric.as_str(),
    );
    if other.contains_key(&key) {
        return None;
    }
    let scenario = row.scenario.clone();
    Some(if !scenarios.contains(key.0) {
        Missing {
            only_in: side,
            scenario,
            variant: None,
            metric: None,
        }
    } else if !variants.contains(&(key.0, key.1)) {
        Missing {
            only_in: side,
            scenario,
            variant: Some(row.variant.clone()),
            metric: None,
        }
    } else {
        Missing {
            only_in: side,
            scenario,
            variant: Some(row.variant.clone()),
            metric: Some(row.metric.clone()),
        }
    })
}

type Index<'a> = (
    HashMap<(&'a str, &'a str, &'a str), &'a Row>,
    HashSet<&'a str>,
    HashSet<(&'a str, &'a str)>,
);

fn index(folder: &Folder) -> Index<'_> {
    let rows = folder
        .rows
        .iter()
        .map(|r| {
            (
                (r.scenario.as_str(), r.variant.as_str(), r.metric.as_str()),
                r,
            )
        })
        .collect();
    let scenarios = folder.rows.iter().map(|r| r.scenario.as_str()).collect();
    let variants = folder
        .rows
        .iter()
        .map(|r| (r.scenario.as_str(), r.variant.as_str()))
        .collect();
    (rows, scenarios, variants)
}

/// Compares `current` with `baseline`.
pub fn compare(baseline: &Folder, current: &Folder, options: &Options) -> Comparison {
    let (b_rows, b_scenarios, b_variants) = index(baseline);
    let (c_rows, c_scenarios, c_variants) = index(current);
    let mut missing = Vec::new();
    let mut seen = HashSet::new();
    let mut not_run: Vec<String> = Vec::new();
    let mut metrics = Vec::new();
    let mut metas: HashMap<&str, (Meta, Meta)> = HashMap::new();
    for c in &current.rows {
        match counterpart(c, Side::Current, &b_rows, &b_scenarios, &b_variants) {
            Some(m) => note_missing(&mut missing, &mut seen, m),
            None => {
                let b = b_rows[&(c.scenario.as_str(), c.variant.as_str(), c.metric.as_str())];
                let (bm, cm) = metas
                    .entry(c.scenario.as_str())
                    .or_insert_with(|| (meta(baseline, &c.scenario), meta(current, &c.scenario)));
                let how = How::of(baseline, current, &c.scenario, &c.metric);
                metrics.push(judge(b, c, bm, cm, how));
            }
        }
    }
    for b in &baseline.rows {
        if options.named && !c_scenarios.contains(b.scenario.as_str()) {
            if !not_run.contains(&b.scenario) {
                not_run.push(b.scenario.clone());
            }
            continue;
        }
        if let Some(m) = counterpart(b, Side::Baseline, &c_rows, &c_scenarios, &c_variants) {
            note_missing(&mut missing, &mut seen, m);
        }
    }
    let tests = holm_verdicts(&mut metrics, options);
    let compared: Vec<&str> = {
        let mut names: Vec<&str> = Vec::new();
        for m in &metrics {
            if !names.contains(&m.scenario.as_str()) {
                names.push(&m.scenario);
            }
        }
        names
    };
    let throughput = throughput(baseline, current, &compared, options.max_slowdown);
    let mut notes = notes(baseline, current, &compared);
    if options.max_slowdown.is_some() {
        notes.extend(untimed_note(baseline, current, &compared));
    }
    Comparison {
        baseline: baseline.dir.display().to_string(),
        current: current.dir.display().to_string(),
        alpha: options.alpha,
        min_effect: options.min_effect,
        max_slowdown: options.max_slowdown,
        tests,
        notes,
        throughput,
        metrics,
        missing,
        not_run,
    }
}

/// Holm over every test, then the verdicts (with `--min-effect`); returns
/// the number of tests.
fn holm_verdicts(metrics: &mut [MetricCheck], options: &Options) -> usize {
    let tested: Vec<usize> = (0..metrics.len())
        .filter(|&i| metrics[i].method.is_test())
        .collect();
    let p: Vec<f64> = tested
        .iter()
        .map(|&i| metrics[i].p.unwrap_or(1.0))
        .collect();
    for (&i, adjusted) in tested.iter().zip(stats::holm(&p)) {
        let m = &mut metrics[i];
        m.p_holm = Some(adjusted);
        m.verdict = if adjusted <= options.alpha {
            moved(m.difference)
        } else {
            Verdict::NoChange
        };
    }
    for m in metrics.iter_mut() {
        if m.verdict.is_moved()
            && options
                .min_effect
                .is_some_and(|min| m.difference.abs() < min)
        {
            m.verdict = Verdict::BelowMinEffect;
        }
    }
    tested.len()
}

/// The assumptions made for scenarios without run metadata.
fn notes(baseline: &Folder, current: &Folder, compared: &[&str]) -> Vec<String> {
    let mut notes = Vec::new();
    for (folder, side) in [(baseline, Side::Baseline), (current, Side::Current)] {
        let lacking: Vec<&str> = compared
            .iter()
            .copied()
            .filter(|s| meta(folder, s).run.is_none())
            .collect();
        if !lacking.is_empty() {
            notes.push(format!(
                "the {} `{}` has no run metadata for {} (no run.json, or one from an older woundsim): \
                 its intervals are taken as {}% and it is never treated as identical to the other run",
                side.name(),
                folder.dir.display(),
                lacking
                    .iter()
                    .map(|s| format!("`{s}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
                ASSUMED_LEVEL * 100.0
            ));
        }
    }
    notes
}

/// A scenario's trials per second in `f`'s `run.json`, if it was timed.
fn rate_of(f: &Folder, scenario: &str) -> Option<f64> {
    meta(f, scenario).run.and_then(|r| r.trials_per_second)
}

/// Which compared scenarios `--max-slowdown` cannot judge, and why: a side
/// without timings (a `--reproducible` run, an exact solution, or no
/// `run.json`).
fn untimed_note(baseline: &Folder, current: &Folder, compared: &[&str]) -> Option<String> {
    let side = |s: &str| match (rate_of(baseline, s), rate_of(current, s)) {
        (Some(_), Some(_)) => None,
        (None, Some(_)) => Some("the baseline"),
        (Some(_), None) => Some("the current run"),
        (None, None) => Some("either run"),
    };
    let untimed: Vec<String> = compared
        .iter()
        .filter_map(|s| side(s).map(|why| format!("`{s}` ({why})")))
        .collect();
    (!untimed.is_empty()).then(|| {
        format!(
            "--max-slowdown: no throughput to compare for {}: no trials per second in run.json (a --reproducible run or exact figures record none)",
            untimed.join(", ")
        )
    })
}

/// Throughput of each compared scenario that both runs timed.
fn throughput(
    baseline: &Folder,
    current: &Folder,
    compared: &[&str],
    limit: Option<f64>,
) -> Vec<Throughput> {
    let rate = rate_of;
    let threads = |f: &Folder| f.run.as_ref().and_then(|r| r.threads);
    compared
        .iter()
        .filter_map(|s| {
            let (b, c) = (rate(baseline, s)?, rate(current, s)?);
            let slowdown = b / c;
            Some(Throughput {
                scenario: s.to_string(),
                baseline: b,
                current: c,
                slowdown,
                baseline_threads: threads(baseline),
                current_threads: threads(current),
                beyond_limit: limit.is_some_and(|r| slowdown > r),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::stats::{Estimate, mean_interval, wilson, z_for_level};
    use crate::report::run_info::RunInfo;

    fn row(metric: &str, estimate: Estimate, trials: u64, seed: u64) -> Row {
        Row {
            scenario: "s".into(),
            variant: "v".into(),
            metric: metric.into(),
            estimate,
            trials,
            seed,
        }
    }

    fn folder(rows: Vec<Row>, sha: &str) -> Folder {
        let run = RunInfo {
            scenarios: vec![ScenarioRun {
                name: "s".into(),
                sha256: Some(sha.into()),
                confidence: 0.95,
                trials_per_second: Some(1e6),
                ..ScenarioRun::default()
            }],
            ..RunInfo::default()
        };
        Folder {
            dir: "d".into(),
            rows,
            kinds: Default::default(),
            run: Some(run),
        }
    }

    fn options() -> Options {
        Options {
            alpha: 0.001,
            min_effect: None,
            max_slowdown: None,
            named: false,
        }
    }

    fn z() -> f64 {
        z_for_level(0.95)
    }

    #[test]
    fn identical_runs_flag_any_difference_with_p_zero() {
        let a = wilson(4_000, 10_000, z());
        let b = wilson(4_001, 10_000, z());
        let base = folder(vec![row("p_dead", a, 10_000, 1)], "h");
        let same = compare(&base, &base, &options());
        assert_eq!(same.metrics[0].method, Method::Identical);
        assert_eq!(same.metrics[0].verdict, Verdict::NoChange);
        let one_more = folder(vec![row("p_dead", b, 10_000, 1)], "h");
        let c = compare(&base, &one_more, &options());
        assert_eq!(c.metrics[0].verdict, Verdict::MovedUp);
        assert_eq!(c.metrics[0].p, Some(0.0));
        assert_eq!(c.tests, 0);
        // Another scenario text: no longer identical, and one success in
        // 10,000 is noise.
        let edited = folder(vec![row("p_dead", b, 10_000, 1)], "other");
        let c = compare(&base, &edited, &options());
        assert_eq!(c.metrics[0].method, Method::TwoProportions);
        assert_eq!(c.metrics[0].verdict, Verdict::NoChange);
    }

    #[test]
    fn a_large_change_of_a_proportion_moves_down_and_min_effect_can_ignore_it() {
        let base = folder(
            vec![row("p_dead", wilson(4_000, 10_000, z()), 10_000, 1)],
            "h",
        );
        let cur = folder(
            vec![row("p_dead", wilson(3_500, 10_000, z()), 10_000, 2)],
            "h",
        );
        let c = compare(&base, &cur, &options());
        let m = &c.metrics[0];
        assert_eq!(m.verdict, Verdict::MovedDown);
        let (lo, hi) = m.interval.unwrap();
        assert!(lo < -0.05 && -0.05 < hi, "{m:?}");
        let lenient = Options {
            min_effect: Some(0.06),
            ..options()
        };
        assert_eq!(
            compare(&base, &cur, &lenient).metrics[0].verdict,
            Verdict::BelowMinEffect
        );
    }

    #[test]
    fn holm_counts_every_test_of_the_family() {
        // z = 3.5 alone (p = 4.7e-4) moves at alpha 0.001; beside a
        // second test it needs p <= 0.0005 — still moved — and beside
        // three it does not (4 × 4.7e-4 > 0.001).
        let se = 1.0;
        let est = |m: f64| mean_interval(m, se * se * 100.0, 100, z());
        let rows = |n: usize, shift: f64| -> Vec<Row> {
            (0..n)
                .map(|i| {
                    let mean = if i == 0 { shift } else { 0.0 };
                    row(&format!("mean_{i}"), est(mean), 100, 1)
                })
                .collect()
        };
        let shift = 3.5 * 2f64.sqrt();
        for (n, verdict) in [
            (1, Verdict::MovedUp),
            (2, Verdict::MovedUp),
            (4, Verdict::NoChange),
        ] {
            let base = folder(rows(n, 0.0), "h");
            let mut cur = folder(rows(n, shift), "h");
            cur.rows.iter_mut().for_each(|r| r.seed = 2);
            let c = compare(&base, &cur, &options());
            assert_eq!(c.tests, n);
            assert_eq!(
                c.metrics[0].verdict, verdict,
                "{n} tests: {:?}",
                c.metrics[0]
            );
        }
    }

    #[test]
    fn quantiles_across_seeds_are_untested_and_exact_figures_compared_exactly() {
        let q = Estimate {
            value: 22.0,
            low: 22.0,
            high: 23.0,
        };
        let q2 = Estimate { value: 23.0, ..q };
        let base = folder(vec![row("q50_days", q, 100, 1)], "h");
        let cur = folder(vec![row("q50_days", q2, 100, 2)], "h");
        let c = compare(&base, &cur, &options());
        assert_eq!(c.metrics[0].verdict, Verdict::Untested);
        assert!(c.metrics[0].note.as_deref().unwrap().contains("quantile"));
        let exact = |v| row("q50_days", Estimate::exact(v), 0, 0);
        let c = compare(
            &folder(vec![exact(22.0)], "a"),
            &folder(vec![exact(23.0)], "b"),
            &options(),
        );
        assert_eq!(
            (c.metrics[0].method, c.metrics[0].verdict),
            (Method::Exact, Verdict::MovedUp)
        );
    }

    #[test]
    fn a_monte_carlo_share_is_tested_against_an_exact_one() {
        let exact = folder(vec![row("p_dead", Estimate::exact(0.404_875), 0, 0)], "a");
        let near = folder(
            vec![row("p_dead", wilson(40_500, 100_000, z()), 100_000, 1)],
            "b",
        );
        let far = folder(
            vec![row("p_dead", wilson(41_500, 100_000, z()), 100_000, 1)],
            "b",
        );
        let c = compare(&exact, &near, &options());
        assert_eq!(
            c.metrics[0].verdict,
            Verdict::NoChange,
            "{:?}",
            c.metrics[0]
        );
        let c = compare(&exact, &far, &options());
        assert_eq!(c.metrics[0].verdict, Verdict::MovedUp, "{:?}", c.metrics[0]);
    }

    #[test]
    fn what_only_one_side_has_is_reported_at_its_coarsest_level() {
        let e = wilson(1, 10, z());
        let mut other = row("p_a", e, 10, 1);
        other.scenario = "t".into();
        let mut variant = row("p_a", e, 10, 1);
        variant.variant = "w".into();
        let base = folder(
            vec![row("p_a", e, 10, 1), row("p_b", e, 10, 1), other.clone()],
            "h",
        );
        let cur = folder(vec![row("p_a", e, 10, 1), variant], "h");
        let c = compare(&base, &cur, &options());
        let described: Vec<String> = c.missing.iter().map(Missing::describe).collect();
        assert_eq!(
            described,
            [
                "variant `w` of scenario `s` is only in the current",
                "metric `p_b` of variant `v` of scenario `s` is only in the baseline",
                "scenario `t` is only in the baseline",
            ]
        );
        // Named scenarios: `t` was not run, not missing.
        let named = Options {
            named: true,
            ..options()
        };
        let c = compare(&base, &cur, &named);
        assert_eq!(c.not_run, ["t"]);
        assert_eq!(c.missing.len(), 2);
    }

    #[test]
    fn throughput_is_compared_against_the_limit() {
        let e = wilson(1, 10, z());
        let base = folder(vec![row("p_a", e, 10, 1)], "h");
        let mut cur = base.clone();
        cur.run.as_mut().unwrap().scenarios[0].trials_per_second = Some(4e5);
        let limited = Options {
            max_slowdown: Some(2.0),
            ..options()
        };
        let c = compare(&base, &cur, &limited);
        assert_eq!(c.throughput[0].slowdown, 2.5);
        assert_eq!(c.slower().count(), 1);
        assert_eq!(compare(&base, &cur, &options()).slower().count(), 0);
    }

    #[test]
    fn without_metadata_the_level_is_assumed_and_nothing_is_identical() {
        let e = wilson(4_000, 10_000, z());
        let mut base = folder(vec![row("p_dead", e, 10_000, 1)], "h");
        base.run = None;
        let c = compare(&base, &base, &options());
        assert_eq!(c.metrics[0].method, Method::TwoProportions);
        assert_eq!(c.metrics[0].verdict, Verdict::NoChange);
        assert_eq!(c.notes.len(), 2, "{:?}", c.notes);
    }
}
