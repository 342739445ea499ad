//! The AVX-512 presence kernel: per lane, the set of feedbacks seen as a 256-bit mask
//! held in sixteen 512-bit registers, over a block of 32 lanes in place
//! ([`presence_avx512`]); and the [`Window`]s of up to 32 lanes picked from 128 that
//! hard mode's pre-scans read, on every path with the byte-sliced kernels
//! (`sliced.rs`; the AVX-512 path with the AVX2 one). The AVX2 and portable paths run
//! the same presence kernel byte-sliced, with the same results.
//!
//! Dropped (session 30): an AVX-512 window kernel, this loop over a window's lanes
//! picked by four byte permutes (VBMI) from each row's two masked 64-byte loads. On
//! the AVX-512 machine the AVX2 kernel, whose gather reads only the 16-byte chunks
//! holding lanes and whose pass covers only the slices the greens allow, ran hard
//! mode's poor openers faster (figures in docs/guide/performance.md).

#[cfg(not(target_arch = "x86_64"))]
use super::LANES;
#[cfg(target_arch = "x86_64")]
use super::{Keep, Split, LANES};
#[cfg(target_arch = "x86_64")]
use crate::game::feedback::Feedback;

/// The loop of the presence kernel ([`presence_avx512`]):
/// `$quads` gives, for the row at offset `$o`, its 32 feedbacks as four vectors of
/// eight 64-bit lanes.
#[cfg(target_arch = "x86_64")]
macro_rules! presence_loop {
    ($offsets:expr, $keep:expr, $out:expr, |$o:ident| $quads:expr) => {{
        use std::arch::x86_64::*;
        let (offsets, keep, out): (&[usize], Keep, &mut [Split; LANES]) = ($offsets, $keep, $out);
        let Keep { max_repeats, want } = keep;
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
                if keep.all_done(|l| j + 1 - buckets[l] as usize) {
                    stopped = true;
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

/// The body of [`AnswerMajor::presence`] over a block in place: per lane, the set of
/// feedbacks seen so far as a 256-bit mask held in registers (4 words of 64 bits for each of the 32
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
pub(super) unsafe fn presence_avx512(
    table: &[u8],
    g0: usize,
    offsets: &[usize],
    keep: Keep,
    out: &mut [Split; LANES],
) -> u32 {
    presence_loop!(offsets, keep, out, |o| {
        let row = &table[o + g0..o + g0 + LANES];
        let p = row.as_ptr();
        // The row's next cache line, for the blocks after this one (the rows are far
        // apart, and a scan reads them block after block).
        _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(64).cast());
        // SAFETY: `row` holds 32 bytes, so bytes 8q .. 8q + 8 are in bounds.
        [0, 1, 2, 3].map(|q| _mm512_cvtepu8_epi64(_mm_loadl_epi64(p.add(8 * q).cast())))
    })
}

/// Up to 32 lanes of a compact table read by one call of
/// [`AnswerMajor::presence`]: the lanes set in a bitset, taken in order from
/// `start`, within 128 lanes of it. Hard mode's bucket pre-scans read their parent's
/// table through windows, as only a third of its lanes are playable in a bucket on
/// average (NYT hard, `nyong botty vivos cheth`), where a block of 32 lanes in place
/// pays for all 32.
#[derive(Clone, Copy, Debug, Default)]
pub(in crate::search) struct Window {
    /// The first lane.
    pub(in crate::search) start: usize,
    /// The lanes read, as offsets from `start` (below 128), in order.
    pub(in crate::search) at: [u8; LANES],
    /// How many of `at` are lanes.
    pub(in crate::search) len: usize,
}

impl Window {
    /// Takes the lanes set in `bits` from lane `from`, below `end` and `from + 128`,
    /// up to 32 of them; returns the lane after the last one looked at (where the
    /// next window starts).
    pub(in crate::search) fn fill(&mut self, bits: &[u64], from: usize, end: usize) -> usize {
        self.start = from;
        self.len = 0;
        let stop = end.min(from + 128);
        if from >= stop {
            return stop;
        }
        // Word by word, a set bit at a time: the next lane comes from clearing the
        // lowest bit (one cycle), not from a load and shift at the last lane found.
        let mut at = from / 64;
        let mut word = bits[at] & (u64::MAX << (from % 64));
        loop {
            while word != 0 {
                let i = 64 * at + word.trailing_zeros() as usize;
                if i >= stop {
                    return stop;
                }
                self.at[self.len] = (i - from) as u8;
                self.len += 1;
                word &= word - 1;
                if self.len == LANES {
                    return i + 1;
                }
            }
            at += 1;
            if 64 * at >= stop {
                return stop;
            }
            word = bits[at];
        }
    }

    /// Bytes from `start` to the last lane, inclusive, checked to lie within rows of
    /// `stride` bytes.
    pub(in crate::search) fn span(&self, stride: usize) -> usize {
        let span = self.lanes().last().map_or(0, |&a| a as usize + 1);
        assert!(self.start + span <= stride, "a window within the rows");
        span
    }

    /// The window's lanes, as offsets from `start`.
    pub(in crate::search) fn lanes(&self) -> &[u8] {
        &self.at[..self.len]
    }

    /// The table lane of the window's `l`-th lane.
    pub(in crate::search) fn lane(&self, l: usize) -> usize {
        self.start + self.at[l] as usize
    }

    /// The window's lanes, a bit each (the low `len` bits).
    pub(in crate::search) fn bits(&self) -> u32 {
        match self.len {
            LANES => u32::MAX,
            k => (1u32 << k) - 1,
        }
    }
}
