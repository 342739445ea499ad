//! I/O faults, signals and absurd limits (issue 14): each test pins one defect a
//! hostile user found. The binary runs on a small game (50 answers, 200 allowed
//! guesses) or the shipped lists, always briefly.

use assert_cmd::Command;
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::process::{Child, Output, Stdio};
use std::time::{Duration, Instant};
use wordle_tree::game::word::Word;
use wordle_tree::game::{Game, ListSource};
use wordle_tree::jobs::openers::{Outcome, Record};
use wordle_tree::store::results::{Header, ResultFile};

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("wordle-tree")
}

fn cli() -> Command {
    Command::cargo_bin("wordle-tree").unwrap()
}

/// The small game's list files in `dir`: the first 50 answers, and 150 more guesses.
fn small_lists(dir: &Path) -> (PathBuf, PathBuf) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("wordlists");
    let answers: Vec<String> = std::fs::read_to_string(root.join("wordle-answers.txt"))
        .unwrap()
        .lines()
        .take(50)
        .map(String::from)
        .collect();
    let guesses: Vec<String> = std::fs::read_to_string(root.join("wordle-guesses.txt"))
        .unwrap()
        .lines()
        .step_by(60)
        .take(150)
        .map(String::from)
        .collect();
    let (a, g) = (dir.join("answers.txt"), dir.join("guesses.txt"));
    std::fs::write(&a, answers.join("\n") + "\n").unwrap();
    std::fs::write(&g, answers.join("\n") + "\n" + &guesses.join("\n") + "\n").unwrap();
    (a, g)
}

/// `W --answers A --guesses G --quiet` on the small game.
fn small(dir: &Path) -> Command {
    let (a, g) = small_lists(dir);
    let mut c = cli();
    c.arg("--answers")
        .arg(a)
        .arg("--guesses")
        .arg(g)
        .arg("--quiet");
    c
}

