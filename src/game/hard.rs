//! Hard mode: what the history has revealed, and which guesses it still allows.
//!
//! The game's rule (docs/SPEC.md): every green letter must stay in its place, and every
//! green or yellow letter must appear in later guesses at least as many times as it
//! was revealed; gray letters may be reused. [`Revealed`] holds exactly that: the
//! fixed letter per position and the least count per letter. It only ever tightens
//! along a history, and every candidate answer is always allowed (an answer that
//! gave the feedback satisfies what it revealed). It is part of the exact solver's
//! memo key in hard mode, since two histories with the same candidates but different
//! revealed letters allow different guesses.

use crate::game::feedback::Feedback;
use crate::game::word::Word;

/// What a hard-mode history has revealed. `Default` is the empty history.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Revealed {
    /// `letter + 1` fixed at each position, or 0.
    greens: [u8; 5],
    /// The least number of copies each letter must have in later guesses.
    min_count: [u8; 26],
}

impl Revealed {
    /// True when `guess` obeys everything revealed so far.
    #[inline]
    pub fn allows(&self, guess: Word) -> bool {
        for i in 0..5 {
            if self.greens[i] != 0 && self.greens[i] != guess.letter(i) + 1 {
                return false;
            }
        }
        let mut counts = [0u8; 26];
        for i in 0..5 {
            counts[guess.letter(i) as usize] += 1;
        }
        self.min_count.iter().zip(&counts).all(|(m, c)| c >= m)
    }

    /// How many positions have a green letter fixed.
    #[inline]
    pub fn greens(&self) -> usize {
        self.greens.iter().filter(|&&g| g != 0).count()
    }

    /// The letters every later guess must hold at positions that are not green, and
    /// how many such positions they fill at least: each letter's least count beyond
    /// the copies fixed green (a guess holds exactly those copies at the green
    /// positions, so the rest sit elsewhere). A bit per letter (bit 0: `a`), and the
    /// sum of those counts.
    #[inline]
    pub fn off_green_demand(&self) -> (u32, u32) {
        let mut fixed = [0u8; 26];
        for &g in &self.greens {
            if g != 0 {
                fixed[g as usize - 1] += 1;
            }
        }
        let (mut mask, mut slots) = (0u32, 0u32);
        for (l, (&m, &f)) in self.min_count.iter().zip(&fixed).enumerate() {
            let extra = m.saturating_sub(f) as u32;
            mask |= ((extra > 0) as u32) << l;
            slots += extra;
        }
        (mask, slots)
    }

    /// The positions with a green letter fixed, a bit each (bit `i` for position `i`).
    /// Every guess this allows shows green there on every answer consistent with the
    /// history (both have the letter in place), which the scan kernels use to skip
    /// the feedbacks no such pair can show.
    #[inline]
    pub fn green_positions(&self) -> u8 {
        let mut bits = 0u8;
        for (i, &g) in self.greens.iter().enumerate() {
            bits |= ((g != 0) as u8) << i;
        }
        bits
    }

    /// What is revealed after also playing `guess` and seeing `feedback`.
    pub fn after(&self, guess: Word, feedback: Feedback) -> Revealed {
        let mut next = *self;
        let (green, shown) = feedback.masks();
        let letters: [u8; 5] = std::array::from_fn(|i| guess.letter(i));
        // Without branches on the colours (they vary from call to call): each letter's
        // least count is raised to its copies shown (green or yellow), counted at each
        // of its positions, shown or not. Measured alone on random feedbacks: 19 ns a
        // call against 30 for a count per letter of the alphabet.
        for (i, &l) in letters.iter().enumerate() {
            let mut copies = 0u8;
            for (j, &m) in letters.iter().enumerate() {
                copies += ((shown >> j & 1 == 1) & (m == l)) as u8;
            }
            if green >> i & 1 == 1 {
                next.greens[i] = l + 1;
            }
            let m = &mut next.min_count[l as usize];
            *m = (*m).max(copies);
        }
        next
    }

