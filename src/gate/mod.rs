//! The statistical regression gate behind `woundsim check`: compare every
//! figure of a run with the same figure of a baseline output folder and
//! say which moved beyond noise.
//!
//! For each (scenario, variant, metric) in both folders:
//!
//! * **identical** — the same seed, trial count and scenario text (its
//!   SHA-256 in `run.json`) give bit-identical figures (the engine's
//!   contract), so any difference is a change: it moved, with p = 0;
//! * **exact** — two exact figures (trials = 0) are compared exactly too;
//! * otherwise a two-sample test from each figure's own interval and trial
//!   count ([`stats`]), chosen by the figure's kind as the run recorded it
//!   in `metrics.csv` (by the naming convention only for a folder written
//!   before that file existed): the two-proportion z-test for proportions
//!   (Wilson intervals), Welch's z for counts, means, ratios and paired
//!   differences (a test of the difference of the two runs' paired
//!   differences), a one-sample test against an exact figure. The
//!   p-values of all tests are corrected together by Holm–Bonferroni, and
//!   a figure moved when its adjusted p-value is at most `alpha`;
//! * quantiles of integer outcomes have no standard error: they are
//!   compared only when identical or exact, and otherwise reported
//!   untested (their distribution's means and shares are tested).
//!
//! A moved figure whose difference is below `--min-effect` (absolute, in
//! the metric's units) is reported as such and does not fail the gate —
//! criterion's noise threshold. Verdicts are "moved up" and "moved down",
//! not "improved" and "regressed": whether a higher death rate is better
//! depends on what the designer wants.

pub mod compare;
pub mod folder;
pub mod junit;
pub mod rule;
pub mod stats;
pub mod table;
pub mod untested;

pub use compare::{Comparison, Options, compare};
pub use folder::{Folder, Side};

/// Why the gate cannot compare (exit code 2).
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// The folder does not exist.
    #[error("{side} folder `{dir}` does not exist")]
    NoFolder {
        /// `baseline` or `current`.
        side: &'static str,
        /// The folder.
        dir: String,
    },
    /// The path is not a folder.
    #[error("{side} folder `{dir}` is not a directory")]
    NotAFolder {
        /// `baseline` or `current`.
        side: &'static str,
        /// The path.
        dir: String,
    },
    /// A file cannot be read.
    #[error("cannot read `{file}`: {reason}")]
    Unreadable {
        /// The file.
        file: String,
        /// The system's reason.
        reason: String,
    },
    /// A file is over its size limit.
    #[error("`{file}` is larger than {max} bytes, more than a woundsim report has")]
    TooLarge {
        /// The file.
        file: String,
        /// The limit in bytes.
        max: u64,
    },
    /// `summary.csv` or `metrics.csv` does not have woundsim's columns.
    #[error("`{file}` is not a woundsim {what}: its columns are `{found}`, expected `{expected}`")]
    BadColumns {
        /// The file.
        file: String,
        /// What it should be: `summary`, `metric catalogue`.
        what: &'static str,
        /// The header found.
        found: String,
        /// The header expected.
        expected: String,
    },
    /// A row of `summary.csv` is malformed.
    #[error("`{file}` line {line}: {reason}")]
    BadRow {
        /// The file.
        file: String,
        /// The line (1-based).
        line: u64,
        /// What is wrong.
        reason: String,
    },
    /// `run.json` is not a woundsim manifest.
    #[error("`{file}` is not a woundsim run manifest: {reason}")]
    BadManifest {
        /// The file.
        file: String,
        /// The JSON error.
        reason: String,
    },
    /// Scenarios, variants or metrics are only on one side (and
    /// `--allow-missing` was not given).
    #[error("{0}")]
    Mismatch(String),
    /// No figure in common could be compared: the gate would pass on
    /// nothing.
    #[error("{0}")]
    NothingTested(String),
}
