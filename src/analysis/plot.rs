//! Plots of the metrics report and of guess distributions, as SVG or PNG files
//! (`metrics --plot`, `--plot-totals`, `--plot-depths`, `simulate --plot`).
//!
//! Owns the figures: every metric against the exact total (one panel per metric, the
//! truly best openers and the metric's favourite labelled, openers that cannot finish
//! drawn in a band above the exact ones), the histogram of exact totals (with each
//! metric's favourite marked), and grouped bars of guess distributions.
//!
//! Drawing is `plotters` with its `ab_glyph` text: no system library, but text needs
//! a TrueType font, for PNG and SVG alike (plotters measures labels to place them).
//! [`font`] looks for one once: `WORDLE_TREE_FONT`, then the usual Debian paths
//! (`fonts-dejavu-core`, `fonts-liberation`, `fonts-noto-core`, `fonts-freefont-ttf`);
//! none is an error naming the package, never a figure without text. A figure is drawn
//! into memory and written atomically ([`crate::store::results::write_atomic`]): no
//! half-written file. Sizes are chosen for a page about 800 px wide.

use super::metrics::{metric_label, metric_name, value, MetricRow, Report, Truth, METRICS};
use super::Metric;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// What can go wrong making a plot.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    #[error("{0}: the plot's file name must end in .svg or .png")]
    Format(PathBuf),
    #[error("plots need a TrueType font: {0}")]
    NoFont(String),
    #[error("{0}: drawing failed: {1}")]
    Draw(PathBuf, String),
    #[error("{0}: {1}")]
    Io(PathBuf, std::io::Error),
}

/// Fonts tried in order after `WORDLE_TREE_FONT`.
const FONT_PATHS: [&str; 5] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
    "/usr/share/fonts/truetype/freefont/FreeSans.ttf",
    "/System/Library/Fonts/Supplemental/Arial.ttf",
];

/// Registers a TrueType font as plotters' "sans-serif", once per process.
pub fn font() -> Result<(), PlotError> {
    static FONT: OnceLock<Result<(), String>> = OnceLock::new();
    FONT.get_or_init(|| {
        let from_env = std::env::var_os("WORDLE_TREE_FONT").map(PathBuf::from);
        let paths: Vec<PathBuf> = from_env
            .iter()
            .cloned()
            .chain(FONT_PATHS.iter().map(PathBuf::from))
            .collect();
        for p in &paths {
            let Ok(bytes) = std::fs::read(p) else {
                if from_env.as_ref() == Some(p) {
                    return Err(format!("WORDLE_TREE_FONT={} cannot be read", p.display()));
                }
                continue;
            };
            // Plotters keeps fonts for the life of the process.
            let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
            return plotters::style::register_font("sans-serif", FontStyle::Normal, bytes)
                .map_err(|_| format!("{} is not a TrueType font", p.display()));
        }
        Err("none found (install the Debian package fonts-dejavu-core, or set WORDLE_TREE_FONT=FILE.ttf)".into())
    })
    .clone()
    .map_err(PlotError::NoFont)
}

#[derive(Clone, Copy)]
enum Format {
    Svg,
    Png,
}

fn format_of(path: &Path) -> Result<Format, PlotError> {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase())
        .as_deref()
    {
        Some("svg") => Ok(Format::Svg),
        Some("png") => Ok(Format::Png),
        _ => Err(PlotError::Format(path.into())),
    }
}

type Drawn = Result<(), String>;

/// The figures, each drawn on any backend.
enum Plot<'a> {
    Scatter(&'a Report),
    Totals(&'a Report),
    Depths(&'a str, &'a [(String, Vec<usize>)]),
}

impl Plot<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Drawn {
        match self {
            Plot::Scatter(r) => scatter_on(r, root),
            Plot::Totals(r) => totals_on(r, root),
            Plot::Depths(caption, series) => depths_on(caption, series, root),
        }
    }
}

