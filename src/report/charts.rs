//! Charts (plotters): grouped bars with interval whiskers (`grouped`),
//! horizontal bars (`hbars`), line charts with interval bands (`lines`)
//! and stacked shares in one panel per variant (`stacked`), as PNG and SVG. They share one layout — title on top, a note
//! under it (what was left out, what a marker means), legend in its own
//! column right of the plot (`frame`) — one rule for value axes: from 0,
//! never above 100% for a proportion, tick labels with thousands separators
//! and no `.0` (`axis`) — and one palette (`palette`).
//!
//! Honest drawing: an undefined figure draws nothing, a figure that means
//! "not available" ([`crate::results::NotAvailable`]) draws a marker with
//! its reason, never a bar at 0, and a group that is 0 in every variant is
//! left out and named in the note.
//!
//! Text is drawn with DejaVu Sans embedded in the binary (the `dejavu`
//! crate), registered with plotters' pure-Rust `ab_glyph` font backend, so
//! no system font or font library is needed.

mod axis;
mod frame;
mod grouped;
mod hbars;
mod lines;
pub mod palette;
mod stacked;

#[cfg(not(target_arch = "wasm32"))]
use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::prelude::*;
#[cfg(not(target_arch = "wasm32"))]
use plotters::style::register_font;

use crate::engine::stats::Estimate;
use crate::results::{ChartSpec, ScenarioResult};

/// Chart size in pixels.
const SIZE: (u32, u32) = (1280, 760);
const FONT: &str = "sans-serif";

/// The `(index, estimate)` of each value that is defined: an undefined
/// value (NaN) draws no bar, not a bar at 0.
fn defined(values: &[Estimate]) -> impl Iterator<Item = (usize, &Estimate)> {
    values
        .iter()
        .enumerate()
        .filter(|(_, e)| e.value.is_finite())
}

/// The `(index, estimate)` of each value whose interval is defined: an
/// undefined interval draws no whisker, not one of zero width.
fn with_interval(values: &[Estimate]) -> impl Iterator<Item = (usize, &Estimate)> {
    values.iter().enumerate().filter(|(_, e)| e.has_interval())
}

/// Whether group (or row) `i` has nothing to draw: every series' value
/// there is 0 or undefined.
fn empty_group(series: &[(String, Vec<Estimate>)], i: usize) -> bool {
    series.iter().all(|(_, values)| {
        values
            .get(i)
            .is_none_or(|e| !(e.value.is_finite() && e.value != 0.0))
    })
}

/// The note naming the groups a chart leaves out for being 0 (or
/// undefined) in every variant; empty if none.
fn omitted_note(labels: &[&str]) -> String {
    if labels.is_empty() {
        String::new()
    } else {
        format!("Not drawn, 0 in every variant: {}.", labels.join(", "))
    }
}

/// Keeps the groups of `indices` (and their values in every series).
fn keep_groups(
    labels: &mut Vec<String>,
    series: &mut [(String, Vec<Estimate>)],
    indices: &[usize],
) {
    *labels = indices.iter().map(|&i| labels[i].clone()).collect();
    for (_, values) in series.iter_mut() {
        *values = indices.iter().map(|&i| values[i]).collect();
    }
}

/// A rendered chart: file stem, PNG bytes and SVG text.
pub struct RenderedChart {
    /// File stem, e.g. `outcomes`.
    pub file: String,
    /// PNG image (empty in a browser: see [`png`]).
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

/// The embedded DejaVu Sans registered with plotters, once.
#[cfg(not(target_arch = "wasm32"))]
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

/// In a browser plotters lays text out through the page itself (its own
/// font code, not ours): nothing to register.
#[cfg(target_arch = "wasm32")]
fn ensure_fonts() -> Result<(), String> {
    Ok(())
}

/// One chart of any kind, ready to draw.
enum Drawing {
    Grouped(grouped::GroupedBars),
    Bars(hbars::HBars),
    Lines(lines::Lines),
    Stacked(stacked::Stacked),
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
            ChartSpec::Stacked {
                file,
                title,
                x_label,
                y_label,
                variants,
                layers,
            } => (
                file.clone(),
                Drawing::Stacked(stacked::Stacked::new(
                    result, title, x_label, y_label, variants, layers,
                )),
            ),
            ChartSpec::Shares {
                file,
                title,
                x_label,
                categories,
            } => (
                file.clone(),
                Drawing::Grouped(grouped::GroupedBars::shares(
                    result, title, x_label, categories,
                )),
            ),
            ChartSpec::Distribution {
                file,
                title,
                distribution,
                x_label,
            } => (
                file.clone(),
                Drawing::Grouped(grouped::GroupedBars::distribution(
                    result,
                    title,
                    x_label,
                    distribution,
                )),
            ),
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
            Drawing::Stacked(s) => s.draw(root),
        }
    }
}

/// Renders every chart of a result.
pub fn render(result: &ScenarioResult) -> Result<Vec<RenderedChart>, ChartError> {
    result
        .charts
        .iter()
        .map(|spec| render_one(result, spec))
        .collect()
}

/// Renders one chart of a result.
pub fn render_one(result: &ScenarioResult, spec: &ChartSpec) -> Result<RenderedChart, ChartError> {
    ensure_fonts().map_err(|reason| ChartError {
        chart: "fonts".into(),
        reason,
    })?;
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
    let png = png(&bars, size).map_err(fail)?;
    Ok(RenderedChart { file, png, svg })
}

/// `drawing` as a PNG image of `size` pixels, its text in the embedded
/// DejaVu Sans.
#[cfg(not(target_arch = "wasm32"))]
fn png(drawing: &Drawing, size: (u32, u32)) -> Result<Vec<u8>, String> {
    let mut pixels = vec![0u8; (size.0 * size.1 * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut pixels, size).into_drawing_area();
        drawing.draw(&root).map_err(|e| e.to_string())?;
    }
    let mut png = Vec::new();
    image::ImageEncoder::write_image(
        image::codecs::png::PngEncoder::new(&mut png),
        &pixels,
        size.0,
        size.1,
        image::ColorType::Rgb8,
    )
    .map_err(|e| e.to_string())?;
    Ok(png)
}

/// No PNG in a browser: plotters cannot draw text into pixels there (its
/// web font code only measures it), so the page turns the SVG into a PNG
/// itself.
#[cfg(target_arch = "wasm32")]
fn png(_drawing: &Drawing, _size: (u32, u32)) -> Result<Vec<u8>, String> {
    Ok(Vec::new())
}

/// A Monte Carlo result of `variants` (1,000 trials, 95% intervals) for
/// the renderers' tests.
#[cfg(test)]
fn test_result(
    variants: Vec<String>,
    figures: Vec<crate::results::Figure>,
    distributions: Vec<crate::results::DistributionRow>,
) -> ScenarioResult {
    let header = crate::model::ScenarioHeader {
        name: "test".into(),
        description: String::new(),
        trials: 1000,
        seed: 1,
        confidence: 0.95,
    };
    ScenarioResult {
        figures,
        distributions,
        ..ScenarioResult::for_header(&header, variants)
    }
}

/// An exact figure, for the renderers' tests.
#[cfg(test)]
fn exact_figure(variant: &str, metric: &str, value: f64) -> crate::results::Figure {
    crate::results::Figure {
        kind: crate::results::fixture_kind(metric),
        variant: variant.into(),
        metric: metric.into(),
        estimate: Estimate::exact(value),
        trials: None,
        unit: crate::results::Unit::Share,
    }
}
