//! Reports: `summary.csv`, one tidy CSV per distribution, PNG and SVG
//! charts, and the text table. Everything is rendered in memory first and
//! then written all-or-nothing ([`atomic`]).
//!
//! Layout of an output folder:
//!
//! ```text
//! DIR/summary.csv                      every figure of every scenario
//! DIR/<scenario>/<distribution>.csv    e.g. death-saves/rolls.csv
//! DIR/<scenario>/<chart>.png|.svg      e.g. death-saves/outcomes.png
//! ```

pub mod atomic;
pub mod charts;
pub mod csv;
pub mod table;

use std::path::{Path, PathBuf};

use crate::results::ScenarioResult;

/// Why reports could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// Writing a file failed.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The file or folder.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// Serialising CSV failed.
    #[error("cannot format CSV: {0}")]
    Csv(#[from] ::csv::Error),
    /// Drawing a chart failed.
    #[error(transparent)]
    Chart(#[from] charts::ChartError),
}

/// Writes every report file for `results` into `dir`; returns the paths.
pub fn write_all(results: &[ScenarioResult], dir: &Path) -> Result<Vec<PathBuf>, ReportError> {
    let mut files: Vec<(PathBuf, Vec<u8>)> =
        vec![(dir.join("summary.csv"), csv::summary(results)?)];
    for result in results {
        let sub = dir.join(&result.scenario);
        for (name, bytes) in csv::distributions(result)? {
            files.push((sub.join(format!("{name}.csv")), bytes));
        }
        for chart in charts::render(result)? {
            files.push((sub.join(format!("{}.png", chart.file)), chart.png));
            files.push((
                sub.join(format!("{}.svg", chart.file)),
                chart.svg.into_bytes(),
            ));
        }
    }
    let mut staged = atomic::StagedFiles::default();
    for (path, bytes) in &files {
        staged
            .stage(path, bytes)
            .map_err(|source| ReportError::Io {
                path: path.display().to_string(),
                source,
            })?;
    }
    staged.commit().map_err(|source| ReportError::Io {
        path: dir.display().to_string(),
        source,
    })
}
