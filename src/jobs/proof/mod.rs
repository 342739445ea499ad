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
//! keeps a journal of its top level, `DIR/part.<KEY>.txt` ([`journal`]), and shards
//! that split it between them ([`split`]) one each more, `part.<KEY>.by-<TAG>.txt`.
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
//! **Where things are.** [`outcome`]: the words they all share ([`ProofError`],
//! [`Goal`], [`Outcome`], [`Record`]); [`plan`]: the units of a proof, their keys and
//! identity; [`unit_file`]: a unit's file and the scan of a results directory or pack;
//! [`journal`]: a large unit's journal; [`split`]: a large unit's second guesses
//! split between processes; [`run`]: the units settled by the one job driver, and
//! audits; [`merge`](mod@merge): the verdict. This file only re-exports
//! their public items, at the paths they had when the proof was one file.
//!
//! Invariant across them: a plan is recomputed, never stored, by every process of a
//! proof, so a unit file names its unit by key and a checksum of its candidates, and
//! anything that does not match the plan is damaged (redone) or foreign (refused).

pub mod journal;
pub mod merge;
pub mod outcome;
pub mod plan;
pub mod run;
pub mod split;
pub mod unit_file;

pub use journal::{Journal, JOURNAL_EVERY, JOURNAL_MIN};
pub use merge::{merge, Verdict};
pub use outcome::{Goal, Outcome, ProofError, Record};
pub use plan::{subtree_cost, Identity, Plan, Unit, UnitKey};
pub use run::{audit, feasible_unit, run_units, solve_unit, Audited, Status, Working};
pub use unit_file::{encode_record, read_record, scan_dir, Read, Scan, VERSION};
