//! Cluster runs of a proof (`solve --results`): `--shard auto` from a scheduler's
//! environment (one-line errors outside one, exit 2); shards that take over each
//! other's unstarted units through claim files give the serial total, solve no unit
//! twice, and leave no claim behind; stale claims (a dead process on this host, an
//! earlier run of the same scheduler task, an expired lease) are taken, a live one is
//! left alone; `pack` refuses a claim. The real Slurm test (ignored: it starts
//! slurmctld and slurmd as root) runs `.ci/slurm-array`.

use crate::common;

use crate::common::{cli, small_lists, solved_total, widest_opener, with_lists};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use wordle_tree::game::Game;
use wordle_tree::jobs::proof::{self, Plan, Verdict};
use wordle_tree::search::{Config, Solver};
use wordle_tree::FeedbackTable;

static NEVER: AtomicBool = AtomicBool::new(false);

fn game(seed: u64) -> Game {
    common::seeded_game(seed, 50, 30)
}

fn solver<'a>(game: &'a Game, table: &'a FeedbackTable) -> Solver<'a> {
    common::small_solver(game, table, Config::default())
}

/// Runs `count` shards at once on threads sharing `dir`, each taking over the others'
/// units once its own are done; the units each solved (by key).
fn balanced_shards(
    game: &Game,
    table: &FeedbackTable,
    plan: &Plan,
    dir: &Path,
    count: usize,
) -> Vec<Vec<String>> {
    std::thread::scope(|s| {
        let runs: Vec<_> = (1..=count)
            .map(|i| {
                s.spawn(move || {
                    let solved = std::sync::Mutex::new(Vec::new());
                    let sv = solver(game, table);
                    let mut scan = proof::scan_dir(game, table, plan, dir).unwrap();
                    let todo = plan.shard(i, count);
                    let others: Vec<usize> = (0..plan.units.len())
                        .filter(|p| !todo.contains(p))
                        .collect();
                    let note = |st: &proof::Status| {
                        if let Some((key, _, _)) = &st.last {
                            solved.lock().unwrap().push(key.clone());
                        }
                    };
                    proof::run_units(
                        &sv, table, plan, dir, &mut scan, &todo, &others, &NEVER, &note,
                    )
                    .unwrap();
                    solved.into_inner().unwrap()
                })
            })
            .collect();
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    })
}

#[test]
fn balanced_shards_give_the_serial_total_and_solve_each_unit_once() {
    for seed in 1..=4u64 {
        let game = game(seed * 11);
        let table = FeedbackTable::build(&game);
        let g = widest_opener(&game, &table);
        let (want, _) = solver(&game, &table)
            .solve_opener(g, &|_, _, _| {})
            .unwrap();
        let plan = Plan::new(&game, &table, g, false, 6, None).unwrap();
        for count in [2, 4] {
            let dir = tempfile::tempdir().unwrap();
            let solved = balanced_shards(&game, &table, &plan, dir.path(), count);
            let mut all: Vec<&String> = solved.iter().flatten().collect();
            let n = all.len();
            all.sort();
            all.dedup();
            assert_eq!(all.len(), n, "seed {seed}: a unit solved twice");
            assert_eq!(n, plan.units.len(), "seed {seed}: every unit solved once");
            let scan = proof::scan_dir(&game, &table, &plan, dir.path()).unwrap();
            match proof::merge(&game, &plan, &scan).unwrap() {
                Verdict::Proved { total, tree } => {
                    assert_eq!(total, want, "seed {seed} count {count}");
                    assert!(tree.verify(&game).is_valid());
                }
                other => panic!("seed {seed}: {other:?}"),
            }
            let claims: Vec<_> = std::fs::read_dir(dir.path())
                .unwrap()
                .filter_map(|e| e.ok())
                .filter(|e| e.file_name().to_string_lossy().starts_with("claim."))
                .collect();
            assert!(claims.is_empty(), "claims left: {claims:?}");
        }
    }
}

/// Runs shard `index` of `count` alone (as [`balanced_shards`] does each); the
/// units it solved.
fn one_shard(
    game: &Game,
    table: &FeedbackTable,
    plan: &Plan,
    dir: &Path,
    shard: (usize, usize),
) -> usize {
    common::proof_shard(game, table, plan, dir, shard, true)
}

