//! Class features of the templates (`encounter/features.rs`), each clause
//! on scripted dice: Action Surge, Indomitable, Uncanny Dodge, Brutal
//! Critical, Stunning Strike, Deflect Missiles, Aura of Protection for
//! allies, Bardic Inspiration and Preserve Life, and the rests that bring
//! their uses back.

use super::*;
use crate::combat::creature::Ability;
use crate::combat::policy::{Between, Positions};
use crate::combat::spell::{Condition, bits};

/// A goblin that lives through a few hits (100 HP).
fn tough_goblin() -> CreatureSpec {
    let mut g = goblin();
    g.max_hp = 100;
    g
}

/// `who` saves with `ability` against `dc` on the dice.
fn save(t: &mut Table, who: usize, ability: Ability, dc: i32, dice: &[(u64, u64)]) -> bool {
    let Table { enc, arena, .. } = t;
    with_dice(dice, |rng| enc.saving_throw(rng, arena, who, ability, dc))
}

/// The rest `kind` for creature `who`.
fn rest(t: &mut Table, who: usize, kind: Between) {
    let Table { enc, arena, .. } = t;
    with_dice(&[], |rng| {
        enc.rest_between_fights(rng, &mut arena.fighters[who], kind)
    });
}

#[test]
fn action_surge_attacks_again_on_the_first_turn_once_per_short_rest() {
    let mut t = Table::new(
        vec![template("fighter-2")],
        vec![tough_goblin()],
        EncounterRules::default(),
    );
    assert_eq!(t.f(0).feats.surges, 1);
    t.arena.round = 1;
    // The Attack action (target d1, a 2 misses), then the surge's.
    t.turn(0, false, &[(1, 1), (2, 20), (1, 1), (2, 20)]);
    assert_eq!(t.f(0).feats.surges, 0);
    // Used: one Attack action on its next first-round turn.
    t.turn(0, false, &[(1, 1), (2, 20)]);
    // A short rest brings it back; it waits for the first round.
    rest(&mut t, 0, Between::ShortRest);
    assert_eq!(t.f(0).feats.surges, 1);
    t.arena.round = 2;
    t.turn(0, false, &[(1, 1), (2, 20)]);
    assert_eq!(t.f(0).feats.surges, 1);
    // Not with the enemy down after the first Attack action: 20 + 5
    // crits, 2d8 of 8 + 3 + 2 = 21 kills a 7-HP goblin.
    let mut t = Table::duel(EncounterRules::default());
    t.enc.all[0].class_features.action_surge = 1;
    t.f_mut(0).feats.surges = 1;
    t.arena.round = 1;
    t.turn(0, false, &[(1, 1), (20, 20), (8, 8), (8, 8)]);
    assert_eq!((t.f(1).state, t.f(0).feats.surges), (State::Dead, 1));
    // Two uses from 17; none at 1.
    assert_eq!(template("fighter-17").class_features.action_surge, 2);
    assert_eq!(template("fighter-1").class_features.action_surge, 0);
}

#[test]
fn indomitable_rerolls_a_failed_save_and_keeps_the_new_roll() {
    // Fighter-9: Wisdom save +1. A 5 (6) fails DC 15; the reroll 14 (15) saves.
    let mut t = Table::new(
        vec![template("fighter-9")],
        vec![goblin()],
        EncounterRules::default(),
    );
    assert!(save(&mut t, 0, Ability::Wis, 15, &[(5, 20), (14, 20)]));
    assert_eq!(t.f(0).feats.indomitable, 0);
    // No use left: the failure stands (one die).
    assert!(!save(&mut t, 0, Ability::Wis, 15, &[(5, 20)]));
    // The new roll must be used, even when it fails too.
    rest(&mut t, 0, Between::LongRest);
    assert!(!save(&mut t, 0, Ability::Wis, 15, &[(5, 20), (3, 20)]));
    // A success rolls once; a fighter-8 has no reroll.
    rest(&mut t, 0, Between::LongRest);
    assert!(save(&mut t, 0, Ability::Wis, 15, &[(14, 20)]));
    assert_eq!(t.f(0).feats.indomitable, 1);
    let mut t = Table::new(
        vec![template("fighter-8")],
        vec![goblin()],
        EncounterRules::default(),
    );
    assert!(!save(&mut t, 0, Ability::Wis, 15, &[(5, 20)]));
    // A short rest does not bring it back.
    let mut t = Table::new(
        vec![template("fighter-9")],
        vec![goblin()],
        EncounterRules::default(),
    );
    t.f_mut(0).feats.indomitable = 0;
    rest(&mut t, 0, Between::ShortRest);
    assert_eq!(t.f(0).feats.indomitable, 0);
}

