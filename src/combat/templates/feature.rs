//! The class features a template models ([`Feature`]), each with its
//! per-level values, and what each does to the creature of a level. A
//! feature changes one part of the creature: its attacks (fighting styles,
//! Martial Arts, riders), its action and once-per-turn damage (Extra
//! Attack, Rage, Sneak Attack, ...), its healing (Second Wind, Lay on
//! Hands, healing word) or its defences (saves, Evasion, speed, hit
//! points); one function per part keeps each short and the part it touches
//! plain. Features apply in file order; a later one of the same part (two
//! healing features) replaces an earlier one.

use crate::dice::DiceExpr;
use crate::rules::damage::DamageType;

use super::{Build, Level, at};
use crate::combat::creature::{
    Ability, Attack, CreatureSpec, Heal, HealTarget, OncePerTurn, Rage, Reach, Rider,
};

/// A class feature the round loop models, with its per-level values
/// (`[0]` is level 1).
#[derive(Clone, Debug, PartialEq)]
pub enum Feature {
    /// Fighting style: a bonus to the damage of one-handed melee weapons.
    Dueling {
        /// First level with it.
        from_level: u8,
        /// Damage bonus.
        damage_bonus: i32,
    },
    /// Extra Attack: one more attack in the Attack action at each level.
    ExtraAttack {
        /// Levels that add an attack.
        levels: Vec<u8>,
    },
    /// Improved Critical and its successors: the critical range widens by
    /// one at each level.
    ImprovedCritical {
        /// Levels that widen it.
        levels: Vec<u8>,
    },
    /// Second Wind: the dice plus the level, as a bonus action, once.
    SecondWind {
        /// First level with it.
        from_level: u8,
        /// Dice healed (the level is added).
        dice: DiceExpr,
    },
    /// Rage: uses and damage bonus by level.
    Rage {
        /// Rages by level.
        uses: Vec<u8>,
        /// Rage damage by level.
        damage_bonus: Vec<i32>,
    },
    /// Reckless Attack.
    RecklessAttack {
        /// First level with it.
        from_level: u8,
    },
    /// Sneak Attack: d6s by level, once per turn.
    SneakAttack {
        /// Number of d6 by level.
        d6: Vec<u32>,
        /// Damage type.
        kind: DamageType,
    },
    /// Divine Smite: extra dice on a hit, once per turn, one spell slot each.
    DivineSmite {
        /// First level with it.
        from_level: u8,
        /// Extra dice.
        dice: DiceExpr,
        /// Damage type.
        kind: DamageType,
    },
    /// Lay on Hands: a pool of 5 × level HP, spent `hp_per_use` at a time.
    LayOnHands {
        /// First level with it.
        from_level: u8,
        /// HP per use.
        hp_per_use: i32,
    },
    /// Healing word: the dice plus the main ability's modifier plus a bonus
    /// (Disciple of Life), as a bonus action, one per spell slot.
    HealingWord {
        /// First level with it.
        from_level: u8,
        /// Dice healed.
        dice: DiceExpr,
        /// Flat bonus.
        bonus: i32,
    },
    /// Aura of Protection: a bonus to every saving throw.
    AuraOfProtection {
        /// First level with it.
        from_level: u8,
        /// The bonus.
        save_bonus: i32,
    },
    /// Improved Divine Smite: extra dice on every melee weapon hit (a rider
    /// of each melee weapon attack).
    ImprovedDivineSmite {
        /// First level with it.
        from_level: u8,
        /// Extra dice.
        dice: DiceExpr,
        /// Damage type.
        kind: DamageType,
    },
    /// An ability score increase beyond the main ability's (Primal
    /// Champion): a bonus to one ability's modifier.
    AbilityBonus {
        /// First level with it.
        from_level: u8,
        /// The ability.
        ability: Ability,
        /// Bonus to its modifier.
        bonus: i32,
    },
    /// Martial Arts: melee weapon attacks use this die by level (sides).
    MartialArts {
        /// Die sides by level.
        die: Vec<u32>,
    },
    /// Unarmored Movement (monk), Fast Movement (barbarian): feet added to
    /// the speed, by level (used with positions).
    SpeedBonus {
        /// Feet by level.
        feet: Vec<i32>,
    },
    /// Evasion: no damage on a successful Dexterity save for half, half on
    /// a failed one.
    Evasion {
        /// First level with it.
        from_level: u8,
    },
    /// Relentless Rage: a Constitution save to stay at 1 HP while raging.
    RelentlessRage {
        /// First level with it.
        from_level: u8,
    },
    /// Proficiency in every saving throw (Diamond Soul).
    AllSaves {
        /// First level with it.
        from_level: u8,
    },
    /// Archery fighting style: a bonus to ranged weapon attack rolls.
    Archery {
        /// First level with it.
        from_level: u8,
        /// Attack-roll bonus.
        attack_bonus: i32,
    },
    /// Extra dice once per turn on a hit, every turn (Colossus Slayer,
    /// the target assumed wounded).
    ExtraDamage {
        /// First level with it.
        from_level: u8,
        /// Extra dice.
        dice: DiceExpr,
        /// Damage type.
        kind: DamageType,
    },
    /// Extra hit points per class level (Draconic Resilience).
    HitPointsPerLevel {
        /// First level with it.
        from_level: u8,
        /// HP per level.
        bonus: i32,
    },
    /// The main ability's modifier added to spell attacks' damage
    /// (Agonizing Blast, Elemental Affinity), and to one damage roll of
    /// each levelled spell dealing `kind` (Elemental Affinity: "one damage
    /// roll of a spell you cast that deals that type").
    SpellDamageBonus {
        /// First level with it.
        from_level: u8,
        /// The damage type of the levelled spells it adds to (`None`:
        /// spell attacks of the template only).
        kind: Option<DamageType>,
    },
}

