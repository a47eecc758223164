//! Horizontal grouped bars: one row per category (e.g. the 23 injury-table
//! entries), one bar per variant, with interval whiskers. Long category
//! labels read left of the rows instead of crowding under narrow columns; a
//! proportion axis ends at 100% at most ([`super::axis`]).
//!
//! Bars are thick enough to tell apart and carry their value as text, so a
//! chart of 23 rows by 8 variants reads at its size. A figure that means
//! "not available" ([`crate::results::NotAvailable`]: no cure at hand)
//! draws a `×` with its reason where the bar would start, never a bar at
//! 0; a row that is 0 in every variant is left out and named in the note.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::axis::{Quantity, number, tick, upper_bound};
use super::frame::{LABEL_SIZE, Swatch, TOP, fit_text, layout, style_mesh};
use super::palette::{colour, text_on};
use super::{FONT, defined, empty_group, keep_groups, omitted_note, with_interval};
use crate::engine::stats::Estimate;
use crate::results::ScenarioResult;

/// Tallest chart, in pixels: 100 rows of 32 variants still get a pixel each.
pub const MAX_HEIGHT: u32 = 4000;

/// Room for a row label, in pixels (the label area less its gap to the axis).
const LABEL_ROOM: i32 = 320;

/// Pixels per bar, as long as the chart stays under [`MAX_HEIGHT`].
const BAR: u32 = 18;

/// Bars thinner than this many pixels carry no value text.
const MIN_TEXT_BAR: i32 = 11;

/// A horizontal bar chart ready to draw.
pub struct HBars {
    title: String,
    /// What was left out and what `×` means, under the title.
    note: String,
    value_label: String,
    rows: Vec<String>,
    /// `(variant, one estimate per row)`, already scaled; NaN where no bar
    /// is drawn.
    series: Vec<(String, Vec<Estimate>)>,
    /// `unavailable[j][i]`: variant `j`'s figure of row `i` means "not
    /// available" and draws the `×` marker.
    unavailable: Vec<Vec<bool>>,
    /// The marker's text, e.g. `no cure available`.
    reason: String,
    show_intervals: bool,
    percent: bool,
}

