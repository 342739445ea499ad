//! `review`: every value against the brute-force optimum on small random games (with
//! and without a tree, normal and hard mode), the summary's identity, and the CLI.

use crate::common;

use assert_cmd::Command;
use common::{brute, random_game, Rng};
use std::sync::atomic::AtomicBool;
use wordle_tree::game::feedback::Feedback;
use wordle_tree::game::hard::Revealed;
use wordle_tree::game::{AnswerId, Game, GuessId};
use wordle_tree::players::play::Step;
use wordle_tree::players::review::{self, Options, Review};
use wordle_tree::search::bound::INFEASIBLE;
use wordle_tree::search::{Config, Objective, Solver};
use wordle_tree::tree::Tree;
use wordle_tree::FeedbackTable;

/// The guess limit of the random games (small, so the brute force stays quick).
const MAX: u8 = 4;

/// The brute-force cost of playing `g` now on `ids` with `left` guesses (`None`: no
/// plan after it finishes in time).
fn brute_guess(
    game: &Game,
    table: &FeedbackTable,
    g: GuessId,
    ids: &[AnswerId],
    left: u8,
    rev: Option<Revealed>,
) -> Option<u64> {
    let max = MAX;
    let word = game.guesses[g.index()];
    let mut total = ids.len() as u64;
    for (f, b) in wordle_tree::game::candidates::partition(table, g, ids) {
        if f.is_all_green() {
            continue;
        }
        let next = rev.map(|r| r.after(word, f));
        let v = brute(
            game,
            table,
            &Objective::total(),
            max,
            &b,
            max + 2 - left,
            next,
        );
        if v >= INFEASIBLE as u64 {
            return None;
        }
        total += v - b.len() as u64 * (max + 1 - left) as u64;
    }
    Some(total)
}

/// The brute-force optimum of a state: least total of guesses from here.
fn brute_state(
    game: &Game,
    table: &FeedbackTable,
    ids: &[AnswerId],
    left: u8,
    rev: Option<Revealed>,
) -> Option<u64> {
    let max = MAX;
    let v = brute(
        game,
        table,
        &Objective::total(),
        max,
        ids,
        max + 1 - left,
        rev,
    );
    // `brute` counts each answer's depth from the start: subtract the guesses played.
    (v < INFEASIBLE as u64).then(|| v - ids.len() as u64 * (max - left) as u64)
}

fn check_identity(r: &Review) {
    let lhs = r.optimal_start().expected() + r.lost().value - r.luck().value;
    assert!(
        (lhs - r.total().value).abs() < 1e-9,
        "start + lost - luck = {lhs}, total {}",
        r.total().value
    );
}

/// A random game: random allowed guesses (hard mode: obeying what was revealed),
/// the tree's guess every other step, against a random answer; stops when solved, after
/// 6 guesses or (sometimes) early.
fn random_history(rng: &mut Rng, game: &Game, tree: &Tree, hard: bool) -> Vec<Step> {
    let answer = game.answers[rng.below(game.n_answers())];
    let stop_at = 1 + rng.below(7);
    let mut steps = Vec::new();
    let mut rev = Revealed::default();
    let mut node = Some(tree.root());
    while steps.len() < stop_at.min(MAX as usize) {
        let g = match node {
            Some(n) if rng.below(2) == 0 => n.guess,
            _ => loop {
                let g = GuessId::new(rng.below(game.n_guesses()));
                if !hard || rev.allows(game.guesses[g.index()]) {
                    break g;
                }
            },
        };
        let word = game.guesses[g.index()];
        let f = Feedback::compute(word, answer);
        steps.push(Step {
            guess: g,
            feedback: f,
        });
        rev = rev.after(word, f);
        node = node.filter(|n| n.guess == g).and_then(|n| n.child(f));
        if f.is_all_green() {
            break;
        }
    }
    steps
}

