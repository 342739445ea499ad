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
//! **Files.** `DIR/unit.<KEY>.txt`, text, written atomically (temporary file, sync,
//! rename: [`crate::store::results::write_entry`], which replaces a symlink or a FIFO
//! planted at the name instead of writing through it), so a reader sees a whole file
//! or none and a killed process (SIGKILL included) loses only the units it was
//! working on (their temporary files are removed by the next scan). A file
//! records the proof's [`Identity`] (format version, lists and their checksum, mode,
//! guess limit, objective, opener, cutoff), the unit key, a checksum of its candidate
//! ids, the result and its subtree, and ends with a checksum of everything before it.
//! A file whose end checksum or subtree does not check is *damaged* and redone; a
//! whole file of another identity is *foreign* and refused by name (the run stops,
//! exit 2): one directory holds one proof. Dot files (temporaries) and other names are
//! ignored.
//!
//! **Claims and balance.** Before a unit is searched, its process claims it with
//! `DIR/claim.<KEY>.txt` ([`crate::store::claim`], through the driver's
//! [`Job::claim`]): a unit another live process holds is left to it, and one whose
//! file appeared meanwhile is read, not searched. So shards sharing a directory can
//! take over each other's unstarted units ([`run_units_balanced`]): a shard done with
//! its own units goes on with the others', largest first, once the directory shows
//! that other shards work there. Claims never decide a result (only unit files do).
//!
//! **Journals.** A unit of at least [`JOURNAL_MIN`] candidates under the total
//! objective keeps `DIR/part.<KEY>.txt` while it is searched ([`Journal`]): every
//! guess settled at the unit's top, exact or bounded, rewritten atomically at most
//! every 10 s and once more when the run stops, removed once the unit's file is
//! written. A rerun skips the guesses it holds, so a unit of hours resumes guess by
//! guess. Its entries are facts about single guesses (true under any cutoff), so it
//! never changes a unit's result, only how much is searched again: tested against a
//! plain search from the whole journal, every other entry, and weak bounds only.
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
//! A refutation is only ever read from a whole file whose end checksum matches, or
//! found by this process's search: a damaged file is redone and an I/O error stops
//! the run, so neither can become a verdict.
//!
//! Measured (release build, 2 cores shared with another long job): `lants` within 6
//! on `wordle-all` is 166 units; 165 settled in 599 s, all but two of them in under a
//! second, and the last, `YBBBG` (354 candidates), took 610 s alone. A unit is one
//! thread's serial search, so a claim's tail is as long as its hardest unit.

use crate::game::feedback::Feedback;
use crate::game::hard::Revealed;
use crate::game::table::FeedbackTable;
use crate::game::word::Word;
use crate::game::{AnswerId, Fnv, Game, GuessId};
use crate::jobs::driver::{self, Job, Queue};
use crate::search::bound::{Objective, INFEASIBLE};
use crate::search::{Settled, SolveError, Solver, TopLog};
use crate::store::claim::Claimer;
use crate::store::pack::{is_pack, Pack};
use crate::store::results::{read_entry, remove_stale_temps, seal_as, sealed_body, write_entry};
use crate::tree::{Node, Tree};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// The format version written in every unit file's first line.
pub const VERSION: u32 = 1;
const MAGIC: &str = "wordle-tree proof unit v";
const PART_MAGIC: &str = "wordle-tree proof part v";
/// The largest unit file or journal read (the big game's largest units hold trees of
/// a few hundred KB); anything larger is damaged, never read whole.
const MAX_UNIT: u64 = 16 << 20;
/// Units of at least this many candidates keep a journal of their top level.
pub const JOURNAL_MIN: usize = 64;
/// A journal is rewritten at most this often (and only when something new is in it).
pub const JOURNAL_EVERY: std::time::Duration = std::time::Duration::from_secs(10);

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
    fn lines(&self) -> String {
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
fn strict_feedback(s: &str) -> Option<Feedback> {
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

/// A subtree as text, preorder: `guess branches (feedback subtree)*`.
fn encode_node(game: &Game, node: &Node, out: &mut String) {
    let _ = write!(
        out,
        " {} {}",
        game.guesses[node.guess.index()],
        node.branches.len()
    );
    for (f, child) in &node.branches {
        let _ = write!(out, " {f}");
        encode_node(game, child, out);
    }
}

fn decode_node<'t>(
    game: &Game,
    tokens: &mut impl Iterator<Item = &'t str>,
    depth: usize,
) -> Option<Node> {
    if depth > 16 {
        return None;
    }
    let guess = game.guess_id(Word::parse(tokens.next()?).ok()?)?;
    let k: usize = tokens.next()?.parse().ok()?;
    if k > 243 {
        return None;
    }
    let mut branches = Vec::with_capacity(k);
    for _ in 0..k {
        let f = strict_feedback(tokens.next()?)?;
        if f.is_all_green() || branches.last().is_some_and(|(p, _)| *p >= f) {
            return None;
        }
        branches.push((f, decode_node(game, tokens, depth + 1)?));
    }
    Some(Node { guess, branches })
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

/// The text of a unit file.
pub fn encode_record(game: &Game, plan: &Plan, i: usize, rec: &Record) -> String {
    let unit = &plan.units[i];
    let mut s = format!("{MAGIC}{VERSION}\n");
    s += &plan.identity.lines();
    let _ = writeln!(s, "unit {}", unit.key.text());
    let _ = writeln!(s, "candidates {} {:016x}", unit.ids.len(), unit.ids_hash);
    match &rec.outcome {
        Outcome::Exact(v, node) => {
            let _ = writeln!(s, "result exact {v}");
            let mut t = String::from("tree");
            encode_node(game, node, &mut t);
            s += &t;
            s.push('\n');
        }
        Outcome::AtLeast(v) => {
            let _ = writeln!(s, "result at_least {v}");
        }
        Outcome::Infeasible => s += "result infeasible\n",
        Outcome::Feasible(node) => {
            s += "result feasible\n";
            let mut t = String::from("tree");
            encode_node(game, node, &mut t);
            s += &t;
            s.push('\n');
        }
    }
    let _ = writeln!(s, "seconds {:.3}", rec.seconds);
    seal_as(s, "end ")
}

/// The common frame of unit files and journals: `magic` + version on the first line,
/// the proof's identity lines next, an end line with the checksum of everything
/// before it. `Ok(Ok(lines))`: the lines after the identity; `Ok(Err(why))`: damaged
/// (no header, truncated, checksum); `Err`: a whole file of another proof (version
/// or identity), named by `path`.
fn framed<'t>(
    text: &'t str,
    magic: &str,
    what: &str,
    plan: &Plan,
    path: &Path,
) -> Result<Result<std::str::Lines<'t>, String>, ProofError> {
    let Some(version) = text.lines().next().and_then(|l| l.strip_prefix(magic)) else {
        return Ok(Err(format!("no {what} header")));
    };
    // The end line: a checksum of everything before it.
    let Some(body) = sealed_body(text) else {
        return Ok(Err("checksum mismatch or truncated".into()));
    };
    if version != VERSION.to_string() {
        return Err(ProofError::Foreign(
            path.into(),
            format!("format version {version}, not {VERSION}"),
        ));
    }
    // Identity: compared line by line, so the message names the first difference.
    let mut lines = body.lines();
    lines.next();
    for w in plan.identity.lines().lines() {
        let got = lines.next().unwrap_or("");
        if got != w {
            return Err(ProofError::Foreign(
                path.into(),
                format!("'{got}', not '{w}'"),
            ));
        }
    }
    Ok(Ok(lines))
}

