//! A party carried between days of a campaign (`career.rs`): playing a
//! carried party is the trial's chain, a long rest restores what it
//! restores and keeps what lasts, levelling takes the next level's
//! template, healing a wound takes its effects and max HP back, raising and
//! replacing.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::{Table, fighter, goblin, template, with_dice};
use crate::combat::effect;
use crate::combat::encounter::fighter::{NEVER_REVIVED, State};
use crate::combat::encounter::{Arena, Encounter, PartyState};
use crate::combat::policy::{Between, EncounterRules};
use crate::rules::permanent_wounds::{Severity, WoundSlots};

fn encounter(party: &[&str], goblins: usize, rules: EncounterRules) -> Encounter {
    Encounter::new(
        party.iter().map(|t| template(t)).collect(),
        vec![goblin(); goblins],
        rules,
        crate::fixtures::catalog().wound_examples.clone(),
    )
}

/// The party of `t` as its arena has it now (levels from the templates).
fn party_of(t: &Table) -> PartyState {
    let n = t.enc.party.len();
    PartyState {
        fighters: t.arena.fighters[..n].to_vec(),
        levels: t.enc.party.iter().map(|c| c.level).collect(),
        below: vec![false; n],
    }
}

/// PC `who` of `t` takes a wound of `severity`, the example drawn by the
/// scripted d`examples` roll `pick`.
fn wound(t: &mut Table, who: usize, severity: Severity, pick: u64) {
    let n = t.enc.wound_examples.of(severity).len() as u64;
    let Table { enc, arena, out } = t;
    with_dice(&[(pick, n)], |rng| {
        enc.take_wound(rng, arena, who, severity, out)
    });
}

#[test]
fn a_fresh_party_plays_its_day_as_a_trial_runs() {
    let rules = EncounterRules {
        encounters: 2,
        between: Between::NoRest,
        ..EncounterRules::default()
    };
    let enc = encounter(&["fighter-3", "cleric-3"], 4, rules);
    let mut arena = Arena::default();
    for seed in 0..300 {
        let ran = enc.run(&mut Xoshiro256PlusPlus::seed_from_u64(seed), &mut arena);
        let mut party = enc.fresh_party();
        let played = enc.play(
            &mut Xoshiro256PlusPlus::seed_from_u64(seed),
            &mut arena,
            &mut party,
        );
        assert_eq!(ran, played, "seed {seed}");
        // The party comes back as the chain left it.
        assert_eq!(party.fighters[..], arena.fighters[..2], "seed {seed}");
    }
}

#[test]
fn a_day_counts_only_its_own_tallies() {
    let enc = encounter(&["fighter-3"], 2, EncounterRules::default());
    let mut arena = Arena::default();
    for seed in 0..100 {
        // Yesterday's tallies, full HP: the day plays as a fresh one.
        let mut party = enc.fresh_party();
        party.fighters[0].went_down = true;
        party.fighters[0].hp_lost = 99;
        party.fighters[0].crits_taken = 5;
        let carried = enc.play(
            &mut Xoshiro256PlusPlus::seed_from_u64(seed),
            &mut arena,
            &mut party,
        );
        let fresh = enc.run(&mut Xoshiro256PlusPlus::seed_from_u64(seed), &mut arena);
        assert_eq!(carried, fresh, "seed {seed}");
    }
}

#[test]
fn a_party_carried_hurt_starts_the_day_hurt() {
    let enc = encounter(&["fighter-3"], 6, EncounterRules::default());
    let mut arena = Arena::default();
    let (mut fresh_downs, mut hurt_downs) = (0, 0);
    for seed in 0..400 {
        let mut party = enc.fresh_party();
        fresh_downs += u32::from(
            enc.play(
                &mut Xoshiro256PlusPlus::seed_from_u64(seed),
                &mut arena,
                &mut party,
            )
            .pc_down[0],
        );
        let mut party = enc.fresh_party();
        party.fighters[0].hp = 1;
        hurt_downs += u32::from(
            enc.play(
                &mut Xoshiro256PlusPlus::seed_from_u64(seed),
                &mut arena,
                &mut party,
            )
            .pc_down[0],
        );
    }
    assert!(hurt_downs > fresh_downs, "{hurt_downs} vs {fresh_downs}");
}

