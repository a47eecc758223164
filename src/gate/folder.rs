//! Reading a woundsim output folder back for the gate: its `summary.csv`
//! (every figure), its `metrics.csv` (each metric's recorded kind) and its
//! `run.json` (seed, trials, scenario hashes, confidence levels and
//! throughput). Every problem is one message that
//! names the file, and the line for a bad row.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::CheckError;
use crate::engine::stats::Estimate;
use crate::report::csv::{METRICS_COLUMNS, SUMMARY_COLUMNS};
use crate::report::manifest::{self, Manifest};
use crate::report::run_info::RunInfo;
use crate::results::{Kind, ScenarioResult};

/// Largest `summary.csv` read, in bytes (the default suite writes about
/// 0.6 MiB).
pub const MAX_SUMMARY_BYTES: u64 = 64 << 20;

/// Largest `run.json` read, in bytes (the default suite writes about 8 KiB).
pub const MAX_MANIFEST_BYTES: u64 = 16 << 20;

/// Which side of the comparison a folder is, for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The reference run (`--baseline`).
    Baseline,
    /// The run under test (`--current`, or the run `check` makes).
    Current,
}

impl Side {
    /// `baseline` or `current`.
    pub fn name(self) -> &'static str {
        match self {
            Side::Baseline => "baseline",
            Side::Current => "current",
        }
    }
}

/// One row of `summary.csv`.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Scenario name.
    pub scenario: String,
    /// Variant name.
    pub variant: String,
    /// Metric name.
    pub metric: String,
    /// Estimate and interval (NaN where the cell is empty).
    pub estimate: Estimate,
    /// The observations behind the figure: the trials per variant, or
    /// those a conditional or per-event figure is taken over (0: an exact
    /// figure).
    pub trials: u64,
    /// Seed.
    pub seed: u64,
}

/// An output folder as the gate sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Folder {
    /// The folder, for messages.
    pub dir: PathBuf,
    /// Every figure, in file order.
    pub rows: Vec<Row>,
    /// Each metric's kind by `(scenario, metric)`, as `metrics.csv`
    /// records it (empty for a folder written before it existed).
    pub kinds: HashMap<(String, String), Kind>,
    /// The run metadata; `None` without a `run.json` (a folder written
    /// before manifests existed).
    pub run: Option<RunInfo>,
}

#[derive(Deserialize)]
struct SummaryRow {
    scenario: String,
    variant: String,
    metric: String,
    estimate: Option<f64>,
    ci_low: Option<f64>,
    ci_high: Option<f64>,
    trials: u64,
    seed: u64,
}

/// At most `max` bytes of `path`, or an error naming it.
fn read_limited(path: &Path, max: u64) -> Result<Vec<u8>, CheckError> {
    let file = path.display().to_string();
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(max + 1).read_to_end(&mut bytes))
        .map_err(|e| CheckError::Unreadable {
            file: file.clone(),
            reason: e.to_string(),
        })?;
    if bytes.len() as u64 > max {
        return Err(CheckError::TooLarge { file, max });
    }
    Ok(bytes)
}

impl Folder {
    /// Reads the output folder `dir`.
    pub fn read(dir: &Path, side: Side) -> Result<Folder, CheckError> {
        if !dir.exists() {
            return Err(CheckError::NoFolder {
                side: side.name(),
                dir: dir.display().to_string(),
            });
        }
        if !dir.is_dir() {
            return Err(CheckError::NotAFolder {
                side: side.name(),
                dir: dir.display().to_string(),
            });
        }
        let summary = dir.join("summary.csv");
        let rows = parse_summary(
            &summary.display().to_string(),
            &read_limited(&summary, MAX_SUMMARY_BYTES)?,
        )?;
        let metrics = dir.join(crate::report::METRICS_FILE);
        let kinds = if metrics.exists() {
            parse_metrics(
                &metrics.display().to_string(),
                &read_limited(&metrics, MAX_SUMMARY_BYTES)?,
            )?
        } else {
            HashMap::new()
        };
        let manifest = dir.join(manifest::FILE);
        let run = if manifest.exists() {
            let bytes = read_limited(&manifest, MAX_MANIFEST_BYTES)?;
            let m: Manifest =
                serde_json::from_slice(&bytes).map_err(|e| CheckError::BadManifest {
                    file: manifest.display().to_string(),
                    reason: e.to_string(),
                })?;
            Some(m.run)
        } else {
            None
        };
        Ok(Folder {
            dir: dir.to_path_buf(),
            rows,
            kinds,
            run,
        })
    }

