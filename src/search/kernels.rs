//! Scan kernels: how guesses split a state, read from the answer-major copy of the
//! feedback table ([`AnswerMajor`]), which this module owns (the full table's copy is
//! built once per [`FeedbackTable`] and shared by every solver through an `Arc`). One
//! guess at a time with early rejection ([`AnswerMajor::bound_scan`]), or 32 guesses
//! at a time: by pairwise comparison of the candidates' rows for small states
//! ([`AnswerMajor::block_scan`]), per-lane masks of the feedbacks seen for states of
//! up to 255 candidates ([`AnswerMajor::block_presence`]) and per-lane bucket counts
//! above ([`AnswerMajor::block_tally`]). Hard mode's bucket pre-scans read only the
//! lanes their bucket may play, up to 32 picked from 128 lanes of the parent's table
//! ([`AnswerMajor::window_presence`] over a [`Window`]), and hard mode's compact
//! tables are packed from a wider table's rows ([`Local::build_masked`]). The block
//! kernels stop once every lane the caller wants (a mask) has reached its repeat
//! limit, and report the others dropped.
//!
//! SIMD paths ([`Simd`], forced by `WORDLE_TREE_SIMD`, one per table): every path runs
//! the same kernels with the same results, so the search visits the same states on
//! every machine (`bench --full` counts identical). AVX-512: the presence masks in
//! sixteen 512-bit registers (a rotate and masked ORs per feedback, popcounts), the
//! windows picked by byte permutes (VBMI), the rows packed by a byte compress
//! (VBMI2). AVX2 and portable: one plain-Rust body each ([`presence_sliced`]),
//! compiled for AVX2 or for the target's baseline (SSE2, NEON): AVX2 has no 64-bit
//! popcount, masked OR or byte permute across 128 bits, so the masks are byte-sliced
//! (a vector per byte of the mask, a compare, an AND and an OR per slice and
//! candidate) and the windows and packs go a byte at a time. The lane loops of the
//! other kernels are plain Rust too, compiled for AVX2 on the AVX-512 and AVX2 paths.
//! Measured (one thread, a loaded 2-core AVX-512 machine, the other paths forced;
//! NYT, 20 seeded openers, `openers --exact`, mean CPU-s per opener, normal / hard):
//! avx512 0.87 / 1.85; avx2 1.31 / 2.31 (3.16 / 4.09 with the old sieve and tally);
//! portable 2.11 / 3.20 (3.28 / 4.12). The byte-sliced loops compiled for AVX2 by the
//! compiler ran `solve trace` in 15.0 s against 1.1 s in intrinsics, hence
//! [`presence_avx2`]. Hard mode's windows and packs a byte at a time are the AVX2
//! path's remaining gap. Commands and the rest: docs/guide/performance.md.
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
    max_repeats: usize,
    want: u32,
    tally: &mut [[u16; 256]; LANES],
    out: &mut [Split; LANES],
) -> u32 {
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
        if j % 16 == 15 && (0..LANES).all(|l| want >> l & 1 == 0 || repeats[l] >= limit) {
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

/// The loop of the presence kernels ([`presence_avx512`], [`presence_window_avx512`]):
/// `$quads` gives, for the row at offset `$o`, its 32 feedbacks as four vectors of
/// eight 64-bit lanes.
#[cfg(target_arch = "x86_64")]
macro_rules! presence_loop {
    ($offsets:expr, $max_repeats:expr, $want:expr, $out:expr, |$o:ident| $quads:expr) => {{
        use std::arch::x86_64::*;
        let (offsets, max_repeats, want, out): (&[usize], usize, u32, &mut [Split; LANES]) =
            ($offsets, $max_repeats, $want, $out);
        let n = offsets.len();
        let one = _mm512_set1_epi64(1);
        let words = [0, 1, 2, 3].map(|w| _mm512_set1_epi64(w));
        // `seen[4 * q + w]`: word `w` of the masks of lanes `8q .. 8q + 8`.
        let mut seen = [_mm512_setzero_si512(); 16];
        // Buckets per lane: the population of the lane's four words.
        let count = |seen: &[__m512i; 16]| -> [u64; LANES] {
            let mut buckets = [0u64; LANES];
            for q in 0..4 {
                let mut sum = _mm512_popcnt_epi64(seen[4 * q]);
                for w in 1..4 {
                    sum = _mm512_add_epi64(sum, _mm512_popcnt_epi64(seen[4 * q + w]));
                }
                _mm512_storeu_si512(buckets[8 * q..].as_mut_ptr().cast(), sum);
            }
            buckets
        };
        let mut stopped = false;
        for (j, &$o) in offsets.iter().enumerate() {
            let quads: [__m512i; 4] = $quads;
            for q in 0..4 {
                // The feedback's bit within its word, then the word it goes to.
                let bit = _mm512_rolv_epi64(one, quads[q]);
                let word = _mm512_srli_epi64::<6>(quads[q]);
                for w in 0..4 {
                    let k = _mm512_cmpeq_epi64_mask(word, words[w]);
                    seen[4 * q + w] =
                        _mm512_mask_or_epi64(seen[4 * q + w], k, seen[4 * q + w], bit);
                }
            }
            if j % 16 == 15 && j + 1 < n && max_repeats <= j + 1 {
                let buckets = count(&seen);
                let done = |l: usize| j + 1 - buckets[l] as usize >= max_repeats;
                if (0..LANES).all(|l| want >> l & 1 == 0 || done(l)) {
                    stopped = true; // every wanted lane has reached the limit
                    break;
                }
            }
        }
        if stopped {
            0
        } else {
            let buckets = count(&seen);
            let mut green = [0u64; LANES];
            for q in 0..4 {
                _mm512_storeu_si512(green[8 * q..].as_mut_ptr().cast(), seen[4 * q + 3]);
            }
            let green_bit = Feedback::ALL_GREEN.0 as u32 - 192;
            let mut alive = 0u32;
            for l in 0..LANES {
                let b = buckets[l] as usize;
                alive |= ((n - b < max_repeats) as u32) << l;
                out[l] = Split {
                    buckets: b,
                    sum_squares: 0,
                    is_candidate: green[l] >> green_bit & 1 == 1,
                };
            }
            alive & want
        }
    }};
}

/// The body of [`AnswerMajor::block_presence`]: per lane, the set of feedbacks seen so
/// far as a 256-bit mask held in registers (4 words of 64 bits for each of the 32
/// lanes: sixteen 512-bit registers), one candidate at a time; the bucket count is the
/// mask's population. No memory is written in the loop, where the tally's per-lane
/// counters are a load and a store each (its time is the wait on those loads). The
/// all-green feedback (242) is bit 50 of the last word, so the candidate test comes
/// free. The sum of squared bucket sizes is not counted (reported as 0): it only breaks
/// ties in the order of expansion, and without it `syncs` (NYT) searched 0.8% more
/// states.
///
/// Measured (farm-bench, one thread, release, against the tally and sieve it replaces
/// for states of 23 to 255 candidates): NYT `syncs` exact 13.3 -> 9.8 CPU-s with the
/// tally alone replaced, then 8.3 -> 7.3 with the sieve too; NYT 8 poor openers
/// (`faith taint hoiks edict stell etuis reffo chout`) 32.1 -> 24.1 (A/B 0.75);
/// original lists `trace crane adieu audio` 6.5 -> 5.3; `check --opener any
/// --min-over 4 --sample 400` 51.1 -> 41.0. Tried: a prefetch of the rows ahead
/// (no change); the kernel for states of 12 to 22 candidates instead of the block
/// scan (9% slower); for states above 255 (no change on `syncs`, and the order's tie
/// break matters most there, so left to the tally). A feedback sets its bit by one
/// rotate of 1 and four masked ORs (its word picked by a compare of `f >> 6`), not by
/// four variable shifts of `f - 64w`: NYT normal, the nine poor openers of
/// `expand.rs`, 11.7 -> 9.4 CPU-s (A/B 0.80); NYT hard `nyong botty vivos cheth` A/B
/// 0.935; same results. A prefetch of each row's next cache line: the nine openers
/// A/B 0.91 (hard mode's four: 1.02, noise); of the line 128 or 96 bytes on, the same.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vpopcntdq")]
unsafe fn presence_avx512(
    table: &[u8],
    g0: usize,
    offsets: &[usize],
    max_repeats: usize,
    want: u32,
    out: &mut [Split; LANES],
) -> u32 {
    presence_loop!(offsets, max_repeats, want, out, |o| {
        let row = &table[o + g0..o + g0 + LANES];
        let p = row.as_ptr();
        // The row's next cache line, for the blocks after this one (the rows are far
        // apart, and a scan reads them block after block).
        _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(64).cast());
        // SAFETY: `row` holds 32 bytes, so bytes 8q .. 8q + 8 are in bounds.
        [0, 1, 2, 3].map(|q| _mm512_cvtepu8_epi64(_mm_loadl_epi64(p.add(8 * q).cast())))
    })
}

/// The body of [`AnswerMajor::window_presence`]: [`presence_avx512`]'s loop over the
/// lanes of `window`, each row's two 64-byte halves of the window loaded (only the
/// lanes read) and its 32 lanes picked, zero-extended, by four byte permutes: per row
/// two loads and four permutes where the block kernel has four loads that widen.
/// Tried: a prefetch of the row 8 or 24 rows ahead (A/B 0.97 and 1.03, noise), or of
/// the next window's line (0.995).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vpopcntdq")]
unsafe fn presence_window_avx512(
    table: &[u8],
    stride: usize,
    window: &Window,
    offsets: &[usize],
    max_repeats: usize,
    want: u32,
    out: &mut [Split; LANES],
) -> u32 {
    use std::arch::x86_64::*;
    let lanes = &window.at[..window.len];
    let span = window.span(stride);
    let (mut low, mut high) = (0u64, 0u64);
    for &a in lanes {
        match a {
            0..64 => low |= 1 << a,
            _ => high |= 1 << (a - 64),
        }
    }
    // Byte 8e of quad q's index picks lane 8q + e (0..64 from the low half, 64..128
    // from the high); the other bytes are zeroed, which zero-extends it.
    let mut idx = [[0u8; 64]; 4];
    for (l, &a) in lanes.iter().enumerate() {
        idx[l / 8][8 * (l % 8)] = a;
    }
    let idx = idx.map(|i| _mm512_loadu_si512(i.as_ptr().cast()));
    let bytes = 0x0101_0101_0101_0101u64;
    presence_loop!(offsets, max_repeats, want, out, |o| {
        let row = &table[o + window.start..o + window.start + span];
        // SAFETY: only the bytes of the window's lanes are read (a masked load never
        // faults on the others), and they lie within `row`. The high half is loaded
        // only when a lane lies in it: then the row is longer than 64 bytes, so
        // `p.add(64)` stays within it.
        let p = row.as_ptr();
        let a = _mm512_maskz_loadu_epi8(low, p.cast());
        let b = match high {
            0 => _mm512_setzero_si512(),
            _ => _mm512_maskz_loadu_epi8(high, p.add(64).cast()),
        };
        idx.map(|i| _mm512_maskz_permutex2var_epi8(bytes, a, i, b))
    })
}

/// Slices of the byte-sliced presence masks: feedback `f` is bit `f & 7` of slice
/// `f >> 3` (243 feedbacks, 31 slices; all-green, 242, is bit 2 of slice 30).
const SLICES: usize = FEEDBACKS.div_ceil(8);

/// Candidates the byte-sliced kernel takes at a time, between checks of the limit.
const CHUNK: usize = 16;

/// The presence kernel of the portable path ([`presence_block`], [`presence_window`];
/// [`presence_avx2`] is the same in AVX2 intrinsics): [`presence_avx512`]'s per-lane
/// masks of the feedbacks seen, byte-sliced so that plain byte-lane loops do all the
/// work (two SSE2 or NEON instructions each): slice `k` is a 32-byte vector holding
/// byte `k` of every lane's 248-bit mask. A candidate sets, in every slice, the
/// lane's bit where its slice is `k` (a compare, an AND and an OR per slice): 31
/// vector steps per candidate, no memory written per lane (the tally writes a counter
/// per lane and candidate). The candidates come 16 at a time (their slices and bits
/// first, then each slice once over all 16, held in a register), and the limit is
/// checked after each 16. `row(j)` gives candidate `j`'s 32 feedbacks.
#[inline(always)]
fn presence_sliced(
    n: usize,
    row: impl Fn(usize) -> [u8; LANES],
    max_repeats: usize,
    want: u32,
    out: &mut [Split; LANES],
) -> u32 {
    let mut seen = [[0u8; LANES]; SLICES];
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
    let mut j = 0;
    while j < n {
        let m = CHUNK.min(n - j);
        for c in 0..m {
            let r = row(j + c);
            for ((h, b), f) in hi[c].iter_mut().zip(&mut bit[c]).zip(r) {
                *h = f >> 3;
                *b = 1 << (f & 7);
            }
        }
        for (k, slice) in seen.iter_mut().enumerate() {
            let mut s = *slice;
            for (h, b) in hi[..m].iter().zip(&bit[..m]) {
                for ((s, &h), &b) in s.iter_mut().zip(h).zip(b) {
                    *s |= ((h == k as u8) as u8).wrapping_neg() & b;
                }
            }
            *slice = s;
        }
        j += m;
        if j < n && max_repeats <= j && all_done(j, &count(&seen), max_repeats, want) {
            return 0; // every wanted lane has reached the limit
        }
    }
    let green = Feedback::ALL_GREEN.0 as usize;
    sliced_splits(n, &count(&seen), &seen[green >> 3], max_repeats, want, out)
}

/// True when every lane in `want` has reached `max_repeats` repeats after `j`
/// candidates with `buckets` buckets each (the byte-sliced kernels' early stop).
fn all_done(j: usize, buckets: &[u8; LANES], max_repeats: usize, want: u32) -> bool {
    (0..LANES).all(|l| want >> l & 1 == 0 || j - buckets[l] as usize >= max_repeats)
}

/// The byte-sliced kernels' result for `n` candidates: per lane its buckets and its
/// candidate test (all-green's bit in `last`, its slice), and the wanted lanes under
/// the limit.
fn sliced_splits(
    n: usize,
    buckets: &[u8; LANES],
    last: &[u8; LANES],
    max_repeats: usize,
    want: u32,
    out: &mut [Split; LANES],
) -> u32 {
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
/// table in place, or a window's lanes picked from each row.
#[derive(Clone, Copy)]
enum Rows<'a> {
    Block {
        table: &'a [u8],
        g0: usize,
        offsets: &'a [usize],
    },
    Window {
        table: &'a [u8],
        start: usize,
        span: usize,
        at: [u8; LANES],
        offsets: &'a [usize],
    },
}

impl Rows<'_> {
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
            } => {
                let r = &table[offsets[j] + start..][..span];
                at.map(|a| r[a as usize])
            }
        }
    }

    fn len(&self) -> usize {
        match self {
            Rows::Block { offsets, .. } | Rows::Window { offsets, .. } => offsets.len(),
        }
    }
}

