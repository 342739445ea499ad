//! Scan kernels: how guesses split a state, read from the answer-major copy of the
//! feedback table ([`AnswerMajor`]), which this module owns (the full table's copy is
//! built once per [`FeedbackTable`] and shared by every solver through an `Arc`). One
//! guess at a time with early rejection ([`AnswerMajor::bound_scan`]), or 32 guesses
//! at a time: by pairwise comparison of the candidates' rows for small states
//! ([`AnswerMajor::block_scan`]), per-lane masks of the feedbacks seen for states of
//! up to 255 candidates ([`AnswerMajor::presence`]) and per-lane bucket counts
//! above ([`AnswerMajor::block_tally`]). Hard mode's bucket pre-scans read only the
//! lanes their bucket may play, up to 32 picked from 128 lanes of the parent's table
//! (the presence masks over a [`Window`], [`Lanes::Window`]), and hard mode's compact
//! tables are packed from a wider table's rows ([`Local::build_masked`]). The block
//! kernels keep the lanes the caller asks for ([`Keep`]: a mask and a repeat limit),
//! stop once every one of them has reached the limit, and report the others dropped.
//!
//! SIMD paths ([`Simd`], forced by `WORDLE_TREE_SIMD`, one per table): every path runs
//! the same kernels with the same results, so the search visits the same states on
//! every machine (`bench --full` counts identical). AVX-512 (`presence.rs`): the
//! presence masks of a block in place in sixteen 512-bit registers, the rows packed
//! by a byte compress (VBMI2, `local.rs`). AVX2 and portable (`sliced.rs`): the masks
//! byte-sliced, in AVX2 intrinsics or in plain Rust that the compiler vectorises for
//! the target's baseline (SSE2, NEON), windows picked by byte shuffles (AVX2) or a
//! byte at a time, and in hard mode only the slices the state's greens allow. The
//! AVX-512 path reads windows with the AVX2 kernel (faster there than its own, which
//! was dropped: docs/guide/performance.md). The lane loops of the other kernels
//! (here) are plain Rust, compiled for AVX2 on the AVX-512 and AVX2 paths. Figures
//! per path, and the lab log of what was tried: docs/guide/performance.md and
//! performance-history.md.
//!
//! Invariants: every kernel reports the same split as the scalar scan for the guesses
//! it keeps, keeps exactly the guesses the scalar scan keeps under the same repeat
//! limit, and leaves its counters zeroed (tested below on random states of the full
//! lists).
//!
//! Layout: `bytes[a * n_guesses + g]`. The scan walks guesses for a fixed handful of
//! candidates, so this makes each candidate a sequential stream (64 guesses per cache
//! line) instead of one byte per line: it took `salet` from 217M lookups at ~25 ns to
//! ~1 ns each.

use crate::game::candidates::{canonical_labels, Labels};
use crate::game::feedback::{Feedback, FEEDBACKS};
use crate::game::table::{FeedbackTable, Simd};
use crate::game::{AnswerId, GuessId};
use std::sync::Arc;

mod local;
mod presence;
mod sliced;

pub(super) use local::Local;
#[cfg(target_arch = "x86_64")]
use presence::presence_avx512;
pub(super) use presence::Window;
use sliced::Rows;
pub(super) use sliced::{slices_for_greens, ALL_SLICES};

/// Calls the lane kernel `$kernel` with `$arg`s (of types `$ty`), compiled for AVX2
/// on the AVX-512 and AVX2 paths (the lane loops become 32-byte vector instructions),
/// else as built (the portable path). Expands to the enclosing function's result.
macro_rules! with_avx2 {
    ($simd:expr, $kernel:ident($($arg:ident: $ty:ty),*) -> $ret:ty) => {{
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2")]
        unsafe fn avx2($($arg: $ty),*) -> $ret {
            $kernel($($arg),*)
        }
        #[cfg(target_arch = "x86_64")]
        if $simd != Simd::Portable {
            // SAFETY: a table's path is one the CPU has (`AnswerMajor::with_simd`),
            // and the AVX-512 and AVX2 paths both include AVX2 (`Simd::available`).
            return unsafe { avx2($($arg),*) };
        }
        $kernel($($arg),*)
    }};
}

