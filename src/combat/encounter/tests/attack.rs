//! Attack rolls in the round loop: natural 1s, natural 20s and the crit
//! range, AC, the unconscious, and the table without critical hits; a hit
//! that knocks prone.

use super::*;
use crate::combat::creature::{Ability, Sunlight};
use crate::combat::spell::bits;
use crate::rules::damage::Size;

#[test]
fn a_natural_one_always_misses() {
    let mut g = goblin();
    g.attacks[0].to_hit = 100;
    let mut t = Table::new(vec![fighter()], vec![g], EncounterRules::default());
    t.attack(1, 0, &[(1, 20)]);
    assert_eq!(t.f(0).hp, fighter().max_hp);
}

#[test]
fn a_natural_twenty_hits_any_ac_and_doubles_the_dice() {
    let mut f = fighter();
    f.ac = 100;
    let mut t = Table::new(vec![f], vec![goblin()], EncounterRules::default());
    // Scimitar 1d6+2 doubled: two d6 (3 and 4) + 2 = 9.
    t.attack(1, 0, &[(20, 20), (3, 6), (4, 6)]);
    assert_eq!(t.f(0).hp, 12 - 9);
    assert_eq!(t.f(0).crits_taken, 1);
}

#[test]
fn a_hit_needs_the_total_to_reach_ac() {
    // A goblin's +4 against the fighter's AC 18.
    let mut t = Table::duel(EncounterRules::default());
    t.attack(1, 0, &[(13, 20)]);
    assert_eq!(t.f(0).hp, 12, "13 + 4 = 17 misses AC 18");
    t.attack(1, 0, &[(14, 20), (1, 6)]);
    assert_eq!(t.f(0).hp, 12 - 3, "14 + 4 = 18 hits AC 18");
}

#[test]
fn the_critical_range_comes_from_the_creature_or_the_scenario() {
    let f = template("fighter-3"); // Champion: 19-20
    let mut t = Table::new(vec![f.clone()], vec![goblin()], EncounterRules::default());
    // 19 is a critical: longsword 1d8+5 doubled → 2 dice.
    t.attack(0, 1, &[(19, 20), (1, 8), (1, 8)]);
    assert_eq!(
        t.f(1).state,
        State::Dead,
        "1 + 1 + 5 = 7 kills a 7-HP goblin"
    );
    let rules = EncounterRules {
        crit_range: Some(20),
        ..Default::default()
    };
    let mut t = Table::new(vec![f.clone()], vec![goblin()], rules);
    let mut attack = f.attacks[0].clone();
    attack.to_hit = -100; // 19 no longer crits, so it misses
    t.attack_with(0, 1, &attack, &[(19, 20)]);
    assert_eq!(t.f(1).hp, 7);
}

#[test]
fn melee_attacks_on_the_unconscious_have_advantage_and_crit() {
    let mut t = Table::duel(EncounterRules::default());
    t.dying(0, 0, 0);
    // Advantage: two d20s (2 and 15 → 15 + 4 = 19 hits AC 18); the hit is a crit:
    // two failures, and the dice are doubled (two d6).
    t.attack(1, 0, &[(2, 20), (15, 20), (1, 6), (1, 6)]);
    assert_eq!(t.f(0).tally.failures, 2);
    // A ranged attack gets neither.
    let bow = goblin().attacks[1].clone();
    let mut t = Table::duel(EncounterRules::default());
    t.dying(0, 0, 0);
    t.attack_with(1, 0, &bow, &[(15, 20), (1, 6)]);
    assert_eq!(t.f(0).tally.failures, 1);
}

/// Rules of the "no critical hits" table variant.
fn no_crits() -> EncounterRules {
    EncounterRules {
        critical_hits: false,
        ..Default::default()
    }
}

#[test]
fn without_critical_hits_a_natural_twenty_still_hits_but_does_not_double() {
    let mut f = fighter();
    f.ac = 100;
    let mut t = Table::new(vec![f], vec![goblin()], no_crits());
    // Scimitar 1d6+2, one die only: 4 + 2 = 6 (the script would run out
    // of dice if a second d6 were rolled).
    t.attack(1, 0, &[(20, 20), (4, 6)]);
    assert_eq!(t.f(0).hp, 12 - 6);
    assert_eq!(t.f(0).crits_taken, 0, "not a critical hit");
    // A Champion's 19 also still hits (its critical range) without doubling.
    let mut g = goblin();
    g.ac = 100;
    let mut t = Table::new(vec![template("fighter-3")], vec![g], no_crits());
    t.attack(0, 1, &[(19, 20), (1, 8)]);
    assert_eq!(t.f(1).hp, 7 - (1 + 5));
}

