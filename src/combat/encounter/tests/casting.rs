//! Attack, control and buff spells (`encounter/casting.rs`): each clause
//! on scripted dice (a paralyzed creature is critically hit from within 5
//! feet and fails Dexterity saves, repeat saves, concentration saves,
//! *bless*'s die, *shield*, a zone's damage, banishment), and reduced
//! cases with closed forms against Monte Carlo at 4.5σ (an area spell's
//! damage on several targets with saves, the automatic critical on a
//! paralyzed target, a concentration chain, *bless* on a hit chance).

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::{Table, fighter, goblin, monster, slashing, template, with_dice};
use crate::combat::creature::{Ability, CreatureSpec};
use crate::combat::encounter::fighter::State;
use crate::combat::encounter::spell_state::Affliction;
use crate::combat::policy::{EncounterRules, SpellPolicy};
use crate::combat::spell::{Condition, bits, save_chance};
use crate::dice::DiceExpr;

/// The index of spell `name` among `spec`'s known spells.
fn known(spec: &CreatureSpec, name: &str) -> usize {
    spec.known_spells
        .iter()
        .position(|k| k.spell.name == name)
        .unwrap_or_else(|| panic!("{} does not know {name}", spec.name))
}

/// `me` casts its known spell `name` with `slot` on the dice.
fn cast(t: &mut Table, me: usize, name: &str, slot: u8, dice: &[(u64, u64)]) {
    let k = known(&t.enc.all[me], name);
    let Table { enc, arena, out } = t;
    with_dice(dice, |rng| enc.cast_known(rng, arena, me, k, slot, out));
}

/// 4.5 standard errors of a mean of `n` draws with variance `var`.
fn tolerance(var: f64, n: f64) -> f64 {
    4.5 * (var / n).sqrt()
}

#[test]
fn hold_person_paralyzes_on_a_failed_save_and_the_caster_concentrates() {
    // Cleric-5: DC 8 + 3 + 4 = 15; the goblin saves with Wis -1.
    let mut t = Table::new(
        vec![template("cleric-5")],
        vec![goblin()],
        EncounterRules::default(),
    );
    // The target (one conscious enemy), then its save: 5 - 1 = 4 < 15.
    cast(&mut t, 0, "hold_person", 2, &[(1, 1), (5, 20)]);
    assert_eq!(t.f(0).slots[1], 2, "a 2nd-level slot spent");
    assert_eq!(t.enc.slot_levels_spent(t.f(0)), 2, "2 slot levels spent");
    let paralyzed = Condition::Paralyzed.bits();
    assert_eq!(t.f(1).spells.conditions, paralyzed);
    assert_eq!(
        t.f(0).spells.concentrating,
        known(&t.enc.all[0], "hold_person") as u8 + 1
    );
    // A success (18 - 1 = 17) leaves a second goblin free.
    let mut t = Table::new(
        vec![template("cleric-5")],
        vec![goblin()],
        EncounterRules::default(),
    );
    cast(&mut t, 0, "hold_person", 2, &[(1, 1), (18, 20)]);
    assert_eq!(t.f(1).spells.conditions, 0);
}

#[test]
fn a_paralyzed_creature_is_critically_hit_from_within_5_feet_and_fails_dex_saves() {
    let mut t = Table::new(vec![fighter()], vec![goblin()], EncounterRules::default());
    t.f_mut(1).spells.afflict(Affliction {
        bits: Condition::Paralyzed.bits(),
        source: 0,
        ..Affliction::NONE
    });
    // Advantage (10 and 3: keep 10), 10 + 5 = 15 hits AC 15, and the hit
    // is critical: 2d8 + 3 + 2 = 4 + 4 + 5 = 13.
    t.attack(0, 1, &[(10, 20), (3, 20), (4, 8), (4, 8)]);
    assert_eq!(t.state(1).0, State::Dead);
    let mut t = Table::new(vec![fighter()], vec![goblin()], EncounterRules::default());
    t.f_mut(1).spells.afflict(Affliction {
        bits: Condition::Paralyzed.bits(),
        ..Affliction::NONE
    });
    let Table { enc, arena, .. } = &mut t;
    let failed = with_dice(&[], |rng| !enc.saving_throw(rng, arena, 1, Ability::Dex, 1));
    assert!(failed, "no die: the save fails outright");
}

#[test]
fn a_repeat_save_at_the_end_of_the_turn_ends_the_condition() {
    let mut t = Table::new(
        vec![template("cleric-5")],
        vec![goblin()],
        EncounterRules::default(),
    );
    cast(&mut t, 0, "hold_person", 2, &[(1, 1), (5, 20)]);
    let Table { enc, arena, out } = &mut t;
    // 15 - 1 = 14: still held; 16 - 1 = 15: free.
    with_dice(&[(15, 20)], |rng| {
        enc.spells_at_turn_end(rng, arena, 1, out)
    });
    assert_ne!(arena.fighters[1].spells.conditions, 0);
    with_dice(&[(16, 20)], |rng| {
        enc.spells_at_turn_end(rng, arena, 1, out)
    });
    assert_eq!(arena.fighters[1].spells.conditions, 0);
}

