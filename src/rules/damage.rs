//! Damage types, creature sizes and damage modifiers (SRD 5.1): flat
//! reduction first, then immunity removes damage, resistance halves it
//! (rounded down) and vulnerability doubles it. Shared by the combat model
//! and the limb model.

use serde::Deserialize;

/// The seed's size categories (0.25 … 4) with their D&D size names,
/// smallest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
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

/// Damage modifiers of a creature (or of one limb: the creature's own plus
/// those of every armor piece that covers it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DamageModifiers {
    /// Half damage (rounded down).
    pub resistances: DamageTypes,
    /// No damage.
    pub immunities: DamageTypes,
    /// Double damage.
    pub vulnerabilities: DamageTypes,
    /// Flat reduction per hit, applied first (like Heavy Armor Master).
    pub reduction: u32,
}

impl DamageModifiers {
    /// Damage dealt by a hit of `raw` damage of type `t`.
    ///
    /// Order as in 5e (PHB "Damage Resistance and Vulnerability"): flat
    /// reductions first, then immunity, resistance (halve, round down; several
    /// sources do not stack), then vulnerability (double).
    ///
    /// ```
    /// use woundsim::rules::limbs::{DamageModifiers, DamageType, DamageTypes};
    /// let m = DamageModifiers {
    ///     resistances: DamageTypes::of([DamageType::Slashing]),
    ///     reduction: 2,
    ///     ..Default::default()
    /// };
    /// assert_eq!(m.apply(9, DamageType::Slashing), 3); // (9 - 2) / 2
    /// assert_eq!(m.apply(9, DamageType::Fire), 7);
    /// ```
    pub fn apply(&self, raw: i64, t: DamageType) -> u32 {
        if self.immunities.has(t) {
            return 0;
        }
        let mut d = (raw - i64::from(self.reduction)).max(0);
        if self.resistances.has(t) {
            d /= 2;
        }
        if self.vulnerabilities.has(t) {
            d *= 2;
        }
        d.min(i64::from(u32::MAX)) as u32
    }

    /// The share of damage of type `t` these modifiers leave, as a factor
    /// (immunity 0, resistance 0.5, vulnerability 2, both 1), flat
    /// reductions and rounding left out: the casting policy's weighing.
    pub fn share(&self, t: DamageType) -> f64 {
        if self.immunities.has(t) {
            return 0.0;
        }
        let mut share = 1.0;
        if self.resistances.has(t) {
            share *= 0.5;
        }
        if self.vulnerabilities.has(t) {
            share *= 2.0;
        }
        share
    }

    /// These modifiers plus another source's (resistances and the like
    /// unite; flat reductions add up).
    pub fn plus(&self, other: &DamageModifiers) -> DamageModifiers {
        DamageModifiers {
            resistances: self.resistances.union(other.resistances),
            immunities: self.immunities.union(other.immunities),
            vulnerabilities: self.vulnerabilities.union(other.vulnerabilities),
            reduction: self.reduction.saturating_add(other.reduction),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduction_then_immunity_resistance_vulnerability() {
        let fire = DamageTypes::of([DamageType::Fire]);
        let m = DamageModifiers {
            resistances: fire,
            ..Default::default()
        };
        assert_eq!(m.apply(7, DamageType::Fire), 3);
        assert_eq!(m.apply(7, DamageType::Cold), 7);
        let m = DamageModifiers {
            vulnerabilities: fire,
            ..Default::default()
        };
        assert_eq!(m.apply(7, DamageType::Fire), 14);
        let m = DamageModifiers {
            immunities: fire,
            resistances: fire,
            ..Default::default()
        };
        assert_eq!(m.apply(7, DamageType::Fire), 0);
        // Resistance and vulnerability both apply, in that order (7 → 3 → 6).
        let m = DamageModifiers {
            resistances: fire,
            vulnerabilities: fire,
            ..Default::default()
        };
        assert_eq!(m.apply(7, DamageType::Fire), 6);
        let m = DamageModifiers {
            reduction: 3,
            ..Default::default()
        };
        assert_eq!(m.apply(2, DamageType::Fire), 0);
    }
}
