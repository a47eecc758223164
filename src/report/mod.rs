//! Reports: `summary.csv`, one tidy CSV per distribution, PNG and SVG
//! charts, the HTML report, the run manifest, and what is printed on
//! stdout (the text table, Markdown, CSV or JSON: [`Format`]). Each file
//! format is one [`Exporter`]; everything is rendered in memory first and
//! then written all-or-nothing ([`atomic`]), together with the removal of
//! the previous run's files that this run does not rewrite ([`manifest`]).
//!
//! Layout of an output folder:
//!
//! ```text
//! DIR/index.html                       the report to read: every scenario, figure and chart
//! DIR/summary.csv                      every figure of every scenario
//! DIR/metrics.csv                      each metric's kind and unit (the catalogue)
//! DIR/<scenario>/<distribution>.csv    e.g. death-saves/rolls.csv
//! DIR/<scenario>/encounter.csv         constants per variant (combat: encounter XP, budgets)
//! DIR/<scenario>/scan.csv              a scan: every figure with its scanned values
//! DIR/<scenario>/<chart>.png|.svg      e.g. death-saves/outcomes.png
//! DIR/run.json                         the manifest: version, run metadata, files written
//! ```

#[cfg(feature = "cli")]
pub mod atomic;
pub mod charts;
pub mod csv;
pub mod glob;
pub mod html;
pub mod manifest;
pub mod run_info;
pub mod table;
pub mod view;

use std::path::Path;
#[cfg(feature = "cli")]
use std::path::PathBuf;

use crate::engine::Stop;
use crate::results::ScenarioResult;
#[cfg(feature = "cli")]
use atomic::{CommitError, Transaction};
use charts::RenderedChart;
#[cfg(feature = "cli")]
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
    #[cfg(feature = "cli")]
    #[error(transparent)]
    Write(CommitError),
    /// Serialising CSV failed.
    #[error("cannot format CSV: {0}")]
    Csv(#[from] ::csv::Error),
    /// Drawing a chart failed.
    #[error(transparent)]
    Chart(#[from] charts::ChartError),
    /// Serialising JSON failed.
    #[error("cannot format JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// The folder's `run.json` cannot be read as a manifest.
    #[cfg(feature = "cli")]
    #[error("`{file}`: {source}")]
    Manifest {
        /// The manifest's path.
        file: String,
        /// Why.
        source: crate::files::read::ReadError,
    },
}

#[cfg(feature = "cli")]
impl From<CommitError> for ReportError {
    fn from(e: CommitError) -> Self {
        match e {
            CommitError::Interrupted => ReportError::Interrupted,
            other => ReportError::Write(other),
        }
    }
}

/// A run's results as the exporters see them: the results, their charts
/// (rendered once, as PNG for the files and SVG for the files and the
/// HTML report) and the run's metadata.
pub struct Run<'a> {
    /// The results, in scenario order.
    pub results: &'a [ScenarioResult],
    /// `charts[i]`: the charts of `results[i]`, in spec order.
    pub charts: Vec<Vec<RenderedChart>>,
    /// What the application knows about the run.
    pub meta: &'a RunInfo,
}

