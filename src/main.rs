//! The `wordle-tree` binary: parses arguments, runs the command, maps errors to exit
//! codes (2 for usage, input and I/O errors, 1 for a refuted claim, 130 when
//! interrupted by SIGINT or SIGTERM).

mod cli;

fn main() -> std::process::ExitCode {
    // Rust ignores SIGPIPE, so printing into a closed pipe (`| head`) would panic;
    // the default action ends the process quietly, as Unix tools do.
    #[cfg(unix)]
    // SAFETY: first thing in main, before any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    cli::main()
}
