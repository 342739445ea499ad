//! The one driver of every resumable sweep: independent **units** (openers, or the
//! buckets of one opener's proof) settled by a pool of workers, each result written
//! atomically to a results directory as soon as it is settled, so a run resumes from
//! what is there, shards (`--shard i/n`, [`Shard`]) share or copy the directory, and
//! a merge reads it back.
//!
//! A job ([`Job`]) supplies only its units, how one is solved and its record: what a
//! results directory already holds for a unit ([`Job::stored`]), the solve step
//! ([`Job::solve`]), the atomic write of its record ([`Job::write`], through
//! [`crate::store::results`]: `ResultsDir` for the per-opener kinds, `write_entry`
//! for proof units, both refusing to write through a symlink or a FIFO) and what a
//! settled unit changes (progress, a falling cutoff: [`Job::settled`]). The driver
//! ([`run`]) owns the rest: the worker pool, the queue, resume (a unit with a usable
//! stored record is settled from it, never searched), the refusal to compute into a
//! read-only pack, the first error, an early halt the job asks for, and interruption.
//!
//! **Workers.** `threads` loops on the rayon pool (`rayon::scope`), each with its own
//! [`Job::Worker`] (a solver and its transposition table, or nothing when the job
//! shares one), taking groups of units from a shared counter; a group (openers with
//! the same letters, in `openers --exact`) goes to one worker whole. On rayon workers,
//! a search that parallelises inside a unit (`Solver::cost_below` on a large state)
//! lets a worker left without units steal that unit's work, so the last large unit
//! does not leave cores idle; a serial search (`opener_cost`, feasibility) runs on its
//! worker alone, so [`Stopwatch`]'s thread CPU time is the unit's own.
//!
//! **Claims.** Before a unit is searched the job may claim it ([`Job::claim`]; the
//! proof units do, through [`crate::store::claim`]), so processes sharing a directory
//! (shards, and shards taking over other shards' units once their own are done) seldom
//! search the same unit: a unit another live process holds is skipped, and one whose
//! record appeared meanwhile is settled from it. The record is written before the
//! claim is released, and the directory is looked at again after the claim is taken,
//! so a unit finished by another process is not searched again. Claims never decide a
//! result: a unit is settled only by its record.
//!
//! **One interrupt convention.** Once `stop` is set no unit is taken; a unit in
//! progress is abandoned (its search returns `SolveError::Interrupted`, nothing is
//! written), and [`run`] returns that error when some unit is left unsettled: the
//! caller keeps what was written and the command exits 130. A write fault or a job
//! error stops every worker and is returned; no verdict is drawn from a partial run.
//!
//! Also here, because every per-opener sweep uses them: [`Outcome`] (what a cutoff
//! search proves about an opener), [`Cutoff`] (the falling cutoff the workers share),
//! [`prepass_plan`] (the order openers are taken in) and [`Stopwatch`]; the cutoff
//! sweeps' shared pieces: [`OpenerSweep`] (with [`OpenerSweep::run`] and its
//! [`Summary`]), [`SweepDir`] (the results directory of one kind of
//! [`SweepRecord`]: open, scan, atomic write), [`read_head`] (the key, result and
//! cutoff fields every per-opener file starts with, checked) and the first cutoff
//! ([`least_plus_one`]).

use crate::game::candidates::count_buckets;
use crate::game::feedback::{Feedback, FEEDBACKS};
use crate::game::table::FeedbackTable;
use crate::game::word::Word;
use crate::game::{Game, GuessId};
use crate::search::bound::{Objective, INFEASIBLE};
use crate::search::{OpenerCost, SolveError};
use crate::store::results::{Kind, ResultFile, ResultsDir, ResultsError};
use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

pub use crate::store::results::Shard;

/// One sweep: its units, how each is settled, and what is stored for it.
pub trait Job: Sync {
    /// A unit of work: an opener, or a unit's position in a proof's plan.
    type Unit: Copy + Send + Sync;
    /// What one worker owns for its whole life (its solvers), `()` when the job's
    /// solver is shared.
    type Worker;
    /// What a settled unit yields (stored or searched).
    type Record: Send;
    /// The job's error; an interruption is `From<SolveError::Interrupted>`.
    type Error: Send + From<SolveError>;

