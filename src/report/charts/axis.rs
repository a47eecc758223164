//! Value-axis ranges. Every value axis starts at 0 and ends a little above
//! the highest value or interval end it must show; a probability axis never
//! ends above 1 (100%), since no share can exceed it. The legend has a
//! column of its own ([`super::frame`]), so no axis needs headroom for it.

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

#[cfg(test)]
mod tests {
    use super::{Quantity, upper_bound};

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
