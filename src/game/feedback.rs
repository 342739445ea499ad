//! Feedback: the colours the game shows for a guess against an answer.
//!
//! This is the only module that knows the duplicate-letter rule. A [`Feedback`] packs
//! the five colours base 3 into one byte (position `i` has weight `3^i`; gray 0,
//! yellow 1, green 2), so every value is in `0..243` and all-green is 242. It also
//! reads every notation a player has ([`Feedback::parse`]: letters, digits, the share
//! text's squares in either palette), one notation per token.
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

/// [`Feedback::masks`] of every feedback, computed at compile time.
const MASKS: [(u8, u8); FEEDBACKS] = {
    let mut t = [(0u8, 0u8); FEEDBACKS];
    let mut f = 0;
    while f < FEEDBACKS {
        let (mut green, mut shown) = (0u8, 0u8);
        let mut i = 0;
        while i < 5 {
            let c = Feedback(f as u8).colour(i);
            if c == 2 {
                green |= 1 << i;
            }
            if c > 0 {
                shown |= 1 << i;
            }
            i += 1;
        }
        t[f] = (green, shown);
        f += 1;
    }
    t
};

/// Why a feedback token does not parse (the token as [`crate::game::echo::echo`] shows it).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FeedbackError {
    /// The token, its length, and whether it was written in squares.
    #[error("feedback '{0}' has {1} {unit}, expected 5", unit = length_unit(.2))]
    Length(String, usize, bool),
    #[error(
        "feedback '{token}' has an unknown character '{ch}' ({notations})",
        notations = NOTATIONS,
        token = .0,
        ch = crate::game::echo::echo(.1.encode_utf8(&mut [0; 4]))
    )]
    Char(String, char),
    #[error("feedback '{0}' mixes {1} and {2}: write it in one notation ({notations})", notations = NOTATIONS)]
    Mixed(String, &'static str, &'static str),
}

fn length_unit(squares: &bool) -> &'static str {
    if *squares {
        "squares"
    } else {
        "characters"
    }
}

/// The notations [`Feedback::parse`] accepts, for messages.
pub const NOTATIONS: &str = "G/Y/B letters with x, w, '.' or '-' also gray; 2/1/0 digits; \
     or the share squares 🟩 🟨 ⬛ ⬜, high contrast 🟧 🟦";

/// The notation a feedback character belongs to; gray marks that fit more than one
/// are [`Notation::Any`] (`.` and `-` with letters or digits, ⬛ ⬜ with either
/// palette of squares).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Notation {
    Letters,
    Digits,
    Squares,
    HighContrast,
    /// Gray that goes with letters or digits.
    Mark,
    /// A gray square, either palette.
    GraySquare,
}

impl Notation {
    fn name(self) -> &'static str {
        match self {
            Notation::Letters | Notation::Mark => "letters",
            Notation::Digits => "digits",
            Notation::Squares | Notation::GraySquare => "squares",
            Notation::HighContrast => "high-contrast squares",
        }
    }
}

/// A character's colour (0 gray, 1 yellow, 2 green) and notation.
fn colour_of(c: char) -> Option<(u8, Notation)> {
    use Notation::*;
    Some(match c.to_ascii_uppercase() {
        'G' => (2, Letters),
        'Y' => (1, Letters),
        'B' | 'X' | 'W' => (0, Letters),
        '.' | '-' => (0, Mark),
        '2' => (2, Digits),
        '1' => (1, Digits),
        '0' => (0, Digits),
        '🟩' => (2, Squares),
        '🟨' => (1, Squares),
        '🟧' => (2, HighContrast),
        '🟦' => (1, HighContrast),
        '⬛' | '⬜' => (0, GraySquare),
        _ => return None,
    })
}