    /// A new worker's state (called once per worker, on its thread).
    fn worker(&self) -> Self::Worker;

    /// The stored record that settles `unit` now, if the results directory holds one
    /// (resume); the unit is then not searched.
    fn stored(&self, unit: Self::Unit) -> Option<Self::Record>;

    /// Whether the directory holds any record for `unit` (decides whether the run
    /// computes something, so a read-only pack is refused up front). By default: a
    /// record that settles it now.
    fn has_record(&self, unit: Self::Unit) -> bool {
        self.stored(unit).is_some()
    }

    /// Refuses a results directory that cannot take new records (a pack).
    fn writable(&self) -> Result<(), Self::Error> {
        Ok(())
    }

    /// Settles `unit` by search. `Ok(None)`: the job needs no more units (a claim
    /// already refuted, a cutoff reached): the driver halts every worker.
    fn solve(
        &self,
        worker: &mut Self::Worker,
        unit: Self::Unit,
    ) -> Result<Option<Self::Record>, Self::Error>;

    /// Writes a searched unit's record atomically (never called for a stored one).
    fn write(&self, unit: Self::Unit, record: &Self::Record) -> Result<(), Self::Error>;

    /// Takes a settled unit's record (`reused`: from the directory); `done` counts
    /// the units settled so far, this one included. Called under the driver's lock,
    /// so progress reports come in order.
    fn settled(&self, unit: Self::Unit, record: Self::Record, reused: bool, done: usize);

    /// True once the job needs no more units (e.g. a claim met when the sweep stops
    /// at the first success); checked before each unit.
    fn halted(&self) -> bool {
        false
    }

    /// Claims `unit` for this process before it is searched, where processes share
    /// the results directory ([`crate::store::claim`]): `Ok(false)` when another live
    /// process is on it, and the unit is then skipped (left to that process). By
    /// default every unit is this run's alone.
    fn claim(&self, _unit: Self::Unit) -> Result<bool, Self::Error> {
        Ok(true)
    }

    /// Releases a claim of `unit` (its record is written, or it was abandoned).
    fn release(&self, _unit: Self::Unit) {}
}

/// The units of a run in the order they are taken, and how they group: each group
/// goes to one worker whole, in order.
#[derive(Clone, Debug)]
pub struct Queue<U> {
    pub units: Vec<U>,
    pub groups: Vec<Range<usize>>,
}

impl<U> Queue<U> {
    /// Every unit its own group.
    pub fn singles(units: Vec<U>) -> Queue<U> {
        let groups = (0..units.len()).map(|i| i..i + 1).collect();
        Queue { units, groups }
    }
}

/// What a run settled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ran {
    /// Units settled, searched or stored.
    pub done: usize,
    /// Of those, settled from a stored record.
    pub reused: usize,
}

