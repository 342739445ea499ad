//! `check`: proves or refutes depth claims (see `wordle_tree::check`).

use super::{allowed_guess, describe, mode_name, progress_bar, Ctx};
use wordle_tree::check::{self, Verdict};
use wordle_tree::format::{self, file};
use wordle_tree::game::GuessId;
use wordle_tree::table::FeedbackTable;
use wordle_tree::tree::histogram_text;
use wordle_tree::word::Word;
use anyhow::{bail, Context, Result};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// The opener, or `any` to try every allowed opener.
    #[arg(long)]
    opener: String,
    /// The claim: every answer is found within D guesses.
    #[arg(long, value_name = "D", conflicts_with = "min_over")]
    max_guesses: Option<u8>,
    /// Instead: the least number of answers that need more than D guesses.
    #[arg(long, value_name = "D")]
    min_over: Option<u8>,
    /// With --max-guesses: these answers may need more (up to 6), e.g. eater,penal.
    #[arg(long, value_delimiter = ',', requires = "max_guesses")]
    except: Vec<String>,
    /// Save the witness (or optimal) tree here.
    #[arg(long)]
    out: Option<PathBuf>,
    /// With `--opener any`: one result file per opener here; finished ones are skipped.
    #[arg(long)]
    results: Option<PathBuf>,
    /// With `--opener any`: run only shard i of n (1-based), e.g. 2/8.
    #[arg(long)]
    shard: Option<String>,
}

/// Parses `i/n` (1 <= i <= n).
pub fn parse_shard(s: &str) -> Result<(usize, usize)> {
    let parse = || -> Option<(usize, usize)> {
        let (i, n) = s.split_once('/')?;
        let (i, n) = (i.trim().parse().ok()?, n.trim().parse().ok()?);
        (1 <= i && i <= n).then_some((i, n))
    };
    parse().with_context(|| format!("--shard '{s}' must be i/n with 1 <= i <= n, e.g. 2/8"))
}

pub fn run(ctx: &Ctx, args: &CheckArgs) -> Result<ExitCode> {
    let game = ctx.game;
    let depth = match (args.max_guesses, args.min_over) {
        (Some(d), None) | (None, Some(d)) => d,
        _ => bail!("check needs --max-guesses D or --min-over D"),
    };
    if args.min_over.is_some() && !(1..check::GAME_LIMIT).contains(&depth) {
        bail!(
            "--min-over must be from 1 to {}, not {depth}",
            check::GAME_LIMIT - 1
        );
    }
    if !(1..=10).contains(&depth) {
        bail!("--max-guesses must be from 1 to 10, not {depth}");
    }
    if !args.except.is_empty() && depth >= check::GAME_LIMIT {
        bail!(
            "--except needs --max-guesses below {} (the excepted answers get up to {})",
            check::GAME_LIMIT,
            check::GAME_LIMIT
        );
    }
    if args.opener.eq_ignore_ascii_case("any") {
        if args.min_over.is_some() || !args.except.is_empty() || args.out.is_some() {
            bail!("--opener any works with --max-guesses only (not --min-over, --except or --out)");
        }
        return any(ctx, depth, args.results.as_deref(), args.shard.as_deref());
    }
    if args.results.is_some() || args.shard.is_some() {
        bail!("--results and --shard go with --opener any");
    }
    let opener = allowed_guess(game, &args.opener, "opener")?;
    let opener_word = game.guesses[opener as usize];
    let mut exempt = Vec::new();
    for w in &args.except {
        let word = Word::parse(w.trim()).with_context(|| format!("--except word '{w}'"))?;
        let a = game.answer_id(word).with_context(|| {
            format!(
                "--except word '{word}' is not one of the {} answers",
                game.name
            )
        })?;
        exempt.push(a);
    }
    let table = FeedbackTable::build(game);
    let t = Instant::now();
    let what = format!("{}; opener {opener_word}", describe(game, ctx.hard));
    if args.min_over.is_some() {
        let r = check::min_over(game, &table, opener, depth, ctx.hard, ctx.stop)?;
        let words: Vec<String> = r
            .over
            .iter()
            .map(|&a| game.answers[a as usize].to_string())
            .collect();
        println!(
            "PROVED: from {opener_word}, at least {} answer(s) need more than {depth} guesses, whatever the strategy ({what})",
            r.over.len()
        );
        if !words.is_empty() {
            println!(
                "in an optimal tree (fewest such answers, then fewest guesses) they are: {}",
                words.join(" ")
            );
        }
        let replay = r.tree.verify(game);
        println!(
            "that tree: total {} guesses, histogram {}",
            r.total,
            histogram_text(&replay.histogram())
        );
        save(args.out.as_deref(), &r.tree)?;
        println!("time {:.3} s", t.elapsed().as_secs_f64());
        return Ok(ExitCode::SUCCESS);
    }
    let except_text = if exempt.is_empty() {
        String::new()
    } else {
        format!(
            " except {} (within {})",
            args.except.join(","),
            check::GAME_LIMIT
        )
    };
    match check::within(game, &table, opener, depth, ctx.hard, &exempt, ctx.stop)? {
        Verdict::Proved(tree) => {
            let replay = tree.verify(game);
            if !replay.is_valid() {
                bail!(
                    "internal error: the witness tree does not verify: {:?}",
                    replay.problems.first()
                );
            }
            println!("PROVED: from {opener_word}, every answer is found within {depth} guesses{except_text} ({what})");
            println!(
                "witness tree: total {} guesses, histogram {}, max depth {}",
                replay.total(),
                histogram_text(&replay.histogram()),
                replay.max_depth()
            );
            save(args.out.as_deref(), &tree)?;
            println!("time {:.3} s", t.elapsed().as_secs_f64());
            Ok(ExitCode::SUCCESS)
        }
        Verdict::Refuted {
            evidence,
            least_over,
        } => {
            println!("REFUTED: from {opener_word}, no tree finds every answer within {depth} guesses{except_text} ({what})");
            if let Some(e) = evidence {
                let words: Vec<String> = e
                    .candidates
                    .iter()
                    .take(40)
                    .map(|&a| game.answers[a as usize].to_string())
                    .collect();
                println!(
                    "evidence: after {opener_word}:{} the {} candidates cannot all be found within {} more guess(es): {}{}",
                    wordle_tree::feedback::Feedback(e.feedback),
                    e.candidates.len(),
                    e.left,
                    words.join(" "),
                    if e.candidates.len() > 40 { " ..." } else { "" }
                );
            }
            if let Some(n) = least_over {
                println!("at least {n} answer(s) outside the list need more than {depth} guesses in every tree (see --min-over {depth})");
            }
            println!("time {:.3} s", t.elapsed().as_secs_f64());
            Ok(ExitCode::from(1))
        }
    }
}

