//! `openers --best-first`: the K best openers proved exactly, effort spent only where
//! the ranking is still open.
//!
//! Every opener of the run has a proved lower bound on its total: at first the
//! one-level estimate `n + sum over non-green buckets of (2|b| - 1)` ([`estimate`],
//! what the plain sweep orders by, no search), or what its result file already proves
//! (an `at-least N` record raises it to `N`; `exact N` with its max depth and
//! `cannot-finish` settle it). The workers repeatedly take the open opener with the
//! least bound (ties alphabetical) and refine it with [`Solver::opener_cost`] under a
//! cutoff a step above that bound: the search proves either its exact total (below the
//! cutoff; its optimal tree is then replayed for its max depth, as `openers --exact`
//! records) or a bound at least the cutoff, which replaces the old one. The step is
//! `max(step, bound - estimate)`, so an opener refined again and again rises
//! geometrically (at most about log2 of its gap over the step refinements), and the
//! cutoff never exceeds `T + 1` once `T`, the K-th best exact total known, exists: at
//! `T + 1` a search settles the opener for good. The run stops when the least open
//! bound exceeds `T` (and no refinement is in progress): every opener not among the
//! exact ones then costs more than the K-th best, and openers tied with it are solved
//! exactly too, so the ranking's top K (extended to ties) is proved, the property
//! [`Ranking::proves_top`] checks.
//!
//! Storage: the records of kind `openers` ([`Record`]), no new format. Each
//! refinement writes its opener's file atomically (`at-least N` with its cutoff, or
//! `exact N` with `max_depth`), so an interrupted run (exit 130) resumes from the
//! bounds it proved. A finished run also writes `at-least E` (cutoff `E`, no states)
//! for the openers it never had to refine, their estimate `E` already above `T`, so
//! every opener has a record and `--merge` sees no opener missing. These records are
//! valid for the other modes too: the plain sweep reuses a bound at least its cutoff
//! and `--exact` the exact totals with their depth. Files of other lists, modes or
//! format versions, and a bound below its cutoff, are refused by name as the scan
//! always does (a warning; the opener starts again from its estimate).
//!
//! Shards: each shard (`--shard i/n`) runs best-first over its own openers, with `T`
//! taken from every exact total of the run's opener set in the directory. Every
//! opener a shard leaves inexact then costs more than its shard's K-th best, which is
//! at least the global K-th best, so the merge of all shards proves the global top K.
//!
//! Measured (docs/guide/commands.md, original lists, `--top 1`, two threads, AVX-512,
//! loaded machine): 12972 refinements, one per opener, 422.7 CPU-s in searches,
//! against 414.7 for `openers --cutoff 7921` told the answer in advance; smaller
//! steps refine openers more than once and cost more ([`default_step`]).
//!
//! Workers: one thread per core, each with its own [`Solver`], all sharing one
//! transposition table of the whole memory limit ([`Solver::sharing`]: an opener
//! refined again, by any worker, starts from what every earlier refinement proved);
//! the frontier (a heap of open bounds), the exact totals
//! and the count of refinements in progress sit under one lock. A worker that finds
//! the least open bound above `T` while another is still refining waits: that
//! refinement may put an opener back below `T`.

use crate::game::{Game, GuessId};
use crate::jobs::driver::{estimate, Outcome, Stopwatch};
use crate::jobs::openers::{optimal_tree_depth, OpenersDir, OpenersError, Record, Settings};
use crate::search::tt::TranspositionTable;
use crate::search::{Config, SolveError, Solver};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

#[cfg(doc)]
use crate::jobs::openers::Ranking;

/// Where a best-first run stands, passed to its progress callback after every
/// refinement.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Frontier {
    /// Refinements finished by this run.
    pub refinements: usize,
    /// Openers still open (neither exact nor cannot-finish).
    pub open: usize,
    /// Openers with an exact total.
    pub exact: usize,
    /// The least open bound (`None`: none open).
    pub least: Option<u64>,
    /// The K-th best exact total (`None`: fewer than K exact).
    pub kth: Option<u64>,
}

/// What a best-first run did.
pub struct Summary {
    /// The records of every refinement, in completion order (an opener refined three
    /// times appears three times).
    pub computed: Vec<Record>,
    /// Openers whose estimate already decided them (`at-least E` written, no search).
    pub unrefined: usize,
    /// The final frontier.
    pub frontier: Frontier,
    pub warnings: Vec<String>,
}

