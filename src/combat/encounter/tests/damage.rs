//! Damage in the round loop: dropping to 0 HP, massive damage, damage at
//! 0 HP as death-save failures, defenses, regeneration.

use super::*;
use crate::rules::permanent_wounds::{Severity, WoundPolicy};

#[test]
fn monsters_die_at_zero_pcs_start_dying() {
    let mut t = Table::duel(EncounterRules::default());
    t.deal(1, slashing(7, false), &[]);
    assert_eq!(t.f(1).state, State::Dead);
    t.deal(0, slashing(12, false), &[]);
    assert_eq!(t.state(0), (State::Dying, 0));
    assert!(t.f(0).went_down);
}

#[test]
fn massive_damage_kills_outright() {
    let mut t = Table::duel(EncounterRules::default());
    // 12 HP: 24 damage leaves an overflow of 12 = max HP.
    t.deal(0, slashing(24, false), &[]);
    assert_eq!(t.f(0).state, State::Dead);
    let mut t = Table::duel(EncounterRules::default());
    t.deal(0, slashing(23, false), &[]);
    assert_eq!(t.f(0).state, State::Dying, "overflow 11 < 12");
    // At 0 HP, a single blow of at least max HP kills.
    t.deal(0, slashing(12, false), &[]);
    assert_eq!(t.f(0).state, State::Dead);
    // Without the rule, the overflow does not kill.
    let mut t = Table::duel(EncounterRules {
        massive_damage: false,
        ..Default::default()
    });
    t.deal(0, slashing(100, false), &[]);
    assert_eq!(t.f(0).state, State::Dying);
}

#[test]
fn damage_at_zero_is_one_failure_a_critical_two() {
    let mut t = Table::duel(EncounterRules::default());
    t.dying(0, 0, 0);
    t.deal(0, slashing(3, false), &[]);
    assert_eq!(t.f(0).tally.failures, 1);
    t.deal(0, slashing(3, true), &[]);
    assert_eq!(t.f(0).state, State::Dead, "1 + 2 failures");
}

#[test]
fn the_last_failure_from_damage_can_become_a_permanent_wound() {
    let mut rules = EncounterRules::default();
    rules.death_saves.wound_policy = WoundPolicy::AcceptLeastSevere;
    let mut t = Table::duel(rules);
    t.dying(0, 1, 2);
    // The example of the wound is drawn with one d4.
    t.deal(0, slashing(3, false), &[(4, 4)]);
    assert_eq!(t.f(0).state, State::Stable);
    assert!(
        t.f(0).wounds.has(Severity::Moderate),
        "one success → moderate"
    );
    assert_eq!(t.out.wounds, [0, 1, 0]);
    // Internal wound (the 4th moderate example) costs 1 max HP per level later.
    assert_eq!(t.f(0).lost_max_hp, 1);
}

#[test]
fn resistance_rage_and_immunity_change_damage() {
    let mut barbarian = template("barbarian-1");
    barbarian.defenses.immunities = DamageTypes::of([DamageType::Poison]);
    let mut t = Table::new(vec![barbarian], vec![goblin()], EncounterRules::default());
    let after = |t: &Table, kind, amount| t.enc.after_defenses(&t.arena, 0, kind, amount);
    assert_eq!(after(&t, DamageType::Slashing, 9), 9);
    t.f_mut(0).raging = true;
    assert_eq!(after(&t, DamageType::Slashing, 9), 4);
    assert_eq!(after(&t, DamageType::Fire, 9), 9);
    assert_eq!(after(&t, DamageType::Poison, 9), 0);
}

#[test]
fn a_troll_regenerates_unless_burned() {
    let mut t = Table::new(
        vec![fighter()],
        vec![monster("troll")],
        EncounterRules::default(),
    );
    t.deal(1, slashing(84, false), &[]);
    assert_eq!(t.f(1).state, State::Down, "0 HP, not yet dead");
    // Its turn: regenerates 10 and attacks (3 attacks: d1 target + d20 each, all 1s miss).
    let misses: Vec<(u64, u64)> = (0..3).flat_map(|_| [(1, 1), (1, 20)]).collect();
    t.turn(1, false, &misses);
    assert_eq!(t.state(1), (State::Up, 10));
    let fire = Blow {
        amount: 10,
        types: DamageTypes::of([DamageType::Fire]),
        crit: false,
    };
    t.deal(1, fire, &[]);
    t.turn(1, false, &[]);
    assert_eq!(t.f(1).state, State::Dead, "fire stops regeneration");
}

