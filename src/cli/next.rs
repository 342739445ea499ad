//! The `next`, `path` and `play` commands: advice from a stored tree (the shipped one
//! for the lists and mode in use unless `--tree` is given), solved exactly when the
//! history leaves the tree; with no tree (custom lists without `--tree`, or a chosen
//! `--opener`) every state is solved exactly from the history, the opener too. The
//! logic is in [`wordle_tree::players::play`]; this file finds and checks the tree, reads the
//! player's lines and prints.
//!
//! A cold `next` on the tree loads the lists (1.6 ms) and the tree (0.13 ms), checks
//! the file's checksums, and walks the history and then every candidate through the
//! subtree (0.45 ms for all 2315); a feedback table and the solver are only needed
//! when the history has left the tree.
//!
//! About 800 lines: the three commands share the tree's loading and checks and the
//! off-tree solving (`Helper`), so they stay together; `play`'s loop (from
//! `pub fn play` on) is the seam to split along if it grows.

use super::{allowed_guess, Ctx};
use anyhow::{bail, Context, Result};
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};
use wordle_tree::game::echo::echo;
use wordle_tree::game::feedback::Feedback;
use wordle_tree::game::{mode_name, AnswerId, Game, GuessId};
use wordle_tree::players::play::{self, Advice, AdviceError, Guide, Move, Proof, Source, Step};
use wordle_tree::tree::file;
use wordle_tree::tree::Tree;

#[derive(clap::Args, Debug)]
pub struct NextArgs {
    /// Tree file (default: the shipped trees/<opener>.<normal|hard>.<list>.tree; the
    /// opener is tarse for nyt2023, lants for wordle-all, salet otherwise).
    #[arg(long)]
    tree: Option<PathBuf>,
    #[command(flatten)]
    pub format: super::out::FormatArgs,
    /// Off the tree, answer within about this many seconds: if the exact search has
    /// not finished, give the best guess found so far, marked not proven optimal,
    /// with the range the optimum is proved to lie in (default: no limit, always exact).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    time_limit: Option<Duration>,
    /// No tree: open with this word, and solve every state after it exactly.
    #[arg(long, conflicts_with = "tree")]
    opener: Option<String>,
    /// The guesses played so far with their feedback: salet:BYBBY tiara:YBBBG, or
    /// salet BYBBY, or the squares of a share text (see below).
    history: Vec<String>,
}

/// `next --help`'s examples, after the history syntax.
pub const NEXT_EXAMPLES: &str = concat!(
    "Examples:
  wordle-tree next                                  the opener
  wordle-tree next salet:BYBBY tiara:YBBBG          after two guesses
  wordle-tree next salet BYBBY, tiara YBBBG         the same, as pairs
  wordle-tree next 'salet:⬛🟨⬛⬛🟨'                 squares copied from the game
  wordle-tree --list nyt2023 next tarse:BYBBB       today's NYT puzzle (its 2023 list)
  wordle-tree --hard next --format json salet:BYBBY

",
    include_str!("../players/history_syntax.txt")
);

/// `path --help`'s examples.
pub const PATH_EXAMPLES: &str = "Examples:
  wordle-tree path --answer quota
  wordle-tree --hard path --answer quota
  wordle-tree path --answer quota --opener crane    solved exactly from crane";

/// `play --help`'s examples.
pub const PLAY_EXAMPLES: &str = concat!(
    "Examples:
  wordle-tree play                       suggests salet; type the colours, e.g. BYBBY
  wordle-tree --list nyt2023 play        today's NYT puzzle
  wordle-tree play --answer quota        plays by itself against quota
  wordle-tree play --opener crane        your own opener, the rest solved exactly

At the prompt type the feedback alone (for the suggested word), or WORD FEEDBACK if
you played another word; 'undo', 'help', 'quit'. At the end play prints the review
command of the game.

",
    include_str!("../players/history_syntax.txt")
);

#[derive(clap::Args, Debug)]
pub struct PathArgs {
    /// Tree file (default: the shipped tree of the lists and mode, as for `next`).
    #[arg(long)]
    tree: Option<PathBuf>,
    /// The answer whose path to show.
    #[arg(long)]
    answer: String,
    /// No tree: open with this word, and solve every state after it exactly.
    #[arg(long, conflicts_with = "tree")]
    opener: Option<String>,
    /// With no tree, solve each state within about this many seconds (see `next`).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    time_limit: Option<Duration>,
}

