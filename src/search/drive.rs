//! The drivers: the solver's public questions (the cost of a state, with or without a
//! deadline; the optimal tree from an opener; an opener's cost under a cutoff; the
//! first bucket no tree finishes in time) and how each spreads the search over
//! threads. The branch and bound itself is in `expand.rs` and `scan/`.
//!
//! Parallelism: the buckets of an opener are searched as independent rayon tasks that
//! share the transposition table, and a large state's guesses are expanded by all
//! threads in order of bound with a shared cutoff ([`Solver::run_top`]). Each
//! bucket's cost is exact whatever the other tasks stored, so serial and parallel
//! runs give the same totals (the trees may differ among optima). Every worker takes
//! its own scratch from the pool; no lock or dashmap guard is held across a search.

use super::bound::INFEASIBLE;
use super::parts::Part;
use super::scan::{Prepared, Scanned};
use super::scratch::Level;
use super::state::State;
use super::tt::Key;
use super::{Buckets, OpenerCost, Settled, Share, SolveError, Solver, Top, TopLog};
use crate::game::candidates::partition;
use crate::game::feedback::Feedback;
use crate::game::hard::Revealed;
use crate::game::{AnswerId, GuessId};
use crate::tree::Node;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

impl Solver<'_> {
    /// The state of the candidates `ids` at the top of a search: every guess allowed
    /// (hard mode: by `revealed`).
    fn top<'s>(&'s self, ids: &'s [AnswerId], left: u8, revealed: &Revealed) -> State<'s> {
        State {
            ids,
            left,
            revealed: *revealed,
            handed: self.everything(),
        }
    }

    /// Runs one search from the top (all guesses allowed by `revealed`); its
    /// counters go to the totals.
    fn run(
        &self,
        ids: &[AnswerId],
        left: u8,
        revealed: &Revealed,
        cutoff: u32,
    ) -> (u32, Option<GuessId>) {
        let mut sc = self.pool.lend(left, self.tt.scratch());
        self.search(&self.top(ids, left, revealed), cutoff, &mut sc.work())
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
        let top = self.run_top(ids, left, revealed, INFEASIBLE, None, None);
        (top.cost, top.guess)
    }

    /// [`Solver::run_parallel`] under a `cutoff` (the exact cost when below it, else a
    /// lower bound at least the cutoff, as [`Solver::search`]), optionally with a
    /// deadline: once it has passed and a guess has been solved, no further guess is
    /// taken (the ones being expanded finish, all of them under a cutoff: until the
    /// first cost is known, only one guess is expanded at a time), and the result says
    /// how far the proof got. A deadline needs `cutoff` [`INFEASIBLE`]. With a `log`
    /// ([`TopLog`]), the guesses it knows are not expanded again and each guess
    /// expanded here is reported to it (not once the stop flag is set: an interrupted
    /// expansion proves nothing); the loop then runs even on one thread.
    fn run_top(
        &self,
        ids: &[AnswerId],
        left: u8,
        revealed: &Revealed,
        cutoff: u32,
        deadline: Option<Instant>,
        log: Option<&TopLog>,
    ) -> Top {
        debug_assert!(deadline.is_none() || cutoff == INFEASIBLE);
        const PARALLEL_MIN: usize = 64;
        let threads = rayon::current_num_threads();
        if ids.len() < PARALLEL_MIN || (threads < 2 && deadline.is_none() && log.is_none()) {
            return proven(self.run(ids, left, revealed, cutoff));
        }
        let st = self.top(ids, left, revealed);
        let mut sc = self.pool.lend(left, self.tt.scratch());
        let prep = {
            let mut work = sc.work();
            match self.scan(&st, cutoff, &mut work) {
                Scanned::Done(v, g) => return proven((v, g)),
                Scanned::Below(_) => unreachable!("only a least-bound scan stops below"),
                Scanned::Expand(p) => {
                    let (level, below) = work.split();
                    // Workers take guesses in order from a shared counter.
                    level.order.sort_unstable();
                    // The children's guesses, once for all workers.
                    self.classify(&st, level, below.classes);
                    level.classified = true;
                    p
                }
            }
        };
        let root = &sc.levels[0];
        let race = Race::new(&prep, cutoff, &root.order, log);
        (0..threads)
            .into_par_iter()
            .for_each(|_| self.top_worker(&st, root, &prep, &race, deadline, log));
        if self.stop.load(Ordering::Relaxed) {
            return proven((INFEASIBLE, None));
        }
        let b = race.best.load(Ordering::Relaxed);
        let (value, guess) = ((b >> 16) as u32, GuessId((b & 0xffff) as u16));
        let best_guess = (value < cutoff).then_some(guess);
        let proved = race.proved.load(Ordering::Relaxed);
        if race.elsewhere.load(Ordering::Relaxed) {
            // Some guesses were left to other processes (`TopLog::share`): the best
            // of the rest, stored nowhere; the caller knows it is partial.
            return Top {
                cost: value,
                guess: best_guess,
                lower_bound: prep.lb,
                examined: race.next.load(Ordering::Relaxed).min(root.order.len()),
                guesses: root.order.len(),
            };
        }
        let (examined, guesses) = (race.next.load(Ordering::Relaxed), root.order.len());
        if race.cut_short.load(Ordering::Relaxed) && examined < guesses {
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
        let key = Key {
            ids,
            left,
            hard: prep.hard_key,
        };
        let (cost, guess) = self.finish(&key, cutoff, prep.lb, (value, best_guess), proved);
        Top {
            cost,
            guess,
            lower_bound: cost,
            examined: guesses,
            guesses,
        }
    }

    /// One worker of [`Solver::run_top`]: on a scratch of its own that starts from the
    /// `root`'s classes, takes the root's guesses in order of bound from `race` and
    /// expands each under the best cost found so far, until a guess's bound reaches
    /// it, the guesses run out, or (with a `deadline`) the time is up.
    fn top_worker(
        &self,
        st: &State,
        root: &Level,
        prep: &Prepared,
        race: &Race,
        deadline: Option<Instant>,
        log: Option<&TopLog>,
    ) {
        let mut mine = self.pool.lend(st.left, self.tt.scratch());
        let top = &mut mine.levels[0];
        top.allowed = root.allowed.clone();
        top.allowed_bits = root.allowed_bits.clone();
        top.max_split = root.max_split;
        // The root's compact tables are shared (their bytes behind an `Arc`), with
        // their flags set from the root's, never left from an earlier search: the
        // children's scans and pre-scans read them as they do under the serial
        // search. Without them every bucket of a top guess scanned the full table:
        // NYT 2023 `buzzy`'s all-gray unit (1781 answers, `solve --results`, one
        // thread, avx2) took 112 CPU-s against 46 in the serial `solve`.
        top.has_local = root.has_local;
        top.kids_ready = root.kids_ready;
        top.local = if root.has_local || root.kids_ready {
            root.local.clone()
        } else {
            Default::default()
        };
        top.kids = if root.kids_ready {
            root.kids.clone()
        } else {
            Default::default()
        };
        top.own_ready = root.own_ready;
        top.own = if root.own_ready {
            root.own.clone()
        } else {
            Default::default()
        };
        top.classified = true;
        let mut work = mine.work();
        let (level, mut below) = work.split();
        // The same guesses are skipped as in the serial loop (`Solver::search`): in
        // normal mode every guess the root's classes left out (it splits like a kept
        // one, at the same bound, or a neighbour handed down splits at least as
        // finely); in hard mode every guess the groups' demands refute. Without them
        // a unit of `solve --results` expanded every guess of its order (NYT 2023
        // `buzzy`'s all-gray unit, one thread, avx2: 122 -> 112 CPU-s).
        let skip_classes = !self.config.hard;
        self.prepare_demands(st, level);
        let greens = st.revealed.green_positions();
        loop {
            // Frees the one-uncut-guess slot at the end of this turn, if taken.
            let mut _slot = None;
            if let Some(d) = deadline {
                match race.turn(d, self.stop) {
                    Turn::Stop => break,
                    Turn::Wait => {
                        std::thread::sleep(std::time::Duration::from_micros(200));
                        continue;
                    }
                    Turn::Go(slot) => _slot = slot,
                }
            }
            let k = race.next.fetch_add(1, Ordering::Relaxed);
            let Some(&key) = root.order.get(k) else { break };
            let glb = (key >> 64) as u32;
            let g = GuessId((key & 0xffff) as u16);
            let cutoff = race.cutoff();
            if glb >= cutoff {
                race.proved.fetch_min(glb, Ordering::Relaxed);
                break; // every later guess is bounded at least as high
            }
            if key >> 16 & 1 == 1 {
                continue; // a perfect split: the incumbent already covers it
            }
            let gi = g.index();
            if skip_classes && level.allowed_bits[gi / 64] >> (gi % 64) & 1 == 0 {
                continue; // its class's kept guess (or a dominating one) covers it
            }
            if self.fails_demands(g, greens, level) {
                continue; // a bucket holds more of a group than it can find
            }
            match known(log, g) {
                // Already the incumbent if it beats the cutoff.
                Some(Settled::Exact(v)) if v < cutoff => continue,
                Some(Settled::Exact(v) | Settled::AtLeast(v)) if v >= cutoff => {
                    race.proved.fetch_min(v, Ordering::Relaxed);
                    continue;
                }
                _ => {}
            }
            let mut cutoff = cutoff;
            if let Some(share) = log.and_then(|l| l.share) {
                match share(k, g, cutoff) {
                    Share::Mine(None) => {}
                    Share::Mine(Some((h, v))) => {
                        if v < cutoff {
                            race.best.fetch_min(pack(v, h), Ordering::Relaxed);
                            cutoff = race.cutoff();
                            if glb >= cutoff {
                                race.proved.fetch_min(glb, Ordering::Relaxed);
                                break;
                            }
                        }
                    }
                    Share::Settled(Settled::Exact(v)) if v < cutoff => {
                        race.best.fetch_min(pack(v, g), Ordering::Relaxed);
                        continue;
                    }
                    Share::Settled(Settled::Exact(v)) => {
                        race.proved.fetch_min(v, Ordering::Relaxed);
                        continue;
                    }
                    Share::Settled(Settled::AtLeast(v)) if v >= cutoff => {
                        race.proved.fetch_min(v, Ordering::Relaxed);
                        continue;
                    }
                    // A bound below this cutoff decides nothing here: left out too.
                    Share::Settled(Settled::AtLeast(_)) | Share::Elsewhere => {
                        race.elsewhere.store(true, Ordering::Relaxed);
                        continue;
                    }
                }
            }
            below.ctr.expansions += 1;
            let v = self.expand(g, st, prep.w, cutoff, level, &mut below);
            let settled = if v < cutoff {
                race.best.fetch_min(pack(v, g), Ordering::Relaxed);
                Settled::Exact(v)
            } else {
                race.proved.fetch_min(v, Ordering::Relaxed);
                Settled::AtLeast(v)
            };
            if let Some(l) = log {
                if !self.stop.load(Ordering::Relaxed) {
                    (l.record)(g, settled);
                }
            }
        }
        // The shared tables go back to the root alone (its own rebuilds stay in place).
        let top = &mut mine.levels[0];
        (top.has_local, top.kids_ready, top.own_ready) = (false, false, false);
        top.local = Default::default();
        top.kids = Default::default();
        top.own = Default::default();
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

    /// One state under a cutoff: the exact cost when it is below `cutoff`, else a
    /// proved lower bound `>= cutoff` ([`super::bound::INFEASIBLE`] when no tree finds
    /// every candidate within `left`). For callers that split one proof into units
    /// (`crate::jobs::proof`); the transposition table is shared with every other call.
    /// A large state's guesses are offered to every thread (`Solver::run_top`): when
    /// the caller runs units on rayon workers, a worker left without units steals
    /// guesses of the units still running, so the last large unit does not leave
    /// cores idle. Feasibility (unit 0) stays serial.
    ///
    /// `log` journals the top level (total objective only; feasibility ignores it):
    /// see [`TopLog`].
    pub fn cost_below(
        &self,
        ids: &[AnswerId],
        left: u8,
        revealed: &Revealed,
        cutoff: u32,
        log: Option<&TopLog>,
    ) -> Result<u32, SolveError> {
        let v = if self.config.objective.unit == 0 {
            // Feasibility wants one witness: the serial search tries the likeliest
            // guesses first (`first_fit`), and workers would race past it.
            self.run(ids, left, revealed, cutoff).0
        } else {
            self.run_top(ids, left, revealed, cutoff, None, log).cost
        };
        self.check_stop()?;
        Ok(v)
    }

    /// [`Solver::cost_below`] for feasibility (serial), with at most `scans` state
    /// scans (`budget.rs`): `Ok(None)` when the budget ran out first (nothing
    /// unsettled is stored, so a later search is unaffected).
    pub fn cost_below_within(
        &self,
        ids: &[AnswerId],
        left: u8,
        revealed: &Revealed,
        cutoff: u32,
        scans: u64,
    ) -> Result<Option<u32>, SolveError> {
        let r = self.run_within_budget(ids, left, revealed, cutoff, scans, None);
        self.check_stop()?;
        Ok(r.map(|(v, _)| v))
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
        let top = self.run_top(ids, left, revealed, INFEASIBLE, Some(deadline), None);
        self.check_stop()?;
        Ok((top.cost < INFEASIBLE && top.guess.is_some()).then_some(top))
    }

    /// The optimal tree from `opener` over all answers, and its cost. `progress` is
    /// called after each opener bucket with (answers settled, answers, cost so far):
    /// answers, not buckets, since the buckets come smallest first and the last few
    /// hold most of the answers and most of the time.
    ///
    /// ```
    /// use wordle_tree::game::{table::FeedbackTable, word::Word, Game};
    /// use wordle_tree::search::{Config, Solver};
    ///
    /// let words: Vec<Word> = ["cigar", "rebut", "sissy", "humph", "awake", "blush"]
    ///     .iter()
    ///     .map(|w| Word::parse(w).unwrap())
    ///     .collect();
    /// let game = Game::from_words(&words, &words);
    /// let table = FeedbackTable::build(&game);
    /// let solver = Solver::new(&game, &table, Config::default());
    /// let opener = game.guess_id(words[0]).unwrap();
    /// let (total, _tree) = solver.solve_opener(opener, &|_, _, _| {}).unwrap();
    /// // cigar in 1; rebut, sissy and awake in 2; humph and blush share cigar's
    /// // feedback (all gray), so one of them needs 3: 1 + 3 * 2 + 2 + 3.
    /// assert_eq!(total, 12);
    /// ```
    pub fn solve_opener(
        &self,
        opener: GuessId,
        progress: &(dyn Fn(usize, usize, u64) + Sync),
    ) -> Result<(u64, Node), SolveError> {
        let ids: Vec<AnswerId> = self.game.all_answer_ids();
        self.solve_from(
            opener,
            &ids,
            self.config.max_guesses,
            &Revealed::default(),
            progress,
        )
    }

    /// The non-green buckets of `guess` on `ids`.
    fn branches(&self, guess: GuessId, ids: &[AnswerId]) -> Vec<(Feedback, Vec<AnswerId>)> {
        partition(self.table, guess, ids)
            .into_iter()
            .filter(|(f, _)| !f.is_all_green())
            .collect()
    }

    /// The optimal tree for the state `ids` when `guess` is played now, with `left`
    /// guesses including it. The buckets are solved smallest first, so that a guess
    /// that cannot finish is found out at its first infeasible bucket rather than after
    /// every larger feasible one (`areas`, 2023 hard mode: 63.5 -> 0.34 CPU-s; the
    /// figures are in performance.md): each thread takes the next bucket from a
    /// shared counter and searches it serially while more buckets are left than
    /// threads, under a budget that another thread's infeasible bucket ends (a search
    /// ended so stores nothing); each of the last buckets is offered to every thread
    /// (`Solver::run_parallel`), which keeps the threads busy on the largest.
    pub fn solve_from(
        &self,
        guess: GuessId,
        ids: &[AnswerId],
        left: u8,
        revealed: &Revealed,
        progress: &(dyn Fn(usize, usize, u64) + Sync),
    ) -> Result<(u64, Node), SolveError> {
        let obj = &self.config.objective;
        let word = self.game.guesses[guess.index()];
        let mut buckets = self.branches(guess, ids);
        if left == 0 || (left == 1 && !buckets.is_empty()) {
            return Err(SolveError::Infeasible(self.config.max_guesses));
        }
        buckets.sort_by_key(|(_, b)| b.len());
        let here = obj.node(ids.len(), obj.counted(ids), left) as u64;
        let n_buckets = buckets.len();
        let next = AtomicUsize::new(0);
        // Answers settled: the opener's own (all green) from the start.
        let done =
            AtomicUsize::new(ids.len() - buckets.iter().map(|(_, b)| b.len()).sum::<usize>());
        let cost_so_far = AtomicU64::new(here);
        let failed = std::sync::Arc::new(AtomicBool::new(false));
        let values: Vec<AtomicU32> = (0..n_buckets).map(|_| AtomicU32::new(INFEASIBLE)).collect();
        let threads = rayon::current_num_threads();
        rayon::broadcast(|_| loop {
            if failed.load(Ordering::Relaxed) || self.stop.load(Ordering::Relaxed) {
                return;
            }
            let k = next.fetch_add(1, Ordering::Relaxed);
            let Some((f, b)) = buckets.get(k) else {
                return;
            };
            let after = self.after(revealed, word, *f);
            let v = if k + threads < n_buckets {
                let _budget = super::budget::Guard::abortable(failed.clone());
                let (v, _) = self.run(b, left - 1, &after, INFEASIBLE);
                if super::budget::exhausted() {
                    return; // another bucket failed: this one's value is not needed
                }
                v
            } else {
                self.run_parallel(b, left - 1, &after).0
            };
            values[k].store(v, Ordering::Relaxed);
            let total = cost_so_far.fetch_add(v as u64, Ordering::Relaxed) + v as u64;
            let settled = done.fetch_add(b.len(), Ordering::Relaxed) + b.len();
            progress(settled, ids.len(), total);
            if v >= INFEASIBLE {
                failed.store(true, Ordering::Relaxed);
            }
        });
        self.check_stop()?;
        if failed.load(Ordering::Relaxed) {
            return Err(SolveError::Infeasible(self.config.max_guesses));
        }
        let results: Vec<u32> = values.iter().map(|v| v.load(Ordering::Relaxed)).collect();
        let total = here + results.iter().map(|&v| v as u64).sum::<u64>();
        let mut branches: Vec<(Feedback, Node)> = buckets
            .par_iter()
            .map(|(f, b)| (*f, self.build(b, left - 1, &self.after(revealed, word, *f))))
            .collect();
        branches.sort_by_key(|(f, _)| *f);
        self.check_stop()?;
        Ok((total, Node { guess, branches }))
    }

    /// A bucket of `guess` on `ids` that no tree finishes within `left - 1` more
    /// guesses, or `None` when every bucket can be (then the transposition table holds
    /// a witness for each). The search stops at the first failure, so a refutation
    /// costs one failing bucket, not all of them. Which bucket fails cheaply is not
    /// known in advance, so the buckets are searched in rounds: in the first, each
    /// may use [`super::Config::first_budget`] state scans (`budget.rs`), four times
    /// as many in each later one; a bucket settled in a round is not searched again,
    /// and what a cut-off search settled stays in the transposition table. Within a
    /// round buckets go smallest first and the first failure in that order is
    /// returned. Measured on `check --opener W --max-guesses 6 --subset groups:40`
    /// (big game, hard mode, one thread): `bayou` was not settled in over 20 minutes
    /// smallest first to the end (a small bucket that can be finished, slowly); by
    /// rounds its 168-candidate bucket `BGBBB` refutes it in 94 s. On 28 other
    /// openers the rounds took 9.8 s in all against 10.8 s. The first budget trades
    /// the two: 256 scans found `bayou` in 22 s but took 21.8 s on the 28 (each
    /// bucket's work is cut and redone more often); `salet` within 4 (normal mode)
    /// takes 0.42 s either way, 2.2 s with 256.
    pub fn first_infeasible_bucket(
        &self,
        guess: GuessId,
        ids: &[AnswerId],
        left: u8,
        revealed: &Revealed,
    ) -> Result<Option<(Feedback, Vec<AnswerId>)>, SolveError> {
        Ok(
            match self.settle_buckets(guess, ids, left, revealed, None)? {
                Buckets::Fails(f, b) => Some((f, b)),
                Buckets::AllFinish => None,
                Buckets::GaveUp => unreachable!("no deadline, no giving up"),
            },
        )
    }

    /// [`Solver::first_infeasible_bucket`], giving up ([`Buckets::GaveUp`]) once
    /// `give_up` has passed (the clock is read every few hundred scans).
    pub fn settle_buckets(
        &self,
        guess: GuessId,
        ids: &[AnswerId],
        left: u8,
        revealed: &Revealed,
        give_up: Option<Instant>,
    ) -> Result<Buckets, SolveError> {
        use std::sync::atomic::AtomicU8;
        let word = self.game.guesses[guess.index()];
        let mut buckets = self.branches(guess, ids);
        buckets.sort_by_key(|(_, b)| b.len());
        if left <= 1 {
            return Ok(match buckets.into_iter().next() {
                Some((f, b)) => Buckets::Fails(f, b),
                None => Buckets::AllFinish,
            });
        }
        const PENDING: u8 = 0;
        const FEASIBLE: u8 = 1;
        let settled: Vec<AtomicU8> = buckets.iter().map(|_| AtomicU8::new(PENDING)).collect();
        let mut budget = self.config.first_budget;
        loop {
            let pending: Vec<usize> = (0..buckets.len())
                .filter(|&i| settled[i].load(Ordering::Relaxed) == PENDING)
                .collect();
            if pending.is_empty() {
                return Ok(Buckets::AllFinish);
            }
            if give_up.is_some_and(|t| Instant::now() >= t) {
                return Ok(Buckets::GaveUp);
            }
            let failed = pending.into_par_iter().find_map_first(|i| {
                let (f, b) = &buckets[i];
                let after = self.after(revealed, word, *f);
                match self.run_within_budget(b, left - 1, &after, INFEASIBLE, budget, give_up) {
                    Some((v, _)) if v >= INFEASIBLE => Some(i),
                    Some(_) => {
                        settled[i].store(FEASIBLE, Ordering::Relaxed);
                        None
                    }
                    None => None,
                }
            });
            self.check_stop()?;
            if let Some(i) = failed {
                let (f, b) = buckets.swap_remove(i);
                return Ok(Buckets::Fails(f, b));
            }
            budget = budget.saturating_mul(4);
        }
    }

    /// [`Solver::run`] with at most `scans` state scans (`budget.rs`; `u64::MAX`:
    /// unlimited), and none after `until`: `None` when the budget ran out first
    /// (nothing unsettled is stored).
    fn run_within_budget(
        &self,
        ids: &[AnswerId],
        left: u8,
        revealed: &Revealed,
        cutoff: u32,
        scans: u64,
        until: Option<Instant>,
    ) -> Option<(u32, Option<GuessId>)> {
        let _budget = super::budget::Guard::new(scans, until);
        let r = self.run(ids, left, revealed, cutoff);
        (!super::budget::exhausted()).then_some(r)
    }

    /// The least total cost from `opener` over all answers if it is below `cutoff`
    /// (`None`: no cutoff), else a proved lower bound `>= cutoff`
    /// ([`OpenerCost::AtLeast`]). Serial, so the
    /// cutoff tightens bucket by bucket; run many openers in parallel instead.
    pub fn opener_cost(
        &self,
        opener: GuessId,
        cutoff: Option<u64>,
    ) -> Result<OpenerCost, SolveError> {
        let obj = &self.config.objective;
        let ids: Vec<AnswerId> = self.game.all_answer_ids();
        let left = self.config.max_guesses;
        let word = self.game.guesses[opener.index()];
        let buckets = self.branches(opener, &ids);
        if left <= 1 && !buckets.is_empty() {
            return Ok(OpenerCost::AtLeast(INFEASIBLE as u64));
        }
        let here = obj.node(ids.len(), obj.counted(&ids), left) as u64;
        // One part a bucket; `parts_cost` runs the two rounds (its module doc): the
        // scans, largest bucket first, then each bucket exactly, smallest first. The
        // scan alone settles small buckets and raises a large one's bound from
        // `2m - 1` to the best per-guess bound `3m - k - c` (`peeks`: its
        // 696-answer bucket from 1391 to about 1890), so many openers are dismissed
        // before any bucket is searched.
        let parts: Vec<Part> = buckets
            .into_iter()
            .map(|(f, ids)| Part {
                ids,
                left: left - 1,
                revealed: self.after(&Revealed::default(), word, f),
            })
            .collect();
        Ok(self.parts_cost(here, &parts, cutoff)?.cost)
    }

    /// The optimal subtree of a feasible state, read back from the transposition table (re-searching
    /// any state that was evicted or settled by a closed form).
    pub fn build(&self, ids: &[AnswerId], left: u8, revealed: &Revealed) -> Node {
        let (v, g) = self.run(ids, left, revealed, INFEASIBLE);
        let guess = match g {
            Some(g) if v < INFEASIBLE => g,
            // Interrupted: an empty node; the caller reports the interruption.
            _ => {
                return Node {
                    guess: ids[0].as_guess(),
                    branches: Vec::new(),
                }
            }
        };
        let word = self.game.guesses[guess.index()];
        let branches = self
            .branches(guess, ids)
            .into_iter()
            .map(|(f, b)| (f, self.build(&b, left - 1, &self.after(revealed, word, f))))
            .collect();
        Node { guess, branches }
    }
}

/// A cost proved at the top, as [`Top`]: exact, every guess examined.
fn proven((cost, guess): (u32, Option<GuessId>)) -> Top {
    Top {
        cost,
        guess,
        lower_bound: cost,
        examined: 0,
        guesses: 0,
    }
}

/// A cost and its guess in one word, so that the least of both is one `fetch_min`.
fn pack(v: u32, g: GuessId) -> u64 {
    (v as u64) << 16 | g.0 as u64
}

/// What the journal of `log` knows of the guess `g`.
fn known(log: Option<&TopLog>, g: GuessId) -> Option<Settled> {
    log.and_then(|l| l.known.get(&g).copied())
}

/// What the workers of [`Solver::run_top`] share.
struct Race {
    /// The best cost found and its guess ([`pack`]ed), or the cutoff (with no guess)
    /// while none is below it.
    best: AtomicU64,
    /// The least bound proved of the guesses that lost.
    proved: AtomicU32,
    /// The next guess to take, in the root's order.
    next: AtomicUsize,
    /// Set when the deadline ended the search with guesses untried.
    cut_short: AtomicBool,
    /// Taken by the one guess expanded while no cost is known (with a deadline).
    uncut: AtomicBool,
    /// Set when a guess was left to another process ([`Share::Elsewhere`]).
    elsewhere: AtomicBool,
}

impl Race {
    /// From the scan's incumbent (if below `cutoff`) and bound of the guesses it
    /// left out, and the exact costs below `cutoff` that `log` knows of the guesses
    /// in `order`.
    fn new(prep: &Prepared, cutoff: u32, order: &[u128], log: Option<&TopLog>) -> Race {
        let best = AtomicU64::new(match prep.incumbent {
            (v, Some(g)) if v < cutoff => pack(v, g),
            _ => pack(cutoff, GuessId(0)),
        });
        for &key in order {
            let g = GuessId((key & 0xffff) as u16);
            if let Some(Settled::Exact(v)) = known(log, g) {
                if v < cutoff {
                    best.fetch_min(pack(v, g), Ordering::Relaxed);
                }
            }
        }
        Race {
            best,
            proved: AtomicU32::new(prep.rejected),
            next: AtomicUsize::new(0),
            cut_short: AtomicBool::new(false),
            uncut: AtomicBool::new(false),
            elsewhere: AtomicBool::new(false),
        }
    }

    /// The cutoff a guess is expanded under: the best cost found so far.
    fn cutoff(&self) -> u32 {
        (self.best.load(Ordering::Relaxed) >> 16) as u32
    }

    /// Whether a worker under a `deadline` takes a guess now: not once stopped or
    /// once the deadline has passed with a cost known (the search is then cut
    /// short); while no cost is known, only by taking the one uncut slot.
    fn turn(&self, deadline: Instant, stop: &AtomicBool) -> Turn<'_> {
        if stop.load(Ordering::Relaxed) {
            return Turn::Stop;
        }
        let known = self.best.load(Ordering::Relaxed) >> 16 < INFEASIBLE as u64;
        if known && Instant::now() >= deadline {
            self.cut_short.store(true, Ordering::Relaxed);
            return Turn::Stop;
        }
        // Until a first cost is known, one guess at a time: a guess taken without a
        // cutoff is solved in full, and after the deadline the answer would wait
        // for it.
        if known {
            return Turn::Go(None);
        }
        if self
            .uncut
            .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            return Turn::Wait;
        }
        Turn::Go(Some(Release(&self.uncut)))
    }
}

/// What [`Race::turn`] tells a worker.
enum Turn<'r> {
    /// Take no more guesses.
    Stop,
    /// Another guess holds the uncut slot: try again shortly.
    Wait,
    /// Take a guess (holding the uncut slot until the turn ends, when given).
    Go(Option<Release<'r>>),
}

/// Frees the uncut slot when dropped.
struct Release<'f>(&'f AtomicBool);

impl Drop for Release<'_> {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}
