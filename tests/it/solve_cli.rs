//! `solve`, `verify` and `export` through the binary: the published optimum, the tree
//! file's refusals, the text formats, and bad input (exit 2, a clear message, no
//! partial file).

use assert_cmd::Command;
use std::path::Path;

fn cli() -> Command {
    Command::cargo_bin("wordle-tree").unwrap()
}

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).to_string()
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).to_string()
}

/// Solves `salet` on the default lists once per test binary run into `dir`.
fn solve_salet(dir: &Path) -> (std::path::PathBuf, String) {
    let tree = dir.join("salet.tree");
    let text = dir.join("salet.paths");
    let out = cli()
        .args(["solve", "--opener", "salet", "--out"])
        .arg(&tree)
        .arg("--text")
        .arg(&text)
        .assert()
        .code(0);
    (tree, stdout(out.get_output()))
}

#[test]
fn salet_is_7920_and_the_files_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let (tree, printed) = solve_salet(dir.path());
    assert!(
        printed.contains("total 7920 guesses, average 3.4212"),
        "{printed}"
    );
    assert!(printed.contains("max depth 5"), "{printed}");

    let out = cli().arg("verify").arg(&tree).assert().code(0);
    let v = stdout(out.get_output());
    assert!(
        v.starts_with("VALID: opener salet") && v.contains("total 7920"),
        "{v}"
    );

    // paths: one line per answer, each ending in GGGGG and its depth.
    let paths = std::fs::read_to_string(dir.path().join("salet.paths")).unwrap();
    let lines: Vec<&str> = paths.lines().collect();
    assert_eq!(lines.len(), 2315);
    let total: usize = lines
        .iter()
        .map(|l| {
            let last = l.split(' ').next_back().unwrap();
            assert!(last.starts_with("GGGGG"), "{l}");
            assert!(l.starts_with("salet "), "{l}");
            last[5..].parse::<usize>().unwrap()
        })
        .sum();
    assert_eq!(total, 7920);

    // export gives the same paths; selby blanks shared prefixes; json nests.
    let out = cli().arg("export").arg(&tree).assert().code(0);
    assert_eq!(stdout(out.get_output()), paths);
    let out = cli()
        .arg("export")
        .arg(&tree)
        .args(["--format", "selby"])
        .assert()
        .code(0);
    let selby = stdout(out.get_output());
    let second = selby.lines().nth(1).unwrap();
    assert!(second.starts_with("      "), "{second}");
    assert_eq!(selby.lines().count(), 2315);
    let out = cli()
        .arg("export")
        .arg(&tree)
        .args(["--format", "json"])
        .assert()
        .code(0);
    let json: serde_json::Value = serde_json::from_str(&stdout(out.get_output())).unwrap();
    assert_eq!(json["guess"], "salet");
    assert!(json["branches"]["BBBBB"]["guess"].is_string());

    // Damaged copies are refused with a reason, exit 2.
    let bytes = std::fs::read(&tree).unwrap();
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("truncated", bytes[..bytes.len() / 2].to_vec(), "truncated"),
        (
            "corrupt",
            {
                let mut b = bytes.clone();
                let i = b.len() / 2;
                b[i] ^= 0x5a;
                b
            },
            "corrupted",
        ),
        (
            "version",
            {
                let mut b = bytes.clone();
                b[8] = 99;
                b
            },
            "format version 99",
        ),
        (
            "magic",
            b"not a tree at all, just text".to_vec(),
            "wrong magic",
        ),
    ];
    for (name, data, needle) in cases {
        let p = dir.path().join(format!("{name}.tree"));
        std::fs::write(&p, data).unwrap();
        for cmd in ["verify", "export"] {
            let out = cli().arg(cmd).arg(&p).assert().code(2);
            let err = stderr(out.get_output());
            assert!(
                err.contains(needle) && err.contains(&format!("{name}.tree")),
                "{cmd} {name}: {err}"
            );
        }
    }
    // A tree built on other lists.
    let out = cli()
        .args(["--list", "nyt", "export"])
        .arg(&tree)
        .assert()
        .code(2);
    assert!(
        stderr(out.get_output()).contains("built on other word lists"),
        "{}",
        stderr(out.get_output())
    );
    let out = cli()
        .args(["--list", "nyt", "verify"])
        .arg(&tree)
        .assert()
        .code(2);
    assert!(stdout(out.get_output()).contains("INVALID"));
}

