//! wordle-tree: provably optimal Wordle strategies.
//!
//! Module map, one folder a layer; a layer imports only the layers listed above it:
//! - [`game`]: answers, allowed guesses (their union), ids, list checksum; and below
//!   it [`game::word`] (word-list loading with line-accurate errors), [`game::echo`]
//!   (input quoted in messages), [`game::feedback`] (the colours of a guess against an
//!   answer; the only place that knows the duplicate-letter rule), [`game::table`]
//!   (the guess x answer feedback table), [`game::candidates`] (sets of candidates and
//!   their buckets) and [`game::hard`] (what a hard-mode history revealed).
//! - [`store`]: what is kept on disk: result files and results directories
//!   ([`store::results`]: atomic writes of every output file, stale temp cleanup,
//!   shards) and opener tables ([`store::opener_table`]: every opener's exact total,
//!   rank and max depth).
//! - [`tree`]: decision trees, replay and verification; the binary tree file
//!   ([`tree::file`]) and the text exports ([`tree::text`]).
//! - [`search`]: the exact branch-and-bound solver: its public questions and parallel
//!   drivers, the per-state scan and expansion, the scan kernels over the
//!   answer-major feedback, the bounds ([`search::bound`]) and the transposition
//!   table ([`search::tt`]).
//! - [`analysis`]: one-level metrics (`rank`) and heuristic players (`simulate`).
//! - [`jobs`]: the long jobs: depth claims ([`jobs::check`]), the fewest answers over
//!   D over every opener ([`jobs::min_over`]), exact ranking of many openers
//!   ([`jobs::openers`]), one opener's proof as units ([`jobs::proof`]).
//! - [`shipped`]: the trees and opener tables built into the library (`trees/`,
//!   `tables/`), so a next move or an opener's value needs no file.
//! - [`players`]: histories and next-guess advice ([`players::play`]), the exact review
//!   of a played game ([`players::review`]), the local web page and JSON API
//!   ([`players::serve`]).
//!
//! The command-line interface (clap types, output) lives in the binary (`src/main.rs`,
//! `src/cli/`); the docs it and the code cite (interfaces, formats, bad-input rules,
//! published values, style) are in `docs/`.
//!
//! Glossary (one name per concept): a **guess** is a word played; an **answer** is a
//! word that can be hidden; **feedback** is the colours a guess gets (green, yellow,
//! gray); the **candidates** are the answers still consistent with the feedback seen;
//! a **bucket** is the candidates sharing one feedback for a guess, and the buckets
//! of a guess are its **partition**; a **tree** is a strategy, made of **nodes**, the
//! first guess being the **opener**; the **cost** of a tree is the total number of
//! guesses over all answers, and the **depth** of an answer is the guesses it needs.
//! Arguments are always in the order (guess, answer).

//!
//! The next guess after a history, from the shipped tree built into the library
//! ([`shipped`]), solved exactly when the history leaves the tree:
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use wordle_tree::game::{Game, ListSource};
//! use wordle_tree::players::play::{self, Advice, Guide};
//!
//! let game = Game::load(&ListSource::Named("wordle".into())).unwrap();
//! let tree = wordle_tree::shipped::tree(&game, false).unwrap().unwrap();
//! let steps = [play::parse_step(&game, "salet:BYBBY").unwrap()];
//! let stop = AtomicBool::new(false);
//! let Advice::Play(m) = play::advise(&game, Guide::Tree(&tree), &steps, &stop, None).unwrap()
//! else { unreachable!("not solved yet") };
//! assert_eq!(game.guesses[m.guess.index()].to_string(), "tonic");
//! assert_eq!(m.candidates.len(), 21);
//! ```
//!
//! More in `examples/` (a game's review, an opener solved, a depth claim) and the
//! user guide (`docs/guide/`).

pub mod analysis;
pub mod game;
pub mod jobs;
pub mod players;
pub mod search;
pub mod shipped;
pub mod store;
pub mod tree;

pub use game::feedback::Feedback;
pub use game::table::FeedbackTable;
pub use game::word::Word;
pub use game::{Game, ListSource};
