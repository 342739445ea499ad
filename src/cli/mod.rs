//! Command-line interface: clap types, and their conversion to library calls in one
//! place. Every command prints plain text on stdout; progress and errors go to stderr.
//! Errors are `anyhow` here only; the library's are typed.
//!
//! Over 800 lines because the clap command tree ([`Command`], every command and
//! option with its help) and the dispatch are kept in one place, where a reader sees
//! the whole interface: `run` checks the global options (SIMD path, `--threads`, the
//! lists) and `dispatch` hands each command to its submodule (`rank`, `next`,
//! `review`, `openers`, ...), where its work is.

#[macro_use]
pub mod out;
mod bench;
mod best_pair;
mod bounds;
mod metrics;
mod next;
mod openers;
mod pack;
mod pair;
mod rank;
mod review;
#[cfg(feature = "serve")]
mod serve;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand, ValueEnum};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use wordle_tree::analysis::{self, Metric};
use wordle_tree::game::echo::echo;
use wordle_tree::game::table::{FeedbackTable, Simd};
use wordle_tree::game::word::Word;
use wordle_tree::game::{mode_name, AnswerId, Game, GuessId, ListSource};
use wordle_tree::search::{Config, SolveError, Solver};
use wordle_tree::store::opener_table::{self, OpenerTable};
use wordle_tree::store::results::write_atomic;
use wordle_tree::tree::{file, text};
use wordle_tree::tree::{histogram_text, Tree};

mod check;
mod check_units;
mod jobs;
mod min_over;
mod proof;
#[cfg(test)]
mod tests;

