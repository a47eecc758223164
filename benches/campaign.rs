//! Throughput of the campaign loop (divan): the shipped
//! `campaign-healing-settings` scenario (four PCs, levels 1-10, 20 fights a
//! career, four variants on common random numbers), one and two threads,
//! fixed seed. Items are careers: trials times variants.
//!
//! `cargo bench --bench campaign`

use divan::counter::ItemsCount;
use woundsim::engine::{Engine, NoProgress};
use woundsim::types::Scenario;

fn main() {
    divan::main();
}

/// Two whole chunks, so two threads get equal work.
const TRIALS: u64 = 2 * woundsim::engine::CHUNK_TRIALS;

fn shipped() -> Scenario {
    let catalog = woundsim::scenario::data::builtin_catalog().expect("valid data");
    let mut s = woundsim::builtin::all(&catalog)
        .expect("valid shipped scenarios")
        .into_iter()
        .find(|s| s.header.name == "campaign-healing-settings")
        .expect("the shipped campaign");
    s.header.trials = TRIALS;
    s
}

#[divan::bench(args = [1, 2], sample_count = 3)]
fn campaign_healing_settings(bencher: divan::Bencher, threads: usize) {
    let s = shipped();
    let careers = TRIALS * s.variant_names().len() as u64;
    let engine = Engine::new(threads).expect("thread pool");
    bencher
        .counter(ItemsCount::new(careers))
        .bench(|| woundsim::types::simulate(&s, &engine, &NoProgress).expect("run"));
}
