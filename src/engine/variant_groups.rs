//! Parallel across variants inside one chunk, bit-identical to running
//! them in order.
//!
//! A chunk runs its trials for every variant of a scenario. Variants that
//! share no work (combat's variants; campaign variants that do not replay
//! each other's fights) are independent groups: each group runs all the
//! chunk's trials on its own rayon task, and the caller then records the
//! per-trial results in the fixed (trial, variant) order it always used, so
//! accumulators, paired differences and the merged output are exactly
//! those of a sequential loop, for any number of threads. Variants of one
//! group (a campaign's variants that replay the first one's fights until
//! they diverge) run in their order within each trial, keeping that saving.
//! With one group the chunk runs on the calling thread as before.

use rayon::prelude::*;

/// The variants partitioned into groups that share no work: each group's
/// variants in increasing order, the groups ordered by their first one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantGroups {
    groups: Vec<Vec<usize>>,
    /// Per variant: its group and its place in the group.
    place: Vec<(usize, usize)>,
}

impl VariantGroups {
    /// Groups `n` variants by `root`: variant `v` is in the group of
    /// `root(v)` (a variant no later than `v` whose own root is itself).
    pub fn by_root(n: usize, root: impl Fn(usize) -> usize) -> Self {
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let mut place = Vec::with_capacity(n);
        for v in 0..n {
            let r = root(v).min(v);
            let (g, p) = match place.get(r) {
                Some(&(g, _)) if r < v => {
                    let group: &mut Vec<usize> = &mut groups[g];
                    group.push(v);
                    (g, group.len() - 1)
                }
                _ => {
                    groups.push(vec![v]);
                    (groups.len() - 1, 0)
                }
            };
            place.push((g, p));
        }
        VariantGroups { groups, place }
    }

    /// Every variant in a group of its own.
    pub fn independent(n: usize) -> Self {
        Self::by_root(n, |v| v)
    }

    /// The groups.
    pub fn groups(&self) -> &[Vec<usize>] {
        &self.groups
    }

    /// Runs `trial(scratch, variant, seed)` for every seed and every
    /// variant, the groups in parallel (one scratch state from `scratch`
    /// per group, each group's variants in order within each trial), and
    /// returns the results by trial and variant; `None` when some call
    /// returned `None` (a stop was requested).
    pub fn run<S, R, N, F>(
        &self,
        seeds: &[u64],
        scratch: N,
        trial: F,
    ) -> Option<TrialResults<'_, R>>
    where
        R: Send,
        N: Fn() -> S + Sync,
        F: Fn(&mut S, usize, u64) -> Option<R> + Sync,
    {
        let run_group = |group: &Vec<usize>| -> Option<Vec<R>> {
            let mut state = scratch();
            let mut out = Vec::with_capacity(seeds.len() * group.len());
            for &seed in seeds {
                for &v in group {
                    out.push(trial(&mut state, v, seed)?);
                }
            }
            Some(out)
        };
        let by_group: Option<Vec<Vec<R>>> = match self.groups.as_slice() {
            [only] => run_group(only).map(|out| vec![out]),
            groups => groups.par_iter().with_max_len(1).map(run_group).collect(),
        };
        Some(TrialResults {
            by_group: by_group?,
            groups: self,
        })
    }
}

/// What [`VariantGroups::run`] returns: one result per trial and variant.
pub struct TrialResults<'g, R> {
    by_group: Vec<Vec<R>>,
    groups: &'g VariantGroups,
}

impl<R> TrialResults<'_, R> {
    /// The result of variant `v` on trial `t` (the `t`-th seed).
    pub fn get(&self, t: usize, v: usize) -> &R {
        let (g, p) = self.groups.place[v];
        &self.by_group[g][t * self.groups.groups[g].len() + p]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_follow_the_roots_in_order() {
        let groups = VariantGroups::by_root(5, |v| [0, 1, 0, 3, 1][v]);
        assert_eq!(groups.groups(), [vec![0, 2], vec![1, 4], vec![3]]);
        assert_eq!(VariantGroups::independent(3).groups().len(), 3);
    }

    #[test]
    fn results_are_those_of_the_sequential_loop_for_any_threads() {
        // Within a group each trial sees the results of the group's
        // earlier variants on the same trial (as shared fights do).
        let groups = VariantGroups::by_root(4, |v| [0, 1, 0, 1][v]);
        let seeds: Vec<u64> = (0..50).map(|s| s * 7 + 1).collect();
        let trial = |last: &mut u64, v: usize, seed: u64| {
            *last = last.wrapping_mul(31).wrapping_add(seed ^ v as u64);
            Some(*last)
        };
        let sequential: Vec<u64> = {
            let mut state = [0u64; 2];
            let mut out = Vec::new();
            for &seed in &seeds {
                for v in 0..4 {
                    out.push(trial(&mut state[v % 2], v, seed).unwrap());
                }
            }
            out
        };
        for threads in [1, 2, 3] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let results = pool.install(|| groups.run(&seeds, || 0u64, trial)).unwrap();
            let flat: Vec<u64> = (0..seeds.len())
                .flat_map(|t| (0..4).map(move |v| (t, v)))
                .map(|(t, v)| *results.get(t, v))
                .collect();
            assert_eq!(flat, sequential, "{threads} threads");
        }
    }

    #[test]
    fn a_stop_in_any_group_is_none() {
        let groups = VariantGroups::independent(3);
        let stopped = groups.run(
            &[1, 2, 3],
            || (),
            |_, v, seed| (v != 2 || seed < 3).then_some(0),
        );
        assert!(stopped.is_none());
    }
}
