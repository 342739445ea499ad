//! Result files and results directories.
//!
//! Owns:
//! - Re-exported from [`crate::store::entry`], the floor below: [`write_atomic`] for
//!   user-named files, [`write_entry`] and [`read_entry`] for the files inside a
//!   results directory, and the seal ([`seal`], [`sealed_body`]).
//! - The result-file format, a small text file of `key=value` lines whose header
//!   identifies what it holds ([`Header`]: format version, kind of result, lists and
//!   their checksum, mode, maximum guesses); then the kind's own fields
//!   ([`ResultFile`]); last the end line `end=` with a checksum of every byte before
//!   it ([`seal`]). Used by `openers` (kind `openers`), `check --opener any` (kind
//!   `within`) and `check --opener any --min-over` (kind `min-over`); any other
//!   per-item result fits the same frame.
//! - [`ResultsDir`]: one file per item (an opener, say), named
//!   `STEM.MODE.LISTS.TAGD` (e.g. `salet.normal.wordle.max6`), in a directory, or read
//!   only from a pack ([`crate::store::pack`]) that holds such a directory. Opening a
//!   directory removes the temporary files that killed runs left behind (their
//!   process is gone and they predate this run: a live process's temporary file, e.g.
//!   a concurrent shard's, is kept; a shard on another machine sharing the directory
//!   has a process id not alive here, so its temporary file, alive for milliseconds,
//!   may be taken for stale, and the write then goes once more). Scanning reads only
//!   regular files (a FIFO, a device or a symlink among the results is skipped with a
//!   warning and its item computed again) of at most [`MAX_FILE`] bytes; a malformed,
//!   unsealed, edited or mismatched file is a warning naming it, and its item is
//!   computed again: a result is believed only when its checksum holds.
//! - [`Shard`]: deterministic slices of an item list (`--shard i/n`), and
//!   [`ShardSpec`]: what `--shard` asks for, a slice or `auto`, the slice a scheduler's
//!   task is ([`Shard::from_scheduler`]: a Slurm job array, a Kubernetes indexed job).
//!
//! Invariants: [`ResultFile::encode`] and [`ResultFile::decode`] round-trip every file
//! the writer can produce (a property test checks it with arbitrary values); a write
//! error is always returned to the caller (the callers stop the run and name the
//! file; an I/O fault never turns into a verdict).
//!
//! Files written before result files were sealed (and the older ones before the
//! header existed, which lack `format` and `kind`; `check --opener any` wrote
//! `lists=NAME CHECKSUM`) are not believed in a directory: their items are computed
//! again. `pack --adopt` takes them into a pack, sealed, when the user vouches for
//! them ([`ResultFile::decode_unsealed`]).

pub(crate) use super::entry::clip;
use super::entry::run_start;
pub use super::entry::{
    read_entry, read_regular_capped, remove_stale_temps, seal, seal_as, sealed_body, write_atomic,
    write_entry,
};
use crate::game::{mode_name, parse_mode, Game};
use crate::store::entry::FileIo;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The first line of every result file names the format and its version.
pub const FORMAT: &str = "wordle-tree-results";
/// The version this build writes and reads.
pub const VERSION: u32 = 1;
/// Result files are a few hundred bytes; anything over this is not one.
pub const MAX_FILE: u64 = 64 * 1024;

