//! Command-line definitions (clap) turned into typed options, and usage
//! errors printed on one line; no logic.

use std::path::PathBuf;

use clap::error::ErrorKind;
use clap::{Args, Parser, Subcommand};

use crate::scenario::command::CommandLayers;
use crate::scenario::error::one_line;
use crate::scenario::overrides::Override;
use crate::scenario::scan::ScanAxis;

mod check;
pub use check::CheckArgs;

/// Most worker threads `--threads` accepts. The output never depends on
/// the thread count, and threads beyond the cores only cost start-up time
/// (1,024 take about 2 s to start on a 2-core machine, 256 under 0.1 s);
/// `--threads 0` uses every core of any machine.
pub const MAX_THREADS: u64 = 256;

/// `--threads`: the one definition of the option, flattened into every
/// command that runs trials (`run`, `solve`, `check`).
#[derive(Clone, Copy, Debug, Args)]
pub struct Threads {
    /// Worker threads, 0 to 256; 0 means one per available core. Never
    /// changes the results.
    #[arg(
        id = "threads",
        long = "threads",
        value_name = "T",
        default_value_t = 0,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(0..=MAX_THREADS)
    )]
    pub count: usize,
}

/// The command-line definition, for completions and the man page.
pub fn command() -> clap::Command {
    <Cli as clap::CommandFactory>::command()
}

/// Parses the process arguments, like clap's `Parser::parse`: help and
/// version are printed and exit 0; a usage error is printed as one line,
/// `woundsim: ...`, on stderr and exits with code 2.
pub fn parse_or_exit() -> Cli {
    match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => match e.kind() {
            ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => e.exit(),
            _ => {
                eprintln!("woundsim: {}", usage_line(&e));
                std::process::exit(2)
            }
        },
    }
}

/// The first paragraph of a clap error on one line, without its `error: `
/// prefix, with a pointer to `--help` (clap's own message spans several
/// lines; a list such as the missing required arguments follows its first
/// line, up to the first empty line).
pub fn usage_line(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let mut lines = text.lines().skip_while(|l| l.trim().is_empty());
    let first = lines.next().unwrap_or("");
    let first = first.strip_prefix("error: ").unwrap_or(first);
    let mut message = first.trim_end().to_string();
    for more in lines.take_while(|l| !l.trim().is_empty()) {
        message.push(' ');
        message.push_str(more.trim());
    }
    format!("{} (see --help)", one_line(&message))
}

/// Monte Carlo statistics and balance simulator for D&D 5e injury rules.
///
/// Runs death-save sequences, lingering injuries, festering wounds,
/// amputations and combats on many threads (or as shards on many
/// machines), and writes CSV statistics, charts and an HTML report. The same scenario and seed give the same
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
    /// Compare a run with a baseline output folder: exit 1 when a figure
    /// moved beyond statistical noise.
    ///
    /// Runs the scenarios (or reads `--current DIR`) and compares each
    /// figure with the baseline's: bit for bit when seed, trials and
    /// scenario text are the same, else by a two-sample test with
    /// Holm–Bonferroni correction. Exit codes: 0 nothing moved, 1 a figure
    /// moved (or a slowdown with --fail-on-slowdown), 2 bad input.
    Check(CheckArgs),
    /// Find the value of an option at which a metric reaches a target.
    ///
    /// Runs the scenario on common random numbers at a grid of values of
    /// KEY between FROM and TO, brackets the target, then bisects the
    /// bracket; prints the value, the interval of values whose figure's
    /// interval holds the target, and the trials spent. Exit codes: 0
    /// found, 1 the target is outside the range or the metric is not
    /// monotone there, 2 bad input.
    Solve(SolveArgs),
    /// Merge the state files of a run's shards into its reports.
    ///
    /// The states (from `woundsim run --shard K/N --state-out FILE`, or
    /// from an earlier merge) must be of one run: the same woundsim
    /// version, scenarios, seeds and trials, without overlaps. With every
    /// chunk present, writes the same reports as one `woundsim run` on one
    /// machine, byte for byte; with `--state-out`, also (or, for part of
    /// the shards, only) the merged state.
    Merge(MergeArgs),
    /// Check scenario files without running them: one line per file,
    /// `FILE: ok (type T, V variants)` or its first error; exit code 2 if
    /// any is invalid.
    Validate(ValidateArgs),
    /// Convert monsters from 5etools, Open5e or Foundry VTT JSON into
    /// woundsim's bestiary TOML, readable and editable, with a comment per
    /// entry naming its source and a `not_modelled` list of what the
    /// simulator leaves out. A scenario can also name such a file directly
    /// (`bestiary = ["owlbear.json"]`).
    Import(ImportArgs),
    /// List the built-in scenarios and scenario types.
    List,
    /// Print a built-in scenario's TOML, a bestiary entry's or a PC
    /// template's statistics (e.g. `death-saves`, `ogre`, `fighter-7`).
    Show {
        /// A built-in scenario, a monster of the bestiary, or a PC template
        /// (CLASS-LEVEL).
        name: String,
        /// A bestiary file whose monsters are shown too, over the built-in
        /// ones (woundsim TOML or JSON, 5etools, Open5e, Foundry VTT; told
        /// from the content). May be repeated.
        #[arg(long, value_name = "FILE")]
        bestiary: Vec<std::path::PathBuf>,
    },
    /// Print a shell completion script, e.g. `woundsim completions bash >
    /// ~/.local/share/bash-completion/completions/woundsim`.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff), e.g. `woundsim man > woundsim.1; man
    /// ./woundsim.1`.
    Man,
}

