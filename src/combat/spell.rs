//! Spells as data (SRD 5.2 "Spells"; `data/spells.toml`, docs/spells.md):
//! what a spell does in a fight, declaratively — its casting time, its
//! targets (creatures, or an area counted by the DMG's "Targets in Areas of
//! Effect" rule), an attack roll or a saving throw, damage that grows with
//! the slot (or, for a cantrip, with the character level), a condition
//! with its repeat save, a buff or debuff while it lasts, damage that comes
//! again on later turns, and concentration. Pure values and functions: the
//! round loop (`combat::encounter::casting`) casts them, a caster's
//! [`KnownSpell`]s hold them resolved for its numbers.

use crate::combat::ability::{Ability, Reach};
use crate::dice::DiceExpr;
use crate::rules::damage::DamageType;

/// When a spell can be cast in a fight (its casting time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastingTime {
    /// An action.
    Action,
    /// A bonus action.
    BonusAction,
    /// A reaction, on its [`Trigger`].
    Reaction,
    /// Longer than an action (a minute or more): never cast in a fight.
    Long,
}

/// What lets a reaction spell be cast.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trigger {
    /// The caster is hit by an attack roll (*shield*).
    HitByAttack,
    /// The caster takes damage.
    TakesDamage,
    /// The caster sees a creature cast a spell (*counterspell*).
    SeesSpell,
    /// The caster or a creature near it falls (*feather fall*).
    Falls,
    /// Anything else.
    Other,
}

/// How much of a spell the round loop models.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FightUse {
    /// Everything it does in a fight.
    Modelled,
    /// Its core (damage, condition, buff); `not_modelled` lists the rest.
    Partial,
    /// It matters in a fight but does not fit the model: never cast.
    NotModelled,
    /// Nothing a fighter casts it for mid-combat (rituals, utility).
    NoFightUse,
}

/// The shape of an area of effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A sphere (size: radius).
    Sphere,
    /// A cube (size: edge).
    Cube,
    /// A cone (size: length).
    Cone,
    /// A line (size: length).
    Line,
    /// A cylinder (size: radius).
    Cylinder,
    /// An emanation from the caster (size: distance).
    Emanation,
}

/// Whom a spell's targets are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The caster's enemies.
    Enemies,
    /// The caster's allies (the caster included).
    Allies,
    /// Whoever is in the area; the caster places it on its enemies.
    Any,
}

/// What a spell targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Targets {
    /// Up to `count` creatures of `side`.
    Creatures {
        /// How many (at the spell's level).
        count: u8,
        /// Whose.
        side: Side,
    },
    /// An area: the creatures in it (see [`area_targets`]).
    Area {
        /// Its shape.
        shape: Shape,
        /// Its size in feet (radius, edge or length by shape).
        size: u16,
        /// Whose creatures it is aimed at.
        side: Side,
    },
    /// The caster itself.
    Caster,
}

impl Targets {
    /// Whether the spell is aimed at the caster's side (buffs, healing).
    pub fn helps_allies(self) -> bool {
        match self {
            Targets::Creatures { side, .. } | Targets::Area { side, .. } => side == Side::Allies,
            Targets::Caster => true,
        }
    }
}

/// The creatures an area catches with no positions on a map: the DMG's
/// "Targets in Areas of Effect" table (cone: length ÷ 10; cube or square:
/// edge ÷ 5; cylinder, sphere or emanation: radius ÷ 5; line: length ÷ 30;
/// each rounded up), at least one.
///
/// ```
/// use woundsim::combat::spell::{area_targets, Shape};
/// assert_eq!(area_targets(Shape::Sphere, 20), 4); // fireball
/// assert_eq!(area_targets(Shape::Cone, 15), 2); // burning hands
/// assert_eq!(area_targets(Shape::Line, 100), 4); // lightning bolt
/// assert_eq!(area_targets(Shape::Cube, 5), 1); // cloud of daggers
/// ```
pub fn area_targets(shape: Shape, size: u16) -> u8 {
    let per = match shape {
        Shape::Cone => 10,
        Shape::Cube | Shape::Sphere | Shape::Cylinder | Shape::Emanation => 5,
        Shape::Line => 30,
    };
    size.div_ceil(per).clamp(1, 255) as u8
}