/// [`presence_sliced`] written with AVX2 intrinsics: the compiler's own AVX2 build of
/// the plain loops unrolled the 31 slices into 16-byte shuffles and ran 8x slower
/// than this (`bench --full`, `solve trace` 15.0 s against 1.9 s).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn presence_avx2(
    rows: Rows,
    max_repeats: usize,
    want: u32,
    out: &mut [Split; LANES],
) -> u32 {
    use std::arch::x86_64::*;
    let n = rows.len();
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
        _mm256_storeu_si256(buckets.as_mut_ptr().cast(), sum);
        buckets
    };
    let mut j = 0;
    while j < n {
        let m = CHUNK.min(n - j);
        for c in 0..m {
            let r = rows.get(j + c);
            let f = _mm256_loadu_si256(r.as_ptr().cast());
            hi[c] = _mm256_and_si256(_mm256_srli_epi16::<3>(f), low5);
            bit[c] = _mm256_shuffle_epi8(pow2, _mm256_and_si256(f, sevens));
        }
        for (k, slice) in seen.iter_mut().enumerate() {
            let key = _mm256_set1_epi8(k as i8);
            let mut s = *slice;
            for c in 0..m {
                let hit = _mm256_cmpeq_epi8(hi[c], key);
                s = _mm256_or_si256(s, _mm256_and_si256(hit, bit[c]));
            }
            *slice = s;
        }
        j += m;
        if j < n && max_repeats <= j && all_done(j, &count(&seen), max_repeats, want) {
            return 0; // every wanted lane has reached the limit
        }
    }
    let green = Feedback::ALL_GREEN.0 as usize;
    let mut last = [0u8; LANES];
    _mm256_storeu_si256(last.as_mut_ptr().cast(), seen[green >> 3]);
    sliced_splits(n, &count(&seen), &last, max_repeats, want, out)
}

