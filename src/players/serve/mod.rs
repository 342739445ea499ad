//! `serve`: a small local HTTP server (axum on tokio) with a JSON API for the next
//! move, the candidates, a game's review and an opener's exact value, and one
//! self-contained page ([`PAGE`], embedded in the binary: no external assets).
//!
//! Routes (all `GET`; `list` is a shipped list with a shipped tree, `mode` is
//! `normal` or `hard`, `history` is `GUESS:FEEDBACK` tokens separated by spaces or
//! commas):
//! - `/` the page; `/api/lists` the lists and modes served and the time limit;
//! - `/api/next?list&mode&history` the next guess (as `next --json`), or the answer;
//! - `/api/candidates?list&mode&history` the candidates left;
//! - `/api/review?list&mode&history` the exact review ([`crate::players::review`]);
//! - `/api/opener?list&mode&word` an opener's exact total where the tree (its root)
//!   or the opener table of the list and mode (`tables/`) has it, with its rank.
//!
//! Invariants: every bad request (unknown list or mode, bad token, inconsistent or
//! over-long history, unknown route) gets a 4xx answer with a JSON `{"error": ...}`;
//! nothing a client sends can panic a handler (histories are replayed before use,
//! at most [`MAX_HISTORY`] tokens, query strings at most [`MAX_QUERY`] bytes, request
//! bodies refused beyond [`MAX_BODY`]). Every request that searches has one deadline,
//! `time_limit` after it starts, shared by all its searches (a review runs many:
//! [`crate::players::review`] starts none after the deadline), so a value not proved in time
//! is reported as a range, never as exact. Requests that only walk the tree are answered on the
//! executor (well under a millisecond); anything that may search runs on the blocking
//! pool, at most `max_searches` at once; a request that cannot get a slot within the
//! time limit gets 503. Games and trees are loaded once per (list, mode) at start and
//! shared read-only. Each response carries `Server-Timing: app;dur=<ms>`.

use crate::game::{AnswerId, Game, ListSource};
use crate::players::play::{self, Advice, AdviceError, Guide, Position, Proof, Source, Step};
use crate::players::review::{self, Options};
use crate::store::opener_table::{Entry, OpenerTable};
use crate::tree::Tree;
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// The page, with its CSS and script inline.
pub const PAGE: &str = include_str!("page.html");

/// Most history tokens accepted (a game has 6 guesses; more is refused).
pub const MAX_HISTORY: usize = 12;
/// Longest query string accepted, in bytes.
pub const MAX_QUERY: usize = 2048;
/// Largest request body accepted (no route reads one).
pub const MAX_BODY: usize = 4096;
/// Most candidate words listed in a `next` answer.
const NEXT_WORDS: usize = 100;

/// What the server serves.
#[derive(Clone, Debug)]
pub struct Config {
    /// Shipped lists to serve; each is served in the modes whose tree is found.
    pub lists: Vec<String>,
    /// Directories searched for the shipped tree of each list and mode
    /// ([`crate::shipped::tree_name`]), in order, before the built-in copy
    /// ([`crate::shipped::find_tree`]); usually none.
    pub tree_dirs: Vec<PathBuf>,
    /// Directories searched for opener tables `<list>.<mode>.csv`, in order, before
    /// the built-in copy ([`crate::shipped::find_table`]); none found is fine.
    pub table_dirs: Vec<PathBuf>,
    /// Deadline of each request's search.
    pub time_limit: Duration,
    /// Searches running at once (each on the blocking pool).
    pub max_searches: usize,
}

/// One list in one mode: the game and its tree, loaded once.
pub struct Setup {
    pub game: Game,
    pub tree: Tree,
    pub tree_file: PathBuf,
    /// The opener table of the lists and mode, if one was found, and its file.
    pub table: Option<(OpenerTable, PathBuf)>,
}

/// The shared state of the server.
pub struct App {
    config: Config,
    setups: HashMap<(String, bool), Arc<Setup>>,
    searches: Arc<Semaphore>,
    /// Set to interrupt running searches (shutdown).
    pub stop: &'static AtomicBool,
}

#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("no shipped tree for any of the lists {0:?} (looked in {1:?} and the built-in trees)")]
    NoTrees(Vec<String>, Vec<PathBuf>),
    #[error("{0}")]
    Load(String),
}

fn mode_name(hard: bool) -> &'static str {
    if hard {
        "hard"
    } else {
        "normal"
    }
}

