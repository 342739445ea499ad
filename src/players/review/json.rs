//! The review as JSON (`review --json` and `/api/review`): field names and layout
//! in docs/guide/formats.md.

use super::*;

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
