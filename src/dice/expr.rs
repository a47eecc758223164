//! Dice expressions `NdM+K` (`1d8+3`, `2d6`, `7d6`, `2d4+2`, `d20`, `5`):
//! parsing with clear errors, unbiased sampling, and the exact distribution
//! that the exact-mode dynamic programs need.
//!
//! Shared by every model that rolls damage, healing or a clock (limb damage
//! and reattachment, docs/rules.md, limb damage; combat will reuse it). Sampling rolls each
//! die with [`super::roll_die`] (Lemire's unbiased method), so a sampled sum
//! has exactly the distribution [`DiceExpr::pmf`] computes.

use std::fmt;
use std::str::FromStr;

use rand::Rng;

/// Most dice one expression may roll (a critical hit doubles it once more).
pub const MAX_COUNT: u32 = 100;
/// Most faces a die may have.
pub const MAX_SIDES: u32 = 1000;
/// Largest absolute flat modifier.
pub const MAX_MODIFIER: i32 = 10_000;

/// `count` dice of `sides` faces plus `modifier`; `count = 0` is a constant.
///
/// ```
/// use woundsim::dice::expr::DiceExpr;
/// let e: DiceExpr = "2d4+2".parse().unwrap();
/// assert_eq!((e.min(), e.max()), (4, 10));
/// assert_eq!(e.to_string(), "2d4+2");
/// assert!("2d".parse::<DiceExpr>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DiceExpr {
    /// Number of dice (0 for a constant).
    pub count: u32,
    /// Faces per die (at least 1; 1 for a constant).
    pub sides: u32,
    /// Flat modifier added to the sum.
    pub modifier: i32,
}

/// Why a dice expression could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DiceError {
    /// Nothing to parse.
    #[error("empty dice expression; write e.g. `1d8+3`, `2d6` or `d20`")]
    Empty,
    /// The text is not of the form `NdM+K`.
    #[error("malformed dice expression `{0}`; write e.g. `1d8+3`, `2d6`, `d20` or a whole number")]
    Malformed(String),
    /// `NdM` is missing the number of faces, as in `2d`.
    #[error("dice expression `{0}` has no number of faces after `d` (e.g. `2d6`)")]
    MissingSides(String),
    /// `0dM`.
    #[error("dice expression `{0}` rolls no dice: the count before `d` must be at least 1")]
    ZeroCount(String),
    /// `Nd0`.
    #[error(
        "dice expression `{0}` has dice with no faces: the number after `d` must be at least 1"
    )]
    ZeroSides(String),
    /// A part is too large.
    #[error(
        "dice expression `{0}` is too large: at most {MAX_COUNT} dice of at most {MAX_SIDES} faces, modifier within ±{MAX_MODIFIER}"
    )]
    TooLarge(String),
}

impl DiceExpr {
    /// A constant value (no dice).
    pub const fn constant(value: i32) -> Self {
        DiceExpr {
            count: 0,
            sides: 1,
            modifier: value,
        }
    }

    /// Smallest possible total.
    pub fn min(&self) -> i64 {
        i64::from(self.count) + i64::from(self.modifier)
    }

    /// Largest possible total.
    pub fn max(&self) -> i64 {
        i64::from(self.count) * i64::from(self.sides) + i64::from(self.modifier)
    }

    /// Mean total.
    pub fn mean(&self) -> f64 {
        f64::from(self.count) * (f64::from(self.sides) + 1.0) / 2.0 + f64::from(self.modifier)
    }

    /// Whether the expression rolls no dice.
    pub fn is_constant(&self) -> bool {
        self.count == 0 || self.sides == 1
    }

    /// The same expression with twice the dice (a 5e critical hit).
    pub fn doubled_dice(&self) -> Self {
        DiceExpr {
            count: self.count * 2,
            ..*self
        }
    }

    /// Rolls the expression.
    #[inline]
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> i64 {
        let mut total = i64::from(self.modifier);
        if self.sides == 1 {
            return total + i64::from(self.count);
        }
        for _ in 0..self.count {
            total += i64::from(super::roll_die(rng, self.sides));
        }
        total
    }

    /// Exact distribution: `pmf()[i]` is the probability of the total
    /// `min() + i` (convolution of the dice; each entry is a ratio of
    /// integers rounded once per convolution step, to about 1e-15).
    ///
    /// ```
    /// use woundsim::dice::expr::DiceExpr;
    /// let p = "2d6".parse::<DiceExpr>().unwrap().pmf();
    /// assert_eq!(p.len(), 11);
    /// assert!((p[5] - 6.0 / 36.0).abs() < 1e-15); // a total of 7
    /// ```
    pub fn pmf(&self) -> Vec<f64> {
        let sides = self.sides as usize;
        let mut pmf = vec![1.0f64];
        if sides == 1 {
            return pmf;
        }
        let p = 1.0 / sides as f64;
        for _ in 0..self.count {
            let mut next = vec![0.0f64; pmf.len() + sides - 1];
            for (i, &w) in pmf.iter().enumerate() {
                if w == 0.0 {
                    continue;
                }
                for slot in &mut next[i..i + sides] {
                    *slot += w * p;
                }
            }
            pmf = next;
        }
        pmf
    }
}

impl fmt::Display for DiceExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.count == 0 {
            return write!(f, "{}", self.modifier);
        }
        write!(f, "{}d{}", self.count, self.sides)?;
        match self.modifier {
            0 => Ok(()),
            m if m > 0 => write!(f, "+{m}"),
            m => write!(f, "{m}"),
        }
    }
}

