//! The layout and style every chart shares: a white canvas, the title
//! across the top with an optional note under it (what the chart leaves
//! out, what a marker means), the plot on the left and the legend in a
//! column of its own on the right. Outside the plot, the legend never covers data and
//! never needs headroom above it, so a probability axis can end at 100%
//! ([`super::axis`]). The mesh style (fonts, grid colour) is shared too.

use plotters::chart::MeshStyle;
use plotters::coord::Shift;
use plotters::coord::ranged1d::Ranged;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::FONT;
use super::palette::{Marker, colour, marker};

/// Canvas margin, pixels.
const MARGIN: i32 = 24;
/// Title font size.
const TITLE_SIZE: u32 = 24;
/// Title line height.
const TITLE_LINE: i32 = 30;
/// Tick-label font size.
pub const LABEL_SIZE: u32 = 18;
/// Axis-caption font size.
const CAPTION_SIZE: u32 = 20;
/// Note font size and line height; at most this many lines of note.
const NOTE_SIZE: u32 = 18;
const NOTE_LINE: i32 = 24;
const NOTE_LINES: usize = 3;
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
    /// A short thick line with the series' marker, for curves.
    Line,
}

/// The outline of `shape` around (0, 0), `size` pixels from the centre
/// (a circle is a 16-gon): one polygon for every marker, so curves and
/// legend draw them alike.
pub fn marker_shape(shape: Marker, size: i32) -> Vec<(i32, i32)> {
    let s = size;
    match shape {
        Marker::Circle => (0..16)
            .map(|k| {
                let a = f64::from(k) * std::f64::consts::TAU / 16.0;
                (
                    (f64::from(s) * a.cos()).round() as i32,
                    (f64::from(s) * a.sin()).round() as i32,
                )
            })
            .collect(),
        Marker::Square => vec![(-s, -s), (s, -s), (s, s), (-s, s)],
        Marker::Triangle => vec![(0, -s - 1), (s + 1, s), (-s - 1, s)],
        Marker::Diamond => vec![(0, -s - 1), (s + 1, 0), (0, s + 1), (-s - 1, 0)],
    }
}

/// Fills the canvas, draws the title, the `note` under it (none if empty;
/// wrapped onto at most three lines) and a legend naming each of `series`
/// (`(name, data)`; series `j` is drawn in [`colour`]`(j)`), and returns the
/// area left for the plot (leave [`TOP`] pixels above its frame). Names too
/// long for a third of the width are shortened with `…`.
pub fn layout<DB: DrawingBackend, T>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    note: &str,
    series: &[(String, T)],
    swatch: Swatch,
) -> Result<DrawingArea<DB, Shift>, DrawingAreaErrorKind<DB::ErrorType>> {
    layout_coloured(root, title, note, series, swatch, &colour)
}

