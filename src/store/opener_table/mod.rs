//! Opener tables: the exact total of many openers of one game and mode, as a small
//! text file (`tables/<list>.<normal|hard>.csv`), written from an `openers --exact`
//! results directory and read by `rank --exact`, `next`, `play`, `review` and
//! `serve`.
//!
//! Owns the format, its parser (bad-input rules: a one-line error naming the file and
//! line), its writer, building a table from `openers` results ([`OpenerResult`]), matching a
//! table to the game in use and the wording of a rank.
//!
//! Format (version 2): `# key=value` header lines, then one CSV header line, then one
//! row per solved opener, then the rows' checksum:
//! ```text
//! # format=wordle-tree-opener-table 2
//! # list=wordle
//! # checksum=2c515ee34bc21a6e
//! # mode=normal
//! # max_guesses=6
//! # answers=2315
//! # openers=12972
//! # solved=3
//! # complete=no
//! rank,opener,total,average,max_depth
//! 1,salet,7920,3.4212,5
//! 2,crane,7962,3.4393,5
//! -,xylyl,cannot finish within 6,-,-
//! # rows_checksum=8f0c3a1e2b4d5f60
//! ```
//! `openers` is how many openers the game allows, `solved` how many rows follow;
//! `complete=yes` exactly when every allowed opener has a row. Rows with a total come
//! first, by total then opener; ties share a rank (the rank is one more than the
//! number of rows with a smaller total); openers that cannot find every answer
//! within `max_guesses` follow, by opener, without a rank. `average` is the total over
//! the answers to 4 decimals; `max_depth` is the most guesses an answer needs in the
//! optimal tree the solver found (other optimal trees may need more or fewer).
//! `rows_checksum` is FNV-1a ([`crate::game::Fnv`]) over the row lines, each with its
//! `\n`: version 1 had none, so a table with consistent but edited totals passed.
//!
//! Invariants: a table is matched to a game by the lists' checksum
//! ([`crate::game::Game::checksum`]), the mode and the maximum guesses, never by the
//! list's name alone; the parser checks every derived column (rank, average, counts,
//! order) and then the rows' checksum, so a hand-edited, truncated or damaged file is
//! refused by name, not misread (the checksum gives integrity, not trust: whoever
//! writes a table can recompute it). A partial table
//! (`complete=no`) never yields a proved rank: [`OpenerTable::rank_text`] says "among
//! the N openers solved so far".

use crate::game::word::Word;
use crate::game::{mode_name, parse_mode, Game, GuessId};
use crate::store::entry::FileIo;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

mod decode;
use decode::Parser;

/// What is proved about one opener (the result of the `openers` job).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The exact least total.
    Exact(u64),
    /// A proved lower bound, at least the cutoff the opener was searched under.
    AtLeast(u64),
    /// No tree from this opener finds every answer within the maximum guesses.
    CannotFinish,
}

/// What a table row needs of one opener's result: the job that proves openers
/// (`jobs::openers`, a higher layer) implements it for its records.
pub trait OpenerResult {
    fn outcome(&self) -> Outcome;
    /// The most guesses an answer needs in the optimal tree found, where recorded.
    fn max_depth(&self) -> Option<u8>;
}

/// The largest table file read: a row is at most about 40 bytes, so 4 MiB holds a table
/// of every one of the 65535 openers a game may have, while a runaway file is refused.
pub const MAX_TABLE: u64 = 4 << 20;

/// The first header line names the format and its version.
pub const FORMAT: &str = "wordle-tree-opener-table";
/// The version this build writes and reads.
pub const VERSION: u32 = 2;
/// The key of the last line, the checksum of the rows.
pub const ROWS_CHECKSUM: &str = "rows_checksum";
/// The CSV header line.
pub const COLUMNS: &str = "rank,opener,total,average,max_depth";
/// A complete table of the largest shipped game is about 450 KB; anything over this
/// is not a table.
pub const MAX_FILE: u64 = 16 << 20;

/// What can go wrong reading or matching a table. Every message names the file.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    #[error(transparent)]
    Io(#[from] FileIo),
    #[error("{file}:{line}: {why}")]
    Bad {
        file: PathBuf,
        line: usize,
        why: String,
    },
    #[error("{file}: an opener table of other lists ({theirs}, checksum {their_sum:016x}) than the ones in use ({ours}, checksum {our_sum:016x})")]
    OtherLists {
        file: PathBuf,
        theirs: String,
        their_sum: u64,
        ours: String,
        our_sum: u64,
    },
    #[error("{file}: opener '{opener}' has the exact total {table} here, but the tree {tree_file} from it totals {tree}: a shipped tree and a table must agree (one of them is damaged or stale)")]
    Disagrees {
        file: PathBuf,
        tree_file: PathBuf,
        opener: Word,
        table: u64,
        tree: u64,
    },
    #[error("{file}: an opener table for {theirs}, but {ours} is in use")]
    OtherRules {
        file: PathBuf,
        theirs: String,
        ours: String,
    },
}

