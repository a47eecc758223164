//! d20 tests with advantage and disadvantage (SRD 5.1, "Advantage and
//! Disadvantage"): roll a second d20 and keep the higher or the lower;
//! several sources of one kind count once, and one of each cancels.
//!
//! [`RollMode::roll`] is the one place a kept d20 is drawn, for every model
//! (attack rolls, saving throws, death saves, Medicine checks), so every
//! model consumes the same dice in the same order: the first die, then the
//! second only when the mode keeps one of two.

use rand::Rng;

use super::roll_die;

/// How a d20 test is rolled: one die, or the higher/lower of two.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RollMode {
    /// One d20.
    #[default]
    Normal,
    /// Two d20s, keep the higher.
    Advantage,
    /// Two d20s, keep the lower.
    Disadvantage,
}

impl RollMode {
    /// The mode of a roll with some source of advantage and some of
    /// disadvantage: one of each cancels, however many there are.
    ///
    /// ```
    /// use woundsim::dice::RollMode;
    /// assert_eq!(RollMode::with(true, false), RollMode::Advantage);
    /// assert_eq!(RollMode::with(true, true), RollMode::Normal);
    /// ```
    #[inline]
    pub fn with(advantage: bool, disadvantage: bool) -> RollMode {
        match (advantage, disadvantage) {
            (true, false) => RollMode::Advantage,
            (false, true) => RollMode::Disadvantage,
            _ => RollMode::Normal,
        }
    }

    /// Two modes from separate sources combined: one of each cancels.
    ///
    /// ```
    /// use woundsim::dice::RollMode;
    /// assert_eq!(RollMode::Advantage.combine(RollMode::Advantage), RollMode::Advantage);
    /// assert_eq!(RollMode::Advantage.combine(RollMode::Disadvantage), RollMode::Normal);
    /// ```
    pub fn combine(self, other: RollMode) -> RollMode {
        match (self, other) {
            (RollMode::Normal, x) | (x, RollMode::Normal) => x,
            (x, y) if x == y => x,
            _ => RollMode::Normal,
        }
    }

    /// Rolls the test: one d20, or two with the higher or lower kept.
    ///
    /// ```
    /// use rand::SeedableRng;
    /// use rand_xoshiro::Xoshiro256PlusPlus;
    /// use woundsim::dice::RollMode;
    /// let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    /// assert!((1..=20).contains(&RollMode::Advantage.roll(&mut rng)));
    /// ```
    #[inline(always)]
    pub fn roll<R: Rng + ?Sized>(self, rng: &mut R) -> u8 {
        self.roll_from(|| roll_die(rng, 20) as u8)
    }

    /// Rolls the test from a source of d20 results (a generator, or a
    /// [`super::D20Block`]): the first die, then a second one only when
    /// the mode keeps one of two.
    #[inline(always)]
    pub fn roll_from(self, mut d20: impl FnMut() -> u8) -> u8 {
        let first = d20();
        match self {
            RollMode::Normal => first,
            mode => mode.keep(first, d20()),
        }
    }

    /// Number of physical d20s one roll consumes.
    pub fn dice_per_roll(self) -> u32 {
        match self {
            RollMode::Normal => 1,
            RollMode::Advantage | RollMode::Disadvantage => 2,
        }
    }

    /// The kept natural value of the given physical dice.
    #[inline]
    pub fn keep(self, first: u8, second: u8) -> u8 {
        match self {
            RollMode::Normal => first,
            RollMode::Advantage => first.max(second),
            RollMode::Disadvantage => first.min(second),
        }
    }

    /// Exact probability, in units of `1 / 20^dice_per_roll`, that the kept
    /// natural value is `natural` (1..=20).
    pub fn natural_weight(self, natural: u8) -> u64 {
        let k = u64::from(natural);
        match self {
            RollMode::Normal => 1,
            // P(max = k) = (k^2 - (k-1)^2) / 400
            RollMode::Advantage => 2 * k - 1,
            // P(min = k) = ((21-k)^2 - (20-k)^2) / 400
            RollMode::Disadvantage => 2 * (21 - k) - 1,
        }
    }

    /// The exact probability that the kept natural value satisfies `pred`.
    ///
    /// ```
    /// use woundsim::dice::RollMode;
    /// assert_eq!(RollMode::Normal.chance_of(|n| n >= 19), 0.1);
    /// assert_eq!(RollMode::Advantage.chance_of(|n| n == 1), 1.0 / 400.0);
    /// ```
    pub fn chance_of(self, pred: impl Fn(u8) -> bool) -> f64 {
        let num: u64 = (1..=20u8)
            .filter(|&n| pred(n))
            .map(|n| self.natural_weight(n))
            .sum();
        num as f64 / 20u64.pow(self.dice_per_roll()) as f64
    }

    /// Lower-case name used in scenario files.
    pub fn name(self) -> &'static str {
        match self {
            RollMode::Normal => "normal",
            RollMode::Advantage => "advantage",
            RollMode::Disadvantage => "disadvantage",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODES: [RollMode; 3] = [
        RollMode::Normal,
        RollMode::Advantage,
        RollMode::Disadvantage,
    ];

    #[test]
    fn roll_mode_weights_sum_to_the_number_of_outcomes() {
        for mode in MODES {
            let total: u64 = (1..=20).map(|k| mode.natural_weight(k)).sum();
            assert_eq!(total, 20u64.pow(mode.dice_per_roll()));
        }
        assert_eq!(RollMode::Advantage.natural_weight(20), 39);
        assert_eq!(RollMode::Disadvantage.natural_weight(1), 39);
    }

    #[test]
    fn roll_mode_weights_match_enumeration() {
        for mode in [RollMode::Advantage, RollMode::Disadvantage] {
            let mut counts = [0u64; 21];
            for a in 1..=20u8 {
                for b in 1..=20u8 {
                    counts[usize::from(mode.keep(a, b))] += 1;
                }
            }
            for k in 1..=20u8 {
                assert_eq!(counts[usize::from(k)], mode.natural_weight(k));
            }
        }
    }

    #[test]
    fn a_roll_reads_one_die_or_two_and_keeps_by_the_mode() {
        for (mode, kept, read) in [
            (RollMode::Normal, 7, 1),
            (RollMode::Advantage, 15, 2),
            (RollMode::Disadvantage, 7, 2),
        ] {
            let mut dice = [7u8, 15, 3].into_iter();
            assert_eq!(mode.roll_from(|| dice.next().unwrap()), kept, "{mode:?}");
            assert_eq!(3 - dice.len(), read, "{mode:?} reads {read} dice");
        }
    }

    #[test]
    fn one_advantage_and_one_disadvantage_cancel() {
        use RollMode::*;
        assert_eq!(RollMode::with(false, false), Normal);
        assert_eq!(RollMode::with(false, true), Disadvantage);
        assert_eq!(Normal.combine(Disadvantage), Disadvantage);
        assert_eq!(Disadvantage.combine(Advantage), Normal);
        assert_eq!(Disadvantage.combine(Disadvantage), Disadvantage);
    }

    #[test]
    fn chances_of_naturals() {
        assert_eq!(RollMode::Normal.chance_of(|n| n == 1), 0.05);
        assert_eq!(RollMode::Disadvantage.chance_of(|n| n == 20), 1.0 / 400.0);
    }
}
