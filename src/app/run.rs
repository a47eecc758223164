//! `woundsim run`: the scenarios loaded and validated, the command-line
//! trials, seed and confidence laid over them, then one of three modes:
//!
//! * plain: each scenario simulated for its trials, then the reports;
//! * `--precision NAME=HALF_WIDTH`: each scenario run in blocks until its
//!   intervals are narrow enough ([`super::precision`]), then the reports
//!   with where each run stopped;
//! * `--state-out FILE [--shard K/N]`: the shard's chunks of every scenario
//!   into one state file ([`super::shard`]), no reports.

use std::io::Write;
use std::path::Path;

use super::interrupt::Signal;
use super::load::load_scenarios;
use super::progress::ProgressBarSink;
use super::reports::{Reports, write_with_info};
use super::shard::{ScenarioState, StateFile};
use super::{AppError, meta, output, precision, print};
use crate::cli::RunArgs;
use crate::engine::shard::Shard;
use crate::engine::{Engine, Stop};
use crate::model::Catalog;
use crate::report::run_info::PrecisionStop;
use crate::results::ScenarioResult;
use crate::testhook;
use crate::types::{self, Scenario};

/// Runs `woundsim run`.
pub(super) fn run(
    catalog: &Catalog,
    args: RunArgs,
    out: &mut dyn Write,
    stop: Stop<'_>,
) -> Result<(), AppError> {
    let clock = meta::Clock::start();
    let mut scenarios = load_scenarios(catalog, &args.scenarios, &args.layers())?;
    if !args.quiet {
        for s in &scenarios {
            for w in &s.warnings {
                eprintln!("woundsim: warning: {}: {w}", s.source);
            }
        }
    }
    match &args.state_out {
        Some(path) => super::writable(path)?,
        None => output::can_hold(&args.out, &scenarios)?,
    }
    for s in &mut scenarios {
        if let Some(trials) = args.trials {
            s.header.trials = trials;
        }
        if let Some(seed) = args.seed {
            s.header.seed = seed;
        }
        if let Some(level) = args.confidence {
            s.header.confidence = level;
        }
    }
    let engine = Engine::new(args.threads.count)?;
    let sink = ProgressBarSink::new(scenarios.len(), args.quiet, stop);
    testhook::at("simulating", stop);
    if let Some(path) = &args.state_out {
        let shard = args.shard.unwrap_or(Shard::WHOLE);
        return run_shard(
            &scenarios, shard, path, &engine, &sink, out, args.quiet, stop,
        );
    }
    let mut lines = String::new();
    let mut stops = Vec::new();
    let results = if args.precision.is_empty() {
        simulate(&scenarios, &engine, &sink)
    } else {
        simulate_to_precision(
            &mut scenarios,
            &args,
            &engine,
            &sink,
            &mut lines,
            &mut stops,
        )
    };
    sink.finish();
    let results = results?;
    if !args.quiet && !args.view.format.is_data() {
        print(out, &lines)?;
    }
    let reports = Reports::new(&args.out, args.quiet, &args.view, args.reproducible);
    let mut info = clock.run_info(&scenarios, &results, Some(engine.threads()));
    for (run, stop) in info.scenarios.iter_mut().zip(stops) {
        run.precision = Some(stop);
    }
    write_with_info(out, results, info, &clock, &reports, stop)
}

/// A plain run: each scenario simulated for its trials, and how long it
/// took.
fn simulate(
    scenarios: &[Scenario],
    engine: &Engine,
    sink: &ProgressBarSink<'_>,
) -> Result<Vec<(ScenarioResult, f64)>, AppError> {
    scenarios
        .iter()
        .map(|s| {
            sink.set_scenario(&s.header.name, types::work(s));
            meta::timed(|| {
                types::simulate(s, engine, sink)
                    .map(|r| r.described(s.variant_descriptions()))
                    .map_err(AppError::from)
            })
        })
        .collect()
}

/// A `--precision` run: each scenario until its targets are met or
/// `--max-trials` (its trials become those it ran), and how long it took;
/// each scenario's stdout line onto `lines` and its stopping point onto
/// `stops`.
fn simulate_to_precision(
    scenarios: &mut [Scenario],
    args: &RunArgs,
    engine: &Engine,
    sink: &ProgressBarSink<'_>,
    lines: &mut String,
    stops: &mut Vec<PrecisionStop>,
) -> Result<Vec<(ScenarioResult, f64)>, AppError> {
    scenarios
        .iter_mut()
        .map(|s| {
            let max = args.max_trials.unwrap_or_else(|| {
                s.header
                    .trials
                    .saturating_mul(100)
                    .min(crate::scenario::MAX_TRIALS)
            });
            sink.set_scenario(&s.header.name, max);
            meta::timed(|| {
                let (r, outcome) = precision::run(s, &args.precision, max, engine, sink)?;
                lines.push_str(&outcome.line(&s.header.name));
                stops.push(outcome.record(&args.precision, max));
                Ok(r.described(s.variant_descriptions()))
            })
        })
        .collect()
}

/// `woundsim run --state-out FILE [--shard K/N]`: the shard's chunks of
/// every scenario into one state file, no reports.
#[allow(clippy::too_many_arguments)]
fn run_shard(
    scenarios: &[Scenario],
    shard: Shard,
    path: &Path,
    engine: &Engine,
    sink: &ProgressBarSink<'_>,
    out: &mut dyn Write,
    quiet: bool,
    stop: Stop<'_>,
) -> Result<(), AppError> {
    let mut states = Vec::with_capacity(scenarios.len());
    let mut chunks = 0;
    for s in scenarios {
        let range = shard.chunks_of(s.chunks());
        sink.set_scenario(&s.header.name, s.shape().trials_in(range.clone()));
        let (state, seconds) = meta::timed(|| s.simulate_chunks(engine, range.clone(), sink))
            .inspect_err(|_| sink.finish())?;
        chunks += range.end - range.start;
        states.push(ScenarioState::new(
            s,
            range.start,
            range.end,
            state,
            seconds,
        ));
    }
    sink.finish();
    if stop.requested() {
        return Err(AppError::Interrupted(Signal::Interrupt));
    }
    StateFile::write(path, &states)?;
    if !quiet {
        print(
            out,
            &format!(
                "wrote the state of shard {}/{} ({chunks} chunks of {} scenarios) to {}\n",
                shard.index,
                shard.count,
                scenarios.len(),
                path.display()
            ),
        )?;
    }
    Ok(())
}