/// What a table says about one opener.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// The exact least total, and the deepest answer of the optimal tree found.
    Exact { total: u64, max_depth: u8 },
    /// No tree from this opener finds every answer within the maximum guesses.
    CannotFinish,
}

/// One row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    pub opener: Word,
    pub entry: Entry,
    /// One more than the rows with a smaller total (`None` for [`Entry::CannotFinish`]).
    pub rank: Option<usize>,
    /// Rows sharing this total (1 when alone; 0 for [`Entry::CannotFinish`]).
    pub tied: usize,
}

/// An opener table (see the module doc).
#[derive(Clone, Debug, PartialEq)]
pub struct OpenerTable {
    /// The list name (informative; matching is by `checksum`).
    pub list: String,
    pub checksum: u64,
    pub hard: bool,
    pub max_guesses: u8,
    pub answers: usize,
    /// How many openers the game allows.
    pub openers: usize,
    /// Ranked rows, then the openers that cannot finish.
    rows: Vec<Row>,
    index: HashMap<Word, usize>,
}

/// The rules of a table or game, for messages: `normal mode, at most 6 guesses`.
fn rules(hard: bool, max_guesses: u8) -> String {
    format!("{} mode, at most {max_guesses} guesses", mode_name(hard))
}

impl OpenerTable {
    /// A table from the entries of some openers (any order): sorted, ranked.
    pub fn new(
        game: &Game,
        hard: bool,
        max_guesses: u8,
        entries: impl IntoIterator<Item = (Word, Entry)>,
    ) -> OpenerTable {
        OpenerTable {
            list: game.list_tag(),
            checksum: game.checksum,
            hard,
            max_guesses,
            answers: game.n_answers(),
            openers: game.n_guesses(),
            rows: Vec::new(),
            index: HashMap::new(),
        }
        .with_rows(entries)
    }

    /// This table's header with rows made from `entries` (sorted and ranked).
    fn with_rows(mut self, entries: impl IntoIterator<Item = (Word, Entry)>) -> OpenerTable {
        let mut exact: Vec<(u64, Word, u8)> = Vec::new();
        let mut cannot: Vec<Word> = Vec::new();
        for (w, e) in entries {
            match e {
                Entry::Exact { total, max_depth } => exact.push((total, w, max_depth)),
                Entry::CannotFinish => cannot.push(w),
            }
        }
        exact.sort();
        cannot.sort();
        let mut rows: Vec<Row> = Vec::with_capacity(exact.len() + cannot.len());
        let mut i = 0;
        while i < exact.len() {
            let j = i + exact[i..].iter().take_while(|e| e.0 == exact[i].0).count();
            for &(total, opener, max_depth) in &exact[i..j] {
                rows.push(Row {
                    opener,
                    entry: Entry::Exact { total, max_depth },
                    rank: Some(i + 1),
                    tied: j - i,
                });
            }
            i = j;
        }
        rows.extend(cannot.into_iter().map(|opener| Row {
            opener,
            entry: Entry::CannotFinish,
            rank: None,
            tied: 0,
        }));
        self.index = rows
            .iter()
            .enumerate()
            .map(|(i, r)| (r.opener, i))
            .collect();
        self.rows = rows;
        self
    }

    /// The table of what `records` (an `openers` results directory scan) settle:
    /// exact totals with their max depth, and openers that cannot finish. Lower
    /// bounds, and exact totals of files written before the max depth was recorded,
    /// are left out (an `openers --exact` run completes them). Also returns how many
    /// records were left out.
    pub fn from_records(
        game: &Game,
        hard: bool,
        max_guesses: u8,
        records: &BTreeMap<GuessId, impl OpenerResult>,
    ) -> (OpenerTable, usize) {
        let mut left_out = 0;
        let entries: Vec<(Word, Entry)> = records
            .iter()
            .filter_map(|(&g, r)| {
                let w = game.guesses[g.index()];
                let e = match (r.outcome(), r.max_depth()) {
                    (Outcome::Exact(total), Some(max_depth)) => Entry::Exact { total, max_depth },
                    (Outcome::CannotFinish, _) => Entry::CannotFinish,
                    _ => {
                        left_out += 1;
                        return None;
                    }
                };
                Some((w, e))
            })
            .collect();
        (OpenerTable::new(game, hard, max_guesses, entries), left_out)
    }

    /// Rows in table order.
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// Openers with a row.
    pub fn solved(&self) -> usize {
        self.rows.len()
    }

