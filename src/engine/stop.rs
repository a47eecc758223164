//! Cancellation as the hot loops see it: a [`Stop`] is a copyable view of a
//! flag that a signal handler (or any other thread) sets once and never
//! clears. Reading it is one relaxed atomic load, cheap enough to poll once
//! per trial, or once per encounter inside a long trial, so a run stops
//! within a fraction of a second on any scenario. Polling only decides
//! *when* a chunk gives up; a chunk that gives up is discarded whole, so
//! the figures of a run that completes are the same with or without it.

use std::sync::atomic::{AtomicBool, Ordering};

/// The flag of runs that are never cancelled.
static NEVER: AtomicBool = AtomicBool::new(false);

/// A request to stop, polled by long loops.
#[derive(Clone, Copy, Debug)]
pub struct Stop<'a> {
    flag: &'a AtomicBool,
}

impl<'a> Stop<'a> {
    /// Stops once `flag` is set; the flag must stay set once set.
    pub fn on(flag: &'a AtomicBool) -> Self {
        Stop { flag }
    }

    /// Whether the run should give up now.
    #[inline]
    pub fn requested(self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }
}

impl Stop<'static> {
    /// A stop that is never requested.
    pub fn never() -> Self {
        Stop { flag: &NEVER }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stop_sees_its_flag_and_never_is_never() {
        let flag = AtomicBool::new(false);
        let stop = Stop::on(&flag);
        assert!(!stop.requested());
        flag.store(true, Ordering::Relaxed);
        assert!(stop.requested());
        assert!(!Stop::never().requested());
    }
}
