//! One proof as many small jobs: `solve --results DIR` keeps the progress of a single
//! opener's proof in a directory, one file per finished **unit**, so a run can stop at
//! any moment and resume, and the units can be shared between processes and machines
//! (`--shard i/n`) and assembled at the end (`--merge`).
//!
//! **Units.** A unit is one state of the proof, named by its [`UnitKey`]: the opener's
//! feedback, then optionally more `(guess, feedback)` steps for a finer split of a
//! bucket too large to be one job. This version plans bucket-level units only (one per
//! non-green bucket of the opener); the key syntax and the file name already carry
//! the finer steps (`unit BBBBB arose:BYBBB`, `unit.BBBBB.arose-BYBBB.txt`), and a
//! finer unit of a plan that does not list it is refused by name, never mixed in.
//!
//! **The cost.** With the total-guesses objective, the opener's cost is
//! `here + sum over units of cost(unit)` (`here` = one guess per answer for the
//! opener), each unit's cost being the exact least cost of its state with one guess
//! fewer, as in `Solver::solve_from`. So the proof is the sum of independent exact
//! unit costs, and each unit's subtree, hung under the opener at its feedback, gives
//! the whole optimal tree.
//!
//! **Cutoff.** With `--cutoff N`, a unit is searched with the cutoff
//! `beta = N - here - sum of the other units' best known lower bounds` (exact costs,
//! recorded bounds, or the size bound `2m - 1` of units not done yet). The search
//! returns the exact cost if it is below `beta`, else a proved lower bound `>= beta`.
//! Every number recorded is a valid lower bound of its unit whatever `beta` was, so
//! `here + sum of the units' bounds` is always a valid lower bound of the opener; when
//! a unit stops at its `beta`, that sum reaches `N` (the other units' bounds only
//! grow), and the verdict is "costs at least N". The merged verdict is PROVED (the
//! exact optimum) only when every unit is exact; a total at or above `N` reached with
//! every unit exact is still exact.
//!
//! **Files.** One text file per finished unit, `DIR/unit.<KEY>.txt`, written
//! atomically and checked whole when read ([`unit_file`]); a large unit in progress
//! keeps a journal of its top level, `DIR/part.<KEY>.txt` ([`journal`]).
//!
//! **Objectives.** The same units serve two questions, named by the identity line
//! `objective` ([`Goal`]), so a `solve` directory and a `check` directory never mix:
//! - `objective total` (`solve --results`, [`Plan::new`]): the least total guesses, as
//!   above. Its files are exactly those of format version 1 before `check` used units.
//! - `objective within D` (`check --opener W --max-guesses D --results`,
//!   [`Plan::within`]): can every candidate of the unit be found within the `D - 1`
//!   guesses left (the feasibility objective, normal or hard mode)? A unit is
//!   `feasible`, with a witness subtree that is replayed (every candidate found within
//!   `D - 1`) before it is written and again when it is read, or `infeasible`
//!   (proved by the exhaustive search). The claim is PROVED when every unit is
//!   feasible (the witness tree is the opener with every unit's subtree, replayed
//!   whole before it is returned) and REFUTED as soon as one unit is infeasible,
//!   whatever the other units hold, so a run stops taking units once it knows one.
//!   No cutoff (`cutoff none`), and no `--except` (the exempt answers would have to
//!   be part of the identity; `check` refuses the combination).
//!
//! **Where things are.** [`plan`]: the units of a proof, their keys and identity;
//! [`unit_file`]: a unit's file and the scan of a results directory or pack;
//! [`journal`]: a large unit's journal; [`run`]: the units settled by the one job
//! driver, and audits; [`merge`](mod@merge): the verdict. Here: the words they all
//! share ([`ProofError`], [`Goal`], [`Outcome`], [`Record`]) and the format
//! [`VERSION`].
//!
//! Invariant across them: a plan is recomputed, never stored, by every process of a
//! proof, so a unit file names its unit by key and a checksum of its candidates, and
//! anything that does not match the plan is damaged (redone) or foreign (refused).

pub mod journal;
pub mod merge;
pub mod plan;
pub mod run;
pub mod unit_file;

pub use journal::{Journal, JOURNAL_EVERY, JOURNAL_MIN};
pub use merge::{merge, Verdict};
pub use plan::{subtree_cost, Identity, Plan, Unit, UnitKey};
pub use run::{audit, feasible_unit, run_units, solve_unit, Audited, Status, Working};
pub use unit_file::{encode_record, read_record, scan_dir, Read, Scan};

use crate::game::word::Word;
use crate::search::bound::INFEASIBLE;
use crate::search::SolveError;
use crate::tree::Node;
use std::path::PathBuf;

/// The format version written in every unit file's first line.
pub const VERSION: u32 = 1;

#[derive(Debug, thiserror::Error)]
pub enum ProofError {
    #[error("{0}: {1}")]
    Io(PathBuf, std::io::Error),
    #[error("{0}: a unit file of another proof ({1}); one results directory holds one proof, use another --results")]
    Foreign(PathBuf, String),
    #[error("{0}: unit '{1}' is not a unit of this proof (opener {2})")]
    NotAUnit(PathBuf, String, Word),
    #[error("opener '{0}' needs at least 2 guesses")]
    TooFewGuesses(Word),
    #[error(transparent)]
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
