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
//! [`SweepRecord`]: open, scan, atomic write), [`Head::read`] (the key, result and
//! cutoff fields every per-opener file starts with, checked) and the first cutoff
//! ([`least_plus_one`]).
//!
//! Files: [`pool`] (the [`Job`] trait and [`run`]), [`opener_sweep`] (the per-opener
//! sweeps' [`OpenerSweep`] and [`SweepDir`]), [`solver_sweep`] (those that run one
//! solver per worker), [`balance`] (taking over other shards' units), [`outcome`]
//! ([`Outcome`], [`Tally`], [`Standing`] and its [`Verdict`]) and [`order`] (the estimate order).

pub mod balance;
pub mod opener_sweep;
pub mod order;
pub mod outcome;
pub mod pool;
pub mod solver_sweep;

pub use crate::store::results::Shard;
pub use opener_sweep::{
    allowed_guess, cutoff_text, read_seconds, seconds_text, set_head, Cutoff, Head, OpenerJob,
    OpenerSweep, Place, Summary, SweepDir, SweepError, SweepRecord, Task,
};
pub use order::{estimate, order_by_estimate, prepass_plan};
pub use outcome::{least, least_plus_one, Outcome, Standing, Tally, Verdict};
pub use pool::{run, thread_cpu_seconds, Job, Queue, Ran, Stopwatch};
