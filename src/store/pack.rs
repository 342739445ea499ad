//! Packs: a finished results directory (a sweep's result files, a proof's unit files)
//! archived as one file, so a repository or a machine keeps one file per proof
//! instead of thousands.
//!
//! Format: gzip (DEFLATE, pure-Rust `flate2`) around a text made of
//! - the line `wordle-tree-pack 1`;
//! - for each file, sorted by name: `file NAME LEN`, a line break, then the file's
//!   `LEN` bytes (its text as written, its own end line included);
//! - last, `end HEX`: the FNV-1a checksum of every byte before it
//!   ([`crate::store::entry::seal`]).
//!
//! Invariants: a pack is read whole and checked before anything in it is used: the
//! gzip stream (its CRC), the magic line, every frame, the end checksum, and each
//! entry's own seal; a damaged or cut pack is refused by name with what failed, never
//! half-read. Every entry is a sealed file ([`crate::store::entry::sealed_body`]):
//! packing refuses an unsealed file unless the user vouches for files of older builds
//! (`adopt`), and then only result files it can parse, which go in re-encoded and
//! sealed (their values unchanged). [`pack_dir`] writes the pack atomically, reads it
//! back and compares every entry with the directory before it reports success; the
//! directory is removed only after that, and only when asked.
//!
//! Trade-offs (measured on the committed sweeps): an `openers` table directory of
//! 14855 files (about 4.6 MB of text, 14855 inodes, 58 MB on disk in 4 KiB blocks)
//! packs to about 0.4 MB; reading a pack whole takes tens of milliseconds, so packs
//! are read in place by `--merge`, `--write-table` and resumed runs' scans, and
//! unpacked only to resume a run that writes.

use crate::store::entry::FileIo;
use crate::store::entry::{clip, read_entry, seal_as, sealed_body, write_atomic, write_entry};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The first line of a pack.
pub const MAGIC: &str = "wordle-tree-pack 1";
/// The file name suffix packs are written with.
pub const SUFFIX: &str = ".pack";
/// The largest pack text read (after decompression): far above any sweep or proof
/// (the largest, the big game's proof, is about 10 MB), so a hostile file cannot
/// exhaust memory.
pub const MAX_TEXT: u64 = 1 << 30;
/// The largest single file taken into a pack.
pub const MAX_ENTRY: u64 = 16 << 20;

/// What went wrong with a pack; every message names the file.
#[derive(Debug, thiserror::Error)]
pub enum PackError {
    #[error(transparent)]
    Io(#[from] FileIo),
    #[error("{0}: damaged pack: {1}")]
    Damaged(PathBuf, String),
    #[error("{0}: {1}")]
    Refused(PathBuf, String),
}

/// A pack's files, by name: each a sealed text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pack {
    pub files: BTreeMap<String, String>,
}

/// True when `path` names a pack (a regular file whose name ends in [`SUFFIX`]).
pub fn is_pack(path: &Path) -> bool {
    path.to_string_lossy().ends_with(SUFFIX) && std::fs::metadata(path).is_ok_and(|m| m.is_file())
}

impl Pack {
    /// The pack's text, before compression.
    fn text(&self) -> String {
        let mut s = String::from(MAGIC);
        s.push('\n');
        for (name, body) in &self.files {
            s += &format!("file {name} {}\n", body.len());
            s += body;
        }
        seal_as(s, "end ")
    }

    /// The pack's bytes (gzip at the best compression).
    pub fn encode(&self) -> Vec<u8> {
        let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        z.write_all(self.text().as_bytes())
            .and_then(|()| z.finish())
            .expect("writing to memory cannot fail")
    }

    /// Parses a pack's bytes (`path` names it in errors): everything is checked
    /// before the pack is returned (see the module doc).
    pub fn decode(bytes: &[u8], path: &Path) -> Result<Pack, PackError> {
        let bad = |why: String| PackError::Damaged(path.into(), why);
        let mut raw = Vec::new();
        flate2::read::GzDecoder::new(bytes)
            .take(MAX_TEXT + 1)
            .read_to_end(&mut raw)
            .map_err(|e| bad(format!("not a readable gzip stream ({e})")))?;
        if raw.len() as u64 > MAX_TEXT {
            return Err(bad(format!("more than {MAX_TEXT} bytes unpacked")));
        }
        let text = String::from_utf8(raw).map_err(|_| bad("not UTF-8 text".into()))?;
        let body = sealed_body(&text)
            .ok_or_else(|| bad("end checksum missing or wrong (cut short or edited)".into()))?;
        let mut rest = body
            .strip_prefix(MAGIC)
            .and_then(|r| r.strip_prefix('\n'))
            .ok_or_else(|| bad(format!("first line is not '{MAGIC}'")))?;
        let mut files = BTreeMap::new();
        while !rest.is_empty() {
            let (line, after) = rest
                .split_once('\n')
                .ok_or_else(|| bad("a frame line without its end".into()))?;
            let frame = line
                .strip_prefix("file ")
                .and_then(|f| f.rsplit_once(' '))
                .and_then(|(name, len)| Some((name, len.parse::<usize>().ok()?)))
                .filter(|(name, _)| valid_name(name))
                .ok_or_else(|| bad(format!("bad frame line '{}'", clip(line))))?;
            let (name, len) = frame;
            if len > after.len() || !after.is_char_boundary(len) {
                return Err(bad(format!("{name}: {len} bytes announced, fewer there")));
            }
            let (content, next) = after.split_at(len);
            if sealed_body(content).is_none() {
                return Err(bad(format!("{name}: its own end checksum does not hold")));
            }
            if files
                .insert(name.to_string(), content.to_string())
                .is_some()
            {
                return Err(bad(format!("{name} appears twice")));
            }
            rest = next;
        }
        Ok(Pack { files })
    }

