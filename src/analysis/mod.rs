//! One-level analyses and the heuristic players built on them (`rank`, `simulate`).
//!
//! A [`Score`] describes how one guess partitions a set of candidates: the largest
//! bucket, the expected number of candidates left, the entropy of the feedback, the
//! number of buckets, and a positional letter-frequency score. Scoring a guess is one
//! pass over the candidates counting into a 243-slot array (no allocation).
//! Heuristic players pick, at every node, the allowed guess that optimises one metric
//! (ties: a candidate first, then alphabetical). Because a player is a deterministic
//! function of the node, `simulate` builds its whole tree recursively instead of
//! replaying each answer: the work is one guess scan per node, not per answer.

pub mod metrics;
pub mod pair;
pub mod plot;

use crate::game::candidates::count_buckets;
use crate::game::feedback::FEEDBACKS;
use crate::game::hard::Revealed;
use crate::game::table::FeedbackTable;
use crate::game::{AnswerId, Game, GuessId};
use crate::tree::Depths;
use rayon::prelude::*;
use std::cmp::Ordering;

/// The one-level metrics.
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    /// Smallest largest bucket.
    Worst,
    /// Fewest expected candidates left.
    Expected,
    /// Most bits of information.
    Entropy,
    /// Most non-empty buckets.
    Buckets,
    /// Highest positional letter frequency.
    Frequency,
}

/// How one guess partitions a set of candidates.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct Score {
    #[serde(skip)]
    pub guess: GuessId,
    /// Size of the largest bucket.
    pub worst: u32,
    /// Sum of the squared bucket sizes (expected = this / n, kept exact for ties).
    #[serde(skip)]
    pub sum_squares: u64,
    /// Expected number of candidates left.
    pub expected: f64,
    /// Entropy of the feedback in bits.
    pub entropy: f64,
    /// Number of non-empty buckets.
    pub buckets: u32,
    /// Mean over candidates of (letters in the right place + distinct letters present).
    pub frequency: f64,
    /// True when the guess is itself a candidate.
    pub is_candidate: bool,
}

/// Letter statistics of a candidate set, for the frequency metric.
pub struct LetterStats {
    at: [[u32; 26]; 5],
    anywhere: [u32; 26],
    n: u32,
}

impl LetterStats {
    pub fn new(game: &Game, ids: &[AnswerId]) -> LetterStats {
        let mut s = LetterStats {
            at: [[0; 26]; 5],
            anywhere: [0; 26],
            n: ids.len() as u32,
        };
        for &a in ids {
            let w = game.answers[a.index()];
            for i in 0..5 {
                s.at[i][w.letter(i) as usize] += 1;
            }
            let mut m = w.letter_mask();
            while m != 0 {
                s.anywhere[m.trailing_zeros() as usize] += 1;
                m &= m - 1;
            }
        }
        s
    }

    /// Expected greens plus expected distinct letters present, for one guess.
    pub fn score(&self, guess: crate::game::word::Word) -> f64 {
        let greens: u32 = (0..5).map(|i| self.at[i][guess.letter(i) as usize]).sum();
        let mut m = guess.letter_mask();
        let mut present = 0;
        while m != 0 {
            present += self.anywhere[m.trailing_zeros() as usize];
            m &= m - 1;
        }
        (greens + present) as f64 / self.n.max(1) as f64
    }
}

/// Scores `guess` over the candidates `ids`, using `counts` as scratch (left zeroed).
pub fn score(
    game: &Game,
    table: &FeedbackTable,
    stats: &LetterStats,
    guess: GuessId,
    ids: &[AnswerId],
    counts: &mut [u32; FEEDBACKS],
) -> Score {
    let buckets = count_buckets(table, guess, ids, counts);
    let n = ids.len() as f64;
    let (mut worst, mut sum_squares, mut m_log_m) = (0u32, 0u64, 0f64);
    let mut add = |c: u32| {
        worst = worst.max(c);
        sum_squares += (c as u64) * (c as u64);
        m_log_m += c as f64 * (c as f64).log2();
    };
    if ids.len() < FEEDBACKS {
        // Fewer candidates than slots: reach each bucket through its answers instead
        // of sweeping all 243 slots (the players' deep nodes have a handful of
        // candidates; this took `metrics`' five normal-mode players from 7.3 to
        // about 3 CPU-s on the original lists).
        let row = table.row(guess);
        for &a in ids {
            let c = &mut counts[row[a.index()] as usize];
            if *c > 0 {
                add(*c);
                *c = 0;
            }
        }
    } else {
        for c in counts.iter_mut() {
            if *c > 0 {
                add(*c);
                *c = 0;
            }
        }
    }
    let is_candidate = guess
        .as_answer(game.n_answers())
        .is_some_and(|a| ids.binary_search(&a).is_ok());
    Score {
        guess,
        worst,
        sum_squares,
        expected: sum_squares as f64 / n,
        entropy: (n.log2() - m_log_m / n).max(0.0),
        buckets: buckets as u32,
        frequency: stats.score(game.guesses[guess.index()]),
        is_candidate,
    }
}

