//! The transposition table: proved facts about states, shared by all threads.
//!
//! Key: the full sorted candidate list, the guesses left, and (hard mode) the
//! revealed-letter key. The map is indexed by a 64-bit hash of that key, but every
//! entry keeps its full key and a probe compares it, so a hash collision can never
//! corrupt a proof. Values are [`Bound::Exact`] (with the best guess) or
//! [`Bound::Lower`].
//!
//! Memory: each entry is charged its candidate list plus a fixed overhead; the
//! searches' scratch (`scratch.rs`) is charged to the same limit through
//! `TranspositionTable::scratch`, so the table keeps to what scratch leaves of it.
//! When the total passes the limit, entries with few candidates (cheap to recompute)
//! are evicted first, then everything; an entry larger than the room left is not
//! stored at all. Large scratch buffers are charged before they grow
//! (`TranspositionTable::charge_scratch` evicts at once; the re-measure after a
//! large state's expansion goes the same way), and an eviction gives
//! back the map's slot arrays, so the heap stays within the limit (`tests/memory.rs`;
//! performance.md, "`solve` of an opener that cannot finish"). Guards are never held
//! across a call out of this module: values are copied out (deadlock rule for dashmap
//! under rayon).

use crate::game::{AnswerId, GuessId};
use dashmap::DashMap;
use std::hash::{BuildHasher, Hash, Hasher};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// What is proved about a state's cost.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The cost is exactly this, reached by this guess.
    Exact(u32, GuessId),
    /// The cost is at least this.
    Lower(u32),
}

/// What a state is stored under: its full key.
#[derive(Clone, Copy, Debug)]
pub struct Key<'k> {
    /// The candidates, sorted.
    pub ids: &'k [AnswerId],
    /// Guesses left.
    pub left: u8,
    /// What hard mode revealed ([`crate::game::hard::Revealed::key`]; 0 in normal mode).
    pub hard: u128,
}

struct Entry {
    ids: Box<[AnswerId]>,
    left: u8,
    hard_key: u128,
    bound: Bound,
}

impl Entry {
    /// True when this is the entry of `key`.
    fn is(&self, key: &Key) -> bool {
        self.left == key.left
            && self.hard_key == key.hard
            && AnswerId::raw(&self.ids) == AnswerId::raw(key.ids)
    }
}

/// The entries stored under one hash, in the map's slot: nearly always one (two keys
/// share a 64-bit hash very rarely), held in the slot itself, so that a probe that
/// finds its hash reads the entry in the same place, not through a pointer to a
/// `Vec` of its own. That pointer was one of a probe's three dependent cache misses
/// (`perf` of NYT 2023 hard `sense`, where probes were 13% of the run: 21% of the
/// probe's samples on the entry's load, 31% on the slot's, 38% on the control bytes).
enum Slot {
    One(Entry),
    Many(Vec<Entry>),
}

impl Slot {
    fn entries(&self) -> &[Entry] {
        match self {
            Slot::One(e) => std::slice::from_ref(e),
            Slot::Many(v) => v,
        }
    }

    fn entries_mut(&mut self) -> &mut [Entry] {
        match self {
            Slot::One(e) => std::slice::from_mut(e),
            Slot::Many(v) => v,
        }
    }

    /// Adds an entry of another key with the same hash.
    fn push(&mut self, entry: Entry) {
        *self = match std::mem::replace(self, Slot::Many(Vec::new())) {
            Slot::One(first) => Slot::Many(vec![first, entry]),
            Slot::Many(mut v) => {
                v.push(entry);
                Slot::Many(v)
            }
        };
    }

    /// Keeps the entries `keep` accepts; false when none is left.
    fn retain(&mut self, keep: impl Fn(&Entry) -> bool) -> bool {
        match self {
            Slot::One(e) => keep(e),
            Slot::Many(v) => {
                v.retain(|e| keep(e));
                !v.is_empty()
            }
        }
    }
}

/// Bytes charged per entry beyond its ids: the map slot (a hash and the entry held
/// in it, a `Slot`: 64 bytes, up to twice that with the hash table's spare capacity
/// just after it doubles), the ids' allocator header, and slack. Until session 43 the
/// slot held a `Vec` of capacity 1 (a plain push would allocate room for 4: 192
/// bytes, which made a `check --opener any --min-over 4` sweep with `--memory 2048`
/// peak at 3.36 GB resident), and glibc measured about `135 + 2 x ids` resident bytes
/// per entry, at most about `162 + 2 x ids` just after the table doubles; the charge
/// was kept when the entry moved into the slot, so the table evicts at the same
/// points as before. `tests/memory.rs` checks the heap bytes against the charge.
pub const ENTRY_OVERHEAD: usize = 176;

