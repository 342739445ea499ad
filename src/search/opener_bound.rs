//! Lower bounds on an opener's total before it is solved, measured against the exact
//! opener tables (`wordle-tree bounds`, docs/guide/bounds.md). New code only: the
//! search's own bounds (`bound.rs`, `scan.rs`) are used, never changed.
//!
//! Write `B` for the opener's non-green buckets, `n` for the answers, `L` for the
//! guesses left after the opener, and `cost(S, l)` for the least cost of the state `S`
//! with `l` guesses left (`mod.rs`: `cost(S, l) = min over g of |S| + sum over the
//! non-green buckets T of g on S of cost(T, l - 1)`). An opener costs exactly
//! `n + sum over b in B of cost(b, L)`, so any admissible bound of each bucket, summed,
//! bounds the opener. Three of them, each at least the one before:
//!
//! * **Estimate** ([`OpenerBounds::estimate`], what `openers` orders by):
//!   `cost(b, L) >= 2|b| - 1` (the size bound, `bound.rs`).
//! * **Scan** ([`OpenerBounds::scan`], what `Solver::opener_cost` proves in its first
//!   round before it searches a bucket): each bucket's scan, the least per-guess bound
//!   `3m - k - c` over every guess (with the head's closed forms, group bound and
//!   transposition table; a bucket the scan settles counts its exact cost).
//! * **Deep** ([`OpenerBounds::deep`]): one more level. For a bucket `b` with `m`
//!   candidates and a guess `g` splitting it into the non-green parts `T`, the cost
//!   through `g` is `m + sum over T of cost(T, L - 1)`, and each `cost(T, L - 1)` is at
//!   least `T`'s own scan bound `s(T)` (the least `3|T| - k' - c'` over every guess
//!   `g'` on `T`, at least `2|T| - 1`). So `d(g) = m + sum_T s(T)` is at most the cost
//!   through `g`, and `min over g of d(g) <= cost(b, L)`.
//!
//!   Computing `d(g)` for every guess costs a scan of each part, so the minimum is
//!   taken best-first: every guess starts at its per-guess bound from `b`'s scan (at
//!   most `d(g)`: it is `d` with each `s(T)` replaced by `2|T| - 1`); the guess with
//!   the least bound is refined to `d(g)` and put back; once the least is a refined
//!   (or exact) one, it is the minimum of `d` over all guesses. Stopped early (at
//!   [`DeepSettings::refine`] refinements, or once the least reaches the bucket's
//!   share of the cutoff) the least bound in the queue is still a lower bound of
//!   every guess, so the result is admissible either way. Guesses the scan leaves
//!   out are covered: the ones splitting `b` exactly like a kept one (normal mode)
//!   cost the same, the ones not splitting it never help, and the rest are counted
//!   by the scan's least rejected bound, kept in the queue as a final entry; a
//!   perfect split's bound is its exact cost. The parts' scans are told the most
//!   parts any guess makes on `b` (a guess never makes more on a subset), which
//!   lets their split bound (`bound.rs`) lift large parts.
//!
//! Invariants: every value is at most the opener's exact total (tests: the brute
//! force of `tests/common` on small random games, both modes; the CLI checks every
//! opener of a complete table and fails if one is not); `estimate <= scan <= deep`.
//!
//! Measured (docs/guide/bounds.md): on the 12972 openers of the original lists the
//! estimate's and the scan's gaps to the truth, and the deep bound's, with the CPU
//! time each costs per opener.

use super::bound::INFEASIBLE;
use super::scan::Scanned;
use super::state::{Guesses, State};
use super::{SolveError, Solver};
use crate::game::candidates::partition;
use crate::game::hard::Revealed;
use crate::game::{AnswerId, GuessId};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// How far [`Solver::opener_bounds`] goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeepSettings {
    /// Stop raising the bound once it reaches this (`None`: raise every bucket as far
    /// as `refine` allows).
    pub cutoff: Option<u64>,
    /// The most guesses refined per bucket (0: no deep bound, it equals the scan's).
    pub refine: usize,
}

/// The three bounds of one opener (module doc), each at most its exact total.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpenerBounds {
    pub estimate: u64,
    pub scan: u64,
    pub deep: u64,
    /// Guesses refined for the deep bound, over all buckets.
    pub refined: u64,
    /// True when every bucket was settled exactly, so `deep` is the exact total.
    pub exact: bool,
}

