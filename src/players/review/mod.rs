//! An exact review of a played game (finished or not): for every step, the candidates
//! before it, the best guess and its expected number of guesses to finish, the
//! player's guess and what it cost, and how lucky its feedback was; then a summary
//! that adds up exactly.
//!
//! Definitions (each candidate equally likely; costs are integers, totals of guesses
//! over the `n` candidates of a state, so "equal" is exact integer equality and two
//! guesses of equal cost are never ranked):
//! - `V(S)`: the least total guesses that finish state `S` (its best guess included),
//!   with the guesses the game has left (`max_guesses` minus the steps played; when no
//!   plan finishes within that, the fewest guesses that do, as [`crate::players::play`] does).
//!   Its expected number is `V(S) / |S|`.
//! - the player's guess `g` at `S`: `|S| + sum of V(B)` over its non-green buckets `B`.
//! - best: the least of the tree's (or solver's) guess and the player's guess. Below
//!   the root a stored tree's guess is optimal (every subtree of an optimal tree is
//!   optimal for its state); at the root it is only the best of all openers where a
//!   complete opener table ranks it first; otherwise the table's first opener is the
//!   root's best (proved), and without a table the review says "best known".
//! - guesses lost at a step: `(cost of the player's guess - V(S)) / |S|`, 0 exactly
//!   when the guess is optimal.
//! - luck at a step: the guess's average of the guesses still needed after its
//!   feedback, `(cost(g) - |S|) / |S|`, minus what the actual feedback left,
//!   `V(B_f) / |B_f|` (0 after all green): positive is good luck. Candidates left are
//!   `|B_f|` against the guess's expected `sum |B|^2 / |S|`.
//! - summary: `V(start)/n + lost - luck = steps played + V(state left)/|state left|`,
//!   exactly (it telescopes: the value after each step is the next step's best).
//!
//! Sources: while the game stays on the stored tree every value is a walk of the
//! candidates through a subtree (microseconds). From the first step that needs a
//! search (the player's guess differs from the tree's, or the state is off the tree),
//! one sub-game is built over that state's candidates (in normal mode one guess per
//! way of splitting them, `play::distinct_splits`; at the root the game
//! itself, where regrouping would cost as much as it saves) and one solver answers
//! every later state and every bucket of the player's guesses, which are subsets of
//! it, sharing its transposition table; the buckets of one guess are disjoint and are
//! solved in parallel. Measured (`bench --review`, docs/guide/commands.md): solving a bucket in a
//! sub-game of its own instead (as `next` does off the tree) cost 0.82 s of CPU for
//! `review crane:BBYBB silty:BBBGB quota:GGGGG` against 0.57 s shared: building ~140
//! small tables and solvers costs more than the regrouping saves.
//!
//! Deadline (`Options::deadline`, `--time-limit`): one budget for the whole review,
//! shared by every search it runs. A search running when it passes settles for the
//! best guess found ([`Solver::cost_by`]); no search starts after it: a state is then
//! valued from `2n - 1` (the least any plan costs) to a greedy plan's cost (only when
//! the greedy plan cannot finish within the guesses left does a search run, to settle
//! what the limit allows, stopping at its first guess solved). A value not
//! proved is a range `[lower, upper]`, the upper end a real plan's cost; it is never
//! shown as exact. The work after the deadline is bounded too (issue 38: 37 s under
//! a 2 s limit before): an eighth of the time limit after it, every search still
//! running is cut (the solvers watch the review's own stop flag) and its state is
//! valued by greedy plans alone. A greedy plan scores a fixed sample of guesses at
//! each of its nodes (512: half the node's candidates, half spread over every guess),
//! so its work grows with the state's candidates, not with the game's guesses
//! (scanning every guess at every node took 54 s of CPU on the 12,972 x 12,972 game).
//!
//! What is proved (issue 38): a tree only where the caller checked it
//! ([`tree_trust`]: its total equals its opener's in a complete opener table), and
//! the root's optimum from such a table (its first row). A player's guess that may
//! not finish within the guesses left where the best does is not optimal, and its
//! cost is never compared below the best's (so no range is inverted and no loss
//! negative). A value the tree proves (below the root of a shipped tree) stays
//! exact: a player's guess whose value is a range cannot beat a proved optimum.
//!
//! Ties: only the tree's (or solver's) guess and the player's are evaluated, so the
//! list of best guesses is complete only when [`Options::ties`] asks for the tie set
//! and the state is small enough ([`TIE_LIMIT`] candidates, normal mode): then every
//! allowed guess is grouped by the feedback it gives each candidate, each group whose
//! lower bound `|S| + sum (2|B| - 1)` does not exceed `V(S)` is solved exactly, and the
//! tied groups' words are listed.