impl Feature {
    /// The bonus this feature adds at `level` to a levelled spell dealing
    /// damage of `kinds`, with the main ability's `modifier`.
    pub(super) fn spell_damage_bonus(&self, level: u8, kinds: &[DamageType], modifier: i32) -> i32 {
        match self {
            Feature::SpellDamageBonus {
                from_level,
                kind: Some(kind),
            } if level >= *from_level && kinds.contains(kind) => modifier,
            _ => 0,
        }
    }

    /// The bonus to one ability's modifier this feature gives at `level`
    /// (Primal Champion), read before anything else of the level.
    pub(super) fn ability_bonus(&self, level: u8) -> Option<(Ability, i32)> {
        match self {
            Feature::AbilityBonus {
                from_level,
                ability,
                bonus,
            } if level >= *from_level => Some((*ability, *bonus)),
            _ => None,
        }
    }

    /// Applies the feature to the creature of level `l` being built.
    pub(super) fn apply(&self, b: &mut Build, l: &Level) {
        self.apply_to_attacks(&mut b.spec.attacks, l);
        self.apply_to_actions(b, l);
        self.apply_healing(&mut b.spec, l);
        self.apply_to_defences(b, l);
    }

    /// Fighting styles, Martial Arts, Improved Divine Smite and spell
    /// damage: each changes the attacks it fits.
    fn apply_to_attacks(&self, attacks: &mut [Attack], l: &Level) {
        let melee_weapons = |a: &&mut Attack| a.reach == Reach::Melee && !a.spell;
        match self {
            Feature::Dueling {
                from_level,
                damage_bonus,
            } if l.has(*from_level) => {
                for a in attacks.iter_mut().filter(melee_weapons) {
                    if !a.two_handed {
                        a.damage.modifier += damage_bonus;
                    }
                }
            }
            Feature::ImprovedDivineSmite {
                from_level,
                dice,
                kind,
            } if l.has(*from_level) => {
                for a in attacks.iter_mut().filter(melee_weapons) {
                    a.rider = Some(Rider {
                        dice: *dice,
                        kind: *kind,
                        save: None,
                        spreads: false,
                    });
                }
            }
            Feature::MartialArts { die } => {
                for a in attacks.iter_mut().filter(melee_weapons) {
                    a.damage.sides = a.damage.sides.max(at(die, l.level));
                }
            }
            Feature::Archery {
                from_level,
                attack_bonus,
            } if l.has(*from_level) => {
                for a in attacks.iter_mut() {
                    if a.reach == Reach::Ranged && !a.spell {
                        a.to_hit += attack_bonus;
                    }
                }
            }
            Feature::SpellDamageBonus { from_level, .. } if l.has(*from_level) => {
                for a in attacks.iter_mut().filter(|a| a.spell) {
                    a.damage.modifier += l.main_modifier;
                }
            }
            _ => {}
        }
    }

