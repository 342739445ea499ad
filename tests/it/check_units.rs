//! One depth claim as units (`wordle_tree::jobs::proof` with objective `within D`,
//! `check --opener W --max-guesses D --results DIR`): the verdict equals plain `check`
//! and the brute force; shards merge to a tree `verify` accepts; reruns redo only what
//! is missing or damaged (a tampered refutation included); foreign files (other D,
//! other opener, other mode, a `solve` unit) are refused by name; a merge with missing
//! units writes nothing; a refuted claim exits 1; `solve`'s unit files are unchanged.

use crate::common;

use crate::common::{cli, small_lists, stderr, stdout, widest_opener, with_lists};
use common::{brute, random_game, Rng};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use wordle_tree::game::hard::Revealed;
use wordle_tree::game::{AnswerId, Game, GuessId};
use wordle_tree::jobs::check;
use wordle_tree::jobs::proof::{self, Outcome, Plan, ProofError, Read, Record, Scan, Verdict};
use wordle_tree::search::bound::INFEASIBLE;
use wordle_tree::search::{Config, Objective, Solver};
use wordle_tree::FeedbackTable;

static NEVER: AtomicBool = AtomicBool::new(false);

fn game(seed: u64) -> Game {
    common::seeded_game(seed, 40, 40)
}

/// A fresh feasibility solver for the plan's claim, as another process would have.
fn solver<'a>(game: &'a Game, table: &'a FeedbackTable, plan: &Plan) -> Solver<'a> {
    let config = Config {
        max_guesses: plan.identity.max_guesses,
        hard: plan.identity.hard,
        objective: Objective::feasibility(),
        ..Config::default()
    };
    common::small_solver(game, table, config)
}

/// Runs the units of `shard` of `count`, returning how many units it settled.
fn run_shard(
    game: &Game,
    table: &FeedbackTable,
    plan: &Plan,
    dir: &Path,
    shard: (usize, usize),
) -> usize {
    let s = solver(game, table, plan);
    let mut scan = proof::scan_dir(game, table, plan, dir).unwrap();
    let before = scan.done.len();
    let todo = plan.shard(shard.0, shard.1);
    proof::run_units(&s, table, plan, dir, &mut scan, &todo, &[], &NEVER, &|_| {}).unwrap();
    scan.done.len() - before
}

fn scan(game: &Game, table: &FeedbackTable, plan: &Plan, dir: &Path) -> Scan {
    proof::scan_dir(game, table, plan, dir).unwrap()
}

/// The claim settled by units in `shards` runs, then merged: `Some(tree)` when
/// proved (checked: replays within D), `None` when refuted (the named unit checked by
/// `infeasible`, which is given the unit's candidates and guesses left).
fn by_units(
    game: &Game,
    table: &FeedbackTable,
    plan: &Plan,
    shards: usize,
    infeasible: &dyn Fn(&[AnswerId], u8, Revealed) -> bool,
) -> Option<wordle_tree::tree::Tree> {
    let dir = tempfile::tempdir().unwrap();
    for i in 1..=shards {
        run_shard(game, table, plan, dir.path(), (i, shards));
    }
    match proof::merge(game, plan, &scan(game, table, plan, dir.path())).unwrap() {
        Verdict::Proved { total, tree } => {
            let replay = tree.verify(game);
            assert!(replay.is_valid(), "{:?}", replay.problems);
            assert!(replay.max_depth() <= plan.identity.max_guesses as u32);
            assert_eq!(replay.total(), total);
            Some(tree)
        }
        Verdict::Infeasible { unit } => {
            let u = plan.units.iter().find(|u| u.key.text() == unit).unwrap();
            assert!(
                infeasible(&u.ids, u.left, u.revealed),
                "unit {unit} named infeasible"
            );
            None
        }
        v => panic!("{v:?}"),
    }
}

