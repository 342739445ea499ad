//! Per-state scanning: everything the search learns about a state before expanding a
//! guess. Closed forms and the table, the candidates' perfect-split check, the bound of
//! every guess (normal mode 32 at a time: by pairwise comparison for small states, a
//! sieve for states of up to 255 candidates under a tight cutoff, per-lane bucket
//! counts otherwise; hard mode one at a time, with early rejection), and the exact
//! partition classes handed to the children.
//!
//! Invariants: a scan never expands a guess; every bound it reports is admissible
//! (`bound.rs`); a guess is dropped only when its bound reaches the cutoff (the block
//! paths keep exactly the guesses the scalar scan keeps, tested); the guesses it hands
//! down contain one guess of every partition class of the state (or every guess), so
//! no child loses a move.

use super::bound::INFEASIBLE;
use super::scratch::{Classes, Level};
use super::tt::Bound;
use super::{Counters, Solver};
use crate::feedback::{Feedback, FEEDBACKS};
use crate::game::{AnswerId, GuessId};
use crate::hard::Revealed;
use std::sync::atomic::Ordering;

/// The guesses a parent hands to a state: a list, and (normal mode, below the top)
/// the same as a bitset over guess ids.
#[derive(Clone, Copy)]
pub(super) struct Guesses<'s> {
    pub(super) list: &'s [GuessId],
    pub(super) bits: Option<&'s [u64]>,
    /// The most buckets any of these guesses makes on the parent state: no guess
    /// makes more on a subset, so a state with more candidates cannot be split into
    /// singletons (infeasible with two guesses left).
    pub(super) max_split: usize,
}

impl Guesses<'_> {
    /// Whether guess `g` was handed down (always, without a bitset).
    #[inline]
    pub(super) fn has(&self, g: usize) -> bool {
        self.bits
            .is_none_or(|bits| bits[g / 64] >> (g % 64) & 1 == 1)
    }

    /// The 32 bits of guesses `g0..g0 + 32` (`g0` a multiple of 32).
    #[inline]
    pub(super) fn block(&self, g0: usize) -> u32 {
        self.bits
            .map_or(u32::MAX, |bits| (bits[g0 / 64] >> (g0 % 64)) as u32)
    }
}

/// Calls the lane kernel `$kernel` with `$arg`s (of types `$ty`), compiled for AVX2
/// when the CPU has it (the lane loops become 32-byte vector instructions), else as
/// built. Expands to the enclosing function's result.
macro_rules! with_avx2 {
    ($kernel:ident($($arg:ident: $ty:ty),*) -> $ret:ty) => {{
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2")]
        unsafe fn avx2($($arg: $ty),*) -> $ret {
            $kernel($($arg),*)
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2 (checked just above).
            return unsafe { avx2($($arg),*) };
        }
        $kernel($($arg),*)
    }};
}

/// States with at most this many candidates are scanned 32 guesses at a time by
/// pairwise comparison (the pair count per lane must fit a byte: 22 * 21 / 2 = 231).
pub(super) const BLOCK_MAX: usize = 22;

pub(super) const LANES: usize = 32;

/// The body of [`Solver::block_scan`] over the answer-major `table`. The sieve below
/// computes the same with no limit, but this fixed-size, byte-counter form is what
/// the small states need (measured: `solve trace` 0.48 s here, 0.74 s through the
/// sieve).
#[inline(always)]
#[allow(clippy::needless_range_loop)] // lane loops: one vector instruction each
fn block_scan_body(table: &[u8], g0: usize, offsets: &[usize], out: &mut [Split; LANES]) {
    let n = offsets.len();
    debug_assert!(n <= BLOCK_MAX);
    let mut rows = [[0u8; LANES]; BLOCK_MAX];
    for (row, &o) in rows.iter_mut().zip(offsets) {
        row.copy_from_slice(&table[o + g0..o + g0 + LANES]);
    }
    let (mut repeats, mut pairs, mut green) = ([0u8; LANES], [0u8; LANES], [0u8; LANES]);
    for j in 0..n {
        let mut dup = [0u8; LANES];
        for i in 0..j {
            for l in 0..LANES {
                let e = (rows[j][l] == rows[i][l]) as u8;
                dup[l] |= e;
                pairs[l] += e;
            }
        }
        for l in 0..LANES {
            repeats[l] += dup[l];
            green[l] |= (rows[j][l] == Feedback::ALL_GREEN.0) as u8;
        }
    }
    for l in 0..LANES {
        out[l] = Split {
            buckets: n - repeats[l] as usize,
            sum_squares: n as u64 + 2 * pairs[l] as u64,
            is_candidate: green[l] != 0,
        };
    }
}

