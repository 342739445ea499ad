//! Entries: the one way a file of the store is written, read and sealed. The lowest
//! floor of the store: results directories ([`crate::store::results`]) and packs
//! ([`crate::store::pack`]) both stand on it, and it imports neither.
//!
//! Owns:
//! - [`write_atomic`], which every command that writes a user-named file goes through:
//!   a regular file (or a path that does not exist yet) is replaced atomically (a
//!   temporary file beside it, synced, renamed over it), so a reader never sees half a
//!   file; a symlink is followed and its target is the file written (the link stays);
//!   a character device or a FIFO is written through (`--out /dev/stdout` works and
//!   `/dev/null` stays a device); anything else (a directory, a block device, a
//!   socket) is refused. It never replaces what is not a regular file.
//! - [`write_entry`] and [`read_entry`], the only way a file inside a results
//!   directory (result files, proof units and journals) is written or read: the entry
//!   itself is replaced by rename, whatever it is, and never opened for writing, so a
//!   symlink planted there cannot redirect a write to its target and a FIFO cannot
//!   block one; reading never follows a link, never blocks, and is capped in size.
//! - [`remove_stale_temps`]: the temporary files that killed runs left behind.
//! - The seal: [`seal`] appends an end line with the FNV-1a checksum of every byte
//!   before it, and [`sealed_body`] gives back the body only when the checksum holds.
//!   Result files, proof units and packs all end so.
//!
//! - [`FileIo`], the I/O fault on a named file that the store's errors (results,
//!   packs, opener tables) and a proof's share: `PATH: ERROR`.
//!
//! Invariant: a write error is always returned to the caller, which names the file
//! (an I/O fault never turns into a verdict).

use crate::game::Fnv;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::SystemTime;

/// The time this process first touched results (its run start, for stale temp files).
pub(crate) fn run_start() -> SystemTime {
    static START: OnceLock<SystemTime> = OnceLock::new();
    *START.get_or_init(SystemTime::now)
}

/// Where a path leads after following symlinks (up to 40, as the kernel does): the
/// path itself when it is not a symlink; a dangling link's target (to be created).
fn follow_links(path: &Path) -> std::io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = std::fs::read_link(&p)?;
                p = match p.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                };
            }
            _ => return Ok(p),
        }
    }
    Err(std::io::Error::other("too many levels of symbolic links"))
}

/// True for a character device or a FIFO: written through, never replaced.
#[cfg(unix)]
fn is_stream(ft: &std::fs::FileType) -> bool {
    use std::os::unix::fs::FileTypeExt;
    ft.is_char_device() || ft.is_fifo()
}

#[cfg(not(unix))]
fn is_stream(_: &std::fs::FileType) -> bool {
    false
}

/// The temporary file name `write_atomic` uses beside `name`, for process `pid`.
pub(crate) fn temp_name(name: &str, pid: u32) -> String {
    format!(".{name}.tmp.{pid}")
}

/// The process id in a temporary file name, if `name` is one.
pub(crate) fn temp_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix('.')?;
    let (_, pid) = rest.rsplit_once(".tmp.")?;
    pid.parse().ok()
}

/// An I/O fault on a named file, `PATH: ERROR`: the error is part of the message, not
/// a `source`, so a report that prints causes does not repeat it. The store's errors
/// and a proof's hold it as their `Io` variant (`#[from]`, so `?` converts it).
#[derive(Debug, thiserror::Error)]
#[error("{0}: {1}")]
pub struct FileIo(pub PathBuf, pub std::io::Error);

/// Writes `bytes` to `path` (see the module doc): atomically for a regular file or a
/// new one, through for a character device or a FIFO, at a symlink's target. The
/// error says what failed; callers add the path. For user-named outputs only: a file
/// inside a results directory goes through [`write_entry`].
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    // What the path leads to, links followed by the kernel (so `/dev/stdout`, a link
    // to `/proc/self/fd/1` and on to a pipe, is seen as the pipe).
    let existing = match std::fs::metadata(path) {
        Ok(m) => Some(m),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    if let Some(m) = &existing {
        let ft = m.file_type();
        if ft.is_dir() {
            return Err(std::io::Error::other("is a directory"));
        }
        if is_stream(&ft) {
            let mut f = std::fs::OpenOptions::new().write(true).open(path)?;
            return f.write_all(bytes).and_then(|()| f.flush());
        }
        if !ft.is_file() {
            return Err(std::io::Error::other(
                "not a regular file; refusing to replace it",
            ));
        }
    }
    // A regular file or none: replaced beside the file the links lead to.
    let target = follow_links(path)?;
    replace(&target, bytes, existing.map(|m| m.permissions()))
}

