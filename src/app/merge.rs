//! `woundsim merge`: shard states ([`super::shard`]) into the run's
//! reports, byte-identical to a run on one machine, and with `--state-out`
//! into one merged state (of part of the run, when shards are missing).

use std::io::Write;

use super::reports::{Reports, write_timed};
use super::shard::{self, StateFile};
use super::{AppError, meta, output, print};
use crate::cli::MergeArgs;
use crate::engine::Stop;
use crate::model::Catalog;
use crate::results::ScenarioResult;
use crate::types;

/// `woundsim merge`: shard states into reports (and a merged state).
pub(super) fn merge(
    catalog: &Catalog,
    args: MergeArgs,
    out: &mut dyn Write,
    stop: Stop<'_>,
) -> Result<(), AppError> {
    let clock = meta::Clock::start();
    if let Some(path) = &args.state_out {
        super::writable(path)?;
    }
    let mut files = Vec::with_capacity(args.states.len());
    for path in &args.states {
        files.push((path.as_path(), StateFile::read(path)?));
    }
    let merged = shard::merge_files(files)?;
    let missing = merged.iter().find(|s| s.start != 0 || s.end != s.chunks);
    if let Some(gap) = missing {
        let Some(path) = &args.state_out else {
            return Err(AppError::State(shard::StateError {
                file: args
                    .states
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                problem: format!(
                    "together they hold chunks {}..{} of the {} chunks of scenario `{}`: a shard is missing \
                     (give every shard's state, or --state-out FILE to merge only these)",
                    gap.start, gap.end, gap.chunks, gap.name
                ),
            }));
        };
        StateFile::write(path, &merged)?;
        if !args.quiet {
            print(
                out,
                &format!(
                    "wrote the merged state (part of the run) to {}\n",
                    path.display()
                ),
            )?;
        }
        return Ok(());
    }
    let mut scenarios = Vec::with_capacity(merged.len());
    for s in &merged {
        let layers =
            crate::scenario::command::CommandLayers::from_args(&s.layers).map_err(|problem| {
                AppError::State(shard::StateError {
                    file: s.source.clone(),
                    problem,
                })
            })?;
        let mut scenario = types::parse_with(catalog, &s.source, &s.text, &layers)?;
        // The bestiary files are read again here: they must be those the
        // shards read.
        if let Some(changed) = s.inputs.iter().find(|was| !scenario.inputs.contains(was)) {
            return Err(AppError::State(shard::StateError {
                file: s.source.clone(),
                problem: format!(
                    "the bestiary file `{}` of scenario `{}` changed since the shards ran (SHA-256 {} then): merge with the files the shards read",
                    changed.file, s.name, changed.sha256
                ),
            }));
        }
        scenario.header.seed = s.seed;
        scenario.header.trials = s.trials;
        scenario.header.confidence = s.confidence;
        if !scenario.fits(&s.state) {
            return Err(AppError::State(shard::StateError {
                file: s.source.clone(),
                problem: format!(
                    "the state of scenario `{}` is of another scenario type",
                    s.name
                ),
            }));
        }
        scenarios.push(scenario);
    }
    output::can_hold(&args.out, &scenarios)?;
    if let Some(path) = &args.state_out {
        StateFile::write(path, &merged)?;
    }
    let results: Vec<(ScenarioResult, f64)> = scenarios
        .iter()
        .zip(merged)
        .map(|(scenario, s)| {
            let result = scenario
                .finish(s.state)
                .expect("checked: the state fits the scenario")
                .described(scenario.variant_descriptions());
            (result, s.seconds)
        })
        .collect();
    let reports = Reports::new(&args.out, args.quiet, &args.view, args.reproducible);
    write_timed(out, &scenarios, results, None, &clock, &reports, stop)
}