/// How a unit file was read.
#[derive(Debug)]
pub enum Read {
    /// A whole record of this proof, for unit `i`.
    Good(usize, Record),
    /// Unreadable as a unit file (truncated, edited, bad subtree): to be redone.
    Damaged(String),
}

/// Reads one unit file. `Err` for a foreign file (other identity or version) or a unit
/// this plan does not have: those stop the run.
pub fn read_record(
    game: &Game,
    table: &FeedbackTable,
    plan: &Plan,
    path: &Path,
) -> Result<Read, ProofError> {
    let text = match read_entry(path, MAX_UNIT, "a unit file") {
        Ok(Some(text)) => text,
        Ok(None) => return Ok(Read::Damaged("not a regular file".into())),
        Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
            return Ok(Read::Damaged(e.to_string()))
        }
        Err(e) => return Err(ProofError::Io(path.into(), e)),
    };
    parse_record(game, table, plan, path, &text)
}

/// [`read_record`] of a unit file's text (from a directory or a pack; `path` names it).
fn parse_record(
    game: &Game,
    table: &FeedbackTable,
    plan: &Plan,
    path: &Path,
    text: &str,
) -> Result<Read, ProofError> {
    let mut lines = match framed(text, MAGIC, "unit-file", plan, path)? {
        Ok(lines) => lines,
        Err(why) => return Ok(Read::Damaged(why)),
    };
    let key_text = lines
        .next()
        .and_then(|l| l.strip_prefix("unit "))
        .unwrap_or("");
    let Some(key) = UnitKey::parse(key_text) else {
        return Ok(Read::Damaged(format!("bad unit key '{key_text}'")));
    };
    if path.file_name().and_then(|n| n.to_str()) != Some(key.file_name().as_str()) {
        return Ok(Read::Damaged(format!(
            "unit '{key_text}' under another file name"
        )));
    }
    let Some(i) = plan.units.iter().position(|u| u.key == key) else {
        return Err(ProofError::NotAUnit(
            path.into(),
            key_text.into(),
            plan.identity.opener,
        ));
    };
    let unit = &plan.units[i];
    let cands = format!("candidates {} {:016x}", unit.ids.len(), unit.ids_hash);
    if lines.next() != Some(cands.as_str()) {
        return Ok(Read::Damaged("other candidates than the unit's".into()));
    }
    let result = lines.next().unwrap_or("");
    // Each objective has its own results (an identity match makes a mix a damage).
    let fits = match plan.identity.goal {
        Goal::Total => !result.starts_with("result feasible"),
        Goal::Within => result == "result feasible" || result == "result infeasible",
    };
    if !fits {
        return Ok(Read::Damaged(format!(
            "'{result}' is not a result of this objective"
        )));
    }
    let subtree = |line: Option<&str>| {
        let tree = line.and_then(|l| l.strip_prefix("tree")).unwrap_or("");
        let mut tokens = tree.split_whitespace();
        let node = decode_node(game, &mut tokens, 0)?;
        tokens.next().is_none().then_some(node)
    };
    let outcome = if result == "result feasible" {
        let Some(node) = subtree(lines.next()) else {
            return Ok(Read::Damaged("bad subtree".into()));
        };
        if subtree_cost(table, &node, &unit.ids, unit.left).is_none() {
            return Ok(Read::Damaged(format!(
                "the subtree does not find every candidate within {} guesses",
                unit.left
            )));
        }
        Outcome::Feasible(node)
    } else if let Some(v) = result.strip_prefix("result exact ") {
        let Ok(v) = v.parse::<u64>() else {
            return Ok(Read::Damaged(format!("bad result '{result}'")));
        };
        let Some(node) = subtree(lines.next()) else {
            return Ok(Read::Damaged("bad subtree".into()));
        };
        if subtree_cost(table, &node, &unit.ids, unit.left) != Some(v) {
            return Ok(Read::Damaged(format!(
                "the subtree does not find every candidate in {v} guesses"
            )));
        }
        Outcome::Exact(v, node)
    } else if let Some(v) = result.strip_prefix("result at_least ") {
        match v.parse::<u64>() {
            Ok(v) => Outcome::AtLeast(v),
            Err(_) => return Ok(Read::Damaged(format!("bad result '{result}'"))),
        }
    } else if result == "result infeasible" {
        Outcome::Infeasible
    } else {
        return Ok(Read::Damaged(format!("bad result '{result}'")));
    };
    let seconds = lines
        .next()
        .and_then(|l| l.strip_prefix("seconds "))
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0);
    let Some(seconds) = seconds else {
        return Ok(Read::Damaged("bad seconds line".into()));
    };
    if lines.next().is_some() {
        return Ok(Read::Damaged("extra lines".into()));
    }
    Ok(Read::Good(i, Record { outcome, seconds }))
}

