//! Test hooks for the interruption and failure tests: with the environment
//! variable [`VAR`] set, the binary stops at named points of a run, so a
//! test can send a signal at exactly that moment instead of sleeping and
//! hoping, or fails there with an injected I/O error. Without the variable
//! every hook is a no-op.
//!
//! `WOUNDSIM_TEST_HOOK` is a comma-separated list of `ACTION@POINT`:
//!
//! * `mark@POINT`: print `woundsim-test: at POINT` on stderr and go on;
//! * `pause@POINT`: print the same line, then wait until the run's stop is
//!   requested (a first signal), at most a minute;
//! * `hold@POINT`: print the same line, then sleep a minute whatever
//!   happens (a test then sends two signals: the second exits at once);
//! * `fail@POINT`: the I/O operation at POINT fails;
//! * `slow@POINT`: sleep 100 ms there (renames on a slow network file
//!   system), for the concurrency tests;
//! * `kill@POINT`: print the same line, then die at once by SIGKILL (an
//!   out-of-memory kill, a power loss), for the recovery tests.
//!
//! Points: `started` (the signal handler installed, before the command
//! line is read), `simulating` (the simulations start), `simulated` (every
//! simulation done, before any report is drawn), `stage:N` (writing the N-th staged file, from 1), `staged`
//! (every file staged, before the commit), `rename:N` (before the N-th
//! rename of the commit, from 1), `renamed` (every change made, before the
//! commit point), `committed` (after the commit point). Inside the commit,
//! `planned` (its journal written, nothing moved yet) and `marked` (its
//! commit point recorded in the journal, the staging folder not yet
//! removed).
//! A POINT ending in `*` matches every point it begins (`rename:*`).
//! While the variable is set, the signal handler also prints
//! `woundsim-test: signal NAME` for every signal it receives.

use std::fmt::Display;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::engine::Stop;

/// The environment variable that turns the hooks on.
pub const VAR: &str = "WOUNDSIM_TEST_HOOK";

/// How long a `pause` or `hold` lasts at most.
const LONGEST: Duration = Duration::from_secs(60);

#[derive(Debug, PartialEq, Eq)]
enum Action {
    Mark,
    Pause,
    Hold,
    Fail,
    Kill,
    Slow,
}

fn hooks() -> &'static [(Action, String)] {
    static HOOKS: OnceLock<Vec<(Action, String)>> = OnceLock::new();
    HOOKS.get_or_init(|| {
        std::env::var(VAR)
            .unwrap_or_default()
            .split(',')
            .filter_map(|hook| {
                let (action, point) = hook.trim().split_once('@')?;
                let action = match action {
                    "mark" => Action::Mark,
                    "pause" => Action::Pause,
                    "hold" => Action::Hold,
                    "fail" => Action::Fail,
                    "kill" => Action::Kill,
                    "slow" => Action::Slow,
                    _ => return None,
                };
                Some((action, point.to_string()))
            })
            .collect()
    })
}

fn matching(action: Action, point: impl Display) -> bool {
    let hooks = hooks();
    if hooks.is_empty() {
        return false;
    }
    let point = point.to_string();
    hooks.iter().any(|(a, p)| {
        *a == action
            && match p.strip_suffix('*') {
                Some(prefix) => point.starts_with(prefix),
                None => *p == point,
            }
    })
}

/// Whether any hook is set.
pub fn enabled() -> bool {
    !hooks().is_empty()
}

/// Prints `woundsim-test: MESSAGE` on stderr when hooks are on.
pub fn note(message: impl Display) {
    if enabled() {
        eprintln!("woundsim-test: {message}");
    }
}

/// Marks, pauses, holds or kills at `point` when a hook asks for it.
pub fn at(point: impl Display + Copy, stop: Stop<'_>) {
    let pause = matching(Action::Pause, point);
    let hold = matching(Action::Hold, point);
    let kill = matching(Action::Kill, point);
    if pause || hold || kill || matching(Action::Mark, point) {
        note(format_args!("at {point}"));
    }
    if kill {
        die();
    }
    if matching(Action::Slow, point) {
        std::thread::sleep(Duration::from_millis(100));
    }
    if !pause && !hold {
        return;
    }
    let start = Instant::now();
    while start.elapsed() < LONGEST && !(pause && stop.requested()) {
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Dies at once, as SIGKILL does: no destructor, no handler runs.
fn die() -> ! {
    #[cfg(unix)]
    // SAFETY: `kill` and `getpid` have no memory-safety preconditions.
    unsafe {
        libc::kill(libc::getpid(), libc::SIGKILL);
    }
    std::process::abort()
}

/// An injected I/O error at `point` when a hook asks for one.
pub fn fail(point: impl Display + Copy) -> std::io::Result<()> {
    if matching(Action::Fail, point) {
        return Err(std::io::Error::other(format!(
            "injected failure at {point} ({VAR})"
        )));
    }
    Ok(())
}
