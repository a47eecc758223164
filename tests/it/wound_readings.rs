//! The permanent wounds' two options in whole fights (docs/rules.md, "What
//! a wound does" and "Two readings"): `wound_attack_disadvantage` (off by
//! default) and `lost_leg_prosthesis` (on by default). Each default is the
//! same fight as the key written out with its default value, on the same
//! random numbers; the other value changes the figures.

use crate::common;

fn parse(text: &str) -> woundsim::types::Scenario {
    woundsim::types::parse(common::catalog(), "wound_readings.toml", text)
        .unwrap_or_else(|e| panic!("{e}"))
}

/// A chain of hard fights in which PCs accept wounds and fight on with them.
const CHAIN: &str = r#"version = 1
name = "wounded-chain"
type = "combat"
trials = 4000
seed = 29
[options]
party = [
  { template = "fighter-3", name = "a" },
  { template = "fighter-3", name = "b" },
  { template = "rogue-3", name = "c" },
  { template = "cleric-3", name = "d" },
]
monsters = [{ creature = "ogre", count = 2 }]
attack_downed = "sometimes"
wound_policy = "accept_least_severe"
encounters = 8
"#;

/// Variant `default` against `same` (the key at its default value) and
/// `other` (the other value): identical, and different somewhere.
fn check(variants: &str) {
    let s = parse(&format!("{CHAIN}{variants}"));
    let r = common::run(&s, 4000, 2);
    let (mut compared, mut differ) = (0, 0);
    for f in r.figures.iter().filter(|f| f.variant == "default") {
        let same = r.figure("same", &f.metric).unwrap();
        let other = r.figure("other", &f.metric).unwrap();
        assert_eq!(
            f.estimate.value.to_bits(),
            same.estimate.value.to_bits(),
            "{}",
            f.metric
        );
        compared += 1;
        if f.estimate.value.to_bits() != other.estimate.value.to_bits() {
            differ += 1;
        }
    }
    assert!(compared > 10);
    assert!(differ > 0, "the other value changed no figure");
}

#[test]
fn strength_attack_disadvantage_is_off_by_default_and_changes_the_fights_when_on() {
    check(
        r#"[[variant]]
name = "default"
[[variant]]
name = "same"
wound_attack_disadvantage = false
[[variant]]
name = "other"
wound_attack_disadvantage = true
"#,
    );
}

#[test]
fn a_lost_leg_has_a_prosthesis_by_default_and_limps_slower_without() {
    check(
        r#"[[variant]]
name = "default"
positions = true
[[variant]]
name = "same"
positions = true
lost_leg_prosthesis = true
[[variant]]
name = "other"
positions = true
lost_leg_prosthesis = false
"#,
    );
}
