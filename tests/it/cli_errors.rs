//! Bad input (docs/SPEC.md, "What bad input gets") for lists, openers, strategies and
//! metrics: the message names the file, line and word (or the token), the exit status
//! is 2, and nothing panics.

use assert_cmd::Command;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

/// Runs the binary and checks the failure contract; returns stderr.
fn fails(args: &[&str]) -> String {
    let out = Command::cargo_bin("wordle-tree")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?}: no partial output");
    stderr
}

/// A directory with a good guess list and one answer list per case.
struct Files {
    dir: TempDir,
}

impl Files {
    fn new() -> Files {
        let files = Files {
            dir: tempfile::tempdir().unwrap(),
        };
        files.write("guesses.txt", "salet\ntrace\ncrane\n");
        files
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    fn guesses(&self) -> PathBuf {
        self.dir.path().join("guesses.txt")
    }
}

/// Runs `rank` over `answers` and the good guess list.
fn rank_with(answers: &Path, guesses: &Path) -> String {
    fails(&[
        "--answers",
        answers.to_str().unwrap(),
        "--guesses",
        guesses.to_str().unwrap(),
        "rank",
    ])
}

#[test]
fn a_word_of_the_wrong_length_names_file_line_and_word() {
    let f = Files::new();
    let answers = f.write("answers.txt", "cigar\nrebut\nsissyy\n");
    let err = rank_with(&answers, &f.guesses());
    assert!(err.contains("answers.txt:3"), "{err}");
    assert!(
        err.contains("'sissyy'") && err.contains("6 letters"),
        "{err}"
    );
}

#[test]
fn a_short_word_in_the_guess_list_is_reported_there() {
    let f = Files::new();
    let answers = f.write("answers.txt", "cigar\n");
    let guesses = f.write("bad-guesses.txt", "salet\n\ncran\n");
    let err = rank_with(&answers, &guesses);
    assert!(err.contains("bad-guesses.txt:3"), "{err}");
    assert!(err.contains("'cran'") && err.contains("4 letters"), "{err}");
}

#[test]
fn non_letters_name_file_line_and_word() {
    let f = Files::new();
    for (i, bad) in ["ci9ar", "ci-ar", "cigär", "ci ar"].iter().enumerate() {
        let answers = f.write(&format!("answers{i}.txt"), &format!("rebut\n{bad}\n"));
        let err = rank_with(&answers, &f.guesses());
        assert!(err.contains(&format!("answers{i}.txt:2")), "{err}");
        assert!(err.contains(&format!("'{bad}'")), "{err}");
        assert!(err.contains("not a letter"), "{err}");
    }
}

#[test]
fn a_duplicate_names_both_lines() {
    let f = Files::new();
    let answers = f.write("answers.txt", "cigar\nrebut\nsissy\nCIGAR\n");
    let err = rank_with(&answers, &f.guesses());
    assert!(err.contains("answers.txt:4"), "{err}");
    assert!(
        err.contains("'cigar'") && err.contains("first on line 1"),
        "{err}"
    );
}

#[test]
fn an_empty_file_is_an_error() {
    let f = Files::new();
    for (name, text) in [("empty.txt", ""), ("blank.txt", "\n  \n\n")] {
        let answers = f.write(name, text);
        let err = rank_with(&answers, &f.guesses());
        assert!(err.contains(name) && err.contains("empty"), "{err}");
    }
}

#[test]
fn a_missing_file_is_an_error() {
    let f = Files::new();
    let missing = f.dir.path().join("no-such-list.txt");
    let err = rank_with(&missing, &f.guesses());
    assert!(
        err.contains("no-such-list.txt") && err.contains("cannot read"),
        "{err}"
    );
    let err = rank_with(&f.guesses(), &missing);
    assert!(err.contains("no-such-list.txt"), "{err}");
}

#[test]
fn answers_without_guesses_is_a_usage_error() {
    let f = Files::new();
    let err = fails(&["--answers", f.guesses().to_str().unwrap(), "rank"]);
    assert!(err.contains("--guesses"), "{err}");
}

#[test]
fn an_unknown_list_is_named() {
    let err = fails(&["--list", "scrabble", "rank"]);
    assert!(
        err.contains("'scrabble'") && err.contains("wordle"),
        "{err}"
    );
}

#[test]
fn an_opener_not_in_the_allowed_guesses_is_named() {
    for cmd in ["simulate", "solve"] {
        let err = fails(&[cmd, "--opener", "zzzzz"]);
        assert!(
            err.contains("'zzzzz'") && err.contains("allowed guesses"),
            "{err}"
        );
    }
    let f = Files::new();
    let answers = f.write("answers.txt", "cigar\nrebut\n");
    let err = fails(&[
        "--answers",
        answers.to_str().unwrap(),
        "--guesses",
        f.guesses().to_str().unwrap(),
        "simulate",
        "--opener",
        "soare",
    ]);
    assert!(err.contains("'soare'"), "{err}");
}

#[test]
fn a_malformed_opener_is_named() {
    for (opener, why) in [("sal3t", "not a letter"), ("sale", "4 letters")] {
        let err = fails(&["simulate", "--opener", opener]);
        assert!(
            err.contains(&format!("'{opener}'")) && err.contains(why),
            "{err}"
        );
    }
}

#[test]
fn an_unknown_strategy_is_named() {
    let err = fails(&["simulate", "--strategy", "greedy"]);
    assert!(err.contains("'greedy'") && err.contains("entropy"), "{err}");
}

#[test]
fn an_unknown_metric_or_format_is_named() {
    let err = fails(&["rank", "--metric", "luck"]);
    assert!(err.contains("'luck'") && err.contains("entropy"), "{err}");
    let err = fails(&["rank", "--format", "xml"]);
    assert!(err.contains("'xml'") && err.contains("csv"), "{err}");
}

#[test]
fn zero_threads_is_refused() {
    let err = fails(&["--threads", "0", "rank"]);
    assert!(err.contains("--threads"), "{err}");
}

#[test]
fn a_closed_pipe_ends_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("wordle-tree"))
        .args(["rank", "--top", "0", "--format", "csv"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("rank,guess"));
    // The reader is dropped here: the rest of the 12972 rows go into a closed pipe.
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
}
