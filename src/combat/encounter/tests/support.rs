//! Support actions in the round loop: healing at 0 HP, stabilising with
//! Medicine, and the tally reset it brings.

use super::*;
use crate::combat::policy::Stabilize;

#[test]
fn healing_at_zero_wakes_and_resets_the_tally() {
    let mut t = Table::duel(EncounterRules::default());
    t.dying(0, 1, 2);
    t.heal(0, 4, false);
    assert_eq!(t.state(0), (State::Up, 4));
    assert_eq!(t.f(0).tally, Tally::default());
    t.heal(0, 100, false);
    assert_eq!(t.f(0).hp, 12, "healing stops at the maximum");
}

#[test]
fn a_dying_ally_is_stabilised_with_a_dc_10_medicine_check() {
    let rules = EncounterRules {
        stabilize: Stabilize::AfterFight,
        ..Default::default()
    };
    let mut t = Table::new(vec![fighter(), fighter()], vec![goblin()], rules);
    t.dying(0, 0, 0);
    t.f_mut(1).heal_uses = 0; // no Second Wind to spend
    // Fighter Medicine +1: a 9 + 1 = 10 succeeds.
    assert!(t.support(1, true, true, &[(9, 20)]));
    assert_eq!(t.f(0).state, State::Stable);
    t.f_mut(0).state = State::Dying;
    assert!(t.support(1, true, true, &[(8, 20)]));
    assert_eq!(t.f(0).state, State::Dying, "8 + 1 = 9 fails");
    // Mid-fight, `after_fight` does not spend the action.
    assert!(!t.support(1, false, true, &[]));
}

#[test]
fn a_medicine_check_stabilises_and_resets_both_tallies() {
    let rules = EncounterRules {
        stabilize: Stabilize::Always,
        ..Default::default()
    };
    let mut t = Table::new(vec![fighter(), fighter()], vec![goblin()], rules);
    t.dying(0, 2, 2);
    t.f_mut(1).heal_uses = 0;
    assert!(t.support(1, false, true, &[(15, 20)]));
    assert_eq!(t.f(0).state, State::Stable);
    assert_eq!(t.f(0).tally, Tally::default());
    t.deal(0, slashing(3, false), &[]);
    assert_eq!(t.f(0).state, State::Dying, "one failure, not dead");
    assert_eq!(t.f(0).tally.failures, 1);
    // Stale successes would have stabilised it again after one more success.
    t.turn(0, false, &[(15, 20)]);
    assert_eq!(t.f(0).state, State::Dying);
    assert_eq!(t.f(0).tally.successes, 1);
}
