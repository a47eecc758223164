//! Run metadata in the manifest (`DIR/run.json`): which build wrote the
//! folder (version, source commit), when and how long it ran, on how many
//! threads, and per scenario the exact scenario text (its SHA-256), seed,
//! trials, interval level, variants, wall time and throughput.
//!
//! `woundsim check` reads it back: an identical seed, trial count and
//! scenario hash mean bit-identical figures, the level turns intervals
//! back into standard errors, and the throughput is what
//! `--max-slowdown` compares. Every field has a default, so a manifest
//! written before the metadata existed still reads (with none of it).
//!
//! The start time is the one place woundsim reads the clock for anything
//! but progress: it is metadata, never a seed.

use serde::{Deserialize, Serialize};

/// The source commit the binary was built from (`git rev-parse HEAD`,
/// with `-dirty` when the sources the binary is built from differ from
/// it), or `None` when it was not built from a git checkout (`cargo
/// install` from crates.io). Set by `build.rs`.
pub const COMMIT: Option<&str> = option_env!("WOUNDSIM_GIT_COMMIT");

/// The metadata of one run (flattened into [`super::manifest::Manifest`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RunInfo {
    /// Source commit of the build ([`COMMIT`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// When the run started, RFC 3339 in UTC (`2026-12-01T09:30:00Z`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub started: Option<String>,
    /// Seconds from the start of the command until its reports were
    /// ready to write (loading, simulating, rendering nothing yet).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wall_seconds: Option<f64>,
    /// Worker threads of the engine (absent for exact solutions, which use none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threads: Option<usize>,
    /// Trials × variants of all scenarios per second of their simulation
    /// (absent for exact solutions).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trials_per_second: Option<f64>,
    /// One entry per scenario, in run order.
    pub scenarios: Vec<ScenarioRun>,
}

/// The metadata of one scenario of a run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ScenarioRun {
    /// Scenario name (the `scenario` column of `summary.csv`).
    pub name: String,
    /// Where it came from: a path, or `scenarios/NAME.toml (built-in)`.
    pub source: String,
    /// SHA-256 (hex) of the scenario text: the file's bytes, or the
    /// embedded text of a built-in scenario.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// Scenario type (`death_saves`, `combat`, ...).
    #[serde(rename = "type")]
    pub kind: String,
    /// The `--set` and `--scan` arguments laid over the text, as written
    /// (absent when none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub layers: Vec<String>,
    /// Seed (0 for exact figures).
    pub seed: u64,
    /// Trials per variant (0 marks exact figures).
    pub trials: u64,
    /// Confidence level of every interval of the scenario.
    pub confidence: f64,
    /// Variant names in order.
    pub variants: Vec<String>,
    /// Seconds its simulation (or exact solution) took (summed over the
    /// shards of a merged run; absent with `--reproducible`).
    #[serde(skip_serializing_if = "is_zero")]
    pub wall_seconds: f64,
    /// Trials × variants per second of `wall_seconds` (absent for exact
    /// figures, and for a run too short to time).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trials_per_second: Option<f64>,
    /// The files it read besides its text (`bestiary` files), each with
    /// its SHA-256 (absent when none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub inputs: Vec<crate::model::InputFile>,
    /// Where a `--precision` run stopped (absent for a run of its
    /// scenario's trials); `trials` above is the trials it ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub precision: Option<PrecisionStop>,
}

/// How a `--precision` run of one scenario ended.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PrecisionStop {
    /// The targets, as given.
    pub targets: Vec<PrecisionTarget>,
    /// The most trials per variant it could run (`--max-trials`).
    pub max_trials: u64,
    /// Whether every target was met.
    pub reached: bool,
    /// Where a target was missed: the figure furthest from its target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub furthest: Option<MissedTarget>,
}

/// One `--precision NAME=HALF_WIDTH` target.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PrecisionTarget {
    /// The metric name or glob.
    pub metrics: String,
    /// The widest half-width accepted.
    pub half_width: f64,
}

/// A figure whose interval stayed wider than its target.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct MissedTarget {
    /// Its metric.
    pub metric: String,
    /// Its variant.
    pub variant: String,
    /// Its half-width (absent where the interval is undefined).
    pub half_width: Option<f64>,
    /// The target's half-width.
    pub target: f64,
}

