//! Clause tests of the round loop: one test per combat rule, with scripted
//! dice so each rule is checked on the exact roll that triggers it.

use std::collections::VecDeque;
use std::convert::Infallible;

use super::*;
use crate::combat::templates::template;
use crate::rules::permanent_wounds::WoundPolicy;

/// A generator that yields scripted die results: each entry is
/// `(value, sides)` for one `uniform_below`/`roll_die` call.
struct Script(VecDeque<u64>);

fn script(dice: &[(u64, u64)]) -> Script {
    Script(
        dice.iter()
            .map(|&(value, sides)| {
                // The middle of the interval that Lemire's method maps to `value - 1`.
                let width = (1u128 << 64) / u128::from(sides);
                (u128::from(value - 1) * (1u128 << 64) / u128::from(sides) + width / 2) as u64
            })
            .collect(),
    )
}

impl rand::TryRng for Script {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(self.try_next_u64()? as u32)
    }
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(self.0.pop_front().expect("the script ran out of dice"))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        dst.fill(0);
        Ok(())
    }
}

fn fighter() -> CreatureSpec {
    template("fighter-1").unwrap()
}

/// A monster of the shipped bestiary.
fn monster(name: &str) -> CreatureSpec {
    crate::fixtures::catalog()
        .bestiary
        .lookup(name)
        .unwrap()
        .clone()
}

fn goblin() -> CreatureSpec {
    monster("goblin")
}

/// An encounter and an arena with every creature up at full HP.
fn setup(
    party: Vec<CreatureSpec>,
    monsters: Vec<CreatureSpec>,
    rules: EncounterRules,
) -> (Encounter, Arena) {
    let enc = Encounter::new(party, monsters, rules);
    let mut arena = Arena::default();
    arena.fighters.extend_from_slice(&enc.initial);
    (enc, arena)
}

fn attack_of(spec: &CreatureSpec) -> Attack {
    spec.attacks[0].clone()
}

/// Creature 1 (the first monster, next to a one-PC party) makes its first
/// attack against creature 0 (the PC) on scripted dice.
fn monster_attacks(
    enc: &Encounter,
    arena: &mut Arena,
    dice: &[(u64, u64)],
    out: &mut TrialOutcome,
) {
    let attack = attack_of(&enc.all[1]);
    enc.attack(&mut script(dice), arena, 1, 0, &attack, out);
}

#[test]
fn a_natural_one_always_misses() {
    let mut g = goblin();
    g.attacks[0].to_hit = 100;
    let (enc, mut arena) = setup(vec![fighter()], vec![g.clone()], EncounterRules::default());
    let mut out = TrialOutcome::default();
    monster_attacks(&enc, &mut arena, &[(1, 20)], &mut out);
    assert_eq!(arena.fighters[0].hp, fighter().max_hp);
}

#[test]
fn a_natural_twenty_hits_any_ac_and_doubles_the_dice() {
    let mut f = fighter();
    f.ac = 100;
    let g = goblin();
    let (enc, mut arena) = setup(vec![f], vec![g.clone()], EncounterRules::default());
    let mut out = TrialOutcome::default();
    // Scimitar 1d6+2 doubled: two d6 (3 and 4) + 2 = 9.
    monster_attacks(&enc, &mut arena, &[(20, 20), (3, 6), (4, 6)], &mut out);
    assert_eq!(arena.fighters[0].hp, 12 - 9);
    assert_eq!(arena.fighters[0].crits_taken, 1);
}

#[test]
fn a_hit_needs_the_total_to_reach_ac() {
    let g = goblin(); // +4 to hit
    let (enc, mut arena) = setup(vec![fighter()], vec![g.clone()], EncounterRules::default()); // AC 18
    let mut out = TrialOutcome::default();
    monster_attacks(&enc, &mut arena, &[(13, 20)], &mut out);
    assert_eq!(arena.fighters[0].hp, 12, "13 + 4 = 17 misses AC 18");
    monster_attacks(&enc, &mut arena, &[(14, 20), (1, 6)], &mut out);
    assert_eq!(arena.fighters[0].hp, 12 - 3, "14 + 4 = 18 hits AC 18");
}

#[test]
fn the_critical_range_comes_from_the_creature_or_the_scenario() {
    let f = template("fighter-3").unwrap(); // Champion: 19-20
    let g = goblin();
    let (enc, mut arena) = setup(vec![f.clone()], vec![g.clone()], EncounterRules::default());
    let mut out = TrialOutcome::default();
    // 19 is a critical: longsword 1d8+5 doubled → 2 dice.
    enc.attack(
        &mut script(&[(19, 20), (1, 8), (1, 8)]),
        &mut arena,
        0,
        1,
        &attack_of(&f),
        &mut out,
    );
    assert_eq!(
        arena.fighters[1].state,
        State::Dead,
        "1 + 1 + 5 = 7 kills a 7-HP goblin"
    );
    let rules = EncounterRules {
        crit_range: Some(20),
        ..Default::default()
    };
    let (enc, mut arena) = setup(vec![f.clone()], vec![g], rules);
    let mut f_attack = attack_of(&f);
    f_attack.to_hit = -100; // 19 no longer crits, so it misses
    enc.attack(
        &mut script(&[(19, 20)]),
        &mut arena,
        0,
        1,
        &f_attack,
        &mut out,
    );
    assert_eq!(arena.fighters[1].hp, 7);
}

