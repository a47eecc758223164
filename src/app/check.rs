//! `woundsim check`: read the baseline folder, run the scenarios into a
//! temporary folder (or `--out`), or read `--current`; compare
//! ([`crate::gate`]); print the table, write `--junit` and `--json`; and
//! turn the outcome into the exit code: 0 nothing moved, 1 a figure moved
//! (or a slowdown with `--fail-on-slowdown`), 2 bad input — a missing or
//! malformed folder, or scenarios, variants or metrics that only one side
//! has (unless `--allow-missing`), in which case no report file is
//! written.

use std::io::Write;
use std::path::Path;

use super::{AppError, print, writable, write_file};
use crate::cli::{CheckArgs, RunArgs};
use crate::engine::Stop;
use crate::gate::{CheckError, Comparison, Folder, Options, Side, compare};
use crate::gate::{junit, table as check_table};
use crate::model::Catalog;

/// How many names an error message lists before it says how many more.
const LISTED: usize = 5;

/// `items` joined, at most [`LISTED`] of them, then `(N more)`.
fn listed(items: impl Iterator<Item = String>) -> String {
    let all: Vec<String> = items.collect();
    let mut text = all[..all.len().min(LISTED)].join("; ");
    if all.len() > LISTED {
        text.push_str(&format!(" (and {} more)", all.len() - LISTED));
    }
    text
}

/// Whether `a` and `b` are the same existing folder.
fn same_folder(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// An error if the report file `path` of `option` would land inside the
/// baseline folder (it would change the baseline), or could not be
/// written at all: checked before anything runs.
fn report_path(option: &str, path: &Path, baseline: &Path) -> Result<(), AppError> {
    writable(path)?;
    // The deepest part of the path that exists, as the system resolves it.
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
    let existing = parent
        .unwrap_or(Path::new("."))
        .ancestors()
        .find_map(|p| p.canonicalize().ok());
    if let (Some(at), Ok(base)) = (existing, baseline.canonicalize()) {
        if at.starts_with(&base) {
            return Err(AppError::Refused(format!(
                "{option} `{}` is inside the baseline folder `{}`: the report would change the baseline; write it elsewhere",
                path.display(),
                baseline.display()
            )));
        }
    }
    Ok(())
}

/// Runs the scenarios of `args` into `dir`, as `woundsim run` would.
fn run_into(
    catalog: &Catalog,
    args: &CheckArgs,
    dir: &Path,
    stop: Stop<'_>,
) -> Result<(), AppError> {
    let run = RunArgs {
        scenarios: args.scenarios.clone(),
        trials: args.trials,
        seed: args.seed,
        threads: args.threads,
        confidence: None,
        out: dir.to_path_buf(),
        quiet: args.quiet,
        shard: None,
        state_out: None,
        set: args.set.clone(),
        scan: args.scan.clone(),
        precision: Vec::new(),
        max_trials: None,
        reproducible: false,
        view: Default::default(),
    };
    // The run's own table is not the gate's report.
    super::run::run(catalog, run, &mut std::io::sink(), stop)
}

/// The current folder: `--current`, or a fresh run.
fn current(catalog: &Catalog, args: &CheckArgs, stop: Stop<'_>) -> Result<Folder, AppError> {
    if let Some(dir) = &args.current {
        return Ok(Folder::read(dir, Side::Current)?);
    }
    if let Some(dir) = &args.out {
        if same_folder(dir, &args.baseline) {
            return Err(AppError::Usage(format!(
                "--out `{}` is the baseline folder: the run would overwrite the baseline",
                dir.display()
            )));
        }
        run_into(catalog, args, dir, stop)?;
        return Ok(Folder::read(dir, Side::Current)?);
    }
    let temp = tempfile::tempdir()
        .map_err(|e| AppError::Output(format!("cannot make a temporary folder: {e}")))?;
    run_into(catalog, args, temp.path(), stop)?;
    let mut folder = Folder::read(temp.path(), Side::Current)?;
    folder.dir = "this run".into();
    Ok(folder)
}

/// The gate's verdict as a result: `Err(Gate)` when it fails.
fn verdict(c: &Comparison, fail_on_slowdown: bool) -> Result<(), AppError> {
    let moved: Vec<String> = c
        .moved()
        .map(|m| format!("{}/{}/{}", m.scenario, m.variant, m.metric))
        .collect();
    if !moved.is_empty() {
        return Err(AppError::Gate(format!(
            "{} of {} metrics moved beyond noise: {}",
            moved.len(),
            c.metrics.len(),
            listed(moved.into_iter())
        )));
    }
    if fail_on_slowdown && c.slower().next().is_some() {
        let slower = c
            .slower()
            .map(|t| format!("{} {:.2}x slower", t.scenario, t.slowdown));
        return Err(AppError::Gate(format!(
            "slower than --max-slowdown {}x allows: {}",
            c.max_slowdown.unwrap_or(1.0),
            listed(slower)
        )));
    }
    Ok(())
}

/// Runs `woundsim check`.
pub fn check(
    catalog: &Catalog,
    args: CheckArgs,
    out: &mut dyn Write,
    stop: Stop<'_>,
) -> Result<(), AppError> {
    // A missing baseline, or a report path that cannot be written, is
    // found before anything runs.
    let baseline = Folder::read(&args.baseline, Side::Baseline)?;
    if let Some(path) = &args.junit {
        report_path("--junit", path, &args.baseline)?;
    }
    if let Some(path) = &args.json {
        report_path("--json", path, &args.baseline)?;
    }
    let current = current(catalog, &args, stop)?;
    let options = Options {
        alpha: args.alpha,
        min_effect: args.min_effect,
        max_slowdown: args.max_slowdown,
        named: args.current.is_none() && !args.scenarios.is_empty(),
    };
    let comparison = compare(&baseline, &current, &options);
    if !comparison.missing.is_empty() && !args.allow_missing {
        return Err(CheckError::Mismatch(format!(
            "the baseline and the current run do not hold the same figures: {}; \
             pass --allow-missing to compare the rest",
            listed(comparison.missing.iter().map(|m| m.describe()))
        ))
        .into());
    }
    if comparison.metrics.is_empty() {
        return Err(CheckError::Mismatch(format!(
            "nothing to compare: the baseline `{}` and the current run have no figure in common",
            comparison.baseline
        ))
        .into());
    }
    crate::gate::untested::refuse_nothing_tested(&comparison)?;
    if let Some(path) = &args.junit {
        write_file(
            path,
            junit::render(&comparison, args.fail_on_slowdown).as_bytes(),
        )?;
    }
    if let Some(path) = &args.json {
        // Serialising plain numbers and strings cannot fail.
        let mut json = serde_json::to_vec_pretty(&comparison).unwrap_or_default();
        json.push(b'\n');
        write_file(path, &json)?;
    }
    if !args.quiet {
        print(out, &check_table::render(&comparison))?;
    }
    verdict(&comparison, args.fail_on_slowdown)
}
