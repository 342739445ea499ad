//! The exact solver: the decision tree of least cost, and its proof.
//!
//! A state is (candidates, guesses left, and in hard mode what has been revealed).
//! With the default [`Objective`] (`bound.rs`), `cost(S, d) = min over allowed guesses
//! g of |S| + sum over the non-green buckets B of g of cost(B, d - 1)`; one candidate
//! costs 1; more than one with one guess left is infeasible. Other objectives (used by
//! `check`) change what a guess and an unfound answer cost, not the search.
//!
//! [`Solver::search`] is a depth-first branch and bound with a cutoff `beta`: it
//! returns the exact cost when that is below `beta`, and otherwise a proved lower bound
//! that is at least `beta`. A state is evaluated in three steps:
//! 1. closed forms (one or two candidates), the size bound, and the table;
//! 2. a cheap scan: first the candidates alone (a candidate that splits the state into
//!    singletons meets the size bound and is optimal at once), then every guess the
//!    parent passed down, counting its buckets into a 243-slot array. This gives each
//!    guess an admissible bound (`bound.rs`); a perfect split's bound is its exact
//!    cost, so the best one becomes the incumbent. Guesses that do not split and are
//!    not candidates are dropped, and (normal mode) guesses that split the state
//!    exactly like an earlier one (same partition, same green answer) are dropped too:
//!    they stay equivalent on every subset, so the children are handed one guess per
//!    class. Classes are compared exactly (labels, not just a hash);
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

pub use bound::Objective;
pub use stats::Counters;

use crate::candidates::partition;
use crate::feedback::{Feedback, FEEDBACKS};
use crate::game::{AnswerId, Game, GuessId};
use crate::hard::{LetterSig, Revealed};
use crate::table::FeedbackTable;
use crate::tree::Node;
use bound::{add, INFEASIBLE};
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
    /// What a tree's cost counts (default: total guesses).
    pub objective: Objective,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_guesses: 6,
            hard: false,
            memory_limit: 4 << 30,
            use_table: true,
            objective: Objective::total(),
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
    /// Packed `bound << 64 | sum of squares << 17 | perfect << 16 | guess`, sorted.
    pub(crate) order: Vec<u128>,
    /// The candidates, regrouped bucket by bucket for the guess being expanded.
    pub(crate) buf: Vec<AnswerId>,
    /// Non-green buckets of the guess being expanded: (start, size, feedback, bound).
    pub(crate) buckets: Vec<(u32, u32, u8, u32)>,
    /// The guesses handed to the children: one per partition class (normal mode), or
    /// every allowed guess that splits the state (hard mode).
    pub(crate) allowed: Vec<GuessId>,
    /// Where each candidate's answer-major row starts.
    pub(crate) offsets: Vec<usize>,
    /// `allowed` as a bitset over guess ids (normal mode), for the block scan.
    pub(crate) allowed_bits: Vec<u64>,
    /// Normal mode: the partition classes of the guesses expanded at this state
    /// (hash, start in `expanded_labels`), so an equivalent guess is not expanded twice.
    expanded: Vec<(u64, usize)>,
    expanded_labels: Vec<u8>,
    /// The most buckets any guess scanned here makes (`usize::MAX` if unknown).
    max_split: usize,
}

/// Exact partition classes of the guesses scanned at one state: an open-addressing
/// table from a hash of the canonical labels (bucket numbers in order of first
/// appearance) to the stored labels of the first guess of the class. Entries are
/// tagged with a stamp per state, so starting a state costs nothing.
pub(crate) struct Classes {
    slots: Vec<(u32, u32, u64)>,
    stamp: u32,
    labels: Vec<u8>,
    /// Labels of the guess being scanned.
    current: Vec<u8>,
    n: usize,
}

impl Classes {
    fn new(n_guesses: usize) -> Classes {
        Classes {
            slots: vec![(0, 0, 0); (2 * n_guesses).next_power_of_two().max(64)],
            stamp: 0,
            labels: Vec::new(),
            current: Vec::new(),
            n: 0,
        }
    }

    fn begin(&mut self, n: usize) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.slots.fill((0, 0, 0));
            self.stamp = 1;
        }
        self.labels.clear();
        self.current.clear();
        self.current.resize(n, 0);
        self.n = n;
    }

    /// True when the labels in `current` (hash `hash`) equal an earlier class of this
    /// state; otherwise records them as a new class.
    fn seen(&mut self, hash: u64) -> bool {
        let mask = self.slots.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            let (stamp, rep, h) = self.slots[i];
            if stamp != self.stamp {
                let rep = (self.labels.len() / self.n.max(1)) as u32;
                self.labels.extend_from_slice(&self.current);
                self.slots[i] = (self.stamp, rep, hash);
                return false;
            }
            let start = rep as usize * self.n;
            if h == hash && self.labels[start..start + self.n] == self.current[..] {
                return true;
            }
            i = (i + 1) & mask;
        }
    }
}