impl App {
    /// Loads every (list, mode) whose tree is found. Fails when none is.
    pub fn new(config: Config, stop: &'static AtomicBool) -> Result<App, ServeError> {
        let mut setups = HashMap::new();
        for list in &config.lists {
            let game = Game::load(&ListSource::Named(list.clone()))
                .map_err(|e| ServeError::Load(e.to_string()))?;
            for hard in [false, true] {
                let Some((tree, file)) = crate::shipped::find_tree(&config.tree_dirs, &game, hard)
                    .map_err(|e| ServeError::Load(e.to_string()))?
                else {
                    continue;
                };
                let table = crate::shipped::find_table(&config.table_dirs, &game, hard)
                    .map_err(|e| ServeError::Load(e.to_string()))?;
                setups.insert(
                    (list.clone(), hard),
                    Arc::new(Setup {
                        game: game.clone(),
                        tree,
                        tree_file: file,
                        table,
                    }),
                );
            }
        }
        if setups.is_empty() {
            return Err(ServeError::NoTrees(
                config.lists.clone(),
                config.tree_dirs.clone(),
            ));
        }
        let permits = config.max_searches.max(1);
        Ok(App {
            config,
            setups,
            searches: Arc::new(Semaphore::new(permits)),
            stop,
        })
    }

    /// The (list, mode) pairs served, sorted.
    pub fn served(&self) -> Vec<(String, bool)> {
        let mut v: Vec<(String, bool)> = self.setups.keys().cloned().collect();
        v.sort();
        v
    }

    pub fn setup(&self, list: &str, hard: bool) -> Option<&Arc<Setup>> {
        self.setups.get(&(list.to_string(), hard))
    }
}

/// A request refused: status and message, answered as `{"error": message}`.
#[derive(Debug)]
pub struct ApiError(StatusCode, String);

fn bad(msg: impl Into<String>) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, msg.into())
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(json!({ "error": self.1 }))).into_response()
    }
}

/// The router over `app`.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/api/lists", get(lists))
        .route("/api/next", get(next))
        .route("/api/candidates", get(candidates))
        .route("/api/review", get(review_route))
        .route("/api/opener", get(opener))
        .fallback(|| async { ApiError(StatusCode::NOT_FOUND, "no such route".into()) })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
}

/// Serves `app` on `listener` until `shutdown` completes.
pub async fn run(
    app: Arc<App>,
    listener: tokio::net::TcpListener,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, router(app))
        .with_graceful_shutdown(shutdown)
        .await
}

async fn page() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        PAGE,
    )
        .into_response()
}

type Params = axum::extract::RawQuery;

/// Parses the query string into its pairs (form-encoded), refusing repeats and
/// over-long queries.
fn params(raw: &Params) -> Result<HashMap<String, String>, ApiError> {
    let q = raw.0.as_deref().unwrap_or("");
    if q.len() > MAX_QUERY {
        return Err(bad(format!(
            "query string of {} bytes, at most {MAX_QUERY}",
            q.len()
        )));
    }
    let pairs: Vec<(String, String)> = Query::<Vec<(String, String)>>::try_from_uri(
        &format!("/?{q}")
            .parse()
            .map_err(|_| bad("malformed query string"))?,
    )
    .map_err(|e| bad(format!("malformed query string: {e}")))?
    .0;
    let mut out = HashMap::new();
    for (k, v) in pairs {
        if out.insert(k.clone(), v).is_some() {
            return Err(bad(format!("parameter '{k}' given twice")));
        }
    }
    Ok(out)
}

/// The setup named by `list` (default wordle) and `mode` (default normal).
fn setup_of<'a>(app: &'a App, p: &HashMap<String, String>) -> Result<&'a Arc<Setup>, ApiError> {
    let list = p.get("list").map_or("wordle", |s| s.as_str());
    let hard = match p.get("mode").map_or("normal", |s| s.as_str()) {
        "normal" => false,
        "hard" => true,
        other => return Err(bad(format!("mode '{other}': expected normal or hard"))),
    };
    app.setup(list, hard).ok_or_else(|| {
        let served: Vec<String> = app
            .served()
            .iter()
            .map(|(l, h)| format!("{l}/{}", mode_name(*h)))
            .collect();
        bad(format!(
            "list '{list}' in {} mode is not served (served: {})",
            mode_name(hard),
            served.join(", ")
        ))
    })
}

/// The history of `p`, parsed and replayed (so it is legal in the mode).
fn history_of(setup: &Setup, p: &HashMap<String, String>) -> Result<Vec<Step>, ApiError> {
    let text = p.get("history").map_or("", |s| s.as_str());
    let tokens: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .collect();
    if tokens.len() > MAX_HISTORY {
        return Err(bad(format!(
            "history of {} tokens, at most {MAX_HISTORY}",
            tokens.len()
        )));
    }
    let steps = tokens
        .iter()
        .map(|t| play::parse_step(&setup.game, t))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| bad(e.to_string()))?;
    play::replay(&setup.game, &steps, setup.tree.hard()).map_err(|e| bad(e.to_string()))?;
    Ok(steps)
}