/// Settles the units of `queue` on `threads` workers (see the module doc). `Err`: a
/// job error, a write fault, or `SolveError::Interrupted` when `stop` left units
/// unsettled.
pub fn run<J: Job>(
    job: &J,
    queue: &Queue<J::Unit>,
    threads: usize,
    stop: &AtomicBool,
) -> Result<Ran, J::Error> {
    if queue.units.iter().any(|&u| !job.has_record(u)) {
        // Units left to compute: a pack cannot take their records.
        job.writable()?;
    }
    let next = AtomicUsize::new(0);
    let failure: Mutex<Option<J::Error>> = Mutex::new(None);
    let halted = AtomicBool::new(false);
    let ran = Mutex::new(Ran::default());
    let settle = |u: J::Unit, r: J::Record, reused: bool| {
        let mut ran = ran.lock().unwrap();
        ran.done += 1;
        ran.reused += reused as usize;
        job.settled(u, r, reused, ran.done);
    };
    let fail = |e: J::Error| {
        failure.lock().unwrap().get_or_insert(e);
    };
    let threads = threads.max(1).min(queue.groups.len().max(1));
    let work = || {
        let mut worker = job.worker();
        let mut mine = 0..0;
        loop {
            if stop.load(Ordering::Relaxed)
                || halted.load(Ordering::Relaxed)
                || job.halted()
                || failure.lock().unwrap().is_some()
            {
                return;
            }
            let Some(i) = mine.next() else {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(group) = queue.groups.get(k) else {
                    return;
                };
                mine = group.clone();
                continue;
            };
            let u = queue.units[i];
            if let Some(r) = job.stored(u) {
                settle(u, r, true);
                continue;
            }
            match job.claim(u) {
                Ok(true) => {}
                Ok(false) => continue, // another process is on it
                Err(e) => return fail(e),
            }
            // Another process may have written it between the look and the claim
            // (it writes the record before it releases the claim).
            if let Some(r) = job.stored(u) {
                job.release(u);
                settle(u, r, true);
                continue;
            }
            let r = match job.solve(&mut worker, u) {
                Ok(Some(r)) => r,
                Ok(None) => {
                    job.release(u);
                    halted.store(true, Ordering::Relaxed);
                    return;
                }
                Err(e) => {
                    job.release(u);
                    return fail(e);
                }
            };
            let written = job.write(u, &r);
            job.release(u);
            if let Err(e) = written {
                return fail(e);
            }
            settle(u, r, false);
        }
    };
    rayon::scope(|s| {
        for _ in 0..threads {
            s.spawn(|_| work());
        }
    });
    if let Some(e) = failure.into_inner().unwrap() {
        return Err(e);
    }
    let ran = ran.into_inner().unwrap();
    let halted = halted.into_inner() || job.halted();
    if stop.load(Ordering::Relaxed) && !halted && ran.done < queue.units.len() {
        return Err(SolveError::Interrupted.into());
    }
    Ok(ran)
}

/// A per-opener cutoff sweep (`openers`, the min-over sweep): what it supplies to
/// [`OpenerSweep`], which holds the rest (stored records, the falling cutoff, the
/// tally, the records computed) and is the [`Job`] the driver runs.
pub trait OpenerJob: Sync {
    type Worker;
    type Record: Clone + Send + Sync;
    type Error: Send + From<SolveError> + From<crate::store::results::ResultsError>;

    /// A worker's solvers.
    fn worker(&self) -> Self::Worker;
    /// What a record proves.
    fn outcome(r: &Self::Record) -> Outcome;
    /// Whether a stored record settles its opener under `cutoff` (by default when its
    /// outcome [`Outcome::decides`] it).
    fn reusable(&self, r: &Self::Record, cutoff: Option<u64>) -> bool {
        Self::outcome(r).decides(cutoff)
    }
    /// Searches `opener` under `cutoff`.
    fn solve(
        &self,
        worker: &mut Self::Worker,
        opener: GuessId,
        cutoff: Option<u64>,
    ) -> Result<Self::Record, Self::Error>;
    /// Writes a searched record atomically.
    fn write(&self, opener: GuessId, r: &Self::Record) -> Result<(), Self::Error>;
    /// The cutoff once a new exact cost `v` is known (it only falls: a higher one is
    /// ignored); `None`: no cutoff yet. By default `v + 1`: the least exact cost + 1.
    fn cutoff_after(&self, v: u64) -> Option<u64> {
        Some(v + 1)
    }
    /// The record of `opener` as the results directory holds it now (another shard
    /// may have written it since the scan), for taking over other shards' openers
    /// ([`OpenerSweep::taking_over`], [`crate::jobs::balance`]).
    fn reread(&self, opener: GuessId) -> Option<Self::Record>;
}

/// An [`OpenerJob`] with the state every cutoff sweep keeps; the [`Job`] of one
/// unit per opener.
pub struct OpenerSweep<'a, J: OpenerJob> {
    pub job: J,
    results: &'a crate::store::results::ResultsDir,
    records: std::collections::BTreeMap<GuessId, J::Record>,
    pub cutoff: Cutoff,
    tally: Mutex<Tally>,
    computed: Mutex<Vec<J::Record>>,
    progress: &'a (dyn Fn(&Tally) + Sync),
    /// Other shards' openers, taken over once this run's are done, and the game
    /// that names them.
    others: Vec<GuessId>,
    game: Option<&'a Game>,
}

