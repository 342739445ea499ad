//! Candidates: the one set type for answers held as a set (the candidates a history
//! leaves, the answers a claim exempts), as a bitset over answer ids with set
//! operators (`&`, `|`, `-`, and their assigning forms), and partitioning candidates
//! into buckets by the feedback of one guess, with the canonical labels that tell
//! whether two guesses split them alike.
//!
//! The set lives in a `bitvec` `BitVec<u64, Lsb0>` for its API, but hot loops touch
//! only the raw `u64` words (`as_raw_slice`): bitvec's per-bit iterators are 10-100x
//! slower there. The exact solver works on sorted id slices instead (see
//! `search/mod.rs` for why); [`Candidates::ids`] and [`Candidates::from_ids`] convert.
//! Membership is a raw-word test: `Objective::counts` asks it once per candidate of a
//! state under the `--except` objective.
//!
//! Invariant: the dead bits past the last answer in the last raw word are always 0.

use crate::game::feedback::{Feedback, FEEDBACKS};
use crate::game::table::FeedbackTable;
use crate::game::{AnswerId, GuessId};
use bitvec::prelude::*;

/// A set of answer ids.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Candidates {
    bits: BitVec<u64, Lsb0>,
}

impl Candidates {
    /// Every answer of a game with `n` answers.
    pub fn all(n: usize) -> Candidates {
        // Not `BitVec::repeat(true, n)`: that also sets the dead bits past `n` in the
        // last raw word, which the raw-word loops here would count as answers.
        let mut c = Candidates::none(n);
        c.bits.fill(true);
        c
    }

    /// No answer, over a universe of `n` answers.
    pub fn none(n: usize) -> Candidates {
        Candidates {
            bits: BitVec::repeat(false, n),
        }
    }

    pub fn from_ids(n: usize, ids: &[AnswerId]) -> Candidates {
        let mut c = Candidates::none(n);
        for &a in ids {
            c.insert(a);
        }
        c
    }

    pub fn insert(&mut self, a: AnswerId) {
        self.bits.set(a.index(), true);
    }

    #[inline]
    pub fn contains(&self, a: AnswerId) -> bool {
        let a = a.index();
        self.bits
            .as_raw_slice()
            .get(a / 64)
            .is_some_and(|w| w >> (a % 64) & 1 == 1)
    }

    pub fn remove(&mut self, a: AnswerId) {
        self.bits.set(a.index(), false);
    }

    /// Keeps only the answers for which `keep` is true.
    pub fn retain(&mut self, mut keep: impl FnMut(AnswerId) -> bool) {
        for a in self.ids() {
            if !keep(a) {
                self.remove(a);
            }
        }
    }

    /// The ids in increasing order, without allocating.
    pub fn iter(&self) -> impl Iterator<Item = AnswerId> + '_ {
        self.bits
            .as_raw_slice()
            .iter()
            .enumerate()
            .flat_map(|(i, &word)| {
                let mut w = word;
                std::iter::from_fn(move || {
                    (w != 0).then(|| {
                        let bit = w.trailing_zeros() as usize;
                        w &= w - 1;
                        AnswerId::new(i * 64 + bit)
                    })
                })
            })
    }

    /// The size of the universe (answers of the game) the set is over.
    pub fn universe(&self) -> usize {
        self.bits.len()
    }

    /// Applies `op` word by word with `other` (same universe).
    fn combine(&mut self, other: &Candidates, op: impl Fn(u64, u64) -> u64) {
        assert_eq!(self.universe(), other.universe(), "sets over one universe");
        for (w, &o) in self
            .bits
            .as_raw_mut_slice()
            .iter_mut()
            .zip(other.bits.as_raw_slice())
        {
            *w = op(*w, o);
        }
    }

    pub fn len(&self) -> usize {
        self.bits
            .as_raw_slice()
            .iter()
            .map(|w| w.count_ones() as usize)
            .sum()
    }

    pub fn is_empty(&self) -> bool {
        self.bits.as_raw_slice().iter().all(|&w| w == 0)
    }

    /// The ids in increasing order.
    pub fn ids(&self) -> Vec<AnswerId> {
        let mut out = Vec::with_capacity(self.len());
        for (i, &word) in self.bits.as_raw_slice().iter().enumerate() {
            let mut w = word;
            while w != 0 {
                out.push(AnswerId::new(i * 64 + w.trailing_zeros() as usize));
                w &= w - 1;
            }
        }
        out
    }

    /// Keeps only the answers that give `feedback` to `guess`.
    pub fn keep_feedback(&mut self, table: &FeedbackTable, guess: GuessId, feedback: Feedback) {
        let row = table.row(guess);
        for (i, word) in self.bits.as_raw_mut_slice().iter_mut().enumerate() {
            let mut w = *word;
            while w != 0 {
                let bit = w.trailing_zeros() as usize;
                if row[i * 64 + bit] != feedback.0 {
                    *word &= !(1u64 << bit);
                }
                w &= w - 1;
            }
        }
    }
}

