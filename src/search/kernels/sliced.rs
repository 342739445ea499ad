//! The presence kernels of the AVX2 and portable paths: [`super::presence`]'s per-lane
//! masks of the feedbacks seen, byte-sliced (a vector per byte of the masks), in plain
//! Rust that the compiler vectorises ([`presence_sliced`], the portable path: SSE2 on
//! x86_64, NEON on aarch64) and in AVX2 intrinsics ([`presence_avx2`]), over a block
//! in place or a [`Window`]'s lanes (picked by byte shuffles with AVX2, [`Gather`]).
//! In hard mode they pass over only the slices a state's greens allow
//! ([`slices_for_greens`]); where the portable kernel would pass over most slices, it
//! sets each lane's bit a byte at a time instead ([`SCATTER_SLICES`]). The AVX2
//! kernel takes states of up to `3 * slices + 6` candidates by pairwise comparison
//! instead ([`pairwise_avx2`], the same counts), and both finish the wanted lanes one
//! at a time once few are under the limit ([`finish_alone`]). Every kernel here asks
//! for its rows a chunk or [`AHEAD`] candidates before it reads them
//! ([`Rows::prefetch`], a hint on x86_64): a large state's rows lie a row of the full
//! table apart, past the L2 and, on the 2023 list, often past the L3, and without the
//! hint the AVX2 kernel waited on its loads for most of its time on an AMD EPYC
//! (session 47). Figures: docs/guide/performance.md.
//!
//! Over 900 lines with its tests (about 800 without): the portable and AVX2 kernels
//! stay in one file because they must give the same counts lane for lane, and the
//! tests below hold each against the other and against the plain count.

use super::presence::Window;
use super::{Keep, Split, LANES};
use crate::game::feedback::{Feedback, FEEDBACKS};
use crate::game::table::Simd;
#[cfg(target_arch = "x86_64")]
use std::mem::MaybeUninit;

/// Slices of the byte-sliced presence masks: feedback `f` is bit `f & 7` of slice
/// `f >> 3` (243 feedbacks, 31 slices; all-green, 242, is bit 2 of slice 30).
const SLICES: usize = FEEDBACKS.div_ceil(8);

/// Every slice of the byte-sliced masks, a bit each.
pub(in crate::search) const ALL_SLICES: u32 = (1 << SLICES) - 1;

/// The slices holding a feedback that is green at every position of `greens` (a bit
/// per position).
const fn slices_green_at(greens: u8) -> u32 {
    let mut slices = 0u32;
    let mut f = 0;
    while f < FEEDBACKS {
        let (mut i, mut rest, mut green) = (0, f, true);
        while i < 5 {
            if greens >> i & 1 == 1 && rest % 3 != 2 {
                green = false;
            }
            rest /= 3;
            i += 1;
        }
        if green {
            slices |= 1 << (f >> 3);
        }
        f += 1;
    }
    slices
}

/// [`slices_green_at`] for every set of positions.
const GREEN_SLICES: [u32; 32] = {
    let mut table = [0u32; 32];
    let mut g = 0;
    while g < 32 {
        table[g] = slices_green_at(g as u8);
        g += 1;
    }
    table
};

/// The slices a hard-mode state's playable guesses can touch on its candidates, given
/// the positions of its revealed greens (`Revealed::green_positions`): both have the
/// letter in place, so every such feedback is green there, and the byte-sliced
/// kernels pass over these slices alone (a green last letter leaves 11 of the 31,
/// a green fourth 14; the all-green slice is always among them). Lanes outside the
/// state's playable guesses may then come out wrong: they must not be wanted.
pub(in crate::search) fn slices_for_greens(greens: u8) -> u32 {
    GREEN_SLICES[greens as usize & 31]
}

/// From this many slices to pass over, the portable kernel ([`presence_sliced`])
/// scatters instead: each candidate sets its bit in its lane's byte of its slice, a
/// byte OR per lane (32 steps per candidate, however many slices), where the pass costs
/// three steps per slice on each of two 16-byte vectors (SSE2 or NEON). Every state of
/// normal mode scatters (31 slices), and in hard mode the states with no green or
/// greens at positions 1, 2, 1 and 2, 3, or 1 and 3 (31, 27, 18 or 16 slices); a green
/// fourth or fifth letter, or the second and third, leaves at most 14 slices, and
/// those states keep the pass. Measured (session 54, Intel Xeon, forced portable
/// path, one thread, `openers --exact --random 100 --seed 1`): the NYT normal sample
/// 1.208 -> 1.039 CPU-s per opener, hard 1.040 -> 0.945; on the hard sample side by
/// side with 15, a threshold of 0 (every state scattered) ran 0.992 against 0.950, 19
/// ran 0.975 against 0.966 and 28 ran 0.988 against 0.966. The AVX2 kernel keeps its
/// pass (one 32-byte vector per slice): the same scatter there ran the NYT normal
/// sample at 0.699 against 0.653 CPU-s per opener (30 openers).
const SCATTER_SLICES: u32 = 15;

