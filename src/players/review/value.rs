//! How the review values a state off the tree: the sub-game over the first state
//! searched and its solver, the player's other buckets, the tie sets, and the value of
//! a state with and without a deadline ([`state_value`]: exact, or after the deadline
//! a range from the least any plan costs to a greedy plan's cost, [`greedy`], whose
//! work is bounded by sampling the guesses it scores).

use super::*;

/// The buckets of `word` over `cands` (game answer ids), in feedback order.
pub(super) fn buckets(
    game: &Game,
    word: Word,
    cands: &[AnswerId],
) -> Vec<(Feedback, Vec<AnswerId>)> {
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
pub(super) struct SubGame {
    /// The state's candidates (ids of the full game, sorted): answer `k` of the
    /// sub-game is `base[k]`.
    base: Vec<AnswerId>,
    game: Game,
    pub(super) table: FeedbackTable,
}

impl SubGame {
    pub(super) fn new(game: &Game, base: &[AnswerId], hard: bool) -> SubGame {
        // Hard mode keeps every guess (legality depends on the word); so does the
        // root, where nearly every guess splits the answers its own way (the check
        // would cost as much as the table).
        let distinct = !hard && base.len() < game.n_answers();
        let (sub, table) = play::sub_game(game, base, distinct);
        SubGame {
            base: base.to_vec(),
            game: sub,
            table,
        }
    }

    pub(super) fn solver<'s>(
        &'s self,
        max_guesses: u8,
        hard: bool,
        stop: &'s AtomicBool,
    ) -> Solver<'s> {
        play::state_solver(&self.game, &self.table, max_guesses, hard, stop)
    }

    /// The sub-game's ids of `ids` (a subset of the base, sorted).
    pub(super) fn ids(&self, ids: &[AnswerId]) -> Vec<AnswerId> {
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
    pub(super) fn to_game(&self, game: &Game, g: GuessId) -> GuessId {
        game.guess_id(self.game.guesses[g.index()])
            .expect("the sub-game's guesses are the game's")
    }
}

/// The total `(lo, hi, beyond the limit)` of the buckets of the player's `step` at the
/// state `cands` other than the green one and the actual one (whose value is the next
/// state's). The buckets are disjoint states: they are solved largest first, spread
/// over the threads, on the shared solver.
#[allow(clippy::too_many_arguments)]
pub(super) fn played_buckets(
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
pub(super) type StateValue = ((u64, u64), Option<GuessId>, bool);

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
pub(super) fn state_value(
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
                        greedy(solver.game(), table, ids, l, revealed, hard, GREEDY_GUESSES)
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
    let (l, (cost, guess)) = match greedy(game, table, ids, l, revealed, hard, GREEDY_GUESSES) {
        Some(plan) => (l, plan),
        None => {
            let most = ids.len().clamp(l as usize + 1, u8::MAX as usize) as u8;
            (
                most,
                greedy(game, table, ids, most, revealed, hard, GREEDY_GUESSES)?,
            )
        }
    };
    Some(((least.min(cost), cost), Some(guess), (l as i32) > left))
}

/// The guesses each node of a review's [`greedy`] plan scores: all of them when the
/// game has no more, else a sample of this many (issue 38: a full scan at every node
/// of the plan read about 1e9 feedback entries on the 12,972 x 12,972 game, 54 s of
/// CPU after a deadline of 0). A plan's work is then at most `2 x GREEDY_GUESSES`
/// entries per candidate per level of the plan, whatever the game.
const GREEDY_GUESSES: usize = 512;

/// A plan that needs no search: at every state the guess leaving the fewest
/// candidates on average (least sum of squared bucket sizes; a candidate first on
/// ties, then the lowest id), among the allowed guesses scored, the state's only
/// candidate when one is left. Its total cost and first guess, or `None` when it does
/// not finish every candidate within `left` guesses. Its cost is a real plan's, so an
/// upper bound on the state's value whatever guesses were scored.
///
/// At most `sample` guesses are scored at each node ([`GREEDY_GUESSES`] in a review;
/// every guess when the game has no more than that): half of them the node's
/// candidates (each an allowed guess, in hard mode too, and each makes progress, so a
/// plan with guesses enough always finishes), spread over the candidates, the rest
/// spread evenly over every guess.
fn greedy(
    game: &Game,
    table: &FeedbackTable,
    ids: &[AnswerId],
    left: u8,
    revealed: &Revealed,
    hard: bool,
    sample: usize,
) -> Option<(u64, GuessId)> {
    let n = ids.len();
    if n == 1 {
        let word = game.answers[ids[0].index()];
        return Some((1, game.guess_id(word)?));
    }
    if left < 2 {
        return None;
    }
    // (sum of squares, not a candidate, id): the least is the plan's guess.
    let mut best: Option<(u64, bool, GuessId)> = None;
    let mut counts = [0u32; 243];
    let mut score = |g: GuessId| {
        let word = game.guesses[g.index()];
        if hard && !revealed.allows(word) {
            return;
        }
        let row = table.row(g);
        let (squares, candidate) = bucket_squares(row, ids, &mut counts);
        if squares == (n * n) as u64 && !candidate {
            return; // splits nothing
        }
        let key = (squares, !candidate, g);
        if best.is_none_or(|k| key < k) {
            best = Some(key);
        }
    };
    let all = game.n_guesses();
    if all <= sample {
        (0..all).map(GuessId::new).for_each(&mut score);
    } else {
        // The sub-games' answers are their first guesses: answer `a` is guess `a`.
        let from_candidates = (sample / 2).clamp(1, n);
        for i in 0..from_candidates {
            score(GuessId::new(ids[i * n / from_candidates].index()));
        }
        let spread = sample.saturating_sub(from_candidates);
        for i in 0..spread {
            score(GuessId::new(i * all / spread));
        }
    }
    let (_, _, g) = best?;
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
        total += greedy(game, table, &bucket, left - 1, &r, hard, sample)?.0;
    }
    Some((total, g))
}

