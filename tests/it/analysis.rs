//! `rank` and `simulate` against slow, direct computations on small random games, the
//! published one-level values on the default lists, and the shape of the CLI output.

use crate::common;
use assert_cmd::Command;
use common::Rng;
use std::collections::HashMap;
use wordle_tree::analysis::{self, Metric};
use wordle_tree::game::feedback::reference_feedback;
use wordle_tree::game::hard::Revealed;
use wordle_tree::game::{AnswerId, GuessId};
use wordle_tree::{Feedback, FeedbackTable, Game, ListSource, Word};

const METRICS: [Metric; 5] = [
    Metric::Worst,
    Metric::Expected,
    Metric::Entropy,
    Metric::Buckets,
    Metric::Frequency,
];

fn wordle() -> Game {
    Game::load(&ListSource::Named("wordle".into())).unwrap()
}

/// A small game: random answers and guess-only words from the default lists.
fn small_game(rng: &mut Rng, n_answers: usize, n_guesses: usize) -> Game {
    let full = wordle();
    let answers = rng.subset(&full.answers, n_answers);
    let guesses = rng.subset(&full.guesses[full.n_answers()..], n_guesses);
    Game::from_words(&answers, &guesses)
}

/// The metrics of one guess, computed directly: buckets as a map from feedback to
/// the answers in it, with the reference feedback.
struct Slow {
    worst: usize,
    sum_squares: usize,
    entropy: f64,
    buckets: usize,
    frequency: f64,
}