impl RunInfo {
    /// Leaves out what differs between two runs of the same scenarios and
    /// seeds (`--reproducible`): start time, durations, throughput, threads.
    pub fn drop_timings(&mut self) {
        self.started = None;
        self.wall_seconds = None;
        self.threads = None;
        self.trials_per_second = None;
        for s in &mut self.scenarios {
            s.wall_seconds = 0.0;
            s.trials_per_second = None;
        }
    }

    /// The metadata of `name`, if the run recorded it.
    pub fn scenario(&self, name: &str) -> Option<&ScenarioRun> {
        self.scenarios.iter().find(|s| s.name == name)
    }
}

impl ScenarioRun {
    /// The metadata of scenario `s`'s run (of type `kind`), with result
    /// `r`, simulated in `seconds`.
    pub fn of<M>(
        s: &crate::model::Scenario<M>,
        kind: &str,
        r: &crate::results::ScenarioResult,
        seconds: f64,
    ) -> Self {
        ScenarioRun {
            name: r.scenario.clone(),
            source: s.source.clone(),
            sha256: Some(sha256_hex(s.text.as_bytes())),
            kind: kind.to_string(),
            layers: s.layers.clone(),
            seed: r.seed,
            trials: r.trials,
            confidence: r.confidence,
            variants: r.variants.clone(),
            wall_seconds: seconds,
            trials_per_second: rate(r.trials, r.variants.len(), seconds),
            inputs: s.inputs.clone(),
            precision: None,
        }
    }
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

/// `trials × variants / seconds`, or `None` for exact figures (no trials)
/// or a time too short to measure.
pub fn rate(trials: u64, variants: usize, seconds: f64) -> Option<f64> {
    let work = trials as f64 * variants as f64;
    (work > 0.0 && seconds > 0.0).then(|| work / seconds)
}

pub use crate::scenario::digest::sha256_hex;

/// Seconds since the Unix epoch as RFC 3339 in UTC, to the second
/// (`1970-01-01T00:00:00Z`); the civil date by Howard Hinnant's
/// days-from-civil inverse, valid for every `i64` day count we can meet.
pub fn rfc3339(unix_seconds: i64) -> String {
    let days = unix_seconds.div_euclid(86_400);
    let secs = unix_seconds.rem_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        secs / 3_600,
        secs % 3_600 / 60,
        secs % 60
    )
}

/// A rate for people: `1.2 M`, `850 k`, `12.3 G` (three significant
/// digits, SI prefixes).
pub fn si(x: f64) -> String {
    let (scaled, prefix) = [(1e12, " T"), (1e9, " G"), (1e6, " M"), (1e3, " k")]
        .into_iter()
        .find(|(unit, _)| x >= *unit)
        .map_or((x, ""), |(unit, p)| (x / unit, p));
    let digits = if scaled >= 100.0 {
        0
    } else if scaled >= 10.0 {
        1
    } else {
        2
    };
    format!("{scaled:.digits$}{prefix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_matches_known_instants() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        // `date -u -d @951782400`: the leap day of a year divisible by 400.
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(1_709_210_096), "2024-02-29T12:34:56Z");
        assert_eq!(rfc3339(4_102_444_799), "2099-12-31T23:59:59Z");
        assert_eq!(rfc3339(-1), "1969-12-31T23:59:59Z");
    }

    #[test]
    fn the_rate_is_trials_times_variants_per_second() {
        assert_eq!(rate(1_000, 3, 2.0), Some(1_500.0));
        assert_eq!(rate(0, 3, 2.0), None);
        assert_eq!(rate(10, 3, 0.0), None);
    }

    #[test]
    fn si_prefixes_keep_three_digits() {
        assert_eq!(si(1_234_567.0), "1.23 M");
        assert_eq!(si(850_000.0), "850 k");
        assert_eq!(si(12.0), "12.0");
        assert_eq!(si(2.5e10), "25.0 G");
    }

    #[test]
    fn a_manifest_without_metadata_reads_as_empty_metadata() {
        let old = br#"{"woundsim_version": "0.1.0", "files": ["summary.csv"], "dirs": []}"#;
        let m: super::super::manifest::Manifest = serde_json::from_slice(old).unwrap();
        assert_eq!(m.run, RunInfo::default());
        let partial = br#"{"woundsim_version": "0.1.0", "files": [],
            "scenarios": [{"name": "a", "seed": 3}]}"#;
        let m: super::super::manifest::Manifest = serde_json::from_slice(partial).unwrap();
        let a = m.run.scenario("a").unwrap();
        assert_eq!((a.seed, a.trials, a.sha256.as_deref()), (3, 0, None));
    }
}