/// The journal of a large unit in progress (`part.<KEY>.txt`): every second guess
/// (the guess at the unit's top) settled so far, as an exact cost or a proved lower
/// bound ([`Settled`]). A unit of hours is otherwise all or nothing: `lants:BBBBG`
/// (1132 candidates) was lost twice to the end of a session after hours of search.
/// With the journal a rerun skips every guess already settled (the best exact one is
/// its incumbent), so a stop loses at most [`JOURNAL_EVERY`] and the expansions in
/// progress. The entries are facts about single guesses, true whatever cutoff the
/// unit is searched with, so the journal is valid across reruns with other cutoffs
/// (the cutoff of the proof is fixed by its identity; the unit's share changes).
/// Same identity lines and end checksum as a unit file: a journal of another proof
/// is refused by name, a damaged one is ignored (its unit starts over), and it is
/// removed once the unit's file is written.
pub struct Journal<'g> {
    game: &'g Game,
    path: PathBuf,
    /// Everything before the entries: magic, identity, unit key and candidates.
    head: String,
    known: HashMap<GuessId, Settled>,
    state: Mutex<JournalState>,
    /// Told (guesses settled, best exact) at most every [`REPORT_EVERY`].
    report: Option<Report<'g>>,
}

type Report<'g> = Box<dyn Fn(usize, Option<(GuessId, u32)>) + Sync + 'g>;

/// How often a journal reports its unit's progress.
const REPORT_EVERY: std::time::Duration = std::time::Duration::from_secs(60);

struct JournalState {
    entries: BTreeMap<GuessId, Settled>,
    written: Instant,
    reported: Instant,
    dirty: bool,
    error: Option<std::io::Error>,
}

