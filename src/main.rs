//! The `woundsim` binary: parse the command line, run, map errors to exit codes.

use std::process::ExitCode;

use woundsim::app::interrupt::{self, Interrupt};

static INTERRUPT: Interrupt = Interrupt::new();

fn main() -> ExitCode {
    // SIGINT and SIGTERM stop a run and leave its output folder as it was,
    // with one line on stderr: handled from the first moment, before the
    // command line is read (without a handler they still stop it, by the
    // default action, silently).
    let _ = interrupt::install(&INTERRUPT);
    woundsim::testhook::at("started", INTERRUPT.stop());
    let cli = woundsim::cli::parse_or_exit();
    let mut stdout = std::io::stdout().lock();
    match woundsim::app::execute(cli.command, &mut stdout, &INTERRUPT) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // One line, whatever user text (a path, a name) the error repeats.
            eprintln!(
                "woundsim: {}",
                woundsim::scenario::error::one_line(&e.to_string())
            );
            ExitCode::from(e.exit_code())
        }
    }
}
