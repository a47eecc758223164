//! How the gate tests one figure across seeds, by its kind as the runs
//! recorded it in `metrics.csv` (by its name for a folder written before
//! that file existed): which two-sample test of [`super::stats`], and how
//! each side's trials or standard error are read back from its interval.
//!
//! * `proportion`: the two-proportion z-test, each share's trials read
//!   back from its Wilson interval.
//! * `mean_share` (the mean of a share per trial, such as the share of a
//!   party dead at the end of a career): the same test at each side's
//!   effective sample size, which its Wilson interval gives back the same
//!   way — Rao and Scott's first-order correction of the two-proportion
//!   test for clustered observations (each sample's size divided by its
//!   design effect). A side that an older woundsim wrote with a normal
//!   interval (kind `mean`) gives its effective size as `p(1-p)/SE²`.
//! * `count`, `mean`, `ratio`, `difference`: Welch's z, each standard
//!   error the half-width of a normal interval over `z`.
//! * `quantile`: no standard error; untested across seeds.

use serde::Serialize;

use super::folder::{Folder, Row};
use super::stats::{self, Normal, Share, Test};
use crate::engine::stats::z_for_level;
use crate::results::Kind;

/// How a figure was compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// Same seed, trials and scenario text: bit-identical expected.
    Identical,
    /// Both figures exact (trials = 0): equal expected.
    Exact,
    /// Two-proportion z-test (or one-sample against an exact share).
    TwoProportions,
    /// Welch's z of two normal estimates (or one-sample against an exact value).
    Welch,
    /// Not compared (see the note).
    None,
}

impl Method {
    /// Whether this is a significance test (counted in Holm's family).
    pub fn is_test(self) -> bool {
        matches!(self, Method::TwoProportions | Method::Welch)
    }
}

/// How a figure is tested.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Rule {
    /// A proportion or a mean share: two Wilson intervals, two-proportion test.
    Proportion,
    /// A count, mean, ratio or difference: two normal intervals, Welch.
    Normal,
    /// A quantile of integer outcomes: no standard error.
    Quantile,
    /// No kind recorded and none by name.
    Unknown,
}

impl Rule {
    fn of(kind: Kind) -> Rule {
        match kind {
            Kind::Proportion | Kind::MeanShare => Rule::Proportion,
            Kind::Count | Kind::Mean | Kind::Ratio | Kind::Difference => Rule::Normal,
            Kind::Quantile => Rule::Quantile,
        }
    }
}

/// Why a quantile is untested across seeds (stdout, `--json`, JUnit).
pub const QUANTILE_NOTE: &str =
    "a quantile of integer outcomes has no standard error: compared only between identical runs";

/// Why a figure of a folder without `metrics.csv` may be untested.
pub const UNKNOWN_NOTE: &str =
    "no kind recorded (no metrics.csv) and no rule for this metric's name (p_, mean_, _diff, q)";

/// The test of a metric whose kind no folder records (one written before
/// `metrics.csv` existed), by the naming convention: `p_` a proportion,
/// `mean_` and `_diff` normal, `q50_` and the like a quantile.
pub(super) fn test_by_name(metric: &str) -> Rule {
    let quantile = metric
        .strip_prefix('q')
        .and_then(|rest| rest.split_once('_'))
        .is_some_and(|(digits, _)| {
            !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
        });
    if metric.ends_with("_diff") {
        Rule::Normal
    } else if metric.starts_with("p_") {
        Rule::Proportion
    } else if metric.starts_with("mean_") {
        Rule::Normal
    } else if quantile {
        Rule::Quantile
    } else {
        Rule::Unknown
    }
}

/// How one figure is tested: the rule, and each side's recorded kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct How {
    /// The test.
    pub(super) rule: Rule,
    /// The baseline's recorded kind.
    baseline: Option<Kind>,
    /// The current run's recorded kind.
    current: Option<Kind>,
}

impl How {
    /// `metric` of `scenario`: by the kind the current run records, else
    /// the baseline's, else by its name.
    pub(super) fn of(baseline: &Folder, current: &Folder, scenario: &str, metric: &str) -> How {
        let (b, c) = (
            baseline.kind_of(scenario, metric),
            current.kind_of(scenario, metric),
        );
        How {
            rule: c.or(b).map_or_else(|| test_by_name(metric), Rule::of),
            baseline: b,
            current: c,
        }
    }

    /// Whether a side whose recorded kind is `own` (the other's `other`)
    /// wrote a normal interval where the rule reads a Wilson one: a mean
    /// share of an older woundsim, recorded as a `mean` or not at all.
    fn normal_side(own: Option<Kind>, other: Option<Kind>) -> bool {
        own == Some(Kind::Mean) || (own.is_none() && other == Some(Kind::MeanShare))
    }
}