#[test]
fn review_values_match_the_brute_force_optimum() {
    let stop = AtomicBool::new(false);
    let mut checked = 0;
    for seed in 1..=4u64 {
        let mut rng = Rng(seed * 7919);
        let game = random_game(&mut rng, 8 + (seed % 3) as usize * 2, 10);
        let table = FeedbackTable::build(&game);
        for hard in [false, true] {
            let solver = Solver::new(
                &game,
                &table,
                Config {
                    hard,
                    max_guesses: MAX,
                    ..Config::default()
                },
            );
            let all: Vec<AnswerId> = game.all_answer_ids();
            if solver
                .cost(&all, MAX, &Revealed::default())
                .unwrap()
                .is_none()
            {
                continue; // no tree within MAX guesses
            }
            let tree = Tree::new(
                &game,
                hard,
                MAX,
                solver.build(&all, MAX, &Revealed::default()),
            )
            .expect("a solved tree is valid");
            for _ in 0..3 {
                let steps = random_history(&mut rng, &game, &tree, hard);
                for with_tree in [true, false] {
                    let options = Options {
                        ties: !with_tree,
                        tree_optimal: true,
                        ..Options::default()
                    };
                    let r = review::review(
                        &game,
                        with_tree.then_some(&tree),
                        hard,
                        MAX,
                        &steps,
                        &stop,
                        options,
                    )
                    .unwrap();
                    let ctx = format!("seed {seed} hard {hard} tree {with_tree} {steps:?}");
                    check_identity(&r);
                    let mut rev = Revealed::default();
                    for (i, s) in r.steps.iter().enumerate() {
                        let left = MAX - i as u8;
                        let hr = hard.then_some(rev);
                        let Some(best) = brute_state(&game, &table, &s.candidates, left, hr) else {
                            break;
                        };
                        assert!(s.best_value.is_exact() && s.played.is_exact(), "{ctx}");
                        assert_eq!(s.best_value.hi, best, "best, step {}: {ctx}", i + 1);
                        let Some(played) =
                            brute_guess(&game, &table, s.step.guess, &s.candidates, left, hr)
                        else {
                            break;
                        };
                        assert_eq!(s.played.hi, played, "played, step {}: {ctx}", i + 1);
                        // Optimal only where proved: the root of a tree without an
                        // opener table is not (issue 38).
                        assert_eq!(s.best_proved, !(with_tree && i == 0), "{ctx}");
                        assert_eq!(s.is_optimal(), played == best && s.best_proved, "{ctx}");
                        assert_eq!(s.lost().value == 0.0, played == best, "{ctx}");
                        // Every listed best guess is optimal; in normal mode the list is
                        // the whole tie set.
                        for &g in &s.best {
                            assert_eq!(
                                brute_guess(&game, &table, g, &s.candidates, left, hr),
                                Some(best),
                                "{ctx}"
                            );
                        }
                        if !hard && !with_tree {
                            assert!(s.ties_complete, "{ctx}");
                            let ties: Vec<GuessId> = (0..game.n_guesses())
                                .map(GuessId::new)
                                .filter(|&g| {
                                    brute_guess(&game, &table, g, &s.candidates, left, hr)
                                        == Some(best)
                                })
                                .collect();
                            assert_eq!(s.best, ties, "tie set, step {}: {ctx}", i + 1);
                        }
                        // Luck: the expected candidates left and the bucket left.
                        let word = game.guesses[s.step.guess.index()];
                        let mut sizes = std::collections::HashMap::new();
                        for &a in &s.candidates {
                            *sizes
                                .entry(Feedback::compute(word, game.answers[a.index()]))
                                .or_insert(0usize) += 1;
                        }
                        let n = s.candidates.len() as f64;
                        let e: f64 = sizes.values().map(|&k| (k * k) as f64).sum::<f64>() / n;
                        assert!((s.expected_left - e).abs() < 1e-9, "{ctx}");
                        assert_eq!(s.left, sizes[&s.step.feedback], "{ctx}");
                        rev = rev.after(word, s.step.feedback);
                        checked += 1;
                    }
                }
            }
        }
    }
    eprintln!("{checked} steps checked");
    assert!(checked > 20, "only {checked} steps checked");
}

