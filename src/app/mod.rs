//! The commands: load and validate every scenario first, then simulate or
//! solve, then write all reports at once. Errors map to exit codes in
//! [`AppError::exit_code`].

pub mod interrupt;
pub mod output;
pub mod progress;

use std::io::Write;
use std::path::Path;

use crate::cli::{Command, ExactArgs, RunArgs, ViewArgs};
use crate::engine::{Engine, EngineError, Stop};
use crate::report::{self, ReportError};
use crate::results::{RunMetadata, ScenarioResult};
use crate::scenario::{self, Scenario, ScenarioError, builtin};
use crate::testhook;
use interrupt::{Interrupt, Signal};

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
    NoExact(#[from] crate::exact::NoExactSolution),
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
}

impl AppError {
    /// The process exit code for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            AppError::Scenario(_) | AppError::Usage(_) | AppError::NoExact(_) => 2,
            AppError::Interrupted(signal) => signal.exit_code(),
            AppError::Engine(_)
            | AppError::Report(_)
            | AppError::Output(_)
            | AppError::Stdout(_) => 1,
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
    let result = match command {
        Command::Run(args) => run(args, out, stop),
        Command::Exact(args) => exact(args, out, stop),
        Command::List => list(out),
    };
    result.map_err(|e| match e {
        AppError::Interrupted(_) => AppError::Interrupted(interrupt.signal()),
        other => other,
    })
}

/// Resolves scenario arguments (files, else built-in names); none = all built-ins.
pub fn load_scenarios(args: &[String]) -> Result<Vec<Scenario>, AppError> {
    let scenarios = if args.is_empty() {
        builtin::all()?
    } else {
        args.iter()
            .map(|a| load_one(a))
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
fn load_one(arg: &str) -> Result<Scenario, ScenarioError> {
    let path = Path::new(arg);
    let file_error = if path.is_file() {
        match scenario::load_file(path) {
            Err(ScenarioError::Unreadable { reason, .. }) => Some(reason),
            read => return read,
        }
    } else {
        None
    };
    if let Some(found) = builtin::find(arg) {
        return found;
    }
    let reason = match file_error {
        Some(reason) => reason,
        None if path.is_dir() => {
            return Err(ScenarioError::NotAFile {
                file: arg.to_string(),
            });
        }
        None => "no such file, and no built-in scenario of that name (see `woundsim list`)".into(),
    };
    Err(ScenarioError::Unreadable {
        file: arg.to_string(),
        reason,
    })
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
    dir: &Path,
    quiet: bool,
    view: &ViewArgs,
    meta: &RunMetadata,
    stop: Stop<'_>,
) -> Result<(), AppError> {
    testhook::at("simulated", stop);
    if stop.requested() {
        return Err(AppError::Interrupted(Signal::Interrupt));
    }
    let files = report::write_all(results, meta, dir, stop)?;
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
            &format!("wrote {} files to {}\n", files.len(), dir.display()),
        )?;
    }
    Ok(())
}

fn run(args: RunArgs, out: &mut dyn Write, stop: Stop<'_>) -> Result<(), AppError> {
    let mut scenarios = load_scenarios(&args.scenarios)?;
    output::check(&args.out, &scenarios)?;
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
    let (started, clock) = (std::time::SystemTime::now(), std::time::Instant::now());
    let engine = Engine::new(args.threads)?;
    let sink = progress::ProgressBarSink::new(scenarios.len(), args.quiet, stop);
    testhook::at("simulating", stop);
    let results = scenarios
        .iter()
        .map(|s| {
            sink.set_scenario(&s.header.name, crate::sim::work(s));
            crate::sim::simulate(s, &engine, &sink).map(|r| r.described(s.variant_descriptions()))
        })
        .collect::<Result<Vec<_>, _>>();
    sink.finish();
    let meta = RunMetadata {
        started: Some(started),
        threads: Some(engine.threads()),
        wall_seconds: Some(clock.elapsed().as_secs_f64()),
        ..RunMetadata::default()
    };
    report_written(
        out, &results?, &args.out, args.quiet, &args.view, &meta, stop,
    )
}

fn exact(args: ExactArgs, out: &mut dyn Write, stop: Stop<'_>) -> Result<(), AppError> {
    let scenarios = load_scenarios(&args.scenarios)?;
    output::check(&args.out, &scenarios)?;
    let started = std::time::SystemTime::now();
    let results = scenarios
        .iter()
        .map(|s| crate::exact::solve(s).map(|r| r.described(s.variant_descriptions())))
        .collect::<Result<Vec<_>, _>>()?;
    let meta = RunMetadata {
        started: Some(started),
        ..RunMetadata::default()
    };
    report_written(
        out, &results, &args.out, args.quiet, &args.view, &meta, stop,
    )
}

/// The seed's limb-HP table and damage-type effects (RULES.md §3), from the rule data.
fn limb_table() -> String {
    use crate::rules::limbs::{DamageType, LIMB_HP, LimbEffect, limb_effect};
    let mut text = String::from(
        "  limb damage (RULES.md §3): limb HP by size (arm/leg), separate from the creature's HP:",
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

fn list(out: &mut dyn Write) -> Result<(), AppError> {
    let scenarios = builtin::all()?;
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
    text.push_str(&format!(
        "\nScenario types: {}\n",
        scenario::TYPES.join(", ")
    ));
    text.push_str(
        "\nRule tables:\n  death saves (RULES.md §0): d20 + save_bonus >= dc succeeds; natural 1 = two failures; \
         natural 20 = 1 HP; 3 successes = stable; 3 failures = dead\n  permanent wounds (RULES.md §2): successes before the \
         last failed save 2 -> minor, 1 -> moderate, 0 -> severe; one of each; a taken slot escalates; none free = dead\n",
    );
    text.push_str(&limb_table());
    text.push_str(&format!(
        "  bestiary (SRD 5.1, data/bestiary.toml): {}\n  PC templates: CLASS-LEVEL, CLASS one of {}, LEVEL 1..={}\n",
        crate::combat::bestiary::names().join(", "),
        crate::combat::templates::CLASSES.join(", "),
        crate::combat::templates::MAX_LEVEL
    ));
    let injuries = scenario::injury_table::default_table_result()?;
    text.push_str(&format!(
        "  lingering injuries (RULES.md §1; data/lingering-injuries.toml): on a critical hit taken or a natural 1 \
         rolled, {}% chance of a d100 entry:\n",
        injuries.chance * 100.0
    ));
    for line in injuries.describe() {
        text.push_str(&format!("    {line}\n"));
    }
    print(out, &text)
}