/// One kind of report file (after hyperfine's `src/export/`): adds its
/// files, `(path relative to the output folder, bytes)`, to `files`. An
/// exporter that links to other files (the HTML report) runs after them
/// and reads their names from `files`.
pub trait Exporter {
    /// Adds this exporter's files for `run`.
    fn export(&self, run: &Run<'_>, files: &mut Vec<(String, Vec<u8>)>) -> Result<(), ReportError>;
}

/// `summary.csv`.
pub struct SummaryCsv;

impl Exporter for SummaryCsv {
    fn export(&self, run: &Run<'_>, files: &mut Vec<(String, Vec<u8>)>) -> Result<(), ReportError> {
        files.push(("summary.csv".to_string(), csv::summary(run.results)?));
        Ok(())
    }
}

/// `metrics.csv`: each metric's kind and unit, as the types' catalogues
/// declare them.
pub struct MetricsCsv;

/// The metric catalogue's file name.
pub const METRICS_FILE: &str = "metrics.csv";

impl Exporter for MetricsCsv {
    fn export(&self, run: &Run<'_>, files: &mut Vec<(String, Vec<u8>)>) -> Result<(), ReportError> {
        files.push((METRICS_FILE.to_string(), csv::metrics(run.results)?));
        Ok(())
    }
}

/// `<scenario>/<distribution>.csv`, `<scenario>/<table>.csv` for each
/// table of constants (`encounter.csv`), and `<scenario>/scan.csv` for a
/// scan.
pub struct DistributionCsvs;

impl Exporter for DistributionCsvs {
    fn export(&self, run: &Run<'_>, files: &mut Vec<(String, Vec<u8>)>) -> Result<(), ReportError> {
        for result in run.results {
            for (name, bytes) in csv::distributions(result)?
                .into_iter()
                .chain(csv::tables(result)?)
            {
                files.push((format!("{}/{name}.csv", result.scenario), bytes));
            }
            if let Some(bytes) = csv::scan(result)? {
                files.push((format!("{}/scan.csv", result.scenario), bytes));
            }
        }
        Ok(())
    }
}

/// `<scenario>/<chart>.png` and `.svg`.
pub struct ChartFiles;

impl Exporter for ChartFiles {
    fn export(&self, run: &Run<'_>, files: &mut Vec<(String, Vec<u8>)>) -> Result<(), ReportError> {
        for (result, charts) in run.results.iter().zip(&run.charts) {
            for chart in charts {
                let sub = &result.scenario;
                // No PNG where none was drawn (a browser draws its own).
                if !chart.png.is_empty() {
                    files.push((format!("{sub}/{}.png", chart.file), chart.png.clone()));
                }
                files.push((
                    format!("{sub}/{}.svg", chart.file),
                    chart.svg.clone().into_bytes(),
                ));
            }
        }
        Ok(())
    }
}

/// `index.html`, linking to the files before it.
pub struct HtmlReport;

/// The HTML report's file name.
pub const HTML_FILE: &str = "index.html";

impl Exporter for HtmlReport {
    fn export(&self, run: &Run<'_>, files: &mut Vec<(String, Vec<u8>)>) -> Result<(), ReportError> {
        let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
        let page = html::render(run.results, &run.charts, run.meta, &names);
        files.push((HTML_FILE.to_string(), page.into_bytes()));
        Ok(())
    }
}

/// Every report file of `results`, relative to the output folder, in
/// memory (the CLI writes them with [`write_all`], the web page offers
/// them for download).
pub fn render(
    results: &[ScenarioResult],
    meta: &RunInfo,
    stop: Stop<'_>,
) -> Result<Vec<(String, Vec<u8>)>, ReportError> {
    let mut charts = Vec::with_capacity(results.len());
    for result in results {
        let mut drawn = Vec::with_capacity(result.charts.len());
        for spec in &result.charts {
            // A chart of many variants takes a while: look at the stop
            // before each.
            if stop.requested() {
                return Err(ReportError::Interrupted);
            }
            drawn.push(charts::render_one(result, spec)?);
        }
        charts.push(drawn);
    }
    let run = Run {
        results,
        charts,
        meta,
    };
    let exporters: [&dyn Exporter; 5] = [
        &SummaryCsv,
        &MetricsCsv,
        &DistributionCsvs,
        &ChartFiles,
        &HtmlReport,
    ];
    let mut files = Vec::new();
    for exporter in exporters {
        exporter.export(&run, &mut files)?;
    }
    Ok(files)
}

/// Writes every report file for `results` and the manifest (with the
/// run's metadata `run`) into `dir`, and removes the files of the previous run that this one does not
/// rewrite, all or nothing; returns the paths written. Gives up with
/// [`ReportError::Interrupted`], leaving the folder as it was, if `stop`
/// is requested before the commit point.
#[cfg(feature = "cli")]
pub fn write_all(
    results: &[ScenarioResult],
    run: &RunInfo,
    dir: &Path,
    stop: Stop<'_>,
) -> Result<Vec<PathBuf>, ReportError> {
    let files = render(results, run, stop)?;
    let names: Vec<String> = files.iter().map(|(name, _)| name.clone()).collect();
    // The previous manifest is read under the folder's lock, after any
    // killed run's commit was finished or rolled back.
    let mut t = Transaction::begin(dir, stop)?;
    let previous = Manifest::read(dir).map_err(|source| ReportError::Manifest {
        file: dir.join(manifest::FILE).display().to_string(),
        source,
    })?;
    let plan = manifest::plan(previous.as_ref(), &names, |d| {
        crate::files::inside::lookup(dir, Path::new(d))
            .is_ok_and(|e| e == crate::files::inside::Entry::Dir)
    });
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

/// What `run` and `exact` print on stdout.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Format {
    /// The text table, fitted to the terminal (else 120 columns).
    #[default]
    Table,
    /// The same tables in Markdown.
    Markdown,
    /// The rows of summary.csv (filtered by --metrics and --variants).
    Csv,
    /// The same rows as a JSON array of objects.
    Json,
}

impl Format {
    /// Whether the output is for a program, so that nothing but the data
    /// may be printed on stdout.
    pub fn is_data(self) -> bool {
        matches!(self, Format::Csv | Format::Json)
    }
}

/// `results` with only the figures `view` shows (for CSV and JSON on stdout).
fn filtered(results: &[ScenarioResult], view: &view::View) -> Vec<ScenarioResult> {
    results
        .iter()
        .map(|r| {
            let mut r = r.clone();
            r.figures.retain(|f| {
                view.metrics.as_ref().is_none_or(|m| m.matches(&f.metric))
                    && view.variants.as_ref().is_none_or(|v| v.matches(&f.variant))
            });
            r
        })
        .collect()
}

/// What to print on stdout for `results` in `format`; `summary` names the
/// full `summary.csv` where the table leaves rows out, `width` is the
/// table's width.
pub fn stdout(
    results: &[ScenarioResult],
    format: Format,
    view: &view::View,
    summary: &Path,
    width: usize,
) -> Result<String, ReportError> {
    Ok(match format {
        Format::Table => results
            .iter()
            .map(|r| table::render(r, summary, view, width) + "\n")
            .collect(),
        Format::Markdown => results
            .iter()
            .map(|r| table::markdown(r, summary, view))
            .collect(),
        Format::Csv => {
            String::from_utf8_lossy(&csv::summary(&filtered(results, view))?).into_owned()
        }
        Format::Json => {
            let shown = filtered(results, view);
            let rows: Vec<csv::SummaryRow<'_>> = csv::summary_rows(&shown).collect();
            serde_json::to_string_pretty(&rows)? + "\n"
        }
    })
}
