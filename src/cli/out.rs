//! Standard output, the one way commands print: `outln!`/`out!` write through
//! [`write`], which turns a failed write (a full disk, `> /dev/full`) into an error
//! naming standard output (exit 2) instead of the panic `println!` gives. A closed
//! pipe (`| head`) still ends the process quietly: SIGPIPE keeps its default action
//! (see main.rs), so that write never returns. Warnings go through `errln!`, which
//! never panics either.

use std::io::Write;

/// Prints a line on standard output; `?`s a write error out of the calling function.
macro_rules! outln {
    () => {
        $crate::cli::out::write(format_args!("\n"))?
    };
    ($($arg:tt)*) => {
        $crate::cli::out::write(format_args!("{}\n", format_args!($($arg)*)))?
    };
}

/// Prints on standard output without a line break (see [`outln!`]).
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::out::write(format_args!($($arg)*))?
    };
}

/// Prints a line on standard error (warnings); a failed write is ignored, as there is
/// nowhere left to report it.
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// Writes to standard output (line-buffered: a whole line is written at once).
pub fn write(args: std::fmt::Arguments) -> anyhow::Result<()> {
    std::io::stdout()
        .lock()
        .write_fmt(args)
        .map_err(|e| anyhow::anyhow!("cannot write to standard output: {e}"))
}

/// Flushes what a command printed without a final line break.
pub fn flush() -> anyhow::Result<()> {
    std::io::stdout()
        .flush()
        .map_err(|e| anyhow::anyhow!("cannot write to standard output: {e}"))
}

/// Set when the command's output is JSON: [`crate::cli::main`] then prints an error as
/// `{"error": ...}` on standard output (same exit code) instead of text on stderr.
pub static JSON_ERRORS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// What a command prints: text for people, JSON for programs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// The one output convention of the player commands: `--format text|json`, with
/// `--json` kept as its alias.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct FormatArgs {
    /// Output: text for people, or json for programs (errors then come as
    /// {"error": ...} on stdout, with the same exit codes).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Same as --format json.
    #[arg(long)]
    json: bool,
}

impl FormatArgs {
    pub fn is_json(&self) -> bool {
        self.json || self.format == Format::Json
    }
}

/// True when the raw arguments ask for JSON output (`--json`, `--format json`,
/// `--format=json`): for errors found before the arguments parse.
pub fn args_ask_json(args: &[std::ffi::OsString]) -> bool {
    let a: Vec<String> = args
        .iter()
        .map(|s| s.to_string_lossy().into_owned())
        .collect();
    a.iter().enumerate().any(|(i, s)| {
        s == "--json"
            || s == "--format=json"
            || (s == "--format" && a.get(i + 1).is_some_and(|n| n == "json"))
    })
}

/// The first `shown` of `items` joined by `sep`, then ` ... and N more` for the rest.
pub(super) fn listed(items: &[String], shown: usize, sep: &str) -> String {
    let mut s = items[..items.len().min(shown)].join(sep);
    if items.len() > shown {
        s += &format!(" ... and {} more", items.len() - shown);
    }
    s
}