#[test]
fn monsters_die_at_zero_pcs_start_dying() {
    let f = fighter();
    let g = goblin();
    let (enc, mut arena) = setup(vec![f.clone()], vec![g.clone()], EncounterRules::default());
    let mut out = TrialOutcome::default();
    enc.deal_total(
        &mut script(&[]),
        &mut arena,
        1,
        Blow {
            amount: 7,
            types: DamageTypes::of([DamageType::Slashing]),
            crit: false,
        },
        &mut out,
    );
    assert_eq!(arena.fighters[1].state, State::Dead);
    enc.deal_total(
        &mut script(&[]),
        &mut arena,
        0,
        Blow {
            amount: 12,
            types: DamageTypes::of([DamageType::Slashing]),
            crit: false,
        },
        &mut out,
    );
    assert_eq!(
        (arena.fighters[0].state, arena.fighters[0].hp),
        (State::Dying, 0)
    );
    assert!(arena.fighters[0].went_down);
}

#[test]
fn massive_damage_kills_outright() {
    let (enc, mut arena) = setup(vec![fighter()], vec![goblin()], EncounterRules::default());
    let mut out = TrialOutcome::default();
    // 12 HP: 24 damage leaves an overflow of 12 = max HP.
    enc.deal_total(
        &mut script(&[]),
        &mut arena,
        0,
        Blow {
            amount: 24,
            types: DamageTypes::of([DamageType::Slashing]),
            crit: false,
        },
        &mut out,
    );
    assert_eq!(arena.fighters[0].state, State::Dead);
    let (enc, mut arena) = setup(vec![fighter()], vec![goblin()], EncounterRules::default());
    enc.deal_total(
        &mut script(&[]),
        &mut arena,
        0,
        Blow {
            amount: 23,
            types: DamageTypes::of([DamageType::Slashing]),
            crit: false,
        },
        &mut out,
    );
    assert_eq!(arena.fighters[0].state, State::Dying, "overflow 11 < 12");
    // At 0 HP, a single blow of at least max HP kills.
    enc.deal_total(
        &mut script(&[]),
        &mut arena,
        0,
        Blow {
            amount: 12,
            types: DamageTypes::of([DamageType::Slashing]),
            crit: false,
        },
        &mut out,
    );
    assert_eq!(arena.fighters[0].state, State::Dead);
    // Without the rule, the overflow does not kill.
    let rules = EncounterRules {
        massive_damage: false,
        ..Default::default()
    };
    let (enc, mut arena) = setup(vec![fighter()], vec![goblin()], rules);
    enc.deal_total(
        &mut script(&[]),
        &mut arena,
        0,
        Blow {
            amount: 100,
            types: DamageTypes::of([DamageType::Slashing]),
            crit: false,
        },
        &mut out,
    );
    assert_eq!(arena.fighters[0].state, State::Dying);
}

#[test]
fn damage_at_zero_is_one_failure_a_critical_two() {
    let (enc, mut arena) = setup(vec![fighter()], vec![goblin()], EncounterRules::default());
    let mut out = TrialOutcome::default();
    arena.fighters[0].hp = 0;
    arena.fighters[0].state = State::Dying;
    let slash = DamageTypes::of([DamageType::Slashing]);
    enc.deal_total(
        &mut script(&[]),
        &mut arena,
        0,
        Blow {
            amount: 3,
            types: slash,
            crit: false,
        },
        &mut out,
    );
    assert_eq!(arena.fighters[0].tally.failures, 1);
    enc.deal_total(
        &mut script(&[]),
        &mut arena,
        0,
        Blow {
            amount: 3,
            types: slash,
            crit: true,
        },
        &mut out,
    );
    assert_eq!(arena.fighters[0].state, State::Dead, "1 + 2 failures");
}

#[test]
fn the_last_failure_from_damage_can_become_a_permanent_wound() {
    let mut rules = EncounterRules::default();
    rules.death_saves.wound_policy = WoundPolicy::AcceptLeastSevere;
    let (enc, mut arena) = setup(vec![fighter()], vec![goblin()], rules);
    let mut out = TrialOutcome::default();
    arena.fighters[0].hp = 0;
    arena.fighters[0].state = State::Dying;
    arena.fighters[0].tally = Tally {
        successes: 1,
        failures: 2,
    };
    // The example of the wound is drawn with one d4.
    enc.deal_total(
        &mut script(&[(4, 4)]),
        &mut arena,
        0,
        Blow {
            amount: 3,
            types: DamageTypes::of([DamageType::Slashing]),
            crit: false,
        },
        &mut out,
    );
    assert_eq!(arena.fighters[0].state, State::Stable);
    assert!(
        arena.fighters[0].wounds.has(Severity::Moderate),
        "one success → moderate"
    );
    assert_eq!(out.wounds, [0, 1, 0]);
    // Internal wound (the 4th moderate example) costs 1 max HP per level later.
    assert_eq!(arena.fighters[0].lost_max_hp, 1);
}

