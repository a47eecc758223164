//! Creatures as data: hit points, armour class, saves, actions and the few
//! features the round loop understands (SRD 5.1). Values here are validated
//! model values; the scenario layer builds them from the bestiary, the PC
//! templates and per-scenario overrides.

use crate::combat::spell::KnownSpell;
use crate::dice::DiceExpr;
use crate::rules::damage::{DamageModifiers, DamageType, Size};

pub use super::ability::{Ability, Reach};

/// Extra damage an attack deals on a hit, with an optional saving throw for
/// half (e.g. a wyvern's stinger: 7d6 poison, DC 15 Constitution for half).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rider {
    /// Damage dice (doubled on a critical hit).
    pub dice: DiceExpr,
    /// Its type.
    pub kind: DamageType,
    /// A save for half damage: ability and DC.
    pub save: Option<(Ability, i32)>,
    /// It is a spreading venom (docs/combat.md, "Spreading venom"; our
    /// extension): it poisons a limb and strikes later, unless the limb is
    /// cut off first.
    pub spreads: bool,
}

/// A hit's saving throw against a condition that lasts until the end of
/// the target's next turn (SRD 5.2 ghoul's and ghast's Claw: "Constitution
/// Saving Throw: DC 10. Failure: The target has the Paralyzed condition
/// until the end of its next turn").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HitCondition {
    /// The save's ability.
    pub ability: Ability,
    /// Its DC.
    pub dc: i32,
    /// The condition on a failed save.
    pub condition: crate::combat::spell::Condition,
}

/// One attack.
#[derive(Clone, Debug, PartialEq)]
pub struct Attack {
    /// Name, e.g. `longsword`.
    pub name: String,
    /// Attack bonus added to the d20.
    pub to_hit: i32,
    /// Damage dice and modifier (dice doubled on a critical hit).
    pub damage: DiceExpr,
    /// Damage type.
    pub kind: DamageType,
    /// Melee or ranged.
    pub reach: Reach,
    /// Needs two hands (a lost or broken arm forces another attack).
    pub two_handed: bool,
    /// Extra damage on a hit.
    pub rider: Option<Rider>,
    /// A hit knocks a target of this size or smaller prone ("If the target
    /// is a Large or smaller creature, it has the Prone condition").
    pub knocks_prone: Option<crate::rules::damage::Size>,
    /// A hit poisons the target ("the target has the Poisoned condition
    /// until the start of the wyvern's next turn"): until the end of the
    /// attacker's next turn, which covers the target's next turn whichever
    /// of the statblocks' wordings it is.
    pub poisons_on_hit: bool,
    /// A hit's save against a condition until the end of the target's next
    /// turn ([`HitCondition`]).
    pub hit_condition: Option<HitCondition>,
    /// A hit grapples the target ("it has the Grappled condition (escape
    /// DC 13)"), perhaps restraining it too (`encounter/grapple.rs`).
    pub grapples: Option<Grapple>,
    /// It can't target a creature its attacker grapples (SRD 5.2
    /// tyrannosaurus rex's and giant crocodile's Bite: "While Grappled,
    /// the target ... can't be targeted by the monster's Tail").
    pub spares_grappled: bool,
    /// A charge: more on a hit right after a move toward the target
    /// (positions only).
    pub charge: Option<Charge>,
    /// Its roll has Advantage against some targets ("with Advantage if the
    /// target is Grappled by the ankheg").
    pub advantage: Option<AttackAdvantage>,
    /// Its damage when a creature is Bloodied (at or below half its hit
    /// point maximum): "or 3 (1d4) Piercing damage if the swarm is
    /// Bloodied", "... if the target is Bloodied".
    pub bloodied: Option<BloodiedDamage>,
    /// Extra damage on a hit whose attack roll had Advantage ("plus 2
    /// (1d4) Slashing damage if the attack roll had Advantage": the SRD
    /// 5.2 goblins); dice doubled on a critical hit. Advantage cancelled by
    /// Disadvantage is no Advantage.
    pub advantage_damage: Option<(DiceExpr, DamageType)>,
    /// Resolved by the target's saving throw instead of an attack roll
    /// (Constrict: "Strength Saving Throw: DC 16 ... Failure: 11 (2d6 + 4)
    /// Bludgeoning damage, and the target has the Grappled condition");
    /// `to_hit` is then unused.
    pub save: Option<AttackSave>,
    /// A spell attack (verbal component: knocked-out teeth can make it fail;
    /// a broken weapon does not matter).
    pub spell: bool,
    /// The ability of a weapon attack's roll, where known: a PC template's
    /// weapon (Strength for a longsword, Dexterity for a rapier or a bow).
    /// `None` for a spell attack and for an attack a creature entry writes
    /// (it gives a `to_hit`, not an ability). Read only by the reading
    /// `wound_attack_disadvantage` (a lost arm's Strength attacks).
    pub ability: Option<Ability>,
}

