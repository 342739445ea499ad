//! `check`: proves or refutes depth claims (see `wordle_tree::jobs::check`); one opener's
//! claim kept unit by unit (`--opener W --max-guesses D --results DIR`) is
//! `super::check_units`.

use super::{allowed_guess, describe, jobs, progress_bar, Ctx};
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use wordle_tree::game::table::FeedbackTable;
use wordle_tree::game::word::{Word, WordList};
use wordle_tree::game::{Game, GuessId};
use wordle_tree::jobs::check::{self, Verdict};
use wordle_tree::store::results::{ResultsDir, Shard, ShardSpec};
use wordle_tree::tree::file;
use wordle_tree::tree::histogram_text;

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// The opener, or `any` to try every allowed opener.
    #[arg(long)]
    opener: String,
    /// The claim: every answer is found within D guesses.
    #[arg(long, value_name = "D", conflicts_with = "min_over")]
    max_guesses: Option<u8>,
    /// Instead: the least number of answers that need more than D guesses.
    #[arg(long, value_name = "D")]
    min_over: Option<u8>,
    /// With --max-guesses: these answers may need more (up to 6), e.g. eater,penal.
    #[arg(long, value_delimiter = ',', requires = "max_guesses")]
    except: Vec<String>,
    /// Save the witness (or optimal) tree here.
    #[arg(long)]
    out: Option<PathBuf>,
    /// With `--opener any`: one result file per opener here; finished ones are skipped.
    /// With `--opener W --max-guesses D`: the claim kept unit by unit (one file per
    /// opener bucket): a rerun resumes, shards share it, --merge assembles the tree.
    #[arg(long)]
    results: Option<PathBuf>,
    /// With `--opener any`, or `--opener W --results DIR`: run only shard i of n
    /// (1-based), e.g. 2/8; in a --results directory other shards use too, a shard
    /// done with its own openers or units takes over those nobody has started.
    /// `auto`: the shard of the scheduler task (a Slurm job array, a Kubernetes
    /// indexed job).
    #[arg(long, value_parser = super::parse_shard, value_name = "I/N|auto")]
    shard: Option<ShardSpec>,
    /// With `--opener any --min-over D`: dismiss openers proved to leave at least this
    /// many answers over D (default: the fewest found so far plus one).
    #[arg(long, requires = "min_over")]
    cutoff: Option<u64>,
    /// With `--opener any --min-over D`: keep only every N-th opener (a sample).
    #[arg(long, requires = "min_over")]
    sample: Option<usize>,
    /// With `--opener any --min-over D`, or `--opener W --results DIR`: only read the
    /// results directory and report.
    #[arg(long)]
    merge: bool,
    /// With `--opener any --min-over D`, or `--opener W --results DIR`: memory in MiB
    /// for the transposition tables and the search scratch (shared; default 2048).
    #[arg(long)]
    memory: Option<usize>,
    /// With --max-guesses D: search only these answers: a word list (every word one of
    /// the list's answers), or `groups:K` (K up to 1000), the answers of the K largest
    /// groups that differ in one position (`_ills`, ...). A refutation on them refutes the claim
    /// for the whole list; a success on them decides nothing (exit 2).
    #[arg(long, value_name = "FILE|groups:K", requires = "max_guesses")]
    subset: Option<PathBuf>,
    /// With `--opener any --max-guesses D`: leave an opener undecided after this
    /// many seconds of search; the undecided are listed (and, with --results, stored
    /// as given up with the limit: a rerun with a longer limit or none tries them
    /// again, one with the same or a shorter limit passes them by).
    #[arg(long, value_name = "SECONDS", requires = "max_guesses")]
    give_up: Option<f64>,
    /// With `--opener any`: only the openers this word list names (e.g. those a
    /// sweep on an easier subset gave up, for a harder one); the verdict speaks of
    /// them only.
    #[arg(long, value_name = "FILE")]
    openers: Option<PathBuf>,
}

/// `--memory` when not given (MiB).
const DEFAULT_MEMORY: usize = 2048;

