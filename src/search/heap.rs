//! Heap accounting for the `--memory` budget: what a buffer holds, and the charge a
//! scratch level or a core store keeps on a shared meter
//! ([`super::tt::TranspositionTable::scratch`]). A leaf: the scratch
//! ([`super::scratch`]) and the cores ([`super::cores`]) both charge through it.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Moves the charge on `meter` from `*charged` to `now` bytes.
pub(super) fn recharge(meter: &AtomicUsize, charged: &mut usize, now: usize) {
    if now > *charged {
        meter.fetch_add(now - *charged, Ordering::Relaxed);
    } else {
        meter.fetch_sub(*charged - now, Ordering::Relaxed);
    }
    *charged = now;
}

/// Heap bytes of a vector's capacity.
pub(super) fn cap<T>(v: &Vec<T>) -> usize {
    v.capacity() * std::mem::size_of::<T>()
}
