//! Feedback: the colours the game shows for a guess against an answer.
//!
//! This is the only module that knows the duplicate-letter rule. A [`Feedback`] packs
//! the five colours base 3 into one byte (position `i` has weight `3^i`; gray 0,
//! yellow 1, green 2), so every value is in `0..243` and all-green is 242.
//! Arguments are always in the order (guess, answer).

use crate::game::word::Word;
use std::fmt;

/// The colours of one guess against one answer, packed base 3 (`0..243`). Serialised
/// as its byte. The feedback table stores the bytes themselves (`FeedbackTable::row`),
/// which the scan kernels read directly; everywhere else a feedback travels as this
/// type.
#[derive(
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Debug,
    Default,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(transparent)]
#[repr(transparent)]
pub struct Feedback(pub u8);

/// Number of distinct feedback values.
pub const FEEDBACKS: usize = 243;
const POW3: [u8; 5] = [1, 3, 9, 27, 81];

/// Why a feedback token does not parse (the token as [`crate::game::echo::echo`] shows it).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FeedbackError {
    #[error("feedback '{0}' has {1} characters, expected 5")]
    Length(String, usize),
    #[error(
        "feedback '{token}' has an unknown character '{ch}' (use G/Y/B, '.' or '-' for gray, or 2/1/0)",
        token = .0,
        ch = crate::game::echo::echo(.1.encode_utf8(&mut [0; 4]))
    )]
    Char(String, char),
}

impl Feedback {
    pub const ALL_GREEN: Feedback = Feedback(242);

    /// The feedback for `guess` against `answer`: greens first, then, left to right, a
    /// non-green letter is yellow while the answer still has unmatched copies of it.
    #[inline]
    pub fn compute(guess: Word, answer: Word) -> Feedback {
        let (g, a) = (guess.0, answer.0);
        let mut unmatched = [0u8; 26];
        let mut value = 0u8;
        for i in 0..5 {
            if g[i] == a[i] {
                value += 2 * POW3[i];
            } else {
                unmatched[(a[i] - b'a') as usize] += 1;
            }
        }
        for i in 0..5 {
            if g[i] != a[i] {
                let slot = &mut unmatched[(g[i] - b'a') as usize];
                if *slot > 0 {
                    *slot -= 1;
                    value += POW3[i];
                }
            }
        }
        Feedback(value)
    }

    /// The colour at position `i`: 0 gray, 1 yellow, 2 green.
    #[inline]
    pub fn colour(self, i: usize) -> u8 {
        (self.0 / POW3[i]) % 3
    }

    /// Builds a feedback from five colours (0 gray, 1 yellow, 2 green).
    pub fn from_colours(colours: [u8; 5]) -> Feedback {
        Feedback((0..5).map(|i| colours[i] * POW3[i]).sum())
    }

    pub fn is_all_green(self) -> bool {
        self == Feedback::ALL_GREEN
    }

    /// Parses `GYB` letters (case-insensitive; `.` or `-` also mean gray) or `210` digits.
    pub fn parse(s: &str) -> Result<Feedback, FeedbackError> {
        let n = s.chars().count();
        if n != 5 {
            return Err(FeedbackError::Length(crate::game::echo::echo(s), n));
        }
        let mut colours = [0u8; 5];
        for (i, c) in s.chars().enumerate() {
            colours[i] = match c.to_ascii_uppercase() {
                'G' | '2' => 2,
                'Y' | '1' => 1,
                'B' | '.' | '-' | '0' => 0,
                _ => return Err(FeedbackError::Char(crate::game::echo::echo(s), c)),
            };
        }
        Ok(Feedback::from_colours(colours))
    }
}

impl fmt::Display for Feedback {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for i in 0..5 {
            f.write_str(["B", "Y", "G"][self.colour(i) as usize])?;
        }
        Ok(())
    }
}

/// A slow, obviously correct reference: marks greens, then for each remaining guess
/// position searches the answer for an unused, non-green copy of the letter.
pub fn reference_feedback(guess: Word, answer: Word) -> Feedback {
    let mut colours = [0u8; 5];
    let mut used = [false; 5];
    for i in 0..5 {
        if guess.0[i] == answer.0[i] {
            colours[i] = 2;
            used[i] = true;
        }
    }
    for (colour, letter) in colours.iter_mut().zip(guess.0) {
        if *colour == 2 {
            continue;
        }
        if let Some(j) = (0..5).find(|&j| !used[j] && answer.0[j] == letter) {
            used[j] = true;
            *colour = 1;
        }
    }
    Feedback::from_colours(colours)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(s: &str) -> Word {
        Word::parse(s).unwrap()
    }

    #[test]
    fn display_and_parse_round_trip() {
        for v in 0..243u8 {
            let f = Feedback(v);
            assert_eq!(Feedback::parse(&f.to_string()).unwrap(), f);
        }
    }

    #[test]
    fn parse_accepts_all_spellings_of_gray() {
        let want = Feedback::parse("GYBBB").unwrap();
        for s in ["gy...", "GY---", "21000", "gYb.-"] {
            assert_eq!(Feedback::parse(s).unwrap(), want, "{s}");
        }
        assert!(Feedback::parse("GYBX.").is_err());
        assert!(Feedback::parse("GYBB").is_err());
    }

    #[test]
    fn all_green_is_242() {
        assert_eq!(
            Feedback::compute(w("salet"), w("salet")),
            Feedback::ALL_GREEN
        );
        assert_eq!(Feedback::ALL_GREEN.to_string(), "GGGGG");
    }

    #[test]
    fn fast_matches_reference_on_repeats() {
        for (g, a) in [("eerie", "there"), ("speed", "abide"), ("llama", "hello")] {
            assert_eq!(
                Feedback::compute(w(g), w(a)),
                reference_feedback(w(g), w(a))
            );
        }
    }
}