/// A [`Scratch`] borrowed from a solver's pool, returned on drop.
pub(crate) struct PooledScratch<'p> {
    pool: &'p Mutex<Vec<Scratch>>,
    sc: Option<Scratch>,
}

impl std::ops::Deref for PooledScratch<'_> {
    type Target = Scratch;
    fn deref(&self) -> &Scratch {
        self.sc.as_ref().expect("present until drop")
    }
}

impl std::ops::DerefMut for PooledScratch<'_> {
    fn deref_mut(&mut self) -> &mut Scratch {
        self.sc.as_mut().expect("present until drop")
    }
}

impl Drop for PooledScratch<'_> {
    fn drop(&mut self) {
        if let Some(sc) = self.sc.take() {
            self.pool.lock().unwrap().push(sc);
        }
    }
}

/// A worker's scratch: one [`Level`] per depth and the class table.
pub(crate) struct Scratch {
    pub(crate) levels: Vec<Level>,
    classes: Classes,
}

/// The exact solver over one game and one configuration. Cheap to share across
/// threads; the table persists between calls, so repeated questions are fast.
pub struct Solver<'a> {
    game: &'a Game,
    table: &'a FeedbackTable,
    /// The same feedback, answer-major: `by_answer[a * n_guesses + g]`. The scan
    /// walks guesses for a fixed handful of candidates, so this layout makes each
    /// candidate a sequential stream (64 guesses per cache line) instead of one byte
    /// per line: it took `salet` from 217M lookups at ~25 ns to ~1 ns each.
    by_answer: Vec<u8>,
    /// Every guess's letter masks, for hard-mode legality checks.
    sigs: Vec<LetterSig>,
    config: Config,
    tt: tt::Table,
    all_guesses: Vec<GuessId>,
    stop: &'a AtomicBool,
    totals: Mutex<Counters>,
    /// Scratch buffers between searches.
    pool: Mutex<Vec<Scratch>>,
}

fn row_has_green(row: &[u8], ids: &[AnswerId]) -> bool {
    ids.iter()
        .any(|&a| row[a as usize] == Feedback::ALL_GREEN.0)
}

static NEVER: AtomicBool = AtomicBool::new(false);

/// The answer-major copy of the table, transposed in cache-sized tiles.
fn transpose(table: &FeedbackTable, n_guesses: usize) -> Vec<u8> {
    let n_answers = table.n_answers();
    let mut out = vec![0u8; n_answers * n_guesses];
    const TILE: usize = 64;
    out.par_chunks_mut(n_guesses * TILE)
        .enumerate()
        .for_each(|(t, chunk)| {
            let a0 = t * TILE;
            for g0 in (0..n_guesses).step_by(TILE) {
                for g in g0..(g0 + TILE).min(n_guesses) {
                    let row = table.row(g as GuessId);
                    for (i, a) in (a0..(a0 + TILE).min(n_answers)).enumerate() {
                        chunk[i * n_guesses + g] = row[a];
                    }
                }
            }
        });
    out
}

/// The guesses a parent hands to a state: a list, and (normal mode, below the top)
/// the same as a bitset over guess ids.
#[derive(Clone, Copy)]
struct Guesses<'s> {
    list: &'s [GuessId],
    bits: Option<&'s [u64]>,
    /// The most buckets any of these guesses makes on the parent state: no guess
    /// makes more on a subset, so a state with more candidates cannot be split into
    /// singletons (infeasible with two guesses left).
    max_split: usize,
}

/// States with at most this many candidates are scanned 32 guesses at a time by
/// pairwise comparison (the pair count per lane must fit a byte: 22 * 21 / 2 = 231).
const BLOCK_MAX: usize = 22;
const LANES: usize = 32;

/// What [`Solver::scan`] leaves for the expansion step.
struct Prepared {
    /// Counted candidates (penalty objectives).
    w: u32,
    /// The state's lower bound.
    lb: u32,
    /// The best perfect split found, with its exact cost.
    incumbent: (u32, Option<GuessId>),
    /// The least bound of the guesses left out of `order`.
    rejected: u32,
    hard_key: u128,
}

enum Scanned {
    Done(u32, Option<GuessId>),
    Expand(Prepared),
}

