//! The metric catalogue: what each figure of a scenario type is — its
//! name, its [`Kind`] (which decides its interval, and how `woundsim
//! check` tests it), its [`Unit`] — and how it is read from the type's
//! accumulated counts or exact solution; and [`figures`], the one function
//! that turns a catalogue and those readings into figures with their
//! intervals and the paired `_diff` figures.
//!
//! A scenario type declares its catalogue ([`MetricDef`]s, each with a
//! type-specific `measure`) and says how to read a measure ([`Observed`]);
//! it never builds a [`Figure`] itself. Each figure's kind and unit travel
//! with it into the output (`metrics.csv`), so that `check`, the charts
//! and the HTML report read a figure's kind instead of guessing it from
//! its name.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use super::Figure;
use crate::engine::accum::{IntMoments, Moments};
use crate::engine::quantile;
use crate::engine::ratio::PairedRatio;
use crate::engine::stats::{Estimate, share_interval, wilson};

/// What kind of number a figure is: how its interval is made, and how
/// `woundsim check` tests a change of it (docs/output.md, "metrics.csv").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A share of observations in which a 0/1 event happened: a Wilson
    /// interval, inside `[0, 1]`.
    Proportion,
    /// The mean number of things counted per observation (deaths, rounds,
    /// injuries, hits): a normal interval of the mean.
    Count,
    /// The mean of an amount per observation (gold, HP, days, minutes): a
    /// normal interval of the mean.
    Mean,
    /// The mean of a share per observation, each in `[0, 1]` (the share of
    /// a party's PCs alive at a level): the Wilson interval at the
    /// effective sample size, inside `[0, 1]`
    /// ([`crate::engine::stats::share_interval`]).
    MeanShare,
    /// A ratio of two means over the same trials (gold spent per gold
    /// found): a delta-method normal interval.
    Ratio,
    /// A quantile of integer outcomes: an order-statistic interval.
    Quantile,
    /// A paired difference to the first variant on common random numbers
    /// (a `_diff` figure): a normal interval of the mean difference.
    Difference,
}

impl Kind {
    /// Every kind, in the order documentation lists them.
    pub const ALL: [Kind; 7] = [
        Kind::Proportion,
        Kind::Count,
        Kind::Mean,
        Kind::MeanShare,
        Kind::Ratio,
        Kind::Quantile,
        Kind::Difference,
    ];

    /// Its name in `metrics.csv`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Proportion => "proportion",
            Kind::Count => "count",
            Kind::Mean => "mean",
            Kind::MeanShare => "mean_share",
            Kind::Ratio => "ratio",
            Kind::Quantile => "quantile",
            Kind::Difference => "difference",
        }
    }

    /// The kind of a name in `metrics.csv`.
    pub fn named(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// What a figure is measured in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    /// A share from 0 to 1 (of trials, of PCs, of treasure).
    Share,
    /// Things counted: events, creatures, attacks, saves, uses.
    Count,
    /// Combat rounds.
    Rounds,
    /// Hit points.
    Hp,
    /// Gold pieces.
    Gp,
    /// Days.
    Days,
    /// Minutes.
    Minutes,
}

impl Unit {
    /// Every unit.
    pub const ALL: [Unit; 7] = [
        Unit::Share,
        Unit::Count,
        Unit::Rounds,
        Unit::Hp,
        Unit::Gp,
        Unit::Days,
        Unit::Minutes,
    ];

    /// Its name in `metrics.csv`.
    pub fn name(self) -> &'static str {
        match self {
            Unit::Share => "share",
            Unit::Count => "count",
            Unit::Rounds => "rounds",
            Unit::Hp => "hp",
            Unit::Gp => "gp",
            Unit::Days => "days",
            Unit::Minutes => "minutes",
        }
    }

    /// The unit of a name in `metrics.csv`.
    pub fn named(name: &str) -> Option<Unit> {
        Unit::ALL.into_iter().find(|u| u.name() == name)
    }
}

/// One metric of a scenario type's catalogue: its name in `summary.csv`,
/// its kind and unit, whether it has a paired `_diff` figure, and what it
/// measures (`M`, the type's own description of how to read it).
#[derive(Clone, Debug, PartialEq)]
pub struct MetricDef<M> {
    /// Metric name (lower_snake_case, documented per type).
    pub name: String,
    /// How it is estimated.
    pub kind: Kind,
    /// What it is measured in.
    pub unit: Unit,
    /// Whether variants after the first also report its paired difference
    /// to the first (`<name>_diff`).
    pub paired: bool,
    /// What it measures, as the type reads it.
    pub measure: M,
}