#[test]
fn melee_attacks_on_the_unconscious_have_advantage_and_crit() {
    let g = goblin();
    let (enc, mut arena) = setup(vec![fighter()], vec![g.clone()], EncounterRules::default());
    let mut out = TrialOutcome::default();
    arena.fighters[0].hp = 0;
    arena.fighters[0].state = State::Dying;
    // Advantage: two d20s (2 and 15 → 15 + 4 = 19 hits AC 18); the hit is a crit:
    // two failures, and the dice are doubled (two d6).
    monster_attacks(
        &enc,
        &mut arena,
        &[(2, 20), (15, 20), (1, 6), (1, 6)],
        &mut out,
    );
    assert_eq!(arena.fighters[0].tally.failures, 2);
    // A ranged attack gets neither.
    let bow = g.attacks[1].clone();
    let (enc, mut arena) = setup(vec![fighter()], vec![g], EncounterRules::default());
    arena.fighters[0].hp = 0;
    arena.fighters[0].state = State::Dying;
    enc.attack(
        &mut script(&[(15, 20), (1, 6)]),
        &mut arena,
        1,
        0,
        &bow,
        &mut out,
    );
    assert_eq!(arena.fighters[0].tally.failures, 1);
}

#[test]
fn death_saves_at_the_start_of_a_turn_and_a_natural_twenty_acts() {
    let rules = EncounterRules {
        stabilize: Stabilize::Never,
        ..Default::default()
    };
    let (enc, mut arena) = setup(vec![fighter()], vec![goblin()], rules);
    let mut out = TrialOutcome::default();
    arena.fighters[0].hp = 0;
    arena.fighters[0].state = State::Dying;
    enc.take_turn(&mut script(&[(9, 20)]), &mut arena, 0, false, &mut out);
    assert_eq!(arena.fighters[0].tally.failures, 1, "a 9 fails");
    enc.take_turn(&mut script(&[(1, 20)]), &mut arena, 0, false, &mut out);
    assert_eq!(
        arena.fighters[0].state,
        State::Dead,
        "a natural 1 is two more failures"
    );
    let (enc, mut arena) = setup(vec![fighter()], vec![goblin()], EncounterRules::default());
    arena.fighters[0].hp = 0;
    arena.fighters[0].state = State::Dying;
    // Natural 20: back at 1 HP and attacks at once (random target d1, d20 = 2 misses).
    enc.take_turn(
        &mut script(&[(20, 20), (1, 1), (2, 20)]),
        &mut arena,
        0,
        false,
        &mut out,
    );
    assert_eq!(
        (arena.fighters[0].state, arena.fighters[0].hp),
        (State::Up, 1)
    );
}

#[test]
fn healing_at_zero_wakes_and_resets_the_tally() {
    let (enc, mut arena) = setup(vec![fighter()], vec![goblin()], EncounterRules::default());
    arena.fighters[0].hp = 0;
    arena.fighters[0].state = State::Dying;
    arena.fighters[0].tally = Tally {
        successes: 1,
        failures: 2,
    };
    enc.heal(&mut arena, 0, 4, false);
    assert_eq!(
        (arena.fighters[0].state, arena.fighters[0].hp),
        (State::Up, 4)
    );
    assert_eq!(arena.fighters[0].tally, Tally::default());
    enc.heal(&mut arena, 0, 100, false);
    assert_eq!(arena.fighters[0].hp, 12, "healing stops at the maximum");
}

#[test]
fn a_dying_ally_is_stabilised_with_a_dc_10_medicine_check() {
    let rules = EncounterRules {
        stabilize: Stabilize::AfterFight,
        ..Default::default()
    };
    let (enc, mut arena) = setup(vec![fighter(), fighter()], vec![goblin()], rules);
    arena.fighters[0].hp = 0;
    arena.fighters[0].state = State::Dying;
    arena.fighters[1].heal_uses = 0; // no Second Wind to spend
    // Fighter Medicine +1: a 9 + 1 = 10 succeeds.
    assert!(enc.support(&mut script(&[(9, 20)]), &mut arena, 1, true, true));
    assert_eq!(arena.fighters[0].state, State::Stable);
    arena.fighters[0].state = State::Dying;
    assert!(enc.support(&mut script(&[(8, 20)]), &mut arena, 1, true, true));
    assert_eq!(arena.fighters[0].state, State::Dying, "8 + 1 = 9 fails");
    // Mid-fight, `after_fight` does not spend the action.
    assert!(!enc.support(&mut script(&[]), &mut arena, 1, false, true));
}

