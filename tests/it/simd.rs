//! The SIMD switch (`WORDLE_TREE_SIMD`, docs/guide/performance.md): `--version` names
//! the path in use; an unknown value, or a path this CPU lacks, is a one-line error
//! with exit status 2 before anything runs, never a fallback; every path this CPU
//! runs solves to the same total with the same search counts.

use assert_cmd::Command;

fn run(simd: Option<&str>, args: &[&str]) -> std::process::Output {
    let mut cmd = Command::cargo_bin("wordle-tree").unwrap();
    match simd {
        Some(v) => cmd.env("WORDLE_TREE_SIMD", v),
        None => cmd.env_remove("WORDLE_TREE_SIMD"),
    };
    cmd.args(args).output().unwrap()
}

/// The paths this CPU runs, by name (`portable` always).
fn available() -> Vec<&'static str> {
    ["avx512", "avx2", "portable"]
        .into_iter()
        .filter(|p| run(Some(p), &["--version"]).status.success())
        .collect()
}

#[test]
fn version_names_the_path() {
    let out = run(Some("portable"), &["--version"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("SIMD path: portable"), "{text}");
    let auto = run(None, &["--version"]);
    let text = String::from_utf8_lossy(&auto.stdout);
    let first = available()[0];
    assert!(text.contains(&format!("SIMD path: {first}")), "{text}");
    let same = run(Some("auto"), &["--version"]);
    assert_eq!(same.stdout, auto.stdout);
}

#[test]
fn a_bad_value_is_an_error_not_a_fallback() {
    let runs = available();
    let mut bad = vec!["sse9", "AVX-2", "fast"];
    for p in ["avx512", "avx2"] {
        if !runs.contains(&p) {
            bad.push(p); // a path this CPU lacks
        }
    }
    for value in bad {
        for args in [
            &["--version"][..],
            &["--threads", "1", "rank", "--top", "1"][..],
        ] {
            let out = run(Some(value), args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{value}: {stderr}");
            assert!(out.stdout.is_empty(), "{value}: nothing runs");
            assert_eq!(stderr.lines().count(), 1, "{value}: one line: {stderr}");
            assert!(stderr.contains("WORDLE_TREE_SIMD"), "{value}: {stderr}");
            assert!(!stderr.contains("panicked"), "{value}: {stderr}");
        }
    }
}

/// Poor openers on a small custom game, both modes (their large states take the
/// presence kernels, hard mode's pre-scans their windows): the same total, states,
/// expansions and probes on every path this CPU runs.
#[test]
fn every_path_solves_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let list = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("wordlists/wordle-answers.txt"),
    )
    .unwrap();
    let words: Vec<&str> = list.lines().collect();
    let every = |k: usize| {
        words
            .iter()
            .step_by(k)
            .copied()
            .collect::<Vec<_>>()
            .join("\n")
    };
    let answers = dir.path().join("answers.txt");
    std::fs::write(&answers, every(4)).unwrap();
    let guesses = dir.path().join("guesses.txt");
    std::fs::write(&guesses, every(2) + "\nsalet\n").unwrap();
    let (a, g) = (answers.to_str().unwrap(), guesses.to_str().unwrap());
    let paths = available();
    for opener in ["fuzzy", "jazzy", "salet"] {
        for hard in [false, true] {
            let mut args = vec!["--threads", "1", "--answers", a, "--guesses", g];
            if hard {
                args.push("--hard");
            }
            args.extend(["solve", "--opener", opener]);
            // What the search did, without its time and memory.
            let outputs: Vec<String> = paths
                .iter()
                .map(|path| {
                    let out = run(Some(path), &args);
                    let stderr = String::from_utf8_lossy(&out.stderr);
                    assert!(out.status.success(), "{path}: {stderr}");
                    String::from_utf8_lossy(&out.stdout)
                        .lines()
                        .filter(|l| !l.starts_with("memory"))
                        .map(|l| l.split_once("s; states").map_or(l, |(_, rest)| rest))
                        // The guesses the letter caps left unread: normal mode's
                        // pre-scans take them through windows, which the AVX-512
                        // path does not read (the search is the same).
                        .map(|l| l.split_once(" and left ").map_or(l, |(kept, _)| kept))
                        .collect::<Vec<_>>()
                        .join("\n")
                })
                .collect();
            assert!(outputs[0].contains("guesses expanded"), "{}", outputs[0]);
            for (path, out) in paths.iter().zip(&outputs) {
                assert_eq!(
                    out, &outputs[0],
                    "{opener}, hard {hard}: {path} against {}",
                    paths[0]
                );
            }
        }
    }
}
