//! The analysis commands: `rank` (every guess scored by one-level metrics, with the
//! exact totals of an opener table beside them under `--exact`) and `simulate` (a
//! heuristic player, or a tree, over every answer).

use super::*;

pub(super) fn rank(
    ctx: &Ctx,
    metric: Metric,
    top: usize,
    fmt: RankFormat,
    exact: bool,
    sort: RankSort,
) -> Result<ExitCode> {
    let game = ctx.game;
    let t = Instant::now();
    let table = FeedbackTable::build(game);
    let ids: Vec<AnswerId> = game.all_answer_ids();
    let mut scores = analysis::rank(game, &table, &ids, metric);
    let shown = if top == 0 {
        scores.len()
    } else {
        top.min(scores.len())
    };
    let exact_table = if exact { Some(rank_table(ctx)?) } else { None };
    let ranked = Ranked {
        game,
        exact: exact_table.as_ref().map(|(t, f)| (t, f.as_path())),
    };
    if sort == RankSort::Exact {
        // A stable sort: ties keep the metric's order.
        scores.sort_by_key(|s| match ranked.cell(s.guess) {
            ExactCell::Ranked(e) => (0, e.total),
            ExactCell::CannotFinish => (1, 0),
            ExactCell::Unsolved => (2, 0),
        });
    }
    let scored = scores.len();
    let scores = &scores[..shown];
    match fmt {
        RankFormat::Table => {
            let by = match sort {
                RankSort::Metric => format!("{metric:?}"),
                RankSort::Exact => format!("the exact total (ties by {metric:?})"),
            };
            ranked.print_table(scores, &by)?;
            outln!(
                "{scored} guesses scored in {:.3} s",
                t.elapsed().as_secs_f64()
            );
        }
        RankFormat::Csv => ranked.print_csv(scores)?,
        RankFormat::Json => ranked.print_json(scores)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// `rank --exact`'s opener table, or the error that says where one is looked for.
fn rank_table(ctx: &Ctx) -> Result<(OpenerTable, PathBuf)> {
    opener_table(ctx)?.with_context(|| {
        format!(
            "no opener table for {} in {} mode ({} is not built in{}); pass --table FILE or build one (`openers --exact --write-table FILE`, see docs/guide/tables.md)",
            ctx.game.list_tag(),
            mode_name(ctx.hard),
            opener_table::shipped_name(ctx.game, ctx.hard),
            match ctx.data {
                Some(d) => format!(" nor in {}", d.join("tables").display()),
                None => String::new(),
            }
        )
    })
}

/// The metric columns of `rank`'s table, aligned (the header's and every row's).
fn metric_cells(c: [&str; 7]) -> String {
    format!(
        "{:>5}  {:<5}  {:>6}  {:>9}  {:>8}  {:>7}  {:>9}",
        c[0], c[1], c[2], c[3], c[4], c[5], c[6]
    )
}

/// What `rank --exact` shows of one opener from the table.
#[derive(Clone, Copy)]
enum ExactCell {
    /// An exact total with its rank (among the rows solved so far when partial).
    Ranked(Exact),
    CannotFinish,
    /// Not in a partial table.
    Unsolved,
}

/// An opener's exact total, its optimal tree's max depth and its rank in the table.
#[derive(Clone, Copy)]
struct Exact {
    total: u64,
    max_depth: u8,
    rank: usize,
}

impl Exact {
    /// The columns every view of an exact row starts with: total, average, max depth.
    fn lead(&self, n_answers: usize) -> [String; 3] {
        [
            self.total.to_string(),
            opener_table::average(self.total, n_answers),
            self.max_depth.to_string(),
        ]
    }
}

impl ExactCell {
    /// The exact columns of a table row: total, average, depth and rank, the rank
    /// starred when the table is `partial`.
    fn table_text(self, n_answers: usize, partial: bool) -> String {
        let [total, average, depth, rank] = match self {
            ExactCell::Ranked(e) => {
                let [total, average, depth] = e.lead(n_answers);
                let rank = format!("{}{}", e.rank, if partial { "*" } else { "" });
                [total, average, depth, rank]
            }
            ExactCell::CannotFinish => ["-", "-", "-", "can't end"].map(String::from),
            ExactCell::Unsolved => ["?", "?", "?", "?"].map(String::from),
        };
        format!("  {total:>6}  {average:>7}  {depth:>5}  {rank:>10}")
    }

    /// The exact columns of a CSV row: total, average, max_depth, exact_rank and
    /// exact_rank_proved (`no` when the table is `partial`).
    fn csv_text(self, n_answers: usize, partial: bool) -> String {
        match self {
            ExactCell::Ranked(e) => {
                let proved = if partial { "no" } else { "yes" };
                let [total, average, depth] = e.lead(n_answers);
                format!(",{total},{average},{depth},{},{proved}", e.rank)
            }
            ExactCell::CannotFinish => ",cannot finish,,,,".to_string(),
            ExactCell::Unsolved => ",,,,,".to_string(),
        }
    }
}

/// The rows `rank` prints, and the opener table of `--exact` with its file.
struct Ranked<'a> {
    game: &'a Game,
    exact: Option<(&'a OpenerTable, &'a Path)>,
}

impl Ranked<'_> {
    /// True when the table is partial: its ranks are among the openers solved so far.
    fn partial(&self) -> bool {
        self.exact.is_some_and(|(t, _)| !t.is_complete())
    }

    fn cell(&self, g: GuessId) -> ExactCell {
        let row = self
            .exact
            .and_then(|(t, _)| t.get(self.game.guesses[g.index()]));
        match row.map(|r| (r.entry, r.rank)) {
            Some((opener_table::Entry::Exact { total, max_depth }, Some(rank))) => {
                ExactCell::Ranked(Exact {
                    total,
                    max_depth,
                    rank,
                })
            }
            Some(_) => ExactCell::CannotFinish,
            None => ExactCell::Unsolved,
        }
    }

    fn word(&self, s: &analysis::Score) -> Word {
        self.game.guesses[s.guess.index()]
    }

    /// The metric cells of the `i`-th score: rank, guess, worst, expected, entropy,
    /// buckets, frequency; `decimals` of the expected size, entropy and frequency.
    fn metrics(&self, i: usize, s: &analysis::Score, decimals: [usize; 3]) -> [String; 7] {
        let [e, h, f] = decimals;
        [
            (i + 1).to_string(),
            self.word(s).to_string(),
            s.worst.to_string(),
            format!("{:.e$}", s.expected),
            format!("{:.h$}", s.entropy),
            s.buckets.to_string(),
            format!("{:.f$}", s.frequency),
        ]
    }

    /// The aligned table, its footnotes owed (a starred partial rank, an unsolved
    /// opener, one that cannot finish).
    fn print_table(&self, scores: &[analysis::Score], by: &str) -> Result<()> {
        let game = self.game;
        outln!(
            "{}; ranked by {by}",
            describe(game, false).replace(", normal mode", "")
        );
        let mut head = metric_cells([
            "rank",
            "guess",
            "worst",
            "expected",
            "entropy",
            "buckets",
            "frequency",
        ]);
        if let Some((t, file)) = self.exact {
            outln!("exact totals from {}: {}", file.display(), t.describe());
            head += &format!(
                "  {:>6}  {:>7}  {:>5}  {:>10}",
                "total", "average", "depth", "exact rank"
            );
        }
        outln!("{head}");
        let partial = self.partial();
        let (mut starred, mut unsolved, mut cannot) = (false, false, false);
        for (i, s) in scores.iter().enumerate() {
            let cells = self.metrics(i, s, [3, 4, 4]);
            let mut line = metric_cells(cells.each_ref().map(String::as_str));
            if self.exact.is_some() {
                let cell = self.cell(s.guess);
                starred |= partial && matches!(cell, ExactCell::Ranked(_));
                cannot |= matches!(cell, ExactCell::CannotFinish);
                unsolved |= matches!(cell, ExactCell::Unsolved);
                line += &cell.table_text(game.n_answers(), partial);
            }
            outln!("{line}");
        }
        if let Some((t, _)) = self.exact {
            if starred {
                outln!(
                    "* rank among the {} openers solved so far, of {} (the table is partial: not a proved rank)",
                    t.solved(),
                    t.openers
                );
            }
            if unsolved {
                outln!("? not in the table yet (the table is partial)");
            }
            if cannot {
                outln!(
                    "can't end: cannot find every answer within {} guesses",
                    t.max_guesses
                );
            }
        }
        Ok(())
    }

    fn print_csv(&self, scores: &[analysis::Score]) -> Result<()> {
        if self.exact.is_some() {
            outln!("rank,guess,worst,expected,entropy,buckets,frequency,total,average,max_depth,exact_rank,exact_rank_proved");
        } else {
            outln!("rank,guess,worst,expected,entropy,buckets,frequency");
        }
        for (i, s) in scores.iter().enumerate() {
            let mut line = self.metrics(i, s, [6, 6, 6]).join(",");
            if self.exact.is_some() {
                line += &self
                    .cell(s.guess)
                    .csv_text(self.game.n_answers(), self.partial());
            }
            outln!("{line}");
        }
        Ok(())
    }

    fn print_json(&self, scores: &[analysis::Score]) -> Result<()> {
        let rows: Vec<serde_json::Value> = scores
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let mut v = serde_json::to_value(s).expect("scores serialise");
                v["rank"] = (i + 1).into();
                let word = self.word(s);
                v["guess"] = word.to_string().into();
                if let Some((t, file)) = self.exact {
                    v["exact"] = opener_json(t, file, word);
                }
                v
            })
            .collect();
        outln!("{}", serde_json::to_string_pretty(&rows)?);
        Ok(())
    }
}

