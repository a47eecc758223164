//! Permanent wounds instead of death (docs/rules.md, permanent wounds).
//!
//! When a PC fails its last death save (the save that would bring failures to
//! three, a natural 1 included) it may count that save as a success by
//! accepting a permanent wound. The wound's severity follows the successes
//! rolled before that save: two → minor, one → moderate, none → severe. A PC
//! carries at most one wound of each severity; it may take a more severe one
//! than required, and must when the required slot is taken. With no equal or
//! more severe slot free, it dies. The wounded PC is out of the fight (stable
//! at 0 HP) until healed.

/// Severity of a permanent wound, from least to most severe.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Visible, no rules effect.
    Minor,
    /// Disadvantage in specific situations plus a small penalty.
    Moderate,
    /// Disadvantage in broad situations plus a heavy penalty.
    Severe,
}

impl Severity {
    /// All severities, least severe first.
    pub const ALL: [Severity; 3] = [Severity::Minor, Severity::Moderate, Severity::Severe];

    /// The severity required after `successes` successful saves (docs/rules.md, permanent wounds:
    /// 2 → minor, 1 → moderate, 0 → severe).
    ///
    /// ```
    /// use woundsim::rules::permanent_wounds::Severity;
    /// assert_eq!(Severity::required_by_successes(2), Severity::Minor);
    /// assert_eq!(Severity::required_by_successes(0), Severity::Severe);
    /// ```
    pub fn required_by_successes(successes: u8) -> Severity {
        match successes {
            0 => Severity::Severe,
            1 => Severity::Moderate,
            _ => Severity::Minor,
        }
    }

    /// Which wound each count of successes before the last failed save
    /// requires, read off [`Self::required_by_successes`].
    ///
    /// ```
    /// use woundsim::rules::permanent_wounds::Severity;
    /// assert_eq!(Severity::describe_requirement(), "2 -> minor, 1 -> moderate, 0 -> severe");
    /// ```
    pub fn describe_requirement() -> String {
        (0..=2)
            .rev()
            .map(|s| format!("{s} -> {}", Severity::required_by_successes(s).name()))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Lower-case name used in scenario files and metric names.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Minor => "minor",
            Severity::Moderate => "moderate",
            Severity::Severe => "severe",
        }
    }

    /// Looks a severity up by its scenario-file name.
    pub fn from_name(name: &str) -> Option<Severity> {
        Severity::ALL.into_iter().find(|s| s.name() == name)
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// The set of permanent wounds a PC already carries (one slot per severity).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct WoundSlots(u8);

impl WoundSlots {
    /// No wounds taken.
    pub const EMPTY: WoundSlots = WoundSlots(0);

    /// The slots taken by the given wounds.
    pub fn from_wounds<I: IntoIterator<Item = Severity>>(wounds: I) -> Self {
        WoundSlots(wounds.into_iter().fold(0, |bits, s| bits | s.bit()))
    }

    /// Whether a wound of this severity is already carried.
    pub fn has(self, severity: Severity) -> bool {
        self.0 & severity.bit() != 0
    }

    /// These slots with one more wound.
    pub fn with(self, severity: Severity) -> Self {
        WoundSlots(self.0 | severity.bit())
    }

    /// The wounds carried, least severe first.
    pub fn wounds(self) -> impl Iterator<Item = Severity> {
        Severity::ALL.into_iter().filter(move |s| self.has(*s))
    }
}

/// Whether and how a PC accepts a permanent wound instead of dying.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WoundPolicy {
    /// Rules as written: the PC dies on its third failure.
    #[default]
    Never,
    /// Accept the least severe free wound that is allowed.
    AcceptLeastSevere,
}

impl WoundPolicy {
    /// Scenario-file name of the policy.
    pub fn name(self) -> &'static str {
        match self {
            WoundPolicy::Never => "never",
            WoundPolicy::AcceptLeastSevere => "accept_least_severe",
        }
    }

    /// The wound a PC takes when it fails its last save with `successes`
    /// successes while carrying `taken`; `None` means it dies.
    ///
    /// ```
    /// use woundsim::rules::permanent_wounds::{Severity, WoundPolicy, WoundSlots};
    /// let policy = WoundPolicy::AcceptLeastSevere;
    /// let minor_taken = WoundSlots::from_wounds([Severity::Minor]);
    /// // Two successes require a minor wound; its slot is taken, so it escalates.
    /// assert_eq!(policy.choose(2, minor_taken), Some(Severity::Moderate));
    /// assert_eq!(WoundPolicy::Never.choose(2, WoundSlots::EMPTY), None);
    /// ```
    pub fn choose(self, successes: u8, taken: WoundSlots) -> Option<Severity> {
        match self {
            WoundPolicy::Never => None,
            WoundPolicy::AcceptLeastSevere => {
                let required = Severity::required_by_successes(successes);
                Severity::ALL
                    .into_iter()
                    .find(|&s| s >= required && !taken.has(s))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Severity::*;

    #[test]
    fn severity_follows_successes_before_the_failed_save() {
        assert_eq!(Severity::required_by_successes(2), Minor);
        assert_eq!(Severity::required_by_successes(1), Moderate);
        assert_eq!(Severity::required_by_successes(0), Severe);
    }

    #[test]
    fn least_severe_free_slot_is_chosen() {
        let p = WoundPolicy::AcceptLeastSevere;
        assert_eq!(p.choose(2, WoundSlots::EMPTY), Some(Minor));
        assert_eq!(p.choose(1, WoundSlots::EMPTY), Some(Moderate));
        assert_eq!(p.choose(0, WoundSlots::EMPTY), Some(Severe));
    }

    #[test]
    fn a_taken_slot_escalates_to_a_more_severe_free_one() {
        let p = WoundPolicy::AcceptLeastSevere;
        assert_eq!(
            p.choose(2, WoundSlots::from_wounds([Minor])),
            Some(Moderate)
        );
        assert_eq!(
            p.choose(2, WoundSlots::from_wounds([Minor, Moderate])),
            Some(Severe)
        );
        assert_eq!(
            p.choose(1, WoundSlots::from_wounds([Moderate])),
            Some(Severe)
        );
        // A free *less* severe slot does not help.
        assert_eq!(
            p.choose(1, WoundSlots::from_wounds([Moderate, Severe])),
            None
        );
    }

    #[test]
    fn death_when_no_equal_or_more_severe_slot_is_free() {
        let p = WoundPolicy::AcceptLeastSevere;
        assert_eq!(p.choose(0, WoundSlots::from_wounds([Severe])), None);
        assert_eq!(p.choose(2, WoundSlots::from_wounds(Severity::ALL)), None);
    }

    #[test]
    fn never_policy_is_raw_death() {
        for s in 0..3 {
            assert_eq!(WoundPolicy::Never.choose(s, WoundSlots::EMPTY), None);
        }
    }

    #[test]
    fn slots_round_trip() {
        let slots = WoundSlots::from_wounds([Severe, Minor]);
        assert_eq!(slots.wounds().collect::<Vec<_>>(), vec![Minor, Severe]);
        assert!(slots.with(Moderate).has(Moderate));
        assert_eq!(Severity::from_name("moderate"), Some(Moderate));
        assert_eq!(Severity::from_name("fatal"), None);
    }
}
