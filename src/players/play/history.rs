//! Histories as typed: `GUESS:FEEDBACK` steps, their tokens, and the one syntax of
//! the CLI, the API and the page ([`HISTORY_SYNTAX`], [`parse_history`]: every form a
//! player types or pastes, a share text included), with errors that name the step.

use super::*;

/// One played guess and the feedback the game showed for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub guess: GuessId,
    pub feedback: Feedback,
}

/// Why a history token or a history is refused. `step` is 1-based; a token as typed is
/// quoted through [`echo`] (escaped, cut short).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HistoryError {
    #[error("history token '{0}' is not GUESS:FEEDBACK (for example salet:BBYGB)")]
    Shape(String),
    #[error("history token '{token}': the guess {why}")]
    Word { token: String, why: WordError },
    #[error("history token '{token}': {why}")]
    Feedback { token: String, why: FeedbackError },
    #[error(
        "history token '{token}': '{word}' is not in the allowed guesses of the {lists} lists"
    )]
    NotAllowed {
        token: String,
        word: Word,
        lists: String,
    },
    #[error("step {step}: no answer is consistent with {token}{}", after(before))]
    Inconsistent {
        step: usize,
        token: String,
        before: String,
    },
    #[error("step {step}: {token} breaks hard mode{}: {why}", after(before))]
    HardMode {
        step: usize,
        token: String,
        before: String,
        why: String,
    },
    #[error("step {step}: {token} comes after the answer was already found at step {}", step - 1)]
    AfterSolved { step: usize, token: String },
    #[error("'{0}' is neither a guess, a feedback nor GUESS:FEEDBACK (type e.g. salet:BYBBY, salet BYBBY, or paste the share text)")]
    Unknown(String),
    #[error("share row {row} '{token}': {why}")]
    Row {
        row: usize,
        token: String,
        why: FeedbackError,
    },
    #[error("step {step}: the guess {guess} has no feedback: type {guess}:BYBBG (or {guess} BYBBG), paste the share grid with the guesses, or give the answer")]
    NoFeedback { step: usize, guess: Word },
    #[error("the share grid has {0} row(s) but no guesses: type the guesses in order with it (e.g. salet tiara quota), or give GUESS:FEEDBACK tokens")]
    RowsWithoutGuesses(usize),
    #[error("the share grid has {rows} row(s) for {guesses} guess(es){}: give one guess per row, in order", if *rows > *guesses { format!("; row {} has no guess", guesses + 1) } else { format!("; guess {} has no row", rows + 1) })]
    RowCount { rows: usize, guesses: usize },
    #[error("the share text says {said} but its grid has {rows} row(s): paste the whole grid")]
    Header { said: String, rows: usize },
    #[error("{what}: {guess} against the answer {answer} gives {want}, not {got}")]
    Contradicts {
        step: usize,
        what: String,
        guess: Word,
        answer: Word,
        want: Feedback,
        got: Feedback,
    },
    #[error("step {step} '{token}': {why}")]
    StepFeedback {
        step: usize,
        token: String,
        why: FeedbackError,
    },
    #[error("answer '{word}' is not a possible answer of the {lists} lists")]
    NotAnswer { word: String, lists: String },
}

impl HistoryError {
    /// The 1-based step (or share row) the error is about, when there is one: the
    /// page shows the message beside that row.
    pub fn step(&self) -> Option<usize> {
        match self {
            HistoryError::Inconsistent { step, .. }
            | HistoryError::HardMode { step, .. }
            | HistoryError::AfterSolved { step, .. }
            | HistoryError::NoFeedback { step, .. }
            | HistoryError::StepFeedback { step, .. }
            | HistoryError::Contradicts { step, .. } => Some(*step),
            HistoryError::Row { row, .. } => Some(*row),
            HistoryError::RowCount { rows, guesses } => Some(rows.min(guesses) + 1),
            _ => None,
        }
    }
}

fn after(before: &str) -> String {
    if before.is_empty() {
        String::new()
    } else {
        format!(" after {before}")
    }
}

/// Formats a step as its token, `salet:BBYGB`.
pub fn token(game: &Game, step: Step) -> String {
    format!("{}:{}", game.guesses[step.guess.index()], step.feedback)
}