fn save(out: Option<&Path>, tree: &wordle_tree::tree::Tree) -> Result<()> {
    if let Some(path) = out {
        file::save(tree, path)?;
        println!("tree written to {}", path.display());
    }
    Ok(())
}

/// `--opener any`: every allowed opener (of this shard) until one succeeds.
fn any(ctx: &Ctx, depth: u8, results: Option<&Path>, shard: Option<&str>) -> Result<ExitCode> {
    let game = ctx.game;
    let (i, n) = shard.map(parse_shard).transpose()?.unwrap_or((1, 1));
    if let Some(dir) = results {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("{}: cannot create the results directory", dir.display()))?;
    }
    let t = Instant::now();
    let table = FeedbackTable::build(game);
    let mine: Vec<GuessId> = (0..game.n_guesses() as GuessId)
        .filter(|g| *g as usize % n == i - 1)
        .collect();
    let path_of = |g: GuessId| {
        results.map(|d| {
            d.join(format!(
                "{}.{}.{}.within{depth}",
                game.guesses[g as usize],
                mode_name(ctx.hard),
                game.name
            ))
        })
    };
    let solver = check::within_solver(game, &table, depth, ctx.hard, ctx.stop);
    let found = AtomicBool::new(false);
    let done = AtomicUsize::new(0);
    let bar = progress_bar(ctx.quiet, "check");
    bar.set_length(mine.len() as u64);
    let outcomes: Vec<(GuessId, bool)> = mine
        .par_iter()
        .filter_map(|&g| {
            if found.load(Ordering::Relaxed) {
                return None;
            }
            let path = path_of(g);
            let previous = path.as_ref().and_then(|p| read_result(p, game.checksum));
            let ok = match previous {
                Some(ok) => ok,
                None => {
                    let t = Instant::now();
                    let ok = check::opener_within(&solver, g).ok()?;
                    if let Some(p) = &path {
                        let body = format!(
                            "opener={}\nlists={} {:016x}\nmode={}\nmax_guesses={depth}\nresult={}\nseconds={:.3}\n",
                            game.guesses[g as usize],
                            game.name,
                            game.checksum,
                            mode_name(ctx.hard),
                            if ok { "proved" } else { "refuted" },
                            t.elapsed().as_secs_f64()
                        );
                        format::write_atomic(p, body.as_bytes()).ok()?;
                    }
                    ok
                }
            };
            if ok {
                found.store(true, Ordering::Relaxed);
            }
            let d = done.fetch_add(1, Ordering::Relaxed) + 1;
            bar.set_position(d as u64);
            Some((g, ok))
        })
        .collect();
    bar.finish_and_clear();
    if ctx.stop.load(Ordering::Relaxed) {
        bail!(
            "interrupted; finished openers are kept{}",
            results
                .map(|d| format!(" in {}", d.display()))
                .unwrap_or_default()
        );
    }
    let good: Vec<String> = outcomes
        .iter()
        .filter(|(_, ok)| *ok)
        .map(|(g, _)| game.guesses[*g as usize].to_string())
        .collect();
    let shard_text = if n > 1 {
        format!(" (shard {i}/{n}: {} openers)", mine.len())
    } else {
        String::new()
    };
    let secs = t.elapsed().as_secs_f64();
    if good.is_empty() {
        println!(
            "REFUTED: no opener finds every answer within {depth} guesses{shard_text}; {} openers checked ({}) in {secs:.1} s",
            outcomes.len(),
            describe(game, ctx.hard)
        );
        Ok(ExitCode::from(1))
    } else {
        println!(
            "PROVED: opener {} finds every answer within {depth} guesses ({}); stopped after {} openers in {secs:.1} s",
            good.join(", "),
            describe(game, ctx.hard),
            outcomes.len()
        );
        Ok(ExitCode::SUCCESS)
    }
}

/// A finished result for this opener from an earlier run, if the file is for these lists.
fn read_result(path: &Path, checksum: u64) -> Option<bool> {
    let text = std::fs::read_to_string(path).ok()?;
    let lists_ok = text
        .lines()
        .any(|l| l.starts_with("lists=") && l.ends_with(&format!("{checksum:016x}")));
    if !lists_ok {
        return None;
    }
    match text.lines().find_map(|l| l.strip_prefix("result="))? {
        "proved" => Some(true),
        "refuted" => Some(false),
        _ => None,
    }
}
