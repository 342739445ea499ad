//! Settling a proof's units: [`run_units`] (the units as a [`Job`] of the one
//! [`driver`]), the search of one unit ([`solve_unit`], [`feasible_unit`]), the
//! progress it reports ([`Status`], [`Working`]) and the spot check of recorded units
//! ([`audit`]).
//!
//! Owns: each unit's cutoff and the early stop. With `--cutoff N`, a unit is searched
//! with `beta = N - here - sum of the other units' best known lower bounds` (exact
//! costs, recorded bounds, or the size bound `2m - 1` of units not done yet); the
//! search returns the exact cost below `beta`, else a proved lower bound `>= beta`.
//!
//! Invariants: every number recorded is a valid lower bound of its unit whatever `beta`
//! was; an exact result is written only with a subtree that replays at that cost, a
//! feasible one only with a witness that finds every candidate within the guesses
//! left; a unit interrupted is abandoned, never written.
//!
//! **Claims and balance.** Before a unit is searched, its process claims it with
//! `DIR/claim.<KEY>.txt` ([`crate::store::claim`], through the driver's
//! [`Job::claim`]): a unit another live process holds is left to it, and one whose
//! file appeared meanwhile is read, not searched. So shards sharing a directory can
//! take over each other's unstarted units ([`run_units`] with `others`): a shard done with
//! its own units goes on with the others', largest first, once the directory shows
//! that other shards work there. Claims never decide a result (only unit files do).
//! A shard with nothing left to take then joins the large units other processes
//! still hold ([`split`]): their second guesses are split by slice claims, and the
//! holder of a unit writes it once a pass of its meets no slice held elsewhere.
//!
//! Trade-off, measured (release build, 2 cores shared with another long job): a unit
//! is one thread's serial search, so a claim's tail is as long as its hardest unit:
//! `lants` within 6 on `wordle-all` is 166 units; 165 settled in 599 s, all but two of
//! them in under a second, and the last, `YBBBG` (354 candidates), took 610 s alone.
//! Split (total objective, shards only), such a unit's tail is shared: see
//! [`split`] for the measured skewed proof. A run alone does not split (no slice
//! claims to pay for).

use super::journal::{self, Journal, JOURNAL_MIN};
use super::outcome::{Goal, Outcome, ProofError, Record};
use super::plan::{subtree_cost, Plan, Unit};
use super::split;
use super::unit_file::{encode_record, read_record, Read, Scan};
use crate::game::table::FeedbackTable;
use crate::game::word::Word;
use crate::game::GuessId;
use crate::jobs::driver::{self, Job, Queue};
use crate::search::bound::{Objective, INFEASIBLE};
use crate::search::{Settled, SolveError, Solver, TopLog};
use crate::store::claim::Claimer;
use crate::store::entry::FileIo;
use crate::store::pack::is_pack;
use crate::store::results::write_entry;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// How long a unit's holder waits for slices others hold before it looks again
/// (a dead holder's slice is taken over then).
const WAIT_SLICES: std::time::Duration = std::time::Duration::from_secs(5);

/// Where a proof stands: the bound proved so far and how many units are settled.
#[derive(Clone, Debug, PartialEq)]
pub struct Status {
    pub units: usize,
    pub done: usize,
    /// Units of this run (its shard) and how many of them are done.
    pub mine: usize,
    pub mine_done: usize,
    /// Candidates in this run's units, and in those done (for the time estimate).
    pub mine_candidates: u64,
    pub mine_candidates_done: u64,
    /// `here + sum of every unit's best lower bound`: a proved lower bound on the
    /// opener's cost (its exact cost once every unit is exact).
    pub bound: u64,
    /// The unit just finished: its key, result (`exact 4926`, `at_least 900`,
    /// `infeasible`) and wall seconds; empty before the first.
    pub last: Option<(String, String, f64)>,
    /// Set (and `last` empty) when the call reports a large unit in progress instead
    /// of a finished one: at most once a minute per unit, from its journal.
    pub working: Option<Working>,
    /// Units of other processes this run joined ([`split`]): searched a share of
    /// their second guesses, left to their holders to write.
    pub joined: usize,
}

/// A large unit in progress, as its journal stands.
#[derive(Clone, Debug, PartialEq)]
pub struct Working {
    pub key: String,
    /// Second guesses settled so far (this run's and earlier runs').
    pub settled: usize,
    /// The best second guess found so far and its exact cost from the unit.
    pub best: Option<(Word, u32)>,
}

