//! What the searches hold on the heap is what they charge against `--memory`, measured
//! by a counting global allocator. Its own test binary: the allocator counts every
//! allocation of the process, so these tests run one at a time (`SERIAL`) and no other
//! test shares the process.
//!
//! - The transposition table's charge covers what its entries really take on the heap,
//!   counted as glibc lays blocks out (each rounded up to 16 bytes with an 8-byte
//!   header, at least 32), so `--memory` bounds the table's resident size.
//! - `--memory` bounds everything a search holds beyond the feedback table: the
//!   transposition table and the searches' scratch (compact tables, class labels,
//!   orders), which is charged against the same limit; the live heap's peak is followed
//!   while one opener is solved under a small limit.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};
use std::sync::Mutex;
use wordle_tree::game::{AnswerId, Game, ListSource};
use wordle_tree::search::tt::{Bound, Key, TranspositionTable};
use wordle_tree::search::{Config, Solver};
use wordle_tree::{FeedbackTable, Word};

/// One test at a time: each reads the process's counters.
static SERIAL: Mutex<()> = Mutex::new(());

struct Counting;

/// The live heap in glibc's blocks (see `chunk`).
static LIVE_BLOCKS: AtomicIsize = AtomicIsize::new(0);
/// The live heap in requested bytes, and its peak since the last reset.
static LIVE: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);

fn chunk(size: usize) -> isize {
    ((size + 8).div_ceil(16) * 16).max(32) as isize
}

fn grow(by: isize) {
    let now = LIVE.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        LIVE_BLOCKS.fetch_add(chunk(l.size()), Ordering::Relaxed);
        grow(l.size() as isize);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE_BLOCKS.fetch_sub(chunk(l.size()), Ordering::Relaxed);
        LIVE.fetch_sub(l.size() as isize, Ordering::Relaxed);
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        LIVE_BLOCKS.fetch_add(chunk(new) - chunk(l.size()), Ordering::Relaxed);
        grow(new as isize - l.size() as isize);
        unsafe { System.realloc(p, l, new) }
    }
}

#[global_allocator]
static A: Counting = Counting;

fn fill(t: &TranspositionTable, n: usize, len: usize) {
    let mut ids: Vec<AnswerId> = (0..len as u16).map(AnswerId).collect();
    for i in 0..n {
        ids[0] = AnswerId((i % 60000) as u16 + 1000);
        let key = Key {
            ids: &ids,
            left: (i / 60000) as u8 + 1,
            hard: 0,
        };
        t.store(&key, Bound::Lower(5));
    }
}

#[test]
fn the_charge_covers_the_heap() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    // Several sizes, so the hash table is caught at several load factors (just after
    // doubling it holds the most spare slots per entry).
    for len in [1usize, 3, 20, 100] {
        for n in [1000usize, 40_000, 70_000, 130_000] {
            let before = LIVE_BLOCKS.load(Ordering::Relaxed);
            let t = TranspositionTable::new(usize::MAX / 4, true);
            fill(&t, n, len);
            let heap = LIVE_BLOCKS.load(Ordering::Relaxed) - before;
            assert_eq!(t.len(), n);
            assert!(
                heap as usize <= t.bytes(),
                "{n} entries of {len} ids: {heap} bytes on the heap, {} charged",
                t.bytes()
            );
            drop(t);
        }
    }
    // Under a limit the heap stays within it (eviction), whatever is stored.
    let limit = 4 << 20;
    let before = LIVE_BLOCKS.load(Ordering::Relaxed);
    let t = TranspositionTable::new(limit, true);
    let mut peak = 0;
    for round in 0..20 {
        fill(&t, 5000 * (round + 1), 3 + round);
        peak = peak.max(LIVE_BLOCKS.load(Ordering::Relaxed) - before);
    }
    assert!(
        peak as usize <= limit + limit / 4,
        "peak {peak} bytes for a {limit}-byte limit"
    );
}

/// Solves `opener` (original lists, normal mode, one thread) under a `limit`-byte budget:
/// the total, the peak heap growth over the solver as built (its feedback tables),
/// and the scratch bytes charged at the end. Without the bucket pre-scans: with them
/// `adieu`'s table stays under 1 MiB, too small beside its 9 MiB of scratch to
/// outgrow a limit (the budget's accounting does not depend on them).
fn solve(game: &Game, table: &FeedbackTable, opener: &str, limit: usize) -> (u64, usize, usize) {
    let config = Config {
        memory_limit: limit,
        prescan_left: u8::MAX,
        ..Config::default()
    };
    let solver = Solver::new(game, table, config);
    let opener = game.guess_id(Word::parse(opener).unwrap()).unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    // The pool's thread and its first allocations are not the search's.
    pool.install(|| ());
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let (total, tree) = pool
        .install(|| solver.solve_opener(opener, &|_, _, _| {}))
        .unwrap();
    drop(tree);
    let peak = (PEAK.load(Ordering::Relaxed) - base).max(0) as usize;
    (total, peak, solver.scratch_bytes())
}

#[test]
fn the_budget_covers_the_table_and_the_scratch() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let game = Game::load(&ListSource::Named("wordle".into())).unwrap();
    let table = FeedbackTable::build(&game);
    // `adieu`: its large buckets build compact tables and class labels, and its cores,
    // of about 10 MiB in all, and its transposition table holds about 4 MiB when free.
    // The limit leaves the table half of that.
    let (free_total, free_peak, scratch) = solve(&game, &table, "adieu", 1 << 30);
    let limit = scratch + free_peak.saturating_sub(scratch) / 2;
    assert!(
        free_peak > limit + limit / 16 && scratch > limit / 4,
        "the test needs a search whose table outgrows the limit and whose scratch is a \
         good part of it: peak {free_peak}, scratch {scratch}"
    );
    let (total, peak, charged) = solve(&game, &table, "adieu", limit);
    assert_eq!(
        total, free_total,
        "a smaller table changes the time, never the total"
    );
    assert!(charged > 0, "scratch is charged");
    // Within the limit, but for the slack of the table's per-entry estimate and what
    // the result tree and the recursion's small buffers hold.
    assert!(
        peak <= limit + limit / 16,
        "peak heap growth {peak} bytes for a {limit}-byte budget ({charged} of it scratch)"
    );
}
