//! The `review` command: an exact review of a played game ([`wordle_tree::players::review`]),
//! printed as text or JSON. The shipped tree for the lists and mode is used while the
//! game stays on it (no tree on custom lists unless `--tree` is given: then every
//! state is solved).

use super::next::{load_tree_or_shipped, parse_seconds};
use super::{mode_name, Ctx};
use anyhow::Result;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};
use wordle_tree::players::play;
use wordle_tree::players::review::{self, Options, Range, Review, Value};
use wordle_tree::search::SolveError;

#[derive(clap::Args, Debug)]
pub struct ReviewArgs {
    /// Tree file (default: the shipped tree of the lists and mode, as for `next`).
    #[arg(long)]
    tree: Option<PathBuf>,
    #[command(flatten)]
    pub format: super::out::FormatArgs,
    /// The game's answer: the guesses alone are then enough (their feedback is
    /// computed), and any feedback given is checked against it.
    #[arg(long, value_name = "WORD")]
    answer: Option<String>,
    /// Stop searching after about this many seconds: values not proved by then are
    /// shown as the range proved (default: no limit, always exact).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    time_limit: Option<Duration>,
    /// List every guess tied for best in states of at most 64 candidates (normal mode;
    /// costs a search per state).
    #[arg(long)]
    ties: bool,
    /// The game: salet:BYBBY tiara:YBBBG ..., or pairs, or a pasted share text with
    /// the guesses, or (with --answer) just the guesses (see below).
    history: Vec<String>,
}

/// `review --help`'s examples, after the history syntax.
pub const REVIEW_EXAMPLES: &str = concat!(
    "Examples:
  wordle-tree review salet:BYBBY tiara:YBBBG quota:GGGGG
  wordle-tree review --answer quota salet tiara quota        feedback from the answer
  wordle-tree review salet tiara quota \"$(cat share.txt)\"     a pasted share text
  wordle-tree review --format json salet:BYBBY tiara:YBBBG   a game not finished yet
  wordle-tree --list nyt2023 review --answer adieu crane adieu

",
    include_str!("../players/history_syntax.txt")
);

/// `3.4212`, or `3.4000..3.4212 (range, not proved)`.
fn value_text(v: Value) -> String {
    if v.is_exact() {
        format!("{:.4}", v.expected())
    } else {
        format!("{:.4}..{:.4} (not proved)", v.lower(), v.expected())
    }
}

fn range_text(r: Range, signed: bool) -> String {
    let f = |x: f64| {
        if signed {
            format!("{x:+.4}")
        } else {
            format!("{x:.4}")
        }
    };
    if r.is_exact() {
        f(r.value)
    } else {
        format!(
            "{} (proved range {}..{})",
            f(r.value),
            f(r.lower),
            f(r.upper)
        )
    }
}

pub fn run(ctx: &Ctx, args: &ReviewArgs) -> Result<ExitCode> {
    let game = ctx.game;
    if args.history.is_empty() {
        anyhow::bail!(
            "nothing to review: give the game, e.g. `wordle-tree review salet:BYBBY tiara:YBBBG quota:GGGGG`, or its guesses and answer, `wordle-tree review --answer quota salet tiara quota`"
        );
    }
    let texts: Vec<&str> = args.history.iter().map(|s| s.as_str()).collect();
    let steps = play::parse_history(game, &texts, args.answer.as_deref())?;
    let tree = if game.name == "custom" && args.tree.is_none() {
        None
    } else {
        Some(load_tree_or_shipped(ctx, args.tree.as_deref())?)
    };
    // The opener table (`--table`, else the shipped one) proves the openers' values,
    // and a tree optimal only where the tree's total is its opener's there.
    let table = super::opener_table(ctx)?;
    if let (Some((t, tfile)), Some((tree, file)), None) = (&table, &tree, &args.tree) {
        // A shipped tree and the table must agree on its opener.
        let all = game.all_answer_ids();
        if let Some((total, _)) = play::subtree_depths(game, tree.root(), &all) {
            t.check_tree(tfile, file, game.guesses[tree.root().guess.index()], total)?;
        }
    }
    let trust = tree
        .as_ref()
        .map(|(t, _)| review::tree_trust(game, t, table.as_ref().map(|(t, _)| t)))
        .unwrap_or_default();
    let options = Options {
        deadline: args.time_limit.and_then(|l| Instant::now().checked_add(l)),
        ties: args.ties,
        tree_optimal: trust.optimal,
        opener_table: table.as_ref().map(|(t, _)| t),
    };
    let own_opener = steps
        .first()
        .filter(|s| tree.as_ref().is_none_or(|(t, _)| t.root().guess != s.guess));
    let r = review::review(
        game,
        tree.as_ref().map(|(t, _)| t),
        ctx.hard,
        6,
        &steps,
        ctx.stop,
        options,
    );
    if ctx.stop.load(Ordering::Relaxed) {
        return Err(SolveError::Interrupted.into());
    }
    let r = r?;
    if args.format.is_json() {
        outln!("{}", r.to_json(game));
        return Ok(ExitCode::SUCCESS);
    }
    let mut source = match &tree {
        Some((_, p)) if trust.optimal => format!("tree {}", p.display()),
        Some((_, p)) => format!(
            "tree {} not used: no complete opener table proves it optimal, so every state is solved",
            p.display()
        ),
        None => "no tree: every state solved".to_string(),
    };
    if let (Some(s), Some((t, p))) = (own_opener, &table) {
        let w = game.guesses[s.guess.index()];
        if t.get(w).is_some() {
            source += &format!(", opener {w} from {}", p.display());
        }
    }
    outln!(
        "review: lists {}, {} mode, {source}",
        game.name,
        mode_name(r.hard)
    );
    print_text(game, &r)?;
    Ok(ExitCode::SUCCESS)
}

