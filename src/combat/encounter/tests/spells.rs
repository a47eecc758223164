//! Spells and potions in the round loop (SRD 5.1 spell texts; docs/combat.md,
//! spells and potions): each spell's effect, upcasting, the slot policies,
//! *revivify*'s minute and diamond, *aid* until a long rest, knocked-out
//! teeth, and potions by rarity.

use super::injuries::{CHANCE, injury_rules};
use super::*;
use crate::combat::encounter::fighter::NEVER_REVIVED;
use crate::combat::policy::{Between, DrinkWhen, SlotChoice, Spending};
use crate::rules::injury_cures::spell_index;

/// A level-5 life cleric (Wisdom +4, slots 4/3/2, Disciple of Life) who
/// casts `spells` and carries `diamonds`, without the template's healing
/// word feature and Preserve Life.
fn cleric(spells: &[&str], diamonds: u8) -> CreatureSpec {
    let mut c = template("cleric-5");
    c.heal = None;
    c.class_features.preserve_life = 0;
    let book = c.spellbook.as_mut().unwrap();
    assert_eq!(
        (book.slots, book.modifier),
        ([4, 3, 2, 0, 0, 0, 0, 0, 0], 4)
    );
    assert!(book.disciple_of_life);
    book.spells = spells.iter().map(|s| spell_index(s).unwrap()).collect();
    book.diamonds = diamonds;
    c
}

/// A cleric casting `spells` (fighter 0) beside two level-5 fighters
/// (44 HP; fighters 1 and 2), against a goblin.
fn party(spells: &[&str], diamonds: u8, rules: EncounterRules) -> Table {
    let mut t = Table::new(
        vec![
            cleric(spells, diamonds),
            template("fighter-5"),
            template("fighter-5"),
        ],
        vec![goblin()],
        rules,
    );
    // The fighters' Second Wind would heal themselves: spent.
    t.f_mut(1).heal_uses = 0;
    t.f_mut(2).heal_uses = 0;
    t
}

fn spending(s: Spending) -> EncounterRules {
    EncounterRules {
        spending: s,
        ..Default::default()
    }
}

#[test]
fn healing_word_is_a_bonus_action_of_1d4_plus_the_modifier_and_disciple_of_life() {
    let mut t = party(&["healing_word"], 0, EncounterRules::default());
    t.dying(1, 1, 2);
    // 1d4 = 3, + Wisdom 4, + Disciple of Life 2 + slot level 1.
    let action_spent = t.support(0, false, true, &[(3, 4)]);
    assert!(!action_spent, "a bonus action: the cleric still attacks");
    assert_eq!(t.state(1), (State::Up, 10));
    assert_eq!(t.f(1).tally, Tally::default());
    assert_eq!(t.f(0).slots[0], 3, "one 1st-level slot spent");
}

#[test]
fn upcasting_adds_the_dice_per_slot_level_under_the_highest_slot_policy() {
    let rules = spending(Spending {
        slot: SlotChoice::Highest,
        ..Spending::DEFAULT
    });
    let mut t = party(&["healing_word"], 0, rules);
    t.dying(1, 0, 0);
    // A 3rd-level slot: 3d4 = 1 + 2 + 3, + 4, + Disciple 2 + 3.
    t.support(0, false, true, &[(1, 4), (2, 4), (3, 4)]);
    assert_eq!(t.state(1), (State::Up, 15));
    assert_eq!(t.f(0).slots, [4, 3, 1, 0, 0, 0, 0, 0, 0]);
}

#[test]
fn cure_wounds_is_an_action_of_1d8_plus_the_modifier() {
    let mut t = party(&["cure_wounds"], 0, EncounterRules::default());
    t.dying(2, 0, 0);
    assert!(t.support(0, false, true, &[(8, 8)]), "the action is spent");
    assert_eq!(t.state(2), (State::Up, 8 + 4 + 3));
    // Without its action the cleric cannot cast it.
    t.dying(2, 0, 0);
    t.support(0, false, false, &[]);
    assert_eq!(t.f(2).state, State::Dying);
}

#[test]
fn mass_healing_word_reaches_every_dying_ally_with_one_roll() {
    let mut t = party(
        &["healing_word", "mass_healing_word"],
        0,
        EncounterRules::default(),
    );
    t.dying(1, 0, 0);
    t.dying(2, 0, 0);
    // Two dying: the spell of several targets, a 3rd-level slot; 1d4 = 2,
    // + 4, + Disciple 2 + 3, for both.
    t.support(0, false, true, &[(2, 4)]);
    assert_eq!(t.state(1), (State::Up, 11));
    assert_eq!(t.state(2), (State::Up, 11));
    assert_eq!(t.f(0).slots, [4, 3, 1, 0, 0, 0, 0, 0, 0]);
    // One dying: healing word (the lowest level) is enough.
    t.dying(1, 0, 0);
    t.support(0, false, true, &[(2, 4)]);
    assert_eq!(t.state(1), (State::Up, 9));
    assert_eq!(t.f(0).slots, [3, 3, 1, 0, 0, 0, 0, 0, 0]);
}