#[test]
fn a_failed_concentration_save_ends_the_spell_on_its_target() {
    let mut t = Table::new(
        vec![template("cleric-5")],
        vec![goblin()],
        EncounterRules::default(),
    );
    cast(&mut t, 0, "hold_person", 2, &[(1, 1), (5, 20)]);
    // 8 damage: DC 10; the cleric's Con save is +2: 8 + 2 = 10 holds.
    t.deal(0, slashing(8, false), &[(8, 20)]);
    assert_ne!(t.f(1).spells.conditions, 0);
    // 28 damage (the cleric has 30 HP left): DC 14; 11 + 2 = 13 fails:
    // the goblin is free.
    t.deal(0, slashing(28, false), &[(11, 20)]);
    assert_eq!(t.f(0).spells.concentrating, 0);
    assert_eq!(t.f(1).spells.conditions, 0);
}

#[test]
fn dropping_to_0_hp_ends_concentration() {
    let mut t = Table::new(
        vec![template("cleric-5")],
        vec![goblin()],
        EncounterRules::default(),
    );
    cast(&mut t, 0, "hold_person", 2, &[(1, 1), (5, 20)]);
    let hp = t.f(0).hp;
    t.deal(0, slashing(hp, false), &[]);
    assert_eq!(t.f(0).state, State::Dying);
    assert_eq!(t.f(1).spells.conditions, 0);
}

#[test]
fn bless_adds_a_d4_to_attack_rolls() {
    let mut t = Table::new(
        vec![fighter(), template("cleric-5")],
        vec![monster("hobgoblin-warrior")],
        EncounterRules::default(),
    );
    cast(&mut t, 1, "bless", 1, &[]);
    assert!(t.f(0).spells.buffed && t.f(1).spells.buffed);
    // 8 + 5 = 13 misses AC 18; with the d4's 4: 17, still a miss...
    t.attack(0, 2, &[(8, 20), (4, 4)]);
    assert_eq!(t.f(2).hp, t.f(2).max_hp);
    // ... 9 + 5 + 4 = 18 hits: 1d8 + 3 + 2 = 1 + 5.
    t.attack(0, 2, &[(9, 20), (4, 4), (1, 8)]);
    assert_eq!(t.f(2).max_hp - t.f(2).hp, 6);
}

#[test]
fn shield_turns_a_hit_into_a_miss_and_stays_up_until_the_casters_turn() {
    let mut t = Table::new(
        vec![template("wizard-5")],
        vec![goblin()],
        EncounterRules::default(),
    );
    let (hp, slots) = (t.f(0).hp, t.f(0).slots[0]);
    // 12 + 4 = 16 hits AC 15 but not 20: shield, a 1st-level slot.
    t.attack(1, 0, &[(12, 20)]);
    assert_eq!((t.f(0).hp, t.f(0).slots[0]), (hp, slots - 1));
    assert!(t.f(0).spells.shield_up && !t.f(0).reaction);
    // 17 + 4 = 21 hits AC 20: 1d6 + 2 = 3 + 2.
    t.attack(1, 0, &[(17, 20), (3, 6)]);
    assert_eq!(t.f(0).hp, hp - 5);
    // A hit the shield cannot stop is taken without it (the reaction kept).
    let mut t = Table::new(
        vec![template("wizard-5")],
        vec![goblin()],
        EncounterRules::default(),
    );
    t.attack(1, 0, &[(19, 20), (1, 6)]);
    assert!(t.f(0).reaction && !t.f(0).spells.shield_up);
    assert_eq!(t.f(0).slots[0], slots);
}

#[test]
fn spirit_guardians_strike_an_enemy_that_ends_its_turn_in_them() {
    // Cleric-5: DC 15; the ogre saves with Wis -2.
    let mut t = Table::new(
        vec![template("cleric-5")],
        vec![monster("ogre")],
        EncounterRules::default(),
    );
    // The area's one enemy, 3d8 = 2 + 3 + 4 = 9, a failed save (5 - 2).
    cast(
        &mut t,
        0,
        "spirit_guardians",
        3,
        &[(1, 1), (2, 8), (3, 8), (4, 8), (5, 20)],
    );
    let hp = t.f(1).hp;
    assert_eq!(t.f(1).max_hp - hp, 9);
    assert_eq!(t.f(1).spells.zone.source, 0);
    // Its turn starts in the zone: nothing (SRD 5.2: "enters the
    // Emanation or ends its turn there").
    let Table { enc, arena, out } = &mut t;
    with_dice(&[], |rng| enc.spells_at_turn_start(rng, arena, 1, out));
    assert_eq!(arena.fighters[1].hp, hp);
    // It ends its turn there: 3d8 = 8 + 8 + 8, a success (19 - 2): 12.
    with_dice(&[(8, 8), (8, 8), (8, 8), (19, 20)], |rng| {
        enc.spells_at_turn_end(rng, arena, 1, out)
    });
    assert_eq!(arena.fighters[1].hp, hp - 12);
}

#[test]
fn a_banished_creature_cannot_be_targeted_and_leaves_the_fight_while_away() {
    let mut t = Table::new(vec![fighter()], vec![goblin()], EncounterRules::default());
    t.f_mut(1).spells.afflict(Affliction {
        bits: Condition::Banished.bits(),
        ..Affliction::NONE
    });
    assert_eq!(
        t.target(0, crate::combat::creature::Reach::Melee, &[]),
        None
    );
    let tally = super::super::round::tally_for_tests(&t.arena.fighters);
    assert_eq!(tally, (true, 0), "the party stands; no monster is up");
}

