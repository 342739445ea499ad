//! The `openers` command: exact totals for many openers, resumable and shardable (see
//! `wordle_tree::jobs::openers`, and `--best-first`: `wordle_tree::jobs::best_first`); the
//! progress bars, the timing reports and the ranking table.

use super::{describe, jobs, Ctx};
use anyhow::{bail, Result};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use wordle_tree::game::echo::count;
use wordle_tree::game::table::FeedbackTable;
use wordle_tree::jobs::best_first;
use wordle_tree::jobs::openers::{self, OpenersDir, Settings, Shard};
use wordle_tree::store::opener_table::OpenerTable;

/// Options of `openers`, gathered by the clap layer.
pub(super) struct Args<'a> {
    pub cutoff: Option<u64>,
    pub top: usize,
    pub results: &'a Path,
    pub shard: Option<Shard>,
    pub openers: Option<&'a PathBuf>,
    pub sample: Option<usize>,
    /// `--random N --seed S`.
    pub random: Option<(usize, u64)>,
    pub merge: bool,
    pub max_guesses: u8,
    pub memory: usize,
    pub prepass: usize,
    pub exact: bool,
    pub write_table: Option<&'a Path>,
    /// `--best-first [--step N]`: `Some(step)`.
    pub best_first: Option<Option<u64>>,
}

pub(super) fn run(ctx: &Ctx, a: Args) -> Result<ExitCode> {
    let game = ctx.game;
    super::check_max_guesses(a.max_guesses)?;
    if a.top == 0 {
        bail!("--top must be at least 1");
    }
    if a.sample == Some(0) {
        bail!("--sample must be at least 1");
    }
    let mut set = match a.openers {
        Some(path) => openers::load_openers(game, path)?,
        None => openers::all_openers(game),
    };
    if let Some(step) = a.sample {
        set = set.into_iter().step_by(step).collect();
    }
    if let Some((n, seed)) = a.random {
        if n == 0 {
            bail!("--random must be at least 1");
        }
        let picked = super::seeded_sample(set.len(), n, seed);
        set = picked.into_iter().map(|i| set[i]).collect();
    }
    let dir = OpenersDir::open(a.results, game, ctx.hard, a.max_guesses)?;
    outln!(
        "openers: {}, at most {}; {}; results in {}",
        describe(game, ctx.hard),
        count(usize::from(a.max_guesses), "guess"),
        count(set.len(), "opener"),
        a.results.display()
    );
    let t = Instant::now();
    let mut stopped = false;
    if !a.merge {
        let table = FeedbackTable::build(game);
        let shard = a.shard.unwrap_or(Shard::ALL);
        let mine = shard.select(&set);
        let settings = Settings {
            hard: ctx.hard,
            max_guesses: a.max_guesses,
            cutoff: a.cutoff,
            top: a.top,
            prepass: a.prepass,
            threads: rayon::current_num_threads(),
            memory_limit: super::memory_bytes(a.memory)?,
            exact: a.exact,
            feasibility_scans: openers::FEASIBILITY_SCANS,
        };
        if let Some(step) = a.best_first {
            let step = step.unwrap_or_else(|| best_first::default_step(game));
            stopped = run_best_first(ctx, &table, &set, &mine, &dir, &settings, step, shard)?;
        } else {
            let (bar, show) = jobs::tally_bar(ctx.quiet, "openers");
            let summary = openers::run(
                jobs::place(ctx, &table, (&set, &mine), &dir, &show),
                &settings,
            );
            bar.finish_and_clear();
            match summary {
                Err(e) if jobs::is_interrupted(&e) => stopped = true,
                summary => {
                    let summary = summary?;
                    let runs: Vec<(f64, String)> = summary
                        .computed
                        .iter()
                        .map(|r| {
                            let label = format!(
                                "{} {:.2} s ({} states)",
                                r.opener, r.cpu_seconds, r.states
                            );
                            (r.cpu_seconds, label)
                        })
                        .collect();
                    let wall = t.elapsed().as_secs_f64();
                    jobs::sweep_report(
                        &summary.warnings,
                        Some(shard),
                        summary.reused,
                        summary.cutoff,
                        wall,
                        &runs,
                    )?;
                }
            }
        }
    }
    let scan = dir.scan()?;
    if a.merge {
        for w in &scan.warnings {
            errln!("warning: {w}");
        }
    }
    if a.exact {
        let (table, left_out) =
            OpenerTable::from_records(game, ctx.hard, a.max_guesses, &scan.records);
        // The openers that cannot finish are counted once, by the ranking below.
        outln!("exact: {}", table.describe());
        if left_out > 0 {
            outln!(
                "{left_out} results in the directory are not exact or lack the max depth (rerun openers --exact to complete them)"
            );
        }
        if let Some(path) = a.write_table {
            table.save(path)?;
            outln!(
                "table written to {} ({})",
                path.display(),
                if table.is_complete() {
                    "complete"
                } else {
                    "partial: run the missing openers, then write it again"
                }
            );
        }
    }
    let ranking = openers::Ranking::new(game, &set, &scan.records);
    out!("{}", ranking.table(game.n_answers(), a.top));
    if stopped {
        return Ok(jobs::interrupted(Some(a.results), "openers"));
    }
    Ok(ExitCode::SUCCESS)
}