    /// True when everything `self` reveals, `other` reveals too: each green of `self`
    /// is a green of `other`, and each least count of `self` is at most `other`'s.
    /// Then every guess `other` allows, `self` allows, and this stays so after any
    /// guess and feedback ([`Revealed::after`] only adds greens and raises counts),
    /// so a set of candidates costs no more under `self` than under `other`.
    pub fn is_implied_by(&self, other: &Revealed) -> bool {
        (0..5).all(|i| self.greens[i] == 0 || self.greens[i] == other.greens[i])
            && self
                .min_count
                .iter()
                .zip(&other.min_count)
                .all(|(a, b)| a <= b)
    }

    /// A 64-bit summary of the facts revealed, monotone under implication: when
    /// `self.is_implied_by(other)`, every bit of `self.facts()` is set in
    /// `other.facts()`. Bits 0..26: the letters known to be present (a least count of
    /// one or more, which `other` then has too); bits 26..64: each green (position,
    /// letter), folded onto 38 bits (a green of `self` is a green of `other`). A
    /// necessary test for [`Revealed::is_implied_by`] that needs no memory access.
    #[inline]
    pub fn facts(&self) -> u64 {
        let mut f = 0u64;
        for (l, &m) in self.min_count.iter().enumerate() {
            f |= ((m != 0) as u64) << l;
        }
        for (i, &g) in self.greens.iter().enumerate() {
            if g != 0 {
                f |= 1 << (26 + (i * 26 + g as usize - 1) % 38);
            }
        }
        f
    }

    /// A compact, exact encoding (for memo keys): 5 x 5 bits of greens, then 26 x 3
    /// bits of least counts (a count is at most 5).
    pub fn key(&self) -> u128 {
        let mut k = 0u128;
        for &g in &self.greens {
            k = k << 5 | g as u128;
        }
        for &m in &self.min_count {
            k = k << 3 | m as u128;
        }
        k
    }

    /// Explains why `guess` is not allowed, for error messages.
    pub fn violation(&self, guess: Word) -> Option<String> {
        for i in 0..5 {
            if self.greens[i] != 0 && self.greens[i] != guess.letter(i) + 1 {
                let l = (b'a' + self.greens[i] - 1) as char;
                return Some(format!("position {} must be '{l}'", i + 1));
            }
        }
        for (l, &m) in self.min_count.iter().enumerate() {
            let have = (0..5).filter(|&i| guess.letter(i) as usize == l).count() as u8;
            if have < m {
                let l = (b'a' + l as u8) as char;
                return Some(format!("must contain '{l}' at least {m} time(s)"));
            }
        }
        None
    }
}

/// The class of `guess` among hard mode's guesses at a state whose candidates hold
/// the letters `present` (bit `l` for letter `l`): the guess with every letter absent
/// from all candidates replaced by a wildcard. Two guesses of one class are the same
/// move at this state and at every state below it: a letter no candidate holds is gray
/// in every feedback, never colours another position, and reveals nothing
/// ([`Revealed::after`] records greens and yellows only), so the two give the same
/// feedback to every candidate and the same history after it; and no history below
/// can require such a letter (a revealed letter is in every candidate) or fix a green
/// where one of them has it (a green is a letter every candidate holds there), so the
/// two are allowed alike there too. Hard mode's search hands one guess per class to a
/// state's children (`search/scan/classify.rs`). A value below `27^5`.
#[inline]
pub fn class_of(guess: Word, present: u32) -> u32 {
    (0..5).fold(0, |k, i| {
        let l = guess.letter(i) as u32;
        k * 27 + if present >> l & 1 == 1 { l } else { 26 }
    })
}

/// A word's letters as masks: bit `l` of `at_least[k]` is set when letter `l` occurs
/// at least `k + 1` times. Precomputed per guess so that [`Demand::allows`] is a few
/// mask operations instead of counting letters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LetterSig {
    at_least: [u32; 5],
    letters: [u8; 5],
}