#[test]
fn the_slot_reserve_keeps_slots_for_the_dying() {
    let rules = EncounterRules {
        heal_when: crate::combat::policy::HealWhen::BelowHalf,
        spending: Spending {
            slot_reserve: 9,
            ..Spending::DEFAULT
        },
        ..Default::default()
    };
    let mut t = party(&["healing_word"], 0, rules.clone());
    t.f_mut(1).hp = 5; // below half of 44, not dying
    assert!(!t.support(0, false, true, &[]));
    assert_eq!(t.f(1).hp, 5, "9 slots left, 9 kept: no healing");
    t.dying(2, 0, 0);
    t.support(0, false, true, &[(1, 4)]);
    assert_eq!(
        t.state(2),
        (State::Up, 8),
        "the dying are healed from the reserve"
    );
    // With a reserve of 7, 8 slots left: the wounded ally is healed.
    let mut t = party(
        &["healing_word"],
        0,
        EncounterRules {
            spending: Spending {
                slot_reserve: 7,
                ..Spending::DEFAULT
            },
            ..rules
        },
    );
    t.f_mut(0).slots[0] = 3;
    t.f_mut(1).hp = 5;
    t.support(0, false, true, &[(1, 4)]);
    assert_eq!(t.f(1).hp, 13);
}

#[test]
fn revivify_raises_an_ally_dead_for_at_most_a_minute_with_1_hp_and_a_diamond() {
    let mut t = party(&["revivify"], 1, EncounterRules::default());
    t.f_mut(1).state = State::Dead;
    t.f_mut(1).hp = 0;
    t.f_mut(1).died_round = 2;
    t.arena.round = 13;
    assert!(!t.support(0, false, true, &[]), "11 rounds: too late");
    assert_eq!(t.f(1).state, State::Dead);
    t.arena.round = 12;
    assert!(t.support(0, false, true, &[]), "10 rounds: an action");
    assert_eq!(t.state(1), (State::Up, 1));
    assert_eq!((t.f(0).diamonds, t.f(0).slots[2]), (0, 1));
    // No diamond left: no second revivify.
    t.f_mut(2).state = State::Dead;
    t.f_mut(2).died_round = 12;
    assert!(!t.support(0, false, true, &[]));
    assert_eq!(t.f(2).state, State::Dead);
    // Dead since an earlier fight, or the policy off: never.
    let mut t = party(&["revivify"], 1, EncounterRules::default());
    t.f_mut(1).state = State::Dead;
    t.f_mut(1).died_round = NEVER_REVIVED;
    assert!(!t.support(0, false, true, &[]));
    let mut t = party(
        &["revivify"],
        1,
        spending(Spending {
            revivify: false,
            ..Spending::DEFAULT
        }),
    );
    t.f_mut(1).state = State::Dead;
    t.f_mut(1).died_round = 1;
    t.arena.round = 1;
    assert!(!t.support(0, false, true, &[]));
}

#[test]
fn a_rest_between_fights_puts_the_dead_beyond_revivify() {
    let mut t = party(&["revivify"], 1, EncounterRules::default());
    t.f_mut(1).state = State::Dead;
    t.enc.between_fights(&mut super::no_dice(), &mut t.arena);
    assert_eq!(t.f(1).died_round, NEVER_REVIVED);
}

#[test]
fn spare_the_dying_stabilises_without_a_slot() {
    let mut t = party(&["spare_the_dying"], 0, EncounterRules::default());
    t.dying(1, 1, 2);
    assert!(t.support(0, false, true, &[]));
    assert_eq!(t.f(1).state, State::Stable);
    assert_eq!(t.f(1).tally, Tally::default());
    assert_eq!(t.f(0).slots, [4, 3, 2, 0, 0, 0, 0, 0, 0]);
}

#[test]
fn aid_raises_three_allies_max_and_current_hp_until_a_long_rest() {
    let rules = EncounterRules {
        between: Between::LongRest,
        encounters: 2,
        ..Default::default()
    };
    let mut t = party(&["aid"], 0, rules);
    let before: Vec<i32> = (0..3).map(|i| t.f(i).max_hp).collect();
    with_dice(&[], |rng| t.enc.cast_aid(rng, &mut t.arena));
    for (i, &max) in before.iter().enumerate() {
        assert_eq!(
            (t.f(i).max_hp, t.f(i).hp),
            (max + 5, max + 5),
            "fighter {i}"
        );
    }
    assert_eq!(t.f(0).slots[1], 2, "a 2nd-level slot");
    // In force: not cast again.
    with_dice(&[], |rng| t.enc.cast_aid(rng, &mut t.arena));
    assert_eq!(t.f(0).slots[1], 2);
    // A long rest ends it and restores the slots.
    t.enc.between_fights(&mut super::no_dice(), &mut t.arena);
    assert_eq!((t.f(1).max_hp, t.f(1).aid_hp), (before[1], 0));
    assert_eq!(t.f(0).slots[1], 3);
}