#[test]
fn uncanny_dodge_halves_the_first_damaging_hit_of_a_round() {
    // Rogue-5: AC 15; the goblin's scimitar +4, 1d6+2.
    let mut t = Table::new(
        vec![template("rogue-5")],
        vec![goblin()],
        EncounterRules::default(),
    );
    let hp = t.f(0).hp;
    t.attack(1, 0, &[(15, 20), (4, 6)]);
    assert_eq!(t.f(0).hp, hp - 3, "6 halved");
    assert!(!t.f(0).reaction);
    // The reaction is spent: the next hit lands whole.
    t.attack(1, 0, &[(15, 20), (4, 6)]);
    assert_eq!(t.f(0).hp, hp - 3 - 6);
    // A blinded rogue does not see the attacker (advantage: two d20s).
    t.f_mut(0).reaction = true;
    t.f_mut(0).effects |= crate::combat::effect::BLINDED;
    t.attack(1, 0, &[(15, 20), (2, 20), (4, 6)]);
    assert_eq!(t.f(0).hp, hp - 3 - 12);
    // A rogue-4 has none.
    let mut t = Table::new(
        vec![template("rogue-4")],
        vec![goblin()],
        EncounterRules::default(),
    );
    let hp = t.f(0).hp;
    t.attack(1, 0, &[(15, 20), (4, 6)]);
    assert_eq!(t.f(0).hp, hp - 6);
}

#[test]
fn brutal_critical_adds_weapon_dice_to_a_melee_critical_hit() {
    // Barbarian-9 greataxe 1d12 + 5: a critical rolls 2d12 + 1d12.
    let mut t = Table::new(
        vec![template("barbarian-9")],
        vec![tough_goblin()],
        EncounterRules::default(),
    );
    t.attack(0, 1, &[(20, 20), (1, 12), (1, 12), (1, 12)]);
    assert_eq!(t.f(1).hp, 100 - 8);
    // An ordinary hit rolls one die.
    t.attack(0, 1, &[(15, 20), (1, 12)]);
    assert_eq!(t.f(1).hp, 100 - 8 - 6);
    // Three dice at 17; a barbarian-8 rolls the doubled dice only.
    assert_eq!(template("barbarian-17").class_features.brutal_critical, 3);
    let mut t = Table::new(
        vec![template("barbarian-8")],
        vec![tough_goblin()],
        EncounterRules::default(),
    );
    t.attack(0, 1, &[(20, 20), (1, 12), (1, 12)]);
    assert_eq!(t.f(1).hp, 100 - 7);
}

#[test]
fn stunning_strike_stuns_on_a_failed_con_save_until_the_end_of_the_monks_next_turn() {
    // Monk-5: unarmed +7, 1d6+4; DC 8 + 3 + 2 = 13; the goblin's Con +0.
    let mut t = Table::new(
        vec![template("monk-5")],
        vec![tough_goblin()],
        EncounterRules::default(),
    );
    assert!(t.enc.spellcasting, "a monk's stuns turn spell state on");
    assert_eq!(t.f(0).feats.ki, 5);
    t.attack(0, 1, &[(10, 20), (1, 6), (5, 20)]);
    let stunned = Condition::Stunned.bits();
    assert_eq!(t.f(1).spells.conditions, stunned);
    assert_eq!(t.f(0).feats.ki, 4);
    // One strike a turn: the next hit (advantage on the stunned) rolls
    // no save.
    t.attack(0, 1, &[(10, 20), (10, 20), (1, 6)]);
    assert_eq!(t.f(0).feats.ki, 4);
    // A stunned goblin does nothing on its turn.
    t.turn(1, false, &[]);
    // The end of this turn of the monk's, then of its next: free.
    t.enc.features_at_turn_end(&mut t.arena, 0);
    assert_eq!(t.f(1).spells.conditions, stunned);
    t.enc.features_at_turn_end(&mut t.arena, 0);
    assert_eq!(t.f(1).spells.conditions, 0);
    // A success (13) spends the ki all the same.
    t.attack(0, 1, &[(10, 20), (1, 6), (13, 20)]);
    assert_eq!((t.f(1).spells.conditions, t.f(0).feats.ki), (0, 3));
    // A monk gone from the fight takes its stun with it at the round's end.
    t.enc.features_at_turn_end(&mut t.arena, 0);
    t.attack(0, 1, &[(10, 20), (1, 6), (5, 20)]);
    t.f_mut(0).state = State::Dead;
    t.enc.features_at_round_end(&mut t.arena);
    assert_eq!(t.f(1).spells.conditions & bits::INCAPACITATED, 0);
    // Short rest: ki back; a monk-4 strikes without it.
    t.f_mut(0).state = State::Up;
    rest(&mut t, 0, Between::ShortRest);
    assert_eq!(t.f(0).feats.ki, 5);
    let mut t = Table::new(
        vec![template("monk-4")],
        vec![tough_goblin()],
        EncounterRules::default(),
    );
    assert!(!t.enc.spellcasting);
    t.attack(0, 1, &[(10, 20), (1, 4)]);
    assert_eq!(t.f(1).spells.conditions, 0);
}