/// One unit re-solved by [`audit`]: its key, what its file claims, what the re-solve
/// found, and whether they agree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Audited {
    pub key: String,
    pub claimed: String,
    pub found: String,
    pub agrees: bool,
}

/// Re-solves, from scratch, the units at `picks` (positions in the plan) that `scan`
/// holds, and compares each with what its file claims: an exact cost must come out
/// the same, a lower bound must hold, a unit claimed infeasible must be infeasible
/// and one claimed feasible feasible. Checksums only show that a file is whole; an
/// audit is what tests a worker's word, so a merge of units from many machines can
/// be spot-checked (`--merge --audit N`). The solver must be the plan's, as for
/// [`run_units`]; units not in `scan` are skipped.
pub fn audit(
    solver: &Solver,
    table: &FeedbackTable,
    plan: &Plan,
    scan: &Scan,
    picks: &[usize],
    stop: &AtomicBool,
) -> Result<Vec<Audited>, ProofError> {
    let mut out = Vec::new();
    for &i in picks {
        let Some(rec) = scan.done.get(&i) else {
            continue;
        };
        let unit = &plan.units[i];
        let beta = |v: u64| u32::try_from(v).unwrap_or(INFEASIBLE).min(INFEASIBLE);
        let found = match (plan.identity.goal, &rec.outcome) {
            (Goal::Within, _) => feasible_unit(solver, table, plan, unit, stop)?,
            (Goal::Total, Outcome::Exact(v, _)) => {
                solve_unit(solver, table, unit, beta(v + 1), stop, None)?
            }
            (Goal::Total, Outcome::AtLeast(v)) => {
                solve_unit(solver, table, unit, beta(*v), stop, None)?
            }
            (Goal::Total, _) => solve_unit(solver, table, unit, INFEASIBLE, stop, None)?,
        };
        let agrees = match (&rec.outcome, &found) {
            (Outcome::Exact(v, _), Outcome::Exact(w, _)) => v == w,
            (Outcome::AtLeast(_), Outcome::AtLeast(_) | Outcome::Infeasible) => true,
            (Outcome::Infeasible, Outcome::Infeasible) => true,
            (Outcome::Feasible(_), Outcome::Feasible(_)) => true,
            _ => false,
        };
        out.push(Audited {
            key: unit.key.text(),
            claimed: rec.outcome.text(),
            found: found.text(),
            agrees,
        });
    }
    Ok(out)
}

/// Solves the units at `todo` (positions in the plan) not in `scan.done`, largest
/// first, on all threads (one unit per thread at a time, each searched serially),
/// writing each one's file as soon as it is settled. Stops taking units (without
/// error) when the cutoff is proved reached, or, for [`Goal::Within`], once some unit
/// (of any run) is infeasible: the claim is then refuted whatever the others hold.
/// The solver must match the plan: total guesses (or a cutoff search) for
/// [`Goal::Total`], [`Objective::feasibility`] with `max_guesses` the claim's depth for
/// [`Goal::Within`]. `stop` is the solver's stop flag: once set, the units
/// in progress are abandoned (not written) and `Interrupted` is returned. `progress`
/// is called after each unit.
///
/// **Balance.** Once this run's own units (`todo`) are taken, the units of `others`
/// (positions in the plan: other shards' units, largest first; empty: this run's own
/// units only) that no process has started: each unit is claimed before it is
/// searched ([`crate::store::claim`]), a unit claimed by another live process is left
/// to it, and one whose file appears meanwhile is read, not searched. So a shard that
/// finishes early takes over work from shards that still have much, and the
/// directory ends the same as after a serial run. [`Status::mine`] grows by each unit
/// taken over. Units of `others` are taken only in a directory other shards use:
/// once it holds a unit file or a claim of one of their units that this run did not
/// claim (a shard with a directory of its own solves its own units only).
#[allow(clippy::too_many_arguments)]
pub fn run_units(
    solver: &Solver,
    table: &FeedbackTable,
    plan: &Plan,
    dir: &Path,
    scan: &mut Scan,
    todo: &[usize],
    others: &[usize],
    stop: &AtomicBool,
    progress: &(dyn Fn(&Status) + Sync),
) -> Result<(), ProofError> {
    let bounds: Vec<u64> = (0..plan.units.len())
        .map(|i| {
            let cheap = plan.units[i].cheap_bound;
            scan.done
                .get(&i)
                .map_or(cheap, |r| r.outcome.bound().max(cheap))
        })
        .collect();
    let mut own = vec![false; plan.units.len()];
    for &i in todo {
        own[i] = true;
    }
    let pending: Vec<usize> = todo
        .iter()
        .chain(others.iter().filter(|&&i| !own[i]))
        .copied()
        .filter(|i| !scan.done.contains_key(i))
        .collect();
    let cands = |is: &mut dyn Iterator<Item = usize>| -> u64 {
        is.map(|i| plan.units[i].ids.len() as u64).sum()
    };
    let job = UnitsJob {
        solver,
        table,
        plan,
        dir,
        stop,
        progress,
        status: Mutex::new(Status {
            units: plan.units.len(),
            done: scan.done.len(),
            mine: todo.len(),
            mine_done: todo.iter().filter(|i| scan.done.contains_key(i)).count(),
            mine_candidates: cands(&mut todo.iter().copied()),
            mine_candidates_done: cands(
                &mut todo.iter().copied().filter(|i| scan.done.contains_key(i)),
            ),
            bound: plan.here + bounds.iter().sum::<u64>(),
            last: None,
            working: None,
            joined: 0,
        }),
        shared: Mutex::new((bounds, std::mem::take(&mut scan.done))),
        own,
        claims: (!is_pack(dir)).then(|| Claimer::new(dir)),
        ours: Mutex::new(vec![false; plan.units.len()]),
        shared_dir: AtomicBool::new(false),
        tag: joiner_tag(),
        split: !others.is_empty() && !is_pack(dir),
    };
    progress(&job.status.lock().unwrap());
    let threads = rayon::current_num_threads();
    let result =
        driver::run(&job, &Queue::singles(pending), threads, stop).and_then(|_| job.join_units());
    scan.done = job.shared.into_inner().unwrap().1;
    result
}