/// A feedback's bit in its slice's byte, `1 << (f & 7)`, looked up for the scatter: a
/// shift by `cl` is two or three micro-ops on Intel cores (the portable build has no
/// BMI2 `shlx`). Measured against the shift (session 54, Intel Xeon, forced portable,
/// one thread, `openers --exact --random N --seed 1`): NYT normal 100 openers 1.114 ->
/// 1.028 CPU-s per opener, NYT hard 100 0.995 -> 0.965, 2023 normal 30 3.434 -> 3.123.
/// It pays on AMD's Zen 4 too, where the shift is one micro-op (session 55, side by
/// side): NYT normal 100 1.330 -> 1.252, NYT hard 100 1.328 -> 1.258. The byte-sliced
/// pass computes its bits as vectors, without it. On aarch64 a variable shift is one
/// instruction: the table is not measured there.
const BIT_OF: [u8; 256] = {
    let mut bits = [0u8; 256];
    let mut f = 0;
    while f < 256 {
        bits[f] = 1 << (f & 7);
        f += 1;
    }
    bits
};

/// Whether the portable kernel scatters over `slices` ([`SCATTER_SLICES`]).
const fn scatters(slices: u32) -> bool {
    slices.count_ones() >= SCATTER_SLICES
}

// Normal mode's states (every slice) scatter: the byte-sliced pass never takes them.
const _: () = assert!(scatters(ALL_SLICES));

/// The byte-sliced masks' 31 slices out of the kernel's 32 (the 32nd, never set, lets
/// a feedback's top five bits index the slices without a bounds check).
fn masks(wide: &[[u8; LANES]; 32]) -> &[[u8; LANES]; SLICES] {
    wide[..SLICES].try_into().expect("31 slices")
}

/// Candidates the byte-sliced kernel takes at a time, between checks of the limit.
const CHUNK: usize = 16;

/// How many candidates ahead of its use a kernel prefetches a row.
const AHEAD: usize = 8;

/// The presence kernel of the portable path ([`presence`];
/// [`presence_avx2`] is its byte-sliced pass in AVX2 intrinsics): [`presence_avx512`]'s
/// per-lane masks of the feedbacks seen, byte-sliced: slice `k` is 32 bytes holding
/// byte `k` of every lane's 248-bit mask. The masks fill in one of two ways, by how
/// many slices `slices` names ([`SCATTER_SLICES`]):
/// - scattered (many slices): each candidate's feedback sets its bit in its lane's
///   byte of its slice, a byte OR per lane and candidate;
/// - byte-sliced (hard mode's states whose greens leave few slices, those of
///   [`slices_for_greens`] alone): a candidate sets, in every slice passed over, the
///   lane's bit where its slice is `k` (a compare, an AND and an OR per slice, in
///   plain byte-lane loops: two SSE2 or NEON instructions each), no memory written
///   per lane. The candidates' slices and bits come first, then each slice once over
///   the 16 candidates of a chunk, held in a register.
///
/// The candidates come 16 at a time, and the limit is checked after each 16. `row(j)`
/// gives candidate `j`'s 32 feedbacks.
#[inline(always)]
fn presence_sliced(
    rows: &Rows,
    row: impl Fn(usize) -> [u8; LANES],
    slices: u32,
    keep: Keep,
    out: &mut [Split; LANES],
) -> u32 {
    let max_repeats = keep.max_repeats;
    let scatter = scatters(slices);
    let mut wide = [[0u8; LANES]; 32];
    let mut hi = [[0u8; LANES]; CHUNK];
    let mut bit = [[0u8; LANES]; CHUNK];
    let count = |seen: &[[u8; LANES]; SLICES]| -> [u8; LANES] {
        // At most 243 bits per lane: a byte holds the count.
        let mut buckets = [0u8; LANES];
        for slice in seen {
            for (b, s) in buckets.iter_mut().zip(slice) {
                *b += s.count_ones() as u8;
            }
        }
        buckets
    };
    let n = rows.offsets().len();
    let mut j = 0;
    while j < n {
        if j == 0 || max_repeats <= j {
            let buckets = if j == 0 {
                [0; LANES]
            } else {
                count(masks(&wide))
            };
            let alive = alive_lanes(j, &buckets, keep);
            if alone(alive, slices) {
                return finish_alone(rows, masks(&wide), j, alive, max_repeats, out);
            }
        }
        let m = CHUNK.min(n - j);
        // The next chunk's rows, fetched while this one's slices pass (a hint on
        // x86_64, nothing elsewhere).
        for c in j + CHUNK..(j + 2 * CHUNK).min(n) {
            rows.prefetch(c);
        }
        if scatter {
            for c in 0..m {
                let r = row(j + c);
                for (l, &f) in r.iter().enumerate() {
                    wide[(f >> 3) as usize][l] |= BIT_OF[f as usize];
                }
            }
        } else {
            for c in 0..m {
                let r = row(j + c);
                for ((h, b), f) in hi[c].iter_mut().zip(&mut bit[c]).zip(r) {
                    *h = f >> 3;
                    *b = 1 << (f & 7);
                }
            }
            let pass = |k: usize, slice: &mut [u8; LANES]| {
                let mut s = *slice;
                for (h, b) in hi[..m].iter().zip(&bit[..m]) {
                    for ((s, &h), &b) in s.iter_mut().zip(h).zip(b) {
                        *s |= ((h == k as u8) as u8).wrapping_neg() & b;
                    }
                }
                *slice = s;
            };
            let mut left = slices;
            while left != 0 {
                let k = left.trailing_zeros() as usize;
                left &= left - 1;
                pass(k, &mut wide[k]);
            }
        }
        j += m;
    }
    let green = Feedback::ALL_GREEN.0 as usize;
    sliced_splits(n, &count(masks(&wide)), &wide[green >> 3], keep, out)
}

