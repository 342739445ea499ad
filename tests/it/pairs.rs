//! `pair --best` (`wordle_tree::jobs::pairs`): the sweep's best pair against the
//! minimum over every pair by exhaustive `pair_value` (itself tested against brute
//! force in `analysis.rs`) on small random games, both modes, with and without the
//! first guesses' totals as floors; serial, sharded and resumed sweeps agree; the
//! count bound against `pair_bound`; `pair_below` against `pair_value`; the command.

use crate::common::{cli, lose_half, tiny_game};
use crate::common::{random_game, Rng};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use wordle_tree::analysis::pair::{
    pair_below, pair_bound, pair_value, second_bounds, small_bucket_floor,
};
use wordle_tree::game::{Game, GuessId};
use wordle_tree::jobs::openers::all_openers;
use wordle_tree::jobs::pairs::{self, Floors, Outcome, PairsDir, Record, Settings, Verdict};
use wordle_tree::search::bound::INFEASIBLE;
use wordle_tree::search::{Config, OpenerCost, Solver};
use wordle_tree::store::results::Shard;
use wordle_tree::{FeedbackTable, Word};

static NEVER: AtomicBool = AtomicBool::new(false);

fn config(max: u8, hard: bool) -> Config {
    Config {
        max_guesses: max,
        hard,
        memory_limit: 64 << 20,
        ..Config::default()
    }
}

/// Every pair's exact total (`None`: cannot finish), by `pair_value`.
fn every_pair(game: &Game, table: &FeedbackTable, max: u8, hard: bool) -> Vec<Vec<Option<u64>>> {
    let solver = Solver::new(game, table, config(max, hard));
    (0..game.n_guesses())
        .map(|a| {
            (0..game.n_guesses())
                .map(|b| {
                    pair_value(&solver, table, GuessId::new(a), GuessId::new(b))
                        .unwrap()
                        .total
                })
                .collect()
        })
        .collect()
}

/// The verdict the exhaustive evaluation gives: the least total and every pair.
fn want_verdict(game: &Game, all: &[Vec<Option<u64>>]) -> Verdict {
    let Some(m) = all.iter().flatten().flatten().min().copied() else {
        return Verdict::NoneFinishes;
    };
    let mut pairs: Vec<(Word, Word)> = Vec::new();
    for (a, row) in all.iter().enumerate() {
        for (b, v) in row.iter().enumerate() {
            if *v == Some(m) {
                pairs.push((game.guesses[a], game.guesses[b]));
            }
        }
    }
    Verdict::Best {
        value: m,
        by: pairs,
    }
}

/// The first guesses' exact opener totals, as an opener table would give them.
fn floors(game: &Game, table: &FeedbackTable, max: u8, hard: bool) -> Floors {
    let solver = Solver::new(game, table, config(max, hard));
    all_openers(game)
        .into_iter()
        .map(|g| match solver.opener_cost(g, None).unwrap() {
            OpenerCost::Exact(v) | OpenerCost::AtLeast(v) if v >= INFEASIBLE as u64 => {
                Some(u64::MAX)
            }
            OpenerCost::Exact(v) => Some(v),
            OpenerCost::AtLeast(_) => unreachable!("no cutoff"),
        })
        .collect()
}

fn sweep_into(
    game: &Game,
    table: &FeedbackTable,
    floors: Option<&Floors>,
    dir: &Path,
    shard: Shard,
    s: &Settings,
) -> pairs::Summary {
    let all = all_openers(game);
    let mine = shard.select(&all);
    let d = PairsDir::open(dir, game, s.hard, s.max_guesses).unwrap();
    pairs::sweep(
        crate::common::at(game, table, &all, &mine, &d, &NEVER),
        floors,
        s,
    )
    .unwrap()
}

fn records(game: &Game, dir: &Path, s: &Settings) -> BTreeMap<GuessId, Record> {
    PairsDir::open(dir, game, s.hard, s.max_guesses)
        .unwrap()
        .scan()
        .unwrap()
        .0
}

fn settings(max: u8, hard: bool, threads: usize, cutoff: Option<u64>) -> Settings {
    Settings {
        hard,
        max_guesses: max,
        cutoff,
        threads,
        memory_limit: 64 << 20,
    }
}

