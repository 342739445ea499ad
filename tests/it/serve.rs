//! The `serve` JSON API, in process (the axum router driven by `tower::ServiceExt`):
//! answers against the library, bad requests refused with JSON errors, arbitrary
//! query strings never crash a handler, concurrent requests all served.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tower::ServiceExt;
use wordle_tree::players::serve::{router, run_with, App, Config, Limits};

fn app() -> Arc<App> {
    static APP: OnceLock<Arc<App>> = OnceLock::new();
    static STOP: AtomicBool = AtomicBool::new(false);
    APP.get_or_init(|| {
        let config = Config {
            lists: vec!["wordle".into(), "nyt".into(), "sowpods".into()],
            default: ("wordle".into(), false),
            tree_dirs: vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("trees")],
            table_dirs: vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tables")],
            // Generous: the exact answers these tests expect (crane:BBYBB -> silty, a
            // 134-candidate search) must not run out of time on a loaded machine; the
            // tests of the limit itself build their own app with their own limit.
            time_limit: Duration::from_secs(60),
            max_searches: 2,
        };
        Arc::new(App::new(config, &STOP).unwrap())
    })
    .clone()
}

/// GET `uri` from the shared app: status, JSON body (or the text as a JSON string),
/// content type.
async fn get(uri: &str) -> (StatusCode, serde_json::Value, String) {
    get_from(app(), uri).await
}

/// GET `uri` from `app`, as [`get`].
async fn get_from(app: Arc<App>, uri: &str) -> (StatusCode, serde_json::Value, String) {
    let res = router(app)
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = res.status();
    let ctype = res
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    let v = serde_json::from_str(&text).unwrap_or(serde_json::Value::String(text));
    (status, v, ctype)
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn the_page_is_self_contained() {
    rt().block_on(async {
        let (status, v, ctype) = get("/").await;
        assert_eq!(status, StatusCode::OK);
        assert!(ctype.starts_with("text/html"), "{ctype}");
        let page = v.as_str().unwrap();
        assert!(page.contains("<script>") && page.contains("<style>"));
        // No external assets: nothing is loaded from another origin.
        for needle in ["http://", "https://", "src=", "<link"] {
            assert!(!page.contains(needle), "the page refers to '{needle}'");
        }
    });
}

#[test]
fn lists_are_the_ones_with_a_tree() {
    rt().block_on(async {
        let (status, v, _) = get("/api/lists").await;
        assert_eq!(status, StatusCode::OK);
        let served: Vec<String> = v["served"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                format!(
                    "{}/{}",
                    s["list"].as_str().unwrap(),
                    s["mode"].as_str().unwrap()
                )
            })
            .collect();
        // sowpods has no shipped tree, so it is not served.
        assert_eq!(
            served,
            ["nyt/normal", "nyt/hard", "wordle/normal", "wordle/hard"]
        );
    });
}

#[test]
fn next_is_the_tree_move_and_off_the_tree_the_exact_one() {
    rt().block_on(async {
        let (status, v, _) = get("/api/next").await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["guess"], "salet");
        assert_eq!(v["candidates"], 2315);
        assert_eq!(v["cost"], 7920);
        assert_eq!(v["source"], "tree");
        let (_, v, _) = get("/api/next?history=salet:BBBBB+courd:BBBBY").await;
        assert_eq!(v["guess"], "dingy", "{v}");
        assert_eq!(v["cost"], 11);
        assert_eq!(
            v["words"],
            serde_json::json!(["biddy", "dingy", "dizzy", "dying", "giddy", "windy"])
        );
        // Commas separate tokens too, and GUESS FEEDBACK pairs are steps; the hard
        // tree gives its own move.
        let (status, v, _) = get("/api/next?mode=hard&history=salet,BBBBB").await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["history"][0], "salet:BBBBB", "{v}");
        let (_, v, _) = get("/api/next?list=nyt&mode=hard").await;
        assert_eq!(v["cost"], 8097, "{v}");
        // Off the tree: solved exactly (README: crane:BBYBB -> silty, 134 candidates).
        let (status, v, _) = get("/api/next?history=crane:BBYBB").await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["guess"], "silty", "{v}");
        assert_eq!(v["candidates"], 134);
        assert_eq!(v["source"], "search");
        assert_eq!(v["proven_optimal"], true);
        let (_, v, _) = get("/api/next?history=salet:BYBBY+tonic:YYBBB+quota:GGGGG").await;
        assert_eq!(v["found"], true);
        assert_eq!(v["answer"], "quota");
        assert_eq!(v["guesses"], 3);
    });
}