/// The default step of `--best-first`: the number of answers (the estimate's gap to
/// the exact total is below it for most openers: 18% of the total on the original
/// lists, about 0.66 n), so most openers are refined once. Measured on 150 openers
/// of the original lists (`--random 150 --seed 3 --top 3`, two threads, AVX-512):
/// step 144 took 458 refinements and 18.9 CPU-s, 578 took 333 and 18.0, 1200 took
/// 238 and 11.2, 2315 took 150 (one each) and 10.1: a refinement repeats the
/// search's first round (every bucket's scan), so refining twice costs nearly twice.
pub fn default_step(game: &Game) -> u64 {
    (game.n_answers() as u64).max(1)
}

/// The shared state of the workers.
struct State {
    /// Open openers by (bound, word).
    heap: BinaryHeap<Reverse<(u64, crate::game::word::Word, GuessId)>>,
    /// Exact totals of the opener set, sorted.
    exacts: Vec<u64>,
    in_progress: usize,
    frontier: Frontier,
    computed: Vec<Record>,
    failure: Option<OpenersError>,
    /// Openers of this run that were refined (popped) at least once.
    refined: Vec<bool>,
}

impl State {
    fn kth(&self, k: usize) -> Option<u64> {
        self.exacts.get(k - 1).copied()
    }

    fn add_exact(&mut self, v: u64) {
        let i = self.exacts.partition_point(|&x| x <= v);
        self.exacts.insert(i, v);
    }

    fn frontier(&mut self, k: usize) -> Frontier {
        self.frontier.open = self.heap.len() + self.in_progress;
        self.frontier.least = self.heap.peek().map(|r| r.0 .0);
        self.frontier.kth = self.kth(k);
        self.frontier
    }
}

/// Runs best-first over `shard_openers` (K = `settings.top`; `settings.cutoff`,
/// `prepass` and `exact` are not used), reusing and writing result files in `dir`;
/// `all_openers` is the whole opener set, whose exact totals in `dir` set `T` (module
/// doc). `step`: the least step of a refinement's cutoff above the bound. Once `stop`
/// is set, returns `SolveError::Interrupted` (as [`OpenersError::Solve`]) with
/// nothing partial written.
#[allow(clippy::too_many_arguments)]
pub fn run(
    game: &Game,
    table: &crate::game::table::FeedbackTable,
    all_openers: &[GuessId],
    shard_openers: &[GuessId],
    dir: &OpenersDir,
    settings: &Settings,
    step: u64,
    stop: &AtomicBool,
    progress: &(dyn Fn(&Frontier) + Sync),
) -> Result<Summary, OpenersError> {
    let k = settings.top.max(1);
    let scan = dir.scan()?;
    let estimates: BTreeMap<GuessId, u64> = shard_openers
        .iter()
        .map(|&g| (g, estimate(game, table, g, settings.max_guesses).0))
        .collect();
    let mut state = State::from_records(game, &scan.records, all_openers, &estimates);
    state.frontier(k);
    let threads = settings.threads.max(1).min(estimates.len().max(1));
    let config = Config {
        max_guesses: settings.max_guesses,
        hard: settings.hard,
        memory_limit: settings.memory_limit / threads,
        ..Config::default()
    };
    let run = Refining {
        game,
        settings,
        dir,
        stop,
        progress,
        k,
        step: step.max(1),
        estimates: &estimates,
        state: Mutex::new(state),
        wake: Condvar::new(),
    };
    let tt = TranspositionTable::shared(config.memory_limit, threads, config.use_transpositions);
    rayon::scope(|s| {
        for _ in 0..threads {
            s.spawn(|_| {
                let solver = Solver::sharing(game, table, config.clone(), tt.clone());
                run.work(solver.with_stop(stop))
            });
        }
    });
    let mut st = run.state.into_inner().unwrap();
    if let Some(e) = st.failure.take() {
        return Err(e);
    }
    let kth = st.kth(k);
    let done = st
        .heap
        .peek()
        .is_none_or(|r| kth.is_some_and(|t| r.0 .0 > t));
    if !done {
        return Err(SolveError::Interrupted.into());
    }
    let unrefined = write_unrefined(game, settings, dir, &st, &scan.records)?;
    let frontier = st.frontier(k);
    Ok(Summary {
        computed: st.computed,
        unrefined,
        frontier,
        warnings: scan.warnings,
    })
}

