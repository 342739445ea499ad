//! The binary as installed (issue 34): a copy of it, run from an empty directory with
//! no data beside it, answers `next`, `review`, `rank --exact`, `serve` and the
//! nyt2023 list from its built-in trees and tables; `--data DIR` still overrides;
//! completions and man pages are generated; and no code outside tests falls back to
//! the source checkout (`CARGO_MANIFEST_DIR`).

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A copy of the built binary in its own temporary directory, and an empty directory
/// to run it in.
struct Installed {
    _dir: tempfile::TempDir,
    exe: PathBuf,
    cwd: PathBuf,
}

fn installed() -> Installed {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    let cwd = dir.path().join("empty");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::create_dir_all(&cwd).unwrap();
    let exe = bin.join("wordle-tree");
    std::fs::copy(assert_cmd::cargo::cargo_bin("wordle-tree"), &exe).unwrap();
    Installed {
        _dir: dir,
        exe,
        cwd,
    }
}

impl Installed {
    fn cmd(&self, args: &[&str]) -> Command {
        let mut c = Command::new(&self.exe);
        c.current_dir(&self.cwd)
            .env_remove("WORDLE_TREE_DATA")
            .args(args);
        c
    }

    /// Runs to the end: (exit code, stdout, stderr).
    fn run(&self, args: &[&str]) -> (i32, String, String) {
        let out = self.cmd(args).stdin(Stdio::null()).output().unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    fn ok(&self, args: &[&str]) -> String {
        let (code, out, err) = self.run(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(std::fs::read_dir(&self.cwd).unwrap().next().is_none());
        out
    }
}

#[test]
fn a_copied_binary_works_from_an_empty_directory() {
    let wt = installed();
    let out = wt.ok(&["next", "salet:BYBBY"]);
    assert!(out.starts_with("next guess: "), "{out}");
    let out = wt.ok(&["--list", "nyt2023", "next", "tarse:BBBBB"]);
    assert!(out.starts_with("next guess: "), "{out}");
    let out = wt.ok(&[
        "review",
        "salet:BBBBB",
        "courd:BBBBB",
        "nymph:BBBBY",
        "whiff:GGGGG",
    ]);
    assert!(
        out.contains("tree <built-in>/trees/salet.normal.wordle.tree"),
        "{out}"
    );
    let out = wt.ok(&["rank", "--exact", "--top", "5"]);
    assert!(
        out.contains("exact totals from <built-in>/tables/wordle.normal.csv"),
        "{out}"
    );
    assert!(out.contains("(complete)"), "{out}");
    // The opener table of another list and mode is built in too.
    let out = wt.ok(&["--list", "nyt", "--hard", "rank", "--exact", "--top", "1"]);
    assert!(out.contains("<built-in>/tables/nyt.hard.csv"), "{out}");
}

/// `serve` from the copy answers a request (loopback only, one request, then the
/// server this test started is killed).
#[test]
#[cfg(feature = "serve")]
fn a_copied_binary_serves_from_an_empty_directory() {
    let wt = installed();
    let mut child = wt
        .cmd(&["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let result = std::panic::catch_unwind(|| {
        assert!(first.starts_with("serving "), "{first}");
        let addr = first
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap()
            .trim_end_matches('/');
        let mut s = std::net::TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(std::time::Duration::from_secs(60)))
            .unwrap();
        write!(
            s,
            "GET /api/next?list=wordle&mode=normal&history=salet:BYBBY HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut reply = String::new();
        s.read_to_string(&mut reply).unwrap();
        assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
        assert!(reply.contains("\"guess\""), "{reply}");
    });
    child.kill().unwrap();
    child.wait().unwrap();
    if let Err(e) = result {
        std::panic::resume_unwind(e);
    }
}

/// `--data DIR` (and `WORDLE_TREE_DATA`) put DIR/tables and DIR/trees before the
/// built-in data; a file DIR lacks still comes built in.
#[test]
fn a_data_directory_overrides_the_built_in_data() {
    let wt = installed();
    let data = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(data.path().join("tables")).unwrap();
    // A partial table: the first rows of the shipped one, rewritten by the library.
    let game = wordle_tree::Game::load(&wordle_tree::ListSource::Named("wordle".into())).unwrap();
    let full = wordle_tree::shipped::table(&game, false).unwrap().unwrap();
    let partial = wordle_tree::store::opener_table::OpenerTable::new(
        &game,
        false,
        6,
        full.rows().iter().take(10).map(|r| (r.opener, r.entry)),
    );
    let file = data.path().join("tables/wordle.normal.csv");
    partial.save(&file).unwrap();
    let dir = data.path().to_str().unwrap();
    let out = wt.ok(&["--data", dir, "rank", "--exact", "--top", "3"]);
    assert!(
        out.contains(&format!("exact totals from {}", file.display())),
        "{out}"
    );
    assert!(out.contains("10 of 12972 openers solved"), "{out}");
    let out = wt
        .cmd(&["rank", "--exact", "--top", "3"])
        .env("WORDLE_TREE_DATA", dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("10 of 12972 openers solved"), "{text}");
    // No trees/ there: the built-in tree, which DIR's partial table does not prove
    // optimal, so the review searches every state: under a time limit (without one it
    // solved the opener's states exactly, minutes of CPU in the test profile).
    let out = wt.ok(&["--data", dir, "review", "--time-limit", "1", "salet:BBBBB"]);
    assert!(
        out.contains(
            "tree <built-in>/trees/salet.normal.wordle.tree not used: no complete opener table"
        ),
        "{out}"
    );
    // A damaged file there is refused by name, never skipped.
    std::fs::write(&file, "rank,opener\n").unwrap();
    let (code, _, err) = wt.run(&["--data", dir, "rank", "--exact"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("wordle.normal.csv"), "{err}");
}

#[test]
fn completions_and_man_pages_are_generated() {
    let wt = installed();
    for (shell, mark) in [
        ("bash", "_wordle__tree()"),
        ("zsh", "#compdef wordle-tree"),
        ("fish", "complete -c wordle-tree"),
    ] {
        let out = wt.ok(&["completions", shell]);
        assert!(
            out.contains(mark),
            "{shell}: {}",
            &out[..out.len().min(300)]
        );
        assert!(out.contains("review"), "{shell}");
    }
    let (code, _, err) = wt.run(&["completions", "tcsh"]);
    assert_eq!(code, 2, "{err}");
    let page = wt.ok(&["man"]);
    assert!(
        page.starts_with(".ie") || page.contains(".TH wordle-tree"),
        "{page}"
    );
    assert!(page.contains("next"), "{page}");
    let dir = tempfile::tempdir().unwrap();
    let out = wt.ok(&["man", "--out", dir.path().to_str().unwrap()]);
    assert!(out.starts_with("man pages written to"), "{out}");
    for page in [
        "wordle-tree.1",
        "wordle-tree-next.1",
        "wordle-tree-review.1",
    ] {
        let text = std::fs::read_to_string(dir.path().join(page)).unwrap();
        assert!(text.contains(".TH"), "{page}");
    }
}

/// Nothing outside tests reads the source checkout at run time: no
/// `env!("CARGO_MANIFEST_DIR")` in `src/` except under `#[cfg(test)]` modules
/// (the build script reads it at build time to embed `trees/` and `tables/`).
#[test]
fn no_code_falls_back_to_the_source_checkout() {
    fn scan(dir: &Path, hits: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                scan(&p, hits);
            } else if p.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&p).unwrap();
                // A file's unit tests sit at its end, in `mod tests { ... }`.
                let code = text.split("#[cfg(test)]\nmod tests {").next().unwrap();
                if code.contains("CARGO_MANIFEST_DIR") {
                    hits.push(p.display().to_string());
                }
            }
        }
    }
    let mut hits = Vec::new();
    scan(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut hits,
    );
    assert!(hits.is_empty(), "{hits:?}");
}
