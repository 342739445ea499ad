//! Balance of the per-opener sweeps (`openers --shard`, through
//! `wordle_tree::jobs::driver::balance`): shards sharing a directory, each taking over the
//! others' unstarted openers once its own are done, give the serial table, search no
//! opener twice and leave no claim behind; a shard alone in a directory searches its
//! own openers only; a rerun or a late shard searches nothing finished; a stale claim
//! (its process gone) is taken, a live one is left to its holder. The same for the
//! shards of `check --opener any` (`wordle_tree::jobs::check::sweep_within`).

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use wordle_tree::game::GuessId;
use wordle_tree::jobs::check;
use wordle_tree::jobs::openers::{self, OpenersDir, Outcome, Settings, Shard};
use wordle_tree::store::results::ResultsDir;
use wordle_tree::{FeedbackTable, Game};

static NEVER: AtomicBool = AtomicBool::new(false);

fn game(seed: u64) -> Game {
    common::seeded_game(seed, 30, 20)
}

fn settings() -> Settings {
    Settings {
        hard: false,
        max_guesses: 6,
        cutoff: None,
        top: 1,
        prepass: 0,
        threads: 1,
        memory_limit: 32 << 20,
        exact: true,
        feasibility_scans: wordle_tree::jobs::openers::FEASIBILITY_SCANS,
    }
}

/// Runs shard `index` of `count` in `dir`; the openers it searched.
fn shard(
    game: &Game,
    table: &FeedbackTable,
    dir: &Path,
    (index, count): (usize, usize),
) -> Vec<String> {
    let all = openers::all_openers(game);
    let mine = Shard::parse(&format!("{index}/{count}"))
        .unwrap()
        .select(&all);
    let d = OpenersDir::open(dir, game, false, 6).unwrap();
    let s = openers::run(
        crate::common::at(game, table, &all, &mine, &d, &NEVER),
        &settings(),
    )
    .unwrap();
    s.computed.iter().map(|r| r.opener.to_string()).collect()
}

/// Every opener's exact total as the directory holds it.
fn totals(game: &Game, dir: &Path) -> BTreeMap<GuessId, Outcome> {
    let d = OpenersDir::open(dir, game, false, 6).unwrap();
    let scan = d.scan().unwrap();
    assert!(scan.warnings.is_empty(), "{:?}", scan.warnings);
    scan.records
        .into_iter()
        .map(|(g, r)| (g, r.outcome))
        .collect()
}

fn claims(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| wordle_tree::store::claim::is_claim(n))
        .collect()
}

#[test]
fn balanced_opener_shards_give_the_serial_table_and_search_each_opener_once() {
    for seed in 1..=3u64 {
        let game = game(seed * 13);
        let table = FeedbackTable::build(&game);
        let serial = tempfile::tempdir().unwrap();
        let searched = shard(&game, &table, serial.path(), (1, 1));
        assert_eq!(searched.len(), game.n_guesses());
        assert!(
            claims(serial.path()).is_empty(),
            "a serial run makes no claims"
        );
        let want = totals(&game, serial.path());
        for count in [2, 3] {
            let dir = tempfile::tempdir().unwrap();
            // Shard 1 first, with the directory to itself: its own openers only.
            let first = shard(&game, &table, dir.path(), (1, count));
            let all = openers::all_openers(&game);
            let mine = Shard::parse(&format!("1/{count}")).unwrap().select(&all);
            assert_eq!(first.len(), mine.len(), "seed {seed}: alone, its own only");
            // The rest at once: each takes over the others' unstarted openers.
            let rest: Vec<Vec<String>> = std::thread::scope(|s| {
                let runs: Vec<_> = (2..=count)
                    .map(|i| {
                        let (game, table, dir) = (&game, &table, dir.path());
                        s.spawn(move || shard(game, table, dir, (i, count)))
                    })
                    .collect();
                runs.into_iter().map(|r| r.join().unwrap()).collect()
            });
            let mut every: Vec<&String> = first.iter().chain(rest.iter().flatten()).collect();
            let n = every.len();
            every.sort();
            every.dedup();
            assert_eq!(every.len(), n, "seed {seed} count {count}: searched twice");
            assert_eq!(n, game.n_guesses(), "seed {seed} count {count}");
            assert_eq!(totals(&game, dir.path()), want, "seed {seed} count {count}");
            assert!(claims(dir.path()).is_empty(), "claims left");
            // A late or requeued shard finds everything done: searches nothing.
            assert!(shard(&game, &table, dir.path(), (count, count)).is_empty());
        }
    }
}

