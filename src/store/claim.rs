//! Claims: which process is working on which unit of a shared results directory, so
//! a shard that has finished its own units can take over units of other shards that
//! nobody has started (the balance of `--shard`), and two processes seldom search
//! the same unit.
//!
//! A claim is a small text file `claim.<NAME>` beside the unit files, created with
//! `O_CREAT | O_EXCL` ([`Claimer::claim`]): of two processes racing for a unit, on one
//! machine or on a shared file system (NFS creates exclusively on the server), one
//! gets it. The file names its holder: host name, process id and start time, the
//! scheduler task (`slurm JOB_TASK` inside a Slurm array, `k8s INDEX` in a Kubernetes
//! indexed job) and the time. The holder refreshes the file's modification time every
//! [`HEARTBEAT`] while it holds it (a thread of [`Claimer`]) and removes it once the
//! unit's file is written, or the unit is abandoned (interrupted, failed).
//!
//! A claim found in the way is **stale**, removed and taken, when
//! - it has not been refreshed for [`LEASE`] (its holder is gone or cut off; hosts
//!   sharing a directory must agree on the time to well within the lease),
//! - its holder was on this host and its process is gone (or the id now belongs to a
//!   process started later), as after SIGKILL, or
//! - its holder was an earlier run of this very scheduler task (a requeued Slurm
//!   array task, a replaced pod): the scheduler runs one at a time.
//!
//! A claim appears whole (written to a temporary file, then hard-linked to its name;
//! see `Claimer::create`). One that cannot be read (damaged, or written in place on a
//! file system without hard links) counts as live until the
//! lease runs out.
//!
//! **Invariant: claims never decide a result.** A unit is done exactly when its unit
//! file is there and checks; a claim only says "someone is on it, do not start it".
//! The worst a misjudged claim can do is let two processes search the same unit (two
//! thieves reaping one stale claim at the same moment, a live holder on another host
//! behind by more than the lease): both write a correct record of the same unit
//! atomically, and the one renamed last stays. A claim whose holder died blocks its
//! unit for other hosts until the lease runs out; a rerun of any shard on the
//! holder's host, or of the same scheduler task anywhere, takes it at once.
//!
//! Claims are not results: scans ignore them, and `pack` refuses a directory that
//! holds one ([`is_claim`]): some run may still be working there.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, SystemTime};

/// Claim files' names start so.
pub const PREFIX: &str = "claim.";
/// The first line of a claim file.
const MAGIC: &str = "wordle-tree claim 1";
/// How often a holder refreshes its claims.
pub const HEARTBEAT: Duration = Duration::from_secs(60);
/// A claim not refreshed for this long is stale.
pub const LEASE: Duration = Duration::from_secs(600);

/// True for the name of a claim file (`claim.KEY.txt`): not the result file of an
/// opener that is the word `claim` (`claim.normal.wordle.max6`), which starts alike.
pub fn is_claim(name: &str) -> bool {
    name.starts_with(PREFIX) && name.ends_with(".txt")
}

/// Who holds a claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Holder {
    pub host: String,
    pub pid: u32,
    /// The process's start time (clock ticks after boot, `/proc/PID/stat`); 0 where
    /// unknown.
    pub start: u64,
    /// The scheduler task (`slurm 1234_3`, `k8s 2`), empty outside a scheduler.
    pub task: String,
}

impl Holder {
    /// This process, with the scheduler task `env` describes (see [`task_of`]).
    pub fn this_process(env: impl Fn(&str) -> Option<String>) -> Holder {
        let pid = std::process::id();
        Holder {
            host: host_name(),
            pid,
            start: process_start(pid).unwrap_or(0),
            task: task_of(env),
        }
    }

    fn text(&self) -> String {
        let time = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        format!(
            "{MAGIC}\nhost {}\npid {}\nstart {}\ntask {}\ntime {time}\n",
            self.host, self.pid, self.start, self.task
        )
    }