#[derive(Parser, Debug)]
#[command(
    name = "wordle-tree",
    version,
    about = "Provably optimal Wordle strategies"
)]
pub struct Cli {
    /// Shipped word lists: wordle (default; the original 2021 Wordle), nyt2023 (the
    /// NYT's answers since 2023: today's NYT puzzle), nyt (the NYT's 2022 list),
    /// wordle-all, nyt-all (every allowed word an answer) or sowpods.
    #[arg(long, global = true, default_value = "wordle")]
    list: String,
    /// Answer list file (with --guesses; overrides --list).
    #[arg(long, global = true, requires = "guesses")]
    answers: Option<PathBuf>,
    /// Guess list file (with --answers); allowed guesses are the union of both.
    #[arg(long, global = true, requires = "answers")]
    guesses: Option<PathBuf>,
    /// Hard mode: revealed hints must be used in later guesses.
    #[arg(long, global = true)]
    hard: bool,
    /// Worker threads (default: all cores).
    #[arg(long, global = true)]
    threads: Option<usize>,
    /// No progress bar.
    #[arg(long, global = true)]
    quiet: bool,
    /// Opener table to read exact opener values from (rank --exact, next, play,
    /// review) instead of the shipped tables/<list>.<normal|hard>.csv.
    #[arg(long, global = true, value_name = "FILE")]
    table: Option<PathBuf>,
    /// A directory whose trees/ and tables/ hold shipped-style files (e.g. a newer
    /// opener table) to use instead of the built-in ones; files it lacks come from
    /// the built-in data.
    #[arg(long, global = true, value_name = "DIR", env = "WORDLE_TREE_DATA")]
    data: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum RankSort {
    /// By the --metric score.
    Metric,
    /// By the exact total from the opener table (needs --exact).
    Exact,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum RankFormat {
    #[value(alias = "text")]
    Table,
    Csv,
    Json,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum ExportFormat {
    Paths,
    Selby,
    Json,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// The next guess after the guesses played so far (GUESS:FEEDBACK ...), from the
    /// shipped tree; solved exactly on the fly when the game has left the tree.
    #[command(after_help = next::NEXT_EXAMPLES)]
    Next(next::NextArgs),
    /// Play along: suggests a guess, reads the colours the game showed, repeats; ends
    /// with the game's exact review command.
    #[command(after_help = next::PLAY_EXAMPLES)]
    Play(next::PlayArgs),
    /// An exact review of a game: per step the best guess, what the guess played
    /// cost, and the luck of its feedback (from the feedback given, a pasted share
    /// text, or the guesses and --answer).
    #[command(after_help = review::REVIEW_EXAMPLES)]
    Review(review::ReviewArgs),
    /// A local web page and JSON API for next moves and reviews.
    #[cfg(feature = "serve")]
    #[command(after_help = serve::SERVE_EXAMPLES)]
    Serve(serve::ServeArgs),
    /// The tree's whole path to one answer.
    #[command(after_help = next::PATH_EXAMPLES)]
    Path(next::PathArgs),
    /// One-level analysis of every allowed guess as an opener.
    #[command(after_help = "Examples:
  wordle-tree rank                             the 20 best openers by entropy
  wordle-tree rank --metric worst --top 50     by the largest bucket
  wordle-tree rank --exact --sort exact        by the proved exact total (opener table)
  wordle-tree rank --top 0 --format csv > rank.csv")]
    Rank {
        /// The one-level metric that ranks the openers.
        #[arg(long, value_enum, default_value = "entropy")]
        metric: Metric,
        /// Rows to print (0: all).
        #[arg(long, default_value_t = 20)]
        top: usize,
        /// Output: table (also `text`) for people, csv, or json.
        #[arg(long, value_enum, default_value = "table")]
        format: RankFormat,
        /// Same as --format json.
        #[arg(long, conflicts_with = "format")]
        json: bool,
        /// Also each opener's exact total, average, max depth and rank, from the
        /// opener table of the lists and mode (--hard for hard mode).
        #[arg(long)]
        exact: bool,
        /// Order of the rows: by the metric, or (with --exact) by the exact total
        /// (ties by the metric; openers not in the table, or that cannot finish, last).
        #[arg(long, value_enum, default_value = "metric")]
        sort: RankSort,
    },
    /// Plays every answer with a heuristic player or a stored tree.
    #[command(after_help = "Examples:
  wordle-tree simulate                              the entropy player from its own opener
  wordle-tree simulate --strategy worst --opener salet
  wordle-tree simulate --strategy tree:trees/salet.normal.wordle.tree")]
    Simulate {
        /// worst, expected, entropy, buckets, frequency, or tree:FILE.
        #[arg(long, default_value = "entropy")]
        strategy: String,
        /// The first guess of a heuristic player (default: the player's own choice).
        #[arg(long)]
        opener: Option<String>,
        /// Write the guess distribution as a bar chart to FILE (.svg or .png).
        #[arg(long, value_name = "FILE")]
        plot: Option<PathBuf>,
    },
    /// Each one-level metric of `rank` and each player of `simulate` against the
    /// exact totals of the opener table: rank correlations, top-K overlaps, the
    /// favourites' exact ranks; plots with --plot.
    #[command(after_help = "Examples:
  wordle-tree metrics                          (original lists, normal mode)
  wordle-tree --list nyt --hard metrics --format csv --no-players
  wordle-tree metrics --plot metrics.png --plot-totals totals.svg")]
    Metrics(metrics::MetricsArgs),
    /// Every opener's cheap lower bounds against its exact total in the opener table:
    /// gaps, openers dismissed at a cutoff, CPU per opener.
    #[command(after_help = "Examples:
  wordle-tree bounds                           every opener, cutoff the best total + 1
  wordle-tree bounds --cutoff none --sample 200 --csv bounds.csv")]
    Bounds(bounds::BoundsArgs),
    /// The exact total of a fixed two-word start: the first two guesses played
    /// whatever the feedback, the rest optimal; or (--best) the best pair, proved.
    #[command(after_help = "Examples:
  wordle-tree pair salet courd
  wordle-tree pair salet,courd parse,clint
  wordle-tree --hard pair salet courd          (where courd breaks hard mode, play on optimally)
  wordle-tree pair --best --results pairs      the best pair over every pair, proved (resumable)
  wordle-tree pair --best --results pairs --shard 2/4   one shard; then --merge")]
    Pair(pair::PairArgs),
    /// Exact search: the tree of least total guesses from an opener, proved optimal.
    #[command(after_help = "Examples:
  wordle-tree solve --opener salet --out salet.tree --text salet.paths
  wordle-tree --hard solve --opener salet --max-guesses 6
  wordle-tree solve --opener crane --results crane.units --shard 1/4   (then --merge)")]
    Solve(SolveArgs),
    /// Replays every answer through a stored tree and checks it.
    #[command(after_help = "Example:
  wordle-tree verify trees/salet.normal.wordle.tree")]
    Verify {
        /// The tree file (`solve --out`), for the lists and mode given.
        file: PathBuf,
    },
    /// Packs a finished results directory (openers, min-over, within, proof units)
    /// into one checked file; `--merge`, `--write-table` and `--results` read it in place.
    Pack(pack::PackArgs),
    /// Writes a pack's files into a directory, to resume the run there.
    #[command(after_help = "Example:
  wordle-tree unpack proofs/min-over4.pack runs/min-over4   (then rerun the sweep on runs/min-over4)")]
    Unpack(pack::UnpackArgs),
    /// Writes a stored tree as text.
    #[command(after_help = "Examples:
  wordle-tree export trees/salet.normal.wordle.tree | head
  wordle-tree export trees/salet.normal.wordle.tree --format json --out salet.json")]
    Export {
        /// The tree file (`solve --out`).
        file: PathBuf,
        /// paths: one line per answer (guess, feedback, step); selby: the same
        /// without steps; json: the tree as nested objects.
        #[arg(long, value_enum, default_value = "paths")]
        format: ExportFormat,
        /// Write here instead of stdout.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Proves or refutes a depth claim ("every answer within D guesses").
    #[command(after_help = "Examples:
  wordle-tree check --opener salet --max-guesses 5
  wordle-tree check --opener salet --max-guesses 4 --results proofs/salet4   (resumable)
  wordle-tree check --opener any --min-over 4")]
    Check(check::CheckArgs),
    /// Times the core operations and the reference solves; prints figures.
    #[command(after_help = "Examples:
  wordle-tree bench
  wordle-tree bench --off-tree salet,crane
  wordle-tree bench --review salet,crane --sample 100")]
    Bench(bench::BenchArgs),
    /// Prints a shell completion script, e.g. `wordle-tree completions bash >
    /// ~/.local/share/bash-completion/completions/wordle-tree`.
    #[command(after_help = "Examples:
  wordle-tree completions bash > ~/.local/share/bash-completion/completions/wordle-tree
  wordle-tree completions zsh > ~/.zfunc/_wordle-tree
  wordle-tree completions fish > ~/.config/fish/completions/wordle-tree.fish")]
    Completions {
        /// The shell: bash, zsh, fish, elvish or powershell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Prints the man page (roff), e.g. `wordle-tree man | man -l -`; with --out, writes
    /// one page per command (wordle-tree.1, wordle-tree-next.1, ...) into DIR.
    #[command(after_help = "Examples:
  wordle-tree man | man -l -
  wordle-tree man --out ~/.local/share/man/man1")]
    Man {
        /// Write every command's page into this directory instead.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
    /// Exact totals of many openers (all allowed guesses by default): resumable (one
    /// result file per opener in --results) and shardable (--shard i/n).
    #[command(after_help = "Examples:
  wordle-tree openers --top 5                          the 5 best openers, proved
  wordle-tree openers --exact --write-table my.csv     every opener's exact total
  wordle-tree openers --best-first --top 10            the 10 best, refining least bounds first
  wordle-tree openers --random 100 --seed 1 --results sample")]
    Openers {
        /// Dismiss openers proved to cost at least this (default: the K-th best exact
        /// total found so far plus one, after solving the most promising openers).
        #[arg(long)]
        cutoff: Option<u64>,
        /// K: rows of the table; the default cutoff proves the best K exactly.
        #[arg(long, default_value_t = 1)]
        top: usize,
        /// Results directory (one small file per opener; shared by shards).
        #[arg(long, default_value = "openers-results")]
        results: PathBuf,
        /// Run only shard i of n (1-based), e.g. 3/8; `auto`: the shard of the
        /// scheduler task (a Slurm job array, a Kubernetes indexed job).
        #[arg(long, value_parser = parse_shard, value_name = "I/N|auto")]
        shard: Option<wordle_tree::store::results::ShardSpec>,
        /// Openers to consider, one per line (default: every allowed guess).
        #[arg(long)]
        openers: Option<PathBuf>,
        /// Keep only every N-th opener of the list (a deterministic sample).
        #[arg(long, conflicts_with = "random")]
        sample: Option<usize>,
        /// Keep N openers of the list drawn at random with --seed (a repeatable
        /// sample, e.g. to measure the mean time per opener).
        #[arg(long, value_name = "N")]
        random: Option<usize>,
        /// With --random: the sample's seed.
        #[arg(long, default_value_t = 1, requires = "random")]
        seed: u64,
        /// Only read the results directory and print the table.
        #[arg(long)]
        merge: bool,
        /// Every answer must be found within this many guesses (1 to 10).
        #[arg(long, default_value_t = 6)]
        max_guesses: u8,
        /// Memory limit in MiB for the transposition tables and the search scratch (shared by the workers; the feedback table comes on top).
        #[arg(long, default_value_t = 2048)]
        memory: usize,
        /// Most promising openers (of the whole list, every shard) solved first to set
        /// the default cutoff.
        #[arg(long, default_value_t = 4)]
        prepass: usize,
        /// Every opener's exact total, no cutoff (feasibility first: an opener that
        /// cannot finish is reported as such), with its optimal tree's max depth.
        #[arg(long, conflicts_with_all = ["cutoff", "top"])]
        exact: bool,
        /// With --exact: write the opener table (tables/<list>.<mode>.csv format) of
        /// the results directory to FILE, atomically; partial while openers are missing.
        #[arg(long, value_name = "FILE", requires = "exact")]
        write_table: Option<PathBuf>,
        /// Prove the best K (--top) exactly, best-first: always refine the opener with
        /// the least proved bound, under a cutoff a step above it, until every other
        /// opener is proved to cost more than the K-th best.
        #[arg(long, conflicts_with_all = ["cutoff", "exact", "prepass"])]
        best_first: bool,
        /// With --best-first: the least step of a refinement's cutoff above the
        /// opener's bound (default: the number of answers).
        #[arg(long, value_name = "N", requires = "best_first")]
        step: Option<u64>,
    },
}

/// Runs the command line and gives the exit code: the command's (0, or 1 for a
/// refuted claim), 2 after an error (printed), 130 when interrupted by SIGINT or
/// SIGTERM.
pub fn main() -> ExitCode {
    match run().and_then(|code| out::flush().map(|()| code)) {
        Ok(code) => code,
        Err(e) => {
            let interrupted = STOP.load(Ordering::Relaxed)
                || e.chain().any(|c| {
                    matches!(
                        c.downcast_ref::<SolveError>(),
                        Some(SolveError::Interrupted)
                    )
                });
            let code = if interrupted { 130 } else { 2 };
            if out::JSON_ERRORS.load(Ordering::Relaxed) {
                let body = serde_json::json!({ "error": error_text(&e), "exit_code": code });
                let _ = writeln!(std::io::stdout(), "{body}");
            } else {
                let _ = writeln!(std::io::stderr(), "error: {}", error_text(&e));
            }
            ExitCode::from(code)
        }
    }
}

/// An error and its causes on one line, `a: b: c`, leaving out a cause whose text
/// the line already holds (a library error that prints its I/O error and also
/// returns it as its source would otherwise repeat it).
fn error_text(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        let c = cause.to_string();
        if text.contains(&c) {
            continue;
        }
        if !text.is_empty() {
            text += ": ";
        }
        text += &c;
    }
    text
}

/// `--threads` beyond this multiple of the cores is refused: more threads than that
/// only slow the search (and the machine) down.
const MAX_THREADS_PER_CORE: usize = 4;

/// Parses the process arguments and runs the command: the global options are checked
/// and the lists loaded here, then [`dispatch`] hands the command to its family.
fn run() -> Result<ExitCode> {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let cli = parse_args(&args)?;
    LIST_GIVEN.store(cli_list_given(&args), Ordering::Relaxed);
    match &cli.command {
        Command::Completions { shell } => return completions(*shell),
        Command::Man { out } => return man(out.as_deref()),
        _ => {}
    }
    if cli.command.json() {
        out::JSON_ERRORS.store(true, Ordering::Relaxed);
    }
    if let Some(n) = cli.threads {
        set_threads(n)?;
    }
    let game = Game::load(&list_source(&cli))?;
    let stop = install_stop_handler(cli.command.cooperative());
    let ctx = Ctx {
        game: &game,
        hard: cli.hard,
        quiet: cli.quiet || !std::io::stderr().is_terminal(),
        stop,
        table: cli.table.as_deref(),
        data: cli.data.as_deref(),
    };
    dispatch(&ctx, &cli.command)
}

/// The command line, parsed. The SIMD path is checked before anything else runs (a bad
/// value is an error, never a fallback) and named by `--version`; under JSON output a
/// usage error is JSON too (help and `--version` are not errors, and exit here).
fn parse_args(args: &[std::ffi::OsString]) -> Result<Cli> {
    let simd = Simd::from_env().map_err(anyhow::Error::msg)?;
    let version = format!("{} (SIMD path: {})", env!("CARGO_PKG_VERSION"), simd.name());
    let version: &'static str = Box::leak(version.into_boxed_str()); // once per process
    let parsed = <Cli as clap::CommandFactory>::command()
        .version(version)
        .try_get_matches_from(args)
        .and_then(|m| <Cli as clap::FromArgMatches>::from_arg_matches(&m));
    match parsed {
        Ok(cli) => Ok(cli),
        Err(e) if out::args_ask_json(args) && e.use_stderr() => {
            out::JSON_ERRORS.store(true, Ordering::Relaxed);
            let text = e.render().to_string();
            let first = text
                .lines()
                .next()
                .unwrap_or("")
                .trim_start_matches("error: ");
            bail!("{first} (see --help)")
        }
        Err(e) => e.exit(),
    }
}

/// `--threads N`: the global rayon pool, refused beyond [`MAX_THREADS_PER_CORE`] per core.
fn set_threads(n: usize) -> Result<()> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let most = MAX_THREADS_PER_CORE * cores;
    if n == 0 || n > most {
        bail!("--threads must be from 1 to {most} ({MAX_THREADS_PER_CORE} per core, {cores} cores), not {n}");
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build_global()
        .ok();
    Ok(())
}

/// The lists: `--answers A --guesses G` when both are given (remembered as typed for
/// the commands `play` prints), else the shipped `--list`.
fn list_source(cli: &Cli) -> ListSource {
    let (Some(answers), Some(guesses)) = (&cli.answers, &cli.guesses) else {
        return ListSource::Named(cli.list.clone());
    };
    let _ = LIST_FILES.set(format!(
        " --answers {} --guesses {}",
        shell_word(&answers.display().to_string()),
        shell_word(&guesses.display().to_string())
    ));
    ListSource::Files {
        answers: answers.clone(),
        guesses: guesses.clone(),
    }
}

/// Hands each command to its module (`solve` to [`solve_family`]); `completions` and
/// `man` were run before the lists were loaded.
fn dispatch(ctx: &Ctx, command: &Command) -> Result<ExitCode> {
    match command {
        Command::Rank {
            metric,
            top,
            format,
            json,
            exact,
            sort,
        } => {
            let format = if *json { RankFormat::Json } else { *format };
            if *sort == RankSort::Exact && !exact {
                bail!("--sort exact needs the exact totals: add --exact (wordle-tree rank --exact --sort exact)");
            }
            rank::rank(ctx, *metric, *top, format, *exact, *sort)
        }
        Command::Simulate {
            strategy,
            opener,
            plot,
        } => rank::simulate(ctx, strategy, opener.as_deref(), plot.as_deref()),
        Command::Metrics(args) => metrics::run(ctx, args),
        Command::Bounds(args) => bounds::run(ctx, args),
        Command::Pair(args) => pair::run(ctx, args),
        Command::Solve(args) => solve_family(ctx, args),
        Command::Verify { file } => verify(ctx, file),
        Command::Pack(args) => pack::pack(args),
        Command::Unpack(args) => pack::unpack(args),
        Command::Export { file, format, out } => export(ctx, file, *format, out.as_deref()),
        Command::Check(args) => check::run(ctx, args),
        Command::Bench(args) => bench::run(ctx, args),
        Command::Next(args) => next::next(ctx, args),
        Command::Path(args) => next::path(ctx, args),
        Command::Review(args) => review::run(ctx, args),
        #[cfg(feature = "serve")]
        Command::Serve(args) => serve::run(ctx, args),
        Command::Play(args) => next::play(ctx, args),
        Command::Completions { .. } | Command::Man { .. } => unreachable!("handled first"),
        Command::Openers {
            cutoff,
            top,
            results,
            shard,
            openers: list,
            sample,
            random,
            seed,
            merge,
            max_guesses,
            memory,
            prepass,
            exact,
            write_table,
            best_first,
            step,
        } => openers::run(
            ctx,
            openers::Args {
                cutoff: *cutoff,
                top: *top,
                results,
                shard: jobs::shard_of(*shard)?,
                openers: list.as_ref(),
                sample: *sample,
                random: random.map(|n| (n, *seed)),
                merge: *merge,
                max_guesses: *max_guesses,
                memory: *memory,
                prepass: *prepass,
                exact: *exact,
                write_table: write_table.as_deref(),
                best_first: best_first.then_some(*step),
            },
        ),
    }
}

/// `solve`'s options.
#[derive(clap::Args, Debug)]
struct SolveArgs {
    /// The first guess, an allowed guess of the lists.
    #[arg(long)]
    opener: String,
    /// Every answer must be found within this many guesses (1 to 10).
    #[arg(long, default_value_t = 6)]
    max_guesses: u8,
    /// Write the tree file here.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Write the `paths` text here.
    #[arg(long)]
    text: Option<PathBuf>,
    /// Memory limit in MiB for the transposition table and the search scratch (the feedback table comes on top).
    #[arg(long, default_value_t = 4096)]
    memory: usize,
    /// Keep the proof unit by unit (one file per opener bucket) in this
    /// directory: a rerun resumes, shards share it, --merge assembles the tree.
    #[arg(long)]
    results: Option<PathBuf>,
    /// With --results: solve only shard i of n of the units (1-based), e.g. 3/8;
    /// `auto`: the shard of the scheduler task (a Slurm job array, a Kubernetes
    /// indexed job). A shard done with its own units takes over units of other
    /// shards that nobody has started.
    #[arg(long, value_parser = parse_shard, value_name = "I/N|auto", requires = "results")]
    shard: Option<wordle_tree::store::results::ShardSpec>,
    /// With --results: solve nothing, assemble and verify the tree from the units.
    #[arg(long, requires = "results", conflicts_with = "shard")]
    merge: bool,
    /// With --results: units may stop once the opener is proved to cost at least
    /// this; the verdict is then "at least N" unless every unit is exact.
    #[arg(long, requires = "results")]
    cutoff: Option<u64>,
    /// With --merge: re-solve N units drawn at random (seeded by --audit-seed) from
    /// scratch and compare them with their files before merging; any disagreement
    /// fails the merge (exit 2). Checksums show a file is whole, the audit tests
    /// the worker that wrote it.
    #[arg(long, value_name = "N", requires = "merge")]
    audit: Option<usize>,
    /// With --audit: the seed of the units drawn.
    #[arg(long, default_value_t = 1, requires = "audit")]
    audit_seed: u64,
    /// With --merge: also re-solve every unit of this shard (I/N, as a worker ran
    /// it with --shard), e.g. the shard of a machine you do not trust.
    #[arg(long, value_parser = parse_given_shard, value_name = "I/N", requires = "merge")]
    audit_shard: Option<wordle_tree::store::results::Shard>,
}

/// `solve`: one opener's tree in memory ([`solve`]), or with `--results DIR` its proof
/// as units in a directory ([`proof::run`]: shards, merge, audit).
fn solve_family(ctx: &Ctx, args: &SolveArgs) -> Result<ExitCode> {
    let SolveArgs {
        opener,
        max_guesses,
        out,
        text,
        memory,
        results,
        shard,
        merge,
        cutoff,
        audit,
        audit_seed,
        audit_shard,
    } = args;
    let Some(results) = results else {
        return solve(
            ctx,
            opener,
            *max_guesses,
            out.as_deref(),
            text.as_deref(),
            *memory,
        );
    };
    check_max_guesses(*max_guesses)?;
    proof::run(
        ctx,
        proof::Args {
            opener: allowed_guess(ctx.game, opener, "opener")?,
            max_guesses: *max_guesses,
            out: out.as_deref(),
            text: text.as_deref(),
            memory: *memory,
            results,
            shard: jobs::shard_of(*shard)?,
            merge: *merge,
            cutoff: *cutoff,
            audit: audit.map(|n| proof::Audit {
                sample: n,
                seed: *audit_seed,
                shard: *audit_shard,
            }),
        },
    )
}

/// `completions SHELL`: the completion script on stdout.
fn completions(shell: clap_complete::Shell) -> Result<ExitCode> {
    use clap::CommandFactory;
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "wordle-tree", &mut script);
    out!(
        "{}",
        String::from_utf8(script).context("completion script is not UTF-8")?
    );
    Ok(ExitCode::SUCCESS)
}

/// `man [--out DIR]`: the top-level page on stdout, or every command's page in DIR.
fn man(out: Option<&Path>) -> Result<ExitCode> {
    use clap::CommandFactory;
    let cmd = Cli::command();
    match out {
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("{}: cannot create", dir.display()))?;
            clap_mangen::generate_to(cmd, dir)
                .with_context(|| format!("{}: cannot write the man pages", dir.display()))?;
            outln!("man pages written to {}", dir.display());
        }
        None => {
            let mut page = Vec::new();
            clap_mangen::Man::new(cmd).render(&mut page)?;
            out!(
                "{}",
                String::from_utf8(page).context("man page is not UTF-8")?
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

struct Ctx<'a> {
    game: &'a Game,
    hard: bool,
    quiet: bool,
    stop: &'static AtomicBool,
    /// `--table FILE`: the opener table to read instead of the shipped one.
    table: Option<&'a Path>,
    /// `--data DIR` (or `WORDLE_TREE_DATA`): looked in before the built-in data.
    data: Option<&'a Path>,
}

/// Where shipped files (`trees`, `tables`) are looked for before the built-in copies
/// ([`wordle_tree::shipped`]): `<--data DIR>/<what>` when given, else nowhere.
fn shipped_dirs(ctx: &Ctx, what: &str) -> Vec<PathBuf> {
    ctx.data.map(|d| d.join(what)).into_iter().collect()
}

/// The opener table for the lists and mode in use (at most 6 guesses): `--table
/// FILE`, else `--data DIR`'s `tables/<list>.<mode>.csv`, else the built-in one if
/// there is one. A table that is damaged or for other lists or rules is an error
/// naming the file.
fn opener_table(ctx: &Ctx) -> Result<Option<(OpenerTable, PathBuf)>> {
    Ok(match ctx.table {
        Some(p) => Some((
            OpenerTable::load_for(p, ctx.game, ctx.hard, wordle_tree::game::GAME_LIMIT)?,
            p.to_path_buf(),
        )),
        None => wordle_tree::shipped::find_table(&shipped_dirs(ctx, "tables"), ctx.game, ctx.hard)?,
    })
}

/// [`opener_table`] for a command that cannot work without one: missing, an error
/// saying which table `command` needs and how to get it.
fn required_opener_table(ctx: &Ctx, command: &str) -> Result<(OpenerTable, PathBuf)> {
    opener_table(ctx)?.with_context(|| {
        format!(
            "no opener table for the {} lists in {} mode: {command} needs {} (every opener's exact total): built in for the shipped lists, or --table FILE, or --data DIR with tables/ (build one with `openers --exact --write-table FILE`)",
            ctx.game.list_tag(),
            mode_name(ctx.hard),
            opener_table::shipped_name(ctx.game, ctx.hard)
        )
    })
}

/// One line on an opener's exact value from a table: `opener crane: exact total
/// 7962 (3.4393 on average, at most 5 guesses), rank 12 of 12972 openers (FILE)`.
fn opener_line(table: &OpenerTable, file: &Path, opener: Word) -> String {
    match table.get(opener) {
        Some(row) => match row.entry {
            opener_table::Entry::Exact { total, max_depth } => format!(
                "opener {opener}: exact total {total} ({} on average, at most {max_depth} guesses), {} ({})",
                opener_table::average(total, table.answers),
                table.rank_text(row),
                file.display()
            ),
            opener_table::Entry::CannotFinish => format!(
                "opener {opener}: {} ({})",
                table.rank_text(row),
                file.display()
            ),
        },
        None => format!(
            "opener {opener}: not in the opener table yet ({} of {} openers solved; {})",
            table.solved(),
            table.openers,
            file.display()
        ),
    }
}

/// The JSON of an opener's value from a table (`null` fields where unknown).
fn opener_json(table: &OpenerTable, file: &Path, opener: Word) -> serde_json::Value {
    let row = table.get(opener);
    let (total, depth) = match row.map(|r| r.entry) {
        Some(opener_table::Entry::Exact { total, max_depth }) => (Some(total), Some(max_depth)),
        _ => (None, None),
    };
    serde_json::json!({
        "opener": opener.to_string(),
        "in_table": row.is_some(),
        "total": total,
        "expected_guesses": total.map(|t| t as f64 / table.answers as f64),
        "max_depth": depth,
        "cannot_finish": row.is_some_and(|r| r.entry == opener_table::Entry::CannotFinish),
        "rank": row.and_then(|r| r.rank),
        "tied": row.map(|r| r.tied),
        "solved": table.solved(),
        "openers": table.openers,
        "complete": table.is_complete(),
        "table": file.display().to_string(),
    })
}

impl Command {
    /// True when the command prints JSON (then its errors are JSON too).
    /// Whether the command's searches poll the stop flag and stop cleanly (results
    /// kept, exit 130); the others have nothing to keep and end at once.
    fn cooperative(&self) -> bool {
        matches!(
            self,
            Command::Solve(_)
                | Command::Check(_)
                | Command::Openers { .. }
                | Command::Next(_)
                | Command::Play(_)
                | Command::Bench(_)
                | Command::Bounds(_)
                | Command::Pair(_)
        )
    }

    fn json(&self) -> bool {
        match self {
            Command::Next(a) => a.format.is_json(),
            Command::Review(a) => a.format.is_json(),
            Command::Rank { format, json, .. } => *json || matches!(format, RankFormat::Json),
            _ => false,
        }
    }
}

/// Set when `--list` was given on the command line (not left at its default): `serve`
/// then takes it as the page's default list.
static LIST_GIVEN: AtomicBool = AtomicBool::new(false);

/// `--answers A --guesses G` as typed (custom lists), for commands `play` prints.
static LIST_FILES: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// A word as a shell reads it back: as it is when it is plain, else single-quoted.
fn shell_word(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+=:,@".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// True when `--list` was given on the command line rather than left at its default.
fn cli_list_given(args: &[std::ffi::OsString]) -> bool {
    use clap::CommandFactory;
    let Ok(m) = Cli::command().try_get_matches_from(args) else {
        return false;
    };
    let given = |m: &clap::ArgMatches| {
        m.value_source("list") == Some(clap::parser::ValueSource::CommandLine)
    };
    given(&m) || m.subcommand().is_some_and(|(_, sub)| given(sub))
}

/// Set by SIGINT or SIGTERM.
static STOP: AtomicBool = AtomicBool::new(false);

/// How long a cooperative command has, after SIGINT or SIGTERM, to stop by itself
/// before the process ends anyway (a read or write blocked on a FIFO never polls).
const GRACE: Duration = Duration::from_secs(5);

/// Installs the SIGINT/SIGTERM handler. For a `cooperative` command the first signal
/// sets the flag (searches notice it and unwind, keeping finished results) and a
/// second one, or the end of [`GRACE`], ends the process; any other command ends at
/// once. The process always exits 130.
fn install_stop_handler(cooperative: bool) -> &'static AtomicBool {
    let _ = ctrlc::set_handler(move || {
        let again = STOP.swap(true, Ordering::Relaxed);
        if !cooperative || again {
            let _ = writeln!(std::io::stderr(), "interrupted");
            std::process::exit(130);
        }
        std::thread::spawn(|| {
            std::thread::sleep(GRACE);
            let _ = writeln!(
                std::io::stderr(),
                "interrupted (did not stop within {} s)",
                GRACE.as_secs()
            );
            std::process::exit(130);
        });
    });
    &STOP
}

/// Parses `--shard i/n|auto` for clap (every sharded command); `auto` is resolved
/// when the command runs ([`jobs::shard_of`]).
fn parse_shard(s: &str) -> Result<wordle_tree::store::results::ShardSpec, String> {
    wordle_tree::store::results::ShardSpec::parse(s).map_err(|e| e.to_string())
}

/// Parses a shard given as `i/n` only (`--audit-shard`).
fn parse_given_shard(s: &str) -> Result<wordle_tree::store::results::Shard, String> {
    wordle_tree::store::results::Shard::parse(s).map_err(|e| e.to_string())
}

/// Parses a word and checks that it is an allowed guess.
fn allowed_guess(game: &Game, s: &str, what: &str) -> Result<GuessId> {
    let w = Word::parse(s).with_context(|| format!("{what} '{}'", echo(s)))?;
    game.guess_id(w).with_context(|| {
        format!(
            "{what} '{w}' is not in the allowed guesses of the {} lists",
            game.name
        )
    })
}

fn describe(game: &Game, hard: bool) -> String {
    format!(
        "lists {} ({} answers, {} allowed guesses), {} mode",
        game.name,
        game.n_answers(),
        game.n_guesses(),
        mode_name(hard)
    )
}

fn progress_bar(quiet: bool, what: &str) -> indicatif::ProgressBar {
    if quiet {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template(&format!(
            "{what} [{{elapsed_precise}}] {{bar:30}} {{pos}}/{{len}} {{msg}} eta {{eta}}"
        ))
        .expect("valid template"),
    );
    bar
}

/// The search settings every exact command starts from: the guess limit, the mode and
/// `--memory` in MiB (checked by [`memory_bytes`]); the rest as [`Config::default`].
fn search_config(ctx: &Ctx, max_guesses: u8, memory_mib: usize) -> Result<Config> {
    Ok(Config {
        max_guesses,
        hard: ctx.hard,
        memory_limit: memory_bytes(memory_mib)?,
        ..Config::default()
    })
}

/// `--memory` in MiB as bytes: a value whose bytes do not fit in this machine's
/// address space is refused (it would wrap to a tiny limit).
fn memory_bytes(mib: usize) -> Result<usize> {
    mib.checked_mul(1 << 20).with_context(|| {
        format!(
            "--memory {mib} MiB is more than this machine can address (at most {} MiB)",
            usize::MAX >> 20
        )
    })
}

fn check_max_guesses(d: u8) -> Result<()> {
    if !(1..=10).contains(&d) {
        bail!("--max-guesses must be from 1 to 10, not {d}");
    }
    Ok(())
}

fn solve(
    ctx: &Ctx,
    opener: &str,
    max_guesses: u8,
    out: Option<&Path>,
    text_out: Option<&Path>,
    memory: usize,
) -> Result<ExitCode> {
    let game = ctx.game;
    check_max_guesses(max_guesses)?;
    let opener_id = allowed_guess(game, opener, "opener")?;
    let t = Instant::now();
    let table = FeedbackTable::build(game);
    let solver =
        Solver::new(game, &table, search_config(ctx, max_guesses, memory)?).with_stop(ctx.stop);
    let bar = progress_bar(ctx.quiet, "solve");
    let report = |done: usize, of: usize, total: u64| {
        bar.set_length(of as u64);
        bar.set_position(done as u64);
        bar.set_message(format!("buckets, total so far {total}"));
    };
    let (total, root) = solver.solve_opener(opener_id, &report)?;
    bar.finish_and_clear();
    let tree = Tree::new(game, ctx.hard, max_guesses, root)
        .context("internal error: the solved tree is not valid")?;
    let replay = tree.verify(game);
    if !replay.is_valid() || replay.total() != total {
        bail!(
            "internal error: the solved tree does not replay ({:?}, total {} vs {total})",
            replay.problems.first(),
            replay.total()
        );
    }
    let elapsed = t.elapsed().as_secs_f64();
    let c = solver.counters();
    outln!(
        "opener {opener}, {}, at most {max_guesses} guesses",
        describe(game, ctx.hard)
    );
    outln!(
        "total {total} guesses, average {:.4} (proved optimal)",
        total as f64 / game.n_answers() as f64
    );
    outln!("histogram {}", histogram_text(&replay.histogram()));
    outln!("max depth {}", replay.max_depth());
    outln!(
        "time {elapsed:.3} s; states searched {}; guesses expanded {} (dominated, skipped: {}); transposition hits {} of {} probes ({:.1}%); cores raised {} bucket bounds, refuting {} guesses; bucket pre-scans refuted {} guesses",
        c.states,
        c.expansions,
        c.dominated,
        c.hits,
        c.probes,
        100.0 * c.hit_rate(),
        c.core_raises,
        c.core_refutations,
        c.prescan_refutations
    );
    let mib = |b: usize| b as f64 / (1 << 20) as f64;
    outln!(
        "memory {:.1} MiB in the transposition table, {:.1} MiB of scratch (limit {:.0} MiB for both)",
        mib(solver.transposition_size().1),
        mib(solver.scratch_bytes()),
        mib(solver.config().memory_limit)
    );
    if let Some(path) = out {
        file::save(&tree, path)?;
        outln!("tree written to {}", path.display());
    }
    if let Some(path) = text_out {
        let lines = text::paths(game, &table, &tree);
        write_atomic(path, (lines.join("\n") + "\n").as_bytes())
            .with_context(|| format!("{}: cannot write", path.display()))?;
        outln!("paths written to {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

fn verify(ctx: &Ctx, path: &Path) -> Result<ExitCode> {
    let game = ctx.game;
    // A tree that does not fit the lists is a verdict (INVALID, exit 2), not an error.
    let tree = match file::load(path, game) {
        Ok(tree) => tree,
        Err(file::FileError::Invalid(_, e)) => return invalid(&e.problems),
        Err(e @ file::FileError::Lists { .. }) => return invalid(&[e.to_string()]),
        Err(e) => return Err(e.into()),
    };
    let replay = tree.verify(game);
    let opener = game.guesses[tree.root().guess.index()];
    if replay.is_valid() {
        outln!(
            "VALID: opener {opener}, {}, at most {} guesses",
            describe(game, tree.hard()),
            tree.max_guesses()
        );
        outln!(
            "total {} guesses, average {:.4}",
            replay.total(),
            replay.total() as f64 / game.n_answers() as f64
        );
        outln!("histogram {}", histogram_text(&replay.histogram()));
        outln!("max depth {}", replay.max_depth());
        Ok(ExitCode::SUCCESS)
    } else {
        invalid(&replay.problems)
    }
}

/// `verify`'s report of an invalid tree (exit status 2).
fn invalid(problems: &[String]) -> Result<ExitCode> {
    outln!("INVALID: {} problem(s)", problems.len());
    for p in problems.iter().take(20) {
        outln!("  {p}");
    }
    Ok(ExitCode::from(2))
}

fn export(ctx: &Ctx, path: &Path, fmt: ExportFormat, out: Option<&Path>) -> Result<ExitCode> {
    let game = ctx.game;
    let tree = file::load(path, game)?;
    let table = FeedbackTable::build(game);
    let body = match fmt {
        ExportFormat::Paths => text::paths(game, &table, &tree).join("\n") + "\n",
        ExportFormat::Selby => text::selby(&text::paths(game, &table, &tree)).join("\n") + "\n",
        ExportFormat::Json => serde_json::to_string(&text::json(game, &table, &tree))? + "\n",
    };
    match out {
        Some(o) => write_atomic(o, body.as_bytes())
            .with_context(|| format!("{}: cannot write", o.display()))?,
        None => out!("{body}"),
    }
    Ok(ExitCode::SUCCESS)
}

/// `n` of `0..len` (all of them when `n >= len`), sorted: a seeded partial
/// Fisher-Yates shuffle (xorshift64*), so runs are repeatable. Shared by `openers
/// --random` and `bench --off-tree random` / `--review --sample`.
pub(crate) fn seeded_sample(len: usize, n: usize, seed: u64) -> Vec<usize> {
    let mut all: Vec<usize> = (0..len).collect();
    let mut x = seed.max(1);
    let mut next = |below: usize| {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        (x.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % below
    };
    let n = n.min(len);
    for i in 0..n {
        let j = i + next(len - i);
        all.swap(i, j);
    }
    all.truncate(n);
    all.sort_unstable();
    all
}

#[cfg(test)]
mod help_tests {
    use super::Cli;
    use clap::CommandFactory;

    /// Every option and argument of every command says what it is, and every command
    /// has examples (issue 35: blank help on `play --tree`, `verify FILE`, ...).
    #[test]
    fn every_option_is_documented_and_every_command_has_examples() {
        let cli = Cli::command();
        let mut missing = Vec::new();
        for arg in cli.get_arguments() {
            if arg.get_help().is_none() && !["help", "version"].contains(&arg.get_id().as_str()) {
                missing.push(format!("--{}", arg.get_id()));
            }
        }
        for sub in cli.get_subcommands() {
            if sub.get_after_help().is_none() {
                missing.push(format!("{}: no examples", sub.get_name()));
            }
            for arg in sub.get_arguments() {
                let id = arg.get_id().as_str();
                if arg.get_help().is_none() && arg.get_long_help().is_none() && id != "help" {
                    missing.push(format!("{} {id}", sub.get_name()));
                }
            }
        }
        assert!(missing.is_empty(), "undocumented: {missing:?}");
    }
}