#[test]
fn banishment_held_its_minute_brings_a_native_back_and_keeps_a_fiend_away() {
    // Cleric-9: DC 8 + 4 + 5 = 17; the goblin saves with Cha -1: 5 - 1 = 4.
    let mut t = Table::new(
        vec![template("cleric-9")],
        vec![goblin()],
        EncounterRules::default(),
    );
    cast(&mut t, 0, "banishment", 4, &[(1, 1), (5, 20)]);
    assert_ne!(t.f(1).spells.conditions & bits::BANISHED, 0);
    assert!(t.f(0).spells.concentrating != 0);
    // Alone and away, it comes back when the spell ends.
    let Table { enc, arena, .. } = &mut t;
    assert!(enc.banishment_runs_its_course(arena), "the goblin returns");
    assert_eq!(arena.fighters[1].spells.conditions, 0);
    assert_eq!(arena.fighters[1].state, State::Up);
    assert_eq!(arena.fighters[0].spells.concentrating, 0, "the spell ended");
    let tally = super::super::round::tally_for_tests(&arena.fighters);
    assert_eq!(tally, (true, 1), "the goblin fights on");
    // A fiend (the hell hound, Cha -2) stays in its home plane: fled.
    let mut t = Table::new(
        vec![template("cleric-9")],
        vec![monster("hell-hound")],
        EncounterRules::default(),
    );
    assert!(t.enc.all[1].extraplanar && !t.enc.all[0].extraplanar);
    cast(&mut t, 0, "banishment", 4, &[(1, 1), (5, 20)]);
    let Table { enc, arena, .. } = &mut t;
    assert!(!enc.banishment_runs_its_course(arena), "nothing returns");
    assert_eq!(arena.fighters[1].state, State::Fled);
}

#[test]
fn a_monster_casts_its_daily_spells_without_slots_until_they_run_out() {
    // The SRD 5.2 mage: Fireball (level 4 version) 2/day, Cone of Cold
    // 1/day, no spell slots.
    let party = vec![template("fighter-5"); 4];
    let mut t = Table::new(party, vec![monster("mage")], EncounterRules::default());
    let mage = 4;
    let fireball = known(&t.enc.all[mage], "fireball");
    let innate = t.enc.all[mage].known_spells[fireball].innate.unwrap();
    assert_eq!((innate.level, innate.per_day), (4, 2));
    let counter = usize::from(innate.counter);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    for left in [1, 0] {
        let Table { enc, arena, out } = &mut t;
        enc.cast_known(&mut rng, arena, mage, fireball, 4, out);
        assert_eq!(arena.fighters[mage].daily_spells[counter], left);
        assert_eq!(arena.fighters[mage].slots, [0; 9], "no slot spent");
    }
    // Out of fireballs, the policy never casts another: its count stays 0
    // and the cone of cold is cast at most once.
    let cone = known(&t.enc.all[mage], "cone_of_cold");
    let cone_counter = usize::from(t.enc.all[mage].known_spells[cone].innate.unwrap().counter);
    for _ in 0..20 {
        let Table { enc, arena, out } = &mut t;
        for f in arena.fighters.iter_mut().filter(|f| f.party) {
            f.hp = f.max_hp;
            f.state = State::Up;
        }
        enc.cast_spells(&mut rng, arena, mage, true, true, out);
        assert_eq!(arena.fighters[mage].daily_spells[counter], 0);
    }
    assert_eq!(
        t.f(mage).daily_spells[cone_counter],
        0,
        "cone of cold cast once"
    );
    // A long rest (a PC's; monsters are anew between fights) restores them.
    let daily = super::super::fighter::daily_spells(&t.enc.all[mage]);
    assert_eq!((daily[counter], daily[cone_counter]), (2, 1));
}

#[test]
fn a_spell_replaces_one_attack_of_the_multiattack_when_worth_more() {
    // The adult red dragon: Rend x3 (+14, 1d10+8 plus 2d4 fire), or
    // Scorching Ray (3 rays of 2d6 at +12) in place of one Rend.
    let party = vec![template("wizard-5"); 4];
    let mut t = Table::new(
        party,
        vec![monster("adult-red-dragon")],
        EncounterRules::default(),
    );
    let dragon = 4;
    assert!(t.f(dragon).spell_for_attack);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
    let Table { enc, arena, out } = &mut t;
    assert!(enc.spell_for_an_attack(&mut rng, arena, dragon, out));
    assert!(arena.fighters[dragon].attack_replaced);
    // The Multiattack then makes two attacks, and the mark is spent.
    enc.multiattack::<false, _>(&mut rng, arena, dragon, out);
    assert!(!arena.fighters[dragon].attack_replaced);
    // Without any spell of its own that may replace an attack: never.
    let mut t = Table::new(
        vec![template("wizard-5")],
        vec![monster("mage")],
        EncounterRules::default(),
    );
    assert!(!t.f(1).spell_for_attack);
    let Table { enc, arena, out } = &mut t;
    assert!(!enc.spell_for_an_attack(&mut rng, arena, 1, out));
}

