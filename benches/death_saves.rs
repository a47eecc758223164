//! Throughput of death-save sequences (divan). Fixed seeds; a sequential and
//! a parallel variant of the same scenario.
//!
//! `cargo bench --bench death_saves`

use divan::counter::ItemsCount;
use woundsim::builtin;
use woundsim::engine::{Engine, NoProgress};

fn main() {
    divan::main();
}

const TRIALS: u64 = 2_000_000;

fn scenario() -> woundsim::types::Scenario {
    let mut s = builtin::find(
        &woundsim::scenario::data::builtin_catalog().expect("valid data"),
        "death-saves",
    )
    .expect("built-in")
    .expect("valid");
    s.header.trials = TRIALS;
    s
}

/// Sequences per iteration: trials × variants.
fn sequences(s: &woundsim::types::Scenario) -> u64 {
    TRIALS * s.variant_names().len() as u64
}

#[divan::bench(args = [1, 2], sample_count = 10)]
fn death_saves_scenario(bencher: divan::Bencher, threads: usize) {
    let s = scenario();
    let engine = Engine::new(threads).expect("thread pool");
    bencher
        .counter(ItemsCount::new(sequences(&s)))
        .bench(|| woundsim::types::simulate(&s, &engine, &NoProgress).expect("run"));
}

/// The built-in scenario `name` at its own trial count: the run a user
/// starts with `woundsim run NAME`, the figure the README quotes.
fn shipped(name: &str) -> woundsim::types::Scenario {
    builtin::find(
        &woundsim::scenario::data::builtin_catalog().expect("valid data"),
        name,
    )
    .expect("built-in")
    .expect("valid")
}

/// `s` on `threads` threads, counting trials × variants.
fn bench_as_shipped(bencher: divan::Bencher, s: woundsim::types::Scenario, threads: usize) {
    let items = s.header.trials * s.variant_names().len() as u64;
    let engine = Engine::new(threads).expect("thread pool");
    bencher
        .counter(ItemsCount::new(items))
        .bench(|| woundsim::types::simulate(&s, &engine, &NoProgress).expect("run"));
}

/// The shipped `death-saves` at its own 20,000,000 trials a variant.
#[divan::bench(args = [1, 2], sample_count = 3)]
fn death_saves_shipped(bencher: divan::Bencher, threads: usize) {
    bench_as_shipped(bencher, shipped("death-saves"), threads);
}