/// What sunlight does to a creature (SRD 5.2 stat blocks), in a fight in
/// sunlight (the combat option `sunlight`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sunlight {
    /// Sunlight Sensitivity: "While in sunlight, the kobold has
    /// Disadvantage on ability checks and attack rolls."
    Sensitivity,
    /// Sunlight Weakness: "While in sunlight, the shadow has Disadvantage
    /// on D20 Tests" (attack rolls, ability checks and saving throws).
    Weakness,
}

/// War Cry (SRD 5.2 frost giant, "Recharge 5–6", a bonus action): "The
/// giant or one creature of its choice that can see or hear it gains 16
/// (2d10 + 5) Temporary Hit Points and has Advantage on attack rolls until
/// the start of the giant's next turn." Ours: it takes them itself.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WarCry {
    /// The temporary hit points (they do not stack: the higher stays).
    pub temp_hp: DiceExpr,
    /// Ready again at the start of its turn on a d6 of at least this.
    pub recharge: u8,
}

/// What a creature's Bloodied state gives it (SRD 5.2 stat blocks).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BloodiedAdvantage {
    /// Bloodied Fury (boar, giant boar): "While Bloodied, the boar has
    /// Advantage on attack rolls."
    Attacks,
    /// Bloodied Frenzy (berserker): "While Bloodied, the berserker has
    /// Advantage on attack rolls and saving throws."
    AttacksAndSaves,
}

impl BloodiedAdvantage {
    /// Whether it gives advantage on saving throws too.
    pub fn on_saves(self) -> bool {
        self == Self::AttacksAndSaves
    }
}

/// A charge (SRD 5.2 stat blocks: "If the target is a Large or smaller
/// creature and the elk moved 20+ feet straight toward it immediately
/// before the hit, the target takes an extra 3 (1d6) Bludgeoning damage
/// and has the Prone condition"). With positions, the first attack after
/// the attacker moved at least `feet` toward its target this turn; a fight
/// without positions has no moves, so no charges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Charge {
    /// Feet moved toward the target just before the attack, at least.
    pub feet: i32,
    /// The largest target it affects.
    pub size: crate::rules::damage::Size,
    /// Extra damage on the hit (dice doubled on a critical hit).
    pub damage: Option<(DiceExpr, DamageType)>,
    /// The target has the Prone condition.
    pub prone: bool,
}

/// The saving throw that resolves an action used like an attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttackSave {
    /// The ability saved with.
    pub ability: Ability,
    /// Its DC.
    pub dc: i32,
    /// Half damage on a success (else none); its other effects only on a
    /// failure either way.
    pub half: bool,
}

/// An attack's damage dice when a creature is Bloodied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BloodiedDamage {
    /// The damage instead (same type).
    pub damage: DiceExpr,
    /// Whose Bloodied state counts.
    pub of: BloodiedWho,
}

/// Whose Bloodied state changes an attack's damage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BloodiedWho {
    /// The attacker ("if the swarm is Bloodied").
    Attacker,
    /// The target ("if the target is Bloodied").
    Target,
}

/// The targets an attack roll has Advantage against, by its stat block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttackAdvantage {
    /// "with Advantage if the target is Grappled by the ankheg": a
    /// creature the attacker grapples.
    Grappled,
    /// "with Advantage if the target doesn't have all its Hit Points".
    Wounded,
}

/// A hit's grapple (SRD 5.2 stat blocks: "If the target is a Large or
/// smaller creature, it has the Grappled condition (escape DC 13) from one
/// of two claws, and it has the Restrained condition until the grapple
/// ends").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grapple {
    /// The DC of the check that escapes it.
    pub escape: i32,
    /// The largest size it grapples.
    pub size: crate::rules::damage::Size,
    /// The grappled target is Restrained until the grapple ends.
    pub restrains: bool,
    /// How many creatures the attacker can hold at once ("from one of two
    /// claws": 2; "from both claws": 1).
    pub holds: u8,
}

/// Extra damage once per turn on a hit (sneak attack, martial advantage,
/// divine smite), optionally limited to a number of uses per encounter chain.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OncePerTurn {
    /// Extra dice (doubled on a critical hit).
    pub dice: DiceExpr,
    /// Damage type.
    pub kind: DamageType,
    /// Uses (e.g. spell slots for smites); `None` = every turn.
    pub uses: Option<u8>,
}

