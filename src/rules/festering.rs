//! Festering and open wounds (docs/rules.md, lingering injuries,
//! d100 56-65): max HP drops by 1 for every 24 hours the wound persists,
//! death at 0 max HP; magical healing closes it; or someone tends it with a
//! DC 15 Wisdom (Medicine) check every 24 hours and it closes at the 10th
//! success.
//!
//! The process is a function of two independent random times, so Monte
//! Carlo and the exact solver share [`FesteringRules::resolve`]:
//! - `T`, the day tending closes the wound: the 10th success comes on check
//!   `N` (negative binomial), and check `k` happens on day `k - 1` with
//!   [`Timing::AtOnce`] (hours 0, 24, 48, ...: the docs/rules.md default) or on
//!   day `k` with [`Timing::AfterFirstDay`], so `T = N - 1` or `T = N`;
//! - `D`, the day magical healing arrives (never, fixed, uniform, or a daily
//!   chance).
//!
//! At each whole day the day's max-HP loss comes first (docs/rules.md: the
//! creature dies "if its max HP reaches 0 first"), then magical healing, then
//! the day's check. The wound ends on day `E = min(T, D)`; the creature dies
//! if its loss reaches its max HP by then. [`distribution`] gives the exact
//! distribution of that ending in closed form.

pub mod distribution;

pub use distribution::WoundDistribution;

use crate::dice::RollMode;

/// When the first tending check happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Timing {
    /// At once, then every 24 hours (checks at hours 0, 24, 48, ...).
    #[default]
    AtOnce,
    /// First after 24 hours (checks at hours 24, 48, ...).
    AfterFirstDay,
}

/// Whether max HP lost to the wound comes back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LostHp {
    /// Returns after the next long rest once the wound is closed (default).
    #[default]
    AfterLongRest,
    /// Stays until magical healing.
    UntilMagicalHealing,
}

/// When magical healing arrives, in whole days after the injury.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MagicArrival {
    /// Never (no healer, no potion).
    Never,
    /// After exactly this many days.
    Fixed(u32),
    /// After a uniformly random whole number of days in `low..=high`.
    Uniform(u32, u32),
    /// Each day from day 1 on, help arrives with this probability.
    Daily(crate::dice::Chance),
}

/// How the wound ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The 10th tending success closed it.
    Tended,
    /// Magical healing closed it.
    Magic,
    /// Max HP reached 0.
    Dead,
}

/// One resolved wound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// How it ended.
    pub ending: Ending,
    /// Max HP lost (all of it for a death).
    pub max_hp_lost: u32,
    /// Whole days the wound stayed open (until closed or death).
    pub days_open: u32,
    /// Max HP still missing once the process is over (0 for a death).
    pub lasting_loss: u32,
}

/// The festering-wound process of one creature.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FesteringRules {
    /// The tender's Wisdom (Medicine) modifier.
    pub medicine_bonus: i8,
    /// The check's DC (15).
    pub dc: u8,
    /// How the check's d20 is rolled (advantage e.g. with the Help action).
    pub roll: RollMode,
    /// Successes that close the wound (10).
    pub successes: u32,
    /// Max HP lost per full day (1).
    pub hp_per_day: u32,
    /// The creature's max HP.
    pub max_hp: u32,
    /// When checks happen.
    pub timing: Timing,
    /// Whether lost max HP returns.
    pub lost_hp: LostHp,
    /// When magical healing arrives.
    pub magic: MagicArrival,
    /// Whether anyone tends the wound at all.
    pub tended: bool,
}

impl Default for FesteringRules {
    /// docs/rules.md, lingering injuries: DC 15, 10 successes, 1 max HP a day, tended at once, no magic.
    fn default() -> Self {
        FesteringRules {
            medicine_bonus: 0,
            dc: 15,
            roll: RollMode::Normal,
            successes: 10,
            hp_per_day: 1,
            max_hp: 25,
            timing: Timing::AtOnce,
            lost_hp: LostHp::AfterLongRest,
            magic: MagicArrival::Never,
            tended: true,
        }
    }
}

impl FesteringRules {
    /// The check succeeds on `weight / 20^dice` of the kept naturals (an
    /// ability check: no automatic success on a 20).
    pub fn success_weight(&self) -> (u64, u64) {
        if !self.tended {
            return (0, 1);
        }
        let num = (1..=20u8)
            .filter(|&n| i16::from(n) + i16::from(self.medicine_bonus) >= i16::from(self.dc))
            .map(|n| self.roll.natural_weight(n))
            .sum();
        (num, 20u64.pow(self.roll.dice_per_roll()))
    }

    /// Probability that one check succeeds.
    pub fn success_chance(&self) -> f64 {
        let (n, d) = self.success_weight();
        n as f64 / d as f64
    }

    /// Whether the kept natural `natural` passes the check.
    #[inline]
    pub fn passes(&self, natural: u8) -> bool {
        self.tended && i16::from(natural) + i16::from(self.medicine_bonus) >= i16::from(self.dc)
    }

    /// The first whole day on which the loss reaches `max_hp`.
    pub fn death_day(&self, max_hp: u32) -> u32 {
        max_hp.div_ceil(self.hp_per_day.max(1))
    }

