//! Condition immunities (a stat block's "Condition Immunities"): no spell,
//! hit or feature puts a condition on a creature immune to it; Legendary
//! Resistance is not spent against one; the casting policy aims a
//! condition at a creature that can take it.

use super::*;
use crate::combat::spell::{Condition, bits};

/// `spec` immune to `conditions`.
fn immune(mut spec: CreatureSpec, conditions: &[Condition]) -> CreatureSpec {
    for &c in conditions {
        spec.condition_immune |= 1 << c as u16;
    }
    assert!(conditions.iter().all(|&c| spec.immune_to(c)));
    spec
}

/// The index of spell `name` among `spec`'s known spells.
fn known(spec: &CreatureSpec, name: &str) -> usize {
    spec.known_spells
        .iter()
        .position(|k| k.spell.name == name)
        .unwrap_or_else(|| panic!("{} does not know {name}", spec.name))
}

#[test]
fn a_spell_aims_its_condition_at_a_creature_that_can_take_it() {
    // Cleric-5's hold person (DC 15) against a goblin immune to Paralyzed
    // (fighter 1, with Legendary Resistance) and one that is not.
    let mut warded = immune(goblin(), &[Condition::Paralyzed]);
    warded.legendary_resistance = 1;
    let mut t = Table::new(
        vec![template("cleric-5")],
        vec![warded.clone(), goblin()],
        EncounterRules::default(),
    );
    let k = known(&t.enc.all[0], "hold_person");
    let Table { enc, arena, out } = &mut t;
    // One open target (no choice), its failed save (5 - 1 < 15).
    with_dice(&[(1, 1), (5, 20)], |rng| {
        enc.cast_known(rng, arena, 0, k, 2, out)
    });
    assert_eq!(t.f(1).spells.conditions, 0);
    assert_eq!(t.f(2).spells.conditions, Condition::Paralyzed.bits());
    // Both immune: the policy's target fails its save, keeps its
    // Legendary Resistance, and is not paralyzed.
    let mut t = Table::new(
        vec![template("cleric-5")],
        vec![warded.clone(), warded],
        EncounterRules::default(),
    );
    let Table { enc, arena, out } = &mut t;
    with_dice(&[(1, 2), (5, 20)], |rng| {
        enc.cast_known(rng, arena, 0, k, 2, out)
    });
    assert_eq!(t.f(1).spells.conditions, 0);
    assert_eq!(t.f(1).legendary_resistances, 1);
    // Not immune but with Legendary Resistance left (the casting policy
    // values holding it at nothing): the other goblin is the target.
    let mut resisting = goblin();
    resisting.legendary_resistance = 1;
    let mut t = Table::new(
        vec![template("cleric-5")],
        vec![resisting, goblin()],
        EncounterRules::default(),
    );
    let Table { enc, arena, out } = &mut t;
    with_dice(&[(1, 1), (5, 20)], |rng| {
        enc.cast_known(rng, arena, 0, k, 2, out)
    });
    assert_eq!(t.f(1).legendary_resistances, 1);
    assert_eq!(t.f(1).spells.conditions, 0);
    assert_eq!(t.f(2).spells.conditions, Condition::Paralyzed.bits());
}

#[test]
fn the_casting_policy_values_a_condition_only_on_those_it_can_hold() {
    let cleric = template("cleric-5");
    let k = known(&cleric, "hold_person");
    let value = |monsters: Vec<CreatureSpec>| {
        let t = Table::new(vec![cleric.clone()], monsters, EncounterRules::default());
        let foes = t.enc.foes(&t.arena, 0);
        t.enc.spell_value(&t.arena, 0, k, 2, &foes)
    };
    assert!(value(vec![goblin()]) > 0.0);
    assert_eq!(value(vec![immune(goblin(), &[Condition::Paralyzed])]), 0.0);
}

#[test]
fn a_hit_neither_knocks_down_nor_grapples_a_creature_immune_to_it() {
    // SRD 5.2 dire wolf: "If the target is a Large or smaller creature, it
    // has the Prone condition" (15 + 5 hits AC 18; 1d10 + 3).
    let fighter = immune(fighter(), &[Condition::Prone]);
    let mut t = Table::new(
        vec![fighter],
        vec![monster("dire-wolf")],
        EncounterRules::default(),
    );
    t.attack(1, 0, &[(15, 20), (4, 10)]);
    assert_eq!(t.f(0).spells.conditions & bits::PRONE, 0);
    // The crocodile's bite grapples and restrains: immune to Restrained,
    // only grappled; immune to Grappled, neither.
    let croc = monster("crocodile");
    let mut t = Table::new(
        vec![
            immune(super::fighter(), &[Condition::Restrained]),
            immune(super::fighter(), &[Condition::Grappled]),
        ],
        vec![croc.clone(), croc],
        EncounterRules::default(),
    );
    t.attack(2, 0, &[(15, 20), (1, 8)]);
    t.attack(3, 1, &[(15, 20), (1, 8)]);
    assert_eq!(t.f(0).spells.conditions, bits::GRAPPLED);
    assert_eq!(t.f(1).spells.conditions, 0);
}
