//! The worker pool every resumable sweep runs on: a [`Job`] supplies its units, its
//! solve step and its record; [`run`] owns the workers, the queue ([`Queue`]: units in
//! order, grouped), resume from stored records, the refusal to compute into a
//! read-only pack, claims, the first error, an early halt and interruption (see
//! [`crate::jobs::driver`] for the conventions). Also [`Stopwatch`], a unit's wall
//! and thread CPU time.

use crate::search::SolveError;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

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
