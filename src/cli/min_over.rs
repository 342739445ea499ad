//! `check --opener any --min-over D`: the fewest answers over D over every opener (see
//! `wordle_tree::jobs::min_over`); the progress bar, the timing report, the ranking and the
//! verdict line.

use super::{describe, jobs, Ctx};
use anyhow::{bail, Result};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;
use wordle_tree::game::echo::{agree, all_of, count};
use wordle_tree::game::table::FeedbackTable;
use wordle_tree::game::word::Word;
use wordle_tree::jobs::min_over::{self, OverDir, Ranking, Settings, Verdict};
use wordle_tree::jobs::openers::all_openers;
use wordle_tree::store::results::Shard;

/// Options gathered by `check`.
pub(super) struct Args<'a> {
    pub depth: u8,
    pub results: &'a Path,
    pub shard: Option<Shard>,
    pub cutoff: Option<u64>,
    pub sample: Option<usize>,
    /// `--openers FILE`: only these openers (the verdict speaks of them only).
    pub openers: Option<&'a Path>,
    pub merge: bool,
    pub memory: usize,
}

/// Rows of the ranking shown (extended to ties).
const SHOWN: usize = 10;

fn words(list: &[Word]) -> String {
    list.iter()
        .map(|w| w.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) fn run(ctx: &Ctx, a: Args) -> Result<ExitCode> {
    let game = ctx.game;
    let d = a.depth;
    if a.sample == Some(0) {
        bail!("--sample must be at least 1");
    }
    if a.merge && a.shard.is_some() {
        bail!("--merge reads every shard's results: leave out --shard");
    }
    let mut set = match a.openers {
        Some(path) => jobs::openers_of(game, path)?,
        None => all_openers(game),
    };
    if let Some(step) = a.sample {
        set = set.into_iter().step_by(step).collect();
    }
    let shard = a.shard.unwrap_or(Shard::ALL);
    let mine = shard.select(&set);
    let dir = OverDir::open(a.results, game, ctx.hard, d)?;
    let scope = match a.openers {
        Some(path) => {
            let mut s = format!("the {} of {}", count(set.len(), "opener"), path.display());
            if let Some(n) = a.sample {
                s += &format!(" (every {n}th)");
            }
            if shard.count > 1 {
                s += &format!(" (shard {}/{}: {})", shard.index, shard.count, mine.len());
            }
            s
        }
        None => match (shard.count > 1, a.sample) {
            (true, _) => format!(
                "the {} of shard {}/{}",
                count(mine.len(), "opener"),
                shard.index,
                shard.count
            ),
            (false, Some(n)) => format!(
                "the {} of the sample (every {n}th)",
                count(set.len(), "opener")
            ),
            (false, None) => all_of(set.len(), "opener"),
        },
    };
    outln!(
        "check: fewest answers needing more than {d} guesses (within {}) over {scope}; {}; results in {}",
        min_over::GAME_LIMIT,
        describe(game, ctx.hard),
        a.results.display()
    );
    let t = Instant::now();
    if !a.merge {
        let table = FeedbackTable::build(game);
        let settings = Settings {
            depth: d,
            hard: ctx.hard,
            cutoff: a.cutoff,
            threads: rayon::current_num_threads(),
            memory_limit: super::memory_bytes(a.memory)?,
        };
        let ran = jobs::run_sweep(ctx.quiet, "check", (a.results, "openers"), |show| {
            min_over::sweep(
                jobs::place(ctx, &table, (&set, &mine), &dir, show),
                &settings,
            )
        })?;
        let summary = match ran {
            Ok(summary) => summary,
            Err(exit) => return Ok(exit),
        };
        let runs: Vec<(f64, String)> = summary
            .computed
            .iter()
            .map(|r| {
                let label = format!("{} {:.2} s", r.opener, r.cpu_seconds);
                (r.cpu_seconds, label)
            })
            .collect();
        let wall = t.elapsed().as_secs_f64();
        jobs::sweep_report(
            &summary.warnings,
            None,
            summary.reused,
            summary.cutoff,
            wall,
            &runs,
        )?;
    } else {
        let (_, warnings) = dir.scan()?;
        for w in &warnings {
            errln!("warning: {w}");
        }
    }
    let (records, _) = dir.scan()?;
    let ranking = Ranking::new(game, &mine, &records);
    out!("{}", table(&ranking, d));
    let what = describe(game, ctx.hard);
    let verdict = ranking.verdict();
    let line = match &verdict {
        Verdict::Best { value, by } => format!(
            "PROVED: over {scope}, the fewest answers needing more than {d} guesses is {value}, attained by {} only ({what})",
            words(by)
        ),
        Verdict::BestSome { value, by } => format!(
            "PROVED: over {scope}, the fewest answers needing more than {d} guesses is {value}, attained by {} {} ({what})",
            words(by),
            jobs::may_tie(*value)
        ),
        Verdict::AtLeast(lb) => format!(
            "REFUTED: over {scope}, no opener leaves fewer than {lb} answers needing more than {d} guesses ({what})"
        ),
        Verdict::NoneFinishes => format!(
            "REFUTED: over {scope}, no opener finds every answer within {} guesses ({what})",
            min_over::GAME_LIMIT
        ),
        Verdict::Incomplete => format!(
            "not yet a proof: {} {} no result yet ({}{}): run the remaining shards or rerun",
            count(ranking.missing.len(), "opener"),
            agree(ranking.missing.len(), "has", "have"),
            words(&ranking.missing[..ranking.missing.len().min(5)]),
            if ranking.missing.len() > 5 { ", ..." } else { "" }
        ),
    };
    outln!("{line}");
    Ok(jobs::sweep_status(&verdict))
}

/// The best rows (exact counts, extended to ties) and what the rest is known to leave.
fn table(r: &Ranking, d: u8) -> String {
    let mut out = String::new();
    let shown = r.shown(SHOWN);
    if shown > 0 {
        out += &format!("{:>5}  {:<6}  over {d}\n", "rank", "opener");
    }
    for (rank, v, w) in r.ranked(shown) {
        out += &format!("{rank:>5}  {:<6}  {v:>6}\n", w.to_string());
    }
    if let Some((more, low, high)) = r.beyond(shown) {
        out += &format!(
            "{more} more {} {} ({low} to {high})\n",
            agree(more, "opener", "openers"),
            agree(more, "has an exact count", "have exact counts")
        );
    }
    if let Some(lb) = r.least_bound {
        out += &format!(
            "{} proved to leave at least {lb} answers over {d}\n",
            count(r.dismissed, "opener")
        );
    }
    if r.cannot_finish > 0 {
        out += &format!(
            "{} cannot find every answer within {}\n",
            count(r.cannot_finish, "opener"),
            min_over::GAME_LIMIT
        );
    }
    out
}