impl<'g> Journal<'g> {
    /// Opens the journal of unit `i` (reading what an earlier run left; a damaged file
    /// is reported in `damaged` and ignored). `Err` for a journal of another proof.
    pub fn open(
        game: &'g Game,
        plan: &Plan,
        dir: &Path,
        i: usize,
    ) -> Result<(Journal<'g>, Option<String>), ProofError> {
        let unit = &plan.units[i];
        let path = plan.part_path(dir, i);
        let mut head = format!("{PART_MAGIC}{VERSION}\n");
        head += &plan.identity.lines();
        let _ = writeln!(head, "unit {}", unit.key.text());
        let _ = writeln!(head, "candidates {} {:016x}", unit.ids.len(), unit.ids_hash);
        let (known, damaged) = match read_entry(&path, MAX_UNIT, "a unit journal") {
            Ok(None) => (HashMap::new(), None),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (HashMap::new(), None),
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                (HashMap::new(), Some(e.to_string()))
            }
            Ok(Some(text)) => match read_part(game, plan, &head, &path, &text)? {
                Ok(known) => (known, None),
                Err(why) => (HashMap::new(), Some(why)),
            },
            Err(e) => return Err(ProofError::Io(path, e)),
        };
        let entries = known.iter().map(|(g, s)| (*g, *s)).collect();
        Ok((
            Journal {
                game,
                path,
                head,
                known,
                report: None,
                state: Mutex::new(JournalState {
                    entries,
                    written: Instant::now(),
                    reported: Instant::now(),
                    dirty: false,
                    error: None,
                }),
            },
            damaged,
        ))
    }

    /// Reports progress to `report` (guesses settled, best exact guess and cost) at
    /// most once a minute, as guesses are recorded.
    pub fn with_report(mut self, report: Report<'g>) -> Self {
        self.report = Some(report);
        self
    }

    /// The guesses an earlier run settled.
    pub fn known(&self) -> &HashMap<GuessId, Settled> {
        &self.known
    }

    /// Records one settled guess; rewrites the file (atomically) when the last write
    /// is [`JOURNAL_EVERY`] old. The first write error is kept for [`Journal::error`].
    pub fn record(&self, g: GuessId, s: Settled) {
        let mut st = self.state.lock().unwrap();
        st.entries.insert(g, s);
        st.dirty = true;
        if st.written.elapsed() >= JOURNAL_EVERY {
            self.write(&mut st);
        }
        if let Some(report) = &self.report {
            if st.reported.elapsed() >= REPORT_EVERY {
                st.reported = Instant::now();
                let best = st
                    .entries
                    .iter()
                    .filter_map(|(g, s)| match s {
                        Settled::Exact(v) => Some((*v, *g)),
                        Settled::AtLeast(_) => None,
                    })
                    .min()
                    .map(|(v, g)| (g, v));
                let settled = st.entries.len();
                drop(st);
                report(settled, best);
            }
        }
    }

    /// Writes what is not on disk yet.
    pub fn flush(&self) {
        let mut st = self.state.lock().unwrap();
        if st.dirty {
            self.write(&mut st);
        }
    }

    fn write(&self, st: &mut JournalState) {
        let text = encode_part(self.game, &self.head, &st.entries);
        match write_entry(&self.path, text.as_bytes()) {
            Ok(()) => st.dirty = false,
            Err(e) => {
                st.error.get_or_insert(e);
            }
        }
        st.written = Instant::now();
    }

    /// The first write error, if any (the run stops on it: a journal that cannot be
    /// written is progress that would be lost).
    pub fn error(&self) -> Option<ProofError> {
        let e = self.state.lock().unwrap().error.take()?;
        Some(ProofError::Io(self.path.clone(), e))
    }

    /// Removes the file (once the unit's own file is written); a failure is harmless:
    /// a journal next to its unit's file is never read.
    pub fn remove(&self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

fn encode_part(game: &Game, head: &str, entries: &BTreeMap<GuessId, Settled>) -> String {
    let mut s = head.to_string();
    for (g, e) in entries {
        let w = game.guesses[g.index()];
        let _ = match e {
            Settled::Exact(v) => writeln!(s, "guess {w} exact {v}"),
            Settled::AtLeast(v) => writeln!(s, "guess {w} at_least {v}"),
        };
    }
    seal_as(s, "end ")
}

/// Reads a journal: `Ok(Ok(entries))`, `Ok(Err(why))` when damaged, `Err` when it
/// belongs to another proof (other identity or version).
fn read_part(
    game: &Game,
    plan: &Plan,
    head: &str,
    path: &Path,
    text: &str,
) -> Result<Result<HashMap<GuessId, Settled>, String>, ProofError> {
    let mut lines = match framed(text, PART_MAGIC, "journal", plan, path)? {
        Ok(lines) => lines,
        Err(why) => return Ok(Err(why)),
    };
    // The unit key and candidates: the file name says which unit, so a mismatch is damage.
    for w in head.lines().skip(1 + plan.identity.lines().lines().count()) {
        if lines.next() != Some(w) {
            return Ok(Err(format!(
                "not the journal of this unit ('{w}' expected)"
            )));
        }
    }
    let mut known = HashMap::new();
    for line in lines {
        let mut t = line.split(' ');
        let (Some("guess"), Some(w), Some(kind), Some(v), None) =
            (t.next(), t.next(), t.next(), t.next(), t.next())
        else {
            return Ok(Err(format!("bad line '{}'", clip_line(line))));
        };
        let g = Word::parse(w).ok().and_then(|w| game.guess_id(w));
        let v = v.parse::<u32>().ok().filter(|&v| v <= INFEASIBLE);
        let s = match (kind, v) {
            ("exact", Some(v)) if v < INFEASIBLE => Settled::Exact(v),
            ("at_least", Some(v)) => Settled::AtLeast(v),
            _ => return Ok(Err(format!("bad line '{}'", clip_line(line)))),
        };
        let Some(g) = g else {
            return Ok(Err(format!("'{w}' is not an allowed guess")));
        };
        if known.insert(g, s).is_some() {
            return Ok(Err(format!("guess '{w}' twice")));
        }
    }
    Ok(Ok(known))
}

fn clip_line(s: &str) -> String {
    s.chars().take(60).collect()
}

/// What the results directory holds for a plan.
#[derive(Debug, Default)]
pub struct Scan {
    /// Records by unit position.
    pub done: BTreeMap<usize, Record>,
    /// Damaged files and why (their units count as not done).
    pub damaged: Vec<(PathBuf, String)>,
    /// Unreadable files named like units this plan does not have: left alone.
    pub strays: Vec<(PathBuf, String)>,
}

/// Reads every unit file in `dir` (creating it if missing), or in the pack `dir`
/// names ([`crate::store::pack`], read only). Skips dot files (temporary files of
/// atomic writes, maybe of a killed process, which it removes when stale), names that
/// are not unit files, and anything that is not a regular file.
pub fn scan_dir(
    game: &Game,
    table: &FeedbackTable,
    plan: &Plan,
    dir: &Path,
) -> Result<Scan, ProofError> {
    let is_unit = |n: &str| n.starts_with("unit.") && n.ends_with(".txt");
    let mut scan = Scan::default();
    let mut found: Vec<(PathBuf, Read)> = Vec::new();
    if is_pack(dir) {
        let pack = Pack::read(dir)?;
        for (name, text) in pack.files.iter().filter(|(n, _)| is_unit(n)) {
            let path = dir.join(name);
            let read = parse_record(game, table, plan, &path, text)?;
            found.push((path, read));
        }
    } else {
        std::fs::create_dir_all(dir).map_err(|e| ProofError::Io(dir.into(), e))?;
        remove_stale_temps(dir);
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|e| ProofError::Io(dir.into(), e))?
            .filter_map(|e| e.ok())
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .map(|e| e.path())
            .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(is_unit))
            .collect();
        entries.sort();
        for path in entries {
            let read = read_record(game, table, plan, &path)?;
            found.push((path, read));
        }
    }
    for (path, read) in found {
        match read {
            Read::Good(i, rec) => {
                scan.done.insert(i, rec);
            }
            Read::Damaged(why) => {
                let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
                if plan.units.iter().any(|u| u.key.file_name() == name) {
                    scan.damaged.push((path, why));
                } else {
                    // Unreadable, and no unit of this plan would replace it.
                    scan.strays.push((path, why));
                }
            }
        }
    }
    Ok(scan)
}

/// Where a proof stands: the bound proved so far and how many units are settled.
#[derive(Clone, Debug, PartialEq)]
pub struct Status {
    pub units: usize,
    pub done: usize,
    /// Units of this run (its shard) and how many of them are done.
    pub mine: usize,
    pub mine_done: usize,
    /// Candidates in this run's units, and in those done (for the time estimate).
    pub mine_candidates: u64,
    pub mine_candidates_done: u64,
    /// `here + sum of every unit's best lower bound`: a proved lower bound on the
    /// opener's cost (its exact cost once every unit is exact).
    pub bound: u64,
    /// The unit just finished: its key, result (`exact 4926`, `at_least 900`,
    /// `infeasible`) and wall seconds; empty before the first.
    pub last: Option<(String, String, f64)>,
    /// Set (and `last` empty) when the call reports a large unit in progress instead
    /// of a finished one: at most once a minute per unit, from its journal.
    pub working: Option<Working>,
}

/// A large unit in progress, as its journal stands.
#[derive(Clone, Debug, PartialEq)]
pub struct Working {
    pub key: String,
    /// Second guesses settled so far (this run's and earlier runs').
    pub settled: usize,
    /// The best second guess found so far and its exact cost from the unit.
    pub best: Option<(Word, u32)>,
}

