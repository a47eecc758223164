//! Value-axis ranges. Every value axis starts at 0 and ends a little above
//! the highest value or interval end it must show; a probability axis never
//! ends above 1 (100%), since no share can exceed it. The legend has a
//! column of its own ([`super::frame`]), so no axis needs headroom for it.
//!
//! Tick labels ([`tick`]) carry as many decimals as the axis needs and no
//! more — `90`, not `90.0`; `0.2`, not `0` — and thousands separators.

/// What a value axis measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantity {
    /// A probability or share, as a fraction in `[0, 1]`.
    Probability,
    /// Any other non-negative amount (gold, days, hit points).
    Amount,
}

/// Room above the highest value, so whiskers and markers clear the frame.
const HEADROOM: f64 = 1.05;

/// The upper end of a value axis from 0 that shows every one of `values`
/// (in data units: fractions for a probability). Non-finite values are
/// ignored; with nothing above 0 the axis ends at 1. Shares up to 0.4 get
/// an axis to 0.42; shares up to 0.99 get one to exactly 1.
pub fn upper_bound(values: impl IntoIterator<Item = f64>, quantity: Quantity) -> f64 {
    let top = values
        .into_iter()
        .filter(|v| v.is_finite())
        .fold(0.0f64, f64::max);
    let bound = if top > 0.0 { top * HEADROOM } else { 1.0 };
    match quantity {
        Quantity::Probability => bound.min(1.0),
        Quantity::Amount => bound,
    }
}

/// A tick label for `value` on an axis spanning `span` (its end less its
/// start): rounded to the decimals that ticks on such a span need (plotters
/// steps by 1, 2 or 5 times a power of ten, at most a few dozen ticks), then
/// without trailing zeros, with thousands separators: `90.0` reads `90`,
/// `0.30000000000000004` on a unit axis reads `0.3`, `2500` reads `2,500`.
pub fn tick(value: f64, span: f64) -> String {
    let decimals = if span.is_finite() && span > 0.0 {
        (2.0 - span.log10().floor()).clamp(0.0, 9.0) as usize
    } else {
        2
    };
    number(value, decimals)
}

/// `value` with at most `decimals` decimals (trailing zeros dropped) and
/// thousands separators; `-0` reads `0`.
pub fn number(value: f64, decimals: usize) -> String {
    if !value.is_finite() {
        return String::new();
    }
    let text = format!("{:.decimals$}", value.abs());
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    let fraction = fraction.trim_end_matches('0');
    let whole = whole
        .parse::<u64>()
        .map_or_else(|_| whole.to_string(), crate::results::thousands);
    let digits = if fraction.is_empty() {
        whole
    } else {
        format!("{whole}.{fraction}")
    };
    if value < 0.0 && digits.bytes().any(|b| (b'1'..=b'9').contains(&b)) {
        format!("-{digits}")
    } else {
        digits
    }
}

#[cfg(test)]
mod tests {
    use super::{Quantity, number, tick, upper_bound};

    #[test]
    fn whole_ticks_have_no_decimals_and_group_thousands() {
        assert_eq!(tick(90.0, 100.0), "90");
        assert_eq!(tick(0.0, 100.0), "0");
        assert_eq!(tick(2500.0, 4000.0), "2,500");
        assert_eq!(tick(1_000_000.0, 2_000_000.0), "1,000,000");
        assert_eq!(tick(-35.0, 80.0), "-35");
    }

    #[test]
    fn fractional_ticks_keep_the_decimals_their_axis_needs() {
        // The 0-1 gold axis read `0 0 0 1 1` with no decimals.
        let labels: Vec<String> = (0..=5).map(|k| tick(f64::from(k) * 0.2, 1.05)).collect();
        assert_eq!(labels, ["0", "0.2", "0.4", "0.6", "0.8", "1"]);
        assert_eq!(tick(0.1 + 0.2, 1.0), "0.3");
        assert_eq!(tick(2.5, 12.6), "2.5");
        assert_eq!(tick(0.025, 0.42), "0.025");
        assert_eq!(tick(-0.000_000_1, 1.0), "0");
    }

    #[test]
    fn numbers_round_trim_and_group() {
        assert_eq!(number(1234.5678, 2), "1,234.57");
        assert_eq!(number(450.0, 1), "450");
        assert_eq!(number(0.5, 3), "0.5");
        assert_eq!(number(-12.26, 1), "-12.3");
        assert_eq!(number(f64::NAN, 2), "");
    }

    #[test]
    fn a_probability_axis_never_ends_above_one() {
        // Every top a share can have, the float slop of a sum of shares, and
        // intervals reaching 1 (Wilson highs of a share at 100%).
        let tops =
            (0..=1000)
                .map(|k| f64::from(k) / 1000.0)
                .chain([1.0 + 1e-12, 1.0 - 1e-15, 0.999_999]);
        for top in tops {
            let bound = upper_bound([top / 2.0, top], Quantity::Probability);
            assert!(bound <= 1.0, "top {top}: axis ends at {bound}");
            assert!(bound >= top.min(1.0), "top {top}: axis ends at {bound}");
            assert!(bound > 0.0);
        }
        assert_eq!(upper_bound([1.0], Quantity::Probability), 1.0);
    }

    #[test]
    fn small_shares_keep_their_headroom() {
        let bound = upper_bound([0.2, 0.4, 0.1], Quantity::Probability);
        assert!((bound - 0.42).abs() < 1e-12);
        assert!((upper_bound([30.0], Quantity::Amount) - 31.5).abs() < 1e-12);
    }

    #[test]
    fn empty_or_broken_data_give_a_unit_axis() {
        for quantity in [Quantity::Probability, Quantity::Amount] {
            assert_eq!(upper_bound([], quantity), 1.0);
            assert_eq!(upper_bound([0.0, -0.5], quantity), 1.0);
            assert_eq!(upper_bound([f64::NAN, f64::INFINITY], quantity), 1.0);
        }
        assert!((upper_bound([f64::NAN, 0.5], Quantity::Probability) - 0.525).abs() < 1e-12);
    }
}
