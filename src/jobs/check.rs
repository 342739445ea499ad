//! Worst-case claims, settled exactly: "from opener W every answer is found within D
//! guesses" (optionally except some answers, which must still be found within the
//! game's limit), and "at least N answers need more than D guesses".
//!
//! Every claim is one run of the exact solver (`search`) with another
//! [`Objective`]: feasibility (any tree within D costs 0), `within_except` (cost = the
//! counted answers over D), or `min_over` (2^17 x answers over D + total guesses). So
//! a PROVED claim comes with a witness tree that `Tree::verify` accepts, and a
//! REFUTED one with evidence: the smallest opener bucket that no tree can finish in
//! time, whatever is played.
//!
//! [`sweep_within`] settles "some opener meets the claim" over many openers, keeping
//! one result file per opener (kind [`WITHIN_KIND`] of [`crate::store::results`]) so a sweep
//! resumes; any fault of the results directory or interruption ends it with the
//! error, never with a verdict. One opener is settled by
//! [`crate::search::Solver::settle_buckets`]: its buckets in rounds under a growing
//! work budget, so the cheapest failing bucket is found even behind a slow one; a
//! sweep may give an opener up after a time limit (stored as such, never as a
//! verdict). The fewest answers over D over every opener
//! (`--opener any --min-over D`) is [`crate::jobs::min_over`]'s sweep.
//!
//! One opener's claim can also be kept unit by unit, one file per opener bucket, so a
//! long proof resumes and shards (`check --opener W --max-guesses D --results DIR`):
//! that is [`crate::jobs::proof`] with the objective [`crate::jobs::proof::Goal::Within`], the
//! same feasibility search per bucket as [`within`], whose verdict it must equal.
//!
//! A depth claim may also be refuted on a subset of the answers (`check --subset`):
//! a tree that finds every answer within D, read for the subset's answers only, finds
//! those within D too (normal and hard mode: the same guesses after the same
//! feedback), so no tree for the subset means none for the list. Answers that differ
//! in one position only ([`largest_groups`], e.g. `_ills`) make small subsets that
//! are hard to finish: on the big game the 49 answers of its three largest groups
//! already refute "within 5" for every opener.

use crate::game::candidates::Candidates;
use crate::game::feedback::Feedback;
use crate::game::hard::Revealed;
use crate::game::table::FeedbackTable;
use crate::game::{AnswerId, Game, GuessId};
use crate::jobs::driver::{Job, Queue};
use crate::search::bound::{Objective, OVER_PENALTY};
use crate::search::{Buckets, Config, SolveError, Solver};
use crate::store::results::{Kind, ResultFile, ResultsDir, ResultsError};
use crate::tree::Tree;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

pub use crate::game::GAME_LIMIT;

/// The `k` largest groups of answers that agree in four positions and differ in the
/// fifth (pattern such as `_ills`, and its answers), largest first (ties: pattern
/// order). Groups may overlap (`bills` is in `_ills` and `b_lls`).
pub fn largest_groups(game: &Game, k: usize) -> Vec<(String, Vec<AnswerId>)> {
    let mut groups: BTreeMap<[u8; 5], Vec<AnswerId>> = BTreeMap::new();
    for a in game.answer_ids() {
        let w = game.answers[a.index()].0;
        for p in 0..5 {
            let mut pat = w;
            pat[p] = b'_';
            groups.entry(pat).or_default().push(a);
        }
    }
    let mut list: Vec<([u8; 5], Vec<AnswerId>)> =
        groups.into_iter().filter(|(_, v)| v.len() > 1).collect();
    list.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
    list.into_iter()
        .take(k)
        .map(|(p, v)| (String::from_utf8_lossy(&p).into_owned(), v))
        .collect()
}

/// A finished solve's tree is valid by the solver's construction (checked against
/// the reference replay by the tests); a failure here is a solver bug, not bad input.
const SOLVED_TREES_ARE_VALID: &str = "the solver's trees are valid";

/// A state no tree can finish within the guesses left: the evidence of a refutation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evidence {
    /// The opener's feedback that leads to the state.
    pub feedback: Feedback,
    pub candidates: Vec<AnswerId>,
    /// Guesses left after the opener.
    pub left: u8,
}

/// The verdict on a depth claim.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// A tree meeting the claim.
    Proved(Tree),
    /// No tree meets it; `over` is the least number of answers (not exempt) that
    /// must need more than D guesses when that was computed (`--except`).
    Refuted {
        evidence: Option<Evidence>,
        least_over: Option<u64>,
    },
}