/// The most candidates [`pairwise_avx2`] takes (its rows held on the stack): past it
/// the byte-sliced pass is cheaper over every slice.
#[cfg(target_arch = "x86_64")]
const PAIRWISE_MAX: usize = 3 * SLICES + 6;

/// Whether the AVX2 kernel takes `n` candidates pairwise ([`pairwise_avx2`]):
/// a candidate costs a compare and an OR per earlier one there (about `n` steps per
/// candidate), where the byte-sliced pass costs three per slice in `slices` and about
/// five more.
#[cfg(target_arch = "x86_64")]
fn pairwise(n: usize, slices: u32) -> bool {
    n <= 3 * slices.count_ones() as usize + 6
}

/// The pairwise kernels' result for `n` candidates, and the byte-sliced ones' through
/// [`sliced_splits`]: per lane its repeats and whether some candidate showed all green
/// (nonzero `green`), the wanted lanes under the limit.
#[cfg(target_arch = "x86_64")]
fn pairwise_splits(
    n: usize,
    repeats: &[u8; LANES],
    green: &[u8; LANES],
    keep: Keep,
    out: &mut [Split; LANES],
) -> u32 {
    let Keep { max_repeats, want } = keep;
    let mut alive = 0u32;
    for (l, split) in out.iter_mut().enumerate() {
        let r = repeats[l] as usize;
        alive |= ((r < max_repeats) as u32) << l;
        *split = Split {
            buckets: n - r,
            sum_squares: 0,
            is_candidate: green[l] != 0,
        };
    }
    alive & want
}

/// The lanes of `want` still under `max_repeats` repeats after `j` candidates with
/// `buckets` buckets each.
fn alive_lanes(j: usize, buckets: &[u8; LANES], keep: Keep) -> u32 {
    let Keep { max_repeats, want } = keep;
    let mut alive = 0u32;
    for (l, &b) in buckets.iter().enumerate() {
        alive |= ((j - (b as usize) < max_repeats) as u32) << l;
    }
    alive & want
}

/// A lane taken alone (one candidate at a time, [`finish_alone`]) costs about as much
/// per candidate as this many slices of the byte-sliced pass (a compare, an AND and an
/// OR each, for all 32 lanes).
const LANE_SLICES: u32 = 3;

/// Whether the lanes `alive` are few enough to finish alone ([`finish_alone`]) rather
/// than by the byte-sliced pass over `slices` (and the two steps per candidate that
/// find its slices and bits). No lane left: the early stop.
fn alone(alive: u32, slices: u32) -> bool {
    alive.count_ones() * LANE_SLICES <= slices.count_ones() + 2
}

/// The byte-sliced kernels' result when the lanes `alive` are finished one at a time
/// from candidate `j` (`seen`: the byte-sliced masks of the first `j`): each lane's
/// mask taken out of the slices as four words, then a bit test per candidate, stopping
/// at the limit. The same counts as the byte-sliced pass; the lanes not alive are
/// dropped (their splits unset).
fn finish_alone(
    rows: &Rows,
    seen: &[[u8; LANES]; SLICES],
    j: usize,
    alive: u32,
    max_repeats: usize,
    out: &mut [Split; LANES],
) -> u32 {
    let (table, offsets) = (rows.table(), rows.offsets());
    let n = offsets.len();
    let green = Feedback::ALL_GREEN.0 as usize;
    let mut kept = 0u32;
    let mut left = alive;
    while left != 0 {
        let l = left.trailing_zeros() as usize;
        left &= left - 1;
        let mut mask = [0u64; 4];
        let mut buckets = 0;
        for (k, slice) in seen.iter().enumerate() {
            mask[k / 8] |= (slice[l] as u64) << (8 * (k % 8));
            buckets += slice[l].count_ones() as usize;
        }
        let col = rows.column(l);
        let mut repeats = j - buckets;
        for (i, &o) in offsets.iter().enumerate().skip(j) {
            rows.prefetch(i + AHEAD);
            let f = table[o + col] as usize;
            let (w, bit) = (f >> 6, 1u64 << (f & 63));
            repeats += (mask[w] & bit != 0) as usize;
            mask[w] |= bit;
            if repeats >= max_repeats {
                break;
            }
        }
        if repeats < max_repeats {
            kept |= 1 << l;
            out[l] = Split {
                buckets: n - repeats,
                sum_squares: 0,
                is_candidate: mask[green >> 6] >> (green & 63) & 1 == 1,
            };
        }
    }
    kept
}

