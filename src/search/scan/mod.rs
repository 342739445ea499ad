//! Per-state scanning: everything the search learns about a state before expanding a
//! guess. Closed forms and the transposition table, the candidates' perfect-split check, the bound of
//! every guess (normal mode 32 at a time: by pairwise comparison for small states,
//! per-lane masks of the feedbacks seen for states of up to 255 candidates (on every
//! SIMD path, so every path searches the same states), per-lane bucket counts above
//! (but a bucket's pre-scan, which orders nothing, takes the masks at any size);
//! hard mode the same way over the guesses the state may play, found by bitset
//! intersections and copied into a compact table of the state's own, or one at a
//! time when they are very few), and the exact partition
//! classes handed to the children (hard mode: the playable guesses that split), with
//! their compact table in order of the most buckets each makes here (its cap). The
//! least-bound scan of the bucket pre-scans ([`Solver::least_bound`]) wants only the
//! least bound of a state's guesses: it drops a guess once it cannot beat the least
//! so far and stops at the first block of the parent's table whose cap cannot; a
//! guess that the candidates' letters cap under that (`letters.rs`) it does not read
//! (normal mode: windows of the lanes left, except on the AVX-512 path).
//!
//! Files: `head.rs` (closed forms, the table, the candidates' split, two guesses
//! left), `letters.rs` (the most buckets a guess can make from the candidates'
//! letters alone, which drops guesses before the kernels read them), this one (the entry points, hard mode's lanes and its children's table),
//! `guesses.rs` (step 2b, [`Solver::scan_guesses`]: the guesses' bounds, the plan of the scan, the blocks of the kernel
//! the state takes and the guesses one at a time, each split taken into the bounds,
//! what the scan proved), `classify.rs` (what the children are handed), `tests.rs`.
//!
//! Invariants: a scan never expands a guess; every bound it reports is admissible
//! (`bound.rs`); a guess is dropped only when its bound reaches the cutoff (the block
//! paths keep exactly the guesses the scalar scan keeps, tested), or in a least-bound
//! scan the least bound found before it; a cap is at least the buckets its guess
//! makes on any subset of the state (tested); the guesses it hands down contain one
//! guess of every partition class of the state (or every guess), so no child loses a
//! move.

mod classify;
mod guesses;
mod head;
pub(super) mod letters;

use super::bits::members;
use super::kernels::{Local, PRESENCE_MAX_N};
use super::scratch::Level;
use super::state::{State, Work};
use super::Solver;
use crate::game::feedback::Feedback;
use crate::game::hard::{Demand, DemandSets};
use crate::game::{AnswerId, GuessId};

/// What [`Solver::scan`] leaves for the expansion step.
pub(super) struct Prepared {
    /// Counted candidates (penalty objectives).
    pub(super) w: u32,
    /// The state's lower bound.
    pub(super) lb: u32,
    /// The best perfect split found, with its exact cost.
    pub(super) incumbent: (u32, Option<GuessId>),
    /// The least bound of the guesses left out of `order`.
    pub(super) rejected: u32,
    pub(super) hard_key: u128,
}

/// What [`Solver::scan_head`] learned of a state it did not settle.
#[derive(Clone, Copy)]
pub(super) struct Head {
    /// Counted candidates (penalty objectives).
    pub(super) w: u32,
    /// The state's lower bound so far.
    pub(super) lb: u32,
    pub(super) left: u8,
    pub(super) hard_key: u128,
}

/// Hard mode scans a state's guesses 32 at a time, like normal mode, when it has at
/// least this many candidates and may play at least one guess in
/// [`HARD_BLOCK_DENSITY`] of all; otherwise one guess at a time, with early rejection.
/// The block kernels pay for every lane of a block, yet even sparse blocks beat the
/// one-at-a-time scan. Measured (NYT hard, one thread, `amino mikan terfe colon
/// syncs`): 23.7 CPU-s with at least 8 candidates and 1 in 4, 20.9 with 4 and 1 in
/// 1000; `syncs` alone: 16.2 before the block scan in hard mode, then 9.1 (8 and 1 in
/// 4), about 8 (4 and 1 in 1000, or always).
const HARD_BLOCK_MIN: usize = 4;
const HARD_BLOCK_DENSITY: usize = 1000;

