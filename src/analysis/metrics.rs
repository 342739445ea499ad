//! The one-level metrics against the truth: how well each `rank` metric predicts the
//! exact totals of an opener table (`wordle-tree metrics`).
//!
//! Owns the rank statistics (mid-ranks, Spearman's rho, Kendall's tau-b, top-K
//! overlap) and the [`Report`] that applies them to a game, its opener table and the
//! heuristic players of `simulate`.
//!
//! Conventions (the report states them too):
//! - Every ranking is "smaller is better": a metric is turned into a badness key
//!   ([`key`]: the largest bucket, the sum of squared bucket sizes, minus the entropy,
//!   minus the buckets, minus the frequency; floats rounded to 1e-9 as `rank` compares
//!   them), the truth into the exact total. A positive correlation means the metric
//!   agrees with the truth. The correlations use the metric's own value, ties kept
//!   as ties (no tie-break); the top-K lists and favourites use `rank`'s order (its
//!   tie-breaks, then alphabetical), as a user of `rank` sees them.
//! - Ties: Spearman is Pearson's correlation of mid-ranks (tied values share the mean
//!   of their ranks); Kendall is tau-b, `(C - D) / sqrt((n0 - n1) (n0 - n2))`.
//! - Openers that cannot find every answer within the table's maximum guesses rank
//!   after every exact opener, all tied with each other ("all" figures); the "exact
//!   only" figures leave them out. Openers a partial table lacks are left out of
//!   everything but the favourite's line; a partial table's figures are never
//!   called complete.
//! - The true top K is every opener whose exact rank is at most K (an opener tied
//!   across the boundary counts as inside); the overlap is how many of the metric's
//!   first K openers are in it.
//!
//! Cost: scoring every opener once (one pass over the answers each, as `rank`) plus
//! one sort per metric; Kendall is Knight's O(n log n) merge-sort count (a brute
//! force over the 110 million pairs of the NYT list would take seconds per metric);
//! the players' simulations dominate (about a second each on the NYT lists).

use super::{compare, rank, Metric, Score};
use crate::game::hard::Revealed;
use crate::game::table::FeedbackTable;
use crate::game::word::Word;
use crate::game::{Game, GuessId};
use crate::store::opener_table::{Entry, OpenerTable};
use std::cmp::Ordering;

/// The metrics in the order the report lists them.
pub const METRICS: [Metric; 5] = [
    Metric::Worst,
    Metric::Expected,
    Metric::Frequency,
    Metric::Buckets,
    Metric::Entropy,
];

/// The K of the top-K overlaps.
pub const TOP_K: [usize; 3] = [10, 100, 1000];

/// How many of each metric's first openers are searched for the best exact one.
pub const BEST_OF: usize = 10;

/// The name of a metric as the CLI spells it.
pub fn metric_name(m: Metric) -> &'static str {
    match m {
        Metric::Worst => "worst",
        Metric::Expected => "expected",
        Metric::Entropy => "entropy",
        Metric::Buckets => "buckets",
        Metric::Frequency => "frequency",
    }
}

/// What the metric measures, for tables and plot axes.
pub fn metric_label(m: Metric) -> &'static str {
    match m {
        Metric::Worst => "largest bucket",
        Metric::Expected => "expected candidates left",
        Metric::Entropy => "entropy (bits)",
        Metric::Buckets => "buckets",
        Metric::Frequency => "letter frequency",
    }
}

/// The metric's value of a score as `rank` prints it.
pub fn value(m: Metric, s: &Score) -> f64 {
    match m {
        Metric::Worst => s.worst as f64,
        Metric::Expected => s.expected,
        Metric::Entropy => s.entropy,
        Metric::Buckets => s.buckets as f64,
        Metric::Frequency => s.frequency,
    }
}

/// The badness key of a score by a metric: smaller is better, equal keys are ties (no
/// tie-break). Floats are rounded to 1e-9, as [`compare`] does.
pub fn key(m: Metric, s: &Score) -> i64 {
    let round = |x: f64| (x * 1e9).round() as i64;
    match m {
        Metric::Worst => s.worst as i64,
        Metric::Expected => s.sum_squares as i64,
        Metric::Entropy => -round(s.entropy),
        Metric::Buckets => -(s.buckets as i64),
        Metric::Frequency => -round(s.frequency),
    }
}

/// 1-based ranks, ties sharing the mean of the ranks they span.
pub fn mid_ranks<K: Ord>(keys: &[K]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by(|&a, &b| keys[a].cmp(&keys[b]));
    let mut ranks = vec![0.0; keys.len()];
    let mut i = 0;
    while i < order.len() {
        let j = i + order[i..]
            .iter()
            .take_while(|&&k| keys[k] == keys[order[i]])
            .count();
        // Ranks i+1 ..= j, mean (i + 1 + j) / 2.
        let mid = (i + 1 + j) as f64 / 2.0;
        for &k in &order[i..j] {
            ranks[k] = mid;
        }
        i = j;
    }
    ranks
}