#[test]
fn stale_opener_claims_are_taken_and_a_live_one_is_left_to_its_holder() {
    let game = game(7);
    let table = FeedbackTable::build(&game);
    let all = openers::all_openers(&game);
    let mine = Shard::parse("1/2").unwrap().select(&all);
    let word = |g: GuessId| game.guesses[g.index()].to_string();
    let dir = tempfile::tempdir().unwrap();
    let host = {
        let h = wordle_tree::store::claim::Holder::this_process(|_| None);
        h.host
    };
    let plant = |g: GuessId, pid: u32| {
        let p = dir.path().join(format!("claim.{}.txt", word(g)));
        let body = format!("wordle-tree claim 1\nhost {host}\npid {pid}\nstart 0\ntask \ntime 0\n");
        std::fs::write(&p, body).unwrap();
        p
    };
    // A claim of a process gone (on this host): taken, its opener searched.
    let dead = plant(mine[0], u32::MAX - 7);
    // A live holder (this test's own process): left to it.
    let live = plant(mine[1], std::process::id());
    let searched = shard(&game, &table, dir.path(), (1, 2));
    assert!(searched.contains(&word(mine[0])));
    assert!(!searched.contains(&word(mine[1])));
    assert!(!dead.exists());
    assert!(live.exists());
    std::fs::remove_file(&live).unwrap();
    // Its holder gone without a record: a rerun searches it and nothing else.
    let again = shard(&game, &table, dir.path(), (1, 2));
    assert_eq!(again, vec![word(mine[1])]);
}

/// Runs shard `index` of `count` of "some opener finds every answer within `depth`"
/// over every opener in `dir` (every opener settled, no stop at a success).
fn within_shard(
    game: &Game,
    table: &FeedbackTable,
    dir: &Path,
    depth: u8,
    (index, count): (usize, usize),
) -> check::Sweep {
    let all = openers::all_openers(game);
    let mine = Shard::parse(&format!("{index}/{count}"))
        .unwrap()
        .select(&all);
    let others = wordle_tree::jobs::driver::balance::others(&all, &mine);
    let d = ResultsDir::open(dir, check::WITHIN_KIND, game, false, depth).unwrap();
    let (finished, warnings) = check::finished_within(&d).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    check::sweep_within(
        game,
        table,
        &mine,
        &others,
        depth,
        false,
        Some(&d),
        &finished,
        false,
        None,
        &NEVER,
        &|_| {},
    )
    .unwrap()
}

/// Every opener's verdict as the directory holds it.
fn verdicts(game: &Game, dir: &Path, depth: u8) -> BTreeMap<String, bool> {
    let d = ResultsDir::open(dir, check::WITHIN_KIND, game, false, depth).unwrap();
    let (finished, warnings) = check::finished_within(&d).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert!(finished.gave_up.is_empty());
    finished.settled
}

/// The openers a sweep searched (settled, not read back from a record).
fn searched(s: &check::Sweep) -> usize {
    s.settled.len() + s.gave_up.len() - s.reused
}

