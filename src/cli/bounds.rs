//! The `bounds` command: every opener's cheap lower bounds
//! (`wordle_tree::search::opener_bound`) against its exact total from the opener
//! table of the lists and mode: the gap (mean, p90, max), how many openers each bound
//! alone dismisses at a cutoff, and the CPU time each costs per opener. A bound above
//! an exact total is a bug: the command says which opener and exits 1.
//!
//! Two passes per opener, each on its own solver (so the times are separate): the
//! scan bound (refine 0, the estimate comes with it), then the deep bound. With a
//! cutoff the deep pass stops raising an opener once it reaches the cutoff, as a
//! sweep would (its gap figures then say "under the cutoff"); `--cutoff none` raises
//! every bucket as far as `--refine` allows.
//!
//! Without an opener table (the big games: no exact totals), an explicit `--cutoff N`
//! is required and there are no gaps: each bound's dismissals at the cutoff and its
//! distribution as a share of the cutoff (min, p10, median, p90, max), as a sweep
//! planned at that cutoff would meet them, at most [`GAME_LIMIT`] guesses. The deep
//! pass then runs only on the openers the scan leaves below the cutoff (a sweep would
//! dismiss the others on their scan alone), and its CPU is per opener it ran on.
//! With a table every opener gets both passes, as before (a scan-dismissed opener's
//! deep pass only repeats its scan on the second solver).

use super::{search_config, Ctx};
use anyhow::{bail, Context, Result};
use rayon::prelude::*;
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use wordle_tree::game::table::{FeedbackTable, Simd};
use wordle_tree::game::word::Word;
use wordle_tree::game::{mode_name, GuessId, GAME_LIMIT};
use wordle_tree::search::bound::INFEASIBLE;
use wordle_tree::search::opener_bound::{DeepSettings, OpenerBounds};
use wordle_tree::search::Solver;
use wordle_tree::store::opener_table::{self, Entry, OpenerTable};

#[derive(clap::Args, Debug)]
pub struct BoundsArgs {
    /// The cutoff the bounds are counted against ("none": the deep bound is raised
    /// as far as --refine allows, for its gaps). Default: the table's best total + 1;
    /// required (a number) on lists without an opener table.
    #[arg(long)]
    cutoff: Option<String>,
    /// The most guesses refined per opener bucket for the deep bound (0: none).
    #[arg(long, default_value_t = 64)]
    refine: usize,
    /// Only a seeded random sample of this many openers (default: every opener).
    #[arg(long)]
    sample: Option<usize>,
    /// Only the openers of this file (one word a line) that the table has (every one
    /// of them without a table).
    #[arg(long, value_name = "FILE", conflicts_with = "sample")]
    openers: Option<PathBuf>,
    /// The seed of --sample.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write one row per opener (opener,total,estimate,scan,deep,refined,scan_us,deep_us)
    /// to FILE (without a table: total empty, and deep_us empty where the scan
    /// dismissed the opener and the deep pass did not run).
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Memory limit in MiB for each pass's transposition table and scratch.
    #[arg(long, default_value_t = 1024)]
    memory: usize,
}

/// Reads the calling thread's CPU time in seconds (Linux; 0 elsewhere).
fn thread_cpu() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map_or(0.0, |ns| ns as f64 * 1e-9)
}

/// One opener's figures.
struct Row {
    opener: GuessId,
    /// The exact total from the table (`None` without one).
    truth: Option<u64>,
    b: OpenerBounds,
    scan_cpu: f64,
    /// `None` when the deep pass did not run (without a table, on an opener the scan
    /// dismissed).
    deep_cpu: Option<f64>,
}

impl Row {
    /// The exact total; only called with a table, where every row has one.
    fn truth(&self) -> u64 {
        self.truth
            .expect("rows measured against a table have exact totals")
    }
}

