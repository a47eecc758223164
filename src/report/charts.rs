//! Charts (plotters): grouped bars with interval whiskers, horizontal bars
//! ([`hbars`]) and line charts with interval bands ([`lines`]), as PNG and SVG.
//!
//! Text is drawn with DejaVu Sans embedded in the binary (the `dejavu`
//! crate), registered with plotters' pure-Rust `ab_glyph` font backend, so
//! no system font or font library is needed.

mod hbars;
mod lines;

use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::register_font;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::engine::stats::Estimate;
use crate::results::{ChartSpec, ScenarioResult};

/// Chart size in pixels.
const SIZE: (u32, u32) = (1280, 760);
const FONT: &str = "sans-serif";

/// Okabe–Ito colours: distinguishable with the common colour-vision deficiencies.
const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(213, 94, 0),
    RGBColor(86, 180, 233),
    RGBColor(204, 121, 167),
    RGBColor(240, 228, 66),
    RGBColor(0, 0, 0),
];

/// The colour of series `j`: the palette, then darker shades of it, so
/// that up to 16 variants stay distinguishable.
fn colour(j: usize) -> RGBColor {
    let RGBColor(r, g, b) = PALETTE[j % PALETTE.len()];
    if (j / PALETTE.len()) % 2 == 0 {
        RGBColor(r, g, b)
    } else {
        let dark = |c: u8| (f64::from(c) * 0.55) as u8 + 40;
        RGBColor(dark(r), dark(g), dark(b))
    }
}

/// A rendered chart: file stem, PNG bytes and SVG text.
pub struct RenderedChart {
    /// File stem, e.g. `outcomes`.
    pub file: String,
    /// PNG image.
    pub png: Vec<u8>,
    /// SVG document.
    pub svg: String,
}

/// Why a chart could not be drawn.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw chart `{chart}`: {reason}")]
pub struct ChartError {
    chart: String,
    reason: String,
}

fn ensure_fonts() -> Result<(), String> {
    static REGISTERED: OnceLock<Result<(), String>> = OnceLock::new();
    REGISTERED
        .get_or_init(|| {
            register_font(FONT, FontStyle::Normal, dejavu::sans::regular())
                .and_then(|_| register_font(FONT, FontStyle::Bold, dejavu::sans::bold()))
                .map_err(|_| "the embedded DejaVu Sans font did not load".to_string())
        })
        .clone()
}

/// Looks up a variant's estimate for the group at an index.
type ValueOf<'a> = Box<dyn Fn(&str, usize) -> Estimate + 'a>;

/// Grouped bars, values as fractions, drawn in percent.
struct GroupedBars {
    title: String,
    x_label: String,
    y_label: String,
    groups: Vec<String>,
    /// `(variant, one estimate per group)`.
    series: Vec<(String, Vec<Estimate>)>,
    show_intervals: bool,
}

