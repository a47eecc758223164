//! `woundsim merge`: shard states ([`super::shard`]) into the run's
//! reports, byte-identical to a run on one machine, and with `--state-out`
//! into one merged state (of part of the run, when shards are missing).
//!
//! A state is checked before anything is built from it (docs/cluster.md,
//! "What merge checks"): its header when it is read
//! ([`StateFile::from_bytes`]); then its scenario is parsed again from the
//! text the state carries, and every accumulator of every file is checked
//! against an empty one of that scenario ([`types::Scenario::check_state`]:
//! its shape, so the merge's work is the run's, and its values); the
//! merge adds counts with checked arithmetic; and the figures of the whole
//! run must be figures a run can give ([`implausible`]: no share outside
//! 0..1, no infinite or inverted interval). Each refusal names the file and
//! the field, and exits 2.

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;

use super::reports::{Reports, write_timed};
use super::shard::{self, ScenarioState, StateError, StateFile};
use super::{AppError, meta, output, print};
use crate::cli::MergeArgs;
use crate::engine::Stop;
use crate::model::Catalog;
use crate::results::ScenarioResult;
use crate::results::catalogue::Kind;
use crate::types::{self, Scenario};

/// What the states given to a merge hold, checked.
pub enum Merged {
    /// Part of the run (a shard is missing): the merged states, and the
    /// first scenario with a gap.
    Part(Vec<ScenarioState>, usize),
    /// The whole run: each scenario, parsed again, and its merged state.
    Whole(Vec<Scenario>, Vec<ScenarioState>),
}

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
    let all_files = || {
        args.states
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let whole = match merge_states(catalog, files)? {
        Merged::Part(merged, gap) => {
            let gap = &merged[gap];
            let Some(path) = &args.state_out else {
                return Err(AppError::State(StateError {
                    file: all_files(),
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
        Merged::Whole(scenarios, states) => (scenarios, states),
    };
    let (scenarios, states) = whole;
    output::can_hold(&args.out, &scenarios)?;
    if let Some(path) = &args.state_out {
        StateFile::write(path, &states)?;
    }
    let results = finish_states(&scenarios, states, &all_files(), stop)?;
    let reports = Reports::new(&args.out, args.quiet, &args.view, args.reproducible);
    write_timed(out, &scenarios, results, None, &clock, &reports, stop)
}

/// Checks and merges the states of `files`: each scenario parsed again
/// from its text, every file's accumulators checked against it, the
/// states merged scenario by scenario.
pub fn merge_states(catalog: &Catalog, files: Vec<(&Path, StateFile)>) -> Result<Merged, AppError> {
    // Each distinct scenario (text and arguments) is parsed once.
    let mut parsed: HashMap<(String, Vec<String>), Scenario> = HashMap::new();
    for (path, file) in &files {
        for s in &file.scenarios {
            let key = (s.sha256.clone(), s.layers.clone());
            if !parsed.contains_key(&key) {
                let scenario = parse_state(catalog, s)?;
                parsed.insert(key.clone(), scenario);
            }
            parsed[&key]
                .check_state(&s.state, s.trials)
                .map_err(|misfit| StateError {
                    file: path.display().to_string(),
                    problem: format!(
                        "scenario `{}`: its counts do not fit the scenario: {misfit}",
                        s.name
                    ),
                })?;
        }
    }
    let merged = shard::merge_files(files)?;
    if let Some(gap) = merged
        .iter()
        .position(|s| s.start != 0 || s.end != s.chunks)
    {
        return Ok(Merged::Part(merged, gap));
    }
    let mut scenarios = Vec::with_capacity(merged.len());
    for s in &merged {
        let mut scenario = parsed
            .remove(&(s.sha256.clone(), s.layers.clone()))
            .expect("every merged scenario was parsed");
        // The bestiary files are read again here: they must be those the
        // shards read.
        if let Some(changed) = s.inputs.iter().find(|was| !scenario.inputs.contains(was)) {
            return Err(AppError::State(StateError {
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
        scenarios.push(scenario);
    }
    Ok(Merged::Whole(scenarios, merged))
}

/// The scenario of state `s`, parsed from the text and the arguments it
/// carries, under the name it carries.
fn parse_state(catalog: &Catalog, s: &ScenarioState) -> Result<Scenario, AppError> {
    let problem = |problem| {
        AppError::State(StateError {
            file: s.source.clone(),
            problem,
        })
    };
    let layers = crate::scenario::command::CommandLayers::from_args(&s.layers).map_err(problem)?;
    let scenario = types::parse_with(catalog, &s.source, &s.text, &layers)?;
    if scenario.header.name != s.name {
        return Err(problem(format!(
            "the state names its scenario `{}`, but its text is scenario `{}`",
            s.name, scenario.header.name
        )));
    }
    Ok(scenario)
}

/// The results of the whole run's merged states, each checked
/// ([`implausible`]); `files` names the states in errors. Stops between
/// scenarios once `stop` is requested.
pub fn finish_states(
    scenarios: &[Scenario],
    states: Vec<ScenarioState>,
    files: &str,
    stop: Stop<'_>,
) -> Result<Vec<(ScenarioResult, f64)>, AppError> {
    let mut results = Vec::with_capacity(states.len());
    for (scenario, s) in scenarios.iter().zip(states) {
        if stop.requested() {
            return Err(crate::engine::EngineError::Interrupted.into());
        }
        let problem = |problem: String| {
            AppError::State(StateError {
                file: files.to_string(),
                problem: format!("scenario `{}`: {problem}", s.name),
            })
        };
        let result = scenario
            .finish(s.state)
            .map_err(|misfit| problem(format!("the merged counts do not fit: {misfit}")))?
            .described(scenario.variant_descriptions());
        if let Some(why) = implausible(&result) {
            return Err(problem(format!(
                "{why}: the counts are not those of a run of {} trials",
                s.trials
            )));
        }
        results.push((result, s.seconds));
    }
    Ok(results)
}

/// What is wrong with a result no run gives: a figure or a share that is
/// infinite, an interval that does not hold its estimate, a share outside
/// 0..1 (`None`: nothing). NaN is allowed: a figure over no observations
/// is undefined.
pub fn implausible(result: &ScenarioResult) -> Option<String> {
    let bad = |e: &crate::engine::stats::Estimate, share: bool| {
        let parts = [e.value, e.low, e.high];
        let defined = !parts.iter().any(|x| x.is_nan());
        let inside = e.low <= e.value && e.value <= e.high;
        parts.iter().any(|x| x.is_infinite())
            || (defined && !inside)
            || (share
                && parts
                    .iter()
                    .any(|x| !x.is_nan() && !(0.0..=1.0).contains(x)))
    };
    if let Some(f) = result
        .figures
        .iter()
        .find(|f| bad(&f.estimate, f.kind == Kind::Proportion))
    {
        let e = &f.estimate;
        return Some(format!(
            "variant `{}`, figure `{}` would be {} ({} to {}){}",
            f.variant,
            f.metric,
            e.value,
            e.low,
            e.high,
            if f.kind == Kind::Proportion {
                ", not a share between 0 and 1 with its interval"
            } else {
                ", not a finite estimate inside its interval"
            }
        ));
    }
    result
        .distributions
        .iter()
        .find(|r| bad(&r.share, true))
        .map(|r| {
            format!(
                "variant `{}`, distribution `{}`, bin {}: a share of {}, not a share between 0 and 1",
                r.variant, r.distribution, r.bin, r.share.value
            )
        })
}