/// Options of `woundsim import`.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// JSON files: a 5etools bestiary, Open5e monsters, Foundry VTT actors.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<std::path::PathBuf>,
    /// Write the bestiary here (replaced atomically) instead of to stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<std::path::PathBuf>,
    /// The files' format, if not told from their content.
    #[arg(long, value_name = "FORMAT", value_parser = ["5etools", "open5e", "foundry", "dndbeyond"])]
    pub format: Option<String>,
}

/// Options of `woundsim run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Scenario files (TOML), or names of built-in scenarios (see `woundsim
    /// list`). None: the whole built-in suite.
    #[arg(value_name = "SCENARIO")]
    pub scenarios: Vec<String>,
    /// Trials (sequences) per variant, 1 to 10^13, overriding each
    /// scenario's `trials` [default: the scenario's]; `100_000` and `1e5`
    /// are accepted (a whole number).
    #[arg(long, value_name = "N", value_parser = parse_trials)]
    pub trials: Option<u64>,
    /// Seed of the random streams, an integer 0 to 2^64-1, overriding each
    /// scenario's `seed` [default: the scenario's].
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Worker threads.
    #[command(flatten)]
    pub threads: Threads,
    /// Confidence level of every interval, from 0.5 to 0.999999
    /// [default: the scenario's, else 0.95].
    #[arg(long, value_name = "LEVEL", value_parser = parse_level)]
    pub confidence: Option<f64>,
    /// Output folder for index.html, summary.csv, distributions and charts.
    #[arg(long, value_name = "DIR", default_value = "reports")]
    pub out: PathBuf,
    /// Print no table and no progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Run only shard K of N (K from 0 to N-1) of every scenario and write
    /// its state to --state-out instead of reports; `woundsim merge` turns
    /// the N states into the run's reports.
    #[arg(long, value_name = "K/N", requires = "state_out")]
    pub shard: Option<crate::engine::shard::Shard>,
    /// Write the run's (or the shard's) accumulated state to FILE, for
    /// `woundsim merge`; no reports are written.
    #[arg(long, value_name = "FILE")]
    pub state_out: Option<PathBuf>,
    /// Set scenario option KEY to VALUE (a TOML value; a bare word is a
    /// string) in every variant, over the file's [options] and
    /// [[variant]] tables; repeatable, a later --set over an earlier one.
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = Override::parse)]
    pub set: Vec<Override>,
    /// Scan option KEY over FROM:TO:STEP or the values v1,v2,...: every
    /// variant becomes one variant per value, named `VARIANT@KEY=VALUE`, on
    /// common random numbers; repeatable (crossed, the first outermost);
    /// over the file's [scan] table for the same KEY. Writes scan.csv and
    /// one chart per headline metric against KEY.
    #[arg(long = "scan", value_name = "KEY=FROM:TO:STEP|v1,v2", value_parser = ScanAxis::parse)]
    pub scan: Vec<ScanAxis>,
    /// Leave out of run.json and index.html what differs between two runs
    /// of the same scenarios and seeds (start time, durations, throughput,
    /// threads), so that they write byte-identical folders.
    #[arg(long)]
    pub reproducible: bool,
    /// Run in blocks of 16 chunks (of the scenario type's size, e.g.
    /// 1,048,576 death-save trials or 2,048 careers) until every figure
    /// whose metric matches NAME (a glob: `*` any characters, `?` one) has
    /// an interval half-width of at most HALF_WIDTH in every variant, or
    /// until --max-trials; repeatable. The trials used replace the
    /// scenario's `trials`; the stopping point never depends on --threads.
    #[arg(long, value_name = "NAME=HALF_WIDTH", value_parser = Precision::parse, conflicts_with = "state_out")]
    pub precision: Vec<Precision>,
    /// With --precision: the most trials per variant to run [default: 100
    /// times the scenario's trials, at most 10^13].
    #[arg(long, value_name = "N", value_parser = parse_trials, requires = "precision")]
    pub max_trials: Option<u64>,
    /// What stdout shows.
    #[command(flatten)]
    pub view: ViewArgs,
}