    /// Extra Attack, the critical range, Rage and Reckless Attack, and the
    /// once-per-turn damage (Sneak Attack, Divine Smite, Colossus Slayer).
    fn apply_to_actions(&self, b: &mut Build, l: &Level) {
        let spec = &mut b.spec;
        match self {
            Feature::ExtraAttack { levels } => b.attacks_per_action += l.reached(levels),
            Feature::ImprovedCritical { levels } => spec.crit_range -= l.reached(levels) as u8,
            Feature::Rage { uses, damage_bonus } => {
                spec.rage = Some(Rage {
                    damage_bonus: at(damage_bonus, l.level),
                    uses: at(uses, l.level),
                });
            }
            Feature::RecklessAttack { from_level } => spec.reckless = l.has(*from_level),
            Feature::SneakAttack { d6, kind } => {
                spec.once_per_turn = Some(OncePerTurn {
                    dice: super::dice(at(d6, l.level), 6, 0),
                    kind: *kind,
                    uses: None,
                });
            }
            Feature::DivineSmite {
                from_level,
                dice,
                kind,
            } if l.has(*from_level) && l.slots > 0 => {
                spec.once_per_turn = Some(OncePerTurn {
                    dice: *dice,
                    kind: *kind,
                    uses: Some(l.slots),
                });
            }
            Feature::ExtraDamage {
                from_level,
                dice,
                kind,
            } if l.has(*from_level) => {
                spec.once_per_turn = Some(OncePerTurn {
                    dice: *dice,
                    kind: *kind,
                    uses: None,
                });
            }
            _ => {}
        }
    }

    /// Second Wind, Lay on Hands and healing word: the creature's healing
    /// feature.
    fn apply_healing(&self, spec: &mut CreatureSpec, l: &Level) {
        let heal = match self {
            Feature::SecondWind { from_level, dice } if l.has(*from_level) => Heal {
                dice: DiceExpr {
                    modifier: dice.modifier + i32::from(l.level),
                    ..*dice
                },
                uses: 1,
                bonus_action: true,
                target: HealTarget::SelfOnly,
                spell: false,
                short_rest: true,
            },
            Feature::LayOnHands {
                from_level,
                hp_per_use,
            } if l.has(*from_level) => Heal {
                dice: DiceExpr::constant(*hp_per_use),
                // A pool of 5 × level HP, spent `hp_per_use` at a time.
                uses: (5 * i32::from(l.level) / (*hp_per_use).max(1)) as u8,
                bonus_action: false,
                target: HealTarget::Ally,
                spell: false,
                short_rest: false,
            },
            Feature::HealingWord {
                from_level,
                dice,
                bonus,
            } if l.has(*from_level) => Heal {
                dice: DiceExpr {
                    modifier: dice.modifier + l.main_modifier + bonus,
                    ..*dice
                },
                uses: l.slots,
                bonus_action: true,
                target: HealTarget::Ally,
                spell: true,
                short_rest: false,
            },
            _ => return,
        };
        spec.heal = Some(heal);
    }

    /// Saving throws (Aura of Protection, Diamond Soul), Evasion, Relentless
    /// Rage, speed and extra hit points.
    fn apply_to_defences(&self, b: &mut Build, l: &Level) {
        let spec = &mut b.spec;
        match self {
            Feature::AuraOfProtection {
                from_level,
                save_bonus,
            } if l.has(*from_level) => b.saves = b.saves.map(|s| s + save_bonus),
            Feature::AllSaves { from_level } if l.has(*from_level) => {
                for (a, save) in b.saves.iter_mut().enumerate() {
                    if !l.proficient_saves.iter().any(|&s| s as usize == a) {
                        *save += l.proficiency;
                    }
                }
            }
            Feature::Evasion { from_level } => spec.evasion = l.has(*from_level),
            Feature::RelentlessRage { from_level } => spec.relentless_rage = l.has(*from_level),
            Feature::SpeedBonus { feet } => spec.speed += at(feet, l.level),
            Feature::HitPointsPerLevel { from_level, bonus } if l.has(*from_level) => {
                spec.max_hp += bonus * (i32::from(l.level) - i32::from(*from_level) + 1);
            }
            _ => {}
        }
    }
}
