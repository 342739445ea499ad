//! A large unit's top level split between the processes that share a results
//! directory ([`pass`], [`Slices`]).
//!
//! Owns: the slices of a journaled unit (at least [`super::JOURNAL_MIN`] candidates,
//! total objective) and their claims, `DIR/claim.<KEY>.slice<N>.txt`. The unit's top
//! order (its second guesses sorted by bound, the order the search takes them in, the
//! same in every process) is cut into slices of [`SLICE`] positions. A pass is one
//! search of the unit under its cutoff in which a guess is expanded only by the
//! process that holds its slice: the first process to reach a slice claims it (as a
//! unit is claimed: [`crate::store::claim`], a dead holder's claim is taken over), a
//! slice another live process holds is left to it and the pass is then *partial*.
//! The unit's holder (the process with the unit's own claim) runs passes until one
//! is whole and writes the unit; a shard with no unit left to take *joins* a unit
//! another live process holds (`run_units`' last step): one pass, its guesses in a
//! journal of its own (`part.<KEY>.by-<TAG>.txt`, [`super::journal::joiner_part`]).
//!
//! Invariants: a pass reads every journal of the unit first and again when it claims
//! a slice and some journal changed ([`super::journal::facts`]), so a guess settled
//! by any process is never expanded again: only its exact cost or its bound is used
//! (an exact one is an incumbent; a bound at least the cutoff rules its guess out).
//! The best exact cost so far is also handed to the search as its incumbent
//! ([`Share::Mine`]), and a journal of a split unit is written at once when it gets
//! a new best ([`Journal::eager`]), so the processes prune with each other's best.
//! A pass holds its slices' claims until it ends and releases them only after its
//! guesses are in the journal on disk. A partial pass stores
//! nothing of the unit's state (`Solver::cost_below` with `TopLog::share`), so its
//! result is used for nothing; a whole pass's result is the plain search's: every
//! guess it did not expand was settled by a journal or bounded at least the cutoff
//! (the unit's value is the least exact cost over its guesses; its bound the least
//! bound), so the unit file does not depend on who searched what. The writer builds
//! the best guess's subtree itself (`Solver::build` re-solves the children of a best
//! guess another process settled). Claims decide nothing: a slice two processes
//! both search (a lease misjudged, or top orders that differ) only costs time.
//!
//! Trade-off, measured (release build, avx512, `--threads 1`, 2 cores shared with
//! other jobs, load average 5): `jiggy` on the NYT lists, hard mode, one bucket
//! (`BBBBB`, 1153 candidates, cost 3714) with nearly all the work, two shards at once
//! on one directory: the busiest shard's CPU time fell from 20.3 / 21.1 s to 13.8 /
//! 14.4 s, the whole proof's rose from 21.0 / 21.7 to 27.5 / 28.7 CPU-s (each process
//! has its own transposition table), docs/guide/cluster.md ("A skewed proof"). The
//! unit's top order is about 14,850 guesses whose expansion times are spread evenly
//! (0.5 to 0.9 s per 256 positions over the first 12,000 in a serial run); a slice
//! claim costs a file written with a sync, and a claim once read every journal:
//! slices of 4 spent 50 s claiming in one pass; [`SLICE`] = 128, with journals read
//! again only when changed, under 1 s.

use super::journal::{facts, Journal};
use super::outcome::ProofError;
use super::plan::Plan;
use crate::game::{Game, GuessId};
use crate::search::{Settled, Share, Solver, TopLog};
use crate::store::claim::{Claimer, Taken};
use crate::store::entry::FileIo;
use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Positions of the top order per slice.
pub const SLICE: usize = 128;

/// How often a pass re-reads the unit's journals while it meets slices others hold.
const REREAD: Duration = Duration::from_secs(1);

