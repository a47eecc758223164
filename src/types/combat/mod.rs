//! `type = "combat"`: a party against monsters under 5e rules, one
//! encounter or a chain, with death saves under fire, permanent wounds and
//! lingering injuries in play ([`crate::combat`] is the model). Monte
//! Carlo only ([`mc`]); [`exact`] says why there is no exact solution.

pub mod difficulty;
pub mod exact;
pub mod mc;
pub mod schema;

use rand_xoshiro::Xoshiro256PlusPlus;

use super::ScenarioType;
use crate::combat::encounter::Encounter;
use crate::engine::Stop;
use crate::engine::rng::TrialSeeds;
use crate::model::{Catalog, ScenarioHeader, Variant};
use crate::results::ScenarioResult;
use crate::scenario::ScenarioError;
use crate::scenario::layers::Layers;

/// The `combat` scenario type.
pub struct Combat;

/// One combat variant's validated rules: the encounter the round loop
/// fights, and what it is worth against the party's SRD 5.2 budgets (a
/// constant of its definition, reported in `encounter.csv`; the loop never
/// reads it).
#[derive(Clone, Debug, PartialEq)]
pub struct CombatVariant {
    /// The encounter.
    pub encounter: Encounter,
    /// Its XP and the party's budgets.
    pub difficulty: crate::rules::encounter_difficulty::EncounterXp,
}

impl ScenarioType for Combat {
    const NAME: &'static str = "combat";
    /// 2,048 fights: 20–50 ms of one thread for the shipped combat
    /// scenarios (4–6 variants, 10–24 µs a trial).
    const CHUNK_TRIALS: u64 = 1 << 11;
    type Raw = schema::RawSettings;
    type Rules = CombatVariant;
    type Prepared<'a> = mc::Prepared<'a>;
    type Acc = mc::CombatAcc;

    fn build(
        layers: &Layers<Self::Raw>,
        catalog: &Catalog,
    ) -> Result<CombatVariant, ScenarioError> {
        schema::build(layers, catalog)
    }

    fn prepare(variants: &[Variant<CombatVariant>]) -> mc::Prepared<'_> {
        mc::Prepared::new(variants)
    }

    fn new_acc(prepared: &mc::Prepared<'_>) -> mc::CombatAcc {
        prepared.new_acc()
    }

    fn trials_counted(acc: &mc::CombatAcc) -> Vec<u64> {
        acc.trials_counted()
    }

    fn simulate_chunk(
        prepared: &mc::Prepared<'_>,
        _rng: &mut Xoshiro256PlusPlus,
        trials: TrialSeeds,
        acc: &mut mc::CombatAcc,
        stop: Stop<'_>,
    ) {
        mc::simulate_chunk(prepared, trials, acc, stop);
    }

    fn finish(
        header: &ScenarioHeader,
        variants: &[Variant<CombatVariant>],
        prepared: &mc::Prepared<'_>,
        acc: &mc::CombatAcc,
    ) -> ScenarioResult {
        mc::finish(header, variants, prepared, acc).with_headline(HEADLINE)
    }

    fn solve(
        header: &ScenarioHeader,
        variants: &[Variant<CombatVariant>],
    ) -> Option<ScenarioResult> {
        exact::solve(header, variants)
    }
}

/// The headline metrics of a Monte Carlo run
/// ([`ScenarioResult::headline`]): the rows the terminal table shows by
/// default, the figures that answer the scenario's question (whether the
/// party wins, whether a PC drops or dies, whether a PC ends with a
/// permanent wound or a lingering injury, how long the fight lasts), with
/// the paired differences a reader needs to compare variants on them. The
/// rest stay in `summary.csv`, the charts, the HTML report's folded table
/// and `--metrics`. Exact mode (`woundsim exact`) shows every figure.
pub const HEADLINE: &[&str] = &[
    "p_party_win",
    "p_pc_death",
    "p_pc_down",
    "p_permanent_wound",
    "p_injury",
    "mean_rounds",
    "p_party_win_diff",
    "p_pc_death_diff",
    "p_permanent_wound_diff",
    "p_injury_diff",
];
