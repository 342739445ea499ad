//! `pair --best`: the best fixed two-word start, proved: over every first guess and
//! every second guess, the least exact total of `crate::analysis::pair` (the first two
//! guesses fixed whatever the feedback, the rest optimal), and every pair that
//! attains it.
//!
//! Owns the sweep (one unit of [`crate::jobs::driver`] per first guess), its result
//! files (kind [`KIND`] of [`crate::store::results`], one small file per first guess
//! named `FIRST.MODE.LISTS.pairN`, written atomically through [`driver::SweepDir`], so
//! a sweep resumes and shards
//! merge by sharing the directory; pack them with `wordle-tree pack`) and the verdict.
//! Uses `analysis::pair` (the pair's parts and bounds), a module of the same layer.
//!
//! **One unit, one first guess `g1`.** Its record is the least total over every
//! second guess when that is below the cutoff (with every second guess attaining
//! it), else a proved lower bound at least the cutoff. Three levels, each admissible:
//!
//! 1. **The first guess's own total.** A pair is one tree from `g1` (in hard mode
//!    too: where the second guess is illegal the pair goes on optimally, which is
//!    legal), so `pair(g1, g2) >= total(g1)`, the exact opener total: from the opener
//!    table when one is given (`tables/<list>.<mode>.csv`), else from
//!    [`Solver::opener_cost`] under the cutoff. A first guess whose total reaches
//!    the cutoff is dismissed with it, no second guess looked at. In normal mode
//!    also `total(g1) + s - 1`, `s` its buckets of one or two answers
//!    ([`small_bucket_floor`]: the pair pays one more than the optimum on each such
//!    bucket but the one holding `g2`).
//! 2. **Counting parts** ([`second_bounds`]): for every second guess,
//!    `n + sum over buckets b (|b| + sum over parts T (2|T| - 1))`, one pass over
//!    the answers per second guess, left early once it must reach the cutoff.
//!    Second guesses are taken in order of this bound; the first one at or above
//!    the cutoff ends the unit (every later one is too).
//! 3. **The parts' scans, then search** ([`pair_below`], [`Solver::parts_cost`]):
//!    each part scanned (its least per-guess bound), the pair dismissed as soon as
//!    the sum reaches the cutoff; otherwise the parts are searched with the slack the
//!    others leave, which gives the exact total or a bound at least the cutoff.
//!
//! **Cutoff.** The least exact pair total known plus one (seeded by `--cutoff N` when
//! lower), shared by the workers and lowered the moment a pair is solved exactly
//! (not only when its unit ends), so pairs tied with the best are solved exactly and
//! every other pair is dismissed with a bound above the best. Inside a unit the
//! cutoff is also at most its own best + 1, so the unit's record is the exact least
//! over its second guesses with all its ties. If the shared cutoff falls below a
//! unit's own best meanwhile, the unit records a bound (its best and its dismissed
//! pairs' least bound) instead: still a fact.
//!
//! **Order.** First guesses by their total (the opener table), else by the cheap
//! one-level estimate, the [`PREPASS`] best of the whole list first in every shard,
//! so a good cutoff comes early; the cutoff soon leaves only the first guesses below
//! it to look at. Each worker keeps one [`Solver`] for its life: the parts of every
//! second guess of one first guess are subsets of the same buckets, and the
//! transposition table settles the ones met again.
//!
//! **Verdict** ([`verdict`]): with every first guess settled, the least exact total
//! `m` is the best pair's when every dismissed first guess's bound is at least `m`,
//! and the pairs listed at `m` are all of them when every bound is above `m`.
//!
//! Measured (docs/guide/bounds.md, original lists, normal mode): `parse clint` 8325
//! proved the best in 340 thread CPU-s; level 1 and 1b leave 4690 first guesses, the
//! count bound 31320 of their 60.8 M pairs, the scans 9; 0.046 s median per first
//! guess, nearly all of it the count bound.
//!
//! Invariants: the best pair equals the minimum over every pair of
//! `analysis::pair::pair_value` (tests: exhaustive evaluation on small random games,
//! both modes; serial = sharded = resumed).

