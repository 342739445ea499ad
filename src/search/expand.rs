//! Expansion: the branch-and-bound loop over a state's guesses in order of bound, the
//! evaluation of one guess bucket by bucket under a cutoff, and the feasibility
//! shortcut (try the best-splitting answers before scanning every guess).
//!
//! Invariants: `search` returns the exact cost when it is below `cutoff`, else a lower
//! bound of at least `cutoff`, and stores exactly that in the transposition table; a guess is abandoned
//! only when its partial sum plus the bounds of its remaining buckets reaches the
//! cutoff, so no better guess is ever cut.

use super::bound::{add, INFEASIBLE};
use super::cores::CORE_MIN;
use super::groups::{Per, GROUP_MIN};
use super::kernels::{Split, BLOCK_MAX, LANES};
use super::scan::{row_has_green, sorted_prefix, Head, Prepared, Scanned};
use super::scratch::{Level, CHARGE_MIN};
use super::state::{Guesses, State, Work};
use super::tt::{Bound, Key};
use super::Solver;
use crate::game::candidates::Labels;
use crate::game::feedback::{Feedback, FEEDBACKS};
use crate::game::hard::Revealed;
use crate::game::word::Word;
use crate::game::{AnswerId, GuessId};
use std::sync::atomic::Ordering;

/// States of at most this many candidates (normal mode) hand every guess to their
/// children instead of one per partition class: the children's block scans and
/// sieves read whole blocks of guesses anyway, so classes cost more than they save.
/// Measured against 22: off-tree `audio:YBBBB` (435 candidates) 7.3 -> 4.5 s, where
/// the class computation was 37% of the time; `solve` unchanged or slightly faster.
/// Raised from 64 to 128 once the feedback-mask kernel made the scans of states up to
/// 255 candidates cheap: at the third-guess states of 65 to 128 candidates the classes
/// and their dominance checks were a third of the CPU of the NYT opener `jiggy`
/// (2166 classifications). NYT seeded sample of 100 openers (`openers --exact --random
/// 100 --seed 1`, one thread each, two runs side by side): mean 3.98 -> 3.46 CPU-s,
/// `jiggy` 54.2 -> 35.9, `tutty` 36.7 -> 23.6, same totals; 256 was no better.
const HAND_ALL_MAX: usize = 128;

/// Buckets of up to this many candidates that the transposition table does not know
/// get their candidate-split bound ([`Solver::candidate_split`]: one more guess when
/// no candidate splits the bucket into singletons) before any bucket is searched, so
/// a guess can be refuted without a search. Measured on the 731 candidates of
/// `judos:BBBBB` (NYT lists, one thread, user time on a loaded machine): 16.8 s with
/// none, 15.3 s up to 8, 15.4 s up to 16, 17.0 s up to 32 (the m * m lookups of
/// larger buckets cost more than the refutations they bring).
const CANDIDATE_SPLIT_MAX: usize = 12;

/// Cutoffs above this are refutations: no finite cost reaches them (a cost is at
/// most a few guesses per answer, far below 2^28), so only an infeasible bound
/// refutes a guess there.
const REFUTING: u32 = INFEASIBLE - (1 << 28);

/// Guesses [`Solver::first_fit`] expands before giving up on the shortcut.
const FIRST_FIT: usize = 2;

