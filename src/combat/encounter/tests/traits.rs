//! Monster traits (`encounter/traits.rs`, [`Encounter::magic_save`]):
//! Magic Resistance's advantage on saves against spells and Turn Undead
//! and on nothing else; Pack Tactics' advantage when an able ally is next
//! to the target (without positions any able ally whose Attack action is
//! a melee attack; by place with them).

use super::*;
use crate::combat::creature::Ability;
use crate::combat::policy::Positions;
use crate::combat::spell::{OnSuccess, SpellSave, bits};

fn goblins(n: usize, pack: bool, magic: bool) -> Vec<CreatureSpec> {
    let mut g = goblin();
    g.pack_tactics = pack;
    g.magic_resistance = magic;
    vec![g; n]
}

#[test]
fn magic_resistance_saves_at_advantage_against_spells_only() {
    let mut t = Table::new(
        vec![fighter()],
        goblins(1, false, true),
        EncounterRules::default(),
    );
    let Table { enc, arena, .. } = &mut t;
    // Goblin Dex +2 against DC 15: a 2 then a 19 (21) with advantage.
    let save = SpellSave {
        ability: Ability::Dex,
        success: OnSuccess::Half,
    };
    let share = with_dice(&[(2, 20), (19, 20)], |rng| {
        enc.save_share(rng, arena, 1, Some(save), 15, false)
    });
    assert_eq!(share, 0.5);
    assert!(with_dice(&[(2, 20), (19, 20)], |rng| {
        enc.magic_save(rng, arena, 1, Ability::Wis, 15)
    }));
    // A save against no magic: one die, the 2 fails.
    assert!(!with_dice(&[(2, 20)], |rng| {
        enc.saving_throw(rng, arena, 1, Ability::Dex, 15)
    }));
    // Without the trait a spell's save is one die.
    let mut t = Table::new(
        vec![fighter()],
        goblins(1, false, false),
        EncounterRules::default(),
    );
    let Table { enc, arena, .. } = &mut t;
    let share = with_dice(&[(2, 20)], |rng| {
        enc.save_share(rng, arena, 1, Some(save), 15, false)
    });
    assert_eq!(share, 1.0);
}

#[test]
fn pack_tactics_gives_advantage_while_an_able_ally_is_near() {
    // Two goblins with Pack Tactics: the first attacks at advantage (two
    // d20s, both missing AC 18).
    let mut t = Table::new(
        vec![fighter()],
        goblins(2, true, false),
        EncounterRules::default(),
    );
    t.attack(1, 0, &[(2, 20), (3, 20)]);
    // The ally down or incapacitated: one d20.
    t.f_mut(2).state = State::Dead;
    t.attack(1, 0, &[(2, 20)]);
    t.f_mut(2).state = State::Up;
    t.f_mut(2).spells.conditions = bits::INCAPACITATED;
    t.attack(1, 0, &[(2, 20)]);
    // Without the trait: one d20 with an ally beside.
    let mut t = Table::new(
        vec![fighter()],
        goblins(2, false, false),
        EncounterRules::default(),
    );
    t.attack(1, 0, &[(2, 20)]);
    // Without positions an ally shooting from afar is not by the target:
    // the second goblin's Attack action its shortbow, one d20; the first
    // goblin's own shortbow still gains from the scimitar ally.
    let mut t = Table::new(
        vec![fighter()],
        goblins(2, true, false),
        EncounterRules::default(),
    );
    let shortbow = t.enc.all[2]
        .attacks
        .iter()
        .position(|a| a.name == "shortbow")
        .expect("the goblin's shortbow");
    t.enc.all[2].multiattack = vec![shortbow];
    assert!(!t.enc.all[2].fights_in_melee() && t.enc.all[1].fights_in_melee());
    t.attack(1, 0, &[(2, 20)]);
    let bow = t.enc.all[2].attacks[shortbow].clone();
    t.attack_with(2, 0, &bow, &[(2, 20), (3, 20)]);
    // With positions, only an ally within 5 feet of the target counts.
    let rules = EncounterRules {
        positions: Some(Positions::DEFAULT),
        ..Default::default()
    };
    let mut t = Table::new(vec![fighter()], goblins(2, true, false), rules);
    for (i, x) in [(0, 0), (1, 5), (2, 40)] {
        t.f_mut(i).x = x;
    }
    t.attack(1, 0, &[(2, 20)]);
    t.f_mut(2).x = -5;
    t.attack(1, 0, &[(2, 20), (3, 20)]);
}

