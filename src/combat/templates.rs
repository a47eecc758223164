//! PC templates as data: one build per class (`data/pc-templates.toml`,
//! parsed once by [`crate::scenario::data`]) turned into a creature for a
//! level. The SRD 5.1 tables every class shares ([`Progression`]:
//! proficiency bonus, spell slots, cantrip dice, the main ability's
//! modifier) and each class's build ([`ClassTemplate`]: hit die, ability
//! modifiers, proficiencies, armour, attacks, and the [`Feature`]s the round
//! loop models, each with its per-level values) are plain values; nothing
//! here names a class. Scenarios refer to a template as `fighter-5` and may
//! override any field.

use crate::dice::DiceExpr;
use crate::rules::damage::DamageType;

use super::creature::{Ability, Attack, CreatureSpec, Heal, HealTarget, OncePerTurn, Rage, Reach};

/// The SRD tables every class shares, by level (`[0]` is level 1).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Progression {
    /// Proficiency bonus by character level.
    pub proficiency_bonus: Vec<i32>,
    /// The main ability's modifier by level (the build's ability score
    /// increases).
    pub main_ability_modifier: Vec<i32>,
    /// Damage dice of a cantrip by character level (1, then 2 at 5th, ...).
    pub cantrip_dice: Vec<u32>,
    /// Spell slots of 1st to 9th level of a full caster, by class level.
    pub full_caster_slots: Vec<[u8; 9]>,
    /// Spell slots of a half caster, by class level.
    pub half_caster_slots: Vec<[u8; 9]>,
}

impl Progression {
    /// Spell slots of 1st to 9th level of a full caster of `level` (none
    /// at level 0; the last row beyond the table).
    pub fn full_caster_slots(&self, level: u8) -> [u8; 9] {
        match level {
            0 => [0; 9],
            l => self
                .full_caster_slots
                .get(usize::from(l) - 1)
                .or(self.full_caster_slots.last())
                .copied()
                .unwrap_or([0; 9]),
        }
    }
}

/// How a class casts spells: which slot table its level reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Spellcasting {
    /// No spell slots.
    #[default]
    None,
    /// The full-caster table.
    Full,
    /// The half-caster table.
    Half,
}

/// An attack of a template: the ability that adds to the attack roll (and
/// to a weapon's damage), the dice, and the kind of attack.
#[derive(Clone, Debug, PartialEq)]
pub struct TemplateAttack {
    /// Name, e.g. `longsword`.
    pub name: String,
    /// The ability of the attack roll (and of a weapon's damage).
    pub ability: Ability,
    /// Damage dice without modifier.
    pub damage: DiceExpr,
    /// Damage type.
    pub kind: DamageType,
    /// Melee or ranged.
    pub reach: Reach,
    /// Needs two hands.
    pub two_handed: bool,
    /// A spell attack (no ability modifier to damage).
    pub spell: bool,
    /// A cantrip: its dice grow with [`Progression::cantrip_dice`].
    pub cantrip: bool,
}

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
}

/// One class's build.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassTemplate {
    /// Class name, e.g. `fighter`.
    pub name: String,
    /// Templates exist for levels `1..=levels`.
    pub levels: u8,
    /// Hit die (10 for a d10).
    pub hit_die: i32,
    /// The main ability (its modifier follows the progression).
    pub main_ability: Ability,
    /// Ability modifiers in [`Ability`] order (the main one is replaced).
    pub modifiers: [i32; 6],
    /// Proficient saving throws.
    pub saving_throws: Vec<Ability>,
    /// Proficient in Wisdom (Medicine).
    pub medicine_proficiency: bool,
    /// Armour class: a base plus these abilities' modifiers.
    pub armor_class: (i32, Vec<Ability>),
    /// Spell-slot table.
    pub spellcasting: Spellcasting,
    /// Attacks, in order of preference.
    pub attacks: Vec<TemplateAttack>,
    /// Features.
    pub features: Vec<Feature>,
}

/// Every class's build and the shared tables.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Templates {
    /// The shared tables.
    pub progression: Progression,
    /// The classes, in file order.
    pub classes: Vec<ClassTemplate>,
}

/// `count` dice of `sides` faces plus `modifier`.
fn dice(count: u32, sides: u32, modifier: i32) -> DiceExpr {
    DiceExpr {
        count,
        sides,
        modifier,
    }
}

/// The value of a by-level table at `level` (tables reach every level a
/// class has, the parser checks it).
fn at<T: Copy + Default>(table: &[T], level: u8) -> T {
    table
        .get(usize::from(level) - 1)
        .copied()
        .unwrap_or_default()
}

impl Templates {
    /// The template for `name` (e.g. `fighter-5`), or `None` if there is none.
    ///
    /// ```
    /// let catalog = woundsim::scenario::data::builtin_catalog().unwrap();
    /// let f = catalog.templates.template("fighter-5").unwrap();
    /// assert_eq!(f.max_hp, 44);
    /// assert_eq!(f.multiattack.len(), 2); // Extra Attack
    /// assert!(catalog.templates.template("fighter-11").is_none());
    /// ```
    pub fn template(&self, name: &str) -> Option<CreatureSpec> {
        let (class, level) = name.rsplit_once('-')?;
        let class = self.classes.iter().find(|c| c.name == class)?;
        let level: u8 = level
            .parse()
            .ok()
            .filter(|l| (1..=class.levels).contains(l))?;
        Some(class.creature(name, level, &self.progression))
    }

    /// The class names, in file order.
    pub fn classes(&self) -> Vec<&str> {
        self.classes.iter().map(|c| c.name.as_str()).collect()
    }