#[test]
fn resistance_rage_and_immunity_change_damage() {
    let mut barbarian = template("barbarian-1").unwrap();
    barbarian.defenses.immunities = DamageTypes::of([DamageType::Poison]);
    let (enc, mut arena) = setup(vec![barbarian], vec![goblin()], EncounterRules::default());
    assert_eq!(enc.after_defenses(&arena, 0, DamageType::Slashing, 9), 9);
    arena.fighters[0].raging = true;
    assert_eq!(enc.after_defenses(&arena, 0, DamageType::Slashing, 9), 4);
    assert_eq!(enc.after_defenses(&arena, 0, DamageType::Fire, 9), 9);
    assert_eq!(enc.after_defenses(&arena, 0, DamageType::Poison, 9), 0);
}

#[test]
fn a_troll_regenerates_unless_burned() {
    let troll = monster("troll");
    let (enc, mut arena) = setup(vec![fighter()], vec![troll], EncounterRules::default());
    let mut out = TrialOutcome::default();
    let slash = DamageTypes::of([DamageType::Slashing]);
    enc.deal_total(
        &mut script(&[]),
        &mut arena,
        1,
        Blow {
            amount: 84,
            types: slash,
            crit: false,
        },
        &mut out,
    );
    assert_eq!(arena.fighters[1].state, State::Down, "0 HP, not yet dead");
    // Its turn: regenerates 10 and attacks (3 attacks: d1 target + d20 each, all 1s miss).
    let misses: Vec<(u64, u64)> = (0..3).flat_map(|_| [(1, 1), (1, 20)]).collect();
    enc.take_turn(&mut script(&misses), &mut arena, 1, false, &mut out);
    assert_eq!(
        (arena.fighters[1].state, arena.fighters[1].hp),
        (State::Up, 10)
    );
    let fire = DamageTypes::of([DamageType::Fire]);
    enc.deal_total(
        &mut script(&[]),
        &mut arena,
        1,
        Blow {
            amount: 10,
            types: fire,
            crit: false,
        },
        &mut out,
    );
    enc.take_turn(&mut script(&[]), &mut arena, 1, false, &mut out);
    assert_eq!(
        arena.fighters[1].state,
        State::Dead,
        "fire stops regeneration"
    );
}

#[test]
fn monsters_finish_the_downed_only_when_the_policy_says() {
    let rules = EncounterRules {
        attack_downed: AttackDowned::Always,
        ..Default::default()
    };
    let (enc, mut arena) = setup(vec![fighter(), fighter()], vec![goblin()], rules);
    arena.fighters[1].hp = 0;
    arena.fighters[1].state = State::Dying;
    assert_eq!(
        enc.choose_target(&mut script(&[]), &arena, 2, Reach::Melee),
        Some(1)
    );
    let (enc, mut arena) = setup(
        vec![fighter(), fighter()],
        vec![goblin()],
        EncounterRules::default(),
    );
    arena.fighters[1].hp = 0;
    arena.fighters[1].state = State::Dying;
    assert_eq!(
        enc.choose_target(&mut script(&[(1, 1)]), &arena, 2, Reach::Melee),
        Some(0)
    );
}

#[test]
fn targeting_policies_pick_as_named() {
    let rules = EncounterRules {
        targeting: Targeting::LowestHp,
        ..Default::default()
    };
    let (enc, mut arena) = setup(vec![fighter()], vec![goblin(), goblin(), goblin()], rules);
    arena.fighters[2].hp = 3;
    assert_eq!(
        enc.choose_target(&mut script(&[]), &arena, 0, Reach::Melee),
        Some(2)
    );
    let rules = EncounterRules {
        targeting: Targeting::FocusFire,
        ..Default::default()
    };
    let (enc, mut arena) = setup(vec![fighter()], vec![goblin(), goblin()], rules);
    arena.fighters[1].state = State::Dead;
    assert_eq!(
        enc.choose_target(&mut script(&[]), &arena, 0, Reach::Melee),
        Some(2)
    );
}

#[test]
fn initiative_ties_go_to_the_higher_modifier_then_the_pcs() {
    let mut slow = goblin();
    slow.initiative = 0;
    let mut f = fighter();
    f.initiative = 0;
    let (enc, mut arena) = setup(vec![f], vec![slow, goblin()], EncounterRules::default());
    for fighter in arena.fighters.iter_mut() {
        fighter.initiative = 12;
    }
    arena.order = vec![0, 1, 2];
    enc.initiative_order(&mut arena);
    assert_eq!(
        arena.order,
        vec![2, 0, 1],
        "the +2 goblin first, then the PC, then the +0 goblin"
    );
    arena.fighters[1].initiative = 13;
    enc.initiative_order(&mut arena);
    assert_eq!(
        arena.order,
        vec![1, 2, 0],
        "a higher total beats any modifier"
    );
}

/// The order `initiative_order` must produce: higher total first, then the
/// higher modifier, then PCs, then list order.
fn reference_order(enc: &Encounter, arena: &Arena) -> Vec<usize> {
    let mut order: Vec<usize> = (0..arena.fighters.len()).collect();
    let key = |i: usize| {
        let f = &arena.fighters[i];
        (f.initiative, enc.spec(f.spec).initiative, f.party)
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
        let (enc, mut arena) = setup(vec![fighter()], goblins, EncounterRules::default());
        for (i, f) in arena.fighters.iter_mut().enumerate() {
            f.initiative = 10 + (i * 7 % 5) as i32 + enc.all[i].initiative;
        }
        enc.initiative_order(&mut arena);
        assert_eq!(
            arena.order,
            reference_order(&enc, &arena),
            "{monsters} goblins"
        );
    }
}

