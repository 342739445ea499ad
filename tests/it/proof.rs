//! One proof as units (`wordle_tree::jobs::proof`, `solve --results`): shards merge to the
//! monolithic optimum and a tree `verify` accepts; reruns redo only what is missing
//! or damaged; foreign files are refused by name; a merge with missing units writes
//! nothing; cutoff verdicts bracket the exact total; kills lose only units in progress.

use crate::common;

use crate::common::{small_lists, solved_total, stderr, stdout, widest_opener, with_lists};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use wordle_tree::game::{Game, GuessId};
use wordle_tree::jobs::proof::{self, Outcome, Plan, ProofError, Read, Scan, UnitKey, Verdict};
use wordle_tree::search::{Config, Solver};
use wordle_tree::FeedbackTable;

static NEVER: AtomicBool = AtomicBool::new(false);

fn game(seed: u64) -> Game {
    common::seeded_game(seed, 40, 40)
}

fn solver<'a>(game: &'a Game, table: &'a FeedbackTable, hard: bool) -> Solver<'a> {
    let config = Config {
        hard,
        ..Config::default()
    };
    common::small_solver(game, table, config)
}

fn run_shard(
    game: &Game,
    table: &FeedbackTable,
    plan: &Plan,
    dir: &Path,
    shard: (usize, usize),
) -> usize {
    common::proof_shard(game, table, plan, dir, shard, false)
}

fn scan(game: &Game, table: &FeedbackTable, plan: &Plan, dir: &Path) -> Scan {
    proof::scan_dir(game, table, plan, dir).unwrap()
}

#[test]
fn four_shards_merge_to_the_monolithic_total_and_a_valid_tree() {
    for hard in [false, true] {
        for seed in 1..=4u64 {
            let game = game(seed * 7 + hard as u64);
            let table = FeedbackTable::build(&game);
            let g = widest_opener(&game, &table);
            let (want, _) = solver(&game, &table, hard)
                .solve_opener(g, &|_, _, _| {})
                .unwrap();
            let dir = tempfile::tempdir().unwrap();
            let plan = Plan::new(&game, &table, g, hard, 6, None).unwrap();
            let solved: usize = (1..=4)
                .map(|i| run_shard(&game, &table, &plan, dir.path(), (i, 4)))
                .sum();
            assert_eq!(solved, plan.units.len(), "every unit once");
            match proof::merge(&game, &plan, &scan(&game, &table, &plan, dir.path())).unwrap() {
                Verdict::Proved { total, tree } => {
                    assert_eq!(total, want, "seed {seed} hard {hard}");
                    let replay = tree.verify(&game);
                    assert!(replay.is_valid(), "{:?}", replay.problems);
                    assert_eq!(replay.total(), want);
                }
                v => panic!("seed {seed}: {v:?}"),
            }
        }
    }
}