/// [`AnswerMajor::block_presence`] without AVX-512: [`presence_sliced`] over the
/// block of 32 lanes from `g0`.
fn presence_block(
    simd: Simd,
    table: &[u8],
    g0: usize,
    offsets: &[usize],
    max_repeats: usize,
    want: u32,
    out: &mut [Split; LANES],
) -> u32 {
    let rows = Rows::Block { table, g0, offsets };
    #[cfg(target_arch = "x86_64")]
    if simd == Simd::Avx2 {
        // SAFETY: a table's path is one the CPU has (`AnswerMajor::with_simd`).
        return unsafe { presence_avx2(rows, max_repeats, want, out) };
    }
    let _ = simd;
    presence_sliced(offsets.len(), |j| rows.get(j), max_repeats, want, out)
}

/// [`AnswerMajor::window_presence`] without AVX-512: [`presence_sliced`] over the
/// window's lanes, picked from each row a byte at a time.
#[allow(clippy::too_many_arguments)] // a kernel's inputs, passed through
fn presence_window(
    simd: Simd,
    table: &[u8],
    stride: usize,
    window: &Window,
    offsets: &[usize],
    max_repeats: usize,
    want: u32,
    out: &mut [Split; LANES],
) -> u32 {
    let lanes = &window.at[..window.len];
    let span = window.span(stride);
    if span == 0 {
        return 0;
    }
    // Lanes past the window read its first lane (their result is not wanted).
    let mut at = [0u8; LANES];
    at[..lanes.len()].copy_from_slice(lanes);
    let rows = Rows::Window {
        table,
        start: window.start,
        span,
        at,
        offsets,
    };
    #[cfg(target_arch = "x86_64")]
    if simd == Simd::Avx2 {
        // SAFETY: a table's path is one the CPU has (`AnswerMajor::with_simd`).
        return unsafe { presence_avx2(rows, max_repeats, want, out) };
    }
    let _ = simd;
    presence_sliced(offsets.len(), |j| rows.get(j), max_repeats, want, out)
}

