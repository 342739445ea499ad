//! What a cutoff search proves about one opener ([`Outcome`], the type of the store,
//! with how a search proves one: [`Outcome::from_cost`]), what a sweep counts as it
//! goes ([`Tally`]), what the records of a sweep prove together ([`Standing`], and
//! the least value it proves: [`Verdict`]) and the cutoffs drawn from outcomes
//! ([`least`], [`least_plus_one`]).

use crate::game::word::Word;
use crate::game::{Game, GuessId};
use crate::search::bound::INFEASIBLE;
use crate::search::OpenerCost;

/// What a cutoff search proves about one opener (`openers`, the min-over sweep):
/// exact, at least a bound, or cannot finish. The type lives in the store (the opener
/// table reads it); how a search proves one is here.
pub use crate::store::opener_table::Outcome;

impl Outcome {
    /// The outcome a finished `Solver::opener_cost` proves: a value the solver's
    /// penalty for an unfinishable bucket reaches means no tree finishes in time (no
    /// finishable game's cost comes near it), never a cost.
    pub fn from_cost(cost: OpenerCost) -> Outcome {
        match cost {
            OpenerCost::Exact(v) | OpenerCost::AtLeast(v) if v >= INFEASIBLE as u64 => {
                Outcome::CannotFinish
            }
            OpenerCost::Exact(v) => Outcome::Exact(v),
            OpenerCost::AtLeast(v) => Outcome::AtLeast(v),
        }
    }

    /// True when it settles its opener under `cutoff` (`None`: no cutoff): an exact
    /// cost always does, a bound proved under a larger cutoff still dismisses.
    pub fn decides(&self, cutoff: Option<u64>) -> bool {
        match *self {
            Outcome::Exact(_) | Outcome::CannotFinish => true,
            Outcome::AtLeast(lb) => cutoff.is_some_and(|c| lb >= c),
        }
    }

    /// The inverse of [`Outcome::text`] (a result file's `result` field).
    pub(crate) fn parse(s: &str) -> Option<Outcome> {
        if s == "cannot-finish" {
            return Some(Outcome::CannotFinish);
        }
        let (kind, v) = s.split_once(' ')?;
        let v: u64 = v.trim().parse().ok()?;
        match kind {
            "exact" => Some(Outcome::Exact(v)),
            "at-least" => Some(Outcome::AtLeast(v)),
            _ => None,
        }
    }

    /// As stored in a result file's `result` field.
    pub fn text(&self) -> String {
        match self {
            Outcome::Exact(v) => format!("exact {v}"),
            Outcome::AtLeast(v) => format!("at-least {v}"),
            Outcome::CannotFinish => "cannot-finish".into(),
        }
    }
}

/// Running counts of a cutoff sweep, passed to its progress callback after every
/// opener.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tally {
    /// Openers settled (searched now or found in the directory) / to settle.
    pub done: usize,
    pub total: usize,
    pub exact: usize,
    pub dismissed: usize,
    /// Settled from a stored record.
    pub reused: usize,
    /// The least exact cost so far.
    pub best: Option<u64>,
    /// The cutoff now (`None`: none yet).
    pub cutoff: Option<u64>,
}

impl Tally {
    /// Counts one settled opener; `cutoff` is the cutoff now.
    pub fn add(&mut self, outcome: Outcome, reused: bool, cutoff: Option<u64>) {
        self.done += 1;
        self.reused += reused as usize;
        match outcome {
            Outcome::Exact(v) => {
                self.exact += 1;
                self.best = Some(self.best.map_or(v, |b| b.min(v)));
            }
            Outcome::AtLeast(_) | Outcome::CannotFinish => self.dismissed += 1,
        }
        self.cutoff = cutoff;
    }
}

/// The least of two optional cutoffs (`None`: none).
pub fn least(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The first cutoff of a sweep whose cutoff is the least exact value + 1: that of
/// the `stored` outcomes, or `seed` when lower.
pub fn least_plus_one(seed: Option<u64>, stored: impl Iterator<Item = Outcome>) -> Option<u64> {
    let best = stored
        .filter_map(|o| match o {
            Outcome::Exact(v) => Some(v),
            _ => None,
        })
        .min();
    least(seed, best.map(|b| b + 1))
}

/// What the records of a per-opener sweep prove over a set of openers, before the
/// job's own verdict: exact costs best first (ties alphabetical), dismissed openers
/// and their least bound, openers that cannot finish, and openers with no record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    pub exact: Vec<(u64, Word)>,
    pub dismissed: usize,
    pub least_bound: Option<u64>,
    pub cannot_finish: usize,
    pub missing: Vec<Word>,
}

