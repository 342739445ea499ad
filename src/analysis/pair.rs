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
//! For a search over pairs (`crate::jobs::pairs`): [`pair_bound`], a cheap lower
//! bound, and [`second_bounds`], the same for every second guess at once (left early
//! under a cutoff); [`small_bucket_floor`], a bound over every second guess from the
//! first guess's exact total; [`pair_below`], the value under a cutoff, serial
//! ([`Solver::parts_cost`]).
//!
//! **Cannot finish**: when some part cannot be finished within the guesses left,
//! [`PairValue::total`] is `None`.
//!
//! Invariants: exact (tests: brute force on small random games, both modes); every
//! part is solved on the shared solver, in parallel, largest first. Measured
//! (docs/guide/bounds.md): `salet courd` and `parse clint` on the original lists.

use crate::game::candidates::partition;
use crate::game::feedback::Feedback;
use crate::game::hard::Revealed;
use crate::game::table::FeedbackTable;
use crate::game::{Game, GuessId};
use crate::search::bound::INFEASIBLE;
use crate::search::parts::{Part, PartsCost};
use crate::search::{OpenerCost, SolveError, Solver};
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

/// A pair split into what it costs for sure and its independent subgames.
#[derive(Clone, Debug)]
pub struct PairParts {
    /// Guesses 1 and 2 paid by every answer (module doc).
    pub here: u64,
    /// The subgames solved from guess 3 on (or from guess 2 in fallback buckets).
    pub parts: Vec<Part>,
    pub fallback: (usize, usize),
    pub found_by_two: usize,
    /// False when some answer is not found within the guesses (fewer than 2).
    pub in_time: bool,
}

/// The parts of `first` then `second` (module doc), on `game` in `hard` mode or not,
/// at most `max` guesses.
pub fn pair_parts(
    game: &Game,
    table: &FeedbackTable,
    hard: bool,
    max: u8,
    first: GuessId,
    second: GuessId,
) -> PairParts {
    let ids = game.all_answer_ids();
    let (w1, w2) = (game.guesses[first.index()], game.guesses[second.index()]);
    let mut p = PairParts {
        here: ids.len() as u64,
        parts: Vec::new(),
        fallback: (0, 0),
        found_by_two: 0,
        in_time: true,
    };
    for (f1, bucket) in partition(table, first, &ids) {
        if f1.is_all_green() {
            p.found_by_two += 1;
            continue;
        }
        // Not found by guess 1, so a second guess must fit.
        p.in_time &= max >= 2;
        let after1 = if hard {
            Revealed::default().after(w1, f1)
        } else {
            Revealed::default()
        };
        if hard && !after1.allows(w2) {
            p.fallback.0 += 1;
            p.fallback.1 += bucket.len();
            p.parts.push(Part {
                ids: bucket,
                left: max.saturating_sub(1),
                revealed: after1,
            });
            continue;
        }
        p.here += bucket.len() as u64;
        for (f2, part) in partition(table, second, &bucket) {
            if f2.is_all_green() {
                p.found_by_two += 1;
                continue;
            }
            let revealed = if hard { after1.after(w2, f2) } else { after1 };
            p.parts.push(Part {
                ids: part,
                left: max.saturating_sub(2),
                revealed,
            });
        }
    }
    p
}

/// [`pair_parts`] on `solver`'s game, mode and guess limit.
fn solver_parts(
    solver: &Solver,
    table: &FeedbackTable,
    first: GuessId,
    second: GuessId,
) -> PairParts {
    let config = solver.config();
    pair_parts(
        solver.game(),
        table,
        config.hard,
        config.max_guesses,
        first,
        second,
    )
}

/// The exact value of playing `first` then `second` whatever the feedback, the rest
/// optimal, on `solver`'s game and configuration (module doc); `table` is the game's
/// feedback table. Its parts are solved in parallel, largest first.
pub fn pair_value(
    solver: &Solver,
    table: &FeedbackTable,
    first: GuessId,
    second: GuessId,
) -> Result<PairValue, SolveError> {
    let mut p = solver_parts(solver, table, first, second);
    p.parts.sort_by_key(|p| std::cmp::Reverse(p.ids.len()));
    let costs: Vec<Option<u32>> = p
        .parts
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
        .try_fold(p.here, |t, c| {
            c.filter(|&v| v < INFEASIBLE).map(|v| t + v as u64)
        })
        .filter(|_| p.in_time);
    Ok(PairValue {
        total,
        fallback: p.fallback,
        found_by_two: p.found_by_two,
        parts: p.parts.len(),
    })
}

