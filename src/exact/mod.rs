//! Exact solvers used as oracles for the Monte Carlo: Markov chains and
//! closed forms for the sub-models small enough to solve.

pub mod death_saves;
pub mod festering;
pub mod injuries;

use crate::results::ScenarioResult;
use crate::scenario::{Model, Scenario};

/// Solves a scenario exactly, in the same result shape as a Monte Carlo run
/// (`trials = 0`, intervals collapsed to the point).
pub fn solve(scenario: &Scenario) -> ScenarioResult {
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
            crate::sim::death_saves::finish(&header, variants, figures, distributions)
        }
        Model::Injuries(variants) => injuries::solve(&header, variants),
        Model::Festering(variants) => crate::sim::festering::exact(&header, variants),
    }
}
