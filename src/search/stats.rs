//! Search counters. Each worker counts into its own [`Counters`] (no shared atomics in
//! the hot path); they are summed when a task ends.

use std::ops::AddAssign;

/// What one search did.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Counters {
    /// States expanded: transposition-table misses that went on to scan guesses.
    pub states: u64,
    /// Transposition-table probes made.
    pub probes: u64,
    /// Probes that settled the state without search.
    pub hits: u64,
    /// Guesses whose buckets were actually searched.
    pub expansions: u64,
    /// (guess, candidate) pairs looked up while scanning states.
    pub scanned: u64,
    /// Guesses not expanded because a neighbour dominates them (`dominance.rs`).
    pub dominated: u64,
    /// Bucket bounds raised by a recorded core (`cores.rs`).
    pub core_raises: u64,
    /// Guesses refuted by those raised bounds before any bucket was searched.
    pub core_refutations: u64,
    /// Guesses refuted by the pre-scan of their buckets (`expand.rs`).
    pub prescan_refutations: u64,
    /// Guesses a pre-scan left unread, capped by the candidates' letters
    /// (`scan/letters.rs`).
    pub letter_capped: u64,
}

impl AddAssign for Counters {
    fn add_assign(&mut self, o: Counters) {
        self.states += o.states;
        self.probes += o.probes;
        self.hits += o.hits;
        self.expansions += o.expansions;
        self.scanned += o.scanned;
        self.dominated += o.dominated;
        self.core_raises += o.core_raises;
        self.core_refutations += o.core_refutations;
        self.prescan_refutations += o.prescan_refutations;
        self.letter_capped += o.letter_capped;
    }
}

impl Counters {
    /// Fraction of probes that were hits.
    pub fn hit_rate(&self) -> f64 {
        if self.probes == 0 {
            0.0
        } else {
            self.hits as f64 / self.probes as f64
        }
    }
}
