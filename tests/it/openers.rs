//! `openers`: the ranking equals solving every opener on random small games; shards
//! partition the list; reruns resume; bad result files and bad input get clear errors.

use crate::common;
use assert_cmd::Command;
use common::Rng;
use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;
use wordle_tree::game::GuessId;
use wordle_tree::jobs::openers::{
    self, OpenersDir as ResultsDir, Outcome, Ranking, Record, Settings, Shard,
};
use wordle_tree::search::{Config, Solver};
use wordle_tree::{FeedbackTable, Game, ListSource, Word};

/// 20-60 answers from the default answers; 100-300 allowed guesses.
fn random_game(seed: u64) -> Game {
    common::sampled_game(seed, 20..61, 100..301)
}

/// The reference: every opener solved exactly, no cutoff.
fn reference(game: &Game, table: &FeedbackTable, hard: bool) -> BTreeMap<GuessId, u64> {
    let solver = Solver::new(
        game,
        table,
        Config {
            hard,
            ..Config::default()
        },
    );
    (0..game.n_guesses())
        .map(GuessId::new)
        .map(|g| {
            let total = solver
                .solve_opener(g, &|_, _, _| {})
                .map(|(t, _)| t)
                .unwrap_or(u64::MAX);
            (g, total)
        })
        .collect()
}

fn settings(hard: bool, cutoff: Option<u64>, top: usize) -> Settings {
    Settings {
        hard,
        max_guesses: 6,
        cutoff,
        top,
        prepass: 4,
        threads: 2,
        memory_limit: 64 << 20,
        exact: false,
        feasibility_scans: openers::FEASIBILITY_SCANS,
    }
}

fn run(game: &Game, table: &FeedbackTable, dir: &ResultsDir, s: &Settings) -> openers::Summary {
    let all = openers::all_openers(game);
    openers::run(
        crate::common::at(game, table, &all, &all, dir, &AtomicBool::new(false)),
        s,
    )
    .unwrap()
}

fn check_against_reference(hard: bool, seeds: std::ops::Range<u64>) {
    for seed in seeds {
        let game = random_game(seed);
        let table = FeedbackTable::build(&game);
        let truth = reference(&game, &table, hard);
        let top = 1 + seed as usize % 3;
        let tmp = tempfile::tempdir().unwrap();
        let dir = ResultsDir::open(tmp.path(), &game, hard, 6).unwrap();
        let summary = run(&game, &table, &dir, &settings(hard, None, top));
        let scan = dir.scan().unwrap();
        assert!(scan.warnings.is_empty(), "{:?}", scan.warnings);
        assert_eq!(scan.records.len(), game.n_guesses(), "seed {seed}");
        for (g, r) in &scan.records {
            match r.outcome {
                Outcome::CannotFinish => panic!("seed {seed} {}: every opener finishes", r.opener),
                Outcome::Exact(v) => assert_eq!(v, truth[g], "seed {seed} {}", r.opener),
                Outcome::AtLeast(lb) => {
                    assert!(
                        truth[g] >= lb,
                        "seed {seed} {}: {} < {lb}",
                        r.opener,
                        truth[g]
                    )
                }
            }
        }
        // The proven top K (with ties) is the reference's top K.
        let mut sorted: Vec<(u64, Word)> = truth
            .iter()
            .map(|(&g, &t)| (t, game.guesses[g.index()]))
            .collect();
        sorted.sort();
        let kth = sorted[top - 1].0;
        let expected: Vec<(u64, Word)> = sorted.into_iter().filter(|x| x.0 <= kth).collect();
        let ranking = Ranking::new(&game, &openers::all_openers(&game), &scan.records);
        let got: Vec<(u64, Word)> = ranking
            .exact
            .iter()
            .copied()
            .filter(|x| x.0 <= kth)
            .collect();
        assert_eq!(got, expected, "seed {seed} hard {hard}");
        assert!(ranking.proves_top(expected.len()), "seed {seed}");
        assert_eq!(summary.cutoff, Some(kth + 1), "seed {seed}");
    }
}

#[test]
fn ranking_equals_solving_every_opener_normal() {
    check_against_reference(false, 1..4);
}

#[test]
fn ranking_equals_solving_every_opener_hard() {
    check_against_reference(true, 11..13);
}