/// Pearson's correlation of two equally long samples; `None` when either is constant
/// or there are fewer than two.
pub fn pearson(x: &[f64], y: &[f64]) -> Option<f64> {
    assert_eq!(x.len(), y.len());
    let n = x.len() as f64;
    if x.len() < 2 {
        return None;
    }
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx) * (a - mx);
        syy += (b - my) * (b - my);
    }
    (sxx > 0.0 && syy > 0.0).then(|| sxy / (sxx * syy).sqrt())
}

/// Spearman's rho with ties: Pearson's correlation of the mid-ranks.
pub fn spearman<A: Ord, B: Ord>(x: &[A], y: &[B]) -> Option<f64> {
    pearson(&mid_ranks(x), &mid_ranks(y))
}

/// Pairs among groups of equal keys in a sorted run: sum of t (t - 1) / 2.
fn tied_pairs<T: PartialEq>(sorted: &[T]) -> u64 {
    let mut pairs = 0u64;
    let mut i = 0;
    while i < sorted.len() {
        let t = sorted[i..].iter().take_while(|v| **v == sorted[i]).count() as u64;
        pairs += t * (t - 1) / 2;
        i += t as usize;
    }
    pairs
}

/// Sorts `v` and returns how many pairs it had out of order (strictly greater first).
fn count_inversions<T: Ord + Copy>(v: &mut [T], scratch: &mut Vec<T>) -> u64 {
    if v.len() < 2 {
        return 0;
    }
    let mid = v.len() / 2;
    let mut swaps =
        count_inversions(&mut v[..mid], scratch) + count_inversions(&mut v[mid..], scratch);
    scratch.clear();
    let (mut i, mut j) = (0, mid);
    while i < mid && j < v.len() {
        if v[j] < v[i] {
            // v[j] comes before every element left in the first half.
            swaps += (mid - i) as u64;
            scratch.push(v[j]);
            j += 1;
        } else {
            scratch.push(v[i]);
            i += 1;
        }
    }
    scratch.extend_from_slice(&v[i..mid]);
    scratch.extend_from_slice(&v[j..]);
    v.copy_from_slice(scratch);
    swaps
}

/// Kendall's tau-b (ties in either sample handled), by Knight's algorithm: sort the
/// pairs by (x, y), count x-ties and joint ties, then count the inversions of y by a
/// merge sort (each is a discordant pair) and the y-ties. `None` when either sample
/// is constant or there are fewer than two.
pub fn kendall_tau_b<A: Ord + Copy, B: Ord + Copy>(x: &[A], y: &[B]) -> Option<f64> {
    assert_eq!(x.len(), y.len());
    let n = x.len() as u64;
    if n < 2 {
        return None;
    }
    let mut pairs: Vec<(A, B)> = x.iter().copied().zip(y.iter().copied()).collect();
    pairs.sort_unstable();
    let n0 = n * (n - 1) / 2;
    let xs: Vec<A> = pairs.iter().map(|p| p.0).collect();
    let n1 = tied_pairs(&xs);
    let n3 = tied_pairs(&pairs);
    let mut ys: Vec<B> = pairs.iter().map(|p| p.1).collect();
    let mut scratch = Vec::with_capacity(ys.len());
    let discordant = count_inversions(&mut ys, &mut scratch);
    let n2 = tied_pairs(&ys);
    if n1 == n0 || n2 == n0 {
        return None;
    }
    // Concordant - discordant = (n0 - n1 - n2 + n3 - D) - D.
    let s = n0 as i128 - n1 as i128 - n2 as i128 + n3 as i128 - 2 * discordant as i128;
    Some(s as f64 / (((n0 - n1) as f64) * ((n0 - n2) as f64)).sqrt())
}

/// What the table says about one opener, for the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Truth {
    /// The exact total, its rank (one more than the openers with a smaller total) and
    /// how many openers share the total.
    Exact {
        total: u64,
        rank: usize,
        tied: usize,
    },
    /// No tree from this opener finds every answer within the table's maximum guesses.
    CannotFinish,
    /// A partial table has no row for it.
    Unsolved,
}

impl Truth {
    fn of(table: &OpenerTable, w: Word) -> Truth {
        match table.get(w) {
            Some(row) => match (row.entry, row.rank) {
                (Entry::Exact { total, .. }, Some(rank)) => Truth::Exact {
                    total,
                    rank,
                    tied: row.tied,
                },
                _ => Truth::CannotFinish,
            },
            None => Truth::Unsolved,
        }
    }