/// What can go wrong with a results directory, a result file or a shard.
#[derive(Debug, thiserror::Error)]
pub enum ResultsError {
    #[error(transparent)]
    Io(#[from] FileIo),
    #[error("{0}: malformed result file: {1}")]
    Malformed(PathBuf, String),
    #[error("bad shard '{0}' (--shard i/n): {1}")]
    BadShard(String, String),
    /// `--shard auto` with no scheduler task, or one described wrongly (the message
    /// names the variables).
    #[error("--shard auto: {0}")]
    Scheduler(String),
    /// A pack that cannot be read (the message names it).
    #[error(transparent)]
    Pack(#[from] crate::store::pack::PackError),
    #[error("{0}: a pack is read only; to resume the run, unpack it into a directory first (wordle-tree unpack PACK DIR)")]
    ReadOnlyPack(PathBuf),
}

/// One of `count` deterministic slices of a list (1-based `index`): the items at
/// positions `p` with `p % count == index - 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// The whole list.
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// Parses `i/n` with `1 <= i <= n`.
    pub fn parse(s: &str) -> Result<Shard, ResultsError> {
        let bad = |why: &str| ResultsError::BadShard(s.to_string(), why.to_string());
        let (i, n) = s
            .split_once('/')
            .ok_or_else(|| bad("expected i/n (e.g. 2/8) or auto"))?;
        let i: usize = i
            .trim()
            .parse()
            .map_err(|_| bad("i is not a whole number"))?;
        let n: usize = n
            .trim()
            .parse()
            .map_err(|_| bad("n is not a whole number"))?;
        if n == 0 {
            return Err(bad("n must be at least 1"));
        }
        if i == 0 || i > n {
            return Err(bad(&format!("i must be from 1 to {n}")));
        }
        Ok(Shard { index: i, count: n })
    }

    /// The shard of the scheduler task this process runs as, from its environment
    /// (`env`: a variable's value), for `--shard auto`:
    /// - a Slurm job array: `SLURM_ARRAY_TASK_ID` among `SLURM_ARRAY_TASK_COUNT` tasks
    ///   numbered from `SLURM_ARRAY_TASK_MIN` by `SLURM_ARRAY_TASK_STEP` (default 1),
    ///   so `--array=0-15`, `1-16` and `10-40:2` all give shards 1 to 16 of 16 (a list
    ///   with gaps, checked against `SLURM_ARRAY_TASK_MAX`, is refused);
    /// - a Kubernetes indexed job: `JOB_COMPLETION_INDEX` (0-based, set by Kubernetes)
    ///   among `JOB_COMPLETIONS` (the job's `.spec.completions`, which the pod template
    ///   must pass as an environment variable: Kubernetes does not).
    ///
    /// Slurm is looked at first. `Err`: no task (the message names every variable
    /// looked for) or a value that is not a whole number or lies outside its array.
    pub fn from_scheduler(env: impl Fn(&str) -> Option<String>) -> Result<Shard, ResultsError> {
        let bad = |why: String| ResultsError::Scheduler(why);
        let get = |k: &str| env(k).map(|v| v.trim().to_string());
        let num = |k: &str| -> Result<Option<u64>, ResultsError> {
            match get(k) {
                None => Ok(None),
                Some(v) => v
                    .parse::<u64>()
                    .map(Some)
                    .map_err(|_| bad(format!("{k}='{}' is not a whole number", clip(&v)))),
            }
        };
        let need = |k: &str, with: &str| -> Result<u64, ResultsError> {
            num(k)?.ok_or_else(|| bad(format!("{with} is set but {k} is not")))
        };
        if let Some(id) = num("SLURM_ARRAY_TASK_ID")? {
            let count = need("SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_ID")?;
            let min = need("SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_ID")?;
            let step = num("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
            if count == 0 {
                return Err(bad("SLURM_ARRAY_TASK_COUNT=0".into()));
            }
            let last = min.checked_add((count - 1).saturating_mul(step));
            if let Some(max) = num("SLURM_ARRAY_TASK_MAX")? {
                if Some(max) != last {
                    return Err(bad(format!(
                        "the array's task ids are not evenly spaced (SLURM_ARRAY_TASK_MIN={min}, SLURM_ARRAY_TASK_MAX={max}, SLURM_ARRAY_TASK_COUNT={count}, SLURM_ARRAY_TASK_STEP={step}): use --array=1-N, or --shard i/n"
                    )));
                }
            }
            if id < min || (id - min) % step != 0 || (id - min) / step >= count {
                return Err(bad(format!(
                    "SLURM_ARRAY_TASK_ID={id} is not one of the array's ids ({count} from {min} by {step})"
                )));
            }
            return Ok(Shard {
                index: ((id - min) / step + 1) as usize,
                count: count as usize,
            });
        }
        if let Some(index) = num("JOB_COMPLETION_INDEX")? {
            let count = need("JOB_COMPLETIONS", "JOB_COMPLETION_INDEX")?;
            if index >= count {
                return Err(bad(format!(
                    "JOB_COMPLETION_INDEX={index} must be below JOB_COMPLETIONS={count}"
                )));
            }
            return Ok(Shard {
                index: index as usize + 1,
                count: count as usize,
            });
        }
        Err(bad(
            "not in a scheduler task: looked for SLURM_ARRAY_TASK_ID (with SLURM_ARRAY_TASK_COUNT and SLURM_ARRAY_TASK_MIN: a Slurm job array) and JOB_COMPLETION_INDEX (with JOB_COMPLETIONS: a Kubernetes indexed job), found neither; give --shard i/n".into(),
        ))
    }

    /// True when position `p` of the list belongs to this shard.
    pub fn contains(&self, p: usize) -> bool {
        p % self.count == self.index - 1
    }

    /// The items of `list` in this shard, in list order.
    pub fn select<T: Copy>(&self, list: &[T]) -> Vec<T> {
        list.iter()
            .enumerate()
            .filter(|(p, _)| self.contains(*p))
            .map(|(_, &x)| x)
            .collect()
    }
}

/// What `--shard` asks for: a given slice, or `auto`, the slice of the scheduler task
/// the process runs as ([`Shard::from_scheduler`], resolved when the command runs, so
/// the error of a process outside a scheduler is the command's own).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShardSpec {
    Given(Shard),
    Auto,
}

impl ShardSpec {
    /// Parses `auto` or `i/n` ([`Shard::parse`]).
    pub fn parse(s: &str) -> Result<ShardSpec, ResultsError> {
        if s.trim() == "auto" {
            return Ok(ShardSpec::Auto);
        }
        Shard::parse(s).map(ShardSpec::Given)
    }

