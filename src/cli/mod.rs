//! Command-line interface: clap types, and their conversion to library calls in one
//! place. Every command prints plain text on stdout; progress and errors go to stderr.
//! Errors are `anyhow` here only; the library's are typed.

mod next;
mod openers;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand, ValueEnum};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Instant;
use wordle_tree::analysis::{self, Metric};
use wordle_tree::format::{self, file, text};
use wordle_tree::game::{AnswerId, Game, GuessId, ListSource};
use wordle_tree::search::{Config, Solver};
use wordle_tree::table::FeedbackTable;
use wordle_tree::tree::{histogram_text, Tree};
use wordle_tree::word::Word;

mod check;
mod proof;

#[derive(Parser, Debug)]
#[command(
    name = "wordle-tree",
    version,
    about = "Provably optimal Wordle strategies"
)]
pub struct Cli {
    /// Shipped word lists: wordle (default), nyt, wordle-all, nyt-all, nyt2023 or sowpods.
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
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum RankFormat {
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
    /// One-level analysis of every allowed guess as an opener.
    Rank {
        #[arg(long, value_enum, default_value = "entropy")]
        metric: Metric,
        /// Rows to print (0: all).
        #[arg(long, default_value_t = 20)]
        top: usize,
        #[arg(long, value_enum, default_value = "table")]
        format: RankFormat,
    },
    /// Plays every answer with a heuristic player or a stored tree.
    Simulate {
        /// worst, expected, entropy, buckets, frequency, or tree:FILE.
        #[arg(long, default_value = "entropy")]
        strategy: String,
        #[arg(long)]
        opener: Option<String>,
    },
    /// Exact search: the tree of least total guesses from an opener, proved optimal.
    Solve {
        #[arg(long)]
        opener: String,
        #[arg(long, default_value_t = 6)]
        max_guesses: u8,
        /// Write the tree file here.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Write the `paths` text here.
        #[arg(long)]
        text: Option<PathBuf>,
        /// Table memory limit in MiB.
        #[arg(long, default_value_t = 4096)]
        memory: usize,
        /// Keep the proof unit by unit (one file per opener bucket) in this
        /// directory: a rerun resumes, shards share it, --merge assembles the tree.
        #[arg(long)]
        results: Option<PathBuf>,
        /// With --results: solve only shard i of n of the units (1-based), e.g. 3/8.
        #[arg(long, value_parser = openers::parse_shard, value_name = "I/N", requires = "results")]
        shard: Option<wordle_tree::openers::Shard>,
        /// With --results: solve nothing, assemble and verify the tree from the units.
        #[arg(long, requires = "results", conflicts_with = "shard")]
        merge: bool,
        /// With --results: units may stop once the opener is proved to cost at least
        /// this; the verdict is then "at least N" unless every unit is exact.
        #[arg(long, requires = "results")]
        cutoff: Option<u64>,
    },
    /// Replays every answer through a stored tree and checks it.
    Verify { file: PathBuf },
    /// Writes a stored tree as text.
    Export {
        file: PathBuf,
        #[arg(long, value_enum, default_value = "paths")]
        format: ExportFormat,
        /// Write here instead of stdout.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Proves or refutes a depth claim ("every answer within D guesses").
    Check(check::CheckArgs),
    /// The next guess after a history (GUESS:FEEDBACK ...), from the shipped tree;
    /// solved exactly on the fly when the history has left the tree.
    Next(next::NextArgs),
    /// The tree's whole path to one answer.
    Path(next::PathArgs),
    /// Interactive helper: suggests a guess, reads the feedback, repeats.
    Play(next::PlayArgs),
    /// Times the core operations and the reference solves; prints figures.
    Bench {
        /// Also run the slower reference solves (trace, hard salet).
        #[arg(long)]
        full: bool,
        /// Instead, time `next`'s exact off-tree solve of every state one guess in from
        /// these openers (comma-separated words, with --hard the hard-mode states):
        /// the slowest state of each opener, and the spread.
        #[arg(long, value_name = "OPENERS")]
        off_tree: Option<String>,
    },
    /// Exact totals of many openers (all allowed guesses by default): resumable (one
    /// result file per opener in --results) and shardable (--shard i/n).
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
        /// Run only shard i of n (1-based), e.g. 3/8.
        #[arg(long, value_parser = openers::parse_shard, value_name = "I/N")]
        shard: Option<wordle_tree::openers::Shard>,
        /// Openers to consider, one per line (default: every allowed guess).
        #[arg(long)]
        openers: Option<PathBuf>,
        /// Keep only every N-th opener of the list (a deterministic sample).
        #[arg(long)]
        sample: Option<usize>,
        /// Only read the results directory and print the table.
        #[arg(long)]
        merge: bool,
        #[arg(long, default_value_t = 6)]
        max_guesses: u8,
        /// Table memory limit in MiB (shared by the workers).
        #[arg(long, default_value_t = 2048)]
        memory: usize,
        /// Most promising openers (of the whole list, every shard) solved first to set
        /// the default cutoff.
        #[arg(long, default_value_t = 4)]
        prepass: usize,
    },
}

/// Parses the process arguments and runs the command.
pub fn run() -> Result<ExitCode> {
    let cli = Cli::parse();
    if let Some(n) = cli.threads {
        if n == 0 {
            bail!("--threads must be at least 1");
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
            .ok();
    }
    let source = match (&cli.answers, &cli.guesses) {
        (Some(a), Some(g)) => ListSource::Files {
            answers: a.clone(),
            guesses: g.clone(),
        },
        _ => ListSource::Named(cli.list.clone()),
    };
    let game = Game::load(&source)?;
    let stop = install_stop_handler();
    let ctx = Ctx {
        game: &game,
        hard: cli.hard,
        quiet: cli.quiet || !std::io::stderr().is_terminal(),
        stop,
    };
    match &cli.command {
        Command::Rank {
            metric,
            top,
            format,
        } => rank(&ctx, *metric, *top, *format),
        Command::Simulate { strategy, opener } => simulate(&ctx, strategy, opener.as_deref()),
        Command::Solve {
            opener,
            max_guesses,
            out,
            text,
            memory,
            results: Some(results),
            shard,
            merge,
            cutoff,
        } => {
            check_max_guesses(*max_guesses)?;
            proof::run(
                &ctx,
                proof::Args {
                    opener: allowed_guess(&game, opener, "opener")?,
                    max_guesses: *max_guesses,
                    out: out.as_deref(),
                    text: text.as_deref(),
                    memory: *memory,
                    results,
                    shard: *shard,
                    merge: *merge,
                    cutoff: *cutoff,
                },
            )
        }
        Command::Solve {
            opener,
            max_guesses,
            out,
            text,
            memory,
            ..
        } => solve(
            &ctx,
            opener,
            *max_guesses,
            out.as_deref(),
            text.as_deref(),
            *memory,
        ),
        Command::Verify { file } => verify(&ctx, file),
        Command::Export { file, format, out } => export(&ctx, file, *format, out.as_deref()),
        Command::Check(args) => check::run(&ctx, args),
        Command::Bench {
            off_tree: Some(openers),
            ..
        } => bench_off_tree(&ctx, openers),
        Command::Bench { full, .. } => bench(&ctx, *full),
        Command::Next(args) => next::next(&ctx, args),
        Command::Path(args) => next::path(&ctx, args),
        Command::Play(args) => next::play(&ctx, args),
        Command::Openers {
            cutoff,
            top,
            results,
            shard,
            openers: list,
            sample,
            merge,
            max_guesses,
            memory,
            prepass,
        } => openers::run(
            &ctx,
            openers::Args {
                cutoff: *cutoff,
                top: *top,
                results,
                shard: *shard,
                openers: list.as_ref(),
                sample: *sample,
                merge: *merge,
                max_guesses: *max_guesses,
                memory: *memory,
                prepass: *prepass,
            },
        ),
    }
}

struct Ctx<'a> {
    game: &'a Game,
    hard: bool,
    quiet: bool,
    stop: &'static AtomicBool,
}

fn install_stop_handler() -> &'static AtomicBool {
    static STOP: AtomicBool = AtomicBool::new(false);
    // Ctrl-C and SIGTERM set the flag; searches notice it and unwind cleanly.
    let _ = ctrlc::set_handler(|| STOP.store(true, std::sync::atomic::Ordering::Relaxed));
    &STOP
}

