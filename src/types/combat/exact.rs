//! No exact solution for combat: a fight's state is every creature's hit
//! points, conditions, resources and death-save tally, and the targeting,
//! healing and dying rules couple them all, so the chain has far too many
//! states to solve. The combat rules that are small enough are checked
//! against exact chains in `tests/it/combat_endings.rs` instead.

use super::CombatVariant;
use crate::model::{ScenarioHeader, Variant};
use crate::results::ScenarioResult;

/// Always `None`: `woundsim exact` refuses combat scenarios.
pub fn solve(
    _header: &ScenarioHeader,
    _variants: &[Variant<CombatVariant>],
) -> Option<ScenarioResult> {
    None
}