/// Who a healing feature may heal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HealTarget {
    /// Itself only (e.g. Second Wind).
    SelfOnly,
    /// Any ally, itself included (e.g. *healing word*, Lay on Hands).
    Ally,
}

/// A limited healing feature or spell.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Heal {
    /// HP restored.
    pub dice: DiceExpr,
    /// Uses per encounter chain (spell slots, charges).
    pub uses: u8,
    /// A bonus action (the creature still attacks) or an action.
    pub bonus_action: bool,
    /// Whom it can heal.
    pub target: HealTarget,
    /// A spell (magical healing: cures some lingering injuries; verbal
    /// component) rather than a class feature such as Second Wind.
    pub spell: bool,
    /// Its uses come back after a short rest too (Second Wind: "you must
    /// finish a short or long rest before you can use it again"), not only
    /// after a long rest.
    pub short_rest: bool,
}

/// A PC's hit dice (SRD 5.1 "Hit Dice", "Short Rest"): one die per
/// character level, spent during a short rest to regain the die's roll
/// plus the Constitution modifier each; a long rest gives back half of
/// them (at least one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HitDice {
    /// Faces of the die (10 for a d10).
    pub die: u8,
    /// How many (the character level).
    pub count: u8,
    /// Constitution modifier added to each die.
    pub con: i8,
}

impl HitDice {
    /// Hit dice a long rest gives back: half the total, at least one.
    pub fn regained_by_long_rest(self) -> u8 {
        (self.count / 2).max(1)
    }
}

/// Potions of healing by rarity (SRD 5.1): healing 2d4 + 2 (common),
/// greater 4d4 + 4 (uncommon), superior 8d4 + 8 (rare), supreme 10d4 + 20
/// (very rare). Drinking one, or pouring it into a dying ally, is an action.
pub const POTIONS: [(&str, DiceExpr); 4] = [
    (
        "healing",
        DiceExpr {
            count: 2,
            sides: 4,
            modifier: 2,
        },
    ),
    (
        "greater_healing",
        DiceExpr {
            count: 4,
            sides: 4,
            modifier: 4,
        },
    ),
    (
        "superior_healing",
        DiceExpr {
            count: 8,
            sides: 4,
            modifier: 8,
        },
    ),
    (
        "supreme_healing",
        DiceExpr {
            count: 10,
            sides: 4,
            modifier: 20,
        },
    ),
];

/// Potions carried, by rarity in [`POTIONS`] order.
pub type Potions = [u8; 4];

/// A caster's spells in a fight: the spells it can cast (those of
/// [`crate::rules::injury_cures::SPELLS`] with a use in a fight), its slots,
/// its spellcasting modifier, and the diamonds *revivify* consumes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Spellbook {
    /// Indices into `SPELLS` of the spells it casts, as given.
    pub spells: Vec<usize>,
    /// Spell slots of 1st to 9th level per long rest.
    pub slots: [u8; 9],
    /// Spellcasting ability modifier.
    pub modifier: i32,
    /// Life domain (cleric): a healing spell of 1st level or higher also
    /// restores 2 + the slot's level (Disciple of Life).
    pub disciple_of_life: bool,
    /// 300 gp diamonds carried, one consumed per *revivify*.
    pub diamonds: u8,
    /// Its slots come back on a short rest too (Pact Magic).
    pub short_rest_slots: bool,
}

impl Spellbook {
    /// The highest level of its slots (0 with none).
    pub fn highest_slot(&self) -> u8 {
        self.slots
            .iter()
            .rposition(|&n| n > 0)
            .map_or(0, |i| i as u8 + 1)
    }
}

/// A breath weapon or similar area attack with a recharge.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Breath {
    /// Damage dice.
    pub dice: DiceExpr,
    /// Damage type.
    pub kind: DamageType,
    /// Save ability and DC for half damage.
    pub save: (Ability, i32),
    /// Recharges on a d6 of at least this (5 for "recharge 5–6").
    pub recharge: u8,
    /// How many enemies the area catches.
    pub targets: u8,
}

/// Legendary actions (SRD 5.2 "Legendary Actions"): uses a round, spent
/// one option at a time immediately after another creature's turn and
/// regained at the start of its own; the options the loop models (its
/// attacks; docs/combat.md, "Legendary actions").
#[derive(Clone, Debug, PartialEq)]
pub struct Legendary {
    /// Uses a round ("Legendary Action Uses: 3").
    pub uses: u8,
    /// The options it takes, in statblock order.
    pub options: Vec<LegendaryOption>,
}