    /// Day of check `n` (1-based).
    pub fn check_day(&self, n: u32) -> u32 {
        match self.timing {
            Timing::AtOnce => n - 1,
            Timing::AfterFirstDay => n,
        }
    }

    /// Resolves a wound on a creature with `max_hp`, given the day tending
    /// would close it (`None`: never) and the day magic arrives (`None`: never).
    ///
    /// ```
    /// use woundsim::rules::festering::{Ending, FesteringRules};
    /// let r = FesteringRules::default();
    /// // Ten straight successes from hour 0: closed on day 9, 9 max HP lost.
    /// let o = r.resolve(25, Some(r.check_day(10)), None);
    /// assert_eq!((o.ending, o.max_hp_lost), (Ending::Tended, 9));
    /// ```
    pub fn resolve(&self, max_hp: u32, tended_day: Option<u32>, magic_day: Option<u32>) -> Outcome {
        let death = self.death_day(max_hp);
        let end = match (tended_day, magic_day) {
            (Some(t), Some(d)) if d <= t => (d, Ending::Magic),
            (Some(t), _) => (t, Ending::Tended),
            (None, Some(d)) => (d, Ending::Magic),
            (None, None) => (u32::MAX, Ending::Dead),
        };
        if end.0 >= death {
            return Outcome {
                ending: Ending::Dead,
                max_hp_lost: max_hp,
                days_open: death,
                lasting_loss: 0,
            };
        }
        let lost = end.0 * self.hp_per_day;
        let lasting = match (self.lost_hp, end.1, self.magic) {
            (LostHp::UntilMagicalHealing, Ending::Tended, MagicArrival::Never) => lost,
            _ => 0,
        };
        Outcome {
            ending: end.1,
            max_hp_lost: lost,
            days_open: end.0,
            lasting_loss: lasting,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_check_is_d20_plus_medicine_against_dc_15() {
        let r = FesteringRules::default();
        assert_eq!(r.success_weight(), (6, 20), "15..=20 with +0");
        let plus5 = FesteringRules {
            medicine_bonus: 5,
            ..r
        };
        assert_eq!(plus5.success_weight(), (11, 20));
        let plus20 = FesteringRules {
            medicine_bonus: 20,
            ..r
        };
        assert_eq!(plus20.success_chance(), 1.0);
        let hopeless = FesteringRules {
            medicine_bonus: -6,
            ..r
        };
        assert_eq!(
            hopeless.success_chance(),
            0.0,
            "no automatic success on a 20"
        );
        assert!(r.passes(15) && !r.passes(14));
    }

    #[test]
    fn one_max_hp_per_full_day_and_the_10th_success_closes() {
        let r = FesteringRules::default();
        // 10th success on check 14 (hour 312 = day 13): 13 max HP lost.
        let o = r.resolve(25, Some(r.check_day(14)), None);
        assert_eq!(
            o,
            Outcome {
                ending: Ending::Tended,
                max_hp_lost: 13,
                days_open: 13,
                lasting_loss: 0
            }
        );
        let later = FesteringRules {
            timing: Timing::AfterFirstDay,
            ..r
        };
        assert_eq!(
            later
                .resolve(25, Some(later.check_day(14)), None)
                .max_hp_lost,
            14
        );
    }

    #[test]
    fn death_when_max_hp_reaches_zero_first() {
        let r = FesteringRules::default();
        // Max HP 10: the loss reaches 10 on day 10, before that day's check.
        assert_eq!(r.resolve(10, Some(10), None).ending, Ending::Dead);
        assert_eq!(r.resolve(10, Some(9), None).max_hp_lost, 9);
        let o = r.resolve(10, None, None);
        assert_eq!(
            (o.ending, o.max_hp_lost, o.days_open),
            (Ending::Dead, 10, 10)
        );
    }

    #[test]
    fn magical_healing_closes_the_wound_after_that_days_loss() {
        let r = FesteringRules {
            magic: MagicArrival::Fixed(3),
            ..Default::default()
        };
        let o = r.resolve(25, Some(12), Some(3));
        assert_eq!(
            (o.ending, o.max_hp_lost, o.days_open),
            (Ending::Magic, 3, 3)
        );
        assert_eq!(
            r.resolve(25, Some(3), Some(3)).ending,
            Ending::Magic,
            "ties go to magic"
        );
        assert_eq!(r.resolve(25, Some(2), Some(3)).ending, Ending::Tended);
        assert_eq!(r.resolve(2, None, Some(3)).ending, Ending::Dead);
    }

    #[test]
    fn lost_max_hp_returns_after_a_long_rest_or_stays_until_magic() {
        let r = FesteringRules::default();
        assert_eq!(r.resolve(25, Some(12), None).lasting_loss, 0);
        let stays = FesteringRules {
            lost_hp: LostHp::UntilMagicalHealing,
            ..r
        };
        assert_eq!(stays.resolve(25, Some(12), None).lasting_loss, 12);
        let healed_later = FesteringRules {
            magic: MagicArrival::Fixed(20),
            ..stays
        };
        assert_eq!(healed_later.resolve(25, Some(12), Some(20)).lasting_loss, 0);
    }
}