    /// Every template name, e.g. for `woundsim list`.
    pub fn names(&self) -> Vec<String> {
        self.classes
            .iter()
            .flat_map(|c| (1..=c.levels).map(move |l| format!("{}-{l}", c.name)))
            .collect()
    }

    /// The highest level any class has a template for.
    pub fn max_level(&self) -> u8 {
        self.classes.iter().map(|c| c.levels).max().unwrap_or(0)
    }
}

impl ClassTemplate {
    /// The creature of this build at `level`, named `name`.
    pub fn creature(&self, name: &str, level: u8, p: &Progression) -> CreatureSpec {
        let prof = at(&p.proficiency_bonus, level);
        let mut mods = self.modifiers;
        mods[self.main_ability as usize] = at(&p.main_ability_modifier, level);
        let m = |a: Ability| mods[a as usize];
        let from = |first: u8| level >= first;
        let slots: u8 = match self.spellcasting {
            Spellcasting::None => 0,
            Spellcasting::Full => at(&p.full_caster_slots, level).iter().sum(),
            Spellcasting::Half => at(&p.half_caster_slots, level).iter().sum(),
        };
        let mut spec = CreatureSpec::blank(name, true, level);
        let con = m(Ability::Con);
        let hp = self.hit_die + con + (i32::from(level) - 1) * (self.hit_die / 2 + 1 + con);
        spec.max_hp = hp;
        spec.ac = self.armor_class.0 + self.armor_class.1.iter().map(|&a| m(a)).sum::<i32>();
        spec.initiative = m(Ability::Dex);
        spec.medicine = m(Ability::Wis) + if self.medicine_proficiency { prof } else { 0 };
        let mut saves = mods;
        for &a in &self.saving_throws {
            saves[a as usize] += prof;
        }
        spec.attacks = self
            .attacks
            .iter()
            .map(|a| {
                let count = if a.cantrip {
                    a.damage.count * at(&p.cantrip_dice, level)
                } else {
                    a.damage.count
                };
                let modifier = if a.spell { 0 } else { m(a.ability) };
                Attack {
                    name: a.name.clone(),
                    to_hit: prof + m(a.ability),
                    damage: dice(count, a.damage.sides, a.damage.modifier + modifier),
                    kind: a.kind,
                    reach: a.reach,
                    two_handed: a.two_handed,
                    rider: None,
                    spell: a.spell,
                }
            })
            .collect();
        let mut attacks_per_action = 1;
        for feature in &self.features {
            match feature {
                Feature::Dueling {
                    from_level,
                    damage_bonus,
                } if from(*from_level) => {
                    for a in spec.attacks.iter_mut() {
                        if a.reach == Reach::Melee && !a.two_handed && !a.spell {
                            a.damage.modifier += damage_bonus;
                        }
                    }
                }
                Feature::ExtraAttack { levels } => {
                    attacks_per_action += levels.iter().filter(|&&l| from(l)).count();
                }
                Feature::ImprovedCritical { levels } => {
                    spec.crit_range -= levels.iter().filter(|&&l| from(l)).count() as u8;
                }
                Feature::SecondWind { from_level, dice } if from(*from_level) => {
                    spec.heal = Some(Heal {
                        dice: DiceExpr {
                            modifier: dice.modifier + i32::from(level),
                            ..*dice
                        },
                        uses: 1,
                        bonus_action: true,
                        target: HealTarget::SelfOnly,
                        spell: false,
                    });
                }
                Feature::Rage { uses, damage_bonus } => {
                    spec.rage = Some(Rage {
                        damage_bonus: at(damage_bonus, level),
                        uses: at(uses, level),
                    });
                }
                Feature::RecklessAttack { from_level } => spec.reckless = from(*from_level),
                Feature::SneakAttack { d6, kind } => {
                    spec.once_per_turn = Some(OncePerTurn {
                        dice: dice(at(d6, level), 6, 0),
                        kind: *kind,
                        uses: None,
                    });
                }
                Feature::DivineSmite {
                    from_level,
                    dice,
                    kind,
                } if from(*from_level) && slots > 0 => {
                    spec.once_per_turn = Some(OncePerTurn {
                        dice: *dice,
                        kind: *kind,
                        uses: Some(slots),
                    });
                }
                Feature::LayOnHands {
                    from_level,
                    hp_per_use,
                } if from(*from_level) => {
                    spec.heal = Some(Heal {
                        dice: DiceExpr::constant(*hp_per_use),
                        // A pool of 5 × level HP, spent `hp_per_use` at a time.
                        uses: (5 * i32::from(level) / (*hp_per_use).max(1)) as u8,
                        bonus_action: false,
                        target: HealTarget::Ally,
                        spell: false,
                    });
                }
                Feature::HealingWord {
                    from_level,
                    dice,
                    bonus,
                } if from(*from_level) => {
                    spec.heal = Some(Heal {
                        dice: DiceExpr {
                            modifier: dice.modifier + m(self.main_ability) + bonus,
                            ..*dice
                        },
                        uses: slots,
                        bonus_action: true,
                        target: HealTarget::Ally,
                        spell: true,
                    });
                }
                Feature::AuraOfProtection {
                    from_level,
                    save_bonus,
                } if from(*from_level) => {
                    saves = saves.map(|s| s + save_bonus);
                }
                _ => {}
            }
        }
        spec.saves = saves;
        spec.multiattack = if spec.attacks.is_empty() {
            Vec::new()
        } else {
            vec![0; attacks_per_action]
        };
        spec
    }
}