/// Draws a figure of `size` and writes it to `path` (SVG or PNG by the extension),
/// atomically.
fn render(path: &Path, size: (u32, u32), figure: &Plot) -> Result<(), PlotError> {
    let format = format_of(path)?;
    font()?;
    let bad = |e: String| PlotError::Draw(path.into(), e);
    let bytes = match format {
        Format::Svg => {
            let mut s = String::new();
            {
                let root = SVGBackend::with_string(&mut s, size).into_drawing_area();
                figure.draw(&root).map_err(bad)?;
                root.present().map_err(|e| bad(e.to_string()))?;
            }
            s.into_bytes()
        }
        Format::Png => {
            let mut rgb = vec![0u8; size.0 as usize * size.1 as usize * 3];
            {
                let root = BitMapBackend::with_buffer(&mut rgb, size).into_drawing_area();
                figure.draw(&root).map_err(bad)?;
                root.present().map_err(|e| bad(e.to_string()))?;
            }
            let mut out = Vec::new();
            let mut enc = png::Encoder::new(&mut out, size.0, size.1);
            enc.set_color(png::ColorType::Rgb);
            enc.set_depth(png::BitDepth::Eight);
            enc.set_compression(png::Compression::Best);
            let mut w = enc.write_header().map_err(|e| bad(e.to_string()))?;
            w.write_image_data(&rgb).map_err(|e| bad(e.to_string()))?;
            w.finish().map_err(|e| bad(e.to_string()))?;
            out
        }
    };
    crate::store::results::write_atomic(path, &bytes).map_err(|e| PlotError::Io(path.into(), e))
}

/// Plotters' errors as text (they are generic over the backend).
fn text<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

const FONT: &str = "sans-serif";
/// Colours: exact openers, cannot-finish openers, labels of the best, favourites.
const DOT: RGBColor = RGBColor(31, 119, 180);
const CANNOT: RGBColor = RGBColor(214, 39, 40);
const BEST: RGBColor = RGBColor(0, 0, 0);
const FAVOURITE: RGBColor = RGBColor(230, 120, 0);
/// One colour per series of grouped bars.
const SERIES: [RGBColor; 7] = [
    RGBColor(44, 160, 44),
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

/// The figure's title: lists, mode, and whether the table is complete.
fn title(r: &Report) -> String {
    let mode = if r.hard { "hard" } else { "normal" };
    if r.complete {
        format!("{} lists, {mode} mode: all {} openers", r.list, r.openers)
    } else {
        format!(
            "{} lists, {mode} mode: PARTIAL table, {} of {} openers",
            r.list, r.solved, r.openers
        )
    }
}

/// How many of the truly best openers are labelled in each panel.
const LABELLED: usize = 3;

/// Every metric against the exact total, one panel per metric, plus a panel of the
/// correlations.
pub fn scatter(r: &Report, path: &Path) -> Result<(), PlotError> {
    render(path, (900, 1140), &Plot::Scatter(r))
}

fn scatter_on<DB: DrawingBackend>(r: &Report, root: &DrawingArea<DB, Shift>) -> Drawn {
    root.fill(&WHITE).map_err(text)?;
    let root = root
        .titled(
            &format!("One-level metrics against the exact total: {}", title(r)),
            (FONT, 19),
        )
        .map_err(text)?;
    let panels = root.split_evenly((3, 2));
    let axis = TotalAxis::of(r);
    let best = truly_best(r);
    for (panel, (&m, row)) in panels.iter().zip(METRICS.iter().zip(&r.metrics)) {
        let chart = MetricChart::draw(panel, r, &axis, m, row)?;
        chart.label(r, &axis, &best, m, row)?;
    }
    if let Some(panel) = panels.get(METRICS.len()) {
        figures_panel(panel, r)?;
    }
    Ok(())
}

/// The vertical axis every panel of the scatter shares: exact totals from the
/// optimum up, and above them a band for the openers that cannot finish.
struct TotalAxis {
    /// The largest exact total (the optimum when there is none).
    max_total: u64,
    /// From the optimum to `max_total`, at least 1: the unit of the margins.
    span: f64,
    /// Where the openers that cannot finish are drawn.
    band: f64,
    range: std::ops::Range<f64>,
}

impl TotalAxis {
    fn of(r: &Report) -> TotalAxis {
        let max_total = r
            .truths
            .iter()
            .filter_map(|t| t.total())
            .max()
            .unwrap_or(r.optimum);
        let span = (max_total - r.optimum).max(1) as f64;
        // Openers that cannot finish are drawn in a band above the exact ones.
        let band = max_total as f64 + 0.08 * span;
        let top = if r.cannot_finish > 0 {
            band + 0.06 * span
        } else {
            max_total as f64 + 0.04 * span
        };
        TotalAxis {
            max_total,
            span,
            band,
            range: (r.optimum as f64 - 0.04 * span)..top,
        }
    }

    /// Where an opener's point stands: its exact total, the band, or nowhere when
    /// the table has not solved it.
    fn y(&self, t: Truth) -> Option<f64> {
        match t {
            Truth::Exact { total, .. } => Some(total as f64),
            Truth::CannotFinish => Some(self.band),
            Truth::Unsolved => None,
        }
    }
}

/// The truly best openers, by total then opener: the [`LABELLED`] labelled in
/// black on every panel.
fn truly_best(r: &Report) -> Vec<usize> {
    let mut best: Vec<usize> = (0..r.truths.len())
        .filter(|&g| r.truths[g].total().is_some())
        .collect();
    best.sort_by_key(|&g| (r.truths[g].total(), g));
    best.truncate(LABELLED);
    best
}

/// One metric's panel: every opener's metric value (x) against its exact total (y).
struct MetricChart<'a, DB: DrawingBackend> {
    chart: ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    /// Each opener's metric value.
    xs: Vec<f64>,
    /// The least and greatest value, and the margin left around them.
    lo: f64,
    hi: f64,
    pad: f64,
}

