//! Legendary actions and Legendary Resistance (`encounter/legendary.rs`):
//! uses spent one option at a time after another creature's turn and
//! regained at its own, costs, options taken once a round, none while
//! down or incapacitated; a failed save against a condition turned into a
//! success while uses last, never one against damage alone. The exact
//! check: Legendary Resistance against a save-or-suffer effect over N
//! tries, against its binomial closed form.

use rand::SeedableRng;

use super::*;
use crate::combat::creature::{Ability, AreaSave, Legendary, LegendaryEffect, LegendaryOption};
use crate::combat::spell::bits;

/// A goblin with legendary actions: `uses` a round, one option making its
/// scimitar attack (+4, 1d6+2) at `cost`, once a round or not.
fn legendary_goblin(uses: u8, cost: u8, once_per_round: bool) -> CreatureSpec {
    let mut g = goblin();
    g.legendary = Some(Legendary {
        uses,
        options: vec![LegendaryOption {
            name: "strike".into(),
            effect: LegendaryEffect::Attack {
                index: 0,
                name: "scimitar".into(),
            },
            cost,
            once_per_round,
            moves_first: false,
        }],
    });
    g
}

/// The legendary actions after creature `done`'s turn.
fn after(t: &mut Table, done: usize, dice: &[(u64, u64)]) {
    let Table { enc, arena, out } = t;
    with_dice(dice, |rng| {
        enc.legendary_actions_after(rng, arena, done, out)
    });
}

#[test]
fn legendary_actions_follow_other_creatures_turns_until_the_uses_run_out() {
    let mut t = Table::new(
        vec![fighter()],
        vec![legendary_goblin(2, 1, false)],
        EncounterRules::default(),
    );
    assert_eq!(t.f(1).legendary_uses, 2);
    // After the fighter's turn: target d1, a 15 + 4 hits AC 18, 1d6 of 3
    // + 2 = 5 damage (the scimitar's).
    after(&mut t, 0, &[(1, 1), (15, 20), (3, 6)]);
    assert_eq!((t.f(0).hp, t.f(1).legendary_uses), (7, 1));
    // Again (a miss), then no use left: no dice at all.
    after(&mut t, 0, &[(1, 1), (2, 20)]);
    assert_eq!(t.f(1).legendary_uses, 0);
    after(&mut t, 0, &[]);
    // Not after its own turn.
    t.f_mut(1).legendary_uses = 2;
    after(&mut t, 1, &[]);
    // Its turn start brings all its uses back.
    t.f_mut(1).legendary_uses = 0;
    t.enc.regain_legendary(&mut t.arena, 1);
    assert_eq!(t.f(1).legendary_uses, 2);
    // None at 0 HP or incapacitated.
    t.f_mut(1).state = State::Down;
    after(&mut t, 0, &[]);
    t.f_mut(1).state = State::Up;
    t.f_mut(1).spells.conditions = bits::INCAPACITATED;
    after(&mut t, 0, &[]);
}

#[test]
fn an_option_costs_its_uses_and_one_taken_once_a_round_waits_for_its_turn() {
    // Costs 2 of 3 uses: once, then the 1 left buys nothing.
    let mut t = Table::new(
        vec![fighter()],
        vec![legendary_goblin(3, 2, false)],
        EncounterRules::default(),
    );
    after(&mut t, 0, &[(1, 1), (2, 20)]);
    assert_eq!(t.f(1).legendary_uses, 1);
    after(&mut t, 0, &[]);
    // Once a round: 3 uses, one taken, the rest wait for its next turn.
    let mut t = Table::new(
        vec![fighter()],
        vec![legendary_goblin(3, 1, true)],
        EncounterRules::default(),
    );
    after(&mut t, 0, &[(1, 1), (2, 20)]);
    after(&mut t, 0, &[]);
    assert_eq!(t.f(1).legendary_uses, 2);
    t.enc.regain_legendary(&mut t.arena, 1);
    after(&mut t, 0, &[(1, 1), (2, 20)]);
}

/// A goblin (Wisdom save +(-1)) with `n` uses of Legendary Resistance.
fn resistant_goblin(n: u8) -> Table {
    let mut g = goblin();
    g.legendary_resistance = n;
    Table::new(vec![fighter()], vec![g], EncounterRules::default())
}

