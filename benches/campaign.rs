//! Throughput of the campaign loop (divan): the shipped
//! `campaign-healing-settings` scenario (four PCs, levels 1-10, 20 fights a
//! career, four variants on common random numbers), one and two threads,
//! fixed seed, at the scenario's own trial count (20,000 careers a variant:
//! the run a user starts with `woundsim run campaign-healing-settings`) and
//! at a large one (131,072 a variant). Items are careers: trials times
//! variants.
//!
//! `cargo bench --bench campaign`

use divan::counter::ItemsCount;
use woundsim::engine::{Engine, NoProgress};
use woundsim::types::Scenario;

fn main() {
    divan::main();
}

/// The large run's careers per variant (1,024 chunks of 128).
const LARGE: u64 = 1 << 17;

fn shipped() -> Scenario {
    let catalog = woundsim::scenario::data::builtin_catalog().expect("valid data");
    woundsim::builtin::all(&catalog)
        .expect("valid shipped scenarios")
        .into_iter()
        .find(|s| s.header.name == "campaign-healing-settings")
        .expect("the shipped campaign")
}

#[divan::bench(args = [1, 2], sample_count = 3)]
fn campaign_healing_settings(bencher: divan::Bencher, threads: usize) {
    bench(bencher, shipped(), threads);
}

#[divan::bench(args = [1, 2], sample_count = 3)]
fn campaign_healing_settings_large(bencher: divan::Bencher, threads: usize) {
    let mut s = shipped();
    s.header.trials = LARGE;
    bench(bencher, s, threads);
}

fn bench(bencher: divan::Bencher, s: Scenario, threads: usize) {
    let careers = s.header.trials * s.variant_names().len() as u64;
    let engine = Engine::new(threads).expect("thread pool");
    bencher
        .counter(ItemsCount::new(careers))
        .bench(|| woundsim::types::simulate(&s, &engine, &NoProgress).expect("run"));
}