#[test]
fn rerun_redoes_only_the_missing_units() {
    let game = game(3);
    let table = FeedbackTable::build(&game);
    let g = widest_opener(&game, &table);
    let plan = Plan::new(&game, &table, g, false, 6, None).unwrap();
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(
        run_shard(&game, &table, &plan, dir.path(), (1, 1)),
        plan.units.len()
    );
    // As after a killed run: some files never written.
    let gone: Vec<usize> = vec![0, 2, plan.units.len() - 1];
    for &i in &gone {
        std::fs::remove_file(plan.path(dir.path(), i)).unwrap();
    }
    let v = proof::merge(&game, &plan, &scan(&game, &table, &plan, dir.path())).unwrap();
    match v {
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
    assert!(matches!(
        proof::merge(&game, &plan, &scan(&game, &table, &plan, dir.path())).unwrap(),
        Verdict::Proved { .. }
    ));
}

#[test]
fn damaged_unit_files_are_redone() {
    let game = game(5);
    let table = FeedbackTable::build(&game);
    let g = widest_opener(&game, &table);
    let plan = Plan::new(&game, &table, g, false, 6, None).unwrap();
    let dir = tempfile::tempdir().unwrap();
    run_shard(&game, &table, &plan, dir.path(), (1, 1));
    // Truncated, a digit of the cost edited (checksum no longer matches), and a
    // consistent-looking edit with a fixed checksum but a wrong cost.
    let p0 = plan.path(dir.path(), 0);
    let text = std::fs::read_to_string(&p0).unwrap();
    std::fs::write(&p0, &text[..text.len() / 2]).unwrap();
    let p1 = plan.path(dir.path(), 1);
    let text = std::fs::read_to_string(&p1).unwrap();
    std::fs::write(&p1, text.replace("result exact ", "result exact 1")).unwrap();
    // Garbage under a unit-like name that is no unit of this plan: left alone.
    std::fs::write(dir.path().join("unit.GGGGG.txt"), "junk\n").unwrap();
    let s = scan(&game, &table, &plan, dir.path());
    assert_eq!(s.damaged.len(), 2, "{:?}", s.damaged);
    assert_eq!(s.strays.len(), 1, "{:?}", s.strays);
    assert_eq!(s.done.len(), plan.units.len() - 2);
    assert_eq!(run_shard(&game, &table, &plan, dir.path(), (1, 1)), 2);
    let s = scan(&game, &table, &plan, dir.path());
    assert!(s.damaged.is_empty());
    assert!(matches!(
        proof::merge(&game, &plan, &s).unwrap(),
        Verdict::Proved { .. }
    ));
}

#[test]
fn unit_with_a_wrong_subtree_is_damaged_even_with_a_good_checksum() {
    let game = game(6);
    let table = FeedbackTable::build(&game);
    let g = widest_opener(&game, &table);
    let plan = Plan::new(&game, &table, g, false, 6, None).unwrap();
    let dir = tempfile::tempdir().unwrap();
    run_shard(&game, &table, &plan, dir.path(), (1, 1));
    // Re-encode unit 0's record with a cost one too low: the checksum is right, but
    // the subtree does not achieve it.
    let s = scan(&game, &table, &plan, dir.path());
    let mut rec = s.done[&0].clone();
    if let Outcome::Exact(v, _) = &mut rec.outcome {
        *v -= 1;
    }
    let path = plan.path(dir.path(), 0);
    std::fs::write(&path, proof::encode_record(&game, &plan, 0, &rec)).unwrap();
    assert!(matches!(
        proof::read_record(&game, &table, &plan, &path).unwrap(),
        Read::Damaged(_)
    ));
}

#[test]
fn foreign_unit_files_are_refused_by_name() {
    let game = game(8);
    let table = FeedbackTable::build(&game);
    let g = widest_opener(&game, &table);
    let plan = Plan::new(&game, &table, g, false, 6, None).unwrap();
    let dir = tempfile::tempdir().unwrap();
    run_shard(&game, &table, &plan, dir.path(), (1, 1));
    let unit = plan.units[0].key.file_name();
    let other_game = self::game(9);
    let other_table = FeedbackTable::build(&other_game);
    let other_opener = GuessId::new((g.index() + 1) % game.n_guesses());
    let others = [
        (
            "opener",
            Plan::new(&game, &table, other_opener, false, 6, None).unwrap(),
        ),
        ("mode", Plan::new(&game, &table, g, true, 6, None).unwrap()),
        (
            "cutoff",
            Plan::new(&game, &table, g, false, 6, Some(100_000)).unwrap(),
        ),
        (
            "max_guesses",
            Plan::new(&game, &table, g, false, 5, None).unwrap(),
        ),
        (
            "list",
            Plan::new(
                &other_game,
                &other_table,
                widest_opener(&other_game, &other_table),
                false,
                6,
                None,
            )
            .unwrap(),
        ),
    ];
    for (what, other) in &others {
        let d = tempfile::tempdir().unwrap();
        let (og, ot) = if *what == "list" {
            (&other_game, &other_table)
        } else {
            (&game, &table)
        };
        run_shard(og, ot, other, d.path(), (1, 1));
        let src = d.path().join(other.units[0].key.file_name());
        let dst = dir.path().join(&unit);
        std::fs::copy(&src, &dst).unwrap();
        match proof::scan_dir(&game, &table, &plan, dir.path()) {
            Err(e @ ProofError::Foreign(..)) => {
                let msg = e.to_string();
                assert!(msg.contains(&unit), "{what}: {msg}");
            }
            r => panic!("{what}: {r:?}"),
        }
    }
    // Another format version, with a good checksum: refused too.
    let s = proof::encode_record(&game, &plan, 0, &scan_one(&game, &table, &plan));
    let body = s[..s.rfind("end ").unwrap()].replace("unit v1\n", "unit v9\n");
    let mut h = wordle_tree::game::Fnv::new();
    h.bytes(body.as_bytes());
    std::fs::write(
        dir.path().join(&unit),
        format!("{body}end {:016x}\n", h.finish()),
    )
    .unwrap();
    let e = proof::scan_dir(&game, &table, &plan, dir.path()).unwrap_err();
    assert!(e.to_string().contains("format version 9"), "{e}");
}

/// A good record of unit 0 (solved again in a scratch directory).
fn scan_one(game: &Game, table: &FeedbackTable, plan: &Plan) -> proof::Record {
    let d = tempfile::tempdir().unwrap();
    run_shard(game, table, plan, d.path(), (1, 1));
    scan(game, table, plan, d.path()).done[&0].clone()
}

#[test]
fn cutoff_verdicts_bracket_the_exact_total() {
    for seed in [11u64, 12, 13] {
        let game = game(seed);
        let table = FeedbackTable::build(&game);
        let g = widest_opener(&game, &table);
        let (exact, _) = solver(&game, &table, false)
            .solve_opener(g, &|_, _, _| {})
            .unwrap();
        for cutoff in [exact / 2, exact - 3, exact, exact + 1, exact + 50] {
            let plan = Plan::new(&game, &table, g, false, 6, Some(cutoff)).unwrap();
            let dir = tempfile::tempdir().unwrap();
            for i in 1..=3 {
                run_shard(&game, &table, &plan, dir.path(), (i, 3));
            }
            let s = scan(&game, &table, &plan, dir.path());
            match proof::merge(&game, &plan, &s).unwrap() {
                Verdict::Proved { total, .. } => assert_eq!(total, exact, "cutoff {cutoff}"),
                Verdict::AtLeast { bound, .. } => {
                    assert!(cutoff <= exact, "a bound over the exact total {exact}");
                    assert!(
                        bound >= cutoff && bound <= exact,
                        "{bound} vs {cutoff}..{exact}"
                    );
                }
                v => panic!("cutoff {cutoff}: {v:?}"),
            }
        }
    }
}

#[test]
fn an_interrupted_run_writes_no_unit() {
    let game = game(4);
    let table = FeedbackTable::build(&game);
    let g = widest_opener(&game, &table);
    let plan = Plan::new(&game, &table, g, false, 6, None).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let stop = AtomicBool::new(true);
    let s = solver(&game, &table, false).with_stop(&stop);
    let mut sc = scan(&game, &table, &plan, dir.path());
    let todo = plan.shard(1, 1);
    let r = proof::run_units(
        &s,
        &table,
        &plan,
        dir.path(),
        &mut sc,
        &todo,
        &[],
        &stop,
        &|_| {},
    );
    assert!(matches!(r, Err(ProofError::Solve(_))), "{r:?}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn unit_keys_round_trip_finer_steps_included() {
    for text in [
        "BBBBB",
        "GYBBG",
        "BBBBB arose:BYBBB",
        "YBBBB cling:BBGBB pudgy:GGBBY",
    ] {
        let key = UnitKey::parse(text).unwrap();
        assert_eq!(key.text(), text);
    }
    let key = UnitKey::parse("BBBBB arose:BYBBB").unwrap();
    assert_eq!(key.file_name(), "unit.BBBBB.arose-BYBBB.txt");
    for bad in [
        "",
        "bbbbb",
        "BBBB",
        "BBBBB arose",
        "BBBBB arose:BYB",
        "BBBBB 12345:BBBBB",
    ] {
        assert!(UnitKey::parse(bad).is_none(), "{bad}");
    }
}

// ---- through the binary ----

#[test]
fn cli_four_shard_processes_then_merge_equal_solve_and_verify() {
    let dir = tempfile::tempdir().unwrap();
    let (a, g) = small_lists(dir.path());
    let want = solved_total(&a, &g, "aback");
    let res = dir.path().join("res");
    let children: Vec<std::process::Child> = (1..=4)
        .map(|i| {
            std::process::Command::new(assert_cmd::cargo::cargo_bin("wordle-tree"))
                .arg("--answers")
                .arg(&a)
                .arg("--guesses")
                .arg(&g)
                .args(["--quiet", "solve", "--opener", "aback", "--results"])
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
    let tree = dir.path().join("t.tree");
    let out = with_lists(&a, &g)
        .args(["solve", "--opener", "aback", "--merge", "--results"])
        .arg(&res)
        .arg("--out")
        .arg(&tree)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let s = stdout(&out);
    assert!(
        s.contains(&format!("PROVED: opener aback, total {want} guesses")),
        "{s}"
    );
    let v = with_lists(&a, &g)
        .arg("verify")
        .arg(&tree)
        .output()
        .unwrap();
    assert_eq!(v.status.code(), Some(0));
    assert!(
        stdout(&v).contains(&format!("total {want} guesses")),
        "{}",
        stdout(&v)
    );
}

#[test]
fn cli_merge_with_missing_units_lists_them_exits_2_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (a, g) = small_lists(dir.path());
    let res = dir.path().join("res");
    with_lists(&a, &g)
        .args(["solve", "--opener", "aback", "--results"])
        .arg(&res)
        .args(["--shard", "1/3"])
        .assert()
        .code(0);
    let tree = dir.path().join("t.tree");
    let out = with_lists(&a, &g)
        .args(["solve", "--opener", "aback", "--merge", "--results"])
        .arg(&res)
        .arg("--out")
        .arg(&tree)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let e = stderr(&out);
    assert!(e.contains("units missing, no tree written"), "{e}");
    // "N of M units missing ...: KEY, KEY, ...": N = M minus the files written, every
    // missing key listed and none of the done ones.
    let files: Vec<String> = std::fs::read_dir(&res)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
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
        .rsplit("): ")
        .next()
        .unwrap()
        .split(", ")
        .collect();
    assert_eq!(listed.len(), nums[0], "{e}");
    for k in listed {
        assert!(
            !files.contains(&format!("unit.{k}.txt")),
            "{k} is done: {e}"
        );
    }
    assert!(!tree.exists());
}

#[test]
fn cli_refuses_a_foreign_unit_file_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let (a, g) = small_lists(dir.path());
    let res = dir.path().join("res");
    with_lists(&a, &g)
        .args(["solve", "--opener", "aback", "--results"])
        .arg(&res)
        .assert()
        .code(0);
    let out = with_lists(&a, &g)
        .args(["--hard", "solve", "--opener", "aback", "--results"])
        .arg(&res)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let e = stderr(&out);
    assert!(
        e.contains("unit.") && e.contains("'mode normal', not 'mode hard'"),
        "{e}"
    );
}

/// A run killed with SIGKILL (or stopped with SIGINT or SIGTERM, exit 130) leaves only whole unit
/// files; the rerun finishes and merges to the same total.
#[cfg(unix)]
#[test]
fn cli_killed_runs_lose_only_units_in_progress() {
    let dir = tempfile::tempdir().unwrap();
    let (a, g) = small_lists(dir.path());
    let plain = with_lists(&a, &g)
        .args(["--hard", "solve", "--opener", "aback"])
        .output()
        .unwrap();
    let want = stdout(&plain)
        .lines()
        .find_map(|l| {
            l.strip_prefix("total ")
                .map(|r| r.split(' ').next().unwrap().to_string())
        })
        .unwrap();
    for signal in [libc::SIGKILL, libc::SIGINT, libc::SIGTERM] {
        let res = dir.path().join(format!("res{signal}"));
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("wordle-tree"))
            .arg("--answers")
            .arg(&a)
            .arg("--guesses")
            .arg(&g)
            .args([
                "--quiet",
                "--threads",
                "1",
                "--hard",
                "solve",
                "--opener",
                "aback",
            ])
            .arg("--results")
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
        // Every file present is whole: no damaged-unit warning on the rerun.
        let out = with_lists(&a, &g)
            .args(["--hard", "solve", "--opener", "aback", "--results"])
            .arg(&res)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(!stderr(&out).contains("damaged"), "{}", stderr(&out));
        assert!(
            stdout(&out).contains(&format!("PROVED: opener aback, total {want} guesses")),
            "{}",
            stdout(&out)
        );
    }
}

/// A game and opener with a unit large enough to keep a journal, and that unit.
fn journal_game(seed: u64) -> (Game, GuessId) {
    let mut rng = common::Rng(seed);
    let game = common::random_game(&mut rng, 400, 150);
    let table = FeedbackTable::build(&game);
    let ids = game.all_answer_ids();
    // The opener whose largest bucket is largest: a unit of many candidates.
    let g = (0..game.n_guesses())
        .map(GuessId::new)
        .max_by_key(|&g| {
            let parts = wordle_tree::game::candidates::partition(&table, g, &ids);
            parts.iter().map(|(_, b)| b.len()).max().unwrap_or(0)
        })
        .unwrap();
    (game, g)
}

/// Solves unit 0 with a fresh solver and the journal found in `dir`.
fn solve_journaled(game: &Game, table: &FeedbackTable, plan: &Plan, dir: &Path) -> (Outcome, u64) {
    let s = solver(game, table, false);
    let (j, damaged) = proof::Journal::open(game, plan, dir, 0).unwrap();
    assert_eq!(damaged, None);
    let o = proof::solve_unit(&s, table, &plan.units[0], u32::MAX / 2, &NEVER, Some(&j)).unwrap();
    j.flush();
    (o, s.counters().expansions)
}

#[test]
fn a_journaled_unit_resumes_from_any_part_of_its_journal() {
    use wordle_tree::search::Settled;
    let (game, g) = journal_game(11);
    let table = FeedbackTable::build(&game);
    let plan = Plan::new(&game, &table, g, false, 6, None).unwrap();
    let unit = &plan.units[0];
    assert!(
        unit.ids.len() >= proof::JOURNAL_MIN,
        "{} candidates",
        unit.ids.len()
    );
    // The reference: the unit's exact cost by a fresh search with no journal.
    let plain = solver(&game, &table, false);
    let want = plain
        .cost_below(&unit.ids, unit.left, &unit.revealed, u32::MAX / 2, None)
        .unwrap() as u64;

    // A first run writes the journal of every guess it settled at the unit's top.
    let first = tempfile::tempdir().unwrap();
    let (o, full_expansions) = solve_journaled(&game, &table, &plan, first.path());
    assert!(
        matches!(o, Outcome::Exact(v, _) if v == want),
        "{o:?} vs {want}"
    );
    let part = plan.part_path(first.path(), 0);
    let (j, _) = proof::Journal::open(&game, &plan, first.path(), 0).unwrap();
    let entries: Vec<(GuessId, Settled)> = j.known().iter().map(|(g, s)| (*g, *s)).collect();
    assert!(
        entries.len() > 1,
        "{} entries in {}",
        entries.len(),
        part.display()
    );
    assert!(entries.iter().any(|(_, s)| matches!(s, Settled::Exact(_))));

    // Reruns from the whole journal, every other entry, and trivial bounds only: the
    // same exact cost each time, and the whole journal saves expansions.
    let subsets: [(&str, Vec<(GuessId, Settled)>); 3] = [
        ("whole", entries.clone()),
        ("every other", entries.iter().copied().step_by(2).collect()),
        (
            "weak bounds",
            entries
                .iter()
                .map(|&(g, _)| (g, Settled::AtLeast(1)))
                .collect(),
        ),
    ];
    for (name, subset) in subsets {
        let dir = tempfile::tempdir().unwrap();
        let (j, _) = proof::Journal::open(&game, &plan, dir.path(), 0).unwrap();
        for &(g, s) in &subset {
            j.record(g, s);
        }
        j.flush();
        assert!(j.error().is_none());
        drop(j);
        let (o, expansions) = solve_journaled(&game, &table, &plan, dir.path());
        match &o {
            Outcome::Exact(v, node) => {
                assert_eq!(*v, want, "{name}");
                let c = proof::subtree_cost(&table, node, &unit.ids, unit.left);
                assert_eq!(c, Some(want), "{name}");
            }
            other => panic!("{name}: {other:?}"),
        }
        if name == "whole" {
            assert!(
                expansions < full_expansions,
                "{expansions} vs {full_expansions}"
            );
        }
    }
}

#[test]
fn a_journal_of_another_proof_is_refused_and_a_damaged_one_ignored() {
    use wordle_tree::search::Settled;
    let (game, g) = journal_game(12);
    let table = FeedbackTable::build(&game);
    let plan = Plan::new(&game, &table, g, false, 6, None).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (j, _) = proof::Journal::open(&game, &plan, dir.path(), 0).unwrap();
    j.record(GuessId::new(0), Settled::AtLeast(5));
    j.flush();
    drop(j);
    let part = plan.part_path(dir.path(), 0);
    let text = std::fs::read_to_string(&part).unwrap();
    assert!(
        text.contains(&format!("guess {} at_least 5", game.guesses[0])),
        "{text}"
    );
    // The same unit of a proof with a cutoff: refused by name.
    let other = Plan::new(&game, &table, g, false, 6, Some(1_000_000)).unwrap();
    match proof::Journal::open(&game, &other, dir.path(), 0) {
        Err(ProofError::Foreign(p, why)) => {
            assert_eq!(p, part);
            assert!(why.contains("cutoff"), "{why}");
        }
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("a foreign journal was read"),
    }
    // Truncated: ignored, the unit starts over.
    std::fs::write(&part, &text[..text.len() - 5]).unwrap();
    let (j, damaged) = proof::Journal::open(&game, &plan, dir.path(), 0).unwrap();
    assert!(damaged.is_some());
    assert!(j.known().is_empty());
    // A whole run removes the journal with its unit's file written.
    drop(j);
    let mut sc = scan(&game, &table, &plan, dir.path());
    let s = solver(&game, &table, false);
    proof::run_units(
        &s,
        &table,
        &plan,
        dir.path(),
        &mut sc,
        &[0],
        &[],
        &NEVER,
        &|_| {},
    )
    .unwrap();
    assert!(!part.exists());
    assert!(plan.path(dir.path(), 0).exists());
}

/// The claim name of unit `i` (`BBBBB.txt`: its claim is `claim.BBBBB.txt`).
fn claim_name(plan: &Plan, i: usize) -> String {
    let name = plan.units[i].key.file_name();
    name.strip_prefix("unit.").unwrap_or(&name).to_string()
}

/// A claimer of `dir` as a live process on another host.
fn other_host(dir: &Path, pid: u32) -> wordle_tree::store::claim::Claimer {
    use wordle_tree::store::claim::{Claimer, Holder, LEASE};
    let h = Holder {
        host: "elsewhere".into(),
        pid,
        start: 0,
        task: String::new(),
    };
    Claimer::with_holder(dir, h, LEASE)
}

/// The guesses each journal of unit 0 in `dir` holds.
fn journal_guesses(
    game: &Game,
    plan: &Plan,
    dir: &Path,
) -> Vec<(std::path::PathBuf, Vec<GuessId>)> {
    let mut out = Vec::new();
    for path in proof::journal::parts(plan, dir, 0) {
        if !path.exists() {
            continue;
        }
        let (j, damaged) = proof::Journal::open_at(game, plan, 0, path.clone()).unwrap();
        assert_eq!(damaged, None);
        out.push((path, j.known().keys().copied().collect()));
    }
    out
}

/// The game of [`journal_game`] with its plan, and unit 0's exact cost by a plain
/// search (what every split of it must give).
fn split_unit(seed: u64) -> (Game, FeedbackTable, Plan, u32) {
    let (game, g) = journal_game(seed);
    let table = FeedbackTable::build(&game);
    let plan = Plan::new(&game, &table, g, false, 6, None).unwrap();
    let unit = &plan.units[0];
    let want = solver(&game, &table, false)
        .cost_below(&unit.ids, unit.left, &unit.revealed, u32::MAX / 2, None)
        .unwrap();
    (game, table, plan, want)
}

/// The claim files in `dir`.
fn claims_in(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("claim."))
        .collect()
}