#[test]
fn candidates_review_and_opener_values() {
    rt().block_on(async {
        let (_, v, _) = get("/api/candidates?history=salet:BBBBB%20courd:BBBBY").await;
        assert_eq!(v["candidates"], 6, "{v}");
        assert_eq!(v["words"][0], "biddy");
        // The review is the library's review.
        let (status, v, _) = get("/api/review?history=salet:BYBBY+tonic:YYBBB+quota:GGGGG").await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let game =
            wordle_tree::Game::load(&wordle_tree::ListSource::Named("wordle".into())).unwrap();
        let tree = wordle_tree::tree::file::load(
            &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("trees/salet.normal.wordle.tree"),
            &game,
        )
        .unwrap();
        let steps: Vec<_> = ["salet:BYBBY", "tonic:YYBBB", "quota:GGGGG"]
            .iter()
            .map(|t| wordle_tree::players::play::parse_step(&game, t).unwrap())
            .collect();
        // (With the shipped table: it proves the tree optimal and salet best.)
        let table = wordle_tree::store::opener_table::OpenerTable::load(
            &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tables/wordle.normal.csv"),
        )
        .unwrap();
        let want = wordle_tree::players::review::review(
            &game,
            Some(&tree),
            false,
            6,
            &steps,
            &AtomicBool::new(false),
            wordle_tree::players::review::Options {
                tree_optimal: true,
                opener_table: Some(&table),
                ..Default::default()
            },
        )
        .unwrap()
        .to_json(&game);
        // (Parsed the same way as the answer, so floats compare equal.)
        let want: serde_json::Value = serde_json::from_str(&want.to_string()).unwrap();
        assert_eq!(v, want);
        let (_, v, _) = get("/api/opener?word=salet").await;
        assert_eq!(v["known"], true);
        assert_eq!(v["total"], 7920);
        // Not the tree's opener: from the shipped (complete) opener table.
        let (_, v, _) = get("/api/opener?word=CRANE").await;
        assert_eq!(v["known"], true, "{v}");
        assert_eq!(v["total"], 7930, "{v}");
        assert_eq!(v["source"], "wordle.normal.csv", "{v}");
        assert_eq!(v["rank"], 6, "{v}");
        assert_eq!(v["complete"], true, "{v}");
        assert!(
            v["rank_text"]
                .as_str()
                .unwrap()
                .contains("of 12972 openers"),
            "{v}"
        );
        let (_, v, _) = get("/api/opener?word=caret&mode=hard").await;
        assert_eq!(v["cannot_finish"], true, "{v}");
        // Both tables of the original lists are complete: a poor opener is known in
        // either mode, with a proved rank.
        let (_, v, _) = get("/api/opener?word=zymic").await;
        assert_eq!(v["known"], true, "{v}");
        let (_, v, _) = get("/api/opener?word=zymic&mode=hard").await;
        assert_eq!(v["known"], true, "{v}");
        assert_eq!(v["complete"], true, "{v}");
        assert_eq!(v["total"], 8944, "{v}");
        let (status, v, _) = get("/api/opener?word=zzzzz").await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(
            v["error"]
                .as_str()
                .unwrap()
                .contains("not in the allowed guesses"),
            "{v}"
        );
    });
}

#[test]
fn bad_requests_get_400_with_a_json_error() {
    rt().block_on(async {
        let long = format!("/api/next?history={}", "salet:BBBBB+".repeat(7));
        let long_review = format!("/api/review?history={}", "salet:BBBBB+".repeat(7));
        let huge = format!("/api/next?history={}", "a".repeat(5000));
        let cases: Vec<(&str, &str)> = vec![
            (
                "/api/next?list=klingon",
                "list 'klingon' in normal mode is not served",
            ),
            (
                "/api/next?mode=easy",
                "mode 'easy': expected normal or hard",
            ),
            (
                "/api/next?history=salet:BBGX",
                "feedback 'BBGX' has 4 characters",
            ),
            (
                "/api/next?history=zzzzz:BBBBB",
                "not in the allowed guesses",
            ),
            (
                "/api/next?history=crane:BBYBB+salet:GGGGY",
                "step 2: no answer is consistent with salet:GGGGY after crane:BBYBB",
            ),
            (
                "/api/review?mode=hard&history=salet:BYBBB+courd:BBBBB",
                "breaks hard mode",
            ),
            (
                &long,
                "history of 7 guesses, more than the 6 the game allows",
            ),
            // Issue 38: the review takes no more guesses than the game (and the CLI).
            (
                &long_review,
                "history of 7 guesses, more than the 6 the game allows",
            ),
            (
                "/api/next?list=wordle&list=nyt",
                "parameter 'list' given twice",
            ),
            (
                "/api/next?history=%FF%FE",
                "is neither a guess, a feedback nor GUESS:FEEDBACK",
            ),
            (
                "/api/next?history=whiff:GGGGG+whiff:GGGGG",
                "after the answer was already found",
            ),
            ("/api/opener", "missing parameter 'word'"),
        ];
        for (uri, msg) in cases {
            let (status, v, ctype) = get(uri).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{uri}: {v}");
            assert!(ctype.starts_with("application/json"), "{uri}: {ctype}");
            let e = v["error"].as_str().unwrap_or_default();
            assert!(e.contains(msg), "{uri}: {e}");
        }
        let (status, v, _) = get("/nothing/here").await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert_eq!(v["error"], "no such route");
        // Issue 38: a query over the limit is 414, another method 405: JSON too.
        let (status, v, ctype) = get(&huge).await;
        assert_eq!(status, StatusCode::URI_TOO_LONG);
        assert!(ctype.starts_with("application/json"), "{ctype}");
        assert!(
            v["error"].as_str().unwrap().contains("query string of"),
            "{v}"
        );
        let res = router(app())
            .oneshot(Request::delete("/api/next").body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::METHOD_NOT_ALLOWED);
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert!(v["error"].as_str().unwrap().contains("GET only"), "{v}");
        // A request body beyond the limit is refused, not read.
        let res = router(app())
            .oneshot(
                Request::post("/api/next")
                    .body(Body::from(vec![b'x'; 1 << 20]))
                    .unwrap(),
            )
            .await
            .unwrap();
        assert!(res.status().is_client_error(), "{}", res.status());
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        let _: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    });
}

