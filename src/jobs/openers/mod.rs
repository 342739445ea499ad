//! Ranking openers exactly: which first guess has the least total cost, proved.
//!
//! Owns the opener list (every allowed guess, or a file), the openers' view of a
//! results directory (one small text file per opener, kind `openers` of
//! [`crate::store::results`], which owns the format, atomic writes and sharding, so a run is
//! resumable and shards on many machines merge by sharing or copying the directory),
//! the cutoff and the ranking table.
//!
//! An opener from which no tree finds every answer within the maximum guesses is
//! [`Outcome::CannotFinish`] (stored `result=cannot-finish`): never a total, whatever
//! penalty the solver summed for it.
//!
//! Each opener gets [`Solver::opener_cost`] under a cutoff: its exact total when that
//! is below the cutoff, else a proved lower bound at least the cutoff ("dismissed").
//! The cutoff is `--cutoff N`, or by default the K-th best exact total known so far
//! plus one (so every opener tied with the K-th best is also solved exactly, and the
//! top K are proved): openers are taken in order of a cheap estimate (the one-level
//! bound `n + sum over non-green buckets of (2|b| - 1)`, ties by the sum of squared
//! bucket sizes), the few most promising of the whole list first (every shard runs
//! the same ones, so every shard gets a good cutoff; with a shared directory it reuses
//! them), and the cutoff drops as exact totals come in.
//!
//! `--exact` ([`Settings::exact`]): no cutoff and no prepass; each opener is first
//! asked whether it can finish at all (the feasibility objective of `check`, smallest
//! bucket first, on a second solver per worker: refuting an opener this way is far
//! cheaper than the total's search; each bucket gets at most
//! [`Settings::feasibility_scans`] state scans, since a feasible opener's witness can
//! cost several times its exact total in hard mode, and past them the total's search
//! settles feasibility too), then solved exactly, then its optimal tree is
//! read back from the transposition table and replayed for its max depth
//! ([`Record::max_depth`]); the replayed total must equal the one proved. Openers
//! with the same set of letters (`scull`, `sculs`, `culls`) share their all-gray
//! bucket, usually a poor opener's dearest, so in exact mode one worker takes such a
//! group whole and its transposition table answers that bucket after the first
//! (NYT lists, one thread: `scull` 21.3 s, then `sculs` 1.0 s and `culls` 0.2 s; the
//! 14855 NYT words have 8401 letter sets). With one worker the table is shared by
//! every opener anyway (27 openers of 6 letter sets, one thread: 121 CPU-s in
//! estimate order, 116 grouped); with several, grouping keeps a group's bucket from
//! being solved once per worker. Only records
//! with that depth (or `cannot-finish`) are reused by `--exact`; the opener table
//! ([`crate::store::opener_table`]) is built from them.
//!
//! Invariants: a result file is only written for a finished `opener_cost` (an
//! interrupted search writes nothing); a stored result is reused when it still
//! decides the opener under the current cutoff: an exact total always does, a lower
//! bound `lb` does when `lb >= cutoff` (a bound proved under a larger cutoff still
//! dismisses the opener under a smaller one); otherwise the opener is searched again
//! and its file replaced. The cutoff never increases during a run.
//!
//! The result files and their format are `openers/record.rs`'s; this file keeps the opener
//! list, the job and the ranking.
//!
//! Workers: one thread per core, each with its own [`Solver`]s (the per-opener
//! counters stay exact), pulling openers from a shared counter. The workers' total
//! solvers share one transposition table, and their feasibility solvers another
//! (each sized by the workers' shares of the memory limit together, `memory_shares`):
//! a state one worker proved serves the other's openers. Measured (session 55, AMD
//! EPYC Zen 4, forced avx2, `--list nyt2023 [--hard] --threads 2 openers --exact
//! --random 100 --seed 1`, run one after the other): hard 7.75M -> 7.25M states,
//! 3.722 -> 3.657 CPU-s per opener, peak 1224 -> 1178 MiB; normal 2.68M -> 2.62M
//! states, 3.603 -> 3.521 CPU-s. Until then each worker kept its own tables, and two
//! workers searched 9% more states than one thread did on the hard sample.