    /// Reads a claim file's text (`None`: not a whole claim).
    fn parse(text: &str) -> Option<Holder> {
        let mut lines = text.lines();
        if lines.next()? != MAGIC {
            return None;
        }
        let mut field = |key: &str| -> Option<String> {
            let line = lines.next()?;
            let v = line.strip_prefix(key)?.strip_prefix(' ').unwrap_or("");
            Some(v.to_string())
        };
        let host = field("host")?;
        let pid = field("pid")?.parse().ok()?;
        let start = field("start")?.parse().ok()?;
        let task = field("task")?;
        field("time")?;
        Some(Holder {
            host,
            pid,
            start,
            task,
        })
    }

    /// A short description for messages: `pid 123 on vm (slurm 77_2)`.
    pub fn describe(&self) -> String {
        let task = if self.task.is_empty() {
            String::new()
        } else {
            format!(" ({})", self.task)
        };
        format!("pid {} on {}{task}", self.pid, self.host)
    }
}

/// The scheduler task this process runs as, from its environment: `slurm
/// ARRAYJOB_TASK` in a Slurm job array, `slurm JOB` in another Slurm job, `k8s INDEX`
/// in a Kubernetes indexed job (with the pod's host name), empty otherwise. A
/// requeued Slurm task keeps its ids, so an earlier run's claims are known as its
/// own.
pub fn task_of(env: impl Fn(&str) -> Option<String>) -> String {
    let get = |k: &str| env(k).filter(|v| !v.trim().is_empty());
    if let (Some(job), Some(task)) = (get("SLURM_ARRAY_JOB_ID"), get("SLURM_ARRAY_TASK_ID")) {
        return format!("slurm {}_{}", job.trim(), task.trim());
    }
    if let Some(job) = get("SLURM_JOB_ID") {
        return format!("slurm {}", job.trim());
    }
    if let Some(i) = get("JOB_COMPLETION_INDEX") {
        return format!("k8s {}", i.trim());
    }
    String::new()
}

/// This machine's host name (empty where unknown).
fn host_name() -> String {
    #[cfg(unix)]
    {
        let mut buf = [0u8; 256];
        // SAFETY: the buffer is valid for its length; gethostname writes at most that.
        let r = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
        if r == 0 {
            let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
            return String::from_utf8_lossy(&buf[..end])
                .chars()
                .filter(|c| c.is_ascii_graphic())
                .collect();
        }
    }
    String::new()
}

/// A process's start time in clock ticks after boot (Linux), to tell a reused id.
fn process_start(pid: u32) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may hold spaces: fields after its ')' only.
    let rest = &s[s.rfind(')')? + 1..];
    rest.split_whitespace().nth(19)?.parse().ok()
}

/// Whether the holder's process still runs on this host.
fn alive_here(h: &Holder) -> bool {
    if !super::entry::pid_alive(h.pid) {
        return false;
    }
    match process_start(h.pid) {
        Some(s) if h.start != 0 => s == h.start,
        _ => true,
    }
}

/// What stands in the way of a claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Taken {
    /// This claimer holds it now.
    Mine,
    /// Another live holder (`None`: a claim not readable yet).
    Busy(Option<Holder>),
}

/// The claims of one process in one results directory. Dropping it releases every
/// claim it still holds and stops its heartbeat.
pub struct Claimer {
    dir: PathBuf,
    me: Holder,
    lease: Duration,
    held: Arc<Mutex<BTreeSet<PathBuf>>>,
    quit: Arc<(Mutex<bool>, Condvar)>,
    heartbeat: Option<std::thread::JoinHandle<()>>,
}

impl Claimer {
    /// The claims of this process (its scheduler task read from the environment) in
    /// `dir`.
    pub fn new(dir: &Path) -> Claimer {
        Claimer::with_holder(dir, Holder::this_process(|k| std::env::var(k).ok()), LEASE)
    }