pub fn run(ctx: &Ctx, args: &CheckArgs) -> Result<ExitCode> {
    if let Some(path) = args.subset.as_deref() {
        return on_subset(ctx, args, path);
    }
    let depth = claim_depth(args)?;
    if args.opener.eq_ignore_ascii_case("any") {
        return any_opener(ctx, args, depth);
    }
    if args.cutoff.is_some() || args.sample.is_some() {
        bail!("--cutoff and --sample go with --opener any --min-over");
    }
    if args.give_up.is_some() || args.openers.is_some() {
        bail!("--give-up and --openers go with --opener any --max-guesses D");
    }
    if let Some(results) = args.results.as_deref() {
        return units(ctx, args, depth, results);
    }
    if args.shard.is_some() || args.merge || args.memory.is_some() {
        bail!("--shard, --merge and --memory need --results DIR with --opener W (or go with --opener any)");
    }
    let opener = allowed_guess(ctx.game, &args.opener, "opener")?;
    if args.min_over.is_some() {
        one_min_over(ctx, args, opener, depth)
    } else {
        one_within(ctx, args, opener, depth)
    }
}

/// The claim's D (`--max-guesses D` or `--min-over D`), checked with the options
/// that depend on it.
fn claim_depth(args: &CheckArgs) -> Result<u8> {
    let depth = match (args.max_guesses, args.min_over) {
        (Some(d), None) | (None, Some(d)) => d,
        _ => bail!("check needs --max-guesses D or --min-over D"),
    };
    // clap's `requires = "max_guesses"` is not enforced once `--min-over` (which
    // conflicts with it) is given, so the options --min-over would ignore are refused here.
    if args.min_over.is_some() && !args.except.is_empty() {
        bail!("--except goes with --max-guesses D, not --min-over");
    }
    if args.min_over.is_some() && !(1..check::GAME_LIMIT).contains(&depth) {
        bail!(
            "--min-over must be from 1 to {}, not {depth}",
            check::GAME_LIMIT - 1
        );
    }
    super::check_max_guesses(depth)?;
    if !args.except.is_empty() && depth >= check::GAME_LIMIT {
        bail!(
            "--except needs --max-guesses below {} (the excepted answers get up to {})",
            check::GAME_LIMIT,
            check::GAME_LIMIT
        );
    }
    Ok(depth)
}

/// `--opener any`: the min-over sweep, or the within-D sweep.
fn any_opener(ctx: &Ctx, args: &CheckArgs, depth: u8) -> Result<ExitCode> {
    if !args.except.is_empty() || args.out.is_some() {
        bail!("--opener any works without --except and --out");
    }
    if args.min_over.is_some() {
        if args.give_up.is_some() {
            bail!("--give-up goes with --opener any --max-guesses D, not --min-over (use --cutoff to dismiss poor openers early)");
        }
        let Some(results) = args.results.as_deref() else {
            bail!("--opener any --min-over needs --results DIR (one result file per opener, so the sweep resumes)");
        };
        return super::min_over::run(
            ctx,
            super::min_over::Args {
                depth,
                results,
                shard: super::jobs::shard_of(args.shard)?,
                cutoff: args.cutoff,
                sample: args.sample,
                openers: args.openers.as_deref(),
                merge: args.merge,
                memory: args.memory.unwrap_or(DEFAULT_MEMORY),
            },
        );
    }
    if args.merge || args.memory.is_some() {
        bail!("--merge and --memory go with --opener any --min-over or --opener W --results DIR");
    }
    any(ctx, depth, &Sweep::of(args)?, None)
}

/// `--opener W --max-guesses D --results DIR`: the claim unit by unit.
fn units(ctx: &Ctx, args: &CheckArgs, depth: u8, results: &Path) -> Result<ExitCode> {
    if args.min_over.is_some() {
        bail!("--results with --opener W goes with --max-guesses D (--min-over D keeps results only with --opener any)");
    }
    if args.merge && args.shard.is_some() {
        bail!("--merge reads every shard's unit files: leave out --shard");
    }
    if !args.except.is_empty() {
        bail!("--results does not go with --except (the unit files do not record the excepted answers): run the claim with --except without --results");
    }
    super::check_units::run(
        ctx,
        super::check_units::Args {
            opener: allowed_guess(ctx.game, &args.opener, "opener")?,
            depth,
            out: args.out.as_deref(),
            memory: args.memory.unwrap_or(DEFAULT_MEMORY),
            results,
            shard: super::jobs::shard_of(args.shard)?,
            merge: args.merge,
        },
    )
}