fn print_text(game: &wordle_tree::Game, r: &Review) -> Result<()> {
    let word = |g: wordle_tree::game::GuessId| game.guesses[g.index()].to_string();
    for (i, s) in r.steps.iter().enumerate() {
        let n = s.candidates.len();
        let list = if n <= 10 {
            format!(
                ": {}",
                s.candidates
                    .iter()
                    .map(|&a| game.answers[a.index()].to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            )
        } else {
            String::new()
        };
        outln!(
            "step {}: {}   {n} candidate(s){list}",
            i + 1,
            play::token(game, s.step)
        );
        let best: Vec<String> = s.best.iter().map(|&g| word(g)).collect();
        let what = match (s.best_proved, s.ties_complete, s.best_source) {
            (true, _, review::BestSource::Table) => {
                "optimal: first in the complete opener table; other openers may tie"
            }
            (true, true, _) => "optimal; all tied guesses listed",
            (true, false, _) => "optimal; other guesses may tie",
            (false, ..) => "best known, not proved optimal",
        };
        outln!(
            "  best:   {}: {} guesses expected ({what})",
            best.join(", "),
            value_text(s.best_value)
        );
        let verdict = if s.is_optimal() {
            "optimal, 0 guesses lost".to_string()
        } else if s.fails_limit {
            format!(
                "not optimal: it may not find the answer within the {} guess(es) left, where the best does ({} guesses lost at least)",
                s.guesses_left,
                range_text(s.lost(), false)
            )
        } else if s.best_proved {
            format!("{} guesses lost", range_text(s.lost(), false))
        } else {
            format!(
                "{} guesses lost against the best known",
                range_text(s.lost(), false)
            )
        };
        outln!(
            "  played: {} {} guesses expected: {verdict}{}",
            word(s.step.guess),
            value_text(s.played),
            if s.beyond_limit && !s.fails_limit {
                " (some outcomes need more guesses than the game has left)"
            } else {
                ""
            }
        );
        let after = if s.step.feedback.is_all_green() {
            "found".to_string()
        } else {
            format!("{} guesses still needed", value_text(s.after))
        };
        outln!(
            "  luck:   {} candidate(s) left (expected {:.1}); {after}, {} on average: {} guesses",
            s.left,
            s.expected_left,
            range_text(s.average_after(), false),
            range_text(s.luck(), true)
        );
    }
    if let Some(rest) = &r.rest {
        let best: Vec<String> = rest.best.iter().map(|&g| word(g)).collect();
        outln!(
            "next: {} candidate(s); best guess {} ({} guesses expected)",
            rest.candidates.len(),
            best.join(", "),
            value_text(rest.value)
        );
    }
    let total = r.total();
    let actual = if r.found {
        format!("{} guesses", r.steps.len())
    } else {
        format!(
            "{} expected ({} played, the rest with the best play)",
            range_text(total, false),
            r.steps.len()
        )
    };
    outln!(
        "summary: optimal from the start {} guesses expected; lost to choices {}; luck {}; total {actual}",
        value_text(r.optimal_start()),
        range_text(r.lost(), false),
        range_text(r.luck(), true),
    );
    Ok(())
}