    /// The key the correlations use: the total, after every total for cannot-finish.
    fn key(self) -> Option<u64> {
        match self {
            Truth::Exact { total, .. } => Some(total),
            Truth::CannotFinish => Some(u64::MAX),
            Truth::Unsolved => None,
        }
    }

    pub fn total(self) -> Option<u64> {
        match self {
            Truth::Exact { total, .. } => Some(total),
            _ => None,
        }
    }
}

/// One opener a metric picks, with what the table says of it.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct Pick {
    #[serde(serialize_with = "as_text")]
    pub opener: Word,
    /// Its place in the metric's order (1 = favourite).
    pub metric_rank: usize,
    pub truth: Truth,
    /// Guesses over all answers more than the best opener's optimal tree needs.
    pub over_optimum: Option<u64>,
}

fn as_text<S: serde::Serializer>(w: &Word, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&w.to_string())
}

/// One metric against the truth.
#[derive(Clone, Debug, serde::Serialize)]
pub struct MetricRow {
    #[serde(serialize_with = "metric_as_text")]
    pub metric: Metric,
    /// Over every opener the table covers, cannot-finish ranked last (tied).
    pub spearman: Option<f64>,
    pub kendall: Option<f64>,
    /// Over the openers with an exact total only.
    pub spearman_exact: Option<f64>,
    pub kendall_exact: Option<f64>,
    /// (K, how many of the metric's first K are in the true top K), for [`TOP_K`].
    pub overlap: Vec<(usize, usize)>,
    /// The metric's first opener.
    pub favourite: Pick,
    /// The best exact opener among the metric's first [`BEST_OF`].
    pub best_of_top: Option<Pick>,
}

fn metric_as_text<S: serde::Serializer>(m: &Metric, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(metric_name(*m))
}

/// One heuristic player of `simulate`, from its own opener.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PlayerRow {
    #[serde(serialize_with = "metric_as_text")]
    pub metric: Metric,
    #[serde(serialize_with = "as_text")]
    pub opener: Word,
    /// The player's total guesses over all answers.
    pub total: u64,
    /// Answers the player needs more than the table's maximum guesses for.
    pub over_limit: usize,
    /// Answers found with exactly d guesses, by d.
    pub histogram: Vec<usize>,
    /// What the table says of the player's opener.
    pub opener_truth: Truth,
    /// `total` minus the exact total of the player's opener (when it has one).
    pub over_own_opener: Option<i64>,
    /// `total` minus the best opener's exact total.
    pub over_optimum: i64,
}

/// The whole comparison for one game, mode and opener table.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Report {
    pub list: String,
    pub hard: bool,
    pub max_guesses: u8,
    pub answers: usize,
    /// Openers the game allows.
    pub openers: usize,
    /// Openers the table covers; `complete` when that is all of them.
    pub solved: usize,
    pub complete: bool,
    /// Openers with an exact total, and those that cannot finish.
    pub exact: usize,
    pub cannot_finish: usize,
    /// The least exact total and the openers that reach it.
    pub optimum: u64,
    #[serde(serialize_with = "words_as_text")]
    pub best_openers: Vec<Word>,
    pub metrics: Vec<MetricRow>,
    pub players: Vec<PlayerRow>,
    /// Every opener's score (in guess-id order) and truth, for the plots.
    #[serde(skip)]
    pub scores: Vec<Score>,
    #[serde(skip)]
    pub truths: Vec<Truth>,
    /// Every allowed guess, in guess-id order.
    #[serde(skip)]
    pub words: Vec<Word>,
}

fn words_as_text<S: serde::Serializer>(w: &[Word], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(w.iter().map(|w| w.to_string()))
}