impl<'a, J: OpenerJob> OpenerSweep<'a, J> {
    /// `records`: what `results` holds; `cutoff`: the first cutoff; `total`: the
    /// openers to settle.
    pub fn new(
        job: J,
        results: &'a crate::store::results::ResultsDir,
        records: std::collections::BTreeMap<GuessId, J::Record>,
        cutoff: Option<u64>,
        total: usize,
        progress: &'a (dyn Fn(&Tally) + Sync),
    ) -> Self {
        let best = records
            .values()
            .filter_map(|r| match J::outcome(r) {
                Outcome::Exact(v) => Some(v),
                _ => None,
            })
            .min();
        OpenerSweep {
            job,
            results,
            records,
            tally: Mutex::new(Tally {
                total,
                best,
                cutoff,
                ..Tally::default()
            }),
            cutoff: Cutoff::new(cutoff),
            computed: Mutex::new(Vec::new()),
            progress,
            others: Vec::new(),
            game: None,
        }
    }

    /// Takes over the openers of `others` (other shards' openers) that nobody has
    /// started once this run's own are done ([`crate::jobs::balance`]).
    pub fn taking_over(mut self, game: &'a Game, others: Vec<GuessId>) -> Self {
        self.others = others;
        self.game = Some(game);
        self
    }

    /// Settles the units of `queue` on `threads` workers ([`run`]); `warnings`: what
    /// the directory scan could not use, passed through.
    pub fn run(
        mut self,
        queue: &Queue<GuessId>,
        threads: usize,
        stop: &AtomicBool,
        warnings: Vec<String>,
    ) -> Result<Summary<J::Record>, J::Error> {
        let others = std::mem::take(&mut self.others);
        let dir = self.results.shared_path();
        let ran = crate::jobs::balance::run(&self, queue, &others, dir, threads, stop)?;
        Ok(Summary {
            computed: self.computed.into_inner().unwrap(),
            reused: ran.reused,
            cutoff: self.cutoff.get(),
            warnings,
        })
    }
}

/// What a cutoff sweep ([`OpenerSweep::run`]) did.
#[derive(Debug)]
pub struct Summary<R> {
    /// Records computed by this run (not the reused ones), in completion order.
    pub computed: Vec<R>,
    /// Units settled from a stored record.
    pub reused: usize,
    /// The cutoff at the end (`None`: none).
    pub cutoff: Option<u64>,
    /// One per result file that could not be used (named; its unit searched again).
    pub warnings: Vec<String>,
}

/// What a per-opener sweep stores, one result file per opener, in a [`SweepDir`].
pub trait SweepRecord: Sized {
    /// The kind of result file.
    const KIND: Kind;
    /// The record of the file named `stem` on `game` (the error says what is wrong,
    /// not the file).
    fn read(game: &Game, stem: &str, f: &ResultFile) -> Result<(GuessId, Self), String>;
    /// The opener the file is named for.
    fn opener(&self) -> Word;
    /// The record's fields, set on `f`.
    fn fill(&self, f: &mut ResultFile);
}

/// The result files of one per-opener sweep (kind `R::KIND`), one game, mode and
/// guess limit, in a directory (one file per opener, written atomically, so a sweep
/// resumes and shards merge by sharing the directory).
pub struct SweepDir<'a, R> {
    pub dir: ResultsDir,
    game: &'a Game,
    record: std::marker::PhantomData<fn() -> R>,
}

impl<'a, R: SweepRecord> SweepDir<'a, R> {
    /// Opens (creating it if needed) the directory; `limit` is the header's
    /// `max_guesses`.
    pub fn open(
        path: &std::path::Path,
        game: &'a Game,
        hard: bool,
        limit: u8,
    ) -> Result<Self, ResultsError> {
        Ok(SweepDir {
            dir: ResultsDir::open(path, R::KIND, game, hard, limit)?,
            game,
            record: std::marker::PhantomData,
        })
    }

