//! The feedback table equals the slow reference: on random pairs of every shipped
//! list, on whole rows of guesses with repeated letters, and everywhere on small games
//! built from a tiny alphabet (where nearly every word has repeats).

use crate::common;
use common::Rng;
use wordle_tree::game::feedback::reference_feedback;
use wordle_tree::game::{AnswerId, GuessId};
use wordle_tree::{FeedbackTable, Game, ListSource, Word};

fn check_list(name: &str, seed: u64) {
    let game = Game::load(&ListSource::Named(name.into())).unwrap();
    let table = FeedbackTable::build(&game);
    assert_eq!(table.n_answers(), game.n_answers());
    let mut rng = Rng(seed);
    for _ in 0..50_000 {
        let g = rng.below(game.n_guesses());
        let a = rng.below(game.n_answers());
        assert_eq!(
            table.get(GuessId::new(g), AnswerId::new(a)),
            reference_feedback(game.guesses[g], game.answers[a]),
            "{name}: guess {} against answer {}",
            game.guesses[g],
            game.answers[a]
        );
    }
    // Whole rows, including the last answers (the partial vector block at the end),
    // for the first, the last, and some guesses with repeated letters.
    let mut rows: Vec<usize> = vec![0, game.n_guesses() - 1];
    rows.extend(
        (0..game.n_guesses())
            .filter(|&g| game.guesses[g].has_repeats())
            .step_by(997),
    );
    for g in rows {
        let row = table.row(GuessId::new(g));
        for (a, &answer) in game.answers.iter().enumerate() {
            assert_eq!(
                row[a],
                reference_feedback(game.guesses[g], answer).0,
                "{name}: guess {} against answer {answer}",
                game.guesses[g]
            );
        }
    }
}

#[test]
fn wordle_table_matches_the_reference() {
    check_list("wordle", 1);
}

#[test]
fn nyt_table_matches_the_reference() {
    check_list("nyt", 2);
}

#[test]
fn sowpods_table_matches_the_reference() {
    check_list("sowpods", 3);
}

#[test]
fn tiny_alphabet_tables_match_everywhere() {
    let mut rng = Rng(0x5eed);
    for size in [1, 2, 31, 32, 33, 64, 100] {
        let mut words: Vec<Word> = Vec::new();
        while words.len() < size {
            let w = Word([(); 5].map(|_| b'a' + rng.below(4) as u8));
            if !words.contains(&w) {
                words.push(w);
            }
        }
        let (answers, guesses) = words.split_at(size.div_ceil(2));
        let game = Game::from_words(answers, guesses);
        let table = FeedbackTable::build(&game);
        for (g, &guess) in game.guesses.iter().enumerate() {
            for (a, &answer) in game.answers.iter().enumerate() {
                assert_eq!(
                    table.get(GuessId::new(g), AnswerId::new(a)),
                    reference_feedback(guess, answer),
                    "guess {guess} against answer {answer}"
                );
            }
        }
    }
}
