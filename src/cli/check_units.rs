//! `check --opener W --max-guesses D --results DIR`: one depth claim kept unit by unit
//! (see `wordle_tree::jobs::proof`, objective `within D`): the run (`--shard i/n`), its
//! progress line and time estimate, the early stop once a unit is infeasible, and the
//! verdict (`--merge`, or at the end of a run): PROVED with the assembled witness tree
//! (replayed, written atomically with `--out`), REFUTED naming an infeasible unit
//! (exit 1), or the missing units listed (exit 2, nothing written).

use super::bench::peak_memory_mib;
use super::{describe, Ctx};
use anyhow::{bail, Result};
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Instant;
use wordle_tree::game::table::FeedbackTable;
use wordle_tree::game::GuessId;
use wordle_tree::jobs::proof::{self, Outcome, Plan, Status, Verdict};
use wordle_tree::search::{Config, Objective, SolveError, Solver};
use wordle_tree::store::results::Shard;
use wordle_tree::tree::file;
use wordle_tree::tree::histogram_text;

/// Options of `check --opener W --max-guesses D --results DIR`.
pub(super) struct Args<'a> {
    pub opener: GuessId,
    pub depth: u8,
    pub out: Option<&'a Path>,
    pub memory: usize,
    pub results: &'a Path,
    pub shard: Option<Shard>,
    pub merge: bool,
}

pub(super) fn run(ctx: &Ctx, a: Args) -> Result<ExitCode> {
    let game = ctx.game;
    let t = Instant::now();
    let table = FeedbackTable::build(game);
    let plan = Plan::within(game, &table, a.opener, ctx.hard, a.depth)?;
    let opener = plan.identity.opener;
    let what = format!("{}; opener {opener}", describe(game, ctx.hard));
    outln!(
        "check: opener {opener}, every answer within {} guesses, {}; {} units (largest {} candidates); results in {}",
        a.depth,
        describe(game, ctx.hard),
        plan.units.len(),
        plan.units.first().map_or(0, |u| u.ids.len()),
        a.results.display()
    );
    let mut scan = proof::scan_dir(game, &table, &plan, a.results)?;
    super::proof::warn_scan(&scan, a.merge);
    let mut unsearched = 0;
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
        let config = Config {
            max_guesses: a.depth,
            hard: ctx.hard,
            memory_limit: super::memory_bytes(a.memory)?,
            objective: Objective::feasibility(),
            ..Config::default()
        };
        let solver = Solver::new(game, &table, config).with_stop(ctx.stop);
        let bar = super::progress_bar(ctx.quiet, "check");
        let time_left = super::proof::TimeLeft::new();
        let show = |st: &Status| {
            let estimate = time_left.estimate(st);
            let line = format!(
                "units {}/{} (this run {}/{}), candidates {}/{}, time left ~{estimate}",
                st.done,
                st.units,
                st.mine_done,
                st.mine,
                st.mine_candidates_done,
                st.mine_candidates
            );
            if ctx.quiet {
                if let Some((key, result, s)) = &st.last {
                    errln!("unit {key}: {result} ({s:.1} s); {line}");
                }
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
        let mut interrupted = false;
        match result {
            Err(proof::ProofError::Solve(SolveError::Interrupted)) => interrupted = true,
            r => r?,
        }
        let done_mine = todo.iter().filter(|i| scan.done.contains_key(i)).count();
        unsearched = todo.len() - done_mine;
        let c = solver.counters();
        outln!(
            "this run: {} units settled in {:.1} s wall; states searched {}; table hits {} of {} probes ({:.1}%)",
            done_mine - before,
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
        // Other shards may have finished (or refuted) meanwhile.
        scan = proof::scan_dir(game, &table, &plan, a.results)?;
        if a.shard.is_some() {
            if let Verdict::Missing { keys, .. } = proof::merge(game, &plan, &scan)? {
                outln!(
                    "units done {} of {}; {} left to other shards: run `check --merge` with the same options once every shard has finished",
                    plan.units.len() - keys.len(),
                    plan.units.len(),
                    keys.len()
                );
                return Ok(ExitCode::SUCCESS);
            }
        }
    }
    match proof::merge(game, &plan, &scan)? {
        Verdict::Proved { tree, .. } => {
            let replay = tree.verify(game);
            outln!(
                "PROVED: from {opener}, every answer is found within {} guesses ({what})",
                a.depth
            );
            outln!(
                "witness tree: total {} guesses, histogram {}, max depth {} (every one of the {} units feasible; the tree replays every answer)",
                replay.total(),
                histogram_text(&replay.histogram()),
                replay.max_depth(),
                plan.units.len()
            );
            if let Some(path) = a.out {
                file::save(&tree, path)?;
                outln!("tree written to {}", path.display());
            }
            outln!("time {:.3} s", t.elapsed().as_secs_f64());
            Ok(ExitCode::SUCCESS)
        }
        Verdict::Infeasible { unit } => {
            outln!(
                "REFUTED: from {opener}, no tree finds every answer within {} guesses ({what})",
                a.depth
            );
            let u = plan
                .units
                .iter()
                .find(|u| u.key.text() == unit)
                .expect("merge names a unit of the plan");
            let words: Vec<String> = u
                .ids
                .iter()
                .take(40)
                .map(|&x| game.answers[x.index()].to_string())
                .collect();
            outln!(
                "evidence: unit {unit}: after {opener}:{} the {} candidates cannot all be found within {} more guess(es): {}{}",
                u.key.feedback,
                u.ids.len(),
                u.left,
                words.join(" "),
                if u.ids.len() > 40 { " ..." } else { "" }
            );
            let settled = scan.done.len();
            if settled < plan.units.len() {
                let infeasible = scan
                    .done
                    .values()
                    .filter(|r| r.outcome == Outcome::Infeasible)
                    .count();
                outln!(
                    "stopped early: {settled} of {} units settled ({infeasible} infeasible){}; one infeasible unit refutes the claim, the others were not needed",
                    plan.units.len(),
                    if unsearched > 0 {
                        format!(", {unsearched} of this run's left unsearched")
                    } else {
                        String::new()
                    }
                );
            }
            outln!("time {:.3} s", t.elapsed().as_secs_f64());
            Ok(ExitCode::from(1))
        }
        Verdict::Missing { keys, .. } => {
            const SHOWN: usize = 30;
            let more = if keys.len() > SHOWN {
                format!(" ... and {} more", keys.len() - SHOWN)
            } else {
                String::new()
            };
            bail!(
                "{}: {} of {} units missing, no verdict and no tree written: {}{more}",
                a.results.display(),
                keys.len(),
                plan.units.len(),
                keys[..keys.len().min(SHOWN)].join(", ")
            )
        }
        Verdict::AtLeast { .. } => bail!("internal error: a depth claim has no cutoff"),
    }
}