    /// Every usable record by opener, and one warning per file that is not (named;
    /// its opener is searched again).
    pub fn scan(&self) -> Result<(BTreeMap<GuessId, R>, Vec<String>), ResultsError> {
        self.dir.scan_records(|stem, f, path| {
            R::read(self.game, stem, f).map_err(|why| ResultsError::Malformed(path.into(), why))
        })
    }

    /// The record of `g` as the directory holds it now (`None`: none, or one a scan
    /// would refuse).
    pub fn read_one(&self, g: GuessId) -> Option<R> {
        let stem = self.game.guesses[g.index()];
        let f = self.dir.read_stem(stem.as_str())?;
        R::read(self.game, stem.as_str(), &f)
            .ok()
            .filter(|(h, _)| *h == g)
            .map(|(_, r)| r)
    }

    /// Writes one record atomically; the error names the file.
    pub fn write(&self, r: &R) -> Result<(), ResultsError> {
        let mut f = ResultFile::new(self.dir.header().clone());
        r.fill(&mut f);
        self.dir.write(r.opener().as_str(), &f)
    }
}

/// The fields every per-opener sweep's result file (`min-over`, `best-pair`) holds
/// first: the unit's guess under `key` (the file's `stem`, an allowed guess of
/// `game`; `what` names it in errors), `result`, and `cutoff` (a lower bound only
/// with a cutoff it reaches). The error says what is wrong, not the file.
pub fn read_head(
    game: &Game,
    f: &ResultFile,
    stem: &str,
    key: &str,
    what: &str,
) -> Result<(GuessId, Word, Outcome, Option<u64>), String> {
    let get = |k: &str| f.get(k).ok_or_else(|| format!("missing '{k}'"));
    let text = get(key)?;
    if text != stem {
        return Err(format!(
            "holds {what} '{}' but is named for '{stem}'",
            crate::game::echo::echo(text)
        ));
    }
    let (g, word) = allowed_guess(game, text, what)?;
    let result = get("result")?;
    let outcome = Outcome::parse(result).ok_or_else(|| {
        format!(
            "result '{}' is not 'exact N', 'at-least N' or 'cannot-finish'",
            crate::game::echo::echo(result)
        )
    })?;
    let cutoff = match get("cutoff")? {
        "none" => None,
        c => Some(
            c.parse::<u64>()
                .map_err(|_| "'cutoff' is not a whole number".to_string())?,
        ),
    };
    match (outcome, cutoff) {
        (Outcome::AtLeast(lb), Some(c)) if lb < c => Err(format!(
            "a lower bound {lb} below its cutoff {c} proves nothing"
        )),
        (Outcome::AtLeast(_), None) => Err("a lower bound without a cutoff".into()),
        _ => Ok((g, word, outcome, cutoff)),
    }
}

/// `s` as an allowed guess of `game` (`what` names it in errors).
pub fn allowed_guess(game: &Game, s: &str, what: &str) -> Result<(GuessId, Word), String> {
    let word = Word::parse(s).map_err(|e| format!("{what}: {e}"))?;
    let g = game
        .guess_id(word)
        .ok_or_else(|| format!("{what} '{word}' is not an allowed guess"))?;
    Ok((g, word))
}

/// A result file's time field `k` (seconds, finite, not negative).
pub fn read_seconds(f: &ResultFile, k: &str) -> Result<f64, String> {
    f.get(k)
        .ok_or_else(|| format!("missing '{k}'"))?
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && *x >= 0.0)
        .ok_or_else(|| format!("'{k}' is not a number"))
}

