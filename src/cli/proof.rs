//! `solve --results DIR`: one opener's proof kept unit by unit (see
//! `wordle_tree::jobs::proof`): the run (`--shard i/n`, `--cutoff N`), its progress line and
//! time estimate, and the merge (`--merge`, or automatically once every unit is done).

use super::jobs::{Units, UnitsEnd};
use super::{describe, histogram_text, Ctx};
use anyhow::{bail, Context, Result};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;
use wordle_tree::game::table::FeedbackTable;
use wordle_tree::game::GuessId;
use wordle_tree::jobs::proof::{self, Plan, Verdict};
use wordle_tree::search::Solver;
use wordle_tree::store::results::write_atomic;
use wordle_tree::store::results::Shard;
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
    let units = Units::new(&plan, &table, a.results, a.shard, a.merge);
    let solver = Solver::new(
        game,
        &table,
        super::search_config(ctx, a.max_guesses, a.memory)?,
    )
    .with_stop(ctx.stop);
    let scan = match units.run(ctx, &solver)? {
        UnitsEnd::Stopped(code) => return Ok(code),
        UnitsEnd::Pending => return Ok(ExitCode::SUCCESS),
        UnitsEnd::Merge { scan, .. } => scan,
    };
    if let Some(audit) = &a.audit {
        let solver = Solver::new(
            game,
            &table,
            super::search_config(ctx, a.max_guesses, a.memory)?,
        )
        .with_stop(ctx.stop);
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
            units.missing(&keys, &format!("no tree written (bound so far {bound})"))
        }
    }
}