#[test]
fn legendary_resistance_turns_failed_saves_against_conditions_while_it_lasts() {
    let mut t = resistant_goblin(1);
    let Table { enc, arena, .. } = &mut t;
    // A 2 fails DC 15: turned into a success, the one use spent.
    let saved = with_dice(&[(2, 20)], |rng| {
        enc.save_against_condition(rng, arena, 1, Ability::Wis, 15, false)
    });
    assert!(saved);
    assert_eq!(arena.fighters[1].legendary_resistances, 0);
    let saved = with_dice(&[(2, 20)], |rng| {
        enc.save_against_condition(rng, arena, 1, Ability::Wis, 15, false)
    });
    assert!(!saved, "no use left");
    // A success spends none; a save against damage alone spends none.
    let mut t = resistant_goblin(1);
    let Table { enc, arena, .. } = &mut t;
    with_dice(&[(19, 20)], |rng| {
        enc.save_against_condition(rng, arena, 1, Ability::Wis, 15, false)
    });
    let save = crate::combat::spell::SpellSave {
        ability: Ability::Dex,
        success: crate::combat::spell::OnSuccess::Half,
    };
    let share = with_dice(&[(2, 20)], |rng| {
        enc.save_share(rng, arena, 1, Some(save), 15, false)
    });
    assert_eq!(share, 1.0);
    assert_eq!(arena.fighters[1].legendary_resistances, 1);
    let share = with_dice(&[(2, 20)], |rng| {
        enc.save_share(rng, arena, 1, Some(save), 15, true)
    });
    assert_eq!(share, 0.5, "saved by Legendary Resistance: half damage");
    assert_eq!(arena.fighters[1].legendary_resistances, 0);
}

#[test]
fn legendary_resistance_over_six_tries_matches_its_binomial_closed_form() {
    // A save at even odds (goblin Wis -1 against DC 10: 11 or more on the
    // d20), three uses: the effect never lands when at most three of six
    // saves fail. P = sum_{k<=3} C(6, k) / 64 = 42/64.
    let exact = 42.0 / 64.0;
    let trials = 200_000;
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(31);
    let mut t = resistant_goblin(3);
    let mut never = 0u32;
    for _ in 0..trials {
        let Table { enc, arena, .. } = &mut t;
        arena.fighters[1].legendary_resistances = 3;
        let landed = (0..6)
            .map(|_| enc.save_against_condition(&mut rng, arena, 1, Ability::Wis, 10, false))
            .filter(|saved| !saved)
            .count();
        never += u32::from(landed == 0);
    }
    let p = f64::from(never) / f64::from(trials);
    let sigma = (exact * (1.0 - exact) / f64::from(trials)).sqrt();
    assert!(
        (p - exact).abs() < 4.5 * sigma,
        "{p} against {exact} (4.5 sigma = {})",
        4.5 * sigma
    );
}

#[test]
fn the_round_loop_takes_legendary_actions_after_other_turns() {
    // A fighter against a goblin whose legendary scimitar swings come
    // after the fighter's turns (one a round: one other creature): at a
    // fixed seed it loses over a quarter more hit points than against the
    // plain goblin (without the loop's legendary actions the two runs
    // would roll the same dice and lose exactly the same).
    let hp_lost = |monster: CreatureSpec| {
        let mut t = Table::new(vec![fighter()], vec![monster], EncounterRules::default());
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        let mut lost = 0i64;
        for _ in 0..2000 {
            let Table { enc, arena, out } = &mut t;
            arena.fighters.clear();
            arena.fighters.extend_from_slice(&enc.initial);
            enc.fight(&mut rng, arena, out);
            lost += arena.fighters[0].hp_lost;
        }
        lost
    };
    let plain = hp_lost(goblin());
    let legendary = hp_lost(legendary_goblin(2, 1, false));
    assert!(legendary > plain * 5 / 4, "{legendary} against {plain}");
}

#[test]
fn a_save_option_catches_enemies_at_random_for_half_or_none() {
    // Two fighters (Dex save +1) against a goblin whose option is a
    // DC 15 Dexterity save against 2d6 fire on up to 2 creatures.
    let area = |half: bool| AreaSave {
        dice: "2d6".parse().unwrap(),
        kind: crate::rules::damage::DamageType::Fire,
        save: (Ability::Dex, 15),
        targets: 2,
        half,
        on_failure: crate::combat::creature::Hampered::NONE,
    };
    for (half, saved_takes) in [(true, 3), (false, 0)] {
        let mut g = goblin();
        g.legendary = Some(Legendary {
            uses: 1,
            options: vec![LegendaryOption {
                name: "burst".into(),
                effect: LegendaryEffect::Save(area(half)),
                cost: 1,
                once_per_round: false,
                moves_first: false,
            }],
        });
        let mut t = Table::new(
            vec![fighter(), fighter()],
            vec![g],
            EncounterRules::default(),
        );
        // After creature 0's turn: both caught (the partial shuffle's
        // draws), 2d6 of 3 + 4 = 7; the first saves (19 + 1), the second
        // fails (2 + 1).
        after(
            &mut t,
            0,
            &[(1, 2), (1, 1), (3, 6), (4, 6), (19, 20), (2, 20)],
        );
        let lost: Vec<i32> = (0..2).map(|i| 12 - t.f(i).hp).collect();
        assert_eq!(
            lost.iter().sum::<i32>(),
            7 + saved_takes,
            "half = {half}: {lost:?}"
        );
        assert_eq!(t.f(2).legendary_uses, 0);
    }
}

