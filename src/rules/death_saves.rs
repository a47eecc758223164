//! Death saving throws (SRD 5.1, docs/rules.md, death saves) with the permanent-wound option
//! (docs/rules.md, permanent wounds).
//!
//! A PC at 0 HP rolls a d20 at the start of each turn: a total of the DC
//! (10) or higher is a success, lower a failure; a natural 1 is two failures;
//! a natural 20 regains 1 HP (the PC is conscious again). Three successes:
//! stable. Three failures: dead — unless the permanent-wound option lets the
//! PC turn that last failed save into a wound ([`WoundPolicy::choose`]).
//!
//! Without outside help the sequence is a small absorbing Markov chain over
//! (successes, failures); [`DeathSaveRules::resolve_save`] is its single
//! transition, shared by the Monte Carlo table and the exact solver of the
//! `death_saves` scenario type (`types/death_saves/`).

use crate::dice::{D20Block, RollMode};
use crate::rules::permanent_wounds::{Severity, WoundPolicy, WoundSlots};

/// Successes and failures rolled so far (each 0..=2 while the PC is dying).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tally {
    /// Successful saves so far.
    pub successes: u8,
    /// Failed saves so far (a natural 1 counts two).
    pub failures: u8,
}

/// How a death-save sequence ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Resolution {
    /// Three failures with no permanent wound taken.
    Dead,
    /// Three successes: stable at 0 HP.
    Stable,
    /// A natural 20: regains 1 HP and is conscious.
    Revived,
    /// Survived the last failure by accepting a wound of this severity.
    Wounded(Severity),
}

impl Resolution {
    /// Number of distinct resolutions ([`Resolution::index`] is below it).
    pub const COUNT: usize = 6;

    /// All resolutions in index order.
    pub const ALL: [Resolution; Resolution::COUNT] = [
        Resolution::Dead,
        Resolution::Stable,
        Resolution::Revived,
        Resolution::Wounded(Severity::Minor),
        Resolution::Wounded(Severity::Moderate),
        Resolution::Wounded(Severity::Severe),
    ];

    /// Dense index 0..6, in the order of [`Resolution::ALL`].
    pub fn index(self) -> usize {
        match self {
            Resolution::Dead => 0,
            Resolution::Stable => 1,
            Resolution::Revived => 2,
            Resolution::Wounded(s) => 3 + s as usize,
        }
    }
}

/// The result of one death save.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaveStep {
    /// Still dying, with this tally.
    Continue(Tally),
    /// The sequence is over.
    Resolved(Resolution),
}

/// Most saves a sequence can take: two successes and two failures, then a
/// fifth save always resolves.
pub const MAX_SAVES: u32 = 5;

/// One PC's death-save rules: the DC, its bonus, how the d20 is rolled, where
/// the tally starts, and the permanent-wound option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeathSaveRules {
    /// A total at or above it is a success (RAW 10; 1..=30).
    pub dc: u8,
    /// Added to the d20 (e.g. a proficiency bonus from Diamond Soul).
    pub save_bonus: i8,
    /// Normal, advantage or disadvantage.
    pub roll: RollMode,
    /// Tally before the first simulated save (each 0..=2).
    pub start: Tally,
    /// Whether the PC accepts a permanent wound instead of dying.
    pub wound_policy: WoundPolicy,
    /// Permanent wounds the PC already carries.
    pub existing_wounds: WoundSlots,
}

impl Default for DeathSaveRules {
    /// Rules as written: DC 10, no bonus, one d20, empty tally, death at three failures.
    fn default() -> Self {
        DeathSaveRules {
            dc: 10,
            save_bonus: 0,
            roll: RollMode::Normal,
            start: Tally::default(),
            wound_policy: WoundPolicy::Never,
            existing_wounds: WoundSlots::EMPTY,
        }
    }
}

