//! Line charts: one curve per variant over numeric x values (metrics at
//! given x, or a distribution's shares by bin), or one per metric across
//! variants (a scan's variants, each combat variant's encounter XP), with interval bands for
//! Monte Carlo results — e.g. death probability from a festering wound
//! against max HP, one curve per Medicine modifier. A proportion curve's
//! axis ends at 100% at most ([`super::axis`]). Each curve has its own
//! colour and marker shape ([`super::palette`]); curves that coincide
//! exactly, which would hide each other, are named in the note.

use std::ops::Range;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::axis::{Quantity, tick, upper_bound};
use super::frame::{Swatch, TOP, layout_coloured, marker_shape, style_mesh};
use super::palette::{colour, marker, sequential};
use crate::engine::stats::Estimate;
use crate::results::{LinePoints, ScenarioResult};

/// A line chart ready to draw.
pub struct Lines {
    title: String,
    x_label: String,
    y_label: String,
    /// `(variant, points (x, estimate in data units))`.
    series: Vec<(String, Vec<(f64, Estimate)>)>,
    bands: bool,
    /// Proportions, drawn in percent.
    percent: bool,
    /// Curves of ordered values: a sequential palette.
    sequential: bool,
    /// The spec's own note ([`LinePoints::Scan`]'s), before the
    /// identical curves.
    note: String,
}