/// The trials behind a proportion or a mean share (`∞` for an exact
/// figure): from its Wilson interval, or where the side wrote a normal
/// interval (`normal`), the effective sample size `p(1-p)/SE²`.
fn share(r: &Row, level: f64, normal: bool) -> Option<Share> {
    let e = r.estimate;
    let z = z_for_level(level);
    let n = if r.trials == 0 {
        f64::INFINITY
    } else if normal {
        let se = Normal::from_interval(e.value, e.low, e.high, z).se;
        let n = e.value * (1.0 - e.value) / (se * se);
        (n.is_finite() && n > 0.0).then_some(n)?
    } else {
        stats::wilson_trials(e.value, e.low, e.high, z)?
    };
    Some(Share { p: e.value, n })
}

/// A normal estimate (standard error 0 for an exact figure).
fn normal(r: &Row, level: f64) -> Option<Normal> {
    if r.trials == 0 {
        return Some(Normal {
            mean: r.estimate.value,
            se: 0.0,
        });
    }
    let e = r.estimate;
    let n = Normal::from_interval(e.value, e.low, e.high, z_for_level(level));
    n.se.is_finite().then_some(n)
}

/// Tests a figure statistically at the sides' confidence levels
/// `(baseline, current)`, or says why not.
pub(super) fn test(
    b: &Row,
    c: &Row,
    levels: (f64, f64),
    how: How,
) -> Result<(Method, Test), String> {
    let (bv, cv) = (b.estimate.value, c.estimate.value);
    if bv.is_nan() || cv.is_nan() {
        let side = if bv.is_nan() {
            "baseline"
        } else {
            "current run"
        };
        return Err(format!("undefined in the {side}"));
    }
    let z = z_for_level(levels.1);
    let no_interval = "no interval (fewer than two observations) in one run";
    match how.rule {
        Rule::Proportion => {
            let b_normal = How::normal_side(how.baseline, how.current);
            let c_normal = How::normal_side(how.current, how.baseline);
            let (Some(bs), Some(cs)) = (share(b, levels.0, b_normal), share(c, levels.1, c_normal))
            else {
                return Err(no_interval.into());
            };
            Ok((Method::TwoProportions, stats::two_proportions(bs, cs, z)))
        }
        Rule::Normal => {
            let (Some(bn), Some(cn)) = (normal(b, levels.0), normal(c, levels.1)) else {
                return Err(no_interval.into());
            };
            Ok((Method::Welch, stats::welch(bn, cn, z)))
        }
        Rule::Quantile => Err(QUANTILE_NOTE.into()),
        Rule::Unknown => Err(UNKNOWN_NOTE.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::stats::{Estimate, mean_interval, share_interval};

    #[test]
    fn metric_kinds_follow_the_naming_contract() {
        assert_eq!(test_by_name("p_dead"), Rule::Proportion);
        assert_eq!(test_by_name("p_dead_diff"), Rule::Normal);
        assert_eq!(test_by_name("mean_rolls"), Rule::Normal);
        assert_eq!(test_by_name("q50_days_until_closed"), Rule::Quantile);
        assert_eq!(test_by_name("q_x"), Rule::Unknown);
        assert_eq!(test_by_name("rolls"), Rule::Unknown);
    }

    fn row(estimate: Estimate, trials: u64) -> Row {
        Row {
            scenario: "s".into(),
            variant: "v".into(),
            metric: "share_end_dead".into(),
            estimate,
            trials,
            seed: 1,
        }
    }

    #[test]
    fn a_mean_share_is_tested_as_a_proportion_at_its_effective_size() {
        let z = z_for_level(0.95);
        // 2,000 careers; the share's standard error is 0.004 whatever the
        // interval's shape.
        let (n, se) = (2_000u64, 0.004);
        let at = |p: f64| share_interval(p, se * se * n as f64, n, z);
        let how = How {
            rule: Rule::Proportion,
            baseline: Some(Kind::MeanShare),
            current: Some(Kind::MeanShare),
        };
        let (method, t) = test(&row(at(0.2), n), &row(at(0.23), n), (0.95, 0.95), how).unwrap();
        assert_eq!(method, Method::TwoProportions);
        // Each side's effective size p(1-p)/se²; the pooled test at those sizes.
        let expected = stats::two_proportions(
            Share {
                p: 0.2,
                n: 0.16 / (se * se),
            },
            Share {
                p: 0.23,
                n: 0.23 * 0.77 / (se * se),
            },
            z,
        );
        assert!((t.z - expected.z).abs() < 1e-9, "{t:?} vs {expected:?}");
        assert!((t.z - 0.03 / (2f64.sqrt() * se)).abs() < 0.1, "{t:?}");
        // A baseline an older woundsim wrote with a normal interval (kind
        // `mean`) gives the same effective size from its half-width.
        let old = How {
            baseline: Some(Kind::Mean),
            ..how
        };
        let normal = mean_interval(0.2, se * se * n as f64, n, z);
        let (_, t_old) = test(&row(normal, n), &row(at(0.23), n), (0.95, 0.95), old).unwrap();
        assert!((t_old.z - t.z).abs() < 1e-9, "{t_old:?} vs {t:?}");
        // Read as a Wilson interval, the symmetric one would give another size.
        let (_, wrong) = test(&row(normal, n), &row(at(0.23), n), (0.95, 0.95), how).unwrap();
        assert!((wrong.z - t.z).abs() > 1e-3, "{wrong:?} vs {t:?}");
    }
}
