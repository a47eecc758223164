//! Horizontal grouped bars: one row per category (e.g. the 23 injury-table
//! entries), one bar per variant, with interval whiskers. Long category
//! labels read left of the rows instead of crowding under narrow columns.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{FONT, colour};
use crate::engine::stats::Estimate;
use crate::results::ScenarioResult;

/// A horizontal bar chart ready to draw.
pub struct HBars {
    title: String,
    value_label: String,
    rows: Vec<String>,
    /// `(variant, one estimate per row)`, already scaled.
    series: Vec<(String, Vec<Estimate>)>,
    show_intervals: bool,
    percent: bool,
}

impl HBars {
    /// Builds the chart from a result's figures; missing figures draw as 0.
    pub fn new(
        result: &ScenarioResult,
        title: &str,
        value_label: &str,
        categories: &[(String, String)],
        percent: bool,
    ) -> Self {
        let scale = if percent { 100.0 } else { 1.0 };
        let series = result
            .variants
            .iter()
            .map(|v| {
                let values = categories
                    .iter()
                    .map(|(metric, _)| {
                        let e = result
                            .figure(v, metric)
                            .map_or(Estimate::exact(0.0), |f| f.estimate);
                        let fix = |x: f64| if x.is_finite() { x * scale } else { 0.0 };
                        Estimate {
                            value: fix(e.value),
                            low: fix(e.low),
                            high: fix(e.high),
                        }
                    })
                    .collect();
                (v.clone(), values)
            })
            .collect();
        let value_label = if result.is_exact() {
            value_label.to_string()
        } else {
            format!(
                "{value_label} (whiskers: {}% intervals)",
                result.confidence * 100.0
            )
        };
        HBars {
            title: title.to_string(),
            value_label,
            rows: categories.iter().map(|(_, l)| l.clone()).collect(),
            series,
            show_intervals: !result.is_exact(),
            percent,
        }
    }

    /// Pixel size: taller with more rows and variants.
    pub fn size(&self) -> (u32, u32) {
        let per_row = 10 * self.series.len().max(1) as u32 + 14;
        (1280, (220 + per_row * self.rows.len() as u32).max(600))
    }

    /// Draws the chart.
    pub fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        root.fill(&WHITE)?;
        let top = self
            .series
            .iter()
            .flat_map(|(_, v)| v.iter().map(|e| e.high.max(e.value)))
            .fold(0.0f64, f64::max);
        let x_max = if top > 0.0 { top * 1.12 } else { 1.0 };
        let rows = self.rows.len().max(1);
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, (FONT, 24).into_font().style(FontStyle::Bold))
            .margin(24)
            .x_label_area_size(70)
            .y_label_area_size(330)
            .build_cartesian_2d(0f64..x_max, 0f64..rows as f64)?;
        let percent = self.percent;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(0)
            .x_desc(&self.value_label)
            .label_style((FONT, 17))
            .axis_desc_style((FONT, 19))
            .x_label_formatter(&|x| {
                if percent {
                    format!("{x:.2}")
                } else {
                    format!("{x:.0}")
                }
            })
            .draw()?;
        let n = self.series.len().max(1) as f64;
        let pad = 0.1;
        let height = (1.0 - 2.0 * pad) / n;
        // Row 0 at the top.
        let y_of = |row: usize| (rows - 1 - row) as f64;
        for (j, (name, values)) in self.series.iter().enumerate() {
            let colour = colour(j);
            let bars = values.iter().enumerate().map(move |(i, e)| {
                let y1 = y_of(i) + 1.0 - pad - j as f64 * height;
                Rectangle::new([(0.0, y1 - height * 0.9), (e.value, y1)], colour.filled())
            });
            chart
                .draw_series(bars)?
                .label(name.as_str())
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 7), (x + 16, y + 7)], colour.filled())
                });
            if self.show_intervals {
                for (i, e) in values.iter().enumerate() {
                    let centre = y_of(i) + 1.0 - pad - (j as f64 + 0.45) * height;
                    let cap = height * 0.3;
                    let style = BLACK.stroke_width(1);
                    chart.draw_series([
                        PathElement::new(vec![(e.low, centre), (e.high, centre)], style),
                        PathElement::new(vec![(e.low, centre - cap), (e.low, centre + cap)], style),
                        PathElement::new(
                            vec![(e.high, centre - cap), (e.high, centre + cap)],
                            style,
                        ),
                    ])?;
                }
            }
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font((FONT, 17))
            .draw()?;
        let style =
            TextStyle::from((FONT, 17).into_font()).pos(Pos::new(HPos::Right, VPos::Center));
        for (i, label) in self.rows.iter().enumerate() {
            let (x, y) = chart.backend_coord(&(0.0, y_of(i) + 0.5));
            root.draw(&Text::new(label.clone(), (x - 10, y), style.clone()))?;
        }
        root.present()
    }
}