fn timed(start: Instant, body: Value) -> Response {
    let ms = start.elapsed().as_secs_f64() * 1e3;
    let mut r = Json(body).into_response();
    if let Ok(v) = HeaderValue::from_str(&format!("app;dur={ms:.3}")) {
        r.headers_mut().insert("server-timing", v);
    }
    r
}

/// Runs `work` on the blocking pool once a search slot is free (503 when none frees
/// within the time limit).
async fn blocking<T: Send + 'static>(
    app: &Arc<App>,
    work: impl FnOnce(&App) -> T + Send + 'static,
) -> Result<T, ApiError> {
    let permit = tokio::time::timeout(
        app.config.time_limit,
        Arc::clone(&app.searches).acquire_owned(),
    )
    .await
    .map_err(|_| {
        ApiError(
            StatusCode::SERVICE_UNAVAILABLE,
            "busy: every search slot is taken; try again".into(),
        )
    })?
    .map_err(|_| ApiError(StatusCode::SERVICE_UNAVAILABLE, "shutting down".into()))?;
    let app = Arc::clone(app);
    let out = tokio::task::spawn_blocking(move || {
        let out = work(&app);
        drop(permit);
        out
    })
    .await
    .map_err(|_| ApiError(StatusCode::INTERNAL_SERVER_ERROR, "search failed".into()))?;
    Ok(out)
}

async fn lists(State(app): State<Arc<App>>) -> Response {
    let served: Vec<Value> = app
        .served()
        .iter()
        .map(|(l, h)| {
            let s = app.setup(l, *h).expect("served");
            json!({
                "list": l,
                "mode": mode_name(*h),
                "answers": s.game.n_answers(),
                "guesses": s.game.n_guesses(),
                "opener": s.game.guesses[s.tree.root().guess.index()].to_string(),
                "max_guesses": s.tree.max_guesses(),
            })
        })
        .collect();
    Json(json!({
        "served": served,
        "time_limit_seconds": app.config.time_limit.as_secs_f64(),
        "max_history": MAX_HISTORY,
    }))
    .into_response()
}

fn words(game: &Game, ids: &[AnswerId], most: usize) -> Vec<String> {
    ids.iter()
        .take(most)
        .map(|&a| game.answers[a.index()].to_string())
        .collect()
}

/// The JSON of an advice (the fields of `next --json`): a move from the tree is
/// proved optimal as [`review::tree_guess_proved`] says (the served trees are shipped
/// `solve` outputs), a searched one when the search finished.
fn advice_json(setup: &Setup, steps: &[Step], advice: &Advice) -> Value {
    let game = &setup.game;
    let history: Vec<String> = steps.iter().map(|&s| play::token(game, s)).collect();
    match advice {
        Advice::Solved { answer, guesses } => json!({
            "history": history,
            "found": true,
            "answer": game.answers[answer.index()].to_string(),
            "guesses": guesses,
        }),
        Advice::Play(m) => {
            let (source, lower_bound) = match m.source {
                Source::Tree => (
                    "tree",
                    review::tree_guess_proved(game, &setup.tree, steps.len(), true)
                        .then_some(m.cost),
                ),
                Source::Solved { proof, .. } => (
                    "search",
                    Some(match proof {
                        Proof::Exact => m.cost,
                        Proof::Unproven { lower_bound, .. } => lower_bound,
                    }),
                ),
            };
            json!({
                "history": history,
                "found": false,
                "guess": game.guesses[m.guess.index()].to_string(),
                "candidates": m.candidates.len(),
                "words": words(game, &m.candidates, NEXT_WORDS),
                "expected_guesses": m.expected(),
                "cost": m.cost,
                "worst_guesses": m.worst,
                "source": source,
                "proven_optimal": lower_bound == Some(m.cost),
                "lower_bound": lower_bound,
                "expected_lower": lower_bound.map(|b| b as f64 / m.candidates.len() as f64),
            })
        }
    }
}

fn advice_error(e: AdviceError) -> ApiError {
    match e {
        AdviceError::History(h) => bad(h.to_string()),
        AdviceError::OutOfGuesses(n) => bad(format!(
            "the history has used all {n} guesses without finding the answer"
        )),
        other => ApiError(StatusCode::INTERNAL_SERVER_ERROR, format!("{other}")),
    }
}