/// On tiny random games (normal and hard mode, D from 1 to 4), the unit-based verdict
/// equals plain `check` and the brute force, and the unit it names is infeasible by
/// the brute force.
#[test]
fn unit_check_equals_plain_check_and_brute_force_on_tiny_games() {
    let mut seen = [0; 2];
    for seed in 1..=16u64 {
        let mut rng = Rng(seed * 7919);
        let game = random_game(&mut rng, 6 + (seed % 8) as usize, 14);
        let table = FeedbackTable::build(&game);
        let hard = seed % 2 == 0;
        let g = GuessId::new(rng.below(game.n_guesses()));
        let word = game.guesses[g.index()];
        for depth in 1..=4u8 {
            let plan = Plan::within(&game, &table, g, hard, depth).unwrap();
            // The brute force of the whole claim, and of one unit.
            let unit_brute = |ids: &[AnswerId], left: u8, revealed: Revealed| {
                brute(
                    &game,
                    &table,
                    &Objective::feasibility(),
                    left,
                    ids,
                    1,
                    hard.then_some(revealed),
                ) >= INFEASIBLE as u64
            };
            let want = plan
                .units
                .iter()
                .all(|u| !unit_brute(&u.ids, u.left, u.revealed));
            let plain = matches!(
                check::within(&game, &table, g, depth, hard, &[], &NEVER).unwrap(),
                check::Verdict::Proved(_)
            );
            assert_eq!(plain, want, "seed {seed} {word} depth {depth}: plain check");
            seen[want as usize] += 1;
            for shards in [1, 3] {
                let got = by_units(&game, &table, &plan, shards, &unit_brute).is_some();
                assert_eq!(
                    got, want,
                    "seed {seed} {word} depth {depth} shards {shards}"
                );
            }
        }
    }
    assert!(seen[0] > 0 && seen[1] > 0, "refuted, proved: {seen:?}");
}

/// On larger random games (40 to 80 answers, 150 guesses), normal and hard mode,
/// several D: the unit-based verdict equals plain `check`, and a named unit is one
/// that plain `check`'s solver also finds infeasible.
#[test]
fn unit_check_equals_plain_check_on_random_games() {
    let mut proved = 0;
    let mut refuted = 0;
    for hard in [false, true] {
        for seed in 1..=3u64 {
            let game = game(seed * 11 + hard as u64);
            let table = FeedbackTable::build(&game);
            let g = widest_opener(&game, &table);
            for depth in 2..=4u8 {
                let plain = matches!(
                    check::within(&game, &table, g, depth, hard, &[], &NEVER).unwrap(),
                    check::Verdict::Proved(_)
                );
                let plan = Plan::within(&game, &table, g, hard, depth).unwrap();
                let reference = solver(&game, &table, &plan);
                let infeasible = |ids: &[AnswerId], left: u8, revealed: Revealed| {
                    left == 0 || reference.cost(ids, left, &revealed).unwrap().is_none()
                };
                let got = by_units(&game, &table, &plan, 4, &infeasible).is_some();
                assert_eq!(got, plain, "seed {seed} hard {hard} depth {depth}");
                if got {
                    proved += 1;
                } else {
                    refuted += 1;
                }
            }
        }
    }
    assert!(
        proved > 0 && refuted > 0,
        "{proved} proved, {refuted} refuted"
    );
}

#[test]
fn rerun_redoes_only_the_missing_units() {
    let game = game(3);
    let table = FeedbackTable::build(&game);
    let g = widest_opener(&game, &table);
    let plan = Plan::within(&game, &table, g, false, 4).unwrap();
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(
        run_shard(&game, &table, &plan, dir.path(), (1, 1)),
        plan.units.len()
    );
    let first = proof::merge(&game, &plan, &scan(&game, &table, &plan, dir.path())).unwrap();
    let Verdict::Proved { total, .. } = first else {
        panic!("{first:?}")
    };
    let gone: Vec<usize> = vec![0, 2, plan.units.len() - 1];
    for &i in &gone {
        std::fs::remove_file(plan.path(dir.path(), i)).unwrap();
    }
    match proof::merge(&game, &plan, &scan(&game, &table, &plan, dir.path())).unwrap() {
        Verdict::Missing { keys, .. } => {
            let want: Vec<String> = gone.iter().map(|&i| plan.units[i].key.text()).collect();
            assert_eq!(keys, want);
        }
        v => panic!("{v:?}"),
    }
    assert_eq!(
        run_shard(&game, &table, &plan, dir.path(), (1, 1)),
        gone.len()
    );
    match proof::merge(&game, &plan, &scan(&game, &table, &plan, dir.path())).unwrap() {
        Verdict::Proved { total: t, .. } => assert_eq!(t, total, "same witness"),
        v => panic!("{v:?}"),
    }
}

