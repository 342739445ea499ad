//! Balance between shards that share a results directory: a shard done with its own
//! units takes over units of other shards that no process has started, so it is not
//! left idle while another still has many. One wrapper of any [`super::pool`] job
//! ([`run`], for a job that implements [`Shared`]) gives it; the per-opener sweeps
//! (`openers`, the min-over sweep, `pair --best`) get it through
//! [`super::OpenerSweep::taking_over`], `check --opener any` through
//! [`crate::jobs::check::sweep_within`] (its verdict lines count the other shards'
//! openers it settled, and name its own that another live process still held). Not
//! yet wired: a proof's units, which do the same with their own code in
//! [`crate::jobs::proof`] (written first; it could move onto [`run`]). A unit here
//! is never split; a proof's large units are, by their second guesses
//! ([`crate::jobs::proof::split`]), so on a skewed proof (one bucket most of the
//! work) the other shards join the shard holding that unit (docs/guide/cluster.md).
//!
//! **How.** The queue is this run's own units, then the other shards' units
//! (`others`). Before a unit is searched it is claimed with `claim.<NAME>.txt`
//! ([`crate::store::claim`]): a unit another live process holds is left to it; once
//! the claim is taken the directory is read again ([`Shared::fresh`]), so a unit
//! another process finished meanwhile is settled from its record, not searched.
//! Other shards' units are taken only in a directory other shards use: once it shows
//! a record or a claim of one of their units that this run did not write (a shard
//! given a directory of its own, its files copied together for the merge later, must
//! not solve the whole sweep). The look at the directory is repeated at most once a
//! second until it shows one.
//!
//! **Invariants.** A unit is settled only by its record: claims decide nothing,
//! they only keep two live processes off one unit. A shard rerun after a kill or a
//! requeue settles every unit whose record is there from it (the driver's resume)
//! and reaps its own dead claims ([`crate::store::claim`]'s staleness rules), so it
//! never redoes a finished unit. The records of the shards together are those of a
//! serial run (each unit settled once, by the same search); what differs is only
//! which process wrote which file. A run without `others` (no shard, or a pack) makes
//! no claims and behaves as before.

use super::pool::{self, Job, Queue, Ran};
use crate::store::claim::Claimer;
use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A [`Job`] whose units have records in a results directory that other processes
/// share.
pub trait Shared: Job {
    /// The unit's name in the directory: its claim is `claim.NAME.txt`.
    fn unit_name(&self, unit: Self::Unit) -> String;
    /// Whether the directory holds a record file of `unit` now (any process's).
    fn has_file(&self, unit: Self::Unit) -> bool;
    /// The record that settles `unit`, read from the directory now (one another
    /// process wrote since this run scanned it), if there is one.
    fn fresh(&self, unit: Self::Unit) -> Option<Self::Record>;
}

/// Settles `queue` (this run's own units), then takes over the units of `others`
/// (other shards' units, in the order given) that nobody has started, in the
/// directory `dir` (see the module doc). With no `others`, or no `dir` (a pack,
/// read only), this is [`pool::run`] on `queue` alone.
pub fn run<J: Shared>(
    job: &J,
    queue: &Queue<J::Unit>,
    others: &[J::Unit],
    dir: Option<&Path>,
    threads: usize,
    stop: &AtomicBool,
) -> Result<Ran, J::Error> {
    let Some(dir) = dir.filter(|_| !others.is_empty()) else {
        return pool::run(job, queue, threads, stop);
    };
    let own: HashSet<String> = queue.units.iter().map(|&u| job.unit_name(u)).collect();
    let mut units = queue.units.clone();
    let mut groups = queue.groups.clone();
    let mut seen = own.clone();
    for &u in others {
        if seen.insert(job.unit_name(u)) {
            groups.push(units.len()..units.len() + 1);
            units.push(u);
        }
    }
    let balanced = Balanced {
        job,
        claims: Claimer::new(dir),
        own,
        ours: Mutex::new(HashSet::new()),
        others: others.to_vec(),
        shared: AtomicBool::new(false),
        looked: Mutex::new(None),
    };
    pool::run(&balanced, &Queue { units, groups }, threads, stop)
}

