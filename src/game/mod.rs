//! A game: the answers, the allowed guesses, and their ids.
//!
//! Invariants: guess ids `0..answers.len()` are the answers themselves, in answer-file
//! order (so `guess < n_answers` means "this guess could be the answer", and answer
//! id == guess id for those); the guess-only words follow in guess-file order. The
//! allowed guesses are therefore always the union of both files. At most 65535 words,
//! so ids fit a `u16` in hot loops.
//!
//! The layer below everything else: words and list loading ([`word`]), input quoted in
//! messages ([`echo`]), feedback and the duplicate-letter rule ([`feedback`]), the
//! feedback table ([`table`]), candidates and buckets ([`candidates`]), and what a
//! hard-mode history revealed ([`hard`]). Nothing here imports another layer.

pub mod candidates;
// Quoting input in messages: an internal of the library and the binary.
#[doc(hidden)]
pub mod echo;
pub mod feedback;
pub mod hard;
pub mod table;
pub mod word;

use crate::game::word::{ListError, Word, WordList};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// An answer, by its index in [`Game::answers`]. Answers come first among the
/// guesses, so an answer's id is also its guess id ([`AnswerId::as_guess`]).
#[derive(
    Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default, Serialize, Deserialize,
)]
#[serde(transparent)]
#[repr(transparent)]
pub struct AnswerId(pub u16);

/// An allowed guess, by its index in [`Game::guesses`].
#[derive(
    Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default, Serialize, Deserialize,
)]
#[serde(transparent)]
#[repr(transparent)]
pub struct GuessId(pub u16);

impl AnswerId {
    /// The id of the `i`-th answer (`i` below 65536, which [`Game`] guarantees).
    #[inline]
    pub fn new(i: usize) -> AnswerId {
        debug_assert!(i <= u16::MAX as usize);
        AnswerId(i as u16)
    }

    /// The index into [`Game::answers`] and the feedback table's rows.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The same word as a guess.
    #[inline]
    pub fn as_guess(self) -> GuessId {
        GuessId(self.0)
    }

    /// The ids as plain numbers, for hashing and comparing whole candidate lists at
    /// the speed of a byte slice (the transposition table's keys).
    #[inline]
    pub fn raw(ids: &[AnswerId]) -> &[u16] {
        // SAFETY: `AnswerId` is `repr(transparent)` over `u16`, so a slice of one is a
        // slice of the other with the same length and alignment.
        unsafe { std::slice::from_raw_parts(ids.as_ptr().cast::<u16>(), ids.len()) }
    }
}

impl std::fmt::Display for AnswerId {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::fmt::Display for GuessId {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl GuessId {
    /// The id of the `i`-th guess (`i` below 65536, which [`Game`] guarantees).
    #[inline]
    pub fn new(i: usize) -> GuessId {
        debug_assert!(i <= u16::MAX as usize);
        GuessId(i as u16)
    }

    /// The index into [`Game::guesses`] and the feedback table.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The answer this guess is, when it is one of the `n_answers` answers.
    #[inline]
    pub fn as_answer(self, n_answers: usize) -> Option<AnswerId> {
        (self.index() < n_answers).then_some(AnswerId(self.0))
    }
}

/// The shipped word lists, embedded so the binary works from any directory: (name,
/// answers, guesses). The big games (`wordle-all`, `nyt-all`: every allowed word may be
/// the answer) and `nyt2023`'s guesses reuse the files of the smaller lists, answers
/// first then the guess-only words, so their ids follow that order, not the alphabet.
pub const SHIPPED: &[(&str, &str, &str)] = &[
    (
        "wordle",
        include_str!("../../wordlists/wordle-answers.txt"),
        include_str!("../../wordlists/wordle-guesses.txt"),
    ),
    (
        "nyt",
        include_str!("../../wordlists/nyt-answers.txt"),
        include_str!("../../wordlists/nyt-guesses.txt"),
    ),
    (
        "wordle-all",
        concat!(
            include_str!("../../wordlists/wordle-answers.txt"),
            include_str!("../../wordlists/wordle-guesses.txt")
        ),
        concat!(
            include_str!("../../wordlists/wordle-answers.txt"),
            include_str!("../../wordlists/wordle-guesses.txt")
        ),
    ),
    (
        "nyt-all",
        concat!(
            include_str!("../../wordlists/nyt-answers.txt"),
            include_str!("../../wordlists/nyt-guesses.txt")
        ),
        concat!(
            include_str!("../../wordlists/nyt-answers.txt"),
            include_str!("../../wordlists/nyt-guesses.txt")
        ),
    ),
    (
        "nyt2023",
        include_str!("../../wordlists/nyt-answers-2023.txt"),
        concat!(
            include_str!("../../wordlists/nyt-answers.txt"),
            include_str!("../../wordlists/nyt-guesses.txt")
        ),
    ),
    (
        "sowpods",
        include_str!("../../wordlists/sowpods5.txt"),
        include_str!("../../wordlists/sowpods5.txt"),
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
            index.insert(w, GuessId::new(i));
        }
        for &w in &guesses.words {
            if !index.contains_key(&w) {
                if all.len() >= u16::MAX as usize {
                    return Err(GameError::TooMany(all.len() + 1));
                }
                index.insert(w, GuessId::new(all.len()));
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

    /// Every answer's id, in order: the candidates before any guess.
    pub fn all_answer_ids(&self) -> Vec<AnswerId> {
        (0..self.n_answers()).map(AnswerId::new).collect()
    }

    /// Every answer's id, in order, without allocating.
    pub fn answer_ids(&self) -> impl Iterator<Item = AnswerId> {
        (0..self.n_answers()).map(AnswerId::new)
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
        self.guess_id(w)?.as_answer(self.answers.len())
    }

    /// True when guess `g` is also a possible answer (then its answer id is `g`).
    #[inline]
    pub fn is_answer(&self, g: GuessId) -> bool {
        g.index() < self.answers.len()
    }
}

/// The number of guesses the game allows.
pub const GAME_LIMIT: u8 = 6;

/// The name of a mode, as used in messages, file names and result files.
pub fn mode_name(hard: bool) -> &'static str {
    if hard {
        "hard"
    } else {
        "normal"
    }
}

/// The mode a [`mode_name`] names (`Some(true)` for hard).
pub fn parse_mode(name: &str) -> Option<bool> {
    match name {
        "normal" => Some(false),
        "hard" => Some(true),
        _ => None,
    }
}

impl Game {
    /// The list name used in file names: the shipped name, or `custom-` and the list
    /// checksum so files of different custom lists never share a name.
    pub fn list_tag(&self) -> String {
        if self.name == "custom" {
            format!("custom-{:016x}", self.checksum)
        } else {
            self.name.clone()
        }
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
            assert_eq!(game.answer_id(w), Some(AnswerId::new(i)));
        }
        let salet = Word::parse("salet").unwrap();
        assert!(game.guess_id(salet).is_some());
        assert!(game.answer_id(salet).is_none());
    }
}
