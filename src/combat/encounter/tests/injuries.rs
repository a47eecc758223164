//! Lingering injuries in the round loop (docs/rules.md, lingering injuries): what triggers them,
//! and what the entries do in a fight.

use super::*;
use crate::combat::effect;
use crate::combat::policy::CombatInjuries;
use crate::dice::Chance;
use crate::rules::lingering::{MissTrigger, Trigger};

/// Rules with lingering injuries on every trigger (chance 1).
pub(super) fn injury_rules() -> EncounterRules {
    let mut table = crate::fixtures::catalog().injury_table.clone();
    table.chance = Chance::ALWAYS;
    EncounterRules {
        injuries: Some(CombatInjuries {
            table,
            trigger: Trigger::default(),
            miss_trigger: MissTrigger::Natural1,
            bad_weather: false,
        }),
        ..Default::default()
    }
}

/// The draw of the injury chance (any value passes a chance of 1).
pub(super) const CHANCE: (u64, u64) = (1, 2);

impl Table {
    /// The injuries creature `who` carries, by entry id.
    pub(super) fn injuries_of(&self, who: usize) -> Vec<String> {
        let table = &self.enc.rules.injuries.as_ref().unwrap().table;
        let f = self.f(who);
        f.injuries[..usize::from(f.n_injuries)]
            .iter()
            .map(|&i| table.entries[usize::from(i)].id.clone())
            .collect()
    }

    /// A triggering event for creature `who` (the injury chance, the d100, ...).
    pub(super) fn injure(&mut self, who: usize, dice: &[(u64, u64)]) {
        let rules = self.enc.rules.injuries.clone().unwrap();
        let Table { enc, arena, out } = self;
        with_dice(dice, |rng| enc.maybe_injure(rng, arena, who, &rules, out));
    }

    /// Whether `me` loses its action this turn.
    fn loses_action(&self, me: usize, dice: &[(u64, u64)]) -> bool {
        with_dice(dice, |rng| self.enc.loses_action(rng, &self.arena, me))
    }

    /// Whether a spell `me` casts now fails.
    fn spell_fails(&self, me: usize, dice: &[(u64, u64)]) -> bool {
        with_dice(dice, |rng| self.enc.spell_fails(rng, &self.arena, me))
    }
}

#[test]
fn a_critical_hit_taken_can_injure_the_target() {
    let mut t = Table::duel(injury_rules());
    // Natural 20, 2d6 damage (1, 1), then the injury: chance, d100 = 1 (lose an eye).
    t.attack(1, 0, &[(20, 20), (1, 6), (1, 6), CHANCE, (1, 100)]);
    assert_eq!(t.injuries_of(0), vec!["lose_an_eye"]);
    assert_eq!(t.out.injuries, 1);
    assert_ne!(
        t.f(0).effects & effect::DIS_RANGED,
        0,
        "disadvantage on ranged attacks"
    );
    // Without the rule, nothing happens.
    let mut t = Table::duel(EncounterRules::default());
    t.attack(1, 0, &[(20, 20), (1, 6), (1, 6)]);
    assert_eq!(t.f(0).n_injuries, 0);
}

#[test]
fn a_natural_one_can_injure_the_attacker() {
    let mut t = Table::duel(injury_rules());
    t.attack(1, 0, &[(1, 20), CHANCE, (3, 100)]);
    assert_eq!(t.injuries_of(1), vec!["lose_an_arm_or_hand"]);
    assert_ne!(t.f(1).effects & effect::NO_TWO_HANDED, 0);
    assert_eq!(t.out.injuries, 0, "PC injuries only are counted");
}

