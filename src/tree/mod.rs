//! Decision trees: [`Node`] (a guess and one branch per non-green feedback), [`Tree`]
//! (a root plus what it was built for), and replaying answers through a tree.
//!
//! Invariants of a [`Tree`], checked in one place ([`Tree::new`], which every tree
//! goes through: the solver's, and every tree file, by [`crate::tree::file`]), so
//! no code past that boundary ever sees an invalid tree: the guess limit is in
//! `1..=MAX_LIMIT`; every guess id is an allowed guess; branches are sorted by
//! feedback value, unique, and never all-green; following each answer's feedback
//! from the root reaches a node whose guess is that answer within the guess limit
//! (so no node lies deeper than the limit); every branch's feedback is given by at
//! least one answer that reaches its node (no empty bucket, no dead subtree); in hard
//! mode every guess obeys what its history revealed; the lists' checksum and name are
//! the game's. A `Tree`'s fields are private, so a valid tree cannot be altered.
//!
//! [`Tree::verify`] replays a tree again with the slow reference feedback and no
//! search code: an independent check of the solver's trees and of the validation.
//!
//! Cost: validation is one feedback per answer per level (about 8,000 for a 2315-answer
//! tree), a sort of each node's candidates, and one binary search per bucket.
//!
//! Reading and writing trees: the binary tree file ([`file`](mod@file)) and text exports
//! ([`text`]). Files are written with [`crate::store::results::write_atomic`], like
//! every output file.

pub mod file;
pub mod text;

use crate::game::echo::echo;
use crate::game::feedback::{reference_feedback, Feedback, FEEDBACKS};
use crate::game::hard::Revealed;
use crate::game::{AnswerId, Game, GuessId};
use serde::Serialize;

/// The largest guess limit a tree may have (the depth a tree file may nest to).
pub const MAX_LIMIT: u8 = 32;

/// At most this many problems are collected for one tree.
const MAX_PROBLEMS: usize = 100;

/// A node: the guess to play, and the subtree for each non-green feedback it can get.
/// (Read from a file only by [`crate::tree::file`], whose decoder bounds the nesting.)
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Node {
    pub guess: GuessId,
    /// `(feedback, subtree)`, sorted by feedback value; all-green has no branch.
    pub branches: Vec<(Feedback, Node)>,
}

impl Node {
    /// The subtree after `feedback`, if the tree has one.
    #[inline]
    pub fn child(&self, feedback: Feedback) -> Option<&Node> {
        self.branches
            .binary_search_by_key(&feedback, |(f, _)| *f)
            .ok()
            .map(|i| &self.branches[i].1)
    }

    /// Number of nodes in the subtree.
    pub fn size(&self) -> usize {
        1 + self.branches.iter().map(|(_, n)| n.size()).sum::<usize>()
    }
}

/// A whole tree and the game it was built for; valid by construction (see the module
/// doc). Serialised field by field in this order (the tree file's body).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Tree {
    hard: bool,
    max_guesses: u8,
    /// `Game::checksum` of the lists the tree was built on.
    list_checksum: u64,
    /// The list name, for messages.
    list_name: String,
    root: Node,
}

/// Why a tree is not a valid tree for a game: one line per problem, each naming the
/// path (`GUESS:FEEDBACK` steps from the root) and an answer where there is one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", summary(.problems))]
pub struct InvalidTree {
    /// At least one; at most 100 (the first found, in tree order).
    pub problems: Vec<String>,
}

fn summary(problems: &[String]) -> String {
    match problems {
        [] => "invalid tree".into(),
        [one] => one.clone(),
        [first, rest @ ..] => format!("{first} (and {} more problem(s))", rest.len()),
    }
}

/// Guesses used for each answer, by answer id (0 where an answer was not found): what
/// a replayed tree and a simulated player both produce.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Depths(pub Vec<u32>);

impl Depths {
    pub fn total(&self) -> u64 {
        self.0.iter().map(|&d| d as u64).sum()
    }

    pub fn average(&self) -> f64 {
        self.total() as f64 / self.0.len().max(1) as f64
    }

    pub fn max(&self) -> u32 {
        self.0.iter().copied().max().unwrap_or(0)
    }

    /// `histogram[d]` = answers found with exactly `d` guesses.
    pub fn histogram(&self) -> Vec<usize> {
        let mut h = vec![0; self.max() as usize + 1];
        for &d in &self.0 {
            h[d as usize] += 1;
        }
        h
    }
}

impl std::ops::Deref for Depths {
    type Target = [u32];
    fn deref(&self) -> &[u32] {
        &self.0
    }
}