#[test]
fn a_long_rest_restores_hp_and_slots_and_keeps_wounds_injuries_and_the_dead() {
    let mut t = Table::new(
        vec![template("cleric-3"), template("fighter-3")],
        vec![goblin()],
        EncounterRules::default(),
    );
    // The cleric: hurt, slots spent, a moderate internal wound (1 max HP
    // per level), a lingering injury and a potion drunk.
    wound(&mut t, 0, Severity::Moderate, 4);
    {
        let f = t.f_mut(0);
        f.hp = 2;
        f.state = State::Up;
        f.slots = [0; 9];
        f.injuries[0] = 5;
        f.n_injuries = 1;
        f.potions = crate::combat::creature::Potions::default();
    }
    // The fighter: dead.
    t.f_mut(1).state = State::Dead;
    let mut party = party_of(&t);
    t.enc.long_rest(&mut party);
    let cleric = &t.enc.party[0];
    assert_eq!(
        party.lost_max_hp(0),
        3,
        "internal wound: 1 max HP per level, level 3"
    );
    assert_eq!(party.hp(0), cleric.max_hp - 3);
    assert_eq!(party.fighters[0].slots, cleric.spell_slots());
    assert_eq!(
        party.wounds(0),
        WoundSlots::from_wounds([Severity::Moderate])
    );
    assert_ne!(party.fighters[0].effects & effect::DIS_CON_SAVES, 0);
    assert_eq!(party.injuries(0), &[5]);
    assert_eq!(
        party.fighters[0].potions,
        crate::combat::creature::Potions::default()
    );
    assert!(party.is_dead(1));
    assert_eq!(party.fighters[1].died_round, NEVER_REVIVED);
    assert!(party.anyone_alive());
}

#[test]
fn levelling_up_takes_the_next_level_template_and_the_wounds_cost_the_new_level() {
    let mut t = Table::new(
        vec![template("fighter-1")],
        vec![goblin()],
        EncounterRules::default(),
    );
    wound(&mut t, 0, Severity::Moderate, 4);
    assert_eq!(t.f(0).lost_max_hp, 1);
    let mut party = party_of(&t);
    let at_5 = encounter(&["fighter-5"], 3, EncounterRules::default());
    at_5.long_rest(&mut party);
    assert_eq!(party.level(0), 5);
    assert_eq!(party.lost_max_hp(0), 5);
    assert_eq!(party.hp(0), at_5.party[0].max_hp - 5);
    assert_eq!(
        party.wounds(0),
        WoundSlots::from_wounds([Severity::Moderate])
    );
    // And it fights as the level-5 template (its own spec index in that encounter).
    let mut arena = Arena::default();
    at_5.play(
        &mut Xoshiro256PlusPlus::seed_from_u64(1),
        &mut arena,
        &mut party,
    );
    assert_eq!(party.fighters[0].spec, 0);
}

/// A lost leg: 10 ft with a prosthesis (`lost_leg_prosthesis = true`, the
/// default), 5 ft without one, through rests and levels.
#[test]
fn a_lost_leg_keeps_its_speed_cap_through_rests_and_levels() {
    for (prosthesis, feet) in [(true, 10), (false, 5)] {
        let rules = EncounterRules {
            lost_leg_prosthesis: prosthesis,
            ..EncounterRules::default()
        };
        let mut t = Table::new(vec![template("fighter-1")], vec![goblin()], rules.clone());
        wound(&mut t, 0, Severity::Severe, 2);
        assert_eq!(t.f(0).speed, feet, "prosthesis: {prosthesis}");
        let mut party = party_of(&t);
        assert_eq!(party.fighters[0].base_speed, feet);
        encounter(&["fighter-2"], 1, rules).long_rest(&mut party);
        assert_eq!(party.fighters[0].base_speed, feet);
        assert_eq!(party.fighters[0].speed, feet);
    }
}

