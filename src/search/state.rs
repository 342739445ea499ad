//! The arguments of one search call, as two values: the [`State`] being searched
//! (candidates, guesses left, what hard mode has revealed, the guesses the parent
//! handed down) and the [`Work`] it is searched in (this depth's scratch, the levels
//! below, the partition-class map and the counters), the way regex-automata carries
//! one `Cache` through its searches.
//!
//! Invariants: `State::ids` is sorted and non-empty; a `Work`'s first level belongs to
//! the state being searched, the rest to its descendants, one per guess left (a state
//! with one guess left does not recurse). Both are borrowed views: making a child's
//! costs a few pointer copies, no allocation.

use super::cores::Cores;
use super::kernels::Local;
use super::scan::KidLanes;
use super::scratch::{Classes, Level, Scratch};
use super::stats::Counters;
use crate::game::hard::Revealed;
use crate::game::{AnswerId, GuessId};

/// The guesses a parent hands to a state: a list, and (normal mode, below the top)
/// the same as a bitset over guess ids.
#[derive(Clone, Copy)]
pub(super) struct Guesses<'s> {
    pub(super) list: &'s [GuessId],
    pub(super) bits: Option<&'s [u64]>,
    /// The most buckets any of these guesses makes on the parent state: no guess
    /// makes more on a subset, so a state with more candidates cannot be split into
    /// singletons (infeasible with two guesses left).
    pub(super) max_split: usize,
    /// The parent's compact table over exactly `list` (normal mode, large parents):
    /// the block scans read it instead of the full table.
    pub(super) local: Option<&'s Local>,
    /// Hard mode: the parent's table of the guesses it hands down, lanes in order of
    /// their caps on the parent (for the children's least-bound scans), with its
    /// lanes' demand sets, the lanes handed down and their shapes.
    pub(super) sorted: Option<(&'s Local, &'s KidLanes)>,
}

impl Guesses<'_> {
    /// Whether guess `g` was handed down (always, without a bitset).
    #[inline]
    pub(super) fn has(&self, g: usize) -> bool {
        self.bits
            .is_none_or(|bits| bits[g / 64] >> (g % 64) & 1 == 1)
    }

    /// The 32 bits of guesses `g0..g0 + 32` (`g0` a multiple of 32).
    #[inline]
    pub(super) fn block(&self, g0: usize) -> u32 {
        self.bits
            .map_or(u32::MAX, |bits| (bits[g0 / 64] >> (g0 % 64)) as u32)
    }
}

/// One state of the search.
#[derive(Clone, Copy)]
pub(super) struct State<'s> {
    /// The candidates, sorted.
    pub(super) ids: &'s [AnswerId],
    /// Guesses left, this state's included.
    pub(super) left: u8,
    /// What the history revealed (hard mode; the default in normal mode).
    pub(super) revealed: Revealed,
    /// The guesses the parent handed down.
    pub(super) handed: Guesses<'s>,
}

impl<'s> State<'s> {
    /// The state of the candidates `ids` after a guess, one guess down, with the
    /// guesses `handed` to it.
    #[inline]
    pub(super) fn child<'c>(
        &self,
        ids: &'c [AnswerId],
        revealed: Revealed,
        handed: Guesses<'c>,
    ) -> State<'c> {
        State {
            ids,
            left: self.left - 1,
            revealed,
            handed,
        }
    }
}

impl Scratch {
    /// The whole scratch as the [`Work`] of a search from its first level.
    pub(super) fn work(&mut self) -> Work<'_> {
        let (levels, classes, cores, ctr) = self.parts();
        Work {
            levels,
            classes,
            cores,
            ctr,
        }
    }
}

/// The scratch a search call works in.
pub(super) struct Work<'w> {
    /// This state's level first, then one per depth below.
    pub(super) levels: &'w mut [Level],
    pub(super) classes: &'w mut Classes,
    pub(super) cores: &'w mut Cores,
    pub(super) ctr: &'w mut Counters,
}

impl Work<'_> {
    /// This state's level, and the work of its children (the levels below).
    #[inline]
    pub(super) fn split(&mut self) -> (&mut Level, Work<'_>) {
        let (level, deeper) = self
            .levels
            .split_first_mut()
            .expect("a level per guess left");
        (
            level,
            Work {
                levels: deeper,
                classes: self.classes,
                cores: self.cores,
                ctr: self.ctr,
            },
        )
    }

    /// This state's level and the counters.
    #[inline]
    pub(super) fn level(&mut self) -> (&mut Level, &mut Counters) {
        (&mut self.levels[0], self.ctr)
    }
}
