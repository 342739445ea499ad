//! Letter caps: the most buckets a guess can make on a state, from the letters the
//! state's candidates hold alone ([`LetterCaps`]), so a scan can drop a guess without
//! reading its feedbacks.
//!
//! **The cap.** A feedback is the tuple of its five positions' colours, so a guess
//! makes at most the product, over its positions, of the colours that position can
//! show on the candidates. For the guess's letter `x` at position `i`:
//! * green needs some candidate with `x` at `i`;
//! * yellow needs some candidate holding `x`;
//! * gray is impossible when the guess holds `x` once and every candidate holds it
//!   (that copy is then matched, green or yellow);
//! * when every candidate has `x` at `i`, only green.
//!
//! So a position shows one, two or three colours, and a guess whose letters are
//! absent from the candidates, or sit where no candidate has them, is capped far
//! below the 243 feedbacks: on the candidates left after a gray-heavy feedback
//! (NYT 2023 `buzzy`'s all-gray bucket and its second guesses' buckets) about half of
//! the guesses a pre-scan reads are capped under what the best one already makes.
//!
//! **Use.** A guess whose cap is at most `n - max_repeats` has at least `max_repeats`
//! repeats, so the scan would drop it anyway (`bound.rs`, early drop): `guesses.rs`
//! leaves such lanes out of a block's wanted lanes (the kernel stops sooner), and
//! out of the windows of a pre-scan, which then read 32 lanes that can still count.
//! The guesses dropped and the bounds are the same as without the caps (the tests
//! below hold the cap against the real count; `tests/it/solver.rs` holds the search
//! against brute force).
//!
//! **A word of caps at a time.** A scan asks for the caps of a table's lanes 64 at a
//! time, as it reaches them ([`LetterCaps::capped`]). Each table by cap keeps its
//! lanes' shapes as keys, position by position ([`LaneKeys`]), and the caps keep a
//! code per position and key that adds up (0, 1 or 6 for one, two or three colours:
//! the sum `a + 6 b` names the cap `2^a 3^b`). A lane is then five byte loads, five
//! additions and a bit test, with no multiplication and no lookup by guess id; on the
//! AVX2 and AVX-512 paths a word with more than [`SPARSE_LANES`] lanes takes its 64
//! caps in byte shuffles (four 16-byte tables per position). Before, each lane read
//! its guess's shape by id and multiplied five colour counts: on the forced AVX2 path
//! that loop was about 17% of the NYT 2023 normal sample (78% of `scan_guesses`),
//! where the tables by cap hand every guess down and most lanes are capped. Measured
//! (AMD EPYC, Zen 4, forced avx2, one thread, two runs side by side, the same states
//! and results): the 2023 normal sample of 100 openers 3.276 -> 2.712 CPU-s per
//! opener, the 2023 hard one 3.311 -> 3.175, NYT normal 0.863 -> 0.759; the portable
//! path 6.694 -> 6.319 on the 2023 normal sample (docs/guide/performance.md, session
//! 53).

use crate::game::table::Simd;
use crate::game::word::Word;
use crate::game::AnswerId;

/// Bytes of one word of [`LaneKeys`]: 64 lanes at each of five positions.
pub(in crate::search) const KEY_WORD: usize = 5 * 64;

/// The products `2^a 3^b` of five colour counts, at `a + 6 b` (`a` counts of two and
/// `b` of three, `a + b <= 5`; the other sums never occur and hold 0).
const PRODUCTS: [u16; 36] = {
    let mut p = [0u16; 36];
    let mut b = 0;
    while b <= 5 {
        let mut a = 0;
        while a + b <= 5 {
            p[a + 6 * b] = (1 << a) * 3u16.pow(b as u32);
            a += 1;
        }
        b += 1;
    }
    p
};

/// The largest cap (`3^5` buckets).
const CAP_MAX: usize = 243;

/// By `beaten` (up to [`CAP_MAX`]), bit `s`: a guess whose codes sum to `s` is capped
/// at or below `beaten` ([`PRODUCTS`]).
const CAPPED_SUMS: [u64; CAP_MAX + 1] = {
    let mut t = [0u64; CAP_MAX + 1];
    let mut beaten = 0;
    while beaten <= CAP_MAX {
        let mut s = 0;
        while s < PRODUCTS.len() {
            if PRODUCTS[s] != 0 && PRODUCTS[s] as usize <= beaten {
                t[beaten] |= 1 << s;
            }
            s += 1;
        }
        beaten += 1;
    }
    t
};

