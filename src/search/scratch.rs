//! Scratch memory of the search: one [`Level`] of buffers per depth, the exact
//! partition-class map, the counters, and the per-solver [`Pool`] that lends them
//! out and sums the counters of every search.
//!
//! Invariants: a level's buffers are only meaningful during the state being searched at
//! that depth; the class map is valid for one state at a time (entries carry a stamp,
//! so starting a state costs nothing). Cost: about 0.6 MB per scratch for the default
//! lists, reused through the pool rather than zeroed per search.
//!
//! Memory: scratch grows with the states searched (a large state's compact table,
//! class labels and expanded labels hold `n` bytes per guess), and is kept for reuse,
//! so it is charged against the same `--memory` budget as the transposition table
//! ([`crate::search::tt::TranspositionTable::scratch`]): each level and class map
//! records what it has charged and reports the difference when it is re-measured
//! (after every state of at least [`CHARGE_MIN`] candidates, and when a scratch goes
//! back to the pool). The two buffers that grow by megabytes within one state, the
//! class labels and the compact table, are charged before they grow
//! ([`Classes::room_for_class`], [`Level::room_for_local`]), so the table evicts
//! before the bytes are allocated rather than after the state. The table then keeps
//! to what the budget leaves; scratch itself is what the search needs and is not
//! bounded (if it alone passes the limit, the table stores nothing). Measured with one
//! thread before cores (`cores.rs`, which add a few MiB: `salet` 6 -> 9): `salet` 6 MiB of scratch, `audio` 11, the poor openers `mamma
//! fuzzy jazzy` 30 to 37; `tests/memory.rs` checks the heap against the budget.

use super::cores::Cores;
use super::heap::{cap, recharge};
use super::kernels::Local;
use super::scan::KidLanes;
use super::stats::Counters;
use super::tt::TranspositionTable;
use crate::game::feedback::{Feedback, FEEDBACKS};
use crate::game::{AnswerId, GuessId};
use std::sync::atomic::AtomicUsize;
use std::sync::Mutex;

/// States of at least this many candidates re-measure their level's scratch when
/// their search ends (smaller states cannot grow a level by more than a few hundred
/// kilobytes, and are too many to measure each).
pub(super) const CHARGE_MIN: usize = 64;

