//! The clap command tree: [`Cli`] (the global options), [`Command`] (every command
//! and option with its help, in the order `--help` lists them), the value enums and
//! [`SolveArgs`] and [`PairArgs`] (those of `pair` and of `pair --best`, two
//! files: `cli/pair.rs`, `cli/best_pair.rs`), and what the dispatch asks of a command before it runs (whether its
//! output is JSON, whether it stops cleanly on an interrupt).
//!
//! Invariants: this file declares the interface only; every conversion to a library
//! call is `cli/mod.rs`'s (global options) or a command's submodule's. The help text
//! is generated from the doc comments here, so editing one changes `--help` (the
//! checks in `tests/it/cli_help.rs` and the man page follow). Split from
//! `cli/mod.rs` (code moved unchanged, the items and fields made visible to it) so
//! the interface reads in one file and the dispatch in another.

use super::*;

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
    pub(super) list: String,
    /// Answer list file (with --guesses; overrides --list).
    #[arg(long, global = true, requires = "guesses")]
    pub(super) answers: Option<PathBuf>,
    /// Guess list file (with --answers); allowed guesses are the union of both.
    #[arg(long, global = true, requires = "answers")]
    pub(super) guesses: Option<PathBuf>,
    /// Hard mode: revealed hints must be used in later guesses.
    #[arg(long, global = true)]
    pub(super) hard: bool,
    /// Worker threads (default: all cores).
    #[arg(long, global = true)]
    pub(super) threads: Option<usize>,
    /// No progress bar.
    #[arg(long, global = true)]
    pub(super) quiet: bool,
    /// Opener table to read exact opener values from (rank --exact, next, play,
    /// review) instead of the shipped tables/<list>.<normal|hard>.csv.
    #[arg(long, global = true, value_name = "FILE")]
    pub(super) table: Option<PathBuf>,
    /// A directory whose trees/ and tables/ hold shipped-style files (e.g. a newer
    /// opener table) to use instead of the built-in ones; files it lacks come from
    /// the built-in data.
    #[arg(long, global = true, value_name = "DIR", env = "WORDLE_TREE_DATA")]
    pub(super) data: Option<PathBuf>,
    #[command(subcommand)]
    pub(super) command: Command,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum RankSort {
    /// By the --metric score.
    Metric,
    /// By the exact total from the opener table (needs --exact).
    Exact,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub(super) enum RankFormat {
    #[value(alias = "text")]
    Table,
    Csv,
    Json,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub(super) enum ExportFormat {
    Paths,
    Selby,
    Json,
}

#[derive(Subcommand, Debug)]
pub(super) enum Command {
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
    /// gaps, openers dismissed at a cutoff, CPU per opener. Lists without a table
    /// need --cutoff N: dismissals and bound/cutoff shares, no gaps.
    #[command(after_help = "Examples:
  wordle-tree bounds                           every opener, cutoff the best total + 1
  wordle-tree bounds --cutoff none --sample 200 --csv bounds.csv
  wordle-tree --list wordle-all bounds --cutoff 52897 --sample 60   no table: --cutoff required")]
    Bounds(bounds::BoundsArgs),
    /// The exact total of a fixed two-word start: the first two guesses played
    /// whatever the feedback, the rest optimal; or (--best) the best pair, proved.
    #[command(after_help = "Examples:
  wordle-tree pair salet courd
  wordle-tree pair salet,courd parse,clint
  wordle-tree --hard pair salet courd          (where courd breaks hard mode, play on optimally)
  wordle-tree pair --best --results pairs      the best pair over every pair, proved (resumable)
  wordle-tree pair --best --results pairs --shard 2/4   one shard; then --merge")]
    Pair(PairArgs),
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

/// `pair`'s options, read by `cli/pair.rs` and, with `--best`, `cli/best_pair.rs`.
#[derive(clap::Args, Debug)]
pub(super) struct PairArgs {
    /// The first and second guesses, as `FIRST SECOND` or `FIRST,SECOND`; more
    /// pairs may follow (`salet,courd parse,clint`). None with --best.
    #[arg(
        value_name = "WORDS",
        required_unless_present = "best",
        conflicts_with = "best"
    )]
    pub(super) words: Vec<String>,
    /// Find the best pair over every first and second guess, proved (a resumable,
    /// shardable sweep: one result file per first guess in --results).
    #[arg(long)]
    pub(super) best: bool,
    /// With --best: the results directory (a rerun resumes, shards share it; a
    /// pack made by `wordle-tree pack` is read as one). Default:
    /// best-pair.LISTS.MODE in the current directory.
    #[arg(long, value_name = "DIR")]
    pub(super) results: Option<std::path::PathBuf>,
    /// With --best: only pairs totalling below N are solved exactly (a known pair's
    /// total + 1 speeds the start; it falls as better pairs are found).
    #[arg(long, value_name = "N")]
    pub(super) cutoff: Option<u64>,
    /// With --best: run only shard i of n of the first guesses (`auto`: the
    /// scheduler task's, see --help of check).
    #[arg(long, value_parser = parse_shard, value_name = "I/N|auto")]
    pub(super) shard: Option<wordle_tree::store::results::ShardSpec>,
    /// With --best: compute nothing, read every shard's results and give the verdict.
    #[arg(long)]
    pub(super) merge: bool,
    /// Every answer must be found within this many guesses (1 to 10).
    #[arg(long, default_value_t = 6)]
    pub(super) max_guesses: u8,
    /// Memory limit in MiB for the transposition table and the search scratch.
    #[arg(long, default_value_t = 2048)]
    pub(super) memory: usize,
}

/// `solve`'s options.
#[derive(clap::Args, Debug)]
pub(super) struct SolveArgs {
    /// The first guess, an allowed guess of the lists.
    #[arg(long)]
    pub(super) opener: String,
    /// Every answer must be found within this many guesses (1 to 10).
    #[arg(long, default_value_t = 6)]
    pub(super) max_guesses: u8,
    /// Write the tree file here.
    #[arg(long)]
    pub(super) out: Option<PathBuf>,
    /// Write the `paths` text here.
    #[arg(long)]
    pub(super) text: Option<PathBuf>,
    /// Memory limit in MiB for the transposition table and the search scratch (the feedback table comes on top).
    #[arg(long, default_value_t = 4096)]
    pub(super) memory: usize,
    /// Keep the proof unit by unit (one file per opener bucket) in this
    /// directory: a rerun resumes, shards share it, --merge assembles the tree.
    #[arg(long)]
    pub(super) results: Option<PathBuf>,
    /// With --results: solve only shard i of n of the units (1-based), e.g. 3/8;
    /// `auto`: the shard of the scheduler task (a Slurm job array, a Kubernetes
    /// indexed job). A shard done with its own units takes over units of other
    /// shards that nobody has started.
    #[arg(long, value_parser = parse_shard, value_name = "I/N|auto", requires = "results")]
    pub(super) shard: Option<wordle_tree::store::results::ShardSpec>,
    /// With --results: solve nothing, assemble and verify the tree from the units.
    #[arg(long, requires = "results", conflicts_with = "shard")]
    pub(super) merge: bool,
    /// With --results: units may stop once the opener is proved to cost at least
    /// this; the verdict is then "at least N" unless every unit is exact.
    #[arg(long, requires = "results")]
    pub(super) cutoff: Option<u64>,
    /// With --merge: re-solve N units drawn at random (seeded by --audit-seed) from
    /// scratch and compare them with their files before merging; any disagreement
    /// fails the merge (exit 2). Checksums show a file is whole, the audit tests
    /// the worker that wrote it.
    #[arg(long, value_name = "N", requires = "merge")]
    pub(super) audit: Option<usize>,
    /// With --audit: the seed of the units drawn.
    #[arg(long, default_value_t = 1, requires = "audit")]
    pub(super) audit_seed: u64,
    /// With --merge: also re-solve every unit of this shard (I/N, as a worker ran
    /// it with --shard), e.g. the shard of a machine you do not trust.
    #[arg(long, value_parser = parse_given_shard, value_name = "I/N", requires = "merge")]
    pub(super) audit_shard: Option<wordle_tree::store::results::Shard>,
}

impl Command {
    /// True when the command prints JSON (then its errors are JSON too).
    /// Whether the command's searches poll the stop flag and stop cleanly (results
    /// kept, exit 130); the others have nothing to keep and end at once.
    pub(super) fn cooperative(&self) -> bool {
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

    pub(super) fn json(&self) -> bool {
        match self {
            Command::Next(a) => a.format.is_json(),
            Command::Review(a) => a.format.is_json(),
            Command::Rank { format, json, .. } => *json || matches!(format, RankFormat::Json),
            _ => false,
        }
    }
}