/// The body of [`Solver::block_sieve`] over the answer-major `table`.
#[inline(always)]
#[allow(clippy::needless_range_loop)] // lane loops: one vector instruction each
fn sieve(
    table: &[u8],
    g0: usize,
    offsets: &[usize],
    max_repeats: usize,
    rows: &mut Vec<[u8; LANES]>,
    out: &mut [Split; LANES],
) -> u32 {
    let n = offsets.len();
    debug_assert!(n <= SIEVE_MAX_N);
    rows.clear();
    let (mut repeats, mut green) = ([0u8; LANES], [0u8; LANES]);
    let mut pairs = [0u16; LANES];
    let limit = max_repeats.min(255) as u8;
    for (j, &o) in offsets.iter().enumerate() {
        let row: [u8; LANES] = table[o + g0..o + g0 + LANES]
            .try_into()
            .expect("32 feedbacks");
        // Earlier candidates with the same feedback (fewer than 255).
        let mut equal = [0u8; LANES];
        for earlier in rows.iter() {
            for l in 0..LANES {
                equal[l] += (row[l] == earlier[l]) as u8;
            }
        }
        for l in 0..LANES {
            repeats[l] += (equal[l] != 0) as u8;
            pairs[l] += equal[l] as u16;
            green[l] |= (row[l] == Feedback::ALL_GREEN.0) as u8;
        }
        rows.push(row);
        if j % 4 == 3 && repeats.iter().all(|&r| r >= limit) {
            return 0;
        }
    }
    let mut alive = 0u32;
    for l in 0..LANES {
        alive |= ((repeats[l] < limit) as u32) << l;
        out[l] = Split {
            buckets: n - repeats[l] as usize,
            sum_squares: n as u64 + 2 * pairs[l] as u64,
            is_candidate: green[l] != 0,
        };
    }
    alive
}

/// The body of [`Solver::block_tally`]: per-lane bucket counts (`tally[lane][feedback]`,
/// zero on entry and left zero), one candidate at a time. Unlike the pairwise kernels
/// its work grows linearly with the candidates, and the 32 lanes' counter updates are
/// independent (the scalar scan waits on each update before the next).
#[inline(always)]
#[allow(clippy::needless_range_loop)] // lane loops
fn tally(
    table: &[u8],
    g0: usize,
    offsets: &[usize],
    max_repeats: usize,
    tally: &mut [[u16; 256]; LANES],
    out: &mut [Split; LANES],
) -> u32 {
    let n = offsets.len();
    let mut repeats = [0u32; LANES];
    let mut pairs = [0u32; LANES];
    let mut green = 0u32;
    let limit = max_repeats.min(u32::MAX as usize) as u32;
    let mut seen = n;
    for (j, &o) in offsets.iter().enumerate() {
        let row: &[u8; LANES] = table[o + g0..o + g0 + LANES]
            .try_into()
            .expect("32 feedbacks");
        for l in 0..LANES {
            let f = row[l] as usize;
            let c = tally[l][f];
            repeats[l] += (c != 0) as u32;
            pairs[l] += c as u32;
            tally[l][f] = c + 1;
            green |= ((f == Feedback::ALL_GREEN.0 as usize) as u32) << l;
        }
        if j % 16 == 15 && repeats.iter().all(|&r| r >= limit) {
            seen = j + 1;
            break;
        }
    }
    for &o in &offsets[..seen] {
        let row = &table[o + g0..o + g0 + LANES];
        for l in 0..LANES {
            tally[l][row[l] as usize] = 0;
        }
    }
    let mut alive = 0u32;
    for l in 0..LANES {
        alive |= ((repeats[l] < limit) as u32) << l;
        out[l] = Split {
            buckets: n - repeats[l] as usize,
            sum_squares: n as u64 + 2 * pairs[l] as u64,
            is_candidate: green >> l & 1 == 1,
        };
    }
    alive
}

/// The block sieve runs when a guess is dropped at this many repeats or fewer: with
/// looser cutoffs lanes stay alive too long for the pairwise comparison, and the
/// block tally (linear in the candidates) does better. Measured against 64 (tally
/// above): off-tree `goosy:BBBBB` 7.1 -> 5.6 s, `audio:YBBBB` 2.07 -> 1.91 s, `solve
/// trace` unchanged; 8 or 32 are slower on one or the other.
const SIEVE_MAX_REPEATS: usize = 16;

