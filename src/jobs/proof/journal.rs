//! The journal of a large unit in progress (`DIR/part.<KEY>.txt`, [`Journal`]).
//!
//! Owns: the journal file and its life. A unit of at least [`JOURNAL_MIN`] candidates
//! under the total objective keeps one while it is searched: every guess settled at
//! the unit's top, exact or bounded, rewritten atomically at most every
//! [`JOURNAL_EVERY`] and once more when the run stops, removed once the unit's file is
//! written. A rerun skips the guesses it holds, so a unit of hours resumes guess by
//! guess. Processes that split a unit ([`super::split`]) keep one journal each (the
//! holder `part.<KEY>.txt`, a joiner `part.<KEY>.by-<TAG>.txt`, [`joiner_part`]);
//! [`facts`] reads them all as one, and all are removed with the unit's file written.
//!
//! Invariants: its entries are facts about single guesses (true under any cutoff), so
//! it never changes a unit's result, only how much is searched again: tested against a
//! plain search from the whole journal, every other entry, and weak bounds only. It
//! has the frame of a unit file (same identity lines, end checksum): a journal of
//! another proof is refused by name, a damaged one is ignored.
//!
//! Trade-off: rewritten whole (atomically) rather than appended, so a torn write can
//! never leave half an entry; at most every 10 s, so a stop loses at most that much
//! of the unit's top-level work.

use super::outcome::ProofError;
use super::plan::Plan;
use super::unit_file::{framed, MAX_UNIT, VERSION};
use crate::game::word::Word;
use crate::game::{Game, GuessId};
use crate::search::bound::INFEASIBLE;
use crate::search::Settled;
use crate::store::entry::FileIo;
use crate::store::results::{read_entry, seal_as, write_entry};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

const PART_MAGIC: &str = "wordle-tree proof part v";
/// Units of at least this many candidates keep a journal of their top level.
pub const JOURNAL_MIN: usize = 64;
/// A journal is rewritten at most this often (and only when something new is in it).
pub const JOURNAL_EVERY: std::time::Duration = std::time::Duration::from_secs(10);

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
    /// Written at once when a guess beats every exact cost in it ([`Journal::eager`]).
    eager: bool,
}

type Report<'g> = Box<dyn Fn(usize, Option<(GuessId, u32)>) + Sync + 'g>;

/// How often a journal reports its unit's progress.
const REPORT_EVERY: std::time::Duration = std::time::Duration::from_secs(60);

