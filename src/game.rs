//! A game: the answers, the allowed guesses, and their ids.
//!
//! Invariants: guess ids `0..answers.len()` are the answers themselves, in answer-file
//! order (so `guess < n_answers` means "this guess could be the answer", and answer
//! id == guess id for those); the guess-only words follow in guess-file order. The
//! allowed guesses are therefore always the union of both files. At most 65535 words,
//! so ids fit a `u16` in hot loops.

use crate::word::{ListError, Word, WordList};
use std::path::{Path, PathBuf};

/// Index of an answer in [`Game::answers`].
pub type AnswerId = u16;
/// Index of an allowed guess in [`Game::guesses`].
pub type GuessId = u16;

/// The shipped word lists, embedded so the binary works from any directory: (name,
/// answers, guesses). The big games (`wordle-all`, `nyt-all`: every allowed word may be
/// the answer) and `nyt2023`'s guesses reuse the files of the smaller lists, answers
/// first then the guess-only words, so their ids follow that order, not the alphabet.
pub const SHIPPED: &[(&str, &str, &str)] = &[
    (
        "wordle",
        include_str!("../wordlists/wordle-answers.txt"),
        include_str!("../wordlists/wordle-guesses.txt"),
    ),
    (
        "nyt",
        include_str!("../wordlists/nyt-answers.txt"),
        include_str!("../wordlists/nyt-guesses.txt"),
    ),
    (
        "wordle-all",
        concat!(
            include_str!("../wordlists/wordle-answers.txt"),
            include_str!("../wordlists/wordle-guesses.txt")
        ),
        concat!(
            include_str!("../wordlists/wordle-answers.txt"),
            include_str!("../wordlists/wordle-guesses.txt")
        ),
    ),
    (
        "nyt-all",
        concat!(
            include_str!("../wordlists/nyt-answers.txt"),
            include_str!("../wordlists/nyt-guesses.txt")
        ),
        concat!(
            include_str!("../wordlists/nyt-answers.txt"),
            include_str!("../wordlists/nyt-guesses.txt")
        ),
    ),
    (
        "nyt2023",
        include_str!("../wordlists/nyt-answers-2023.txt"),
        concat!(
            include_str!("../wordlists/nyt-answers.txt"),
            include_str!("../wordlists/nyt-guesses.txt")
        ),
    ),
    (
        "sowpods",
        include_str!("../wordlists/sowpods5.txt"),
        include_str!("../wordlists/sowpods5.txt"),
    ),
];

/// Where a game's lists come from.
#[derive(Clone, Debug)]
pub enum ListSource {
    /// One of [`SHIPPED`], by name.
    Named(String),
    /// Any two files.
    Files { answers: PathBuf, guesses: PathBuf },
}

#[derive(Debug, thiserror::Error)]
pub enum GameError {
    #[error(transparent)]
    List(#[from] ListError),
    #[error("unknown list '{0}' (known: wordle, nyt, wordle-all, nyt-all, nyt2023, sowpods)")]
    UnknownList(String),
    #[error("too many words: {0} (at most 65535)")]
    TooMany(usize),
}

/// Answers and allowed guesses, with ids and a checksum of both lists in order.
#[derive(Clone, Debug)]
pub struct Game {
    /// A short name for messages and file names (`wordle`, `nyt`, `sowpods`, `custom`).
    pub name: String,
    pub answers: Vec<Word>,
    /// Allowed guesses: the answers first, then the guess-only words.
    pub guesses: Vec<Word>,
    index: ahash::AHashMap<Word, GuessId>,
    /// FNV-1a 64 of the answers then the guesses, in id order.
    pub checksum: u64,
}

impl Game {
    /// Loads the lists named by `source`.
    pub fn load(source: &ListSource) -> Result<Game, GameError> {
        match source {
            ListSource::Named(name) => {
                let &(_, answers, guesses) = SHIPPED
                    .iter()
                    .find(|(n, _, _)| n == name)
                    .ok_or_else(|| GameError::UnknownList(name.clone()))?;
                let a = WordList::parse(answers, Path::new(&format!("wordlists/{name}:answers")))?;
                let g = WordList::parse(guesses, Path::new(&format!("wordlists/{name}:guesses")))?;
                Game::new(name, a, g)
            }
            ListSource::Files { answers, guesses } => {
                Game::new("custom", WordList::load(answers)?, WordList::load(guesses)?)
            }
        }
    }

