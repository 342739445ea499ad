//! The `pair` command: the exact total of fixed two-word starts
//! (`wordle_tree::analysis::pair`), one line per pair, with the time it took; with
//! `--best`, the best pair proved over every pair (`best_pair.rs`).

use super::args::PairArgs;
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
