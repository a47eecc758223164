//! Positions (docs/combat.md, "Positions"; our approximation): places,
//! movement by speed and the Dash, reaching past the front line,
//! opportunity attacks, ranged attacks in melee, prone, and the speed that
//! wounds, lingering injuries and severed limbs leave.

use super::*;
use crate::combat::creature::Line;
use crate::combat::effect;
use crate::combat::encounter::fighter::ALWAYS_PRONE;
use crate::combat::policy::{Positions, RangedInMelee, Targeting};
use crate::combat::spell::bits;
use crate::combat::wounds::WoundExample;
use crate::rules::damage::Size;

/// Rules with positions `p`, everyone focusing fire (no targeting dice).
fn with(p: Positions) -> EncounterRules {
    EncounterRules {
        positions: Some(p),
        targeting: Targeting::FocusFire,
        ..Default::default()
    }
}

fn positions() -> EncounterRules {
    with(Positions::DEFAULT)
}

/// A wizard (fire bolt only: the back line).
fn wizard() -> CreatureSpec {
    template("wizard-1")
}

impl Table {
    /// Places everyone as a fight starts.
    fn place(&mut self) {
        let p = self.enc.rules.positions.expect("positions on");
        self.enc.place(&mut self.arena, &p);
    }

    /// Puts creature `who` at `x` feet.
    fn at(&mut self, who: usize, x: i32) {
        self.f_mut(who).x = x;
    }
}

#[test]
fn each_side_starts_in_its_lines_by_its_attacks_or_as_given() {
    let mut archer = goblin();
    archer.line = Some(Line::Back);
    let mut t = Table::new(
        vec![fighter(), wizard()],
        vec![goblin(), archer],
        positions(),
    );
    t.place();
    let xs: Vec<i32> = (0..4).map(|i| t.f(i).x).collect();
    assert_eq!(
        xs,
        [0, -30, 60, 90],
        "front 0, back 30 ft behind, monsters 60 ft away"
    );
    assert_eq!(
        wizard().line(),
        Line::Back,
        "no melee attack: the back line"
    );
    assert_eq!(goblin().line(), Line::Front);
    let mut t = Table::new(
        vec![fighter()],
        vec![goblin()],
        with(Positions {
            start_distance: 20,
            back_line: 10,
            ..Positions::DEFAULT
        }),
    );
    t.place();
    assert_eq!((t.f(0).x, t.f(1).x), (0, 20));
}

#[test]
fn a_melee_attacker_out_of_reach_moves_its_speed_then_dashes_without_attacking() {
    let mut t = Table::duel(positions());
    t.place();
    // 60 ft away at speed 30: 30 ft, then the Dash's 25 ft to stand 5 ft off.
    t.turn(1, false, &[]);
    assert_eq!(t.f(1).x, 5, "it stops within 5 feet");
    assert_eq!(t.f(0).hp, 12, "the Dash was its action: no attack");
    // Next turn it is within reach: it attacks where it stands.
    t.turn(1, false, &[(19, 20), (2, 6)]);
    assert_eq!((t.f(1).x, t.f(0).hp), (5, 12 - 4));
}

#[test]
fn a_melee_attacker_within_its_speed_moves_and_attacks() {
    let mut t = Table::duel(positions());
    t.place();
    t.at(1, 30);
    t.turn(1, false, &[(19, 20), (2, 6)]);
    assert_eq!((t.f(1).x, t.f(0).hp), (5, 12 - 4));
    // Too far even with the Dash: it gets as close as it can.
    t.at(1, 100);
    t.turn(1, false, &[]);
    assert_eq!(t.f(1).x, 40);
}

