//! Called shots on limbs (docs/combat.md, "Called shots on limbs"; our
//! extension): the penalty, the limb's HP, what severs, and what a severed
//! limb does in the fight.

use super::*;
use crate::combat::creature::Ability;
use crate::combat::effect;
use crate::combat::encounter::fighter::ALWAYS_PRONE;
use crate::combat::policy::{CalledShooters, CalledShots, LimbAim};
use crate::rules::damage::DamageTypes as Types;

/// Rules in which `by` make called shots at `aim` with the default penalty (5).
fn called(by: CalledShooters, aim: LimbAim) -> EncounterRules {
    EncounterRules {
        called_shots: Some(CalledShots {
            by,
            penalty: CalledShots::DEFAULT_PENALTY,
            aim,
            piercing_severs: false,
        }),
        ..Default::default()
    }
}

/// The goblin's scimitar with another damage type.
fn scimitar_of(t: &Table, kind: DamageType) -> Attack {
    let mut a = t.enc.all[1].attacks[0].clone();
    a.kind = kind;
    a
}

#[test]
fn a_called_shot_takes_the_penalty_on_the_roll() {
    // A goblin's +4 against the fighter's AC 18: 17 hits, but not with −5.
    let mut t = Table::duel(called(CalledShooters::Monsters, LimbAim::WeaponArm));
    t.attack(1, 0, &[(17, 20)]);
    assert_eq!(t.f(0).hp, 12, "17 + 4 − 5 = 16 misses AC 18");
    t.attack(1, 0, &[(19, 20), (1, 6)]);
    assert_eq!(t.f(0).hp, 12 - 3, "19 + 4 − 5 = 18 hits");
    assert_eq!(
        t.f(0).limb_hp[0],
        5 - 3,
        "and the weapon arm takes the damage"
    );
    // A side that makes no called shots attacks as usual.
    let mut t = Table::duel(called(CalledShooters::Pcs, LimbAim::WeaponArm));
    t.attack(1, 0, &[(17, 20), (1, 6)]);
    assert_eq!(t.f(0).hp, 12 - 3);
    assert_eq!(t.f(0).limb_hp, [5, 5, 10, 10], "a Medium creature's limbs");
}

#[test]
fn a_slashing_hit_that_brings_the_arm_to_zero_severs_it() {
    let mut t = Table::duel(called(CalledShooters::Both, LimbAim::WeaponArm));
    // 1d6+2 = 4 leaves the 5-HP arm at 1; the next hit of 3 severs it.
    t.attack(1, 0, &[(20 - 1, 20), (2, 6)]);
    assert_eq!((t.f(0).limb_hp[0], t.f(0).severed), (1, 0));
    assert_eq!(t.f(0).effects & effect::NO_TWO_HANDED, 0);
    t.attack(1, 0, &[(19, 20), (1, 6)]);
    assert_eq!(t.f(0).severed, 1, "the weapon arm is severed");
    assert_eq!(
        t.f(0).hp,
        12 - 4 - 3,
        "the creature takes the damage as usual"
    );
    assert_ne!(
        t.f(0).effects & effect::NO_TWO_HANDED,
        0,
        "lose an arm or a hand: one-handed from now on"
    );
    assert_eq!((t.out.limbs_severed, t.out.pc_limbs_severed[0]), (1, 1));
    // The next called shot goes to the other arm.
    t.attack(1, 0, &[(19, 20), (1, 6)]);
    assert_eq!((t.f(0).limb_hp[1], t.f(0).hp), (5 - 3, 2));
}

#[test]
fn bludgeoning_does_not_sever_by_default_nor_draw_a_called_shot() {
    let mut t = Table::duel(called(CalledShooters::Both, LimbAim::WeaponArm));
    let club = scimitar_of(&t, DamageType::Bludgeoning);
    // No called shot with it: no penalty (17 + 4 hits) and the arm is untouched.
    t.attack_with(1, 0, &club, &[(17, 20), (6, 6)]);
    assert_eq!(
        (t.f(0).hp, t.f(0).limb_hp[0], t.f(0).severed),
        (12 - 8, 5, 0)
    );
    // Piercing severs only under the "sharp damage" reading.
    let spear = scimitar_of(&t, DamageType::Piercing);
    t.attack_with(1, 0, &spear, &[(17, 20), (1, 6)]);
    assert_eq!(t.f(0).limb_hp[0], 5);
    let mut rules = called(CalledShooters::Both, LimbAim::WeaponArm);
    rules.called_shots.as_mut().unwrap().piercing_severs = true;
    let mut t = Table::duel(rules);
    t.attack_with(1, 0, &spear, &[(19, 20), (3, 6)]);
    assert_eq!(t.f(0).severed, 1);
}