impl HBars {
    /// Builds the chart from a result's figures. A missing figure, or an
    /// undefined one, draws no bar; an undefined interval draws no whisker;
    /// a figure that is not available draws the `×` marker.
    pub fn new(
        result: &ScenarioResult,
        title: &str,
        value_label: &str,
        categories: &[(String, String)],
        percent: bool,
    ) -> Self {
        let scale = if percent { 100.0 } else { 1.0 };
        let mut reason = String::new();
        let mut unavailable = Vec::new();
        let mut series: Vec<(String, Vec<Estimate>)> = Vec::new();
        for v in &result.variants {
            let mut marks = Vec::new();
            let values = categories
                .iter()
                .map(|(metric, _)| {
                    if let Some(why) = result.not_available(v, metric) {
                        if reason.is_empty() {
                            reason = why.to_string();
                        }
                        marks.push(true);
                        return Estimate::exact(f64::NAN);
                    }
                    marks.push(false);
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
            unavailable.push(marks);
            series.push((v.clone(), values));
        }
        let value_label = if result.is_exact() {
            value_label.to_string()
        } else {
            format!(
                "{value_label} (whiskers: {}% intervals)",
                result.confidence * 100.0
            )
        };
        let mut rows: Vec<String> = categories.iter().map(|(_, l)| l.clone()).collect();
        let (kept, dropped): (Vec<usize>, Vec<usize>) = (0..rows.len())
            .partition(|&i| !empty_group(&series, i) || unavailable.iter().any(|marks| marks[i]));
        let names: Vec<&str> = dropped.iter().map(|&i| rows[i].as_str()).collect();
        let mut note = omitted_note(&names);
        if !reason.is_empty() {
            let mark = format!("× marks {reason}: no bar, not a value of 0.");
            note = if note.is_empty() {
                mark
            } else {
                format!("{note} {mark}")
            };
        }
        keep_groups(&mut rows, &mut series, &kept);
        for marks in &mut unavailable {
            *marks = kept.iter().map(|&i| marks[i]).collect();
        }
        HBars {
            title: title.to_string(),
            note,
            value_label,
            rows,
            series,
            unavailable,
            reason,
            show_intervals: !result.is_exact(),
            percent,
        }
    }

    /// Pixel size: taller with more rows and variants, [`BAR`] pixels a
    /// bar, up to [`MAX_HEIGHT`] (bars get thinner beyond it).
    pub fn size(&self) -> (u32, u32) {
        let per_row = BAR * self.series.len().max(1) as u32 + 16;
        let rows = self.rows.len() as u32;
        (1280, (260 + per_row * rows).clamp(600, MAX_HEIGHT))
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

    /// A bar's value as its text: percent with two decimals, amounts with
    /// fewer the larger they are.
    fn value_text(&self, value: f64) -> String {
        if self.percent {
            format!("{}%", number(value, 2))
        } else {
            let decimals = match value.abs() {
                v if v >= 100.0 => 0,
                v if v >= 10.0 => 1,
                _ => 2,
            };
            number(value, decimals)
        }
    }

    /// Draws the chart.
    pub fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let plot = layout(root, &self.title, &self.note, &self.series, Swatch::Bar)?;
        let rows = self.rows.len().max(1);
        let x_range = self.x_range();
        let span = x_range.end - x_range.start;
        let mut chart = ChartBuilder::on(&plot)
            .margin_top(TOP)
            .margin_right(8)
            .x_label_area_size(70)
            .y_label_area_size(330)
            .build_cartesian_2d(x_range, 0f64..rows as f64)?;
        style_mesh(&mut chart.configure_mesh())
            .disable_y_mesh()
            .y_labels(0)
            .x_desc(&self.value_label)
            .x_label_formatter(&|x| tick(*x, span))
            .draw()?;
        let n = self.series.len().max(1) as f64;
        // Eight pixels between rows (a tenth of a row at most), the rest
        // for the bars.
        let row_px = {
            let (_, top) = chart.backend_coord(&(0.0, rows as f64));
            let (_, bottom) = chart.backend_coord(&(0.0, 0.0));
            f64::from(bottom - top) / rows as f64
        };
        let pad = (8.0 / row_px.max(1.0)).min(0.1);
        let height = (1.0 - 2.0 * pad) / n;
        // Row 0 at the top.
        let y_of = |row: usize| (rows - 1 - row) as f64;
        let bar_px = (row_px * height * 0.9) as i32;
        let text_size = (bar_px - 2).clamp(9, 14) as u32;
        let text = |colour: RGBColor, h: HPos| {
            let mut style =
                TextStyle::from((FONT, text_size).into_font()).pos(Pos::new(h, VPos::Center));
            style.color = colour.to_backend_color();
            style
        };
        for (j, (_, values)) in self.series.iter().enumerate() {
            let colour = colour(j);
            let top_of = |i: usize| y_of(i) + 1.0 - pad - j as f64 * height;
            let centre_of = |i: usize| top_of(i) - height * 0.45;
            chart.draw_series(defined(values).map(move |(i, e)| {
                let y1 = top_of(i);
                Rectangle::new([(0.0, y1 - height * 0.9), (e.value, y1)], colour.filled())
            }))?;
            if self.show_intervals {
                for (i, e) in with_interval(values) {
                    let centre = centre_of(i);
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
            for (i, &marked) in self.unavailable[j].iter().enumerate() {
                if marked {
                    let (x, y) = chart.backend_coord(&(0.0, centre_of(i)));
                    let style = text(RGBColor(60, 60, 60), HPos::Left);
                    let label = if bar_px >= MIN_TEXT_BAR - 3 {
                        format!("× {}", self.reason)
                    } else {
                        "×".to_string()
                    };
                    root.draw(&Text::new(label, (x + 3, y), style))?;
                }
            }
            if bar_px < MIN_TEXT_BAR {
                continue;
            }
            for (i, e) in defined(values) {
                let label = self.value_text(e.value);
                let (x0, y) = chart.backend_coord(&(0.0, centre_of(i)));
                let (x1, _) = chart.backend_coord(&(e.value, centre_of(i)));
                let (w, _) = root.estimate_text_size(&label, &text(BLACK, HPos::Left))?;
                if x1 - x0 > w as i32 + 10 {
                    root.draw(&Text::new(
                        label,
                        (x1 - 4, y),
                        text(text_on(colour), HPos::Right),
                    ))?;
                } else {
                    let end = if self.show_intervals && e.has_interval() {
                        e.high.max(e.value)
                    } else {
                        e.value
                    };
                    let (x, _) = chart.backend_coord(&(end, centre_of(i)));
                    root.draw(&Text::new(label, (x + 4, y), text(BLACK, HPos::Left)))?;
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
            kind: crate::results::fixture_kind("mean_gp"),
            variant: "a".into(),
            metric: "mean_gp".into(),
            estimate: Estimate {
                value: 12.0,
                low: nan,
                high: nan,
            },
            trials: None,
            unit: crate::results::Unit::Share,
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
        let figures = variants
            .iter()
            .flat_map(|v| {
                (0..MAX_TABLE_ENTRIES).map(move |k| Figure {
                    kind: crate::results::fixture_kind(&format!("p_{k}")),
                    variant: v.clone(),
                    metric: format!("p_{k}"),
                    estimate: Estimate::exact(0.5),
                    trials: None,
                    unit: crate::results::Unit::Share,
                })
            })
            .collect();
        let result = super::super::test_result(variants, figures, Vec::new());
        let rows: Vec<(String, String)> = (0..MAX_TABLE_ENTRIES)
            .map(|k| (format!("p_{k}"), "x".repeat(300)))
            .collect();
        let bars = HBars::new(&result, "t", "v", &rows, true);
        assert_eq!(bars.size(), (1280, MAX_HEIGHT));
    }

    #[test]
    fn a_figure_not_available_is_a_marker_not_a_bar_at_zero() {
        let variants = vec!["wilderness".to_string(), "temple".to_string()];
        let figure = super::super::exact_figure;
        let figures = vec![
            figure("wilderness", "mean_heal_gp_entry_eye", 0.0),
            figure("temple", "mean_heal_gp_entry_eye", 450.0),
            figure("wilderness", "mean_heal_gp_entry_scar", 0.0),
            figure("temple", "mean_heal_gp_entry_scar", 0.0),
            figure("wilderness", "mean_heal_gp_entry_cut", 0.0),
            figure("temple", "mean_heal_gp_entry_cut", 0.0),
        ];
        let mut result = super::super::test_result(variants, figures, Vec::new());
        result.trials = 0;
        for (variant, metric) in [
            ("wilderness", "mean_heal_gp_entry_eye"),
            ("wilderness", "mean_heal_gp_entry_cut"),
        ] {
            result.not_available.push(crate::results::NotAvailable {
                variant: variant.into(),
                metric: metric.into(),
                reason: "no cure available".into(),
            });
        }
        let rows: Vec<(String, String)> = ["eye", "scar", "cut"]
            .iter()
            .map(|k| (format!("mean_heal_gp_entry_{k}"), k.to_string()))
            .collect();
        let bars = HBars::new(&result, "t", "Gold (gp)", &rows, false);
        // The scar is free everywhere: left out, and named.
        assert_eq!(bars.rows, ["eye", "cut"]);
        assert_eq!(
            bars.note,
            "Not drawn, 0 in every variant: scar. × marks no cure available: no bar, not a value of 0."
        );
        // The eye in the wilderness draws the marker and no bar; the cut
        // stays although no variant has a number for it.
        assert_eq!(bars.unavailable, [vec![true, true], vec![false, false]]);
        assert!(bars.series[0].1[0].value.is_nan());
        assert_eq!(bars.series[1].1[0].value, 450.0);
        assert_eq!(bars.series[1].1[1].value, 0.0);
        let spec = crate::results::ChartSpec::Bars {
            file: "b".into(),
            title: "t".into(),
            value_label: "Gold (gp)".into(),
            categories: rows,
            percent: false,
        };
        let svg = super::super::render_one(&result, &spec).unwrap().svg;
        assert_eq!(svg.matches("× no cure available").count(), 2, "{svg}");
        assert!(
            svg.contains(">\n450\n<"),
            "the bar's value is written on it"
        );
    }

    #[test]
    fn a_probability_axis_ends_at_100_percent() {
        let variants: Vec<String> = (0..8).map(|k| format!("v{k}")).collect();
        let figures = variants
            .iter()
            .map(|v| Figure {
                kind: crate::results::fixture_kind("p_uncurable_entry_lose_an_eye"),
                variant: v.clone(),
                metric: "p_uncurable_entry_lose_an_eye".into(),
                estimate: Estimate {
                    value: 1.0,
                    low: 0.97,
                    high: 1.0,
                },
                trials: None,
                unit: crate::results::Unit::Share,
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