/// Names this run's journals of units it joins: host, process id and a serial (runs
/// in one process, as tests start them, are apart too).
fn joiner_tag() -> String {
    static SERIAL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let me = crate::store::claim::Holder::this_process(|_| None);
    let n = SERIAL.fetch_add(1, Ordering::Relaxed);
    format!("{}-{}-{n}", me.host, me.pid)
}

/// A proof's units as a [`Job`]: one unit per position in the plan, on one shared
/// solver; each worker computes its unit's cutoff from every unit's bound so far.
struct UnitsJob<'a> {
    solver: &'a Solver<'a>,
    table: &'a FeedbackTable,
    plan: &'a Plan,
    dir: &'a Path,
    stop: &'a AtomicBool,
    progress: &'a (dyn Fn(&Status) + Sync),
    status: Mutex<Status>,
    /// Every unit's best lower bound, and the records settled.
    shared: Mutex<(Vec<u64>, BTreeMap<usize, Record>)>,
    /// Which units are this run's own (its shard's); the others are taken over.
    own: Vec<bool>,
    /// This process's claims in the directory (none for a pack, read only).
    claims: Option<Claimer>,
    /// The units this run has claimed.
    ours: Mutex<Vec<bool>>,
    /// Set once the directory shows the work of another shard (see
    /// [`UnitsJob::shared`]).
    shared_dir: AtomicBool,
    /// Names this run's journals of units it joins ([`journal::joiner_part`]).
    tag: String,
    /// Whether large units are split with other processes ([`split`]): for shards
    /// (runs with `others`) only, so a run alone pays no slice claims.
    split: bool,
}

