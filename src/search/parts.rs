//! The least total of independent states under a cutoff ([`Solver::parts_cost`]):
//! a fixed cost `here` plus the exact cost of each part, each part searched on its
//! own (its candidates, guesses left and what hard mode revealed). A fixed two-word
//! start (`crate::analysis::pair`) is such a sum, one part per pair of feedbacks.
//!
//! [`Solver::opener_cost`] is this sum, one part per bucket of the opener (`here`
//! the opener's own node cost). Two rounds: round 1 scans
//! every part, largest first (the scan settles small parts exactly and raises a
//! large one's bound from `2m - 1` to the least per-guess bound), stopping as soon
//! as the sum of bounds reaches the cutoff; round 2 searches the parts left,
//! smallest first, each with the slack the others' bounds leave. Serial, so a caller
//! runs many sums in parallel instead; the transposition table is shared with every
//! other call on the solver, so parts met again (a subset of the same bucket under
//! another second guess) are settled from it.
//!
//! Invariants: `Exact(v)` is the exact sum when it is below the cutoff; otherwise
//! `AtLeast(lb)` with `lb >= cutoff` a proved lower bound. A value at least
//! [`INFEASIBLE`], whichever the variant, means some part cannot be finished in its
//! guesses; so the cutoff is never above [`INFEASIBLE`] (no cutoff means that one),
//! and both rounds stop at the first part found infeasible instead of solving the
//! others exactly. Measured (2023 NYT lists, hard mode, `openers --exact`, one
//! thread, avx512): `loess` 183 -> 0.8 CPU-s, `areas` 67 -> 0.4; of a random 30 of
//! the openers the hard table had left, the 15 that cannot finish 41.5 -> 16.6
//! (docs/guide/performance.md). Tested
//! through `analysis::pair` against brute force, and through `openers --exact` in hard
//! mode with the feasibility pre-pass off, against brute force (the integration test
//! `openers::exact_hard_outcomes_match_brute_force_under_any_feasibility_budget`).

use super::bound::INFEASIBLE;
use super::scan::Scanned;
use super::state::State;
use super::{OpenerCost, SolveError, Solver};
use crate::game::hard::Revealed;
use crate::game::AnswerId;

/// One independent state of a sum: its candidates (sorted), guesses left, and what
/// hard mode revealed before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    pub ids: Vec<AnswerId>,
    pub left: u8,
    pub revealed: Revealed,
}

/// What [`Solver::parts_cost`] proved, and how far it went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartsCost {
    pub cost: OpenerCost,
    /// True when round 2 searched some part (false: the scans alone settled it).
    pub searched: bool,
}

impl Solver<'_> {
    /// `here` plus the least cost of every part if below `cutoff` (`None`: none),
    /// else a proved lower bound `>= cutoff` (module doc).
    pub fn parts_cost(
        &self,
        here: u64,
        parts: &[Part],
        cutoff: Option<u64>,
    ) -> Result<PartsCost, SolveError> {
        let inf = INFEASIBLE as u64;
        // A sum at INFEASIBLE is settled whatever the cutoff (some part cannot finish),
        // so both rounds stop there: an opener with one infeasible bucket is not
        // solved exactly in its other buckets.
        let cutoff = cutoff.map_or(inf, |c| c.min(inf));
        let obj = &self.config.objective;
        if parts.iter().any(|p| p.left == 0 && !p.ids.is_empty()) {
            return Ok(PartsCost {
                cost: OpenerCost::AtLeast(inf),
                searched: false,
            });
        }
        let mut order: Vec<usize> = (0..parts.len()).collect();
        order.sort_by_key(|&i| parts[i].ids.len());
        let mut bounds: Vec<u64> = order
            .iter()
            .map(|&i| {
                let p = &parts[i];
                obj.size_bound(p.ids.len(), obj.counted(&p.ids), p.left) as u64
            })
            .collect();
        let mut exact = vec![false; order.len()];
        let left = parts.iter().map(|p| p.left).max().unwrap_or(1);
        let mut sc = self.pool.lend(left, self.tt.scratch());
        let state = |k: usize| {
            let p = &parts[order[k]];
            State {
                ids: &p.ids,
                left: p.left,
                revealed: p.revealed,
                handed: self.everything(),
            }
        };
        // Round 1, largest first: the scans alone.
        for k in (0..order.len()).rev() {
            if here + bounds.iter().sum::<u64>() >= cutoff {
                break;
            }
            match self.scan(&state(k), INFEASIBLE, &mut sc.work()) {
                Scanned::Done(v, _) => {
                    bounds[k] = v as u64;
                    exact[k] = v < INFEASIBLE;
                }
                Scanned::Expand(p) => bounds[k] = bounds[k].max(p.lb as u64),
                Scanned::Below(_) => unreachable!("only a least-bound scan stops below"),
            }
        }
        // Round 2, smallest first: each part exactly, with the slack the others leave.
        let mut acc = here
            + (0..order.len())
                .filter(|&k| exact[k])
                .map(|k| bounds[k])
                .sum::<u64>();
        let mut rest: u64 = (0..order.len())
            .filter(|&k| !exact[k])
            .map(|k| bounds[k])
            .sum();
        let mut searched = false;
        for k in 0..order.len() {
            if acc + rest >= cutoff {
                break;
            }
            if exact[k] {
                continue;
            }
            searched = true;
            rest -= bounds[k];
            let part_cutoff = (cutoff - acc - rest).min(inf) as u32;
            let (v, _) = self.search(&state(k), part_cutoff, &mut sc.work());
            acc += v as u64;
        }
        drop(sc);
        self.check_stop()?;
        let cost = if acc + rest >= cutoff {
            OpenerCost::AtLeast(acc + rest)
        } else {
            OpenerCost::Exact(acc)
        };
        Ok(PartsCost { cost, searched })
    }
}
