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

use crate::candidates::Candidates;
use crate::game::{AnswerId, Game, GuessId};
use crate::hard::Revealed;
use crate::search::bound::{Objective, OVER_PENALTY};
use crate::search::{Config, SolveError, Solver};
use crate::table::FeedbackTable;
use crate::tree::Tree;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The number of guesses the game allows.
pub const GAME_LIMIT: u8 = 6;

/// A finished solve's tree is valid by the solver's construction (checked against
/// the reference replay by the tests); a failure here is a solver bug, not bad input.
const SOLVED_TREES_ARE_VALID: &str = "the solver's trees are valid";

/// A state no tree can finish within the guesses left: the evidence of a refutation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evidence {
    /// The opener's feedback that leads to the state.
    pub feedback: u8,
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
    let ids: Vec<AnswerId> = solver.game().all_answer_ids();
    let depth = solver.config().max_guesses;
    Ok(solver
        .first_infeasible_bucket(opener, &ids, depth, &Revealed::default())?
        .is_none())
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
