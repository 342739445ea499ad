//! The per-opener cutoff sweeps' half of the driver (`openers`, the min-over sweep,
//! `pair --best`): a job supplies an [`OpenerJob`] (its worker, solve step, record
//! and write); [`OpenerSweep`] keeps the rest (stored records, the falling
//! [`Cutoff`] the workers share, the [`Tally`], the records computed) and is the
//! [`Job`] the pool runs, taking over other shards' openers through
//! [`super::balance`]. [`SweepDir`] is the results directory of one kind of
//! [`SweepRecord`] (open, scan, atomic write); [`Head`] is what every per-opener record holds
//! (read and checked: key, result, cutoff, times); [`Task`] is what a solve step is
//! handed (the opener, the cutoff, the unit's stopwatch, started here once for every
//! job).
//!
//! Invariants: a stored record settles its opener only when its outcome decides it
//! under the cutoff now ([`Outcome::decides`]); the cutoff only falls, and only on an
//! exact result searched by this run.

use super::balance;
use super::outcome::{Outcome, Tally};
use super::pool::{Job, Queue, Stopwatch};
use crate::game::table::FeedbackTable;
use crate::game::word::Word;
use crate::game::{Game, GuessId};
use crate::search::SolveError;
use crate::store::results::{Kind, ResultFile, ResultsDir, ResultsError};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

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
    /// Searches `task.opener` under `task.cutoff`.
    fn solve(&self, worker: &mut Self::Worker, task: &Task) -> Result<Self::Record, Self::Error>;
    /// Writes a searched record atomically.
    fn write(&self, opener: GuessId, r: &Self::Record) -> Result<(), Self::Error>;
    /// The cutoff once a new exact cost `v` is known (it only falls: a higher one is
    /// ignored); `None`: no cutoff yet. By default `v + 1`: the least exact cost + 1.
    fn cutoff_after(&self, v: u64) -> Option<u64> {
        Some(v + 1)
    }
    /// The record of `opener` as the results directory holds it now (another shard
    /// may have written it since the scan), for taking over other shards' openers
    /// ([`OpenerSweep::taking_over`], [`crate::jobs::driver::balance`]).
    fn reread(&self, opener: GuessId) -> Option<Self::Record>;
}

/// One opener's unit as [`OpenerSweep`] hands it to [`OpenerJob::solve`]: the opener,
/// the cutoff as the unit starts (`None`: none yet) and the unit's [`Stopwatch`],
/// started by the sweep on the worker's thread (the times every record holds).
pub struct Task {
    pub opener: GuessId,
    pub cutoff: Option<u64>,
    pub clock: Stopwatch,
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
    /// started once this run's own are done ([`crate::jobs::driver::balance`]).
    pub fn taking_over(mut self, game: &'a Game, others: Vec<GuessId>) -> Self {
        self.others = others;
        self.game = Some(game);
        self
    }

    /// Settles the units of `queue` on `threads` workers ([`super::run`]); `warnings`: what
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
        let ran = balance::run(&self, queue, &others, dir, threads, stop)?;
        Ok(Summary {
            computed: self.computed.into_inner().unwrap(),
            reused: ran.reused,
            cutoff: self.cutoff.get(),
            warnings,
        })
    }
}

/// Where a per-opener sweep runs, the one argument every sweep's entry function
/// takes besides its settings: the game and its table, the openers of the whole list
/// (`all`: every shard's, for the prepass and for taking over) and this run's own
/// (`mine`), the results directory, the stop flag and the progress callback (called
/// after each settled opener).
pub struct Place<'a, D> {
    pub game: &'a Game,
    pub table: &'a FeedbackTable,
    pub all: &'a [GuessId],
    pub mine: &'a [GuessId],
    pub dir: &'a D,
    pub stop: &'a AtomicBool,
    pub progress: &'a (dyn Fn(&Tally) + Sync),
}

impl<D> Clone for Place<'_, D> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<D> Copy for Place<'_, D> {}

