//! Options of `woundsim check`, the statistical regression gate.

use std::path::PathBuf;

use clap::Args;

/// Options of `woundsim check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The baseline: a woundsim output folder (summary.csv and run.json).
    #[arg(long, value_name = "DIR")]
    pub baseline: PathBuf,
    /// Compare this existing output folder instead of running scenarios.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["scenarios", "trials", "seed", "threads", "out"])]
    pub current: Option<PathBuf>,
    /// Scenarios to run, as for `woundsim run`. None: the built-in suite.
    /// Baseline scenarios not named are not compared.
    #[arg(value_name = "SCENARIO")]
    pub scenarios: Vec<String>,
    /// Trials per variant of the run, overriding each scenario's.
    #[arg(long, value_name = "N", value_parser = super::parse_trials)]
    pub trials: Option<u64>,
    /// Seed of the run, overriding each scenario's. The baseline's seed
    /// compares bit for bit; another seed tests against noise.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Worker threads of the run.
    #[command(flatten)]
    pub threads: super::Threads,
    /// Keep the run's reports in this folder [default: a temporary folder].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// As for `woundsim run --set`: run the current scenarios with these
    /// overrides (recorded in run.json).
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = crate::scenario::overrides::Override::parse, conflicts_with = "current")]
    pub set: Vec<crate::scenario::overrides::Override>,
    /// As for `woundsim run --scan`.
    #[arg(long = "scan", value_name = "KEY=FROM:TO:STEP|v1,v2", value_parser = crate::scenario::scan::ScanAxis::parse, conflicts_with = "current")]
    pub scan: Vec<crate::scenario::scan::ScanAxis>,
    /// Family-wise false-alarm rate of all tests together (Holm–Bonferroni).
    #[arg(long, value_name = "A", default_value_t = 0.001, value_parser = parse_alpha)]
    pub alpha: f64,
    /// Ignore a significant change smaller than this (absolute, in the
    /// metric's units).
    #[arg(long, value_name = "X", value_parser = parse_min_effect)]
    pub min_effect: Option<f64>,
    /// Report scenarios, variants and metrics that only one side has, and
    /// compare the rest, instead of failing with exit code 2.
    #[arg(long)]
    pub allow_missing: bool,
    /// Write a JUnit XML report here (one test case per scenario × variant × metric).
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Write the whole comparison as JSON here.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Warn when a scenario runs more than R times slower (trials per
    /// second) than in the baseline's run.json.
    #[arg(long, value_name = "R", value_parser = parse_slowdown)]
    pub max_slowdown: Option<f64>,
    /// Fail (exit code 1) instead of warning when --max-slowdown is exceeded.
    #[arg(long, requires = "max_slowdown")]
    pub fail_on_slowdown: bool,
    /// Print nothing on stdout (the exit code and stderr still tell).
    #[arg(long, short)]
    pub quiet: bool,
}

fn number(text: &str) -> Option<f64> {
    text.parse::<f64>().ok().filter(|x| x.is_finite())
}

fn parse_alpha(text: &str) -> Result<f64, String> {
    number(text)
        .filter(|a| *a > 0.0 && *a < 1.0)
        .ok_or_else(|| {
            format!("`{text}` is not a significance level strictly between 0 and 1 (e.g. 0.001)")
        })
}

fn parse_min_effect(text: &str) -> Result<f64, String> {
    number(text)
        .filter(|x| *x >= 0.0)
        .ok_or_else(|| format!("`{text}` is not a difference of 0 or more (e.g. 0.01)"))
}

fn parse_slowdown(text: &str) -> Result<f64, String> {
    number(text)
        .filter(|x| *x > 0.0)
        .ok_or_else(|| format!("`{text}` is not a ratio above 0 (e.g. 1.5 for 50% slower)"))
}