/// The byte-sliced kernels' result for `n` candidates (any number: a lane's buckets
/// are at most 243 and fit a byte, its repeats `n - buckets` need not): per lane its
/// buckets and its candidate test (all-green's bit in `last`, its slice), as
/// [`pairwise_splits`] gives them; the wanted lanes under the limit.
fn sliced_splits(
    n: usize,
    buckets: &[u8; LANES],
    last: &[u8; LANES],
    keep: Keep,
    out: &mut [Split; LANES],
) -> u32 {
    let Keep { max_repeats, want } = keep;
    let green_bit = Feedback::ALL_GREEN.0 & 7;
    let mut alive = 0u32;
    for (l, split) in out.iter_mut().enumerate() {
        let b = buckets[l] as usize;
        alive |= ((n - b < max_repeats) as u32) << l;
        *split = Split {
            buckets: b,
            sum_squares: 0,
            is_candidate: last[l] >> green_bit & 1 == 1,
        };
    }
    alive & want
}

/// Where a byte-sliced kernel reads its candidates' 32 feedbacks: a block of the
/// table in place ([`Rows::block`]), or a window's lanes picked from each row
/// ([`Rows::window`]).
#[derive(Clone, Copy)]
pub(super) enum Rows<'a> {
    Block {
        table: &'a [u8],
        g0: usize,
        offsets: &'a [usize],
    },
    Window {
        table: &'a [u8],
        start: usize,
        span: usize,
        /// The window's lanes, padded with its first lane (whose results past
        /// `len` are not wanted).
        at: [u8; LANES],
        #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
        len: usize,
        offsets: &'a [usize],
    },
}

