//! Input quoted back in messages (issue 14, points 12 and 13): a huge line or token is
//! cut to 40 characters and an ellipsis, control characters are escaped, and a list
//! file starting with a UTF-8 byte-order mark loads. Through the binary and the
//! library functions it calls.

use assert_cmd::Command;
use std::path::Path;
use wordle_tree::game::word::WordList;
use wordle_tree::players::play;
use wordle_tree::{Game, ListSource};

fn cli() -> Command {
    Command::cargo_bin("wordle-tree").unwrap()
}

/// Runs the binary; it must exit 2 with a short one-line message; returns it.
fn short_failure(args: &[&str]) -> String {
    let out = cli().args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        &stderr[..stderr.len().min(300)]
    );
    assert!(stderr.len() < 400, "{} bytes of stderr", stderr.len());
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    stderr
}

#[test]
fn a_huge_history_token_is_echoed_cut_short() {
    let token = format!("salet:{}", "B".repeat(130_000));
    let err = short_failure(&["next", &token]);
    assert!(
        err.contains(&format!("step 1 'salet:{}…'", "B".repeat(34))),
        "{err}"
    );
    let token = "x".repeat(130_000);
    let err = short_failure(&["next", &token]);
    assert!(err.contains("has 130000 characters, expected 5"), "{err}");
    let err = short_failure(&["next", &"q".repeat(130_000)]);
    assert!(
        err.contains("is neither a guess, a feedback nor GUESS:FEEDBACK"),
        "{err}"
    );
    // In the library too: the error holds the cut token, not the input.
    let game = Game::load(&ListSource::Named("wordle".into())).unwrap();
    let e = play::parse_step(&game, &format!("{}:BBBBB", "q".repeat(130_000))).unwrap_err();
    assert!(e.to_string().len() < 200, "{e}");
    let e = play::parse_step(&game, "sal\x1b[2Jet:BBBBB").unwrap_err();
    assert!(e.to_string().contains("sal\\u{1b}[2Jet"), "{e}");
}

#[test]
fn a_huge_one_line_list_is_echoed_cut_short() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.txt");
    std::fs::write(&big, "a".repeat(20_000_000)).unwrap();
    let good = dir.path().join("good.txt");
    std::fs::write(&good, "cigar\nrebut\n").unwrap();
    let err = short_failure(&[
        "--answers",
        big.to_str().unwrap(),
        "--guesses",
        good.to_str().unwrap(),
        "rank",
    ]);
    assert!(
        err.contains(&format!(
            "big.txt:1: '{}…' has 20000000 letters",
            "a".repeat(40)
        )),
        "{err}"
    );
    // A word on the command line is cut the same way.
    let err = short_failure(&["solve", "--opener", &"z".repeat(100_000)]);
    assert!(err.contains(&format!("'{}…'", "z".repeat(40))), "{err}");
}

#[test]
fn a_list_with_a_byte_order_mark_loads() {
    let dir = tempfile::tempdir().unwrap();
    let answers = dir.path().join("answers.txt");
    std::fs::write(&answers, "\u{feff}cigar\r\nrebut\r\nsissy\r\n").unwrap();
    let guesses = dir.path().join("guesses.txt");
    std::fs::write(&guesses, "\u{feff}salet\n").unwrap();
    let list = WordList::load(&answers).unwrap();
    assert_eq!(list.words.len(), 3);
    assert_eq!(list.words[0].to_string(), "cigar");
    cli()
        .args(["--answers", answers.to_str().unwrap()])
        .args(["--guesses", guesses.to_str().unwrap()])
        .args(["rank", "--top", "0"])
        .assert()
        .success()
        .stdout(predicates::str::contains("4 guesses scored"));
    // A mark elsewhere is shown escaped, never as an invisible character.
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "cigar\n\u{feff}rebut\n").unwrap();
    let err = WordList::load(Path::new(&bad)).unwrap_err().to_string();
    assert!(
        err.ends_with(":2: '\\u{feff}rebut' contains a character that is not a letter a-z"),
        "{err}"
    );
}
