//! `check` against the brute force on random small games, and the published facts on
//! the full lists through the binary.

use crate::common;
use crate::common::{assert_refused, cli, tiny_game};
use common::{brute, random_game, Rng};
use std::sync::atomic::AtomicBool;
use wordle_tree::game::hard::Revealed;
use wordle_tree::game::{AnswerId, GuessId};
use wordle_tree::jobs::check::{self, Verdict};
use wordle_tree::search::bound::{INFEASIBLE, OVER_PENALTY};
use wordle_tree::search::Objective;
use wordle_tree::FeedbackTable;

static NEVER: AtomicBool = AtomicBool::new(false);

/// The brute-force least cost of the whole game when `opener` is forced.
fn brute_from(
    game: &wordle_tree::Game,
    table: &FeedbackTable,
    obj: &Objective,
    max: u8,
    opener: GuessId,
    hard: bool,
) -> u64 {
    let ids: Vec<AnswerId> = game.all_answer_ids();
    let word = game.guesses[opener.index()];
    let mut cost = 0;
    for (f, b) in wordle_tree::game::candidates::partition(table, opener, &ids) {
        let fb = f;
        cost += if fb.is_all_green() {
            common::answer_cost(obj, max, b[0], 1)
        } else {
            brute(
                game,
                table,
                obj,
                max,
                &b,
                2,
                hard.then(|| Revealed::default().after(word, fb)),
            )
        };
    }
    cost.min(INFEASIBLE as u64)
}

#[test]
fn within_and_min_over_match_brute_force() {
    for seed in 1..=24u64 {
        let mut rng = Rng(seed * 31337);
        let game = random_game(&mut rng, 6 + (seed % 8) as usize, 14);
        let table = FeedbackTable::build(&game);
        let hard = seed % 2 == 0;
        let opener = GuessId::new(rng.below(game.n_guesses()));
        for depth in 2..=4u8 {
            let want = brute_from(
                &game,
                &table,
                &Objective::feasibility(),
                depth,
                opener,
                hard,
            ) == 0;
            match check::within(&game, &table, opener, depth, hard, &[], &NEVER).unwrap() {
                Verdict::Proved(tree) => {
                    assert!(
                        want,
                        "seed {seed} depth {depth}: proved but brute force refutes"
                    );
                    let replay = tree.verify(&game);
                    assert!(replay.is_valid(), "{:?}", replay.problems);
                    assert!(replay.max_depth() <= depth as u32);
                }
                Verdict::Refuted { evidence, .. } => {
                    assert!(
                        !want,
                        "seed {seed} depth {depth}: refuted but brute force proves"
                    );
                    let e = evidence.expect("evidence");
                    assert!(!e.candidates.is_empty());
                }
            }
            let mo = check::min_over(&game, &table, opener, depth, hard, &NEVER).unwrap();
            let want = brute_from(
                &game,
                &table,
                &Objective::min_over(depth, 6),
                6,
                opener,
                hard,
            );
            assert_eq!(
                mo.over.len() as u64,
                want / OVER_PENALTY as u64,
                "seed {seed} depth {depth}"
            );
            assert_eq!(
                mo.total,
                want % OVER_PENALTY as u64,
                "seed {seed} depth {depth}"
            );
            assert!(mo.tree.verify(&game).is_valid());
            // Exempting exactly the answers over the limit must make the claim true,
            // and exempting all but one of them (when there are any) must not.
            let proved = |exempt: &[AnswerId]| {
                matches!(
                    check::within(&game, &table, opener, depth, hard, exempt, &NEVER).unwrap(),
                    Verdict::Proved(_)
                )
            };
            if !mo.over.is_empty() {
                assert!(proved(&mo.over), "seed {seed} depth {depth}");
                assert!(!proved(&mo.over[1..]), "seed {seed} depth {depth}");
            }
        }
    }
}