impl<'a, DB: DrawingBackend> MetricChart<'a, DB> {
    /// The panel's axes and the cloud of points, with the band's caption when some
    /// opener cannot finish.
    fn draw(
        panel: &'a DrawingArea<DB, Shift>,
        r: &Report,
        axis: &TotalAxis,
        m: Metric,
        row: &MetricRow,
    ) -> Result<MetricChart<'a, DB>, String> {
        let xs: Vec<f64> = r.scores.iter().map(|s| value(m, s)).collect();
        let (lo, hi) = xs
            .iter()
            .fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
        let pad = (hi - lo).max(1e-9) * 0.04;
        let better = if left_better(m) {
            "better: left"
        } else {
            "better: right"
        };
        let mut chart = ChartBuilder::on(panel)
            .caption(
                format!(
                    "{} (Spearman {})",
                    metric_label(m),
                    row.spearman.map_or("-".into(), |v| format!("{v:.3}"))
                ),
                (FONT, 16),
            )
            .margin(6)
            .margin_right(14)
            .x_label_area_size(38)
            .y_label_area_size(48)
            .build_cartesian_2d((lo - pad)..(hi + pad), axis.range.clone())
            .map_err(text)?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_labels(5)
            .y_labels(6)
            .x_desc(format!("{} ({better})", metric_name(m)))
            .x_label_formatter(&|x| {
                if hi - lo >= 20.0 {
                    format!("{x:.0}")
                } else {
                    format!("{x:.1}")
                }
            })
            .y_desc("exact total")
            .label_style((FONT, 12))
            .axis_desc_style((FONT, 13))
            .y_label_formatter(&|y| {
                if *y > axis.max_total as f64 + 0.02 * axis.span {
                    String::new()
                } else {
                    format!("{y:.0}")
                }
            })
            .draw()
            .map_err(text)?;
        chart
            .draw_series(r.truths.iter().enumerate().filter_map(|(g, &t)| {
                let colour = if t == Truth::CannotFinish {
                    CANNOT
                } else {
                    DOT
                };
                axis.y(t)
                    .map(|y| Circle::new((xs[g], y), 1, colour.mix(0.35).filled()))
            }))
            .map_err(text)?;
        if r.cannot_finish > 0 {
            chart
                .draw_series(std::iter::once(Text::new(
                    format!(
                        "cannot finish within {} ({})",
                        r.max_guesses, r.cannot_finish
                    ),
                    (lo - pad * 0.5, axis.band + 0.045 * axis.span),
                    (FONT, 12).into_font().color(&CANNOT),
                )))
                .map_err(text)?;
        }
        Ok(MetricChart {
            chart,
            xs,
            lo,
            hi,
            pad,
        })
    }

    /// Labels the truly `best` (black) and the metric's favourite (orange), in a
    /// column in the corner the cloud leaves empty (lower right when smaller is
    /// better, upper right otherwise), each with a leader line to its point.
    fn label(
        mut self,
        r: &Report,
        axis: &TotalAxis,
        best: &[usize],
        m: Metric,
        row: &MetricRow,
    ) -> Drawn {
        let (lo, hi, pad, span) = (self.lo, self.hi, self.pad, axis.span);
        let fav = r
            .words
            .iter()
            .position(|&w| w == row.favourite.opener)
            .expect("the favourite is an allowed guess");
        let mut marks: Vec<(usize, RGBColor, String)> = best
            .iter()
            .filter(|&&g| g != fav)
            .map(|&g| (g, BEST, r.words[g].to_string()))
            .collect();
        marks.push((fav, FAVOURITE, format!("{} (its #1)", row.favourite.opener)));
        let (lx, ly0) = if left_better(m) {
            (lo + 0.55 * (hi - lo), r.optimum as f64 + 0.02 * span)
        } else {
            (lo + 0.72 * (hi - lo), r.optimum as f64 + 0.42 * span)
        };
        // Labels bottom-up in the order of their points' totals.
        marks.sort_by(|a, b| {
            axis.y(r.truths[a.0])
                .partial_cmp(&axis.y(r.truths[b.0]))
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        for (i, (g, colour, label)) in marks.into_iter().enumerate() {
            let Some(y) = axis.y(r.truths[g]) else {
                continue;
            };
            let x = self.xs[g];
            let ly = ly0 + 0.07 * span * i as f64;
            self.chart
                .draw_series([PathElement::new(
                    vec![(x, y), (lx, ly)],
                    colour.mix(0.6).stroke_width(1),
                )])
                .map_err(text)?;
            self.chart
                .draw_series([Circle::new((x, y), 4, colour.filled())])
                .map_err(text)?;
            let style = (FONT, 13)
                .into_font()
                .color(&colour)
                .pos(Pos::new(HPos::Left, VPos::Center));
            self.chart
                .draw_series([Text::new(label, (lx + pad * 0.3, ly), style)])
                .map_err(text)?;
        }
        Ok(())
    }
}

/// True for the metrics where a smaller value is better (the point cloud leans left).
fn left_better(m: Metric) -> bool {
    matches!(m, Metric::Worst | Metric::Expected)
}

/// The scatter's last panel: the figures in words (each metric's rank correlations
/// and top-100 overlap, the optimum, the legend).
fn figures_panel<DB: DrawingBackend>(panel: &DrawingArea<DB, Shift>, r: &Report) -> Drawn {
    let style = TextStyle::from((FONT, 14).into_font()).color(&BLACK);
    let columns = [20, 130, 220, 300];
    let mut table = vec![["metric", "Spearman", "Kendall", "top-100"].map(String::from)];
    for row in &r.metrics {
        table.push([
            metric_name(row.metric).to_string(),
            row.spearman.map_or("-".into(), |v| format!("{v:.3}")),
            row.kendall.map_or("-".into(), |v| format!("{v:.3}")),
            row.overlap
                .iter()
                .find(|o| o.0 == 100)
                .map_or(0, |o| o.1)
                .to_string(),
        ]);
    }
    panel
        .draw_text("rank correlation with the exact total", &style, (20, 30))
        .map_err(text)?;
    for (i, cells) in table.iter().enumerate() {
        for (cell, x) in cells.iter().zip(columns) {
            panel
                .draw_text(cell, &style, (x, 56 + 22 * i as i32))
                .map_err(text)?;
        }
    }
    let below = 56 + 22 * (table.len() as i32 + 1);
    let mut lines: Vec<String> = Vec::new();
    lines.push(format!(
        "optimum {} ({})",
        r.optimum,
        join_words(&r.best_openers)
    ));
    lines.push("black: the truly best openers".into());
    lines.push("orange: the metric's first choice".into());
    if r.cannot_finish > 0 {
        lines.push(format!("red band: {} openers that cannot", r.cannot_finish));
        lines.push(format!(
            "finish within {} (ranked last, tied)",
            r.max_guesses
        ));
    }
    for (i, l) in lines.iter().enumerate() {
        panel
            .draw_text(l, &style, (20, below + 22 * i as i32))
            .map_err(text)?;
    }
    Ok(())
}

fn join_words(w: &[crate::game::word::Word]) -> String {
    w.iter()
        .map(|w| w.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The histogram of exact totals, each metric's favourite marked.
pub fn totals(r: &Report, path: &Path) -> Result<(), PlotError> {
    render(path, (900, 520), &Plot::Totals(r))
}

fn totals_on<DB: DrawingBackend>(r: &Report, root: &DrawingArea<DB, Shift>) -> Drawn {
    root.fill(&WHITE).map_err(text)?;
    let totals: Vec<u64> = r.truths.iter().filter_map(|t| t.total()).collect();
    let (lo, hi) = (r.optimum, totals.iter().copied().max().unwrap_or(r.optimum));
    let width = ((hi - lo) / 60).max(1);
    let bins = ((hi - lo) / width + 1) as usize;
    let mut counts = vec![0u32; bins];
    for t in &totals {
        counts[((t - lo) / width) as usize] += 1;
    }
    let top = *counts.iter().max().unwrap_or(&1) as f64 * 1.25;
    let mut chart = ChartBuilder::on(root)
        .caption(
            format!("Exact totals of the openers: {}", title(r)),
            (FONT, 18),
        )
        .margin(10)
        .margin_right(20)
        .x_label_area_size(42)
        .y_label_area_size(58)
        .build_cartesian_2d(lo as f64..(lo + width * bins as u64) as f64, 0f64..top)
        .map_err(text)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(8)
        .y_labels(6)
        .x_desc(format!(
            "exact total guesses over the {} answers (bins of {width}){}",
            r.answers,
            if r.cannot_finish > 0 {
                format!("; {} cannot finish", r.cannot_finish)
            } else {
                String::new()
            }
        ))
        .y_desc("openers")
        .label_style((FONT, 13))
        .axis_desc_style((FONT, 14))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()
        .map_err(text)?;
    chart
        .draw_series(counts.iter().enumerate().map(|(i, &c)| {
            let x0 = (lo + width * i as u64) as f64;
            Rectangle::new(
                [(x0, 0.0), (x0 + width as f64, c as f64)],
                DOT.mix(0.8).filled(),
            )
        }))
        .map_err(text)?;
    // The optimum and each metric's favourite (metrics sharing one merged): a line up
    // from its exact total, then across to its label in the empty upper right.
    let mut marks: Vec<(Option<u64>, String)> = vec![(
        Some(r.optimum),
        format!("optimum: {} ({})", join_words(&r.best_openers), r.optimum),
    )];
    for row in &r.metrics {
        let t = row.favourite.truth.total();
        let what = match (t, row.favourite.truth) {
            (Some(t), _) => t.to_string(),
            (None, Truth::CannotFinish) => format!("cannot finish within {}", r.max_guesses),
            (None, _) => "not in the table".to_string(),
        };
        let name = metric_name(row.metric);
        let opener = row.favourite.opener.to_string();
        match marks
            .iter_mut()
            .skip(1)
            .find(|m| m.1.contains(&format!(": {opener} (")))
        {
            Some(m) => m.1.insert_str(0, &format!("{name}, ")),
            None => marks.push((t, format!("{name}: {opener} ({what})"))),
        }
    }
    let label_x = lo as f64 + 0.6 * (width * bins as u64) as f64;
    for (i, (t, label)) in marks.iter().enumerate() {
        let colour = if i == 0 {
            BLACK
        } else {
            SERIES[i % SERIES.len()]
        };
        let y = top * (0.95 - 0.08 * i as f64);
        // A favourite without an exact total has a label and no line.
        if let Some(t) = t {
            let x = *t as f64;
            chart
                .draw_series([PathElement::new(
                    vec![(x, 0.0), (x, y), (label_x, y)],
                    colour.stroke_width(2),
                )])
                .map_err(text)?;
        }
        chart
            .draw_series([Text::new(
                label.clone(),
                (label_x + width as f64 * 0.5, y),
                (FONT, 14)
                    .into_font()
                    .color(&colour)
                    .pos(Pos::new(HPos::Left, VPos::Center)),
            )])
            .map_err(text)?;
    }
    Ok(())
}

/// Grouped bars: answers found with d guesses, one series per (label, histogram).
pub fn depths(
    caption: &str,
    series: &[(String, Vec<usize>)],
    path: &Path,
) -> Result<(), PlotError> {
    render(path, (900, 480), &Plot::Depths(caption, series))
}

fn depths_on<DB: DrawingBackend>(
    caption: &str,
    series: &[(String, Vec<usize>)],
    root: &DrawingArea<DB, Shift>,
) -> Drawn {
    root.fill(&WHITE).map_err(text)?;
    let max_d = series
        .iter()
        .map(|s| s.1.len().saturating_sub(1))
        .max()
        .unwrap_or(1)
        .max(1);
    let top = series
        .iter()
        .flat_map(|s| s.1.iter())
        .copied()
        .max()
        .unwrap_or(1) as f64
        * 1.15;
    let mut chart = ChartBuilder::on(root)
        .caption(caption, (FONT, 18))
        .margin(10)
        .margin_right(20)
        .x_label_area_size(40)
        .y_label_area_size(58)
        .build_cartesian_2d(0.5f64..(max_d as f64 + 0.5), 0f64..top)
        .map_err(text)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(max_d + 1)
        .y_labels(6)
        .x_desc("guesses")
        .y_desc("answers")
        .label_style((FONT, 13))
        .axis_desc_style((FONT, 14))
        .x_label_formatter(&|x| {
            if (x - x.round()).abs() < 1e-6 && *x >= 1.0 {
                format!("{x:.0}")
            } else {
                String::new()
            }
        })
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()
        .map_err(text)?;
    let n = series.len().max(1) as f64;
    let w = 0.8 / n;
    for (s, (label, h)) in series.iter().enumerate() {
        let colour = SERIES[s % SERIES.len()];
        chart
            .draw_series((1..h.len()).filter(|&d| h[d] > 0).map(|d| {
                let x0 = d as f64 - 0.4 + w * s as f64;
                Rectangle::new([(x0, 0.0), (x0 + w * 0.92, h[d] as f64)], colour.filled())
            }))
            .map_err(text)?
            .label(label.clone())
            .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 12, y + 6)], colour.filled()));
        // Counts over the bars when they fit.
        if series.len() <= 2 {
            chart
                .draw_series((1..h.len()).filter(|&d| h[d] > 0).map(|d| {
                    let x = d as f64 - 0.4 + w * (s as f64 + 0.46);
                    Text::new(
                        h[d].to_string(),
                        (x, h[d] as f64 + top * 0.01),
                        (FONT, 13)
                            .into_font()
                            .color(&BLACK)
                            .pos(Pos::new(HPos::Center, VPos::Bottom)),
                    )
                }))
                .map_err(text)?;
        }
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK.mix(0.3))
        .label_font((FONT, 14))
        .draw()
        .map_err(text)?;
    Ok(())
}