#[test]
fn resistance_halves_the_limbs_damage_too() {
    let mut pc = fighter();
    pc.defenses.resistances = Types::of([DamageType::Slashing]);
    let mut t = Table::new(
        vec![pc],
        vec![goblin()],
        called(CalledShooters::Both, LimbAim::WeaponArm),
    );
    // 6 + 2 = 8, halved: 4 off the creature and 4 off the 5-HP arm.
    t.attack(1, 0, &[(19, 20), (6, 6)]);
    assert_eq!(
        (t.f(0).hp, t.f(0).limb_hp[0], t.f(0).severed),
        (12 - 4, 1, 0)
    );
}

#[test]
fn a_severed_leg_is_the_tables_lose_a_foot_or_leg_not_the_wounds_lost_leg() {
    let mut t = Table::duel(called(CalledShooters::Both, LimbAim::Leg));
    t.f_mut(0).limb_hp[2] = 3;
    t.attack(1, 0, &[(19, 20), (1, 6)]);
    assert_eq!(t.f(0).severed, 1 << 2, "the first leg");
    // The table's entry: speed halved, prone after a Dash; no save disadvantage.
    assert_eq!(t.f(0).effects & effect::DIS_DEX_SAVES, 0);
    assert_eq!(t.f(0).effects & effect::NO_TWO_HANDED, 0);
    assert_eq!(
        (t.f(0).speed, t.f(0).prone_after_dash),
        (t.f(0).base_speed / 2, ALWAYS_PRONE)
    );
    // One d20: 5 saves against DC 5.
    let saved = with_dice(&[(5, 20)], |rng| {
        t.enc.saving_throw(rng, &mut t.arena, 0, Ability::Dex, 5)
    });
    assert!(saved);
}

#[test]
fn a_random_aim_draws_among_the_attached_limbs() {
    let mut t = Table::duel(called(CalledShooters::Both, LimbAim::Random));
    t.f_mut(0).severed = 1; // the weapon arm is gone
    // The draw (third of the three attached: the second leg), d20, d6.
    t.attack(1, 0, &[(3, 3), (19, 20), (1, 6)]);
    assert_eq!(t.f(0).limb_hp, [5, 5, 10, 10 - 3]);
}

#[test]
fn a_creature_the_blow_kills_loses_no_limb() {
    let mut t = Table::duel(called(CalledShooters::Pcs, LimbAim::WeaponArm));
    let to_hit = t.enc.all[0].attacks[0].to_hit;
    let natural = (15 + 5 - to_hit) as u64; // just hits AC 15 with −5
    // The goblin (7 HP, a Small arm of 3 HP) killed by a hit of 7: no limb counted.
    let bonus = t.enc.all[0].attacks[0].damage.modifier;
    t.attack(0, 1, &[(natural, 20), ((7 - bonus) as u64, 8)]);
    assert_eq!(t.state(1).0, State::Dead);
    assert_eq!(t.out.limbs_severed, 0);
    // One with HP to spare loses its arm (a monster: not a PC's limb).
    let mut t = Table::duel(called(CalledShooters::Pcs, LimbAim::WeaponArm));
    t.f_mut(1).hp = 30;
    t.attack(0, 1, &[(natural, 20), (1, 8)]);
    assert_eq!((t.f(1).severed, t.out.limbs_severed), (1, 1));
    assert_eq!(t.out.pc_limbs_severed, [0; 8]);
    assert_ne!(t.f(1).effects & effect::NO_TWO_HANDED, 0);
    // The next fight's goblin has every limb; a PC's lost limb stays lost.
    t.f_mut(0).severed = 1 << 3;
    t.f_mut(0).limb_hp[0] = 1;
    t.enc.between_fights(&mut super::no_dice(), &mut t.arena);
    assert_eq!((t.f(1).severed, t.f(1).limb_hp), (0, [3, 3, 5, 5]));
    assert_eq!(t.f(1).effects & effect::NO_TWO_HANDED, 0);
    assert_eq!(t.f(0).severed, 1 << 3);
    assert_eq!(
        t.f(0).limb_hp[0],
        5,
        "a long rest heals the limbs still attached"
    );
}

#[test]
fn off_nothing_changes() {
    let mut t = Table::duel(EncounterRules::default());
    // The same dice as an arm-severing called shot: an ordinary hit.
    t.attack(1, 0, &[(17, 20), (6, 6)]);
    assert_eq!(t.f(0).hp, 12 - 8);
    assert_eq!((t.f(0).limb_hp[0], t.f(0).severed), (5, 0));
    assert_eq!((t.out.limbs_severed, t.f(0).effects), (0, 0));
}

#[test]
fn no_called_shot_at_a_downed_creature() {
    let mut t = Table::duel(called(CalledShooters::Monsters, LimbAim::WeaponArm));
    t.dying(0, 0, 0);
    // Advantage (two d20s) and no penalty; melee on the unconscious crits.
    t.attack(1, 0, &[(14, 20), (1, 20), (1, 6), (1, 6)]);
    assert_eq!((t.f(0).tally.failures, t.f(0).limb_hp[0]), (2, 5));
}