    /// Claims as `me`, judging others stale after `lease` (tests use other holders and
    /// short leases).
    pub fn with_holder(dir: &Path, me: Holder, lease: Duration) -> Claimer {
        let held: Arc<Mutex<BTreeSet<PathBuf>>> = Arc::default();
        let quit: Arc<(Mutex<bool>, Condvar)> = Arc::default();
        let beat = HEARTBEAT.min(lease / 4).max(Duration::from_millis(10));
        let heartbeat = {
            let (held, quit) = (held.clone(), quit.clone());
            std::thread::Builder::new()
                .name("claim-heartbeat".into())
                .spawn(move || loop {
                    let (lock, cv) = &*quit;
                    let stop = lock.lock().unwrap();
                    let (stop, _) = cv.wait_timeout_while(stop, beat, |q| !*q).unwrap();
                    if *stop {
                        return;
                    }
                    drop(stop);
                    for p in held.lock().unwrap().iter() {
                        touch(p);
                    }
                })
                .ok()
        };
        Claimer {
            dir: dir.into(),
            me,
            lease,
            held,
            quit,
            heartbeat,
        }
    }

    /// The claim file of the item whose own file is named `name`.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(format!("{PREFIX}{name}"))
    }

    /// Claims item `name`: `Ok(None)` when this process now holds it (a stale claim
    /// in the way is removed first), else what holds it. `Err`: the directory cannot
    /// take the file (the caller decides whether to go on without claims).
    pub fn claim(&self, name: &str) -> std::io::Result<Option<Taken>> {
        let path = self.path(name);
        if self.held.lock().unwrap().contains(&path) {
            return Ok(Some(Taken::Mine));
        }
        // A live claim in the way is told without writing anything (a claim file
        // costs a sync).
        if std::fs::symlink_metadata(&path).is_ok() {
            if let Some(busy) = self.judge(&path) {
                return Ok(Some(busy));
            }
        }
        for _ in 0..3 {
            match self.create(&path) {
                Ok(()) => {
                    self.held.lock().unwrap().insert(path);
                    return Ok(None);
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(e),
            }
            match self.judge(&path) {
                Some(busy) => return Ok(Some(busy)),
                // Stale: remove it and try again (a racing claimer may win).
                None => match std::fs::remove_file(&path) {
                    Ok(()) => {}
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                    Err(e) => return Err(e),
                },
            }
        }
        Ok(Some(Taken::Busy(None)))
    }

    /// Creates the claim at `path` whole or not at all: the holder's text is written to
    /// a temporary dot file first and then hard-linked to the claim's name, which fails
    /// with `AlreadyExists` when the claim is there (as `O_EXCL` does, on NFS too). So a
    /// process killed while claiming leaves no empty claim, which others would have to
    /// treat as live for the whole lease. Where the file system has no hard links the
    /// claim is created with `O_EXCL` and written in place.
    fn create(&self, path: &Path) -> std::io::Result<()> {
        static SERIAL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let tmp = path.with_file_name(format!(
            ".{name}.{}.{}.tmp",
            std::process::id(),
            SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        ));
        let written = std::fs::File::create(&tmp).and_then(|mut f| {
            f.write_all(self.me.text().as_bytes())?;
            f.sync_all()
        });
        let linked = written.and_then(|()| std::fs::hard_link(&tmp, path));
        let _ = std::fs::remove_file(&tmp);
        match linked {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(e),
            Err(_) => self.create_in_place(path),
        }
    }

    /// `Claimer::create` without a hard link: `O_EXCL`, then the text.
    fn create_in_place(&self, path: &Path) -> std::io::Result<()> {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)?;
        let written = f
            .write_all(self.me.text().as_bytes())
            .and_then(|()| f.sync_all());
        if let Err(e) = written {
            let _ = std::fs::remove_file(path);
            return Err(e);
        }
        Ok(())
    }

    /// What the claim at `path` is: `None` when stale (or gone).
    fn judge(&self, path: &Path) -> Option<Taken> {
        let meta = std::fs::symlink_metadata(path).ok()?;
        let age = meta
            .modified()
            .ok()
            .and_then(|t| SystemTime::now().duration_since(t).ok())
            .unwrap_or_default();
        if !meta.is_file() || age > self.lease {
            return None;
        }
        let text = super::entry::read_entry(path, 4096, "a claim file")
            .ok()
            .flatten()
            .unwrap_or_default();
        let Some(h) = Holder::parse(&text) else {
            // Being written, or damaged: live until the lease runs out.
            return Some(Taken::Busy(None));
        };
        if h.host == self.me.host {
            if h.pid == self.me.pid && h.start == self.me.start {
                return Some(Taken::Mine);
            }
            if !alive_here(&h) {
                return None;
            }
        }
        if !self.me.task.is_empty() && h.task == self.me.task {
            // An earlier run of this scheduler task: it is not running any more.
            return None;
        }
        Some(Taken::Busy(Some(h)))
    }

    /// Releases item `name` (removes its claim file if this process holds it).
    pub fn release(&self, name: &str) {
        let path = self.path(name);
        if self.held.lock().unwrap().remove(&path) {
            let _ = std::fs::remove_file(&path);
        }
    }
}

