//! A proof's plan: the [`Goal`] and [`Identity`] that name it, its [`Unit`]s (one per
//! non-green bucket of the opener, each with a [`UnitKey`]) and the replay of a unit's
//! subtree ([`subtree_cost`]).
//!
//! Owns: which states a proof is made of, in which order they are taken (largest
//! first, ties by key), how they are dealt to shards, and what their files are named.
//!
//! Invariants: a plan is a pure function of the game, the table, the opener, the mode,
//! the guess limit, the goal and the cutoff, so every process of a proof (every shard,
//! every rerun, the merge) computes the same units in the same order; a unit's
//! candidates are sorted and checksummed ([`Unit::ids_hash`]), and the key's text and
//! file name accept only the canonical `BYG` spelling, so a key read back compares
//! equal to the one planned or is refused.
//!
//! Trade-off: units are buckets of the opener only (no finer split is planned yet,
//! though keys already carry the steps of one), which keeps the plan trivial to
//! recompute and leaves a proof's tail as long as its largest bucket.

use super::outcome::{Goal, ProofError};
use crate::game::feedback::Feedback;
use crate::game::hard::Revealed;
use crate::game::table::FeedbackTable;
use crate::game::word::Word;
use crate::game::{AnswerId, Fnv, Game, GuessId};
use crate::tree::Node;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// What makes two unit files parts of the same proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    pub list_name: String,
    pub list_checksum: u64,
    pub hard: bool,
    pub max_guesses: u8,
    pub goal: Goal,
    pub opener: Word,
    pub cutoff: Option<u64>,
}

impl Identity {
    pub(super) fn lines(&self) -> String {
        let objective = match self.goal {
            Goal::Total => "total".to_string(),
            Goal::Within => format!("within {}", self.max_guesses),
        };
        format!(
            "list {} {:016x}\nmode {}\nmax_guesses {}\nobjective {objective}\nopener {}\ncutoff {}\n",
            self.list_name,
            self.list_checksum,
            if self.hard { "hard" } else { "normal" },
            self.max_guesses,
            self.opener,
            self.cutoff
                .map(|c| c.to_string())
                .unwrap_or_else(|| "none".into())
        )
    }
}

/// A unit's name: the opener's feedback, then finer `(guess, feedback)` steps (none at
/// the bucket level).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UnitKey {
    pub feedback: Feedback,
    pub steps: Vec<(Word, Feedback)>,
}

impl UnitKey {
    /// The key as written in a unit file: `BBBBB` or `BBBBB arose:BYBBB`.
    pub fn text(&self) -> String {
        let mut s = self.feedback.to_string();
        for (w, f) in &self.steps {
            let _ = write!(s, " {w}:{f}");
        }
        s
    }

    /// The file name: `unit.BBBBB.txt` or `unit.BBBBB.arose-BYBBB.txt`.
    pub fn file_name(&self) -> String {
        let mut s = format!("unit.{}", self.feedback);
        for (w, f) in &self.steps {
            let _ = write!(s, ".{w}-{f}");
        }
        s + ".txt"
    }

    /// Parses [`UnitKey::text`].
    pub fn parse(s: &str) -> Option<UnitKey> {
        let mut parts = s.split(' ');
        let feedback = strict_feedback(parts.next()?)?;
        let steps = parts
            .map(|p| {
                let (w, f) = p.split_once(':')?;
                Some((Word::parse(w).ok()?, strict_feedback(f)?))
            })
            .collect::<Option<Vec<_>>>()?;
        Some(UnitKey { feedback, steps })
    }
}

/// Only the canonical `BYG` spelling (file names and keys are compared as text).
pub(super) fn strict_feedback(s: &str) -> Option<Feedback> {
    if s.len() != 5 || !s.bytes().all(|b| matches!(b, b'B' | b'Y' | b'G')) {
        return None;
    }
    Feedback::parse(s).ok()
}

/// One unit of the plan: its state.
#[derive(Clone, Debug)]
pub struct Unit {
    pub key: UnitKey,
    /// Sorted candidate ids.
    pub ids: Vec<AnswerId>,
    /// Guesses left for the unit's state (`max_guesses - 1` at the bucket level; 0
    /// for a `within 1` claim, whose units are all infeasible).
    pub left: u8,
    pub revealed: Revealed,
    /// The size bound: a lower bound known before any search.
    pub cheap_bound: u64,
    /// FNV-1a of the candidate ids, recorded in the file.
    pub ids_hash: u64,
}

/// The units of one proof, largest first (ties by key), and what they share.
#[derive(Clone, Debug)]
pub struct Plan {
    pub identity: Identity,
    pub opener: GuessId,
    /// The opener's own cost: one guess for every answer.
    pub here: u64,
    pub units: Vec<Unit>,
}

