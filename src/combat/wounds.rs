//! Permanent wounds as they play in a fight (docs/rules.md, permanent wounds, "Effects"): the
//! examples of each severity (`data/permanent-wounds.toml`, parsed once at
//! start-up) with the effects the round loop models. When a PC accepts a
//! wound, one example of its severity is drawn uniformly.

use crate::rules::permanent_wounds::Severity;

use super::effect;

/// The effects an example may have, by their name in the data file.
pub const EFFECTS: [(&str, u16); 10] = [
    ("disadvantage_on_ranged_attacks", effect::DIS_RANGED),
    (
        "disadvantage_on_ranged_attacks_beyond_30_ft",
        effect::DIS_RANGED_FAR,
    ),
    ("no_two_handed_weapons", effect::NO_TWO_HANDED),
    ("disadvantage_on_con_saves", effect::DIS_CON_SAVES),
    ("disadvantage_on_str_saves", effect::DIS_STR_SAVES),
    ("disadvantage_on_dex_saves", effect::DIS_DEX_SAVES),
    ("blinded", effect::BLINDED),
    ("no_shield", effect::NO_SHIELD),
    ("disadvantage_on_dex_checks", effect::DIS_DEX_CHECKS),
    ("hit_dice_one_size_smaller", effect::SMALLER_HIT_DICE),
];

/// One example of a permanent wound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WoundExample {
    /// Name, e.g. `lost eye`.
    pub name: String,
    /// The effect bits it sets (see [`EFFECTS`]).
    pub effects: u16,
    /// Costs 1 max HP per character level.
    pub max_hp_per_level: bool,
    /// Feet added to its speed (negative: slower; a limp's −10).
    pub speed_change: i32,
    /// Its speed at most (feet; a lost leg's 5 ft without a prosthesis).
    pub speed_at_most: Option<i32>,
}

impl WoundExample {
    /// A speed of `speed` feet after this wound.
    pub fn speed(&self, speed: i32) -> i32 {
        let changed = (speed + self.speed_change).max(0);
        self.speed_at_most.map_or(changed, |cap| changed.min(cap))
    }

    /// Whether it changes speed at all.
    pub fn slows(&self) -> bool {
        self.speed_change != 0 || self.speed_at_most.is_some()
    }
}

/// The examples of each severity, none empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WoundExamples([Vec<WoundExample>; 3]);

impl WoundExamples {
    /// The examples of minor, moderate and severe wounds; `None` if a
    /// severity has none.
    pub fn new(by_severity: [Vec<WoundExample>; 3]) -> Option<Self> {
        by_severity
            .iter()
            .all(|e| !e.is_empty())
            .then_some(WoundExamples(by_severity))
    }

    /// The examples of `severity` (at least one).
    pub fn of(&self, severity: Severity) -> &[WoundExample] {
        &self.0[severity as usize]
    }

    /// The names of the effects in `bits`, in [`EFFECTS`] order.
    pub fn effect_names(bits: u16) -> Vec<&'static str> {
        EFFECTS
            .iter()
            .filter(|(_, b)| bits & b != 0)
            .map(|(n, _)| *n)
            .collect()
    }
}
