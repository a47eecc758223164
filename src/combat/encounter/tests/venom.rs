//! Spreading venom (our extension, `venom.rs`): the sting poisons a limb
//! instead of dealing its rider, the venom spreads at the start of the
//! creature's turn once its clock runs out, a second sting strikes at
//! once, and after the fight the party cuts the limb off with the
//! amputation model (an ally's severing weapon, the creature itself if no
//! ally has one) and puts it back with healing aimed at the limb.

use super::*;
use crate::combat::effect;
use crate::combat::encounter::fighter::Venom;
use crate::combat::policy::SpreadingVenom;

/// Rules with the wyvern's stinger spreading (3d6 rounds, amputation on,
/// the seed's hour to reattach).
fn venom_rules(piercing_severs: bool) -> EncounterRules {
    EncounterRules {
        venom: Some(SpreadingVenom {
            attacks: vec!["stinger".into()],
            clock: SpreadingVenom::DEFAULT_CLOCK,
            amputate: true,
            piercing_severs,
            reattach_minutes: SpreadingVenom::DEFAULT_REATTACH_MINUTES,
        }),
        ..EncounterRules::default()
    }
}

/// `party` against a wyvern (the last fighter).
fn against_wyvern(party: &[&str], rules: EncounterRules) -> Table {
    Table::new(
        party.iter().map(|t| template(t)).collect(),
        vec![monster("wyvern")],
        rules,
    )
}

/// The wyvern's stinger (2d6 + 4 piercing, 7d6 poison, DC 15 Con half).
fn stinger(t: &Table) -> Attack {
    let w = t.enc.party.len();
    t.enc.all[w].attacks[1].clone()
}

#[test]
fn a_spreading_sting_poisons_a_limb_instead_of_dealing_its_rider() {
    let mut t = against_wyvern(&["fighter-1"], venom_rules(false));
    assert!(stinger(&t).rider.is_some_and(|r| r.spreads));
    t.arena.round = 1;
    let sting = stinger(&t);
    // 15 + 7 hits AC 18; 1 + 1 + 4 = 6 damage; the other arm (2 of 4);
    // the clock 1 + 2 + 3 = 6 rounds. No 7d6, no save.
    t.attack_with(
        1,
        0,
        &sting,
        &[(15, 20), (1, 6), (1, 6), (2, 4), (1, 6), (2, 6), (3, 6)],
    );
    assert_eq!(t.f(0).hp, 12 - 6);
    assert_eq!(
        t.f(0).venom,
        Some(Venom {
            limb: 1,
            spreads_at: 7,
            rider: 0
        })
    );
    // Without the extension the rider strikes at once: 7 × 1, saved on 11 + 4.
    let mut raw = against_wyvern(&["fighter-1"], EncounterRules::default());
    let sting = stinger(&raw);
    assert!(!sting.rider.unwrap().spreads);
    let dice = [(15, 20), (1, 6), (1, 6)]
        .into_iter()
        .chain([(1, 6); 7])
        .chain([(11, 20)])
        .collect::<Vec<_>>();
    raw.attack_with(1, 0, &sting, &dice);
    assert_eq!(raw.f(0).hp, 12 - 6 - 3);
    assert_eq!(raw.f(0).venom, None);
}

#[test]
fn the_venom_spreads_when_its_clock_runs_out_and_a_second_sting_strikes_at_once() {
    let mut t = against_wyvern(&["fighter-1"], venom_rules(false));
    t.f_mut(0).venom = Some(Venom {
        limb: 0,
        spreads_at: 3,
        rider: 0,
    });
    let spread = |t: &mut Table, dice: &[(u64, u64)]| {
        let Table { enc, arena, out } = t;
        with_dice(dice, |rng| enc.venom_at_turn_start(rng, arena, 0, out));
    };
    t.arena.round = 2;
    spread(&mut t, &[]);
    assert_eq!(t.f(0).hp, 12, "not yet");
    t.arena.round = 3;
    // 7d6 of 2s = 14, the Constitution save 10 + 4 fails: 14 poison.
    let dice: Vec<_> = [(2, 6); 7].into_iter().chain([(10, 20)]).collect();
    spread(&mut t, &dice);
    assert_eq!(t.state(0), (State::Dying, 0));
    assert_eq!((t.f(0).venom, t.out.pc_venom_spread[0]), (None, 1));
    // Poisoned already: the next sting's rider strikes at once.
    let mut t = against_wyvern(&["fighter-1"], venom_rules(false));
    t.f_mut(0).venom = Some(Venom {
        limb: 3,
        spreads_at: 9,
        rider: 0,
    });
    let sting = stinger(&t);
    let dice: Vec<_> = [(15, 20), (1, 6), (1, 6)]
        .into_iter()
        .chain([(1, 6); 7])
        .chain([(11, 20)])
        .collect();
    t.attack_with(1, 0, &sting, &dice);
    assert_eq!(t.f(0).hp, 12 - 6 - 3);
    assert_eq!(t.f(0).venom.map(|v| v.limb), Some(3));
}