/// One unit re-solved by [`audit`]: its key, what its file claims, what the re-solve
/// found, and whether they agree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Audited {
    pub key: String,
    pub claimed: String,
    pub found: String,
    pub agrees: bool,
}

/// Re-solves, from scratch, the units at `picks` (positions in the plan) that `scan`
/// holds, and compares each with what its file claims: an exact cost must come out
/// the same, a lower bound must hold, a unit claimed infeasible must be infeasible
/// and one claimed feasible feasible. Checksums only show that a file is whole; an
/// audit is what tests a worker's word, so a merge of units from many machines can
/// be spot-checked (`--merge --audit N`). The solver must be the plan's, as for
/// [`run_units`]; units not in `scan` are skipped.
pub fn audit(
    solver: &Solver,
    table: &FeedbackTable,
    plan: &Plan,
    scan: &Scan,
    picks: &[usize],
    stop: &AtomicBool,
) -> Result<Vec<Audited>, ProofError> {
    let mut out = Vec::new();
    for &i in picks {
        let Some(rec) = scan.done.get(&i) else {
            continue;
        };
        let unit = &plan.units[i];
        let beta = |v: u64| u32::try_from(v).unwrap_or(INFEASIBLE).min(INFEASIBLE);
        let found = match (plan.identity.goal, &rec.outcome) {
            (Goal::Within, _) => feasible_unit(solver, table, plan, unit, stop)?,
            (Goal::Total, Outcome::Exact(v, _)) => {
                solve_unit(solver, table, unit, beta(v + 1), stop, None)?
            }
            (Goal::Total, Outcome::AtLeast(v)) => {
                solve_unit(solver, table, unit, beta(*v), stop, None)?
            }
            (Goal::Total, _) => solve_unit(solver, table, unit, INFEASIBLE, stop, None)?,
        };
        let agrees = match (&rec.outcome, &found) {
            (Outcome::Exact(v, _), Outcome::Exact(w, _)) => v == w,
            (Outcome::AtLeast(_), Outcome::AtLeast(_) | Outcome::Infeasible) => true,
            (Outcome::Infeasible, Outcome::Infeasible) => true,
            (Outcome::Feasible(_), Outcome::Feasible(_)) => true,
            _ => false,
        };
        out.push(Audited {
            key: unit.key.text(),
            claimed: rec.outcome.text(),
            found: found.text(),
            agrees,
        });
    }
    Ok(out)
}

/// Solves the units at `todo` (positions in the plan) not in `scan.done`, largest
/// first, on all threads (one unit per thread at a time, each searched serially),
/// writing each one's file as soon as it is settled. Stops taking units (without
/// error) when the cutoff is proved reached, or, for [`Goal::Within`], once some unit
/// (of any run) is infeasible: the claim is then refuted whatever the others hold.
/// The solver must match the plan: total guesses (or a cutoff search) for
/// [`Goal::Total`], [`Objective::feasibility`] with `max_guesses` the claim's depth for
/// [`Goal::Within`]. `stop` is the solver's stop flag: once set, the units
/// in progress are abandoned (not written) and `Interrupted` is returned. `progress`
/// is called after each unit.
#[allow(clippy::too_many_arguments)]
pub fn run_units(
    solver: &Solver,
    table: &FeedbackTable,
    plan: &Plan,
    dir: &Path,
    scan: &mut Scan,
    todo: &[usize],
    stop: &AtomicBool,
    progress: &(dyn Fn(&Status) + Sync),
) -> Result<(), ProofError> {
    run_units_balanced(solver, table, plan, dir, scan, todo, &[], stop, progress)
}

/// [`run_units`], then, once this run's own units (`todo`) are taken, the units of
/// `others` (positions in the plan: other shards' units, largest first) that no
/// process has started: each unit is claimed before it is searched
/// ([`crate::store::claim`]), a unit claimed by another live process is left to it,
/// and one whose file appears meanwhile is read, not searched. So a shard that
/// finishes early takes over work from shards that still have much, and the
/// directory ends the same as after a serial run. [`Status::mine`] grows by each unit
/// taken over. Units of `others` are taken only in a directory other shards use:
/// once it holds a unit file or a claim of one of their units that this run did not
/// claim (a shard with a directory of its own solves its own units only).
#[allow(clippy::too_many_arguments)]
pub fn run_units_balanced(
    solver: &Solver,
    table: &FeedbackTable,
    plan: &Plan,
    dir: &Path,
    scan: &mut Scan,
    todo: &[usize],
    others: &[usize],
    stop: &AtomicBool,
    progress: &(dyn Fn(&Status) + Sync),
) -> Result<(), ProofError> {
    let bounds: Vec<u64> = (0..plan.units.len())
        .map(|i| {
            let cheap = plan.units[i].cheap_bound;
            scan.done
                .get(&i)
                .map_or(cheap, |r| r.outcome.bound().max(cheap))
        })
        .collect();
    let mut own = vec![false; plan.units.len()];
    for &i in todo {
        own[i] = true;
    }
    let pending: Vec<usize> = todo
        .iter()
        .chain(others.iter().filter(|&&i| !own[i]))
        .copied()
        .filter(|i| !scan.done.contains_key(i))
        .collect();
    let cands = |is: &mut dyn Iterator<Item = usize>| -> u64 {
        is.map(|i| plan.units[i].ids.len() as u64).sum()
    };
    let job = UnitsJob {
        solver,
        table,
        plan,
        dir,
        stop,
        progress,
        status: Mutex::new(Status {
            units: plan.units.len(),
            done: scan.done.len(),
            mine: todo.len(),
            mine_done: todo.iter().filter(|i| scan.done.contains_key(i)).count(),
            mine_candidates: cands(&mut todo.iter().copied()),
            mine_candidates_done: cands(
                &mut todo.iter().copied().filter(|i| scan.done.contains_key(i)),
            ),
            bound: plan.here + bounds.iter().sum::<u64>(),
            last: None,
            working: None,
        }),
        shared: Mutex::new((bounds, std::mem::take(&mut scan.done))),
        own,
        claims: (!is_pack(dir)).then(|| Claimer::new(dir)),
        ours: Mutex::new(vec![false; plan.units.len()]),
        shared_dir: AtomicBool::new(false),
    };
    progress(&job.status.lock().unwrap());
    let threads = rayon::current_num_threads();
    let result = driver::run(&job, &Queue::singles(pending), threads, stop);
    scan.done = job.shared.into_inner().unwrap().1;
    result.map(|_| ())
}