/// Lanes in a word up to which [`LetterCaps::capped`] takes them one at a time on
/// the AVX2 path (the vector form costs the same for any number of lanes). Measured
/// on hard mode's sparse words (farm-bench, 2 pairs, NYT 2023 hard `openers --exact`
/// of `sense musks venge howks krubi spiny`, forced avx2, one thread, the same
/// states; AMD EPYC Zen 4): against 8, the vector form for every word (0) 1.032x the
/// CPU time, from 24 lanes 1.020x.
#[cfg(target_arch = "x86_64")]
const SPARSE_LANES: u32 = 8;

/// A guess's letters and which of them it holds once (a bit per position), computed
/// once per guess for the letter caps ([`LaneKeys`]).
#[derive(Clone, Copy, Debug, Default)]
pub(in crate::search) struct Shape {
    letters: [u8; 5],
    once: u8,
}

impl Shape {
    /// The shape of every word of `words`, in order.
    pub(in crate::search) fn all(words: &[Word]) -> Vec<Shape> {
        words.iter().map(|&w| Shape::of(w)).collect()
    }

    /// Position `i`'s key into [`LetterCaps`]'s codes: the letter, plus 32 when the
    /// word holds it once.
    fn key(self, i: usize) -> u8 {
        self.letters[i] | (self.once >> i & 1) << 5
    }

    fn of(w: Word) -> Shape {
        let letters = [0, 1, 2, 3, 4].map(|i| w.letter(i));
        let mut once = 0u8;
        for i in 0..5 {
            let copies = letters.iter().filter(|&&x| x == letters[i]).count();
            once |= ((copies == 1) as u8) << i;
        }
        Shape { letters, once }
    }
}

/// The shapes of a compact table's lanes (`kernels::Local`), laid out for
/// [`LetterCaps::capped`]: word `w` (lanes `64 w ..`) is [`KEY_WORD`] bytes, 64
/// keys ([`Shape::key`]) per position, so a word's caps take five 64-byte loads and
/// no lookup by guess id. Padding lanes past the last guess hold key 0.
#[derive(Clone, Default)]
pub(in crate::search) struct LaneKeys {
    bytes: Vec<u8>,
}

impl LaneKeys {
    /// The keys of `shapes`, a lane each, in order.
    pub(in crate::search) fn fill(&mut self, shapes: impl ExactSizeIterator<Item = Shape>) {
        let words = shapes.len().div_ceil(64);
        self.bytes.clear();
        self.bytes.resize(words * KEY_WORD, 0);
        for (j, s) in shapes.enumerate() {
            let word = &mut self.bytes[j / 64 * KEY_WORD..][..KEY_WORD];
            for i in 0..5 {
                word[64 * i + j % 64] = s.key(i);
            }
        }
    }

    /// None: no lanes (a table built without its keys).
    pub(in crate::search) fn clear(&mut self) {
        self.bytes.clear();
    }

    /// Word `w`'s keys, if the lanes reach it.
    #[inline]
    pub(in crate::search) fn word(&self, w: usize) -> Option<&[u8; KEY_WORD]> {
        self.bytes
            .get(w * KEY_WORD..)?
            .get(..KEY_WORD)?
            .try_into()
            .ok()
    }

    /// Heap bytes held.
    pub(in crate::search) fn bytes(&self) -> usize {
        self.bytes.capacity()
    }
}

/// Per position and key (a letter, and whether the guess holds it once), the
/// colours the position can show on a state's candidates (see the module doc).
#[derive(Clone)]
pub(in crate::search) struct LetterCaps {
    /// By key ([`Shape::key`]), how many colours the position can show, as a code
    /// that adds up: 0, 1 and 6 for one, two and three colours, so the five codes of a
    /// guess sum to `a + 6 b` for a cap of `2^a 3^b` ([`PRODUCTS`]).
    codes: [[u8; 64]; 5],
}

impl LetterCaps {
    /// The caps of the state whose candidates are `ids` (answers' words `answers`).
    pub(in crate::search) fn of(answers: &[Word], ids: &[AnswerId]) -> LetterCaps {
        let (mut present, mut all, mut at) = (0u32, u32::MAX, [0u32; 5]);
        for a in ids {
            let w = answers[a.index()];
            let m = w.letter_mask();
            present |= m;
            all &= m;
            for (i, x) in at.iter_mut().enumerate() {
                *x |= 1 << w.letter(i);
            }
        }
        // By a position's count of colours (1 to 3), its code.
        const CODE: [u8; 4] = [0, 0, 1, 6];
        let mut codes = [[0u8; 64]; 5];
        for (i, code) in codes.iter_mut().enumerate() {
            for x in 0..26 {
                let bit = 1u32 << x;
                // Held more than once, then once: with every candidate holding it
                // here, green only.
                let (more, once) = if at[i] == bit {
                    (1, 1)
                } else {
                    let green = (at[i] & bit != 0) as usize;
                    let yellow = (present & bit != 0) as usize;
                    let gray_once = (all & bit == 0) as usize;
                    (green + yellow + 1, green + yellow + gray_once)
                };
                code[x] = CODE[more];
                code[x | 32] = CODE[once];
            }
        }
        LetterCaps { codes }
    }

