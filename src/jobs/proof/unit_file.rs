//! A unit's file (`DIR/unit.<KEY>.txt`): its text ([`encode_record`]), its reading
//! ([`read_record`], [`Read`]) and the reading of a whole results directory or pack
//! ([`scan_dir`], [`Scan`]); also the frame unit files and journals share.
//!
//! Owns: the unit file format. Text, written atomically (temporary file, sync,
//! rename: [`crate::store::results::write_entry`], which replaces a symlink or a FIFO
//! planted at the name instead of writing through it), so a reader sees a whole file
//! or none and a killed process (SIGKILL included) loses only the units it was
//! working on (their temporary files are removed by the next scan). A file
//! records the proof's [`Identity`](super::Identity) (format version, lists and their
//! checksum, mode, guess limit, objective, opener, cutoff), the unit key, a checksum of
//! its candidate ids, the result and its subtree, and ends with a checksum of
//! everything before it.
//!
//! Invariants: a file whose end checksum or subtree does not check is *damaged* and
//! redone (a subtree is replayed on the unit's candidates before a record is
//! believed); a whole file of another identity is *foreign* and refused by name (the
//! run stops, exit 2): one directory holds one proof. Dot files (temporaries) and
//! other names are ignored. A refutation is only ever read from a whole file whose end
//! checksum matches, or found by this process's search: a damaged file is redone and
//! an I/O error stops the run, so neither can become a verdict.
//!
//! Trade-off: text rather than a binary encoding, so a unit can be read and checked by
//! eye; a file is read whole, capped at 16 MiB (`MAX_UNIT`; the largest subtrees of
//! the big game are a few hundred KB).

use super::outcome::{Goal, Outcome, ProofError, Record};
use super::plan::{strict_feedback, subtree_cost, Plan, UnitKey};
use crate::game::table::FeedbackTable;
use crate::game::word::Word;
use crate::game::Game;
use crate::store::entry::FileIo;
use crate::store::pack::{is_pack, Pack};
use crate::store::results::{read_entry, remove_stale_temps, seal_as, sealed_body};
use crate::tree::Node;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The format version written in every unit file's first line.
pub const VERSION: u32 = 1;
const MAGIC: &str = "wordle-tree proof unit v";
/// The largest unit file or journal read (the big game's largest units hold trees of
/// a few hundred KB); anything larger is damaged, never read whole.
pub(super) const MAX_UNIT: u64 = 16 << 20;

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
pub(super) fn framed<'t>(
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
        Err(e) => return Err(ProofError::Io(FileIo(path.into(), e))),
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
        std::fs::create_dir_all(dir).map_err(|e| ProofError::Io(FileIo(dir.into(), e)))?;
        remove_stale_temps(dir);
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|e| ProofError::Io(FileIo(dir.into(), e)))?
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
