//! Reading a woundsim output folder back for the gate: its `summary.csv`
//! (every figure), its `metrics.csv` (each metric's recorded kind) and its
//! `run.json` (seed, trials, scenario hashes, confidence levels and
//! throughput). Every problem is one message that
//! names the file, and the line for a bad row. Each file is opened
//! without blocking and read with a cap ([`crate::files::read`]): a FIFO
//! or a device in a baseline is refused at once.

use std::collections::HashMap;
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
pub const MAX_MANIFEST_BYTES: u64 = manifest::MAX_BYTES;

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

/// At most `max` bytes of the regular file `path`, or an error naming it.
fn read_limited(path: &Path, max: u64) -> Result<Vec<u8>, CheckError> {
    use crate::files::read::{ReadError, read_regular};
    let file = path.display().to_string();
    read_regular(path, max).map_err(|e| match e {
        ReadError::TooLarge { max } => CheckError::TooLarge { file, max },
        other => CheckError::Unreadable {
            file,
            reason: other.to_string(),
        },
    })
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
        let metrics = dir.join(crate::report::METRICS_FILE);
        let kinds = if metrics.exists() {
            parse_metrics(
                &metrics.display().to_string(),
                &read_limited(&metrics, MAX_SUMMARY_BYTES)?,
            )?
        } else {
            HashMap::new()
        };
        let summary = dir.join("summary.csv");
        let rows = parse_summary(
            &summary.display().to_string(),
            &read_limited(&summary, MAX_SUMMARY_BYTES)?,
            &kinds,
        )?;
        let manifest = dir.join(manifest::FILE);
        let run = if manifest.exists() {
            let bytes = read_limited(&manifest, MAX_MANIFEST_BYTES)?;
            let m: Manifest =
                serde_json::from_slice(&bytes).map_err(|e| CheckError::BadManifest {
                    file: manifest.display().to_string(),
                    reason: e.to_string(),
                })?;
            check_levels(&manifest.display().to_string(), &m.run)?;
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

/// Every scenario's confidence level in a `run.json` is one a run
/// accepts: at another the intervals say nothing a test could read (at
/// 1e-300 they are points) or are infinite.
fn check_levels(file: &str, run: &RunInfo) -> Result<(), CheckError> {
    use crate::engine::stats::{accepted_levels, level_accepted, shown_level};
    match run.scenarios.iter().find(|s| !level_accepted(s.confidence)) {
        Some(s) => Err(CheckError::BadManifest {
            file: file.to_string(),
            reason: format!(
                "scenario `{}`: field `confidence` is {}, not a level {} as a run writes",
                s.name,
                shown_level(s.confidence),
                accepted_levels()
            ),
        }),
        None => Ok(()),
    }
}

/// What is wrong with a figure of `summary.csv` whose kind is `kind`
/// (`None`: not recorded, then by its name), if anything: a number a
/// woundsim report never writes — not finite (an undefined figure is an
/// empty cell), an interval inverted or not around its estimate, an exact
/// figure (trials 0) with an interval, a proportion or a mean share
/// outside `[0, 1]`.
fn bad_figure(r: &SummaryRow, kind: Option<Kind>) -> Option<String> {
    let cells = [
        ("estimate", r.estimate),
        ("ci_low", r.ci_low),
        ("ci_high", r.ci_high),
    ];
    if let Some((name, x)) = cells
        .iter()
        .find_map(|(name, x)| x.filter(|x| !x.is_finite()).map(|x| (name, x)))
    {
        return Some(format!(
            "`{name}` is `{x}`: a woundsim report writes only finite numbers (an empty cell for an undefined one)"
        ));
    }
    if let (Some(low), Some(high)) = (r.ci_low, r.ci_high) {
        if low > high {
            return Some(format!(
                "the interval is inverted: `ci_low` {low} is above `ci_high` {high}"
            ));
        }
        if let Some(x) = r.estimate {
            if x < low || x > high {
                return Some(format!(
                    "the estimate {x} lies outside its interval [{low}, {high}]"
                ));
            }
            if r.trials == 0 && (low != x || high != x) {
                return Some(format!(
                    "an exact figure (trials 0) has the interval [{low}, {high}] around {x}: an exact figure's interval is its value"
                ));
            }
        }
    }
    let share = match kind {
        Some(k) => matches!(k, Kind::Proportion | Kind::MeanShare),
        None => r.metric.starts_with("p_") && !r.metric.ends_with("_diff"),
    };
    let outside = cells
        .iter()
        .find_map(|(name, x)| x.filter(|x| !(0.0..=1.0).contains(x)).map(|x| (name, x)));
    match outside {
        Some((name, x)) if share => Some(format!(
            "`{name}` {x} of a share (`{}`, a {}) is outside [0, 1]",
            r.metric,
            kind.unwrap_or(Kind::Proportion).name()
        )),
        _ => None,
    }
}

/// An error unless a file's header row is `expected` (`what` names the
/// file's role in the message; the columns found are escaped, so the
/// message stays one line).
fn columns(
    file: &str,
    what: &'static str,
    headers: &csv::StringRecord,
    expected: &[&str],
) -> Result<(), CheckError> {
    if headers.iter().eq(expected.iter().copied()) {
        return Ok(());
    }
    Err(CheckError::BadColumns {
        file: file.to_string(),
        what,
        found: headers
            .iter()
            .collect::<Vec<_>>()
            .join(",")
            .escape_debug()
            .to_string(),
        expected: expected.join(","),
    })
}

/// The rows of a `summary.csv` (`file` names it in errors), each figure
/// checked against its kind in `kinds` (by `(scenario, metric)`; by its
/// name where not recorded).
pub fn parse_summary(
    file: &str,
    bytes: &[u8],
    kinds: &HashMap<(String, String), Kind>,
) -> Result<Vec<Row>, CheckError> {
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
    columns(file, "summary", &headers, &SUMMARY_COLUMNS)?;
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
        let kind = kinds.get(&(r.scenario.clone(), r.metric.clone())).copied();
        if let Some(reason) = bad_figure(&r, kind) {
            return Err(CheckError::BadRow {
                file: file.to_string(),
                line,
                reason: format!(
                    "`{}` of variant `{}` of scenario `{}`: {reason}",
                    // Repeated from the file: escaped, so the message
                    // stays one line (found by the baseline fuzz target).
                    r.metric.escape_debug(),
                    r.variant.escape_debug(),
                    r.scenario.escape_debug()
                ),
            });
        }
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
    columns(file, "metric catalogue", &headers, &METRICS_COLUMNS)?;
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
        let msg = one_line(
            parse_summary("s.csv", b"scenario,variant,\x01\n", &HashMap::new()).unwrap_err(),
        );
        assert!(msg.contains("`scenario,variant,\\u{1}`"), "{msg}");
        one_line(parse_metrics("m.csv", b"scenario,\x1b[31m\n").unwrap_err());
        let text = "scenario,metric,kind,unit\ns,p_x,like\x07ly,share\n";
        one_line(parse_metrics("m.csv", text.as_bytes()).unwrap_err());
        let outside = format!("{HEADER}\x0fs,v,p_x,5.5,0.1,0.2,10,1\n");
        let msg =
            one_line(parse_summary("s.csv", outside.as_bytes(), &HashMap::new()).unwrap_err());
        assert!(msg.contains("lies outside its interval"), "{msg}");
        let row = "s\x0b,v,p,0.5,0.4,0.6,10,1\n";
        let twice = format!("{HEADER}{row}{row}");
        let msg = one_line(parse_summary("s.csv", twice.as_bytes(), &HashMap::new()).unwrap_err());
        assert!(msg.contains("listed twice"), "{msg}");
    }

    #[test]
    fn a_summary_reads_back_with_empty_cells_as_undefined() {
        let text = format!("{HEADER}s,a,p_x,0.5,0.25,0.75,10,3\ns,a,mean_y,2.0,,,1,3\n");
        let rows = parse_summary("f", text.as_bytes(), &HashMap::new()).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].estimate.high, 0.75);
        assert!(rows[1].estimate.low.is_nan());
        assert_eq!((rows[1].trials, rows[1].seed), (1, 3));
    }

    #[test]
    fn a_bad_row_names_the_file_and_line() {
        let text = format!("{HEADER}s,a,p_x,0.5,0.25,0.75,10,3\ns,a,p_y,half,0,1,10,3\n");
        let e = parse_summary("d/summary.csv", text.as_bytes(), &HashMap::new()).unwrap_err();
        let msg = e.to_string();
        assert!(msg.starts_with("`d/summary.csv` line 3: "), "{msg}");
        let text = format!("{HEADER}s,a,p_x,0.5,0.25,0.75,10,3\ns,a,p_x,0.5,0.25,0.75,10,3\n");
        let msg = parse_summary("f", text.as_bytes(), &HashMap::new())
            .unwrap_err()
            .to_string();
        assert!(
            msg.contains("line 3") && msg.contains("first on line 2"),
            "{msg}"
        );
        let msg = parse_summary("f", b"a,b\n1,2\n", &HashMap::new())
            .unwrap_err()
            .to_string();
        assert!(msg.contains("its columns are `a,b`"), "{msg}");
    }

    /// The reason a one-row summary is refused, naming line 2.
    fn refused(row: &str, kinds: &HashMap<(String, String), Kind>) -> String {
        let text = format!("{HEADER}s,a,p_ok,0.5,0.25,0.75,10,3\n{row}\n");
        let msg = parse_summary("b/summary.csv", text.as_bytes(), kinds)
            .map(|rows| panic!("accepted: {rows:?}"))
            .unwrap_err()
            .to_string();
        assert!(msg.starts_with("`b/summary.csv` line 3: "), "{msg}");
        msg
    }

    #[test]
    fn numbers_no_woundsim_report_writes_are_bad_input_naming_the_line() {
        let none = HashMap::new();
        for (row, says) in [
            ("s,a,mean_x,NaN,0.1,0.2,10,3", "`estimate` is `NaN`"),
            ("s,a,mean_x,0.1,-inf,inf,10,3", "`ci_low` is `-inf`"),
            ("s,a,mean_x,0.1,0.1,inf,10,3", "`ci_high` is `inf`"),
            ("s,a,mean_x,0.3,0.4,0.2,10,3", "the interval is inverted"),
            ("s,a,mean_x,0.5,0.1,0.2,10,3", "lies outside its interval"),
            ("s,a,p_x,1.5,1.25,1.75,10,3", "`estimate` 1.5 of a share"),
            ("s,a,p_x,0.9,0.8,1.01,10,3", "`ci_high` 1.01 of a share"),
            ("s,a,mean_x,0.5,0.4,0.6,0,0", "an exact figure (trials 0)"),
        ] {
            let msg = refused(row, &none);
            assert!(msg.contains(says), "{row}: {msg}");
            assert!(msg.contains("of variant `a` of scenario `s`"), "{msg}");
        }
        // A mean share by its recorded kind; a mean, a ratio, a difference
        // of shares may leave [0, 1].
        let kind = |k: Kind| HashMap::from([(("s".to_string(), "share_x".to_string()), k)]);
        let row = "s,a,share_x,0.001,-0.0002,0.0022,10,3";
        let msg = refused(row, &kind(Kind::MeanShare));
        assert!(msg.contains("a mean_share) is outside [0, 1]"), "{msg}");
        for k in [Kind::Mean, Kind::Ratio, Kind::Difference] {
            let text = format!("{HEADER}{row}\n");
            assert!(
                parse_summary("f", text.as_bytes(), &kind(k)).is_ok(),
                "{k:?}"
            );
        }
        // An undefined figure is an empty cell; an exact one a point.
        let text = format!("{HEADER}s,a,p_x,,0,1,0,0\ns,a,p_y,0.25,0.25,0.25,0,0\n");
        assert!(parse_summary("f", text.as_bytes(), &none).is_ok());
    }
}
