//! Step 1 and the cheap part of step 2 of a state's scan ([`Solver::scan_head`]):
//! closed forms, the transposition table, the candidates' perfect split
//! ([`Solver::candidate_split`]), and the whole of a state with two guesses left.
//!
//! A state with two guesses left needs the first guess (by id) that splits it into
//! singletons; it is found 32 guesses at a time by the presence kernel with no repeat
//! allowed, which stops once every wanted lane has a repeat ([`Solver::first_perfect`],
//! [`Solver::first_perfect_blocks`]). Hard mode takes its playable guesses from the
//! letter bitsets instead of a check per guess. The portable path tests one guess at a
//! time and scans small normal states' blocks in full, as its byte-sliced pass costs
//! more than tests that mostly stop within a few candidates. Measured (2026-11-27, AVX2 path, NYT,
//! `openers --exact --random 6 --seed 1`, paired): hard mode 0.81x the CPU of the test
//! of one guess at a time (`Demand::allows`, then `is_perfect`: 15% of the hard
//! profile); normal mode, where the small states had every block scanned in full
//! (`block_scan`, 3%), 0.95x on the seeded 10. The scanned-pairs counter counts what
//! the one-at-a-time tests and full block scans counted, so `bench --full` reads the
//! same.

use super::{Head, Scanned};
use crate::game::feedback::FEEDBACKS;
use crate::game::hard::Demand;
use crate::game::{AnswerId, GuessId};
use crate::search::bits::members;
use crate::search::bound::{Guess, INFEASIBLE};
use crate::search::groups::{Per, GROUP_MIN};
use crate::search::kernels::{slices_for_greens, Keep, Lanes, Split, ALL_SLICES, BLOCK_MAX, LANES};
use crate::search::scratch::Level;
use crate::search::state::{Guesses, State, Work};
use crate::search::stats::Counters;
use crate::search::tt::{Bound, Key};
use crate::search::Solver;
use std::sync::atomic::Ordering;