/// Hard mode: states of at least this many candidates (up to
/// `PRESENCE_MAX_N`) copy the guesses they may play into a compact table of their
/// own (`Level::own`, `n * playable` bytes) and scan that, 32 guesses at a time with
/// every lane a playable guess. Scanning the full table instead paid for every lane
/// of each block holding a playable guess: 4.2 lanes per playable guess at states of
/// 23 to 64 candidates, 8.2 at 22 or fewer (NYT hard `botty`). Measured (one
/// thread): `botty` 9.2 -> 6.4 s (from 23 candidates 6.9, from 40 9.0, from 4 or 8
/// about 6.6; sparse sets too, not only those dense enough for the full table's
/// blocks, another 5%); farm-bench, NYT hard `nyong botty vivos cheth`, `openers
/// --exact`: 47.4 -> 31.8 CPU-s (A/B 1.49), same results. (A compact table built by
/// the parent over its playable guesses, for all its children, was no faster: a
/// child's playable guesses are a sparse subset of the parent's.)
///
/// A state whose parent has such a table packs its own from the parent's rows
/// (`Local::build_masked`: shorter rows, just read by the parent's scan), else from
/// the full table. Tried and dropped: scanning the parent's table in place, its lanes
/// masked to the state's playable guesses, when they are at least half of them (A/B
/// 0.99, no gain). A bucket pre-scan (`expand.rs`) instead reads its parent's table of
/// guesses by cap in place (`HARD_KIDS_MAX`).
pub const HARD_OWN_MIN: usize = 8;

/// Hard mode: a state whose buckets are pre-scanned (`expand.rs`, at least
/// `prescan_left` guesses left) and that has at most this many candidates builds, after
/// its scan, one compact table of the guesses it may play, most buckets first, for
/// its buckets' pre-scans to read in place. Above it (the root of the 12972-answer
/// game would copy 168 MB) its buckets pack tables of their own.
const HARD_KIDS_MAX: usize = 4096;

pub(super) enum Scanned {
    Done(u32, Option<GuessId>),
    Expand(Prepared),
    /// A [`Solver::least_bound`] scan stopped once some guess's bound fell to its
    /// floor: a valid lower bound of the state (the head's), no more.
    Below(u32),
}

/// Makes `order[..=k]` the `k + 1` least keys in order, given that `order[..*sorted]`
/// already is (`*sorted > k` means nothing to do). Sorts in growing chunks, so a state
/// whose loop stops after a few guesses (the usual case: the next bound reaches the
/// best cost) never sorts the rest. A full sort of every state's keys was a fifth of
/// an off-tree solve (`trace:BYBBY`).
#[inline]
pub(super) fn sorted_prefix(order: &mut [u128], k: usize, sorted: &mut usize) {
    if k < *sorted {
        return;
    }
    let rest = &mut order[k..];
    let chunk = k.max(16).min(rest.len());
    if chunk < rest.len() {
        rest.select_nth_unstable(chunk - 1);
    }
    rest[..chunk].sort_unstable();
    *sorted = k + chunk;
}

pub(super) fn row_has_green(row: &[u8], ids: &[AnswerId]) -> bool {
    ids.iter().any(|&a| row[a.index()] == Feedback::ALL_GREEN.0)
}

/// Hard mode: what the pre-scans of a state's children read besides its table by cap
/// (`Level::local`, lanes in order of their caps, with their shapes for the letter
/// caps), a lane each: the lanes' guesses as demand sets and the lanes the state
/// hands down. A child's playable lanes are then a few ANDs per word of 64 lanes
/// ([`KidLanes::playable`]), where a bit per lane was gathered from the child's
/// playable guesses by id (`playable_lanes`: with the letter caps' lookups by guess
/// id, about 6% of the 2023 hard sample's time on the AVX2 path).
#[derive(Clone, Default)]
pub(in crate::search) struct KidLanes {
    /// Bit `j`: lane `j`'s guess holds the letter (or the letter in place).
    demands: DemandSets,
    /// What the state itself demands: every lane's guess meets it.
    base: Demand,
    /// Bit `j`: lane `j`'s guess is handed down (one per class, `classify.rs`).
    handed: Vec<u64>,
}