use crate::game::echo::{agree, all_of, count};
use crate::game::feedback::Feedback;
use crate::game::table::FeedbackTable;
use crate::game::word::{ListError, Word, WordList};
use crate::game::{Game, GuessId};
pub use crate::jobs::driver::Tally;
use crate::jobs::driver::{
    self, prepass_plan, OpenerJob, OpenerSweep, Place, Queue, Standing, Task,
};
use crate::search::bound::{Objective, INFEASIBLE};
use crate::search::tt::TranspositionTable;
use crate::search::{Config, SolveError, Solver};
use crate::store::entry::FileIo;
use crate::store::results::ResultsError;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

pub use crate::jobs::driver::{estimate, order_by_estimate, Outcome};

/// What can go wrong with openers input or the results directory.
#[derive(Debug, thiserror::Error)]
pub enum OpenersError {
    #[error(transparent)]
    List(#[from] ListError),
    #[error("{file}:{line}: opener '{word}' is not in the allowed guesses of the {list} lists")]
    NotAllowed {
        file: PathBuf,
        line: usize,
        word: Word,
        list: String,
    },
    #[error(transparent)]
    Results(#[from] ResultsError),
    /// The search's error: an interruption (its own source, so the CLI finds it in
    /// the chain).
    #[error("{0}")]
    Solve(#[from] SolveError),
    /// A solver result that does not check out (a bug, never bad input).
    #[error("internal error: {0}")]
    Internal(String),
}

pub use crate::store::results::Shard;

mod record;
pub use record::{OpenersDir, Record, Scan, KIND};

/// Every allowed guess, in id order.
pub fn all_openers(game: &Game) -> Vec<GuessId> {
    (0..game.n_guesses()).map(GuessId::new).collect()
}

/// Reads an opener file: a word list (one per line, validated like any list) whose
/// words must all be allowed guesses.
pub fn load_openers(game: &Game, path: &Path) -> Result<Vec<GuessId>, OpenersError> {
    let list = WordList::load(path)?;
    let text = std::fs::read_to_string(path)
        .map_err(|e| OpenersError::from(ResultsError::Io(FileIo(path.into(), e))))?;
    let lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, _)| i + 1);
    list.words
        .iter()
        .zip(lines)
        .map(|(&w, line)| {
            game.guess_id(w).ok_or_else(|| OpenersError::NotAllowed {
                file: path.into(),
                line,
                word: w,
                list: game.name.clone(),
            })
        })
        .collect()
}

/// Reorders `plan` so that openers with the same set of letters are adjacent (each
/// group where its first member was, members in their order) and returns the groups'
/// ranges.
fn group_by_letters(game: &Game, plan: &mut Vec<GuessId>) -> Vec<std::ops::Range<usize>> {
    let letters = |g: GuessId| -> u32 {
        game.guesses[g.index()]
            .0
            .iter()
            .fold(0, |m, &b| m | 1 << (b - b'a'))
    };
    let mut first: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
    let mut members: Vec<Vec<GuessId>> = Vec::new();
    for &g in plan.iter() {
        let k = *first.entry(letters(g)).or_insert_with(|| {
            members.push(Vec::new());
            members.len() - 1
        });
        members[k].push(g);
    }
    plan.clear();
    let mut ranges = Vec::with_capacity(members.len());
    for m in members {
        let start = plan.len();
        plan.extend(m);
        ranges.push(start..plan.len());
    }
    ranges
}

/// Settings of one `openers` run.
#[derive(Clone, Debug)]
pub struct Settings {
    pub hard: bool,
    pub max_guesses: u8,
    /// A fixed cutoff; `None`: the K-th best exact total so far plus one.
    pub cutoff: Option<u64>,
    /// K: how many of the best openers the default cutoff proves exactly.
    pub top: usize,
    /// How many of the most promising openers of the whole list run first.
    pub prepass: usize,
    pub threads: usize,
    /// Memory limit in bytes (transposition tables and scratch), shared equally by the workers.
    pub memory_limit: usize,
    /// `--exact`: every opener's exact total (no cutoff, no prepass; `cutoff` is
    /// ignored), feasibility settled first, and the max depth of its optimal tree.
    pub exact: bool,
    /// With `exact`: the state scans each bucket's feasibility may take before the
    /// pre-pass gives up and leaves the opener to the total's search
    /// ([`FEASIBILITY_SCANS`] by default; `u64::MAX`: no limit; 0: it settles only
    /// what needs no scan, one or two candidates).
    pub feasibility_scans: u64,
}

/// What a run did.
pub type Summary = driver::Summary<Record>;

/// Exact totals seen so far; yields the default cutoff.
struct Exacts {
    totals: Vec<u64>,
}

impl Exacts {
    fn cutoff(&self, settings: &Settings) -> Option<u64> {
        if settings.cutoff.is_some() {
            return settings.cutoff;
        }
        let k = settings.top.max(1);
        if self.totals.len() < k {
            return None;
        }
        let mut t = self.totals.clone();
        t.sort_unstable();
        Some(t[k - 1] + 1)
    }
}

/// Settles every opener of `place.mine` (first the `settings.prepass` most promising
/// of `place.all`), reusing and writing result files in `place.dir`. `progress` is
/// called after each opener. Once `stop` is set, returns `SolveError::Interrupted` (as
/// [`OpenersError::Solve`]) with nothing partial written, if openers were left.
pub fn run(place: Place<'_, OpenersDir<'_>>, settings: &Settings) -> Result<Summary, OpenersError> {
    let Place {
        game,
        table,
        all: all_openers,
        mine: shard_openers,
        dir,
        stop,
        progress,
    } = place;
    let scan = dir.scan()?;
    let prepass = if settings.cutoff.is_none() && !settings.exact {
        settings.prepass.max(settings.top)
    } else {
        0
    };
    let mut plan = prepass_plan(
        game,
        table,
        all_openers,
        shard_openers,
        prepass,
        settings.max_guesses,
    );
    // Exact mode: openers with the same letters share their all-gray bucket (the
    // answers with none of those letters), usually the dearest of a poor opener. One
    // worker takes such a group whole, one opener after another, so its solver's
    // transposition table answers that bucket for all but the first.
    let queue = if settings.exact {
        let groups = group_by_letters(game, &mut plan);
        Queue {
            units: plan,
            groups,
        }
    } else {
        Queue::singles(plan)
    };
    let exacts = Exacts {
        totals: scan
            .records
            .values()
            .filter_map(|r| match r.outcome {
                Outcome::Exact(v) => Some(v),
                _ => None,
            })
            .collect(),
    };
    let first_cutoff = if settings.exact {
        None
    } else {
        exacts.cutoff(settings)
    };
    let job = OpenersJob {
        game,
        table,
        dir,
        settings,
        stop,
        exacts: Mutex::new(exacts),
        tables: shared_tables(settings),
    };
    let total = queue.units.len();
    OpenerSweep::new(job, &dir.dir, scan.records, first_cutoff, total, progress)
        .taking_over(game, place.others())
        .run(&queue, settings.threads, stop, scan.warnings)
}

/// `openers` as an [`OpenerJob`].
struct OpenersJob<'a> {
    game: &'a Game,
    table: &'a FeedbackTable,
    dir: &'a OpenersDir<'a>,
    settings: &'a Settings,
    stop: &'a AtomicBool,
    exacts: Mutex<Exacts>,
    /// The transposition tables the workers share: the total solvers' and the
    /// feasibility solvers' ([`shared_tables`]).
    tables: (Arc<TranspositionTable>, Arc<TranspositionTable>),
}