/// `layers()`: the `--set` and `--scan` arguments of a command, as one
/// [`CommandLayers`].
macro_rules! command_layers {
    ($($args:ty),+) => {$(
        impl $args {
            /// The `--set` overrides and `--scan` axes given.
            pub fn layers(&self) -> CommandLayers {
                CommandLayers {
                    sets: self.set.clone(),
                    scans: self.scan.clone(),
                }
            }
        }
    )+};
}
command_layers!(RunArgs, ValidateArgs, ExactArgs);

/// One `--precision NAME=HALF_WIDTH` target.
#[derive(Clone, Debug, PartialEq)]
pub struct Precision {
    /// `NAME=HALF_WIDTH` as written, for messages.
    pub arg: String,
    /// The metric glob.
    pub metrics: String,
    /// The largest interval half-width accepted, above 0.
    pub half_width: f64,
}

impl Precision {
    /// Reads `NAME=HALF_WIDTH`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let Some((name, width)) = text.rsplit_once('=') else {
            return Err("expected NAME=HALF_WIDTH, e.g. p_dead=0.001".into());
        };
        let name = name.trim();
        if name.is_empty() {
            return Err("expected NAME=HALF_WIDTH: the NAME is missing".into());
        }
        match width.trim().parse::<f64>() {
            Ok(w) if w.is_finite() && w > 0.0 => Ok(Precision {
                arg: text.to_string(),
                metrics: name.to_string(),
                half_width: w,
            }),
            _ => Err(format!(
                "`{}` is not a half-width above 0 (e.g. 0.001)",
                width.trim()
            )),
        }
    }
}

/// Options of `woundsim solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The scenario file (TOML) or built-in name.
    #[arg(value_name = "SCENARIO")]
    pub scenario: String,
    /// The option to vary and its range, KEY=FROM:TO (numbers; whole
    /// numbers are varied as whole numbers).
    #[arg(long, value_name = "KEY=FROM:TO")]
    pub vary: String,
    /// The metric to solve for (a summary.csv metric name).
    #[arg(long, value_name = "NAME")]
    pub metric: String,
    /// The value the metric should reach (a proportion as a share: 0.25).
    #[arg(long, value_name = "VALUE", allow_hyphen_values = true)]
    pub target: f64,
    /// The variant whose metric is solved for [default: the first].
    #[arg(long, value_name = "NAME")]
    pub variant: Option<String>,
    /// Stop bisecting when the bracket is this narrow [default: (TO -
    /// FROM) / 1000; 1 for whole numbers].
    #[arg(long, value_name = "X")]
    pub tolerance: Option<f64>,
    /// Trials per variant of each evaluation [default: the scenario's].
    #[arg(long, value_name = "N", value_parser = parse_trials)]
    pub trials: Option<u64>,
    /// Seed of every evaluation (common random numbers) [default: the scenario's].
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Worker threads.
    #[command(flatten)]
    pub threads: Threads,
    /// As for `woundsim run --set`.
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = Override::parse)]
    pub set: Vec<Override>,
}

