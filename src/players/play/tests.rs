//! The unit tests of [`super`]: histories, replay, the tree walk and the advice.

use super::*;
use crate::game::feedback::reference_feedback;
use crate::game::ListSource;

fn wordle() -> Game {
    Game::load(&ListSource::Named("wordle".into())).unwrap()
}

fn steps(game: &Game, s: &str) -> Vec<Step> {
    s.split_whitespace()
        .map(|t| parse_step(game, t).unwrap())
        .collect()
}

#[test]
fn tokens_parse_or_say_what_is_wrong() {
    let game = wordle();
    let s = parse_step(&game, "SALET:bb.yG").unwrap();
    assert_eq!(token(&game, s), "salet:BBBYG");
    assert!(matches!(
        parse_step(&game, "salet:BBGX"),
        Err(HistoryError::Feedback { .. })
    ));
    assert!(matches!(
        parse_step(&game, "salet"),
        Err(HistoryError::Shape(_))
    ));
    assert!(matches!(
        parse_step(&game, "sal:BBBBB"),
        Err(HistoryError::Word { .. })
    ));
    let e = parse_step(&game, "zzzzz:BBBBB").unwrap_err();
    assert!(e.to_string().contains("not in the allowed guesses"), "{e}");
}

fn hist(game: &Game, texts: &[&str], answer: Option<&str>) -> Result<String, HistoryError> {
    parse_history(game, texts, answer).map(|st| tokens(game, &st))
}

#[test]
fn every_history_form_gives_the_same_game() {
    let game = wordle();
    let want = "salet:BYBBY tiara:YBBBG quota:GGGGG";
    let forms: &[(&[&str], Option<&str>)] = &[
        (&["salet:BYBBY", "tiara:YBBBG", "quota:GGGGG"], None),
        (&["salet:BYBBY,tiara:YBBBG,quota:GGGGG"], None),
        (&["salet BYBBY, tiara YBBBG, quota GGGGG"], None),
        (
            &["salet", "bybby", "tiara", "ybbbg", "quota", "ggggg"],
            None,
        ),
        (&["SALET:xyxxy", "tiara:Y...G", "quota:22222"], None),
        (
            &["salet:⬛🟨⬛⬛🟨 tiara:🟦⬜⬜⬜🟧 quota:🟩🟩🟩🟩🟩"],
            None,
        ),
        (&["salet", "tiara", "quota"], Some("quota")),
        (&["salet:BYBBY", "tiara", "quota"], Some("quota")),
        (
            &[
                "Wordle 1,234 3/6\n\n⬛🟨⬛⬛🟨\n🟨⬛⬛⬛🟩\n🟩🟩🟩🟩🟩",
                "salet tiara quota",
            ],
            None,
        ),
        (
            &[
                "salet tiara quota",
                "Wordle 1,234 3/6*\n⬛🟨⬛⬛🟨\n🟨⬛⬛⬛🟩\n🟩🟩🟩🟩🟩",
            ],
            Some("QUOTA"),
        ),
        (
            &["salet ⬛🟨⬛⬛🟨 tiara 🟨⬛⬛⬛🟩 quota 🟩🟩🟩🟩🟩"],
            None,
        ),
    ];
    for (texts, answer) in forms {
        assert_eq!(hist(&game, texts, *answer).unwrap(), want, "{texts:?}");
    }
    assert_eq!(hist(&game, &[], None).unwrap(), "");
}

