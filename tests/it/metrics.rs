//! `metrics` (the one-level metrics against the exact opener table): its statistics
//! against slow definitions (ranks by definition for Spearman, every pair for
//! Kendall), the whole report on small games whose tables come from exact solves,
//! the CLI's text, CSV, JSON, plots and refusals.

use crate::common;
use assert_cmd::Command;
use common::Rng;
use std::cmp::Ordering;
use wordle_tree::analysis::metrics::{self, Report, Truth, BEST_OF, METRICS, TOP_K};
use wordle_tree::analysis::{self, Metric, Score};
use wordle_tree::game::GuessId;
use wordle_tree::search::{Config, SolveError, Solver};
use wordle_tree::store::opener_table::{Entry, OpenerTable};
use wordle_tree::tree::Tree;
use wordle_tree::{FeedbackTable, Game, ListSource, Word};

// ---- slow references -------------------------------------------------------------

/// Ranks by definition: one more than the smaller values, plus half the others equal
/// to it.
fn slow_ranks<K: Ord>(x: &[K]) -> Vec<f64> {
    x.iter()
        .map(|a| {
            let less = x.iter().filter(|b| *b < a).count() as f64;
            let equal = x.iter().filter(|b| *b == a).count() as f64;
            1.0 + less + (equal - 1.0) / 2.0
        })
        .collect()
}

/// Spearman's rho: Pearson's correlation of the definition's ranks.
fn slow_spearman<A: Ord, B: Ord>(x: &[A], y: &[B]) -> Option<f64> {
    let (rx, ry) = (slow_ranks(x), slow_ranks(y));
    let n = x.len() as f64;
    if x.len() < 2 {
        return None;
    }
    let (mx, my) = (rx.iter().sum::<f64>() / n, ry.iter().sum::<f64>() / n);
    let cov: f64 = rx.iter().zip(&ry).map(|(a, b)| (a - mx) * (b - my)).sum();
    let vx: f64 = rx.iter().map(|a| (a - mx).powi(2)).sum();
    let vy: f64 = ry.iter().map(|b| (b - my).powi(2)).sum();
    (vx > 0.0 && vy > 0.0).then(|| cov / (vx * vy).sqrt())
}

/// Kendall's tau-b by brute force over every pair.
fn slow_kendall<A: Ord, B: Ord>(x: &[A], y: &[B]) -> Option<f64> {
    let (mut c, mut d, mut tx, mut ty, mut n0) = (0i64, 0i64, 0i64, 0i64, 0i64);
    for i in 0..x.len() {
        for j in i + 1..x.len() {
            n0 += 1;
            let (sx, sy) = (x[i].cmp(&x[j]), y[i].cmp(&y[j]));
            tx += (sx == Ordering::Equal) as i64;
            ty += (sy == Ordering::Equal) as i64;
            if sx != Ordering::Equal && sy != Ordering::Equal {
                if sx == sy {
                    c += 1;
                } else {
                    d += 1;
                }
            }
        }
    }
    (n0 > tx && n0 > ty).then(|| (c - d) as f64 / (((n0 - tx) * (n0 - ty)) as f64).sqrt())
}

fn close(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => (a - b).abs() < 1e-9,
        (None, None) => true,
        _ => false,
    }
}

#[test]
fn fast_statistics_equal_the_definitions_on_random_samples_with_ties() {
    let mut rng = Rng(0x5eed);
    for round in 0..400 {
        let n = 1 + rng.below(60);
        // Few distinct values: many ties; now and then one sample is constant.
        let vx = 1 + rng.below(8);
        let vy = 1 + rng.below(if round % 7 == 0 { 1 } else { 12 });
        let x: Vec<i64> = (0..n).map(|_| rng.below(vx) as i64).collect();
        let y: Vec<u64> = (0..n).map(|_| rng.below(vy) as u64).collect();
        assert_eq!(metrics::mid_ranks(&x), slow_ranks(&x), "round {round}");
        assert!(
            close(metrics::spearman(&x, &y), slow_spearman(&x, &y)),
            "round {round}: {x:?} {y:?}"
        );
        assert!(
            close(metrics::kendall_tau_b(&x, &y), slow_kendall(&x, &y)),
            "round {round}: {x:?} {y:?}"
        );
    }
}

// ---- the report on small games -------------------------------------------------------

/// 25-40 answers from the default answers; about 120 allowed guesses.
fn small_game(seed: u64) -> Game {
    let full = Game::load(&ListSource::Named("wordle".into())).unwrap();
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let n = 25 + rng.below(16);
    let answers = rng.pick(&full.answers, n);
    let guesses = rng.pick(&full.guesses[full.n_answers()..], 120 - n);
    Game::from_words(&answers, &guesses)
}