#[test]
fn fixed_cutoff_solves_exactly_every_opener_below_it() {
    let game = random_game(7);
    let table = FeedbackTable::build(&game);
    let truth = reference(&game, &table, false);
    let best = *truth.values().min().unwrap();
    let cutoff = best + 6;
    let tmp = tempfile::tempdir().unwrap();
    let dir = ResultsDir::open(tmp.path(), &game, false, 6).unwrap();
    run(&game, &table, &dir, &settings(false, Some(cutoff), 1));
    for (g, r) in dir.scan().unwrap().records {
        if truth[&g] < cutoff {
            assert_eq!(r.outcome, Outcome::Exact(truth[&g]));
        } else {
            assert!(matches!(r.outcome, Outcome::AtLeast(lb) if lb >= cutoff && lb <= truth[&g]));
        }
    }
}

#[test]
fn shards_cover_every_opener_exactly_once() {
    let list: Vec<GuessId> = (0..103).map(GuessId).collect();
    for n in 1..=7 {
        let mut seen = vec![0; list.len()];
        for i in 1..=n {
            for g in Shard::parse(&format!("{i}/{n}")).unwrap().select(&list) {
                seen[g.index()] += 1;
            }
        }
        assert!(seen.iter().all(|&c| c == 1), "n = {n}");
    }
    for bad in ["0/3", "4/3", "x", "1/0", "1/", "/2", "a/b"] {
        let e = Shard::parse(bad).unwrap_err().to_string();
        assert!(e.contains("bad shard") && e.contains(bad), "{bad}: {e}");
    }
}

#[test]
fn rerun_skips_finished_files_and_gives_the_same_table() {
    let game = random_game(21);
    let table = FeedbackTable::build(&game);
    let tmp = tempfile::tempdir().unwrap();
    let dir = ResultsDir::open(tmp.path(), &game, false, 6).unwrap();
    let all = openers::all_openers(&game);
    let first = run(&game, &table, &dir, &settings(false, None, 2));
    let table1 = Ranking::new(&game, &all, &dir.scan().unwrap().records).table(40, 2);
    let again = run(&game, &table, &dir, &settings(false, None, 2));
    assert!(again.computed.is_empty());
    assert_eq!(again.reused, game.n_guesses());
    let table2 = Ranking::new(&game, &all, &dir.scan().unwrap().records).table(40, 2);
    assert_eq!(table1, table2);
    assert_eq!(first.cutoff, again.cutoff);
    // One file lost: only that opener is searched again.
    std::fs::remove_file(dir.file(GuessId(5))).unwrap();
    let third = run(&game, &table, &dir, &settings(false, None, 2));
    assert_eq!(third.computed.len(), 1);
    assert_eq!(third.computed[0].opener, game.guesses[5]);
}

#[test]
fn bounds_proved_under_a_larger_cutoff_decide_a_smaller_one() {
    let game = random_game(33);
    let table = FeedbackTable::build(&game);
    let truth = reference(&game, &table, false);
    let best = *truth.values().min().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let dir = ResultsDir::open(tmp.path(), &game, false, 6).unwrap();
    run(&game, &table, &dir, &settings(false, Some(best + 20), 1));
    let smaller = run(&game, &table, &dir, &settings(false, Some(best + 1), 1));
    assert!(
        smaller.computed.is_empty(),
        "a smaller cutoff reuses everything"
    );
    // A larger cutoff re-searches exactly the openers whose bound is below it.
    let records = dir.scan().unwrap().records;
    let larger = best + 40;
    let undecided = records
        .values()
        .filter(|r| !r.decides(Some(larger)))
        .count();
    let rerun = run(&game, &table, &dir, &settings(false, Some(larger), 1));
    assert_eq!(rerun.computed.len(), undecided);
    assert!(
        undecided > 0,
        "the test needs openers between the two cutoffs"
    );
}

