//! `--memory` bounds everything a search holds beyond the feedback table: the
//! transposition table and the searches' scratch (compact tables, class labels,
//! orders), which is charged against the same limit. A counting allocator follows
//! the live heap and its peak while one opener is solved under a small limit: this
//! test binary has this one test, so nothing else allocates meanwhile.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};
use wordle_tree::game::{Game, ListSource};
use wordle_tree::search::{Config, Solver};
use wordle_tree::{FeedbackTable, Word};

struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);

fn grow(by: isize) {
    let now = LIVE.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        grow(l.size() as isize);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE.fetch_sub(l.size() as isize, Ordering::Relaxed);
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        grow(new as isize - l.size() as isize);
        unsafe { System.realloc(p, l, new) }
    }
}

#[global_allocator]
static A: Counting = Counting;

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