/// Up to 32 lanes of a compact table read by one call of
/// [`AnswerMajor::window_presence`]: the lanes set in a bitset, taken in order from
/// `start`, within 128 lanes of it. Hard mode's bucket pre-scans read their parent's
/// table through windows, as only a third of its lanes are playable in a bucket on
/// average (NYT hard, `nyong botty vivos cheth`), where a block of 32 lanes in place
/// pays for all 32.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Window {
    /// The first lane.
    pub(super) start: usize,
    /// The lanes read, as offsets from `start` (below 128), in order.
    pub(super) at: [u8; LANES],
    /// How many of `at` are lanes.
    pub(super) len: usize,
}

impl Window {
    /// Takes the lanes set in `bits` from lane `from`, below `end` and `from + 128`,
    /// up to 32 of them; returns the lane after the last one looked at (where the
    /// next window starts).
    pub(super) fn fill(&mut self, bits: &[u64], from: usize, end: usize) -> usize {
        self.start = from;
        self.len = 0;
        let stop = end.min(from + 128);
        let mut i = from;
        while i < stop {
            let word = bits[i / 64] >> (i % 64);
            if word == 0 {
                i = (i / 64 + 1) * 64;
                continue;
            }
            i += word.trailing_zeros() as usize;
            if i >= stop {
                break;
            }
            self.at[self.len] = (i - from) as u8;
            self.len += 1;
            i += 1;
            if self.len == LANES {
                return i;
            }
        }
        stop
    }