fn wt() -> Command {
    let mut c = Command::cargo_bin("wordle-tree").unwrap();
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

fn run(args: &[&str]) -> String {
    let out = wt().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn review_on_the_tree_is_exact_and_adds_up() {
    let out = run(&["review", "salet:BYBBY", "tonic:YYBBB", "quota:GGGGG"]);
    assert!(
        out.contains("best:   salet: 3.4212 guesses expected (optimal; other guesses may tie)"),
        "{out}"
    );
    assert!(
        out.contains("played: tonic 2.1905 guesses expected: optimal, 0 guesses lost"),
        "{out}"
    );
    assert!(
        out.contains("summary: optimal from the start 3.4212 guesses expected; lost to choices 0.0000; luck +0.4212; total 3 guesses"),
        "{out}"
    );
    let v: serde_json::Value =
        serde_json::from_str(&run(&["review", "--json", "salet:BYBBY", "tonic:YYBBB"])).unwrap();
    assert_eq!(v["found"], false);
    assert_eq!(v["steps"][0]["candidates"], 2315);
    assert_eq!(v["steps"][0]["best"]["proved_optimal"], true);
    assert_eq!(v["steps"][1]["luck"]["candidates_left"], 1);
    assert_eq!(v["rest"]["candidates"], 1);
    assert_eq!(v["rest"]["best"][0], "quota");
    assert_eq!(v["summary"]["exact"], true);
    // 2 played + 1 to play the last candidate.
    assert_eq!(v["summary"]["total"], 3.0);
}

#[test]
fn review_off_the_tree_counts_the_guesses_lost() {
    // Step 2 leaves the tree (tonic is the tree's guess after salet:BYBBY).
    let v: serde_json::Value = serde_json::from_str(&run(&[
        "review",
        "--json",
        "--ties",
        "salet:BYBBY",
        "tiara:YBBBG",
        "quota:GGGGG",
    ]))
    .unwrap();
    let s2 = &v["steps"][1];
    let best: Vec<&str> = s2["best"]["guesses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g.as_str().unwrap())
        .collect();
    assert!(best.contains(&"tonic") && !best.contains(&"tiara"), "{s2}");
    assert_eq!(s2["played"]["optimal"], false, "{s2}");
    assert!(s2["played"]["lost"].as_f64().unwrap() > 0.0, "{s2}");
    // 21 candidates: small enough for the whole tie set.
    assert_eq!(s2["best"]["all_ties_listed"], true, "{s2}");
    let s3 = &v["steps"][2];
    assert_eq!(s3["best"]["source"], "solver", "{s3}");
    let m = &v["summary"];
    let lhs = m["optimal_start"].as_f64().unwrap() + m["lost_to_choices"].as_f64().unwrap()
        - m["luck"].as_f64().unwrap();
    assert!((lhs - 3.0).abs() < 1e-9, "{m}");
}

#[test]
fn a_value_not_proved_in_time_is_a_range() {
    // audio:YBBBB leaves 435 candidates; with no time the search proves no optimum
    // (`next --time-limit 0 audio:YBBBB` is not proven either).
    let v: serde_json::Value = serde_json::from_str(&run(&[
        "review",
        "--json",
        "--time-limit",
        "0",
        "audio:YBBBB",
    ]))
    .unwrap();
    assert_eq!(v["summary"]["exact"], false, "{v}");
    let rest = &v["rest"];
    assert_eq!(rest["candidates"], 435);
    let range = rest["expected_range"]
        .as_array()
        .expect("a range, not a value");
    let (lo, hi) = (range[0].as_f64().unwrap(), range[1].as_f64().unwrap());
    // 1307 (perst) is the proved optimum of the state.
    assert!(lo < 1307.0 / 435.0 && 1307.0 / 435.0 <= hi, "{rest}");
    assert_eq!(rest["expected"].as_f64().unwrap(), hi);
    // The text says so too.
    let out = run(&["review", "--time-limit", "0", "audio:YBBBB"]);
    assert!(out.contains("(not proved)"), "{out}");
}

/// Issue 13: `--time-limit` was per search, so a review of many states could take
/// many times the limit. Now the deadline is shared by the whole review and no search
/// starts after it: a state is then valued from the least any plan costs (`2n - 1`)
/// to a greedy plan's cost. On small random games, with the deadline already passed,
/// every range holds the exact value and the summary still adds up.
#[test]
fn a_time_limit_is_one_budget_for_the_whole_review() {
    let stop = AtomicBool::new(false);
    let (mut ranged, mut tree_steps) = (0, 0);
    for seed in 1..=4u64 {
        let mut rng = Rng(seed * 104_729);
        let game = random_game(&mut rng, 40, 40);
        let table = FeedbackTable::build(&game);
        for hard in [false, true] {
            let solver = Solver::new(
                &game,
                &table,
                Config {
                    hard,
                    max_guesses: MAX,
                    ..Config::default()
                },
            );
            let all: Vec<AnswerId> = game.all_answer_ids();
            if solver
                .cost(&all, MAX, &Revealed::default())
                .unwrap()
                .is_none()
            {
                continue;
            }
            let tree = Tree::new(
                &game,
                hard,
                MAX,
                solver.build(&all, MAX, &Revealed::default()),
            )
            .unwrap();
            for _ in 0..4 {
                let steps = random_history(&mut rng, &game, &tree, hard);
                let review = |deadline| {
                    let options = Options {
                        deadline,
                        tree_optimal: true,
                        ..Options::default()
                    };
                    review::review(&game, Some(&tree), hard, MAX, &steps, &stop, options).unwrap()
                };
                let exact = review(None);
                let late = review(Some(std::time::Instant::now()));
                let ctx = format!("seed {seed} hard {hard} {steps:?}");
                check_identity(&late);
                for (i, (e, l)) in exact.steps.iter().zip(&late.steps).enumerate() {
                    // Below the root the tree's value is proved optimal: a guess whose
                    // value is only a range cannot make it a range too.
                    if i > 0 && l.best_source == review::BestSource::Tree {
                        assert_eq!(l.best_value, e.best_value, "step {}: {ctx}", i + 1);
                        assert!(l.best_proved, "{ctx}");
                        tree_steps += 1;
                    }
                    for (ev, lv) in [(e.best_value, l.best_value), (e.played, l.played)] {
                        assert!(ev.is_exact(), "{ctx}");
                        assert!(lv.lo <= ev.hi && ev.hi <= lv.hi, "{lv:?} {ev:?}: {ctx}");
                        let n = lv.n as u64;
                        // What no search proved: the bound of any plan, or exact.
                        if !lv.is_exact() {
                            assert!(lv.lo >= 2 * n - 1, "{ctx}");
                            ranged += 1;
                        }
                    }
                    assert!(l.lost().lower <= e.lost().value + 1e-9, "{ctx}");
                    assert!(e.lost().value <= l.lost().upper + 1e-9, "{ctx}");
                }
            }
        }
    }
    assert!(
        ranged > 0,
        "no value was left unproved: the test proves nothing"
    );
    assert!(tree_steps > 0, "no step below the root on the tree");
}

/// The same on the real lists: `--time-limit 0` gives the values off the tree as
/// ranges holding the exact ones, and the 435 candidates after `audio:YBBBB` get the
/// bound of any plan, 869/435, as their proved lower end (no search ran).
#[test]
fn review_time_limit_zero_searches_nothing() {
    let game = ["salet:BBBBB", "fuzzy:BBBBB", "bronc:BBBBB"];
    let review = |limit: Option<&str>| -> serde_json::Value {
        let mut args = vec!["review", "--json"];
        if let Some(l) = limit {
            args.extend(["--time-limit", l]);
        }
        args.extend(game);
        serde_json::from_str(&run(&args)).unwrap()
    };
    let (v, e) = (review(Some("0")), review(None));
    assert_eq!(v["found"], false, "{v}");
    assert_eq!(v["summary"]["exact"], false, "{v}");
    assert_eq!(e["summary"]["exact"], true, "{e}");
    // Step 1 is on the tree: exact either way.
    assert_eq!(v["steps"][0]["played"]["optimal"], true, "{v}");
    let lost = v["summary"]["lost_to_choices_range"]
        .as_array()
        .expect("a range");
    let (lo, hi) = (lost[0].as_f64().unwrap(), lost[1].as_f64().unwrap());
    let exact = e["summary"]["lost_to_choices"].as_f64().unwrap();
    assert!(
        lo <= exact + 1e-12 && exact <= hi + 1e-12,
        "{lo}..{hi}, exact {exact}"
    );
    let v: serde_json::Value = serde_json::from_str(&run(&[
        "review",
        "--json",
        "--time-limit",
        "0",
        "audio:YBBBB",
    ]))
    .unwrap();
    let range = v["rest"]["expected_range"].as_array().expect("a range");
    assert!(
        (range[0].as_f64().unwrap() - 869.0 / 435.0).abs() < 1e-12,
        "{v}"
    );
}

#[test]
fn bad_reviews_are_refused() {
    for (args, msg) in [
        (
            vec!["review", "salet:BBGX"],
            "feedback 'BBGX' has 4 characters",
        ),
        (
            vec!["review", "crane:BBYBB", "salet:GGGGY"],
            "step 2: no answer is consistent with salet:GGGGY after crane:BBYBB",
        ),
        (
            vec!["review", "--time-limit", "soon", "salet:BBBBB"],
            "'soon' is not a number of seconds",
        ),
        // Issue 38: no more guesses than the game has (as `next` and `serve`).
        (
            vec!["review"]
                .into_iter()
                .chain(["salet:BBBBB"; 7])
                .collect(),
            "the history has 7 guesses, more than the 6 the game allows",
        ),
    ] {
        let out = wt().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(msg), "{args:?}: {err}");
    }
}

/// Issue 38: `--hard review salet:BBBBB courd:BBBBB` printed "courd 2.8145..2.8054"
/// and "lost -0.0090": courd's buckets, some beyond the guess limit, were valued with
/// more guesses and compared with the in-limit optimum. A guess that may not finish
/// where the best does is now not optimal, its cost at least the best's; no range is
/// inverted and no loss negative.
#[test]
fn hard_mode_reviews_invert_no_range_and_lose_nothing_below_zero() {
    let v: serde_json::Value = serde_json::from_str(&run(&[
        "--hard",
        "review",
        "--json",
        "salet:BBBBB",
        "courd:BBBBB",
    ]))
    .unwrap();
    let ordered = |r: &serde_json::Value| {
        r.as_array()
            .is_none_or(|r| r[0].as_f64().unwrap() <= r[1].as_f64().unwrap())
    };
    for s in v["steps"].as_array().unwrap() {
        for r in [
            &s["played"]["expected_range"],
            &s["played"]["lost_range"],
            &s["best"]["expected_range"],
            &s["luck"]["gained_range"],
        ] {
            assert!(ordered(r), "{s}");
        }
        assert!(s["played"]["lost"].as_f64().unwrap() >= 0.0, "{s}");
    }
    let s2 = &v["steps"][1];
    assert_eq!(s2["played"]["beyond_limit"], true, "{s2}");
    assert_eq!(s2["played"]["optimal"], false, "{s2}");
    assert!(
        s2["played"]["expected"].as_f64().unwrap() >= s2["best"]["expected"].as_f64().unwrap(),
        "{s2}"
    );
    let out = run(&["--hard", "review", "salet:BBBBB", "courd:BBBBB"]);
    assert!(
        out.contains("not optimal: it may not find the answer"),
        "{out}"
    );
    assert!(!out.contains("-0.0"), "{out}");
    // Step 1 in hard mode: both complete hard tables rank salet first (issue 38).
    assert!(
        out.contains("best:   salet: 3.5084 guesses expected (optimal;"),
        "{out}"
    );
}

/// Issue 38: `--list nyt review --json salet:BBBBB` said salet optimal, 0 lost,
/// exact, though the shipped nyt table proves tarse (7883) better than salet (7894).
#[test]
fn review_of_salet_on_nyt_is_not_called_optimal() {
    let v: serde_json::Value =
        serde_json::from_str(&run(&["--list", "nyt", "review", "--json", "salet:BBBBB"])).unwrap();
    let s1 = &v["steps"][0];
    assert_eq!(s1["played"]["optimal"], false, "{s1}");
    assert_eq!(s1["best"]["guesses"][0], "tarse", "{s1}");
    assert!((s1["played"]["lost"].as_f64().unwrap() - 11.0 / 2309.0).abs() < 1e-12);
    assert!((v["summary"]["optimal_start"].as_f64().unwrap() - 7883.0 / 2309.0).abs() < 1e-12);
    assert_eq!(v["summary"]["exact"], true, "{v}");
    let out = run(&["--list", "nyt", "review", "salet:BBBBB"]);
    assert!(
        out.contains(
            "best:   tarse: 3.4140 guesses expected (optimal: first in the complete opener table"
        ),
        "{out}"
    );
}
