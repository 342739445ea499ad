//! Playing along with a tree: histories of `GUESS:FEEDBACK` steps (read from every
//! form a player types or pastes by [`parse_history`], the one syntax of the CLI, the
//! API and the page: [`HISTORY_SYNTAX`]), what they leave
//! (candidates, and in hard mode what they revealed), where they lead in a stored
//! tree, and the advice for the next guess, solved exactly when the history has left
//! the tree, or when there is no tree ([`Guide::Solve`]: custom lists, or a chosen
//! opener), from the history alone, the opener included.
//!
//! Invariants: a [`History`] is only built by [`replay`], so it is legal and
//! consistent: every guess is allowed (and in hard mode obeys what the steps before
//! it revealed), at least one answer gives every feedback, and an all-green feedback
//! can only be the last step. Its candidates are sorted answer ids.
//!
//! Cost: replaying is one feedback per answer per step (2315 x steps, microseconds);
//! following a tree is one binary search per step (well under a microsecond); the
//! expected guesses walk every candidate through the subtree. Only a history that left
//! the tree needs a feedback table and the exact solver (milliseconds for the small
//! states a real game reaches; seconds to minutes for the hundreds of candidates some
//! poor openers leave, hence the optional deadline: then the advice is the best guess
//! found, with its exact plan and a proved range for the optimum, marked unproven).

use crate::game::candidates::{canonical_labels, Candidates};
use crate::game::echo::echo;
use crate::game::feedback::{Feedback, FeedbackError};
use crate::game::hard::Revealed;
use crate::game::table::FeedbackTable;
use crate::game::word::{Word, WordError};
use crate::game::{AnswerId, Game, GuessId};
use crate::search::{Config, SolveError, Solver};
use crate::tree::{Node, Tree};
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

mod history;
pub use history::*;

/// A legal, consistent history and what it leaves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct History {
    pub steps: Vec<Step>,
    /// The answers that give every feedback of the history.
    pub candidates: Candidates,
    /// What the steps revealed (hard-mode knowledge; kept in normal mode too).
    pub revealed: Revealed,
    /// True when the last step was all green.
    pub solved: bool,
}

/// Replays `steps` over every answer of `game`, checking them (hard-mode legality too
/// when `hard`).
pub fn replay(game: &Game, steps: &[Step], hard: bool) -> Result<History, HistoryError> {
    let mut candidates = Candidates::all(game.n_answers());
    let mut revealed = Revealed::default();
    let mut solved = false;
    for (i, &step) in steps.iter().enumerate() {
        let tok = || token(game, step);
        let before = || tokens(game, &steps[..i]);
        if solved {
            return Err(HistoryError::AfterSolved {
                step: i + 1,
                token: tok(),
            });
        }
        let word = game.guesses[step.guess.index()];
        if hard {
            if let Some(why) = revealed.violation(word) {
                return Err(HistoryError::HardMode {
                    step: i + 1,
                    token: tok(),
                    before: before(),
                    why,
                });
            }
        }
        candidates.retain(|a| Feedback::compute(word, game.answers[a.index()]) == step.feedback);
        if candidates.is_empty() {
            return Err(HistoryError::Inconsistent {
                step: i + 1,
                token: tok(),
                before: before(),
            });
        }
        revealed = revealed.after(word, step.feedback);
        solved = step.feedback.is_all_green();
    }
    Ok(History {
        steps: steps.to_vec(),
        candidates,
        revealed,
        solved,
    })
}

/// Where a history leads in a tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Position<'t> {
    /// Still on the tree: this node's guess is the next one.
    On(&'t Node),
    /// The last step was all green.
    Solved,
    /// The history left the tree at `step` (1-based).
    Off { step: usize, why: OffTree },
}

/// How a history left the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OffTree {
    /// Another guess was played than the tree's.
    OtherGuess { played: GuessId, tree: GuessId },
    /// The tree has no branch for the feedback seen.
    NoBranch,
}

/// Follows `steps` from the root of `tree` (one binary search per step).
#[inline]
pub fn follow<'t>(tree: &'t Tree, steps: &[Step]) -> Position<'t> {
    let mut node = tree.root();
    for (i, s) in steps.iter().enumerate() {
        if s.guess != node.guess {
            return Position::Off {
                step: i + 1,
                why: OffTree::OtherGuess {
                    played: s.guess,
                    tree: node.guess,
                },
            };
        }
        if s.feedback.is_all_green() {
            return Position::Solved;
        }
        match node.child(s.feedback) {
            Some(child) => node = child,
            None => {
                return Position::Off {
                    step: i + 1,
                    why: OffTree::NoBranch,
                }
            }
        }
    }
    Position::On(node)
}