#[test]
fn shards_take_over_units_only_in_a_directory_other_shards_use() {
    let game = game(5);
    let table = FeedbackTable::build(&game);
    let g = widest_opener(&game, &table);
    let plan = Plan::new(&game, &table, g, false, 6, None).unwrap();
    let dir = tempfile::tempdir().unwrap();
    // Alone in an empty directory (maybe one of its own, no shared file system):
    // its own units only.
    let mine = plan.shard(1, 3).len();
    assert_eq!(one_shard(&game, &table, &plan, dir.path(), (1, 3)), mine);
    // Shard 1's files show the directory is shared: shard 2 takes over shard 3's.
    assert_eq!(
        one_shard(&game, &table, &plan, dir.path(), (2, 3)),
        plan.units.len() - mine
    );
    // A late or requeued shard finds everything done and solves nothing.
    assert_eq!(one_shard(&game, &table, &plan, dir.path(), (3, 3)), 0);
    let scan = proof::scan_dir(&game, &table, &plan, dir.path()).unwrap();
    assert!(matches!(
        proof::merge(&game, &plan, &scan).unwrap(),
        Verdict::Proved { .. }
    ));
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `PROVED: opener W, total T` of a run's standard output.
fn proved_total(out: &str) -> u64 {
    let line = out
        .lines()
        .find(|l| l.starts_with("PROVED: "))
        .unwrap_or_else(|| panic!("no PROVED line: {out}"));
    let t = line.split("total ").nth(1).unwrap();
    t.split(' ').next().unwrap().parse().unwrap()
}

#[test]
fn shard_auto_outside_a_scheduler_is_a_one_line_error() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [&[&str]; 3] = [
        &[
            "solve",
            "--opener",
            "trace",
            "--results",
            "u",
            "--shard",
            "auto",
        ],
        &["openers", "--results", "o", "--shard", "auto"],
        &[
            "check",
            "--opener",
            "trace",
            "--max-guesses",
            "5",
            "--results",
            "c",
            "--shard",
            "auto",
        ],
    ];
    for args in cases {
        let out = cli().current_dir(dir.path()).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with("error: --shard auto: not in a scheduler task"),
            "{err}"
        );
        for v in [
            "SLURM_ARRAY_TASK_ID",
            "JOB_COMPLETION_INDEX",
            "JOB_COMPLETIONS",
        ] {
            assert!(err.contains(v), "{err}");
        }
        assert!(text(&out.stdout).is_empty());
    }
    // Bad values name the variable.
    let out = cli()
        .current_dir(dir.path())
        .args([
            "solve",
            "--opener",
            "trace",
            "--results",
            "u",
            "--shard",
            "auto",
        ])
        .env("SLURM_ARRAY_TASK_ID", "3")
        .env("SLURM_ARRAY_TASK_COUNT", "2")
        .env("SLURM_ARRAY_TASK_MIN", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert_eq!(
        err.trim(),
        "error: --shard auto: SLURM_ARRAY_TASK_ID=3 is not one of the array's ids (2 from 1 by 1)"
    );
    // Nothing was written.
    assert!(!dir.path().join("u").exists());
}

