//! `pair --best`: the best fixed two-word start over every pair, proved (see
//! `wordle_tree::jobs::pairs`); the progress bar, the timing report, how many pairs
//! each bound level let through, the ranking of first guesses and the verdict line.

use super::args::PairArgs;
use super::{describe, jobs, Ctx};
use anyhow::{bail, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use wordle_tree::game::mode_name;
use wordle_tree::game::table::{FeedbackTable, Simd};
use wordle_tree::game::word::Word;
use wordle_tree::game::GuessId;
use wordle_tree::jobs::openers::all_openers;
use wordle_tree::jobs::pairs::{self, Floors, Levels, PairsDir, Record, Settings, Verdict};
use wordle_tree::store::opener_table::Entry;
use wordle_tree::store::results::Shard;

/// Rows of the ranking shown (extended to ties).
const SHOWN: usize = 10;

fn pairs_text(list: &[(Word, Word)]) -> String {
    list.iter()
        .map(|(a, b)| format!("{a} {b}"))
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) fn run(ctx: &Ctx, args: &PairArgs) -> Result<ExitCode> {
    let game = ctx.game;
    if args.merge && args.shard.is_some() {
        bail!("--merge reads every shard's results: leave out --shard");
    }
    let results = args.results.clone().unwrap_or_else(|| {
        PathBuf::from(format!(
            "best-pair.{}.{}",
            game.list_tag(),
            mode_name(ctx.hard)
        ))
    });
    let shard = jobs::shard_of(args.shard)?;
    let all = all_openers(game);
    let mine = shard.unwrap_or(Shard::ALL).select(&all);
    let dir = PairsDir::open(&results, game, ctx.hard, args.max_guesses)?;
    // Level 1 of the sweep: each first guess's exact total, from the opener table
    // (only for the game's own limit, the one the tables hold).
    let (floors, floors_from) = floors(ctx, args.max_guesses)?;
    let scope = match shard {
        Some(s) if s.count > 1 => format!(
            "the {} first guesses of shard {}/{} (each with all {} second guesses)",
            mine.len(),
            s.index,
            s.count,
            all.len()
        ),
        _ => format!("all {} x {} pairs", all.len(), all.len()),
    };
    outln!(
        "pair --best: the least total of a fixed two-word start over {scope}; {}, at most {} guesses; first guesses' totals from {}; results in {}",
        describe(game, ctx.hard),
        args.max_guesses,
        floors_from,
        results.display()
    );
    let t = Instant::now();
    if !args.merge {
        let run = Sweep {
            all: &all,
            mine: &mine,
            dir: &dir,
            floors: floors.as_ref(),
            shard,
            results: &results,
        };
        if let Some(stopped) = sweep(ctx, args, run, t)? {
            return Ok(stopped);
        }
    } else {
        let (_, warnings) = dir.scan()?;
        for w in &warnings {
            errln!("warning: {w}");
        }
    }
    let (records, _) = dir.scan()?;
    let firsts = if args.merge { &all } else { &mine };
    report(ctx, args, firsts, &records)
}

/// The first guesses' exact totals from the opener table (level 1 of the sweep; only
/// for the game's own limit, the one the tables hold), and where they come from.
fn floors(ctx: &Ctx, max_guesses: u8) -> Result<(Option<Floors>, String)> {
    let table_floors = if max_guesses == wordle_tree::game::GAME_LIMIT {
        super::opener_table(ctx)?
    } else {
        None
    };
    let floors = table_floors.as_ref().map(|(t, _)| {
        pairs::floors_of(ctx.game, |w| {
            t.get(w).map(|row| match row.entry {
                Entry::Exact { total, .. } => Some(total),
                Entry::CannotFinish => None,
            })
        })
    });
    let from = table_floors
        .as_ref()
        .map_or("their own solves".to_string(), |(_, p)| {
            p.display().to_string()
        });
    Ok((floors, from))
}

/// What one run of the sweep works on: the first guesses (`all`, this shard's
/// `mine`), the directory, the known totals and the shard.
struct Sweep<'a> {
    all: &'a [GuessId],
    mine: &'a [GuessId],
    dir: &'a PairsDir<'a>,
    floors: Option<&'a Floors>,
    shard: Option<Shard>,
    results: &'a Path,
}

