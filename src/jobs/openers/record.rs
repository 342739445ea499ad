//! The openers' result files: [`Record`] (one opener's proved result, kind [`KIND`]
//! of [`crate::store::results`], named `OPENER.MODE.LISTS.maxD`), its text both
//! ways, and [`OpenersDir`] (the files of one game and mode in a results directory:
//! open, scan with one warning per unusable file, atomic write).
//!
//! Invariants: a record read back is what was written (the header's list, checksum,
//! mode and limit with it); a file named for one opener and holding another, a
//! lower bound below its own cutoff, or a `max_depth` without an exact total is
//! refused, never used. Split from [`crate::jobs::openers`] (the job and the
//! ranking) so the format is read in one place; the code moved unchanged.

use super::{OpenersError, Outcome};
use crate::game::word::Word;
use crate::game::{Game, GuessId};
use crate::jobs::driver::set_head;
use crate::store::results::{Header, Kind, ResultFile, ResultsDir, ResultsError};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The kind of result `openers` stores (files `OPENER.MODE.LISTS.maxD`).
pub const KIND: Kind = Kind {
    name: "openers",
    file_tag: "max",
};

/// The proved result for one opener, as stored in its result file.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub opener: Word,
    /// [`Game::list_tag`] of the lists.
    pub list: String,
    pub checksum: u64,
    pub hard: bool,
    pub max_guesses: u8,
    pub outcome: Outcome,
    /// The cutoff the search ran under (`None`: no cutoff).
    pub cutoff: Option<u64>,
    pub seconds: f64,
    /// CPU time of the worker thread (0 where unknown).
    pub cpu_seconds: f64,
    /// States the search expanded.
    pub states: u64,
    /// The most guesses an answer needs in the optimal tree found (`openers --exact`
    /// records it with an exact total; `None` otherwise and in files written before
    /// it existed, which older builds read cleanly: they ignore the extra field).
    pub max_depth: Option<u8>,
}

impl crate::store::opener_table::OpenerResult for Record {
    fn outcome(&self) -> Outcome {
        self.outcome
    }
    fn max_depth(&self) -> Option<u8> {
        self.max_depth
    }
}

impl Record {
    /// True when the record settles its opener under `cutoff` (`None`: no cutoff).
    pub fn decides(&self, cutoff: Option<u64>) -> bool {
        self.outcome.decides(cutoff)
    }

    /// True when the record is what `openers --exact` keeps: an exact total with its
    /// max depth, or cannot finish.
    pub fn settles_exactly(&self) -> bool {
        match self.outcome {
            Outcome::Exact(_) => self.max_depth.is_some(),
            Outcome::CannotFinish => true,
            Outcome::AtLeast(_) => false,
        }
    }

    fn header(&self) -> Header {
        Header {
            kind: KIND.name.to_string(),
            list: self.list.clone(),
            checksum: self.checksum,
            hard: self.hard,
            max_guesses: self.max_guesses,
        }
    }

    /// As a result file.
    pub fn to_file(&self) -> ResultFile {
        let mut f = ResultFile::new(self.header());
        set_head(
            &mut f,
            self.opener,
            self.outcome,
            self.cutoff,
            self.seconds,
            self.cpu_seconds,
        )
        .set("states", self.states);
        if let Some(d) = self.max_depth {
            f.set("max_depth", d);
        }
        f
    }

    /// The file text.
    pub fn encode(&self) -> String {
        self.to_file().encode()
    }

