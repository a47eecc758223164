//! Exact solvers used as oracles for the Monte Carlo: Markov chains and
//! closed forms for the sub-models small enough to solve.

pub mod amputation;
pub mod death_saves;
pub mod festering;
pub mod injuries;

use crate::results::ScenarioResult;
use crate::scenario::{Model, Scenario};

/// A scenario type with no exact solver.
#[derive(Debug, thiserror::Error)]
#[error("{file}: scenarios of type `{kind}` have no exact solution; run them with `woundsim run`")]
pub struct NoExactSolution {
    /// The scenario's source.
    pub file: String,
    /// Its type.
    pub kind: &'static str,
}

/// Solves a scenario exactly, in the same result shape as a Monte Carlo run
/// (`trials = 0`, intervals collapsed to the point).
pub fn solve(scenario: &Scenario) -> Result<ScenarioResult, NoExactSolution> {
    let mut header = scenario.header.clone();
    header.trials = 0;
    match &scenario.model {
        Model::DeathSaves(variants) => {
            let solved: Vec<_> = variants
                .iter()
                .map(|v| death_saves::solve(&v.rules))
                .collect();
            let (figures, distributions) =
                crate::sim::death_saves::exact_figures(variants, &solved);
            Ok(crate::sim::death_saves::finish(
                &header,
                variants,
                figures,
                distributions,
            ))
        }
        Model::Amputation(variants) => Ok(amputation::solve(&header, variants)),
        Model::Combat(_) => Err(NoExactSolution {
            file: scenario.source.clone(),
            kind: scenario.kind(),
        }),
        Model::Injuries(variants) => Ok(injuries::solve(&header, variants)),
        Model::Festering(variants) => Ok(festering::solve(&header, variants)),
    }
}
