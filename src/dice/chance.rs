//! "With probability p": a validated probability and the exact integer
//! threshold a 64-bit draw is compared with, as rand's `Bernoulli` does
//! (`src/distr/bernoulli.rs` in rust-random/rand).
//!
//! Every chance in the models (the lingering-injury chance, a monster's
//! chance to attack a downed PC, the daily chance that magical healing
//! arrives) is one [`Chance`]: the Monte Carlo samples it with
//! [`Chance::sample`], and exact mode computes with [`Chance::p`], the
//! probability that sampling actually realises. So the two modes cannot
//! drift apart by a rounding.

use rand::Rng;

/// `2^64`, the number of values of one draw.
const SCALE: f64 = 18_446_744_073_709_551_616.0;

/// The threshold of a certain event. No probability below 1 reaches it:
/// the largest, `1 - 2^-53`, gives `2^64 - 2^11`.
const ALWAYS: u64 = u64::MAX;

/// A probability validated once into the threshold of a 64-bit draw.
///
/// ```
/// use rand::SeedableRng;
/// use rand_xoshiro::Xoshiro256PlusPlus;
/// use woundsim::dice::Chance;
///
/// let chance = Chance::new(0.05).unwrap();
/// assert_eq!(chance.p(), 0.05); // exact for any p of at least 2^-12
/// let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
/// let hits = (0..100_000).filter(|_| chance.sample(&mut rng)).count();
/// assert!((4_500..5_500).contains(&hits));
/// assert!(Chance::new(1.5).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Chance {
    /// A draw below it is a success; [`ALWAYS`] for certainty.
    threshold: u64,
}

/// A probability outside `[0, 1]` (or NaN).
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[error("a probability must be between 0 and 1, got {0}")]
pub struct InvalidChance(pub f64);

impl Chance {
    /// An event that never happens.
    pub const NEVER: Chance = Chance { threshold: 0 };

    /// An event that always happens.
    pub const ALWAYS: Chance = Chance { threshold: ALWAYS };

    /// `p` as a chance in a constant; a `p` outside `[0, 1]` fails the build.
    pub const fn constant(p: f64) -> Chance {
        match Chance::new(p) {
            Ok(chance) => chance,
            Err(_) => panic!("a constant chance must be between 0 and 1"),
        }
    }

    /// The chance `p`, for `0 <= p <= 1`.
    pub const fn new(p: f64) -> Result<Chance, InvalidChance> {
        if p == 1.0 {
            return Ok(Chance::ALWAYS);
        }
        if !(p >= 0.0 && p < 1.0) {
            return Err(InvalidChance(p));
        }
        // Exact: multiplying by a power of two only moves the exponent.
        Ok(Chance {
            threshold: (p * SCALE) as u64,
        })
    }

    /// The probability that [`Chance::sample`] returns `true`: `p` itself
    /// for any `p` of at least `2^-12`, else `p` rounded down to a multiple
    /// of `2^-64`.
    pub fn p(self) -> f64 {
        if self.threshold == ALWAYS {
            1.0
        } else {
            // The threshold has at most 53 significant bits: exact.
            self.threshold as f64 / SCALE
        }
    }

    /// Whether the event happens on the 64-bit draw `u`.
    #[inline]
    pub fn admits(self, u: u64) -> bool {
        self.threshold == ALWAYS || u < self.threshold
    }

    /// Samples the event. It draws one `u64` whatever the chance, even a
    /// certain or an impossible one, so the generator's stream stays aligned
    /// across variants that differ only in the chance.
    #[inline]
    pub fn sample<R: Rng + ?Sized>(self, rng: &mut R) -> bool {
        self.admits(rng.next_u64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_effective_probability_is_the_given_one() {
        for p in [
            0.0,
            0.05,
            0.1,
            0.2,
            0.25,
            0.5,
            0.9,
            1.0 - f64::EPSILON / 2.0,
            1.0,
        ] {
            assert_eq!(Chance::new(p).unwrap().p(), p, "{p}");
        }
        // Below 2^-12 the threshold rounds down to a multiple of 2^-64.
        let tiny = Chance::new(1e-18).unwrap();
        assert_eq!(tiny.p(), 18.0 / SCALE);
    }

    #[test]
    fn only_probabilities_are_chances() {
        for p in [-0.1, 1.000_001, f64::NAN, f64::INFINITY] {
            assert!(Chance::new(p).is_err(), "{p}");
        }
        assert_eq!(Chance::new(0.0).unwrap(), Chance::NEVER);
        assert_eq!(Chance::new(1.0).unwrap(), Chance::ALWAYS);
    }

    #[test]
    fn a_draw_below_the_threshold_succeeds() {
        let half = Chance::new(0.5).unwrap();
        assert!(half.admits((1 << 63) - 1));
        assert!(!half.admits(1 << 63));
        assert!(Chance::ALWAYS.admits(u64::MAX));
        assert!(!Chance::NEVER.admits(0));
        // The largest chance below certainty still fails on the top draws.
        let almost = Chance::new(1.0 - f64::EPSILON / 2.0).unwrap();
        assert!(!almost.admits(u64::MAX));
    }

    #[test]
    fn sampling_draws_exactly_one_value() {
        struct Counting(u64);
        impl rand::TryRng for Counting {
            type Error = std::convert::Infallible;
            fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
                unreachable!()
            }
            fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
                self.0 += 1;
                Ok(0)
            }
            fn try_fill_bytes(&mut self, _: &mut [u8]) -> Result<(), Self::Error> {
                unreachable!()
            }
        }
        let mut rng = Counting(0);
        for chance in [Chance::NEVER, Chance::ALWAYS, Chance::new(0.3).unwrap()] {
            chance.sample(&mut rng);
        }
        assert_eq!(rng.0, 3);
    }
}