#[test]
fn the_back_line_is_reached_only_past_the_front_line() {
    // The goblin stands at the fighter (front, 0); the wizard is at -30.
    let mut t = Table::new(vec![fighter(), wizard()], vec![goblin()], positions());
    t.place();
    t.at(2, 5);
    t.f_mut(0).state = State::Stable; // no longer conscious: it screens no one
    assert_eq!(t.target(2, Reach::Melee, &[]), Some(1));
    t.f_mut(0).state = State::Up;
    let mut lowest = positions();
    lowest.targeting = Targeting::LowestHp;
    let mut t = Table::new(vec![fighter(), wizard()], vec![goblin()], lowest);
    t.place();
    t.at(2, 5);
    assert!(t.f(1).hp < t.f(0).hp, "the wizard is the weaker");
    assert_eq!(
        t.target(2, Reach::Melee, &[]),
        Some(0),
        "the fighter stands between"
    );
    assert_eq!(
        t.target(2, Reach::Ranged, &[]),
        Some(1),
        "a ranged attack picks anyone"
    );
    // Moving past the front: the wizard is picked, and passing the fighter
    // provokes its opportunity attack (longsword: d20, 1d8 + 5).
    let mut p = Positions::DEFAULT;
    p.move_past_front = true;
    let mut rules = with(p);
    rules.targeting = Targeting::LowestHp;
    let mut t = Table::new(vec![fighter(), wizard()], vec![goblin()], rules);
    t.place();
    t.at(2, 5);
    assert_eq!(t.target(2, Reach::Melee, &[]), Some(1));
    // The opportunity attack misses (a 2); the goblin moves 30 ft to -25
    // and hits the wizard (a 19, 1d6 + 2 = 4).
    t.turn(2, false, &[(2, 20), (19, 20), (2, 6)]);
    assert_eq!(t.f(2).x, -25);
    assert!(!t.f(0).reaction, "the fighter's reaction is spent");
    assert_eq!(t.f(1).hp, t.enc.all[1].max_hp - 4);
}

#[test]
fn leaving_reach_provokes_once_per_round_and_can_drop_the_mover_where_it_was_hit() {
    let mut p = Positions::DEFAULT;
    p.ranged_in_melee = RangedInMelee::StepBack;
    // A goblin archer (shortbow only) next to the fighter steps back.
    let mut archer = goblin();
    archer.attacks.remove(0);
    archer.multiattack = vec![0];
    let mut t = Table::new(vec![fighter()], vec![archer.clone()], with(p));
    t.place();
    t.at(1, 5);
    // The fighter's opportunity attack hits for 1d8 + 5 = 6 (the goblin has
    // 7 HP); it steps back 30 ft to 35 and shoots without disadvantage.
    t.turn(1, false, &[(15, 20), (1, 8), (19, 20), (2, 6)]);
    assert_eq!((t.f(1).x, t.f(1).hp), (35, 1));
    assert_eq!(t.f(0).hp, 12 - 4);
    // Its reaction spent, the fighter cannot strike again this round.
    t.at(1, 5);
    t.turn(1, false, &[(19, 20), (2, 6)]);
    assert_eq!((t.f(1).x, t.f(1).hp), (35, 1));
    // Its own turn gives its reaction back; the next step back drops the goblin
    // 5 ft from the fighter, where the blow fell.
    t.f_mut(0).reaction = true;
    t.at(1, 5);
    t.turn(1, false, &[(15, 20), (1, 8)]);
    assert_eq!((t.f(1).state, t.f(1).x), (State::Dead, 5));
}

#[test]
fn a_ranged_attack_with_a_hostile_within_5_feet_has_disadvantage() {
    let mut t = Table::new(vec![wizard()], vec![goblin()], positions());
    t.place();
    let bolt = t.enc.all[0].attacks[0].clone();
    // Far off: one d20 (a 19 hits AC 15), 1d10.
    t.attack_with(0, 1, &bolt, &[(19, 20), (3, 10)]);
    assert_eq!(t.f(1).hp, 7 - 3);
    // With the goblin within 5 feet: two d20s, the lower (a 2) misses.
    t.at(1, -25);
    t.attack_with(0, 1, &bolt, &[(19, 20), (2, 20)]);
    assert_eq!(t.f(1).hp, 7 - 3);
    // A downed hostile does not count.
    t.f_mut(1).state = State::Dead;
    let mut u = Table::new(vec![wizard()], vec![goblin(), goblin()], positions());
    u.place();
    u.at(1, -25);
    u.f_mut(1).state = State::Dead;
    u.attack_with(0, 2, &bolt, &[(19, 20), (3, 10)]);
    assert_eq!(u.f(2).hp, 7 - 3);
}

