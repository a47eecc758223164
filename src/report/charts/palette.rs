//! Series colours. Qualitative series (variants that are not ordered) take
//! Okabe–Ito's eight colours, which stay apart under the common
//! colour-vision deficiencies, then four more picked to stay at least
//! ΔE2000 20 from every colour before them and from the white background
//! (indigo, dark brown, grey, wine, after Paul Tol's palettes). Beyond
//! twelve the colours repeat in darker and greyer shades, so that all
//! [`MAX_VARIANTS`](crate::scenario::limits::MAX_VARIANTS) variants still
//! differ; the shapes of line markers ([`marker`]) tell the repeats apart.
//!
//! Ordered series (a parameter scan: injury chance 5%, 10%, 15%, ...) take
//! [`sequential`]: viridis, dark to light, so the order reads off the
//! colour.

use plotters::style::RGBColor;

/// The twelve qualitative colours.
pub const QUALITATIVE: [RGBColor; 12] = [
    RGBColor(0, 114, 178),   // blue
    RGBColor(230, 159, 0),   // orange
    RGBColor(0, 158, 115),   // bluish green
    RGBColor(213, 94, 0),    // vermillion
    RGBColor(86, 180, 233),  // sky blue
    RGBColor(204, 121, 167), // reddish purple
    RGBColor(240, 228, 66),  // yellow
    RGBColor(0, 0, 0),       // black
    RGBColor(51, 34, 136),   // indigo
    RGBColor(102, 17, 0),    // dark brown
    RGBColor(132, 132, 130), // grey
    RGBColor(136, 34, 85),   // wine
];

/// The colour of qualitative series `j`: [`QUALITATIVE`], then a darker,
/// a greyer and a darkest shade of it.
pub fn colour(j: usize) -> RGBColor {
    let RGBColor(r, g, b) = QUALITATIVE[j % QUALITATIVE.len()];
    let shade = |c: u8| -> u8 {
        let c = f64::from(c);
        let shaded = match (j / QUALITATIVE.len()) % 4 {
            0 => c,
            1 => c * 0.55 + 40.0,
            2 => (c + 128.0) / 2.0,
            _ => c * 0.3 + 20.0,
        };
        shaded as u8
    };
    RGBColor(shade(r), shade(g), shade(b))
}

/// The shape of series `j`'s line markers: it changes with each round of
/// [`QUALITATIVE`], so series `j` and `j + 12` differ in shape as well.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    /// A filled circle.
    Circle,
    /// A filled square.
    Square,
    /// A filled triangle, point up.
    Triangle,
    /// A filled diamond.
    Diamond,
}

/// The marker of qualitative series `j`.
pub fn marker(j: usize) -> Marker {
    match (j / QUALITATIVE.len()) % 4 {
        0 => Marker::Circle,
        1 => Marker::Square,
        2 => Marker::Triangle,
        _ => Marker::Diamond,
    }
}

/// Viridis at nine points from dark to light (matplotlib's `viridis`).
const VIRIDIS: [(u8, u8, u8); 9] = [
    (68, 1, 84),
    (71, 44, 122),
    (59, 81, 139),
    (44, 113, 142),
    (33, 144, 141),
    (39, 173, 129),
    (92, 200, 99),
    (170, 220, 50),
    (253, 231, 37),
];

