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
//! group of `r` needs `r` guesses.
//!
//! **Required letters take positions** (hard mode). Every later guess must also hold
//! each revealed letter as many times as it was revealed. Say letter `L` must appear
//! `m_L` times and `g_L` green positions are fixed to `L`: a guess holds exactly `g_L`
//! copies at those positions (they hold their green letters), so at least
//! `s_L = max(0, m_L - g_L)` copies sit at positions that are not green. If `L` is not one of
//! the group's letters `X`, those copies tell none of the group apart (the group's
//! answers hold `L` equally often, at the same places), and the positions they take
//! (disjoint for distinct letters) cannot split the group. So a guess splits off at
//! most `per_G = 5 - greens - sum_{L not in X} s_L` answers of `G`. Along a path this
//! only falls: with `greens = sum_L g_L`, `greens + sum_{L not in X} s_L =
//! sum_{L not in X} max(m_L, g_L) + sum_{L in X} g_L`, each term grows with `m_L`
//! and `g_L` (which only grow), and the group's rest class has a subset of `X`, which
//! moves letters to the first sum, where they count at least as much. So
//! the recurrence above holds with `per_G` taken at the state. Under `doums: YBBBB`
//! (NYT 2023 hard) every guess must hold a `d` off the greens, so `ca_ed` (no `d`
//! among `gknprvw`) gets 4 splits per guess, not 5. [`Per`] keeps two values: `clean`
//! for a group whose letters hold no required letter (every required slot lost),
//! `all` (`5 - greens`) for any other, a bound for it as well; [`Groups::bound`]
//! takes the larger of the two groups' bounds (the largest group with `all`, the
//! largest clean one with `clean`). Measured (AVX2 path, NYT 2023 hard `doums`, one
//! thread, `openers --exact`): states 517k -> 304k, CPU-s 30.0 -> 29.7 (the dearer
//! count ate the states saved until the demands below).
//!
//! **Demands on the next guess** ([`Groups::demands`]). With `left` guesses left, a
//! guess `g` that splits off `s(g)` answers of a group of `r` leaves the other
//! `r - s(g)` in one bucket, a group with `left - 1` guesses left and at most `per`
//! splits per guess below, so it has no tree when `r - s(g) > reach_per(left - 1,
//! per)`. And `s(g)` is at most the number of distinct letters of `X` that `g` holds
//! at positions that are not green. So for each group with `r > reach_per(left - 1,
//! per)`, a guess must hold at least `r - reach` of its letters off the greens, or it
//! is infeasible, for every objective. The search checks this with letter masks
//! before expanding a guess in hard mode: the same refutation the bucket's own group
//! bound would give after regrouping the candidates (it is a group of at least `r -
//! s(g)` under a `per` no larger), but it costs a few mask operations instead, and
//! several groups demand at once from the same five letters.
//!
//! Tests in `tests/it/solver.rs` check the search against a brute force on small
//! games built around such groups, with and without required letters.
//!
//! Cost: five counter updates per candidate, only for states and buckets of at least
//! [`GROUP_MIN`] candidates.
//!
//! **A bucket's groups are its state's, cut down** (hard mode). A bucket's answers
//! are some of its state's, so none of its groups is larger than the state's
//! largest, which [`Groups::demands`] counts once per state anyway. The group bound
//! grows with the group's size and as `per` falls, so a bucket whose bound even a
//! group of the state's largest size (and the smaller of its two `per`) could not
//! raise skips its count (`bucket_bounds` in `expand.rs`; the same bounds, checked
//! by a debug assertion in the tests). Counted on NYT 2023 hard `sense` (cannot
//! finish): of 27.5M bucket counts, 6.1M (a third of the answers counted) are
//! skipped; of the 21.4M left, 6.3M raise a bound. Time (forced AVX2 path, one
//! thread, the same states): `sense` A/B 0.97 (farm-bench, 2 pairs, 72.1 -> 69.5
//! CPU-s; 68.4 -> 66.1 side by side), `busks` (exact) 1.00 (3 pairs).

use super::bound::Objective;
use crate::game::hard::Revealed;
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
    /// Per answer, its letters (0 for `a`), for the hard-mode count of the groups
    /// that hold no letter a guess is forced to carry ([`Groups::largest_per`]).
    letters: Vec<[u8; 5]>,
    /// How many patterns have ids.
    n_keys: usize,
}

