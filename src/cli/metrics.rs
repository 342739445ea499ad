//! The `metrics` command: each one-level metric of `rank`, and each heuristic player of
//! `simulate`, against the exact totals of the opener table of the lists and mode (see
//! `wordle_tree::analysis::metrics`), as text, CSV or JSON, with optional plots
//! (`wordle_tree::analysis::plot`).
//!
//! Without a table for the lists and mode the command fails with one line naming the
//! table it needs (exit 2). A partial table is used for what it covers, and every
//! output says so: "PARTIAL", the openers covered, never "complete".

use super::Ctx;
use anyhow::{Context, Result};
use clap::ValueEnum;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use wordle_tree::analysis::metrics::{metric_name, Pick, Report, Truth, BEST_OF, TOP_K};
use wordle_tree::analysis::plot;
use wordle_tree::game::mode_name;
use wordle_tree::game::table::FeedbackTable;
use wordle_tree::tree::file;

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum MetricsFormat {
    Text,
    Csv,
    Json,
}

#[derive(clap::Args, Debug)]
pub struct MetricsArgs {
    /// Output: text for people, csv (one row per metric and per player), or json.
    #[arg(long, value_enum, default_value = "text")]
    format: MetricsFormat,
    /// Leave out the heuristic players (their simulations take most of the time).
    #[arg(long)]
    no_players: bool,
    /// Write every metric against the exact total (one panel per metric) to FILE
    /// (.svg or .png).
    #[arg(long, value_name = "FILE")]
    plot: Option<PathBuf>,
    /// Write the histogram of exact totals, each metric's favourite marked, to FILE.
    #[arg(long, value_name = "FILE")]
    plot_totals: Option<PathBuf>,
    /// Write the guess distributions of the heuristic players (and of --tree) to FILE.
    #[arg(long, value_name = "FILE", conflicts_with = "no_players")]
    plot_depths: Option<PathBuf>,
    /// A tree file (e.g. the shipped optimal tree) whose guess distribution
    /// --plot-depths shows beside the players'.
    #[arg(long, value_name = "FILE", requires = "plot_depths")]
    tree: Option<PathBuf>,
}

pub fn run(ctx: &Ctx, args: &MetricsArgs) -> Result<ExitCode> {
    let game = ctx.game;
    let t = Instant::now();
    let (table, path) = super::required_opener_table(ctx, "metrics")?;
    // The tree is read before the long part, so a bad file fails at once.
    let tree = args
        .tree
        .as_deref()
        .map(|p| file::load(p, game).map(|tree| (p, tree)))
        .transpose()?;
    let feedback = FeedbackTable::build(game);
    let report = Report::build(game, &feedback, &table, !args.no_players).with_context(|| {
        format!(
            "{}: no opener with an exact total ({} of {} openers solved), nothing to compare with",
            path.display(),
            table.solved(),
            table.openers
        )
    })?;
    match args.format {
        MetricsFormat::Text => print_text(&report, &path)?,
        MetricsFormat::Csv => print_csv(&report)?,
        MetricsFormat::Json => {
            let mut v = serde_json::to_value(&report)?;
            v["table"] = path.display().to_string().into();
            v["conventions"] = CONVENTIONS.into();
            outln!("{}", serde_json::to_string_pretty(&v)?)
        }
    }
    if let Some(p) = &args.plot {
        plot::scatter(&report, p)?;
        errln!("plot written to {}", p.display());
    }
    if let Some(p) = &args.plot_totals {
        plot::totals(&report, p)?;
        errln!("plot written to {}", p.display());
    }
    if let Some(p) = &args.plot_depths {
        let mut series: Vec<(String, Vec<usize>)> = Vec::new();
        if let Some((tp, tree)) = &tree {
            let replay = tree.verify(game);
            let opener = game.guesses[tree.root().guess.index()];
            let name = tp
                .file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into());
            series.push((
                format!("tree {name} ({opener}): {}", replay.total()),
                replay.histogram(),
            ));
        }
        for p in &report.players {
            let beyond = match p.over_limit {
                0 => String::new(),
                n => format!(", {n} beyond {}", report.max_guesses),
            };
            series.push((
                format!(
                    "{} player ({}): {}{beyond}",
                    metric_name(p.metric),
                    p.opener,
                    p.total
                ),
                p.histogram.clone(),
            ));
        }
        let caption = format!(
            "Guess distributions, {} lists, {} mode",
            report.list,
            mode_name(report.hard)
        );
        plot::depths(&caption, &series, p)?;
        errln!("plot written to {}", p.display());
    }
    if matches!(args.format, MetricsFormat::Text) {
        outln!("time {:.3} s", t.elapsed().as_secs_f64());
    }
    Ok(ExitCode::SUCCESS)
}

