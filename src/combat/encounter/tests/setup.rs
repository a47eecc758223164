//! Setting an encounter up: the one-handed fall-back of a two-handed attack.

use super::*;

#[test]
fn a_lost_arm_forces_a_one_handed_attack() {
    let orc = monster("orc"); // greataxe (two-handed), javelin (ranged)
    let enc = Encounter::new(
        vec![fighter()],
        vec![orc],
        EncounterRules::default(),
        crate::fixtures::catalog().wound_examples.clone(),
    );
    let fallback = &enc.one_handed[1][0];
    assert!(!fallback.two_handed);
    assert_eq!(
        fallback.damage.sides, 8,
        "no one-handed melee attack: the d12 becomes a d8"
    );
}