impl Solver<'_> {
    /// The state of `ids` with every guess allowed (hard mode: by `revealed`).
    fn top_state<'s>(&'s self, ids: &'s [AnswerId], left: u8, revealed: &Revealed) -> State<'s> {
        State {
            ids,
            left,
            revealed: *revealed,
            handed: self.everything(),
        }
    }

    /// The estimate, scan and deep bounds of `opener` (module doc); every value is
    /// [`INFEASIBLE`] or more when some bucket cannot be finished in time.
    pub fn opener_bounds(
        &self,
        opener: GuessId,
        settings: &DeepSettings,
    ) -> Result<OpenerBounds, SolveError> {
        let obj = &self.config.objective;
        let ids: Vec<AnswerId> = self.game.all_answer_ids();
        let left = self.config.max_guesses;
        let word = self.game.guesses[opener.index()];
        let mut buckets: Vec<_> = partition(self.table, opener, &ids)
            .into_iter()
            .filter(|(f, _)| !f.is_all_green())
            .collect();
        let here = obj.node(ids.len(), obj.counted(&ids), left) as u64;
        if left <= 1 && !buckets.is_empty() {
            let inf = INFEASIBLE as u64;
            return Ok(OpenerBounds {
                estimate: inf,
                scan: inf,
                deep: inf,
                refined: 0,
                exact: false,
            });
        }
        buckets.sort_by_key(|(_, b)| Reverse(b.len()));
        let revealed: Vec<Revealed> = buckets
            .iter()
            .map(|(f, _)| self.after(&Revealed::default(), word, *f))
            .collect();
        let estimate = here
            + buckets
                .iter()
                .map(|(_, b)| obj.size_bound(b.len(), obj.counted(b), left - 1) as u64)
                .sum::<u64>();
        let mut sc = self.pool.lend(left, self.tt.scratch());
        let mut bounds = Vec::with_capacity(buckets.len());
        let mut exact = Vec::with_capacity(buckets.len());
        for (i, (_, b)) in buckets.iter().enumerate() {
            let size = obj.size_bound(b.len(), obj.counted(b), left - 1);
            let (v, e) = match self.scan(
                &self.top_state(b, left - 1, &revealed[i]),
                INFEASIBLE,
                &mut sc.work(),
            ) {
                Scanned::Done(v, g) => (v, g.is_some() && v < INFEASIBLE),
                Scanned::Expand(p) => (p.lb.max(size), false),
                Scanned::Below(_) => unreachable!("only a least-bound scan stops below"),
            };
            bounds.push(v as u64);
            exact.push(e);
        }
        self.check_stop()?;
        let sum = |bounds: &[u64]| (here + bounds.iter().sum::<u64>()).min(INFEASIBLE as u64);
        let scan = sum(&bounds);
        let cutoff = settings.cutoff.unwrap_or(u64::MAX);
        let mut refined = 0u64;
        if settings.refine > 0 {
            for i in 0..buckets.len() {
                let total = sum(&bounds);
                if total >= cutoff {
                    break;
                }
                if exact[i] || bounds[i] >= INFEASIBLE as u64 {
                    continue;
                }
                // This bucket need not rise past what brings the total to the cutoff.
                let target = (cutoff - (total - bounds[i])).min(INFEASIBLE as u64) as u32;
                let (v, r, e) = self.deep_bound(
                    &buckets[i].1,
                    left - 1,
                    &revealed[i],
                    target,
                    settings.refine,
                    &mut sc,
                )?;
                bounds[i] = bounds[i].max(v as u64);
                exact[i] = e;
                refined += r;
            }
        }
        Ok(OpenerBounds {
            estimate: estimate.min(INFEASIBLE as u64),
            scan,
            deep: sum(&bounds),
            refined,
            exact: exact.iter().all(|&e| e),
        })
    }

    /// The deep bound of the state `ids` (module doc), refining at most `refine`
    /// guesses and stopping once the least bound reaches `target`: (bound, guesses
    /// refined, whether the bound is the state's exact cost).
    fn deep_bound(
        &self,
        ids: &[AnswerId],
        left: u8,
        revealed: &Revealed,
        target: u32,
        refine: usize,
        sc: &mut super::scratch::PooledScratch,
    ) -> Result<(u32, u64, bool), SolveError> {
        let obj = &self.config.objective;
        let st = self.top_state(ids, left, revealed);
        // (bound, final, guess): `final` when the bound is the guess's exact cost or
        // its deep bound (or the scan's rejected guesses' least bound: not refinable).
        let mut queue: BinaryHeap<Reverse<(u32, bool, u16)>> = BinaryHeap::new();
        let (state_lb, max_split) = match self.scan(&st, INFEASIBLE, &mut sc.work()) {
            Scanned::Done(v, g) => return Ok((v, 0, g.is_some() && v < INFEASIBLE)),
            Scanned::Below(_) => unreachable!("only a least-bound scan stops below"),
            Scanned::Expand(p) => {
                let level = &sc.levels[0];
                for &key in &level.order {
                    let bound = (key >> 64) as u32;
                    let perfect = key >> 16 & 1 == 1;
                    queue.push(Reverse((bound, perfect, key as u16)));
                }
                if let (v, Some(g)) = p.incumbent {
                    queue.push(Reverse((v, true, g.0)));
                }
                if p.rejected < INFEASIBLE {
                    queue.push(Reverse((p.rejected, true, 0)));
                }
                (p.lb, level.max_split)
            }
        };
        let handed = Guesses {
            max_split,
            ..self.everything()
        };
        let m = ids.len();
        let mut refined = 0u64;
        let least = loop {
            let Some(Reverse((bound, fin, g))) = queue.pop() else {
                break INFEASIBLE;
            };
            if fin || bound >= target || refined as usize >= refine {
                break bound;
            }
            self.check_stop()?;
            refined += 1;
            let guess = GuessId(g);
            let word = self.game.guesses[guess.index()];
            let mut d = obj.node(m, obj.counted(ids), left) as u64;
            for (f, part) in partition(self.table, guess, ids) {
                if f.is_all_green() {
                    continue;
                }
                let child = State {
                    ids: &part,
                    left: left - 1,
                    revealed: self.after(revealed, word, f),
                    handed,
                };
                let floor = obj.size_bound(part.len(), obj.counted(&part), left - 1);
                d += self.least_bound(&child, INFEASIBLE, floor, &mut sc.work()) as u64;
                if d >= INFEASIBLE as u64 {
                    break;
                }
            }
            // Never below the guess's scan bound (both are admissible for it).
            let d = (d.min(INFEASIBLE as u64) as u32).max(bound);
            queue.push(Reverse((d, true, g)));
        };
        Ok((least.max(state_lb), refined, false))
    }
}