impl Plan {
    /// Bucket-level units of `opener` on all answers of `game`, for the least total
    /// guesses ([`Goal::Total`]).
    pub fn new(
        game: &Game,
        table: &FeedbackTable,
        opener: GuessId,
        hard: bool,
        max_guesses: u8,
        cutoff: Option<u64>,
    ) -> Result<Plan, ProofError> {
        let word = game.guesses[opener.index()];
        if max_guesses < 2 {
            return Err(ProofError::TooFewGuesses(word));
        }
        Ok(Plan::bucket_units(
            game,
            table,
            opener,
            hard,
            max_guesses,
            Goal::Total,
            cutoff,
        ))
    }

    /// Bucket-level units of `opener` for the claim "every answer within `depth`
    /// guesses" ([`Goal::Within`]; no cutoff). `depth` 1 is allowed: every unit then
    /// has no guess left and is infeasible.
    pub fn within(
        game: &Game,
        table: &FeedbackTable,
        opener: GuessId,
        hard: bool,
        depth: u8,
    ) -> Result<Plan, ProofError> {
        if depth < 1 {
            return Err(ProofError::Internal(
                "plan".into(),
                "a claim needs at least 1 guess".into(),
            ));
        }
        Ok(Plan::bucket_units(
            game,
            table,
            opener,
            hard,
            depth,
            Goal::Within,
            None,
        ))
    }

    fn bucket_units(
        game: &Game,
        table: &FeedbackTable,
        opener: GuessId,
        hard: bool,
        max_guesses: u8,
        goal: Goal,
        cutoff: Option<u64>,
    ) -> Plan {
        let word = game.guesses[opener.index()];
        let ids: Vec<AnswerId> = (0..game.n_answers()).map(AnswerId::new).collect();
        let mut units: Vec<Unit> = crate::game::candidates::partition(table, opener, &ids)
            .into_iter()
            .filter(|(f, _)| !f.is_all_green())
            .map(|(f, b)| {
                let revealed = if hard {
                    Revealed::default().after(word, f)
                } else {
                    Revealed::default()
                };
                let n = b.len() as u64;
                Unit {
                    key: UnitKey {
                        feedback: f,
                        steps: Vec::new(),
                    },
                    ids_hash: ids_hash(&b),
                    ids: b,
                    left: max_guesses - 1,
                    revealed,
                    cheap_bound: if n == 1 { 1 } else { 2 * n - 1 },
                }
            })
            .collect();
        units.sort_by(|a, b| b.ids.len().cmp(&a.ids.len()).then(a.key.cmp(&b.key)));
        Plan {
            identity: Identity {
                list_name: game.name.clone(),
                list_checksum: game.checksum,
                hard,
                max_guesses,
                goal,
                opener: word,
                cutoff,
            },
            opener,
            here: game.n_answers() as u64,
            units,
        }
    }

    /// Positions (in [`Plan::units`]) of the units of `shard` (`index` of `count`,
    /// 1-based): every `count`-th unit, so each shard gets large and small ones.
    pub fn shard(&self, index: usize, count: usize) -> Vec<usize> {
        (0..self.units.len())
            .filter(|p| p % count == index - 1)
            .collect()
    }

    /// The file of unit `i` in `dir`.
    pub fn path(&self, dir: &Path, i: usize) -> PathBuf {
        dir.join(self.units[i].key.file_name())
    }

    /// The journal of unit `i` in `dir` while it is in progress: `part.<KEY>.txt`.
    pub fn part_path(&self, dir: &Path, i: usize) -> PathBuf {
        let name = self.units[i].key.file_name();
        dir.join(format!(
            "part.{}",
            name.strip_prefix("unit.").unwrap_or(&name)
        ))
    }
}

fn ids_hash(ids: &[AnswerId]) -> u64 {
    let mut h = Fnv::new();
    for a in ids {
        h.bytes(&a.0.to_le_bytes());
    }
    h.finish()
}

/// The cost of `node` on the unit's candidates (total guesses from the unit's state),
/// or `None` if some candidate is not found within `left` guesses.
pub fn subtree_cost(table: &FeedbackTable, node: &Node, ids: &[AnswerId], left: u8) -> Option<u64> {
    let mut total = 0u64;
    for &a in ids {
        let mut n = node;
        let mut depth = 1u64;
        while n.guess != a.as_guess() {
            n = n.child(table.get(n.guess, a))?;
            depth += 1;
        }
        if depth > left as u64 {
            return None;
        }
        total += depth;
    }
    Some(total)
}