/// Writes `bytes` as the entry `path` of a results directory: a new file renamed over
/// the entry, whatever it is (a regular file, a symlink, a FIFO, a device): the entry
/// itself is replaced, nothing is ever opened or written through it, so a link planted
/// in a results directory cannot redirect a write and a FIFO cannot block one. A
/// directory at the path is refused.
pub fn write_entry(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let existing = match std::fs::symlink_metadata(path) {
        Ok(m) => Some(m),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    if existing.as_ref().is_some_and(|m| m.is_dir()) {
        return Err(std::io::Error::other("is a directory"));
    }
    let keep = existing.filter(|m| m.is_file()).map(|m| m.permissions());
    replace(path, bytes, keep)
}

/// Replaces the directory entry `target` by a new file holding `bytes`: a temporary
/// file beside it, synced, renamed over it (with `permissions` if given).
fn replace(
    target: &Path,
    bytes: &[u8],
    permissions: Option<std::fs::Permissions>,
) -> std::io::Result<()> {
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| std::io::Error::other("not a file name"))?;
    let tmp = dir.join(temp_name(&name, std::process::id()));
    let attempt = || {
        // `create_new`: never follows a link or reuses a file planted at the temp name.
        let _ = std::fs::remove_file(&tmp);
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        if let Some(p) = &permissions {
            // The replaced file keeps its permissions.
            let _ = std::fs::set_permissions(&tmp, p.clone());
        }
        std::fs::rename(&tmp, target)
    };
    let mut result = attempt();
    if result
        .as_ref()
        .is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound)
    {
        // The temporary file vanished before the rename: another machine's run
        // sharing the directory took it for a killed run's (its process id is not
        // alive there). Once more.
        result = attempt();
    }
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// True when process `pid` exists on this machine (unknown: assumed alive).
pub(crate) fn pid_alive(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(p) = libc::pid_t::try_from(pid) else {
            return false;
        };
        if p <= 0 {
            return false;
        }
        // SAFETY: signal 0 only checks that the process exists; nothing is sent.
        let r = unsafe { libc::kill(p, 0) };
        r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

/// Removes the temporary files of [`write_atomic`] that killed runs left in `dir`:
/// those last modified before this run started whose process is gone (or is this
/// process, the id having been reused). Returns how many were removed.
pub fn remove_stale_temps(dir: &Path) -> usize {
    let start = run_start();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(pid) = temp_pid(&name) else { continue };
        let Ok(m) = e.metadata() else { continue };
        let old = m.modified().is_ok_and(|t| t < start);
        let dead = pid == std::process::id() || !pid_alive(pid);
        if m.is_file() && old && dead && std::fs::remove_file(e.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// Reads the entry `path` of a results directory, a regular file of at most `cap`
/// bytes that is `what`; `Ok(None)` for anything else, a symlink included (never
/// followed: the item is computed again and [`write_entry`] replaces the link).
/// Opened without blocking, so a FIFO cannot hang the reader.
pub fn read_entry(path: &Path, cap: u64, what: &str) -> std::io::Result<Option<String>> {
    if !std::fs::symlink_metadata(path)?.is_file() {
        return Ok(None);
    }
    read_capped(path, cap, what, false)
}

/// Reads a user-named regular file (links followed) of at most `cap` bytes that is
/// `what` (named in the error when the file is larger or not UTF-8 text); `Ok(None)`
/// for anything that is not a regular file (opened without blocking, so a FIFO cannot
/// hang the reader).
pub fn read_regular_capped(path: &Path, cap: u64, what: &str) -> std::io::Result<Option<String>> {
    if !std::fs::metadata(path)?.is_file() {
        return Ok(None);
    }
    read_capped(path, cap, what, true)
}

fn read_capped(path: &Path, cap: u64, what: &str, follow: bool) -> std::io::Result<Option<String>> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let nofollow = if follow { 0 } else { libc::O_NOFOLLOW };
        options.custom_flags(libc::O_NONBLOCK | nofollow);
    }
    let f = match options.open(path) {
        Ok(f) => f,
        // A link swapped in since the check (ELOOP under O_NOFOLLOW): not regular.
        #[cfg(unix)]
        Err(e) if !follow && e.raw_os_error() == Some(libc::ELOOP) => return Ok(None),
        Err(e) => return Err(e),
    };
    if !f.metadata()?.is_file() {
        return Ok(None);
    }
    let mut bytes = Vec::new();
    f.take(cap + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("larger than {cap} bytes: not {what}"),
        ));
    }
    String::from_utf8(bytes).map(Some).map_err(|_| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("not UTF-8 text: not {what}"),
        )
    })
}

/// `text` with its end line appended: `end=` and the FNV-1a checksum (16 hex digits)
/// of every byte before it. Result files end so; proof unit files end the same way
/// with `end ` instead of `end=`.
pub fn seal(text: String) -> String {
    seal_as(text, "end=")
}

/// [`seal`] with another end-line prefix: `end=` or `end ` (unit files and packs).
pub fn seal_as(mut text: String, end: &str) -> String {
    debug_assert!(end == "end=" || end == "end ");
    let mut h = Fnv::new();
    h.bytes(text.as_bytes());
    text += &format!("{end}{:016x}\n", h.finish());
    text
}

/// The body of a sealed text (everything before its end line) when its last line is
/// `end=HEX` or `end HEX` with the checksum of that body; `None` for a text without
/// an end line, cut short, or edited.
pub fn sealed_body(text: &str) -> Option<&str> {
    let trimmed = text.trim_end_matches(['\n', '\r']);
    let start = trimmed.rfind('\n').map_or(0, |p| p + 1);
    let (body, last) = trimmed.split_at(start);
    let hex = last
        .strip_prefix("end=")
        .or_else(|| last.strip_prefix("end "))?
        .trim();
    let mut h = Fnv::new();
    h.bytes(body.as_bytes());
    (hex.len() == 16 && u64::from_str_radix(hex, 16).ok()? == h.finish()).then_some(body)
}

/// At most 40 characters of some input, for messages.
pub(crate) fn clip(s: &str) -> String {
    match s.char_indices().nth(40) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.to_string(),
    }
}