    /// The slice: the given one, or the scheduler task's (from `env`).
    pub fn resolve(self, env: impl Fn(&str) -> Option<String>) -> Result<Shard, ResultsError> {
        match self {
            ShardSpec::Given(s) => Ok(s),
            ShardSpec::Auto => Shard::from_scheduler(env),
        }
    }
}

/// A kind of result: its name in the header and the tag its file names end with
/// (followed by the maximum guesses).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kind {
    pub name: &'static str,
    pub file_tag: &'static str,
}

/// What a result file is about: every file of a directory scan must match it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub kind: String,
    /// [`Game::list_tag`] of the lists.
    pub list: String,
    pub checksum: u64,
    pub hard: bool,
    pub max_guesses: u8,
}

impl Header {
    pub fn new(kind: Kind, game: &Game, hard: bool, max_guesses: u8) -> Header {
        Header {
            kind: kind.name.to_string(),
            list: game.list_tag(),
            checksum: game.checksum,
            hard,
            max_guesses,
        }
    }
}

/// Header keys, in file order (after `format`).
const HEADER_KEYS: [&str; 6] = ["format", "kind", "list", "checksum", "mode", "max_guesses"];
/// The last line's key: the checksum of everything before it ([`seal`]).
const END_KEY: &str = "end";

/// A result file: its header and the kind's own `key=value` fields, in order.
///
/// Keys are non-empty ASCII `[a-z0-9_]`; values are single-line text whose leading
/// and trailing spaces are not kept. [`ResultFile::set`] enforces both.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultFile {
    pub header: Header,
    fields: Vec<(String, String)>,
}

impl ResultFile {
    pub fn new(header: Header) -> ResultFile {
        ResultFile {
            header,
            fields: Vec::new(),
        }
    }