impl<'a> Rows<'a> {
    /// The 32 lanes from `g0` of `table`'s rows at `offsets`.
    pub(super) fn block(table: &'a [u8], g0: usize, offsets: &'a [usize]) -> Rows<'a> {
        Rows::Block { table, g0, offsets }
    }

    /// The lanes of `window` in `table`'s rows (of `stride` bytes) at `offsets`;
    /// `None` when the window has none.
    pub(super) fn window(
        table: &'a [u8],
        stride: usize,
        window: &Window,
        offsets: &'a [usize],
    ) -> Option<Rows<'a>> {
        let lanes = window.lanes();
        let span = window.span(stride);
        if span == 0 {
            return None;
        }
        // Lanes past the window read its first lane (their result is not wanted).
        let mut at = [0u8; LANES];
        at[..lanes.len()].copy_from_slice(lanes);
        Some(Rows::Window {
            table,
            start: window.start,
            span,
            at,
            len: lanes.len(),
            offsets,
        })
    }

    /// The candidates' row offsets.
    fn offsets(&self) -> &'a [usize] {
        match *self {
            Rows::Block { offsets, .. } | Rows::Window { offsets, .. } => offsets,
        }
    }

    /// The table the rows are read from.
    fn table(&self) -> &'a [u8] {
        match *self {
            Rows::Block { table, .. } | Rows::Window { table, .. } => table,
        }
    }

    /// Where lane `l` lies in every row (from the row's offset).
    fn column(&self, l: usize) -> usize {
        match *self {
            Rows::Block { g0, .. } => g0 + l,
            Rows::Window { start, at, .. } => start + at[l] as usize,
        }
    }

    /// Asks the CPU to bring candidate `j`'s feedbacks (the block's 32 bytes, or the
    /// bytes the window spans) into the cache ahead of their use: a hint that never
    /// faults, nothing past the last candidate or off x86_64.
    #[inline(always)]
    fn prefetch(&self, j: usize) {
        #[cfg(target_arch = "x86_64")]
        if let Some(&o) = self.offsets().get(j) {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let (from, len) = match *self {
                Rows::Block { g0, .. } => (o + g0, LANES),
                Rows::Window { start, span, .. } => (o + start, span),
            };
            let p = self.table().as_ptr().wrapping_add(from);
            let mut k = 0;
            // Every cache line of the `len` bytes from `p`.
            let end = (p as usize & 63) + len;
            while k < end {
                // SAFETY: a prefetch reads nothing and cannot fault, whatever the
                // address.
                unsafe { _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(k).cast()) };
                k += 64;
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = j;
    }

    /// Candidate `j`'s 32 feedbacks.
    #[inline(always)]
    fn get(&self, j: usize) -> [u8; LANES] {
        match *self {
            Rows::Block { table, g0, offsets } => {
                let o = offsets[j] + g0;
                table[o..o + LANES].try_into().expect("32 feedbacks")
            }
            Rows::Window {
                table,
                start,
                span,
                at,
                offsets,
                ..
            } => {
                let r = &table[offsets[j] + start..];
                // A window lies within 128 bytes of its start: with 128 bytes at
                // hand the picks need no bounds checks.
                match r.get(..128) {
                    Some(r) => {
                        let r: &[u8; 128] = r.try_into().expect("128 bytes");
                        at.map(|a| r[(a & 127) as usize])
                    }
                    None => {
                        let r = &r[..span];
                        at.map(|a| r[a as usize])
                    }
                }
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::__m256i;

/// How the AVX2 and AVX-512 paths pick a window's lanes from a row: per 16-byte chunk of the
/// bytes the window spans that holds some of its lanes, the chunk copied to both
/// halves of a register and byte-shuffled into those lanes' places (the other bytes
/// zeroed), the chunks OR-ed: at most 8 loads and shuffles per row where a byte at a
/// time took 32 loads and inserts. AVX2 has no byte permute across 16 bytes. The
/// AVX-512 path reads windows here too: an AVX-512 kernel that picked the 32 lanes
/// from two masked 64-byte loads by four byte permutes (VBMI) was slower on the
/// AVX-512 machine (docs/guide/performance.md, session 30).
#[cfg(target_arch = "x86_64")]
struct Gather {
    /// Per chunk, the byte each lane takes from it (`0x80`: none, zero).
    idx: [__m256i; 8],
    /// The chunks holding lanes, a bit each.
    used: u8,
    /// Bytes from the window's start to the end of its last chunk.
    bytes: usize,
}

#[cfg(target_arch = "x86_64")]
impl Gather {
    /// The picks of the lanes `at` (offsets below 128 from the window's start).
    #[target_feature(enable = "avx2")]
    fn new(at: &[u8]) -> Gather {
        use std::arch::x86_64::*;
        let mut idx = [[0x80u8; LANES]; 8];
        let mut used = 0u8;
        for (l, &a) in at.iter().enumerate() {
            let c = (a >> 4) as usize & 7;
            idx[c][l] = a & 15;
            used |= 1 << c;
        }
        Gather {
            // SAFETY: each index is 32 bytes.
            idx: idx.map(|i| unsafe { _mm256_loadu_si256(i.as_ptr().cast()) }),
            used,
            bytes: 16 * (8 - used.leading_zeros() as usize),
        }
    }

    /// The window's 32 lanes of the row whose window starts at `from` in `table`
    /// (lanes past the window zero).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn load(&self, table: &[u8], from: usize) -> __m256i {
        match table.get(from..from + self.bytes) {
            // SAFETY: the slice holds every chunk read.
            Some(row) => unsafe { self.pick(row.as_ptr()) },
            None => self.load_tail(&table[from..]),
        }
    }

    /// [`Gather::load`] near the table's end, where the last chunk would pass it.
    #[target_feature(enable = "avx2")]
    #[cold]
    fn load_tail(&self, row: &[u8]) -> __m256i {
        let mut copy = [0u8; 128];
        let k = row.len().min(128);
        copy[..k].copy_from_slice(&row[..k]);
        // SAFETY: `copy` holds 128 bytes, every chunk.
        unsafe { self.pick(copy.as_ptr()) }
    }

    /// # Safety
    /// `p` must be valid for reads of `self.bytes` bytes.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn pick(&self, p: *const u8) -> __m256i {
        use std::arch::x86_64::*;
        let mut lanes = _mm256_setzero_si256();
        let mut used = self.used;
        while used != 0 {
            let c = used.trailing_zeros() as usize;
            used &= used - 1;
            // SAFETY: chunk `c` ends within `self.bytes` (the caller's promise).
            let chunk =
                _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(p.add(16 * c).cast()) });
            lanes = _mm256_or_si256(lanes, _mm256_shuffle_epi8(chunk, self.idx[c]));
        }
        lanes
    }
}

/// [`presence_sliced`] written with AVX2 intrinsics ([`presence_avx2_with`]) over a
/// block in place or a window's lanes picked by byte shuffles ([`Gather`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn presence_avx2(rows: Rows, slices: u32, keep: Keep, out: &mut [Split; LANES]) -> u32 {
    use std::arch::x86_64::*;
    match rows {
        Rows::Block { table, g0, offsets } => {
            let row = |j: usize| {
                let r: &[u8; LANES] = table[offsets[j] + g0..][..LANES]
                    .try_into()
                    .expect("32 feedbacks");
                // SAFETY: `r` holds 32 bytes.
                unsafe { _mm256_loadu_si256(r.as_ptr().cast()) }
            };
            presence_avx2_with(&rows, row, slices, keep, out)
        }
        Rows::Window {
            table,
            start,
            at,
            len,
            offsets,
            ..
        } => {
            let gather = Gather::new(&at[..len]);
            let row = |j: usize| gather.load(table, offsets[j] + start);
            presence_avx2_with(&rows, row, slices, keep, out)
        }
    }
}