/// The answer to `--min-over D`.
#[derive(Clone, Debug)]
pub struct MinOver {
    /// Answers needing more than D guesses in the optimal tree (the least possible
    /// number; ties broken by the least total guesses).
    pub over: Vec<AnswerId>,
    pub total: u64,
    pub tree: Tree,
}

/// Decides whether a tree from `opener` finds every answer within `depth` guesses
/// (`exempt`: answers that may take up to the game's six instead).
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use wordle_tree::game::{table::FeedbackTable, word::Word, Game, ListSource};
/// use wordle_tree::jobs::check::{within, Verdict};
///
/// let game = Game::load(&ListSource::Named("wordle".into())).unwrap();
/// let table = FeedbackTable::build(&game);
/// let salet = game.guess_id(Word::parse("salet").unwrap()).unwrap();
/// let stop = AtomicBool::new(false);
/// // Every answer within 5 guesses from salet: proved, with a witness tree.
/// let verdict = within(&game, &table, salet, 5, false, &[], &stop).unwrap();
/// assert!(matches!(verdict, Verdict::Proved(ref t) if t.verify(&game).max_depth() <= 5));
/// ```
pub fn within(
    game: &Game,
    table: &FeedbackTable,
    opener: GuessId,
    depth: u8,
    hard: bool,
    exempt: &[AnswerId],
    stop: &AtomicBool,
) -> Result<Verdict, SolveError> {
    if exempt.is_empty() {
        let config = Config {
            max_guesses: depth,
            hard,
            objective: Objective::feasibility(),
            ..Config::default()
        };
        let solver = Solver::new(game, table, config).with_stop(stop);
        let ids: Vec<AnswerId> = game.all_answer_ids();
        let root = Revealed::default();
        match solver.first_infeasible_bucket(opener, &ids, depth, &root)? {
            Some((feedback, candidates)) => Ok(Verdict::Refuted {
                evidence: Some(Evidence {
                    feedback,
                    candidates,
                    left: depth - 1,
                }),
                least_over: None,
            }),
            None => {
                let (_, root) = solver.solve_opener(opener, &|_, _, _| {})?;
                Ok(Verdict::Proved(
                    Tree::new(game, hard, depth, root).expect(SOLVED_TREES_ARE_VALID),
                ))
            }
        }
    } else {
        let mask = Arc::new(Candidates::from_ids(game.n_answers(), exempt));
        let config = Config {
            max_guesses: GAME_LIMIT.max(depth),
            hard,
            objective: Objective::within_except(depth, GAME_LIMIT.max(depth), mask),
            ..Config::default()
        };
        let solver = Solver::new(game, table, config).with_stop(stop);
        match solver.solve_opener(opener, &|_, _, _| {}) {
            Ok((0, root)) => Ok(Verdict::Proved(
                Tree::new(game, hard, GAME_LIMIT.max(depth), root).expect(SOLVED_TREES_ARE_VALID),
            )),
            Ok((over, _)) => Ok(Verdict::Refuted {
                evidence: None,
                least_over: Some(over),
            }),
            Err(SolveError::Infeasible(_)) => Ok(Verdict::Refuted {
                evidence: None,
                least_over: None,
            }),
            Err(e) => Err(e),
        }
    }
}

/// Only whether `opener` meets "every answer within `depth`" (the solver's limit):
/// the cheapest form, for sweeping many openers. Buckets are tried smallest first and
/// the first that fails settles it (measured: `barky` within 4 is refuted in 0.4 s
/// this way, 2.2 s when the largest bucket goes first).
pub fn opener_within(solver: &Solver, opener: GuessId) -> Result<bool, SolveError> {
    Ok(opener_within_by(solver, opener, None)?.expect("no deadline, no giving up"))
}

/// [`opener_within`], giving up once `give_up` has passed (`Ok(None)`: undecided).
pub fn opener_within_by(
    solver: &Solver,
    opener: GuessId,
    give_up: Option<std::time::Instant>,
) -> Result<Option<bool>, SolveError> {
    let ids: Vec<AnswerId> = solver.game().all_answer_ids();
    let depth = solver.config().max_guesses;
    Ok(
        match solver.settle_buckets(opener, &ids, depth, &Revealed::default(), give_up)? {
            Buckets::Fails(..) => Some(false),
            Buckets::AllFinish => Some(true),
            Buckets::GaveUp => None,
        },
    )
}

/// A solver for [`opener_within`] sweeps.
pub fn within_solver<'a>(
    game: &'a Game,
    table: &'a FeedbackTable,
    depth: u8,
    hard: bool,
    stop: &'a AtomicBool,
) -> Solver<'a> {
    let config = Config {
        max_guesses: depth,
        hard,
        objective: Objective::feasibility(),
        memory_limit: 2 << 30,
        ..Config::default()
    };
    Solver::new(game, table, config).with_stop(stop)
}