/// The sieve's per-lane counts are bytes: states of at most this many candidates.
const SIEVE_MAX_N: usize = 255;

/// What [`Solver::scan`] leaves for the expansion step.
pub(super) struct Prepared {
    /// Counted candidates (penalty objectives).
    pub(super) w: u32,
    /// The state's lower bound.
    pub(super) lb: u32,
    /// The best perfect split found, with its exact cost.
    pub(super) incumbent: (u32, Option<GuessId>),
    /// The least bound of the guesses left out of `order`.
    pub(super) rejected: u32,
    pub(super) hard_key: u128,
}

/// What [`Solver::scan_head`] learned of a state it did not settle.
#[derive(Clone, Copy)]
pub(super) struct Head {
    /// Counted candidates (penalty objectives).
    pub(super) w: u32,
    /// The state's lower bound so far.
    pub(super) lb: u32,
    pub(super) left: u8,
    pub(super) hard_key: u128,
}

pub(super) enum Scanned {
    Done(u32, Option<GuessId>),
    Expand(Prepared),
}

/// How one guess splits a state, from the scan.
#[derive(Clone, Copy, Default)]
pub(super) struct Split {
    pub(super) buckets: usize,
    pub(super) sum_squares: u64,
    pub(super) is_candidate: bool,
}

/// Makes `order[..=k]` the `k + 1` least keys in order, given that `order[..*sorted]`
/// already is (`*sorted > k` means nothing to do). Sorts in growing chunks, so a state
/// whose loop stops after a few guesses (the usual case: the next bound reaches the
/// best cost) never sorts the rest. A full sort of every state's keys was a fifth of
/// an off-tree solve (`trace:BYBBY`).
#[inline]
pub(super) fn sorted_prefix(order: &mut [u128], k: usize, sorted: &mut usize) {
    if k < *sorted {
        return;
    }
    let rest = &mut order[k..];
    let chunk = k.max(16).min(rest.len());
    if chunk < rest.len() {
        rest.select_nth_unstable(chunk - 1);
    }
    rest[..chunk].sort_unstable();
    *sorted = k + chunk;
}

pub(super) fn row_has_green(row: &[u8], ids: &[AnswerId]) -> bool {
    ids.iter()
        .any(|&a| row[a as usize] == Feedback::ALL_GREEN.0)
}