async fn next(State(app): State<Arc<App>>, raw: Params) -> Result<Response, ApiError> {
    let start = Instant::now();
    let p = params(&raw)?;
    let setup = Arc::clone(setup_of(&app, &p)?);
    let steps = history_of(&setup, &p)?;
    // On the tree (or solved) the advice is a walk of the subtree: answered here.
    let on_tree = !matches!(play::follow(&setup.tree, &steps), Position::Off { .. });
    let never = AtomicBool::new(false);
    let advice = if on_tree {
        play::advise(&setup.game, Guide::Tree(&setup.tree), &steps, &never, None)
    } else {
        let limit = app.config.time_limit;
        let s = steps.clone();
        let su = Arc::clone(&setup);
        blocking(&app, move |app| {
            play::advise(
                &su.game,
                Guide::Tree(&su.tree),
                &s,
                app.stop,
                Some(Instant::now() + limit),
            )
        })
        .await?
    };
    let advice = advice.map_err(advice_error)?;
    Ok(timed(start, advice_json(&setup, &steps, &advice)))
}

async fn candidates(State(app): State<Arc<App>>, raw: Params) -> Result<Response, ApiError> {
    let start = Instant::now();
    let p = params(&raw)?;
    let setup = setup_of(&app, &p)?;
    let steps = history_of(setup, &p)?;
    let h = play::replay(&setup.game, &steps, setup.tree.hard()).map_err(|e| bad(e.to_string()))?;
    let n = h.candidates.len();
    Ok(timed(
        start,
        json!({
            "candidates": n,
            "words": words(&setup.game, &h.candidates.ids(), n),
            "found": h.solved,
        }),
    ))
}

async fn review_route(State(app): State<Arc<App>>, raw: Params) -> Result<Response, ApiError> {
    let start = Instant::now();
    let p = params(&raw)?;
    let setup = Arc::clone(setup_of(&app, &p)?);
    let steps = history_of(&setup, &p)?;
    let limit = app.config.time_limit;
    let su = Arc::clone(&setup);
    let r = blocking(&app, move |app| {
        let options = Options {
            deadline: Some(Instant::now() + limit),
            ties: false,
            tree_optimal: true,
        };
        review::review_with_table(
            &su.game,
            Some(&su.tree),
            su.tree.hard(),
            su.tree.max_guesses(),
            &steps,
            app.stop,
            options,
            su.table.as_ref().map(|(t, _)| t),
        )
        .map(|r| r.to_json(&su.game))
    })
    .await?
    .map_err(|e| match e {
        review::ReviewError::History(h) => bad(h.to_string()),
        other => ApiError(StatusCode::INTERNAL_SERVER_ERROR, other.to_string()),
    })?;
    Ok(timed(start, r))
}

async fn opener(State(app): State<Arc<App>>, raw: Params) -> Result<Response, ApiError> {
    let start = Instant::now();
    let p = params(&raw)?;
    let setup = setup_of(&app, &p)?;
    let text = p
        .get("word")
        .ok_or_else(|| bad("missing parameter 'word'"))?;
    let word =
        crate::game::word::Word::parse(text).map_err(|e| bad(format!("word '{text}': {e}")))?;
    let game = &setup.game;
    let g = game.guess_id(word).ok_or_else(|| {
        bad(format!(
            "'{word}' is not in the allowed guesses of the {} lists",
            game.name
        ))
    })?;
    let root = &setup.tree.root();
    let body = if g == root.guess {
        let all: Vec<AnswerId> = game.all_answer_ids();
        let total = play::subtree_depths(game, root, &all)
            .map(|(total, _)| total)
            .ok_or_else(|| ApiError(StatusCode::INTERNAL_SERVER_ERROR, "damaged tree".into()))?;
        json!({
            "opener": word.to_string(),
            "known": true,
            "total": total,
            "expected_guesses": total as f64 / game.n_answers() as f64,
            "source": file_name(&setup.tree_file),
        })
    } else if let Some(row) = setup.table.as_ref().and_then(|(t, _)| t.get(word)) {
        let (t, file) = setup.table.as_ref().expect("just found");
        match row.entry {
            Entry::Exact { total, max_depth } => json!({
                "opener": word.to_string(),
                "known": true,
                "total": total,
                "expected_guesses": total as f64 / game.n_answers() as f64,
                "max_depth": max_depth,
                "rank": row.rank,
                "tied": row.tied,
                "solved": t.solved(),
                "openers": t.openers,
                "complete": t.is_complete(),
                "rank_text": t.rank_text(row),
                "source": file_name(file),
            }),
            Entry::CannotFinish => json!({
                "opener": word.to_string(),
                "known": true,
                "cannot_finish": true,
                "note": t.rank_text(row),
                "source": file_name(file),
            }),
        }
    } else {
        json!({
            "opener": word.to_string(),
            "known": false,
            "note": format!(
                "no stored value: the tree is from {}{}; `wordle-tree solve --opener {word}` computes it",
                game.guesses[root.guess.index()],
                match &setup.table {
                    Some((t, _)) => format!(
                        " and the opener table has {} of {} openers so far",
                        t.solved(),
                        t.openers
                    ),
                    None => String::new(),
                }
            ),
        })
    };
    Ok(timed(start, body))
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}