#[test]
fn malformed_result_file_is_named_and_replaced() {
    let game = random_game(41);
    let table = FeedbackTable::build(&game);
    let tmp = tempfile::tempdir().unwrap();
    let dir = ResultsDir::open(tmp.path(), &game, false, 6).unwrap();
    let bad = dir.file(GuessId(3));
    std::fs::write(&bad, "opener=oops\nresult=exact\n").unwrap();
    let scan = dir.scan().unwrap();
    assert_eq!(scan.warnings.len(), 1);
    let name = bad.file_name().unwrap().to_string_lossy().into_owned();
    assert!(scan.warnings[0].contains(&name), "{}", scan.warnings[0]);
    assert!(scan.warnings[0].contains("malformed result file"));
    let summary = run(&game, &table, &dir, &settings(false, None, 1));
    assert_eq!(summary.warnings.len(), 1);
    assert!(dir.scan().unwrap().warnings.is_empty(), "rewritten");
    // A file named for another opener is refused too.
    let other = std::fs::read_to_string(dir.file(GuessId(4))).unwrap();
    std::fs::write(dir.file(GuessId(3)), other).unwrap();
    assert!(dir.scan().unwrap().warnings[0].contains("is named for"));
}

#[test]
fn record_round_trips_and_rejects_a_bound_below_its_cutoff() {
    let r = Record {
        opener: Word::parse("salet").unwrap(),
        list: "wordle".into(),
        checksum: 0x1234,
        hard: true,
        max_guesses: 6,
        outcome: Outcome::AtLeast(8000),
        cutoff: Some(7921),
        seconds: 1.5,
        cpu_seconds: 1.25,
        states: 99,
        max_depth: None,
    };
    let back = Record::decode(&r.encode(), "x".as_ref()).unwrap();
    assert_eq!(back, r);
    let text = r.encode().replace("at-least 8000", "at-least 7000");
    let e = Record::decode(&text, "x".as_ref()).unwrap_err().to_string();
    assert!(e.starts_with("x: malformed result file"), "{e}");
}

#[test]
fn interrupted_run_writes_nothing() {
    let game = random_game(51);
    let table = FeedbackTable::build(&game);
    let tmp = tempfile::tempdir().unwrap();
    let dir = ResultsDir::open(tmp.path(), &game, false, 6).unwrap();
    let all = openers::all_openers(&game);
    let stop = AtomicBool::new(true);
    let s = settings(false, None, 1);
    let r = openers::run(
        crate::common::at(&game, &table, &all, &all, &dir, &stop),
        &s,
    );
    assert!(
        matches!(
            r,
            Err(openers::OpenersError::Solve(
                wordle_tree::search::SolveError::Interrupted
            ))
        ),
        "an interrupted run is Err(Interrupted)"
    );
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
}

fn cli() -> Command {
    Command::cargo_bin("wordle-tree").unwrap()
}