/// True when characters of notations `a` and `b` may share a token.
fn compatible(a: Notation, b: Notation) -> bool {
    use Notation::*;
    a == b
        || matches!(
            (a, b),
            (Mark, Letters | Digits)
                | (Letters | Digits, Mark)
                | (GraySquare, Squares | HighContrast)
                | (Squares | HighContrast, GraySquare)
        )
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
    pub const fn colour(self, i: usize) -> u8 {
        (self.0 / POW3[i]) % 3
    }

    /// The positions coloured green and those coloured green or yellow, a bit each
    /// (bit `i`: position `i`), read from a table instead of five divisions.
    #[inline]
    pub fn masks(self) -> (u8, u8) {
        MASKS[self.0 as usize]
    }

    /// Builds a feedback from five colours (0 gray, 1 yellow, 2 green).
    pub fn from_colours(colours: [u8; 5]) -> Feedback {
        Feedback((0..5).map(|i| colours[i] * POW3[i]).sum())
    }

    pub fn is_all_green(self) -> bool {
        self == Feedback::ALL_GREEN
    }

    /// Parses a feedback in any notation a player has (case-insensitive): `G`/`Y`/`B`
    /// letters (`x`, `w`, `.` or `-` also gray), `2`/`1`/`0` digits, or the squares of
    /// a share text, 🟩 🟨 ⬛ ⬜, or 🟧 🟦 of the high-contrast palette (orange green,
    /// blue yellow). Variation selectors after a square are ignored. One token is in
    /// one notation: `GY🟨BB` or `🟩🟦...` is refused, naming both.
    pub fn parse(s: &str) -> Result<Feedback, FeedbackError> {
        let chars: Vec<char> = s.chars().filter(|&c| c != '\u{fe0f}').collect();
        let squares = chars.iter().any(|&c| c as u32 > 0x2000);
        if chars.len() != 5 {
            return Err(FeedbackError::Length(
                crate::game::echo::echo(s),
                chars.len(),
                squares,
            ));
        }
        let mut colours = [0u8; 5];
        let mut seen: Option<Notation> = None;
        for (i, &c) in chars.iter().enumerate() {
            let Some((colour, notation)) = colour_of(c) else {
                return Err(FeedbackError::Char(crate::game::echo::echo(s), c));
            };
            match seen {
                Some(n) if !compatible(n, notation) => {
                    return Err(FeedbackError::Mixed(
                        crate::game::echo::echo(s),
                        n.name(),
                        notation.name(),
                    ))
                }
                // Keep the most specific notation seen (a gray mark tells little).
                Some(n) if !matches!(n, Notation::Mark | Notation::GraySquare) => {}
                _ => seen = Some(notation),
            }
            colours[i] = colour;
        }
        Ok(Feedback::from_colours(colours))
    }

    /// The feedback as share squares: 🟩 🟨 ⬛, or with `high_contrast` 🟧 🟦 ⬛.
    pub fn squares(self, high_contrast: bool) -> String {
        let (g, y) = if high_contrast {
            ('🟧', '🟦')
        } else {
            ('🟩', '🟨')
        };
        (0..5)
            .map(|i| match self.colour(i) {
                2 => g,
                1 => y,
                _ => '⬛',
            })
            .collect()
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
    use crate::game::word::w;

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
        assert!(Feedback::parse("GYBZ.").is_err());
        assert!(Feedback::parse("GYBB").is_err());
    }

    #[test]
    fn parse_accepts_every_notation_a_player_has() {
        let want = Feedback::parse("BYBBG").unwrap();
        for s in [
            "bybbg",
            "xyxxg",
            "wywwg",
            ".y..g",
            "-y--g",
            "01002",
            "010-2",
            "⬛🟨⬛⬛🟩",
            "⬜🟨⬜⬜🟩",
            "⬛🟦⬛⬛🟧",
            "⬜🟦⬛⬜🟧",
            "⬛\u{fe0f}🟨⬛\u{fe0f}⬛🟩",
        ] {
            assert_eq!(Feedback::parse(s).unwrap(), want, "{s}");
        }
        for v in 0..243u8 {
            for hc in [false, true] {
                let f = Feedback(v);
                assert_eq!(Feedback::parse(&f.squares(hc)).unwrap(), f);
            }
        }
    }

    #[test]
    fn mixed_notations_and_wrong_widths_are_refused_by_name() {
        let e = Feedback::parse("GY🟨BB").unwrap_err();
        assert_eq!(
            e,
            FeedbackError::Mixed("GY🟨BB".into(), "letters", "squares")
        );
        assert!(e.to_string().contains("mixes letters and squares"), "{e}");
        assert!(matches!(
            Feedback::parse("🟩🟦⬛⬛⬛"),
            Err(FeedbackError::Mixed(_, "squares", "high-contrast squares"))
        ));
        assert!(matches!(
            Feedback::parse("G1BBB"),
            Err(FeedbackError::Mixed(_, "letters", "digits"))
        ));
        let e = Feedback::parse("⬛🟨⬛⬛").unwrap_err();
        assert_eq!(
            e.to_string(),
            "feedback '⬛🟨⬛⬛' has 4 squares, expected 5"
        );
        assert!(Feedback::parse("⬛🟨⬛⬛🟩🟩").is_err());
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
