//! The deterministic parallel Monte Carlo runner.
//!
//! Trials are split into fixed-size chunks ([`RunShape::chunk_trials`]: a
//! constant of the scenario type, chosen from the cost of its trial so that
//! a chunk is 10–50 ms of one thread's work, and never derived from the
//! thread count, the machine or the trial count). Chunk `i` gets its own
//! `Xoshiro256PlusPlus` stream from `(seed, i)` ([`rng::chunk_rng`]) and its
//! own accumulator; accumulators are merged in one fixed pairwise tree over
//! the chunk indices, earlier chunks first ([`frontier`]). So the same seed
//! gives bit-identical results for any number of threads, even for
//! floating-point accumulators (rayon's own `reduce` makes no such promise),
//! and for any split of the chunks into shards run on other machines and
//! merged afterwards ([`Engine::run_frontier`], [`frontier::Frontier::append`]).
//!
//! Chunks run in batches of [`CHUNKS_PER_THREAD_PER_BATCH`] per thread; each
//! batch is merged before the next starts, so memory stays O(threads), not
//! O(trials). Progress is reported as each chunk finishes.
//!
//! Cancellation ([`Stop`]) is polled by the simulations themselves, once
//! per trial or, inside a trial whose length the scenario controls, once
//! per unit of bounded cost (a block of encounters), so a run stops within a
//! fraction of a second however large its chunks are. A chunk that stops
//! early is thrown away with its whole run ([`EngineError::Interrupted`]):
//! polling never changes what a completed run computes.

pub mod accum;
pub mod checked;
pub mod frontier;
pub mod merge;
pub mod paired;
pub mod quantile;
pub mod ratio;
pub mod rng;
pub mod shard;
pub mod stats;
mod stop;
pub mod variant_groups;

pub use merge::Merge;
pub use stop::Stop;

use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

/// Chunks each thread gets per batch: a batch ends when its slowest thread
/// is done, so the others idle about half a chunk per batch; with 16 chunks
/// each that is about 3% of the run, and memory stays 16 accumulators per
/// thread.
pub const CHUNKS_PER_THREAD_PER_BATCH: usize = 16;

/// Receives progress from a run and may ask it to stop.
pub trait Progress: Sync {
    /// `trials` more trials are done.
    fn advance(&self, trials: u64);
    /// The run's cancellation flag (never requested by default).
    fn stop(&self) -> Stop<'_> {
        Stop::never()
    }
}

/// A [`Progress`] that ignores progress and never cancels.
pub struct NoProgress;

impl Progress for NoProgress {
    fn advance(&self, _trials: u64) {}
}

/// Why a run produced no result.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The progress sink's [`Stop`] was requested (e.g. Ctrl-C).
    #[error("interrupted")]
    Interrupted,
    /// The worker threads could not be started.
    #[error("cannot start {threads} worker threads: {reason}")]
    ThreadPool {
        /// Threads requested.
        threads: usize,
        /// The operating system's reason.
        reason: String,
    },
}

/// A pool of worker threads that runs chunked simulations.
pub struct Engine {
    pool: rayon::ThreadPool,
}

/// The shape of one run: how many trials, from which seed, in chunks of
/// how many trials.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunShape {
    /// Number of trials (at least 1).
    pub trials: u64,
    /// The run's seed.
    pub seed: u64,
    /// Trials per chunk (at least 1): the scenario type's constant.
    /// Changing it changes every figure of the type.
    pub chunk_trials: u64,
}

impl RunShape {
    /// Number of chunks of the run: chunk `i` holds trials
    /// `i * chunk_trials ..` up to the run's last trial.
    pub fn chunks(&self) -> u64 {
        self.trials.div_ceil(self.chunk_trials.max(1))
    }

    /// Trials in chunks `chunks` of the run.
    ///
    /// ```
    /// use woundsim::engine::RunShape;
    /// let run = RunShape { trials: 1000 + 5, seed: 0, chunk_trials: 1000 };
    /// assert_eq!(run.trials_in(0..2), 1000 + 5);
    /// assert_eq!(run.trials_in(1..2), 5);
    /// assert_eq!(run.trials_in(2..9), 0);
    /// ```
    pub fn trials_in(&self, chunks: std::ops::Range<u64>) -> u64 {
        let at = |c: u64| c.saturating_mul(self.chunk_trials.max(1)).min(self.trials);
        at(chunks.end).saturating_sub(at(chunks.start))
    }
}

