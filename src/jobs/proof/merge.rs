//! The merge of a proof's unit files into its verdict ([`merge`], [`Verdict`]).
//!
//! Owns: what may be concluded from the records. Under the total objective the
//! opener's cost is `here + sum over units of cost(unit)`, so `here + sum of the
//! units' bounds` is always a valid lower bound of the opener; when it reaches the
//! cutoff `N` the verdict is "costs at least N". Under `within D` one infeasible unit
//! refutes the claim, whatever the others hold.
//!
//! Invariants: PROVED (the exact optimum, or a witness within the claim) only when
//! every unit is exact (feasible); a total at or above `N` reached with every unit
//! exact is still exact. The tree is the opener with every unit's subtree under its
//! feedback, and it is replayed answer by answer (with the reference feedback) before
//! it is returned: an assembled tree that does not replay is an internal error, never
//! a verdict.
//!
//! Trade-off: the merge replays the whole assembled tree (one walk per answer) rather
//! than trusting the sum of the units' recorded costs: cheap next to any unit's
//! search, and a fault in the assembly can never become a verdict.

use super::outcome::{Goal, Outcome, ProofError, Record};
use super::plan::Plan;
use super::unit_file::Scan;
use crate::game::feedback::Feedback;
use crate::game::Game;
use crate::tree::{Node, Tree};

/// The verdict of a merge.
#[derive(Debug)]
pub enum Verdict {
    /// Every unit exact ([`Goal::Total`]: the optimal tree and its total) or feasible
    /// ([`Goal::Within`]: a witness tree within the claim and its total); replayed.
    Proved { total: u64, tree: Tree },
    /// Proved: the opener costs at least `bound`, which reaches the cutoff.
    AtLeast { bound: u64, cutoff: u64 },
    /// Some unit has no tree within the guess limit (for [`Goal::Within`], the
    /// smallest such unit recorded: the claim is refuted).
    Infeasible { unit: String },
    /// Units missing (not done, or damaged), listed by key, and the bound so far (0
    /// for [`Goal::Within`], which has no bound).
    Missing { keys: Vec<String>, bound: u64 },
}

/// Assembles the whole result from the records: a tree only when every unit is exact
/// (feasible, for [`Goal::Within`]), replayed answer by answer (with the reference
/// feedback) before it is returned.
pub fn merge(game: &Game, plan: &Plan, scan: &Scan) -> Result<Verdict, ProofError> {
    if plan.identity.goal == Goal::Within {
        return merge_within(game, plan, scan);
    }
    let bound = plan.here
        + (0..plan.units.len())
            .map(|i| {
                let cheap = plan.units[i].cheap_bound;
                scan.done
                    .get(&i)
                    .map_or(cheap, |r| r.outcome.bound().max(cheap))
            })
            .sum::<u64>();
    if let Some((i, _)) = scan
        .done
        .iter()
        .find(|(_, r)| r.outcome == Outcome::Infeasible)
    {
        return Ok(Verdict::Infeasible {
            unit: plan.units[*i].key.text(),
        });
    }
    let all_exact = (0..plan.units.len()).all(|i| {
        matches!(
            scan.done.get(&i),
            Some(Record {
                outcome: Outcome::Exact(..),
                ..
            })
        )
    });
    if !all_exact {
        if let Some(n) = plan.identity.cutoff.filter(|&n| bound >= n) {
            return Ok(Verdict::AtLeast { bound, cutoff: n });
        }
        let mut keys: Vec<String> = (0..plan.units.len())
            .filter(|i| !scan.done.contains_key(i))
            .map(|i| plan.units[i].key.text())
            .collect();
        if keys.is_empty() {
            // Every unit recorded, some only bounded, and the bounds do not reach the
            // cutoff (bounds recorded by runs that knew less): redo those units.
            keys = scan
                .done
                .iter()
                .filter(|(_, r)| matches!(r.outcome, Outcome::AtLeast(_)))
                .map(|(i, _)| plan.units[*i].key.text() + " (bounded only)")
                .collect();
        }
        return Ok(Verdict::Missing { keys, bound });
    }
    let tree = assemble(game, plan, scan)?;
    let replay = tree.verify(game);
    if !replay.is_valid() || replay.total() != bound {
        return Err(ProofError::Internal(
            "merge".into(),
            format!(
                "the assembled tree does not replay ({:?}; total {} vs {bound})",
                replay.problems.first(),
                replay.total()
            ),
        ));
    }
    Ok(Verdict::Proved { total: bound, tree })
}

/// [`merge`] for [`Goal::Within`]: REFUTED by any infeasible unit (the smallest is
/// named, the plainest evidence), PROVED when every unit is feasible.
fn merge_within(game: &Game, plan: &Plan, scan: &Scan) -> Result<Verdict, ProofError> {
    if let Some((i, _)) = scan
        .done
        .iter()
        .filter(|(_, r)| r.outcome == Outcome::Infeasible)
        .min_by_key(|(i, _)| (plan.units[**i].ids.len(), plan.units[**i].key.clone()))
    {
        return Ok(Verdict::Infeasible {
            unit: plan.units[*i].key.text(),
        });
    }
    let keys: Vec<String> = (0..plan.units.len())
        .filter(|i| !scan.done.contains_key(i))
        .map(|i| plan.units[i].key.text())
        .collect();
    if !keys.is_empty() {
        return Ok(Verdict::Missing { keys, bound: 0 });
    }
    let tree = assemble(game, plan, scan)?;
    let replay = tree.verify(game);
    if !replay.is_valid() || replay.max_depth() > plan.identity.max_guesses as u32 {
        return Err(ProofError::Internal(
            "merge".into(),
            format!(
                "the assembled tree does not replay within {} guesses ({:?}; max depth {})",
                plan.identity.max_guesses,
                replay.problems.first(),
                replay.max_depth()
            ),
        ));
    }
    Ok(Verdict::Proved {
        total: replay.total(),
        tree,
    })
}

/// The opener with every unit's subtree under its feedback (every unit must be
/// exact or feasible), as a tree of the plan's game, mode and limit.
fn assemble(game: &Game, plan: &Plan, scan: &Scan) -> Result<Tree, ProofError> {
    let mut branches: Vec<(Feedback, Node)> = Vec::with_capacity(plan.units.len());
    for (i, unit) in plan.units.iter().enumerate() {
        match scan.done.get(&i).map(|r| &r.outcome) {
            Some(Outcome::Exact(_, node) | Outcome::Feasible(node)) => {
                branches.push((unit.key.feedback, node.clone()))
            }
            other => {
                return Err(ProofError::Internal(
                    unit.key.text(),
                    format!("assembled without a subtree ({other:?})"),
                ))
            }
        }
    }
    branches.sort_by_key(|(f, _)| *f);
    let root = Node {
        guess: plan.opener,
        branches,
    };
    Tree::new(game, plan.identity.hard, plan.identity.max_guesses, root).map_err(|e| {
        ProofError::Internal(
            "merge".into(),
            format!("the assembled tree is invalid: {e}"),
        )
    })
}