/// A proof's units as a [`Job`]: one unit per position in the plan, on one shared
/// solver; each worker computes its unit's cutoff from every unit's bound so far.
struct UnitsJob<'a> {
    solver: &'a Solver<'a>,
    table: &'a FeedbackTable,
    plan: &'a Plan,
    dir: &'a Path,
    stop: &'a AtomicBool,
    progress: &'a (dyn Fn(&Status) + Sync),
    status: Mutex<Status>,
    /// Every unit's best lower bound, and the records settled.
    shared: Mutex<(Vec<u64>, BTreeMap<usize, Record>)>,
    /// Which units are this run's own (its shard's); the others are taken over.
    own: Vec<bool>,
    /// This process's claims in the directory (none for a pack, read only).
    claims: Option<Claimer>,
    /// The units this run has claimed.
    ours: Mutex<Vec<bool>>,
    /// Set once the directory shows the work of another shard (see
    /// [`UnitsJob::shared`]).
    shared_dir: AtomicBool,
}

impl UnitsJob<'_> {
    /// Whether other shards use this directory: it holds a unit file or a claim of a
    /// unit of another shard that this run did not claim. Only then does the run take
    /// over other shards' units: a shard given a directory of its own (no shared file
    /// system, files copied together for the merge) must not solve the whole proof.
    fn shared(&self) -> bool {
        if self.shared_dir.load(Ordering::Relaxed) {
            return true;
        }
        let Ok(entries) = std::fs::read_dir(self.dir) else {
            return false;
        };
        let names: std::collections::HashSet<String> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        let ours = self.ours.lock().unwrap();
        let seen = (0..self.plan.units.len()).any(|i| {
            !self.own[i]
                && !ours[i]
                && (names.contains(&self.plan.units[i].key.file_name())
                    || names.contains(&format!(
                        "{}{}",
                        crate::store::claim::PREFIX,
                        self.claim_name(i)
                    )))
        });
        if seen {
            self.shared_dir.store(true, Ordering::Relaxed);
        }
        seen
    }

    /// The name of unit `i`'s claim file (`claim.KEY.txt`).
    fn claim_name(&self, i: usize) -> String {
        let name = self.plan.units[i].key.file_name();
        name.strip_prefix("unit.").unwrap_or(&name).to_string()
    }

    /// Whether unit `i` keeps a journal.
    fn journaled(&self, i: usize) -> bool {
        self.plan.identity.goal == Goal::Total && self.plan.units[i].ids.len() >= JOURNAL_MIN
    }
}

