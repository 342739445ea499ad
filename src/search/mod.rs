//! The exact solver: the decision tree of least cost, and its proof.
//!
//! A state is (candidates, guesses left, and in hard mode what has been revealed).
//! With the default [`Objective`] (`bound.rs`), `cost(S, d) = min over allowed guesses
//! g of |S| + sum over the non-green buckets B of g of cost(B, d - 1)`; one candidate
//! costs 1; more than one with one guess left is infeasible. Other objectives (used by
//! `check`) change what a guess and an unfound answer cost, not the search.
//!
//! `Solver::search` is a depth-first branch and bound with a cutoff `beta`: it
//! returns the exact cost when that is below `beta`, and otherwise a proved lower bound
//! that is at least `beta`. A state is evaluated in three steps:
//! 1. closed forms (one or two candidates), the size bound, and the transposition
//!    table;
//! 2. a cheap scan: first the candidates alone (a candidate that splits the state into
//!    singletons meets the size bound and is optimal at once), then every guess the
//!    parent passed down, counting its buckets into a 243-slot array. This gives each
//!    guess an admissible bound (`bound.rs`); a perfect split's bound is its exact
//!    cost, so the best one becomes the incumbent. Guesses that do not split and are
//!    not candidates are dropped, and (normal mode) guesses that split the state
//!    exactly like an earlier one (same partition, same green answer) are dropped too:
//!    they stay equivalent on every subset, so the children are handed one guess per
//!    class. Classes are compared exactly (labels, not just a hash);
//! 3. guesses in order of bound (ties: smaller sum of squared bucket sizes) are
//!    expanded, except (normal mode, states of at least [`DOMINANCE_MIN`] candidates)
//!    a guess that a one-letter neighbour handed down splits at least as finely
//!    (`dominance.rs`; such guesses are not handed to the children either): their buckets are searched smallest first, each with the cutoff left
//!    over after the cost so far and the bounds of the buckets still to come, and a
//!    guess is abandoned as soon as that sum reaches the best cost found (or `beta`).
//!    The loop stops at the first guess whose bound reaches the best cost.
//!    Before a guess's buckets are searched, states with at least
//!    [`CORE_LEFT`] guesses left raise the bounds of the buckets from the proved
//!    bounds of their recorded subsets (`cores.rs`: `cost(C) >= cost(D) + size_bound(C \ D)`
//!    for `D` inside `C`; in hard mode `D` proved under what `C`'s history implies).
//!    Then, at states with at least [`PRESCAN_LEFT`] guesses left (both modes), the
//!    larger buckets are scanned, largest first, and their scans' bounds summed, so
//!    a guess a little worse in several buckets falls before any is searched.
//!
//! Candidates are sorted `u16` id slices rather than bitsets here: most states searched
//! have a handful of candidates, and partitioning, hashing and comparing a list of `n`
//! ids costs `O(n)` while a 2315-bit set costs 37 words every time. Scratch buffers live
//! in one `Level` (`scratch.rs`) per depth, so the search never allocates after warm-up.
//!
//! Files, each owning what it touches:
//! - `mod.rs`: [`Solver`], its [`Config`] and results;
//! - `drive.rs`: the public questions ([`Solver::cost`], [`Solver::cost_by`],
//!   [`Solver::solve_opener`], [`Solver::opener_cost`], ...) and the parallel drivers;
//! - `state.rs`: the two values a search call carries, the `State` searched and the
//!   `Work` (scratch and counters) it is searched in;
//! - `scan/`: steps 1 (`head.rs`) and 2 (`mod.rs`: the guesses' bounds by kernel;
//!   `classify.rs`: what a state hands its children); `expand.rs`: step 3 and the
//!   feasibility shortcut;
//! - `kernels/`: the answer-major copy of the feedback table (`mod.rs`), the compact
//!   per-state copies (`local.rs`) and the scan kernels that read them (one guess at a
//!   time, or 32 at a time; AVX-512 in `presence.rs`, AVX2 or portable in `sliced.rs`,
//!   by the SIMD switch `WORDLE_TREE_SIMD`, the same results on each);
//! - `bound.rs`: the objective and its admissible bounds, each derived in its doc;
//! - `opener_bound.rs`: bounds on an opener's total before it is solved (measured by
//!   `wordle-tree bounds`); `parts.rs`: the least sum of independent states under a
//!   cutoff (a fixed two-word start's parts);
//! - `dominance.rs`: guesses skipped because a neighbour refines their partition;
//! - `cores.rs`: proved bounds of candidate sets reused for their supersets;
//! - `tt.rs`: the transposition table; `scratch.rs`: per-depth scratch and its pool;
//!   `stats.rs`: counters; `budget.rs`: a work budget for one serial search;
//!   `bits.rs` and `heap.rs`: leaves shared by the others (bitset members, heap
//!   charges), so that no two modules import each other.
//!
//! Parallelism (`drive.rs`): the buckets of the opener are searched as independent
//! rayon tasks that share the transposition table. Each bucket's cost is exact
//! whatever the other tasks stored, so serial and parallel runs give the same totals
//! (the trees may differ among optima).

