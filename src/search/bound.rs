//! Lower bounds on the cost of a state, each admissible (never above the true cost).
//!
//! Notation: a state has `n` candidates and `left` guesses still allowed; its cost is
//! the total number of guesses, counted from this node, needed to find every candidate.
//!
//! * **Size bound** `2n - 1`: every candidate needs at least one guess, and at most
//!   one candidate (the guess itself) is found with exactly one; every other candidate
//!   needs at least two. So cost >= 1 + 2(n - 1).
//! * **Per-guess bound** `3n - k - c`, for a guess that makes `k` buckets on the state
//!   and is itself a candidate (`c = 1`) or not (`c = 0`): the guess is paid by all `n`
//!   candidates, and each non-green bucket of size `m` costs at least `2m - 1` (size
//!   bound one level down). Summing over the `k - c` non-green buckets, which hold
//!   `n - c` candidates: `n + 2(n - c) - (k - c) = 3n - k - c`. It is exact when every
//!   bucket has at most two candidates (buckets of one and two cost 1 and 3) and at
//!   least two guesses remain after this one, or when all buckets are singletons.
//! * **No perfect candidate** `2n`: if no candidate splits the state into singletons,
//!   every candidate guess has `k <= n - 1` so its bound is at least `3n - (n-1) - 1`
//!   = `2n`, and every non-candidate has `k <= n` so at least `3n - n` = `2n`.
//! * **Two guesses left**: the second guess must find every candidate, so the first
//!   must split the state into singletons: cost `2n - 1` with a perfect candidate,
//!   `2n` with only a perfect non-candidate, otherwise infeasible.
//!
//! Tests in `tests/solver.rs` check every bound against exact values on random small
//! states.

/// Stands for "no tree exists" (infeasible within the guesses left). Large enough to
/// dominate any real cost, small enough that sums of a few never overflow `u32`.
pub const INFEASIBLE: u32 = 1 << 28;

/// Adds costs, saturating at [`INFEASIBLE`].
#[inline]
pub fn add(a: u32, b: u32) -> u32 {
    (a + b).min(INFEASIBLE)
}

/// The size bound for `n` candidates with `left` guesses: 1 for one candidate; with
/// one guess left, more than one candidate is infeasible; otherwise `2n - 1`.
#[inline]
pub fn size_bound(n: usize, left: u8) -> u32 {
    match (n, left) {
        (0, _) => 0,
        (1, l) if l >= 1 => 1,
        (_, 0 | 1) => INFEASIBLE,
        _ => 2 * n as u32 - 1,
    }
}

/// The per-guess bound `3n - k - c` (see the module doc), valid when at least two
/// guesses remain after this one; with one remaining, any bucket of two or more makes
/// the guess infeasible.
#[inline]
pub fn guess_bound(n: usize, buckets: usize, is_candidate: bool, left: u8) -> u32 {
    let c = is_candidate as usize;
    if left <= 2 && buckets < n {
        return INFEASIBLE;
    }
    (3 * n - buckets - c) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closed_forms() {
        assert_eq!(size_bound(1, 1), 1);
        assert_eq!(size_bound(2, 1), INFEASIBLE);
        assert_eq!(size_bound(2, 2), 3);
        assert_eq!(guess_bound(4, 4, true, 3), 7);
        assert_eq!(guess_bound(4, 4, false, 2), 8);
        assert_eq!(guess_bound(4, 3, true, 2), INFEASIBLE);
        assert_eq!(add(INFEASIBLE, 5), INFEASIBLE);
    }
}
