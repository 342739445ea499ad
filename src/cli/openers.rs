//! The `openers` command: exact totals for many openers, resumable and shardable (see
//! `wordle_tree::openers`); the progress bar, the timing report and the ranking table.

use super::{describe, peak_memory_mib, Ctx};
use wordle_tree::openers::{self, ResultsDir, Settings, Shard, Tally};
use wordle_tree::table::FeedbackTable;
use anyhow::{bail, Result};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Options of `openers`, gathered by the clap layer.
pub(super) struct Args<'a> {
    pub cutoff: Option<u64>,
    pub top: usize,
    pub results: &'a Path,
    pub shard: Option<Shard>,
    pub openers: Option<&'a PathBuf>,
    pub sample: Option<usize>,
    pub merge: bool,
    pub max_guesses: u8,
    pub memory: usize,
    pub prepass: usize,
}

/// Parses `--shard i/n` for clap.
pub(super) fn parse_shard(s: &str) -> Result<Shard, String> {
    Shard::parse(s).map_err(|e| e.to_string())
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
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
    let dir = ResultsDir::open(a.results, game, ctx.hard, a.max_guesses)?;
    println!(
        "openers: {}, at most {} guesses; {} openers; results in {}",
        describe(game, ctx.hard),
        a.max_guesses,
        set.len(),
        a.results.display()
    );
    let t = Instant::now();
    let mut interrupted = false;
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
            memory_limit: a.memory << 20,
        };
        let bar = super::progress_bar(ctx.quiet, "openers");
        let show = |t: &Tally| {
            bar.set_length(t.total as u64);
            bar.set_position(t.done as u64);
            let cutoff = if t.cutoff == u64::MAX {
                "none yet".to_string()
            } else {
                t.cutoff.to_string()
            };
            bar.set_message(format!(
                "exact {} dismissed {} (reused {}) best {} cutoff {cutoff}",
                t.exact,
                t.dismissed,
                t.skipped,
                t.best.map_or("-".into(), |b| b.to_string())
            ));
        };
        let summary = openers::run(game, &table, &set, &mine, &dir, &settings, ctx.stop, &show)?;
        bar.finish_and_clear();
        for w in &summary.warnings {
            eprintln!("warning: {w}");
        }
        interrupted = summary.interrupted;
        let cutoff = if summary.cutoff == u64::MAX {
            "none".to_string()
        } else {
            summary.cutoff.to_string()
        };
        println!(
            "shard {}/{}: {} openers searched, {} reused from the results directory; cutoff {cutoff}; {:.1} s wall",
            shard.index,
            shard.count,
            summary.computed.len(),
            summary.skipped,
            t.elapsed().as_secs_f64()
        );
        if !summary.computed.is_empty() {
            let mut cpu: Vec<f64> = summary.computed.iter().map(|r| r.cpu_seconds).collect();
            cpu.sort_by(f64::total_cmp);
            let sum: f64 = cpu.iter().sum();
            println!(
                "per-opener CPU seconds: total {sum:.1}, mean {:.3}, median {:.3}, p90 {:.3}, p99 {:.3}, max {:.3}",
                sum / cpu.len() as f64,
                percentile(&cpu, 0.5),
                percentile(&cpu, 0.9),
                percentile(&cpu, 0.99),
                cpu[cpu.len() - 1]
            );
            let mut slow: Vec<&openers::Record> = summary.computed.iter().collect();
            slow.sort_by(|x, y| y.cpu_seconds.total_cmp(&x.cpu_seconds));
            let names: Vec<String> = slow
                .iter()
                .take(5)
                .map(|r| format!("{} {:.2} s ({} states)", r.opener, r.cpu_seconds, r.states))
                .collect();
            println!("slowest: {}", names.join(", "));
        }
        if let Some(m) = peak_memory_mib() {
            println!("peak memory {m:.0} MiB");
        }
    }
    let scan = dir.scan()?;
    if a.merge {
        for w in &scan.warnings {
            eprintln!("warning: {w}");
        }
    }
    let ranking = openers::Ranking::new(game, &set, &scan.records);
    print!("{}", ranking.table(game.n_answers(), a.top));
    if interrupted {
        eprintln!(
            "interrupted: finished openers are saved in {}; rerun the same command to resume",
            a.results.display()
        );
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}
