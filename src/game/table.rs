//! The feedback table: `feedback(guess, answer)` for every allowed guess and every
//! answer, built once and then only read.
//!
//! Layout: one row per guess (`data[g * n_answers + a]`), because every consumer
//! (partitioning, ranking) fixes a guess and walks answers. 12972 x 2315 is 30 MB.
//! [`FeedbackTable::answer_major`] makes the transposed copy the search scans with;
//! both live in huge pages where the kernel allows (`table_buffer`).
//!
//! Building: parallel over blocks of rows (rayon). A row is filled by a branch-free
//! formula over a structure-of-arrays copy of the answers (five columns of letter
//! bytes), all in `u8` lanes, so the compiler vectorises it 32 answers at a time
//! (AVX2, picked at run time when the CPU has it; SSE2 otherwise). The formula is the
//! duplicate-letter rule of [`Feedback::compute`] restated per position: position `i`
//! of the guess is green when the letters match; otherwise yellow when the answer's
//! unmatched copies of the letter (copies at non-green positions) outnumber the
//! earlier non-green positions of the guess holding the same letter. For guesses
//! without a repeated letter this reduces to "the answer has the letter anywhere",
//! which has its own, cheaper instantiation. Tests check every row kind against
//! [`crate::game::feedback::reference_feedback`].
//!
//! Measured (12972 x 2315, one build on one thread, process CPU time, best of 15):
//! 19 ms, a few of them the page faults of the fresh 30 MB; the figures of earlier
//! versions and the variants tried are in docs/guide/performance-history.md.

// Lane loops index several arrays by the same lane or position; iterator chains
// would hide the one-instruction-per-loop shape the vectoriser relies on.
#![allow(clippy::needless_range_loop)]

use crate::game::feedback::Feedback;
use crate::game::word::Word;
use crate::game::{AnswerId, Game, GuessId};
use rayon::prelude::*;
use std::sync::{Arc, OnceLock};

pub struct FeedbackTable {
    n_answers: usize,
    data: Vec<u8>,
    /// The answer-major copy, built once on first use and shared by every solver of
    /// this table ([`FeedbackTable::shared_answer_major`]).
    major: OnceLock<Arc<Vec<u8>>>,
}

/// The vector instruction set the kernels use (the table build here and the search's
/// scan kernels), chosen once per process by `WORDLE_TREE_SIMD` ([`Simd::from_env`]).
/// Every path computes the same values (tested against scalar references), so only
/// the speed differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Simd {
    /// AVX-512 F, BW, VBMI2 and VPOPCNTDQ (x86_64).
    Avx512,
    /// AVX2 (x86_64).
    Avx2,
    /// Plain Rust, vectorised by the compiler for the target's baseline (SSE2 on
    /// x86_64, NEON on aarch64).
    Portable,
}

/// The environment variable that forces a [`Simd`] path.
pub const SIMD_VAR: &str = "WORDLE_TREE_SIMD";

impl Simd {
    pub const ALL: [Simd; 3] = [Simd::Avx512, Simd::Avx2, Simd::Portable];

