//! Grapples (SRD 5.2 "Grappled", "Restrained"; `encounter/grapple.rs`): a
//! hit grapples up to its size and its count of holds, Restrained when the
//! attack says so; the escape check; the grapple's end when its grappler
//! falls or is incapacitated; the grappled creature's target and its
//! Disadvantage against others; Advantage against a grappled or wounded
//! target; an attack that spares the grappled (the tyrannosaurus's Tail).

use super::*;
use crate::combat::creature::{AttackAdvantage, Grapple};
use crate::combat::spell::{Condition, bits};
use crate::rules::damage::Size;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// SRD 5.2 crocodile: Bite +4, 1d8+2 piercing; "If the target is a Medium
/// or smaller creature, it has the Grappled condition (escape DC 12).
/// While Grappled, the target has the Restrained condition."
fn crocodile() -> CreatureSpec {
    let c = monster("crocodile");
    assert_eq!(
        c.attacks[0].grapples,
        Some(Grapple {
            escape: 12,
            size: Size::Medium,
            restrains: true,
            holds: 1,
        })
    );
    c
}

fn grappled(t: &Table, who: usize) -> bool {
    t.f(who).spells.conditions & bits::GRAPPLED != 0
}

fn restrained(t: &Table, who: usize) -> bool {
    let r = Condition::Restrained.bits();
    t.f(who).spells.conditions & r == r
}

#[test]
fn a_hit_grapples_and_restrains_a_target_up_to_its_size() {
    let mut t = Table::new(
        vec![fighter()],
        vec![crocodile()],
        EncounterRules::default(),
    );
    // A miss (2 + 4 = 6 against AC 18) grapples nothing.
    t.attack(1, 0, &[(2, 20)]);
    assert!(!grappled(&t, 0));
    // A hit (15 + 4 = 19): 1d8 + 2 = 3 + 2, grappled and restrained.
    t.attack(1, 0, &[(15, 20), (3, 8)]);
    assert_eq!(t.f(0).max_hp - t.f(0).hp, 5);
    assert!(grappled(&t, 0) && restrained(&t, 0));
    assert_eq!(t.enc.grappler(&t.arena, 0), Some(1));
    // A Large target is too big for its jaws.
    let mut t = Table::new(
        vec![fighter()],
        vec![crocodile()],
        EncounterRules::default(),
    );
    t.enc.all[0].size = Size::Large;
    t.attack(1, 0, &[(15, 20), (3, 8)]);
    assert!(!grappled(&t, 0));
}

#[test]
fn a_grappler_holds_no_more_creatures_than_its_attack_says() {
    let party = vec![fighter(), fighter()];
    let mut t = Table::new(party.clone(), vec![crocodile()], EncounterRules::default());
    t.attack(2, 0, &[(15, 20), (1, 8)]);
    // One bite, one creature: the second hit only wounds.
    t.attack(2, 1, &[(15, 20), (1, 8)]);
    assert!(grappled(&t, 0) && !grappled(&t, 1));
    assert_eq!(t.f(1).max_hp - t.f(1).hp, 3);
    // "From one of two pincers": a second creature too.
    let mut croc = crocodile();
    croc.attacks[0].grapples.as_mut().unwrap().holds = 2;
    let mut t = Table::new(party, vec![croc], EncounterRules::default());
    t.attack(2, 0, &[(15, 20), (1, 8)]);
    t.attack(2, 1, &[(15, 20), (1, 8)]);
    assert!(grappled(&t, 0) && grappled(&t, 1));
}

#[test]
fn a_restrained_creature_spends_its_action_on_the_escape_check() {
    // Fighter 1: Strength +3, Athletics +2: the check is d20 + 5 against
    // DC 12.
    assert_eq!(fighter().escape, 5);
    let g = crocodile().attacks[0].grapples.unwrap();
    let mut t = Table::new(
        vec![fighter()],
        vec![crocodile()],
        EncounterRules::default(),
    );
    t.enc.grapple(&mut t.arena, 1, 0, g);
    // 6 + 5 = 11 fails: still held, and no attack (no more dice).
    t.turn(0, false, &[(6, 20)]);
    assert!(grappled(&t, 0) && restrained(&t, 0));
    // 7 + 5 = 12 escapes, and the turn's action is spent on it.
    t.turn(0, false, &[(7, 20)]);
    assert!(!grappled(&t, 0) && !restrained(&t, 0));
    assert_eq!(t.f(1).hp, t.f(1).max_hp);
}