impl Standing {
    /// From each opener's outcome (`None`: no record).
    pub fn new(
        game: &Game,
        openers: &[GuessId],
        outcome: impl Fn(GuessId) -> Option<Outcome>,
    ) -> Standing {
        let mut r = Standing::default();
        for &g in openers {
            let w = game.guesses[g.index()];
            match outcome(g) {
                Some(Outcome::Exact(v)) => r.exact.push((v, w)),
                Some(Outcome::AtLeast(lb)) => {
                    r.dismissed += 1;
                    r.least_bound = Some(r.least_bound.map_or(lb, |b| b.min(lb)));
                }
                Some(Outcome::CannotFinish) => r.cannot_finish += 1,
                None => r.missing.push(w),
            }
        }
        r.exact.sort();
        r
    }

    /// How many exact rows a table of `k` shows: `k`, extended to ties.
    pub fn shown(&self, k: usize) -> usize {
        let mut shown = k.min(self.exact.len());
        while shown > 0
            && shown < self.exact.len()
            && self.exact[shown].0 == self.exact[shown - 1].0
        {
            shown += 1;
        }
        shown
    }

    /// Past the first `shown` exact rows: how many more, and their least and
    /// greatest cost.
    pub fn beyond(&self, shown: usize) -> Option<(usize, u64, u64)> {
        let rest = self.exact.get(shown..).filter(|r| !r.is_empty())?;
        Some((rest.len(), rest[0].0, rest[rest.len() - 1].0))
    }

    /// What it proves about the least value over its openers (see [`Verdict`]); the
    /// openers attaining it are named by `attaining`, given the exact rows at the
    /// least value (only called when there is one).
    pub fn verdict<T>(&self, attaining: impl FnOnce(&[(u64, Word)]) -> Vec<T>) -> Verdict<T> {
        if !self.missing.is_empty() {
            return Verdict::Incomplete;
        }
        let Some(&(m, _)) = self.exact.first() else {
            return match self.least_bound {
                Some(lb) => Verdict::AtLeast(lb),
                None => Verdict::NoneFinishes,
            };
        };
        match self.least_bound {
            Some(lb) if lb < m => Verdict::AtLeast(lb),
            lb => {
                let tied = self.exact.iter().take_while(|e| e.0 == m).count();
                let by = attaining(&self.exact[..tied]);
                if lb == Some(m) {
                    Verdict::BestSome { value: m, by }
                } else {
                    Verdict::Best { value: m, by }
                }
            }
        }
    }

    /// The first `shown` exact rows with their ranks (tied rows share one).
    pub fn ranked(&self, shown: usize) -> impl Iterator<Item = (usize, u64, Word)> + '_ {
        let mut rank = 0;
        self.exact[..shown]
            .iter()
            .enumerate()
            .map(move |(i, &(v, w))| {
                if i == 0 || v != self.exact[i - 1].0 {
                    rank = i + 1;
                }
                (rank, v, w)
            })
    }
}

/// What the records of a per-opener sweep prove about the least value over its
/// openers (the min-over sweep's count, the best pair's total), the openers (or what
/// they stand for) that attain it named as `T`. The least exact value `m` is proved
/// least when every dismissed opener's bound is at least `m`, and the exact rows at
/// `m` are all that attain it when every bound is above `m` (always so with the
/// default cutoff, the least exact value + 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict<T> {
    /// The least value over every opener, and everything that attains it.
    Best { value: u64, by: Vec<T> },
    /// The least value, but some opener dismissed with a bound equal to it might tie
    /// (a seeded cutoff at the least): those listed are only some of them.
    BestSome { value: u64, by: Vec<T> },
    /// No exact value below every bound: every opener is at least this (or cannot
    /// finish).
    AtLeast(u64),
    /// No opener can finish every answer within the game's limit.
    NoneFinishes,
    /// Some openers have no result yet.
    Incomplete,
}