/// The feasibility search takes a shortcut on states of three or more guesses left
/// (it expands the best-splitting answers before scanning every guess; states of more
/// than 22 candidates and of fewer take different paths). Brute force cannot reach
/// games that large, so the verdict is checked against the plain total-cost solver,
/// which takes no shortcut: a tree within D exists iff its least total within D is
/// finite. Answers share letters here (a window of the list), so both verdicts occur.
#[test]
fn within_matches_the_total_cost_solver_on_larger_games() {
    use wordle_tree::search::{Config, SolveError, Solver};
    let (mut proved, mut refuted) = (0, 0);
    for seed in 1..=32u64 {
        let mut rng = Rng(seed * 7_777_777);
        // Half the games have few guesses beyond the answers, so that the shortcut's
        // first tries often fail (and the full scan must take over).
        let extra = if seed % 2 == 0 {
            (seed % 3) as usize * 5
        } else {
            100
        };
        let game = random_game(&mut rng, 40 + (seed % 5) as usize * 25, extra);
        let table = FeedbackTable::build(&game);
        let ids: Vec<AnswerId> = game.all_answer_ids();
        for depth in 3..=5u8 {
            let total = Solver::new(
                &game,
                &table,
                Config {
                    max_guesses: depth,
                    ..Config::default()
                },
            );
            let feasible = Solver::new(
                &game,
                &table,
                Config {
                    max_guesses: depth,
                    objective: Objective::feasibility(),
                    ..Config::default()
                },
            );
            // The whole game, opener free.
            let want = total
                .cost(&ids, depth, &Revealed::default())
                .unwrap()
                .is_some();
            let got = feasible.cost(&ids, depth, &Revealed::default()).unwrap();
            assert_eq!(got.is_some(), want, "seed {seed} depth {depth}");
            // From a few openers, through `check`.
            for _ in 0..3 {
                let opener = GuessId::new(rng.below(game.n_guesses()));
                let want = match total.solve_opener(opener, &|_, _, _| {}) {
                    Ok(_) => true,
                    Err(SolveError::Infeasible(_)) => false,
                    Err(e) => panic!("{e}"),
                };
                match check::within(&game, &table, opener, depth, false, &[], &NEVER).unwrap() {
                    Verdict::Proved(tree) => {
                        assert!(
                            want,
                            "seed {seed} depth {depth} opener {opener}: proved wrongly"
                        );
                        let replay = tree.verify(&game);
                        assert!(replay.is_valid(), "{:?}", replay.problems);
                        assert!(replay.max_depth() <= depth as u32);
                        proved += 1;
                    }
                    Verdict::Refuted { .. } => {
                        assert!(
                            !want,
                            "seed {seed} depth {depth} opener {opener}: refuted wrongly"
                        );
                        refuted += 1;
                    }
                }
            }
        }
    }
    eprintln!("proved {proved}, refuted {refuted}");
    assert!(
        proved >= 10 && refuted >= 10,
        "both verdicts exercised: {proved} / {refuted}"
    );
}

/// The published facts: `salet` is refuted within 4 here, and proved within 5 by
/// `witness_tree_is_saved_and_verifies` (one proof run for both tests).
#[test]
fn published_depth_facts_on_the_full_lists() {
    let out = cli()
        .args(["check", "--opener", "salet", "--max-guesses", "4"])
        .assert()
        .code(1);
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(text.starts_with("REFUTED"), "{text}");
    assert!(text.contains("evidence: after salet:"), "{text}");
}

#[test]
fn witness_tree_is_saved_and_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("w.tree");
    let out = cli()
        .args(["check", "--opener", "salet", "--max-guesses", "5", "--out"])
        .arg(&path)
        .assert()
        .code(0);
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(text.starts_with("PROVED"), "{text}");
    let out = cli().arg("verify").arg(&path).assert().code(0);
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(
        text.starts_with("VALID") && text.contains("at most 5 guesses"),
        "{text}"
    );
}

#[test]
fn bad_check_input_exits_2_with_a_message() {
    for (args, needle) in [
        (
            vec!["check", "--opener", "salet", "--max-guesses", "0"],
            "from 1 to 10",
        ),
        (
            vec!["check", "--opener", "salet", "--max-guesses", "11"],
            "from 1 to 10",
        ),
        (
            vec!["check", "--opener", "salet", "--min-over", "6"],
            "--min-over must be",
        ),
        (
            vec!["check", "--opener", "zzzzz", "--max-guesses", "4"],
            "not in the allowed guesses",
        ),
        (
            vec!["check", "--opener", "salet"],
            "needs --max-guesses D or --min-over D",
        ),
        (
            vec!["check", "--opener", "any", "--min-over", "3"],
            "needs --results",
        ),
        (
            vec![
                "check",
                "--opener",
                "salet",
                "--max-guesses",
                "4",
                "--except",
                "qqqqq",
            ],
            "not one of the wordle answers",
        ),
        (
            vec![
                "check",
                "--opener",
                "any",
                "--max-guesses",
                "4",
                "--shard",
                "0/3",
            ],
            "--shard",
        ),
        (
            vec![
                "check",
                "--opener",
                "salet",
                "--max-guesses",
                "4",
                "--shard",
                "1/2",
            ],
            "go with --opener any",
        ),
    ] {
        assert_refused(&args, needle);
    }
}

