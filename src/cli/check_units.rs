//! `check --opener W --max-guesses D --results DIR`: one depth claim kept unit by unit
//! (see `wordle_tree::jobs::proof`, objective `within D`): the run (`--shard i/n`), its
//! progress line and time estimate, the early stop once a unit is infeasible, and the
//! verdict (`--merge`, or at the end of a run): PROVED with the assembled witness tree
//! (replayed, written atomically with `--out`), REFUTED naming an infeasible unit
//! (exit 1), or the missing units listed (exit 2, nothing written).

use super::jobs::{Units, UnitsEnd};
use super::{describe, Ctx};
use anyhow::{bail, Result};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;
use wordle_tree::game::table::FeedbackTable;
use wordle_tree::game::GuessId;
use wordle_tree::jobs::proof::{self, Outcome, Plan, Verdict};
use wordle_tree::search::{Config, Objective, Solver};
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
    let units = Units::new(&plan, &table, a.results, a.shard, a.merge);
    let config = Config {
        objective: Objective::feasibility(),
        ..super::search_config(ctx, a.depth, a.memory)?
    };
    let solver = Solver::new(game, &table, config).with_stop(ctx.stop);
    let (scan, unsearched) = match units.run(ctx, &solver)? {
        UnitsEnd::Stopped(code) => return Ok(code),
        UnitsEnd::Pending => return Ok(ExitCode::SUCCESS),
        UnitsEnd::Merge { scan, unsearched } => (scan, unsearched),
    };
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
            outln!(
                "evidence: unit {unit}: after {opener}:{} the {} candidates cannot all be found within {} more guess(es): {}",
                u.key.feedback,
                u.ids.len(),
                u.left,
                super::jobs::evidence_words(game, &u.ids)
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
        Verdict::Missing { keys, .. } => units.missing(&keys, "no verdict and no tree written"),
        Verdict::AtLeast { .. } => bail!("internal error: a depth claim has no cutoff"),
    }
}