/// What a successful saving throw leaves of the damage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnSuccess {
    /// Half the damage (rounded down).
    Half,
    /// None, and no condition.
    Nothing,
}

/// A spell's saving throw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpellSave {
    /// The ability saved with.
    pub ability: Ability,
    /// What a success leaves.
    pub success: OnSuccess,
}

/// One part of a spell's damage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DamagePart {
    /// Dice (and a flat part).
    pub dice: DiceExpr,
    /// Its type.
    pub kind: DamageType,
}

/// How a cantrip grows at character levels 5, 11 and 17.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CantripScaling {
    /// One more die of its damage at each (fire bolt: 1d10 to 4d10).
    Dice,
    /// One more beam (eldritch blast).
    Rolls,
}

/// The cantrip tier of a character level: 1 below 5, 2 from 5, 3 from 11,
/// 4 from 17 (SRD 5.2 "Cantrips": damage increases at levels 5, 11, 17).
pub fn cantrip_tier(level: u8) -> u8 {
    1 + u8::from(level >= 5) + u8::from(level >= 11) + u8::from(level >= 17)
}

/// A condition a spell imposes, as the round loop reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Condition {
    /// Can't see: its attacks have disadvantage, attacks on it advantage.
    Blinded,
    /// Charmed: not modelled beyond listing.
    Charmed,
    /// Deafened: no effect in the loop.
    Deafened,
    /// Frightened: disadvantage on its attack rolls.
    Frightened,
    /// Grappled: speed 0 (positions).
    Grappled,
    /// Incapacitated: no actions, bonus actions or reactions.
    Incapacitated,
    /// Invisible: its attacks advantage, attacks on it disadvantage.
    Invisible,
    /// Paralyzed: incapacitated, fails Str and Dex saves, attacks on it
    /// have advantage and hits from within 5 ft are critical.
    Paralyzed,
    /// Petrified: as paralyzed without the critical, resistance to all.
    Petrified,
    /// Poisoned: disadvantage on attack rolls.
    Poisoned,
    /// Prone: melee attacks on it have advantage, ranged disadvantage, its
    /// own attacks disadvantage; it stands up on its turn.
    Prone,
    /// Restrained: its attacks and Dex saves have disadvantage, attacks on
    /// it advantage.
    Restrained,
    /// Stunned: incapacitated, fails Str and Dex saves, attacks on it have
    /// advantage.
    Stunned,
    /// Unconscious (a spell's sleep): as paralyzed.
    Unconscious,
    /// Banished: out of the fight while the spell lasts.
    Banished,
}

/// Condition bits a fighter carries ([`Condition::bit`]).
pub mod bits {
    /// Takes no actions, bonus actions or reactions.
    pub const INCAPACITATED: u16 = 1;
    /// Attack rolls against it have advantage.
    pub const ATTACKED_WITH_ADVANTAGE: u16 = 2;
    /// Its attack rolls have disadvantage.
    pub const ATTACKS_WITH_DISADVANTAGE: u16 = 4;
    /// It fails Strength and Dexterity saves.
    pub const FAILS_STR_DEX: u16 = 8;
    /// A hit on it from within 5 feet is a critical hit.
    pub const CRITICAL_WITHIN_5: u16 = 16;
    /// Disadvantage on its Dexterity saves.
    pub const DIS_DEX_SAVES: u16 = 32;
    /// Out of the fight.
    pub const BANISHED: u16 = 64;
    /// Prone: melee attacks on it have advantage, ranged ones disadvantage.
    pub const PRONE: u16 = 128;
    /// Attack rolls against it have disadvantage.
    pub const ATTACKED_WITH_DISADVANTAGE: u16 = 256;
    /// Its attack rolls have advantage.
    pub const ATTACKS_WITH_ADVANTAGE: u16 = 512;
    /// Incapacitated by an effect that ends when it takes damage
    /// (*hypnotic pattern*, *sleep*, a turned undead): attackers leave it
    /// while another enemy stands (the targeting policies). Set with
    /// [`INCAPACITATED`], never alone.
    pub const HELD_UNTIL_DAMAGED: u16 = 1024;
    /// Grappled by the source of its affliction (a hit's grapple,
    /// `encounter/grapple.rs`): Speed 0, and Disadvantage on attack rolls
    /// against anyone else.
    pub const GRAPPLED: u16 = 2048;
}