/// Compares two scores by `metric`, best first. Floats are compared after rounding
/// to 1e-9 so that equal partitions summed in another order still tie.
pub fn compare(metric: Metric, a: &Score, b: &Score) -> Ordering {
    let round = |x: f64| (x * 1e9).round() as i64;
    match metric {
        Metric::Worst => a
            .worst
            .cmp(&b.worst)
            .then(a.sum_squares.cmp(&b.sum_squares)),
        Metric::Expected => a.sum_squares.cmp(&b.sum_squares),
        Metric::Entropy => round(b.entropy).cmp(&round(a.entropy)),
        Metric::Buckets => b
            .buckets
            .cmp(&a.buckets)
            .then(a.sum_squares.cmp(&b.sum_squares)),
        Metric::Frequency => round(b.frequency).cmp(&round(a.frequency)),
    }
}

/// Scores every allowed guess over `ids` (in parallel) and sorts them best first by
/// `metric`, ties alphabetical.
pub fn rank(game: &Game, table: &FeedbackTable, ids: &[AnswerId], metric: Metric) -> Vec<Score> {
    let stats = LetterStats::new(game, ids);
    let mut scores: Vec<Score> = (0..game.n_guesses())
        .into_par_iter()
        .map(GuessId::new)
        .map_init(
            || [0u32; FEEDBACKS],
            |counts, g| score(game, table, &stats, g, ids, counts),
        )
        .collect();
    scores.par_sort_by(|a, b| {
        compare(metric, a, b)
            .then(game.guesses[a.guess.index()].cmp(&game.guesses[b.guess.index()]))
    });
    scores
}

/// The guess a heuristic player makes at a node: the allowed guess (in hard mode, one
/// that `revealed` allows) that is best by `metric`, among guesses that are candidates
/// or split the candidates (so play always progresses); ties prefer a candidate, then
/// alphabetical. The frequency player picks among candidates only, as its blog posts do.
pub fn choose(
    game: &Game,
    table: &FeedbackTable,
    metric: Metric,
    ids: &[AnswerId],
    revealed: Option<&Revealed>,
) -> GuessId {
    if ids.len() <= 2 {
        return ids[0].as_guess();
    }
    let stats = LetterStats::new(game, ids);
    let pool: Vec<GuessId> = if metric == Metric::Frequency {
        ids.iter().map(|a| a.as_guess()).collect()
    } else {
        (0..game.n_guesses()).map(GuessId::new).collect()
    };
    let better = |a: &Score, b: &Score| {
        compare(metric, a, b)
            .then(b.is_candidate.cmp(&a.is_candidate))
            .then(game.guesses[a.guess.index()].cmp(&game.guesses[b.guess.index()]))
    };
    pool.par_iter()
        .filter(|&&g| revealed.is_none_or(|r| r.allows(game.guesses[g.index()])))
        .map_init(
            || [0u32; FEEDBACKS],
            |counts, &g| score(game, table, &stats, g, ids, counts),
        )
        .filter(|s| s.is_candidate || s.buckets > 1)
        .min_by(|a, b| better(a, b))
        .map(|s| s.guess)
        .expect("a candidate is always allowed")
}

/// The outcome of playing every answer with one player.
#[derive(Clone, Debug)]
pub struct Simulation {
    /// Guesses used for each answer.
    pub depths: Depths,
}

impl Simulation {
    pub fn total(&self) -> u64 {
        self.depths.total()
    }
    pub fn average(&self) -> f64 {
        self.depths.average()
    }
    pub fn histogram(&self) -> Vec<usize> {
        self.depths.histogram()
    }
}

/// Plays every answer with the `metric` player from `opener` (or the player's own
/// first choice), in normal or hard mode.
pub fn simulate(
    game: &Game,
    table: &FeedbackTable,
    metric: Metric,
    opener: Option<GuessId>,
    hard: bool,
) -> Simulation {
    let ids: Vec<AnswerId> = game.all_answer_ids();
    let mut depths = vec![0u32; game.n_answers()];
    let revealed = hard.then(Revealed::default);
    let found = play(game, table, metric, &ids, 1, revealed, opener);
    for (a, d) in found {
        depths[a.index()] = d;
    }
    Simulation {
        depths: Depths(depths),
    }
}

fn play(
    game: &Game,
    table: &FeedbackTable,
    metric: Metric,
    ids: &[AnswerId],
    depth: u32,
    revealed: Option<Revealed>,
    forced: Option<GuessId>,
) -> Vec<(AnswerId, u32)> {
    let guess = forced.unwrap_or_else(|| choose(game, table, metric, ids, revealed.as_ref()));
    let buckets = crate::game::candidates::partition(table, guess, ids);
    buckets
        .into_par_iter()
        .flat_map_iter(|(f, bucket)| {
            if f.is_all_green() {
                vec![(bucket[0], depth)]
            } else {
                let next = revealed.map(|r| r.after(game.guesses[guess.index()], f));
                play(game, table, metric, &bucket, depth + 1, next, None)
            }
        })
        .collect()
}
