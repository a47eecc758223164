//! Simulations: one module per scenario type, turning validated model values
//! into trials on the engine and trial counts into figures.

pub mod amputation;
pub mod combat;
pub mod death_saves;
pub mod festering;
pub mod injuries;

use crate::engine::{Engine, EngineError, Progress};
use crate::results::ScenarioResult;
use crate::scenario::{Model, Scenario};

/// Runs a scenario by Monte Carlo.
pub fn simulate(
    scenario: &Scenario,
    engine: &Engine,
    progress: &dyn Progress,
) -> Result<ScenarioResult, EngineError> {
    match &scenario.model {
        Model::DeathSaves(variants) => {
            death_saves::simulate(&scenario.header, variants, engine, progress)
        }
        Model::Amputation(variants) => {
            amputation::simulate(&scenario.header, variants, engine, progress)
        }
        Model::Combat(variants) => combat::simulate(&scenario.header, variants, engine, progress),
        Model::Injuries(variants) => {
            injuries::simulate(&scenario.header, variants, engine, progress)
        }
        Model::Festering(variants) => {
            festering::simulate(&scenario.header, variants, engine, progress)
        }
    }
}

/// Number of sequences a scenario simulates (trials × variants), for progress bars.
pub fn work(scenario: &Scenario) -> u64 {
    scenario.header.trials
}