/// Runs the sweep and prints its timing report; `Some(exit)` when it was interrupted
/// (the resume line printed).
fn sweep(ctx: &Ctx, args: &PairArgs, run: Sweep, t: Instant) -> Result<Option<ExitCode>> {
    let Sweep {
        all,
        mine,
        dir,
        floors,
        shard,
        results,
    } = run;
    let game = ctx.game;
    let table = FeedbackTable::build(game);
    let settings = Settings {
        hard: ctx.hard,
        max_guesses: args.max_guesses,
        cutoff: args.cutoff,
        threads: rayon::current_num_threads(),
        memory_limit: super::memory_bytes(args.memory)?,
    };
    let ran = jobs::run_sweep(ctx.quiet, "pair", (results, "first guesses"), |show| {
        pairs::sweep(
            jobs::place(ctx, &table, (all, mine), dir, show),
            floors,
            &settings,
        )
    })?;
    let summary = match ran {
        Ok(summary) => summary,
        Err(exit) => return Ok(Some(exit)),
    };
    let runs: Vec<(f64, String)> = summary
        .computed
        .iter()
        .filter(|r| r.levels.seconds > 0 || floors.is_none())
        .map(|r| &r.head)
        .map(|h| {
            (
                h.cpu_seconds,
                format!("{} {:.2} s", h.opener, h.cpu_seconds),
            )
        })
        .collect();
    jobs::sweep_report(
        &summary.warnings,
        shard,
        summary.reused,
        summary.cutoff,
        t.elapsed().as_secs_f64(),
        &runs,
    )?;
    outln!(
        "SIMD path {}; {} threads",
        Simd::current().name(),
        rayon::current_num_threads()
    );
    Ok(None)
}

/// The report over the records of `firsts`: how far the pairs went, the ranking and
/// the verdict line, and the exit code it gives.
fn report(
    ctx: &Ctx,
    args: &PairArgs,
    firsts: &[GuessId],
    records: &BTreeMap<GuessId, Record>,
) -> Result<ExitCode> {
    let game = ctx.game;
    // How far the pairs went, over every first guess with a record.
    let mut levels = Levels::default();
    let mut by_total = 0;
    for g in firsts {
        if let Some(r) = records.get(g) {
            levels.add(&r.levels);
            by_total += (r.levels.seconds == 0) as usize;
        }
    }
    outln!(
        "pairs: {by_total} first guesses dismissed by their own total (or their small buckets); {} second guesses looked at, {} past the count bound, {} past the parts' scans (searched), {} solved exactly below the cutoff",
        levels.seconds,
        levels.past_count,
        levels.past_scan,
        levels.exact
    );
    let (standing, verdict) = pairs::verdict(game, firsts, records);
    let shown = standing.shown(SHOWN);
    if shown > 0 {
        outln!(
            "{:>5}  {:<6}  {:>7}  best second guesses",
            "rank",
            "first",
            "total"
        );
    }
    for (rank, v, w) in standing.ranked(shown) {
        let seconds = game
            .guess_id(w)
            .and_then(|g| records.get(&g))
            .map(|r| {
                r.best_seconds
                    .iter()
                    .map(|w| w.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .unwrap_or_default();
        outln!("{rank:>5}  {:<6}  {v:>7}  {seconds}", w.to_string());
    }
    if let Some((more, low, high)) = standing.beyond(shown) {
        outln!("{more} more first guesses have exact best pairs ({low} to {high})");
    }
    if let Some(lb) = standing.least_bound {
        outln!(
            "{} first guesses proved to total at least {lb} with any second guess",
            standing.dismissed
        );
    }
    if standing.cannot_finish > 0 {
        outln!(
            "{} first guesses cannot find every answer within {} guesses",
            standing.cannot_finish,
            args.max_guesses
        );
    }
    let what = describe(game, ctx.hard);
    let line = match &verdict {
        Verdict::Best { value, by } => format!(
            "PROVED: the best fixed two-word start totals {value} ({} on average): {} only ({what})",
            wordle_tree::store::opener_table::average(*value, game.n_answers()),
            pairs_text(by)
        ),
        Verdict::BestSome { value, by } => format!(
            "PROVED: the best fixed two-word start totals {value}: {} {} ({what})",
            pairs_text(by),
            jobs::may_tie(*value)
        ),
        Verdict::AtLeast(lb) => {
            format!("REFUTED: every fixed two-word start totals at least {lb} ({what})")
        }
        Verdict::NoneFinishes => format!(
            "REFUTED: no fixed two-word start finds every answer within {} guesses ({what})",
            args.max_guesses
        ),
        Verdict::Incomplete => {
            let best = standing
                .exact
                .first()
                .map_or("none yet".to_string(), |&(v, w)| format!("{v} ({w} ...)"));
            format!(
                "not yet a proof: {} first guesses have no result yet; best so far {best}: run the remaining shards or rerun",
                standing.missing.len()
            )
        }
    };
    outln!("{line}");
    Ok(jobs::sweep_status(&verdict))
}