    /// Reads and checks the pack at `path`.
    pub fn read(path: &Path) -> Result<Pack, PackError> {
        let bytes = std::fs::read(path).map_err(|e| PackError::Io(FileIo(path.into(), e)))?;
        Pack::decode(&bytes, path)
    }
}

/// A name a pack may hold: a plain file name of a results directory (no path, no dot
/// file, no space or control character).
fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && name.len() <= 255
        && name
            .bytes()
            .all(|b| b.is_ascii_graphic() && b != b'/' && b != b'\\')
}

/// What [`pack_dir`] did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Packed {
    pub files: usize,
    /// Unsealed result files of older builds taken in (re-encoded, sealed) by `adopt`.
    pub adopted: usize,
    /// Bytes of the files' texts, and of the pack written.
    pub text_bytes: u64,
    pub pack_bytes: u64,
}

/// The kind an unsealed result file of an older build had, from its directory's
/// name suffix: `openers` (`.max6`), `min-over` (`.over4`), `within` (`.within6`).
fn legacy_kind(name: &str) -> Option<&'static str> {
    let tag = name.rsplit('.').next()?;
    let kind = tag.trim_end_matches(|c: char| c.is_ascii_digit());
    match kind {
        "max" => Some("openers"),
        "over" => Some("min-over"),
        "within" => Some("within"),
        _ => None,
    }
}

/// How `pack --adopt` takes in an unsealed result file of an older build: from its
/// text, path and kind, the re-encoded sealed text, or why not.
pub type Adopt = dyn Fn(&str, &Path, &str) -> Result<String, String>;

/// Packs every regular, non-dot file of `dir` into `out` (written atomically), then
/// reads `out` back and checks it holds exactly those files. A claim file
/// ([`crate::store::claim`]) is refused by name: a run may still be working there. An unsealed file is
/// refused by name unless `adopt` is given: it re-encodes and seals the result file
/// of an older build (its text, path and kind) or says why not
/// ([`crate::store::results::adopt_unsealed`]; the pack itself knows no result-file
/// format). With `remove`, the directory's packed files (and then the
/// directory, if empty) are removed, only after the check.
pub fn pack_dir(
    dir: &Path,
    out: &Path,
    adopt: Option<&Adopt>,
    remove: bool,
) -> Result<Packed, PackError> {
    let io = |p: &Path, e| PackError::Io(FileIo(p.into(), e));
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| io(dir, e))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    names.sort();
    let mut pack = Pack::default();
    let mut done = Packed::default();
    for name in &names {
        let path = dir.join(name);
        if !valid_name(name) {
            return Err(PackError::Refused(path, "not a result file name".into()));
        }
        if crate::store::claim::is_claim(name) {
            return Err(PackError::Refused(
                path,
                "a claim of a unit in progress: a run may still be working in this directory; \
                 pack once every run has stopped (a claim left by a killed run can be removed)"
                    .into(),
            ));
        }
        let text = match read_entry(&path, MAX_ENTRY, "a result file") {
            Ok(Some(t)) => t,
            Ok(None) => {
                return Err(PackError::Refused(
                    path,
                    "not a regular file (a link, a FIFO or a directory): remove it first".into(),
                ))
            }
            Err(e) => return Err(io(&path, e)),
        };
        let text = if sealed_body(&text).is_some() {
            text
        } else {
            let kind = legacy_kind(name)
                .filter(|_| adopt.is_some())
                .ok_or_else(|| {
                    PackError::Refused(
                        path.clone(),
                        if adopt.is_some() {
                            "no end checksum, and not a result file of a known kind".into()
                        } else {
                            "no end checksum (cut short, edited, or from an older build): \
                         redo it, or pass --adopt to vouch for files of older builds"
                                .into()
                        },
                    )
                })?;
            let adopt = adopt.expect("checked above");
            let sealed =
                adopt(&text, &path, kind).map_err(|e| PackError::Refused(path.clone(), e))?;
            done.adopted += 1;
            sealed
        };
        done.text_bytes += text.len() as u64;
        pack.files.insert(name.clone(), text);
    }
    done.files = pack.files.len();
    let bytes = pack.encode();
    done.pack_bytes = bytes.len() as u64;
    write_atomic(out, &bytes).map_err(|e| io(out, e))?;
    let back = Pack::read(out)?;
    if back != pack {
        return Err(PackError::Damaged(
            out.into(),
            "read back different from the directory".into(),
        ));
    }
    if remove {
        for name in &names {
            let p = dir.join(name);
            std::fs::remove_file(&p).map_err(|e| io(&p, e))?;
        }
        let _ = std::fs::remove_dir(dir);
    }
    Ok(done)
}

