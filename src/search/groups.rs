//! Endgame groups: answers that agree in four positions and differ in the fifth
//! (`bills`, `fills`, `hills`, ... : the group `_ills`), and the lower bound their size
//! gives on a state holding them.
//!
//! **Why a group is slow to solve.** Take a group `G` of `r` answers that differ only
//! at position `p`, in the letters `X`. For any guess `g`, two answers of `G` whose
//! letters at `p` are both absent from `g` get the same feedback: they differ only at
//! `p`, neither letter matches `g` there, and the count of every letter of `g` in them
//! is the same. So `g` splits `G` into one class of the answers whose letter it does
//! not hold, plus at most one class per distinct letter of `g` (at most five), each a
//! single answer. If `g` is in `G` it is one of those singletons (found now); every
//! other singleton needs at least one more guess.
//!
//! Write `N(d)` for the most answers of `G` a tree finds within `d` guesses. The root
//! finds at most one, the singletons it splits off are found at the earliest one guess
//! later, and the rest is a smaller group: `N(1) <= 1`, `N(d) <= 5 + N(d - 1)`, so
//! `N(d) <= 5d - 4` ([`reach_per`]). Hence:
//! * **Depth**: a state with `left` guesses left holding a group of more than
//!   `5 * left - 4` answers has no tree (infeasible), whatever the objective.
//! * **Cost**: ordering `G`'s answers by the guess that finds them, the `i`-th is found
//!   no earlier than guess `(i + 8) / 5` (integer division: 1, then five at 2, five at
//!   3, ...), so the group alone costs at least `sum (i + 8) / 5` ([`group_cost`]). In
//!   any tree for a state `S` holding `G`, the answers of `G` and those of `S \ G` are
//!   each found by a tree for their own set (the same tree, read for those answers
//!   only), so `cost(S) >= cost(G) + cost(S \ G) >= group_cost(r) + 2|S \ G| - 1`.
//!   This beats the size bound `2n - 1` from `r = 7` on (by one when the state is the
//!   group), and by 23 for the 19 answers of `_ills` in the big game.
//!
//! The same reasoning holds in hard mode (it only removes guesses), and there it
//! gets stronger. Every later guess must keep each revealed green letter in its place;
//! a group's answers share the letters there, so those positions are green for all of
//! them and tell none apart (a letter matched green is never also yellow). Only the
//! guess's letters at the other `per = 5 - greens` positions can split the group, at
//! most one singleton per distinct letter, so `N(1) <= 1`, `N(d) <= per + N(d - 1)`:
//! `N(d) <= per (d - 1) + 1` ([`reach_per`]), and the `i`-th answer is found no
//! earlier than guess `1 + ceil((i - 1) / per)` ([`group_cost_per`]). Greens are only
//! added along a path, so `per` taken at a state holds below it. With four greens a
//! group of `r` needs `r` guesses. Only the largest group of a state is used. Tests in `tests/it/solver.rs` check the search against a
//! brute force on small games built around such groups.
//!
//! Cost: five counter updates per candidate, only for states and buckets of at least
//! [`GROUP_MIN`] candidates.

use crate::game::word::Word;
use crate::game::AnswerId;

/// Groups of fewer answers never raise a bound (the group cost of 6 is 11, the size
/// bound of 6); states smaller than this skip the count.
pub(super) const GROUP_MIN: usize = 7;

/// The one-position patterns of every answer, numbered.
pub(super) struct Groups {
    /// Per answer, the ids of its five patterns (`_ills`, `b_lls`, ...). A pattern
    /// no other answer shares has an id too (it counts at most 1, which is no
    /// group): the count then takes no branch per pattern, which cost more than the
    /// counts themselves (mispredicted; `Groups::largest` was 12% of the CPU of NYT
    /// hard openers, about a third of that after).
    keys: Vec<[u32; 5]>,
    /// How many patterns have ids.
    n_keys: usize,
}

impl Groups {
    /// Numbers the patterns of `answers`.
    pub(super) fn new(answers: &[Word]) -> Groups {
        let pattern = |w: &Word, p: usize| {
            let mut b = w.0;
            b[p] = b'_';
            b
        };
        let mut ids: ahash::AHashMap<[u8; 5], u32> = ahash::AHashMap::new();
        let keys = answers
            .iter()
            .map(|w| {
                std::array::from_fn(|p| {
                    let next = ids.len() as u32;
                    *ids.entry(pattern(w, p)).or_insert(next)
                })
            })
            .collect();
        Groups {
            keys,
            n_keys: ids.len(),
        }
    }

