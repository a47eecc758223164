//! RNG streams: one `Xoshiro256PlusPlus` per chunk, derived from `(seed,
//! chunk)`, and one seed per trial, derived from `(seed, trial)`.
//!
//! The stream of chunk `i` depends on nothing but the seed and `i`, never on
//! the thread that runs it, so results do not depend on `--threads`.
//! A trial's seed ([`trial_seed`]) depends on nothing but the run's seed and
//! the trial's index, not even on the chunk size: the types that seed each
//! trial's generator from it (all but death saves, which read their d20s in
//! lockstep from the chunk's stream) give the same trials however a run is
//! cut into chunks, shards or a browser's workers. The key
//! is a bijective mix of the seed followed by a bijective mix of `key + i`,
//! so distinct chunks of one seed always get distinct keys; rand_xoshiro's
//! `seed_from_u64` then expands the key into the 256-bit state with
//! SplitMix64, as its authors recommend.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The SplitMix64 finaliser: a bijection on `u64` with good avalanche.
fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The generator for chunk `chunk` of a run with `seed`.
///
/// ```
/// use rand::Rng;
/// use woundsim::engine::rng::chunk_rng;
/// assert_eq!(chunk_rng(1, 0).next_u64(), chunk_rng(1, 0).next_u64());
/// assert_ne!(chunk_rng(1, 0).next_u64(), chunk_rng(1, 1).next_u64());
/// ```
pub fn chunk_rng(seed: u64, chunk: u64) -> Xoshiro256PlusPlus {
    let key = mix64(mix64(seed).wrapping_add(chunk.wrapping_mul(0x9e37_79b9_7f4a_7c15)));
    Xoshiro256PlusPlus::seed_from_u64(key)
}

/// Trials per seed block: the seed of trial `t` is draw `t % SEED_BLOCK`
/// of the stream of block `t / SEED_BLOCK` ([`chunk_rng`]).
pub const SEED_BLOCK: u64 = 1 << 16;

/// The seed of trial `trial` of a run with `seed`: draw `trial %
/// SEED_BLOCK` of the stream `chunk_rng(seed, trial / SEED_BLOCK)`. These
/// are the seeds every trial had when all types ran in chunks of 65,536
/// trials, so the figures of the types that seed each trial did not move
/// when chunk sizes became per type. For one trial it costs up to 65,535
/// draws; [`TrialSeeds`] walks a range with one draw each.
///
/// ```
/// use woundsim::engine::rng::{chunk_rng, trial_seed};
/// use rand::Rng;
/// let mut block = chunk_rng(1, 0);
/// assert_eq!(trial_seed(1, 0), block.next_u64());
/// assert_eq!(trial_seed(1, 1), block.next_u64());
/// assert_ne!(trial_seed(1, 5), trial_seed(2, 5));
/// ```
pub fn trial_seed(seed: u64, trial: u64) -> u64 {
    TrialSeeds::new(seed, trial..trial + 1)
        .next()
        .expect("a range of one trial")
}

/// The seeds of trials `first..end` of a run, in order ([`trial_seed`]).
/// Starting inside a seed block skips the block's earlier draws (at most
/// 65,535, tens of microseconds: negligible against any chunk's trials).
///
/// ```
/// use woundsim::engine::rng::{TrialSeeds, trial_seed};
/// let seeds: Vec<u64> = TrialSeeds::new(7, 65_535..65_538).collect();
/// let one_by_one: Vec<u64> = (65_535..65_538).map(|t| trial_seed(7, t)).collect();
/// assert_eq!(seeds, one_by_one);
/// assert_eq!(TrialSeeds::new(7, 10..13).len(), 3);
/// ```
#[derive(Clone, Debug)]
pub struct TrialSeeds {
    seed: u64,
    block: Xoshiro256PlusPlus,
    next: u64,
    end: u64,
}

impl TrialSeeds {
    /// The seeds of trials `trials` of a run with `seed`.
    pub fn new(seed: u64, trials: std::ops::Range<u64>) -> Self {
        let mut block = chunk_rng(seed, trials.start / SEED_BLOCK);
        for _ in 0..trials.start % SEED_BLOCK {
            block.next_u64();
        }
        TrialSeeds {
            seed,
            block,
            next: trials.start,
            end: trials.end.max(trials.start),
        }
    }
}

impl Iterator for TrialSeeds {
    type Item = u64;

    #[inline]
    fn next(&mut self) -> Option<u64> {
        if self.next >= self.end {
            return None;
        }
        if self.next % SEED_BLOCK == 0 {
            self.block = chunk_rng(self.seed, self.next / SEED_BLOCK);
        }
        self.next += 1;
        Some(self.block.next_u64())
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = usize::try_from(self.end - self.next).unwrap_or(usize::MAX);
        (n, Some(n))
    }
}

impl ExactSizeIterator for TrialSeeds {}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    #[test]
    fn streams_are_pinned_for_a_fixed_seed() {
        // Value-stability: changing the derivation changes every published figure.
        let first: Vec<u64> = (0..3).map(|c| chunk_rng(42, c).next_u64()).collect();
        let again: Vec<u64> = (0..3).map(|c| chunk_rng(42, c).next_u64()).collect();
        assert_eq!(first, again);
        assert_ne!(first[0], first[1]);
        assert_ne!(chunk_rng(42, 0).next_u64(), chunk_rng(43, 0).next_u64());
    }

    #[test]
    fn trial_seeds_are_the_draws_of_their_seed_block() {
        // A range across a block boundary: the end of block 0's stream,
        // then the start of block 1's.
        let mut zero = chunk_rng(42, 0);
        let tail: Vec<u64> = (0..SEED_BLOCK).map(|_| zero.next_u64()).collect();
        let mut one = chunk_rng(42, 1);
        let expected: Vec<u64> = tail[tail.len() - 3..]
            .iter()
            .copied()
            .chain((0..2).map(|_| one.next_u64()))
            .collect();
        let across = SEED_BLOCK - 3..SEED_BLOCK + 2;
        assert_eq!(TrialSeeds::new(42, across).collect::<Vec<_>>(), expected);
        assert_eq!(TrialSeeds::new(42, 5..5).count(), 0);
    }

    #[test]
    fn mix_is_a_bijection_on_a_sample() {
        let mut seen = std::collections::HashSet::new();
        for i in 0..100_000u64 {
            assert!(seen.insert(mix64(i)));
        }
    }
}