/// `--opener W --min-over D`: the fewest answers over D, and an optimal tree.
fn one_min_over(ctx: &Ctx, args: &CheckArgs, opener: GuessId, depth: u8) -> Result<ExitCode> {
    let game = ctx.game;
    let opener_word = game.guesses[opener.index()];
    let table = FeedbackTable::build(game);
    let t = Instant::now();
    let what = format!("{}; opener {opener_word}", describe(game, ctx.hard));
    let r = check::min_over(game, &table, opener, depth, ctx.hard, ctx.stop)?;
    let words: Vec<String> = r
        .over
        .iter()
        .map(|&a| game.answers[a.index()].to_string())
        .collect();
    outln!(
        "PROVED: from {opener_word}, at least {} answer(s) need more than {depth} guesses, whatever the strategy ({what})",
        r.over.len()
    );
    if !words.is_empty() {
        outln!(
            "in an optimal tree (fewest such answers, then fewest guesses) they are: {}",
            words.join(" ")
        );
    }
    let replay = r.tree.verify(game);
    outln!(
        "that tree: total {} guesses, histogram {}",
        r.total,
        histogram_text(&replay.histogram())
    );
    save(args.out.as_deref(), &r.tree)?;
    outln!("time {:.3} s", t.elapsed().as_secs_f64());
    Ok(ExitCode::SUCCESS)
}

/// `--opener W --max-guesses D [--except ...]`: PROVED with a witness tree, or
/// REFUTED with evidence.
fn one_within(ctx: &Ctx, args: &CheckArgs, opener: GuessId, depth: u8) -> Result<ExitCode> {
    let game = ctx.game;
    let opener_word = game.guesses[opener.index()];
    let mut exempt = Vec::new();
    for w in &args.except {
        let word = Word::parse(w.trim())
            .with_context(|| format!("--except word '{}'", wordle_tree::game::echo::echo(w)))?;
        let a = game.answer_id(word).with_context(|| {
            format!(
                "--except word '{word}' is not one of the {} answers",
                game.name
            )
        })?;
        exempt.push(a);
    }
    let table = FeedbackTable::build(game);
    let t = Instant::now();
    let what = format!("{}; opener {opener_word}", describe(game, ctx.hard));
    let except_text = if exempt.is_empty() {
        String::new()
    } else {
        format!(
            " except {} (within {})",
            args.except.join(","),
            check::GAME_LIMIT
        )
    };
    match check::within(game, &table, opener, depth, ctx.hard, &exempt, ctx.stop)? {
        Verdict::Proved(tree) => {
            let replay = tree.verify(game);
            if !replay.is_valid() {
                bail!(
                    "internal error: the witness tree does not verify: {:?}",
                    replay.problems.first()
                );
            }
            outln!("PROVED: from {opener_word}, every answer is found within {depth} guesses{except_text} ({what})");
            outln!(
                "witness tree: total {} guesses, histogram {}, max depth {}",
                replay.total(),
                histogram_text(&replay.histogram()),
                replay.max_depth()
            );
            save(args.out.as_deref(), &tree)?;
            outln!("time {:.3} s", t.elapsed().as_secs_f64());
            Ok(ExitCode::SUCCESS)
        }
        Verdict::Refuted {
            evidence,
            least_over,
        } => {
            outln!("REFUTED: from {opener_word}, no tree finds every answer within {depth} guesses{except_text} ({what})");
            if let Some(e) = evidence {
                outln!(
                    "evidence: after {opener_word}:{} the {} candidates cannot all be found within {} more guess(es): {}",
                    e.feedback,
                    e.candidates.len(),
                    e.left,
                    jobs::evidence_words(game, &e.candidates)
                );
            }
            if let Some(n) = least_over {
                outln!("at least {n} answer(s) outside the list need more than {depth} guesses in every tree (see --min-over {depth})");
            }
            outln!("time {:.3} s", t.elapsed().as_secs_f64());
            Ok(ExitCode::from(1))
        }
    }
}

