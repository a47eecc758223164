//! Command-line definitions (clap) turned into typed options; no logic.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// Monte Carlo statistics and balance simulator for D&D 5e injury rules.
///
/// Runs death-save sequences (and, as the rule sets grow, combats and
/// campaigns) on many threads, applies optional injury rules, and writes
/// CSV statistics and charts. The same scenario and seed give the same
/// output for any number of threads.
#[derive(Debug, Parser)]
#[command(name = "woundsim", version, about, long_about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Simulate scenarios by Monte Carlo and write reports.
    ///
    /// With no SCENARIO, runs every built-in scenario (the default suite)
    /// into `reports/`.
    Run(RunArgs),
    /// Compute a scenario's figures exactly (Markov chain), in the same
    /// summary.csv format (ci_low = ci_high = estimate, trials = 0).
    Exact(ExactArgs),
    /// List the built-in scenarios and scenario types.
    List,
}

/// Options of `woundsim run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Scenario files (TOML), or names of built-in scenarios (see `woundsim
    /// list`). None: the whole built-in suite.
    #[arg(value_name = "SCENARIO")]
    pub scenarios: Vec<String>,
    /// Trials (sequences) per variant, 1 to 10^13, overriding each
    /// scenario's `trials` [default: the scenario's].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=10_000_000_000_000))]
    pub trials: Option<u64>,
    /// Seed of the random streams, an integer 0 to 2^64-1, overriding each
    /// scenario's `seed` [default: the scenario's].
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Worker threads; 0 means one per available core. Never changes the
    /// results.
    #[arg(long, value_name = "T", default_value_t = 0)]
    pub threads: usize,
    /// Confidence level of every interval, strictly between 0 and 1
    /// [default: the scenario's, else 0.95].
    #[arg(long, value_name = "LEVEL", value_parser = parse_level)]
    pub confidence: Option<f64>,
    /// Output folder for summary.csv, distributions and charts.
    #[arg(long, value_name = "DIR", default_value = "reports")]
    pub out: PathBuf,
    /// Print no table and no progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Options of `woundsim exact`.
#[derive(Debug, Args)]
pub struct ExactArgs {
    /// Scenario files (TOML) or built-in names. None: every built-in scenario.
    #[arg(value_name = "SCENARIO")]
    pub scenarios: Vec<String>,
    /// Output folder for summary.csv, distributions and charts.
    #[arg(long, value_name = "DIR", default_value = "reports/exact")]
    pub out: PathBuf,
    /// Print no table.
    #[arg(long, short)]
    pub quiet: bool,
}

fn parse_level(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(level) if level > 0.0 && level < 1.0 => Ok(level),
        _ => Err(format!(
            "`{text}` is not a confidence level strictly between 0 and 1 (e.g. 0.95)"
        )),
    }
}