/// States with at most this many candidates are scanned 32 guesses at a time by
/// pairwise comparison (the pair count per lane must fit a byte: 22 * 21 / 2 = 231).
pub(super) const BLOCK_MAX: usize = 22;

pub(super) const LANES: usize = 32;

/// The body of [`AnswerMajor::block_scan`] over the answer-major copy `table`. The sieve below
/// computes the same with no limit, but this fixed-size, byte-counter form is what
/// the small states need (measured: `solve trace` 0.48 s here, 0.74 s through the
/// sieve).
#[inline(always)]
#[allow(clippy::needless_range_loop)] // lane loops: one vector instruction each
fn block_scan_body(table: &[u8], g0: usize, offsets: &[usize], out: &mut [Split; LANES]) {
    let n = offsets.len();
    debug_assert!(n <= BLOCK_MAX);
    let mut rows = [[0u8; LANES]; BLOCK_MAX];
    for (row, &o) in rows.iter_mut().zip(offsets) {
        row.copy_from_slice(&table[o + g0..o + g0 + LANES]);
    }
    let (mut repeats, mut pairs, mut green) = ([0u8; LANES], [0u8; LANES], [0u8; LANES]);
    for j in 0..n {
        let mut dup = [0u8; LANES];
        for i in 0..j {
            for l in 0..LANES {
                let e = (rows[j][l] == rows[i][l]) as u8;
                dup[l] |= e;
                pairs[l] += e;
            }
        }
        for l in 0..LANES {
            repeats[l] += dup[l];
            green[l] |= (rows[j][l] == Feedback::ALL_GREEN.0) as u8;
        }
    }
    for l in 0..LANES {
        out[l] = Split {
            buckets: n - repeats[l] as usize,
            sum_squares: n as u64 + 2 * pairs[l] as u64,
            is_candidate: green[l] != 0,
        };
    }
}

/// The body of [`AnswerMajor::block_tally`]: per-lane bucket counts (`tally[lane][feedback]`,
/// zero on entry and left zero), one candidate at a time. Unlike the pairwise kernels
/// its work grows linearly with the candidates, and the 32 lanes' counter updates are
/// independent (the scalar scan waits on each update before the next).
#[inline(always)]
#[allow(clippy::needless_range_loop)] // lane loops
fn tally(
    table: &[u8],
    g0: usize,
    offsets: &[usize],
    keep: Keep,
    tally: &mut [[u16; 256]; LANES],
    out: &mut [Split; LANES],
) -> u32 {
    let Keep { max_repeats, want } = keep;
    let n = offsets.len();
    let mut repeats = [0u32; LANES];
    let mut pairs = [0u32; LANES];
    let mut green = 0u32;
    let limit = max_repeats.min(u32::MAX as usize) as u32;
    let mut seen = n;
    for (j, &o) in offsets.iter().enumerate() {
        let row: &[u8; LANES] = table[o + g0..o + g0 + LANES]
            .try_into()
            .expect("32 feedbacks");
        for l in 0..LANES {
            let f = row[l] as usize;
            let c = tally[l][f];
            repeats[l] += (c != 0) as u32;
            pairs[l] += c as u32;
            tally[l][f] = c + 1;
            green |= ((f == Feedback::ALL_GREEN.0 as usize) as u32) << l;
        }
        if j % 16 == 15 && keep.all_done(|l| repeats[l] as usize) {
            seen = j + 1;
            break;
        }
    }
    for &o in &offsets[..seen] {
        let row = &table[o + g0..o + g0 + LANES];
        for l in 0..LANES {
            tally[l][row[l] as usize] = 0;
        }
    }
    let mut alive = 0u32;
    for l in 0..LANES {
        alive |= ((repeats[l] < limit) as u32) << l;
        out[l] = Split {
            buckets: n - repeats[l] as usize,
            sum_squares: n as u64 + 2 * pairs[l] as u64,
            is_candidate: green >> l & 1 == 1,
        };
    }
    alive & want
}

