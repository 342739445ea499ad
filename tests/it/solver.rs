//! The exact solver against a brute force with no bounds, table or pruning, on random
//! small games, for every objective, in normal and hard mode; plus the invariants
//! serial == parallel and table on == table off, and the tree it builds replays.

use std::sync::Arc;
use wordle_tree::game::candidates::Candidates;
use wordle_tree::game::feedback::Feedback;
use wordle_tree::game::hard::Revealed;
use wordle_tree::game::{AnswerId, Game, GuessId};
use wordle_tree::search::bound::INFEASIBLE;
use wordle_tree::search::{
    Config, Counters, Objective, Solver, CORE_LEFT, DOMINANCE_MIN, LOCAL_MIN, PRESCAN_LEFT,
};
use wordle_tree::tree::Tree;
use wordle_tree::{FeedbackTable, Word};

use crate::common;
use common::{brute, random_game, Rng};

fn objectives(rng: &mut Rng, game: &Game, max: u8) -> Vec<Objective> {
    let d = 1 + rng.below(max as usize - 1) as u8;
    let exempt: Vec<AnswerId> = game.answer_ids().filter(|_| rng.below(4) == 0).collect();
    let exempt = Arc::new(Candidates::from_ids(game.n_answers(), &exempt));
    vec![
        Objective::total(),
        Objective::feasibility(),
        Objective::min_over(d, max),
        Objective::count_over(d, max),
        Objective::within_except(d, max, exempt),
    ]
}

fn check_game(seed: u64, answers: usize, guesses: usize, max: u8, hard: bool) {
    let mut rng = Rng(seed);
    let game = random_game(&mut rng, answers, guesses);
    check_against_brute_force(seed, &mut rng, &game, max, hard);
}

/// The solver (table on and off) against the brute force on `game`, for every
/// objective; for the total, the tree it builds replays to its cost.
fn check_against_brute_force(seed: u64, rng: &mut Rng, game: &Game, max: u8, hard: bool) {
    let table = FeedbackTable::build(game);
    let ids: Vec<AnswerId> = game.all_answer_ids();
    for obj in objectives(rng, game, max) {
        let want = brute(
            game,
            &table,
            &obj,
            max,
            &ids,
            1,
            hard.then(Revealed::default),
        );
        // Table on and off; guess dominance at its default size and on every state;
        // cores (`cores.rs`) looked up and buckets pre-scanned (`expand.rs`) at every
        // depth, where these small games use them; and pre-scans under the root's
        // compact table (built from 4 candidates), whose lane caps stop them early.
        for (use_transpositions, dominance_min, core_left, prescan_left, local_min) in [
            (true, DOMINANCE_MIN, CORE_LEFT, PRESCAN_LEFT, LOCAL_MIN),
            (false, DOMINANCE_MIN, CORE_LEFT, PRESCAN_LEFT, LOCAL_MIN),
            (true, 2, CORE_LEFT, PRESCAN_LEFT, LOCAL_MIN),
            (false, 2, CORE_LEFT, PRESCAN_LEFT, LOCAL_MIN),
            (true, DOMINANCE_MIN, 2, PRESCAN_LEFT, LOCAL_MIN),
            (true, DOMINANCE_MIN, CORE_LEFT, 2, LOCAL_MIN),
            (true, DOMINANCE_MIN, CORE_LEFT, 2, 4),
        ] {
            let config = Config {
                max_guesses: max,
                hard,
                use_transpositions,
                dominance_min,
                core_left,
                prescan_left,
                local_min,
                objective: obj.clone(),
                ..Config::default()
            };
            let solver = Solver::new(game, &table, config);
            let got = solver
                .cost(&ids, max, &Revealed::default())
                .unwrap()
                .map_or(INFEASIBLE as u64, |v| v as u64);
            assert_eq!(
                got,
                want,
                "seed {seed}, {} answers, max {max}, hard {hard}, transpositions {use_transpositions}, dominance from {dominance_min}, cores from {core_left} left, pre-scans from {prescan_left} left, compact tables from {local_min}, {obj:?}",
                game.n_answers()
            );
            if got < INFEASIBLE as u64 && obj == Objective::total() {
                let root = solver.build(&ids, max, &Revealed::default());
                let tree = Tree::new(game, hard, max, root).unwrap();
                let replay = tree.verify(game);
                assert!(replay.is_valid(), "seed {seed}: {:?}", replay.problems);
                assert_eq!(
                    replay.total(),
                    got,
                    "seed {seed}: the built tree costs what was proved"
                );
            }
        }
    }
}

#[test]
fn solver_equals_brute_force_normal_mode() {
    // Brute force is exponential in the depth: deep limits get fewer answers.
    for seed in 1..=30u64 {
        let max = 2 + (seed % 3) as u8; // 2..=4
        check_game(seed * 7919, 6 + (seed % 7) as usize, 16, max, false);
    }
    for seed in 31..=36u64 {
        check_game(seed * 7919, 7, 8, 5, false);
    }
}