/// The least number of answers any tree from `opener` must leave needing more than
/// `depth` guesses (within the game's six), which they are in an optimal tree (ties
/// broken by the least total), and that tree.
pub fn min_over(
    game: &Game,
    table: &FeedbackTable,
    opener: GuessId,
    depth: u8,
    hard: bool,
    stop: &AtomicBool,
) -> Result<MinOver, SolveError> {
    let config = Config {
        max_guesses: GAME_LIMIT,
        hard,
        objective: Objective::min_over(depth, GAME_LIMIT),
        ..Config::default()
    };
    let solver = Solver::new(game, table, config).with_stop(stop);
    let (cost, root) = solver.solve_opener(opener, &|_, _, _| {})?;
    let tree = Tree::new(game, hard, GAME_LIMIT, root).expect(SOLVED_TREES_ARE_VALID);
    let replay = tree.verify(game);
    let over: Vec<AnswerId> = game
        .answer_ids()
        .filter(|&a| replay.depths[a.index()] > depth as u32)
        .collect();
    debug_assert_eq!(cost / OVER_PENALTY as u64, over.len() as u64);
    debug_assert_eq!(cost % OVER_PENALTY as u64, replay.total());
    Ok(MinOver {
        over,
        total: replay.total(),
        tree,
    })
}

/// The kind of result `check --opener any` stores, one file per opener
/// (`OPENER.MODE.LISTS.withinD`, fields `opener`, `result=proved|refuted|gave-up`,
/// `seconds`: the time taken, or for `gave-up` the time limit).
pub const WITHIN_KIND: Kind = Kind {
    name: "within",
    file_tag: "within",
};

pub use crate::jobs::driver::SweepError;

/// What [`sweep_within`] settled.
#[derive(Debug, Default)]
pub struct Sweep {
    /// Openers settled and whether each meets the claim; every opener of the list
    /// unless one met it and the sweep stops at a success.
    pub settled: Vec<(GuessId, bool)>,
    /// Openers given up (`give_up`): undecided; written to the results directory
    /// as `result=gave-up` with the time limit, so a sweep with the same limit
    /// passes them by and one with a longer limit (or none) tries them again.
    pub gave_up: Vec<GuessId>,
    /// How many of them came from the results directory.
    pub reused: usize,
    /// Of `settled` and `gave_up`, how many are other shards' openers: taken over
    /// once this sweep's own were done (see [`crate::jobs::driver::balance`]), or read from
    /// the records other shards left in the directory.
    pub taken_over: usize,
    /// This sweep's own openers it did not settle: another live process of a shared
    /// directory held each (it settles them; a rerun without `--shard` reads them).
    pub left: Vec<GuessId>,
}

/// What a results directory of kind [`WITHIN_KIND`] already holds, by opener word.
#[derive(Debug, Default)]
pub struct Finished {
    /// Settled openers (`true`: meets the claim).
    pub settled: BTreeMap<String, bool>,
    /// Openers given up after this many seconds (`result=gave-up`): not settled; a
    /// sweep with the same or a shorter `give_up` does not search them again.
    pub gave_up: BTreeMap<String, f64>,
}

/// The openers in a results directory of kind [`WITHIN_KIND`] (see [`Finished`]),
/// and one warning per file that could not be used.
pub fn finished_within(dir: &ResultsDir) -> Result<(Finished, Vec<String>), ResultsError> {
    let scan = dir.scan()?;
    let mut warnings = scan.warnings;
    let mut finished = Finished::default();
    for (stem, f) in &scan.files {
        match read_within(stem, f) {
            Some(r) if r.result == Within::GaveUp => {
                finished.gave_up.insert(stem.clone(), r.seconds);
            }
            Some(r) => {
                finished
                    .settled
                    .insert(stem.clone(), r.result == Within::Proved);
            }
            None => warnings.push(format!(
                "{}: malformed result file: needs opener={stem} and result=proved, refuted or gave-up (with seconds) (ignored)",
                dir.file(stem).display()
            )),
        }
    }
    Ok((finished, warnings))
}

/// The record of opener `stem` in its result file `f` (`None`: malformed: another
/// opener, an unknown result, or a given-up opener without its time limit).
fn read_within(stem: &str, f: &ResultFile) -> Option<WithinRecord> {
    let seconds = f.get("seconds").and_then(|s| s.parse::<f64>().ok());
    let result = match (f.get("result")?, seconds) {
        ("proved", _) => Within::Proved,
        ("refuted", _) => Within::Refuted,
        ("gave-up", Some(_)) => Within::GaveUp,
        _ => return None,
    };
    (f.get("opener")? == stem).then_some(WithinRecord {
        result,
        seconds: seconds.unwrap_or(0.0),
    })
}