fn slow_metrics(guess: Word, candidates: &[Word]) -> Slow {
    let mut buckets: HashMap<Feedback, Vec<Word>> = HashMap::new();
    for &answer in candidates {
        buckets
            .entry(reference_feedback(guess, answer))
            .or_default()
            .push(answer);
    }
    let n = candidates.len() as f64;
    let entropy = buckets
        .values()
        .map(|b| {
            let p = b.len() as f64 / n;
            -p * p.log2()
        })
        .sum();
    let mut frequency = 0.0;
    for answer in candidates {
        let greens = (0..5).filter(|&i| guess.0[i] == answer.0[i]).count();
        let mut letters: Vec<u8> = guess.0.to_vec();
        letters.sort();
        letters.dedup();
        let present = letters.iter().filter(|l| answer.0.contains(l)).count();
        frequency += (greens + present) as f64;
    }
    Slow {
        worst: buckets.values().map(Vec::len).max().unwrap(),
        sum_squares: buckets.values().map(|b| b.len() * b.len()).sum(),
        entropy,
        buckets: buckets.len(),
        frequency: frequency / n,
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn rank_metrics_match_a_direct_computation() {
    let mut rng = Rng(7);
    for round in 0..6 {
        let game = small_game(&mut rng, 40 + 20 * round, 150);
        let table = FeedbackTable::build(&game);
        let all: Vec<AnswerId> = game.all_answer_ids();
        let ids = rng.subset(&all, 10 + 7 * round);
        let candidates: Vec<Word> = ids.iter().map(|&a| game.answers[a.index()]).collect();
        for metric in METRICS {
            let scores = analysis::rank(&game, &table, &ids, metric);
            assert_eq!(scores.len(), game.n_guesses());
            let mut seen = vec![false; game.n_guesses()];
            let mut previous: Option<(f64, f64, Word)> = None;
            for s in &scores {
                assert!(!seen[s.guess.index()], "each guess once");
                seen[s.guess.index()] = true;
                let guess = game.guesses[s.guess.index()];
                let slow = slow_metrics(guess, &candidates);
                let n = candidates.len() as f64;
                assert_eq!(s.worst as usize, slow.worst, "{guess} worst");
                assert_eq!(s.buckets as usize, slow.buckets, "{guess} buckets");
                assert!(close(s.expected, slow.sum_squares as f64 / n), "{guess}");
                assert!(close(s.entropy, slow.entropy), "{guess} entropy");
                assert!(close(s.frequency, slow.frequency), "{guess} frequency");
                assert_eq!(s.is_candidate, candidates.contains(&guess));
                // Best first by (metric, its tie-break), then alphabetical.
                let key = match metric {
                    Metric::Worst => (slow.worst as f64, slow.sum_squares as f64),
                    Metric::Expected => (slow.sum_squares as f64, 0.0),
                    Metric::Entropy => (-slow.entropy, 0.0),
                    Metric::Buckets => (-(slow.buckets as f64), slow.sum_squares as f64),
                    Metric::Frequency => (-slow.frequency, 0.0),
                };
                if let Some((k0, k1, prev)) = previous {
                    let tie = close(k0, key.0) && close(k1, key.1);
                    assert!(
                        (k0, k1) < key || tie,
                        "{metric:?}: {prev} ranked before {guess}"
                    );
                    assert!(!tie || prev < guess, "{metric:?}: tie {prev} {guess}");
                }
                previous = Some((key.0, key.1, guess));
            }
        }
    }
}

#[test]
fn published_one_level_values_on_the_default_lists() {
    let game = wordle();
    let table = FeedbackTable::build(&game);
    let ids: Vec<AnswerId> = game.all_answer_ids();
    let name = |s: &analysis::Score| game.guesses[s.guess.index()].to_string();

    let by_entropy = analysis::rank(&game, &table, &ids, Metric::Entropy);
    assert_eq!(name(&by_entropy[0]), "soare");
    assert!((by_entropy[0].entropy - 5.886).abs() < 5e-4);

    // Best worst case: five guesses leave at most 168 candidates.
    let by_worst = analysis::rank(&game, &table, &ids, Metric::Worst);
    let leaders: Vec<String> = by_worst
        .iter()
        .take_while(|s| s.worst == 168)
        .map(name)
        .collect();
    let mut sorted = leaders.clone();
    sorted.sort();
    assert_eq!(sorted, ["aesir", "arise", "raise", "reais", "serai"]);
    assert_eq!(leaders[0], "raise", "ties broken by expected size");

    let by_expected = analysis::rank(&game, &table, &ids, Metric::Expected);
    assert_eq!(name(&by_expected[0]), "roate");
    assert!((by_expected[0].expected - 60.4246).abs() < 1e-4);

    let by_buckets = analysis::rank(&game, &table, &ids, Metric::Buckets);
    assert_eq!(name(&by_buckets[0]), "trace");
    assert_eq!(by_buckets[0].buckets, 150);
    let salet = by_buckets.iter().find(|s| name(s) == "salet").unwrap();
    assert_eq!(salet.buckets, 148);
}

#[test]
fn rank_works_on_sowpods() {
    let game = Game::load(&ListSource::Named("sowpods".into())).unwrap();
    let table = FeedbackTable::build(&game);
    let ids: Vec<AnswerId> = game.all_answer_ids();
    let scores = analysis::rank(&game, &table, &ids, Metric::Entropy);
    assert_eq!(scores.len(), 12478);
    for pair in scores.windows(2) {
        assert!(pair[0].entropy >= pair[1].entropy - 1e-9);
    }
    // The leaders' entropies, recomputed directly over all 12478 answers.
    for s in &scores[..3] {
        let slow = slow_metrics(game.guesses[s.guess.index()], &game.answers);
        assert!(close(s.entropy, slow.entropy));
        assert_eq!(s.worst as usize, slow.worst);
    }
}

/// Plays one answer on its own, asking the player for every guess: the obvious way,
/// against which the recursive `simulate` is checked.
fn replay(
    game: &Game,
    table: &FeedbackTable,
    metric: Metric,
    opener: Option<GuessId>,
    hard: bool,
    answer: AnswerId,
) -> u32 {
    let mut ids: Vec<AnswerId> = game.all_answer_ids();
    let mut revealed = Revealed::default();
    for depth in 1..=30 {
        let guess = match (depth, opener) {
            (1, Some(o)) => o,
            _ => analysis::choose(game, table, metric, &ids, hard.then_some(&revealed)),
        };
        let word = game.guesses[guess.index()];
        if hard {
            assert_eq!(revealed.violation(word), None, "hard mode: {word}");
        }
        let feedback = reference_feedback(word, game.answers[answer.index()]);
        if feedback.is_all_green() {
            return depth;
        }
        ids.retain(|&a| reference_feedback(word, game.answers[a.index()]) == feedback);
        assert!(ids.contains(&answer));
        revealed = revealed.after(word, feedback);
    }
    panic!(
        "answer {} not found in 30 guesses",
        game.answers[answer.index()]
    );
}

#[test]
fn simulate_equals_a_per_answer_replay() {
    let mut rng = Rng(11);
    for round in 0..4 {
        let game = small_game(&mut rng, 30 + 10 * round, 120);
        let table = FeedbackTable::build(&game);
        for metric in METRICS {
            for hard in [false, true] {
                let opener = (round % 2 == 1).then(|| GuessId::new(rng.below(game.n_guesses())));
                let sim = analysis::simulate(&game, &table, metric, opener, hard);
                assert_eq!(sim.depths.len(), game.n_answers());
                for a in game.answer_ids() {
                    assert_eq!(
                        sim.depths[a.index()],
                        replay(&game, &table, metric, opener, hard, a),
                        "{metric:?} hard={hard} opener={opener:?} answer {}",
                        game.answers[a.index()]
                    );
                }
                assert_eq!(
                    sim.total(),
                    sim.depths.iter().map(|&d| d as u64).sum::<u64>()
                );
                assert_eq!(sim.histogram().iter().sum::<usize>(), game.n_answers());
            }
        }
    }
}

fn cli() -> Command {
    Command::cargo_bin("wordle-tree").unwrap()
}

#[test]
fn rank_csv_has_a_header_and_one_row_per_guess() {
    let out = cli()
        .args(["rank", "--metric", "worst", "--top", "7", "--format", "csv"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "rank,guess,worst,expected,entropy,buckets,frequency"
    );
    assert_eq!(lines.len(), 8);
    for (i, line) in lines[1..].iter().enumerate() {
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(fields.len(), 7, "{line}");
        assert_eq!(fields[0], (i + 1).to_string());
        assert!(Word::parse(fields[1]).is_ok());
        // Five guesses leave at most 168 candidates; no guess does better.
        let worst: u32 = fields[2].parse().unwrap();
        assert!(if i < 5 { worst == 168 } else { worst > 168 }, "{line}");
        for f in &fields[3..] {
            f.parse::<f64>().unwrap();
        }
    }
    assert_eq!(lines[1].split(',').nth(1), Some("raise"));
}

#[test]
fn rank_json_is_an_array_of_rows() {
    let out = cli()
        .args(["rank", "--top", "3", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 3);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row["rank"], i + 1);
        for key in [
            "guess",
            "worst",
            "expected",
            "entropy",
            "buckets",
            "frequency",
        ] {
            assert!(!row[key].is_null(), "{key} missing in {row}");
        }
    }
    assert_eq!(rows[0]["guess"], "soare");
}

#[test]
fn rank_table_prints_the_header_and_top_rows() {
    let out = cli().args(["rank", "--top", "4"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1 + 1 + 4 + 1, "{text}");
    assert!(lines[1].contains("entropy") && lines[1].contains("worst"));
    assert!(lines[2].contains("soare"));
}

/// The exact total of `opener` over all answers by brute force (`None`: cannot finish).
fn brute_opener(game: &Game, table: &FeedbackTable, max: u8, hard: bool, opener: GuessId) -> u64 {
    let obj = wordle_tree::search::Objective::total();
    let ids = game.all_answer_ids();
    let word = game.guesses[opener.index()];
    let mut total = 0;
    for (f, b) in wordle_tree::game::candidates::partition(table, opener, &ids) {
        total += if f.is_all_green() {
            1
        } else {
            // `brute` counts each answer's whole depth, guess 1 included.
            let r = hard.then(|| Revealed::default().after(word, f));
            common::brute(game, table, &obj, max, &b, 2, r)
        };
    }
    total.min(wordle_tree::search::bound::INFEASIBLE as u64)
}

#[test]
fn opener_bounds_never_exceed_the_brute_force_optimum() {
    use wordle_tree::search::opener_bound::DeepSettings;
    use wordle_tree::search::{Config, Solver};
    for seed in 0..8u64 {
        let mut rng = Rng(seed);
        let hard = seed % 3 == 2;
        let max = [3u8, 4][seed as usize % 2];
        // Large enough that an opener's buckets have parts of three or more.
        let (a, g) = (16 + rng.below(24), 4 + rng.below(8));
        let game = common::random_game(&mut rng, a, g);
        let table = FeedbackTable::build(&game);
        for opener in (0..game.n_guesses())
            .map(GuessId::new)
            .filter(|_| rng.below(3) == 0)
        {
            let truth = brute_opener(&game, &table, max, hard, opener);
            for (refine, cutoff) in [
                (0, None),
                (1, None),
                (4, None),
                (64, None),
                (64, Some(truth)),
            ] {
                let config = Config {
                    max_guesses: max,
                    hard,
                    // Cores and pre-scans everywhere, as the search may leave them.
                    core_left: 2,
                    prescan_left: 2,
                    ..Config::default()
                };
                let solver = Solver::new(&game, &table, config);
                let b = solver
                    .opener_bounds(opener, &DeepSettings { cutoff, refine })
                    .unwrap();
                let w = game.guesses[opener.index()];
                assert!(
                    b.estimate <= b.scan && b.scan <= b.deep,
                    "seed {seed} {w}: {b:?}"
                );
                let inf = wordle_tree::search::bound::INFEASIBLE as u64;
                assert!(
                    b.deep <= truth || (truth >= inf && b.deep >= inf),
                    "seed {seed} {w} max {max} hard {hard} refine {refine}: {b:?} above the optimum {truth}"
                );
                if b.exact {
                    assert_eq!(b.deep, truth, "seed {seed} {w}: settled, so exact");
                }
            }
        }
    }
}

/// On games too large for the brute force, against the solver's exact totals (the
/// solver is checked against the brute force in tests/solver.rs): the deep bound stays
/// below them and rises above the scan's.
#[test]
fn deep_opener_bounds_rise_and_stay_below_the_solvers_totals() {
    use wordle_tree::search::opener_bound::DeepSettings;
    use wordle_tree::search::{Config, Solver};
    let mut rose = 0;
    for seed in 0..4u64 {
        let mut rng = Rng(200 + seed);
        let hard = seed % 2 == 1;
        let game = common::random_game(&mut rng, 150, 40);
        let table = FeedbackTable::build(&game);
        let config = Config {
            hard,
            ..Config::default()
        };
        // Separate solvers: the bounds' scans would read the exact costs the solve
        // left in its transposition table.
        let solver = Solver::new(&game, &table, config.clone());
        let bounds = Solver::new(&game, &table, config);
        for _ in 0..4 {
            let opener = GuessId::new(rng.below(game.n_guesses()));
            let Ok((truth, _)) = solver.solve_opener(opener, &|_, _, _| {}) else {
                continue;
            };
            let b = bounds
                .opener_bounds(
                    opener,
                    &DeepSettings {
                        cutoff: None,
                        refine: 64,
                    },
                )
                .unwrap();
            let w = game.guesses[opener.index()];
            assert!(
                b.estimate <= b.scan && b.scan <= b.deep && b.deep <= truth,
                "seed {seed} {w}: {b:?} vs {truth}"
            );
            rose += (b.deep > b.scan) as usize;
        }
    }
    assert!(rose > 0, "the deep bound never rose above the scan bound");
}

/// `bounds` on lists with no opener table (issue 37, the big games): with `--cutoff
/// N` its dismissal counts equal counting `bound >= N` over the library's
/// `opener_bounds` directly (scan pass for every opener, deep pass only where the scan
/// is below the cutoff, each on its own solver in guess order, as the CLI does with one
/// thread); the CSV has an empty total, and an empty deep time exactly where the scan
/// dismissed the opener. Without `--cutoff` (or with `none`): a one-line error naming
/// the missing table and --cutoff, exit 2.
#[test]
fn bounds_without_a_table_count_the_librarys_bounds_at_the_cutoff() {
    use wordle_tree::search::opener_bound::DeepSettings;
    use wordle_tree::search::{Config, Solver};
    let full = wordle();
    for (seed, hard) in [(7u64, false), (8, true)] {
        let mut rng = Rng(seed);
        let dir = tempfile::tempdir().unwrap();
        let answers = rng.subset(&full.answers, 40);
        let guesses = rng.subset(&full.guesses[full.n_answers()..], 20);
        let words = |ws: &[Word]| ws.iter().map(|w| format!("{w}\n")).collect::<String>();
        std::fs::write(dir.path().join("a.txt"), words(&answers)).unwrap();
        std::fs::write(dir.path().join("g.txt"), words(&guesses)).unwrap();
        let game = Game::load(&ListSource::Files {
            answers: dir.path().join("a.txt"),
            guesses: dir.path().join("g.txt"),
        })
        .unwrap();
        let table = FeedbackTable::build(&game);
        let config = Config {
            max_guesses: wordle_tree::game::GAME_LIMIT,
            hard,
            memory_limit: 64 << 20,
            ..Config::default()
        };
        let openers: Vec<GuessId> = (0..game.n_guesses()).map(GuessId::new).collect();
        // The cutoff: the median scan bound + 1, so the scan dismisses some openers
        // and leaves some to the deep pass.
        let probe = Solver::new(&game, &table, config.clone());
        let mut scans: Vec<u64> = openers
            .iter()
            .map(|&o| {
                probe
                    .opener_bounds(
                        o,
                        &DeepSettings {
                            cutoff: None,
                            refine: 0,
                        },
                    )
                    .unwrap()
                    .scan
            })
            .collect();
        scans.sort_unstable();
        let cutoff = scans[scans.len() / 2] + 1;
        let scan_solver = Solver::new(&game, &table, config.clone());
        let deep_solver = Solver::new(&game, &table, config);
        let (mut est, mut scan, mut deep, mut ran) = (0, 0, 0, 0);
        let mut rows = HashMap::new();
        for &o in &openers {
            let s = scan_solver
                .opener_bounds(
                    o,
                    &DeepSettings {
                        cutoff: Some(cutoff),
                        refine: 0,
                    },
                )
                .unwrap();
            let d = if s.scan >= cutoff {
                s
            } else {
                ran += 1;
                deep_solver
                    .opener_bounds(
                        o,
                        &DeepSettings {
                            cutoff: Some(cutoff),
                            refine: 8,
                        },
                    )
                    .unwrap()
            };
            est += (s.estimate >= cutoff) as usize;
            scan += (s.scan >= cutoff) as usize;
            deep += (d.deep >= cutoff) as usize;
            rows.insert(
                game.guesses[o.index()].to_string(),
                (s, d, s.scan >= cutoff),
            );
        }
        let n = openers.len();
        assert!(
            scan > 0 && scan < n,
            "seed {seed}: scan dismisses {scan} of {n}"
        );
        let cut = cutoff.to_string();
        let mode: &[&str] = if hard { &["--hard"] } else { &[] };
        let mut args = mode.to_vec();
        args.extend([
            "--quiet",
            "--threads",
            "1",
            "bounds",
            "--cutoff",
            &cut,
            "--refine",
            "8",
            "--memory",
            "64",
            "--csv",
            "b.csv",
        ]);
        let (code, out, err) = common::run_on_lists(dir.path(), &args);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("no exact totals: gaps not shown"), "{out}");
        assert!(!out.contains("gap mean"), "{out}");
        let line = |name: &str| {
            out.lines()
                .find(|l| l.starts_with(name))
                .unwrap_or_else(|| panic!("no {name} line: {out}"))
                .to_string()
        };
        assert!(
            line("estimate ").contains(&format!("dismisses {est} of {n} ")),
            "{out}"
        );
        assert!(
            line("scan ").contains(&format!("dismisses {scan} of {n} ")),
            "{out}"
        );
        let deep_line = line("deep ");
        assert!(
            deep_line.contains(&format!("dismisses {deep} of {n} ")),
            "{out}"
        );
        assert!(
            deep_line.contains(&format!(
                "on the {ran} openers the scan left: dismisses {} of them",
                deep - scan
            )),
            "{out}"
        );
        assert!(
            line("left below").contains(&format!("{} of {n} openers", n - deep)),
            "{out}"
        );
        let csv = std::fs::read_to_string(dir.path().join("b.csv")).unwrap();
        let mut lines = csv.lines();
        assert_eq!(
            lines.next(),
            Some("opener,total,estimate,scan,deep,refined,scan_us,deep_us")
        );
        let mut seen = 0;
        for l in lines {
            let f: Vec<&str> = l.split(',').collect();
            let (s, d, dismissed) = rows[f[0]];
            assert_eq!(f[1], "", "{l}: no exact total");
            assert_eq!(
                [f[2], f[3], f[4], f[5]].map(|v| v.parse::<u64>().unwrap()),
                [s.estimate, s.scan, d.deep, d.refined],
                "{l}"
            );
            assert_eq!(
                f[7].is_empty(),
                dismissed,
                "{l}: deep time empty iff not run"
            );
            seen += 1;
        }
        assert_eq!(seen, n);
        // No cutoff: the one-line error naming the table and --cutoff, exit 2.
        for extra in [&[][..], &["--cutoff", "none"][..]] {
            let mut args = mode.to_vec();
            args.extend(["--quiet", "bounds"]);
            args.extend(extra);
            let (code, out, err) = common::run_on_lists(dir.path(), &args);
            assert_eq!(code, 2, "{out}{err}");
            assert_eq!(err.trim().lines().count(), 1, "{err}");
            assert!(
                err.contains("no opener table") && err.contains("--cutoff N"),
                "{err}"
            );
            assert!(err.contains(".csv"), "the missing table named: {err}");
        }
    }
}

/// The pair's value from its definition (`analysis::pair`), by brute force.
fn brute_pair(
    game: &Game,
    table: &FeedbackTable,
    max: u8,
    hard: bool,
    first: GuessId,
    second: GuessId,
) -> u64 {
    let obj = wordle_tree::search::Objective::total();
    let inf = wordle_tree::search::bound::INFEASIBLE as u64;
    let ids = game.all_answer_ids();
    let (w1, w2) = (game.guesses[first.index()], game.guesses[second.index()]);
    // `brute` counts each answer's whole depth, guesses 1 and 2 included.
    let mut total = 0;
    for (f1, b) in wordle_tree::game::candidates::partition(table, first, &ids) {
        if f1.is_all_green() {
            total += 1;
            continue;
        }
        if max < 2 {
            return inf;
        }
        let r1 = Revealed::default().after(w1, f1);
        if hard && !r1.allows(w2) {
            total += common::brute(game, table, &obj, max, &b, 2, Some(r1));
            continue;
        }
        for (f2, part) in wordle_tree::game::candidates::partition(table, second, &b) {
            if f2.is_all_green() {
                total += 2;
            } else {
                let r2 = hard.then(|| r1.after(w2, f2));
                total += common::brute(game, table, &obj, max, &part, 3, r2);
            }
        }
    }
    total.min(inf)
}

#[test]
fn pair_values_match_the_brute_force() {
    use wordle_tree::analysis::pair::{pair_bound, pair_value};
    use wordle_tree::search::{Config, Solver};
    let mut fallbacks = 0;
    let mut finished = 0;
    for seed in 0..24u64 {
        let mut rng = Rng(100 + seed);
        let hard = seed % 2 == 1;
        let max = [3u8, 4, 4, 5, 2][seed as usize % 5];
        let (a, g) = (8 + rng.below(12), 6 + rng.below(8));
        let game = common::random_game(&mut rng, a, g);
        let table = FeedbackTable::build(&game);
        let config = Config {
            max_guesses: max,
            hard,
            ..Config::default()
        };
        let solver = Solver::new(&game, &table, config);
        for _ in 0..12 {
            let first = GuessId::new(rng.below(game.n_guesses()));
            let second = GuessId::new(rng.below(game.n_guesses()));
            let want = brute_pair(&game, &table, max, hard, first, second);
            let got = pair_value(&solver, &table, first, second).unwrap();
            let (w1, w2) = (game.guesses[first.index()], game.guesses[second.index()]);
            let inf = wordle_tree::search::bound::INFEASIBLE as u64;
            assert_eq!(
                got.total,
                (want < inf).then_some(want),
                "seed {seed} {w1} {w2} max {max} hard {hard}: {got:?}"
            );
            // The cheap bound never exceeds the value, and (normal mode) the pair never
            // beats its first guess's own optimum.
            if let Some(total) = got.total {
                assert!(
                    pair_bound(&game, &table, hard, first, second) <= total,
                    "seed {seed} {w1} {w2}"
                );
                if !hard {
                    let alone = brute_opener(&game, &table, max, false, first);
                    assert!(alone <= total, "seed {seed} {w1} {w2}: {alone} > {total}");
                }
            }
            fallbacks += (got.fallback.0 > 0) as usize;
            finished += got.total.is_some() as usize;
        }
    }
    assert!(fallbacks > 0, "no hard-mode pair fell back");
    assert!(finished > 50, "too few pairs finished: {finished}");
}