/// Games of rhyming answers (`-ight`, `-atch`, ...) with few other guesses: no guess
/// splits them much, so large buckets exceed the most buckets any guess makes, the case
/// the split bound (`bound.rs`) lifts. Every other seed in hard mode.
#[test]
fn solver_equals_brute_force_on_clustered_games() {
    let clusters = [
        [
            "bight", "fight", "light", "might", "night", "right", "sight", "tight",
        ],
        [
            "batch", "catch", "hatch", "latch", "match", "patch", "watch", "hitch",
        ],
        [
            "bound", "found", "hound", "mound", "pound", "round", "sound", "wound",
        ],
        [
            "baker", "faker", "maker", "taker", "wager", "water", "later", "hater",
        ],
    ];
    let full = Game::load(&wordle_tree::game::ListSource::Named("wordle".into())).unwrap();
    for seed in 1..=12u64 {
        let mut rng = Rng(seed * 6007);
        let mut answers: Vec<Word> = Vec::new();
        for _ in 0..2 {
            let c = &clusters[rng.below(clusters.len())];
            answers.extend(rng.subset(c, 4).iter().map(|w| Word::parse(w).unwrap()));
        }
        answers.sort();
        answers.dedup();
        let mut guesses = answers.clone();
        guesses.extend((0..1 + seed % 3).map(|_| full.guesses[rng.below(full.n_guesses())]));
        guesses.sort();
        guesses.dedup();
        let game = Game::from_words(&answers, &guesses);
        check_against_brute_force(seed, &mut rng, &game, 6, seed % 2 == 0);
    }
}

/// Games built around an endgame group (7 to 9 answers that differ in one position,
/// `_ills`, `_ight`, `_ound`) plus a few other words, with 3 or 4 guesses: the group
/// bound (`search/groups.rs`) decides both feasibility (more than `5 * left - 4`
/// group answers cannot be found in time) and cost there. Every other seed in hard mode.
#[test]
fn solver_equals_brute_force_on_endgame_groups() {
    let groups = [
        &[
            "bills", "dills", "fills", "gills", "hills", "kills", "mills", "pills", "rills",
            "sills", "tills", "wills",
        ][..],
        &[
            "bight", "fight", "light", "might", "night", "right", "sight", "tight", "wight",
        ][..],
        &[
            "bound", "found", "hound", "mound", "pound", "round", "sound", "wound",
        ][..],
    ];
    let full = Game::load(&wordle_tree::game::ListSource::Named("wordle-all".into())).unwrap();
    for seed in 1..=10u64 {
        let mut rng = Rng(seed * 3571);
        let g = groups[rng.below(groups.len())];
        let r = (7 + rng.below(3)).min(g.len());
        let mut answers: Vec<Word> = rng
            .subset(g, r)
            .iter()
            .map(|w| Word::parse(w).unwrap())
            .collect();
        answers.extend((0..rng.below(3)).map(|_| full.answers[rng.below(full.n_answers())]));
        answers.sort();
        answers.dedup();
        let mut guesses = answers.clone();
        guesses.extend((0..2 + rng.below(3)).map(|_| full.guesses[rng.below(full.n_guesses())]));
        guesses.sort();
        guesses.dedup();
        let game = Game::from_words(&answers, &guesses);
        let max = 3 + (seed % 2) as u8;
        check_against_brute_force(seed, &mut rng, &game, max, seed % 2 == 0);
    }
}

/// The group bound at its edge: a group of `5 * max - 4` answers that differ in the
/// first letter can be found within `max` guesses when the guesses may test five of
/// its letters at once (made-up words like `bcdfg`; no letter of `ills`, whose `s` a single `s` cannot test), one more answer cannot. Checked
/// against the brute force for every objective.
#[test]
fn group_bound_is_tight_on_made_up_groups() {
    let letters = b"bcdfghkmprtwyz";
    let testers = ["bcdfg", "hkmpr", "twyzb", "gkptz"];
    for (max, r) in [(2u8, 6usize), (2, 7), (3, 11), (3, 12)] {
        for hard in [false, true] {
            let answers: Vec<Word> = letters[..r]
                .iter()
                .map(|&c| Word::parse(&format!("{}ills", c as char)).unwrap())
                .collect();
            let mut guesses = answers.clone();
            guesses.extend(testers.iter().map(|w| Word::parse(w).unwrap()));
            let game = Game::from_words(&answers, &guesses);
            let mut rng = Rng(r as u64);
            check_against_brute_force(r as u64, &mut rng, &game, max, hard);
            let table = FeedbackTable::build(&game);
            let config = Config {
                max_guesses: max,
                hard,
                objective: Objective::feasibility(),
                ..Config::default()
            };
            let solver = Solver::new(&game, &table, config);
            let feasible = solver
                .cost(&game.all_answer_ids(), max, &Revealed::default())
                .unwrap()
                .is_some_and(|v| v < INFEASIBLE);
            assert_eq!(
                feasible,
                r <= 5 * max as usize - 4,
                "{r} answers, {max} guesses, hard {hard}"
            );
        }
    }
}

#[test]
fn solver_equals_brute_force_hard_mode() {
    for seed in 1..=30u64 {
        let max = 2 + (seed % 4) as u8;
        check_game(seed * 104729, 6 + (seed % 9) as usize, 25, max, true);
    }
}

#[test]
fn opener_cost_and_solve_opener_agree_with_cost() {
    let mut rng = Rng(99);
    let game = random_game(&mut rng, 40, 150);
    let table = FeedbackTable::build(&game);
    let ids: Vec<AnswerId> = game.all_answer_ids();
    for hard in [false, true] {
        let solver = Solver::new(
            &game,
            &table,
            Config {
                hard,
                ..Config::default()
            },
        );
        for opener in (0..game.n_guesses()).map(GuessId::new).step_by(17) {
            let (total, root) = solver.solve_opener(opener, &|_, _, _| {}).unwrap();
            let tree = Tree::new(&game, hard, 6, root).unwrap();
            assert_eq!(tree.verify(&game).total(), total);
            use wordle_tree::search::OpenerCost;
            assert_eq!(
                solver.opener_cost(opener, None).unwrap(),
                OpenerCost::Exact(total)
            );
            assert_eq!(
                solver.opener_cost(opener, Some(total + 1)).unwrap(),
                OpenerCost::Exact(total)
            );
            match solver.opener_cost(opener, Some(total)).unwrap() {
                OpenerCost::AtLeast(lb) => assert!(lb >= total),
                other => panic!("cutoff at the optimum must give a bound, got {other:?}"),
            }
            let _ = &ids;
        }
    }
}