/// States of at most this many candidates take [`AnswerMajor::presence`] where
/// they would take the tally (see `scan/`), on every path: above it the order of the guesses, whose
/// ties the sum of squares breaks, matters more (the first guess of a large state with
/// no incumbent sets the cutoff of all that follows). A least-bound scan (a bucket's
/// pre-scan) orders nothing, so it takes the presence kernel at any size.
pub(super) const PRESENCE_MAX_N: usize = 255;

/// Where a block kernel reads its 32 lanes: from a lane of the table in place, or
/// through a window.
#[derive(Clone, Copy)]
pub(super) enum Lanes<'w> {
    Block(usize),
    Window(&'w Window),
}

/// How one guess splits a state, from the scan.
#[derive(Clone, Copy, Default)]
pub(super) struct Split {
    pub(super) buckets: usize,
    pub(super) sum_squares: u64,
    pub(super) is_candidate: bool,
}

/// What a caller asks of a block kernel: the lanes of `want` (a bit per lane) with
/// fewer than `max_repeats` repeats on the candidates. Every block kernel stops once
/// every wanted lane has reached the limit ([`Keep::all_done`]).
#[derive(Clone, Copy)]
pub(super) struct Keep {
    max_repeats: usize,
    want: u32,
}

impl Keep {
    /// The lanes of `want` with fewer than `max_repeats` repeats.
    pub(super) const fn new(max_repeats: usize, want: u32) -> Keep {
        Keep { max_repeats, want }
    }

    /// The repeats that drop a lane.
    pub(super) fn max_repeats(self) -> usize {
        self.max_repeats
    }

    /// Whether every wanted lane has reached the limit, lane `l` with `repeats(l)`
    /// repeats so far: the block kernels' early stop (the lanes not kept are
    /// reported dropped, their splits unset).
    #[inline(always)]
    pub(super) fn all_done(self, repeats: impl Fn(usize) -> usize) -> bool {
        (0..LANES).all(|l| self.want >> l & 1 == 0 || repeats(l) >= self.max_repeats)
    }
}

/// The feedback table, answer-major (see the module doc): the layout every scan
/// kernel reads. The full table's bytes are the one copy its [`FeedbackTable`]
/// shares with every solver; a [`Local`] table's are its own (shared only while
/// `Solver::run_top`'s workers read the root's, which they drop before their scratch
/// goes back to the pool, so `Arc::make_mut` rebuilds them in place).
#[derive(Clone)]
pub(super) struct AnswerMajor {
    pub(super) bytes: Arc<Vec<u8>>,
    /// Guesses per answer row.
    pub(super) stride: usize,
    /// The kernels' instruction set: one the CPU has.
    simd: Simd,
}

impl Default for AnswerMajor {
    fn default() -> AnswerMajor {
        AnswerMajor {
            bytes: Arc::default(),
            stride: 0,
            simd: Simd::current(),
        }
    }
}

impl AnswerMajor {
    /// The full table's answer-major copy (shared, [`FeedbackTable::shared_answer_major`]),
    /// on the process's path ([`Simd::current`]).
    pub(super) fn new(table: &FeedbackTable) -> AnswerMajor {
        AnswerMajor {
            bytes: table.shared_answer_major(),
            stride: table.n_guesses(),
            simd: Simd::current(),
        }
    }

    /// This table on the path `simd`, which the CPU must have (the kernels' safety
    /// rests on it).
    #[cfg(test)]
    pub(super) fn with_simd(mut self, simd: Simd) -> AnswerMajor {
        assert!(simd.available(), "the CPU lacks the {} path", simd.name());
        self.simd = simd;
        self
    }

    /// Where each candidate's row starts, into `offsets` (cleared first): what every
    /// kernel below takes in place of the candidates.
    pub(super) fn offsets(&self, ids: &[AnswerId], offsets: &mut Vec<usize>) {
        offsets.clear();
        offsets.extend(ids.iter().map(|&a| a.index() * self.stride));
    }

    /// The SIMD path this table's kernels run (one the CPU has).
    pub(in crate::search) fn simd(&self) -> Simd {
        self.simd
    }

