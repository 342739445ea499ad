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
use wordle_tree::players::serve::{router, App, Config};

fn app() -> Arc<App> {
    static APP: OnceLock<Arc<App>> = OnceLock::new();
    static STOP: AtomicBool = AtomicBool::new(false);
    APP.get_or_init(|| {
        let config = Config {
            lists: vec!["wordle".into(), "nyt".into(), "sowpods".into()],
            tree_dirs: vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("trees")],
            table_dirs: vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tables")],
            time_limit: Duration::from_secs(5),
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
        // Commas separate tokens too; the hard tree gives its own move.
        let (_, v, _) = get("/api/next?mode=hard&history=salet,BBBBB").await;
        assert!(
            v["error"].as_str().unwrap().contains("GUESS:FEEDBACK"),
            "{v}"
        );
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
        let want = wordle_tree::players::review::review(
            &game,
            Some(&tree),
            false,
            6,
            &steps,
            &AtomicBool::new(false),
            wordle_tree::players::review::Options {
                tree_optimal: true,
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
        let long = format!("/api/next?history={}", "salet:BBBBB+".repeat(13));
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
            (&long, "history of 13 tokens, at most 12"),
            (&huge, "query string of"),
            (
                "/api/next?list=wordle&list=nyt",
                "parameter 'list' given twice",
            ),
            ("/api/next?history=%FF%FE", "is not GUESS:FEEDBACK"),
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
                [StatusCode::OK, StatusCode::BAD_REQUEST].contains(&status),
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
/// gets the built-in table; with no table at all (nyt2023) the note names only the tree.
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
                lists: vec!["wordle".into(), "nyt2023".into()],
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
        // No table anywhere (nyt2023 has none built in): unknown, the note names only
        // the tree.
        let v = ask("/api/opener?list=nyt2023&word=zymic".into()).await;
        assert_eq!(v["known"], false, "{v}");
        let note = v["note"].as_str().unwrap();
        assert!(note.contains("the tree is from tarse"), "{v}");
        assert!(!note.contains("opener table"), "{v}");
    });
}
