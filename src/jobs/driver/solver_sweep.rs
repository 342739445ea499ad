//! The shape shared by the per-opener cutoff sweeps that run one [`Solver`] per worker
//! and keep their records in a [`SweepDir`]: the min-over sweep
//! ([`crate::jobs::min_over`]) and the best-pair sweep ([`crate::jobs::pairs`]).
//!
//! Owns [`SolverJob`] (the [`OpenerJob`] of such a sweep: a worker is one solver with
//! the sweep's configuration and stop flag, the workers' solvers share one
//! transposition table, a record's outcome is its own, a record is written through
//! the directory) and [`sweep`] (scan the directory, derive the
//! first cutoff from the seed and the stored exact results, size the pool, run the
//! queue through [`OpenerSweep`]). A sweep supplies only its [`Step`]: how one opener
//! is solved into a record.
//!
//! Invariants: the first cutoff is [`least_plus_one`] of the seed and the
//! stored outcomes, computed before the step is built (a step may keep it, as the
//! best-pair sweep's live cutoff does); the pool has at least one worker and no more
//! than the queue's units, and the memory limit is theirs together: the configuration
//! is asked for with the worker count (each worker's share) and the one table holds
//! the shares of all (as in `openers`, whose workers share theirs the same way:
//! the facts one proves are the others' too). `openers` keeps its own job: it
//! runs two solvers per worker in exact mode, groups units by letters and writes its
//! own file kind with a full header.
//!
//! Trade-off: one generic job instead of one per sweep; a step that needs another
//! worker (two solvers, none) is not a [`Step`] and implements [`OpenerJob`] itself.

use super::opener_sweep::{
    OpenerJob, OpenerSweep, Place, Summary, SweepDir, SweepError, SweepRecord, Task,
};
use super::outcome::{least_plus_one, Outcome};
use super::pool::Queue;
use crate::game::table::FeedbackTable;
use crate::game::{Game, GuessId};
use crate::search::tt::TranspositionTable;
use crate::search::{Config, Solver};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// What one sweep adds to [`SolverJob`]: its record and how one opener is solved.
pub trait Step<'a>: Sync {
    type Record: SweepRecord + Clone + Send + Sync;
    /// What a record proves.
    fn outcome(r: &Self::Record) -> Outcome;
    /// Searches `task.opener` under `task.cutoff` with the worker's `solver`.
    fn solve(&self, solver: &mut Solver<'a>, task: &Task) -> Result<Self::Record, SweepError>;
}

/// A [`Step`] as an [`OpenerJob`]: one solver per worker, records written to `dir`.
pub struct SolverJob<'a, S: Step<'a>> {
    game: &'a Game,
    table: &'a FeedbackTable,
    dir: &'a SweepDir<'a, S::Record>,
    stop: &'a AtomicBool,
    config: Config,
    /// The transposition table every worker's solver shares.
    tt: Arc<TranspositionTable>,
    step: S,
}

impl<'a, S: Step<'a>> OpenerJob for SolverJob<'a, S> {
    type Worker = Solver<'a>;
    type Record = S::Record;
    type Error = SweepError;

    fn reread(&self, opener: GuessId) -> Option<S::Record> {
        self.dir.read_one(opener)
    }

    fn worker(&self) -> Solver<'a> {
        Solver::sharing(self.game, self.table, self.config.clone(), self.tt.clone())
            .with_stop(self.stop)
    }

    fn outcome(r: &S::Record) -> Outcome {
        S::outcome(r)
    }

    fn solve(&self, solver: &mut Solver<'a>, task: &Task) -> Result<S::Record, SweepError> {
        self.step.solve(solver, task)
    }

    fn write(&self, _: GuessId, r: &S::Record) -> Result<(), SweepError> {
        Ok(self.dir.write(r)?)
    }
}

/// Settles the openers of `plan` in order on at most `threads` workers, reusing and
/// writing the records of `place.dir`. `seed`: a cutoff to start from (the least
/// stored exact result + 1 replaces it when lower); `config(workers)`: each worker's
/// solver configuration; `step(first)`: the step, given the first cutoff.
pub fn sweep<'a, S: Step<'a>>(
    place: Place<'a, SweepDir<'a, S::Record>>,
    plan: Vec<GuessId>,
    seed: Option<u64>,
    threads: usize,
    config: impl FnOnce(usize) -> Config,
    step: impl FnOnce(Option<u64>) -> S,
) -> Result<Summary<S::Record>, SweepError> {
    let (records, warnings) = place.dir.scan()?;
    let queue = Queue::singles(plan);
    let first = least_plus_one(seed, records.values().map(S::outcome));
    let threads = threads.max(1).min(queue.units.len().max(1));
    let config = config(threads);
    let tt = TranspositionTable::shared(config.memory_limit, threads, config.use_transpositions);
    let job = SolverJob {
        game: place.game,
        table: place.table,
        dir: place.dir,
        stop: place.stop,
        config,
        tt,
        step: step(first),
    };
    let total = queue.units.len();
    OpenerSweep::new(job, &place.dir.dir, records, first, total, place.progress)
        .taking_over(place.game, place.others())
        .run(&queue, threads, place.stop, warnings)
}