#[test]
fn cli_rejects_bad_shards_and_unreadable_opener_files() {
    for bad in ["0/3", "4/3", "x"] {
        let out = cli()
            .args(["openers", "--quiet", "--shard", bad])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("bad shard"), "{bad}: {err}");
    }
    let out = cli()
        .args(["openers", "--openers", "/nonexistent/openers.txt"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/nonexistent/openers.txt"), "{err}");
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("o.txt");
    std::fs::write(&file, "salet\n\nqqqqq\n").unwrap();
    let out = cli()
        .args(["openers", "--openers"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("o.txt:3: opener 'qqqqq' is not in the allowed guesses"),
        "{err}"
    );
}

/// Answer and guess files of a small game in `dir`: 30 answers of the wordle lists, and
/// 100 of its guesses (130 openers in all).
fn small_lists(dir: &std::path::Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let full = Game::load(&ListSource::Named("wordle".into())).unwrap();
    let words = |ws: &[Word]| ws.iter().map(|w| format!("{w}\n")).collect::<String>();
    let a = dir.join("a.txt");
    let g = dir.join("g.txt");
    std::fs::write(&a, words(&full.answers[..30])).unwrap();
    std::fs::write(&g, words(&full.guesses[3000..3100])).unwrap();
    (a, g)
}

/// Runs `openers --quiet --results res EXTRA` on the answer and guess files `a` and
/// `g`; it must succeed. Its output.
fn openers_on(
    a: &std::path::Path,
    g: &std::path::Path,
    res: &std::path::Path,
    extra: &[&str],
) -> String {
    let out = cli()
        .arg("--answers")
        .arg(a)
        .arg("--guesses")
        .arg(g)
        .args(["openers", "--quiet", "--results"])
        .arg(res)
        .args(extra)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// One opener reads as one: "1 opener searched", "exact over the 1 opener", never
/// "1 openers".
#[test]
fn one_opener_is_counted_in_the_singular() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, g) = small_lists(tmp.path());
    let first = std::fs::read_to_string(&a).unwrap();
    let first = first.lines().next().unwrap().to_string();
    let list = tmp.path().join("one.txt");
    std::fs::write(&list, format!("{first}\n")).unwrap();
    let res = tmp.path().join("res");
    let out = openers_on(
        &a,
        &g,
        &res,
        &["--exact", "--openers", list.to_str().unwrap()],
    );
    assert!(out.contains("; 1 opener; results in"), "{out}");
    assert!(out.contains("1 opener searched, 0 reused"), "{out}");
    assert!(
        out.contains("PROVED: the ranking above is exact over the 1 opener\n"),
        "{out}"
    );
    assert!(!out.contains("1 openers"), "{out}");
    // Two openers, one shown: the other is "1 more opener" with an exact total, or
    // "1 opener proved worse" when a worker took it after the shown one had set the
    // cutoff (two workers race for the two; seen once under a loaded machine), or
    // both are shown when they tie.
    let two = tmp.path().join("two.txt");
    let second = std::fs::read_to_string(&a).unwrap();
    let second = second.lines().nth(1).unwrap().to_string();
    std::fs::write(&two, format!("{first}\n{second}\n")).unwrap();
    let out = openers_on(
        &a,
        &g,
        &tmp.path().join("res2"),
        &["--top", "1", "--openers", two.to_str().unwrap()],
    );
    let rows = out.lines().filter(|l| l.starts_with("    ")).count();
    if rows == 1 {
        assert!(
            out.contains("\n1 more opener has an exact total (")
                || out.contains("\n1 opener proved worse: cost at least "),
            "{out}"
        );
    }
    assert!(
        !out.contains("1 openers") && !out.contains("openers more"),
        "{out}"
    );
}

#[test]
fn cli_runs_resumes_and_merges_on_custom_lists() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, g) = small_lists(tmp.path());
    let res = tmp.path().join("res");
    let go = |extra: &[&str]| openers_on(&a, &g, &res, &[&["--top", "2"][..], extra].concat());
    let one = go(&["--shard", "1/2"]);
    assert!(one.contains("have no result yet"), "{one}");
    go(&["--shard", "2/2"]);
    let merged = go(&["--merge"]);
    assert!(merged.contains("PROVED"), "{merged}");
    // The openers beyond the rows shown, counted in the right number.
    // (The line is there only when more openers are exact than the rows shown.)
    if let Some(more) = merged.lines().find(|l| l.contains(" more opener")) {
        let n: usize = more.split(' ').next().unwrap().parse().unwrap();
        let said = if n == 1 {
            "1 more opener has an exact total ("
        } else {
            " more openers have exact totals ("
        };
        assert!(more.contains(said), "{merged}");
    }
    let rerun = go(&[]);
    assert!(rerun.contains("0 openers searched, 130 reused"), "{rerun}");
    let table = |s: &str| s[s.find(" rank").unwrap()..].to_string();
    assert_eq!(table(&merged), table(&rerun));
}

/// `--exact` takes openers with the same letters as one group on one worker (so the
/// transposition table answers their shared all-gray bucket): on games whose guesses
/// hold several such groups (`least`, `slate`, `stale`, `steal`, `tales`, ...), every
/// opener's total is still the one a fresh solver proves, on one thread and on two
/// (whose workers share their tables), in both modes.
#[test]
fn exact_totals_with_letter_groups_equal_fresh_solves() {
    let full = Game::load(&ListSource::Named("wordle".into())).unwrap();
    let letters = |w: &Word| {
        let mut l = w.0;
        l.sort_unstable();
        l
    };
    for seed in 1..=3u64 {
        let mut rng = Rng(seed * 7027);
        let n = 25 + rng.below(15);
        let answers = rng.pick(&full.answers, n);
        // Guesses: a few words and every allowed word with the same letters as one.
        let seeds = rng.pick(&full.answers, 6);
        let mut guesses: Vec<Word> = full
            .guesses
            .iter()
            .filter(|g| seeds.iter().any(|s| letters(s) == letters(g)))
            .copied()
            .collect();
        guesses.extend(rng.pick(&full.guesses, 20));
        let game = Game::from_words(&answers, &guesses);
        let table = FeedbackTable::build(&game);
        // Hard mode too: two workers share their transposition tables.
        for hard in [false, true] {
            let truth = reference(&game, &table, hard);
            for threads in [1, 2] {
                let tmp = tempfile::tempdir().unwrap();
                let dir = ResultsDir::open(tmp.path(), &game, hard, 6).unwrap();
                let s = Settings {
                    exact: true,
                    threads,
                    ..settings(hard, None, 1)
                };
                run(&game, &table, &dir, &s);
                let scan = dir.scan().unwrap();
                assert_eq!(scan.records.len(), game.n_guesses(), "seed {seed}");
                for (g, r) in &scan.records {
                    assert_eq!(
                        r.outcome,
                        Outcome::Exact(truth[g]),
                        "seed {seed}, hard {hard}, {threads} threads, {}",
                        r.opener
                    );
                }
            }
        }
    }
}