impl std::ops::BitAndAssign<&Candidates> for Candidates {
    /// Intersection.
    fn bitand_assign(&mut self, other: &Candidates) {
        self.combine(other, |a, b| a & b);
    }
}

impl std::ops::BitOrAssign<&Candidates> for Candidates {
    /// Union.
    fn bitor_assign(&mut self, other: &Candidates) {
        self.combine(other, |a, b| a | b);
    }
}

impl std::ops::SubAssign<&Candidates> for Candidates {
    /// Difference.
    fn sub_assign(&mut self, other: &Candidates) {
        self.combine(other, |a, b| a & !b);
    }
}

impl std::ops::BitAnd for &Candidates {
    type Output = Candidates;
    fn bitand(self, other: &Candidates) -> Candidates {
        let mut out = self.clone();
        out &= other;
        out
    }
}

impl std::ops::BitOr for &Candidates {
    type Output = Candidates;
    fn bitor(self, other: &Candidates) -> Candidates {
        let mut out = self.clone();
        out |= other;
        out
    }
}

impl std::ops::Sub for &Candidates {
    type Output = Candidates;
    fn sub(self, other: &Candidates) -> Candidates {
        let mut out = self.clone();
        out -= other;
        out
    }
}

/// Counts how many of `ids` fall in each bucket of `guess`, into `counts` (which must
/// be zeroed). Returns the number of non-empty buckets.
#[inline]
pub fn count_buckets(
    table: &FeedbackTable,
    guess: GuessId,
    ids: &[AnswerId],
    counts: &mut [u32; FEEDBACKS],
) -> usize {
    let row = table.row(guess);
    let mut buckets = 0;
    for &a in ids {
        let c = &mut counts[row[a.index()] as usize];
        buckets += (*c == 0) as usize;
        *c += 1;
    }
    buckets
}

/// How a guess splits candidates, in canonical form ([`canonical_labels`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Labels {
    /// Non-empty buckets.
    pub buckets: u32,
    /// A hash of the labels: equal labels, equal hash.
    pub hash: u64,
    /// Whether the guess is one of the candidates (an all-green feedback).
    pub is_candidate: bool,
}

/// The canonical labels of the partition a guess makes, given each candidate's
/// feedback in candidate order: each candidate's bucket number, buckets numbered 1,
/// 2, ... in order of first appearance (at most 243, so a byte each), into `labels`
/// (one per candidate: `labels` is as long as the candidates). Two guesses
/// split the same candidates alike exactly when their labels are equal, which is how
/// the search and the off-tree sub-game keep one guess per way of splitting.
#[inline]
pub fn canonical_labels(feedbacks: impl Iterator<Item = u8>, labels: &mut [u8]) -> Labels {
    let mut first = [0u8; FEEDBACKS];
    let (mut buckets, mut n) = (0u8, 0usize);
    for (f, out) in feedbacks.zip(labels.iter_mut()) {
        let slot = &mut first[f as usize];
        if *slot == 0 {
            buckets += 1;
            *slot = buckets;
        }
        *out = *slot;
        n += 1;
    }
    Labels {
        buckets: buckets as u32,
        hash: hash_labels(&labels[..n]),
        is_candidate: first[Feedback::ALL_GREEN.0 as usize] != 0,
    }
}