/// The steps the tree plays for `answer`, ending all green; `None` when the tree does
/// not reach it (a tree for other lists, or damaged) within 32 guesses.
pub fn path(game: &Game, root: &Node, answer: AnswerId) -> Option<Vec<Step>> {
    let word = game.answers[answer.index()];
    let mut steps = Vec::new();
    let mut node = root;
    while steps.len() < 32 {
        let guess = *game.guesses.get(node.guess.index())?;
        let feedback = Feedback::compute(guess, word);
        steps.push(Step {
            guess: node.guess,
            feedback,
        });
        if feedback.is_all_green() {
            return Some(steps);
        }
        node = node.child(feedback)?;
    }
    None
}

/// The total and the most guesses `node` still needs over `candidates`, or `None` when
/// it misses one of them (so walking every candidate also checks the subtree).
pub fn subtree_depths(game: &Game, node: &Node, candidates: &[AnswerId]) -> Option<(u64, usize)> {
    let mut total = 0;
    let mut most = 0;
    for &a in candidates {
        let d = path(game, node, a)?.len();
        total += d as u64;
        most = most.max(d);
    }
    Some((total, most))
}

/// The next guess for a history.
#[derive(Clone, Debug, PartialEq)]
pub enum Advice {
    /// The history ends all green.
    Solved {
        answer: AnswerId,
        guesses: usize,
    },
    Play(Move),
}

/// A guess to play and what is known about the rest of the game.
#[derive(Clone, Debug, PartialEq)]
pub struct Move {
    pub guess: GuessId,
    /// The candidates left by the history, sorted.
    pub candidates: Vec<AnswerId>,
    /// Total guesses still to come over the candidates, this guess included, when the
    /// plan below is followed. `cost / candidates.len()` is the expected number.
    pub cost: u64,
    /// The most guesses still to come for any candidate, this guess included.
    pub worst: usize,
    /// The plan from here: the stored subtree, or the one solved off the tree.
    pub plan: Node,
    /// Where the plan came from.
    pub source: Source,
}

impl Move {
    /// Expected guesses still to come, this one included (each candidate equally likely).
    pub fn expected(&self) -> f64 {
        self.cost as f64 / self.candidates.len() as f64
    }

    /// When no plan is sure to finish within the `allowed` guesses left (the search
    /// had to allow more): the warning `next`, `play` and `serve` all give.
    pub fn limit_warning(&self, allowed: usize) -> Option<String> {
        match self.source {
            Source::Solved {
                left,
                within_limit: false,
                ..
            } => Some(format!(
                "no plan is sure to finish within the {allowed} guess(es) left, this one needs up to {left}"
            )),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Looked up in the stored tree.
    Tree,
    /// Solved by the exact search, `left` guesses allowed. `off` is where the history
    /// left the stored tree (`None`: there was no tree, [`Guide::Solve`]).
    /// `within_limit` is false when no plan finishes within the guesses the game
    /// allowed, and `left` had to be raised. `opener_given`: the guess is the opener
    /// the player chose ([`Guide::Solve`] with an opener, on an empty history), and
    /// only the rest of the plan was solved (its cost exact for that opener).
    Solved {
        off: Option<(usize, OffTree)>,
        opener_given: bool,
        left: u8,
        within_limit: bool,
        proof: Proof,
    },
}

impl Source {
    /// False when no plan finishes within the guesses the game has left.
    pub fn within_limit(&self) -> bool {
        !matches!(
            self,
            Source::Solved {
                within_limit: false,
                ..
            }
        )
    }

    /// True when the guess and its cost are proved optimal for the state (a tree's
    /// move is the tree's choice, not a proof).
    pub fn proven_optimal(&self) -> bool {
        matches!(
            self,
            Source::Solved {
                opener_given: false,
                proof: Proof::Exact,
                ..
            }
        )
    }
}

/// How far the off-tree search got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The plan is optimal.
    Exact,
    /// The deadline passed first: the plan is the best found (its cost is exact for
    /// its first guess), no plan costs less than `lower_bound`, and `examined` of the
    /// `guesses` whose one-level bound left them in the running were settled.
    Unproven {
        lower_bound: u64,
        examined: usize,
        guesses: usize,
    },
}

/// Why no advice can be given.
#[derive(Debug, thiserror::Error)]
pub enum AdviceError {
    #[error(transparent)]
    History(#[from] HistoryError),
    #[error("the history has used all {0} guesses without finding the answer")]
    OutOfGuesses(u8),
    #[error("the history has {steps} guesses, more than the {limit} the game allows")]
    TooManySteps { steps: usize, limit: u8 },
    #[error(
        "the tree does not reach every candidate of this history (damaged, or for other lists)"
    )]
    TreeMisses,
    #[error("off-tree search")]
    Solve(#[from] SolveError),
}

/// What the advice follows.
#[derive(Clone, Copy, Debug)]
pub enum Guide<'t> {
    /// A stored tree while the history stays on it; off it, the exact search.
    Tree(&'t Tree),
    /// No tree (custom lists, or a chosen opener): every state is solved exactly from
    /// the history, the first guess too (an exact search over every allowed guess,
    /// seconds for a game of 50 answers, much longer for thousands) unless `opener`
    /// is given, when the empty history plays it and solves each of its buckets.
    Solve {
        hard: bool,
        max_guesses: u8,
        opener: Option<GuessId>,
    },
}

impl Guide<'_> {
    pub fn hard(&self) -> bool {
        match self {
            Guide::Tree(t) => t.hard(),
            Guide::Solve { hard, .. } => *hard,
        }
    }