/// Writes a pack's files into `dir` (created if needed), each through
/// [`crate::store::entry::write_entry`], so a run can resume there. A file already
/// in `dir` with other contents is refused by name (nothing is overwritten); one with
/// the same contents is left as it is. Returns how many files were written.
pub fn unpack(pack: &Path, dir: &Path) -> Result<usize, PackError> {
    let p = Pack::read(pack)?;
    std::fs::create_dir_all(dir).map_err(|e| PackError::Io(FileIo(dir.into(), e)))?;
    // Check first, write after: a conflict leaves the directory as it was.
    for (name, text) in &p.files {
        let path = dir.join(name);
        match read_entry(&path, MAX_ENTRY, "a result file") {
            Ok(Some(t)) if &t == text => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Ok(_) | Err(_) => {
                return Err(PackError::Refused(
                    path,
                    "already there with other contents (remove it, or unpack elsewhere)".into(),
                ))
            }
        }
    }
    let mut written = 0;
    for (name, text) in &p.files {
        let path = dir.join(name);
        if read_entry(&path, MAX_ENTRY, "a result file").is_ok_and(|t| t.as_ref() == Some(text)) {
            continue;
        }
        write_entry(&path, text.as_bytes()).map_err(|e| PackError::Io(FileIo(path, e)))?;
        written += 1;
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::entry::seal;

    fn sample() -> Pack {
        let mut p = Pack::default();
        p.files
            .insert("a.normal.wordle.max6".into(), seal("x=1\n".into()));
        p.files.insert(
            "unit.BBBBB.txt".into(),
            seal_as("wordle-tree proof unit v1\nfile 3 x\n".into(), "end "),
        );
        p
    }

    #[test]
    fn packs_round_trip() {
        let p = sample();
        assert_eq!(Pack::decode(&p.encode(), Path::new("p")).unwrap(), p);
        assert_eq!(
            Pack::decode(&Pack::default().encode(), Path::new("p")).unwrap(),
            Pack::default()
        );
    }

    #[test]
    fn a_damaged_pack_is_refused_by_name() {
        let p = sample();
        let bytes = p.encode();
        let cut = &bytes[..bytes.len() / 2];
        let e = Pack::decode(cut, Path::new("x.pack"))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("x.pack: damaged pack"), "{e}");
        // An entry edited and the pack's checksum recomputed: the entry's own seal
        // still catches it.
        let text = p.text().replace("x=1", "x=2");
        let body = sealed_body(&p.text()).unwrap().replace("x=1", "x=2");
        assert!(sealed_body(&text).is_none());
        let resealed = seal_as(body, "end ");
        let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        z.write_all(resealed.as_bytes()).unwrap();
        let e = Pack::decode(&z.finish().unwrap(), Path::new("y.pack"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("a.normal.wordle.max6: its own end checksum"),
            "{e}"
        );
        let e = Pack::decode(b"not gzip", Path::new("z.pack"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("z.pack: damaged pack: not a readable gzip"),
            "{e}"
        );
    }

    #[test]
    fn frames_that_lie_are_refused() {
        for body in [
            format!("{MAGIC}\nfile a 100\nshort"),
            format!("{MAGIC}\nfile ../etc/passwd 1\nx"),
            format!("{MAGIC}\nfile a\n"),
            "not a pack\n".to_string(),
        ] {
            let sealed = seal_as(body.clone(), "end ");
            let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            z.write_all(sealed.as_bytes()).unwrap();
            assert!(
                Pack::decode(&z.finish().unwrap(), Path::new("p")).is_err(),
                "{body}"
            );
        }
    }

    #[test]
    fn legacy_kinds_follow_the_file_tag() {
        assert_eq!(legacy_kind("salet.normal.wordle.max6"), Some("openers"));
        assert_eq!(legacy_kind("aahed.normal.wordle.over4"), Some("min-over"));
        assert_eq!(
            legacy_kind("abash.hard.custom-db5dd17cea24c8a5.within6"),
            Some("within")
        );
        assert_eq!(legacy_kind("unit.BBBBB.txt"), None);
    }
}
