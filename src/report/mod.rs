//! Reports: `summary.csv`, one tidy CSV per distribution, PNG and SVG
//! charts, the run manifest and the text table. Everything is rendered in
//! memory first and then written all-or-nothing ([`atomic`]), together
//! with the removal of the previous run's files that this run does not
//! rewrite ([`manifest`]).
//!
//! Layout of an output folder:
//!
//! ```text
//! DIR/summary.csv                      every figure of every scenario
//! DIR/<scenario>/<distribution>.csv    e.g. death-saves/rolls.csv
//! DIR/<scenario>/<chart>.png|.svg      e.g. death-saves/outcomes.png
//! DIR/run.json                         the manifest: version, run metadata, files written
//! ```

pub mod atomic;
pub mod charts;
pub mod check_table;
pub mod csv;
pub mod junit;
pub mod manifest;
pub mod run_info;
pub mod table;

use std::path::{Path, PathBuf};

use crate::engine::Stop;
use crate::results::ScenarioResult;
use atomic::{CommitError, Transaction};
use manifest::Manifest;
use run_info::RunInfo;

/// Why reports could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// The stop was requested before the commit point; nothing was written.
    #[error("interrupted")]
    Interrupted,
    /// Writing the folder failed; nothing was written (or, where it says
    /// so, the folder could not be restored).
    #[error(transparent)]
    Write(CommitError),
    /// Serialising CSV failed.
    #[error("cannot format CSV: {0}")]
    Csv(#[from] ::csv::Error),
    /// Drawing a chart failed.
    #[error(transparent)]
    Chart(#[from] charts::ChartError),
}

impl From<CommitError> for ReportError {
    fn from(e: CommitError) -> Self {
        match e {
            CommitError::Interrupted => ReportError::Interrupted,
            other => ReportError::Write(other),
        }
    }
}

/// Every report file of `results`, relative to the output folder.
fn render(
    results: &[ScenarioResult],
    stop: Stop<'_>,
) -> Result<Vec<(String, Vec<u8>)>, ReportError> {
    let mut files = vec![("summary.csv".to_string(), csv::summary(results)?)];
    for result in results {
        let sub = &result.scenario;
        for (name, bytes) in csv::distributions(result)? {
            files.push((format!("{sub}/{name}.csv"), bytes));
        }
        for spec in &result.charts {
            // A chart of many variants takes a while: look at the stop
            // before each.
            if stop.requested() {
                return Err(ReportError::Interrupted);
            }
            let chart = charts::render_one(result, spec)?;
            files.push((format!("{sub}/{}.png", chart.file), chart.png));
            files.push((format!("{sub}/{}.svg", chart.file), chart.svg.into_bytes()));
        }
    }
    Ok(files)
}

/// Writes every report file for `results` and the manifest (with the
/// run's metadata `run`) into `dir`, and removes the files of the previous run that this one does not
/// rewrite, all or nothing; returns the paths written. Gives up with
/// [`ReportError::Interrupted`], leaving the folder as it was, if `stop`
/// is requested before the commit point.
pub fn write_all(
    results: &[ScenarioResult],
    run: &RunInfo,
    dir: &Path,
    stop: Stop<'_>,
) -> Result<Vec<PathBuf>, ReportError> {
    let files = render(results, stop)?;
    let names: Vec<String> = files.iter().map(|(name, _)| name.clone()).collect();
    let plan = manifest::plan(Manifest::read(dir).as_ref(), &names, |d| {
        dir.join(d).is_dir()
    });
    let mut t = Transaction::begin(dir, stop)?;
    for (name, bytes) in &files {
        t.stage(Path::new(name), bytes)?;
    }
    let manifest = Manifest {
        run: run.clone(),
        ..plan.manifest
    };
    t.stage(Path::new(manifest::FILE), &manifest.to_json())?;
    for file in &plan.stale_files {
        t.remove_file(Path::new(file));
    }
    for folder in &plan.stale_dirs {
        t.remove_empty_dir(Path::new(folder));
    }
    t.commit()?;
    Ok(names
        .iter()
        .map(String::as_str)
        .chain([manifest::FILE])
        .map(|name| dir.join(name))
        .collect())
}