    /// Sets a field (replacing an earlier value of the key).
    ///
    /// # Panics
    /// On a key outside `[a-z0-9_]+`, a header key, or a value with a line break or
    /// surrounding spaces: those would not read back, so they are programming errors.
    pub fn set(&mut self, key: &str, value: impl ToString) -> &mut ResultFile {
        let value = value.to_string();
        assert!(
            !key.is_empty()
                && key
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
                && !HEADER_KEYS.contains(&key)
                && key != END_KEY,
            "result field key '{key}'"
        );
        assert!(
            !value.contains(['\n', '\r']) && value.trim() == value,
            "result field value '{value}'"
        );
        match self.fields.iter_mut().find(|(k, _)| k == key) {
            Some(slot) => slot.1 = value,
            None => self.fields.push((key.to_string(), value)),
        }
        self
    }

    /// A field's value.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The file text, sealed ([`seal`]).
    pub fn encode(&self) -> String {
        let h = &self.header;
        let mut out = format!(
            "format={FORMAT} {VERSION}\nkind={}\nlist={}\nchecksum={:016x}\nmode={}\nmax_guesses={}\n",
            h.kind,
            h.list,
            h.checksum,
            mode_name(h.hard),
            h.max_guesses
        );
        for (k, v) in &self.fields {
            out += &format!("{k}={v}\n");
        }
        seal(out)
    }

    /// Parses a file's text (`path` only names it in errors): a sealed file only, its
    /// end checksum checked ([`sealed_body`]); a file without one (cut short, edited,
    /// or written by a build before result files were sealed) is malformed, so its
    /// item is computed again, never believed.
    pub fn decode(text: &str, path: &Path, legacy_kind: &str) -> Result<ResultFile, ResultsError> {
        let body = sealed_body(text).ok_or_else(|| {
            ResultsError::Malformed(
                path.into(),
                "no valid end checksum (cut short, edited, or written by an older build)".into(),
            )
        })?;
        ResultFile::decode_unsealed(body, path, legacy_kind)
    }

    /// Parses a file's text without an end checksum: for `pack --adopt`, where the
    /// user vouches for the files of older builds (and in a pack they are sealed). A
    /// file without the `format` line is a version 1 file of `legacy_kind` written
    /// before the header.
    pub fn decode_unsealed(
        text: &str,
        path: &Path,
        legacy_kind: &str,
    ) -> Result<ResultFile, ResultsError> {
        let bad = |why: String| ResultsError::Malformed(path.into(), why);
        let mut map: BTreeMap<&str, &str> = BTreeMap::new();
        let mut order = Vec::new();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let (k, v) = line.split_once('=').ok_or_else(|| {
                bad(format!(
                    "line {}: expected key=value, got '{}'",
                    i + 1,
                    clip(line)
                ))
            })?;
            let (k, v) = (k.trim(), v.trim());
            if map.insert(k, v).is_some() {
                return Err(bad(format!("line {}: '{}' appears twice", i + 1, clip(k))));
            }
            order.push(k);
        }
        // `check --opener any` files before the header: `lists=NAME CHECKSUM`.
        if !map.contains_key("format") && !map.contains_key("list") {
            if let Some((name, sum)) = map.get("lists").and_then(|l| l.split_once(' ')) {
                map.insert("list", name.trim());
                map.insert("checksum", sum.trim());
                map.remove("lists");
                order.retain(|k| *k != "lists");
            }
        }
        let get = |k: &str| {
            map.get(k)
                .copied()
                .ok_or_else(|| bad(format!("missing '{k}'")))
        };
        let kind = match map.get("format") {
            Some(f) => {
                let version = f
                    .strip_prefix(FORMAT)
                    .and_then(|v| v.trim().parse::<u32>().ok())
                    .ok_or_else(|| bad(format!("format '{}' is not {FORMAT} N", clip(f))))?;
                if version != VERSION {
                    return Err(bad(format!(
                        "format version {version} (this build reads version {VERSION})"
                    )));
                }
                get("kind")?.to_string()
            }
            None => legacy_kind.to_string(),
        };
        let checksum = u64::from_str_radix(get("checksum")?, 16)
            .map_err(|_| bad("'checksum' is not hexadecimal".into()))?;
        let hard = parse_mode(get("mode")?)
            .ok_or_else(|| bad(format!("unknown mode '{}'", clip(map["mode"]))))?;
        let max_guesses: u8 = get("max_guesses")?
            .parse()
            .map_err(|_| bad("'max_guesses' is not a number from 0 to 255".into()))?;
        let header = Header {
            kind,
            list: get("list")?.to_string(),
            checksum,
            hard,
            max_guesses,
        };
        let fields = order
            .into_iter()
            .filter(|k| !HEADER_KEYS.contains(k))
            .map(|k| (k.to_string(), map[k].to_string()))
            .collect();
        Ok(ResultFile { header, fields })
    }
}

