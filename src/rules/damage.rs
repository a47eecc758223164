//! Damage types, creature sizes and damage modifiers (SRD 5.1): resistance
//! halves damage (rounded down), vulnerability doubles it, immunity removes
//! it. Shared by the combat model and the limb model.

use serde::Deserialize;

/// The seed's size categories (0.25 … 4) with their D&D size names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Size {
    /// Category 0.25.
    Tiny,
    /// Category 0.5.
    Small,
    /// Category 1.
    Medium,
    /// Category 2.
    Large,
    /// Category 3.
    Huge,
    /// Category 4.
    Gargantuan,
}

/// The thirteen 5e damage types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DamageType {
    /// Acid.
    Acid,
    /// Bludgeoning.
    Bludgeoning,
    /// Cold.
    Cold,
    /// Fire.
    Fire,
    /// Force.
    Force,
    /// Lightning.
    Lightning,
    /// Necrotic.
    Necrotic,
    /// Piercing.
    Piercing,
    /// Poison.
    Poison,
    /// Psychic.
    Psychic,
    /// Radiant.
    Radiant,
    /// Slashing.
    Slashing,
    /// Thunder.
    Thunder,
}

impl DamageType {
    /// All types in declaration order.
    pub const ALL: [DamageType; 13] = [
        DamageType::Acid,
        DamageType::Bludgeoning,
        DamageType::Cold,
        DamageType::Fire,
        DamageType::Force,
        DamageType::Lightning,
        DamageType::Necrotic,
        DamageType::Piercing,
        DamageType::Poison,
        DamageType::Psychic,
        DamageType::Radiant,
        DamageType::Slashing,
        DamageType::Thunder,
    ];

    /// Name as written in scenario files.
    pub fn name(self) -> &'static str {
        match self {
            DamageType::Acid => "acid",
            DamageType::Bludgeoning => "bludgeoning",
            DamageType::Cold => "cold",
            DamageType::Fire => "fire",
            DamageType::Force => "force",
            DamageType::Lightning => "lightning",
            DamageType::Necrotic => "necrotic",
            DamageType::Piercing => "piercing",
            DamageType::Poison => "poison",
            DamageType::Psychic => "psychic",
            DamageType::Radiant => "radiant",
            DamageType::Slashing => "slashing",
            DamageType::Thunder => "thunder",
        }
    }

    fn bit(self) -> u16 {
        1 << (self as u16)
    }
}

/// A set of damage types (a bit set).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DamageTypes(u16);

impl DamageTypes {
    /// No type.
    pub const NONE: DamageTypes = DamageTypes(0);

    /// The set of the given types.
    pub fn of<I: IntoIterator<Item = DamageType>>(types: I) -> Self {
        DamageTypes(types.into_iter().fold(0, |a, t| a | t.bit()))
    }

    /// Whether `t` is in the set.
    pub fn has(self, t: DamageType) -> bool {
        self.0 & t.bit() != 0
    }

    /// The set with `t` added.
    pub fn with(self, t: DamageType) -> Self {
        DamageTypes(self.0 | t.bit())
    }

    /// Union.
    pub fn union(self, other: DamageTypes) -> Self {
        DamageTypes(self.0 | other.0)
    }

    /// The members in declaration order.
    pub fn iter(self) -> impl Iterator<Item = DamageType> {
        DamageType::ALL.into_iter().filter(move |t| self.has(*t))
    }

    /// Comma-separated names, for messages.
    pub fn names(self) -> String {
        let names: Vec<&str> = self.iter().map(DamageType::name).collect();
        if names.is_empty() {
            "none".into()
        } else {
            names.join(", ")
        }
    }
}

/// A creature's damage modifiers by type.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Defenses {
    /// Types dealt half damage (rounded down).
    pub resistant: DamageTypes,
    /// Types dealt no damage.
    pub immune: DamageTypes,
    /// Types dealt double damage.
    pub vulnerable: DamageTypes,
}

impl Defenses {
    /// Damage after the modifiers for `kind` (SRD: resistance and
    /// vulnerability of the same type cancel; immunity wins).
    ///
    /// ```
    /// use woundsim::rules::damage::{DamageType, DamageTypes, Defenses};
    /// let raging = Defenses { resistant: DamageTypes::of([DamageType::Slashing]), ..Default::default() };
    /// assert_eq!(raging.apply(DamageType::Slashing, 9), 4);
    /// assert_eq!(raging.apply(DamageType::Fire, 9), 9);
    /// ```
    #[inline]
    pub fn apply(&self, kind: DamageType, amount: i32) -> i32 {
        if self.immune.has(kind) {
            return 0;
        }
        match (self.resistant.has(kind), self.vulnerable.has(kind)) {
            (true, false) => amount / 2,
            (false, true) => amount * 2,
            _ => amount,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resistance_halves_rounding_down_vulnerability_doubles_immunity_zeroes() {
        let fire = DamageTypes::of([DamageType::Fire]);
        let d = Defenses {
            resistant: fire,
            ..Default::default()
        };
        assert_eq!(d.apply(DamageType::Fire, 7), 3);
        let d = Defenses {
            vulnerable: fire,
            ..Default::default()
        };
        assert_eq!(d.apply(DamageType::Fire, 7), 14);
        let d = Defenses {
            immune: fire,
            resistant: fire,
            ..Default::default()
        };
        assert_eq!(d.apply(DamageType::Fire, 7), 0);
        let d = Defenses {
            resistant: fire,
            vulnerable: fire,
            ..Default::default()
        };
        assert_eq!(d.apply(DamageType::Fire, 7), 7);
    }
}