    /// The recorded kind of `metric` of `scenario`, if the folder records it.
    pub fn kind_of(&self, scenario: &str, metric: &str) -> Option<Kind> {
        self.kinds
            .get(&(scenario.to_string(), metric.to_string()))
            .copied()
    }

    /// The folder a run of `results` with metadata `run` would write, in
    /// memory (for tests that compare many runs without touching disk).
    pub fn from_results(dir: &str, results: &[ScenarioResult], run: RunInfo) -> Folder {
        let rows = results
            .iter()
            .flat_map(|r| {
                r.figures.iter().map(|f| Row {
                    scenario: r.scenario.clone(),
                    variant: f.variant.clone(),
                    metric: f.metric.clone(),
                    estimate: f.estimate,
                    trials: f.trials.unwrap_or(r.trials),
                    seed: r.seed,
                })
            })
            .collect();
        let kinds = results
            .iter()
            .flat_map(|r| {
                r.figures
                    .iter()
                    .map(|f| ((r.scenario.clone(), f.metric.clone()), f.kind))
            })
            .collect();
        Folder {
            dir: PathBuf::from(dir),
            rows,
            kinds,
            run: Some(run),
        }
    }
}

/// The rows of a `summary.csv` (`file` names it in errors).
pub fn parse_summary(file: &str, bytes: &[u8]) -> Result<Vec<Row>, CheckError> {
    let mut reader = csv::Reader::from_reader(bytes);
    let bad = |line: u64, e: csv::Error| CheckError::BadRow {
        file: file.to_string(),
        line,
        reason: match e.kind() {
            csv::ErrorKind::Deserialize { err, .. } => err.to_string(),
            _ => e.to_string(),
        },
    };
    let headers = reader.headers().map_err(|e| bad(1, e))?.clone();
    if headers.iter().ne(SUMMARY_COLUMNS) {
        return Err(CheckError::BadColumns {
            file: file.to_string(),
            what: "summary",
            // Repeated from the file: escaped, so the message stays one line.
            found: headers
                .iter()
                .collect::<Vec<_>>()
                .join(",")
                .escape_debug()
                .to_string(),
            expected: SUMMARY_COLUMNS.join(","),
        });
    }
    let mut rows = Vec::new();
    let mut seen: HashMap<(String, String, String), u64> = HashMap::new();
    for record in reader.records() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line());
            bad(line, e)
        })?;
        let line = record.position().map_or(0, |p| p.line());
        let r: SummaryRow = record
            .deserialize(Some(&headers))
            .map_err(|e| bad(line, e))?;
        let key = (r.scenario.clone(), r.variant.clone(), r.metric.clone());
        if let Some(first) = seen.insert(key, line) {
            return Err(CheckError::BadRow {
                file: file.to_string(),
                line,
                reason: format!(
                    "`{}` of variant `{}` of scenario `{}` is listed twice (first on line {first})",
                    r.metric.escape_debug(),
                    r.variant.escape_debug(),
                    r.scenario.escape_debug()
                ),
            });
        }
        let nan = |x: Option<f64>| x.unwrap_or(f64::NAN);
        rows.push(Row {
            scenario: r.scenario,
            variant: r.variant,
            metric: r.metric,
            estimate: Estimate {
                value: nan(r.estimate),
                low: nan(r.ci_low),
                high: nan(r.ci_high),
            },
            trials: r.trials,
            seed: r.seed,
        });
    }
    Ok(rows)
}

#[derive(Deserialize)]
struct MetricsRow {
    scenario: String,
    metric: String,
    kind: String,
}

