//! A work budget for one serial search, counted in state scans (the calls of
//! `scan` that get past the closed forms), kept per thread.
//!
//! Why: a refutation needs one bucket that no tree finishes in time, and which bucket
//! is cheap to settle is not known in advance. Tried smallest first, each to the end,
//! one hard bucket can stall the whole claim: from `bayou`, hard mode, 517 answers of
//! the big game, a small bucket ran for over 20 minutes while the 168-candidate
//! bucket `BGBBB` alone is refuted in 12 s. With a budget, every bucket gets a slice
//! of work in rounds that grow fourfold
//! ([`crate::search::Solver::first_infeasible_bucket`], where the figures are), so
//! one slow bucket no longer hides a cheap refutation behind it.
//!
//! The same mechanism ends a search that is no longer needed: under
//! [`Guard::abortable`] the budget is unlimited but spent once a shared flag is set
//! (`Solver::solve_from`: another thread's bucket cannot finish, so the opener's
//! verdict is known).
//!
//! Invariants:
//! - A budget covers only [`Guard`]'s scope on its own thread; the serial search
//!   makes no rayon call, so no other task runs on the thread meanwhile. Outside a
//!   guard the budget is unlimited.
//! - Running out is handled exactly like an interruption: every search call on the
//!   way up returns without storing anything in the transposition table
//!   (`scan` and `expand` check [`exhausted`] where they check the stop flag), so the
//!   table holds only settled values and a later search is unaffected. The tests
//!   compare verdicts under tiny budgets with brute force.
//! - The cost: one thread-local decrement per scan (a scan reads at least a few
//!   hundred table entries).

use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

thread_local! {
    /// Scans left; `u64::MAX` is unlimited.
    static LEFT: Cell<u64> = const { Cell::new(u64::MAX) };
    /// Set when a scan found the budget spent; cleared by [`Guard`].
    static OUT: Cell<bool> = const { Cell::new(false) };
    /// Past this instant the budget is spent too (read every [`CLOCK_EVERY`] scans).
    static UNTIL: Cell<Option<Instant>> = const { Cell::new(None) };
    /// Once this flag is set (by another thread) the budget is spent too (read every
    /// [`CLOCK_EVERY`] scans).
    static ABORT: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// How often (in scans) a budget with a deadline reads the clock (and an abortable
/// one its flag).
const CLOCK_EVERY: u64 = 256;

/// Takes one scan from the budget; `true` when none was left (the search must give
/// up, as on an interruption).
#[inline]
pub(super) fn spend() -> bool {
    LEFT.with(|left| {
        let l = left.get();
        let late = || {
            l % CLOCK_EVERY == 0
                && (UNTIL.with(|u| u.get()).is_some_and(|t| Instant::now() >= t)
                    || ABORT.with(|a| {
                        a.borrow()
                            .as_ref()
                            .is_some_and(|f| f.load(Ordering::Relaxed))
                    }))
        };
        if l == 0 || late() {
            left.set(0);
            OUT.with(|o| o.set(true));
            true
        } else {
            left.set(l - 1);
            false
        }
    })
}

/// Whether this thread's budget ran out in the current guard.
#[inline]
pub(super) fn exhausted() -> bool {
    OUT.with(|o| o.get())
}

/// A budget of `scans` on this thread, spent early once `until` has passed, until
/// dropped (then unlimited again).
pub(super) struct Guard;

impl Guard {
    pub(super) fn new(scans: u64, until: Option<Instant>) -> Guard {
        LEFT.with(|l| l.set(scans));
        OUT.with(|o| o.set(false));
        UNTIL.with(|u| u.set(until));
        Guard
    }

    /// An unlimited budget on this thread that is spent as soon as `abort` is set
    /// (by another thread: its bucket settled the question), until dropped.
    pub(super) fn abortable(abort: Arc<AtomicBool>) -> Guard {
        let guard = Guard::new(u64::MAX, None);
        ABORT.with(|a| *a.borrow_mut() = Some(abort));
        guard
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        LEFT.with(|l| l.set(u64::MAX));
        OUT.with(|o| o.set(false));
        UNTIL.with(|u| u.set(None));
        ABORT.with(|a| *a.borrow_mut() = None);
    }
}