/// What a guess can split off a group at a state (module doc): at most `all` answers
/// of any group, and at most `clean` of a group none of whose answers has a letter of
/// `required` at the group's open position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Per {
    pub all: u32,
    pub clean: u32,
    /// A bit per letter (bit 0: `a`) every later guess must hold off the greens.
    pub required: u32,
}

impl Per {
    /// Normal mode: five of any group.
    pub const NORMAL: Per = Per {
        all: 5,
        clean: 5,
        required: 0,
    };

    /// Hard mode after the history `revealed`.
    pub fn hard(revealed: &Revealed) -> Per {
        let all = per_guess(revealed.greens());
        let (required, slots) = revealed.off_green_demand();
        Per {
            all,
            clean: all.saturating_sub(slots),
            required,
        }
    }
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
            letters: answers
                .iter()
                .map(|w| std::array::from_fn(|p| w.letter(p)))
                .collect(),
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

    /// The sizes of the largest group among `ids` (`.0`) and of the largest whose
    /// answers hold no letter of `required` at its open position (`.1`); 1 when none
    /// is larger. With no letter required the two are [`Groups::largest`]. A pattern
    /// seen with a required letter at its open position gets 256 added to its count
    /// (a group has at most 26 answers, 26 x 257 fits a `u16`), which the second
    /// pass reads before it clears. `counts` is scratch, left zeroed.
    pub(super) fn largest_per(
        &self,
        ids: &[AnswerId],
        required: u32,
        counts: &mut Vec<u16>,
    ) -> (u32, u32) {
        if required == 0 {
            let r = self.largest(ids, counts);
            return (r, r);
        }
        if counts.len() < self.n_keys {
            counts.resize(self.n_keys, 0);
        }
        for a in ids {
            let letters = &self.letters[a.index()];
            for (p, &k) in self.keys[a.index()].iter().enumerate() {
                let flagged = (required >> letters[p] & 1) as u16;
                counts[k as usize] += 1 + (flagged << 8);
            }
        }
        let (mut all, mut clean) = (1u16, 1u16);
        for a in ids {
            for &k in &self.keys[a.index()] {
                let c = &mut counts[k as usize];
                all = all.max(*c & 0xff);
                if *c < 0x100 {
                    clean = clean.max(*c);
                }
                *c = 0;
            }
        }
        (all as u32, clean as u32)
    }
    /// The demands of the groups among `ids` on the next guess at a state with `left`
    /// guesses left, where a guess splits off at most `per` answers of a group, into
    /// `out`: for each group of more answers than a tree finds in the `left - 1`
    /// guesses after the next one (`reach_per(left - 1, per)`), the letters `X` it
    /// differs in (a bit each) and how many of them the next guess must hold off the
    /// greens (`r - reach`). A guess that holds fewer leaves a bucket holding more than
    /// that reach of the group, which has no tree (module doc). `counts` and `masks`
    /// are scratch, left zeroed. Returns the size of the largest group among `ids`
    /// (1 when none is larger), as [`Groups::largest`].
    pub(super) fn demands(
        &self,
        ids: &[AnswerId],
        left: u8,
        per: Per,
        counts: &mut Vec<u16>,
        masks: &mut Vec<u32>,
        out: &mut Vec<(u32, u32)>,
    ) -> u32 {
        out.clear();
        let mut largest = 1u32;
        if counts.len() < self.n_keys {
            counts.resize(self.n_keys, 0);
        }
        if masks.len() < self.n_keys {
            masks.resize(self.n_keys, 0);
        }
        for a in ids {
            let letters = &self.letters[a.index()];
            for (p, &k) in self.keys[a.index()].iter().enumerate() {
                let flagged = (per.required >> letters[p] & 1) as u16;
                counts[k as usize] += 1 + (flagged << 8);
                masks[k as usize] |= 1 << letters[p];
            }
        }
        let reach_all = reach_per(left.saturating_sub(1), per.all);
        let reach_clean = reach_per(left.saturating_sub(1), per.clean);
        for a in ids {
            for &k in &self.keys[a.index()] {
                let c = counts[k as usize];
                if c == 0 {
                    continue; // already read
                }
                let r = (c & 0xff) as u32;
                largest = largest.max(r);
                let reach = if c < 0x100 { reach_clean } else { reach_all };
                if r > reach {
                    out.push((masks[k as usize], r - reach));
                }
                counts[k as usize] = 0;
                masks[k as usize] = 0;
            }
        }
        largest
    }

