//! `serve`: a small local HTTP server (axum on tokio) with a JSON API for the next
//! move, the candidates, a game's review and an opener's exact value, and one
//! self-contained page ([`PAGE`], embedded in the binary: no external assets).
//!
//! Routes (all `GET`; `list` is a shipped list with a shipped tree, `mode` is
//! `normal` or `hard`, both defaulting to [`Config::default`]; `history` (or `h`, as
//! in the page's links) is a game in any form of [`play::HISTORY_SYNTAX`], with
//! `answer` when known):
//! - `/` the page; `/api/lists` the lists and modes served (what each is, the
//!   default, each tree's guess distribution), the time limit and the history syntax;
//! - `/api/history?list&mode&text|history&answer` the game as tokens, or a refusal
//!   naming the step or share row (`{"error", "step"}`), for the page to show beside
//!   the row;
//! - `/api/next?list&mode&history` the next guess (as `next --json`), or the answer;
//! - `/api/candidates?list&mode&history` the candidates left;
//! - `/api/review?list&mode&history` the exact review ([`crate::players::review`]);
//! - `/api/opener?list&mode&word` an opener's exact total where the tree (its root)
//!   or the opener table of the list and mode (`tables/`) has it, with its rank.
//!
//! Invariants: every bad request (unknown list or mode, bad token, inconsistent or
//! over-long history, unknown route, another method than `GET`) gets a 4xx answer
//! with a JSON `{"error": ...}`; nothing a client sends can panic a handler
//! (histories are replayed before use, at most the game's guesses ([`MAX_HISTORY`],
//! the limit `next` and `review` share), query strings at most [`MAX_QUERY`] bytes
//! (414), request bodies refused beyond [`MAX_BODY`]). A tree move, or a review
//! value from the tree, is proved only where [`review::tree_trust`] says so: the tree's
//! total equals its opener's in the complete opener table (checked at start; a table
//! and a tree that disagree stop the server from starting).
//!
//! Connections ([`run_with`], [`Limits`]): hyper's own `header_read_timeout` (a
//! request head must arrive within it; it also bounds the idle wait for the next
//! request on a kept-alive connection), and at most `max_connections` open at once
//! (one tokio semaphore permit per connection, held by its task; more wait in the
//! listen backlog). A client that disconnects mid-answer costs its connection only:
//! the `serve` command ignores SIGPIPE (`cli/serve.rs`). The few answers hyper writes
//! itself before any handler runs (a request head it cannot parse: 400, one over its
//! buffer: 431, a URI over 64 KiB: 414) get a JSON body too (`json_errors`). Every request that searches has one deadline,
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

mod json_errors;

/// The page, with its CSS and script inline.
pub const PAGE: &str = include_str!("page.html");