/// The default of [`super::Config::prescan_left`]: at states with at least this many
/// guesses left (normal mode; the opener's buckets in a game of six), a guess the
/// cheap bounds leave open first has its buckets of at least `PRESCAN_MIN`
/// candidates scanned, largest first, each under the cutoff it must reach to refute
/// the guess, and each bucket's bound raised to its scan's. Only then are the buckets
/// searched, smallest first. The raised bounds add up over the buckets, so a guess
/// whose buckets are each a little worse than their size bounds is refuted without
/// solving any. A raised bound is kept in the transposition table: the same bucket
/// comes again under other guesses of the parent (and other parents), where the
/// scan then starts from it and stops as soon as its least reaches it, or the table
/// refutes the guess at once (farm-bench, one thread, `openers --exact`, same
/// results: NYT hard `nyong botty vivos cheth` 20.4 -> 16.4 CPU-s, A/B 0.82; NYT
/// normal, the nine openers below, 13.4 -> 12.3, A/B 0.91). Measured
/// (NYT normal, one thread, `jiggy`, whose all-gray bucket of 1153 candidates is
/// nearly all its time): states searched 237k -> 36k, 12.3k second guesses refuted
/// by the scans; farm-bench over `faith taint hoiks edict stell etuis reffo chout
/// tutty`, `openers --exact`: 31.0 -> 28.1 CPU-s. A scan that stops at the first
/// guess under the cutoff (cheaper, but it can only refute, not raise the bound) was
/// slower: 27.3 against 25.1 CPU-s for this one in a second pair of runs. NYT sample
/// of 100 openers side by side: mean 2.51 -> 2.12 CPU-s. In hard mode they were at
/// first slower (`nyong botty vivos cheth` 48.8 -> 58.4 CPU-s), as each pre-scanned
/// bucket copied its playable guesses into a table of its own and scanned them all;
/// see below for how they pay there now.
///
/// The pre-scans are nearly all of the work on a poor opener (NYT `tutty`: 29.0k of
/// the 29.1k scans of states with four guesses left, 92% of the time), and they need
/// only the least bound of the bucket's guesses, so they run as
/// `Solver::least_bound`: a guess is dropped once its repeats show it cannot beat
/// the least bound found so far, the scan stops once that least is down to the
/// bucket's bound (it could raise nothing), and under the parent's compact table,
/// whose lanes come in order of the buckets each guess makes on the parent (an upper
/// bound for any bucket of it), the scan stops at the first block whose cap cannot
/// beat the least either. Measured (one thread): `tutty` 12.1 -> 10.8 s with the
/// least-bound scan and lanes by strength, 7.2 s with the caps; farm-bench over the
/// nine openers above, `openers --exact`: 28.7 -> 17.6 CPU-s (A/B 1.64), same results.
///
/// Hard mode: a state whose buckets are pre-scanned builds, after its scan, a compact
/// table of the guesses it may play, in order of the buckets each makes on it (its
/// caps), and a bucket's pre-scan reads that table in place, its own playable lanes
/// masked in: no copy per bucket, and the scan stops at the first block whose cap
/// cannot beat its least bound. Measured (NYT hard `botty`, one thread): states
/// searched 209k -> 31k, guesses expanded 962k -> 26k; farm-bench over `nyong botty
/// vivos cheth`, `openers --exact`: 30.2 -> 20.7 CPU-s (A/B 0.687), same results,
/// peak memory 310 -> 167 MiB (fewer states in the transposition table). A third of
/// the parent's lanes are playable in a bucket on average (11.5k lanes per pre-scan,
/// 154 blocks read, 10.6 of 32 lanes live in each, over those four openers), so the
/// pre-scans read windows of 32 playable lanes (`kernels::Window`): 16.6 -> 14.6
/// CPU-s (A/B 0.88), the same states; the playable lanes found a word of 64 at a
/// time as the scan reaches them (it stops at its cap break, on average before half
/// of them), not one lane at a time up front: 14.4 -> 13.0 (A/B 0.90). Pre-scans
/// that copied each bucket's playable guesses into a table of their own (packed, or
/// by cap) were no faster than none.
pub const PRESCAN_LEFT: u8 = 5;

/// Buckets smaller than this are not pre-scanned ([`PRESCAN_LEFT`]).
const PRESCAN_MIN: u32 = 8;