#[test]
fn without_critical_hits_a_natural_twenty_at_zero_is_one_failure() {
    let mut t = Table::duel(no_crits());
    t.dying(0, 0, 0);
    // A ranged natural 20 (no advantage at range): one failure, not two.
    t.attack_with(1, 0, &goblin().attacks[1], &[(20, 20), (1, 6)]);
    assert_eq!(t.f(0).tally.failures, 1);
    assert_eq!(t.f(0).crits_taken, 0);
}

#[test]
fn without_critical_hits_a_melee_hit_on_the_unconscious_is_ordinary() {
    let mut t = Table::duel(no_crits());
    t.dying(0, 0, 0);
    // Advantage stays (two d20s: 2 and 15 → 15 + 4 = 19 hits AC 18), but the
    // hit is ordinary: one d6 and one failure.
    t.attack(1, 0, &[(2, 20), (15, 20), (1, 6)]);
    assert_eq!(t.f(0).tally.failures, 1);
    assert_eq!(t.f(0).crits_taken, 0);
}

/// `me` breathes its breath weapon on the scripted dice.
fn breathe(t: &mut Table, me: usize, dice: &[(u64, u64)]) {
    let breath = t.enc.all[me].breath.unwrap();
    let Table { enc, arena, out } = t;
    with_dice(dice, |rng| enc.breathe(rng, arena, me, breath, out));
}

#[test]
fn evasion_takes_no_damage_on_a_saved_dexterity_breath_and_half_on_a_failed_one() {
    // 16d6 fire (all threes: 48), DC 17 Dexterity; the monk's Dex save is +7 at 7.
    let threes: Vec<(u64, u64)> = std::iter::once((1, 1)).chain([(3, 6); 16]).collect();
    let hp_lost = |who: &str, save: u64| {
        let pc = template(who);
        let mut t = Table::new(
            vec![pc],
            vec![monster("young_red_dragon")],
            EncounterRules::default(),
        );
        let mut dice = threes.clone();
        dice.push((save, 20));
        breathe(&mut t, 1, &dice);
        t.f(0).max_hp - t.f(0).hp
    };
    assert!(template("monk-7").evasion && !template("monk-6").evasion);
    assert_eq!(hp_lost("monk-7", 20), 0, "saved: no damage");
    assert_eq!(hp_lost("monk-7", 1), 24, "failed: half");
    assert_eq!(hp_lost("monk-6", 20), 24, "without Evasion: half on a save");
    assert_eq!(
        hp_lost("monk-6", 1),
        45,
        "without Evasion: all of its 45 HP"
    );
}

#[test]
fn a_hit_that_knocks_prone_does_so_up_to_its_size_until_the_target_stands() {
    // SRD 5.2 dire wolf: Bite +5, 1d10+3 piercing; "If the target is a
    // Large or smaller creature, it has the Prone condition."
    let wolf = monster("dire-wolf");
    assert_eq!(wolf.attacks[0].knocks_prone, Some(Size::Large));
    let mut t = Table::new(vec![fighter()], vec![wolf], EncounterRules::default());
    // A miss (2 + 5 = 7 against AC 18) leaves it standing.
    t.attack(1, 0, &[(2, 20)]);
    assert_eq!(t.f(0).spells.conditions & bits::PRONE, 0);
    // A hit (15 + 5 = 20): 1d10 + 3 = 4 + 3, and prone.
    t.attack(1, 0, &[(15, 20), (4, 10)]);
    assert_eq!(t.f(0).max_hp - t.f(0).hp, 7);
    assert_ne!(t.f(0).spells.conditions & bits::PRONE, 0);
    // Its attack rolls have disadvantage while prone; it stands up at the
    // start of its turn.
    let Table { enc, arena, out } = &mut t;
    with_dice(&[], |rng| enc.spells_at_turn_start(rng, arena, 0, out));
    assert_eq!(arena.fighters[0].spells.conditions & bits::PRONE, 0);
    // A Huge target is too big to knock down.
    let mut t = Table::new(
        vec![fighter()],
        vec![monster("dire-wolf")],
        EncounterRules::default(),
    );
    t.enc.all[0].size = Size::Huge;
    t.attack(1, 0, &[(15, 20), (4, 10)]);
    assert_eq!(t.f(0).spells.conditions & bits::PRONE, 0);
}

