//! The commands, a module each, dispatched by [`execute`] (which builds
//! the catalog once): `run.rs`, `exact.rs`, `merge.rs`, [`check`],
//! [`solve`], `validate.rs`, `list.rs`, `show.rs`. A command that runs
//! loads and validates every scenario first (`load.rs`), then simulates or
//! solves, then writes all reports at once (`reports.rs`). Errors map to
//! exit codes in [`AppError::exit_code`].

pub mod check;
mod exact;
mod import;
pub mod interrupt;
mod list;
mod load;
pub mod merge;
pub mod meta;
pub mod output;
pub mod precision;
pub mod progress;
mod reports;
mod run;
pub mod shard;
mod show;
pub mod solve;
mod validate;

use std::io::Write;
use std::path::Path;

use crate::cli::Command;
use crate::engine::EngineError;
use crate::report::ReportError;
use crate::scenario::ScenarioError;
use crate::types;
use interrupt::{Interrupt, Signal};
pub use load::load_scenarios;

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
    /// A path given or found is not something woundsim reads or replaces:
    /// a folder, a FIFO or a link where a file must be, a file inside the
    /// baseline folder (exit code 2).
    #[error("{0}")]
    Refused(String),
    /// Standard output could not be written, other than a closed pipe (exit code 1).
    #[error("cannot write to standard output: {0}")]
    Stdout(std::io::Error),
    /// `check` cannot compare: a missing or malformed folder, or figures
    /// only one side has (exit code 2).
    #[error(transparent)]
    Check(#[from] crate::gate::CheckError),
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
            | AppError::Refused(_)
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
            Command::Run(args) => run::run(&catalog, args, out, stop),
            Command::Exact(args) => exact::exact(&catalog, args, out, stop),
            Command::Check(args) => check::check(&catalog, args, out, stop),
            Command::Merge(args) => merge::merge(&catalog, args, out, stop),
            Command::Solve(args) => solve::solve(&catalog, args, out, stop),
            Command::Validate(args) => validate::validate(&catalog, args, out),
            Command::Import(args) => import::import(&catalog, args, out),
            Command::List => list::list(&catalog, out),
            Command::Show { name, bestiary } => show::show(&catalog, &name, &bestiary, out),
            Command::Completions { shell } => completions(shell, out),
            Command::Man => man(out),
        });
    result.map_err(|e| match e {
        AppError::Interrupted(_) => AppError::Interrupted(interrupt.signal()),
        other => other,
    })
}

/// `woundsim completions SHELL`: the shell's completion script.
fn completions(shell: clap_complete::Shell, out: &mut dyn Write) -> Result<(), AppError> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut crate::cli::command(), "woundsim", &mut script);
    print(out, &String::from_utf8_lossy(&script))
}

/// `woundsim man`: the man page (roff).
fn man(out: &mut dyn Write) -> Result<(), AppError> {
    let mut page = Vec::new();
    clap_mangen::Man::new(crate::cli::command())
        .render(&mut page)
        .map_err(AppError::Stdout)?;
    print(out, &String::from_utf8_lossy(&page))
}

/// Writes `text` to stdout. A closed pipe (`| head`) ends the output
/// quietly, as success; any other write error (a full disk) is an error.
fn print(out: &mut dyn Write, text: &str) -> Result<(), AppError> {
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(AppError::Stdout(e)),
        _ => Ok(()),
    }
}

/// Writes `bytes` to the output file `path` ([`crate::files::write`]):
/// atomically over a regular file or nothing, through a FIFO or a
/// character device; anything else is refused (exit code 2).
fn write_file(path: &Path, bytes: &[u8]) -> Result<(), AppError> {
    crate::files::write::write(path, bytes).map_err(|e| written(path, e))
}

/// An error if `path` is not a file woundsim may write (exit code 2):
/// checked before a command spends any time.
fn writable(path: &Path) -> Result<(), AppError> {
    crate::files::write::check(path)
        .map(|_| ())
        .map_err(|e| written(path, e))
}

fn written(path: &Path, e: crate::files::write::WriteError) -> AppError {
    let message = format!("cannot write `{}`: {e}", path.display());
    if e.refused() {
        AppError::Refused(message)
    } else {
        AppError::Output(message)
    }
}
