//! The progress bar on stderr (indicatif): shown only for runs that last
//! over about a second, only when stderr is a terminal, never with `--quiet`.
//! It also carries the interrupt flag (SIGINT, SIGTERM) to the engine.
//!
//! The bar runs over one scenario at a time (`name (k/n)`), and its ETA is
//! that scenario's remaining trials at the rate measured since it started
//! ([`eta`]): a trial of one scenario type can cost a hundred times one of
//! another, so a rate carried over from the previous scenario, or averaged
//! over the whole suite, would be wrong.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::engine::{Progress, Stop};

/// How long a run may take before the bar appears.
const SHOW_AFTER: Duration = Duration::from_millis(800);

/// The time left for `done` of `total` trials after `elapsed`, at the
/// rate measured so far; `None` before the first trial is done.
pub fn eta(done: u64, total: u64, elapsed: Duration) -> Option<Duration> {
    if done == 0 {
        return None;
    }
    let left = total.saturating_sub(done) as f64;
    Some(Duration::from_secs_f64(
        elapsed.as_secs_f64() * left / done as f64,
    ))
}

/// `eta` as the bar prints it: `1h 02m`, `3m 20s`, `12s`, `?`.
fn eta_text(eta: Option<Duration>) -> String {
    let Some(eta) = eta else {
        return "?".into();
    };
    let s = eta.as_secs_f64().round() as u64;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m {:02}s", s / 60, s % 60),
        _ => format!("{}h {:02}m", s / 3600, s / 60 % 60),
    }
}

/// A lazily shown progress bar over the trials of one scenario at a time.
pub struct ProgressBarSink<'a> {
    bar: ProgressBar,
    started: Instant,
    visible: AtomicBool,
    enabled: bool,
    stop: Stop<'a>,
    scenarios: usize,
    current: std::sync::atomic::AtomicUsize,
}

impl<'a> ProgressBarSink<'a> {
    /// A sink for a run of `scenarios` scenarios; `quiet` hides it for good.
    pub fn new(scenarios: usize, quiet: bool, stop: Stop<'a>) -> Self {
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden());
        if let Ok(style) = ProgressStyle::with_template(
            "{msg} [{bar:30}] {percent:>3}% {human_pos}/{human_len} trials, eta {measured_eta}",
        ) {
            let style = style.with_key(
                "measured_eta",
                |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let left = eta(state.pos(), state.len().unwrap_or(0), state.elapsed());
                    let _ = w.write_str(&eta_text(left));
                },
            );
            bar.set_style(style.progress_chars("=> "));
        }
        ProgressBarSink {
            bar,
            started: Instant::now(),
            visible: AtomicBool::new(false),
            enabled: !quiet && std::io::stderr().is_terminal(),
            stop,
            scenarios,
            current: std::sync::atomic::AtomicUsize::new(0),
        }
    }

    /// Starts the bar over the `trials` of the next scenario, `name`.
    pub fn set_scenario(&self, name: &str, trials: u64) {
        let k = self.current.fetch_add(1, Ordering::Relaxed) + 1;
        self.bar.set_length(trials);
        self.bar.set_position(0);
        self.bar.reset_elapsed();
        self.bar.reset_eta();
        self.bar
            .set_message(format!("{name} ({k}/{})", self.scenarios));
    }

    /// Removes the bar from the terminal.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Progress for ProgressBarSink<'_> {
    fn advance(&self, trials: u64) {
        self.bar.inc(trials);
        if self.enabled
            && !self.visible.load(Ordering::Relaxed)
            && self.started.elapsed() > SHOW_AFTER
        {
            self.visible.store(true, Ordering::Relaxed);
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }

    fn stop(&self) -> Stop<'_> {
        self.stop
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::{eta, eta_text};

    #[test]
    fn the_eta_is_the_trials_left_at_the_measured_rate() {
        // 250 of 1,000 trials in 10 s: 30 s to go.
        assert_eq!(
            eta(250, 1000, Duration::from_secs(10)),
            Some(Duration::from_secs(30))
        );
        assert_eq!(
            eta(1000, 1000, Duration::from_secs(10)),
            Some(Duration::ZERO)
        );
        assert_eq!(eta(0, 1000, Duration::from_secs(10)), None, "no rate yet");
        assert_eq!(eta(5, 3, Duration::from_secs(1)), Some(Duration::ZERO));
    }

    #[test]
    fn the_eta_reads_in_hours_minutes_and_seconds() {
        assert_eq!(eta_text(None), "?");
        assert_eq!(eta_text(Some(Duration::from_secs_f64(12.4))), "12s");
        assert_eq!(eta_text(Some(Duration::from_secs(200))), "3m 20s");
        assert_eq!(eta_text(Some(Duration::from_secs(3720))), "1h 02m");
    }
}