use crate::analysis::pair::{pair_below, second_bounds, small_bucket_floor};
use crate::game::table::FeedbackTable;
use crate::game::word::Word;
use crate::game::{Game, GuessId};
use crate::jobs::driver::solver_sweep::{self, Step};
use crate::jobs::driver::{self, cutoff_text, least, order_by_estimate, seconds_text, Head, Task};
pub use crate::jobs::driver::{Outcome, Place, Standing, SweepError, Tally};
use crate::search::bound::INFEASIBLE;
use crate::search::{Config, OpenerCost, Solver};
use crate::store::results::{Kind, ResultFile};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};

/// The kind of result stored, one file per first guess (`FIRST.MODE.LISTS.pairN`).
pub const KIND: Kind = Kind {
    name: "best-pair",
    file_tag: "pair",
};

/// How many of the most promising first guesses of the whole list every shard runs
/// first.
pub const PREPASS: usize = 2;

/// How far the second guesses of one first guess went (module doc, levels 2 and 3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Levels {
    /// Second guesses looked at (0 when the first guess's total dismissed it).
    pub seconds: u64,
    /// Of those, past the count bound (their parts scanned).
    pub past_count: u64,
    /// Of those, past the parts' scans (some part searched).
    pub past_scan: u64,
    /// Of those, solved exactly (below the cutoff).
    pub exact: u64,
}

impl Levels {
    pub fn add(&mut self, o: &Levels) {
        self.seconds += o.seconds;
        self.past_count += o.past_count;
        self.past_scan += o.past_scan;
        self.exact += o.exact;
    }

    fn text(&self) -> String {
        format!(
            "{} {} {} {}",
            self.seconds, self.past_count, self.past_scan, self.exact
        )
    }

    fn parse(s: &str) -> Option<Levels> {
        let v: Vec<u64> = s
            .split(' ')
            .map(|x| x.parse().ok())
            .collect::<Option<_>>()?;
        match v[..] {
            [seconds, past_count, past_scan, exact]
                if past_count <= seconds && past_scan <= past_count && exact <= past_count =>
            {
                Some(Levels {
                    seconds,
                    past_count,
                    past_scan,
                    exact,
                })
            }
            _ => None,
        }
    }
}

/// One first guess's stored result.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The first guess (`head.opener`), the least pair total from it (exact) or a
    /// bound, the cutoff it was searched under at the end, and its times.
    pub head: Head,
    /// With an exact outcome: every second guess attaining it, alphabetical.
    pub best_seconds: Vec<Word>,
    pub levels: Levels,
}

/// The best-pair result files of one game, mode and guess limit in a directory.
pub type PairsDir<'a> = driver::SweepDir<'a, Record>;

impl driver::SweepRecord for Record {
    const KIND: Kind = KIND;

    fn read(game: &Game, stem: &str, f: &ResultFile) -> Result<(GuessId, Record), String> {
        let get = |k: &str| f.get(k).ok_or_else(|| format!("missing '{k}'"));
        let (g, head) = Head::read_from(f, game, stem, "first", "first guess")?;
        let best_seconds = match get("best_seconds")? {
            "-" => Vec::new(),
            s => s
                .split(',')
                .map(|w| driver::allowed_guess(game, w, "second guess").map(|(_, w)| w))
                .collect::<Result<Vec<_>, _>>()?,
        };
        if matches!(head.outcome, Outcome::Exact(_)) == best_seconds.is_empty() {
            return Err("an exact result names its second guesses, and only it".into());
        }
        let levels = Levels::parse(get("levels")?).ok_or_else(|| {
            "'levels' is not four counts, each at most the one before".to_string()
        })?;
        let r = Record {
            head,
            best_seconds,
            levels,
        };
        Ok((g, r))
    }

    fn opener(&self) -> Word {
        self.head.opener
    }

    /// The fields in the file's own order (the head's, with `best_seconds` after
    /// `result` and `levels` after `cutoff`).
    fn fill(&self, f: &mut ResultFile) {
        let seconds = if self.best_seconds.is_empty() {
            "-".to_string()
        } else {
            let words: Vec<String> = self.best_seconds.iter().map(|w| w.to_string()).collect();
            words.join(",")
        };
        let h = &self.head;
        f.set("first", h.opener)
            .set("result", h.outcome.text())
            .set("best_seconds", seconds)
            .set("cutoff", cutoff_text(h.cutoff))
            .set("levels", self.levels.text())
            .set("seconds", seconds_text(h.seconds))
            .set("cpu_seconds", seconds_text(h.cpu_seconds));
    }
}

