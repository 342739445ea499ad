//! Step 2b of a state's scan ([`Solver::scan_guesses`]): the bound of every guess the
//! parent handed down, in four named steps over a [`Scan`] in progress (the state, its
//! plan, the place in the lanes, what was found). [`Solver::plan_scan`] decides where
//! the guesses are read (a block kernel 32 at a time over the full table, a compact
//! table or a hard-mode pre-scan's windows, [`Kernel`]; the rest one at a time);
//! [`Solver::next_split`] gives the next guess's split (from the block in hand, the
//! next block, or the next single guess); [`Solver::take_split`] turns it into the
//! guess's bound (the incumbent, the least bound, the order of expansion); and
//! [`Solver::settle_scan`] stores what the scan proved. The level's own compact table
//! (hard mode) is lent out of the level for the scan, which writes the level while it
//! reads that table.
//!
//! Invariants (the module's, `scan/mod.rs`): a guess is dropped only when its bound
//! reaches the cutoff or, in a least-bound scan, the least bound found before it; the
//! caps recorded are at least the buckets each guess makes on any subset.

use super::letters::LetterCaps;
use super::{Head, KidLanes, Prepared, Scanned};
use crate::game::hard::Demand;
use crate::game::{AnswerId, GuessId};
use crate::search::bound::{Guess, INFEASIBLE};
use crate::search::kernels::{
    slices_for_greens, AnswerMajor, Keep, Lanes, Local, Split, Window, ALL_SLICES, BLOCK_MAX,
    LANES, PRESENCE_MAX_N,
};
use crate::search::scratch::Level;
use crate::search::state::{State, Work};
use crate::search::tt::{Bound, Key};
use crate::search::Solver;

/// The guess of lane `l` of the block read from lane `base` of `local` (through
/// `window` when the block is one), or of the full table.
fn lane_guess(local: Option<&Local>, window: Option<&Window>, base: usize, l: usize) -> GuessId {
    match (local, window) {
        (Some(t), Some(w)) => t.guesses[w.lane(l)],
        (Some(t), None) => t.guesses[base + l],
        (None, _) => GuessId::new(base + l),
    }
}

/// Word `w` of the bitset of a compact table's lanes that hold a guess (of `len`).
pub(super) fn lanes_below(len: usize, w: usize) -> u64 {
    match len.saturating_sub(64 * w) {
        0 => 0,
        k if k >= 64 => u64::MAX,
        k => (1u64 << k) - 1,
    }
}

/// The block kernel a scan runs 32 guesses at a time (`kernels`), by the state's size
/// and where its lanes come from; the one-guess scan when it runs none.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kernel {
    /// No blocks: one guess at a time.
    None,
    /// Pairwise comparison of the candidates' rows (at most [`BLOCK_MAX`] candidates).
    Pairwise,
    /// Per-lane masks of the feedbacks seen (at most [`PRESENCE_MAX_N`] candidates,
    /// or a pre-scan), over a window of the parent's table (a pre-scan: hard mode's
    /// playable lanes, normal mode's that the letter caps leave).
    Window,
    /// Per-lane masks of the feedbacks seen over a block in place.
    Presence,
    /// Per-lane bucket counts (larger states), in `tally` (zero, left zero).
    Tally,
}