    /// The size of the largest group among `ids` (1 when none is larger).
    /// `counts` is scratch, left zeroed.
    pub(super) fn largest(&self, ids: &[AnswerId], counts: &mut Vec<u16>) -> u32 {
        if counts.len() < self.n_keys {
            counts.resize(self.n_keys, 0);
        }
        let mut best = 1u16;
        for a in ids {
            for &k in &self.keys[a.index()] {
                let c = &mut counts[k as usize];
                *c += 1;
                best = best.max(*c);
            }
        }
        for a in ids {
            for &k in &self.keys[a.index()] {
                counts[k as usize] = 0;
            }
        }
        best as u32
    }
}

/// The most answers of one group any tree finds within `left` guesses when a guess
/// splits off at most `per` of them: `per * (left - 1) + 1` (`5 * left - 4` in normal
/// mode; hard mode: `per = 5 - greens`).
#[inline]
pub(super) fn reach_per(left: u8, per: u32) -> u32 {
    if left == 0 {
        0
    } else {
        per * (left as u32 - 1) + 1
    }
}

/// [`group_cost`] when a guess splits off at most `per` answers of the group:
/// `sum_{i=1..r} 1 + ceil((i - 1) / per)`.
#[inline]
pub(super) fn group_cost_per(r: u32, per: u32) -> u32 {
    if per >= 5 {
        return group_cost(r);
    }
    let per = per.max(1);
    (1..=r).map(|i| 1 + (i - 1).div_ceil(per)).sum()
}

/// Answers of a group a guess can split off at a hard-mode state with `greens`
/// letters fixed (5 in normal mode: pass 0).
#[inline]
pub(super) fn per_guess(greens: usize) -> u32 {
    (5 - greens.min(4)) as u32
}

/// The least total guesses that find `r` answers of one group: `sum_{i=1..r} (i+8)/5`.
#[inline]
pub(super) fn group_cost(r: u32) -> u32 {
    // Full steps of five: 1 (i = 1), then 5 x 2, 5 x 3, ... ; summed in closed form.
    if r == 0 {
        return 0;
    }
    let rest = r - 1; // answers 2..=r, five per depth from depth 2
    let full = rest / 5; // depths 2..=full+1 complete
    let part = rest % 5;
    // 5 * (2 + 3 + ... + (full + 1)) + part * (full + 2) + 1
    let sum_depths = (full + 1) * (full + 2) / 2 - 1;
    1 + 5 * sum_depths + part * (full + 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_cost_is_the_sum_of_the_earliest_depths() {
        for r in 0..200u32 {
            let slow: u32 = (1..=r).map(|i| (i + 8) / 5).sum();
            assert_eq!(group_cost(r), slow, "r = {r}");
        }
        assert_eq!(group_cost(6), 11);
        assert_eq!(group_cost(7), 14);
        assert_eq!(group_cost(8), 17);
        assert_eq!(group_cost(19), 61);
    }

    #[test]
    fn per_guess_forms_agree_with_their_sums() {
        for per in 1..=5u32 {
            for r in 0..60u32 {
                let slow: u32 = (1..=r).map(|i| 1 + (i - 1).div_ceil(per)).sum();
                assert_eq!(group_cost_per(r, per), slow, "r = {r}, per = {per}");
            }
            for left in 0..8u8 {
                // reach is the most answers whose earliest guess is within `left`.
                let most = (1..200u32)
                    .take_while(|&i| (i - 1).div_ceil(per) < left as u32)
                    .count() as u32;
                assert_eq!(reach_per(left, per), most, "left = {left}, per = {per}");
            }
        }
        assert_eq!(group_cost_per(5, 1), 15);
        assert_eq!(reach_per(6, 1), 6);
        assert_eq!(per_guess(0), 5);
        assert_eq!(per_guess(4), 1);
    }

    #[test]
    fn reach_is_five_per_guess_after_the_first() {
        assert_eq!(reach_per(0, 5), 0);
        assert_eq!(reach_per(1, 5), 1);
        assert_eq!(reach_per(2, 5), 6);
        assert_eq!(reach_per(4, 5), 16);
        assert_eq!(reach_per(5, 5), 21);
    }

    #[test]
    fn largest_counts_the_biggest_one_position_group() {
        let words: Vec<Word> = [
            "bills", "fills", "hills", "mills", "bells", "balls", "crane",
        ]
        .iter()
        .map(|w| Word::parse(w).unwrap())
        .collect();
        let g = Groups::new(&words);
        let ids: Vec<AnswerId> = (0..words.len()).map(AnswerId::new).collect();
        let mut counts = Vec::new();
        assert_eq!(g.largest(&ids, &mut counts), 4); // _ills
        assert!(counts.iter().all(|&c| c == 0));
        // b_lls: bills, bells, balls.
        assert_eq!(g.largest(&[ids[0], ids[4], ids[5], ids[6]], &mut counts), 3);
        assert_eq!(g.largest(&[ids[6]], &mut counts), 1);
    }
}