#[test]
fn deflect_missiles_takes_1d10_plus_dex_plus_level_off_a_ranged_weapon_hit() {
    // Monk-3: AC 15; 1d10 + 3 + 3. The shortbow's 1d6+2 of 8: 1 left.
    let mut t = Table::new(
        vec![template("monk-3")],
        vec![goblin()],
        EncounterRules::default(),
    );
    let hp = t.f(0).hp;
    let bow = goblin().attacks[1].clone();
    t.attack_with(1, 0, &bow, &[(15, 20), (6, 6), (1, 10)]);
    assert_eq!(t.f(0).hp, hp - 1);
    // Not below 0; the reaction is spent for the round.
    t.f_mut(0).reaction = true;
    t.attack_with(1, 0, &bow, &[(15, 20), (1, 6), (10, 10)]);
    assert_eq!(t.f(0).hp, hp - 1);
    t.attack_with(1, 0, &bow, &[(15, 20), (1, 6)]);
    assert_eq!(t.f(0).hp, hp - 4);
    // A melee hit is not deflected.
    t.f_mut(0).reaction = true;
    t.attack(1, 0, &[(15, 20), (4, 6)]);
    assert_eq!(t.f(0).hp, hp - 10);
    assert!(t.f(0).reaction);
}

#[test]
fn the_aura_of_protection_adds_the_paladins_charisma_to_its_allies_saves() {
    // A fighter-1 (Wisdom save +1) beside a paladin-6 (+2 aura).
    let mut t = Table::new(
        vec![template("fighter-1"), template("paladin-6")],
        vec![goblin()],
        EncounterRules::default(),
    );
    assert!(save(&mut t, 0, Ability::Wis, 10, &[(7, 20)]), "7 + 1 + 2");
    // An unconscious paladin grants nothing.
    t.dying(1, 0, 0);
    assert!(!save(&mut t, 0, Ability::Wis, 10, &[(7, 20)]));
    // Auras do not stack: the highest, less the paladin's own.
    let mut strong = template("paladin-6");
    strong.class_features.aura = 4;
    let mut t = Table::new(
        vec![template("fighter-1"), template("paladin-6"), strong],
        vec![goblin()],
        EncounterRules::default(),
    );
    assert!(save(&mut t, 0, Ability::Wis, 12, &[(7, 20)]), "7 + 1 + 4");
    assert!(!save(&mut t, 0, Ability::Wis, 13, &[(7, 20)]));
    // Paladin-6's Wisdom save (0 + 3 + 2 own) gains 2 more.
    let own = t.enc.spec(1).save(Ability::Wis);
    assert!(save(&mut t, 1, Ability::Wis, 7 + own + 2, &[(7, 20)]));
    // A paladin-5 has none; the goblins gain nothing from a paladin.
    let mut t = Table::new(
        vec![template("fighter-1"), template("paladin-5")],
        vec![goblin()],
        EncounterRules::default(),
    );
    assert!(!save(&mut t, 0, Ability::Wis, 10, &[(7, 20)]));
    let mut t = Table::new(
        vec![template("paladin-6")],
        vec![goblin()],
        EncounterRules::default(),
    );
    let g = goblin().save(Ability::Wis);
    assert!(!save(&mut t, 1, Ability::Wis, 8 + g, &[(7, 20)]));
    // With positions: 10 feet along the line.
    let rules = EncounterRules {
        positions: Some(Positions::DEFAULT),
        ..Default::default()
    };
    let mut t = Table::new(
        vec![template("fighter-1"), template("paladin-6")],
        vec![goblin()],
        rules,
    );
    t.f_mut(1).x = 10;
    assert!(save(&mut t, 0, Ability::Wis, 10, &[(7, 20)]));
    t.f_mut(1).x = 15;
    assert!(!save(&mut t, 0, Ability::Wis, 10, &[(7, 20)]));
}

#[test]
fn bardic_inspiration_goes_to_the_strongest_ally_and_onto_its_next_attack_roll() {
    // A bard-1 (3 uses, d6), a fighter-1 and a wizard-1 against a goblin;
    // no attack spells (spell_policy = "never"): the bonus action is the
    // feature's or the healing's.
    let rules = EncounterRules {
        spending: crate::combat::policy::Spending {
            spell_policy: crate::combat::policy::SpellPolicy::Never,
            ..crate::combat::policy::Spending::DEFAULT
        },
        ..EncounterRules::default()
    };
    let mut t = Table::new(
        vec![
            template("bard-1"),
            template("wizard-1"),
            template("fighter-1"),
        ],
        vec![goblin()],
        rules.clone(),
    );
    assert_eq!(t.f(0).feats.inspirations, 3);
    // Its turn: the die to the fighter (the higher threat), then its
    // rapier (target d1, a 2 misses).
    t.turn(0, false, &[(1, 1), (2, 20)]);
    assert_eq!((t.f(2).feats.inspired, t.f(1).feats.inspired), (6, 0));
    assert_eq!(t.f(0).feats.inspirations, 2);
    assert!(t.f(0).spells.bonus_spent);
    // The fighter's 8 + 5 = 13 misses AC 15; the die's 3 makes 16: longsword 1 + 3 + 2.
    t.attack(2, 3, &[(8, 20), (3, 6), (1, 8)]);
    assert_eq!(t.f(3).hp, 7 - 6);
    assert_eq!(t.f(2).feats.inspired, 0, "spent");
    // With healing word spent on a dying ally, no die.
    t.dying(1, 0, 0);
    t.turn(0, false, &[(1, 4), (1, 1), (2, 20)]);
    assert_eq!(t.f(1).state, State::Up);
    assert_eq!(t.f(0).feats.inspirations, 2, "the bonus action healed");
    // Font of Inspiration: a short rest brings the uses back from 5.
    t.f_mut(0).feats.inspirations = 0;
    rest(&mut t, 0, Between::ShortRest);
    assert_eq!(t.f(0).feats.inspirations, 0);
    let mut t = Table::new(vec![template("bard-5")], vec![goblin()], rules);
    t.f_mut(0).feats.inspirations = 0;
    rest(&mut t, 0, Between::ShortRest);
    assert_eq!(t.f(0).feats.inspirations, 4);
    // Alone, it has no one to inspire.
    t.turn(0, false, &[(1, 1), (2, 20)]);
    assert_eq!(t.f(0).feats.inspirations, 4);
}

