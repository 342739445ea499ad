//! The words every part of a proof shares: what a unit settles under which objective
//! ([`Goal`], [`Outcome`], [`Record`]) and what can go wrong ([`ProofError`]).
//!
//! Owns: the meaning of a unit's result. Invariant: [`Outcome::bound`] is a valid
//! lower bound of the unit's cost under its proof's objective whatever cutoff the unit
//! was searched with, which is what lets the units' bounds be summed into the
//! opener's (see the module doc of [`crate::jobs::proof`]).
//!
//! Trade-off: one error type for the whole proof (plan, files, journal, run, merge),
//! so the commands that drive it match on one enum; each message names its file.

use crate::game::word::Word;
use crate::search::bound::INFEASIBLE;
use crate::search::SolveError;
use crate::store::entry::FileIo;
use crate::tree::Node;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum ProofError {
    #[error(transparent)]
    Io(#[from] FileIo),
    #[error("{0}: a unit file of another proof ({1}); one results directory holds one proof, use another --results")]
    Foreign(PathBuf, String),
    #[error("{0}: unit '{1}' is not a unit of this proof (opener {2})")]
    NotAUnit(PathBuf, String, Word),
    #[error("opener '{0}' needs at least 2 guesses")]
    TooFewGuesses(Word),
    /// Its own source (not `transparent`), so the CLI finds an interruption in the chain.
    #[error("{0}")]
    Solve(#[from] SolveError),
    #[error("internal error: unit {0}: {1}")]
    Internal(String, String),
    /// A pack that cannot be read (the message names it).
    #[error(transparent)]
    Pack(#[from] crate::store::pack::PackError),
    #[error("{0}: a pack is read only; to resume the proof, unpack it into a directory first (wordle-tree unpack PACK DIR)")]
    ReadOnlyPack(PathBuf),
}

/// What a proof's units settle (the identity line `objective`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// The least total guesses (`solve --results`): units are [`Outcome::Exact`] or
    /// [`Outcome::AtLeast`] (or [`Outcome::Infeasible`]).
    Total,
    /// Every answer within `max_guesses` (`check --results`): units are
    /// [`Outcome::Feasible`] or [`Outcome::Infeasible`].
    Within,
}

/// What a unit's search settled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The exact least cost of the unit, and an optimal subtree.
    Exact(u64, Node),
    /// A proved lower bound (at least the unit's cutoff when it was searched).
    AtLeast(u64),
    /// No tree finds every candidate within the guesses left.
    Infeasible,
    /// ([`Goal::Within`]) A subtree that finds every candidate within the guesses left.
    Feasible(Node),
}

impl Outcome {
    /// A valid lower bound on the unit's cost under its proof's objective (0 for a
    /// feasible unit: the feasibility objective prices every tree within the limit 0).
    pub fn bound(&self) -> u64 {
        match self {
            Outcome::Exact(v, _) | Outcome::AtLeast(v) => *v,
            Outcome::Infeasible => INFEASIBLE as u64,
            Outcome::Feasible(_) => 0,
        }
    }

    /// The result as shown on a progress line: `exact 4926`, `at_least 900`,
    /// `feasible`, `infeasible`.
    pub fn text(&self) -> String {
        match self {
            Outcome::Exact(v, _) => format!("exact {v}"),
            Outcome::AtLeast(v) => format!("at_least {v}"),
            Outcome::Infeasible => "infeasible".into(),
            Outcome::Feasible(_) => "feasible".into(),
        }
    }
}

/// A unit's record, as read from or written to its file.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub outcome: Outcome,
    /// Wall seconds the unit took (for estimates).
    pub seconds: f64,
}