#[test]
fn a_lost_eye_gives_disadvantage_only_beyond_30_feet_with_positions() {
    let mut t = Table::new(vec![wizard()], vec![goblin()], positions());
    t.place();
    t.f_mut(0).effects |= effect::DIS_RANGED_FAR;
    let bolt = t.enc.all[0].attacks[0].clone();
    // 90 ft: disadvantage (the lower of 19 and 2 misses).
    t.attack_with(0, 1, &bolt, &[(19, 20), (2, 20)]);
    assert_eq!(t.f(1).hp, 7);
    // 20 ft: one die.
    t.at(1, -10);
    t.attack_with(0, 1, &bolt, &[(19, 20), (3, 10)]);
    assert_eq!(t.f(1).hp, 7 - 3);
}

#[test]
fn the_lingering_lose_an_eye_gives_disadvantage_at_every_range_with_positions() {
    // The table's entry (every ranged attack), not the permanent wound's (beyond 30 ft).
    let mut t = Table::new(vec![wizard()], vec![goblin()], positions());
    t.place();
    t.at(1, -10);
    t.f_mut(0).effects |= effect::DIS_RANGED;
    let bolt = t.enc.all[0].attacks[0].clone();
    // 20 ft: disadvantage still (the lower of 19 and 2 misses).
    t.attack_with(0, 1, &bolt, &[(19, 20), (2, 20)]);
    assert_eq!(t.f(1).hp, 7);
}

#[test]
fn the_prone_are_hit_more_easily_up_close_and_stand_with_half_their_speed() {
    let mut t = Table::duel(positions());
    t.place();
    t.at(1, 5);
    // Dropped to 0 HP: prone.
    t.deal(0, slashing(12, false), &[]);
    assert!(t.f(0).prone && t.f(0).state == State::Dying);
    // Healed, still prone: a melee attack within 5 ft has advantage.
    t.heal(0, 5, false);
    t.attack(1, 0, &[(2, 20), (19, 20), (2, 6)]);
    assert_eq!(t.f(0).hp, 5 - 4);
    // A ranged attack from farther has disadvantage.
    t.at(1, 40);
    let bow = t.enc.all[1].attacks[1].clone();
    t.attack_with(1, 0, &bow, &[(19, 20), (2, 20)]);
    assert_eq!(t.f(0).hp, 1);
    // Within 5 feet, a ranged attack on the prone has advantage, which the
    // hostile within 5 feet cancels: one d20 (a 2 misses).
    t.at(1, 5);
    t.attack_with(1, 0, &bow, &[(2, 20)]);
    assert_eq!(t.f(0).hp, 1);
    // Standing up costs half its speed: 15 of 30 ft left, not enough to reach.
    t.at(1, 60);
    let movement = t.enc.start_moving(&mut t.arena, 0);
    assert_eq!((movement.left, t.f(0).prone), (15, false));
    // A prone attacker has disadvantage on its own attacks.
    t.f_mut(0).prone = true;
    t.at(1, 5);
    t.attack(0, 1, &[(19, 20), (2, 20)]);
    assert_eq!(t.f(1).hp, 7);
}

#[test]
fn speed_follows_wounds_lingering_injuries_severed_legs_and_class_features() {
    assert_eq!(fighter().speed, 30, "a template walks 30 ft");
    assert_eq!(template("monk-1").speed, 30);
    assert_eq!(template("monk-2").speed, 40, "Unarmored Movement");
    assert_eq!(template("monk-18").speed, 60);
    assert_eq!(template("barbarian-4").speed, 30);
    assert_eq!(template("barbarian-5").speed, 40, "Fast Movement");
    // The permanent wounds of the data: a limp costs 10 ft, a lost leg
    // leaves 5 ft.
    let examples = &crate::fixtures::catalog().wound_examples;
    let find = |severity, name: &str| -> WoundExample {
        examples
            .of(severity)
            .iter()
            .find(|e| e.name == name)
            .unwrap()
            .clone()
    };
    use crate::rules::permanent_wounds::Severity;
    assert_eq!(find(Severity::Moderate, "limp").speed(30, true), 20);
    assert_eq!(find(Severity::Severe, "lost leg").speed(30, false), 5);
    assert_eq!(find(Severity::Minor, "slight limp").speed(30, true), 30);
    // A severed leg halves it (as *lose a foot or leg*) and makes the Dash
    // end prone; two leave a quarter.
    let mut t = Table::duel(positions());
    t.f_mut(0).severed = 0b0100;
    t.enc.recompute_effects(&mut t.arena, 0);
    assert_eq!((t.f(0).speed, t.f(0).prone_after_dash), (15, ALWAYS_PRONE));
    t.f_mut(0).severed = 0b1100;
    t.enc.recompute_effects(&mut t.arena, 0);
    assert_eq!(t.f(0).speed, 7);
}

