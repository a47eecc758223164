//! The layout and style every chart shares: a white canvas, the title
//! across the top, the plot on the left and the legend in a column of its
//! own on the right. Outside the plot, the legend never covers data and
//! never needs headroom above it, so a probability axis can end at 100%
//! ([`super::axis`]). The mesh style (fonts, grid colour) is shared too.

use plotters::chart::MeshStyle;
use plotters::coord::Shift;
use plotters::coord::ranged1d::Ranged;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{FONT, colour};

/// Canvas margin, pixels.
const MARGIN: i32 = 24;
/// Title font size.
const TITLE_SIZE: u32 = 24;
/// Tick-label font size.
pub const LABEL_SIZE: u32 = 18;
/// Axis-caption font size.
const CAPTION_SIZE: u32 = 20;
/// Legend font size and line height, at most.
const LEGEND_SIZE: u32 = 18;
const LEGEND_LINE: i32 = 26;
/// Legend padding inside its box, swatch width and the gap before a name.
const PAD: i32 = 12;
const SWATCH: i32 = 22;
const GAP: i32 = 8;
/// Space between the plot and the legend box.
const SPACING: i32 = 16;
/// Space above the plot's frame (for its top tick label), and above the
/// legend box, so the two line up.
pub const TOP: i32 = 8;

/// How a legend entry shows its series.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swatch {
    /// A filled square, for bars.
    Bar,
    /// A short thick line, for curves.
    Line,
}

/// Fills the canvas, draws the title and a legend naming each of `series`
/// (`(name, data)`; series `j` is drawn in [`colour`]`(j)`), and returns the
/// area left for the plot (leave [`TOP`] pixels above its frame). Names too
/// long for a third of the width are shortened with `…`.
pub fn layout<DB: DrawingBackend, T>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    series: &[(String, T)],
    swatch: Swatch,
) -> Result<DrawingArea<DB, Shift>, DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let body = root
        .margin(MARGIN, MARGIN, MARGIN, MARGIN)
        .titled(title, (FONT, TITLE_SIZE).into_font().style(FontStyle::Bold))?;
    if series.is_empty() {
        return Ok(body);
    }
    let (width, height) = body.dim_in_pixel();
    let (width, height) = (width as i32, height as i32);
    // Shrink the lines (and the font) if many series would overflow the height.
    let line = ((height - TOP - 2 * PAD) / series.len() as i32).clamp(12, LEGEND_LINE);
    let font = (FONT, (line as u32).saturating_sub(6).clamp(8, LEGEND_SIZE)).into_font();
    let style = TextStyle::from(font).pos(Pos::new(HPos::Left, VPos::Center));
    let room = (width / 3 - 2 * PAD - SWATCH - GAP).max(40);
    let mut labels = Vec::with_capacity(series.len());
    let mut widest = 0;
    for (name, _) in series {
        let (label, w) = fit(&body, name, &style, room)?;
        widest = widest.max(w);
        labels.push(label);
    }
    let column = 2 * PAD + SWATCH + GAP + widest;
    let (plot, legend) = body.split_horizontally(width - column - SPACING);
    let frame_height = 2 * PAD + line * labels.len() as i32;
    legend.draw(&Rectangle::new(
        [(SPACING, TOP), (SPACING + column - 1, TOP + frame_height)],
        BLACK.stroke_width(1),
    ))?;
    for (j, label) in labels.into_iter().enumerate() {
        let colour = colour(j);
        let x = SPACING + PAD;
        let y = TOP + PAD + line * j as i32 + line / 2;
        match swatch {
            Swatch::Bar => legend.draw(&Rectangle::new(
                [(x + 3, y - 7), (x + 17, y + 7)],
                colour.filled(),
            ))?,
            Swatch::Line => legend.draw(&PathElement::new(
                vec![(x, y), (x + SWATCH, y)],
                colour.stroke_width(3),
            ))?,
        }
        legend.draw(&Text::new(label, (x + SWATCH + GAP, y), style.clone()))?;
    }
    Ok(plot)
}

/// `name` as drawn in at most `room` pixels (shortened with `…`), and its width.
fn fit<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    name: &str,
    style: &TextStyle,
    room: i32,
) -> Result<(String, i32), DrawingAreaErrorKind<DB::ErrorType>> {
    let mut label = name.to_string();
    let mut chars: Vec<char> = name.chars().collect();
    loop {
        let w = area.estimate_text_size(&label, style)?.0 as i32;
        if w <= room || chars.is_empty() {
            return Ok((label, w));
        }
        chars.pop();
        label = chars.iter().collect::<String>() + "…";
    }
}

/// The mesh style every chart shares: tick labels, axis captions, a light
/// grid. Generic over the coordinate types, so any chart's mesh can use it.
pub fn style_mesh<'a, 'b, 'm, X: Ranged, Y: Ranged, DB: DrawingBackend>(
    mesh: &'m mut MeshStyle<'a, 'b, X, Y, DB>,
) -> &'m mut MeshStyle<'a, 'b, X, Y, DB> {
    mesh.label_style((FONT, LABEL_SIZE))
        .axis_desc_style((FONT, CAPTION_SIZE))
        .light_line_style(RGBColor(235, 235, 235))
}