    /// The name `WORDLE_TREE_SIMD` takes.
    pub fn name(self) -> &'static str {
        match self {
            Simd::Avx512 => "avx512",
            Simd::Avx2 => "avx2",
            Simd::Portable => "portable",
        }
    }

    /// Whether this CPU runs the path.
    pub fn available(self) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            match self {
                Simd::Avx512 => {
                    has!("avx512f")
                        && has!("avx512bw")
                        && has!("avx512vbmi2")
                        && has!("avx512vpopcntdq")
                        && has!("avx2")
                }
                Simd::Avx2 => has!("avx2"),
                Simd::Portable => true,
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self == Simd::Portable
        }
    }

    /// The fastest path this CPU runs.
    pub fn best() -> Simd {
        Simd::ALL
            .into_iter()
            .find(|s| s.available())
            .unwrap_or(Simd::Portable)
    }

    /// The path `value` (of `WORDLE_TREE_SIMD`; unset or empty is `auto`) asks for,
    /// or a one-line error for an unknown name or a path this CPU lacks.
    pub fn parse(value: Option<&str>) -> Result<Simd, String> {
        let value = value.unwrap_or("auto").trim();
        let simd = match value.to_ascii_lowercase().as_str() {
            "" | "auto" => return Ok(Simd::best()),
            "avx512" => Simd::Avx512,
            "avx2" => Simd::Avx2,
            "portable" => Simd::Portable,
            _ => {
                return Err(format!(
                    "{SIMD_VAR}={value:?} is not a SIMD path: use auto, avx512, avx2 or portable"
                ))
            }
        };
        if !simd.available() {
            return Err(format!(
                "{SIMD_VAR}={value}: this CPU lacks the instructions of that path (it runs: {})",
                Simd::ALL
                    .iter()
                    .filter(|s| s.available())
                    .map(|s| s.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        Ok(simd)
    }

    /// The path the environment asks for ([`Simd::parse`] of `WORDLE_TREE_SIMD`).
    pub fn from_env() -> Result<Simd, String> {
        match std::env::var(SIMD_VAR) {
            Ok(v) => Simd::parse(Some(&v)),
            Err(std::env::VarError::NotPresent) => Simd::parse(None),
            Err(std::env::VarError::NotUnicode(_)) => Err(format!(
                "{SIMD_VAR} is not valid UTF-8: use auto, avx512, avx2 or portable"
            )),
        }
    }

    /// The process's path: [`Simd::from_env`], read once. The binary checks the
    /// variable first and exits with its error; a library user with a bad value
    /// gets a panic with the same message, never a silent fallback.
    pub fn current() -> Simd {
        static CURRENT: OnceLock<Simd> = OnceLock::new();
        *CURRENT.get_or_init(|| Simd::from_env().unwrap_or_else(|e| panic!("{e}")))
    }
}

/// Answers per block: one AVX2 register of `u8` lanes.
const LANES: usize = 32;

/// The answers as five columns of letters (`cols[i][a]` = letter `i` of answer `a`),
/// padded to a whole number of blocks with a byte that matches no letter.
struct Columns {
    cols: [Vec<u8>; 5],
}

impl Columns {
    fn new(answers: &[Word]) -> Columns {
        let padded = answers.len().div_ceil(LANES) * LANES;
        let mut cols = [(); 5].map(|_| Vec::with_capacity(padded));
        for a in answers {
            for (i, col) in cols.iter_mut().enumerate() {
                col.push(a.letter(i));
            }
        }
        for col in &mut cols {
            col.resize(padded, u8::MAX);
        }
        Columns { cols }
    }
}

/// What a row needs to know about its guess, in the form the inner loop uses.
struct GuessShape {
    letters: [u8; 5],
    /// `earlier[i][k]` when `k < i` and the guess has the same letter at `k` and `i`:
    /// the earlier positions that use up copies of letter `i` first.
    earlier: [[bool; 5]; 5],
}

impl GuessShape {
    fn new(guess: Word) -> GuessShape {
        let letters = [0, 1, 2, 3, 4].map(|i| guess.letter(i));
        let mut earlier = [[false; 5]; 5];
        for i in 0..5 {
            for k in 0..i {
                earlier[i][k] = letters[k] == letters[i];
            }
        }
        GuessShape { letters, earlier }
    }
}

/// The feedback of one guess against one block of answers. Every step is a loop over
/// the `LANES` lanes of fixed-size arrays, which the compiler turns into one vector
/// instruction each; the branches depend on the guess only. `REPEATS` selects the
/// general rule; `false` is valid only for guesses without a repeated letter (about
/// 2.5x fewer instructions).
#[inline(always)]
fn block<const REPEATS: bool>(shape: &GuessShape, ans: [&[u8; LANES]; 5]) -> [u8; LANES] {
    let g = shape.letters;
    let mut green = [[0u8; LANES]; 5];
    for i in 0..5 {
        for l in 0..LANES {
            green[i][l] = (ans[i][l] == g[i]) as u8;
        }
    }
    let mut value = [0u8; LANES];
    // Horner, position 4 first: value = sum colour_i * 3^i. Every partial sum stays
    // below 243, so u8 lanes never wrap.
    for i in (0..5).rev() {
        let mut colour = [0u8; LANES];
        if REPEATS {
            // Copies of the letter at answer positions that are not green.
            let mut unmatched = [0u8; LANES];
            for j in 0..5 {
                for l in 0..LANES {
                    unmatched[l] += ((ans[j][l] == g[i]) as u8) & (1 - green[j][l]);
                }
            }
            // Copies already taken by earlier non-green positions of the guess.
            let mut used = [0u8; LANES];
            for k in 0..i {
                if shape.earlier[i][k] {
                    for l in 0..LANES {
                        used[l] += 1 - green[k][l];
                    }
                }
            }
            for l in 0..LANES {
                let yellow = (1 - green[i][l]) & ((used[l] < unmatched[l]) as u8);
                colour[l] = 2 * green[i][l] + yellow;
            }
        } else {
            // Without repeats, a non-green letter is yellow iff the answer has it.
            for j in 0..5 {
                for l in 0..LANES {
                    colour[l] |= (ans[j][l] == g[i]) as u8;
                }
            }
            for l in 0..LANES {
                colour[l] += green[i][l];
            }
        }
        for l in 0..LANES {
            value[l] = value[l] + value[l] + value[l] + colour[l];
        }
    }
    value
}

/// Fills `row` with the feedback of one guess against every answer.
#[inline(always)]
fn fill_row_generic<const REPEATS: bool>(shape: &GuessShape, cols: &Columns, row: &mut [u8]) {
    for (b, out) in row.chunks_mut(LANES).enumerate() {
        let at = b * LANES;
        let ans = [0, 1, 2, 3, 4].map(|i| {
            <&[u8; LANES]>::try_from(&cols.cols[i][at..at + LANES]).expect("columns are padded")
        });
        let value = block::<REPEATS>(shape, ans);
        // A whole block is one fixed-size store; only the last block is partial
        // (a `memcpy` call per block cost about 1.5% of the build).
        match <&mut [u8; LANES]>::try_from(&mut *out) {
            Ok(whole) => *whole = value,
            Err(_) => out.copy_from_slice(&value[..out.len()]),
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn fill_row_avx2<const REPEATS: bool>(shape: &GuessShape, cols: &Columns, row: &mut [u8]) {
    fill_row_generic::<REPEATS>(shape, cols, row)
}

/// Fills `row` for `guess`, with the process's vector unit ([`Simd::current`]).
fn fill_row(guess: Word, cols: &Columns, row: &mut [u8]) {
    let shape = GuessShape::new(guess);
    let repeats = guess.has_repeats();
    #[cfg(target_arch = "x86_64")]
    if Simd::current() != Simd::Portable {
        // SAFETY: the AVX-512 and AVX2 paths are chosen only where the CPU has AVX2
        // (`Simd::available`).
        unsafe {
            if repeats {
                fill_row_avx2::<true>(&shape, cols, row)
            } else {
                fill_row_avx2::<false>(&shape, cols, row)
            }
        }
        return;
    }
    if repeats {
        fill_row_generic::<true>(&shape, cols, row)
    } else {
        fill_row_generic::<false>(&shape, cols, row)
    }
}

/// Rows per parallel task: enough work (~64 x 2315 cells) to amortise scheduling.
const ROWS_PER_TASK: usize = 64;

impl FeedbackTable {
    /// Builds the full table for `game` (parallel over guesses).
    pub fn build(game: &Game) -> FeedbackTable {
        let n = game.n_answers();
        let cols = Columns::new(&game.answers);
        let mut data = table_buffer(n * game.n_guesses());
        if n > 0 {
            data.par_chunks_mut(n * ROWS_PER_TASK)
                .zip(game.guesses.par_chunks(ROWS_PER_TASK))
                .for_each(|(rows, guesses)| {
                    for (row, &guess) in rows.chunks_mut(n).zip(guesses) {
                        fill_row(guess, &cols, row);
                    }
                });
        }
        debug_assert!(game.guesses.iter().take(64).enumerate().all(|(g, &w)| {
            game.answers
                .iter()
                .enumerate()
                .all(|(a, &ans)| data[g * n + a] == Feedback::compute(w, ans).0)
        }));
        FeedbackTable {
            n_answers: n,
            data,
            major: OnceLock::new(),
        }
    }

    #[inline]
    pub fn get(&self, guess: GuessId, answer: AnswerId) -> Feedback {
        Feedback(self.data[guess.index() * self.n_answers + answer.index()])
    }

    /// The feedback of `guess` against every answer, indexed by answer id.
    #[inline]
    pub fn row(&self, guess: GuessId) -> &[u8] {
        let start = guess.index() * self.n_answers;
        &self.data[start..start + self.n_answers]
    }

    pub fn n_answers(&self) -> usize {
        self.n_answers
    }

    /// The number of guesses (rows); 0 when there are no answers.
    pub fn n_guesses(&self) -> usize {
        self.data.len().checked_div(self.n_answers).unwrap_or(0)
    }

    /// The same feedback answer-major: `out[a * n_guesses + g]`, for scans that fix a
    /// few answers and walk guesses. Transposed in 16 x 16 tiles, each in registers
    /// (SSE2 on x86_64), parallel over bands of answers; the ragged edges are copied
    /// one byte at a time. Memory-bound: about 12 ms wall for 30 MB on 2 threads
    /// (`wordle-tree bench`, "solver setup"; the previous scalar loop took 27-39 ms,
    /// a quarter of `check --max-guesses 5`). Band shapes from 16 to 1168 answers
    /// measured the same.
    ///
    /// Every solver reads the one copy [`FeedbackTable::shared_answer_major`] keeps.
    pub fn answer_major(&self) -> Vec<u8> {
        let n_answers = self.n_answers;
        let n_guesses = self.n_guesses();
        let mut out = table_buffer(n_answers * n_guesses);
        if out.is_empty() {
            return out;
        }
        let data = &self.data[..];
        // Each task owns a range of answers (whole output rows). It walks guesses in
        // bands of 64, and within a band the answers 16 at a time: the 64 guess rows
        // are read as 64 sequential streams, and each output line (64 guesses) is
        // written whole before moving on.
        const GBAND: usize = 4 * TILE;
        const ANSWERS_PER_TASK: usize = 64;
        out.par_chunks_mut(n_guesses * ANSWERS_PER_TASK)
            .enumerate()
            .for_each(|(t, rows)| {
                let a_start = t * ANSWERS_PER_TASK;
                let answers = rows.len() / n_guesses;
                let whole_a = answers / TILE * TILE;
                let whole_g = n_guesses / TILE * TILE;
                for gb in (0..whole_g).step_by(GBAND) {
                    let g_end = (gb + GBAND).min(whole_g);
                    for a in (0..whole_a).step_by(TILE) {
                        let band = &mut rows[a * n_guesses..(a + TILE) * n_guesses];
                        for g0 in (gb..g_end).step_by(TILE) {
                            transpose_tile(data, n_answers, g0, a_start + a, band, n_guesses);
                        }
                    }
                }
                for i in 0..answers {
                    let from_g = if i < whole_a { whole_g } else { 0 };
                    for g in from_g..n_guesses {
                        rows[i * n_guesses + g] = data[g * n_answers + a_start + i];
                    }
                }
            });
        out
    }
}

impl FeedbackTable {
    /// The answer-major copy ([`FeedbackTable::answer_major`]), built on first use and
    /// then shared: every solver of this table holds the same read-only bytes (30 MB
    /// for the original lists, 168 MB for `wordle-all`), not a copy each.
    pub fn shared_answer_major(&self) -> Arc<Vec<u8>> {
        self.major
            .get_or_init(|| Arc::new(self.answer_major()))
            .clone()
    }
}

/// A zeroed buffer for a table, backed by 2 MiB pages where the kernel allows
/// (`madvise(MADV_HUGEPAGE)` before the first touch; Linux leaves transparent huge
/// pages to `madvise` by default). Scans read one byte from each of hundreds of rows
/// 12972 bytes apart, so with 4 KiB pages nearly every read misses the TLB; and a
/// fresh 30 MB is 7300 page faults against 15. Measured (`hyperfine`, `check
/// --opener salet --max-guesses 5`, before the feasibility shortcut): 114 -> 100 ms
/// wall, system time 36 -> 13 ms.
pub(crate) fn table_buffer(len: usize) -> Vec<u8> {
    let buf = vec![0u8; len];
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = (buf.as_ptr() as usize).next_multiple_of(HUGE);
        let end = (buf.as_ptr() as usize + len) / HUGE * HUGE;
        if end > start {
            // SAFETY: the range lies inside `buf`'s allocation; the advice changes no
            // contents, and failure (e.g. huge pages disabled) is harmless.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    buf
}

/// Side of a transposed tile (bytes per SSE2 register).
const TILE: usize = 16;

/// Copies the 16 x 16 tile of guesses `g0..g0 + 16` and answers `a0..a0 + 16` from
/// guess-major `data` into the answer-major `band` (rows `a0..` of the output).
///
/// In registers: tile row `r` (guess) sits in register `r`, byte `p` (answer). An
/// interleave of registers `x` and `x + h` (`unpacklo/hi_epi8`) shifts the byte index
/// up one bit, taking the register bit `h` as its new lowest bit, and moves the byte
/// index's old top bit into the register bit `h`. Four rounds with `h` = 8, 4, 2, 1
/// swap the two 4-bit indices: register = answer, byte = guess.
#[inline]
fn transpose_tile(
    data: &[u8],
    n_answers: usize,
    g0: usize,
    a0: usize,
    band: &mut [u8],
    n_guesses: usize,
) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of the x86_64 baseline.
        let mut r = [unsafe { _mm_setzero_si128() }; TILE];
        for (i, reg) in r.iter_mut().enumerate() {
            let start = (g0 + i) * n_answers + a0;
            let src = &data[start..start + TILE];
            // SAFETY: `src` holds 16 bytes; the load is unaligned.
            *reg = unsafe { _mm_loadu_si128(src.as_ptr() as *const __m128i) };
        }
        /// One interleave round, fully unrolled (`H` constant).
        #[inline(always)]
        fn round<const H: usize>(r: &[__m128i; TILE]) -> [__m128i; TILE] {
            let mut next = *r;
            for x in 0..TILE {
                if x & H == 0 {
                    // SAFETY: SSE2 is part of the x86_64 baseline.
                    unsafe {
                        next[x] = _mm_unpacklo_epi8(r[x], r[x + H]);
                        next[x + H] = _mm_unpackhi_epi8(r[x], r[x + H]);
                    }
                }
            }
            next
        }
        let r = round::<1>(&round::<2>(&round::<4>(&round::<8>(&r))));
        for (j, reg) in r.iter().enumerate() {
            let start = j * n_guesses + g0;
            let dst = &mut band[start..start + TILE];
            // SAFETY: `dst` holds 16 bytes; the store is unaligned.
            unsafe { _mm_storeu_si128(dst.as_mut_ptr() as *mut __m128i, *reg) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    for i in 0..TILE {
        for j in 0..TILE {
            band[j * n_guesses + g0 + i] = data[(g0 + i) * n_answers + a0 + j];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::feedback::reference_feedback;
    use crate::game::word::w;

    /// Every row kind (no repeats, a pair, a triple, two pairs) against answers full
    /// of repeats, on both the generic and the dispatched path.
    #[test]
    fn rows_match_the_reference_on_repeated_letters() {
        let words: Vec<Word> = [
            "aaabb", "bbaaa", "abbey", "kebab", "babes", "eerie", "there", "speed", "abide",
            "llama", "hello", "salet", "geese", "eeeee", "fazed", "pizza", "added", "duvet",
            "banal", "annal", "mamma", "sissy", "teeth", "error",
        ]
        .map(w)
        .to_vec();
        let cols = Columns::new(&words);
        for &guess in &words {
            let want: Vec<u8> = words
                .iter()
                .map(|&a| reference_feedback(guess, a).0)
                .collect();
            let mut row = vec![0u8; words.len()];
            fill_row(guess, &cols, &mut row);
            assert_eq!(row, want, "guess {guess}");
            let mut row = vec![0u8; words.len()];
            fill_row_generic::<true>(&GuessShape::new(guess), &cols, &mut row);
            assert_eq!(row, want, "guess {guess}, general rule");
        }
    }

    /// `WORDLE_TREE_SIMD`: `auto` (or unset, or empty) is the best path the CPU has;
    /// a named path the CPU has is taken as asked; an unknown name, or a path the CPU
    /// lacks, is a one-line error naming the variable.
    #[test]
    fn the_switch_parses_or_refuses() {
        let best = Simd::best();
        assert!(best.available() && Simd::Portable.available());
        for auto in [None, Some("auto"), Some(""), Some(" AUTO ")] {
            assert_eq!(Simd::parse(auto), Ok(best));
        }
        for simd in Simd::ALL {
            let got = Simd::parse(Some(simd.name()));
            match simd.available() {
                true => assert_eq!(got, Ok(simd)),
                false => assert!(got.unwrap_err().contains("lacks")),
            }
        }
        for bad in ["sse2", "avx", "avx-512", "neon", "1"] {
            let e = Simd::parse(Some(bad)).unwrap_err();
            assert!(
                e.contains(SIMD_VAR) && e.contains(bad) && !e.contains('\n'),
                "{e}"
            );
        }
    }

    /// The answer-major copy against the definition, on sizes with ragged edges in
    /// both directions (and smaller than one tile).
    #[test]
    fn answer_major_transposes() {
        for (n_answers, n_guesses) in [(2315, 12972), (37, 53), (16, 32), (5, 7), (1, 1)] {
            let data: Vec<u8> = (0..n_answers * n_guesses)
                .map(|k: usize| (k.wrapping_mul(2654435761) >> 7) as u8)
                .collect();
            let table = FeedbackTable {
                n_answers,
                data,
                major: OnceLock::new(),
            };
            let out = table.answer_major();
            for g in 0..n_guesses {
                for a in 0..n_answers {
                    assert_eq!(
                        out[a * n_guesses + g],
                        table.data[g * n_answers + a],
                        "{n_answers}x{n_guesses} g {g} a {a}"
                    );
                }
            }
        }
    }
}