impl LetterSig {
    pub fn of(word: Word) -> LetterSig {
        let mut counts = [0u8; 26];
        let mut sig = LetterSig::default();
        for i in 0..5 {
            let l = word.letter(i);
            sig.at_least[counts[l as usize] as usize] |= 1 << l;
            counts[l as usize] += 1;
            sig.letters[i] = l + 1;
        }
        sig
    }
}

/// What a [`Revealed`] demands of the next guess, in the form [`LetterSig`] is
/// checked against: computed once per state, then applied to every guess.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Demand {
    at_least: [u32; 5],
    greens: [u8; 5],
}

impl Demand {
    /// What this demands beyond `base` (every guess `base` allows that this one's
    /// rest allows, this allows too): the letter counts and greens `base` lacks.
    pub fn beyond(&self, base: &Demand) -> Demand {
        let mut d = *self;
        for k in 0..5 {
            d.at_least[k] &= !base.at_least[k];
        }
        for i in 0..5 {
            if base.greens[i] == d.greens[i] {
                d.greens[i] = 0;
            }
        }
        d
    }

    /// Same answer as [`Revealed::allows`] for the word `sig` was made from.
    #[inline]
    pub fn allows(&self, sig: &LetterSig) -> bool {
        (0..5).all(|k| self.at_least[k] & !sig.at_least[k] == 0)
            && (0..5).all(|i| self.greens[i] == 0 || self.greens[i] == sig.letters[i])
    }
}

impl Revealed {
    /// What this demands of the next guess, for fast checks of many guesses.
    pub fn demand(&self) -> Demand {
        let mut d = Demand {
            greens: self.greens,
            ..Demand::default()
        };
        for (l, &m) in self.min_count.iter().enumerate() {
            for k in 0..m.min(5) as usize {
                d.at_least[k] |= 1 << l;
            }
        }
        d
    }
}

/// The guesses as bitsets by letter, so that the guesses a [`Demand`] allows come
/// from a few bitset intersections instead of one check per guess: bit `g` of
/// `at_least[k * 26 + l]` is set when guess `g` holds letter `l` at least `k + 1`
/// times, bit `g` of `at[i * 26 + l]` when it holds `l` at position `i`. About 0.5 MB
/// for 14855 guesses.
#[derive(Clone, Default)]
pub struct DemandSets {
    words: usize,
    at_least: Vec<Vec<u64>>,
    at: Vec<Vec<u64>>,
}

impl DemandSets {
    pub fn new(guesses: &[Word]) -> DemandSets {
        let mut sets = DemandSets::default();
        sets.rebuild(guesses.iter().copied());
        sets
    }

    /// Makes these the sets of `guesses` (bit `j` for the `j`-th), keeping the
    /// allocations: a bit is set per letter held and per position, not one test per
    /// letter and guess.
    pub fn rebuild(&mut self, guesses: impl ExactSizeIterator<Item = Word>) {
        let words = guesses.len().div_ceil(64);
        self.words = words;
        for sets in [&mut self.at_least, &mut self.at] {
            sets.resize_with(5 * 26, Vec::new);
            for set in sets.iter_mut() {
                set.clear();
                set.resize(words, 0);
            }
        }
        for (g, word) in guesses.enumerate() {
            let sig = LetterSig::of(word);
            let bit = 1u64 << (g % 64);
            for k in 0..5 {
                let mut held = sig.at_least[k];
                while held != 0 {
                    let l = held.trailing_zeros() as usize;
                    held &= held - 1;
                    self.at_least[k * 26 + l][g / 64] |= bit;
                }
            }
            for i in 0..5 {
                self.at[i * 26 + word.letter(i) as usize][g / 64] |= bit;
            }
        }
    }

    /// Heap bytes held.
    pub fn bytes(&self) -> usize {
        let sets = self.at_least.iter().chain(&self.at);
        sets.map(|s| s.capacity() * 8).sum::<usize>()
            + (self.at_least.capacity() + self.at.capacity()) * std::mem::size_of::<Vec<u64>>()
    }