#[test]
fn a_creature_only_grappled_attacks_its_grappler_and_others_at_disadvantage() {
    let mut croc = crocodile();
    croc.attacks[0].grapples.as_mut().unwrap().restrains = false;
    let g = croc.attacks[0].grapples.unwrap();
    let mut t = Table::new(
        vec![fighter()],
        vec![goblin(), croc],
        EncounterRules::default(),
    );
    t.enc.grapple(&mut t.arena, 2, 0, g);
    assert!(grappled(&t, 0) && !restrained(&t, 0));
    // Its target: the crocodile, whatever the targeting policy rolls.
    assert_eq!(t.target(0, Reach::Melee, &[]), Some(2));
    // Against the goblin its roll has Disadvantage: two d20s, the lower
    // (3 + 5 = 8) misses AC 15.
    t.attack(0, 1, &[(19, 20), (3, 20)]);
    assert_eq!(t.f(1).hp, t.f(1).max_hp);
    // Against its grappler, one d20: 10 + 5 = 15 hits AC 12 (1d8 + 5).
    t.attack(0, 2, &[(10, 20), (4, 8)]);
    assert_eq!(t.f(2).max_hp - t.f(2).hp, 4 + 5);
}

#[test]
fn the_grapple_ends_when_its_grappler_drops_or_is_incapacitated() {
    let g = crocodile().attacks[0].grapples.unwrap();
    let mut t = Table::new(
        vec![fighter()],
        vec![crocodile()],
        EncounterRules::default(),
    );
    t.enc.grapple(&mut t.arena, 1, 0, g);
    t.deal(1, slashing(100, false), &[]);
    assert!(!grappled(&t, 0), "a dead crocodile holds no one");
    // Stunned: the grapple ends as its victim's turn starts, the action
    // still its own.
    let mut t = Table::new(
        vec![fighter()],
        vec![crocodile()],
        EncounterRules::default(),
    );
    t.enc.grapple(&mut t.arena, 1, 0, g);
    let stunned = super::super::spell_state::Affliction {
        bits: Condition::Stunned.bits(),
        ..super::super::spell_state::Affliction::NONE
    };
    t.f_mut(1).spells.afflict(stunned);
    let Table { enc, arena, .. } = &mut t;
    let spent = with_dice(&[], |rng| enc.escape_grapple(rng, arena, 0));
    assert!(!spent && !grappled(&t, 0));
}

#[test]
fn an_attack_has_advantage_against_its_own_grappled_target_or_a_wounded_one() {
    // SRD 5.2 bugbear warrior: Light Hammer +4, 3d4+2, "with Advantage if
    // the target is Grappled by the bugbear".
    let bugbear = monster("bugbear-warrior");
    let hammer = bugbear
        .attacks
        .iter()
        .find(|a| a.advantage == Some(AttackAdvantage::Grappled))
        .expect("the light hammer")
        .clone();
    let grab = bugbear
        .attacks
        .iter()
        .find_map(|a| a.grapples)
        .expect("the grab");
    let mut t = Table::new(vec![fighter()], vec![bugbear], EncounterRules::default());
    // Not grappled: one d20 (13 + 4 misses AC 18).
    t.attack_with(1, 0, &hammer, &[(13, 20)]);
    assert_eq!(t.f(0).hp, t.f(0).max_hp);
    // Grappled by it: two d20s, the higher (14 + 4) hits: 3d4 + 2.
    t.enc.grapple(&mut t.arena, 1, 0, grab);
    t.attack_with(1, 0, &hammer, &[(2, 20), (14, 20), (1, 4), (1, 4), (1, 4)]);
    assert_eq!(t.f(0).max_hp - t.f(0).hp, 5);
    // "with Advantage if the target doesn't have all its Hit Points".
    let mut wolf = goblin();
    wolf.attacks[0].advantage = Some(AttackAdvantage::Wounded);
    let mut t = Table::new(vec![fighter()], vec![wolf], EncounterRules::default());
    t.attack(1, 0, &[(13, 20)]);
    t.f_mut(0).hp -= 1;
    t.attack(1, 0, &[(2, 20), (16, 20), (1, 6)]);
    assert_eq!(t.f(0).max_hp - t.f(0).hp, 1 + 3);
}