/// `--subset FILE`: the claim checked on a subset of the answers. Every tree that
/// finds all the list's answers within D guesses (from an opener), read for the
/// subset's answers only, finds those within D too, in normal and in hard mode (the
/// same guesses, after the same feedback). So no tree on the subset means no tree on
/// the list: a refutation carries over. A tree on the subset says nothing of the rest.
fn on_subset(ctx: &Ctx, args: &CheckArgs, path: &Path) -> Result<ExitCode> {
    let game = ctx.game;
    if args.min_over.is_some() || !args.except.is_empty() || args.out.is_some() || args.merge {
        bail!("--subset goes with --max-guesses D only (not with --min-over, --except, --out or --merge)");
    }
    if args.results.is_some() && !args.opener.eq_ignore_ascii_case("any") {
        bail!("--subset with --results goes with --opener any (one result file per opener)");
    }
    let (list, what) = match path.to_str().and_then(|p| p.strip_prefix("groups:")) {
        Some(k) => {
            let k: usize = k
                .parse()
                .ok()
                .filter(|k| (1..=MAX_GROUPS).contains(k))
                .with_context(|| {
                    format!("--subset groups:K needs K from 1 to {MAX_GROUPS}, not '{k}'")
                })?;
            groups_subset(game, k)
        }
        None => {
            let words = jobs::words_with_lines(path, "--subset")?;
            for &(w, line) in &words {
                if game.answer_id(w).is_none() {
                    bail!(
                        "{}:{line}: '{w}' is not one of the {} answers of lists {}",
                        path.display(),
                        game.n_answers(),
                        game.name
                    );
                }
            }
            let words = words.into_iter().map(|(w, _)| w).collect();
            (WordList { words }, path.display().to_string())
        }
    };
    let sub = sub_game(game, list)?;
    let name = format!(
        "the {} answers of {what} (a subset of the {} answers of lists {})",
        sub.n_answers(),
        game.n_answers(),
        game.name
    );
    outln!("checking on {name}: a refutation holds for the whole list, a success decides nothing");
    let sub_ctx = Ctx {
        game: &sub,
        hard: ctx.hard,
        quiet: ctx.quiet,
        stop: ctx.stop,
        table: ctx.table,
        data: ctx.data,
    };
    if args.opener.eq_ignore_ascii_case("any") {
        if args.memory.is_some() {
            bail!("--memory goes with --opener any --min-over or --opener W --results DIR");
        }
        let d = args.max_guesses.expect("clap requires --max-guesses");
        super::check_max_guesses(d)?;
        let whole = Whole { game, name: &name };
        return any(&sub_ctx, d, &Sweep::of(args)?, Some(&whole));
    }
    let sub_args = CheckArgs {
        subset: None,
        opener: args.opener.clone(),
        max_guesses: args.max_guesses,
        min_over: None,
        except: Vec::new(),
        out: None,
        results: args.results.clone(),
        shard: args.shard,
        cutoff: None,
        sample: None,
        merge: false,
        memory: args.memory,
        give_up: args.give_up,
        openers: args.openers.clone(),
    };
    let code = run(&sub_ctx, &sub_args)?;
    let d = args.max_guesses.expect("clap requires --max-guesses");
    if code == ExitCode::from(1) {
        outln!(
            "REFUTED on the whole list: from {}, no tree finds every one of the {} answers within {d} guesses ({}), since none does on {name}",
            args.opener.to_ascii_lowercase(),
            game.n_answers(),
            describe(game, ctx.hard)
        );
        Ok(ExitCode::from(1))
    } else {
        outln!(
            "UNDECIDED for the whole list: the subset can be finished within {d} guesses, which proves nothing for the other {} answers; run without --subset, or with a harder subset",
            game.n_answers() - sub.n_answers()
        );
        Ok(ExitCode::from(2))
    }
}

/// The answers of the `k` largest one-position groups, and how to name them.
/// The most groups `--subset groups:K` takes (the big game has thousands; 1000 of
/// them hold about 8000 of its 12972 answers).
const MAX_GROUPS: usize = 1000;

fn groups_subset(game: &Game, k: usize) -> (WordList, String) {
    let groups = check::largest_groups(game, k);
    let mut ids: Vec<_> = groups.iter().flat_map(|(_, v)| v.iter().copied()).collect();
    ids.sort();
    ids.dedup();
    // Named in full up to 100 groups, else the first 10 and how many more.
    let shown = if groups.len() > 100 { 10 } else { groups.len() };
    let mut names: Vec<String> = groups[..shown]
        .iter()
        .map(|(p, v)| format!("{p} {}", v.len()))
        .collect();
    if shown < groups.len() {
        names.push(format!("... and {} more", groups.len() - shown));
    }
    let words = ids.iter().map(|a| game.answers[a.index()]).collect();
    (
        WordList { words },
        format!(
            "the {} largest one-position groups ({})",
            groups.len(),
            names.join(", ")
        ),
    )
}

