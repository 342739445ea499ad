//! What a state hands its children after its scan ([`Solver::classify`]): one guess
//! per partition class in normal mode (dominated guesses dropped, and a compact table
//! of them for large states), the playable guesses that split it in hard mode.

use crate::game::candidates::Labels;
use crate::game::hard::class_of;
use crate::game::GuessId;
use crate::search::bits::members;
use crate::search::scratch::{Classes, Level};
use crate::search::state::State;
use crate::search::Solver;

impl Solver<'_> {
    /// Fills `level.allowed` with the guesses the children need: in normal mode one
    /// guess per partition class of the state (compared exactly, by canonical labels:
    /// bucket numbers in order of first appearance); in hard mode every allowed guess.
    /// Guesses that do not split the state and are not candidates are left out. Done
    /// only for states that expand a guess (about one in five at four guesses left).
    pub(in crate::search) fn classify(&self, st: &State, level: &mut Level, classes: &mut Classes) {
        let State { ids, handed, .. } = *st;
        let parent_allowed = handed.list;
        let n = ids.len();
        level.allowed.clear();
        level.has_local = false;
        level.allowed_bits.clear();
        level
            .allowed_bits
            .resize(self.game.n_guesses().div_ceil(64), 0);
        if self.config.hard {
            // No partition classes in hard mode (a child's guesses depend on its
            // hints): the guesses the state may play (`scan_bits`, from the scan) that
            // split it are handed down, one per class of `hard::class_of` (guesses
            // that differ only in letters no candidate holds are the same move here
            // and below). With two or more candidates, a guess making one bucket is
            // no candidate. Measured: canonical labels of every guess here were 28%
            // of the CPU of `--list nyt --hard` `ovolo`; the classes, against every
            // guess (NYT 2023 hard `jokes oozes zooty`, one thread, farm-bench 3 pairs,
            // a table job beside): A/B 0.94 and 0.98 on the avx512 path, 0.975 on avx2,
            // the same states (equivalent guesses were searched alike).
            let mut present = 0u32;
            for &a in ids {
                present |= self.game.answers[a.index()].letter_mask();
            }
            classes.hard_seen.clear();
            for gi in members(&level.scan_bits) {
                let word = self.game.guesses[gi];
                // A guess of present letters only is alone in its class (another
                // guess of its class could differ from it only where it holds an
                // absent letter, and it holds none), so it needs no entry in the
                // set: the same guesses are handed down. In a large state nearly
                // every guess is such, and the class hash and the set's probes
                // were about half of this function's samples (`perf` of NYT 2023
                // hard `buzzy`, where `classify` was 6% of the run). Forced avx2,
                // one thread, the same 844 043 states: `buzzy` A/B 0.98 (3 pairs),
                // the 2023 hard sample 4.235 -> 4.050 CPU-s per opener (session
                // 48, docs/guide/performance.md).
                if self.rows.splits(GuessId::new(gi), &level.offsets)
                    && (word.letter_mask() & !present == 0
                        || classes.hard_seen.insert(class_of(word, present)))
                {
                    level.allowed.push(GuessId::new(gi));
                    level.allowed_bits[gi / 64] |= 1 << (gi % 64);
                }
            }
            if level.kids_ready {
                // The children's pre-scans read the lanes of these classes only.
                level.kids.hand(&level.local.guesses, &level.allowed_bits);
            }
            return;
        }
        classes.begin(n);
        for &g in parent_allowed {
            let gi = g.index();
            let Labels {
                buckets,
                hash,
                is_candidate,
            } = self.rows.labels(g, &level.offsets, &mut classes.current);
            if buckets == 1 && !is_candidate {
                continue;
            }
            if !is_candidate && classes.seen(hash, &self.tt) {
                continue;
            }
            if !is_candidate
                && n >= self.config.dominance_min
                && self.dominated(g, &handed, &level.offsets)
            {
                continue; // a neighbour handed down splits at least as finely
            }
            level.allowed.push(g);
            level.allowed_bits[gi / 64] |= 1 << (gi % 64);
        }
        // A compact table for the children when it narrows their scans enough to pay
        // for its `n * guesses` copy.
        level.has_local =
            n >= self.config.local_min && level.allowed.len() * 4 < self.game.n_guesses() * 3;
        if level.has_local {
            // Lanes strongest first (this state's guess bounds, then sums of squares;
            // guesses the scan dropped last), so the later blocks of a child's
            // least-bound scan hold weak guesses only and stop early.
            level.strength.clear();
            level.strength.resize(self.game.n_guesses(), u64::MAX);
            for &p in &level.order {
                level.strength[(p & 0xffff) as usize] = (p >> 17) as u64;
            }
            level.lanes.clear();
            level.lanes.extend_from_slice(&level.allowed);
            level.room_for_local(n, level.lanes.len(), &self.tt);
            let (strength, caps) = (&level.strength, &level.caps);
            level
                .lanes
                .sort_by_key(|g| (std::cmp::Reverse(caps[g.index()]), strength[g.index()], g.0));
            level
                .local
                .build(&self.rows, ids, &level.lanes, caps, &self.shapes);
        }
    }
}