impl Solver<'_> {
    /// Branch and bound (see the module doc). Returns the exact cost and the best guess
    /// when the cost is below `cutoff`; otherwise a lower bound `>= cutoff` and `None`.
    /// `st.handed` holds a guess of every class the parent found (or every guess).
    pub(super) fn search(
        &self,
        st: &State,
        cutoff: u32,
        work: &mut Work,
    ) -> (u32, Option<GuessId>) {
        let head = match self.scan_head(st, cutoff, work) {
            Ok(head) => head,
            Err(Scanned::Done(v, g)) => return (v, g),
            Err(Scanned::Expand(_) | Scanned::Below(_)) => {
                unreachable!("the head settles a state or defers it")
            }
        };
        let key = Key {
            ids: st.ids,
            left: st.left,
            hard: head.hard_key,
        };
        if let Some(g) = self.first_fit(st, cutoff, head, work) {
            return self.finish(&key, cutoff, head.lb, (head.lb, Some(g)), cutoff);
        }
        let Prepared {
            w,
            lb,
            incumbent,
            rejected,
            ..
        } = match self.scan_guesses(st, cutoff, head, None, work) {
            Scanned::Done(v, g) => return (v, g),
            Scanned::Expand(p) => p,
            Scanned::Below(_) => unreachable!("only a least-bound scan stops below"),
        };
        let ids = st.ids;
        let n = ids.len();
        let hard = self.config.hard;
        // Step 3: expand guesses in order of bound.
        let (mut best, mut best_guess) = if incumbent.0 < cutoff {
            incumbent
        } else {
            (cutoff, None)
        };
        // The least lower bound among guesses that lost.
        let mut proved = rejected;
        let dominate = !hard && n >= self.config.dominance_min;
        let (level, mut below) = work.split();
        level.classified = false;
        if level.expanded.capacity() > 1024 {
            // Clearing a map costs its capacity: the small states that follow a large
            // one at this depth start from a fresh map instead.
            level.expanded = Default::default();
        } else if !level.expanded.is_empty() {
            level.expanded.clear();
        }
        level.expanded_labels.clear();
        self.prepare_demands(st, level);
        let greens = st.revealed.green_positions();
        let mut sorted = 0;
        for k in 0..level.order.len() {
            sorted_prefix(&mut level.order, k, &mut sorted);
            let packed = level.order[k];
            let glb = (packed >> 64) as u32;
            let g = GuessId((packed & 0xffff) as u16);
            if glb >= best {
                proved = proved.min(glb);
                break;
            }
            if packed >> 16 & 1 == 1 {
                continue; // a perfect split: its bound is its cost, the incumbent is best
            }
            if level.classified && !hard {
                // The classes keep one guess per way of splitting the state, and leave
                // out dominated guesses: a guess that is not kept splits like one that
                // is (found earlier in this order, at the same bound) or is dominated.
                let gi = g.index();
                if level.allowed_bits[gi / 64] >> (gi % 64) & 1 == 0 {
                    continue;
                }
            } else {
                if !hard && self.expanded_before(g, level) {
                    continue; // splits exactly like a guess already expanded here
                }
                if dominate && self.dominated(g, &st.handed, &level.offsets) {
                    below.ctr.dominated += 1;
                    continue; // a neighbour handed down splits at least as finely
                }
            }
            if self.fails_demands(g, greens, level) {
                continue; // a bucket holds more of a group than it can find: infeasible
            }
            below.ctr.expansions += 1;
            let v = self.expand(g, st, w, best, level, &mut below);
            if v < best {
                best = v;
                best_guess = Some(g);
            } else {
                proved = proved.min(v);
            }
        }
        if n >= CHARGE_MIN {
            // A large state may have grown this level (compact table, labels), the
            // class map and the cores: their bytes count against the memory budget, and
            // growth past what the limit leaves the entries evicts them now.
            let tt = &self.tt;
            level.charge_with(|c, now| tt.charge_scratch(c, now));
            below
                .classes
                .charge_with(|c, now| tt.charge_scratch(c, now));
            below.cores.charge_with(|c, now| tt.charge_scratch(c, now));
        }
        if self.stop.load(Ordering::Relaxed) || super::budget::exhausted() {
            return (INFEASIBLE, None);
        }

        let (v, g) = self.finish(&key, cutoff, lb, (best, best_guess), proved);
        if self.cores_on() {
            below
                .cores
                .record(&self.config.objective, ids, st.left, &st.revealed, v);
        }
        (v, g)
    }

    /// Hard mode: the groups' demands on the guesses of `st` into `level.demands`
    /// (`Groups::demands`; empty elsewhere): a guess that holds too few of a large
    /// group's letters leaves a bucket that cannot be finished, so it is refuted with
    /// a few mask operations instead of being expanded (no regrouping, no bucket
    /// bounds). Measured on the AVX2 path, NYT 2023 hard `doums` (one thread,
    /// `openers --exact`, load 4): 22.3 -> 12.4 CPU-s; guesses expanded at states of
    /// 16 or more candidates with three guesses left 14.9M -> 5.7M (nearly all
    /// refuted by a bucket's bounds). Both expansion loops use it: the serial one
    /// here and `Solver::run_top`'s workers.
    pub(super) fn prepare_demands(&self, st: &State, level: &mut Level) {
        level.demands.clear();
        level.group_cap = u32::MAX;
        if self.config.hard && st.left >= 3 && st.ids.len() >= GROUP_MIN {
            level.group_cap = self.groups.demands(
                st.ids,
                st.left,
                Per::hard(&st.revealed),
                &mut level.group_counts,
                &mut level.group_masks,
                &mut level.demands,
            );
        }
    }

    /// True when `g` fails a demand of `level.demands` ([`Solver::prepare_demands`]):
    /// one of its buckets holds more of a group than it can find. `greens`: the
    /// state's green positions (their letters split nothing).
    #[inline]
    pub(super) fn fails_demands(&self, g: GuessId, greens: u8, level: &Level) -> bool {
        if level.demands.is_empty() {
            return false;
        }
        let word = self.game.guesses[g.index()];
        let mut held = 0u32;
        for i in 0..5 {
            if greens >> i & 1 == 0 {
                held |= 1 << word.letter(i);
            }
        }
        level
            .demands
            .iter()
            .any(|&(x, need)| (held & x).count_ones() < need)
    }

    /// Feasibility shortcut (pure feasibility objective, normal mode, three or more
    /// guesses left, more than [`BLOCK_MAX`] candidates): one witness is enough, so
    /// before the bound of every guess is scanned, the answers (a fifth of the allowed
    /// guesses, and the better splitters) are scanned alone and the [`FIRST_FIT`] with
    /// the least sum of squared bucket sizes are expanded. A guess that finishes in
    /// time settles the state (every tree in time costs the state's bound, 0); if none
    /// does, the full scan follows and finds their failed buckets in the transposition table.
    /// Returns the guess that finished.
    fn first_fit(&self, st: &State, cutoff: u32, head: Head, work: &mut Work) -> Option<GuessId> {
        let obj = &self.config.objective;
        let (ids, parent) = (st.ids, st.handed);
        let n = ids.len();
        if !obj.is_feasibility() || self.config.hard || head.left < 3 {
            return None;
        }
        let handed = |g: usize| parent.has(g);
        let (level, mut below) = work.split();
        let ctr = &mut *below.ctr;
        let answers = self.game.n_answers();
        let pool_end = parent.list.partition_point(|&g| g.index() < answers);
        level.order.clear();
        if n <= BLOCK_MAX {
            // The answers 32 at a time (the few past the last whole block left out).
            let mut block = [Split::default(); LANES];
            for g0 in (0..answers / LANES * LANES).step_by(LANES) {
                self.rows.block_scan(g0, &level.offsets, &mut block);
                ctr.scanned += (LANES * n) as u64;
                for (l, split) in block.iter().enumerate() {
                    if handed(g0 + l) && (split.buckets > 1 || split.is_candidate) {
                        level
                            .order
                            .push((split.sum_squares as u128) << 16 | (g0 + l) as u128);
                    }
                }
            }
        }
        for &g in &parent.list[..if n <= BLOCK_MAX { 0 } else { pool_end }] {
            if !handed(g.index()) {
                continue;
            }
            ctr.scanned += n as u64;
            let split = self
                .rows
                .bound_scan(g, &level.offsets, &mut level.counts, usize::MAX)
                .expect("no early rejection without a limit");
            if split.buckets > 1 || split.is_candidate {
                level
                    .order
                    .push((split.sum_squares as u128) << 16 | g.0 as u128);
            }
        }
        let tries = FIRST_FIT.min(level.order.len());
        if tries == 0 {
            return None;
        }
        level.order.select_nth_unstable(tries - 1);
        level.order[..tries].sort_unstable();
        // Only some guesses were scanned: the children may not assume a split limit.
        level.max_split = usize::MAX;
        // Nor were the state's groups counted.
        level.group_cap = u32::MAX;
        for k in 0..tries {
            let g = GuessId((level.order[k] & 0xffff) as u16);
            below.ctr.expansions += 1;
            let v = self.expand(g, st, head.w, cutoff, level, &mut below);
            if v <= head.lb {
                return Some(g);
            }
        }
        None
    }

    /// Stores and returns what a search of the state proved: `best` reached by
    /// `best_guess`, or else the least bound `proved` of the guesses that lost.
    pub(super) fn finish(
        &self,
        key: &Key,
        cutoff: u32,
        lb: u32,
        (best, best_guess): (u32, Option<GuessId>),
        proved: u32,
    ) -> (u32, Option<GuessId>) {
        match best_guess {
            Some(g) => {
                debug_assert!(best >= lb, "a bound never exceeds a found cost");
                self.tt.store(key, Bound::Exact(best, g));
                (best, Some(g))
            }
            None => {
                let v = proved.max(lb);
                debug_assert!(v >= cutoff);
                self.tt.store(key, Bound::Lower(v));
                (v, None)
            }
        }
    }

    /// The guesses a state hands to its children: every guess (`small`), or the
    /// classes in `level` (`Solver::classify`).
    fn handed_down<'l>(&'l self, small: bool, level: &'l Level) -> Guesses<'l> {
        if small {
            Guesses {
                max_split: level.max_split,
                ..self.everything()
            }
        } else {
            Guesses {
                list: &level.allowed,
                bits: Some(&level.allowed_bits[..]),
                max_split: level.max_split,
                local: if self.config.hard {
                    level.own_ready.then_some(&level.own)
                } else {
                    level.has_local.then_some(&level.local)
                },
                sorted: (self.config.hard && level.kids_ready)
                    .then_some((&level.local, &level.kids)),
            }
        }
    }

    /// True when `g` splits `ids` exactly like a guess already expanded at this state
    /// (same canonical labels, compared in full); otherwise records its class.
    pub(super) fn expanded_before(&self, g: GuessId, level: &mut Level) -> bool {
        let n = level.offsets.len();
        let start = level.expanded_labels.len();
        level.expanded_labels.resize(start + n, 0);
        let Labels {
            hash, is_candidate, ..
        } = self
            .rows
            .labels(g, &level.offsets, &mut level.expanded_labels[start..]);
        if is_candidate {
            // A candidate's green answer sets it apart from every other guess.
            level.expanded_labels.truncate(start);
            return false;
        }
        let (labels, mine) = level.expanded_labels.split_at(start);
        match level.expanded.entry(hash) {
            std::collections::hash_map::Entry::Occupied(e) => {
                // Equal hashes with different labels (a collision) count as new; that
                // guess is then expanded again, which costs time, never a result.
                let s = *e.get();
                let seen = labels[s..s + n] == *mine;
                level.expanded_labels.truncate(start);
                seen
            }
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(start);
                false
            }
        }
    }

    /// The cost of playing `g` at the state (`w` counted candidates), if below
    /// `cutoff`; otherwise a lower bound `>= cutoff` for it. `level` is the state's
    /// own scratch, `below` its children's.
    ///
    /// In steps, each ending the guess once the bounds reach the cutoff: the
    /// candidates regrouped by bucket ([`Solver::regroup`]), every bucket's cheap
    /// bound ([`Solver::bucket_bounds`]), the cores' ([`Solver::core_bounds`]), the
    /// pre-scans' ([`Solver::prescan`]), then the buckets searched
    /// ([`Solver::search_buckets`]).
    pub(super) fn expand(
        &self,
        g: GuessId,
        st: &State,
        w: u32,
        cutoff: u32,
        level: &mut Level,
        below: &mut Work,
    ) -> u32 {
        let (n, left) = (st.ids.len(), st.left);
        let obj = &self.config.objective;
        let word = self.game.guesses[g.index()];
        // With two guesses left after this one, a bucket larger than the state's
        // split limit is infeasible (`bucket_bounds`, which takes the largest bucket
        // first and stops there): found while counting, before the buckets are laid
        // out, sorted and probed. Same value, same states (`regroup`).
        let limit = if left == 3 {
            level.max_split
        } else {
            usize::MAX
        };
        if !self.regroup(g, st.ids, limit, level) {
            return INFEASIBLE;
        }
        // With no finite cutoff (a refutation: no finite sum refutes), a bucket that
        // holds a recent refuter of the cores settles the guess before any other
        // bound is taken: the same value (`core_bounds` would find that core).
        if cutoff > REFUTING && left >= self.config.core_left && self.cores_on() {
            for &(s, m, f, _) in level.buckets.iter() {
                if (m as usize) <= CORE_MIN {
                    continue;
                }
                let child = &level.buf[s as usize..(s + m) as usize];
                let next = self.after(&st.revealed, word, f);
                if below.cores.recent_refutes(child, left - 1, &next) {
                    below.ctr.core_refutations += 1;
                    return INFEASIBLE;
                }
            }
        }
        let here = obj.node(n, w, left);
        let mut sum_lb = self.bucket_bounds(st, word, here, level, below);
        if sum_lb < cutoff && left >= self.config.core_left && self.cores_on() {
            sum_lb = self.core_bounds(st, word, cutoff, sum_lb, level, below);
        }
        if sum_lb >= cutoff {
            return sum_lb;
        }
        // A bucket is searched: its children need the state's guesses. `level.allowed`
        // holds them once classified; states up to HAND_ALL_MAX (normal mode) hand
        // every guess down, not classes. Feasibility (unit 0, no penalty) needs one
        // success, not the best: exact classes for the children cost more than they
        // save there (check within 5: 0.154 s -> 0.121 s). A count of answers over D
        // (unit 0 with a penalty) refutes nearly every guess at the opener's buckets,
        // each by scanning a child: there the classes and the compact table pay
        // (min-over 4 sample of 33 openers, one thread, two runs in either order: 2.73
        // -> 2.20 and 2.58 -> 1.93 CPU-s per opener). Classified here, not before the
        // first guess is expanded: a state whose guesses all fall to their bucket
        // bounds never needs the classes.
        let small = !self.config.hard && (n <= HAND_ALL_MAX || obj.is_feasibility());
        if !small && !level.classified {
            self.classify(st, level, below.classes);
            level.classified = true;
        }
        if left >= self.config.prescan_left && obj.unit > 0 {
            sum_lb = self.prescan(st, word, small, cutoff, sum_lb, level, below);
            if sum_lb >= cutoff {
                return sum_lb;
            }
        }
        self.search_buckets(st, word, small, (here, sum_lb), cutoff, level, below)
    }

    /// Regroups the candidates `ids` by their feedback to `g` into `level.buf`, bucket
    /// by bucket (a stable counting sort keeps each bucket sorted), and lists the
    /// buckets but the all-green one in `level.buckets` (start, size, feedback, bound
    /// 0), in feedback order. Returns false, and lays out nothing, when some bucket
    /// holds more than `limit` candidates (the all-green one holds at most one).
    ///
    /// The limit is the split limit of a state with three guesses left
    /// ([`Solver::expand`]): there nearly every guess expanded is refuted by its
    /// buckets' cheap bounds, most by a bucket too large for two guesses (NYT 2023
    /// hard `mixen`, AVX2 path, one thread, a throwaway count: 16.9M expansions at
    /// three left, 16.7M refuted by bucket bounds, 9.4M of them by the split limit;
    /// regrouping and bounding those guesses took 56% of the run's time-stamp
    /// cycles). The laying out, the sort by size and the probes of such a guess were
    /// wasted. Measured on `mixen` (`openers --exact`, cannot-finish, the same 376 556
    /// states; each against main side by side, load 3-4): the early stop 28.6 -> 27.0
    /// CPU-s, with the buckets listed from the feedbacks seen 26.1 -> 23.2, with the
    /// feedbacks read from the state's own table 28.6 -> 19.9.
    #[inline]
    fn regroup(&self, g: GuessId, ids: &[AnswerId], limit: usize, level: &mut Level) -> bool {
        let n = ids.len();
        // The candidates' feedbacks, once: from the state's own table when it has
        // one (hard mode; its rows were just read by the scan, a cache line per
        // candidate shared by the neighbouring lanes), else from the guess's row of
        // the full table (a line per few candidates, rarely cached: the first read
        // was nearly a third of `expand`'s own samples on the 2023 hard sample).
        let fb = &mut level.feedbacks;
        if !(level.own_ready && level.own.column(g, fb) && fb.len() == n) {
            let row = self.table.row(g);
            fb.clear();
            fb.extend(ids.iter().map(|a| row[a.index()]));
        }
        debug_assert!(
            ids.iter()
                .zip(fb.iter())
                .all(|(a, &f)| self.table.row(g)[a.index()] == f),
            "the own table's column is the guess's row"
        );
        let counts: &mut [u32; FEEDBACKS] =
            level.counts.as_mut_slice().try_into().expect("243 slots");
        // The feedbacks seen, a bit each: the buckets are listed from these bits, not
        // by a pass over all 243 counts (a branch per count, mispredicted around
        // every bucket: a fifth of `expand`'s own samples on the 2023 hard sample).
        let mut seen = [0u64; 4];
        let mut largest = 0u32;
        for &f in fb.iter() {
            let f = f as usize;
            let c = &mut counts[f];
            *c += 1;
            largest = largest.max(*c);
            seen[f / 64] |= 1 << (f % 64);
        }
        if largest as usize > limit {
            counts.fill(0);
            return false;
        }
        seen[Feedback::ALL_GREEN.0 as usize / 64] &= !(1 << (Feedback::ALL_GREEN.0 as usize % 64));
        level.buckets.clear();
        let mut start = 0u32;
        for (w, mut bits) in seen.into_iter().enumerate() {
            while bits != 0 {
                let f = 64 * w + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let size = counts[f];
                level.buckets.push((start, size, Feedback(f as u8), 0));
                counts[f] = start;
                start += size;
            }
        }
        // The all-green bucket (the guess itself, a candidate) last: its slot is past
        // every listed bucket, so the listed ones keep their places.
        let green = &mut counts[Feedback::ALL_GREEN.0 as usize];
        if *green > 0 {
            *green = start;
        }
        level.buf.clear();
        level.buf.resize(n, AnswerId(0));
        for (&a, &f) in ids.iter().zip(fb.iter()) {
            let slot = &mut counts[f as usize];
            level.buf[*slot as usize] = a;
            *slot += 1;
        }
        counts.fill(0);
        debug_assert_eq!(
            level.buckets.iter().map(|b| b.1 as usize).sum::<usize>()
                + row_has_green(self.table.row(g), ids) as usize,
            n,
            "bucket sizes sum to the candidates"
        );
        true
    }

    /// Each bucket's cheap bound into `level.buckets`: the size bound, raised by the
    /// groups' bound, then by the transposition table where it knows more (or, for a
    /// small bucket it does not know, the candidate-split bound). Returns their sum
    /// with `here`, the state's own cost. Largest bucket first, and it stops at the
    /// first infeasible one (the sum is then infeasible whatever the rest are; the
    /// buckets not reached keep bound 0, read by no one as the guess is refuted). A
    /// bucket with two guesses left and more candidates than any guess splits the
    /// state into (`level.max_split`) never gets here: [`Solver::regroup`] refuses its
    /// guess first. Measured on the AVX2 path, NYT 2023 hard `doums` (one thread,
    /// `openers --exact`, load 3-4): the stop alone 29.7 -> 22.3 CPU-s (same 304k states);
    /// with the groups' demands (`Solver::search`), largest first and the split
    /// limit 12.4 -> 9.9 CPU-s, states 300k -> 208k.
    #[inline]
    fn bucket_bounds(
        &self,
        st: &State,
        word: Word,
        here: u32,
        level: &mut Level,
        below: &mut Work,
    ) -> u32 {
        let (left, revealed) = (st.left, &st.revealed);
        let obj = &self.config.objective;
        let hard = self.config.hard;
        let mut sum_lb = here;
        level
            .buckets
            .sort_unstable_by_key(|b| std::cmp::Reverse(b.1));
        for b in level.buckets.iter_mut() {
            let (s, m, f, _) = *b;
            let child = &level.buf[s as usize..(s + m) as usize];
            let mut blb =
                obj.split_bound(m as usize, obj.counted(child), left - 1, level.max_split);
            // The bucket's history (hard mode), once for its groups and its key.
            let next = match hard && m >= 3 {
                true => revealed.after(word, f),
                false => Revealed::default(),
            };
            debug_assert!(left != 3 || m as usize <= level.max_split);
            if m as usize >= GROUP_MIN {
                let per = if hard { Per::hard(&next) } else { Per::NORMAL };
                // The bucket's groups are the state's, cut down: none is larger than
                // the state's largest (`level.group_cap`). The group bound grows with
                // the group and as `per` falls, so when even the largest with the
                // smaller `per` could not beat `blb`, the count would raise nothing.
                let cap = level.group_cap.min(m);
                let most = obj.group_bound(m as usize, cap, left - 1, per.clean.min(per.all));
                if most > blb {
                    let v = self
                        .groups
                        .bound(obj, child, left - 1, per, &mut level.group_counts);
                    blb = blb.max(v);
                } else {
                    debug_assert!(
                        self.groups
                            .bound(obj, child, left - 1, per, &mut level.group_counts)
                            <= blb,
                        "a bucket's group bound is within its state's cap"
                    );
                }
            }
            if m >= 3 && blb < INFEASIBLE {
                let key = if hard { next.key() } else { 0 };
                below.ctr.probes += 1;
                let key = Key {
                    ids: child,
                    left: left - 1,
                    hard: key,
                };
                match self.tt.probe(&key) {
                    Some(Bound::Exact(v, _)) | Some(Bound::Lower(v)) => blb = blb.max(v),
                    None if m as usize <= CANDIDATE_SPLIT_MAX && left >= 3 && obj.unit > 0 => {
                        // The bucket's own candidate-split bound (m * m lookups).
                        let (v, _) = self.candidate_split(child, obj.counted(child), left - 1);
                        blb = blb.max(v);
                    }
                    None => {}
                }
            }
            b.3 = blb;
            sum_lb = add(sum_lb, blb);
            if sum_lb >= INFEASIBLE {
                // Sums saturate at INFEASIBLE: the other buckets cannot change it, so
                // the guess's value is the same without their bounds.
                break;
            }
        }
        sum_lb
    }

    /// Raises the bounds of the buckets the cheap bounds leave open by the cores'
    /// (recorded subsets), largest first, until the guess is refuted (`sum_lb`, the
    /// sum so far, reaches `cutoff`); returns the raised sum.
    #[inline]
    fn core_bounds(
        &self,
        st: &State,
        word: Word,
        cutoff: u32,
        mut sum_lb: u32,
        level: &mut Level,
        below: &mut Work,
    ) -> u32 {
        let obj = &self.config.objective;
        level
            .buckets
            .sort_unstable_by_key(|b| std::cmp::Reverse(b.1));
        for b in level.buckets.iter_mut() {
            let (s, m, f, blb) = *b;
            if (m as usize) <= CORE_MIN {
                break; // no proper subset of it is a core
            }
            let child = &level.buf[s as usize..(s + m) as usize];
            let next = self.after(&st.revealed, word, f);
            let v = below.cores.bound(obj, child, st.left - 1, &next);
            if v > blb {
                below.ctr.core_raises += 1;
                b.3 = v;
                sum_lb = add(sum_lb - blb, v);
                if sum_lb >= cutoff {
                    below.ctr.core_refutations += 1;
                    break;
                }
            }
        }
        sum_lb
    }

    /// The pre-scan ([`super::Config::prescan_left`]): the buckets of at least
    /// [`PRESCAN_MIN`] candidates, largest first, each scanned for its least bound
    /// under the cutoff that refutes the guess, its bound raised to it; returns the
    /// raised sum (at least `cutoff`: refuted).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn prescan(
        &self,
        st: &State,
        word: Word,
        small: bool,
        cutoff: u32,
        mut sum_lb: u32,
        level: &mut Level,
        below: &mut Work,
    ) -> u32 {
        level
            .buckets
            .sort_unstable_by_key(|b| std::cmp::Reverse(b.1));
        for i in 0..level.buckets.len() {
            let (s, m, f, blb) = level.buckets[i];
            if m < PRESCAN_MIN {
                break;
            }
            let child = &level.buf[s as usize..(s + m) as usize];
            let next = self.after(&st.revealed, word, f);
            let handed = self.handed_down(small, level);
            let refute = cutoff - (sum_lb - blb);
            let v = self.least_bound(&st.child(child, next, handed), refute, blb, below);
            if v > blb {
                level.buckets[i].3 = v;
                sum_lb = add(sum_lb - blb, v);
                if sum_lb >= cutoff {
                    below.ctr.prescan_refutations += 1;
                    return sum_lb;
                }
            }
        }
        sum_lb
    }

    /// Searches the buckets, smallest first (a count of answers over a depth, unit 0
    /// with a penalty: largest first, the likeliest to pay), each with what is left
    /// of the cutoff once the state's own cost `here` and the other buckets' bounds
    /// (`sum_lb` in all) are paid: the guess's cost, or a bound at least `cutoff` as
    /// soon as one is proved.
    ///
    /// Feasibility searched the largest first too until session 56, on the same
    /// reasoning, and lost to smallest first everywhere it was measured (AVX2 path,
    /// one thread, `check --max-guesses 6`, CPU-s largest -> smallest first): NYT
    /// 2023 hard `pelts` 1.48 -> 0.26, `sigri` 3.48 -> 0.92, NYT hard `jiggy` 0.85 ->
    /// 0.17; the 477-answer bucket `sense:BYBBB` (NYT 2023 hard, five left, no tree)
    /// unsettled after 300 s -> refuted in 53 s. A large bucket that can finish costs
    /// a search for its witness before a small one that cannot is reached, and the
    /// small ones settled first are met again, under the other guesses, in the
    /// transposition table (the bucket above: 1.35M table hits against 5k in 1M
    /// states). The total's refutations had shown the same (performance.md, "A
    /// refutation's buckets searched largest first"). A count over a depth pays
    /// where its largest bucket pays, and keeps largest first: smallest first made
    /// `--list wordle check --opener any --min-over 4 --sample 100` (130 openers, one
    /// thread, AVX2 path, side by side) 0.908 -> 1.843 CPU-s per opener.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn search_buckets(
        &self,
        st: &State,
        word: Word,
        small: bool,
        (here, sum_lb): (u32, u32),
        cutoff: u32,
        level: &mut Level,
        below: &mut Work,
    ) -> u32 {
        let obj = &self.config.objective;
        if obj.unit == 0 && obj.has_penalty() {
            // A count over a depth: the largest bucket is the likeliest to pay.
            level
                .buckets
                .sort_unstable_by_key(|b| std::cmp::Reverse(b.1));
        } else {
            level.buckets.sort_unstable_by_key(|b| b.1);
        }
        let mut acc = here;
        let mut rest = sum_lb - acc;
        for i in 0..level.buckets.len() {
            let (s, m, f, blb) = level.buckets[i];
            rest -= blb;
            let child_cutoff = cutoff - acc - rest;
            debug_assert!(child_cutoff > blb);
            let child = &level.buf[s as usize..(s + m) as usize];
            let next = self.after(&st.revealed, word, f);
            let handed = self.handed_down(small, level);
            let (v, _) = self.search(&st.child(child, next, handed), child_cutoff, below);
            acc = add(acc, v);
            if add(acc, rest) >= cutoff {
                return add(acc, rest);
            }
        }
        acc
    }
}