    /// From a result file (`path` only names it in errors).
    pub fn from_file(f: &ResultFile, path: &Path) -> Result<Record, OpenersError> {
        let bad = |why: String| OpenersError::from(ResultsError::Malformed(path.into(), why));
        let get = |k: &str| f.get(k).ok_or_else(|| bad(format!("missing '{k}'")));
        let num = |k: &str| -> Result<u64, OpenersError> {
            get(k)?
                .parse()
                .map_err(|_| bad(format!("'{k}' is not a whole number")))
        };
        let float = |k: &str| -> Result<f64, OpenersError> {
            get(k)?
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| bad(format!("'{k}' is not a number")))
        };
        if f.header.kind != KIND.name {
            return Err(bad(format!(
                "a '{}' result, not an openers one",
                f.header.kind
            )));
        }
        let opener = Word::parse(get("opener")?).map_err(|e| bad(format!("opener: {e}")))?;
        let result = get("result")?;
        let outcome = if result == "cannot-finish" {
            Outcome::CannotFinish
        } else {
            let (kind, value) = result.split_once(' ').ok_or_else(|| {
                bad("'result' must be 'exact N', 'at-least N' or 'cannot-finish'".into())
            })?;
            let value: u64 = value
                .trim()
                .parse()
                .map_err(|_| bad("'result' value is not a whole number".into()))?;
            match kind {
                "exact" => Outcome::Exact(value),
                "at-least" => Outcome::AtLeast(value),
                k => {
                    let k = crate::game::echo::echo(k);
                    return Err(bad(format!("unknown result kind '{k}'")));
                }
            }
        };
        let cutoff = match get("cutoff")? {
            "none" => None,
            _ => Some(num("cutoff")?),
        };
        let max_depth = match f.get("max_depth") {
            None => None,
            Some(d) => Some(
                d.parse::<u8>()
                    .ok()
                    .filter(|d| (1..=f.header.max_guesses).contains(d))
                    .ok_or_else(|| {
                        bad(format!(
                            "'max_depth' is not a number from 1 to {}",
                            f.header.max_guesses
                        ))
                    })?,
            ),
        };
        if max_depth.is_some() && !matches!(outcome, Outcome::Exact(_)) {
            return Err(bad("'max_depth' without an exact result".into()));
        }
        if let (Outcome::AtLeast(lb), Some(c)) = (outcome, cutoff) {
            if lb < c {
                return Err(bad(format!(
                    "a lower bound {lb} below its cutoff {c} proves nothing"
                )));
            }
        }
        Ok(Record {
            opener,
            list: f.header.list.clone(),
            checksum: f.header.checksum,
            hard: f.header.hard,
            max_guesses: f.header.max_guesses,
            outcome,
            cutoff,
            seconds: float("seconds")?,
            cpu_seconds: float("cpu_seconds")?,
            states: num("states")?,
            max_depth,
        })
    }

    /// Parses a result file's text (`path` only names it in errors).
    pub fn decode(text: &str, path: &Path) -> Result<Record, OpenersError> {
        Record::from_file(&ResultFile::decode(text, path, KIND.name)?, path)
    }
}

/// The openers' result files of one game and mode in a results directory.
pub struct OpenersDir<'a> {
    pub dir: ResultsDir,
    game: &'a Game,
}

/// What a directory scan found: records by opener, and one warning per file that
/// could not be used (named).
#[derive(Default)]
pub struct Scan {
    pub records: BTreeMap<GuessId, Record>,
    pub warnings: Vec<String>,
}

impl<'a> OpenersDir<'a> {
    /// Opens (creating it if needed) the directory for results of `game` in this mode.
    pub fn open(
        path: &Path,
        game: &'a Game,
        hard: bool,
        max_guesses: u8,
    ) -> Result<OpenersDir<'a>, OpenersError> {
        Ok(OpenersDir {
            dir: ResultsDir::open(path, KIND, game, hard, max_guesses)?,
            game,
        })
    }

    /// The file holding `opener`'s result.
    pub fn file(&self, opener: GuessId) -> PathBuf {
        self.dir.file(self.game.guesses[opener.index()].as_str())
    }

    /// Reads every result file of this game and mode. Files of other lists or modes
    /// are ignored; a malformed or mismatched file becomes a warning naming it.
    pub fn scan(&self) -> Result<Scan, OpenersError> {
        let (records, warnings) = self
            .dir
            .scan_records(|stem, f, path| self.record(stem, f, path))?;
        Ok(Scan { records, warnings })
    }

    fn record(
        &self,
        stem: &str,
        f: &ResultFile,
        path: &Path,
    ) -> Result<(GuessId, Record), OpenersError> {
        let r = Record::from_file(f, path)?;
        let bad = |why: String| OpenersError::from(ResultsError::Malformed(path.into(), why));
        if r.opener.as_str() != stem {
            return Err(bad(format!(
                "holds opener '{}' but is named for '{stem}'",
                r.opener
            )));
        }
        let g = self
            .game
            .guess_id(r.opener)
            .ok_or_else(|| bad(format!("opener '{}' is not an allowed guess", r.opener)))?;
        Ok((g, r))
    }

    /// The record of `g` as the directory holds it now (`None`: none, or one a scan
    /// would refuse).
    pub fn read_one(&self, g: GuessId) -> Option<Record> {
        let stem = self.game.guesses[g.index()];
        let f = self.dir.read_stem(stem.as_str())?;
        let (h, r) = self
            .record(stem.as_str(), &f, &self.dir.file(stem.as_str()))
            .ok()?;
        (h == g).then_some(r)
    }

    /// Writes one record atomically; the error names the file.
    pub fn write(&self, g: GuessId, r: &Record) -> Result<(), OpenersError> {
        Ok(self
            .dir
            .write(self.game.guesses[g.index()].as_str(), &r.to_file())?)
    }
}
