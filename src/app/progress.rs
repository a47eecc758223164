//! The progress bar on stderr (indicatif): shown only for runs that last
//! over about a second, only when stderr is a terminal, never with `--quiet`.
//! It also carries the interrupt flag (SIGINT, SIGTERM) to the engine.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::engine::{Progress, Stop};

/// How long a run may take before the bar appears.
const SHOW_AFTER: Duration = Duration::from_millis(800);

/// A lazily shown progress bar over a known number of trials.
pub struct ProgressBarSink<'a> {
    bar: ProgressBar,
    started: Instant,
    visible: AtomicBool,
    enabled: bool,
    stop: Stop<'a>,
}

impl<'a> ProgressBarSink<'a> {
    /// A sink over `total` trials; `quiet` hides it for good.
    pub fn new(total: u64, quiet: bool, stop: Stop<'a>) -> Self {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
        if let Ok(style) = ProgressStyle::with_template(
            "{msg} [{bar:30}] {percent:>3}% {human_pos}/{human_len} trials, eta {eta}",
        ) {
            bar.set_style(style.progress_chars("=> "));
        }
        ProgressBarSink {
            bar,
            started: Instant::now(),
            visible: AtomicBool::new(false),
            enabled: !quiet && std::io::stderr().is_terminal(),
            stop,
        }
    }

    /// Names the scenario being run.
    pub fn set_scenario(&self, name: &str) {
        self.bar.set_message(name.to_string());
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
