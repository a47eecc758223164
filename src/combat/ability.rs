//! The six abilities and an attack's reach: the leaf vocabulary that
//! creatures ([`super::creature`]) and spells ([`super::spell`]) share.

/// The six abilities, in the order of `CreatureSpec::saves`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ability {
    /// Strength.
    Str,
    /// Dexterity.
    Dex,
    /// Constitution.
    Con,
    /// Intelligence.
    Int,
    /// Wisdom.
    Wis,
    /// Charisma.
    Cha,
}

/// Melee attacks can reach a creature within 5 ft; ranged ones cannot use
/// the automatic critical against an unconscious target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reach {
    /// Within 5 ft (or the weapon's reach).
    Melee,
    /// A ranged weapon or spell attack.
    Ranged,
}
