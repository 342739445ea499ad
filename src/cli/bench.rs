//! `bench`: figures for the core operations, timed in process (the table build, `rank`
//! by every metric, the exact reference solves, `check` phase by phase, peak memory),
//! and `bench --off-tree`, every state one guess in solved the way `next` solves it off
//! the tree. With `--threads 1` the searched states and expansions it prints are
//! deterministic: a signature of what the search does.

use super::{allowed_guess, Ctx};
use anyhow::Result;
use std::process::ExitCode;
use std::time::Instant;
use wordle_tree::analysis::{self, Metric};
use wordle_tree::game::{mode_name, AnswerId};
use wordle_tree::search::{Config, Solver};
use wordle_tree::table::FeedbackTable;

/// Peak resident memory of this process in MiB (Linux), for bench reports.
pub(super) fn peak_memory_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// `bench --off-tree`: every state one guess in from each opener, solved the way
/// `next` solves a state off the tree (a sub-game of the candidates, five guesses left).
pub(super) fn off_tree(ctx: &Ctx, openers: &str) -> Result<ExitCode> {
    let game = ctx.game;
    let table = FeedbackTable::build(game);
    let ids: Vec<AnswerId> = game.all_answer_ids();
    let mut times: Vec<f64> = Vec::new();
    let mut slowest: (f64, String, usize) = (0.0, String::new(), 0);
    for name in openers.split(',').map(str::trim).filter(|w| !w.is_empty()) {
        let opener = allowed_guess(game, name, "opener")?;
        let word = game.guesses[opener.index()];
        let mut worst: (f64, String, usize) = (0.0, String::new(), 0);
        let start = Instant::now();
        for (f, bucket) in wordle_tree::candidates::partition(&table, opener, &ids) {
            let feedback = f;
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
        outln!(
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
        outln!(
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

pub(super) fn run(ctx: &Ctx, full: bool) -> Result<ExitCode> {
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
    outln!(
        "table build {}x{}: {:.1} ms (best of 5)",
        game.n_guesses(),
        game.n_answers(),
        build * 1e3
    );
    let ids: Vec<AnswerId> = game.all_answer_ids();
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
    outln!("rank, all five metrics: {:.1} ms", r * 1e3);
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
        outln!(
            "solve {opener} ({}): total {total} in {:.3} s; states {}; expansions {}; scanned pairs {}; transposition hit rate {:.1}%; transposition table {} entries",
            mode_name(hard),
            t.elapsed().as_secs_f64(),
            c.states,
            c.expansions,
            c.scanned,
            100.0 * c.hit_rate(),
            solver.transposition_size().0
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
        outln!("{line})");
    }
    if let Some(m) = peak_memory_mib() {
        outln!("peak memory {m:.0} MiB");
    }
    Ok(ExitCode::SUCCESS)
}