/// The conventions, as the text and JSON outputs state them.
const CONVENTIONS: &str = "correlations compare each metric's own value (ties kept as ties: Spearman of mid-ranks, Kendall tau-b) with the exact total; openers that cannot finish rank after every exact one, tied with each other ('exact only' leaves them out); top-K: how many of the metric's first K (rank's order) have an exact rank of at most K; over optimum: guesses over all answers more than the best opener's optimal tree";

fn opt(v: Option<f64>) -> String {
    v.map_or("-".into(), |v| format!("{v:.3}"))
}

/// `7962 (+42, rank 12 of 12972)` or `cannot finish within 6`.
fn truth_text(r: &Report, t: Truth) -> String {
    match t {
        Truth::Exact { total, rank, tied } => format!(
            "{total} (+{}, rank {rank}{}{})",
            total - r.optimum,
            match tied {
                0 | 1 => String::new(),
                2 => ", tied with 1 other".into(),
                n => format!(", tied with {} others", n - 1),
            },
            if r.complete {
                String::new()
            } else {
                format!(" among the {} solved", r.solved)
            }
        ),
        Truth::CannotFinish => format!("cannot finish within {}", r.max_guesses),
        Truth::Unsolved => "not in the (partial) table".into(),
    }
}

fn print_text(r: &Report, path: &Path) -> Result<()> {
    outln!(
        "one-level metrics against the exact totals: lists {}, {} mode, at most {} guesses, {} answers",
        r.list,
        mode_name(r.hard),
        r.max_guesses,
        r.answers
    );
    if r.complete {
        outln!(
            "table {}: complete, all {} openers ({} exact, {} cannot finish within {})",
            path.display(),
            r.openers,
            r.exact,
            r.cannot_finish,
            r.max_guesses
        );
    } else {
        outln!(
            "table {}: PARTIAL, {} of {} openers ({} exact, {} cannot finish within {}); every figure below covers only these openers, not all of them",
            path.display(),
            r.solved,
            r.openers,
            r.exact,
            r.cannot_finish,
            r.max_guesses
        );
    }
    let best: Vec<String> = r.best_openers.iter().map(|w| w.to_string()).collect();
    outln!(
        "optimum {} ({:.4} per answer), by {}",
        r.optimum,
        r.optimum as f64 / r.answers as f64,
        best.join(", ")
    );
    outln!("conventions: {CONVENTIONS}");
    outln!();
    outln!(
        "{:<10}  {:>8}  {:>7}  {:>13}  {:>12}  {:>6}  {:>7}  {:>8}",
        "metric",
        "Spearman",
        "Kendall",
        "Spearman(ex.)",
        "Kendall(ex.)",
        "top-10",
        "top-100",
        "top-1000"
    );
    for m in &r.metrics {
        let ov = |k: usize| {
            m.overlap
                .iter()
                .find(|o| o.0 == k)
                .map_or("-".into(), |o| o.1.to_string())
        };
        outln!(
            "{:<10}  {:>8}  {:>7}  {:>13}  {:>12}  {:>6}  {:>7}  {:>8}",
            metric_name(m.metric),
            opt(m.spearman),
            opt(m.kendall),
            opt(m.spearman_exact),
            opt(m.kendall_exact),
            ov(TOP_K[0]),
            ov(TOP_K[1]),
            ov(TOP_K[2])
        );
    }
    outln!();
    outln!(
        "each metric's favourite (its first opener), exact total (+ over the optimum, exact rank):"
    );
    for m in &r.metrics {
        outln!(
            "  {:<10}  {}  {}",
            metric_name(m.metric),
            m.favourite.opener,
            truth_text(r, m.favourite.truth)
        );
    }
    outln!("the best exact opener among each metric's first {BEST_OF}:");
    for m in &r.metrics {
        let text = match &m.best_of_top {
            Some(Pick {
                opener,
                metric_rank,
                truth,
                ..
            }) => format!("{opener} (its #{metric_rank})  {}", truth_text(r, *truth)),
            None => "none with an exact total".into(),
        };
        outln!("  {:<10}  {text}", metric_name(m.metric));
    }
    if !r.players.is_empty() {
        outln!();
        outln!(
            "heuristic players of `simulate` ({} mode), each from its own opener:",
            mode_name(r.hard)
        );
        outln!(
            "  {:<10}  {:<6}  {:>6}  {:>7}  {:>9}  {:>12}  {:>10}  {:>12}",
            "player",
            "opener",
            "total",
            "average",
            format!("over {}", r.max_guesses),
            "opener exact",
            "over own",
            "over optimum"
        );
        for p in &r.players {
            let (own, over_own) = match (p.opener_truth, p.over_own_opener) {
                (Truth::Exact { total, .. }, Some(d)) => (total.to_string(), format!("+{d}")),
                (Truth::CannotFinish, _) => ("can't end".into(), "-".into()),
                _ => ("?".into(), "?".into()),
            };
            outln!(
                "  {:<10}  {:<6}  {:>6}  {:>7.4}  {:>9}  {:>12}  {:>10}  {:>12}",
                metric_name(p.metric),
                p.opener.to_string(),
                p.total,
                p.total as f64 / r.answers as f64,
                p.over_limit,
                own,
                over_own,
                format!("+{}", p.over_optimum)
            );
        }
        outln!(
            "  (over {}: answers the player needs more guesses for; opener exact: the optimal total from the player's opener; can't end: no tree from it finds every answer within {})",
            r.max_guesses,
            r.max_guesses
        );
    }
    Ok(())
}

