//! The `wordle-tree` binary: parses arguments, runs the command, maps errors to exit
//! codes (2 for usage and input errors, 1 for a refuted claim).

mod cli;

fn main() -> std::process::ExitCode {
    // Rust ignores SIGPIPE, so printing into a closed pipe (`| head`) would panic;
    // the default action ends the process quietly, as Unix tools do.
    #[cfg(unix)]
    // SAFETY: first thing in main, before any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    match cli::run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::from(2)
        }
    }
}