/// The saving throw of the legendary option `option` of bestiary monster
/// `name`.
fn save_option(name: &str, option: &str) -> AreaSave {
    monster(name)
        .legendary
        .as_ref()
        .and_then(|l| {
            l.options.iter().find_map(|o| match o.effect {
                LegendaryEffect::Save(a) if o.name == option => Some(a),
                _ => None,
            })
        })
        .unwrap_or_else(|| panic!("{name}: no save option {option}"))
}

#[test]
fn a_failed_save_leaves_its_lasting_effects_until_the_end_of_the_targets_next_turn() {
    use crate::combat::creature::Hampered;
    // SRD 5.2 adult green dragon: Noxious Miasma, "Failure: 7 (2d6) Poison
    // damage, and the target takes a −2 penalty to AC until the end of its
    // next turn"; adult black dragon: Cloud of Insects, "Disadvantage on
    // saving throws to maintain Concentration until the end of its next
    // turn".
    let miasma = save_option("adult-green-dragon", "noxious-miasma");
    assert_eq!(miasma.on_failure.ac_penalty, 2);
    let mut t = Table::new(
        vec![fighter(), fighter()],
        vec![goblin()],
        EncounterRules::default(),
    );
    let ac = t.enc.defended_ac(t.f(0));
    // Both caught; 2d6 = 1 + 1; the first fails (2 + 2), the second saves
    // (19 + 2).
    let Table { enc, arena, out } = &mut t;
    with_dice(
        &[(1, 2), (1, 1), (1, 6), (1, 6), (2, 20), (19, 20)],
        |rng| enc.area_save(rng, arena, 2, miasma, out),
    );
    let failed = (0..2).find(|&i| arena.fighters[i].hp < 12).unwrap();
    let saved = 1 - failed;
    assert_eq!(enc.defended_ac(&arena.fighters[failed]), ac - 2);
    assert_eq!(enc.defended_ac(&arena.fighters[saved]), ac);
    // Another creature's turn ends: still on; its own turn ends: gone.
    Encounter::hampered_turn_end(arena, saved);
    assert_eq!(enc.defended_ac(&arena.fighters[failed]), ac - 2);
    Encounter::hampered_turn_end(arena, failed);
    assert_eq!(enc.defended_ac(&arena.fighters[failed]), ac);

    // Cloud of Insects: a concentration save at disadvantage (two d20,
    // the lower), DC 10 with Con +2: 15 keeps it alone, not beside a 3.
    let insects = save_option("adult-black-dragon", "cloud-of-insects");
    assert!(insects.on_failure.concentration_disadvantage);
    let mut t = Table::new(vec![fighter()], vec![goblin()], EncounterRules::default());
    let Table { enc, arena, .. } = &mut t;
    let con = fighter().save(Ability::Con);
    assert!(with_dice(&[(15, 20)], |rng| enc.concentration_save(
        rng,
        arena,
        0,
        10 + con
    )));
    arena.fighters[0].hampered = insects.on_failure;
    assert!(!with_dice(&[(15, 20), (3, 20)], |rng| enc
        .concentration_save(rng, arena, 0, 10 + con)));
    // Its other saves are not hampered: one d20.
    assert!(with_dice(&[(15, 20)], |rng| enc.saving_throw(
        rng,
        arena,
        0,
        Ability::Con,
        10 + con
    )));
    // Freezing Burst: Speed 0; Scorching Sands: Speed halved (positions).
    let mut t = Table::new(vec![fighter()], vec![goblin()], EncounterRules::default());
    let Table { enc, arena, .. } = &mut t;
    let speed = arena.fighters[0].speed;
    assert!(speed > 0);
    assert_eq!(enc.start_moving(arena, 0).left, speed);
    for (h, left) in [
        (
            Hampered {
                speed_zero: true,
                ..Hampered::NONE
            },
            0,
        ),
        (
            Hampered {
                speed_halved: true,
                ..Hampered::NONE
            },
            speed / 2,
        ),
    ] {
        arena.fighters[0].hampered = h;
        assert_eq!(enc.start_moving(arena, 0).left, left);
    }
}