/// A worker's solvers: the total's, and in exact mode the feasibility one (the two
/// share the worker's memory, [`FEASIBILITY_MEMORY_EIGHTHS`]; each kind's table is
/// shared by every worker).
struct Solvers<'a> {
    total: Solver<'a>,
    feasibility: Option<Solver<'a>>,
}

impl<'a> OpenerJob for OpenersJob<'a> {
    type Worker = Solvers<'a>;
    type Record = Record;
    type Error = OpenersError;

    fn reread(&self, opener: GuessId) -> Option<Self::Record> {
        self.dir.read_one(opener)
    }

    fn worker(&self) -> Solvers<'a> {
        let s = self.settings;
        let (total_share, feasibility_share) = memory_shares(s.memory_limit, s.threads, s.exact);
        let config = Config {
            max_guesses: s.max_guesses,
            hard: s.hard,
            memory_limit: total_share,
            ..Config::default()
        };
        let (total_tt, feasibility_tt) = &self.tables;
        let feasibility = s.exact.then(|| {
            let config = Config {
                objective: Objective::feasibility(),
                memory_limit: feasibility_share,
                ..config.clone()
            };
            Solver::sharing(self.game, self.table, config, feasibility_tt.clone())
                .with_stop(self.stop)
        });
        Solvers {
            total: Solver::sharing(self.game, self.table, config, total_tt.clone())
                .with_stop(self.stop),
            feasibility,
        }
    }

    fn outcome(r: &Record) -> Outcome {
        r.outcome
    }

    fn reusable(&self, r: &Record, cutoff: Option<u64>) -> bool {
        if self.settings.exact {
            r.settles_exactly()
        } else {
            r.decides(cutoff)
        }
    }

    fn solve(&self, w: &mut Solvers<'a>, t: &Task) -> Result<Record, OpenersError> {
        let (g, c, clock) = (t.opener, t.cutoff, &t.clock);
        let states = || {
            w.total.counters().states + w.feasibility.as_ref().map_or(0, |f| f.counters().states)
        };
        let states0 = states();
        let solved = match &w.feasibility {
            Some(f) => solve_exactly(&w.total, f, g, self.settings.feasibility_scans, self.stop),
            None => w
                .total
                .opener_cost(g, c)
                .map(|cost| Ok((Outcome::from_cost(cost), None))),
        };
        let (outcome, max_depth) = match solved {
            Ok(Ok(r)) => r,
            Ok(Err(why)) => return Err(OpenersError::Internal(why)),
            Err(SolveError::Infeasible(_)) => (Outcome::CannotFinish, None),
            Err(e) => return Err(e.into()),
        };
        Ok(Record {
            opener: self.game.guesses[g.index()],
            list: self.game.list_tag(),
            checksum: self.game.checksum,
            hard: self.settings.hard,
            max_guesses: self.settings.max_guesses,
            outcome,
            cutoff: c,
            seconds: clock.seconds(),
            cpu_seconds: clock.cpu_seconds(),
            states: states() - states0,
            max_depth,
        })
    }

    fn write(&self, g: GuessId, r: &Record) -> Result<(), OpenersError> {
        self.dir.write(g, r)
    }

    fn cutoff_after(&self, v: u64) -> Option<u64> {
        let mut ex = self.exacts.lock().unwrap();
        ex.totals.push(v);
        // `--exact` searches with no cutoff.
        (!self.settings.exact)
            .then(|| ex.cutoff(self.settings))
            .flatten()
    }
}