impl Job for UnitsJob<'_> {
    type Unit = usize;
    type Worker = ();
    type Record = Record;
    type Error = ProofError;

    fn worker(&self) {}

    fn stored(&self, i: usize) -> Option<Record> {
        // The queue holds the units without a record when the run started; another
        // process sharing the directory may have written one since.
        self.claims.as_ref()?;
        let path = self.plan.path(self.dir, i);
        std::fs::symlink_metadata(&path).ok()?;
        match read_record(self.solver.game(), self.table, self.plan, &path) {
            Ok(Read::Good(j, rec)) if j == i => Some(rec),
            _ => None,
        }
    }

    fn has_record(&self, _: usize) -> bool {
        false
    }

    fn claim(&self, i: usize) -> Result<bool, ProofError> {
        let Some(claims) = &self.claims else {
            return Ok(true);
        };
        if !self.own[i] && !self.shared() {
            return Ok(false); // no other shard works here: not this run's unit
        }
        match claims.claim(&self.claim_name(i)) {
            Ok(None) => {}
            Ok(Some(_)) => return Ok(false),
            Err(e) => return Err(ProofError::Io(claims.path(&self.claim_name(i)), e)),
        }
        self.ours.lock().unwrap()[i] = true;
        if !self.own[i] {
            // A unit taken over: this run's share grows.
            let mut st = self.status.lock().unwrap();
            st.mine += 1;
            st.mine_candidates += self.plan.units[i].ids.len() as u64;
        }
        Ok(true)
    }

    fn release(&self, i: usize) {
        if let Some(claims) = &self.claims {
            claims.release(&self.claim_name(i));
        }
    }

    fn writable(&self) -> Result<(), ProofError> {
        if is_pack(self.dir) {
            return Err(ProofError::ReadOnlyPack(self.dir.into()));
        }
        Ok(())
    }

    fn solve(&self, _: &mut (), i: usize) -> Result<Option<Record>, ProofError> {
        let (plan, game) = (self.plan, self.solver.game());
        let unit = &plan.units[i];
        let beta = {
            let (bounds, done) = &*self.shared.lock().unwrap();
            if plan.identity.goal == Goal::Within
                && done.values().any(|r| r.outcome == Outcome::Infeasible)
            {
                return Ok(None); // the claim is refuted: nothing to do
            }
            match plan.identity.cutoff {
                None => INFEASIBLE as u64,
                Some(n) => {
                    let others = plan.here + bounds.iter().sum::<u64>() - bounds[i];
                    if others + bounds[i] >= n {
                        return Ok(None); // the cutoff is proved reached: nothing to do
                    }
                    (n - others).min(INFEASIBLE as u64)
                }
            }
        };
        let t = Instant::now();
        let journal = if self.journaled(i) {
            let (j, _damaged) = Journal::open(game, plan, self.dir, i)?;
            Some(j.with_report(Box::new(|settled, best| {
                let mut st = self.status.lock().unwrap().clone();
                st.last = None;
                st.working = Some(Working {
                    key: unit.key.text(),
                    settled,
                    best: best.map(|(g, v)| (game.guesses[g.index()], v)),
                });
                (self.progress)(&st);
            })))
        } else {
            None
        };
        let result = match plan.identity.goal {
            Goal::Total => solve_unit(
                self.solver,
                self.table,
                unit,
                beta as u32,
                self.stop,
                journal.as_ref(),
            ),
            Goal::Within => feasible_unit(self.solver, self.table, plan, unit, self.stop),
        };
        // Whatever happened, what the journal holds reaches the disk.
        if let Some(j) = &journal {
            j.flush();
        }
        let outcome = match (&journal, result) {
            (Some(j), Ok(o)) => j.error().map_or(Ok(o), Err),
            (_, r) => r,
        }?;
        Ok(Some(Record {
            outcome,
            seconds: t.elapsed().as_secs_f64(),
        }))
    }

    fn write(&self, i: usize, rec: &Record) -> Result<(), ProofError> {
        let path = self.plan.path(self.dir, i);
        let text = encode_record(self.solver.game(), self.plan, i, rec);
        write_entry(&path, text.as_bytes()).map_err(|e| ProofError::Io(path, e))
    }

    fn settled(&self, i: usize, rec: Record, reused: bool, _: usize) {
        let unit = &self.plan.units[i];
        if reused {
            // Written by another process meanwhile: known, not this run's work.
            let (bounds, done) = &mut *self.shared.lock().unwrap();
            bounds[i] = rec.outcome.bound().max(unit.cheap_bound);
            if done.insert(i, rec).is_none() {
                let mut st = self.status.lock().unwrap();
                st.done += 1;
                if self.own[i] {
                    st.mine_done += 1;
                    st.mine_candidates_done += unit.ids.len() as u64;
                }
                st.bound = self.plan.here + bounds.iter().sum::<u64>();
            }
            return;
        }
        if self.journaled(i) {
            // The unit's file is written: its journal is never read again (a failure
            // to remove it is harmless).
            let _ = std::fs::remove_file(self.plan.part_path(self.dir, i));
        }
        let (bounds, done) = &mut *self.shared.lock().unwrap();
        bounds[i] = rec.outcome.bound().max(unit.cheap_bound);
        let seconds = rec.seconds;
        let result = rec.outcome.text();
        done.insert(i, rec);
        let mut st = self.status.lock().unwrap();
        st.done += 1;
        st.mine_done += 1;
        st.mine_candidates_done += unit.ids.len() as u64;
        st.bound = self.plan.here + bounds.iter().sum::<u64>();
        st.last = Some((unit.key.text(), result, seconds));
        st.working = None;
        (self.progress)(&st);
    }
}

/// One unit under the cutoff `beta`: exact (with its subtree, checked) when below it.
/// `stop` must be the solver's stop flag (`Solver::with_stop`). With a `journal`, the
/// guesses it holds are not searched again and each guess settled at the unit's top
/// is recorded in it.
pub fn solve_unit(
    solver: &Solver,
    table: &FeedbackTable,
    unit: &Unit,
    beta: u32,
    stop: &AtomicBool,
    journal: Option<&Journal>,
) -> Result<Outcome, ProofError> {
    let record = |g: GuessId, s: Settled| {
        if let Some(j) = journal {
            j.record(g, s);
        }
    };
    let log = journal.map(|j| TopLog {
        known: j.known(),
        record: &record,
    });
    let v = solver.cost_below(&unit.ids, unit.left, &unit.revealed, beta, log.as_ref())?;
    if v >= INFEASIBLE && beta >= INFEASIBLE {
        return Ok(Outcome::Infeasible);
    }
    if v >= beta {
        return Ok(Outcome::AtLeast((v as u64).max(unit.cheap_bound)));
    }
    let node = solver.build(&unit.ids, unit.left, &unit.revealed);
    if stop.load(Ordering::Relaxed) {
        // `build` returns an empty node when interrupted.
        return Err(SolveError::Interrupted.into());
    }
    match subtree_cost(table, &node, &unit.ids, unit.left) {
        Some(c) if c == v as u64 => Ok(Outcome::Exact(c, node)),
        other => Err(ProofError::Internal(
            unit.key.text(),
            format!("the built subtree costs {other:?}, the search said {v}"),
        )),
    }
}

/// One unit of a [`Goal::Within`] plan: can every candidate be found within the
/// guesses left? Feasible comes with a witness subtree, replayed before it is
/// returned. `solver` must use [`Objective::feasibility`] with the plan's depth, and
/// `stop` must be its stop flag.
pub fn feasible_unit(
    solver: &Solver,
    table: &FeedbackTable,
    plan: &Plan,
    unit: &Unit,
    stop: &AtomicBool,
) -> Result<Outcome, ProofError> {
    let config = solver.config();
    if config.objective != Objective::feasibility()
        || config.max_guesses != plan.identity.max_guesses
        || config.hard != plan.identity.hard
    {
        return Err(ProofError::Internal(
            unit.key.text(),
            "the solver does not search this claim".into(),
        ));
    }
    if unit.left == 0 {
        // A non-green bucket and no guess left.
        return Ok(Outcome::Infeasible);
    }
    let v = solver.cost_below(&unit.ids, unit.left, &unit.revealed, INFEASIBLE, None)?;
    if v >= INFEASIBLE {
        return Ok(Outcome::Infeasible);
    }
    let node = solver.build(&unit.ids, unit.left, &unit.revealed);
    if stop.load(Ordering::Relaxed) {
        return Err(SolveError::Interrupted.into());
    }
    match subtree_cost(table, &node, &unit.ids, unit.left) {
        Some(_) => Ok(Outcome::Feasible(node)),
        None => Err(ProofError::Internal(
            unit.key.text(),
            format!(
                "the built subtree does not find every candidate within {} guesses",
                unit.left
            ),
        )),
    }
}