/// Parses a word and checks that it is an allowed guess.
fn allowed_guess(game: &Game, s: &str, what: &str) -> Result<GuessId> {
    let w = Word::parse(s).with_context(|| format!("{what} '{s}'"))?;
    game.guess_id(w).with_context(|| {
        format!(
            "{what} '{w}' is not in the allowed guesses of the {} lists",
            game.name
        )
    })
}

fn mode_name(hard: bool) -> &'static str {
    if hard {
        "hard"
    } else {
        "normal"
    }
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

fn rank(ctx: &Ctx, metric: Metric, top: usize, fmt: RankFormat) -> Result<ExitCode> {
    let game = ctx.game;
    let t = Instant::now();
    let table = FeedbackTable::build(game);
    let ids: Vec<AnswerId> = (0..game.n_answers() as AnswerId).collect();
    let scores = analysis::rank(game, &table, &ids, metric);
    let shown = if top == 0 {
        scores.len()
    } else {
        top.min(scores.len())
    };
    match fmt {
        RankFormat::Table => {
            println!(
                "{}; ranked by {metric:?}",
                describe(game, false).replace(", normal mode", "")
            );
            println!(
                "{:>5}  {:<5}  {:>6}  {:>9}  {:>8}  {:>7}  {:>9}",
                "rank", "guess", "worst", "expected", "entropy", "buckets", "frequency"
            );
            for (i, s) in scores[..shown].iter().enumerate() {
                println!(
                    "{:>5}  {:<5}  {:>6}  {:>9.3}  {:>8.4}  {:>7}  {:>9.4}",
                    i + 1,
                    game.guesses[s.guess as usize],
                    s.worst,
                    s.expected,
                    s.entropy,
                    s.buckets,
                    s.frequency
                );
            }
            println!(
                "{} guesses scored in {:.3} s",
                scores.len(),
                t.elapsed().as_secs_f64()
            );
        }
        RankFormat::Csv => {
            println!("rank,guess,worst,expected,entropy,buckets,frequency");
            for (i, s) in scores[..shown].iter().enumerate() {
                println!(
                    "{},{},{},{:.6},{:.6},{},{:.6}",
                    i + 1,
                    game.guesses[s.guess as usize],
                    s.worst,
                    s.expected,
                    s.entropy,
                    s.buckets,
                    s.frequency
                );
            }
        }
        RankFormat::Json => {
            let rows: Vec<serde_json::Value> = scores[..shown]
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let mut v = serde_json::to_value(s).expect("scores serialise");
                    v["rank"] = (i + 1).into();
                    v["guess"] = game.guesses[s.guess as usize].to_string().into();
                    v
                })
                .collect();
            println!("{}", serde_json::to_string_pretty(&rows)?);
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn simulate(ctx: &Ctx, strategy: &str, opener: Option<&str>) -> Result<ExitCode> {
    let game = ctx.game;
    let t = Instant::now();
    let table = FeedbackTable::build(game);
    let opener_id = opener
        .map(|o| allowed_guess(game, o, "opener"))
        .transpose()?;
    let (depths, label) = if let Some(path) = strategy.strip_prefix("tree:") {
        if opener.is_some() {
            bail!("--opener cannot be combined with a tree strategy (the tree has its own opener)");
        }
        let tree = file::load(Path::new(path), game)?;
        (tree.verify(game).depths, format!("tree {path}"))
    } else {
        let metric = Metric::from_str(strategy, true).map_err(|_| {
            anyhow::anyhow!("unknown strategy '{strategy}' (use worst, expected, entropy, buckets, frequency or tree:FILE)")
        })?;
        let sim = analysis::simulate(game, &table, metric, opener_id, ctx.hard);
        (sim.depths, format!("{metric:?} player"))
    };
    let sim = analysis::Simulation { depths };
    let failures: Vec<String> = sim
        .depths
        .iter()
        .enumerate()
        .filter(|(_, &d)| d > 6 || d == 0)
        .map(|(a, _)| game.answers[a].to_string())
        .collect();
    println!("{label}, {}", describe(game, ctx.hard));
    println!(
        "total {} guesses, average {:.4}",
        sim.total(),
        sim.average()
    );
    println!("histogram {}", histogram_text(&sim.histogram()));
    println!(
        "not found within 6: {}{}",
        failures.len(),
        if failures.is_empty() {
            String::new()
        } else {
            format!(" ({})", failures.join(" "))
        }
    );
    println!("time {:.3} s", t.elapsed().as_secs_f64());
    Ok(ExitCode::SUCCESS)
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
    let config = Config {
        max_guesses,
        hard: ctx.hard,
        memory_limit: memory << 20,
        use_table: true,
        ..Config::default()
    };
    let solver = Solver::new(game, &table, config).with_stop(ctx.stop);
    let bar = progress_bar(ctx.quiet, "solve");
    let report = |done: usize, of: usize, total: u64| {
        bar.set_length(of as u64);
        bar.set_position(done as u64);
        bar.set_message(format!("buckets, total so far {total}"));
    };
    let (total, root) = solver.solve_opener(opener_id, &report)?;
    bar.finish_and_clear();
    let tree = Tree::new(game, ctx.hard, max_guesses, root);
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
    println!(
        "opener {opener}, {}, at most {max_guesses} guesses",
        describe(game, ctx.hard)
    );
    println!(
        "total {total} guesses, average {:.4} (proved optimal)",
        total as f64 / game.n_answers() as f64
    );
    println!("histogram {}", histogram_text(&replay.histogram()));
    println!("max depth {}", replay.max_depth());
    println!(
        "time {elapsed:.3} s; states searched {}; table hits {} of {} probes ({:.1}%)",
        c.states,
        c.hits,
        c.probes,
        100.0 * c.hit_rate()
    );
    if let Some(path) = out {
        file::save(&tree, path)?;
        println!("tree written to {}", path.display());
    }
    if let Some(path) = text_out {
        let lines = text::paths(game, &table, &tree.root);
        format::write_atomic(path, (lines.join("\n") + "\n").as_bytes())
            .with_context(|| format!("{}: cannot write", path.display()))?;
        println!("paths written to {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

fn verify(ctx: &Ctx, path: &Path) -> Result<ExitCode> {
    let game = ctx.game;
    let bytes = std::fs::read(path).map_err(|e| file::FileError::Io(path.to_path_buf(), e))?;
    let tree = file::decode(&bytes, path)?;
    let replay = tree.verify(game);
    let opener = game
        .guesses
        .get(tree.root.guess as usize)
        .map(|w| w.to_string())
        .unwrap_or_else(|| "?".into());
    if replay.is_valid() {
        println!(
            "VALID: opener {opener}, {}, at most {} guesses",
            describe(game, tree.hard),
            tree.max_guesses
        );
        println!(
            "total {} guesses, average {:.4}",
            replay.total(),
            replay.total() as f64 / game.n_answers() as f64
        );
        println!("histogram {}", histogram_text(&replay.histogram()));
        println!("max depth {}", replay.max_depth());
        Ok(ExitCode::SUCCESS)
    } else {
        println!("INVALID: {} problem(s)", replay.problems.len());
        for p in replay.problems.iter().take(20) {
            println!("  {p}");
        }
        Ok(ExitCode::from(2))
    }
}

fn export(ctx: &Ctx, path: &Path, fmt: ExportFormat, out: Option<&Path>) -> Result<ExitCode> {
    let game = ctx.game;
    let tree = file::load(path, game)?;
    let table = FeedbackTable::build(game);
    let body = match fmt {
        ExportFormat::Paths => text::paths(game, &table, &tree.root).join("\n") + "\n",
        ExportFormat::Selby => {
            text::selby(&text::paths(game, &table, &tree.root)).join("\n") + "\n"
        }
        ExportFormat::Json => serde_json::to_string(&text::json(game, &table, &tree.root))? + "\n",
    };
    match out {
        Some(o) => format::write_atomic(o, body.as_bytes())
            .with_context(|| format!("{}: cannot write", o.display()))?,
        None => print!("{body}"),
    }
    Ok(ExitCode::SUCCESS)
}

/// Peak resident memory of this process in MiB (Linux), for bench reports.
pub fn peak_memory_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// `bench --off-tree`: every state one guess in from each opener, solved the way
/// `next` solves a state off the tree (a sub-game of the candidates, five guesses left).
fn bench_off_tree(ctx: &Ctx, openers: &str) -> Result<ExitCode> {
    let game = ctx.game;
    let table = FeedbackTable::build(game);
    let ids: Vec<AnswerId> = (0..game.n_answers() as AnswerId).collect();
    let mut times: Vec<f64> = Vec::new();
    let mut slowest: (f64, String, usize) = (0.0, String::new(), 0);
    for name in openers.split(',').map(str::trim).filter(|w| !w.is_empty()) {
        let opener = allowed_guess(game, name, "opener")?;
        let word = game.guesses[opener as usize];
        let mut worst: (f64, String, usize) = (0.0, String::new(), 0);
        let start = Instant::now();
        for (f, bucket) in wordle_tree::candidates::partition(&table, opener, &ids) {
            let feedback = wordle_tree::feedback::Feedback(f);
            if feedback.is_all_green() {
                continue;
            }
            let revealed = wordle_tree::hard::Revealed::default().after(word, feedback);
            let t = Instant::now();
            wordle_tree::play::solve_off_tree(
                game,
                &bucket,
                wordle_tree::check::GAME_LIMIT - 1,
                &revealed,
                ctx.hard,
                ctx.stop,
                None,
            )?;
            let secs = t.elapsed().as_secs_f64();
            times.push(secs);
            if secs > worst.0 {
                worst = (secs, format!("{name}:{feedback}"), bucket.len());
            }
        }
        println!(
            "{name}: every state in {:.2} s; slowest {} ({} candidates) {:.3} s",
            start.elapsed().as_secs_f64(),
            worst.1,
            worst.2,
            worst.0
        );
        if worst.0 > slowest.0 {
            slowest = worst;
        }
    }
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    if !times.is_empty() {
        println!(
            "{} states: median {:.1} ms, 99th percentile {:.1} ms, slowest {} ({} candidates) {:.3} s; over 1 s: {}",
            times.len(),
            at(0.5) * 1e3,
            at(0.99) * 1e3,
            slowest.1,
            slowest.2,
            slowest.0,
            times.iter().filter(|&&t| t > 1.0).count()
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn bench(ctx: &Ctx, full: bool) -> Result<ExitCode> {
    let game = ctx.game;
    let time = |f: &mut dyn FnMut()| {
        let t = Instant::now();
        f();
        t.elapsed().as_secs_f64()
    };
    let mut table = None;
    let build = (0..5)
        .map(|_| time(&mut || table = Some(FeedbackTable::build(game))))
        .fold(f64::MAX, f64::min);
    let table = table.expect("built");
    println!(
        "table build {}x{}: {:.1} ms (best of 5)",
        game.n_guesses(),
        game.n_answers(),
        build * 1e3
    );
    let ids: Vec<AnswerId> = (0..game.n_answers() as AnswerId).collect();
    let r = time(&mut || {
        for m in [
            Metric::Worst,
            Metric::Expected,
            Metric::Entropy,
            Metric::Buckets,
            Metric::Frequency,
        ] {
            analysis::rank(game, &table, &ids, m);
        }
    });
    println!("rank, all five metrics: {:.1} ms", r * 1e3);
    let mut runs = vec![("salet", false)];
    if full {
        runs.extend([("trace", false), ("salet", true)]);
    }
    for (opener, hard) in runs {
        let g = allowed_guess(game, opener, "opener")?;
        let solver = Solver::new(
            game,
            &table,
            Config {
                hard,
                ..Config::default()
            },
        )
        .with_stop(ctx.stop);
        let t = Instant::now();
        let (total, _) = solver.solve_opener(g, &|_, _, _| {})?;
        let c = solver.counters();
        println!(
            "solve {opener} ({}): total {total} in {:.3} s; states {}; expansions {}; scanned pairs {}; table hit rate {:.1}%; table {} entries",
            mode_name(hard),
            t.elapsed().as_secs_f64(),
            c.states,
            c.expansions,
            c.scanned,
            100.0 * c.hit_rate(),
            solver.table_size().0
        );
    }
    // `check --opener salet --max-guesses 5`, phase by phase.
    for depth in [5u8, 4] {
        let g = allowed_guess(game, "salet", "opener")?;
        let t = Instant::now();
        let solver = wordle_tree::check::within_solver(game, &table, depth, false, ctx.stop);
        let setup = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let failing = solver.first_infeasible_bucket(g, &ids, depth, &Default::default())?;
        let proof = t.elapsed().as_secs_f64();
        let c = solver.counters();
        let mut line = format!(
            "check salet within {depth}: {} in {:.1} ms (solver setup {:.1} ms, decision {:.1} ms: states {}, scanned pairs {}",
            if failing.is_none() { "PROVED" } else { "REFUTED" },
            (setup + proof) * 1e3,
            setup * 1e3,
            proof * 1e3,
            c.states,
            c.scanned
        );
        if failing.is_none() {
            let t = Instant::now();
            solver.solve_opener(g, &|_, _, _| {})?;
            line += &format!("; witness tree {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
        }
        println!("{line})");
    }
    if let Some(m) = peak_memory_mib() {
        println!("peak memory {m:.0} MiB");
    }
    Ok(ExitCode::SUCCESS)
}