struct JournalState {
    entries: BTreeMap<GuessId, Settled>,
    /// The least exact cost in `entries` (`u32::MAX`: none).
    best: u32,
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
        Journal::open_at(game, plan, i, plan.part_path(dir, i))
    }

    /// [`Journal::open`] for the journal at `path`: a process that joins a unit
    /// another one holds keeps its own ([`joiner_part`]).
    pub fn open_at(
        game: &'g Game,
        plan: &Plan,
        i: usize,
        path: PathBuf,
    ) -> Result<(Journal<'g>, Option<String>), ProofError> {
        let head = part_head(plan, i);
        let (known, damaged) = read_one(game, plan, &head, &path)?;
        let entries: BTreeMap<GuessId, Settled> = known.iter().map(|(g, s)| (*g, *s)).collect();
        let best = entries
            .values()
            .filter_map(|s| match s {
                Settled::Exact(v) => Some(*v),
                Settled::AtLeast(_) => None,
            })
            .min()
            .unwrap_or(u32::MAX);
        Ok((
            Journal {
                game,
                path,
                head,
                known,
                report: None,
                eager: false,
                state: Mutex::new(JournalState {
                    entries,
                    best,
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

    /// Writes the file at once whenever a guess recorded beats every exact cost in
    /// it: processes that split the unit ([`super::split`]) learn each other's best
    /// cost (their cutoff) within a slice, not [`JOURNAL_EVERY`].
    pub fn eager(mut self) -> Self {
        self.eager = true;
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
        // A new best exact cost is written at once in an eager journal.
        let better = match s {
            Settled::Exact(v) if v < st.best => {
                st.best = v;
                self.eager
            }
            _ => false,
        };
        st.entries.insert(g, s);
        st.dirty = true;
        if better || st.written.elapsed() >= JOURNAL_EVERY {
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
        Some(ProofError::Io(FileIo(self.path.clone(), e)))
    }

    /// Removes the file (once the unit's own file is written); a failure is harmless:
    /// a journal next to its unit's file is never read.
    pub fn remove(&self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Everything of a journal of unit `i` before its entries: magic, identity, unit
/// key and candidates.
fn part_head(plan: &Plan, i: usize) -> String {
    let unit = &plan.units[i];
    let mut head = format!("{PART_MAGIC}{VERSION}\n");
    head += &plan.identity.lines();
    let _ = writeln!(head, "unit {}", unit.key.text());
    let _ = writeln!(head, "candidates {} {:016x}", unit.ids.len(), unit.ids_hash);
    head
}

/// The entries of the journal at `path` (none if missing) and why it was ignored if
/// damaged. `Err` for a journal of another proof, or one that cannot be read.
fn read_one(
    game: &Game,
    plan: &Plan,
    head: &str,
    path: &Path,
) -> Result<(HashMap<GuessId, Settled>, Option<String>), ProofError> {
    Ok(match read_entry(path, MAX_UNIT, "a unit journal") {
        Ok(None) => (HashMap::new(), None),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => (HashMap::new(), None),
        Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
            (HashMap::new(), Some(e.to_string()))
        }
        Ok(Some(text)) => match read_part(game, plan, head, path, &text)? {
            Ok(known) => (known, None),
            Err(why) => (HashMap::new(), Some(why)),
        },
        Err(e) => return Err(ProofError::Io(FileIo(path.into(), e))),
    })
}

/// The file name of unit `i`'s own journal without `.txt` (`part.<KEY>`): its
/// joiners' journals are `<stem>.by-<TAG>.txt`.
fn part_stem(plan: &Plan, dir: &Path, i: usize) -> String {
    let main = plan.part_path(dir, i);
    let name = main
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    name.strip_suffix(".txt").unwrap_or(&name).to_string()
}

/// The journal of unit `i` kept by a process that joins it while another holds it
/// (`crate::jobs::proof::split`): `part.<KEY>.by-<TAG>.txt`, `tag` naming the
/// process (host and process id, made file-name safe).
pub fn joiner_part(plan: &Plan, dir: &Path, i: usize, tag: &str) -> PathBuf {
    let stem = part_stem(plan, dir, i);
    let tag: String = tag
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    dir.join(format!("{stem}.by-{tag}.txt"))
}

/// Every journal of unit `i` in `dir`: its holder's and its joiners'.
pub fn parts(plan: &Plan, dir: &Path, i: usize) -> Vec<PathBuf> {
    let joined = format!("{}.by-", part_stem(plan, dir, i));
    let mut out = vec![plan.part_path(dir, i)];
    if let Ok(entries) = std::fs::read_dir(dir) {
        let mut more: Vec<PathBuf> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(&joined) && n.ends_with(".txt"))
            .map(|n| dir.join(n))
            .collect();
        more.sort();
        out.extend(more);
    }
    out
}

/// What every journal of unit `i` in `dir` knows, together: per guess, an exact
/// cost if any journal has one, else the highest bound. Damaged journals are
/// skipped (as [`Journal::open`] ignores one); one of another proof is an error.
pub fn facts(
    game: &Game,
    plan: &Plan,
    dir: &Path,
    i: usize,
) -> Result<HashMap<GuessId, Settled>, ProofError> {
    let head = part_head(plan, i);
    let mut all: HashMap<GuessId, Settled> = HashMap::new();
    for path in parts(plan, dir, i) {
        for (g, s) in read_one(game, plan, &head, &path)?.0 {
            let e = all.entry(g).or_insert(s);
            *e = match (*e, s) {
                (Settled::Exact(a), Settled::Exact(b)) => Settled::Exact(a.min(b)),
                (Settled::Exact(a), _) | (_, Settled::Exact(a)) => Settled::Exact(a),
                (Settled::AtLeast(a), Settled::AtLeast(b)) => Settled::AtLeast(a.max(b)),
            };
        }
    }
    Ok(all)
}

/// Removes every journal of unit `i` (once its file is written).
pub fn remove_parts(plan: &Plan, dir: &Path, i: usize) {
    for path in parts(plan, dir, i) {
        let _ = std::fs::remove_file(path);
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