impl<M> MetricDef<M> {
    /// A proportion (unit [`Unit::Share`]).
    pub fn proportion(name: impl Into<String>, measure: M) -> Self {
        Self::new(name, Kind::Proportion, Unit::Share, measure)
    }

    /// A mean count per observation.
    pub fn count(name: impl Into<String>, unit: Unit, measure: M) -> Self {
        Self::new(name, Kind::Count, unit, measure)
    }

    /// The mean of an amount per observation.
    pub fn mean(name: impl Into<String>, unit: Unit, measure: M) -> Self {
        Self::new(name, Kind::Mean, unit, measure)
    }

    /// The mean of a share per observation (unit [`Unit::Share`]).
    pub fn mean_share(name: impl Into<String>, measure: M) -> Self {
        Self::new(name, Kind::MeanShare, Unit::Share, measure)
    }

    /// A metric of any kind, without a paired difference.
    pub fn new(name: impl Into<String>, kind: Kind, unit: Unit, measure: M) -> Self {
        MetricDef {
            name: name.into(),
            kind,
            unit,
            paired: false,
            measure,
        }
    }

    /// This metric with its paired `_diff` figure.
    pub fn with_diff(mut self) -> Self {
        self.paired = true;
        self
    }
}

/// Where the `_diff` figures stand among the figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiffOrder {
    /// Every variant's figures, then every later variant's differences.
    AfterAllVariants,
    /// Each variant's figures followed by its own differences.
    AfterEachVariant,
}

/// A scenario's metrics (or one group of them), in `summary.csv` order.
#[derive(Clone, Debug, PartialEq)]
pub struct Catalogue<M> {
    /// Each variant's metrics, in order.
    pub metrics: Vec<Vec<MetricDef<M>>>,
    /// Where the differences stand.
    pub diffs: DiffOrder,
}

impl<M> Catalogue<M> {
    /// Each variant's metrics, then the differences.
    pub fn new(metrics: Vec<Vec<MetricDef<M>>>) -> Self {
        Catalogue {
            metrics,
            diffs: DiffOrder::AfterAllVariants,
        }
    }

    /// The same metrics for each of `variants` variants.
    pub fn same_for_all(variants: usize, metrics: Vec<MetricDef<M>>) -> Self
    where
        M: Clone,
    {
        Self::new(vec![metrics; variants])
    }

    /// This catalogue with each variant's differences right after its
    /// figures.
    pub fn diffs_after_each_variant(mut self) -> Self {
        self.diffs = DiffOrder::AfterEachVariant;
        self
    }
}

/// What the counts hold for one figure.
#[derive(Clone, Debug, PartialEq)]
pub enum Reading<'a> {
    /// `hits` of `of` observations had the event: a Wilson interval.
    Events {
        /// Observations with the event.
        hits: u64,
        /// Observations.
        of: u64,
    },
    /// Moments of one value per observation: a normal interval of the mean.
    Moments(Moments),
    /// Exact integer moments of one value per observation: a normal
    /// interval of the mean, or under [`Kind::Proportion`] (a 0/1 value)
    /// a Wilson interval of the share.
    IntMoments(&'a IntMoments),
    /// Paired sums of a ratio of means: the ratio ([`Kind::Ratio`]) or its
    /// difference to the first variant ([`Kind::Difference`]).
    Ratio(&'a PairedRatio),
    /// Observations counted in unit bins from `first`: the `q`-quantile.
    Quantile {
        /// The value of the first bin.
        first: i64,
        /// Observations in each bin.
        counts: Cow<'a, [u64]>,
        /// The quantile's level, e.g. 0.5.
        q: f64,
    },
    /// An exact value (exact mode): the interval is the point itself.
    Exact(f64),
    /// No figure: the metric does not apply here, or is undefined.
    Absent,
}

/// A figure's reading, with the observations it is taken over and the
/// divisor of a per-member figure.
#[derive(Clone, Debug, PartialEq)]
pub struct Observed<'a> {
    /// What the counts hold.
    pub reading: Reading<'a>,
    /// The observations behind it where they are not the run's trials
    /// (the `trials` column: encounters, injuries, closed wounds); `None`:
    /// every trial.
    pub over: Option<u64>,
    /// The estimate and its interval are divided by this (a per-PC figure
    /// of a party total: the party's size); 1 otherwise.
    pub per: f64,
}

