//! The commands: load and validate every scenario first, then simulate or
//! solve, then write all reports at once. Errors map to exit codes in
//! [`AppError::exit_code`].

pub mod check;
pub mod interrupt;
pub mod meta;
pub mod output;
pub mod precision;
pub mod progress;
pub mod shard;
pub mod solve;

use std::io::Write;
use std::path::Path;

use crate::builtin;
use crate::cli::{Command, ExactArgs, MergeArgs, RunArgs, ValidateArgs, ViewArgs};
use crate::combat::wounds::WoundExamples;
use crate::engine::shard::Shard;
use crate::engine::{CHUNK_TRIALS, Engine, EngineError, Stop};
use crate::model::Catalog;
use crate::report::run_info::RunInfo;
use crate::report::{self, ReportError};
use crate::results::ScenarioResult;
use crate::rules::death_saves::DeathSaveRules;
use crate::rules::permanent_wounds::Severity;
use crate::scenario::ScenarioError;
use crate::scenario::command::CommandLayers;
use crate::testhook;
use crate::types::{self, Scenario};
use interrupt::{Interrupt, Signal};
use shard::{ScenarioState, StateFile};

/// Why a command failed.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// A scenario is unreadable or invalid (exit code 2).
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    /// The command line asks for something inconsistent (exit code 2).
    #[error("{0}")]
    Usage(String),
    /// A signal interrupted the run (exit code 130 for SIGINT, 143 for
    /// SIGTERM); the output folder is as it was.
    #[error("interrupted by {}: no report was written", .0.name())]
    Interrupted(Signal),
    /// The scenario type has no exact solver (exit code 2).
    #[error(transparent)]
    NoExact(#[from] types::NoExactSolution),
    /// The engine could not start (exit code 1).
    #[error(transparent)]
    Engine(EngineError),
    /// Reports could not be written (exit code 1).
    #[error(transparent)]
    Report(ReportError),
    /// The output folder cannot hold the reports (exit code 1).
    #[error("{0}")]
    Output(String),
    /// Standard output could not be written, other than a closed pipe (exit code 1).
    #[error("cannot write to standard output: {0}")]
    Stdout(std::io::Error),
    /// `check` cannot compare: a missing or malformed folder, or figures
    /// only one side has (exit code 2).
    #[error(transparent)]
    Check(#[from] crate::check::CheckError),
    /// A shard state cannot be used or merged (exit code 2).
    #[error(transparent)]
    State(#[from] shard::StateError),
    /// `check` failed the gate: a figure moved, or a slowdown with
    /// `--fail-on-slowdown` (exit code 1).
    #[error("{0}")]
    Gate(String),
    /// `solve` found no value: the target is outside the range, or the
    /// metric is not monotone there (exit code 1).
    #[error("{0}")]
    Unsolved(String),
}

impl AppError {
    /// The process exit code for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            AppError::Scenario(_)
            | AppError::Usage(_)
            | AppError::NoExact(_)
            | AppError::Check(_)
            | AppError::State(_) => 2,
            AppError::Interrupted(signal) => signal.exit_code(),
            AppError::Engine(_)
            | AppError::Report(_)
            | AppError::Output(_)
            | AppError::Stdout(_)
            | AppError::Gate(_)
            | AppError::Unsolved(_) => 1,
        }
    }
}

impl From<EngineError> for AppError {
    fn from(e: EngineError) -> Self {
        match e {
            // `execute` names the signal.
            EngineError::Interrupted => AppError::Interrupted(Signal::Interrupt),
            other => AppError::Engine(other),
        }
    }
}

impl From<ReportError> for AppError {
    fn from(e: ReportError) -> Self {
        match e {
            ReportError::Interrupted => AppError::Interrupted(Signal::Interrupt),
            other => AppError::Report(other),
        }
    }
}