/// `cost_by` with a deadline that has already passed settles for the first guesses it
/// solves: the plan of the guess it names costs what it says, and the optimum lies in
/// the range it claims; with time to spare it is the exact optimum. On one and two
/// threads, normal and hard mode.
#[test]
fn a_deadline_settles_for_a_real_plan_within_the_proved_range() {
    use std::time::{Duration, Instant};
    let mut rng = Rng(4242);
    let game = random_game(&mut rng, 160, 500);
    let table = FeedbackTable::build(&game);
    let ids: Vec<AnswerId> = game.all_answer_ids();
    let mut unproven = 0;
    for hard in [false, true] {
        let config = Config {
            hard,
            ..Config::default()
        };
        let exact = Solver::new(&game, &table, config.clone())
            .cost(&ids, 6, &Revealed::default())
            .unwrap()
            .unwrap();
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                for (deadline, proved) in [
                    (Instant::now(), false),
                    (Instant::now() + Duration::from_secs(3600), true),
                ] {
                    let solver = Solver::new(&game, &table, config.clone());
                    let top = solver
                        .cost_by(&ids, 6, &Revealed::default(), deadline)
                        .unwrap()
                        .unwrap();
                    let what = format!("hard {hard}, {threads} thread(s), {top:?}");
                    assert!(top.lower_bound <= exact && exact <= top.cost, "{what}");
                    let (total, root) = solver
                        .solve_from(
                            top.guess.unwrap(),
                            &ids,
                            6,
                            &Revealed::default(),
                            &|_, _, _| {},
                        )
                        .unwrap();
                    assert_eq!(total, top.cost as u64, "{what}");
                    let tree = Tree::new(&game, hard, 6, root).unwrap();
                    assert_eq!(tree.verify(&game).total(), total, "{what}");
                    if proved {
                        assert_eq!((top.lower_bound, top.cost), (exact, exact), "{what}");
                    }
                    if top.lower_bound < top.cost {
                        assert!(top.examined < top.guesses, "{what}");
                        unproven += 1;
                    }
                }
            });
        }
    }
    assert!(
        unproven > 0,
        "no run was cut short: the test checks nothing"
    );
}

#[test]
fn serial_and_parallel_totals_agree() {
    let mut rng = Rng(2024);
    let game = random_game(&mut rng, 120, 400);
    let table = FeedbackTable::build(&game);
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            (0..game.n_guesses())
                .map(GuessId::new)
                .step_by(41)
                .map(|g| {
                    Solver::new(&game, &table, Config::default())
                        .solve_opener(g, &|_, _, _| {})
                        .unwrap()
                        .0
                })
                .collect::<Vec<_>>()
        })
    };
    assert_eq!(run(1), run(2));
}

/// `solve_opener` takes the buckets smallest first and, on several threads, ends the
/// searches in flight once one bucket cannot finish (`budget.rs`'s abortable guard):
/// its verdict, on 1, 2 and 4 threads, agrees with `opener_cost` on every opener,
/// with guess limits tight enough that some openers cannot finish and others can.
#[test]
fn solve_opener_stops_at_an_infeasible_bucket_on_any_thread_count() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use wordle_tree::search::{OpenerCost, SolveError};
    let mut rng = Rng(77);
    let game = random_game(&mut rng, 150, 400);
    let table = FeedbackTable::build(&game);
    let (mut feasible, mut infeasible) = (0, 0);
    for (hard, max_guesses) in [(false, 3), (true, 3), (true, 4)] {
        let config = Config {
            hard,
            max_guesses,
            ..Config::default()
        };
        let openers: Vec<GuessId> = (0..game.n_guesses())
            .map(GuessId::new)
            .step_by(23)
            .collect();
        let truth: Vec<OpenerCost> = {
            let solver = Solver::new(&game, &table, config.clone());
            openers
                .iter()
                .map(|&g| solver.opener_cost(g, None).unwrap())
                .collect()
        };
        for threads in [1, 2, 4] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let solver = Solver::new(&game, &table, config.clone());
            for (&g, want) in openers.iter().zip(&truth) {
                // The progress reports answers settled, out of every answer.
                let (most, of) = (AtomicUsize::new(0), AtomicUsize::new(0));
                let progress = |settled: usize, answers: usize, _: u64| {
                    most.fetch_max(settled, Ordering::Relaxed);
                    of.store(answers, Ordering::Relaxed);
                };
                match (pool.install(|| solver.solve_opener(g, &progress)), want) {
                    (Ok((total, root)), OpenerCost::Exact(t)) => {
                        assert_eq!(total, *t);
                        assert_eq!(most.into_inner(), game.n_answers());
                        assert_eq!(of.into_inner(), game.n_answers());
                        let tree = Tree::new(&game, hard, max_guesses, root).unwrap();
                        assert_eq!(tree.verify(&game).total(), total);
                        feasible += 1;
                    }
                    (Err(SolveError::Infeasible(m)), OpenerCost::AtLeast(lb)) => {
                        assert_eq!(m, max_guesses);
                        assert!(*lb >= INFEASIBLE as u64);
                        infeasible += 1;
                    }
                    (got, want) => panic!(
                        "opener {g:?}, hard {hard}, {threads} threads: {:?} against {want:?}",
                        got.map(|(t, _)| t)
                    ),
                }
            }
        }
    }
    assert!(
        feasible > 0 && infeasible > 0,
        "{feasible} feasible, {infeasible} infeasible"
    );
}

