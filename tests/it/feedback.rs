//! Feedback: the published cases of docs/REFERENCE.md, a property test of the fast rule
//! against the slow reference, and parse/display round trips.

use proptest::prelude::*;
use wordle_tree::game::feedback::{reference_feedback, FeedbackError, FEEDBACKS};
use wordle_tree::{Feedback, Word};

fn w(s: &str) -> Word {
    Word::parse(s).unwrap()
}

/// docs/REFERENCE.md's table, in its column order: answer, guess, feedback.
const PUBLISHED: &[(&str, &str, &str)] = &[
    ("aaabb", "bbaaa", "YYGYY"),
    ("ghoti", "ghoti", "GGGGG"),
    ("rebus", "rubus", "GBGGG"),
    ("banal", "annal", "YBGGG"),
    ("banal", "union", "BYBBB"),
    ("banal", "alloy", "YYBBB"),
    ("abbey", "abyss", "GGYBB"),
    ("abbey", "kebab", "BYGYY"),
    ("abbey", "babes", "YYGGB"),
    ("abbey", "opens", "BBYBB"),
    ("duvet", "added", "BYBGB"),
    ("fazed", "pizza", "BBGBY"),
];

#[test]
fn published_cases() {
    for &(answer, guess, want) in PUBLISHED {
        let want = Feedback::parse(want).unwrap();
        assert_eq!(
            Feedback::compute(w(guess), w(answer)),
            want,
            "guess {guess} against answer {answer}"
        );
        assert_eq!(
            reference_feedback(w(guess), w(answer)),
            want,
            "reference: guess {guess} against answer {answer}"
        );
    }
}

#[test]
fn published_cases_print_as_published() {
    for &(answer, guess, want) in PUBLISHED {
        assert_eq!(Feedback::compute(w(guess), w(answer)).to_string(), want);
    }
}

#[test]
fn a_word_against_itself_is_all_green_and_only_then() {
    assert_eq!(
        Feedback::compute(w("salet"), w("salet")),
        Feedback::ALL_GREEN
    );
    assert_ne!(
        Feedback::compute(w("salet"), w("slate")),
        Feedback::ALL_GREEN
    );
    assert_eq!(Feedback::ALL_GREEN.0 as usize, FEEDBACKS - 1);
}

/// Letters biased towards a four-letter alphabet, so repeats and shared letters
/// (the cases the duplicate rule is about) are common.
fn word() -> impl Strategy<Value = Word> {
    let letter = prop_oneof![4 => 0u8..4, 1 => 0u8..26];
    proptest::array::uniform5(letter).prop_map(|l| Word(l.map(|x| b'a' + x)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn compute_matches_the_reference(guess in word(), answer in word()) {
        prop_assert_eq!(
            Feedback::compute(guess, answer),
            reference_feedback(guess, answer)
        );
    }

    /// A green is exactly a matching position, whatever the repeats.
    #[test]
    fn greens_are_matching_positions(guess in word(), answer in word()) {
        let f = Feedback::compute(guess, answer);
        for i in 0..5 {
            prop_assert_eq!(f.colour(i) == 2, guess.0[i] == answer.0[i]);
        }
    }

    /// The number of coloured (green or yellow) positions is the size of the multiset
    /// intersection of the two words, so it does not depend on which is the guess.
    #[test]
    fn coloured_count_is_symmetric(guess in word(), answer in word()) {
        let coloured = |f: Feedback| (0..5).filter(|&i| f.colour(i) > 0).count();
        prop_assert_eq!(
            coloured(Feedback::compute(guess, answer)),
            coloured(Feedback::compute(answer, guess))
        );
    }
}

#[test]
fn every_value_round_trips_through_display_and_parse() {
    for v in 0..FEEDBACKS as u8 {
        let f = Feedback(v);
        let s = f.to_string();
        assert_eq!(s.len(), 5);
        assert!(s.chars().all(|c| "GYB".contains(c)), "{s}");
        assert_eq!(Feedback::parse(&s).unwrap(), f, "{s}");
        let colours: [u8; 5] = [0, 1, 2, 3, 4].map(|i| f.colour(i));
        assert_eq!(Feedback::from_colours(colours), f);
    }
}

#[test]
fn every_value_parses_in_every_spelling() {
    for v in 0..FEEDBACKS as u8 {
        let f = Feedback(v);
        let gyb = f.to_string();
        let spell = |gray: char| -> String { gyb.replace('B', &gray.to_string()) };
        let digits: String = gyb
            .chars()
            .map(|c| match c {
                'G' => '2',
                'Y' => '1',
                _ => '0',
            })
            .collect();
        for s in [
            gyb.clone(),
            gyb.to_lowercase(),
            spell('.'),
            spell('-'),
            spell('b'),
            spell('.').to_lowercase(),
            spell('-').to_lowercase(),
            digits,
        ] {
            assert_eq!(Feedback::parse(&s).unwrap(), f, "'{s}'");
        }
    }
    // Gray marks go with letters or digits; letters and digits do not mix (issue 35:
    // one token, one notation).
    assert_eq!(
        Feedback::parse("g.-xB").unwrap(),
        Feedback::parse("GBBBB").unwrap()
    );
    assert_eq!(
        Feedback::parse("g1.-B"),
        Err(FeedbackError::Mixed("g1.-B".into(), "letters", "digits"))
    );
}

#[test]
fn bad_feedback_is_rejected_with_the_reason() {
    for s in ["", "GYB", "GYBB", "GYBBBB", "GGGGGG"] {
        assert!(
            matches!(Feedback::parse(s), Err(FeedbackError::Length(_, n, false)) if n == s.len()),
            "'{s}'"
        );
    }
    for (s, bad) in [
        ("GYBQ.", 'Q'),
        ("GYB3B", '3'),
        ("GY B.", ' '),
        ("GYé..", 'é'),
    ] {
        assert_eq!(
            Feedback::parse(s),
            Err(FeedbackError::Char(s.to_string(), bad)),
            "'{s}'"
        );
    }
    let msg = Feedback::parse("GYBQ.").unwrap_err().to_string();
    assert!(msg.contains("GYBQ.") && msg.contains('Q'), "{msg}");
}