/// Formats steps as space-separated tokens.
pub fn tokens(game: &Game, steps: &[Step]) -> String {
    steps
        .iter()
        .map(|&s| token(game, s))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Parses one `GUESS:FEEDBACK` token; the guess must be allowed in `game`.
pub fn parse_step(game: &Game, s: &str) -> Result<Step, HistoryError> {
    let Some((w, f)) = s.split_once(':') else {
        return Err(HistoryError::Shape(echo(s)));
    };
    let t = || echo(s);
    let word = Word::parse(w).map_err(|why| HistoryError::Word { token: t(), why })?;
    let feedback = Feedback::parse(f).map_err(|why| HistoryError::Feedback { token: t(), why })?;
    let guess = game
        .guess_id(word)
        .ok_or_else(|| HistoryError::NotAllowed {
            token: t(),
            word,
            lists: game.name.clone(),
        })?;
    Ok(Step { guess, feedback })
}

/// How to write a game, for `--help` texts, the page and the guide: one definition,
/// so every interface says the same.
pub const HISTORY_SYNTAX: &str = include_str!("../history_syntax.txt");

/// One piece of a history as a player types it.
enum Item {
    Step(Step, String),
    Guess(GuessId),
    Row(Feedback, String),
}

/// Parses a whole game in any of the forms of [`HISTORY_SYNTAX`]: `texts` are
/// command-line arguments or one pasted text (split on whitespace and commas), and
/// `answer`, when known, gives the feedback of guesses typed without one and is
/// checked against every feedback given. The result is not yet [`replay`]ed.
///
/// Pairing: guesses and feedback tokens that strictly alternate (`salet BYBBY tiara
/// YBBBG`) are pairs; otherwise the guesses, in order, take the share grid's rows, in
/// order (`salet tiara quota` and a pasted grid), and there must be one row per guess.
///
/// In steps, each refusing with the first error it meets: the answer, the tokens read
/// as items (`read_items`), the share grid's count of rows (`check_rows`), then
/// the items paired into steps (`pair_steps`).
pub fn parse_history(
    game: &Game,
    texts: &[&str],
    answer: Option<&str>,
) -> Result<Vec<Step>, HistoryError> {
    let answer = answer.map(|a| parse_answer(game, a)).transpose()?;
    let raw: Vec<&str> = texts
        .iter()
        .flat_map(|t| t.split(|c: char| c.is_whitespace() || c == ','))
        .filter(|t| !t.is_empty())
        .collect();
    let (header, items) = read_items(game, &raw)?;
    // Pairs when guesses and rows strictly alternate, guess first.
    let alternating = items.iter().enumerate().all(|(k, it)| match it {
        Item::Guess(_) => matches!(items.get(k + 1), Some(Item::Row(..))),
        Item::Row(..) => k > 0 && matches!(items[k - 1], Item::Guess(_)),
        Item::Step(..) => true,
    });
    let rows = check_rows(&items, header.as_deref(), alternating)?;
    pair_steps(game, &items, rows, alternating, answer)
}

/// The answer given with a history: a possible answer of `game`.
fn parse_answer(game: &Game, a: &str) -> Result<Word, HistoryError> {
    let bad = || HistoryError::NotAnswer {
        word: echo(a),
        lists: game.name.clone(),
    };
    let w = Word::parse(a.trim()).map_err(|_| bad())?;
    game.guess_id(w)
        .and_then(|g| g.as_answer(game.n_answers()))
        .map(|_| w)
        .ok_or_else(bad)
}

/// The tokens as [`Item`]s, and the share header's score if there is one (`Wordle`,
/// the puzzle number, its thousands split off by the comma, `N/6` or `X/6`, and `*`
/// after it in hard mode), which is not an item.
fn read_items(game: &Game, raw: &[&str]) -> Result<(Option<String>, Vec<Item>), HistoryError> {
    let mut header: Option<String> = None;
    let mut items: Vec<Item> = Vec::new();
    let mut i = 0;
    while i < raw.len() {
        let t = raw[i];
        if t.eq_ignore_ascii_case("wordle") {
            i += 1;
            while i < raw.len() && raw[i].chars().all(|c| c.is_ascii_digit() || c == '.') {
                i += 1;
            }
            if let Some(score) = raw.get(i).and_then(|s| share_score(s)) {
                header = Some(score);
                i += 1;
            }
            continue;
        }
        i += 1;
        let item = read_item(game, t, &items)?;
        items.push(item);
    }
    Ok((header, items))
}

/// One token after the `items` before it (which number its step or share row in an
/// error): a `GUESS:FEEDBACK` step, a guess alone, or a feedback (a share row).
fn read_item(game: &Game, t: &str, items: &[Item]) -> Result<Item, HistoryError> {
    if t.contains(':') {
        let n = 1 + items.iter().filter(|x| !matches!(x, Item::Row(..))).count();
        let step = parse_step(game, t).map_err(|e| match e {
            HistoryError::Feedback { token, why } => HistoryError::StepFeedback {
                step: n,
                token,
                why,
            },
            other => other,
        })?;
        return Ok(Item::Step(step, t.to_string()));
    }
    let feedback = Feedback::parse(t);
    let word = Word::parse(t).ok().filter(|_| feedback.is_err());
    match (word, feedback) {
        (Some(w), _) => match game.guess_id(w) {
            Some(g) => Ok(Item::Guess(g)),
            None => Err(HistoryError::NotAllowed {
                token: echo(t),
                word: w,
                lists: game.name.clone(),
            }),
        },
        (None, Ok(f)) => Ok(Item::Row(f, t.to_string())),
        (None, Err(why)) => {
            // A token of squares (or of feedback letters) that is not five long:
            // a share row gone wrong; anything else is not understood.
            let looks_like_feedback = t
                .chars()
                .all(|c| c == '\u{fe0f}' || "🟩🟨🟧🟦⬛⬜gybxwGYBXW.-012".contains(c));
            if looks_like_feedback {
                let row = 1 + items.iter().filter(|x| matches!(x, Item::Row(..))).count();
                return Err(HistoryError::Row {
                    row,
                    token: echo(t),
                    why,
                });
            }
            Err(HistoryError::Unknown(echo(t)))
        }
    }
}

/// The share grid's rows, in order, once their count agrees with the header's score
/// and, unless guesses and rows alternate, with the guesses typed without feedback.
fn check_rows(
    items: &[Item],
    header: Option<&str>,
    alternating: bool,
) -> Result<Vec<(Feedback, String)>, HistoryError> {
    let rows: Vec<(Feedback, String)> = items
        .iter()
        .filter_map(|it| match it {
            Item::Row(f, t) => Some((*f, t.clone())),
            _ => None,
        })
        .collect();
    let guesses = items
        .iter()
        .filter(|it| matches!(it, Item::Guess(_)))
        .count();
    if let Some(said) = header {
        let want = if said.starts_with('X') {
            6
        } else {
            said[..1].parse().unwrap_or(0)
        };
        if !rows.is_empty() && rows.len() != want {
            return Err(HistoryError::Header {
                said: said.to_string(),
                rows: rows.len(),
            });
        }
    }
    if !alternating && !rows.is_empty() {
        if guesses == 0 {
            return Err(HistoryError::RowsWithoutGuesses(rows.len()));
        }
        if guesses != rows.len() {
            return Err(HistoryError::RowCount {
                rows: rows.len(),
                guesses,
            });
        }
    }
    Ok(rows)
}

/// The items as steps: a step as typed, a guess with the row after it (`alternating`)
/// or with the next share row, and each feedback checked against (or, when none was
/// given, computed from) the `answer`.
fn pair_steps(
    game: &Game,
    items: &[Item],
    rows: Vec<(Feedback, String)>,
    alternating: bool,
    answer: Option<Word>,
) -> Result<Vec<Step>, HistoryError> {
    let mut steps: Vec<Step> = Vec::new();
    let mut next_row = rows.into_iter().enumerate();
    let mut k = 0;
    while k < items.len() {
        let n = steps.len() + 1;
        let (guess, given) = match &items[k] {
            Item::Step(s, t) => (s.guess, Some((s.feedback, format!("step {n} {}", echo(t))))),
            Item::Guess(g) if alternating => {
                k += 1;
                let Item::Row(f, t) = &items[k] else {
                    unreachable!("alternating: a row follows every guess")
                };
                (
                    *g,
                    Some((
                        *f,
                        format!("step {n} {} {}", game.guesses[g.index()], echo(t)),
                    )),
                )
            }
            Item::Guess(g) => (
                *g,
                next_row
                    .next()
                    .map(|(r, (f, t))| (f, format!("share row {} {}", r + 1, echo(&t)))),
            ),
            Item::Row(..) => {
                k += 1;
                continue;
            }
        };
        k += 1;
        let word = game.guesses[guess.index()];
        let feedback = step_feedback(n, word, given, answer)?;
        steps.push(Step { guess, feedback });
    }
    Ok(steps)
}

/// Step `n`'s feedback: the one `given` (with what gave it, for the error), which the
/// `answer` must agree with, or the answer's.
fn step_feedback(
    n: usize,
    word: Word,
    given: Option<(Feedback, String)>,
    answer: Option<Word>,
) -> Result<Feedback, HistoryError> {
    match (given, answer) {
        (Some((got, what)), Some(a)) => {
            let want = Feedback::compute(word, a);
            if want != got {
                return Err(HistoryError::Contradicts {
                    step: n,
                    what,
                    guess: word,
                    answer: a,
                    want,
                    got,
                });
            }
            Ok(got)
        }
        (Some((got, _)), None) => Ok(got),
        (None, Some(a)) => Ok(Feedback::compute(word, a)),
        (None, None) => Err(HistoryError::NoFeedback {
            step: n,
            guess: word,
        }),
    }
}

/// `4/6`, `X/6` or `4/6*` as a share header's score (`None` for anything else).
fn share_score(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let ok = b.len() >= 3
        && (b[0].is_ascii_digit() && (b'1'..=b'6').contains(&b[0]) || b[0] == b'X' || b[0] == b'x')
        && &b[1..3] == b"/6"
        && (b.len() == 3 || &b[3..] == b"*");
    ok.then(|| s.to_ascii_uppercase())
}
