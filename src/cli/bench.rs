//! `bench`: figures for the core operations, timed in process (the table build, `rank`
//! by every metric, the exact reference solves, `check` phase by phase, peak memory),
//! and `bench --off-tree`, every state one guess in solved the way `next` solves it off
//! the tree. With `--threads 1` the searched states and expansions it prints are
//! deterministic: a signature of what the search does.

use super::{allowed_guess, Ctx};
use anyhow::{bail, Result};
use std::process::ExitCode;
use std::time::Instant;
use wordle_tree::analysis::{self, Metric};
use wordle_tree::game::table::FeedbackTable;
use wordle_tree::game::{mode_name, AnswerId};
use wordle_tree::search::{Config, Solver};

/// Peak resident memory of this process in MiB (Linux), for bench reports.
pub(super) fn peak_memory_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// `bench --off-tree`: every state one guess in from each opener, solved the way
/// `next` solves a state off the tree (a sub-game of the candidates, five guesses
/// left). `openers` is a comma-separated list, or `random` with `sample`: that many
/// allowed guesses drawn with `seed`.
fn off_tree(ctx: &Ctx, openers: &str, sample: Option<usize>, seed: u64) -> Result<ExitCode> {
    let game = ctx.game;
    let table = FeedbackTable::build(game);
    let ids: Vec<AnswerId> = game.all_answer_ids();
    let mut times: Vec<f64> = Vec::new();
    let mut slowest: (f64, String, usize) = (0.0, String::new(), 0);
    let names: Vec<String> = match (openers.trim().eq_ignore_ascii_case("random"), sample) {
        (true, Some(n)) => {
            let picked = super::seeded_sample(game.n_guesses(), n, seed);
            outln!(
                "{} openers drawn with seed {seed} from the {} allowed guesses ({} mode)",
                picked.len(),
                game.n_guesses(),
                mode_name(ctx.hard)
            );
            picked
                .iter()
                .map(|&i| game.guesses[i].to_string())
                .collect()
        }
        (true, None) => bail!("--off-tree random needs --sample N (and optionally --seed S)"),
        (false, Some(_)) => bail!("--sample goes with --off-tree random or --review"),
        (false, None) => openers
            .split(',')
            .map(|w| w.trim().to_string())
            .filter(|w| !w.is_empty())
            .collect(),
    };
    let mut over: Vec<String> = Vec::new();
    for name in &names {
        let name = name.as_str();
        let opener = allowed_guess(game, name, "opener")?;
        let word = game.guesses[opener.index()];
        let mut worst: (f64, String, usize) = (0.0, String::new(), 0);
        let start = Instant::now();
        for (f, bucket) in wordle_tree::game::candidates::partition(&table, opener, &ids) {
            let feedback = f;
            if feedback.is_all_green() {
                continue;
            }
            let revealed = wordle_tree::game::hard::Revealed::default().after(word, feedback);
            let t = Instant::now();
            wordle_tree::players::play::solve_off_tree(
                game,
                &bucket,
                wordle_tree::game::GAME_LIMIT - 1,
                &revealed,
                ctx.hard,
                ctx.stop,
                None,
            )?;
            let secs = t.elapsed().as_secs_f64();
            times.push(secs);
            if secs > 1.0 {
                over.push(format!(
                    "{name}:{feedback} ({} candidates) {secs:.2} s",
                    bucket.len()
                ));
            }
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
        let within = times.iter().filter(|&&t| t <= 1.0).count();
        outln!(
            "answered exactly within 1 s: {within} of {} states ({:.2}%)",
            times.len(),
            100.0 * within as f64 / times.len() as f64
        );
        for line in &over {
            outln!("  over 1 s: {line}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// CPU seconds used so far by this process, every thread (user + system).
fn cpu_seconds() -> f64 {
    #[cfg(unix)]
    {
        // SAFETY: getrusage only writes the struct it is given.
        let mut u: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) } == 0 {
            let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
            return tv(u.ru_utime) + tv(u.ru_stime);
        }
    }
    0.0
}

/// `count; median, p90, p99, max` of wall and CPU seconds, in ms.
fn spread(label: &str, mut times: Vec<(f64, f64)>) -> String {
    if times.is_empty() {
        return format!("{label}: no games");
    }
    let q = |v: &[f64], p: f64| v[((v.len() - 1) as f64 * p).round() as usize] * 1e3;
    let mut wall: Vec<f64> = times.iter().map(|t| t.0).collect();
    wall.sort_by(f64::total_cmp);
    times.sort_by(|a, b| a.1.total_cmp(&b.1));
    let cpu: Vec<f64> = times.iter().map(|t| t.1).collect();
    let line = |v: &[f64]| {
        format!(
            "median {:.1}, p90 {:.1}, p99 {:.1}, max {:.1}",
            q(v, 0.5),
            q(v, 0.9),
            q(v, 0.99),
            q(v, 1.0)
        )
    };
    format!(
        "{label}: {} games; wall ms {}; CPU ms {}",
        wall.len(),
        line(&wall),
        line(&cpu)
    )
}

/// `bench --review`: games played by the entropy player from each opener, each
/// reviewed from scratch (the tree and lists loaded once, as a server does; a `review`
/// process adds its start-up, ~3 ms), timed.
fn review(ctx: &Ctx, openers: &str, sample: Option<usize>, seed: u64) -> Result<ExitCode> {
    use wordle_tree::analysis::{choose, Metric};
    use wordle_tree::game::feedback::Feedback;
    use wordle_tree::game::hard::Revealed;
    use wordle_tree::players::play::Step;
    use wordle_tree::players::review::{self, BestSource, Options};
    let game = ctx.game;
    let table = FeedbackTable::build(game);
    let (tree, path) = super::next::load_tree_or_shipped(ctx, None)?;
    // As `review` does: an opener's exact total comes from the opener table when it has it.
    let openers_table = super::opener_table(ctx)?;
    let answers: Vec<usize> = match sample {
        Some(n) => super::seeded_sample(game.n_answers(), n, seed),
        None => (0..game.n_answers()).collect(),
    };
    outln!(
        "review spread: {} answers, {} mode, tree {}, opener table {}, the entropy player after each opener",
        answers.len(),
        mode_name(ctx.hard),
        path.display(),
        openers_table
            .as_ref()
            .map_or("none".to_string(), |(_, p)| p.display().to_string())
    );
    let (mut on_all, mut off_all) = (Vec::new(), Vec::new());
    for name in openers.split(',').map(str::trim).filter(|w| !w.is_empty()) {
        let opener = allowed_guess(game, name, "opener")?;
        let (mut on, mut off) = (Vec::new(), Vec::new());
        for &a in &answers {
            let answer = game.answers[a];
            let mut ids: Vec<AnswerId> = game.all_answer_ids();
            let mut revealed = Revealed::default();
            let mut steps = Vec::new();
            let mut g = opener;
            loop {
                let word = game.guesses[g.index()];
                let f = Feedback::compute(word, answer);
                steps.push(Step {
                    guess: g,
                    feedback: f,
                });
                if f.is_all_green() || steps.len() >= 12 {
                    break;
                }
                ids.retain(|&c| Feedback::compute(word, game.answers[c.index()]) == f);
                revealed = revealed.after(word, f);
                g = choose(
                    game,
                    &table,
                    Metric::Entropy,
                    &ids,
                    ctx.hard.then_some(&revealed),
                );
            }
            let (t, c) = (Instant::now(), cpu_seconds());
            let r = review::review(
                game,
                Some(&tree),
                ctx.hard,
                tree.max_guesses(),
                &steps,
                ctx.stop,
                Options {
                    tree_optimal: true,
                    opener_table: openers_table.as_ref().map(|(t, _)| t),
                    ..Options::default()
                },
            )?;
            let time = (t.elapsed().as_secs_f64(), cpu_seconds() - c);
            if r.steps.iter().any(|s| s.best_source == BestSource::Solver) {
                off.push(time);
            } else {
                on.push(time);
            }
        }
        outln!("{}", spread(&format!("{name}, on the tree"), on.clone()));
        outln!("{}", spread(&format!("{name}, off the tree"), off.clone()));
        on_all.extend(on);
        off_all.extend(off);
    }
    outln!("{}", spread("all openers, on the tree", on_all));
    outln!("{}", spread("all openers, off the tree", off_all));
    Ok(ExitCode::SUCCESS)
}

/// `bench`'s options.
#[derive(clap::Args, Debug)]
pub(super) struct BenchArgs {
    /// Also run the slower reference solves (trace, hard salet).
    #[arg(long)]
    full: bool,
    /// Instead, time `next`'s exact off-tree solve of every state one guess in from
    /// these openers (comma-separated words, or `random` with --sample N: N openers
    /// drawn with --seed; with --hard the hard-mode states): the slowest state of
    /// each opener, the spread, and the share answered within 1 s.
    #[arg(long, value_name = "OPENERS")]
    off_tree: Option<String>,
    /// Instead, time `review` over many games: each answer (or --sample of them)
    /// played from each of these openers (comma-separated) by the entropy player,
    /// then reviewed as `review` does (shipped tree, no time limit); the spread of
    /// wall and CPU time per review, on-tree and off-tree games apart.
    #[arg(long, value_name = "OPENERS", conflicts_with = "off_tree")]
    review: Option<String>,
    /// With --review: a seeded sample of this many answers (default: every answer);
    /// with --off-tree random: this many openers.
    #[arg(long, value_name = "N")]
    sample: Option<usize>,
    /// With --sample: the sample's seed.
    #[arg(long, default_value_t = 1, requires = "sample")]
    seed: u64,
}

/// `bench`: the reference figures ([`reference`], `--full` for the slow solves), or
/// the timing of states off the tree (`--off-tree`) or of reviews (`--review`).
pub(super) fn run(ctx: &Ctx, args: &BenchArgs) -> Result<ExitCode> {
    match (&args.off_tree, &args.review) {
        (Some(openers), _) => off_tree(ctx, openers, args.sample, args.seed),
        (None, Some(openers)) => review(ctx, openers, args.sample, args.seed),
        (None, None) if args.sample.is_some() => {
            bail!("--sample goes with --off-tree random or --review")
        }
        (None, None) => reference(ctx, args.full),
    }
}

/// The fixed benchmark: the table build, `rank` by every metric, the reference solves
/// (`full`: trace and hard salet too), `check` phase by phase, peak memory.
fn reference(ctx: &Ctx, full: bool) -> Result<ExitCode> {
    let game = ctx.game;
    outln!(
        "SIMD path: {} (WORDLE_TREE_SIMD)",
        wordle_tree::game::table::Simd::current().name()
    );
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
            "solve {opener} ({}): total {total} in {:.3} s; states {}; expansions {}; dominated {}; scanned pairs {}; transposition hit rate {:.1}%; transposition table {} entries",
            mode_name(hard),
            t.elapsed().as_secs_f64(),
            c.states,
            c.expansions,
            c.dominated,
            c.scanned,
            100.0 * c.hit_rate(),
            solver.transposition_size().0
        );
    }
    // `check --opener salet --max-guesses 5`, phase by phase.
    for depth in [5u8, 4] {
        let g = allowed_guess(game, "salet", "opener")?;
        let t = Instant::now();
        let solver = wordle_tree::jobs::check::within_solver(game, &table, depth, false, ctx.stop);
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