/// Settings of one sweep.
#[derive(Clone, Debug)]
pub struct Settings {
    pub hard: bool,
    pub max_guesses: u8,
    /// A seed for the cutoff (the least exact total + 1 replaces it when lower).
    pub cutoff: Option<u64>,
    pub threads: usize,
    /// Memory for the transposition tables and scratch, shared equally by the workers.
    pub memory_limit: usize,
}

/// Each first guess's exact opener total (`None`: not known, solved in its unit),
/// indexed by guess id; `Some(u64::MAX)` for one that cannot finish.
pub type Floors = Vec<Option<u64>>;

/// What a sweep did.
pub type Summary = driver::Summary<Record>;

/// The order first guesses are taken in: the [`PREPASS`] best of `all` first, then
/// the rest of `mine`, each by its floor (known totals first), then by estimate.
pub fn plan(
    game: &Game,
    table: &FeedbackTable,
    floors: Option<&Floors>,
    all: &[GuessId],
    mine: &[GuessId],
    max_guesses: u8,
) -> Vec<GuessId> {
    let order = |set: &[GuessId]| -> Vec<GuessId> {
        let by_estimate = order_by_estimate(game, table, set, max_guesses);
        let rank: BTreeMap<GuessId, usize> = by_estimate
            .iter()
            .enumerate()
            .map(|(i, &g)| (g, i))
            .collect();
        let mut v = by_estimate;
        v.sort_by_key(|g| {
            (
                floors.and_then(|f| f[g.index()]).unwrap_or(u64::MAX),
                rank[g],
            )
        });
        v
    };
    let first: Vec<GuessId> = order(all).into_iter().take(PREPASS).collect();
    let rest: Vec<GuessId> = mine
        .iter()
        .copied()
        .filter(|g| !first.contains(g))
        .collect();
    first.into_iter().chain(order(&rest)).collect()
}

/// Settles every first guess of `place.mine` (after the [`PREPASS`] best of
/// `place.all`), reusing and writing the result files of `place.dir`; `floors`: each
/// first guess's known opener total (level 1), if any.
pub fn sweep(
    place: Place<'_, PairsDir<'_>>,
    floors: Option<&Floors>,
    settings: &Settings,
) -> Result<Summary, SweepError> {
    let (game, table) = (place.game, place.table);
    let plan = plan(
        game,
        table,
        floors,
        place.all,
        place.mine,
        settings.max_guesses,
    );
    let hard = settings.hard;
    let config = |threads| Config {
        max_guesses: settings.max_guesses,
        hard,
        memory_limit: settings.memory_limit / threads,
        ..Config::default()
    };
    let step = |first: Option<u64>| PairStep {
        game,
        table,
        floors,
        hard,
        live: AtomicU64::new(first.unwrap_or(u64::MAX)),
    };
    solver_sweep::sweep(place, plan, settings.cutoff, settings.threads, config, step)
}

/// The sweep's [`Step`]: one first guess's unit.
struct PairStep<'a> {
    game: &'a Game,
    table: &'a FeedbackTable,
    floors: Option<&'a Floors>,
    hard: bool,
    /// The least exact pair total + 1 found by any worker, lowered mid-unit.
    live: AtomicU64,
}

impl PairStep<'_> {
    fn cutoff(&self, given: Option<u64>) -> Option<u64> {
        let live = self.live.load(Ordering::Relaxed);
        let c = given.unwrap_or(u64::MAX).min(live);
        (c != u64::MAX).then_some(c)
    }
}

