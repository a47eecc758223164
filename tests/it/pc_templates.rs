//! Every PC template (the twelve SRD classes at levels 1–20) loads by name
//! in a scenario's party and fights; `woundsim show` prints a template.

use crate::common;

use common::cli::{stdout, woundsim};
use woundsim::engine::{Engine, NoProgress};

const CLASSES: [&str; 12] = [
    "barbarian",
    "bard",
    "cleric",
    "druid",
    "fighter",
    "monk",
    "paladin",
    "ranger",
    "rogue",
    "sorcerer",
    "warlock",
    "wizard",
];

#[test]
fn every_class_at_every_level_loads_and_fights() {
    let catalog = common::catalog();
    let mut classes = catalog.templates.classes();
    classes.sort_unstable();
    assert_eq!(classes, CLASSES);
    let engine = Engine::new(1).unwrap();
    for class in CLASSES {
        for level in 1..=20 {
            let name = format!("{class}-{level}");
            let text = format!(
                "version = 1\nname = \"t\"\ntype = \"combat\"\ntrials = 200\nseed = 5\n[options]\n\
                 party = [{{ template = \"{name}\", name = \"pc\" }}, {{ template = \"fighter-{level}\", name = \"ally\" }}]\n\
                 monsters = [{{ creature = \"hobgoblin\", count = {} }}]\nround_cap = 40\n",
                1 + level / 4
            );
            let s = woundsim::types::parse(catalog, "t.toml", &text)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            let r = woundsim::types::simulate(&s, &engine, &NoProgress).unwrap();
            for f in &r.figures {
                assert!(f.estimate.value.is_finite(), "{name}: {}", f.metric);
            }
            let value = |m: &str| r.figure("base", m).unwrap().estimate.value;
            assert!(value("p_timeout") < 1.0, "{name}: no fight ended");
            assert!(value("p_party_win") > 0.0, "{name}: never won");
            assert!((1.0..=40.0).contains(&value("mean_rounds")), "{name}");
        }
    }
}

#[test]
fn show_prints_a_template() {
    // A class feature not modelled is listed from the level the class
    // gains it.
    assert!(!stdout(&["show", "druid-1"]).contains("Wild Shape"));
    assert!(!stdout(&["show", "bard-9"]).contains("Magical Secrets"));
    for (name, needles) in [
        (
            "fighter-7",
            &[
                "fighter-7 (PC, level 7, Medium)",
                "Hit points 60",
                "longsword: +7 to hit, 1d8+6 slashing",
                "Attack action: longsword, longsword",
                "critical hit on 19-20",
            ][..],
        ),
        (
            "bard-14",
            &[
                "bard-14 (PC, level 14, Medium)",
                "rapier: +7 to hit, 1d8+2 piercing",
                "Heals an ally for 1d4+5 (bonus action, 17 uses)",
                "Class features not modelled",
                "Magical Secrets (10)",
            ][..],
        ),
        (
            "druid-9",
            &[
                "Class features not modelled",
                "Wild Shape (2 uses per short rest, an action): druid-9 as giant-hyena (45 HP",
                "- Wild Shape's other beasts",
                "- Circle of the Land (2:",
            ][..],
        ),
        (
            "sorcerer-5",
            &[
                "Quickened Spell: an action spell cast as a bonus action for 2 of 5 sorcery points",
                "- Flexible Casting (2)",
            ][..],
        ),
        (
            "warlock-13",
            &[
                "Pact Magic: 3 slots of 5th level (back on a short rest)",
                "Mystic Arcanum: one spell each of 6th, 7th level (per long rest)",
                "Finger of Death (level 7, action)",
                "Dark One's Blessing: 18 temporary hit points",
                "Fiendish Vigor: false life at will before each fight, 1d4 + 4 temporary hit points",
                "Repelling Blast: each eldritch blast hit pushes a Large or smaller creature 10 ft away",
            ][..],
        ),
    ] {
        let text = stdout(&["show", name]);
        for needle in needles {
            assert!(text.contains(needle), "{name}: {needle}\n{text}");
        }
    }
    woundsim()
        .args(["show", "fighter-21"])
        .assert()
        .code(2)
        .stdout("");
}