impl Engine {
    /// An engine with `threads` workers (0 = one per available core).
    pub fn new(threads: usize) -> Result<Self, EngineError> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| EngineError::ThreadPool {
                threads,
                reason: e.to_string(),
            })?;
        Ok(Engine { pool })
    }

    /// An engine whose one worker is the calling thread, for where no
    /// thread can be started (wasm32 in a browser's Web Worker: the page
    /// runs one such engine per worker, each on its own range of chunks).
    /// Make one per thread and keep it: rayon keeps the pool's registry
    /// for the thread's lifetime.
    pub fn on_this_thread() -> Result<Self, EngineError> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .use_current_thread()
            .build()
            .map_err(|e| EngineError::ThreadPool {
                threads: 1,
                reason: e.to_string(),
            })?;
        Ok(Engine { pool })
    }

    /// Number of worker threads.
    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// Runs `shape.trials` trials. `new_acc` makes an empty accumulator;
    /// `simulate(rng, first_trial, count, acc, stop)` runs trials
    /// `first_trial..first_trial + count` of one chunk from that chunk's
    /// stream into `acc`, and may return early once `stop` is requested
    /// (the run then fails with [`EngineError::Interrupted`] and the chunk
    /// is never merged).
    ///
    /// ```
    /// use rand::Rng;
    /// use woundsim::engine::{Engine, Merge, NoProgress, RunShape};
    ///
    /// #[derive(Default)]
    /// struct Heads(u64);
    /// impl Merge for Heads {
    ///     fn merge(&mut self, later: Self) { self.0 += later.0; }
    /// }
    ///
    /// let engine = Engine::new(2).unwrap();
    /// let shape = RunShape { trials: 100_000, seed: 1, chunk_trials: 4096 };
    /// let heads = engine
    ///     .run(shape, &NoProgress, Heads::default, |rng, _, n, acc: &mut Heads, _stop| {
    ///         acc.0 += (0..n).filter(|_| rng.next_u64() >> 63 == 1).count() as u64;
    ///     })
    ///     .unwrap();
    /// assert!((heads.0 as i64 - 50_000).abs() < 1_000);
    /// ```
    pub fn run<A, N, S>(
        &self,
        shape: RunShape,
        progress: &dyn Progress,
        new_acc: N,
        simulate: S,
    ) -> Result<A, EngineError>
    where
        A: Merge,
        N: Fn() -> A + Sync,
        S: Fn(&mut Xoshiro256PlusPlus, u64, u64, &mut A, Stop<'_>) + Sync,
    {
        self.run_chunks(shape, 0..shape.chunks(), progress, new_acc, simulate)
    }

    /// Runs only chunks `chunks` of the run (clamped to the run's chunks)
    /// and merges them: the whole run's result when `chunks` is all of them.
    pub fn run_chunks<A, N, S>(
        &self,
        shape: RunShape,
        chunks: std::ops::Range<u64>,
        progress: &dyn Progress,
        new_acc: N,
        simulate: S,
    ) -> Result<A, EngineError>
    where
        A: Merge,
        N: Fn() -> A + Sync,
        S: Fn(&mut Xoshiro256PlusPlus, u64, u64, &mut A, Stop<'_>) + Sync,
    {
        let frontier = self.run_frontier(shape, chunks, progress, &new_acc, simulate)?;
        Ok(frontier.total().unwrap_or_else(new_acc))
    }

    /// Runs only chunks `chunks` of the run (clamped to the run's chunks)
    /// into the [`frontier::Frontier`] of their canonical merge tree: each
    /// chunk computes exactly what it computes in the whole run, so the
    /// frontiers of consecutive ranges (shards of a run on other machines,
    /// blocks of a run that checks its intervals as it goes) append into
    /// exactly the whole run's, bit for bit.
    pub fn run_frontier<A, N, S>(
        &self,
        shape: RunShape,
        chunks: std::ops::Range<u64>,
        progress: &dyn Progress,
        new_acc: N,
        simulate: S,
    ) -> Result<frontier::Frontier<A>, EngineError>
    where
        A: Merge,
        N: Fn() -> A + Sync,
        S: Fn(&mut Xoshiro256PlusPlus, u64, u64, &mut A, Stop<'_>) + Sync,
    {
        let stop = progress.stop();
        let last = chunks.end.min(shape.chunks());
        let batch = (self.threads() * CHUNKS_PER_THREAD_PER_BATCH) as u64;
        let mut total = frontier::Frontier::default();
        let mut next = chunks.start.min(last);
        while next < last {
            if stop.requested() {
                return Err(EngineError::Interrupted);
            }
            let end = (next + batch).min(last);
            let results: Vec<(u64, A)> = self.pool.install(|| {
                // One task per chunk, so an idle thread can take any of them.
                (next..end)
                    .collect::<Vec<u64>>()
                    .into_par_iter()
                    .with_max_len(1)
                    .map(|chunk| {
                        let first = chunk * shape.chunk_trials;
                        let count = shape.chunk_trials.min(shape.trials - first);
                        let mut rng = rng::chunk_rng(shape.seed, chunk);
                        let mut acc = new_acc();
                        simulate(&mut rng, first, count, &mut acc, stop);
                        if !stop.requested() {
                            progress.advance(count);
                        }
                        (chunk, acc)
                    })
                    .collect()
            });
            // A chunk may have stopped short: the flag stays set, so this
            // check sees every such chunk before it could be merged.
            if stop.requested() {
                return Err(EngineError::Interrupted);
            }
            for (chunk, acc) in results {
                total.push_chunk(chunk, acc);
            }
            next = end;
        }
        Ok(total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use accum::Moments;
    use rand::Rng;
    use std::sync::atomic::{AtomicBool, Ordering};

    /// Trials per chunk of the tests' runs.
    const CHUNK_TRIALS: u64 = 1 << 12;

    #[derive(Default)]
    struct Sums {
        moments: Moments,
        trials: u64,
    }

    impl Merge for Sums {
        fn merge(&mut self, later: Self) {
            self.moments.merge(&later.moments);
            self.trials += later.trials;
        }
    }

    fn run_with(threads: usize, trials: u64) -> Sums {
        run_on(&Engine::new(threads).unwrap(), trials)
    }

    /// `trials` uniform draws summed on `engine`.
    fn run_on(engine: &Engine, trials: u64) -> Sums {
        engine
            .run(
                RunShape {
                    trials,
                    seed: 9,
                    chunk_trials: CHUNK_TRIALS,
                },
                &NoProgress,
                Sums::default,
                |rng, _, n, acc, _| {
                    for _ in 0..n {
                        acc.moments
                            .push((rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64);
                    }
                    acc.trials += n;
                },
            )
            .unwrap()
    }

    #[test]
    fn an_engine_on_the_calling_thread_computes_what_a_pool_does() {
        let trials = 5 * CHUNK_TRIALS + 3;
        // In a thread of its own: the calling thread joins the engine for
        // good.
        let here = std::thread::spawn(move || {
            let engine = Engine::on_this_thread().unwrap();
            assert_eq!(engine.threads(), 1);
            let sums = run_on(&engine, trials);
            (sums.trials, sums.moments.mean().to_bits())
        })
        .join()
        .unwrap();
        let pool = run_with(2, trials);
        assert_eq!(here, (pool.trials, pool.moments.mean().to_bits()));
    }

    #[test]
    fn every_trial_runs_once_including_a_partial_last_chunk() {
        let trials = 3 * CHUNK_TRIALS + 17;
        assert_eq!(run_with(3, trials).trials, trials);
        assert_eq!(run_with(1, 5).trials, 5);
    }

    #[test]
    fn consecutive_chunk_ranges_merged_in_order_are_the_whole_run() {
        #[derive(Default, PartialEq, Debug)]
        struct Counts(Vec<u64>);
        impl Merge for Counts {
            fn merge(&mut self, later: Self) {
                self.0.extend(later.0);
            }
        }
        let shape = RunShape {
            trials: 5 * CHUNK_TRIALS + 9,
            seed: 4,
            chunk_trials: CHUNK_TRIALS,
        };
        let engine = Engine::new(2).unwrap();
        // Each chunk records its first draw and its trial count.
        let run = |chunks: std::ops::Range<u64>| {
            engine
                .run_chunks(
                    shape,
                    chunks,
                    &NoProgress,
                    Counts::default,
                    |rng, first, n, acc, _| {
                        acc.0.extend([rng.next_u64(), first, n]);
                    },
                )
                .unwrap()
        };
        let whole = run(0..shape.chunks());
        let mut split = run(0..2);
        split.merge(run(2..4));
        split.merge(run(4..100));
        assert_eq!(split, whole);
        assert_eq!(whole.0.len(), 3 * 6);
        assert_eq!(whole.0[17], 9, "the last chunk is partial");
    }

    #[test]
    fn float_results_are_bit_identical_across_thread_counts() {
        let trials = 9 * CHUNK_TRIALS + 3;
        let one = run_with(1, trials).moments;
        for threads in [2, 7] {
            let many = run_with(threads, trials).moments;
            assert_eq!(one.mean().to_bits(), many.mean().to_bits());
            assert_eq!(one.variance().to_bits(), many.variance().to_bits());
        }
    }

    /// A progress sink whose stop flag is `flag`.
    struct Cancel<'a>(&'a AtomicBool);
    impl Progress for Cancel<'_> {
        fn advance(&self, _: u64) {}
        fn stop(&self) -> Stop<'_> {
            Stop::on(self.0)
        }
    }

    #[test]
    fn cancellation_stops_before_the_next_batch() {
        let flag = AtomicBool::new(true);
        let engine = Engine::new(1).unwrap();
        let result = engine.run(
            RunShape {
                trials: 10,
                seed: 1,
                chunk_trials: CHUNK_TRIALS,
            },
            &Cancel(&flag),
            Sums::default,
            |_, _, _, _, _| panic!("no chunk runs once the stop is requested"),
        );
        assert!(matches!(result, Err(EngineError::Interrupted)));
    }

    #[test]
    fn a_stop_requested_inside_the_last_batch_discards_it() {
        // One batch holds every chunk; the first chunk requests the stop
        // half way, the way a signal would. Nothing may be returned.
        let flag = AtomicBool::new(false);
        let engine = Engine::new(2).unwrap();
        let result = engine.run(
            RunShape {
                trials: 3 * CHUNK_TRIALS,
                seed: 1,
                chunk_trials: CHUNK_TRIALS,
            },
            &Cancel(&flag),
            Sums::default,
            |_, first, n, acc, stop| {
                for t in 0..n {
                    if first == 0 && t == n / 2 {
                        flag.store(true, Ordering::Relaxed);
                    }
                    if stop.requested() {
                        return;
                    }
                    acc.trials += 1;
                }
            },
        );
        assert!(matches!(result, Err(EngineError::Interrupted)));
    }
}