fn small_game(dir: &Path) -> Game {
    let (a, g) = small_lists(dir);
    Game::load(&ListSource::Files {
        answers: a,
        guesses: g,
    })
    .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Waits for `child` at most `secs` seconds; kills it and fails the test otherwise.
fn wait_at_most(mut child: Child, secs: u64, what: &str) -> Output {
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if start.elapsed() > Duration::from_secs(secs) {
            child.kill().unwrap();
            let _ = child.wait();
            panic!("{what}: still running after {secs} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo");
}

fn is_fifo(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::symlink_metadata(path)
        .unwrap()
        .file_type()
        .is_fifo()
}

/// Sends `signal` to a child once it has run `after`, and expects exit 130 soon.
fn interrupted_exits_130(mut cmd: std::process::Command, signal: i32, what: &str) -> Output {
    let child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(700));
    // SAFETY: signalling our own child process.
    assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
    let out = wait_at_most(child, 15, what);
    assert_eq!(
        out.status.code(),
        Some(130),
        "{what}: {:?} {}",
        out.status,
        text(&out.stderr)
    );
    out
}

#[test]
fn check_any_stops_with_exit_2_when_a_result_file_cannot_be_written() {
    let tmp = tempfile::tempdir().unwrap();
    let game = small_game(tmp.path());
    let proved = small(tmp.path())
        .args(["check", "--opener", "any", "--max-guesses", "3"])
        .assert()
        .code(0);
    assert!(text(&proved.get_output().stdout).starts_with("PROVED"));
    // A directory at every result path: every write fails.
    let results = tmp.path().join("results");
    let dir = wordle_tree::store::results::ResultsDir::open(
        &results,
        wordle_tree::jobs::check::WITHIN_KIND,
        &game,
        false,
        3,
    )
    .unwrap();
    for w in &game.guesses {
        std::fs::create_dir(dir.file(w.as_str())).unwrap();
    }
    let out = small(tmp.path())
        .args([
            "check",
            "--opener",
            "any",
            "--max-guesses",
            "3",
            "--results",
        ])
        .arg(&results)
        .assert()
        .code(2);
    let (stdout, stderr) = (
        text(&out.get_output().stdout),
        text(&out.get_output().stderr),
    );
    assert!(!stdout.contains("REFUTED"), "{stdout}");
    assert!(stderr.contains(".within3: is a directory"), "{stderr}");
    // A device behind every result path (symlinks to /dev/full): a result file is
    // never written through a device, so this stops the run too.
    let full = tmp.path().join("full");
    std::fs::create_dir(&full).unwrap();
    for w in &game.guesses {
        let name = dir.file(w.as_str());
        std::os::unix::fs::symlink("/dev/full", full.join(name.file_name().unwrap())).unwrap();
    }
    let out = small(tmp.path())
        .args([
            "check",
            "--opener",
            "any",
            "--max-guesses",
            "3",
            "--results",
        ])
        .arg(&full)
        .assert()
        .code(2);
    let stderr = text(&out.get_output().stderr);
    assert!(
        stderr.contains(".within3: not a regular file; refusing to replace it"),
        "{stderr}"
    );
    assert!(!text(&out.get_output().stdout).contains("REFUTED"));
}

#[test]
fn out_follows_symlinks_and_writes_through_fifos_and_devices() {
    let tmp = tempfile::tempdir().unwrap();
    let tree = tmp.path().join("t.tree");
    small(tmp.path())
        .args(["solve", "--opener", "abate", "--out"])
        .arg(&tree)
        .assert()
        .code(0);
    let paths = small(tmp.path())
        .arg("export")
        .arg(&tree)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    // A symlink: its target is written, the link stays.
    let target = tmp.path().join("target.txt");
    std::fs::write(&target, "old").unwrap();
    let link = tmp.path().join("link.txt");
    std::os::unix::fs::symlink("target.txt", &link).unwrap();
    small(tmp.path())
        .arg("export")
        .arg(&tree)
        .arg("--out")
        .arg(&link)
        .assert()
        .code(0);
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read(&target).unwrap(), paths);
    // A dangling symlink: the target is created.
    let dangling = tmp.path().join("dangling");
    std::os::unix::fs::symlink("made.txt", &dangling).unwrap();
    small(tmp.path())
        .args(["solve", "--opener", "abate", "--text"])
        .arg(&dangling)
        .assert()
        .code(0);
    assert_eq!(std::fs::read(tmp.path().join("made.txt")).unwrap(), paths);
    // A FIFO: written through to its reader, and still a FIFO.
    let fifo = tmp.path().join("fifo");
    mkfifo(&fifo);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    small(tmp.path())
        .arg("export")
        .arg(&tree)
        .arg("--out")
        .arg(&fifo)
        .assert()
        .code(0);
    assert_eq!(reader.join().unwrap(), paths);
    assert!(is_fifo(&fifo));
    // A character device (a null device made here; needs root): still a device.
    let dev = tmp.path().join("null");
    let c = std::ffi::CString::new(dev.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid path; makes a character device 1:3 (the null device).
    if unsafe { libc::mknod(c.as_ptr(), libc::S_IFCHR | 0o666, libc::makedev(1, 3)) } == 0 {
        small(tmp.path())
            .args(["solve", "--opener", "abate", "--out"])
            .arg(&dev)
            .assert()
            .code(0);
        use std::os::unix::fs::FileTypeExt;
        assert!(std::fs::symlink_metadata(&dev)
            .unwrap()
            .file_type()
            .is_char_device());
    } else {
        eprintln!("not root: the character device case is not exercised");
    }
    // `/dev/stdout` (a link to a link to the pipe) is written through too.
    let out = small(tmp.path())
        .arg("export")
        .arg(&tree)
        .args(["--out", "/dev/stdout"])
        .assert()
        .code(0);
    assert_eq!(out.get_output().stdout, paths);
    // A full device fails with the error, exit 2.
    let out = small(tmp.path())
        .arg("export")
        .arg(&tree)
        .args(["--out", "/dev/full"])
        .assert()
        .code(2);
    assert!(text(&out.get_output().stderr).contains("/dev/full: cannot write: No space left"));
}

#[test]
fn time_limit_beyond_the_cap_is_refused_not_a_panic() {
    for cmd in [
        vec!["next", "--time-limit", "1e19", "salet:BBBBB"],
        vec!["play", "--time-limit", "1e19", "--answer", "cigar"],
    ] {
        let out = cli().args(&cmd).assert().code(2);
        let err = text(&out.get_output().stderr);
        assert!(err.contains("and at most 1000000"), "{cmd:?}: {err}");
        assert!(!err.contains("panicked"), "{cmd:?}: {err}");
    }
    // The largest accepted limit works.
    cli()
        .args(["next", "--time-limit", "1e6", "salet:BBBBB"])
        .assert()
        .code(0);
}

#[test]
fn full_stdout_exits_2_with_the_io_error() {
    let tree = Path::new(env!("CARGO_MANIFEST_DIR")).join("trees/salet.normal.wordle.tree");
    let tree = tree.to_str().unwrap();
    for cmd in [
        vec!["rank"],
        vec!["export", tree],
        vec!["next", "salet:BBBBB"],
        vec!["path", "--answer", "cigar"],
        vec!["verify", tree],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = std::process::Command::new(bin())
            .args(&cmd)
            .stdout(full)
            .output()
            .unwrap();
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{cmd:?}: {err}");
        assert!(
            err.contains("cannot write to standard output: No space left on device"),
            "{cmd:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{cmd:?}: {err}");
    }
}

#[test]
fn openers_that_cannot_finish_are_reported_never_as_totals() {
    let tmp = tempfile::tempdir().unwrap();
    for d in ["2", "3"] {
        let out = small(tmp.path())
            .args(["openers", "--max-guesses", d, "--top", "5", "--results"])
            .arg(tmp.path().join(format!("r{d}")))
            .assert()
            .code(0);
        let stdout = text(&out.get_output().stdout);
        // No total of 50 answers reaches 1000; the penalty values did.
        let huge = stdout
            .split_whitespace()
            .filter_map(|t| t.parse::<u64>().ok())
            .any(|n| n >= 1_000_000);
        assert!(!huge, "{stdout}");
        assert!(
            stdout.contains(&format!("cannot find every answer within {d} guesses")),
            "{stdout}"
        );
    }
}

#[test]
fn results_written_with_max_guesses_1_are_reused() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("r");
    let run = || {
        let out = small(tmp.path())
            .args(["openers", "--max-guesses", "1", "--results"])
            .arg(&results)
            .assert()
            .code(0);
        (
            text(&out.get_output().stdout),
            text(&out.get_output().stderr),
        )
    };
    run();
    let (stdout, stderr) = run();
    assert!(
        stdout.contains("0 openers searched, 200 reused"),
        "{stdout}"
    );
    assert!(!stderr.contains("warning"), "{stderr}");
    let merged = small(tmp.path())
        .args(["openers", "--max-guesses", "1", "--merge", "--results"])
        .arg(&results)
        .assert()
        .code(0);
    let out = text(&merged.get_output().stdout);
    assert!(
        out.contains("PROVED: none of the 200 openers finds every answer within 1 guess"),
        "{out}"
    );
    assert!(text(&merged.get_output().stderr).is_empty());
}

