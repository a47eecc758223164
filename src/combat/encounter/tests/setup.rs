//! Setting an encounter up: the one-handed fall-back of a two-handed
//! attack; between two chained fights, monsters anew.

use super::*;
use crate::combat::effect;
use crate::combat::encounter::fighter::ALWAYS_PRONE;

#[test]
fn a_lost_arm_forces_a_one_handed_attack() {
    let orc = monster("orc"); // greataxe (two-handed), javelin (ranged)
    let enc = Encounter::new(
        vec![fighter()],
        vec![orc],
        EncounterRules::default(),
        crate::fixtures::catalog().wound_examples.clone(),
    );
    let fallback = &enc.in_hand[1][0][0];
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
    t.enc.between_fights(&mut super::no_dice(), &mut t.arena);
    assert_eq!(*t.f(1), fresh, "the goblin of the second fight is anew");
    assert_eq!((t.f(0).injuries[0], t.f(0).n_injuries), (7, 1));
}

/// A short rest (SRD 5.1 "Short Rest"): a PC below its maximum spends hit
/// dice one at a time, each die plus its Constitution modifier, until it
/// is full; Second Wind comes back, spell slots do not.
#[test]
fn a_short_rest_spends_hit_dice_until_full_and_brings_second_wind_back() {
    use crate::combat::policy::Between;
    let rules = EncounterRules {
        between: Between::ShortRest,
        ..EncounterRules::default()
    };
    let mut t = Table::new(
        vec![template("fighter-3"), template("cleric-3")],
        vec![goblin()],
        rules,
    );
    // fighter-3: 28 HP, three d10 hit dice, Constitution +2.
    assert_eq!(t.enc.spec(0).max_hp, 28);
    assert_eq!(t.f(0).hit_dice, 3);
    t.f_mut(0).hp = 20;
    t.f_mut(0).heal_uses = 0;
    t.f_mut(1).slots[0] = 0;
    let Table { enc, arena, .. } = &mut t;
    // 20 + (4 + 2) = 26, then + (10 + 2): full at 28, one die left; the
    // cleric, full, spends none.
    with_dice(&[(4, 10), (10, 10)], |rng| enc.between_fights(rng, arena));
    assert_eq!((t.f(0).hp, t.f(0).hit_dice), (28, 1));
    assert_eq!(t.f(0).heal_uses, 1, "Second Wind is back");
    assert_eq!(t.f(1).hit_dice, 3);
    assert_eq!(t.f(1).slots[0], 0, "slots wait for a long rest");
}

/// A stable PC is up at 1 HP before a short rest's dice; with none left
/// it stays at 1 HP.
#[test]
fn a_stable_pc_spends_hit_dice_from_1_hp() {
    use crate::combat::policy::Between;
    let rules = EncounterRules {
        between: Between::ShortRest,
        ..EncounterRules::default()
    };
    let mut t = Table::new(vec![template("fighter-3")], vec![goblin()], rules);
    t.f_mut(0).hp = 0;
    t.f_mut(0).state = State::Stable;
    let Table { enc, arena, .. } = &mut t;
    // 1 + 3 × (1 + 2): every die spent, still below the maximum.
    with_dice(&[(1, 10), (1, 10), (1, 10)], |rng| {
        enc.rest_between_fights(rng, &mut arena.fighters[0], Between::ShortRest);
    });
    assert_eq!(
        (t.f(0).state, t.f(0).hp, t.f(0).hit_dice),
        (State::Up, 10, 0)
    );
    t.f_mut(0).hp = 1;
    t.f_mut(0).hit_dice = 0;
    let Table { enc, arena, .. } = &mut t;
    enc.rest_between_fights(&mut no_dice(), &mut arena.fighters[0], Between::ShortRest);
    assert_eq!(t.f(0).hp, 1);
}

/// A long rest gives back half the hit dice (at least one), up to the
/// total (SRD 5.1 "Long Rest").
#[test]
fn a_long_rest_gives_back_half_the_hit_dice() {
    use crate::combat::policy::Between;
    let mut t = Table::new(
        vec![template("fighter-5"), template("fighter-1")],
        vec![goblin()],
        EncounterRules::default(),
    );
    t.f_mut(0).hit_dice = 0;
    t.f_mut(1).hit_dice = 0;
    for (five, one) in [(2, 1), (4, 1), (5, 1)] {
        let Table { enc, arena, .. } = &mut t;
        for f in arena.fighters.iter_mut().take(2) {
            enc.rest_between_fights(&mut no_dice(), f, Between::LongRest);
        }
        assert_eq!((t.f(0).hit_dice, t.f(1).hit_dice), (five, one));
    }
}