impl State {
    /// The starting frontier: the exact totals of other shards' openers (they tighten
    /// T), then each of this shard's openers settled by its record (exact with its
    /// depth, or cannot finish) or open at its bound: the record's, raised to its
    /// `estimates` entry, or that estimate alone.
    fn from_records(
        game: &Game,
        records: &BTreeMap<GuessId, Record>,
        all_openers: &[GuessId],
        estimates: &BTreeMap<GuessId, u64>,
    ) -> State {
        let mut state = State {
            heap: BinaryHeap::new(),
            exacts: Vec::new(),
            in_progress: 0,
            frontier: Frontier::default(),
            computed: Vec::new(),
            failure: None,
            refined: vec![false; game.n_guesses()],
        };
        let mut counted = vec![false; game.n_guesses()];
        for &g in all_openers {
            if std::mem::replace(&mut counted[g.index()], true) || estimates.contains_key(&g) {
                continue;
            }
            // Other shards' exact totals tighten T.
            if let Some(Outcome::Exact(v)) = records.get(&g).map(|r| r.outcome) {
                state.add_exact(v);
            }
        }
        for (&g, &est) in estimates {
            let word = game.guesses[g.index()];
            match records.get(&g) {
                // Exact with its depth, or cannot finish: settled, not open.
                Some(r) if r.settles_exactly() => {
                    if let Outcome::Exact(v) = r.outcome {
                        state.add_exact(v);
                        state.frontier.exact += 1;
                    }
                }
                // An exact total without its depth is a bound (refined again, it gets one).
                Some(Record {
                    outcome: Outcome::Exact(lb) | Outcome::AtLeast(lb),
                    ..
                }) => state.heap.push(Reverse(((*lb).max(est), word, g))),
                _ => state.heap.push(Reverse((est, word, g))),
            }
        }
        state
    }
}

/// A best-first run in progress: what every worker reads, and the [`State`] they
/// share under one lock (`wake` tells waiting workers that it changed).
struct Refining<'a> {
    game: &'a Game,
    settings: &'a Settings,
    dir: &'a OpenersDir<'a>,
    stop: &'a AtomicBool,
    progress: &'a (dyn Fn(&Frontier) + Sync),
    /// K, and the least step of a cutoff above the bound.
    k: usize,
    step: u64,
    /// Each opener's one-level estimate.
    estimates: &'a BTreeMap<GuessId, u64>,
    state: Mutex<State>,
    wake: Condvar,
}

impl Refining<'_> {
    /// One worker: takes the least open bound and refines it with `solver`, until
    /// the frontier is settled, the run is stopped or a worker failed.
    fn work(&self, solver: Solver) {
        while let Some((lb, g, kth)) = self.take() {
            let cutoff = self.cutoff(g, lb, kth);
            let result = refine(self.game, self.settings, &solver, g, cutoff, self.stop);
            let written = result.and_then(|r| self.dir.write(g, &r).map(|()| r));
            self.settle(g, lb, written);
        }
    }

    /// Takes the least open bound (its opener, and T as it stands), unless it is
    /// above T: then `None` once no refinement is in progress (one may put an
    /// opener back below T, so until then the worker waits). `None` too once the run
    /// is stopped or has failed.
    fn take(&self) -> Option<(u64, GuessId, Option<u64>)> {
        let mut st = self.state.lock().unwrap();
        let (lb, g, kth) = loop {
            if self.stop.load(Ordering::Relaxed) || st.failure.is_some() {
                return None;
            }
            let kth = st.kth(self.k);
            match st.heap.peek() {
                Some(&Reverse((lb, _, g))) if kth.is_none_or(|t| lb <= t) => {
                    st.heap.pop();
                    break (lb, g, kth);
                }
                _ if st.in_progress == 0 => {
                    self.wake.notify_all();
                    return None;
                }
                // Another refinement may reopen the frontier below T.
                _ => {
                    st = self
                        .wake
                        .wait_timeout(st, Duration::from_millis(100))
                        .unwrap()
                        .0;
                }
            }
        };
        st.in_progress += 1;
        st.refined[g.index()] = true;
        Some((lb, g, kth))
    }

    /// The cutoff of refining `g` from its bound `lb` (module doc): a step above
    /// the bound, at least `step` and at least the bound's gap over the estimate, at
    /// most `T + 1`, always above the bound.
    fn cutoff(&self, g: GuessId, lb: u64, kth: Option<u64>) -> u64 {
        let est = self.estimates[&g];
        let mut cutoff = lb + self.step.max(lb.saturating_sub(est));
        if let Some(t) = kth {
            cutoff = cutoff.min(t + 1);
        }
        cutoff.max(lb + 1)
    }

    /// Takes a refinement of `g` (from the bound `lb`) into the shared state: an
    /// exact total counts towards T, a bound goes back on the frontier, a failure
    /// stops the other workers (an interruption is not one); the waiting workers are
    /// woken.
    fn settle(&self, g: GuessId, lb: u64, written: Result<Record, OpenersError>) {
        let mut st = self.state.lock().unwrap();
        st.in_progress -= 1;
        match written {
            Ok(r) => {
                match r.outcome {
                    Outcome::Exact(v) => {
                        st.add_exact(v);
                        st.frontier.exact += 1;
                    }
                    Outcome::AtLeast(x) => {
                        let word = self.game.guesses[g.index()];
                        st.heap.push(Reverse((x.max(lb), word, g)));
                    }
                    Outcome::CannotFinish => {}
                }
                st.computed.push(r);
                st.frontier.refinements += 1;
                let f = st.frontier(self.k);
                (self.progress)(&f);
            }
            Err(OpenersError::Solve(SolveError::Interrupted)) => {}
            Err(e) => {
                st.failure.get_or_insert(e);
            }
        }
        self.wake.notify_all();
    }
}

