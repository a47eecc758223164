//! Horizontal grouped bars: one row per category (e.g. the 23 injury-table
//! entries), one bar per variant, with interval whiskers. Long category
//! labels read left of the rows instead of crowding under narrow columns; a
//! proportion axis ends at 100% at most ([`super::axis`]).

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::axis::{Quantity, upper_bound};
use super::frame::{LABEL_SIZE, Swatch, TOP, fit_text, layout, style_mesh};
use super::{FONT, colour, defined, with_interval};
use crate::engine::stats::Estimate;
use crate::results::ScenarioResult;

/// Tallest chart, in pixels: 100 rows of 32 variants still get a pixel each.
pub const MAX_HEIGHT: u32 = 4000;

/// Room for a row label, in pixels (the label area less its gap to the axis).
const LABEL_ROOM: i32 = 320;

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
    /// Builds the chart from a result's figures. A missing figure, or an
    /// undefined one, draws no bar; an undefined interval draws no whisker.
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
                            .map_or(Estimate::exact(f64::NAN), |f| f.estimate);
                        Estimate {
                            value: e.value * scale,
                            low: e.low * scale,
                            high: e.high * scale,
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

    /// Pixel size: taller with more rows and variants, up to
    /// [`MAX_HEIGHT`] (bars get thinner beyond it).
    pub fn size(&self) -> (u32, u32) {
        let per_row = 10 * self.series.len().max(1) as u32 + 14;
        let rows = self.rows.len() as u32;
        (1280, (220 + per_row * rows).clamp(600, MAX_HEIGHT))
    }

    /// The value axis, in drawn units: from 0 to at most 100 for proportions.
    pub fn x_range(&self) -> std::ops::Range<f64> {
        let (quantity, scale) = if self.percent {
            (Quantity::Probability, 100.0)
        } else {
            (Quantity::Amount, 1.0)
        };
        let values = self
            .series
            .iter()
            .flat_map(|(_, v)| v.iter().flat_map(|e| [e.value, e.high]))
            .map(|x| x / scale);
        0.0..upper_bound(values, quantity) * scale
    }

    /// Draws the chart.
    pub fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let plot = layout(root, &self.title, &self.series, Swatch::Bar)?;
        let rows = self.rows.len().max(1);
        let mut chart = ChartBuilder::on(&plot)
            .margin_top(TOP)
            .margin_right(8)
            .x_label_area_size(70)
            .y_label_area_size(330)
            .build_cartesian_2d(self.x_range(), 0f64..rows as f64)?;
        let percent = self.percent;
        style_mesh(&mut chart.configure_mesh())
            .disable_y_mesh()
            .y_labels(0)
            .x_desc(&self.value_label)
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
        for (j, (_, values)) in self.series.iter().enumerate() {
            let colour = colour(j);
            chart.draw_series(defined(values).map(move |(i, e)| {
                let y1 = y_of(i) + 1.0 - pad - j as f64 * height;
                Rectangle::new([(0.0, y1 - height * 0.9), (e.value, y1)], colour.filled())
            }))?;
            if self.show_intervals {
                for (i, e) in with_interval(values) {
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
        let style = TextStyle::from((FONT, LABEL_SIZE).into_font())
            .pos(Pos::new(HPos::Right, VPos::Center));
        for (i, label) in self.rows.iter().enumerate() {
            let (x, y) = chart.backend_coord(&(0.0, y_of(i) + 0.5));
            let (label, _) = fit_text(root, label, &style, LABEL_ROOM)?;
            root.draw(&Text::new(label, (x - 10, y), style.clone()))?;
        }
        root.present()
    }
}

#[cfg(test)]
mod tests {
    use super::{HBars, MAX_HEIGHT};
    use crate::engine::stats::Estimate;
    use crate::results::Figure;

    #[test]
    fn undefined_and_missing_figures_draw_nothing_not_zero() {
        let variants = vec!["a".to_string(), "b".to_string()];
        let nan = f64::NAN;
        let figures = vec![Figure {
            variant: "a".into(),
            metric: "mean_gp".into(),
            estimate: Estimate {
                value: 12.0,
                low: nan,
                high: nan,
            },
        }];
        let result = super::super::test_result(variants, figures, Vec::new());
        let rows = [("mean_gp".to_string(), "gold".to_string())];
        let bars = HBars::new(&result, "t", "Gold (gp)", &rows, false);
        let (a, b) = (bars.series[0].1[0], bars.series[1].1[0]);
        assert_eq!(a.value, 12.0);
        assert!(!a.has_interval(), "an undefined interval is no whisker");
        assert!(
            b.value.is_nan(),
            "a missing figure is no bar, not a bar at 0"
        );
        assert!((bars.x_range().end - 12.6).abs() < 1e-9);
        super::super::render_one(&result, &bars_spec(&rows)).unwrap();
    }

    fn bars_spec(rows: &[(String, String)]) -> crate::results::ChartSpec {
        crate::results::ChartSpec::Bars {
            file: "b".into(),
            title: "t".into(),
            value_label: "v".into(),
            categories: rows.to_vec(),
            percent: false,
        }
    }

    #[test]
    fn the_most_variants_on_the_largest_table_keep_a_bounded_canvas() {
        use crate::scenario::limits::{MAX_TABLE_ENTRIES, MAX_VARIANTS};
        let variants: Vec<String> = (0..MAX_VARIANTS).map(|k| format!("v{k}")).collect();
        let result = super::super::test_result(variants, Vec::new(), Vec::new());
        let rows: Vec<(String, String)> = (0..MAX_TABLE_ENTRIES)
            .map(|k| (format!("p_{k}"), "x".repeat(300)))
            .collect();
        let bars = HBars::new(&result, "t", "v", &rows, true);
        assert_eq!(bars.size(), (1280, MAX_HEIGHT));
    }

    #[test]
    fn a_probability_axis_ends_at_100_percent() {
        let variants: Vec<String> = (0..8).map(|k| format!("v{k}")).collect();
        let figures = variants
            .iter()
            .map(|v| Figure {
                variant: v.clone(),
                metric: "p_uncurable_entry_lose_an_eye".into(),
                estimate: Estimate {
                    value: 1.0,
                    low: 0.97,
                    high: 1.0,
                },
            })
            .collect();
        let result = super::super::test_result(variants, figures, Vec::new());
        let rows = [(
            "p_uncurable_entry_lose_an_eye".to_string(),
            "eye".to_string(),
        )];
        let share = HBars::new(&result, "t", "Uncurable (%)", &rows, true);
        assert_eq!(share.x_range(), 0.0..100.0);
        let amount = HBars::new(&result, "t", "Gold (gp)", &rows, false);
        assert!((amount.x_range().end - 1.05).abs() < 1e-12);
    }
}
