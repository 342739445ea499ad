//! The order a per-opener sweep takes its openers in: by a cheap one-level
//! [`estimate`] (the one-level lower bound, then the sum of squared bucket sizes),
//! the most promising of the whole list first in every shard ([`prepass_plan`]), so
//! a low cutoff comes early. Cost: one bucket count per opener over every answer.

use crate::game::candidates::count_buckets;
use crate::game::feedback::{Feedback, FEEDBACKS};
use crate::game::table::FeedbackTable;
use crate::game::word::Word;
use crate::game::{Game, GuessId};
use crate::search::bound::{Objective, INFEASIBLE};

/// Openers in the order a cutoff sweep takes them: the `prepass` most promising of
/// `all` first (every shard runs the same ones, so every shard gets a good cutoff
/// early), then the rest of `mine`, each part by [`estimate`].
pub fn prepass_plan(
    game: &Game,
    table: &FeedbackTable,
    all: &[GuessId],
    mine: &[GuessId],
    prepass: usize,
    max_guesses: u8,
) -> Vec<GuessId> {
    let mut plan: Vec<GuessId> = Vec::new();
    let mut seen = vec![false; game.n_guesses()];
    if prepass > 0 {
        for g in order_by_estimate(game, table, all, max_guesses)
            .into_iter()
            .take(prepass)
        {
            seen[g.index()] = true;
            plan.push(g);
        }
    }
    for g in order_by_estimate(game, table, mine, max_guesses) {
        if !std::mem::replace(&mut seen[g.index()], true) {
            plan.push(g);
        }
    }
    plan
}

/// The one-level lower bound of an opener and its sum of squared bucket sizes (the
/// estimate openers are ordered by, smallest first).
pub fn estimate(
    game: &Game,
    table: &FeedbackTable,
    opener: GuessId,
    max_guesses: u8,
) -> (u64, u64) {
    let mut counts = [0u32; FEEDBACKS];
    count_buckets(table, opener, &game.all_answer_ids(), &mut counts);
    let mut bound = game.n_answers() as u64;
    let mut sum_squares = 0u64;
    for (f, &m) in counts.iter().enumerate() {
        sum_squares += m as u64 * m as u64;
        if m > 0 && f != Feedback::ALL_GREEN.0 as usize {
            bound +=
                Objective::total().size_bound(m as usize, 0, max_guesses.saturating_sub(1)) as u64;
        }
    }
    (bound.min(INFEASIBLE as u64), sum_squares)
}

/// `openers` sorted by [`estimate`], ties alphabetical.
pub fn order_by_estimate(
    game: &Game,
    table: &FeedbackTable,
    openers: &[GuessId],
    max_guesses: u8,
) -> Vec<GuessId> {
    let mut keyed: Vec<((u64, u64), Word, GuessId)> = openers
        .iter()
        .map(|&g| {
            (
                estimate(game, table, g, max_guesses),
                game.guesses[g.index()],
                g,
            )
        })
        .collect();
    keyed.sort();
    keyed.into_iter().map(|(_, _, g)| g).collect()
}