#[test]
fn parry_turns_a_melee_hit_its_bonus_covers_with_the_reaction() {
    // A goblin (AC 15) with Parry +2 against a fighter's longsword (+5).
    let mut g = goblin();
    g.parry = 2;
    let mut t = Table::new(vec![fighter()], vec![g], EncounterRules::default());
    // 11 + 5 = 16 hits AC 15 but not 17: parried, the reaction spent.
    t.attack(0, 1, &[(11, 20)]);
    assert_eq!((t.f(1).hp, t.f(1).reaction), (7, false));
    // No reaction left: the same roll hits (1d8 of 1 + 5 = 6).
    t.attack(0, 1, &[(11, 20), (1, 8)]);
    assert_eq!(t.f(1).hp, 1);
    // With the reaction back, a roll the bonus cannot cover (12 + 5 = 17)
    // hits and keeps it.
    t.f_mut(1).reaction = true;
    t.f_mut(1).hp = 7;
    t.attack(0, 1, &[(12, 20), (1, 8)]);
    assert_eq!((t.f(1).hp, t.f(1).reaction), (1, true));
    // Not against a ranged attack: the same 11 + 5 hits.
    t.f_mut(1).hp = 7;
    let mut bow = t.enc.all[0].attacks[0].clone();
    bow.reach = Reach::Ranged;
    t.attack_with(0, 1, &bow, &[(11, 20), (1, 8)]);
    assert_eq!((t.f(1).hp, t.f(1).reaction), (1, true));
}

#[test]
fn undead_fortitude_keeps_a_zombie_at_1_hp_on_a_save_unless_radiant_or_critical() {
    // SRD 5.2 zombie: 15 HP, Con +3; "If damage reduces the zombie to 0 Hit
    // Points, it makes a Constitution saving throw (DC 5 plus the damage
    // taken) unless the damage is Radiant or from a Critical Hit."
    let zombie = monster("zombie");
    assert!(zombie.undead_fortitude);
    assert_eq!(zombie.save(Ability::Con), 3);
    let fresh = || {
        Table::new(
            vec![fighter()],
            vec![monster("zombie")],
            EncounterRules::default(),
        )
    };
    // 16 slashing: DC 21; 18 + 3 saves: 1 HP left.
    let mut t = fresh();
    t.deal(1, slashing(16, false), &[(18, 20)]);
    assert_eq!(t.state(1), (State::Up, 1));
    // 17 + 3 = 20 fails: dead.
    let mut t = fresh();
    t.deal(1, slashing(16, false), &[(17, 20)]);
    assert_eq!(t.state(1).0, State::Dead);
    // A critical hit, or radiant damage: no save (no die rolled).
    let mut t = fresh();
    t.deal(1, slashing(16, true), &[]);
    assert_eq!(t.state(1).0, State::Dead);
    let mut t = fresh();
    let radiant = super::super::damage::Blow {
        amount: 16,
        types: DamageTypes::of([DamageType::Radiant]),
        crit: false,
    };
    t.deal(1, radiant, &[]);
    assert_eq!(t.state(1).0, State::Dead);
}

#[test]
fn a_death_burst_deals_its_save_damage_to_the_enemies_it_catches() {
    // SRD 5.2 magma mephit: "The mephit explodes. Dexterity Saving Throw:
    // DC 11, each creature in a 5-foot Emanation ... Failure: 7 (2d6) Fire
    // damage. Success: Half damage." (one enemy by the area's count).
    let mephit = monster("magma-mephit");
    let burst = mephit.death_burst.expect("a death burst");
    assert_eq!((burst.targets, burst.save), (1, (Ability::Dex, 11)));
    let mut t = Table::new(vec![fighter()], vec![mephit], EncounterRules::default());
    // It dies: the one enemy (a draw of one), 2d6 = 3 + 4, the fighter's save
    // 9 + 1 = 10 fails: 7 fire damage.
    t.deal(1, slashing(100, false), &[(1, 1), (3, 6), (4, 6), (9, 20)]);
    assert_eq!(t.state(1).0, State::Dead);
    assert_eq!(t.f(0).hp, t.f(0).max_hp - 7);
    // A success (10 + 1 = 11) halves it: 3.
    let mut t = Table::new(
        vec![fighter()],
        vec![monster("magma-mephit")],
        EncounterRules::default(),
    );
    t.deal(1, slashing(100, false), &[(1, 1), (3, 6), (4, 6), (10, 20)]);
    assert_eq!(t.f(0).hp, t.f(0).max_hp - 3);
}

