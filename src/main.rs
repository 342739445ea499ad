//! The `wordle-tree` binary: parses arguments, runs the command, maps errors to exit
//! codes (2 for usage and input errors, 1 for a refuted claim).

fn main() -> std::process::ExitCode {
    // Die quietly on a closed pipe (`wordle-tree export ... | head`) like other Unix
    // tools, instead of panicking in `println!`.
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    match wordle_tree::cli::run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::from(2)
        }
    }
}
