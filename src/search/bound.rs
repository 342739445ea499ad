//! What the search minimises ([`Objective`]) and lower bounds on it, each admissible
//! (never above the true cost).
//!
//! **Objective.** Every guess costs `unit` for each candidate it is played for (unit 1:
//! total guesses; unit 0: only feasibility matters). Optionally, each *counted*
//! candidate (not in `exempt`) still unfound when `left == over_left` (i.e. needing
//! more than D guesses, `over_left = max_guesses - D`) costs `penalty` once. So:
//! * `solve`: unit 1, no penalty;
//! * `check --max-guesses D`: unit 0, no penalty, max_guesses D: cost 0 or infeasible;
//! * `check --min-over D`: unit 1, penalty 2^17 (above any total), so cost =
//!   2^17 x (answers over D) + total, minimised lexicographically;
//! * `check --except`: unit 0, penalty 1, the listed answers exempt;
//! * `check --opener any --min-over D`: unit 0, penalty 1, none exempt, so cost =
//!   answers over D ([`Objective::count_over`]).
//!
//! Write `t_l(w) = pen(l, w)`: the penalty paid by `w` counted candidates at a node
//! with `l` guesses left. For a state of `n` candidates, `w` of them counted, `l` left:
//! * **Size bound** `unit(2n - 1) + pen(l, w) + pen(l-1, w - [w > 0])`: every
//!   candidate pays the guess here; at most one is found here, so all others pay a
//!   guess one level down, and at least `w - 1` counted ones reach that level.
//!   (unit 1, no penalty: the classic `2n - 1`.)
//! * **Per-guess bound**, for a guess making `k` buckets, being a candidate (`c`,
//!   counted `cw`): `unit(3n - k - c) + pen(l, w) + pen(l-1, w - cw) + pen(l-2,
//!   w - k)`. The unit part: `n` here, plus `2m - 1` for each non-green bucket of size
//!   `m` (size bound one level down), summed over `k - c` buckets holding `n - c`
//!   candidates. The penalty part: at most `cw` counted candidates are found here and
//!   at most `k` within two guesses (one per bucket). It is exact when every bucket is
//!   a singleton (a perfect split), and then also optimal if it meets the size bound.
//! * **Split bound**: when no guess makes more than `B` buckets on the state (`B`
//!   known from a superset: a guess never makes more buckets on a subset), at most one
//!   candidate is found here and at most `B` within two guesses, so for `n > B`:
//!   `unit(3n - B - 1) + pen(l, w) + pen(l-1, w - 1) + pen(l-2, w - B)` (every per-guess
//!   bound below is at least this). It lifts the size bound of large buckets, which
//!   otherwise assumes all but one candidate are found one guess down.
//! * **Two guesses left**: only a perfect split can finish, so any other guess is
//!   infeasible; with one guess left, more than one candidate is infeasible.
//! * **Early drop** ([`Objective::max_repeats`]): the per-guess bound grows with the
//!   repeated feedbacks `r = n - k`, so a scan drops a guess once `r` alone proves the
//!   bound reaches the cutoff. For the total objective at every level; for a penalty
//!   objective where the penalty is due two levels down, where the bound is `n - k`
//!   answers over D exactly (`check --opener any --min-over 4`: 14.1 -> 2.6 CPU-s per
//!   opener on a sample of 33, the scans' bucket tallies replaced by the sieve).
//! * **Group bound** ([`Objective::group_bound`], `groups.rs`): a one-position group
//!   of `r` answers costs at least its own least cost, and with a penalty at least
//!   `r - reach(left - over_left)` of them pay it.
//!
//! Tests in `tests/it/solver.rs` check the search (and so these bounds) against a brute
//! force with no bounds on random small games.

use crate::game::candidates::Candidates;
use crate::game::AnswerId;
use std::sync::Arc;

/// Stands for "no tree exists" (infeasible within the guesses left). Above any real
/// cost (at most 2^17 x 65535 + a total), and sums saturate here.
pub const INFEASIBLE: u32 = u32::MAX / 2;

/// The penalty that makes `--min-over` lexicographic: above any possible total.
pub const OVER_PENALTY: u32 = 1 << 17;

/// Adds costs, saturating at [`INFEASIBLE`].
#[inline]
pub fn add(a: u32, b: u32) -> u32 {
    (a as u64 + b as u64).min(INFEASIBLE as u64) as u32
}

#[inline]
fn sat(x: u64) -> u32 {
    x.min(INFEASIBLE as u64) as u32
}