/// Scratch for one depth of the search.
pub(super) struct Level {
    pub(super) counts: Vec<u32>,
    /// The feedback of each candidate to the guess being expanded (`expand.rs`).
    pub(super) feedbacks: Vec<u8>,
    /// Packed `bound << 64 | sum of squares << 17 | perfect << 16 | guess`, sorted.
    pub(super) order: Vec<u128>,
    /// The candidates, regrouped bucket by bucket for the guess being expanded.
    pub(super) buf: Vec<AnswerId>,
    /// Non-green buckets of the guess being expanded: (start, size, feedback, bound).
    pub(super) buckets: Vec<(u32, u32, Feedback, u32)>,
    /// The guesses handed to the children: one per partition class (normal mode), or
    /// every allowed guess that splits the state (hard mode).
    pub(super) allowed: Vec<GuessId>,
    /// Where each candidate's answer-major row starts.
    pub(super) offsets: Vec<usize>,
    /// `allowed` as a bitset over guess ids (normal mode), for the block scan.
    pub(super) allowed_bits: Vec<u64>,
    /// Normal mode: the partition classes of the guesses expanded at this state
    /// (hash -> start in `expanded_labels`), so an equivalent guess is not expanded
    /// twice. A map, not a list: a large state expands thousands of guesses, and a
    /// linear scan per guess made the check quadratic (38% of the time on the 384
    /// candidates of `lants:BGBBG`, big game).
    pub(super) expanded: ahash::AHashMap<u64, usize>,
    pub(super) expanded_labels: Vec<u8>,
    /// Per-lane bucket counts of a block tally (32 lanes once used; kept zero).
    pub(super) tally: Vec<[u16; 256]>,
    /// The most buckets any guess scanned here makes (`usize::MAX` if unknown): the
    /// children's split bound rests on it, so it starts unknown, never 0.
    pub(super) max_split: usize,
    /// Per-pattern counts of the group bound (kept zero).
    pub(super) group_counts: Vec<u16>,
    /// Per-pattern letter masks of the groups' demands (kept zero), and the demands
    /// of this state's groups on its guesses (`Groups::demands`).
    pub(super) group_masks: Vec<u32>,
    pub(super) demands: Vec<(u32, u32)>,
    /// The size of the largest group among the state's candidates when
    /// [`super::Solver::prepare_demands`] counted them (`u32::MAX`: not counted): no
    /// bucket of a guess holds a larger one, so a bucket whose group bound could not
    /// beat its bound even with a group this large skips the count.
    pub(super) group_cap: u32,
    /// The compact table handed to the children with `allowed`, when `has_local`
    /// (normal mode); in hard mode the children's pre-scan table, when `kids_ready`.
    pub(super) local: Local,
    pub(super) has_local: bool,
    /// Hard mode: this state's own compact table of the guesses it may play (lent out
    /// while the state is scanned; see `scan/`).
    pub(super) own: Local,
    /// Whether `own` holds the table of the state being searched at this depth (hard
    /// mode): its children read it through `Guesses::local`.
    pub(super) own_ready: bool,
    /// Hard mode: whether `local` holds this state's table for its children's
    /// pre-scans (the guesses it may play, by cap; `Guesses::sorted`).
    pub(super) kids_ready: bool,
    /// Hard mode, with `kids_ready`: the children's pre-scans' view of `local`'s
    /// lanes (their demand sets, the lanes handed down, their shapes).
    pub(super) kids: KidLanes,
    /// Hard mode, when the state reads its parent's own table: a bit per lane
    /// of that table, the lanes whose guesses this state may play.
    pub(super) lane_bits: Vec<u64>,
    /// Whether `allowed` (and `allowed_bits`, `local`) hold the classes of the state
    /// being searched at this depth: [`crate::search::Solver::classify`] runs only once a guess
    /// survives its bucket bounds, so a state whose guesses all fall to their bounds
    /// never classifies.
    pub(super) classified: bool,
    /// Where each candidate starts in the parent's compact table, when it has one.
    pub(super) local_offsets: Vec<usize>,
    /// Hard mode: the guesses this state may play among those handed down, as a
    /// bitset over guess ids, when they are dense enough for the block scan.
    pub(super) scan_bits: Vec<u64>,
    /// Per guess, its strength key at this state (`classify`: bound, then sum of
    /// squares; `u64::MAX` when the scan dropped it).
    pub(super) strength: Vec<u64>,
    /// Per guess, the most buckets it can make on this state (a scan of at least
    /// `local_min` candidates records them for [`Local::caps`]).
    pub(super) caps: Vec<u16>,
    /// The guesses of `local`, in lane order (strongest first).
    pub(super) lanes: Vec<GuessId>,
    /// Hard mode: the members of `scan_bits`, when they are scanned one at a time or
    /// through `own` (its lanes).
    pub(super) scan_list: Vec<GuessId>,
    /// Bytes of this level last charged against the memory budget.
    charged: usize,
}

impl Level {
    /// Heap bytes held by this level's buffers.
    pub(super) fn bytes(&self) -> usize {
        cap(&self.counts)
            + cap(&self.feedbacks)
            + cap(&self.order)
            + cap(&self.buf)
            + cap(&self.buckets)
            + cap(&self.allowed)
            + cap(&self.offsets)
            + cap(&self.allowed_bits)
            + self.expanded.capacity() * (std::mem::size_of::<(u64, usize)>() + 1)
            + cap(&self.expanded_labels)
            + cap(&self.tally)
            + cap(&self.group_counts)
            + cap(&self.group_masks)
            + cap(&self.demands)
            + self.local.bytes()
            + self.own.bytes()
            + self.kids.bytes()
            + cap(&self.local_offsets)
            + cap(&self.scan_bits)
            + cap(&self.strength)
            + cap(&self.caps)
            + cap(&self.lanes)
            + cap(&self.scan_list)
            + cap(&self.lane_bits)
    }

    /// Re-measures this level and moves its charge on `meter` to match.
    pub(super) fn charge(&mut self, meter: &AtomicUsize) {
        self.charge_with(|charged, now| recharge(meter, charged, now));
    }

    /// Re-measures this level and hands `charge` what it last charged and its bytes
    /// now (to move the charge: `TranspositionTable::charge_scratch` during a search,
    /// so growth past the limit evicts at once).
    pub(super) fn charge_with(&mut self, charge: impl FnOnce(&mut usize, usize)) {
        let now = self.bytes();
        charge(&mut self.charged, now);
    }