    /// The lanes of `lanes` (a word of a table's lanes, `keys` their
    /// [`LaneKeys::word`]) whose cap is at most `beaten`: a bit each. The cap of a
    /// lane is [`PRODUCTS`] at the sum of its five codes; on the AVX2 and AVX-512 paths (`simd`) a word
    /// with more than [`SPARSE_LANES`] lanes takes its 64 caps in byte shuffles.
    #[inline]
    pub(in crate::search) fn capped(
        &self,
        keys: &[u8; KEY_WORD],
        lanes: u64,
        beaten: usize,
        simd: Simd,
    ) -> u64 {
        let sums = CAPPED_SUMS[beaten.min(CAP_MAX)];
        #[cfg(target_arch = "x86_64")]
        if simd != Simd::Portable && lanes.count_ones() > SPARSE_LANES {
            // SAFETY: the AVX2 and AVX-512 paths are taken only where the CPU has
            // AVX2 (`Simd::available`; a solver's path is checked when it is made).
            return lanes & unsafe { capped_avx2(&self.codes, keys, sums) };
        }
        let _ = simd;
        let mut capped = 0u64;
        let mut left = lanes;
        while left != 0 {
            let k = left.trailing_zeros() as usize;
            left &= left - 1;
            let mut s = 0u32;
            for (i, code) in self.codes.iter().enumerate() {
                s += code[keys[64 * i + k] as usize & 63] as u32;
            }
            capped |= (sums >> s & 1) << k;
        }
        capped
    }

    /// The most buckets a guess of shape `s` makes on the state (the definition
    /// [`LetterCaps::capped`] computes 64 lanes at a time).
    #[cfg(test)]
    fn cap(&self, s: Shape) -> usize {
        let sum: usize = (0..5)
            .map(|i| self.codes[i][s.key(i) as usize] as usize)
            .sum();
        PRODUCTS[sum] as usize
    }
}