/// The colour of ordered series `i` of `n`: evenly spaced along viridis,
/// from dark (the first) to light (the last). The lightest tenth is left
/// out, so the last series stays visible on white.
pub fn sequential(i: usize, n: usize) -> RGBColor {
    let t = if n <= 1 {
        0.0
    } else {
        0.9 * i.min(n - 1) as f64 / (n - 1) as f64
    };
    let x = t * (VIRIDIS.len() - 1) as f64;
    let k = (x.floor() as usize).min(VIRIDIS.len() - 2);
    let f = x - k as f64;
    let (a, b) = (VIRIDIS[k], VIRIDIS[k + 1]);
    let mix = |p: u8, q: u8| (f64::from(p) + (f64::from(q) - f64::from(p)) * f).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// Black or white, whichever reads better on `background` (for labels
/// inside bars).
pub fn text_on(background: RGBColor) -> RGBColor {
    let RGBColor(r, g, b) = background;
    let luma = 0.299 * f64::from(r) + 0.587 * f64::from(g) + 0.114 * f64::from(b);
    if luma > 140.0 {
        RGBColor(0, 0, 0)
    } else {
        RGBColor(255, 255, 255)
    }
}

#[cfg(test)]
mod tests {
    use super::{QUALITATIVE, colour, marker, sequential};
    use crate::scenario::limits::MAX_VARIANTS;
    use plotters::style::RGBColor;

    /// CIELAB (D65) of an sRGB colour.
    fn lab(c: RGBColor) -> (f64, f64, f64) {
        let lin = |v: u8| {
            let v = f64::from(v) / 255.0;
            if v <= 0.04045 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        let (r, g, b) = (lin(c.0), lin(c.1), lin(c.2));
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
        let f = |t: f64| {
            if t > 216.0 / 24389.0 {
                t.cbrt()
            } else {
                (24389.0 / 27.0 * t + 16.0) / 116.0
            }
        };
        (
            116.0 * f(y) - 16.0,
            500.0 * (f(x) - f(y)),
            200.0 * (f(y) - f(z)),
        )
    }

    /// The CIEDE2000 colour difference (Sharma, Wu and Dalal 2005).
    fn delta_e(c1: RGBColor, c2: RGBColor) -> f64 {
        let ((l1, a1, b1), (l2, a2, b2)) = (lab(c1), lab(c2));
        let c_bar = (a1.hypot(b1) + a2.hypot(b2)) / 2.0;
        let g = 0.5 * (1.0 - (c_bar.powi(7) / (c_bar.powi(7) + 25f64.powi(7))).sqrt());
        let (a1p, a2p) = ((1.0 + g) * a1, (1.0 + g) * a2);
        let (c1p, c2p) = (a1p.hypot(b1), a2p.hypot(b2));
        let hue = |b: f64, a: f64| b.atan2(a).to_degrees().rem_euclid(360.0);
        let (h1, h2) = (hue(b1, a1p), hue(b2, a2p));
        let dh = if c1p * c2p == 0.0 {
            0.0
        } else if (h2 - h1).abs() <= 180.0 {
            h2 - h1
        } else if h2 - h1 > 180.0 {
            h2 - h1 - 360.0
        } else {
            h2 - h1 + 360.0
        };
        let d_big_h = 2.0 * (c1p * c2p).sqrt() * (dh / 2.0).to_radians().sin();
        let l_bar = (l1 + l2) / 2.0;
        let cp_bar = (c1p + c2p) / 2.0;
        let h_bar = if c1p * c2p == 0.0 {
            h1 + h2
        } else if (h1 - h2).abs() <= 180.0 {
            (h1 + h2) / 2.0
        } else if h1 + h2 < 360.0 {
            (h1 + h2 + 360.0) / 2.0
        } else {
            (h1 + h2 - 360.0) / 2.0
        };
        let cos = |deg: f64| deg.to_radians().cos();
        let t = 1.0 - 0.17 * cos(h_bar - 30.0)
            + 0.24 * cos(2.0 * h_bar)
            + 0.32 * cos(3.0 * h_bar + 6.0)
            - 0.20 * cos(4.0 * h_bar - 63.0);
        let d_theta = 30.0 * (-((h_bar - 275.0) / 25.0).powi(2)).exp();
        let r_c = 2.0 * (cp_bar.powi(7) / (cp_bar.powi(7) + 25f64.powi(7))).sqrt();
        let s_l = 1.0 + 0.015 * (l_bar - 50.0).powi(2) / (20.0 + (l_bar - 50.0).powi(2)).sqrt();
        let s_c = 1.0 + 0.045 * cp_bar;
        let s_h = 1.0 + 0.015 * cp_bar * t;
        let r_t = -(2.0 * d_theta).to_radians().sin() * r_c;
        let (dl, dc, dhh) = ((l2 - l1) / s_l, (c2p - c1p) / s_c, d_big_h / s_h);
        (dl * dl + dc * dc + dhh * dhh + r_t * dc * dhh).sqrt()
    }

    #[test]
    fn delta_e_matches_published_pairs() {
        // Sharma et al.'s test data are in Lab; these are sRGB checks with
        // well-known values: identical colours, black against white.
        assert_eq!(delta_e(RGBColor(10, 20, 30), RGBColor(10, 20, 30)), 0.0);
        assert!((delta_e(RGBColor(0, 0, 0), RGBColor(255, 255, 255)) - 100.0).abs() < 0.01);
        // A just-visible step in grey is about 1.
        let step = delta_e(RGBColor(128, 128, 128), RGBColor(130, 130, 130));
        assert!(step > 0.4 && step < 1.5, "{step}");
    }

    #[test]
    fn twelve_series_stay_apart_from_each_other_and_from_white() {
        let white = RGBColor(255, 255, 255);
        for (i, &a) in QUALITATIVE.iter().enumerate() {
            let from_white = delta_e(a, white);
            assert!(
                from_white >= 25.0,
                "colour {i} is {from_white:.1} from white"
            );
            for (j, &b) in QUALITATIVE.iter().enumerate().skip(i + 1) {
                let d = delta_e(a, b);
                assert!(d >= 20.0, "colours {i} and {j} are only {d:.1} apart");
            }
        }
        assert_eq!(colour(11), QUALITATIVE[11]);
    }

    #[test]
    fn every_allowed_variant_has_a_colour_and_marker_of_its_own() {
        let styles: Vec<_> = (0..MAX_VARIANTS).map(|j| (colour(j), marker(j))).collect();
        for (i, a) in styles.iter().enumerate() {
            for (j, b) in styles.iter().enumerate().skip(i + 1) {
                assert_ne!(a.0, b.0, "series {i} and {j} share a colour");
            }
            assert_eq!(a.1, marker(i + 48), "markers repeat every 48 series");
        }
        assert_ne!(marker(0), marker(12));
    }

    #[test]
    fn sequential_colours_get_lighter_in_order_and_stay_apart() {
        for n in 2..=12 {
            let colours: Vec<_> = (0..n).map(|i| sequential(i, n)).collect();
            for w in colours.windows(2) {
                let (l0, l1) = (lab(w[0]).0, lab(w[1]).0);
                assert!(l1 > l0, "{n} series: lightness {l0:.1} then {l1:.1}");
                let d = delta_e(w[0], w[1]);
                assert!(d >= 4.0, "{n} series: neighbours only {d:.1} apart");
            }
            let last = delta_e(colours[n - 1], RGBColor(255, 255, 255));
            assert!(last >= 15.0, "{n} series: the last is {last:.1} from white");
        }
        assert_eq!(sequential(0, 1), sequential(0, 5));
        assert_eq!(sequential(9, 3), sequential(2, 3), "past the end: the last");
    }
}