use crate::game::feedback::Feedback;
use crate::game::hard::Revealed;
use crate::game::table::FeedbackTable;
use crate::game::word::Word;
use crate::game::{AnswerId, Game, GuessId};
use crate::players::play::{self, HistoryError, Step};
use crate::search::{SolveError, Solver};
use crate::store::opener_table::{Entry, OpenerTable};
use crate::tree::{Node, Tree};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

mod json;
mod value;
mod walk;
use value::*;
use walk::review_states;

/// What an opener table proves about a stored tree: whether the tree is optimal from
/// its opener, and whether that opener is best of all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TreeTrust {
    /// The tree's total over every answer equals its opener's exact total in a
    /// complete opener table of these lists and rules: every subtree is then optimal
    /// for its state (the guesses left included). A tree proves nothing by itself.
    pub optimal: bool,
    /// The same table ranks the tree's opener first: its total is the least of all.
    pub opener_best: bool,
}

impl TreeTrust {
    /// True when the tree's guess `depth` guesses into the game is proved optimal for
    /// its state: below the root when the tree is optimal, at the root only when its
    /// opener is also proved best. `next --json`, `serve` and `review` all say this.
    pub fn proves(&self, depth: usize) -> bool {
        self.optimal && (depth > 0 || self.opener_best)
    }
}

/// `table` when it is for these lists (checksum, sizes), mode and guess limit.
pub fn table_for<'t>(
    table: Option<&'t OpenerTable>,
    game: &Game,
    hard: bool,
    max_guesses: u8,
) -> Option<&'t OpenerTable> {
    table.filter(|t| {
        t.checksum == game.checksum
            && t.openers == game.n_guesses()
            && t.answers == game.n_answers()
            && t.hard == hard
            && t.max_guesses == max_guesses
    })
}

/// What `table` proves about `tree` ([`TreeTrust`]): checked, the tree's total walked
/// over every answer (0.45 ms on the original lists). Without a complete table of the
/// tree's lists and rules nothing is proved.
pub fn tree_trust(game: &Game, tree: &Tree, table: Option<&OpenerTable>) -> TreeTrust {
    let Some(t) =
        table_for(table, game, tree.hard(), tree.max_guesses()).filter(|t| t.is_complete())
    else {
        return TreeTrust::default();
    };
    let opener = game.guesses[tree.root().guess.index()];
    let all = game.all_answer_ids();
    let total = play::subtree_depths(game, tree.root(), &all).map(|(total, _)| total);
    let optimal = total.is_some() && total == t.total(opener);
    TreeTrust {
        optimal,
        opener_best: optimal && t.proves_best(opener),
    }
}

/// When a complete table proves another opener better than the tree's: `"the opener
/// table proves tarse better: 7883 (3.4140 on average) against salet's 7894 (3.4188)"`.
pub fn better_opener_note(game: &Game, tree: &Tree, table: Option<&OpenerTable>) -> Option<String> {
    let t = table_for(table, game, tree.hard(), tree.max_guesses())?;
    let (best, least) = t.proved_optimum()?;
    let opener = game.guesses[tree.root().guess.index()];
    if t.proves_best(opener) {
        return None;
    }
    let n = game.n_answers();
    Some(match t.total(opener) {
        Some(total) => format!(
            "the opener table proves {best} better: {least} ({:.4} on average) against {opener}'s {total} ({:.4})",
            least as f64 / n as f64,
            total as f64 / n as f64
        ),
        None => format!(
            "the opener table proves {best} best: {least} ({:.4} on average)",
            least as f64 / n as f64
        ),
    })
}