    /// Builds a game from an answer list and a guess list (which may overlap).
    pub fn new(name: &str, answers: WordList, guesses: WordList) -> Result<Game, GameError> {
        let mut all = answers.words.clone();
        let mut index: ahash::AHashMap<Word, GuessId> = ahash::AHashMap::new();
        for (i, &w) in all.iter().enumerate() {
            index.insert(w, i as GuessId);
        }
        for &w in &guesses.words {
            if !index.contains_key(&w) {
                if all.len() >= u16::MAX as usize {
                    return Err(GameError::TooMany(all.len() + 1));
                }
                index.insert(w, all.len() as GuessId);
                all.push(w);
            }
        }
        if answers.words.len() > u16::MAX as usize {
            return Err(GameError::TooMany(answers.words.len()));
        }
        let mut hash = Fnv::new();
        hash.bytes(b"answers");
        for w in &answers.words {
            hash.bytes(&w.0);
        }
        hash.bytes(b"guesses");
        for w in &all {
            hash.bytes(&w.0);
        }
        Ok(Game {
            name: name.to_string(),
            answers: answers.words,
            guesses: all,
            index,
            checksum: hash.finish(),
        })
    }

    /// A game over explicit words (for tests and experiments).
    pub fn from_words(answers: &[Word], guesses: &[Word]) -> Game {
        Game::new(
            "custom",
            WordList {
                words: answers.to_vec(),
            },
            WordList {
                words: guesses.to_vec(),
            },
        )
        .expect("small word sets are valid")
    }

    pub fn n_answers(&self) -> usize {
        self.answers.len()
    }

    pub fn n_guesses(&self) -> usize {
        self.guesses.len()
    }

    /// The guess id of an allowed word, if it is allowed.
    pub fn guess_id(&self, w: Word) -> Option<GuessId> {
        self.index.get(&w).copied()
    }

    /// The answer id of a word, if it is a possible answer.
    pub fn answer_id(&self, w: Word) -> Option<AnswerId> {
        self.guess_id(w)
            .filter(|&g| (g as usize) < self.answers.len())
    }

    /// True when guess `g` is also a possible answer (then its answer id is `g`).
    #[inline]
    pub fn is_answer(&self, g: GuessId) -> bool {
        (g as usize) < self.answers.len()
    }
}

/// FNV-1a 64-bit: a stable, dependency-free checksum for lists and file bodies.
pub struct Fnv(u64);

impl Fnv {
    pub fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    pub fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    pub fn finish(&self) -> u64 {
        self.0
    }
}

impl Default for Fnv {
    fn default() -> Self {
        Fnv::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_lists_have_the_published_sizes() {
        for (name, answers, allowed) in [
            ("wordle", 2315, 12972),
            ("nyt", 2309, 14855),
            ("wordle-all", 12972, 12972),
            ("nyt-all", 14855, 14855),
            ("nyt2023", 3158, 14855),
            ("sowpods", 12478, 12478),
        ] {
            let game = Game::load(&ListSource::Named(name.into())).unwrap();
            assert_eq!(game.n_answers(), answers, "{name}");
            assert_eq!(game.n_guesses(), allowed, "{name}");
        }
    }

    #[test]
    fn answers_come_first_and_are_playable() {
        let game = Game::load(&ListSource::Named("wordle".into())).unwrap();
        for (i, &w) in game.answers.iter().enumerate() {
            assert_eq!(game.guesses[i], w);
            assert_eq!(game.answer_id(w), Some(i as AnswerId));
        }
        let salet = Word::parse("salet").unwrap();
        assert!(game.guess_id(salet).is_some());
        assert!(game.answer_id(salet).is_none());
    }
}
