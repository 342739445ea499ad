//! `openers --best-first` (`wordle_tree::jobs::best_first`): on small random games its
//! top K equals the full exact ranking's (`openers --exact` as the reference), normal
//! and hard; an interrupted run resumes to the same answer; one and two threads agree;
//! shards merge to the global top K; every bound on file is at most the exact total.

use crate::common;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use wordle_tree::game::GuessId;
use wordle_tree::jobs::best_first;
use wordle_tree::jobs::openers::{self, OpenersDir, Outcome, Ranking, Record, Settings, Shard};
use wordle_tree::{FeedbackTable, Game, Word};

static NEVER: AtomicBool = AtomicBool::new(false);

/// 20-50 answers of the default list, 80-200 allowed guesses in all.
fn random_game(seed: u64) -> Game {
    common::sampled_game(seed, 20..51, 80..201)
}

fn settings(hard: bool, top: usize, threads: usize, exact: bool) -> Settings {
    Settings {
        hard,
        max_guesses: 6,
        cutoff: None,
        top,
        prepass: 4,
        threads,
        memory_limit: 64 << 20,
        exact,
        feasibility_scans: wordle_tree::jobs::openers::FEASIBILITY_SCANS,
    }
}

/// The reference: `openers --exact`, every opener's exact total (`None`: cannot finish).
fn reference(game: &Game, table: &FeedbackTable, hard: bool) -> BTreeMap<GuessId, Option<u64>> {
    let tmp = tempfile::tempdir().unwrap();
    let dir = OpenersDir::open(tmp.path(), game, hard, 6).unwrap();
    let all = openers::all_openers(game);
    let s = settings(hard, 1, 2, true);
    openers::run(crate::common::at(game, table, &all, &all, &dir, &NEVER), &s).unwrap();
    let records = dir.scan().unwrap().records;
    assert_eq!(records.len(), all.len());
    records
        .into_iter()
        .map(|(g, r)| match r.outcome {
            Outcome::Exact(v) => (g, Some(v)),
            Outcome::CannotFinish => (g, None),
            Outcome::AtLeast(_) => panic!("--exact left a bound"),
        })
        .collect()
}

/// The reference's top `k`, extended to ties.
fn top_k(game: &Game, truth: &BTreeMap<GuessId, Option<u64>>, k: usize) -> Vec<(u64, Word)> {
    let mut sorted: Vec<(u64, Word)> = truth
        .iter()
        .filter_map(|(&g, &t)| t.map(|t| (t, game.guesses[g.index()])))
        .collect();
    sorted.sort();
    let Some(&(kth, _)) = sorted.get(k - 1) else {
        return sorted;
    };
    sorted.into_iter().filter(|x| x.0 <= kth).collect()
}

#[allow(clippy::too_many_arguments)]
fn best_first_into(
    game: &Game,
    table: &FeedbackTable,
    dir: &OpenersDir,
    mine: &[GuessId],
    s: &Settings,
    step: u64,
    stop: &AtomicBool,
    progress: &(dyn Fn(&best_first::Frontier) + Sync),
) -> Result<best_first::Summary, openers::OpenersError> {
    let all = openers::all_openers(game);
    best_first::run(game, table, &all, mine, dir, s, step, stop, progress)
}

/// The proved top rows of a directory: the ranking's exact rows up to the K-th (with
/// ties), after checking that the ranking proves them and every record is true.
fn proved_top(
    game: &Game,
    records: &BTreeMap<GuessId, Record>,
    truth: &BTreeMap<GuessId, Option<u64>>,
    k: usize,
    what: &str,
) -> Vec<(u64, Word)> {
    for (g, r) in records {
        let w = r.opener;
        match (r.outcome, truth[g]) {
            (Outcome::Exact(v), Some(t)) => {
                assert_eq!(v, t, "{what} {w}");
                assert!(r.max_depth.is_some(), "{what} {w}: exact without depth");
            }
            (Outcome::AtLeast(lb), Some(t)) => assert!(lb <= t, "{what} {w}: {lb} > {t}"),
            (Outcome::CannotFinish, None) | (Outcome::AtLeast(_), None) => {}
            (o, t) => panic!("{what} {w}: {o:?} against {t:?}"),
        }
    }
    let ranking = Ranking::new(game, &openers::all_openers(game), records);
    assert!(ranking.missing.is_empty(), "{what}: {:?}", ranking.missing);
    let shown = ranking.shown(k);
    assert!(ranking.proves_top(shown), "{what}: not proved");
    ranking.exact[..shown].to_vec()
}

fn equals_reference(hard: bool, seeds: std::ops::Range<u64>) {
    for seed in seeds {
        let game = random_game(seed);
        let table = FeedbackTable::build(&game);
        let truth = reference(&game, &table, hard);
        let k = 1 + seed as usize % 4;
        let want = top_k(&game, &truth, k);
        let all = openers::all_openers(&game);
        // A small step (many refinements per opener) and the default one.
        for step in [2, best_first::default_step(&game)] {
            let tmp = tempfile::tempdir().unwrap();
            let dir = OpenersDir::open(tmp.path(), &game, hard, 6).unwrap();
            let s = settings(hard, k, 2, false);
            let sum =
                best_first_into(&game, &table, &dir, &all, &s, step, &NEVER, &|_| {}).unwrap();
            let what = format!("seed {seed} hard {hard} k {k} step {step}");
            let got = proved_top(&game, &dir.scan().unwrap().records, &truth, k, &what);
            assert_eq!(got, want, "{what}");
            assert_eq!(sum.frontier.kth, want.get(k - 1).map(|x| x.0), "{what}");
        }
    }
}