/// Sorted pairs, for comparing verdicts whatever order records were read in.
fn sorted(v: Verdict) -> Verdict {
    match v {
        Verdict::Best { value, mut by } => {
            by.sort();
            Verdict::Best { value, by }
        }
        Verdict::BestSome { value, mut by } => {
            by.sort();
            Verdict::BestSome { value, by }
        }
        v => v,
    }
}

#[test]
fn count_bounds_equal_pair_bound_for_every_second_guess() {
    let mut early = 0;
    for seed in 0..8u64 {
        let mut rng = Rng(700 + seed);
        let hard = seed % 2 == 1;
        let (a, g) = (10 + rng.below(20), 8 + rng.below(10));
        let game = random_game(&mut rng, a, g);
        let table = FeedbackTable::build(&game);
        for first in all_openers(&game) {
            let got = second_bounds(&game, &table, hard, first, None);
            for (b, &v) in got.iter().enumerate() {
                let want = pair_bound(&game, &table, hard, first, GuessId::new(b));
                assert_eq!(v, want, "seed {seed} hard {hard}");
            }
            // Under a cutoff: exact below it, between it and the bound above.
            let mut sorted = got.clone();
            sorted.sort();
            for c in [
                sorted[0],
                sorted[sorted.len() / 2],
                sorted[sorted.len() - 1] + 1,
            ] {
                let cut = second_bounds(&game, &table, hard, first, Some(c));
                for (b, (&v, &want)) in cut.iter().zip(&got).enumerate() {
                    if v < c {
                        assert_eq!(v, want, "seed {seed} hard {hard} cutoff {c} guess {b}");
                    } else {
                        assert!(want >= v, "seed {seed} hard {hard} cutoff {c} guess {b}");
                    }
                    early += (v < want) as usize;
                }
            }
        }
    }
    assert!(early > 0, "no second guess was left early");
}

#[test]
fn pair_below_is_exact_below_the_cutoff_and_a_bound_above() {
    for seed in 0..10u64 {
        let mut rng = Rng(900 + seed);
        let hard = seed % 2 == 1;
        let max = [3u8, 4, 5, 6, 2][seed as usize % 5];
        let (a, g) = (8 + rng.below(14), 6 + rng.below(8));
        let game = random_game(&mut rng, a, g);
        let table = FeedbackTable::build(&game);
        let reference = Solver::new(&game, &table, config(max, hard));
        let solver = Solver::new(&game, &table, config(max, hard));
        for _ in 0..10 {
            let a = GuessId::new(rng.below(game.n_guesses()));
            let b = GuessId::new(rng.below(game.n_guesses()));
            let want = pair_value(&reference, &table, a, b).unwrap().total;
            let inf = INFEASIBLE as u64;
            let exact = |c: Option<u64>| pair_below(&solver, &table, a, b, c).unwrap().cost;
            match (exact(None), want) {
                (OpenerCost::Exact(v), Some(w)) => assert_eq!(v, w, "seed {seed}"),
                (OpenerCost::Exact(v) | OpenerCost::AtLeast(v), None) => {
                    assert!(v >= inf, "seed {seed}")
                }
                (got, w) => panic!("seed {seed}: {got:?} vs {w:?}"),
            }
            let Some(w) = want else { continue };
            for c in [w.saturating_sub(3), w, w + 1, w + 5] {
                match exact(Some(c)) {
                    OpenerCost::Exact(v) => assert!(v == w && w < c, "seed {seed} cutoff {c}"),
                    OpenerCost::AtLeast(lb) => {
                        assert!(lb >= c && lb <= w && w >= c, "seed {seed} cutoff {c}: {lb}")
                    }
                }
            }
        }
    }
}