#[test]
fn the_policy_casts_fireball_at_six_hobgoblins_and_fire_bolt_at_one_goblin() {
    let six = vec![monster("hobgoblin-warrior"); 6];
    let mut t = Table::new(vec![template("wizard-9")], six, EncounterRules::default());
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let Table { enc, arena, out } = &mut t;
    let turn = enc.cast_spells(&mut rng, arena, 0, true, true, out);
    assert!(turn.action);
    assert_eq!(arena.fighters[0].slots[2], 2, "a 3rd-level slot: fireball");
    let mut t = Table::new(
        vec![template("wizard-9")],
        vec![goblin()],
        EncounterRules::default(),
    );
    let Table { enc, arena, out } = &mut t;
    let turn = enc.cast_spells(&mut rng, arena, 0, true, true, out);
    assert!(!turn.action, "a goblin is worth a cantrip, not a slot");
    assert_eq!(arena.fighters[0].slots, enc.all[0].spell_slots());
    // `never`: no spell at all.
    let rules = EncounterRules {
        spending: crate::combat::policy::Spending {
            spell_policy: SpellPolicy::Never,
            ..crate::combat::policy::Spending::DEFAULT
        },
        ..EncounterRules::default()
    };
    let mut t = Table::new(
        vec![template("wizard-9")],
        vec![monster("hobgoblin-warrior"); 6],
        rules,
    );
    let Table { enc, arena, out } = &mut t;
    assert!(!enc.cast_spells(&mut rng, arena, 0, true, true, out).action);
}

#[test]
fn the_casting_policy_weighs_its_targets_damage_defenses() {
    // Wizard-9's fireball (8d6 fire, 28 on average) on one ogre (59 HP:
    // no cap): its value halves against fire resistance, doubles against
    // vulnerability, is nothing against immunity and a loss against Fire
    // Absorption (the damage heals it).
    use crate::rules::damage::{DamageType, DamageTypes};
    let wizard = template("wizard-9");
    let k = known(&wizard, "fireball");
    let value = |edit: &dyn Fn(&mut CreatureSpec), count: usize, plain: usize| {
        let mut ogre = monster("ogre");
        edit(&mut ogre);
        let mut monsters = vec![ogre; count];
        monsters.extend(vec![monster("ogre"); plain]);
        let t = Table::new(vec![wizard.clone()], monsters, EncounterRules::default());
        let foes = t.enc.foes(&t.arena, 0);
        t.enc.spell_value(&t.arena, 0, k, 3, &foes)
    };
    let fire = DamageTypes::of([DamageType::Fire]);
    let plain = value(&|_| {}, 1, 0);
    assert!(plain > 0.0);
    let resistant = value(&|o| o.defenses.resistances = fire, 1, 0);
    assert!(
        (resistant - plain / 2.0).abs() < 1e-9,
        "{resistant} {plain}"
    );
    let vulnerable = value(&|o| o.defenses.vulnerabilities = fire, 1, 0);
    assert!((vulnerable - plain * 2.0).abs() < 1e-9);
    assert_eq!(value(&|o| o.defenses.immunities = fire, 1, 0), 0.0);
    assert!(value(&|o| o.absorbs = fire, 1, 0) < 0.0);
    // The free option (fire bolt, 2d10 fire at level 9) too: nothing
    // against fire-immune ogres, so a slot is weighed against nothing.
    let free = |edit: &dyn Fn(&mut CreatureSpec)| {
        let mut ogre = monster("ogre");
        edit(&mut ogre);
        let t = Table::new(vec![wizard.clone()], vec![ogre], EncounterRules::default());
        t.enc.foes(&t.arena, 0).free_option(&wizard)
    };
    assert!(free(&|_| {}) > 0.0);
    assert_eq!(free(&|o| o.defenses.immunities = fire), 0.0);
    // Resistant to cold only: fire is worth its whole value.
    let cold = DamageTypes::of([DamageType::Cold]);
    assert_eq!(value(&|o| o.defenses.resistances = cold, 1, 0), plain);
    // One immune ogre and one not: the pair is worth half of two plain.
    let two = value(&|_| {}, 2, 0);
    let mixed = value(&|o| o.defenses.immunities = fire, 1, 1);
    assert!((mixed - two / 2.0).abs() < 1e-9, "{mixed} {two}");
    // Six hobgoblins immune to fire: the policy casts no fireball at them
    // (it would at six plain ones, see the test above).
    let mut immune = monster("hobgoblin-warrior");
    immune.defenses.immunities = fire;
    let mut t = Table::new(
        vec![wizard.clone()],
        vec![immune; 6],
        EncounterRules::default(),
    );
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let Table { enc, arena, out } = &mut t;
    enc.cast_spells(&mut rng, arena, 0, true, true, out);
    // Its 3rd-level slot goes to hypnotic pattern (concentration), not
    // to fireball (which would leave it concentrating on nothing).
    let f = &arena.fighters[0];
    assert_eq!(f.slots[2], 2);
    assert_eq!(
        usize::from(f.spells.concentrating),
        known(&wizard, "hypnotic_pattern") + 1
    );
}