#[test]
fn bad_share_texts_name_the_row_and_what_was_expected() {
    let game = wordle();
    let grid = "⬛🟨⬛⬛🟨\n🟨⬛⬛⬛🟩\n🟩🟩🟩🟩🟩";
    let e = |texts: &[&str], answer: Option<&str>| hist(&game, texts, answer).unwrap_err();
    // A row contradicting the answer.
    let err = e(&["salet tiara quota", grid], Some("quart"));
    assert_eq!(err.step(), Some(1));
    assert!(
        err.to_string()
            .starts_with("share row 1 ⬛🟨⬛⬛🟨: salet against the answer quart gives "),
        "{err}"
    );
    // Contradicting the guesses (no answer consistent): found at replay.
    let st = parse_history(
        &game,
        &["salet tiara quota", "⬛⬛⬛⬛⬛\n🟩🟩🟩🟩🟩\n🟩🟩🟩🟩🟩"],
        None,
    )
    .unwrap();
    let err = replay(&game, &st, false).unwrap_err();
    assert_eq!(err.step(), Some(2), "{err}");
    // Wrong width, and mixed notations, name the row.
    let err = e(
        &["salet tiara quota", "⬛🟨⬛⬛\n🟨⬛⬛⬛🟩\n🟩🟩🟩🟩🟩"],
        None,
    );
    assert_eq!(
        err.to_string(),
        "share row 1 '⬛🟨⬛⬛': feedback '⬛🟨⬛⬛' has 4 squares, expected 5"
    );
    let err = e(
        &["salet tiara quota", "⬛🟨⬛⬛🟨\n🟨⬛B⬛🟩\n🟩🟩🟩🟩🟩"],
        None,
    );
    assert_eq!(err.step(), Some(2));
    assert!(
        err.to_string().contains("mixes squares and letters"),
        "{err}"
    );
    let err = e(&["salet:BYBBY", "tiara:YB🟨BG"], None);
    assert_eq!(err.step(), Some(2));
    assert!(
        err.to_string().starts_with("step 2 'tiara:YB🟨BG'"),
        "{err}"
    );
    // Rows and guesses that do not match up.
    assert!(matches!(
        e(&[grid], None),
        HistoryError::RowsWithoutGuesses(3)
    ));
    assert!(matches!(
        e(&["salet tiara", grid], None),
        HistoryError::RowCount {
            rows: 3,
            guesses: 2
        }
    ));
    let err = e(&["Wordle 1,234 4/6", grid, "salet tiara quota"], None);
    assert_eq!(
        err.to_string(),
        "the share text says 4/6 but its grid has 3 row(s): paste the whole grid"
    );
    // A guess without feedback says what to type.
    let err = e(&["salet:BYBBY", "tiara"], None);
    assert!(err.to_string().contains("tiara:BYBBG"), "{err}");
    assert!(matches!(
        e(&["salet"], Some("zzzzz")),
        HistoryError::NotAnswer { .. }
    ));
    assert!(matches!(e(&["hello!"], None), HistoryError::Unknown(_)));
}

#[test]
fn candidates_match_a_brute_force_filter() {
    let game = wordle();
    for h in [
        "salet:BBBBB",
        "crane:BBYBB",
        "salet:BYBBB courd:BBBBY",
        "eerie:YBBBB",
    ] {
        let st = steps(&game, h);
        let got = replay(&game, &st, false).unwrap().candidates.ids();
        let want: Vec<AnswerId> = game
            .answer_ids()
            .filter(|&a| {
                st.iter().all(|s| {
                    reference_feedback(game.guesses[s.guess.index()], game.answers[a.index()])
                        == s.feedback
                })
            })
            .collect();
        assert_eq!(got, want, "{h}");
        assert!(!got.is_empty());
    }
}

#[test]
fn bad_histories_name_the_step() {
    let game = wordle();
    let e = replay(&game, &steps(&game, "crane:BBYBB salet:GGGGY"), false).unwrap_err();
    assert_eq!(
        e.to_string(),
        "step 2: no answer is consistent with salet:GGGGY after crane:BBYBB"
    );
    let e = replay(&game, &steps(&game, "salet:GGGGY"), false).unwrap_err();
    assert_eq!(
        e.to_string(),
        "step 1: no answer is consistent with salet:GGGGY"
    );
    // Hard mode: the yellow 'a' of salet must be used again.
    let h = steps(&game, "salet:BYBBB courd:BBBBB");
    assert!(replay(&game, &h, false).is_ok());
    let e = replay(&game, &h, true).unwrap_err();
    assert!(matches!(e, HistoryError::HardMode { step: 2, .. }), "{e}");
    assert!(e.to_string().contains("'a'"), "{e}");
    let e = replay(&game, &steps(&game, "whiff:GGGGG whiff:GGGGG"), false).unwrap_err();
    assert!(
        matches!(e, HistoryError::AfterSolved { step: 2, .. }),
        "{e}"
    );
}

fn small_tree(game: &Game, table: &FeedbackTable, hard: bool) -> Tree {
    let solver = Solver::new(
        game,
        table,
        Config {
            hard,
            ..Config::default()
        },
    );
    let ids: Vec<AnswerId> = game.all_answer_ids();
    let root = solver.build(&ids, 6, &Revealed::default());
    Tree::new(game, hard, 6, root).unwrap()
}