/// The kinds a `metrics.csv` records (`file` names it in errors).
pub fn parse_metrics(
    file: &str,
    bytes: &[u8],
) -> Result<HashMap<(String, String), Kind>, CheckError> {
    let mut reader = csv::Reader::from_reader(bytes);
    let bad = |line: u64, reason: String| CheckError::BadRow {
        file: file.to_string(),
        line,
        reason,
    };
    let headers = reader.headers().map_err(|e| bad(1, e.to_string()))?.clone();
    if headers.iter().ne(METRICS_COLUMNS) {
        return Err(CheckError::BadColumns {
            file: file.to_string(),
            what: "metric catalogue",
            // Repeated from the file: escaped, so the message stays one line.
            found: headers
                .iter()
                .collect::<Vec<_>>()
                .join(",")
                .escape_debug()
                .to_string(),
            expected: METRICS_COLUMNS.join(","),
        });
    }
    let mut kinds = HashMap::new();
    for record in reader.records() {
        let record =
            record.map_err(|e| bad(e.position().map_or(0, |p| p.line()), e.to_string()))?;
        let line = record.position().map_or(0, |p| p.line());
        let r: MetricsRow = record
            .deserialize(Some(&headers))
            .map_err(|e| bad(line, e.to_string()))?;
        let Some(kind) = Kind::named(&r.kind) else {
            let known: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
            return Err(bad(
                line,
                format!(
                    "unknown kind `{}`: one of {}",
                    r.kind.escape_debug(),
                    known.join(", ")
                ),
            ));
        };
        if kinds.insert((r.scenario, r.metric), kind).is_some() {
            return Err(bad(line, "a metric listed twice for its scenario".into()));
        }
    }
    Ok(kinds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recorded_kinds_read_back_and_an_unknown_kind_is_named() {
        let text =
            "scenario,metric,kind,unit\ns,p_x,proportion,share\ns,p_x_diff,difference,share\n";
        let kinds = parse_metrics("m", text.as_bytes()).unwrap();
        assert_eq!(
            kinds.get(&("s".into(), "p_x_diff".into())),
            Some(&Kind::Difference)
        );
        let text = "scenario,metric,kind,unit\ns,p_x,likelihood,share\n";
        let msg = parse_metrics("d/metrics.csv", text.as_bytes())
            .unwrap_err()
            .to_string();
        assert!(
            msg.contains("line 2") && msg.contains("unknown kind `likelihood`"),
            "{msg}"
        );
    }

    const HEADER: &str = "scenario,variant,metric,estimate,ci_low,ci_high,trials,seed\n";

    /// Found by the `baseline` fuzz target: a column name with a control
    /// character was repeated raw; whatever a message repeats from the
    /// files is escaped, so it stays one line.
    #[test]
    fn what_a_message_repeats_from_a_baseline_is_escaped() {
        let one_line = |e: CheckError| {
            let msg = e.to_string();
            assert!(!msg.chars().any(char::is_control), "{msg:?}");
            msg
        };
        let msg = one_line(parse_summary("s.csv", b"scenario,variant,\x01\n").unwrap_err());
        assert!(msg.contains("`scenario,variant,\\u{1}`"), "{msg}");
        one_line(parse_metrics("m.csv", b"scenario,\x1b[31m\n").unwrap_err());
        let text = "scenario,metric,kind,unit\ns,p_x,like\x07ly,share\n";
        one_line(parse_metrics("m.csv", text.as_bytes()).unwrap_err());
        let row = "s\x0b,v,p,0.5,0.4,0.6,10,1\n";
        let twice = format!("{HEADER}{row}{row}");
        let msg = one_line(parse_summary("s.csv", twice.as_bytes()).unwrap_err());
        assert!(msg.contains("listed twice"), "{msg}");
    }

    #[test]
    fn a_summary_reads_back_with_empty_cells_as_undefined() {
        let text = format!("{HEADER}s,a,p_x,0.5,0.25,0.75,10,3\ns,a,mean_y,2.0,,,1,3\n");
        let rows = parse_summary("f", text.as_bytes()).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].estimate.high, 0.75);
        assert!(rows[1].estimate.low.is_nan());
        assert_eq!((rows[1].trials, rows[1].seed), (1, 3));
    }

    #[test]
    fn a_bad_row_names_the_file_and_line() {
        let text = format!("{HEADER}s,a,p_x,0.5,0.25,0.75,10,3\ns,a,p_y,half,0,1,10,3\n");
        let e = parse_summary("d/summary.csv", text.as_bytes()).unwrap_err();
        let msg = e.to_string();
        assert!(msg.starts_with("`d/summary.csv` line 3: "), "{msg}");
        let text = format!("{HEADER}s,a,p_x,0.5,0.25,0.75,10,3\ns,a,p_x,0.5,0.25,0.75,10,3\n");
        let msg = parse_summary("f", text.as_bytes()).unwrap_err().to_string();
        assert!(
            msg.contains("line 3") && msg.contains("first on line 2"),
            "{msg}"
        );
        let msg = parse_summary("f", b"a,b\n1,2\n").unwrap_err().to_string();
        assert!(msg.contains("its columns are `a,b`"), "{msg}");
    }
}