impl Drop for Claimer {
    fn drop(&mut self) {
        {
            let (lock, cv) = &*self.quit;
            *lock.lock().unwrap() = true;
            cv.notify_all();
        }
        if let Some(h) = self.heartbeat.take() {
            let _ = h.join();
        }
        for p in std::mem::take(&mut *self.held.lock().unwrap()) {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// Sets a claim file's modification time to now (a vanished file is left alone).
fn touch(path: &Path) {
    if let Ok(f) = std::fs::OpenOptions::new().append(true).open(path) {
        let _ = f.set_modified(SystemTime::now());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn holder(host: &str, pid: u32, task: &str) -> Holder {
        Holder {
            host: host.into(),
            pid,
            start: 0,
            task: task.into(),
        }
    }

    /// A process id that is not running here.
    fn dead_pid() -> u32 {
        (4_000_000..u32::MAX)
            .find(|&p| !super::super::entry::pid_alive(p))
            .unwrap()
    }

    #[test]
    fn one_claimer_gets_it_and_the_other_is_told_who() {
        let dir = tempfile::tempdir().unwrap();
        let a = Claimer::with_holder(dir.path(), Holder::this_process(|_| None), LEASE);
        let b = Claimer::with_holder(dir.path(), holder("elsewhere", 7, ""), LEASE);
        assert_eq!(a.claim("unit.BBBBB.txt").unwrap(), None);
        assert_eq!(a.claim("unit.BBBBB.txt").unwrap(), Some(Taken::Mine));
        match b.claim("unit.BBBBB.txt").unwrap() {
            Some(Taken::Busy(Some(h))) => assert_eq!(h, a.me),
            other => panic!("{other:?}"),
        }
        a.release("unit.BBBBB.txt");
        assert!(!a.path("unit.BBBBB.txt").exists());
        assert_eq!(b.claim("unit.BBBBB.txt").unwrap(), None);
        drop(b);
        assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none());
    }

    #[test]
    fn a_dead_holder_on_this_host_is_stale() {
        let dir = tempfile::tempdir().unwrap();
        let me = Holder::this_process(|_| None);
        let dead = Claimer::with_holder(dir.path(), holder(&me.host, dead_pid(), ""), LEASE);
        assert_eq!(dead.claim("u").unwrap(), None);
        std::mem::forget(dead); // as if killed: the claim stays
        let live = Claimer::with_holder(dir.path(), me, LEASE);
        assert_eq!(live.claim("u").unwrap(), None);
    }

    #[test]
    fn a_live_holder_elsewhere_is_busy_until_its_lease_runs_out() {
        let dir = tempfile::tempdir().unwrap();
        let other = Claimer::with_holder(dir.path(), holder("far", 1, ""), LEASE);
        assert_eq!(other.claim("u").unwrap(), None);
        std::mem::forget(other); // no heartbeat from now on
        let me = Holder::this_process(|_| None);
        let patient = Claimer::with_holder(dir.path(), me.clone(), LEASE);
        assert!(matches!(patient.claim("u").unwrap(), Some(Taken::Busy(_))));
        let f = std::fs::File::options()
            .append(true)
            .open(dir.path().join("claim.u"))
            .unwrap();
        f.set_modified(SystemTime::now() - Duration::from_secs(3600))
            .unwrap();
        assert_eq!(patient.claim("u").unwrap(), None);
    }

    #[test]
    fn the_heartbeat_keeps_a_claim_fresh() {
        let dir = tempfile::tempdir().unwrap();
        let lease = Duration::from_millis(400);
        let a = Claimer::with_holder(dir.path(), holder("far", 1, ""), lease);
        assert_eq!(a.claim("u").unwrap(), None);
        let b = Claimer::with_holder(dir.path(), holder("other", 2, ""), lease);
        for _ in 0..5 {
            std::thread::sleep(Duration::from_millis(200));
            assert!(matches!(b.claim("u").unwrap(), Some(Taken::Busy(_))));
        }
    }

    #[test]
    fn an_earlier_run_of_the_same_task_is_stale() {
        let dir = tempfile::tempdir().unwrap();
        let old = Claimer::with_holder(dir.path(), holder("node1", 1, "slurm 77_3"), LEASE);
        assert_eq!(old.claim("u").unwrap(), None);
        std::mem::forget(old);
        let other_task = Claimer::with_holder(dir.path(), holder("node2", 5, "slurm 77_2"), LEASE);
        assert!(matches!(
            other_task.claim("u").unwrap(),
            Some(Taken::Busy(_))
        ));
        let requeued = Claimer::with_holder(dir.path(), holder("node2", 9, "slurm 77_3"), LEASE);
        assert_eq!(requeued.claim("u").unwrap(), None);
    }

    #[test]
    fn the_result_file_of_the_word_claim_is_not_a_claim() {
        assert!(is_claim("claim.BBBBB.txt"));
        assert!(!is_claim("claim.normal.wordle.pair6"));
        assert!(!is_claim("claim.hard.wordle.max6"));
    }

    #[test]
    fn an_unreadable_claim_is_busy_while_fresh() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("claim.u"), "").unwrap();
        let c = Claimer::with_holder(dir.path(), holder("h", 1, ""), LEASE);
        assert_eq!(c.claim("u").unwrap(), Some(Taken::Busy(None)));
        let c = Claimer::with_holder(dir.path(), holder("h", 1, ""), Duration::ZERO);
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(c.claim("u").unwrap(), None);
    }

    #[test]
    fn tasks_come_from_the_scheduler() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(
            task_of(env(&[
                ("SLURM_ARRAY_JOB_ID", "77"),
                ("SLURM_ARRAY_TASK_ID", "3"),
                ("SLURM_JOB_ID", "80")
            ])),
            "slurm 77_3"
        );
        assert_eq!(task_of(env(&[("SLURM_JOB_ID", "80")])), "slurm 80");
        assert_eq!(task_of(env(&[("JOB_COMPLETION_INDEX", "0")])), "k8s 0");
        assert_eq!(task_of(env(&[])), "");
    }

    #[test]
    fn claim_files_round_trip() {
        let h = holder("vm", 42, "slurm 1_2");
        assert_eq!(Holder::parse(&h.text()), Some(h));
        assert_eq!(Holder::parse("wordle-tree claim 1\nhost vm\n"), None);
    }
}