impl<D> Place<'_, D> {
    /// Other shards' openers, taken over once this run's are done
    /// ([`balance::others`]).
    pub fn others(&self) -> Vec<GuessId> {
        balance::others(self.all, self.mine)
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

/// What every per-opener sweep's record holds (the min-over record is this alone;
/// the best-pair record adds its own fields): the unit's guess, what its search
/// proved, the cutoff it ran under (`None`: none) and its wall and worker-thread CPU
/// time (0 where unknown).
#[derive(Clone, Debug, PartialEq)]
pub struct Head {
    pub opener: Word,
    pub outcome: Outcome,
    pub cutoff: Option<u64>,
    pub seconds: f64,
    pub cpu_seconds: f64,
}

impl Head {
    /// A unit's head as its search ends, `clock` started with the search.
    pub fn timed(opener: Word, outcome: Outcome, cutoff: Option<u64>, clock: &Stopwatch) -> Head {
        Head {
            opener,
            outcome,
            cutoff,
            seconds: clock.seconds(),
            cpu_seconds: clock.cpu_seconds(),
        }
    }

    /// The head of the result file `f` named `stem`: the unit's guess under `key`
    /// (the stem, an allowed guess of `game`; `what` names it in errors), `result`,
    /// `cutoff` (a lower bound only with a cutoff it reaches), `seconds` and
    /// `cpu_seconds`. The error says what is wrong, not the file.
    pub fn read_from(
        f: &ResultFile,
        game: &Game,
        stem: &str,
        key: &str,
        what: &str,
    ) -> Result<(GuessId, Head), String> {
        let get = |k: &str| f.get(k).ok_or_else(|| format!("missing '{k}'"));
        let text = get(key)?;
        if text != stem {
            return Err(format!(
                "holds {what} '{}' but is named for '{stem}'",
                crate::game::echo::echo(text)
            ));
        }
        let (g, opener) = allowed_guess(game, text, what)?;
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
            (Outcome::AtLeast(lb), Some(c)) if lb < c => {
                return Err(format!(
                    "a lower bound {lb} below its cutoff {c} proves nothing"
                ))
            }
            (Outcome::AtLeast(_), None) => return Err("a lower bound without a cutoff".into()),
            _ => {}
        }
        let head = Head {
            opener,
            outcome,
            cutoff,
            seconds: read_seconds(f, "seconds")?,
            cpu_seconds: read_seconds(f, "cpu_seconds")?,
        };
        Ok((g, head))
    }

    /// Sets the head's fields on `f` in the order of the opener-keyed files
    /// (`openers`, `min-over`): [`set_head`] with the key `opener`.
    pub fn write_to<'f>(&self, f: &'f mut ResultFile) -> &'f mut ResultFile {
        set_head(
            f,
            self.opener,
            self.outcome,
            self.cutoff,
            self.seconds,
            self.cpu_seconds,
        )
    }
}

/// Sets the fields an opener-keyed result file holds, in its order: `opener`,
/// `result`, `cutoff` (`none` without one), `seconds` and `cpu_seconds` (three
/// decimals): [`cutoff_text`], [`seconds_text`].
pub fn set_head(
    f: &mut ResultFile,
    opener: Word,
    outcome: Outcome,
    cutoff: Option<u64>,
    seconds: f64,
    cpu_seconds: f64,
) -> &mut ResultFile {
    f.set("opener", opener)
        .set("result", outcome.text())
        .set("cutoff", cutoff_text(cutoff))
        .set("seconds", seconds_text(seconds))
        .set("cpu_seconds", seconds_text(cpu_seconds))
}

/// A `cutoff` field's text (`none` without one).
pub fn cutoff_text(cutoff: Option<u64>) -> String {
    cutoff.map_or("none".into(), |c| c.to_string())
}

/// A time field's text: seconds with three decimals.
pub fn seconds_text(seconds: f64) -> String {
    format!("{seconds:.3}")
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
        let task = Task {
            opener: g,
            cutoff: self.cutoff.get(),
            clock: Stopwatch::start(),
        };
        self.job.solve(w, &task).map(Some)
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

impl<J: OpenerJob> balance::Shared for OpenerSweep<'_, J> {
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
