//! A command's reports: the run's metadata (`run.json`, [`super::meta`]),
//! every report file at once ([`crate::report::write_all`]), then, unless
//! quiet, the stdout table or data and the last line saying where they went.

use std::io::Write;
use std::path::Path;

use super::interrupt::Signal;
use super::{AppError, meta, print};
use crate::cli::ViewArgs;
use crate::engine::Stop;
use crate::report;
use crate::report::run_info::RunInfo;
use crate::results::ScenarioResult;
use crate::testhook;
use crate::types::Scenario;

/// Where and how a command's reports go.
pub(super) struct Reports<'a> {
    dir: &'a Path,
    quiet: bool,
    view: &'a ViewArgs,
    reproducible: bool,
}

impl<'a> Reports<'a> {
    /// Reports into `dir`; `quiet`: nothing on stdout; `view`: what stdout
    /// shows; `reproducible`: no timings in the metadata.
    pub(super) fn new(dir: &'a Path, quiet: bool, view: &'a ViewArgs, reproducible: bool) -> Self {
        Reports {
            dir,
            quiet,
            view,
            reproducible,
        }
    }
}

/// The run's metadata from its timed results (`threads`: `None` for work
/// that used no engine), then the reports.
pub(super) fn write_timed(
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
pub(super) fn write_with_info(
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
    report_written(out, &results, &info, clock, reports, stop)
}

/// Writes the report files of `results`, then (unless quiet) prints them.
fn report_written(
    out: &mut dyn Write,
    results: &[ScenarioResult],
    run: &RunInfo,
    clock: &meta::Clock,
    reports: &Reports<'_>,
    stop: Stop<'_>,
) -> Result<(), AppError> {
    let Reports {
        dir, quiet, view, ..
    } = *reports;
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