/// [`layout`] with series `j` drawn in `colour_of(j)` (a sequential
/// palette for ordered series).
pub fn layout_coloured<DB: DrawingBackend, T>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    note: &str,
    series: &[(String, T)],
    swatch: Swatch,
    colour_of: &dyn Fn(usize) -> RGBColor,
) -> Result<DrawingArea<DB, Shift>, DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let mut body = root.margin(MARGIN, MARGIN, MARGIN, MARGIN);
    // The title, centred, wrapped between words where it is wider than
    // the canvas (a long scan title would otherwise run off both edges).
    let style = TextStyle::from((FONT, TITLE_SIZE).into_font().style(FontStyle::Bold))
        .pos(Pos::new(HPos::Center, VPos::Top));
    let (width, _) = body.dim_in_pixel();
    let lines = wrap_to(&body, title, &style, width as i32)?;
    for (k, line) in lines.iter().enumerate() {
        body.draw(&Text::new(
            line.clone(),
            (width as i32 / 2, TITLE_LINE * k as i32),
            style.clone(),
        ))?;
    }
    if !lines.is_empty() {
        body = body.split_vertically(TITLE_LINE * lines.len() as i32 + 6).1;
    }
    if !note.trim().is_empty() {
        let style = TextStyle::from((FONT, NOTE_SIZE).into_font())
            .color(&RGBColor(80, 80, 80))
            .pos(Pos::new(HPos::Center, VPos::Top));
        let (width, _) = body.dim_in_pixel();
        let lines = wrap_to(&body, note, &style, width as i32 - 20)?;
        for (k, line) in lines.iter().enumerate() {
            body.draw(&Text::new(
                line.clone(),
                (width as i32 / 2, NOTE_LINE * k as i32),
                style.clone(),
            ))?;
        }
        let used = NOTE_LINE * lines.len() as i32 + 4;
        body = body.split_vertically(used).1;
    }
    if series.is_empty() {
        return Ok(body);
    }
    let (width, height) = body.dim_in_pixel();
    let (width, height) = (width as i32, height as i32);
    let line = legend_line(height, series.len());
    let font = (FONT, (line as u32).saturating_sub(6).clamp(8, LEGEND_SIZE)).into_font();
    let style = TextStyle::from(font).pos(Pos::new(HPos::Left, VPos::Center));
    let room = (width / 3 - 2 * PAD - SWATCH - GAP).max(40);
    let mut labels = Vec::with_capacity(series.len());
    let mut widest = 0;
    for (name, _) in series {
        let (label, w) = fit_text(&body, name, &style, room)?;
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
        let colour = colour_of(j);
        let x = SPACING + PAD;
        let y = TOP + PAD + line * j as i32 + line / 2;
        match swatch {
            Swatch::Bar => legend.draw(&Rectangle::new(
                [(x + 3, y - 7), (x + 17, y + 7)],
                colour.filled(),
            ))?,
            Swatch::Line => {
                legend.draw(&PathElement::new(
                    vec![(x, y), (x + SWATCH, y)],
                    colour.stroke_width(3),
                ))?;
                legend.draw(
                    &(EmptyElement::at((x + SWATCH / 2, y))
                        + Polygon::new(marker_shape(marker(j), 4), colour.filled())),
                )?;
            }
        }
        legend.draw(&Text::new(label, (x + SWATCH + GAP, y), style.clone()))?;
    }
    Ok(plot)
}

/// Height of one legend line for `series` entries in a body `height`
/// pixels tall: the full line if they fit, else shrunk (with the font) down
/// to 12 pixels, which still fits [`crate::scenario::limits::MAX_VARIANTS`]
/// entries in the smallest chart.
fn legend_line(height: i32, series: usize) -> i32 {
    ((height - TOP - 2 * PAD) / series.max(1) as i32).clamp(12, LEGEND_LINE)
}

/// `text` in lines of at most `room` pixels, broken between words, at most
/// [`NOTE_LINES`] of them (the last shortened with `…` if more is left).
fn wrap_to<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    style: &TextStyle,
    room: i32,
) -> Result<Vec<String>, DrawingAreaErrorKind<DB::ErrorType>> {
    let mut lines: Vec<String> = Vec::new();
    let mut words = text.split_whitespace().peekable();
    while let Some(word) = words.next() {
        if lines.len() == NOTE_LINES {
            let last = lines.pop().unwrap_or_default();
            let rest: Vec<&str> = std::iter::once(word).chain(words).collect();
            lines.push(fit_text(area, &format!("{last} {}", rest.join(" ")), style, room)?.0);
            break;
        }
        let mut line = word.to_string();
        while let Some(next) = words.peek() {
            let longer = format!("{line} {next}");
            if area.estimate_text_size(&longer, style)?.0 as i32 > room {
                break;
            }
            line = longer;
            words.next();
        }
        lines.push(fit_text(area, &line, style, room)?.0);
    }
    Ok(lines)
}