impl Condition {
    /// Every condition, in file-name order.
    pub const ALL: [Condition; 15] = [
        Condition::Blinded,
        Condition::Charmed,
        Condition::Deafened,
        Condition::Frightened,
        Condition::Grappled,
        Condition::Incapacitated,
        Condition::Invisible,
        Condition::Paralyzed,
        Condition::Petrified,
        Condition::Poisoned,
        Condition::Prone,
        Condition::Restrained,
        Condition::Stunned,
        Condition::Unconscious,
        Condition::Banished,
    ];

    /// Its name in data files.
    pub fn name(self) -> &'static str {
        match self {
            Condition::Blinded => "blinded",
            Condition::Charmed => "charmed",
            Condition::Deafened => "deafened",
            Condition::Frightened => "frightened",
            Condition::Grappled => "grappled",
            Condition::Incapacitated => "incapacitated",
            Condition::Invisible => "invisible",
            Condition::Paralyzed => "paralyzed",
            Condition::Petrified => "petrified",
            Condition::Poisoned => "poisoned",
            Condition::Prone => "prone",
            Condition::Restrained => "restrained",
            Condition::Stunned => "stunned",
            Condition::Unconscious => "unconscious",
            Condition::Banished => "banished",
        }
    }

    /// The condition named `name`.
    pub fn parse(name: &str) -> Option<Condition> {
        Condition::ALL.into_iter().find(|c| c.name() == name)
    }

    /// What it does in the round loop, as [`bits`] (SRD 5.2 "Conditions").
    /// Charmed, deafened and grappled change nothing the loop rolls
    /// (docs/spells.md says so).
    pub fn bits(self) -> u16 {
        use bits::*;
        match self {
            Condition::Blinded => ATTACKED_WITH_ADVANTAGE | ATTACKS_WITH_DISADVANTAGE,
            Condition::Charmed | Condition::Deafened | Condition::Grappled => 0,
            Condition::Frightened | Condition::Poisoned => ATTACKS_WITH_DISADVANTAGE,
            Condition::Incapacitated => INCAPACITATED,
            Condition::Invisible => ATTACKED_WITH_DISADVANTAGE | ATTACKS_WITH_ADVANTAGE,
            Condition::Paralyzed | Condition::Unconscious => {
                INCAPACITATED | ATTACKED_WITH_ADVANTAGE | FAILS_STR_DEX | CRITICAL_WITHIN_5
            }
            Condition::Petrified | Condition::Stunned => {
                INCAPACITATED | ATTACKED_WITH_ADVANTAGE | FAILS_STR_DEX
            }
            Condition::Prone => PRONE | ATTACKS_WITH_DISADVANTAGE,
            Condition::Restrained => {
                ATTACKED_WITH_ADVANTAGE | ATTACKS_WITH_DISADVANTAGE | DIS_DEX_SAVES
            }
            Condition::Banished => INCAPACITATED | BANISHED,
        }
    }

    /// Whether it keeps a creature from acting (its value to a caster: the
    /// creature's damage for as long as it lasts).
    pub fn disables(self) -> bool {
        self.bits() & bits::INCAPACITATED != 0
    }
}

/// A condition a spell imposes on a failed save (or a hit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpellCondition {
    /// The condition.
    pub condition: Condition,
    /// The target repeats the save at the end of each of its turns.
    pub repeat_save: bool,
    /// It ends when the creature takes damage.
    pub ends_on_damage: bool,
    /// Only a creature with at most this many hit points takes it
    /// (*power word stun*: 150).
    pub hp_at_most: Option<u16>,
}