#[test]
fn top_k_equals_the_exact_ranking_normal() {
    equals_reference(false, 1..5);
}

#[test]
fn top_k_equals_the_exact_ranking_hard() {
    equals_reference(true, 11..14);
}

#[test]
fn an_interrupted_run_resumes_to_the_same_answer_and_threads_agree() {
    for (seed, hard) in [(21, false), (22, true)] {
        let game = random_game(seed);
        let table = FeedbackTable::build(&game);
        let truth = reference(&game, &table, hard);
        let k = 2;
        let want = top_k(&game, &truth, k);
        let all = openers::all_openers(&game);
        let step = 3;
        // Serial and two threads, each whole.
        let mut whole = Vec::new();
        for threads in [1, 2] {
            let tmp = tempfile::tempdir().unwrap();
            let dir = OpenersDir::open(tmp.path(), &game, hard, 6).unwrap();
            let s = settings(hard, k, threads, false);
            let sum =
                best_first_into(&game, &table, &dir, &all, &s, step, &NEVER, &|_| {}).unwrap();
            let what = format!("seed {seed} threads {threads}");
            let got = proved_top(&game, &dir.scan().unwrap().records, &truth, k, &what);
            assert_eq!(got, want, "{what}");
            whole.push(sum.computed.len());
        }
        // Stopped after half the refinements of the serial run, then resumed.
        let tmp = tempfile::tempdir().unwrap();
        let dir = OpenersDir::open(tmp.path(), &game, hard, 6).unwrap();
        let s = settings(hard, k, 1, false);
        let stop = AtomicBool::new(false);
        let seen = AtomicUsize::new(0);
        let half = whole[0] / 2;
        assert!(half > 0);
        let r = best_first_into(&game, &table, &dir, &all, &s, step, &stop, &|_| {
            if seen.fetch_add(1, Ordering::Relaxed) + 1 >= half {
                stop.store(true, Ordering::Relaxed);
            }
        });
        assert!(
            matches!(
                r,
                Err(openers::OpenersError::Solve(
                    wordle_tree::search::SolveError::Interrupted
                ))
            ),
            "seed {seed}: interrupted"
        );
        let kept = dir.scan().unwrap().records;
        assert!(!kept.is_empty(), "seed {seed}");
        let again = best_first_into(&game, &table, &dir, &all, &s, step, &NEVER, &|_| {}).unwrap();
        let records = dir.scan().unwrap().records;
        let got = proved_top(&game, &records, &truth, k, &format!("seed {seed} resumed"));
        assert_eq!(got, want, "seed {seed} resumed");
        // The resumed run starts from the bounds on file: it does not redo the work.
        assert!(
            again.computed.len() < whole[0],
            "seed {seed}: {} refinements after resuming, {} whole",
            again.computed.len(),
            whole[0]
        );
        // Every bound on file still at least what the first half proved.
        for (g, r) in &kept {
            if let (Outcome::AtLeast(a), Outcome::AtLeast(b)) = (r.outcome, records[g].outcome) {
                assert!(
                    b >= a,
                    "seed {seed} {}: bound fell from {a} to {b}",
                    r.opener
                );
            }
        }
    }
}

#[test]
fn shards_merge_to_the_global_top_k() {
    let game = random_game(31);
    let table = FeedbackTable::build(&game);
    let truth = reference(&game, &table, false);
    let k = 3;
    let all = openers::all_openers(&game);
    let tmp = tempfile::tempdir().unwrap();
    for n in [1, 2, 3] {
        let path = tmp.path().join(format!("n{n}"));
        let dir = OpenersDir::open(&path, &game, false, 6).unwrap();
        for i in 1..=n {
            let mine = Shard::parse(&format!("{i}/{n}")).unwrap().select(&all);
            let s = settings(false, k, 2, false);
            best_first_into(&game, &table, &dir, &mine, &s, 5, &NEVER, &|_| {}).unwrap();
        }
        let got = proved_top(
            &game,
            &dir.scan().unwrap().records,
            &truth,
            k,
            &format!("{n} shards"),
        );
        assert_eq!(got, top_k(&game, &truth, k), "{n} shards");
    }
}

#[test]
fn other_modes_reuse_best_first_records() {
    // `--exact` after best-first re-searches only the openers left with a bound.
    let game = random_game(41);
    let table = FeedbackTable::build(&game);
    let tmp = tempfile::tempdir().unwrap();
    let dir = OpenersDir::open(tmp.path(), &game, false, 6).unwrap();
    let all = openers::all_openers(&game);
    let s = settings(false, 1, 2, false);
    best_first_into(&game, &table, &dir, &all, &s, 4, &NEVER, &|_| {}).unwrap();
    let records = dir.scan().unwrap().records;
    assert!(dir.scan().unwrap().warnings.is_empty());
    let settled = records.values().filter(|r| r.settles_exactly()).count();
    let exact = settings(false, 1, 2, true);
    let sum = openers::run(
        crate::common::at(&game, &table, &all, &all, &dir, &NEVER),
        &exact,
    )
    .unwrap();
    assert_eq!(sum.reused, settled);
    assert_eq!(sum.computed.len(), all.len() - settled);
}
