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
mod expand;
mod scan;
mod scratch;
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
use bound::INFEASIBLE;
use rayon::prelude::*;
use scan::{Guesses, Scanned};
use scratch::{Classes, Level, PooledScratch, Scratch};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Instant;

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

/// What a search with a deadline ([`Solver::cost_by`]) settled at the top.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Top {
    /// The cost of the best guess found (with its whole tree): exact for that guess.
    pub cost: u32,
    pub guess: Option<GuessId>,
    /// A proved lower bound on the state's cost; `cost` itself when the search was
    /// not cut short, so `lower_bound == cost` means proved optimal.
    pub lower_bound: u32,
    /// Of the `guesses` left after the one-level bounds (0 when the scan settled the
    /// state), how many were expanded or ruled out before the search stopped.
    pub examined: usize,
    pub guesses: usize,
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

static NEVER: AtomicBool = AtomicBool::new(false);

impl<'a> Solver<'a> {
    pub fn new(game: &'a Game, table: &'a FeedbackTable, config: Config) -> Solver<'a> {
        let by_answer = table.answer_major();
        Solver {
            game,
            table,
            by_answer,
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

    /// A scratch from the pool (or a new one) with a level for each of `left` guesses;
    /// it goes back when the guard drops. A fresh scratch costs about 0.6 MB of
    /// zeroing, and `build` runs one search per tree node: reusing them took
    /// `check --opener salet --max-guesses 5` from 0.42 s to 0.25 s of CPU.
    pub(crate) fn scratch(&self, left: u8) -> PooledScratch<'_> {
        let mut sc = self.pool.lock().unwrap().pop().unwrap_or_else(|| Scratch {
            levels: Vec::new(),
            classes: Classes::new(self.game.n_guesses()),
        });
        // A search `left` deep uses `left` levels (a state with one guess left does
        // not recurse); callers may ask for more guesses than `max_guesses`.
        while sc.levels.len() < left as usize + 1 {
            sc.levels.push(Level {
                counts: vec![0; FEEDBACKS],
                ..Level::default()
            });
        }
        PooledScratch {
            pool: &self.pool,
            sc: Some(sc),
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
        let mut sc = self.scratch(left);
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
        let top = self.run_top(ids, left, revealed, None);
        (top.cost, top.guess)
    }

    /// [`Solver::run_parallel`], optionally with a deadline: once it has passed and a
    /// guess has been solved, no further guess is taken (the ones being expanded
    /// finish, all of them under a cutoff: until the first cost is known, only one
    /// guess is expanded at a time), and the result says how far the proof got.
    fn run_top(
        &self,
        ids: &[AnswerId],
        left: u8,
        revealed: &Revealed,
        deadline: Option<Instant>,
    ) -> Top {
        const PARALLEL_MIN: usize = 64;
        let threads = rayon::current_num_threads();
        let proven = |(cost, guess): (u32, Option<GuessId>)| Top {
            cost,
            guess,
            lower_bound: cost,
            examined: 0,
            guesses: 0,
        };
        if ids.len() < PARALLEL_MIN || (threads < 2 && deadline.is_none()) {
            return proven(self.run(ids, left, revealed, INFEASIBLE));
        }
        let mut sc = self.scratch(left);
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
                    return proven((v, g));
                }
                Scanned::Expand(p) => {
                    // Workers take guesses in order from a shared counter.
                    level.order.sort_unstable();
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
        let cut_short = AtomicBool::new(false);
        let uncut = AtomicBool::new(false);
        struct Release<'f>(&'f AtomicBool);
        impl Drop for Release<'_> {
            fn drop(&mut self) {
                self.0.store(false, Ordering::Release);
            }
        }
        (0..threads).into_par_iter().for_each(|_| {
            let mut mine = self.scratch(left);
            let mut ctr = Counters::default();
            mine.levels[0].allowed = root.allowed.clone();
            mine.levels[0].allowed_bits = root.allowed_bits.clone();
            mine.levels[0].max_split = root.max_split;
            let Scratch { levels, classes } = &mut *mine;
            let (level, deeper) = levels.split_first_mut().expect("levels");
            loop {
                // Frees the one-uncut-guess slot at the end of this turn, if taken.
                let mut _slot = None;
                if let Some(d) = deadline {
                    if self.stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let known = best.load(Ordering::Relaxed) >> 16 < INFEASIBLE as u64;
                    if known && Instant::now() >= d {
                        cut_short.store(true, Ordering::Relaxed);
                        break;
                    }
                    // Until a first cost is known, one guess at a time: a guess taken
                    // without a cutoff is solved in full, and after the deadline the
                    // answer would wait for it.
                    if !known {
                        if uncut
                            .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
                            .is_err()
                        {
                            std::thread::sleep(std::time::Duration::from_micros(200));
                            continue;
                        }
                        _slot = Some(Release(&uncut));
                    }
                }
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
            return proven((INFEASIBLE, None));
        }
        let b = best.load(Ordering::Relaxed);
        let (value, guess) = ((b >> 16) as u32, (b & 0xffff) as GuessId);
        let best_guess = (value < INFEASIBLE).then_some(guess);
        let proved = proved.load(Ordering::Relaxed);
        let (examined, guesses) = (next.load(Ordering::Relaxed), root.order.len());
        if cut_short.load(Ordering::Relaxed) && examined < guesses {
            // Every guess before `examined` was expanded to the end (the workers
            // finished theirs); the rest are sorted by bound, so the next one's bound
            // is the least of theirs. Nothing is stored: the state is not settled.
            let untried = (root.order[examined] >> 64) as u32;
            let lower_bound = value.min(proved).min(untried).max(prep.lb);
            return Top {
                cost: value,
                guess: best_guess,
                lower_bound,
                examined,
                guesses,
            };
        }
        let (cost, guess) = self.finish(
            ids,
            left,
            prep.hard_key,
            INFEASIBLE,
            prep.lb,
            value,
            best_guess,
            proved,
        );
        Top {
            cost,
            guess,
            lower_bound: cost,
            examined: guesses,
            guesses,
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
        let (v, _) = self.run_parallel(ids, left, revealed);
        self.check_stop()?;
        Ok((v < INFEASIBLE).then_some(v))
    }

    /// One state under a cutoff, serially: the exact cost when it is below `beta`,
    /// else a proved lower bound `>= beta` ([`bound::INFEASIBLE`] when no tree finds
    /// every candidate within `left`). For callers that split one proof into units
    /// (`crate::proof`); the table is shared with every other call.
    pub fn cost_below(
        &self,
        ids: &[AnswerId],
        left: u8,
        revealed: &Revealed,
        beta: u32,
    ) -> Result<u32, SolveError> {
        let (v, _) = self.run(ids, left, revealed, beta);
        self.check_stop()?;
        Ok(v)
    }

    /// Like [`Solver::cost`], but once `deadline` has passed and some guess has been
    /// solved, the search stops taking new guesses at the top and settles for the best
    /// found: [`Top::lower_bound`] says what was proved (equal to the cost when the
    /// search finished anyway). `Ok(None)`: no tree finishes within `left`.
    pub fn cost_by(
        &self,
        ids: &[AnswerId],
        left: u8,
        revealed: &Revealed,
        deadline: Instant,
    ) -> Result<Option<Top>, SolveError> {
        let top = self.run_top(ids, left, revealed, Some(deadline));
        self.check_stop()?;
        Ok((top.cost < INFEASIBLE && top.guess.is_some()).then_some(top))
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
        let mut sc = self.scratch(left);
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
}