impl SpellCondition {
    /// Whether a creature at `hp` hit points is within its limit (any is
    /// without one).
    pub fn reaches(self, hp: i32) -> bool {
        self.hp_at_most.is_none_or(|h| hp <= i32::from(h))
    }
}

/// When a spell's damage comes again after the casting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OngoingWhen {
    /// A creature in the area starting its turn there.
    StartOfTurn,
    /// A creature in the area ending its turn there.
    EndOfTurn,
    /// The caster uses it again on its later turns.
    CasterTurn,
}

/// Damage that comes again on later turns while the spell lasts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ongoing {
    /// When.
    pub when: OngoingWhen,
    /// For [`OngoingWhen::CasterTurn`]: what the caster spends on it
    /// (`None`: nothing).
    pub action: Option<CastingTime>,
}

/// A signed number of d4-like dice or a flat number added to a roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RollBonus {
    /// The dice (count 0 for a flat bonus) and flat part.
    pub dice: DiceExpr,
    /// Subtracted rather than added (*bane*).
    pub negative: bool,
}

impl RollBonus {
    /// Its mean, signed.
    pub fn mean(self) -> f64 {
        let m = self.dice.mean();
        if self.negative { -m } else { m }
    }
}

/// What a buff or debuff does to each creature it affects while it lasts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Modifiers {
    /// Added to its attack rolls (*bless*, *bane*).
    pub attack_rolls: Option<RollBonus>,
    /// Added to its saving throws.
    pub saves: Option<RollBonus>,
    /// Added to its armour class (*shield of faith*, *shield*, *haste*).
    pub ac: i8,
    /// Extra damage on each of its hits (the caster's: *hunter's mark*,
    /// *hex*, *divine favor*).
    pub damage_on_hit: Option<DamagePart>,
    /// Its attack rolls have advantage.
    pub advantage_on_attacks: bool,
    /// Attack rolls against it have advantage.
    pub attacks_against_have_advantage: bool,
    /// Attacks added to its Attack action (*haste*: one).
    pub extra_attack: u8,
    /// It takes no reactions (*slow*).
    pub no_reactions: bool,
    /// An action or a bonus action on its turn, not both (*slow*).
    pub action_or_bonus: bool,
    /// Damage types it resists while the spell lasts (*stoneskin*).
    pub resistance: crate::rules::damage::DamageTypes,
}

/// Healing a spell gives (cast by the healing policy, not here).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpellHealing {
    /// HP per target.
    pub dice: DiceExpr,
    /// The spellcasting modifier is added.
    pub add_modifier: bool,
    /// Dice added per slot level above the spell's.
    pub per_slot: Option<DiceExpr>,
}

