//! Shared fights are exact: a fight is taken over only when its whole
//! input (encounter, party, generator state) is the earlier variant's, and
//! then it leaves the party, the generator and the outcome exactly as
//! fighting it would; any difference in the input means fighting it.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::*;
use crate::types::campaign::spending::tests::variant;

const AT: FightAt = FightAt {
    level: 0,
    encounter: 0,
    later: 0,
};

/// The fights of a level-3 party of four against the variant's first
/// encounter: the encounter and a fresh party.
fn setting() -> (crate::types::campaign::CampaignVariant, PartyState) {
    let v = variant(&["fighter", "cleric", "rogue", "wizard"], 3, "");
    let party = v.levels[0].party().fresh_party();
    (v, party)
}

/// Plays `fights` fights in a row with `sharing`, from `party` and `seed`:
/// the party, the generator and the outcomes they leave.
fn play_all(
    enc: &Encounter,
    sharing: &mut Sharing<'_, Xoshiro256PlusPlus>,
    party: &PartyState,
    seed: u64,
    fights: usize,
) -> (PartyState, Xoshiro256PlusPlus, Vec<TrialOutcome>) {
    let mut party = party.clone();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut arena = Arena::default();
    let outcomes = (0..fights)
        .map(|_| sharing.fight(AT, enc, &mut rng, &mut arena, &mut party))
        .collect();
    (party, rng, outcomes)
}

/// The log of `fights` fights from `party` and `seed`.
fn logged(
    enc: &Encounter,
    party: &PartyState,
    seed: u64,
    fights: usize,
) -> FightLog<Xoshiro256PlusPlus> {
    let mut log = FightLog::default();
    play_all(
        enc,
        &mut Sharing::new(None, Some(&mut log)),
        party,
        seed,
        fights,
    );
    log
}

#[test]
fn a_fight_with_the_same_input_is_taken_over_with_the_same_result() {
    let (v, party) = setting();
    let enc = v.levels[0].party();
    let fought = play_all(enc, &mut Sharing::none(), &party, 5, 3);
    let mut log = FightLog::default();
    let recorded = play_all(enc, &mut Sharing::new(None, Some(&mut log)), &party, 5, 3);
    assert_eq!(recorded, fought, "recording changes nothing");
    assert_eq!(log.fights().len(), 3);
    let mut follower = Sharing::new(Some(&log), None);
    let taken = play_all(enc, &mut follower, &party, 5, 3);
    assert_eq!(follower.taken_over(), 3, "every fight taken over");
    assert_eq!(taken, fought);
    // The generator goes on from where the fights left it.
    assert_eq!(taken.1.clone().next_u64(), fought.1.clone().next_u64());
}

#[test]
fn a_fight_with_another_generator_state_is_fought() {
    let (v, party) = setting();
    let enc = v.levels[0].party();
    let log = logged(enc, &party, 5, 2);
    let mut follower = Sharing::new(Some(&log), None);
    let taken = play_all(enc, &mut follower, &party, 6, 2);
    assert_eq!(follower.taken_over(), 0);
    assert_eq!(taken, play_all(enc, &mut Sharing::none(), &party, 6, 2));
}

#[test]
fn a_fight_with_another_party_or_place_is_fought() {
    let (v, party) = setting();
    let enc = v.levels[0].party();
    let log = logged(enc, &party, 5, 1);
    let mut other = party.clone();
    other.kill(3);
    let mut follower = Sharing::new(Some(&log), None);
    let taken = play_all(enc, &mut follower, &other, 5, 1);
    assert_eq!(follower.taken_over(), 0, "a dead PC: another party");
    assert_eq!(taken, play_all(enc, &mut Sharing::none(), &other, 5, 1));
    // The same party and dice at another level's encounter.
    let mut follower = Sharing::new(Some(&log), None);
    let mut p = party.clone();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let elsewhere = FightAt {
        level: 1,
        encounter: 0,
        later: 0,
    };
    follower.fight(elsewhere, enc, &mut rng, &mut Arena::default(), &mut p);
    assert_eq!(follower.taken_over(), 0);
}

#[test]
fn the_fights_after_a_divergence_are_fought() {
    // The follower's second fight starts from another party (the first
    // fight's survivors healed differently): it and the rest are fought,
    // and its log is the follower's own.
    let (v, party) = setting();
    let enc = v.levels[0].party();
    let log = logged(enc, &party, 9, 3);
    let mut own = FightLog::default();
    let mut follower = Sharing::new(Some(&log), Some(&mut own));
    let mut p = party.clone();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
    let mut arena = Arena::default();
    follower.fight(AT, enc, &mut rng, &mut arena, &mut p);
    p.kill(0);
    follower.fight(AT, enc, &mut rng, &mut arena, &mut p);
    follower.fight(AT, enc, &mut rng, &mut arena, &mut p);
    assert_eq!(follower.taken_over(), 1);
    assert_eq!(own.fights().len(), 3);
    assert_eq!(own.fights()[0].party_after, log.fights()[0].party_after);
    assert_ne!(own.fights()[1].party_before, log.fights()[1].party_before);
}

#[test]
fn a_log_is_emptied_for_each_career() {
    let (v, party) = setting();
    let enc = v.levels[0].party();
    let mut log = FightLog::default();
    play_all(enc, &mut Sharing::new(None, Some(&mut log)), &party, 1, 3);
    play_all(enc, &mut Sharing::new(None, Some(&mut log)), &party, 2, 1);
    assert_eq!(log.fights().len(), 1);
    let mut follower = Sharing::new(Some(&log), None);
    play_all(enc, &mut follower, &party, 2, 3);
    assert_eq!(follower.taken_over(), 1, "only the last career's fight");
}