/// The largest state whose tie set is enumerated (normal mode, [`Options::ties`]).
pub const TIE_LIMIT: usize = 64;

/// A total of guesses over `n` candidates: exact when `lo == hi`, else the proved
/// range (`hi` is the best plan found).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Value {
    pub lo: u64,
    pub hi: u64,
    pub n: usize,
}

impl Value {
    fn exact(cost: u64, n: usize) -> Value {
        Value {
            lo: cost,
            hi: cost,
            n,
        }
    }
    pub fn is_exact(&self) -> bool {
        self.lo == self.hi
    }
    /// Expected guesses by the best plan found.
    pub fn expected(&self) -> f64 {
        self.hi as f64 / self.n as f64
    }
    /// The proved least expected guesses.
    pub fn lower(&self) -> f64 {
        self.lo as f64 / self.n as f64
    }
    fn min(self, other: Value) -> Value {
        Value {
            lo: self.lo.min(other.lo),
            hi: self.hi.min(other.hi),
            n: self.n,
        }
    }
}

/// A quantity in guesses: `value` by the best plans found, within `[lower, upper]`
/// (equal when exact).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Range {
    pub value: f64,
    pub lower: f64,
    pub upper: f64,
}

impl Range {
    fn point(v: f64) -> Range {
        Range {
            value: v,
            lower: v,
            upper: v,
        }
    }
    pub fn is_exact(&self) -> bool {
        self.lower == self.upper
    }
    fn add(self, o: Range) -> Range {
        Range {
            value: self.value + o.value,
            lower: self.lower + o.lower,
            upper: self.upper + o.upper,
        }
    }
}

/// Where the best guess of a state came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BestSource {
    Tree,
    Solver,
    /// The best opener of a complete opener table (the root only).
    Table,
}

/// One step of a reviewed game.
#[derive(Clone, Debug, PartialEq)]
pub struct StepReview {
    pub step: Step,
    /// The candidates before the step, sorted.
    pub candidates: Vec<AnswerId>,
    /// Guesses the game had left, this one included (0 or less: past the limit).
    pub guesses_left: i32,
    /// The best guesses known (the tree's or solver's, and the player's when it ties
    /// or beats it; every tied guess when `ties_complete`).
    pub best: Vec<GuessId>,
    pub ties_complete: bool,
    pub best_value: Value,
    pub best_source: BestSource,
    /// True when `best_value` is proved to be the optimum over every allowed guess.
    pub best_proved: bool,
    /// The cost of the player's guess (its buckets solved, the actual one's value
    /// being the next step's best).
    pub played: Value,
    /// True when some bucket of the player's guess (or the state) cannot be finished
    /// within the guesses left (or, valued without a search, was not shown to be), so
    /// its value counts the fewest guesses found to finish it.
    pub beyond_limit: bool,
    /// True when the player's guess is beyond the limit but the best is not: the
    /// guess may not find the answer in time, so it is not optimal, and its cost is
    /// raised to the best's (never compared below it).
    pub fails_limit: bool,
    /// `sum |B|^2 / |S|` over the buckets of the player's guess.
    pub expected_left: f64,
    /// The candidates its actual feedback left (1 for all green).
    pub left: usize,
    /// The value of the state after the step (zero over one candidate after green).
    pub after: Value,
}