impl UnitsJob<'_> {
    /// Whether other shards use this directory: it holds a unit file or a claim of a
    /// unit of another shard that this run did not claim. Only then does the run take
    /// over other shards' units: a shard given a directory of its own (no shared file
    /// system, files copied together for the merge) must not solve the whole proof.
    fn shared(&self) -> bool {
        if self.shared_dir.load(Ordering::Relaxed) {
            return true;
        }
        let Ok(entries) = std::fs::read_dir(self.dir) else {
            return false;
        };
        let names: std::collections::HashSet<String> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        let ours = self.ours.lock().unwrap();
        let seen = (0..self.plan.units.len()).any(|i| {
            !self.own[i]
                && !ours[i]
                && (names.contains(&self.plan.units[i].key.file_name())
                    || names.contains(&format!(
                        "{}{}",
                        crate::store::claim::PREFIX,
                        self.claim_name(i)
                    )))
        });
        if seen {
            self.shared_dir.store(true, Ordering::Relaxed);
        }
        seen
    }

    /// The name of unit `i`'s claim file (`claim.KEY.txt`).
    fn claim_name(&self, i: usize) -> String {
        let name = self.plan.units[i].key.file_name();
        name.strip_prefix("unit.").unwrap_or(&name).to_string()
    }

    /// Whether unit `i` keeps a journal.
    fn journaled(&self, i: usize) -> bool {
        self.plan.identity.goal == Goal::Total && self.plan.units[i].ids.len() >= JOURNAL_MIN
    }

    /// Unit `i`'s cutoff from every unit's bound so far; `None` when there is nothing
    /// to do (the cutoff is proved reached, or a `within` claim refuted).
    fn beta(&self, i: usize) -> Option<u64> {
        let plan = self.plan;
        let (bounds, done) = &*self.shared.lock().unwrap();
        if plan.identity.goal == Goal::Within
            && done.values().any(|r| r.outcome == Outcome::Infeasible)
        {
            return None; // the claim is refuted
        }
        match plan.identity.cutoff {
            None => Some(INFEASIBLE as u64),
            Some(n) => {
                let others = plan.here + bounds.iter().sum::<u64>() - bounds[i];
                if others + bounds[i] >= n {
                    return None; // the cutoff is proved reached
                }
                Some((n - others).min(INFEASIBLE as u64))
            }
        }
    }

    /// The journal of unit `i` at `path`, reporting its progress.
    fn journal(&self, i: usize, path: std::path::PathBuf) -> Result<Journal<'_>, ProofError> {
        let (plan, game) = (self.plan, self.solver.game());
        let unit = &plan.units[i];
        let (j, _damaged) = Journal::open_at(game, plan, i, path)?;
        Ok(j.with_report(Box::new(move |settled, best| {
            let mut st = self.status.lock().unwrap().clone();
            st.last = None;
            st.working = Some(Working {
                key: unit.key.text(),
                settled,
                best: best.map(|(g, v)| (game.guesses[g.index()], v)),
            });
            (self.progress)(&st);
        })))
    }

    /// The last step of [`run_units`] in a shared directory ([`split`]): with no unit
    /// left to take, this run joins the journaled units other live processes hold,
    /// largest first, one pass each (the guesses of the slices nobody has claimed).
    /// A unit written meanwhile is read; one nobody holds is left as it is (a rerun
    /// takes it).
    fn join_units(&self) -> Result<(), ProofError> {
        let Some(claims) = self.claims.as_ref().filter(|_| self.split) else {
            return Ok(());
        };
        for i in 0..self.plan.units.len() {
            if self.stop.load(Ordering::Relaxed) {
                return Err(SolveError::Interrupted.into());
            }
            let done = self.shared.lock().unwrap().1.contains_key(&i);
            if done || !self.journaled(i) || (!self.own[i] && !self.shared()) {
                continue;
            }
            if let Some(rec) = self.stored(i) {
                self.settled(i, rec, true, 0);
                continue;
            }
            let name = self.claim_name(i);
            match claims.claim(&name) {
                Ok(Some(_)) => {} // held by another live process: join it
                Ok(None) => {
                    claims.release(&name);
                    continue;
                }
                Err(_) => continue,
            }
            let Some(beta) = self.beta(i) else {
                continue;
            };
            let path = journal::joiner_part(self.plan, self.dir, i, &self.tag);
            let journal = self.journal(i, path.clone())?.eager();
            let r = split::pass(
                self.solver,
                self.plan,
                self.dir,
                i,
                claims,
                &name,
                beta as u32,
                &journal,
            );
            if std::fs::symlink_metadata(self.plan.path(self.dir, i)).is_ok() {
                // Written by its holder meanwhile: this journal is never read again.
                let _ = std::fs::remove_file(&path);
            }
            r?;
            let st = {
                let mut st = self.status.lock().unwrap();
                st.joined += 1;
                st.clone()
            };
            (self.progress)(&Status {
                last: None,
                working: None,
                ..st
            });
            if let Some(rec) = self.stored(i) {
                self.settled(i, rec, true, 0);
            }
        }
        Ok(())
    }
}

