//! I/O faults, signals and absurd limits (issue 14): each test pins one defect a
//! hostile user found. The binary runs on a small game (50 answers, 200 allowed
//! guesses) or the shipped lists, always briefly.

use crate::common::cli;
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
    crate::common::with_lists(&a, &g)
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

/// The CPU time (user and system) a live process has used so far, from
/// `/proc/PID/stat` (0 when it cannot be read).
fn cpu_seconds(pid: u32) -> f64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return 0.0;
    };
    // Fields after the command name (which may hold spaces) start at state, the 3rd;
    // utime and stime are the 14th and 15th, in clock ticks.
    let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
        return 0.0;
    };
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        f.get(i - 3)
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(0)
    };
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    (ticks(14) + ticks(15)) as f64 / hz
}

/// Sends `signal` to a child once `ready` holds for its process id (checked every
/// 20 ms, for at most 120 s), and expects exit 130 soon.
fn interrupted_exits_130_once(
    mut cmd: std::process::Command,
    signal: i32,
    what: &str,
    ready: impl Fn(u32) -> bool,
) -> Output {
    let child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while !ready(child.id()) {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "{what}: not ready after 120 s"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
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

/// Sends `signal` to a child after it has run 700 ms, and expects exit 130 soon.
fn interrupted_exits_130(cmd: std::process::Command, signal: i32, what: &str) -> Output {
    let start = std::time::Instant::now();
    interrupted_exits_130_once(cmd, signal, what, |_| {
        start.elapsed() >= Duration::from_millis(700)
    })
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
    // never written through a link or a device: each link is replaced by the result
    // (issue 38, item 2), and the run ends with its verdict.
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
        .code(0);
    assert!(text(&out.get_output().stdout).starts_with("PROVED"));
    assert!(regular_files(&full) > 0, "links replaced by result files");
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
    // too, then replaces each with its result file (issue 38, item 10): never a hang,
    // never a write into a FIFO.
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
            0,
            "",
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
    assert!(game
        .guesses
        .iter()
        .any(|w| std::fs::symlink_metadata(within.file(w.as_str())).is_ok_and(|m| m.is_file())));
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

/// Every resumable job, the min-over sweep and `openers` (plain and best-first)
/// included, ends an interruption with the resume line, not `error: interrupted`.
#[test]
fn interrupted_sweeps_print_the_resume_line() {
    let tmp = tempfile::tempdir().unwrap();
    let runs: [(&str, &[&str]); 3] = [
        (
            "check --min-over",
            &["check", "--opener", "any", "--min-over", "4"],
        ),
        ("openers", &["openers"]),
        (
            "openers --best-first",
            &["openers", "--best-first", "--top", "3"],
        ),
    ];
    for (i, (what, args)) in runs.into_iter().enumerate() {
        let results = tmp.path().join(format!("r{i}"));
        let mut cmd = std::process::Command::new(bin());
        cmd.arg("--quiet").args(args).arg("--results").arg(&results);
        // Signalled once the child has spent 2 s of CPU (past loading the lists and
        // building the table, which take well under 1 s and do not poll the stop flag),
        // not after a fixed wall time: on a loaded machine 700 ms may still be inside
        // the table build, and the grace period could run out before the line.
        let out =
            interrupted_exits_130_once(cmd, libc::SIGINT, what, |pid| cpu_seconds(pid) >= 2.0);
        let err = text(&out.stderr);
        let want = format!(
            "interrupted: the openers finished are saved in {}; rerun the same command to resume",
            results.display()
        );
        assert!(err.contains(&want), "{what}: {err}");
        assert!(!err.contains("error:"), "{what}: {err}");
    }
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
        vec![
            "solve",
            "--opener",
            "abate",
            "--results",
            "unused",
            "--memory",
            &huge,
        ],
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

/// `openers --exact` on the small game into `tmp/openers` (every opener exact).
fn exact_openers(tmp: &Path) -> PathBuf {
    let dir = tmp.join("openers");
    small(tmp)
        .args(["openers", "--exact", "--results"])
        .arg(&dir)
        .assert()
        .code(0);
    dir
}

/// `openers --exact --merge` of `results` (a directory or a pack) on the small game.
fn merge_openers(tmp: &Path, results: &Path) -> Output {
    small(tmp)
        .args(["openers", "--exact", "--merge", "--results"])
        .arg(results)
        .output()
        .unwrap()
}

/// How many regular files (not links, FIFOs or directories) `dir` holds.
fn regular_files(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_type().unwrap().is_file())
        .count()
}

/// Every name a unit of a bucket-level proof can have (`unit.FEEDBACK.txt`).
fn every_unit_name() -> Vec<String> {
    let mut names = Vec::new();
    for v in 0..243u32 {
        let mut fb = String::new();
        let mut x = v;
        for _ in 0..5 {
            fb.push(['B', 'Y', 'G'][(x % 3) as usize]);
            x /= 3;
        }
        names.push(format!("unit.{fb}.txt"));
    }
    names
}

/// Issue 38, item 2: a symlink planted in any kind of results directory never has
/// its target written; the link itself is replaced by the result.
#[test]
fn a_symlink_in_a_results_directory_never_writes_its_target() {
    let tmp = tempfile::tempdir().unwrap();
    let game = small_game(tmp.path());
    let sentinel = tmp.path().join("sentinel.txt");
    std::fs::write(&sentinel, "keep me\n").unwrap();
    let link = |p: &Path| std::os::unix::fs::symlink(&sentinel, p).unwrap();
    let openers = tmp.path().join("openers");
    let over = tmp.path().join("over");
    let within = tmp.path().join("within");
    let units = tmp.path().join("units");
    let check_units = tmp.path().join("check-units");
    for d in [&openers, &over, &within, &units, &check_units] {
        std::fs::create_dir(d).unwrap();
    }
    let kinds = [
        (&openers, wordle_tree::jobs::openers::KIND, 6),
        (&over, wordle_tree::jobs::min_over::KIND, 3),
        (&within, wordle_tree::jobs::check::WITHIN_KIND, 3),
    ];
    for (dir, kind, d) in kinds {
        let rd = wordle_tree::store::results::ResultsDir::open(dir, kind, &game, false, d).unwrap();
        for w in &game.guesses {
            link(&rd.file(w.as_str()));
        }
    }
    for name in every_unit_name() {
        link(&units.join(&name));
        link(&check_units.join(&name));
    }
    let runs: Vec<(Vec<&str>, &PathBuf)> = vec![
        (vec!["openers", "--exact", "--results"], &openers),
        (
            vec!["check", "--opener", "any", "--min-over", "3", "--results"],
            &over,
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
            &within,
        ),
        (vec!["solve", "--opener", "abate", "--results"], &units),
        (
            vec![
                "check",
                "--opener",
                "abate",
                "--max-guesses",
                "4",
                "--results",
            ],
            &check_units,
        ),
    ];
    for (args, dir) in runs {
        let out = small(tmp.path()).args(&args).arg(dir).output().unwrap();
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert_eq!(
            std::fs::read_to_string(&sentinel).unwrap(),
            "keep me\n",
            "{args:?} wrote through a link"
        );
        // Every result it wrote replaced its link with a regular file.
        assert!(regular_files(dir) > 0, "{args:?}: no result written");
    }
}

/// Issue 38, item 10: a FIFO planted at a unit file's name never blocks a proof.
#[test]
fn a_fifo_at_a_unit_name_is_replaced_not_opened() {
    let tmp = tempfile::tempdir().unwrap();
    let units = tmp.path().join("units");
    std::fs::create_dir(&units).unwrap();
    for name in every_unit_name() {
        mkfifo(&units.join(name));
    }
    let (a, g) = small_lists(tmp.path());
    let child = std::process::Command::new(bin())
        .arg("--answers")
        .arg(&a)
        .arg("--guesses")
        .arg(&g)
        .args(["--quiet", "solve", "--opener", "abate", "--results"])
        .arg(&units)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = wait_at_most(child, 30, "solve --results over FIFOs");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("PROVED"),
        "{}",
        text(&out.stdout)
    );
}

/// Issue 38, item 3: an edited result file (openers, min-over) is not believed: its
/// item is computed again and the verdict is the true one.
#[test]
fn an_edited_result_file_is_redone_never_believed() {
    let tmp = tempfile::tempdir().unwrap();
    let game = small_game(tmp.path());
    let dir = exact_openers(tmp.path());
    let merged = |dir: &Path| {
        let out = merge_openers(tmp.path(), dir);
        text(&out.stdout) + &text(&out.stderr)
    };
    let truth = merged(&dir);
    let best = truth
        .lines()
        .find(|l| l.trim_start().starts_with("1 "))
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    let od = wordle_tree::jobs::openers::OpenersDir::open(&dir, &game, false, 6).unwrap();
    let worst = game
        .guesses
        .iter()
        .map(|w| w.as_str())
        .find(|w| *w != best)
        .unwrap();
    let path = od.file(game.guess_id(Word::parse(worst).unwrap()).unwrap());
    let original = std::fs::read_to_string(&path).unwrap();
    let edited: String = original
        .lines()
        .map(|l| match l.strip_prefix("result=exact ") {
            Some(_) => "result=exact 1".to_string(),
            None => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n";
    assert_ne!(edited, original);
    std::fs::write(&path, &edited).unwrap();
    let after = merged(&dir);
    assert!(after.contains("no valid end checksum"), "{after}");
    let first = after
        .lines()
        .find(|l| l.trim_start().starts_with("1 "))
        .unwrap_or_default();
    assert!(first.contains(&best) && !first.contains(worst), "{after}");
    assert!(
        !after.contains("PROVED"),
        "a merge with a file missing is no proof: {after}"
    );
    // A rerun computes it again: the same verdict as before the edit.
    small(tmp.path())
        .args(["openers", "--exact", "--results"])
        .arg(&dir)
        .assert()
        .code(0);
    assert_eq!(
        std::fs::read_to_string(&path)
            .unwrap()
            .lines()
            .find(|l| l.starts_with("result=")),
        original.lines().find(|l| l.starts_with("result="))
    );

    // min-over: files edited to claim fewer answers over 2 than the truth.
    let over = tmp.path().join("over");
    let sweep = |extra: &[&str]| {
        let out = small(tmp.path())
            .args(["check", "--opener", "any", "--min-over", "2", "--results"])
            .arg(&over)
            .args(extra)
            .output()
            .unwrap();
        let stdout = text(&out.stdout);
        stdout
            .lines()
            .filter(|l| l.starts_with("PROVED") || l.starts_with("REFUTED"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let truth = sweep(&[]);
    assert!(
        truth.starts_with("PROVED") && !truth.contains("is 0,"),
        "{truth}"
    );
    for e in std::fs::read_dir(&over).unwrap().flatten() {
        let t = std::fs::read_to_string(e.path()).unwrap();
        let forged: String = t
            .lines()
            .map(|l| {
                if l.starts_with("result=") {
                    "result=exact 0"
                } else {
                    l
                }
            })
            .collect::<Vec<_>>()
            .join("\n");
        std::fs::write(e.path(), forged + "\n").unwrap();
    }
    let after = sweep(&["--merge"]);
    assert!(!after.contains("is 0,"), "{after}");
    assert_eq!(sweep(&[]), truth, "redone, the same verdict");
}

/// Issue 38, item 14: a killed run's temporary files in a proof directory are removed
/// by the next run (a live process's are kept).
#[test]
fn stale_temp_files_in_a_proof_directory_are_removed() {
    let tmp = tempfile::tempdir().unwrap();
    let units = tmp.path().join("units");
    std::fs::create_dir(&units).unwrap();
    let mut gone = std::process::Command::new("true").spawn().unwrap();
    gone.wait().unwrap();
    let dead = units.join(format!(".unit.BBBBB.txt.tmp.{}", gone.id()));
    let f = std::fs::File::create(&dead).unwrap();
    f.set_modified(std::time::SystemTime::now() - Duration::from_secs(3600))
        .unwrap();
    small(tmp.path())
        .args(["solve", "--opener", "abate", "--results"])
        .arg(&units)
        .assert()
        .code(0);
    assert!(!dead.exists(), "a dead process's temp file is removed");
}

/// Issue 38, item 16: a forged unit (a worse subtree, its checksum recomputed) merges
/// as a wrong PROVED total, and `--merge --audit` catches it.
#[test]
fn an_audit_catches_a_forged_unit() {
    use wordle_tree::game::table::FeedbackTable;
    use wordle_tree::game::AnswerId;
    use wordle_tree::jobs::proof::{self, Outcome, Plan, Record};
    use wordle_tree::tree::Node;
    let tmp = tempfile::tempdir().unwrap();
    let game = small_game(tmp.path());
    let table = FeedbackTable::build(&game);
    let units = tmp.path().join("units");
    let solve = |extra: &[&str]| {
        let out = small(tmp.path())
            .args(["solve", "--opener", "abate", "--results"])
            .arg(&units)
            .args(extra)
            .output()
            .unwrap();
        (out.status.code(), text(&out.stdout) + &text(&out.stderr))
    };
    let (code, truth) = solve(&[]);
    assert_eq!(code, Some(0), "{truth}");
    let opener = game.guess_id(Word::parse("abate").unwrap()).unwrap();
    let plan = Plan::new(&game, &table, opener, false, 6, None).unwrap();
    let scan = proof::scan_dir(&game, &table, &plan, &units).unwrap();
    // Guess the candidates one after another: a valid, usually worse, subtree.
    fn chain(table: &FeedbackTable, ids: &[AnswerId]) -> Node {
        let g = ids[0].as_guess();
        let mut groups: std::collections::BTreeMap<_, Vec<AnswerId>> = Default::default();
        for &a in &ids[1..] {
            groups.entry(table.get(g, a)).or_default().push(a);
        }
        Node {
            guess: g,
            branches: groups
                .into_iter()
                .map(|(f, rest)| (f, chain(table, &rest)))
                .collect(),
        }
    }
    let forged = plan.units.iter().enumerate().find_map(|(i, u)| {
        let Some(Record {
            outcome: Outcome::Exact(v, _),
            ..
        }) = scan.done.get(&i)
        else {
            return None;
        };
        let node = chain(&table, &u.ids);
        let c = proof::subtree_cost(&table, &node, &u.ids, u.left)?;
        (c > *v).then_some((i, c - v, node, c))
    });
    let (i, worse_by, node, c) = forged.expect("some unit's chain tree is worse than optimal");
    let rec = Record {
        outcome: Outcome::Exact(c, node),
        seconds: 0.1,
    };
    std::fs::write(
        plan.path(&units, i),
        proof::encode_record(&game, &plan, i, &rec),
    )
    .unwrap();
    let total = |s: &str| -> u64 {
        let t = s.split("total ").nth(1).unwrap();
        t.split_whitespace().next().unwrap().parse().unwrap()
    };
    let (code, forged_merge) = solve(&["--merge"]);
    assert_eq!(code, Some(0), "{forged_merge}");
    assert_eq!(
        total(&forged_merge),
        total(&truth) + worse_by,
        "checksums alone let it in"
    );
    let (code, audited) = solve(&["--merge", "--audit", "1000"]);
    assert_eq!(code, Some(2), "{audited}");
    assert!(audited.contains("audit failed"), "{audited}");
    assert!(audited.contains(&plan.units[i].key.text()), "{audited}");
    // The unit's own shard, audited alone, finds it too.
    let shard = (1..=4).find(|k| plan.shard(*k, 4).contains(&i)).unwrap();
    let (code, audited) = solve(&[
        "--merge",
        "--audit",
        "0",
        "--audit-shard",
        &format!("{shard}/4"),
    ]);
    assert_eq!(code, Some(2), "{audited}");
}

/// Issue 34, item 3: a finished directory packed into one file gives the same
/// verdicts read in place; a damaged pack is refused by name; a pack is read only
/// (a run with work left says to unpack it); unpacking resumes.
#[test]
fn packs_give_the_same_verdicts_and_damaged_ones_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = exact_openers(tmp.path());
    let merge = |results: &Path| {
        let out = merge_openers(tmp.path(), results);
        (
            out.status.code(),
            text(&out.stdout)
                .lines()
                .skip(1)
                .collect::<Vec<_>>()
                .join("\n"),
        )
    };
    let from_dir = merge(&dir);
    assert!(from_dir.1.contains("PROVED"), "{}", from_dir.1);
    let pack = tmp.path().join("openers.pack");
    let out = cli().arg("pack").arg(&dir).assert().code(0);
    assert!(text(&out.get_output().stdout).starts_with("packed 200 files"));
    assert_eq!(merge(&pack), from_dir);
    // Damaged: cut short, or one byte changed.
    let bytes = std::fs::read(&pack).unwrap();
    for (i, bad) in [bytes[..bytes.len() - 9].to_vec(), {
        let mut b = bytes.clone();
        let k = b.len() / 2;
        b[k] ^= 0x20;
        b
    }]
    .into_iter()
    .enumerate()
    {
        let damaged = tmp.path().join(format!("damaged{i}.pack"));
        std::fs::write(&damaged, bad).unwrap();
        let out = small(tmp.path())
            .args(["openers", "--exact", "--merge", "--results"])
            .arg(&damaged)
            .assert()
            .code(2);
        let err = text(&out.get_output().stderr);
        assert!(
            err.contains(&format!("damaged{i}.pack: damaged pack")),
            "{err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // Read only: a run with an opener left to compute refuses before computing.
    let partial = tmp.path().join("partial");
    cli()
        .arg("unpack")
        .arg(&pack)
        .arg(&partial)
        .assert()
        .code(0);
    std::fs::remove_file(
        std::fs::read_dir(&partial)
            .unwrap()
            .flatten()
            .next()
            .unwrap()
            .path(),
    )
    .unwrap();
    let partial_pack = tmp.path().join("partial.pack");
    cli()
        .args(["pack", "--remove"])
        .arg(&partial)
        .arg("--out")
        .arg(&partial_pack)
        .assert()
        .code(0);
    assert!(
        !partial.exists(),
        "--remove takes the directory once the pack is checked"
    );
    let out = small(tmp.path())
        .args(["openers", "--exact", "--results"])
        .arg(&partial_pack)
        .assert()
        .code(2);
    assert!(text(&out.get_output().stderr).contains("a pack is read only"));
    // Unpacked, the run resumes: one opener computed, the rest reused.
    let resumed = tmp.path().join("resumed");
    cli()
        .arg("unpack")
        .arg(&partial_pack)
        .arg(&resumed)
        .assert()
        .code(0);
    small(tmp.path())
        .args(["openers", "--exact", "--results"])
        .arg(&resumed)
        .assert()
        .code(0);
    assert_eq!(merge(&resumed), from_dir);
    // An unsealed file is refused by name unless adopted.
    let legacy = tmp.path().join("legacy");
    std::fs::create_dir(&legacy).unwrap();
    std::fs::write(
        legacy.join("salet.normal.wordle.max6"),
        "opener=salet\nlist=wordle\nchecksum=00000000000000ff\nmode=normal\nmax_guesses=6\nresult=exact 7920\n",
    )
    .unwrap();
    let out = cli().arg("pack").arg(&legacy).assert().code(2);
    assert!(text(&out.get_output().stderr).contains("salet.normal.wordle.max6: no end checksum"));
    cli()
        .args(["pack", "--adopt"])
        .arg(&legacy)
        .assert()
        .code(0);
}
