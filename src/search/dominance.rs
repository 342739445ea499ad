//! Guess dominance by refinement (normal mode): a guess need not be tried at a state
//! when another guess available there splits the candidates at least as finely.
//!
//! **The rule.** Let `h` and `g` be guesses, `S` a state, and say `h` *refines* `g` on
//! `S` when any two candidates that `h` gives the same feedback also get the same
//! feedback from `g` (every bucket of `h` lies inside a bucket of `g`). If `g` is not a
//! candidate of `S` and `h` refines `g`, then `cost(h, S) <= cost(g, S)` for every
//! objective the search knows (each is a sum over answers of a non-decreasing
//! function of the answer's depth, `bound.rs`): take an optimal tree below `g` and,
//! for each bucket `B'` of `h` inside the bucket `B` of `g`, the subtree of `B`
//! restricted to `B'` (drop the answers not in `B'`, and any guess whose subtree is
//! left empty). Every answer keeps or lowers its depth, and the answers `g` would
//! have found at once do not exist (`g` is not a candidate). So `g` can be skipped
//! at `S`, and on every subset of `S` too: refinement survives restriction, and `g`
//! stays a non-candidate.
//!
//! **No cycles.** A guess is skipped only for a dominator `h` that is a candidate
//! (never skipped itself) or makes strictly more buckets (so two guesses with the same
//! partition never skip each other). Following dominators from a skipped guess thus
//! strictly increases the bucket count or reaches a candidate, and ends at a guess
//! that is not skipped; refinement is transitive, so that guess refines the first.
//! The dominator must be available at the state: handed down by the parent. Then it
//! (or a guess of its partition class, which refines exactly the same guesses) is
//! either searched, ruled out by a bound (so it costs at least the best found, and
//! so does the guess it dominates), or skipped for a dominator of its own.
//!
//! **Which pairs.** Testing every pair of guesses costs `O(guesses^2 n)`; the test is
//! only made between *neighbours*, allowed words that differ in one position. That
//! finds the common case: a guess holding a letter no candidate has (gray on every
//! candidate, so it tells nothing) next to a word with a live letter there. The
//! test itself is exact whatever the pair: it compares the two partitions.
//!
//! Measured (`wordle-tree --threads 1 bench --full`, totals unchanged): scanned pairs
//! salet 140 M -> 96 M, trace 1091 M -> 678 M; instructions (callgrind) of the poor
//! opener's state `--list nyt next --opener proxy proxy:BBBBB` 72.4 G -> 61.9 G. At
//! `judos:BBBBB` (NYT lists, 731 candidates) about 5,700 of the 12,833 guesses left
//! after the scan are skipped, and the children are handed 7,738 guesses instead of
//! about 12,800. Hard mode is left out: the two guesses would have to be legal at
//! the same states and reveal as much.

use super::kernels::AnswerMajor;
use super::state::Guesses;
use crate::game::feedback::Feedback;
use crate::game::word::Word;
use crate::game::GuessId;

/// States with fewer candidates do not look for dominated guesses (the check costs
/// a scan of the state per neighbour; small states have cheap expansions). The
/// default of [`super::Config::dominance_min`].
pub const DOMINANCE_MIN: usize = 24;

/// For each guess, its neighbours: allowed words that differ from it in exactly one
/// position (compressed rows: `start[g]..start[g + 1]` into `list`).
pub(super) struct Neighbours {
    start: Vec<u32>,
    list: Vec<GuessId>,
}