impl DeathSaveRules {
    /// Resolves one save with the kept natural d20 value `natural` (1..=20).
    ///
    /// ```
    /// use woundsim::rules::death_saves::{DeathSaveRules, Resolution, SaveStep, Tally};
    /// let raw = DeathSaveRules::default();
    /// let start = Tally { successes: 0, failures: 1 };
    /// // A natural 1 is two failures: with one already, the PC dies.
    /// assert_eq!(raw.resolve_save(start, 1), SaveStep::Resolved(Resolution::Dead));
    /// ```
    pub fn resolve_save(&self, tally: Tally, natural: u8) -> SaveStep {
        if natural == 20 {
            return SaveStep::Resolved(Resolution::Revived);
        }
        let total = i16::from(natural) + i16::from(self.save_bonus);
        if natural != 1 && total >= i16::from(self.dc) {
            let successes = tally.successes + 1;
            return if successes >= 3 {
                SaveStep::Resolved(Resolution::Stable)
            } else {
                SaveStep::Continue(Tally { successes, ..tally })
            };
        }
        let failures = tally.failures + if natural == 1 { 2 } else { 1 };
        if failures < 3 {
            return SaveStep::Continue(Tally { failures, ..tally });
        }
        match self
            .wound_policy
            .choose(tally.successes, self.existing_wounds)
        {
            Some(severity) => SaveStep::Resolved(Resolution::Wounded(severity)),
            None => SaveStep::Resolved(Resolution::Dead),
        }
    }

    /// The rules in one line, read off [`Self::resolve_save`] itself (so the
    /// prose cannot drift from the mechanics).
    ///
    /// ```
    /// use woundsim::rules::death_saves::DeathSaveRules;
    /// assert_eq!(
    ///     DeathSaveRules::default().describe(),
    ///     "d20 + save_bonus >= 10 succeeds; natural 1 = 2 failures; natural 20 = 1 HP; \
    ///      3 successes = stable; 3 failures = dead"
    /// );
    /// ```
    pub fn describe(&self) -> String {
        let plain = DeathSaveRules {
            wound_policy: WoundPolicy::Never,
            save_bonus: 0,
            ..*self
        };
        // Saves with the same natural value from an empty tally until one resolves.
        let saves_until_resolved = |natural: u8| {
            let mut tally = Tally::default();
            (1..=10)
                .find(|_| match plain.resolve_save(tally, natural) {
                    SaveStep::Continue(next) => {
                        tally = next;
                        false
                    }
                    SaveStep::Resolved(_) => true,
                })
                .unwrap_or(0)
        };
        let natural_one = match plain.resolve_save(Tally::default(), 1) {
            SaveStep::Continue(t) => t.failures,
            SaveStep::Resolved(_) => 3,
        };
        let success = plain.dc.clamp(2, 19);
        let failure = plain.dc.saturating_sub(1).clamp(2, 19);
        format!(
            "d20 + save_bonus >= {} succeeds; natural 1 = {natural_one} failures; natural 20 = 1 HP; \
             {} successes = stable; {} failures = dead",
            self.dc,
            saves_until_resolved(success),
            saves_until_resolved(failure),
        )
    }

