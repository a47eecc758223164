//! Shards of a run: which chunks shard `K` of `N` runs.
//!
//! A run is `C = ceil(trials / chunk_trials)` chunks (the scenario type's
//! `ScenarioType::CHUNK_TRIALS`), each with its own
//! random stream. Shard `K` of `N` (`K` from 0 to `N - 1`, as Slurm's
//! `SLURM_ARRAY_TASK_ID` and Kubernetes' `JOB_COMPLETION_INDEX` count) runs
//! chunks `floor(K·C/N) .. floor((K+1)·C/N)`: consecutive ranges that depend
//! on nothing but `K`, `N` and the trial count, some empty when `N > C`.

/// Most shards a run may be split into.
pub const MAX_SHARDS: u64 = 1 << 20;

/// Shard `index` of `count` (`index < count`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, from 0.
    pub index: u64,
    /// How many shards.
    pub count: u64,
}

impl Shard {
    /// The whole run as one shard.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// The chunks of a run of `chunks` chunks this shard runs.
    ///
    /// ```
    /// use woundsim::engine::shard::Shard;
    /// let ranges: Vec<_> = (0..3).map(|k| Shard { index: k, count: 3 }.chunks_of(10)).collect();
    /// assert_eq!(ranges, vec![0..3, 3..6, 6..10]);
    /// assert_eq!(Shard { index: 4, count: 5 }.chunks_of(2), 1..2);
    /// ```
    pub fn chunks_of(self, chunks: u64) -> std::ops::Range<u64> {
        let at = |k: u64| (u128::from(k) * u128::from(chunks) / u128::from(self.count)) as u64;
        at(self.index)..at(self.index + 1)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// `K/N`, `0 <= K < N <= 2^20`.
    fn from_str(text: &str) -> Result<Shard, String> {
        let bad =
            || format!("expected K/N with 0 <= K < N <= {MAX_SHARDS} (e.g. 0/8), got `{text}`");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count): (u64, u64) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if count == 0 || count > MAX_SHARDS || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_tile_the_chunks_in_order_for_any_count() {
        for chunks in [0u64, 1, 2, 7, 16, 1000] {
            for count in [1u64, 2, 3, 5, 8, 17] {
                let mut next = 0;
                for index in 0..count {
                    let r = Shard { index, count }.chunks_of(chunks);
                    assert_eq!(r.start, next);
                    next = r.end;
                }
                assert_eq!(next, chunks);
            }
        }
        assert_eq!(Shard::WHOLE.chunks_of(9), 0..9);
    }

    #[test]
    fn shard_arguments_are_checked() {
        assert_eq!("3/8".parse::<Shard>(), Ok(Shard { index: 3, count: 8 }));
        for bad in ["8/8", "1/0", "x/2", "1", "-1/2", "0/2000000"] {
            let e = bad.parse::<Shard>().unwrap_err();
            assert!(e.contains("0 <= K < N"), "{bad}: {e}");
        }
    }
}