#[test]
fn arbitrary_queries_never_crash_a_handler() {
    // Every printable-ASCII query to every route answers 200, 400 or 404 with JSON.
    let alphabet: Vec<char> = "abcdelrst:=&+%,GBYgby09 .-".chars().collect();
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let rt = rt();
    rt.block_on(async {
        for i in 0..400 {
            let mut q = String::new();
            let len = (i % 40) + 1;
            for _ in 0..len {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                q.push(alphabet[(x % alphabet.len() as u64) as usize]);
            }
            let route = ["next", "candidates", "review", "opener"][i % 4];
            let q = q.replace(' ', "+");
            let uri = format!("/api/{route}?history={q}");
            let Ok(req) = Request::get(uri.as_str()).body(Body::empty()) else {
                continue;
            };
            let res = router(app()).oneshot(req).await.unwrap();
            let status = res.status();
            assert!(
                [
                    StatusCode::OK,
                    StatusCode::BAD_REQUEST,
                    StatusCode::URI_TOO_LONG
                ]
                .contains(&status),
                "{uri}: {status}"
            );
            let bytes = res.into_body().collect().await.unwrap().to_bytes();
            let _: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        }
    });
}

#[test]
fn concurrent_requests_are_all_served() {
    rt().block_on(async {
        let uris = [
            "/api/next",
            "/api/next?history=salet:BBBBB",
            "/api/next?history=crane:BBYBB",
            "/api/review?history=salet:BYBBY+tiara:YBBBG",
            "/api/candidates?history=salet:BBBBB",
        ];
        let tasks: Vec<_> = (0..40)
            .map(|i| {
                let uri = uris[i % uris.len()];
                tokio::spawn(async move { get(uri).await })
            })
            .collect();
        for t in tasks {
            let (status, v, _) = t.await.unwrap();
            assert_eq!(status, StatusCode::OK, "{v}");
        }
    });
}

/// Issue 13: `serve` said `proven_optimal: true` for every tree move while `next
/// --json` said `null`. Both now say what is proved: a shipped tree is optimal from
/// its opener, so its moves below the root are proved (with `lower_bound` = `cost`);
/// at the root only where the opener is proved best of all (salet, wordle lists,
/// normal mode), not on the nyt lists, where `tarse` beats it (`false`, no bound).
#[test]
fn serve_and_next_agree_on_what_a_tree_move_proves() {
    let cli = |args: &[&str]| -> serde_json::Value {
        let out = assert_cmd::Command::cargo_bin("wordle-tree")
            .unwrap()
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}");
        serde_json::from_slice(&out.stdout).unwrap()
    };
    rt().block_on(async {
        for (list, history, proved) in [
            ("wordle", "", true),
            ("nyt", "", false),
            ("nyt", "salet:BBBBB", true),
            ("wordle", "salet:BBBBB courd:BBBBY", true),
        ] {
            let uri = format!(
                "/api/next?list={list}&history={}",
                history.replace(' ', "+")
            );
            let (status, s, _) = get(&uri).await;
            assert_eq!(status, StatusCode::OK, "{s}");
            let mut args = vec!["--list", list, "next", "--json"];
            args.extend(history.split_whitespace());
            let c = cli(&args);
            let ctx = format!("{list} [{history}]: serve {s}, next {c}");
            assert_eq!(s["proven_optimal"], proved, "{ctx}");
            assert_eq!(c["proven_optimal"], proved, "{ctx}");
            for field in ["lower_bound", "source", "guess", "cost"] {
                assert_eq!(s[field], c[field], "{field}: {ctx}");
            }
            if proved {
                assert_eq!(s["lower_bound"], s["cost"], "{ctx}");
            } else {
                assert!(s["lower_bound"].is_null(), "{ctx}");
            }
        }
    });
}