/// Runs passes of unit 0 (claiming as `claims`, journaling to `part`) until one is
/// whole; its value.
fn passes_until_whole(
    game: &Game,
    table: &FeedbackTable,
    plan: &Plan,
    dir: &Path,
    claims: &wordle_tree::store::claim::Claimer,
    part: std::path::PathBuf,
) -> u32 {
    let s = solver(game, table, false);
    let (j, _) = proof::Journal::open_at(game, plan, 0, part).unwrap();
    let name = claim_name(plan, 0);
    loop {
        let r = proof::split::pass(&s, plan, dir, 0, claims, &name, u32::MAX / 2, &j).unwrap();
        if let Some(v) = r {
            return v;
        }
        proof::split::wait_for_slices(dir, &name, std::time::Duration::from_secs(1), &NEVER);
    }
}

#[test]
fn a_split_unit_gives_the_plain_cost_and_each_guess_is_searched_once() {
    let (game, table, plan, want) = split_unit(11);
    let dir = tempfile::tempdir().unwrap();
    let name = claim_name(&plan, 0);
    let (a, b) = (other_host(dir.path(), 1), other_host(dir.path(), 2));
    // B holds the first slice (the best guesses): A's pass settles the rest only.
    let first = proof::split::slice_name(&name, 0);
    assert_eq!(b.claim(&first).unwrap(), None);
    let s = solver(&game, &table, false);
    let part_a = proof::journal::joiner_part(&plan, dir.path(), 0, "a");
    let (ja, _) = proof::Journal::open_at(&game, &plan, 0, part_a.clone()).unwrap();
    let r = proof::split::pass(&s, &plan, dir.path(), 0, &a, &name, u32::MAX / 2, &ja).unwrap();
    assert_eq!(r, None, "a pass with a slice held elsewhere is partial");
    drop(ja);
    // Then B searches its slice (and reads the rest from A's journal): whole, and A's
    // next pass is whole from the journals alone.
    b.release(&first);
    let part_b = proof::journal::joiner_part(&plan, dir.path(), 0, "b");
    let vb = passes_until_whole(&game, &table, &plan, dir.path(), &b, part_b);
    let va = passes_until_whole(&game, &table, &plan, dir.path(), &a, part_a.clone());
    assert_eq!((va, vb), (want, want));
    // No guess in two journals, both searched some, and no slice claim is left.
    let parts = journal_guesses(&game, &plan, dir.path());
    assert_eq!(parts.len(), 2, "{parts:?}");
    assert!(parts.iter().all(|(_, gs)| !gs.is_empty()), "{parts:?}");
    let mut all: Vec<GuessId> = parts.iter().flat_map(|(_, gs)| gs.clone()).collect();
    let n = all.len();
    all.sort();
    all.dedup();
    assert_eq!(all.len(), n, "a guess searched twice");
    let claims = claims_in(dir.path());
    assert!(claims.is_empty(), "{claims:?}");
    // An interrupted pass stops with the error and leaves no claim either.
    let stop = AtomicBool::new(true);
    let s = solver(&game, &table, false).with_stop(&stop);
    let fresh = tempfile::tempdir().unwrap();
    let part = proof::journal::joiner_part(&plan, fresh.path(), 0, "c");
    let (j, _) = proof::Journal::open_at(&game, &plan, 0, part).unwrap();
    let r = proof::split::pass(&s, &plan, fresh.path(), 0, &a, &name, u32::MAX / 2, &j);
    assert!(matches!(r, Err(ProofError::Solve(_))), "{r:?}");
    assert_eq!(claims_in(fresh.path()), Vec::<String>::new());
}

