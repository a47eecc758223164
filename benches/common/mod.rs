//! What the throughput benches share: the shipped scenarios, at their own
//! trial counts or another, and one timed run counting trials × variants.

use divan::counter::ItemsCount;
use woundsim::engine::{Engine, NoProgress};
use woundsim::types::Scenario;

/// The built-in scenario `name` at its own trial count: the run a user
/// starts with `woundsim run NAME`, the figure the README quotes.
pub fn shipped(name: &str) -> Scenario {
    woundsim::builtin::find(
        &woundsim::scenario::data::builtin_catalog().expect("valid data"),
        name,
    )
    .expect("built-in")
    .expect("valid")
}

/// The built-in scenario `name` at `trials` trials a variant.
#[allow(dead_code)] // not every bench runs a shipped scenario at another size
pub fn with_trials(name: &str, trials: u64) -> Scenario {
    let mut s = shipped(name);
    s.header.trials = trials;
    s
}

/// Times the Monte Carlo run of `s` on `threads` threads, counting its
/// trials times its variants.
pub fn bench_run(bencher: divan::Bencher, s: &Scenario, threads: usize) {
    let items = s.header.trials * s.variant_names().len() as u64;
    let engine = Engine::new(threads).expect("thread pool");
    bencher
        .counter(ItemsCount::new(items))
        .bench(|| woundsim::types::simulate(s, &engine, &NoProgress).expect("run"));
}
