//! `woundsim exact`: the scenarios solved exactly (types with an exact
//! solver), no simulation, then the reports.

use std::io::Write;

use super::load::load_scenarios;
use super::reports::{Reports, write_timed};
use super::{AppError, meta, output};
use crate::cli::ExactArgs;
use crate::engine::Stop;
use crate::model::Catalog;
use crate::types;

/// Runs `woundsim exact`.
pub(super) fn exact(
    catalog: &Catalog,
    args: ExactArgs,
    out: &mut dyn Write,
    stop: Stop<'_>,
) -> Result<(), AppError> {
    let clock = meta::Clock::start();
    let scenarios = load_scenarios(catalog, &args.scenarios, &args.layers())?;
    output::can_hold(&args.out, &scenarios)?;
    let results = scenarios
        .iter()
        .map(|s| meta::timed(|| types::solve(s).map(|r| r.described(s.variant_descriptions()))))
        .collect::<Result<Vec<_>, _>>()?;
    let reports = Reports::new(&args.out, args.quiet, &args.view, args.reproducible);
    write_timed(out, &scenarios, results, None, &clock, &reports, stop)
}