/// How one guess splits a state, from the scan.
#[derive(Clone, Copy, Default)]
struct Split {
    buckets: usize,
    sum_squares: u64,
    is_candidate: bool,
}

impl<'a> Solver<'a> {
    pub fn new(game: &'a Game, table: &'a FeedbackTable, config: Config) -> Solver<'a> {
        Solver {
            game,
            table,
            by_answer: transpose(table, game.n_guesses()),
            sigs: game.guesses.iter().map(|&w| LetterSig::of(w)).collect(),
            tt: tt::Table::new(config.memory_limit, config.use_table),
            config,
            all_guesses: (0..game.n_guesses() as GuessId).collect(),
            stop: &NEVER,
            totals: Mutex::new(Counters::default()),
            pool: Mutex::new(Vec::new()),
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

    pub fn game(&self) -> &Game {
        self.game
    }

    /// Counters summed over every search so far.
    pub fn counters(&self) -> Counters {
        *self.totals.lock().unwrap()
    }

    /// Entries and approximate bytes in the table.
    pub fn table_size(&self) -> (usize, usize) {
        (self.tt.len(), self.tt.bytes())
    }

    /// A scratch from the pool (or a new one); it goes back when the guard drops.
    /// A fresh scratch costs about 0.6 MB of zeroing, and `build` runs one search per
    /// tree node: reusing them took `check --opener salet --max-guesses 5` from 0.42 s to
    /// 0.25 s of CPU.
    pub(crate) fn scratch(&self) -> PooledScratch<'_> {
        let sc = self
            .pool
            .lock()
            .unwrap()
            .pop()
            .unwrap_or_else(|| self.new_scratch());
        PooledScratch {
            pool: &self.pool,
            sc: Some(sc),
        }
    }

    fn new_scratch(&self) -> Scratch {
        Scratch {
            levels: (0..=self.config.max_guesses as usize + 1)
                .map(|_| Level {
                    counts: vec![0; FEEDBACKS],
                    ..Level::default()
                })
                .collect(),
            classes: Classes::new(self.game.n_guesses()),
        }
    }