/// The result of replaying every answer through a tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// Guesses used for each answer (0 where the tree failed it).
    pub depths: Depths,
    /// What is wrong, one line per problem (empty for a valid tree).
    pub problems: Vec<String>,
}

impl Replay {
    pub fn is_valid(&self) -> bool {
        self.problems.is_empty()
    }
    pub fn total(&self) -> u64 {
        self.depths.total()
    }
    pub fn max_depth(&self) -> u32 {
        self.depths.max()
    }
    pub fn histogram(&self) -> Vec<usize> {
        self.depths.histogram()
    }
}

/// Formats a histogram as `2:78 3:1225 ...` (depths with no answers are left out).
pub fn histogram_text(h: &[usize]) -> String {
    h.iter()
        .enumerate()
        .filter(|(_, &c)| c > 0)
        .map(|(d, c)| format!("{d}:{c}"))
        .collect::<Vec<_>>()
        .join(" ")
}

impl Tree {
    /// The tree with this root for `game`'s lists (their name and checksum), if it is
    /// a valid tree for `game` with this mode and guess limit (see the module doc).
    pub fn new(game: &Game, hard: bool, max_guesses: u8, root: Node) -> Result<Tree, InvalidTree> {
        validate(game, hard, max_guesses, &root)?;
        Ok(Tree {
            hard,
            max_guesses,
            list_checksum: game.checksum,
            list_name: game.name.clone(),
            root,
        })
    }

    /// Hard mode: every guess obeys what its history revealed.
    pub fn hard(&self) -> bool {
        self.hard
    }

    /// Every answer is found within this many guesses.
    pub fn max_guesses(&self) -> u8 {
        self.max_guesses
    }

    /// `Game::checksum` of the lists the tree is for.
    pub fn list_checksum(&self) -> u64 {
        self.list_checksum
    }

    /// The name of the lists the tree is for.
    pub fn list_name(&self) -> &str {
        &self.list_name
    }

    /// The first guess's node.
    pub fn root(&self) -> &Node {
        &self.root
    }

    /// Replays every answer of `game` through the tree with the reference feedback,
    /// checking lists, depth, structure and (hard mode) legality.
    pub fn verify(&self, game: &Game) -> Replay {
        let mut problems = Vec::new();
        if self.list_checksum != game.checksum {
            problems.push(format!(
                "the tree was built on other word lists ({}, checksum {:016x}) than the ones in use ({}, checksum {:016x})",
                echo(&self.list_name), self.list_checksum, game.name, game.checksum
            ));
            return Replay {
                depths: Depths(vec![0; game.n_answers()]),
                problems,
            };
        }
        let mut depths = vec![0; game.n_answers()];
        for (a, &answer) in game.answers.iter().enumerate() {
            let mut node = &self.root;
            let mut revealed = Revealed::default();
            let mut depth = 1u32;
            let mut path = String::new();
            loop {
                let Some(&guess) = game.guesses.get(node.guess.index()) else {
                    problems.push(format!(
                        "{answer}: guess id {} is not in the allowed guesses",
                        node.guess
                    ));
                    break;
                };
                if self.hard {
                    if let Some(why) = revealed.violation(guess) {
                        problems.push(format!(
                            "{answer}: after '{path}', '{guess}' breaks hard mode: {why}"
                        ));
                        break;
                    }
                }
                let f = reference_feedback(guess, answer);
                path.push_str(&format!("{guess}:{f} "));
                if f.is_all_green() {
                    depths[a] = depth;
                    if depth > self.max_guesses as u32 {
                        problems.push(format!(
                            "{answer}: found at guess {depth}, above the limit of {}",
                            self.max_guesses
                        ));
                    }
                    break;
                }
                match node.child(f) {
                    Some(next) => node = next,
                    None => {
                        problems.push(format!(
                            "{answer}: the tree has no branch for '{}'",
                            path.trim_end()
                        ));
                        break;
                    }
                }
                if self.hard {
                    revealed = revealed.after(guess, f);
                }
                depth += 1;
                if depth > 32 {
                    problems.push(format!("{answer}: not found within 32 guesses"));
                    break;
                }
            }
        }
        Replay {
            depths: Depths(depths),
            problems,
        }
    }
}

