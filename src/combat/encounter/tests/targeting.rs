//! Targeting in the round loop: monsters and downed PCs, and the
//! targeting policies.

use super::*;
use crate::combat::policy::{AttackDowned, Targeting};

#[test]
fn monsters_finish_the_downed_only_when_the_policy_says() {
    let rules = EncounterRules {
        attack_downed: AttackDowned::Always,
        ..Default::default()
    };
    let mut t = Table::new(vec![fighter(), fighter()], vec![goblin()], rules);
    t.dying(1, 0, 0);
    assert_eq!(t.target(2, Reach::Melee, &[]), Some(1));
    let mut t = Table::new(
        vec![fighter(), fighter()],
        vec![goblin()],
        EncounterRules::default(),
    );
    t.dying(1, 0, 0);
    assert_eq!(t.target(2, Reach::Melee, &[(1, 1)]), Some(0));
}

#[test]
fn targeting_policies_pick_as_named() {
    let rules = EncounterRules {
        targeting: Targeting::LowestHp,
        ..Default::default()
    };
    let mut t = Table::new(vec![fighter()], vec![goblin(), goblin(), goblin()], rules);
    t.f_mut(2).hp = 3;
    assert_eq!(t.target(0, Reach::Melee, &[]), Some(2));
    let rules = EncounterRules {
        targeting: Targeting::FocusFire,
        ..Default::default()
    };
    let mut t = Table::new(vec![fighter()], vec![goblin(), goblin()], rules);
    t.f_mut(1).state = State::Dead;
    assert_eq!(t.target(0, Reach::Melee, &[]), Some(2));
}

#[test]
fn random_targeting_draws_among_the_conscious_in_index_order() {
    // Three goblins and twenty: with the first two down, a die of `r` on
    // the number standing picks the r-th goblin standing.
    for goblins in [3, 20] {
        let mut t = Table::new(
            vec![fighter()],
            vec![goblin(); goblins],
            EncounterRules::default(),
        );
        let standing = goblins as u64 - 2;
        t.f_mut(1).state = State::Dead;
        t.f_mut(2).state = State::Down;
        assert_eq!(t.target(0, Reach::Melee, &[(1, standing)]), Some(3));
        assert_eq!(
            t.target(0, Reach::Melee, &[(standing, standing)]),
            Some(goblins)
        );
        for k in 3..=goblins {
            t.f_mut(k).state = State::Dead;
        }
        assert_eq!(t.target(0, Reach::Melee, &[]), None);
    }
}

#[test]
fn attackers_leave_an_enemy_held_until_damaged_while_another_stands() {
    use crate::combat::encounter::spell_state::Affliction;
    use crate::combat::spell::{Condition, bits};
    // A hypnotized (incapacitated until damaged) goblin among three.
    let hold = |t: &mut Table, who: usize| {
        t.f_mut(who).spells.afflict(Affliction {
            bits: Condition::Incapacitated.bits(),
            ends_on_damage: true,
            source: 0,
            ..Affliction::NONE
        });
    };
    let mut t = Table::new(
        vec![fighter()],
        vec![goblin(), goblin(), goblin()],
        EncounterRules::default(),
    );
    hold(&mut t, 1);
    assert_ne!(t.f(1).spells.conditions & bits::HELD_UNTIL_DAMAGED, 0);
    // Random: the draw is among the two free goblins (2 and 3).
    assert_eq!(t.target(0, Reach::Melee, &[(1, 2)]), Some(2));
    assert_eq!(t.target(0, Reach::Melee, &[(2, 2)]), Some(3));
    // Lowest HP and focus fire also pass it by.
    for targeting in [Targeting::LowestHp, Targeting::FocusFire] {
        let rules = EncounterRules {
            targeting,
            ..Default::default()
        };
        let mut t = Table::new(vec![fighter()], vec![goblin(), goblin()], rules);
        t.f_mut(1).hp = 1;
        hold(&mut t, 1);
        assert_eq!(t.target(0, Reach::Melee, &[]), Some(2), "{targeting:?}");
    }
    // Held alone: it is still a target.
    let mut t = Table::new(
        vec![fighter()],
        vec![goblin(), goblin()],
        EncounterRules::default(),
    );
    hold(&mut t, 1);
    t.f_mut(2).state = State::Dead;
    assert_eq!(t.target(0, Reach::Melee, &[(1, 1)]), Some(1));
    // A condition that damage does not end (paralyzed) does not hold it.
    let mut t = Table::new(vec![fighter()], vec![goblin()], EncounterRules::default());
    t.f_mut(1).spells.afflict(Affliction {
        bits: Condition::Paralyzed.bits(),
        ..Affliction::NONE
    });
    assert_eq!(t.f(1).spells.conditions & bits::HELD_UNTIL_DAMAGED, 0);
    // Damage wakes it: the mark goes with the condition.
    let mut t = Table::new(
        vec![fighter()],
        vec![goblin(), goblin()],
        EncounterRules::default(),
    );
    hold(&mut t, 1);
    t.deal(1, slashing(1, false), &[]);
    assert_eq!(t.f(1).spells.conditions, 0);
}
