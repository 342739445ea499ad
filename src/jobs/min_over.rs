//! `check --opener any --min-over D`: over every opener, the least number of answers
//! that need more than D guesses (within the game's six), proved, and every opener
//! that attains it.
//!
//! Owns the sweep, its result files (kind [`KIND`] of [`crate::store::results`], one small
//! file per opener named `OPENER.MODE.LISTS.overD`, written atomically through
//! [`driver::SweepDir`], so a sweep resumes and shards merge by sharing the directory)
//! and the ranking drawn from them.
//!
//! **Objective.** Each opener gets [`Solver::opener_cost`] with
//! [`Objective::count_over`]: unit 0, penalty 1, so a tree's cost is exactly the number
//! of answers it leaves needing more than D guesses, and the penalty-aware bounds of
//! `search/bound.rs` prune on that count alone. (The single-opener `--min-over` orders
//! by the total guesses too, 2^17 x over + total; the sweep does not need the totals,
//! and a cutoff on the count alone dismisses an opener as soon as its count's bound
//! reaches it.) An opener that cannot find every answer within six is
//! [`Outcome::CannotFinish`], never a count.
//!
//! **Cutoff.** The cutoff is the least exact count known so far plus one (or
//! `--cutoff N` to seed it, whichever is lower): every opener whose count is below the
//! cutoff is solved exactly, so every opener tied with the best is found exactly, and
//! every other one is dismissed with a proved lower bound at least the cutoff.
//! Openers go in order of a cheap one-level estimate ([`prepass_plan`]),
//! the [`PREPASS`] most promising of the whole list first in every shard, so a low
//! cutoff comes early. The cutoff never rises during a run.
//!
//! **Reuse.** A stored exact count or cannot-finish always settles its opener; a
//! stored lower bound `lb` settles it when `lb >= cutoff` (a bound proved under a
//! larger cutoff still dismisses under a smaller one); otherwise the opener is
//! searched again and its file replaced.
//!
//! **Verdict** ([`Ranking`]): with every opener settled, the least exact count `m` is
//! the proved minimum when every dismissed opener's bound is at least `m`, and the
//! exact openers at `m` are all that attain it when every bound is above `m`
//! (always so with the default cutoff). No exact count at all (a seeded cutoff at or
//! below the minimum): every opener is proved to leave at least the least bound.
//!
//! Workers: [`crate::jobs::driver`]'s through [`crate::jobs::driver::solver_sweep`],
//! each with its own [`Solver`], all sharing one transposition table of the whole
//! memory limit. An interruption or a write fault ends the sweep with the error;
//! a result file is only written for a finished search, so no verdict is drawn from a
//! partial one.

use crate::game::word::Word;
use crate::game::{Game, GuessId};
use crate::jobs::driver::solver_sweep::{self, Step};
pub use crate::jobs::driver::Tally;
use crate::jobs::driver::{self, prepass_plan, Place, Standing, Task};
use crate::search::{Config, Objective, SolveError, Solver};
use crate::store::results::{Kind, ResultFile};
use std::collections::BTreeMap;

pub use crate::jobs::driver::Outcome;

/// The game's guess limit: answers over D must still be found within it.
pub use crate::jobs::check::GAME_LIMIT;

/// The kind of result stored, one file per opener (`OPENER.MODE.LISTS.overD`, the
/// header's `max_guesses` holding D).
pub const KIND: Kind = Kind {
    name: "min-over",
    file_tag: "over",
};

/// How many of the most promising openers of the whole list every shard runs first.
pub const PREPASS: usize = 8;

/// One opener's stored result: the head every per-opener record holds, alone.
pub type Record = driver::Head;

pub use crate::jobs::driver::SweepError;

/// The min-over result files of one game, mode and D in a directory (`open`'s
/// limit is D).
pub type OverDir<'a> = driver::SweepDir<'a, Record>;

impl driver::SweepRecord for Record {
    const KIND: Kind = KIND;

