//! A state's own compact answer-major table ([`Local`]): its candidates' rows over
//! only the guesses it hands down or may play, built from the full table or packed
//! from a parent's (with AVX-512 VBMI2 by a byte compress, [`compress_rows`]).

use super::{AnswerMajor, LANES};
#[cfg(any(target_arch = "x86_64", test))]
use crate::game::table::Simd;
use crate::game::{AnswerId, GuessId};
use crate::search::scan::letters::{LaneKeys, Shape};
use std::sync::Arc;

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

/// A state's own compact answer-major table: its candidates' rows over only the
/// guesses it hands to its children, so the children's block scans (the bulk of the
/// work under a large state) pass over those guesses instead of every allowed one.
/// The block kernels mask lanes but still pay for all 32 of a block, so a list that
/// skips half the guesses (partition classes and dominated guesses dropped) used to
/// save almost nothing. In hard mode a state's own table of the guesses it may play
/// ([`Local::build_masked`], `scan/`), read by its scan and packed again from by
/// its children's. In normal mode built by `classify` for states of at least
/// [`super::Config::local_min`] candidates whose list is under 3/4 of the guesses;
/// the copy costs `n * guesses` bytes once (5.6 MB, a few ms, for `judos:BBBBB`).
/// Measured: instructions (callgrind) of `--list nyt next --opener proxy
/// proxy:BBBBB` 61.9 G -> 46.2 G, with the same states, expansions and scanned
/// pairs (`bench --full` signature unchanged).
/// Lane `j` of the compact table is guess `guesses[j]`; the rows are padded to a
/// multiple of 32 guesses (padding lanes are never read as guesses). The lanes come
/// in order of `caps` (most buckets on the state first), so a least-bound scan of a
/// child (`scan/`) can stop at the first block that cannot beat what it found.
#[derive(Clone, Default)]
pub(in crate::search) struct Local {
    pub(in crate::search) table: AnswerMajor,
    pub(in crate::search) guesses: Vec<GuessId>,
    /// Per lane, the most buckets its guess makes on the state that built the table,
    /// hence on any of its subsets (padding lanes 0; `u16::MAX` where not known).
    pub(in crate::search) caps: Vec<u16>,
    /// Answer id -> row in `table`, for the state's candidates (other entries stale).
    row_of: Vec<u32>,
    /// The lanes' shapes for the letter caps (`scan/letters.rs`), filled by
    /// [`Local::build`] (the tables by cap); emptied by every other build, so a table
    /// never reads another's keys (no keys: no lane is capped).
    pub(in crate::search) keys: LaneKeys,
}

impl Local {
    /// Heap bytes held.
    pub(in crate::search) fn bytes(&self) -> usize {
        self.table.bytes.capacity()
            + self.guesses.capacity() * std::mem::size_of::<GuessId>()
            + self.caps.capacity() * std::mem::size_of::<u16>()
            + self.row_of.capacity() * std::mem::size_of::<u32>()
            + self.keys.bytes()
    }

    /// Makes the table's buffer hold at least `bytes` bytes.
    pub(in crate::search) fn reserve(&mut self, bytes: usize) {
        let buf = Arc::make_mut(&mut self.table.bytes);
        buf.reserve_exact(bytes.saturating_sub(buf.len()));
    }

    /// Rebuilds this table by cap for the candidates `ids` (a state) and the guesses
    /// `guesses`, with their `caps` and `shapes` (indexed by guess id; the shapes
    /// become the lanes' keys for the letter caps), from the full table `full`.
    pub(in crate::search) fn build(
        &mut self,
        full: &AnswerMajor,
        ids: &[AnswerId],
        guesses: &[GuessId],
        caps: &[u16],
        shapes: &[Shape],
    ) {
        let stride = self.begin(ids, guesses);
        self.keys.fill(guesses.iter().map(|g| shapes[g.index()]));
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
        self.keys.clear();
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
    /// own tables (`scan/`).
    ///
    /// With AVX-512 VBMI2 each row is packed 64 columns at a time (one load and one
    /// byte compress per word of the mask) instead of a byte at a time. The copy
    /// waits on memory either way (the rows are read from far apart); measured with
    /// the parent's table as the source (farm-bench, NYT hard `nyong botty vivos
    /// cheth`, `openers --exact`, one thread): 32.0 -> 30.9 CPU-s (A/B 0.965) against
    /// the byte copy from the full table, and A/B 0.945 against the packed copy from
    /// the full table (the machine's spread between runs was about 5%).
    pub(in crate::search) fn build_masked(
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
        let cols: Vec<usize> = crate::search::bits::members(mask).collect();
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

    /// The feedbacks of guess `g` to the candidates the table was built for, in their
    /// order, into `out`, when `g` is one of its lanes and the lanes are in guess
    /// order (hard mode's own tables, `scan/`); false otherwise (`out` untouched).
    pub(in crate::search) fn column(&self, g: GuessId, out: &mut Vec<u8>) -> bool {
        let Ok(lane) = self.guesses.binary_search(&g) else {
            return false;
        };
        let stride = self.table.stride;
        out.clear();
        out.extend(self.table.bytes[lane..].iter().step_by(stride).copied());
        true
    }

    /// Where each of `ids` (a subset of the state's candidates) starts in `table`.
    pub(in crate::search) fn offsets(&self, ids: &[AnswerId], offsets: &mut Vec<usize>) {
        offsets.clear();
        offsets.extend(ids.iter().map(|&a| {
            let r = self.row_of[a.index()];
            debug_assert!(r != u32::MAX, "a candidate of the state");
            r as usize * self.table.stride
        }));
    }

    /// The lanes of the block from `g0` that are guesses (all but the padding).
    #[inline]
    pub(in crate::search) fn block(&self, g0: usize) -> u32 {
        let m = self.guesses.len() - g0.min(self.guesses.len());
        if m >= LANES {
            u32::MAX
        } else {
            (1u32 << m) - 1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{loaded, paths, xorshift};
    use super::*;

    /// A table built by [`Local::build_masked`], from the full table or from another
    /// such table, holds exactly the chosen columns of each candidate's row (the
    /// rest zero), packed the same on every path (AVX-512's byte compress, a byte at
    /// a time otherwise), and finds each candidate's row.
    #[test]
    fn masked_builds_keep_the_chosen_columns() {
        let (game, table, full) = loaded("nyt");
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
            let guesses: Vec<GuessId> = crate::search::bits::members(&mask)
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
            let sub_guesses: Vec<GuessId> = crate::search::bits::members(&lanes)
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
                    // A lane's column: its guess's feedbacks in the candidates' order;
                    // a guess that is no lane has none.
                    let mut col = Vec::new();
                    for &g in want.iter().step_by(37) {
                        assert!(local.column(g, &mut col), "round {round}, {g:?}");
                        let expected: Vec<u8> = ids.iter().map(|&a| table.get(g, a).0).collect();
                        assert_eq!(col, expected, "round {round}, {g:?}, {simd:?}");
                    }
                    if let Some(g) = (0..n_guesses)
                        .map(GuessId::new)
                        .find(|g| want.binary_search(g).is_err())
                    {
                        assert!(!local.column(g, &mut col), "round {round}, {g:?}");
                    }
                }
            }
        }
    }
}