fn print_csv(r: &Report) -> Result<()> {
    outln!("list,mode,complete,openers_covered,openers,metric,spearman,kendall,spearman_exact,kendall_exact,top10,top100,top1000,favourite,favourite_total,favourite_rank,favourite_over_optimum,best_of_top10,best_of_top10_place,best_of_top10_total,player_opener,player_total,player_over_limit,player_opener_total,player_over_own_opener,player_over_optimum,optimum");
    let num = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v:.6}"));
    let total = |t: Truth| match t {
        Truth::Exact { total, .. } => total.to_string(),
        Truth::CannotFinish => "cannot finish".into(),
        Truth::Unsolved => String::new(),
    };
    let rank = |t: Truth| match t {
        Truth::Exact { rank, .. } => rank.to_string(),
        _ => String::new(),
    };
    for m in &r.metrics {
        let ov: Vec<String> = TOP_K
            .iter()
            .map(|k| {
                m.overlap
                    .iter()
                    .find(|o| o.0 == *k)
                    .map_or(String::new(), |o| o.1.to_string())
            })
            .collect();
        let best = m.best_of_top.as_ref();
        let player = r.players.iter().find(|p| p.metric == m.metric);
        outln!(
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            r.list,
            mode_name(r.hard),
            if r.complete { "yes" } else { "no" },
            r.solved,
            r.openers,
            metric_name(m.metric),
            num(m.spearman),
            num(m.kendall),
            num(m.spearman_exact),
            num(m.kendall_exact),
            ov[0],
            ov[1],
            ov[2],
            m.favourite.opener,
            total(m.favourite.truth),
            rank(m.favourite.truth),
            m.favourite
                .over_optimum
                .map_or(String::new(), |d| d.to_string()),
            best.map_or(String::new(), |b| b.opener.to_string()),
            best.map_or(String::new(), |b| b.metric_rank.to_string()),
            best.map_or(String::new(), |b| total(b.truth)),
            player.map_or(String::new(), |p| p.opener.to_string()),
            player.map_or(String::new(), |p| p.total.to_string()),
            player.map_or(String::new(), |p| p.over_limit.to_string()),
            player.map_or(String::new(), |p| total(p.opener_truth)),
            player
                .and_then(|p| p.over_own_opener)
                .map_or(String::new(), |d| d.to_string()),
            player.map_or(String::new(), |p| p.over_optimum.to_string()),
            r.optimum
        );
    }
    Ok(())
}