/// One legendary action the loop models: one of its attacks ("it makes
/// one Rend attack"; a move before it is left to positions), or a saving
/// throw against damage ("Dexterity Saving Throw: DC 19 ... Failure: 22
/// (4d10) Poison damage").
#[derive(Clone, Debug, PartialEq)]
pub struct LegendaryOption {
    /// Its name in the statblock (`pounce`).
    pub name: String,
    /// What it does.
    pub effect: LegendaryEffect,
    /// Uses it costs (1 unless "Costs 2 Actions").
    pub cost: u8,
    /// "It can't take this action again until the start of its next turn."
    pub once_per_round: bool,
    /// It moves up to half its speed (or teleports) before the attack
    /// ("moves up to half its Speed, and it makes one Rend attack").
    pub moves_first: bool,
}

/// What a legendary option does.
#[derive(Clone, Debug, PartialEq)]
pub enum LegendaryEffect {
    /// One of its attacks.
    Attack {
        /// An index into [`CreatureSpec::attacks`].
        index: usize,
        /// That attack's name (an entry that replaces the attacks keeps the
        /// option by it).
        name: String,
    },
    /// A saving throw of the enemies it catches against its damage.
    Save(AreaSave),
    /// A spell of its Spellcasting ("uses Spellcasting to cast Scorching
    /// Ray"), cast at that spell's level.
    Spell {
        /// An index into [`CreatureSpec::known_spells`] (a spell with
        /// [`crate::combat::spell::Innate`]).
        known: usize,
        /// That spell's name (an entry that replaces the Spellcasting keeps
        /// the option by it).
        name: String,
    },
}

impl LegendaryOption {
    /// The damage it deals when it lands, for choosing among options:
    /// the attack's mean damage, or a save's mean damage times the
    /// creatures it catches.
    pub fn mean_damage(&self, attacks: &[Attack]) -> f64 {
        match &self.effect {
            LegendaryEffect::Attack { index, .. } => attacks[*index].damage.mean(),
            LegendaryEffect::Save(a) => a.dice.mean() * f64::from(a.targets),
            // Valued by the casting policy instead (`encounter/legendary.rs`).
            LegendaryEffect::Spell { .. } => 0.0,
        }
    }
}

/// Damage that a saving throw halves or prevents, on up to `targets` of
/// the enemies (a random set of the conscious ones, as for an area spell:
/// the DMG's count of creatures in an area): a breath weapon's, a
/// legendary option's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AreaSave {
    /// Damage dice, rolled once for all.
    pub dice: DiceExpr,
    /// Damage type.
    pub kind: DamageType,
    /// Save ability and DC.
    pub save: (Ability, i32),
    /// How many enemies it catches.
    pub targets: u8,
    /// Half damage on a success (else none).
    pub half: bool,
    /// What a failed save does beyond the damage, until the end of the
    /// target's next turn (a legendary option's only: the loader refuses
    /// it on a Death Burst, which may come in the target's own turn).
    pub on_failure: Hampered,
}

/// What a failed save of an [`AreaSave`] does beyond its damage, until the
/// end of the target's next turn (SRD 5.2 legendary actions: Noxious
/// Miasma's "the target takes a −2 penalty to AC", Cloud of Insects'
/// "Disadvantage on saving throws to maintain Concentration", Freezing
/// Burst's "the target's Speed is 0", Scorching Sands' "the target's Speed
/// is halved"). A second one before it ends adds
/// its effects (the larger penalty) and runs to the end of the same next
/// turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hampered {
    /// A penalty to its armour class.
    pub ac_penalty: u8,
    /// Disadvantage on its saving throws to keep concentration.
    pub concentration_disadvantage: bool,
    /// Its Speed is 0 (positions only).
    pub speed_zero: bool,
    /// Its Speed is halved (positions only).
    pub speed_halved: bool,
}

impl Hampered {
    /// Nothing.
    pub const NONE: Hampered = Hampered {
        ac_penalty: 0,
        concentration_disadvantage: false,
        speed_zero: false,
        speed_halved: false,
    };

    /// Whether it does anything.
    pub fn any(self) -> bool {
        self != Self::NONE
    }

    /// Both together: the larger penalty, either's disadvantage and speed.
    pub fn with(self, other: Hampered) -> Hampered {
        Hampered {
            ac_penalty: self.ac_penalty.max(other.ac_penalty),
            concentration_disadvantage: self.concentration_disadvantage
                || other.concentration_disadvantage,
            speed_zero: self.speed_zero || other.speed_zero,
            speed_halved: self.speed_halved || other.speed_halved,
        }
    }
}

