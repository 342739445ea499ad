//! Cores: proved lower bounds of candidate sets, reused for their supersets
//! (objectives that add up over answers; normal and hard mode).
//!
//! **The bound.** Every objective without a penalty is a sum over answers of what
//! each answer's depth costs (`bound.rs`). Take a tree for a state `C` with `left`
//! guesses, and a subset `D` of `C`: the same tree, read for the answers of `D` only
//! (the same guesses after the same feedback; a guess whose subtree keeps none of `D`
//! is dropped), is a tree for `D` with `left` guesses in which every answer of `D`
//! has its old depth. So `cost(C) >= cost(D) + cost(C \ D)`, and with the size bound
//! for the rest, `cost(C) >= cost(D) + size_bound(|C \ D|)`. In particular a set
//! that cannot be finished in time makes every superset infeasible.
//!
//! **Hard mode.** There a state is its candidates, its guesses left and what the
//! history revealed (`hard.rs`), and the argument above holds under one revealed
//! `R` (the tree for `C` read for `D` plays the same allowed guesses). A core `D`
//! proved under `R'` serves `C` under `R` when everything `R'` reveals, `R` reveals
//! too ([`Revealed::is_implied_by`]): every tree allowed under `R` is allowed under
//! `R'`, so `cost_R(D) >= cost_R'(D)`, and `cost_R(C)` is at least
//! `cost_R(D) + size_bound(rest)`, hence at least `cost_R'(D) + size_bound(rest)`.
//! Each core keeps the revealed it was proved under (in normal mode always the empty
//! one).
//!
//! **Which sets.** The search records each state it settles whose proved value
//! (exact, or a lower bound at least the cutoff) is at least two above the size bound
//! (a core of excess 1 adds nothing over the size bound of the whole). Before the
//! buckets of a guess are searched, a bucket that the cheap bounds leave open looks
//! for recorded cores among its subsets ([`Cores::bound`]). This catches what the
//! one-position groups of `groups.rs` catch and more: a bucket of a second guess that
//! holds a bucket of an earlier second guess which proved hard (its words differ in
//! two places, say) inherits that hardness without a scan of its own.
//!
//! **Index.** Cores are kept per thread (in the scratch, so they persist from one
//! search to the next: the facts hold for any opener) and found through their least
//! candidate: a subset of `C` has its least member in `C`, so only the cores listed
//! under one of `C`'s candidates are checked, each against a bitset of `C` after a
//! 64-bit signature test. Two shortcuts, each giving the same bound (measured on NYT
//! 2023 hard `sense`, forced avx2, one thread, the same 1 055 653 states: 108.6 ->
//! 59.4 CPU-s): the few cores that last refuted a lookup are tried first ([`RECENT`]:
//! an infeasible subset settles it, nothing is above), and a lookup skipped runs of
//! eight cores whose shared facts its revealed lacked, reading the lists latest
//! first. Since session 42 a list holds its cores in groups instead, one per
//! revealed they were proved under ([`Group`]): a lookup tests a group's facts and
//! implication once and then reads only cores it may use (the same bound, which is a
//! maximum, or infeasible at the first infeasible core found, in any order). On the AVX2 path
//! (AMD EPYC without AVX-512, one thread, the same 1 055 653 states) NYT 2023 hard
//! `sense` took 80.5 CPU-s with the runs and 64.8 with the groups, the two run side
//! by side; in `perf` the runs' loop had been about a fifth of `sense`'s time, most
//! of it in reading cores whose run passed but whose own facts did not.
//! When the cores hold more than [`CORE_IDS_MAX`] candidate ids
//! in all, they are dropped and recording starts afresh. Their bytes are charged to
//! `--memory` with the rest of the scratch.

use super::bound::{add, Objective, INFEASIBLE};
use super::heap::{cap, recharge};
use crate::game::hard::Revealed;
use crate::game::AnswerId;

/// Sets of fewer candidates are not recorded (a set of 2 is never above its size
/// bound by two: it costs 3 or 4 at most with two guesses).
pub(super) const CORE_MIN: usize = 3;