/// Gap statistics of one bound.
fn stats(
    name: &str,
    rows: &[Row],
    get: impl Fn(&Row) -> u64,
    cutoff: u64,
    cpu: Option<f64>,
) -> String {
    let mut gaps: Vec<f64> = rows
        .iter()
        .map(|r| (r.truth() - get(r).min(r.truth())) as f64 / r.truth() as f64 * 100.0)
        .collect();
    gaps.sort_by(f64::total_cmp);
    let mean = gaps.iter().sum::<f64>() / gaps.len().max(1) as f64;
    let p90 = gaps[(gaps.len() * 9 / 10).min(gaps.len() - 1)];
    let max = gaps.last().copied().unwrap_or(0.0);
    let abs_mean = rows
        .iter()
        .map(|r| (r.truth() - get(r)) as f64)
        .sum::<f64>()
        / rows.len() as f64;
    let dismissed = rows.iter().filter(|r| get(r) >= cutoff).count();
    let cpu = cpu.map_or(String::new(), |c| {
        format!(", {:.2} ms CPU per opener", c * 1e3)
    });
    format!(
        "{name:<9} gap mean {mean:.2}% ({abs_mean:.0} guesses), p90 {p90:.2}%, max {max:.2}%; dismisses {dismissed} of {} ({:.1}%){cpu}",
        rows.len(),
        dismissed as f64 / rows.len() as f64 * 100.0
    )
}

pub fn run(ctx: &Ctx, args: &BoundsArgs) -> Result<ExitCode> {
    let Some((table, path)) = super::opener_table(ctx)? else {
        return run_without_table(ctx, args);
    };
    let game = ctx.game;
    let t = Instant::now();
    let cutoff = cutoff(args, &table, &path)?;
    let mut openers = exact_openers(ctx, &table);
    if let Some(file) = &args.openers {
        let keep = openers_of_file(ctx, file)?;
        openers.retain(|(g, _)| keep.contains(g));
    }
    if let Some(k) = args.sample {
        sample(&mut openers, k, args.seed);
    }
    let openers: Vec<(GuessId, Option<u64>)> =
        openers.into_iter().map(|(g, v)| (g, Some(v))).collect();
    let rows = measure(ctx, table.max_guesses, args, cutoff, &openers, false)?;
    if let Some(r) = rows
        .iter()
        .find(|r| r.b.estimate.max(r.b.scan).max(r.b.deep) > r.truth())
    {
        eprintln!(
            "error: a bound above the exact total (a bug): opener {}, exact {} ({}), bounds estimate {} scan {} deep {}",
            game.guesses[r.opener.index()],
            r.truth(),
            path.display(),
            r.b.estimate,
            r.b.scan,
            r.b.deep
        );
        return Ok(ExitCode::from(1));
    }
    if let Some(file) = &args.csv {
        write_csv(ctx, file, &rows)?;
    }
    if rows.is_empty() {
        bail!("{}: no opener with an exact total", path.display());
    }
    report(ctx, args, (&table, &path), cutoff, &rows)?;
    footer(t, "; every bound at most its exact total")
}

