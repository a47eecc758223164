//! Setting an encounter up: the one-handed fall-back of a two-handed
//! attack; between two chained fights, monsters anew.

use super::*;
use crate::combat::encounter::fighter::{ALWAYS_PRONE, effect};

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

#[test]
fn each_fight_of_a_chain_has_its_monsters_anew() {
    // docs/combat.md, `encounters`: the monsters of a later fight are
    // fresh, not the earlier fight's wounded ones.
    let mut t = Table::duel(EncounterRules {
        encounters: 2,
        ..EncounterRules::default()
    });
    let fresh = t.enc.initial[1];
    let goblin = t.f_mut(1);
    goblin.hp = 0;
    goblin.state = State::Dead;
    goblin.injuries[0] = 7;
    goblin.n_injuries = 1;
    goblin.eyes_lost = 1;
    goblin.lasting_effects = effect::WEAPON_BROKEN;
    goblin.effects = effect::DIS_RANGED | effect::WEAPON_BROKEN;
    goblin.limb_hp[2] = 0;
    goblin.severed = 0b0100;
    goblin.base_speed = 20;
    goblin.speed = 10;
    goblin.prone_after_dash = ALWAYS_PRONE;
    goblin.prone = true;
    goblin.breath_ready = false;
    goblin.regen_blocked = true;
    goblin.crits_taken = 2;
    goblin.hp_lost = 7;
    // The party keeps its own lingering injury.
    t.f_mut(0).injuries[0] = 7;
    t.f_mut(0).n_injuries = 1;
    t.enc.between_fights(&mut t.arena);
    assert_eq!(*t.f(1), fresh, "the goblin of the second fight is anew");
    assert_eq!((t.f(0).injuries[0], t.f(0).n_injuries), (7, 1));
}