/// `openers --exact` for one opener: feasibility first (the search of `check
/// --max-guesses`, which refutes an opener that cannot finish far sooner than the
/// total's search: smallest bucket first, a witness instead of the best tree), then
/// the exact total with no cutoff, then the optimal tree read back from the
/// transposition table and replayed for its max depth. `Ok(Err(why))`: the replayed
/// tree's total is not the total proved, a solver bug (reported, never written).
fn solve_exactly(
    solver: &Solver,
    feasibility: &Solver,
    opener: GuessId,
    scans: u64,
    stop: &AtomicBool,
) -> Result<Result<(Outcome, Option<u8>), String>, SolveError> {
    let feasible = match can_finish(feasibility, opener, scans)? {
        Some(false) => return Ok(Ok((Outcome::CannotFinish, None))),
        Some(true) => true,
        None => false,
    };
    let outcome = Outcome::from_cost(solver.opener_cost(opener, None)?);
    if outcome == Outcome::CannotFinish && !feasible {
        // The pre-pass gave up; the total's search refuted the opener.
        return Ok(Ok((Outcome::CannotFinish, None)));
    }
    let Outcome::Exact(total) = outcome else {
        return Ok(Err(format!(
            "opener {}: feasible within {} guesses, but the exact search says {outcome:?}",
            solver.game().guesses[opener.index()],
            solver.config().max_guesses
        )));
    };
    let replayed = optimal_tree_depth(solver, opener);
    // An interrupted build leaves an empty tree: the interruption, not a verdict.
    if stop.load(Ordering::Relaxed) {
        return Err(SolveError::Interrupted);
    }
    Ok(match replayed {
        Ok((t, depth)) if t == total => Ok((outcome, Some(depth))),
        Ok((t, _)) => Err(format!(
            "opener {}: the optimal tree replays to {t} guesses, not the {total} proved",
            solver.game().guesses[opener.index()]
        )),
        Err(why) => Err(format!(
            "opener {}: the optimal tree does not replay: {why}",
            solver.game().guesses[opener.index()]
        )),
    })
}