#[test]
fn a_regenerator_that_needs_1_hp_dies_at_zero() {
    // The oni (SRD 5.2): "regains 10 Hit Points at the start of each of its
    // turns if it has at least 1 Hit Point".
    let oni = monster("oni");
    assert!(!oni.regeneration.unwrap().revives);
    let hp = oni.max_hp;
    let mut t = Table::new(vec![fighter()], vec![oni], EncounterRules::default());
    t.deal(1, slashing(hp - 1, false), &[]);
    assert_eq!(t.state(1), (State::Up, 1));
    t.deal(1, slashing(1, false), &[]);
    assert_eq!(t.f(1).state, State::Dead, "not down: it does not get up");
    // The SRD 5.2 troll revives, as the 5.1 one.
    let mut t = Table::new(
        vec![fighter()],
        vec![monster("troll@5.2")],
        EncounterRules::default(),
    );
    t.deal(1, slashing(1000, false), &[]);
    assert_eq!(t.f(1).state, State::Down);
}

#[test]
fn a_party_member_that_is_not_a_pc_dies_at_zero() {
    let mut hireling = fighter();
    hireling.is_pc = false;
    let mut t = Table::new(
        vec![fighter(), hireling],
        vec![goblin()],
        EncounterRules::default(),
    );
    t.deal(0, slashing(12, false), &[]);
    t.deal(1, slashing(12, false), &[]);
    assert_eq!(t.f(0).state, State::Dying, "a PC makes death saves");
    assert_eq!(t.f(1).state, State::Dead, "a hireling dies");
    assert!(t.f(1).went_down);
}

#[test]
fn relentless_rage_keeps_a_raging_barbarian_at_1_hp_on_a_con_save() {
    let barbarian = template("barbarian-11");
    assert!(barbarian.relentless_rage && !template("barbarian-10").relentless_rage);
    let con = barbarian.saves[crate::combat::creature::Ability::Con as usize];
    let hp = barbarian.max_hp;
    let mut t = Table::new(vec![barbarian], vec![goblin()], EncounterRules::default());
    t.f_mut(0).raging = true;
    // DC 10: a natural roll of 10 - con succeeds.
    let just = (10 - con).max(1) as u64;
    t.deal(0, slashing(hp + 5, false), &[(just, 20)]);
    assert_eq!(t.state(0), (State::Up, 1), "saved at DC 10");
    // The second use is DC 15: the same roll fails (con < 5 more).
    t.deal(0, slashing(3, false), &[(just, 20)]);
    assert_eq!(t.f(0).state, State::Dying, "failed at DC 15");
    // Not raging: no save, no die used.
    let mut t = Table::new(
        vec![template("barbarian-11")],
        vec![goblin()],
        EncounterRules::default(),
    );
    t.deal(0, slashing(hp, false), &[]);
    assert_eq!(t.f(0).state, State::Dying);
    // Killed outright by massive damage: no save.
    let mut t = Table::new(
        vec![template("barbarian-11")],
        vec![goblin()],
        EncounterRules::default(),
    );
    t.f_mut(0).raging = true;
    t.deal(0, slashing(2 * hp, false), &[]);
    assert_eq!(t.f(0).state, State::Dead);
}

#[test]
fn fire_absorption_heals_the_golem_by_the_fire_damage_it_is_dealt() {
    // SRD 5.2 iron golem: "Whenever the golem is subjected to Fire damage,
    // it regains a number of Hit Points equal to the Fire damage dealt."
    let golem = monster("iron-golem");
    assert!(golem.absorbs.has(DamageType::Fire));
    let mut t = Table::new(vec![fighter()], vec![golem], EncounterRules::default());
    let max = t.f(1).max_hp;
    t.f_mut(1).hp = max - 20;
    assert_eq!(t.enc.after_defenses(&t.arena, 1, DamageType::Fire, 12), -12);
    // 12 fire heals 12; up to its maximum only.
    let fire = |t: &Table, amount| Blow {
        amount: t.enc.after_defenses(&t.arena, 1, DamageType::Fire, amount),
        types: DamageTypes::of([DamageType::Fire]),
        crit: false,
    };
    let blow = fire(&t, 12);
    t.deal(1, blow, &[]);
    assert_eq!(t.f(1).hp, max - 8);
    let blow = fire(&t, 30);
    t.deal(1, blow, &[]);
    assert_eq!(t.f(1).hp, max);
    // A hit of 10 slashing and 4 fire: it takes 10 and regains 4.
    t.f_mut(1).hp = max - 20;
    let amount = t.enc.after_defenses(&t.arena, 1, DamageType::Slashing, 10)
        + t.enc.after_defenses(&t.arena, 1, DamageType::Fire, 4);
    let types = DamageTypes::of([DamageType::Slashing, DamageType::Fire]);
    t.deal(
        1,
        Blow {
            amount,
            types,
            crit: false,
        },
        &[],
    );
    assert_eq!(t.f(1).hp, max - 26);
    // Other types hurt it as before.
    assert_eq!(t.enc.after_defenses(&t.arena, 1, DamageType::Cold, 12), 12);
}
