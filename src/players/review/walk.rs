//! The review's steps: the states the steps lead to ([`walk_states`]), each valued
//! from the tree, the table ([`Walk::tree_values`]) or the solver
//! ([`Walk::search_values`]), then each step reviewed, backwards
//! ([`Walk::assemble`]). The definitions: the parent module's doc.

use super::*;

/// [`review`] once its inputs are checked: the states the steps lead
/// to, each valued from the tree, the table or the solver, then each step reviewed.
#[allow(clippy::too_many_arguments)]
pub(super) fn review_states(
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
    let (states, found) = walk_states(game, tree, hard, steps, &history);
    let walk = Walk {
        game,
        tree,
        hard,
        max_guesses,
        steps,
        states,
        found,
        options,
        opener_total,
        root_best,
        table,
    };
    let mut values = Values {
        best: vec![None; walk.states.len()],
        others: vec![None; steps.len()],
        ties: vec![None; walk.states.len()],
    };
    walk.tree_values(&mut values)?;
    if let Some(j) = walk.first_search() {
        walk.search_values(j, budget, &mut values)?;
    }
    Ok(walk.assemble(&values))
}

/// A state of the game: its candidates, what hard mode revealed, and its node in the
/// stored tree while the game is on it.
type State<'t> = (Vec<AnswerId>, Revealed, Option<&'t Node>);

/// The states before each step and, unless the answer was found, after the last;
/// and whether it was found.
fn walk_states<'t>(
    game: &Game,
    tree: Option<&'t Tree>,
    hard: bool,
    steps: &[Step],
    history: &play::History,
) -> (Vec<State<'t>>, bool) {
    let mut states: Vec<State> = Vec::new();
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
    (states, found)
}

/// The best of a state: (guess, value, source, proved optimal, beyond the limit).
type Best = (GuessId, Value, BestSource, bool, bool);

/// What the review has found so far: per state its best ([`Best`]) and tie set, per
/// step the total `(lo, hi, beyond the limit)` of the player's buckets other than the
/// actual one.
struct Values {
    best: Vec<Option<Best>>,
    others: Vec<Option<(u64, u64, bool)>>,
    ties: Vec<Option<Vec<GuessId>>>,
}

/// One review's inputs, checked, and the states its steps lead to.
struct Walk<'a> {
    game: &'a Game,
    tree: Option<&'a Tree>,
    hard: bool,
    max_guesses: u8,
    steps: &'a [Step],
    states: Vec<State<'a>>,
    found: bool,
    options: Options<'a>,
    /// The exact total of the first guess played, from the table.
    opener_total: Option<u64>,
    /// The proved best opener and its total, from a complete table.
    root_best: Option<(GuessId, u64)>,
    table: Option<&'a OpenerTable>,
}

impl Walk<'_> {
    /// Guesses the game has left before step `i` (this one included).
    fn left_at(&self, i: usize) -> i32 {
        self.max_guesses as i32 - i as i32
    }

    /// The first state needing the solver: off the tree, or the player left it there.
    fn first_search(&self) -> Option<usize> {
        let (steps, states) = (self.steps, &self.states);
        (0..states.len()).find(|&i| {
            let small = self.options.ties && !self.hard && states[i].0.len() <= TIE_LIMIT;
            // At the root a complete table gives the best opener's value, and the
            // player's opener's from its row.
            let root_known = i == 0
                && self.root_best.is_some()
                && (i == steps.len() || self.opener_total.is_some());
            small
                || match states[i].2 {
                    None => !root_known,
                    Some(_) if i == 0 && self.opener_total.is_some() => false,
                    Some(n) => i < steps.len() && steps[i].guess != n.guess,
                }
        })
    }

    /// The states on the tree valued by their subtrees (and a step that follows the
    /// tree, its other buckets too); the root by the table's proved best opener,
    /// unless the tree's opener is proved best (then the tree's value, the same
    /// total, and its subtree).
    fn tree_values(&self, values: &mut Values) -> Result<(), ReviewError> {
        let (game, steps) = (self.game, self.steps);
        let root_proved = self.tree.is_some_and(|t| {
            self.table
                .is_some_and(|tb| tb.proves_best(game.guesses[t.root().guess.index()]))
        });
        for (i, (cands, _, node)) in self.states.iter().enumerate() {
            let Some(n) = node else { continue };
            let total = play::subtree_depths(game, n, cands)
                .map(|(total, _)| total)
                .ok_or(ReviewError::TreeMisses)?;
            let proved = self.options.tree_optimal && (i > 0 || root_proved);
            values.best[i] = Some((
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
                values.others[i] = Some((rest, rest, false));
            }
        }
        if let Some((g, total)) = self.root_best {
            if !values.best[0].is_some_and(|b| b.3) {
                values.best[0] = Some((
                    g,
                    Value::exact(total, game.n_answers()),
                    BestSource::Table,
                    true,
                    false,
                ));
            }
        }
        Ok(())
    }

    /// Every state from `j` on not yet valued, every step's other buckets, and the
    /// tie sets asked for, by one solver.
    fn search_values(
        &self,
        j: usize,
        budget: Budget,
        values: &mut Values,
    ) -> Result<(), ReviewError> {
        let (game, steps, states) = (self.game, self.steps, &self.states);
        let (hard, max_guesses, options) = (self.hard, self.max_guesses, self.options);
        let opener_total = self.opener_total;
        let (best, others, ties) = (&mut values.best, &mut values.others, &mut values.ties);
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
            let left = self.left_at(i);
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
        Ok(())
    }

    /// Each step reviewed, backwards: a step's actual bucket is worth the next
    /// state's best.
    fn assemble(&self, values: &Values) -> Review {
        let (steps, states, found) = (self.steps, &self.states, self.found);
        let (best, ties) = (&values.best, &values.ties);
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
            let review = self.step_review(i, values, next_best);
            next_best = review.best_value;
            reviews.push(review);
        }
        reviews.reverse();
        Review {
            hard: self.hard,
            max_guesses: self.max_guesses,
            steps: reviews,
            found,
            rest,
        }
    }

    /// Step `i` reviewed, `next_best` the value of the state after it.
    fn step_review(&self, i: usize, values: &Values, next_best: Value) -> StepReview {
        let (game, steps, states) = (self.game, self.steps, &self.states);
        let (best, others, ties) = (&values.best, &values.others, &values.ties);
        let opener_total = self.opener_total;
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
        StepReview {
            step: s,
            candidates: cands.clone(),
            guesses_left: self.left_at(i),
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
        }
    }
}