#[test]
fn best_pair_sweep_matches_every_pair_evaluated() {
    let (mut dismissed, mut by_floor, mut ties, mut lifted) = (0, 0, 0, 0);
    for seed in 0..12u64 {
        let mut rng = Rng(31337 + seed);
        let hard = seed % 2 == 1;
        let max = [6u8, 4, 3, 5][seed as usize % 4];
        let (a, g) = (8 + rng.below(12), 6 + rng.below(6));
        let game = random_game(&mut rng, a, g);
        let table = FeedbackTable::build(&game);
        let every = every_pair(&game, &table, max, hard);
        let want = want_verdict(&game, &every);
        let fl = floors(&game, &table, max, hard);
        // Level 1b is admissible: never above any pair from that first guess.
        if !hard {
            for (a, row) in every.iter().enumerate() {
                let (Some(total), Some(&least)) = (fl[a], row.iter().flatten().min()) else {
                    continue;
                };
                let f = small_bucket_floor(&table, GuessId::new(a), total);
                assert!(f <= least, "seed {seed}: {f} > {least}");
                lifted += (f > total) as usize;
            }
        }
        for (floors, threads) in [(None, 1), (Some(&fl), 2)] {
            let dir = tempfile::tempdir().unwrap();
            let s = settings(max, hard, threads, None);
            sweep_into(&game, &table, floors, dir.path(), Shard::ALL, &s);
            let recs = records(&game, dir.path(), &s);
            assert_eq!(recs.len(), game.n_guesses(), "seed {seed}");
            let at = format!(
                "seed {seed} max {max} hard {hard} floors {}",
                floors.is_some()
            );
            // Every record is a fact about its first guess.
            for (g, r) in &recs {
                let row = &every[g.index()];
                let least = row.iter().flatten().min().copied();
                match (r.head.outcome, least) {
                    (Outcome::Exact(v), Some(m)) => {
                        assert_eq!(v, m, "{at} {}", r.head.opener);
                        let mut seconds: Vec<Word> = (0..row.len())
                            .filter(|&b| row[b] == Some(m))
                            .map(|b| game.guesses[b])
                            .collect();
                        seconds.sort();
                        assert_eq!(r.best_seconds, seconds, "{at} {}", r.head.opener);
                    }
                    (Outcome::AtLeast(lb), Some(m)) => {
                        assert!(lb <= m, "{at} {}: bound {lb} above {m}", r.head.opener);
                        assert!(r.head.cutoff.is_some_and(|c| lb >= c), "{at}");
                        dismissed += 1;
                        by_floor += (r.levels.seconds == 0) as usize;
                    }
                    (Outcome::AtLeast(_), None) => dismissed += 1,
                    (Outcome::CannotFinish, None) => {}
                    (o, m) => panic!("{at} {}: {o:?} vs {m:?}", r.head.opener),
                }
            }
            let (_, got) = pairs::verdict(&game, &all_openers(&game), &recs);
            assert_eq!(sorted(got.clone()), sorted(want.clone()), "{at}");
            if let Verdict::Best { by: pairs, .. } = got {
                ties += (pairs.len() > 1) as usize;
            }
        }
    }
    assert!(
        dismissed > 20 && by_floor > 0 && ties > 0 && lifted > 0,
        "{dismissed} {by_floor} {ties} {lifted}"
    );
}

#[test]
fn serial_sharded_and_resumed_best_pair_sweeps_agree() {
    for hard in [false, true] {
        let mut rng = Rng(2718 + hard as u64);
        let game = random_game(&mut rng, 16, 10);
        let table = FeedbackTable::build(&game);
        let all = all_openers(&game);
        let s = settings(6, hard, 2, None);
        let verdict =
            |recs: &BTreeMap<GuessId, Record>| sorted(pairs::verdict(&game, &all, recs).1);
        let want = sorted(want_verdict(&game, &every_pair(&game, &table, 6, hard)));
        let serial = tempfile::tempdir().unwrap();
        sweep_into(&game, &table, None, serial.path(), Shard::ALL, &s);
        assert_eq!(verdict(&records(&game, serial.path(), &s)), want);

        // Three shards into one directory, one at a time.
        let sharded = tempfile::tempdir().unwrap();
        for i in 1..=3 {
            let shard = Shard { index: i, count: 3 };
            sweep_into(&game, &table, None, sharded.path(), shard, &s);
        }
        assert_eq!(verdict(&records(&game, sharded.path(), &s)), want);

        // Shards apart, merged by copying the files together.
        let merged = tempfile::tempdir().unwrap();
        for i in 1..=3 {
            let apart = tempfile::tempdir().unwrap();
            let shard = Shard { index: i, count: 3 };
            sweep_into(&game, &table, None, apart.path(), shard, &s);
            assert_eq!(
                verdict(&records(&game, apart.path(), &s)),
                Verdict::Incomplete
            );
            for e in std::fs::read_dir(apart.path()).unwrap() {
                let e = e.unwrap();
                std::fs::copy(e.path(), merged.path().join(e.file_name())).unwrap();
            }
        }
        assert_eq!(verdict(&records(&game, merged.path(), &s)), want);

        // Resumed: half the files gone, one malformed; the rerun reuses the rest.
        lose_half(serial.path(), "first=oops\n");
        let summary = sweep_into(&game, &table, None, serial.path(), Shard::ALL, &s);
        assert!(summary.reused > 0 && !summary.computed.is_empty());
        assert!(summary.warnings.iter().any(|w| w.contains("malformed")));
        let recs = records(&game, serial.path(), &s);
        assert_eq!(recs.len(), game.n_guesses());
        assert_eq!(verdict(&recs), want);

        // A seeded cutoff at the best total proves it, perhaps not every tie.
        if let Verdict::Best { value: total, .. } = want {
            let seeded = tempfile::tempdir().unwrap();
            let s = settings(6, hard, 1, Some(total));
            sweep_into(&game, &table, None, seeded.path(), Shard::ALL, &s);
            let (_, got) = pairs::verdict(&game, &all, &records(&game, seeded.path(), &s));
            assert_eq!(got, Verdict::AtLeast(total));
        }
    }
}