pub(super) fn simulate(
    ctx: &Ctx,
    strategy: &str,
    opener: Option<&str>,
    plot: Option<&Path>,
) -> Result<ExitCode> {
    let game = ctx.game;
    let t = Instant::now();
    // The arguments are checked before the feedback table is built, so a bad one is
    // refused at once (the same messages, in the same order).
    let opener_id = opener
        .map(|o| allowed_guess(game, o, "opener"))
        .transpose()?;
    enum Strategy<'a> {
        Tree(&'a str),
        Player(Metric),
    }
    let strategy = match strategy.strip_prefix("tree:") {
        Some(_) if opener.is_some() => {
            bail!("--opener cannot be combined with a tree strategy (the tree has its own opener)")
        }
        Some(path) => Strategy::Tree(path),
        None => Strategy::Player(Metric::from_str(strategy, true).map_err(|_| {
            anyhow::anyhow!("unknown strategy '{}' (use worst, expected, entropy, buckets, frequency or tree:FILE)", echo(strategy))
        })?),
    };
    let (depths, label) = match strategy {
        Strategy::Tree(path) => {
            let tree = file::load(Path::new(path), game)?;
            (tree.verify(game).depths, format!("tree {path}"))
        }
        Strategy::Player(metric) => {
            let table = FeedbackTable::build(game);
            let sim = analysis::simulate(game, &table, metric, opener_id, ctx.hard);
            (sim.depths, format!("{metric:?} player"))
        }
    };
    let sim = analysis::Simulation { depths };
    let failures: Vec<String> = sim
        .depths
        .iter()
        .enumerate()
        .filter(|(_, &d)| d > 6 || d == 0)
        .map(|(a, _)| game.answers[a].to_string())
        .collect();
    outln!("{label}, {}", describe(game, ctx.hard));
    outln!(
        "total {} guesses, average {:.4}",
        sim.total(),
        sim.average()
    );
    outln!("histogram {}", histogram_text(&sim.histogram()));
    outln!(
        "not found within 6: {}{}",
        failures.len(),
        if failures.is_empty() {
            String::new()
        } else {
            format!(" ({})", failures.join(" "))
        }
    );
    if let Some(p) = plot {
        let caption = format!("Guess distribution: {label}, {}", describe(game, ctx.hard));
        let series = [(format!("total {}", sim.total()), sim.histogram())];
        analysis::plot::depths(&caption, &series, p)?;
        outln!("plot written to {}", p.display());
    }
    outln!("time {:.3} s", t.elapsed().as_secs_f64());
    Ok(ExitCode::SUCCESS)
}