#[test]
fn a_lost_arm_forces_a_one_handed_attack() {
    let orc = monster("orc"); // greataxe (two-handed), javelin (ranged)
    let enc = Encounter::new(vec![fighter()], vec![orc], EncounterRules::default());
    let fallback = &enc.one_handed[1][0];
    assert!(!fallback.two_handed);
    assert_eq!(
        fallback.damage.sides, 8,
        "no one-handed melee attack: the d12 becomes a d8"
    );
}

/// Rules with lingering injuries on every trigger (chance 1).
fn injury_rules() -> EncounterRules {
    let mut table = crate::fixtures::catalog().injury_table.clone();
    table.chance = crate::dice::Chance::ALWAYS;
    EncounterRules {
        injuries: Some(crate::combat::policy::CombatInjuries {
            table,
            trigger: crate::rules::lingering::Trigger::default(),
            miss_trigger: crate::rules::lingering::MissTrigger::Natural1,
            bad_weather: false,
        }),
        ..Default::default()
    }
}

/// The uniform draw of the injury chance (any value is below 1).
const CHANCE: (u64, u64) = (1, 2);

fn entry_of(enc: &Encounter, arena: &Arena, who: usize) -> Vec<String> {
    let table = &enc.rules.injuries.as_ref().unwrap().table;
    let f = &arena.fighters[who];
    f.injuries[..usize::from(f.n_injuries)]
        .iter()
        .map(|&i| table.entries[usize::from(i)].id.clone())
        .collect()
}

#[test]
fn a_critical_hit_taken_can_injure_the_target() {
    let g = goblin();
    let (enc, mut arena) = setup(vec![fighter()], vec![g.clone()], injury_rules());
    let mut out = TrialOutcome::default();
    // Natural 20, 2d6 damage (1, 1), then the injury: chance, d100 = 1 (lose an eye).
    monster_attacks(
        &enc,
        &mut arena,
        &[(20, 20), (1, 6), (1, 6), CHANCE, (1, 100)],
        &mut out,
    );
    assert_eq!(entry_of(&enc, &arena, 0), vec!["lose_an_eye"]);
    assert_eq!(out.injuries, 1);
    assert_ne!(
        arena.fighters[0].effects & effect::DIS_RANGED,
        0,
        "disadvantage on ranged attacks"
    );
    // Without the rule, nothing happens.
    let (enc, mut arena) = setup(vec![fighter()], vec![g.clone()], EncounterRules::default());
    monster_attacks(&enc, &mut arena, &[(20, 20), (1, 6), (1, 6)], &mut out);
    assert_eq!(arena.fighters[0].n_injuries, 0);
}

#[test]
fn a_natural_one_can_injure_the_attacker() {
    let g = goblin();
    let (enc, mut arena) = setup(vec![fighter()], vec![g.clone()], injury_rules());
    let mut out = TrialOutcome::default();
    monster_attacks(&enc, &mut arena, &[(1, 20), CHANCE, (3, 100)], &mut out);
    assert_eq!(entry_of(&enc, &arena, 1), vec!["lose_an_arm_or_hand"]);
    assert_ne!(arena.fighters[1].effects & effect::NO_TWO_HANDED, 0);
    assert_eq!(out.injuries, 0, "PC injuries only are counted");
}

#[test]
fn an_ordinary_miss_injures_the_attacker_only_under_the_any_miss_reading() {
    let g = goblin(); // +4 to hit against the fighter's AC 16: a 5 misses
    let mut rules = injury_rules();
    let (enc, mut arena) = setup(vec![fighter()], vec![g.clone()], rules.clone());
    let mut out = TrialOutcome::default();
    monster_attacks(&enc, &mut arena, &[(5, 20)], &mut out);
    assert_eq!(
        arena.fighters[1].n_injuries, 0,
        "natural_1: a plain miss is safe"
    );
    if let Some(i) = rules.injuries.as_mut() {
        i.miss_trigger = crate::rules::lingering::MissTrigger::AnyMiss;
    }
    let (enc, mut arena) = setup(vec![fighter()], vec![g.clone()], rules);
    monster_attacks(&enc, &mut arena, &[(5, 20), CHANCE, (3, 100)], &mut out);
    assert_eq!(entry_of(&enc, &arena, 1), vec!["lose_an_arm_or_hand"]);
}

#[test]
fn both_eyes_lost_blind_and_a_second_punctured_lung_drops_to_zero() {
    let (enc, mut arena) = setup(vec![fighter()], vec![goblin()], injury_rules());
    let mut out = TrialOutcome::default();
    let rules = enc.rules.injuries.clone().unwrap();
    for d100 in [1, 2] {
        enc.maybe_injure(
            &mut script(&[CHANCE, (d100, 100)]),
            &mut arena,
            0,
            &rules,
            &mut out,
        );
    }
    assert_ne!(arena.fighters[0].effects & effect::BLINDED, 0);
    for _ in 0..2 {
        enc.maybe_injure(
            &mut script(&[CHANCE, (71, 100)]),
            &mut arena,
            0,
            &rules,
            &mut out,
        );
    }
    assert_eq!(
        (arena.fighters[0].state, arena.fighters[0].hp),
        (State::Dying, 0)
    );
}