/// Runs a command, printing human output to `out`. `interrupt` is set by
/// the signal handler ([`interrupt::install`]).
pub fn execute(
    command: Command,
    out: &mut dyn Write,
    interrupt: &Interrupt,
) -> Result<(), AppError> {
    let stop = interrupt.stop();
    // The data files, validated once for every scenario of the command.
    let result = crate::scenario::data::builtin_catalog()
        .map_err(AppError::from)
        .and_then(|catalog| match command {
            Command::Run(args) => run(&catalog, args, out, stop),
            Command::Exact(args) => exact(&catalog, args, out, stop),
            Command::Check(args) => check::check(&catalog, args, out, stop),
            Command::Merge(args) => merge(&catalog, args, out, stop),
            Command::Solve(args) => solve::solve(&catalog, args, out, stop),
            Command::Validate(args) => validate(&catalog, args, out),
            Command::List => list(&catalog, out),
            Command::Show { name } => show(&catalog, &name, out),
            Command::Completions { shell } => {
                let mut script = Vec::new();
                clap_complete::generate(shell, &mut crate::cli::command(), "woundsim", &mut script);
                print(out, &String::from_utf8_lossy(&script))
            }
            Command::Man => {
                let mut page = Vec::new();
                clap_mangen::Man::new(crate::cli::command())
                    .render(&mut page)
                    .map_err(AppError::Stdout)?;
                print(out, &String::from_utf8_lossy(&page))
            }
        });
    result.map_err(|e| match e {
        AppError::Interrupted(_) => AppError::Interrupted(interrupt.signal()),
        other => other,
    })
}

/// Resolves scenario arguments (files, else built-in names); none = all
/// built-ins; each with the `--set` overrides `overrides`.
pub fn load_scenarios(
    catalog: &Catalog,
    args: &[String],
    layers: &CommandLayers,
) -> Result<Vec<Scenario>, AppError> {
    let scenarios = if args.is_empty() {
        builtin::all_with(catalog, layers)?
    } else {
        args.iter()
            .map(|a| load_one(catalog, a, layers))
            .collect::<Result<Vec<_>, _>>()?
    };
    for (i, s) in scenarios.iter().enumerate() {
        if let Some(first) = scenarios[..i]
            .iter()
            .find(|o| o.header.name == s.header.name)
        {
            return Err(AppError::Usage(format!(
                "{} and {} are both named `{}`: their reports would overwrite each other",
                first.source, s.source, s.header.name
            )));
        }
    }
    Ok(scenarios)
}

/// One scenario argument: a readable regular file is read; anything else
/// (no such file, a folder, an unreadable file) is the built-in scenario
/// of that name if there is one — so a report folder named like a
/// built-in (after `--out .`) does not shadow it — and an error otherwise.
fn load_one(
    catalog: &Catalog,
    arg: &str,
    layers: &CommandLayers,
) -> Result<Scenario, ScenarioError> {
    let path = Path::new(arg);
    let file_error = if path.is_file() {
        match types::load_file_with(catalog, path, layers) {
            Err(ScenarioError::Unreadable { reason, .. }) => Some(reason),
            read => return read,
        }
    } else {
        None
    };
    if let Some(found) = builtin::find_with(catalog, arg, layers) {
        return found;
    }
    let reason = match file_error {
        Some(reason) => reason,
        None if path.is_dir() => {
            return Err(ScenarioError::NotAFile {
                file: arg.to_string(),
            });
        }
        None => {
            let names: Vec<&str> = builtin::BUILTIN
                .iter()
                .map(|(f, _)| f.trim_end_matches(".toml"))
                .collect();
            let stem = arg.trim_end_matches(".toml");
            match crate::scenario::wording::nearest(stem, &names) {
                Some(near) => format!(
                    "no such file, and no built-in scenario of that name; did you mean `{near}`? (see `woundsim list`)"
                ),
                None => "no such file, and no built-in scenario of that name (see `woundsim list`)"
                    .into(),
            }
        }
    };
    Err(ScenarioError::Unreadable {
        file: arg.to_string(),
        reason,
    })
}

/// `woundsim validate`: each scenario parsed and validated, not run.
fn validate(catalog: &Catalog, args: ValidateArgs, out: &mut dyn Write) -> Result<(), AppError> {
    let mut invalid = 0;
    for arg in &args.scenarios {
        let line = match load_one(catalog, arg, &args.layers()) {
            Ok(s) => {
                let name = crate::scenario::error::one_line(arg);
                let mut line = format!(
                    "{name}: ok (type {}, {} variants)",
                    s.kind(),
                    s.variant_names().len()
                );
                for w in &s.warnings {
                    line.push_str(&format!("\n{name}: warning: {w}"));
                }
                line
            }
            Err(e) => {
                invalid += 1;
                e.all()
                    .iter()
                    .map(|e| crate::scenario::error::one_line(&e.to_string()).into_owned())
                    .collect::<Vec<_>>()
                    .join("\n")
            }
        };
        print(out, &format!("{line}\n"))?;
    }
    match invalid {
        0 => Ok(()),
        n => Err(AppError::Usage(format!(
            "{n} of {} scenarios are invalid",
            args.scenarios.len()
        ))),
    }
}