/// The slices one pass of one process claims: its [`TopLog::share`].
pub struct Slices<'a> {
    game: &'a Game,
    plan: &'a Plan,
    dir: &'a Path,
    i: usize,
    claims: &'a Claimer,
    /// The unit's claim name without `.txt`: slice `n` is `<stem>.slice<n>.txt`.
    stem: String,
    state: Mutex<SliceState>,
}

struct SliceState {
    /// What every journal of the unit held when last read, and their names, sizes
    /// and times then.
    facts: HashMap<GuessId, Settled>,
    /// The least exact cost in `facts`, and its guess.
    best: Option<(GuessId, u32)>,
    seen: Vec<Stamp>,
    read: Instant,
    /// The slices this pass holds, and those it found held elsewhere.
    held: BTreeSet<usize>,
    busy: BTreeSet<usize>,
    /// Set once a guess was left to another process.
    partial: bool,
    error: Option<ProofError>,
}

impl<'a> Slices<'a> {
    /// The slices of unit `i` (whose claim is named `claim_name`), knowing `facts`.
    pub fn new(
        game: &'a Game,
        plan: &'a Plan,
        dir: &'a Path,
        i: usize,
        claims: &'a Claimer,
        claim_name: &str,
        (facts, seen): (HashMap<GuessId, Settled>, Vec<Stamp>),
    ) -> Slices<'a> {
        Slices {
            game,
            plan,
            dir,
            i,
            claims,
            stem: claim_name
                .strip_suffix(".txt")
                .unwrap_or(claim_name)
                .to_string(),
            state: Mutex::new(SliceState {
                best: best_of(&facts),
                facts,
                seen,
                read: Instant::now(),
                held: BTreeSet::new(),
                busy: BTreeSet::new(),
                partial: false,
                error: None,
            }),
        }
    }

    fn name(&self, n: usize) -> String {
        slice_name(&self.stem, n)
    }

    /// Reads the unit's journals again if any changed since last read.
    fn reread(&self, st: &mut SliceState) {
        st.read = Instant::now();
        let seen = signature(self.plan, self.dir, self.i);
        if seen == st.seen {
            return;
        }
        match facts(self.game, self.plan, self.dir, self.i) {
            Ok(f) => {
                st.best = best_of(&f);
                st.facts = f;
                st.seen = seen;
            }
            Err(e) => {
                st.error.get_or_insert(e);
            }
        }
    }

    /// Who settles the guess `g` at position `k` of the top order, to be expanded
    /// under `cutoff` ([`TopLog::share`]).
    pub fn take(&self, k: usize, g: GuessId, cutoff: u32) -> Share {
        let n = k / SLICE;
        let mut st = self.state.lock().unwrap();

        let usable = |s: &Settled| match *s {
            Settled::Exact(_) => true,
            Settled::AtLeast(v) => v >= cutoff,
        };
        if !st.held.contains(&n) {
            // A slice found held elsewhere stays so for this pass (asked once).
            let claimed = if st.busy.contains(&n) {
                Ok(Some(Taken::Busy(None)))
            } else {
                self.claims.claim(&self.name(n))
            };
            match claimed {
                Ok(None) => {
                    st.held.insert(n);
                    // Taken over from a dead holder, or freed since the pass began.
                    self.reread(&mut st);
                }
                // Another process (or another run in this one) holds it.
                Ok(Some(_)) => {
                    st.busy.insert(n);
                    if st.read.elapsed() >= REREAD {
                        self.reread(&mut st);
                    }
                    if let Some(s) = st.facts.get(&g).filter(|s| usable(s)) {
                        return Share::Settled(*s);
                    }
                    st.partial = true;
                    return Share::Elsewhere;
                }
                Err(e) => {
                    let path = self.claims.path(&self.name(n));
                    st.error.get_or_insert(ProofError::Io(FileIo(path, e)));
                    st.partial = true;
                    return Share::Elsewhere;
                }
            }
        }
        match st.facts.get(&g).filter(|s| usable(s)) {
            Some(s) => Share::Settled(*s),
            None => Share::Mine(st.best),
        }
    }

    /// Releases the slices held (their guesses must be in the journal on disk).
    fn release(&self) {
        let held = std::mem::take(&mut self.state.lock().unwrap().held);
        for n in held {
            self.claims.release(&self.name(n));
        }
    }
}