    /// Bytes from `start` to the last lane, inclusive, checked to lie within rows of
    /// `stride` bytes.
    fn span(&self, stride: usize) -> usize {
        let span = self.at[..self.len].last().map_or(0, |&a| a as usize + 1);
        assert!(self.start + span <= stride, "a window within the rows");
        span
    }

    /// The table lane of the window's `l`-th lane.
    pub(super) fn lane(&self, l: usize) -> usize {
        self.start + self.at[l] as usize
    }

    /// The window's lanes, a bit each (the low `len` bits).
    pub(super) fn bits(&self) -> u32 {
        match self.len {
            LANES => u32::MAX,
            k => (1u32 << k) - 1,
        }
    }
}

/// The body of [`Local::build_masked`]: row `i` of `out` (`stride` bytes apart)
/// gets the bytes of `src`'s row at `rows[i]` whose bits are set in `mask`, in order.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2")]
unsafe fn compress_rows(src: &[u8], rows: &[usize], mask: &[u64], out: &mut [u8], stride: usize) {
    use std::arch::x86_64::*;
    let len: usize = mask.iter().map(|m| m.count_ones() as usize).sum();
    assert!(len <= stride && out.len() >= rows.len() * stride);
    for (i, &o) in rows.iter().enumerate() {
        let row = src.as_ptr().add(o);
        let dst = out.as_mut_ptr().add(i * stride);
        let mut at = 0usize;
        for (w, &m) in mask.iter().enumerate() {
            if m == 0 {
                continue;
            }
            // Only the bytes of set bits are read (a masked load never faults on the
            // others).
            let v = _mm512_maskz_loadu_epi8(m, row.add(64 * w).cast());
            let packed = _mm512_maskz_compress_epi8(m, v);
            let k = m.count_ones() as usize;
            let keep = if k == 64 { u64::MAX } else { (1u64 << k) - 1 };
            _mm512_mask_storeu_epi8(dst.add(at).cast(), keep, packed);
            at += k;
        }
    }
}

/// States of at most this many candidates take [`AnswerMajor::block_presence`] where
/// they would take the tally (see `scan.rs`), on every path: above it the order of the guesses, whose
/// ties the sum of squares breaks, matters more (the first guess of a large state with
/// no incumbent sets the cutoff of all that follows).
pub(super) const PRESENCE_MAX_N: usize = 255;

/// How one guess splits a state, from the scan.
#[derive(Clone, Copy, Default)]
pub(super) struct Split {
    pub(super) buckets: usize,
    pub(super) sum_squares: u64,
    pub(super) is_candidate: bool,
}

/// The feedback table, answer-major (see the module doc): the layout every scan
/// kernel reads. The full table's bytes are the one copy its [`FeedbackTable`]
/// shares with every solver; a [`Local`] table's are its own (never shared, so
/// `Arc::make_mut` rebuilds them in place).
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

/// A state's own compact answer-major table: its candidates' rows over only the
/// guesses it hands to its children, so the children's block scans (the bulk of the
/// work under a large state) pass over those guesses instead of every allowed one.
/// The block kernels mask lanes but still pay for all 32 of a block, so a list that
/// skips half the guesses (partition classes and dominated guesses dropped) used to
/// save almost nothing. In hard mode a state's own table of the guesses it may play
/// ([`Local::build_masked`], `scan.rs`), read by its scan and packed again from by
/// its children's. In normal mode built by `classify` for states of at least
/// [`super::Config::local_min`] candidates whose list is under 3/4 of the guesses;
/// the copy costs `n * guesses` bytes once (5.6 MB, a few ms, for `judos:BBBBB`).
/// Measured: instructions (callgrind) of `--list nyt next --opener proxy
/// proxy:BBBBB` 61.9 G -> 46.2 G, with the same states, expansions and scanned
/// pairs (`bench --full` signature unchanged).
/// Lane `j` of the compact table is guess `guesses[j]`; the rows are padded to a
/// multiple of 32 guesses (padding lanes are never read as guesses). The lanes come
/// in order of `caps` (most buckets on the state first), so a least-bound scan of a
/// child (`scan.rs`) can stop at the first block that cannot beat what it found.
#[derive(Default)]
pub(super) struct Local {
    pub(super) table: AnswerMajor,
    pub(super) guesses: Vec<GuessId>,
    /// Per lane, the most buckets its guess makes on the state that built the table,
    /// hence on any of its subsets (padding lanes 0; `u16::MAX` where not known).
    pub(super) caps: Vec<u16>,
    /// Answer id -> row in `table`, for the state's candidates (other entries stale).
    row_of: Vec<u32>,
}