/// A spell, as `data/spells.toml` describes it.
#[derive(Clone, Debug, PartialEq)]
pub struct SpellSpec {
    /// Snake-case name (`fireball`).
    pub name: String,
    /// Display name (`Fireball`).
    pub title: String,
    /// Level, 0 for a cantrip.
    pub level: u8,
    /// The class lists it is on.
    pub classes: Vec<String>,
    /// Its school of magic, lower case (`evocation`).
    pub school: String,
    /// Casting time.
    pub casting_time: CastingTime,
    /// A reaction's trigger.
    pub trigger: Option<Trigger>,
    /// Range in feet (0 self, 5 touch; `None`: sight or special).
    pub range: Option<u32>,
    /// Duration in rounds (0 instantaneous; `None`: until dispelled).
    pub duration: Option<u32>,
    /// Concentration.
    pub concentration: bool,
    /// A verbal component (knocked-out teeth can make it fail).
    pub verbal: bool,
    /// How much of it the loop models.
    pub fight: FightUse,
    /// Its targets at its own level.
    pub targets: Targets,
    /// More creatures per slot level above its own.
    pub targets_per_slot: u8,
    /// A spell attack roll per target and roll.
    pub attack: Option<Reach>,
    /// Separate rolls (rays, beams, darts) at its own level.
    pub rolls: u8,
    /// More rolls per slot level above its own.
    pub rolls_per_slot: u8,
    /// Its saving throw.
    pub save: Option<SpellSave>,
    /// Damage per target (per roll with `rolls`).
    pub damage: Vec<DamagePart>,
    /// Damage added per slot level above its own.
    pub damage_per_slot: Vec<DamagePart>,
    /// The caster's spellcasting ability modifier is added to each hit's
    /// damage (*spiritual weapon*: "1d8 plus your spellcasting ability
    /// modifier").
    pub damage_modifier: bool,
    /// A cantrip's growth with the character level.
    pub cantrip_scaling: Option<CantripScaling>,
    /// A condition on a failed save (or a hit).
    pub condition: Option<SpellCondition>,
    /// A target with at most this many hit points dies instead of taking
    /// the damage (*power word kill*: 100).
    pub kills_at_most_hp: Option<u16>,
    /// Damage again on later turns.
    pub ongoing: Option<Ongoing>,
    /// A buff or debuff while it lasts.
    pub modifiers: Option<Modifiers>,
    /// Healing.
    pub healing: Option<SpellHealing>,
    /// What of it the loop does not model.
    pub not_modelled: Vec<String>,
}

impl SpellSpec {
    /// Whether it kills a creature at `hp` hit points outright instead of
    /// dealing its damage (*power word kill*).
    pub fn kills(&self, hp: i32) -> bool {
        self.kills_at_most_hp.is_some_and(|h| hp <= i32::from(h))
    }

    /// The limit in hit points its target must be within for its
    /// condition or its kill (*power word stun*, *power word kill*).
    pub fn hp_limit(&self) -> Option<u16> {
        self.condition
            .and_then(|c| c.hp_at_most)
            .or(self.kills_at_most_hp)
    }

    /// An emanation of ongoing damage around its caster against its
    /// enemies, dealt to those in it at the start or end of their turns
    /// (*spirit guardians*): it moves with the caster, and a melee
    /// attacker of the caster stands in it.
    pub fn is_caster_emanation(&self) -> bool {
        matches!(
            self.targets,
            Targets::Area {
                shape: Shape::Emanation,
                side: Side::Enemies,
                ..
            }
        ) && self
            .ongoing
            .is_some_and(|o| o.when != OngoingWhen::CasterTurn)
    }

    /// Whether the round loop casts it as an attack, control or buff spell
    /// (modelled or partly, cast in an action, a bonus action or as
    /// *shield*'s reaction, and not a healing spell, which the healing
    /// policy casts from `spells`).
    pub fn cast_in_fights(&self) -> bool {
        matches!(self.fight, FightUse::Modelled | FightUse::Partial)
            && self.healing.is_none()
            && match self.casting_time {
                CastingTime::Action | CastingTime::BonusAction => {
                    !self.damage.is_empty() || self.condition.is_some() || self.modifiers.is_some()
                }
                CastingTime::Reaction => {
                    self.trigger == Some(Trigger::HitByAttack)
                        && self.modifiers.is_some_and(|m| m.ac > 0)
                }
                CastingTime::Long => false,
            }
    }

    /// Its damage parts cast with a slot of `slot` (0 for a cantrip) by a
    /// caster of character level `level`: the per-slot dice added for
    /// each level above its own, a cantrip's dice multiplied by its tier.
    pub fn damage_at(&self, slot: u8, level: u8) -> [Option<DamagePart>; 2] {
        let above = u32::from(slot.saturating_sub(self.level));
        let tier = u32::from(cantrip_tier(level));
        let mut out = [None; 2];
        for (k, part) in self.damage.iter().take(2).enumerate() {
            let mut dice = part.dice;
            if self.level == 0 && self.cantrip_scaling == Some(CantripScaling::Dice) {
                dice.count *= tier;
            }
            for extra in self.damage_per_slot.iter().filter(|e| e.kind == part.kind) {
                dice.count += extra.dice.count * above;
                dice.modifier += extra.dice.modifier * above as i32;
            }
            out[k] = Some(DamagePart {
                dice,
                kind: part.kind,
            });
        }
        out
    }