/// The non-green buckets of `opener` over all answers, each with what a hard-mode
/// history reveals after it, smallest first.
fn opener_buckets(
    solver: &Solver,
    opener: GuessId,
) -> Vec<(
    Feedback,
    Vec<crate::game::AnswerId>,
    crate::game::hard::Revealed,
)> {
    let game = solver.game();
    let word = game.guesses[opener.index()];
    let mut by: BTreeMap<u8, Vec<crate::game::AnswerId>> = BTreeMap::new();
    for a in game.answer_ids() {
        by.entry(Feedback::compute(word, game.answers[a.index()]).0)
            .or_default()
            .push(a);
    }
    let mut buckets: Vec<_> = by
        .into_iter()
        .filter(|&(f, _)| f != Feedback::ALL_GREEN.0)
        .map(|(f, b)| {
            let revealed = if solver.config().hard {
                crate::game::hard::Revealed::default().after(word, Feedback(f))
            } else {
                crate::game::hard::Revealed::default()
            };
            (Feedback(f), b, revealed)
        })
        .collect();
    buckets.sort_by_key(|(_, b, _)| b.len());
    buckets
}

/// Scans ([`Solver::cost_below_within`]) each bucket may take in the feasibility
/// pre-pass (`can_finish`) before it gives up and leaves the opener to the total's
/// search. The
/// openers it refutes take a few hundred scans in all (NYT 2023 hard: `danio` 96,
/// `weigh` 198, `dishy` 472); a feasible opener's witness is what costs: NYT 2023
/// hard, one thread (session 25), `pelts` 11.3 CPU-s of feasibility against 2.0 of
/// total, `teels` 10.4 against 3.3, `sigri` 19.6 against 10.8. Since feasibility
/// searches a guess's buckets smallest first (session 56, `Solver::search_buckets`'s
/// doc), `check --max-guesses 6` takes 0.26 CPU-s from `pelts` and 1.06 from
/// `sigri` (AVX2 path): the budget was not measured again.
pub const FEASIBILITY_SCANS: u64 = 4096;

/// Eighths of a worker's memory share that `--exact` gives its feasibility solver;
/// the total's solver gets the rest. The pre-pass is bounded by
/// [`FEASIBILITY_SCANS`] per bucket and keeps a small table, while the total's table
/// fills whatever it is given and is shared by every opener the worker takes. NYT
/// 2023 hard, `openers --exact --random 100 --seed 1 --threads 1` (forced avx2, the
/// default `--memory 2048`): with half each, the feasibility table never passed 80
/// MiB while the total's reached its 1024 MiB and was evicted (down to 301 MiB
/// before `frizz`), and `--memory 4096` made the sample 4.070 -> 4.006 CPU-s per
/// opener, states 7.62M -> 7.13M (run side by side). With one eighth the total's
/// table gets 1792 MiB of the same 2048.
pub const FEASIBILITY_MEMORY_EIGHTHS: usize = 1;

