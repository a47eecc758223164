//! The `woundsim` binary: parse the command line, run, map errors to exit codes.

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

static CANCEL: AtomicBool = AtomicBool::new(false);

fn main() -> ExitCode {
    let cli = woundsim::cli::parse_or_exit();
    // Ctrl-C stops the run between batches; nothing half-written is left.
    let _ = ctrlc::set_handler(|| CANCEL.store(true, Ordering::Relaxed));
    let mut stdout = std::io::stdout().lock();
    match woundsim::app::execute(cli.command, &mut stdout, &CANCEL) {
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