#[test]
fn preserve_life_restores_five_hp_per_level_up_to_half_of_each_allys_maximum() {
    // A cleric-2 (pool 10, worth using from 4) and two fighter-5s (44 HP).
    let party = || {
        let mut t = Table::new(
            vec![
                template("cleric-2"),
                template("fighter-5"),
                template("fighter-5"),
            ],
            vec![goblin()],
            EncounterRules::default(),
        );
        // No healing word: Preserve Life alone is weighed.
        t.f_mut(0).heal_uses = 0;
        t
    };
    let mut t = party();
    t.f_mut(1).hp = 20;
    t.f_mut(2).hp = 10;
    assert!(t.support(0, false, true, &[]), "an action");
    // The lowest share first: 10 of its room of 12; the pool is spent.
    assert_eq!((t.f(1).hp, t.f(2).hp), (20, 20));
    assert_eq!(t.f(0).feats.preserves, 0);
    // One ally below half and no one dying: not used.
    let mut t = party();
    t.f_mut(2).hp = 10;
    assert!(!t.support(0, false, true, &[]));
    assert_eq!(t.f(0).feats.preserves, 1);
    // One dying: up to half its maximum, then the next.
    let mut t = party();
    t.dying(1, 0, 2);
    t.f_mut(2).hp = 21;
    assert!(t.support(0, false, true, &[]));
    assert_eq!(t.state(1), (State::Up, 10));
    assert_eq!(t.f(2).hp, 21);
    // Two allies with 1 HP of room each: less than twice the level.
    let mut t = party();
    t.f_mut(1).hp = 21;
    t.f_mut(2).hp = 21;
    assert!(!t.support(0, false, true, &[]));
    // A short rest brings the use back; two at 6, three at 18.
    let mut t = party();
    t.f_mut(0).feats.preserves = 0;
    rest(&mut t, 0, Between::ShortRest);
    assert_eq!(t.f(0).feats.preserves, 1);
    assert_eq!(template("cleric-6").class_features.preserve_life, 2);
    assert_eq!(template("cleric-1").class_features.preserve_life, 0);
}

#[test]
fn quickened_spell_casts_an_action_spell_as_a_bonus_action_for_two_sorcery_points() {
    use rand::SeedableRng;
    let six = || vec![monster("hobgoblin-warrior"); 6];
    let mut t = Table::new(
        vec![template("sorcerer-9")],
        six(),
        EncounterRules::default(),
    );
    assert_eq!(t.f(0).feats.sorcery_points, 9);
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
    let Table { enc, arena, out } = &mut t;
    let slots_before: u8 = arena.fighters[0].slots.iter().sum();
    let turn = enc.cast_spells(&mut rng, arena, 0, true, true, out);
    // A levelled spell with the bonus action, the action left for the
    // Attack action (fire bolt: no second slot this turn).
    assert!(turn.bonus && !turn.action, "{turn:?}");
    let f = &arena.fighters[0];
    assert_eq!(f.feats.sorcery_points, 7, "2 points spent");
    assert_eq!(f.slots.iter().sum::<u8>(), slots_before - 1, "one slot");
    // Fewer than 2 points: the spell takes the action.
    let mut t = Table::new(
        vec![template("sorcerer-9")],
        six(),
        EncounterRules::default(),
    );
    t.f_mut(0).feats.sorcery_points = 1;
    let Table { enc, arena, out } = &mut t;
    let turn = enc.cast_spells(&mut rng, arena, 0, true, true, out);
    assert!(turn.action && !turn.bonus, "{turn:?}");
    assert_eq!(arena.fighters[0].feats.sorcery_points, 1);
    // Its bonus action already spent: no quickened spell either.
    let mut t = Table::new(
        vec![template("sorcerer-9")],
        six(),
        EncounterRules::default(),
    );
    let Table { enc, arena, out } = &mut t;
    let turn = enc.cast_spells(&mut rng, arena, 0, true, false, out);
    assert!(turn.action && !turn.bonus, "{turn:?}");
    assert_eq!(arena.fighters[0].feats.sorcery_points, 9);
    // The points are shared over the fights before a long rest (9 over
    // 4 fights: 3 this fight, one quickened spell), and only a long rest
    // brings them back.
    let mut t = Table::new(
        vec![template("sorcerer-9")],
        six(),
        EncounterRules::default(),
    );
    t.f_mut(0).begin_fight_spells(4);
    assert_eq!(t.f(0).feats.points_budget, 3);
    t.f_mut(0).feats.sorcery_points = 2;
    rest(&mut t, 0, Between::ShortRest);
    assert_eq!(t.f(0).feats.sorcery_points, 2);
    rest(&mut t, 0, Between::LongRest);
    assert_eq!(t.f(0).feats.sorcery_points, 9);
    // Metamagic from level 3; Font of Magic's points by level.
    assert_eq!(template("sorcerer-2").class_features.sorcery_points, 0);
    assert_eq!(template("sorcerer-3").class_features.sorcery_points, 3);
    assert_eq!(template("sorcerer-20").class_features.sorcery_points, 20);
    assert_eq!(template("wizard-20").class_features.sorcery_points, 0);
}

