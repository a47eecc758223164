//! Throughput of the lingering-injury pipeline (divan): campaigns of the
//! built-in `lingering-injuries` and `injury-costs` scenarios (attack rolls,
//! triggers, d100 entries, cheapest cures sampled) and festering wounds.
//! Fixed seeds; a sequential and a parallel variant of each.
//!
//! `cargo bench --bench injuries`

use divan::counter::ItemsCount;
use woundsim::builtin;
use woundsim::engine::{Engine, NoProgress};
use woundsim::types::Scenario;

fn main() {
    divan::main();
}

const TRIALS: u64 = 200_000;

fn scenario(name: &str) -> Scenario {
    let mut s = builtin::find(
        &woundsim::scenario::data::builtin_catalog().expect("valid data"),
        name,
    )
    .expect("built-in")
    .expect("valid");
    s.header.trials = TRIALS;
    s
}

/// Trials per iteration: trials × variants.
fn items(s: &Scenario) -> u64 {
    TRIALS * s.variant_names().len() as u64
}

fn bench_scenario(bencher: divan::Bencher, name: &str, threads: usize) {
    let s = scenario(name);
    let engine = Engine::new(threads).expect("thread pool");
    bencher
        .counter(ItemsCount::new(items(&s)))
        .bench(|| woundsim::types::simulate(&s, &engine, &NoProgress).expect("run"));
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
        divan::black_box(woundsim::types::solve(&scenario(name)).expect("exact"));
    }
}

/// The built-in scenario `name` at its own trial count: the run a user
/// starts with `woundsim run NAME`, the figure the README quotes.
fn shipped(name: &str) -> Scenario {
    builtin::find(
        &woundsim::scenario::data::builtin_catalog().expect("valid data"),
        name,
    )
    .expect("built-in")
    .expect("valid")
}

/// `s` on `threads` threads, counting trials × variants.
fn bench_as_shipped(bencher: divan::Bencher, s: Scenario, threads: usize) {
    let items = s.header.trials * s.variant_names().len() as u64;
    let engine = Engine::new(threads).expect("thread pool");
    bencher
        .counter(ItemsCount::new(items))
        .bench(|| woundsim::types::simulate(&s, &engine, &NoProgress).expect("run"));
}

/// The shipped `lingering-injuries` at its own 1,000,000 trials a variant.
#[divan::bench(args = [1, 2], sample_count = 3)]
fn lingering_injuries_shipped(bencher: divan::Bencher, threads: usize) {
    bench_as_shipped(bencher, shipped("lingering-injuries"), threads);
}

/// The shipped `festering-wounds` at its own 1,000,000 trials a variant.
#[divan::bench(args = [1, 2], sample_count = 3)]
fn festering_wounds_shipped(bencher: divan::Bencher, threads: usize) {
    bench_as_shipped(bencher, shipped("festering-wounds"), threads);
}