#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// Tree file (default: the shipped tree of the lists and mode, as for `next`).
    #[arg(long)]
    tree: Option<PathBuf>,
    /// Play by itself against this answer and show the path.
    #[arg(long)]
    answer: Option<String>,
    /// Off the tree, answer within about this many seconds (see `next --time-limit`).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    time_limit: Option<Duration>,
    /// No tree: open with this word, and solve every state after it exactly.
    #[arg(long, conflicts_with = "tree")]
    opener: Option<String>,
}

/// The longest `--time-limit` accepted (about 11.6 days; omit the option for none).
const MAX_TIME_LIMIT: f64 = 1e6;

/// A time limit in seconds: a number from 0 to [`MAX_TIME_LIMIT`].
pub(super) fn parse_seconds(s: &str) -> Result<Duration, String> {
    let secs: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("'{}' is not a number of seconds", echo(s)))?;
    if !(0.0..=MAX_TIME_LIMIT).contains(&secs) {
        return Err(format!(
            "'{}': a time limit is a finite number of seconds, 0 or more, and at most {MAX_TIME_LIMIT} (omit --time-limit for no limit)",
            echo(s)
        ));
    }
    Duration::try_from_secs_f64(secs).map_err(|_| {
        format!(
            "'{}': a time limit is a finite number of seconds, 0 or more",
            echo(s)
        )
    })
}

