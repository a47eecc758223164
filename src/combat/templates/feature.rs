//! The class features a template models ([`Feature`]), each with its
//! per-level values, and what each does to the creature of a level. A
//! feature changes one part of the creature: its attacks (fighting styles,
//! Martial Arts, riders), its action and once-per-turn damage (Extra
//! Attack, Rage, Sneak Attack, ...), its healing (Second Wind, Lay on
//! Hands, healing word) or its defences (saves, Evasion, speed, hit
//! points), or it is one of the features the loop reads from
//! [`ClassFeatures`] (Action Surge, Indomitable, Uncanny Dodge, Brutal
//! Critical, Stunning Strike, Deflect Missiles, Aura of Protection for
//! allies, Bardic Inspiration, Preserve Life, Quickened Spell); one function per part keeps
//! each short and the part it touches plain. Features apply in file order; a later one of the same part (two
//! healing features) replaces an earlier one.

use crate::dice::DiceExpr;
use crate::rules::damage::DamageType;

use super::{Build, Level, at};
use crate::combat::creature::{
    Ability, Attack, ClassFeatures, CreatureSpec, Heal, HealTarget, OncePerTurn, Rage, Reach, Rider,
};

/// *Mage armor*'s base armour class (SRD 5.1: 13 + the Dexterity
/// modifier), Armor of Shadows' armour.
pub const MAGE_ARMOR_BASE: i32 = 13;

/// The feet Repelling Blast pushes a creature (SRD 5.1, Eldritch
/// Invocations: "up to 10 feet away from you").
pub const REPELLING_BLAST_FEET: i32 = 10;

/// A Wild Shape form of a template from a level on.
#[derive(Clone, Debug, PartialEq)]
pub struct WildShapeForm {
    /// First level with it.
    pub from_level: u8,
    /// The beast's bestiary entry (`giant-hyena`).
    pub form: String,
}

