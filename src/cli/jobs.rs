//! The one scaffold of the job commands (`openers`, `check --opener any` with or
//! without `--min-over`, `solve --results`, `check --opener W --results`), over
//! `wordle_tree::jobs::driver`: the opener list of `--openers FILE`, the progress bar
//! of a cutoff sweep, the report after a run (openers searched and reused, the spread
//! of CPU seconds, peak memory), the interruption line (exit 130, one wording for
//! every job), and the units run shared by the two unit-wise proofs: shard line,
//! progress line and time estimate, the run (a shard done with its own units takes
//! over other shards' unstarted units), the rescan, and the shard's verdict. Also the
//! one resolution of `--shard auto` ([`shard_of`]) for every sharded command.
//!
//! Lower in the CLI than every job command: it imports none of them, so they import
//! it and not each other.

use super::bench::peak_memory_mib;
use super::Ctx;
use anyhow::{bail, Context, Result};
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Instant;
use wordle_tree::game::echo::count;
use wordle_tree::game::table::FeedbackTable;
use wordle_tree::game::word::{Word, WordList};
use wordle_tree::game::{Game, GuessId};
use wordle_tree::jobs::driver::{self, Place, Tally};
use wordle_tree::jobs::proof::{self, Goal, Plan, Scan, Status, Verdict};
use wordle_tree::search::{SolveError, Solver};
use wordle_tree::store::pack::is_pack;
use wordle_tree::store::results::{Shard, ShardSpec};

/// The exit status of a per-opener sweep's verdict (the min-over sweep, the best
/// pair): 1 when refuted (every opener at least a bound, or none finishes), 0 for a
/// proof or a sweep not yet done.
pub(super) fn sweep_status<T>(verdict: &driver::Verdict<T>) -> ExitCode {
    match verdict {
        driver::Verdict::AtLeast(_) | driver::Verdict::NoneFinishes => ExitCode::from(1),
        _ => ExitCode::SUCCESS,
    }
}

/// What follows the list of what attains a sweep's proved least value `value`: that
/// an opener dismissed at a seeded cutoff equal to it may tie
/// ([`driver::Verdict::BestSome`]).
pub(super) fn may_tie(value: u64) -> String {
    format!(
        "(others dismissed at the cutoff {value} may tie: rerun without --cutoff to list them all)"
    )
}

/// The words of the word list `path`, each with its line (for errors that name it);
/// `option` names the file in errors of its own.
pub(super) fn words_with_lines(path: &Path, option: &str) -> Result<Vec<(Word, usize)>> {
    // WordList's errors name the file (and line) already.
    let list = WordList::load(path).with_context(|| option.to_string())?;
    let text =
        std::fs::read_to_string(path).with_context(|| format!("{option} {}", path.display()))?;
    let lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, _)| i + 1);
    Ok(list.words.into_iter().zip(lines).collect())
}

/// `--openers FILE` of `check`: the allowed guesses it lists, in its order.
pub(super) fn openers_of(game: &Game, path: &Path) -> Result<Vec<GuessId>> {
    words_with_lines(path, "--openers")?
        .into_iter()
        .map(|(w, line)| {
            game.guess_id(w).with_context(|| {
                format!(
                    "{}:{line}: '{w}' is not one of the {} allowed guesses of lists {}",
                    path.display(),
                    game.n_guesses(),
                    game.name
                )
            })
        })
        .collect()
}

/// The shard of `--shard`, `auto` resolved from the scheduler's environment (the one
/// place every sharded command resolves it; outside a scheduler the error names the
/// variables looked for, exit 2).
pub(super) fn shard_of(spec: Option<ShardSpec>) -> Result<Option<Shard>> {
    spec.map(|s| s.resolve(|k| std::env::var(k).ok()))
        .transpose()
        .map_err(Into::into)
}

/// Whether an error is the driver's interruption (the job's own error wrapping
/// `SolveError::Interrupted`).
pub(super) fn is_interrupted(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(e);
    while let Some(c) = cause {
        if matches!(
            c.downcast_ref::<SolveError>(),
            Some(SolveError::Interrupted)
        ) {
            return true;
        }
        cause = c.source();
    }
    false
}

/// The line of an interrupted job (what it finished is kept in `results`, if any),
/// and its exit code, 130.
pub(super) fn interrupted(results: Option<&Path>, what: &str) -> ExitCode {
    match results {
        Some(dir) => errln!(
            "interrupted: the {what} finished are saved in {}; rerun the same command to resume",
            dir.display()
        ),
        None => errln!("interrupted"),
    }
    ExitCode::from(130)
}