impl GroupedBars {
    fn from_spec(result: &ScenarioResult, spec: &ChartSpec) -> (String, GroupedBars) {
        // Each chart type says what its groups are and how to find a variant's value in one.
        let (file, title, x_label, groups, value): (
            &String,
            &String,
            &String,
            Vec<String>,
            ValueOf,
        ) = match spec {
            ChartSpec::Shares {
                file,
                title,
                x_label,
                categories,
            } => (
                file,
                title,
                x_label,
                categories.iter().map(|(_, label)| label.clone()).collect(),
                Box::new(move |v: &str, i: usize| {
                    result
                        .figure(v, &categories[i].0)
                        .map_or(Estimate::exact(0.0), |f| f.estimate)
                }),
            ),
            // Drawn by their own renderers (see `Drawing::from_spec`); no groups here.
            ChartSpec::Bars { file, title, .. } | ChartSpec::Lines { file, title, .. } => (
                file,
                title,
                title,
                Vec::new(),
                Box::new(|_: &str, _: usize| Estimate::exact(0.0)),
            ),
            ChartSpec::Distribution {
                file,
                title,
                distribution,
                x_label,
            } => {
                let mut bins: Vec<i64> = result
                    .distributions
                    .iter()
                    .filter(|r| &r.distribution == distribution)
                    .map(|r| r.bin)
                    .collect();
                bins.sort_unstable();
                bins.dedup();
                let labels = bins.iter().map(|b| b.to_string()).collect();
                (
                    file,
                    title,
                    x_label,
                    labels,
                    Box::new(move |v: &str, i: usize| {
                        result
                            .distributions
                            .iter()
                            .find(|r| {
                                r.variant == v
                                    && &r.distribution == distribution
                                    && r.bin == bins[i]
                            })
                            .map_or(Estimate::exact(0.0), |r| r.share)
                    }),
                )
            }
        };
        let series = result
            .variants
            .iter()
            .map(|v| (v.clone(), (0..groups.len()).map(|i| value(v, i)).collect()))
            .collect();
        let x_label = if result.is_exact() {
            x_label.clone()
        } else {
            format!(
                "{x_label}; whiskers: {}% intervals",
                result.confidence * 100.0
            )
        };
        let bars = GroupedBars {
            title: title.clone(),
            x_label,
            y_label: "Share of trials (%)".into(),
            groups,
            series,
            show_intervals: !result.is_exact(),
        };
        (file.clone(), bars)
    }

    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        root.fill(&WHITE)?;
        let top = self
            .series
            .iter()
            .flat_map(|(_, v)| v.iter().map(|e| e.high.max(e.value)))
            .fold(0.0f64, f64::max)
            * 100.0;
        // Headroom for the legend box in the upper right: about 23 px per
        // variant of a plot area about 540 px high, so the bars stay below it.
        let legend = ((23.0 * self.series.len() as f64 + 30.0) / 540.0).min(0.7);
        let headroom = 1.05 / (1.0 - legend);
        let y_max = if top > 0.0 { top * headroom } else { 1.0 };
        let groups = self.groups.len().max(1);
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, (FONT, 26).into_font().style(FontStyle::Bold))
            .margin(24)
            .x_label_area_size(96)
            .y_label_area_size(90)
            .build_cartesian_2d(0f64..groups as f64, 0f64..y_max)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(RGBColor(235, 235, 235))
            .x_labels(0)
            .y_desc(&self.y_label)
            .x_desc(&self.x_label)
            .label_style((FONT, 18))
            .axis_desc_style((FONT, 20))
            .y_label_formatter(&|y| format!("{y:.1}"))
            .draw()?;
        let n = self.series.len().max(1) as f64;
        let pad = 0.12;
        let width = (1.0 - 2.0 * pad) / n;
        for (j, (name, values)) in self.series.iter().enumerate() {
            let colour = colour(j);
            let bars = values.iter().enumerate().map(move |(i, e)| {
                let x0 = i as f64 + pad + j as f64 * width;
                Rectangle::new(
                    [(x0, 0.0), (x0 + width * 0.92, e.value * 100.0)],
                    colour.filled(),
                )
            });
            chart
                .draw_series(bars)?
                .label(name.as_str())
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 7), (x + 16, y + 7)], colour.filled())
                });
            if self.show_intervals {
                for (i, e) in values.iter().enumerate() {
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
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font((FONT, 18))
            .draw()?;
        // Category labels under each group, wrapped onto two lines if long.
        let style = TextStyle::from((FONT, 18).into_font()).pos(Pos::new(HPos::Center, VPos::Top));
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

/// One chart of any kind, ready to draw.
enum Drawing {
    Grouped(GroupedBars),
    Bars(hbars::HBars),
    Lines(lines::Lines),
}

impl Drawing {
    fn from_spec(result: &ScenarioResult, spec: &ChartSpec) -> (String, Drawing) {
        match spec {
            ChartSpec::Bars {
                file,
                title,
                value_label,
                categories,
                percent,
            } => (
                file.clone(),
                Drawing::Bars(hbars::HBars::new(
                    result,
                    title,
                    value_label,
                    categories,
                    *percent,
                )),
            ),
            ChartSpec::Lines {
                file,
                title,
                x_label,
                y_label,
                variants,
                points,
                percent,
            } => (
                file.clone(),
                Drawing::Lines(lines::Lines::new(
                    result, title, x_label, y_label, variants, points, *percent,
                )),
            ),
            _ => {
                let (file, bars) = GroupedBars::from_spec(result, spec);
                (file, Drawing::Grouped(bars))
            }
        }
    }

    fn size(&self) -> (u32, u32) {
        match self {
            Drawing::Bars(b) => b.size(),
            _ => SIZE,
        }
    }

    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        match self {
            Drawing::Grouped(g) => g.draw(root),
            Drawing::Bars(b) => b.draw(root),
            Drawing::Lines(l) => l.draw(root),
        }
    }
}

/// Renders every chart of a result.
pub fn render(result: &ScenarioResult) -> Result<Vec<RenderedChart>, ChartError> {
    ensure_fonts().map_err(|reason| ChartError {
        chart: "fonts".into(),
        reason,
    })?;
    let mut out = Vec::new();
    for spec in &result.charts {
        let (file, bars) = Drawing::from_spec(result, spec);
        let size = bars.size();
        let fail = |reason: String| ChartError {
            chart: format!("{}/{file}", result.scenario),
            reason,
        };
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
            bars.draw(&root).map_err(|e| fail(e.to_string()))?;
        }
        let mut pixels = vec![0u8; (size.0 * size.1 * 3) as usize];
        {
            let root = BitMapBackend::with_buffer(&mut pixels, size).into_drawing_area();
            bars.draw(&root).map_err(|e| fail(e.to_string()))?;
        }
        let mut png = Vec::new();
        image::ImageEncoder::write_image(
            image::codecs::png::PngEncoder::new(&mut png),
            &pixels,
            size.0,
            size.1,
            image::ColorType::Rgb8,
        )
        .map_err(|e| fail(e.to_string()))?;
        out.push(RenderedChart { file, png, svg });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::wrap;

    #[test]
    fn long_labels_wrap_on_words() {
        assert_eq!(
            wrap("stable (3 successes)", 16),
            vec!["stable (3", "successes)"]
        );
        assert_eq!(wrap("dead", 16), vec!["dead"]);
    }
}