/// The default of [`super::Config::core_left`]: states with at least this many
/// guesses left (in a game of six: the opener's buckets and their second guesses'
/// buckets) look up cores. Measured when it was five
/// (farm-bench, one thread, NYT openers `faith taint hoiks edict stell etuis reffo
/// chout tutty`, `openers --exact`, identical results): no cores 45.5 CPU-s; cores
/// looked up at every depth about as slow as none (the lookups cost what they
/// saved: `tutty` 325k states -> 202k, time unchanged); at five or more left 33.0
/// (A/B 1.38; `tutty` 23.0 -> 19.2, `chout` 3.9 -> 2.7).
///
/// Lowered from five to four (session 33, build ab0087a25, avx512, one thread, the
/// same results and totals everywhere): the refutations of hard mode on the 2023
/// list are where it pays. There the second guesses of an infeasible opener bucket
/// (five left) are refuted one by one, each by a sub-bucket that cannot finish;
/// looked up at four left, the third guesses' buckets inherit what the second
/// guesses' buckets proved. `sense` (cannot finish) 222.3 -> 153.8 CPU-s, states
/// 2.37M -> 1.06M; `openers --exact` of `etats beaus azole blues bulky venge`
/// (farm-bench, 3 pairs) 74.8 -> 61.4 (A/B 0.82), states -40%. Neutral elsewhere: the
/// nine NYT openers above 10.05 -> 9.96 CPU-s (the search has grown faster since),
/// NYT hard `--random 16 --seed 3` 27.9 -> 27.8, 2023 normal `--random 8 --seed 5`
/// 17.0 -> 17.0; `solve` `salet`, `trace`, hard `salet` A/B 1.00, 1.03, 1.02
/// (farm-bench, 7 pairs, within the noise), 2023 hard `tarse` 0.94. Three left adds
/// nothing over four (the same states on the six openers).
pub const CORE_LEFT: u8 = 4;

/// The most candidate ids all cores of one thread hold (2 bytes each: 16 MiB).
/// Raised from 2^22 (session 37): the cores persist from one opener to the next in
/// `openers`, and at 2^22 the 76 openers of the 2023 hard sample (seed 1) before
/// `sense` left so many that its refutation reset them halfway: `sense` 72.7 CPU-s
/// after them against 58 alone (1.10M states against 1.06M); at 2^23 57.7 (778k
/// states), at 2^24 56.1 (729k). Forced avx2, one thread.
pub(super) const CORE_IDS_MAX: usize = 1 << 23;

/// Guesses left up to this many (exclusive) are indexed; deeper states record none.
const LEFT_SLOTS: usize = 8;

/// One proved fact: the set `ids[start..start + len]` (with the guesses left of the
/// list it is in) costs at least `value`.
#[derive(Clone, Copy)]
struct Core {
    sig: u64,
    start: u32,
    len: u16,
    value: u32,
}

impl Core {
    /// The cheap tests of a core against a set of `n` candidates with signature
    /// `sig`: smaller, and its signature inside. What remains is its group's
    /// history ([`Cores::implied`]) and [`Cores::holds`].
    #[inline]
    fn fits(&self, sig: u64, n: usize) -> bool {
        self.sig & !sig == 0 && (self.len as usize) < n
    }
}

/// Cores of one slot of the index proved under one revealed: a lookup tests the
/// group's facts and implication once and reads its cores only when they hold. In
/// hard mode nine of ten cores a lookup reads were proved under a history its own
/// does not imply (`sense` above: 14.7G of the entries read, 13.3G failed on their
/// facts); `sense`'s 100k cores fall into 8135 groups over 999 lists.
struct Group {
    /// [`Revealed::facts`] of the revealed: a lookup under a revealed whose facts
    /// miss one of these bits cannot use the group, and skips it without reading
    /// `reveals`. That random access was about a third of the lookups' time in hard
    /// mode when it was made per core (`expand`, where they are inlined, 17% -> 11%
    /// of `--list nyt --hard solve --opener botty`; farm-bench, one thread, NYT hard
    /// `nyong botty vivos cheth`, `openers --exact`: 57.5 -> 52.0 CPU-s, A/B 1.11).
    facts: u64,
    /// Index of the revealed, in `Cores::reveals`.
    revealed: u32,
    cores: Vec<Core>,
}

/// Cores of one slot of the index, by the revealed they were proved under.
#[derive(Default)]
struct List {
    groups: Vec<Group>,
}

impl List {
    fn bytes(&self) -> usize {
        cap(&self.groups) + self.groups.iter().map(|g| cap(&g.cores)).sum::<usize>()
    }
}