/// A damage aura (SRD 5.2 "Fire Aura": "At the end of each of the
/// balor's turns, each creature of its choice in a 5-foot Emanation
/// originating from the balor takes 13 (3d8) Fire damage").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DamageAura {
    /// Damage dice, rolled once for all.
    pub dice: DiceExpr,
    /// Damage type.
    pub kind: DamageType,
    /// How many enemies the emanation holds (the area count rule).
    pub targets: u8,
    /// None while the creature is incapacitated ("unless the azer has the
    /// Incapacitated condition").
    pub unless_incapacitated: bool,
}

/// The most legendary action uses a round and options a statblock may have.
pub const MAX_LEGENDARY_USES: u8 = 5;
/// See [`MAX_LEGENDARY_USES`].
pub const MAX_LEGENDARY_OPTIONS: usize = 8;

impl Breath {
    /// Its damage and save as an [`AreaSave`] (half on a success).
    pub fn area(&self) -> AreaSave {
        AreaSave {
            dice: self.dice,
            kind: self.kind,
            save: self.save,
            targets: self.targets,
            half: true,
            on_failure: Hampered::NONE,
        }
    }
}

/// Regeneration (e.g. a troll's): HP regained at the start of its turn
/// unless it took one of the given damage types since its last turn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Regeneration {
    /// HP regained.
    pub hp: i32,
    /// Damage types that stop it for a round.
    pub stopped_by: crate::rules::damage::DamageTypes,
    /// The troll's rule: at 0 HP it is down, not dead, and gets up at the
    /// start of its turn unless a `stopped_by` type hit it ("dies only if it
    /// starts its turn with 0 hit points and doesn't regenerate"). `false`
    /// is the oni's "if it has at least 1 hit point": it regains HP only
    /// while above 0 and dies at 0 like any monster.
    pub revives: bool,
}

/// Rage (barbarian): resistance to bludgeoning, piercing and slashing and a
/// bonus to melee damage, for a number of encounters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rage {
    /// Bonus to melee weapon damage.
    pub damage_bonus: i32,
    /// Rages (one per encounter is used).
    pub uses: u8,
}

/// The class features of a PC template that act in the round loop beyond
/// the fields of [`CreatureSpec`] (docs/combat.md, "PC templates"; the
/// loop's side is `encounter/features.rs`). All zero for a creature
/// without them (every monster): the loop then rolls no die for them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ClassFeatures {
    /// Action Surge (fighter 2): uses per short rest (0: none).
    pub action_surge: u8,
    /// Indomitable (fighter 9): rerolls of a failed saving throw per long
    /// rest (0: none).
    pub indomitable: u8,
    /// Uncanny Dodge (rogue 5): its reaction halves an attack's damage.
    pub uncanny_dodge: bool,
    /// Brutal Critical (barbarian 9): weapon damage dice added to a melee
    /// critical hit (0: none).
    pub brutal_critical: u8,
    /// Stunning Strike (monk 5): ki points per short rest, one spent a
    /// strike (0: none).
    pub ki: u8,
    /// Stunning Strike's Constitution save DC (8 + proficiency + Wis).
    pub stun_dc: i32,
    /// Deflect Missiles (monk 3): its reaction reduces a ranged weapon
    /// attack's damage by these dice (the Dex modifier and the monk level
    /// in the modifier); `None`: it has not the feature.
    pub deflect_missiles: Option<DiceExpr>,
    /// Aura of Protection (paladin 6): the bonus its allies add to their
    /// saving throws while it is conscious (0: none; its own saves carry
    /// it already).
    pub aura: i32,
    /// The aura's reach in feet (with positions).
    pub aura_feet: i32,
    /// Bardic Inspiration (bard 1): the die's sides (0: none).
    pub inspiration_die: u8,
    /// Bardic Inspiration uses per long rest (the Charisma modifier).
    pub inspiration_uses: u8,
    /// Font of Inspiration (bard 5): the uses come back on a short rest too.
    pub inspiration_short_rest: bool,
    /// Channel Divinity: Preserve Life (Life cleric 2): uses per short rest
    /// (0: none).
    pub preserve_life: u8,
    /// Preserve Life's pool of hit points (5 × the cleric level).
    pub preserve_life_hp: i32,
    /// Metamagic: Quickened Spell (sorcerer 3): sorcery points per long
    /// rest (Font of Magic), 2 a quickened spell (0: none).
    pub sorcery_points: u8,
    /// Channel Divinity: Turn Undead (cleric 2), its uses shared with
    /// Preserve Life ([`ClassFeatures::preserve_life`]).
    pub turn_undead: bool,
    /// Turn Undead's Wisdom save DC (the cleric's spell save DC).
    pub turn_dc: i32,
    /// Destroy Undead (cleric 5): an undead of this challenge rating or
    /// lower that fails the save is destroyed (`None`: not yet).
    pub destroy_cr: Option<f32>,
    /// Dark One's Blessing (Fiend warlock 1): the temporary hit points it
    /// gains when it reduces a hostile creature to 0 HP (Cha + warlock
    /// level, at least 1; 0: none).
    pub dark_ones_blessing: i32,
    /// Fiendish Vigor (an Eldritch Invocation): *false life* cast at will
    /// as a 1st-level spell before each fight, 1d4 + 4 temporary hit
    /// points.
    pub fiendish_vigor: bool,
    /// Repelling Blast (an Eldritch Invocation): each hit of its spell
    /// attack (*eldritch blast*) pushes a Large or smaller creature this
    /// many feet away (with positions; 0: none).
    pub repel_feet: i32,
    /// Wild Shape (druid 2): uses per short rest (0: none); the form is
    /// [`CreatureSpec::wild_shape`].
    pub wild_shape: u8,
}