#[test]
fn balanced_within_shards_give_the_serial_verdicts_and_search_each_opener_once() {
    for seed in 1..=3u64 {
        let game = game(seed * 17);
        let table = FeedbackTable::build(&game);
        let depth = 3;
        let serial = tempfile::tempdir().unwrap();
        let alone = within_shard(&game, &table, serial.path(), depth, (1, 1));
        assert_eq!(searched(&alone), game.n_guesses());
        assert!(
            claims(serial.path()).is_empty(),
            "a serial run makes no claims"
        );
        let want = verdicts(&game, serial.path(), depth);
        assert_eq!(want.len(), game.n_guesses());
        for count in [2, 3] {
            let dir = tempfile::tempdir().unwrap();
            // Shard 1 first, with the directory to itself: its own openers only.
            let first = within_shard(&game, &table, dir.path(), depth, (1, count));
            let all = openers::all_openers(&game);
            let mine = Shard::parse(&format!("1/{count}")).unwrap().select(&all);
            assert_eq!(
                searched(&first),
                mine.len(),
                "seed {seed}: alone, its own only"
            );
            assert_eq!(first.taken_over, 0);
            assert!(first.left.is_empty());
            // The rest at once: each takes over the others' unstarted openers.
            let rest: Vec<check::Sweep> = std::thread::scope(|s| {
                let runs: Vec<_> = (2..=count)
                    .map(|i| {
                        let (game, table, dir) = (&game, &table, dir.path());
                        s.spawn(move || within_shard(game, table, dir, depth, (i, count)))
                    })
                    .collect();
                runs.into_iter().map(|r| r.join().unwrap()).collect()
            });
            let n: usize = searched(&first) + rest.iter().map(searched).sum::<usize>();
            assert_eq!(
                n,
                game.n_guesses(),
                "seed {seed} count {count}: searched twice or not at all"
            );
            // Shard 1 had settled its own; the others shared the rest. An opener one
            // left to another (its claim held at the time) is settled by that one.
            let got = verdicts(&game, dir.path(), depth);
            for r in &rest {
                for g in &r.left {
                    assert!(got.contains_key(game.guesses[g.index()].as_str()));
                }
            }
            assert_eq!(got, want, "seed {seed} count {count}");
            assert!(claims(dir.path()).is_empty(), "claims left");
            // A late or requeued shard finds everything done: searches nothing.
            let late = within_shard(&game, &table, dir.path(), depth, (count, count));
            assert_eq!(searched(&late), 0);
        }
    }
}

#[test]
fn a_within_shard_leaves_an_opener_a_live_process_holds_and_says_so() {
    let game = game(11);
    let table = FeedbackTable::build(&game);
    let depth = 3;
    let all = openers::all_openers(&game);
    let mine = Shard::parse("1/2").unwrap().select(&all);
    let others = wordle_tree::jobs::driver::balance::others(&all, &mine);
    let word = |g: GuessId| game.guesses[g.index()].to_string();
    let dir = tempfile::tempdir().unwrap();
    let host = wordle_tree::store::claim::Holder::this_process(|_| None).host;
    let plant = |g: GuessId| {
        let p = dir.path().join(format!("claim.{}.txt", word(g)));
        let pid = std::process::id();
        let body = format!("wordle-tree claim 1\nhost {host}\npid {pid}\nstart 0\ntask \ntime 0\n");
        std::fs::write(&p, body).unwrap();
        p
    };
    // One of this shard's openers and one of the other shard's, held by a live
    // process (this test's own): the first is left (and said), the second not taken.
    let held = plant(mine[0]);
    let theirs = plant(others[0]);
    // The other shard's work shows in the directory: a record of one of its openers.
    let d = ResultsDir::open(dir.path(), check::WITHIN_KIND, &game, false, depth).unwrap();
    let mut f = wordle_tree::store::results::ResultFile::new(d.header().clone());
    f.set("opener", word(others[1]))
        .set("result", "refuted")
        .set("seconds", "0.001");
    d.write(&word(others[1]), &f).unwrap();
    let s = within_shard(&game, &table, dir.path(), depth, (1, 2));
    assert_eq!(s.left, vec![mine[0]]);
    assert!(!s
        .settled
        .iter()
        .any(|&(g, _)| g == mine[0] || g == others[0]));
    assert_eq!(
        s.taken_over,
        others.len() - 1,
        "every other unheld opener taken over"
    );
    assert!(
        held.exists() && theirs.exists(),
        "live claims are left to their holder"
    );
}