#[test]
fn knocked_out_teeth_make_a_spell_fail_on_a_1_and_the_slot_is_spent() {
    let mut rules = injury_rules();
    rules.spending = Spending::DEFAULT;
    let mut t = Table::new(
        vec![cleric(&["healing_word"], 0), template("fighter-5")],
        vec![goblin()],
        rules,
    );
    t.f_mut(1).heal_uses = 0;
    t.injure(0, &[CHANCE, (51, 100)]);
    assert_eq!(t.injuries_of(0), vec!["knocked_out_teeth"]);
    t.dying(1, 0, 0);
    t.support(0, false, true, &[(1, 20)]);
    assert_eq!(t.f(1).state, State::Dying, "the spell failed");
    assert_eq!(t.f(0).slots[0], 3);
    t.support(0, false, true, &[(2, 20), (4, 4)]);
    assert_eq!(t.state(1), (State::Up, 11));
}

#[test]
fn heal_restores_70_and_cures_what_needs_6th_level_magic() {
    let mut rules = injury_rules();
    rules.heal_when = crate::combat::policy::HealWhen::BelowHalf;
    let mut c = template("cleric-11");
    c.heal = None;
    let book = c.spellbook.as_mut().unwrap();
    book.spells = vec![spell_index("heal").unwrap()];
    let mut t = Table::new(vec![c, template("fighter-11")], vec![goblin()], rules);
    t.f_mut(1).heal_uses = 0;
    t.injure(1, &[CHANCE, (86, 100)]);
    assert_eq!(t.injuries_of(1), vec!["horrible_scar"]);
    t.f_mut(1).hp = 1;
    assert!(t.support(0, false, true, &[]), "an action, no dice: 70 HP");
    // 70 + Disciple of Life 2 + 6.
    assert_eq!(t.f(1).hp, (1 + 78).min(t.f(1).max_hp));
    assert!(
        t.injuries_of(1).is_empty(),
        "6th-level healing cures the scar"
    );
}

#[test]
fn potions_go_by_rarity_weakest_to_the_dying_strongest_when_drunk() {
    let rules = spending(Spending {
        drink_potions: DrinkWhen::BelowHalf,
        ..Spending::DEFAULT
    });
    let mut t = Table::new(
        vec![template("fighter-5"), template("fighter-5")],
        vec![goblin()],
        rules,
    );
    t.f_mut(0).heal_uses = 0;
    t.f_mut(0).potions = [1, 1, 0, 0];
    t.dying(1, 0, 0);
    // A potion of healing, 2d4 + 2, into the dying ally.
    assert!(t.support(0, false, true, &[(1, 4), (1, 4)]));
    assert_eq!(t.state(1), (State::Up, 4));
    assert_eq!(t.f(0).potions, [0, 1, 0, 0]);
    // Below half itself: it drinks the greater one, 4d4 + 4.
    t.f_mut(0).hp = 10;
    assert!(t.support(0, false, true, &[(4, 4), (4, 4), (4, 4), (4, 4)]));
    assert_eq!(t.f(0).hp, 30);
    assert_eq!(t.f(0).potions, [0; 4]);
}

#[test]
fn caster_templates_bring_their_slots_and_modifier_and_others_none() {
    let book = |name: &str| template(name).spellbook.map(|b| (b.slots, b.modifier));
    // A half caster: paladin-5 has 4 1st- and 2 2nd-level slots.
    let paladin = template("paladin-5").spellbook.unwrap();
    assert_eq!(paladin.slots, [4, 2, 0, 0, 0, 0, 0, 0, 0]);
    assert!(!paladin.disciple_of_life);
    assert_eq!(book("wizard-17").unwrap().0, [4, 3, 3, 3, 2, 1, 1, 1, 1]);
    assert_eq!(book("fighter-5"), None);
    assert_eq!(book("rogue-20"), None);
}

#[test]
fn a_spell_of_several_targets_heals_each_target_once() {
    let rules = EncounterRules {
        heal_when: crate::combat::policy::HealWhen::BelowHalf,
        ..Default::default()
    };
    let mut t = party(&["mass_healing_word"], 0, rules);
    t.dying(1, 0, 0);
    t.f_mut(2).hp = 3;
    // 1d4 = 1, + 4, + Disciple 2 + 3 = 10 each: still below half of 44,
    // yet neither is healed twice, and the cleric (full HP) not at all.
    t.support(0, false, true, &[(1, 4)]);
    assert_eq!(t.state(1), (State::Up, 10));
    assert_eq!(t.f(2).hp, 13);
    assert_eq!(t.f(0).slots[2], 1);
}
