//! Cost of reading a scenario under many `--set` flags (divan): the
//! shipped `death-saves.toml` read with 5,000 and with 50,000 copies of
//! `--set dc=11`. The cost grows in proportion to the number of flags
//! (it was quadratic: each flag moved every layer below it, in every
//! variant); compare the two rows' time per flag.
//!
//! `cargo bench --bench overrides`

use divan::counter::ItemsCount;
use woundsim::scenario::command::CommandLayers;
use woundsim::scenario::overrides::Override;

fn main() {
    divan::main();
}

#[divan::bench(args = [5_000, 50_000], sample_count = 5)]
fn scenario_with_sets(bencher: divan::Bencher, sets: usize) {
    let catalog = woundsim::scenario::data::builtin_catalog().expect("valid data");
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/death-saves.toml"),
    )
    .expect("shipped scenario");
    let flags = vec![Override::parse("dc=11").expect("valid flag"); sets];
    let layers = CommandLayers::sets(&flags);
    bencher.counter(ItemsCount::new(sets)).bench(|| {
        woundsim::types::parse_with(&catalog, "death-saves.toml", &text, &layers)
            .expect("valid scenario")
    });
}