/// Most history tokens accepted: the game's guesses (every served tree has this
/// limit; `next` and `review` refuse a longer history the same way).
pub const MAX_HISTORY: usize = crate::game::GAME_LIMIT as usize;
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
    /// The (list, hard mode) the page opens on.
    pub default: (String, bool),
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
    /// What the table proves about the tree (nothing without a complete table).
    pub trust: review::TreeTrust,
    /// Said with the first move when the table proves another opener better.
    pub better_opener: Option<String>,
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
                let all = game.all_answer_ids();
                let total = play::subtree_depths(&game, tree.root(), &all)
                    .map(|(total, _)| total)
                    .ok_or_else(|| {
                        ServeError::Load(format!("{}: the tree misses an answer", file.display()))
                    })?;
                if let Some((t, tfile)) = &table {
                    let opener = game.guesses[tree.root().guess.index()];
                    t.check_tree(tfile, &file, opener, total)
                        .map_err(|e| ServeError::Load(e.to_string()))?;
                }
                let t = table.as_ref().map(|(t, _)| t);
                let trust = review::tree_trust(&game, &tree, t);
                let better_opener = review::better_opener_note(&game, &tree, t);
                setups.insert(
                    (list.clone(), hard),
                    Arc::new(Setup {
                        game: game.clone(),
                        tree,
                        tree_file: file,
                        table,
                        trust,
                        better_opener,
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

    /// The (list, hard mode) the page opens on: the configured default when served,
    /// else the first served.
    pub fn default_setup(&self) -> (String, bool) {
        match self.default_missing() {
            None => self.config.default.clone(),
            Some(_) => self.served()[0].clone(),
        }
    }

    /// The configured default when it is not served (its tree was not found).
    pub fn default_missing(&self) -> Option<(String, bool)> {
        let (l, h) = &self.config.default;
        self.setup(l, *h).is_none().then(|| (l.clone(), *h))
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
        .route("/api/history", get(history_route))
        .fallback(|| async { ApiError(StatusCode::NOT_FOUND, "no such route".into()) })
        .method_not_allowed_fallback(|| async {
            ApiError(
                StatusCode::METHOD_NOT_ALLOWED,
                "method not allowed: every route answers GET only".into(),
            )
        })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
}

/// What one client may hold of the server ([`run_with`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// A request head must be read within this, from the connection's start or the
    /// end of the previous answer (hyper's `header_read_timeout`): a silent or
    /// half-sent request, or an idle kept-alive connection, is closed after it.
    pub header_timeout: Duration,
    /// Connections served at once; more wait in the listen backlog until one closes.
    pub max_connections: usize,
}

impl Default for Limits {
    /// 10 s and 256 connections (well under the usual 1024 open files).
    fn default() -> Limits {
        Limits {
            header_timeout: Duration::from_secs(10),
            max_connections: 256,
        }
    }
}

/// Serves `app` on `listener` with the default [`Limits`] until `shutdown` completes.
pub async fn run(
    app: Arc<App>,
    listener: tokio::net::TcpListener,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    run_with(app, listener, Limits::default(), shutdown).await
}

/// Serves `app` on `listener` until `shutdown` completes, HTTP/1.1 by hyper with the
/// `limits` (see the module doc); then stops accepting and waits for the open
/// connections to finish (an idle one closes at once, a half-sent one at its timeout).
pub async fn run_with(
    app: Arc<App>,
    listener: tokio::net::TcpListener,
    limits: Limits,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    let service = router(app);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let slots = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    tokio::pin!(shutdown);
    loop {
        let permit = tokio::select! {
            p = Arc::clone(&slots).acquire_owned() => p.expect("the semaphore is never closed"),
            () = &mut shutdown => break,
        };
        let stream = tokio::select! {
            r = listener.accept() => match r {
                Ok((stream, _)) => stream,
                // Out of file descriptors or the like: wait rather than spin.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let conn = http.serve_connection(
            json_errors::JsonErrors::new(TokioIo::new(stream)),
            hyper_util::service::TowerToHyperService::new(service.clone()),
        );
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            // A client's error (reset, timeout, bad head) ends its connection only.
            let _ = conn.await;
            drop(permit);
        });
    }
    drop(listener);
    graceful.shutdown().await;
    Ok(())
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
        return Err(ApiError(
            StatusCode::URI_TOO_LONG,
            format!("query string of {} bytes, at most {MAX_QUERY}", q.len()),
        ));
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
    let (default_list, default_hard) = app.default_setup();
    let list = p.get("list").map_or(default_list.as_str(), |s| s.as_str());
    let hard = match p
        .get("mode")
        .map_or(mode_name(default_hard), |s| s.as_str())
    {
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

/// The history of `p` (`history`, or `h` as in the page's links, in any form of
/// [`play::HISTORY_SYNTAX`], with `answer` when given), parsed and replayed (so it is
/// legal in the mode). A refusal says which step (or share row) it is about.
fn parse_history_of(
    setup: &Setup,
    p: &HashMap<String, String>,
) -> Result<Vec<Step>, (String, Option<usize>)> {
    let (history, h) = (p.get("history"), p.get("h"));
    if history.is_some() && h.is_some() {
        return Err((
            "give the history as 'history' or 'h', not both".into(),
            None,
        ));
    }
    let text = history.or(h).map_or("", |s| s.as_str());
    let answer = p
        .get("answer")
        .map(|s| s.as_str())
        .filter(|a| !a.trim().is_empty());
    let steps =
        play::parse_history(&setup.game, &[text], answer).map_err(|e| (e.to_string(), e.step()))?;
    let limit = MAX_HISTORY.min(setup.tree.max_guesses() as usize);
    if steps.len() > limit {
        return Err((
            format!(
                "history of {} guesses, more than the {limit} the game allows",
                steps.len()
            ),
            None,
        ));
    }
    play::replay(&setup.game, &steps, setup.tree.hard()).map_err(|e| (e.to_string(), e.step()))?;
    Ok(steps)
}

/// [`parse_history_of`] for the routes that answer a refusal with the message only.
fn history_of(setup: &Setup, p: &HashMap<String, String>) -> Result<Vec<Step>, ApiError> {
    parse_history_of(setup, p).map_err(|(e, _)| bad(e))
}

/// `/api/history`: a game as typed or pasted, in the one syntax (`text` or
/// `history`/`h`, and `answer`), as the tokens every other route takes; a refusal is
/// `{"error", "step"}` with the 1-based step or share row it is about (or null).
async fn history_route(State(app): State<Arc<App>>, raw: Params) -> Result<Response, ApiError> {
    let start = Instant::now();
    let mut p = params(&raw)?;
    let setup = setup_of(&app, &p)?;
    if let Some(text) = p.remove("text") {
        if p.contains_key("history") || p.contains_key("h") {
            return Err(bad("give the game as 'text' or 'history', not both"));
        }
        p.insert("history".into(), text);
    }
    match parse_history_of(setup, &p) {
        Ok(steps) => {
            let game = &setup.game;
            let tokens: Vec<String> = steps.iter().map(|&s| play::token(game, s)).collect();
            Ok(timed(
                start,
                json!({
                    "h": tokens.join(","),
                    "history": tokens,
                    "found": steps.last().is_some_and(|s| s.feedback.is_all_green()),
                }),
            ))
        }
        Err((error, step)) => Ok((
            StatusCode::BAD_REQUEST,
            Json(json!({ "error": error, "step": step })),
        )
            .into_response()),
    }
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
            let histogram = s.tree.verify(&s.game).histogram();
            let distribution: Vec<usize> = histogram.get(1..).unwrap_or(&[]).to_vec();
            json!({
                "list": l,
                "mode": mode_name(*h),
                "about": crate::players::list_about(l),
                "answers": s.game.n_answers(),
                "guesses": s.game.n_guesses(),
                "opener": s.game.guesses[s.tree.root().guess.index()].to_string(),
                "max_guesses": s.tree.max_guesses(),
                // Answers found in 1, 2, ... guesses by the tree (index 0: 1 guess).
                "distribution": distribution,
            })
        })
        .collect();
    let (dl, dh) = app.default_setup();
    Json(json!({
        "served": served,
        "default": { "list": dl, "mode": mode_name(dh) },
        "history_syntax": play::HISTORY_SYNTAX,
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
/// proved optimal as [`review::TreeTrust::proves`] says, a searched one when the
/// search finished. `warning` says when no plan is sure to finish within the guesses
/// left (as `next` does), `note` when the opener table proves another opener better.
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
                Source::Tree => ("tree", setup.trust.proves(steps.len()).then_some(m.cost)),
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
                "within_limit": m.source.within_limit(),
                "warning": m.limit_warning(setup.tree.max_guesses() as usize - steps.len()),
                "note": (steps.is_empty() && m.source == Source::Tree)
                    .then(|| setup.better_opener.clone())
                    .flatten(),
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
        e @ AdviceError::TooManySteps { .. } => bad(e.to_string()),
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
            tree_optimal: su.trust.optimal,
            opener_table: su.table.as_ref().map(|(t, _)| t),
        };
        review::review(
            &su.game,
            Some(&su.tree),
            su.tree.hard(),
            su.tree.max_guesses(),
            &steps,
            app.stop,
            options,
        )
        .map(|r| r.to_json(&su.game))
    })
    .await?
    .map_err(|e| match e {
        review::ReviewError::History(h) => bad(h.to_string()),
        e @ review::ReviewError::TooManySteps { .. } => bad(e.to_string()),
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
    let in_table = setup
        .table
        .as_ref()
        .and_then(|(t, _)| t.get(word))
        .is_some();
    // The table has the rank; the tree's root value is used only without it.
    let body = if g == root.guess && !in_table {
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