#[test]
fn pair_best_cli_proves_resumes_merges_and_refuses_bad_input() {
    let (dir, answers, guesses) = tiny_game();
    let results = dir.path().join("r");
    let run = |extra: &[&str]| {
        let out = cli()
            .arg("--answers")
            .arg(&answers)
            .arg("--guesses")
            .arg(&guesses)
            .args(["--quiet", "pair", "--best", "--results"])
            .arg(&results)
            .args(extra)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let verdict = |text: &str| {
        text.lines()
            .find(|l| l.starts_with("PROVED:"))
            .unwrap_or_else(|| panic!("{text}"))
            .to_string()
    };
    let (code, first, err) = run(&[]);
    assert_eq!(code, Some(0), "{first}{err}");
    assert!(first.contains("pairs: "), "{first}");
    assert_eq!(std::fs::read_dir(&results).unwrap().count(), 13);
    let (code, again, _) = run(&[]);
    assert_eq!(code, Some(0));
    assert!(again.contains("0 openers searched, 13 reused"), "{again}");
    assert_eq!(verdict(&again), verdict(&first));
    let (code, merged, _) = run(&["--merge"]);
    assert_eq!(code, Some(0));
    assert_eq!(verdict(&merged), verdict(&first));
    // The pair named by the verdict has that total by `pair`.
    let line = verdict(&first);
    let total: u64 = line
        .split("totals ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{line}"));
    let words = line
        .split(": ")
        .nth(2)
        .unwrap()
        .split(" only")
        .next()
        .unwrap();
    let pair: Vec<&str> = words.split(", ").next().unwrap().split(' ').collect();
    let out = cli()
        .arg("--answers")
        .arg(&answers)
        .arg("--guesses")
        .arg(&guesses)
        .args(["pair", pair[0], pair[1]])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!("exact total {total} ")),
        "{line}\n{text}"
    );

    // Bad input: one line, exit 2.
    let (code, _, err) = run(&["--merge", "--shard", "1/2"]);
    assert_eq!(code, Some(2), "{err}");
    let out = cli()
        .args(["pair", "--best", "salet", "courd"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = cli()
        .args(["pair", "--results", "x", "salet", "courd"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// A best-pair file as the build before the shared record head wrote it (fields
/// `first, result, best_seconds, cutoff, levels, seconds, cpu_seconds`) reads back
/// and is written again byte for byte: old results directories resume.
#[test]
fn best_pair_files_of_the_earlier_layout_read_and_rewrite_unchanged() {
    let mut rng = Rng(36);
    let game = random_game(&mut rng, 12, 6);
    let stem = game.guesses[0].to_string();
    let seconds = format!("{},{}", game.guesses[1], game.guesses[2]);
    let fields = [
        ("first", stem.as_str()),
        ("result", "exact 45"),
        ("best_seconds", seconds.as_str()),
        ("cutoff", "46"),
        ("levels", "6 5 0 5"),
        ("seconds", "0.125"),
        ("cpu_seconds", "0.120"),
    ];
    crate::common::stored_text_survives::<Record>(&game, false, 6, &stem, &fields);
    let bound = [
        ("first", stem.as_str()),
        ("result", "at-least 50"),
        ("best_seconds", "-"),
        ("cutoff", "46"),
        ("levels", "0 0 0 0"),
        ("seconds", "0.000"),
        ("cpu_seconds", "0.000"),
    ];
    crate::common::stored_text_survives::<Record>(&game, true, 6, &stem, &bound);
}
