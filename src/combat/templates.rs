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

use super::creature::{
    Ability, Attack, CreatureSpec, Heal, HealTarget, HitDice, OncePerTurn, Rage, Reach, Rider,
    Spellbook,
};

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
    /// (Agonizing Blast, Elemental Affinity).
    SpellDamageBonus {
        /// First level with it.
        from_level: u8,
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
    /// assert!(catalog.templates.template("fighter-21").is_none());
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
        let from = |first: u8| level >= first;
        let mut mods = self.modifiers;
        mods[self.main_ability as usize] = at(&p.main_ability_modifier, level);
        for feature in &self.features {
            if let Feature::AbilityBonus {
                from_level,
                ability,
                bonus,
            } = feature
            {
                if from(*from_level) {
                    mods[*ability as usize] += bonus;
                }
            }
        }
        let m = |a: Ability| mods[a as usize];
        let slots: u8 = match self.spellcasting {
            Spellcasting::None => 0,
            Spellcasting::Full => at(&p.full_caster_slots, level).iter().sum(),
            Spellcasting::Half => at(&p.half_caster_slots, level).iter().sum(),
        };
        let mut spec = CreatureSpec::blank(name, true, level);
        // A caster's slots for the spells a scenario gives it (`spells`);
        // the healing_word feature's bonus is Disciple of Life.
        let slot_table = match self.spellcasting {
            Spellcasting::None => None,
            Spellcasting::Full => Some(at(&p.full_caster_slots, level)),
            Spellcasting::Half => Some(at(&p.half_caster_slots, level)),
        };
        spec.spellbook = slot_table.map(|slots| Spellbook {
            spells: Vec::new(),
            slots,
            modifier: m(self.main_ability),
            disciple_of_life: self
                .features
                .iter()
                .any(|f| matches!(f, Feature::HealingWord { bonus, .. } if *bonus > 0)),
            diamonds: 0,
        });
        let con = m(Ability::Con);
        let hp = self.hit_die + con + (i32::from(level) - 1) * (self.hit_die / 2 + 1 + con);
        spec.max_hp = hp;
        spec.hit_dice = Some(HitDice {
            die: self.hit_die.clamp(1, 255) as u8,
            count: level,
            con: con.clamp(-128, 127) as i8,
        });
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
                        short_rest: true,
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
                        short_rest: false,
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
                        short_rest: false,
                    });
                }
                Feature::AuraOfProtection {
                    from_level,
                    save_bonus,
                } if from(*from_level) => {
                    saves = saves.map(|s| s + save_bonus);
                }
                Feature::ImprovedDivineSmite {
                    from_level,
                    dice,
                    kind,
                } if from(*from_level) => {
                    for a in spec.attacks.iter_mut() {
                        if a.reach == Reach::Melee && !a.spell {
                            a.rider = Some(Rider {
                                dice: *dice,
                                kind: *kind,
                                save: None,
                                spreads: false,
                            });
                        }
                    }
                }
                Feature::MartialArts { die } => {
                    for a in spec.attacks.iter_mut() {
                        if a.reach == Reach::Melee && !a.spell {
                            a.damage.sides = a.damage.sides.max(at(die, level));
                        }
                    }
                }
                Feature::SpeedBonus { feet } => spec.speed += at(feet, level),
                Feature::Evasion { from_level } => spec.evasion = from(*from_level),
                Feature::RelentlessRage { from_level } => {
                    spec.relentless_rage = from(*from_level);
                }
                Feature::AllSaves { from_level } if from(*from_level) => {
                    for (a, save) in saves.iter_mut().enumerate() {
                        if !self.saving_throws.iter().any(|&s| s as usize == a) {
                            *save += prof;
                        }
                    }
                }
                Feature::Archery {
                    from_level,
                    attack_bonus,
                } if from(*from_level) => {
                    for a in spec.attacks.iter_mut() {
                        if a.reach == Reach::Ranged && !a.spell {
                            a.to_hit += attack_bonus;
                        }
                    }
                }
                Feature::ExtraDamage {
                    from_level,
                    dice,
                    kind,
                } if from(*from_level) => {
                    spec.once_per_turn = Some(OncePerTurn {
                        dice: *dice,
                        kind: *kind,
                        uses: None,
                    });
                }
                Feature::HitPointsPerLevel { from_level, bonus } if from(*from_level) => {
                    spec.max_hp += bonus * (i32::from(level) - i32::from(*from_level) + 1);
                }
                Feature::SpellDamageBonus { from_level } if from(*from_level) => {
                    for a in spec.attacks.iter_mut().filter(|a| a.spell) {
                        a.damage.modifier += m(self.main_ability);
                    }
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

#[cfg(test)]
mod tests {
    //! Each template feature as the class table states it, on the shipped
    //! builds (the round loop's use of the values has its own clause tests).

    fn t(name: &str) -> crate::combat::creature::CreatureSpec {
        crate::fixtures::catalog().templates.template(name).unwrap()
    }

    #[test]
    fn fighters_attack_four_times_at_20_and_crit_on_18_from_15() {
        let counts: Vec<usize> = [4, 5, 10, 11, 19, 20]
            .map(|l| t(&format!("fighter-{l}")).multiattack.len())
            .to_vec();
        assert_eq!(counts, [1, 2, 2, 3, 3, 4]);
        assert_eq!(
            (t("fighter-14").crit_range, t("fighter-15").crit_range),
            (19, 18)
        );
    }

    #[test]
    fn improved_divine_smite_adds_1d8_radiant_to_melee_hits_from_11() {
        assert!(t("paladin-10").attacks[0].rider.is_none());
        let r = t("paladin-11").attacks[0].rider.unwrap();
        assert_eq!(
            (r.dice.to_string(), r.kind.name()),
            ("1d8".into(), "radiant")
        );
    }

    #[test]
    fn primal_champion_raises_strength_and_constitution_at_20() {
        let (b19, b20) = (t("barbarian-19"), t("barbarian-20"));
        assert_eq!(b20.attacks[0].to_hit - b19.attacks[0].to_hit, 2);
        assert_eq!(
            b20.attacks[0].damage.modifier - b19.attacks[0].damage.modifier,
            2
        );
        // 12 + 5 at 1, then 7 + 5 per level (Con +3) → Con +5 at 20: 12 + 5 + 19 × 12.
        assert_eq!(b20.max_hp, 12 + 5 + 19 * 12);
        assert_eq!(b20.rage.unwrap().damage_bonus, 4);
    }

    #[test]
    fn the_martial_arts_die_grows_and_the_monk_strikes_as_a_bonus_action() {
        let dice: Vec<String> = [1, 5, 11, 17]
            .map(|l| t(&format!("monk-{l}")).attacks[0].damage.to_string())
            .to_vec();
        assert_eq!(dice, ["1d4+3", "1d6+4", "1d8+5", "1d10+5"]);
        assert_eq!(
            (t("monk-4").multiattack.len(), t("monk-5").multiattack.len()),
            (2, 3)
        );
        // Unarmored Defense: 10 + Dex + Wis.
        assert_eq!(t("monk-1").ac, 10 + 3 + 2);
    }

    #[test]
    fn diamond_soul_makes_every_save_proficient() {
        let (m13, m14) = (t("monk-13"), t("monk-14"));
        let prof = 5;
        assert_eq!(m14.saves[0], m13.saves[0], "Str was proficient");
        assert_eq!(m14.saves[2] - m13.saves[2], prof, "Con becomes proficient");
    }

    #[test]
    fn the_ranger_shoots_with_archery_and_colossus_slayer() {
        let (r1, r3) = (t("ranger-1"), t("ranger-3"));
        assert_eq!(r1.attacks[0].to_hit, 2 + 3, "no fighting style at 1");
        assert_eq!(r3.attacks[0].to_hit, 2 + 3 + 2);
        assert!(r1.once_per_turn.is_none());
        let o = r3.once_per_turn.unwrap();
        assert_eq!((o.dice.to_string(), o.uses), ("1d8".into(), None));
        assert!(t("ranger-15").evasion && !t("ranger-14").evasion);
    }

    #[test]
    fn the_sorcerer_and_warlock_add_their_charisma_to_spell_damage() {
        assert_eq!(t("sorcerer-5").attacks[0].damage.to_string(), "2d10");
        assert_eq!(t("sorcerer-6").attacks[0].damage.to_string(), "2d10+4");
        // Draconic Resilience: +1 HP per level.
        assert_eq!(t("sorcerer-1").max_hp, 6 + 2 + 1);
        assert_eq!(t("sorcerer-1").ac, 13 + 2);
        let (w1, w2) = (t("warlock-1"), t("warlock-2"));
        assert_eq!(
            (
                w1.attacks[0].damage.to_string(),
                w2.attacks[0].damage.to_string()
            ),
            ("1d10".into(), "1d10+3".into())
        );
        let beams: Vec<usize> = [4, 5, 11, 17]
            .map(|l| t(&format!("warlock-{l}")).multiattack.len())
            .to_vec();
        assert_eq!(beams, [1, 2, 3, 4]);
    }

    #[test]
    fn bards_and_druids_heal_with_healing_word_per_slot() {
        let h = t("bard-14").heal.unwrap();
        assert_eq!(
            (h.dice.to_string(), h.uses, h.spell),
            ("1d4+5".into(), 4 + 3 + 3 + 3 + 2 + 1 + 1, true)
        );
        let d = t("druid-5");
        assert_eq!(d.attacks[0].damage.to_string(), "2d8");
        assert_eq!(d.heal.unwrap().uses, 4 + 3 + 2);
    }
}