    /// Before a compact table of `rows` rows of `lanes` lanes is built: when the
    /// table's buffer must grow, the growth (doubling, at least to the size needed)
    /// is charged first, so the transposition table makes room before the bytes are
    /// allocated.
    pub(super) fn room_for_local(&mut self, rows: usize, lanes: usize, tt: &TranspositionTable) {
        let need = rows * lanes.div_ceil(super::kernels::LANES) * super::kernels::LANES;
        let have = self.local.table.bytes.capacity();
        if need > have {
            let new = need.max(2 * have);
            let now = self.bytes() - have + new;
            tt.charge_scratch(&mut self.charged, now);
            self.local.reserve(new);
        }
    }
}

impl Default for Level {
    fn default() -> Level {
        Level {
            counts: Vec::new(),
            feedbacks: Vec::new(),
            order: Vec::new(),
            buf: Vec::new(),
            buckets: Vec::new(),
            allowed: Vec::new(),
            offsets: Vec::new(),
            allowed_bits: Vec::new(),
            expanded: ahash::AHashMap::new(),
            expanded_labels: Vec::new(),
            tally: Vec::new(),
            max_split: usize::MAX,
            group_counts: Vec::new(),
            group_masks: Vec::new(),
            demands: Vec::new(),
            group_cap: u32::MAX,
            local: Local::default(),
            has_local: false,
            own: Local::default(),
            own_ready: false,
            kids_ready: false,
            kids: KidLanes::default(),
            lane_bits: Vec::new(),
            classified: false,
            local_offsets: Vec::new(),
            scan_bits: Vec::new(),
            strength: Vec::new(),
            caps: Vec::new(),
            lanes: Vec::new(),
            scan_list: Vec::new(),
            charged: 0,
        }
    }
}

/// Exact partition classes of the guesses scanned at one state: an open-addressing
/// map from a hash of the canonical labels (bucket numbers in order of first
/// appearance) to the stored labels of the first guess of the class. Entries are
/// tagged with a stamp per state, so starting a state costs nothing.
pub(super) struct Classes {
    pub(super) slots: Vec<(u32, u32, u64)>,
    pub(super) stamp: u32,
    pub(super) labels: Vec<u8>,
    /// Labels of the guess being scanned.
    pub(super) current: Vec<u8>,
    pub(super) n: usize,
    /// Hard mode: the guess classes ([`crate::game::hard::class_of`]) handed down so
    /// far at the state being classified (at most one entry per guess).
    pub(super) hard_seen: ahash::AHashSet<u32>,
    /// Bytes of this map last charged against the memory budget.
    charged: usize,
}

impl Classes {
    pub(super) fn new(n_guesses: usize) -> Classes {
        Classes {
            slots: vec![(0, 0, 0); (2 * n_guesses).next_power_of_two().max(64)],
            stamp: 0,
            labels: Vec::new(),
            current: Vec::new(),
            n: 0,
            hard_seen: ahash::AHashSet::default(),
            charged: 0,
        }
    }

    /// Re-measures this map and moves its charge on `meter` to match.
    pub(super) fn charge(&mut self, meter: &AtomicUsize) {
        self.charge_with(|charged, now| recharge(meter, charged, now));
    }

    /// As [`Level::charge_with`], for this map.
    pub(super) fn charge_with(&mut self, charge: impl FnOnce(&mut usize, usize)) {
        let now = cap(&self.slots) + cap(&self.labels) + cap(&self.current) + self.seen_bytes();
        charge(&mut self.charged, now);
    }

    /// Before one more class is recorded: when the labels are full, their growth
    /// (doubling) is charged first, so the transposition table makes room before the
    /// bytes are allocated (the labels of a large state reach megabytes).
    fn room_for_class(&mut self, tt: &TranspositionTable) {
        let (len, have) = (self.labels.len(), self.labels.capacity());
        if len + self.n > have {
            let new = (len + self.n).max(2 * have);
            let now = cap(&self.slots) + new + cap(&self.current) + self.seen_bytes();
            tt.charge_scratch(&mut self.charged, now);
            self.labels.reserve_exact(new - len);
        }
    }

    /// Bytes held by `hard_seen` (a key and a control byte per slot).
    fn seen_bytes(&self) -> usize {
        self.hard_seen.capacity() * (std::mem::size_of::<u32>() + 1)
    }