impl KidLanes {
    /// Heap bytes held.
    pub(in crate::search) fn bytes(&self) -> usize {
        self.demands.bytes() + self.handed.capacity() * 8
    }

    /// Word `w` of the lanes a child whose history demands `beyond` past the state's
    /// own demand ([`Demand::beyond`]) may play, among those handed down.
    #[inline]
    pub(super) fn playable(&self, beyond: &Demand, w: usize) -> u64 {
        self.handed[w] & self.demands.allowed_word(beyond, w)
    }

    /// The lanes handed down, from the state's classes (`allowed`, a bitset by guess
    /// id) over the table's lanes `lanes`.
    pub(in crate::search) fn hand(&mut self, lanes: &[GuessId], allowed: &[u64]) {
        self.handed.clear();
        self.handed.resize(lanes.len().div_ceil(64).max(1), 0);
        for (j, g) in lanes.iter().enumerate() {
            let gi = g.index();
            self.handed[j / 64] |= (allowed[gi / 64] >> (gi % 64) & 1) << (j % 64);
        }
    }
}

/// Word `w` of the bitset of the lanes of a compact table (guesses `guesses`) whose
/// guesses are set in `playable` (a bitset by guess id).
fn playable_lanes(guesses: &[GuessId], playable: &[u64], w: usize) -> u64 {
    let lanes = guesses.get(64 * w..).unwrap_or(&[]);
    let mut word = 0u64;
    for (k, g) in lanes.iter().take(64).enumerate() {
        let gi = g.index();
        word |= (playable[gi / 64] >> (gi % 64) & 1) << k;
    }
    word
}