/// A creature's statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct CreatureSpec {
    /// Display name.
    pub name: String,
    /// Player characters make death saves; monsters die at 0 HP.
    pub is_pc: bool,
    /// Character level (PCs) or challenge-like level (monsters; 0).
    pub level: u8,
    /// Size category.
    pub size: Size,
    /// Hit point maximum.
    pub max_hp: i32,
    /// Hit points at the start of the first fight (`None` = the maximum; 0
    /// for a PC means it starts dying).
    pub start_hp: Option<i32>,
    /// Armour class.
    pub ac: i32,
    /// The part of [`CreatureSpec::ac`] its shield gives (0: none); a lost
    /// arm takes it away (no weapon and shield).
    pub shield_ac: i32,
    /// Initiative modifier.
    pub initiative: i32,
    /// Saving-throw modifiers in [`Ability`] order.
    pub saves: [i32; 6],
    /// Wisdom (Medicine) modifier, for stabilising a dying ally.
    pub medicine: i32,
    /// The modifier of its check to escape a grapple: the better of its
    /// Strength (Athletics) and Dexterity (Acrobatics).
    pub escape: i32,
    /// Resistances, immunities, vulnerabilities.
    pub defenses: DamageModifiers,
    /// The conditions it is immune to: bit `c as usize` for each
    /// [`crate::combat::spell::Condition`] `c`.
    pub condition_immune: u16,
    /// Attacks, in order of preference.
    pub attacks: Vec<Attack>,
    /// The Attack action: indices into `attacks` (a multiattack lists several).
    pub multiattack: Vec<usize>,
    /// Scores a critical hit on a natural roll of at least this (20 by default).
    pub crit_range: u8,
    /// Extra damage once per turn.
    pub once_per_turn: Option<OncePerTurn>,
    /// Healing feature.
    pub heal: Option<Heal>,
    /// Potions of healing carried, by rarity ([`POTIONS`]); drunk or given
    /// to a dying ally as an action.
    pub potions: Potions,
    /// Spells cast in a fight from spell slots (`None`: not a caster, or
    /// its only healing is [`CreatureSpec::heal`]).
    pub spellbook: Option<Spellbook>,
    /// Breath weapon.
    pub breath: Option<Breath>,
    /// Regeneration.
    pub regeneration: Option<Regeneration>,
    /// Rage.
    pub rage: Option<Rage>,
    /// Reckless Attack: advantage on its melee attacks, attacks against it have advantage.
    pub reckless: bool,
    /// Evasion (monk 7, ranger 15): a Dexterity save for half damage deals
    /// none on a success and half on a failure.
    pub evasion: bool,
    /// Relentless Rage (barbarian 11): dropped to 0 HP while raging and not
    /// killed outright, a DC 10 Constitution save (5 higher for each use
    /// since the last long rest) leaves it at 1 HP instead.
    pub relentless_rage: bool,
    /// Speed in feet per round (the walking speed, or the flying one when
    /// faster); used only with positions (docs/combat.md, "Positions").
    pub speed: i32,
    /// The line it starts a fight in with positions (`None`: by its
    /// attacks, [`CreatureSpec::line`]).
    pub line: Option<Line>,
    /// Hit dice for short rests (`None`: it spends none; monsters and
    /// creatures not built from a class template).
    pub hit_dice: Option<HitDice>,
    /// Attack, control and buff spells it casts in a fight from its spell
    /// slots (`data/spells.toml`; docs/spells.md), with its save DC and
    /// spell attack bonus; the healing policy's spells are its
    /// [`CreatureSpec::spellbook`].
    pub known_spells: Vec<KnownSpell>,
    /// Class features the loop models beyond the fields above (Action
    /// Surge, Indomitable, Uncanny Dodge, ...).
    pub class_features: ClassFeatures,
    /// Its statblock's creature type is Undead (Turn Undead works on it).
    pub undead: bool,
    /// Its statblock's creature type is Aberration, Celestial, Elemental,
    /// Fey or Fiend: *banishment* held for its full minute sends it home
    /// for good.
    pub extraplanar: bool,
    /// Its challenge rating (a bestiary entry's; 0 without one): Destroy
    /// Undead's threshold.
    pub challenge: f32,
    /// Legendary Resistance (SRD 5.2): failed saves it may turn into
    /// successes, per day (a fight; 0: none).
    pub legendary_resistance: u8,
    /// Legendary actions (`None`: none modelled).
    pub legendary: Option<Legendary>,
    /// Magic Resistance: advantage on saving throws against spells and
    /// other magical effects.
    pub magic_resistance: bool,
    /// Pack Tactics: advantage on an attack roll against a creature that
    /// one of its allies, not incapacitated, is within 5 feet of.
    pub pack_tactics: bool,
    /// Sunlight Sensitivity or Sunlight Weakness, in a fight in sunlight.
    pub sunlight: Option<Sunlight>,
    /// War Cry (SRD 5.2 frost giant): a recharge bonus action that gives it
    /// temporary hit points and advantage on attack rolls until the start
    /// of its next turn.
    pub war_cry: Option<WarCry>,
    /// Fire Absorption, Lightning Absorption (SRD 5.2 iron golem, flesh
    /// golem, shambling mound): "Whenever the golem is subjected to Fire
    /// damage, it regains a number of Hit Points equal to the Fire damage
    /// dealt" — the damage of these types it is dealt (before its
    /// immunity) heals it instead.
    pub absorbs: crate::rules::damage::DamageTypes,
    /// Bloodied Fury / Bloodied Frenzy: while Bloodied (at or below half
    /// its hit point maximum), advantage on attack rolls, and with
    /// [`BloodiedAdvantage::AttacksAndSaves`] on saving throws too.
    pub bloodied_advantage: Option<BloodiedAdvantage>,
    /// Its moves provoke no opportunity attacks (Flyby; Nimble Escape's
    /// Disengage as a bonus action): positions only.
    pub avoids_opportunity_attacks: bool,
    /// Undead Fortitude: dropped to 0 HP by damage neither radiant nor
    /// from a critical hit, a Constitution save (DC 5 + the damage) leaves
    /// it at 1 HP.
    pub undead_fortitude: bool,
    /// Death Burst: when it dies it explodes, a saving throw against damage
    /// for the enemies the area catches.
    pub death_burst: Option<AreaSave>,
    /// A damage aura (Fire Aura): damage at the end of each of its turns
    /// to the enemies its emanation holds.
    pub damage_aura: Option<DamageAura>,
    /// Parry: with its reaction, this much armour class against one melee
    /// attack roll that hits it, possibly turning it into a miss (0: none).
    pub parry: u8,
    /// The beast it becomes by Wild Shape at its level
    /// ([`crate::combat::wild_shape`]), with its own mental saves; `None`:
    /// no Wild Shape.
    pub wild_shape: Option<Box<CreatureSpec>>,
}