#[test]
fn any_opener_sweep_is_resumable_and_sharded() {
    // A tiny custom game keeps the sweep instant.
    let (dir, answers, guesses) = tiny_game();
    let results = dir.path().join("r");
    let run = |shard: &str| {
        cli()
            .arg("--answers")
            .arg(&answers)
            .arg("--guesses")
            .arg(&guesses)
            .args([
                "check",
                "--opener",
                "any",
                "--max-guesses",
                "2",
                "--shard",
                shard,
                "--results",
            ])
            .arg(&results)
            .assert()
    };
    let first = run("1/2").get_output().status.code();
    let files = std::fs::read_dir(&results).unwrap().count();
    assert!(files >= 1);
    // Rerunning gives the same verdict from the stored files.
    assert_eq!(run("1/2").get_output().status.code(), first);
    assert_eq!(std::fs::read_dir(&results).unwrap().count(), files);
}

/// The fact `check --subset` rests on: if a tree from an opener finds every answer
/// within D, then, on any subset of the answers (same guesses), one from the same
/// opener does too; so a refutation on the subset carries over. Checked by brute force
/// on random small games, normal and hard mode.
#[test]
fn a_refutation_on_a_subset_of_the_answers_holds_for_the_whole_list() {
    let mut carried = 0;
    for seed in 1..=20u64 {
        let mut rng = Rng(seed * 7919);
        let game = random_game(&mut rng, 7 + (seed % 6) as usize, 12);
        let table = FeedbackTable::build(&game);
        let hard = seed % 2 == 1;
        let keep: Vec<wordle_tree::Word> = game
            .answers
            .iter()
            .copied()
            .filter(|_| rng.below(3) > 0)
            .collect();
        if keep.is_empty() {
            continue;
        }
        let sub = wordle_tree::Game::from_words(&keep, &game.guesses);
        let sub_table = FeedbackTable::build(&sub);
        for depth in 2..=3u8 {
            for o in 0..game.n_guesses() {
                let opener = GuessId::new(o);
                let word = game.guesses[o];
                let sub_opener = sub.guess_id(word).unwrap();
                let obj = Objective::feasibility();
                let full = brute_from(&game, &table, &obj, depth, opener, hard) < INFEASIBLE as u64;
                let part =
                    brute_from(&sub, &sub_table, &obj, depth, sub_opener, hard) < INFEASIBLE as u64;
                assert!(!full || part, "seed {seed}, opener {word}, depth {depth}");
                carried += (!part) as usize;
            }
        }
    }
    assert!(carried > 0, "some subset refutations exercised");
}

