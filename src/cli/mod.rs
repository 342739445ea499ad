//! Command-line interface: clap types, and their conversion to library calls in one
//! place. Every command prints plain text on stdout; progress and errors go to stderr.
//! Errors are `anyhow` here only; the library's are typed.
//!
//! The clap command tree ([`Command`], every command and option with its help) is
//! `cli/args.rs`'s; here `run` checks the global options (SIMD path, `--threads`, the
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

mod args;
mod check;
mod check_units;
mod jobs;
mod min_over;
mod proof;

pub use args::Cli;
use args::{Command, ExportFormat, RankFormat, RankSort, SolveArgs};

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

/// The most guesses `--max-guesses` takes.
const MOST_GUESSES: u8 = 10;

fn check_max_guesses(d: u8) -> Result<()> {
    if !(1..=MOST_GUESSES).contains(&d) {
        bail!("--max-guesses must be from 1 to {MOST_GUESSES}, not {d}");
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
    let report = |settled: usize, of: usize, total: u64| {
        bar.set_message(format!("answers settled, total so far {total}"));
        bar.set_length(of as u64);
        bar.set_position(settled as u64);
    };
    let solved = solver.solve_opener(opener_id, &report);
    bar.finish_and_clear();
    let (total, root) = match solved {
        Ok(solved) => solved,
        // A proved fact, but no tree to print or write: said as what the user can do.
        Err(e @ SolveError::Infeasible(_)) => {
            let more = if max_guesses < MOST_GUESSES {
                format!(" or --max-guesses {}", max_guesses + 1)
            } else {
                String::new()
            };
            bail!(
                "opener {}: {e} (proved: some bucket of the opener cannot be finished in time; {}); try another opener{more}",
                game.guesses[opener_id.index()],
                describe(game, ctx.hard),
            )
        }
        Err(e) => return Err(e.into()),
    };
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
        "time {elapsed:.3} s; states searched {}; guesses expanded {} (dominated, skipped: {}); transposition hits {} of {} probes ({:.1}%); cores raised {} bucket bounds, refuting {} guesses; bucket pre-scans refuted {} guesses and left {} unread by their letters",
        c.states,
        c.expansions,
        c.dominated,
        c.hits,
        c.probes,
        100.0 * c.hit_rate(),
        c.core_raises,
        c.core_refutations,
        c.prescan_refutations,
        c.letter_capped
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