/// The least of two optional cutoffs (`None`: none).
pub fn least(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The first cutoff of a sweep whose cutoff is the least exact value + 1: that of
/// the `stored` outcomes, or `seed` when lower.
pub fn least_plus_one(seed: Option<u64>, stored: impl Iterator<Item = Outcome>) -> Option<u64> {
    let best = stored
        .filter_map(|o| match o {
            Outcome::Exact(v) => Some(v),
            _ => None,
        })
        .min();
    least(seed, best.map(|b| b + 1))
}

impl<J: OpenerJob> Job for OpenerSweep<'_, J> {
    type Unit = GuessId;
    type Worker = J::Worker;
    type Record = J::Record;
    type Error = J::Error;

    fn worker(&self) -> J::Worker {
        self.job.worker()
    }

    fn stored(&self, g: GuessId) -> Option<J::Record> {
        let c = self.cutoff.get();
        let r = self.records.get(&g)?;
        self.job.reusable(r, c).then(|| r.clone())
    }

    fn has_record(&self, g: GuessId) -> bool {
        self.records.contains_key(&g)
    }

    fn writable(&self) -> Result<(), J::Error> {
        Ok(self.results.writable()?)
    }

    fn solve(&self, w: &mut J::Worker, g: GuessId) -> Result<Option<J::Record>, J::Error> {
        self.job.solve(w, g, self.cutoff.get()).map(Some)
    }

    fn write(&self, g: GuessId, r: &J::Record) -> Result<(), J::Error> {
        self.job.write(g, r)
    }

    fn settled(&self, _: GuessId, r: J::Record, reused: bool, _: usize) {
        let outcome = J::outcome(&r);
        if let (Outcome::Exact(v), false) = (outcome, reused) {
            self.cutoff.lower(self.job.cutoff_after(v));
        }
        let mut t = self.tally.lock().unwrap();
        t.add(outcome, reused, self.cutoff.get());
        (self.progress)(&t);
        drop(t);
        if !reused {
            self.computed.lock().unwrap().push(r);
        }
    }
}

impl<J: OpenerJob> OpenerSweep<'_, J> {
    /// The opener's word (its files' stem); only with [`OpenerSweep::taking_over`].
    fn word(&self, g: GuessId) -> String {
        self.game.map_or_else(
            || format!("#{}", g.0),
            |game| game.guesses[g.index()].to_string(),
        )
    }
}

impl<J: OpenerJob> crate::jobs::balance::Shared for OpenerSweep<'_, J> {
    fn unit_name(&self, g: GuessId) -> String {
        format!("{}.txt", self.word(g))
    }

    fn has_file(&self, g: GuessId) -> bool {
        std::fs::symlink_metadata(self.results.file(&self.word(g))).is_ok()
    }

    fn fresh(&self, g: GuessId) -> Option<J::Record> {
        let r = self.job.reread(g)?;
        self.job.reusable(&r, self.cutoff.get()).then_some(r)
    }
}

/// What can stop a per-opener sweep: a results directory fault (named) or the
/// search's error (an interruption).
#[derive(Debug, thiserror::Error)]
pub enum SweepError {
    #[error(transparent)]
    Results(#[from] crate::store::results::ResultsError),
    // Not `transparent`: the source chain must reach the `SolveError`, so the CLI
    // tells an interruption (exit 130, the resume line) from a failure.
    #[error("{0}")]
    Solve(#[from] SolveError),
}

/// A unit's wall and thread CPU time, from [`Stopwatch::start`] on the worker's
/// thread.
pub struct Stopwatch {
    started: Instant,
    cpu: Option<f64>,
}

impl Stopwatch {
    pub fn start() -> Stopwatch {
        Stopwatch {
            started: Instant::now(),
            cpu: thread_cpu_seconds(),
        }
    }

    /// Wall seconds so far.
    pub fn seconds(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    /// CPU seconds of this thread so far (0 where unknown).
    pub fn cpu_seconds(&self) -> f64 {
        match (self.cpu, thread_cpu_seconds()) {
            (Some(a), Some(b)) => b - a,
            _ => 0.0,
        }
    }
}

/// Reads the calling thread's CPU time (Linux; `None` elsewhere).
pub fn thread_cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 * 1e-9)
}

/// The cutoff shared by the workers of a cutoff sweep: it only falls. `None` (no
/// cutoff yet) is kept as `u64::MAX` inside the atomic, and never seen outside it.
pub struct Cutoff(AtomicU64);

impl Cutoff {
    pub fn new(c: Option<u64>) -> Cutoff {
        Cutoff(AtomicU64::new(c.unwrap_or(u64::MAX)))
    }

