//! Stacked shares: one panel per variant, each a stack of areas over
//! numeric x values whose heights are the layers' shares at each x — e.g.
//! the PCs of a campaign by wound state (healthy, minor, moderate, severe,
//! dead) after each level. The layers of one x add up to 100% when they
//! partition the whole; the y axis is 0–100%. A stack cannot show
//! intervals, so the note gives the widest half-width among the drawn
//! shares (each share's interval is in `summary.csv`). An x where some
//! layer is undefined is left out of its panel, never drawn as 0. Layers
//! are ordered states, drawn in the sequential palette.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::FONT;
use super::axis::tick;
use super::frame::{LABEL_SIZE, Swatch, layout_coloured, style_mesh};
use super::palette::sequential;
use crate::engine::stats::Estimate;
use crate::results::ScenarioResult;

/// One panel: its variant and, at each x, every layer's share, bottom to
/// top.
type Panel = (String, Vec<(f64, Vec<Estimate>)>);

/// A stacked-shares chart ready to draw.
pub struct Stacked {
    title: String,
    x_label: String,
    y_label: String,
    /// Layer names, bottom to top.
    layers: Vec<String>,
    /// The panels, one per variant.
    panels: Vec<Panel>,
    /// Monte Carlo shares (with intervals).
    sampled: bool,
}

impl Stacked {
    /// Resolves every panel's points from the result: layer `k` of variant
    /// `v` at `x` is `v`'s figure of the metric `layers[k].1` names at `x`.
    pub fn new(
        result: &ScenarioResult,
        title: &str,
        x_label: &str,
        y_label: &str,
        variants: &[String],
        layers: &[(String, Vec<(f64, String)>)],
    ) -> Self {
        let xs: Vec<f64> = layers
            .first()
            .map(|(_, pts)| pts.iter().map(|p| p.0).collect())
            .unwrap_or_default();
        let panels = variants
            .iter()
            .map(|v| {
                let points = xs
                    .iter()
                    .enumerate()
                    .filter_map(|(i, &x)| {
                        let shares: Option<Vec<Estimate>> = layers
                            .iter()
                            .map(|(_, pts)| {
                                let (px, metric) = pts.get(i)?;
                                let f = result.figure(v, metric)?;
                                (*px == x && f.estimate.value.is_finite()).then_some(f.estimate)
                            })
                            .collect();
                        shares.map(|s| (x, s))
                    })
                    .collect();
                (v.clone(), points)
            })
            .collect();
        Stacked {
            title: title.to_string(),
            x_label: x_label.to_string(),
            y_label: y_label.to_string(),
            layers: layers.iter().map(|(name, _)| name.clone()).collect(),
            panels,
            sampled: !result.is_exact(),
        }
    }

    /// The widest interval half-width among the drawn shares, in
    /// percentage points (`None` for exact shares or none drawn).
    pub fn widest_half_width(&self) -> Option<f64> {
        if !self.sampled {
            return None;
        }
        self.panels
            .iter()
            .flat_map(|(_, pts)| pts.iter().flat_map(|(_, s)| s.iter()))
            .filter(|e| e.has_interval())
            .map(|e| (e.high - e.value).max(e.value - e.low) * 100.0)
            .fold(None, |widest: Option<f64>, h| {
                Some(widest.map_or(h, |w| w.max(h)))
            })
    }

    fn note(&self) -> String {
        match self.widest_half_width() {
            Some(h) => format!(
                "Each band is a share of the PC slots, averaged over the careers; its interval is at most ±{h:.1} percentage points (every interval is in summary.csv)."
            ),
            None => String::new(),
        }
    }

    /// The x axis of every panel: the points' range (0..1 with fewer than
    /// two x values).
    pub fn x_range(&self) -> std::ops::Range<f64> {
        let xs = || self.panels.iter().flat_map(|(_, p)| p.iter().map(|q| q.0));
        let (lo, hi) = (
            xs().fold(f64::INFINITY, f64::min),
            xs().fold(f64::NEG_INFINITY, f64::max),
        );
        if lo.is_finite() && hi > lo {
            lo..hi
        } else {
            0.0..1.0
        }
    }

    /// `(rows, columns)` of the panel grid: as square as it gets.
    pub fn grid(&self) -> (usize, usize) {
        let n = self.panels.len().max(1);
        let cols = (1..=n).find(|c| c * c >= n).unwrap_or(n);
        (n.div_ceil(cols), cols)
    }

