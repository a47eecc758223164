//! PC templates: fighter, cleric, rogue, wizard, barbarian and paladin at
//! levels 1–10, built from the SRD 5.1 class tables (hit dice, proficiency
//! bonus, Extra Attack, Sneak Attack, Rage, spell slots, Divine Smite, Lay on
//! Hands) with a standard array and the ability increases at levels 4 and 8
//! going to the main ability. Scenarios refer to them as `fighter-5` and may
//! override any field.

use crate::dice::DiceExpr;
use crate::rules::damage::DamageType;

use super::creature::{Attack, CreatureSpec, Heal, HealTarget, OncePerTurn, Rage, Reach};

/// The classes with templates.
pub const CLASSES: [&str; 6] = [
    "fighter",
    "cleric",
    "rogue",
    "wizard",
    "barbarian",
    "paladin",
];

/// Highest template level.
pub const MAX_LEVEL: u8 = 10;

/// Proficiency bonus by level (SRD).
pub fn proficiency(level: u8) -> i32 {
    2 + (i32::from(level) - 1) / 4
}

/// The main ability's modifier: 16 at level 1, +2 at 4 and at 8.
fn main_mod(level: u8) -> i32 {
    3 + i32::from(level >= 4) + i32::from(level >= 8)
}

/// Spell slots of all levels for a full caster (SRD class table).
fn full_caster_slots(level: u8) -> u8 {
    [2, 3, 6, 7, 9, 10, 11, 12, 14, 15][usize::from(level - 1)]
}

/// Spell slots of all levels for a half caster (paladin).
fn half_caster_slots(level: u8) -> u8 {
    [0, 2, 3, 3, 6, 6, 7, 7, 9, 9][usize::from(level - 1)]
}

fn hit_points(hit_die: i32, con: i32, level: u8) -> i32 {
    hit_die + con + (i32::from(level) - 1) * (hit_die / 2 + 1 + con)
}

fn dice(count: u32, sides: u32, modifier: i32) -> DiceExpr {
    DiceExpr {
        count,
        sides,
        modifier,
    }
}

fn weapon(
    name: &str,
    to_hit: i32,
    damage: DiceExpr,
    kind: DamageType,
    reach: Reach,
    two_handed: bool,
) -> Attack {
    Attack {
        name: name.into(),
        to_hit,
        damage,
        kind,
        reach,
        two_handed,
        rider: None,
        spell: false,
    }
}