impl Neighbours {
    /// The neighbour lists of `words` (the allowed guesses, by id).
    pub(super) fn new(words: &[Word]) -> Neighbours {
        let n = words.len();
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        let mut keyed: Vec<(u32, u32)> = Vec::with_capacity(n);
        for p in 0..5 {
            keyed.clear();
            // The word with position `p` blanked, as 5 bits per other letter.
            keyed.extend(words.iter().enumerate().map(|(i, w)| {
                let mut key = 0u32;
                for (q, &b) in w.0.iter().enumerate() {
                    key = key << 5 | if q == p { 31 } else { (b - b'a') as u32 };
                }
                (key, i as u32)
            }));
            keyed.sort_unstable();
            for run in keyed.chunk_by(|a, b| a.0 == b.0) {
                for &(_, a) in run {
                    for &(_, b) in run {
                        if a != b {
                            pairs.push((a, b));
                        }
                    }
                }
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        let mut start = vec![0u32; n + 1];
        for &(a, _) in &pairs {
            start[a as usize + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let list = pairs.iter().map(|&(_, b)| GuessId(b as u16)).collect();
        Neighbours { start, list }
    }

    /// The neighbours of `g`.
    #[inline]
    pub(super) fn of(&self, g: GuessId) -> &[GuessId] {
        let i = g.index();
        &self.list[self.start[i] as usize..self.start[i + 1] as usize]
    }
}

impl AnswerMajor {
    /// True when `h` dominates `g` on the candidates at `offsets`: `g` is not a
    /// candidate, `h` refines `g`, and `h` is a candidate or makes more buckets.
    pub(super) fn dominates(&self, h: GuessId, g: GuessId, offsets: &[usize]) -> bool {
        const FREE: u8 = u8::MAX;
        let green = Feedback::ALL_GREEN.0;
        let (hi, gi) = (h.index(), g.index());
        let bytes = &self.bytes[..];
        // to_g[fh]: the feedback of g shared by h's bucket fh; to_h[fg]: the first
        // feedback of h seen in g's bucket fg (a second one means h splits it).
        let mut to_g = [FREE; 256];
        let mut to_h = [FREE; 256];
        let (mut finer, mut h_candidate) = (false, false);
        for &o in offsets {
            let fh = bytes[o + hi];
            let fg = bytes[o + gi];
            if fg == green {
                return false;
            }
            h_candidate |= fh == green;
            let m = &mut to_g[fh as usize];
            if *m == FREE {
                *m = fg;
            } else if *m != fg {
                return false;
            }
            let r = &mut to_h[fg as usize];
            if *r == FREE {
                *r = fh;
            } else if *r != fh {
                finer = true;
            }
        }
        finer || h_candidate
    }
}

impl super::Solver<'_> {
    /// True when a neighbour of `g` handed down by the parent dominates `g` on the
    /// candidates at `offsets` (normal mode only; the caller checks).
    pub(super) fn dominated(&self, g: GuessId, handed: &Guesses, offsets: &[usize]) -> bool {
        let neighbours = self.neighbours();
        neighbours
            .of(g)
            .iter()
            .any(|&h| handed.has(h.index()) && self.rows.dominates(h, g, offsets))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::AnswerId;
    use crate::search::kernels::tests::{loaded, xorshift};

    /// The neighbour lists hold exactly the pairs at one letter's distance, and
    /// `dominates` agrees with the definition (every pair of candidates that `h`
    /// leaves together, `g` leaves together; `g` not a candidate; `h` a candidate or
    /// with more buckets) on random states of the full lists, neighbours or not.
    #[test]
    fn dominance_matches_its_definition() {
        let (game, table, major) = loaded("wordle");
        let words = &game.guesses;
        let nb = Neighbours::new(words);
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        let distance = |a: Word, b: Word| (0..5).filter(|&i| a.0[i] != b.0[i]).count();
        for _ in 0..300 {
            let g = GuessId::new(next(words.len()));
            let mut want: Vec<GuessId> = (0..words.len())
                .map(GuessId::new)
                .filter(|&h| distance(words[h.index()], words[g.index()]) == 1)
                .collect();
            want.sort_unstable();
            assert_eq!(nb.of(g), &want[..], "neighbours of {}", words[g.index()]);
        }
        let mut hits = 0;
        for round in 0..400 {
            // Candidates from a window of the answers (shared letters).
            let n = 2 + next(80);
            let start = next(game.n_answers() - 200);
            let mut ids: Vec<AnswerId> = (0..n).map(|_| AnswerId::new(start + next(200))).collect();
            ids.sort_unstable();
            ids.dedup();
            let offsets: Vec<usize> = ids.iter().map(|&a| a.index() * words.len()).collect();
            let g = GuessId::new(next(words.len()));
            let hs: Vec<GuessId> = if round % 2 == 0 && !nb.of(g).is_empty() {
                nb.of(g).to_vec()
            } else {
                (0..20).map(|_| GuessId::new(next(words.len()))).collect()
            };
            let fb = |x: GuessId, a: AnswerId| table.row(x)[a.index()];
            let green = Feedback::ALL_GREEN.0;
            for h in hs {
                let refines = ids.iter().all(|&a| {
                    ids.iter()
                        .all(|&b| fb(h, a) != fb(h, b) || fb(g, a) == fb(g, b))
                });
                let buckets = |x: GuessId| {
                    let mut f: Vec<u8> = ids.iter().map(|&a| fb(x, a)).collect();
                    f.sort_unstable();
                    f.dedup();
                    f.len()
                };
                let is_candidate = |x: GuessId| ids.iter().any(|&a| fb(x, a) == green);
                let want =
                    !is_candidate(g) && refines && (is_candidate(h) || buckets(h) > buckets(g));
                assert_eq!(major.dominates(h, g, &offsets), want, "{h:?} over {g:?}");
                hits += want as usize;
            }
        }
        assert!(hits > 0, "no dominance seen: the test tests nothing");
    }
}