/// Options of `woundsim validate`.
#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// Scenario files (TOML), or names of built-in scenarios.
    #[arg(value_name = "FILE", required = true)]
    pub scenarios: Vec<String>,
    /// As for `woundsim run --set`: validate with these overrides.
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = Override::parse)]
    pub set: Vec<Override>,
    /// Scan option KEY over FROM:TO:STEP or the values v1,v2,...: every
    /// variant becomes one variant per value, named `VARIANT@KEY=VALUE`, on
    /// common random numbers; repeatable (crossed, the first outermost);
    /// over the file's [scan] table for the same KEY. Writes scan.csv and
    /// one chart per headline metric against KEY.
    #[arg(long = "scan", value_name = "KEY=FROM:TO:STEP|v1,v2", value_parser = ScanAxis::parse)]
    pub scan: Vec<ScanAxis>,
}

/// Options of `woundsim merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// State files, in any order.
    #[arg(value_name = "STATE", required = true)]
    pub states: Vec<PathBuf>,
    /// Output folder for the reports.
    #[arg(long, value_name = "DIR", default_value = "reports")]
    pub out: PathBuf,
    /// Also write the merged state to FILE (to merge it again later); with
    /// only some of the shards, write just this.
    #[arg(long, value_name = "FILE")]
    pub state_out: Option<PathBuf>,
    /// Print no table.
    #[arg(long, short)]
    pub quiet: bool,
    /// As for `woundsim run --reproducible`.
    #[arg(long)]
    pub reproducible: bool,
    /// What stdout shows.
    #[command(flatten)]
    pub view: ViewArgs,
}

/// What stdout shows of the figures (the files in the output folder always
/// hold every figure).
#[derive(Debug, Default, Args)]
pub struct ViewArgs {
    /// Show only the metrics matching GLOB (`*`: any characters, `?`: one;
    /// comma-separated or repeated), even those 0 in every variant.
    #[arg(long, value_name = "GLOB")]
    pub metrics: Vec<String>,
    /// Show only the variants matching GLOB (as for --metrics).
    #[arg(long, value_name = "GLOB")]
    pub variants: Vec<String>,
    /// What stdout shows: a table fitted to the terminal (else 120
    /// columns), Markdown, or the summary.csv rows as CSV or JSON.
    #[arg(long, value_enum, default_value_t = crate::report::Format::Table)]
    pub format: crate::report::Format,
}

/// Options of `woundsim exact`.
#[derive(Debug, Args)]
pub struct ExactArgs {
    /// Scenario files (TOML) or built-in names. None: every built-in scenario.
    #[arg(value_name = "SCENARIO")]
    pub scenarios: Vec<String>,
    /// Output folder for index.html, summary.csv, distributions and charts.
    #[arg(long, value_name = "DIR", default_value = "reports/exact")]
    pub out: PathBuf,
    /// Set scenario option KEY to VALUE (a TOML value; a bare word is a
    /// string) in every variant, over the file's [options] and
    /// [[variant]] tables; repeatable, a later --set over an earlier one.
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = Override::parse)]
    pub set: Vec<Override>,
    /// Scan option KEY over FROM:TO:STEP or the values v1,v2,...: every
    /// variant becomes one variant per value, named `VARIANT@KEY=VALUE`, on
    /// common random numbers; repeatable (crossed, the first outermost);
    /// over the file's [scan] table for the same KEY. Writes scan.csv and
    /// one chart per headline metric against KEY.
    #[arg(long = "scan", value_name = "KEY=FROM:TO:STEP|v1,v2", value_parser = ScanAxis::parse)]
    pub scan: Vec<ScanAxis>,
    /// Print no table.
    #[arg(long, short)]
    pub quiet: bool,
    /// As for `woundsim run --reproducible`.
    #[arg(long)]
    pub reproducible: bool,
    /// What stdout shows.
    #[command(flatten)]
    pub view: ViewArgs,
}