    pub fn get(&self) -> Option<u64> {
        let c = self.0.load(Ordering::Relaxed);
        (c != u64::MAX).then_some(c)
    }

    /// Lowers the cutoff to `c` if that is lower.
    pub fn lower(&self, c: Option<u64>) {
        if let Some(c) = c {
            self.0.fetch_min(c, Ordering::Relaxed);
        }
    }
}

/// What a cutoff search proves about one opener (`openers`, the min-over sweep):
/// exact, at least a bound, or cannot finish. The type lives in the store (the opener
/// table reads it); how a search proves one is here.
pub use crate::store::opener_table::Outcome;

impl Outcome {
    /// The outcome a finished `Solver::opener_cost` proves: a value the solver's
    /// penalty for an unfinishable bucket reaches means no tree finishes in time (no
    /// finishable game's cost comes near it), never a cost.
    pub fn from_cost(cost: OpenerCost) -> Outcome {
        match cost {
            OpenerCost::Exact(v) | OpenerCost::AtLeast(v) if v >= INFEASIBLE as u64 => {
                Outcome::CannotFinish
            }
            OpenerCost::Exact(v) => Outcome::Exact(v),
            OpenerCost::AtLeast(v) => Outcome::AtLeast(v),
        }
    }

    /// True when it settles its opener under `cutoff` (`None`: no cutoff): an exact
    /// cost always does, a bound proved under a larger cutoff still dismisses.
    pub fn decides(&self, cutoff: Option<u64>) -> bool {
        match *self {
            Outcome::Exact(_) | Outcome::CannotFinish => true,
            Outcome::AtLeast(lb) => cutoff.is_some_and(|c| lb >= c),
        }
    }

    /// As stored in a result file's `result` field.
    pub fn text(&self) -> String {
        match self {
            Outcome::Exact(v) => format!("exact {v}"),
            Outcome::AtLeast(v) => format!("at-least {v}"),
            Outcome::CannotFinish => "cannot-finish".into(),
        }
    }
}

/// Running counts of a cutoff sweep, passed to its progress callback after every
/// opener.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tally {
    /// Openers settled (searched now or found in the directory) / to settle.
    pub done: usize,
    pub total: usize,
    pub exact: usize,
    pub dismissed: usize,
    /// Settled from a stored record.
    pub reused: usize,
    /// The least exact cost so far.
    pub best: Option<u64>,
    /// The cutoff now (`None`: none yet).
    pub cutoff: Option<u64>,
}

impl Tally {
    /// Counts one settled opener; `cutoff` is the cutoff now.
    pub fn add(&mut self, outcome: Outcome, reused: bool, cutoff: Option<u64>) {
        self.done += 1;
        self.reused += reused as usize;
        match outcome {
            Outcome::Exact(v) => {
                self.exact += 1;
                self.best = Some(self.best.map_or(v, |b| b.min(v)));
            }
            Outcome::AtLeast(_) | Outcome::CannotFinish => self.dismissed += 1,
        }
        self.cutoff = cutoff;
    }
}

/// Openers in the order a cutoff sweep takes them: the `prepass` most promising of
/// `all` first (every shard runs the same ones, so every shard gets a good cutoff
/// early), then the rest of `mine`, each part by [`estimate`].
pub fn prepass_plan(
    game: &Game,
    table: &FeedbackTable,
    all: &[GuessId],
    mine: &[GuessId],
    prepass: usize,
    max_guesses: u8,
) -> Vec<GuessId> {
    let mut plan: Vec<GuessId> = Vec::new();
    let mut seen = vec![false; game.n_guesses()];
    if prepass > 0 {
        for g in order_by_estimate(game, table, all, max_guesses)
            .into_iter()
            .take(prepass)
        {
            seen[g.index()] = true;
            plan.push(g);
        }
    }
    for g in order_by_estimate(game, table, mine, max_guesses) {
        if !std::mem::replace(&mut seen[g.index()], true) {
            plan.push(g);
        }
    }
    plan
}

