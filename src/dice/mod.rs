//! Dice: exact, unbiased sampling of d20s and other dice from 64-bit draws,
//! the one implementation of each random primitive every model uses:
//! [`roll_die`] and [`uniform_below`] (Lemire's unbiased uniform integer),
//! [`RollMode::roll`] (a d20 with advantage or disadvantage), [`Chance`]
//! ("with probability p"), [`DiceExpr`] (`NdM+K`) and [`D20Block`].
//!
//! The hot loops roll many d20s, so rolling one die per 64-bit draw would
//! waste most of the generator's output. [`D20Block`] turns one 64-bit draw
//! into fourteen independent, *exactly* uniform d20 rolls: since
//! `20^14 < 2^64`, a draw below `11 * 20^14` (accepted with probability
//! 97.7%) is uniform on `[0, 11 * 20^14)`, so its remainder modulo `20^14` is
//! uniform on `[0, 20^14)`, and the base-20 digits of a uniform number in
//! `[0, 20^14)` are independent uniform d20s. Rejected draws are redrawn, so
//! no bias is left at all (unlike multiply-extract tricks, which carry a
//! bias of about `2^-58`).
//!
//! A death-save sequence needs at most five saves, ten d20s with advantage,
//! so one block covers a whole sequence, and every variant of a scenario can
//! read the *same* block for trial `t`: that is how common random numbers
//! are implemented for death saves.

pub mod chance;
pub mod expr;
pub mod roll;

pub use chance::{Chance, InvalidChance};
pub use expr::{DiceError, DiceExpr};
pub use roll::RollMode;

use rand::Rng;

/// Number of d20 rolls held by one [`D20Block`].
pub const D20_PER_BLOCK: u32 = 14;

/// `20^14`: the number of equally likely values of a block.
const BLOCK_RANGE: u64 = 1_638_400_000_000_000_000;

/// Largest multiple of [`BLOCK_RANGE`] that fits in a `u64` (11 times it).
const BLOCK_ACCEPT: u64 = BLOCK_RANGE * 11;

/// Fourteen exact uniform d20 rolls packed as base-20 digits.
///
/// ```
/// use rand::SeedableRng;
/// use rand_xoshiro::Xoshiro256PlusPlus;
/// use woundsim::dice::D20Block;
///
/// let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
/// let mut block = D20Block::draw(&mut rng);
/// let first = block.next_d20();
/// assert!((1..=20).contains(&first));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct D20Block(u64);

impl D20Block {
    /// Draws a block from the generator (about 1.02 draws on average).
    #[inline]
    pub fn draw<R: Rng + ?Sized>(rng: &mut R) -> Self {
        loop {
            let x = rng.next_u64();
            if x < BLOCK_ACCEPT {
                return D20Block(x % BLOCK_RANGE);
            }
        }
    }

    /// The packed digits: `digit k = (raw / 20^k) % 20` is roll `k` minus one.
    #[inline]
    pub fn raw(self) -> u64 {
        self.0
    }

    /// Takes the next d20 (1..=20) off the block.
    #[inline]
    pub fn next_d20(&mut self) -> u8 {
        let digit = self.0 % 20;
        self.0 /= 20;
        digit as u8 + 1
    }
}

/// Puts a uniformly random `n` of `items` (at most all of them) in its first
/// `n` places, in random order: a partial Fisher–Yates shuffle, one
/// [`uniform_below`] draw per place.
pub fn choose_front<R: Rng + ?Sized, T>(rng: &mut R, items: &mut [T], n: usize) {
    for j in 0..n.min(items.len()) {
        let pick = j + uniform_below(rng, (items.len() - j) as u64) as usize;
        items.swap(j, pick);
    }
}

/// An unbiased uniform integer in `0..n` (Lemire's multiply-and-reject).
///
/// `n` must be at least 1; the scenario layer guarantees it.
#[inline]
pub fn uniform_below<R: Rng + ?Sized>(rng: &mut R, n: u64) -> u64 {
    debug_assert!(n > 0);
    let mut product = u128::from(rng.next_u64()) * u128::from(n);
    // The rejection threshold (2^64 mod n) is below n, so it only needs
    // computing (a division) in the rare case the low half is below n.
    if (product as u64) < n {
        let threshold = n.wrapping_neg() % n;
        while (product as u64) < threshold {
            product = u128::from(rng.next_u64()) * u128::from(n);
        }
    }
    (product >> 64) as u64
}

/// Rolls one die with `sides` faces (1..=sides).
#[inline]
pub fn roll_die<R: Rng + ?Sized>(rng: &mut R, sides: u32) -> u32 {
    uniform_below(rng, u64::from(sides)) as u32 + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn choose_front_puts_each_item_first_equally_often_and_keeps_them_all() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let n = 60_000;
        let mut first = [0u32; 4];
        for _ in 0..n {
            let mut items = [0usize, 1, 2, 3];
            choose_front(&mut rng, &mut items, 2);
            let mut sorted = items;
            sorted.sort_unstable();
            assert_eq!(sorted, [0, 1, 2, 3], "a permutation");
            assert_ne!(items[0], items[1]);
            first[items[0]] += 1;
        }
        // Each item first with probability 1/4, at 4.5 sigma.
        let sd = (f64::from(n) * 0.25 * 0.75).sqrt();
        for count in first {
            assert!(
                (f64::from(count) - f64::from(n) / 4.0).abs() < 4.5 * sd,
                "{first:?}"
            );
        }
        // More places than items: all of them, no panic.
        let mut items = [7usize, 8];
        choose_front(&mut rng, &mut items, 5);
        let mut sorted = items;
        sorted.sort_unstable();
        assert_eq!(sorted, [7, 8]);
    }

    #[test]
    fn block_constants_are_powers_of_twenty() {
        assert_eq!(BLOCK_RANGE, 20u64.pow(14));
        assert!(20u128.pow(15) > u128::from(u64::MAX));
        assert!(u128::from(BLOCK_ACCEPT) + u128::from(BLOCK_RANGE) > u128::from(u64::MAX));
    }

    #[test]
    fn block_digits_are_the_base_20_digits() {
        let mut block = D20Block(3 + 20 * 19 + 400 * 7);
        assert_eq!(block.next_d20(), 4);
        assert_eq!(block.next_d20(), 20);
        assert_eq!(block.next_d20(), 8);
        assert_eq!(block.next_d20(), 1);
    }

    #[test]
    fn every_digit_of_a_block_is_uniform() {
        // 4.5-sigma chi-square-like check per face and per digit position.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let n = 200_000u64;
        let mut counts = [[0u64; 20]; D20_PER_BLOCK as usize];
        for _ in 0..n {
            let mut block = D20Block::draw(&mut rng);
            for row in counts.iter_mut() {
                row[usize::from(block.next_d20() - 1)] += 1;
            }
        }
        let p = 1.0 / 20.0;
        let sigma = (n as f64 * p * (1.0 - p)).sqrt();
        for row in &counts {
            for &c in row {
                assert!((c as f64 - n as f64 * p).abs() < 4.5 * sigma, "{row:?}");
            }
        }
    }

    #[test]
    fn uniform_below_covers_its_range() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut seen = [0u32; 6];
        for _ in 0..6000 {
            seen[uniform_below(&mut rng, 6) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| (850..1150).contains(&c)), "{seen:?}");
        assert_eq!(uniform_below(&mut rng, 1), 0);
    }
}