#[test]
fn asking_for_more_guesses_than_configured_does_not_run_out_of_levels() {
    // `next` retries an infeasible state with more guesses than the solver was set up
    // for; the scratch must grow with the question, not the configuration. With only
    // the -atch words as guesses, each guess rules out one answer: a chain 7 deep.
    let words: Vec<Word> = [
        "batch", "catch", "hatch", "latch", "match", "patch", "watch",
    ]
    .iter()
    .map(|w| Word::parse(w).unwrap())
    .collect();
    let game = Game::from_words(&words, &words);
    let table = FeedbackTable::build(&game);
    let ids: Vec<AnswerId> = game.all_answer_ids();
    let solver = Solver::new(
        &game,
        &table,
        Config {
            max_guesses: 2,
            ..Config::default()
        },
    );
    assert_eq!(solver.cost(&ids, 6, &Revealed::default()).unwrap(), None);
    assert_eq!(
        solver.cost(&ids, 7, &Revealed::default()).unwrap(),
        Some(1 + 2 + 3 + 4 + 5 + 6 + 7)
    );
    assert_eq!(
        solver.cost(&ids, 9, &Revealed::default()).unwrap(),
        Some(28)
    );
}

/// Games whose guesses include one-letter neighbours of the answers (`light` next to
/// `fight`, `bight`, ... and words with letters no answer has): guess dominance
/// (`search/dominance.rs`) skips many of them here, checked against the brute force
/// with dominance on every state (`dominance_min` 2) and off; and it does skip some.
#[test]
fn solver_equals_brute_force_with_dominated_guesses() {
    let full = Game::load(&wordle_tree::game::ListSource::Named("wordle".into())).unwrap();
    let differ_by_one = |a: &Word, b: &Word| (0..5).filter(|&i| a.0[i] != b.0[i]).count() == 1;
    let mut skipped = 0u64;
    for seed in 1..=8u64 {
        let mut rng = Rng(seed * 4099);
        // A few answers that differ in one position, and one more ...
        let groups = [
            &[
                "bight", "fight", "light", "might", "night", "right", "sight", "tight",
            ][..],
            &[
                "bound", "found", "hound", "mound", "pound", "round", "sound", "wound",
            ][..],
            &[
                "batch", "catch", "hatch", "latch", "match", "patch", "watch",
            ][..],
        ];
        let group = groups[rng.below(groups.len())];
        let k = 5 + rng.below(2);
        let mut answers: Vec<Word> = rng
            .subset(group, k)
            .iter()
            .map(|w| Word::parse(w).unwrap())
            .collect();
        answers.push(full.answers[rng.below(full.n_answers())]);
        answers.sort();
        answers.dedup();
        // ... and allowed words one letter away from them.
        let near: Vec<Word> = full
            .guesses
            .iter()
            .filter(|g| answers.iter().any(|a| differ_by_one(a, g)))
            .copied()
            .collect();
        let mut guesses = answers.clone();
        guesses.extend(rng.subset(&near, 14.min(near.len())));
        guesses.sort();
        guesses.dedup();
        let game = Game::from_words(&answers, &guesses);
        check_against_brute_force(seed, &mut rng, &game, 4, seed % 4 == 3);
        let table = FeedbackTable::build(&game);
        let ids: Vec<AnswerId> = game.all_answer_ids();
        let solver = Solver::new(
            &game,
            &table,
            Config {
                max_guesses: 4,
                dominance_min: 2,
                ..Config::default()
            },
        );
        let _ = solver.cost(&ids, 4, &Revealed::default()).unwrap();
        skipped += solver.counters().dominated;
    }
    assert!(
        skipped > 0,
        "no guess was ever dominated: the test tests nothing"
    );
}

/// The compact tables large states hand their children (`kernels::Local`, states of
/// 65 or more candidates that hand down a list) change nothing the search does: on
/// large buckets of poor openers of the full lists, the cost and every counter
/// (states, expansions, scanned pairs) are the same with the tables at their default
/// size, on every state that can have one, and off (one thread, so the counters are
/// deterministic).
#[test]
fn local_tables_change_nothing() {
    let game = Game::load(&wordle_tree::game::ListSource::Named("wordle".into())).unwrap();
    let table = FeedbackTable::build(&game);
    // Buckets of 65 to 110 candidates of a few poor openers.
    let openers = ["fuzzy", "mamma", "vivid", "jazzy"];
    let buckets = poor_buckets(&game, &table, &openers, 65..=110, 3);
    assert_eq!(buckets.len(), 3);
    for bucket in buckets {
        let name = format!("a bucket of {} candidates", bucket.len());
        let mut seen = Vec::new();
        for local_min in [wordle_tree::search::LOCAL_MIN, 65, usize::MAX] {
            let solver = Solver::new(
                &game,
                &table,
                Config {
                    local_min,
                    ..Config::default()
                },
            );
            // One thread: the counters of a parallel search depend on the schedule.
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(1)
                .build()
                .unwrap();
            let cost = pool
                .install(|| solver.cost(&bucket, 5, &Revealed::default()))
                .unwrap();
            let c = solver.counters();
            seen.push((cost, c.states, c.expansions, c.scanned));
        }
        assert!(seen.windows(2).all(|w| w[0] == w[1]), "{name}: {seen:?}");
    }
}