impl StepReview {
    /// Guesses lost by the choice (0 exactly when the guess is optimal).
    pub fn lost(&self) -> Range {
        let n = self.played.n as f64;
        let value = self.played.hi as f64 - self.best_value.hi as f64;
        Range {
            value: value / n,
            lower: (self.played.lo as f64 - self.best_value.hi as f64).max(0.0) / n,
            upper: (self.played.hi as f64 - self.best_value.lo as f64) / n,
        }
    }
    /// The guess's average of the guesses still needed after its feedback.
    pub fn average_after(&self) -> Range {
        let n = self.played.n as f64;
        Range {
            value: (self.played.hi as f64 - n) / n,
            lower: (self.played.lo as f64 - n) / n,
            upper: (self.played.hi as f64 - n) / n,
        }
    }
    /// Guesses gained by luck (negative: lost).
    pub fn luck(&self) -> Range {
        let avg = self.average_after();
        let after_hi = self.after.expected();
        let after_lo = self.after.lower();
        Range {
            value: avg.value - after_hi,
            lower: avg.lower - after_hi,
            upper: avg.upper - after_lo,
        }
    }
    /// True only where proved: the best is proved optimal, the player's guess costs
    /// exactly as much, and it finishes wherever the best does.
    pub fn is_optimal(&self) -> bool {
        self.best_proved
            && !self.fails_limit
            && self.played.is_exact()
            && self.best_value.is_exact()
            && self.played.hi == self.best_value.hi
    }
}

/// A reviewed game.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    pub hard: bool,
    pub max_guesses: u8,
    pub steps: Vec<StepReview>,
    /// The answer was found: the last step was all green (the game is over; this
    /// says nothing about how exactly it was reviewed).
    pub found: bool,
    /// Unsolved: the state left, its best guesses and value.
    pub rest: Option<Rest>,
}

/// The state a partial game leaves.
#[derive(Clone, Debug, PartialEq)]
pub struct Rest {
    pub candidates: Vec<AnswerId>,
    pub best: Vec<GuessId>,
    pub value: Value,
    pub source: BestSource,
}

impl Review {
    /// Expected guesses from the start with optimal play.
    pub fn optimal_start(&self) -> Value {
        match (self.steps.first(), &self.rest) {
            (Some(s), _) => s.best_value,
            (None, Some(r)) => r.value,
            (None, None) => unreachable!("a review has a step or a rest"),
        }
    }
    pub fn lost(&self) -> Range {
        self.steps
            .iter()
            .fold(Range::point(0.0), |acc, s| acc.add(s.lost()))
    }
    pub fn luck(&self) -> Range {
        self.steps
            .iter()
            .fold(Range::point(0.0), |acc, s| acc.add(s.luck()))
    }
    /// Guesses played, plus (unsolved) the expected guesses still needed.
    pub fn total(&self) -> Range {
        let k = self.steps.len() as f64;
        match &self.rest {
            None => Range::point(k),
            Some(r) => Range {
                value: k + r.value.expected(),
                lower: k + r.value.lower(),
                upper: k + r.value.expected(),
            },
        }
    }
}

/// What to compute, and with what.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options<'a> {
    /// Stop searching new guesses at the top after this instant (values then ranges).
    pub deadline: Option<Instant>,
    /// Enumerate the tie set of small states (see the module doc).
    pub ties: bool,
    /// The tree is proved optimal from its opener: below the root its guesses are then
    /// optimal; otherwise the tree is not used. The commands set it from
    /// [`tree_trust`] (checked against a complete opener table), never on a tree's
    /// word; a test may set it for a tree it solved itself.
    pub tree_optimal: bool,
    /// An opener table ([`crate::store::opener_table`]): when it is for these lists
    /// (checksum) and rules and holds the exact total of the first guess played, and
    /// that guess is not the tree's, the guess played at step 1 is worth that total and
    /// step 1's buckets are not solved (the search starts at step 2); a complete one
    /// also names the proved best opener and its total.
    pub opener_table: Option<&'a OpenerTable>,
}

#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    #[error(transparent)]
    History(#[from] HistoryError),
    #[error("the history has {steps} guesses, more than the {limit} the game allows")]
    TooManySteps { steps: usize, limit: u8 },
    #[error("nothing to review: the history is empty and there is no tree")]
    Empty,
    #[error(
        "the tree does not reach every candidate of this history (damaged, or for other lists)"
    )]
    TreeMisses,
    #[error("search")]
    Solve(#[from] SolveError),
}