impl Job for UnitsJob<'_> {
    type Unit = usize;
    type Worker = ();
    type Record = Record;
    type Error = ProofError;

    fn worker(&self) {}

    fn stored(&self, i: usize) -> Option<Record> {
        // The queue holds the units without a record when the run started; another
        // process sharing the directory may have written one since.
        self.claims.as_ref()?;
        let path = self.plan.path(self.dir, i);
        std::fs::symlink_metadata(&path).ok()?;
        match read_record(self.solver.game(), self.table, self.plan, &path) {
            Ok(Read::Good(j, rec)) if j == i => Some(rec),
            _ => None,
        }
    }

    fn has_record(&self, _: usize) -> bool {
        false
    }

    fn claim(&self, i: usize) -> Result<bool, ProofError> {
        let Some(claims) = &self.claims else {
            return Ok(true);
        };
        if !self.own[i] && !self.shared() {
            return Ok(false); // no other shard works here: not this run's unit
        }
        match claims.claim(&self.claim_name(i)) {
            Ok(None) => {}
            Ok(Some(_)) => return Ok(false),
            Err(e) => return Err(ProofError::Io(FileIo(claims.path(&self.claim_name(i)), e))),
        }
        self.ours.lock().unwrap()[i] = true;
        if !self.own[i] {
            // A unit taken over: this run's share grows.
            let mut st = self.status.lock().unwrap();
            st.mine += 1;
            st.mine_candidates += self.plan.units[i].ids.len() as u64;
        }
        Ok(true)
    }

    fn release(&self, i: usize) {
        if let Some(claims) = &self.claims {
            claims.release(&self.claim_name(i));
        }
    }

    fn writable(&self) -> Result<(), ProofError> {
        if is_pack(self.dir) {
            return Err(ProofError::ReadOnlyPack(self.dir.into()));
        }
        Ok(())
    }

    fn solve(&self, _: &mut (), i: usize) -> Result<Option<Record>, ProofError> {
        let plan = self.plan;
        let unit = &plan.units[i];
        let Some(beta) = self.beta(i) else {
            return Ok(None); // nothing to do
        };
        let t = Instant::now();
        let journal = if self.journaled(i) {
            let j = self.journal(i, plan.part_path(self.dir, i))?;
            Some(if self.split { j.eager() } else { j })
        } else {
            None
        };
        if let (Some(claims), Some(j), true) = (&self.claims, &journal, self.split) {
            // In a directory processes share, its guesses are split with them.
            let name = self.claim_name(i);
            let v = loop {
                let whole = split::pass(
                    self.solver,
                    plan,
                    self.dir,
                    i,
                    claims,
                    &name,
                    beta as u32,
                    j,
                )?;
                if let Some(v) = whole {
                    break v;
                }
                // Others hold slices: once they are done, a pass settles the unit.
                split::wait_for_slices(self.dir, &name, WAIT_SLICES, self.stop);
                if self.stop.load(Ordering::Relaxed) {
                    return Err(SolveError::Interrupted.into());
                }
            };
            let outcome = settle(self.solver, self.table, unit, beta as u32, v, self.stop)?;
            return Ok(Some(Record {
                outcome,
                seconds: t.elapsed().as_secs_f64(),
            }));
        }
        let result = match plan.identity.goal {
            Goal::Total => solve_unit(
                self.solver,
                self.table,
                unit,
                beta as u32,
                self.stop,
                journal.as_ref(),
            ),
            Goal::Within => feasible_unit(self.solver, self.table, plan, unit, self.stop),
        };
        // Whatever happened, what the journal holds reaches the disk.
        if let Some(j) = &journal {
            j.flush();
        }
        let outcome = match (&journal, result) {
            (Some(j), Ok(o)) => j.error().map_or(Ok(o), Err),
            (_, r) => r,
        }?;
        Ok(Some(Record {
            outcome,
            seconds: t.elapsed().as_secs_f64(),
        }))
    }

    fn write(&self, i: usize, rec: &Record) -> Result<(), ProofError> {
        let path = self.plan.path(self.dir, i);
        let text = encode_record(self.solver.game(), self.plan, i, rec);
        write_entry(&path, text.as_bytes()).map_err(|e| ProofError::Io(FileIo(path, e)))
    }

    fn settled(&self, i: usize, rec: Record, reused: bool, _: usize) {
        let unit = &self.plan.units[i];
        if reused {
            // Written by another process meanwhile: known, not this run's work.
            let (bounds, done) = &mut *self.shared.lock().unwrap();
            bounds[i] = rec.outcome.bound().max(unit.cheap_bound);
            if done.insert(i, rec).is_none() {
                let mut st = self.status.lock().unwrap();
                st.done += 1;
                if self.own[i] {
                    st.mine_done += 1;
                    st.mine_candidates_done += unit.ids.len() as u64;
                }
                st.bound = self.plan.here + bounds.iter().sum::<u64>();
            }
            return;
        }
        if self.journaled(i) {
            // The unit's file is written: its journals are never read again (a failure
            // to remove one is harmless).
            journal::remove_parts(self.plan, self.dir, i);
        }
        let (bounds, done) = &mut *self.shared.lock().unwrap();
        bounds[i] = rec.outcome.bound().max(unit.cheap_bound);
        let seconds = rec.seconds;
        let result = rec.outcome.text();
        done.insert(i, rec);
        let mut st = self.status.lock().unwrap();
        st.done += 1;
        st.mine_done += 1;
        st.mine_candidates_done += unit.ids.len() as u64;
        st.bound = self.plan.here + bounds.iter().sum::<u64>();
        st.last = Some((unit.key.text(), result, seconds));
        st.working = None;
        (self.progress)(&st);
    }
}