#[test]
fn a_lingering_injury_slows_and_a_dash_on_a_lost_leg_ends_prone() {
    let rules = EncounterRules {
        injuries: Some(crate::combat::policy::CombatInjuries {
            table: crate::fixtures::catalog().injury_table.clone(),
            trigger: Default::default(),
            miss_trigger: crate::rules::lingering::MissTrigger::Natural1,
            bad_weather: false,
        }),
        ..positions()
    };
    let mut t = Table::duel(rules);
    t.place();
    let table = &crate::fixtures::catalog().injury_table;
    let leg = table
        .entries
        .iter()
        .position(|e| e.id == "lose_a_foot_or_leg")
        .unwrap();
    // The goblin has lost a foot: 15 ft, and it falls after a Dash.
    t.f_mut(1).injuries[0] = leg as u8;
    t.f_mut(1).n_injuries = 1;
    t.enc.recompute_effects(&mut t.arena, 1);
    assert_eq!((t.f(1).speed, t.f(1).prone_after_dash), (15, ALWAYS_PRONE));
    t.turn(1, false, &[]);
    assert_eq!(t.f(1).x, 60 - 30, "15 ft and the Dash's 15");
    assert!(t.f(1).prone, "prone after the Dash");
}

#[test]
fn without_positions_nothing_moves_and_no_one_provokes() {
    let mut t = Table::duel(EncounterRules {
        targeting: Targeting::FocusFire,
        ..Default::default()
    });
    t.turn(1, false, &[(19, 20), (2, 6)]);
    assert_eq!((t.f(1).x, t.f(0).hp), (0, 12 - 4));
    let bolt = template("wizard-1").attacks[0].clone();
    let mut t = Table::new(vec![wizard()], vec![goblin()], Default::default());
    t.f_mut(0).effects |= effect::DIS_RANGED_FAR;
    // A lost eye: every ranged attack at disadvantage, as before positions.
    t.attack_with(0, 1, &bolt, &[(19, 20), (2, 20)]);
    assert_eq!(t.f(1).hp, 7);
    assert!(!t.f(0).prone);
}

#[test]
fn the_one_pass_screen_agrees_with_the_definition() {
    use crate::dice::uniform_below;
    use rand::SeedableRng;
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(9);
    let mut t = Table::new(
        vec![fighter()],
        vec![goblin(), goblin(), goblin(), goblin()],
        positions(),
    );
    for _ in 0..20_000 {
        for who in 0..5 {
            let x =
                (uniform_below(&mut rng, 16) as i32 - 8) * 5 + uniform_below(&mut rng, 2) as i32;
            t.at(who, x);
            t.f_mut(who).state = if uniform_below(&mut rng, 10) < 7 {
                State::Up
            } else {
                State::Dead
            };
        }
        for me in [0, 1] {
            let screen = t.enc.screen(&t.arena, me);
            for target in t.enc.enemies_of(&t.arena, me) {
                assert_eq!(
                    screen.lets_through(t.f(target).x),
                    !t.enc.screened(&t.arena, me, target),
                    "mover {me} at {}, target {target}: {:?}",
                    t.f(me).x,
                    (0..5).map(|i| (t.f(i).x, t.f(i).state)).collect::<Vec<_>>()
                );
            }
        }
    }
}