/// `text` as drawn in `style` in at most `room` pixels (shortened with
/// `…`), and its width.
pub fn fit_text<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    style: &TextStyle,
    room: i32,
) -> Result<(String, i32), DrawingAreaErrorKind<DB::ErrorType>> {
    fit(text, room, |label| {
        area.estimate_text_size(label, style).map(|(w, _)| w as i32)
    })
}

/// `text`, or its longest prefix followed by `…`, whose `width` is at most
/// `room`, and that width. A binary search over the prefix length: about
/// log2(length) + 2 measurements, each of at most the text's length, so a
/// very long name costs no more than reading it a few dozen times. (Widths
/// grow with the prefix; should kerning ever break that, the search still
/// ends, with a prefix that fits.)
fn fit<E>(
    text: &str,
    room: i32,
    mut width: impl FnMut(&str) -> Result<i32, E>,
) -> Result<(String, i32), E> {
    let whole = width(text)?;
    if whole <= room {
        return Ok((text.to_string(), whole));
    }
    // Byte offsets of every character boundary: prefix k is text[..ends[k]].
    let ends: Vec<usize> = text
        .char_indices()
        .map(|(i, _)| i)
        .chain([text.len()])
        .collect();
    let label = |k: usize| format!("{}…", &text[..ends[k]]);
    // The longest k in 0..chars with a fitting label; k = 0 (just `…`) is
    // the fallback when nothing fits.
    let (mut fits, mut too_long) = (0, ends.len() - 1);
    while too_long - fits > 1 {
        let mid = fits + (too_long - fits) / 2;
        if width(&label(mid))? <= room {
            fits = mid;
        } else {
            too_long = mid;
        }
    }
    let best = label(fits);
    let w = width(&best)?;
    Ok((best, w))
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

#[cfg(test)]
mod tests {
    use super::{TOP, fit, legend_line};

    /// A monospace measure: 10 pixels a character.
    fn counted(calls: &mut usize) -> impl FnMut(&str) -> Result<i32, ()> + '_ {
        move |s: &str| {
            *calls += 1;
            Ok(10 * s.chars().count() as i32)
        }
    }

    #[test]
    fn a_fitting_name_is_kept_whole() {
        let mut calls = 0;
        assert_eq!(fit("raw", 100, counted(&mut calls)), Ok(("raw".into(), 30)));
        assert_eq!(calls, 1);
    }

    #[test]
    fn a_long_name_is_cut_to_the_longest_fitting_prefix() {
        let mut calls = 0;
        // 95 pixels: 8 characters and the ellipsis (90 pixels) fit, 9 do not.
        let (label, w) = fit("abcdéfghijklmnop", 95, counted(&mut calls)).unwrap();
        assert_eq!((label.as_str(), w), ("abcdéfgh…", 90));
        let mut calls = 0;
        assert_eq!(fit("abc", 5, counted(&mut calls)).unwrap().0, "…");
    }

    #[test]
    fn a_very_long_name_is_fitted_in_logarithmically_many_measurements() {
        // The old loop measured once per character removed: 99,990 times here.
        let name = "x".repeat(100_000);
        let mut calls = 0;
        let (label, _) = fit(&name, 100, counted(&mut calls)).unwrap();
        assert_eq!(label, format!("{}…", "x".repeat(9)));
        assert!(calls <= 20, "{calls} measurements");
    }

    #[test]
    fn the_legend_of_the_most_variants_fits_the_smallest_chart() {
        use crate::scenario::limits::MAX_VARIANTS;
        // The smallest plot body: a 600-pixel chart less margins and title.
        let body = 600 - 2 * super::MARGIN - 2 * super::TITLE_SIZE as i32;
        for n in 1..=MAX_VARIANTS {
            let line = legend_line(body, n);
            assert!(
                TOP + 2 * super::PAD + line * n as i32 <= body,
                "{n} entries of {line} px overflow {body} px"
            );
        }
    }
}