/// One unit under the cutoff `beta`: exact (with its subtree, checked) when below it.
/// `stop` must be the solver's stop flag (`Solver::with_stop`). With a `journal`, the
/// guesses it holds are not searched again and each guess settled at the unit's top
/// is recorded in it.
pub fn solve_unit(
    solver: &Solver,
    table: &FeedbackTable,
    unit: &Unit,
    beta: u32,
    stop: &AtomicBool,
    journal: Option<&Journal>,
) -> Result<Outcome, ProofError> {
    let record = |g: GuessId, s: Settled| {
        if let Some(j) = journal {
            j.record(g, s);
        }
    };
    let log = journal.map(|j| TopLog {
        known: j.known(),
        record: &record,
        share: None,
    });
    let v = solver.cost_below(&unit.ids, unit.left, &unit.revealed, beta, log.as_ref())?;
    settle(solver, table, unit, beta, v, stop)
}

/// What a search of `unit` under `beta` that returned `v` proved: exact (with its
/// subtree, built and checked) when below `beta`, else a lower bound.
fn settle(
    solver: &Solver,
    table: &FeedbackTable,
    unit: &Unit,
    beta: u32,
    v: u32,
    stop: &AtomicBool,
) -> Result<Outcome, ProofError> {
    if v >= INFEASIBLE && beta >= INFEASIBLE {
        return Ok(Outcome::Infeasible);
    }
    if v >= beta {
        return Ok(Outcome::AtLeast((v as u64).max(unit.cheap_bound)));
    }
    let node = solver.build(&unit.ids, unit.left, &unit.revealed);
    if stop.load(Ordering::Relaxed) {
        // `build` returns an empty node when interrupted.
        return Err(SolveError::Interrupted.into());
    }
    match subtree_cost(table, &node, &unit.ids, unit.left) {
        Some(c) if c == v as u64 => Ok(Outcome::Exact(c, node)),
        other => Err(ProofError::Internal(
            unit.key.text(),
            format!("the built subtree costs {other:?}, the search said {v}"),
        )),
    }
}

/// One unit of a [`Goal::Within`] plan: can every candidate be found within the
/// guesses left? Feasible comes with a witness subtree, replayed before it is
/// returned. `solver` must use [`Objective::feasibility`] with the plan's depth, and
/// `stop` must be its stop flag.
pub fn feasible_unit(
    solver: &Solver,
    table: &FeedbackTable,
    plan: &Plan,
    unit: &Unit,
    stop: &AtomicBool,
) -> Result<Outcome, ProofError> {
    let config = solver.config();
    if config.objective != Objective::feasibility()
        || config.max_guesses != plan.identity.max_guesses
        || config.hard != plan.identity.hard
    {
        return Err(ProofError::Internal(
            unit.key.text(),
            "the solver does not search this claim".into(),
        ));
    }
    if unit.left == 0 {
        // A non-green bucket and no guess left.
        return Ok(Outcome::Infeasible);
    }
    let v = solver.cost_below(&unit.ids, unit.left, &unit.revealed, INFEASIBLE, None)?;
    if v >= INFEASIBLE {
        return Ok(Outcome::Infeasible);
    }
    let node = solver.build(&unit.ids, unit.left, &unit.revealed);
    if stop.load(Ordering::Relaxed) {
        return Err(SolveError::Interrupted.into());
    }
    match subtree_cost(table, &node, &unit.ids, unit.left) {
        Some(_) => Ok(Outcome::Feasible(node)),
        None => Err(ProofError::Internal(
            unit.key.text(),
            format!(
                "the built subtree does not find every candidate within {} guesses",
                unit.left
            ),
        )),
    }
}