/// `check --opener any`: whether some opener of `openers` meets "every answer within
/// `depth`", on [`crate::jobs::driver`]'s workers (one shared solver), stopping at
/// the first that does when `stop_at_success` (else every opener is settled: on a
/// subset of the answers a success decides nothing, so the sweep lists them all).
/// With `give_up`, an opener still unsettled after searching that long is left
/// undecided ([`Sweep::gave_up`]), so that a few hard openers do not hold up
/// thousands of easy ones. Openers in `finished` (see [`finished_within`]) are not
/// searched again; with `dir`, each opener searched is written to it. A write fault
/// or an interruption stops the sweep with the error: no verdict is ever drawn from a
/// partial sweep.
///
/// `others` are the openers of the other shards of a sharded sweep: with a results
/// directory that other shards use too, this sweep takes over those that no process
/// has started once its own are done, and leaves its own that another live process
/// holds to that process ([`crate::jobs::driver::balance`]; [`Sweep::taken_over`],
/// [`Sweep::left`]). Empty: this sweep's openers only, as alone.
#[allow(clippy::too_many_arguments)]
pub fn sweep_within(
    game: &Game,
    table: &FeedbackTable,
    openers: &[GuessId],
    others: &[GuessId],
    depth: u8,
    hard: bool,
    dir: Option<&ResultsDir>,
    finished: &Finished,
    stop_at_success: bool,
    give_up: Option<std::time::Duration>,
    stop: &AtomicBool,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Sweep, SweepError> {
    let job = WithinJob {
        game,
        solver: within_solver(game, table, depth, hard, stop),
        dir,
        finished,
        stop_at_success,
        give_up,
        progress,
        found: AtomicBool::new(false),
        sweep: Mutex::new(Vec::new()),
    };
    let queue = Queue::singles((0..openers.len()).map(|i| (i, openers[i])).collect());
    // Other shards' openers rank after this sweep's own in the report.
    let others: Vec<(usize, GuessId)> = (openers.len()..).zip(others.iter().copied()).collect();
    let shared = dir.and_then(|d| d.shared_path());
    let threads = rayon::current_num_threads();
    let ran = crate::jobs::driver::balance::run(&job, &queue, &others, shared, threads, stop)?;
    let mut all = job.sweep.into_inner().unwrap();
    all.sort_by_key(|&(i, ..)| i);
    let mut sweep = Sweep {
        reused: ran.reused,
        ..Sweep::default()
    };
    let mut own = vec![false; openers.len()];
    for (i, g, r) in all {
        match own.get_mut(i) {
            Some(seen) => *seen = true,
            None => sweep.taken_over += 1,
        }
        match r.result {
            Within::Proved => sweep.settled.push((g, true)),
            Within::Refuted => sweep.settled.push((g, false)),
            Within::GaveUp => sweep.gave_up.push(g),
        }
    }
    sweep.gave_up.sort();
    let found = sweep.settled.iter().any(|s| s.1);
    if !(stop_at_success && found) {
        sweep.left = (openers.iter().zip(&own))
            .filter(|(_, &seen)| !seen)
            .map(|(&g, _)| g)
            .collect();
    }
    debug_assert!(
        (stop_at_success && found)
            || sweep.settled.len() + sweep.gave_up.len() + sweep.left.len()
                == openers.len() + sweep.taken_over,
        "a sweep without a success settles every opener, gives it up or leaves it to its holder"
    );
    debug_assert!(
        !others.is_empty() || sweep.left.is_empty(),
        "an unshared sweep leaves no opener to another process"
    );
    Ok(sweep)
}

/// One opener's record in a [`WITHIN_KIND`] directory.
#[derive(Clone, Copy, Debug, PartialEq)]
struct WithinRecord {
    result: Within,
    /// The time taken, or for [`Within::GaveUp`] the time limit.
    seconds: f64,
}

/// `result=proved|refuted|gave-up`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Within {
    Proved,
    Refuted,
    GaveUp,
}

impl Within {
    fn of(ok: bool) -> Within {
        if ok {
            Within::Proved
        } else {
            Within::Refuted
        }
    }
}