impl Kernel {
    /// The kernel on the lanes `at` of `table` for the candidates at `offsets`, under
    /// `slices` and `keep` (see [`AnswerMajor::presence`]): the wanted lanes kept (the
    /// pairwise kernel: every lane under the limit), their splits in `block`.
    fn run(
        self,
        table: &AnswerMajor,
        at: Lanes,
        offsets: &[usize],
        (slices, keep): (u32, Keep),
        tally: &mut [[u16; 256]],
        block: &mut [Split; LANES],
    ) -> u32 {
        let n = offsets.len();
        match (self, at) {
            (Kernel::Pairwise, Lanes::Block(base)) => {
                table.block_scan(base, offsets, block);
                let mut kept = 0u32;
                for (l, split) in block.iter().enumerate() {
                    kept |= ((n - split.buckets < keep.max_repeats()) as u32) << l;
                }
                kept
            }
            (Kernel::Window, Lanes::Window(_)) | (Kernel::Presence, Lanes::Block(_)) => {
                table.presence(at, offsets, slices, keep, block)
            }
            (Kernel::Tally, Lanes::Block(base)) => {
                let counts = (&mut tally[..LANES]).try_into().expect("32 lanes");
                table.block_tally(base, offsets, keep, counts, block)
            }
            _ => unreachable!("a block kernel on its own lanes"),
        }
    }
}

/// The guesses a scan takes one at a time, after its blocks.
#[derive(Clone, Copy)]
enum Singles {
    /// None (a compact table's blocks hold every lane).
    None,
    /// The guesses from this one to the last (past the full table's last whole block).
    From(usize),
    /// The hard-mode state's playable guesses, `level.scan_list`.
    Playable,
}

/// What [`Solver::plan_scan`] decided, and the scan's fixed inputs.
struct Plan<'p> {
    head: Head,
    cutoff: u32,
    /// A least-bound scan's floor (raised to the head's bound).
    floor: Option<u32>,
    n: usize,
    /// The repeats that drop a guess under `cutoff`.
    max_repeats: usize,
    /// The feedbacks the lanes can show (hard mode: green where the state has greens),
    /// for the byte-sliced kernels.
    slices: u32,
    kernel: Kernel,
    /// The table the blocks read (lane -> guess through `local.guesses`): in normal
    /// mode the parent's compact one over exactly the guesses it handed down, in hard
    /// mode the state's own or its parent's by cap; `None`: the full one.
    local: Option<&'p Local>,
    /// Hard mode, the state's playable guesses dense enough for the full table's blocks.
    dense: bool,
    /// The blocks read end at this lane.
    block_end: usize,
    singles: Singles,
    /// Whether the scan records each guess's cap (`level.caps`).
    record: bool,
    /// The candidates' letter caps (`letters.rs`), for the scans whose lanes come from
    /// `level.lane_bits`: a lane capped at what a dropped guess makes is left out.
    letters: Option<LetterCaps>,
    /// Whether the lanes read come from `level.lane_bits`, filled as the scan
    /// reaches them: hard mode's pre-scans (the playable lanes of the parent's table
    /// by cap) and normal mode's pre-scans through windows (the lanes the letter caps
    /// leave).
    lane_bits: bool,
    /// Hard mode, a pre-scan (its `local` the parent's table by cap, read in place):
    /// the parent's lanes (`Guesses::sorted`) and what this state demands beyond the
    /// parent ([`Demand::beyond`]), for its playable lanes.
    kids: Option<(&'p KidLanes, Demand)>,
}

impl Plan<'_> {
    fn windowed(&self) -> bool {
        self.kernel == Kernel::Window
    }

    /// The cap recorded for a guess dropped under `max_repeats`: with that many
    /// repeats or more it makes at most `n - max_repeats` buckets.
    fn dropped_cap(&self, max_repeats: usize) -> u16 {
        self.n.saturating_sub(max_repeats).min(u16::MAX as usize) as u16
    }
}

/// The scan's place in its lanes.
struct Cursor {
    /// The block's lanes still to look at (handed down, not dropped early), from lane
    /// `base`: a block costs one pass over 32 lanes, not 32 loop turns.
    live: u32,
    base: usize,
    /// Where the next block starts.
    g_next: usize,
    /// Words of `level.lane_bits` filled so far (a pre-scan fills them as it goes).
    lane_words: usize,
    window: Window,
    block: [Split; LANES],
    /// Single guesses taken so far.
    single: usize,
    /// Lanes left out by their letter caps.
    capped: u64,
}