impl Solver<'_> {
    /// Steps 1 and 2 of [`Solver::search`]: closed forms, the table, and the scan. Either
    /// settles the state, or leaves the guesses to expand in `level.order`, unsorted
    /// (see [`sorted_prefix`]).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn scan(
        &self,
        ids: &[AnswerId],
        left: u8,
        revealed: &Revealed,
        parent: Guesses,
        beta: u32,
        level: &mut Level,
        ctr: &mut Counters,
    ) -> Scanned {
        match self.scan_head(ids, left, revealed, parent, beta, level, ctr) {
            Ok(head) => self.scan_guesses(ids, revealed, parent, beta, head, level, ctr),
            Err(done) => done,
        }
    }

    /// Step 1 and the cheap part of step 2: closed forms, the table, the candidates'
    /// perfect split, and the whole of a state with two guesses left. `Err` settles
    /// the state; `Ok` leaves the guess scan to [`Solver::scan_guesses`], with
    /// `level.offsets` set.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn scan_head(
        &self,
        ids: &[AnswerId],
        left: u8,
        revealed: &Revealed,
        parent: Guesses,
        beta: u32,
        level: &mut Level,
        ctr: &mut Counters,
    ) -> Result<Head, Scanned> {
        let parent_allowed = parent.list;
        let n = ids.len();
        let obj = &self.config.objective;
        debug_assert!(ids.windows(2).all(|w| w[0] < w[1]), "candidates are sorted");
        match n {
            1 => {
                return Err(Scanned::Done(
                    obj.single(left, obj.counts(ids[0])),
                    Some(ids[0]),
                ))
            }
            _ if left <= 1 => return Err(Scanned::Done(INFEASIBLE, None)),
            _ => {}
        }
        let w = obj.counted(ids);
        let mut lb = obj.split_bound(n, w, left, parent.max_split);
        if n == 2 {
            // Guess one, then the other; a counted one first if only one is counted.
            let first = if w == 1 && !obj.counts(ids[0]) {
                ids[1]
            } else {
                ids[0]
            };
            return Err(Scanned::Done(lb, Some(first)));
        }
        if lb >= beta {
            return Err(Scanned::Done(lb, None));
        }
        if self.stop.load(Ordering::Relaxed) {
            return Err(Scanned::Done(INFEASIBLE, None));
        }
        let hard_key = self.hard_key(revealed);
        ctr.probes += 1;
        match self.tt.probe(ids, left, hard_key) {
            Some(Bound::Exact(v, g)) => {
                ctr.hits += 1;
                return Err(Scanned::Done(v, Some(g)));
            }
            Some(Bound::Lower(l)) if l >= beta => {
                ctr.hits += 1;
                return Err(Scanned::Done(l, None));
            }
            Some(Bound::Lower(l)) => lb = lb.max(l),
            None => {}
        }
        ctr.states += 1;

        // Step 2a: a candidate that splits the state into singletons and meets the
        // size bound is optimal; without one, the bound rises.
        match self.candidate_split(ids, w, left, &mut level.counts) {
            (v, Some(a)) if v <= lb => {
                self.tt.store(ids, left, hard_key, Bound::Exact(v, a));
                return Err(Scanned::Done(v, Some(a)));
            }
            (v, _) => lb = lb.max(v),
        }
        if lb >= beta {
            self.tt.store(ids, left, hard_key, Bound::Lower(lb));
            return Err(Scanned::Done(lb, None));
        }

        let hard = self.config.hard;
        let demand = revealed.demand();
        if left == 2 && n > parent.max_split {
            self.tt.store(ids, left, hard_key, Bound::Lower(INFEASIBLE));
            return Err(Scanned::Done(INFEASIBLE, None));
        }
        if left == 2 {
            // Only a perfect split can finish, and (no candidate being one) every
            // perfect split costs the same: the first one found is optimal.
            let v = obj.guess_bound(n, w, n, false, false, left);
            let stride = self.game.n_guesses();
            level.offsets.clear();
            level
                .offsets
                .extend(ids.iter().map(|&a| a as usize * stride));
            let handed = |g: usize| parent.has(g);
            let mut singles = parent_allowed;
            if !hard && n <= BLOCK_MAX {
                // Every guess, 32 at a time (masked to what the parent handed down).
                let block_end = stride / LANES * LANES;
                let mut block = [Split::default(); LANES];
                for g0 in (0..block_end).step_by(LANES) {
                    self.block_scan(g0, &level.offsets, &mut block);
                    ctr.scanned += (LANES * n) as u64;
                    if let Some(l) = (0..LANES).find(|&l| block[l].buckets == n && handed(g0 + l)) {
                        let g = (g0 + l) as GuessId;
                        self.tt.store(ids, left, hard_key, Bound::Exact(v, g));
                        return Err(Scanned::Done(v, Some(g)));
                    }
                }
                singles = &self.all_guesses[block_end..];
            }
            for &g in singles {
                if hard && !demand.allows(&self.sigs[g as usize]) {
                    continue;
                }
                ctr.scanned += n as u64;
                if handed(g as usize) && self.is_perfect(g, &level.offsets) {
                    self.tt.store(ids, left, hard_key, Bound::Exact(v, g));
                    return Err(Scanned::Done(v, Some(g)));
                }
            }
            self.tt.store(ids, left, hard_key, Bound::Lower(INFEASIBLE));
            return Err(Scanned::Done(INFEASIBLE, None));
        }

        let stride = self.game.n_guesses();
        level.offsets.clear();
        level
            .offsets
            .extend(ids.iter().map(|&a| a as usize * stride));
        Ok(Head {
            w,
            lb,
            left,
            hard_key,
        })
    }

    /// Step 2b: the bound of every guess the parent handed down, the guesses to expand
    /// into `level.order` (unsorted).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn scan_guesses(
        &self,
        ids: &[AnswerId],
        revealed: &Revealed,
        parent: Guesses,
        beta: u32,
        head: Head,
        level: &mut Level,
        ctr: &mut Counters,
    ) -> Scanned {
        let Head {
            w,
            mut lb,
            left,
            hard_key,
        } = head;
        let parent_allowed = parent.list;
        let n = ids.len();
        let obj = &self.config.objective;
        let hard = self.config.hard;
        let demand = revealed.demand();
        // Step 2b: scan the guesses the parent handed down, for bounds only. With the
        // plain total objective a guess is dropped as soon as its repeated feedbacks
        // prove its bound reaches `beta`: `3n - k - c >= 2n + repeats - 1`.
        level.order.clear();
        let max_repeats = if obj.unit == 1 && !obj.has_penalty() && beta < INFEASIBLE {
            (beta as usize + 1).saturating_sub(2 * n)
        } else {
            usize::MAX
        };
        level.max_split = 0;
        let mut least = INFEASIBLE; // least bound of any guess
        let mut rejected = INFEASIBLE; // least bound of the guesses not in `order`
        let mut incumbent: (u32, Option<GuessId>) = (INFEASIBLE, None);
        ctr.scanned += (parent_allowed.len() * n) as u64;
        // Normal mode: every guess, 32 at a time (masked to the parent's classes).
        // Small states by pairwise comparison; larger ones with a tight cutoff, where
        // most guesses are dropped after a few candidates, by the sieve
        // ([`Solver::block_sieve`]); the rest by per-lane bucket counts
        // ([`Solver::block_tally`]). Hard mode (whose allowed guesses vary by state),
        // and the guesses past the last whole block, one guess at a time.
        let blocks = !hard && n <= BLOCK_MAX;
        let sieve = !hard && !blocks && n <= SIEVE_MAX_N && max_repeats <= SIEVE_MAX_REPEATS;
        let whole = self.game.n_guesses() / LANES * LANES;
        let block_end = if hard { 0 } else { whole };
        let singles = if hard {
            parent_allowed
        } else {
            &self.all_guesses[whole..]
        };
        if !hard && !blocks && !sieve && level.tally.len() < LANES {
            level.tally.resize(LANES, [0; 256]);
        }
        let mut single = singles.iter();
        let mut block = [Split::default(); LANES];
        let mut g_next = 0usize;
        let handed = |g: usize| parent.has(g);
        // The block's lanes still to look at (handed down, not dropped early), from
        // guess `base`: a block costs one pass over 32 lanes, not 32 loop turns.
        let (mut live, mut base) = (0u32, 0usize);
        loop {
            let (g, split) = if live != 0 {
                let l = live.trailing_zeros() as usize;
                live &= live - 1;
                ((base + l) as GuessId, block[l])
            } else if g_next < block_end {
                base = g_next;
                g_next += LANES;
                let handed_bits = parent.block(base);
                if handed_bits == 0 {
                    continue;
                }
                let kept = if blocks {
                    self.block_scan(base, &level.offsets, &mut block);
                    let mut kept = 0u32;
                    for (l, split) in block.iter().enumerate() {
                        kept |= ((n - split.buckets < max_repeats) as u32) << l;
                    }
                    kept
                } else if sieve {
                    let (offsets, rows) = (&level.offsets, &mut level.rows);
                    self.block_sieve(base, offsets, max_repeats, rows, &mut block)
                } else {
                    let counts = (&mut level.tally[..LANES]).try_into().expect("32 lanes");
                    self.block_tally(base, &level.offsets, max_repeats, counts, &mut block)
                };
                live = handed_bits & kept;
                if handed_bits & !kept != 0 {
                    least = least.min(beta);
                    rejected = rejected.min(beta);
                }
                continue;
            } else {
                let Some(&g) = single.next() else { break };
                if hard && !demand.allows(&self.sigs[g as usize]) {
                    continue;
                }
                if !hard && !handed(g as usize) {
                    continue;
                }
                let Some(split) =
                    self.bound_scan(g, &level.offsets, &mut level.counts, max_repeats)
                else {
                    least = least.min(beta);
                    rejected = rejected.min(beta);
                    continue;
                };
                (g, split)
            };
            if split.buckets == 1 && !split.is_candidate {
                continue; // useless here and on every subset
            }
            let counted = split.is_candidate && obj.counts(g as AnswerId);
            let glb = obj.guess_bound(n, w, split.buckets, split.is_candidate, counted, left);
            let perfect = split.buckets == n;
            if perfect && glb <= lb {
                // A perfect split's bound is its cost: at the state's bound, optimal.
                self.tt.store(ids, left, hard_key, Bound::Exact(glb, g));
                return Scanned::Done(glb, Some(g));
            }
            if perfect && glb < incumbent.0 {
                incumbent = (glb, Some(g));
            }
            least = least.min(glb);
            // Guesses dropped early above have at least `max_repeats` repeats, so fewer
            // buckets than any guess kept: the maximum over kept guesses covers them
            // (and with none kept nothing is expanded, so the hint is never read).
            level.max_split = level.max_split.max(split.buckets);
            if glb < beta {
                level.order.push(
                    (glb as u128) << 64
                        | (split.sum_squares.min(1 << 40) as u128) << 17
                        | (perfect as u128) << 16
                        | g as u128,
                );
            } else {
                rejected = rejected.min(glb);
            }
        }
        lb = lb.max(least);
        if let (v, Some(g)) = incumbent {
            if v <= lb {
                self.tt.store(ids, left, hard_key, Bound::Exact(v, g));
                return Scanned::Done(v, Some(g));
            }
        }
        if lb >= beta {
            self.tt.store(ids, left, hard_key, Bound::Lower(lb));
            return Scanned::Done(lb, None);
        }

        Scanned::Expand(Prepared {
            w,
            lb,
            incumbent,
            rejected,
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
    pub(super) fn candidate_split(
        &self,
        ids: &[AnswerId],
        w: u32,
        left: u8,
        counts: &mut [u32],
    ) -> (u32, Option<GuessId>) {
        let obj = &self.config.objective;
        let n = ids.len();
        let mut best = (INFEASIBLE, None);
        for &a in ids {
            if self.bucket_count(a as GuessId, ids, counts).0 == n {
                let v = obj.guess_bound(n, w, n, true, obj.counts(a), left);
                if v < best.0 {
                    best = (v, Some(a as GuessId));
                }
            }
        }
        let others = obj
            .guess_bound(n, w, n, false, false, left)
            .min(obj.guess_bound(n, w, n - 1, true, true, left));
        if others < best.0 {
            (others, None)
        } else {
            best
        }
    }

    /// The number of buckets `guess` makes on `ids`, the sum of squared bucket sizes,
    /// and whether it is a candidate. Leaves `counts` zeroed.
    #[inline]
    pub(crate) fn bucket_count(
        &self,
        guess: GuessId,
        ids: &[AnswerId],
        counts: &mut [u32],
    ) -> (usize, u64, bool) {
        let row = self.table.row(guess);
        let counts: &mut [u32; FEEDBACKS] = counts.try_into().expect("243 slots");
        let (mut buckets, mut sum_squares) = (0usize, 0u64);
        for &a in ids {
            let c = &mut counts[row[a as usize] as usize];
            buckets += (*c == 0) as usize;
            sum_squares += 2 * *c as u64 + 1;
            *c += 1;
        }
        let is_candidate = counts[Feedback::ALL_GREEN.0 as usize] > 0;
        for &a in ids {
            counts[row[a as usize] as usize] = 0;
        }
        (buckets, sum_squares, is_candidate)
    }

    /// True when `guess` gives every candidate (answer-major rows at `offsets`) its own
    /// feedback. Stops at the first repeat, which for most guesses comes within a few
    /// candidates.
    #[inline]
    pub(super) fn is_perfect(&self, guess: GuessId, offsets: &[usize]) -> bool {
        let g = guess as usize;
        let mut seen = [0u64; 4];
        for &o in offsets {
            let f = self.by_answer[o + g] as usize;
            let (word, bit) = (f >> 6, 1u64 << (f & 63));
            if seen[word] & bit != 0 {
                return false;
            }
            seen[word] |= bit;
        }
        true
    }

    /// How `guess` splits the candidates whose answer-major rows start at `offsets`
    /// (buckets, sum of squared sizes, whether it is a candidate), or `None` as soon
    /// as `max_repeats` candidates have repeated an earlier feedback. Leaves `counts`
    /// zeroed.
    #[inline]
    pub(super) fn bound_scan(
        &self,
        guess: GuessId,
        offsets: &[usize],
        counts: &mut [u32],
        max_repeats: usize,
    ) -> Option<Split> {
        let g = guess as usize;
        let table = &self.by_answer[..];
        let counts: &mut [u32; FEEDBACKS] = counts.try_into().expect("243 slots");
        let (mut repeats, mut sum_squares) = (0usize, 0u64);
        for (j, &o) in offsets.iter().enumerate() {
            let c = &mut counts[table[o + g] as usize];
            if *c > 0 {
                repeats += 1;
                if repeats >= max_repeats {
                    for &o in &offsets[..=j] {
                        counts[table[o + g] as usize] = 0;
                    }
                    return None;
                }
            }
            sum_squares += 2 * *c as u64 + 1;
            *c += 1;
        }
        let is_candidate = counts[Feedback::ALL_GREEN.0 as usize] > 0;
        for &o in offsets {
            counts[table[o + g] as usize] = 0;
        }
        Some(Split {
            buckets: offsets.len() - repeats,
            sum_squares,
            is_candidate,
        })
    }

    /// [`Solver::bound_scan`] for the 32 guesses from `g0` at once: each candidate's
    /// answer-major row gives 32 contiguous feedbacks, and comparing every pair of
    /// candidates lane by lane counts repeats (candidates whose feedback an earlier
    /// one had: buckets = n - repeats) and equal pairs (sum of squares = n + 2 pairs)
    /// without the dependent counter updates of the scalar scan. Needs n <= BLOCK_MAX.
    pub(super) fn block_scan(&self, g0: usize, offsets: &[usize], out: &mut [Split; LANES]) {
        let table = &self.by_answer[..];
        with_avx2!(block_scan_body(table: &[u8], g0: usize, offsets: &[usize], out: &mut [Split; LANES]) -> ())
    }

    /// The guesses `g0..g0 + 32` with fewer than `max_repeats` repeats on the
    /// candidates at `offsets` (a bit per guess), and for those their split in `out`
    /// (the other lanes of `out` are meaningless). Candidates are taken one at a time
    /// and compared lane by lane with all earlier ones (rows kept in `rows`), and the
    /// sieve stops once every lane has reached `max_repeats`: usually after a dozen or
    /// two candidates. Needs n <= [`SIEVE_MAX_N`].
    pub(super) fn block_sieve(
        &self,
        g0: usize,
        offsets: &[usize],
        max_repeats: usize,
        rows: &mut Vec<[u8; LANES]>,
        out: &mut [Split; LANES],
    ) -> u32 {
        debug_assert!(max_repeats <= SIEVE_MAX_REPEATS);
        let table = &self.by_answer[..];
        with_avx2!(sieve(
            table: &[u8],
            g0: usize,
            offsets: &[usize],
            max_repeats: usize,
            rows: &mut Vec<[u8; LANES]>,
            out: &mut [Split; LANES]
        ) -> u32)
    }

    /// The guesses `g0..g0 + 32` with fewer than `max_repeats` repeats on the
    /// candidates at `offsets` (a bit per guess), and for every lane its split in
    /// `out` (meaningful for the kept ones), from per-lane bucket counts in `counts`
    /// (zero on entry, left zero). For the states too large for the pairwise kernels
    /// or under a loose cutoff; stops once every lane has reached `max_repeats`.
    pub(super) fn block_tally(
        &self,
        g0: usize,
        offsets: &[usize],
        max_repeats: usize,
        counts: &mut [[u16; 256]; LANES],
        out: &mut [Split; LANES],
    ) -> u32 {
        let table = &self.by_answer[..];
        with_avx2!(tally(
            table: &[u8],
            g0: usize,
            offsets: &[usize],
            max_repeats: usize,
            counts: &mut [[u16; 256]; LANES],
            out: &mut [Split; LANES]
        ) -> u32)
    }

    /// Fills `level.allowed` with the guesses the children need: in normal mode one
    /// guess per partition class of the state (compared exactly, by canonical labels:
    /// bucket numbers in order of first appearance); in hard mode every allowed guess.
    /// Guesses that do not split the state and are not candidates are left out. Done
    /// only for states that expand a guess (about one in five at four guesses left).
    pub(super) fn classify(
        &self,
        ids: &[AnswerId],
        revealed: &Revealed,
        parent_allowed: &[GuessId],
        level: &mut Level,
        classes: &mut Classes,
    ) {
        let n = ids.len();
        let hard = self.config.hard;
        let table = &self.by_answer[..];
        let demand = revealed.demand();
        level.allowed.clear();
        if !hard {
            level.allowed_bits.clear();
            level
                .allowed_bits
                .resize(self.game.n_guesses().div_ceil(64), 0);
        }
        classes.begin(n);
        for &g in parent_allowed {
            if hard && !demand.allows(&self.sigs[g as usize]) {
                continue;
            }
            let gi = g as usize;
            let counts: &mut [u32; FEEDBACKS] =
                level.counts.as_mut_slice().try_into().expect("243 slots");
            let (mut buckets, mut hash) = (0u32, 0u64);
            for (&o, out) in level.offsets.iter().zip(classes.current.iter_mut()) {
                let c = &mut counts[table[o + gi] as usize];
                if *c == 0 {
                    buckets += 1;
                    *c = buckets;
                }
                *out = *c as u8;
                hash = (hash ^ *c as u64).wrapping_mul(0x0100_0000_01b3);
            }
            let is_candidate = counts[Feedback::ALL_GREEN.0 as usize] > 0;
            for &o in &level.offsets {
                counts[table[o + gi] as usize] = 0;
            }
            if buckets == 1 && !is_candidate {
                continue;
            }
            if !hard && !is_candidate && classes.seen(hash) {
                continue;
            }
            level.allowed.push(g);
            if !hard {
                level.allowed_bits[gi / 64] |= 1 << (gi % 64);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, ListSource};
    use crate::search::Config;
    use crate::table::FeedbackTable;

    /// The block sieve and the block tally keep exactly the guesses the scalar scan
    /// keeps (they count the same repeats, stopping early only when every lane is
    /// already dropped) with the same counts, and the block scan (both instruction
    /// sets) matches the scalar counts, on random states of the full lists.
    #[test]
    #[allow(clippy::needless_range_loop)] // lanes index several arrays
    fn block_kernels_match_the_scalar_scan() {
        let game = Game::load(&ListSource::Named("wordle".into())).unwrap();
        let table = FeedbackTable::build(&game);
        let solver = Solver::new(&game, &table, Config::default());
        let stride = game.n_guesses();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |below: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % below as u64) as usize
        };
        let mut counts = vec![0u32; FEEDBACKS];
        let mut rows = Vec::new();
        let mut tally_counts = [[0u16; 256]; LANES];
        for round in 0..60 {
            // Candidates from a window of the list (shared letters, many repeats);
            // every fourth round a large state, for the tally alone.
            let (n, width) = if round % 4 == 3 {
                (300 + next(700), 1500)
            } else {
                (3 + next(200), 400)
            };
            let start = next(game.n_answers() - width);
            let mut ids: Vec<AnswerId> =
                (0..n).map(|_| (start + next(width)) as AnswerId).collect();
            ids.sort_unstable();
            ids.dedup();
            let n = ids.len();
            let offsets: Vec<usize> = ids.iter().map(|&a| a as usize * stride).collect();
            for _ in 0..8 {
                let g0 = next(stride / LANES) * LANES;
                for max_repeats in [1, 2, 3, 5, 8, 16].into_iter().filter(|_| n <= SIEVE_MAX_N) {
                    let mut sieved = [Split::default(); LANES];
                    let mask =
                        solver.block_sieve(g0, &offsets, max_repeats, &mut rows, &mut sieved);
                    for l in 0..LANES {
                        let g = (g0 + l) as GuessId;
                        let scan = solver.bound_scan(g, &offsets, &mut counts, max_repeats);
                        if let Some(want) = scan {
                            let got = sieved[l];
                            assert_eq!(
                                (got.buckets, got.sum_squares, got.is_candidate),
                                (want.buckets, want.sum_squares, want.is_candidate),
                                "guess {g}"
                            );
                        }
                        let kept = scan.is_some();
                        assert_eq!(
                            mask >> l & 1 == 1,
                            kept,
                            "round {round}, n {}, guess {g}, max repeats {max_repeats}",
                            ids.len()
                        );
                    }
                }
                for max_repeats in [1, 5, 16, 40, usize::MAX] {
                    let mut tallied = [Split::default(); LANES];
                    let mask = solver.block_tally(
                        g0,
                        &offsets,
                        max_repeats,
                        &mut tally_counts,
                        &mut tallied,
                    );
                    assert!(tally_counts.iter().all(|lane| lane.iter().all(|&c| c == 0)));
                    // The plain build of the kernel (the above may be the AVX2 one).
                    let mut plain = [Split::default(); LANES];
                    let plain_mask = tally(
                        &solver.by_answer,
                        g0,
                        &offsets,
                        max_repeats,
                        &mut tally_counts,
                        &mut plain,
                    );
                    assert_eq!(plain_mask, mask);
                    for l in 0..LANES {
                        let g = (g0 + l) as GuessId;
                        let scan = solver.bound_scan(g, &offsets, &mut counts, max_repeats);
                        assert_eq!(mask >> l & 1 == 1, scan.is_some(), "guess {g}");
                        if let Some(want) = scan {
                            for got in [tallied[l], plain[l]] {
                                assert_eq!(
                                    (got.buckets, got.sum_squares, got.is_candidate),
                                    (want.buckets, want.sum_squares, want.is_candidate),
                                    "guess {g}, max repeats {max_repeats}"
                                );
                            }
                        }
                    }
                }
                if ids.len() <= BLOCK_MAX {
                    let mut out = [Split::default(); LANES];
                    solver.block_scan(g0, &offsets, &mut out);
                    let mut plain = [Split::default(); LANES];
                    block_scan_body(&solver.by_answer, g0, &offsets, &mut plain);
                    for l in 0..LANES {
                        let want = solver
                            .bound_scan((g0 + l) as GuessId, &offsets, &mut counts, usize::MAX)
                            .unwrap();
                        for got in [out[l], plain[l]] {
                            assert_eq!(
                                (got.buckets, got.sum_squares, got.is_candidate),
                                (want.buckets, want.sum_squares, want.is_candidate)
                            );
                        }
                    }
                }
            }
        }
    }
}