    /// True when [`AnswerMajor::presence`] is cheap for small states here (the
    /// AVX2 pairwise kernel, or AVX-512); the portable path's byte-sliced pass is not,
    /// for a test that mostly stops within a few candidates.
    pub(super) fn small_blocks_cheap(&self) -> bool {
        self.simd != Simd::Portable
    }

    /// True when the block kernel in place reads 32 lanes faster than a window of
    /// lanes picked from up to 128 ([`Window`]): on the AVX-512 path, whose block
    /// kernel has no window form (a window there runs the AVX2 kernel). Measured on
    /// the normal pre-scans through the letter caps' windows (NYT 2023 `buzzy`,
    /// `openers --exact`, one thread, AVX-512 Xeon): windows on the AVX-512 path 38.1
    /// CPU-s against 29.7 for its blocks in place; on the forced AVX2 path 48.1 ->
    /// 38.7, portable 74.8 -> 70.0.
    pub(super) fn blocks_beat_windows(&self) -> bool {
        self.simd == Simd::Avx512
    }

    /// True when `guess` gives every candidate (answer-major rows at `offsets`) its own
    /// feedback. Stops at the first repeat, which for most guesses comes within a few
    /// candidates.
    #[inline]
    pub(super) fn is_perfect(&self, guess: GuessId, offsets: &[usize]) -> bool {
        let g = guess.index();
        let mut seen = [0u64; 4];
        for &o in offsets {
            let f = self.bytes[o + g] as usize;
            let (word, bit) = (f >> 6, 1u64 << (f & 63));
            if seen[word] & bit != 0 {
                return false;
            }
            seen[word] |= bit;
        }
        true
    }

    /// True when `guess` gives two of the candidates at `offsets` different
    /// feedbacks. Stops at the first that differs from the first candidate's, which
    /// for most guesses is the second.
    #[inline]
    pub(super) fn splits(&self, guess: GuessId, offsets: &[usize]) -> bool {
        let g = guess.index();
        let Some((&first, rest)) = offsets.split_first() else {
            return false;
        };
        let f = self.bytes[first + g];
        rest.iter().any(|&o| self.bytes[o + g] != f)
    }

    /// The canonical labels ([`canonical_labels`]) of the partition `guess` makes of
    /// the candidates at `offsets`, into `labels`.
    #[inline]
    pub(super) fn labels(&self, guess: GuessId, offsets: &[usize], labels: &mut [u8]) -> Labels {
        let g = guess.index();
        canonical_labels(offsets.iter().map(|&o| self.bytes[o + g]), labels)
    }

    /// How `guess` splits the candidates whose answer-major rows start at `offsets`
    /// (buckets, sum of squared sizes, whether it is a candidate), or `None` as soon
    /// as `max_repeats` candidates have repeated an earlier feedback. Leaves `counts`
    /// zeroed.
    #[inline]
    pub(super) fn bound_scan(
        &self,
        guess: GuessId,
        offsets: &[usize],
        counts: &mut [u32],
        max_repeats: usize,
    ) -> Option<Split> {
        let g = guess.index();
        let table = &self.bytes[..];
        let counts: &mut [u32; FEEDBACKS] = counts.try_into().expect("243 slots");
        let (mut repeats, mut sum_squares) = (0usize, 0u64);
        for (j, &o) in offsets.iter().enumerate() {
            let c = &mut counts[table[o + g] as usize];
            if *c > 0 {
                repeats += 1;
                if repeats >= max_repeats {
                    for &o in &offsets[..=j] {
                        counts[table[o + g] as usize] = 0;
                    }
                    return None;
                }
            }
            sum_squares += 2 * *c as u64 + 1;
            *c += 1;
        }
        let is_candidate = counts[Feedback::ALL_GREEN.0 as usize] > 0;
        for &o in offsets {
            counts[table[o + g] as usize] = 0;
        }
        Some(Split {
            buckets: offsets.len() - repeats,
            sum_squares,
            is_candidate,
        })
    }