    /// Rolls a whole sequence the plain way (one branchy loop), returning the
    /// resolution and the number of saves rolled. The Monte Carlo hot path
    /// uses a transition table instead; this is the readable reference.
    pub fn roll_sequence(&self, block: &mut D20Block) -> (Resolution, u32) {
        let mut tally = self.start;
        let mut rolls = 0;
        loop {
            let natural = self.roll.roll_from(|| block.next_d20());
            rolls += 1;
            match self.resolve_save(tally, natural) {
                SaveStep::Continue(next) => tally = next,
                SaveStep::Resolved(resolution) => return (resolution, rolls),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RAW: DeathSaveRules = DeathSaveRules {
        dc: 10,
        save_bonus: 0,
        roll: RollMode::Normal,
        start: Tally {
            successes: 0,
            failures: 0,
        },
        wound_policy: WoundPolicy::Never,
        existing_wounds: WoundSlots::EMPTY,
    };

    fn tally(successes: u8, failures: u8) -> Tally {
        Tally {
            successes,
            failures,
        }
    }

    #[test]
    fn ten_or_higher_succeeds_nine_or_lower_fails() {
        assert_eq!(
            RAW.resolve_save(tally(0, 0), 10),
            SaveStep::Continue(tally(1, 0))
        );
        assert_eq!(
            RAW.resolve_save(tally(0, 0), 9),
            SaveStep::Continue(tally(0, 1))
        );
        assert_eq!(
            RAW.resolve_save(tally(0, 0), 19),
            SaveStep::Continue(tally(1, 0))
        );
        assert_eq!(
            RAW.resolve_save(tally(0, 0), 2),
            SaveStep::Continue(tally(0, 1))
        );
    }

    #[test]
    fn natural_one_counts_two_failures() {
        assert_eq!(
            RAW.resolve_save(tally(1, 0), 1),
            SaveStep::Continue(tally(1, 2))
        );
        assert_eq!(
            RAW.resolve_save(tally(2, 1), 1),
            SaveStep::Resolved(Resolution::Dead)
        );
        // Even a bonus that would lift a 1 to the DC does not make it a success.
        let bonus = DeathSaveRules {
            save_bonus: 12,
            ..RAW
        };
        assert_eq!(
            bonus.resolve_save(tally(0, 0), 1),
            SaveStep::Continue(tally(0, 2))
        );
    }

    #[test]
    fn natural_twenty_revives_whatever_the_tally() {
        for s in 0..3 {
            for f in 0..3 {
                assert_eq!(
                    RAW.resolve_save(tally(s, f), 20),
                    SaveStep::Resolved(Resolution::Revived)
                );
            }
        }
        // Even against an impossible DC.
        let hard = DeathSaveRules { dc: 30, ..RAW };
        assert_eq!(
            hard.resolve_save(tally(0, 0), 20),
            SaveStep::Resolved(Resolution::Revived)
        );
    }

    #[test]
    fn three_successes_stabilise_three_failures_kill() {
        assert_eq!(
            RAW.resolve_save(tally(2, 2), 15),
            SaveStep::Resolved(Resolution::Stable)
        );
        assert_eq!(
            RAW.resolve_save(tally(2, 2), 5),
            SaveStep::Resolved(Resolution::Dead)
        );
    }

    #[test]
    fn dc_and_bonus_move_the_threshold() {
        let hard = DeathSaveRules { dc: 15, ..RAW };
        assert_eq!(
            hard.resolve_save(tally(0, 0), 14),
            SaveStep::Continue(tally(0, 1))
        );
        assert_eq!(
            hard.resolve_save(tally(0, 0), 15),
            SaveStep::Continue(tally(1, 0))
        );
        let blessed = DeathSaveRules {
            save_bonus: 3,
            ..RAW
        };
        assert_eq!(
            blessed.resolve_save(tally(0, 0), 7),
            SaveStep::Continue(tally(1, 0))
        );
        assert_eq!(
            blessed.resolve_save(tally(0, 0), 6),
            SaveStep::Continue(tally(0, 1))
        );
        let cursed = DeathSaveRules {
            save_bonus: -2,
            ..RAW
        };
        assert_eq!(
            cursed.resolve_save(tally(0, 0), 11),
            SaveStep::Continue(tally(0, 1))
        );
    }

    #[test]
    fn last_failure_becomes_a_wound_by_successes() {
        let pw = DeathSaveRules {
            wound_policy: WoundPolicy::AcceptLeastSevere,
            ..RAW
        };
        let wounded = |s| SaveStep::Resolved(Resolution::Wounded(s));
        assert_eq!(pw.resolve_save(tally(2, 2), 5), wounded(Severity::Minor));
        assert_eq!(pw.resolve_save(tally(1, 2), 5), wounded(Severity::Moderate));
        assert_eq!(pw.resolve_save(tally(0, 2), 5), wounded(Severity::Severe));
        // A natural 1 that brings failures to three counts too.
        assert_eq!(pw.resolve_save(tally(2, 1), 1), wounded(Severity::Minor));
        // Not-last failures are ordinary failures.
        assert_eq!(
            pw.resolve_save(tally(2, 1), 5),
            SaveStep::Continue(tally(2, 2))
        );
    }

    #[test]
    fn existing_wounds_escalate_or_kill() {
        let pw = DeathSaveRules {
            wound_policy: WoundPolicy::AcceptLeastSevere,
            existing_wounds: WoundSlots::from_wounds([Severity::Minor, Severity::Moderate]),
            ..RAW
        };
        assert_eq!(
            pw.resolve_save(tally(2, 2), 5),
            SaveStep::Resolved(Resolution::Wounded(Severity::Severe))
        );
        let full = DeathSaveRules {
            existing_wounds: WoundSlots::from_wounds(Severity::ALL),
            ..pw
        };
        assert_eq!(
            full.resolve_save(tally(2, 2), 5),
            SaveStep::Resolved(Resolution::Dead)
        );
    }

    #[test]
    fn sequences_end_within_five_saves() {
        use rand::SeedableRng;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        for mode in [
            RollMode::Normal,
            RollMode::Advantage,
            RollMode::Disadvantage,
        ] {
            let rules = DeathSaveRules { roll: mode, ..RAW };
            for _ in 0..10_000 {
                let mut block = D20Block::draw(&mut rng);
                let (_, rolls) = rules.roll_sequence(&mut block);
                assert!((1..=MAX_SAVES).contains(&rolls));
            }
        }
    }

    #[test]
    fn resolution_indices_are_dense() {
        for (i, r) in Resolution::ALL.iter().enumerate() {
            assert_eq!(r.index(), i);
        }
    }
}