    fn everything(&self) -> Guesses<'_> {
        Guesses {
            list: &self.all_guesses,
            bits: None,
            max_split: usize::MAX,
        }
    }

    pub(crate) fn hard_key(&self, revealed: &Revealed) -> u128 {
        if self.config.hard {
            revealed.key()
        } else {
            0
        }
    }

    /// Runs one search from the top (all guesses allowed by `revealed`), adding its
    /// counters to the totals.
    fn run(
        &self,
        ids: &[AnswerId],
        left: u8,
        revealed: &Revealed,
        beta: u32,
    ) -> (u32, Option<GuessId>) {
        let mut sc = self.scratch();
        let mut ctr = Counters::default();
        let Scratch { levels, classes } = &mut *sc;
        let r = self.search(
            ids,
            left,
            revealed,
            self.everything(),
            beta,
            levels,
            classes,
            &mut ctr,
        );
        *self.totals.lock().unwrap() += ctr;
        r
    }

    /// Like [`Solver::run`] with no cutoff, but a large state's guesses are expanded
    /// by all threads: workers take guesses in order of bound from a shared counter
    /// (so the most promising go first, as in the serial loop) and share the best cost
    /// found as their cutoff. The cost is exact either way; among equally good
    /// guesses the one kept may differ from a serial run. Without this, `trace` ran
    /// no faster on two threads than on one: a single opener bucket dominates.
    fn run_parallel(
        &self,
        ids: &[AnswerId],
        left: u8,
        revealed: &Revealed,
    ) -> (u32, Option<GuessId>) {
        const PARALLEL_MIN: usize = 64;
        let threads = rayon::current_num_threads();
        if ids.len() < PARALLEL_MIN || threads < 2 {
            return self.run(ids, left, revealed, INFEASIBLE);
        }
        let mut sc = self.scratch();
        let mut ctr = Counters::default();
        let prep = {
            let Scratch { levels, classes } = &mut *sc;
            let level = &mut levels[0];
            match self.scan(
                ids,
                left,
                revealed,
                self.everything(),
                INFEASIBLE,
                level,
                &mut ctr,
            ) {
                Scanned::Done(v, g) => {
                    *self.totals.lock().unwrap() += ctr;
                    return (v, g);
                }
                Scanned::Expand(p) => {
                    // The children's guesses, once for all workers.
                    self.classify(ids, revealed, &self.all_guesses, level, classes);
                    p
                }
            }
        };
        let root = &sc.levels[0];
        let pack = |v: u32, g: GuessId| (v as u64) << 16 | g as u64;
        let best = std::sync::atomic::AtomicU64::new(match prep.incumbent {
            (v, Some(g)) => pack(v, g),
            _ => pack(INFEASIBLE, 0),
        });
        let proved = std::sync::atomic::AtomicU32::new(prep.rejected);
        let next = std::sync::atomic::AtomicUsize::new(0);
        (0..threads).into_par_iter().for_each(|_| {
            let mut mine = self.scratch();
            let mut ctr = Counters::default();
            mine.levels[0].allowed = root.allowed.clone();
            mine.levels[0].allowed_bits = root.allowed_bits.clone();
            mine.levels[0].max_split = root.max_split;
            let Scratch { levels, classes } = &mut *mine;
            let (level, deeper) = levels.split_first_mut().expect("levels");
            loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(&key) = root.order.get(k) else { break };
                let glb = (key >> 64) as u32;
                let g = (key & 0xffff) as GuessId;
                let cutoff = (best.load(Ordering::Relaxed) >> 16) as u32;
                if glb >= cutoff {
                    proved.fetch_min(glb, Ordering::Relaxed);
                    break; // every later guess is bounded at least as high
                }
                if key >> 16 & 1 == 1 {
                    continue; // a perfect split: the incumbent already covers it
                }
                ctr.expansions += 1;
                let v = self.expand(
                    g, ids, prep.w, left, revealed, cutoff, level, deeper, classes, &mut ctr,
                );
                if v < cutoff {
                    best.fetch_min(pack(v, g), Ordering::Relaxed);
                } else {
                    proved.fetch_min(v, Ordering::Relaxed);
                }
            }
            *self.totals.lock().unwrap() += ctr;
        });
        *self.totals.lock().unwrap() += ctr;
        if self.stop.load(Ordering::Relaxed) {
            return (INFEASIBLE, None);
        }
        let b = best.load(Ordering::Relaxed);
        let (value, guess) = ((b >> 16) as u32, (b & 0xffff) as GuessId);
        let best_guess = (value < INFEASIBLE).then_some(guess);
        self.finish(
            ids,
            left,
            prep.hard_key,
            INFEASIBLE,
            prep.lb,
            value,
            best_guess,
            proved.load(Ordering::Relaxed),
        )
    }

    /// The exact least cost of the state (`ids` sorted), or `None` if no tree finds
    /// every candidate within `left` guesses.
    pub fn cost(
        &self,
        ids: &[AnswerId],
        left: u8,
        revealed: &Revealed,
    ) -> Result<Option<u32>, SolveError> {
        let (v, _) = self.run_parallel(ids, left, revealed);
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

    /// The non-green buckets of `guess` on `ids`.
    fn branches(&self, guess: GuessId, ids: &[AnswerId]) -> Vec<(u8, Vec<AnswerId>)> {
        partition(self.table, guess, ids)
            .into_iter()
            .filter(|(f, _)| !Feedback(*f).is_all_green())
            .collect()
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
        let obj = &self.config.objective;
        let word = self.game.guesses[guess as usize];
        let mut buckets = self.branches(guess, ids);
        if left == 0 || (left == 1 && !buckets.is_empty()) {
            return Err(SolveError::Infeasible(self.config.max_guesses));
        }
        buckets.sort_by_key(|(_, b)| std::cmp::Reverse(b.len()));
        let here = obj.node(ids.len(), obj.counted(ids), left) as u64;
        let done = std::sync::atomic::AtomicUsize::new(0);
        let cost_so_far = std::sync::atomic::AtomicU64::new(here);
        let n_buckets = buckets.len();
        let results: Vec<u32> = buckets
            .par_iter()
            .map(|(f, b)| {
                let (v, _) = self.run_parallel(b, left - 1, &self.after(revealed, word, *f));
                let total = cost_so_far.fetch_add(v as u64, Ordering::Relaxed) + v as u64;
                progress(done.fetch_add(1, Ordering::Relaxed) + 1, n_buckets, total);
                v
            })
            .collect();
        self.check_stop()?;
        if results.iter().any(|&v| v >= INFEASIBLE) {
            return Err(SolveError::Infeasible(self.config.max_guesses));
        }
        let total = here + results.iter().map(|&v| v as u64).sum::<u64>();
        let mut branches: Vec<(u8, Node)> = buckets
            .par_iter()
            .map(|(f, b)| (*f, self.build(b, left - 1, &self.after(revealed, word, *f))))
            .collect();
        branches.sort_by_key(|(f, _)| *f);
        self.check_stop()?;
        Ok((total, Node { guess, branches }))
    }

    /// The smallest bucket of `guess` on `ids` that no tree finishes within `left - 1`
    /// more guesses, or `None` when every bucket can be (then the table holds a
    /// witness for each). Buckets are tried smallest first and the search stops at
    /// the first failure, so a refutation costs one failing bucket, not all of them.
    pub fn first_infeasible_bucket(
        &self,
        guess: GuessId,
        ids: &[AnswerId],
        left: u8,
        revealed: &Revealed,
    ) -> Result<Option<(u8, Vec<AnswerId>)>, SolveError> {
        let word = self.game.guesses[guess as usize];
        let mut buckets = self.branches(guess, ids);
        buckets.sort_by_key(|(_, b)| b.len());
        let found = buckets.into_par_iter().find_first(|(f, b)| {
            left <= 1
                || self
                    .run(b, left - 1, &self.after(revealed, word, *f), INFEASIBLE)
                    .0
                    >= INFEASIBLE
        });
        self.check_stop()?;
        Ok(found)
    }

    /// The buckets of `guess` on all answers that cannot be finished within `left - 1`
    /// more guesses, smallest first (the evidence of a refuted claim).
    pub fn infeasible_buckets(
        &self,
        guess: GuessId,
        left: u8,
    ) -> Result<Vec<(u8, Vec<AnswerId>)>, SolveError> {
        let ids: Vec<AnswerId> = (0..self.game.n_answers() as AnswerId).collect();
        let word = self.game.guesses[guess as usize];
        let mut bad: Vec<(u8, Vec<AnswerId>)> = self
            .branches(guess, &ids)
            .into_par_iter()
            .filter(|(f, b)| {
                left <= 1
                    || self
                        .run(
                            b,
                            left - 1,
                            &self.after(&Revealed::default(), word, *f),
                            INFEASIBLE,
                        )
                        .0
                        >= INFEASIBLE
            })
            .collect();
        self.check_stop()?;
        bad.sort_by_key(|(_, b)| b.len());
        Ok(bad)
    }

    /// The least total cost from `opener` over all answers if it is below `cutoff`,
    /// else a proved lower bound `>= cutoff` ([`OpenerCost::AtLeast`]). Serial, so the
    /// cutoff tightens bucket by bucket; run many openers in parallel instead.
    pub fn opener_cost(&self, opener: GuessId, cutoff: u64) -> Result<OpenerCost, SolveError> {
        let obj = &self.config.objective;
        let ids: Vec<AnswerId> = (0..self.game.n_answers() as AnswerId).collect();
        let left = self.config.max_guesses;
        let word = self.game.guesses[opener as usize];
        let mut buckets = self.branches(opener, &ids);
        if left <= 1 && !buckets.is_empty() {
            return Ok(OpenerCost::AtLeast(INFEASIBLE as u64));
        }
        buckets.sort_by_key(|(_, b)| b.len());
        let mut bounds: Vec<u64> = buckets
            .iter()
            .map(|(_, b)| obj.size_bound(b.len(), obj.counted(b), left - 1) as u64)
            .collect();
        let here = obj.node(ids.len(), obj.counted(&ids), left) as u64;
        let mut exact = vec![false; buckets.len()];
        let mut sc = self.scratch();
        let mut ctr = Counters::default();
        let search = |i: usize, beta: u64, sc: &mut Scratch, ctr: &mut Counters| {
            let (f, b) = &buckets[i];
            let next = self.after(&Revealed::default(), word, *f);
            let Scratch { levels, classes } = sc;
            let beta = beta.min(INFEASIBLE as u64) as u32;
            let (v, _) = self.search(
                b,
                left - 1,
                &next,
                self.everything(),
                beta,
                levels,
                classes,
                ctr,
            );
            (v as u64, v < beta)
        };
        // Round 1, largest bucket first: the scan alone (no expansion) settles small
        // buckets and raises a large one's bound from `2m - 1` to the best per-guess
        // bound `3m - k - c` (`peeks`: its 696-answer bucket from 1391 to about
        // 1890). Many openers are dismissed here, before any bucket is searched.
        for i in (0..buckets.len()).rev() {
            if here + bounds.iter().sum::<u64>() >= cutoff {
                break;
            }
            let (f, b) = &buckets[i];
            let next = self.after(&Revealed::default(), word, *f);
            let level = &mut sc.levels[0];
            match self.scan(
                b,
                left - 1,
                &next,
                self.everything(),
                INFEASIBLE,
                level,
                &mut ctr,
            ) {
                Scanned::Done(v, _) => {
                    bounds[i] = v as u64;
                    exact[i] = v < INFEASIBLE;
                }
                Scanned::Expand(p) => bounds[i] = bounds[i].max(p.lb as u64),
            }
        }
        // Round 2, smallest first: each bucket exactly        // Round 2, smallest first: each bucket exactly, with the slack the others'
        // bounds leave, stopping as soon as the total must reach the cutoff.
        let mut acc = here
            + (0..buckets.len())
                .filter(|&i| exact[i])
                .map(|i| bounds[i])
                .sum::<u64>();
        let mut rest: u64 = (0..buckets.len())
            .filter(|&i| !exact[i])
            .map(|i| bounds[i])
            .sum();
        for i in 0..buckets.len() {
            if acc + rest >= cutoff {
                break;
            }
            if exact[i] {
                continue;
            }
            rest -= bounds[i];
            let (v, _) = search(i, cutoff - acc - rest, &mut sc, &mut ctr);
            acc += v;
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
        let (v, g) = self.run(ids, left, revealed, INFEASIBLE);
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
        let branches = self
            .branches(guess, ids)
            .into_iter()
            .map(|(f, b)| (f, self.build(&b, left - 1, &self.after(revealed, word, f))))
            .collect();
        Node { guess, branches }
    }

    /// Steps 1 and 2 of [`Solver::search`]: closed forms, the table, and the scan. Either
    /// settles the state, or leaves the guesses to expand, sorted, in `level.order`.
    #[allow(clippy::too_many_arguments)]
    fn scan(
        &self,
        ids: &[AnswerId],
        left: u8,
        revealed: &Revealed,
        parent: Guesses,
        beta: u32,
        level: &mut Level,
        ctr: &mut Counters,
    ) -> Scanned {
        let parent_allowed = parent.list;
        let n = ids.len();
        let obj = &self.config.objective;
        debug_assert!(ids.windows(2).all(|w| w[0] < w[1]), "candidates are sorted");
        match n {
            1 => return Scanned::Done(obj.single(left, obj.counts(ids[0])), Some(ids[0])),
            _ if left <= 1 => return Scanned::Done(INFEASIBLE, None),
            _ => {}
        }
        let w = obj.counted(ids);
        let mut lb = obj.size_bound(n, w, left);
        if n == 2 {
            // Guess one, then the other; a counted one first if only one is counted.
            let first = if w == 1 && !obj.counts(ids[0]) {
                ids[1]
            } else {
                ids[0]
            };
            return Scanned::Done(lb, Some(first));
        }
        if lb >= beta {
            return Scanned::Done(lb, None);
        }
        if self.stop.load(Ordering::Relaxed) {
            return Scanned::Done(INFEASIBLE, None);
        }
        let hard_key = self.hard_key(revealed);
        ctr.probes += 1;
        match self.tt.probe(ids, left, hard_key) {
            Some(Bound::Exact(v, g)) => {
                ctr.hits += 1;
                return Scanned::Done(v, Some(g));
            }
            Some(Bound::Lower(l)) if l >= beta => {
                ctr.hits += 1;
                return Scanned::Done(l, None);
            }
            Some(Bound::Lower(l)) => lb = lb.max(l),
            None => {}
        }
        ctr.states += 1;

        // Step 2a: a candidate that splits the state into singletons and meets the
        // size bound is optimal.
        for &a in ids {
            if self.bucket_count(a as GuessId, ids, &mut level.counts).0 == n {
                let v = obj.guess_bound(n, w, n, true, obj.counts(a), left);
                if v <= lb {
                    self.tt
                        .store(ids, left, hard_key, Bound::Exact(v, a as GuessId));
                    return Scanned::Done(v, Some(a as GuessId));
                }
            }
        }

        let hard = self.config.hard;
        let demand = revealed.demand();
        if left == 2 && n > parent.max_split {
            self.tt.store(ids, left, hard_key, Bound::Lower(INFEASIBLE));
            return Scanned::Done(INFEASIBLE, None);
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
            let handed = |g: usize| {
                parent
                    .bits
                    .is_none_or(|bits| bits[g / 64] >> (g % 64) & 1 == 1)
            };
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
                        return Scanned::Done(v, Some(g));
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
                    return Scanned::Done(v, Some(g));
                }
            }
            self.tt.store(ids, left, hard_key, Bound::Lower(INFEASIBLE));
            return Scanned::Done(INFEASIBLE, None);
        }

        // Step 2b: scan the guesses the parent handed down, for bounds only. With the
        // plain total objective a guess is dropped as soon as its repeated feedbacks
        // prove its bound reaches `beta`: `3n - k - c >= 2n + repeats - 1`.
        level.order.clear();
        let stride = self.game.n_guesses();
        level.offsets.clear();
        level
            .offsets
            .extend(ids.iter().map(|&a| a as usize * stride));
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
        // Small states in normal mode: every guess, 32 at a time (masked to the
        // parent's classes); the rest one guess at a time from the parent's list.
        let blocks = !hard && n <= BLOCK_MAX;
        let block_end = if blocks {
            self.game.n_guesses() / LANES * LANES
        } else {
            0
        };
        let singles = if blocks {
            &self.all_guesses[block_end..]
        } else {
            parent_allowed
        };
        let mut single = singles.iter();
        let mut block = [Split::default(); LANES];
        let mut g_next = 0usize;
        let handed = |g: usize| {
            parent
                .bits
                .is_none_or(|bits| bits[g / 64] >> (g % 64) & 1 == 1)
        };
        loop {
            let (g, split) = if g_next < block_end {
                let g = g_next;
                g_next += 1;
                if g.is_multiple_of(LANES) {
                    self.block_scan(g, &level.offsets, &mut block);
                }
                let split = block[g % LANES];
                if !handed(g) {
                    continue;
                }
                if n - split.buckets >= max_repeats {
                    least = least.min(beta);
                    rejected = rejected.min(beta);
                    continue;
                }
                (g as GuessId, split)
            } else {
                let Some(&g) = single.next() else { break };
                if hard && !demand.allows(&self.sigs[g as usize]) {
                    continue;
                }
                if blocks && !handed(g as usize) {
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
        level.order.sort_unstable();

        Scanned::Expand(Prepared {
            w,
            lb,
            incumbent,
            rejected,
            hard_key,
        })
    }

    /// Branch and bound (see the module doc). Returns the exact cost and the best guess
    /// when the cost is below `beta`; otherwise a lower bound `>= beta` and `None`.
    /// `parent` holds a guess of every class the parent found (or every guess).
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        ids: &[AnswerId],
        left: u8,
        revealed: &Revealed,
        parent: Guesses,
        beta: u32,
        levels: &mut [Level],
        classes: &mut Classes,
        ctr: &mut Counters,
    ) -> (u32, Option<GuessId>) {
        let (level, deeper) = levels.split_first_mut().expect("a level per guess left");
        let Prepared {
            w,
            lb,
            incumbent,
            rejected,
            hard_key,
        } = match self.scan(ids, left, revealed, parent, beta, level, ctr) {
            Scanned::Done(v, g) => return (v, g),
            Scanned::Expand(p) => p,
        };
        let parent_allowed = parent.list;
        let n = ids.len();
        let hard = self.config.hard;
        // Step 3: expand guesses in order of bound.
        let (mut best, mut best_guess) = if incumbent.0 < beta {
            incumbent
        } else {
            (beta, None)
        };
        let mut proved = rejected; // least lower bound among guesses that lost
        let mut classified = false; // level.allowed holds the children's guesses
                                    // Small states (normal mode) hand every guess down: the children's block scan
                                    // reads all guesses anyway, so classes would cost more than they save.
        let small = !hard && n <= BLOCK_MAX;
        level.expanded.clear();
        level.expanded_labels.clear();
        for k in 0..level.order.len() {
            let key = level.order[k];
            let glb = (key >> 64) as u32;
            let g = (key & 0xffff) as GuessId;
            if glb >= best {
                proved = proved.min(glb);
                break;
            }
            if key >> 16 & 1 == 1 {
                continue; // a perfect split: its bound is its cost, the incumbent is best
            }
            if !hard && self.expanded_before(g, ids, level) {
                continue; // splits exactly like a guess already expanded here
            }
            ctr.expansions += 1;
            if !classified && !small {
                self.classify(ids, revealed, parent_allowed, level, classes);
                classified = true;
            }
            let v = self.expand(g, ids, w, left, revealed, best, level, deeper, classes, ctr);
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
        self.finish(ids, left, hard_key, beta, lb, best, best_guess, proved)
    }

    /// Stores and returns what a search of the state proved: `best` reached by
    /// `best_guess`, or else the least bound `proved` of the guesses that lost.
    #[allow(clippy::too_many_arguments)]
    fn finish(
        &self,
        ids: &[AnswerId],
        left: u8,
        hard_key: u128,
        beta: u32,
        lb: u32,
        best: u32,
        best_guess: Option<GuessId>,
        proved: u32,
    ) -> (u32, Option<GuessId>) {
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

    /// True when `guess` gives every candidate (answer-major rows at `offsets`) its own
    /// feedback. Stops at the first repeat, which for most guesses comes within a few
    /// candidates.
    #[inline]
    fn is_perfect(&self, guess: GuessId, offsets: &[usize]) -> bool {
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
    fn bound_scan(
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
    fn block_scan(&self, g0: usize, offsets: &[usize], out: &mut [Split; LANES]) {
        let n = offsets.len();
        debug_assert!(n <= BLOCK_MAX);
        let mut rows = [[0u8; LANES]; BLOCK_MAX];
        for (row, &o) in rows.iter_mut().zip(offsets) {
            row.copy_from_slice(&self.by_answer[o + g0..o + g0 + LANES]);
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

    /// True when `g` splits `ids` exactly like a guess already expanded at this state
    /// (same canonical labels, compared in full); otherwise records its class.
    fn expanded_before(&self, g: GuessId, ids: &[AnswerId], level: &mut Level) -> bool {
        let row = self.table.row(g);
        if row_has_green(row, ids) {
            return false; // a candidate's green answer sets it apart from every other guess
        }
        let counts: &mut [u32; FEEDBACKS] =
            level.counts.as_mut_slice().try_into().expect("243 slots");
        let start = level.expanded_labels.len();
        let (mut buckets, mut hash) = (0u32, 0u64);
        for &a in ids {
            let c = &mut counts[row[a as usize] as usize];
            if *c == 0 {
                buckets += 1;
                *c = buckets;
            }
            level.expanded_labels.push(*c as u8);
            hash = (hash ^ *c as u64).wrapping_mul(0x0100_0000_01b3);
        }
        for &a in ids {
            counts[row[a as usize] as usize] = 0;
        }
        let n = ids.len();
        let (labels, mine) = level.expanded_labels.split_at(start);
        let seen = level
            .expanded
            .iter()
            .any(|&(h, s)| h == hash && labels[s..s + n] == *mine);
        if seen {
            level.expanded_labels.truncate(start);
        } else {
            level.expanded.push((hash, start));
        }
        seen
    }

    /// Fills `level.allowed` with the guesses the children need: in normal mode one
    /// guess per partition class of the state (compared exactly, by canonical labels:
    /// bucket numbers in order of first appearance); in hard mode every allowed guess.
    /// Guesses that do not split the state and are not candidates are left out. Done
    /// only for states that expand a guess (about one in five at four guesses left).
    fn classify(
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

    /// The cost of playing `g` at the state (`w` counted candidates), if below
    /// `cutoff`; otherwise a lower bound `>= cutoff` for it.
    #[allow(clippy::too_many_arguments)]
    fn expand(
        &self,
        g: GuessId,
        ids: &[AnswerId],
        w: u32,
        left: u8,
        revealed: &Revealed,
        cutoff: u32,
        level: &mut Level,
        deeper: &mut [Level],
        classes: &mut Classes,
        ctr: &mut Counters,
    ) -> u32 {
        let n = ids.len();
        let obj = &self.config.objective;
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
        let here = obj.node(n, w, left);
        let mut sum_lb = here;
        for b in level.buckets.iter_mut() {
            let (s, m, f, _) = *b;
            let child = &level.buf[s as usize..(s + m) as usize];
            let mut blb = obj.size_bound(m as usize, obj.counted(child), left - 1);
            if m >= 3 && blb < INFEASIBLE {
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
        if obj.unit == 0 {
            // Feasibility: the largest bucket is the likeliest to fail.
            level
                .buckets
                .sort_unstable_by_key(|b| std::cmp::Reverse(b.1));
        } else {
            level.buckets.sort_unstable_by_key(|b| b.1);
        }

        // Search the buckets (costs: smallest first), each with what is left of the
        // cutoff.
        let mut acc = here;
        let mut rest = sum_lb - acc;
        for i in 0..level.buckets.len() {
            let (s, m, f, blb) = level.buckets[i];
            rest -= blb;
            let child_beta = cutoff - acc - rest;
            debug_assert!(child_beta > blb);
            let child = &level.buf[s as usize..(s + m) as usize];
            let next = self.after(revealed, word, f);
            let handed = if !hard && n <= BLOCK_MAX {
                Guesses {
                    max_split: level.max_split,
                    ..self.everything()
                }
            } else {
                Guesses {
                    list: &level.allowed,
                    bits: (!hard).then_some(&level.allowed_bits[..]),
                    max_split: level.max_split,
                }
            };
            let (v, _) = self.search(
                child,
                left - 1,
                &next,
                handed,
                child_beta,
                deeper,
                classes,
                ctr,
            );
            acc = add(acc, v);
            if add(acc, rest) >= cutoff {
                return add(acc, rest);
            }
        }
        acc
    }
}