/// Issue 13: the time limit of a `/api/review` request is one budget for the whole
/// review: once it has passed, no search starts. With a limit of 0 every state is
/// valued without a search, from the least any plan costs (`2n - 1` over `n`
/// candidates) to a greedy plan's cost, and shown as that range, never as exact.
#[test]
fn a_review_request_shares_one_deadline() {
    static STOP: AtomicBool = AtomicBool::new(false);
    let app = Arc::new(
        App::new(
            Config {
                lists: vec!["wordle".into()],
                default: ("wordle".into(), false),
                tree_dirs: vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("trees")],
                table_dirs: vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tables")],
                time_limit: Duration::ZERO,
                max_searches: 2,
            },
            &STOP,
        )
        .unwrap(),
    );
    rt().block_on(async {
        let res = router(app)
            .oneshot(
                Request::get("/api/review?history=salet:BBBBB+fuzzy:BBBBB")
                    .body(Body::empty())
                    .unwrap(),
            )
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        // Step 2 leaves the tree (74 candidates left): no search values that state,
        // only the bound of any plan and a greedy plan.
        let rest = &v["rest"];
        let n = rest["candidates"].as_f64().unwrap();
        assert!(n > 10.0, "{v}");
        let range = rest["expected_range"].as_array().expect("a range");
        let (lo, hi) = (range[0].as_f64().unwrap(), range[1].as_f64().unwrap());
        assert!((lo - (2.0 * n - 1.0) / n).abs() < 1e-12, "{rest}");
        assert!(
            lo < hi && hi == rest["expected"].as_f64().unwrap(),
            "{rest}"
        );
        assert!(v["steps"][1]["played"]["expected_range"].is_array(), "{v}");
        // The tree's values stay exact (proved below the root; salet is proved best).
        assert_eq!(v["steps"][0]["played"]["optimal"], true, "{v}");
        assert_eq!(v["steps"][1]["best"]["proved_optimal"], true, "{v}");
        assert_eq!(v["summary"]["exact"], false, "{v}");
        assert_eq!(v["found"], false, "{v}");
        assert!(v.get("solved").is_none(), "{v}");
    });
}

/// The opener API over a partial table: an opener in the table is known with a rank
/// among the openers solved so far, never a proved rank; one not in it is unknown, and
/// the note says how far the table has got. A mode the directory has no table for
/// gets the built-in table; with no table at all (the big game, `wordle-all`) the note
/// names only the tree.
#[test]
fn opener_values_from_a_partial_table() {
    use wordle_tree::store::opener_table::{Entry, OpenerTable};
    let game = wordle_tree::Game::load(&wordle_tree::ListSource::Named("wordle".into())).unwrap();
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let full =
        OpenerTable::load_for(&repo.join("tables/wordle.normal.csv"), &game, false, 6).unwrap();
    // The 40 best openers, as if the table run had stopped part way.
    let entries: Vec<(wordle_tree::Word, Entry)> = full
        .rows()
        .iter()
        .take(40)
        .map(|r| (r.opener, r.entry))
        .collect();
    let crane = *full
        .get(wordle_tree::Word::parse("crane").unwrap())
        .unwrap();
    assert!(
        crane.rank.unwrap() <= 40,
        "crane is among the 40 best normal openers"
    );
    let partial = OpenerTable::new(&game, false, 6, entries);
    assert!(!partial.is_complete());
    let dir = tempfile::tempdir().unwrap();
    partial
        .save(
            &dir.path()
                .join(wordle_tree::store::opener_table::shipped_name(&game, false)),
        )
        .unwrap();
    static STOP: AtomicBool = AtomicBool::new(false);
    let app = Arc::new(
        App::new(
            Config {
                lists: vec!["wordle".into(), "nyt2023".into(), "wordle-all".into()],
                default: ("wordle".into(), false),
                tree_dirs: vec![repo.join("trees")],
                table_dirs: vec![dir.path().to_path_buf()],
                time_limit: Duration::from_secs(5),
                max_searches: 2,
            },
            &STOP,
        )
        .unwrap(),
    );
    let ask = |uri: String| {
        let app = app.clone();
        async move {
            let (status, v, _) = get_from(app, &uri).await;
            assert_eq!(status, StatusCode::OK, "{uri}");
            v
        }
    };
    rt().block_on(async {
        let v = ask("/api/opener?word=crane".into()).await;
        assert_eq!(v["known"], true, "{v}");
        assert_eq!(v["complete"], false, "{v}");
        assert_eq!(v["solved"], 40, "{v}");
        assert_eq!(v["openers"], 12972, "{v}");
        assert_eq!(v["rank"], crane.rank.unwrap(), "{v}");
        let Entry::Exact { total, .. } = crane.entry else {
            panic!("crane has an exact total")
        };
        assert_eq!(v["total"], total, "{v}");
        let text = v["rank_text"].as_str().unwrap();
        assert!(text.contains("among the 40 openers solved so far"), "{v}");
        assert!(text.contains("not a proved rank"), "{v}");
        // Not in the partial table: unknown, and the note says how far it has got.
        let v = ask("/api/opener?word=zymic".into()).await;
        assert_eq!(v["known"], false, "{v}");
        assert!(v.get("total").is_none(), "{v}");
        let note = v["note"].as_str().unwrap();
        assert!(note.contains("the tree is from salet"), "{v}");
        assert!(note.contains("has 40 of 12972 openers so far"), "{v}");
        assert!(note.contains("solve --opener zymic"), "{v}");
        // No hard table in that directory: the built-in one answers (issue 34).
        let v = ask("/api/opener?word=zymic&mode=hard".into()).await;
        assert_eq!(v["known"], true, "{v}");
        assert_eq!(v["source"], "wordle.hard.csv", "{v}");
        assert_eq!(v["complete"], true, "{v}");
        // No table anywhere (the big game has a tree but no table): unknown, the note
        // names only the tree.
        let v = ask("/api/opener?list=wordle-all&word=zymic".into()).await;
        assert_eq!(v["known"], false, "{v}");
        let note = v["note"].as_str().unwrap();
        assert!(note.contains("the tree is from lants"), "{v}");
        assert!(!note.contains("opener table"), "{v}");
        // The 2023 list's tables are built in: tarse is first in both modes, proved;
        // in hard mode an opener that cannot finish within 6 is known, with no total
        // and no rank.
        for (mode, source, total) in [
            ("normal", "nyt2023.normal.csv", 11219),
            ("hard", "nyt2023.hard.csv", 11627),
        ] {
            let v = ask(format!("/api/opener?list=nyt2023&word=tarse&mode={mode}")).await;
            assert_eq!(v["known"], true, "{v}");
            assert_eq!(v["source"], source, "{v}");
            assert_eq!(v["complete"], true, "{v}");
            assert_eq!(v["total"], total, "{v}");
            assert_eq!(v["rank"], 1, "{v}");
        }
        let v = ask("/api/opener?list=nyt2023&word=aahed&mode=hard".into()).await;
        assert_eq!(v["known"], true, "{v}");
        assert_eq!(v["cannot_finish"], true, "{v}");
        assert!(v.get("total").is_none(), "{v}");
        assert!(v.get("rank").is_none(), "{v}");
    });
}