/// A refuted claim is settled by one infeasible unit: a rerun searches nothing more,
/// and the merge refutes whatever else is missing.
#[test]
fn an_infeasible_unit_stops_the_run_and_refutes() {
    let game = game(3);
    let table = FeedbackTable::build(&game);
    let g = widest_opener(&game, &table);
    let plan = Plan::within(&game, &table, g, false, 2).unwrap();
    assert!(plan.units.iter().any(|u| u.ids.len() > 1));
    let dir = tempfile::tempdir().unwrap();
    run_shard(&game, &table, &plan, dir.path(), (1, 1));
    let s = scan(&game, &table, &plan, dir.path());
    assert!(s.done.values().any(|r| r.outcome == Outcome::Infeasible));
    // With 2 guesses, every unit of 2 or more candidates is infeasible, and the
    // largest go first: the run stops taking units after the first ones.
    assert!(plan.units.len() >= 8, "{}", plan.units.len());
    assert!(
        s.done.len() <= rayon::current_num_threads() + 1,
        "{} of {} units searched",
        s.done.len(),
        plan.units.len()
    );
    assert_eq!(run_shard(&game, &table, &plan, dir.path(), (1, 1)), 0);
    // Keep only one infeasible unit's file: still refuted, naming it.
    let (&keep, _) = s
        .done
        .iter()
        .find(|(_, r)| r.outcome == Outcome::Infeasible)
        .unwrap();
    for i in 0..plan.units.len() {
        if i != keep {
            let _ = std::fs::remove_file(plan.path(dir.path(), i));
        }
    }
    match proof::merge(&game, &plan, &scan(&game, &table, &plan, dir.path())).unwrap() {
        Verdict::Infeasible { unit } => assert_eq!(unit, plan.units[keep].key.text()),
        v => panic!("{v:?}"),
    }
}