/// Hard mode: states that scan their playable guesses through a compact table of
/// their own find the same cost with the same states and expansions as states that
/// scan the full table, on buckets of poor openers of the full lists (one thread).
#[test]
fn hard_own_tables_change_nothing() {
    let game = Game::load(&wordle_tree::game::ListSource::Named("wordle".into())).unwrap();
    let table = FeedbackTable::build(&game);
    let ids: Vec<AnswerId> = game.all_answer_ids();
    let mut tried = 0;
    for opener in ["fuzzy", "mamma", "civic"] {
        let word = Word::parse(opener).unwrap();
        let g = game.guess_id(word).unwrap();
        for (f, bucket) in wordle_tree::game::candidates::partition(&table, g, &ids) {
            if !(30..=90).contains(&bucket.len()) {
                continue;
            }
            tried += 1;
            let revealed = Revealed::default().after(word, f);
            let mut seen = Vec::new();
            for hard_own_min in [wordle_tree::search::HARD_OWN_MIN, usize::MAX] {
                let solver = Solver::new(
                    &game,
                    &table,
                    Config {
                        hard: true,
                        hard_own_min,
                        ..Config::default()
                    },
                );
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(1)
                    .build()
                    .unwrap();
                let cost = pool.install(|| solver.cost(&bucket, 5, &revealed)).unwrap();
                let c = solver.counters();
                seen.push((cost, c.states, c.expansions));
            }
            assert_eq!(
                seen[0],
                seen[1],
                "{opener}:{f:?}, {} candidates",
                bucket.len()
            );
        }
    }
    assert!(tried >= 3, "{tried} buckets");
}

/// A search feature that a [`Config`] field turns on from some depth.
#[derive(Clone, Copy, Debug)]
enum Knob {
    /// `core_left`; used when cores raise a bucket bound.
    Cores,
    /// `prescan_left`; used when a pre-scan refutes a guess.
    Prescans,
}

impl Knob {
    /// The depths tried besides the default one: every depth, off.
    fn other_depths(self) -> [u8; 2] {
        [2, u8::MAX]
    }

    fn set(self, config: &mut Config, depth: u8) {
        match self {
            Knob::Cores => config.core_left = depth,
            Knob::Prescans => config.prescan_left = depth,
        }
    }

    fn used(self, c: &Counters) -> u64 {
        match self {
            Knob::Cores => c.core_raises,
            Knob::Prescans => c.prescan_refutations,
        }
    }
}

/// Solves each bucket (under its revealed letters, `hard` mode) with the default
/// configuration once, then with each of `knobs` at every depth and off; the costs
/// must agree. Off, a knob's feature must be unused; on (default or every depth),
/// used somewhere. The default solve is shared by the knobs: it is the same search
/// for each.
fn knobs_change_nothing(
    game: &Game,
    table: &FeedbackTable,
    buckets: &[(Vec<AnswerId>, Revealed)],
    hard: bool,
    knobs: &[Knob],
) {
    let mut used = vec![0; knobs.len()];
    for (bucket, revealed) in buckets {
        let solve = |config: Config| {
            let solver = Solver::new(game, table, config);
            let cost = solver.cost(bucket, 5, revealed).unwrap();
            (cost, solver.counters())
        };
        let plain = Config {
            hard,
            ..Config::default()
        };
        let (want, counters) = solve(plain.clone());
        for (k, &knob) in knobs.iter().enumerate() {
            used[k] += knob.used(&counters);
            for depth in knob.other_depths() {
                let mut config = plain.clone();
                knob.set(&mut config, depth);
                let (cost, counters) = solve(config);
                assert_eq!(
                    cost,
                    want,
                    "a bucket of {} candidates, {knob:?} at {depth}",
                    bucket.len()
                );
                if depth == u8::MAX {
                    assert_eq!(knob.used(&counters), 0, "off means unused");
                } else {
                    used[k] += knob.used(&counters);
                }
            }
        }
    }
    for (knob, used) in knobs.iter().zip(used) {
        assert!(used > 0, "{knob:?} was never used");
    }
}

/// Cores (`cores.rs`: the proved bounds of settled candidate sets, reused for their
/// supersets) and bucket pre-scans (`expand.rs`: a guess's larger buckets scanned,
/// largest first, before any is searched) change the work, never a cost: buckets of
/// poor openers with five guesses left, where second guesses are refuted through
/// them, solved with each at the default depth, at every depth and off. Each must
/// be used (cores raise bounds, pre-scans refute guesses), so a wrong bound would
/// show.
#[test]
fn cores_and_prescans_change_nothing() {
    let game = Game::load(&wordle_tree::game::ListSource::Named("wordle".into())).unwrap();
    let table = FeedbackTable::build(&game);
    let openers = ["fuzzy", "mamma", "vivid", "jazzy"];
    // Two buckets (228 and 123 candidates): a third, of 265, took 40 of the test's
    // 53 s (wall, load average 4), 29 of them with pre-scans off.
    let buckets = poor_buckets(&game, &table, &openers, 120..=400, 2);
    assert_eq!(buckets.len(), 2);
    let buckets: Vec<_> = buckets
        .into_iter()
        .map(|b| (b, Revealed::default()))
        .collect();
    knobs_change_nothing(
        &game,
        &table,
        &buckets,
        false,
        &[Knob::Cores, Knob::Prescans],
    );
}