/// A trial count as `--trials` and a scenario's `trials` read it
/// ([`crate::scenario::values::trials_text`]).
pub fn parse_trials(text: &str) -> Result<u64, String> {
    crate::scenario::values::trials_text(text)
}

pub(crate) fn parse_level(text: &str) -> Result<f64, String> {
    use crate::engine::stats::{accepted_levels, level_accepted};
    match text.parse::<f64>() {
        Ok(level) if level_accepted(level) => Ok(level),
        _ => Err(format!(
            "`{text}` is not a confidence level {} (e.g. 0.95): a lower level says next to nothing, a higher one has infinite intervals",
            accepted_levels()
        )),
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::{Cli, parse_trials, usage_line};

    #[test]
    fn trials_take_separators_and_whole_scientific_notation() {
        assert_eq!(parse_trials("100000"), Ok(100_000));
        assert_eq!(parse_trials("100_000"), Ok(100_000));
        assert_eq!(parse_trials("1e5"), Ok(100_000));
        assert_eq!(parse_trials("1E5"), Ok(100_000));
        assert_eq!(parse_trials("1.5e5"), Ok(150_000));
        assert_eq!(parse_trials("1.50e+2"), Ok(150));
        assert_eq!(parse_trials("1e13"), Ok(10_000_000_000_000));
        for bad in [
            "1.23456e2",
            "1.5",
            "0",
            "1e14",
            "e5",
            "1e",
            "-1",
            "1_",
            "_1",
            "1__0",
            "1e-2",
            "1e99999999999",
            "",
            "x",
            "1e5.0",
            "1.2.3",
        ] {
            let e = parse_trials(bad).unwrap_err();
            assert!(e.contains("is not a whole number of trials"), "{bad}: {e}");
        }
    }

    fn error(args: &[&str]) -> String {
        usage_line(&Cli::try_parse_from(args).unwrap_err())
    }

    #[test]
    fn usage_errors_are_one_line_naming_the_flag() {
        let e = error(&["woundsim", "run", "--threads", "18446744073709551615"]);
        assert_eq!(
            e,
            "invalid value '18446744073709551615' for '--threads <T>': 18446744073709551615 is not in 0..=256 (see --help)"
        );
        let e = error(&["woundsim", "run", "--threads", "257"]);
        assert!(e.contains("'--threads <T>': 257 is not in 0..=256"), "{e}");
        let e = error(&["woundsim", "run", "--bogus"]);
        assert_eq!(e, "unexpected argument '--bogus' found (see --help)");
        let e = error(&["woundsim", "run", "--out", "a\nb", "--seed", "x\ny"]);
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(Cli::try_parse_from(["woundsim", "run", "--threads", "256"]).is_ok());
        let e = error(&["woundsim", "check"]);
        assert_eq!(
            e,
            "the following required arguments were not provided: --baseline <DIR> (see --help)"
        );
    }

    #[test]
    fn every_command_that_runs_trials_takes_the_same_threads() {
        let cli = super::command();
        let threads = |sub: &str| {
            let arg = cli
                .find_subcommand(sub)
                .and_then(|c| c.get_arguments().find(|a| a.get_id() == "threads"))
                .unwrap_or_else(|| panic!("`{sub}` has no --threads"))
                .clone();
            (
                arg.get_help().map(ToString::to_string),
                arg.get_value_names().map(<[_]>::to_vec),
                arg.get_default_values().to_vec(),
            )
        };
        let run = threads("run");
        assert!(
            run.0.as_deref().unwrap_or("").contains("0 to 256"),
            "{run:?}"
        );
        for sub in ["solve", "check"] {
            assert_eq!(threads(sub), run, "`{sub} --threads` differs from `run`'s");
        }
        for sub in ["run", "solve", "check"] {
            let e = error(&["woundsim", sub, "--threads", "257"]);
            assert!(
                e.contains("'--threads <T>': 257 is not in 0..=256"),
                "{sub}: {e}"
            );
        }
    }
}