#[test]
fn bad_solve_input_exits_2_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("t.tree");
    for (args, needle) in [
        (
            vec!["solve", "--opener", "zzzzz"],
            "'zzzzz' is not in the allowed guesses",
        ),
        (vec!["solve", "--opener", "sal"], "has 3 letters"),
        (vec!["solve", "--opener", "sa1et"], "not a letter"),
        (
            vec!["solve", "--opener", "salet", "--max-guesses", "0"],
            "from 1 to 10",
        ),
        (
            vec!["solve", "--opener", "salet", "--max-guesses", "11"],
            "from 1 to 10",
        ),
        (
            vec!["solve", "--opener", "salet", "--max-guesses", "2"],
            "opener salet: no tree finds every answer within 2 guesses (proved: some bucket of the opener cannot be finished in time; lists wordle (2315 answers, 12972 allowed guesses), normal mode); try another opener or --max-guesses 3",
        ),
        (
            vec!["solve", "--opener", "SALET", "--max-guesses", "2"],
            "error: opener salet: no tree finds every answer within 2 guesses",
        ),
        (
            vec!["--list", "klingon", "solve", "--opener", "salet"],
            "unknown list",
        ),
    ] {
        let out = cli()
            .args(&args)
            .arg("--out")
            .arg(&out_file)
            .assert()
            .code(2);
        let err = stderr(out.get_output());
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!out_file.exists(), "{args:?} left a file behind");
    }
    let leftovers: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(
        leftovers.is_empty(),
        "no temporary files are left: {leftovers:?}"
    );
}

#[test]
fn hard_mode_tree_is_checked_for_legality() {
    // A small custom game solves in hard mode; its tree verifies in hard mode.
    let dir = tempfile::tempdir().unwrap();
    let answers = dir.path().join("a.txt");
    let guesses = dir.path().join("g.txt");
    std::fs::write(&answers, "cigar\nrebut\nsissy\nhumph\nawake\nblush\nfocal\nevade\nnaval\nserve\nheath\ndwarf\nmodel\nkarma\nstink\ngrade\nquiet\nbench\nabate\nfeign\n").unwrap();
    std::fs::write(&guesses, "salet\ntrace\ncrane\nlodge\nshire\n").unwrap();
    let tree = dir.path().join("h.tree");
    let lists = |c: &mut Command| {
        c.arg("--answers")
            .arg(&answers)
            .arg("--guesses")
            .arg(&guesses);
    };
    let mut c = cli();
    lists(&mut c);
    c.args(["--hard", "solve", "--opener", "salet", "--out"])
        .arg(&tree)
        .assert()
        .code(0);
    let mut c = cli();
    lists(&mut c);
    let out = c.arg("verify").arg(&tree).assert().code(0);
    assert!(stdout(out.get_output()).contains("hard mode"));
}

/// Full-list proofs that take longer: `cargo test --release -- --ignored`.
#[test]
#[ignore]
fn published_optima_trace_and_hard_salet() {
    for (args, want) in [
        (vec!["solve", "--opener", "trace"], "total 7926 guesses"),
        (
            vec!["--hard", "solve", "--opener", "salet"],
            "total 8122 guesses",
        ),
        (
            vec!["solve", "--opener", "salet", "--max-guesses", "5"],
            "total 7920 guesses",
        ),
        (
            vec!["--threads", "1", "solve", "--opener", "salet"],
            "total 7920 guesses",
        ),
        // The published optima of tarse on the 2023 NYT list (6 s and 12 s here).
        (
            vec!["--list", "nyt2023", "solve", "--opener", "tarse"],
            "total 11219 guesses",
        ),
        (
            vec!["--list", "nyt2023", "--hard", "solve", "--opener", "tarse"],
            "total 11627 guesses",
        ),
    ] {
        let out = cli().args(&args).assert().code(0);
        assert!(stdout(out.get_output()).contains(want), "{args:?}");
    }
}
