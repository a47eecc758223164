//! Throughput of the combat round loop (divan): the reference encounter of
//! the combat issue, four level-5 PCs against six hobgoblins (RAW), one and
//! two threads, fixed seed; and the same encounter with positions on
//! (docs/combat.md, "Positions").
//!
//! `cargo bench --bench combat`

use woundsim::types::Scenario;

mod common;

fn main() {
    divan::main();
}

/// 524,288 fights (256 chunks of 2,048): the sample size the es5e
/// comparison and the README's figure were measured at.
const TRIALS: u64 = 1 << 19;

const REFERENCE: &str = r#"
version = 1
name = "bench-hobgoblins"
type = "combat"
trials = 1
seed = 7
[options]
party = [
  { template = "fighter-5", name = "fighter" },
  { template = "cleric-5", name = "cleric" },
  { template = "rogue-5", name = "rogue" },
  { template = "wizard-5", name = "wizard" },
]
monsters = [{ creature = "hobgoblin", count = 6 }]
"#;

fn reference() -> Scenario {
    parsed(REFERENCE.to_string())
}

fn parsed(text: String) -> Scenario {
    let mut s = woundsim::types::parse(
        &woundsim::scenario::data::builtin_catalog().expect("valid data"),
        "bench.toml",
        &text,
    )
    .expect("valid reference scenario");
    s.header.trials = TRIALS;
    s
}

#[divan::bench(args = [1, 2], sample_count = 5)]
fn four_level_5_pcs_vs_six_hobgoblins(bencher: divan::Bencher, threads: usize) {
    common::bench_run(bencher, &reference(), threads);
}

#[divan::bench(args = [1, 2], sample_count = 5)]
fn the_same_with_positions(bencher: divan::Bencher, threads: usize) {
    let s = parsed(format!("{REFERENCE}positions = true\n"));
    common::bench_run(bencher, &s, threads);
}

/// The shipped `combat-hobgoblins` at its own 200,000 fights a variant:
/// the run a user starts with `woundsim run combat-hobgoblins`.
#[divan::bench(args = [1, 2], sample_count = 3)]
fn combat_hobgoblins_shipped(bencher: divan::Bencher, threads: usize) {
    common::bench_run(bencher, &common::shipped("combat-hobgoblins"), threads);
}