/// Where a creature stands at the start of a fight with positions
/// (docs/combat.md, "Positions"; an approximation of ours).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Line {
    /// The front line, facing the other side.
    Front,
    /// The back line, behind its side's front line.
    Back,
}

/// The speed of a creature whose statblock or template gives none (feet).
pub const DEFAULT_SPEED: i32 = 30;

impl CreatureSpec {
    /// A Medium creature with 1 HP, AC 10, no modifiers and no actions: the
    /// base that templates and scenario entries fill in.
    pub fn blank(name: &str, is_pc: bool, level: u8) -> Self {
        CreatureSpec {
            name: name.to_string(),
            is_pc,
            level,
            size: Size::Medium,
            max_hp: 1,
            start_hp: None,
            ac: 10,
            shield_ac: 0,
            initiative: 0,
            saves: [0; 6],
            medicine: 0,
            escape: 0,
            defenses: DamageModifiers::default(),
            condition_immune: 0,
            attacks: Vec::new(),
            multiattack: Vec::new(),
            crit_range: 20,
            once_per_turn: None,
            heal: None,
            potions: [0; 4],
            spellbook: None,
            breath: None,
            regeneration: None,
            rage: None,
            reckless: false,
            evasion: false,
            relentless_rage: false,
            speed: DEFAULT_SPEED,
            line: None,
            hit_dice: None,
            known_spells: Vec::new(),
            class_features: ClassFeatures::default(),
            undead: false,
            extraplanar: false,
            challenge: 0.0,
            legendary_resistance: 0,
            legendary: None,
            magic_resistance: false,
            pack_tactics: false,
            sunlight: None,
            bloodied_advantage: None,
            absorbs: crate::rules::damage::DamageTypes::NONE,
            war_cry: None,
            avoids_opportunity_attacks: false,
            undead_fortitude: false,
            death_burst: None,
            damage_aura: None,
            parry: 0,
            wild_shape: None,
        }
    }