#[test]
fn a_hit_that_poisons_lasts_to_the_end_of_the_attackers_next_turn() {
    // SRD 5.2 wyvern: Sting "... and the target has the Poisoned condition
    // until the start of the wyvern's next turn" (poisons_on_hit).
    let wyvern = monster("wyvern@5.2");
    let sting = wyvern
        .attacks
        .iter()
        .find(|a| a.poisons_on_hit)
        .expect("the sting poisons")
        .clone();
    let mut t = Table::new(
        vec![template("fighter-5")],
        vec![wyvern],
        EncounterRules::default(),
    );
    let poisoned = crate::combat::spell::Condition::Poisoned.bits();
    // A miss (natural 2) poisons nothing.
    t.attack_with(1, 0, &sting, &[(2, 20)]);
    assert_eq!(t.f(0).spells.conditions & poisoned, 0);
    // A hit (natural 19): 2d6 + 4 and the rider's 7d6, all 1s (13 of the
    // fighter's 44 HP), and poisoned.
    let dice: Vec<(u64, u64)> = std::iter::once((19, 20))
        .chain(std::iter::repeat_n((1, 6), 9))
        .collect();
    t.attack_with(1, 0, &sting, &dice);
    assert_eq!(t.f(0).spells.conditions & poisoned, poisoned);
    // The end of the wyvern's turn in progress, then of its next: gone.
    t.enc.features_at_turn_end(&mut t.arena, 1);
    assert_eq!(t.f(0).spells.conditions & poisoned, poisoned);
    t.enc.features_at_turn_end(&mut t.arena, 1);
    assert_eq!(t.f(0).spells.conditions & poisoned, 0);
}

#[test]
fn a_bloodied_attack_deals_its_other_dice_by_the_attacker_or_the_target() {
    // SRD 5.2 swarm of rats: Bites 2d4, "or 2 (1d4) Piercing damage if the
    // swarm is Bloodied" (at or below half its 14 HP).
    let rats = monster("swarm-of-rats");
    let b = rats.attacks[0].bloodied.expect("bloodied dice");
    assert_eq!(b.of, crate::combat::creature::BloodiedWho::Attacker);
    let mut t = Table::new(vec![fighter()], vec![rats], EncounterRules::default());
    // Unhurt: 2d4 (two dice).
    t.attack(1, 0, &[(19, 20), (2, 4), (3, 4)]);
    assert_eq!(t.f(0).max_hp - t.f(0).hp, 5);
    // At half its hit points: 1d4 (one die).
    let half = t.f(1).max_hp / 2;
    t.f_mut(1).hp = half;
    t.f_mut(0).hp = t.f(0).max_hp;
    t.attack(1, 0, &[(19, 20), (3, 4)]);
    assert_eq!(t.f(0).max_hp - t.f(0).hp, 3);
    // SRD 5.2 blood hawk: Beak 1d4+2, "or 6 (1d8 + 2) ... if the target is
    // Bloodied".
    let hawk = monster("blood-hawk");
    let b = hawk.attacks[0].bloodied.expect("bloodied dice");
    assert_eq!(b.of, crate::combat::creature::BloodiedWho::Target);
    let mut t = Table::new(
        vec![template("fighter-5")],
        vec![hawk],
        EncounterRules::default(),
    );
    t.attack(1, 0, &[(19, 20), (3, 4)]);
    assert_eq!(t.f(0).max_hp - t.f(0).hp, 5, "unhurt: 1d4 + 2");
    t.f_mut(0).hp = 22; // half of 44
    t.attack(1, 0, &[(19, 20), (7, 8)]);
    assert_eq!(t.f(0).hp, 22 - 9, "Bloodied: 1d8 + 2");
}