/// The complete table of a small game, every opener solved by `solve_opener`.
fn solved_table(game: &Game, hard: bool, max_guesses: u8) -> OpenerTable {
    let feedback = FeedbackTable::build(game);
    let solver = Solver::new(
        game,
        &feedback,
        Config {
            hard,
            max_guesses,
            ..Config::default()
        },
    );
    let entries: Vec<(Word, Entry)> = (0..game.n_guesses())
        .map(|g| {
            let entry = match solver.solve_opener(GuessId::new(g), &|_, _, _| {}) {
                Ok((total, root)) => {
                    let replay = Tree::new(game, hard, max_guesses, root)
                        .unwrap()
                        .verify(game);
                    Entry::Exact {
                        total,
                        max_depth: replay.max_depth() as u8,
                    }
                }
                Err(SolveError::Infeasible(_)) => Entry::CannotFinish,
                Err(e) => panic!("{e}"),
            };
            (game.guesses[g], entry)
        })
        .collect();
    OpenerTable::new(game, hard, max_guesses, entries)
}

/// A metric's badness key from its definition (smaller is better; floats to 1e-9).
fn badness(m: Metric, s: &Score) -> i64 {
    match m {
        Metric::Worst => s.worst as i64,
        Metric::Expected => s.sum_squares as i64,
        Metric::Entropy => -(s.entropy * 1e9).round() as i64,
        Metric::Buckets => -(s.buckets as i64),
        Metric::Frequency => -(s.frequency * 1e9).round() as i64,
    }
}

/// `rank`'s order, from its documented rule: the metric, its tie-break (sum of squares
/// for worst and buckets), then alphabetical.
fn rank_order(game: &Game, m: Metric, scores: &[Score], set: &[usize]) -> Vec<usize> {
    let mut order = set.to_vec();
    let second = |s: &Score| match m {
        Metric::Worst | Metric::Buckets => s.sum_squares as i64,
        _ => 0,
    };
    order.sort_by_key(|&g| (badness(m, &scores[g]), second(&scores[g]), game.guesses[g]));
    order
}

/// Checks every figure of the report against the definitions, from the table's rows
/// and the scores.
fn check_report(game: &Game, table: &OpenerTable, r: &Report) {
    let feedback = FeedbackTable::build(game);
    let ids = game.all_answer_ids();
    let mut scores = analysis::rank(game, &feedback, &ids, Metric::Worst);
    scores.sort_by_key(|s| s.guess);
    // The truth: the total, cannot-finish after every total; unsolved left out.
    let truth = |g: usize| -> Option<u64> {
        table.get(game.guesses[g]).map(|row| match row.entry {
            Entry::Exact { total, .. } => total,
            Entry::CannotFinish => u64::MAX,
        })
    };
    let covered: Vec<usize> = (0..game.n_guesses())
        .filter(|&g| truth(g).is_some())
        .collect();
    let exact: Vec<usize> = covered
        .iter()
        .copied()
        .filter(|&g| truth(g) != Some(u64::MAX))
        .collect();
    let optimum = exact.iter().map(|&g| truth(g).unwrap()).min().unwrap();
    assert_eq!(r.optimum, optimum);
    assert_eq!(r.exact, exact.len());
    assert_eq!(r.cannot_finish, covered.len() - exact.len());
    assert_eq!(r.complete, covered.len() == game.n_guesses());
    // Exact rank by definition: one more than the exact totals below.
    let exact_rank = |g: usize| {
        let t = truth(g).unwrap();
        1 + exact.iter().filter(|&&h| truth(h).unwrap() < t).count()
    };
    assert_eq!(r.metrics.len(), METRICS.len());
    for (row, &m) in r.metrics.iter().zip(&METRICS) {
        assert_eq!(row.metric, m);
        for (set, sp, kd) in [
            (&covered, row.spearman, row.kendall),
            (&exact, row.spearman_exact, row.kendall_exact),
        ] {
            let x: Vec<i64> = set.iter().map(|&g| badness(m, &scores[g])).collect();
            let y: Vec<u64> = set.iter().map(|&g| truth(g).unwrap()).collect();
            assert!(close(sp, slow_spearman(&x, &y)), "{m:?}: {sp:?}");
            assert!(close(kd, slow_kendall(&x, &y)), "{m:?}: {kd:?}");
        }
        let order = rank_order(game, m, &scores, &covered);
        for (k, inside) in &row.overlap {
            let want = order
                .iter()
                .take(*k)
                .filter(|&&g| truth(g) != Some(u64::MAX) && exact_rank(g) <= *k)
                .count();
            assert_eq!(*inside, want, "{m:?} top-{k}");
        }
        assert_eq!(
            row.overlap.iter().map(|o| o.0).collect::<Vec<_>>(),
            TOP_K.to_vec()
        );
        let all: Vec<usize> = (0..game.n_guesses()).collect();
        let first = rank_order(game, m, &scores, &all)[0];
        assert_eq!(row.favourite.opener, game.guesses[first], "{m:?}");
        assert_eq!(row.favourite.metric_rank, 1);
        match (row.favourite.truth, truth(first)) {
            (Truth::Exact { total, rank, .. }, Some(t)) => {
                assert_eq!(total, t);
                assert_eq!(rank, exact_rank(first));
                assert_eq!(row.favourite.over_optimum, Some(t - optimum));
            }
            (Truth::CannotFinish, Some(u64::MAX)) | (Truth::Unsolved, None) => {
                assert_eq!(row.favourite.over_optimum, None)
            }
            (t, want) => panic!("{m:?}: favourite {t:?}, want {want:?}"),
        }
        let best = order
            .iter()
            .take(BEST_OF)
            .enumerate()
            .filter(|(_, &g)| truth(g) != Some(u64::MAX))
            .min_by_key(|(i, &g)| (truth(g), *i));
        match (&row.best_of_top, best) {
            (Some(p), Some((i, &g))) => {
                assert_eq!(p.opener, game.guesses[g]);
                assert_eq!(p.metric_rank, i + 1);
            }
            (None, None) => {}
            (p, b) => panic!("{m:?}: best of top {p:?} {b:?}"),
        }
    }
}