impl<'a> Observed<'a> {
    /// No figure.
    pub const ABSENT: Observed<'static> = Observed {
        reading: Reading::Absent,
        over: None,
        per: 1.0,
    };

    /// A reading over every trial of the run.
    pub fn of_trials(reading: Reading<'a>) -> Self {
        Observed {
            reading,
            over: None,
            per: 1.0,
        }
    }

    /// A reading over `n` observations (not the run's trials).
    pub fn over(reading: Reading<'a>, n: u64) -> Self {
        Observed {
            reading,
            over: Some(n),
            per: 1.0,
        }
    }

    /// An exact value.
    pub fn exact(value: f64) -> Self {
        Self::of_trials(Reading::Exact(value))
    }

    /// This reading divided by `per`.
    pub fn per(mut self, per: f64) -> Self {
        self.per = per;
        self
    }
}

/// The estimate of a reading under `kind`, divided by `per`; `None` for
/// [`Reading::Absent`] or a quantile of no observations.
///
/// A [`Kind::MeanShare`] is divided before its interval is made: its
/// observations are shares in `[0, 1]` only once divided (PCs of a
/// party's size), and its interval is not a scaled one.
fn estimate(kind: Kind, reading: &Reading<'_>, z: f64, per: f64) -> Option<Estimate> {
    let moments = match reading {
        Reading::IntMoments(m) => Some((m.mean(), m.variance(), m.count())),
        Reading::Moments(m) => Some((m.mean(), m.variance(), m.count())),
        _ => None,
    };
    if let (Kind::MeanShare, Some((mean, variance, n))) = (kind, moments) {
        return Some(share_interval(mean / per, variance / (per * per), n, z));
    }
    let e = match reading {
        Reading::Absent => return None,
        Reading::Exact(x) => Estimate::exact(*x),
        Reading::Events { hits, of } => wilson(*hits, *of, z),
        Reading::IntMoments(m) if kind == Kind::Proportion => {
            wilson(u64::try_from(m.sum()).unwrap_or(0), m.count(), z)
        }
        Reading::IntMoments(m) => m.estimate(z),
        Reading::Moments(m) => m.estimate(z),
        Reading::Ratio(r) if kind == Kind::Difference => r.diff(z),
        Reading::Ratio(r) => r.ratio(z),
        Reading::Quantile { first, counts, q } => quantile::from_counts(*first, counts, *q, z)?,
    };
    Some(divided(e, per))
}

/// `e` divided by `per`.
fn divided(e: Estimate, per: f64) -> Estimate {
    if per == 1.0 {
        return e;
    }
    Estimate {
        value: e.value / per,
        low: e.low / per,
        high: e.high / per,
    }
}