impl Local {
    /// Heap bytes held.
    pub(super) fn bytes(&self) -> usize {
        self.table.bytes.capacity()
            + self.guesses.capacity() * std::mem::size_of::<GuessId>()
            + self.caps.capacity() * std::mem::size_of::<u16>()
            + self.row_of.capacity() * std::mem::size_of::<u32>()
    }

    /// Rebuilds this table for the candidates `ids` (a state) and the guesses
    /// `guesses`, with their `caps` (indexed by guess id), from the full table `full`.
    pub(super) fn build(
        &mut self,
        full: &AnswerMajor,
        ids: &[AnswerId],
        guesses: &[GuessId],
        caps: &[u16],
    ) {
        let stride = self.begin(ids, guesses);
        self.caps.clear();
        self.caps.extend(guesses.iter().map(|g| caps[g.index()]));
        self.caps.resize(stride.max(1), 0);
        let bytes = Arc::make_mut(&mut self.table.bytes);
        for (i, &a) in ids.iter().enumerate() {
            let row = &full.bytes[a.index() * full.stride..][..full.stride];
            let out = &mut bytes[i * stride..][..guesses.len()];
            for (o, g) in out.iter_mut().zip(guesses) {
                *o = row[g.index()];
            }
        }
    }

    /// Sets the lanes to `guesses` and zeroes a row per candidate of `ids` (row `i`
    /// for `ids[i]`); returns the rows' stride (the lanes padded to whole blocks).
    fn begin(&mut self, ids: &[AnswerId], guesses: &[GuessId]) -> usize {
        let stride = guesses.len().div_ceil(LANES) * LANES;
        self.guesses.clear();
        self.guesses.extend_from_slice(guesses);
        self.table.stride = stride;
        let bytes = Arc::make_mut(&mut self.table.bytes);
        bytes.clear();
        bytes.resize(ids.len() * stride, 0);
        let max_id = ids.iter().map(|a| a.index() + 1).max().unwrap_or(0);
        if self.row_of.len() < max_id {
            self.row_of.resize(max_id, u32::MAX);
        }
        for (i, &a) in ids.iter().enumerate() {
            self.row_of[a.index()] = i as u32;
        }
        stride
    }

    /// Rebuilds this table for the candidates `ids`, whose rows start at `rows` in
    /// `src` (the full table, or a parent's own table), keeping the columns of `src`
    /// whose bits are set in `mask`, in order; `guesses` names them (a lane each).
    /// The caps are unknown (`u16::MAX`: no lane is skipped for its cap). Hard mode's
    /// own tables (`scan.rs`).
    ///
    /// With AVX-512 VBMI2 each row is packed 64 columns at a time (one load and one
    /// byte compress per word of the mask) instead of a byte at a time. The copy
    /// waits on memory either way (the rows are read from far apart); measured with
    /// the parent's table as the source (farm-bench, NYT hard `nyong botty vivos
    /// cheth`, `openers --exact`, one thread): 32.0 -> 30.9 CPU-s (A/B 0.965) against
    /// the byte copy from the full table, and A/B 0.945 against the packed copy from
    /// the full table (the machine's spread between runs was about 5%).
    pub(super) fn build_masked(
        &mut self,
        src: &AnswerMajor,
        rows: &[usize],
        ids: &[AnswerId],
        mask: &[u64],
        guesses: &[GuessId],
    ) {
        assert!(rows.len() == ids.len());
        let mask = &mask[..src.stride.div_ceil(64)];
        debug_assert_eq!(
            mask.iter().map(|m| m.count_ones() as usize).sum::<usize>(),
            guesses.len()
        );
        assert!(
            src.stride.is_multiple_of(64)
                || mask.last().is_none_or(|m| m >> (src.stride % 64) == 0)
        );
        assert!(rows.iter().all(|&o| o + src.stride <= src.bytes.len()));
        let stride = self.begin(ids, guesses);
        self.caps.clear();
        self.caps.resize(stride.max(1), u16::MAX);
        let out = Arc::make_mut(&mut self.table.bytes);
        #[cfg(target_arch = "x86_64")]
        if self.table.simd == Simd::Avx512 {
            // SAFETY: the table's path is one the CPU has (`AnswerMajor::with_simd`),
            // and AVX-512 includes the features; every row read lies in `src`
            // (asserted) and only its bytes of set bits are read, all below the row's
            // stride (asserted); each output row gets `guesses.len()` bytes within
            // its own stride.
            unsafe { compress_rows(&src.bytes, rows, mask, out, stride) };
            return;
        }
        let cols: Vec<usize> = super::scan::members(mask).collect();
        for (i, &o) in rows.iter().enumerate() {
            let row = &src.bytes[o..o + src.stride];
            let out = &mut out[i * stride..][..cols.len()];
            for (slot, &c) in out.iter_mut().zip(&cols) {
                *slot = row[c];
            }
        }
    }