/// A truncated file, an edited one (a feasible unit turned infeasible: the checksum no
/// longer matches), a well-checksummed one whose subtree misses a candidate, and one
/// with a `solve` result are all damaged: redone, never a verdict.
#[test]
fn damaged_unit_files_are_redone_never_a_refutation() {
    let game = game(5);
    let table = FeedbackTable::build(&game);
    let g = widest_opener(&game, &table);
    let plan = Plan::within(&game, &table, g, false, 4).unwrap();
    assert!(plan.units.len() >= 4);
    let dir = tempfile::tempdir().unwrap();
    run_shard(&game, &table, &plan, dir.path(), (1, 1));
    let good = scan(&game, &table, &plan, dir.path());
    assert!(matches!(
        proof::merge(&game, &plan, &good).unwrap(),
        Verdict::Proved { .. }
    ));
    let p0 = plan.path(dir.path(), 0);
    let text = std::fs::read_to_string(&p0).unwrap();
    std::fs::write(&p0, &text[..text.len() / 2]).unwrap();
    let p1 = plan.path(dir.path(), 1);
    let text = std::fs::read_to_string(&p1).unwrap();
    assert!(text.contains("result feasible\n"), "{text}");
    let edited: String = text
        .replace("result feasible\n", "result infeasible\n")
        .lines()
        .filter(|l| !l.starts_with("tree"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&p1, edited).unwrap();
    // Unit 2 recorded with a one-guess subtree (it has several candidates: it cannot
    // find them all), and unit 3 as an exact cost: both with sound checksums.
    assert!(plan.units[2].ids.len() > 1);
    let leaf = wordle_tree::tree::Node {
        guess: plan.units[2].ids[0].as_guess(),
        branches: Vec::new(),
    };
    let wrong = Record {
        outcome: Outcome::Feasible(leaf),
        seconds: 0.0,
    };
    let p2 = plan.path(dir.path(), 2);
    std::fs::write(&p2, proof::encode_record(&game, &plan, 2, &wrong)).unwrap();
    assert!(matches!(
        proof::read_record(&game, &table, &plan, &p2).unwrap(),
        Read::Damaged(_)
    ));
    let Outcome::Feasible(other) = good.done[&3].outcome.clone() else {
        panic!("{:?}", good.done[&3])
    };
    let exact = Record {
        outcome: Outcome::Exact(7, other),
        seconds: 0.0,
    };
    let p3 = plan.path(dir.path(), 3);
    std::fs::write(&p3, proof::encode_record(&game, &plan, 3, &exact)).unwrap();
    let s = scan(&game, &table, &plan, dir.path());
    assert_eq!(s.damaged.len(), 4, "{:?}", s.damaged);
    assert_eq!(s.done.len(), plan.units.len() - 4);
    match proof::merge(&game, &plan, &s).unwrap() {
        Verdict::Missing { keys, .. } => assert_eq!(keys.len(), 4),
        v => panic!("a damaged file became a verdict: {v:?}"),
    }
    assert_eq!(run_shard(&game, &table, &plan, dir.path(), (1, 1)), 4);
    let s = scan(&game, &table, &plan, dir.path());
    assert!(s.damaged.is_empty());
    assert!(matches!(
        proof::merge(&game, &plan, &s).unwrap(),
        Verdict::Proved { .. }
    ));
}

/// Unit files of another D, opener or mode, and `solve`'s unit files, are refused
/// with the file's name and the first line that differs.
#[test]
fn foreign_unit_files_are_refused_by_name() {
    let game = game(8);
    let table = FeedbackTable::build(&game);
    let g = widest_opener(&game, &table);
    let plan = Plan::within(&game, &table, g, false, 5).unwrap();
    let dir = tempfile::tempdir().unwrap();
    run_shard(&game, &table, &plan, dir.path(), (1, 1));
    let unit = plan.units[0].key.file_name();
    let other_opener = GuessId::new((g.index() + 1) % game.n_guesses());
    let others = [
        (
            "max_guesses 4",
            Plan::within(&game, &table, g, false, 4).unwrap(),
        ),
        (
            "opener",
            Plan::within(&game, &table, other_opener, false, 5).unwrap(),
        ),
        (
            "mode hard",
            Plan::within(&game, &table, g, true, 5).unwrap(),
        ),
        (
            "objective total",
            Plan::new(&game, &table, g, false, 5, None).unwrap(),
        ),
    ];
    for (what, other) in &others {
        let d = tempfile::tempdir().unwrap();
        let n = if other.identity.goal == proof::Goal::Total {
            // A `solve` unit: total guesses.
            let s = Solver::new(
                &game,
                &table,
                Config {
                    max_guesses: 5,
                    memory_limit: 64 << 20,
                    ..Config::default()
                },
            );
            let mut sc = scan(&game, &table, other, d.path());
            let todo = other.shard(1, 1);
            proof::run_units(
                &s,
                &table,
                other,
                d.path(),
                &mut sc,
                &todo,
                &[],
                &NEVER,
                &|_| {},
            )
            .unwrap();
            sc.done.len()
        } else {
            run_shard(&game, &table, other, d.path(), (1, 1))
        };
        assert!(n > 0, "{what}");
        let src = d.path().join(other.units[0].key.file_name());
        std::fs::copy(&src, dir.path().join(&unit)).unwrap();
        match proof::scan_dir(&game, &table, &plan, dir.path()) {
            Err(e @ ProofError::Foreign(..)) => {
                let msg = e.to_string();
                assert!(msg.contains(&unit), "{what}: {msg}");
                assert!(msg.contains(what), "{what}: {msg}");
            }
            r => panic!("{what}: {r:?}"),
        }
    }
}

/// `solve --results` files keep their identity lines (written by older builds too),
/// and a check's identity says `objective within D`.
#[test]
fn identity_lines_pin_the_objective() {
    let game = game(2);
    let table = FeedbackTable::build(&game);
    let g = widest_opener(&game, &table);
    let word = game.guesses[g.index()];
    let head = |plan: &Plan, rec: &Record| -> String {
        let s = proof::encode_record(&game, plan, 0, rec);
        s.lines().take(7).map(|l| format!("{l}\n")).collect()
    };
    let rec = Record {
        outcome: Outcome::Infeasible,
        seconds: 0.0,
    };
    let lists = format!("list {} {:016x}\n", game.name, game.checksum);
    let total = Plan::new(&game, &table, g, true, 6, Some(1234)).unwrap();
    assert_eq!(
        head(&total, &rec),
        format!("wordle-tree proof unit v1\n{lists}mode hard\nmax_guesses 6\nobjective total\nopener {word}\ncutoff 1234\n")
    );
    let within = Plan::within(&game, &table, g, false, 3).unwrap();
    assert_eq!(
        head(&within, &rec),
        format!("wordle-tree proof unit v1\n{lists}mode normal\nmax_guesses 3\nobjective within 3\nopener {word}\ncutoff none\n")
    );
}

// ---- through the binary ----

#[test]
fn cli_four_shard_processes_then_merge_prove_and_verify() {
    let dir = tempfile::tempdir().unwrap();
    let (a, g) = small_lists(dir.path());
    for hard in [false, true] {
        let mode: &[&str] = if hard { &["--hard"] } else { &[] };
        let plain = with_lists(&a, &g)
            .args(mode)
            .args(["check", "--opener", "aback", "--max-guesses", "4"])
            .output()
            .unwrap();
        assert_eq!(plain.status.code(), Some(0), "{}", stdout(&plain));
        let res = dir.path().join(format!("res{hard}"));
        let children: Vec<std::process::Child> = (1..=4)
            .map(|i| {
                std::process::Command::new(assert_cmd::cargo::cargo_bin("wordle-tree"))
                    .arg("--answers")
                    .arg(&a)
                    .arg("--guesses")
                    .arg(&g)
                    .arg("--quiet")
                    .args(mode)
                    .args(["check", "--opener", "aback", "--max-guesses", "4"])
                    .arg("--results")
                    .arg(&res)
                    .args(["--shard", &format!("{i}/4")])
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::null())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for mut c in children {
            assert!(c.wait().unwrap().success());
        }
        let tree = dir.path().join(format!("t{hard}.tree"));
        let out = with_lists(&a, &g)
            .args(mode)
            .args(["check", "--opener", "aback", "--max-guesses", "4"])
            .args(["--merge", "--results"])
            .arg(&res)
            .arg("--out")
            .arg(&tree)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let s = stdout(&out);
        assert!(
            s.contains("PROVED: from aback, every answer is found within 4 guesses"),
            "{s}"
        );
        let v = with_lists(&a, &g)
            .arg("verify")
            .arg(&tree)
            .output()
            .unwrap();
        assert_eq!(v.status.code(), Some(0), "{}", stdout(&v));
        let v = stdout(&v);
        assert!(v.contains("at most 4 guesses"), "{v}");
        assert!(v.contains(if hard { "hard mode" } else { "normal mode" }));
    }
}

#[test]
fn cli_refuted_claim_exits_1_naming_an_infeasible_unit() {
    let dir = tempfile::tempdir().unwrap();
    let (a, g) = small_lists(dir.path());
    let plain = with_lists(&a, &g)
        .args(["check", "--opener", "aback", "--max-guesses", "3"])
        .output()
        .unwrap();
    assert_eq!(plain.status.code(), Some(1));
    let res = dir.path().join("res");
    let tree = dir.path().join("t.tree");
    let out = with_lists(&a, &g)
        .args([
            "check",
            "--opener",
            "aback",
            "--max-guesses",
            "3",
            "--results",
        ])
        .arg(&res)
        .arg("--out")
        .arg(&tree)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let s = stdout(&out);
    assert!(
        s.contains("REFUTED: from aback, no tree finds every answer within 3 guesses"),
        "{s}"
    );
    // "evidence: unit KEY: after aback:KEY the N candidates ...": that unit's file
    // records it infeasible.
    let key = s
        .split("evidence: unit ")
        .nth(1)
        .and_then(|r| r.split(':').next())
        .unwrap();
    let file = std::fs::read_to_string(res.join(format!("unit.{key}.txt"))).unwrap();
    assert!(file.contains("result infeasible\n"), "{file}");
    assert!(!tree.exists(), "no tree for a refuted claim");
    // The merge says the same.
    with_lists(&a, &g)
        .args([
            "check",
            "--opener",
            "aback",
            "--max-guesses",
            "3",
            "--merge",
        ])
        .arg("--results")
        .arg(&res)
        .assert()
        .code(1);
}

#[test]
fn cli_merge_with_missing_units_lists_them_exits_2_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (a, g) = small_lists(dir.path());
    let res = dir.path().join("res");
    let out = with_lists(&a, &g)
        .args([
            "check",
            "--opener",
            "aback",
            "--max-guesses",
            "4",
            "--results",
        ])
        .arg(&res)
        .args(["--shard", "1/3"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("left to other shards"),
        "{}",
        stdout(&out)
    );
    let tree = dir.path().join("t.tree");
    let out = with_lists(&a, &g)
        .args([
            "check",
            "--opener",
            "aback",
            "--max-guesses",
            "4",
            "--merge",
        ])
        .arg("--results")
        .arg(&res)
        .arg("--out")
        .arg(&tree)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let e = stderr(&out);
    assert!(
        e.contains("units missing, no verdict and no tree written"),
        "{e}"
    );
    let files: Vec<String> = std::fs::read_dir(&res)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    // "N of M units missing ...: KEY, KEY, ...": every missing key listed (at most 30
    // shown), none of the done ones.
    let head = e.split(" units missing").next().unwrap();
    let nums: Vec<usize> = head
        .rsplit(": ")
        .next()
        .unwrap()
        .split(" of ")
        .map(|x| x.parse().unwrap())
        .collect();
    assert_eq!(nums[0], nums[1] - files.len(), "{e}");
    let listed: Vec<&str> = e
        .trim_end()
        .rsplit("written: ")
        .next()
        .unwrap()
        .split(" ... and")
        .next()
        .unwrap()
        .split(", ")
        .collect();
    assert_eq!(listed.len(), nums[0].min(30), "{e}");
    for k in listed {
        assert!(!files.contains(&format!("unit.{k}.txt")), "{k}: {e}");
    }
    assert!(!tree.exists());
}

/// A `solve` unit file in a check directory (and the other way round), or a check
/// of another D, stops the run with the file named, exit 2; a damaged file is redone.
#[test]
fn cli_refuses_foreign_unit_files_and_redoes_damaged_ones() {
    let dir = tempfile::tempdir().unwrap();
    let (a, g) = small_lists(dir.path());
    let check = |res: &Path, d: &str| {
        with_lists(&a, &g)
            .args([
                "check",
                "--opener",
                "aback",
                "--max-guesses",
                d,
                "--results",
            ])
            .arg(res)
            .output()
            .unwrap()
    };
    let res = dir.path().join("res");
    assert_eq!(check(&res, "4").status.code(), Some(0));
    let out = with_lists(&a, &g)
        .args([
            "solve",
            "--opener",
            "aback",
            "--max-guesses",
            "4",
            "--results",
        ])
        .arg(&res)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let e = stderr(&out);
    assert!(
        e.contains("unit.") && e.contains("'objective within 4', not 'objective total'"),
        "{e}"
    );
    let out = check(&res, "5");
    assert_eq!(out.status.code(), Some(2));
    let e = stderr(&out);
    assert!(
        e.contains("unit.") && e.contains("'max_guesses 4', not 'max_guesses 5'"),
        "{e}"
    );
    // Damage one file: a warning, the unit redone, the same verdict.
    let victim = std::fs::read_dir(&res)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let text = std::fs::read_to_string(&victim).unwrap();
    std::fs::write(&victim, &text[..text.len() - 3]).unwrap();
    let out = check(&res, "4");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("damaged unit file"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).contains("1 to do"), "{}", stdout(&out));
    let out = check(&res, "4");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!stderr(&out).contains("damaged"), "{}", stderr(&out));
    assert!(stdout(&out).contains(" 0 to do"), "{}", stdout(&out));
}