/// States with two guesses left ([`Solver::first_perfect`]), AVX2 and AVX-512 paths:
/// the least number of guesses to test in a block of 32 for the presence kernel to
/// test the block at once (sparser blocks are tested a guess at a time, each stopping
/// at its first repeat; on the portable path every block is).
const PERFECT_BLOCK_MIN: u32 = 4;

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
            let per = if self.config.hard {
                Per::hard(revealed)
            } else {
                Per::NORMAL
            };
            lb = lb.max(
                self.groups
                    .bound(obj, ids, left, per, &mut level.group_counts),
            );
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
            self.rows.offsets(ids, &mut level.offsets);
            let found = if !hard && n <= BLOCK_MAX {
                self.first_perfect_blocks(parent, level, ctr)
            } else {
                self.first_perfect(st, hard.then_some(&demand), level, ctr)
            };
            let bound = match found {
                Some(g) => Bound::Exact(v, g),
                None => Bound::Lower(INFEASIBLE),
            };
            self.tt.store(&key, bound);
            return Err(Scanned::Done(found.map_or(INFEASIBLE, |_| v), found));
        }

        self.rows.offsets(ids, &mut level.offsets);
        Ok(Head {
            w,
            lb,
            left,
            hard_key,
        })
    }

    /// A state with two guesses left, normal mode, at most [`BLOCK_MAX`] candidates
    /// (rows at `level.offsets`): the first guess (by id) handed down that splits them
    /// into singletons, or `None`. Every block of 32 guesses by the presence kernel,
    /// masked to the guesses handed down (no repeat allowed; it stops once every
    /// wanted lane has one), the last partial block a guess at a time. Scanned pairs
    /// are counted as by a full scan of each block, as before the kernel's early stop.
    pub(super) fn first_perfect_blocks(
        &self,
        parent: Guesses,
        level: &Level,
        ctr: &mut Counters,
    ) -> Option<GuessId> {
        let offsets = &level.offsets;
        let n = offsets.len();
        let block_end = self.game.n_guesses() / LANES * LANES;
        let mut split = [Split::default(); LANES];
        let kernel = self.rows.small_blocks_cheap();
        for g0 in (0..block_end).step_by(LANES) {
            ctr.scanned += (LANES * n) as u64;
            let want = parent.block(g0);
            if want == 0 {
                continue;
            }
            let perfect = if kernel {
                let keep = Keep::new(1, want);
                let at = Lanes::Block(g0);
                self.rows
                    .presence(at, offsets, ALL_SLICES, keep, &mut split)
            } else {
                // Portable: the full block scan, cheaper there than the sliced pass.
                self.rows.block_scan(g0, offsets, &mut split);
                (0..LANES)
                    .filter(|&l| split[l].buckets == n)
                    .fold(0u32, |m, l| m | 1 << l)
                    & want
            };
            if perfect != 0 {
                return Some(GuessId::new(g0 + perfect.trailing_zeros() as usize));
            }
        }
        for &g in &self.all_guesses[block_end..] {
            ctr.scanned += n as u64;
            if parent.has(g.index()) && self.rows.is_perfect(g, offsets) {
                return Some(g);
            }
        }
        None
    }

    /// A state with two guesses left (hard mode, or normal mode above [`BLOCK_MAX`]
    /// candidates; rows at `level.offsets`): the first guess (by id) among those handed
    /// down, and in hard mode playable under `demand`, that splits the candidates into
    /// singletons, or `None`. The guesses as a bitset in `level.scan_bits`, the
    /// playable ones from the letter bitsets ([`DemandSets::narrow`]) rather than a
    /// check per guess; blocks of 32 guesses holding at least [`PERFECT_BLOCK_MIN`] of
    /// them are tested by the presence kernel (no repeat allowed, stopping once every
    /// wanted lane has one), sparser ones a guess at a time. The same guess as a test
    /// of each in the parent's list (which is in id order), and the same count of
    /// scanned pairs: `n` for each guess up to the one found.
    ///
    /// [`DemandSets::narrow`]: crate::game::hard::DemandSets::narrow
    pub(super) fn first_perfect(
        &self,
        st: &State,
        demand: Option<&Demand>,
        level: &mut Level,
        ctr: &mut Counters,
    ) -> Option<GuessId> {
        let n_guesses = self.game.n_guesses();
        let bits = &mut level.scan_bits;
        bits.clear();
        match st.handed.bits {
            Some(handed) => bits.extend_from_slice(handed),
            None => {
                bits.resize(n_guesses.div_ceil(64), u64::MAX);
                if !n_guesses.is_multiple_of(64) {
                    *bits.last_mut().expect("a guess") >>= 64 - n_guesses % 64;
                }
            }
        }
        let slices = match demand {
            Some(demand) => {
                let sets = self
                    .demand_sets
                    .as_ref()
                    .expect("hard mode has the letter bitsets");
                sets.narrow(demand, bits);
                slices_for_greens(st.revealed.green_positions())
            }
            None => ALL_SLICES,
        };
        let offsets = &level.offsets;
        let n = offsets.len();
        if n > FEEDBACKS {
            // No guess has that many feedbacks; every guess is tested all the same.
            let guesses: usize = bits.iter().map(|b| b.count_ones() as usize).sum();
            ctr.scanned += (n * guesses) as u64;
            return None;
        }
        // Portable: every guess one at a time (its byte-sliced pass costs more than
        // tests that mostly stop within a few candidates).
        let block_end = match self.rows.small_blocks_cheap() {
            true => n_guesses / LANES * LANES,
            false => 0,
        };
        let mut split = [Split::default(); LANES];
        for g0 in (0..n_guesses).step_by(LANES) {
            let want = (bits[g0 / 64] >> (g0 % 64)) as u32;
            if want == 0 {
                continue;
            }
            let perfect = if g0 < block_end && want.count_ones() >= PERFECT_BLOCK_MIN {
                let keep = Keep::new(1, want);
                let at = Lanes::Block(g0);
                self.rows.presence(at, offsets, slices, keep, &mut split)
            } else {
                members(&[want as u64])
                    .find(|&l| self.rows.is_perfect(GuessId::new(g0 + l), offsets))
                    .map_or(0, |l| 1u32 << l)
            };
            if perfect != 0 {
                let l = perfect.trailing_zeros();
                // The guesses up to the one found, as when tested one at a time.
                let upto = want & (u32::MAX >> (31 - l));
                ctr.scanned += (n * upto.count_ones() as usize) as u64;
                return Some(GuessId::new(g0 + l as usize));
            }
            ctr.scanned += (n * want.count_ones() as usize) as u64;
        }
        None
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
