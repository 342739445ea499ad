//! Decision trees: [`Node`] (a guess and one branch per non-green feedback), [`Tree`]
//! (a root plus what it was built for), and replaying answers through a tree.
//!
//! Invariants of a valid tree (checked by [`Tree::verify`], which uses the slow
//! reference feedback and no search code): following each answer's feedback from the
//! root reaches a node whose guess is that answer; no node has a branch for all-green;
//! branches are sorted by feedback value; in hard mode every guess obeys what its
//! history revealed; no answer needs more than `max_guesses`.

use crate::feedback::{reference_feedback, Feedback};
use crate::game::{Game, GuessId};
use crate::hard::Revealed;
use serde::{Deserialize, Serialize};

/// A node: the guess to play, and the subtree for each non-green feedback it can get.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Node {
    pub guess: GuessId,
    /// `(feedback, subtree)`, sorted by feedback value; all-green has no branch.
    pub branches: Vec<(u8, Node)>,
}

impl Node {
    /// The subtree after `feedback`, if the tree has one.
    #[inline]
    pub fn child(&self, feedback: Feedback) -> Option<&Node> {
        self.branches
            .binary_search_by_key(&feedback.0, |(f, _)| *f)
            .ok()
            .map(|i| &self.branches[i].1)
    }

    /// Number of nodes in the subtree.
    pub fn size(&self) -> usize {
        1 + self.branches.iter().map(|(_, n)| n.size()).sum::<usize>()
    }
}

/// A whole tree and the game it was built for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tree {
    pub hard: bool,
    pub max_guesses: u8,
    /// `Game::checksum` of the lists the tree was built on.
    pub list_checksum: u64,
    /// The list name, for messages.
    pub list_name: String,
    pub root: Node,
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
    /// The tree with this root for `game`'s lists (their name and checksum).
    pub fn new(game: &Game, hard: bool, max_guesses: u8, root: Node) -> Tree {
        Tree {
            hard,
            max_guesses,
            list_checksum: game.checksum,
            list_name: game.name.clone(),
            root,
        }
    }

    /// Replays every answer of `game` through the tree with the reference feedback,
    /// checking lists, depth, structure and (hard mode) legality.
    pub fn verify(&self, game: &Game) -> Replay {
        let mut problems = Vec::new();
        if self.list_checksum != game.checksum {
            problems.push(format!(
                "the tree was built on other word lists ({}, checksum {:016x}) than the ones in use ({}, checksum {:016x})",
                self.list_name, self.list_checksum, game.name, game.checksum
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
                let Some(&guess) = game.guesses.get(node.guess as usize) else {
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