/// The cores of one thread (module doc).
#[derive(Default)]
pub(super) struct Cores {
    ids: Vec<u16>,
    /// What the groups were proved under, one entry per new group (groups made one
    /// after another under an equal revealed, in different lists, share an entry).
    reveals: Vec<Revealed>,
    /// `by_least[a * LEFT_SLOTS + left]`: the cores with `left` guesses left whose
    /// least candidate is answer `a`.
    by_least: Vec<List>,
    /// Cores recorded.
    count: usize,
    /// A bitset of the set being looked up (kept zero between lookups).
    bits: Vec<u64>,
    /// Bytes last charged against the memory budget.
    charged: usize,
    /// The largest candidate id of any core.
    max_id: usize,
    /// Heap bytes of the lists' own vectors, kept as they grow (a sum over every
    /// list at each charge was 14% of `solve --opener salet`: the pool charges a
    /// scratch each time it comes back).
    list_bytes: usize,
    /// Where the cores that last settled a lookup at infeasible are (`by_least` slot,
    /// group in its list, index in the group), the latest first: checked before the index ([`RECENT`]).
    recent: Vec<(u32, u32, u32)>,
}

/// Cores that last refuted a lookup, kept to be tried first. Measured on NYT 2023
/// hard `sense` (its bucket `BYBBB`, 477 answers with five guesses left, refuted
/// second guess by second guess; forced avx2, one thread): 2.74M lookups scanned
/// 33.6G index entries (12 260 each, 40% of the run's samples in that loop), and 88%
/// of them found an infeasible core: the same few cores (a cluster of `-ared` or
/// `-ower` words, say) refute bucket after bucket of sibling guesses.
const RECENT: usize = 8;

fn signature(ids: impl Iterator<Item = usize>) -> u64 {
    ids.fold(0, |s, i| s | 1 << (i.wrapping_mul(0x9E37_79B9) >> 7 & 63))
}

impl Cores {
    /// Heap bytes held.
    pub(super) fn bytes(&self) -> usize {
        cap(&self.ids)
            + cap(&self.by_least)
            + self.list_bytes
            + cap(&self.recent)
            + cap(&self.bits)
            + cap(&self.reveals)
    }

    /// Re-measures the cores and moves their charge on `meter` to match.
    pub(super) fn charge(&mut self, meter: &std::sync::atomic::AtomicUsize) {
        self.charge_with(|charged, now| recharge(meter, charged, now));
    }

    /// Re-measures the cores and hands `charge` what they last charged and their bytes
    /// now (as `Level::charge_with` in `scratch.rs`).
    pub(super) fn charge_with(&mut self, charge: impl FnOnce(&mut usize, usize)) {
        let now = self.bytes();
        charge(&mut self.charged, now);
    }

    /// Records that `ids` (sorted) with `left` guesses left, under `revealed`, costs
    /// at least `value`, when that is at least two above the size bound.
    pub(super) fn record(
        &mut self,
        obj: &Objective,
        ids: &[AnswerId],
        left: u8,
        revealed: &Revealed,
        value: u32,
    ) {
        let n = ids.len();
        if n < CORE_MIN
            || n > u16::MAX as usize
            || left as usize >= LEFT_SLOTS
            || value < add(obj.size_bound(n, obj.counted(ids), left), 2)
        {
            return;
        }
        if self.ids.len() + n > CORE_IDS_MAX {
            self.count = 0;
            self.recent.clear();
            self.ids.clear();
            self.reveals.clear();
            for list in &mut self.by_least {
                list.groups.clear();
            }
        }
        let slot = ids[0].index() * LEFT_SLOTS + left as usize;
        if self.by_least.len() <= slot {
            self.by_least.resize_with(slot + LEFT_SLOTS, List::default);
        }
        let list = &mut self.by_least[slot];
        let before = list.bytes();
        let facts = revealed.facts();
        let reveals = &mut self.reveals;
        let at = match list
            .groups
            .iter()
            .rposition(|g| g.facts == facts && reveals[g.revealed as usize] == *revealed)
        {
            Some(at) => at,
            None => {
                if reveals.last() != Some(revealed) {
                    reveals.push(*revealed);
                }
                list.groups.push(Group {
                    facts,
                    revealed: (reveals.len() - 1) as u32,
                    cores: Vec::new(),
                });
                list.groups.len() - 1
            }
        };
        list.groups[at].cores.push(Core {
            sig: signature(ids.iter().map(|a| a.index())),
            start: self.ids.len() as u32,
            len: n as u16,
            value,
        });
        self.list_bytes = self.list_bytes + list.bytes() - before;
        self.count += 1;
        self.ids.extend(ids.iter().map(|a| a.index() as u16));
        self.max_id = self.max_id.max(ids[n - 1].index());
    }