#[test]
fn a_killed_slice_is_taken_over_without_searching_its_settled_guesses_again() {
    use wordle_tree::search::Settled;
    use wordle_tree::store::claim::{Claimer, Holder, LEASE};
    let (game, table, plan, want) = split_unit(11);
    // A reference run's journal: the guesses a killed process had settled, as it
    // flushed them, are every other entry of it in guess order, but not the unit's
    // best guess (so the live process has to search the killed one's slice).
    let reference = tempfile::tempdir().unwrap();
    let (o, _) = solve_journaled(&game, &table, &plan, reference.path());
    assert!(matches!(o, Outcome::Exact(..)), "{o:?}");
    let (done, _) = proof::Journal::open(&game, &plan, reference.path(), 0).unwrap();
    let half: Vec<(GuessId, Settled)> = done
        .known()
        .iter()
        .map(|(g, s)| (*g, *s))
        .collect::<std::collections::BTreeMap<_, _>>()
        .into_iter()
        .step_by(2)
        .filter(|&(_, s)| s != Settled::Exact(want))
        .collect();
    assert!(!half.is_empty());
    let dir = tempfile::tempdir().unwrap();
    let dead_part = proof::journal::joiner_part(&plan, dir.path(), 0, "killed");
    let (dead, _) = proof::Journal::open_at(&game, &plan, 0, dead_part).unwrap();
    for &(g, s) in &half {
        dead.record(g, s);
    }
    dead.flush();
    drop(dead);
    // Its slice claim stays behind: a process of this host that is gone.
    let me = Holder::this_process(|_| None);
    let gone = Holder {
        pid: u32::MAX - 7,
        start: 1,
        ..me
    };
    let killed = Claimer::with_holder(dir.path(), gone, LEASE);
    let name = claim_name(&plan, 0);
    let first = proof::split::slice_name(&name, 0);
    assert_eq!(killed.claim(&first).unwrap(), None);
    std::mem::forget(killed); // as SIGKILL: no release
                              // A live process takes the slice over and settles the unit; none of the guesses
                              // the killed one settled is in its journal.
    let live = Claimer::new(dir.path());
    let part = proof::journal::joiner_part(&plan, dir.path(), 0, "live");
    let v = passes_until_whole(&game, &table, &plan, dir.path(), &live, part.clone());
    assert_eq!(v, want);
    let (j, _) = proof::Journal::open_at(&game, &plan, 0, part).unwrap();
    // An exact cost is never searched again. A bound is a fact too, but it rules its
    // guess out only when it reaches the cutoff the guess is met with; one below it
    // (the killed process met the guess under a higher cutoff) is searched again,
    // and what that finds must agree with it.
    let value = |s: &Settled| match *s {
        Settled::Exact(v) | Settled::AtLeast(v) => v,
    };
    for (g, s) in &half {
        match (s, j.known().get(g)) {
            (_, None) => {}
            (Settled::Exact(_), Some(again)) => panic!("{g:?} {s:?} searched again: {again:?}"),
            (Settled::AtLeast(b), Some(again)) => {
                assert!(value(again) >= *b, "{g:?} {s:?} {again:?}")
            }
        }
    }

    drop(live);
    assert!(!dir.path().join(format!("claim.{first}")).exists());
}

