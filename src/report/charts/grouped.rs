//! Grouped vertical bars in percent: one group per category (a proportion
//! metric of a `ChartSpec::Shares`, or a bin of a `ChartSpec::Distribution`),
//! one bar per variant, with interval whiskers for Monte Carlo results.
//!
//! A category that is 0 in every variant is not drawn (the note names it);
//! of a distribution only the bins at either end that are 0 everywhere are
//! dropped (the note gives their range), since a gap inside a distribution
//! is part of its shape.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::axis::{Quantity, tick, upper_bound};
use super::frame::{LABEL_SIZE, Swatch, TOP, layout, style_mesh};
use super::palette::colour;
use super::{FONT, defined, empty_group, keep_groups, omitted_note, with_interval};
use crate::engine::stats::Estimate;
use crate::results::ScenarioResult;

/// What a missing figure is: undefined, drawn as nothing (not as 0).
const UNDEFINED: Estimate = Estimate {
    value: f64::NAN,
    low: f64::NAN,
    high: f64::NAN,
};

/// Grouped bars ready to draw; values are fractions, drawn in percent. An
/// undefined value (NaN) draws no bar, an undefined interval no whisker.
pub struct GroupedBars {
    title: String,
    /// What was left out, under the title.
    note: String,
    x_label: String,
    groups: Vec<String>,
    /// `(variant, one estimate per group)`.
    series: Vec<(String, Vec<Estimate>)>,
    show_intervals: bool,
}

impl GroupedBars {
    /// The bars of a `ChartSpec::Shares`: one group per `(metric, label)`;
    /// a missing figure draws no bar.
    pub fn shares(
        result: &ScenarioResult,
        title: &str,
        x_label: &str,
        categories: &[(String, String)],
    ) -> Self {
        let groups = categories.iter().map(|(_, label)| label.clone()).collect();
        let mut bars = Self::new(result, title, x_label, groups, |v, i| {
            result
                .figure(v, &categories[i].0)
                .map_or(UNDEFINED, |f| f.estimate)
        });
        let (kept, dropped): (Vec<usize>, Vec<usize>) =
            (0..bars.groups.len()).partition(|&i| !empty_group(&bars.series, i));
        let names: Vec<&str> = dropped.iter().map(|&i| bars.groups[i].as_str()).collect();
        bars.note = omitted_note(&names);
        keep_groups(&mut bars.groups, &mut bars.series, &kept);
        bars
    }

    /// The bars of a `ChartSpec::Distribution`: one group per bin of
    /// `distribution`; a bin missing for a variant draws no bar.
    pub fn distribution(
        result: &ScenarioResult,
        title: &str,
        x_label: &str,
        distribution: &str,
    ) -> Self {
        let mut bins: Vec<i64> = result
            .distributions
            .iter()
            .filter(|r| r.distribution == distribution)
            .map(|r| r.bin)
            .collect();
        bins.sort_unstable();
        bins.dedup();
        let groups = bins
            .iter()
            .map(|b| crate::results::thousands_signed(*b))
            .collect();
        let mut bars = Self::new(result, title, x_label, groups, |v, i| {
            result
                .distributions
                .iter()
                .find(|r| r.variant == v && r.distribution == distribution && r.bin == bins[i])
                .map_or(UNDEFINED, |r| r.share)
        });
        let filled: Vec<usize> = (0..bins.len())
            .filter(|&i| !empty_group(&bars.series, i))
            .collect();
        if let (Some(&first), Some(&last)) = (filled.first(), filled.last()) {
            let range = |a: usize, b: usize| {
                if a == b {
                    format!("bin {}", bars.groups[a])
                } else {
                    format!("bins {} to {}", bars.groups[a], bars.groups[b])
                }
            };
            let mut ends = Vec::new();
            if first > 0 {
                ends.push(range(0, first - 1));
            }
            if last + 1 < bins.len() {
                ends.push(range(last + 1, bins.len() - 1));
            }
            if !ends.is_empty() {
                bars.note = format!("Not drawn, 0 in every variant: {}.", ends.join(" and "));
            }
            keep_groups(
                &mut bars.groups,
                &mut bars.series,
                &(first..=last).collect::<Vec<_>>(),
            );
        }
        bars
    }

    fn new(
        result: &ScenarioResult,
        title: &str,
        x_label: &str,
        groups: Vec<String>,
        value: impl Fn(&str, usize) -> Estimate,
    ) -> Self {
        let series = result
            .variants
            .iter()
            .map(|v| (v.clone(), (0..groups.len()).map(|i| value(v, i)).collect()))
            .collect();
        let x_label = if result.is_exact() {
            x_label.to_string()
        } else {
            format!(
                "{x_label}; whiskers: {}% intervals",
                result.confidence * 100.0
            )
        };
        GroupedBars {
            title: title.to_string(),
            note: String::new(),
            x_label,
            groups,
            series,
            show_intervals: !result.is_exact(),
        }
    }

    /// The y axis, in percent: from 0 to at most 100.
    pub fn y_range(&self) -> std::ops::Range<f64> {
        let values = self
            .series
            .iter()
            .flat_map(|(_, v)| v.iter().flat_map(|e| [e.value, e.high]));
        0.0..upper_bound(values, Quantity::Probability) * 100.0
    }