#[test]
fn cli_results_option_errors() {
    for (args, needle) in [
        (
            vec![
                "check",
                "--opener",
                "salet",
                "--max-guesses",
                "4",
                "--except",
                "eater",
                "--results",
                "r",
            ],
            "--results does not go with --except",
        ),
        (
            vec![
                "check",
                "--opener",
                "salet",
                "--max-guesses",
                "4",
                "--results",
                "r",
                "--merge",
                "--shard",
                "1/2",
            ],
            "leave out --shard",
        ),
        (
            vec![
                "check",
                "--opener",
                "salet",
                "--min-over",
                "4",
                "--results",
                "r",
            ],
            "goes with --max-guesses",
        ),
        (
            vec![
                "check",
                "--opener",
                "salet",
                "--max-guesses",
                "4",
                "--merge",
            ],
            "need --results DIR",
        ),
        (
            vec!["check", "--opener", "any", "--max-guesses", "4", "--merge"],
            "--merge and --memory go with",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let out = cli().current_dir(dir.path()).args(&args).assert().code(2);
        let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(
            !dir.path().join("r").exists(),
            "{args:?}: no directory made"
        );
    }
}

/// A run killed with SIGKILL (or stopped with SIGINT or SIGTERM, exit 130) leaves
/// only whole unit files: the rerun warns of no damage and proves the claim.
#[cfg(unix)]
#[test]
fn cli_killed_runs_lose_only_units_in_progress() {
    let dir = tempfile::tempdir().unwrap();
    let (a, g) = small_lists(dir.path());
    for signal in [libc::SIGKILL, libc::SIGINT, libc::SIGTERM] {
        let res = dir.path().join(format!("res{signal}"));
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("wordle-tree"))
            .arg("--answers")
            .arg(&a)
            .arg("--guesses")
            .arg(&g)
            .args(["--quiet", "--threads", "1", "--hard", "check"])
            .args(["--opener", "aback", "--max-guesses", "4", "--results"])
            .arg(&res)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // Wait for the first unit file (or the end of the run), then signal.
        loop {
            let n = std::fs::read_dir(&res).map_or(0, |d| d.count());
            if n > 0 || child.try_wait().unwrap().is_some() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        // SAFETY: signalling our own child by its pid.
        unsafe { libc::kill(child.id() as i32, signal) };
        let status = child.wait().unwrap();
        if signal != libc::SIGKILL {
            assert!(matches!(status.code(), Some(130) | Some(0)), "{status:?}");
        }
        let out = with_lists(&a, &g)
            .args(["--hard", "check", "--opener", "aback", "--max-guesses", "4"])
            .arg("--results")
            .arg(&res)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(!stderr(&out).contains("damaged"), "{}", stderr(&out));
        assert!(
            stdout(&out).contains("PROVED: from aback, every answer is found within 4 guesses"),
            "{}",
            stdout(&out)
        );
    }
}