/// What the scan has found so far.
struct Found {
    /// The least bound of any guess.
    least: u32,
    /// The least bound of the guesses not in `level.order`.
    rejected: u32,
    /// The best perfect split, with its exact cost.
    incumbent: (u32, Option<GuessId>),
}

impl Found {
    /// Some guesses were dropped under the cutoff: their bounds are at least it.
    fn dropped(&mut self, cutoff: u32) {
        self.least = self.least.min(cutoff);
        self.rejected = self.rejected.min(cutoff);
    }
}

/// A scan in progress, what every step takes: the state, the plan, the place in the
/// lanes and what was found so far.
struct Scan<'s, 'p> {
    st: &'s State<'p>,
    plan: Plan<'p>,
    cur: Cursor,
    found: Found,
}

/// What [`Solver::next_split`] found.
enum Step {
    /// A guess's split.
    Split(GuessId, Split),
    /// Nothing yet: a block was read, or a guess skipped or dropped.
    Skip,
    /// Every guess is taken (or the rest cannot beat the least bound).
    End,
}

impl Solver<'_> {
    /// Step 2b: the bound of every guess the parent handed down, the guesses to expand
    /// into `level.order` (unsorted; see the module doc for the steps).
    pub(in crate::search) fn scan_guesses(
        &self,
        st: &State,
        cutoff: u32,
        head: Head,
        floor: Option<u32>,
        work: &mut Work,
    ) -> Scanned {
        // The state's own compact table (hard mode) is read while the level is
        // written, so it is lent out of the level for the scan.
        let mut own = std::mem::take(&mut work.levels[0].own);
        let (level, ctr) = work.level();
        ctr.scanned += (st.handed.list.len() * st.ids.len()) as u64;
        let plan = self.plan_scan(st, cutoff, head, floor, level, &mut own);
        let cur = Cursor {
            live: 0,
            base: 0,
            g_next: 0,
            lane_words: 0,
            window: Window::default(),
            block: [Split::default(); LANES],
            single: 0,
            capped: 0,
        };
        let found = Found {
            least: INFEASIBLE,
            rejected: INFEASIBLE,
            incumbent: (INFEASIBLE, None),
        };
        let mut scan = Scan {
            st,
            plan,
            cur,
            found,
        };
        let settled = loop {
            match self.next_split(&mut scan, level) {
                Step::Split(g, split) => {
                    if let Some(done) = self.take_split(&mut scan, g, split, level) {
                        break Some(done);
                    }
                }
                Step::Skip => {}
                Step::End => break None,
            }
        };
        ctr.letter_capped += scan.cur.capped;
        let scanned = settled.unwrap_or_else(|| self.settle_scan(scan, work));
        work.levels[0].own = own;
        scanned
    }

    /// Where the scan reads its guesses ([`Plan`]): hard mode's lanes first
    /// ([`Solver::hard_lanes`]), then the block kernel by the state's size and those
    /// lanes. Clears `level.order`, sets the level's flags and sizes its caps and tally.
    fn plan_scan<'p>(
        &'p self,
        st: &State<'p>,
        cutoff: u32,
        head: Head,
        floor: Option<u32>,
        level: &mut Level,
        own: &'p mut Local,
    ) -> Plan<'p> {
        let (ids, parent) = (st.ids, st.handed);
        let n = ids.len();
        let obj = &self.config.objective;
        let hard = self.config.hard;
        // A least-bound scan can raise nothing once its least is down to the head's
        // bound either (which may come from an earlier scan, through the table).
        let floor = floor.map(|f| f.max(head.lb));
        let slices = match hard {
            true => slices_for_greens(st.revealed.green_positions()),
            false => ALL_SLICES,
        };
        // A guess is dropped as soon as its repeated feedbacks prove its bound reaches
        // `cutoff` ([`crate::search::bound::Objective::max_repeats`]).
        level.order.clear();
        level.max_split = 0;
        // Normal mode: every guess, 32 at a time (masked to the parent's classes).
        // Small states by pairwise comparison; states up to PRESENCE_MAX_N by per-lane
        // masks of the feedbacks seen (every SIMD path); the rest by per-lane bucket
        // counts (kernels in `kernels/`). The guesses past the last whole block, and
        // hard mode's when very few are playable, one guess at a time.
        let whole = self.game.n_guesses() / LANES * LANES;
        let by_cap = parent.sorted.filter(|_| hard && floor.is_some());
        let sorted = by_cap.map(|(t, _)| t);
        let kids = by_cap.map(|(_, k)| (k, st.revealed.demand().beyond(&k.base)));
        let (dense, own_used) = match hard {
            true => self.hard_lanes(st, sorted, level, own),
            false => (false, false),
        };
        let own: &'p Local = own;
        let by_block = !hard || dense || own_used || sorted.is_some();
        // Normal mode's pre-scans over the parent's compact table read windows of
        // the lanes the letter caps leave (`letters.rs`), as hard mode's read its
        // playable lanes.
        let normal_windows = !hard
            && self.config.letter_caps
            && floor.is_some()
            && parent.local.is_some()
            && n > BLOCK_MAX
            && !self.rows.blocks_beat_windows();
        // A least-bound scan wants no sum of squares (it orders nothing), so it takes
        // the presence kernel at any size, not the tally.
        let presence = n <= PRESENCE_MAX_N || floor.is_some();
        let kernel = match n {
            _ if !by_block => Kernel::None,
            _ if n <= BLOCK_MAX => Kernel::Pairwise,
            _ if presence && (sorted.is_some() || normal_windows) => Kernel::Window,
            _ if presence => Kernel::Presence,
            _ => Kernel::Tally,
        };
        level.own_ready = own_used;
        level.kids_ready = false;
        let local = match (hard, own_used) {
            (true, true) => Some(own),
            (true, false) => sorted,
            (false, _) => parent.local,
        };
        let block_end = match (hard, local) {
            (_, Some(l)) => l.table.stride,
            (true, None) => whole * dense as usize,
            (false, None) => whole,
        };
        let singles = match (hard, local) {
            (_, Some(_)) => Singles::None,
            (true, None) if dense => Singles::From(whole),
            (true, None) => Singles::Playable,
            (false, None) => Singles::From(whole),
        };
        if let Some(l) = local {
            l.offsets(ids, &mut level.local_offsets);
        }
        let lane_bits = sorted.is_some() || (normal_windows && kernel == Kernel::Window);
        if lane_bits && !hard {
            // Filled as the scan reaches them (`next_block`).
            level.lane_bits.clear();
            level
                .lane_bits
                .resize(local.map_or(0, |l| l.table.stride).div_ceil(64), 0);
        }
        if kernel == Kernel::Tally && level.tally.len() < LANES {
            level.tally.resize(LANES, [0; 256]);
        }
        // A state that may build a compact table for its children keeps, per guess,
        // the most buckets it can make here (`Local::caps`): no more on any subset.
        // Hard mode: a state whose buckets are pre-scanned (`expand.rs`) records them,
        // for the children's table (`Solver::kids_table`).
        // (A least-bound scan builds no table: its caps are never read.)
        let record = if hard {
            floor.is_none()
                && head.left >= self.config.prescan_left
                && obj.unit > 0
                && n <= super::HARD_KIDS_MAX
        } else {
            floor.is_none() && n >= self.config.local_min
        };
        if record {
            level.caps.resize(self.game.n_guesses(), 0);
        }
        Plan {
            head,
            cutoff,
            floor,
            n,
            max_repeats: obj.max_repeats(n, head.left, cutoff),
            slices,
            kernel,
            local,
            dense,
            block_end,
            singles,
            record,
            letters: (lane_bits && self.config.letter_caps)
                .then(|| LetterCaps::of(&self.game.answers, ids)),
            lane_bits,
            kids,
        }
    }

    /// The next guess's split: the next live lane of the block in hand, else the next
    /// block ([`Solver::next_block`]), else the next single guess
    /// ([`Solver::next_single`]).
    fn next_split(&self, scan: &mut Scan, level: &mut Level) -> Step {
        let (plan, cur) = (&scan.plan, &mut scan.cur);
        if cur.live != 0 {
            let l = cur.live.trailing_zeros() as usize;
            cur.live &= cur.live - 1;
            let window = plan.windowed().then_some(&cur.window);
            return Step::Split(lane_guess(plan.local, window, cur.base, l), cur.block[l]);
        }
        if cur.g_next < plan.block_end {
            return self.next_block(scan, level);
        }
        self.next_single(scan, level)
    }

    /// Runs the block kernel on the next block (or window) of lanes, leaving its
    /// lanes kept in `cur.live`; the lanes dropped count under the cutoff. A
    /// least-bound scan over a table by cap ends at the first block whose cap cannot
    /// beat its least ([`Step::End`]).
    fn next_block(&self, scan: &mut Scan, level: &mut Level) -> Step {
        let Scan {
            st,
            plan,
            cur,
            found,
        } = scan;
        let n = plan.n;
        let windowed = plan.windowed();
        let base = cur.g_next;
        cur.base = base;
        let max_repeats = self.max_repeats_now(plan, found);
        if let (true, Some(t)) = (plan.lane_bits, plan.local) {
            let upto = (base + 2 * 64).min(plan.block_end).div_ceil(64);
            let beaten = n.saturating_sub(max_repeats);
            let mut capped = 0u64;
            for w in cur.lane_words..upto {
                let lanes = match plan.kids {
                    Some((k, beyond)) => k.playable(&beyond, w),
                    None => lanes_below(t.guesses.len(), w),
                };
                let kept = self.uncapped(plan, t, w, lanes, beaten);
                capped += (lanes & !kept).count_ones() as u64;
                level.lane_bits[w] = kept;
            }
            if capped != 0 {
                // Lanes left out by their caps: guesses dropped under the cutoff.
                found.dropped(plan.cutoff);
                cur.capped += capped;
            }
            cur.lane_words = cur.lane_words.max(upto);
        }
        cur.g_next = match windowed {
            true => cur.window.fill(&level.lane_bits, base, plan.block_end),
            false => base + LANES,
        };
        let handed_bits = match plan.local {
            Some(_) if windowed => cur.window.bits(),
            Some(_) if plan.kids.is_some() => (level.lane_bits[base / 64] >> (base % 64)) as u32,
            Some(t) => t.block(base),
            None if plan.dense => (level.scan_bits[base / 64] >> (base % 64)) as u32,
            None => st.handed.block(base),
        };
        if handed_bits == 0 {
            return Step::Skip;
        }
        // The kernels stop once every lane wanted has reached `max_repeats`.
        let mut want = handed_bits;
        if let (Some(_), Some(t)) = (plan.floor, plan.local) {
            // The lanes come in order of their caps on the parent: once a block's
            // first cap is at most `n - max_repeats`, no guess left can make more
            // buckets than a dropped one. Within a block, the lanes past that cap are
            // dropped without a look.
            let beaten = n.saturating_sub(max_repeats);
            let cap = |l: usize| match windowed {
                true => t.caps[cur.window.lane(l)] as usize,
                false => t.caps.get(base + l).map_or(0, |&c| c as usize),
            };
            if cap(0) <= beaten {
                found.dropped(plan.cutoff);
                return Step::End;
            }
            let lanes = if windowed { cur.window.len } else { LANES };
            let viable = (0..lanes).take_while(|&l| cap(l) > beaten).count();
            if viable < LANES {
                want &= (1u32 << viable) - 1;
            }
        }
        let at = match windowed {
            true => Lanes::Window(&cur.window),
            false => Lanes::Block(base),
        };
        let (table, offsets) = match plan.local {
            Some(l) => (&l.table, &level.local_offsets),
            None => (&self.rows, &level.offsets),
        };
        let kept = plan.kernel.run(
            table,
            at,
            offsets,
            (plan.slices, Keep::new(max_repeats, want)),
            &mut level.tally,
            &mut cur.block,
        );
        cur.live = handed_bits & kept;
        if handed_bits & !kept != 0 {
            found.dropped(plan.cutoff);
            if plan.record {
                let cap = plan.dropped_cap(max_repeats);
                let mut dropped = handed_bits & !kept;
                while dropped != 0 {
                    let l = dropped.trailing_zeros() as usize;
                    dropped &= dropped - 1;
                    let window = windowed.then_some(&cur.window);
                    level.caps[lane_guess(plan.local, window, base, l).index()] = cap;
                }
            }
        }
        Step::Skip
    }

    /// The repeats that drop a guess now: under the cutoff, or in a least-bound scan
    /// under the least bound found so far (a guess that cannot beat it).
    fn max_repeats_now(&self, plan: &Plan, found: &Found) -> usize {
        match plan.floor {
            Some(_) => {
                let least = found.least.min(plan.cutoff);
                self.config
                    .objective
                    .max_repeats(plan.n, plan.head.left, least)
            }
            None => plan.max_repeats,
        }
    }

    /// The lanes of `lanes` (word `w` of the compact table `t`'s lanes) that the
    /// letter caps leave: a lane capped at `beaten` buckets or fewer cannot beat a
    /// dropped guess (all of them without caps, or when `t` has no keys).
    fn uncapped(&self, plan: &Plan, t: &Local, w: usize, lanes: u64, beaten: usize) -> u64 {
        let (Some(caps), Some(keys)) = (&plan.letters, t.keys.word(w)) else {
            debug_assert!(
                plan.letters.is_none() || lanes == 0,
                "a table by cap without keys"
            );
            return lanes;
        };
        lanes & !caps.capped(keys, lanes, beaten, self.rows.simd())
    }

    /// The next guess taken alone (early rejection by `bound_scan`): skipped when not
    /// handed down (hard mode: not playable), dropped under the cutoff.
    fn next_single(&self, scan: &mut Scan, level: &mut Level) -> Step {
        let (plan, single) = (&scan.plan, &mut scan.cur.single);
        let g = match plan.singles {
            Singles::None => None,
            Singles::From(first) => self.all_guesses.get(first + *single),
            Singles::Playable => level.scan_list.get(*single),
        };
        let Some(&g) = g else { return Step::End };
        *single += 1;
        let gi = g.index();
        if self.config.hard && level.scan_bits[gi / 64] >> (gi % 64) & 1 == 0 {
            return Step::Skip; // not playable here
        }
        if !self.config.hard && !scan.st.handed.has(gi) {
            return Step::Skip;
        }
        let max_repeats = self.max_repeats_now(plan, &scan.found);
        match self
            .rows
            .bound_scan(g, &level.offsets, &mut level.counts, max_repeats)
        {
            Some(split) => Step::Split(g, split),
            None => {
                scan.found.dropped(plan.cutoff);
                if plan.record {
                    level.caps[gi] = plan.dropped_cap(max_repeats);
                }
                Step::Skip
            }
        }
    }

    /// A guess's split taken into the scan: its cap recorded, its bound into the
    /// least bound and the incumbent (a perfect split at the state's bound settles the
    /// state), the guess into `level.order` when under the cutoff. `Some`: the scan
    /// ends with that.
    fn take_split(
        &self,
        scan: &mut Scan,
        g: GuessId,
        split: Split,
        level: &mut Level,
    ) -> Option<Scanned> {
        let Scan {
            st, plan, found, ..
        } = scan;
        let Head { w, lb, left, .. } = plan.head;
        let (n, cutoff) = (plan.n, plan.cutoff);
        let obj = &self.config.objective;
        if plan.record {
            level.caps[g.index()] = split.buckets.min(u16::MAX as usize) as u16;
        }
        if split.buckets == 1 && !split.is_candidate {
            return None; // useless here and on every subset
        }
        let counted = split.is_candidate && obj.counts(AnswerId(g.0));
        let glb = obj.guess_bound(
            n,
            w,
            split.buckets,
            Guess::of(split.is_candidate, counted),
            left,
        );
        // Three guesses left: each non-green bucket must then split into singletons,
        // so hold at most the split limit handed down (no guess the bucket may play
        // makes more buckets on it); the largest holds at least their average. Found
        // here, such a guess is never expanded (its regroup would stop at that bucket).
        let c = split.is_candidate as usize;
        let glb = match left == 3 && n - c > (split.buckets - c).saturating_mul(st.handed.max_split)
        {
            true => INFEASIBLE,
            false => glb,
        };
        let perfect = split.buckets == n;
        if perfect && glb <= lb {
            // A perfect split's bound is its cost: at the state's bound, optimal.
            self.tt.store(&self.key(st, plan), Bound::Exact(glb, g));
            return Some(Scanned::Done(glb, Some(g)));
        }
        if perfect && glb < found.incumbent.0 {
            found.incumbent = (glb, Some(g));
        }
        found.least = found.least.min(glb);
        if plan.floor.is_some_and(|f| found.least <= f) {
            return Some(Scanned::Below(lb));
        }
        // Guesses dropped early have at least `max_repeats` repeats, so fewer buckets
        // than any guess kept: the maximum over kept guesses covers them (and with
        // none kept nothing is expanded, so the hint is never read).
        level.max_split = level.max_split.max(split.buckets);
        if glb < cutoff {
            level.order.push(
                (glb as u128) << 64
                    | (split.sum_squares.min(1 << 40) as u128) << 17
                    | (perfect as u128) << 16
                    | g.0 as u128,
            );
        } else {
            found.rejected = found.rejected.min(glb);
        }
        None
    }

    /// What the scan proved: the state settled (a perfect split at its bound, or a
    /// bound at the cutoff, stored with its core), or its guesses left to expand (a
    /// pre-scan's raised bound stored; hard mode's table for the children built).
    fn settle_scan(&self, scan: Scan, work: &mut Work) -> Scanned {
        let Scan {
            st, plan, found, ..
        } = scan;
        let Head {
            w,
            lb: head_lb,
            left,
            hard_key,
        } = plan.head;
        let (ids, cutoff) = (st.ids, plan.cutoff);
        let obj = &self.config.objective;
        let key = self.key(st, &plan);
        let lb = head_lb.max(found.least);
        if let (v, Some(g)) = found.incumbent {
            if v <= lb {
                self.tt.store(&key, Bound::Exact(v, g));
                return Scanned::Done(v, Some(g));
            }
        }
        if lb >= cutoff {
            self.tt.store(&key, Bound::Lower(lb));
            if self.cores_on() {
                work.cores.record(obj, ids, left, &st.revealed, lb);
            }
            return Scanned::Done(lb, None);
        }
        if plan.floor.is_some() && lb > head_lb {
            // A pre-scan's raised bound, for the later pre-scans of this state (from
            // other guesses of the parent, or other parents) and its search.
            self.tt.store(&key, Bound::Lower(lb));
        }
        if self.config.hard && plan.record {
            self.kids_table(ids, st.revealed.demand(), &mut work.levels[0]);
        }
        Scanned::Expand(Prepared {
            w,
            lb,
            incumbent: found.incumbent,
            rejected: found.rejected,
            hard_key,
        })
    }

    /// The state's transposition key.
    fn key<'k>(&self, st: &State<'k>, plan: &Plan) -> Key<'k> {
        Key {
            ids: st.ids,
            left: plan.head.left,
            hard: plan.head.hard_key,
        }
    }
}