/// The presence kernel's result by pairwise comparison on the AVX2 path (for `n` up to
/// [`PAIRWISE_MAX`], [`pairwise`]): each candidate's 32 feedbacks compared with every
/// earlier candidate's (the rows kept in a stack array, four running ORs), a lane's
/// repeats counted where some earlier one matched (buckets = `n - repeats`, as the
/// masks count them; the sum of squares is not counted, as there).
/// [`super::block_scan_body`] counts the pairs too, which limits it to 22 candidates.
/// The limit is checked after each candidate once it can be reached (a compare and a
/// mask). `row(j)` gives candidate `j`'s 32 feedbacks. The same loops in plain Rust
/// on the portable path ran `solve --opener trace` 2.2x slower than its byte-sliced
/// pass, so that path keeps the pass.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn pairwise_avx2(
    n: usize,
    row: impl Fn(usize) -> __m256i,
    ahead: impl Fn(usize),
    keep: Keep,
    out: &mut [Split; LANES],
) -> u32 {
    use std::arch::x86_64::*;
    let max_repeats = keep.max_repeats;
    debug_assert!(n <= PAIRWISE_MAX);
    let zero = _mm256_setzero_si256();
    // Rows `..j` written before they are read (not zeroed per call).
    let mut rows = [MaybeUninit::<__m256i>::uninit(); PAIRWISE_MAX];
    let mut repeats = zero;
    let mut green = zero;
    let all_green = _mm256_set1_epi8(Feedback::ALL_GREEN.0 as i8);
    let bytes = |v: __m256i| {
        let mut b = [0u8; LANES];
        // SAFETY: `b` holds 32 bytes.
        unsafe { _mm256_storeu_si256(b.as_mut_ptr().cast(), v) };
        b
    };
    for j in 0..AHEAD.min(n) {
        ahead(j);
    }
    for j in 0..n {
        ahead(j + AHEAD);
        let f = row(j);
        let mut dup = [zero; 4];
        // SAFETY: rows `..j` are written (below, in the earlier turns), and
        // `MaybeUninit<T>` has the layout of `T`.
        let earlier: &[__m256i] = unsafe { std::slice::from_raw_parts(rows.as_ptr().cast(), j) };
        let mut quads = earlier.chunks_exact(4);
        for q in &mut quads {
            for (d, &e) in dup.iter_mut().zip(q) {
                *d = _mm256_or_si256(*d, _mm256_cmpeq_epi8(f, e));
            }
        }
        for (d, &e) in dup.iter_mut().zip(quads.remainder()) {
            *d = _mm256_or_si256(*d, _mm256_cmpeq_epi8(f, e));
        }
        let dup = _mm256_or_si256(
            _mm256_or_si256(dup[0], dup[1]),
            _mm256_or_si256(dup[2], dup[3]),
        );
        // A match is all ones, minus one.
        repeats = _mm256_sub_epi8(repeats, dup);
        green = _mm256_or_si256(green, _mm256_cmpeq_epi8(f, all_green));
        rows[j].write(f);
        if j + 1 >= max_repeats && j + 1 < n {
            // Every wanted lane at the limit: a compare and a mask, so the test runs
            // after each candidate, not each 16 (a bucket's pre-scan drops most lanes
            // a few candidates past the limit). Repeats and the limit are below 128
            // here (at most PAIRWISE_MAX candidates).
            let limit = _mm256_set1_epi8((max_repeats as i32 - 1) as i8);
            let at = _mm256_cmpgt_epi8(repeats, limit);
            if keep.want & !(_mm256_movemask_epi8(at) as u32) == 0 {
                return 0;
            }
        }
    }
    pairwise_splits(n, &bytes(repeats), &bytes(green), keep, out)
}