impl Feature {
    /// Wild Shape's form at `level`: the latest form reached.
    pub fn wild_shape_form(&self, level: u8) -> Option<&str> {
        match self {
            Feature::WildShape { forms, .. } => forms
                .iter()
                .rev()
                .find(|f| level >= f.from_level)
                .map(|f| f.form.as_str()),
            _ => None,
        }
    }
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
    /// Aura of Protection: a bonus to every saving throw of its own and of
    /// its allies within the aura while it is conscious.
    AuraOfProtection {
        /// First level with it.
        from_level: u8,
        /// The bonus.
        save_bonus: i32,
        /// The aura's reach by level, feet (10, 30 from 18).
        feet: Vec<i32>,
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
    /// Action Surge: one more action on its turn, uses per short rest by
    /// level (0 before it has it).
    ActionSurge {
        /// Uses by level.
        uses: Vec<u8>,
    },
    /// Indomitable: rerolls of a failed saving throw per long rest, by
    /// level.
    Indomitable {
        /// Uses by level.
        uses: Vec<u8>,
    },
    /// Uncanny Dodge: its reaction halves the damage of an attack that
    /// hits it.
    UncannyDodge {
        /// First level with it.
        from_level: u8,
    },
    /// Brutal Critical: one more weapon damage die on a melee critical hit
    /// at each level.
    BrutalCritical {
        /// Levels that add a die.
        levels: Vec<u8>,
    },
    /// Stunning Strike: 1 ki on a melee weapon hit, the target saves (Con,
    /// DC 8 + proficiency + the ability's modifier) or is stunned until the
    /// end of its next turn; ki points by level (per short rest).
    StunningStrike {
        /// First level with it.
        from_level: u8,
        /// Ki points by level (the class table's column).
        ki: Vec<u8>,
        /// The ability of the DC (Wisdom).
        ability: Ability,
    },
    /// Deflect Missiles: its reaction reduces a ranged weapon attack's
    /// damage by the dice plus its Dexterity modifier plus its level.
    DeflectMissiles {
        /// First level with it.
        from_level: u8,
        /// The dice (1d10).
        dice: DiceExpr,
    },
    /// Bardic Inspiration: a bonus action giving an ally a die to add to an
    /// attack roll; uses = the main ability's modifier (at least 1) per
    /// long rest, and per short rest from `short_rest_from` (Font of
    /// Inspiration).
    BardicInspiration {
        /// The die's sides by level.
        die: Vec<u32>,
        /// First level at which a short rest restores the uses.
        short_rest_from: u8,
    },
    /// Channel Divinity: Preserve Life: an action restoring `hp_per_level`
    /// × level HP among its allies, none above half its maximum; uses per
    /// short rest by level.
    PreserveLife {
        /// Uses by level (0 before it has it).
        uses: Vec<u8>,
        /// Hit points per level of the pool (5).
        hp_per_level: i32,
    },
    /// Metamagic: Quickened Spell: 2 sorcery points turn a spell with a
    /// casting time of an action into a bonus action; sorcery points by
    /// level (Font of Magic, per long rest), spent on nothing else.
    QuickenedSpell {
        /// First level with it (Metamagic).
        from_level: u8,
        /// Sorcery points by level (the class table's column).
        points: Vec<u8>,
    },
    /// Empowered Evocation (School of Evocation): the main modifier added
    /// to one damage roll of each evocation spell it casts, cantrips
    /// included (its template cantrip attack when that is an evocation).
    EmpoweredEvocation {
        /// First level with it.
        from_level: u8,
    },
    /// Dark One's Blessing (the Fiend): temporary hit points of the main
    /// modifier plus the level (at least 1) on reducing a hostile creature
    /// to 0 HP.
    DarkOnesBlessing {
        /// First level with it.
        from_level: u8,
    },
    /// Armor of Shadows (an Eldritch Invocation): *mage armor* on itself at
    /// will, an armour class of 13 + its Dexterity modifier (plus a
    /// shield's part) when that beats its armour's.
    ArmorOfShadows {
        /// First level with it.
        from_level: u8,
    },
    /// Fiendish Vigor (an Eldritch Invocation): *false life* at will as a
    /// 1st-level spell, cast before each fight (1d4 + 4 temporary hit
    /// points).
    FiendishVigor {
        /// First level with it.
        from_level: u8,
    },
    /// Repelling Blast (an Eldritch Invocation): a hit of its spell attack
    /// (*eldritch blast*) pushes a Large or smaller creature 10 feet away
    /// (with positions).
    RepellingBlast {
        /// First level with it.
        from_level: u8,
    },
    /// Wild Shape: uses per short rest, and the beast it becomes from each
    /// level (slugs of bestiary entries, `crate::combat::wild_shape` says
    /// which it may be).
    WildShape {
        /// Uses per short rest.
        uses: u8,
        /// The forms, each from its level, in rising order.
        forms: Vec<WildShapeForm>,
    },
    /// Channel Divinity: Turn Undead: an action, each undead within 30 ft
    /// saves (Wis, the spell save DC) or is turned until it takes damage;
    /// from `destroy_from` (Destroy Undead) one of the challenge rating
    /// by level or lower is destroyed instead. Uses: Preserve Life's.
    TurnUndead {
        /// First level with it.
        from_level: u8,
        /// First level with Destroy Undead.
        destroy_from: u8,
        /// Destroy Undead's challenge rating by level.
        destroy_cr: Vec<f32>,
    },
}

impl Feature {
    /// The bonus this feature adds at `level` to `spell`'s damage, with
    /// the main ability's `modifier`: Elemental Affinity to a levelled spell
    /// of its damage type, Empowered Evocation to an evocation.
    pub(super) fn spell_damage_bonus(
        &self,
        level: u8,
        spell: &crate::combat::spell::SpellSpec,
        modifier: i32,
    ) -> i32 {
        match self {
            Feature::SpellDamageBonus {
                from_level,
                kind: Some(kind),
            } if level >= *from_level
                && spell.level > 0
                && spell.damage.iter().any(|d| d.kind == *kind) =>
            {
                modifier
            }
            Feature::EmpoweredEvocation { from_level }
                if level >= *from_level && spell.school == "evocation" =>
            {
                modifier
            }
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
        self.apply_class_features(&mut b.spec.class_features, l);
    }

    /// Action Surge, Indomitable, Uncanny Dodge, Brutal Critical, Stunning
    /// Strike, Deflect Missiles, the aura for allies, Bardic Inspiration
    /// and Preserve Life: the values the round loop's
    /// `encounter/features.rs` reads.
    fn apply_class_features(&self, c: &mut ClassFeatures, l: &Level) {
        let byte = |n: i32| n.clamp(0, 255) as u8;
        match self {
            Feature::ActionSurge { uses } => c.action_surge = at(uses, l.level),
            Feature::Indomitable { uses } => c.indomitable = at(uses, l.level),
            Feature::UncannyDodge { from_level } => c.uncanny_dodge = l.has(*from_level),
            Feature::BrutalCritical { levels } => c.brutal_critical = l.reached(levels) as u8,
            Feature::StunningStrike {
                from_level,
                ki,
                ability,
            } if l.has(*from_level) => {
                c.ki = at(ki, l.level);
                c.stun_dc = 8 + l.proficiency + l.modifier(*ability);
            }
            Feature::DeflectMissiles { from_level, dice } if l.has(*from_level) => {
                c.deflect_missiles = Some(DiceExpr {
                    modifier: dice.modifier + l.modifier(Ability::Dex) + i32::from(l.level),
                    ..*dice
                });
            }
            Feature::AuraOfProtection {
                from_level,
                save_bonus,
                feet,
            } if l.has(*from_level) => {
                c.aura = *save_bonus;
                c.aura_feet = at(feet, l.level);
            }
            Feature::BardicInspiration {
                die,
                short_rest_from,
            } => {
                c.inspiration_die = byte(at(die, l.level) as i32);
                c.inspiration_uses = byte(l.main_modifier.max(1));
                c.inspiration_short_rest = l.has(*short_rest_from);
            }
            Feature::PreserveLife { uses, hp_per_level } => {
                c.preserve_life = at(uses, l.level);
                c.preserve_life_hp = hp_per_level * i32::from(l.level);
            }
            Feature::QuickenedSpell { from_level, points } if l.has(*from_level) => {
                c.sorcery_points = at(points, l.level);
            }
            Feature::DarkOnesBlessing { from_level } if l.has(*from_level) => {
                c.dark_ones_blessing = (l.main_modifier + i32::from(l.level)).max(1);
            }
            Feature::FiendishVigor { from_level } => c.fiendish_vigor = l.has(*from_level),
            Feature::WildShape { uses, .. } if self.wild_shape_form(l.level).is_some() => {
                c.wild_shape = *uses;
            }
            Feature::RepellingBlast { from_level } if l.has(*from_level) => {
                c.repel_feet = REPELLING_BLAST_FEET;
            }
            Feature::TurnUndead {
                from_level,
                destroy_from,
                destroy_cr,
            } if l.has(*from_level) => {
                c.turn_undead = true;
                c.turn_dc = 8 + l.proficiency + l.main_modifier;
                c.destroy_cr = l.has(*destroy_from).then(|| at(destroy_cr, l.level));
            }
            _ => {}
        }
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
                ..
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
            Feature::ArmorOfShadows { from_level } if l.has(*from_level) => {
                spec.ac = spec
                    .ac
                    .max(MAGE_ARMOR_BASE + l.modifier(Ability::Dex) + spec.shield_ac);
            }
            Feature::HitPointsPerLevel { from_level, bonus } if l.has(*from_level) => {
                spec.max_hp += bonus * (i32::from(l.level) - i32::from(*from_level) + 1);
            }
            _ => {}
        }
    }
}