    /// Its separate rolls cast with `slot` by a caster of `level`.
    pub fn rolls_at(&self, slot: u8, level: u8) -> u8 {
        let above = slot.saturating_sub(self.level);
        let mut rolls = self
            .rolls
            .max(1)
            .saturating_add(self.rolls_per_slot.saturating_mul(above));
        if self.level == 0 && self.cantrip_scaling == Some(CantripScaling::Rolls) {
            rolls = rolls.saturating_mul(cantrip_tier(level));
        }
        rolls
    }

    /// How many creatures it affects cast with `slot`: its count (an
    /// area's by [`area_targets`]) plus the per-slot ones.
    pub fn targets_at(&self, slot: u8) -> u8 {
        let above = slot.saturating_sub(self.level);
        let base = match self.targets {
            Targets::Creatures { count, .. } => count.max(1),
            Targets::Area { shape, size, .. } => area_targets(shape, size),
            Targets::Caster => 1,
        };
        base.saturating_add(self.targets_per_slot.saturating_mul(above))
    }
}

/// What the casting policy weighs of a known spell cast with one slot (0
/// for a cantrip), worked out once per encounter for its caster's level:
/// the mean of its damage parts plus the caster's damage bonus, its
/// separate rolls and the creatures it affects.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SlotMeans {
    /// Mean damage of one roll: its parts' dice means plus the damage bonus.
    pub damage: f64,
    /// The same by part: each part's type and mean (the damage bonus on the
    /// first, as it is rolled), for weighing a target's damage defenses.
    pub parts: [Option<(DamageType, f64)>; 2],
    /// Separate rolls ([`SpellSpec::rolls_at`]).
    pub rolls: u8,
    /// Creatures affected ([`SpellSpec::targets_at`]).
    pub targets: u8,
}

impl KnownSpell {
    /// The level a monster's Spellcasting casts it at without a slot (its
    /// "level N version"); a slot spell's own level otherwise.
    pub fn cast_level(&self) -> u8 {
        self.innate.map_or(self.spell.level, |i| i.level)
    }

    /// [`SlotMeans`] of this spell for each slot 0..=9, cast by a caster
    /// of `level`.
    pub fn slot_means(&self, level: u8) -> [SlotMeans; 10] {
        let mut out = [SlotMeans::default(); 10];
        let bonus = f64::from(self.damage_bonus + self.modifier_damage);
        for (slot, m) in (0u8..).zip(out.iter_mut()) {
            let damage = self.spell.damage_at(slot, level);
            let mut parts = [None; 2];
            for (k, (out, part)) in parts.iter_mut().zip(damage).enumerate() {
                *out = part.map(|p| (p.kind, p.dice.mean() + if k == 0 { bonus } else { 0.0 }));
            }
            *m = SlotMeans {
                damage: damage.iter().flatten().map(|p| p.dice.mean()).sum::<f64>() + bonus,
                parts,
                rolls: self.spell.rolls_at(slot, level),
                targets: self.spell.targets_at(slot),
            };
        }
        out
    }
}

/// The most attack, control and buff spells one creature knows: the round
/// loop values each it can cast on every one of its turns, and keeps the
/// one it concentrates on as a byte.
pub const MAX_KNOWN_SPELLS: usize = 32;

/// Every spell of a spell file (`data/spells.toml`), in file order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Spells {
    /// The spells.
    pub spells: Vec<SpellSpec>,
}

impl Spells {
    /// The index of the spell named `name` (`-` may stand for `_`).
    pub fn index(&self, name: &str) -> Option<usize> {
        let wanted = name.replace('-', "_");
        self.spells.iter().position(|s| s.name == wanted)
    }