fn small_game() -> Game {
    let all = wordle();
    let answers: Vec<Word> = all.answers.iter().step_by(23).copied().collect();
    let guesses: Vec<Word> = all.guesses.iter().step_by(41).copied().collect();
    Game::from_words(&answers, &guesses)
}

#[test]
fn following_the_tree_matches_the_paths() {
    let game = small_game();
    let table = FeedbackTable::build(&game);
    let tree = small_tree(&game, &table, false);
    let mut total = 0;
    for a in game.answer_ids() {
        let p = path(&game, tree.root(), a).unwrap();
        assert_eq!(p.last().unwrap().guess, a.as_guess());
        total += p.len() as u64;
        assert_eq!(follow(&tree, &p), Position::Solved);
        match follow(&tree, &p[..p.len() - 1]) {
            Position::On(node) => assert_eq!(node.guess, a.as_guess()),
            other => panic!("{other:?}"),
        }
    }
    let all: Vec<AnswerId> = game.all_answer_ids();
    assert_eq!(
        subtree_depths(&game, tree.root(), &all).map(|(total, _)| total),
        Some(total)
    );
    assert_eq!(tree.verify(&game).total(), total);
}

#[test]
fn off_the_tree_the_advice_is_the_exact_optimum() {
    let game = small_game();
    let table = FeedbackTable::build(&game);
    let stop = AtomicBool::new(false);
    for hard in [false, true] {
        let tree = small_tree(&game, &table, hard);
        // Open with another guess than the tree's, for a few answers.
        let other = GuessId::new((tree.root().guess.index() + 1) % game.n_guesses());
        let word = game.guesses[other.index()];
        for a in (0..game.n_answers()).step_by(7) {
            let f = Feedback::compute(word, game.answers[a]);
            let st = [Step {
                guess: other,
                feedback: f,
            }];
            let advice = advise(&game, Guide::Tree(&tree), &st, &stop, None).unwrap();
            let h = replay(&game, &st, hard).unwrap();
            match advice {
                Advice::Solved { answer, guesses } => {
                    assert!(f.is_all_green() && answer.index() == a && guesses == 1)
                }
                Advice::Play(m) => {
                    assert!(matches!(
                        m.source,
                        Source::Solved {
                            off: Some((1, _)),
                            ..
                        }
                    ));
                    assert_eq!(m.candidates, h.candidates.ids());
                    // The plan's cost is its replayed cost and the solver's optimum.
                    assert_eq!(
                        subtree_depths(&game, &m.plan, &m.candidates).map(|(total, _)| total),
                        Some(m.cost)
                    );
                    let fresh = Solver::new(
                        &game,
                        &table,
                        Config {
                            hard,
                            ..Config::default()
                        },
                    );
                    let rev = if hard {
                        h.revealed
                    } else {
                        Revealed::default()
                    };
                    assert_eq!(
                        fresh.cost(&h.candidates.ids(), 5, &rev).unwrap(),
                        Some(m.cost as u32)
                    );
                    // Following its own plan stays legal in hard mode.
                    for &c in &m.candidates {
                        let mut more = st.to_vec();
                        more.extend(path(&game, &m.plan, c).unwrap());
                        assert!(replay(&game, &more, hard).unwrap().solved);
                    }
                }
            }
        }
    }
}

#[test]
fn on_the_tree_the_advice_is_the_subtree() {
    let game = small_game();
    let table = FeedbackTable::build(&game);
    let tree = small_tree(&game, &table, false);
    let stop = AtomicBool::new(false);
    let a = game
        .answer_ids()
        .find(|&a| path(&game, tree.root(), a).unwrap().len() >= 3)
        .unwrap();
    let p = path(&game, tree.root(), a).unwrap();
    match advise(&game, Guide::Tree(&tree), &p[..1], &stop, None).unwrap() {
        Advice::Play(m) => {
            assert_eq!(m.source, Source::Tree);
            assert!(m.candidates.contains(&a));
            assert_eq!(m.guess, p[1].guess);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        advise(&game, Guide::Tree(&tree), &p, &stop, None).unwrap(),
        Advice::Solved {
            answer: a,
            guesses: p.len()
        }
    );
}
