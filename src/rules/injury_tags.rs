//! The typed tags of the lingering-injury table (docs/rules.md, lingering injuries): what an
//! injury does (`Effect`, read by the combat model) and what ends it
//! (`Cure`, read by the healing-cost model), as serde enums so the table's
//! TOML names them. Re-exported by [`crate::rules::lingering`].

use serde::Deserialize;

/// A roll the effects can impose advantage or disadvantage on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Check {
    /// Wisdom (Perception) checks that rely on sight.
    PerceptionSight,
    /// Wisdom (Perception) checks that rely on hearing.
    PerceptionHearing,
    /// Wisdom (Perception) checks that rely on smell.
    PerceptionSmell,
    /// Ranged attack rolls.
    RangedAttacks,
    /// Charisma (Persuasion) checks.
    Persuasion,
    /// Charisma (Intimidation) checks.
    Intimidation,
    /// Dexterity (Sleight of Hand) checks with the injured hand.
    SleightOfHand,
    /// Dexterity checks to use fine tools (thieves' tools) with the injured hand.
    FineTools,
    /// Dexterity checks to keep one's balance.
    DexterityBalance,
}

/// The ability of a saving throw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ability {
    /// Strength.
    Strength,
    /// Dexterity.
    Dexterity,
    /// Constitution.
    Constitution,
    /// Intelligence.
    Intelligence,
    /// Wisdom.
    Wisdom,
    /// Charisma.
    Charisma,
}

/// When an action-loss save applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SaveWhen {
    /// Every time the creature tries to take an action in combat.
    Always,
    /// Only while it rains, sleets, hails or snows (painful scar).
    Precipitation,
}

/// A spell component.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Component {
    /// Verbal.
    Verbal,
    /// Somatic.
    Somatic,
    /// Material.
    Material,
}

/// What kind of item a broken-item roll destroys.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ItemKind {
    /// A weapon.
    Weapon,
    /// Armor or a shield.
    ArmorOrShield,
    /// Any other nonmagical item.
    Other,
}

impl ItemKind {
    /// Lower-case name used in scenario files.
    pub fn name(self) -> &'static str {
        match self {
            ItemKind::Weapon => "weapon",
            ItemKind::ArmorOrShield => "armor_or_shield",
            ItemKind::Other => "other",
        }
    }
}

/// One row of the broken-item sub-table.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemRow {
    /// Inclusive range of the sub-table die.
    pub d: [u8; 2],
    /// The item that breaks.
    pub item: ItemKind,
}

/// A mechanical effect of an injury, as a tag the combat model can read.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "tag", rename_all = "snake_case", deny_unknown_fields)]
pub enum Effect {
    /// Disadvantage on these rolls.
    Disadvantage {
        /// The rolls.
        on: Vec<Check>,
    },
    /// Advantage on these rolls.
    Advantage {
        /// The rolls.
        on: Vec<Check>,
    },
    /// Can't hold anything with two hands; holds one object at a time.
    OneHandOnly,
    /// Walking speed halved.
    SpeedHalved,
    /// Walking speed changed by this many feet (negative = slower).
    SpeedChange {
        /// Feet per round.
        feet: i32,
    },
    /// Needs a cane or crutch to move.
    WalkingAid {
        /// Whether a peg leg or prosthesis removes the need.
        unless_prosthesis: bool,
    },
    /// After the Dash action: falls prone, or a Dexterity save against this DC.
    ProneAfterDash {
        /// Save DC; absent = always falls prone.
        #[serde(default)]
        save_dc: Option<u8>,
    },
    /// Blinded once this many of the organ are lost (eyes: 2).
    BlindedWhenAllLost {
        /// How many the creature has.
        count: u8,
    },
    /// A hand counts as lost once this many of its fingers are lost.
    HandLostWhenAllLost {
        /// Fingers per hand.
        count: u8,
    },
    /// Each action in combat needs a save; a failure loses the action and
    /// reactions until the start of the next turn.
    ActionLossSave {
        /// The save's ability.
        ability: Ability,
        /// The save's DC.
        dc: u8,
        /// When the save applies.
        when: SaveWhen,
    },
    /// Action or bonus action on its turn, not both.
    ActionOrBonusAction,
    /// A second injury of this entry drops the creature to 0 HP (dying).
    SecondDropsToZeroHp,
    /// A spell with this component fails on a roll of `fails_on` or lower on the die.
    SpellFailure {
        /// The component that triggers the roll.
        component: Component,
        /// Sides of the die.
        die: u8,
        /// Highest failing roll.
        fails_on: u8,
    },
    /// A random nonmagical item breaks, chosen on a sub-table.
    BrokenItem {
        /// Sides of the sub-table die.
        die: u8,
        /// The sub-table; its ranges cover 1..=die exactly once.
        items: Vec<ItemRow>,
    },
    /// Max HP drops by `amount` for each 24 hours the wound persists; death at 0 max HP.
    MaxHpLossPerDay {
        /// Max HP per full day.
        amount: u32,
    },
}

