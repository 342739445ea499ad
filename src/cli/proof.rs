//! `solve --results DIR`: one opener's proof kept unit by unit (see
//! `wordle_tree::jobs::proof`): the run (`--shard i/n`, `--cutoff N`), its progress line and
//! time estimate, and the merge (`--merge`, or automatically once every unit is done).

use super::bench::peak_memory_mib;
use super::{describe, histogram_text, Ctx};
use anyhow::{bail, Context, Result};
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Instant;
use wordle_tree::game::table::FeedbackTable;
use wordle_tree::game::GuessId;
use wordle_tree::jobs::openers::Shard;
use wordle_tree::jobs::proof::{self, Plan, Status, Verdict};
use wordle_tree::search::{Config, SolveError, Solver};
use wordle_tree::store::results::write_atomic;
use wordle_tree::tree::{file, text};

/// Options of `solve --results`.
pub(super) struct Args<'a> {
    pub opener: GuessId,
    pub max_guesses: u8,
    pub out: Option<&'a Path>,
    pub text: Option<&'a Path>,
    pub memory: usize,
    pub results: &'a Path,
    pub shard: Option<Shard>,
    pub merge: bool,
    pub cutoff: Option<u64>,
    pub audit: Option<Audit>,
}

/// The solver of a proof's units (the run's, and the audit's).
fn solver_config(ctx: &Ctx, a: &Args) -> Result<Config> {
    Ok(Config {
        max_guesses: a.max_guesses,
        hard: ctx.hard,
        memory_limit: super::memory_bytes(a.memory)?,
        ..Config::default()
    })
}

/// `--merge --audit N [--audit-seed S] [--audit-shard I/N]`: which units to re-solve.
pub(super) struct Audit {
    pub sample: usize,
    pub seed: u64,
    pub shard: Option<Shard>,
}

/// Re-solves the audited units of a finished scan and compares them with their files
/// (see `proof::audit`); an error names every unit that disagrees.
pub(super) fn run_audit(
    ctx: &Ctx,
    solver: &Solver,
    table: &FeedbackTable,
    plan: &Plan,
    results: &Path,
    scan: &proof::Scan,
    audit: &Audit,
) -> Result<()> {
    let done: Vec<usize> = scan.done.keys().copied().collect();
    let mut picks: Vec<usize> = super::seeded_sample(done.len(), audit.sample, audit.seed)
        .into_iter()
        .map(|k| done[k])
        .collect();
    if let Some(s) = audit.shard {
        picks.extend(plan.shard(s.index, s.count));
    }
    picks.sort_unstable();
    picks.dedup();
    let t = Instant::now();
    let found = proof::audit(solver, table, plan, scan, &picks, ctx.stop)?;
    let wrong: Vec<String> = found
        .iter()
        .filter(|a| !a.agrees)
        .map(|a| format!("{} (file: {}, re-solved: {})", a.key, a.claimed, a.found))
        .collect();
    outln!(
        "audit: {} units re-solved from scratch in {:.1} s; {} agree with their files",
        found.len(),
        t.elapsed().as_secs_f64(),
        found.len() - wrong.len()
    );
    if !wrong.is_empty() {
        bail!(
            "{}: audit failed, no verdict: {} unit(s) disagree with their files: {}",
            results.display(),
            wrong.len(),
            wrong.join(", ")
        );
    }
    Ok(())
}