/// Writes `text` to stdout. A closed pipe (`| head`) ends the output
/// quietly, as success; any other write error (a full disk) is an error.
fn print(out: &mut dyn Write, text: &str) -> Result<(), AppError> {
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(AppError::Stdout(e)),
        _ => Ok(()),
    }
}

#[allow(clippy::too_many_arguments)]
fn report_written(
    out: &mut dyn Write,
    results: &[ScenarioResult],
    run: &RunInfo,
    clock: &meta::Clock,
    dir: &Path,
    quiet: bool,
    view: &ViewArgs,
    stop: Stop<'_>,
) -> Result<(), AppError> {
    testhook::at("simulated", stop);
    if stop.requested() {
        return Err(AppError::Interrupted(Signal::Interrupt));
    }
    let files = report::write_all(results, run, dir, stop)?;
    if !quiet {
        let summary = dir.join("summary.csv");
        let filters = report::view::View {
            metrics: (!view.metrics.is_empty()).then(|| report::glob::Filter::new(&view.metrics)),
            variants: (!view.variants.is_empty())
                .then(|| report::glob::Filter::new(&view.variants)),
        };
        let width = report::table::stdout_width();
        let text = report::stdout(results, view.format, &filters, &summary, width)?;
        print(out, &text)?;
        if view.format.is_data() {
            return Ok(());
        }
        print(
            out,
            &meta::done_line(files.len(), dir, clock.elapsed(), run),
        )?;
    }
    Ok(())
}

/// Where and how a command's reports go.
struct Reports<'a> {
    dir: &'a Path,
    quiet: bool,
    view: &'a ViewArgs,
    reproducible: bool,
}

/// The run's metadata from its timed results (`threads`: `None` for work
/// that used no engine), then the reports.
fn write_timed(
    out: &mut dyn Write,
    scenarios: &[Scenario],
    timed: Vec<(ScenarioResult, f64)>,
    threads: Option<usize>,
    clock: &meta::Clock,
    reports: &Reports<'_>,
    stop: Stop<'_>,
) -> Result<(), AppError> {
    let info = clock.run_info(scenarios, &timed, threads);
    write_with_info(out, timed, info, clock, reports, stop)
}

/// [`write_timed`] with the run's metadata made.
fn write_with_info(
    out: &mut dyn Write,
    timed: Vec<(ScenarioResult, f64)>,
    mut info: RunInfo,
    clock: &meta::Clock,
    reports: &Reports<'_>,
    stop: Stop<'_>,
) -> Result<(), AppError> {
    if reports.reproducible {
        info.drop_timings();
    }
    let results: Vec<ScenarioResult> = timed.into_iter().map(|(r, _)| r).collect();
    report_written(
        out,
        &results,
        &info,
        clock,
        reports.dir,
        reports.quiet,
        reports.view,
        stop,
    )
}

fn run(
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
    if args.state_out.is_none() {
        output::check(&args.out, &scenarios)?;
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
    let sink = progress::ProgressBarSink::new(scenarios.len(), args.quiet, stop);
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
        scenarios
            .iter()
            .map(|s| {
                sink.set_scenario(&s.header.name, types::work(s));
                meta::timed(|| {
                    types::simulate(s, &engine, &sink)
                        .map(|r| r.described(s.variant_descriptions()))
                        .map_err(AppError::from)
                })
            })
            .collect::<Result<Vec<_>, AppError>>()
    } else {
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
                    let (r, outcome) = precision::run(s, &args.precision, max, &engine, &sink)?;
                    lines.push_str(&outcome.line(&s.header.name));
                    stops.push(outcome.record(&args.precision, max));
                    Ok(r.described(s.variant_descriptions()))
                })
            })
            .collect::<Result<Vec<_>, AppError>>()
    };
    sink.finish();
    let results = results?;
    if !args.quiet && !args.view.format.is_data() {
        print(out, &lines)?;
    }
    let reports = Reports {
        dir: &args.out,
        quiet: args.quiet,
        view: &args.view,
        reproducible: args.reproducible,
    };
    let mut info = clock.run_info(&scenarios, &results, Some(engine.threads()));
    for (run, stop) in info.scenarios.iter_mut().zip(stops) {
        run.precision = Some(stop);
    }
    write_with_info(out, results, info, &clock, &reports, stop)
}