#[test]
fn report_equals_the_definitions_on_small_games_with_openers_that_cannot_finish() {
    let (mut with_cannot, mut with_exact) = (0, 0);
    for seed in 1..=4 {
        let game = small_game(seed);
        // Hard mode in 3 guesses: some openers cannot find every answer.
        let table = solved_table(&game, true, 3);
        if table.rows().iter().all(|r| r.entry == Entry::CannotFinish) {
            continue;
        }
        let feedback = FeedbackTable::build(&game);
        let r = Report::build(&game, &feedback, &table, true).unwrap();
        check_report(&game, &table, &r);
        with_cannot += (r.cannot_finish > 0) as usize;
        with_exact += 1;
        // The players: their totals and the differences they report add up.
        assert_eq!(r.players.len(), METRICS.len());
        for p in &r.players {
            let sim = analysis::simulate(&game, &feedback, p.metric, None, true);
            assert_eq!(p.total, sim.total(), "{:?}", p.metric);
            assert_eq!(p.over_optimum, p.total as i64 - r.optimum as i64);
            assert_eq!(
                p.over_own_opener,
                p.opener_truth.total().map(|t| p.total as i64 - t as i64)
            );
            let over: usize = p.histogram.iter().skip(4).sum::<usize>() + p.histogram[0];
            assert_eq!(p.over_limit, over, "{:?}", p.metric);
        }
    }
    assert!(
        with_cannot > 0 && with_exact > 0,
        "the seeds must cover both kinds"
    );
}

#[test]
fn report_on_a_partial_table_covers_only_its_openers() {
    let game = small_game(9);
    let table = solved_table(&game, false, 6);
    let some: Vec<(Word, Entry)> = table
        .rows()
        .iter()
        .step_by(3)
        .map(|r| (r.opener, r.entry))
        .collect();
    let partial = OpenerTable::new(&game, false, 6, some);
    let feedback = FeedbackTable::build(&game);
    let r = Report::build(&game, &feedback, &partial, false).unwrap();
    assert!(!r.complete);
    assert_eq!(r.solved, partial.solved());
    assert!(r.players.is_empty());
    check_report(&game, &partial, &r);
    // A table with no exact total gives no report.
    let none = OpenerTable::new(&game, false, 6, Vec::new());
    assert!(Report::build(&game, &feedback, &none, false).is_none());
}

// ---- the command --------------------------------------------------------------------

fn cli() -> Command {
    Command::cargo_bin("wordle-tree").unwrap()
}

/// A small custom game as files in a temporary directory, with its complete table
/// (normal mode, 6 guesses) as t.csv and a partial one as p.csv.
struct Files {
    dir: tempfile::TempDir,
    game: Game,
}

impl Files {
    fn new(seed: u64) -> Files {
        let game = small_game(seed);
        let dir = tempfile::tempdir().unwrap();
        let words = |w: &[Word]| w.iter().map(|w| format!("{w}\n")).collect::<String>();
        std::fs::write(dir.path().join("a.txt"), words(&game.answers)).unwrap();
        std::fs::write(dir.path().join("g.txt"), words(&game.guesses)).unwrap();
        let table = solved_table(&game, false, 6);
        table.save(&dir.path().join("t.csv")).unwrap();
        let half: Vec<(Word, Entry)> = table.rows()[..table.solved() / 2]
            .iter()
            .map(|r| (r.opener, r.entry))
            .collect();
        OpenerTable::new(&game, false, 6, half)
            .save(&dir.path().join("p.csv"))
            .unwrap();
        Files { dir, game }
    }