/// The last line: the SIMD path, the wall time since `t` and the threads, then `tail`.
fn footer(t: Instant, tail: &str) -> Result<ExitCode> {
    writeln!(
        std::io::stdout().lock(),
        "SIMD path {}; {:.1} s wall, {} threads{tail}",
        Simd::current().name(),
        t.elapsed().as_secs_f64(),
        rayon::current_num_threads()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `bounds` on lists with no opener table (module doc): an explicit `--cutoff N`,
/// every allowed guess an opener, dismissals and bound/cutoff shares, no gaps.
fn run_without_table(ctx: &Ctx, args: &BoundsArgs) -> Result<ExitCode> {
    let game = ctx.game;
    let t = Instant::now();
    let missing = opener_table::shipped_name(game, ctx.hard);
    let cutoff = match args.cutoff.as_deref() {
        None | Some("none") => bail!(
            "no opener table for the {} lists in {} mode (no tables/{missing}, nor --table FILE): without exact totals, bounds needs --cutoff N (the total the bounds are counted against, e.g. the best known total + 1)",
            game.list_tag(),
            mode_name(ctx.hard)
        ),
        Some(s) => s
            .parse::<u64>()
            .ok()
            .filter(|&c| c > 0)
            .with_context(|| format!("--cutoff must be a positive total, not '{s}'"))?,
    };
    let mut openers: Vec<(GuessId, Option<u64>)> = match &args.openers {
        Some(file) => {
            let mut keep: Vec<GuessId> = openers_of_file(ctx, file)?.into_iter().collect();
            keep.sort();
            keep.into_iter().map(|g| (g, None)).collect()
        }
        None => (0..game.n_guesses())
            .map(|i| (GuessId::new(i), None))
            .collect(),
    };
    if let Some(k) = args.sample {
        sample(&mut openers, k, args.seed);
    }
    if openers.is_empty() {
        bail!("no opener to measure");
    }
    let rows = measure(ctx, GAME_LIMIT, args, Some(cutoff), &openers, true)?;
    if let Some(file) = &args.csv {
        write_csv(ctx, file, &rows)?;
    }
    report_without_table(ctx, args, &missing, cutoff, &rows)?;
    footer(t, "")
}

/// The cutoff the bounds are counted against: `--cutoff N`, none, or by default the
/// table's best total + 1 (an incomplete table has none: an error naming it).
fn cutoff(args: &BoundsArgs, table: &OpenerTable, path: &Path) -> Result<Option<u64>> {
    Ok(match args.cutoff.as_deref() {
        Some("none") => None,
        Some(s) => Some(
            s.parse::<u64>()
                .ok()
                .filter(|&c| c > 0)
                .with_context(|| format!("--cutoff must be a positive total or none, not '{s}'"))?,
        ),
        None => Some(
            table
                .proved_optimum()
                .map(|(_, v)| v + 1)
                .with_context(|| {
                    format!("{}: incomplete table: give --cutoff N", path.display())
                })?,
        ),
    })
}

/// Every opener the table has an exact total for, with it, in guess order.
fn exact_openers(ctx: &Ctx, table: &OpenerTable) -> Vec<(GuessId, u64)> {
    let mut openers: Vec<(GuessId, u64)> = table
        .rows()
        .iter()
        .filter_map(|r| match r.entry {
            Entry::Exact { total, .. } => Some((ctx.game.guess_id(r.opener)?, total)),
            Entry::CannotFinish => None,
        })
        .collect();
    openers.sort();
    openers
}

/// The openers of `--openers FILE` (one word a line); a word that is not an allowed
/// guess is an error naming the file and line.
fn openers_of_file(ctx: &Ctx, file: &Path) -> Result<HashSet<GuessId>> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    let mut keep = HashSet::new();
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let w = line.trim();
        let g = Word::parse(w)
            .ok()
            .and_then(|w| ctx.game.guess_id(w))
            .with_context(|| {
                format!(
                    "{}:{}: '{w}' is not an allowed guess",
                    file.display(),
                    i + 1
                )
            })?;
        keep.insert(g);
    }
    Ok(keep)
}