#[test]
fn a_skull_fracture_costs_the_action_on_a_failed_dc_20_save() {
    let (enc, mut arena) = setup(vec![fighter()], vec![goblin()], injury_rules());
    let mut out = TrialOutcome::default();
    let rules = enc.rules.injuries.clone().unwrap();
    enc.maybe_injure(
        &mut script(&[CHANCE, (66, 100)]),
        &mut arena,
        0,
        &rules,
        &mut out,
    );
    // Fighter Con save +4 at level 1: 15 + 4 = 19 < 20 loses the action, 16 + 4 keeps it.
    assert!(enc.loses_action(&mut script(&[(15, 20)]), &arena, 0));
    assert!(!enc.loses_action(&mut script(&[(16, 20)]), &arena, 0));
}

#[test]
fn magical_healing_cures_a_broken_arm_but_not_a_lost_eye() {
    let (enc, mut arena) = setup(vec![fighter()], vec![goblin()], injury_rules());
    let mut out = TrialOutcome::default();
    let rules = enc.rules.injuries.clone().unwrap();
    enc.maybe_injure(
        &mut script(&[CHANCE, (16, 100)]),
        &mut arena,
        0,
        &rules,
        &mut out,
    );
    enc.maybe_injure(
        &mut script(&[CHANCE, (1, 100)]),
        &mut arena,
        0,
        &rules,
        &mut out,
    );
    assert_ne!(arena.fighters[0].effects & effect::NO_TWO_HANDED, 0);
    enc.heal(&mut arena, 0, 1, false);
    assert_eq!(
        arena.fighters[0].n_injuries, 2,
        "Second Wind is not magical healing"
    );
    enc.heal(&mut arena, 0, 1, true);
    assert_eq!(entry_of(&enc, &arena, 0), vec!["lose_an_eye"]);
    assert_eq!(arena.fighters[0].effects & effect::NO_TWO_HANDED, 0);
}

#[test]
fn knocked_out_teeth_fail_a_spell_on_a_one_and_a_broken_weapon_is_improvised() {
    let (enc, mut arena) = setup(vec![fighter()], vec![goblin()], injury_rules());
    let mut out = TrialOutcome::default();
    let rules = enc.rules.injuries.clone().unwrap();
    enc.maybe_injure(
        &mut script(&[CHANCE, (51, 100)]),
        &mut arena,
        0,
        &rules,
        &mut out,
    );
    assert!(enc.spell_fails(&mut script(&[(1, 20)]), &arena, 0));
    assert!(!enc.spell_fails(&mut script(&[(2, 20)]), &arena, 0));
    // Broken item, d10 = 1: a weapon; d10 = 2: armour (AC - 2).
    enc.maybe_injure(
        &mut script(&[CHANCE, (46, 100), (1, 10)]),
        &mut arena,
        0,
        &rules,
        &mut out,
    );
    assert_ne!(arena.fighters[0].effects & effect::WEAPON_BROKEN, 0);
    enc.maybe_injure(
        &mut script(&[CHANCE, (46, 100), (2, 10)]),
        &mut arena,
        0,
        &rules,
        &mut out,
    );
    assert_ne!(arena.fighters[0].effects & effect::ARMOR_BROKEN, 0);
    // A goblin's 13 + 4 = 17 now hits the fighter's AC 18 - 2.
    monster_attacks(&enc, &mut arena, &[(13, 20), (2, 6)], &mut out);
    assert_eq!(arena.fighters[0].hp, 12 - 4);
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
    let g = goblin();
    let (enc, mut arena) = setup(vec![f], vec![g.clone()], no_crits());
    let mut out = TrialOutcome::default();
    // Scimitar 1d6+2, one die only: 4 + 2 = 6 (the script would run out
    // of dice if a second d6 were rolled).
    monster_attacks(&enc, &mut arena, &[(20, 20), (4, 6)], &mut out);
    assert_eq!(arena.fighters[0].hp, 12 - 6);
    assert_eq!(arena.fighters[0].crits_taken, 0, "not a critical hit");
    // A Champion's 19 also still hits (its critical range) without doubling.
    let champion = template("fighter-3").unwrap();
    let mut g = goblin();
    g.ac = 100;
    let (enc, mut arena) = setup(vec![champion.clone()], vec![g], no_crits());
    enc.attack(
        &mut script(&[(19, 20), (1, 8)]),
        &mut arena,
        0,
        1,
        &attack_of(&champion),
        &mut out,
    );
    assert_eq!(arena.fighters[1].hp, 7 - (1 + 5));
}

