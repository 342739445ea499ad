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

use crate::game::word::Word;
use crate::game::AnswerId;

/// A guess's letters and which of them it holds once (a bit per position), computed
/// once per guess for [`LetterCaps::cap`].
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

/// Per position and letter, the colours the position can show on a state's
/// candidates: the low nibble when the guess holds the letter more than once, the
/// high nibble when it holds it once (see the module doc).
#[derive(Clone)]
pub(in crate::search) struct LetterCaps {
    colours: [[u8; 26]; 5],
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
        let mut colours = [[0u8; 26]; 5];
        for (i, row) in colours.iter_mut().enumerate() {
            for (x, c) in row.iter_mut().enumerate() {
                let bit = 1u32 << x;
                if at[i] == bit {
                    *c = 1 | 1 << 4; // every candidate has it here: green only
                    continue;
                }
                let green = (at[i] & bit != 0) as u8;
                let yellow = (present & bit != 0) as u8;
                let gray_once = (all & bit == 0) as u8;
                *c = (green + yellow + 1) | (green + yellow + gray_once) << 4;
            }
        }
        LetterCaps { colours }
    }

    /// The most buckets a guess of shape `s` makes on the state.
    #[inline]
    pub(in crate::search) fn cap(&self, s: Shape) -> usize {
        let mut cap = 1usize;
        for i in 0..5 {
            let c = self.colours[i][s.letters[i] as usize] >> (4 * (s.once >> i & 1));
            cap *= (c & 15) as usize;
        }
        cap
    }
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
}