/// Severe internal bruising: a short rest's hit dice are one size smaller
/// (a fighter's d10 becomes a d8).
#[test]
fn severe_internal_bruising_spends_hit_dice_one_size_smaller() {
    use crate::combat::policy::Between;
    let rules = EncounterRules {
        between: Between::ShortRest,
        ..EncounterRules::default()
    };
    let mut t = Table::new(vec![template("fighter-3")], vec![goblin()], rules);
    t.f_mut(0).hp = 1;
    t.f_mut(0).effects |= effect::SMALLER_HIT_DICE;
    let Table { enc, arena, .. } = &mut t;
    // Three d8s, each at most 8 + 2.
    with_dice(&[(8, 8), (8, 8), (1, 8)], |rng| {
        enc.rest_between_fights(rng, &mut arena.fighters[0], Between::ShortRest);
    });
    assert_eq!((t.f(0).hp, t.f(0).hit_dice), (1 + 10 + 10 + 3, 0));
    assert_eq!(
        [4, 6, 8, 10, 12].map(super::super::setup::one_size_smaller),
        [4, 4, 6, 8, 10]
    );
}

/// A lost leg rolls initiative (a Dexterity check) with disadvantage.
#[test]
fn a_lost_leg_rolls_initiative_with_disadvantage() {
    let mut t = Table::new(
        vec![template("fighter-3")],
        vec![goblin()],
        Default::default(),
    );
    let dex = t.enc.spec(t.f(0).spec).initiative;
    let roll =
        |t: &Table, dice: &[(u64, u64)]| with_dice(dice, |rng| t.enc.roll_initiative(rng, t.f(0)));
    assert_eq!(roll(&t, &[(17, 20)]), 17 + dex);
    t.f_mut(0).effects |= effect::DIS_DEX_CHECKS;
    assert_eq!(roll(&t, &[(17, 20), (4, 20)]), 4 + dex);
}

/// A lost arm leaves no hand for a shield: its armour class goes.
#[test]
fn a_lost_arm_takes_the_shields_armour_class() {
    let mut t = Table::new(
        vec![template("fighter-3"), template("rogue-3")],
        vec![goblin()],
        Default::default(),
    );
    // Chain mail and shield: 18, of which the shield's 2.
    assert_eq!(t.enc.armor_class(t.f(0)), 18);
    t.f_mut(0).effects |= effect::NO_SHIELD;
    assert_eq!(t.enc.armor_class(t.f(0)), 16);
    // No shield, nothing to lose.
    let rogue = t.enc.armor_class(t.f(1));
    t.f_mut(1).effects |= effect::NO_SHIELD;
    assert_eq!(t.enc.armor_class(t.f(1)), rogue);
}

/// The other reading of a severe wound's "all Strength rolls"
/// (`wound_attack_disadvantage = true`; docs/rules.md, "Two readings"): a
/// lost arm gives disadvantage on Strength weapon attacks too, a lost leg
/// on Dexterity ones; a spell attack keeps its roll. Off (the default), a
/// lost arm leaves the fighter's longsword alone.
#[test]
fn the_other_reading_puts_a_lost_arm_on_strength_attacks_and_a_lost_leg_on_dexterity_ones() {
    use crate::rules::permanent_wounds::Severity;
    // Severe examples in data order: lost arm (1), lost leg (2).
    let wounded = |on: bool| {
        let mut t = Table::new(
            vec![fighter(), template("rogue-1"), template("wizard-1")],
            vec![goblin(), goblin(), goblin(), goblin()],
            EncounterRules {
                wound_attack_disadvantage: on,
                ..EncounterRules::default()
            },
        );
        let n = t.enc.wound_examples.of(Severity::Severe).len() as u64;
        for (who, pick) in [(0, 1), (1, 2), (2, 1)] {
            let Table { enc, arena, out } = &mut t;
            with_dice(&[(pick, n)], |rng| {
                enc.take_wound(rng, arena, who, Severity::Severe, out)
            });
        }
        t
    };
    // Off: the lost arm's fighter hits with its 19 (longsword +5, 1d8+5).
    let mut t = wounded(false);
    assert_eq!(t.f(0).effects & effect::DIS_STR_ATTACKS, 0);
    t.attack(0, 3, &[(19, 20), (1, 8)]);
    assert_eq!(t.f(3).hp, 7 - 6);
    // On: the lost arm's longsword (Strength) rolls twice and takes the 2.
    let mut t = wounded(true);
    assert_ne!(t.f(0).effects & effect::DIS_STR_ATTACKS, 0);
    t.attack(0, 3, &[(19, 20), (2, 20)]);
    assert_eq!(t.f(3).hp, 7, "the longsword missed with disadvantage");
    // The lost leg's rogue: its rapier (Dexterity) too.
    t.attack(1, 4, &[(19, 20), (2, 20)]);
    assert_eq!(t.f(4).hp, 7, "the rapier missed with disadvantage");
    // A spell attack (fire bolt) is not a Strength attack: one d20.
    t.attack(2, 5, &[(19, 20), (1, 10)]);
    assert_eq!(t.f(5).hp, 7 - 1);
    // A lost leg alone puts nothing on a Strength weapon.
    let dex_only = effect::DIS_DEX_SAVES | effect::DIS_DEX_ATTACKS;
    t.f_mut(0).effects = dex_only;
    t.attack(0, 6, &[(19, 20), (1, 8)]);
    assert_eq!(t.f(6).hp, 7 - 6);
}