    /// A table on the path `simd` (one the CPU has), for the tests of every path.
    #[cfg(test)]
    fn with_simd(simd: Simd) -> Local {
        Local {
            table: AnswerMajor::default().with_simd(simd),
            ..Local::default()
        }
    }

    /// Where each of `ids` (a subset of the state's candidates) starts in `table`.
    pub(super) fn offsets(&self, ids: &[AnswerId], offsets: &mut Vec<usize>) {
        offsets.clear();
        offsets.extend(ids.iter().map(|&a| {
            let r = self.row_of[a.index()];
            debug_assert!(r != u32::MAX, "a candidate of the state");
            r as usize * self.table.stride
        }));
    }

    /// The lanes of the block from `g0` that are guesses (all but the padding).
    #[inline]
    pub(super) fn block(&self, g0: usize) -> u32 {
        let m = self.guesses.len() - g0.min(self.guesses.len());
        if m >= LANES {
            u32::MAX
        } else {
            (1u32 << m) - 1
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

    /// The guesses among `g0..g0 + 32` in `want` (a bit per guess) with fewer than
    /// `max_repeats` repeats on the candidates at `offsets`, and for every lane its
    /// bucket count and candidate test in `out` (meaningful for the kept ones;
    /// `sum_squares` is 0), from per-lane masks of the feedbacks seen; stops once
    /// every wanted lane has reached `max_repeats`. Needs n <= 255.
    pub(super) fn block_presence(
        &self,
        g0: usize,
        offsets: &[usize],
        max_repeats: usize,
        want: u32,
        out: &mut [Split; LANES],
    ) -> u32 {
        assert!(offsets.len() <= PRESENCE_MAX_N);
        #[cfg(target_arch = "x86_64")]
        if self.simd == Simd::Avx512 {
            // SAFETY: the table's path is one the CPU has (`AnswerMajor::with_simd`),
            // and AVX-512 includes the kernel's features.
            return unsafe { presence_avx512(&self.bytes, g0, offsets, max_repeats, want, out) };
        }
        presence_block(self.simd, &self.bytes, g0, offsets, max_repeats, want, out)
    }

    /// [`AnswerMajor::block_presence`] over the lanes of `window` (lane `l` of `out`
    /// and of the result is `window.lane(l)`). Needs n <= 255.
    pub(super) fn window_presence(
        &self,
        window: &Window,
        offsets: &[usize],
        max_repeats: usize,
        want: u32,
        out: &mut [Split; LANES],
    ) -> u32 {
        assert!(offsets.len() <= PRESENCE_MAX_N);
        let want = want & window.bits();
        let (table, stride) = (&self.bytes[..], self.stride);
        #[cfg(target_arch = "x86_64")]
        if self.simd == Simd::Avx512 {
            // SAFETY: the table's path is one the CPU has (`AnswerMajor::with_simd`),
            // and AVX-512 includes the kernel's features.
            return unsafe {
                presence_window_avx512(table, stride, window, offsets, max_repeats, want, out)
            };
        }
        presence_window(
            self.simd,
            table,
            stride,
            window,
            offsets,
            max_repeats,
            want,
            out,
        )
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
        max_repeats: usize,
        want: u32,
        counts: &mut [[u16; 256]; LANES],
        out: &mut [Split; LANES],
    ) -> u32 {
        let table = &self.bytes[..];
        with_avx2!(self.simd, tally(
            table: &[u8],
            g0: usize,
            offsets: &[usize],
            max_repeats: usize,
            want: u32,
            counts: &mut [[u16; 256]; LANES],
            out: &mut [Split; LANES]
        ) -> u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::table::FeedbackTable;
    use crate::game::{Game, ListSource};

    /// A repeatable stream of numbers below the argument (xorshift from `seed`).
    fn xorshift(mut seed: u64) -> impl FnMut(usize) -> usize {
        move |below| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % below as u64) as usize
        }
    }

    /// The SIMD paths this CPU runs; names the others as skipped (on stderr, shown
    /// with `--nocapture`).
    fn paths(test: &str) -> Vec<Simd> {
        for s in Simd::ALL.iter().filter(|s| !s.available()) {
            eprintln!("{test}: skipped the {} path (this CPU lacks it)", s.name());
        }
        Simd::ALL.into_iter().filter(|s| s.available()).collect()
    }

    /// A table built by [`Local::build_masked`], from the full table or from another
    /// such table, holds exactly the chosen columns of each candidate's row (the
    /// rest zero), packed the same on every path (AVX-512's byte compress, a byte at
    /// a time otherwise), and finds each candidate's row.
    #[test]
    fn masked_builds_keep_the_chosen_columns() {
        let game = Game::load(&ListSource::Named("nyt".into())).unwrap();
        let table = FeedbackTable::build(&game);
        let full = AnswerMajor::new(&table);
        let n_guesses = game.n_guesses();
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        let ways = paths("masked_builds_keep_the_chosen_columns");
        for round in 0..40 {
            // Guesses with one chance in `sparse` (every few rounds, all of them).
            let sparse = [1, 2, 7, 60, 900][round % 5];
            let mut mask = vec![0u64; n_guesses.div_ceil(64)];
            for g in (0..n_guesses).filter(|_| next(sparse) == 0) {
                mask[g / 64] |= 1 << (g % 64);
            }
            let guesses: Vec<GuessId> = crate::search::scan::members(&mask)
                .map(GuessId::new)
                .collect();
            let mut ids: Vec<AnswerId> = (0..1 + next(300))
                .map(|_| AnswerId::new(next(game.n_answers())))
                .collect();
            ids.sort_unstable();
            ids.dedup();
            let rows: Vec<usize> = ids.iter().map(|a| a.index() * n_guesses).collect();
            // A subset of the candidates and of the columns, read from the first table.
            let sub: Vec<AnswerId> = ids.iter().copied().filter(|_| next(3) > 0).collect();
            let mut lanes = vec![0u64; guesses.len().div_ceil(LANES).max(1).div_ceil(2)];
            for j in (0..guesses.len()).filter(|_| next(4) > 0) {
                lanes[j / 64] |= 1 << (j % 64);
            }
            let sub_guesses: Vec<GuessId> = crate::search::scan::members(&lanes)
                .map(|j| guesses[j])
                .collect();
            for &simd in &ways {
                let mut top = Local::with_simd(simd);
                top.build_masked(&full, &rows, &ids, &mask, &guesses);
                let mut child = Local::with_simd(simd);
                let mut offsets = Vec::new();
                top.offsets(&sub, &mut offsets);
                child.build_masked(&top.table, &offsets, &sub, &lanes, &sub_guesses);
                for (local, ids, want) in [(&top, &ids, &guesses), (&child, &sub, &sub_guesses)] {
                    assert_eq!(&local.guesses, want);
                    assert_eq!(local.table.stride % LANES, 0);
                    assert!(local.caps.iter().all(|&c| c == u16::MAX));
                    let mut at = Vec::new();
                    local.offsets(ids, &mut at);
                    for (&a, &o) in ids.iter().zip(&at) {
                        let row = &local.table.bytes[o..o + local.table.stride];
                        for (j, &f) in row.iter().enumerate() {
                            let expected = want.get(j).map_or(0, |&g| table.get(g, a).0);
                            assert_eq!(f, expected, "round {round}, {a:?}, lane {j}, {simd:?}");
                        }
                    }
                }
            }
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
        let game = Game::load(&ListSource::Named("wordle".into())).unwrap();
        let table = FeedbackTable::build(&game);
        let scalar = AnswerMajor::new(&table);
        let majors: Vec<AnswerMajor> = paths("block_kernels_match_the_scalar_scan")
            .into_iter()
            .map(|simd| AnswerMajor::new(&table).with_simd(simd))
            .collect();
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
                    for max_repeats in [1, 2, 5, 16, 17, 40, usize::MAX]
                        .into_iter()
                        .filter(|_| n <= PRESENCE_MAX_N)
                    {
                        let mut got = [Split::default(); LANES];
                        let mask = major.block_presence(g0, &offsets, max_repeats, lanes, &mut got);
                        for l in 0..LANES {
                            let want = scan(g0 + l, max_repeats, wanted(l));
                            let what = format!("{path:?}, guess {}, limit {max_repeats}", g0 + l);
                            assert_eq!(mask >> l & 1 == 1, want.is_some(), "{what}");
                            if let Some(want) = want {
                                assert_eq!(
                                    (got[l].buckets, got[l].is_candidate),
                                    (want.0, want.2),
                                    "{what}"
                                );
                            }
                        }
                        for window in &windows {
                            let mut got = [Split::default(); LANES];
                            let mask = major.window_presence(
                                window,
                                &offsets,
                                max_repeats,
                                lanes,
                                &mut got,
                            );
                            for l in 0..LANES {
                                let want = (l < window.len)
                                    .then(|| scan(window.lane(l), max_repeats, wanted(l)))
                                    .flatten();
                                let what =
                                    format!("{path:?}, window lane {l}, limit {max_repeats}");
                                assert_eq!(mask >> l & 1 == 1, want.is_some(), "{what}");
                                if let Some(want) = want {
                                    assert_eq!(
                                        (got[l].buckets, got[l].is_candidate),
                                        (want.0, want.2),
                                        "{what}"
                                    );
                                }
                            }
                        }
                    }
                    for max_repeats in [1, 5, 16, 40, usize::MAX] {
                        let mut got = [Split::default(); LANES];
                        let mask = major.block_tally(
                            g0,
                            &offsets,
                            max_repeats,
                            lanes,
                            &mut tally_counts,
                            &mut got,
                        );
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
