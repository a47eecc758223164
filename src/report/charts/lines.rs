//! Line charts: one curve per variant over numeric x values (metrics at
//! given x, or a distribution's shares by bin), with interval bands for
//! Monte Carlo results — e.g. death probability from a festering wound
//! against max HP, one curve per Medicine modifier.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{FONT, colour};
use crate::engine::stats::Estimate;
use crate::results::{LinePoints, ScenarioResult};

/// A line chart ready to draw.
pub struct Lines {
    title: String,
    x_label: String,
    y_label: String,
    /// `(variant, points (x, scaled estimate))`.
    series: Vec<(String, Vec<(f64, Estimate)>)>,
    bands: bool,
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
        let scale = if percent { 100.0 } else { 1.0 };
        let scaled = |e: Estimate| Estimate {
            value: e.value * scale,
            low: e.low * scale,
            high: e.high * scale,
        };
        let series = variants
            .iter()
            .map(|v| {
                let pts: Vec<(f64, Estimate)> = match points {
                    LinePoints::Metrics(list) => list
                        .iter()
                        .filter_map(|(x, metric)| {
                            result.figure(v, metric).map(|f| (*x, scaled(f.estimate)))
                        })
                        .collect(),
                    LinePoints::Distribution(name) => result
                        .distributions
                        .iter()
                        .filter(|r| &r.variant == v && &r.distribution == name)
                        .map(|r| (r.bin as f64, scaled(r.share)))
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
            format!(
                "{x_label} (bands: {}% intervals)",
                result.confidence * 100.0
            )
        };
        Lines {
            title: title.to_string(),
            x_label,
            y_label: y_label.to_string(),
            series,
            bands: !result.is_exact(),
        }
    }

    /// Draws the chart.
    pub fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        root.fill(&WHITE)?;
        let all = || self.series.iter().flat_map(|(_, p)| p.iter());
        let x_min = all().map(|p| p.0).fold(f64::INFINITY, f64::min);
        let x_max = all().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
        let (x_min, x_max) = if x_min.is_finite() && x_max > x_min {
            (x_min, x_max)
        } else {
            (0.0, 1.0)
        };
        let top = all()
            .map(|p| p.1.high.max(p.1.value))
            .fold(0.0f64, f64::max);
        let y_max = if top > 0.0 {
            top * (1.1 + 0.04 * self.series.len() as f64)
        } else {
            1.0
        };
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, (FONT, 24).into_font().style(FontStyle::Bold))
            .margin(24)
            .x_label_area_size(70)
            .y_label_area_size(90)
            .build_cartesian_2d(x_min..x_max, 0f64..y_max)?;
        chart
            .configure_mesh()
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .label_style((FONT, 18))
            .axis_desc_style((FONT, 20))
            .light_line_style(RGBColor(235, 235, 235))
            .y_label_formatter(&|y| format!("{y:.1}"))
            .x_label_formatter(&|x| format!("{x:.0}"))
            .draw()?;
        for (j, (name, pts)) in self.series.iter().enumerate() {
            let colour = colour(j);
            if self.bands && pts.len() > 1 {
                let mut outline: Vec<(f64, f64)> = pts.iter().map(|(x, e)| (*x, e.high)).collect();
                outline.extend(pts.iter().rev().map(|(x, e)| (*x, e.low)));
                chart.draw_series([Polygon::new(outline, colour.mix(0.18).filled())])?;
            }
            chart
                .draw_series(LineSeries::new(
                    pts.iter().map(|(x, e)| (*x, e.value)),
                    colour.stroke_width(3),
                ))?
                .label(name.as_str())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 22, y)], colour.stroke_width(3))
                });
            if pts.len() <= 40 {
                chart.draw_series(
                    pts.iter()
                        .map(|(x, e)| Circle::new((*x, e.value), 4, colour.filled())),
                )?;
            }
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font((FONT, 18))
            .draw()?;
        root.present()
    }
}
