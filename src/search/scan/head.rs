//! Step 1 and the cheap part of step 2 of a state's scan ([`Solver::scan_head`]):
//! closed forms, the transposition table, the candidates' perfect split
//! ([`Solver::candidate_split`]), and the whole of a state with two guesses left.

use super::{Head, Scanned};
use crate::game::feedback::FEEDBACKS;
use crate::game::{AnswerId, GuessId};
use crate::search::bound::{Guess, INFEASIBLE};
use crate::search::groups::GROUP_MIN;
use crate::search::kernels::{Split, BLOCK_MAX, LANES};
use crate::search::state::{State, Work};
use crate::search::tt::{Bound, Key};
use crate::search::Solver;
use std::sync::atomic::Ordering;

impl Solver<'_> {
    /// Step 1 and the cheap part of step 2: closed forms, the transposition table, the candidates'
    /// perfect split, and the whole of a state with two guesses left. `Err` settles
    /// the state; `Ok` leaves the guess scan to [`Solver::scan_guesses`], with
    /// `level.offsets` set.
    pub(in crate::search) fn scan_head(
        &self,
        st: &State,
        cutoff: u32,
        work: &mut Work,
    ) -> Result<Head, Scanned> {
        let State {
            ids,
            left,
            ref revealed,
            handed: parent,
        } = *st;
        let (level, ctr) = work.level();
        let parent_allowed = parent.list;
        let n = ids.len();
        let obj = &self.config.objective;
        debug_assert!(ids.windows(2).all(|w| w[0] < w[1]), "candidates are sorted");
        match n {
            1 => {
                return Err(Scanned::Done(
                    obj.single(left, obj.counts(ids[0])),
                    Some(ids[0].as_guess()),
                ))
            }
            _ if left <= 1 => return Err(Scanned::Done(INFEASIBLE, None)),
            _ => {}
        }
        let w = obj.counted(ids);
        let mut lb = obj.split_bound(n, w, left, parent.max_split);
        if n >= GROUP_MIN {
            let per = crate::search::groups::per_guess(if self.config.hard {
                revealed.greens()
            } else {
                0
            });
            if n >= obj.group_min(left, per) {
                let r = self.groups.largest(ids, &mut level.group_counts);
                lb = lb.max(obj.group_bound(n, r, left, per));
            }
        }
        if n == 2 {
            // Guess one, then the other; a counted one first if only one is counted.
            let first = if w == 1 && !obj.counts(ids[0]) {
                ids[1]
            } else {
                ids[0]
            };
            return Err(Scanned::Done(lb, Some(first.as_guess())));
        }
        if lb >= cutoff {
            return Err(Scanned::Done(lb, None));
        }
        if self.stop.load(Ordering::Relaxed) || crate::search::budget::spend() {
            return Err(Scanned::Done(INFEASIBLE, None));
        }
        let hard_key = self.hard_key(revealed);
        let key = Key {
            ids,
            left,
            hard: hard_key,
        };
        ctr.probes += 1;
        match self.tt.probe(&key) {
            Some(Bound::Exact(v, g)) => {
                ctr.hits += 1;
                return Err(Scanned::Done(v, Some(g)));
            }
            Some(Bound::Lower(l)) if l >= cutoff => {
                ctr.hits += 1;
                return Err(Scanned::Done(l, None));
            }
            Some(Bound::Lower(l)) => lb = lb.max(l),
            None => {}
        }
        ctr.states += 1;

        // Step 2a: a candidate that splits the state into singletons and meets the
        // size bound is optimal; without one, the bound rises.
        match self.candidate_split(ids, w, left) {
            (v, Some(a)) if v <= lb => {
                self.tt.store(&key, Bound::Exact(v, a));
                return Err(Scanned::Done(v, Some(a)));
            }
            (v, _) => lb = lb.max(v),
        }
        if lb >= cutoff {
            self.tt.store(&key, Bound::Lower(lb));
            return Err(Scanned::Done(lb, None));
        }

        let hard = self.config.hard;
        let demand = revealed.demand();
        if left == 2 && n > parent.max_split {
            self.tt.store(&key, Bound::Lower(INFEASIBLE));
            return Err(Scanned::Done(INFEASIBLE, None));
        }
        if left == 2 {
            // Only a perfect split can finish, and (no candidate being one) every
            // perfect split costs the same: the first one found is optimal.
            let v = obj.guess_bound(n, w, n, Guess::Other, left);
            let stride = self.game.n_guesses();
            self.rows.offsets(ids, &mut level.offsets);
            let handed = |g: usize| parent.has(g);
            let mut singles = parent_allowed;
            if !hard && n <= BLOCK_MAX {
                // Every guess, 32 at a time (masked to what the parent handed down).
                let block_end = stride / LANES * LANES;
                let mut block = [Split::default(); LANES];
                for g0 in (0..block_end).step_by(LANES) {
                    self.rows.block_scan(g0, &level.offsets, &mut block);
                    ctr.scanned += (LANES * n) as u64;
                    if let Some(l) = (0..LANES).find(|&l| block[l].buckets == n && handed(g0 + l)) {
                        let g = GuessId::new(g0 + l);
                        self.tt.store(&key, Bound::Exact(v, g));
                        return Err(Scanned::Done(v, Some(g)));
                    }
                }
                singles = &self.all_guesses[block_end..];
            }
            for &g in singles {
                if hard && !demand.allows(&self.sigs[g.index()]) {
                    continue;
                }
                ctr.scanned += n as u64;
                if handed(g.index()) && self.rows.is_perfect(g, &level.offsets) {
                    self.tt.store(&key, Bound::Exact(v, g));
                    return Err(Scanned::Done(v, Some(g)));
                }
            }
            self.tt.store(&key, Bound::Lower(INFEASIBLE));
            return Err(Scanned::Done(INFEASIBLE, None));
        }

        self.rows.offsets(ids, &mut level.offsets);
        Ok(Head {
            w,
            lb,
            left,
            hard_key,
        })
    }

    /// A lower bound of the state from its candidates alone (`n * n` lookups): the
    /// least bound of a candidate splitting the others into singletons, with that
    /// candidate; or, when there is none, the bound every other guess meets. Every
    /// other guess is a perfect split that is not a candidate, or makes fewer buckets:
    /// its bound is at least the least of those two shapes' bounds (the bound only
    /// grows as buckets shrink or the guess stops being a counted candidate). For the
    /// total objective: `2n - 1` with such a candidate, else `2n`, one above the size
    /// bound.
    pub(in crate::search) fn candidate_split(
        &self,
        ids: &[AnswerId],
        w: u32,
        left: u8,
    ) -> (u32, Option<GuessId>) {
        let obj = &self.config.objective;
        let n = ids.len();
        let mut best = (INFEASIBLE, None);
        for &a in ids {
            if self.splits_perfectly(a.as_guess(), ids) {
                let v = obj.guess_bound(n, w, n, Guess::of(true, obj.counts(a)), left);
                if v < best.0 {
                    best = (v, Some(a.as_guess()));
                }
            }
        }
        let others = obj
            .guess_bound(n, w, n, Guess::Other, left)
            .min(obj.guess_bound(n, w, n - 1, Guess::Counted, left));
        if others < best.0 {
            (others, None)
        } else {
            best
        }
    }

    /// True when `guess` gives each of `ids` its own feedback. Stops at the first
    /// repeated feedback, which for most guesses of a large state comes within a few
    /// candidates (a full count of every candidate's buckets, as before, made
    /// [`Solver::candidate_split`] 8% of the CPU of NYT `tutty`).
    #[inline]
    fn splits_perfectly(&self, guess: GuessId, ids: &[AnswerId]) -> bool {
        if ids.len() > FEEDBACKS {
            return false;
        }
        let row = self.table.row(guess);
        let mut seen = [0u64; 4];
        for &a in ids {
            let f = row[a.index()] as usize;
            let bit = 1u64 << (f % 64);
            if seen[f / 64] & bit != 0 {
                return false;
            }
            seen[f / 64] |= bit;
        }
        true
    }
}