    /// [`AnswerMajor::bound_scan`] for the 32 guesses from `g0` at once: each candidate's
    /// answer-major row gives 32 contiguous feedbacks, and comparing every pair of
    /// candidates lane by lane counts repeats (candidates whose feedback an earlier
    /// one had: buckets = n - repeats) and equal pairs (sum of squares = n + 2 pairs)
    /// without the dependent counter updates of the scalar scan. Needs n <= BLOCK_MAX.
    pub(super) fn block_scan(&self, g0: usize, offsets: &[usize], out: &mut [Split; LANES]) {
        let table = &self.bytes[..];
        with_avx2!(self.simd, block_scan_body(table: &[u8], g0: usize, offsets: &[usize], out: &mut [Split; LANES]) -> ())
    }

    /// The guesses among the lanes `at` (the 32 from `g0`, or a window's: lane `l` of
    /// `out` and of the result is then `window.lane(l)`) that `keep` asks for, and for
    /// every lane its bucket count and candidate test in `out` (meaningful for the
    /// kept ones; `sum_squares` is 0), from per-lane masks of the feedbacks seen;
    /// stops once every wanted lane has reached the limit. Any number of candidates
    /// (the scans take it up to [`PRESENCE_MAX_N`], and past it for a least-bound
    /// scan, which wants no sum of squares). The wanted
    /// lanes' feedbacks must lie in `slices` ([`slices_for_greens`] in hard mode, else
    /// [`ALL_SLICES`]): the byte-sliced kernels pass over those slices alone (the
    /// AVX-512 block kernel needs no such hint).
    pub(super) fn presence(
        &self,
        at: Lanes,
        offsets: &[usize],
        slices: u32,
        keep: Keep,
        out: &mut [Split; LANES],
    ) -> u32 {
        let (table, stride) = (&self.bytes[..], self.stride);
        let keep = match at {
            Lanes::Block(_) => keep,
            Lanes::Window(window) => Keep {
                want: keep.want & window.bits(),
                ..keep
            },
        };
        #[cfg(target_arch = "x86_64")]
        if let (Simd::Avx512, Lanes::Block(g0)) = (self.simd, at) {
            // SAFETY: the table's path is one the CPU has (`AnswerMajor::with_simd`),
            // and AVX-512 includes the kernel's features.
            return unsafe { presence_avx512(table, g0, offsets, keep, out) };
        }
        // A window on the AVX-512 path takes the AVX2 kernel: its gather reads only
        // the 16-byte chunks holding the window's lanes and its pass only the slices
        // the state's greens allow, and it ran hard mode's pre-scans faster than the
        // AVX-512 window kernel did (docs/guide/performance.md, session 30).
        let simd = match self.simd {
            Simd::Avx512 => Simd::Avx2,
            simd => simd,
        };
        let rows = match at {
            Lanes::Block(g0) => Rows::block(table, g0, offsets),
            Lanes::Window(window) => match Rows::window(table, stride, window, offsets) {
                Some(rows) => rows,
                None => return 0,
            },
        };
        sliced::presence(simd, rows, slices, keep, out)
    }

