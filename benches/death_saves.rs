//! Throughput of death-save sequences (divan). Fixed seeds; one and two
//! threads; the shipped `death-saves` at 2,000,000 trials a variant and
//! at its own 20,000,000. Items are sequences: trials times variants.
//!
//! `cargo bench --bench death_saves`

mod common;

fn main() {
    divan::main();
}

const TRIALS: u64 = 2_000_000;

#[divan::bench(args = [1, 2], sample_count = 10)]
fn death_saves_scenario(bencher: divan::Bencher, threads: usize) {
    common::bench_run(
        bencher,
        &common::with_trials("death-saves", TRIALS),
        threads,
    );
}

/// The shipped `death-saves` at its own 20,000,000 trials a variant.
#[divan::bench(args = [1, 2], sample_count = 3)]
fn death_saves_shipped(bencher: divan::Bencher, threads: usize) {
    common::bench_run(bencher, &common::shipped("death-saves"), threads);
}
