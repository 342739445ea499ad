//! The `wordle-tree` binary: parses arguments, runs the command, maps errors to exit
//! codes (2 for usage and input errors, 1 for a refuted claim).

fn main() -> std::process::ExitCode {
    match wordle_tree::cli::run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::from(2)
        }
    }
}