/// What a guess is to the state it is played at, as far as the bounds care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Guess {
    /// Not one of the candidates.
    Other,
    /// A candidate that pays no penalty (exempt, or no penalty in the objective).
    Candidate,
    /// A candidate that pays the penalty.
    Counted,
}

impl Guess {
    /// The guess's kind from whether it is a candidate and whether it is counted.
    #[inline]
    pub fn of(is_candidate: bool, counted: bool) -> Guess {
        match (is_candidate, counted) {
            (false, _) => Guess::Other,
            (true, false) => Guess::Candidate,
            (true, true) => Guess::Counted,
        }
    }
}

/// What a tree's cost counts (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Objective {
    pub unit: u32,
    pub penalty: u32,
    /// The `left` at which unfound counted candidates pay the penalty (0: never).
    pub over_left: u8,
    /// Answers (by id) that never pay the penalty.
    pub exempt: Option<Arc<Candidates>>,
}

impl Objective {
    /// Total guesses (the `solve` objective).
    pub fn total() -> Objective {
        Objective {
            unit: 1,
            penalty: 0,
            over_left: 0,
            exempt: None,
        }
    }

    /// Only feasibility: every tree within the limit costs 0.
    pub fn feasibility() -> Objective {
        Objective {
            unit: 0,
            ..Objective::total()
        }
    }

    /// Fewest answers needing more than `depth` guesses, then fewest total guesses,
    /// in a game of `max_guesses`.
    pub fn min_over(depth: u8, max_guesses: u8) -> Objective {
        Objective {
            unit: 1,
            penalty: OVER_PENALTY,
            over_left: max_guesses - depth,
            exempt: None,
        }
    }

    /// The number of answers needing more than `depth` guesses, in a game of
    /// `max_guesses` (no total: the `--opener any --min-over` sweep).
    pub fn count_over(depth: u8, max_guesses: u8) -> Objective {
        Objective {
            unit: 0,
            penalty: 1,
            over_left: max_guesses - depth,
            exempt: None,
        }
    }

    /// Zero exactly when every answer but the exempt ones is found within `depth`.
    pub fn within_except(depth: u8, max_guesses: u8, exempt: Arc<Candidates>) -> Objective {
        Objective {
            unit: 0,
            penalty: 1,
            over_left: max_guesses - depth,
            exempt: Some(exempt),
        }
    }

    /// True when only feasibility counts (no unit, no penalty): every tree within the
    /// limit costs 0, so a search wants one witness, not the best tree.
    #[inline]
    pub fn is_feasibility(&self) -> bool {
        self.unit == 0 && !self.has_penalty()
    }

    /// True when the penalty plays a part.
    #[inline]
    pub fn has_penalty(&self) -> bool {
        self.penalty > 0 && self.over_left > 0
    }

    /// Whether answer `a` pays the penalty.
    #[inline]
    pub fn counts(&self, a: AnswerId) -> bool {
        self.exempt.as_ref().is_none_or(|e| !e.contains(a))
    }

    /// How many of `ids` pay the penalty (0 when there is none).
    #[inline]
    pub fn counted(&self, ids: &[AnswerId]) -> u32 {
        if !self.has_penalty() {
            0
        } else {
            ids.iter().filter(|&&a| self.counts(a)).count() as u32
        }
    }

    #[inline]
    fn pen(&self, left: u8, w: u32) -> u64 {
        if self.has_penalty() && left == self.over_left {
            self.penalty as u64 * w as u64
        } else {
            0
        }
    }

    /// What every candidate of a state pays for the guess made there: the unit, and
    /// the penalty if this is the level of the first guess past the limit.
    #[inline]
    pub fn node(&self, n: usize, w: u32, left: u8) -> u32 {
        sat(self.unit as u64 * n as u64 + self.pen(left, w))
    }

    /// The cost of one candidate found by the guess at a node with `left` left.
    #[inline]
    pub fn single(&self, left: u8, counted: bool) -> u32 {
        if left == 0 {
            INFEASIBLE
        } else {
            sat(self.unit as u64 + self.pen(left, counted as u32))
        }
    }

    /// The size bound for `n` candidates (`w` counted) with `left` guesses left.
    #[inline]
    pub fn size_bound(&self, n: usize, w: u32, left: u8) -> u32 {
        match (n, left) {
            (0, _) => 0,
            (1, _) => self.single(left, w > 0),
            (_, 0 | 1) => INFEASIBLE,
            _ => sat(self.unit as u64 * (2 * n as u64 - 1)
                + self.pen(left, w)
                + self.pen(left - 1, w.saturating_sub(1))),
        }
    }