    /// True when every allowed opener has a row: ranks are then proved.
    pub fn is_complete(&self) -> bool {
        self.rows.len() == self.openers
    }

    /// The row of `opener`, if it was solved.
    pub fn get(&self, opener: Word) -> Option<&Row> {
        self.index.get(&opener).map(|&i| &self.rows[i])
    }

    /// "rank 3 of 12972 openers (tied with 1 other)", or for a partial table "rank 3
    /// among the 30 openers solved so far (of 12972; not a proved rank)"; for an
    /// opener that cannot finish, what it cannot do.
    pub fn rank_text(&self, row: &Row) -> String {
        let Some(rank) = row.rank else {
            return format!(
                "cannot find every answer within {} guesses",
                self.max_guesses
            );
        };
        let ties = match row.tied {
            0 | 1 => String::new(),
            2 => " (tied with 1 other)".to_string(),
            n => format!(" (tied with {} others)", n - 1),
        };
        if self.is_complete() {
            format!("rank {rank} of {} openers{ties}", self.openers)
        } else {
            format!(
                "rank {rank}{ties} among the {} openers solved so far (of {}; the table is partial, so not a proved rank)",
                self.solved(),
                self.openers
            )
        }
    }

    /// One line about the table: what it covers and whether it is complete.
    pub fn describe(&self) -> String {
        format!(
            "lists {}, {}: {} of {} openers solved ({})",
            self.list,
            rules(self.hard, self.max_guesses),
            self.solved(),
            self.openers,
            if self.is_complete() {
                "complete"
            } else {
                "partial"
            }
        )
    }

    /// The file text (see the module doc).
    pub fn encode(&self) -> String {
        let mut out = format!(
            "# format={FORMAT} {VERSION}\n# list={}\n# checksum={:016x}\n# mode={}\n# max_guesses={}\n# answers={}\n# openers={}\n# solved={}\n# complete={}\n{COLUMNS}\n",
            self.list,
            self.checksum,
            mode_name(self.hard),
            self.max_guesses,
            self.answers,
            self.openers,
            self.solved(),
            if self.is_complete() { "yes" } else { "no" }
        );
        let mut rows = String::new();
        for r in &self.rows {
            rows += &match (r.entry, r.rank) {
                (Entry::Exact { total, max_depth }, Some(rank)) => format!(
                    "{rank},{},{total},{},{max_depth}\n",
                    r.opener,
                    average(total, self.answers)
                ),
                _ => format!(
                    "-,{},cannot finish within {},-,-\n",
                    r.opener, self.max_guesses
                ),
            };
        }
        out += &rows;
        out += &format!("# {ROWS_CHECKSUM}={:016x}\n", rows_checksum(rows.lines()));
        out
    }

    /// Parses a table's text (`file` only names it in errors): the header, the
    /// columns line, the rows, then the cross-check of the rows against the header
    /// and against the table rebuilt from them, and last the rows' checksum.
    pub fn decode(text: &str, file: &Path) -> Result<OpenerTable, TableError> {
        let p = Parser {
            file,
            lines: text.lines().collect(),
        };
        let (header, at) = p.header_lines()?;
        let head = p.head(&header, at)?;
        let at = p.columns(at)?;
        let (end, want_sum) = p.rows_checksum(at)?;
        let entries = p.rows(at, end, &head)?;
        let table = p.cross_check(&head, &entries)?;
        let rows = p.lines[at..end].iter().filter(|l| !l.trim().is_empty());
        if rows_checksum(rows.copied()) != want_sum {
            return Err(p.bad(
                end + 1,
                "the rows do not match their checksum: the table was edited or damaged (rebuild it with `openers --merge --write-table`)".to_string(),
            ));
        }
        Ok(table)
    }

    /// Reads and parses a table file (at most [`MAX_TABLE`] bytes).
    pub fn load(path: &Path) -> Result<OpenerTable, TableError> {
        let text = crate::store::results::read_regular_capped(path, MAX_TABLE, "an opener table")
            .map_err(|e| TableError::Io(FileIo(path.into(), e)))?
            .ok_or_else(|| {
                TableError::Io(FileIo(
                    path.into(),
                    std::io::Error::other("not a regular file"),
                ))
            })?;
        OpenerTable::decode(&text, path)
    }