    /// The line it starts in with positions: the one given, else the back
    /// line for a creature without a melee attack (archers, casters), the
    /// front line otherwise.
    pub fn line(&self) -> Line {
        self.line.unwrap_or_else(|| {
            if self.attacks.iter().any(|a| a.reach == Reach::Melee) {
                Line::Front
            } else {
                Line::Back
            }
        })
    }

    /// Whether it casts spells in a fight (a spellbook with spells in it).
    pub fn casts_spells(&self) -> bool {
        self.spellbook
            .as_ref()
            .is_some_and(|b| !b.spells.is_empty())
    }

    /// Its spell slots per long rest, 1st to 9th level (none without a
    /// spellbook).
    pub fn spell_slots(&self) -> [u8; 9] {
        self.spellbook.as_ref().map_or([0; 9], |b| b.slots)
    }

    /// Whether it is immune to condition `c` (a spell, a hit or a feature
    /// imposes none on it).
    #[inline]
    pub fn immune_to(&self, c: crate::combat::spell::Condition) -> bool {
        self.condition_immune & (1 << c as u16) != 0
    }

    /// Some attack of its grapples on a hit.
    pub fn grapples(&self) -> bool {
        self.attacks.iter().any(|a| a.grapples.is_some())
    }

    /// Some attack of its poisons on a hit.
    pub fn poisons_on_hit(&self) -> bool {
        self.attacks.iter().any(|a| a.poisons_on_hit)
    }

    /// The saving-throw modifier for an ability.
    pub fn save(&self, ability: Ability) -> i32 {
        self.saves[ability as usize]
    }

    /// Whether its Attack action opens with a melee attack: without
    /// positions such a creature is taken to stand by its target.
    pub fn fights_in_melee(&self) -> bool {
        self.multiattack
            .first()
            .and_then(|&i| self.attacks.get(i))
            .is_some_and(|a| a.reach == Reach::Melee)
    }

    /// Whether it resists, is immune or vulnerable to, or absorbs some
    /// damage type.
    pub fn has_damage_defenses(&self) -> bool {
        let d = &self.defenses;
        let none = crate::rules::damage::DamageTypes::NONE;
        d.resistances != none
            || d.immunities != none
            || d.vulnerabilities != none
            || self.absorbs != none
    }

    /// Expected damage of one Attack action against AC `ac` (for the
    /// highest-threat targeting policy).
    pub fn threat(&self, ac: i32) -> f64 {
        self.threat_weighed(ac, |_| 1.0)
    }

    /// [`CreatureSpec::threat`] with each damage type's part weighed by
    /// `share(type)`: what the targets' defenses leave of it (the casting
    /// policy's free option against resistant foes).
    #[inline]
    pub fn threat_weighed(&self, ac: i32, share: impl Fn(DamageType) -> f64) -> f64 {
        self.multiattack
            .iter()
            .filter_map(|&i| self.attacks.get(i))
            .map(|a| {
                let hit = match a.save {
                    // A save: failed by a target with a +2 bonus.
                    Some(s) => ((s.dc - 3) as f64 / 20.0).clamp(0.05, 0.95),
                    None => ((21 - (ac - a.to_hit)) as f64 / 20.0).clamp(0.05, 0.95),
                };
                hit * (a.damage.mean() * share(a.kind)
                    + a.rider.map_or(0.0, |r| r.dice.mean() * share(r.kind)))
            })
            .sum::<f64>()
            + self
                .once_per_turn
                .map_or(0.0, |o| o.dice.mean() * 0.6 * share(o.kind))
    }
}