#[test]
fn without_critical_hits_a_natural_twenty_does_not_trigger_a_lingering_injury() {
    let g = goblin();
    let rules = EncounterRules {
        critical_hits: false,
        ..injury_rules()
    };
    let (enc, mut arena) = setup(vec![fighter()], vec![g.clone()], rules);
    let mut out = TrialOutcome::default();
    // Natural 20 and one d6: no injury chance is drawn.
    monster_attacks(&enc, &mut arena, &[(20, 20), (1, 6)], &mut out);
    assert_eq!((arena.fighters[0].n_injuries, out.injuries), (0, 0));
    // A natural 1 is not a critical hit: it still may injure the attacker.
    monster_attacks(&enc, &mut arena, &[(1, 20), CHANCE, (3, 100)], &mut out);
    assert_eq!(entry_of(&enc, &arena, 1), vec!["lose_an_arm_or_hand"]);
}

#[test]
fn without_critical_hits_a_natural_twenty_at_zero_is_one_failure() {
    let g = goblin();
    let rules = EncounterRules {
        critical_hits: false,
        ..Default::default()
    };
    let (enc, mut arena) = setup(vec![fighter()], vec![g.clone()], rules);
    let mut out = TrialOutcome::default();
    arena.fighters[0].hp = 0;
    arena.fighters[0].state = State::Dying;
    // A ranged natural 20 (no advantage at range): one failure, not two.
    enc.attack(
        &mut script(&[(20, 20), (1, 6)]),
        &mut arena,
        1,
        0,
        &g.attacks[1],
        &mut out,
    );
    assert_eq!(arena.fighters[0].tally.failures, 1);
    assert_eq!(arena.fighters[0].crits_taken, 0);
}

#[test]
fn without_critical_hits_a_melee_hit_on_the_unconscious_is_ordinary() {
    let g = goblin();
    let (enc, mut arena) = setup(vec![fighter()], vec![g.clone()], no_crits());
    let mut out = TrialOutcome::default();
    arena.fighters[0].hp = 0;
    arena.fighters[0].state = State::Dying;
    // Advantage stays (two d20s: 2 and 15 → 15 + 4 = 19 hits AC 18), but the
    // hit is ordinary: one d6 and one failure.
    monster_attacks(&enc, &mut arena, &[(2, 20), (15, 20), (1, 6)], &mut out);
    assert_eq!(arena.fighters[0].tally.failures, 1);
    assert_eq!(arena.fighters[0].crits_taken, 0);
}

#[test]
fn a_party_member_that_is_not_a_pc_dies_at_zero() {
    let mut hireling = fighter();
    hireling.is_pc = false;
    let (enc, mut arena) = setup(
        vec![fighter(), hireling],
        vec![goblin()],
        EncounterRules::default(),
    );
    let mut out = TrialOutcome::default();
    let blow = Blow {
        amount: 12,
        types: DamageTypes::of([DamageType::Slashing]),
        crit: false,
    };
    enc.deal_total(&mut script(&[]), &mut arena, 0, blow, &mut out);
    enc.deal_total(&mut script(&[]), &mut arena, 1, blow, &mut out);
    assert_eq!(
        arena.fighters[0].state,
        State::Dying,
        "a PC makes death saves"
    );
    assert_eq!(arena.fighters[1].state, State::Dead, "a hireling dies");
    assert!(arena.fighters[1].went_down);
}

/// An ordinary blow of 3 slashing damage.
fn ordinary_blow() -> Blow {
    Blow {
        amount: 3,
        types: DamageTypes::of([DamageType::Slashing]),
        crit: false,
    }
}

/// Puts creature `who` at 0 HP, dying, with this tally.
fn dying_with(arena: &mut Arena, who: usize, successes: u8, failures: u8) {
    arena.fighters[who].hp = 0;
    arena.fighters[who].state = State::Dying;
    arena.fighters[who].tally = Tally {
        successes,
        failures,
    };
}

#[test]
fn three_successes_stabilise_and_reset_both_tallies() {
    let rules = EncounterRules {
        stabilize: Stabilize::Never,
        ..Default::default()
    };
    let (enc, mut arena) = setup(vec![fighter()], vec![goblin()], rules);
    let mut out = TrialOutcome::default();
    dying_with(&mut arena, 0, 2, 2);
    enc.take_turn(&mut script(&[(15, 20)]), &mut arena, 0, false, &mut out);
    assert_eq!(arena.fighters[0].state, State::Stable);
    assert_eq!(arena.fighters[0].tally, Tally::default());
    // Damage starts a fresh tally: one failure, not a third.
    enc.deal_total(&mut script(&[]), &mut arena, 0, ordinary_blow(), &mut out);
    assert_eq!(arena.fighters[0].state, State::Dying);
    assert_eq!(
        arena.fighters[0].tally,
        Tally {
            successes: 0,
            failures: 1
        }
    );
}