/// A worker's bytes of `limit` (the whole `--memory`, shared by `threads` workers):
/// its total's solver's and its feasibility solver's (none outside `--exact`).
fn memory_shares(limit: usize, threads: usize, exact: bool) -> (usize, usize) {
    let share = limit / threads.max(1);
    let feasibility = match exact {
        true => share / 8 * FEASIBILITY_MEMORY_EIGHTHS,
        false => 0,
    };
    (share - feasibility, feasibility)
}

/// The transposition tables every worker's total and feasibility solvers share
/// (module doc): each holds the workers' [`memory_shares`] of its kind together.
fn shared_tables(s: &Settings) -> (Arc<TranspositionTable>, Arc<TranspositionTable>) {
    let (total, feasibility) = memory_shares(s.memory_limit, s.threads, s.exact);
    let on = Config::default().use_transpositions;
    let table = |share: usize| TranspositionTable::shared(share, s.threads, on);
    (table(total), table(feasibility))
}

/// Whether some tree from `opener` finds every answer within the maximum guesses,
/// by `feasibility` (a solver with [`Objective::feasibility`]): the question of
/// [`crate::jobs::check::opener_within`], asked serially on this thread (so the worker's
/// CPU time counts it), smallest bucket first, stopping at the first that fails.
/// `None`: a bucket ran past `scans` state scans first, the question is left to the
/// total's search (whose cost says `cannot-finish` just as well).
fn can_finish(
    feasibility: &Solver,
    opener: GuessId,
    scans: u64,
) -> Result<Option<bool>, SolveError> {
    let left = feasibility.config().max_guesses;
    for (_, b, revealed) in opener_buckets(feasibility, opener) {
        if left <= 1 {
            return Ok(Some(false));
        }
        match feasibility.cost_below_within(&b, left - 1, &revealed, INFEASIBLE, scans)? {
            Some(v) if v >= INFEASIBLE => return Ok(Some(false)),
            Some(_) => {}
            None => return Ok(None),
        }
    }
    Ok(Some(true))
}

/// The total and max depth of the optimal tree from `opener`, built from the
/// solver's transposition table (re-searching what was evicted) and replayed.
pub(crate) fn optimal_tree_depth(solver: &Solver, opener: GuessId) -> Result<(u64, u8), String> {
    let game = solver.game();
    let config = solver.config();
    let left = config.max_guesses.saturating_sub(1);
    let mut branches: Vec<(Feedback, crate::tree::Node)> = opener_buckets(solver, opener)
        .into_iter()
        .map(|(f, b, revealed)| (f, solver.build(&b, left, &revealed)))
        .collect();
    branches.sort_by_key(|(f, _)| *f);
    let root = crate::tree::Node {
        guess: opener,
        branches,
    };
    let tree = crate::tree::Tree::new(game, config.hard, config.max_guesses, root)
        .map_err(|e| format!("{:?}", e.problems.first()))?;
    let replay = tree.verify(game);
    if !replay.is_valid() {
        return Err(format!("{:?}", replay.problems.first()));
    }
    Ok((replay.total(), replay.max_depth() as u8))
}

/// The ranking of an opener set from the records found for it: the
/// [`Standing`] of its openers (read through it: `ranking.exact`, ...) and the
/// maximum guesses of the records (for the table's words).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ranking {
    standing: Standing,
    pub max_guesses: Option<u8>,
}

impl std::ops::Deref for Ranking {
    type Target = Standing;
    fn deref(&self) -> &Standing {
        &self.standing
    }
}