#[test]
fn the_casting_policy_weighs_magic_and_legendary_resistance() {
    // Wizard-9's hold monster (Wis save, paralyzed) on one ogre: Magic
    // Resistance (the save at advantage) lowers its value by the odds;
    // Legendary Resistance left makes a held ogre worth nothing (its
    // failed save would become a success).
    let wizard = template("wizard-9");
    let k = known(&wizard, "hold_monster");
    let value = |edit: &dyn Fn(&mut CreatureSpec)| {
        let mut ogre = monster("ogre");
        edit(&mut ogre);
        let t = Table::new(vec![wizard.clone()], vec![ogre], EncounterRules::default());
        let foes = t.enc.foes(&t.arena, 0);
        t.enc.spell_value(&t.arena, 0, k, 5, &foes)
    };
    let plain = value(&|_| {});
    let dc = wizard.known_spells[k].dc;
    let save = save_chance(monster("ogre").save(Ability::Wis), dc);
    let fails_at_advantage = (1.0 - save) * (1.0 - save);
    let resistant = value(&|o| o.magic_resistance = true);
    assert!(
        (resistant - plain * fails_at_advantage / (1.0 - save)).abs() < 1e-9,
        "{resistant} {plain} {save}"
    );
    assert_eq!(value(&|o| o.legendary_resistance = 1), 0.0);
}

/// Exact mean and variance of `f(v)` for `v` of `dice`.
fn moments(dice: DiceExpr, f: impl Fn(i64) -> f64) -> (f64, f64) {
    let pmf = dice.pmf();
    let (mut m1, mut m2) = (0.0, 0.0);
    for (i, p) in pmf.iter().enumerate() {
        let v = f(dice.min() + i as i64);
        m1 += p * v;
        m2 += p * v * v;
    }
    (m1, m2 - m1 * m1)
}

#[test]
fn fireball_on_four_ogres_deals_its_exact_mean_with_saves_for_half() {
    // Wizard-5: DC 8 + 3 + 4 = 15; an ogre saves Dex with -1: succeeds on
    // 16+ (q = 0.25). Each ogre (59 HP) takes 8d6, or half rounded down.
    let ogre = monster("ogre");
    let q = save_chance(ogre.save(Ability::Dex), 15);
    let dice: DiceExpr = "8d6".parse().unwrap();
    // The total over four targets sharing one roll r: (4 - k) r + k ⌊r/2⌋
    // with k ~ Binomial(4, q) successes.
    let binom = |k: usize| {
        let c = [1.0, 4.0, 6.0, 4.0, 1.0][k];
        c * q.powi(k as i32) * (1.0 - q).powi(4 - k as i32)
    };
    let (mut m1, mut m2) = (0.0, 0.0);
    let pmf = dice.pmf();
    for (i, p) in pmf.iter().enumerate() {
        let r = (dice.min() + i as i64) as f64;
        for k in 0..=4 {
            let total = (4 - k) as f64 * r + k as f64 * (r / 2.0).floor();
            m1 += p * binom(k) * total;
            m2 += p * binom(k) * total * total;
        }
    }
    let var = m2 - m1 * m1;
    let n = 20_000;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(20261205);
    let mut t = Table::new(
        vec![template("wizard-5")],
        vec![ogre; 4],
        EncounterRules::default(),
    );
    let k = known(&t.enc.all[0], "fireball");
    let mut sum = 0.0;
    for _ in 0..n {
        for i in 1..=4 {
            let f = t.f_mut(i);
            f.hp = f.max_hp;
        }
        t.f_mut(0).slots[2] = 2;
        let Table { enc, arena, out } = &mut t;
        enc.cast_known(&mut rng, arena, 0, k, 3, out);
        sum += (1..=4)
            .map(|i| f64::from(t.f(i).max_hp - t.f(i).hp))
            .sum::<f64>();
    }
    let mean = sum / f64::from(n);
    assert!(
        (mean - m1).abs() < tolerance(var, f64::from(n)),
        "fireball on four ogres: {mean} against the exact {m1}"
    );
}

#[test]
fn a_paralyzed_target_takes_critical_hits_at_the_exact_rate() {
    // Fighter-1 (+5, 1d8 + 5) against a paralyzed ogre (AC 11): advantage,
    // hits on 6+ (a 1 misses): 1 - (5/20)^2; every hit critical: 2d8 + 5.
    let p_hit = 1.0 - 0.25f64.powi(2);
    let (d1, d2) = moments("2d8".parse().unwrap(), |v| v as f64 + 5.0);
    let m1 = p_hit * d1;
    let var = p_hit * (d2 + d1 * d1) - m1 * m1;
    let n = 20_000;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut t = Table::new(
        vec![fighter()],
        vec![monster("ogre")],
        EncounterRules::default(),
    );
    t.f_mut(1).spells.afflict(Affliction {
        bits: Condition::Paralyzed.bits(),
        ..Affliction::NONE
    });
    let attack = t.enc.all[0].attacks[0].clone();
    let mut sum = 0.0;
    for _ in 0..n {
        t.f_mut(1).hp = 59;
        let Table { enc, arena, out } = &mut t;
        enc.attack::<false, _>(&mut rng, arena, 0, 1, &attack, out);
        sum += f64::from(59 - t.f(1).hp);
    }
    let mean = sum / f64::from(n);
    assert!(
        (mean - m1).abs() < tolerance(var, f64::from(n)),
        "{mean} against {m1}"
    );
}