fn digits(s: &str) -> Option<u64> {
    if s.is_empty() || s.len() > 9 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

impl FromStr for DiceExpr {
    type Err = DiceError;

    fn from_str(text: &str) -> Result<Self, DiceError> {
        let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let lower = compact.to_ascii_lowercase();
        if lower.is_empty() {
            return Err(DiceError::Empty);
        }
        let original = text.trim().to_string();
        let malformed = || DiceError::Malformed(original.clone());
        let too_large = || DiceError::TooLarge(original.clone());
        let Some(d) = lower.find('d') else {
            // A whole number, possibly signed.
            let (sign, body) = match lower.strip_prefix('-') {
                Some(rest) => (-1, rest),
                None => (1, lower.strip_prefix('+').unwrap_or(&lower)),
            };
            let value = digits(body).ok_or_else(malformed)?;
            if value > MAX_MODIFIER as u64 {
                return Err(too_large());
            }
            return Ok(DiceExpr::constant(sign * value as i32));
        };
        let count_text = &lower[..d];
        let rest = &lower[d + 1..];
        let count = if count_text.is_empty() {
            1
        } else {
            digits(count_text).ok_or_else(malformed)?
        };
        let split = rest.find(['+', '-']).unwrap_or(rest.len());
        let (sides_text, modifier_text) = rest.split_at(split);
        if sides_text.is_empty() {
            return Err(if modifier_text.is_empty() {
                DiceError::MissingSides(original.clone())
            } else {
                malformed()
            });
        }
        let sides = digits(sides_text).ok_or_else(malformed)?;
        let modifier = if modifier_text.is_empty() {
            0
        } else {
            let sign = if modifier_text.starts_with('-') {
                -1
            } else {
                1
            };
            let value = digits(&modifier_text[1..]).ok_or_else(malformed)?;
            if value > MAX_MODIFIER as u64 {
                return Err(too_large());
            }
            sign * value as i64
        };
        if count == 0 {
            return Err(DiceError::ZeroCount(original));
        }
        if sides == 0 {
            return Err(DiceError::ZeroSides(original));
        }
        if count > u64::from(MAX_COUNT) || sides > u64::from(MAX_SIDES) {
            return Err(too_large());
        }
        Ok(DiceExpr {
            count: count as u32,
            sides: sides as u32,
            modifier: modifier as i32,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn parse(s: &str) -> Result<DiceExpr, DiceError> {
        s.parse()
    }

    #[test]
    fn parses_the_usual_forms() {
        assert_eq!(
            parse("1d8+3").unwrap(),
            DiceExpr {
                count: 1,
                sides: 8,
                modifier: 3
            }
        );
        assert_eq!(parse("2d6").unwrap().max(), 12);
        assert_eq!(parse("7d6").unwrap().min(), 7);
        assert_eq!(parse("2d4+2").unwrap().mean(), 7.0);
        assert_eq!(parse("d20").unwrap(), parse("1d20").unwrap());
        assert_eq!(parse(" 1D10 - 1 ").unwrap().modifier, -1);
        assert_eq!(parse("4").unwrap(), DiceExpr::constant(4));
        assert_eq!(parse("-2").unwrap().max(), -2);
        for s in ["1d8+3", "2d6", "d20", "3", "1d4-1"] {
            let e = parse(s).unwrap();
            assert_eq!(parse(&e.to_string()).unwrap(), e);
        }
    }

    #[test]
    fn malformed_input_is_a_clear_error() {
        assert!(matches!(parse("2d"), Err(DiceError::MissingSides(_))));
        assert!(matches!(parse("0d6"), Err(DiceError::ZeroCount(_))));
        assert!(matches!(parse("d0"), Err(DiceError::ZeroSides(_))));
        assert!(matches!(parse(""), Err(DiceError::Empty)));
        for bad in ["x", "1d6+", "1dd6", "1d6+2+3", "1.5d6", "2d6x", "+"] {
            assert!(
                matches!(parse(bad), Err(DiceError::Malformed(_))),
                "{bad}: {:?}",
                parse(bad)
            );
        }
        assert!(matches!(parse("101d6"), Err(DiceError::TooLarge(_))));
        assert!(matches!(parse("1d1001"), Err(DiceError::TooLarge(_))));
        assert!(
            parse("2d")
                .unwrap_err()
                .to_string()
                .contains("no number of faces")
        );
    }

    #[test]
    fn pmf_sums_to_one_and_matches_enumeration() {
        let e = parse("3d4+1").unwrap();
        let p = e.pmf();
        assert_eq!(p.len() as i64, e.max() - e.min() + 1);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-14);
        let mut counts = vec![0u32; p.len()];
        for a in 1..=4 {
            for b in 1..=4 {
                for c in 1..=4 {
                    counts[a + b + c - 3] += 1;
                }
            }
        }
        for (i, &c) in counts.iter().enumerate() {
            assert!((p[i] - f64::from(c) / 64.0).abs() < 1e-15);
        }
        assert_eq!(DiceExpr::constant(5).pmf(), vec![1.0]);
        assert_eq!(parse("1d8").unwrap().doubled_dice().to_string(), "2d8");
    }

    #[test]
    fn sampling_is_unbiased() {
        let e = parse("2d6+1").unwrap();
        let p = e.pmf();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let n = 200_000u64;
        let mut counts = vec![0u64; p.len()];
        for _ in 0..n {
            let x = e.sample(&mut rng);
            assert!((e.min()..=e.max()).contains(&x));
            counts[(x - e.min()) as usize] += 1;
        }
        for (i, &c) in counts.iter().enumerate() {
            let sigma = (n as f64 * p[i] * (1.0 - p[i])).sqrt();
            assert!((c as f64 - n as f64 * p[i]).abs() < 4.5 * sigma, "bin {i}");
        }
        assert_eq!(DiceExpr::constant(3).sample(&mut rng), 3);
    }
}