    fn read(game: &Game, stem: &str, f: &ResultFile) -> Result<(GuessId, Record), String> {
        Record::read_from(f, game, stem, "opener", "opener")
    }

    fn opener(&self) -> Word {
        self.opener
    }

    fn fill(&self, f: &mut ResultFile) {
        self.write_to(f);
    }
}

/// Settings of one sweep.
#[derive(Clone, Debug)]
pub struct Settings {
    pub depth: u8,
    pub hard: bool,
    /// A seed for the cutoff (the least exact count + 1 replaces it when lower).
    pub cutoff: Option<u64>,
    pub threads: usize,
    /// Memory for the transposition tables and scratch, shared equally by the workers.
    pub memory_limit: usize,
}

/// What a sweep did.
pub type Summary = driver::Summary<Record>;

/// The solver configuration of a sweep (one per worker).
pub fn config(depth: u8, hard: bool, memory_limit: usize) -> Config {
    Config {
        max_guesses: GAME_LIMIT,
        hard,
        objective: Objective::count_over(depth, GAME_LIMIT),
        memory_limit,
        ..Config::default()
    }
}

/// The least number of answers over `depth` from `opener` if below `cutoff`, else a
/// proved lower bound at least `cutoff` (see the module doc), with `solver` from
/// [`config`].
pub fn opener_over(
    solver: &Solver,
    opener: GuessId,
    cutoff: Option<u64>,
) -> Result<Outcome, SolveError> {
    debug_assert_eq!(solver.config().objective.unit, 0);
    match solver.opener_cost(opener, cutoff) {
        Ok(c) => Ok(Outcome::from_cost(c)),
        Err(SolveError::Infeasible(_)) => Ok(Outcome::CannotFinish),
        Err(e) => Err(e),
    }
}

/// Settles every opener of `place.mine` (after the [`PREPASS`] most promising of
/// `place.all`), reusing and writing the result files of `place.dir`.
pub fn sweep(place: Place<'_, OverDir<'_>>, settings: &Settings) -> Result<Summary, SweepError> {
    let (game, table) = (place.game, place.table);
    let plan = prepass_plan(game, table, place.all, place.mine, PREPASS, GAME_LIMIT);
    let config = |threads| {
        config(
            settings.depth,
            settings.hard,
            settings.memory_limit / threads,
        )
    };
    solver_sweep::sweep(
        place,
        plan,
        settings.cutoff,
        settings.threads,
        config,
        |_| OverStep { game },
    )
}

/// The min-over sweep's [`Step`]: one opener's count.
struct OverStep<'a> {
    game: &'a Game,
}

impl<'a> Step<'a> for OverStep<'_> {
    type Record = Record;

    fn outcome(r: &Record) -> Outcome {
        r.outcome
    }

    fn solve(&self, solver: &mut Solver<'a>, t: &Task) -> Result<Record, SweepError> {
        let outcome = opener_over(solver, t.opener, t.cutoff)?;
        let opener = self.game.guesses[t.opener.index()];
        Ok(Record::timed(opener, outcome, t.cutoff, &t.clock))
    }
}

/// What the records prove over a set of openers: their [`Standing`] (read through
/// it: `ranking.exact`, `ranking.dismissed`, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ranking(Standing);

impl std::ops::Deref for Ranking {
    type Target = Standing;
    fn deref(&self) -> &Standing {
        &self.0
    }
}

/// The verdict a [`Ranking`] supports: the least count over the openers and the
/// openers that attain it ([`driver::Verdict`]).
pub type Verdict = driver::Verdict<Word>;

impl Ranking {
    pub fn new(game: &Game, openers: &[GuessId], records: &BTreeMap<GuessId, Record>) -> Ranking {
        Ranking(Standing::new(game, openers, |g| {
            records.get(&g).map(|r| r.outcome)
        }))
    }

    /// What is proved (module doc).
    pub fn verdict(&self) -> Verdict {
        self.0.verdict(|tied| tied.iter().map(|e| e.1).collect())
    }
}