/// The bytes an entry of `ids` candidates is charged: [`ENTRY_OVERHEAD`] and its ids.
fn charge(ids: usize) -> usize {
    ENTRY_OVERHEAD + 2 * ids
}

/// The transposition table (this module's doc).
pub struct TranspositionTable {
    map: DashMap<u64, Slot, ahash::RandomState>,
    hasher: ahash::RandomState,
    bytes: AtomicUsize,
    /// Bytes of the searches' scratch, charged against the same limit.
    scratch: AtomicUsize,
    limit: usize,
    enabled: bool,
}

impl TranspositionTable {
    /// A transposition table holding at most about `limit` bytes; `enabled = false` makes every
    /// probe miss and every store a no-op (for the on == off tests).
    pub fn new(limit: usize, enabled: bool) -> TranspositionTable {
        let seeds = ahash::RandomState::with_seeds(1, 2, 3, 4);
        TranspositionTable {
            map: DashMap::with_hasher(seeds.clone()),
            hasher: seeds,
            bytes: AtomicUsize::new(0),
            scratch: AtomicUsize::new(0),
            limit,
            enabled,
        }
    }

    /// One table for `workers` solvers (on as many threads) that would each have had
    /// a table of `share` bytes: the same memory in all, and every fact one worker
    /// proves is there for the others ([`crate::search::Solver::sharing`]).
    pub fn shared(share: usize, workers: usize, enabled: bool) -> Arc<TranspositionTable> {
        Arc::new(TranspositionTable::new(share * workers.max(1), enabled))
    }

    fn hash(&self, key: &Key) -> u64 {
        let mut h = self.hasher.build_hasher();
        AnswerId::raw(key.ids).hash(&mut h);
        key.left.hash(&mut h);
        key.hard.hash(&mut h);
        h.finish()
    }

    pub fn probe(&self, key: &Key) -> Option<Bound> {
        if !self.enabled {
            return None;
        }
        let slot = self.map.get(&self.hash(key))?;
        let found = slot.entries().iter().find(|e| e.is(key)).map(|e| e.bound);
        drop(slot);
        found
    }

    /// Where the searches charge their scratch bytes against this table's limit.
    pub(crate) fn scratch(&self) -> &AtomicUsize {
        &self.scratch
    }

    /// Scratch bytes charged.
    pub fn scratch_bytes(&self) -> usize {
        self.scratch.load(Ordering::Relaxed)
    }

    /// Moves a scratch buffer's charge (kept by its owner in `charged`) to `now`
    /// bytes. When the scratch grows past what the limit leaves the entries, they are
    /// evicted now, not at the next store: a buffer charged before it grows
    /// (`Classes::room_for_class` in `scratch.rs`) then never sits on top of a full
    /// table.
    pub(crate) fn charge_scratch(&self, charged: &mut usize, now: usize) {
        let grew = now > *charged;
        super::heap::recharge(&self.scratch, charged, now);
        if grew && self.bytes() > self.room() {
            self.evict();
        }
    }

    /// What the limit leaves for entries once scratch is charged.
    fn room(&self) -> usize {
        self.limit.saturating_sub(self.scratch_bytes())
    }

    /// Records `bound`. An exact value replaces anything; a lower bound replaces only a
    /// weaker lower bound.
    pub fn store(&self, key: &Key, bound: Bound) {
        let added = charge(key.ids.len());
        if !self.enabled || added > self.room() {
            return;
        }
        let h = self.hash(key);
        let Key {
            ids,
            left,
            hard: hard_key,
        } = *key;
        let entry = || Entry {
            ids: ids.into(),
            left,
            hard_key,
            bound,
        };
        let new = match self.map.entry(h) {
            dashmap::Entry::Vacant(v) => {
                v.insert(Slot::One(entry()));
                true
            }
            dashmap::Entry::Occupied(mut o) => {
                let slot = o.get_mut();
                match slot.entries_mut().iter_mut().find(|e| e.is(key)) {
                    Some(e) => {
                        match (e.bound, bound) {
                            (Bound::Exact(..), _) => {}
                            (Bound::Lower(old), Bound::Lower(new)) if old >= new => {}
                            _ => e.bound = bound,
                        }
                        false
                    }
                    None => {
                        slot.push(entry());
                        true
                    }
                }
            }
        };
        if new && self.bytes.fetch_add(added, Ordering::Relaxed) + added > self.room() {
            self.evict();
        }
    }