    /// The size bound, raised by the split bound when no guess makes more than
    /// `max_split` buckets on these candidates (module doc).
    #[inline]
    pub fn split_bound(&self, n: usize, w: u32, left: u8, max_split: usize) -> u32 {
        let size = self.size_bound(n, w, left);
        if n <= max_split || size >= INFEASIBLE {
            return size;
        }
        let unit = self.unit as u64 * (3 * n - max_split - 1) as u64;
        size.max(sat(unit
            + self.pen(left, w)
            + self.pen(left - 1, w.saturating_sub(1))
            + self.pen(left - 2, w.saturating_sub(max_split as u32))))
    }

    /// The endgame-group bound (`groups.rs`) of `n` candidates holding a group of `r`
    /// answers that differ in one position, with `left` guesses left, when a guess
    /// splits off at most `per` of them (5; hard mode `5 - greens`): infeasible when
    /// the group cannot be found in time. Otherwise the cost is additive over answers
    /// (a tree for the state, read for the group's answers only, is a tree for the
    /// group), so the state costs at least the group's least cost plus the size bound of
    /// the rest. The group's answers take at least `group_cost_per(r)` guesses in all,
    /// and at most `reach_per(t)` of them are found within the `t = left - over_left`
    /// guesses before the penalty is due, so with no exempt answer at least `r -
    /// reach_per(t)` of them pay it (all `r` when `t = 0`). Both hold in every tree,
    /// so their sum is a bound.
    #[inline]
    pub fn group_bound(&self, n: usize, r: u32, left: u8, per: u32) -> u32 {
        if r > super::groups::reach_per(left, per) {
            return INFEASIBLE;
        }
        let rest = (n as u64).saturating_sub(r as u64);
        let rest = if rest > 0 { 2 * rest - 1 } else { 0 };
        let unit = self.unit as u64 * (super::groups::group_cost_per(r, per) as u64 + rest);
        let over = self
            .before_penalty(left)
            .map_or(0, |t| r.saturating_sub(super::groups::reach_per(t, per)));
        sat(unit + self.penalty as u64 * over as u64)
    }

    /// The fewest candidates a state needs before [`Objective::group_bound`] can beat
    /// the size bound: a group of 7 (`groups.rs`) with a unit cost; with none, a group
    /// larger than the answers reachable before the penalty (or, without a penalty,
    /// before the limit). Smaller states skip counting their groups.
    #[inline]
    pub fn group_min(&self, left: u8, per: u32) -> usize {
        if self.unit > 0 {
            return super::groups::GROUP_MIN;
        }
        let reach = super::groups::reach_per(self.before_penalty(left).unwrap_or(left), per);
        (reach as usize + 1).max(super::groups::GROUP_MIN)
    }

    /// The guesses left before the penalty is due, when it is paid by every answer (no
    /// exempt ones) and not yet past; `None` otherwise.
    #[inline]
    fn before_penalty(&self, left: u8) -> Option<u8> {
        (self.has_penalty() && self.exempt.is_none() && left >= self.over_left)
            .then(|| left - self.over_left)
    }

    /// The fewest repeats (`n - buckets`) that prove a guess's bound reaches `cutoff`
    /// at a state of `n` candidates with `left` guesses left, so that a scan may drop a
    /// guess as soon as it has seen that many (`usize::MAX`: never). With `r` repeats
    /// and `c = 1` for a candidate, `3n - k - c = 2n + r - c >= 2n - 1 + r`, so:
    /// * without a penalty the per-guess bound is at least `unit(2n - 1 + r)`;
    /// * with a penalty paid at `left - 2` (`left == over_left + 2`) and no exempt
    ///   answer, every candidate is counted (`w = n`) and the penalty terms are
    ///   `pen(left - 2, n - k) = penalty * r` (the other two levels pay none), so the
    ///   bound is at least `unit(2n - 1) + (unit + penalty) r`.
    ///
    /// Either way the bound is at least `base + step * r`, which reaches `cutoff` for
    /// `r >= ceil((cutoff - base) / step)`. Other levels of a penalty objective: never.
    #[inline]
    pub fn max_repeats(&self, n: usize, left: u8, cutoff: u32) -> usize {
        if cutoff >= INFEASIBLE || n == 0 {
            return usize::MAX;
        }
        let base = self.unit as u64 * (2 * n as u64 - 1);
        let step = if !self.has_penalty() {
            self.unit as u64
        } else if self.exempt.is_none() && left == self.over_left + 2 {
            self.unit as u64 + self.penalty as u64
        } else {
            0
        };
        if step == 0 {
            return usize::MAX;
        }
        (cutoff as u64).saturating_sub(base).div_ceil(step) as usize
    }