/// The template for `name` (e.g. `fighter-5`), or `None` if there is none.
///
/// ```
/// use woundsim::combat::templates::template;
/// let f = template("fighter-5").unwrap();
/// assert_eq!(f.max_hp, 44);
/// assert_eq!(f.multiattack.len(), 2); // Extra Attack
/// assert!(template("fighter-11").is_none());
/// ```
pub fn template(name: &str) -> Option<CreatureSpec> {
    let (class, level) = name.rsplit_once('-')?;
    let level: u8 = level.parse().ok().filter(|l| (1..=MAX_LEVEL).contains(l))?;
    let prof = proficiency(level);
    let main = main_mod(level);
    let extra_attack = if level >= 5 { 2 } else { 1 };
    // Saves in Str, Dex, Con, Int, Wis, Cha order: ability modifiers, plus
    // the proficiency bonus where the class is proficient.
    let with_prof = |mods: [i32; 6], proficient: [usize; 2]| {
        let mut saves = mods;
        for i in proficient {
            saves[i] += prof;
        }
        saves
    };
    let mut spec = CreatureSpec::blank(name, true, level);
    match class {
        "fighter" => {
            // Str main, Dex 12, Con 14, Wis 12; chain mail and shield; longsword
            // with the Dueling style (+2); Champion: crits on 19–20 from level 3.
            spec.max_hp = hit_points(10, 2, level);
            spec.ac = 18;
            spec.initiative = 1;
            spec.saves = with_prof([main, 1, 2, 0, 1, -1], [0, 2]);
            spec.medicine = 1;
            spec.attacks = vec![weapon(
                "longsword",
                prof + main,
                dice(1, 8, main + 2),
                DamageType::Slashing,
                Reach::Melee,
                false,
            )];
            spec.multiattack = vec![0; extra_attack];
            spec.crit_range = if level >= 3 { 19 } else { 20 };
            // Second Wind: 1d10 + level, bonus action, once.
            spec.heal = Some(Heal {
                dice: dice(1, 10, i32::from(level)),
                uses: 1,
                bonus_action: true,
                target: HealTarget::SelfOnly,
                spell: false,
            });
        }
        "barbarian" => {
            // Str main, Dex 14, Con 16: Unarmored Defense 10 + 2 + 3; greataxe.
            spec.max_hp = hit_points(12, 3, level);
            spec.ac = 15;
            spec.initiative = 2;
            spec.saves = with_prof([main, 2, 3, -1, 1, 0], [0, 2]);
            spec.medicine = 1;
            spec.attacks = vec![weapon(
                "greataxe",
                prof + main,
                dice(1, 12, main),
                DamageType::Slashing,
                Reach::Melee,
                true,
            )];
            spec.multiattack = vec![0; extra_attack];
            spec.rage = Some(Rage {
                damage_bonus: if level >= 9 { 3 } else { 2 },
                uses: match level {
                    1..=2 => 2,
                    3..=5 => 3,
                    _ => 4,
                },
            });
            spec.reckless = level >= 2;
        }
        "rogue" => {
            // Dex main, Con 14, Wis 12; leather armour; rapier; Sneak Attack.
            spec.max_hp = hit_points(8, 2, level);
            spec.ac = 11 + main;
            spec.initiative = main;
            spec.saves = with_prof([0, main, 2, 1, 1, 0], [1, 3]);
            spec.medicine = 1;
            spec.attacks = vec![weapon(
                "rapier",
                prof + main,
                dice(1, 8, main),
                DamageType::Piercing,
                Reach::Melee,
                false,
            )];
            spec.multiattack = vec![0];
            spec.once_per_turn = Some(OncePerTurn {
                dice: dice(u32::from(level.div_ceil(2)), 6, 0),
                kind: DamageType::Piercing,
                uses: None,
            });
        }
        "wizard" => {
            // Int main, Dex 14, Con 14; mage armour (13 + Dex); fire bolt.
            spec.max_hp = hit_points(6, 2, level);
            spec.ac = 15;
            spec.initiative = 2;
            spec.saves = with_prof([-1, 2, 2, main, 1, 0], [3, 4]);
            spec.medicine = 1;
            let bolts = if level >= 5 { 2 } else { 1 };
            spec.attacks = vec![weapon(
                "fire bolt",
                prof + main,
                dice(bolts, 10, 0),
                DamageType::Fire,
                Reach::Ranged,
                false,
            )];
            spec.attacks[0].spell = true;
            spec.multiattack = vec![0];
        }
        "cleric" => {
            // Life domain: Wis main, Str 14, Con 14; chain mail and shield; mace;
            // healing word with Disciple of Life (+3 at 1st level), one per slot.
            spec.max_hp = hit_points(8, 2, level);
            spec.ac = 18;
            spec.initiative = 0;
            spec.saves = with_prof([2, 0, 2, 0, main, 1], [4, 5]);
            spec.medicine = main + prof;
            spec.attacks = vec![weapon(
                "mace",
                prof + 2,
                dice(1, 6, 2),
                DamageType::Bludgeoning,
                Reach::Melee,
                false,
            )];
            spec.multiattack = vec![0];
            spec.heal = Some(Heal {
                dice: dice(1, 4, main + 3),
                uses: full_caster_slots(level),
                bonus_action: true,
                target: HealTarget::Ally,
                spell: true,
            });
        }
        "paladin" => {
            // Str main, Con 14, Cha 14; chain mail and shield; longsword with
            // Dueling from level 2; Divine Smite (2d8) per slot; Lay on Hands
            // (5 × level HP, spent 5 at a time).
            spec.max_hp = hit_points(10, 2, level);
            spec.ac = 18;
            spec.initiative = 0;
            let aura = if level >= 6 { 2 } else { 0 };
            spec.saves = with_prof([main, 0, 2, 0, 0, 2], [4, 5]).map(|s| s + aura);
            spec.medicine = 0;
            let dueling = if level >= 2 { 2 } else { 0 };
            spec.attacks = vec![weapon(
                "longsword",
                prof + main,
                dice(1, 8, main + dueling),
                DamageType::Slashing,
                Reach::Melee,
                false,
            )];
            spec.multiattack = vec![0; extra_attack];
            let slots = half_caster_slots(level);
            if slots > 0 {
                spec.once_per_turn = Some(OncePerTurn {
                    dice: dice(2, 8, 0),
                    kind: DamageType::Radiant,
                    uses: Some(slots),
                });
            }
            spec.heal = Some(Heal {
                dice: dice(0, 1, 5),
                uses: level,
                bonus_action: false,
                target: HealTarget::Ally,
                spell: false,
            });
        }
        _ => return None,
    }
    Some(spec)
}

/// Every template name, e.g. for `woundsim list`.
pub fn names() -> Vec<String> {
    CLASSES
        .iter()
        .flat_map(|c| (1..=MAX_LEVEL).map(move |l| format!("{c}-{l}")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_builds_and_grows_with_level() {
        for class in CLASSES {
            let mut last_hp = 0;
            for level in 1..=MAX_LEVEL {
                let t = template(&format!("{class}-{level}")).unwrap();
                assert!(t.max_hp > last_hp, "{class}-{level}");
                last_hp = t.max_hp;
                assert!(!t.attacks.is_empty() && !t.multiattack.is_empty());
                assert!(t.is_pc);
            }
        }
        assert!(template("bard-3").is_none());
        assert!(template("fighter-0").is_none());
        assert_eq!(names().len(), 60);
    }

    #[test]
    fn class_table_values() {
        // Level 1: max hit die + Con; later levels: average + Con.
        assert_eq!(template("fighter-1").unwrap().max_hp, 12);
        assert_eq!(template("wizard-1").unwrap().max_hp, 8);
        assert_eq!(template("barbarian-5").unwrap().max_hp, 15 + 4 * 10);
        assert_eq!(proficiency(1), 2);
        assert_eq!(proficiency(5), 3);
        assert_eq!(proficiency(9), 4);
        let rogue = template("rogue-5").unwrap();
        assert_eq!(rogue.once_per_turn.unwrap().dice.count, 3);
        let fighter = template("fighter-5").unwrap();
        assert_eq!(fighter.attacks[0].to_hit, 3 + 4);
        assert_eq!(fighter.crit_range, 19);
        assert_eq!(template("paladin-1").unwrap().once_per_turn, None);
        assert_eq!(
            template("paladin-5").unwrap().once_per_turn.unwrap().uses,
            Some(6)
        );
        assert_eq!(template("cleric-5").unwrap().heal.unwrap().uses, 9);
        assert_eq!(template("wizard-5").unwrap().attacks[0].damage.count, 2);
    }
}
