//! The exact solver: the decision tree of least total cost, and its proof.
//!
//! A state is (candidates, guesses left, and in hard mode what has been revealed).
//! `cost(S, d) = min over allowed guesses g of |S| + sum over the non-green buckets B
//! of g of cost(B, d - 1)`; one candidate costs 1; more than one with one guess left
//! is infeasible.
//!
//! [`Solver::search`] is a depth-first branch and bound with a cutoff `beta`: it
//! returns the exact cost when that is below `beta`, and otherwise a proved lower bound
//! that is at least `beta`. A state is evaluated in three steps:
//! 1. closed forms (one or two candidates) and the table;
//! 2. a cheap scan: first the candidates alone (a candidate that splits the state into
//!    singletons is optimal at once, `2n - 1`), then every allowed guess, counting its
//!    buckets into a 243-slot array; this gives each guess an admissible bound
//!    (`bound.rs`) and finds a non-candidate perfect split (`2n`, optimal once no
//!    candidate splits perfectly). Guesses that do not split and are not candidates
//!    are dropped;
//! 3. guesses in order of bound (ties: smaller sum of squared bucket sizes) are
//!    expanded: their buckets are searched smallest first, each with the cutoff left
//!    over after the cost so far and the bounds of the buckets still to come, and a
//!    guess is abandoned as soon as that sum reaches the best cost found (or `beta`).
//!    The loop stops at the first guess whose bound reaches the best cost.
//!
//! Candidates are sorted `u16` id slices rather than bitsets here: most states searched
//! have a handful of candidates, and partitioning, hashing and comparing a list of `n`
//! ids costs `O(n)` while a 2315-bit set costs 37 words every time. Scratch buffers live
//! in one [`Level`] per depth, so the search never allocates after warm-up.
//!
//! Parallelism: the buckets of the opener are searched as independent rayon tasks that
//! share the table. Each bucket's cost is exact whatever the other tasks stored, so
//! serial and parallel runs give the same totals (the trees may differ among optima).

pub mod bound;
mod stats;
pub mod tt;

pub use stats::Counters;

use crate::candidates::partition;
use crate::feedback::{Feedback, FEEDBACKS};
use crate::game::{AnswerId, Game, GuessId};
use crate::hard::Revealed;
use crate::table::FeedbackTable;
use crate::tree::Node;
use bound::{add, guess_bound, size_bound, INFEASIBLE};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use tt::Bound;

/// Settings of one exact search.
#[derive(Clone, Debug)]
pub struct Config {
    /// Every answer must be found within this many guesses (the opener included).
    pub max_guesses: u8,
    pub hard: bool,
    /// Approximate limit on the table's memory, in bytes.
    pub memory_limit: usize,
    /// Use the transposition table (turned off only to test that it changes nothing).
    pub use_table: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_guesses: 6,
            hard: false,
            memory_limit: 4 << 30,
            use_table: true,
        }
    }
}

/// Why a search did not give a result.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SolveError {
    #[error("no tree finds every answer within {0} guesses")]
    Infeasible(u8),
    #[error("interrupted")]
    Interrupted,
}

/// The cost of an opener under a cutoff.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpenerCost {
    /// The exact least total (below the cutoff).
    Exact(u64),
    /// A proved lower bound, at least the cutoff.
    AtLeast(u64),
}

/// Scratch for one depth of the search.
#[derive(Default)]
pub(crate) struct Level {
    pub(crate) counts: Vec<u32>,
    /// Packed `(bound << 44 | sum of squares << 16 | guess)`, sorted ascending.
    pub(crate) order: Vec<u64>,
    /// The candidates, regrouped bucket by bucket for the guess being expanded.
    pub(crate) buf: Vec<AnswerId>,
    /// Non-green buckets of the guess being expanded: (start, size, feedback, bound).
    pub(crate) buckets: Vec<(u32, u32, u8, u32)>,
    /// Hard mode: the guesses allowed at this state.
    pub(crate) allowed: Vec<GuessId>,
}

pub(crate) fn new_levels(max_guesses: u8) -> Vec<Level> {
    (0..=max_guesses as usize + 1)
        .map(|_| Level {
            counts: vec![0; FEEDBACKS],
            ..Level::default()
        })
        .collect()
}