mod bits;
pub mod bound;
mod budget;
mod cores;
mod dominance;
mod drive;
mod expand;
mod groups;
mod heap;
mod kernels;
pub mod opener_bound;
pub mod parts;
mod scan;
mod scratch;
mod state;
mod stats;
// The transposition table and the search's size thresholds are internals, public
// only for the tests that pin them (tests/memory.rs, tests/it/solver.rs).
#[doc(hidden)]
pub mod tt;

pub use bound::Objective;
#[doc(hidden)]
pub use cores::CORE_LEFT;
#[doc(hidden)]
pub use dominance::DOMINANCE_MIN;
#[doc(hidden)]
pub use expand::PRESCAN_LEFT;
#[doc(hidden)]
pub use scan::HARD_OWN_MIN;

/// The default of [`Config::local_min`].
pub const LOCAL_MIN: usize = 128;
/// The default of [`Config::first_budget`].
pub const FIRST_BUDGET: u64 = 16384;
pub use stats::Counters;

use crate::game::feedback::Feedback;
use crate::game::hard::{DemandSets, Revealed};
use crate::game::table::FeedbackTable;
use crate::game::{Game, GuessId};
use kernels::AnswerMajor;
use scratch::Pool;
use state::Guesses;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use tt::TranspositionTable;

/// Settings of one exact search.
#[derive(Clone, Debug)]
pub struct Config {
    /// Every answer must be found within this many guesses (the opener included).
    pub max_guesses: u8,
    pub hard: bool,
    /// Approximate limit, in bytes, on the transposition table and the search scratch
    /// together (`scratch.rs`).
    pub memory_limit: usize,
    /// Use the transposition table (turned off only to test that it changes nothing).
    pub use_transpositions: bool,
    /// States with at least this many guesses left look up the proved bounds of
    /// subsets of their guesses' buckets (`cores.rs`); `u8::MAX` turns cores off (to
    /// test that they change nothing), small values use them everywhere (to test them
    /// against the brute force).
    pub core_left: u8,
    /// States with at least this many guesses left (normal mode) scan the larger
    /// buckets of a guess before searching any (`expand.rs`, [`PRESCAN_LEFT`]);
    /// `u8::MAX` turns it off (to test that it changes nothing), small values use it
    /// everywhere (to test it against the brute force).
    pub prescan_left: u8,
    /// States of at least this many candidates skip dominated guesses (normal mode,
    /// `dominance.rs`); `usize::MAX` turns it off (to test that it changes nothing).
    pub dominance_min: usize,
    /// States of at least this many candidates (normal mode) that hand their
    /// children a list of guesses give them a compact table of it
    /// (`kernels::Local`); `usize::MAX` turns it off (to test that it changes
    /// nothing).
    pub local_min: usize,
    /// Hard-mode states of at least this many candidates scan the guesses they may
    /// play through a compact table of their own (`scan/`, [`HARD_OWN_MIN`]);
    /// `usize::MAX` turns it off (to test that it changes nothing).
    pub hard_own_min: usize,
    /// Pre-scans leave out the guesses the candidates' letters cap at what a
    /// dropped guess makes (`scan/letters.rs`), and in normal mode read the rest
    /// through windows where those beat blocks in place; `false` turns both off (to
    /// test that they change nothing).
    pub letter_caps: bool,
    /// What a tree's cost counts (default: total guesses).
    pub objective: Objective,
    /// [`Solver::first_infeasible_bucket`]'s first round: each bucket may use this
    /// many state scans, four times as many in each later round (`budget.rs`);
    /// `u64::MAX`: one round, each bucket searched to the end, smallest first.
    pub first_budget: u64,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_guesses: 6,
            hard: false,
            memory_limit: 4 << 30,
            use_transpositions: true,
            core_left: cores::CORE_LEFT,
            prescan_left: expand::PRESCAN_LEFT,
            dominance_min: dominance::DOMINANCE_MIN,
            local_min: LOCAL_MIN,
            hard_own_min: HARD_OWN_MIN,
            letter_caps: true,
            objective: Objective::total(),
            first_budget: FIRST_BUDGET,
        }
    }
}

