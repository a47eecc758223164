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
    /// Its speed at most without a prosthesis (feet; a lost leg's 5 ft).
    pub speed_at_most: Option<i32>,
    /// Its speed at most with a prosthesis (feet; a lost leg's 10 ft);
    /// `None`: a prosthesis changes nothing, [`WoundExample::speed_at_most`] holds.
    pub speed_at_most_with_prosthesis: Option<i32>,
}

impl WoundExample {
    /// A speed of `speed` feet after this wound, for a PC that has a
    /// prosthesis (`prosthesis`, the option `lost_leg_prosthesis`) or not.
    pub fn speed(&self, speed: i32, prosthesis: bool) -> i32 {
        let changed = (speed + self.speed_change).max(0);
        let cap = match (prosthesis, self.speed_at_most_with_prosthesis) {
            (true, Some(cap)) => Some(cap),
            _ => self.speed_at_most,
        };
        cap.map_or(changed, |cap| changed.min(cap))
    }

    /// Whether it changes speed at all.
    pub fn slows(&self) -> bool {
        self.speed_change != 0
            || self.speed_at_most.is_some()
            || self.speed_at_most_with_prosthesis.is_some()
    }

    /// The effect bits it sets in a fight: its own, plus, under the reading
    /// that an ability's "all rolls" include its attack rolls
    /// (`attack_rolls`, the option `wound_attack_disadvantage`),
    /// disadvantage on the weapon attack rolls of each ability whose saves
    /// it gives disadvantage on (a lost arm: Strength; a lost leg:
    /// Dexterity).
    pub fn effects_in_fight(&self, attack_rolls: bool) -> u16 {
        let mut bits = self.effects;
        if attack_rolls {
            if bits & effect::DIS_STR_SAVES != 0 {
                bits |= effect::DIS_STR_ATTACKS;
            }
            if bits & effect::DIS_DEX_SAVES != 0 {
                bits |= effect::DIS_DEX_ATTACKS;
            }
        }
        bits
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

#[cfg(test)]
mod tests {
    use super::*;

    fn example(effects: u16, speed_at_most: Option<i32>, with: Option<i32>) -> WoundExample {
        WoundExample {
            name: "x".into(),
            effects,
            max_hp_per_level: false,
            speed_change: 0,
            speed_at_most,
            speed_at_most_with_prosthesis: with,
        }
    }

    /// A lost leg: 10 ft with a prosthesis, 5 ft without (seed, severe
    /// wounds); a wound with no prosthesis speed keeps its one cap.
    #[test]
    fn a_prosthesis_raises_the_cap_only_where_the_wound_gives_one() {
        let leg = example(0, Some(5), Some(10));
        assert_eq!((leg.speed(30, true), leg.speed(30, false)), (10, 5));
        assert_eq!(leg.speed(5, true), 5, "a cap, not a speed");
        let capped = example(0, Some(5), None);
        assert_eq!((capped.speed(30, true), capped.speed(30, false)), (5, 5));
        assert!(example(0, None, Some(10)).slows());
    }

    /// The reading `wound_attack_disadvantage`: disadvantage on an ability's
    /// saves brings it on that ability's weapon attacks; off, nothing is
    /// added.
    #[test]
    fn the_other_reading_adds_attack_disadvantage_for_each_ability_save() {
        let arm = example(effect::NO_SHIELD | effect::DIS_STR_SAVES, None, None);
        assert_eq!(arm.effects_in_fight(false), arm.effects);
        assert_eq!(
            arm.effects_in_fight(true),
            arm.effects | effect::DIS_STR_ATTACKS
        );
        let leg = example(effect::DIS_DEX_SAVES, None, None);
        assert_eq!(
            leg.effects_in_fight(true),
            effect::DIS_DEX_SAVES | effect::DIS_DEX_ATTACKS
        );
        let bruising = example(effect::DIS_CON_SAVES, None, None);
        assert_eq!(bruising.effects_in_fight(true), effect::DIS_CON_SAVES);
    }
}