pub(super) fn eta(seconds: f64) -> String {
    let s = seconds.round() as u64;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// Warns of the damaged unit files (redone, or counted as missing by `--merge`) and
/// the stray files a units directory holds.
pub(super) fn warn_scan(scan: &proof::Scan, merge: bool) {
    for (path, why) in &scan.damaged {
        errln!(
            "warning: {}: damaged unit file ({why}); {}",
            path.display(),
            if merge {
                "counted as missing"
            } else {
                "it is redone"
            }
        );
    }
    for (path, why) in &scan.strays {
        errln!(
            "warning: {}: not a unit file of this proof ({why}); ignored",
            path.display()
        );
    }
}

/// The time left of a units run (`solve --results`, `check --results`): this run's
/// seconds per candidate so far, times the candidates left (a rough guide: large
/// units cost more per candidate).
pub(super) struct TimeLeft {
    started: Instant,
    /// Candidates already done when the first status came (units of earlier runs).
    first: std::sync::Mutex<Option<u64>>,
}

impl TimeLeft {
    pub(super) fn new() -> TimeLeft {
        TimeLeft {
            started: Instant::now(),
            first: std::sync::Mutex::new(None),
        }
    }

    /// Wall seconds since the run started.
    pub(super) fn seconds(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    /// `H:MM:SS`, or `-` before this run has finished a unit.
    pub(super) fn estimate(&self, st: &Status) -> String {
        let mut first = self.first.lock().unwrap();
        let base = *first.get_or_insert(st.mine_candidates_done);
        let solved = st.mine_candidates_done - base;
        let left = st.mine_candidates - st.mine_candidates_done;
        if solved > 0 {
            eta(self.started.elapsed().as_secs_f64() / solved as f64 * left as f64)
        } else {
            "-".into()
        }
    }
}

pub(super) fn run(ctx: &Ctx, a: Args) -> Result<ExitCode> {
    let game = ctx.game;
    let t = Instant::now();
    let table = FeedbackTable::build(game);
    let plan = Plan::new(game, &table, a.opener, ctx.hard, a.max_guesses, a.cutoff)?;
    outln!(
        "proof: opener {}, {}, at most {} guesses; cutoff {}; {} units (largest {} candidates); results in {}",
        plan.identity.opener,
        describe(game, ctx.hard),
        a.max_guesses,
        a.cutoff.map_or("none".into(), |c| c.to_string()),
        plan.units.len(),
        plan.units.first().map_or(0, |u| u.ids.len()),
        a.results.display()
    );
    let mut scan = proof::scan_dir(game, &table, &plan, a.results)?;
    warn_scan(&scan, a.merge);
    let mut interrupted = false;
    if !a.merge {
        let shard = a.shard.unwrap_or(Shard::ALL);
        let todo = plan.shard(shard.index, shard.count);
        let before = todo.iter().filter(|i| scan.done.contains_key(i)).count();
        outln!(
            "shard {}/{}: {} units, {} already done, {} to do",
            shard.index,
            shard.count,
            todo.len(),
            before,
            todo.len() - before
        );
        let solver = Solver::new(game, &table, solver_config(ctx, &a)?).with_stop(ctx.stop);
        let bar = super::progress_bar(ctx.quiet, "proof");
        let time_left = TimeLeft::new();
        let show = |st: &Status| {
            let estimate = time_left.estimate(st);
            let line = format!(
                "units {}/{} (this run {}/{}), bound {}, time left ~{estimate}",
                st.done, st.units, st.mine_done, st.mine, st.bound
            );
            let working = st.working.as_ref().map(|w| {
                let best = w
                    .best
                    .map_or("none yet".into(), |(g, v)| format!("{g} {v}"));
                format!(
                    "unit {} in progress: {} second guesses settled, best so far {best}",
                    w.key, w.settled
                )
            });
            if ctx.quiet {
                if let Some((key, result, s)) = &st.last {
                    errln!("unit {key}: {result} ({s:.1} s); {line}");
                } else if let Some(w) = &working {
                    errln!("{w}; {line}");
                }
            } else if let Some(w) = working {
                bar.set_message(format!("{w}; {line}"));
            } else {
                bar.set_length(st.mine_candidates);
                bar.set_position(st.mine_candidates_done);
                bar.set_message(line);
            }
        };
        let result = proof::run_units(
            &solver, &table, &plan, a.results, &mut scan, &todo, ctx.stop, &show,
        );
        bar.finish_and_clear();
        match result {
            Err(proof::ProofError::Solve(SolveError::Interrupted)) => interrupted = true,
            r => r?,
        }
        let done_here = todo.iter().filter(|i| scan.done.contains_key(i)).count() - before;
        let c = solver.counters();
        outln!(
            "this run: {done_here} units solved in {:.1} s wall; states searched {}; table hits {} of {} probes ({:.1}%)",
            time_left.seconds(),
            c.states,
            c.hits,
            c.probes,
            100.0 * c.hit_rate()
        );
        if let Some(m) = peak_memory_mib() {
            outln!("peak memory {m:.0} MiB");
        }
        if interrupted || ctx.stop.load(Ordering::Relaxed) {
            errln!(
                "interrupted: the units finished are saved in {}; rerun the same command to resume",
                a.results.display()
            );
            return Ok(ExitCode::from(130));
        }
        // Other shards may have finished meanwhile.
        scan = proof::scan_dir(game, &table, &plan, a.results)?;
        if a.shard.is_some() {
            if let Verdict::Missing { keys, bound } = proof::merge(game, &plan, &scan)? {
                outln!(
                    "units done {} of {}; bound so far {bound}; {} left to other shards: run `solve --merge` with the same options once every shard has finished",
                    plan.units.len() - keys.len(),
                    plan.units.len(),
                    keys.len()
                );
                return Ok(ExitCode::SUCCESS);
            }
        }
    }
    if let Some(audit) = &a.audit {
        let solver = Solver::new(game, &table, solver_config(ctx, &a)?).with_stop(ctx.stop);
        run_audit(ctx, &solver, &table, &plan, a.results, &scan, audit)?;
    }
    match proof::merge(game, &plan, &scan)? {
        Verdict::Proved { total, tree } => {
            let replay = tree.verify(game);
            outln!(
                "PROVED: opener {}, total {total} guesses, average {:.4} (optimal: every one of the {} units exact; the tree replays every answer)",
                plan.identity.opener,
                total as f64 / game.n_answers() as f64,
                plan.units.len()
            );
            outln!("histogram {}", histogram_text(&replay.histogram()));
            outln!("max depth {}", replay.max_depth());
            if let Some(path) = a.out {
                file::save(&tree, path)?;
                outln!("tree written to {}", path.display());
            }
            if let Some(path) = a.text {
                let lines = text::paths(game, &table, &tree);
                write_atomic(path, (lines.join("\n") + "\n").as_bytes())
                    .with_context(|| format!("{}: cannot write", path.display()))?;
                outln!("paths written to {}", path.display());
            }
            outln!("time {:.3} s", t.elapsed().as_secs_f64());
            Ok(ExitCode::SUCCESS)
        }
        Verdict::AtLeast { bound, cutoff } => {
            outln!(
                "AT LEAST: opener {} costs at least {bound} guesses, so at least the cutoff {cutoff} (not every unit solved exactly; no tree written)",
                plan.identity.opener
            );
            Ok(ExitCode::SUCCESS)
        }
        Verdict::Infeasible { unit } => bail!(
            "no tree from {} finds every answer within {} guesses (unit {unit} cannot be finished)",
            plan.identity.opener,
            a.max_guesses
        ),
        Verdict::Missing { keys, bound } => {
            const SHOWN: usize = 30;
            let more = if keys.len() > SHOWN {
                format!(" ... and {} more", keys.len() - SHOWN)
            } else {
                String::new()
            };
            bail!(
                "{}: {} of {} units missing, no tree written (bound so far {bound}): {}{more}",
                a.results.display(),
                keys.len(),
                plan.units.len(),
                keys[..keys.len().min(SHOWN)].join(", ")
            )
        }
    }
}
