//! wordle-tree: provably optimal Wordle strategies.
//!
//! Module map:
//! - [`word`]: `Word` and word-list loading with line-accurate errors.
//! - [`echo`]: input quoted in messages, escaped and cut short.
//! - [`game`]: answers, allowed guesses (their union), ids, list checksum.
//! - [`feedback`]: the colours of a guess against an answer; the only place that
//!   knows the duplicate-letter rule.
//! - [`table`]: the guess x answer feedback table, built once in parallel.
//! - [`candidates`]: sets of candidates and partitioning them into buckets.
//! - [`hard`]: what a hard-mode history revealed and which guesses it allows.
//! - [`analysis`]: one-level metrics (`rank`) and heuristic players (`simulate`).
//! - [`search`]: the exact branch-and-bound solver: its public questions and parallel
//!   drivers, the per-state scan and expansion, the scan kernels over the
//!   answer-major feedback, the bounds ([`search::bound`]) and the transposition
//!   table ([`search::tt`]).
//! - [`check`]: depth claims (`check`): within D guesses, the fewest answers over D,
//!   exceptions; PROVED with a witness tree, REFUTED with evidence.
//! - [`min_over`]: `check --opener any --min-over D`: the fewest answers over D over
//!   every opener, proved, resumable and shardable.
//! - [`tree`]: decision trees, replay and verification.
//! - [`format`]: the binary tree file and the text exports.
//! - [`play`]: histories (`GUESS:FEEDBACK`), following a tree, next-guess advice
//!   (solved exactly off the tree).
//! - [`review`]: an exact review of a played game (best guesses, what each choice
//!   cost, luck), from the tree and the solver.
//! - [`serve`]: the local web page and JSON API (axum on tokio).
//! - [`openers`]: exact ranking of many openers, resumable and shardable.
//! - [`opener_table`]: opener tables (`tables/<list>.<mode>.csv`): every opener's
//!   exact total, rank and max depth; format, parser, writer, matching to the lists.
//! - [`results`]: result files and results directories (format, atomic writes of
//!   every output file, stale temp cleanup, shards), shared by `openers` and `check`.
//! - [`proof`]: one opener's proof as units in a results directory: resumable,
//!   shardable, merged into the whole tree.
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

pub mod analysis;
pub mod candidates;
pub mod check;
pub mod echo;
pub mod feedback;
pub mod format;
pub mod game;
pub mod hard;
pub mod min_over;
pub mod opener_table;
pub mod openers;
pub mod play;
pub mod proof;
pub mod results;
pub mod review;
pub mod search;
pub mod serve;
pub mod table;
pub mod tree;
pub mod word;

pub use feedback::Feedback;
pub use game::{Game, ListSource};
pub use table::FeedbackTable;
pub use word::Word;
