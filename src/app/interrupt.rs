//! SIGINT (Ctrl-C) and SIGTERM. The first signal asks the run to stop: it
//! sets the flag behind the engine's and the commit's [`Stop`], the run
//! gives up within about a second, rolls back whatever it staged and exits
//! with 128 + the signal's number (130, 143) and one line on stderr. A
//! second signal exits at once, from the signal thread, after rolling back
//! every open output transaction ([`atomic::abandon_all`]).
//!
//! Signals are read on a thread of their own (signal-hook's iterator on
//! Unix, ctrlc elsewhere, where only Ctrl-C is seen), so the handling code
//! is ordinary code, free to take locks and remove files.

use std::io;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};

use crate::engine::Stop;
use crate::report::atomic;
use crate::testhook;

/// A signal that stops a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    /// SIGINT: Ctrl-C.
    Interrupt = 2,
    /// SIGTERM: `kill`, a service manager, a job scheduler.
    Terminate = 15,
}

impl Signal {
    /// The signal's usual name.
    pub fn name(self) -> &'static str {
        match self {
            Signal::Interrupt => "SIGINT",
            Signal::Terminate => "SIGTERM",
        }
    }

    /// The exit code of a run it stopped: 128 + the signal's number.
    pub fn exit_code(self) -> u8 {
        128 + self as u8
    }

    fn from_number(number: u8) -> Option<Self> {
        [Signal::Interrupt, Signal::Terminate]
            .into_iter()
            .find(|s| *s as u8 == number)
    }
}

/// Whether, and by which signal, the process was asked to stop.
#[derive(Debug, Default)]
pub struct Interrupt {
    flag: AtomicBool,
    /// The first signal's number, 0 before any.
    first: AtomicU8,
}

impl Interrupt {
    /// Not interrupted.
    pub const fn new() -> Self {
        Interrupt {
            flag: AtomicBool::new(false),
            first: AtomicU8::new(0),
        }
    }

    /// The stop the run polls.
    pub fn stop(&self) -> Stop<'_> {
        Stop::on(&self.flag)
    }

    /// The signal that asked to stop (SIGINT if none did).
    pub fn signal(&self) -> Signal {
        Signal::from_number(self.first.load(Ordering::Acquire)).unwrap_or(Signal::Interrupt)
    }

    /// Records `signal`; whether it is the first.
    pub fn receive(&self, signal: Signal) -> bool {
        let first = self
            .first
            .compare_exchange(0, signal as u8, Ordering::AcqRel, Ordering::Acquire)
            .is_ok();
        self.flag.store(true, Ordering::Release);
        first
    }
}

/// What the signal thread does with each signal.
fn on_signal(interrupt: &Interrupt, signal: Signal) {
    testhook::note(format_args!("signal {}", signal.name()));
    if !interrupt.receive(signal) {
        let outcome = if atomic::abandon_all() {
            "the reports were already written"
        } else {
            "no report was written"
        };
        eprintln!(
            "woundsim: {} again: stopped at once, {outcome}",
            signal.name()
        );
        std::process::exit(i32::from(signal.exit_code()));
    }
}

/// Handles SIGINT and SIGTERM from now on, on behalf of `interrupt`.
pub fn install(interrupt: &'static Interrupt) -> io::Result<()> {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGINT, SIGTERM};
        let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])?;
        std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                for number in signals.forever() {
                    if let Some(signal) = u8::try_from(number).ok().and_then(Signal::from_number) {
                        on_signal(interrupt, signal);
                    }
                }
            })?;
    }
    #[cfg(windows)]
    ctrlc::set_handler(move || on_signal(interrupt, Signal::Interrupt))
        .map_err(io::Error::other)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_are_128_plus_the_signal_number() {
        assert_eq!(Signal::Interrupt.exit_code(), 130);
        assert_eq!(Signal::Terminate.exit_code(), 143);
    }

    #[test]
    fn the_first_signal_is_remembered_and_sets_the_stop() {
        let interrupt = Interrupt::new();
        assert!(!interrupt.stop().requested());
        assert!(interrupt.receive(Signal::Terminate));
        assert!(interrupt.stop().requested());
        assert!(!interrupt.receive(Signal::Interrupt));
        assert_eq!(interrupt.signal(), Signal::Terminate);
    }
}