#[test]
fn a_medicine_check_stabilises_and_resets_both_tallies() {
    let rules = EncounterRules {
        stabilize: Stabilize::Always,
        ..Default::default()
    };
    let (enc, mut arena) = setup(vec![fighter(), fighter()], vec![goblin()], rules);
    let mut out = TrialOutcome::default();
    dying_with(&mut arena, 0, 2, 2);
    arena.fighters[1].heal_uses = 0;
    assert!(enc.support(&mut script(&[(15, 20)]), &mut arena, 1, false, true));
    assert_eq!(arena.fighters[0].state, State::Stable);
    assert_eq!(arena.fighters[0].tally, Tally::default());
    enc.deal_total(&mut script(&[]), &mut arena, 0, ordinary_blow(), &mut out);
    assert_eq!(
        arena.fighters[0].state,
        State::Dying,
        "one failure, not dead"
    );
    assert_eq!(arena.fighters[0].tally.failures, 1);
    // Stale successes would have stabilised it again after one more success.
    enc.take_turn(&mut script(&[(15, 20)]), &mut arena, 0, false, &mut out);
    assert_eq!(arena.fighters[0].state, State::Dying);
    assert_eq!(arena.fighters[0].tally.successes, 1);
}

#[test]
fn a_permanent_wound_stabilises_and_resets_both_tallies() {
    let mut rules = EncounterRules::default();
    rules.death_saves.wound_policy = WoundPolicy::AcceptLeastSevere;
    let (enc, mut arena) = setup(vec![fighter()], vec![goblin()], rules);
    let mut out = TrialOutcome::default();
    dying_with(&mut arena, 0, 2, 2);
    // The third failure becomes a minor wound (example drawn with a d4).
    enc.deal_total(
        &mut script(&[(1, 4)]),
        &mut arena,
        0,
        ordinary_blow(),
        &mut out,
    );
    assert_eq!(arena.fighters[0].state, State::Stable);
    assert_eq!(arena.fighters[0].tally, Tally::default());
    assert_eq!(out.wounds, [1, 0, 0]);
    // The next blow is the first failure of a new tally, not a second wound.
    enc.deal_total(&mut script(&[]), &mut arena, 0, ordinary_blow(), &mut out);
    assert_eq!(arena.fighters[0].state, State::Dying);
    assert_eq!(arena.fighters[0].tally.failures, 1);
    assert_eq!(out.wounds, [1, 0, 0]);
}

/// A lone fighter without Second Wind, dying at the start of a fight
/// against a goblin that always hits, under `when_party_falls`.
fn downed_duel(when: WhenPartyFalls) -> (Encounter, Arena) {
    let mut pc = fighter();
    pc.heal = None;
    let mut g = goblin();
    g.attacks[0].to_hit = 30;
    let rules = EncounterRules {
        when_party_falls: when,
        ..Default::default()
    };
    let (enc, mut arena) = setup(vec![pc], vec![g], rules);
    dying_with(&mut arena, 0, 0, 0);
    (enc, arena)
}

#[test]
fn by_default_the_monsters_leave_once_no_pc_stands() {
    let (enc, mut arena) = downed_duel(WhenPartyFalls::MonstersLeave);
    let mut out = TrialOutcome::default();
    // Initiative 20 + 1 against 1 + 2; then three successful saves. The
    // goblin, with no one standing to attack, never swings (no dice).
    let dice = [(20, 20), (1, 20), (15, 20), (15, 20), (15, 20)];
    let (won, rounds, timed_out) = enc.fight(&mut script(&dice), &mut arena, &mut out);
    assert_eq!((won, rounds, timed_out), (false, 1, false));
    assert_eq!(arena.fighters[0].state, State::Stable);
}

#[test]
fn monsters_that_stay_finish_the_downed() {
    let (enc, mut arena) = downed_duel(WhenPartyFalls::FinishTheDowned);
    let mut out = TrialOutcome::default();
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
    let (won, rounds, timed_out) = enc.fight(&mut script(&dice), &mut arena, &mut out);
    assert_eq!(arena.fighters[0].state, State::Dead);
    assert_eq!((won, rounds, timed_out), (false, 2, false));
}

#[test]
fn a_pc_back_on_its_feet_rejoins_a_fight_that_still_has_enemies() {
    // Monsters that leave: a natural 20 in round 2 gets the PC up, but the
    // fight was over at the end of round 1 and nobody swings again.
    let (enc, mut arena) = downed_duel(WhenPartyFalls::MonstersLeave);
    let mut out = TrialOutcome::default();
    let dice = [(20, 20), (1, 20), (15, 20), (20, 20)];
    let (won, rounds, _) = enc.fight(&mut script(&dice), &mut arena, &mut out);
    assert_eq!((won, rounds), (false, 1));
    assert_eq!(
        (arena.fighters[0].state, arena.fighters[0].hp),
        (State::Up, 1)
    );
    // Monsters that stay: the goblin misses in round 1 (two natural 1s);
    // the PC's natural 20 in round 2 gets it up, and it kills the goblin
    // with a critical longsword hit (2d8 + 5).
    let (enc, mut arena) = downed_duel(WhenPartyFalls::FinishTheDowned);
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
    let (won, rounds, timed_out) = enc.fight(&mut script(&dice), &mut arena, &mut out);
    assert_eq!((won, rounds, timed_out), (true, 2, false));
    assert_eq!(arena.fighters[1].state, State::Dead);
}
