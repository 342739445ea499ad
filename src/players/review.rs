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
//! way of splitting them, [`crate::players::play::distinct_splits`]; at the root the game
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
//! valued by greedy plans alone.
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
use crate::search::{Config, SolveError, Solver};
use crate::store::opener_table::{Entry, OpenerTable};
use crate::tree::{Node, Tree};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

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

/// What to compute.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Stop searching new guesses at the top after this instant (values then ranges).
    pub deadline: Option<Instant>,
    /// Enumerate the tie set of small states (see the module doc).
    pub ties: bool,
    /// The tree is proved optimal from its opener: below the root its guesses are then
    /// optimal; otherwise the tree is not used. The commands set it from
    /// [`tree_trust`] (checked against a complete opener table), never on a tree's
    /// word; a test may set it for a tree it solved itself.
    pub tree_optimal: bool,
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
/// let options = review::Options { tree_optimal: trust.optimal, ..Default::default() };
/// let stop = AtomicBool::new(false);
/// let r = review::review_with_table(&game, Some(&tree), false, 6, &steps, &stop, options, Some(&table))
///     .unwrap();
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
    review_with_table(game, tree, hard, max_guesses, steps, stop, options, None)
}

/// [`review`], with an opener table ([`crate::store::opener_table`]): when it is for these
/// lists (checksum) and rules and holds the exact total of the first guess played,
/// and that guess is not the tree's, the guess played at step 1 is worth that total
/// and step 1's buckets are not solved (the search starts at step 2).
#[allow(clippy::too_many_arguments)]
pub fn review_with_table(
    game: &Game,
    tree: Option<&Tree>,
    hard: bool,
    max_guesses: u8,
    steps: &[Step],
    stop: &AtomicBool,
    options: Options,
    table: Option<&OpenerTable>,
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
    let table = table_for(table, game, hard, max_guesses);
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

/// [`review_with_table`] once its inputs are checked.
#[allow(clippy::too_many_arguments)]
fn review_states(
    game: &Game,
    tree: Option<&Tree>,
    hard: bool,
    max_guesses: u8,
    steps: &[Step],
    history: play::History,
    budget: Budget,
    options: Options,
    opener_total: Option<u64>,
    root_best: Option<(GuessId, u64)>,
    table: Option<&OpenerTable>,
) -> Result<Review, ReviewError> {
    // States before each step and after the last.
    let mut states: Vec<(Vec<AnswerId>, Revealed, Option<&Node>)> = Vec::new();
    let mut candidates: Vec<AnswerId> = game.all_answer_ids();
    let mut revealed = Revealed::default();
    let mut node = tree.map(|t| t.root());
    for s in steps {
        states.push((candidates.clone(), revealed, node));
        let word = game.guesses[s.guess.index()];
        candidates.retain(|&a| Feedback::compute(word, game.answers[a.index()]) == s.feedback);
        if hard {
            revealed = revealed.after(word, s.feedback);
        }
        node = match node {
            Some(n) if n.guess == s.guess && !s.feedback.is_all_green() => n.child(s.feedback),
            _ => None,
        };
    }
    debug_assert_eq!(candidates, history.candidates.ids());
    let found = history.solved;
    if !found {
        states.push((candidates, revealed, node));
    }
    let left_at = |i: usize| max_guesses as i32 - i as i32;
    let root_proved = tree.is_some_and(|t| {
        table.is_some_and(|tb| tb.proves_best(game.guesses[t.root().guess.index()]))
    });

    // The first state needing the solver: off the tree, or the player left it there.
    let first_search = (0..states.len()).find(|&i| {
        let small = options.ties && !hard && states[i].0.len() <= TIE_LIMIT;
        // At the root a complete table gives the best opener's value, and the
        // player's opener's from its row.
        let root_known =
            i == 0 && root_best.is_some() && (i == steps.len() || opener_total.is_some());
        small
            || match states[i].2 {
                None => !root_known,
                Some(_) if i == 0 && opener_total.is_some() => false,
                Some(n) => i < steps.len() && steps[i].guess != n.guess,
            }
    });

    // Per state: the best (guess, value, source, proved) from the tree or solver, and
    // per step the player's non-actual buckets' total.
    // (guess, value, source, proved optimal, beyond the limit)
    type Best = (GuessId, Value, BestSource, bool, bool);
    let mut best: Vec<Option<Best>> = vec![None; states.len()];
    let mut others: Vec<Option<(u64, u64, bool)>> = vec![None; steps.len()];
    let mut ties: Vec<Option<Vec<GuessId>>> = vec![None; states.len()];
    for (i, (cands, _, node)) in states.iter().enumerate() {
        let Some(n) = node else { continue };
        let total = play::subtree_depths(game, n, cands)
            .map(|(total, _)| total)
            .ok_or(ReviewError::TreeMisses)?;
        let proved = options.tree_optimal && (i > 0 || root_proved);
        best[i] = Some((
            n.guess,
            Value::exact(total, cands.len()),
            BestSource::Tree,
            proved,
            false,
        ));
        if i < steps.len() && steps[i].guess == n.guess {
            // The buckets other than the actual one, from the subtree.
            let s = steps[i];
            let word = game.guesses[s.guess.index()];
            let actual: Vec<AnswerId> = cands
                .iter()
                .copied()
                .filter(|&a| Feedback::compute(word, game.answers[a.index()]) == s.feedback)
                .collect();
            let actual_cost = if s.feedback.is_all_green() {
                0
            } else {
                let child = n.child(s.feedback).ok_or(ReviewError::TreeMisses)?;
                play::subtree_depths(game, child, &actual)
                    .map(|(total, _)| total)
                    .ok_or(ReviewError::TreeMisses)?
            };
            let rest = total - cands.len() as u64 - actual_cost;
            others[i] = Some((rest, rest, false));
        }
    }
    // The root: the table's proved best opener, unless the tree's opener is proved
    // best (then the tree's value, the same total, and its subtree).
    if let Some((g, total)) = root_best {
        if !best[0].is_some_and(|b| b.3) {
            best[0] = Some((
                g,
                Value::exact(total, game.n_answers()),
                BestSource::Table,
                true,
                false,
            ));
        }
    }

    if let Some(j) = first_search {
        // One sub-game over the first state searched answers every later state and
        // every bucket of the player's guesses (all subsets of it), sharing one
        // transposition table. At the root (the player's own opener) it is the game.
        let sub = SubGame::new(game, &states[j].0, hard);
        let solver = sub.solver(max_guesses, hard, budget.solver_stop);
        let value_of = |ids: &[AnswerId], left: i32, rev: &Revealed, want_guess: bool| {
            state_value(
                &solver,
                &sub.table,
                ids,
                left,
                rev,
                options.deadline,
                want_guess,
                budget.outer,
            )
        };
        for i in j..states.len() {
            let (cands, rev, _) = &states[i];
            let ids = sub.ids(cands);
            let left = left_at(i);
            if best[i].is_none() {
                let (v, g, beyond) = value_of(&ids, left, rev, true)?;
                let guess = sub.to_game(game, g.expect("asked for the guess"));
                best[i] = Some((
                    guess,
                    Value {
                        lo: v.0,
                        hi: v.1,
                        n: cands.len(),
                    },
                    BestSource::Solver,
                    v.0 == v.1,
                    beyond,
                ));
            }
            if i < steps.len() && others[i].is_none() && !(i == 0 && opener_total.is_some()) {
                // The value of the player's guess: its buckets other than the
                // actual one (that one is the next state's best).
                others[i] = Some(played_buckets(
                    game,
                    &sub,
                    &solver,
                    steps[i],
                    cands,
                    left,
                    rev,
                    options.deadline,
                    budget.outer,
                )?);
            }
            if options.ties && !hard && cands.len() <= TIE_LIMIT {
                let (_, v, ..) = best[i].expect("set above");
                if v.is_exact() {
                    ties[i] = tie_set(
                        game,
                        &solver,
                        &sub.table,
                        cands,
                        &ids,
                        left,
                        v.hi,
                        options.deadline,
                        budget.outer,
                    )?
                    .map(|t| t.into_iter().collect());
                }
            }
        }
    }

    // Backwards: each step's actual bucket is worth the next state's best.
    let mut reviews: Vec<StepReview> = Vec::with_capacity(steps.len());
    let mut rest = None;
    let mut next_best: Value = Value::exact(0, 1);
    if !found {
        let i = states.len() - 1;
        let (g, v, source, _, _) = best[i].expect("every state has a best");
        rest = Some(Rest {
            candidates: states[i].0.clone(),
            best: ties[i].clone().unwrap_or_else(|| vec![g]),
            value: v,
            source,
        });
        next_best = v;
    }
    for i in (0..steps.len()).rev() {
        let s = steps[i];
        let (cands, _, _) = &states[i];
        let n = cands.len();
        let (g, v, source, proved, beyond_best) = best[i].expect("every state has a best");
        let after = if s.feedback.is_all_green() {
            Value::exact(0, 1)
        } else {
            next_best
        };
        let (played, beyond) = match (i, opener_total) {
            // The table's exact total of the first guess played.
            (0, Some(total)) if others[0].is_none() => (Value::exact(total, n), false),
            _ => {
                let (olo, ohi, beyond) = others[i].expect("every step has its buckets");
                let played = Value {
                    lo: n as u64 + olo + after.lo,
                    hi: n as u64 + ohi + after.hi,
                    n,
                };
                (played, beyond)
            }
        };
        // A player's guess that may not finish within the guesses left, where the
        // best does, is worse than the best: its cost (counted with more guesses) is
        // not compared with the best's but raised to it, never below.
        let fails = beyond && !beyond_best;
        // A proved optimum cannot be beaten either: the player's guess costs at least
        // it (its lower end may be looser when its buckets are ranges). Otherwise the
        // player's guess may be the better one. Either way `lo <= hi` stays.
        let (best_value, played) = if fails {
            let lo = played.lo.max(v.lo);
            let hi = played.hi.max(v.hi).max(lo);
            (v, Value { lo, hi, ..played })
        } else if proved && v.is_exact() {
            let lo = played.lo.max(v.lo);
            (
                v,
                Value {
                    lo,
                    hi: played.hi.max(lo),
                    ..played
                },
            )
        } else {
            (v.min(played), played)
        };
        let word = game.guesses[s.guess.index()];
        let sizes = buckets(game, word, cands);
        let expected_left = sizes
            .iter()
            .map(|(_, b)| (b.len() * b.len()) as f64)
            .sum::<f64>()
            / n as f64;
        let left = sizes
            .iter()
            .find(|(f, _)| *f == s.feedback)
            .map_or(0, |(_, b)| b.len());
        let (list, ties_complete) = match &ties[i] {
            Some(t) => (t.clone(), true),
            None => {
                let mut l = Vec::new();
                if v.hi <= played.hi {
                    l.push(g);
                }
                if played.hi <= v.hi && g != s.guess && !fails {
                    l.push(s.guess);
                }
                (l, false)
            }
        };
        // The player's guess beat the tree's: what is proved is only the range.
        let best_proved = proved && best_value.is_exact() && best_value == v;
        reviews.push(StepReview {
            step: s,
            candidates: cands.clone(),
            guesses_left: left_at(i),
            best: list,
            ties_complete,
            best_value,
            best_source: source,
            best_proved,
            played,
            beyond_limit: beyond || beyond_best,
            fails_limit: fails,
            expected_left,
            left,
            after,
        });
        next_best = best_value;
    }
    reviews.reverse();
    Ok(Review {
        hard,
        max_guesses,
        steps: reviews,
        found,
        rest,
    })
}

/// The buckets of `word` over `cands` (game answer ids), in feedback order.
fn buckets(game: &Game, word: Word, cands: &[AnswerId]) -> Vec<(Feedback, Vec<AnswerId>)> {
    let mut by: Vec<(u8, AnswerId)> = cands
        .iter()
        .map(|&a| (Feedback::compute(word, game.answers[a.index()]).0, a))
        .collect();
    by.sort_unstable();
    let mut out: Vec<(Feedback, Vec<AnswerId>)> = Vec::new();
    for (f, a) in by {
        match out.last_mut() {
            Some((lf, b)) if lf.0 == f => b.push(a),
            _ => out.push((Feedback(f), vec![a])),
        }
    }
    out
}

/// A game over the candidates of one state (in normal mode one guess per way of
/// splitting them, [`crate::players::play::distinct_splits`]): the same states, with a feedback
/// table of `guesses x |state|` instead of `guesses x answers`.
struct SubGame {
    /// The state's candidates (ids of the full game, sorted): answer `k` of the
    /// sub-game is `base[k]`.
    base: Vec<AnswerId>,
    game: Game,
    table: FeedbackTable,
}

impl SubGame {
    fn new(game: &Game, base: &[AnswerId], hard: bool) -> SubGame {
        let answers: Vec<Word> = base.iter().map(|&a| game.answers[a.index()]).collect();
        let sub = Game::from_words(&answers, &game.guesses);
        let table = FeedbackTable::build(&sub);
        // Hard mode keeps every guess (legality depends on the word); so does the
        // root, where nearly every guess splits the answers its own way (the check
        // would cost as much as the table).
        let (sub, table) = if hard || base.len() == game.n_answers() {
            (sub, table)
        } else {
            let guesses = play::distinct_splits(&sub, &table);
            if guesses.len() < sub.n_guesses() {
                let sub = Game::from_words(&answers, &guesses);
                let table = FeedbackTable::build(&sub);
                (sub, table)
            } else {
                (sub, table)
            }
        };
        SubGame {
            base: base.to_vec(),
            game: sub,
            table,
        }
    }

    fn solver<'s>(&'s self, max_guesses: u8, hard: bool, stop: &'s AtomicBool) -> Solver<'s> {
        Solver::new(
            &self.game,
            &self.table,
            Config {
                max_guesses: max_guesses.max(1),
                hard,
                memory_limit: 512 << 20,
                ..Config::default()
            },
        )
        .with_stop(stop)
    }

    /// The sub-game's ids of `ids` (a subset of the base, sorted).
    fn ids(&self, ids: &[AnswerId]) -> Vec<AnswerId> {
        ids.iter()
            .map(|a| {
                AnswerId::new(
                    self.base
                        .binary_search(a)
                        .expect("a later state is a subset"),
                )
            })
            .collect()
    }

    /// The full game's id of the sub-game's guess `g`.
    fn to_game(&self, game: &Game, g: GuessId) -> GuessId {
        game.guess_id(self.game.guesses[g.index()])
            .expect("the sub-game's guesses are the game's")
    }
}

/// The total `(lo, hi, beyond the limit)` of the buckets of the player's `step` at the
/// state `cands` other than the green one and the actual one (whose value is the next
/// state's). The buckets are disjoint states: they are solved largest first, spread
/// over the threads, on the shared solver.
#[allow(clippy::too_many_arguments)]
fn played_buckets(
    game: &Game,
    sub: &SubGame,
    solver: &Solver,
    step: Step,
    cands: &[AnswerId],
    left: i32,
    revealed: &Revealed,
    deadline: Option<Instant>,
    outer: &AtomicBool,
) -> Result<(u64, u64, bool), SolveError> {
    use rayon::prelude::*;
    let word = game.guesses[step.guess.index()];
    let mut bs: Vec<(Feedback, Vec<AnswerId>)> = buckets(game, word, cands)
        .into_iter()
        .filter(|(f, _)| !f.is_all_green() && *f != step.feedback)
        .collect();
    bs.sort_by_key(|(_, b)| std::cmp::Reverse(b.len()));
    let hard = solver.config().hard;
    let values = bs
        .par_iter()
        .map(|(f, bucket)| {
            let r = if hard {
                revealed.after(word, *f)
            } else {
                *revealed
            };
            state_value(
                solver,
                &sub.table,
                &sub.ids(bucket),
                left - 1,
                &r,
                deadline,
                false,
                outer,
            )
        })
        .collect::<Result<Vec<StateValue>, SolveError>>()?;
    Ok(values
        .iter()
        .fold((0, 0, false), |(lo, hi, beyond), &((l, h), _, b)| {
            (lo + l, hi + h, beyond || b)
        }))
}

/// The value `(lo, hi)` of a state of the solver's game, its best guess when asked,
/// and whether it had to be solved with more guesses than `left`.
type StateValue = ((u64, u64), Option<GuessId>, bool);

/// The value of a state: exact without a deadline. With one, the deadline is shared by
/// every search of the review: a search started before it settles for the best guess
/// found by then ([`Solver::cost_by`]); once it has passed no search starts, and a
/// state's value is the range from the least any plan can cost (`2n - 1`: one
/// candidate found by the first guess, every other by a later one) to the cost of a
/// greedy plan ([`greedy`]); exact when the two meet. Only when the greedy plan does
/// not finish within the guesses left does a search run after the deadline, to settle
/// what the limit allows; it and every search still running are cut at the review's
/// hard stop (the solver's stop flag; `outer` unset), and the state is then valued by
/// the greedy plan that finishes with the fewest guesses ([`unsearched`]).
#[allow(clippy::too_many_arguments)]
fn state_value(
    solver: &Solver,
    table: &FeedbackTable,
    ids: &[AnswerId],
    left: i32,
    revealed: &Revealed,
    deadline: Option<Instant>,
    want_guess: bool,
    outer: &AtomicBool,
) -> Result<StateValue, SolveError> {
    let start = left.clamp(1, 32) as u8;
    let most = start.max(ids.len().min(32) as u8);
    let hard = solver.config().hard;
    for l in start..=most {
        let beyond = (l as i32) > left;
        let found = match deadline {
            None => solver.cost(ids, l, revealed).map(|c| {
                c.map(|c| {
                    let guess = want_guess.then(|| solver.build(ids, l, revealed).guess);
                    ((c as u64, c as u64), guess)
                })
            }),
            Some(d) => {
                if Instant::now() >= d {
                    if let Some((cost, guess)) =
                        greedy(solver.game(), table, ids, l, revealed, hard)
                    {
                        let least = 2 * ids.len() as u64 - 1;
                        return Ok(((least.min(cost), cost), Some(guess), beyond));
                    }
                }
                // Before the deadline, or the greedy plan does not finish in time
                // (the search then settles, or proves, the limit).
                solver.cost_by(ids, l, revealed, d).map(|top| {
                    top.map(|top| {
                        (
                            (top.lower_bound.min(top.cost) as u64, top.cost as u64),
                            top.guess,
                        )
                    })
                })
            }
        };
        match found {
            Ok(Some((v, guess))) => return Ok((v, guess, beyond)),
            // Proved: no plan finishes within `l`.
            Ok(None) => continue,
            Err(SolveError::Interrupted) if !outer.load(Ordering::Relaxed) => {
                return unsearched(solver, table, ids, l, left, revealed)
                    .ok_or(SolveError::Infeasible(most));
            }
            Err(e) => return Err(e),
        }
    }
    Err(SolveError::Infeasible(most))
}

/// A state valued without a search once the review's hard stop has cut its search
/// at `l` guesses (fewer are proved not to finish): from `2n - 1` to the greedy plan
/// within `l`, or when that does not finish, the greedy plan with as many guesses as
/// it needs, marked beyond the limit (whether some plan finishes in time is then not
/// known).
fn unsearched(
    solver: &Solver,
    table: &FeedbackTable,
    ids: &[AnswerId],
    l: u8,
    left: i32,
    revealed: &Revealed,
) -> Option<StateValue> {
    let hard = solver.config().hard;
    let least = 2 * ids.len() as u64 - 1;
    let game = solver.game();
    let (l, (cost, guess)) = match greedy(game, table, ids, l, revealed, hard) {
        Some(plan) => (l, plan),
        None => {
            let most = ids.len().clamp(l as usize + 1, u8::MAX as usize) as u8;
            (most, greedy(game, table, ids, most, revealed, hard)?)
        }
    };
    Some(((least.min(cost), cost), Some(guess), (l as i32) > left))
}

/// A plan that needs no search: at every state the allowed guess leaving the fewest
/// candidates on average (least sum of squared bucket sizes; a candidate first on
/// ties, then the lowest id), the state's only candidate when one is left. Its total
/// cost and first guess, or `None` when it does not finish every candidate within
/// `left` guesses. One scan of the guesses per node of the plan.
fn greedy(
    game: &Game,
    table: &FeedbackTable,
    ids: &[AnswerId],
    left: u8,
    revealed: &Revealed,
    hard: bool,
) -> Option<(u64, GuessId)> {
    let n = ids.len();
    if n == 1 {
        let word = game.answers[ids[0].index()];
        return Some((1, game.guess_id(word)?));
    }
    if left < 2 {
        return None;
    }
    let mut best: Option<((u64, bool), GuessId)> = None;
    let mut counts = [0u32; 243];
    for g in (0..game.n_guesses()).map(GuessId::new) {
        let word = game.guesses[g.index()];
        if hard && !revealed.allows(word) {
            continue;
        }
        counts.fill(0);
        let row = table.row(g);
        for &a in ids {
            counts[row[a.index()] as usize] += 1;
        }
        let squares: u64 = counts.iter().map(|&c| c as u64 * c as u64).sum();
        let candidate = counts[Feedback::ALL_GREEN.0 as usize] > 0;
        if squares == (n * n) as u64 && !candidate {
            continue; // splits nothing
        }
        let key = (squares, !candidate);
        if best.is_none_or(|(k, _)| key < k) {
            best = Some((key, g));
        }
    }
    let (_, g) = best?;
    let word = game.guesses[g.index()];
    let mut total = n as u64;
    let row = table.row(g);
    let mut by: Vec<(u8, AnswerId)> = ids.iter().map(|&a| (row[a.index()], a)).collect();
    by.sort_unstable();
    for chunk in by.chunk_by(|x, y| x.0 == y.0) {
        let f = Feedback(chunk[0].0);
        if f.is_all_green() {
            continue;
        }
        let bucket: Vec<AnswerId> = chunk.iter().map(|&(_, a)| a).collect();
        let r = if hard {
            revealed.after(word, f)
        } else {
            *revealed
        };
        total += greedy(game, table, &bucket, left - 1, &r, hard)?.0;
    }
    Some((total, g))
}

/// Every allowed guess of `game` that reaches `target` on the state `cands` (normal
/// mode), or `None` when the deadline passed first. Guesses are grouped by the
/// feedback they give each candidate (equal groups cost the same); a group is solved
/// only when its lower bound `n + sum (2|B| - 1)` does not exceed `target`, bucket by
/// bucket, stopping once the total passes `target`.
#[allow(clippy::too_many_arguments)]
fn tie_set(
    game: &Game,
    solver: &Solver,
    table: &FeedbackTable,
    cands: &[AnswerId],
    ids: &[AnswerId],
    left: i32,
    target: u64,
    deadline: Option<Instant>,
    outer: &AtomicBool,
) -> Result<Option<Vec<GuessId>>, SolveError> {
    let n = cands.len();
    let mut groups: ahash::AHashMap<Vec<u8>, Vec<GuessId>> = ahash::AHashMap::new();
    for (g, &word) in game.guesses.iter().enumerate() {
        let key: Vec<u8> = cands
            .iter()
            .map(|&a| Feedback::compute(word, game.answers[a.index()]).0)
            .collect();
        groups.entry(key).or_default().push(GuessId::new(g));
    }
    let mut tied: Vec<GuessId> = Vec::new();
    for (key, words) in &groups {
        if deadline.is_some_and(|d| Instant::now() > d) {
            return Ok(None);
        }
        let mut sizes: ahash::AHashMap<u8, Vec<AnswerId>> = ahash::AHashMap::new();
        for (k, &f) in key.iter().enumerate() {
            if !Feedback(f).is_all_green() {
                sizes.entry(f).or_default().push(ids[k]);
            }
        }
        let bound: u64 = n as u64 + sizes.values().map(|b| 2 * b.len() as u64 - 1).sum::<u64>();
        if bound > target {
            continue;
        }
        let mut total = n as u64;
        let mut bs: Vec<&Vec<AnswerId>> = sizes.values().collect();
        bs.sort_by_key(|b| std::cmp::Reverse(b.len()));
        for b in bs {
            let ((lo, hi), _, _) = state_value(
                solver,
                table,
                b,
                left - 1,
                &Revealed::default(),
                deadline,
                false,
                outer,
            )?;
            if lo != hi {
                return Ok(None); // out of time: the tie set is not listed
            }
            total += hi;
            if total > target {
                break;
            }
        }
        if total == target {
            tied.extend(words);
        }
    }
    tied.sort_unstable();
    Ok(Some(tied))
}

/// Words of answer ids.
fn answer_words(game: &Game, ids: &[AnswerId]) -> Vec<String> {
    ids.iter()
        .map(|&a| game.answers[a.index()].to_string())
        .collect()
}

fn guess_words(game: &Game, ids: &[GuessId]) -> Vec<String> {
    ids.iter()
        .map(|&g| game.guesses[g.index()].to_string())
        .collect()
}

/// A range as JSON: `null` when exact, else `[lower, upper]`.
fn range_json(r: Range) -> serde_json::Value {
    if r.is_exact() {
        serde_json::Value::Null
    } else {
        serde_json::json!([r.lower, r.upper])
    }
}

fn value_range(v: Value) -> serde_json::Value {
    if v.is_exact() {
        serde_json::Value::Null
    } else {
        serde_json::json!([v.lower(), v.expected()])
    }
}

fn source_name(s: BestSource) -> &'static str {
    match s {
        BestSource::Tree => "tree",
        BestSource::Solver => "solver",
        BestSource::Table => "table",
    }
}

