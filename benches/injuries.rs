//! Throughput of the lingering-injury pipeline (divan): campaigns of the
//! built-in `lingering-injuries` and `injury-costs` scenarios (attack rolls,
//! triggers, d100 entries, cheapest cures sampled) and festering wounds.
//! Fixed seeds; a sequential and a parallel variant of each.
//!
//! `cargo bench --bench injuries`

mod common;

fn main() {
    divan::main();
}

const TRIALS: u64 = 200_000;

fn bench_scenario(bencher: divan::Bencher, name: &str, threads: usize) {
    common::bench_run(bencher, &common::with_trials(name, TRIALS), threads);
}

/// Campaigns of 20 encounters (6 attack rolls each) per second.
#[divan::bench(args = [1, 2], sample_count = 5)]
fn lingering_injury_campaigns(bencher: divan::Bencher, threads: usize) {
    bench_scenario(bencher, "lingering-injuries", threads);
}

/// Campaigns with the healing-cost model under eight resource sets.
#[divan::bench(args = [1, 2], sample_count = 5)]
fn injury_cost_campaigns(bencher: divan::Bencher, threads: usize) {
    bench_scenario(bencher, "injury-costs", threads);
}

/// Festering wounds (daily Medicine checks until closed or dead).
#[divan::bench(args = [1, 2], sample_count = 5)]
fn festering_wounds(bencher: divan::Bencher, threads: usize) {
    bench_scenario(bencher, "festering-wounds", threads);
}

/// Exact mode of the three scenarios (closed forms, no sampling).
#[divan::bench(sample_count = 5)]
fn exact_injury_scenarios() {
    for name in ["lingering-injuries", "injury-costs", "festering-wounds"] {
        divan::black_box(woundsim::types::solve(&common::shipped(name)).expect("exact"));
    }
}

/// The shipped `lingering-injuries` at its own 1,000,000 trials a variant.
#[divan::bench(args = [1, 2], sample_count = 3)]
fn lingering_injuries_shipped(bencher: divan::Bencher, threads: usize) {
    common::bench_run(bencher, &common::shipped("lingering-injuries"), threads);
}

/// The shipped `festering-wounds` at its own 1,000,000 trials a variant.
#[divan::bench(args = [1, 2], sample_count = 3)]
fn festering_wounds_shipped(bencher: divan::Bencher, threads: usize) {
    common::bench_run(bencher, &common::shipped("festering-wounds"), threads);
}