    /// The spell named `name` (`-` may stand for `_`).
    pub fn get(&self, name: &str) -> Option<&SpellSpec> {
        self.index(name).map(|i| &self.spells[i])
    }

    /// The names of the spells the round loop casts as attack, control or
    /// buff spells.
    pub fn castable_names(&self) -> Vec<&str> {
        self.spells
            .iter()
            .filter(|s| s.cast_in_fights())
            .map(|s| s.name.as_str())
            .collect()
    }
}

/// A spell a creature casts in fights, with its caster's numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct KnownSpell {
    /// The spell.
    pub spell: SpellSpec,
    /// Its save DC: 8 + proficiency + the spellcasting modifier.
    pub dc: i32,
    /// Its spell attack bonus: proficiency + the spellcasting modifier.
    pub to_hit: i32,
    /// Added to one damage roll of each casting (Elemental Affinity,
    /// Agonizing Blast on each beam).
    pub damage_bonus: i32,
    /// The damage bonus goes to every roll (each beam), not only the first.
    pub bonus_every_roll: bool,
    /// The caster's spellcasting modifier added to every damage roll of a
    /// spell that says so ([`SpellSpec::damage_modifier`]); 0 otherwise.
    pub modifier_damage: i32,
    /// A monster's spell from its Spellcasting (SRD 5.2 stat blocks): cast
    /// at a fixed level, at will or a number of times a day, with no spell
    /// slot. `None`: a spell cast with spell slots.
    pub innate: Option<Innate>,
}

/// How a monster casts one spell of its Spellcasting: "At Will: ...",
/// "2/Day Each: Fireball (level 4 version), ...".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Innate {
    /// The level it is cast at (its "level N version"; a cantrip 0).
    pub level: u8,
    /// Castings a day (a fight's monsters are anew); 0: at will.
    pub per_day: u8,
    /// Its counter among the creature's daily spells
    /// (below [`MAX_DAILY_SPELLS`]).
    pub counter: u8,
    /// The Multiattack may cast it in place of one attack ("It can replace
    /// one attack with a use of Spellcasting to cast Scorching Ray").
    pub replaces_attack: bool,
    /// Only a legendary action casts it ("Frightful Presence: the dragon
    /// casts Fear"), never its action.
    pub legendary_only: bool,
}

impl Innate {
    /// The slot level the casting policy charges for it: its level for a
    /// spell with uses a day (as a slot of that level), nothing at will.
    pub fn cost(self) -> u8 {
        if self.per_day > 0 { self.level } else { 0 }
    }
}

/// The most spells of one creature's Spellcasting with uses a day (each
/// has a counter in the creature's fight state).
pub const MAX_DAILY_SPELLS: usize = 8;

/// The chance that a d20 plus `bonus` meets `dc` (a save): a natural 1 is
/// no automatic failure on a save, so the chance is clamped to 0..=1.
pub fn save_chance(bonus: i32, dc: i32) -> f64 {
    (f64::from(21 - (dc - bonus)) / 20.0).clamp(0.0, 1.0)
}