/// [`presence_sliced`] written with AVX2 intrinsics: the compiler's own AVX2 build of
/// the plain loops unrolled the 31 slices into 16-byte shuffles and ran 8x slower
/// than this (`bench --full`, `solve trace` 15.0 s against 1.9 s). `row(j)` gives
/// candidate `j`'s 32 feedbacks.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn presence_avx2_with(
    rows: &Rows,
    row: impl Fn(usize) -> __m256i,
    slices: u32,
    keep: Keep,
    out: &mut [Split; LANES],
) -> u32 {
    use std::arch::x86_64::*;
    let max_repeats = keep.max_repeats;
    let mut seen = [_mm256_setzero_si256(); SLICES];
    let mut hi = [_mm256_setzero_si256(); CHUNK];
    let mut bit = [_mm256_setzero_si256(); CHUNK];
    let sevens = _mm256_set1_epi8(7);
    let low5 = _mm256_set1_epi8(0x1f);
    let low4 = _mm256_set1_epi8(0x0f);
    // Byte `i` (below 8) of each half: 1 << i; `pow2[f & 7]` is the feedback's bit.
    let pow2 = _mm256_setr_epi8(
        1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, -128, 0, 0,
        0, 0, 0, 0, 0, 0,
    );
    // Bits set in a nibble.
    let pop4 = _mm256_setr_epi8(
        0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3,
        3, 4,
    );
    let count = |seen: &[__m256i; SLICES]| -> [u8; LANES] {
        let mut sum = _mm256_setzero_si256();
        for &s in seen {
            let low = _mm256_shuffle_epi8(pop4, _mm256_and_si256(s, low4));
            let high = _mm256_shuffle_epi8(pop4, _mm256_and_si256(_mm256_srli_epi16::<4>(s), low4));
            sum = _mm256_add_epi8(sum, _mm256_add_epi8(low, high));
        }
        let mut buckets = [0u8; LANES];
        // SAFETY: `buckets` holds 32 bytes.
        unsafe { _mm256_storeu_si256(buckets.as_mut_ptr().cast(), sum) };
        buckets
    };
    // One slice's pass over the chunk's candidates: a compare, an AND and an OR each.
    let pass = |s: __m256i, key: __m256i, hi: &[__m256i], bit: &[__m256i]| {
        hi.iter().zip(bit).fold(s, |s, (&h, &b)| {
            _mm256_or_si256(s, _mm256_and_si256(_mm256_cmpeq_epi8(h, key), b))
        })
    };
    let n = rows.offsets().len();
    if pairwise(n, slices) {
        return pairwise_avx2(n, row, |j| rows.prefetch(j), keep, out);
    }
    let mut j = 0;
    while j < n {
        if j == 0 || max_repeats <= j {
            let buckets = if j == 0 { [0; LANES] } else { count(&seen) };
            let alive = alive_lanes(j, &buckets, keep);
            if alone(alive, slices) {
                let mut bytes = [[0u8; LANES]; SLICES];
                for (b, s) in bytes.iter_mut().zip(&seen) {
                    // SAFETY: `b` holds 32 bytes.
                    unsafe { _mm256_storeu_si256(b.as_mut_ptr().cast(), *s) };
                }
                return finish_alone(rows, &bytes, j, alive, max_repeats, out);
            }
        }
        let m = CHUNK.min(n - j);
        // The next chunk's rows, fetched while this one's slices pass.
        for c in j + CHUNK..(j + 2 * CHUNK).min(n) {
            rows.prefetch(c);
        }
        for c in 0..m {
            let f = row(j + c);
            hi[c] = _mm256_and_si256(_mm256_srli_epi16::<3>(f), low5);
            bit[c] = _mm256_shuffle_epi8(pow2, _mm256_and_si256(f, sevens));
        }
        let mut left = slices;
        while left != 0 {
            let k = left.trailing_zeros() as usize;
            left &= left - 1;
            let key = _mm256_set1_epi8(k as i8);
            // A whole chunk's pass is unrolled (a fixed count of 16): over a variable
            // count, the loop's own steps came to two for every two candidates, beside
            // their six vector instructions.
            seen[k] = match m {
                CHUNK => pass(seen[k], key, &hi, &bit),
                _ => pass(seen[k], key, &hi[..m], &bit[..m]),
            };
        }
        j += m;
    }
    let green = Feedback::ALL_GREEN.0 as usize;
    let mut last = [0u8; LANES];
    // SAFETY: `last` holds 32 bytes.
    unsafe { _mm256_storeu_si256(last.as_mut_ptr().cast(), seen[green >> 3]) };
    sliced_splits(n, &count(&seen), &last, keep, out)
}

