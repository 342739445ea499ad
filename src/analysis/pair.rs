//! Fixed two-word starts (`wordle-tree pair FIRST SECOND`): the exact least total when
//! the first two guesses are fixed whatever the feedback and every later guess is
//! optimal.
//!
//! **Definition.** Every answer pays guess 1 (`first`); the one answer equal to
//! `first` is found there. In every other bucket of `first`, `second` is played
//! (each of its answers pays guess 2, even when the bucket holds one answer: the
//! start is fixed whatever the feedback), the answer equal to `second` (if in the
//! bucket) is found there, and each non-green part of `second` on the bucket is
//! solved exactly from guess 3 on with `max_guesses - 2` guesses left
//! ([`Solver::cost`]). So `total = n + sum over buckets b of first (|b| + sum over
//! parts T of second on b of cost(T, max - 2))`, exact because the parts are
//! independent subgames.
//!
//! **Hard mode.** Where `second` breaks the rules after `first`'s feedback (it does
//! not use a revealed hint), it cannot be played there; in that bucket the game goes
//! on optimally from guess 2 instead (`cost(b, max - 1)`, what `first` alone would
//! give it), and [`PairValue::fallback`] counts such buckets and their answers, so a
//! pair that is not playable everywhere says so. With a pair playable everywhere the
//! value is the same definition as in normal mode.
//!
//! [`pair_bound`] is a cheap lower bound for pruning a search over pairs.
//!
//! **Cannot finish**: when some part cannot be finished within the guesses left,
//! [`PairValue::total`] is `None`.
//!
//! Invariants: exact (tests: brute force on small random games, both modes); every
//! part is solved on the shared solver, in parallel, largest first. Measured
//! (docs/guide/bounds.md): `salet courd` and `parse clint` on the original lists.

use crate::game::candidates::partition;
use crate::game::hard::Revealed;
use crate::game::table::FeedbackTable;
use crate::game::{AnswerId, GuessId};
use crate::search::bound::INFEASIBLE;
use crate::search::{SolveError, Solver};
use rayon::prelude::*;

/// The exact value of a fixed pair (module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairValue {
    /// The exact least total; `None` when some bucket cannot be finished in time.
    pub total: Option<u64>,
    /// Hard mode: (buckets, answers) of `first` where `second` may not be played, so
    /// the game went on optimally from guess 2 (0 in normal mode).
    pub fallback: (usize, usize),
    /// Answers found by guess 1 or 2.
    pub found_by_two: usize,
    /// Subgames solved from guess 3 on (or from guess 2, in fallback buckets).
    pub parts: usize,
}

/// One subgame of a pair: its candidates, guesses left, what hard mode revealed.
struct Part {
    ids: Vec<AnswerId>,
    left: u8,
    revealed: Revealed,
}

/// The exact value of playing `first` then `second` whatever the feedback, the rest
/// optimal, on `solver`'s game and configuration (module doc); `table` is the game's
/// feedback table.
pub fn pair_value(
    solver: &Solver,
    table: &FeedbackTable,
    first: GuessId,
    second: GuessId,
) -> Result<PairValue, SolveError> {
    let game = solver.game();
    let config = solver.config();
    let max = config.max_guesses;
    let ids = game.all_answer_ids();
    let (w1, w2) = (game.guesses[first.index()], game.guesses[second.index()]);
    let mut total = ids.len() as u64;
    let mut parts: Vec<Part> = Vec::new();
    let mut fallback = (0, 0);
    let mut found_by_two = 0;
    let mut in_time = true;
    for (f1, bucket) in partition(table, first, &ids) {
        if f1.is_all_green() {
            found_by_two += 1;
            continue;
        }
        // Not found by guess 1, so a second guess must fit.
        in_time &= max >= 2;
        let after1 = if config.hard {
            Revealed::default().after(w1, f1)
        } else {
            Revealed::default()
        };
        if config.hard && !after1.allows(w2) {
            fallback.0 += 1;
            fallback.1 += bucket.len();
            parts.push(Part {
                ids: bucket,
                left: max.saturating_sub(1),
                revealed: after1,
            });
            continue;
        }
        total += bucket.len() as u64;
        for (f2, part) in partition(table, second, &bucket) {
            if f2.is_all_green() {
                found_by_two += 1;
                continue;
            }
            let revealed = if config.hard {
                after1.after(w2, f2)
            } else {
                after1
            };
            parts.push(Part {
                ids: part,
                left: max.saturating_sub(2),
                revealed,
            });
        }
    }
    parts.sort_by_key(|p| std::cmp::Reverse(p.ids.len()));
    let n_parts = parts.len();
    let costs: Vec<Option<u32>> = parts
        .par_iter()
        .map(|p| {
            if p.left == 0 {
                return Ok(None);
            }
            solver.cost(&p.ids, p.left, &p.revealed)
        })
        .collect::<Result<_, SolveError>>()?;
    let total = costs
        .iter()
        .try_fold(total, |t, c| {
            c.filter(|&v| v < INFEASIBLE).map(|v| t + v as u64)
        })
        .filter(|_| in_time);
    Ok(PairValue {
        total,
        fallback,
        found_by_two,
        parts: n_parts,
    })
}

/// A cheap lower bound on [`pair_value`]'s total, for pruning a search over pairs
/// (docs/guide/bounds.md): every part `T` of the second guess costs at least `2|T| -
/// 1` (the size bound: one answer found by its first guess, the rest by a later one),
/// and in hard mode a bucket where the second guess is illegal at least `2|b| - 1`.
/// One pass over the answers per guess, no search; `u64::MAX` never (an unfinishable
/// pair is only found by [`pair_value`]).
pub fn pair_bound(
    game: &crate::game::Game,
    table: &FeedbackTable,
    hard: bool,
    first: GuessId,
    second: GuessId,
) -> u64 {
    let ids = game.all_answer_ids();
    let (w1, w2) = (game.guesses[first.index()], game.guesses[second.index()]);
    let mut total = ids.len() as u64;
    for (f1, bucket) in partition(table, first, &ids) {
        if f1.is_all_green() {
            continue;
        }
        if hard && !Revealed::default().after(w1, f1).allows(w2) {
            total += 2 * bucket.len() as u64 - 1;
            continue;
        }
        total += bucket.len() as u64;
        for (f2, part) in partition(table, second, &bucket) {
            if !f2.is_all_green() {
                total += 2 * part.len() as u64 - 1;
            }
        }
    }
    total
}