#[test]
fn a_save_action_like_constrict_grapples_on_a_failed_save_only() {
    // SRD 5.2 constrictor snake: "Constrict. Strength Saving Throw: DC 12,
    // one Medium or smaller creature ... Failure: 7 (3d4) Bludgeoning
    // damage, and the target has the Grappled condition (escape DC 12)."
    let snake = monster("constrictor-snake");
    let constrict = snake
        .attacks
        .iter()
        .find(|a| a.save.is_some())
        .expect("constrict")
        .clone();
    let mut t = Table::new(vec![fighter()], vec![snake], EncounterRules::default());
    // Fighter 1's Strength save: +5. A 7 saves (12): nothing at all.
    t.attack_with(1, 0, &constrict, &[(7, 20)]);
    assert_eq!(t.f(0).hp, t.f(0).max_hp);
    assert!(!grappled(&t, 0));
    // A 6 fails (11): 3d4 = 1 + 2 + 3 and grappled (not restrained).
    t.attack_with(1, 0, &constrict, &[(6, 20), (1, 4), (2, 4), (3, 4)]);
    assert_eq!(t.f(0).max_hp - t.f(0).hp, 6);
    assert!(grappled(&t, 0) && !restrained(&t, 0));
    // Its Attack action (the generator's best single action) is the
    // constriction, whose threat is its damage times a +2 save's failure
    // (DC 12: 45%).
    let spec = &t.enc.all[1];
    assert_eq!(spec.attacks[spec.multiattack[0]].name, "constrict");
    assert!((spec.threat(15) - 0.45 * 7.5).abs() < 1e-9);
}

#[test]
fn the_tyrannosaurus_tail_spares_the_creature_its_bite_grapples() {
    // SRD 5.2 tyrannosaurus rex: Bite +10, 4d12+7, grapples a Large or
    // smaller target (escape DC 17), Restrained, "and can't be targeted by
    // the monster's Tail".
    let rex = monster("tyrannosaurus-rex");
    let (bite, tail) = (&rex.attacks[0], &rex.attacks[1]);
    assert!(bite.grapples.is_some_and(|g| g.restrains && g.escape == 17));
    assert!(tail.spares_grappled && !bite.spares_grappled);
    let fighters = vec![template("fighter-17"), template("fighter-17")];
    let mut t = Table::new(fighters, vec![rex.clone()], EncounterRules::default());
    // The bite hits the first fighter (15 + 10 against AC 18): four 1s, 11.
    let bite = t.enc.all[2].attacks[0].clone();
    t.attack_with(2, 0, &bite, &[(15, 20), (1, 12), (1, 12), (1, 12), (1, 12)]);
    assert!(grappled(&t, 0) && restrained(&t, 0));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let tail = t.enc.all[2].attacks[1].clone();
    let (mut bites_first, mut tails_first) = (0, 0);
    for _ in 0..200 {
        let by_tail = t
            .enc
            .choose_target_for::<false, _>(&mut rng, &t.arena, 2, &tail);
        tails_first += usize::from(by_tail == Some(0));
        assert_eq!(by_tail, Some(1), "the tail goes to the other fighter");
        let by_bite = t
            .enc
            .choose_target_for::<false, _>(&mut rng, &t.arena, 2, &bite);
        bites_first += usize::from(by_bite == Some(0));
    }
    assert_eq!(tails_first, 0);
    assert!(bites_first > 50, "the bite may go to either: {bites_first}");
    // The grappled fighter alone: the tail has no target and is not made;
    // the turn's bite still is.
    t.f_mut(1).state = State::Dead;
    assert_eq!(
        t.enc
            .choose_target_for::<false, _>(&mut rng, &t.arena, 2, &tail),
        None
    );
    let hp = t.f(0).hp;
    // Its turn: the bite (its one target: a draw of one) at advantage on
    // the restrained fighter (a miss, 2 and 3 + 10 against AC 18) and no
    // tail.
    t.turn(2, false, &[(1, 1), (2, 20), (3, 20)]);
    assert_eq!(t.f(0).hp, hp);
}