/// [`AnswerMajor::presence`] (over a block or a window) without the AVX-512 block
/// kernel: [`presence_sliced`] over `rows`, in AVX2 intrinsics on the AVX2 path and
/// for the AVX-512 path's windows ([`presence_avx2`]; a window's lanes picked by byte
/// shuffles, [`Gather`]), else in plain Rust (a window's lanes picked a byte at a
/// time).
///
/// [`AnswerMajor::presence`]: super::AnswerMajor::presence
pub(super) fn presence(
    simd: Simd,
    rows: Rows,
    slices: u32,
    keep: Keep,
    out: &mut [Split; LANES],
) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if simd == Simd::Avx2 {
        // SAFETY: a table's path is one the CPU has (`AnswerMajor::with_simd`).
        return unsafe { presence_avx2(rows, slices, keep, out) };
    }
    let _ = simd;
    // One copy of the kernel per kind of rows, each reading its rows without a
    // branch per row: one copy for both ran the portable `solve --opener trace` 1.25x
    // slower (7 pairs).
    match rows {
        Rows::Block { .. } => presence_sliced(&rows, |j| rows.get(j), slices, keep, out),
        Rows::Window { .. } => presence_sliced(&rows, |j| rows.get(j), slices, keep, out),
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{majors, xorshift};
    use super::super::{Lanes, PRESENCE_MAX_N};
    use super::*;
    use crate::game::{AnswerId, GuessId};

    /// The slices of the feedbacks green at given positions hold every such feedback
    /// (all-green among them), and on every path the presence kernels given only those
    /// slices keep exactly the guesses the scalar scan keeps, with the same counts, for
    /// the lanes whose guesses share the candidates' letters at those positions (a
    /// hard-mode state's playable guesses), over blocks and windows, on random such
    /// states of the full lists.
    #[test]
    fn presence_over_the_green_slices_matches_the_scalar_scan() {
        for greens in 0..32u8 {
            let slices = slices_for_greens(greens);
            assert!(slices >> (Feedback::ALL_GREEN.0 >> 3) & 1 == 1);
            for f in 0..FEEDBACKS as u8 {
                let green = (0..5).all(|i| greens >> i & 1 == 0 || Feedback(f).colour(i) == 2);
                assert!(!green || slices >> (f >> 3) & 1 == 1, "{greens:05b}, {f}");
            }
        }
        assert_eq!(slices_for_greens(0), ALL_SLICES);
        assert_eq!(slices_for_greens(1 << 4).count_ones(), 11);
        let (game, _table, scalar, majors) =
            majors("presence_over_the_green_slices_matches_the_scalar_scan");
        let stride = game.n_guesses();
        let mut next = xorshift(0x51ed_2701_9e37_79b9);
        let mut counts = vec![0u32; FEEDBACKS];
        let mut checked = 0;
        let mut modes = [0; 2];
        for round in 0..80 {
            // One or two green positions, from an anchor answer's letters.
            let mut greens = 1u8 << next(5);
            if round % 2 == 1 {
                greens |= 1 << next(5);
            }
            let anchor = game.answers[next(game.n_answers())];
            let agrees = |w: crate::Word| {
                (0..5).all(|i| greens >> i & 1 == 0 || w.letter(i) == anchor.letter(i))
            };
            let mut ids: Vec<AnswerId> = (0..game.n_answers())
                .filter(|&a| agrees(game.answers[a]) && next(3) > 0)
                .map(AnswerId::new)
                .take(PRESENCE_MAX_N)
                .collect();
            ids.sort_unstable();
            if ids.len() < 3 {
                continue;
            }
            let offsets: Vec<usize> = ids.iter().map(|&a| a.index() * stride).collect();
            let playable = |g: usize| agrees(game.guesses[g]);
            let slices = slices_for_greens(greens);
            // The portable kernel scatters over many slices, else passes over them.
            modes[scatters(slices) as usize] += 1;
            for _ in 0..4 {
                let g0 = next(stride / LANES) * LANES;
                let lanes = (0..LANES).fold(0u32, |m, l| m | (playable(g0 + l) as u32) << l);
                let mut bits = vec![0u64; stride.div_ceil(64)];
                for g in (g0..stride).filter(|&g| playable(g)) {
                    bits[g / 64] |= 1 << (g % 64);
                }
                let mut window = Window::default();
                window.fill(&bits, g0, stride);
                for major in &majors {
                    let path = major.simd;
                    for max_repeats in [1, 3, 17, usize::MAX] {
                        // The presence masks over the lanes `at`, for the lanes `want`.
                        let presence = |at, want| {
                            let mut got = [Split::default(); LANES];
                            let keep = Keep::new(max_repeats, want);
                            let mask = major.presence(at, &offsets, slices, keep, &mut got);
                            (mask, got)
                        };
                        let (mask, got) = presence(Lanes::Block(g0), lanes);
                        let (mask_w, got_w) = presence(Lanes::Window(&window), u32::MAX);
                        for l in 0..LANES {
                            for (g, wanted, mask, got) in [
                                (g0 + l, lanes >> l & 1 == 1, mask, &got),
                                (
                                    window.start + window.at[l] as usize,
                                    l < window.len,
                                    mask_w,
                                    &got_w,
                                ),
                            ] {
                                let want = scalar
                                    .bound_scan(GuessId::new(g), &offsets, &mut counts, max_repeats)
                                    .filter(|_| wanted);
                                let what = format!(
                                    "{path:?}, {greens:05b}, guess {g}, limit {max_repeats}"
                                );
                                assert_eq!(mask >> l & 1 == 1, want.is_some(), "{what}");
                                if let Some(want) = want {
                                    let got = (got[l].buckets, got[l].is_candidate);
                                    assert_eq!(got, (want.buckets, want.is_candidate), "{what}");
                                    checked += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 1000, "{checked} lanes checked");
        assert!(
            modes.iter().all(|&m| m > 0),
            "states by the portable kernel's mode: {modes:?}"
        );
    }
}
