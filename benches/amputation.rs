//! Throughput of amputation races with reattachment (divan). Fixed seeds; a
//! sequential and a parallel run of each built-in amputation scenario, at
//! 200,000 trials a variant and (`amputation_shipped`) at its own
//! 1,000,000. Items are races: trials times variants.
//!
//! `cargo bench --bench amputation`

mod common;

fn main() {
    divan::main();
}

const TRIALS: u64 = 200_000;

#[divan::bench(args = [1, 2], sample_count = 5)]
fn amputation_scenario(bencher: divan::Bencher, threads: usize) {
    common::bench_run(bencher, &common::with_trials("amputation", TRIALS), threads);
}

#[divan::bench(args = [1, 2], sample_count = 5)]
fn reattachment_scenario(bencher: divan::Bencher, threads: usize) {
    common::bench_run(
        bencher,
        &common::with_trials("reattachment", TRIALS),
        threads,
    );
}

#[divan::bench(sample_count = 5)]
fn amputation_exact(bencher: divan::Bencher) {
    let s = common::shipped("amputation");
    bencher.bench(|| woundsim::types::solve(&s).expect("exact solution"));
}

/// The shipped `amputation` at its own 1,000,000 trials a variant.
#[divan::bench(args = [1, 2], sample_count = 3)]
fn amputation_shipped(bencher: divan::Bencher, threads: usize) {
    common::bench_run(bencher, &common::shipped("amputation"), threads);
}
