//! The `pair` command: the exact total of fixed two-word starts
//! (`wordle_tree::analysis::pair`), one line per pair, with the time it took; with
//! `--best`, the best pair proved over every pair (`best_pair.rs`).

use super::{allowed_guess, check_max_guesses, search_config, Ctx};
use anyhow::{bail, Result};
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;
use wordle_tree::analysis::pair::pair_value;
use wordle_tree::game::mode_name;
use wordle_tree::game::table::{FeedbackTable, Simd};
use wordle_tree::search::Solver;
use wordle_tree::store::opener_table::average;

#[derive(clap::Args, Debug)]
pub struct PairArgs {
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
    #[arg(long, value_parser = super::parse_shard, value_name = "I/N|auto")]
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

/// The pairs named by the arguments: comma pairs, or two plain words in a row.
fn pairs(words: &[String]) -> Result<Vec<(String, String)>> {
    let mut out = Vec::new();
    let mut plain: Vec<&str> = Vec::new();
    for w in words {
        if let Some((a, b)) = w.split_once(',') {
            if !plain.is_empty() || b.contains(',') {
                bail!("pair: '{w}' must be two words FIRST,SECOND (or FIRST SECOND)");
            }
            out.push((a.to_string(), b.to_string()));
        } else {
            plain.push(w);
            if plain.len() == 2 {
                out.push((plain[0].to_string(), plain[1].to_string()));
                plain.clear();
            }
        }
    }
    if let Some(w) = plain.first() {
        bail!("pair: '{w}' has no second word (give FIRST SECOND or FIRST,SECOND)");
    }
    Ok(out)
}

pub fn run(ctx: &Ctx, args: &PairArgs) -> Result<ExitCode> {
    let game = ctx.game;
    check_max_guesses(args.max_guesses)?;
    if args.best {
        return super::best_pair::run(ctx, args);
    }
    if args.results.is_some() || args.cutoff.is_some() || args.shard.is_some() || args.merge {
        bail!("pair: --results, --cutoff, --shard and --merge go with --best");
    }
    let pairs = pairs(&args.words)?
        .into_iter()
        .map(|(a, b)| {
            Ok((
                allowed_guess(game, &a, "first guess")?,
                allowed_guess(game, &b, "second guess")?,
            ))
        })
        .collect::<Result<Vec<_>>>()?;
    let table = FeedbackTable::build(game);
    let config = search_config(ctx, args.max_guesses, args.memory)?;
    let solver = Solver::new(game, &table, config).with_stop(ctx.stop);
    let mut o = std::io::stdout().lock();
    writeln!(
        o,
        "pair: lists {} ({} answers, {} allowed guesses), {} mode, at most {} guesses; the first two guesses fixed whatever the feedback, the rest optimal",
        game.list_tag(),
        game.n_answers(),
        game.n_guesses(),
        mode_name(ctx.hard),
        args.max_guesses
    )?;
    for (first, second) in pairs {
        let t = Instant::now();
        let v = pair_value(&solver, &table, first, second)?;
        let (w1, w2) = (game.guesses[first.index()], game.guesses[second.index()]);
        let value = match v.total {
            Some(total) => format!(
                "exact total {total} ({} on average)",
                average(total, game.n_answers())
            ),
            None => format!(
                "cannot finish every answer within {} guesses",
                args.max_guesses
            ),
        };
        let fallback = if v.fallback.0 > 0 {
            format!(
                "; {w2} breaks hard mode after {} feedbacks of {w1} ({} answers): those go on optimally from guess 2",
                v.fallback.0, v.fallback.1
            )
        } else {
            String::new()
        };
        writeln!(
            o,
            "{w1} {w2}: {value}; {} answers found by guess 2, {} subgames solved{fallback}; {:.2} s",
            v.found_by_two,
            v.parts,
            t.elapsed().as_secs_f64()
        )?;
    }
    writeln!(
        o,
        "SIMD path {}; {} threads",
        Simd::current().name(),
        rayon::current_num_threads()
    )?;
    Ok(ExitCode::SUCCESS)
}