/// The progress bar of a cutoff sweep (`openers`, the min-over sweep), fed by the
/// driver's [`Tally`].
pub(super) fn tally_bar(quiet: bool, what: &str) -> (indicatif::ProgressBar, impl Fn(&Tally)) {
    let bar = super::progress_bar(quiet, what);
    let shown = bar.clone();
    let show = move |t: &Tally| {
        shown.set_length(t.total as u64);
        shown.set_position(t.done as u64);
        shown.set_message(format!(
            "exact {} dismissed {} (reused {}) best {} cutoff {}",
            t.exact,
            t.dismissed,
            t.reused,
            t.best.map_or("-".into(), |b| b.to_string()),
            t.cutoff.map_or("none yet".into(), |c| c.to_string())
        ));
    };
    (bar, show)
}

/// Runs a per-opener sweep (`sweep`, given the progress report to feed) under the
/// command's [`tally_bar`] named `what`: `Ok(Err(exit))` when it was interrupted,
/// the resume line printed (the `units` finished are saved in `results`).
pub(super) fn run_sweep<T, E>(
    quiet: bool,
    what: &str,
    (results, units): (&Path, &str),
    sweep: impl FnOnce(&(dyn Fn(&Tally) + Sync)) -> Result<T, E>,
) -> Result<Result<T, ExitCode>>
where
    E: std::error::Error + Send + Sync + 'static,
{
    let (bar, show) = tally_bar(quiet, what);
    let ran = sweep(&show);
    bar.finish_and_clear();
    match ran {
        Err(e) if is_interrupted(&e) => Ok(Err(interrupted(Some(results), units))),
        other => Ok(Ok(other?)),
    }
}

/// Where a per-opener sweep of the command runs: the game and stop flag of `ctx`,
/// the openers `all` and this shard's `mine`, the directory and the progress report.
pub(super) fn place<'a, D>(
    ctx: &Ctx<'a>,
    table: &'a FeedbackTable,
    (all, mine): (&'a [GuessId], &'a [GuessId]),
    dir: &'a D,
    progress: &'a (dyn Fn(&Tally) + Sync),
) -> Place<'a, D> {
    Place {
        game: ctx.game,
        table,
        all,
        mine,
        dir,
        stop: ctx.stop,
        progress,
    }
}

/// The first 40 answers of `ids`, space-separated (` ...` when there are more): the
/// candidates of a refutation's evidence.
pub(super) fn evidence_words(game: &Game, ids: &[wordle_tree::game::AnswerId]) -> String {
    let words: Vec<String> = ids
        .iter()
        .take(40)
        .map(|&a| game.answers[a.index()].to_string())
        .collect();
    words.join(" ") + if ids.len() > 40 { " ..." } else { "" }
}