/// The figures of a catalogue: `read(v, i, metric)` reads variant `v`'s
/// figure of `metric`, its `i`-th; `read_diff(v, i, metric)` the paired
/// difference of variant `v` (≥ 1) to the first for a paired metric, or
/// [`Observed::ABSENT`] where the two do not pair. `variants` names them,
/// in order; `z` is the interval's normal quantile.
pub fn figures<'a, M>(
    variants: &[String],
    catalogue: &Catalogue<M>,
    z: f64,
    read: impl Fn(usize, usize, &MetricDef<M>) -> Observed<'a>,
    read_diff: impl Fn(usize, usize, &MetricDef<M>) -> Observed<'a>,
) -> Vec<Figure> {
    let mut out = Vec::new();
    let mut push = |variant: &str, def: &MetricDef<M>, diff: bool, observed: Observed<'a>| {
        let kind = if diff { Kind::Difference } else { def.kind };
        if let Some(e) = estimate(kind, &observed.reading, z, observed.per) {
            out.push(Figure {
                variant: variant.to_string(),
                metric: if diff {
                    format!("{}_diff", def.name)
                } else {
                    def.name.clone()
                },
                estimate: e,
                trials: observed.over,
                kind,
                unit: def.unit,
            });
        }
    };
    let rows = variants.iter().zip(&catalogue.metrics).enumerate();
    let mut figures_of = |v: usize, name: &str, diffs: bool| {
        for (i, def) in catalogue.metrics[v].iter().enumerate() {
            if !diffs {
                push(name, def, false, read(v, i, def));
            } else if def.paired {
                push(name, def, true, read_diff(v, i, def));
            }
        }
    };
    match catalogue.diffs {
        DiffOrder::AfterAllVariants => {
            for (v, (name, _)) in rows.clone() {
                figures_of(v, name, false);
            }
            for (v, (name, _)) in rows.skip(1) {
                figures_of(v, name, true);
            }
        }
        DiffOrder::AfterEachVariant => {
            for (v, (name, _)) in rows {
                figures_of(v, name, false);
                if v > 0 {
                    figures_of(v, name, true);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(figures: &[Figure]) -> Vec<String> {
        figures
            .iter()
            .map(|f| format!("{}:{}", f.variant, f.metric))
            .collect()
    }

    #[test]
    fn figures_come_before_differences_in_either_order() {
        let metric = |n: &str| MetricDef::proportion(n, ()).with_diff();
        let variants = vec!["a".to_string(), "b".to_string()];
        let read = |_: usize, _: usize, _: &MetricDef<()>| Observed::exact(0.5);
        let diff = |_: usize, _: usize, _: &MetricDef<()>| Observed::exact(0.0);
        let all = Catalogue::same_for_all(2, vec![metric("p_x"), metric("p_y")]);
        let figures_all = figures(&variants, &all, 1.96, read, diff);
        assert_eq!(
            names(&figures_all),
            [
                "a:p_x",
                "a:p_y",
                "b:p_x",
                "b:p_y",
                "b:p_x_diff",
                "b:p_y_diff"
            ]
        );
        let each = Catalogue::same_for_all(2, vec![metric("r")]).diffs_after_each_variant();
        assert_eq!(
            names(&figures(&variants, &each, 1.96, read, diff)),
            ["a:r", "b:r", "b:r_diff"]
        );
        assert!(figures_all.iter().all(|f| f.kind
            == if f.metric.ends_with("_diff") {
                Kind::Difference
            } else {
                Kind::Proportion
            }));
    }

    #[test]
    fn an_absent_reading_is_no_figure_and_an_unpaired_metric_no_difference() {
        let variants = vec!["a".to_string(), "b".to_string()];
        let catalogue = Catalogue::same_for_all(
            2,
            vec![
                MetricDef::count("mean_n", Unit::Count, 0).with_diff(),
                MetricDef::count("mean_m", Unit::Count, 1),
            ],
        );
        let figures = figures(
            &variants,
            &catalogue,
            1.96,
            |v, _, d| {
                if v == 1 && d.measure == 1 {
                    Observed::ABSENT
                } else {
                    Observed::exact(1.0)
                }
            },
            |_, _, _| Observed::exact(0.0),
        );
        assert_eq!(
            names(&figures),
            ["a:mean_n", "a:mean_m", "b:mean_n", "b:mean_n_diff"]
        );
    }

    #[test]
    fn a_reading_is_estimated_by_its_kind_and_divided_per_member() {
        let mut m = IntMoments::default();
        for x in [0, 1, 1, 0] {
            m.push(x);
        }
        let z = 1.96;
        let share = estimate(Kind::Proportion, &Reading::IntMoments(&m), z, 1.0).unwrap();
        assert_eq!(share, wilson(2, 4, z));
        let mean = estimate(Kind::Count, &Reading::IntMoments(&m), z, 1.0).unwrap();
        assert_eq!(mean, m.estimate(z));
        let halved = estimate(Kind::Count, &Reading::IntMoments(&m), z, 2.0).unwrap();
        assert_eq!(
            (halved.value, halved.low, halved.high),
            (mean.value / 2.0, mean.low / 2.0, mean.high / 2.0)
        );
        // A mean share: PCs of a party of 2, divided first, then Wilson's
        // interval at the effective size — not a halved normal interval.
        let share = estimate(Kind::MeanShare, &Reading::IntMoments(&m), z, 2.0).unwrap();
        let expected = share_interval(0.25, m.variance() / 4.0, 4, z);
        assert_eq!(share, expected);
        assert!(share.low >= 0.0 && share.high <= 1.0 && share.low < 0.25);
        assert_ne!(share, halved);
        assert_eq!(
            estimate(
                Kind::Quantile,
                &Reading::Quantile {
                    first: 0,
                    counts: Cow::Borrowed(&[]),
                    q: 0.5
                },
                z,
                1.0
            ),
            None
        );
    }

    #[test]
    fn kind_and_unit_names_round_trip() {
        for k in Kind::ALL {
            assert_eq!(Kind::named(k.name()), Some(k));
        }
        for u in Unit::ALL {
            assert_eq!(Unit::named(u.name()), Some(u));
        }
    }
}