#[test]
fn an_ordinary_miss_injures_the_attacker_only_under_the_any_miss_reading() {
    // A goblin's +4 against the fighter's AC 18: a 5 misses.
    let mut t = Table::duel(injury_rules());
    t.attack(1, 0, &[(5, 20)]);
    assert_eq!(t.f(1).n_injuries, 0, "natural_1: a plain miss is safe");
    let mut rules = injury_rules();
    if let Some(i) = rules.injuries.as_mut() {
        i.miss_trigger = MissTrigger::AnyMiss;
    }
    let mut t = Table::duel(rules);
    t.attack(1, 0, &[(5, 20), CHANCE, (3, 100)]);
    assert_eq!(t.injuries_of(1), vec!["lose_an_arm_or_hand"]);
}

#[test]
fn without_critical_hits_a_natural_twenty_does_not_trigger_a_lingering_injury() {
    let rules = EncounterRules {
        critical_hits: false,
        ..injury_rules()
    };
    let mut t = Table::duel(rules);
    // Natural 20 and one d6: no injury chance is drawn.
    t.attack(1, 0, &[(20, 20), (1, 6)]);
    assert_eq!((t.f(0).n_injuries, t.out.injuries), (0, 0));
    // A natural 1 is not a critical hit: it still may injure the attacker.
    t.attack(1, 0, &[(1, 20), CHANCE, (3, 100)]);
    assert_eq!(t.injuries_of(1), vec!["lose_an_arm_or_hand"]);
}

#[test]
fn both_eyes_lost_blind_and_a_second_punctured_lung_drops_to_zero() {
    let mut t = Table::duel(injury_rules());
    for d100 in [1, 2] {
        t.injure(0, &[CHANCE, (d100, 100)]);
    }
    assert_ne!(t.f(0).effects & effect::BLINDED, 0);
    for _ in 0..2 {
        t.injure(0, &[CHANCE, (71, 100)]);
    }
    assert_eq!(t.state(0), (State::Dying, 0));
}

#[test]
fn a_skull_fracture_costs_the_action_on_a_failed_dc_20_save() {
    let mut t = Table::duel(injury_rules());
    t.injure(0, &[CHANCE, (66, 100)]);
    // Fighter Con save +4 at level 1: 15 + 4 = 19 < 20 loses the action, 16 + 4 keeps it.
    assert!(t.loses_action(0, &[(15, 20)]));
    assert!(!t.loses_action(0, &[(16, 20)]));
}

#[test]
fn magical_healing_cures_a_broken_arm_but_not_a_lost_eye() {
    let mut t = Table::duel(injury_rules());
    t.injure(0, &[CHANCE, (16, 100)]);
    t.injure(0, &[CHANCE, (1, 100)]);
    assert_ne!(t.f(0).effects & effect::NO_TWO_HANDED, 0);
    t.heal(0, 1, false);
    assert_eq!(t.f(0).n_injuries, 2, "Second Wind is not magical healing");
    t.heal(0, 1, true);
    assert_eq!(t.injuries_of(0), vec!["lose_an_eye"]);
    assert_eq!(t.f(0).effects & effect::NO_TWO_HANDED, 0);
}

#[test]
fn knocked_out_teeth_fail_a_spell_on_a_one_and_a_broken_weapon_is_improvised() {
    let mut t = Table::duel(injury_rules());
    t.injure(0, &[CHANCE, (51, 100)]);
    assert!(t.spell_fails(0, &[(1, 20)]));
    assert!(!t.spell_fails(0, &[(2, 20)]));
    // Broken item, d10 = 1: a weapon; d10 = 2: armour (AC - 2).
    t.injure(0, &[CHANCE, (46, 100), (1, 10)]);
    assert_ne!(t.f(0).effects & effect::WEAPON_BROKEN, 0);
    t.injure(0, &[CHANCE, (46, 100), (2, 10)]);
    assert_ne!(t.f(0).effects & effect::ARMOR_BROKEN, 0);
    // A goblin's 13 + 4 = 17 now hits the fighter's AC 18 - 2.
    t.attack(1, 0, &[(13, 20), (2, 6)]);
    assert_eq!(t.f(0).hp, 12 - 4);
}