/// Re-encodes and seals an unsealed result file of an older build, of `legacy_kind`
/// (`pack --adopt`, when the user vouches for it): the sealed text, or why not.
pub fn adopt_unsealed(text: &str, path: &Path, legacy_kind: &str) -> Result<String, ResultsError> {
    Ok(ResultFile::decode_unsealed(text, path, legacy_kind)?.encode())
}

/// The result files of one kind, game, mode and maximum guesses in a directory.
pub struct ResultsDir {
    pub path: PathBuf,
    kind: Kind,
    header: Header,
    /// The files of a pack, when `path` is one (read only).
    pack: Option<BTreeMap<String, String>>,
}

/// What a directory scan found: the files by stem, and one warning per file that
/// could not be used (named).
#[derive(Default)]
pub struct Scan {
    pub files: BTreeMap<String, ResultFile>,
    pub warnings: Vec<String>,
}

impl ResultsDir {
    /// Opens (creating it if needed) the directory for results of `kind` for `game`
    /// in this mode, and removes stale temporary files ([`remove_stale_temps`]).
    pub fn open(
        path: &Path,
        kind: Kind,
        game: &Game,
        hard: bool,
        max_guesses: u8,
    ) -> Result<ResultsDir, ResultsError> {
        run_start();
        let io = |e: std::io::Error| ResultsError::Io(FileIo(path.into(), e));
        if crate::store::pack::is_pack(path) {
            let pack = crate::store::pack::Pack::read(path)?;
            return Ok(ResultsDir {
                path: path.into(),
                kind,
                header: Header::new(kind, game, hard, max_guesses),
                pack: Some(pack.files),
            });
        }
        match std::fs::metadata(path) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => {
                return Err(io(std::io::Error::other(
                    "not a directory (a results directory was expected)",
                )))
            }
            Err(_) => std::fs::create_dir_all(path).map_err(|e| {
                io(std::io::Error::new(
                    e.kind(),
                    format!("cannot create the results directory: {e}"),
                ))
            })?,
        }
        remove_stale_temps(path);
        Ok(ResultsDir {
            path: path.into(),
            kind,
            header: Header::new(kind, game, hard, max_guesses),
            pack: None,
        })
    }

    /// `Err` naming the pack when this is one (read only): for a run that has items
    /// left to compute, before it computes any.
    pub fn writable(&self) -> Result<(), ResultsError> {
        match self.pack {
            Some(_) => Err(ResultsError::ReadOnlyPack(self.path.clone())),
            None => Ok(()),
        }
    }

    /// The header every file of this directory (kind, game, mode) carries.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The suffix every file name of this kind, game and mode ends with.
    pub fn suffix(&self) -> String {
        format!(
            ".{}.{}.{}{}",
            mode_name(self.header.hard),
            self.header.list,
            self.kind.file_tag,
            self.header.max_guesses
        )
    }

    /// The directory's path where processes may share it and write to it (`None`: a
    /// pack, read only).
    pub fn shared_path(&self) -> Option<&Path> {
        self.pack.is_none().then_some(self.path.as_path())
    }

    /// The result file of item `stem` as the directory holds it now (`None`: none,
    /// or not usable: a scan names it).
    pub fn read_stem(&self, stem: &str) -> Option<ResultFile> {
        let name = format!("{stem}{}", self.suffix());
        if let Some(files) = &self.pack {
            files.get(&name)?;
        }
        self.read_one(&name, &self.path.join(&name)).ok().flatten()
    }

    /// The file holding the result of item `stem`.
    pub fn file(&self, stem: &str) -> PathBuf {
        self.path.join(format!("{stem}{}", self.suffix()))
    }

    /// Reads every result file of this kind, game and mode. Files of other kinds,
    /// lists or modes are not looked at; a non-regular, malformed or mismatched file
    /// becomes a warning naming it.
    pub fn scan(&self) -> Result<Scan, ResultsError> {
        let suffix = self.suffix();
        let names: Vec<String> = match &self.pack {
            Some(files) => files.keys().cloned().collect(),
            None => std::fs::read_dir(&self.path)
                .map_err(|e| ResultsError::Io(FileIo(self.path.clone(), e)))?
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect(),
        };
        let mut names: Vec<String> = names
            .into_iter()
            .filter(|n| n.ends_with(&suffix) && n.len() > suffix.len() && !n.starts_with('.'))
            .collect();
        names.sort();
        let mut scan = Scan::default();
        for name in names {
            let path = self.path.join(&name);
            let stem = &name[..name.len() - suffix.len()];
            match self.read_one(&name, &path) {
                Ok(Some(f)) => {
                    scan.files.insert(stem.to_string(), f);
                }
                Ok(None) => scan
                    .warnings
                    .push(format!("{}: not a regular file (ignored)", path.display())),
                Err(e) => scan.warnings.push(format!("{e} (ignored)")),
            }
        }
        Ok(scan)
    }

    /// [`ResultsDir::scan`], each file then read into a record by `read` (given its
    /// stem, the file and its path): the records by key, and the scan's warnings with
    /// one more for each file `read` refuses (`ERROR (ignored)`; the error names the
    /// file). The sweeps' directories, whose files are named by opener, read theirs so.
    pub fn scan_records<K: Ord, R, E: std::fmt::Display>(
        &self,
        read: impl Fn(&str, &ResultFile, &Path) -> Result<(K, R), E>,
    ) -> Result<(BTreeMap<K, R>, Vec<String>), ResultsError> {
        let found = self.scan()?;
        let mut warnings = found.warnings;
        let mut records = BTreeMap::new();
        for (stem, f) in &found.files {
            match read(stem, f, &self.file(stem)) {
                Ok((key, record)) => {
                    records.insert(key, record);
                }
                Err(e) => warnings.push(format!("{e} (ignored)")),
            }
        }
        Ok((records, warnings))
    }

    fn read_one(&self, name: &str, path: &Path) -> Result<Option<ResultFile>, ResultsError> {
        let text = match &self.pack {
            Some(files) => files[name].clone(),
            None => match read_entry(path, MAX_FILE, "a result file")
                .map_err(|e| ResultsError::Io(FileIo(path.into(), e)))?
            {
                Some(text) => text,
                None => return Ok(None),
            },
        };
        let f = ResultFile::decode(&text, path, self.kind.name)?;
        if f.header != self.header {
            return Err(ResultsError::Malformed(
                path.into(),
                "written for another kind, lists, mode or maximum guesses (stale)".into(),
            ));
        }
        Ok(Some(f))
    }

    /// Writes the result of item `stem` atomically; the error names the file. Whatever
    /// entry is at the path (a symlink, a FIFO) is replaced, never written through.
    pub fn write(&self, stem: &str, file: &ResultFile) -> Result<(), ResultsError> {
        debug_assert_eq!(file.header, self.header);
        self.writable()?;
        let path = self.file(stem);
        write_entry(&path, file.encode().as_bytes()).map_err(|e| ResultsError::Io(FileIo(path, e)))
    }
}

#[cfg(test)]
mod tests;
