//! `type = "combat"`: a party against monsters under 5e rules, one
//! encounter or a chain, with death saves under fire, permanent wounds and
//! lingering injuries in play ([`crate::combat`] is the model). Monte
//! Carlo only ([`mc`]); [`exact`] says why there is no exact solution.

pub mod exact;
pub mod mc;
pub mod schema;

use rand_xoshiro::Xoshiro256PlusPlus;

use super::ScenarioType;
use crate::combat::encounter::Encounter;
use crate::engine::Stop;
use crate::model::{Catalog, ScenarioHeader, Variant};
use crate::results::ScenarioResult;
use crate::scenario::ScenarioError;
use crate::scenario::layers::Layers;

/// The `combat` scenario type.
pub struct Combat;

impl ScenarioType for Combat {
    const NAME: &'static str = "combat";
    type Raw = schema::RawSettings;
    type Rules = Encounter;
    type Prepared<'a> = mc::Prepared<'a>;
    type Acc = mc::CombatAcc;

    fn build(layers: &Layers<Self::Raw>, catalog: &Catalog) -> Result<Encounter, ScenarioError> {
        schema::build(layers, catalog)
    }

    fn prepare(variants: &[Variant<Encounter>]) -> mc::Prepared<'_> {
        mc::Prepared::new(variants)
    }

    fn new_acc(prepared: &mc::Prepared<'_>) -> mc::CombatAcc {
        prepared.new_acc()
    }

    fn simulate_chunk(
        prepared: &mc::Prepared<'_>,
        rng: &mut Xoshiro256PlusPlus,
        _first_trial: u64,
        count: u64,
        acc: &mut mc::CombatAcc,
        stop: Stop<'_>,
    ) {
        mc::simulate_chunk(prepared, rng, count, acc, stop);
    }

    fn finish(
        header: &ScenarioHeader,
        variants: &[Variant<Encounter>],
        prepared: &mc::Prepared<'_>,
        acc: &mc::CombatAcc,
    ) -> ScenarioResult {
        mc::finish(header, variants, prepared, acc)
    }

    fn solve(header: &ScenarioHeader, variants: &[Variant<Encounter>]) -> Option<ScenarioResult> {
        exact::solve(header, variants)
    }
}