    /// The game's guess limit.
    pub fn max_guesses(&self) -> u8 {
        match self {
            Guide::Tree(t) => t.max_guesses(),
            Guide::Solve { max_guesses, .. } => *max_guesses,
        }
    }
}

/// The advice for `steps`: replays them, follows the tree, and off the tree (or with
/// no tree) solves the state ([`solve_off_tree`]): exactly, or with a `deadline` the
/// best guess found by then.
pub fn advise(
    game: &Game,
    guide: Guide,
    steps: &[Step],
    stop: &AtomicBool,
    deadline: Option<Instant>,
) -> Result<Advice, AdviceError> {
    let (hard, max_guesses) = (guide.hard(), guide.max_guesses());
    if steps.len() > max_guesses as usize {
        return Err(AdviceError::TooManySteps {
            steps: steps.len(),
            limit: max_guesses,
        });
    }
    let history = replay(game, steps, hard)?;
    let candidates = history.candidates.ids();
    if history.solved {
        return Ok(Advice::Solved {
            answer: candidates[0],
            guesses: steps.len(),
        });
    }
    let off = match guide {
        Guide::Tree(tree) => match follow(tree, steps) {
            Position::On(node) => {
                let (cost, worst) =
                    subtree_depths(game, node, &candidates).ok_or(AdviceError::TreeMisses)?;
                return Ok(Advice::Play(Move {
                    guess: node.guess,
                    candidates,
                    cost,
                    worst,
                    plan: node.clone(),
                    source: Source::Tree,
                }));
            }
            // `replay` accepted the history, so its last step is the only green one.
            Position::Solved => unreachable!("a solved history returned above"),
            Position::Off { step, why } => Some((step, why)),
        },
        Guide::Solve { .. } => None,
    };
    let used = steps.len().min(u8::MAX as usize) as u8;
    if used >= max_guesses {
        return Err(AdviceError::OutOfGuesses(max_guesses));
    }
    let revealed = if hard {
        history.revealed
    } else {
        Revealed::default()
    };
    let opener = match guide {
        Guide::Solve {
            opener: Some(g), ..
        } if steps.is_empty() => Some(g),
        _ => None,
    };
    let (plan, cost, left, proof) = match opener {
        Some(g) => solve_after_opener(game, g, max_guesses, hard, stop, deadline)?,
        None => solve_off_tree(
            game,
            &candidates,
            max_guesses - used,
            &revealed,
            hard,
            stop,
            deadline,
        )?,
    };
    // Only a search interrupted during `build` leaves a plan that misses a candidate.
    let (replayed, worst) = subtree_depths(game, &plan, &candidates)
        .ok_or(AdviceError::Solve(SolveError::Interrupted))?;
    debug_assert_eq!(replayed, cost as u64, "the solved plan replays to its cost");
    Ok(Advice::Play(Move {
        guess: plan.guess,
        candidates,
        cost: cost as u64,
        worst,
        plan,
        source: Source::Solved {
            off,
            opener_given: opener.is_some(),
            left,
            within_limit: left == max_guesses - used,
            proof,
        },
    }))
}