/// Reviews `steps` on `game`: from `tree` while the game stays on it, else solved.
/// Without a tree, `hard` and `max_guesses` say the rules.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use wordle_tree::game::{Game, ListSource};
/// use wordle_tree::players::{play, review};
///
/// let game = Game::load(&ListSource::Named("wordle".into())).unwrap();
/// let tree = wordle_tree::shipped::tree(&game, false).unwrap().unwrap();
/// let steps: Vec<play::Step> = ["salet:BBBBB", "courd:BBBBB", "nymph:BBBBY", "whiff:GGGGG"]
///     .iter()
///     .map(|t| play::parse_step(&game, t).unwrap())
///     .collect();
/// // The complete opener table proves the tree optimal (a tree proves nothing alone).
/// let table = wordle_tree::shipped::table(&game, false).unwrap().unwrap();
/// let trust = review::tree_trust(&game, &tree, Some(&table));
/// assert!(trust.optimal && trust.opener_best);
/// let options = review::Options {
///     tree_optimal: trust.optimal,
///     opener_table: Some(&table),
///     ..Default::default()
/// };
/// let stop = AtomicBool::new(false);
/// let r = review::review(&game, Some(&tree), false, 6, &steps, &stop, options).unwrap();
/// // The shipped tree's own game: every step optimal, nothing lost.
/// assert!(r.steps.iter().all(|s| s.is_optimal()));
/// assert_eq!(r.lost().value, 0.0);
/// ```
pub fn review(
    game: &Game,
    tree: Option<&Tree>,
    hard: bool,
    max_guesses: u8,
    steps: &[Step],
    stop: &AtomicBool,
    options: Options,
) -> Result<Review, ReviewError> {
    let (hard, max_guesses) = match tree {
        Some(t) => (t.hard(), t.max_guesses()),
        None => (hard, max_guesses),
    };
    if steps.len() > max_guesses as usize {
        return Err(ReviewError::TooManySteps {
            steps: steps.len(),
            limit: max_guesses,
        });
    }
    // A tree not proved optimal is not used: every state off a trusted tree is solved.
    let tree = tree.filter(|_| options.tree_optimal);
    let table = table_for(options.opener_table, game, hard, max_guesses);
    // The exact total of the first guess played, from the table.
    let opener_total = match (table, steps.first()) {
        (Some(t), Some(s)) => match t.get(game.guesses[s.guess.index()]).map(|r| r.entry) {
            Some(Entry::Exact { total, .. }) => Some(total),
            _ => None,
        },
        _ => None,
    };
    // The proved best opener and its total, from a complete table.
    let root_best = table
        .and_then(|t| t.proved_optimum())
        .and_then(|(w, total)| Some((game.guess_id(w)?, total)));
    let history = play::replay(game, steps, hard)?;
    // With a deadline, one budget: the searches stop taking new guesses at it, and a
    // grace of an eighth of the time left later every search still running is cut
    // (the flag the solvers watch), the states left valued without a search.
    let cut = AtomicBool::new(false);
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        if let Some(d) = options.deadline {
            let now = Instant::now();
            let hard_stop = d + d.saturating_duration_since(now) / 8;
            let (cut, done) = (&cut, &done);
            scope.spawn(move || {
                while !done.load(Ordering::Relaxed) {
                    if stop.load(Ordering::Relaxed) || Instant::now() >= hard_stop {
                        cut.store(true, Ordering::Relaxed);
                        return;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
            });
        }
        let solver_stop = if options.deadline.is_some() {
            &cut
        } else {
            stop
        };
        let r = review_states(
            game,
            tree,
            hard,
            max_guesses,
            steps,
            history,
            Budget {
                solver_stop,
                outer: stop,
            },
            options,
            opener_total,
            root_best,
            table,
        );
        done.store(true, Ordering::Relaxed);
        r
    })
}

/// The stop flag the review's solvers watch (the caller's, or with a deadline the
/// review's own cut), and the caller's: a search cut by the review is valued without
/// a search; one stopped by the caller ends the review.
#[derive(Clone, Copy)]
struct Budget<'a> {
    solver_stop: &'a AtomicBool,
    outer: &'a AtomicBool,
}
