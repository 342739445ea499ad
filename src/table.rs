//! The feedback table: `feedback(guess, answer)` for every allowed guess and every
//! answer, built once and then only read.
//!
//! Layout: one row per guess (`data[g * n_answers + a]`), because every consumer
//! (partitioning, ranking) fixes a guess and walks answers. 12972 x 2315 is 30 MB.
//! Built in parallel over rows; guesses without repeated letters use a branch-light
//! formula over a structure-of-arrays copy of the answers that the compiler vectorises
//! (the general rule is needed only for guesses with a repeated letter).

use crate::feedback::Feedback;
use crate::game::{AnswerId, Game, GuessId};
use rayon::prelude::*;

pub struct FeedbackTable {
    n_answers: usize,
    data: Vec<u8>,
}

impl FeedbackTable {
    /// Builds the full table for `game` (parallel over guesses).
    pub fn build(game: &Game) -> FeedbackTable {
        let n = game.n_answers();
        let mut letters = [(); 5].map(|_| Vec::with_capacity(n));
        let mut masks = Vec::with_capacity(n);
        for a in &game.answers {
            for (i, col) in letters.iter_mut().enumerate() {
                col.push(a.letter(i));
            }
            masks.push(a.letter_mask());
        }
        let mut data = vec![0u8; n * game.n_guesses()];
        data.par_chunks_mut(n.max(1))
            .zip(game.guesses.par_iter())
            .for_each(|(row, &guess)| {
                if guess.has_repeats() {
                    for (cell, &answer) in row.iter_mut().zip(&game.answers) {
                        *cell = Feedback::compute(guess, answer).0;
                    }
                } else {
                    let g = [0, 1, 2, 3, 4].map(|i| guess.letter(i));
                    for (a, cell) in row.iter_mut().enumerate() {
                        let m = masks[a];
                        let mut v = 0u8;
                        let mut w = 1u8;
                        for i in 0..5 {
                            let green = (letters[i][a] == g[i]) as u8;
                            let present = ((m >> g[i]) & 1) as u8;
                            // green: 2w; else yellow iff the answer has the letter.
                            v += w * (present + green * (2 - present));
                            w *= 3;
                        }
                        *cell = v;
                    }
                }
            });
        FeedbackTable { n_answers: n, data }
    }

    #[inline]
    pub fn get(&self, guess: GuessId, answer: AnswerId) -> Feedback {
        Feedback(self.data[guess as usize * self.n_answers + answer as usize])
    }

    /// The feedback of `guess` against every answer, indexed by answer id.
    #[inline]
    pub fn row(&self, guess: GuessId) -> &[u8] {
        let start = guess as usize * self.n_answers;
        &self.data[start..start + self.n_answers]
    }

    pub fn n_answers(&self) -> usize {
        self.n_answers
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::ListSource;

    #[test]
    fn table_matches_compute_on_a_sample() {
        let game = Game::load(&ListSource::Named("wordle".into())).unwrap();
        let table = FeedbackTable::build(&game);
        for g in (0..game.n_guesses()).step_by(37) {
            for a in (0..game.n_answers()).step_by(11) {
                assert_eq!(
                    table.get(g as GuessId, a as AnswerId),
                    Feedback::compute(game.guesses[g], game.answers[a])
                );
            }
        }
    }
}