#[test]
fn flyby_and_nimble_escape_leave_reach_without_opportunity_attacks() {
    // A goblin archer next to the fighter steps back and shoots: with
    // Nimble Escape's Disengage no opportunity attack comes (no d20 for it).
    let mut p = Positions::DEFAULT;
    p.ranged_in_melee = RangedInMelee::StepBack;
    let mut archer = monster("goblin-warrior");
    assert!(archer.avoids_opportunity_attacks);
    archer.attacks.retain(|a| a.reach == Reach::Ranged);
    archer.multiattack = vec![0];
    let rules = with(p);
    let mut t = Table::new(vec![fighter()], vec![archer.clone()], rules.clone());
    t.place();
    t.at(1, 5);
    // Its shot only: a 2 misses.
    t.turn(1, false, &[(2, 20)]);
    assert!(t.f(0).reaction, "the fighter's reaction is unspent");
    assert!(t.f(1).x > 5);
    // Without the trait the step back provokes (a 2 misses, then its shot).
    archer.avoids_opportunity_attacks = false;
    let mut t = Table::new(vec![fighter()], vec![archer], rules);
    t.place();
    t.at(1, 5);
    t.turn(1, false, &[(2, 20), (2, 20)]);
    assert!(!t.f(0).reaction);
}

#[test]
fn a_charge_adds_its_damage_and_knocks_prone_only_right_after_its_move() {
    // SRD 5.2 elk: "If the target is a Large or smaller creature and the
    // elk moved 20+ feet straight toward it immediately before the hit,
    // the target takes an extra 3 (1d6) Bludgeoning damage and has the
    // Prone condition." Ram +5, 1d6+3; speed 50.
    let elk = monster("elk");
    let c = elk.attacks[0].charge.expect("the elk's ram charges");
    assert_eq!((c.feet, c.size, c.prone), (20, Size::Large, true));
    let prone = |t: &Table| t.f(0).spells.conditions & bits::PRONE != 0;
    let fresh = |at: i32| {
        let mut t = Table::new(vec![template("fighter-5")], vec![elk.clone()], positions());
        t.place();
        t.at(1, at);
        t
    };
    // 30 ft away: it moves 25 ft toward the fighter, then hits: 2 + 3,
    // and the charge's 1d6 = 4; the fighter is prone.
    let mut t = fresh(30);
    let hp = t.f(0).hp;
    t.turn(1, false, &[(19, 20), (2, 6), (4, 6)]);
    assert_eq!((t.f(1).x, hp - t.f(0).hp, prone(&t)), (5, 9, true));
    assert!(!t.f(1).charging, "the charge is spent on that attack");
    // Next turn, already within reach: no move, no charge.
    t.f_mut(0).spells.conditions &= !bits::PRONE;
    t.turn(1, false, &[(19, 20), (2, 6)]);
    assert_eq!((hp - t.f(0).hp, prone(&t)), (9 + 5, false));
    // 20 ft away it moves only 15 ft: short of the charge's 20.
    let mut t = fresh(20);
    t.turn(1, false, &[(19, 20), (2, 6)]);
    assert_eq!((hp - t.f(0).hp, prone(&t)), (5, false));
    // A target larger than the charge's size takes neither.
    let mut t = fresh(30);
    let mut big = template("fighter-5");
    big.size = Size::Huge;
    t.enc.all[0] = big;
    t.turn(1, false, &[(19, 20), (2, 6)]);
    assert_eq!((hp - t.f(0).hp, prone(&t)), (5, false));
    // A miss spends the charge too; its next hit is a plain one.
    let mut t = fresh(30);
    t.turn(1, false, &[(1, 20)]);
    assert!(!t.f(1).charging);
    // Without positions nothing moves: no charge.
    let mut t = Table::new(
        vec![template("fighter-5")],
        vec![elk.clone()],
        EncounterRules {
            targeting: Targeting::FocusFire,
            ..Default::default()
        },
    );
    t.turn(1, false, &[(19, 20), (2, 6)]);
    assert_eq!((hp - t.f(0).hp, prone(&t)), (5, false));
}