/// Healing a lost arm under the reading `wound_attack_disadvantage` takes
/// its disadvantage on Strength attacks with it.
#[test]
fn healing_a_lost_arm_takes_its_strength_attack_disadvantage_too() {
    let rules = EncounterRules {
        wound_attack_disadvantage: true,
        ..EncounterRules::default()
    };
    let mut t = Table::new(vec![template("fighter-4")], vec![goblin()], rules);
    wound(&mut t, 0, Severity::Severe, 1); // lost arm
    let mut party = party_of(&t);
    t.enc.long_rest(&mut party);
    assert_ne!(party.fighters[0].effects & effect::DIS_STR_ATTACKS, 0);
    t.enc
        .heal_wounds(&mut party, 0, WoundSlots::from_wounds([Severity::Severe]));
    assert_eq!(party.fighters[0].effects, 0);
}

#[test]
fn healing_a_wound_takes_its_effects_and_max_hp_back_and_keeps_the_others() {
    let mut t = Table::new(
        vec![template("fighter-4")],
        vec![goblin()],
        EncounterRules::default(),
    );
    wound(&mut t, 0, Severity::Moderate, 4); // internal wound: Con saves, max HP
    wound(&mut t, 0, Severity::Severe, 1); // lost arm: two-handed, Str saves
    let mut party = party_of(&t);
    t.enc.long_rest(&mut party);
    assert_eq!(party.lost_max_hp(0), 4);
    t.enc
        .heal_wounds(&mut party, 0, WoundSlots::from_wounds([Severity::Moderate]));
    assert_eq!(party.wounds(0), WoundSlots::from_wounds([Severity::Severe]));
    assert_eq!(party.lost_max_hp(0), 0);
    assert_eq!(party.hp(0), t.enc.party[0].max_hp);
    let f = &party.fighters[0];
    assert_eq!(f.effects & effect::DIS_CON_SAVES, 0);
    assert_ne!(f.effects & effect::DIS_STR_SAVES, 0);
    assert_ne!(f.effects & effect::NO_TWO_HANDED, 0);
    t.enc
        .heal_wounds(&mut party, 0, WoundSlots::from_wounds([Severity::Severe]));
    assert_eq!(party.wounds(0), WoundSlots::EMPTY);
    assert_eq!(party.fighters[0].effects, 0);
}

#[test]
fn the_raised_come_back_rested_with_their_wounds_and_the_replaced_come_fresh() {
    let mut t = Table::new(
        vec![template("fighter-3"), template("cleric-3")],
        vec![goblin()],
        EncounterRules::default(),
    );
    wound(&mut t, 0, Severity::Minor, 1);
    t.f_mut(0).state = State::Dead;
    t.f_mut(1).state = State::Dead;
    t.f_mut(1).n_injuries = 1;
    let mut party = party_of(&t);
    t.enc.long_rest(&mut party);
    assert!(!party.anyone_alive());
    t.enc.raise(&mut party, 0, 0, true);
    assert!(!party.is_dead(0));
    assert_eq!(party.hp(0), t.enc.party[0].max_hp);
    assert_eq!(party.wounds(0), WoundSlots::from_wounds([Severity::Minor]));
    // Raising one PC leaves the other as it was.
    assert!(party.is_dead(1));
    t.enc.replace(&mut party, 1);
    assert_eq!(party.fighters[1], t.enc.initial[1]);
    assert_eq!(party.injuries(1), &[] as &[u8]);
}

