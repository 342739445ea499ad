//! The `serve` page in a real browser: starts `wordle-tree serve` on a free port and
//! headless Chromium under chromedriver (WebDriver, driven by the small blocking client in `webdriver.rs`), plays a
//! whole game through the page (the suggestion and the keyboard, tiles clicked and
//! coloured by key) and checks what the page shows against the library.
//!
//! Needs `/usr/bin/chromium` and `/usr/bin/chromedriver` (Debian packages `chromium`
//! and `chromium-driver`; `.ci/run` installs them). Without them the test is skipped
//! with a loud message, except in CI (`CI=true`), where it fails.
//! `WORDLE_TREE_SCREENSHOT=FILE` also saves a PNG of the page after the review.

use super::webdriver::{Client, ENTER};
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

fn connect(driver: &Path, extra: &[&str]) -> (Killed, Client) {
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
    let mut args: Vec<String> = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=820,900",
        "--hide-scrollbars",
    ]
    .iter()
    .map(|a| a.to_string())
    .collect();
    args.push(format!("--user-data-dir={}", profile.keep().display()));
    args.extend(extra.iter().map(|a| a.to_string()));
    caps.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({ "binary": tool("chromium").unwrap(), "args": args }),
    );
    let start = Instant::now();
    loop {
        match Client::connect(port, &serde_json::Value::Object(caps.clone())) {
            Ok(c) => return (child, c),
            Err(_) if start.elapsed() < Duration::from_secs(30) => {
                std::thread::sleep(Duration::from_millis(200));
            }
            Err(e) => panic!("cannot start a chromedriver session: {e}"),
        }
    }
}