#[test]
fn in_sunlight_sensitivity_hampers_attack_rolls_and_weakness_saves_too() {
    // SRD 5.2 kobold warrior: "While in sunlight, the kobold has
    // Disadvantage on ability checks and attack rolls." Dagger +4, 1d4+2.
    let kobold = monster("kobold-warrior");
    assert_eq!(kobold.sunlight, Some(Sunlight::Sensitivity));
    let rules = |sunlight: bool| EncounterRules {
        sunlight,
        ..Default::default()
    };
    // Out of sunlight: one d20, 19 + 4 hits AC 18; 1d4 = 2, + 2.
    let mut t = Table::new(vec![fighter()], vec![kobold.clone()], rules(false));
    t.attack(1, 0, &[(19, 20), (2, 4)]);
    assert_eq!(t.f(0).max_hp - t.f(0).hp, 4);
    // In sunlight: two d20, the lower (2) misses.
    let mut t = Table::new(vec![fighter()], vec![kobold], rules(true));
    t.attack(1, 0, &[(19, 20), (2, 20)]);
    assert_eq!(t.f(0).max_hp - t.f(0).hp, 0);
    // SRD 5.2 shadow: "Disadvantage on D20 Tests": its saving throws too.
    let shadow = monster("shadow");
    assert_eq!(shadow.sunlight, Some(Sunlight::Weakness));
    let dex = shadow.save(Ability::Dex);
    let rolls: [&[(u64, u64)]; 2] = [&[(12, 20)], &[(12, 20), (3, 20)]];
    for ((sunlight, saved), dice) in [(false, true), (true, false)].into_iter().zip(rolls) {
        let mut t = Table::new(vec![fighter()], vec![shadow.clone()], rules(sunlight));
        let Table { enc, arena, .. } = &mut t;
        // DC 12 + Dex: a 12 saves alone; in sunlight the lower of 12 and 3
        // does not.
        let got = with_dice(dice, |rng| {
            enc.saving_throw(rng, arena, 1, Ability::Dex, 12 + dex)
        });
        assert_eq!(got, saved, "in sunlight: {sunlight}");
    }
    // A kobold's saving throws are not hampered: one d20.
    let mut t = Table::new(
        vec![fighter()],
        vec![monster("kobold-warrior")],
        rules(true),
    );
    let Table { enc, arena, .. } = &mut t;
    let dex = monster("kobold-warrior").save(Ability::Dex);
    assert!(with_dice(&[(12, 20)], |rng| enc.saving_throw(
        rng,
        arena,
        1,
        Ability::Dex,
        12 + dex
    )));
}

#[test]
fn a_goblins_hit_with_advantage_adds_its_die_and_cancelled_advantage_does_not() {
    // SRD 5.2 goblin warrior: Scimitar +4, 1d6 + 2 Slashing, "plus 2 (1d4)
    // Slashing damage if the attack roll had Advantage".
    let goblin = monster("goblin-warrior");
    assert!(goblin.attacks[0].advantage_damage.is_some());
    let blinded = crate::combat::effect::BLINDED;
    // A plain roll: one d20, 1d6 + 2.
    let mut t = Table::new(
        vec![fighter()],
        vec![goblin.clone()],
        EncounterRules::default(),
    );
    t.attack(1, 0, &[(19, 20), (3, 6)]);
    assert_eq!(t.f(0).max_hp - t.f(0).hp, 5);
    // Against a blinded fighter (advantage): two d20, then 1d6 + 2 + 1d4.
    let mut t = Table::new(
        vec![fighter()],
        vec![goblin.clone()],
        EncounterRules::default(),
    );
    t.f_mut(0).effects |= blinded;
    t.attack(1, 0, &[(19, 20), (5, 20), (3, 6), (2, 4)]);
    assert_eq!(t.f(0).max_hp - t.f(0).hp, 7);
    // A critical hit with advantage doubles that die too.
    let mut t = Table::new(
        vec![fighter()],
        vec![goblin.clone()],
        EncounterRules::default(),
    );
    t.f_mut(0).effects |= blinded;
    t.attack(1, 0, &[(20, 20), (5, 20), (3, 6), (1, 6), (2, 4), (4, 4)]);
    assert_eq!(t.f(0).max_hp - t.f(0).hp, 3 + 1 + 2 + 2 + 4);
    // Both blinded: advantage and disadvantage cancel, one d20, no die.
    let mut t = Table::new(vec![fighter()], vec![goblin], EncounterRules::default());
    t.f_mut(0).effects |= blinded;
    t.f_mut(1).effects |= blinded;
    t.attack(1, 0, &[(19, 20), (3, 6)]);
    assert_eq!(t.f(0).max_hp - t.f(0).hp, 5);
}

