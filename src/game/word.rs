//! Words and word lists: [`Word`] (five lowercase ASCII letters) and [`WordList`]
//! loading with line-accurate validation errors.
//!
//! Invariants: a `Word` always holds exactly five bytes in `b'a'..=b'z'`; a loaded
//! list is non-empty and has no duplicates. Loading is linear in the file size. A
//! UTF-8 byte-order mark at the start of a file (as some editors write) is skipped;
//! a token quoted in an error goes through [`crate::game::echo::echo`] (escaped, cut to 40
//! characters), so a one-line 100 MB file makes a one-line message.

use crate::game::echo::echo;
use std::fmt;
use std::path::{Path, PathBuf};

/// A five-letter word, stored as lowercase ASCII bytes.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Word(pub [u8; 5]);

/// Why a token is not a word (the token as [`echo`] shows it).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WordError {
    #[error("'{0}' has {1} letters, expected 5")]
    Length(String, usize),
    #[error("'{0}' contains a character that is not a letter a-z")]
    NotLetters(String),
}

impl Word {
    /// Parses a word case-insensitively; surrounding whitespace is not allowed.
    pub fn parse(s: &str) -> Result<Word, WordError> {
        if !s.chars().all(|c| c.is_ascii_alphabetic()) {
            return Err(WordError::NotLetters(echo(s)));
        }
        // All ASCII now: one byte per letter.
        if s.len() != 5 {
            return Err(WordError::Length(echo(s), s.len()));
        }
        let b = s.as_bytes();
        let mut w = [0u8; 5];
        for i in 0..5 {
            w[i] = b[i].to_ascii_lowercase();
        }
        Ok(Word(w))
    }

    /// The letter at position `i` as 0..26.
    #[inline]
    pub fn letter(&self, i: usize) -> u8 {
        self.0[i] - b'a'
    }

    /// Bit `l` set for each letter `l` (0..26) in the word.
    pub fn letter_mask(&self) -> u32 {
        self.0.iter().fold(0, |m, &c| m | 1 << (c - b'a'))
    }

    /// True when some letter occurs more than once.
    pub fn has_repeats(&self) -> bool {
        self.letter_mask().count_ones() < 5
    }

    pub fn as_str(&self) -> &str {
        // Invariant: only ASCII lowercase bytes are ever stored.
        std::str::from_utf8(&self.0).expect("word bytes are ASCII")
    }
}

impl fmt::Display for Word {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A problem with a word list file.
#[derive(Debug, thiserror::Error)]
pub enum ListError {
    #[error("{file}: cannot read: {source}")]
    Io {
        file: PathBuf,
        source: std::io::Error,
    },
    #[error("{file}:{line}: {reason}")]
    BadWord {
        file: PathBuf,
        line: usize,
        reason: WordError,
    },
    #[error("{file}:{line}: duplicate word '{word}' (first on line {first})")]
    Duplicate {
        file: PathBuf,
        line: usize,
        first: usize,
        word: Word,
    },
    #[error("{file}: the list is empty")]
    Empty { file: PathBuf },
}

/// An ordered list of distinct words, as read from one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WordList {
    pub words: Vec<Word>,
}

impl WordList {
    /// Reads and validates a list file (see [`WordList::parse`]).
    pub fn load(path: &Path) -> Result<WordList, ListError> {
        let text = std::fs::read_to_string(path).map_err(|source| ListError::Io {
            file: path.to_path_buf(),
            source,
        })?;
        WordList::parse(&text, path)
    }

    /// Parses one word per line. Blank lines and surrounding whitespace are ignored;
    /// anything else must be a five-letter word, appearing once. A leading byte-order
    /// mark is skipped.
    pub fn parse(text: &str, file: &Path) -> Result<WordList, ListError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut words = Vec::new();
        let mut first_line = ahash::AHashMap::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let token = raw.trim();
            if token.is_empty() {
                continue;
            }
            let word = Word::parse(token).map_err(|reason| ListError::BadWord {
                file: file.to_path_buf(),
                line,
                reason,
            })?;
            if let Some(&first) = first_line.get(&word) {
                return Err(ListError::Duplicate {
                    file: file.to_path_buf(),
                    line,
                    first,
                    word,
                });
            }
            first_line.insert(word, line);
            words.push(word);
        }
        if words.is_empty() {
            return Err(ListError::Empty {
                file: file.to_path_buf(),
            });
        }
        Ok(WordList { words })
    }
}

/// A word from a literal that is known to be one (the game's unit tests).
#[cfg(test)]
pub(crate) fn w(s: &str) -> Word {
    Word::parse(s).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_is_case_insensitive() {
        assert_eq!(Word::parse("SaLeT").unwrap().to_string(), "salet");
    }

    #[test]
    fn parse_rejects_bad_tokens() {
        assert!(matches!(Word::parse("sale"), Err(WordError::Length(_, 4))));
        assert!(matches!(
            Word::parse("sal3t"),
            Err(WordError::NotLetters(_))
        ));
        assert!(matches!(Word::parse("salé"), Err(WordError::NotLetters(_))));
    }

    #[test]
    fn duplicates_name_both_lines() {
        let err = WordList::parse("cigar\nrebut\n\ncigar\n", Path::new("x.txt")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "x.txt:4: duplicate word 'cigar' (first on line 1)"
        );
    }

    #[test]
    fn a_list_starting_with_a_byte_order_mark_loads() {
        let list = WordList::parse("\u{feff}cigar\r\nrebut\r\n", Path::new("bom.txt")).unwrap();
        assert_eq!(list.words, vec![Word(*b"cigar"), Word(*b"rebut")]);
        // Elsewhere it is not a letter, and the message shows it escaped.
        let err = WordList::parse("cigar\n\u{feff}rebut\n", Path::new("x.txt")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "x.txt:2: '\\u{feff}rebut' contains a character that is not a letter a-z"
        );
    }

    #[test]
    fn a_huge_line_is_echoed_cut_short() {
        let line = "a".repeat(10_000_000);
        let err = WordList::parse(&line, Path::new("big.txt")).unwrap_err();
        let msg = err.to_string();
        assert!(msg.len() < 200, "{} bytes", msg.len());
        assert_eq!(
            msg,
            format!(
                "big.txt:1: '{}…' has 10000000 letters, expected 5",
                "a".repeat(40)
            )
        );
        let err = WordList::parse("ok\x1b[31m\n", Path::new("c.txt")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "c.txt:1: 'ok\\u{1b}[31m' contains a character that is not a letter a-z"
        );
    }

    #[test]
    fn empty_list_is_an_error() {
        let err = WordList::parse("\n\n", Path::new("e.txt")).unwrap_err();
        assert_eq!(err.to_string(), "e.txt: the list is empty");
    }
}