/// The plan of a chosen opener over every answer with `max_guesses` guesses: each of
/// its buckets solved as a state ([`solve_off_tree`], so with a `deadline` each gets
/// the best found by then). `(plan, cost, guesses it was solved with, proof)`; the
/// proof and bound speak of plans that open with `opener`.
fn solve_after_opener(
    game: &Game,
    opener: GuessId,
    max_guesses: u8,
    hard: bool,
    stop: &AtomicBool,
    deadline: Option<Instant>,
) -> Result<(Node, u32, u8, Proof), SolveError> {
    let word = game.guesses[opener.index()];
    let mut buckets: Vec<(Feedback, Vec<AnswerId>)> = Vec::new();
    for a in (0..game.n_answers()).map(AnswerId::new) {
        let f = Feedback::compute(word, game.answers[a.index()]);
        match buckets.iter_mut().find(|(g, _)| *g == f) {
            Some((_, b)) => b.push(a),
            None => buckets.push((f, vec![a])),
        }
    }
    buckets.sort_by_key(|(f, _)| f.0);
    let mut cost = game.n_answers() as u32;
    let mut left = max_guesses;
    let (mut bound, mut examined, mut guesses, mut exact) = (cost as u64, 0, 0, true);
    let mut branches = Vec::new();
    for (f, bucket) in buckets {
        if f.is_all_green() {
            continue;
        }
        if max_guesses < 2 {
            return Err(SolveError::Infeasible(max_guesses));
        }
        let revealed = if hard {
            Revealed::default().after(word, f)
        } else {
            Revealed::default()
        };
        let (plan, c, l, proof) = solve_off_tree(
            game,
            &bucket,
            max_guesses - 1,
            &revealed,
            hard,
            stop,
            deadline,
        )?;
        cost += c;
        left = left.max(l + 1);
        match proof {
            Proof::Exact => bound += c as u64,
            Proof::Unproven {
                lower_bound,
                examined: e,
                guesses: g,
            } => {
                exact = false;
                bound += lower_bound;
                examined += e;
                guesses += g;
            }
        }
        branches.push((f, plan));
    }
    let proof = if exact {
        Proof::Exact
    } else {
        Proof::Unproven {
            lower_bound: bound,
            examined,
            guesses,
        }
    };
    let plan = Node {
        guess: opener,
        branches,
    };
    Ok((plan, cost, left, proof))
}

/// Solves a state off the tree: `(plan, cost, guesses it was solved with, proof)`, as
/// [`solve_state`], with guess ids of `game`.
///
/// The solver runs on a sub-game whose answers are just the candidates (every allowed
/// guess kept, or in normal mode one per way of splitting them, `distinct_splits`):
/// the same state, but its feedback table is 12972 x n instead of 12972 x 2315. For
/// `crane:BBYBB` (134 candidates) that is 1.7 MB built in a few ms instead of 30 MB in
/// 60-400 ms (the latter measured on the shared 2-core machine).
pub fn solve_off_tree(
    game: &Game,
    candidates: &[AnswerId],
    left: u8,
    revealed: &Revealed,
    hard: bool,
    stop: &AtomicBool,
    deadline: Option<Instant>,
) -> Result<(Node, u32, u8, Proof), SolveError> {
    // Normal mode: one guess per way of splitting the state (hard mode's legality
    // depends on the word itself, so there every guess stays). audio:YBBBB keeps
    // 11369 of 12972 guesses: 2.16 -> 1.99 s.
    let (sub, table) = sub_game(game, candidates, !hard);
    let solver = state_solver(&sub, &table, left, hard, stop);
    let ids: Vec<AnswerId> = sub.all_answer_ids();
    let (plan, cost, l, proof) = solve_state(&solver, &ids, left, revealed, deadline)?;
    Ok((remap(&plan, &sub, game), cost, l, proof))
}

/// The solver of a state's sub-game ([`sub_game`]) with `max_guesses` left (at
/// least 1), its transposition table capped at 512 MiB, stopped by `stop`.
pub(crate) fn state_solver<'s>(
    sub: &'s Game,
    table: &'s FeedbackTable,
    max_guesses: u8,
    hard: bool,
    stop: &'s AtomicBool,
) -> Solver<'s> {
    Solver::new(
        sub,
        table,
        Config {
            max_guesses: max_guesses.max(1),
            hard,
            memory_limit: 512 << 20,
            ..Config::default()
        },
    )
    .with_stop(stop)
}