/// Keeps a repeatable random sample of `k` openers (a Fisher-Yates prefix drawn by
/// splitmix64 from `seed`), in guess order.
fn sample<T: Ord>(openers: &mut Vec<T>, k: usize, seed: u64) {
    let mut s = seed;
    let mut next = || {
        s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let k = k.min(openers.len());
    for i in 0..k {
        let j = i + (next() % (openers.len() - i) as u64) as usize;
        openers.swap(i, j);
    }
    openers.truncate(k);
    openers.sort();
}

/// Both passes over every opener, in parallel, each pass on its own solver so its
/// CPU time is its own: the scan bound (refine 0, with the estimate), then the deep
/// bound (`--refine`, under `cutoff`); with `skip_dismissed`, the deep pass only
/// where the scan is below the cutoff.
fn measure(
    ctx: &Ctx,
    max_guesses: u8,
    args: &BoundsArgs,
    cutoff: Option<u64>,
    openers: &[(GuessId, Option<u64>)],
    skip_dismissed: bool,
) -> Result<Vec<Row>> {
    let game = ctx.game;
    let feedback = FeedbackTable::build(game);
    let config = search_config(ctx, max_guesses, args.memory)?;
    let scan_solver = Solver::new(game, &feedback, config.clone()).with_stop(ctx.stop);
    let deep_solver = Solver::new(game, &feedback, config).with_stop(ctx.stop);
    let scan_only = DeepSettings { cutoff, refine: 0 };
    let deep = DeepSettings {
        cutoff,
        refine: args.refine,
    };
    let bar = super::progress_bar(ctx.quiet, "bounds");
    bar.set_length(openers.len() as u64);
    let rows: Vec<Row> = openers
        .par_iter()
        .map(|&(opener, truth)| {
            let c0 = thread_cpu();
            let s = scan_solver.opener_bounds(opener, &scan_only)?;
            let c1 = thread_cpu();
            let dismissed = skip_dismissed && cutoff.is_some_and(|c| s.scan >= c);
            let b = if deep.refine == 0 || dismissed {
                s
            } else {
                deep_solver.opener_bounds(opener, &deep)?
            };
            let c2 = thread_cpu();
            bar.inc(1);
            debug_assert_eq!((s.estimate, s.scan), (b.estimate, b.scan));
            Ok(Row {
                opener,
                truth,
                b,
                scan_cpu: c1 - c0,
                deep_cpu: (!dismissed).then_some(c2 - c1),
            })
        })
        .collect::<Result<_, wordle_tree::search::SolveError>>()?;
    bar.finish_and_clear();
    Ok(rows)
}

/// Writes one row per opener to `--csv FILE`, atomically.
fn write_csv(ctx: &Ctx, file: &Path, rows: &[Row]) -> Result<()> {
    let mut text = String::from("opener,total,estimate,scan,deep,refined,scan_us,deep_us\n");
    for r in rows {
        text += &format!(
            "{},{},{},{},{},{},{:.0},{}\n",
            ctx.game.guesses[r.opener.index()],
            r.truth.map_or(String::new(), |v| v.to_string()),
            r.b.estimate,
            r.b.scan,
            r.b.deep,
            r.b.refined,
            r.scan_cpu * 1e6,
            r.deep_cpu
                .map_or(String::new(), |c| format!("{:.0}", c * 1e6))
        );
    }
    wordle_tree::store::results::write_atomic(file, text.as_bytes())
        .with_context(|| format!("writing {}", file.display()))
}

/// The report: what was measured against which table, how many openers any bound
/// could dismiss at the cutoff, and each bound's gaps, dismissals and CPU time.
fn report(
    ctx: &Ctx,
    args: &BoundsArgs,
    (table, path): (&OpenerTable, &Path),
    cutoff: Option<u64>,
    rows: &[Row],
) -> Result<()> {
    let n = rows.len();
    let cut = cutoff.unwrap_or(u64::MAX);
    let mean = |f: &dyn Fn(&Row) -> f64| rows.iter().map(f).sum::<f64>() / n as f64;
    let scan_cpu = mean(&|r| r.scan_cpu);
    let deep_cpu = if args.refine == 0 {
        scan_cpu
    } else {
        mean(&|r| r.deep_cpu.unwrap_or(0.0))
    };
    let ceiling = rows.iter().filter(|r| r.truth() >= cut).count();
    let mut o = std::io::stdout().lock();
    writeln!(
        o,
        "{} against {}",
        heading(ctx, args, table.max_guesses, n),
        path.display()
    )?;
    writeln!(
        o,
        "cutoff {}: {ceiling} of {n} openers have an exact total at or above it (the most any bound can dismiss)",
        cutoff.map_or("none".into(), |c| c.to_string())
    )?;
    writeln!(
        o,
        "{}",
        stats("estimate", rows, |r| r.b.estimate, cut, None)
    )?;
    writeln!(
        o,
        "{}",
        stats("scan", rows, |r| r.b.scan, cut, Some(scan_cpu))
    )?;
    let under = if cutoff.is_some() {
        " (raised only up to the cutoff)"
    } else {
        ""
    };
    writeln!(
        o,
        "{} (refine {}{under}), {:.1} guesses refined per opener",
        stats("deep", rows, |r| r.b.deep, cut, Some(deep_cpu)),
        args.refine,
        mean(&|r| r.b.refined as f64)
    )?;
    Ok(())
}

/// The report's first words: the lists, mode and guess limit, and the `n` openers
/// measured (the sample, if one).
fn heading(ctx: &Ctx, args: &BoundsArgs, max_guesses: u8, n: usize) -> String {
    let game = ctx.game;
    format!(
        "bounds: lists {} ({} answers, {} allowed guesses), {} mode, at most {max_guesses} guesses; {n} openers{}",
        game.list_tag(),
        game.n_answers(),
        game.n_guesses(),
        mode_name(ctx.hard),
        args.sample.map_or(String::new(), |k| format!(" (sample {k}, seed {})", args.seed)),
    )
}

/// One bound's figures without exact totals: its distribution as a share of the
/// cutoff (min, p10, median, p90, max; "cannot finish" past [`INFEASIBLE`]) and how
/// many of the openers it dismisses (bound >= cutoff).
fn shares(name: &str, rows: &[Row], get: impl Fn(&Row) -> u64, cutoff: u64) -> String {
    let mut values: Vec<u64> = rows.iter().map(&get).collect();
    values.sort_unstable();
    let at = |q: usize| {
        let v = values[(values.len() - 1) * q / 100];
        if v >= INFEASIBLE as u64 {
            "cannot finish".to_string()
        } else {
            format!("{:.2}%", v as f64 / cutoff as f64 * 100.0)
        }
    };
    let dismissed = values.iter().filter(|&&v| v >= cutoff).count();
    format!(
        "{name:<9} bound/cutoff min {}, p10 {}, median {}, p90 {}, max {}; dismisses {dismissed} of {} ({:.1}%)",
        at(0),
        at(10),
        at(50),
        at(90),
        at(100),
        rows.len(),
        dismissed as f64 / rows.len() as f64 * 100.0
    )
}

/// The report without a table: what was measured, then each bound's shares of the
/// cutoff, dismissals and CPU time, and the openers left for a search.
fn report_without_table(
    ctx: &Ctx,
    args: &BoundsArgs,
    missing: &str,
    cutoff: u64,
    rows: &[Row],
) -> Result<()> {
    let n = rows.len();
    let scan_cpu = rows.iter().map(|r| r.scan_cpu).sum::<f64>() / n as f64;
    let deep_runs: Vec<&Row> = rows.iter().filter(|r| r.deep_cpu.is_some()).collect();
    let per_run = |f: &dyn Fn(&Row) -> f64| {
        deep_runs.iter().map(|r| f(r)).sum::<f64>() / deep_runs.len().max(1) as f64
    };
    let left = rows.iter().filter(|r| r.b.deep < cutoff).count();
    let mut o = std::io::stdout().lock();
    writeln!(
        o,
        "{}; no opener table (tables/{missing}): no exact totals: gaps not shown",
        heading(ctx, args, GAME_LIMIT, n)
    )?;
    writeln!(
        o,
        "cutoff {cutoff} (a bound at or above it dismisses its opener)"
    )?;
    writeln!(o, "{}", shares("estimate", rows, |r| r.b.estimate, cutoff))?;
    writeln!(
        o,
        "{}, {:.2} ms CPU per opener",
        shares("scan", rows, |r| r.b.scan, cutoff),
        scan_cpu * 1e3
    )?;
    if args.refine == 0 {
        writeln!(o, "deep      not run (refine 0): it equals the scan")?;
    } else {
        writeln!(
            o,
            "{}; run (refine {}, raised only up to the cutoff) on the {} openers the scan left: dismisses {} of them, {:.2} ms CPU and {:.1} guesses refined per opener run",
            shares("deep", rows, |r| r.b.deep, cutoff),
            args.refine,
            deep_runs.len(),
            deep_runs.iter().filter(|r| r.b.deep >= cutoff).count(),
            per_run(&|r| r.deep_cpu.unwrap_or(0.0)) * 1e3,
            per_run(&|r| r.b.refined as f64)
        )?;
    }
    writeln!(
        o,
        "left below the cutoff by every bound: {left} of {n} openers ({:.1}%), for a search under the cutoff",
        left as f64 / n as f64 * 100.0
    )?;
    Ok(())
}