/// Hard-mode cores: a core serves a superset only when it was proved under what the
/// superset's history implies (`Revealed::is_implied_by`). Buckets of poor openers
/// in hard mode, each under its own revealed letters, solved with cores at the
/// default depth, at every depth and off; the cores must raise bounds.
#[test]
fn hard_cores_change_nothing() {
    let game = Game::load(&wordle_tree::game::ListSource::Named("wordle".into())).unwrap();
    let table = FeedbackTable::build(&game);
    let ids: Vec<AnswerId> = game.all_answer_ids();
    let mut buckets = Vec::new();
    for opener in ["fuzzy", "mamma", "jazzy"] {
        let word = Word::parse(opener).unwrap();
        let g = game.guess_id(word).unwrap();
        for (feedback, bucket) in wordle_tree::game::candidates::partition(&table, g, &ids) {
            if (60..=250).contains(&bucket.len()) && buckets.len() < 3 {
                buckets.push((bucket, Revealed::default().after(word, feedback)));
            }
        }
    }
    assert_eq!(buckets.len(), 3);
    knobs_change_nothing(&game, &table, &buckets, true, &[Knob::Cores]);
}

/// `cost_below` (the units of a split proof) offers a large state's guesses to every
/// thread: on two threads and on one, under cutoffs below, at and above the exact
/// cost, it must return the exact cost when below the cutoff and otherwise a bound
/// at least the cutoff and at most the cost, in a fresh solver each time.
#[test]
fn cost_below_is_exact_under_any_cutoff_on_one_or_two_threads() {
    let game = Game::load(&wordle_tree::game::ListSource::Named("wordle".into())).unwrap();
    let table = FeedbackTable::build(&game);
    let buckets = poor_buckets(
        &game,
        &table,
        &["fuzzy", "mamma", "vivid", "jazzy"],
        64..=120,
        3,
    );
    assert!(buckets.len() >= 2);
    let none = Revealed::default();
    for bucket in &buckets {
        let exact = Solver::new(&game, &table, Config::default())
            .cost(bucket, 5, &none)
            .unwrap()
            .expect("feasible within 5");
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            for cutoff in [
                exact - 7,
                exact - 1,
                exact,
                exact + 1,
                exact + 30,
                INFEASIBLE,
            ] {
                let solver = Solver::new(&game, &table, Config::default());
                let v = pool
                    .install(|| solver.cost_below(bucket, 5, &none, cutoff, None))
                    .unwrap();
                if cutoff > exact {
                    assert_eq!(v, exact, "cutoff {cutoff}, {threads} threads");
                } else {
                    assert!(v >= cutoff && v <= exact, "cutoff {cutoff}: {v} vs {exact}");
                }
                // What it stored must not mislead a later search with the same table.
                let again = pool.install(|| solver.cost(bucket, 5, &none)).unwrap();
                assert_eq!(
                    again,
                    Some(exact),
                    "after cutoff {cutoff}, {threads} threads"
                );
            }
        }
    }
}

/// Letter caps (`scan/letters.rs`: a pre-scan leaves out the guesses the candidates'
/// letters cap at what a dropped guess makes, and in normal mode reads the rest
/// through windows) drop only guesses the kernels would drop, so the search is the
/// same to the state: the same cost, states and expansions with them and without, in
/// both modes, on buckets of poor openers whose second guesses are pre-scanned. And
/// they must be used.
#[test]
fn letter_caps_change_nothing() {
    let game = Game::load(&wordle_tree::game::ListSource::Named("wordle".into())).unwrap();
    let table = FeedbackTable::build(&game);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    for hard in [false, true] {
        let mut capped = 0;
        for (name, bucket, revealed) in
            buckets_with_history(&game, &table, &["fuzzy", "mamma"], 130..=240, hard)
        {
            let mut seen = Vec::new();
            for letter_caps in [true, false] {
                let config = Config {
                    hard,
                    letter_caps,
                    ..Config::default()
                };
                let solver = Solver::new(&game, &table, config);
                let cost = pool.install(|| solver.cost(&bucket, 5, &revealed)).unwrap();
                let c = solver.counters();
                seen.push((cost, c.states, c.expansions));
                if letter_caps {
                    capped += c.letter_capped;
                } else {
                    assert_eq!(c.letter_capped, 0, "off means unused");
                }
            }
            assert_eq!(seen[0], seen[1], "{name} hard {hard}");
        }
        // Normal mode's pre-scans take the letter caps through windows, which the
        // AVX-512 path leaves to its blocks in place (`.ci/run` runs this test again
        // on the AVX2 and portable paths).
        let path = wordle_tree::game::table::Simd::current();
        if hard || path != wordle_tree::game::table::Simd::Avx512 {
            assert!(
                capped > 0,
                "hard {hard}, {path:?}: no guess left out by its letters"
            );
        } else {
            assert_eq!(capped, 0, "normal mode on {path:?}: blocks in place");
        }
    }
}

