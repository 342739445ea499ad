//! Balance of the per-opener sweeps (`openers --shard`, through
//! `wordle_tree::jobs::driver::balance`): shards sharing a directory, each taking over the
//! others' unstarted openers once its own are done, give the serial table, search no
//! opener twice and leave no claim behind; a shard alone in a directory searches its
//! own openers only; a rerun or a late shard searches nothing finished; a stale claim
//! (its process gone) is taken, a live one is left to its holder.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use wordle_tree::game::GuessId;
use wordle_tree::jobs::openers::{self, OpenersDir, Outcome, Settings, Shard};
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