#[test]
fn mystic_arcanum_casts_one_spell_of_its_level_per_long_rest_and_no_pact_spell_climbs_into_it() {
    let mut t = Table::new(
        vec![template("warlock-17")],
        vec![tough_goblin()],
        EncounterRules::default(),
    );
    assert_eq!(t.f(0).slots, [0, 0, 0, 0, 4, 1, 1, 1, 1]);
    assert_eq!(
        template("warlock-11").spell_slots(),
        [0, 0, 0, 0, 3, 1, 0, 0, 0]
    );
    assert_eq!(
        template("warlock-10").spell_slots(),
        [0, 0, 0, 0, 2, 0, 0, 0, 0]
    );
    let open = |t: &Table, level: u8| t.enc.open_slot(&t.arena, 0, level);
    // A spell up to 5th level takes a Pact Magic slot (of 5th level).
    assert_eq!(open(&t, 3), Some(5));
    // Its Pact slots spent, it casts no 3rd-level spell with an arcanum.
    t.f_mut(0).slots[4] = 0;
    assert_eq!(open(&t, 3), None);
    assert_eq!(open(&t, 5), None);
    // Each arcanum takes a spell of its own level only.
    assert_eq!(open(&t, 6), Some(6));
    t.f_mut(0).slots[5] = 0;
    assert_eq!(
        open(&t, 6),
        None,
        "no 6th-level spell in a 7th-level arcanum"
    );
    assert_eq!(open(&t, 7), Some(7));
    // A short rest brings the Pact slots back, not the arcanum.
    rest(&mut t, 0, Between::ShortRest);
    assert_eq!(t.f(0).slots, [0, 0, 0, 0, 4, 0, 1, 1, 1]);
    rest(&mut t, 0, Between::LongRest);
    assert_eq!(t.f(0).slots, [0, 0, 0, 0, 4, 1, 1, 1, 1]);
    // A wizard's slots stay open to any spell of their level or lower.
    let mut w = Table::new(
        vec![template("wizard-17")],
        vec![tough_goblin()],
        EncounterRules::default(),
    );
    w.f_mut(0).slots = [0, 0, 0, 0, 0, 0, 0, 0, 1];
    assert_eq!(w.enc.open_slot(&w.arena, 0, 3), Some(9));
}

#[test]
fn divine_strike_adds_radiant_dice_once_a_turn_to_a_weapon_hit_and_a_rogue_evades_from_7() {
    // Cleric-8: the mace (+5, 1d6+2) and Divine Strike's 1d8 radiant.
    let mut t = Table::new(
        vec![template("cleric-8")],
        vec![tough_goblin()],
        EncounterRules::default(),
    );
    // 15 + 5 hits AC 15; mace 4 + 2, Divine Strike 8.
    t.attack(0, 1, &[(15, 20), (4, 6), (8, 8)]);
    assert_eq!(t.f(1).hp, 100 - 14);
    // Once a turn: a second hit in the same turn adds only the mace.
    t.attack(0, 1, &[(15, 20), (4, 6)]);
    assert_eq!(t.f(1).hp, 100 - 14 - 6);
    let strike = |name: &str| template(name).once_per_turn.map(|o| o.dice.to_string());
    assert_eq!(strike("cleric-7"), None);
    assert_eq!(strike("cleric-13").as_deref(), Some("1d8"));
    assert_eq!(strike("cleric-14").as_deref(), Some("2d8"));
    // Evasion: the rogue's from 7.
    assert!(!template("rogue-6").evasion);
    assert!(template("rogue-7").evasion);
}

/// `me` uses Turn Undead on the dice.
fn turn_undead(t: &mut Table, me: usize, dice: &[(u64, u64)]) {
    let Table { enc, arena, out } = t;
    with_dice(dice, |rng| enc.turn_undead(rng, arena, me, out));
}