/// `openers --best-first`: the run, its progress bar and its report (refinements,
/// openers refined and how often, the CPU seconds). `Ok(true)`: interrupted.
#[allow(clippy::too_many_arguments)]
fn run_best_first(
    ctx: &Ctx,
    table: &FeedbackTable,
    set: &[wordle_tree::game::GuessId],
    mine: &[wordle_tree::game::GuessId],
    dir: &OpenersDir,
    settings: &Settings,
    step: u64,
    shard: Shard,
) -> Result<bool> {
    let t = Instant::now();
    let bar = super::progress_bar(ctx.quiet, "best-first");
    let shown = bar.clone();
    let show = move |f: &best_first::Frontier| {
        shown.set_position(f.refinements as u64);
        shown.set_message(format!(
            "open {} exact {} least bound {} K-th best {}",
            f.open,
            f.exact,
            f.least.map_or("-".into(), |b| b.to_string()),
            f.kth.map_or("-".into(), |b| b.to_string())
        ));
    };
    let summary = best_first::run(
        ctx.game, table, set, mine, dir, settings, step, ctx.stop, &show,
    );
    bar.finish_and_clear();
    let summary = match summary {
        Err(e) if jobs::is_interrupted(&e) => return Ok(true),
        s => s?,
    };
    for w in &summary.warnings {
        errln!("warning: {w}");
    }
    let mut per: std::collections::BTreeMap<_, usize> = std::collections::BTreeMap::new();
    for r in &summary.computed {
        *per.entry(r.opener).or_default() += 1;
    }
    let mut times: std::collections::BTreeMap<usize, usize> = std::collections::BTreeMap::new();
    for &n in per.values() {
        *times.entry(n).or_default() += 1;
    }
    let spread: Vec<String> = times.iter().map(|(n, c)| format!("{c}x{n}")).collect();
    let cpu: f64 = summary.computed.iter().map(|r| r.cpu_seconds).sum();
    let f = summary.frontier;
    outln!(
        "shard {}/{}: best-first, step {step}: {} refinements of {} openers (openers x times refined: {}); {} left at their estimate; {cpu:.1} CPU-s in searches, {:.1} s wall",
        shard.index,
        shard.count,
        f.refinements,
        per.len(),
        if spread.is_empty() { "-".into() } else { spread.join(" ") },
        summary.unrefined,
        t.elapsed().as_secs_f64()
    );
    outln!(
        "K-th best exact total {}; every other open opener at least {}",
        f.kth.map_or("none".into(), |v| v.to_string()),
        f.least.map_or("(none open)".into(), |v| v.to_string())
    );
    if let Some(m) = super::bench::peak_memory_mib() {
        outln!("peak memory {m:.0} MiB");
    }
    Ok(false)
}