#[test]
fn concentration_survives_a_chain_of_hits_at_the_exact_rate() {
    // Cleric-5 (Con save +2) concentrating, hit three times for 24 (DC
    // 12): keeps it with (1 - 9/20)^3.
    let p = save_chance(2, 12).powi(3);
    let n = 20_000;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let mut t = Table::new(
        vec![template("cleric-5")],
        vec![goblin()],
        EncounterRules::default(),
    );
    let mut kept = 0;
    for _ in 0..n {
        let f = t.f_mut(0);
        f.hp = f.max_hp;
        f.spells.concentrating = 1;
        for _ in 0..3 {
            let Table { enc, arena, out } = &mut t;
            enc.deal_total(&mut rng, arena, 0, slashing(24, false), out);
            arena.fighters[0].hp = arena.fighters[0].max_hp;
        }
        kept += u32::from(t.f(0).spells.concentrating != 0);
    }
    let share = f64::from(kept) / f64::from(n);
    assert!(
        (share - p).abs() < tolerance(p * (1.0 - p), f64::from(n)),
        "{share} against {p}"
    );
}

#[test]
fn bless_raises_the_hit_chance_to_its_exact_value() {
    // Fighter-1 (+5) against AC 18: hits on 13+ without bless (0.40); with
    // 1d4 on 13 - b (b = 1..4): (8 + 2.5) / 20.
    let p = (8.0 + 2.5) / 20.0;
    let n = 20_000;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(13);
    let mut t = Table::new(
        vec![fighter(), template("cleric-5")],
        vec![monster("hobgoblin-warrior")],
        EncounterRules::default(),
    );
    cast(&mut t, 1, "bless", 1, &[]);
    let attack = t.enc.all[0].attacks[0].clone();
    let mut hits = 0;
    for _ in 0..n {
        t.f_mut(2).hp = 1000;
        let Table { enc, arena, out } = &mut t;
        enc.attack::<false, _>(&mut rng, arena, 0, 2, &attack, out);
        hits += u32::from(t.f(2).hp < 1000);
    }
    let share = f64::from(hits) / f64::from(n);
    assert!(
        (share - p).abs() < tolerance(p * (1.0 - p), f64::from(n)),
        "{share} against {p}"
    );
    let _ = bits::BANISHED;
}

#[test]
fn guiding_bolts_advantage_ends_at_the_start_of_the_casters_next_turn() {
    // Cleric-5 (+7) at a goblin in round 1: 15 + 7 hits AC 15, 4d6 = 4.
    let mut t = Table::new(
        vec![template("cleric-5")],
        vec![goblin()],
        EncounterRules::default(),
    );
    t.arena.round = 1;
    cast(
        &mut t,
        0,
        "guiding_bolt",
        1,
        &[(1, 1), (15, 20), (1, 6), (1, 6), (1, 6), (1, 6)],
    );
    assert_eq!(t.f(1).max_hp - t.f(1).hp, 4);
    let Table { enc, arena, out } = &mut t;
    assert!(
        enc.buff_advantage(arena, 1).1,
        "attacks on it have advantage"
    );
    // Its caster's turn in the same round changes nothing; in the next
    // round the spell's 1 round is over.
    with_dice(&[], |rng| enc.spells_at_turn_start(rng, arena, 0, out));
    assert!(enc.buff_advantage(arena, 1).1);
    arena.round = 2;
    with_dice(&[], |rng| enc.spells_at_turn_start(rng, arena, 0, out));
    assert!(!enc.buff_advantage(arena, 1).1, "over at round 2");
    assert_eq!(arena.fighters[0].spells.timed_until, 0, "nothing pending");
    // A spell lasting a minute, or with concentration, is not timed.
    use crate::combat::encounter::spell_lasting::timed_until;
    assert_eq!(timed_until(false, Some(1), 3), Some(4));
    assert_eq!(timed_until(false, Some(10), 3), None);
    assert_eq!(timed_until(true, Some(1), 3), None);
    assert_eq!(timed_until(false, Some(0), 3), None);
}

#[test]
fn stoneskin_halves_slashing_while_the_caster_concentrates() {
    let spells = &crate::fixtures::catalog().templates.spells;
    let mut wizard = template("wizard-9");
    let stoneskin = spells.get("stoneskin").unwrap().clone();
    wizard
        .known_spells
        .push(crate::combat::templates::known_spell(stoneskin, 4, 4, 0));
    let k = wizard.known_spells.len() - 1;
    let mut t = Table::new(vec![wizard], vec![goblin()], EncounterRules::default());
    let Table { enc, arena, out } = &mut t;
    with_dice(&[], |rng| enc.cast_known(rng, arena, 0, k, 4, out));
    assert_eq!(arena.fighters[0].slots[3], 2, "a 4th-level slot");
    assert_eq!(
        enc.after_defenses(arena, 0, crate::rules::damage::DamageType::Slashing, 9),
        4
    );
    enc.end_concentration(arena, 0);
    assert_eq!(
        enc.after_defenses(arena, 0, crate::rules::damage::DamageType::Slashing, 9),
        9
    );
}

#[test]
fn the_policy_keeps_concentration_for_spirit_guardians_over_shield_of_faith() {
    // Cleric-9 against six hobgoblins: shield of faith (bonus action) and
    // spirit guardians (action) both need concentration and a slot; the
    // pair worth more is spirit guardians and no bonus-action spell.
    let six = vec![monster("hobgoblin-warrior"); 6];
    let mut t = Table::new(vec![template("cleric-9")], six, EncounterRules::default());
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let Table { enc, arena, out } = &mut t;
    let turn = enc.cast_spells(&mut rng, arena, 0, true, true, out);
    assert!(turn.action && !turn.bonus);
    assert_eq!(
        arena.fighters[0].spells.concentrating,
        known(&enc.all[0], "spirit_guardians") as u8 + 1
    );
    assert_eq!(arena.fighters[0].slots[2], 2, "a 3rd-level slot");
}