/// A hash of canonical labels, eight at a time (one multiply per eight labels, not
/// per label: a byte-wise chain was most of the labelling's time on large states).
#[inline]
fn hash_labels(labels: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut h = labels.len() as u64;
    let mut words = labels.chunks_exact(8);
    for w in &mut words {
        let w = u64::from_le_bytes(w.try_into().expect("8 bytes"));
        h = (h ^ w).wrapping_mul(K).rotate_left(29);
    }
    let mut tail = [0u8; 8];
    tail[..words.remainder().len()].copy_from_slice(words.remainder());
    (h ^ u64::from_le_bytes(tail)).wrapping_mul(K) ^ h >> 31
}

/// Splits sorted `ids` into buckets by the feedback of `guess`; each bucket keeps the
/// ids sorted. Returns `(feedback, bucket)` pairs in feedback order.
pub fn partition(
    table: &FeedbackTable,
    guess: GuessId,
    ids: &[AnswerId],
) -> Vec<(Feedback, Vec<AnswerId>)> {
    let row = table.row(guess);
    let mut buckets: Vec<Vec<AnswerId>> = vec![Vec::new(); FEEDBACKS];
    for &a in ids {
        buckets[row[a.index()] as usize].push(a);
    }
    let out: Vec<(Feedback, Vec<AnswerId>)> = buckets
        .into_iter()
        .enumerate()
        .filter(|(_, b)| !b.is_empty())
        .map(|(f, b)| (Feedback(f as u8), b))
        .collect();
    debug_assert_eq!(out.iter().map(|(_, b)| b.len()).sum::<usize>(), ids.len());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_across_word_boundaries() {
        let ids: Vec<AnswerId> = [0, 63, 64, 65, 127, 128, 199].map(AnswerId).to_vec();
        let c = Candidates::from_ids(200, &ids);
        assert_eq!(c.ids(), ids);
        assert_eq!(c.len(), 7);
        assert!(c.contains(AnswerId(64)) && !c.contains(AnswerId(66)));
        assert!(Candidates::none(70).is_empty());
        assert_eq!(Candidates::all(70).len(), 70);
        assert_eq!(c.iter().collect::<Vec<_>>(), ids);
        assert!(!c.contains(AnswerId(200)) && c.contains(AnswerId(199)));
    }

    /// The set operators against the same operations on sorted id lists.
    #[test]
    fn set_operators_match_id_lists() {
        let n = 300u16;
        let id = |i: &u16| AnswerId(*i);
        let a_ids: Vec<AnswerId> = (0..n).filter(|i| i % 3 == 0).map(|i| id(&i)).collect();
        let b_ids: Vec<AnswerId> = (0..n)
            .filter(|i| i % 5 == 0 || *i > 250)
            .map(|i| id(&i))
            .collect();
        let (a, b) = (
            Candidates::from_ids(n as usize, &a_ids),
            Candidates::from_ids(n as usize, &b_ids),
        );
        let both: Vec<AnswerId> = a_ids
            .iter()
            .copied()
            .filter(|x| b_ids.contains(x))
            .collect();
        let either: Vec<AnswerId> = (0..n)
            .map(|i| id(&i))
            .filter(|x| a_ids.contains(x) || b_ids.contains(x))
            .collect();
        let only_a: Vec<AnswerId> = a_ids
            .iter()
            .copied()
            .filter(|x| !b_ids.contains(x))
            .collect();
        assert_eq!((&a & &b).ids(), both);
        assert_eq!((&a | &b).ids(), either);
        assert_eq!((&a - &b).ids(), only_a);
        let mut c = a.clone();
        c.retain(|x| x.0 % 2 == 0);
        assert_eq!(
            c.ids(),
            a_ids
                .iter()
                .copied()
                .filter(|x| x.0 % 2 == 0)
                .collect::<Vec<_>>()
        );
        assert_eq!(c.len(), c.iter().count());
    }
}