#[test]
fn a_damage_aura_burns_the_enemies_it_holds_at_the_end_of_its_turn() {
    // SRD 5.2 azer sentinel: "At the end of each of the azer's turns, each
    // creature of its choice in a 5-foot Emanation ... takes 5 (1d10) Fire
    // damage unless the azer has the Incapacitated condition."
    let azer = monster("azer-sentinel");
    let aura = azer.damage_aura.expect("a damage aura");
    assert_eq!((aura.targets, aura.unless_incapacitated), (1, true));
    let mut t = Table::new(vec![fighter()], vec![azer], EncounterRules::default());
    let burn = |t: &mut Table, dice: &[(u64, u64)]| {
        let Table { enc, arena, out } = t;
        with_dice(dice, |rng| enc.damage_aura(rng, arena, 1, aura, out));
    };
    // The one enemy (a draw of one), 1d10 = 6.
    burn(&mut t, &[(1, 1), (6, 10)]);
    assert_eq!(t.f(0).max_hp - t.f(0).hp, 6);
    // Incapacitated, it burns no one (no die).
    t.f_mut(1)
        .spells
        .afflict(super::super::spell_state::Affliction {
            bits: crate::combat::spell::Condition::Stunned.bits(),
            ..super::super::spell_state::Affliction::NONE
        });
    burn(&mut t, &[]);
    assert_eq!(t.f(0).max_hp - t.f(0).hp, 6);
    // The balor's 3d8 reaches two (its emanation's count), rolled once.
    let balor = monster("balor");
    let aura = balor.damage_aura.expect("a damage aura");
    assert_eq!((aura.targets, aura.unless_incapacitated), (2, false));
    let party = vec![
        template("fighter-5"),
        template("fighter-5"),
        template("fighter-5"),
    ];
    let mut t = Table::new(party, vec![balor], EncounterRules::default());
    let Table { enc, arena, out } = &mut t;
    with_dice(&[(1, 3), (1, 2), (2, 8), (3, 8), (4, 8)], |rng| {
        enc.damage_aura(rng, arena, 3, aura, out)
    });
    let lost: Vec<i32> = (0..3).map(|i| t.f(i).max_hp - t.f(i).hp).collect();
    assert_eq!(lost.iter().filter(|&&l| l == 9).count(), 2, "{lost:?}");
    assert_eq!(lost.iter().filter(|&&l| l == 0).count(), 1, "{lost:?}");
}

#[test]
fn war_cry_gives_temporary_hit_points_and_advantage_until_its_next_turn_and_recharges() {
    // SRD 5.2 frost giant: War Cry (Recharge 5-6, Bonus Action), "gains 16
    // (2d10 + 5) Temporary Hit Points and has Advantage on attack rolls
    // until the start of the giant's next turn".
    let giant = monster("frost-giant");
    let cry = giant.war_cry.expect("war cry");
    assert_eq!(cry.recharge, 5);
    let mut t = Table::new(vec![fighter()], vec![giant], EncounterRules::default());
    let Table { enc, arena, .. } = &mut t;
    // Ready at the start: no recharge roll; 2d10 + 5 = 3 + 4 + 5.
    assert!(arena.fighters[1].war_cry_ready);
    with_dice(&[(3, 10), (4, 10)], |rng| {
        enc.war_cry(rng, arena, 1, cry, false)
    });
    assert_eq!(arena.fighters[1].temp_hp, 12);
    assert!(arena.fighters[1].cried && !arena.fighters[1].war_cry_ready);
    // Its attack rolls have advantage: two d20, the higher (15) hits.
    t.attack(1, 0, &[(2, 20), (15, 20), (1, 12), (1, 12), (1, 8), (1, 8)]);
    assert!(t.f(0).hp < t.f(0).max_hp);
    // Next turn: a 4 does not recharge it, a 5 does; the higher temporary
    // hit points stay (2d10 + 5 = 1 + 1 + 5 = 7 < 12).
    let Table { enc, arena, .. } = &mut t;
    // (what the start of its turn does: its advantage ends, its bonus
    // action is free again)
    arena.fighters[1].cried = false;
    arena.fighters[1].spells.bonus_spent = false;
    with_dice(&[(4, 6)], |rng| enc.war_cry(rng, arena, 1, cry, false));
    assert!(!arena.fighters[1].cried);
    with_dice(&[(5, 6), (1, 10), (1, 10)], |rng| {
        enc.war_cry(rng, arena, 1, cry, false)
    });
    assert!(arena.fighters[1].cried);
    assert_eq!(arena.fighters[1].temp_hp, 12);
    // Not once the fight is over.
    arena.fighters[1].war_cry_ready = true;
    arena.fighters[1].cried = false;
    with_dice(&[], |rng| enc.war_cry(rng, arena, 1, cry, true));
    assert!(!arena.fighters[1].cried);
}