/// Cleric-5 casts *spirit guardians* against five goblins: its 15-ft
/// emanation's count rule takes three of them (the partial shuffle's
/// first draws), 3d8 = 3 to each and every save a success (20s).
fn spirit_guardians_on_five_goblins() -> Table {
    let mut t = Table::new(
        vec![template("cleric-5")],
        vec![goblin(); 5],
        EncounterRules::default(),
    );
    cast(
        &mut t,
        0,
        "spirit_guardians",
        3,
        &[
            (1, 5),
            (1, 4),
            (1, 3),
            (1, 8),
            (1, 8),
            (1, 8),
            (20, 20),
            (20, 20),
            (20, 20),
        ],
    );
    t
}

#[test]
fn spirit_guardians_follow_the_caster_and_take_in_new_enemies() {
    // Cleric-5 against five goblins: the 15-ft emanation holds 3.
    let mut t = spirit_guardians_on_five_goblins();
    let in_zone = |t: &Table| (1..=5).filter(|&i| t.f(i).spells.zone.source == 0).count();
    assert_eq!(in_zone(&t), 3);
    // One of them dies: at the caster's turn start one more comes in.
    let gone = (1..=5).find(|&i| t.f(i).spells.zone.source == 0).unwrap();
    t.f_mut(gone).state = State::Dead;
    let Table { enc, arena, out } = &mut t;
    with_dice(&[(1, 2)], |rng| {
        enc.spells_at_turn_start(rng, arena, 0, out)
    });
    let inside = (1..=5)
        .filter(|&i| {
            arena.fighters[i].state == State::Up && arena.fighters[i].spells.zone.source == 0
        })
        .count();
    assert_eq!(inside, 3, "two still in it and one new");
}

#[test]
fn a_legendary_only_spell_is_never_cast_with_the_action() {
    // SRD 5.2 adult white dragon: Frightful Presence (a legendary action)
    // casts Fear; it has no Spellcasting action of its own.
    let dragon = monster("adult-white-dragon");
    let fear = dragon.known_spells[known(&dragon, "fear")].innate.unwrap();
    assert!(fear.legendary_only);
    let mut t = Table::new(
        vec![template("fighter-9"); 4],
        vec![dragon],
        EncounterRules::default(),
    );
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
    for _ in 0..20 {
        let Table { enc, arena, out } = &mut t;
        let turn = enc.cast_spells(&mut rng, arena, 4, true, true, out);
        assert!(!turn.action && !turn.bonus);
        assert_eq!(arena.fighters[4].spells.concentrating, 0, "no fear cast");
    }
}

#[test]
fn spiritual_weapon_adds_the_spellcasting_modifier_to_each_hit() {
    // SRD 5.2: "Force damage equal to 1d8 plus your spellcasting ability
    // modifier", 1d8 more per slot level above 2. Cleric-5 (Wisdom +4,
    // +7 to hit) at an ogre (AC 11, 59 HP): 15 + 7 hits, 1d8 = 3, + 4.
    let mut t = Table::new(
        vec![template("cleric-5")],
        vec![monster("ogre")],
        EncounterRules::default(),
    );
    let sw = known(&t.enc.all[0], "spiritual_weapon");
    assert_eq!(t.enc.all[0].known_spells[sw].modifier_damage, 4);
    cast(
        &mut t,
        0,
        "spiritual_weapon",
        2,
        &[(1, 1), (15, 20), (3, 8)],
    );
    assert_eq!(t.f(1).max_hp - t.f(1).hp, 3 + 4);
    // With a 3rd-level slot: 2d8 = 3 + 5, + 4.
    cast(
        &mut t,
        0,
        "spiritual_weapon",
        3,
        &[(1, 1), (15, 20), (3, 8), (5, 8)],
    );
    assert_eq!(t.f(1).max_hp - t.f(1).hp, 7 + 12);
    // A spell without the clause adds nothing: guiding bolt's 4d6 = 4.
    let gb = known(&t.enc.all[0], "guiding_bolt");
    assert_eq!(t.enc.all[0].known_spells[gb].modifier_damage, 0);
    cast(
        &mut t,
        0,
        "guiding_bolt",
        1,
        &[(1, 1), (15, 20), (1, 6), (1, 6), (1, 6), (1, 6)],
    );
    assert_eq!(t.f(1).max_hp - t.f(1).hp, 19 + 4);
    // A monster's modifier is its spell save DC less 8 and its proficiency
    // bonus: the SRD 5.2 priest, DC 13 at CR 2 (+2), Wisdom +3.
    let priest = monster("priest");
    let k = known(&priest, "spiritual_weapon");
    assert_eq!(priest.known_spells[k].modifier_damage, 3);
}