fn arb_outcome() -> impl Strategy<Value = (Outcome, Option<u64>)> {
    prop_oneof![
        (any::<u64>(), proptest::option::of(any::<u64>()))
            .prop_map(|(v, c)| (Outcome::Exact(v), c)),
        (any::<u64>(), any::<u64>())
            .prop_map(|(a, b)| (Outcome::AtLeast(a.max(b)), Some(a.min(b)))),
        proptest::option::of(any::<u64>()).prop_map(|c| (Outcome::CannotFinish, c)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Every record the writer can produce reads back equal (times are written to
    /// the millisecond).
    #[test]
    fn result_records_round_trip(
        word in "[a-z]{5}",
        list in "[a-z0-9-]{1,30}",
        checksum in any::<u64>(),
        hard in any::<bool>(),
        max_guesses in any::<u8>(),
        (outcome, cutoff) in arb_outcome(),
        ms in 0u64..1u64 << 40,
        cpu_ms in 0u64..1u64 << 40,
        states in any::<u64>(),
        depth in any::<u8>(),
    ) {
        // `openers --exact` records a max depth with an exact total.
        let max_depth = match outcome {
            Outcome::Exact(_) if max_guesses >= 1 => Some(1 + depth % max_guesses),
            _ => None,
        };
        let r = Record {
            opener: Word::parse(&word).unwrap(),
            list,
            checksum,
            hard,
            max_guesses,
            outcome,
            cutoff,
            seconds: ms as f64 / 1000.0,
            cpu_seconds: cpu_ms as f64 / 1000.0,
            states,
            max_depth,
        };
        let back = Record::decode(&r.encode(), Path::new("x")).unwrap();
        prop_assert_eq!(back, r);
    }

    /// Any fields a kind may set read back equal, in order.
    #[test]
    fn result_files_round_trip(
        kind in "[a-z]{1,10}",
        fields in proptest::collection::vec(("[a-z0-9_]{1,12}", "[ -~]{0,40}"), 0..8),
    ) {
        let header = Header {
            kind,
            list: "wordle".into(),
            checksum: 7,
            hard: false,
            max_guesses: 6,
        };
        let mut f = ResultFile::new(header);
        for (k, v) in &fields {
            if ["format", "kind", "list", "checksum", "mode", "max_guesses"].contains(&k.as_str()) {
                continue;
            }
            f.set(k, v.trim());
        }
        let back = ResultFile::decode(&f.encode(), Path::new("x"), "none").unwrap();
        prop_assert_eq!(back, f);
    }
}

#[test]
fn a_fifo_among_the_results_is_skipped_not_waited_on() {
    let tmp = tempfile::tempdir().unwrap();
    let game = small_game(tmp.path());
    let results = tmp.path().join("r");
    small(tmp.path())
        .args(["openers", "--max-guesses", "3", "--results"])
        .arg(&results)
        .assert()
        .code(0);
    let openers_file = wordle_tree::jobs::openers::OpenersDir::open(&results, &game, false, 3)
        .unwrap()
        .file(wordle_tree::game::GuessId(5));
    std::fs::remove_file(&openers_file).unwrap();
    mkfifo(&openers_file);
    let within = wordle_tree::store::results::ResultsDir::open(
        &results,
        wordle_tree::jobs::check::WITHIN_KIND,
        &game,
        false,
        3,
    )
    .unwrap();
    for w in &game.guesses {
        mkfifo(&within.file(w.as_str()));
    }
    let (a, g) = small_lists(tmp.path());
    // `openers --merge` reads past the FIFO; `check --opener any` reads past them
    // too, then cannot write its result over one: exit 2 naming it, never a hang.
    for (args, what, code, says) in [
        (
            vec!["openers", "--max-guesses", "3", "--merge", "--results"],
            "openers --merge",
            0,
            "",
        ),
        (
            vec![
                "check",
                "--opener",
                "any",
                "--max-guesses",
                "3",
                "--results",
            ],
            "check --opener any",
            2,
            ".within3: not a regular file; refusing to replace it",
        ),
    ] {
        let child = std::process::Command::new(bin())
            .arg("--answers")
            .arg(&a)
            .arg("--guesses")
            .arg(&g)
            .args(&args)
            .arg(&results)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let out = wait_at_most(child, 20, what);
        assert_eq!(
            out.status.code(),
            Some(code),
            "{what}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stderr).contains(says),
            "{what}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stderr).contains("not a regular file (ignored)"),
            "{what}: {}",
            text(&out.stderr)
        );
    }
    assert!(is_fifo(&openers_file));
}

#[test]
fn long_commands_stop_on_sigint_and_sigterm_with_130() {
    let mut simulate = std::process::Command::new(bin());
    simulate.args(["--list", "sowpods", "simulate"]);
    interrupted_exits_130(simulate, libc::SIGTERM, "simulate, SIGTERM");
    let mut simulate = std::process::Command::new(bin());
    simulate.args(["--list", "sowpods", "simulate", "--strategy", "expected"]);
    interrupted_exits_130(simulate, libc::SIGINT, "simulate, SIGINT");
    // `check --opener any` is interrupted (130), not bad input (2).
    let tmp = tempfile::tempdir().unwrap();
    let mut check = std::process::Command::new(bin());
    check
        .args([
            "--quiet",
            "check",
            "--opener",
            "any",
            "--max-guesses",
            "4",
            "--results",
        ])
        .arg(tmp.path().join("r"));
    let out = interrupted_exits_130(check, libc::SIGINT, "check --opener any");
    assert!(text(&out.stderr).contains("interrupted"));
    let mut solve = std::process::Command::new(bin());
    solve.args(["--quiet", "solve", "--opener", "immix"]);
    interrupted_exits_130(solve, libc::SIGTERM, "solve");
    // Blocked writing into a FIFO nobody reads: SIGTERM still ends it.
    let fifo = tmp.path().join("fifo");
    mkfifo(&fifo);
    let tree = Path::new(env!("CARGO_MANIFEST_DIR")).join("trees/salet.normal.wordle.tree");
    let mut export = std::process::Command::new(bin());
    export.arg("export").arg(tree).arg("--out").arg(&fifo);
    interrupted_exits_130(export, libc::SIGTERM, "export into a FIFO");
    assert!(is_fifo(&fifo));
}

#[test]
fn threads_beyond_4_per_core_or_0_are_refused() {
    for n in ["0", "100000"] {
        let out = cli().args(["--threads", n, "rank"]).assert().code(2);
        let err = text(&out.get_output().stderr);
        assert!(err.contains("--threads must be from 1 to"), "{n}: {err}");
    }
    cli()
        .args(["--threads", "1", "rank", "--top", "1"])
        .assert()
        .code(0);
}

#[test]
fn stale_temp_files_are_removed_and_live_ones_kept() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("r");
    std::fs::create_dir(&results).unwrap();
    // A process that has ended: its id is free (for a while at least).
    let mut gone = std::process::Command::new("true").spawn().unwrap();
    gone.wait().unwrap();
    let dead = results.join(format!(".abate.normal.x.max3.tmp.{}", gone.id()));
    let live = results.join(format!(".abbey.normal.x.max3.tmp.{}", std::process::id()));
    let mine_later = results.join(format!(".abhor.normal.x.max3.tmp.{}", gone.id()));
    let hour_ago = std::time::SystemTime::now() - Duration::from_secs(3600);
    for p in [&dead, &live] {
        let f = std::fs::File::create(p).unwrap();
        f.set_modified(hour_ago).unwrap();
    }
    // Written after the run starts (a future time stands for that): kept.
    let f = std::fs::File::create(&mine_later).unwrap();
    f.set_modified(std::time::SystemTime::now() + Duration::from_secs(3600))
        .unwrap();
    small(tmp.path())
        .args(["openers", "--max-guesses", "3", "--results"])
        .arg(&results)
        .assert()
        .code(0);
    assert!(!dead.exists(), "a dead process's temp file is removed");
    assert!(live.exists(), "a live process's temp file is kept");
    assert!(
        mine_later.exists(),
        "a temp file newer than the run is kept"
    );
}

#[test]
fn memory_beyond_the_address_space_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let huge = (1u64 << 44).to_string();
    for args in [
        vec!["solve", "--opener", "abate", "--memory", &huge],
        vec!["openers", "--memory", &huge, "--results", "unused"],
    ] {
        let out = small(tmp.path())
            .current_dir(tmp.path())
            .args(&args)
            .assert()
            .code(2);
        let err = text(&out.get_output().stderr);
        assert!(
            err.contains("--memory 17592186044416 MiB is more than"),
            "{err}"
        );
    }
}

#[test]
fn io_errors_do_not_repeat_their_cause() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, g) = small_lists(tmp.path());
    let out = cli()
        .arg("--answers")
        .arg(tmp.path())
        .arg("--guesses")
        .arg(g)
        .arg("rank")
        .assert()
        .code(2);
    let err = text(&out.get_output().stderr);
    assert_eq!(err.matches("os error 21").count(), 1, "{err}");
    let out = small(tmp.path())
        .args(["solve", "--opener", "abate", "--out"])
        .arg(tmp.path())
        .assert()
        .code(2);
    let err = text(&out.get_output().stderr);
    assert!(err.contains("cannot write: is a directory"), "{err}");
    assert_eq!(err.matches("is a directory").count(), 1, "{err}");
}

#[test]
fn next_refuses_a_history_longer_than_the_game() {
    // Six misses, then the answer at a seventh guess: a consistent history.
    let answer = Word::parse("cigar").unwrap();
    let mut history: Vec<String> = ["salet", "crony", "dumpy", "whiff", "gawky", "vivid"]
        .iter()
        .map(|w| {
            let w = Word::parse(w).unwrap();
            format!("{w}:{}", wordle_tree::Feedback::compute(w, answer))
        })
        .collect();
    history.push("cigar:GGGGG".into());
    let out = cli().arg("next").args(&history).assert().code(2);
    let err = text(&out.get_output().stderr);
    assert!(err.contains("7 guesses, more than the 6"), "{err}");
    // Six guesses ending with the answer are fine.
    let mut six = history[..5].to_vec();
    six.push("cigar:GGGGG".into());
    let out = cli().arg("next").args(&six).assert().code(0);
    assert!(text(&out.get_output().stdout).contains("found in 6 guesses"));
}