/// The claim name of slice `n` of the unit whose claim is `claim_name`
/// (`BBBBB.txt` gives `BBBBB.slice3.txt`, the file `claim.BBBBB.slice3.txt`).
pub fn slice_name(claim_name: &str, n: usize) -> String {
    let stem = claim_name.strip_suffix(".txt").unwrap_or(claim_name);
    format!("{stem}.slice{n}.txt")
}

/// The least exact cost of `facts` and its guess.
fn best_of(facts: &HashMap<GuessId, Settled>) -> Option<(GuessId, u32)> {
    facts
        .iter()
        .filter_map(|(g, s)| match s {
            Settled::Exact(v) => Some((*v, *g)),
            Settled::AtLeast(_) => None,
        })
        .min()
        .map(|(v, g)| (g, v))
}

/// A journal's name, size and modification time.
pub type Stamp = (std::path::PathBuf, u64, Option<std::time::SystemTime>);

/// The stamps of every journal of unit `i`: what a re-read would find changed.
fn signature(plan: &Plan, dir: &Path, i: usize) -> Vec<Stamp> {
    super::journal::parts(plan, dir, i)
        .into_iter()
        .filter_map(|p| {
            let m = std::fs::metadata(&p).ok()?;
            Some((p, m.len(), m.modified().ok()))
        })
        .collect()
}

/// One pass over unit `i` under `cutoff`, recording in `journal`: `Some(v)` when it
/// is whole (`v` as `Solver::cost_below` says it), `None` when some guesses were
/// left to other processes. `claim_name` is the unit's claim name. The journal is
/// flushed and the slices released whatever happens.
#[allow(clippy::too_many_arguments)]
pub fn pass(
    solver: &Solver,
    plan: &Plan,
    dir: &Path,
    i: usize,
    claims: &Claimer,
    claim_name: &str,
    cutoff: u32,
    journal: &Journal,
) -> Result<Option<u32>, ProofError> {
    let game = solver.game();
    let unit = &plan.units[i];
    let seen = signature(plan, dir, i);
    let known = facts(game, plan, dir, i)?;
    let slices = Slices::new(
        game,
        plan,
        dir,
        i,
        claims,
        claim_name,
        (known.clone(), seen),
    );
    let record = |g: GuessId, s: Settled| journal.record(g, s);
    let share = |k: usize, g: GuessId, c: u32| slices.take(k, g, c);
    let log = TopLog {
        known: &known,
        record: &record,
        share: Some(&share),
    };
    let result = solver.cost_below(&unit.ids, unit.left, &unit.revealed, cutoff, Some(&log));
    journal.flush();
    slices.release();
    let v = result?;
    if let Some(e) = journal.error() {
        return Err(e);
    }
    let st = slices.state.into_inner().unwrap();
    if let Some(e) = st.error {
        return Err(e);
    }
    Ok((!st.partial).then_some(v))
}

/// Waits (at most `most`, polling) until no slice of the unit whose claim is
/// `claim_name` is claimed in `dir`, or `stop` is set.
pub fn wait_for_slices(
    dir: &Path,
    claim_name: &str,
    most: Duration,
    stop: &std::sync::atomic::AtomicBool,
) {
    let first = slice_name(claim_name, 0);
    let prefix = format!(
        "{}{}",
        crate::store::claim::PREFIX,
        first.strip_suffix("0.txt").unwrap_or(&first)
    );
    let t = Instant::now();
    while t.elapsed() < most && !stop.load(std::sync::atomic::Ordering::Relaxed) {
        let busy = std::fs::read_dir(dir).is_ok_and(|entries| {
            entries
                .filter_map(|e| e.ok())
                .any(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        });
        if !busy {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}