/// Checks everything a [`Tree`] promises (see the module doc) for `root` in `game`.
fn validate(game: &Game, hard: bool, max_guesses: u8, root: &Node) -> Result<(), InvalidTree> {
    if !(1..=MAX_LIMIT).contains(&max_guesses) {
        return Err(InvalidTree {
            problems: vec![format!(
                "the guess limit {max_guesses} is not from 1 to {MAX_LIMIT}"
            )],
        });
    }
    let mut check = Validation {
        game,
        hard,
        max_guesses,
        problems: Vec::new(),
        path: Vec::new(),
    };
    let all: Vec<AnswerId> = (0..game.n_answers()).map(AnswerId::new).collect();
    check.node(root, &all, 1, &Revealed::default());
    if check.problems.is_empty() {
        Ok(())
    } else {
        Err(InvalidTree {
            problems: check.problems,
        })
    }
}

/// The walk of [`validate`]: each node with the answers that reach it.
struct Validation<'g> {
    game: &'g Game,
    hard: bool,
    max_guesses: u8,
    problems: Vec<String>,
    /// The steps from the root to the node being checked.
    path: Vec<(GuessId, Feedback)>,
}

impl Validation<'_> {
    /// `after 'salet:BBBBB courd:BBBBY', ` (empty at the root).
    fn at(&self) -> String {
        if self.path.is_empty() {
            return "at the root, ".into();
        }
        let steps: Vec<String> = self
            .path
            .iter()
            .map(|&(g, f)| format!("{}:{f}", self.game.guesses[g.index()]))
            .collect();
        format!("after '{}', ", steps.join(" "))
    }

    fn problem(&mut self, what: String) {
        if self.problems.len() < MAX_PROBLEMS {
            let at = self.at();
            self.problems.push(at + &what);
        }
    }

    /// Checks `node`, reached by the non-empty `candidates` (sorted) as guess `depth`,
    /// after a history that revealed `revealed`. Recursion is at most `max_guesses`
    /// deep: a node below the limit is reported, not entered.
    fn node(&mut self, node: &Node, candidates: &[AnswerId], depth: u8, revealed: &Revealed) {
        if self.problems.len() >= MAX_PROBLEMS {
            return;
        }
        let game = self.game;
        let example = game.answers[candidates[0].index()];
        if depth > self.max_guesses {
            self.problem(format!(
                "{} answer(s) ({example}, ...) are not found within the limit of {} guesses",
                candidates.len(),
                self.max_guesses
            ));
            return;
        }
        let Some(&word) = game.guesses.get(node.guess.index()) else {
            self.problem(format!(
                "guess id {} is not one of the {} allowed guesses",
                node.guess,
                game.n_guesses()
            ));
            return;
        };
        if self.hard {
            if let Some(why) = revealed.violation(word) {
                self.problem(format!("'{word}' breaks hard mode: {why}"));
                return;
            }
        }
        for (i, (f, _)) in node.branches.iter().enumerate() {
            let f = *f;
            if f.0 as usize >= FEEDBACKS {
                self.problem(format!(
                    "'{word}' has a branch for {}, not a feedback value",
                    f.0
                ));
                return;
            }
            if f.is_all_green() {
                self.problem(format!("'{word}' has a branch for {f}"));
                return;
            }
            if i > 0 && node.branches[i - 1].0 >= f {
                self.problem(format!(
                    "the branches of '{word}' are not sorted and distinct ({} before {f})",
                    node.branches[i - 1].0,
                ));
                return;
            }
        }
        // The buckets: candidates grouped by the feedback `word` gets.
        let mut by_feedback: Vec<(Feedback, AnswerId)> = candidates
            .iter()
            .map(|&a| (Feedback::compute(word, game.answers[a.index()]), a))
            .collect();
        by_feedback.sort_unstable();
        let mut bucket: Vec<AnswerId> = Vec::new();
        let mut i = 0;
        while i < by_feedback.len() {
            let feedback = by_feedback[i].0;
            bucket.clear();
            while i < by_feedback.len() && by_feedback[i].0 == feedback {
                bucket.push(by_feedback[i].1);
                i += 1;
            }
            if feedback.is_all_green() {
                continue;
            }
            match node.child(feedback) {
                Some(child) => {
                    self.path.push((node.guess, feedback));
                    let next = if self.hard {
                        revealed.after(word, feedback)
                    } else {
                        *revealed
                    };
                    self.node(child, &bucket, depth + 1, &next);
                    self.path.pop();
                }
                None => {
                    let example = game.answers[bucket[0].index()];
                    self.problem(format!(
                        "'{word}' has no branch for {feedback}, which {} answer(s) give ({example}, ...)",
                        bucket.len()
                    ));
                }
            }
        }
        for (f, _) in &node.branches {
            if by_feedback.binary_search_by_key(f, |&(g, _)| g).is_err() {
                self.problem(format!(
                    "'{word}' has a branch for {f}, which no answer reaching it gives"
                ));
            }
        }
    }
}