#[test]
fn auto_shards_of_an_indexed_job_and_a_slurm_array_prove_the_serial_total() {
    let dir = tempfile::tempdir().unwrap();
    let (a, g) = small_lists(dir.path());
    let want = solved_total(&a, &g, "aback");
    // Kubernetes: indexes 0..3 of 4 completions, at once.
    let res = dir.path().join("k8s");
    let children: Vec<std::process::Child> = (0..4)
        .map(|i| {
            std::process::Command::new(assert_cmd::cargo::cargo_bin("wordle-tree"))
                .arg("--answers")
                .arg(&a)
                .arg("--guesses")
                .arg(&g)
                .args(["--quiet", "solve", "--opener", "aback", "--results"])
                .arg(&res)
                .args(["--shard", "auto"])
                .env_remove("SLURM_ARRAY_TASK_ID")
                .env("JOB_COMPLETION_INDEX", i.to_string())
                .env("JOB_COMPLETIONS", "4")
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut lines = Vec::new();
    for c in children {
        let out = c.wait_with_output().unwrap();
        assert!(out.status.success());
        lines.push(text(&out.stdout));
    }
    for (i, out) in lines.iter().enumerate() {
        assert!(out.contains(&format!("shard {}/4: ", i + 1)), "{out}");
    }
    let merged = with_lists(&a, &g)
        .args(["solve", "--opener", "aback", "--merge", "--results"])
        .arg(&res)
        .output()
        .unwrap();
    assert!(merged.status.success(), "{}", text(&merged.stderr));
    assert_eq!(proved_total(&text(&merged.stdout)), want);
    // Slurm, numbered from 0: task 0 of --array=0-1 is shard 1/2. Alone in an empty
    // directory it solves its own units only; task 1 then finds shard 1's files,
    // solves the rest and proves the total.
    let res = dir.path().join("slurm");
    let task = |id: &str| {
        let out = with_lists(&a, &g)
            .args(["solve", "--opener", "aback", "--results"])
            .arg(&res)
            .args(["--shard", "auto"])
            .env("SLURM_ARRAY_JOB_ID", "41")
            .env("SLURM_ARRAY_TASK_ID", id)
            .env("SLURM_ARRAY_TASK_COUNT", "2")
            .env("SLURM_ARRAY_TASK_MIN", "0")
            .env("SLURM_ARRAY_TASK_MAX", "1")
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let first = task("0");
    assert!(first.contains("shard 1/2: "), "{first}");
    assert!(first.contains("left to other shards"), "{first}");
    assert!(!first.contains("taken over"), "{first}");
    let second = task("1");
    assert!(second.contains("shard 2/2: "), "{second}");
    assert_eq!(proved_total(&second), want);
}

/// Plants a claim of unit `key` in `dir` held by `host`/`pid` for `task`.
fn plant_claim(dir: &Path, key: &str, host: &str, pid: u32, task: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let p = dir.join(format!("claim.{key}.txt"));
    let body =
        format!("wordle-tree claim 1\nhost {host}\npid {pid}\nstart 0\ntask {task}\ntime 0\n");
    std::fs::write(&p, body).unwrap();
    p
}

/// The key of the first (largest) unit of `aback` on the small lists.
fn first_key(a: &Path, g: &Path) -> String {
    let game = Game::load(&wordle_tree::ListSource::Files {
        answers: a.into(),
        guesses: g.into(),
    })
    .unwrap();
    let table = FeedbackTable::build(&game);
    let w = wordle_tree::game::word::Word::parse("aback").unwrap();
    let plan = Plan::new(&game, &table, game.guess_id(w).unwrap(), false, 6, None).unwrap();
    plan.units[0].key.text()
}

#[test]
fn stale_claims_are_taken_and_a_live_one_is_left_to_its_holder() {
    let dir = tempfile::tempdir().unwrap();
    let (a, g) = small_lists(dir.path());
    let key = first_key(&a, &g);
    let host = {
        let out = std::process::Command::new("hostname").output();
        out.map(|o| text(&o.stdout).trim().to_string())
            .unwrap_or_default()
    };
    let run = |res: &Path, envs: &[(&str, &str)]| {
        let mut c = with_lists(&a, &g);
        c.args(["solve", "--opener", "aback", "--results"]).arg(res);
        for (k, v) in envs {
            c.env(k, v);
        }
        c.output().unwrap()
    };
    // A dead process on this host (if `hostname` tells it), and an earlier run of this
    // very Slurm task on another host: both stale, the run proves the total.
    let mut stale = vec![("other-node", 1, "slurm 7_2")];
    if !host.is_empty() {
        stale.push((host.as_str(), 4_000_000_000u32, ""));
    }
    for (i, (h, pid, task)) in stale.into_iter().enumerate() {
        let res = dir.path().join(format!("stale{i}"));
        let claim = plant_claim(&res, &key, h, pid, task);
        let out = run(
            &res,
            &[("SLURM_ARRAY_JOB_ID", "7"), ("SLURM_ARRAY_TASK_ID", "2")],
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(text(&out.stdout).contains("PROVED: "));
        assert!(!claim.exists());
    }
    // A live holder on another host: its unit is left to it (the serial run ends
    // with that unit missing, exit 2); once its lease runs out, it is taken.
    let res = dir.path().join("live");
    let claim = plant_claim(&res, &key, "other-node", 1, "slurm 7_3");
    let out = run(&res, &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("1 of ") && err.contains(&key), "{err}");
    assert!(claim.exists());
    let f = std::fs::File::options().append(true).open(&claim).unwrap();
    f.set_modified(std::time::SystemTime::now() - std::time::Duration::from_secs(3600))
        .unwrap();
    let out = run(&res, &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("shard 1/1: "));
    assert!(!claim.exists());
    // A pack refuses a directory that holds a claim, naming it.
    plant_claim(&res, &key, "other-node", 1, "");
    let out = cli()
        .args(["pack"])
        .arg(&res)
        .arg("--out")
        .arg(dir.path().join("p.pack"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("claim.") && err.contains("in progress"),
        "{err}"
    );
}

/// The real thing: `.ci/slurm-array` starts munged, slurmctld and slurmd on this host
/// and runs the guide's job-array script for `trace` as 4 tasks, one of them killed
/// mid-run and requeued (see the script). Needs root (it installs slurm-wlm and munge
/// with apt-get when missing); skips with its reason otherwise.
#[test]
#[ignore = "starts a real Slurm as root: cargo test --test it cluster:: -- --ignored"]
fn slurm_job_array_with_a_requeued_task_proves_trace() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join(".ci/slurm-array");
    let out = std::process::Command::new(&script)
        .arg(assert_cmd::cargo::cargo_bin("wordle-tree"))
        .output()
        .unwrap();
    let (so, se) = (text(&out.stdout), text(&out.stderr));
    if out.status.code() == Some(77) {
        eprintln!("skipped: {}", so.trim());
        return;
    }
    assert!(out.status.success(), "{so}\n{se}");
    assert!(so.contains("PASSED: "), "{so}");
    eprintln!("{}", so.lines().last().unwrap_or(""));
}