/// Trials of chunks `chunks` of a run of `trials` trials.
fn trials_in(chunks: &std::ops::Range<u64>, trials: u64) -> u64 {
    let at = |c: u64| c.saturating_mul(CHUNK_TRIALS).min(trials);
    at(chunks.end) - at(chunks.start)
}

/// `woundsim run --state-out FILE [--shard K/N]`: the shard's chunks of
/// every scenario into one state file, no reports.
#[allow(clippy::too_many_arguments)]
fn run_shard(
    scenarios: &[Scenario],
    shard: Shard,
    path: &Path,
    engine: &Engine,
    sink: &progress::ProgressBarSink<'_>,
    out: &mut dyn Write,
    quiet: bool,
    stop: Stop<'_>,
) -> Result<(), AppError> {
    let mut states = Vec::with_capacity(scenarios.len());
    let mut chunks = 0;
    for s in scenarios {
        let range = shard.chunks_of(s.chunks());
        sink.set_scenario(&s.header.name, trials_in(&range, s.header.trials));
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
    write_state(path, &states)?;
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

/// Writes a state file atomically, making its folder if need be (a shard's
/// `--state-out states/shard-0-of-8.state` on a fresh node).
fn write_state(path: &Path, states: &[ScenarioState]) -> Result<(), AppError> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| {
            AppError::Output(format!(
                "cannot make the folder `{}`: {e}",
                parent.display()
            ))
        })?;
    }
    check::write_file(path, &StateFile::encode(states))
}