#[test]
fn an_enemy_that_attacks_the_caster_in_melee_stands_in_its_spirit_guardians() {
    // Cleric-5 against five goblins: the 15-ft emanation's count rule
    // holds 3; a goblin that attacks the cleric in melee is within 5 feet,
    // so inside it too ("whenever a creature enters the Emanation or ends
    // its turn there").
    let mut t = spirit_guardians_on_five_goblins();
    let outside = (1..=5).find(|&i| t.f(i).spells.zone.source != 0).unwrap();
    let hp = t.f(outside).hp;
    // Its scimitar misses (2 + 4 < 18): it is in the emanation all the same.
    t.attack(outside, 0, &[(2, 20)]);
    assert_eq!(t.f(outside).spells.zone.source, 0);
    assert_eq!(
        (1..=5).filter(|&i| t.f(i).spells.zone.source == 0).count(),
        4
    );
    // It ends its turn there: 3d8 = 1 + 1 + 1, a failed save (1 - 1).
    let Table { enc, arena, out } = &mut t;
    with_dice(&[(1, 8), (1, 8), (1, 8), (1, 20)], |rng| {
        enc.spells_at_turn_end(rng, arena, outside, out)
    });
    assert_eq!(arena.fighters[outside].hp, hp - 3);
    // A ranged attack from outside brings no one in.
    let mut t = spirit_guardians_on_five_goblins();
    let outside = (1..=5).find(|&i| t.f(i).spells.zone.source != 0).unwrap();
    let shortbow = goblin()
        .attacks
        .iter()
        .find(|a| a.reach == crate::combat::creature::Reach::Ranged)
        .cloned()
        .expect("the goblin's shortbow");
    t.attack_with(outside, 0, &shortbow, &[(2, 20)]);
    assert_ne!(t.f(outside).spells.zone.source, 0);
}

/// `caster` (a template) against two ogres at `hp` hit points.
fn against_two_ogres(caster: &str, hp: [i32; 2]) -> Table {
    let mut t = Table::new(
        vec![template(caster)],
        vec![monster("ogre"), monster("ogre")],
        EncounterRules::default(),
    );
    t.f_mut(1).hp = hp[0];
    t.f_mut(2).hp = hp[1];
    t
}

/// The casting policy's value of fighter 0's spell `name` at `slot` now.
fn value_now(t: &Table, name: &str, slot: u8) -> f64 {
    let k = known(&t.enc.all[0], name);
    let foes = t.enc.foes(&t.arena, 0);
    t.enc.spell_value(&t.arena, 0, k, slot, &foes)
}

#[test]
fn power_word_stun_stuns_only_a_creature_of_150_hp_or_fewer_and_aims_at_one() {
    // Wizard-17 against two ogres, the first above the limit (151 HP), the
    // second within it (150 HP).
    let ogres = || against_two_ogres("wizard-17", [151, 150]);
    // The policy values the stun on the ogre within the limit only;
    // nothing against the other alone.
    let mut within = ogres();
    within.f_mut(1).state = State::Dead;
    let mut above = ogres();
    above.f_mut(2).state = State::Dead;
    let both = value_now(&ogres(), "power_word_stun", 8);
    assert!(
        both > 0.0 && value_now(&above, "power_word_stun", 8) == 0.0,
        "{both}"
    );
    assert!(value_now(&within, "power_word_stun", 8) > 0.0);
    // Cast: aimed at the ogre within the limit (the only one open: one
    // draw of one), stunned; no save to take it.
    let mut t = ogres();
    cast(&mut t, 0, "power_word_stun", 8, &[(1, 1)]);
    assert_eq!(t.f(2).spells.conditions, Condition::Stunned.bits());
    assert_eq!(t.f(1).spells.conditions, 0);
    // Only the ogre above the limit stands: cast at it, nothing.
    cast(&mut above, 0, "power_word_stun", 8, &[(1, 1)]);
    assert_eq!(above.f(1).spells.conditions, 0);
    assert_eq!(above.f(0).slots[7], 0, "the slot is spent all the same");
}

#[test]
fn power_word_kill_kills_a_creature_of_100_hp_or_fewer_outright() {
    // Bard-17 against two ogres at 101 and 100 HP: aimed at the second,
    // which dies with no damage rolled.
    let ogres = || against_two_ogres("bard-17", [101, 100]);
    // Worth the hit points of the one it kills; against one above the
    // limit, its 12d12 (78 on average).
    let mut above = ogres();
    above.f_mut(2).state = State::Dead;
    assert_eq!(value_now(&ogres(), "power_word_kill", 9), 100.0);
    assert_eq!(value_now(&above, "power_word_kill", 9), 78.0);
    let mut t = ogres();
    cast(&mut t, 0, "power_word_kill", 9, &[(1, 1)]);
    assert_eq!(t.f(2).state, State::Dead);
    assert_eq!(t.f(2).hp, 0);
    assert_eq!(t.f(1).hp, 101);
    // Above the limit: 12d12 psychic (twelve 1s: 12).
    let mut dice = vec![(1, 1)];
    dice.extend([(1, 12); 12]);
    cast(&mut above, 0, "power_word_kill", 9, &dice);
    assert_eq!(above.f(1).hp, 101 - 12);
    assert_eq!(above.f(1).state, State::Up);
    // A PC it kills dies outright: no death saves.
    let bard = template("bard-17");
    let mut t = Table::new(vec![fighter()], vec![bard], EncounterRules::default());
    cast(&mut t, 1, "power_word_kill", 9, &[(1, 1)]);
    assert_eq!(t.f(0).state, State::Dead);
    assert_eq!(t.f(0).tally.failures, 0);
}