/// Candidate words are listed when there are at most this many.
pub const LIST_WORDS: usize = 30;

impl Review {
    /// The review as JSON (the `review --json` output and the server's answer). Every
    /// quantity is the value by the best plans found, with `*_range: [lower, upper]`
    /// when it was not proved exactly (`null` when exact).
    pub fn to_json(&self, game: &Game) -> serde_json::Value {
        let steps: Vec<serde_json::Value> = self
            .steps
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let n = s.candidates.len();
                let (lost, luck, avg) = (s.lost(), s.luck(), s.average_after());
                serde_json::json!({
                    "step": i + 1,
                    "token": play::token(game, s.step),
                    "guess": game.guesses[s.step.guess.index()].to_string(),
                    "feedback": s.step.feedback.to_string(),
                    "candidates": n,
                    "candidate_words": (n <= LIST_WORDS).then(|| answer_words(game, &s.candidates)),
                    "guesses_left": s.guesses_left,
                    "best": {
                        "guesses": guess_words(game, &s.best),
                        "all_ties_listed": s.ties_complete,
                        "expected": s.best_value.expected(),
                        "expected_range": value_range(s.best_value),
                        "source": source_name(s.best_source),
                        "proved_optimal": s.best_proved,
                    },
                    "played": {
                        "expected": s.played.expected(),
                        "expected_range": value_range(s.played),
                        "optimal": s.is_optimal(),
                        "lost": lost.value,
                        "lost_range": range_json(lost),
                        "beyond_limit": s.beyond_limit,
                    },
                    "luck": {
                        "candidates_left": s.left,
                        "expected_candidates_left": s.expected_left,
                        "expected_after": s.after.expected(),
                        "expected_after_range": value_range(s.after),
                        "average_after": avg.value,
                        "average_after_range": range_json(avg),
                        "gained": luck.value,
                        "gained_range": range_json(luck),
                    },
                })
            })
            .collect();
        let (lost, luck, total, start) =
            (self.lost(), self.luck(), self.total(), self.optimal_start());
        let rest = self.rest.as_ref().map(|r| {
            serde_json::json!({
                "candidates": r.candidates.len(),
                "candidate_words": (r.candidates.len() <= LIST_WORDS).then(|| answer_words(game, &r.candidates)),
                "best": guess_words(game, &r.best),
                "expected": r.value.expected(),
                "expected_range": value_range(r.value),
                "source": source_name(r.source),
            })
        });
        // Exact: every quantity proved, the optimum from the start included.
        let start_proved = self.steps.first().is_none_or(|s| s.best_proved);
        let exact = lost.is_exact()
            && luck.is_exact()
            && total.is_exact()
            && start.is_exact()
            && start_proved;
        serde_json::json!({
            "lists": game.name,
            "mode": if self.hard { "hard" } else { "normal" },
            "max_guesses": self.max_guesses,
            "found": self.found,
            "steps": steps,
            "rest": rest,
            "summary": {
                "optimal_start": start.expected(),
                "optimal_start_range": value_range(start),
                "lost_to_choices": lost.value,
                "lost_to_choices_range": range_json(lost),
                "luck": luck.value,
                "luck_range": range_json(luck),
                "total": total.value,
                "total_range": range_json(total),
                "guesses_played": self.steps.len(),
                "exact": exact,
            },
        })
    }
}