impl Lines {
    /// Resolves the points of each listed variant from the result.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        result: &ScenarioResult,
        title: &str,
        x_label: &str,
        y_label: &str,
        variants: &[String],
        points: &LinePoints,
        percent: bool,
    ) -> Self {
        let series = variants
            .iter()
            .enumerate()
            .map(|(j, v)| {
                let pts: Vec<(f64, Estimate)> = match points {
                    LinePoints::Scan { metric, series, .. } => series
                        .get(j)
                        .map_or_else(Vec::new, |s| across(result, metric, s)),
                    LinePoints::PerMetric { metrics, points } => metrics
                        .get(j)
                        .map_or_else(Vec::new, |m| across(result, m, points)),
                    LinePoints::Metrics(list) => list
                        .iter()
                        .filter_map(|(x, metric)| {
                            result.figure(v, metric).map(|f| (*x, f.estimate))
                        })
                        .collect(),
                    LinePoints::Distribution(name) => result
                        .distributions
                        .iter()
                        .filter(|r| &r.variant == v && &r.distribution == name)
                        .map(|r| (r.bin as f64, r.share))
                        .collect(),
                };
                (
                    v.clone(),
                    pts.into_iter()
                        .filter(|(_, e)| e.value.is_finite())
                        .collect(),
                )
            })
            .collect();
        let x_label = if result.is_exact() {
            x_label.to_string()
        } else {
            format!("{x_label}; bands: {}% intervals", result.confidence * 100.0)
        };
        Lines {
            title: title.to_string(),
            x_label,
            y_label: y_label.to_string(),
            series,
            bands: !result.is_exact(),
            percent,
            sequential: matches!(
                points,
                LinePoints::Scan {
                    sequential: true,
                    ..
                }
            ),
            note: match points {
                LinePoints::Scan { note, .. } => note.clone(),
                _ => String::new(),
            },
        }
    }

    /// The note naming the curves that coincide with an earlier one (every
    /// point equal), which the earlier curve hides; empty if none.
    pub fn note(&self) -> String {
        let mut groups: Vec<Vec<&str>> = Vec::new();
        let mut seen: Vec<usize> = Vec::new();
        for (j, (name, pts)) in self.series.iter().enumerate() {
            if seen.contains(&j) || pts.is_empty() {
                continue;
            }
            let same: Vec<usize> = (j + 1..self.series.len())
                .filter(|&k| !seen.contains(&k) && self.series[k].1 == *pts)
                .collect();
            if !same.is_empty() {
                let mut group = vec![name.as_str()];
                group.extend(same.iter().map(|&k| self.series[k].0.as_str()));
                seen.extend(same);
                groups.push(group);
            }
        }
        if groups.is_empty() {
            return self.note.clone();
        }
        let groups: Vec<String> = groups.iter().map(|g| g.join(" = ")).collect();
        let identical = format!(
            "Identical curves, drawn on top of each other: {}.",
            groups.join("; ")
        );
        if self.note.is_empty() {
            identical
        } else {
            format!("{} {identical}", self.note)
        }
    }

    fn points(&self) -> impl Iterator<Item = &(f64, Estimate)> {
        self.series.iter().flat_map(|(_, p)| p.iter())
    }

    fn scale(&self) -> f64 {
        if self.percent { 100.0 } else { 1.0 }
    }

    /// The x axis: the points' range (0..1 with fewer than two x values).
    pub fn x_range(&self) -> Range<f64> {
        let x_min = self.points().map(|p| p.0).fold(f64::INFINITY, f64::min);
        let x_max = self.points().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
        if x_min.is_finite() && x_max > x_min {
            x_min..x_max
        } else {
            0.0..1.0
        }
    }

    /// How many x tick labels to ask for: one per whole number when every x
    /// is whole and there are at most 20 of them (counts, rounds), else
    /// plotters' default, so no two ticks round to the same label.
    pub fn x_ticks(&self) -> usize {
        let range = self.x_range();
        let whole = self.points().all(|p| p.0.fract() == 0.0);
        let span = range.end - range.start;
        if whole && span <= 20.0 {
            span as usize + 1
        } else {
            10
        }
    }

    /// The y axis, in drawn units: from 0 to at most 100 for proportions.
    pub fn y_range(&self) -> Range<f64> {
        let quantity = if self.percent {
            Quantity::Probability
        } else {
            Quantity::Amount
        };
        let values = self.points().flat_map(|(_, e)| [e.value, e.high]);
        0.0..upper_bound(values, quantity) * self.scale()
    }

    /// Draws the chart.
    pub fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let n = self.series.len();
        let colour_of = |j: usize| {
            if self.sequential {
                sequential(j, n)
            } else {
                colour(j)
            }
        };
        let plot = layout_coloured(
            root,
            &self.title,
            &self.note(),
            &self.series,
            Swatch::Line,
            &colour_of,
        )?;
        let (y_range, scale) = (self.y_range(), self.scale());
        let x_span = self.x_range().end - self.x_range().start;
        let y_span = y_range.end - y_range.start;
        let mut chart = ChartBuilder::on(&plot)
            .margin_top(TOP)
            .margin_right(8)
            .x_label_area_size(70)
            .y_label_area_size(90)
            .build_cartesian_2d(self.x_range(), y_range)?;
        style_mesh(&mut chart.configure_mesh())
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .x_labels(self.x_ticks())
            .y_label_formatter(&|y| tick(*y, y_span))
            .x_label_formatter(&|x| tick(*x, x_span))
            .draw()?;
        for (j, (_, pts)) in self.series.iter().enumerate() {
            let colour = colour_of(j);
            if self.bands {
                for run in banded_runs(pts) {
                    let mut outline: Vec<(f64, f64)> =
                        run.iter().map(|(x, e)| (*x, e.high * scale)).collect();
                    outline.extend(run.iter().rev().map(|(x, e)| (*x, e.low * scale)));
                    chart.draw_series([Polygon::new(outline, colour.mix(0.18).filled())])?;
                }
            }
            chart.draw_series(LineSeries::new(
                pts.iter().map(|(x, e)| (*x, e.value * scale)),
                colour.stroke_width(3),
            ))?;
            if pts.len() <= 40 {
                let shape = marker_shape(marker(j), 4);
                chart.draw_series(pts.iter().map(|(x, e)| {
                    EmptyElement::at((*x, e.value * scale))
                        + Polygon::new(shape.clone(), colour.filled())
                }))?;
            }
        }
        root.present()
    }
}

/// `metric` of each variant `v` at x, for each `(x, v)` of `points` (a
/// curve across variants).
fn across(result: &ScenarioResult, metric: &str, points: &[(f64, String)]) -> Vec<(f64, Estimate)> {
    points
        .iter()
        .filter_map(|(x, variant)| result.figure(variant, metric).map(|f| (*x, f.estimate)))
        .collect()
}

/// The runs of consecutive points whose intervals are defined, two points
/// or more: a band is drawn over each, and none where an interval is
/// undefined (it is not a band of zero width).
fn banded_runs(pts: &[(f64, Estimate)]) -> impl Iterator<Item = &[(f64, Estimate)]> {
    pts.split(|(_, e)| !e.has_interval())
        .filter(|run| run.len() > 1)
}