/// Why a search did not give a result.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SolveError {
    #[error("no tree finds every answer within {0} guesses")]
    Infeasible(u8),
    #[error("interrupted")]
    Interrupted,
}

/// What is known of one guess at the top of a state: its exact cost from the state,
/// or a proved lower bound on it. Both are facts about the guess alone, true under
/// any cutoff, so a journal of them ([`TopLog`]) can be reused by a later search of
/// the same state whatever its cutoff.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Settled {
    Exact(u32),
    AtLeast(u32),
}

/// The journal of a long search's top level ([`Solver::cost_below`]): the guesses an
/// earlier run settled there (`known`, by guess), which this search skips (an exact
/// one becomes the incumbent; a bound at least the cutoff rules its guess out), and
/// `record`, called with each guess this search settles there. Lets a unit of
/// `crate::jobs::proof` that takes hours resume guess by guess instead of from scratch.
///
/// `share` lets processes split the top level between them: asked before a guess
/// not settled by `known` is expanded, with its position in the top order (sorted
/// by bound: the same in every process searching the state) and the cutoff it
/// would be expanded under ([`Share`]). A search told [`Share::Elsewhere`] for
/// some guess has not settled the state: it stores nothing of it, and its result
/// (the best of the guesses it saw) is only for the caller, which knows.
pub struct TopLog<'a> {
    pub known: &'a std::collections::HashMap<GuessId, Settled>,
    pub record: &'a (dyn Fn(GuessId, Settled) + Sync),
    pub share: Option<&'a (dyn Fn(usize, GuessId, u32) -> Share + Sync)>,
}

/// Who settles a guess at the top of a shared search ([`TopLog::share`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Share {
    /// This search: expand it; with the best exact cost another process found so
    /// far (a guess and its cost: an incumbent for this search too).
    Mine(Option<(GuessId, u32)>),
    /// Another process settled it so (exact, or a bound at least the cutoff asked).
    Settled(Settled),
    /// Another process holds it: skip it (this search is then partial).
    Elsewhere,
}

/// What [`Solver::settle_buckets`] found of a guess's buckets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Buckets {
    /// This bucket (feedback, candidates) cannot be finished in time.
    Fails(Feedback, Vec<crate::game::AnswerId>),
    /// Every bucket can be (the transposition table holds a witness for each).
    AllFinish,
    /// The deadline passed first: nothing is decided.
    GaveUp,
}

/// The cost of an opener under a cutoff.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpenerCost {
    /// The exact least total (below the cutoff).
    Exact(u64),
    /// A proved lower bound, at least the cutoff.
    AtLeast(u64),
}

/// What a search with a deadline ([`Solver::cost_by`]) settled at the top.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Top {
    /// The cost of the best guess found (with its whole tree): exact for that guess.
    pub cost: u32,
    pub guess: Option<GuessId>,
    /// A proved lower bound on the state's cost; `cost` itself when the search was
    /// not cut short, so `lower_bound == cost` means proved optimal.
    pub lower_bound: u32,
    /// Of the `guesses` left after the one-level bounds (0 when the scan settled the
    /// state), how many were expanded or ruled out before the search stopped.
    pub examined: usize,
    pub guesses: usize,
}

