//! Filling the run metadata of `run.json` ([`RunInfo`]) and the last line
//! of a run's stdout: when it started, how long each scenario took, the
//! scenario texts' hashes, the throughput.

use std::path::Path;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use crate::report::run_info::{self, RunInfo, ScenarioRun};
use crate::results::ScenarioResult;
use crate::types::Scenario;

/// When a command started, by the wall clock (for `started`) and by a
/// monotonic clock (for durations).
#[derive(Debug)]
pub struct Clock {
    started: SystemTime,
    instant: Instant,
}

impl Clock {
    /// Starts the clock now.
    pub fn start() -> Self {
        Clock {
            started: SystemTime::now(),
            instant: Instant::now(),
        }
    }

    /// Seconds since the start.
    pub fn elapsed(&self) -> f64 {
        self.instant.elapsed().as_secs_f64()
    }

    /// The run's metadata: `timed` holds each scenario's result and
    /// seconds; `threads` is `None` for exact solutions.
    pub fn run_info(
        &self,
        scenarios: &[Scenario],
        timed: &[(ScenarioResult, f64)],
        threads: Option<usize>,
    ) -> RunInfo {
        let runs: Vec<ScenarioRun> = scenarios
            .iter()
            .zip(timed)
            .map(|(s, (r, seconds))| ScenarioRun::of(s, s.kind(), r, *seconds))
            .collect();
        let work: u64 = timed
            .iter()
            .map(|(r, _)| r.trials.saturating_mul(r.variants.len() as u64))
            .sum();
        let seconds: f64 = timed.iter().map(|(_, s)| s).sum();
        let started = self
            .started
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
        RunInfo {
            commit: run_info::COMMIT.map(str::to_string),
            started: Some(run_info::rfc3339(started)),
            wall_seconds: Some(self.elapsed()),
            threads,
            trials_per_second: run_info::rate(work, 1, seconds),
            scenarios: runs,
        }
    }
}

/// Runs `f` and times it.
pub fn timed<T, E>(f: impl FnOnce() -> Result<T, E>) -> Result<(T, f64), E> {
    let start = Instant::now();
    let value = f()?;
    Ok((value, start.elapsed().as_secs_f64()))
}

/// The last line of a run's stdout: `wrote 13 files to reports in 1.8 s
/// (1.23 M trials/s); the report: reports/index.html`; exact solutions
/// have no rate.
pub fn done_line(files: usize, dir: &Path, seconds: f64, run: &RunInfo) -> String {
    let rate = run
        .trials_per_second
        .map(|r| format!(" ({} trials/s)", run_info::si(r)))
        .unwrap_or_default();
    // Two decimals for a short run, so it does not read "0.0 s".
    let digits = if seconds < 1.0 { 2 } else { 1 };
    format!(
        "wrote {files} files to {} in {seconds:.digits$} s{rate}; the report: {}\n",
        dir.display(),
        dir.join("index.html").display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin;

    #[test]
    fn every_builtin_scenario_has_the_hash_of_its_shipped_file() {
        for s in builtin::all(crate::fixtures::catalog()).unwrap() {
            let file = s.source.trim_end_matches(" (built-in)");
            let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
            let bytes = std::fs::read(&path).unwrap();
            assert_eq!(
                run_info::sha256_hex(s.text.as_bytes()),
                run_info::sha256_hex(&bytes),
                "{}",
                s.source
            );
        }
    }

    #[test]
    fn the_done_line_has_the_time_and_the_rate() {
        let run = RunInfo {
            trials_per_second: Some(1.234e6),
            ..RunInfo::default()
        };
        assert_eq!(
            done_line(13, Path::new("reports"), 1.84, &run),
            "wrote 13 files to reports in 1.8 s (1.23 M trials/s); the report: reports/index.html\n"
        );
        assert_eq!(
            done_line(2, Path::new("x"), 0.04, &RunInfo::default()),
            "wrote 2 files to x in 0.04 s; the report: x/index.html\n"
        );
    }
}