/// *Raise dead* and *resurrection* (SRD 5.1): "a −4 penalty to all attack
/// rolls, saving throws, and ability checks. Every time the target finishes
/// a long rest, the penalty is reduced by 1 until it disappears."
#[test]
fn a_return_penalty_starts_at_the_spells_and_drops_by_one_each_long_rest() {
    let mut t = Table::new(
        vec![template("fighter-3"), template("cleric-3")],
        vec![goblin()],
        EncounterRules::default(),
    );
    t.f_mut(0).state = State::Dead;
    t.f_mut(1).state = State::Dead;
    let mut party = party_of(&t);
    t.enc.raise(&mut party, 0, 4, true);
    t.enc.raise(&mut party, 1, 0, true);
    assert_eq!((party.return_penalty(0), party.return_penalty(1)), (4, 0));
    for left in [3, 2, 1, 0, 0] {
        t.enc.long_rest(&mut party);
        assert_eq!(party.return_penalty(0), left);
        assert_eq!(party.fighters[0].death_save_penalty, left);
    }
    // Not on death saves: the attack and save penalty alone.
    party.kill(0);
    t.enc.raise(&mut party, 0, 4, false);
    assert_eq!(party.return_penalty(0), 4);
    assert_eq!(party.fighters[0].death_save_penalty, 0);
}

#[test]
fn a_return_penalty_takes_from_attack_rolls_saving_throws_and_death_saves() {
    use crate::combat::creature::Ability;
    // The level-1 fighter's longsword (+5) against the goblin's AC 15.
    let mut t = Table::duel(EncounterRules {
        stabilize: crate::combat::policy::Stabilize::Never,
        ..Default::default()
    });
    t.f_mut(0).return_penalty = 4;
    t.attack(0, 1, &[(13, 20)]);
    assert_eq!(t.f(1).hp, 7, "13 + 5 − 4 = 14 misses AC 15");
    t.attack(0, 1, &[(14, 20), (1, 8)]);
    assert_eq!(
        t.f(1).hp,
        7 - 6,
        "14 + 5 − 4 = 15 hits AC 15 (1d8 of 1, + 5)"
    );
    // A saving throw: the fighter's Constitution save against DC 10.
    let con = t.enc.spec(0).save(Ability::Con);
    let needed = 10 - con + 4;
    let saves = |t: &mut Table, roll: i32| {
        let Table { enc, arena, .. } = t;
        with_dice(&[(roll as u64, 20)], |rng| {
            enc.saving_throw(rng, arena, 0, Ability::Con, 10)
        })
    };
    assert!(!saves(&mut t, needed - 1));
    assert!(saves(&mut t, needed));
    // Death saves take the total down, not the die: 13 − 4 fails, 14 − 4
    // succeeds, a natural 5 is one failure (not a natural 1's two) and a
    // natural 20 still brings the PC back.
    t.f_mut(0).death_save_penalty = 4;
    t.dying(0, 0, 0);
    t.turn(0, false, &[(13, 20)]);
    assert_eq!(t.f(0).tally.failures, 1);
    t.turn(0, false, &[(14, 20)]);
    assert_eq!(t.f(0).tally.successes, 1);
    t.turn(0, false, &[(5, 20)]);
    assert_eq!(t.f(0).tally.failures, 2);
    t.turn(0, false, &[(20, 20), (1, 1), (2, 20)]);
    assert_eq!(t.state(0), (State::Up, 1));
}

/// The penalty takes from ability checks too: a raised PC's DC 10 Medicine
/// check to stabilise a dying ally.
#[test]
fn a_return_penalty_takes_from_the_medicine_check() {
    let rules = EncounterRules {
        stabilize: crate::combat::policy::Stabilize::AfterFight,
        ..Default::default()
    };
    let mut t = Table::new(vec![fighter(), fighter()], vec![goblin()], rules);
    t.dying(0, 0, 0);
    t.f_mut(1).heal_uses = 0;
    t.f_mut(1).return_penalty = 2;
    // Fighter Medicine +1, less 2: a 10 gives 9 and fails, an 11 succeeds.
    assert!(t.support(1, true, true, &[(10, 20)]));
    assert_eq!(t.f(0).state, State::Dying);
    assert!(t.support(1, true, true, &[(11, 20)]));
    assert_eq!(t.f(0).state, State::Stable);
}
