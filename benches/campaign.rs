//! Throughput of the campaign loop (divan): the shipped
//! `campaign-healing-settings` scenario (four PCs, levels 1-10, 20 fights a
//! career, four variants on common random numbers), one and two threads,
//! fixed seed, at the scenario's own trial count (20,000 careers a variant:
//! the run a user starts with `woundsim run campaign-healing-settings`) and
//! at a large one (131,072 a variant). Items are careers: trials times
//! variants.
//!
//! `cargo bench --bench campaign`

mod common;

fn main() {
    divan::main();
}

/// The large run's careers per variant (1,024 chunks of 128).
const LARGE: u64 = 1 << 17;

#[divan::bench(args = [1, 2], sample_count = 3)]
fn campaign_healing_settings(bencher: divan::Bencher, threads: usize) {
    common::bench_run(
        bencher,
        &common::shipped("campaign-healing-settings"),
        threads,
    );
}

#[divan::bench(args = [1, 2], sample_count = 3)]
fn campaign_healing_settings_large(bencher: divan::Bencher, threads: usize) {
    let s = common::with_trials("campaign-healing-settings", LARGE);
    common::bench_run(bencher, &s, threads);
}