/// `check --opener any --max-guesses D` as a [`Job`]: one unit per opener (with its
/// position in the list, so the openers settled are reported in list order).
struct WithinJob<'a> {
    game: &'a Game,
    solver: Solver<'a>,
    dir: Option<&'a ResultsDir>,
    finished: &'a Finished,
    stop_at_success: bool,
    give_up: Option<std::time::Duration>,
    progress: &'a (dyn Fn(usize) + Sync),
    found: AtomicBool,
    sweep: Mutex<Vec<(usize, GuessId, WithinRecord)>>,
}

impl WithinJob<'_> {
    /// A given-up record that settles its opener for this sweep: given up before
    /// under this sweep's limit or a longer one, so passed by (a shorter one, or no
    /// limit now: searched again).
    fn passed_by(&self, r: WithinRecord) -> Option<WithinRecord> {
        let seconds = r.seconds;
        self.give_up
            .is_some_and(|d| d.as_secs_f64() <= seconds)
            .then_some(r)
    }
}

impl Job for WithinJob<'_> {
    type Unit = (usize, GuessId);
    type Worker = ();
    type Record = WithinRecord;
    type Error = SweepError;

    fn worker(&self) {}

    fn stored(&self, (_, g): (usize, GuessId)) -> Option<WithinRecord> {
        let word = self.game.guesses[g.index()];
        if let Some(&ok) = self.finished.settled.get(word.as_str()) {
            let result = Within::of(ok);
            return Some(WithinRecord {
                result,
                seconds: 0.0,
            });
        }
        let &seconds = self.finished.gave_up.get(word.as_str())?;
        self.passed_by(WithinRecord {
            result: Within::GaveUp,
            seconds,
        })
    }

    fn has_record(&self, (_, g): (usize, GuessId)) -> bool {
        // Only settled openers: one given up may be searched again.
        self.dir.is_none()
            || self
                .finished
                .settled
                .contains_key(self.game.guesses[g.index()].as_str())
    }

    fn writable(&self) -> Result<(), SweepError> {
        match self.dir {
            Some(dir) => Ok(dir.writable()?),
            None => Ok(()),
        }
    }

    fn solve(
        &self,
        _: &mut (),
        (_, g): (usize, GuessId),
    ) -> Result<Option<WithinRecord>, SweepError> {
        let t = std::time::Instant::now();
        let found = opener_within_by(&self.solver, g, self.give_up.map(|d| t + d))?;
        Ok(Some(match found {
            Some(ok) => WithinRecord {
                result: Within::of(ok),
                seconds: t.elapsed().as_secs_f64(),
            },
            None => WithinRecord {
                result: Within::GaveUp,
                seconds: self
                    .give_up
                    .expect("only a deadline gives up")
                    .as_secs_f64(),
            },
        }))
    }

    fn write(&self, (_, g): (usize, GuessId), r: &WithinRecord) -> Result<(), SweepError> {
        let Some(dir) = self.dir else { return Ok(()) };
        let word = self.game.guesses[g.index()];
        let result = match r.result {
            Within::Proved => "proved",
            Within::Refuted => "refuted",
            Within::GaveUp => "gave-up",
        };
        let mut f = ResultFile::new(dir.header().clone());
        f.set("opener", word)
            .set("result", result)
            .set("seconds", format!("{:.3}", r.seconds));
        Ok(dir.write(word.as_str(), &f)?)
    }

    fn settled(&self, (i, g): (usize, GuessId), r: WithinRecord, _: bool, done: usize) {
        if r.result == Within::Proved && self.stop_at_success {
            self.found.store(true, Ordering::Relaxed);
        }
        self.sweep.lock().unwrap().push((i, g, r));
        (self.progress)(done);
    }

    fn halted(&self) -> bool {
        self.found.load(Ordering::Relaxed)
    }
}

/// Shards of one sweep sharing a results directory ([`crate::jobs::driver::balance`]): an
/// opener's claim (`claim.WORD.txt`, as the other sweeps') and record are named by
/// its word.
impl crate::jobs::driver::balance::Shared for WithinJob<'_> {
    fn unit_name(&self, (_, g): (usize, GuessId)) -> String {
        format!("{}.txt", self.game.guesses[g.index()])
    }

    fn has_file(&self, (_, g): (usize, GuessId)) -> bool {
        let word = self.game.guesses[g.index()];
        self.dir.is_some_and(|d| d.file(word.as_str()).exists())
    }

    fn fresh(&self, (_, g): (usize, GuessId)) -> Option<WithinRecord> {
        let word = self.game.guesses[g.index()];
        let r = read_within(word.as_str(), &self.dir?.read_stem(word.as_str())?)?;
        match r.result {
            Within::GaveUp => self.passed_by(r),
            _ => Some(r),
        }
    }
}