/// [`LetterCaps::capped`] for all 64 lanes of a word: each position's key looks up
/// its code in four 16-byte tables (a byte shuffle each, picked by the key's bits 4
/// and 5), the codes add up, and the sum looks up its bit of `sums` the same way.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn capped_avx2(codes: &[[u8; 64]; 5], keys: &[u8; KEY_WORD], sums: u64) -> u64 {
    use std::arch::x86_64::*;
    // Byte `s` of the 48: 0xff where bit `s` of `sums` is set.
    let mut bits = [0u8; 48];
    for (s, b) in bits.iter_mut().enumerate() {
        *b = 0u8.wrapping_sub((sums >> s & 1) as u8);
    }
    let table = |t: &[u8]| {
        // SAFETY: `t` holds 16 bytes.
        unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(t.as_ptr().cast())) }
    };
    // A 64-entry lookup: bit 4 of each key picks between tables 0 and 1 (2 and 3),
    // bit 5 between those pairs (`blendv` reads a byte's top bit).
    let look = |t: [__m256i; 4], k: __m256i| {
        let bit4 = _mm256_slli_epi16::<3>(k);
        let bit5 = _mm256_slli_epi16::<2>(k);
        let low = _mm256_blendv_epi8(
            _mm256_shuffle_epi8(t[0], k),
            _mm256_shuffle_epi8(t[1], k),
            bit4,
        );
        let high = _mm256_blendv_epi8(
            _mm256_shuffle_epi8(t[2], k),
            _mm256_shuffle_epi8(t[3], k),
            bit4,
        );
        _mm256_blendv_epi8(low, high, bit5)
    };
    let tables: [[__m256i; 4]; 5] =
        std::array::from_fn(|i| std::array::from_fn(|t| table(&codes[i][16 * t..])));
    let zero = _mm256_setzero_si256();
    let bit_tables = [
        table(&bits[..16]),
        table(&bits[16..32]),
        table(&bits[32..]),
        zero,
    ];
    let mut capped = 0u64;
    for half in 0..2 {
        let mut sum = zero;
        for (i, &t) in tables.iter().enumerate() {
            // SAFETY: `keys` holds 64 bytes at `64 * i` (`KEY_WORD`).
            let k = unsafe { _mm256_loadu_si256(keys[64 * i + 32 * half..].as_ptr().cast()) };
            sum = _mm256_add_epi8(sum, look(t, k));
        }
        // Sums are at most 35: the fourth table is never picked.
        let m = _mm256_movemask_epi8(look(bit_tables, sum)) as u32;
        capped |= (m as u64) << (32 * half);
    }
    capped
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::candidates::partition;
    use crate::game::feedback::Feedback;
    use crate::game::table::FeedbackTable;
    use crate::game::{Game, GuessId, ListSource};

    /// The cap is at least the buckets every guess makes, on the candidates left after
    /// random first guesses and feedbacks of the NYT 2023 lists (gray-heavy buckets
    /// most of all, where the cap bites), and it is below 243 for many guesses there
    /// (so a test with a cap of 243 everywhere would not pass as well).
    #[test]
    fn the_cap_is_at_least_the_buckets() {
        let game = Game::load(&ListSource::Named("nyt2023".into())).unwrap();
        let table = FeedbackTable::build(&game);
        let shapes = Shape::all(&game.guesses);
        let all = game.all_answer_ids();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let (mut checked, mut tight, mut below) = (0usize, 0usize, 0usize);
        for _ in 0..12 {
            let g1 = GuessId::new(next() as usize % game.n_guesses());
            let buckets = partition(&table, g1, &all);
            for (f, ids) in buckets {
                if f == Feedback::ALL_GREEN || ids.len() < 2 || next() % 3 != 0 {
                    continue;
                }
                let caps = LetterCaps::of(&game.answers, &ids);
                for _ in 0..300 {
                    let g = GuessId::new(next() as usize % game.n_guesses());
                    let row = table.row(g);
                    let mut seen = [false; 256];
                    for a in &ids {
                        seen[row[a.index()] as usize] = true;
                    }
                    let made = seen.iter().filter(|&&s| s).count();
                    let cap = caps.cap(shapes[g.index()]);
                    assert!(
                        cap >= made,
                        "{} after {}:{f:?}: cap {cap}, {made} buckets",
                        game.guesses[g.index()],
                        game.guesses[g1.index()]
                    );
                    checked += 1;
                    tight += (cap == made) as usize;
                    below += (cap < 243) as usize;
                }
            }
        }
        assert!(checked > 3000, "{checked} guesses checked");
        assert!(below * 2 > checked, "{below} of {checked} capped under 243");
        assert!(tight > 0, "no cap met");
    }

    /// `capped` on every SIMD path the CPU has, with few lanes and many (the one-lane
    /// loop and the vector form), takes exactly the lanes whose cap is at most
    /// `beaten`, for every `beaten` a cap can meet, on states of the NYT 2023 lists.
    #[test]
    fn capped_words_match_the_caps() {
        let game = Game::load(&ListSource::Named("nyt2023".into())).unwrap();
        let shapes = Shape::all(&game.guesses);
        let paths: Vec<Simd> = Simd::ALL.into_iter().filter(|s| s.available()).collect();
        for s in Simd::ALL.iter().filter(|s| !s.available()) {
            eprintln!("capped_words_match_the_caps: skipped the {} path", s.name());
        }
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut below = 0usize;
        for round in 0..40 {
            // Candidates sharing letters (a gray-heavy bucket) or drawn at random.
            let n = 2 + next() as usize % 300;
            let ids: Vec<AnswerId> = (0..n)
                .map(|_| AnswerId::new(next() as usize % game.n_answers()))
                .filter(|a| round % 2 == 0 || game.answers[a.index()].letter_mask() & 0x11 == 0)
                .collect();
            if ids.is_empty() {
                continue;
            }
            let caps = LetterCaps::of(&game.answers, &ids);
            let lanes: Vec<Shape> = (0..64 * 5)
                .map(|_| shapes[next() as usize % shapes.len()])
                .collect();
            let mut keys = LaneKeys::default();
            keys.fill(lanes.iter().copied());
            assert!(keys.word(5).is_none());
            for w in 0..5 {
                let word = keys.word(w).expect("five words");
                for beaten in [
                    0, 1, 2, 3, 4, 6, 8, 9, 12, 18, 27, 36, 48, 81, 100, 162, 242, 243, 999,
                ] {
                    for mask in [
                        u64::MAX,
                        next(),
                        next() & next() & next(),
                        1 << (next() % 64),
                    ] {
                        let want: u64 = (0..64)
                            .filter(|&k| {
                                mask >> k & 1 == 1 && caps.cap(lanes[64 * w + k]) <= beaten
                            })
                            .map(|k| 1u64 << k)
                            .sum();
                        below += want.count_ones() as usize;
                        for &simd in &paths {
                            assert_eq!(
                                caps.capped(word, mask, beaten, simd),
                                want,
                                "{simd:?}, round {round}, word {w}, beaten {beaten}"
                            );
                        }
                    }
                }
            }
        }
        assert!(below > 10_000, "{below} lanes capped");
    }
}