/// The shipped tree for the lists and mode in use: `--data DIR`'s `trees/` if it has
/// the file, else the built-in copy ([`wordle_tree::shipped::find_tree`]); with the
/// name it came from.
fn shipped_tree(ctx: &Ctx) -> Result<(Tree, PathBuf)> {
    let game = ctx.game;
    if game.name == "custom" {
        bail!("no shipped tree for custom word lists; pass --tree FILE (build one with `solve --opener WORD --out FILE`)");
    }
    let dirs = super::shipped_dirs(ctx, "trees");
    wordle_tree::shipped::find_tree(&dirs, game, ctx.hard)?.with_context(|| {
        format!(
            "no shipped tree {} (built in: {}); pass --tree FILE (build one with `solve --opener WORD --out FILE`)",
            wordle_tree::shipped::tree_name(&game.name, ctx.hard),
            wordle_tree::shipped::tree_names()
                .filter(|n| n.contains(".normal.") || n.contains(".hard."))
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

/// A tree for `review` and `serve`: the file given, else the shipped one for the lists
/// and mode, loaded as [`load_tree`] loads it; with the path it came from.
pub(super) fn load_tree_or_shipped(ctx: &Ctx, path: Option<&Path>) -> Result<(Tree, PathBuf)> {
    match path {
        Some(p) => Ok((load_tree(ctx, p)?, p.to_path_buf())),
        None => shipped_tree(ctx),
    }
}

/// Loads and checks a tree: magic, version, body checksum, the lists' checksum, the
/// whole tree's validity (every id, branch and depth; [`file::load`]) and the mode.
fn load_tree(ctx: &Ctx, path: &Path) -> Result<Tree> {
    let tree = file::load(path, ctx.game)?;
    if tree.hard() != ctx.hard {
        bail!(
            "{}: a {} mode tree, but {} mode is in use ({} --hard)",
            path.display(),
            mode_name(tree.hard()),
            mode_name(ctx.hard),
            if tree.hard() { "pass" } else { "drop" }
        );
    }
    Ok(tree)
}

/// What the advice follows: a tree file (`--tree`, else the shipped one for named
/// lists), or no tree (`--opener`, or custom lists without `--tree`).
struct Loaded {
    tree: Option<(Tree, PathBuf)>,
    opener: Option<GuessId>,
}

impl Loaded {
    fn new(ctx: &Ctx, tree: Option<&Path>, opener: Option<&str>) -> Result<Loaded> {
        let opener = opener
            .map(|o| allowed_guess(ctx.game, o, "opener"))
            .transpose()?;
        let tree = match tree {
            Some(p) => Some((load_tree(ctx, p)?, p.to_path_buf())),
            None if opener.is_some() || ctx.game.name == "custom" => None,
            None => Some(shipped_tree(ctx)?),
        };
        Ok(Loaded { tree, opener })
    }

    fn guide(&self, ctx: &Ctx) -> Guide<'_> {
        match &self.tree {
            Some((tree, _)) => Guide::Tree(tree),
            None => Guide::Solve {
                hard: ctx.hard,
                max_guesses: wordle_tree::game::GAME_LIMIT,
                opener: self.opener,
            },
        }
    }

    /// What the advice comes from, for messages.
    fn describe(&self) -> String {
        match &self.tree {
            Some((_, p)) => format!("tree {}", p.display()),
            None => "no tree (every state solved exactly)".into(),
        }
    }
}

/// The game, the guide, the stop flag and the time limit, with the formatting shared
/// by the commands.
struct Helper<'a> {
    game: &'a Game,
    guide: Guide<'a>,
    ctx: &'a Ctx<'a>,
    time_limit: Option<Duration>,
}

impl<'a> Helper<'a> {
    fn new(ctx: &'a Ctx<'a>, loaded: &'a Loaded, time_limit: Option<Duration>) -> Helper<'a> {
        Helper {
            game: ctx.game,
            guide: loaded.guide(ctx),
            ctx,
            time_limit,
        }
    }

    fn advise(&self, steps: &[Step]) -> Result<Advice, AdviceError> {
        // Most states answer in milliseconds; a large one off the tree (hundreds of
        // candidates after a poor opener) is an opener-sized exact solve, so after a
        // moment a person at a terminal is told what is going on.
        let (done, wait) = std::sync::mpsc::channel::<()>();
        let advice = std::thread::scope(|scope| {
            if !self.ctx.quiet && std::io::stderr().is_terminal() {
                scope.spawn(move || {
                    if wait.recv_timeout(std::time::Duration::from_millis(1500))
                        == Err(std::sync::mpsc::RecvTimeoutError::Timeout)
                    {
                        let what = match self.guide {
                            Guide::Tree(_) => "this state exactly off the stored tree",
                            Guide::Solve { .. } if steps.is_empty() => {
                                "the opener exactly (no stored tree: every allowed guess is \
                                 searched over every answer)"
                            }
                            Guide::Solve { .. } => "this state exactly (no stored tree)",
                        };
                        match self.time_limit {
                            None => errln!(
                                "solving {what}; hundreds of candidates can take minutes \
                                 (Ctrl-C stops; --time-limit SECONDS settles for the best \
                                 guess found)"
                            ),
                            Some(limit) => errln!(
                                "solving {what}; after {} s the best guess found is given \
                                 (Ctrl-C stops)",
                                limit.as_secs_f64()
                            ),
                        }
                    }
                });
            }
            // (A deadline past what `Instant` can hold is no deadline.)
            let deadline = self
                .time_limit
                .and_then(|limit| Instant::now().checked_add(limit));
            let advice = play::advise(self.game, self.guide, steps, self.ctx.stop, deadline);
            let _ = done.send(());
            advice
        })?;
        if self.ctx.stop.load(Ordering::Relaxed) {
            return Err(AdviceError::Solve(
                wordle_tree::search::SolveError::Interrupted,
            ));
        }
        Ok(advice)
    }

    /// The player's own opener, when it is not the tree's: the first guess played
    /// (or, before any, the chosen `--opener`).
    fn own_opener(&self, steps: &[Step]) -> Option<GuessId> {
        let first = steps.first().map(|s| s.guess);
        match self.guide {
            Guide::Tree(t) => first.filter(|&g| g != t.root().guess),
            Guide::Solve { opener, .. } => first.or(opener).filter(|_| opener.is_some()),
        }
    }

    /// The exact value and rank of the player's own opener from the opener table,
    /// when there is one (`--table`, or shipped for the lists and mode): the line to
    /// print and its JSON.
    fn opener_value(&self, steps: &[Step]) -> Result<OpenerValue> {
        let Some(g) = self.own_opener(steps) else {
            return Ok(None);
        };
        let Some((table, file)) = super::opener_table(self.ctx)? else {
            return Ok(None);
        };
        let w = self.game.guesses[g.index()];
        Ok(Some((
            super::opener_line(&table, &file, w),
            super::opener_json(&table, &file, w),
        )))
    }

    fn word(&self, g: GuessId) -> String {
        self.game.guesses[g.index()].to_string()
    }

    fn words(&self, ids: &[AnswerId]) -> Vec<String> {
        ids.iter()
            .map(|&a| self.game.answers[a.index()].to_string())
            .collect()
    }

    /// One line saying why and how a move was solved off the tree (or with no tree),
    /// if it was.
    fn off_tree_note(&self, steps: &[Step], m: &Move, ms: f64) -> Option<String> {
        let Source::Solved {
            off,
            opener_given,
            proof,
            ..
        } = m.source
        else {
            return None;
        };
        let what = match off {
            Some((step, play::OffTree::OtherGuess { played, tree })) => format!(
                "off the stored tree at step {step} (the tree plays {} there, {} was played)",
                self.word(tree),
                self.word(played)
            ),
            Some((step, why @ play::OffTree::NoBranch)) => {
                format!("off the stored tree at step {step} ({why})")
            }
            None if opener_given => format!(
                "no stored tree, opener {} as chosen (its plan is exact for it, not a proof \
                 that it is the best opener)",
                self.word(m.guess)
            ),
            None => "no stored tree".to_string(),
        };
        let mut note = match proof {
            Proof::Exact => format!("{what}: solved exactly in {ms:.0} ms"),
            Proof::Unproven {
                lower_bound,
                examined,
                guesses,
            } => {
                let n = m.candidates.len() as f64;
                format!(
                    "{what}: time limit reached, best guess found in {ms:.0} ms, NOT PROVEN \
                     OPTIMAL: {examined} of {guesses} guesses settled; this plan takes {} \
                     guesses in total ({:.4} on average), the optimum at least {lower_bound} \
                     ({:.4})",
                    m.cost,
                    m.cost as f64 / n,
                    lower_bound as f64 / n
                )
            }
        };
        if let Some(w) = m.limit_warning(self.guide.max_guesses() as usize - steps.len()) {
            note += &format!("; {w}");
        }
        Some(note)
    }
}

pub fn next(ctx: &Ctx, args: &NextArgs) -> Result<ExitCode> {
    let game = ctx.game;
    let texts: Vec<&str> = args.history.iter().map(|s| s.as_str()).collect();
    let steps = play::parse_history(game, &texts, None)?;
    let loaded = Loaded::new(ctx, args.tree.as_deref(), args.opener.as_deref())?;
    let helper = Helper::new(ctx, &loaded, args.time_limit);
    let opener_value = helper.opener_value(&steps)?;
    let t = Instant::now();
    let advice = helper.advise(&steps)?;
    let ms = t.elapsed().as_secs_f64() * 1e3;
    let history: Vec<String> = steps.iter().map(|&s| play::token(game, s)).collect();
    match advice {
        Advice::Solved { answer, guesses } => {
            let answer = game.answers[answer.index()].to_string();
            if args.format.is_json() {
                let v = serde_json::json!({
                    "history": history, "found": true, "answer": answer, "guesses": guesses,
                });
                print_json(v, &opener_value)?;
            } else {
                print_opener_line(&opener_value)?;
                outln!("solved: the answer is {answer}, found in {guesses} guesses");
            }
        }
        Advice::Play(m) => {
            let note = helper.off_tree_note(&steps, &m, ms);
            // What the opener table proves about the tree, and at the root whether it
            // proves another opener better.
            let table = match &loaded.tree {
                Some(_) if m.source == Source::Tree => super::opener_table(ctx)?,
                _ => None,
            };
            let table = table.as_ref().map(|(t, _)| t);
            let trust = loaded
                .tree
                .as_ref()
                .map(|(tree, _)| wordle_tree::players::review::tree_trust(game, tree, table));
            let opener_note = match &loaded.tree {
                Some((tree, _)) if steps.is_empty() && m.source == Source::Tree => {
                    wordle_tree::players::review::better_opener_note(game, tree, table)
                }
                _ => None,
            };
            let guess = helper.word(m.guess);
            let words = helper.words(&m.candidates);
            if args.format.is_json() {
                // From the search: whether it proved its guess optimal for the state,
                // and the least cost it proved (the plan's own when proved); with a
                // chosen opener neither is claimed (null bound, not proven).
                let (source, step, lower_bound, proven) = match m.source {
                    // A tree is optimal from its opener only where the opener
                    // table proves it (`review::tree_trust`): then proved below the
                    // root, and at the root where the opener is proved best.
                    Source::Tree => {
                        let proven = trust.is_some_and(|t| t.proves(steps.len()));
                        ("tree", None, proven.then_some(m.cost), Some(proven))
                    }
                    Source::Solved {
                        off,
                        opener_given,
                        proof,
                        ..
                    } => (
                        "search",
                        off.map(|(step, _)| step),
                        match proof {
                            _ if opener_given => None,
                            Proof::Exact => Some(m.cost),
                            Proof::Unproven { lower_bound, .. } => Some(lower_bound),
                        },
                        Some(m.source.proven_optimal()),
                    ),
                };
                let v = serde_json::json!({
                    "history": history,
                    "found": false,
                    "within_limit": m.source.within_limit(),
                    "opener_note": opener_note,
                    "guess": guess,
                    "candidates": m.candidates.len(),
                    "words": words,
                    "expected_guesses": m.expected(),
                    "cost": m.cost,
                    "worst_guesses": m.worst,
                    "source": source,
                    "off_tree_step": step,
                    "proven_optimal": proven,
                    "lower_bound": lower_bound,
                    "note": note,
                });
                print_json(v, &opener_value)?;
            } else {
                print_opener_line(&opener_value)?;
                if let Some(note) = note {
                    outln!("{note}");
                }
                if let Some(n) = &opener_note {
                    outln!("note: {n}");
                }
                outln!("next guess: {guess}");
                if words.len() <= 10 {
                    outln!("candidates left: {}: {}", words.len(), words.join(" "));
                } else {
                    outln!("candidates left: {}", words.len());
                }
                outln!(
                    "expected guesses still to come: {:.4} (average over the candidates, {guess} included; at most {})",
                    m.expected(),
                    m.worst
                );
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The opener's value from the table (`next`'s `(line, JSON)`), as a text line and
/// as a field of the answer's JSON.
type OpenerValue = Option<(String, serde_json::Value)>;

/// `next --json`'s answer, with the opener's value when known.
fn print_json(mut v: serde_json::Value, opener_value: &OpenerValue) -> Result<()> {
    if let Some((_, json)) = opener_value {
        v["opener_value"] = json.clone();
    }
    outln!("{v}");
    Ok(())
}

/// `next`'s first line: the opener's value when known.
fn print_opener_line(opener_value: &OpenerValue) -> Result<()> {
    if let Some((line, _)) = opener_value {
        outln!("{line}");
    }
    Ok(())
}

/// The `paths` line of one answer: `salet BBBBB1 courd BBBBB2 ... whiff GGGGG4`.
fn path_line(game: &Game, steps: &[Step]) -> String {
    steps
        .iter()
        .enumerate()
        .map(|(i, s)| format!("{} {}{}", game.guesses[s.guess.index()], s.feedback, i + 1))
        .collect::<Vec<_>>()
        .join(" ")
}

fn answer_id(game: &Game, s: &str) -> Result<AnswerId> {
    let g = allowed_guess(game, s, "answer")?;
    g.as_answer(game.n_answers()).with_context(|| {
        format!(
            "'{}' is allowed as a guess but is not a possible answer of the {} lists",
            game.guesses[g.index()],
            game.name
        )
    })
}

pub fn path(ctx: &Ctx, args: &PathArgs) -> Result<ExitCode> {
    let loaded = Loaded::new(ctx, args.tree.as_deref(), args.opener.as_deref())?;
    let a = answer_id(ctx.game, &args.answer)?;
    let (steps, by) = match &loaded.tree {
        Some((tree, file)) => {
            let steps = play::path(ctx.game, tree.root(), a).with_context(|| {
                format!(
                    "{}: the tree does not reach '{}'",
                    file.display(),
                    ctx.game.answers[a.index()]
                )
            })?;
            (steps, file.display().to_string())
        }
        None => {
            let helper = Helper::new(ctx, &loaded, args.time_limit);
            (
                exact_path(&helper, a)?,
                "exact search (no stored tree)".to_string(),
            )
        }
    };
    outln!("{}", path_line(ctx.game, &steps));
    outln!(
        "{}: found in {} guesses by {by}",
        ctx.game.answers[a.index()],
        steps.len()
    );
    Ok(ExitCode::SUCCESS)
}

/// The steps the advice plays against `answer`, ending all green.
fn exact_path(helper: &Helper, answer: AnswerId) -> Result<Vec<Step>> {
    let word = helper.game.answers[answer.index()];
    let mut steps: Vec<Step> = Vec::new();
    loop {
        match helper.advise(&steps)? {
            Advice::Solved { .. } => return Ok(steps),
            Advice::Play(m) => steps.push(Step {
                guess: m.guess,
                feedback: Feedback::compute(helper.game.guesses[m.guess.index()], word),
            }),
        }
    }
}

const PLAY_HELP: &str =
    "After each suggestion, type the feedback the game showed for it: five letters,
G green, Y yellow, B gray (x, w, '.' or '-' are gray too; or 2/1/0; or the squares
🟩 🟨 ⬛ ⬜, high contrast 🟧 🟦), e.g. BYBBG.
If you played another word, type it with its feedback: 'crane BBYBB' or 'crane:BBYBB'.
'undo' takes back the last guess, 'quit' or Ctrl-D ends.";

/// The end of `play`: the game as `review` reads it, and the command that reviews it.
fn review_command(ctx: &Ctx, steps: &[Step]) -> String {
    let game = ctx.game;
    let mut cmd = String::from("wordle-tree");
    if game.name == "custom" {
        cmd += super::LIST_FILES.get().map_or("", |s| s.as_str());
    } else if game.name != "wordle" {
        cmd += &format!(" --list {}", game.name);
    }
    if ctx.hard {
        cmd += " --hard";
    }
    format!("{cmd} review {}", play::tokens(game, steps))
}

pub fn play(ctx: &Ctx, args: &PlayArgs) -> Result<ExitCode> {
    let game = ctx.game;
    let loaded = Loaded::new(ctx, args.tree.as_deref(), args.opener.as_deref())?;
    let helper = Helper::new(ctx, &loaded, args.time_limit);
    let hard = helper.guide.hard();
    if let Some(answer) = &args.answer {
        return play_itself(ctx, &helper, answer_id(game, answer)?);
    }
    // Ctrl-C only sets the stop flag (for the searches); a blocked read would ignore
    // it, so a watcher ends the session. Nothing is written to files here.
    let stop = ctx.stop;
    std::thread::spawn(move || loop {
        if stop.load(Ordering::Relaxed) {
            let _ = writeln!(std::io::stdout());
            std::process::exit(130);
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    });
    outln!(
        "play: lists {}, {} mode, {}",
        game.name,
        mode_name(hard),
        loaded.describe()
    );
    outln!("{PLAY_HELP}");
    let mut steps: Vec<Step> = Vec::new();
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut line = Vec::new();
    // The own opener whose exact value was last printed.
    let mut told: Option<GuessId> = None;
    loop {
        let own = helper.own_opener(&steps);
        if own.is_some() && own != told {
            if let Some((text, _)) = helper.opener_value(&steps)? {
                outln!("{text}");
            }
            told = own;
        }
        let t = Instant::now();
        let m = match helper.advise(&steps) {
            Ok(Advice::Play(m)) => m,
            Ok(Advice::Solved { answer, guesses }) => {
                outln!(
                    "solved: {} in {guesses} guesses",
                    game.answers[answer.index()]
                );
                outln!("game: {}", play::tokens(game, &steps));
                outln!("review it: {}", review_command(ctx, &steps));
                return Ok(ExitCode::SUCCESS);
            }
            Err(AdviceError::OutOfGuesses(n)) => {
                outln!("all {n} guesses are used without finding the answer: game over");
                outln!("game: {}", play::tokens(game, &steps));
                outln!("review it: {}", review_command(ctx, &steps));
                return Ok(ExitCode::SUCCESS);
            }
            Err(e) => return Err(e.into()),
        };
        if let Some(note) = helper.off_tree_note(&steps, &m, t.elapsed().as_secs_f64() * 1e3) {
            outln!("{note}");
        }
        let guess = helper.word(m.guess);
        let words = helper.words(&m.candidates);
        outln!(
            "guess {}: {guess}   ({} candidate(s), {:.3} guesses expected)",
            steps.len() + 1,
            words.len(),
            m.expected()
        );
        if words.len() <= 10 {
            outln!("  candidates: {}", words.join(" "));
        }
        loop {
            out!("feedback for {guess}: ");
            super::out::flush()?;
            line.clear();
            if input.read_until(b'\n', &mut line)? == 0 {
                outln!();
                outln!("end of input: bye");
                if !steps.is_empty() {
                    outln!("game so far: {}", play::tokens(game, &steps));
                    outln!("review it: {}", review_command(ctx, &steps));
                }
                return Ok(ExitCode::SUCCESS);
            }
            let text = String::from_utf8_lossy(&line);
            match read_step(game, &text, m.guess) {
                Reply::Step(step) => {
                    let mut more = steps.clone();
                    more.push(step);
                    // Check the history before taking it: a typo gets a new prompt.
                    match play::replay(game, &more, hard) {
                        Ok(_) => {
                            steps = more;
                            break;
                        }
                        Err(e) => outln!("{e}; try again"),
                    }
                }
                Reply::Undo => {
                    if steps.pop().is_some() {
                        outln!("took back the last guess");
                        break;
                    }
                    outln!("nothing to take back");
                }
                Reply::Quit => {
                    if !steps.is_empty() {
                        outln!("game so far: {}", play::tokens(game, &steps));
                        outln!("review it: {}", review_command(ctx, &steps));
                    }
                    return Ok(ExitCode::SUCCESS);
                }
                Reply::Help => outln!("{PLAY_HELP}"),
                Reply::Bad(why) => outln!("{why}; type 'help' for help"),
            }
        }
    }
}

enum Reply {
    Step(Step),
    Undo,
    Quit,
    Help,
    Bad(String),
}

/// Reads one line of `play`: a feedback for `suggested`, or a word and its feedback.
fn read_step(game: &Game, text: &str, suggested: GuessId) -> Reply {
    let spaced = text.replace(':', " ");
    let parts: Vec<&str> = spaced.split_whitespace().collect();
    match parts.as_slice() {
        [] => Reply::Bad("empty line".into()),
        [w] if ["undo", "u"].contains(&w.to_ascii_lowercase().as_str()) => Reply::Undo,
        [w] if ["quit", "q", "exit"].contains(&w.to_ascii_lowercase().as_str()) => Reply::Quit,
        [w] if ["help", "h", "?"].contains(&w.to_ascii_lowercase().as_str()) => Reply::Help,
        [f] => match Feedback::parse(f) {
            Ok(feedback) => Reply::Step(Step {
                guess: suggested,
                feedback,
            }),
            // A word the player typed alone: ask for its feedback too.
            Err(_)
                if wordle_tree::game::word::Word::parse(f)
                    .is_ok_and(|w| game.guess_id(w).is_some()) =>
            {
                Reply::Bad(format!(
                    "'{f}' is not a feedback; if you played it, add its feedback: '{f} BYBBG'"
                ))
            }
            Err(e) => Reply::Bad(e.to_string()),
        },
        [w, f] => match play::parse_step(game, &format!("{w}:{f}")) {
            Ok(step) => Reply::Step(step),
            Err(e) => Reply::Bad(e.to_string()),
        },
        _ => Reply::Bad(format!(
            "'{}' is neither a feedback nor 'WORD FEEDBACK'",
            echo(text.trim())
        )),
    }
}

/// `play --answer W`: follows the advice against a known answer and prints each step.
fn play_itself(ctx: &Ctx, helper: &Helper, answer: AnswerId) -> Result<ExitCode> {
    let game = helper.game;
    let word = game.answers[answer.index()];
    let mut steps: Vec<Step> = Vec::new();
    if let Some((text, _)) = helper.opener_value(&steps)? {
        outln!("{text}");
    }
    loop {
        match helper.advise(&steps)? {
            Advice::Solved { guesses, .. } => {
                outln!("solved: {word} in {guesses} guesses");
                outln!("game: {}", play::tokens(game, &steps));
                outln!("review it: {}", review_command(ctx, &steps));
                return Ok(ExitCode::SUCCESS);
            }
            Advice::Play(m) => {
                let feedback = Feedback::compute(game.guesses[m.guess.index()], word);
                outln!(
                    "guess {}: {} {feedback}   ({} candidate(s), {:.3} guesses expected)",
                    steps.len() + 1,
                    helper.word(m.guess),
                    m.candidates.len(),
                    m.expected()
                );
                steps.push(Step {
                    guess: m.guess,
                    feedback,
                });
            }
        }
    }
}