    /// Refuses a table of other lists (by checksum), another mode or other maximum
    /// guesses, or whose sizes or openers do not fit the game.
    pub fn check_game(
        &self,
        file: &Path,
        game: &Game,
        hard: bool,
        max_guesses: u8,
    ) -> Result<(), TableError> {
        if self.checksum != game.checksum
            || self.answers != game.n_answers()
            || self.openers != game.n_guesses()
        {
            return Err(TableError::OtherLists {
                file: file.into(),
                theirs: self.list.clone(),
                their_sum: self.checksum,
                ours: game.list_tag(),
                our_sum: game.checksum,
            });
        }
        if self.hard != hard || self.max_guesses != max_guesses {
            return Err(TableError::OtherRules {
                file: file.into(),
                theirs: rules(self.hard, self.max_guesses),
                ours: rules(hard, max_guesses),
            });
        }
        if let Some(r) = self.rows.iter().find(|r| game.guess_id(r.opener).is_none()) {
            return Err(TableError::OtherLists {
                file: file.into(),
                theirs: format!("{}, with opener '{}'", self.list, r.opener),
                their_sum: self.checksum,
                ours: game.list_tag(),
                our_sum: game.checksum,
            });
        }
        Ok(())
    }

    /// The proved least total over every opener: the first row's, when the table is
    /// complete and its first row has a total (`None` otherwise: a partial table
    /// proves no optimum).
    pub fn proved_optimum(&self) -> Option<(Word, u64)> {
        match self.rows.first() {
            Some(Row {
                opener,
                entry: Entry::Exact { total, .. },
                ..
            }) if self.is_complete() => Some((*opener, *total)),
            _ => None,
        }
    }

    /// The exact total of `opener`, when the table has it.
    pub fn total(&self, opener: Word) -> Option<u64> {
        match self.get(opener)?.entry {
            Entry::Exact { total, .. } => Some(total),
            Entry::CannotFinish => None,
        }
    }

    /// True when the table is complete and `opener` is first (ties included): its
    /// total is then proved least over every opener.
    pub fn proves_best(&self, opener: Word) -> bool {
        self.is_complete() && self.get(opener).is_some_and(|r| r.rank == Some(1))
    }

    /// Refuses a table and a shipped tree (`tree_file`, from `opener`, `tree_total` over
    /// every answer) that disagree: where the table has the opener's exact total, the
    /// shipped tree (an optimal tree from it) must have that total.
    pub fn check_tree(
        &self,
        file: &Path,
        tree_file: &Path,
        opener: Word,
        tree_total: u64,
    ) -> Result<(), TableError> {
        match self.total(opener) {
            Some(t) if t != tree_total => Err(TableError::Disagrees {
                file: file.into(),
                tree_file: tree_file.into(),
                opener,
                table: t,
                tree: tree_total,
            }),
            _ => Ok(()),
        }
    }

    /// Loads a table and checks that it fits the game ([`OpenerTable::check_game`]).
    pub fn load_for(
        path: &Path,
        game: &Game,
        hard: bool,
        max_guesses: u8,
    ) -> Result<OpenerTable, TableError> {
        let t = OpenerTable::load(path)?;
        t.check_game(path, game, hard, max_guesses)?;
        Ok(t)
    }

    /// Writes the table atomically ([`crate::store::results::write_atomic`]).
    pub fn save(&self, path: &Path) -> Result<(), TableError> {
        crate::store::results::write_atomic(path, self.encode().as_bytes())
            .map_err(|e| TableError::Io(FileIo(path.into(), e)))
    }
}

/// FNV-1a over the row lines, each followed by `\n` (see the module doc).
fn rows_checksum<'l>(rows: impl Iterator<Item = &'l str>) -> u64 {
    let mut h = crate::game::Fnv::new();
    for r in rows {
        h.bytes(r.trim_end_matches('\r').as_bytes());
        h.bytes(b"\n");
    }
    h.finish()
}

/// `total / answers` to 4 decimals, as the table writes it.
pub fn average(total: u64, answers: usize) -> String {
    format!("{:.4}", total as f64 / answers.max(1) as f64)
}

/// The file name of the shipped table of a game and mode: `<list>.<normal|hard>.csv`.
pub fn shipped_name(game: &Game, hard: bool) -> String {
    format!("{}.{}.csv", game.list_tag(), mode_name(hard))
}

/// The shipped table for the game and mode (at most 6 guesses, the game's limit), the
/// first found in `dirs`, checked against the game: `Ok(None)` when no directory has
/// one; an error when one is there but damaged or for other lists.
pub fn find_shipped(
    dirs: &[PathBuf],
    game: &Game,
    hard: bool,
) -> Result<Option<(OpenerTable, PathBuf)>, TableError> {
    let name = shipped_name(game, hard);
    match dirs.iter().map(|d| d.join(&name)).find(|p| p.is_file()) {
        None => Ok(None),
        Some(p) => {
            let t = OpenerTable::load_for(&p, game, hard, crate::game::GAME_LIMIT)?;
            Ok(Some((t, p)))
        }
    }
}
