//! The `serve` command: the local web page and JSON API of [`wordle_tree::players::serve`], on
//! a small tokio runtime. Ctrl-C or SIGTERM stop it (running searches are interrupted
//! through the shared stop flag, then the server drains and exits with 130).
//!
//! SIGPIPE: `main` restores its default action (so `rank | head` ends quietly), which
//! would let any client kill the server: hyper writes answers with `writev`, which
//! raises SIGPIPE when the client has gone (a pipelined burst then a close did it on
//! the first or second try). `serve` ignores it before starting any thread, so a
//! write to a closed connection is an error for that connection only.

use super::next::parse_seconds;
use super::Ctx;
use anyhow::{Context, Result};
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use wordle_tree::players::serve::{self, App, Config};

#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// TCP port (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    bind: std::net::IpAddr,
    /// Deadline of each request's search, in seconds: values not proved by then are
    /// answered as proved ranges.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, default_value = "2")]
    time_limit: Duration,
    /// Searches run at once (default: the number of cores).
    #[arg(long)]
    max_searches: Option<usize>,
}

/// `serve --help`'s examples.
pub const SERVE_EXAMPLES: &str = "Examples:
  wordle-tree serve                        http://127.0.0.1:8080/, today's NYT list (nyt2023)
  wordle-tree --list wordle --hard serve   the page opens on the original list, hard mode
  wordle-tree serve --port 0 --bind 0.0.0.0 --time-limit 5

The page serves the lists with a shipped tree: nyt2023 (the NYT's answers since 2023:
today's puzzle), nyt (the NYT's 2022 list) and wordle (the original 2021 list). --list
and --hard choose what it opens on; a link keeps its own (?list=&mode=&h=GUESS:FEEDBACK,...).
API: /api/lists, /api/next, /api/candidates, /api/review, /api/history, /api/opener
(list, mode, history or h, answer); see docs/guide/players.md.";

/// The lists the page serves (each in the modes whose shipped tree is found), the
/// default first.
pub const SERVED_LISTS: [&str; 3] = ["nyt2023", "nyt", "wordle"];

pub fn run(ctx: &Ctx, args: &ServeArgs) -> Result<ExitCode> {
    #[cfg(unix)]
    // SAFETY: no other thread has been started by this command yet (the runtime and
    // the search pool come later), and SIG_IGN is a valid disposition.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    // --list and --hard choose the page's default; a list the page does not serve is
    // refused rather than ignored.
    let list_given = super::LIST_GIVEN.load(Ordering::Relaxed);
    let default_list = if list_given || ctx.game.name == "custom" {
        ctx.game.name.clone()
    } else {
        SERVED_LISTS[0].to_string()
    };
    if !SERVED_LISTS.contains(&default_list.as_str()) {
        anyhow::bail!(
            "serve: the page serves the lists {} (the ones with a shipped tree), not '{}'; type e.g. `wordle-tree --list nyt2023 serve`",
            SERVED_LISTS.join(", "),
            default_list
        );
    }
    let config = Config {
        lists: SERVED_LISTS.iter().map(|l| l.to_string()).collect(),
        default: (default_list, ctx.hard),
        tree_dirs: super::shipped_dirs(ctx, "trees"),
        table_dirs: super::shipped_dirs(ctx, "tables"),
        time_limit: args.time_limit,
        max_searches: args.max_searches.unwrap_or(cores).max(1),
    };
    let app = Arc::new(App::new(config, ctx.stop)?);
    if let Some((list, hard)) = app.default_missing() {
        anyhow::bail!(
            "serve: no shipped tree for the list {list} in {} mode, so the page cannot open on it; drop --list/--hard or rebuild the tree (trees/README.md)",
            super::mode_name(hard)
        );
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(cores.min(4))
        .enable_all()
        .build()
        .context("starting the tokio runtime")?;
    let stop = ctx.stop;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind((args.bind, args.port))
            .await
            .with_context(|| format!("cannot listen on {}:{}", args.bind, args.port))?;
        let addr = listener.local_addr()?;
        let served: Vec<String> = app
            .served()
            .iter()
            .map(|(l, h)| format!("{l}/{}", if *h { "hard" } else { "normal" }))
            .collect();
        let (dl, dh) = app.default_setup();
        outln!(
            "serving {} on http://{addr}/ (the page opens on {dl}/{})",
            served.join(", "),
            super::mode_name(dh)
        );
        std::io::stdout().flush()?;
        let shutdown = async move {
            while !stop.load(Ordering::Relaxed) {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        };
        serve::run(app, listener, shutdown).await?;
        anyhow::Ok(())
    })?;
    if stop.load(Ordering::Relaxed) {
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}