    /// Draws the chart.
    pub fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let n = self.layers.len();
        let colour_of = |k: usize| sequential(k, n);
        // The legend lists the layers top to bottom, as they are stacked.
        let legend: Vec<(String, ())> = self.layers.iter().rev().map(|l| (l.clone(), ())).collect();
        let plot = layout_coloured(
            root,
            &self.title,
            &self.note(),
            &legend,
            Swatch::Bar,
            &|k| colour_of(n - 1 - k),
        )?;
        let (rows, cols) = self.grid();
        let x_range = self.x_range();
        let x_span = x_range.end - x_range.start;
        let whole = self
            .panels
            .iter()
            .flat_map(|(_, p)| p.iter())
            .all(|(x, _)| x.fract() == 0.0);
        let x_ticks = if whole && x_span <= 20.0 {
            x_span as usize + 1
        } else {
            10
        };
        for ((name, pts), area) in self.panels.iter().zip(plot.split_evenly((rows, cols))) {
            let mut chart = ChartBuilder::on(&area)
                .caption(name, (FONT, LABEL_SIZE + 2))
                .margin(8)
                .x_label_area_size(56)
                .y_label_area_size(72)
                .build_cartesian_2d(x_range.clone(), 0.0..100.0)?;
            style_mesh(&mut chart.configure_mesh())
                .x_desc(&self.x_label)
                .y_desc(&self.y_label)
                .x_labels(x_ticks.min(11))
                .y_labels(6)
                .y_label_formatter(&|y| tick(*y, 100.0))
                .x_label_formatter(&|x| tick(*x, x_span))
                .draw()?;
            let mut below: Vec<f64> = vec![0.0; pts.len()];
            for k in 0..n {
                let above: Vec<f64> = pts
                    .iter()
                    .zip(&below)
                    .map(|((_, s), b)| b + s[k].value * 100.0)
                    .collect();
                if pts.len() == 1 {
                    // One x: a bar's width either side of it.
                    let x = pts[0].0;
                    chart.draw_series([Rectangle::new(
                        [(x - 0.4, below[0]), (x + 0.4, above[0])],
                        colour_of(k).filled(),
                    )])?;
                } else {
                    let mut outline: Vec<(f64, f64)> =
                        pts.iter().zip(&above).map(|((x, _), y)| (*x, *y)).collect();
                    outline.extend(pts.iter().zip(&below).rev().map(|((x, _), y)| (*x, *y)));
                    chart.draw_series([Polygon::new(outline, colour_of(k).filled())])?;
                }
                below = above;
            }
        }
        root.present()
    }
}

#[cfg(test)]
mod tests {
    use super::Stacked;
    use crate::engine::stats::wilson;
    use crate::results::Figure;

    fn layers() -> Vec<(String, Vec<(f64, String)>)> {
        ["alive", "dead"]
            .iter()
            .map(|s| {
                (
                    s.to_string(),
                    (1..=3)
                        .map(|l| (f64::from(l), format!("share_{s}_level_{l}")))
                        .collect(),
                )
            })
            .collect()
    }

    fn result(missing: Option<&str>) -> crate::results::ScenarioResult {
        let mut figures = Vec::new();
        for v in ["a", "b", "c"] {
            for l in 1..=3u64 {
                for (s, dead) in [("alive", 1000 - 100 * l), ("dead", 100 * l)] {
                    let metric = format!("share_{s}_level_{l}");
                    if missing == Some(metric.as_str()) && v == "b" {
                        continue;
                    }
                    figures.push(Figure {
                        kind: crate::results::fixture_kind(&metric),
                        variant: v.into(),
                        metric,
                        estimate: wilson(dead, 1000, 1.96),
                        trials: None,
                        unit: crate::results::Unit::Share,
                    });
                }
            }
        }
        let variants = ["a", "b", "c"].map(String::from).to_vec();
        super::super::test_result(variants, figures, Vec::new())
    }

    #[test]
    fn each_variant_is_a_panel_of_its_layers_shares() {
        let r = result(None);
        let chart = Stacked::new(&r, "t", "Level", "%", &r.variants, &layers());
        assert_eq!(chart.grid(), (2, 2));
        let (name, pts) = &chart.panels[1];
        assert_eq!(name, "b");
        assert_eq!(pts.len(), 3);
        let sum: f64 = pts[2].1.iter().map(|e| e.value).sum();
        assert!((sum - 1.0).abs() < 1e-12);
        assert_eq!(pts[2].1[1].value, 0.3);
        assert_eq!(chart.x_range(), 1.0..3.0);
        let widest = chart.widest_half_width().unwrap();
        // Wilson at 300 of 1,000 is the widest: about ±2.9 points (its upper side).
        assert!((2.8..3.0).contains(&widest), "{widest}");
    }

    #[test]
    fn an_undefined_share_leaves_its_x_out_of_that_panel() {
        let r = result(Some("share_dead_level_2"));
        let chart = Stacked::new(&r, "t", "Level", "%", &r.variants, &layers());
        let xs = |j: usize| -> Vec<f64> { chart.panels[j].1.iter().map(|p| p.0).collect() };
        assert_eq!(xs(0), [1.0, 2.0, 3.0]);
        assert_eq!(xs(1), [1.0, 3.0]);
    }

    #[test]
    fn it_draws_as_png_and_svg() {
        let r = result(None);
        let spec = crate::results::ChartSpec::Stacked {
            file: "states".into(),
            title: "t".into(),
            x_label: "Level".into(),
            y_label: "PC slots (%)".into(),
            variants: r.variants.clone(),
            layers: layers(),
        };
        let drawn = super::super::render_one(&r, &spec).unwrap();
        assert!(drawn.svg.contains("<svg") && drawn.png.len() > 1000);
    }
}