/// A job run with claims, taking over other shards' units.
struct Balanced<'a, J: Shared> {
    job: &'a J,
    claims: Claimer,
    /// The names of this run's own units.
    own: HashSet<String>,
    /// The names of the units this run has claimed.
    ours: Mutex<HashSet<String>>,
    others: Vec<J::Unit>,
    /// Set once the directory shows another shard's work.
    shared: AtomicBool,
    /// When the directory was last looked at for it.
    looked: Mutex<Option<Instant>>,
}

impl<J: Shared> Balanced<'_, J> {
    /// Whether other shards use the directory: it holds a record or a claim of one
    /// of their units that this run did not claim (looked at most once a second).
    fn shared(&self) -> bool {
        if self.shared.load(Ordering::Relaxed) {
            return true;
        }
        // The look is made under the lock: a thread that comes while another looks
        // waits for its answer. (Told "not shared" while another thread was still
        // looking, a thread would leave an other shard's unit untaken for good: the
        // flaky `sweep_balance` count of session 26.)
        let mut looked = self.looked.lock().unwrap();
        if self.shared.load(Ordering::Relaxed) {
            return true;
        }
        if looked.is_some_and(|t| t.elapsed() < Duration::from_secs(1)) {
            return false;
        }
        let ours = self.ours.lock().unwrap().clone();
        let seen = self.others.iter().any(|&u| {
            let name = self.job.unit_name(u);
            !self.own.contains(&name)
                && !ours.contains(&name)
                && (self.job.has_file(u) || self.claims.path(&name).exists())
        });
        *looked = Some(Instant::now());
        if seen {
            self.shared.store(true, Ordering::Relaxed);
        }
        seen
    }
}

impl<J: Shared> Job for Balanced<'_, J> {
    type Unit = J::Unit;
    type Worker = J::Worker;
    type Record = J::Record;
    type Error = J::Error;

    fn worker(&self) -> J::Worker {
        self.job.worker()
    }

    fn stored(&self, u: J::Unit) -> Option<J::Record> {
        self.job.stored(u).or_else(|| self.job.fresh(u))
    }

    fn has_record(&self, u: J::Unit) -> bool {
        self.job.has_record(u)
    }

    fn writable(&self) -> Result<(), J::Error> {
        self.job.writable()
    }

    fn solve(&self, w: &mut J::Worker, u: J::Unit) -> Result<Option<J::Record>, J::Error> {
        self.job.solve(w, u)
    }

    fn write(&self, u: J::Unit, r: &J::Record) -> Result<(), J::Error> {
        self.job.write(u, r)
    }

    fn settled(&self, u: J::Unit, r: J::Record, reused: bool, done: usize) {
        self.job.settled(u, r, reused, done)
    }

    fn halted(&self) -> bool {
        self.job.halted()
    }

    fn claim(&self, u: J::Unit) -> Result<bool, J::Error> {
        let name = self.job.unit_name(u);
        if !self.own.contains(&name) && !self.shared() {
            return Ok(false); // no other shard works here: not this run's unit
        }
        match self.claims.claim(&name) {
            Ok(None) => {}
            Ok(Some(_)) => return Ok(false), // another live process is on it
            // A directory that cannot take a claim file: own units go on without one
            // (as an unshared run would), other shards' are left to them.
            Err(_) => return Ok(self.own.contains(&name)),
        }
        self.ours.lock().unwrap().insert(name);
        Ok(true)
    }

    fn release(&self, u: J::Unit) {
        self.claims.release(&self.job.unit_name(u));
    }
}

/// The units of `all` not in `mine`: what a shard may take over.
pub fn others<U: Copy + Eq + std::hash::Hash>(all: &[U], mine: &[U]) -> Vec<U> {
    let mine: HashSet<U> = mine.iter().copied().collect();
    all.iter().filter(|u| !mine.contains(u)).copied().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn others_are_the_units_not_mine() {
        assert_eq!(others(&[1, 2, 3, 4], &[2, 4]), vec![1, 3]);
        assert!(others(&[1, 2], &[1, 2]).is_empty());
    }
}