/// The pair's total under a cutoff, serial ([`Solver::parts_cost`]): `Exact(v)` the
/// exact total below `cutoff`, else a proved lower bound at least `cutoff`; a value
/// at least [`INFEASIBLE`] means the pair cannot finish. For a search over pairs
/// (`crate::jobs::pairs`), many of them in parallel on one solver each.
pub fn pair_below(
    solver: &Solver,
    table: &FeedbackTable,
    first: GuessId,
    second: GuessId,
    cutoff: Option<u64>,
) -> Result<PartsCost, SolveError> {
    let p = solver_parts(solver, table, first, second);
    if !p.in_time {
        return Ok(PartsCost {
            cost: OpenerCost::AtLeast(INFEASIBLE as u64),
            searched: false,
        });
    }
    solver.parts_cost(p.here, &p.parts, cutoff)
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
    // The guess limit only decides `in_time` and each part's guesses left, neither
    // of which the bound reads.
    let p = pair_parts(game, table, hard, u8::MAX, first, second);
    p.here
        + p.parts
            .iter()
            .map(|t| 2 * t.ids.len() as u64 - 1)
            .sum::<u64>()
}

/// [`pair_bound`] of `first` with every allowed second guess, indexed by guess id,
/// in one pass over the answers per second guess without building buckets: the
/// bound only needs, per bucket of `first`, its size, whether `second` is one of its
/// answers, and how many distinct feedbacks `second` gives on it (its parts), so each
/// bucket's feedbacks are marked in a 243-bit set (four words, in registers) and
/// counted.
///
/// With a `cutoff`, a second guess is left early, buckets largest first, once what
/// its bound already holds plus the least the buckets left can add (`2|b| - 1` each
/// at worst, as no bucket has more parts than answers) reaches the cutoff: that
/// value, at most its [`pair_bound`] and at least the cutoff, is returned instead.
/// So every value below the cutoff equals [`pair_bound`], every other one lies
/// between the cutoff and it (tested).
pub fn second_bounds(
    game: &Game,
    table: &FeedbackTable,
    hard: bool,
    first: GuessId,
    cutoff: Option<u64>,
) -> Vec<u64> {
    let n = game.n_answers() as u64;
    let ids = game.all_answer_ids();
    let w1 = game.guesses[first.index()];
    let mut buckets: Vec<(Feedback, Vec<crate::game::AnswerId>)> = partition(table, first, &ids)
        .into_iter()
        .filter(|(f, _)| !f.is_all_green())
        .collect();
    buckets.sort_by_key(|(_, b)| std::cmp::Reverse(b.len()));
    // The non-green buckets of `first`, as answer indices grouped by bucket.
    let mut flat: Vec<usize> = Vec::with_capacity(ids.len());
    let mut ends: Vec<usize> = Vec::new();
    let mut after: Vec<Revealed> = Vec::new();
    // The least the buckets from i on can add: sum of (2|b| - 1).
    let mut least_rest: Vec<u64> = Vec::new();
    for (f1, bucket) in &buckets {
        flat.extend(bucket.iter().map(|a| a.index()));
        ends.push(flat.len());
        after.push(Revealed::default().after(w1, *f1));
    }
    let mut rest = 0;
    for (_, b) in buckets.iter().rev() {
        rest += 2 * b.len() as u64 - 1;
        least_rest.push(rest);
    }
    least_rest.reverse();
    least_rest.push(0);
    let cutoff = cutoff.unwrap_or(u64::MAX);
    (0..game.n_guesses())
        .map(|g| {
            let row2 = table.row(GuessId::new(g));
            let w2 = game.guesses[g];
            let mut total = n;
            let mut start = 0;
            for (i, &end) in ends.iter().enumerate() {
                if total + least_rest[i] >= cutoff {
                    return total + least_rest[i];
                }
                let mut seen = [0u64; 4];
                for &a in &flat[start..end] {
                    let f = row2[a] as usize;
                    seen[f >> 6] |= 1 << (f & 63);
                }
                // All-green is feedback 242: bit 50 of the fourth word.
                const _: () = assert!(Feedback::ALL_GREEN.0 == 242);
                let green = seen[3] >> 50 & 1;
                let parts = seen.iter().map(|w| w.count_ones() as u64).sum::<u64>() - green;
                let size = (end - start) as u64;
                total += if hard && !after[i].allows(w2) {
                    2 * size - 1
                } else {
                    3 * size - 2 * green - parts
                };
                start = end;
            }
            total
        })
        .collect()
}

/// A lower bound on `first` with any second guess, from its exact opener total
/// `total` (normal mode only): `total + s - 1`, `s` the number of non-green buckets of
/// `first` with one or two answers. A pair costs each bucket `b` at least what the
/// optimum from guess 2 does (`c(b)`: it is one strategy for `b`), and on a bucket of
/// one or two answers not holding `second` strictly more: `c(b) = 2|b| - 1` there
/// (guess one answer, then the other), while the pair pays `|b|` for guess 2 and, as
/// `second` finds none of them, at least `2|T| - 1` for each part, `2|b|` at least in
/// all. `second` is an answer in at most one bucket, hence the `- 1`. (In hard mode
/// a second guess illegal in a bucket plays it optimally, so no such bound.)
pub fn small_bucket_floor(table: &FeedbackTable, first: GuessId, total: u64) -> u64 {
    let mut size = [0u32; 243];
    for &f in table.row(first) {
        size[f as usize] += 1;
    }
    size[Feedback::ALL_GREEN.0 as usize] = 0;
    let small = size.iter().filter(|&&m| m == 1 || m == 2).count() as u64;
    total + small.saturating_sub(1)
}