#[test]
fn bloodied_fury_and_frenzy_give_advantage_at_half_hit_points() {
    use crate::combat::creature::BloodiedAdvantage;
    // SRD 5.2 berserker: "While Bloodied, the berserker has Advantage on
    // attack rolls and saving throws." Greataxe +5, 1d12 + 3.
    let berserker = monster("berserker");
    assert_eq!(
        berserker.bloodied_advantage,
        Some(BloodiedAdvantage::AttacksAndSaves)
    );
    let mut t = Table::new(
        vec![fighter()],
        vec![berserker.clone()],
        EncounterRules::default(),
    );
    // Above half its hit points: one d20 (2 + 5 misses AC 18).
    t.f_mut(1).hp = t.f(1).max_hp / 2 + 1;
    t.attack(1, 0, &[(2, 20)]);
    assert_eq!(t.f(0).hp, t.f(0).max_hp);
    // At half: two d20, the higher (15 + 5) hits.
    t.f_mut(1).hp = t.f(1).max_hp / 2;
    t.attack(1, 0, &[(2, 20), (15, 20), (4, 12)]);
    assert_eq!(t.f(0).max_hp - t.f(0).hp, 7);
    // Its saving throws too: a 3 fails a DC 15 Strength save alone; at
    // half its hit points the higher of 3 and 14 (+3) saves.
    let strength = berserker.save(Ability::Str);
    for (hp, dice, saved) in [
        (t.f(1).max_hp, &[(3, 20)][..], false),
        (t.f(1).max_hp / 2, &[(3, 20), (14, 20)][..], true),
    ] {
        t.f_mut(1).hp = hp;
        let Table { enc, arena, .. } = &mut t;
        let got = with_dice(dice, |rng| {
            enc.saving_throw(rng, arena, 1, Ability::Str, 14 + strength)
        });
        assert_eq!(got, saved, "at {hp} HP");
    }
    // SRD 5.2 boar, Bloodied Fury: advantage on attack rolls only.
    let boar = monster("boar");
    assert_eq!(boar.bloodied_advantage, Some(BloodiedAdvantage::Attacks));
    let mut t = Table::new(vec![fighter()], vec![boar], EncounterRules::default());
    t.f_mut(1).hp = t.f(1).max_hp / 2;
    let Table { enc, arena, .. } = &mut t;
    assert!(!with_dice(&[(3, 20)], |rng| enc.saving_throw(
        rng,
        arena,
        1,
        Ability::Str,
        10
    )));
}

#[test]
fn a_ghouls_claw_paralyzes_on_a_failed_save_until_the_end_of_the_targets_next_turn() {
    // SRD 5.2 ghoul: Claw +4, 1d4 + 2, "Constitution Saving Throw: DC 10.
    // Failure: The target has the Paralyzed condition until the end of
    // its next turn" (hit_condition). Fighter-5: Con save +5, AC 18.
    let ghoul = monster("ghoul");
    let claw = ghoul
        .attacks
        .iter()
        .find(|a| a.hit_condition.is_some())
        .expect("the claw paralyzes")
        .clone();
    let h = claw.hit_condition.expect("a save");
    assert_eq!((h.ability, h.dc), (Ability::Con, 10));
    let paralyzed = crate::combat::spell::Condition::Paralyzed.bits();
    let new = |fighter: CreatureSpec| {
        Table::new(
            vec![fighter],
            vec![ghoul.clone()],
            EncounterRules::default(),
        )
    };
    let end_turn = |t: &mut Table, me: usize| {
        let Table { enc, arena, out } = t;
        with_dice(&[], |rng| enc.spells_at_turn_end(rng, arena, me, out));
    };
    let mut t = new(template("fighter-5"));
    // A miss (natural 2): no save, nothing.
    t.attack_with(1, 0, &claw, &[(2, 20)]);
    assert_eq!(t.f(0).spells.conditions, 0);
    // A hit and a save of 5 + 5 = 10: nothing.
    t.attack_with(1, 0, &claw, &[(19, 20), (1, 4), (5, 20)]);
    assert_eq!(t.f(0).spells.conditions, 0);
    // A hit and a save of 4 + 5 = 9: paralyzed; a melee hit on it from
    // within 5 feet is a critical hit.
    t.attack_with(1, 0, &claw, &[(19, 20), (1, 4), (4, 20)]);
    assert_eq!(t.f(0).spells.conditions & paralyzed, paralyzed);
    assert_ne!(t.f(0).spells.conditions & bits::CRITICAL_WITHIN_5, 0);
    // Another creature's turn ends: still paralyzed; its own: free.
    end_turn(&mut t, 1);
    assert_eq!(t.f(0).spells.conditions & paralyzed, paralyzed);
    end_turn(&mut t, 0);
    assert_eq!(t.f(0).spells.conditions, 0);
    // Paralyzed in its own turn (an opportunity attack): until the end of
    // its next one, not of this one.
    t.arena.acting = 1;
    t.attack_with(1, 0, &claw, &[(19, 20), (1, 4), (4, 20)]);
    t.arena.acting = 0;
    end_turn(&mut t, 0);
    assert_eq!(t.f(0).spells.conditions & paralyzed, paralyzed);
    end_turn(&mut t, 0);
    assert_eq!(t.f(0).spells.conditions, 0);
    // A creature immune to Paralyzed rolls no save and stays free.
    let mut immune = template("fighter-5");
    immune.condition_immune |= 1 << crate::combat::spell::Condition::Paralyzed as u16;
    let mut t = new(immune);
    t.attack_with(1, 0, &claw, &[(19, 20), (1, 4)]);
    assert_eq!(t.f(0).spells.conditions, 0);
}