/// The verdict of a merge.
#[derive(Debug)]
pub enum Verdict {
    /// Every unit exact ([`Goal::Total`]: the optimal tree and its total) or feasible
    /// ([`Goal::Within`]: a witness tree within the claim and its total); replayed.
    Proved { total: u64, tree: Tree },
    /// Proved: the opener costs at least `bound`, which reaches the cutoff.
    AtLeast { bound: u64, cutoff: u64 },
    /// Some unit has no tree within the guess limit (for [`Goal::Within`], the
    /// smallest such unit recorded: the claim is refuted).
    Infeasible { unit: String },
    /// Units missing (not done, or damaged), listed by key, and the bound so far (0
    /// for [`Goal::Within`], which has no bound).
    Missing { keys: Vec<String>, bound: u64 },
}

/// Assembles the whole result from the records: a tree only when every unit is exact
/// (feasible, for [`Goal::Within`]), replayed answer by answer (with the reference
/// feedback) before it is returned.
pub fn merge(game: &Game, plan: &Plan, scan: &Scan) -> Result<Verdict, ProofError> {
    if plan.identity.goal == Goal::Within {
        return merge_within(game, plan, scan);
    }
    let bound = plan.here
        + (0..plan.units.len())
            .map(|i| {
                let cheap = plan.units[i].cheap_bound;
                scan.done
                    .get(&i)
                    .map_or(cheap, |r| r.outcome.bound().max(cheap))
            })
            .sum::<u64>();
    if let Some((i, _)) = scan
        .done
        .iter()
        .find(|(_, r)| r.outcome == Outcome::Infeasible)
    {
        return Ok(Verdict::Infeasible {
            unit: plan.units[*i].key.text(),
        });
    }
    let all_exact = (0..plan.units.len()).all(|i| {
        matches!(
            scan.done.get(&i),
            Some(Record {
                outcome: Outcome::Exact(..),
                ..
            })
        )
    });
    if !all_exact {
        if let Some(n) = plan.identity.cutoff.filter(|&n| bound >= n) {
            return Ok(Verdict::AtLeast { bound, cutoff: n });
        }
        let mut keys: Vec<String> = (0..plan.units.len())
            .filter(|i| !scan.done.contains_key(i))
            .map(|i| plan.units[i].key.text())
            .collect();
        if keys.is_empty() {
            // Every unit recorded, some only bounded, and the bounds do not reach the
            // cutoff (bounds recorded by runs that knew less): redo those units.
            keys = scan
                .done
                .iter()
                .filter(|(_, r)| matches!(r.outcome, Outcome::AtLeast(_)))
                .map(|(i, _)| plan.units[*i].key.text() + " (bounded only)")
                .collect();
        }
        return Ok(Verdict::Missing { keys, bound });
    }
    let tree = assemble(game, plan, scan)?;
    let replay = tree.verify(game);
    if !replay.is_valid() || replay.total() != bound {
        return Err(ProofError::Internal(
            "merge".into(),
            format!(
                "the assembled tree does not replay ({:?}; total {} vs {bound})",
                replay.problems.first(),
                replay.total()
            ),
        ));
    }
    Ok(Verdict::Proved { total: bound, tree })
}

/// [`merge`] for [`Goal::Within`]: REFUTED by any infeasible unit (the smallest is
/// named, the plainest evidence), PROVED when every unit is feasible.
fn merge_within(game: &Game, plan: &Plan, scan: &Scan) -> Result<Verdict, ProofError> {
    if let Some((i, _)) = scan
        .done
        .iter()
        .filter(|(_, r)| r.outcome == Outcome::Infeasible)
        .min_by_key(|(i, _)| (plan.units[**i].ids.len(), plan.units[**i].key.clone()))
    {
        return Ok(Verdict::Infeasible {
            unit: plan.units[*i].key.text(),
        });
    }
    let keys: Vec<String> = (0..plan.units.len())
        .filter(|i| !scan.done.contains_key(i))
        .map(|i| plan.units[i].key.text())
        .collect();
    if !keys.is_empty() {
        return Ok(Verdict::Missing { keys, bound: 0 });
    }
    let tree = assemble(game, plan, scan)?;
    let replay = tree.verify(game);
    if !replay.is_valid() || replay.max_depth() > plan.identity.max_guesses as u32 {
        return Err(ProofError::Internal(
            "merge".into(),
            format!(
                "the assembled tree does not replay within {} guesses ({:?}; max depth {})",
                plan.identity.max_guesses,
                replay.problems.first(),
                replay.max_depth()
            ),
        ));
    }
    Ok(Verdict::Proved {
        total: replay.total(),
        tree,
    })
}

/// The opener with every unit's subtree under its feedback (every unit must be
/// exact or feasible), as a tree of the plan's game, mode and limit.
fn assemble(game: &Game, plan: &Plan, scan: &Scan) -> Result<Tree, ProofError> {
    let mut branches: Vec<(Feedback, Node)> = Vec::with_capacity(plan.units.len());
    for (i, unit) in plan.units.iter().enumerate() {
        match scan.done.get(&i).map(|r| &r.outcome) {
            Some(Outcome::Exact(_, node) | Outcome::Feasible(node)) => {
                branches.push((unit.key.feedback, node.clone()))
            }
            other => {
                return Err(ProofError::Internal(
                    unit.key.text(),
                    format!("assembled without a subtree ({other:?})"),
                ))
            }
        }
    }
    branches.sort_by_key(|(f, _)| *f);
    let root = Node {
        guess: plan.opener,
        branches,
    };
    Tree::new(game, plan.identity.hard, plan.identity.max_guesses, root).map_err(|e| {
        ProofError::Internal(
            "merge".into(),
            format!("the assembled tree is invalid: {e}"),
        )
    })
}