#[test]
fn shards_that_split_a_large_unit_give_the_serial_total_and_tree() {
    let (game, g) = journal_game(13);
    let table = FeedbackTable::build(&game);
    let plan = Plan::new(&game, &table, g, false, 6, None).unwrap();
    assert!(plan.units[0].ids.len() >= proof::JOURNAL_MIN);
    let serial = tempfile::tempdir().unwrap();
    run_shard(&game, &table, &plan, serial.path(), (1, 1));
    let (want, want_tree) =
        match proof::merge(&game, &plan, &scan(&game, &table, &plan, serial.path())).unwrap() {
            Verdict::Proved { total, tree } => (total, tree),
            other => panic!("{other:?}"),
        };
    for count in [2, 3] {
        let dir = tempfile::tempdir().unwrap();
        std::thread::scope(|sc| {
            for i in 1..=count {
                let (game, table, plan, dir) = (&game, &table, &plan, dir.path());
                sc.spawn(move || common::proof_shard(game, table, plan, dir, (i, count), true));
            }
        });
        match proof::merge(&game, &plan, &scan(&game, &table, &plan, dir.path())).unwrap() {
            Verdict::Proved { total, tree } => {
                assert_eq!(total, want, "{count} shards");
                assert!(tree.verify(&game).is_valid());
                assert!(tree == want_tree, "{count} shards: another tree");
            }
            other => panic!("{count} shards: {other:?}"),
        }
        let left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("claim.") || n.starts_with("part."))
            .collect();
        assert!(left.is_empty(), "{count} shards left {left:?}");
    }
}