/// `--random N --seed S` keeps N openers drawn with the seed: the same N on every
/// run with that seed (the result files name them), another draw with another seed;
/// `--random 0` and `--random` with `--sample` are refused.
#[test]
fn cli_random_sample_is_repeatable() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, g) = small_lists(tmp.path());
    let drawn = |name: &str, extra: &[&str]| {
        let res = tmp.path().join(name);
        openers_on(&a, &g, &res, &[&["--exact"][..], extra].concat());
        let mut names: Vec<String> = std::fs::read_dir(&res)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let first = drawn("r1", &["--random", "7", "--seed", "3"]);
    assert_eq!(first.len(), 7, "{first:?}");
    assert_eq!(first, drawn("r2", &["--random", "7", "--seed", "3"]));
    assert_ne!(first, drawn("r3", &["--random", "7", "--seed", "4"]));
    for bad in [&["--random", "0"][..], &["--random", "3", "--sample", "2"]] {
        let out = cli()
            .args(["openers", "--quiet"])
            .args(bad)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
    }
}

/// `--exact` in hard mode with the feasibility pre-pass cut short: whether the
/// pre-pass settles an opener (no limit), gives up on its first scan (1), or settles
/// only closed forms (0), every opener's outcome is the brute-force optimum, or
/// `cannot-finish` where no tree finds every answer in time (3 and 4 guesses, so
/// both kinds occur).
#[test]
fn exact_hard_outcomes_match_brute_force_under_any_feasibility_budget() {
    use wordle_tree::game::hard::Revealed;
    use wordle_tree::search::bound::INFEASIBLE;
    use wordle_tree::search::Objective;
    let obj = Objective::total();
    let mut kinds = [0usize; 2];
    for seed in 0..4u64 {
        let mut rng = Rng(seed + 4021);
        let max = [3u8, 4][seed as usize % 2];
        let (a, g) = (14 + rng.below(14), 4 + rng.below(6));
        let game = common::random_game(&mut rng, a, g);
        let table = FeedbackTable::build(&game);
        let ids = game.all_answer_ids();
        let truth: BTreeMap<GuessId, u64> = (0..game.n_guesses())
            .map(GuessId::new)
            .map(|opener| {
                let word = game.guesses[opener.index()];
                let mut total = 0;
                for (f, b) in wordle_tree::game::candidates::partition(&table, opener, &ids) {
                    total += if f.is_all_green() {
                        1
                    } else {
                        let r = Some(Revealed::default().after(word, f));
                        common::brute(&game, &table, &obj, max, &b, 2, r)
                    };
                }
                (opener, total)
            })
            .collect();
        for t in truth.values() {
            kinds[usize::from(*t >= INFEASIBLE as u64)] += 1;
        }
        for scans in [u64::MAX, 1, 0] {
            let tmp = tempfile::tempdir().unwrap();
            let dir = ResultsDir::open(tmp.path(), &game, true, max).unwrap();
            let s = Settings {
                max_guesses: max,
                exact: true,
                threads: 1,
                feasibility_scans: scans,
                ..settings(true, None, 1)
            };
            run(&game, &table, &dir, &s);
            let scan = dir.scan().unwrap();
            assert_eq!(scan.records.len(), game.n_guesses(), "seed {seed}");
            for (g, r) in &scan.records {
                let want = if truth[g] >= INFEASIBLE as u64 {
                    Outcome::CannotFinish
                } else {
                    Outcome::Exact(truth[g])
                };
                assert_eq!(r.outcome, want, "seed {seed}, scans {scans}, {}", r.opener);
            }
        }
    }
    assert!(
        kinds[0] > 0 && kinds[1] > 0,
        "both outcomes occur: {kinds:?}"
    );
}