    /// The per-guess bound (module doc) of a guess making `buckets` buckets; infeasible
    /// for a non-perfect split with two guesses left.
    #[inline]
    pub fn guess_bound(&self, n: usize, w: u32, buckets: usize, guess: Guess, left: u8) -> u32 {
        let is_candidate = guess != Guess::Other;
        let counted_candidate = guess == Guess::Counted;
        if left <= 2 && buckets < n {
            return INFEASIBLE;
        }
        let unit = self.unit as u64 * (3 * n - buckets - is_candidate as usize) as u64;
        sat(unit
            + self.pen(left, w)
            + self.pen(left - 1, w.saturating_sub(counted_candidate as u32))
            + self.pen(left.saturating_sub(2), w.saturating_sub(buckets as u32)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn total_objective_closed_forms() {
        let o = Objective::total();
        assert_eq!(o.size_bound(1, 0, 1), 1);
        assert_eq!(o.size_bound(2, 0, 1), INFEASIBLE);
        assert_eq!(o.size_bound(2, 0, 2), 3);
        assert_eq!(o.guess_bound(4, 0, 4, Guess::Candidate, 3), 7);
        assert_eq!(o.guess_bound(4, 0, 4, Guess::Other, 2), 8);
        assert_eq!(o.guess_bound(4, 0, 3, Guess::Candidate, 2), INFEASIBLE);
        assert_eq!(add(INFEASIBLE, 5), INFEASIBLE);
    }

    #[test]
    fn max_repeats_only_drops_guesses_whose_bound_reaches_the_cutoff() {
        let objectives = [
            Objective::total(),
            Objective::feasibility(),
            Objective::min_over(4, 6),
            Objective::count_over(4, 6),
            Objective::count_over(3, 6),
        ];
        for o in &objectives {
            for n in 1..40usize {
                for left in 2..=6u8 {
                    for cutoff in [0u32, 1, 5, 19, 40, 120, 1 << 17, (1 << 18) + 77] {
                        let m = o.max_repeats(n, left, cutoff);
                        for k in 1..=n {
                            let r = n - k;
                            for guess in [Guess::Other, Guess::Counted] {
                                let w = if o.has_penalty() { n as u32 } else { 0 };
                                let b = o.guess_bound(n, w, k, guess, left);
                                if r >= m {
                                    assert!(
                                        b >= cutoff,
                                        "{o:?} n {n} left {left} cutoff {cutoff} k {k}: {b}"
                                    );
                                }
                            }
                        }
                        // The rule is tight where it applies: one repeat fewer may not reach it.
                        if m > 0 && m <= n && left > 2 {
                            let k = n - (m - 1);
                            let b = o.guess_bound(n, n as u32, k, Guess::Counted, left);
                            if o.unit == 1 && !o.has_penalty() {
                                assert!(b < cutoff, "{o:?} n {n} cutoff {cutoff}: {b}");
                            }
                        }
                    }
                }
            }
        }
        // The group bound counts the group's answers that cannot be found in time:
        // 14 of `_ills` with 4 left (at most 16 found in time) and the penalty due at 2
        // left: at most 6 found before it.
        let o = Objective::count_over(4, 6);
        assert_eq!(o.group_bound(20, 14, 4, 5), 8);
        assert_eq!(o.group_bound(20, 14, 2, 5), INFEASIBLE);
        assert_eq!(o.group_min(4, 5), 7);
        assert_eq!(o.group_min(5, 5), 12);
        // Not at the levels a penalty is not paid two levels down, nor with exempt answers.
        assert_eq!(
            Objective::count_over(4, 6).max_repeats(50, 5, 3),
            usize::MAX
        );
        assert_eq!(Objective::count_over(4, 6).max_repeats(50, 4, 3), 3);
    }

    #[test]
    fn penalty_counts_unfound_answers() {
        // 6 guesses, D = 3: the node with 3 left is the 4th guess.
        let o = Objective::min_over(3, 6);
        assert_eq!(o.over_left, 3);
        assert_eq!(o.single(3, true), 1 + OVER_PENALTY);
        assert_eq!(o.single(4, true), 1);
        // Two candidates at the 3rd guess: one is found there, the other pays.
        assert_eq!(o.size_bound(2, 2, 4), 3 + OVER_PENALTY);
    }
}