/// Which class of magic cures an injury, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MagicClass {
    /// Any spell or potion that restores HP.
    MagicalHealing,
    /// Restoration magic; the scenario's `restoration_reading` says which
    /// spell the seed's "Восстановление" means.
    Restoration,
    /// Healing magic of 6th level or higher (*heal*, *regenerate*).
    #[serde(rename = "healing_6th")]
    Healing6th,
    /// *Regenerate* or similar magic.
    Regenerate,
}

impl MagicClass {
    /// All classes, weakest first.
    pub const ALL: [MagicClass; 4] = [
        MagicClass::MagicalHealing,
        MagicClass::Restoration,
        MagicClass::Healing6th,
        MagicClass::Regenerate,
    ];

    /// Lower-case name used in files and metric names.
    pub fn name(self) -> &'static str {
        match self {
            MagicClass::MagicalHealing => "magical_healing",
            MagicClass::Restoration => "restoration",
            MagicClass::Healing6th => "healing_6th",
            MagicClass::Regenerate => "regenerate",
        }
    }
}

/// One way to end an injury.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "tag", rename_all = "snake_case", deny_unknown_fields)]
pub enum Cure {
    /// Magic of this class.
    Magic {
        /// The class.
        class: MagicClass,
    },
    /// This many days of nothing but rest.
    Rest {
        /// Days.
        days: u32,
    },
    /// Someone succeeds on a Wisdom (Medicine) check at this DC, then this
    /// many days of rest.
    MedicineAndRest {
        /// The check's DC.
        dc: u8,
        /// Days of rest after the check succeeds.
        days: u32,
    },
    /// Someone tends the wound with a Medicine check every 24 hours; it
    /// closes at the `successes`-th success (the festering-wound process).
    Tending {
        /// The check's DC.
        dc: u8,
        /// Successes needed.
        successes: u32,
    },
    /// Replace the broken item.
    ReplaceItem,
}

/// The cure class of an entry, for the "share by cure class" metrics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CureClass {
    /// The weakest magic that cures it.
    Magic(MagicClass),
    /// No magic cures it (e.g. a broken item).
    NoMagic,
}

impl CureClass {
    /// Every class, in report order.
    pub const ALL: [CureClass; 5] = [
        CureClass::Magic(MagicClass::MagicalHealing),
        CureClass::Magic(MagicClass::Restoration),
        CureClass::Magic(MagicClass::Healing6th),
        CureClass::Magic(MagicClass::Regenerate),
        CureClass::NoMagic,
    ];

    /// Name used in metric names.
    pub fn name(self) -> &'static str {
        match self {
            CureClass::Magic(m) => m.name(),
            CureClass::NoMagic => "no_magic",
        }
    }
}

impl Cure {
    /// A short human description, e.g. `Medicine DC 15 + 30 days rest`.
    pub fn describe(&self) -> String {
        match self {
            Cure::Magic { class } => class.name().replace('_', " "),
            Cure::Rest { days } => format!("{days} days rest"),
            Cure::MedicineAndRest { dc, days } => format!("Medicine DC {dc} + {days} days rest"),
            Cure::Tending { dc, successes } => {
                format!("tending (Medicine DC {dc} daily, {successes} successes)")
            }
            Cure::ReplaceItem => "replace the item".into(),
        }
    }
}