/// The sum of the squared bucket sizes of a guess (its feedback row) over `ids`, and
/// whether the guess is one of them: `(c + 1)^2 - c^2 = 2c + 1` per candidate, and
/// only the buckets used are cleared (a small state's plan has many nodes, and a
/// large state is scored at one node). `counts` is all zeros before and after.
fn bucket_squares(row: &[u8], ids: &[AnswerId], counts: &mut [u32; 243]) -> (u64, bool) {
    let mut squares = 0;
    for &a in ids {
        let c = &mut counts[row[a.index()] as usize];
        squares += 2 * *c as u64 + 1;
        *c += 1;
    }
    let candidate = counts[Feedback::ALL_GREEN.0 as usize] > 0;
    for &a in ids {
        counts[row[a.index()] as usize] = 0;
    }
    (squares, candidate)
}

/// Every allowed guess of `game` that reaches `target` on the state `cands` (normal
/// mode), or `None` when the deadline passed first. Guesses are grouped by the
/// feedback they give each candidate (equal groups cost the same); a group is solved
/// only when its lower bound `n + sum (2|B| - 1)` does not exceed `target`, bucket by
/// bucket, stopping once the total passes `target`.
#[allow(clippy::too_many_arguments)]
pub(super) fn tie_set(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::ListSource;

    /// Issue 38: once the deadline has passed a state's upper end is a greedy plan
    /// that scores only a sample of the guesses at each node. Whatever the sample, the
    /// plan is a real one: it finishes with guesses enough (a candidate is always
    /// scored), costs at least the state's exact optimum and `2n - 1`, and scoring
    /// every guess is the plan of the full scan.
    #[test]
    fn a_sampled_greedy_plan_is_a_real_plan() {
        let all = Game::load(&ListSource::Named("wordle".into())).unwrap();
        let answers: Vec<Word> = all.answers.iter().step_by(29).copied().collect();
        let guesses: Vec<Word> = all.guesses.iter().step_by(37).copied().collect();
        let game = Game::from_words(&answers, &guesses);
        let table = FeedbackTable::build(&game);
        let (mut states, mut sampled_worse) = (0, 0);
        let stop = AtomicBool::new(false);
        for hard in [false, true] {
            let solver = play::state_solver(&game, &table, 6, hard, &stop);
            for opener in (0..game.n_guesses()).step_by(53).map(GuessId::new) {
                let word = game.guesses[opener.index()];
                for (f, bucket) in buckets(&game, word, &game.all_answer_ids()) {
                    if f.is_all_green() {
                        continue;
                    }
                    let r = if hard {
                        Revealed::default().after(word, f)
                    } else {
                        Revealed::default()
                    };
                    let n = bucket.len() as u64;
                    let exact = solver.cost(&bucket, 5, &r).unwrap().map(|c| c as u64);
                    let full = greedy(&game, &table, &bucket, 5, &r, hard, usize::MAX);
                    let all_scored = greedy(&game, &table, &bucket, 5, &r, hard, game.n_guesses());
                    assert_eq!(full, all_scored);
                    for sample in [2, 8, 64] {
                        let most = bucket.len().max(5) as u8;
                        let (cost, g) = greedy(&game, &table, &bucket, most, &r, hard, sample)
                            .expect("with guesses enough a sampled plan finishes");
                        assert!(cost >= 2 * n - 1, "{cost} {n}");
                        assert!(!hard || r.allows(game.guesses[g.index()]));
                        if let Some(e) = exact {
                            if let Some((c, _)) =
                                greedy(&game, &table, &bucket, 5, &r, hard, sample)
                            {
                                assert!(c >= e, "sample {sample}: {c} < {e}");
                                if let Some((fc, _)) = full {
                                    sampled_worse += (c > fc) as usize;
                                }
                            }
                        }
                    }
                    if let (Some(e), Some((c, _))) = (exact, full) {
                        assert!(c >= e);
                    }
                    states += 1;
                }
            }
        }
        assert!(states > 50 && sampled_worse > 0, "{states} {sampled_worse}");
    }
}