/// The report after a cutoff sweep: the directory's warnings, openers searched and reused, the cutoff, the wall
/// time (after `shard`'s name when given), the spread of per-opener CPU seconds from
/// `(cpu seconds, label)` pairs, and the peak memory.
pub(super) fn sweep_report(
    warnings: &[String],
    shard: Option<Shard>,
    reused: usize,
    cutoff: Option<u64>,
    wall: f64,
    runs: &[(f64, String)],
) -> Result<()> {
    for w in warnings {
        errln!("warning: {w}");
    }
    let shard = shard.map_or(String::new(), |s| {
        format!("shard {}/{}: ", s.index, s.count)
    });
    outln!(
        "{shard}{} searched, {reused} reused from the results directory; cutoff {}; {wall:.1} s wall",
        count(runs.len(), "opener"),
        cutoff.map_or("none".into(), |c| c.to_string()),
    );
    print_cpu_spread(runs)?;
    peak_memory()
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// Prints the spread of per-opener CPU seconds and the five slowest openers, from
/// `(cpu seconds, label)` pairs (nothing when there are none).
fn print_cpu_spread(runs: &[(f64, String)]) -> Result<()> {
    if runs.is_empty() {
        return Ok(());
    }
    let mut cpu: Vec<f64> = runs.iter().map(|r| r.0).collect();
    cpu.sort_by(f64::total_cmp);
    let sum: f64 = cpu.iter().sum();
    outln!(
        "per-opener CPU seconds: total {sum:.1}, mean {:.3}, median {:.3}, p90 {:.3}, p99 {:.3}, max {:.3}",
        sum / cpu.len() as f64,
        percentile(&cpu, 0.5),
        percentile(&cpu, 0.9),
        percentile(&cpu, 0.99),
        cpu[cpu.len() - 1]
    );
    let mut slow: Vec<&(f64, String)> = runs.iter().collect();
    slow.sort_by(|x, y| y.0.total_cmp(&x.0));
    let names: Vec<&str> = slow.iter().take(5).map(|r| r.1.as_str()).collect();
    outln!("slowest: {}", names.join(", "));
    Ok(())
}

/// `peak memory N MiB`, where the platform tells.
fn peak_memory() -> Result<()> {
    if let Some(m) = peak_memory_mib() {
        outln!("peak memory {m:.0} MiB");
    }
    Ok(())
}

pub(super) fn eta(seconds: f64) -> String {
    let s = seconds.round() as u64;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// Warns of the damaged unit files (redone, or counted as missing by `--merge`) and
/// the stray files a units directory holds.
fn warn_scan(scan: &Scan, merge: bool) {
    for (path, why) in &scan.damaged {
        errln!(
            "warning: {}: damaged unit file ({why}); {}",
            path.display(),
            if merge {
                "counted as missing"
            } else {
                "it is redone"
            }
        );
    }
    for (path, why) in &scan.strays {
        errln!(
            "warning: {}: not a unit file of this proof ({why}); ignored",
            path.display()
        );
    }
}

/// The time left of a units run: this run's seconds per candidate so far, times the
/// candidates left (a rough guide: large units cost more per candidate).
struct TimeLeft {
    started: Instant,
    /// Candidates already done when the first status came (units of earlier runs).
    first: std::sync::Mutex<Option<u64>>,
}

impl TimeLeft {
    /// `H:MM:SS`, or `-` before this run has finished a unit.
    fn estimate(&self, st: &Status) -> String {
        let mut first = self.first.lock().unwrap();
        let base = *first.get_or_insert(st.mine_candidates_done);
        let solved = st.mine_candidates_done - base;
        let left = st.mine_candidates - st.mine_candidates_done;
        if solved > 0 {
            eta(self.started.elapsed().as_secs_f64() / solved as f64 * left as f64)
        } else {
            "-".into()
        }
    }
}

/// A unit-wise proof's command (`solve --results`, `check --opener W --results`).
pub(super) struct Units<'a> {
    plan: &'a Plan,
    table: &'a FeedbackTable,
    results: &'a Path,
    shard: Option<Shard>,
    merge: bool,
    /// The command, for the line that sends a shard to `--merge`.
    command: &'static str,
    /// The bar's name and what a unit is when done (`solved`, `settled`).
    bar: &'static str,
    verb: &'static str,
    /// What the progress line shows after the units: `bound N`, `candidates i/n`.
    middle: fn(&Status) -> String,
    /// Whether the shard's line gives the bound so far.
    bound: bool,
}

/// How a units run ended.
pub(super) enum UnitsEnd {
    /// Interrupted (reported): exit with this code.
    Stopped(ExitCode),
    /// A shard whose proof other shards must finish (reported): exit 0.
    Pending,
    /// Every unit this run could settle is: the scan to merge, and how many of this
    /// run's units were left unsearched (a claim refuted early).
    Merge { scan: Scan, unsearched: usize },
}

impl<'a> Units<'a> {
    /// The command of `plan`'s objective: `solve` for the total, `check` for a claim.
    pub(super) fn new(
        plan: &'a Plan,
        table: &'a FeedbackTable,
        results: &'a Path,
        shard: Option<Shard>,
        merge: bool,
    ) -> Units<'a> {
        let total = plan.identity.goal == Goal::Total;
        Units {
            plan,
            table,
            results,
            shard,
            merge,
            command: if total { "solve" } else { "check" },
            bar: if total { "proof" } else { "check" },
            verb: if total { "solved" } else { "settled" },
            middle: if total {
                |st| format!("bound {}", st.bound)
            } else {
                |st| {
                    format!(
                        "candidates {}/{}",
                        st.mine_candidates_done, st.mine_candidates
                    )
                }
            },
            bound: total,
        }
    }

    /// Reads the directory, runs this shard's units on `solver` (unless `--merge`),
    /// reports, and reads the directory again for the merge.
    pub(super) fn run(&self, ctx: &Ctx, solver: &Solver) -> Result<UnitsEnd> {
        let (game, plan, results) = (ctx.game, self.plan, self.results);
        let mut scan = proof::scan_dir(game, self.table, plan, results)?;
        warn_scan(&scan, self.merge);
        if self.merge {
            return Ok(UnitsEnd::Merge {
                scan,
                unsearched: 0,
            });
        }
        let shard = self.shard.unwrap_or(Shard::ALL);
        let todo = plan.shard(shard.index, shard.count);
        let before = todo.iter().filter(|i| scan.done.contains_key(i)).count();
        outln!(
            "shard {}/{}: {} units, {} already done, {} to do",
            shard.index,
            shard.count,
            todo.len(),
            before,
            todo.len() - before
        );
        let bar = super::progress_bar(ctx.quiet, self.bar);
        let time_left = TimeLeft {
            started: Instant::now(),
            first: std::sync::Mutex::new(None),
        };
        // Units this run solved, and the last status (its share, grown by the units
        // taken over from other shards).
        let solved = std::sync::atomic::AtomicUsize::new(0);
        let last_mine = std::sync::atomic::AtomicUsize::new(todo.len());
        let joined = std::sync::atomic::AtomicUsize::new(0);
        let show = |st: &Status| {
            if st.last.is_some() {
                solved.fetch_add(1, Ordering::Relaxed);
            }
            last_mine.fetch_max(st.mine, Ordering::Relaxed);
            joined.fetch_max(st.joined, Ordering::Relaxed);
            let line = format!(
                "units {}/{} (this run {}/{}), {}, time left ~{}",
                st.done,
                st.units,
                st.mine_done,
                st.mine,
                (self.middle)(st),
                time_left.estimate(st)
            );
            let working = st.working.as_ref().map(|w| {
                let best = w
                    .best
                    .map_or("none yet".into(), |(g, v)| format!("{g} {v}"));
                format!(
                    "unit {} in progress: {} second guesses settled, best so far {best}",
                    w.key, w.settled
                )
            });
            if ctx.quiet {
                if let Some((key, result, s)) = &st.last {
                    errln!("unit {key}: {result} ({s:.1} s); {line}");
                } else if let Some(w) = &working {
                    errln!("{w}; {line}");
                }
            } else if let Some(w) = working {
                bar.set_message(format!("{w}; {line}"));
            } else {
                bar.set_length(st.mine_candidates);
                bar.set_position(st.mine_candidates_done);
                bar.set_message(line);
            }
        };
        // Once its own units are taken, a shard takes over the units of other shards
        // that nobody has started (largest first), claiming each (not from a pack,
        // which takes no unit).
        let others: Vec<usize> = if self.shard.is_some() && !is_pack(results) {
            (0..plan.units.len())
                .filter(|i| !todo.contains(i))
                .collect()
        } else {
            Vec::new()
        };
        let result = proof::run_units(
            solver, self.table, plan, results, &mut scan, &todo, &others, ctx.stop, &show,
        );
        bar.finish_and_clear();
        let stopped = match result {
            Err(e) if is_interrupted(&e) => true,
            r => {
                r?;
                ctx.stop.load(Ordering::Relaxed)
            }
        };
        let done_mine = todo.iter().filter(|i| scan.done.contains_key(i)).count();
        let c = solver.counters();
        let taken = last_mine.load(Ordering::Relaxed) - todo.len();
        let joined = joined.load(Ordering::Relaxed);
        outln!(
            "this run: {} units {}{}{} in {:.1} s wall; states searched {}; table hits {} of {} probes ({:.1}%)",
            solved.load(Ordering::Relaxed),
            self.verb,
            if taken > 0 {
                format!(" ({taken} taken over from other shards)")
            } else {
                String::new()
            },
            if joined > 0 {
                format!(", joined {joined} held by another process")
            } else {
                String::new()
            },
            time_left.started.elapsed().as_secs_f64(),
            c.states,
            c.hits,
            c.probes,
            100.0 * c.hit_rate()
        );
        peak_memory()?;
        if stopped {
            return Ok(UnitsEnd::Stopped(interrupted(Some(results), "units")));
        }
        // Other shards may have finished (or refuted) meanwhile.
        let scan = proof::scan_dir(game, self.table, plan, results)?;
        if self.shard.is_some() {
            if let Verdict::Missing { keys, bound } = proof::merge(game, plan, &scan)? {
                outln!(
                    "units done {} of {}; {}{} left to other shards: run `{} --merge` with the same options once every shard has finished",
                    plan.units.len() - keys.len(),
                    plan.units.len(),
                    if self.bound {
                        format!("bound so far {bound}; ")
                    } else {
                        String::new()
                    },
                    keys.len(),
                    self.command
                );
                return Ok(UnitsEnd::Pending);
            }
        }
        Ok(UnitsEnd::Merge {
            scan,
            unsearched: todo.len() - done_mine,
        })
    }

    /// The error of a merge with units missing (`what`: what is not given).
    pub(super) fn missing(&self, keys: &[String], what: &str) -> Result<ExitCode> {
        bail!(
            "{}: {} of {} units missing, {what}: {}",
            self.results.display(),
            keys.len(),
            self.plan.units.len(),
            super::out::listed(keys, 30, ", ")
        )
    }
}