/// Waits until the element's text satisfies `ok` (the page updates asynchronously).
fn text_until(c: &Client, css: &str, ok: impl Fn(&str) -> bool) -> String {
    let start = Instant::now();
    loop {
        if let Ok(e) = c.find(css) {
            // Tiles and the suggestion are shown in capitals (CSS): compare in lower case.
            if let Ok(t) = e.text().map(|t| t.to_lowercase()) {
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
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn click(c: &Client, css: &str, times: usize) {
    for _ in 0..times {
        c.find(css).unwrap().click().unwrap();
    }
}

/// chromedriver, when it and chromium are installed; otherwise the test is skipped
/// with a loud message (or fails, in CI).
fn driver() -> Option<PathBuf> {
    let (Some(driver), Some(_)) = (tool("chromedriver"), tool("chromium")) else {
        let msg = "chromium and chromedriver are needed for the browser test \
                   (apt-get install chromium chromium-driver)";
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("{msg}");
        }
        eprintln!("\n\n!!!!! SKIPPED: {msg} !!!!!\n\n");
        return None;
    };
    Some(driver)
}

/// The wordle lists and the shipped normal tree the page serves.
fn wordle() -> (wordle_tree::Game, wordle_tree::tree::Tree) {
    let game = wordle_tree::Game::load(&wordle_tree::ListSource::Named("wordle".into())).unwrap();
    let tree = wordle_tree::tree::file::load(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("trees/salet.normal.wordle.tree"),
        &game,
    )
    .unwrap();
    (game, tree)
}

#[test]
fn the_page_plays_a_whole_game_and_shows_the_review() {
    let Some(driver) = driver() else { return };
    // What the page should show, from the library.
    let (game, tree) = wordle();
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
    {
        let (_driver, c) = connect(&driver, &[]);
        c.goto(&format!("{url}?list=wordle")).unwrap();
        assert_eq!(text_until(&c, "#next-guess", |t| t != "…"), "salet");
        text_until(&c, "#candidates-count", |t| t == "2315 candidates left");
        let expected = text_until(&c, "#expected", |t| !t.is_empty());
        assert!(expected.contains("3.4212"), "{expected}");

        // Step 1: take the suggestion, click tiles 2 and 5 to yellow, click Add.
        click(&c, "#use", 1);
        click(&c, "#tiles .tile[data-i='1']", 1);
        click(&c, "#tiles .tile[data-i='4']", 1);
        click(&c, "#add", 1);
        assert_eq!(text_until(&c, "#next-guess", |t| t != "salet"), "tonic");
        text_until(&c, "#candidates-count", |t| t == "21 candidates left");
        let played = c.find_all("#board .row").unwrap();
        assert_eq!(played.len(), 1);

        // Step 2: another word, by keyboard: type it, keys 1 and 5 colour the tiles
        // (1: yellow; 5 twice: green), Enter adds it.
        let word = c.find("#word").unwrap();
        word.send_keys("tiara").unwrap();
        word.send_keys("155").unwrap();
        let tiles = text_until(&c, "#tiles", |t| t.replace('\n', "") == "tiara");
        assert_eq!(tiles.replace('\n', ""), "tiara");
        word.send_keys(ENTER).unwrap();
        let guess = game.guesses[third.guess.index()].to_string();
        assert_eq!(
            text_until(&c, "#next-guess", |t| t != "tonic"),
            guess,
            "the page's move off the tree is the library's"
        );
        text_until(&c, "#candidates-count", |t| {
            t == format!("{} candidates left", third.candidates.len())
        });
        let status = text_until(&c, "#status", |t| !t.is_empty());
        assert!(status.contains("off the stored tree"), "{status}");

        // Step 3: the answer, every tile clicked twice to green.
        word.send_keys("quota").unwrap();
        for i in 0..5 {
            click(&c, &format!("#tiles .tile[data-i='{i}']"), 2);
        }
        click(&c, "#add", 1);
        text_until(&c, "#status", |t| t == "solved: quota in 3 guesses.");

        // The review, as the library computes it.
        text_until(&c, "#sum-total", |t| t == "your total: 3 guesses.");
        let start = text_until(&c, "#sum-start", |t| !t.is_empty());
        assert_eq!(
            start,
            format!(
                "optimal play from the start: {:.4} guesses expected.",
                review.optimal_start().expected()
            )
        );
        let choices = text_until(&c, "#sum-choices", |t| !t.is_empty());
        assert_eq!(
            choices,
            format!(
                "lost to choices: {:.4}. luck: {:+.4}.",
                review.lost().value,
                review.luck().value
            )
        );
        let rows = c.find_all("#review-cards .card").unwrap();
        assert_eq!(rows.len(), 3);
        let row2 = rows[1].text().unwrap();
        let s2 = &review.steps[1];
        assert!(!s2.is_optimal());
        assert!(
            row2.contains("tiara") && row2.contains(&format!("{:.4}", s2.lost().value)),
            "{row2}"
        );
        let row1 = rows[0].text().unwrap();
        assert!(row1.contains("0 (optimal)"), "{row1}");
        if let Some(file) = std::env::var_os("WORDLE_TREE_SCREENSHOT") {
            let png = c.screenshot().unwrap();
            std::fs::write(file, png).unwrap();
        }
        c.close().unwrap();
    }
}

/// Runs JavaScript in the page and returns its value.
fn js(c: &Client, script: &str, args: Vec<serde_json::Value>) -> serde_json::Value {
    c.execute(script, args).unwrap()
}

/// Waits until `css` matches exactly `n` elements.
fn count_until(c: &Client, css: &str, n: usize) {
    let start = Instant::now();
    loop {
        let found = c.find_all(css).map_or(0, |v| v.len());
        if found == n {
            return;
        }
        if start.elapsed() > Duration::from_secs(60) {
            panic!("{css}: {found} elements, not {n}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Saves a screenshot at `width` px when `WORDLE_TREE_SCREENSHOTS=DIR` is set (the
/// user guide's pictures: `serve-<width>-<scheme>.png`), after checking that nothing
/// needs a horizontal scroll at that width.
fn screenshot(c: &Client, width: u32, height: u32, scheme: &str) {
    c.set_window_size(width, height).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let overflow = js(
        c,
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth;",
        vec![],
    );
    assert!(
        overflow.as_i64().unwrap() <= 0,
        "{width} px: the page scrolls sideways by {overflow} px"
    );
    if let Some(dir) = std::env::var_os("WORDLE_TREE_SCREENSHOTS") {
        let png = c.screenshot().unwrap();
        std::fs::write(
            Path::new(&dir).join(format!("serve-{width}-{scheme}.png")),
            png,
        )
        .unwrap();
    }
}

#[test]
fn a_link_reopens_the_game_a_reload_keeps_it_and_a_pasted_share_grid_plays_it() {
    let Some(driver) = driver() else { return };
    let (game, tree) = wordle();
    let steps = play::parse_history(&game, &["salet:BYBBY,tiara:YBBBG"], None).unwrap();
    let stop = AtomicBool::new(false);
    let Advice::Play(third) =
        play::advise(&game, play::Guide::Tree(&tree), &steps, &stop, None).unwrap()
    else {
        panic!("not solved after two steps")
    };
    // A state of two candidates: either one is an optimal guess (the search may name
    // either), at 1.5 guesses expected.
    let expected = format!("{:.4}", third.expected());
    let optimal: Vec<String> = third
        .candidates
        .iter()
        .map(|&a| game.answers[a.index()].to_string())
        .chain([game.guesses[third.guess.index()].to_string()])
        .collect();

    let (_server, url) = start_server();
    for (scheme, flags) in [("light", vec![]), ("dark", vec!["--force-dark-mode"])] {
        {
            let (_driver, c) = connect(&driver, &flags);
            // The link: both rows and the next move; again after a reload, and again
            // from local storage at the bare address.
            let link = format!("{url}?list=wordle&mode=normal&h=salet:BYBBY,tiara:YBBBG");
            c.goto(&link).unwrap();
            for round in 0..3 {
                count_until(&c, "#board .row", 2);
                let board = text_until(&c, "#board", |t| t.replace('\n', "").contains("tiara"));
                assert_eq!(board.replace('\n', ""), "salettiara", "round {round}");
                text_until(&c, "#next-guess", |t| optimal.iter().any(|w| w == t));
                text_until(&c, "#expected", |t| t.contains(&expected));
                let opener = text_until(&c, "#opener-value", |t| !t.is_empty());
                assert!(
                    opener.contains("3.4212") && opener.contains("rank 1"),
                    "{opener}"
                );
                match round {
                    0 => c.refresh().unwrap(),
                    1 => c.goto(&url).unwrap(),
                    _ => {}
                }
            }
            assert_eq!(
                js(&c, "return location.search;", vec![]),
                "?list=wordle&mode=normal&h=salet:BYBBY,tiara:YBBBG"
            );
            let dark = js(
                &c,
                "return matchMedia('(prefers-color-scheme: dark)').matches;",
                vec![],
            );
            assert_eq!(dark, scheme == "dark", "{scheme}");

            // A pasted share grid with the guesses typed beside it.
            click(&c, "#new", 1);
            count_until(&c, "#board .row", 0);
            click(&c, "#paste-box summary", 1);
            let grid = "Wordle 1,234 3/6\n\n⬛🟨⬛⬛🟨\n🟨⬛⬛⬛\n🟩🟩🟩🟩🟩";
            // (ChromeDriver types only the basic plane: the squares are pasted by script.)
            let set = "document.getElementById('paste').value = arguments[0];";
            js(&c, set, vec![grid.into()]);
            c.find("#paste-guesses")
                .unwrap()
                .send_keys("salet tiara quota")
                .unwrap();
            click(&c, "#paste-load", 1);
            // The bad row is named beside the row.
            let err = text_until(&c, "#paste-preview .row-error", |t| !t.is_empty());
            assert!(
                err.contains("share row 2") && err.contains("4 squares, expected 5"),
                "{err}"
            );
            let row = text_until(&c, "#paste-preview .prow:nth-child(2)", |t| !t.is_empty());
            assert!(row.starts_with("row 2"), "{row}");
            js(
                &c,
                set,
                vec![grid.replace("🟨⬛⬛⬛\n", "🟨⬛⬛⬛🟩\n").into()],
            );
            click(&c, "#paste-load", 1);
            text_until(&c, "#status", |t| t == "solved: quota in 3 guesses.");
            count_until(&c, "#board .row", 3);
            count_until(&c, "#review-cards .card", 3);
            let share = text_until(&c, "#share-text", |t| !t.is_empty());
            assert!(
                share.contains("⬛🟨⬛⬛🟨\n🟨⬛⬛⬛🟩\n🟩🟩🟩🟩🟩"),
                "{share}"
            );
            assert!(share.contains("3/6"), "{share}");
            // The bar charts: the tree's six bars and this game's highlighted bar.
            count_until(&c, "#chart-tree svg rect.bar", 6);
            count_until(&c, "#chart-games svg rect.bar.now", 1);
            let label = js(
                &c,
                "return document.querySelector('#chart-tree svg').getAttribute('aria-label');",
                vec![],
            );
            let want: Vec<String> = tree
                .verify(&game)
                .histogram()
                .iter()
                .enumerate()
                .skip(1)
                .map(|(d, n)| format!("{d} guesses {n}"))
                .collect();
            assert!(
                label.as_str().unwrap().contains(&want.join(", ")),
                "{label}"
            );
            // Tied best guesses are words with the value beside them.
            let cards = c.find_all("#review-cards .card").unwrap();
            let third_card = cards[2].text().unwrap();
            assert!(third_card.contains("best guess"), "{third_card}");
            // The high-contrast switch: orange and blue squares in the share text.
            click(&c, "#hc", 1);
            let share = text_until(&c, "#share-text", |t| t.contains('🟧'));
            assert!(
                share.contains("⬛🟦⬛⬛🟦\n🟦⬛⬛⬛🟧\n🟧🟧🟧🟧🟧"),
                "{share}"
            );
            click(&c, "#hc", 1);
            // The guesses and the answer alone give the same game.
            click(&c, "#new", 1);
            count_until(&c, "#board .row", 0);
            js(&c, set, vec!["".into()]);
            c.find("#paste-answer").unwrap().send_keys("quota").unwrap();
            click(&c, "#paste-load", 1);
            text_until(&c, "#status", |t| t == "solved: quota in 3 guesses.");
            let board = text_until(&c, "#board", |t| t.replace('\n', "").len() == 15);
            assert_eq!(board.replace('\n', ""), "salettiaraquota");
            count_until(&c, "#review-cards .card", 3);
            // Every review figure visible without a horizontal scroll, at both widths.
            c.find("#paste-box summary").unwrap().click().unwrap();
            js(&c, "window.scrollTo(0, 0);", vec![]);
            screenshot(&c, 1280, 1900, scheme);
            screenshot(&c, 390, 3000, scheme);
            c.close().unwrap();
        }
    }
}