/// A `wordle-tree serve --port 0` child, killed when dropped.
struct Server {
    child: std::process::Child,
    addr: String,
}

impl Server {
    fn start() -> Server {
        use std::io::BufRead;
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_wordle-tree"))
            .args(["serve", "--port", "0"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in '{line}'"));
        let addr = url["http://".len()..].trim_end_matches('/').to_string();
        Server { child, addr }
    }

    /// One GET on a new connection: the status line and the body.
    fn get(&self, path: &str) -> (String, String) {
        use std::io::{Read, Write};
        let mut s = std::net::TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        write!(
            s,
            "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        let status = out.lines().next().unwrap_or_default().to_string();
        let body = out.split("\r\n\r\n").nth(1).unwrap_or_default().to_string();
        (status, body)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Issue 38: `main` restores the default SIGPIPE action, and a client that pipelined
/// requests then closed killed `serve` (exit 141) on the first or second try. The
/// server ignores SIGPIPE: after ten such clients it still answers, still running.
#[test]
fn a_client_that_pipelines_and_hangs_up_does_not_kill_the_server() {
    use std::io::{Read, Write};
    let mut server = Server::start();
    let request = "GET /api/next?history=salet:BBYGB HTTP/1.1\r\nHost: x\r\n\r\n".repeat(50);
    for _ in 0..10 {
        let mut s = std::net::TcpStream::connect(&server.addr).unwrap();
        s.write_all(request.as_bytes()).unwrap();
        let mut buf = [0u8; 4096];
        let _ = s.read(&mut buf);
        drop(s); // unread answers pending: the server's next writes hit a closed socket
        std::thread::sleep(Duration::from_millis(20));
    }
    let (status, body) = server.get("/api/lists");
    assert!(status.contains("200"), "{status}");
    assert!(body.contains("\"served\""), "{body}");
    assert!(
        server.child.try_wait().unwrap().is_none(),
        "the server exited"
    );
}

/// Issue 38: the first move on the nyt lists is the tree's salet, not proved best:
/// the complete table proves tarse better, and the answer says so. After five
/// `salet:BBBBB` no plan is sure to finish in the one guess left: the answer warns, as
/// `next` does, rather than only claiming an optimum.
#[test]
fn next_says_what_the_table_proves_and_when_no_plan_can_finish() {
    rt().block_on(async {
        let (_, v, _) = get("/api/next?list=nyt").await;
        assert_eq!(v["guess"], "salet", "{v}");
        assert_eq!(v["proven_optimal"], false, "{v}");
        let note = v["note"].as_str().expect("a note");
        assert!(
            note.contains("proves tarse better: 7883") && note.contains("salet's 7894"),
            "{note}"
        );
        // On the wordle lists salet is first in the complete table: nothing to say.
        let (_, v, _) = get("/api/next").await;
        assert_eq!(v["proven_optimal"], true, "{v}");
        assert!(v["note"].is_null(), "{v}");
        let (status, v, _) = get(&format!(
            "/api/next?history={}",
            ["salet:BBBBB"; 5].join("+")
        ))
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["within_limit"], false, "{v}");
        let w = v["warning"].as_str().expect("a warning");
        assert!(
            w.contains("no plan is sure to finish within the 1 guess(es) left"),
            "{w}"
        );
        let (_, v, _) = get("/api/next?history=salet:BBBBB").await;
        assert!(v["warning"].is_null() && v["within_limit"] == true, "{v}");
        // The page shows both.
        let (_, page, _) = get("/").await;
        let page = page.as_str().unwrap();
        assert!(page.contains("a.warning") && page.contains("a.note"));
    });
}

/// Issue 38: `/api/review` of `salet:BBBBB` on the nyt lists said salet optimal, 0
/// lost, exact. The complete nyt table proves tarse best (7883) and salet 7894: salet
/// loses 11/2309 guesses, the optimum from the start is tarse's, and that is exact.
#[test]
fn the_review_of_salet_on_nyt_is_not_optimal() {
    rt().block_on(async {
        let (status, v, _) = get("/api/review?list=nyt&history=salet:BBBBB").await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let step = &v["steps"][0];
        assert_eq!(step["played"]["optimal"], false, "{v}");
        assert_eq!(step["best"]["guesses"][0], "tarse", "{v}");
        assert_eq!(step["best"]["proved_optimal"], true, "{v}");
        assert_eq!(step["best"]["source"], "table", "{v}");
        let lost = step["played"]["lost"].as_f64().unwrap();
        assert!((lost - 11.0 / 2309.0).abs() < 1e-12, "{v}");
        let start = v["summary"]["optimal_start"].as_f64().unwrap();
        assert!((start - 7883.0 / 2309.0).abs() < 1e-12, "{v}");
        assert_eq!(v["summary"]["exact"], true, "{v}");
        // In hard mode the complete table ranks salet first: proved optimal.
        let (_, v, _) = get("/api/review?list=wordle&mode=hard&history=salet:BBBBB").await;
        assert_eq!(v["steps"][0]["best"]["proved_optimal"], true, "{v}");
        assert_eq!(v["steps"][0]["played"]["optimal"], true, "{v}");
    });
}

/// Issue 38: a shipped tree and the table must agree on its opener: a tree that is
/// not optimal (the hard-mode tree, total 8122, flagged normal) served as the normal
/// one stops the server from starting, naming both files; loaded as the user's own
/// tree it proves nothing.
#[test]
fn a_tree_the_table_contradicts_is_refused_or_not_trusted() {
    use wordle_tree::players::review::tree_trust;
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let game = wordle_tree::Game::load(&wordle_tree::ListSource::Named("wordle".into())).unwrap();
    let hard =
        wordle_tree::tree::file::load(&repo.join("trees/salet.hard.wordle.tree"), &game).unwrap();
    let fake = wordle_tree::tree::Tree::new(&game, false, 6, hard.root().clone()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    wordle_tree::tree::file::save(&fake, &dir.path().join("salet.normal.wordle.tree")).unwrap();
    static STOP: AtomicBool = AtomicBool::new(false);
    let e = App::new(
        Config {
            lists: vec!["wordle".into()],
            tree_dirs: vec![dir.path().to_path_buf()],
            table_dirs: vec![repo.join("tables")],
            time_limit: Duration::from_secs(5),
            max_searches: 1,
            default: ("wordle".into(), false),
        },
        &STOP,
    )
    .err()
    .expect("refused");
    let msg = e.to_string();
    assert!(
        msg.contains("wordle.normal.csv") && msg.contains("7920") && msg.contains("8122"),
        "{msg}"
    );
    let table =
        wordle_tree::store::opener_table::OpenerTable::load(&repo.join("tables/wordle.normal.csv"))
            .unwrap();
    assert!(!tree_trust(&game, &fake, Some(&table)).optimal);
    let real =
        wordle_tree::tree::file::load(&repo.join("trees/salet.normal.wordle.tree"), &game).unwrap();
    let trust = tree_trust(&game, &real, Some(&table));
    assert!(trust.optimal && trust.opener_best);
    assert!(
        !tree_trust(&game, &real, None).optimal,
        "no table, no proof"
    );
}

/// The shared app served on a free loopback port with `limits` until the sender is
/// used: its address, the sender, the server's task.
fn on_loopback(
    rt: &tokio::runtime::Runtime,
    limits: Limits,
) -> (
    std::net::SocketAddr,
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<std::io::Result<()>>,
) {
    let listener = rt
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let addr = listener.local_addr().unwrap();
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let server = rt.spawn(run_with(app(), listener, limits, async {
        let _ = rx.await;
    }));
    (addr, tx, server)
}

/// Issue 38: no header or idle timeout, no connection cap, let half-sent requests
/// hold the server. With a 300 ms header timeout and 2 connections at most, two
/// clients that send half a request are closed by the server, and a third client,
/// queued behind them, is answered.
#[test]
fn slow_clients_are_closed_and_the_next_one_served() {
    use std::io::{Read, Write};
    let rt = rt();
    let limits = Limits {
        header_timeout: Duration::from_millis(300),
        max_connections: 2,
    };
    let (addr, tx, server) = on_loopback(&rt, limits);
    let slow: Vec<std::net::TcpStream> = (0..2)
        .map(|_| {
            let mut s = std::net::TcpStream::connect(addr).unwrap();
            s.write_all(b"GET /api/lists HTTP/1.1\r\nHost: x\r\n")
                .unwrap();
            s
        })
        .collect();
    std::thread::sleep(Duration::from_millis(50));
    // The third client waits for a connection slot, then is answered.
    let mut third = std::net::TcpStream::connect(addr).unwrap();
    third
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    third
        .write_all(b"GET /api/lists HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut answer = String::new();
    third.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // The slow ones were closed by the server (end of stream, or a reset).
    for mut s in slow {
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let mut buf = Vec::new();
        match s.read_to_end(&mut buf) {
            Ok(_) => {}
            Err(e) => assert_ne!(e.kind(), std::io::ErrorKind::WouldBlock, "still open"),
        }
    }
    let _ = tx.send(());
    rt.block_on(server).unwrap().unwrap();
}

/// Cases per property: `PROPTEST_CASES` (the long run), else `default`.
fn cases(default: u32) -> proptest::test_runner::Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(default);
    proptest::test_runner::Config {
        cases,
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    }
}

/// One runtime for every case of the property.
fn shared_rt() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(rt)
}

/// Every byte a URI's query may not hold as it is, percent-encoded (a `%` is kept, so
/// malformed escapes reach the parser too).
fn to_query(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?%".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

proptest::proptest! {
    #![proptest_config(cases(256))]
    /// The query parser and every handler behind it, on arbitrary query strings
    /// (keys the routes know, repeats, malformed escapes, any Unicode): a JSON answer,
    /// 200 or a 4xx with an error, never a crash. The long run:
    /// `PROPTEST_CASES=100000 cargo test --release --test it serve::arbitrary_query`.
    #[test]
    fn arbitrary_query_strings_get_a_json_answer(
        route in 0usize..5,
        q in "((list|mode|history|word|x)=?|nyt|wordle|hard|normal|salet|crane|:|[BGYbgy.]{5}|%[0-9A-Fa-f]{0,2}|[=&+, ]|[a-z]{1,5}|\\PC){0,40}",
    ) {
        let route = ["next", "candidates", "review", "opener", "nowhere"][route];
        let uri = format!("/api/{route}?{}", to_query(&q));
        let Ok(req) = Request::get(uri.as_str()).body(Body::empty()) else {
            return Ok(());
        };
        let (status, v) = shared_rt().block_on(async {
            let res = router(app()).oneshot(req).await.unwrap();
            let status = res.status();
            let bytes = res.into_body().collect().await.unwrap().to_bytes();
            (status, serde_json::from_slice::<serde_json::Value>(&bytes))
        });
        let v = v.map_err(|e| proptest::test_runner::TestCaseError::fail(format!("{uri}: not JSON: {e}")))?;
        proptest::prop_assert!(
            [StatusCode::OK, StatusCode::BAD_REQUEST, StatusCode::NOT_FOUND, StatusCode::URI_TOO_LONG]
                .contains(&status),
            "{uri}: {status}"
        );
        if status != StatusCode::OK {
            proptest::prop_assert!(v["error"].is_string(), "{uri}: {v}");
        }
    }
}

/// Issue 38: the answers hyper writes itself, before any handler (a raw non-ASCII
/// byte in the URI: 400; 200 header lines: 431; a 70 KB URI: 414), had empty bodies.
/// They are JSON too, with the same status.
#[test]
fn hypers_own_error_answers_are_json() {
    use std::io::{Read, Write};
    let rt = rt();
    let (addr, tx, server) = on_loopback(&rt, Limits::default());
    let mut many_headers = b"GET /api/lists HTTP/1.1\r\nHost: x\r\n".to_vec();
    many_headers.extend(b"X-a: b\r\n".repeat(200));
    many_headers.extend(b"\r\n");
    let mut long_uri = b"GET /api/lists?".to_vec();
    long_uri.extend(vec![b'a'; 70_000]);
    long_uri.extend(b" HTTP/1.1\r\nHost: x\r\n\r\n");
    for (request, status) in [
        (
            b"GET /api/next?h=\xff HTTP/1.1\r\nHost: x\r\n\r\n".to_vec(),
            "400",
        ),
        (many_headers, "431"),
        (long_uri, "414"),
    ] {
        let mut s = std::net::TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        // (hyper answers once the whole head is read: nothing is left unread.)
        s.write_all(&request).unwrap();
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out);
        let out = String::from_utf8_lossy(&out);
        assert!(out.starts_with(&format!("HTTP/1.1 {status}")), "{out}");
        assert!(out.contains("content-type: application/json"), "{out}");
        let body = out.split_once("\r\n\r\n").unwrap().1;
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert!(v["error"].is_string(), "{out}");
    }
    let _ = tx.send(());
    rt.block_on(server).unwrap().unwrap();
}

/// `GET` with the query's values percent-encoded (emoji, newlines, spaces).
async fn get_q(path: &str, pairs: &[(&str, &str)]) -> (StatusCode, serde_json::Value) {
    let q: Vec<String> = pairs
        .iter()
        .map(|(k, v)| {
            let enc: String = v
                .bytes()
                .map(|b| match b {
                    b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b':' => {
                        (b as char).to_string()
                    }
                    _ => format!("%{b:02X}"),
                })
                .collect();
            format!("{k}={enc}")
        })
        .collect();
    let (status, v, _) = get(&format!("{path}?{}", q.join("&"))).await;
    (status, v)
}

/// A review's JSON without the names of the best guesses (which of several tied
/// guesses the parallel search names can differ between runs; their values cannot).
fn without_best_names(mut v: serde_json::Value) -> serde_json::Value {
    for s in v["steps"].as_array_mut().into_iter().flatten() {
        s["best"]["guesses"] = serde_json::Value::Null;
    }
    v
}

#[test]
fn every_notation_and_form_gives_the_same_answers_as_the_cli_syntax() {
    rt().block_on(async {
        let (_, want_next) = get_q("/api/next", &[("history", "salet:BYBBY tonic:YYBBB")]).await;
        let (_, want_review) = get_q(
            "/api/review",
            &[("history", "salet:BYBBY,tiara:YBBBG,quota:GGGGG")],
        )
        .await;
        assert_eq!(want_next["history"][1], "tonic:YYBBB", "{want_next}");
        for h in [
            "salet:BYBBY,tonic:YYBBB",
            "salet BYBBY, tonic YYBBB",
            "salet:xyxxy tonic:yy...",
            "salet:⬛🟨⬛⬛🟨,tonic:🟦🟦⬜⬜⬜",
            "salet tonic ⬛🟨⬛⬛🟨\n🟨🟨⬛⬛⬛",
        ] {
            let (status, v) = get_q("/api/next", &[("h", h)]).await;
            assert_eq!(status, StatusCode::OK, "{h}: {v}");
            assert_eq!(v, want_next, "{h}");
        }
        // A pasted share text, and the guesses with the answer.
        let share = "Wordle 1,234 3/6\n\n⬛🟨⬛⬛🟨\n🟨⬛⬛⬛🟩\n🟩🟩🟩🟩🟩";
        let (status, v) = get_q(
            "/api/review",
            &[("history", &format!("{share}\nsalet tiara quota"))],
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let want_review = without_best_names(want_review);
        assert_eq!(without_best_names(v), want_review);
        let (_, v) = get_q(
            "/api/review",
            &[("history", "salet tiara quota"), ("answer", "quota")],
        )
        .await;
        assert_eq!(without_best_names(v), want_review);
        // /api/history turns any form into the tokens.
        let (status, v) = get_q("/api/history", &[("text", share), ("answer", "quota")]).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
        assert!(
            v["error"]
                .as_str()
                .unwrap()
                .contains("type the guesses in order"),
            "{v}"
        );
        assert_eq!(v["step"], serde_json::Value::Null, "{v}");
        let (status, v) = get_q(
            "/api/history",
            &[("text", &format!("salet tiara quota {share}"))],
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["h"], "salet:BYBBY,tiara:YBBBG,quota:GGGGG");
        assert_eq!(v["found"], true);
        // Bad rows are named, with the step for the page to show it beside the row.
        for (text, step, msg) in [
            (
                "salet tiara ⬛🟨⬛⬛🟨\n🟨⬛⬛🟩",
                2,
                "share row 2 '🟨⬛⬛🟩': feedback '🟨⬛⬛🟩' has 4 squares",
            ),
            (
                "salet tiara ⬛🟨⬛⬛🟨\n🟨⬛G⬛🟩",
                2,
                "mixes squares and letters",
            ),
            (
                "salet:BBBBB tiara:GGGGG",
                2,
                "step 2: no answer is consistent with tiara:GGGGG",
            ),
        ] {
            let (status, v) = get_q("/api/history", &[("text", text)]).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{text}");
            assert_eq!(v["step"], step, "{v}");
            assert!(v["error"].as_str().unwrap().contains(msg), "{v}");
            let (status, v) = get_q("/api/next", &[("h", text)]).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{text}");
            assert!(v["error"].as_str().unwrap().contains(msg), "{v}");
        }
        let (status, _) = get_q(
            "/api/next",
            &[("h", "salet:BYBBY"), ("history", "salet:BYBBY")],
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
    });
}

#[test]
fn lists_say_what_each_list_is_and_the_opener_has_its_rank() {
    rt().block_on(async {
        let (_, v, _) = get("/api/lists").await;
        assert_eq!(v["default"]["list"], "wordle", "{v}");
        assert_eq!(v["default"]["mode"], "normal", "{v}");
        assert!(v["history_syntax"]
            .as_str()
            .unwrap()
            .contains("GUESS:FEEDBACK"));
        let wordle = &v["served"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["list"] == "wordle" && s["mode"] == "normal")
            .unwrap()
            .clone();
        assert!(
            wordle["about"].as_str().unwrap().contains("original"),
            "{wordle}"
        );
        // salet's optimal tree: 7920 guesses over 2315 answers.
        let dist: Vec<u64> = wordle["distribution"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect();
        assert_eq!(dist.iter().sum::<u64>(), 2315);
        assert_eq!(
            dist.iter()
                .enumerate()
                .map(|(i, c)| (i as u64 + 1) * c)
                .sum::<u64>(),
            7920
        );
        // The tree's own opener has its rank too (from the opener table).
        let (_, v, _) = get("/api/opener?word=salet").await;
        assert_eq!(v["total"], 7920, "{v}");
        assert_eq!(v["rank"], 1, "{v}");
        assert!(v["rank_text"].as_str().is_some(), "{v}");
    });
}