/// The exact solver over one game and one configuration. Cheap to share across
/// threads; the table persists between calls, so repeated questions are fast.
pub struct Solver<'a> {
    game: &'a Game,
    table: &'a FeedbackTable,
    config: Config,
    tt: tt::Table,
    all_guesses: Vec<GuessId>,
    stop: &'a AtomicBool,
    totals: Mutex<Counters>,
}

fn row_has_green(row: &[u8], ids: &[AnswerId]) -> bool {
    ids.iter()
        .any(|&a| row[a as usize] == Feedback::ALL_GREEN.0)
}

static NEVER: AtomicBool = AtomicBool::new(false);

impl<'a> Solver<'a> {
    pub fn new(game: &'a Game, table: &'a FeedbackTable, config: Config) -> Solver<'a> {
        Solver {
            game,
            table,
            tt: tt::Table::new(config.memory_limit, config.use_table),
            config,
            all_guesses: (0..game.n_guesses() as GuessId).collect(),
            stop: &NEVER,
            totals: Mutex::new(Counters::default()),
        }
    }

    /// Makes the search give up (with [`SolveError::Interrupted`]) once `stop` is set.
    pub fn with_stop(mut self, stop: &'a AtomicBool) -> Self {
        self.stop = stop;
        self
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Counters summed over every search so far.
    pub fn counters(&self) -> Counters {
        *self.totals.lock().unwrap()
    }

    /// Entries and approximate bytes in the table.
    pub fn table_size(&self) -> (usize, usize) {
        (self.tt.len(), self.tt.bytes())
    }

    pub(crate) fn hard_key(&self, revealed: &Revealed) -> u128 {
        if self.config.hard {
            revealed.key()
        } else {
            0
        }
    }

    /// The exact least cost of the state (`ids` sorted), or `None` if no tree finds
    /// every candidate within `left` guesses.
    pub fn cost(
        &self,
        ids: &[AnswerId],
        left: u8,
        revealed: &Revealed,
    ) -> Result<Option<u32>, SolveError> {
        let mut levels = new_levels(left);
        let mut ctr = Counters::default();
        let (v, _) = self.search(
            ids,
            left,
            revealed,
            &self.all_guesses,
            INFEASIBLE,
            &mut levels,
            &mut ctr,
        );
        *self.totals.lock().unwrap() += ctr;
        self.check_stop()?;
        Ok((v < INFEASIBLE).then_some(v))
    }

    fn check_stop(&self) -> Result<(), SolveError> {
        if self.stop.load(Ordering::Relaxed) {
            Err(SolveError::Interrupted)
        } else {
            Ok(())
        }
    }

    /// The optimal tree from `opener` over all answers, and its cost. `progress` is
    /// called after each opener bucket with (buckets done, buckets, cost so far).
    pub fn solve_opener(
        &self,
        opener: GuessId,
        progress: &(dyn Fn(usize, usize, u64) + Sync),
    ) -> Result<(u64, Node), SolveError> {
        let ids: Vec<AnswerId> = (0..self.game.n_answers() as AnswerId).collect();
        self.solve_from(
            opener,
            &ids,
            self.config.max_guesses,
            &Revealed::default(),
            progress,
        )
    }

    /// The optimal tree for the state `ids` when `guess` is played now, with `left`
    /// guesses including it: buckets are solved in parallel, largest first.
    pub fn solve_from(
        &self,
        guess: GuessId,
        ids: &[AnswerId],
        left: u8,
        revealed: &Revealed,
        progress: &(dyn Fn(usize, usize, u64) + Sync),
    ) -> Result<(u64, Node), SolveError> {
        let word = self.game.guesses[guess as usize];
        let mut buckets: Vec<(u8, Vec<AnswerId>)> = partition(self.table, guess, ids)
            .into_iter()
            .filter(|(f, _)| !Feedback(*f).is_all_green())
            .collect();
        if left == 0 || (left == 1 && !buckets.is_empty()) {
            return Err(SolveError::Infeasible(self.config.max_guesses));
        }
        buckets.sort_by_key(|(_, b)| std::cmp::Reverse(b.len()));
        let done = std::sync::atomic::AtomicUsize::new(0);
        let cost_so_far = std::sync::atomic::AtomicU64::new(ids.len() as u64);
        let n_buckets = buckets.len();
        let results: Vec<(u8, u32)> = buckets
            .par_iter()
            .map(|(f, b)| {
                let next = self.after(revealed, word, *f);
                let mut levels = new_levels(left);
                let mut ctr = Counters::default();
                let (v, _) = self.search(
                    b,
                    left - 1,
                    &next,
                    &self.all_guesses,
                    INFEASIBLE,
                    &mut levels,
                    &mut ctr,
                );
                *self.totals.lock().unwrap() += ctr;
                let total =
                    cost_so_far.fetch_add(v.min(INFEASIBLE) as u64, Ordering::Relaxed) + v as u64;
                progress(done.fetch_add(1, Ordering::Relaxed) + 1, n_buckets, total);
                (*f, v)
            })
            .collect();
        self.check_stop()?;
        if results.iter().any(|&(_, v)| v >= INFEASIBLE) {
            return Err(SolveError::Infeasible(self.config.max_guesses));
        }
        let total = ids.len() as u64 + results.iter().map(|&(_, v)| v as u64).sum::<u64>();
        let mut branches: Vec<(u8, Node)> = buckets
            .par_iter()
            .map(|(f, b)| (*f, self.build(b, left - 1, &self.after(revealed, word, *f))))
            .collect();
        branches.sort_by_key(|(f, _)| *f);
        self.check_stop()?;
        Ok((total, Node { guess, branches }))
    }

    /// The least total cost from `opener` over all answers if it is below `cutoff`,
    /// else a proved lower bound `>= cutoff` ([`OpenerCost::AtLeast`]). Serial, so the
    /// cutoff tightens bucket by bucket; run many openers in parallel instead.
    pub fn opener_cost(&self, opener: GuessId, cutoff: u64) -> Result<OpenerCost, SolveError> {
        let ids: Vec<AnswerId> = (0..self.game.n_answers() as AnswerId).collect();
        let left = self.config.max_guesses;
        let word = self.game.guesses[opener as usize];
        let mut buckets: Vec<(u8, Vec<AnswerId>)> = partition(self.table, opener, &ids)
            .into_iter()
            .filter(|(f, _)| !Feedback(*f).is_all_green())
            .collect();
        if left <= 1 && !buckets.is_empty() {
            return Ok(OpenerCost::AtLeast(INFEASIBLE as u64));
        }
        buckets.sort_by_key(|(_, b)| b.len());
        let bounds: Vec<u64> = buckets
            .iter()
            .map(|(_, b)| size_bound(b.len(), left - 1) as u64)
            .collect();
        let mut acc = ids.len() as u64;
        let mut rest: u64 = bounds.iter().sum();
        if acc + rest >= cutoff {
            return Ok(OpenerCost::AtLeast(acc + rest));
        }
        let mut levels = new_levels(left);
        let mut ctr = Counters::default();
        for ((f, b), lb) in buckets.iter().zip(&bounds) {
            rest -= lb;
            let beta = (cutoff - acc - rest).min(INFEASIBLE as u64) as u32;
            let next = self.after(&Revealed::default(), word, *f);
            let (v, _) = self.search(
                b,
                left - 1,
                &next,
                &self.all_guesses,
                beta,
                &mut levels,
                &mut ctr,
            );
            acc += v as u64;
            if acc + rest >= cutoff {
                break;
            }
        }
        *self.totals.lock().unwrap() += ctr;
        self.check_stop()?;
        Ok(if acc + rest >= cutoff {
            OpenerCost::AtLeast(acc + rest)
        } else {
            OpenerCost::Exact(acc)
        })
    }

    pub(crate) fn after(&self, revealed: &Revealed, guess: crate::word::Word, f: u8) -> Revealed {
        if self.config.hard {
            revealed.after(guess, Feedback(f))
        } else {
            *revealed
        }
    }

    /// The optimal subtree of a feasible state, read back from the table (re-searching
    /// any state that was evicted or settled by a closed form).
    pub fn build(&self, ids: &[AnswerId], left: u8, revealed: &Revealed) -> Node {
        let mut levels = new_levels(left);
        let mut ctr = Counters::default();
        let (v, g) = self.search(
            ids,
            left,
            revealed,
            &self.all_guesses,
            INFEASIBLE,
            &mut levels,
            &mut ctr,
        );
        let guess = match g {
            Some(g) if v < INFEASIBLE => g,
            // Interrupted: an empty node; the caller reports the interruption.
            _ => {
                return Node {
                    guess: ids[0],
                    branches: Vec::new(),
                }
            }
        };
        let word = self.game.guesses[guess as usize];
        let branches = partition(self.table, guess, ids)
            .into_iter()
            .filter(|(f, _)| !Feedback(*f).is_all_green())
            .map(|(f, b)| (f, self.build(&b, left - 1, &self.after(revealed, word, f))))
            .collect();
        Node { guess, branches }
    }

    /// Branch and bound (see the module doc). Returns the exact cost and the best guess
    /// when the cost is below `beta`; otherwise a lower bound `>= beta` and `None`.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        ids: &[AnswerId],
        left: u8,
        revealed: &Revealed,
        parent_allowed: &[GuessId],
        beta: u32,
        levels: &mut [Level],
        ctr: &mut Counters,
    ) -> (u32, Option<GuessId>) {
        let n = ids.len();
        debug_assert!(ids.windows(2).all(|w| w[0] < w[1]), "candidates are sorted");
        match n {
            1 => return (1, Some(ids[0])),
            _ if left <= 1 => return (INFEASIBLE, None),
            2 => return (3, Some(ids[0])),
            _ => {}
        }
        let mut lb = size_bound(n, left);
        if lb >= beta {
            return (lb, None);
        }
        if self.stop.load(Ordering::Relaxed) {
            return (INFEASIBLE, None);
        }
        let hard_key = self.hard_key(revealed);
        ctr.probes += 1;
        match self.tt.probe(ids, left, hard_key) {
            Some(Bound::Exact(v, g)) => {
                ctr.hits += 1;
                return (v, Some(g));
            }
            Some(Bound::Lower(l)) if l >= beta => {
                ctr.hits += 1;
                return (l, None);
            }
            Some(Bound::Lower(l)) => lb = lb.max(l),
            None => {}
        }
        ctr.states += 1;
        let (level, deeper) = levels.split_first_mut().expect("a level per guess left");
        let n32 = n as u32;

        // Step 2a: a candidate that splits the state into singletons is optimal.
        for &a in ids {
            if self.bucket_count(a as GuessId, ids, &mut level.counts).0 == n {
                let v = 2 * n32 - 1;
                self.tt
                    .store(ids, left, hard_key, Bound::Exact(v, a as GuessId));
                return (v, Some(a as GuessId));
            }
        }
        lb = lb.max(2 * n32);
        if lb >= beta {
            self.tt.store(ids, left, hard_key, Bound::Lower(lb));
            return (lb, None);
        }

        // Step 2b: scan every allowed guess.
        let guesses: &[GuessId] = if self.config.hard {
            level.allowed.clear();
            let words = &self.game.guesses;
            level.allowed.extend(
                parent_allowed
                    .iter()
                    .copied()
                    .filter(|&g| revealed.allows(words[g as usize])),
            );
            &level.allowed
        } else {
            parent_allowed
        };
        level.order.clear();
        let mut rejected = INFEASIBLE;
        for &g in guesses {
            let (buckets, sum_squares, is_candidate) = self.bucket_count(g, ids, &mut level.counts);
            if buckets == n {
                // Not a candidate (step 2a would have returned): optimal, since lb = 2n.
                let v = 2 * n32;
                self.tt.store(ids, left, hard_key, Bound::Exact(v, g));
                return (v, Some(g));
            }
            if buckets == 1 && !is_candidate {
                continue;
            }
            let glb = guess_bound(n, buckets, is_candidate, left);
            if glb < beta {
                level
                    .order
                    .push((glb as u64) << 44 | (sum_squares.min((1 << 28) - 1)) << 16 | g as u64);
            } else {
                rejected = rejected.min(glb);
            }
        }
        level.order.sort_unstable();

        // Step 3: expand guesses in order of bound.
        let mut best = beta;
        let mut best_guess = None;
        let mut proved = rejected; // least lower bound among guesses that lost
        for k in 0..level.order.len() {
            let key = level.order[k];
            let glb = (key >> 44) as u32;
            let g = (key & 0xffff) as GuessId;
            if glb >= best {
                proved = proved.min(glb);
                break;
            }
            ctr.expansions += 1;
            let v = self.expand(g, ids, left, revealed, best, level, deeper, ctr);
            if v < best {
                best = v;
                best_guess = Some(g);
            } else {
                proved = proved.min(v);
            }
        }
        if self.stop.load(Ordering::Relaxed) {
            return (INFEASIBLE, None);
        }
        match best_guess {
            Some(g) => {
                debug_assert!(best >= lb, "a bound never exceeds a found cost");
                self.tt.store(ids, left, hard_key, Bound::Exact(best, g));
                (best, Some(g))
            }
            None => {
                let v = proved.max(lb);
                debug_assert!(v >= beta);
                self.tt.store(ids, left, hard_key, Bound::Lower(v));
                (v, None)
            }
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

    /// The cost of playing `g` at the state, if below `cutoff`; otherwise a lower bound
    /// `>= cutoff` for it.
    #[allow(clippy::too_many_arguments)]
    fn expand(
        &self,
        g: GuessId,
        ids: &[AnswerId],
        left: u8,
        revealed: &Revealed,
        cutoff: u32,
        level: &mut Level,
        deeper: &mut [Level],
        ctr: &mut Counters,
    ) -> u32 {
        let n = ids.len();
        let row = self.table.row(g);
        // Regroup the candidates bucket by bucket (a stable counting sort keeps each
        // bucket sorted).
        let counts: &mut [u32; FEEDBACKS] =
            level.counts.as_mut_slice().try_into().expect("243 slots");
        for &a in ids {
            counts[row[a as usize] as usize] += 1;
        }
        level.buckets.clear();
        let mut start = 0u32;
        for (f, c) in counts.iter_mut().enumerate() {
            if *c > 0 {
                let size = *c;
                if f != Feedback::ALL_GREEN.0 as usize {
                    level.buckets.push((start, size, f as u8, 0));
                }
                *c = start;
                start += size;
            }
        }
        level.buf.clear();
        level.buf.resize(n, 0);
        for &a in ids {
            let slot = &mut counts[row[a as usize] as usize];
            level.buf[*slot as usize] = a;
            *slot += 1;
        }
        counts.fill(0);
        debug_assert_eq!(
            level.buckets.iter().map(|b| b.1 as usize).sum::<usize>()
                + row_has_green(row, ids) as usize,
            n,
            "bucket sizes sum to the candidates"
        );

        // Bucket bounds: the size bound, raised by the table where it knows more.
        let hard = self.config.hard;
        let word = self.game.guesses[g as usize];
        let mut sum_lb = n as u32;
        for b in level.buckets.iter_mut() {
            let (s, m, f, _) = *b;
            let mut blb = size_bound(m as usize, left - 1);
            if m >= 3 && blb < INFEASIBLE {
                let child = &level.buf[s as usize..(s + m) as usize];
                let key = if hard {
                    revealed.after(word, Feedback(f)).key()
                } else {
                    0
                };
                ctr.probes += 1;
                match self.tt.probe(child, left - 1, key) {
                    Some(Bound::Exact(v, _)) | Some(Bound::Lower(v)) => blb = blb.max(v),
                    None => {}
                }
            }
            b.3 = blb;
            sum_lb = add(sum_lb, blb);
        }
        if sum_lb >= cutoff {
            return sum_lb;
        }
        level.buckets.sort_unstable_by_key(|b| b.1);

        // Search the buckets smallest first, each with what is left of the cutoff.
        let mut acc = n as u32;
        let mut rest = sum_lb - acc;
        for i in 0..level.buckets.len() {
            let (s, m, f, blb) = level.buckets[i];
            rest -= blb;
            let child_beta = cutoff - acc - rest;
            debug_assert!(child_beta > blb);
            let child = &level.buf[s as usize..(s + m) as usize];
            let next = self.after(revealed, word, f);
            let allowed: &[GuessId] = if hard {
                &level.allowed
            } else {
                &self.all_guesses
            };
            let (v, _) = self.search(child, left - 1, &next, allowed, child_beta, deeper, ctr);
            acc = add(acc, v);
            if add(acc, rest) >= cutoff {
                return add(acc, rest);
            }
        }
        acc
    }
}