impl Ranking {
    pub fn new(game: &Game, openers: &[GuessId], records: &BTreeMap<GuessId, Record>) -> Ranking {
        Ranking {
            standing: Standing::new(game, openers, |g| records.get(&g).map(|r| r.outcome)),
            max_guesses: openers
                .iter()
                .rev()
                .find_map(|g| records.get(g).map(|r| r.max_guesses)),
        }
    }

    /// True when the first `k` rows are proved to be the `k` best openers of the set:
    /// nothing is missing and every dismissed opener costs more than row `k`.
    pub fn proves_top(&self, k: usize) -> bool {
        self.missing.is_empty()
            && k <= self.exact.len()
            && (k == 0 || self.least_bound.is_none_or(|lb| self.exact[k - 1].0 < lb))
    }

    /// The table text: the top `k` exact rows (extended to ties), then what the rest
    /// is known to cost.
    pub fn table(&self, n_answers: usize, k: usize) -> String {
        let mut out = String::new();
        let shown = self.shown(k);
        if shown > 0 {
            out += &format!(
                "{:>5}  {:<6}  {:>6}  {:>7}\n",
                "rank", "opener", "total", "average"
            );
        }
        for (rank, v, w) in self.ranked(shown) {
            out += &format!(
                "{rank:>5}  {:<6}  {v:>6}  {:>7.4}\n",
                w.to_string(),
                v as f64 / n_answers.max(1) as f64
            );
        }
        if let Some((more, low, high)) = self.beyond(shown) {
            out += &format!(
                "{more} more {} {} ({low} to {high}; show them with --top)\n",
                agree(more, "opener", "openers"),
                agree(more, "has an exact total", "have exact totals")
            );
        }
        if let Some(lb) = self.least_bound {
            out += &format!(
                "{} proved worse: cost at least {lb}\n",
                count(self.dismissed, "opener")
            );
        }
        let within = self
            .max_guesses
            .map_or("the maximum guesses".to_string(), |d| {
                count(usize::from(d), "guess")
            });
        if self.cannot_finish > 0 {
            out += &format!(
                "{} cannot find every answer within {within}\n",
                count(self.cannot_finish, "opener")
            );
        }
        if !self.missing.is_empty() {
            let few: Vec<String> = self.missing.iter().take(5).map(|w| w.to_string()).collect();
            out += &format!(
                "{} {} no result yet ({}{}): run the remaining shards or rerun\n",
                count(self.missing.len(), "opener"),
                agree(self.missing.len(), "has", "have"),
                few.join(" "),
                if self.missing.len() > 5 { " ..." } else { "" }
            );
        }
        let all = self.exact.len() + self.dismissed + self.cannot_finish;
        out += &if self.proves_top(shown.max(1).min(self.exact.len())) && !self.exact.is_empty() {
            format!(
                "PROVED: the ranking above is exact over {}\n",
                all_of(all, "opener")
            )
        } else if self.missing.is_empty() && self.exact.is_empty() && self.dismissed == 0 && all > 0
        {
            if all == 1 {
                format!("PROVED: the 1 opener does not find every answer within {within}\n")
            } else {
                format!("PROVED: none of the {all} openers finds every answer within {within}\n")
            }
        } else {
            "not yet a proof: some openers are undecided or not separated from the rows shown\n"
                .to_string()
        };
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The workers' solvers never hold more than `--memory` between them, and the
    /// feasibility solver gets its eighth only in exact mode.
    #[test]
    fn memory_shares_keep_to_the_limit() {
        let mib = 1 << 20;
        assert_eq!(memory_shares(2048 * mib, 1, true), (1792 * mib, 256 * mib));
        assert_eq!(memory_shares(2048 * mib, 2, true), (896 * mib, 128 * mib));
        assert_eq!(memory_shares(2048 * mib, 1, false), (2048 * mib, 0));
        for limit in [0, 7, 1000, 4096 * mib + 13] {
            for threads in [1, 2, 3, 16] {
                for exact in [false, true] {
                    let (total, feasibility) = memory_shares(limit, threads, exact);
                    assert!(threads * (total + feasibility) <= limit);
                    assert!(feasibility <= total);
                }
            }
        }
    }
}