    fn run(&self, args: &[&str]) -> (i32, String, String) {
        common::run_on_lists(self.dir.path(), args)
    }

    fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.dir.path().join(name)).unwrap()
    }
}

#[test]
fn cli_metrics_text_csv_json_and_svg_plots() {
    let f = Files::new(21);
    let (code, out, err) = f.run(&["--table", "t.csv", "metrics"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("table t.csv: complete, all"), "{out}");
    assert!(!out.contains("PARTIAL"), "{out}");
    for m in ["worst", "expected", "frequency", "buckets", "entropy"] {
        assert!(
            out.lines()
                .filter(|l| l.trim_start().starts_with(m))
                .count()
                >= 4,
            "{m}: {out}"
        );
    }
    assert!(out.contains("heuristic players"), "{out}");
    let (code, csv, _) = f.run(&["--table", "t.csv", "metrics", "--format", "csv"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 1 + METRICS.len(), "{csv}");
    let columns = lines[0].split(',').count();
    assert!(
        lines.iter().all(|l| l.split(',').count() == columns),
        "{csv}"
    );
    assert!(
        lines[1..].iter().all(|l| l.contains(",normal,yes,")),
        "{csv}"
    );
    let (code, json, _) = f.run(&["--table", "t.csv", "metrics", "--format", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["complete"], true);
    assert_eq!(v["openers"], f.game.n_guesses());
    assert_eq!(v["metrics"].as_array().unwrap().len(), METRICS.len());
    assert_eq!(v["players"].as_array().unwrap().len(), METRICS.len());
    assert!(v["metrics"][0]["spearman"].is_number());
    assert!(v["conventions"].as_str().unwrap().contains("tau-b"));
    // Plots (SVG: no rasteriser needed to check them).
    let (code, _, err) = f.run(&[
        "--table",
        "t.csv",
        "metrics",
        "--plot",
        "s.svg",
        "--plot-totals",
        "h.svg",
        "--plot-depths",
        "d.svg",
    ]);
    assert_eq!(code, 0, "{err}");
    let scatter = f.read("s.svg");
    assert!(scatter.starts_with("<svg"), "{scatter}");
    assert!(scatter.contains("largest bucket") && scatter.contains("Spearman"));
    assert!(f.read("h.svg").contains("Exact totals of the openers"));
    let depths = f.read("d.svg");
    assert!(depths.contains("entropy player"), "{depths}");
    let (code, out, err) = f.run(&["simulate", "--plot", "one.svg"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("plot written to one.svg"));
    assert!(f.read("one.svg").contains("Guess distribution"));
}

#[test]
fn cli_metrics_labels_a_partial_table_and_refuses_missing_tables_and_bad_plots() {
    let f = Files::new(22);
    let (code, out, err) = f.run(&["--table", "p.csv", "metrics", "--no-players"]);
    assert_eq!(code, 0, "{err}");
    let n = f.game.n_guesses();
    assert!(
        out.contains(&format!("PARTIAL, {} of {n} openers", n / 2)),
        "{out}"
    );
    assert!(!out.contains("complete"), "{out}");
    let (_, json, _) = f.run(&[
        "--table",
        "p.csv",
        "metrics",
        "--no-players",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["complete"], false);
    assert_eq!(v["solved"], n / 2);
    // No table for the lists: one line naming the table needed, exit 2.
    let (code, _, err) = f.run(&["metrics"]);
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("metrics needs custom-") && err.contains(".normal.csv"),
        "{err}"
    );
    let out = cli()
        .args(["--list", "wordle-all", "--hard", "metrics"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("metrics needs wordle-all.hard.csv"), "{err}");
    // A table of another mode: named, exit 2.
    let (code, _, err) = f.run(&["--hard", "--table", "t.csv", "metrics"]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("error: t.csv: an opener table for normal mode"),
        "{err}"
    );
    // A plot name that is neither .svg nor .png, or no font: refused, nothing written.
    let (code, _, err) = f.run(&[
        "--table",
        "t.csv",
        "metrics",
        "--no-players",
        "--plot",
        "x.txt",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("x.txt: the plot's file name must end in .svg or .png"),
        "{err}"
    );
    assert!(!f.dir.path().join("x.txt").exists());
    let out = cli()
        .current_dir(f.dir.path())
        .env("WORDLE_TREE_FONT", "no-such-font.ttf")
        .args([
            "--answers",
            "a.txt",
            "--guesses",
            "g.txt",
            "--table",
            "t.csv",
        ])
        .args(["metrics", "--no-players", "--plot", "y.svg"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("WORDLE_TREE_FONT=no-such-font.ttf cannot be read"),
        "{err}"
    );
    assert!(!f.dir.path().join("y.svg").exists());
}