#[cfg(test)]
mod tests {
    #[test]
    fn bands_skip_undefined_intervals() {
        use super::{Estimate, banded_runs};
        let defined = |x: f64| (x, Estimate::exact(x));
        let undefined = |x: f64| {
            (
                x,
                Estimate {
                    value: x,
                    low: f64::NAN,
                    high: f64::NAN,
                },
            )
        };
        let pts = [
            defined(1.0),
            defined(2.0),
            undefined(3.0),
            defined(4.0),
            undefined(5.0),
            defined(6.0),
            defined(7.0),
            defined(8.0),
        ];
        let runs: Vec<Vec<f64>> = banded_runs(&pts)
            .map(|r| r.iter().map(|p| p.0).collect())
            .collect();
        assert_eq!(runs, vec![vec![1.0, 2.0], vec![6.0, 7.0, 8.0]]);
    }

    use super::Lines;
    use crate::engine::stats::{Estimate, wilson};
    use crate::results::{DistributionRow, LinePoints};

    /// A cumulative curve reaching 100% (P(severed within N rounds)), for
    /// 12 variants: the old legend headroom drew its axis to about 160%.
    fn cumulative(trials: u64) -> crate::results::ScenarioResult {
        let variants: Vec<String> = (0..12).map(|k| format!("variant-{k}")).collect();
        let mut rows = Vec::new();
        for v in &variants {
            for bin in 1..=8u64 {
                let count = trials * bin.min(4) / 4;
                rows.push(DistributionRow {
                    variant: v.clone(),
                    distribution: "severed_by_round".into(),
                    bin: bin as i64,
                    count,
                    share: if trials == 0 {
                        Estimate::exact(bin.min(4) as f64 / 4.0)
                    } else {
                        wilson(count, trials, 1.96)
                    },
                    trials: None,
                });
            }
        }
        super::super::test_result(variants, Vec::new(), rows)
    }

    fn chart(result: &crate::results::ScenarioResult, percent: bool) -> Lines {
        Lines::new(
            result,
            "t",
            "Rounds",
            "Severed (%)",
            &result.variants,
            &LinePoints::Distribution("severed_by_round".into()),
            percent,
        )
    }

    #[test]
    fn a_cumulative_probability_axis_ends_at_100_percent() {
        for trials in [0, 20_000] {
            let mut result = cumulative(trials);
            result.trials = trials;
            let range = chart(&result, true).y_range();
            assert_eq!(range.start, 0.0);
            assert_eq!(range.end, 100.0, "{trials} trials: {range:?}");
        }
    }

    #[test]
    fn a_curve_per_metric_passes_through_each_variant_at_its_x() {
        use super::super::exact_figure;
        let variants: Vec<String> = ["two", "four"].map(String::from).to_vec();
        let figures = vec![
            exact_figure("two", "p_death", 0.1),
            exact_figure("four", "p_death", 0.3),
            exact_figure("two", "p_down", 0.5),
            exact_figure("four", "p_down", 0.9),
        ];
        let mut result = super::super::test_result(variants, figures, Vec::new());
        result.trials = 0;
        let chart = Lines::new(
            &result,
            "t",
            "Encounter XP",
            "%",
            &["dies".to_string(), "drops".to_string()],
            &LinePoints::PerMetric {
                metrics: vec!["p_death".into(), "p_down".into()],
                points: vec![(200.0, "two".into()), (400.0, "four".into())],
            },
            true,
        );
        let curve = |j: usize| -> Vec<(f64, f64)> {
            chart.series[j]
                .1
                .iter()
                .map(|(x, e)| (*x, e.value))
                .collect()
        };
        assert_eq!(chart.series[1].0, "drops");
        assert_eq!(curve(0), [(200.0, 0.1), (400.0, 0.3)]);
        assert_eq!(curve(1), [(200.0, 0.5), (400.0, 0.9)]);
        assert_eq!(chart.x_range(), 200.0..400.0);
    }

    #[test]
    fn raw_values_are_not_capped() {
        let mut result = cumulative(0);
        result.trials = 0;
        for row in &mut result.distributions {
            row.share = Estimate::exact(row.share.value * 30.0);
        }
        let range = chart(&result, false).y_range();
        assert!((range.end - 31.5).abs() < 1e-9, "{range:?}");
        assert_eq!(chart(&result, false).x_range(), 1.0..8.0);
        assert_eq!(chart(&result, false).x_ticks(), 8);
    }
}
