//! The transposition table's memory charge covers what its entries really take on
//! the heap, so `--memory` bounds the table's resident size (plus the fixed feedback
//! table and scratch). A counting allocator measures the heap as glibc lays it out
//! (each block rounded up to 16 bytes with an 8-byte header, at least 32): this test
//! binary has this one test, so nothing else allocates meanwhile.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};
use wordle_tree::game::AnswerId;
use wordle_tree::search::tt::{Bound, Key, TranspositionTable};

struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

fn chunk(size: usize) -> isize {
    ((size + 8).div_ceil(16) * 16).max(32) as isize
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        LIVE.fetch_add(chunk(l.size()), Ordering::Relaxed);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE.fetch_sub(chunk(l.size()), Ordering::Relaxed);
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        LIVE.fetch_add(chunk(new) - chunk(l.size()), Ordering::Relaxed);
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
    // Several sizes, so the hash table is caught at several load factors (just after
    // doubling it holds the most spare slots per entry).
    for len in [1usize, 3, 20, 100] {
        for n in [1000usize, 40_000, 70_000, 130_000] {
            let before = LIVE.load(Ordering::Relaxed);
            let t = TranspositionTable::new(usize::MAX / 4, true);
            fill(&t, n, len);
            let heap = LIVE.load(Ordering::Relaxed) - before;
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
    let before = LIVE.load(Ordering::Relaxed);
    let t = TranspositionTable::new(limit, true);
    let mut peak = 0;
    for round in 0..20 {
        fill(&t, 5000 * (round + 1), 3 + round);
        peak = peak.max(LIVE.load(Ordering::Relaxed) - before);
    }
    assert!(
        peak as usize <= limit + limit / 4,
        "peak {peak} bytes for a {limit}-byte limit"
    );
}