/// The one-level lower bound of an opener and its sum of squared bucket sizes (the
/// estimate openers are ordered by, smallest first).
pub fn estimate(
    game: &Game,
    table: &FeedbackTable,
    opener: GuessId,
    max_guesses: u8,
) -> (u64, u64) {
    let mut counts = [0u32; FEEDBACKS];
    count_buckets(table, opener, &game.all_answer_ids(), &mut counts);
    let mut bound = game.n_answers() as u64;
    let mut sum_squares = 0u64;
    for (f, &m) in counts.iter().enumerate() {
        sum_squares += m as u64 * m as u64;
        if m > 0 && f != Feedback::ALL_GREEN.0 as usize {
            bound +=
                Objective::total().size_bound(m as usize, 0, max_guesses.saturating_sub(1)) as u64;
        }
    }
    (bound.min(INFEASIBLE as u64), sum_squares)
}

/// `openers` sorted by [`estimate`], ties alphabetical.
pub fn order_by_estimate(
    game: &Game,
    table: &FeedbackTable,
    openers: &[GuessId],
    max_guesses: u8,
) -> Vec<GuessId> {
    let mut keyed: Vec<((u64, u64), Word, GuessId)> = openers
        .iter()
        .map(|&g| {
            (
                estimate(game, table, g, max_guesses),
                game.guesses[g.index()],
                g,
            )
        })
        .collect();
    keyed.sort();
    keyed.into_iter().map(|(_, _, g)| g).collect()
}

/// What the records of a per-opener sweep prove over a set of openers, before the
/// job's own verdict: exact costs best first (ties alphabetical), dismissed openers
/// and their least bound, openers that cannot finish, and openers with no record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    pub exact: Vec<(u64, Word)>,
    pub dismissed: usize,
    pub least_bound: Option<u64>,
    pub cannot_finish: usize,
    pub missing: Vec<Word>,
}

impl Standing {
    /// From each opener's outcome (`None`: no record).
    pub fn new(
        game: &Game,
        openers: &[GuessId],
        outcome: impl Fn(GuessId) -> Option<Outcome>,
    ) -> Standing {
        let mut r = Standing::default();
        for &g in openers {
            let w = game.guesses[g.index()];
            match outcome(g) {
                Some(Outcome::Exact(v)) => r.exact.push((v, w)),
                Some(Outcome::AtLeast(lb)) => {
                    r.dismissed += 1;
                    r.least_bound = Some(r.least_bound.map_or(lb, |b| b.min(lb)));
                }
                Some(Outcome::CannotFinish) => r.cannot_finish += 1,
                None => r.missing.push(w),
            }
        }
        r.exact.sort();
        r
    }

    /// How many exact rows a table of `k` shows: `k`, extended to ties.
    pub fn shown(&self, k: usize) -> usize {
        let mut shown = k.min(self.exact.len());
        while shown > 0
            && shown < self.exact.len()
            && self.exact[shown].0 == self.exact[shown - 1].0
        {
            shown += 1;
        }
        shown
    }

    /// Past the first `shown` exact rows: how many more, and their least and
    /// greatest cost.
    pub fn beyond(&self, shown: usize) -> Option<(usize, u64, u64)> {
        let rest = self.exact.get(shown..).filter(|r| !r.is_empty())?;
        Some((rest.len(), rest[0].0, rest[rest.len() - 1].0))
    }

    /// The first `shown` exact rows with their ranks (tied rows share one).
    pub fn ranked(&self, shown: usize) -> impl Iterator<Item = (usize, u64, Word)> + '_ {
        let mut rank = 0;
        self.exact[..shown]
            .iter()
            .enumerate()
            .map(move |(i, &(v, w))| {
                if i == 0 || v != self.exact[i - 1].0 {
                    rank = i + 1;
                }
                (rank, v, w)
            })
    }
}