/// With a journal (`TopLog`, the units of `solve --results`) the top of a state is
/// searched by `run_top`'s worker loop even on one thread. That loop must skip the
/// guesses the serial search skips (normal mode: those its classes leave out; hard
/// mode: those the groups' demands refute) and hand its children the root's compact
/// tables, so on one thread it searches exactly the states the serial search does.
/// (Before it did, NYT 2023 `buzzy`'s all-gray unit took 122 CPU-s against 46.)
#[test]
fn the_journalled_top_searches_the_states_of_the_serial_search() {
    let game = Game::load(&wordle_tree::game::ListSource::Named("wordle".into())).unwrap();
    let table = FeedbackTable::build(&game);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let known = std::collections::HashMap::new();
    let recorded = std::sync::atomic::AtomicUsize::new(0);
    let record = |_: GuessId, _: wordle_tree::search::Settled| {
        recorded.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    };
    let log = wordle_tree::search::TopLog {
        known: &known,
        record: &record,
        share: None,
    };
    let mut compared = 0;
    for hard in [false, true] {
        // Buckets large enough for the compact tables (`Config::local_min`) and the
        // classes, small enough for a debug build.
        let openers = ["fuzzy", "mamma", "vivid"];
        for (name, bucket, revealed) in
            buckets_with_history(&game, &table, &openers, 140..=260, hard)
        {
            let config = Config {
                hard,
                ..Config::default()
            };
            let mut seen = Vec::new();
            for journal in [None, Some(&log)] {
                let solver = Solver::new(&game, &table, config.clone());
                let v = pool
                    .install(|| solver.cost_below(&bucket, 5, &revealed, INFEASIBLE, journal))
                    .unwrap();
                let c = solver.counters();
                seen.push((v, c.states, c.expansions));
            }
            assert_eq!(seen[0], seen[1], "{name} hard {hard}");
            compared += 1;
        }
    }
    assert!(compared >= 4, "{compared} buckets compared");
    assert!(
        recorded.into_inner() > 0,
        "the journal saw the top's guesses"
    );
}

/// Parsed words of a test list.
fn words(list: &[&str]) -> Vec<Word> {
    list.iter().map(|w| Word::parse(w).unwrap()).collect()
}

/// Hard mode: once a group's shared letters are green, every guess must keep them,
/// so a guess splits off at most `5 - greens` of the group (`groups.rs`). Brute force
/// on games of one-position groups where greens get revealed (the group's own words
/// and made-up testers are the guesses), for every objective.
#[test]
fn hard_mode_group_bound_with_greens_matches_brute_force() {
    let groups: [&[&str]; 2] = [
        &[
            "bills", "dills", "fills", "gills", "hills", "kills", "mills", "pills", "rills",
        ],
        &[
            "bight", "fight", "light", "might", "night", "right", "sight", "tight",
        ],
    ];
    let testers = ["bdfgh", "kmprs", "lntwy", "bills", "gkptz", "fmnrw"];
    for seed in 1..=12u64 {
        let mut rng = Rng(seed * 7717);
        let g = groups[rng.below(groups.len())];
        let r = 5 + rng.below(4);
        let answers: Vec<Word> = rng
            .subset(g, r)
            .iter()
            .map(|w| Word::parse(w).unwrap())
            .collect();
        let mut guesses = answers.clone();
        let k = 1 + rng.below(3);
        guesses.extend(words(&rng.subset(&testers, k)));
        guesses.sort();
        guesses.dedup();
        let mut answers = answers;
        answers.sort();
        let game = Game::from_words(&answers, &guesses);
        let max = 3 + (seed % 3) as u8;
        check_against_brute_force(seed, &mut rng, &game, max, true);
    }
    // Testers that keep the group's `i` (and `l`) in place: once they turn green, hard
    // mode leaves four (three) letters per guess to split the group, and a tree that
    // uses them well is exactly as good as the bound allows.
    let partial = [
        "bidfg", "kimpr", "hiwtz", "gidhk", "kilmp", "bildf", "wilrt",
    ];
    for seed in 1..=16u64 {
        let mut rng = Rng(seed * 104729);
        let r = 6 + rng.below(5);
        let mut answers: Vec<Word> = rng
            .subset(groups[0], r)
            .iter()
            .map(|w| Word::parse(w).unwrap())
            .collect();
        answers.sort();
        let mut guesses = answers.clone();
        let k = 2 + rng.below(4);
        guesses.extend(words(&rng.subset(&partial, k)));
        guesses.sort();
        guesses.dedup();
        let game = Game::from_words(&answers, &guesses);
        let max = 3 + (seed % 2) as u8;
        check_against_brute_force(seed, &mut rng, &game, max, true);
    }
    // A group of 12 where the first tester leaves 8 with `i` green: the bound must
    // allow four splits per guess there, not fewer.
    let twelve: Vec<Word> = [
        "bills", "dills", "fills", "gills", "hills", "kills", "mills", "pills", "rills", "sills",
        "tills", "wills",
    ]
    .iter()
    .map(|w| Word::parse(w).unwrap())
    .collect();
    for (max, testers) in [
        (4u8, &["bidfg", "kimpr", "hiwts"][..]),
        (4, &["bidfg", "kimpr", "hiwts", "sitwh"][..]),
        (3, &["bidfg", "kimpr", "hiwts"][..]),
    ] {
        let mut guesses = twelve.clone();
        guesses.extend(testers.iter().map(|w| Word::parse(w).unwrap()));
        let game = Game::from_words(&twelve, &guesses);
        let mut rng = Rng(max as u64 * 31 + testers.len() as u64);
        check_against_brute_force(max as u64, &mut rng, &game, max, true);
    }
}