#[test]
fn turn_undead_turns_an_undead_that_fails_until_damaged_and_destroy_undead_destroys_low_challenge()
{
    // The statblocks: creature type and challenge rating.
    let zombie = monster("zombie");
    assert!(zombie.undead && zombie.challenge == 0.25);
    assert!(monster("ghoul").undead && monster("ghoul").challenge == 1.0);
    assert!(!goblin().undead);
    // The templates: DC 8 + proficiency + Wis; Destroy Undead by level.
    let c = |name: &str| template(name).class_features;
    assert!(!c("cleric-1").turn_undead);
    assert_eq!(
        (c("cleric-2").turn_undead, c("cleric-2").turn_dc),
        (true, 13)
    );
    assert_eq!(c("cleric-4").destroy_cr, None);
    assert_eq!(c("cleric-5").destroy_cr, Some(0.5));
    assert_eq!(c("cleric-8").destroy_cr, Some(1.0));
    assert_eq!(c("cleric-17").destroy_cr, Some(4.0));
    assert!(!c("wizard-9").turn_undead);
    let incapacitated = Condition::Incapacitated.bits();
    // Cleric-3 (DC 13) against a zombie (Wis +0) and a goblin: only the
    // zombie is in reach (a pick of 1), it fails (5 + 0) and is turned.
    let mut t = Table::new(
        vec![template("cleric-3")],
        vec![monster("zombie"), goblin()],
        EncounterRules::default(),
    );
    let uses = t.f(0).feats.preserves;
    turn_undead(&mut t, 0, &[(1, 1), (5, 20)]);
    assert_eq!(t.f(0).feats.preserves, uses - 1, "a Channel Divinity use");
    assert_eq!(t.f(1).spells.conditions & incapacitated, incapacitated);
    assert_eq!(t.f(2).spells.conditions, 0, "the goblin is no undead");
    // A turned creature takes no turn; damage ends the turning.
    t.turn(1, false, &[]);
    t.deal(1, slashing(3, false), &[]);
    assert_eq!(t.f(1).spells.conditions, 0);
    // A success (13 + 0) leaves it free.
    let mut t = Table::new(
        vec![template("cleric-3")],
        vec![monster("zombie")],
        EncounterRules::default(),
    );
    turn_undead(&mut t, 0, &[(1, 1), (13, 20)]);
    assert_eq!(t.f(1).spells.conditions, 0);
    // Cleric-5 (DC 15): a zombie (challenge 1/4) that fails is destroyed,
    // a ghoul (challenge 1) turned.
    let mut t = Table::new(
        vec![template("cleric-5")],
        vec![monster("zombie"), monster("ghoul")],
        EncounterRules::default(),
    );
    // Picks: the zombie first (1 of 2), then the ghoul (1 of 1); both fail.
    turn_undead(&mut t, 0, &[(1, 2), (1, 1), (5, 20), (5, 20)]);
    assert_eq!((t.f(1).state, t.f(1).hp), (State::Dead, 0));
    assert_eq!(t.f(2).state, State::Up);
    assert_eq!(t.f(2).spells.conditions & incapacitated, incapacitated);
    // The policy turns four zombies rather than swing its mace; not a
    // goblin band.
    use rand::SeedableRng;
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(9);
    let mut t = Table::new(
        vec![template("cleric-3")],
        vec![monster("zombie"); 4],
        EncounterRules::default(),
    );
    let Table { enc, arena, out } = &mut t;
    let turn = enc.cast_spells(&mut rng, arena, 0, true, true, out);
    assert!(turn.action);
    assert_eq!(arena.fighters[0].feats.preserves, uses - 1);
    let mut t = Table::new(
        vec![template("cleric-3")],
        vec![goblin(); 4],
        EncounterRules::default(),
    );
    let Table { enc, arena, out } = &mut t;
    enc.cast_spells(&mut rng, arena, 0, true, true, out);
    assert_eq!(arena.fighters[0].feats.preserves, uses);
}

#[test]
fn dark_ones_blessing_gives_temporary_hit_points_on_a_drop_which_take_damage_first() {
    assert_eq!(template("warlock-1").class_features.dark_ones_blessing, 4);
    assert_eq!(template("warlock-5").class_features.dark_ones_blessing, 9);
    assert_eq!(template("wizard-5").class_features.dark_ones_blessing, 0);
    let mut t = Table::new(
        vec![template("warlock-5")],
        vec![goblin(), goblin()],
        EncounterRules::default(),
    );
    // A miss drops no one: nothing.
    t.attack(0, 1, &[(2, 20)]);
    assert_eq!(t.f(0).temp_hp, 0);
    // Eldritch blast (+7, 1d10+4) hits AC 15 with 15 and drops the goblin
    // (7 HP) with 5 + 4: Cha 4 + level 5 = 9 temporary hit points.
    t.attack(0, 1, &[(15, 20), (5, 10)]);
    assert_eq!(t.f(1).state, State::Dead);
    assert_eq!(t.f(0).temp_hp, 9);
    // They take the damage first, then its hit points take the rest.
    let hp = t.f(0).hp;
    t.deal(0, slashing(5, false), &[]);
    assert_eq!((t.f(0).temp_hp, t.f(0).hp), (4, hp));
    t.deal(0, slashing(6, false), &[]);
    assert_eq!((t.f(0).temp_hp, t.f(0).hp), (0, hp - 2));
    // They do not stack: the higher stays.
    t.f_mut(0).temp_hp = 12;
    t.attack(0, 2, &[(15, 20), (5, 10)]);
    assert_eq!(t.f(0).temp_hp, 12);
    // A long rest ends them.
    rest(&mut t, 0, Between::LongRest);
    assert_eq!(t.f(0).temp_hp, 0);
}