/// The game of `answers` (a subset of `game`'s) with all of `game`'s guesses.
fn sub_game(game: &Game, answers: WordList) -> Result<Game> {
    let guesses = WordList {
        words: game.guesses.clone(),
    };
    Ok(Game::new("custom", answers, guesses)?)
}

/// `check --opener any --max-guesses D` on a game of at least this many answers first
/// tries the subsets [`AUTO_GROUPS`] (see [`on_subset`]): on the big game the 49
/// answers of `groups:3` refute "within 5" for every opener in under a minute, where
/// the whole list takes hours.
const AUTO_SUBSET_MIN: usize = 4000;
/// The `groups:K` subsets tried first, in order.
const AUTO_GROUPS: [usize; 2] = [3, 5];

fn save(out: Option<&Path>, tree: &wordle_tree::tree::Tree) -> Result<()> {
    if let Some(path) = out {
        file::save(tree, path)?;
        outln!("tree written to {}", path.display());
    }
    Ok(())
}

/// How `check --opener any --max-guesses D` sweeps.
#[derive(Clone, Copy)]
struct Sweep<'a> {
    results: Option<&'a Path>,
    shard: Option<Shard>,
    give_up: Option<std::time::Duration>,
    /// Only the openers of this word list.
    openers: Option<&'a Path>,
}

impl Sweep<'_> {
    /// From the options (`--give-up SECONDS` checked).
    fn of(args: &CheckArgs) -> Result<Sweep<'_>> {
        let give_up = args
            .give_up
            .map(|s| {
                std::time::Duration::try_from_secs_f64(s)
                    .ok()
                    .filter(|d| !d.is_zero())
                    .with_context(|| {
                        format!("--give-up needs a positive number of seconds, not {s}")
                    })
            })
            .transpose()?;
        Ok(Sweep {
            results: args.results.as_deref(),
            shard: super::jobs::shard_of(args.shard)?,
            give_up,
            openers: args.openers.as_deref(),
        })
    }
}

/// The whole game when `check --opener any` runs on a subset of its answers.
struct Whole<'a> {
    game: &'a Game,
    /// The subset, named for the report.
    name: &'a str,
}

/// `--opener any`: every allowed opener (of this shard) until one succeeds; on a
/// subset of `whole`'s answers every opener, since a success there decides nothing
/// and each failure refutes the claim for that opener on the whole list. On a large
/// game (and not already on a subset) the small subsets of [`AUTO_GROUPS`] go first.
fn any(ctx: &Ctx, depth: u8, sweep: &Sweep, whole: Option<&Whole>) -> Result<ExitCode> {
    let game = ctx.game;
    let shard = sweep.shard.unwrap_or(Shard::ALL);
    let dir = sweep
        .results
        .map(|d| ResultsDir::open(d, check::WITHIN_KIND, game, ctx.hard, depth))
        .transpose()?;
    let finished = match &dir {
        Some(dir) => {
            let (finished, warnings) = check::finished_within(dir)?;
            for w in &warnings {
                errln!("warning: {w}");
            }
            finished
        }
        None => Default::default(),
    };
    let t = Instant::now();
    let all: Vec<GuessId> = match sweep.openers {
        Some(path) => jobs::openers_of(game, path)?,
        None => (0..game.n_guesses()).map(GuessId::new).collect(),
    };
    let mine = shard.select(&all);
    // What part of the openers the verdicts speak of: an `--openers` file, a shard.
    let mut scope = match sweep.openers {
        Some(path) => format!(
            " (only the {} openers of {} checked)",
            all.len(),
            path.display()
        ),
        None => String::new(),
    };
    if shard.count > 1 {
        scope += &format!(
            " (shard {}/{}: {} openers)",
            shard.index,
            shard.count,
            mine.len()
        );
    }
    if whole.is_none() && game.n_answers() >= AUTO_SUBSET_MIN {
        if let Some(code) = auto_subsets(ctx, depth, &mine, sweep.give_up, &scope, t)? {
            return Ok(code);
        }
    }
    // Shards sharing a directory take over each other's unstarted openers.
    let others = match &dir {
        Some(_) if shard.count > 1 => wordle_tree::jobs::driver::balance::others(&all, &mine),
        _ => Vec::new(),
    };
    let table = FeedbackTable::build(game);
    let bar = progress_bar(ctx.quiet, "check");
    bar.set_length(mine.len() as u64);
    let swept = check::sweep_within(
        game,
        &table,
        &mine,
        &others,
        depth,
        ctx.hard,
        dir.as_ref(),
        &finished,
        whole.is_none(),
        sweep.give_up,
        ctx.stop,
        &|done| bar.set_position(done as u64),
    );
    bar.finish_and_clear();
    let swept = match swept {
        Err(e) if jobs::is_interrupted(&e) => {
            return Ok(jobs::interrupted(sweep.results, "openers"))
        }
        other => other?,
    };
    let report = AnyReport {
        ctx,
        depth,
        scope: &scope,
        give_up: sweep.give_up,
        secs: t.elapsed().as_secs_f64(),
    };
    match whole {
        Some(whole) => report.on_subset(&swept, whole),
        None => report.on_list(&swept),
    }
}