/// `woundsim merge`: shard states into reports (and a merged state).
fn merge(
    catalog: &Catalog,
    args: MergeArgs,
    out: &mut dyn Write,
    stop: Stop<'_>,
) -> Result<(), AppError> {
    let clock = meta::Clock::start();
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
        write_state(path, &merged)?;
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
    output::check(&args.out, &scenarios)?;
    if let Some(path) = &args.state_out {
        write_state(path, &merged)?;
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
    let reports = Reports {
        dir: &args.out,
        quiet: args.quiet,
        view: &args.view,
        reproducible: args.reproducible,
    };
    write_timed(out, &scenarios, results, None, &clock, &reports, stop)
}

fn exact(
    catalog: &Catalog,
    args: ExactArgs,
    out: &mut dyn Write,
    stop: Stop<'_>,
) -> Result<(), AppError> {
    let clock = meta::Clock::start();
    let scenarios = load_scenarios(catalog, &args.scenarios, &args.layers())?;
    output::check(&args.out, &scenarios)?;
    let results = scenarios
        .iter()
        .map(|s| meta::timed(|| types::solve(s).map(|r| r.described(s.variant_descriptions()))))
        .collect::<Result<Vec<_>, _>>()?;
    let reports = Reports {
        dir: &args.out,
        quiet: args.quiet,
        view: &args.view,
        reproducible: args.reproducible,
    };
    write_timed(out, &scenarios, results, None, &clock, &reports, stop)
}

/// The seed's limb-HP table and damage-type effects (docs/rules.md, limb damage), from the rule data.
fn limb_table() -> String {
    use crate::rules::limbs::{DamageType, LIMB_HP, LimbEffect, limb_effect};
    let mut text = String::from(
        "  limb damage (docs/rules.md, limb damage): limb HP by size (arm/leg), separate from the creature's HP:",
    );
    for row in LIMB_HP {
        text.push_str(&format!(" {:?} {}/{}", row.size, row.arm, row.leg));
    }
    let by = |effect: LimbEffect| -> String {
        DamageType::ALL
            .into_iter()
            .filter(|t| limb_effect(*t, false) == effect)
            .map(DamageType::name)
            .collect::<Vec<_>>()
            .join(", ")
    };
    text.push_str(&format!(
        "; severs: {}; disables (when allowed): {}; head not amputable by default\n",
        by(LimbEffect::Sever),
        by(LimbEffect::Disable)
    ));
    text
}

/// `woundsim show NAME`: a built-in scenario's text, else a monster's or a
/// PC template's statblock.
fn show(catalog: &Catalog, name: &str, out: &mut dyn Write) -> Result<(), AppError> {
    let file = format!("{name}.toml");
    if let Some((_, text)) = builtin::BUILTIN.iter().find(|(f, _)| *f == file) {
        return print(out, text);
    }
    if let Ok(monster) = catalog.bestiary.resolve(name) {
        return print(out, &crate::combat::statblock::render_monster(monster));
    }
    if let Some(spec) = catalog.templates.template(name) {
        return print(out, &crate::combat::statblock::render(&spec));
    }
    let scenarios: Vec<String> = builtin::BUILTIN
        .iter()
        .map(|(f, _)| f.trim_end_matches(".toml").to_string())
        .collect();
    let monsters: Vec<String> = catalog
        .bestiary
        .names()
        .into_iter()
        .map(String::from)
        .collect();
    let templates = catalog.templates.names();
    let all: Vec<&str> = scenarios
        .iter()
        .chain(&monsters)
        .chain(&templates)
        .map(String::as_str)
        .collect();
    let hint = crate::scenario::wording::nearest(name, &all)
        .map(|c| format!("did you mean `{c}`? "))
        .unwrap_or_default();
    Err(AppError::Usage(format!(
        "`{name}` is no built-in scenario, monster or PC template; {hint}scenarios: {}; monsters: {} of them, SRD 5.2 slugs such as `adult-red-dragon` and the SRD 5.1 names {} (`woundsim list` names all); templates: CLASS-LEVEL with CLASS one of {} and LEVEL 1 to {}",
        scenarios.join(", "),
        monsters.len(),
        catalog
            .bestiary
            .monsters()
            .iter()
            .filter(|m| m.lore.srd.as_deref() == Some("5.1"))
            .map(|m| m.key.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        catalog.templates.classes().join(", "),
        catalog.templates.max_level()
    )))
}

fn list(catalog: &Catalog, out: &mut dyn Write) -> Result<(), AppError> {
    let scenarios = builtin::all(catalog)?;
    let mut text =
        String::from("Built-in scenarios (`woundsim run NAME ...`; no NAME runs them all):\n");
    for s in &scenarios {
        text.push_str(&format!(
            "  {:<20} type {:<12} {:>3} variants  {} trials  seed {}\n      {}\n      variants: {}\n",
            s.header.name,
            s.kind(),
            s.variant_names().len(),
            s.header.trials,
            s.header.seed,
            s.header.description,
            s.variant_names().join(", ")
        ));
    }
    text.push_str(&format!("\nScenario types: {}\n", types::TYPES.join(", ")));
    text.push_str(&format!(
        "\nRule tables:\n  death saves (docs/rules.md, death saves): {}\n  permanent wounds (docs/rules.md, permanent wounds): successes before the \
         last failed save {}; one of each; a taken slot escalates; none free = dead\n",
        DeathSaveRules::default().describe(),
        Severity::describe_requirement(),
    ));
    for severity in Severity::ALL {
        let examples: Vec<String> = catalog
            .wound_examples
            .of(severity)
            .iter()
            .map(|e| {
                let mut effects = WoundExamples::effect_names(e.effects);
                if e.max_hp_per_level {
                    effects.push("max HP -1 per level");
                }
                match effects.is_empty() {
                    true => e.name.clone(),
                    false => format!("{} ({})", e.name, effects.join(", ")),
                }
            })
            .collect();
        text.push_str(&format!(
            "    {} (data/permanent-wounds.toml, one drawn uniformly): {}\n",
            severity.name(),
            examples.join("; ")
        ));
    }
    text.push_str(&limb_table());
    text.push_str(&format!(
        "  bestiary (data/bestiary.toml, SRD 5.1 under the old names; data/srd-bestiary.toml, SRD 5.2 by slug; NAME@5.2 where a slug is an old name): {}\n  PC templates: CLASS-LEVEL, CLASS one of {}, LEVEL 1..={}\n",
        catalog.bestiary.names().join(", "),
        catalog.templates.classes().join(", "),
        catalog.templates.max_level()
    ));
    let injuries = &catalog.injury_table;
    text.push_str(&format!(
        "  lingering injuries (docs/rules.md, lingering injuries; data/lingering-injuries.toml): on a critical hit taken or a natural 1 \
         rolled, {}% chance of a d100 entry:\n",
        injuries.chance.p() * 100.0
    ));
    for line in injuries.describe() {
        text.push_str(&format!("    {line}\n"));
    }
    print(out, &text)
}