    /// The group bound ([`Objective::group_bound`]) of a state of the candidates
    /// `ids` with `left` guesses left, where a guess splits off at most `per` answers
    /// of a group: the larger of the largest group's bound with `per.all` and the
    /// largest clean group's with `per.clean`. 0 when the state is too small for a
    /// group to raise a bound.
    #[inline]
    pub(super) fn bound(
        &self,
        obj: &Objective,
        ids: &[AnswerId],
        left: u8,
        per: Per,
        counts: &mut Vec<u16>,
    ) -> u32 {
        let n = ids.len();
        if n < obj.group_min(left, per.clean) {
            return 0;
        }
        let (all, clean) = self.largest_per(ids, per.required, counts);
        let v = obj.group_bound(n, all, left, per.all);
        if clean > 1 && per.clean < per.all {
            v.max(obj.group_bound(n, clean, left, per.clean))
        } else {
            v
        }
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

    fn parse(list: &[&str]) -> Vec<Word> {
        list.iter().map(|w| Word::parse(w).unwrap()).collect()
    }

    #[test]
    fn required_letters_off_the_greens_lower_clean_groups_only() {
        // `dzzzz` on `caged`: a `d` is required, none green.
        let first = Word::parse("dzzzz").unwrap();
        let caged = Word::parse("caged").unwrap();
        let r = Revealed::default().after(
            first,
            crate::game::feedback::Feedback::compute(first, caged),
        );
        let per = Per::hard(&r);
        assert_eq!((per.all, per.clean, per.required), (5, 4, 1 << 3));
        // `caged` guessed on `cared`: four greens, `d` green, nothing more required.
        let cared = Word::parse("cared").unwrap();
        let r2 = r.after(
            caged,
            crate::game::feedback::Feedback::compute(caged, cared),
        );
        let per = Per::hard(&r2);
        assert_eq!((per.all, per.clean, per.required), (1, 1, 0));
        // `ca_ed` (`gkn`) holds no `d` at its open position: clean; `fa_ed` (`drk`,
        // with `faded`) does, so it is counted only among all groups.
        let words = parse(&[
            "caged", "caked", "caned", "faded", "fared", "faked", "crane",
        ]);
        let g = Groups::new(&words);
        let ids: Vec<AnswerId> = (0..words.len()).map(AnswerId::new).collect();
        let mut counts = Vec::new();
        assert_eq!(g.largest_per(&ids, 1 << 3, &mut counts), (3, 3));
        assert!(counts.iter().all(|&c| c == 0));
        // Only `fa_ed` (3, with `faded`) and `ca_ed` (3): drop `caned`.
        let some = [ids[0], ids[1], ids[3], ids[4], ids[5]];
        assert_eq!(g.largest_per(&some, 1 << 3, &mut counts), (3, 2));
        assert_eq!(g.largest_per(&some, 0, &mut counts), (3, 3));
    }

    #[test]
    fn demands_ask_for_the_letters_a_group_needs_split_now() {
        let words = parse(&[
            "cabed", "cafed", "caged", "cahed", "caked", "caled", "camed", "canes",
        ]);
        let g = Groups::new(&words);
        let ids: Vec<AnswerId> = (0..words.len()).map(AnswerId::new).collect();
        let (mut counts, mut masks, mut out) = (Vec::new(), Vec::new(), Vec::new());
        // `ca_ed` has 7; with 3 left and 4 splits a guess, 5 are found in the 2 after.
        let per = Per {
            all: 5,
            clean: 4,
            required: 1 << 3,
        };
        g.demands(&ids, 3, per, &mut counts, &mut masks, &mut out);
        let x: u32 = [b'b', b'f', b'g', b'h', b'k', b'l', b'm']
            .iter()
            .map(|&c| 1 << (c - b'a'))
            .sum();
        assert_eq!(out, vec![(x, 2)]);
        assert!(counts.iter().all(|&c| c == 0) && masks.iter().all(|&m| m == 0));
        // Five splits: 6 found after, one letter needed; four left: none.
        g.demands(&ids, 3, Per::NORMAL, &mut counts, &mut masks, &mut out);
        assert_eq!(out, vec![(x, 1)]);
        g.demands(&ids, 4, per, &mut counts, &mut masks, &mut out);
        assert!(out.is_empty());
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