    /// The best bound the recorded cores give `ids` (sorted) with `left` guesses left
    /// under `revealed`: `cost(D) + size_bound(rest)` over recorded proper subsets `D`
    /// proved under what `revealed` implies (module doc); 0 when none is recorded.
    pub(super) fn bound(
        &mut self,
        obj: &Objective,
        ids: &[AnswerId],
        left: u8,
        revealed: &Revealed,
    ) -> u32 {
        if self.count == 0 || left as usize >= LEFT_SLOTS {
            return 0;
        }
        let n = ids.len();
        let sig = signature(ids.iter().map(|a| a.index()));
        let facts = revealed.facts();
        // The recent refuters first: a subset among them settles the lookup (nothing
        // is above infeasible), so the index is not read.
        if self.recent_hit(ids, sig, facts, left, revealed) {
            return INFEASIBLE;
        }
        // Room for every id of the set and of the cores (answer ids, so a few
        // hundred words at most).
        let top = self.max_id.max(ids[n - 1].index());
        if self.bits.len() <= top / 64 {
            self.bits.resize(top / 64 + 1, 0);
        }
        for a in ids {
            let i = a.index();
            self.bits[i / 64] |= 1 << (i % 64);
        }
        let mut best = 0;
        'lists: for a in ids {
            let slot = a.index() * LEFT_SLOTS + left as usize;
            let Some(list) = self.by_least.get(slot) else {
                break; // ids are sorted: no later one has cores either
            };
            // The latest first: a refuter of this search's siblings comes soon.
            for (gi, group) in list.groups.iter().enumerate().rev() {
                if !self.implied(group, facts, revealed) {
                    continue; // every core of the group was proved under more
                }
                for (i, &core) in group.cores.iter().enumerate().rev() {
                    if !core.fits(sig, n) {
                        continue;
                    }
                    let rest = n - core.len as usize;
                    // The rest's counted candidates are not known without the
                    // subset: the size bound with none counted is the least it
                    // can be.
                    let v = add(core.value, obj.size_bound(rest, 0, left));
                    if v <= best {
                        continue;
                    }
                    if !self.holds(&core) {
                        continue;
                    }
                    best = v;
                    if best >= INFEASIBLE {
                        if core.value >= INFEASIBLE {
                            if self.recent.len() == RECENT {
                                self.recent.pop();
                            }
                            self.recent.insert(0, (slot as u32, gi as u32, i as u32));
                        }
                        break 'lists;
                    }
                }
            }
        }
        for a in ids {
            let i = a.index();
            self.bits[i / 64] &= !(1 << (i % 64));
        }
        best
    }

    /// The lists' bytes summed list by list (what `list_bytes` keeps).
    #[cfg(test)]
    fn list_bytes_by_sum(&self) -> usize {
        self.by_least.iter().map(List::bytes).sum()
    }

    /// Whether one of the recent refuters ([`RECENT`]) is a subset of `ids` (sorted)
    /// with `left` guesses left under `revealed`: then [`Cores::bound`] is
    /// infeasible. Reads no index and sets no bits (a merge of two sorted lists), so
    /// a guess can try it on every bucket before their other bounds.
    pub(super) fn recent_refutes(
        &mut self,
        ids: &[AnswerId],
        left: u8,
        revealed: &Revealed,
    ) -> bool {
        if self.recent.is_empty() || left as usize >= LEFT_SLOTS {
            return false;
        }
        let sig = signature(ids.iter().map(|a| a.index()));
        self.recent_hit(ids, sig, revealed.facts(), left, revealed)
    }

    /// [`Cores::recent_refutes`] for a set whose signature and facts are known; a
    /// refuter found moves to the front.
    fn recent_hit(
        &mut self,
        ids: &[AnswerId],
        sig: u64,
        facts: u64,
        left: u8,
        revealed: &Revealed,
    ) -> bool {
        for r in 0..self.recent.len() {
            let (slot, group, at) = self.recent[r];
            if slot as usize % LEFT_SLOTS != left as usize {
                continue;
            }
            let group = &self.by_least[slot as usize].groups[group as usize];
            let core = group.cores[at as usize];
            if !core.fits(sig, ids.len()) || !self.implied(group, facts, revealed) {
                continue;
            }
            let members = &self.ids[core.start as usize..][..core.len as usize];
            let mut rest = ids.iter().map(|a| a.index() as u16);
            if members.iter().all(|&m| rest.any(|a| a == m)) {
                self.recent[..=r].rotate_right(1);
                return true;
            }
        }
        false
    }

    /// Whether the cores of `group` were proved under what `revealed` (whose facts
    /// are `facts`) implies: the facts word first, then the revealed itself.
    #[inline]
    fn implied(&self, group: &Group, facts: u64, revealed: &Revealed) -> bool {
        if group.facts & !facts != 0 {
            return false;
        }
        // (Equal first: in normal mode every core's is the empty one.)
        let proved_under = &self.reveals[group.revealed as usize];
        proved_under == revealed || proved_under.is_implied_by(revealed)
    }

    /// Whether every member of `core` is in the set marked in `self.bits`.
    #[inline]
    fn holds(&self, core: &Core) -> bool {
        let members = &self.ids[core.start as usize..][..core.len as usize];
        members
            .iter()
            .all(|&m| self.bits[m as usize / 64] >> (m % 64) & 1 == 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 11) as usize % n
        }
        fn set(&mut self, universe: usize, most: usize) -> Vec<AnswerId> {
            let size = 1 + self.below(most);
            let mut ids: Vec<AnswerId> = (0..size)
                .map(|_| AnswerId::new(self.below(universe)))
                .collect();
            ids.sort_unstable();
            ids.dedup();
            ids
        }
    }

    fn is_subset(small: &[AnswerId], big: &[AnswerId]) -> bool {
        small.iter().all(|a| big.contains(a))
    }

    /// The indexed lookup against its definition, checked naively: the best of
    /// `value + size_bound(rest)` over the recorded facts (those two above their size
    /// bound) about proper subsets with the same guesses left, proved under a
    /// revealed that the query's implies (hard mode: a few histories of one or two
    /// guesses, some implying others).
    #[test]
    fn bound_matches_its_definition() {
        let obj = Objective::total();
        let mut rng = Rng(0x5eed);
        let w = |s: &str| crate::game::word::Word::parse(s).unwrap();
        let fb = crate::game::feedback::Feedback::compute;
        let r1 = Revealed::default().after(w("salet"), fb(w("salet"), w("eerie")));
        let r2 = r1.after(w("tenor"), fb(w("tenor"), w("eerie")));
        let r3 = Revealed::default().after(w("mamma"), fb(w("mamma"), w("llama")));
        let reveals = [Revealed::default(), r1, r2, r3];
        assert!(r1.is_implied_by(&r2) && !r2.is_implied_by(&r1) && !r3.is_implied_by(&r2));
        type Fact = (Vec<AnswerId>, u8, Revealed, u32);
        let naive = |facts: &[Fact], query: &[AnswerId], left: u8, revealed: &Revealed| {
            facts
                .iter()
                .filter(|(ids, l, r, v)| {
                    *l == left
                        && (r == revealed || r.is_implied_by(revealed))
                        && ids.len() >= CORE_MIN
                        && ids.len() < query.len()
                        && *v >= add(obj.size_bound(ids.len(), 0, *l), 2)
                        && is_subset(ids, query)
                })
                .map(|(ids, _, _, v)| add(*v, obj.size_bound(query.len() - ids.len(), 0, left)))
                .max()
                .unwrap_or(0)
        };
        let mut refuted_by_recent = 0;
        for round in 0..40 {
            let universe = 8 + rng.below(60);
            let mut cores = Cores::default();
            let mut facts = Vec::new();
            let records = rng.below(120);
            for r in 0..=records {
                if r % 10 == 0 {
                    // Lookups between records: the recent refuters and the runs'
                    // shared facts must follow the lists as they grow.
                    for _ in 0..20 {
                        let query = rng.set(universe, 30);
                        let left = 2 + rng.below(5) as u8;
                        let revealed = reveals[rng.below(reveals.len())];
                        let want = naive(&facts, &query, left, &revealed);
                        if cores.recent_refutes(&query, left, &revealed) {
                            assert_eq!(want, INFEASIBLE, "round {round}, {query:?}");
                            refuted_by_recent += 1;
                        }
                        assert_eq!(
                            cores.bound(&obj, &query, left, &revealed),
                            want,
                            "round {round}"
                        );
                    }
                }
                assert_eq!(cores.list_bytes, cores.list_bytes_by_sum(), "round {round}");
                if r == records {
                    break;
                }
                let ids = rng.set(universe, 12);
                let left = 2 + rng.below(5) as u8;
                let value = if rng.below(10) == 0 {
                    INFEASIBLE
                } else {
                    (2 * ids.len() as u32).saturating_sub(2) + rng.below(8) as u32
                };
                let revealed = reveals[rng.below(reveals.len())];
                cores.record(&obj, &ids, left, &revealed, value);
                facts.push((ids, left, revealed, value));
            }
            for _ in 0..200 {
                let query = rng.set(universe, 30);
                let left = 2 + rng.below(5) as u8;
                let revealed = reveals[rng.below(reveals.len())];
                let want = naive(&facts, &query, left, &revealed);
                assert_eq!(
                    cores.bound(&obj, &query, left, &revealed),
                    want,
                    "round {round}, {query:?}"
                );
            }
        }
        assert!(
            refuted_by_recent > 0,
            "the recent refuters were never tried with success"
        );
    }
}