    /// Frees memory: drops entries of up to 8 candidates, then, if that was not
    /// enough to get under half the room scratch leaves, everything.
    fn evict(&self) {
        self.map.retain(|_, slot| slot.retain(|e| e.ids.len() > 8));
        let mut bytes: usize = self
            .map
            .iter()
            .map(|b| {
                b.entries()
                    .iter()
                    .map(|e| charge(e.ids.len()))
                    .sum::<usize>()
            })
            .sum();
        if bytes > self.room() / 2 {
            self.map.clear();
            bytes = 0;
        }
        // The map keeps the slot arrays of the most entries it held, which the
        // per-entry charge no longer covers: give them back.
        self.map.shrink_to_fit();
        self.bytes.store(bytes, Ordering::Relaxed);
    }

    pub fn len(&self) -> usize {
        self.map.iter().map(|b| b.entries().len()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Approximate bytes held.
    pub fn bytes(&self) -> usize {
        self.bytes.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a<const N: usize>(ids: [u16; N]) -> [AnswerId; N] {
        ids.map(AnswerId)
    }

    fn key(ids: &[AnswerId], left: u8, hard: u128) -> Key<'_> {
        Key { ids, left, hard }
    }

    #[test]
    fn full_key_is_compared() {
        let t = TranspositionTable::new(1 << 20, true);
        t.store(&key(&a([1, 2, 3]), 4, 0), Bound::Exact(6, GuessId(1)));
        assert_eq!(
            t.probe(&key(&a([1, 2, 3]), 4, 0)),
            Some(Bound::Exact(6, GuessId(1)))
        );
        assert_eq!(t.probe(&key(&a([1, 2, 3]), 3, 0)), None);
        assert_eq!(t.probe(&key(&a([1, 2, 4]), 4, 0)), None);
        assert_eq!(t.probe(&key(&a([1, 2, 3]), 4, 7)), None);
    }

    #[test]
    fn exact_is_never_weakened() {
        let t = TranspositionTable::new(1 << 20, true);
        t.store(&key(&a([1, 2, 3]), 4, 0), Bound::Lower(5));
        t.store(&key(&a([1, 2, 3]), 4, 0), Bound::Lower(4));
        assert_eq!(t.probe(&key(&a([1, 2, 3]), 4, 0)), Some(Bound::Lower(5)));
        t.store(&key(&a([1, 2, 3]), 4, 0), Bound::Exact(6, GuessId(2)));
        t.store(&key(&a([1, 2, 3]), 4, 0), Bound::Lower(7));
        assert_eq!(
            t.probe(&key(&a([1, 2, 3]), 4, 0)),
            Some(Bound::Exact(6, GuessId(2)))
        );
    }

    /// Keys that share a hash share a slot: each is found, updated and evicted on
    /// its own.
    #[test]
    fn a_slot_holds_keys_of_one_hash() {
        let entry = |ids: &[u16], bound| Entry {
            ids: ids.iter().map(|&i| AnswerId(i)).collect(),
            left: 3,
            hard_key: 0,
            bound,
        };
        let mut slot = Slot::One(entry(&[1, 2, 3], Bound::Lower(5)));
        slot.push(entry(&[1, 2, 3, 4, 5, 6, 7, 8, 9], Bound::Lower(7)));
        slot.push(entry(&[4, 5, 6], Bound::Exact(6, GuessId(1))));
        let find = |slot: &Slot, ids: &[AnswerId]| {
            slot.entries()
                .iter()
                .find(|e| e.is(&key(ids, 3, 0)))
                .map(|e| e.bound)
        };
        assert_eq!(find(&slot, &a([1, 2, 3])), Some(Bound::Lower(5)));
        assert_eq!(
            find(&slot, &a([4, 5, 6])),
            Some(Bound::Exact(6, GuessId(1)))
        );
        assert_eq!(find(&slot, &a([4, 5, 7])), None);
        assert!(slot.retain(|e| e.ids.len() > 8));
        assert_eq!(slot.entries().len(), 1);
        assert_eq!(
            find(&slot, &a([1, 2, 3, 4, 5, 6, 7, 8, 9])),
            Some(Bound::Lower(7))
        );
        assert!(!slot.retain(|_| false));
        let mut one = Slot::One(entry(&[1, 2, 3], Bound::Lower(5)));
        assert!(!one.retain(|e| e.ids.len() > 8));
        // What `ENTRY_OVERHEAD` counts for the map's slot.
        assert!(std::mem::size_of::<(u64, Slot)>() <= 64);
    }

    #[test]
    fn eviction_keeps_memory_bounded() {
        let t = TranspositionTable::new(4096, true);
        for i in 0..1000u16 {
            t.store(&key(&a([i, i + 1, i + 2]), 3, 0), Bound::Lower(5));
        }
        assert!(t.bytes() <= 4096 + ENTRY_OVERHEAD + 6);
    }
}