/// After the fight an ally's longsword (1d8 + 5, a Medium arm's 5 HP in one
/// blow) cuts the poisoned arm off in time; with nobody to heal the limb it
/// is lost — the tragic injury's effects — and the venom never strikes.
#[test]
fn an_ally_cuts_the_poisoned_limb_off_after_the_fight() {
    let mut t = against_wyvern(&["fighter-1", "fighter-1"], venom_rules(false));
    t.f_mut(2).state = State::Dead;
    t.f_mut(0).venom = Some(Venom {
        limb: 0,
        spreads_at: 4,
        rider: 0,
    });
    t.arena.round = 3;
    let Table { enc, arena, out } = &mut t;
    let dying = with_dice(&[(1, 2)], |rng| enc.after_fight_venom(rng, arena, out));
    assert!(!dying);
    assert_eq!(t.f(0).severed, 1);
    assert_eq!(t.f(0).limb_hp[0], 0);
    assert_ne!(t.f(0).effects & effect::NO_TWO_HANDED, 0);
    assert_eq!(t.f(0).hp, 12, "cutting the limb does not hurt the creature");
    assert_eq!(
        (
            t.out.pc_limbs_amputated[0],
            t.out.pc_limbs_reattached[0],
            t.out.pc_venom_spread[0]
        ),
        (1, 0, 0)
    );
}

/// A cleric's *healing word* (1d4 + 3 + 3, Disciple of Life) aimed at the
/// severed arm brings its 5 HP back at once: reattached, one use spent.
#[test]
fn healing_aimed_at_the_severed_limb_reattaches_it_within_the_hour() {
    let mut t = against_wyvern(&["fighter-1", "fighter-1", "cleric-1"], venom_rules(false));
    t.f_mut(3).state = State::Dead;
    t.f_mut(0).venom = Some(Venom {
        limb: 1,
        spreads_at: 10,
        rider: 0,
    });
    t.arena.round = 3;
    let uses = t.f(2).heal_uses;
    let Table { enc, arena, out } = &mut t;
    with_dice(&[(1, 2)], |rng| enc.after_fight_venom(rng, arena, out));
    assert_eq!(t.f(0).severed, 0);
    assert_eq!(t.f(0).limb_hp[1], 5, "a Medium arm back at its full 5 HP");
    assert_eq!(t.f(2).heal_uses, uses - 1);
    assert_eq!(
        (t.out.pc_limbs_amputated[0], t.out.pc_limbs_reattached[0]),
        (1, 1)
    );
}

/// With no severing weapon in the party (a wizard's fire bolt, a cleric's
/// mace) the venom spreads after the fight; a rogue's rapier cuts only
/// under the seed's "sharp damage" reading; a party that does not
/// amputate lets it spread.
#[test]
fn without_a_severing_weapon_or_the_will_to_cut_the_venom_spreads() {
    for (party, piercing, amputate, cut) in [
        (["wizard-1", "cleric-1"], false, true, false),
        (["wizard-1", "rogue-1"], false, true, false),
        (["wizard-1", "rogue-1"], true, true, true),
        (["wizard-1", "rogue-1"], true, false, false),
    ] {
        let mut rules = venom_rules(piercing);
        if let Some(v) = rules.venom.as_mut() {
            v.amputate = amputate;
        }
        let mut t = against_wyvern(&party, rules);
        t.f_mut(2).state = State::Dead;
        t.f_mut(0).venom = Some(Venom {
            limb: 3,
            spreads_at: 5,
            rider: 0,
        });
        t.arena.round = 2;
        let dice: Vec<(u64, u64)> = if cut {
            vec![(1, 2)]
        } else {
            // 7d6 of 1s = 7, the save 1 + Con fails: 7 poison.
            [(1, 6); 7].into_iter().chain([(1, 20)]).collect()
        };
        let Table { enc, arena, out } = &mut t;
        with_dice(&dice, |rng| enc.after_fight_venom(rng, arena, out));
        assert_eq!(
            t.out.pc_limbs_amputated[0],
            u8::from(cut),
            "{party:?} {piercing} {amputate}"
        );
        assert_eq!(t.out.pc_venom_spread[0], u8::from(!cut));
        assert_eq!(t.f(0).venom, None);
    }
}

/// A venom that spreads after a won fight and drops the last PC standing
/// does not turn the win into a loss: the fight was won when it was over;
/// the PC's death saves are rolled before the fight ends.
#[test]
fn a_venom_after_a_won_fight_leaves_it_won() {
    let mut t = against_wyvern(&["wizard-1"], venom_rules(false));
    t.f_mut(1).state = State::Dead;
    t.f_mut(1).hp = 0;
    t.f_mut(0).hp = 5;
    t.f_mut(0).venom = Some(Venom {
        limb: 0,
        spreads_at: 50,
        rider: 0,
    });
    // Initiative for both; round 1 ends with the wyvern dead: over. No
    // severing weapon: 7d6 of 1s, the save failed, 7 poison on 5 HP:
    // dying; three successful death saves in rounds 2 to 4: stable.
    let dice: Vec<(u64, u64)> = [(10, 20), (10, 20)]
        .into_iter()
        .chain([(1, 6); 7])
        .chain([(1, 20)])
        .chain([(15, 20); 3])
        .collect();
    let (won, rounds, timed_out) = t.fight(&dice);
    assert_eq!((won, rounds, timed_out), (true, 1, false));
    assert_eq!(t.state(0), (State::Stable, 0));
    assert_eq!(t.out.pc_venom_spread[0], 1);
}