/// The game over `candidates` (its answers, in their order) and its feedback table:
/// every guess of `game`, or with `distinct` one guess per way of splitting the
/// candidates ([`distinct_splits`]; normal mode only: in hard mode a guess's
/// legality depends on the word itself).
pub(crate) fn sub_game(
    game: &Game,
    candidates: &[AnswerId],
    distinct: bool,
) -> (Game, FeedbackTable) {
    let answers: Vec<Word> = candidates
        .iter()
        .map(|&a| game.answers[a.index()])
        .collect();
    let sub = Game::from_words(&answers, &game.guesses);
    let table = FeedbackTable::build(&sub);
    if !distinct {
        return (sub, table);
    }
    let guesses = distinct_splits(&sub, &table);
    if guesses.len() < sub.n_guesses() {
        let sub = Game::from_words(&answers, &guesses);
        let table = FeedbackTable::build(&sub);
        (sub, table)
    } else {
        (sub, table)
    }
}

/// One guess of each way of splitting `game`'s answers (normal mode): the answers
/// themselves (each is the only guess that can be green on itself), then the first
/// guess of every other partition, in list order, leaving out guesses that split
/// nothing. Two guesses that split a state alike split every later state alike, so a
/// search over these finds the same costs, over fewer guesses: after a poor opener
/// many guesses differ only in letters no candidate has.
pub(crate) fn distinct_splits(game: &Game, table: &FeedbackTable) -> Vec<Word> {
    let n = game.n_answers();
    let mut seen: ahash::AHashSet<Vec<u8>> = ahash::AHashSet::new();
    let mut labels = vec![0u8; n];
    let mut kept: Vec<Word> = game.answers.clone();
    for g in n..game.n_guesses() {
        let split = canonical_labels(table.row(GuessId::new(g)).iter().copied(), &mut labels);
        if split.buckets > 1 && seen.insert(labels.clone()) {
            kept.push(game.guesses[g]);
        }
    }
    kept
}

/// A node of `from` with the guess ids of `to` (whose guesses include all of `from`'s).
fn remap(node: &Node, from: &Game, to: &Game) -> Node {
    Node {
        guess: to
            .guess_id(from.guesses[node.guess.index()])
            .expect("the sub-game's guesses are the game's"),
        branches: node
            .branches
            .iter()
            .map(|(f, child)| (*f, remap(child, from, to)))
            .collect(),
    }
}

/// The optimal plan for a state with `left` guesses, or, when no plan finishes within
/// `left`, with the fewest guesses that do: `(plan, cost, guesses it was solved with,
/// proof)`. Playing the candidates one by one always finishes, so some `left <= n` is
/// feasible. With a `deadline` ([`Solver::cost_by`]) the plan may be the best found
/// rather than a proved optimum ([`Proof::Unproven`]); the guess limit is always
/// exact (a state is only called infeasible when proved so).
pub fn solve_state(
    solver: &Solver,
    candidates: &[AnswerId],
    left: u8,
    revealed: &Revealed,
    deadline: Option<Instant>,
) -> Result<(Node, u32, u8, Proof), SolveError> {
    let most = left.max(candidates.len().min(32) as u8);
    for l in left.max(1)..=most {
        let Some(d) = deadline else {
            if let Some(cost) = solver.cost(candidates, l, revealed)? {
                let plan = solver.build(candidates, l, revealed);
                return Ok((plan, cost, l, Proof::Exact));
            }
            continue;
        };
        let Some(top) = solver.cost_by(candidates, l, revealed, d)? else {
            continue;
        };
        let guess = top.guess.expect("a settled state has a guess");
        // The guess's buckets were solved exactly on the way: the table has them.
        let (total, plan) = solver.solve_from(guess, candidates, l, revealed, &|_, _, _| {})?;
        debug_assert_eq!(
            total, top.cost as u64,
            "the best guess's plan costs what was found"
        );
        let proof = if top.lower_bound >= top.cost {
            Proof::Exact
        } else {
            Proof::Unproven {
                lower_bound: top.lower_bound as u64,
                examined: top.examined,
                guesses: top.guesses,
            }
        };
        return Ok((plan, top.cost, l, proof));
    }
    Err(SolveError::Infeasible(most))
}

impl fmt::Display for OffTree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OffTree::OtherGuess { .. } => f.write_str("another guess was played"),
            OffTree::NoBranch => f.write_str("the tree has no branch for that feedback"),
        }
    }
}

#[cfg(test)]
mod tests;