/// The exact solver over one game and one configuration. Cheap to share across
/// threads; the transposition table persists between calls, so repeated questions
/// are fast. Each part of its data is owned by the module that works on it: the scan
/// kernels' answer-major copy of the feedback (`kernels`), the transposition table
/// ([`tt`]), the scratch pool and counters (`scratch`).
pub struct Solver<'a> {
    game: &'a Game,
    /// Guess-major feedback: the rows `partition` and the expansion regroup by.
    table: &'a FeedbackTable,
    /// Answer-major feedback, for the scans.
    rows: AnswerMajor,
    /// Hard mode: the guesses as bitsets by letter, for the guesses a state may play.
    demand_sets: Option<DemandSets>,
    config: Config,
    tt: Arc<TranspositionTable>,
    /// The answers' endgame groups, for the group bound.
    groups: groups::Groups,
    all_guesses: Vec<GuessId>,
    /// Each guess's letters, for the scans' letter caps (`scan/letters.rs`).
    shapes: Vec<scan::letters::Shape>,
    /// Each guess's one-letter neighbours, for the dominance check (built when first
    /// needed).
    neighbours: std::sync::OnceLock<dominance::Neighbours>,
    stop: &'a AtomicBool,
    pool: Pool,
}

static NEVER: AtomicBool = AtomicBool::new(false);

impl<'a> Solver<'a> {
    pub fn new(game: &'a Game, table: &'a FeedbackTable, config: Config) -> Solver<'a> {
        let tt = Arc::new(TranspositionTable::new(
            config.memory_limit,
            config.use_transpositions,
        ));
        Solver::sharing(game, table, config, tt)
    }

    /// A solver whose transposition table is `tt`, shared with other solvers (on other
    /// threads: the table is concurrent). Sound only among solvers of the same game,
    /// objective, mode and maximum guesses: an entry is a proved fact under those,
    /// keyed by the state alone. `config.memory_limit` is not used: `tt` has its own.
    pub fn sharing(
        game: &'a Game,
        table: &'a FeedbackTable,
        config: Config,
        tt: Arc<TranspositionTable>,
    ) -> Solver<'a> {
        Solver {
            game,
            table,
            rows: AnswerMajor::new(table),
            demand_sets: config.hard.then(|| DemandSets::new(&game.guesses)),
            tt,
            groups: groups::Groups::new(&game.answers),
            config,
            all_guesses: (0..game.n_guesses()).map(GuessId::new).collect(),
            shapes: scan::letters::Shape::all(&game.guesses),
            neighbours: std::sync::OnceLock::new(),
            stop: &NEVER,
            pool: Pool::new(game.n_guesses()),
        }
    }

    /// Makes the search give up (with [`SolveError::Interrupted`]) once `stop` is set.
    pub fn with_stop(mut self, stop: &'a AtomicBool) -> Self {
        self.stop = stop;
        self
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn game(&self) -> &Game {
        self.game
    }

    /// Counters summed over every search so far.
    pub fn counters(&self) -> Counters {
        self.pool.totals()
    }

    /// Entries and approximate bytes in the transposition table (with those of the
    /// solvers it is shared with, [`Solver::sharing`]).
    pub fn transposition_size(&self) -> (usize, usize) {
        (self.tt.len(), self.tt.bytes())
    }

    /// Bytes of the searches' scratch, charged against the same memory limit as the
    /// transposition table (`scratch.rs`).
    pub fn scratch_bytes(&self) -> usize {
        self.tt.scratch_bytes()
    }

    /// Whether settled states are recorded as cores and buckets look their cores up
    /// (`cores.rs`): objectives without a penalty.
    #[inline]
    fn cores_on(&self) -> bool {
        self.config.core_left != u8::MAX && !self.config.objective.has_penalty()
    }

    /// Each guess's one-letter neighbours (`dominance.rs`).
    fn neighbours(&self) -> &dominance::Neighbours {
        self.neighbours
            .get_or_init(|| dominance::Neighbours::new(&self.game.guesses))
    }

    /// Every guess, as handed to a state at the top.
    fn everything(&self) -> Guesses<'_> {
        Guesses {
            list: &self.all_guesses,
            bits: None,
            max_split: usize::MAX,
            local: None,
            sorted: None,
        }
    }

    /// The transposition key of what hard mode revealed (0 in normal mode).
    fn hard_key(&self, revealed: &Revealed) -> u128 {
        if self.config.hard {
            revealed.key()
        } else {
            0
        }
    }

    /// What is revealed after `guess` got feedback `f` (unchanged in normal mode).
    fn after(&self, revealed: &Revealed, guess: crate::game::word::Word, f: Feedback) -> Revealed {
        if self.config.hard {
            revealed.after(guess, f)
        } else {
            *revealed
        }
    }

    fn check_stop(&self) -> Result<(), SolveError> {
        if self.stop.load(Ordering::Relaxed) {
            Err(SolveError::Interrupted)
        } else {
            Ok(())
        }
    }
}