/// Writes `at-least E` (cutoff `E`, no states) for the openers of a finished run
/// that the estimate alone decided (never refined, no record), so a merge sees every
/// opener of the shard; returns how many.
fn write_unrefined(
    game: &Game,
    settings: &Settings,
    dir: &OpenersDir,
    st: &State,
    records: &BTreeMap<GuessId, Record>,
) -> Result<usize, OpenersError> {
    let mut unrefined = 0;
    for &Reverse((lb, word, g)) in st.heap.iter() {
        if st.refined[g.index()] || records.contains_key(&g) {
            continue;
        }
        let r = Record {
            opener: word,
            list: game.list_tag(),
            checksum: game.checksum,
            hard: settings.hard,
            max_guesses: settings.max_guesses,
            outcome: Outcome::AtLeast(lb),
            cutoff: Some(lb),
            seconds: 0.0,
            cpu_seconds: 0.0,
            states: 0,
            max_depth: None,
        };
        dir.write(g, &r)?;
        unrefined += 1;
    }
    Ok(unrefined)
}

/// One refinement: `opener`'s total under `cutoff`, as a record; an exact total gets
/// its optimal tree's max depth (the replayed total must equal the one proved).
fn refine(
    game: &Game,
    settings: &Settings,
    solver: &Solver,
    opener: GuessId,
    cutoff: u64,
    stop: &AtomicBool,
) -> Result<Record, OpenersError> {
    let (clock, states0) = (Stopwatch::start(), solver.counters().states);
    let word = game.guesses[opener.index()];
    let outcome = match solver.opener_cost(opener, Some(cutoff)) {
        Ok(c) => Outcome::from_cost(c),
        Err(SolveError::Infeasible(_)) => Outcome::CannotFinish,
        Err(e) => return Err(e.into()),
    };
    let max_depth = match outcome {
        Outcome::Exact(v) => {
            let replayed = optimal_tree_depth(solver, opener);
            if stop.load(Ordering::Relaxed) {
                return Err(SolveError::Interrupted.into());
            }
            match replayed {
                Ok((t, d)) if t == v => Some(d),
                Ok((t, _)) => {
                    return Err(OpenersError::Internal(format!(
                        "opener {word}: the optimal tree replays to {t} guesses, not the {v} proved"
                    )))
                }
                Err(why) => {
                    return Err(OpenersError::Internal(format!(
                        "opener {word}: the optimal tree does not replay: {why}"
                    )))
                }
            }
        }
        _ => None,
    };
    if let Outcome::AtLeast(x) = outcome {
        if x < cutoff {
            return Err(OpenersError::Internal(format!(
                "opener {word}: bound {x} below its cutoff {cutoff}"
            )));
        }
    }
    Ok(Record {
        opener: word,
        list: game.list_tag(),
        checksum: game.checksum,
        hard: settings.hard,
        max_guesses: settings.max_guesses,
        outcome,
        cutoff: Some(cutoff),
        seconds: clock.seconds(),
        cpu_seconds: clock.cpu_seconds(),
        states: solver.counters().states - states0,
        max_depth,
    })
}
