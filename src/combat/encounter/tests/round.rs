//! The round loop: initiative order, and how a fight ends once no PC
//! stands (the exact chains of `tests/it/combat_endings.rs` check the
//! probabilities).

use super::*;
use crate::combat::policy::WhenPartyFalls;

#[test]
fn initiative_ties_go_to_the_higher_modifier_then_the_pcs() {
    let mut slow = goblin();
    slow.initiative = 0;
    let mut f = fighter();
    f.initiative = 0;
    let mut t = Table::new(vec![f], vec![slow, goblin()], EncounterRules::default());
    for fighter in t.arena.fighters.iter_mut() {
        fighter.initiative = 12;
    }
    t.arena.order = vec![0, 1, 2];
    t.enc.initiative_order(&mut t.arena);
    assert_eq!(
        t.arena.order,
        vec![2, 0, 1],
        "the +2 goblin first, then the PC, then the +0 goblin"
    );
    t.f_mut(1).initiative = 13;
    t.enc.initiative_order(&mut t.arena);
    assert_eq!(
        t.arena.order,
        vec![1, 2, 0],
        "a higher total beats any modifier"
    );
}

/// The order `initiative_order` must produce: higher total first, then the
/// higher modifier, then PCs, then list order.
fn reference_order(t: &Table) -> Vec<usize> {
    let mut order: Vec<usize> = (0..t.arena.fighters.len()).collect();
    let key = |i: usize| {
        let f = t.f(i);
        (f.initiative, t.enc.spec(f.spec).initiative, f.party)
    };
    order.sort_by(|&a, &b| key(b).cmp(&key(a)).then(a.cmp(&b)));
    order
}

#[test]
fn initiative_order_is_the_same_for_small_and_large_fields() {
    // 15 goblins take the branch-free rank path (16 creatures at most), 40
    // take the sort: both must give the reference order, ties included.
    for monsters in [15, 40] {
        let mut goblins = Vec::new();
        for k in 0..monsters {
            let mut g = goblin();
            g.initiative = [0, 2, -1][k % 3];
            goblins.push(g);
        }
        let mut t = Table::new(vec![fighter()], goblins, EncounterRules::default());
        for (i, f) in t.arena.fighters.iter_mut().enumerate() {
            f.initiative = 10 + (i * 7 % 5) as i32 + t.enc.all[i].initiative;
        }
        t.enc.initiative_order(&mut t.arena);
        assert_eq!(t.arena.order, reference_order(&t), "{monsters} goblins");
    }
}

/// A lone fighter without Second Wind, dying at the start of a fight
/// against a goblin that always hits, under `when_party_falls`.
fn downed_duel(when: WhenPartyFalls) -> Table {
    let mut pc = fighter();
    pc.heal = None;
    let mut g = goblin();
    g.attacks[0].to_hit = 30;
    let rules = EncounterRules {
        when_party_falls: when,
        ..Default::default()
    };
    let mut t = Table::new(vec![pc], vec![g], rules);
    t.dying(0, 0, 0);
    t
}

#[test]
fn by_default_the_monsters_leave_once_no_pc_stands() {
    let mut t = downed_duel(WhenPartyFalls::MonstersLeave);
    // Initiative 20 + 1 against 1 + 2; then three successful saves. The
    // goblin, with no one standing to attack, never swings (no dice).
    let dice = [(20, 20), (1, 20), (15, 20), (15, 20), (15, 20)];
    assert_eq!(t.fight(&dice), (false, 1, false));
    assert_eq!(t.f(0).state, State::Stable);
}

#[test]
fn monsters_that_stay_finish_the_downed() {
    let mut t = downed_duel(WhenPartyFalls::FinishTheDowned);
    let dice = [
        (20, 20), // PC initiative
        (1, 20),  // goblin initiative
        (15, 20), // round 1: a success
        (10, 20), // the goblin hits the downed with advantage: any hit is a crit
        (10, 20),
        (1, 6), // 2d6 + 2 = 4: two failures
        (1, 6),
        (5, 20), // round 2: the third failure
    ];
    let result = t.fight(&dice);
    assert_eq!(t.f(0).state, State::Dead);
    assert_eq!(result, (false, 2, false));
}

#[test]
fn a_pc_back_on_its_feet_rejoins_a_fight_that_still_has_enemies() {
    // Monsters that leave: a natural 20 in round 2 gets the PC up, but the
    // fight was over at the end of round 1 and nobody swings again.
    let mut t = downed_duel(WhenPartyFalls::MonstersLeave);
    let (won, rounds, _) = t.fight(&[(20, 20), (1, 20), (15, 20), (20, 20)]);
    assert_eq!((won, rounds), (false, 1));
    assert_eq!(t.state(0), (State::Up, 1));
    // Monsters that stay: the goblin misses in round 1 (two natural 1s);
    // the PC's natural 20 in round 2 gets it up, and it kills the goblin
    // with a critical longsword hit (2d8 + 5).
    let mut t = downed_duel(WhenPartyFalls::FinishTheDowned);
    let dice = [
        (20, 20),
        (1, 20),
        (15, 20),
        (1, 20),
        (1, 20),
        (20, 20), // round 2: back up at 1 HP, and it acts
        (1, 1),   // its target: the one goblin
        (20, 20),
        (8, 8),
        (8, 8),
    ];
    assert_eq!(t.fight(&dice), (true, 2, false));
    assert_eq!(t.f(1).state, State::Dead);
}