#[test]
fn empowered_evocation_adds_int_to_the_wizards_evocations_from_10() {
    let bonus = |name: &str, spell: &str| {
        let w = template(name);
        w.known_spells
            .iter()
            .find(|k| k.spell.name == spell)
            .map(|k| k.damage_bonus)
    };
    let fire_bolt = |name: &str| template(name).attacks[0].damage.modifier;
    // Level 9: none; level 10: + Int (5) to fire bolt, magic missile,
    // fireball and cone of cold (evocations), none to hold monster
    // (enchantment).
    assert_eq!(fire_bolt("wizard-9"), 0);
    assert_eq!(fire_bolt("wizard-10"), 5);
    assert_eq!(bonus("wizard-9", "fireball"), Some(0));
    assert_eq!(bonus("wizard-10", "fireball"), Some(5));
    assert_eq!(bonus("wizard-10", "magic_missile"), Some(5));
    assert_eq!(bonus("wizard-10", "cone_of_cold"), Some(5));
    assert_eq!(bonus("wizard-10", "hold_monster"), Some(0));
    // The sorcerer's Elemental Affinity stays on its fire spells only.
    assert_eq!(bonus("sorcerer-10", "fireball"), Some(5));
    assert_eq!(bonus("sorcerer-10", "cone_of_cold"), Some(0));
}

#[test]
fn armor_of_shadows_gives_the_warlock_mage_armor_from_2() {
    // Leather armour: 11 + Dex 2; Armor of Shadows at 2: 13 + Dex 2.
    assert_eq!(template("warlock-1").ac, 13);
    assert_eq!(template("warlock-2").ac, 15);
    assert_eq!(template("warlock-20").ac, 15);
}

#[test]
fn fiendish_vigor_casts_false_life_before_each_fight_from_7_without_stacking() {
    assert!(!template("warlock-6").class_features.fiendish_vigor);
    assert!(template("warlock-7").class_features.fiendish_vigor);
    let mut t = Table::new(
        vec![template("warlock-7")],
        vec![tough_goblin()],
        EncounterRules::default(),
    );
    let vigor = |t: &mut Table, dice: &[(u64, u64)]| {
        let Table { enc, arena, .. } = t;
        with_dice(dice, |rng| enc.fiendish_vigor(rng, arena));
    };
    // 1d4 + 4: a 3 gives 7 temporary hit points.
    vigor(&mut t, &[(3, 4)]);
    assert_eq!(t.f(0).temp_hp, 7);
    // They do not stack: 9 already stay 9; 5 become the 8 rolled.
    t.f_mut(0).temp_hp = 9;
    vigor(&mut t, &[(4, 4)]);
    assert_eq!(t.f(0).temp_hp, 9);
    t.f_mut(0).temp_hp = 5;
    vigor(&mut t, &[(4, 4)]);
    assert_eq!(t.f(0).temp_hp, 8);
    // A warlock at 0 HP casts nothing (no die is rolled: the script is empty).
    t.f_mut(0).temp_hp = 0;
    t.f_mut(0).state = State::Stable;
    vigor(&mut t, &[]);
    assert_eq!(t.f(0).temp_hp, 0);
}

#[test]
fn repelling_blast_pushes_a_large_or_smaller_creature_10_feet_away_on_each_hit_with_positions() {
    assert_eq!(template("warlock-4").class_features.repel_feet, 0);
    assert_eq!(template("warlock-5").class_features.repel_feet, 10);
    let rules = EncounterRules {
        positions: Some(Positions::DEFAULT),
        ..Default::default()
    };
    let mut huge = tough_goblin();
    huge.size = crate::rules::damage::Size::Huge;
    let mut t = Table::new(
        vec![template("warlock-5")],
        vec![tough_goblin(), huge],
        rules,
    );
    // Beyond 5 ft: no disadvantage on the ranged attack.
    t.f_mut(0).x = 0;
    t.f_mut(1).x = 10;
    t.f_mut(2).x = 30;
    // A miss pushes nothing.
    t.attack(0, 1, &[(2, 20)]);
    assert_eq!(t.f(1).x, 10);
    // A hit (15 + 7 against AC 15) pushes it 10 ft away.
    t.attack(0, 1, &[(15, 20), (5, 10)]);
    assert_eq!(t.f(1).x, 20);
    // A second beam, 10 ft more; from behind the warlock, away the other way.
    t.attack(0, 1, &[(15, 20), (5, 10)]);
    assert_eq!(t.f(1).x, 30);
    t.f_mut(1).x = -10;
    t.attack(0, 1, &[(15, 20), (5, 10)]);
    assert_eq!(t.f(1).x, -20);
    // A Huge creature stays where it is.
    t.attack(0, 2, &[(15, 20), (5, 10)]);
    assert_eq!(t.f(2).x, 30);
    // Without positions nothing moves.
    let mut t = Table::new(
        vec![template("warlock-5")],
        vec![tough_goblin()],
        EncounterRules::default(),
    );
    let x = t.f(1).x;
    t.attack(0, 1, &[(15, 20), (5, 10)]);
    assert_eq!(t.f(1).x, x);
}