    /// Draws the chart.
    pub fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let plot = layout(root, &self.title, &self.note, &self.series, Swatch::Bar)?;
        let groups = self.groups.len().max(1);
        let mut chart = ChartBuilder::on(&plot)
            .margin_top(TOP)
            .x_label_area_size(96)
            .y_label_area_size(90)
            .build_cartesian_2d(0f64..groups as f64, self.y_range())?;
        let span = self.y_range().end;
        style_mesh(&mut chart.configure_mesh())
            .disable_x_mesh()
            .x_labels(0)
            .y_desc("Share of trials (%)")
            .x_desc(&self.x_label)
            .y_label_formatter(&|y| tick(*y, span))
            .draw()?;
        let n = self.series.len().max(1) as f64;
        let pad = 0.12;
        let width = (1.0 - 2.0 * pad) / n;
        for (j, (_, values)) in self.series.iter().enumerate() {
            let colour = colour(j);
            chart.draw_series(defined(values).map(move |(i, e)| {
                let x0 = i as f64 + pad + j as f64 * width;
                Rectangle::new(
                    [(x0, 0.0), (x0 + width * 0.92, e.value * 100.0)],
                    colour.filled(),
                )
            }))?;
            if self.show_intervals {
                for (i, e) in with_interval(values) {
                    let centre = i as f64 + pad + (j as f64 + 0.46) * width;
                    let cap = width * 0.25;
                    let (lo, hi) = (e.low * 100.0, e.high * 100.0);
                    let style = BLACK.stroke_width(2);
                    chart.draw_series([
                        PathElement::new(vec![(centre, lo), (centre, hi)], style),
                        PathElement::new(vec![(centre - cap, lo), (centre + cap, lo)], style),
                        PathElement::new(vec![(centre - cap, hi), (centre + cap, hi)], style),
                    ])?;
                }
            }
        }
        // Category labels under each group, wrapped onto two lines if long.
        let style =
            TextStyle::from((FONT, LABEL_SIZE).into_font()).pos(Pos::new(HPos::Center, VPos::Top));
        for (i, label) in self.groups.iter().enumerate() {
            let (x, y) = chart.backend_coord(&(i as f64 + 0.5, 0.0));
            for (k, line) in wrap(label, 16).iter().enumerate() {
                root.draw(&Text::new(
                    line.clone(),
                    (x, y + 8 + 22 * k as i32),
                    style.clone(),
                ))?;
            }
        }
        root.present()
    }
}

fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::{GroupedBars, wrap};
    use crate::engine::stats::Estimate;
    use crate::results::Figure;

    #[test]
    fn long_labels_wrap_on_words() {
        assert_eq!(
            wrap("stable (3 successes)", 16),
            vec!["stable (3", "successes)"]
        );
        assert_eq!(wrap("dead", 16), vec!["dead"]);
    }

    #[test]
    fn groups_zero_in_every_variant_are_left_out_and_named() {
        let variants = vec!["raw".to_string(), "wounds".to_string()];
        let figure = super::super::exact_figure;
        let figures = vec![
            figure("raw", "p_dead", 0.4),
            figure("wounds", "p_dead", 0.0),
            figure("raw", "p_minor", 0.0),
            figure("wounds", "p_minor", 0.0),
            figure("raw", "p_severe", 0.0),
        ];
        let result = super::super::test_result(variants, figures, Vec::new());
        let categories: Vec<(String, String)> = [
            ("p_dead", "dead"),
            ("p_minor", "minor wound"),
            ("p_severe", "severe wound"),
        ]
        .iter()
        .map(|(m, l)| (m.to_string(), l.to_string()))
        .collect();
        let bars = GroupedBars::shares(&result, "t", "x", &categories);
        assert_eq!(bars.groups, ["dead"]);
        assert_eq!(bars.series[1].1.len(), 1);
        assert_eq!(
            bars.note,
            "Not drawn, 0 in every variant: minor wound, severe wound."
        );
    }

    #[test]
    fn a_distribution_loses_only_its_empty_ends() {
        use crate::results::DistributionRow;
        let variants = vec!["a".to_string(), "b".to_string()];
        let counts = [0u64, 5, 0, 3, 0, 0];
        let rows = variants
            .iter()
            .flat_map(|v| {
                counts
                    .iter()
                    .enumerate()
                    .map(move |(bin, &count)| DistributionRow {
                        variant: v.clone(),
                        distribution: "d".into(),
                        bin: bin as i64 + 1000,
                        count,
                        share: Estimate::exact(count as f64 / 8.0),
                        trials: None,
                    })
            })
            .collect();
        let result = super::super::test_result(variants, Vec::new(), rows);
        let bars = GroupedBars::distribution(&result, "t", "x", "d");
        // The gap at 1,002 stays: it is part of the distribution's shape.
        assert_eq!(bars.groups, ["1,001", "1,002", "1,003"]);
        assert_eq!(
            bars.note,
            "Not drawn, 0 in every variant: bin 1,000 and bins 1,004 to 1,005."
        );
    }

    #[test]
    fn shares_near_certainty_keep_the_axis_at_100_percent() {
        // Twelve variants (a tall legend) with a share and interval at 100%:
        // the old legend headroom drew this axis to about 240%.
        let variants: Vec<String> = (0..12).map(|k| format!("v{k}")).collect();
        let figures = variants
            .iter()
            .map(|v| Figure {
                kind: crate::results::fixture_kind("p_closed"),
                variant: v.clone(),
                metric: "p_closed".into(),
                estimate: Estimate {
                    value: 0.998,
                    low: 0.99,
                    high: 1.0,
                },
                trials: None,
                unit: crate::results::Unit::Share,
            })
            .collect();
        let result = super::super::test_result(variants, figures, Vec::new());
        let bars = GroupedBars::shares(
            &result,
            "t",
            "x",
            &[("p_closed".to_string(), "closed".to_string())],
        );
        let range = bars.y_range();
        assert_eq!(range.start, 0.0);
        assert!(range.end <= 100.0 && range.end >= 99.8, "{range:?}");
    }
}