impl Report {
    /// Scores every opener, compares each metric with `table` and, with `players`,
    /// simulates every heuristic player (in `table`'s mode). `table` must fit the game
    /// and hold at least one exact total.
    pub fn build(
        game: &Game,
        feedback: &FeedbackTable,
        table: &OpenerTable,
        players: bool,
    ) -> Option<Report> {
        let ids = game.all_answer_ids();
        let mut scores = rank(game, feedback, &ids, Metric::Entropy);
        scores.sort_by_key(|s| s.guess);
        let truths: Vec<Truth> = scores
            .iter()
            .map(|s| Truth::of(table, game.guesses[s.guess.index()]))
            .collect();
        let optimum = truths.iter().filter_map(|t| t.total()).min()?;
        let best_openers = (0..game.n_guesses())
            .filter(|&g| truths[g].total() == Some(optimum))
            .map(|g| game.guesses[g])
            .collect();
        let pick = |g: GuessId, metric_rank: usize| {
            let truth = truths[g.index()];
            Pick {
                opener: game.guesses[g.index()],
                metric_rank,
                truth,
                over_optimum: truth.total().map(|t| t - optimum),
            }
        };
        let covered: Vec<usize> = (0..truths.len())
            .filter(|&g| truths[g].key().is_some())
            .collect();
        let exact: Vec<usize> = covered
            .iter()
            .copied()
            .filter(|&g| truths[g].total().is_some())
            .collect();
        let metrics = METRICS
            .iter()
            .map(|&m| {
                let correlate = |set: &[usize]| {
                    let x: Vec<i64> = set.iter().map(|&g| key(m, &scores[g])).collect();
                    let y: Vec<u64> = set.iter().map(|&g| truths[g].key().unwrap()).collect();
                    (spearman(&x, &y), kendall_tau_b(&x, &y))
                };
                let (spearman, kendall) = correlate(&covered);
                let (spearman_exact, kendall_exact) = correlate(&exact);
                // `rank`'s order of the covered openers.
                let mut order: Vec<usize> = covered.clone();
                order.sort_by(|&a, &b| by_rank(game, m, &scores[a], &scores[b]));
                let overlap = TOP_K
                    .iter()
                    .map(|&k| {
                        let inside = order
                            .iter()
                            .take(k)
                            .filter(
                                |&&g| matches!(truths[g], Truth::Exact { rank, .. } if rank <= k),
                            )
                            .count();
                        (k, inside)
                    })
                    .collect();
                // The favourite over every opener, covered or not.
                let first = (0..scores.len())
                    .min_by(|&a, &b| by_rank(game, m, &scores[a], &scores[b]))
                    .expect("a game has guesses");
                let best_of_top = order
                    .iter()
                    .take(BEST_OF)
                    .enumerate()
                    .filter_map(|(i, &g)| truths[g].total().map(|t| (t, i, g)))
                    .min()
                    .map(|(_, i, g)| pick(GuessId::new(g), i + 1));
                MetricRow {
                    metric: m,
                    spearman,
                    kendall,
                    spearman_exact,
                    kendall_exact,
                    overlap,
                    favourite: pick(GuessId::new(first), 1),
                    best_of_top,
                }
            })
            .collect();
        let players = if players {
            METRICS
                .iter()
                .map(|&m| player(game, feedback, table, m, optimum))
                .collect()
        } else {
            Vec::new()
        };
        Some(Report {
            list: game.list_tag(),
            hard: table.hard,
            max_guesses: table.max_guesses,
            answers: game.n_answers(),
            openers: table.openers,
            solved: table.solved(),
            complete: table.is_complete(),
            exact: exact.len(),
            cannot_finish: covered.len() - exact.len(),
            optimum,
            best_openers,
            metrics,
            players,
            scores,
            truths,
            words: game.guesses.clone(),
        })
    }
}

/// `rank`'s order: the metric's comparison, then alphabetical.
fn by_rank(game: &Game, m: Metric, a: &Score, b: &Score) -> Ordering {
    compare(m, a, b).then(game.guesses[a.guess.index()].cmp(&game.guesses[b.guess.index()]))
}

/// Simulates one heuristic player from its own opener.
fn player(
    game: &Game,
    feedback: &FeedbackTable,
    table: &OpenerTable,
    m: Metric,
    optimum: u64,
) -> PlayerRow {
    let ids = game.all_answer_ids();
    let revealed = table.hard.then(Revealed::default);
    let opener = super::choose(game, feedback, m, &ids, revealed.as_ref());
    let sim = super::simulate(game, feedback, m, Some(opener), table.hard);
    let word = game.guesses[opener.index()];
    let opener_truth = Truth::of(table, word);
    let total = sim.total();
    PlayerRow {
        metric: m,
        opener: word,
        total,
        over_limit: sim
            .depths
            .iter()
            .filter(|&&d| d == 0 || d > table.max_guesses as u32)
            .count(),
        histogram: sim.histogram(),
        opener_truth,
        over_own_opener: opener_truth.total().map(|t| total as i64 - t as i64),
        over_optimum: total as i64 - optimum as i64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The random-sample checks against the definitions are in tests/it/metrics.rs.

    #[test]
    fn known_values() {
        let x = [1, 2, 3, 4, 5];
        assert_eq!(spearman(&x, &x), Some(1.0));
        assert_eq!(kendall_tau_b(&x, &x), Some(1.0));
        let r = [5, 4, 3, 2, 1];
        assert_eq!(spearman(&x, &r), Some(-1.0));
        assert_eq!(kendall_tau_b(&x, &r), Some(-1.0));
        // One tie in y: C = 8, D = 1, n0 = 10, ties 0 and 1: 7 / sqrt(10 * 9).
        let y = [1, 3, 2, 4, 4];
        let want = 7.0 / 90f64.sqrt();
        assert!((kendall_tau_b(&x, &y).unwrap() - want).abs() < 1e-12);
        assert_eq!(kendall_tau_b(&x, &[7, 7, 7, 7, 7]), None);
        assert_eq!(spearman(&[1], &[2]), None);
    }
}