/// `--opener any` on a large game: the claim on the answers of the few largest
/// one-position groups first ([`AUTO_GROUPS`]); a refutation there is the verdict
/// (`Some(exit code)`), else the whole list is checked (`None`).
fn auto_subsets(
    ctx: &Ctx,
    depth: u8,
    mine: &[GuessId],
    give_up: Option<std::time::Duration>,
    scope: &str,
    t: Instant,
) -> Result<Option<ExitCode>> {
    let game = ctx.game;
    for k in AUTO_GROUPS {
        let (list, what) = groups_subset(game, k);
        let sub = sub_game(game, list)?;
        let sub_table = FeedbackTable::build(&sub);
        let openers: Vec<GuessId> = mine
            .iter()
            .map(|g| {
                sub.guess_id(game.guesses[g.index()])
                    .expect("a subset game keeps every guess")
            })
            .collect();
        let bar = progress_bar(ctx.quiet, "check (subset)");
        bar.set_length(openers.len() as u64);
        let sweep = check::sweep_within(
            &sub,
            &sub_table,
            &openers,
            &[],
            depth,
            ctx.hard,
            None,
            &Default::default(),
            true,
            give_up,
            ctx.stop,
            &|done| bar.set_position(done as u64),
        );
        bar.finish_and_clear();
        let sweep = match sweep {
            Err(e) if jobs::is_interrupted(&e) => return Ok(Some(jobs::interrupted(None, ""))),
            other => other?,
        };
        let next = if k == AUTO_GROUPS[AUTO_GROUPS.len() - 1] {
            "checking every answer"
        } else {
            "trying more groups"
        };
        match sweep.settled.iter().find(|(_, ok)| *ok) {
            None if sweep.gave_up.is_empty() => {
                outln!(
                    "REFUTED: no opener finds every answer within {depth} guesses{scope}; {} openers checked ({}) in {:.1} s, on the {} answers of {what} only: a tree for every answer, read for these, would find these in time",
                    sweep.settled.len(),
                    describe(game, ctx.hard),
                    t.elapsed().as_secs_f64(),
                    sub.n_answers()
                );
                return Ok(Some(ExitCode::from(1)));
            }
            None => outln!(
                "the {} answers of {what} do not settle it (gave up on {} opener(s)); {next}",
                sub.n_answers(),
                sweep.gave_up.len(),
            ),
            Some((g, _)) => outln!(
                "the {} answers of {what} do not settle it ({} finds them all within {depth}); {next}",
                sub.n_answers(),
                sub.guesses[g.index()],
            ),
        }
    }
    Ok(None)
}

/// The verdict lines of a finished `--opener any` sweep.
struct AnyReport<'a> {
    ctx: &'a Ctx<'a>,
    depth: u8,
    /// What part of the openers was checked (` (shard 2/8: ...)`), or empty.
    scope: &'a str,
    give_up: Option<std::time::Duration>,
    secs: f64,
}