    /// Word `w` of the bitset of the guesses `demand` allows ([`DemandSets::narrow`]
    /// for one word: as many ANDs as `demand` has letters and greens).
    #[inline]
    pub fn allowed_word(&self, demand: &Demand, w: usize) -> u64 {
        let mut word = u64::MAX;
        for k in 0..5 {
            let mut need = demand.at_least[k];
            while need != 0 {
                let l = need.trailing_zeros() as usize;
                need &= need - 1;
                word &= self.at_least[k * 26 + l][w];
            }
        }
        for i in 0..5 {
            if demand.greens[i] != 0 {
                word &= self.at[i * 26 + demand.greens[i] as usize - 1][w];
            }
        }
        word
    }

    /// Narrows `bits` (a bitset over the guesses) to the guesses `demand` allows, and
    /// returns how many are left.
    pub fn narrow(&self, demand: &Demand, bits: &mut [u64]) -> usize {
        debug_assert_eq!(bits.len(), self.words);
        for k in 0..5 {
            let mut need = demand.at_least[k];
            while need != 0 {
                let l = need.trailing_zeros() as usize;
                need &= need - 1;
                for (b, s) in bits.iter_mut().zip(&self.at_least[k * 26 + l]) {
                    *b &= s;
                }
            }
        }
        for i in 0..5 {
            if demand.greens[i] != 0 {
                let set = &self.at[i * 26 + demand.greens[i] as usize - 1];
                for (b, s) in bits.iter_mut().zip(set) {
                    *b &= s;
                }
            }
        }
        bits.iter().map(|b| b.count_ones() as usize).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::word::w;

    /// `after` against its definition, for every feedback to guesses with and
    /// without repeated letters, from histories that already reveal some letters.
    #[test]
    fn after_matches_its_definition() {
        fn slow(r: &Revealed, guess: Word, feedback: Feedback) -> Revealed {
            let mut next = *r;
            let mut shown = [0u8; 26];
            for i in 0..5 {
                let c = feedback.colour(i);
                if c == 2 {
                    next.greens[i] = guess.letter(i) + 1;
                }
                if c > 0 {
                    shown[guess.letter(i) as usize] += 1;
                }
            }
            for (m, s) in next.min_count.iter_mut().zip(shown) {
                *m = (*m).max(s);
            }
            next
        }
        let starts = [
            Revealed::default(),
            Revealed::default().after(w("salet"), Feedback::parse("GYBBB").unwrap()),
            Revealed::default().after(w("eerie"), Feedback::parse("YBBBG").unwrap()),
        ];
        for r in &starts {
            for guess in ["salet", "eerie", "mamma", "sassy", "crwth"] {
                for f in 0..crate::game::feedback::FEEDBACKS as u8 {
                    let f = Feedback(f);
                    assert_eq!(r.after(w(guess), f), slow(r, w(guess), f), "{guess} {f:?}");
                }
            }
        }
    }

    #[test]
    fn greens_stay_and_yellows_are_used() {
        let r = Revealed::default().after(w("salet"), Feedback::parse("GYBBB").unwrap());
        assert!(r.allows(w("sauna")));
        assert!(!r.allows(w("fauna")), "green s must stay");
        assert!(!r.allows(w("sloop")), "yellow a must be used");
        assert!(r.allows(w("salsa")), "gray letters may be reused");
        assert!(r.violation(w("sloop")).unwrap().contains("'a'"));
    }

    #[test]
    fn demand_sets_agree_with_allows() {
        let words: Vec<Word> = [
            "salet", "eerie", "geese", "mamma", "tenor", "sauna", "salsa", "llama", "ahead",
            "emcee", "sloop", "fauna", "sissy", "esses", "trace", "crate",
        ]
        .iter()
        .map(|s| w(s))
        .collect();
        let sets = DemandSets::new(&words);
        for &guess in &words {
            for &answer in &words {
                let feedback = Feedback::compute(guess, answer);
                let r = Revealed::default().after(guess, feedback);
                for &second in &words {
                    let r2 = r.after(second, Feedback::compute(second, answer));
                    for rev in [r, r2] {
                        let mut bits = vec![u64::MAX >> (64 - words.len())];
                        let left = sets.narrow(&rev.demand(), &mut bits);
                        for (g, &word) in words.iter().enumerate() {
                            assert_eq!(bits[0] >> g & 1 == 1, rev.allows(word), "{rev:?} {word}");
                        }
                        assert_eq!(left, words.iter().filter(|&&x| rev.allows(x)).count());
                    }
                    // One word at a time, past what the first history demands: the
                    // same guesses among those the first allows.
                    let beyond = r2.demand().beyond(&r.demand());
                    let word = sets.allowed_word(&beyond, 0);
                    for (g, &x) in words.iter().enumerate() {
                        if r.allows(x) {
                            assert_eq!(word >> g & 1 == 1, r2.allows(x), "{r2:?} {x}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn demand_agrees_with_allows() {
        let words = [
            "salet", "eerie", "geese", "mamma", "tenor", "sauna", "salsa", "llama", "ahead",
            "emcee",
        ]
        .map(w);
        for &guess in &words {
            for &answer in &words {
                let r = Revealed::default().after(guess, Feedback::compute(guess, answer));
                let r2 = r.after(words[3], Feedback::compute(words[3], answer));
                for rv in [r, r2] {
                    for &next in &words {
                        assert_eq!(
                            rv.demand().allows(&LetterSig::of(next)),
                            rv.allows(next),
                            "{guess} {answer} {next}"
                        );
                    }
                }
            }
        }
    }

    /// `is_implied_by` against what it promises, over every pair of histories of one
    /// or two guesses of a small list: when `a` is implied by `b`, every word `b`
    /// allows `a` allows, and so after every further guess and feedback; `b` always
    /// implies what it grew from, and equal histories imply each other.
    #[test]
    fn implied_reveals_allow_more() {
        let words = [
            "salet", "eerie", "geese", "mamma", "tenor", "sauna", "salsa", "llama", "ahead",
            "emcee", "sissy", "trace",
        ]
        .map(w);
        let mut reveals = vec![Revealed::default()];
        for &answer in &words[..6] {
            for &g1 in &words {
                let r = Revealed::default().after(g1, Feedback::compute(g1, answer));
                assert!(Revealed::default().is_implied_by(&r));
                reveals.push(r);
                for &g2 in &words[..4] {
                    let r2 = r.after(g2, Feedback::compute(g2, answer));
                    assert!(r.is_implied_by(&r2) && r2.is_implied_by(&r2));
                    reveals.push(r2);
                }
            }
        }
        let (mut implied, mut told_apart) = (0, 0);
        for a in &reveals {
            for b in &reveals {
                let covered = a.facts() & !b.facts() == 0;
                if !a.is_implied_by(b) {
                    told_apart += !covered as usize;
                    continue;
                }
                assert!(covered, "facts are monotone: {a:?} {b:?}");
                implied += 1;
                for &next in &words {
                    assert!(!b.allows(next) || a.allows(next), "{a:?} {b:?} {next}");
                    for &answer in &words[..4] {
                        let f = Feedback::compute(next, answer);
                        assert!(a.after(next, f).is_implied_by(&b.after(next, f)));
                    }
                }
            }
        }
        // Not every pair: unrelated histories imply neither way.
        assert!(implied < reveals.len() * reveals.len() / 2, "{implied}");
        // The facts test rejects most of the pairs that do not imply.
        let not_implied = reveals.len() * reveals.len() - implied;
        assert!(
            told_apart * 2 > not_implied,
            "{told_apart} of {not_implied}"
        );
    }

    #[test]
    fn repeated_yellows_need_as_many_copies() {
        let r = Revealed::default().after(w("eerie"), Feedback::parse("YYBBB").unwrap());
        assert!(r.allows(w("geese")));
        assert!(!r.allows(w("tenor")));
    }
}