impl Solver<'_> {
    /// Steps 1 and 2 of [`Solver::search`]: closed forms, the transposition table, and the scan. Either
    /// settles the state, or leaves the guesses to expand in `level.order`, unsorted
    /// (see [`sorted_prefix`]).
    pub(super) fn scan(&self, st: &State, cutoff: u32, work: &mut Work) -> Scanned {
        match self.scan_head(st, cutoff, work) {
            Ok(head) => self.scan_guesses(st, cutoff, head, None, work),
            Err(done) => done,
        }
    }

    /// The state's lower bound from a scan (the least bound of its guesses, capped at
    /// `cutoff`, or what the head proves), when it is above `floor`; otherwise some
    /// lower bound at most `floor` or the head's. For the bucket pre-scans
    /// (`expand.rs`), which only read the bound: the scan drops a guess as soon as its
    /// repeats show it cannot beat the least bound found so far (not only the cutoff),
    /// and stops once the least bound is down to `floor`, where it could raise
    /// nothing. The bound is the same as [`Solver::scan`]'s when above `floor`: every
    /// guess dropped early has a bound of at least the least found before it.
    pub(super) fn least_bound(&self, st: &State, cutoff: u32, floor: u32, work: &mut Work) -> u32 {
        let scanned = match self.scan_head(st, cutoff, work) {
            Ok(head) => self.scan_guesses(st, cutoff, head, Some(floor), work),
            Err(done) => done,
        };
        match scanned {
            Scanned::Done(v, _) | Scanned::Below(v) => v,
            Scanned::Expand(p) => p.lb,
        }
    }

    /// Hard mode's lanes, for [`Solver::scan_guesses`]: the guesses the state may play,
    /// among those handed down, as a bitset in `level.scan_bits` (from the letter
    /// bitsets, not one check per guess), and where the scan reads them: from a
    /// compact table of the state's own (`own`, packed from the parent's own table
    /// when it has one), or from the full table, 32 at a time when they are dense
    /// enough, else one at a time (`level.scan_list`). A pre-scan (`sorted`, the
    /// parent's table by cap) reads that table in place and finds its playable lanes
    /// as it goes ([`KidLanes::playable`]): no bitset by guess id. Returns (dense
    /// enough for the full table's blocks, `own` built).
    fn hard_lanes(
        &self,
        st: &State,
        sorted: Option<&Local>,
        level: &mut Level,
        own: &mut Local,
    ) -> (bool, bool) {
        let (ids, parent) = (st.ids, st.handed);
        let parent_allowed = parent.list;
        let n = ids.len();
        if let Some(t) = sorted {
            // A pre-scan: its playable lanes come from the parent's lanes as the scan
            // reaches them (`KidLanes::playable`), nothing is copied.
            level.lane_bits.clear();
            level.lane_bits.resize(t.table.stride.div_ceil(64), 0);
            return (false, false);
        }
        let demand = st.revealed.demand();
        // Hard mode: the guesses this state may play, among those handed down, as a
        // bitset (from the letter bitsets, not one check per guess); scanned 32 at a
        // time like normal mode when they are dense enough, else one at a time.
        let mut dense = false;
        if let Some(sets) = &self.demand_sets {
            level.scan_bits.clear();
            match parent.bits {
                Some(bits) => level.scan_bits.extend_from_slice(bits),
                None => {
                    debug_assert_eq!(parent_allowed.len(), self.game.n_guesses());
                    let n_guesses = self.game.n_guesses();
                    level.scan_bits.resize(n_guesses.div_ceil(64), u64::MAX);
                    if !n_guesses.is_multiple_of(64) {
                        *level.scan_bits.last_mut().expect("a guess") >>= 64 - n_guesses % 64;
                    }
                }
            }
            let playable = sets.narrow(&demand, &mut level.scan_bits);
            dense = n >= HARD_BLOCK_MIN && playable * HARD_BLOCK_DENSITY >= self.game.n_guesses();
        }
        // From `hard_own_min` (HARD_OWN_MIN) to PRESENCE_MAX_N candidates: the
        // playable guesses copied into a compact table of their own, from the parent's
        // own table when it has one (its rows are shorter and were just read).
        let own_used = n >= self.config.hard_own_min && n <= PRESENCE_MAX_N;
        let from_parent = parent.local.filter(|_| own_used);
        level.scan_list.clear();
        if let Some(t) = from_parent {
            // The parent's lanes this state may play (its playable guesses are
            // among them: the parent hands down only guesses it may play).
            level.lane_bits.clear();
            level.lane_bits.resize(t.table.stride.div_ceil(64), 0);
            for (w, word) in level.lane_bits.iter_mut().enumerate() {
                *word = playable_lanes(&t.guesses, &level.scan_bits, w);
            }
            let lanes = members(&level.lane_bits).map(|j| t.guesses[j]);
            level.scan_list.extend(lanes);
            t.offsets(ids, &mut level.local_offsets);
            own.build_masked(
                &t.table,
                &level.local_offsets,
                ids,
                &level.lane_bits,
                &level.scan_list,
            );
        } else if !dense || own_used {
            level
                .scan_list
                .extend(members(&level.scan_bits).map(GuessId::new));
            if own_used {
                own.build_masked(
                    &self.rows,
                    &level.offsets,
                    ids,
                    &level.scan_bits,
                    &level.scan_list,
                );
            }
        }
        (dense, own_used)
    }

    /// Hard mode, after the scan of a state whose buckets are pre-scanned: the compact
    /// table its children's pre-scans read in place (`level.local`), built from the
    /// caps the scan recorded.
    fn kids_table(&self, ids: &[AnswerId], base: Demand, level: &mut Level) {
        // The children's pre-scans read a compact table of the guesses this state
        // may play (a guess making one bucket here is useless on every subset),
        // most buckets first: a least-bound scan stops at the first block whose
        // cap cannot beat what it has, as in normal mode.
        level.lanes.clear();
        let caps = &level.caps;
        let useful = members(&level.scan_bits).map(GuessId::new);
        level.lanes.extend(useful.filter(|g| caps[g.index()] >= 2));
        level
            .lanes
            .sort_by_key(|g| (std::cmp::Reverse(caps[g.index()]), g.0));
        level
            .local
            .build(&self.rows, ids, &level.lanes, caps, &self.shapes);
        let kids = &mut level.kids;
        let words = level.lanes.iter().map(|g| self.game.guesses[g.index()]);
        kids.demands.rebuild(words);
        kids.base = base;
        // Every lane until the classes hand theirs down (`classify.rs`).
        let lanes = level.lanes.len();
        kids.handed.clear();
        kids.handed
            .extend((0..lanes.div_ceil(64).max(1)).map(|w| guesses::lanes_below(lanes, w)));
        level.kids_ready = true;
    }
}

#[cfg(test)]
mod tests;