impl AnyReport<'_> {
    fn words(&self, gs: impl Iterator<Item = GuessId>) -> Vec<String> {
        gs.map(|g| self.ctx.game.guesses[g.index()].to_string())
            .collect()
    }

    /// The openers given up, and this shard's openers left to other processes, if any.
    fn gave_up_line(&self, gave_up: &[String], sweep: &check::Sweep) -> Result<()> {
        if !gave_up.is_empty() {
            outln!(
                "UNDECIDED for the {} opener(s) given up after {:.0} s: {}; rerun without --give-up (or with a longer one) to settle them",
                gave_up.len(),
                self.give_up.map_or(0.0, |d| d.as_secs_f64()),
                gave_up.join(" ")
            );
        }
        if !sweep.left.is_empty() {
            let left = self.words(sweep.left.iter().copied());
            outln!(
                "UNDECIDED here for the {} opener(s) of this shard that other shards were searching: {}; once every shard has finished, rerun without --shard on the same --results to read every verdict",
                left.len(),
                super::out::listed(&left, 20, " ")
            );
        }
        Ok(())
    }

    /// ` (K of them other shards')`, or empty.
    fn taken(sweep: &check::Sweep) -> String {
        match sweep.taken_over {
            0 => String::new(),
            k => format!(" ({k} of them other shards')"),
        }
    }

    /// On the whole list: PROVED by the first opener that meets the claim, REFUTED
    /// when none does (exit 1), or when some were given up, refuted for the others
    /// (exit 2).
    fn on_list(&self, sweep: &check::Sweep) -> Result<ExitCode> {
        let (depth, scope, secs) = (self.depth, self.scope, self.secs);
        let what = describe(self.ctx.game, self.ctx.hard);
        let good = self.words(sweep.settled.iter().filter(|s| s.1).map(|s| s.0));
        let gave_up = self.words(sweep.gave_up.iter().copied());
        let n = sweep.settled.len() + gave_up.len();
        let refuted = sweep.settled.len() - good.len();
        let taken = Self::taken(sweep);
        if good.is_empty() && !(gave_up.is_empty() && sweep.left.is_empty()) {
            outln!(
                "REFUTED for {refuted} of the {n} openers{scope}{taken}: from none of them does a tree find every answer within {depth} guesses ({what}); {secs:.1} s"
            );
            self.gave_up_line(&gave_up, sweep)?;
            return Ok(ExitCode::from(2));
        }
        if good.is_empty() {
            outln!(
                "REFUTED: no opener finds every answer within {depth} guesses{scope}; {} openers checked{taken} ({what}) in {secs:.1} s",
                sweep.settled.len()
            );
            Ok(ExitCode::from(1))
        } else {
            outln!(
                "PROVED: opener {} finds every answer within {depth} guesses ({what}); stopped after {} openers{taken} in {secs:.1} s",
                good.join(", "),
                sweep.settled.len()
            );
            Ok(ExitCode::SUCCESS)
        }
    }

    /// On a subset of `whole`'s answers: each refuted opener is refuted on the whole
    /// list; the others are undecided (exit 2 unless every opener is refuted).
    fn on_subset(&self, sweep: &check::Sweep, whole: &Whole) -> Result<ExitCode> {
        let (depth, scope, secs) = (self.depth, self.scope, self.secs);
        let good = self.words(sweep.settled.iter().filter(|s| s.1).map(|s| s.0));
        let gave_up = self.words(sweep.gave_up.iter().copied());
        let n = sweep.settled.len() + gave_up.len();
        let refuted = sweep.settled.len() - good.len();
        let what = describe(whole.game, self.ctx.hard);
        let total = whole.game.n_answers();
        let taken = Self::taken(sweep);
        if good.is_empty() && gave_up.is_empty() && sweep.left.is_empty() {
            outln!(
                "REFUTED on the whole list: no opener finds every one of the {total} answers within {depth} guesses{scope} ({what}), since none does on {}; {n} openers checked{taken} in {secs:.1} s",
                whole.name
            );
            return Ok(ExitCode::from(1));
        }
        outln!(
            "REFUTED on the whole list for {refuted} of the {n} openers{scope}{taken}: from none of them does a tree find every one of the {total} answers within {depth} guesses ({what}), since none does on {}; {secs:.1} s",
            whole.name
        );
        if !good.is_empty() {
            outln!(
                "UNDECIDED for the {} opener(s) that finish every answer of the subset within {depth}: {}; check each with a harder subset or without --subset (--opener W)",
                good.len(),
                good.join(" ")
            );
        }
        self.gave_up_line(&gave_up, sweep)?;
        Ok(ExitCode::from(2))
    }
}