/// One solver searching several large states in turn on two threads (the units of a
/// split proof do this): the parallel root's workers borrow pooled scratch that an
/// earlier search used, and nothing of that search (its classes, its compact table)
/// may reach the new one. Every state's cost must equal a fresh solver's.
#[test]
fn one_solver_many_parallel_states_agree_with_fresh_solvers() {
    let game = Game::load(&wordle_tree::game::ListSource::Named("wordle".into())).unwrap();
    let table = FeedbackTable::build(&game);
    let openers = ["fuzzy", "mamma", "vivid", "jazzy", "civic"];
    let buckets = poor_buckets(&game, &table, &openers, 65..=130, 8);
    assert!(buckets.len() >= 4);
    let none = Revealed::default();
    let config = Config {
        local_min: 32,
        ..Config::default()
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let shared = Solver::new(&game, &table, config.clone());
    for bucket in &buckets {
        let fresh = Solver::new(&game, &table, config.clone());
        let want = pool
            .install(|| fresh.cost_below(bucket, 5, &none, INFEASIBLE, None))
            .unwrap();
        let got = pool
            .install(|| shared.cost_below(bucket, 5, &none, INFEASIBLE, None))
            .unwrap();
        assert_eq!(got, want, "a bucket of {} candidates", bucket.len());
    }
}

/// The first `most` buckets with a size in `sizes` of the given (poor) openers over
/// all answers: large states that solve in well under a second.
fn poor_buckets(
    game: &Game,
    table: &FeedbackTable,
    openers: &[&str],
    sizes: std::ops::RangeInclusive<usize>,
    most: usize,
) -> Vec<Vec<AnswerId>> {
    let ids: Vec<AnswerId> = game.all_answer_ids();
    let mut buckets = Vec::new();
    for opener in openers {
        let g = game.guess_id(Word::parse(opener).unwrap()).unwrap();
        for (_, bucket) in wordle_tree::game::candidates::partition(table, g, &ids) {
            if sizes.contains(&bucket.len()) && buckets.len() < most {
                buckets.push(bucket);
            }
        }
    }
    buckets
}

/// The buckets of `openers` whose sizes lie in `sizes`, each named `opener:feedback`
/// and with what the opener revealed (hard mode; nothing in normal mode).
fn buckets_with_history(
    game: &Game,
    table: &FeedbackTable,
    openers: &[&str],
    sizes: std::ops::RangeInclusive<usize>,
    hard: bool,
) -> Vec<(String, Vec<AnswerId>, Revealed)> {
    let ids = game.all_answer_ids();
    let mut buckets = Vec::new();
    for opener in openers {
        let word = Word::parse(opener).unwrap();
        let g = game.guess_id(word).unwrap();
        for (f, bucket) in wordle_tree::game::candidates::partition(table, g, &ids) {
            if sizes.contains(&bucket.len()) {
                let revealed = match hard {
                    true => Revealed::default().after(word, f),
                    false => Revealed::default(),
                };
                buckets.push((format!("{opener}:{f:?}"), bucket, revealed));
            }
        }
    }
    buckets
}

/// Hard mode with a required letter that is none of a group's letters: after `dzzzz`
/// showed the `d` of these `-ed` words yellow, every later guess must hold a `d` off
/// the greens, which leaves four letters to split `ca_ed` (`groups.rs`: required
/// letters take positions; the demands on a guess). Made-up words: a group of 7 to 10,
/// and testers that each hold a `d` away from its place and up to four of the group's
/// letters, so that a tree can use all four every guess and the bound is met (a bound
/// one split lower fails here). Brute force from that history, for every objective.
#[test]
fn hard_mode_required_letters_match_brute_force() {
    let group = [
        "cabed", "cafed", "caged", "cahed", "caked", "caled", "camed", "caned", "caped", "cared",
    ];
    let testers = [
        "dbfgh", "dklmn", "dprbf", "dghkl", "dmnpr", "dbgkm", "dfhln", "dprgh", "bfgdh", "gdkex",
    ];
    for seed in 1..=20u64 {
        let mut rng = Rng(seed * 15_485_863);
        let r = 7 + rng.below(4);
        let mut answers: Vec<Word> = words(&rng.subset(&group, r));
        answers.sort();
        let mut guesses = answers.clone();
        let k = 2 + rng.below(5);
        guesses.extend(words(&rng.subset(&testers, k)));
        guesses.sort();
        guesses.dedup();
        let game = Game::from_words(&answers, &guesses);
        let table = FeedbackTable::build(&game);
        let ids = game.all_answer_ids();
        let first = Word::parse("dzzzz").unwrap();
        let revealed = Revealed::default().after(first, Feedback::compute(first, answers[0]));
        let max = 4 + (seed % 2) as u8;
        for obj in objectives(&mut rng, &game, max) {
            // The brute force counts the guess already played (`dzzzz`) too.
            let want = brute(&game, &table, &obj, max, &ids, 2, Some(revealed));
            let want = if want < INFEASIBLE as u64 {
                want - obj.unit as u64 * ids.len() as u64
            } else {
                want
            };
            for prescan_left in [PRESCAN_LEFT, 2] {
                let config = Config {
                    max_guesses: max,
                    hard: true,
                    prescan_left,
                    objective: obj.clone(),
                    ..Config::default()
                };
                let got = Solver::new(&game, &table, config)
                    .cost(&ids, max - 1, &revealed)
                    .unwrap()
                    .map_or(INFEASIBLE as u64, |v| v as u64);
                assert_eq!(got, want, "seed {seed}, {r} answers, max {max}, {obj:?}");
            }
        }
    }
}