#[test]
fn check_on_a_subset_refutes_for_the_whole_list_or_says_undecided() {
    let (dir, answers, guesses) = tiny_game();
    let subset = dir.path().join("s.txt");
    let run = |words: &str, depth: &str, extra: &[&str]| {
        std::fs::write(&subset, words).unwrap();
        let out = cli()
            .arg("--answers")
            .arg(&answers)
            .arg("--guesses")
            .arg(&guesses)
            .args(["--quiet", "check", "--max-guesses", depth, "--subset"])
            .arg(&subset)
            .args(extra)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    // Two answers cannot both be found with one guess: refuted for every opener on
    // the subset, hence on the whole list; the whole list agrees.
    let (code, out, _) = run("cigar\nrebut\n", "1", &["--opener", "any"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("REFUTED on the whole list: no opener finds every one of the 10 answers within 1 guesses"), "{out}");
    let whole = cli()
        .arg("--answers")
        .arg(&answers)
        .arg("--guesses")
        .arg(&guesses)
        .args(["--quiet", "check", "--opener", "any", "--max-guesses", "1"])
        .output()
        .unwrap();
    assert_eq!(whole.status.code(), Some(1));
    // One opener.
    let (code, out, _) = run("cigar\nrebut\n", "1", &["--opener", "salet"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("from salet, no tree finds"), "{out}");
    // One answer is found at once from itself: the subset decides nothing for
    // cigar, and the sweep goes on past it: every other opener is refuted. With
    // --results every opener's file is kept, and a rerun reads the same verdict.
    let results = dir.path().join("r");
    let results_arg = results.to_str().unwrap();
    for pass in 0..2 {
        let (code, out, _) = run(
            "cigar\n",
            "1",
            &["--opener", "any", "--results", results_arg],
        );
        assert_eq!(code, Some(2), "pass {pass}: {out}");
        assert!(
            out.contains("REFUTED on the whole list for 12 of the 13 openers"),
            "pass {pass}: {out}"
        );
        assert!(
            out.contains("UNDECIDED for the 1 opener(s) that finish every answer of the subset within 1: cigar;"),
            "pass {pass}: {out}"
        );
        assert_eq!(std::fs::read_dir(&results).unwrap().count(), 13);
    }
    // One opener.
    let (code, out, _) = run("cigar\n", "1", &["--opener", "cigar"]);
    assert_eq!(code, Some(2), "{out}");
    assert!(out.contains("UNDECIDED for the whole list"), "{out}");
    // A word that is not an answer is named with its line.
    let (code, _, err) = run("cigar\nsalet\n", "2", &["--opener", "any"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("s.txt:2: 'salet' is not one of the 10 answers"),
        "{err}"
    );
    // --subset goes with --max-guesses only.
    let (code, _, err) = run("cigar\n", "2", &["--opener", "salet", "--out", "x.tree"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("--subset goes with --max-guesses D only"),
        "{err}"
    );
}

#[test]
fn largest_groups_are_the_biggest_one_position_patterns_largest_first() {
    let words: Vec<wordle_tree::Word> = [
        "bills", "fills", "hills", "mills", "bells", "balls", "crane", "crate", "grate",
    ]
    .iter()
    .map(|w| wordle_tree::Word::parse(w).unwrap())
    .collect();
    let game = wordle_tree::Game::from_words(&words, &words);
    let groups = check::largest_groups(&game, 3);
    let named: Vec<(String, usize)> = groups.iter().map(|(p, v)| (p.clone(), v.len())).collect();
    // _ills (4), then the groups of 3 and 2 in pattern order: b_lls (bills bells balls).
    assert_eq!(named[0], ("_ills".to_string(), 4));
    assert_eq!(named[1], ("b_lls".to_string(), 3));
    assert_eq!(named[2].1, 2);
    for (p, v) in &groups {
        for a in v {
            let w = game.answers[a.index()].0;
            let hole = p.find('_').unwrap();
            assert!(w
                .iter()
                .enumerate()
                .all(|(i, &c)| i == hole || c == p.as_bytes()[i]));
        }
    }
    let big = wordle_tree::Game::load(&wordle_tree::game::ListSource::Named("wordle-all".into()))
        .unwrap();
    let top = check::largest_groups(&big, 2);
    assert_eq!((top[0].0.as_str(), top[0].1.len()), ("_ills", 19));
    assert_eq!(top[1].1.len(), 15);
}

/// On a big game, `check --opener any --max-guesses D` first tries the answers of the
/// largest one-position groups: on the big game they refute "within 5" (a slice of
/// the openers keeps this quick: 7 of them, 2.5 CPU-s in the test profile, where 33
/// took 9).
#[test]
fn any_opener_on_the_big_game_is_refuted_on_its_largest_groups() {
    let out = cli()
        .args([
            "--list",
            "wordle-all",
            "--quiet",
            "check",
            "--opener",
            "any",
            "--max-guesses",
            "5",
            "--shard",
            "7/2000",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.starts_with("REFUTED: no opener finds every answer within 5 guesses (shard 7/2000: 7 openers); 7 openers checked (lists wordle-all (12972 answers"),
        "{text}"
    );
    assert!(
        text.contains("on the 49 answers of the 3 largest one-position groups (_ills 19, _acks 15, _angs 15) only"),
        "{text}"
    );
}

/// The bucket search in rounds (`search/budget.rs`): a search cut off by its budget
/// must store nothing unsettled, so tiny budgets (many cut-offs, one solver and its
/// transposition table kept across every opener and depth) must give brute force's
/// verdict, and a failing bucket named must really fail. A deadline already passed
/// gives up before the first round.
#[test]
fn bucket_rounds_under_tiny_budgets_match_brute_force() {
    use wordle_tree::search::{Buckets, Config, Solver};
    let mut refuted = 0;
    let mut proved = 0;
    for seed in 1..=16u64 {
        let mut rng = Rng(seed * 104729);
        let game = random_game(&mut rng, 10 + (seed % 9) as usize, 12);
        let table = FeedbackTable::build(&game);
        let hard = seed % 2 == 0;
        let ids = game.all_answer_ids();
        for first_budget in [1, 3] {
            for depth in 2..=4u8 {
                let config = Config {
                    max_guesses: depth,
                    hard,
                    objective: Objective::feasibility(),
                    first_budget,
                    ..Config::default()
                };
                let solver = Solver::new(&game, &table, config);
                for o in 0..game.n_guesses() {
                    let opener = GuessId::new(o);
                    let word = game.guesses[o];
                    let obj = Objective::feasibility();
                    let want = brute_from(&game, &table, &obj, depth, opener, hard) == 0;
                    let root = Revealed::default();
                    let got = solver
                        .settle_buckets(opener, &ids, depth, &root, None)
                        .unwrap();
                    match got {
                        Buckets::AllFinish => {
                            assert!(
                                want,
                                "seed {seed} {word} depth {depth}: brute force refutes"
                            );
                            proved += 1;
                        }
                        Buckets::Fails(f, b) => {
                            assert!(
                                !want,
                                "seed {seed} {word} depth {depth}: brute force proves"
                            );
                            let after = hard.then(|| root.after(word, f));
                            let cost = brute(&game, &table, &obj, depth, &b, 2, after);
                            assert!(
                                cost >= INFEASIBLE as u64,
                                "seed {seed} {word}: bucket {f} can finish"
                            );
                            refuted += 1;
                        }
                        Buckets::GaveUp => panic!("no deadline, no giving up"),
                    }
                    let past = Some(std::time::Instant::now());
                    let late = solver
                        .settle_buckets(opener, &ids, depth, &root, past)
                        .unwrap();
                    assert!(
                        late == Buckets::GaveUp || (depth <= 1),
                        "seed {seed} {word}: a passed deadline gives up, not {late:?}"
                    );
                }
            }
        }
    }
    assert!(
        refuted > 50 && proved > 50,
        "both verdicts exercised: {refuted} {proved}"
    );
    // Larger games, where states are expanded and cut off deep in the search: the
    // verdicts equal those of a search without a budget (itself checked against
    // brute force above and in tests/it/solver.rs).
    let mut cut = 0;
    for seed in 1..=6u64 {
        let mut rng = Rng(seed * 7727);
        let game = random_game(&mut rng, 45, 6);
        let table = FeedbackTable::build(&game);
        let hard = seed % 2 == 0;
        let ids = game.all_answer_ids();
        for depth in 3..=4u8 {
            let solver = |first_budget| {
                let config = Config {
                    max_guesses: depth,
                    hard,
                    objective: Objective::feasibility(),
                    first_budget,
                    ..Config::default()
                };
                Solver::new(&game, &table, config)
            };
            let (rounds, plain) = (solver(1), solver(u64::MAX));
            for o in 0..game.n_guesses() {
                let opener = GuessId::new(o);
                let root = Revealed::default();
                let want = plain
                    .settle_buckets(opener, &ids, depth, &root, None)
                    .unwrap();
                let got = rounds
                    .settle_buckets(opener, &ids, depth, &root, None)
                    .unwrap();
                assert_eq!(
                    got == Buckets::AllFinish,
                    want == Buckets::AllFinish,
                    "seed {seed} {} depth {depth}",
                    game.guesses[o]
                );
            }
            cut += rounds.counters().expansions;
        }
    }
    assert!(cut > 1000, "states expanded under budgets: {cut}");
}

/// Runs the binary on the lists `answers` and `guesses` with `args`: (exit status,
/// stdout, stderr).
fn run_on(
    answers: &std::path::Path,
    guesses: &std::path::Path,
    args: &[&str],
) -> (Option<i32>, String, String) {
    let out = cli()
        .arg("--answers")
        .arg(answers)
        .arg("--guesses")
        .arg(guesses)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

#[test]
fn give_up_leaves_openers_undecided_until_a_longer_limit() {
    let (dir, answers, guesses) = tiny_game();
    let results = dir.path().join("r");
    let run = |extra: &[&str]| {
        let mut args = vec!["--quiet", "check", "--max-guesses", "2"];
        args.extend_from_slice(extra);
        run_on(&answers, &guesses, &args)
    };
    // A deadline of a nanosecond has passed before the first round: every opener
    // is given up and stored as such, and nothing is decided; a rerun with the same
    // limit reads that back.
    let r = results.to_str().unwrap();
    let files = |result: &str| {
        std::fs::read_dir(&results)
            .unwrap()
            .filter(|e| {
                std::fs::read_to_string(e.as_ref().unwrap().path())
                    .unwrap()
                    .contains(&format!("result={result}"))
            })
            .count()
    };
    for _ in 0..2 {
        let (code, out, _) = run(&["--opener", "any", "--give-up", "1e-9", "--results", r]);
        assert_eq!(code, Some(2), "{out}");
        assert!(out.contains("REFUTED for 0 of the 13 openers"), "{out}");
        assert!(
            out.contains("UNDECIDED for the 13 opener(s) given up"),
            "{out}"
        );
        assert_eq!(files("gave-up"), 13);
    }
    // A longer limit (or none) settles them (depth 2 cannot find 10 answers).
    let (code, out, _) = run(&["--opener", "any", "--give-up", "60", "--results", r]);
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(files("refuted"), 13);
    // Bad values and uses are named.
    for (args, needle) in [
        (
            vec!["--opener", "any", "--give-up", "0"],
            "--give-up needs a positive number",
        ),
        (
            vec!["--opener", "any", "--give-up=-3"],
            "--give-up needs a positive number",
        ),
        (
            vec!["--opener", "salet", "--give-up", "5"],
            "--give-up and --openers go with --opener any",
        ),
    ] {
        let (code, _, err) = run(&args);
        assert_eq!(code, Some(2), "{args:?}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn openers_file_limits_the_sweep_and_names_a_bad_word() {
    let (dir, answers, guesses) = tiny_game();
    let subset = dir.path().join("s.txt");
    let openers = dir.path().join("o.txt");
    std::fs::write(&subset, "cigar\n").unwrap();
    let run = |list: &str, extra: &[&str]| {
        std::fs::write(&openers, list).unwrap();
        let o = openers.to_str().unwrap();
        let mut args = vec!["--quiet", "check", "--max-guesses", "1", "--openers", o];
        args.extend_from_slice(extra);
        run_on(&answers, &guesses, &args)
    };
    let sub = subset.to_str().unwrap();
    let (code, out, _) = run("salet\n\ncigar\n", &["--opener", "any", "--subset", sub]);
    assert_eq!(code, Some(2), "{out}");
    assert!(
        out.contains("REFUTED on the whole list for 1 of the 2 openers"),
        "{out}"
    );
    assert!(out.contains("within 1: cigar;"), "{out}");
    let (code, out, _) = run("salet\ntrace\n", &["--opener", "any"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("2 openers checked"), "{out}");
    // The verdict speaks of the listed openers only, never of every opener.
    assert!(out.contains("(only the 2 openers of "), "{out}");
    let (code, _, err) = run("salet\n\nxylyl\n", &["--opener", "any"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("o.txt:3: 'xylyl' is not one of the 13 allowed guesses"),
        "{err}"
    );
    let (code, _, err) = run("salet\n", &["--opener", "salet"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--openers go with --opener any"), "{err}");
    // An empty list: one line naming the option and the file once.
    let (code, _, err) = run("", &["--opener", "any"]);
    assert_eq!(code, Some(2));
    let o = openers.to_str().unwrap();
    assert!(
        err.contains(&format!("--openers: {o}: the list is empty")),
        "{err}"
    );
    assert_eq!(err.matches(o).count(), 1, "{err}");
}

#[test]
fn groups_subsets_go_up_to_a_thousand_groups_named_briefly() {
    // Beyond the limit: a one-line error, exit 2.
    let out = cli()
        .args(["check", "--opener", "any", "--max-guesses", "6"])
        .args(["--subset", "groups:1001"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("groups:K needs K from 1 to 1000, not '1001'"),
        "{err}"
    );
    // 150 groups (all of the wordle answers' groups of 3 or more, and some of 2): named
    // by the first ten and a count. salet within 2 fails on any subset of this size.
    let out = cli()
        .args(["check", "--opener", "salet", "--max-guesses", "2"])
        .args(["--subset", "groups:150"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("the 150 largest one-position groups ("),
        "{text}"
    );
    assert!(text.contains(", ... and 140 more)"), "{text}");
}
