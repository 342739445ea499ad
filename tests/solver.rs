//! The exact solver against a brute force with no bounds, table or pruning, on random
//! small games, for every objective, in normal and hard mode; plus the invariants
//! serial == parallel and table on == table off, and the tree it builds replays.

use std::sync::Arc;
use wordle_tree::candidates::partition;
use wordle_tree::feedback::Feedback;
use wordle_tree::game::{AnswerId, Game, GuessId, ListSource};
use wordle_tree::hard::Revealed;
use wordle_tree::search::bound::INFEASIBLE;
use wordle_tree::search::{Config, Objective, Solver};
use wordle_tree::tree::Tree;
use wordle_tree::FeedbackTable;

/// A small deterministic generator (xorshift), so failures reproduce from the seed.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn random_game(rng: &mut Rng, answers: usize, extra_guesses: usize) -> Game {
    let full = Game::load(&ListSource::Named("wordle".into())).unwrap();
    // Answers drawn from a small window of the list share more letters (harder games).
    let start = rng.below(full.n_answers() - 200);
    let mut a: Vec<_> = (0..answers)
        .map(|_| full.answers[start + rng.below(200)])
        .collect();
    a.sort();
    a.dedup();
    let mut g: Vec<_> = (0..extra_guesses)
        .map(|_| full.guesses[rng.below(full.n_guesses())])
        .collect();
    g.sort();
    g.dedup();
    Game::from_words(&a, &g)
}

/// The cost of one answer found at `depth` under the objective, from its definition.
fn answer_cost(obj: &Objective, max_guesses: u8, a: AnswerId, depth: u8) -> u64 {
    let over = obj.has_penalty() && depth > max_guesses - obj.over_left && obj.counts(a);
    obj.unit as u64 * depth as u64 + if over { obj.penalty as u64 } else { 0 }
}

/// The least cost over all trees, by trying every guess at every node.
#[allow(clippy::too_many_arguments)]
fn brute(
    game: &Game,
    table: &FeedbackTable,
    obj: &Objective,
    max: u8,
    ids: &[AnswerId],
    depth: u8,
    revealed: Option<Revealed>,
) -> u64 {
    if depth > max {
        return INFEASIBLE as u64;
    }
    let mut best = INFEASIBLE as u64;
    for g in 0..game.n_guesses() as GuessId {
        let word = game.guesses[g as usize];
        if revealed.is_some_and(|r| !r.allows(word)) {
            continue;
        }
        let buckets = partition(table, g, ids);
        if buckets.len() == 1 && !Feedback(buckets[0].0).is_all_green() {
            continue; // learns nothing: never better than not playing it
        }
        let mut cost = 0u64;
        for (f, b) in &buckets {
            if Feedback(*f).is_all_green() {
                cost += answer_cost(obj, max, b[0], depth);
            } else {
                let next = revealed.map(|r| r.after(word, Feedback(*f)));
                cost += brute(game, table, obj, max, b, depth + 1, next);
            }
            if cost >= best {
                break; // (only a shortcut of the sum: the minimum is unchanged)
            }
        }
        best = best.min(cost);
    }
    best.min(INFEASIBLE as u64)
}

fn objectives(rng: &mut Rng, game: &Game, max: u8) -> Vec<Objective> {
    let d = 1 + rng.below(max as usize - 1) as u8;
    let exempt: Arc<[bool]> = (0..game.n_answers()).map(|_| rng.below(4) == 0).collect();
    vec![
        Objective::total(),
        Objective::feasibility(),
        Objective::min_over(d, max),
        Objective::within_except(d, max, exempt),
    ]
}

fn check_game(seed: u64, answers: usize, guesses: usize, max: u8, hard: bool) {
    let mut rng = Rng(seed);
    let game = random_game(&mut rng, answers, guesses);
    let table = FeedbackTable::build(&game);
    let ids: Vec<AnswerId> = (0..game.n_answers() as AnswerId).collect();
    for obj in objectives(&mut rng, &game, max) {
        let want = brute(
            &game,
            &table,
            &obj,
            max,
            &ids,
            1,
            hard.then(Revealed::default),
        );
        for use_table in [true, false] {
            let config = Config {
                max_guesses: max,
                hard,
                use_table,
                objective: obj.clone(),
                ..Config::default()
            };
            let solver = Solver::new(&game, &table, config);
            let got = solver
                .cost(&ids, max, &Revealed::default())
                .unwrap()
                .map_or(INFEASIBLE as u64, |v| v as u64);
            assert_eq!(
                got,
                want,
                "seed {seed}, {} answers, max {max}, hard {hard}, table {use_table}, {obj:?}",
                game.n_answers()
            );
            if got < INFEASIBLE as u64 && obj == Objective::total() {
                let root = solver.build(&ids, max, &Revealed::default());
                let tree = Tree {
                    hard,
                    max_guesses: max,
                    list_checksum: game.checksum,
                    list_name: game.name.clone(),
                    root,
                };
                let replay = tree.verify(&game);
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
    let ids: Vec<AnswerId> = (0..game.n_answers() as AnswerId).collect();
    for hard in [false, true] {
        let solver = Solver::new(
            &game,
            &table,
            Config {
                hard,
                ..Config::default()
            },
        );
        for opener in (0..game.n_guesses() as GuessId).step_by(17) {
            let (total, root) = solver.solve_opener(opener, &|_, _, _| {}).unwrap();
            let tree = Tree {
                hard,
                max_guesses: 6,
                list_checksum: game.checksum,
                list_name: game.name.clone(),
                root,
            };
            assert_eq!(tree.verify(&game).total(), total);
            use wordle_tree::search::OpenerCost;
            assert_eq!(
                solver.opener_cost(opener, u64::MAX).unwrap(),
                OpenerCost::Exact(total)
            );
            assert_eq!(
                solver.opener_cost(opener, total + 1).unwrap(),
                OpenerCost::Exact(total)
            );
            match solver.opener_cost(opener, total).unwrap() {
                OpenerCost::AtLeast(lb) => assert!(lb >= total),
                other => panic!("cutoff at the optimum must give a bound, got {other:?}"),
            }
            let _ = &ids;
        }
    }
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
            (0..game.n_guesses() as GuessId)
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