    /// The guesses among `g0..g0 + 32` in `want` (a bit per guess) with fewer than
    /// `max_repeats` repeats on the candidates at `offsets`, and for every lane its
    /// split in `out` (meaningful for the kept ones), from per-lane bucket counts in
    /// `counts` (zero on entry, left zero). For the states too large for the pairwise
    /// kernels or under a loose cutoff; stops once every wanted lane has reached
    /// `max_repeats`.
    pub(super) fn block_tally(
        &self,
        g0: usize,
        offsets: &[usize],
        keep: Keep,
        counts: &mut [[u16; 256]; LANES],
        out: &mut [Split; LANES],
    ) -> u32 {
        let table = &self.bytes[..];
        with_avx2!(self.simd, tally(table: &[u8], g0: usize, offsets: &[usize], keep: Keep, counts: &mut [[u16; 256]; LANES], out: &mut [Split; LANES]) -> u32)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::game::table::FeedbackTable;
    use crate::game::{Game, ListSource};

    /// The shipped lists `list`, their table and its answer-major copy on the
    /// process's path.
    pub(in crate::search) fn loaded(list: &str) -> (Game, FeedbackTable, AnswerMajor) {
        let game = Game::load(&ListSource::Named(list.into())).unwrap();
        let table = FeedbackTable::build(&game);
        let major = AnswerMajor::new(&table);
        (game, table, major)
    }

    /// A repeatable stream of numbers below the argument (xorshift from `seed`).
    pub(in crate::search) fn xorshift(mut seed: u64) -> impl FnMut(usize) -> usize {
        move |below| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % below as u64) as usize
        }
    }

    /// The SIMD paths this CPU runs; names the others as skipped (on stderr, shown
    /// with `--nocapture`).
    pub(super) fn paths(test: &str) -> Vec<Simd> {
        for s in Simd::ALL.iter().filter(|s| !s.available()) {
            eprintln!("{test}: skipped the {} path (this CPU lacks it)", s.name());
        }
        Simd::ALL.into_iter().filter(|s| s.available()).collect()
    }

    /// The full `wordle` lists, their table, its answer-major copy on the process's
    /// path (the scalar reference) and one on every path the CPU runs ([`paths`]).
    pub(super) fn majors(test: &str) -> (Game, FeedbackTable, AnswerMajor, Vec<AnswerMajor>) {
        let (game, table, scalar) = loaded("wordle");
        let majors = paths(test)
            .into_iter()
            .map(|simd| AnswerMajor::new(&table).with_simd(simd))
            .collect();
        (game, table, scalar, majors)
    }

    /// Lane `l` of a presence kernel's result (`mask`, `got`) against the scalar
    /// scan's `want` (buckets, sum of squares, candidate; `None`: dropped or not
    /// wanted). The presence kernels count no sum of squares.
    fn same_presence(
        mask: u32,
        got: &[Split; LANES],
        l: usize,
        want: Option<(usize, u64, bool)>,
        what: &str,
    ) {
        assert_eq!(mask >> l & 1 == 1, want.is_some(), "{what}");
        if let Some(want) = want {
            let got = (got[l].buckets, got[l].is_candidate);
            assert_eq!(got, (want.0, want.2), "{what}");
        }
    }

    /// On every path the CPU runs: the presence masks (over blocks and over windows)
    /// and the block tally keep exactly the guesses the scalar scan keeps (they count
    /// the same repeats, stopping early only when every wanted lane is already
    /// dropped) with the same counts, and the block scan matches the scalar counts, on
    /// random states of the full lists.
    #[test]
    #[allow(clippy::needless_range_loop)] // lanes index several arrays
    fn block_kernels_match_the_scalar_scan() {
        let (game, _table, scalar, majors) = majors("block_kernels_match_the_scalar_scan");
        let stride = game.n_guesses();
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        let mut counts = vec![0u32; FEEDBACKS];
        let mut tally_counts = [[0u16; 256]; LANES];
        for round in 0..60 {
            // Candidates from a window of the list (shared letters, many repeats);
            // every fourth round a large state, for the tally alone.
            let (n, width) = if round % 4 == 3 {
                (300 + next(700), 1500)
            } else {
                (3 + next(250), 400)
            };
            let start = next(game.n_answers() - width);
            let mut ids: Vec<AnswerId> =
                (0..n).map(|_| AnswerId::new(start + next(width))).collect();
            ids.sort_unstable();
            ids.dedup();
            let n = ids.len();
            let offsets: Vec<usize> = ids.iter().map(|&a| a.index() * stride).collect();
            // The scalar scan of guess `g`, or `None` when dropped or not wanted.
            let mut scan = |g: usize, max_repeats: usize, wanted: bool| {
                let split = scalar.bound_scan(GuessId::new(g), &offsets, &mut counts, max_repeats);
                split
                    .filter(|_| wanted)
                    .map(|s| (s.buckets, s.sum_squares, s.is_candidate))
            };
            for turn in 0..8 {
                let g0 = next(stride / LANES) * LANES;
                // The lanes wanted: all, or a random few (the others must come back
                // dropped, and may stop the kernels no later).
                let lanes = match turn % 2 {
                    0 => u32::MAX,
                    _ => (next(1 << 16) << 16 | next(1 << 16)) as u32,
                };
                let wanted = |l: usize| lanes >> l & 1 == 1;
                for l in 0..LANES {
                    let g = GuessId::new(g0 + l);
                    let whole = scan(g0 + l, usize::MAX, true).unwrap();
                    assert_eq!(scalar.splits(g, &offsets), whole.0 > 1, "guess {g}");
                }
                // Windows over a random bitset of the lanes from g0 (dense or sparse).
                let density = 1 + next(8);
                let mut bits = vec![0u64; stride.div_ceil(64)];
                for g in g0..stride {
                    if next(density) == 0 {
                        bits[g / 64] |= 1 << (g % 64);
                    }
                }
                let mut windows = Vec::new();
                let mut from = g0;
                while from < stride && windows.len() < 4 {
                    let mut window = Window::default();
                    let end = window.fill(&bits, from, stride);
                    assert!(end > from && end <= (from + 128).min(stride));
                    let got_lanes: Vec<usize> = (0..window.len).map(|l| window.lane(l)).collect();
                    let want_lanes: Vec<usize> = (from..end)
                        .filter(|&g| bits[g / 64] >> (g % 64) & 1 == 1)
                        .collect();
                    assert_eq!(got_lanes, want_lanes, "window from {from}");
                    windows.push(window);
                    from = end;
                }
                for major in &majors {
                    let path = major.simd;
                    // Large states too: a least-bound scan takes them there.
                    for max_repeats in [1, 2, 5, 16, 17, 40, usize::MAX] {
                        // A presence kernel's result against the scalar scan of the
                        // guess in each lane (`None`: no guess there).
                        let mut check =
                            |mask, got: &[Split; LANES], guess: &dyn Fn(usize) -> Option<usize>| {
                                for l in 0..LANES {
                                    let want =
                                        guess(l).and_then(|g| scan(g, max_repeats, wanted(l)));
                                    let what = format!(
                                        "{path:?}, lane {l}, guess {:?}, limit {max_repeats}",
                                        guess(l)
                                    );
                                    same_presence(mask, got, l, want, &what);
                                }
                            };
                        // The presence masks over the lanes `at`.
                        let presence = |at| {
                            let mut got = [Split::default(); LANES];
                            let keep = Keep::new(max_repeats, lanes);
                            let mask = major.presence(at, &offsets, ALL_SLICES, keep, &mut got);
                            (mask, got)
                        };
                        let (mask, got) = presence(Lanes::Block(g0));
                        check(mask, &got, &|l| Some(g0 + l));
                        for window in &windows {
                            let (mask, got) = presence(Lanes::Window(window));
                            check(mask, &got, &|l| (l < window.len).then(|| window.lane(l)));
                        }
                    }
                    for max_repeats in [1, 5, 16, 40, usize::MAX] {
                        let mut got = [Split::default(); LANES];
                        let keep = Keep::new(max_repeats, lanes);
                        let mask =
                            major.block_tally(g0, &offsets, keep, &mut tally_counts, &mut got);
                        assert!(tally_counts.iter().all(|lane| lane.iter().all(|&c| c == 0)));
                        for l in 0..LANES {
                            let want = scan(g0 + l, max_repeats, wanted(l));
                            let what = format!("{path:?}, guess {}, limit {max_repeats}", g0 + l);
                            assert_eq!(mask >> l & 1 == 1, want.is_some(), "{what}");
                            if let Some(want) = want {
                                let got = (got[l].buckets, got[l].sum_squares, got[l].is_candidate);
                                assert_eq!(got, want, "{what}");
                            }
                        }
                    }
                    if n <= BLOCK_MAX {
                        let mut got = [Split::default(); LANES];
                        major.block_scan(g0, &offsets, &mut got);
                        for l in 0..LANES {
                            let want = scan(g0 + l, usize::MAX, true).unwrap();
                            let got = (got[l].buckets, got[l].sum_squares, got[l].is_candidate);
                            assert_eq!(got, want, "{path:?}, guess {}", g0 + l);
                        }
                    }
                }
            }
        }
    }
}