/// The chance that an attack with `to_hit` hits armour class `ac`: a
/// natural 20 always hits, a natural 1 always misses.
pub fn hit_chance(to_hit: i32, ac: i32) -> f64 {
    (f64::from(21 - (ac - to_hit)) / 20.0).clamp(0.05, 0.95)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(dice: &str, kind: DamageType) -> DamagePart {
        DamagePart {
            dice: dice.parse().unwrap(),
            kind,
        }
    }

    fn spell(level: u8) -> SpellSpec {
        SpellSpec {
            name: "x".into(),
            title: "X".into(),
            level,
            classes: vec!["wizard".into()],
            school: "evocation".into(),
            casting_time: CastingTime::Action,
            trigger: None,
            range: Some(120),
            duration: Some(0),
            concentration: false,
            verbal: true,
            fight: FightUse::Modelled,
            targets: Targets::Creatures {
                count: 1,
                side: Side::Enemies,
            },
            targets_per_slot: 0,
            attack: None,
            rolls: 1,
            rolls_per_slot: 0,
            save: None,
            damage: vec![],
            damage_per_slot: vec![],
            damage_modifier: false,
            cantrip_scaling: None,
            condition: None,
            kills_at_most_hp: None,
            ongoing: None,
            modifiers: None,
            healing: None,
            not_modelled: vec![],
        }
    }

    #[test]
    fn the_dmg_area_table_counts_targets_by_shape_rounding_up() {
        assert_eq!(area_targets(Shape::Sphere, 20), 4);
        assert_eq!(area_targets(Shape::Sphere, 40), 8); // meteor swarm
        assert_eq!(area_targets(Shape::Cone, 60), 6); // cone of cold
        assert_eq!(area_targets(Shape::Cone, 15), 2);
        assert_eq!(area_targets(Shape::Cube, 15), 3); // thunderwave
        assert_eq!(area_targets(Shape::Line, 100), 4);
        assert_eq!(area_targets(Shape::Line, 30), 1);
        assert_eq!(area_targets(Shape::Cylinder, 10), 2);
        assert_eq!(area_targets(Shape::Emanation, 15), 3); // spirit guardians
        assert_eq!(area_targets(Shape::Sphere, 0), 1);
    }

    #[test]
    fn upcasting_adds_dice_per_slot_and_cantrips_grow_at_5_11_17() {
        let mut fireball = spell(3);
        fireball.damage = vec![part("8d6", DamageType::Fire)];
        fireball.damage_per_slot = vec![part("1d6", DamageType::Fire)];
        assert_eq!(fireball.damage_at(3, 5)[0].unwrap().dice.to_string(), "8d6");
        assert_eq!(
            fireball.damage_at(5, 9)[0].unwrap().dice.to_string(),
            "10d6"
        );
        let mut bolt = spell(0);
        bolt.damage = vec![part("1d10", DamageType::Fire)];
        bolt.cantrip_scaling = Some(CantripScaling::Dice);
        let dice: Vec<String> = [1, 4, 5, 10, 11, 16, 17, 20]
            .map(|l| bolt.damage_at(0, l)[0].unwrap().dice.to_string())
            .to_vec();
        assert_eq!(
            dice,
            [
                "1d10", "1d10", "2d10", "2d10", "3d10", "3d10", "4d10", "4d10"
            ]
        );
        let mut blast = spell(0);
        blast.cantrip_scaling = Some(CantripScaling::Rolls);
        assert_eq!([1, 5, 11, 17].map(|l| blast.rolls_at(0, l)), [1, 2, 3, 4]);
        let mut ray = spell(2);
        ray.rolls = 3;
        ray.rolls_per_slot = 1;
        assert_eq!((ray.rolls_at(2, 9), ray.rolls_at(4, 9)), (3, 5));
        let mut hold = spell(2);
        hold.targets_per_slot = 1;
        assert_eq!((hold.targets_at(2), hold.targets_at(5)), (1, 4));
    }

    #[test]
    fn conditions_carry_their_srd_effects() {
        use bits::*;
        let p = Condition::Paralyzed.bits();
        assert!(p & CRITICAL_WITHIN_5 != 0 && p & FAILS_STR_DEX != 0 && p & INCAPACITATED != 0);
        assert_eq!(Condition::Stunned.bits() & CRITICAL_WITHIN_5, 0);
        assert!(Condition::Restrained.bits() & DIS_DEX_SAVES != 0);
        assert!(!Condition::Restrained.disables() && Condition::Banished.disables());
        for c in Condition::ALL {
            assert_eq!(Condition::parse(c.name()), Some(c));
        }
    }

    #[test]
    fn chances_of_saves_and_hits() {
        assert_eq!(save_chance(0, 11), 0.5);
        assert_eq!(save_chance(0, 25), 0.0);
        assert_eq!(save_chance(10, 5), 1.0);
        assert_eq!(hit_chance(0, 30), 0.05);
        assert_eq!(hit_chance(20, 5), 0.95);
    }
}
