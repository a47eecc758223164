//! Dying in the round loop: death saves at the start of a turn, a natural
//! 20, stabilising, and the tally reset when a PC becomes stable.

use super::*;
use crate::combat::policy::Stabilize;
use crate::rules::permanent_wounds::WoundPolicy;

/// Rules under which nobody stabilises a dying PC.
fn nobody_stabilises() -> EncounterRules {
    EncounterRules {
        stabilize: Stabilize::Never,
        ..Default::default()
    }
}

#[test]
fn death_saves_at_the_start_of_a_turn_and_a_natural_twenty_acts() {
    let mut t = Table::duel(nobody_stabilises());
    t.dying(0, 0, 0);
    t.turn(0, false, &[(9, 20)]);
    assert_eq!(t.f(0).tally.failures, 1, "a 9 fails");
    t.turn(0, false, &[(1, 20)]);
    assert_eq!(
        t.f(0).state,
        State::Dead,
        "a natural 1 is two more failures"
    );
    let mut t = Table::duel(EncounterRules::default());
    t.dying(0, 0, 0);
    // Natural 20: back at 1 HP and attacks at once (random target d1, d20 = 2 misses).
    t.turn(0, false, &[(20, 20), (1, 1), (2, 20)]);
    assert_eq!(t.state(0), (State::Up, 1));
}

#[test]
fn three_successes_stabilise_and_reset_both_tallies() {
    let mut t = Table::duel(nobody_stabilises());
    t.dying(0, 2, 2);
    t.turn(0, false, &[(15, 20)]);
    assert_eq!(t.f(0).state, State::Stable);
    assert_eq!(t.f(0).tally, Tally::default());
    // Damage starts a fresh tally: one failure, not a third.
    t.deal(0, slashing(3, false), &[]);
    assert_eq!(t.f(0).state, State::Dying);
    assert_eq!(
        t.f(0).tally,
        Tally {
            successes: 0,
            failures: 1
        }
    );
}

#[test]
fn a_permanent_wound_stabilises_and_resets_both_tallies() {
    let mut rules = EncounterRules::default();
    rules.death_saves.wound_policy = WoundPolicy::AcceptLeastSevere;
    let mut t = Table::duel(rules);
    t.dying(0, 2, 2);
    // The third failure becomes a minor wound (example drawn with a d4).
    t.deal(0, slashing(3, false), &[(1, 4)]);
    assert_eq!(t.f(0).state, State::Stable);
    assert_eq!(t.f(0).tally, Tally::default());
    assert_eq!(t.out.wounds, [1, 0, 0]);
    // The next blow is the first failure of a new tally, not a second wound.
    t.deal(0, slashing(3, false), &[]);
    assert_eq!(t.f(0).state, State::Dying);
    assert_eq!(t.f(0).tally.failures, 1);
    assert_eq!(t.out.wounds, [1, 0, 0]);
}
