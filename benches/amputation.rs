//! Throughput of amputation races with reattachment (divan). Fixed seeds; a
//! sequential and a parallel run of each built-in amputation scenario.
//!
//! `cargo bench --bench amputation`

use divan::counter::ItemsCount;
use woundsim::builtin;
use woundsim::engine::{Engine, NoProgress};

fn main() {
    divan::main();
}

const TRIALS: u64 = 200_000;

fn scenario(name: &str) -> woundsim::types::Scenario {
    let mut s = builtin::find(
        &woundsim::scenario::data::builtin_catalog().expect("valid data"),
        name,
    )
    .expect("built-in")
    .expect("valid");
    s.header.trials = TRIALS;
    s
}

/// Races per iteration: trials × variants.
fn races(s: &woundsim::types::Scenario) -> u64 {
    TRIALS * s.variant_names().len() as u64
}

#[divan::bench(args = [1, 2], sample_count = 5)]
fn amputation_scenario(bencher: divan::Bencher, threads: usize) {
    let s = scenario("amputation");
    let engine = Engine::new(threads).expect("thread pool");
    bencher
        .counter(ItemsCount::new(races(&s)))
        .bench(|| woundsim::types::simulate(&s, &engine, &NoProgress).expect("run"));
}

#[divan::bench(args = [1, 2], sample_count = 5)]
fn reattachment_scenario(bencher: divan::Bencher, threads: usize) {
    let s = scenario("reattachment");
    let engine = Engine::new(threads).expect("thread pool");
    bencher
        .counter(ItemsCount::new(races(&s)))
        .bench(|| woundsim::types::simulate(&s, &engine, &NoProgress).expect("run"));
}

#[divan::bench(sample_count = 5)]
fn amputation_exact(bencher: divan::Bencher) {
    let s = scenario("amputation");
    bencher.bench(|| woundsim::types::solve(&s).expect("exact solution"));
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

/// The shipped `amputation` at its own 1,000,000 trials a variant.
#[divan::bench(args = [1, 2], sample_count = 3)]
fn amputation_shipped(bencher: divan::Bencher, threads: usize) {
    bench_as_shipped(bencher, shipped("amputation"), threads);
}
