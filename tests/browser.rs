//! The `serve` page in a real browser: starts `wordle-tree serve` on a free port and
//! headless Chromium under chromedriver (WebDriver, driven with fantoccini), plays a
//! whole game through the page (the suggestion and the keyboard, tiles clicked and
//! coloured by key) and checks what the page shows against the library.
//!
//! Needs `/usr/bin/chromium` and `/usr/bin/chromedriver` (Debian packages `chromium`
//! and `chromium-driver`; `.ci/run` installs them). Without them the test is skipped
//! with a loud message, except in CI (`CI=true`), where it fails.
//! `WORDLE_TREE_SCREENSHOT=FILE` also saves a PNG of the page after the review.

use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use wordle_tree::players::play::{self, Advice};

/// Kills the child process when dropped (also when the test fails).
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn tool(name: &str) -> Option<PathBuf> {
    let p = Path::new("/usr/bin").join(name);
    if p.is_file() {
        return Some(p);
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    })
}

/// Starts `serve --port 0` and returns it with the URL it printed.
fn start_server() -> (Killed, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wordle-tree"))
        .args(["serve", "--port", "0", "--time-limit", "30"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start wordle-tree serve");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("serve printed no URL: {line:?}"))
        .to_string();
    (Killed(child), url)
}

async fn connect(driver: &Path) -> (Killed, Client) {
    let port = free_port();
    let child = Command::new(driver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromedriver");
    let child = Killed(child);
    let profile = tempfile::tempdir().unwrap();
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({
            "binary": tool("chromium").unwrap(),
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--window-size=820,900",
                format!("--user-data-dir={}", profile.keep().display()),
            ],
        }),
    );
    let start = Instant::now();
    loop {
        let c = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps.clone())
            .connect(&format!("http://127.0.0.1:{port}"))
            .await;
        match c {
            Ok(c) => return (child, c),
            Err(e) if start.elapsed() < Duration::from_secs(30) => {
                let _ = e;
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(e) => panic!("cannot start a chromedriver session: {e}"),
        }
    }
}

/// Waits until the element's text satisfies `ok` (the page updates asynchronously).
async fn text_until(c: &Client, css: &str, ok: impl Fn(&str) -> bool) -> String {
    let start = Instant::now();
    loop {
        if let Ok(e) = c.find(Locator::Css(css)).await {
            // Tiles and the suggestion are shown in capitals (CSS): compare in lower case.
            if let Ok(t) = e.text().await.map(|t| t.to_lowercase()) {
                if ok(&t) {
                    return t;
                }
                if start.elapsed() > Duration::from_secs(60) {
                    panic!("{css}: still {t:?}");
                }
            }
        } else if start.elapsed() > Duration::from_secs(60) {
            panic!("{css}: not found");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn click(c: &Client, css: &str, times: usize) {
    for _ in 0..times {
        c.find(Locator::Css(css))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
    }
}

#[test]
fn the_page_plays_a_whole_game_and_shows_the_review() {
    let (Some(driver), Some(_)) = (tool("chromedriver"), tool("chromium")) else {
        let msg = "chromium and chromedriver are needed for the browser test \
                   (apt-get install chromium chromium-driver)";
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("{msg}");
        }
        eprintln!("\n\n!!!!! SKIPPED: {msg} !!!!!\n\n");
        return;
    };
    // What the page should show, from the library.
    let game = wordle_tree::Game::load(&wordle_tree::ListSource::Named("wordle".into())).unwrap();
    let tree = wordle_tree::tree::file::load(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("trees/salet.normal.wordle.tree"),
        &game,
    )
    .unwrap();
    let steps: Vec<_> = ["salet:BYBBY", "tiara:YBBBG", "quota:GGGGG"]
        .iter()
        .map(|t| play::parse_step(&game, t).unwrap())
        .collect();
    let stop = AtomicBool::new(false);
    let Advice::Play(third) =
        play::advise(&game, play::Guide::Tree(&tree), &steps[..2], &stop, None).unwrap()
    else {
        panic!("not solved after two steps")
    };
    let review = wordle_tree::players::review::review(
        &game,
        Some(&tree),
        false,
        6,
        &steps,
        &stop,
        wordle_tree::players::review::Options {
            tree_optimal: true,
            ..Default::default()
        },
    )
    .unwrap();

    let (_server, url) = start_server();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let (_driver, c) = connect(&driver).await;
        c.goto(&url).await.unwrap();
        assert_eq!(text_until(&c, "#next-guess", |t| t != "…").await, "salet");
        text_until(&c, "#candidates-count", |t| t == "2315 candidates left").await;
        let expected = text_until(&c, "#expected", |t| !t.is_empty()).await;
        assert!(expected.contains("3.4212"), "{expected}");

        // Step 1: take the suggestion, click tiles 2 and 5 to yellow, click Add.
        click(&c, "#use", 1).await;
        click(&c, "#tiles .tile[data-i='1']", 1).await;
        click(&c, "#tiles .tile[data-i='4']", 1).await;
        click(&c, "#add", 1).await;
        assert_eq!(
            text_until(&c, "#next-guess", |t| t != "salet").await,
            "tonic"
        );
        text_until(&c, "#candidates-count", |t| t == "21 candidates left").await;
        let played = c.find_all(Locator::Css("#board .row")).await.unwrap();
        assert_eq!(played.len(), 1);

        // Step 2: another word, by keyboard: type it, keys 1 and 5 colour the tiles
        // (1: yellow; 5 twice: green), Enter adds it.
        let word = c.find(Locator::Id("word")).await.unwrap();
        word.send_keys("tiara").await.unwrap();
        word.send_keys("155").await.unwrap();
        let tiles = text_until(&c, "#tiles", |t| t.replace('\n', "") == "tiara").await;
        assert_eq!(tiles.replace('\n', ""), "tiara");
        word.send_keys(&Key::Enter.to_string()).await.unwrap();
        let guess = game.guesses[third.guess.index()].to_string();
        assert_eq!(
            text_until(&c, "#next-guess", |t| t != "tonic").await,
            guess,
            "the page's move off the tree is the library's"
        );
        text_until(&c, "#candidates-count", |t| {
            t == format!("{} candidates left", third.candidates.len())
        })
        .await;
        let status = text_until(&c, "#status", |t| !t.is_empty()).await;
        assert!(status.contains("off the stored tree"), "{status}");

        // Step 3: the answer, every tile clicked twice to green.
        word.send_keys("quota").await.unwrap();
        for i in 0..5 {
            click(&c, &format!("#tiles .tile[data-i='{i}']"), 2).await;
        }
        click(&c, "#add", 1).await;
        text_until(&c, "#status", |t| t == "solved: quota in 3 guesses.").await;

        // The review, as the library computes it.
        text_until(&c, "#sum-total", |t| t == "your total: 3 guesses.").await;
        let start = text_until(&c, "#sum-start", |t| !t.is_empty()).await;
        assert_eq!(
            start,
            format!(
                "optimal play from the start: {:.4} guesses expected.",
                review.optimal_start().expected()
            )
        );
        let choices = text_until(&c, "#sum-choices", |t| !t.is_empty()).await;
        assert_eq!(
            choices,
            format!(
                "lost to choices: {:.4}. luck: {:+.4}.",
                review.lost().value,
                review.luck().value
            )
        );
        let rows = c
            .find_all(Locator::Css("#review-table tbody tr"))
            .await
            .unwrap();
        assert_eq!(rows.len(), 3);
        let row2 = rows[1].text().await.unwrap();
        let s2 = &review.steps[1];
        assert!(!s2.is_optimal());
        assert!(
            row2.contains("tiara") && row2.contains(&format!("{:.4}", s2.lost().value)),
            "{row2}"
        );
        let row1 = rows[0].text().await.unwrap();
        assert!(row1.contains("0 (optimal)"), "{row1}");
        if let Some(file) = std::env::var_os("WORDLE_TREE_SCREENSHOT") {
            let png = c.screenshot().await.unwrap();
            std::fs::write(file, png).unwrap();
        }
        c.close().await.unwrap();
    });
}