/// The druid of `name` from the built-in catalog (its Wild Shape form
/// resolved in the bestiary).
fn druid(name: &str) -> CreatureSpec {
    let catalog = crate::scenario::data::builtin_catalog().unwrap();
    catalog.templates.template(name).unwrap()
}

#[test]
fn wild_shape_forms_follow_the_beast_shapes_table_and_keep_the_druids_mind() {
    let form = |name: &str| {
        druid(name)
            .wild_shape
            .map(|f| (f.name.clone(), f.max_hp, f.ac))
    };
    assert_eq!(form("druid-1"), None);
    assert_eq!(druid("druid-1").class_features.wild_shape, 0);
    assert_eq!(
        form("druid-2"),
        Some(("druid-2 as giant-lizard".into(), 19, 12))
    );
    assert_eq!(form("druid-4"), Some(("druid-4 as ape".into(), 19, 12)));
    assert_eq!(
        form("druid-8"),
        Some(("druid-8 as giant-hyena".into(), 45, 12))
    );
    assert_eq!(druid("druid-8").class_features.wild_shape, 2);
    // Its Intelligence, Wisdom and Charisma saves are its own; Strength,
    // Dexterity and Constitution the beast's.
    let d = druid("druid-8");
    let f = d.wild_shape.as_deref().unwrap();
    let hyena = monster("giant-hyena");
    assert_eq!(f.saves[3..], d.saves[3..]);
    assert_eq!(f.saves[..3], hyena.saves[..3]);
    assert_eq!(f.attacks, hyena.attacks);
    assert!(f.heal.is_none() && f.spellbook.is_none());
    // A class without the feature has no form.
    assert!(druid("cleric-8").wild_shape.is_none());
}

#[test]
fn wild_shape_takes_the_action_the_casting_policy_leaves_and_the_forms_hp_take_damage_first() {
    let mut t = Table::new(
        vec![druid("druid-8")],
        vec![tough_goblin()],
        EncounterRules {
            targeting: crate::combat::policy::Targeting::FocusFire,
            ..Default::default()
        },
    );
    let own_hp = t.f(0).hp;
    // Nothing to cast (no attack spell): its action goes to Wild Shape.
    t.f_mut(0).spell_caster = false;
    t.turn(0, false, &[]);
    let f = t.f(0);
    assert!(f.shape.is_some());
    assert_eq!((f.hp, f.max_hp, f.feats.wild_shapes), (45, 45, 1));
    assert_eq!(t.enc.spec(t.f(0).spec).name, "druid-8 as giant-hyena");
    // In the form it heals no one and pours no potion.
    assert!(!t.enc.can_support(t.f(0), false));
    // Its next turn: the hyena's bite (+5), not another shape.
    t.turn(0, false, &[(2, 20)]);
    assert_eq!(t.f(0).feats.wild_shapes, 1);
    // Damage takes the form's hit points; its own stay.
    t.deal(0, slashing(40, false), &[]);
    assert_eq!(t.f(0).hp, 5);
    // The form drops to 0 HP: its own shape, the excess (7 - 5 = 2) carried over.
    t.deal(0, slashing(7, false), &[]);
    let f = t.f(0);
    assert!(f.shape.is_none());
    assert_eq!((f.hp, f.state), (own_hp - 2, State::Up));
    assert_eq!(t.enc.spec(t.f(0).spec).name, "druid-8");
    // Excess beyond its own hit points drops it: dying.
    t.turn(0, false, &[]);
    assert!(t.f(0).shape.is_some());
    assert_eq!(t.f(0).feats.wild_shapes, 0);
    t.deal(0, slashing(45 + own_hp - 2, false), &[]);
    assert_eq!((t.f(0).hp, t.f(0).state), (0, State::Dying));
    assert!(t.f(0).shape.is_none());
    // No use left: no shape; a short rest brings both back.
    t.f_mut(0).hp = own_hp;
    t.f_mut(0).state = State::Up;
    assert!(!t.enc.wants_wild_shape(&t.arena, 0));
    rest(&mut t, 0, Between::ShortRest);
    assert_eq!(t.f(0).feats.wild_shapes, 2);
}

#[test]
fn wild_shape_keeps_concentration_and_ends_with_the_fight() {
    let mut t = Table::new(
        vec![druid("druid-8")],
        vec![tough_goblin()],
        EncounterRules::default(),
    );
    t.f_mut(0).hp = 30;
    t.f_mut(0).spells.concentrating = 1;
    t.f_mut(0).spell_caster = false;
    t.turn(0, false, &[]);
    assert!(t.f(0).shape.is_some());
    assert_eq!(t.f(0).spells.concentrating, 1, "transforming keeps it");
    // A hit on the form calls for the concentration save (DC 10 for 12:
    // Con +2 of the hyena, a 3 fails).
    t.deal(0, slashing(12, false), &[(3, 20)]);
    assert_eq!(t.f(0).spells.concentrating, 0);
    assert_eq!(t.f(0).hp, 33);
    // The fight over, it is itself again with the hit points it had.
    t.enc.end_wild_shapes(&mut t.arena);
    assert!(t.f(0).shape.is_none());
    assert_eq!((t.f(0).hp, t.f(0).spell_caster), (30, false));
}