impl<'a> Step<'a> for PairStep<'_> {
    type Record = Record;

    fn outcome(r: &Record) -> Outcome {
        r.head.outcome
    }

    fn solve(&self, solver: &mut Solver<'a>, t: &Task) -> Result<Record, SweepError> {
        let (g1, given, clock) = (t.opener, t.cutoff, &t.clock);
        let inf = INFEASIBLE as u64;
        let mut levels = Levels::default();
        let done = |outcome, best_seconds, cutoff, levels| Record {
            head: Head::timed(self.game.guesses[g1.index()], outcome, cutoff, clock),
            best_seconds,
            levels,
        };
        // Level 1: the first guess's own total.
        let c = self.cutoff(given);
        let floor = match self.floors.and_then(|f| f[g1.index()]) {
            Some(v) => v,
            None => match solver.opener_cost(g1, c)? {
                OpenerCost::Exact(v) | OpenerCost::AtLeast(v) if v >= inf => u64::MAX,
                OpenerCost::Exact(v) => v,
                OpenerCost::AtLeast(v) => v,
            },
        };
        if floor == u64::MAX {
            return Ok(done(Outcome::CannotFinish, vec![], c, levels));
        }
        if c.is_some_and(|c| floor >= c) {
            return Ok(done(Outcome::AtLeast(floor), vec![], c, levels));
        }
        // Level 1b (normal mode): its buckets of one or two answers.
        let floor = if self.hard {
            floor
        } else {
            small_bucket_floor(self.table, g1, floor)
        };
        if c.is_some_and(|c| floor >= c) {
            return Ok(done(Outcome::AtLeast(floor), vec![], c, levels));
        }
        // Level 2: every second guess's count bound, least first.
        let bounds = second_bounds(self.game, self.table, self.hard, g1, c);
        let mut order: Vec<usize> = (0..bounds.len()).collect();
        order.sort_by_key(|&g| (bounds[g], g));
        let mut best: Option<u64> = None;
        let mut best_seconds: Vec<Word> = Vec::new();
        // The least bound of every second guess not solved exactly below the cutoff.
        let mut other = u64::MAX;
        let mut local = c;
        for &g2 in &order {
            local = least(self.cutoff(given), best.map(|b| b + 1));
            let b = bounds[g2];
            levels.seconds += 1;
            if local.is_some_and(|c| b >= c) {
                other = other.min(b);
                break;
            }
            levels.past_count += 1;
            // Level 3: the parts' scans, then search.
            let r = pair_below(solver, self.table, g1, GuessId::new(g2), local)?;
            levels.past_scan += r.searched as u64;
            match r.cost {
                OpenerCost::Exact(v) if v < inf => {
                    levels.exact += 1;
                    let w2 = self.game.guesses[g2];
                    if best.is_none_or(|b| v < b) {
                        best = Some(v);
                        best_seconds = vec![w2];
                    } else if best == Some(v) {
                        best_seconds.push(w2);
                    }
                    self.live.fetch_min(v + 1, Ordering::Relaxed);
                }
                OpenerCost::Exact(v) | OpenerCost::AtLeast(v) => other = other.min(v.max(b)),
            }
        }
        let end = least(self.cutoff(given), best.map(|b| b + 1)).or(local);
        best_seconds.sort();
        let outcome = match best {
            Some(v) if end.is_none_or(|c| v < c) => Outcome::Exact(v),
            Some(v) => Outcome::AtLeast(v.min(other).max(floor)),
            None if other >= inf => Outcome::CannotFinish,
            None => Outcome::AtLeast(other.max(floor)),
        };
        if !matches!(outcome, Outcome::Exact(_)) {
            best_seconds.clear();
        }
        Ok(done(outcome, best_seconds, end, levels))
    }
}

/// What the records of a sweep prove over a set of first guesses: the best pair
/// total and every pair (first, second) attaining it ([`driver::Verdict`]).
pub type Verdict = driver::Verdict<(Word, Word)>;

/// The [`Standing`] of the first guesses `firsts` (their best pair totals, best
/// first) and what it proves (module doc).
pub fn verdict(
    game: &Game,
    firsts: &[GuessId],
    records: &BTreeMap<GuessId, Record>,
) -> (Standing, Verdict) {
    let s = Standing::new(game, firsts, |g| records.get(&g).map(|r| r.head.outcome));
    let v = s.verdict(|tied| {
        tied.iter()
            .flat_map(|&(_, w1)| {
                let g = game
                    .guess_id(w1)
                    .expect("a record's first guess is allowed");
                records[&g].best_seconds.iter().map(move |&w2| (w1, w2))
            })
            .collect()
    });
    (s, v)
}

/// Each first guess's exact opener total from an opener table's entries (the
/// floors of level 1), by guess id.
pub fn floors_of(game: &Game, entries: impl Fn(Word) -> Option<Option<u64>>) -> Floors {
    game.guesses
        .iter()
        .map(|&w| entries(w).map(|e| e.unwrap_or(u64::MAX)))
        .collect()
}