    pub(super) fn begin(&mut self, n: usize) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.slots.fill((0, 0, 0));
            self.stamp = 1;
        }
        self.labels.clear();
        self.current.clear();
        self.current.resize(n, 0);
        self.n = n;
    }

    /// True when the labels in `current` (hash `hash`) equal an earlier class of this
    /// state; otherwise records them as a new class (its growth charged to `tt` first).
    pub(super) fn seen(&mut self, hash: u64, tt: &TranspositionTable) -> bool {
        let mask = self.slots.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            let (stamp, rep, h) = self.slots[i];
            if stamp != self.stamp {
                self.room_for_class(tt);
                let rep = (self.labels.len() / self.n.max(1)) as u32;
                self.labels.extend_from_slice(&self.current);
                self.slots[i] = (self.stamp, rep, hash);
                return false;
            }
            let start = rep as usize * self.n;
            if h == hash && self.labels[start..start + self.n] == self.current[..] {
                return true;
            }
            i = (i + 1) & mask;
        }
    }
}

/// The scratch buffers not in use, and the counters of every search so far.
pub(super) struct Pool {
    free: Mutex<Vec<Scratch>>,
    totals: Mutex<Counters>,
    n_guesses: usize,
}

impl Pool {
    pub(super) fn new(n_guesses: usize) -> Pool {
        Pool {
            free: Mutex::new(Vec::new()),
            totals: Mutex::new(Counters::default()),
            n_guesses,
        }
    }

    /// A scratch from the pool (or a new one) with a level for each of `left` guesses;
    /// it goes back, and its counters into the totals, when the guard drops. A fresh
    /// scratch costs about 0.6 MB of zeroing, and `build` runs one search per tree
    /// node: reusing them took `check --opener salet --max-guesses 5` from 0.42 s to
    /// 0.25 s of CPU.
    pub(super) fn lend<'p>(&'p self, left: u8, meter: &'p AtomicUsize) -> PooledScratch<'p> {
        let mut sc = self.free.lock().unwrap().pop().unwrap_or_else(|| Scratch {
            levels: Vec::new(),
            classes: Classes::new(self.n_guesses),
            cores: Cores::default(),
            ctr: Counters::default(),
        });
        // A search `left` deep uses `left` levels (a state with one guess left does
        // not recurse); callers may ask for more guesses than `max_guesses`.
        while sc.levels.len() < left as usize + 1 {
            sc.levels.push(Level {
                counts: vec![0; FEEDBACKS],
                ..Level::default()
            });
        }
        PooledScratch {
            pool: self,
            meter,
            sc: Some(sc),
        }
    }

    /// Counters summed over every search so far.
    pub(super) fn totals(&self) -> Counters {
        *self.totals.lock().unwrap()
    }
}

/// A [`Scratch`] borrowed from a [`Pool`], returned on drop.
pub(super) struct PooledScratch<'p> {
    pool: &'p Pool,
    /// Where the scratch's bytes are charged (the transposition table's budget).
    meter: &'p AtomicUsize,
    sc: Option<Scratch>,
}

impl std::ops::Deref for PooledScratch<'_> {
    type Target = Scratch;
    fn deref(&self) -> &Scratch {
        self.sc.as_ref().expect("present until drop")
    }
}

impl std::ops::DerefMut for PooledScratch<'_> {
    fn deref_mut(&mut self) -> &mut Scratch {
        self.sc.as_mut().expect("present until drop")
    }
}

impl Drop for PooledScratch<'_> {
    fn drop(&mut self) {
        if let Some(mut sc) = self.sc.take() {
            sc.charge(self.meter);
            *self.pool.totals.lock().unwrap() += std::mem::take(&mut sc.ctr);
            self.pool.free.lock().unwrap().push(sc);
        }
    }
}

/// A worker's scratch: one [`Level`] per depth, the class map and its counters.
pub(super) struct Scratch {
    pub(super) levels: Vec<Level>,
    classes: Classes,
    cores: Cores,
    ctr: Counters,
}

impl Scratch {
    /// Re-measures every level and the class map onto `meter`.
    fn charge(&mut self, meter: &AtomicUsize) {
        for level in &mut self.levels {
            level.charge(meter);
        }
        self.classes.charge(meter);
        self.cores.charge(meter);
    }

    /// The levels, the class map and the counters, to lend as one search's work.
    pub(super) fn parts(&mut self) -> (&mut [Level], &mut Classes, &mut Cores, &mut Counters) {
        (
            &mut self.levels,
            &mut self.classes,
            &mut self.cores,
            &mut self.ctr,
        )
    }
}
